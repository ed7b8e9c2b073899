"""Drawing geometry with hand-made strokes: every rule of Broad Lines and ArtBox, the
borderline cases, hand tremor, and (hypothesis) invariance under rotation (a four-sided
figure short of standing on its tip), scale, translation, reversal and jitter."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.geometry import (
    DOT_SIZE,
    REASONS,
    BadRoll,
    EmptyStroke,
    Figure,
    FigureKind,
    Shape,
    SheetVerdict,
    check_artbox_drawing,
    check_broad_lines_sheet,
    classify_stroke,
    reason_text,
    recognise_shapes,
    stroke_from_xy,
    strokes_from_xy,
)
from games.sheet import Stroke

Pts = list[tuple[float, float]]

# --- Hand-made strokes ------------------------------------------------------------------


def along(corners: Sequence[tuple[float, float]], step: float = 6.0) -> Pts:
    """Points every `step` units along the polyline through `corners`."""
    out: Pts = []
    for (ax, ay), (bx, by) in pairwise(corners):
        n = max(1, round(math.dist((ax, ay), (bx, by)) / step))
        out.extend((ax + (bx - ax) * i / n, ay + (by - ay) * i / n) for i in range(n))
    out.append(corners[-1])
    return out


def ellipse(
    cx: float = 800, cy: float = 500, rx: float = 250, ry: float = 250, turns: float = 1.0,
    start: float = 0.0, step: float = 6.0, tilt: float = 0.0,
) -> Pts:
    n = max(8, round(2 * math.pi * max(rx, ry) * turns / step))
    out: Pts = []
    for i in range(n + 1):
        a = start + 2 * math.pi * turns * i / n
        x, y = rx * math.cos(a), ry * math.sin(a)
        out.append((cx + x * math.cos(tilt) - y * math.sin(tilt),
                    cy + x * math.sin(tilt) + y * math.cos(tilt)))
    return out


def arc(cx: float, cy: float, r: float, a0: float, a1: float, step: float = 6.0) -> Pts:
    n = max(4, round(abs(a1 - a0) * r / step))
    return [(cx + r * math.cos(a0 + (a1 - a0) * i / n), cy + r * math.sin(a0 + (a1 - a0) * i / n))
            for i in range(n + 1)]


def bowed(a: tuple[float, float], b: tuple[float, float], sagitta: float, n: int = 120) -> Pts:
    """A circular arc from a to b bulging by `sagitta` (a fraction of |ab|) to the left."""
    (ax, ay), (bx, by) = a, b
    length = math.dist(a, b)
    nx, ny = -(by - ay) / length, (bx - ax) / length
    out: Pts = []
    for i in range(n + 1):
        t = i / n
        bulge = 4 * sagitta * length * t * (1 - t)  # a parabola: close to the arc here
        out.append((ax + (bx - ax) * t + nx * bulge, ay + (by - ay) * t + ny * bulge))
    return out


def shaky(points: Pts, seed: int, tremor: float = 1.5, wobble: float = 0.0,
          wavelength: int = 60) -> Pts:
    """Hand tremor (gaussian, sheet units) and the slow wobble of a finger on glass."""
    rng = random.Random(seed)
    phase_x, phase_y = rng.uniform(0, 6.3), rng.uniform(0, 6.3)
    return [
        (x + rng.gauss(0, tremor) + wobble * math.sin(2 * math.pi * i / wavelength + phase_x),
         y + rng.gauss(0, tremor) + wobble * math.sin(2 * math.pi * i / wavelength + phase_y))
        for i, (x, y) in enumerate(points)
    ]


def figure_of(points: Pts) -> Figure:
    return classify_stroke(stroke_from_xy(points))


def sheet(*strokes: Pts) -> SheetVerdict:
    return check_broad_lines_sheet(strokes_from_xy(strokes))


def shapes(*strokes: Pts) -> list[Shape | None]:
    return [v.shape for v in recognise_shapes(strokes_from_xy(strokes))]


SQUARE = [(400.0, 200.0), (800.0, 200.0), (800.0, 600.0), (400.0, 600.0), (400.0, 200.0)]
TRIANGLE = [(300.0, 700.0), (700.0, 150.0), (1100.0, 700.0), (300.0, 700.0)]
# Three quarters of a turn one way, then half a turn the other way.
S_CURVE = arc(600, 300, 150, math.pi, 2.5 * math.pi) + arc(
    600, 600, 150, 1.5 * math.pi, 0.5 * math.pi)[1:]


# --- Strokes ----------------------------------------------------------------------------


def test_a_straight_stroke_is_one_line() -> None:
    figure = figure_of(along([(100, 100), (900, 400)]))
    assert (figure.kind, figure.lines, figure.curves) == (FigureKind.LINE, 1, 0)
    assert not figure.closed


@pytest.mark.parametrize("seed", range(8))
def test_tremor_and_wobble_do_not_bend_a_straight_line(seed: int) -> None:
    # 1.5 units of tremor and a 6-unit wobble (1 % of the length) on a 600-unit line.
    points = shaky(along([(200, 300), (760, 520)], step=4), seed, tremor=1.5, wobble=6)
    assert figure_of(points).kind is FigureKind.LINE


def test_nearly_straight_is_straight_and_a_clear_bow_is_a_curve() -> None:
    # LINE_TOLERANCE is 6 % of the chord.
    assert figure_of(bowed((100, 500), (900, 500), 0.04)).kind is FigureKind.LINE
    bent = figure_of(bowed((100, 500), (900, 500), 0.09))
    assert (bent.kind, bent.curves, bent.changes_bend) == (FigureKind.CURVE, 1, False)


def test_an_angle_in_one_stroke_is_two_lines() -> None:
    figure = figure_of(along([(200, 200), (450, 700), (700, 200)]))
    assert (figure.kind, figure.lines, len(figure.corners)) == (FigureKind.LINES, 2, 1)
    ell = figure_of(along([(200, 200), (200, 700), (600, 700)]))
    assert (ell.kind, ell.lines) == (FigureKind.LINES, 2)


def test_an_angle_with_a_rounded_corner_is_still_two_lines() -> None:
    corner = arc(450, 620, 40, math.pi, 0.5 * math.pi)  # a rounding of 40 units
    points = along([(410, 200), (410, 620)]) + corner + along([(450, 660), (900, 660)])
    assert figure_of(points).lines == 2


def test_a_flick_at_the_end_does_not_make_a_second_line() -> None:
    points = along([(100, 300), (900, 300), (880, 325)])  # 32 units back: 4 % of the length
    assert figure_of(points).kind is FigureKind.LINE


def test_a_circle_is_one_closed_curve() -> None:
    figure = figure_of(ellipse())
    assert (figure.kind, figure.closed, figure.rounds, figure.crossings) == (
        FigureKind.CURVE, True, 1, 0)
    assert not figure.changes_bend


@pytest.mark.parametrize("turns", [0.9, 1.0, 1.05, 1.12])
def test_a_closed_curve_may_leave_a_gap_or_overlap_a_little(turns: float) -> None:
    figure = figure_of(ellipse(rx=300, ry=200, turns=turns, start=1.0))
    assert figure.closed and not figure.crosses_itself and not figure.changes_bend


def test_overlapping_ends_that_cross_inwards_are_not_a_change_of_bend() -> None:
    # The end dives across the start, as hands do, leaving a cusp at the closing point.
    loop = ellipse(rx=250, ry=250, turns=0.97)
    end = loop[-1]
    points = loop + along([end, (end[0] - 30, end[1] + 100)])[1:]
    figure = figure_of(points)
    assert figure.closed and not figure.changes_bend and not figure.crosses_itself


def test_a_circle_drawn_twice_round_is_one_circle() -> None:
    first = ellipse(rx=250, ry=250)
    second = ellipse(rx=262, ry=258, start=0.05)  # the second round drifts a little
    figure = figure_of(first + second[1:])
    assert (figure.closed, figure.rounds, figure.crossings) == (True, 2, 0)
    assert shapes(first + second[1:]) == [Shape.CIRCLE]
    assert sheet(first + second[1:]).legal


def test_a_spiral_is_a_curve_that_keeps_its_bend_but_is_not_closed() -> None:
    points = [(800 + (60 + 12 * a) * math.cos(a), 500 + (60 + 12 * a) * math.sin(a))
              for a in (i * 0.05 for i in range(400))]
    figure = figure_of(points)
    assert (figure.kind, figure.closed, figure.crossings) == (FigureKind.CURVE, False, 0)
    assert not figure.changes_bend


def test_an_s_curve_changes_its_bend() -> None:
    figure = figure_of(S_CURVE)
    assert figure.curves == 1 and figure.changes_bend and figure.bend_reversal > 120


def test_a_gentle_s_within_the_tolerance_keeps_its_bend() -> None:
    # A long arc whose last tenth turns back by 15 degrees: under BEND_REVERSAL (30).
    points = arc(800, 900, 600, 1.1 * math.pi, 1.6 * math.pi) + arc(
        800 + 1200 * math.cos(1.6 * math.pi), 900 + 1200 * math.sin(1.6 * math.pi), 600,
        0.6 * math.pi, 0.6 * math.pi - math.radians(15))[1:]
    figure = figure_of(points)
    assert figure.curves == 1 and not figure.changes_bend


def bean_outline(dent: float) -> Pts:
    """An oval 600 x 400 whose top is pushed in by `dent` x 400 units over a third of
    its width (a bean), drawn from its right end, a little past its start."""
    points = []
    for k in range(241):
        t = 2 * math.pi * 1.03 * k / 240
        push = dent * 400 * math.exp(-(((t % (2 * math.pi)) - 1.5 * math.pi) / 0.45) ** 2)
        points.append((800 + 300 * math.cos(t), 500 + 200 * math.sin(t) + push))
    return points


def test_a_bean_with_a_shallow_dent_changes_its_bend() -> None:
    # The dent turns back by less than BEND_REVERSAL, but falls in from the hull by
    # 4-6 % of the size: no circle, and no "1 curve" of Broad Lines.
    for push in (0.2, 0.22):
        figure = figure_of(bean_outline(push))
        assert figure.closed and figure.bend_reversal < 30 and figure.changes_bend, figure
        assert 0.04 < figure.dent < 0.06
        verdict = recognise_shapes([stroke_from_xy(bean_outline(push))])[0]
        assert verdict.shape is None and verdict.reason_key == "not.changes_bend"
        assert verdict.reason == "Not a circle: its bend reverses (a dent or a notch)."
        assert sheet(bean_outline(push)).reason_key == "sheet.changes_bend"
    # A side flattened, or pushed in by a hair (3.5 % of the size), is still an oval.
    for push in (0.12, 0.18):
        flat = figure_of(bean_outline(push))
        assert flat.dent < 0.035 and not flat.changes_bend and shapes(bean_outline(push)) == [
            Shape.CIRCLE]


def test_a_circle_whose_end_falls_short_inwards_is_still_a_circle() -> None:
    # The close falls short inside the start: the gap bridged there leaves a notch at
    # the seam, which is where the pen stopped, not a dent.
    points = [(800 + r * math.cos(t), 500 + r * math.sin(t))
              for t, r in ((2 * math.pi * k / 200, 250 - 40 * max(0, k - 185) / 15)
                           for k in range(200))]
    figure = figure_of(points)
    assert figure.closed and not figure.changes_bend, figure
    assert shapes(points) == [Shape.CIRCLE]


def test_a_wave_with_sharp_crests_changes_its_bend_it_is_no_zigzag() -> None:
    # Crests pinched to a point, flanks bending along their way: a curve changing its
    # bend. Straight flanks meeting at the same crests: a zigzag of 4 lines.
    def crest(u: float) -> float:
        f = u % 1.0
        return 4 * f - 1 if f < 0.5 else 3 - 4 * f

    wave = [(200 + 1200 * t, 500 + 110 * math.copysign(abs(v) * (1.8 - 0.8 * abs(v)), v))
            for t, v in ((k / 199, crest(2 * k / 199 + 0.25)) for k in range(200))]
    zigzag = [(200 + 1200 * t, 500 + 110 * v)
              for t, v in ((k / 199, crest(2 * k / 199 + 0.25)) for k in range(200))]
    assert sheet(wave).reason_key == "sheet.changes_bend", figure_of(wave)
    assert sheet(zigzag).reason_key == "sheet.too_many" and sheet(zigzag).lines == 5


@pytest.mark.parametrize("seed", range(8))
def test_a_wobbly_circle_keeps_its_bend(seed: int) -> None:
    points = shaky(ellipse(rx=260, ry=220, step=4, turns=1.03), seed, tremor=2.0, wobble=5)
    figure = figure_of(points)
    assert figure.closed and not figure.changes_bend and not figure.crosses_itself


def test_a_loop_crosses_itself() -> None:
    pigtail = [(200 + 4 * i + 80 * math.sin(i / 12), 500 - 80 * math.cos(i / 12))
               for i in range(160)]
    assert figure_of(pigtail).crosses_itself
    eight = [(800 + 300 * math.sin(2 * t), 500 + 250 * math.sin(t))
             for t in (i * 2 * math.pi / 240 for i in range(241))]
    assert figure_of(eight).crosses_itself


def test_a_tiny_curl_at_a_corner_is_not_a_crossing() -> None:
    curl = [(800, 200), (812, 190), (812, 208), (800, 200)]  # a 40-unit curl of the pen
    points = along([(400, 200), *curl, (800, 600), (400, 600), (400, 200)])
    figure = figure_of(points)
    assert figure.crossings == 0
    assert shapes(points) == [Shape.SQUARE]


def test_a_dot_is_a_dot() -> None:
    figure = figure_of([(500, 500), (503, 502), (505, 498), (501, 499)])
    assert figure.kind is FigureKind.DOT
    assert figure_of([(500, 500)]).kind is FigureKind.DOT


def test_an_empty_stroke_is_refused() -> None:
    with pytest.raises(EmptyStroke):
        classify_stroke(Stroke(()))
    with pytest.raises(ValueError):
        check_broad_lines_sheet([Stroke(())])


# --- Broad Lines ------------------------------------------------------------------------


def test_broad_lines_allows_up_to_two_straight_lines() -> None:
    one = sheet(along([(100, 100), (900, 400)]))
    assert (one.legal, one.lines, one.reason_key) == (True, 1, "sheet.lines")
    crossing = sheet(along([(100, 100), (900, 700)]), along([(100, 700), (900, 100)]))
    apart = sheet(along([(100, 100), (900, 100)]), along([(100, 700), (900, 650)]))
    assert crossing.legal and apart.legal and crossing.lines == apart.lines == 2


def test_broad_lines_refuses_three_lines_with_a_reason() -> None:
    verdict = sheet(*(along([(100, 100 + 200 * k), (900, 150 + 200 * k)]) for k in range(3)))
    assert not verdict.legal
    assert verdict.reason == "2 straight lines or 1 curve — this sheet has 3 lines."
    assert verdict.reason_in("cs") == "2 rovné čáry nebo 1 křivka — na této fólii jsou 3 čáry."


def test_an_angle_counts_as_two_lines_on_a_sheet() -> None:
    angle = along([(200, 200), (450, 700), (700, 200)])
    assert sheet(angle).legal and sheet(angle).lines == 2
    with_a_line = sheet(angle, along([(900, 100), (1400, 800)]))
    assert not with_a_line.legal and with_a_line.lines == 3


def test_broad_lines_allows_exactly_one_curve() -> None:
    for curve in (ellipse(), ellipse(rx=400, ry=150), arc(800, 500, 300, 0, 2), bowed(
            (100, 500), (900, 500), 0.2)):
        verdict = sheet(curve)
        assert (verdict.legal, verdict.curves, verdict.reason_key) == (True, 1, "sheet.curve")


def test_broad_lines_refuses_a_curve_with_anything_else() -> None:
    two_curves = sheet(arc(400, 500, 200, 0, 3), arc(1200, 500, 200, 0, 3))
    assert not two_curves.legal
    assert two_curves.reason == "2 straight lines or 1 curve — this sheet has 2 curves."
    mixed = sheet(ellipse(cx=400, rx=200, ry=200), along([(900, 100), (1400, 800)]))
    assert mixed.reason == "2 straight lines or 1 curve — this sheet has 1 line and 1 curve."
    assert mixed.reason_in("cs").endswith("jsou 1 čára a 1 křivka.")


def test_broad_lines_refuses_a_curve_that_changes_its_bend() -> None:
    verdict = sheet(S_CURVE)
    assert (verdict.legal, verdict.reason) == (False, "This curve changes its bend.")
    assert verdict.reason_in("cs") == "Tato křivka mění směr ohybu."
    assert verdict.figures[0].bend_reversal > 120
    assert verdict.params["bend_reversal"] == verdict.figures[0].bend_reversal


def test_broad_lines_refuses_a_curve_that_crosses_itself() -> None:
    loop = [(200 + 4 * i + 80 * math.sin(i / 12), 500 - 80 * math.cos(i / 12)) for i in range(160)]
    verdict = sheet(loop)
    assert (verdict.legal, verdict.reason) == (False, "This curve crosses itself.")
    assert verdict.reason_in("cs") == "Tato křivka kříží sama sebe."


def test_broad_lines_refuses_a_dot_and_accepts_an_empty_sheet() -> None:
    dot = sheet([(500, 500), (502, 503)], along([(100, 100), (900, 100)]))
    assert (dot.legal, dot.reason_key, dot.dots) == (False, "sheet.dot", 1)
    assert sheet().legal and sheet().reason_key == "sheet.empty"


def test_strokes_whose_ends_meet_are_one_figure() -> None:
    halves = sheet(arc(800, 500, 250, 0, math.pi), arc(800, 500, 250, math.pi, 2 * math.pi))
    assert (halves.legal, halves.curves, halves.figures[0].strokes) == (True, 1, (0, 1))
    assert halves.figures[0].closed
    line_in_two = sheet(along([(100, 300), (500, 300)]), along([(506, 301), (900, 300)]),
                        along([(100, 700), (900, 800)]))
    assert (line_in_two.legal, line_in_two.lines) == (True, 2)
    triangle = sheet(along(TRIANGLE[:2]), along(TRIANGLE[1:3]), along(TRIANGLE[2:]))
    assert (triangle.legal, triangle.lines) == (False, 3)


def test_a_closed_triangle_in_one_stroke_is_three_lines() -> None:
    verdict = sheet(along(TRIANGLE))
    assert (verdict.legal, verdict.lines, verdict.figures[0].closed) == (False, 3, True)


# --- ArtBox -----------------------------------------------------------------------------


@pytest.mark.parametrize("points", [
    ellipse(),
    ellipse(rx=400, ry=180, tilt=0.4),
    [(800 + 250 * math.cos(a) * (1 + 0.25 * math.cos(a)), 500 + 200 * math.sin(a))
     for a in (i * 2 * math.pi / 200 for i in range(201))],  # an egg: an oval
    ellipse(turns=1.08, start=2.0),
    ellipse(turns=0.9, start=2.0),
], ids=["circle", "ellipse", "egg", "overlap", "gap"])
def test_artbox_circles(points: Pts) -> None:
    assert shapes(points) == [Shape.CIRCLE]


@pytest.mark.parametrize("corners", [
    SQUARE,
    [(300.0, 300.0), (1200.0, 300.0), (1200.0, 600.0), (300.0, 600.0), (300.0, 300.0)],
    [(800.0, 100.0), (1204.0, 247.0), (1057.0, 651.0), (653.0, 504.0), (800.0, 100.0)],
    [(600.0, 200.0), (800.0, 200.0), (800.0, 600.0), (400.0, 600.0), (400.0, 200.0),
     (600.0, 200.0)],
], ids=["square", "rectangle", "turned", "started-mid-side"])
def test_artbox_squares(corners: list[tuple[float, float]]) -> None:
    assert shapes(along(corners)) == [Shape.SQUARE]


def test_a_square_standing_on_its_tip_is_a_diamond() -> None:
    # Seen as a diamond (Mach's square and diamond), and drawn so when people are asked
    # for one; turned by 20 degrees (the square above, "turned") it is a square.
    on_tip = [(800.0, 100.0), (1150.0, 450.0), (800.0, 800.0), (450.0, 450.0), (800.0, 100.0)]
    [verdict] = recognise_shapes([stroke_from_xy(along(on_tip))])
    assert (verdict.shape, verdict.reason_key) == (None, "not.diamond")


@pytest.mark.parametrize("corners", [
    TRIANGLE,
    [(300.0, 700.0), (300.0, 200.0), (1000.0, 700.0), (300.0, 700.0)],
    [(200.0, 700.0), (1300.0, 700.0), (500.0, 450.0), (200.0, 700.0)],
], ids=["isosceles", "right", "obtuse"])
def test_artbox_triangles(corners: list[tuple[float, float]]) -> None:
    assert shapes(along(corners)) == [Shape.TRIANGLE]


@pytest.mark.parametrize("seed", range(6))
def test_artbox_shapes_drawn_by_a_shaky_hand(seed: int) -> None:
    assert shapes(shaky(along(SQUARE, step=4), seed, 2.0, 4)) == [Shape.SQUARE]
    assert shapes(shaky(along(TRIANGLE, step=4), seed, 2.0, 4)) == [Shape.TRIANGLE]
    assert shapes(shaky(ellipse(step=4), seed, 2.0, 4)) == [Shape.CIRCLE]
    assert shapes(shaky(along([(200, 300), (1000, 420)], step=4), seed, 2.0, 4)) == [Shape.LINE]


def test_artbox_bowed_sides_and_rounded_corners_still_make_a_square() -> None:
    top = bowed((400, 200), (800, 200), -0.06)
    right = bowed((800, 200), (800, 600), -0.06)
    bottom = bowed((800, 600), (400, 600), -0.06)
    left = bowed((400, 600), (400, 200), -0.06)
    assert shapes(top + right[1:] + bottom[1:] + left[1:]) == [Shape.SQUARE]


def test_artbox_lines_and_what_is_no_shape() -> None:
    assert shapes(along([(100, 100), (900, 400)])) == [Shape.LINE]
    assert shapes(along([(200, 200), (450, 700), (700, 200)])) == [Shape.LINE, Shape.LINE]
    verdicts = recognise_shapes(strokes_from_xy([
        [(500, 500), (510, 505), (505, 510)],  # a dot
        arc(800, 500, 300, 0, 3),  # an open curve
        along([(800, 100), (1000, 500), (800, 900), (600, 500), (800, 100)]),  # a rhombus
        along([(800 + 300 * math.cos(a), 500 + 300 * math.sin(a))
               for a in (i * 2 * math.pi / 5 for i in range(6))]),  # a pentagon
        [(800 + 300 * math.cos(a), 500 + 300 * math.sin(a))
         for a in (i * 4 * math.pi / 5 for i in range(6))],  # a five-pointed star
    ]))
    assert [v.shape for v in verdicts] == [None] * 5
    assert [v.reason_key for v in verdicts] == [
        "not.dot", "not.open_curve", "not.diamond", "not.corners", "not.crosses_itself"]
    assert verdicts[0].reason == "Too small: a dot is not a circle."
    assert verdicts[3].params["corners"] == 5


def test_artbox_a_dot_is_too_small_for_a_circle() -> None:
    small = ellipse(rx=DOT_SIZE / 2 - 2, ry=DOT_SIZE / 2 - 2, step=2)
    assert shapes(small) == [None]
    assert shapes(ellipse(rx=DOT_SIZE * 2, ry=DOT_SIZE * 2, step=3)) == [Shape.CIRCLE]


def test_artbox_shapes_drawn_in_several_strokes_whose_ends_meet() -> None:
    # Four sides, each overshooting its corners by 10 units.
    sides = [along([(390, 200), (810, 200)]), along([(800, 190), (800, 610)]),
             along([(810, 600), (390, 600)]), along([(400, 610), (400, 190)])]
    verdicts = recognise_shapes(strokes_from_xy(sides))
    assert [(v.shape, v.strokes) for v in verdicts] == [(Shape.SQUARE, (0, 1, 2, 3))]
    assert verdicts[0].reason == "Square, drawn in 4 strokes whose ends meet."
    assert shapes(along(SQUARE[:3]), along(SQUARE[2:])) == [Shape.SQUARE]
    assert shapes(along(TRIANGLE[:2]), along(TRIANGLE[1:3]), along(TRIANGLE[2:])) == [
        Shape.TRIANGLE]
    assert shapes(arc(800, 500, 250, 0, math.pi), arc(800, 500, 250, math.pi, 2 * math.pi)) == [
        Shape.CIRCLE]


def test_artbox_a_line_is_not_part_of_a_square() -> None:
    touching = along([(800, 400), (1200, 400)])
    assert shapes(along(SQUARE), touching) == [Shape.SQUARE, Shape.LINE]
    # A side of the square drawn again shows no line of its own.
    on_a_side = along([(420, 204), (790, 197)])
    verdicts = recognise_shapes(strokes_from_xy([along(SQUARE), on_a_side]))
    assert [v.shape for v in verdicts] == [Shape.SQUARE, None]
    assert verdicts[1].reason == (
        "Drawn over the outline of a square, so it adds no shape of its own.")
    # So does a line drawn over a line, the second time.
    assert shapes(along([(100, 800), (900, 800)]), along([(150, 803), (850, 798)])) == [
        Shape.LINE, None]


def test_artbox_marks_a_person_overlooks_take_nothing_away() -> None:
    # A dot beside a square (a tap, 1 % of the drawing's size) is a stray mark: the
    # drawing is one square, and the dot no unrecognised part.
    dot = [(900, 650), (903, 652)]
    verdicts = recognise_shapes(strokes_from_xy([along(SQUARE), dot]))
    assert [(v.shape, v.stray) for v in verdicts] == [(Shape.SQUARE, False), (None, True)]
    assert verdicts[1].to_json()["stray"] is True and "stray" not in verdicts[0].to_json()
    # The same dot alone is no stray: it is all there is.
    assert [v.stray for v in recognise_shapes(strokes_from_xy([dot]))] == [False]
    # A tap beside the rolled shapes does not make the drawing unrecognised, but the
    # rules say a dot is not a shape: the box names the mark and the table decides.
    verdict = check_artbox_drawing(strokes_from_xy([*four_shapes(), [(1300, 150),
                                                                     (1302, 151)]]), ROLL)
    assert not verdict.unrecognised and Counter(verdict.found) == Counter(ROLL)
    assert not verdict.legal and verdict.reason_key == "drawing.stray"
    assert "small marks beside them: 1" in verdict.reason
    assert "drobné značky: 1" in verdict.reason_in("cs")
    # ...and a small line still counts when a line was rolled (90 units, 5 % of the
    # drawing), not when it was not.
    small = [ellipse(cx=300, cy=300, rx=200, ry=200), along(SQUARE),
             along([(900, 700), (1200, 300), (1500, 700), (900, 700)]),
             along([(1400, 850), (1490, 850)])]
    assert check_artbox_drawing(strokes_from_xy(small), ROLL).legal
    three = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.CIRCLE)
    verdict = check_artbox_drawing(strokes_from_xy(small), three)
    assert verdict.found == (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE)
    assert verdict.reason_key == "drawing.count"


def test_artbox_a_side_drawn_on_past_its_corner_adds_no_line() -> None:
    # The left side of the triangle drawn on past its apex (a fifth of its length), and
    # a piece of the base drawn again just below it: the triangle, nothing else.
    past_apex = along([(700, 150), (780, 40)])
    assert shapes(along(TRIANGLE), past_apex) == [Shape.TRIANGLE, None]
    # A line touching the apex at an angle to both sides is a line of its own.
    assert shapes(along(TRIANGLE), along([(700, 150), (900, 140)])) == [
        Shape.TRIANGLE, Shape.LINE]
    # So is a line along a side's line but as long as the side.
    assert shapes(along(TRIANGLE), along([(700, 150), (1040, -318)])) == [
        Shape.TRIANGLE, Shape.LINE]


def test_artbox_a_line_drawn_there_and_back_is_one_line() -> None:
    assert shapes(along([(100, 500), (900, 500), (150, 510)])) == [Shape.LINE]
    assert shapes(along([(100, 500), (900, 500), (150, 530), (880, 540)])) == [Shape.LINE]
    # A narrow angle is still two lines (its arms 10 degrees apart).
    tip = (100 + 800 * math.cos(math.radians(10)), 500 - 800 * math.sin(math.radians(10)))
    assert shapes(along([tip, (100, 500), (900, 500)])) == [Shape.LINE, Shape.LINE]


def test_artbox_one_drawn_shape_never_counts_twice() -> None:
    # A house: the roof is two lines on the square's top side, not a second triangle.
    roof = along([(400, 200), (600, 20), (800, 200)])
    assert shapes(along(SQUARE), roof) == [Shape.SQUARE, Shape.LINE, Shape.LINE]
    assert shapes(along(TRIANGLE)) == [Shape.TRIANGLE]  # not three lines as well


ROLL = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)


def four_shapes() -> list[Pts]:
    return [ellipse(cx=300, cy=300, rx=200, ry=200), along(SQUARE),
            along([(900, 700), (1200, 300), (1500, 700), (900, 700)]),
            along([(100, 850), (1500, 900)])]


def test_artbox_a_drawing_of_exactly_the_rolled_shapes() -> None:
    verdict = check_artbox_drawing(strokes_from_xy(four_shapes()), ROLL)
    assert verdict.legal and verdict.reason_key == "drawing.ok"
    assert verdict.found == (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
    assert verdict.reason == "Exactly the rolled shapes: circle, square, triangle, line."
    assert verdict.reason_in("cs") == "Přesně hozené tvary: kruh, čtverec, trojúhelník, čára."
    again = check_artbox_drawing(strokes_from_xy(four_shapes()), ROLL[::-1])
    assert again.legal


def test_artbox_a_drawing_of_other_shapes_says_which() -> None:
    rolled = (Shape.CIRCLE, Shape.CIRCLE, Shape.SQUARE, Shape.LINE)
    verdict = check_artbox_drawing(strokes_from_xy(four_shapes()), rolled)
    assert not verdict.legal
    assert (verdict.missing, verdict.extra) == ((Shape.CIRCLE,), (Shape.TRIANGLE,))
    assert verdict.reason == "Not the rolled shapes: circle missing, triangle instead."
    assert verdict.reason_in("cs") == "Nejsou to hozené tvary: chybí kruh, navíc je trojúhelník."


def test_artbox_a_drawing_with_too_many_or_too_few_shapes() -> None:
    five = check_artbox_drawing(strokes_from_xy([*four_shapes(), ellipse(cx=1300, cy=200,
                                                                          rx=90, ry=90)]), ROLL)
    assert (five.legal, five.reason_key, five.params["count"]) == (False, "drawing.count", 5)
    assert five.extra == (Shape.CIRCLE,) and five.missing == ()
    three = check_artbox_drawing(strokes_from_xy(four_shapes()[:3]), ROLL)
    assert (three.legal, three.missing) == (False, (Shape.LINE,))
    assert three.reason.startswith("Exactly 4 shapes are needed; this drawing has 3:")


def test_artbox_a_drawing_with_a_part_that_is_no_shape() -> None:
    drawing = [*four_shapes()[:3], arc(1300, 200, 150, 0, 3)]
    verdict = check_artbox_drawing(strokes_from_xy(drawing), ROLL)
    assert (verdict.legal, verdict.reason_key) == (False, "drawing.unrecognised")
    assert [v.reason_key for v in verdict.unrecognised] == ["not.open_curve"]
    assert verdict.reason == "Parts of the drawing that are none of the shapes: 1."


def test_artbox_an_empty_drawing_and_a_bad_roll() -> None:
    assert check_artbox_drawing([], ROLL).reason_key == "drawing.empty"
    with pytest.raises(BadRoll):
        check_artbox_drawing([], ROLL[:3])
    with pytest.raises(ValueError):
        check_artbox_drawing([], ["circle", "square", "triangle", "line"])  # type: ignore[list-item]


# --- Reasons and views ------------------------------------------------------------------


def test_every_reason_reads_in_english_and_in_czech() -> None:
    params: dict[str, int | float | str | tuple[str, ...]] = {
        "lines": 3, "curves": 1, "dots": 0, "count": 2, "corners": 5, "points": 2,
        "shape": "square",
        "found": ("circle", "line"), "missing": ("triangle",), "extra": ("square",), "max": 4000,
    }
    for key, (english, czech) in REASONS.items():
        assert english and czech and english != czech, key
        for lang in ("en", "cs"):
            text = reason_text(key, params, lang)
            assert "{" not in text and text.endswith("."), (key, lang, text)


def test_czech_counts_agree_with_their_numbers() -> None:
    def said(lines: int, curves: int = 0) -> str:
        return reason_text("sheet.too_many", {"lines": lines, "curves": curves}, "cs")

    assert said(3).endswith("jsou 3 čáry.")
    assert said(5).endswith("je 5 čar.")
    assert said(0, 2).endswith("jsou 2 křivky.")
    assert said(1, 1).endswith("jsou 1 čára a 1 křivka.")


def test_verdicts_go_into_a_view_as_json() -> None:
    drawing = strokes_from_xy(four_shapes())
    for verdict in (check_broad_lines_sheet(drawing), check_artbox_drawing(drawing, ROLL),
                    recognise_shapes(drawing)[0]):
        raw = json.loads(json.dumps(verdict.to_json()))
        assert raw["reason"] == verdict.reason and raw["reason_key"] == verdict.reason_key


# --- Properties -------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


SHAPE_KINDS: Final = (
    "circle", "ellipse", "rectangle", "triangle", "line", "angle", "arc", "s-curve")
NOT_FOUR_SIDED: Final = tuple(k for k in SHAPE_KINDS if k != "rectangle")


@st.composite
def drawn_shapes(
    draw: st.DrawFn, step: float = 6.0, kinds: tuple[str, ...] = SHAPE_KINDS
) -> Pts:
    """A shape of one of `kinds` well inside its class, centred on the origin, 400-900
    units across, with a point every `step` units."""
    kind = draw(st.sampled_from(kinds))
    size = draw(st.floats(400, 900))
    if kind == "circle":
        return ellipse(0, 0, size / 2, size / 2, turns=draw(st.floats(0.95, 1.06)),
                       start=draw(st.floats(0, 6.28)), step=step)
    if kind == "ellipse":
        return ellipse(0, 0, size / 2, size / 2 / draw(st.floats(1.2, 2.5)),
                       start=draw(st.floats(0, 6.28)), step=step)
    if kind == "rectangle":
        w, h = size / 2, size / 2 / draw(st.floats(1.0, 3.0))
        start = draw(st.integers(0, 3))
        corners = [(-w, -h), (w, -h), (w, h), (-w, h)]
        corners = corners[start:] + corners[:start]
        return along([*corners, corners[0]], step)
    if kind == "triangle":
        a = draw(st.floats(-0.3, 0.3))
        b = draw(st.floats(1.7, 2.4))
        c = draw(st.floats(3.8, 4.5))
        r = size / 2
        pts = [(r * math.cos(t), r * math.sin(t)) for t in (a, b, c)]
        return along([*pts, pts[0]], step)
    if kind == "line":
        return along([(-size / 2, 0), (size / 2, draw(st.floats(-0.3, 0.3)) * size)], step)
    if kind == "angle":
        spread = draw(st.floats(0.5, 2.0))  # radians between the arms
        arm = size / 2
        return along([(arm * math.cos(spread), arm * math.sin(spread)), (0, 0), (arm, 0)], step)
    if kind == "arc":
        return arc(0, 0, size / 2, 0, draw(st.floats(1.0, 4.0)), step)
    r = size / 4
    return arc(0, -r, r, math.pi, 2.5 * math.pi, step) + arc(
        0, r, r, 1.5 * math.pi, 0.5 * math.pi, step)[1:]


def placed(points: Pts, angle: float, scale: float, dx: float, dy: float) -> Pts:
    c, s = math.cos(angle), math.sin(angle)
    return [(800 + dx + scale * (x * c - y * s), 500 + dy + scale * (x * s + y * c))
            for x, y in points]


Reading = tuple[object, ...]


def reading(points: Pts) -> Reading:
    """Everything a game decides from one stroke. (Whether a curve has a straight stretch,
    MIXED rather than CURVE, decides nothing: both count as one curve; on a long ellipse
    the flat of a side may or may not be read as one.)"""
    stroke = stroke_from_xy(points)
    figure = classify_stroke(stroke)
    broad = check_broad_lines_sheet([stroke])
    kind = FigureKind.CURVE if figure.kind is FigureKind.MIXED else figure.kind
    return (kind, figure.closed, figure.lines, figure.curves, figure.changes_bend,
            figure.crosses_itself, broad.legal, broad.reason_key,
            tuple(v.shape for v in recognise_shapes([stroke])))


@PROPERTY_SETTINGS
@given(drawn_shapes(), st.integers(0, 3), st.floats(-0.4, 0.4), st.floats(0.7, 1.4),
       st.floats(-150, 150), st.floats(-100, 100))
def test_rotation_scale_and_translation_do_not_change_the_verdict(
    points: Pts, quarter: int, tilt: float, scale: float, dx: float, dy: float
) -> None:
    # Turned by quarters and up to 23 degrees more: a four-sided figure turned further
    # stands on its tip, a diamond (TIP_ANGLE), so the whole circle is for the others.
    angle = quarter * math.pi / 2 + tilt
    assert reading(placed(points, angle, scale, dx, dy)) == reading(placed(points, 0, 1, 0, 0))


@PROPERTY_SETTINGS
@given(drawn_shapes(kinds=NOT_FOUR_SIDED), st.floats(0, 2 * math.pi))
def test_any_turn_leaves_a_figure_of_other_than_four_sides_as_it_was(
    points: Pts, angle: float
) -> None:
    assert reading(placed(points, angle, 1, 0, 0)) == reading(placed(points, 0, 1, 0, 0))


@PROPERTY_SETTINGS
@given(drawn_shapes(), st.floats(0, 2 * math.pi))
def test_reversing_a_stroke_does_not_change_the_verdict(points: Pts, angle: float) -> None:
    forwards = placed(points, angle, 1, 0, 0)
    assert reading(forwards[::-1]) == reading(forwards)


@PROPERTY_SETTINGS
@given(drawn_shapes(step=3.0), st.floats(0, 2 * math.pi), st.integers(0, 2**32 - 1))
def test_jitter_within_tolerance_does_not_change_the_verdict(
    points: Pts, angle: float, seed: int
) -> None:
    # The simplification tolerance is 1.5 % of the size, at least 4 units: 6 units here.
    rng = random.Random(seed)
    base = placed(points, angle, 1, 0, 0)
    jittered = [(x + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5)) for x, y in base]
    # Touch screens deliver points out of order now and then: swap some neighbours.
    for _ in range(len(jittered) // 10):
        k = rng.randrange(1, len(jittered) - 2)
        jittered[k], jittered[k + 1] = jittered[k + 1], jittered[k]
    assert reading(jittered) == reading(base)


def _bowed(tips: Sequence[tuple[float, float]], bow: float) -> Pts:
    """A closed stroke through `tips`, from the first, each side bowing out by `bow` of
    its chord (away from (800, 500))."""
    out: Pts = []
    for (x0, y0), (x1, y1) in pairwise([*tips, tips[0]]):
        chord = math.dist((x0, y0), (x1, y1))
        nx, ny = (y1 - y0) / chord, -(x1 - x0) / chord
        if nx * ((x0 + x1) / 2 - 800) + ny * ((y0 + y1) / 2 - 500) < 0:
            nx, ny = -nx, -ny
        n = round(chord / 6)
        out += [(x0 + (x1 - x0) * i / n + nx * bow * chord * 4 * i / n * (1 - i / n),
                 y0 + (y1 - y0) * i / n + ny * bow * chord * 4 * i / n * (1 - i / n))
                for i in range(n)]
    out.append(tips[0])
    return out


def test_a_closed_curves_points_are_read_finer_than_its_outline() -> None:
    # A lozenge with tips of 60 degrees, its sides bowing out by 8 %: its outline reads
    # as an oval (its tips turn by 85 degrees, within the corner window as much as an
    # oval's ends), its stroke turns at 2 points (the blunt tips, 25 degrees, are none),
    # whether drawn from a sharp tip (the seam) or a blunt one.
    half = 300 * math.tan(math.radians(30))
    tips = [(1100.0, 500.0), (800.0, 500 + half), (500.0, 500.0), (800.0, 500 - half)]
    for first in (0, 1):
        stroke = stroke_from_xy(_bowed(tips[first:] + tips[:first], 0.08))
        figure = classify_stroke(stroke)
        assert figure.closed and figure.curves and figure.tips == 2, figure
        assert recognise_shapes([stroke])[0].reason_key == "not.corners"
        sheet = check_broad_lines_sheet([stroke])
        assert (sheet.legal, sheet.reason_key, sheet.params["points"]) == (
            False, "sheet.points", 2), sheet.reason
    # A circle and an ellipse of 3:1 have none, from wherever they are drawn.
    for outline in (ellipse(), ellipse(rx=450, ry=150, start=0.0),
                    ellipse(rx=450, ry=150, start=math.pi / 3)):
        stroke = stroke_from_xy(outline)
        assert classify_stroke(stroke).tips == 0
        assert recognise_shapes([stroke])[0].shape is Shape.CIRCLE


def test_a_curve_refused_for_its_points_names_at_least_as_many_corners() -> None:
    # The reason counts what a person sees: where the outline has rounded the points off
    # (no corners left on it), the refusal still names them, never "0 corners". Lozenges
    # and circles drawn with a fast wobble (2 of those 400 have 2-3 such points and no
    # corner on their outline).
    from tests.test_geometry_person import lozenge, wobbly_circle

    checked = 0
    for make in (lozenge, wobbly_circle):
        for seed in range(400):
            for verdict in recognise_shapes(make(random.Random(seed))):
                figure = verdict.figure
                if verdict.reason_key == "not.corners" and figure is not None and figure.tips:
                    named = verdict.params["corners"]
                    assert isinstance(named, int) and named >= max(2, figure.tips), (
                        seed, verdict)
                    checked += 1
    assert checked >= 150
