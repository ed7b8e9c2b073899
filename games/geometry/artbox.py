"""ArtBox: recognise the shapes of a drawing (circle, square, triangle, straight line, or
none of them) and check that they are exactly the 4 shapes rolled on the dice.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from games.geometry.figures import (
    Figure,
    FigureKind,
    GeometryError,
    Trace,
    chain_figure,
    simplify_stroke,
    single_figure,
    stroke_links,
)
from games.geometry.polyline import XY, cumulative, points_at, stays_near, turn_between
from games.geometry.reasons import JSON, Reasoned
from games.geometry.tolerances import (
    ELLIPSE_TOLERANCE,
    OUTLINE_FRACTION,
    RIGHT_ANGLE_TOLERANCE,
    SIMPLIFY_FLOOR,
)
from games.sheet import Stroke


class BadRoll(GeometryError):
    """The rolled shapes are not 4 shapes."""


class Shape(Enum):
    """The shapes on ArtBox's dice."""

    CIRCLE = "circle"
    SQUARE = "square"
    TRIANGLE = "triangle"
    LINE = "line"


@dataclass(frozen=True)
class ShapeVerdict(Reasoned):
    """ArtBox: one recognised shape, or one part of the drawing that is no shape."""

    shape: Shape | None = None
    strokes: tuple[int, ...] = ()
    figure: Figure | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, JSON]:
        return {
            "shape": self.shape.value if self.shape else None, "strokes": list(self.strokes),
            **self._reason_json(),
        }


