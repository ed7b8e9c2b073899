"""Broad Lines: a cooperative game of guessing a word from sheets of a few lines each.

The rules of the design's rules/broad-lines.txt as pure functions over a frozen state. A
round: the Art Critic (who never sees the card) names a number 1-6, which picks the word
the Artists will draw (an Artist who does not know it may ask for another number); the
Artists take turns clockwise from the Critic's left, each adding ONE transparent sheet
with at most 2 straight lines or 1 curve (checked by games.geometry; a majority of the
Artists may accept a refused sheet, and the check can be switched off); after every
placed sheet the Critic has 2 guesses, marked right or wrong by an Artist (a typed guess
also gets the box's opinion through an injected `WordMatcher`); the Artists may give only
the rules' general hints. The table may give up by everyone's agreement, which burns one
extra sheet. The next Critic is the player left of the last Artist. When the last of the
25 sheets is placed the Critic has a last 2 guesses, then the game ends with a rating.

The cards are the built-in ones (games.broad_lines_words) unless the `cards` start option
carries a deck from the table's word packs (docs/packs.md); that deck is logged with the
match's options, so a replay needs no pack file.

Seats are in clockwise order, so the player to the left of seat i is the next seat.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final, Literal

from games import options as options_
from games import registry
from games.broad_lines_words import CARDS, WORDS_PER_CARD, Word
from games.codec import decode, drop_unset, to_jsonable
from games.core import (
    END_EARLY,
    ENDED_EARLY,
    NO_SCREEN,
    SEAT_BACK,
    SEAT_LEFT,
    TABLE,
    TOO_FEW,
    Action,
    BadOptions,
    Deadline,
    IllegalAction,
    Outcome,
    Seat,
    SeatInfo,
    check_end_early,
    no_screen,
    require,
    seat_change,
)
from games.geometry import check_broad_lines_sheet
from games.rng import Rng
from games.sheet import Stroke
from games.strokes import stroke_from_data, stroke_to_data
from games.word_forms import Opinion, folded_match

DEFAULT_SHEETS: Final = 25
MIN_CARDS: Final = 10
"""The fewest cards a `cards` option may hold (a pack that replaces the deck gives as many)."""
SHEETS_RANGE: Final = (5, 60)
GUESSES_PER_SHEET: Final = 2
MAX_STROKES: Final = 40
"""Strokes on one sheet: 2 lines or 1 curve need few; undo needs some room to try."""
MAX_GUESS_CHARS: Final = 40

HINTS: Final[Mapping[str, tuple[str, str]]] = MappingProxyType({
    # The only comments the rules allow the Artists, word for word.
    "almost": ("Well, almost", "No, skoro"),
    "not_bad": ("Not bad", "Není to špatné"),
    "not_at_all": ("Not at all", "Vůbec ne"),
})

RATINGS: Final[tuple[tuple[int, str, str, str], ...]] = (
    # (at least this many words guessed, band, English from the rules, Czech)
    (10, "10+", "Brilliant! Your works could be exhibited in an art gallery.",
     "Skvělé! Vaše díla by mohla viset v umělecké galerii."),
    (8, "8-9", "Your paintings are almost perfect, but your technique could still use "
     "some work.",
     "Vaše obrazy jsou téměř dokonalé, jen na technice byste ještě mohli zapracovat."),
    (6, "6-7", "Excellent! You are a talented artist.",
     "Výborně! Jste talentovaní umělci."),
    (4, "4-5", "Neither fame nor shame! You can do better!",
     "Žádná sláva, ale ani ostuda! Umíte to i líp!"),
    (2, "2-3", "Well, at least you know how to hold a marker. Now you need to learn how "
     "to use it.",
     "No, aspoň víte, jak se drží fix. Teď se ještě naučte, jak se s ním kreslí."),
    (1, "1", "Perhaps you should not build your life around the visual arts.",
     "Možná byste svůj život neměli stavět na výtvarném umění."),
    (0, "0", "The main thing is that you had fun. Maybe someday you will learn to draw!",
     "Hlavně že jste se bavili. Třeba se jednou naučíte kreslit!"),
)

Phase = Literal["choose", "drawing", "vote", "guessing", "reveal", "over"]
Result = Literal["guessed", "given_up", "unfinished"]

WordMatcher = Callable[[str, Word], Opinion]
"""The box's opinion of a typed guess: "match" (the word, maybe in another form),
"close" (shares its stem with it; the Artists decide) or "no". Injected, so the rules stay
pure standard library while the appliance brings a stemmer (appliance/table/guess_match.py)."""


def rating(guessed: int) -> tuple[str, str, str]:
    """(band, English, Czech) of the rules' final table for `guessed` words."""
    for least, band, en, cs in RATINGS:
        if guessed >= least:
            return band, en, cs
    raise ValueError("a count of guessed words is never negative")


@dataclass(frozen=True)
class Check:
    """The geometry's verdict on the sheet being drawn, as the players see it."""

    legal: bool
    reason_en: str
    reason_cs: str


