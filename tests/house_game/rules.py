"""Doodle Dash's rules: every seat draws the round's word, says "done"; a few rounds.

Each round deals one word from the deck (the built-in one, or a pack's: the start option
`words`); every seat draws it and sends `done`. After `rounds` rounds (a start option, 1
to 3) the game is over: a seat scores a point per round it drew something in, the most
points win. `extended_factor` (fed by the box's `[timers] extended_factor`) is only kept,
so a test can see the setting arrived.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final

from games import options as options_
from games.codec import decode, to_jsonable
from games.core import Action, BadOptions, Deadline, IllegalAction, Outcome, Seat, SeatInfo, require
from games.sheet import Stroke
from games.strokes import stroke_from_data, stroke_to_data

GAME_ID: Final = "doodle-dash"
WORDS: Final = (("kite", "drak"), ("teapot", "konvice"), ("bicycle", "kolo"), ("owl", "sova"))
MIN_WORDS: Final = 3
STROKES_PER_ROUND: Final = 20


@dataclass(frozen=True)
class DashState:
    seats: tuple[Seat, ...]
    words: tuple[tuple[str, str], ...]
    rounds: int
    extended_factor: float
    first_word: int
    round: int = 0
    # One entry per round played so far: seat -> its strokes (the current one is last).
    drawings: tuple[Mapping[Seat, tuple[Stroke, ...]], ...] = (MappingProxyType({}),)
    done: frozenset[Seat] = field(default_factory=frozenset)

    @property
    def over(self) -> bool:
        return self.round >= self.rounds


def word_of(state: DashState, number: int) -> tuple[str, str]:
    """The word of round `number` (from 0)."""
    return state.words[(state.first_word + number) % len(state.words)]


class DoodleDash:
    id = GAME_ID
    title: Mapping[str, str] = MappingProxyType({"en": "Doodle Dash", "cs": "Čmáranice"})
    min_players = 2
    max_players = 8

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int) -> DashState:
        options_.no_unknown(options, ("rounds", "words", "extended_factor"), "Doodle Dash")
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "Doodle Dash is for 2 to 8 players.")
        rounds = options.get("rounds", 2)
        if type(rounds) is not int or not 1 <= rounds <= 3:
            raise BadOptions("rounds", "rounds is 1, 2 or 3.")
        factor = options.get("extended_factor", 1.0)
        if isinstance(factor, bool) or not isinstance(factor, int | float):
            raise BadOptions("extended_factor", "extended_factor is a number.")
        words = tuple(card[0] for card in options_.text_cards(options, "words", 1, MIN_WORDS))
        deck = words or WORDS
        return DashState(tuple(s.seat for s in seats), deck, rounds, float(factor),
                         seed % len(deck))

    def apply(self, state: DashState, action: Action) -> DashState:
        require(not state.over, "over", "The game is over.")
        seat = action.seat
        require(seat in state.seats, "not_seated", "Only players draw.")
        assert seat is not None
        require(seat not in state.done, "done_already", "You are done with this round.")
        current = state.drawings[-1]
        if action.kind == "stroke":
            mine = current.get(seat, ())
            require(len(mine) < STROKES_PER_ROUND, "strokes", "That is enough strokes.")
            drawn = MappingProxyType({**current, seat: (*mine, stroke_from_data(action.data))})
            return replace(state, drawings=(*state.drawings[:-1], drawn))
        if action.kind == "done":
            done = state.done | {seat}
            if done != set(state.seats):
                return replace(state, done=done)
            following = state.round + 1
            more: tuple[Mapping[Seat, tuple[Stroke, ...]], ...] = (
                () if following >= state.rounds else (MappingProxyType({}),)
            )
            return replace(state, round=following, done=frozenset(),
                           drawings=(*state.drawings, *more))
        raise IllegalAction("unknown_kind", "Doodle Dash has no move {kind!r}.", kind=action.kind)

    def legal_actions(self, state: DashState, seat: Seat | None) -> Sequence[Action]:
        if state.over or seat not in state.seats or seat in state.done:
            return ()
        return (
            Action("stroke", seat, {"points": [[100, 100, 0], [900, 600, 90]]}),
            Action("done", seat),
        )

    def view(self, state: DashState, seat: Seat | None) -> dict[str, Any]:
        number = min(state.round, state.rounds - 1)
        en, cs = word_of(state, number)
        return {
            "phase": "over" if state.over else "drawing",
            "round": number + 1,
            "rounds": state.rounds,
            "word": {"en": en, "cs": cs},
            "done": sorted(state.done),
            "drawings": {
                str(s): [stroke_to_data(k) for k in strokes]
                for s, strokes in state.drawings[-1].items()
            },
        }

    def outcome(self, state: DashState) -> Outcome | None:
        if not state.over:
            return None
        points = {s: sum(1 for rnd in state.drawings if rnd.get(s)) for s in state.seats}
        best = max(points.values())
        return Outcome(tuple(s for s in state.seats if points[s] == best),
                       tuple((s, float(p)) for s, p in points.items()), "rounds_played")

    def deadline(self, state: DashState) -> Deadline | None:
        return None

    def secrets(self, state: DashState) -> Mapping[Seat | None, Collection[str]]:
        return {}  # everyone sees the word: a drawing game of nothing hidden

    def to_json(self, state: DashState) -> Any:
        return to_jsonable(state)

    def from_json(self, raw: Any) -> DashState:
        return decode(DashState, raw)


RULES: Final = DoodleDash()
