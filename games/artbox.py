"""ArtBox: draw your secret word with exactly the four shapes on the dice, then guess.

The rules of the design's rules/artbox.cs.txt (English: artbox.en.md) as pure functions over a
frozen state. A round: everyone keeps one of two word cards; the starting player rolls
the four shape dice; everyone draws their word with exactly those shapes and takes the
next order token when done (the picture is then locked); the pictures are laid out at
random numbers and the words (everyone's plus a few extra) beside them; everyone matches
words to the other players' pictures, the first to finish turns the hourglass; then
picture by picture the owners are revealed and two points awarded: red to the most
recognised picture (a rule-breaking picture cannot win it), grey to the most correct
guesses (not the red winner; a rule-breaker loses every tie). The shape check comes from
games.geometry, and the other players may overrule it by a majority.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final, Literal

from games import options as options_
from games import registry
from games.artbox_words import WORDS, Word
from games.codec import decode, drop_unset, to_jsonable
from games.core import (
    END_EARLY,
    ENDED_EARLY,
    SEAT_BACK,
    SEAT_LEFT,
    TABLE,
    TIME_UP,
    TOO_FEW,
    VOTE,
    VOTE_COUNTDOWN_S,
    Action,
    BadOptions,
    Deadline,
    IllegalAction,
    Outcome,
    Seat,
    SeatInfo,
    check_end_early,
    majority,
    require,
    seat_change,
)
from games.geometry import Shape, check_artbox_drawing
from games.memo import SameParts
from games.rng import Rng
from games.sheet import Stroke
from games.strokes import stroke_from_data, stroke_to_data

DIE_FACES: Final = ("circle", "square", "triangle", "line", "circle", "triangle")
"""The faces of each of the four identical shape dice (the only place they are defined).

Circle and triangle appear twice: they make pictures more easily than a lone line. A roll
of four dice may show a shape more than once; the picture must then use it that often.
"""
DICE: Final = 4
DEFAULT_SECONDS: Final = 60
MAX_STROKES: Final = 60


def target_points(players: int) -> int:
    """Points that end the game: 5 for 3-4 players, 4 for 5-6, 3 for 7-8."""
    return 5 if players <= 4 else 4 if players <= 6 else 3


def extra_words(players: int) -> int:
    """Extra word cards laid out with the players' words: 3 / 2 / 1."""
    return 3 if players <= 4 else 2 if players <= 6 else 1


Phase = Literal["choose", "roll", "create", "match", "reveal", "points", "over"]


@dataclass(frozen=True)
class Check:
    """The shape check of one picture, as the player and the table see it."""

    legal: bool
    found: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    reason_en: str = ""
    reason_cs: str = ""


@dataclass(frozen=True)
class Vote:
    """Does this picture break the shape rules? Everyone but its artist votes."""

    artist: Seat
    votes: Mapping[Seat, bool] = field(default_factory=options_.nothing)
    # Who asked to count the votes, and when the countdown for the rest began (a majority
    # of the players asked, or the table did): nobody closes a vote alone.
    asked: frozenset[Seat] = frozenset()
    closing: float | None = None


@dataclass(frozen=True)
class Round:
    number: int
    starter: Seat
    cards: Mapping[Seat, tuple[int, int]]  # the two word cards dealt (indexes into WORDS)
    kept: Mapping[Seat, int] = field(default_factory=options_.nothing)
    dice: tuple[str, ...] = ()
    pictures: Mapping[Seat, tuple[Stroke, ...]] = field(default_factory=options_.nothing)
    checks: Mapping[Seat, Check] = field(default_factory=options_.nothing)
    order: tuple[Seat, ...] = ()  # who finished first: order[0] holds token 1
    layout: tuple[Seat, ...] = ()  # picture number n belongs to layout[n - 1]
    words: tuple[int, ...] = ()  # the words laid out, shuffled (indexes into WORDS)
    guesses: Mapping[Seat, Mapping[int, int]] = field(default_factory=options_.nothing)
    done: frozenset[Seat] = frozenset()
    hourglass: float | None = None
    revealed: int = 0
    overruled: frozenset[Seat] = frozenset()  # pictures whose shape verdict the table flipped
    vote: Vote | None = None
    red: Seat | None = None
    grey: Seat | None = None
    # Seats sitting this round out: they left during it (or were gone when it was dealt);
    # nobody waits for them, and they win nothing in it.
    out: frozenset[Seat] = frozenset()


@dataclass(frozen=True)
class ArtBoxState:
    seats: tuple[Seat, ...]
    advanced: bool
    seconds: float
    deck: tuple[int, ...]  # the word cards still to deal, top first
    phase: Phase
    round: Round
    scores: Mapping[Seat, int]
    red: Mapping[Seat, int]
    grey: Mapping[Seat, int]
    rng: Rng
    # A deck from the table's word packs (the `words` option: [English, Czech] pairs),
    # or () for the built-in WORDS. Cards are indexes into whichever deck it is.
    custom_words: tuple[tuple[str, str], ...] = ()
    gone: frozenset[Seat] = frozenset()  # seats whose player left (a newcomer may return)
    ended: str = ""  # why the game ended early (TOO_FEW, ENDED_EARLY), or ""
    # Every round that was scored, the last one too: the finish's art show of the whole
    # game (the pictures stay in the log in any case).
    history: tuple[Round, ...] = ()