@dataclass(frozen=True)
class Sheet:
    """A transparent sheet on the easel: who drew it, what, and whether the table
    accepted it against the check."""

    artist: Seat
    strokes: tuple[Stroke, ...]
    overruled: bool = False
    # Drawn on a real sheet at the table (`place_paper`, a seat without a phone): the
    # Critic judges it held up; the box knows only that it was placed.
    paper: bool = False


@dataclass(frozen=True)
class Guess:
    """One of the Critic's guesses: typed (`text`, with the box's `opinion`) or said
    aloud (`text` empty); `right` once an Artist marked it."""

    sheet: int  # how many sheets were on the easel
    text: str = ""
    opinion: Opinion | None = None
    right: bool | None = None
    marked_by: Seat | None = None


@dataclass(frozen=True)
class Hint:
    seat: Seat
    kind: str
    serial: int  # counts the round's hints, so the same hint twice shows twice


@dataclass(frozen=True)
class GiveUp:
    """A proposal to give up the round: who proposed (None: the HOURGLASS button) and
    who agreed so far. Everyone must agree; one refusal ends it."""

    by: Seat | None
    agreed: frozenset[Seat] = frozenset()


@dataclass(frozen=True)
class Round:
    number: int  # 1-based
    critic: Seat
    card: int  # index into the deck dealt from (CARDS, or the `cards` option's)
    artist: Seat  # whose turn it is to draw
    named: int | None = None  # the number 1-6 the Critic named
    refused: tuple[int, ...] = ()  # numbers an Artist asked to replace
    sheets: tuple[Sheet, ...] = ()
    drawing: tuple[Stroke, ...] = ()  # the sheet in the current Artist's hands
    check: Check | None = None
    panel: bool = False  # the current Artist draws on the table's own screen
    votes: Mapping[Seat, bool] = field(default_factory=options_.nothing)
    vote_lost: bool = False  # the Artists kept the check's verdict on this very sheet
    guesses: tuple[Guess, ...] = ()
    hint: Hint | None = None
    give_up: GiveUp | None = None
    result: Result = "unfinished"
    burned: bool = False
    # The card's words when it was dealt from a pack deck (the `cards` option); () for a
    # built-in card, read from CARDS. Kept in the round so a round alone names its word
    # (the gallery reads finished rounds) and the JSON of a built-in game stays as it was.
    custom_card: tuple[Word, ...] = ()


@dataclass(frozen=True)
class BroadLinesState:
    seats: tuple[Seat, ...]
    total: int  # sheets in the box
    check_sheets: bool
    deck: tuple[int, ...]  # cards still to draw, top first
    phase: Phase
    round: Round
    used: int  # sheets placed or burned so far
    history: tuple[Round, ...]  # finished rounds, for the art show
    rng: Rng
    # A deck from the table's word packs (the `cards` option), or () for the built-in
    # CARDS; `deck` and a round's `card` index whichever it is.
    custom_cards: tuple[tuple[Word, ...], ...] = ()
    gone: frozenset[Seat] = frozenset()  # seats whose player left; nobody waits for them
    ended: str = ""  # why the game ended early (TOO_FEW, ENDED_EARLY), or ""
    # Seats without a private screen (games.core.NO_SCREEN): as Artists the kiosk shows
    # them the word while the Critic looks away; they cannot vote on a sheet in secret.
    no_screen: frozenset[Seat] = frozenset()


# -- reading a state ---------------------------------------------------------------------


def left_of(state: BroadLinesState, seat: Seat) -> Seat:
    """The next player to the left still at the table (a seat that left is skipped)."""
    i = state.seats.index(seat)
    ring = state.seats[i + 1:] + state.seats[:i + 1]
    return next(s for s in ring if s not in state.gone)


def present(state: BroadLinesState) -> tuple[Seat, ...]:
    return tuple(s for s in state.seats if s not in state.gone)


def artists(state: BroadLinesState, rnd: Round | None = None) -> tuple[Seat, ...]:
    """The Artists in turn order: clockwise, starting left of the Critic."""
    critic = (rnd or state.round).critic
    i = state.seats.index(critic)
    ring = state.seats[i + 1:] + state.seats[:i]
    return tuple(s for s in ring if s not in state.gone)


def voters(state: BroadLinesState) -> tuple[Seat, ...]:
    """Who votes on a refused sheet: the Artists with a private screen, and the Artist
    whose sheet it is (who asks with their own yes). An Artist without one would have to
    show the sheet to the Critic to vote, so the vote does not wait for them."""
    artist = state.round.artist
    return tuple(s for s in artists(state) if s not in state.no_screen or s == artist)


def next_artist(state: BroadLinesState, seat: Seat) -> Seat:
    """The next Artist clockwise after `seat` (who may have left)."""
    critic = state.round.critic
    i = state.seats.index(seat)
    ring = state.seats[i + 1:] + state.seats[:i + 1]
    return next(s for s in ring if s not in state.gone and s != critic)


