"""Verdicts a person would agree with, on the cases of issue 15: polygons are no circles,
strokes whose ends meet are one shape, a slightly wiggly line is straight, a wave, an S
and a heart change their bend, a smooth narrow U is one curve, a rhombus is no square,
and ArtBox reads a drawing against the roll.

The strokes are made by seeded generators with the tremor and wobble of a finger (and
random overshoots, gaps and cuts), 20 of each case; `make bench` prints the same rates.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import pairwise

import pytest

from games.geometry import (
    Shape,
    check_artbox_drawing,
    check_broad_lines_sheet,
    recognise_shapes,
    stroke_from_xy,
)
from games.geometry.figures import sparse_round
from games.sheet import Stroke
from tests.test_geometry import along as hand_made_along

Pts = list[tuple[float, float]]


def along(corners: Sequence[tuple[float, float]], step: float = 8.0) -> Pts:
    """Points every `step` units along the polyline through `corners` (a person's hand
    samples a little coarser here than the hand-made strokes of test_geometry)."""
    return hand_made_along(corners, step)


def arc(cx: float, cy: float, r: float, a0: float, a1: float, step: float = 6.0) -> Pts:
    n = max(4, round(abs(a1 - a0) * r / step))
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / n), cy + r * math.sin(a0 + (a1 - a0) * i / n))
            for i in range(n + 1)]


def finger(points: Pts, rng: random.Random) -> Stroke:
    """The tremor (1.5 units) and slow wobble (4 units) of a finger on glass."""
    phase = rng.uniform(0, 6.3)
    return stroke_from_xy(
        (x + rng.gauss(0, 1.5) + 4 * math.sin(i / 9 + phase),
         y + rng.gauss(0, 1.5) + 4 * math.cos(i / 11 + phase))
        for i, (x, y) in enumerate(points)
    )


def polygon(sides: int, rng: random.Random, r: float = 300) -> Pts:
    turn = rng.uniform(0, 2 * math.pi)
    return along([(800 + r * math.cos(turn + 2 * math.pi * k / sides),
                   500 + r * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides + 1)])


def fast_polygon(sides: int, rng: random.Random, share: tuple[float, float] = (0.1, 0.25),
                 r: float = 300) -> Pts:
    """A regular polygon drawn fast: each corner drawn round from a share of its sides
    away (10-25 %), so that it turns softly (30-40 degrees within the corner window at
    some corners) between straight sides, as a hand drawing an octagon against the clock
    does."""
    turn = rng.uniform(0, 2 * math.pi)
    corners = [(800 + r * math.cos(turn + 2 * math.pi * k / sides),
                500 + r * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides)]
    ring: Pts = []
    for k in range(sides):
        (ax, ay), (px, py), (bx, by) = corners[k - 1], corners[k], corners[(k + 1) % sides]
        q = rng.uniform(*share)
        s0, s1 = (px + (ax - px) * q, py + (ay - py) * q), (px + (bx - px) * q, py + (by - py) * q)
        ring += [((1 - t) ** 2 * s0[0] + 2 * (1 - t) * t * px + t * t * s1[0],
                  (1 - t) ** 2 * s0[1] + 2 * (1 - t) * t * py + t * t * s1[1])
                 for t in (i / 10 for i in range(11))]
    return along([*ring, ring[0]])


def oval(rng: random.Random, ratios: tuple[float, float] = (1.2, 3.5)) -> list[Stroke]:
    """An oval 1.2-3.5 times as long as wide (`ratios`), 240-700 units wide, at any angle,
    drawn once round from anywhere with a finger (its flanks are long, nearly straight
    runs)."""
    ratio, r, turn, start = (rng.uniform(*ratios), rng.uniform(120, 350),
                             rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi))
    c, s = math.cos(turn), math.sin(turn)
    ring = [(r * ratio * math.cos(start + 2 * math.pi * i / 120),
             r * math.sin(start + 2 * math.pi * i / 120)) for i in range(123)]
    return [finger([(800 + x * c - y * s, 500 + x * s + y * c) for x, y in ring], rng)]


def wide_polygon(sides: int, rng: random.Random, r: float = 240) -> Pts:
    """A regular polygon drawn 1.6-2 times as wide as high, a corner at each end: the
    end corners turn sharply (about 100 degrees for a hexagon), the others by 40 or less,
    as round-drawn Quick, Draw! hexagons and octagons do."""
    wide, turn = rng.uniform(1.6, 2.0), rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    ring = [(r * wide * math.cos(2 * math.pi * k / sides), r * math.sin(2 * math.pi * k / sides))
            for k in range(sides + 1)]
    return along([(800 + x * c - y * s, 500 + x * s + y * c) for x, y in ring])


def letter_d(rng: random.Random) -> list[Stroke]:
    """A "D" in one stroke: a straight side and a half ellipse round to it."""
    r, deep = rng.uniform(200, 300), rng.uniform(0.7, 1.2)
    side = along([(600, 500 + r), (600, 500 - r)])
    bow = [(600 + deep * r * math.sin(math.pi * k / 60), 500 - r * math.cos(math.pi * k / 60))
           for k in range(1, 61)]
    return [finger(side + bow, rng)]


def open_polygon(sides: int, rng: random.Random, r: float = 300) -> Pts:
    """A regular polygon drawn one side short of closing (Quick, Draw! players often
    stop there): its corners turn by 360/sides degrees each, 45 for an octagon."""
    turn = rng.uniform(0, 2 * math.pi)
    return along([(800 + r * math.cos(turn + 2 * math.pi * k / sides),
                   500 + r * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides)])


def open_polygon_rounded(sides: int, rng: random.Random, r: float = 300) -> list[Stroke]:
    """A polygon left open two sides short (a gap too wide to close), its last corner
    drawn round from 30-45 % of its sides away (a hand running on round the last corner,
    as Quick, Draw! octagons show): straight sides on average, though its last stretch,
    round that corner, is a curve to a lone stroke."""
    turn = rng.uniform(0, 2 * math.pi)
    ring = [(800 + r * math.cos(turn + 2 * math.pi * k / sides),
             500 + r * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides - 1)]
    (ax, ay), (px, py), (bx, by) = ring[-3], ring[-2], ring[-1]
    share = rng.uniform(0.3, 0.45)
    s0 = (px + (ax - px) * share, py + (ay - py) * share)
    s1 = (px + (bx - px) * share, py + (by - py) * share)
    rounded = [((1 - t) ** 2 * s0[0] + 2 * (1 - t) * t * px + t * t * s1[0],
                (1 - t) ** 2 * s0[1] + 2 * (1 - t) * t * py + t * t * s1[1])
               for t in (i / 10 for i in range(11))]
    return [finger(along([*ring[:-2], *rounded, ring[-1]]), rng)]


def lemon(rng: random.Random) -> list[Stroke]:
    """Two circular arcs meeting at two points that turn by 100-130 degrees: an eye, a
    lemon; close to an ellipse, but a circle has no points."""
    half, radius, turn = math.radians(rng.uniform(25, 40)), 350, rng.uniform(0, 2 * math.pi)
    ring = [(side * radius * math.sin(a), side * (radius * math.cos(a) - radius * math.cos(half)))
            for side in (1, -1) for a in (-half + 2 * half * k / 60 for k in range(60))]
    ring.append(ring[0])
    c, s = math.cos(turn), math.sin(turn)
    return [finger([(800 + x * c - y * s, 500 + x * s + y * c) for x, y in ring], rng)]


def in_strokes(corners: Sequence[tuple[float, float]], rng: random.Random,
               over: float = 60, gap: float = 0) -> list[Stroke]:
    """One straight stroke per side, each end overshooting its corner or stopping short
    of it by up to `over` units, and moved by up to `gap`."""
    out = []
    for a, b in pairwise(corners):
        d = math.dist(a, b)
        ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
        o1, o2 = rng.uniform(-over, over), rng.uniform(-over, over)
        start = (a[0] - ux * o1 + rng.uniform(-gap, gap), a[1] - uy * o1 + rng.uniform(-gap, gap))
        end = (b[0] + ux * o2, b[1] + uy * o2)
        out.append(finger(along([start, end]), rng))
    return out


def crossing_sides(corners: Sequence[tuple[float, float]], rng: random.Random,
                   past: tuple[float, float] = (0.12, 0.25)) -> list[Stroke]:
    """One straight stroke per side, each end running on past its corner by a share of
    the side (12-25 %): the sides cross at the corners, as a hand drawing a side a stroke
    does."""
    out = []
    for a, b in pairwise(corners):
        ux, uy = b[0] - a[0], b[1] - a[1]
        o1, o2 = rng.uniform(*past), rng.uniform(*past)
        out.append(finger(along([(a[0] - ux * o1, a[1] - uy * o1),
                                 (b[0] + ux * o2, b[1] + uy * o2)]), rng))
    return out


SQUARE = [(500.0, 250.0), (1000.0, 250.0), (1000.0, 750.0), (500.0, 750.0), (500.0, 250.0)]
TRIANGLE = [(500.0, 750.0), (800.0, 250.0), (1100.0, 750.0), (500.0, 750.0)]


def circle_cut(rng: random.Random, at: float) -> list[Stroke]:
    """A circle drawn in two strokes, cut at `at` of the way round, the second running a
    little past the start of the first (or stopping a little short of it)."""
    turns = rng.uniform(0.97, 1.08)
    points = [(800 + 300 * math.cos(2 * math.pi * turns * k / 219),
               500 + 250 * math.sin(2 * math.pi * turns * k / 219)) for k in range(220)]
    cut = int(at * 200)
    overlap = rng.randint(-6, 10)
    first = points[: cut + max(0, overlap)]
    return [finger(first, rng), finger(points[cut + min(0, overlap) + 6 :], rng)]


def _round_path(rng: random.Random, radius: float, lumps: Sequence[tuple[int, float, float]],
                points: int) -> Pts:
    """Once round a circle of `radius` (and a little more or less, 0.93-1.1 turns), from
    anywhere, either way, its radius lumpy by `lumps` (lobes, amplitude, phase), 1-1.2
    times as wide as high."""
    start, way = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1))
    sweep, wide = 2 * math.pi * rng.uniform(0.93, 1.1), rng.uniform(1.0, 1.2)
    path = []
    for i in range(points + 1):
        a = start + way * sweep * i / points
        r = radius * (1 + sum(amp * math.sin(k * a + phase) for k, amp, phase in lumps))
        path.append((r * wide * math.cos(a), r * math.sin(a)))
    return path


def mouse_circle(rng: random.Random) -> list[Stroke]:
    """A circle drawn with a mouse: 12-60 screen pixels across its radius, slightly lumpy
    (2-6 lobes of up to 5 %), on the pixel grid: every pixel it passes (stair steps of one
    pixel), or every 2nd or 3rd when moved faster; 4-10 sheet units a pixel."""
    lumps = [(k, rng.uniform(0, 0.05) / (k - 1), rng.uniform(0, 6.3)) for k in range(2, 7)]
    path = _round_path(rng, rng.uniform(12, 60), lumps, rng.randint(40, 160))
    grid: list[tuple[int, int]] = []
    for (x0, y0), (x1, y1) in pairwise(path):
        steps = max(abs(round(x1) - round(x0)), abs(round(y1) - round(y0)), 1)
        for j in range(steps):
            pixel = (round(x0 + (x1 - x0) * j / steps), round(y0 + (y1 - y0) * j / steps))
            if not grid or grid[-1] != pixel:
                grid.append(pixel)
    scale, keep = rng.uniform(4, 10), rng.choice((1, 1, 2, 3))
    return [stroke_from_xy((800 + x * scale, 500 + y * scale) for x, y in
                           [*grid[::keep], grid[-1]])]


def browser_circle(rng: random.Random, seconds: tuple[float, float] = (0.12, 0.2)
                   ) -> list[Stroke]:
    """A circle drawn fast with a mouse in a browser, as its page receives it: a pointer
    event every 8-17 ms (60-125 Hz, each a little late or early), at integer pixels (stair
    steps), on a circle 40-300 pixels across (1.2-10 sheet units a pixel, 150-880 units
    across). The hand speeds up and slows down (a blend of an even pace and a minimum-jerk
    profile), draws it slightly oval (1-1.25), lumpy (2-5 lobes of up to 4 %) and spiral
    (its radius 0-8 % larger or smaller at the end), and stops 0.9-1.12 times round: its
    ends overshoot or do not quite meet. In `seconds` (0.12-0.2 s: 8-25 points)."""
    across = rng.uniform(40, 300)
    scale = rng.uniform(max(1.2, 150 / across), min(10.0, 880 / across))
    radius, wide = across / 2, rng.uniform(1.0, 1.25)
    lumps = [(k, rng.uniform(0, 0.04) / (k - 1), rng.uniform(0, 6.3)) for k in range(2, 6)]
    start, way, tilt = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1)), rng.uniform(0, math.pi)
    sweep, spiral, jerk = (2 * math.pi * rng.uniform(0.9, 1.12), rng.uniform(-0.08, 0.08),
                           rng.uniform(0.2, 1.0))
    duration, period = rng.uniform(*seconds), 1 / rng.uniform(60, 125)
    times = [0.0]
    while times[-1] < duration:
        times.append(times[-1] + period * rng.uniform(0.8, 1.2))
    times[-1] = duration
    c, s = math.cos(tilt), math.sin(tilt)
    pixels: list[tuple[int, int, int]] = []
    for t in times:
        u = t / duration
        done = (1 - jerk) * u + jerk * (10 * u**3 - 15 * u**4 + 6 * u**5)
        a = start + way * sweep * done
        r = radius * (1 + spiral * done) * (1 + sum(amp * math.sin(k * a + ph)
                                                    for k, amp, ph in lumps))
        x, y = r * wide * math.cos(a), r * math.sin(a)
        pixel = (round(x * c - y * s), round(x * s + y * c), round(t * 1000))
        if not pixels or pixels[-1][:2] != pixel[:2]:  # no event without a move
            pixels.append(pixel)
    return [Stroke(tuple((round(800 + x * scale), round(500 + y * scale), ms)
                         for x, y, ms in pixels), "#000000", 6)]


def browser_polygon(sides: int, rng: random.Random, seconds: tuple[float, float] = (0.3, 0.6)
                    ) -> list[Stroke]:
    """A regular polygon drawn fast with a mouse in a browser, as its page receives it
    (as `browser_circle`): 60-300 pixels across, 1.2-10 sheet units a pixel, its corners
    drawn round over 0-10 % of a side, the hand slowing at each corner to 15-40 % of its
    speed along the sides (a hand slows where it turns), from a corner round to 0-8 % of
    a side short or past it, in `seconds`."""
    across = rng.uniform(60, 300)
    scale = rng.uniform(max(1.2, 150 / across), min(10.0, 880 / across))
    turn, way = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1))
    corners = [(across / 2 * math.cos(turn + way * 2 * math.pi * k / sides),
                across / 2 * math.sin(turn + way * 2 * math.pi * k / sides))
               for k in range(sides)]
    round_share, slow = rng.uniform(0, 0.1), rng.uniform(0.15, 0.4)
    path: Pts = []
    for k in range(sides):
        (ax, ay), (px, py), (bx, by) = corners[k - 1], corners[k], corners[(k + 1) % sides]
        s0 = (px + (ax - px) * round_share, py + (ay - py) * round_share)
        s1 = (px + (bx - px) * round_share, py + (by - py) * round_share)
        path += [((1 - t) ** 2 * s0[0] + 2 * (1 - t) * t * px + t * t * s1[0],
                  (1 - t) ** 2 * s0[1] + 2 * (1 - t) * t * py + t * t * s1[1])
                 for t in (i / 6 for i in range(7))]
    end = rng.uniform(-0.08, 0.08)
    (px, py), (bx, by) = corners[0], corners[1]
    path = [*path[3:], path[3] if end <= 0 else (px + (bx - px) * end, py + (by - py) * end)]
    if end < 0:
        path[-1] = (px + (corners[-1][0] - px) * -end, py + (corners[-1][1] - py) * -end)
    dense = along(path, 0.5)
    side = math.dist(corners[0], corners[1])
    # The pace: slow at each corner, full speed a fifth of a side away from it.
    pace = [slow + (1 - slow) * min(1.0, min(math.dist(q, c) for c in corners) / (0.2 * side))
            for q in dense]
    clock = [0.0]
    for (a, b), v in zip(pairwise(dense), pace[1:], strict=True):
        clock.append(clock[-1] + math.dist(a, b) / v)
    duration, period = rng.uniform(*seconds), 1 / rng.uniform(60, 125)
    pixels: list[tuple[int, int, int]] = []
    t, i = 0.0, 0
    while True:
        while i < len(dense) - 1 and clock[i] < t * clock[-1] / duration:
            i += 1
        x, y = dense[i]
        pixel = (round(x), round(y), round(t * 1000))
        if not pixels or pixels[-1][:2] != pixel[:2]:
            pixels.append(pixel)
        if t >= duration:
            break
        t = min(duration, t + period * rng.uniform(0.8, 1.2))
    return [Stroke(tuple((round(800 + x * scale), round(500 + y * scale), ms)
                         for x, y, ms in pixels), "#000000", 6)]


def lumpy_circle(rng: random.Random) -> list[Stroke]:
    """A circle drawn with a finger, 160-550 units across its radius, lumpy (2-6 lobes of
    up to 5 % of its radius), with the finger's tremor and wobble."""
    lumps = [(k, rng.uniform(0, 0.05) / (k - 1), rng.uniform(0, 6.3)) for k in range(2, 7)]
    path = _round_path(rng, rng.uniform(40, 110), lumps, rng.randint(40, 160))
    scale = rng.uniform(2.5, 5)
    return [finger([(800 + x * scale, 500 + y * scale) for x, y in path], rng)]


