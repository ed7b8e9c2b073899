"""The kiosk keeps one game's pictures, not every game's: found by the café day.

Each game's kiosk screen keeps its painted sheets in its own byte-bounded caches, one
set per renderer. Over a day of all four games in turn they all filled up at once (about
50 MB more after the first round of games, tests/test_endurance.py); only one game is on
screen at a time, so taking one game's caches lets the others go.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from appliance.kiosk.kit import PerRenderer
from appliance.kiosk.render import KioskRenderer


@dataclass
class Box:
    items: list[int] = field(default_factory=list)


def test_using_one_games_caches_lets_the_others_go() -> None:
    first, second = PerRenderer(Box), PerRenderer(Box)
    r, other_renderer = KioskRenderer(), KioskRenderer()
    first.of(r).items.append(1)
    first.of(other_renderer).items.append(7)
    assert first.of(r).items == [1], "the same game keeps its caches"
    second.of(r).items.append(2)
    assert first.of(r).items == [], "the first game's caches went when the second came"
    assert second.of(r).items == [], "and the second's when the first came back"
    assert first.of(other_renderer).items == [7], "another renderer's caches are its own"


def test_caches_still_go_with_their_renderer() -> None:
    caches = PerRenderer(Box)
    r = KioskRenderer()
    caches.of(r)
    del r
    gc.collect()
    assert len(caches._of) == 0