def card_of(rnd: Round) -> tuple[Word, ...]:
    """The round's card: its six words, numbered 1-6 in order."""
    return rnd.custom_card or CARDS[rnd.card]


def word_of(rnd: Round) -> Word | None:
    return None if rnd.named is None else card_of(rnd)[rnd.named - 1]


def deck_size(state: BroadLinesState) -> int:
    """How many cards the game deals from: the pack deck's, or the built-in CARDS'."""
    return len(state.custom_cards) or len(CARDS)


def guesses_left(rnd: Round) -> int:
    """Guesses the Critic still has on the newest sheet."""
    on_sheet = [g for g in rnd.guesses if g.sheet == len(rnd.sheets) and g.right is not None]
    return max(0, GUESSES_PER_SHEET - len(on_sheet)) if rnd.sheets else 0


def pending_guess(rnd: Round) -> Guess | None:
    """A typed guess waiting for an Artist to mark it."""
    last = rnd.guesses[-1] if rnd.guesses else None
    return last if last is not None and last.right is None else None


def guessed_words(state: BroadLinesState) -> list[Word]:
    return [w for r in state.history if r.result == "guessed" and (w := word_of(r)) is not None]


def last_chance(state: BroadLinesState) -> bool:
    """Every sheet is used: the guesses on the easel now are the game's last."""
    return state.used >= state.total


def check_sheet(strokes: Sequence[Stroke]) -> Check:
    if not strokes:
        return Check(False, "Nothing is drawn on this sheet yet.", "Na fólii zatím nic není.")
    verdict = check_broad_lines_sheet(strokes)
    return Check(verdict.legal, verdict.reason, verdict.reason_in("cs"))


class PendingCheck(Check):
    """A sheet's check, made when it is first read (the Artist's view, placing the sheet,
    a vote) and then kept. The rules check the sheet after every stroke so that the
    Artist learns at once what the box sees; made lazily, a replay of the log after a
    power cut checks each sheet when the rules read it, not once per stroke. It reads and
    compares as the Check it makes."""

    _strokes: tuple[Stroke, ...]

    def __init__(self, strokes: tuple[Stroke, ...]) -> None:
        object.__setattr__(self, "_strokes", strokes)

    @cached_property
    def made(self) -> Check:
        return check_sheet(self._strokes)

    @property
    def legal(self) -> bool:
        return self.made.legal

    @property
    def reason_en(self) -> str:
        return self.made.reason_en

    @property
    def reason_cs(self) -> str:
        return self.made.reason_cs

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PendingCheck) and other._strokes == self._strokes:
            return True  # the same sheet: the same check, made or not
        return self.made == (other.made if isinstance(other, PendingCheck) else other)

    def __hash__(self) -> int:
        return hash(self.made)

    def __repr__(self) -> str:
        return f"PendingCheck({self.made!r})"


def _word(word: Word | None) -> dict[str, str] | None:
    return None if word is None else {"en": word.en, "cs": word.cs}


def _strokes(strokes: Sequence[Stroke]) -> list[dict[str, Any]]:
    return [stroke_to_data(s) for s in strokes]