def deck_of(state: ArtBoxState) -> tuple[Word, ...]:
    """The word cards this game deals from."""
    if not state.custom_words:
        return WORDS
    return _custom_deck(state.custom_words)


_DECKS: dict[tuple[tuple[str, str], ...], tuple[Word, ...]] = {}


def _custom_deck(pairs: tuple[tuple[str, str], ...]) -> tuple[Word, ...]:
    # Views are made many times a move: build the Word tuple once per deck (a handful a day).
    deck = _DECKS.get(pairs)
    if deck is None:
        if len(_DECKS) > 8:
            _DECKS.clear()
        deck = _DECKS[pairs] = tuple(Word(en, cs) for en, cs in pairs)
    return deck


MIN_DECK: Final = 24
"""The fewest words a `words` option may hold: two cards each for 8 players, plus extras."""


def _read_words(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    raw = options.get("words")
    if raw is None:
        return ()
    if (
        not isinstance(raw, list | tuple)
        or not MIN_DECK <= len(raw) <= 5000
        or not all(
            isinstance(p, list | tuple) and len(p) == 2
            and all(isinstance(t, str) and 0 < len(t) <= 40 for t in p)
            for p in raw
        )
    ):
        raise BadOptions(
            "words", "words is a list of {low} or more [English, Czech] pairs.", low=MIN_DECK
        )
    return tuple((str(en), str(cs)) for en, cs in raw)


# -- reading a round ------------------------------------------------------------------


def players(state: ArtBoxState) -> tuple[Seat, ...]:
    """Who plays the round under way: every seat but those sitting it out."""
    return tuple(s for s in state.seats if s not in state.round.out)


def present(state: ArtBoxState) -> tuple[Seat, ...]:
    return tuple(s for s in state.seats if s not in state.gone)


def next_present(state: ArtBoxState, seat: Seat, skip: Collection[Seat] = ()) -> Seat:
    """The next seat clockwise whose player is at the table (and not in `skip`)."""
    i = state.seats.index(seat)
    ring = state.seats[i + 1:] + state.seats[:i + 1]
    return next(s for s in ring if s not in state.gone and s not in skip)


def token_of(rnd: Round, seat: Seat) -> int:
    return rnd.order.index(seat) + 1


def number_of(rnd: Round, seat: Seat) -> int:
    return rnd.layout.index(seat) + 1


def word_position(rnd: Round, seat: Seat) -> int:
    """Where the seat's kept word lies among the words laid out."""
    return rnd.words.index(rnd.kept[seat])


def recognised(rnd: Round, owner: Seat) -> int:
    """How many other players matched the owner's picture to the owner's word."""
    number, answer = number_of(rnd, owner), word_position(rnd, owner)
    return sum(
        1 for guesser, guessed in rnd.guesses.items()
        if guesser != owner and guessed.get(number) == answer
    )


def correct_guesses(rnd: Round, guesser: Seat) -> int:
    mine = rnd.guesses.get(guesser, {})
    return sum(
        1 for number, owner in enumerate(rnd.layout, start=1)
        if owner != guesser and mine.get(number) == word_position(rnd, owner)
    )


def is_legal(rnd: Round, seat: Seat) -> bool:
    """The shape verdict as it stands: the machine's, unless the table overruled it."""
    return rnd.checks[seat].legal != (seat in rnd.overruled)


def round_points(rnd: Round, seats: Sequence[Seat]) -> tuple[Seat | None, Seat | None]:
    """(red, grey): the most recognised legal picture; then the most correct guesses."""
    legal = [s for s in seats if is_legal(rnd, s)]
    red = min(legal, key=lambda s: (-recognised(rnd, s), token_of(rnd, s)), default=None)
    others = [s for s in seats if s != red]
    grey = min(
        others,
        key=lambda s: (-correct_guesses(rnd, s), not is_legal(rnd, s), token_of(rnd, s)),
        default=None,
    )
    return red, grey


def finishers(state: ArtBoxState) -> list[Seat]:
    """The players whose points end the game (none while it goes on).

    Standard: 5 / 4 / 3 points (3-4 / 5-6 / 7-8 players). Advanced: 2 red and 2 grey
    tokens or 6 of one colour (3-6 players); 1 and 1, or 4 of one colour (7-8).
    """
    if not state.advanced:
        target = target_points(len(state.seats))
        return [s for s in state.seats if state.scores[s] >= target]
    pair, same = (1, 4) if len(state.seats) >= 7 else (2, 6)
    return [
        s for s in state.seats
        if (state.red[s] >= pair and state.grey[s] >= pair)
        or state.red[s] >= same or state.grey[s] >= same
    ]


def check_picture(strokes: Sequence[Stroke], dice: Sequence[str]) -> Check:
    if not strokes:
        return Check(
            False, (), tuple(dice), (), "Nothing is drawn yet.", "Zatím není nic nakresleno."
        )
    verdict = check_artbox_drawing(strokes, [Shape(d) for d in dice])
    return Check(
        verdict.legal,
        tuple(s.value for s in verdict.found),
        tuple(s.value for s in verdict.missing),
        tuple(s.value for s in verdict.extra),
        verdict.reason,
        verdict.reason_in("cs"),
    )


class PendingCheck(Check):
    """A picture's shape check, made when it is first read (a phone's view, a vote, the
    points) and then kept. The rules check a picture after every stroke so that the
    phone shows at once what the box sees; made lazily, a replay of the log after a power
    cut checks each picture once (when the rules read it), not once per stroke. It reads
    and compares as the Check it makes."""

    _strokes: tuple[Stroke, ...]
    _dice: tuple[str, ...]

    def __init__(self, strokes: tuple[Stroke, ...], dice: tuple[str, ...]) -> None:
        object.__setattr__(self, "_strokes", strokes)
        object.__setattr__(self, "_dice", dice)

    @cached_property
    def made(self) -> Check:
        made: Check = check_picture(self._strokes, self._dice)
        return made

    @property
    def legal(self) -> bool:
        return self.made.legal

    @property
    def found(self) -> tuple[str, ...]:
        return self.made.found

    @property
    def missing(self) -> tuple[str, ...]:
        return self.made.missing

    @property
    def extra(self) -> tuple[str, ...]:
        return self.made.extra

    @property
    def reason_en(self) -> str:
        return self.made.reason_en

    @property
    def reason_cs(self) -> str:
        return self.made.reason_cs

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PendingCheck) and (other._strokes, other._dice) == (
                self._strokes, self._dice):
            return True  # the same picture and dice: the same check, made or not
        return self.made == (other.made if isinstance(other, PendingCheck) else other)

    def __hash__(self) -> int:
        return hash(self.made)

    def __repr__(self) -> str:
        return f"PendingCheck({self.made!r})"


