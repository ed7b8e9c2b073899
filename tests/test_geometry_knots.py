"""Polygons drawn fast in one stroke with a knot at a corner (issue 30's tenth pass).

A fast hand turning a corner often runs on past it and swings round in a small loop, the
way coming back through the corner (a flourish: the $1 study's person 10 draws
rectangles so), and at the close runs on past the crossing. A person calls the figure a
square, a rectangle or a triangle; the knot is no crossing of the figure. A big loop, a
loop in the middle of a side, a figure-eight, a pigtail stay what they were.

The strokes are made by seeded generators with a finger's tremor and wobble
(tests/test_geometry_person.py); the rule was chosen on the even seeds, and the tests
read the odd ones (held out). `make bench` prints the rates.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from games.geometry import artbox, clear_caches, recognise_shapes, stroke_from_xy
from games.geometry.figures import knots_cut
from games.geometry.polyline import find_crossings
from games.sheet import Stroke
from tests.test_geometry_person import (
    TRIANGLE,
    Pts,
    along,
    arc,
    finger,
    shapes_reading,
    sheet_reading,
)

XY = tuple[float, float]


def knot(corner: XY, into: XY, out: XY, length: float, rng: random.Random,
         inside: bool = False) -> Pts:
    """The points of a knot at `corner`, the pen coming in along `into` and going out
    along `out` (unit vectors): it runs on past the corner, swings round the other way
    (or, `inside`, round once more the same way) and comes back through the corner along
    `out`. About `length` round, from the corner back to it; stretched along the way in
    by 0.75-1.3 (a teardrop or a squat loop)."""
    cross = into[0] * out[1] - into[1] * out[0]
    turn = math.acos(max(-1.0, min(1.0, into[0] * out[0] + into[1] * out[1])))
    way = 1.0 if cross > 0 else -1.0
    swing = way * (2 * math.pi + turn) if inside else -way * (2 * math.pi - turn)
    # A unit circle's arc from heading `into`, turning by `swing`, in 24 chords.
    hx, hy = into
    x = y = 0.0
    unit: Pts = []
    step = swing / 24
    for _ in range(24):
        half_x = hx * math.cos(step / 2) - hy * math.sin(step / 2)
        half_y = hx * math.sin(step / 2) + hy * math.cos(step / 2)
        chord = 2 * abs(math.sin(step / 2))
        x += half_x * chord
        y += half_y * chord
        unit.append((x, y))
        hx, hy = (hx * math.cos(step) - hy * math.sin(step),
                  hx * math.sin(step) + hy * math.cos(step))
    # How far past the corner the swing starts so that it ends on the line out of it.
    across = out[0] * into[1] - out[1] * into[0]
    past = max(0.3, -(out[0] * y - out[1] * x) / across) if abs(across) > 1e-9 else 1.0
    back = math.hypot(past * into[0] + x, past * into[1] + y)
    r = length / (past + abs(swing) + back)
    run = past * r * rng.uniform(0.75, 1.3)
    qx, qy = corner[0] + into[0] * run, corner[1] + into[1] * run
    return [(qx + r * u, qy + r * v) for u, v in unit]


def _corners_of(shape: str, rng: random.Random) -> list[XY]:
    if shape == "triangle":
        while True:  # no corner under 25 degrees, no side under 250 units
            corners = [(rng.uniform(400, 1200), rng.uniform(150, 850)) for _ in range(3)]
            sides = [math.dist(corners[k], corners[k - 1]) for k in range(3)]
            if min(sides) > 250 and all(
                    (b * b + c * c - a * a) / (2 * b * c) < math.cos(math.radians(25))
                    for a, b, c in ((sides[k], sides[k - 1], sides[k - 2]) for k in range(3))):
                return corners
    high = rng.uniform(300, 600)
    if shape == "square":
        wide = high * rng.uniform(0.85, 1.15)
    else:
        wide = high * rng.choice((rng.uniform(0.5, 0.75), rng.uniform(1.33, 2.0)))
    turn = rng.uniform(-0.15, 0.15)
    c, s = math.cos(turn), math.sin(turn)
    return [(800 + (x - wide / 2) * c - (y - high / 2) * s,
             500 + (x - wide / 2) * s + (y - high / 2) * c)
            for x, y in ((0, 0), (wide, 0), (wide, high), (0, high))]


def knotted_polygon(rng: random.Random, shape: str = "square",
                    knots: tuple[int, int] = (1, 2), loop: tuple[float, float] = (0.02, 0.08),
                    tails: tuple[float, float] = (0.0, 0.15), inside: float = 0.25,
                    step: tuple[float, float] = (6.0, 20.0)) -> list[Stroke]:
    """A square (sides 0.85-1.15), a rectangle (0.5-0.75 or 1.33-2) turned by up to 9
    degrees, or a triangle (no corner under 25 degrees) in one stroke, either way round
    from any corner, fast: points every 6-20 units (`step`), a knot of `loop` of the
    perimeter (2-8 %) at 1-2 corners (`knots`; one in 4 round inside, `inside`), and both
    ends running on past the corner where it closes by `tails` of their sides (0-15 %),
    crossing there."""
    corners = _corners_of(shape, rng)
    if rng.random() < 0.5:
        corners.reverse()
    first = rng.randrange(len(corners))
    corners = corners[first:] + corners[:first]
    n = len(corners)
    perimeter = sum(math.dist(corners[k], corners[k - 1]) for k in range(n))
    knotted = rng.sample(range(1, n), min(n - 1, rng.randint(*knots)))
    head, tail = rng.uniform(*tails), rng.uniform(*tails)
    start, second, last = corners[0], corners[1], corners[-1]
    spacing = rng.uniform(*step)
    run: Pts = [(start[0] + (start[0] - second[0]) * head,
                 start[1] + (start[1] - second[1]) * head), start]
    points: Pts = []
    for k in range(1, n + 1):
        corner = corners[k % n]
        if k < n and k in knotted:
            before, after = corners[k - 1], corners[(k + 1) % n]
            into = ((corner[0] - before[0]) / math.dist(before, corner),
                    (corner[1] - before[1]) / math.dist(before, corner))
            out = ((after[0] - corner[0]) / math.dist(corner, after),
                   (after[1] - corner[1]) / math.dist(corner, after))
            loop_points = knot(corner, into, out, rng.uniform(*loop) * perimeter, rng,
                               rng.random() < inside)
            points += along([*run, corner], spacing)[:-1] + loop_points
            run = [loop_points[-1]]
        else:
            run.append(corner)
    run.append((start[0] + (start[0] - last[0]) * tail, start[1] + (start[1] - last[1]) * tail))
    points += along(run, spacing)
    return [finger(points, rng)]


def loop_in_a_side(rng: random.Random) -> list[Stroke]:
    """A square in one stroke with a small loop (15-45 units across) in the middle of a
    side: the way goes on as it came, no corner there."""
    square = [(500.0, 250.0), (1000.0, 250.0), (1000.0, 750.0), (500.0, 750.0), (500.0, 250.0)]
    looped = rng.randrange(4)
    points: Pts = [square[0]]
    for k in range(4):
        a, b = square[k], square[k + 1]
        if k == looped:
            f = rng.uniform(0.3, 0.7)
            m = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
            ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
            r, side = rng.uniform(15, 45), rng.choice((-1, 1))
            cx, cy = m[0] - uy * r * side, m[1] + ux * r * side
            a0 = math.atan2(m[1] - cy, m[0] - cx)
            points += along([points[-1], m])[1:] + arc(cx, cy, r, a0, a0 + side * 2 * math.pi)[1:]
            points += along([m, b])[1:]
        else:
            points += along([points[-1], b])[1:]
    return [finger(points, rng)]


def figure_eight(rng: random.Random) -> list[Stroke]:
    """An 8 lying on its side, in one stroke, 0.97-1.05 times round."""
    r = rng.uniform(120, 250)
    return [finger([(800 + r * math.sin(2 * math.pi * t / 200),
                     500 + 0.8 * r * math.sin(4 * math.pi * t / 200))
                    for t in range(int(200 * rng.uniform(0.97, 1.05)))], rng)]


def pigtail(rng: random.Random) -> list[Stroke]:
    """A line with a loop where it turns (the $1 pigtail's figure): the loop 40-90 units
    across, a third of the stroke or more."""
    r = rng.uniform(40, 90)
    lead = along([(400, 700), (800, 500)])
    cx, cy = 800 + r * 0.9, 500 - r * 0.3
    a0 = math.atan2(500 - cy, 800 - cx)
    loop = arc(cx, cy, r, a0, a0 - 2 * math.pi * rng.uniform(1.0, 1.15))
    return [finger(lead + loop[1:] + along([loop[-1], (1200, 700 + rng.uniform(-200, 100))])[1:],
                   rng)]


def knotted_angle(rng: random.Random) -> list[Stroke]:
    """Two straight lines at 30-120 degrees in one stroke, a knot where they meet."""
    p = (800.0, 700.0)
    spread = math.radians(rng.uniform(30, 120))
    l1, l2 = rng.uniform(300, 500), rng.uniform(300, 500)
    a = (p[0] - l1 * math.sin(spread / 2), p[1] - l1 * math.cos(spread / 2))
    b = (p[0] + l2 * math.sin(spread / 2), p[1] - l2 * math.cos(spread / 2))
    into = ((p[0] - a[0]) / l1, (p[1] - a[1]) / l1)
    out = ((b[0] - p[0]) / l2, (b[1] - p[1]) / l2)
    loop = knot(p, into, out, rng.uniform(0.02, 0.08) * (l1 + l2), rng, rng.random() < 0.25)
    return [finger(along([a, p])[:-1] + loop + along([loop[-1], b])[1:], rng)]


def triangle_with_long_tails(rng: random.Random) -> list[Stroke]:
    """A triangle closed by crossing at a corner, both ends running on by 20-50 % of a
    side (the $1 delete mark's figure; docs/geometry.md, Known limits)."""
    a, b, c = TRIANGLE[:3]
    h, t = rng.uniform(0.2, 0.5), rng.uniform(0.2, 0.5)
    return [finger(along([(a[0] + (a[0] - b[0]) * h, a[1] + (a[1] - b[1]) * h), a, b, c, a,
                          (a[0] + (a[0] - c[0]) * t, a[1] + (a[1] - c[1]) * t)]), rng)]


HELD_OUT = range(1, 400, 2)
"""The seeds the tests read (odd); the rule was chosen on the even ones."""


def _readings(make: Callable[[random.Random], list[Stroke]], seeds: range = HELD_OUT
              ) -> Counter[str]:
    return Counter(shapes_reading(make(random.Random(seed))) for seed in seeds)


@pytest.mark.parametrize(("shape", "wanted"), [
    ("square", "square"), ("rectangle", "square"), ("triangle", "triangle")])
def test_a_polygon_drawn_fast_with_a_knot_at_a_corner_is_its_shape(shape: str,
                                                                   wanted: str) -> None:
    # Held out: 200 of 200 each; before the rule 170-186 (a knot of 6 % of the stroke or
    # more counted as the figure crossing itself).
    readings = _readings(lambda rng: knotted_polygon(rng, shape))
    assert readings[wanted] >= 196, readings


def test_a_knot_is_cut_out_where_the_pen_crosses_its_way() -> None:
    rng = random.Random(7)
    square = [(500.0, 250.0), (1000.0, 250.0), (1000.0, 750.0), (500.0, 750.0)]
    loop = knot(square[2], (0.0, 1.0), (-1.0, 0.0), 160, rng)
    points = along([square[0], square[1], square[2]])[:-1] + loop + along(
        [loop[-1], square[3], square[0], (500.0, 200.0)])[1:]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert len(find_crossings(xs, ys, closed=False) or []) == 2  # the knot, the close
    cut = knots_cut(xs, ys)
    assert cut is not None
    assert len(cut[0]) < len(xs) - len(loop) + 3
    assert len(find_crossings(*cut, closed=False) or []) == 1  # only where it closes
    assert shapes_reading([stroke_from_xy(points)]) == "square"
    # The same loop in the middle of a side, a bigger one at the corner, and a loop
    # where the stroke ends are no knots.
    loop = knot((750.0, 250.0), (1.0, 0.0), (1.0, 0.0), 160, rng)
    side = along([square[0], (750.0, 250.0)])[:-1] + loop + along(
        [loop[-1], square[1], square[2], square[3], square[0], (500.0, 200.0)])[1:]
    assert len(find_crossings([x for x, _ in side], [y for _, y in side], closed=False)
               or []) == 2
    assert knots_cut([x for x, _ in side], [y for _, y in side]) is None
    big = knot(square[2], (0.0, 1.0), (-1.0, 0.0), 400, rng)
    points = along([square[0], square[1], square[2]])[:-1] + big + along(
        [big[-1], square[3], square[0], (500.0, 200.0)])[1:]
    assert knots_cut([x for x, _ in points], [y for _, y in points]) is None


@pytest.fixture
def without_the_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[list[Stroke]], str]]:
    """ArtBox's reading of strokes with the knot rule left out, to compare with."""
    def read(strokes: list[Stroke]) -> str:
        clear_caches()
        with monkeypatch.context() as patched:
            patched.setattr(artbox, "_knotted_polygon", lambda index, trace, verdicts: verdicts)
            reading = " ".join(v.shape.value if v.shape else v.reason_key
                               for v in recognise_shapes(strokes))
        clear_caches()
        return reading
    yield read
    clear_caches()


