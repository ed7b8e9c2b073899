"""What a day of finished matches may keep: per-match pictures go when the next replaces them.

Found by the spine benchmark (rss_8_phones_mb went from 87 to 104 MB when galleries came)
and a café day of all four games (tests/test_endurance.py): every finished match left a
1080p gallery code strip (1.3 MB) and result banner in the kiosk's part cache, the join
code was cached twice, the text cache held up to 1024 surfaces (~90 MB of big game text
at 1080p), a growing Broad Lines easel kept a full-size board per sheet, the lobby kept
64 matches of best drawings and the simulated panel's pins a list of every light change.
These tests count what is held, not how fast anything is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.fonts import Fonts
from appliance.session import HOST, Session
from tests.conftest import FakeClock

HEADLESS = DisplayChoice("dummy", False, True, "test")


@pytest.fixture
def kiosk() -> Iterator[Kiosk]:
    made = Kiosk(size=(1920, 1080), choice=HEADLESS)
    yield made
    pygame.event.clear()
    made.close()


def play_race(session: Session, clock: FakeClock) -> None:
    """One short Race to Twenty to its end (the toy game: no drawings)."""
    session.start(HOST, {"target": 5})
    while session.match is not None:
        state = session.match.state
        session.act(state.seats[state.turn], "add", {"n": 3})
        clock.advance(5)


def parts_named(kiosk: Kiosk, name: str) -> list[Any]:
    return [k for k in kiosk.renderer._parts if isinstance(k, tuple) and k[0][0] == name]


def part_bytes(kiosk: Kiosk) -> int:
    return sum(s.get_pitch() * s.get_height() for s in kiosk.renderer._parts.values())


def test_the_text_cache_is_bounded_by_bytes_as_well_as_entries() -> None:
    budget = 2 * 2**20
    fonts = Fonts(max_text_bytes=budget)
    for i in range(300):  # a day's big game texts: ~0.1 MB each at 96 px
        fonts.render(f"The rock is left of the house {i}", 96, (0, 0, 0), True)
    assert fonts.cached_text_bytes <= budget
    held = sum(s.get_pitch() * s.get_height() for s in fonts._texts.values())
    assert held == fonts.cached_text_bytes
    assert fonts.render("The rock is left of the house 299", 96, (0, 0, 0), True) is (
        fonts.render("The rock is left of the house 299", 96, (0, 0, 0), True)
    ), "what was just drawn is still cached"
