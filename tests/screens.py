"""Helpers for testing a game's kiosk screen: a display, the screen registered, a render.

Shared by tests/test_<game>_screens.py. A game's screen is put into GAME_SCREENS for each
test (another test may have swapped it out) and restored afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pygame

from appliance.kiosk import GAME_SCREENS, KioskRenderer


@contextmanager
def screen_registered(game: str, screen: Callable[..., None]) -> Iterator[None]:
    before = GAME_SCREENS.get(game)
    GAME_SCREENS[game] = screen
    try:
        yield
    finally:
        if before is None:
            GAME_SCREENS.pop(game, None)
        else:
            GAME_SCREENS[game] = before


@contextmanager
def open_display() -> Iterator[pygame.Surface]:
    pygame.display.init()
    try:
        yield pygame.display.set_mode((1920, 1080))
    finally:
        pygame.display.quit()


def render(
    game: str,
    size: tuple[int, int],
    view: dict[str, Any],
    renderer: KioskRenderer | None = None,
    now: float = 100.0,
) -> tuple[pygame.Surface, KioskRenderer]:
    """One frame of `view`; fails if the game's screen raised (the generic frame took over)."""
    r = renderer or KioskRenderer()
    surface = pygame.Surface(size)
    r.render(surface, view, now)
    assert game not in r._broken_screens, f"{game}'s screen raised"
    return surface, r


def region_colours(
    surface: pygame.Surface, rect: pygame.Rect, step: int = 7
) -> set[tuple[int, ...]]:
    """The colours sampled on a grid in `rect`: a blank region has one."""
    return {
        tuple(surface.get_at((x, y))[:3])
        for x in range(rect.left, rect.right, step)
        for y in range(rect.top, rect.bottom, step)
    }
