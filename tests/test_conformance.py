"""Every registered game, and the tests' own toy game, passes the conformance suite."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest

from games import registry
from games.core import SEAT_LEFT, Rules
from tests import toygame
from tests.conformance import playout

GAMES: list[Rules[Any]] = [*registry.load_all(), toygame.RULES]


# Long games get fewer, sparser-checked playouts so the suite stays quick; every state is
# still checked at each change of phase. id -> (playouts, check views every n steps)
BUDGET: dict[str, tuple[int, int]] = {"duplik": (10, 4), "artbox": (9, 2), "broad-lines": (16, 2)}

# Fair votes wait for everyone entitled (or a countdown): random votes take longer, so
# Luck of the Draw's playouts are about twice as long as before; fewer of them. Both it
# and ArtBox keep every played round for the finish's art show, so each JSON round trip
# carries the whole game's drawings (half as dear again per playout): fewer again.
BUDGET["luck-of-the-draw"] = (10, 1)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_random_playouts(rules: Rules[Any]) -> None:
    playouts, every = BUDGET.get(rules.id, (40, 1))
    results = [playout(rules, seed, every=every) for seed in range(playouts)]
    finished = sum(r.finished for r in results)
    assert finished >= 0.75 * playouts, f"only {finished} of {playouts} playouts reached an end"


def test_suite_catches_a_leak() -> None:
    """The suite itself can fail: a game that shows everyone every word is caught."""

    class Leaky(toygame.RaceToTwenty):
        def view(self, state: Any, seat: Any) -> dict[str, Any]:
            return {**super().view(state, seat), "all": list(state.words)}

    with pytest.raises(AssertionError, match="only"):
        playout(Leaky(), 1)


def test_suite_catches_a_bad_replay() -> None:
    """The suite itself can fail: a game whose moves depend on more than its state."""

    class Forgetful(toygame.RaceToTwenty):
        calls = 0

        def apply(self, state: Any, action: Any) -> Any:
            self.calls += 1
            nxt = super().apply(state, action)
            # Reads a counter kept outside the state: a replay cannot rebuild its effect.
            return replace(nxt, total=nxt.total + self.calls % 2)

    with pytest.raises(AssertionError, match="replay"):
        playout(Forgetful(), 3)


LEAVING_GAMES = [r for r in GAMES if r.id != toygame.RULES.id]


@pytest.mark.parametrize("rules", LEAVING_GAMES, ids=lambda r: r.id)
def test_a_seat_leaving_at_any_moment_never_stalls_the_match(rules: Rules[Any]) -> None:
    """Property: at a random moment of a seeded random playout a random seat leaves
    (SEAT_LEFT); in half of them a newcomer takes it back later (SEAT_BACK). The match
    must still reach its end: never stuck, no exception, and the log replays exactly."""
    chooser = random.Random(f"leaving {rules.id}")
    for seed in range(3):
        step = chooser.randint(0, 700)
        back = chooser.choice([None, chooser.randint(1, 300)])
        result = playout(rules, 7000 + seed, max_steps=9000, every=100, leaving=(step, back))
        assert result.finished, f"{rules.id}: seed {seed}, left at {step}: no end"
        assert any(a.kind == SEAT_LEFT for a in result.actions) or result.steps < step


@pytest.mark.parametrize("rules", LEAVING_GAMES, ids=lambda r: r.id)
def test_ending_early_at_any_moment_keeps_what_was_played(rules: Rules[Any]) -> None:
    """Property: at random moments of seeded random playouts the host ends the game
    (END_EARLY, on a branch): it finishes with an outcome, leaks nothing, replays
    exactly (tests/conformance.py `check_end_early`), and keeps what was played: no
    seat's score at an early end is below its score at an earlier one, nor above the
    one the game reaches at its own end."""
    chooser = random.Random(f"ending {rules.id}")
    for seed in range(3):
        steps = sorted(chooser.sample(range(1, 900), 6))
        result = playout(rules, 9000 + seed, max_steps=9000, every=50, ending={0, *steps})
        assert result.ended, f"{rules.id}: seed {seed}: no early end was tried"
        scores = [dict(outcome.scores) for _, outcome in result.ended]
        if result.outcome is not None:
            scores.append(dict(result.outcome.scores))
        for before, after in itertools.pairwise(scores):
            assert all(after[s] >= v for s, v in before.items()), (
                f"{rules.id}: seed {seed}: a later end has lower scores {after} than {before}"
            )

