"""Drawing geometry's cheaper paths give the answers of the general ones: the measuring
layer (games.geometry.polyline) on the few vertices of a real stroke, and a stroke's
figure read once for whichever place in a drawing it is first met at."""

from __future__ import annotations

import math
import random

from games.geometry import figures
from games.geometry.figures import simplify_stroke, single_figure, stroke_from_xy
from games.geometry.polyline import _ALL_PAIRS, find_crossings
from games.sheet import Stroke


def _crossings_by_definition(
    xs: list[float], ys: list[float], closed: bool
) -> list[tuple[int, int, float, float]]:
    """Every pair of segments that are not neighbours, compared directly."""
    segments = len(xs) - 1
    found = []
    for i in range(segments):
        for j in range(i + 2, segments):
            if closed and i == 0 and j == segments - 1:
                continue
            ax, ay, ux, uy = xs[i], ys[i], xs[i + 1] - xs[i], ys[i + 1] - ys[i]
            cx, cy, vx, vy = xs[j], ys[j], xs[j + 1] - xs[j], ys[j + 1] - ys[j]
            d1 = ux * (cy - ay) - uy * (cx - ax)
            d2 = ux * (cy + vy - ay) - uy * (cx + vx - ax)
            d3 = vx * (ay - cy) - vy * (ax - cx)
            d4 = vx * (ay + uy - cy) - vy * (ax + ux - cx)
            if ((d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)
                    and d1 != d2 and d3 != d4):
                found.append((i, j, d3 / (d3 - d4), d1 / (d1 - d2)))
    return sorted(found)


def _walk(rng: random.Random, count: int) -> tuple[list[float], list[float]]:
    x = y = 0.0
    xs, ys = [x], [y]
    for _ in range(count):
        x += rng.uniform(-40, 40)
        y += rng.uniform(-40, 40)
        xs.append(x)
        ys.append(y)
    return xs, ys


def _spiral(rng: random.Random, count: int) -> tuple[list[float], list[float]]:
    turns = rng.uniform(1.1, 2.5)
    xs = [math.cos(turns * 2 * math.pi * k / count) * (100 + k) for k in range(count + 1)]
    ys = [math.sin(turns * 2 * math.pi * k / count) * (100 + k) for k in range(count + 1)]
    return xs, ys


def test_crossings_are_the_same_below_and_above_the_all_pairs_size() -> None:
    rng = random.Random(15)
    seen = {"all pairs": 0, "sweep": 0}
    for count in (3, 4, 7, 12, _ALL_PAIRS - 1, _ALL_PAIRS, _ALL_PAIRS + 1, 45, 70):
        for make in (_walk, _spiral):
            for closed in (False, True):
                xs, ys = make(rng, count)
                if closed:
                    xs[-1], ys[-1] = xs[0], ys[0]
                found = find_crossings(xs, ys, closed)
                expected = _crossings_by_definition(xs, ys, closed)
                if len(expected) > 48 or found is None:
                    continue  # a tangle: refused, whichever way it is compared
                assert found == expected, (count, make.__name__, closed)
                if found:
                    seen["all pairs" if count <= _ALL_PAIRS else "sweep"] += 1
    assert all(seen.values()), seen  # both ways met crossings to find


def _ring(cx: float, cy: float) -> Stroke:
    return stroke_from_xy([(cx + 90 * math.cos(k / 7), cy + 70 * math.sin(k / 7))
                           for k in range(46)])


def test_a_stroke_read_first_at_another_place_is_the_same_figure() -> None:
    stroke = _ring(400, 300)
    figures.clear_caches()
    at_zero = single_figure(0, simplify_stroke(stroke))
    figures.clear_caches()
    at_two = single_figure(2, simplify_stroke(stroke))
    again_at_zero = single_figure(0, simplify_stroke(stroke))
    assert at_two.strokes == (2,) and again_at_zero.strokes == (0,)
    assert again_at_zero == at_zero and again_at_zero.to_json() == at_zero.to_json()
    assert at_two.key == again_at_zero.key == simplify_stroke(stroke).key != b""
    assert at_two.closed and at_two.curves == 1  # read in full, not a dot or a refusal


def test_the_figures_of_single_strokes_stay_bounded() -> None:
    figures.clear_caches()
    for k in range(figures._SINGLE_FIGURES + 20):
        single_figure(k % 4, simplify_stroke(_ring(200 + k, 300)))
    assert len(figures._single_figures) == figures._SINGLE_FIGURES
    figures.clear_caches()
    assert not figures._single_figures
