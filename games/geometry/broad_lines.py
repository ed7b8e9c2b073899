"""Broad Lines: a sheet holds at most 2 straight lines, or exactly 1 curve that keeps one
direction of bend and does not cross itself (a closed one is a circle or an oval, without
points). An angle drawn in one stroke is 2 lines (but two arcs meeting wide at a cusp are
one curve that changes its bend); a line drawn to and fro along itself 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Final

from games.geometry.figures import (
    Figure,
    FigureKind,
    Trace,
    chain_figure,
    drawn_back_along,
    open_corners,
    points_of,
    simplify_stroke,
    single_figure,
    stroke_links,
)
from games.geometry.polyline import cumulative, points_at, stays_near, turn_between
from games.geometry.reasons import JSON, Reasoned
from games.geometry.tolerances import (
    CORNER_ANGLE,
    CUSP_TURN,
    LINE_TOLERANCE,
    MAX_STROKE_POINTS,
    OUTLINE_FRACTION,
    POLYGON_CORNER_ANGLE,
    SIMPLIFY_FLOOR,
)
from games.sheet import Stroke


@dataclass(frozen=True)
class SheetVerdict(Reasoned):
    """Broad Lines: may this sheet go on the easel, and why (or why not)."""

    legal: bool = True
    figures: tuple[Figure, ...] = ()
    lines: int = 0
    curves: int = 0
    dots: int = 0

    def to_json(self) -> dict[str, JSON]:
        return {
            "legal": self.legal, **self._reason_json(), "lines": self.lines,
            "curves": self.curves, "dots": self.dots,
            "figures": [f.to_json() for f in self.figures],
        }


def _sheet_figures(traces: Sequence[Trace]) -> list[Figure]:
    """Each stroke's figure, with open strokes whose ends meet joined into one figure
    (nearest ends first, each end used once)."""
    singles = [single_figure(i, t) for i, t in enumerate(traces)]
    joinable = [
        i for i, f in enumerate(singles)
        if f.kind is not FigureKind.DOT and not f.closed and not f.unjudged
    ]
    partner: dict[tuple[int, int], tuple[int, int]] = {}
    for _, a, ea, b, eb in stroke_links(traces, joinable):
        if (a, ea) not in partner and (b, eb) not in partner:
            partner[(a, ea)] = (b, eb)
            partner[(b, eb)] = (a, ea)
    figures: list[Figure] = []
    seen: set[int] = set()

    def follow(first: int, entry: int) -> tuple[list[tuple[int, bool]], bool]:
        chain: list[tuple[int, bool]] = []
        stroke, end_in = first, entry
        while True:
            seen.add(stroke)
            chain.append((stroke, end_in == 1))  # entered by its end: walk it backwards
            nxt = partner.get((stroke, 1 - end_in))
            if nxt is None:
                return chain, False
            if nxt[0] == first:
                return chain, True
            stroke, end_in = nxt

    def add(chain: list[tuple[int, bool]], cycle: bool) -> None:
        if cycle and len(chain) == 2 and all(
                singles[i].kind is FigureKind.LINE for i, _ in chain):
            # Two straight lines go round no loop: drawn side by side, end by end, they
            # are two lines (not a sliver of a closed curve).
            figures.extend(singles[i] for i, _ in chain)
            return
        joined = chain_figure(traces, chain, cycle) if len(chain) > 1 else None
        if joined is None or joined.kind is FigureKind.DOT:  # strokes that cancel out
            figures.extend(singles[i] for i, _ in chain)
        elif joined.curves and (lines := _straight_chain_lines(traces, singles, chain, cycle)):
            # Straight strokes meeting at corners are straight lines, however gently each
            # corner turns (an open hexagon drawn a side a stroke turns by 30-45 degrees
            # at its joints, too little for a corner of the joined figure).
            figures.append(replace(joined, kind=FigureKind.LINES, lines=lines, curves=0,
                                   bend_reversal=0.0))
        else:
            figures.append(joined)

    for i in joinable:  # chains start at a stroke with a free end
        if i in seen:
            continue
        for end in (0, 1):
            if (i, end) not in partner:
                add(*follow(i, end))
                break
    for i in joinable:  # what is left goes round in cycles
        if i not in seen:
            add(*follow(i, 0))
    figures.extend(f for i, f in enumerate(singles) if i not in joinable)
    figures.sort(key=lambda f: f.strokes)
    return figures


def _straight_chain_lines(
    traces: Sequence[Trace], singles: Sequence[Figure], chain: Sequence[tuple[int, bool]],
    cycle: bool,
) -> int:
    """How many straight lines a chain of strokes laid end to start is when every stroke
    is straight on its own and a joint turns by CORNER_ANGLE or more: one more than its
    joints of POLYGON_CORNER_ANGLE (strokes turning less at a joint continue each other:
    a line drawn in two goes); 0 otherwise (an arc drawn in short goes, each straight
    enough alone, turns by as much at each joint as each go turns along its way: a
    quarter circle in three goes by 30 degrees)."""
    if not all(singles[i].kind is FigureKind.LINE for i, _ in chain):
        return 0
    chords = []
    for i, reverse in chain:
        xs, ys = traces[i].xs, traces[i].ys
        dx, dy = xs[-1] - xs[0], ys[-1] - ys[0]
        chords.append((-dx, -dy) if reverse else (dx, dy))
    pairs = list(pairwise([*chords, chords[0]] if cycle else chords))
    turns = [abs(turn_between(*a, *b)) for a, b in pairs]
    if max(turns) < math.radians(CORNER_ANGLE):
        return 0
    corners = sum(t >= math.radians(POLYGON_CORNER_ANGLE) for t in turns)
    return corners if cycle else corners + 1


_AGAIN_BUDGET: Final = 64
"""Pairs of a straight stroke and a polygon compared on one sheet, at most (a sheet is
refused once it has 3 lines; this only makes its count the one a person gives)."""


def _sides_drawn_again(figures: Sequence[Figure]) -> int:
    """How many straight strokes lie along a side of a figure of 3 straight lines or more
    (within OUTLINE_FRACTION of its size): a side drawn again."""
    polygons = [f for f in figures if f.lines >= 3 and not f.curves and f.box is not None]
    if not polygons:
        return 0
    again = 0
    compared = 0
    for f in figures:
        if f.kind is not FigureKind.LINE or len(f.strokes) != 1 or f.box is None:
            continue
        xs = [p[0] for p in f.outline]
        ys = [p[1] for p in f.outline]
        cum = cumulative(xs, ys)
        px, py = points_at(xs, ys, cum, [cum[-1] * k / 4 for k in range(5)])
        for g in polygons:
            compared += 1
            if compared > _AGAIN_BUDGET:
                return again
            near = max(OUTLINE_FRACTION * g.size, 2 * SIMPLIFY_FLOOR)
            box = g.box
            if box is None or (min(px) < box[0] - near or max(px) > box[2] + near
                    or min(py) < box[1] - near or max(py) > box[3] + near):
                continue
            if stays_near(px, py, [p[0] for p in g.outline], [p[1] for p in g.outline], near):
                again += 1
                break
    return again


def _bow_into(xs: Sequence[float], ys: Sequence[float], side: float) -> float:
    """How far a stretch of outline strays from its chord to the `side` (+1: left of its
    way), as a fraction of the chord's length (negative when it bows the other way)."""
    x0, y0, x1, y1 = xs[0], ys[0], xs[-1], ys[-1]
    dx, dy = x1 - x0, y1 - y0
    chord2 = dx * dx + dy * dy
    if chord2 <= 0:
        return 0.0
    far = max(((x - x0) * -dy + (y - y0) * dx for x, y in zip(xs, ys, strict=True)),
              key=abs)
    return side * far / chord2