@dataclass(frozen=True)
class DrawingVerdict(Reasoned):
    """ArtBox: does the drawing use exactly the rolled shapes, and what it was made of."""

    legal: bool = True
    shapes: tuple[ShapeVerdict, ...] = ()
    """Every part of the drawing: the recognised shapes and those that are no shape."""
    found: tuple[Shape, ...] = ()
    rolled: tuple[Shape, ...] = ()
    missing: tuple[Shape, ...] = ()
    extra: tuple[Shape, ...] = ()
    unrecognised: tuple[ShapeVerdict, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        return {
            "legal": self.legal, **self._reason_json(),
            "shapes": [v.to_json() for v in self.shapes],
            **{name: [s.value for s in getattr(self, name)]
               for name in ("found", "rolled", "missing", "extra")},
        }


def _ellipse_misfit(outline: Sequence[XY]) -> float:
    """Mean relative distance (by length) of a closed outline from the ellipse with the
    same area moments: 0 for an ellipse, 0.14 for a half disc, 0.16 for a square, 0.33 for
    a triangle."""
    n = len(outline) - 1  # the last point repeats the first
    ox = sum(p[0] for p in outline[:n]) / n
    oy = sum(p[1] for p in outline[:n]) / n
    xs = [p[0] - ox for p in outline]
    ys = [p[1] - oy for p in outline]
    area = sx = sy = sxx = syy = sxy = 0.0
    for k in range(n):
        x0, y0, x1, y1 = xs[k], ys[k], xs[k + 1], ys[k + 1]
        c = x0 * y1 - x1 * y0
        area += c
        sx += (x0 + x1) * c
        sy += (y0 + y1) * c
        sxx += (x0 * x0 + x0 * x1 + x1 * x1) * c
        syy += (y0 * y0 + y0 * y1 + y1 * y1) * c
        sxy += (x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * c
    area /= 2
    if abs(area) < 1e-9:
        return math.inf
    cx = sx / (6 * area)
    cy = sy / (6 * area)
    # Second moments about the centroid, per unit area (Green's theorem).
    vxx = sxx / (12 * area) - cx * cx
    vyy = syy / (12 * area) - cy * cy
    vxy = sxy / (24 * area) - cx * cy
    det = vxx * vyy - vxy * vxy
    if det <= 0:
        return math.inf
    # A filled ellipse with this covariance has its rim at Mahalanobis distance 2.
    ixx, iyy, ixy = vyy / (4 * det), vxx / (4 * det), -vxy / (4 * det)

    def misfit(x: float, y: float) -> float:
        dx = x - cx
        dy = y - cy
        return abs(math.sqrt(dx * dx * ixx + 2 * dx * dy * ixy + dy * dy * iyy) - 1)

    # Simpson's rule along each segment: the outline, not just its vertices, is measured.
    weighted = 0.0
    perimeter = 0.0
    ends = [misfit(xs[k], ys[k]) for k in range(n + 1)]
    for k in range(n):
        length = math.hypot(xs[k + 1] - xs[k], ys[k + 1] - ys[k])
        middle = misfit((xs[k] + xs[k + 1]) / 2, (ys[k] + ys[k + 1]) / 2)
        weighted += length * (ends[k] + 4 * middle + ends[k + 1]) / 6
        perimeter += length
    return weighted / perimeter if perimeter else math.inf


def _polygon_verdict(figure: Figure, strokes: tuple[int, ...]) -> ShapeVerdict | None:
    """A triangle or a square when the figure's sides (between its corners) are straight
    enough; None when it is not a three- or four-sided figure."""
    pieces = figure.pieces
    if figure.kind is not FigureKind.LINES or len(pieces) not in (3, 4):
        return None
    turns = [
        math.degrees(abs(turn_between(
            a.end[0] - a.start[0], a.end[1] - a.start[1],
            b.end[0] - b.start[0], b.end[1] - b.start[1],
        )))
        for a, b in zip(pieces, (*pieces[1:], pieces[0]), strict=True)
    ]
    params: dict[str, int | float | str | tuple[str, ...]] = {
        "turns": tuple(f"{t:.0f}" for t in turns),
        "deviation": round(max(p.deviation for p in pieces), 3),
    }
    shape = Shape.TRIANGLE if len(pieces) == 3 else Shape.SQUARE
    if shape is Shape.SQUARE and any(abs(t - 90) > RIGHT_ANGLE_TOLERANCE for t in turns):
        return ShapeVerdict("not.rectangle", params, None, strokes, figure)
    return ShapeVerdict(f"shape.{shape.value}", params, shape, strokes, figure)


def _shape_verdicts(figure: Figure) -> list[ShapeVerdict]:
    """What one figure counts as in ArtBox (an angle drawn in one go is 2 lines)."""
    strokes = figure.strokes

    def no(key: str, **params: int | float | str | tuple[str, ...]) -> list[ShapeVerdict]:
        return [ShapeVerdict(key, params, None, strokes, figure)]

    if figure.kind is FigureKind.DOT:
        return no("not.dot")
    if figure.crosses_itself:
        return no("not.crosses_itself", crossings=figure.crossings)
    if not figure.closed:
        if figure.kind is FigureKind.LINE:
            return [ShapeVerdict("shape.line", {}, Shape.LINE, strokes, figure)]
        if figure.kind is FigureKind.LINES:
            return [
                ShapeVerdict("shape.line_of_several", {"count": figure.lines}, Shape.LINE,
                             strokes, figure)
                for _ in range(figure.lines)
            ]
        return no("not.mixed" if figure.kind is FigureKind.MIXED else "not.open_curve")
    polygon = _polygon_verdict(figure, strokes)
    if polygon is not None:
        return [polygon]
    misfit = _ellipse_misfit(figure.outline)
    if misfit <= ELLIPSE_TOLERANCE and not figure.changes_bend:
        return [ShapeVerdict("shape.circle", {"misfit": round(misfit, 3)}, Shape.CIRCLE,
                             strokes, figure)]
    if figure.kind is FigureKind.LINES:
        return no("not.corners", corners=len(figure.corners))
    return no("not.round", misfit=round(misfit, 3))


_CLOSED_SHAPES: Final = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE)


_MAX_JOINED: Final = 4


def _cycles(traces: Sequence[Trace], joinable: Sequence[int]) -> list[
    tuple[float, list[tuple[int, bool]]]
]:
    """Every way 2 to 4 open strokes go round end to end, with the sum of their gaps."""
    meets: dict[tuple[int, int], list[tuple[float, int, int]]] = {}
    for d, a, ea, b, eb in stroke_links(traces, joinable):
        meets.setdefault((a, ea), []).append((d, b, eb))
        meets.setdefault((b, eb), []).append((d, a, ea))
    found: list[tuple[float, list[tuple[int, bool]]]] = []

    def walk(chain: list[tuple[int, bool]], used: set[int], out_end: tuple[int, int],
             gaps: float) -> None:
        first, first_reversed = chain[0]
        first_in = (first, 1 if first_reversed else 0)
        for d, b, eb in meets.get(out_end, ()):
            if (b, eb) == first_in and len(chain) >= 2:
                found.append((gaps + d, list(chain)))
            elif b not in used and b > first and len(chain) < _MAX_JOINED:
                chain.append((b, eb == 1))
                used.add(b)
                walk(chain, used, (b, 1 - eb), gaps + d)
                used.discard(b)
                chain.pop()

    for a in joinable:
        walk([(a, False)], {a}, (a, 1), 0.0)
    # Each cycle was found once in each direction: keep one.
    unique: dict[tuple[int, ...], tuple[float, list[tuple[int, bool]]]] = {}
    for gaps, chain in found:
        key = tuple(sorted(i for i, _ in chain))
        if key not in unique or gaps < unique[key][0]:
            unique[key] = (gaps, chain)
    return sorted(unique.values(), key=lambda item: (item[0], [i for i, _ in item[1]]))


def recognise_shapes(strokes: Sequence[Stroke]) -> tuple[ShapeVerdict, ...]:
    """ArtBox: each shape of a drawing, in the order of its first stroke.

    A shape is usually one stroke. Open strokes whose ends meet round a loop (2 to 4 of
    them, nearest ends first, overshoots cut off) are read together, and count as one
    circle, square or triangle when that is what they make; otherwise each counts alone,
    so one drawn shape never counts twice and a line is never part of a square.
    """
    traces = [simplify_stroke(s) for s in strokes]
    singles = [single_figure(i, t) for i, t in enumerate(traces)]
    joinable = [i for i, f in enumerate(singles) if f.kind is not FigureKind.DOT and not f.closed]
    used: set[int] = set()
    verdicts: list[ShapeVerdict] = []
    for _, chain in _cycles(traces, joinable):
        if any(i in used for i, _ in chain):
            continue
        figure = chain_figure(traces, chain, cycle=True)
        found = _shape_verdicts(figure)
        if len(found) == 1 and found[0].shape in _CLOSED_SHAPES:
            shape = found[0].shape
            assert shape is not None
            params = {**found[0].params, "shape": shape.value, "count": len(chain)}
            verdicts.append(ShapeVerdict("shape.joined", params, shape, figure.strokes, figure))
            used.update(i for i, _ in chain)
    for i, figure in enumerate(singles):
        if i not in used:
            verdicts.extend(_shape_verdicts(figure))
    verdicts.sort(key=lambda v: v.strokes)
    return tuple(_drawn_over(verdicts))


def _drawn_over(verdicts: list[ShapeVerdict]) -> list[ShapeVerdict]:
    """A straight stroke drawn along the outline of another shape (a side of the square
    drawn again, a line over a line) shows nothing new: it is no shape of its own."""
    out: list[ShapeVerdict] = []
    for index, verdict in enumerate(verdicts):
        figure = verdict.figure
        if verdict.shape is Shape.LINE and figure is not None and figure.kind is FigureKind.LINE:
            xs = [p[0] for p in figure.outline]
            ys = [p[1] for p in figure.outline]
            cum = cumulative(xs, ys)
            probes = points_at(xs, ys, cum, [cum[-1] * k / 4 for k in range(5)])
            for other_index, other in enumerate(verdicts):
                under = other.figure
                if (under is None or under is figure or other.shape is None
                        or (other.shape is Shape.LINE and other_index > index)):
                    continue
                near = max(OUTLINE_FRACTION * under.size, 2 * SIMPLIFY_FLOOR)
                ux = [p[0] for p in under.outline]
                uy = [p[1] for p in under.outline]
                if stays_near(*probes, ux, uy, near):
                    verdict = ShapeVerdict("not.drawn_over", {"shape": other.shape.value},
                                           None, verdict.strokes, figure)
                    break
        out.append(verdict)
    return out


def _multiset_minus(a: Sequence[Shape], b: Sequence[Shape]) -> tuple[Shape, ...]:
    left = Counter(a) - Counter(b)
    return tuple(s for s in Shape for _ in range(left[s]))


def check_artbox_drawing(strokes: Sequence[Stroke], rolled: Sequence[Shape]) -> DrawingVerdict:
    """ArtBox: whether a drawing is made of exactly the 4 rolled shapes, and of what."""
    if len(rolled) != 4 or not all(isinstance(s, Shape) for s in rolled):
        raise BadRoll(f"ArtBox rolls 4 shapes, not {list(rolled)!r}")
    shapes = recognise_shapes(strokes)
    found = tuple(s for kind in Shape for v in shapes if (s := v.shape) is kind)
    rolled_sorted = tuple(s for kind in Shape for s in rolled if s is kind)
    unrecognised = tuple(v for v in shapes if v.shape is None)
    missing = _multiset_minus(rolled_sorted, found)
    extra = _multiset_minus(found, rolled_sorted)
    names = tuple(s.value for s in found)
    params: dict[str, int | float | str | tuple[str, ...]] = {
        "found": names,
        "count": len(found),
        "missing": tuple(s.value for s in missing),
        "extra": tuple(s.value for s in extra),
    }
    if not strokes:
        key = "drawing.empty"
    elif unrecognised:
        key = "drawing.unrecognised"
        params["count"] = len(unrecognised)
    elif len(found) != 4:
        key = "drawing.count"
    elif missing or extra:
        key = "drawing.not_rolled"
    else:
        key = "drawing.ok"
    return DrawingVerdict(
        key, params, key == "drawing.ok", shapes, found, rolled_sorted, missing, extra,
        unrecognised,
    )
