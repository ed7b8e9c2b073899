"""Real one-stroke shapes cut into two strokes: still that one shape (issue 15).

A person who lifts the pen once while drawing a circle, a square or a triangle has drawn
that shape; the $1 study's gestures (tests/data/strokes/dollar1, see its SOURCE.md) are
cut into a first stroke (the first part of the points) and a second one (the rest,
starting where the first stopped, 250 ms later), at the middle and at 30 %. The whole
drawing is read as the players see it: one shape, strokes drawn over it adding nothing.
Measured on the held-out people (even-numbered); the joining rules were tuned on the
odd-numbered ones. And pieces that make no one shape together stay apart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import pytest

from games.geometry import Shape, recognise_shapes, strokes_from_xy
from games.sheet import Stroke
from tests.test_geometry_dollar1 import Gesture, load_gestures
from tests.test_geometry_quickdraw import outcome

WANTED: dict[str, str] = {"circle": "circle", "rectangle": "square", "triangle": "triangle"}

CUTS: tuple[float, ...] = (0.5, 0.3)

FLOORS: dict[str, float] = {"circle": 95.0, "rectangle": 92.0, "triangle": 97.0}
"""Held-out floors, per cent of 150 gestures a class at each cut, lowered by a margin of
3-5 drawings from what was measured when the rules were written (circle 146-147,
rectangle 143, triangle 150 of 150; before the seventh session: circles 81 % at the
middle, 44 % at 30 %; the issue measured 53 and 21 % on its own drawings)."""


def cut_in_two(stroke: Stroke, at: float) -> tuple[Stroke, Stroke]:
    """The stroke as two: its first `at` of the points, and the rest from the last of
    those on (the pen lifted and put down again where it was, 250 ms later)."""
    first, rest = cut_at(stroke, (at,))
    return first, rest


def cut_at(stroke: Stroke, ats: Sequence[float]) -> tuple[Stroke, ...]:
    """The stroke cut at each share of its points in `ats` (rising), each piece from
    where the one before stopped, 250 ms after it."""
    points = stroke.points
    bounds = [0, *(max(2, min(len(points) - 2, round(len(points) * at))) for at in ats),
              len(points)]
    pieces: list[Stroke] = []
    for n, (start, stop) in enumerate(pairwise(bounds)):
        piece = points[max(0, start - 1):stop]
        if n:
            later = pieces[-1].points[-1][2] + 250
            piece = tuple((x, y, later + 8 * i) for i, (x, y, _) in enumerate(piece))
        pieces.append(Stroke(tuple(piece)))
    return tuple(pieces)


def cut_rates(gestures: Sequence[Gesture], at: float) -> dict[str, float]:
    """Per cent of each shape class read as its one shape when cut at `at`."""
    out = {}
    for label, want in WANTED.items():
        mine = [g for g in gestures if g.label == label]
        read = sum(outcome(recognise_shapes(cut_in_two(g.stroke, at))) == want for g in mine)
        out[f"dollar1_{label}_cut_{round(at * 100)}_pct"] = 100 * read / len(mine)
    return out


@pytest.fixture(scope="module")
def held_out() -> list[Gesture]:
    return [g for g in load_gestures() if g.held_out and g.label in WANTED]


@pytest.mark.parametrize("at", CUTS, ids=["middle", "30 %"])
def test_a_shape_drawn_in_two_goes_is_that_one_shape(held_out: list[Gesture], at: float) -> None:
    measured = cut_rates(held_out, at)
    for label, floor in FLOORS.items():
        assert measured[f"dollar1_{label}_cut_{round(at * 100)}_pct"] >= floor, measured


PIECES: dict[tuple[float, ...], dict[str, float]] = {
    (0.33, 0.66): {"circle": 92.0, "rectangle": 91.0, "triangle": 95.0},
    (0.25, 0.5, 0.75): {"circle": 89.0, "rectangle": 92.0, "triangle": 90.0},
}
"""Held-out floors for the same shapes cut into 3 and 4 pieces, lowered by a margin of 4-6
drawings of 150 from what was measured (circle 96.0 / 92.7 %, rectangle 94.7 / 96.0 %,
triangle 98.7 / 94.0 %; before: circles 54 / 39 %, triangles in 4 pieces 83 %)."""


@pytest.mark.parametrize("ats", list(PIECES), ids=["3 pieces", "4 pieces"])
def test_a_shape_drawn_in_three_or_four_goes_is_that_one_shape(
    held_out: list[Gesture], ats: tuple[float, ...]
) -> None:
    for label, floor in PIECES[ats].items():
        mine = [g for g in held_out if g.label == label]
        read = sum(outcome(recognise_shapes(cut_at(g.stroke, ats))) == WANTED[label]
                   for g in mine)
        assert 100 * read / len(mine) >= floor, (label, read, len(mine))


def arc(cx: float, cy: float, r: float, start: float, stop: float, count: int = 24
        ) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(start + (stop - start) * k / count),
             cy + r * math.sin(start + (stop - start) * k / count)) for k in range(count + 1)]


def test_a_circle_closed_by_itself_with_its_start_drawn_again_is_one_circle() -> None:
    # The longer piece closes across its gap by itself; the shorter one is drawn over
    # its seam and on: one circle, not a circle and an open curve.
    long_piece = arc(800, 500, 250, 0.3, 2 * math.pi - 0.3)
    over_the_seam = arc(800, 500, 250, -0.3, 0.6, 8)
    verdicts = recognise_shapes(strokes_from_xy([over_the_seam, long_piece]))
    assert outcome(verdicts) == "circle", [(v.reason_key, v.strokes) for v in verdicts]
    # Cut with a gap at the top, the two pieces still close like one stroke's circle.
    left = arc(800, 500, 250, -math.pi / 2 + 0.15, math.pi / 2)
    right = arc(800, 500, 250, math.pi / 2, 3 * math.pi / 2 - 0.15)
    assert [v.shape for v in recognise_shapes(strokes_from_xy([left, right]))] == [Shape.CIRCLE]


def test_pieces_that_make_no_one_shape_stay_apart() -> None:
    circle = arc(800, 500, 200, 0, 2 * math.pi)
    # an arc off to the side, its ends near nothing of the circle
    beside = arc(1300, 500, 120, -1.0, 1.0)
    assert [v.shape for v in recognise_shapes(strokes_from_xy([circle, beside]))] == [
        Shape.CIRCLE, None]
    # a line beside a circle, and one from its seam (a balloon's string, longer than a
    # one-stroke loop's leftover may be)
    line = [(1050, 300), (1050, 700)]
    string = [(1000, 500), (1000, 950)]
    for other in (line, string):
        assert sorted(str(v.shape) for v in recognise_shapes(strokes_from_xy([circle, other]))
                      ) == sorted([str(Shape.CIRCLE), str(Shape.LINE)])
    # two squares side by side, and a square beside a circle, touching corner to seam
    square = [(300, 300), (600, 300), (600, 600), (300, 600), (300, 300)]
    other_square = [(620, 300), (920, 300), (920, 600), (620, 600), (620, 300)]
    assert [v.shape for v in recognise_shapes(strokes_from_xy([square, other_square]))] == [
        Shape.SQUARE, Shape.SQUARE]
    near_seam = arc(800, 450, 150, math.pi, 3 * math.pi)
    assert [v.shape for v in recognise_shapes(strokes_from_xy([square, near_seam]))] == [
        Shape.SQUARE, Shape.CIRCLE]