class ArtBox:
    id = "artbox"
    title: Mapping[str, str] = MappingProxyType({"en": "ArtBox", "cs": "ArtBox"})
    min_players = 3
    max_players = 8

    # -- setup ------------------------------------------------------------------------
    def setup(
        self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int
    ) -> ArtBoxState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "ArtBox is for 3 to 8 players.")
        options_.no_unknown(options, ("seconds", "advanced", "words"), "ArtBox")
        seconds = options_.seconds(options, DEFAULT_SECONDS)
        advanced = options_.flag(options, "advanced")
        custom = _read_words(options)
        rng = Rng(seed)
        deck, rng = rng.shuffled(range(len(custom) or len(WORDS)))
        starter, rng = rng.choice([s.seat for s in seats])  # "choose the starting player at random"
        order = tuple(s.seat for s in seats)
        zero = MappingProxyType({s: 0 for s in order})
        state = ArtBoxState(
            seats=order,
            advanced=advanced,
            seconds=seconds,
            deck=deck,
            phase="choose",
            round=Round(0, starter, options_.nothing()),
            scores=zero,
            red=zero,
            grey=zero,
            rng=rng,
            custom_words=custom,
        )
        return self._deal(state, 0, starter)

    def _draw(self, state: ArtBoxState, count: int) -> tuple[tuple[int, ...], ArtBoxState]:
        """The top `count` cards; a fresh shuffle of every word when the deck runs low."""
        deck, rng = state.deck, state.rng
        if len(deck) < count:
            fresh, rng = rng.shuffled(range(len(deck_of(state))))
            deck = deck + fresh
        return deck[:count], replace(state, deck=deck[count:], rng=rng)

    def _deal(self, state: ArtBoxState, number: int, starter: Seat) -> ArtBoxState:
        cards: dict[Seat, tuple[int, int]] = {}
        for seat in state.seats:
            pair, state = self._draw(state, 2)
            cards[seat] = (pair[0], pair[1])
        return replace(
            state, phase="choose",
            round=Round(number, starter, MappingProxyType(cards), out=state.gone),
        )

    # -- moves ------------------------------------------------------------------------
    def apply(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        require(state.phase != "over", "over", "The game is over.")
        kind, seat = action.kind, action.seat
        if kind in (SEAT_LEFT, SEAT_BACK):
            return self._seat_change(state, action)
        if kind == END_EARLY:
            # The host ends the game (games.core.END_EARLY): the points as they stand. A
            # round not yet at its points is not scored, so nothing of it counts.
            check_end_early(action)
            return replace(state, phase="over", ended=ENDED_EARLY)
        require(seat not in state.round.out, "sitting_out",
                "You sit this round out; you play again from the next.")
        if kind == "keep":
            return self._keep(state, action)
        if kind in ("roll", "press_die"):
            rnd = state.round
            require(state.phase == "roll", "not_now_roll",
                    "The dice are rolled once everyone chose.")
            require(seat == rnd.starter or (kind == "press_die" and seat is TABLE),
                    "starter_rolls", "The starting player rolls the dice.")
            rng, dice = state.rng, []
            for _ in range(DICE):
                face, rng = rng.choice(DIE_FACES)
                dice.append(face)
            return replace(state, phase="create", rng=rng, round=replace(rnd, dice=tuple(dice)))
        if kind in ("stroke", "undo", "clear", "finish"):
            return self._create(state, action)
        if kind == TIME_UP and state.phase == "reveal":
            return self._score(state, action)
        if kind in ("guess", "unguess", "done", "press_hourglass", TIME_UP):
            return self._match(state, action)
        if kind in ("reveal", "press_reveal", "contest", "vote", "close_vote", "award", "next"):
            return self._score(state, action)
        raise IllegalAction("unknown_kind", "ArtBox has no move {kind!r}.", kind=kind)

    def _keep(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        rnd, seat = state.round, action.seat
        require(state.phase == "choose", "not_choosing", "The words were chosen already.")
        require(seat in players(state), "players_keep", "Only players keep a word.")
        assert seat is not None
        require(seat not in rnd.kept, "kept", "You have kept a word already.")
        card = action.data.get("card")
        require(card in (0, 1) and type(card) is int, "card", "Keep card 0 or card 1.")
        assert isinstance(card, int)
        kept = MappingProxyType({**rnd.kept, seat: rnd.cards[seat][card]})
        phase: Phase = "roll" if set(players(state)) <= set(kept) else "choose"
        return replace(state, phase=phase, round=replace(rnd, kept=kept))

    def _create(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        rnd, seat = state.round, action.seat
        require(state.phase == "create", "not_creating", "Drawing time has not begun or is over.")
        require(seat in players(state), "players_draw", "Only players draw.")
        assert seat is not None
        require(seat not in rnd.order, "locked",
                "You took your order token: the picture is locked.")
        strokes = rnd.pictures.get(seat, ())
        if action.kind == "finish":
            order = (*rnd.order, seat)
            checks = rnd.checks if seat in rnd.checks else MappingProxyType(
                {**rnd.checks, seat: check_picture(strokes, rnd.dice)}
            )
            rnd = replace(rnd, order=order, checks=checks)
            if not set(players(state)) <= set(order):
                return replace(state, round=rnd)
            return self._lay_out(replace(state, round=rnd))
        if action.kind == "stroke":
            require(len(strokes) < MAX_STROKES, "too_many", "This picture has enough strokes.")
            strokes = (*strokes, stroke_from_data(action.data))
        elif action.kind == "undo":
            require(bool(strokes), "nothing_to_undo", "There is nothing to undo.")
            strokes = strokes[:-1]
        else:
            require(bool(strokes), "nothing_to_clear", "The picture is empty.")
            strokes = ()
        # Checked after every stroke, so the phone says at once what the box sees.
        return replace(state, round=replace(
            rnd,
            pictures=MappingProxyType({**rnd.pictures, seat: strokes}),
            checks=MappingProxyType({**rnd.checks, seat: PendingCheck(strokes, tuple(rnd.dice))}),
        ))

    def _lay_out(self, state: ArtBoxState) -> ArtBoxState:
        """Everyone has a token: the pictures get their numbers, the words are laid out."""
        rnd = state.round
        playing = [s for s in players(state) if s in rnd.order]
        layout, rng = state.rng.shuffled(playing)
        extras, state = self._draw(replace(state, rng=rng), extra_words(len(state.seats)))
        words, rng = state.rng.shuffled([rnd.kept[s] for s in playing] + list(extras))
        return replace(
            state, phase="match", rng=rng,
            round=replace(rnd, layout=layout, words=words),
        )

    def _seat_change(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        """A seat left (nobody waits for it; its duties pass on) or a newcomer took it back
        (they play from the next round on)."""
        seat = seat_change(action, state.seats, state.gone)
        if action.kind == SEAT_BACK:
            return replace(state, gone=state.gone - {seat})
        rnd = state.round
        state = replace(state, gone=state.gone | {seat}, round=replace(rnd, out=rnd.out | {seat}))
        if len(present(state)) < self.min_players:
            return replace(state, phase="over", ended=TOO_FEW)
        rnd = state.round
        if rnd.starter == seat:  # the next player at the table rolls, reveals, goes on
            rnd = replace(rnd, starter=next_present(state, seat, rnd.out))
            state = replace(state, round=rnd)
        playing = set(players(state))
        if len(playing) < 2 and state.phase != "points":
            return self._deal(state, rnd.number + 1, next_present(state, rnd.starter))
        if state.phase == "choose" and playing <= set(rnd.kept):
            return replace(state, phase="roll")
        if state.phase == "create" and playing <= set(rnd.order):
            return self._lay_out(state)
        if state.phase == "match" and playing <= set(rnd.done):
            return replace(state, phase="reveal")
        vote = rnd.vote
        if state.phase == "reveal" and vote is not None:
            if vote.artist == seat:  # the picture is out of this round's points anyway
                return replace(state, round=replace(rnd, vote=None))
            votes = {v: b for v, b in vote.votes.items() if v != seat}
            vote = replace(vote, votes=MappingProxyType(votes), asked=vote.asked - {seat})
            state = replace(state, round=replace(rnd, vote=vote))
            if playing - {vote.artist} <= set(votes):
                return self._settle(state)
        return state

    def _match(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        rnd, seat, kind = state.round, action.seat, action.kind
        require(state.phase == "match", "not_matching", "Words are not matched now.")
        if kind == TIME_UP:
            deadline = self.deadline(state)
            require(seat is TABLE and deadline is not None and action.at >= deadline.at,
                    "early", "Time is not up.")
            return replace(state, phase="reveal")
        if kind == "press_hourglass":
            require(seat is TABLE, "table_only", "Only the table's button does that.")
            require(rnd.hourglass is None, "turned", "The hourglass runs already.")
            return replace(state, round=replace(rnd, hourglass=action.at))
        require(seat in players(state), "players_guess", "Only players guess.")
        assert seat is not None
        require(seat not in rnd.done, "guesses_done", "Your guesses are handed in.")
        mine = dict(rnd.guesses.get(seat, {}))
        if kind == "done":
            others = {n for n, s in enumerate(rnd.layout, start=1) if s != seat}
            require(others <= set(mine), "guess_all", "Match a word to every other picture first.")
            done = rnd.done | {seat}
            hourglass = rnd.hourglass if rnd.hourglass is not None else action.at
            rnd = replace(rnd, done=done, hourglass=hourglass)
            phase: Phase = "reveal" if set(players(state)) <= done else "match"
            return replace(state, phase=phase, round=rnd)
        number = action.data.get("picture")
        require(type(number) is int and 1 <= number <= len(rnd.layout), "picture",
                "Name a picture by its number.")
        assert isinstance(number, int)
        require(rnd.layout[number - 1] != seat, "own_picture", "That is your own picture.")
        if kind == "guess":
            word = action.data.get("word")
            require(type(word) is int and 0 <= word < len(rnd.words), "word",
                    "Name one of the words laid out.")
            assert isinstance(word, int)
            mine[number] = word
        else:
            require(number in mine, "no_guess", "There is no guess for that picture.")
            del mine[number]
        guesses = MappingProxyType({**rnd.guesses, seat: MappingProxyType(mine)})
        return replace(state, round=replace(rnd, guesses=guesses))

    def _score(self, state: ArtBoxState, action: Action) -> ArtBoxState:
        rnd, seat, kind = state.round, action.seat, action.kind
        if kind == TIME_UP:
            vote = rnd.vote
            require(seat is TABLE and state.phase == "reveal" and vote is not None
                    and vote.closing is not None
                    and action.at >= vote.closing + VOTE_COUNTDOWN_S, "early", "Time is not up.")
            return self._settle(state)
        starter = seat == rnd.starter
        if state.phase == "points":
            require(kind in ("next", "press_reveal"), "not_now", "The round is scored.")
            require(starter or (kind == "press_reveal" and seat is TABLE),
                    "starter_next", "The starting player begins the next round.")
            return self._next_round(state)
        require(state.phase == "reveal", "not_revealing", "The pictures are not revealed now.")
        all_shown = rnd.revealed == len(rnd.layout)
        if kind in ("reveal", "press_reveal", "award"):
            require(starter or (kind == "press_reveal" and seat is TABLE),
                    "starter_reveals", "The starting player reveals the pictures.")
            if kind != "award" and not all_shown:
                return replace(state, round=replace(rnd, revealed=rnd.revealed + 1))
            # A second tap of the phone's reveal must not skip the chance to contest; the
            # table's REVEAL button means "the next step", which is the award.
            require(kind != "reveal", "all_revealed", "Every picture is revealed.")
            require(all_shown, "reveal_all", "Reveal every picture first.")
            require(rnd.vote is None, "vote_open", "Finish the vote first.")
            red, grey = round_points(rnd, [s for s in rnd.layout if s not in rnd.out])
            rnd = replace(rnd, red=red, grey=grey)
            scored = replace(
                state,
                phase="points",
                round=rnd,
                history=(*state.history, rnd),
                scores=_plus(state.scores, red, grey),
                red=_plus(state.red, red),
                grey=_plus(state.grey, grey),
            )
            # A player reached the end: the points of this round are the game's finish,
            # not a "next round" that nobody will play.
            return replace(scored, phase="over") if finishers(scored) else scored
        require(all_shown, "reveal_all", "Reveal every picture first.")
        if kind == "contest":
            require(seat in players(state), "players_contest", "Only players contest a verdict.")
            require(rnd.vote is None, "vote_open", "One vote at a time.")
            artist = action.data.get("artist")
            require(artist in rnd.layout and artist not in rnd.out, "artist",
                    "Name the player whose picture it is.")
            assert isinstance(artist, int)
            return replace(state, round=replace(rnd, vote=Vote(artist)))
        vote = rnd.vote
        require(vote is not None, "no_vote", "There is nothing to vote on.")
        assert vote is not None
        voters = [s for s in players(state) if s != vote.artist]
        votes = dict(vote.votes)
        if kind == "vote":
            require(seat in voters, "artist_no_vote", "The picture's artist does not vote.")
            assert seat is not None
            require(seat not in votes, "voted", "You have voted.")
            breaks = action.data.get("breaks")
            require(type(breaks) is bool, "breaks", "Vote yes or no.")
            assert isinstance(breaks, bool)
            votes[seat] = breaks
            state = replace(state, round=replace(
                rnd, vote=replace(vote, votes=MappingProxyType(votes))
            ))
            return self._settle(state) if set(voters) <= set(votes) else state
        # close_vote: a quiet phone must not hold the table, and no one player may cut a
        # vote short: the table (kiosk, host) or a majority of the players starts a
        # countdown for those who have not voted.
        require(kind == "close_vote", "not_now", "Not now.")
        require(vote.closing is None, "closing", "The countdown is running.")
        require(not set(voters) <= set(votes), "all_voted", "Everyone has voted.")
        if seat is not TABLE:
            require(seat in players(state), "players_close", "Only the players ask for that.")
            assert seat is not None
            require(seat not in vote.asked, "asked", "You have asked already.")
            vote = replace(vote, asked=vote.asked | {seat})
            if not majority(len(vote.asked), len(players(state))):
                return replace(state, round=replace(rnd, vote=vote))
        return replace(state, round=replace(rnd, vote=replace(vote, closing=action.at)))

    def _settle(self, state: ArtBoxState) -> ArtBoxState:
        """The vote is decided by the votes cast; a tie leaves the machine's verdict."""
        rnd = state.round
        vote = rnd.vote
        assert vote is not None
        votes = vote.votes
        breaking = sum(votes.values())
        keeping = len(votes) - breaking
        machine_says_breaks = not rnd.checks[vote.artist].legal
        # A majority of the other players decides; a tie leaves the machine's verdict.
        table_says_breaks = machine_says_breaks if breaking == keeping else breaking > keeping
        overruled = (
            rnd.overruled | {vote.artist}
            if table_says_breaks != machine_says_breaks
            else rnd.overruled - {vote.artist}
        )
        return replace(state, round=replace(rnd, vote=None, overruled=overruled))

    def _next_round(self, state: ArtBoxState) -> ArtBoxState:
        if finishers(state):
            return replace(state, phase="over")
        rnd = state.round
        return self._deal(state, rnd.number + 1, next_present(state, rnd.starter))

    # -- what the players may do ------------------------------------------------------
    def legal_actions(self, state: ArtBoxState, seat: Seat | None) -> Sequence[Action]:
        rnd, phase = state.round, state.phase
        starter = seat == rnd.starter
        if seat in rnd.out:
            return []
        playing = players(state)
        if phase == "choose":
            if seat in playing and seat not in rnd.kept:
                return [Action("keep", seat, {"card": c}) for c in (0, 1)]
            return []
        if phase == "roll":
            if seat is TABLE:
                return [Action("press_die")]
            return [Action("roll", seat)] if starter else []
        if phase == "create":
            if seat not in playing or seat in rnd.order:
                return []
            drawn = rnd.pictures.get(seat, ())
            square = [[400, 300, 0], [700, 300, 100], [700, 600, 200], [400, 600, 300],
                      [400, 300, 400]]
            moves = [Action("stroke", seat, {"points": square}), Action("finish", seat)]
            if drawn:
                moves += [Action("undo", seat), Action("clear", seat)]
            return moves
        if phase == "match":
            if seat is TABLE:
                return [Action("press_hourglass")] if rnd.hourglass is None else []
            if seat not in playing or seat in rnd.done:
                return []
            assert seat is not None
            mine = rnd.guesses.get(seat, {})
            moves = [
                Action("guess", seat, {"picture": n, "word": w})
                for n, owner in enumerate(rnd.layout, start=1) if owner != seat
                for w in range(len(rnd.words))
            ]
            moves += [Action("unguess", seat, {"picture": n}) for n in mine]
            if {n for n, s in enumerate(rnd.layout, start=1) if s != seat} <= set(mine):
                moves.append(Action("done", seat))
            return moves
        if phase == "points":
            if seat is TABLE:
                return [Action("press_reveal")]
            return [Action("next", seat)] if starter else []
        if phase != "reveal":
            return []
        all_shown = rnd.revealed == len(rnd.layout)
        vote = rnd.vote
        can_close = vote is not None and vote.closing is None and not (
            set(playing) - {vote.artist} <= set(vote.votes)
        )
        if seat is TABLE:
            if not all_shown or rnd.vote is None:
                return [Action("press_reveal")]
            return [Action("close_vote")] if can_close else []
        moves = []
        if starter and not all_shown:
            moves.append(Action("reveal", seat))
        if not all_shown or seat not in playing:
            return moves
        if vote is None:
            moves += [
                Action("contest", seat, {"artist": a}) for a in rnd.layout if a in playing
            ]
            if starter:
                moves.append(Action("award", seat))
            return moves
        if seat != vote.artist and seat not in vote.votes:
            moves += [Action("vote", seat, {"breaks": b}) for b in (True, False)]
        if can_close and seat not in vote.asked:
            moves.append(Action("close_vote", seat))
        return moves

    # -- what each seat sees ----------------------------------------------------------
    def view(self, state: ArtBoxState, seat: Seat | None) -> dict[str, Any]:
        rnd, phase = state.round, state.phase
        laid_out = phase in ("match", "reveal", "points", "over")
        all_shown = laid_out and rnd.revealed == len(rnd.layout)
        player = seat in state.seats
        view: dict[str, Any] = {
            "phase": phase,
            "round": rnd.number + 1,
            "starter": rnd.starter,
            "target": target_points(len(state.seats)),
            "advanced": state.advanced,
            "dice": list(rnd.dice) or None,
            "kept": sorted(rnd.kept),
            "my_cards": None,
            "my_word": None,
            "order": list(rnd.order),
            "my_picture": None,
            "my_check": None,
            "pictures": None,
            "my_number": None,
            "words": None,
            "my_guesses": None,
            "done": sorted(rnd.done),
            "hourglass_started": rnd.hourglass is not None,
            "revealed": [self._revealed(state, n) for n in range(1, rnd.revealed + 1)],
            "guessed": (
                {str(s): correct_guesses(rnd, s) for s in state.seats} if all_shown else None
            ),
            "vote": None if rnd.vote is None else {
                "artist": rnd.vote.artist, "voted": sorted(rnd.vote.votes),
                "voters": len([s for s in players(state) if s != rnd.vote.artist]),
                # Who asked to count the votes; "countdown" once it runs (match.deadline
                # has its time, what "vote").
                "asked": sorted(rnd.vote.asked), "countdown": rnd.vote.closing is not None,
            },
            "gone": sorted(state.gone),  # seats whose player left
            "out": sorted(rnd.out),  # seats sitting this round out
            "ended": state.ended or None,
            "round_points": (
                {"red": rnd.red, "grey": rnd.grey} if phase in ("points", "over") else None
            ),
            "scores": {str(s): v for s, v in state.scores.items()},
            "red": {str(s): v for s, v in state.red.items()},
            "grey": {str(s): v for s, v in state.grey.items()},
            "art_show": None,  # the finish only: every round of the game
        }
        if player:
            assert seat is not None
            if phase == "choose" and seat not in rnd.kept:
                view["my_cards"] = [_word(state, i) for i in rnd.cards[seat]]
            if seat in rnd.kept:
                view["my_word"] = _word(state, rnd.kept[seat])
            view["my_picture"] = [stroke_to_data(s) for s in rnd.pictures.get(seat, ())]
            if seat in rnd.checks:
                view["my_check"] = to_jsonable(rnd.checks[seat])
            elif phase == "create":
                view["my_check"] = to_jsonable(check_picture((), rnd.dice))
            if laid_out and seat in rnd.layout:
                view["my_number"] = number_of(rnd, seat)
                view["my_guesses"] = {str(n): w for n, w in rnd.guesses.get(seat, {}).items()}
        if laid_out:
            view["pictures"] = self._pictures(rnd)
            view["words"] = [{"index": i, **_word(state, w)} for i, w in enumerate(rnd.words)]
        if phase == "over":
            view["art_show"] = self._art_show(state)
        return view

    def _art_show(self, state: ArtBoxState) -> list[dict[str, Any]]:
        """The finish: every round's pictures with their words, artists and points (at
        the end nothing is secret), in the shapes the view gives its own round. The same
        for every seat, so made once per finished state and shared by every view (views
        are only read and sent): the whole game's strokes are not converted per phone."""
        return _ART_SHOWS.made((state.history, state.round),
                               lambda: self._art_show_made(state))

    def _art_show_made(self, state: ArtBoxState) -> list[dict[str, Any]]:
        rnd = state.round
        shown = state.history
        if rnd.layout and (not shown or shown[-1].number != rnd.number):
            shown = (*shown, rnd)  # ended early (too few players) with pictures out
        shows = [
            {
                "round": past.number + 1,
                "dice": list(past.dice),
                "pictures": self._pictures(past),
                "revealed": [
                    self._revealed(state, n, past) for n in range(1, len(past.layout) + 1)
                ],
                "round_points": {"red": past.red, "grey": past.grey},
            }
            for past in shown
        ]
        return shows

    def _pictures(self, rnd: Round) -> list[dict[str, Any]]:
        return [
            {"number": n, "strokes": [stroke_to_data(s) for s in rnd.pictures.get(owner, ())]}
            for n, owner in enumerate(rnd.layout, start=1)
        ]

    def _revealed(
        self, state: ArtBoxState, number: int, rnd: Round | None = None
    ) -> dict[str, Any]:
        rnd = rnd or state.round
        owner = rnd.layout[number - 1]
        check = rnd.checks[owner]
        return {
            "number": number,
            "owner": owner,
            "word": _word(state, rnd.kept[owner]),
            "token": token_of(rnd, owner),
            "recognised": recognised(rnd, owner),
            "legal": is_legal(rnd, owner),
            "reason_en": check.reason_en,
            "reason_cs": check.reason_cs,
            "overruled": owner in rnd.overruled,
        }

    # -- the rest of the contract -----------------------------------------------------
    def outcome(self, state: ArtBoxState) -> Outcome | None:
        if state.phase != "over":
            return None
        rnd = state.round
        scores = tuple((s, float(state.scores[s])) for s in state.seats)
        best = max(state.scores.values())
        leaders = [s for s in state.seats if state.scores[s] == best]
        if state.ended == TOO_FEW:  # stopped early: whoever leads
            return Outcome(tuple(leaders), scores, state.ended)
        if state.ended == ENDED_EARLY:
            # The host ended it: whoever leads, ties broken as at the end, on the last
            # round that was scored (a round under way scored nothing). Nobody wins a
            # game in which nobody scored.
            if best == 0 or not state.history:
                return Outcome((), scores, state.ended)
            rnd = state.history[-1]
            contenders = leaders
        elif state.advanced:
            contenders = finishers(state)
        else:
            contenders = leaders
        # Ties: the most recognised picture of the last round, then the lower order token
        # (a seat that sat the last round out comes after those who played it).
        def tie_break(s: Seat) -> tuple[int, int]:
            if s not in rnd.layout:
                return (1, len(state.seats) + 1)
            return (-recognised(rnd, s), token_of(rnd, s))

        first = min(contenders, key=tie_break)
        return Outcome((first,), scores, state.ended or "most_points")

    def deadline(self, state: ArtBoxState) -> Deadline | None:
        vote = state.round.vote
        if state.phase == "reveal" and vote is not None and vote.closing is not None:
            return Deadline(vote.closing + VOTE_COUNTDOWN_S, VOTE, VOTE_COUNTDOWN_S)
        started = state.round.hourglass
        if state.phase != "match" or started is None:
            return None
        return Deadline(started + state.seconds, "hourglass", state.seconds)

    def secrets(self, state: ArtBoxState) -> Mapping[Seat | None, Collection[str]]:
        rnd = state.round
        hidden: dict[Seat | None, Collection[str]] = {None: (str(state.rng.seed),)}
        if state.phase in ("choose", "roll", "create"):
            # Quoted as JSON writes a string, so "car" is not found inside "carrot".
            for seat, pair in rnd.cards.items():
                deck = deck_of(state)
                hidden[seat] = tuple(f'"{deck[i].en}"' for i in pair)
        return hidden

    def to_json(self, state: ArtBoxState) -> Any:
        raw = to_jsonable(state)
        if not state.custom_words:
            del raw["custom_words"]  # the built-in deck: the JSON of a state stays as it was
        # Fields added for seats that leave and fair votes: unset, the JSON stays as it was.
        drop_unset(raw, gone=[], ended="", history=[])
        for rnd in (raw["round"], *raw.get("history", ())):
            drop_unset(rnd, out=[])
            if rnd["vote"] is not None:
                drop_unset(rnd["vote"], asked=[], closing=None)
        return raw

    def from_json(self, raw: Any) -> ArtBoxState:
        return decode(ArtBoxState, raw)


# The finish's art show, once per finished state (games/memo.py).
_ART_SHOWS: SameParts[list[dict[str, Any]]] = SameParts()


def _word(state: ArtBoxState, index: int) -> dict[str, str]:
    word = deck_of(state)[index]
    return {"en": word.en, "cs": word.cs}


def _plus(points: Mapping[Seat, int], *seats: Seat | None) -> Mapping[Seat, int]:
    added = dict(points)
    for seat in seats:
        if seat is not None:
            added[seat] += 1
    return MappingProxyType(added)


RULES = ArtBox()
registry.register(RULES)