class BroadLines:
    id = "broad-lines"
    title: Mapping[str, str] = MappingProxyType({"en": "Broad Lines", "cs": "Široké čáry"})
    min_players = 3
    max_players = 12

    def __init__(self, matcher: WordMatcher = folded_match) -> None:
        self.matcher = matcher

    # -- setup ------------------------------------------------------------------------
    def setup(
        self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int
    ) -> BroadLinesState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "Broad Lines is for 3 to 12 players.")
        options_.no_unknown(options, ("sheets", "check_sheets", "cards", NO_SCREEN),
                            "Broad Lines")
        total = options.get("sheets", DEFAULT_SHEETS)
        low, high = SHEETS_RANGE
        if type(total) is not int or not low <= total <= high:
            raise BadOptions("sheets", "The box holds {low} to {high} sheets.", low=low, high=high)
        check = options.get("check_sheets", True)
        if type(check) is not bool:
            raise BadOptions("flag", "{name} is true or false.", name="check_sheets")
        custom = tuple(
            tuple(Word(en, cs) for en, cs in card)
            for card in options_.text_cards(options, "cards", WORDS_PER_CARD, MIN_CARDS)
        )
        rng = Rng(seed)
        deck, rng = rng.shuffled(range(len(custom) or len(CARDS)))
        order = tuple(s.seat for s in seats)
        shared = no_screen(options, order)
        critic, rng = rng.choice(order)  # "randomly choose the first Art Critic"
        state = BroadLinesState(
            seats=order, total=total, check_sheets=check, deck=deck, phase="choose",
            round=Round(0, critic, 0, critic), used=0, history=(), rng=rng,
            custom_cards=custom, no_screen=shared,
        )
        return self._new_round(state, 1, critic)

    def _new_round(self, state: BroadLinesState, number: int, critic: Seat) -> BroadLinesState:
        deck, rng = state.deck, state.rng
        if not deck:  # more rounds than cards: a fresh shuffle (a very long evening)
            deck, rng = rng.shuffled(range(deck_size(state)))
        custom = state.custom_cards[deck[0]] if state.custom_cards else ()
        rnd = Round(number, critic, deck[0], left_of(state, critic), custom_card=custom)
        return replace(state, deck=deck[1:], rng=rng, phase="choose", round=rnd)

    # -- moves ------------------------------------------------------------------------
    def apply(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        require(state.phase != "over", "over", "The game is over.")
        kind, seat = action.kind, action.seat
        if kind in (SEAT_LEFT, SEAT_BACK):
            return self._seat_change(state, action)
        if kind == END_EARLY:
            return self._end_early(state, action)
        require(seat not in state.gone, "seat_gone", "This seat has left the game.")
        if kind == "press_die":
            raise IllegalAction("die_unused", "Broad Lines has no use for the die.")
        if kind == "press_hourglass":
            raise IllegalAction(
                "hourglass_unused",
                "Broad Lines has no hourglass; hold the button to propose giving up.",
            )
        if kind in ("propose_give_up", "hold_hourglass", "agree_give_up", "refuse_give_up"):
            return self._give_up(state, action)
        if kind == "hint":
            return self._hint(state, action)
        if seat is not TABLE:
            require(seat in state.seats, "players_only", "Only the players play.")
        require(state.round.give_up is None or kind in ("next", "press_reveal"), "give_up_open",
                "First answer the proposal to give up.")
        if kind in ("name_number", "ask_other"):
            return self._number(state, action)
        if kind in ("stroke", "undo", "clear", "place", "place_paper", "use_panel"):
            return self._draw(state, action)
        if kind in ("accept_vote",):
            return self._vote(state, action)
        if kind in ("guess", "mark", "pass"):
            return self._guess(state, action)
        if kind in ("next", "press_reveal"):
            require(state.phase == "reveal", "not_now_next", "The round is not over.")
            require(seat in state.seats or (kind == "press_reveal" and seat is TABLE),
                    "players_only", "Only the players play.")
            return self._new_round(state, state.round.number + 1, self._next_critic(state))
        raise IllegalAction("unknown_kind", "Broad Lines has no move {kind!r}.", kind=kind)

    def _number(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        rnd, seat = state.round, action.seat
        if action.kind == "name_number":
            require(state.phase == "choose", "not_choosing", "The word is chosen already.")
            require(seat == rnd.critic, "critic_names", "The Art Critic names the number.")
            number = action.data.get("number")
            require(type(number) is int and 1 <= number <= WORDS_PER_CARD, "number",
                    "Name a number from 1 to {n}.", n=WORDS_PER_CARD)
            assert isinstance(number, int)
            require(number not in rnd.refused, "number_refused",
                    "An Artist asked for another number than {number}.", number=number)
            return replace(state, phase="drawing", round=replace(rnd, named=number))
        # "One of the Artists may not know what the chosen word means": another number.
        require(state.phase == "drawing" and not rnd.sheets, "not_now_other",
                "Another number may be asked for before the first sheet is placed.")
        require(seat in artists(state), "artists_ask", "Only an Artist asks for another number.")
        assert rnd.named is not None
        refused = (*rnd.refused, rnd.named)
        require(len(refused) < WORDS_PER_CARD, "no_numbers", "No number is left on this card.")
        return replace(state, phase="choose", round=replace(
            rnd, named=None, refused=refused, drawing=(), check=None, panel=False,
        ))

    def _draw(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        rnd, seat, kind = state.round, action.seat, action.kind
        require(state.phase == "drawing", "not_drawing", "Nobody draws now.")
        require(seat == rnd.artist, "not_your_turn", "It is another Artist's turn to draw.")
        if kind == "use_panel":
            on = action.data.get("on")
            require(type(on) is bool, "on", "Say on or off.")
            assert isinstance(on, bool)
            require(on != rnd.panel, "panel_already", "That is where you draw already.")
            return replace(state, round=replace(rnd, panel=on))
        strokes = rnd.drawing
        if kind == "place_paper":
            # The rules' own sheets and marker: an Artist without a phone (who may have no
            # touch screen either) draws on a sheet at the table and says it is placed.
            # The table judges its lines by eye, as without the box's check.
            require(seat in state.no_screen, "paper_no_screen",
                    "Only an Artist without a phone draws on paper.")
            require(not strokes and not rnd.panel, "paper_drawing",
                    "This sheet is being drawn on the screen; place it or clear it.")
            return self._place(state, overruled=False, paper=True)
        if kind == "place":
            require(bool(strokes), "empty_sheet", "Draw something on the sheet first.")
            if state.check_sheets:
                assert rnd.check is not None
                require(rnd.check.legal, "sheet_refused",
                        "{why} Change the sheet, or ask the Artists to accept it.",
                        why=rnd.check.reason_en)
            return self._place(state, overruled=False)
        if kind == "stroke":
            require(len(strokes) < MAX_STROKES, "too_many", "This sheet has enough strokes.")
            strokes = (*strokes, stroke_from_data(action.data))
        elif kind == "undo":
            require(bool(strokes), "nothing_to_undo", "There is nothing to undo.")
            strokes = strokes[:-1]
        else:
            require(bool(strokes), "nothing_to_clear", "The sheet is empty.")
            strokes = ()
        # Checked after every stroke, so the Artist learns at once what the box sees.
        check = PendingCheck(strokes) if state.check_sheets else None
        return replace(state, round=replace(rnd, drawing=strokes, check=check, vote_lost=False))

    def _place(self, state: BroadLinesState, overruled: bool, paper: bool = False
               ) -> BroadLinesState:
        rnd = state.round
        sheet = Sheet(rnd.artist, rnd.drawing, overruled, paper)
        rnd = replace(rnd, sheets=(*rnd.sheets, sheet), drawing=(), check=None,
                      votes=options_.nothing())
        return replace(state, phase="guessing", round=rnd, used=state.used + 1)

    def _vote(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        """A refused sheet put to the Artists: a majority of them accepts it anyway.

        The drawing Artist asks for the vote with their own yes; the Critic, who must not
        see the sheet before it is placed, does not vote."""
        rnd, seat = state.round, action.seat
        accept = action.data.get("accept")
        require(type(accept) is bool, "accept", "Vote yes or no.")
        assert isinstance(accept, bool)
        ring = voters(state)
        require(seat in artists(state), "artists_vote", "Only the Artists vote on a sheet.")
        require(seat in ring, "vote_screen", "Only an Artist with a phone votes on a sheet.")
        assert seat is not None
        if state.phase == "drawing":
            require(seat == rnd.artist and accept, "ask_vote",
                    "The Artist whose sheet it is asks the table.")
            require(state.check_sheets and rnd.check is not None and not rnd.check.legal
                    and bool(rnd.drawing), "sheet_fine", "This sheet may be placed as it is.")
            require(not rnd.vote_lost, "vote_lost",
                    "The Artists kept the check's verdict on this sheet; change it first.")
            state = replace(state, phase="vote")
        else:
            require(state.phase == "vote", "no_vote", "There is nothing to vote on.")
            require(seat not in rnd.votes, "voted", "You have voted.")
        votes = {**state.round.votes, seat: accept}
        return self._tally(state, votes)

    def _tally(self, state: BroadLinesState, votes: Mapping[Seat, bool]) -> BroadLinesState:
        """The sheet vote as it stands: placed, kept refused, or still open."""
        ring = voters(state)
        yes = sum(votes.values())
        no = len(votes) - yes
        if 2 * yes > len(ring):
            return self._place(replace(state, round=replace(state.round, votes=votes)), True)
        if 2 * no >= len(ring):  # a tie keeps the check's verdict: the Artist draws again
            return replace(state, phase="drawing", round=replace(
                state.round, votes=options_.nothing(), vote_lost=True,
            ))
        return replace(state, round=replace(state.round, votes=MappingProxyType(votes)))

    def _seat_change(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        """A seat left (its turn and its role pass on; nobody waits for it) or a newcomer
        took it back (they play on in it)."""
        seat = seat_change(action, state.seats, state.gone)
        if action.kind == SEAT_BACK:
            return replace(state, gone=state.gone - {seat})
        state = replace(state, gone=state.gone | {seat})
        if len(present(state)) < self.min_players:
            return replace(state, phase="over", ended=TOO_FEW)
        rnd, phase = state.round, state.phase
        under_way = phase in ("drawing", "vote", "guessing")
        if seat == rnd.critic:
            if phase == "choose":  # no word yet: the next player is the Critic
                critic = left_of(state, seat)
                return replace(state, round=replace(
                    rnd, critic=critic, artist=left_of(state, critic), refused=(),
                ))
            if under_way:  # the word goes with its Critic: the round ends, no sheet burned
                return self._end_round(state, "unfinished")
            return state
        if rnd.give_up is not None:
            proposal = replace(rnd.give_up, agreed=rnd.give_up.agreed - {seat})
            state = self._settle_give_up(state, proposal)
            if state.phase not in ("drawing", "vote", "guessing"):
                return state
            rnd = state.round
        if seat == rnd.artist and state.phase in ("drawing", "vote"):
            # The sheet in their hands goes with them; the next Artist draws.
            return replace(state, phase="drawing", round=replace(
                rnd, artist=next_artist(state, seat), drawing=(), check=None, panel=False,
                votes=options_.nothing(), vote_lost=False, hint=None,
            ))
        if state.phase == "vote":
            return self._tally(state, {v: a for v, a in rnd.votes.items() if v != seat})
        return state

    def _end_early(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        """The host ends the game (games.core.END_EARLY): the words guessed so far are
        its score and rating. A round with sheets on the easel ends unfinished, so its
        sheets and word join the art show (no sheet is burned); a guess not yet marked
        right does not count; a round whose first sheet is not placed is left out."""
        check_end_early(action)
        if state.phase in ("drawing", "vote", "guessing") and state.round.sheets:
            state = self._end_round(state, "unfinished")
        return replace(state, phase="over", ended=ENDED_EARLY)

    def _guess(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        rnd, seat, kind = state.round, action.seat, action.kind
        require(state.phase == "guessing", "not_guessing", "The Critic is not guessing now.")
        pending = pending_guess(rnd)
        if kind == "guess":
            require(seat == rnd.critic, "critic_guesses", "The Art Critic guesses.")
            require(pending is None, "guess_pending", "The Artists have not marked the last "
                    "guess yet.")
            raw = action.data.get("text")
            require(isinstance(raw, str), "text", "Type the guess.")
            assert isinstance(raw, str)
            text = " ".join(unicodedata.normalize("NFC", raw).split())
            require(0 < len(text) <= MAX_GUESS_CHARS, "text_length",
                    "A guess has 1 to {n} characters.", n=MAX_GUESS_CHARS)
            require(all(unicodedata.category(c)[0] in "LNPZ" for c in text), "text_chars",
                    "A guess is letters, digits and punctuation.")
            word = word_of(rnd)
            assert word is not None
            guess = Guess(len(rnd.sheets), text, self.matcher(text, word))
            return replace(state, round=replace(rnd, guesses=(*rnd.guesses, guess)))
        if kind == "pass":
            require(seat == rnd.critic, "critic_passes", "The Art Critic passes.")
            require(pending is None, "guess_pending", "The Artists have not marked the last "
                    "guess yet.")
            return self._after_sheet(state)
        require(seat in artists(state), "artists_mark", "An Artist marks the Critic's guess.")
        right = action.data.get("right")
        require(type(right) is bool, "right", "Mark the guess right or wrong.")
        assert isinstance(right, bool)
        if pending is None:  # a guess said aloud
            guess = Guess(len(rnd.sheets), right=right, marked_by=seat)
            guesses = (*rnd.guesses, guess)
        else:
            guesses = (*rnd.guesses[:-1], replace(pending, right=right, marked_by=seat))
        rnd = replace(rnd, guesses=guesses)
        state = replace(state, round=rnd)
        if right:
            return self._end_round(state, "guessed")
        if guesses_left(rnd) == 0:
            return self._after_sheet(state)
        return state

    def _after_sheet(self, state: BroadLinesState) -> BroadLinesState:
        """The Critic's guesses on this sheet are spent: the next Artist, or the end."""
        if last_chance(state):
            return self._end_round(state, "unfinished")
        rnd = state.round
        return replace(state, phase="drawing", round=replace(
            rnd, artist=next_artist(state, rnd.artist), panel=False, hint=None,
        ))

    def _end_round(self, state: BroadLinesState, result: Result) -> BroadLinesState:
        rnd = replace(state.round, result=result, give_up=None, drawing=(), check=None,
                      votes=options_.nothing())
        used = state.used
        if result == "given_up" and used < state.total:
            # "If you gave up, put one more unused transparent sheet in the box."
            rnd = replace(rnd, burned=True)
            used += 1
        state = replace(state, round=rnd, used=used, history=(*state.history, rnd))
        return replace(state, phase="over" if used >= state.total else "reveal")

    def _next_critic(self, state: BroadLinesState) -> Seat:
        """The player to the left of the last Artist (of the first, if no sheet was placed)."""
        rnd = state.round
        last = rnd.sheets[-1].artist if rnd.sheets else artists(state)[0]
        return left_of(state, last)

    def _give_up(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        rnd, seat, kind = state.round, action.seat, action.kind
        require(state.phase in ("drawing", "vote", "guessing"), "not_now_give_up",
                "Giving up is for a round under way.")
        if kind in ("propose_give_up", "hold_hourglass"):
            if kind == "hold_hourglass":
                require(seat is TABLE, "table_only", "Only the table's button does that.")
            else:
                require(seat in state.seats, "players_only", "Only the players play.")
            require(rnd.give_up is None, "give_up_open", "Giving up is proposed already.")
            agreed = frozenset() if seat is None else frozenset({seat})
            proposal = GiveUp(seat, agreed)
            return self._settle_give_up(state, proposal)
        require(rnd.give_up is not None, "no_give_up", "Nobody proposed giving up.")
        assert rnd.give_up is not None
        if kind == "refuse_give_up":
            # Anyone may say no; the kiosk's "play on" comes from the table.
            require(seat is TABLE or seat in state.seats, "players_only", "Only the players play.")
            return replace(state, round=replace(rnd, give_up=None))
        require(seat in state.seats, "players_only", "Only the players play.")
        assert seat is not None
        require(seat not in rnd.give_up.agreed, "agreed", "You have agreed already.")
        proposal = replace(rnd.give_up, agreed=rnd.give_up.agreed | {seat})
        return self._settle_give_up(state, proposal)

    def _settle_give_up(self, state: BroadLinesState, proposal: GiveUp) -> BroadLinesState:
        if proposal.agreed >= set(present(state)):
            return self._end_round(replace(state, round=replace(state.round, give_up=None)),
                                   "given_up")
        return replace(state, round=replace(state.round, give_up=proposal))

    def _hint(self, state: BroadLinesState, action: Action) -> BroadLinesState:
        rnd, seat = state.round, action.seat
        require(state.phase in ("drawing", "vote", "guessing") and bool(rnd.guesses),
                "not_now_hint", "Hints answer the Critic's guesses.")
        require(seat in artists(state), "artists_hint", "Only the Artists give hints.")
        assert seat is not None
        kind = action.data.get("hint")
        require(kind in HINTS, "hint", "The hints are: {hints}.", hints=", ".join(HINTS))
        assert isinstance(kind, str)
        serial = 1 if rnd.hint is None else rnd.hint.serial + 1
        return replace(state, round=replace(rnd, hint=Hint(seat, kind, serial)))

    # -- what the players may do ------------------------------------------------------
    def legal_actions(self, state: BroadLinesState, seat: Seat | None) -> Sequence[Action]:
        rnd, phase = state.round, state.phase
        if phase == "over":
            return []
        if seat is TABLE:
            return self._table_actions(state)
        if seat not in state.seats or seat in state.gone:
            return []
        ring = artists(state)
        under_way = phase in ("drawing", "vote", "guessing")
        moves: list[Action] = []
        if under_way:
            if rnd.give_up is None:
                moves.append(Action("propose_give_up", seat))
            else:
                if seat not in rnd.give_up.agreed:
                    moves.append(Action("agree_give_up", seat))
                moves.append(Action("refuse_give_up", seat))
            if seat in ring and rnd.guesses:
                moves += [Action("hint", seat, {"hint": h}) for h in HINTS]
        if rnd.give_up is not None and under_way:
            return moves
        if phase == "choose":
            if seat == rnd.critic:
                moves += [Action("name_number", seat, {"number": n})
                          for n in range(1, WORDS_PER_CARD + 1) if n not in rnd.refused]
        elif phase == "drawing":
            if seat in ring and not rnd.sheets and len(rnd.refused) < WORDS_PER_CARD - 1:
                moves.append(Action("ask_other", seat))
            if seat == rnd.artist:
                moves += self._drawing_moves(state, seat)
        elif phase == "vote":
            if seat in voters(state) and seat not in rnd.votes:
                moves += [Action("accept_vote", seat, {"accept": a}) for a in (True, False)]
        elif phase == "guessing":
            pending = pending_guess(rnd)
            if seat == rnd.critic and pending is None:
                moves += [Action("guess", seat, {"text": "a guess"}), Action("pass", seat)]
            if seat in ring:
                moves += [Action("mark", seat, {"right": r}) for r in (True, False)]
        elif phase == "reveal":
            moves.append(Action("next", seat))
        return moves

    def _drawing_moves(self, state: BroadLinesState, seat: Seat) -> list[Action]:
        rnd = state.round
        line = [[300 + 100 * len(rnd.drawing), 200, 0], [700, 800, 120]]
        moves = [Action("use_panel", seat, {"on": not rnd.panel})]
        if seat in state.no_screen and not rnd.drawing and not rnd.panel:
            moves.append(Action("place_paper", seat))
        if len(rnd.drawing) < MAX_STROKES:
            moves.append(Action("stroke", seat, {"points": line}))
        if rnd.drawing:
            moves += [Action("undo", seat), Action("clear", seat)]
            if not state.check_sheets or (rnd.check is not None and rnd.check.legal):
                moves.append(Action("place", seat))
            elif not rnd.vote_lost:
                moves.append(Action("accept_vote", seat, {"accept": True}))
        return moves

    def _table_actions(self, state: BroadLinesState) -> list[Action]:
        rnd, phase = state.round, state.phase
        if phase == "reveal":
            return [Action("press_reveal")]
        if phase in ("drawing", "vote", "guessing"):
            if rnd.give_up is None:
                return [Action("hold_hourglass")]
            return [Action("refuse_give_up")]
        return []

    # -- what each seat sees ----------------------------------------------------------
    def view(self, state: BroadLinesState, seat: Seat | None) -> dict[str, Any]:
        rnd, phase = state.round, state.phase
        ring = artists(state)
        artist = seat in ring and phase != "over"
        drawer = seat == rnd.artist and phase in ("drawing", "vote")
        ended = phase in ("reveal", "over")
        pending = pending_guess(rnd)
        # The sheet in hand: its Artist's; the Artists' while they vote on it (the Critic
        # must not see it before it is placed); the table's screen's when drawn there.
        sees_sheet = drawer or (phase == "vote" and artist) or (rnd.panel and seat is None)
        band, rating_en, rating_cs = rating(len(guessed_words(state)))
        view: dict[str, Any] = {
            "phase": phase,
            "round": rnd.number,
            "critic": rnd.critic,
            "artists": list(ring),
            "gone": sorted(state.gone),  # seats whose player left (not waited for)
            "ended": state.ended or None,
            "artist": rnd.artist if phase in ("drawing", "vote") else None,
            "last_artist": rnd.sheets[-1].artist if rnd.sheets else None,
            "you_critic": seat == rnd.critic,
            "number": rnd.named,
            "refused": list(rnd.refused),
            "sheets_total": state.total,
            "sheets_used": state.used,
            "check_sheets": state.check_sheets,
            "easel": [
                {"artist": s.artist, "strokes": _strokes(s.strokes), "overruled": s.overruled,
                 "paper": s.paper}
                for s in rnd.sheets
            ],
            "guesses_left": guesses_left(rnd) if phase == "guessing" else 0,
            "last_chance": last_chance(state) and phase == "guessing",
            "guesses": [
                {
                    "sheet": g.sheet,
                    "text": g.text,
                    "right": g.right,
                    # The box's opinion is for the Artists, who decide; the Critic would
                    # read it as a hint the rules do not allow.
                    "opinion": g.opinion if artist or ended else None,
                }
                for g in rnd.guesses
            ],
            "pending": pending is not None,
            "hint": None if rnd.hint is None else {
                "seat": rnd.hint.seat, "kind": rnd.hint.kind, "serial": rnd.hint.serial,
                "en": HINTS[rnd.hint.kind][0], "cs": HINTS[rnd.hint.kind][1],
            },
            "give_up": None if rnd.give_up is None else {
                "by": rnd.give_up.by, "agreed": sorted(rnd.give_up.agreed),
            },
            "votes": sorted(rnd.votes) if phase == "vote" else [],
            "panel": rnd.panel and phase in ("drawing", "vote"),
            "vote_lost": rnd.vote_lost and drawer,
            "drawing": _strokes(rnd.drawing) if sees_sheet else None,
            "check": to_jsonable(rnd.check) if sees_sheet and rnd.check else None,
            "word": _word(word_of(rnd)) if (artist and not ended) or ended else None,
            "card": (
                [_word(w) for w in card_of(rnd)] if artist and not ended else None
            ),
            "result": rnd.result if ended else None,
            "burned": rnd.burned if ended else False,
            "guessed_words": [_word(w) for w in guessed_words(state)],
            "score": len(guessed_words(state)),
            "rating": (
                {"band": band, "en": rating_en, "cs": rating_cs} if phase == "over" else None
            ),
            "art_show": None,
        }
        if phase == "over":
            view["art_show"] = [
                {
                    "round": r.number,
                    "critic": r.critic,
                    "word": _word(word_of(r)),
                    "result": r.result,
                    "burned": r.burned,
                    "sheets": [
                        {"artist": s.artist, "strokes": _strokes(s.strokes), "paper": s.paper}
                        for s in r.sheets
                    ],
                }
                for r in state.history
            ]
        return view

    # -- the rest of the contract -----------------------------------------------------
    def outcome(self, state: BroadLinesState) -> Outcome | None:
        if state.phase != "over":
            return None
        guessed = len(guessed_words(state))
        band = rating(guessed)[0]
        # Cooperative: the table wins together, or nobody does.
        winners = state.seats if guessed else ()
        summary = state.ended or f"rating {band}"
        return Outcome(winners, tuple((s, float(guessed)) for s in state.seats), summary)

    def deadline(self, state: BroadLinesState) -> Deadline | None:
        return None  # Broad Lines has no hourglass

    def secrets(self, state: BroadLinesState) -> Mapping[Seat | None, Collection[str]]:
        rnd = state.round
        hidden: dict[Seat | None, Collection[str]] = {None: (str(state.rng.seed),)}
        if state.phase in ("choose", "drawing", "vote", "guessing"):
            # The card is for the Artists only: listed under each of them, so only they
            # may see it (tests/conformance.py). Quoted as JSON writes a string, so "cat"
            # is not found inside "catapult".
            words = tuple(f'"{text}"' for w in card_of(rnd) for text in (w.en, w.cs))
            for seat in artists(state):
                hidden[seat] = words
        return hidden

    def to_json(self, state: BroadLinesState) -> Any:
        raw = to_jsonable(state)
        # The built-in deck: the JSON of a state stays as it was before pack decks.
        if not state.custom_cards:
            del raw["custom_cards"]
        for rnd in (raw["round"], *raw["history"]):
            if not rnd["custom_card"]:
                del rnd["custom_card"]
            for sheet in rnd["sheets"]:
                drop_unset(sheet, paper=False)
        drop_unset(raw, gone=[], ended="", no_screen=[])  # unset, the JSON stays as it was
        return raw

    def from_json(self, raw: Any) -> BroadLinesState:
        return decode(BroadLinesState, raw)


RULES = BroadLines()
registry.register(RULES)