def _missing_for_gap(gap: float) -> float:
    """The angle (radians) a circle's gap leaves out when the gap's chord is `gap` of
    the length drawn round the rest (bisected: the share grows with the angle)."""
    low, high = 0.0, math.pi
    for _ in range(50):
        mid = (low + high) / 2
        if 2 * math.sin(mid / 2) / (2 * math.pi - mid) < gap:
            low = mid
        else:
            high = mid
    return low


def circle_left_open(rng: random.Random, gap: tuple[float, float] = (0.15, 0.2)
                     ) -> list[Stroke]:
    """A lumpy circle drawn with a finger (2-6 lobes of up to 4 % of its radius, 1-1.2
    times as wide as high, 100-550 units across its radius), from anywhere, either way,
    that stops short of its start by a gap of `gap` of its length (straight across): 15 %
    is some 48 degrees of it, 20 % 62, 25 % 76; 30-40 % is a C (90-130 degrees)."""
    missing = _missing_for_gap(rng.uniform(*gap))
    lumps = [(k, rng.uniform(0, 0.04) / (k - 1), rng.uniform(0, 6.3)) for k in range(2, 7)]
    radius, scale = rng.uniform(40, 110), rng.uniform(2.5, 5)
    start, way, wide = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1)), rng.uniform(1.0, 1.2)
    sweep, count = 2 * math.pi - missing, rng.randint(40, 160)
    points = []
    for i in range(count + 1):
        a = start + way * sweep * i / count
        r = radius * (1 + sum(amp * math.sin(k * a + phase) for k, amp, phase in lumps))
        points.append((800 + scale * r * wide * math.cos(a), 500 + scale * r * math.sin(a)))
    return [finger(points, rng)]


