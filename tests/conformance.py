"""The conformance suite every game must pass: seeded random playouts of its rules.

Like OpenSpiel's random simulation test: from many seeds, play random legal actions (and
let hourglasses run out), and at every step check that the game is never stuck, that
illegal actions are refused without changing anything, that no view carries another
seat's secret, that the state survives a JSON round trip, and that replaying the log from
the seed rebuilds the state exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.core import (
    TABLE,
    Action,
    IllegalAction,
    Rules,
    SeatInfo,
    replay,
    seat_back,
    seat_left,
    time_up,
)

COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")


@dataclass
class Playout:
    seed: int
    steps: int
    finished: bool
    actions: list[Action]


def seats_for(count: int) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(i, f"Player{i}", COLOURS[i % len(COLOURS)]) for i in range(count))


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def check_views(rules: Rules[Any], state: Any, seats: Sequence[SeatInfo]) -> None:
    secrets = rules.secrets(state)
    # A text listed under several seats (a word every Artist sees) is theirs alone.
    owners: dict[str, set[int | None]] = {}
    for owner, values in secrets.items():
        for secret in values:
            owners.setdefault(secret, set()).add(owner)
    viewers: list[int | None] = [s.seat for s in seats] + [None]
    for viewer in viewers:
        text = _dump(rules.view(state, viewer))  # also proves the view is JSON
        for secret, allowed in owners.items():
            if viewer is not None and viewer in allowed:
                continue
            assert secret not in text, (
                f"{rules.id}: the view for {viewer!r} shows {secret!r}, "
                f"which only {sorted(allowed, key=repr)!r} may see"
            )


def check_round_trip(rules: Rules[Any], state: Any) -> None:
    raw = json.loads(_dump(rules.to_json(state)))
    again = rules.from_json(raw)
    assert again == state, f"{rules.id}: the state changed in a JSON round trip"


def check_refusals(rules: Rules[Any], state: Any, seats: Sequence[SeatInfo], now: float) -> None:
    before = _dump(rules.to_json(state))
    garbage = [
        Action("no-such-move", seats[0].seat, {}, now),
        Action("no-such-move", TABLE, {"x": [1, {"y": None}]}, now),
    ]
    # A move legal for one seat, sent by a seat for which it is not legal.
    for seat in seats:
        legal = {(a.kind, _dump(dict(a.data))) for a in rules.legal_actions(state, seat.seat)}
        for other in seats:
            if other.seat == seat.seat:
                continue
            for action in rules.legal_actions(state, other.seat):
                if (action.kind, _dump(dict(action.data))) not in legal:
                    garbage.append(Action(action.kind, seat.seat, action.data, now))
                    break
    for action in garbage:
        try:
            rules.apply(state, action)
        except IllegalAction as err:
            assert str(err), f"{rules.id}: {action!r} refused without a reason"
        else:
            raise AssertionError(f"{rules.id}: {action!r} should have been refused")
    assert _dump(rules.to_json(state)) == before, f"{rules.id}: a refusal changed the state"


def playout(
    rules: Rules[Any],
    seed: int,
    max_steps: int = 6000,
    every: int = 1,
    leaving: tuple[int, int | None] | None = None,
) -> Playout:
    """One random game. Views are checked every `every` steps and at every phase change.

    `leaving` = (step, back): at that step a random seat leaves (SEAT_LEFT); if `back` is
    not None a newcomer takes it that many steps later (SEAT_BACK)."""
    rnd = random.Random(seed)
    count = rnd.randint(rules.min_players, min(rules.max_players, 8))
    seats = seats_for(count)
    game_seed = rnd.getrandbits(62) | (1 << 40)  # large, so it cannot hide in small numbers
    state = rules.setup(seats, {}, game_seed)
    now = 1_800_000_000.0
    log: list[Action] = []
    last_public = ""
    gone: int | None = None
    back_at: int | None = None
    for step in range(max_steps):
        public = _dump(rules.view(state, None))
        phase_changed = public[:200] != last_public[:200]
        if step % every == 0 or phase_changed:
            check_views(rules, state, seats)
        last_public = public
        if step % (7 * every) == 0:
            check_round_trip(rules, state)
            check_refusals(rules, state, seats, now)
        if rules.outcome(state) is not None:
            break
        now += rnd.uniform(0.05, 4.0)
        if leaving is not None and step == leaving[0]:
            gone = rnd.choice(seats).seat
            state = rules.apply(state, seat_left(gone, now))
            log.append(seat_left(gone, now))
            back_at = None if leaving[1] is None else step + leaving[1]
            continue
        if gone is not None and step == back_at:
            state = rules.apply(state, seat_back(gone, now))
            log.append(seat_back(gone, now))
            gone = None
            continue
        choices: list[Action] = []
        for who in [s.seat for s in seats] + [TABLE]:
            choices += [
                Action(a.kind, who, a.data, now) for a in rules.legal_actions(state, who)
            ]
        deadline = rules.deadline(state)
        if deadline is not None and (not choices or rnd.random() < 0.1):
            now = max(now, deadline.at)
            choices = [time_up(deadline)]
        assert choices, f"{rules.id}: stuck at step {step} (seed {seed}): nobody can act"
        action = rnd.choice(choices)
        state = rules.apply(state, action)
        log.append(action)
    check_round_trip(rules, state)
    rebuilt = replay(rules, seats, {}, game_seed, log)
    assert rebuilt == state, f"{rules.id}: replaying {len(log)} actions gave another state"
    return Playout(seed, len(log), rules.outcome(state) is not None, log)