@pytest.mark.parametrize("make", [
    loop_in_a_side, figure_eight, pigtail, knotted_angle, triangle_with_long_tails,
    lambda rng: knotted_polygon(rng, rng.choice(("square", "rectangle", "triangle")),
                                loop=(0.3, 0.45)),
], ids=["loop in a side", "figure-eight", "pigtail", "knotted angle",
        "triangle with long tails", "big loops at corners"])
def test_loops_that_are_no_knots_read_as_they_did(
        make: Callable[[random.Random], list[Stroke]],
        without_the_rule: Callable[[list[Stroke]], str]) -> None:
    for seed in range(1, 80, 2):
        strokes = make(random.Random(seed))
        assert shapes_reading(strokes) == without_the_rule(strokes), seed


def test_broad_lines_counts_a_knotted_polygon_and_angle_by_their_lines() -> None:
    # Broad Lines is not asked about knots: a polygon is lines there, crossing itself or
    # not (refused: too many), and a knotted angle is 2 lines already.
    assert _sheet(lambda rng: knotted_polygon(rng, "square"))["sheet.too_many"] == 40
    assert _sheet(knotted_angle)["2 lines"] == 40


def _sheet(make: Callable[[random.Random], list[Stroke]]) -> Counter[str]:
    return Counter(sheet_reading(make(random.Random(seed))) for seed in range(1, 80, 2))
