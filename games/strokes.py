"""Checking strokes that arrive from phones, before a game keeps them.

A phone sends a stroke as `{"points": [[x, y, t], ...], "colour": "#rrggbb", "width": n}`
in sheet units (games.sheet). `stroke_from_data` turns that into a `Stroke` or raises
`IllegalAction` naming what is wrong, so a broken or hostile phone cannot put garbage into
a state that every other phone and the log will carry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from games.core import IllegalAction
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH, Point, Stroke, StrokeData

MAX_POINTS: Final = 4000
"""Points in one stroke: a slow finger on a 120 Hz panel for half a minute."""

MARGIN: Final = 50
"""A finger may overshoot the sheet's edge a little; the point is kept at the edge."""

MAX_TIME: Final = 3_600_000
"""A point's time, ms since the stroke began: an hour."""

WIDTHS: Final = (2, 60)
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


def stroke_from_data(data: Mapping[str, Any]) -> Stroke:
    """A checked Stroke from an action's data; raises IllegalAction with a reason."""
    raw = data.get("points")
    if not isinstance(raw, list) or not raw:
        raise IllegalAction("stroke_points", "A stroke needs a list of points.")
    if len(raw) > MAX_POINTS:
        raise IllegalAction(
            "stroke_long", "A stroke has at most {max} points.", max=MAX_POINTS
        )
    points = _checked_points(raw)
    colour = data.get("colour", "#202020")
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise IllegalAction("stroke_colour", "A colour is written #rrggbb.")
    width = data.get("width", 8)
    if type(width) is not int or not WIDTHS[0] <= width <= WIDTHS[1]:
        raise IllegalAction(
            "stroke_width", "A line is {low} to {high} units wide.", low=WIDTHS[0], high=WIDTHS[1]
        )
    return Stroke(points, colour.lower(), width)


def _checked_points(raw: list[Any]) -> tuple[Point, ...]:
    """The points of `raw` checked and kept on the sheet. Checked in bulk first (each step
    runs in C: a 4000-point stroke, live or replayed from the log, costs a fraction of a
    millisecond instead of several); anything the bulk check does not pass is checked
    point by point, which names the first point that is wrong, or clamps overshoots."""
    if set(map(type, raw)) == {list} and set(map(len, raw)) == {3}:
        xs, ys, ts = zip(*raw, strict=True)
        if (
            set(map(type, xs)) == set(map(type, ys)) == set(map(type, ts)) == {int}
            and min(xs) >= 0 and max(xs) <= SHEET_WIDTH
            and min(ys) >= 0 and max(ys) <= SHEET_HEIGHT
            and min(ts) >= 0 and max(ts) <= MAX_TIME
        ):
            return tuple(map(tuple, raw))
    points: list[Point] = []
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(type(v) is int for v in item)
        ):
            raise IllegalAction("stroke_point", "Each point is [x, y, t] in whole numbers.")
        x, y, t = item
        if not (-MARGIN <= x <= SHEET_WIDTH + MARGIN and -MARGIN <= y <= SHEET_HEIGHT + MARGIN):
            raise IllegalAction("stroke_outside", "A point lies outside the sheet.")
        if not 0 <= t <= MAX_TIME:
            raise IllegalAction("stroke_time", "A point's time is out of range.")
        points.append((min(max(x, 0), SHEET_WIDTH), min(max(y, 0), SHEET_HEIGHT), t))
    return tuple(points)


def stroke_to_data(stroke: Stroke) -> StrokeData:
    """The stroke as views and phones carry it (the inverse of stroke_from_data), made
    once per stroke (Stroke.data): read it, never change it."""
    return stroke.data