def round_arc(rng: random.Random, degrees: tuple[float, float] = (200, 285)) -> list[Stroke]:
    """An arc of a circle of `degrees`, 150-450 units across its radius, with a finger's
    tremor and wobble: a C (an arc of 285 degrees misses 75, a gap of 24 % of its length)."""
    sweep, radius = math.radians(rng.uniform(*degrees)), rng.uniform(150, 450)
    start, way = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1))
    count = max(20, int(sweep * radius / 8))
    return [finger([(800 + radius * math.cos(start + way * sweep * i / count),
                     500 + radius * math.sin(start + way * sweep * i / count))
                    for i in range(count + 1)], rng)]


def wobbly_circle(rng: random.Random) -> list[Stroke]:
    """A circle drawn with a finger wobbling fast: 3 lumps of 2-8 lobes (0.5-3.5 %) and a
    wobble of 7 and 9 lobes (1.2 pixels) on a radius of 25-110 pixels, 2.5-6 units a
    pixel, sampled densely with a jitter of 0.4 pixels. Its lobes turn the outline by
    30-50 degrees at 7-9 spots, as an octagon's corners do; many look round, some like a
    rounded heptagon or octagon."""
    radius, scale = rng.uniform(25, 110), rng.uniform(2.5, 6)
    lumps = [(k, rng.uniform(0.005, 0.035) / (1 + 0.3 * (k - 2)), rng.uniform(0, 6.3))
             for k in rng.sample(range(2, 9), 3)]
    start, way = rng.uniform(0, 2 * math.pi), rng.choice((-1, 1))
    sweep, wide, phase = (2 * math.pi * rng.uniform(0.93, 1.12), rng.uniform(1.0, 1.25),
                          rng.uniform(0, 6.3))
    count = int(sweep * radius * rng.uniform(0.4, 2.5)) + 8
    path = []
    for i in range(count + 1):
        t = sweep * i / count
        a = start + way * t
        r = radius * (1 + sum(amp * math.sin(k * a + ph) for k, amp, ph in lumps))
        path.append((r * wide * math.cos(a) + rng.gauss(0, 0.4) + 1.2 * math.sin(7 * t + phase),
                     r * math.sin(a) + rng.gauss(0, 0.4) + 1.2 * math.cos(9 * t + phase)))
    return [stroke_from_xy((800 + x * scale, 500 + y * scale) for x, y in path)]


def wobbly_circle_in_two(rng: random.Random) -> list[Stroke]:
    """The same circle drawn in two goes: cut between a third and two thirds of the way
    round, the second stroke starting where the first stopped, the first running on over
    it by 0-4 of its points."""
    points = [(x, y) for x, y, _ in wobbly_circle(rng)[0].points]
    cut, over = rng.randint(len(points) // 3, 2 * len(points) // 3), rng.randint(0, 4)
    return [stroke_from_xy(points[: cut + over]), stroke_from_xy(points[cut:])]


def lozenge(rng: random.Random) -> list[Stroke]:
    """A lozenge in one stroke: a rhombus whose sharper tips are 50-80 degrees, each side
    a bow 8-14 % of its chord out (a person sees its two sharp points, and an oval does
    not have them), drawn from any tip, at any angle."""
    tip = math.radians(rng.uniform(50, 80))
    a = 300.0
    b = a * math.tan(tip / 2)
    tips = [(a, 0.0), (0.0, b), (-a, 0.0), (0.0, -b)]
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    start = rng.randrange(4)
    tips = tips[start:] + tips[:start]
    ring: Pts = []
    for k in range(4):
        (x0, y0), (x1, y1) = tips[k], tips[(k + 1) % 4]
        bow, chord = rng.uniform(0.08, 0.14), math.dist(tips[k], tips[(k + 1) % 4])
        nx, ny = (y1 - y0) / chord, -(x1 - x0) / chord
        if nx * (x0 + x1) + ny * (y0 + y1) < 0:  # outwards, away from the middle
            nx, ny = -nx, -ny
        ring += [(x0 + (x1 - x0) * t + nx * bow * chord * 4 * t * (1 - t),
                  y0 + (y1 - y0) * t + ny * bow * chord * 4 * t * (1 - t))
                 for t in (i / 40 for i in range(40))]
    ring.append(ring[0])
    return [finger([(800 + x * c - y * s, 500 + x * s + y * c) for x, y in ring], rng)]


def square_side_twice(rng: random.Random) -> list[Stroke]:
    """A square in one stroke whose first side is drawn again, 50-100 % of it, beside
    itself (the finger does not cross it)."""
    again = rng.uniform(0.5, 1.0)
    return [finger(along([*SQUARE, (500 + 500 * again, 250 + rng.uniform(-10, 10))]), rng)]


def wiggly_line(rng: random.Random, off: float = 0.06) -> list[Stroke]:
    """A straight line drawn by a hand: a slow bow and a wander, `off` of its length from
    its chord at most."""
    n, length = 150, 1000.0
    bow, wander, phase = rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0, 6.3)
    shape = [4 * bow * t * (1 - t) + wander * math.sin(phase + 2 * math.pi * 1.3 * t) * math.sin(
        math.pi * t) for t in (k / (n - 1) for k in range(n))]
    scale = off * length / max(abs(v) for v in shape)
    angle = rng.uniform(0, math.pi)
    c, s = math.cos(angle), math.sin(angle)
    return [finger([(800 + c * (length * (t - 0.5)) - s * scale * v,
                     500 + s * (length * (t - 0.5)) + c * scale * v)
                    for t, v in ((k / (n - 1), shape[k]) for k in range(n))], rng)]


def line_in_two_goes(rng: random.Random) -> list[Stroke]:
    a, b = (200.0, 400.0), (1400.0, 600.0)
    m = rng.uniform(0.3, 0.7)
    mid = (a[0] + (b[0] - a[0]) * m, a[1] + (b[1] - a[1]) * m)
    d = math.dist(a, b)
    o = rng.uniform(-30, 30)
    again = (mid[0] + (b[0] - a[0]) / d * o, mid[1] + (b[1] - a[1]) / d * o + rng.uniform(-8, 8))
    return [finger(along([a, mid]), rng), finger(along([again, b]), rng)]


def short_line_in_two_goes(rng: random.Random) -> list[Stroke]:
    """A line of 400-1000 units at any angle in two goes that meet (a gap or an overlap of
    up to 5 % of the line, 2 % off its direction): the shorter go is 120-500 units, where
    a finger's wobble moves the few vertices of its simplified stroke both ways."""
    length, angle = rng.uniform(400, 1000), rng.uniform(0, math.pi)
    ux, uy = math.cos(angle), math.sin(angle)
    a = (800 - ux * length / 2, 500 - uy * length / 2)
    m = rng.uniform(0.3, 0.7) * length
    gap, off = rng.uniform(-0.05, 0.05) * length, rng.uniform(-0.02, 0.02) * length
    mid = (a[0] + ux * m, a[1] + uy * m)
    again = (mid[0] + ux * gap - uy * off, mid[1] + uy * gap + ux * off)
    b = (a[0] + ux * length - uy * off, a[1] + uy * length + ux * off)
    return [finger(along([a, mid]), rng), finger(along([again, b]), rng)]


def snake(rng: random.Random) -> list[Stroke]:
    """A low wave of 3 or 4 bends, 5-10 % of its length high."""
    bends, height = rng.choice([3, 3.5, 4]), rng.uniform(0.05, 0.1)
    return [finger([(200 + 1200 * t, 500 + height * 1200 * math.sin(math.pi * bends * t))
                    for t in (k / 199 for k in range(200))], rng)]


def _triangle_wave(u: float) -> float:
    """-1 to 1 and back, period 1."""
    f = u % 1.0
    return 4 * f - 1 if f < 0.5 else 3 - 4 * f


def sharp_wave(rng: random.Random) -> list[Stroke]:
    """A wave of 3 or 4 bends whose crests are pinched to a point: the flanks still bend
    (steep in the middle, leaning over towards the crest), so it is no zigzag."""
    bends, height = rng.choice([3, 3.5, 4]), rng.uniform(0.06, 0.12)
    points = []
    for k in range(200):
        t = k / 199
        v = _triangle_wave(bends * t / 2 + 0.25)
        points.append((200 + 1200 * t, 500 + height * 1200 * math.copysign(
            abs(v) * (1.8 - 0.8 * abs(v)), v)))
    return [finger(points, rng)]


def bean(rng: random.Random) -> list[Stroke]:
    """A closed blob with a dent in its top, falling in by 3.5-12 % of its size from its
    hull (a bean, a kidney), started away from the dent."""
    a, b = rng.uniform(250, 320), rng.uniform(170, 230)
    depth, width = rng.uniform(0.18, 0.26), rng.uniform(0.3, 0.45)
    points = []
    for k in range(200):
        t = 2 * math.pi * k / 199
        bump = math.exp(-(((t - math.pi / 2) / width) ** 2))
        dent = depth * 2 * b * bump if math.sin(t) > 0 else 0
        points.append((800 + a * math.cos(t), 500 + b * math.sin(t) - dent))
    return [finger(points, rng)]


def s_curve(rng: random.Random) -> list[Stroke]:
    r, a = rng.uniform(120, 220), rng.uniform(1.0, 1.5)
    return [finger(arc(600, 300, r, math.pi, math.pi + a * math.pi)
                   + arc(600, 300 + 2 * r, r, 1.5 * math.pi, 1.5 * math.pi - a * math.pi)[1:], rng)]


def heart(rng: random.Random) -> list[Stroke]:
    size = rng.uniform(11, 16)
    return [finger([(800 + 16 * size * math.sin(t) ** 3,
                     450 - size * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t)
                                   - math.cos(4 * t)))
                    for t in (2 * math.pi * k / 199 for k in range(200))], rng)]