def _arcs_at_a_cusp(figure: Figure) -> Figure:
    """An angle of two arms drawn in one stroke (an open figure of 2 straight pieces)
    whose corner turns by CUSP_TURN degrees or less and whose arms both bow into the
    corner by more than LINE_TOLERANCE of their chords, read as what it is: one curve
    whose bend turns back at a cusp (each arm turns one way along its way, the corner the
    other); any other figure as it was. Linear in its outline."""
    if (figure.kind is not FigureKind.LINES or figure.closed or len(figure.pieces) != 2
            or len(figure.corners) != 1 or len(figure.strokes) != 1):
        # Strokes joined end to end are judged as straight strokes at their joints.
        return figure
    outline = figure.outline
    try:
        k = outline.index(figure.corners[0])
    except ValueError:
        return figure
    if not 0 < k < len(outline) - 1:
        return figure
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    turn = turn_between(xs[k] - xs[0], ys[k] - ys[0], xs[-1] - xs[k], ys[-1] - ys[k])
    if abs(turn) > math.radians(CUSP_TURN):
        return figure
    side = math.copysign(1.0, turn)  # the inside of the angle is to the side it turns to
    bows = (_bow_into(xs[:k + 1], ys[:k + 1], side), _bow_into(xs[k:], ys[k:], side))
    if min(bows) <= LINE_TOLERANCE:
        return figure
    # The bend turns back at the cusp by the corner's turn and as much as each arm's
    # ends depart from its chord there (atan(4 * bow) for an arc).
    reversal = math.degrees(abs(turn) + sum(math.atan(4 * b) for b in bows))
    return replace(figure, kind=FigureKind.CURVE, lines=0, curves=1,
                   bend_reversal=max(figure.bend_reversal, reversal))


