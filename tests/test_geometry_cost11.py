"""What an adversary can make the tenth pass's rules do (issue 30's eleventh pass, cost).

The tenth pass added three readings of a stroke as drawn to ArtBox: a stroke crossing
itself is read a second time with its knots cut out (`figures.without_knots`), a circle
whose outline has corners is asked for four tips a quarter apart (`quarters.four_tips`),
and a square for sides bowing evenly (`bows.even_bow`). Each must cost a bounded amount
whatever is drawn: the tests count what the rules are asked and what they read (never a
time; `make bench` has the times, `knot_worst_ms_max` and the others). The adversarial
strokes: polygons at the largest size the box accepts (4000 points) with knots at every
corner, small curls all along their sides (candidate loops everywhere) and their ends
crossing past the start.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from games.geometry import (
    Shape,
    artbox,
    check_artbox_drawing,
    check_broad_lines_sheet,
    clear_caches,
    figures,
    polyline,
    quarters,
    stroke_from_xy,
)
from games.geometry.figures import knots_cut, simplify_stroke, single_figure
from games.geometry.polyline import find_crossings
from games.geometry.tolerances import CROSSING_LIMIT, MAX_STROKE_POINTS, MAX_VERTICES
from games.sheet import Stroke
from tests.test_geometry_cost import random_walk
from tests.test_geometry_knots import knot
from tests.test_geometry_person import Pts, along, arc, finger, lozenge, wobbly_circle

XY = tuple[float, float]
ROLL = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
SQUARE: list[XY] = [(500.0, 250.0), (1000.0, 250.0), (1000.0, 750.0), (500.0, 750.0)]
TRIANGLE: list[XY] = [(500.0, 750.0), (800.0, 250.0), (1100.0, 750.0)]


def _curls_along(a: XY, b: XY, count: int, radii: tuple[float, float],
                 rng: random.Random) -> Pts:
    """The side from `a` to `b` with `count` small loops evenly along it (each crossing the
    way once, as a knot does, but where the way goes on as it came)."""
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    points: Pts = [a]
    for k in range(count):
        at = (a[0] + ux * length * (k + 0.5) / count, a[1] + uy * length * (k + 0.5) / count)
        points += along([points[-1], at])[1:]
        r, side = rng.uniform(*radii), rng.choice((-1, 1))
        cx, cy = at[0] - uy * r * side, at[1] + ux * r * side
        start = math.atan2(at[1] - cy, at[0] - cx)
        points += arc(cx, cy, r, start, start + side * 2 * math.pi, step=3.0)[1:]
    return points + along([points[-1], b])[1:]


def resampled(stroke: Stroke, count: int) -> Stroke:
    """The stroke with `count` points, interpolated evenly by index."""
    points = [(x, y) for x, y, _ in stroke.points]
    last = len(points) - 1
    out = []
    for k in range(count):
        at = k * last / (count - 1)
        i = int(at)
        j, t = min(i + 1, last), at - i
        out.append((points[i][0] + t * (points[j][0] - points[i][0]),
                    points[i][1] + t * (points[j][1] - points[i][1])))
    return stroke_from_xy(out)


def knotted_curly_polygon(rng: random.Random, corners: Sequence[XY] = SQUARE,
                          curls: int = 15, radii: tuple[float, float] = (7.0, 15.0),
                          loop: float = 0.12, tail: float = 0.1,
                          points: int = MAX_STROKE_POINTS) -> Stroke:
    """The knot rule's adversary: a polygon in one stroke with a knot of `loop` of the
    perimeter at every corner but the first, `curls` small loops along each side (every
    one a candidate knot the rule must look at), its ends running on past the start by
    `tail` of a side and crossing there, resampled to `points` (4000: the most the box
    reads)."""
    n = len(corners)
    perimeter = sum(math.dist(corners[k], corners[k - 1]) for k in range(n))
    start, second, last = corners[0], corners[1], corners[-1]
    drawn: Pts = [(start[0] + (start[0] - second[0]) * tail,
                   start[1] + (start[1] - second[1]) * tail)]
    drawn += along([drawn[0], start])[1:]
    for k in range(1, n + 1):
        corner = corners[k % n]
        drawn += _curls_along(drawn[-1], corner, curls, radii, rng)[1:]
        if k < n:
            before, after = corners[k - 1], corners[(k + 1) % n]
            into = ((corner[0] - before[0]) / math.dist(before, corner),
                    (corner[1] - before[1]) / math.dist(before, corner))
            out = ((after[0] - corner[0]) / math.dist(corner, after),
                   (after[1] - corner[1]) / math.dist(corner, after))
            drawn += knot(corner, into, out, loop * perimeter, rng)
    drawn += along([drawn[-1], (start[0] + (start[0] - last[0]) * tail,
                                start[1] + (start[1] - last[1]) * tail)])[1:]
    return resampled(finger(drawn, rng), points)


def knotted_adversaries(count: int = 12) -> list[Stroke]:
    """Squares and triangles of `knotted_curly_polygon`, seeded, with 0-16 curls a side of
    several sizes, knots of 6-12 % and tails of 3-15 %, at 4000 points or as drawn."""
    strokes = []
    for seed in range(count):
        rng = random.Random(seed)
        small = rng.uniform(4, 12)
        strokes.append(knotted_curly_polygon(
            rng, SQUARE if seed % 3 else TRIANGLE, curls=rng.randint(0, 16),
            radii=(small, small + rng.uniform(2, 10)), loop=rng.uniform(0.06, 0.12),
            tail=rng.uniform(0.03, 0.15), points=MAX_STROKE_POINTS if seed % 2 else 1000))
    return strokes


@pytest.fixture()
def asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[tuple[Any, ...]]]]:
    """The arguments each of the tenth pass's rules is called with, as ArtBox calls them,
    every cache cleared first."""
    calls: dict[str, list[tuple[Any, ...]]] = {"without_knots": [], "four_tips": [],
                                               "even_bow": []}

    def counted(name: str, rule: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[name].append(args)
            return rule(*args)
        return call

    for name in calls:
        monkeypatch.setattr(artbox, name, counted(name, getattr(artbox, name)))
    clear_caches()
    yield calls
    clear_caches()


def test_a_stroke_crossing_itself_more_than_a_square_has_corners_is_not_read_twice(
        asked: dict[str, list[tuple[Any, ...]]]) -> None:
    rng = random.Random(30)
    walks = [random_walk(count, rng) for count in (100, 400, 1000, 4000) for _ in range(4)]
    crossings = [single_figure(0, simplify_stroke(walk)).crossings for walk in walks]
    assert sum(c > 4 for c in crossings) >= 12  # the walks do cross themselves often
    for walk, crossed in zip(walks, crossings, strict=True):
        asked["without_knots"].clear()
        check_artbox_drawing([walk], ROLL)
        if crossed > 4:
            assert asked["without_knots"] == [], crossed
    # ... and a knotted square crossing itself 1-4 times is read again, once.
    knotted = knotted_adversaries()
    read_again = 0
    for stroke in knotted:
        asked["without_knots"].clear()
        check_artbox_drawing([stroke], ROLL)
        assert len(asked["without_knots"]) <= 1
        read_again += len(asked["without_knots"])
    assert read_again >= len(knotted) // 2


def test_a_picture_of_knotted_strokes_reads_each_again_once_not_at_every_check(
        asked: dict[str, list[tuple[Any, ...]]]) -> None:
    # 60 knotted strokes (the most a picture holds), the picture checked after each as the
    # game does, then once more cold as after a restart: the cut reading of each stroke is
    # made once per cold check, never for a stroke checked before, and never again of the
    # cut reading itself (no stroke is cut twice).
    shapes = knotted_adversaries(6)
    picture = [stroke_from_xy([(x * 0.25 + 160 * (k % 10) - 100, y * 0.25 + 160 * (k // 10) - 50)
                               for x, y, _ in shapes[k % 6].points]) for k in range(60)]
    clear_caches()
    check_artbox_drawing(picture[:1], ROLL)
    per_stroke = len(asked["without_knots"])
    assert per_stroke == 1  # the rule is asked of this stroke
    asked["without_knots"].clear()
    clear_caches()
    for upto in range(1, len(picture) + 1):
        check_artbox_drawing(picture[:upto], ROLL)
    once = len(asked["without_knots"])
    asked["without_knots"].clear()
    clear_caches()
    check_artbox_drawing(picture, ROLL)
    cold = len(asked["without_knots"])
    assert 30 <= once == cold <= len(picture)
    assert len({id(args[1]) for args in asked["without_knots"]}) == cold


def test_the_knot_search_reads_the_thinned_stroke_and_at_most_the_crossing_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[int] = []

    def counted_points_at(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float],
                          positions: Sequence[float]) -> tuple[list[float], list[float]]:
        measured.append(len(positions))
        return points_at(xs, ys, cum, positions)

    points_at = polyline.points_at
    monkeypatch.setattr(figures, "points_at", counted_points_at)
    for stroke in knotted_adversaries():
        fine = simplify_stroke(stroke).fine
        assert fine is not None and len(fine[0]) <= MAX_VERTICES
        found = find_crossings(*fine, closed=False) or []
        measured.clear()
        knots_cut(*fine)
        # One look at each crossing found (the way in and out of it), no more.
        assert len(measured) <= len(found) <= CROSSING_LIMIT
    # A tangle (more crossings than CROSSING_LIMIT) is not searched at all.
    rng = random.Random(7)
    tangles = [simplify_stroke(random_walk(4000, rng, step=120)).fine for _ in range(6)]
    tangled = [t for t in tangles if t is not None and find_crossings(*t, closed=False) is None]
    assert tangled
    for fine in tangled:
        measured.clear()
        assert knots_cut(*fine) is None
        assert measured == []


def test_four_tips_reads_a_fixed_number_of_places_however_long_the_circle(
        asked: dict[str, list[tuple[Any, ...]]], monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[tuple[int, int]] = []

    def counted_points_at(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float],
                          positions: Sequence[float]) -> tuple[list[float], list[float]]:
        read.append((len(xs), len(positions)))
        return points_at(xs, ys, cum, positions)

    points_at = polyline.points_at
    monkeypatch.setattr(quarters, "points_at", counted_points_at)
    for seed in range(40):
        for make in (wobbly_circle, lozenge):
            drawn = make(random.Random(seed))
            if len(drawn) == 1:
                check_artbox_drawing([resampled(drawn[0], MAX_STROKE_POINTS)], ROLL)
    assert len(asked["four_tips"]) >= 3  # the rule is asked of some of them
    assert len(read) == len(asked["four_tips"])
    for args in asked["four_tips"]:
        assert len(args[0]) <= MAX_VERTICES
    # The stroke once round (its seam closed: one point more) at SAMPLES places.
    assert all(points <= MAX_VERTICES + 1 and places == quarters.SAMPLES
               for points, places in read)


def test_even_bow_reads_the_thinned_stroke_of_a_single_square_only(
        asked: dict[str, list[tuple[Any, ...]]]) -> None:
    squares = [resampled(lozenge(random.Random(seed))[0], MAX_STROKE_POINTS)
               for seed in range(60)]
    for square in squares:
        check_artbox_drawing([square], ROLL)
    assert len(asked["even_bow"]) >= 3
    for xs, ys, corners, _ in asked["even_bow"]:
        assert len(xs) == len(ys) <= MAX_VERTICES and len(corners) == 4
    # A square in four strokes (a joined figure) is not asked: its strokes are lines.
    asked["even_bow"].clear()
    clear_caches()
    sides = [stroke_from_xy(along([a, b])) for a, b in zip(SQUARE, [*SQUARE[1:], SQUARE[0]],
                                                             strict=True)]
    assert check_artbox_drawing(sides, ROLL).found == (Shape.SQUARE,)
    assert asked["even_bow"] == []


def test_broad_lines_asks_none_of_the_tenth_pass_rules(
        asked: dict[str, list[tuple[Any, ...]]]) -> None:
    strokes = [*knotted_adversaries(6), *(wobbly_circle(random.Random(s))[0] for s in range(6)),
               *(lozenge(random.Random(s))[0] for s in range(6))]
    for stroke in strokes:
        check_broad_lines_sheet([stroke])
    check_broad_lines_sheet(strokes[:40])
    assert asked == {"without_knots": [], "four_tips": [], "even_bow": []}


def test_the_nearest_point_is_the_first_of_the_nearest_within_its_range() -> None:
    # What the key-function scans it replaced gave: the first index of the least
    # distance, counted from the start of the whole, among the points asked.
    xs = [0.0, 5.0, 9.0, 5.0, 0.0]
    ys = [0.0, 0.0, 1.0, 0.0, 0.0]
    assert polyline.nearest_point(xs, ys, 5.0, 0.0) == 1
    assert polyline.nearest_point(xs, ys, 5.0, 0.0, start=2) == 3
    assert polyline.nearest_point(xs, ys, 0.0, 0.0, stop=4) == 0
    assert polyline.nearest_point(xs, ys, 0.0, 0.0, start=1) == 4
    assert polyline.nearest_point(xs, ys, 8.0, 9.0, 1, 3) == 2