def heart_in_two(rng: random.Random) -> list[Stroke]:
    """A heart drawn in two halves, each from the notch to the tip (the second either
    way): the strokes meet at the notch and at the tip."""
    size = rng.uniform(11, 16)

    def at(t: float) -> tuple[float, float]:
        return (800 + 16 * size * math.sin(t) ** 3,
                450 - size * (13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t)
                              - math.cos(4 * t)))

    left = [at(math.pi * k / 100) for k in range(101)]
    right = [at(-math.pi * k / 100) for k in range(101)]
    if rng.random() < 0.5:
        right.reverse()
    return [finger(left, rng), finger(right, rng)]


def narrow_u(rng: random.Random) -> list[Stroke]:
    w = rng.uniform(50, 110)
    points = [(800 - w, 200 + 500 * k / 59) for k in range(60)]
    points += [(800 - w * math.cos(math.pi * k / 40), 700 + w * math.sin(math.pi * k / 40))
               for k in range(1, 40)]
    points += [(800 + w, 700 - 500 * k / 59) for k in range(60)]
    return [finger(points, rng)]


def rhombus(rng: random.Random) -> list[Stroke]:
    # (The first side took two angles, cos of one and sin of another, until the sixth
    # session: 1 drawing in 10 was a parallelogram of unequal sides, not a rhombus.)
    off, side, first = math.radians(rng.uniform(15, 30)), 300, rng.uniform(0, 1)
    ax, ay = side * math.cos(first), side * math.sin(first)
    angle = math.atan2(ay, ax) + math.pi / 2 - off
    bx, by = side * math.cos(angle), side * math.sin(angle)
    p = (600.0, 300.0)
    return [finger(along([p, (p[0] + ax, p[1] + ay), (p[0] + ax + bx, p[1] + ay + by),
                          (p[0] + bx, p[1] + by), p]), rng)]


def rhombus_on_its_tip(
    rng: random.Random, off: tuple[float, float] = (9, 15),
    turned: tuple[float, float] = (-10, 10),
) -> list[Stroke]:
    """A rhombus standing on its tip (its longer diagonal `turned` degrees off upright or
    level: -10 to 10), its corners `off` degrees off square (9-15: diagonals 1.17-1.30
    apart), as a hand draws a diamond."""
    half = math.radians(45 - rng.uniform(*off) / 2)  # half the corner at the tips
    tilt = (math.radians(rng.uniform(*turned)) * rng.choice((-1, 1))
            + rng.choice((0, math.pi / 2)))
    r = 300
    tips = [(r * math.cos(half), 0.0), (0.0, r * math.sin(half)),
            (-r * math.cos(half), 0.0), (0.0, -r * math.sin(half))]
    c, s = math.cos(tilt), math.sin(tilt)
    ring = [(800 + x * c - y * s, 500 + x * s + y * c) for x, y in tips]
    start = rng.randrange(4)
    ring = ring[start:] + ring[:start]
    return [finger(along([*ring, ring[0]]), rng)]


def leaning_square(rng: random.Random) -> list[Stroke]:
    """A square drawn upright and fast: one pair of sides within 8 degrees of level, the
    other leaning 8-13 degrees, so that its corners are that far off square (its
    diagonals 1.15-1.26 apart), as the $1 study's fast rectangles lean."""
    level = math.radians(rng.uniform(-8, 8))
    lean = level + math.pi / 2 + rng.choice((-1, 1)) * math.radians(rng.uniform(8, 13))
    side = 300
    ax, ay = side * math.cos(level), side * math.sin(level)
    bx, by = side * math.cos(lean), side * math.sin(lean)
    p = (600.0, 300.0)
    return [finger(along([p, (p[0] + ax, p[1] + ay), (p[0] + ax + bx, p[1] + ay + by),
                          (p[0] + bx, p[1] + by), p]), rng)]


def four_strokes_at_120(rng: random.Random) -> list[Stroke]:
    corners = [(400.0, 500.0)]
    angle = rng.uniform(0, 1)
    for _ in range(4):
        corners.append((corners[-1][0] + 250 * math.cos(angle),
                        corners[-1][1] + 250 * math.sin(angle)))
        angle += math.radians(60)
    return [finger(along([a, b]), rng) for a, b in pairwise(corners)]


def narrow_triangle_in_strokes(rng: random.Random) -> list[Stroke]:
    """A tall triangle, its apex 15-25 degrees, drawn a side a stroke, each end up to 40
    units past or short of its corner: at the apex the two sides' ends point out nearly
    the same way, yet part."""
    apex, height = math.radians(rng.uniform(15, 25)), rng.uniform(500, 700)
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    half = height * math.tan(apex / 2)
    corners = [(800 + x * c - y * s, 500 + x * s + y * c)
               for x, y in ((0, -height / 2), (half, height / 2), (-half, height / 2))]
    return in_strokes([*corners, corners[0]], rng, over=40)


def bowed_sides_turning_gently(rng: random.Random) -> list[Stroke]:
    """Half a hexagon or more drawn a side a stroke: 3-4 strokes, each bowed by 2-5 % of
    its length (straight alone), turning by 40-56 degrees at the joints, ends a little
    past or short of each other: a polygon's sides, straight lines."""
    corner, angle = (500.0, 500.0), rng.uniform(0, 2 * math.pi)
    sign = rng.choice((-1, 1))
    strokes = []
    for _ in range(rng.choice((3, 4))):
        side = rng.uniform(200, 320)
        end = (corner[0] + side * math.cos(angle), corner[1] + side * math.sin(angle))
        bow = rng.uniform(0.02, 0.05) * side * sign
        nx, ny = -math.sin(angle), math.cos(angle)
        start = (corner[0] - rng.uniform(-12, 12) * math.cos(angle),
                 corner[1] - rng.uniform(-12, 12) * math.sin(angle))
        strokes.append(finger(along([
            (start[0] + (end[0] - start[0]) * t + 4 * bow * t * (1 - t) * nx,
             start[1] + (end[1] - start[1]) * t + 4 * bow * t * (1 - t) * ny)
            for t in (k / 12 for k in range(13))]), rng))
        corner, angle = end, angle + sign * math.radians(rng.uniform(40, 56))
    return strokes


def arc_in_short_goes(rng: random.Random) -> list[Stroke]:
    """A quarter to half circle drawn in 3-4 goes, each short enough to be straight alone
    (each turns by 22-45 degrees along its way, as much as at each joint): one curve."""
    goes, r = rng.choice((3, 4)), rng.uniform(250, 400)
    span, start = math.radians(rng.uniform(90, 180)), rng.uniform(0, 2 * math.pi)
    step = span / goes
    return [finger(arc(800, 500, r, start + k * step, start + (k + 1) * step), rng)
            for k in range(goes)]


def triangle_with_tail(rng: random.Random) -> list[Stroke]:
    """A triangle whose end runs on past its start, along the first side or off it."""
    a, b, c = TRIANGLE[:3]
    f = rng.uniform(0.15, 0.35)
    past = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
    tail = (past[0] + rng.uniform(-60, 60), past[1] + rng.uniform(-30, 30))
    return [finger(along([a, b, c, a, tail]), rng)]


def rounded_triangle(rng: random.Random, share: tuple[float, float] = (0.15, 0.3)
                     ) -> list[Stroke]:
    """A triangle (no corner under 25 degrees) in one stroke, each corner drawn round from
    a share of its sides away (15-30 %): an obtuse corner's turn then spreads beyond the
    corner window, as a hand drawing a triangle fast rounds it."""
    while True:
        corners = [(rng.uniform(400, 1200), rng.uniform(150, 850)) for _ in range(3)]
        sides = [math.dist(corners[k], corners[k - 1]) for k in range(3)]
        if min(sides) > 250 and all(
                (b * b + c * c - a * a) / (2 * b * c) < math.cos(math.radians(25))
                for a, b, c in ((sides[k], sides[k - 1], sides[k - 2]) for k in range(3))):
            break
    ring: Pts = []
    for k in range(3):
        (ax, ay), (px, py), (bx, by) = corners[k - 1], corners[k], corners[(k + 1) % 3]
        r = rng.uniform(*share)
        s0, s1 = (px + (ax - px) * r, py + (ay - py) * r), (px + (bx - px) * r, py + (by - py) * r)
        ring += [((1 - t) ** 2 * s0[0] + 2 * (1 - t) * t * px + t * t * s1[0],
                  (1 - t) ** 2 * s0[1] + 2 * (1 - t) * t * py + t * t * s1[1])
                 for t in (i / 10 for i in range(11))]
    return [finger(along([*ring, ring[0]]), rng)]


def two_lines(rng: random.Random) -> list[Stroke]:
    """Two lines on one sheet: crossing at a right angle, or drawn one over the other."""
    if rng.random() < 0.5:
        return [finger(along([(300, 300), (1300, 700)]), rng),
                finger(along([(600, 900), (1000, 100)]), rng)]
    return [finger(along([(300, 300), (1300, 700)]), rng),
            finger(along([(310, 312), (1290, 690)]), rng)]


def lines_side_by_side(rng: random.Random) -> list[Stroke]:
    """Two lines drawn over each other, the same way or back, 5-30 units apart, each a
    little bent its own way, one ending 100-200 units short of the other (as two real
    lines overlaid): their ends meet at one end, or at both."""
    gap, short = rng.uniform(5, 30), rng.uniform(100, 200) * rng.randint(0, 1)
    first = along([(300, 300), (800, 500 + rng.uniform(-40, 40)), (1300, 700)])
    second = along([(300 + short * 0.93, 300 - gap + short * 0.37),
                    (800, 500 + rng.uniform(-40, 40)), (1300, 700 - gap)])
    if rng.random() < 0.5:
        second.reverse()
    return [finger(first, rng), finger(second, rng)]


