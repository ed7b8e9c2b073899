"""Luck of the Draw: everyone draws the same subject, then votes on anonymous drawings.

The rules of the design's rules/luck-of-the-draw.txt as pure functions over a frozen state.
A round: a Subject card is drawn and shown; the die picks one of its numbered subjects;
the hourglass runs while everyone draws (Done hands a drawing in early, time-up takes the
rest as they are); the drawings are laid out in a random order, each with a random
coloured chip, so nobody can tell whose is whose; the die says how many Category cards
are voted on (the "speedier game" variation: always two); for each Category card every
player secretly picks a chip (their own drawing allowed) and the votes are revealed at
once. The most votes wins the card; a tie gives each tied player a half card (a Subject
card) and the Category goes to the back of the box; if everyone agrees that nothing fits,
the Category goes back and another is drawn. The winners stay anonymous until the last
Category of the round is voted: only then are the drawings' owners shown and the cards
handed out. First to 7 / 6 / 5 / 4 cards (4 / 5 / 6 / 7-8 players; two half cards make
one) wins.

The die and the cards are in games.luck_of_the_draw_cards; the chips are here. The
`subjects` and `categories` start options may carry either box from the table's word
packs (docs/packs.md) instead; they are logged with the match's options, so a replay
needs no pack file.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final, Literal

from games import options as options_
from games import registry
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
from games.luck_of_the_draw_cards import (
    CATEGORY_CARDS,
    DIE_FACES,
    SUBJECT_CARDS,
    SUBJECTS_PER_CARD,
    SubjectCard,
    Text,
    category_count,
    subject_number,
)
from games.memo import SameParts
from games.rng import Rng
from games.sheet import Stroke
from games.strokes import stroke_from_data, stroke_to_data

DEFAULT_SECONDS: Final = 45
DEFAULT_EXTENDED_FACTOR: Final = 2.0
DEFAULT_EXTRA_CARDS: Final = 2
MAX_STROKES: Final = 400
SPEEDIER_CATEGORIES: Final = 2
MIN_SUBJECT_CARDS: Final = 10
MIN_CATEGORY_CARDS: Final = 30
"""The fewest cards a `subjects` / `categories` option may hold (as a pack that replaces
the box must give)."""


@dataclass(frozen=True)
class Chip:
    """One of the eight coloured chips laid on the corner of a drawing."""

    id: str
    colour: str
    en: str
    cs: str


CHIPS: Final = (
    Chip("red", "#e53935", "red", "červený"),
    Chip("orange", "#fb8c00", "orange", "oranžový"),
    Chip("yellow", "#fdd835", "yellow", "žlutý"),
    Chip("green", "#43a047", "green", "zelený"),
    Chip("blue", "#1e88e5", "blue", "modrý"),
    Chip("purple", "#8e24aa", "purple", "fialový"),
    Chip("pink", "#f48fb1", "pink", "růžový"),
    Chip("white", "#fafafa", "white", "bílý"),
)
"""Eight chips for up to eight players, as in the box; colours far apart from each other."""

CHIP_BY_ID: Final = MappingProxyType({c.id: c for c in CHIPS})


def target_cards(players: int) -> int:
    """Category cards that win: 7 for 4 players, 6 for 5, 5 for 6, 4 for 7-8."""
    return {4: 7, 5: 6, 6: 5}.get(players, 4)


Phase = Literal["subject", "ready", "drawing", "categories", "voting", "result", "scores", "over"]


@dataclass(frozen=True)
class Exhibit:
    """A drawing in the gallery: whose it is (never shown before the round's end) and
    the chip on its corner."""

    owner: Seat
    chip: str


@dataclass(frozen=True)
class Verdict:
    """One Category card voted on: every vote, and the chips with the most votes (one
    chip: it won the card; several: a tie, each gets a half card)."""

    category: int
    votes: Mapping[Seat, str]
    leaders: tuple[str, ...]

    @property
    def is_tie(self) -> bool:
        return len(self.leaders) > 1


@dataclass(frozen=True)
class Round:
    number: int
    subject_card: int  # index into the Subject box (SUBJECT_CARDS, or the pack deck)
    subject: int | None = None  # 1..SUBJECTS_PER_CARD, from the die
    started: float | None = None  # when the hourglass was turned
    drawings: Mapping[Seat, tuple[Stroke, ...]] = field(default_factory=options_.nothing)
    done: frozenset[Seat] = frozenset()
    gallery: tuple[Exhibit, ...] = ()  # in the order laid out; empty while drawing
    categories: int = 0  # Category cards voted this round (0 until the die says)
    category: int | None = None  # the Category card being voted (index into its box)
    votes: Mapping[Seat, str] = field(default_factory=options_.nothing)  # voter -> chip
    closed: bool = False  # the vote's countdown ran out: whoever has not voted abstains
    # Who asked to count the votes, and when the countdown for the rest began (a majority
    # of the players asked, or the table did): nobody closes a vote alone.
    asked: frozenset[Seat] = frozenset()
    closing: float | None = None
    nothing_fits: frozenset[Seat] = frozenset()  # who says no drawing fits the Category
    replaced: tuple[int, ...] = ()  # Categories put back because nothing fitted
    verdicts: tuple[Verdict, ...] = ()
    # Seats sitting this round out: they left during it (or were gone when it was dealt);
    # nobody waits for them.
    out: frozenset[Seat] = frozenset()


@dataclass(frozen=True)
class LuckState:
    seats: tuple[Seat, ...]
    seconds: float
    auto_hourglass: bool
    speedier: bool
    target: int
    subjects: tuple[int, ...]  # the Subject box, top first
    categories: tuple[int, ...]  # the Category box, top first (put back at the end)
    phase: Phase
    round: Round
    cards: Mapping[Seat, tuple[int, ...]]  # Category cards won
    halves: Mapping[Seat, int]  # Subject cards from ties: two make a card
    rng: Rng
    # Boxes from the table's word packs (the `subjects` and `categories` options), or ()
    # for the built-in SUBJECT_CARDS and CATEGORY_CARDS; the indexes above are into
    # whichever box it is.
    custom_subjects: tuple[SubjectCard, ...] = ()
    custom_categories: tuple[Text, ...] = ()
    gone: frozenset[Seat] = frozenset()  # seats whose player left (a newcomer may return)
    ended: str = ""  # why the game ended early (TOO_FEW, ENDED_EARLY), or ""
    # Every round whose cards were handed out, the last one too: the finish's art show
    # of the whole game (the drawings stay in the log in any case).
    history: tuple[Round, ...] = ()


# -- reading a state ------------------------------------------------------------------


def subject_cards(state: LuckState) -> tuple[SubjectCard, ...]:
    """The Subject box this game deals from."""
    return state.custom_subjects or SUBJECT_CARDS


def category_cards(state: LuckState) -> tuple[Text, ...]:
    """The Category box this game draws from."""
    return state.custom_categories or CATEGORY_CARDS


def subject_of(state: LuckState, rnd: Round | None = None) -> Text | None:
    """The subject the die picked in `rnd` (the current round by default) of this game:
    any state of the match will do, its boxes do not change."""
    rnd = rnd or state.round
    if rnd.subject is None:
        return None
    return subject_cards(state)[rnd.subject_card].subjects[rnd.subject - 1]


def score_halves(state: LuckState, seat: Seat) -> int:
    """A seat's cards counted in halves: a Category card is 2, a Subject card 1."""
    return 2 * len(state.cards[seat]) + state.halves[seat]


def owner_of(rnd: Round, chip: str) -> Seat:
    return next(e.owner for e in rnd.gallery if e.chip == chip)


def chip_of(rnd: Round, seat: Seat) -> str | None:
    return next((e.chip for e in rnd.gallery if e.owner == seat), None)


def tally(rnd: Round, votes: Mapping[Seat, str]) -> list[tuple[str, int]]:
    """Votes per chip, in gallery order."""
    return [(e.chip, sum(1 for c in votes.values() if c == e.chip)) for e in rnd.gallery]


def leaders(rnd: Round, votes: Mapping[Seat, str]) -> tuple[str, ...]:
    counts = tally(rnd, votes)
    best = max((n for _, n in counts), default=0)
    return tuple(chip for chip, n in counts if n == best and n > 0)


def awards(rnd: Round) -> tuple[dict[Seat, list[int]], dict[Seat, int]]:
    """What the round's verdicts hand out: Category cards and half cards, per seat."""
    won: dict[Seat, list[int]] = {}
    halves: dict[Seat, int] = {}
    for verdict in rnd.verdicts:
        if verdict.is_tie:
            for chip in verdict.leaders:
                owner = owner_of(rnd, chip)
                halves[owner] = halves.get(owner, 0) + 1
        else:
            won.setdefault(owner_of(rnd, verdict.leaders[0]), []).append(verdict.category)
    return won, halves


def players(state: LuckState) -> tuple[Seat, ...]:
    """Who plays the round under way: every seat but those sitting it out."""
    return tuple(s for s in state.seats if s not in state.round.out)


def all_voted(state: LuckState) -> bool:
    return set(players(state)) <= set(state.round.votes)


@lru_cache(maxsize=1024)
def _stroke_data(stroke: Stroke) -> dict[str, Any]:
    """A stroke as views carry it, made once: every player's view of the gallery holds all
    the drawings, and a 2,000-point stroke takes a millisecond to convert. (A hit costs
    little: the cached stroke is the same object, so comparing it stops at identity.)
    Views are only read and sent, never changed, so sharing the lists is safe."""
    return stroke_to_data(stroke)


# The finish's art show, once per finished state (games/memo.py).
_ART_SHOWS: SameParts[list[dict[str, Any]]] = SameParts()


def _text(card: Any) -> dict[str, str]:
    return {"en": card.en, "cs": card.cs}


class LuckOfTheDraw:
    id = "luck-of-the-draw"
    title: Mapping[str, str] = MappingProxyType(
        {"en": "Luck of the Draw", "cs": "Štěstí v kreslení"}
    )
    min_players = 4
    max_players = 8

    # -- setup ------------------------------------------------------------------------
    def setup(
        self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int
    ) -> LuckState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "Luck of the Draw is for 4 to 8 players.")
        options_.no_unknown(
            options,
            (
                "seconds",
                "extended",
                "extended_factor",
                "auto_hourglass",
                "longer",
                "extra_cards",
                "speedier",
                "subjects",
                "categories",
            ),
            "Luck of the Draw",
        )
        seconds = options_.seconds(options, DEFAULT_SECONDS)
        factor = options.get("extended_factor", DEFAULT_EXTENDED_FACTOR)
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not (
            1 <= factor <= 4
        ):
            raise BadOptions("extended_factor", "Extended time is 1 to 4 times as long.")
        if options_.flag(options, "extended"):
            seconds = round(seconds * factor, 1)
        extra = options.get("extra_cards", DEFAULT_EXTRA_CARDS)
        if type(extra) is not int or not 1 <= extra <= 10:
            raise BadOptions("extra_cards", "A longer game needs 1 to 10 more cards to win.")
        target = target_cards(len(seats)) + (extra if options_.flag(options, "longer") else 0)
        custom_subjects = tuple(
            SubjectCard(tuple(Text(en, cs) for en, cs in card))
            for card in options_.text_cards(
                options, "subjects", SUBJECTS_PER_CARD, MIN_SUBJECT_CARDS
            )
        )
        custom_categories = tuple(
            Text(en, cs)
            for ((en, cs),) in options_.text_cards(options, "categories", 1, MIN_CATEGORY_CARDS)
        )
        rng = Rng(seed)
        subjects, rng = rng.shuffled(range(len(custom_subjects) or len(SUBJECT_CARDS)))
        categories, rng = rng.shuffled(range(len(custom_categories) or len(CATEGORY_CARDS)))
        order = tuple(s.seat for s in seats)
        state = LuckState(
            seats=order,
            seconds=float(seconds),
            auto_hourglass=options_.flag(options, "auto_hourglass"),
            speedier=options_.flag(options, "speedier"),
            target=target,
            subjects=subjects,
            categories=categories,
            phase="subject",
            round=Round(0, 0),
            cards=MappingProxyType({s: () for s in order}),
            halves=MappingProxyType({s: 0 for s in order}),
            rng=rng,
            custom_subjects=custom_subjects,
            custom_categories=custom_categories,
        )
        return self._deal_subject(state, 0)

    def _deal_subject(self, state: LuckState, number: int) -> LuckState:
        """A new round: the top Subject card (a fresh shuffle when the box is empty)."""
        subjects, rng = state.subjects, state.rng
        if not subjects:
            subjects, rng = rng.shuffled(range(len(subject_cards(state))))
        return replace(
            state,
            phase="subject",
            subjects=subjects[1:],
            rng=rng,
            round=Round(number, subjects[0], out=state.gone),
        )

    def _draw_category(self, state: LuckState) -> LuckState:
        """The top Category card goes up for the vote; votes start afresh."""
        deck, rng = state.categories, state.rng
        if not deck:
            # Only if every card was won or is out: shuffle in all that nobody holds.
            held = {c for cards in state.cards.values() for c in cards}
            every = range(len(category_cards(state)))
            free = [c for c in every if c not in held]
            deck, rng = rng.shuffled(free or every)
        rnd = replace(
            state.round,
            category=deck[0],
            votes=options_.nothing(),
            closed=False,
            nothing_fits=frozenset(),
            asked=frozenset(),
            closing=None,
        )
        return replace(state, phase="voting", categories=deck[1:], rng=rng, round=rnd)

    # -- moves ------------------------------------------------------------------------
    def apply(self, state: LuckState, action: Action) -> LuckState:
        require(state.phase != "over", "over", "The game is over.")
        kind = action.kind
        if kind in (SEAT_LEFT, SEAT_BACK):
            return self._seat_change(state, action)
        if kind == END_EARLY:
            return self._end_early(state, action)
        require(action.seat not in state.round.out, "sitting_out",
                "You sit this round out; you play again from the next.")
        if kind in ("roll", "press_die"):
            return self._roll(state, action)
        if kind in ("start_timer", "press_hourglass"):
            require(state.phase == "ready", "not_now_timer", "The hourglass is not needed now.")
            self._player_or_button(state, action, "press_hourglass")
            return replace(state, phase="drawing", round=replace(state.round, started=action.at))
        if kind in ("stroke", "undo", "clear", "done"):
            return self._draw(state, action)
        if kind == TIME_UP:
            deadline = self.deadline(state)
            require(action.seat is TABLE and deadline is not None and action.at >= deadline.at,
                    "early", "Time is not up.")
            if state.phase == "voting":  # the vote's countdown: whoever has not voted abstains
                if not state.round.votes:  # nobody voted: as if nothing fitted
                    return self._replace_category(state)
                return replace(state, round=replace(state.round, closed=True))
            return self._lay_out(state)
        if kind in ("vote", "nothing_fits", "close_vote", "reveal", "press_reveal", "next"):
            return self._vote(state, action)
        raise IllegalAction("unknown_kind", "Luck of the Draw has no move {kind!r}.", kind=kind)

    def _player_or_button(self, state: LuckState, action: Action, button: str) -> None:
        """Anyone at the table may roll, turn the hourglass or reveal: a player from their
        phone (`roll`, ...), or the table's own button (`press_*`, from TABLE only)."""
        if action.kind == button:
            require(action.seat is TABLE, "table_only", "Only the table's button does that.")
        else:
            require(action.seat in players(state), "players_only", "Only the players do that.")

    def _seat_change(self, state: LuckState, action: Action) -> LuckState:
        """A seat left (nobody waits for it) or a newcomer took it back (they play from
        the next round on)."""
        seat = seat_change(action, state.seats, state.gone)
        if action.kind == SEAT_BACK:
            return replace(state, gone=state.gone - {seat})
        rnd = state.round
        rnd = replace(
            rnd,
            out=rnd.out | {seat},
            votes=MappingProxyType({v: c for v, c in rnd.votes.items() if v != seat}),
            nothing_fits=rnd.nothing_fits - {seat},
            asked=rnd.asked - {seat},
        )
        state = replace(state, gone=state.gone | {seat}, round=rnd)
        if len(state.seats) - len(state.gone) < self.min_players:
            return replace(state, phase="over", ended=TOO_FEW)
        playing = set(players(state))
        if state.phase == "drawing" and playing <= rnd.done:
            return self._lay_out(state)
        if state.phase == "voting" and playing <= rnd.nothing_fits:
            return self._replace_category(state)
        return state

    def _roll(self, state: LuckState, action: Action) -> LuckState:
        require(state.phase in ("subject", "categories"), "not_now_roll",
                "The die is not needed now.")
        self._player_or_button(state, action, "press_die")
        face, rng = state.rng.choice(DIE_FACES)
        state = replace(state, rng=rng)
        rnd = state.round
        if state.phase == "subject":
            rnd = replace(rnd, subject=subject_number(face))
            if state.auto_hourglass:
                return replace(state, phase="drawing", round=replace(rnd, started=action.at))
            return replace(state, phase="ready", round=rnd)
        state = replace(state, round=replace(rnd, categories=category_count(face)))
        return self._draw_category(state)

    def _draw(self, state: LuckState, action: Action) -> LuckState:
        rnd, seat = state.round, action.seat
        require(state.phase == "drawing", "not_drawing", "Drawing time has not begun or is over.")
        require(seat in players(state), "players_draw", "Only the players draw.")
        assert seat is not None
        require(seat not in rnd.done, "handed_in", "You have handed your drawing in.")
        strokes = rnd.drawings.get(seat, ())
        if action.kind == "done":
            done = rnd.done | {seat}
            state = replace(state, round=replace(rnd, done=done))
            # Nobody waits for the sand once every drawing is face down.
            return self._lay_out(state) if set(players(state)) <= done else state
        if action.kind == "stroke":
            require(len(strokes) < MAX_STROKES, "too_many", "This sheet is full.")
            strokes = (*strokes, stroke_from_data(action.data))
        elif action.kind == "undo":
            require(bool(strokes), "nothing_to_undo", "There is nothing to undo.")
            strokes = strokes[:-1]
        else:
            require(bool(strokes), "nothing_to_clear", "The sheet is empty.")
            strokes = ()
        drawings = MappingProxyType({**rnd.drawings, seat: strokes})
        return replace(state, round=replace(rnd, drawings=drawings))

    def _lay_out(self, state: LuckState) -> LuckState:
        """Every drawing, finished or not, goes into the gallery in a random order with a
        random chip; then the die for the categories (or two, in the speedier game)."""
        order, rng = state.rng.shuffled(players(state))
        chips, rng = rng.sample([c.id for c in CHIPS], len(order))
        gallery = tuple(Exhibit(owner, chip) for owner, chip in zip(order, chips, strict=True))
        rnd = replace(state.round, gallery=gallery, done=frozenset(state.seats))
        state = replace(state, rng=rng, round=rnd, phase="categories")
        if state.speedier:
            return self._draw_category(
                replace(state, round=replace(rnd, categories=SPEEDIER_CATEGORIES))
            )
        return state

    def _vote(self, state: LuckState, action: Action) -> LuckState:
        rnd, seat, kind = state.round, action.seat, action.kind
        if state.phase in ("result", "scores") and kind in ("next", "press_reveal"):
            self._player_or_button(state, action, "press_reveal")
            if state.phase == "scores":
                return self._deal_subject(state, rnd.number + 1)
            if len(rnd.verdicts) < rnd.categories:
                return self._draw_category(state)
            return self._end_round(state)
        require(state.phase == "voting", "not_voting", "Nobody votes now.")
        if kind == "vote":
            require(seat in players(state), "players_vote", "Only the players vote.")
            assert seat is not None
            require(not rnd.closed, "closed", "The vote is closed.")
            chip = action.data.get("chip")
            require(any(e.chip == chip for e in rnd.gallery), "chip",
                    "Vote for one of the chips on the drawings.")
            assert isinstance(chip, str)
            votes = MappingProxyType({**rnd.votes, seat: chip})
            return replace(state, round=replace(rnd, votes=votes))
        if kind == "nothing_fits":
            if seat is TABLE:
                # The table agreed out loud and the host says so on the big screen.
                return self._replace_category(state)
            require(seat in players(state), "players_only", "Only the players do that.")
            agree = action.data.get("agree")
            require(type(agree) is bool, "agree", "Say yes or no.")
            agreed = rnd.nothing_fits | {seat} if agree else rnd.nothing_fits - {seat}
            if set(players(state)) <= agreed:
                return self._replace_category(state)
            return replace(state, round=replace(rnd, nothing_fits=agreed))
        if kind == "close_vote":
            # A quiet phone must not hold the table, and no one player may cut a vote
            # short: the table (kiosk, host) or a majority of the players starts a
            # countdown for those who have not voted (TIME_UP then closes the vote).
            require(seat is TABLE or seat in players(state), "players_only",
                    "Only the players do that.")
            require(not rnd.closed and rnd.closing is None, "closed", "The vote is closing.")
            require(not all_voted(state), "all_voted", "Everyone has voted: reveal the votes.")
            if seat is not TABLE:
                require(seat not in rnd.asked, "asked", "You have asked already.")
                asked = rnd.asked | {seat}
                if not majority(len(asked), len(players(state))):
                    return replace(state, round=replace(rnd, asked=asked))
                rnd = replace(rnd, asked=asked)
            return replace(state, round=replace(rnd, closing=action.at))
        if kind in ("reveal", "press_reveal"):
            self._player_or_button(state, action, "press_reveal")
            require(all_voted(state) or rnd.closed, "not_all_voted",
                    "Wait until everyone has voted (or the host ends the vote).")
            return self._reveal(state)
        raise IllegalAction("not_now", "Not now.")

    def _replace_category(self, state: LuckState) -> LuckState:
        """Nothing fits: the Category goes to the back of the box and another is drawn."""
        rnd = state.round
        assert rnd.category is not None
        state = replace(
            state,
            categories=(*state.categories, rnd.category),
            round=replace(rnd, replaced=(*rnd.replaced, rnd.category)),
        )
        return self._draw_category(state)

    def _reveal(self, state: LuckState) -> LuckState:
        """Every vote at once; the most votes wins the Category (anonymously, under its
        drawing), a tie sends it to the back of the box."""
        rnd = state.round
        assert rnd.category is not None
        verdict = Verdict(rnd.category, rnd.votes, leaders(rnd, rnd.votes))
        categories = (*state.categories, rnd.category) if verdict.is_tie else state.categories
        return replace(
            state,
            phase="result",
            categories=categories,
            round=replace(rnd, verdicts=(*rnd.verdicts, verdict), category=None),
        )

    def _end_round(self, state: LuckState) -> LuckState:
        """The last Category is voted: the owners are shown and the cards handed out."""
        state = self._hand_out(state)
        finished = any(score_halves(state, s) >= 2 * state.target for s in state.seats)
        return replace(state, phase="over" if finished else "scores")

    def _hand_out(self, state: LuckState) -> LuckState:
        """The round's Category cards (and half cards) go to the owners of the drawings
        that won them, and the round joins the art show."""
        won, halves = awards(state.round)
        cards = MappingProxyType(
            {s: (*state.cards[s], *won.get(s, ())) for s in state.seats}
        )
        half = MappingProxyType({s: state.halves[s] + halves.get(s, 0) for s in state.seats})
        return replace(state, cards=cards, halves=half, history=(*state.history, state.round))

    def _end_early(self, state: LuckState, action: Action) -> LuckState:
        """The host ends the game (games.core.END_EARLY): the cards as they stand. The
        Categories of the round under way that were voted and revealed were won (the
        rules keep a won card under its drawing until the round's end): they are handed
        out as the round's end would; the Category being voted, whose votes nobody has
        seen, counts for nobody."""
        check_end_early(action)
        if state.round.verdicts and state.phase != "scores":  # "scores": handed out already
            state = self._hand_out(state)
        return replace(state, phase="over", ended=ENDED_EARLY)

    # -- what the players may do ------------------------------------------------------
    def legal_actions(self, state: LuckState, seat: Seat | None) -> Sequence[Action]:
        rnd, phase = state.round, state.phase
        player = seat in players(state)
        if seat is not TABLE and not player:
            return []
        if phase in ("subject", "categories"):
            return [Action("press_die")] if seat is TABLE else [Action("roll", seat)]
        if phase == "ready":
            return [Action("press_hourglass")] if seat is TABLE else [Action("start_timer", seat)]
        if phase == "drawing":
            if not player or seat in rnd.done:
                return []
            assert seat is not None
            line = {"points": [[100 + 40 * i, 200, 16 * i] for i in range(6)]}
            moves = [Action("stroke", seat, line), Action("done", seat)]
            if rnd.drawings.get(seat):
                moves += [Action("undo", seat), Action("clear", seat)]
            return moves
        if phase in ("result", "scores"):
            return [Action("press_reveal")] if seat is TABLE else [Action("next", seat)]
        if phase != "voting":
            return []
        ready = all_voted(state) or rnd.closed
        can_close = rnd.closing is None and not rnd.closed and not all_voted(state)
        if seat is TABLE:
            moves = [Action("nothing_fits")]
            if ready:
                moves.append(Action("press_reveal"))
            if can_close:
                moves.append(Action("close_vote"))
            return moves
        moves = [Action("nothing_fits", seat, {"agree": a}) for a in (True, False)]
        if not rnd.closed:
            moves += [Action("vote", seat, {"chip": e.chip}) for e in rnd.gallery]
        if ready:
            moves.append(Action("reveal", seat))
        if can_close and seat not in rnd.asked:
            moves.append(Action("close_vote", seat))
        return moves

    # -- what each seat sees ----------------------------------------------------------
    def view(self, state: LuckState, seat: Seat | None) -> dict[str, Any]:
        rnd, phase = state.round, state.phase
        revealed = phase in ("scores", "over")  # the owners of this round's drawings
        card = subject_cards(state)[rnd.subject_card]
        categories = category_cards(state)
        view: dict[str, Any] = {
            "phase": phase,
            "round": rnd.number + 1,
            "target": state.target,
            "seconds": state.seconds,
            "speedier": state.speedier,
            "auto_hourglass": state.auto_hourglass,
            "die": list(DIE_FACES),
            "subject_card": {
                "number": rnd.subject_card + 1,
                "subjects": [
                    {"number": n, **_text(text)} for n, text in enumerate(card.subjects, 1)
                ],
            },
            "subject": rnd.subject,
            "done": sorted(rnd.done) if phase == "drawing" else [],
            "gallery": None,
            "categories": rnd.categories or None,
            "category_number": len(rnd.verdicts) + 1 if phase == "voting" else None,
            "category": None if rnd.category is None else _text(categories[rnd.category]),
            "voted": len(rnd.votes) if phase == "voting" else 0,  # how many, never who
            "voters": len(players(state)),
            "closed": rnd.closed,
            # How many asked to count the votes; "countdown" once it runs (match.deadline
            # has its time, what "vote").
            "asked": len(rnd.asked),
            "countdown": rnd.closing is not None and not rnd.closed,
            "my_asked": seat in rnd.asked,
            "gone": sorted(state.gone),  # seats whose player left
            "out": sorted(rnd.out),  # seats sitting this round out
            "ended": state.ended or None,
            "nothing_fits": sorted(rnd.nothing_fits),
            "replaced": len(rnd.replaced),
            "verdicts": [
                self._verdict(categories, rnd, n, v) for n, v in enumerate(rnd.verdicts, 1)
            ],
            "cards": {str(s): len(state.cards[s]) for s in state.seats},
            "halves": {str(s): state.halves[s] for s in state.seats},
            "won": {
                str(s): [_text(categories[c]) for c in state.cards[s]] for s in state.seats
            },
            "gained": None,
            "art_show": None,  # the finish only: every round of the game
            "my_drawing": None,
            "my_chip": None,
            "my_vote": None,
            "my_nothing_fits": False,
        }
        if rnd.gallery:
            view["gallery"] = self._gallery(rnd, revealed)
        if revealed:
            view["gained"] = self._gained(state, rnd)
        if phase == "over":
            view["art_show"] = self._art_show(state)
        if seat in players(state):
            assert seat is not None
            view["my_drawing"] = [_stroke_data(s) for s in rnd.drawings.get(seat, ())]
            view["my_chip"] = chip_of(rnd, seat)
            if phase == "voting":
                view["my_vote"] = rnd.votes.get(seat)
                view["my_nothing_fits"] = seat in rnd.nothing_fits
        return view

    def _gained(self, state: LuckState, rnd: Round) -> dict[str, dict[str, int]]:
        won, halves = awards(rnd)
        return {
            str(s): {"cards": len(won.get(s, ())), "halves": halves.get(s, 0)}
            for s in state.seats
        }

    def _gallery(self, rnd: Round, owners: bool) -> list[dict[str, Any]]:
        return [
            {
                "chip": e.chip,
                "colour": CHIP_BY_ID[e.chip].colour,
                "en": CHIP_BY_ID[e.chip].en,
                "cs": CHIP_BY_ID[e.chip].cs,
                "strokes": [_stroke_data(s) for s in rnd.drawings.get(e.owner, ())],
                **({"owner": e.owner} if owners else {}),
            }
            for e in rnd.gallery
        ]

    def _art_show(self, state: LuckState) -> list[dict[str, Any]]:
        """The finish: every round's drawings with their subject, owners and verdicts (at
        the end nothing is secret), in the shapes the view gives its own round. The same
        for every seat, so made once per finished state and shared by every view (views
        are only read and sent): the whole game's strokes are not converted per phone."""
        return _ART_SHOWS.made((state.history, state.round),
                               lambda: self._art_show_made(state))

    def _art_show_made(self, state: LuckState) -> list[dict[str, Any]]:
        rnd = state.round
        shown = state.history
        if rnd.gallery and (not shown or shown[-1].number != rnd.number):
            shown = (*shown, rnd)  # ended early (too few players) with drawings out
        shows = [self._art_show_round(state, past) for past in shown]
        return shows

    def _art_show_round(self, state: LuckState, rnd: Round) -> dict[str, Any]:
        subject = subject_of(state, rnd)
        categories = category_cards(state)
        return {
            "round": rnd.number + 1,
            "subject": None if subject is None else _text(subject),
            "gallery": self._gallery(rnd, True),
            "verdicts": [
                self._verdict(categories, rnd, n, v) for n, v in enumerate(rnd.verdicts, 1)
            ],
            "gained": self._gained(state, rnd),
        }

    def _verdict(
        self, categories: Sequence[Text], rnd: Round, number: int, verdict: Verdict
    ) -> dict[str, Any]:
        return {
            "number": number,
            "category": _text(categories[verdict.category]),
            "tally": [[chip, n] for chip, n in tally(rnd, verdict.votes)],
            "leaders": list(verdict.leaders),
            "tie": verdict.is_tie,
            # Revealed all at once, as the voting wheels are turned face up.
            "votes": [
                {"category": verdict.category, "chip": chip, "voter": voter}
                for voter, chip in sorted(verdict.votes.items())
            ],
        }

    # -- the rest of the contract -----------------------------------------------------
    def outcome(self, state: LuckState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(score_halves(state, s) for s in state.seats)
        winners = tuple(s for s in state.seats if score_halves(state, s) == best)
        if state.ended == ENDED_EARLY and best == 0:
            winners = ()  # ended by the host before anyone won a card: nobody won
        scores = tuple((s, score_halves(state, s) / 2) for s in state.seats)
        return Outcome(winners, scores, state.ended or "most_cards")

    def deadline(self, state: LuckState) -> Deadline | None:
        closing = state.round.closing
        if state.phase == "voting" and closing is not None and not state.round.closed:
            return Deadline(closing + VOTE_COUNTDOWN_S, VOTE, VOTE_COUNTDOWN_S)
        started = state.round.started
        if state.phase != "drawing" or started is None:
            return None
        return Deadline(started + state.seconds, "hourglass", state.seconds)

    def secrets(self, state: LuckState) -> Mapping[Seat | None, Collection[str]]:
        """Until the round's end nobody may link a chip to its owner, and until a reveal
        nobody may see another's vote. (That a drawing is its artist's alone while it is
        drawn is tested directly: random playouts draw the same line on every sheet.)
        Each secret is written as a view would carry it if it leaked."""
        rnd = state.round
        hidden: dict[Seat | None, list[str]] = {None: [str(state.rng.seed)]}
        if state.phase not in ("scores", "over"):
            for e in rnd.gallery:
                chip = CHIP_BY_ID[e.chip]
                hidden[None].append(f'"chip": "{chip.id}", "colour": "{chip.colour}", '
                                    f'"cs": "{chip.cs}", "en": "{chip.en}", "owner": {e.owner}')
                hidden.setdefault(e.owner, []).append(f'"my_chip": "{e.chip}"')
        if state.phase == "voting":
            for voter, chip_id in rnd.votes.items():
                hidden[None].append(
                    _dump({"category": rnd.category, "chip": chip_id, "voter": voter})
                )
                hidden.setdefault(voter, []).append(f'"my_vote": "{chip_id}"')
        return hidden

    def to_json(self, state: LuckState) -> Any:
        raw = to_jsonable(state)
        # The built-in boxes: the JSON of a state stays as it was before pack decks.
        for box in ("custom_subjects", "custom_categories"):
            if not raw[box]:
                del raw[box]
        # Fields added for seats that leave and fair votes: unset, the JSON stays as it was.
        drop_unset(raw, gone=[], ended="", history=[])
        for rnd in (raw["round"], *raw.get("history", ())):
            drop_unset(rnd, out=[], asked=[], closing=None)
        return raw

    def from_json(self, raw: Any) -> LuckState:
        return decode(LuckState, raw)


def _dump(value: Any) -> str:
    """As tests/conformance.py writes a view: sorted keys, so a leak reads the same."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


RULES = LuckOfTheDraw()
registry.register(RULES)
