"""Race to Twenty: a tiny game that exercises the whole rules contract in the tests.

Not part of the product. Each seat is dealt a secret word (hidden information); in turn,
seats add 1-3 to a running total; the first to reach 20 wins. A 30-second hourglass per
turn (started by the first move or the HOURGLASS button) skips a slow seat; the DIE
button rolls a public d6; a seat may reveal its own word.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.codec import decode, to_jsonable
from games.core import (
    TABLE,
    TIME_UP,
    Action,
    BadOptions,
    Deadline,
    IllegalAction,
    Outcome,
    Seat,
    SeatInfo,
    require,
)
from games.rng import Rng

WORDS = ("zebra", "violin", "lighthouse", "pancake", "volcano", "umbrella", "octopus", "kettle")
TURN_SECONDS = 30.0
TARGET = 20


@dataclass(frozen=True)
class RaceState:
    seats: tuple[Seat, ...]
    words: tuple[str, ...]
    revealed: frozenset[Seat]
    total: int
    turn: int
    turn_started: float | None
    last_roll: int | None
    winner: Seat | None
    rng: Rng
    target: int = TARGET


class RaceToTwenty:
    id = "race"
    title: Mapping[str, str] = {"en": "Race to Twenty", "cs": "Závod do dvaceti"}
    min_players = 2
    max_players = 8

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int) -> RaceState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "Race to Twenty is for 2 to 8 players.")
        target = options.get("target", TARGET)
        if type(target) is not int or not 5 <= target <= 50:
            raise BadOptions("bad_target", "target must be a whole number from 5 to 50")
        rng = Rng(seed)
        words, rng = rng.sample(WORDS, len(seats))
        return RaceState(
            seats=tuple(s.seat for s in seats),
            words=words,
            revealed=frozenset(),
            total=0,
            turn=0,
            turn_started=None,
            last_roll=None,
            winner=None,
            rng=rng,
            target=target,
        )

    def _current(self, state: RaceState) -> Seat:
        return state.seats[state.turn % len(state.seats)]

    def apply(self, state: RaceState, action: Action) -> RaceState:
        require(state.winner is None, "over", "The game is over.")
        kind, seat = action.kind, action.seat
        if kind == "add":
            require(seat == self._current(state), "not_your_turn", "It is not your turn.")
            n = action.data.get("n")
            require(type(n) is int and 1 <= n <= 3, "bad_n", "Add 1, 2 or 3.")
            assert isinstance(n, int)
            total = state.total + n
            return replace(
                state,
                total=total,
                turn=state.turn + 1,
                turn_started=action.at,
                winner=seat if total >= state.target else None,
            )
        if kind == "reveal":
            require(seat in state.seats, "not_seated", "Only players can reveal.")
            assert seat is not None
            require(seat not in state.revealed, "revealed", "Your word is already shown.")
            return replace(state, revealed=state.revealed | {seat})
        if kind == "press_hourglass":
            require(seat is TABLE, "table_only", "Only the table's button does that.")
            return replace(state, turn_started=action.at)
        if kind == "press_die":
            require(seat is TABLE, "table_only", "Only the table's button does that.")
            roll, rng = state.rng.randint(1, 6)
            return replace(state, last_roll=roll, rng=rng)
        if kind == TIME_UP:
            require(seat is TABLE, "table_only", "Only the clock says time is up.")
            deadline = self.deadline(state)
            require(
                deadline is not None and action.at >= deadline.at, "early", "Time is not up."
            )
            return replace(state, turn=state.turn + 1, turn_started=action.at)
        raise IllegalAction("unknown_kind", "Race to Twenty has no move {kind!r}.", kind=kind)

    def legal_actions(self, state: RaceState, seat: Seat | None) -> Sequence[Action]:
        if state.winner is not None:
            return ()
        if seat is TABLE:
            return (Action("press_hourglass"), Action("press_die"))
        moves: list[Action] = []
        if seat == self._current(state):
            moves += [Action("add", seat, {"n": n}) for n in (1, 2, 3)]
        if seat not in state.revealed:
            moves.append(Action("reveal", seat))
        return moves

    def view(self, state: RaceState, seat: Seat | None) -> dict[str, Any]:
        index = state.seats.index(seat) if seat in state.seats else None
        return {
            "total": state.total,
            "target": state.target,
            "turn": self._current(state),
            "last_roll": state.last_roll,
            "your_word": None if index is None else state.words[index],
            "revealed": {
                str(s): state.words[i] for i, s in enumerate(state.seats) if s in state.revealed
            },
            "winner": state.winner,
        }

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), ((state.winner, 1.0),), "reached_target")

    def deadline(self, state: RaceState) -> Deadline | None:
        if state.turn_started is None or state.winner is not None:
            return None
        return Deadline(state.turn_started + TURN_SECONDS, "turn", TURN_SECONDS)

    def secrets(self, state: RaceState) -> Mapping[Seat | None, Collection[str]]:
        hidden: dict[Seat | None, Collection[str]] = {
            s: (state.words[i],) for i, s in enumerate(state.seats) if s not in state.revealed
        }
        hidden[None] = (str(state.rng.seed),)
        return hidden

    def to_json(self, state: RaceState) -> Any:
        return to_jsonable(state)

    def from_json(self, raw: Any) -> RaceState:
        return decode(RaceState, raw)


RULES = RaceToTwenty()


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