def dashed_line(rng: random.Random, dashes: tuple[int, int] = (2, 5)) -> list[Stroke]:
    """A line of 500-1100 units at any angle drawn in 2-5 dashes (Quick, Draw! players
    draw lines so), each dash 0.6-1.4 times as long as the others, the gaps between them
    0.3-1.2 times a dash, each dash 2-6 degrees off the line and 0-10 units aside."""
    count = rng.randint(*dashes)
    dash_sizes = [rng.uniform(0.6, 1.4) for _ in range(count)]
    gap_sizes = [rng.uniform(0.3, 1.2) for _ in range(count - 1)]
    unit = rng.uniform(500, 1100) / (sum(dash_sizes) + sum(gap_sizes))
    angle = rng.uniform(0, math.pi)
    c, s = math.cos(angle), math.sin(angle)
    out, at = [], -unit * (sum(dash_sizes) + sum(gap_sizes)) / 2
    for k, size in enumerate(dash_sizes):
        off, tilt = rng.uniform(-10, 10), math.radians(rng.uniform(2, 6) * rng.choice((-1, 1)))
        half = unit * size / 2
        mid = at + half
        ends = [(mid + d * math.cos(tilt), off + d * math.sin(tilt)) for d in (-half, half)]
        out.append(finger(along([(800 + c * u - s * v, 500 + s * u + c * v) for u, v in ends]),
                          rng))
        at += unit * size + (unit * gap_sizes[k] if k < count - 1 else 0)
    return out


def _bowed(a: tuple[float, float], b: tuple[float, float], bow: float, side: int,
           count: int = 40) -> Pts:
    """Points from a to b along a bow of `bow` of the chord, to `side` (+1: left of a->b)."""
    (x0, y0), (x1, y1) = a, b
    d = math.dist(a, b)
    nx, ny = -(y1 - y0) / d, (x1 - x0) / d
    return [(x0 + (x1 - x0) * t + side * nx * bow * d * 4 * t * (1 - t),
             y0 + (y1 - y0) * t + side * ny * bow * d * 4 * t * (1 - t))
            for t in (i / count for i in range(count + 1))]


def arcs_at_a_cusp(rng: random.Random, turns: tuple[float, float] = (40, 120)) -> list[Stroke]:
    """Two arcs in one stroke meeting at a cusp (a bolt's zag drawn round, a bird's
    wings): arms of 300-600 units whose chords turn by `turns` degrees where they meet
    (40-120), each bowing 8-20 % of its chord into the corner, so that each turns
    against it."""
    l1, l2 = rng.uniform(300, 600), rng.uniform(300, 600)
    turn = math.radians(rng.uniform(*turns)) * rng.choice((-1, 1))
    h = rng.uniform(0, 2 * math.pi)
    a, c = (800 - l1 * math.cos(h), 500 - l1 * math.sin(h)), (800.0, 500.0)
    b = (800 + l2 * math.cos(h + turn), 500 + l2 * math.sin(h + turn))
    side = 1 if turn > 0 else -1
    points = (_bowed(a, c, rng.uniform(0.08, 0.2), side)[:-1]
              + _bowed(c, b, rng.uniform(0.08, 0.2), side))
    return [finger(points, rng)]


def wide_angle(rng: random.Random, bow: tuple[float, float] = (-0.04, 0.04),
               turn: tuple[float, float] = (45, 70)) -> list[Stroke]:
    """An angle in one stroke wider than 110 degrees (its chords turning by `turn`
    degrees), arms of 300-600 units each bowing by `bow` of its chord (plus: into the
    corner, as `arcs_at_a_cusp`; minus: away from it): straight arms by default."""
    l1, l2 = rng.uniform(300, 600), rng.uniform(300, 600)
    sign = rng.choice((-1, 1))
    way = math.radians(rng.uniform(*turn)) * sign
    h = rng.uniform(0, 2 * math.pi)
    a, c = (800 - l1 * math.cos(h), 500 - l1 * math.sin(h)), (800.0, 500.0)
    b = (800 + l2 * math.cos(h + way), 500 + l2 * math.sin(h + way))
    b1, b2 = rng.uniform(*bow), rng.uniform(*bow)
    points = (_bowed(a, c, abs(b1), sign if b1 > 0 else -sign)[:-1]
              + _bowed(c, b, abs(b2), sign if b2 > 0 else -sign))
    return [finger(points, rng)]


def dashed_line_beside_a_line(rng: random.Random) -> list[Stroke]:
    """A line in dashes (`dashed_line`) and a line of one stroke as long, 150 units beside
    it (two lines to a person)."""
    dashes = dashed_line(rng)
    (x0, y0), (x1, y1) = dashes[0].points[0][:2], dashes[-1].points[-1][:2]
    d = math.dist((x0, y0), (x1, y1))
    nx, ny = -(y1 - y0) / d * 150, (x1 - x0) / d * 150
    return [*dashes, finger(along([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny)]), rng)]


def line_to_and_fro(rng: random.Random) -> list[Stroke]:
    """A line drawn over itself to and fro 2-4 times in one stroke (a thick line)."""
    ends = [(300.0, 300.0), (1300.0, 700.0)]
    points = [ends[k % 2] for k in range(rng.randint(3, 5))]
    points = [(x + rng.uniform(-25, 25), y + rng.uniform(-25, 25)) for x, y in points]
    return [finger(along(points), rng)]


def square_with_a_bowed_side(rng: random.Random, bow: tuple[float, float] = (0.15, 0.18),
                             side: int = -1) -> list[Stroke]:
    """A square or a rectangle (sides 1:0.8 to 1:1.25, 300-600 units, turned by up to 9
    degrees) in one stroke, begun anywhere, one side swung round between its corners by
    `bow` of its length: out (`side` -1) or in (+1)."""
    high = rng.uniform(300, 600)
    wide = high * rng.uniform(0.8, 1.25)
    corners = [(0.0, 0.0), (wide, 0.0), (wide, high), (0.0, high)]
    bowed = rng.randrange(4)
    points: Pts = [corners[0]]
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        points += (_bowed(a, b, rng.uniform(*bow), side) if k == bowed else along([a, b]))[1:]
    turn = rng.uniform(-0.15, 0.15)
    c, s = math.cos(turn), math.sin(turn)
    points = [(800 + (x - wide / 2) * c - (y - high / 2) * s,
               500 + (x - wide / 2) * s + (y - high / 2) * c) for x, y in points]
    start = rng.randrange(len(points) - 1)
    return [finger(points[start:] + points[1:start + 1], rng)]


def sheet_reading(strokes: list[Stroke]) -> str:
    verdict = check_broad_lines_sheet(strokes)
    return verdict.reason_key if verdict.curves or not verdict.legal else f"{verdict.lines} lines"


def shapes_reading(strokes: list[Stroke], rolled: Sequence[Shape] | None = None) -> str:
    return " ".join(v.shape.value if v.shape else v.reason_key
                    for v in recognise_shapes(strokes, rolled))


