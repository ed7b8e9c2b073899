"""Drawings as data: strokes of integer points in one resolution-independent sheet space.

Every game, every phone (portrait or landscape), the touch panel and the kiosk at any
resolution map to and from this space, so a sheet drawn on a phone lands on the easel
exactly where it was drawn. The sheet is landscape, SHEET_WIDTH x SHEET_HEIGHT units
(16:10); x grows to the right, y grows downwards, as on every screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

SHEET_WIDTH: Final = 1600
SHEET_HEIGHT: Final = 1000

Point = tuple[int, int, int]
"""x, y in sheet units and t in milliseconds since the stroke began."""


@dataclass(frozen=True)
class Stroke:
    """One touch from finger-down to finger-up: its points, colour and width (sheet units)."""

    points: tuple[Point, ...]
    colour: str = "#202020"
    width: int = 8

    @cached_property
    def data(self) -> StrokeData:
        """The stroke as views and phones carry it, made once per stroke and shared by
        every view of every state that holds it (views are only read): a new stroke costs
        the same however many the picture has. The points are the stroke's own tuples
        (JSON writes them as the arrays the protocol names), so nothing is copied."""
        return StrokeData(points=self.points, colour=self.colour, width=self.width)


class StrokeData(dict[str, Any]):
    """A stroke as data: `{"points": ((x, y, t), ...), "colour": "#rrggbb", "width": n}`.

    Its own type so that whoever writes views to the wire (appliance/door/server.py) knows
    a stroke when it meets one and encodes each once, not once per view. Read-only."""


@dataclass(frozen=True)
class Drawing:
    strokes: tuple[Stroke, ...] = ()
