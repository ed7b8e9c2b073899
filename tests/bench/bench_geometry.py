"""Drawing geometry's figures: the time to check a 200-point stroke (Broad Lines) and a
4-shape drawing (ArtBox), and the accuracy on the 5280 gestures of the $1 study.

Times are per call on this machine, after a warm-up, as p50 and p99 over many calls on
a mix of hand-shaken strokes; nothing here asserts a time (the targets live in
tests.bench). Run alone with `python -m tests.bench.bench_geometry`.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise

from games.geometry import (
    Shape,
    check_artbox_drawing,
    check_broad_lines_sheet,
    stroke_from_xy,
)
from games.sheet import Stroke
from tests.test_geometry_dollar1 import OUTCOMES, POSITIVES, confusion, load_gestures, rates

Pts = list[tuple[float, float]]


def _shaken(points: Pts, rng: random.Random) -> Stroke:
    """A stroke with the tremor (1.5 units) and the slow wobble (4 units) of a finger."""
    phase = rng.uniform(0, 6.3)
    return stroke_from_xy(
        (x + rng.gauss(0, 1.5) + 4 * math.sin(i / 9 + phase),
         y + rng.gauss(0, 1.5) + 4 * math.cos(i / 11 + phase))
        for i, (x, y) in enumerate(points)
    )


def _resampled(corners: Pts, count: int) -> Pts:
    """`count` points evenly spaced along the polyline through `corners`."""
    lengths = [math.dist(a, b) for a, b in pairwise(corners)]
    total = sum(lengths)
    out: Pts = []
    segment = 0
    walked = 0.0
    for k in range(count):
        s = total * k / (count - 1)
        while segment < len(lengths) - 1 and walked + lengths[segment] < s:
            walked += lengths[segment]
            segment += 1
        t = min(1.0, (s - walked) / lengths[segment]) if lengths[segment] else 0.0
        (ax, ay), (bx, by) = corners[segment], corners[segment + 1]
        out.append((ax + t * (bx - ax), ay + t * (by - ay)))
    return out


def _ellipse(cx: float, cy: float, rx: float, ry: float, count: int, turns: float = 1.04) -> Pts:
    return [(cx + rx * math.cos(2 * math.pi * turns * k / (count - 1)),
             cy + ry * math.sin(2 * math.pi * turns * k / (count - 1))) for k in range(count)]


def strokes_of_200_points(rng: random.Random) -> dict[str, Stroke]:
    """One of each kind of stroke a Broad Lines player draws, 200 points each."""
    n = 200
    wave = [(800 + 220 * math.sin(math.pi * 2 * k / (n - 1)), 150 + 700 * k / (n - 1))
            for k in range(n)]
    spiral = [(800 + (40 + 14 * a) * math.cos(a), 500 + (40 + 14 * a) * math.sin(a))
              for a in (k * 0.09 for k in range(n))]
    return {name: _shaken(points, rng) for name, points in (
        ("line", _resampled([(200, 300), (1400, 700)], n)),
        ("angle", _resampled([(300, 200), (700, 800), (1100, 200)], n)),
        ("ellipse", _ellipse(800, 500, 380, 260, n)),
        ("wave", wave),
        ("spiral, 3 turns", spiral),
        ("triangle", _resampled([(300, 700), (800, 150), (1300, 700), (300, 700)], n)),
    )}


def drawing_of_4_shapes(rng: random.Random) -> list[Stroke]:
    """An ArtBox drawing: a circle, a square, a triangle and a line, 120-160 points each."""
    return [
        _shaken(_ellipse(350, 300, 200, 170, 140), rng),
        _shaken(_resampled([(700, 150), (1050, 150), (1050, 500), (700, 500), (700, 150)],
                           160), rng),
        _shaken(_resampled([(1150, 500), (1350, 150), (1550, 500), (1150, 500)], 140), rng),
        _shaken(_resampled([(150, 800), (1450, 900)], 120), rng),
    ]


def _timed(calls: Sequence[Callable[[], object]], rounds: int) -> tuple[float, float]:
    """p50 and p99 in milliseconds of each call, over `rounds` rounds of all of them."""
    for call in calls:  # warm-up
        call()
    times: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for call in calls:
                began = time.perf_counter_ns()
                call()
                times.append((time.perf_counter_ns() - began) / 1e6)
    finally:
        gc.enable()
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def run() -> dict[str, float]:
    rng = random.Random(2007)
    strokes = strokes_of_200_points(rng)
    stroke_p50, stroke_p99 = _timed(
        [partial(check_broad_lines_sheet, [stroke]) for stroke in strokes.values()], 400)
    each = {name: _timed([partial(check_broad_lines_sheet, [stroke])], 200)
            for name, stroke in strokes.items()}
    roll = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
    drawings = [drawing_of_4_shapes(rng) for _ in range(5)]
    assert all(check_artbox_drawing(d, roll).legal for d in drawings), "the bench drawing"
    artbox_p50, artbox_p99 = _timed(
        [partial(check_artbox_drawing, drawing, roll) for drawing in drawings], 200)

    gestures = load_gestures()
    began = time.perf_counter()
    table = confusion(gestures)
    per_gesture = (time.perf_counter() - began) / len(gestures) * 1000
    accuracy = rates(table)

    print(f"   {'check':34} {'p50 ms':>8} {'p99 ms':>8}")
    print(f"   {'Broad Lines, one 200-point stroke':34} {stroke_p50:8.3f} {stroke_p99:8.3f}")
    for name, (p50, p99) in each.items():
        print(f"   {'   ' + name:34} {p50:8.3f} {p99:8.3f}")
    print(f"   {'ArtBox, a drawing of 4 shapes':34} {artbox_p50:8.3f} {artbox_p99:8.3f}")
    print(f"   {'ArtBox, one $1 gesture (mean)':34} {per_gesture:8.3f}")
    print()
    print(f"   $1 gestures read as ArtBox shapes ({len(gestures)} gestures, counts):")
    print(f"   {'class':18}" + "".join(f"{o:>10}" for o in OUTCOMES))
    for label in sorted(table, key=lambda name: (name not in POSITIVES, name)):
        print(f"   {label:18}" + "".join(f"{table[label][o]:10d}" for o in OUTCOMES))
    print()
    for key, value in accuracy.items():
        print(f"   {key:28} {value:6.2f} %")
    return {
        "stroke_check_ms_p50": stroke_p50,
        "stroke_check_ms_p99": stroke_p99,
        "artbox_check_ms_p50": artbox_p50,
        "artbox_check_ms_p99": artbox_p99,
        "dollar1_gesture_ms_mean": per_gesture,
        **accuracy,
    }


if __name__ == "__main__":
    print(run())