Case = tuple[Callable[[random.Random], list[Stroke]], Callable[[list[Stroke]], str], set[str]]
CASES: dict[str, Case] = {
    "hexagon, one stroke: no circle": (
        lambda r: [finger(polygon(6, r), r)], shapes_reading, {"not.corners"}),
    "octagon, one stroke: no circle": (
        lambda r: [finger(polygon(8, r), r)], shapes_reading, {"not.corners"}),
    "hexagon on a sheet: 6 lines": (
        lambda r: [finger(polygon(6, r), r)], sheet_reading, {"sheet.too_many"}),
    "octagon on a sheet: not 1 curve": (
        lambda r: [finger(polygon(8, r), r)], sheet_reading, {"sheet.too_many"}),
    "hexagon drawn wide, one stroke: no circle": (
        lambda r: [finger(wide_polygon(6, r), r)], shapes_reading, {"not.corners"}),
    "octagon drawn wide, one stroke: no circle": (
        lambda r: [finger(wide_polygon(8, r), r)], shapes_reading, {"not.corners"}),
    "hexagon drawn wide on a sheet: 6 lines": (
        lambda r: [finger(wide_polygon(6, r), r)], sheet_reading, {"sheet.too_many"}),
    "hexagon drawn fast (corners round), one stroke: no circle": (
        lambda r: [finger(fast_polygon(6, r), r)], shapes_reading, {"not.corners"}),
    "octagon drawn fast (corners round), one stroke: no circle": (
        lambda r: [finger(fast_polygon(8, r), r)], shapes_reading, {"not.corners"}),
    "octagon drawn fast on a sheet: not 1 curve": (
        lambda r: [finger(fast_polygon(8, r), r)], sheet_reading, {"sheet.too_many"}),
    "oval 1.2-3.5:1, one stroke: a circle": (oval, shapes_reading, {"circle"}),
    "lemon with two points: no circle": (lemon, shapes_reading, {"not.corners"}),
    "lemon on a sheet: no oval, refused": (lemon, sheet_reading, {"sheet.points"}),
    "a D on a sheet: no oval, refused": (letter_d, sheet_reading, {"sheet.points"}),
    "octagon left open (7 sides) on a sheet: 7 lines, not 1 curve": (
        lambda r: [finger(open_polygon(8, r), r)], sheet_reading, {"sheet.too_many"}),
    "octagon two sides short, its last corner drawn round, on a sheet: lines, not 1 curve": (
        lambda r: open_polygon_rounded(8, r), sheet_reading, {"sheet.too_many"}),
    "hexagon left open (5 sides) on a sheet: 5 lines, not 1 curve": (
        lambda r: [finger(open_polygon(6, r), r)], sheet_reading, {"sheet.too_many"}),
    "square in 4 strokes, overshoots": (
        lambda r: in_strokes(SQUARE, r), shapes_reading, {"square"}),
    "square in 4 strokes, gaps": (
        lambda r: in_strokes(SQUARE, r, over=0, gap=40), shapes_reading, {"square"}),
    "triangle in 3 strokes, overshoots": (
        lambda r: in_strokes(TRIANGLE, r), shapes_reading, {"triangle"}),
    "narrow triangle (apex 15-25 degrees) in 3 strokes": (
        narrow_triangle_in_strokes, shapes_reading, {"triangle"}),
    "triangle in 3 strokes crossing past its corners": (
        lambda r: crossing_sides(TRIANGLE, r, (0.2, 0.3)), shapes_reading, {"triangle"}),
    "square in 4 strokes crossing past its corners": (
        lambda r: crossing_sides(SQUARE, r), shapes_reading, {"square"}),
    "circle cut at the middle": (lambda r: circle_cut(r, 0.5), shapes_reading, {"circle"}),
    "circle cut at 30 %": (lambda r: circle_cut(r, 0.3), shapes_reading, {"circle"}),
    "line wiggling 6 % off its chord": (wiggly_line, sheet_reading, {"1 lines"}),
    "line in two collinear goes": (line_in_two_goes, sheet_reading, {"1 lines"}),
    "shorter line in two collinear goes, ArtBox: 1 line": (
        short_line_in_two_goes, shapes_reading, {"line"}),
    "two lines on a sheet": (two_lines, sheet_reading, {"2 lines"}),
    "two lines side by side on a sheet: 2 lines": (lines_side_by_side, sheet_reading,
                                                   {"2 lines"}),
    "a line drawn to and fro on a sheet: 1 line": (line_to_and_fro, sheet_reading,
                                                   {"1 lines"}),
    "4 straight strokes at 120 degrees": (
        four_strokes_at_120, sheet_reading, {"sheet.too_many"}),
    "3-4 bowed straight strokes turning 40-56 degrees at their joints: too many lines": (
        bowed_sides_turning_gently, sheet_reading, {"sheet.too_many"}),
    "an arc drawn in 3-4 short straight goes: 1 curve": (
        arc_in_short_goes, sheet_reading, {"sheet.curve"}),
    "low wave of 3-4 bends": (snake, sheet_reading, {"sheet.changes_bend"}),
    "wave with pinched crests": (sharp_wave, sheet_reading, {"sheet.changes_bend"}),
    "bean with a dent on a sheet": (bean, sheet_reading, {"sheet.changes_bend"}),
    "bean with a dent: no circle": (bean, shapes_reading, {"not.changes_bend"}),
    "S-curve": (s_curve, sheet_reading, {"sheet.changes_bend"}),
    "heart in one stroke": (heart, sheet_reading, {"sheet.changes_bend"}),
    "narrow U: 1 curve": (narrow_u, sheet_reading, {"sheet.curve"}),
    "rhombus 15-30 degrees off square": (rhombus, shapes_reading, {"not.diamond"}),
    "rhombus on its tip, 9-15 degrees off square: a diamond, no square": (
        rhombus_on_its_tip, shapes_reading, {"not.diamond"}),
    "square drawn upright, its sides leaning 8-13 degrees: a square": (
        leaning_square, shapes_reading, {"square"}),
    "square on its tip, 0-5 degrees off: a diamond, no square": (
        lambda r: rhombus_on_its_tip(r, (0, 5)), shapes_reading, {"not.diamond"}),
    "square turned up to 20 degrees from upright, off its tip: a square": (
        lambda r: rhombus_on_its_tip(r, (0, 5), turned=(25, 45)), shapes_reading, {"square"}),
    "triangle with a tail past its start": (triangle_with_tail, shapes_reading, {"triangle"}),
    "triangle with rounded corners (15-30 % of its sides)": (
        rounded_triangle, shapes_reading, {"triangle"}),
    "circle drawn with a mouse, stair steps of its pixels: a circle": (
        mouse_circle, shapes_reading, {"circle"}),
    "circle drawn with a mouse on a sheet: 1 curve": (mouse_circle, sheet_reading, {"sheet.curve"}),
    "lumpy circle drawn with a finger: a circle": (lumpy_circle, shapes_reading, {"circle"}),
    "lumpy circle drawn with a finger on a sheet: 1 curve": (
        lumpy_circle, sheet_reading, {"sheet.curve"}),
    "circle drawn with a fast finger wobble (7-9 lobes): a circle": (
        wobbly_circle, shapes_reading, {"circle"}),
    "square with its first side drawn again in the same stroke: a square": (
        square_side_twice, shapes_reading, {"square"}),
    "square with one side bowing out 15-18 %: a square": (
        square_with_a_bowed_side, shapes_reading, {"square"}),
}


def rate(case: Case, count: int = 20) -> tuple[float, Counter[str]]:
    """The share of `count` seeded drawings read as wanted, and what they were read as."""
    make, read, wanted = case
    readings = Counter(read(make(random.Random(seed))) for seed in range(count))
    return sum(readings[w] for w in wanted) / count, readings


LEAST: dict[str, float] = {}
"""Cases allowed a lower share than 85 % (none today)."""


@pytest.mark.parametrize("name", CASES)
def test_a_person_would_agree(name: str) -> None:
    share, readings = rate(CASES[name])
    assert share >= LEAST.get(name, 0.85), (name, dict(readings))


def test_four_lines_meeting_at_corners_are_read_against_the_roll() -> None:
    rng = random.Random(4)
    strokes = in_strokes(SQUARE, rng, over=20)
    lines = check_artbox_drawing(strokes, [Shape.LINE] * 4)
    assert lines.legal and lines.found == (Shape.LINE,) * 4, lines.reason
    square = check_artbox_drawing([*strokes, finger(arc(300, 300, 120, 0, 2 * math.pi), rng)],
                                  [Shape.SQUARE, Shape.CIRCLE, Shape.LINE, Shape.LINE])
    # A square and a circle were drawn, not 2 lines more: 2 shapes, the roll wants 4.
    assert square.found == (Shape.CIRCLE, Shape.SQUARE), square.reason
    assert shapes_reading(strokes) == "square"  # without a roll: the nearest ends join


def test_a_square_and_two_lines_of_four_strokes_fit_a_roll_that_wants_them() -> None:
    rng = random.Random(9)
    sides = in_strokes(SQUARE, rng, over=15)
    extra = [finger(along([(100, 900), (700, 950)]), rng),
             finger(along([(900, 900), (1500, 880)]), rng)]
    verdict = check_artbox_drawing(sides + extra, [Shape.SQUARE, Shape.LINE, Shape.LINE,
                                                   Shape.LINE])
    assert not verdict.legal and verdict.reason_key == "drawing.count", verdict.reason
    verdict = check_artbox_drawing(sides[:2] + extra + sides[2:],
                                   [Shape.LINE, Shape.LINE, Shape.LINE, Shape.LINE])
    assert not verdict.legal  # six lines are too many: no reading makes them four


def test_a_retraced_side_leaves_the_rectangle_recognised() -> None:
    rng = random.Random(2)
    rectangle = finger(along(SQUARE), rng)
    again = finger(along([(505, 255), (995, 255)]), rng)
    verdict = check_artbox_drawing(
        [rectangle, again, finger(arc(1300, 300, 100, 0, 2 * math.pi), rng),
         finger(along([(1150, 900), (1350, 500), (1550, 900), (1150, 900)]), rng),
         finger(along([(100, 900), (900, 950)]), rng)],
        [Shape.SQUARE, Shape.CIRCLE, Shape.TRIANGLE, Shape.LINE])
    assert verdict.legal, verdict.reason
    assert not verdict.unrecognised
    assert [v.reason_key for v in verdict.shapes].count("not.drawn_over") == 1


def test_a_triangle_with_a_tail_is_never_called_four_sided() -> None:
    for seed in range(20):
        reading = shapes_reading(triangle_with_tail(random.Random(seed)))
        assert "not.rectangle" not in reading and "not.diamond" not in reading, (seed, reading)


def test_a_shape_traced_again_in_a_second_stroke_counts_once() -> None:
    rng = random.Random(6)
    circle = arc(800, 500, 250, 0, 2 * math.pi)
    triangle = along(TRIANGLE)
    for outline, shape in ((circle, Shape.CIRCLE), (triangle, Shape.TRIANGLE)):
        first, again = finger(outline, rng), finger([(x + 4, y - 3) for x, y in outline], rng)
        verdicts = recognise_shapes([first, again])
        assert [v.shape for v in verdicts] == [shape, None], verdicts
        assert verdicts[1].reason_key == "not.drawn_over"
    # Two circles side by side are two circles.
    beside = finger([(x + 600, y) for x, y in circle], rng)
    assert [v.shape for v in recognise_shapes([finger(circle, rng), beside])] == [
        Shape.CIRCLE, Shape.CIRCLE]


def test_a_short_straight_stroke_with_a_fingers_wobble_is_no_wave() -> None:
    # A wave must rise above the tremor (WAVE_RISE): the short go of a line in two goes,
    # 2-3 % off its chord, is a line (before: 8 of 60 such drawings had an "open curve").
    readings = Counter(shapes_reading([stroke]) for seed in range(60)
                       for stroke in short_line_in_two_goes(random.Random(seed)))
    assert readings == {"line": 120}, readings
    # A low wave 5-10 % of its length high still changes its bend.
    assert rate(CASES["low wave of 3-4 bends"], 40)[0] >= 0.9


def test_a_triangle_with_a_corner_drawn_round_keeps_three_corners() -> None:
    # A rounded corner's turn spreads beyond the corner window: it counts when it makes
    # every side straight (before: 41 of 60 triangles, the rest "a closed figure with 2
    # corners"), and it is one corner, never two halves of one ("four sides").
    readings = Counter(shapes_reading(rounded_triangle(random.Random(seed)))
                       for seed in range(60))
    assert readings["triangle"] >= 51 and not {"not.rectangle", "not.diamond"} & set(readings), (
        readings)
    # A "D" and a lemon keep their two points: no triangle.
    assert rate(CASES["a D on a sheet: no oval, refused"], 40)[0] >= 0.9
    assert rate(CASES["lemon with two points: no circle"], 40)[0] >= 0.9