def check_broad_lines_sheet(strokes: Sequence[Stroke]) -> SheetVerdict:
    """Broad Lines: a sheet may hold at most 2 straight lines, or exactly 1 curve that
    keeps one direction of bend and does not cross itself. An angle drawn in one stroke
    is 2 straight lines; strokes whose ends meet are read as one figure."""
    # Two arcs meeting wide at a cusp are one curve, not an angle of 2 lines.
    figures = tuple(_arcs_at_a_cusp(f)
                    for f in _sheet_figures([simplify_stroke(s) for s in strokes]))
    # A line drawn there and back (or to and fro) along itself is one line, as in ArtBox.
    lines = sum(1 if drawn_back_along(f) else f.lines for f in figures)
    if lines > 2:
        # A side of a polygon drawn again is no line of its own (a square with a side
        # drawn twice has 4 lines, not 5). Only where the sheet is refused anyway, so
        # that two lines drawn over each other stay 2 lines, as a person counts them.
        lines -= _sides_drawn_again(figures)
    curves = sum(f.curves for f in figures)
    dots = sum(f.kind is FigureKind.DOT for f in figures)
    params: dict[str, int | float | str | tuple[str, ...]] = {
        "lines": lines, "curves": curves, "dots": dots,
    }

    def verdict(legal: bool, key: str) -> SheetVerdict:
        return SheetVerdict(key, params, legal, figures, lines, curves, dots)

    if not figures:
        return verdict(True, "sheet.empty")
    unjudged = [f.unjudged for f in figures if f.unjudged]
    if unjudged:
        params["max"] = MAX_STROKE_POINTS
        return verdict(False, "sheet.too_long" if "too_long" in unjudged else "sheet.tangled")
    if dots:
        return verdict(False, "sheet.dot")
    if curves == 0:
        return verdict(lines <= 2, "sheet.lines" if lines <= 2 else "sheet.too_many")
    if curves > 1 or lines:
        return verdict(False, "sheet.too_many")
    curve = next(f for f in figures if f.curves)
    params["bend_reversal"] = curve.bend_reversal
    params["crossings"] = curve.crossings
    if curve.crosses_itself:
        return verdict(False, "sheet.crosses_itself")
    if curve.changes_bend:
        return verdict(False, "sheet.changes_bend")
    if (points := points_of(curve)) >= 2:
        # The rules: "a closed curve, that is, a circle or an oval". A lemon, a "D", a
        # hexagon squashed flat, a lozenge have points: no oval.
        params["points"] = points
        return verdict(False, "sheet.points")
    if (corners := open_corners(curve)) >= 2:
        # An open curve turning at corners is stretches joined at them (an octagon left
        # open and drawn round), not one curve.
        params["points"] = corners
        return verdict(False, "sheet.corners")
    return verdict(True, "sheet.curve")
