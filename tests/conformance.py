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
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import (
    ENDED_EARLY,
    TABLE,
    Action,
    IllegalAction,
    Rules,
    SeatInfo,
    end_early,
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
    # The outcome of each early end tried (`ending`), with the step it was tried at.
    ended: list[tuple[int, Any]] = field(default_factory=list)
    outcome: Any = None  # the game's own, once finished


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


def check_end_early(
    rules: Rules[Any],
    state: Any,
    seats: Sequence[SeatInfo],
    seed: int,
    log: Sequence[Action],
    now: float,
) -> Any:
    """The host ends the game here (END_EARLY): it finishes with an outcome (winners
    only among the best scores, "ended early" in its summary), its views leak nothing,
    it survives a JSON round trip, nobody moves in it any more, a seat cannot end a game,
    and the log with the ending replays to it exactly. Returns the outcome."""
    try:
        rules.apply(state, Action(end_early(now).kind, seats[0].seat, {}, now))
    except IllegalAction as err:
        assert str(err), f"{rules.id}: a seat's END_EARLY refused without a reason"
    else:
        raise AssertionError(f"{rules.id}: a seat may not end the game early")
    ending = end_early(now)
    ended = rules.apply(state, ending)
    outcome = rules.outcome(ended)
    assert outcome is not None, f"{rules.id}: ended early, and still no outcome"
    assert outcome.summary == ENDED_EARLY, f"{rules.id}: {outcome.summary!r} is not ended early"
    best = max((v for _, v in outcome.scores), default=0.0)
    assert all(dict(outcome.scores).get(w) == best for w in outcome.winners), (
        f"{rules.id}: ended early, {outcome.winners} won without the best score {best}"
    )
    check_views(rules, ended, seats)
    check_round_trip(rules, ended)
    for who in [s.seat for s in seats] + [TABLE]:
        assert not rules.legal_actions(ended, who), f"{rules.id}: moves after an early end"
    try:
        rules.apply(ended, ending)
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{rules.id}: a game ended early was ended again")
    rebuilt = replay(rules, seats, {}, seed, [*log, ending])
    assert rebuilt == ended, f"{rules.id}: the early end did not replay to the same state"
    return outcome


def playout(
    rules: Rules[Any],
    seed: int,
    max_steps: int = 6000,
    every: int = 1,
    leaving: tuple[int, int | None] | None = None,
    ending: Collection[int] = (),
) -> Playout:
    """One random game. Views are checked every `every` steps and at every phase change.

    `leaving` = (step, back): at that step a random seat leaves (SEAT_LEFT); if `back` is
    not None a newcomer takes it that many steps later (SEAT_BACK). At each step of
    `ending` the game is also ended early on a branch (`check_end_early`); the playout
    goes on from the state before it."""
    rnd = random.Random(seed)
    count = rnd.randint(rules.min_players, min(rules.max_players, 8))
    seats = seats_for(count)
    game_seed = rnd.getrandbits(62) | (1 << 40)  # large, so it cannot hide in small numbers
    state = rules.setup(seats, {}, game_seed)
    now = 1_800_000_000.0
    log: list[Action] = []
    last_public = ""
    ended: list[tuple[int, Any]] = []
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
        if step in ending:
            ended.append((step, check_end_early(rules, state, seats, game_seed, log, now)))
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
    outcome = rules.outcome(state)
    return Playout(seed, len(log), outcome is not None, log, ended, outcome)