def test_straight_strokes_meeting_at_gentle_corners_are_lines_not_a_curve() -> None:
    # Broad Lines: straight strokes whose joints turn by 40-56 degrees are a polygon's
    # sides (before: 48 of 60 refused, the rest "1 curve"); an arc drawn in short goes,
    # each straight alone, turns smoothly and stays 1 curve.
    sides = rate(CASES["3-4 bowed straight strokes turning 40-56 degrees at their joints: "
                       "too many lines"], 60)
    arcs = rate(CASES["an arc drawn in 3-4 short straight goes: 1 curve"], 60)
    assert sides[0] >= 52 / 60 and arcs[0] >= 55 / 60, (sides, arcs)



def test_a_diamond_is_refused_for_a_square_and_says_why() -> None:
    # A rhombus on its tip whose diagonals differ by a fifth (corners 10 degrees off) is
    # a diamond: the drawing's refusal names it, short enough for the kiosk and a phone.
    # A square standing on a side (turned 10 degrees) is a square, and the same drawing
    # is legal.
    roll = [Shape.SQUARE, Shape.CIRCLE, Shape.LINE, Shape.LINE]
    rng = random.Random(8)
    others = [finger(arc(300, 300, 120, 0, 2 * math.pi), rng),
              finger(along([(100, 800), (500, 820)]), rng),
              finger(along([(1000, 850), (1400, 800)]), rng)]
    diamond = check_artbox_drawing([*rhombus_on_its_tip(rng, (10, 10)), *others], roll)
    assert (diamond.legal, diamond.reason_key) == (False, "drawing.diamond"), diamond.reason
    assert diamond.reason == "A diamond is no square: a square stands on a side."
    assert [v.reason_key for v in diamond.unrecognised] == ["not.diamond"]
    square = check_artbox_drawing(
        [*rhombus_on_its_tip(rng, (0, 2), turned=(35, 35)), *others], roll)
    assert square.legal, square.reason


def test_a_square_whose_first_side_is_drawn_again_is_a_square() -> None:
    # The finger goes on along the first side, beside it, 50-100 % of it: before, one in
    # 10 was "5 lines" (the end came back to the start beyond OVERLAP_FRACTION of the
    # stroke, and without crossing it, so no loop was found).
    readings = Counter(shapes_reading(square_side_twice(random.Random(seed)))
                       for seed in range(100))
    assert readings["square"] >= 98, dict(readings)


def test_a_side_drawn_again_adds_no_line_to_a_sheet() -> None:
    # A square drawn a side a stroke and its top drawn again: refused, but for its 4
    # lines (before: "5 lines" in 45 of 100); two lines drawn over each other stay 2.
    counts: Counter[object] = Counter()
    for seed in range(100):
        rng = random.Random(seed)
        sides = [finger(along([a, b]), rng) for a, b in pairwise(SQUARE)]
        (x0, y0), (x1, y1) = SQUARE[0], SQUARE[1]
        again = finger(along([(x0 + rng.uniform(-10, 10), y0 + rng.uniform(-8, 8)),
                              (x1 + rng.uniform(-10, 10), y1 + rng.uniform(-8, 8))]), rng)
        counts[check_broad_lines_sheet([*sides, again]).params["lines"]] += 1
    assert counts[4] >= 95, dict(counts)
    overlaid = Counter(sheet_reading(lines_side_by_side(random.Random(seed)))
                       for seed in range(40))
    assert overlaid["2 lines"] >= 36, dict(overlaid)


def test_a_circle_drawn_with_a_fast_finger_wobble_is_mostly_a_circle() -> None:
    # Its lobes turn it by 30-50 degrees at 7-9 spots, like an octagon's corners; where
    # no straight runs lie between them (POLYGON_RUN_SHARE) they are no corners. Before
    # that rule 163 of 200 were circles (37 "a closed figure with 7-9 corners"); the
    # rest look like rounded heptagons or octagons (seen rendered) or change their bend.
    # Where the stretches between the lumps waver across their chords (LUMPY_SIDE, read
    # from the stroke as drawn) they are no sides either: 173 -> 185 of these 200, and
    # of seeds 400-799 (not looked at while choosing it) 327 -> 346 of 400 (344 with the
    # tips read at 4 % of the length, issue 30's third pass; the tuning seeds: 185).
    # Where too little of it is flat at the scale a person looks (POLYGON_FLAT_SHARE:
    # chords of 3 % of its length), its blunt corners are lumps too (issue 30's fourth
    # pass): 185 -> 194 of these 200, and 344 -> 377 of seeds 400-799; the fast octagons
    # and hexagons, flat for 44 % of their length or more, stay polygons (below). A
    # closed curve turning back by 30-60 degrees at its lumps without falling in from its
    # hull keeps its bend (LUMP_REVERSAL), and its jags are no points: 194 -> 198 and
    # 377 -> 388 (of them 11 "changes its bend" before, 15 with "2-3 points" after the
    # first rule alone).
    readings = Counter(shapes_reading(wobbly_circle(random.Random(seed))) for seed in range(200))
    assert readings["circle"] >= 196, dict(readings)
    held = Counter(shapes_reading(wobbly_circle(random.Random(seed))) for seed in range(400, 800))
    assert held["circle"] >= 384, dict(held)
    fast = Counter(shapes_reading([finger(fast_polygon(sides, rng), rng)])
                   for sides in (6, 8) for rng in map(random.Random, range(100, 200)))
    assert fast["circle"] <= 30, dict(fast)


def test_a_circle_drawn_with_a_fast_finger_wobble_in_two_goes_is_mostly_a_circle() -> None:
    # The strokes joined are read for their flat share too, each stroke on its own
    # (where they meet the pen was lifted): 162 -> 180 of seeds 0-199, 328 -> 368 of
    # seeds 400-799 (not looked at while choosing it); 188 and 375 with the lumps'
    # turning back and jags read as a wobble's (LUMP_REVERSAL); 198 and 394 with each
    # stroke's chords measured at the scale of the whole loop, not of the stroke (a
    # stroke half the loop long was read at twice the scale of the circle in one go).
    readings = Counter(shapes_reading(wobbly_circle_in_two(random.Random(seed)))
                       for seed in range(200))
    assert readings["circle"] >= 195, dict(readings)
    held = Counter(shapes_reading(wobbly_circle_in_two(random.Random(seed)))
                   for seed in range(400, 800))
    assert held["circle"] >= 388, dict(held)


def test_a_heart_in_two_halves_changes_its_bend_at_the_notch_where_they_meet() -> None:
    # The notch is a joint of the loop, which was read as its seam, spared the bend and
    # dent rules: 9 in 100 were "1 curve: allowed" before.
    readings = Counter(sheet_reading(heart_in_two(random.Random(seed))) for seed in range(100))
    assert readings["sheet.curve"] <= 3, dict(readings)


def test_a_lozenges_sharp_tips_are_points_no_circle() -> None:
    # Its outline rounds the tips off as an oval's ends (FINE_POINT_ANGLE); read finer,
    # they turn at a point. Seeds 200-399 (the tolerances were chosen on 0-199): 172 of
    # 200 circles before, 84 after; the rest had tips turning under 60 degrees. Read at
    # the scale a person sees the tip (chords of 4 % of the length either side, 55
    # degrees; the seam at 3 %, 50 degrees: issue 30's third pass): 9 circles, 184 "not
    # corners" (3 squares and 4 diamonds: lozenges whose bows are read as sides). A tip
    # between convex sides (FINE_TIP_ANGLE, issue 30's sixth pass: 48 degrees at the
    # reach, 60 read twice as wide): 0 circles, 193 "not corners"; seeds 400-799, never
    # looked at, 27 circles before it and 8 after.
    lozenges = [lozenge(random.Random(seed)) for seed in range(200, 400)]
    readings = Counter(shapes_reading(strokes) for strokes in lozenges)
    assert readings["circle"] <= 2 and readings["not.corners"] >= 191, dict(readings)
    sheets = Counter(sheet_reading(strokes) for strokes in lozenges)
    assert sheets["sheet.points"] >= 189 and sheets["sheet.curve"] <= 2, dict(sheets)
    more = Counter(shapes_reading(lozenge(random.Random(seed))) for seed in range(400, 800))
    assert more["circle"] <= 10, dict(more)
    # Ovals, lumpy circles and circles drawn with a mouse have no points (their circles:
    # before 200 / 200 and 398 / 400).
    assert rate((oval, shapes_reading, {"circle"}), 40)[0] >= 0.8
    assert rate((lumpy_circle, shapes_reading, {"circle"}), 100)[0] == 1.0
    mice = Counter(shapes_reading(mouse_circle(random.Random(seed))) for seed in range(200, 600))
    assert mice["circle"] >= 394, dict(mice)


def test_a_heart_in_one_stroke_is_no_legal_curve() -> None:
    # Its notch and its tip are points where the outline does not show them: 8 of seeds
    # 200-399 were "1 curve: allowed" before (12 of 0-199); now none of either.
    readings = Counter(sheet_reading(heart(random.Random(seed))) for seed in range(400))
    assert readings["sheet.curve"] <= 4, dict(readings)


def test_two_arcs_meeting_wide_at_a_cusp_are_one_curve_changing_its_bend() -> None:
    # Chords turning by 40-70 degrees at the cusp, each arm bowing 8-20 % into it: 139 of
    # these held-out 400 were "2 straight lines: allowed" before CUSP_TURN (issue 30's
    # ninth pass, tuned on even seeds 0-398), 14 after (their arms bow by 8 % or less
    # as the outline reads them).
    held = Counter(sheet_reading(arcs_at_a_cusp(random.Random(seed), (40, 70)))
                   for seed in range(1000, 1400))
    assert held["2 lines"] <= 24 and held["sheet.changes_bend"] >= 370, dict(held)
    verdict = check_broad_lines_sheet(arcs_at_a_cusp(random.Random(1001), (40, 70)))
    assert not verdict.legal and verdict.reason_key == "sheet.changes_bend"
    assert (verdict.lines, verdict.curves) == (0, 1)
    # An angle as wide with straight arms is 2 lines as before (366 of 400; the others
    # turn too softly for a corner: 1 curve, before and after), and so is one whose arms
    # bow away from the corner (1 curve, bending one way, before and after).
    straight = Counter(sheet_reading(wide_angle(random.Random(seed))) for seed in range(1000, 1400))
    assert straight["2 lines"] >= 360, dict(straight)
    out = Counter(sheet_reading(wide_angle(random.Random(seed), (-0.2, -0.08)))
                  for seed in range(1000, 1200))
    assert out["sheet.curve"] == 200, dict(out)


def test_a_circle_drawn_fast_with_a_mouse_in_a_browser_is_a_circle() -> None:
    # Its pointer events are a polygon of 8-27 points in 0.12-0.2 s: 273 of these 400
    # (held-out seeds; the rule was tuned on 0-199) were circles before issue 30's fifth
    # pass, the rest "6-9 corners"; 391 of 400 in 0.2-0.3 s. Those left are sampled at
    # fewer than 10 segments (a heptagon as the page draws it) or left open.
    fastest = Counter(shapes_reading(browser_circle(random.Random(seed)))
                      for seed in range(1000, 1400))
    assert fastest["circle"] >= 352, dict(fastest)
    fast = Counter(sheet_reading(browser_circle(random.Random(seed), (0.2, 0.3)))
                   for seed in range(1000, 1400))
    assert fast["sheet.curve"] >= 397, dict(fast)


def test_a_polygon_drawn_fast_with_a_mouse_in_a_browser_keeps_its_corners() -> None:
    # The hand slows at each corner, so the events bunch there and its sides are long
    # flat segments: no turns alike all round. Before the fifth pass, of 300 drawn in
    # 0.15-0.3 s: triangles and squares all theirs, hexagons no circle, octagons 27
    # circles (sampled at 12-15 even points, round to the eye); after, 34 and 1 hexagon.
    for sides, shape in ((3, {"triangle"}), (4, {"square", "not.diamond"})):
        readings = Counter(shapes_reading(browser_polygon(sides, random.Random(seed), (0.15, 0.3)))
                           for seed in range(300))
        assert sum(readings[s] for s in shape) == 300, (sides, dict(readings))
    for sides, most in ((6, 3), (8, 45)):
        readings = Counter(shapes_reading(browser_polygon(sides, random.Random(seed), (0.15, 0.3)))
                           for seed in range(300))
        assert readings["circle"] <= most, (sides, dict(readings))


def test_only_a_sparse_stroke_turning_alike_all_round_is_sparse_round() -> None:
    def ring(count: int, flat_after: int = -1) -> tuple[list[float], list[float]]:
        angles = [2 * math.pi * k / count for k in range(count + 1)]
        xs = [300 * math.cos(a) for a in angles]
        ys = [300 * math.sin(a) for a in angles]
        if flat_after >= 0:  # a point in the middle of a side: a flat, no turn
            k = flat_after
            xs.insert(k + 1, (xs[k] + xs[k + 1]) / 2)
            ys.insert(k + 1, (ys[k] + ys[k + 1]) / 2)
        return xs, ys

    assert sparse_round(*ring(12))
    assert sparse_round(*ring(24))
    assert not sparse_round(*ring(8))  # an octagon as sampled: too few to tell
    assert not sparse_round(*ring(12, flat_after=5))
    assert not sparse_round(*ring(200))  # dense: the flat share reads it
    square = along([(0, 0), (400, 0), (400, 400), (0, 400), (0, 0)], 100)
    assert not sparse_round([x for x, _ in square], [y for _, y in square])


def test_a_line_drawn_in_dashes_is_one_line() -> None:
    # ArtBox (issue 30's sixth pass, `artbox._dashes`): straight strokes in a row along
    # one line, the gaps no longer than 1.5 dashes, are one line, as a person reads a
    # dashed line. Seeds 100-299 (the rule was chosen on Quick, Draw! lines and seeds
    # 0-99): none was one line before (193 "line line..."), 187 after.
    readings = Counter(shapes_reading(dashed_line(random.Random(seed)))
                       for seed in range(100, 300))
    assert readings["line"] >= 180, dict(readings)
    # The roll decides between one line and its dashes: two dashes are two lines when
    # two lines were rolled.
    two = dashed_line(random.Random(7), (2, 2))
    rolled = (Shape.LINE, Shape.LINE, Shape.CIRCLE, Shape.SQUARE)
    assert shapes_reading(two) == "line"
    assert shapes_reading(two, rolled) == "line line"
    # A line beside the dashes is a line of its own and leaves them one line (seeds
    # 100-299: 187 "line line"; without DASH_ASIDE and DASH_READ, 5 strokes compared,
    # 68 of 100 on seeds 0-99).
    beside = Counter(shapes_reading(dashed_line_beside_a_line(random.Random(seed)))
                     for seed in range(100, 300))
    assert beside["line line"] >= 180, dict(beside)
    # Lines side by side, crossing, or at an angle are no dashes of one line.
    for make in (two_lines, lines_side_by_side):
        for seed in range(20):
            assert shapes_reading(make(random.Random(seed))) != "line"
    angle = [finger(along([(300, 500), (700, 500)]), random.Random(1)),
             finger(along([(800, 520), (1200, 300)]), random.Random(2))]
    assert shapes_reading(angle) == "line line"


def test_a_long_oval_has_no_points_where_its_stroke_turns_round() -> None:
    # An oval over 3 times as long as wide turns at its ends by more than POINT_ANGLE
    # between the outline's corner chords, and it was "2 points", no circle. Read from the
    # stroke as drawn (`points_of`, issue 30's sixth pass), its ends turn round, not at a
    # point. Seeds 200-599 (the rule was chosen on 0-199): 1.2-3.5 times, 337 circles of
    # 400 before, 399 after; 3-4 times, 75 before, 363 after.
    readings = Counter(shapes_reading(oval(random.Random(seed))) for seed in range(200, 600))
    assert readings["circle"] >= 395, dict(readings)
    long = Counter(shapes_reading(oval(random.Random(seed), (3, 4))) for seed in range(200, 600))
    assert long["circle"] >= 355, dict(long)
    sheets = Counter(sheet_reading(oval(random.Random(seed), (3, 4))) for seed in range(200, 400))
    assert sheets["sheet.curve"] >= 175, dict(sheets)
    # A lemon's and a "D"'s points are still points, on their outline and as drawn.
    for make in (lemon, letter_d):
        assert all(shapes_reading(make(random.Random(seed))) != "circle"
                   for seed in range(100, 200))


def test_a_square_with_one_side_drawn_round_is_a_square() -> None:
    # One side bowing out by 15-18 % of its length (16-21 % as measured, with the
    # finger's tremor), the others straight: a square with a side drawn round (issue 30's
    # eighth pass, BOWED_SIDE). Held-out seeds 2000-2399 (the rule was chosen on 0-99 and
    # two Quick, Draw! squares): 64 squares of 400 before, 381 after.
    readings = Counter(shapes_reading(square_with_a_bowed_side(random.Random(seed)))
                       for seed in range(2000, 2400))
    assert readings["square"] >= 360, dict(readings)
    # A side half round (an arch, a tombstone) is no square; nor does a side bent in
    # (a dent, bent in by 10-20 %) become one: 202 of 400 before the rule and after it
    # (215 if the rule took sides bowing in too).
    arches = Counter(shapes_reading(square_with_a_bowed_side(random.Random(seed), (0.3, 0.5)))
                     for seed in range(2000, 2200))
    assert arches["square"] == 0, dict(arches)
    dents = Counter(shapes_reading(square_with_a_bowed_side(random.Random(seed), (0.1, 0.2), 1))
                    for seed in range(1000, 1400))
    assert dents["square"] <= 205, dict(dents)


def test_a_circle_left_open_by_a_gap_a_person_overlooks_is_a_circle() -> None:
    # Issue 30's ninth pass (ROUND_GAP_ANGLE, `gap_arc`): a round stroke stopping short of
    # its start by 15-20 % of its length was "not.open_curve" (CLOSE_GAP is 15 % of the
    # simplified length): 30 circles of 400 before, on the held-out odd seeds (the rule
    # was chosen on even ones), 390 after. Gaps of 5-15 %: 386 before, 400 after.
    seeds = range(1, 800, 2)
    readings = Counter(shapes_reading(circle_left_open(random.Random(seed))) for seed in seeds)
    assert readings["circle"] >= 380, dict(readings)
    small = Counter(shapes_reading(circle_left_open(random.Random(seed), (0.05, 0.15)))
                    for seed in seeds)
    assert small["circle"] >= 398, dict(small)
    # Broad Lines is not asked: open or closed, such a circle is "1 curve" there.
    sheets = Counter(sheet_reading(circle_left_open(random.Random(seed))) for seed in seeds)
    assert sheets["sheet.curve"] >= 390, dict(sheets)


def test_a_c_an_arc_and_a_polygon_left_open_stay_open() -> None:
    # What a person reads as open stays open: a lumpy C (a gap of 27-40 % of its length,
    # 80-130 degrees), an arc of 200-285 degrees, a hexagon and an octagon left open (the
    # octagon's closed reading is a polygon, no circle). None was a circle before the
    # ninth pass, nor is one after.
    seeds = range(1, 400, 2)
    makers: dict[str, Callable[[random.Random], list[Stroke]]] = {
        "C": lambda r: circle_left_open(r, (0.27, 0.4)),
        "arc": round_arc,
        "hexagon left open": lambda r: [finger(open_polygon(6, r), r)],
        "octagon left open": lambda r: [finger(open_polygon(8, r), r)],
    }
    for name, make in makers.items():
        readings = Counter(shapes_reading(make(random.Random(seed))) for seed in seeds)
        assert readings["circle"] == 0, (name, dict(readings))
