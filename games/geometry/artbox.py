"""ArtBox: recognise the shapes of a drawing (circle, square, triangle, straight line, or
none of them) and check that they are exactly the 4 shapes rolled on the dice.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from heapq import nlargest
from operator import attrgetter
from typing import Final

from games.geometry import figures
from games.geometry.bows import even_bow
from games.geometry.figures import (
    Crowded,
    Figure,
    FigureKind,
    GeometryError,
    Link,
    Piece,
    Trace,
    chain_as_drawn,
    chain_figure,
    closed_across_its_gap,
    drawn_back_along,
    drawn_to_and_fro,
    fine_points,
    points_of,
    remember,
    simplify_stroke,
    single_figure,
    sparse_round,
    stroke_links,
    tolerance_for,
    without_knots,
)
from games.geometry.polyline import (
    XY,
    cumulative,
    points_at,
    signed_area,
    stays_near,
    turn_between,
)
from games.geometry.quarters import four_tips
from games.geometry.reasons import JSON, Reasoned
from games.geometry.tolerances import (
    BEND_REVERSAL,
    BOWED_SIDE,
    CLOSE_GAP,
    DASH_ANGLE,
    DASH_ASIDE,
    DASH_GAP,
    DASH_OVERLAP,
    DASH_READ,
    DASH_STROKES,
    ELLIPSE_TOLERANCE,
    EVEN_BOW,
    JOIN_BUDGET,
    JOIN_VERTICES,
    LINE_TOLERANCE,
    LOZENGE_POINTS,
    MAX_STROKE_POINTS,
    OUTLINE_FRACTION,
    OVERLAP_FRACTION,
    OVERSHOOT_LENGTH,
    OVERSHOOT_NEAR,
    POLYGON_CORNERS,
    QUARTER_SIDE_BEND,
    QUARTER_TIP_ALONE,
    QUARTER_TIP_CORNERS,
    QUARTER_TIP_TURN,
    RHOMBUS_DIAGONALS,
    RHOMBUS_EVEN_SIDES,
    RHOMBUS_SIDES,
    RIGHT_ANGLE_MEAN_TOLERANCE,
    RIGHT_ANGLE_TOLERANCE,
    SIDE_TOLERANCE,
    SIMPLIFY_FLOOR,
    SPARSE_SIDES,
    STRAY_FRACTION,
    TIP_ANGLE,
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
    stray: bool = False
    """A mark a person overlooks: a stroke under STRAY_FRACTION of the whole drawing's
    size (a dot, a tick beside a shape). It adds no shape and takes nothing away, unless
    counting it fits the roll better (a small line that was rolled)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "shape": self.shape.value if self.shape else None, "strokes": list(self.strokes),
            **self._reason_json(), **({"stray": True} if self.stray else {}),
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


def _diamond(pieces: tuple[Piece, ...], even: bool) -> bool:
    """Whether a four-sided figure is a diamond by its diagonals: it stands on its tip
    (its diagonals within TIP_ANGLE of the sheet's upright and level, so within twice
    that of crossing square), whatever its sides; or, with `even` sides, its longer
    diagonal is at least RHOMBUS_DIAGONALS times the shorter, however it stands."""
    a, b, c, d = (p.start for p in pieces)
    first = (c[0] - a[0], c[1] - a[1])
    second = (d[0] - b[0], d[1] - b[1])
    longer, shorter = sorted((first, second), key=lambda v: -math.hypot(*v))
    if math.hypot(*shorter) <= 0:
        return False

    def off_axis(v: tuple[float, float]) -> float:
        slant = math.degrees(math.atan2(abs(v[1]), abs(v[0])))
        return min(slant, 90 - slant)

    if off_axis(longer) <= TIP_ANGLE and off_axis(shorter) <= TIP_ANGLE:
        return True
    return even and math.hypot(*longer) / math.hypot(*shorter) >= RHOMBUS_DIAGONALS


def _polygon_verdict(figure: Figure, strokes: tuple[int, ...]) -> ShapeVerdict | None:
    """A triangle or a square when the figure's sides (between its corners) are straight
    enough; None when it is not a three- or four-sided figure."""
    if figure.kind is not FigureKind.LINES or len(figure.pieces) not in (3, 4):
        return None
    return _sided_verdict(figure, strokes)


def _bowed_square(figure: Figure, strokes: tuple[int, ...]) -> ShapeVerdict | None:
    """A square with one side drawn round: a closed figure of 4 pieces whose sides are
    straight but one, bowing out (the outline holds more than its corners' quadrilateral)
    by at most BOWED_SIDE, read as the square its corners make (a diamond or corners far
    from square stay what they were); None otherwise."""
    bows = [piece.deviation for piece in figure.pieces if piece.deviation > SIDE_TOLERANCE]
    if not figure.closed or len(figure.pieces) != 4 or len(bows) != 1 or bows[0] > BOWED_SIDE:
        return None
    corners = [piece.start for piece in figure.pieces]
    outline = figure.outline
    if abs(signed_area([x for x, _ in outline], [y for _, y in outline])) <= abs(
            signed_area([x for x, _ in corners], [y for _, y in corners])):
        return None  # bowing in: a dent, which a square's side does not make
    verdict = _sided_verdict(figure, strokes)
    return verdict if verdict.shape is Shape.SQUARE else None


def _sided_verdict(figure: Figure, strokes: tuple[int, ...]) -> ShapeVerdict:
    """A figure of 3 or 4 sides as a triangle or a square, or why it is neither (a
    diamond, corners far from right angles)."""
    pieces = figure.pieces
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
    # A rhombus (a diamond) is a shape of its own: four equal sides with every corner off
    # square, its diagonals unequal. A rectangle drawn fast leans over as much, but its
    # sides differ.
    off = [abs(t - 90) for t in turns]
    sides = [math.dist(p.start, p.end) for p in pieces]
    if shape is Shape.SQUARE:
        if (sum(off) / 4 > RIGHT_ANGLE_MEAN_TOLERANCE
                and min(sides) >= RHOMBUS_SIDES * max(sides)) or (
                _diamond(pieces, min(sides) >= RHOMBUS_EVEN_SIDES * max(sides))):
            return ShapeVerdict("not.diamond", params, None, strokes, figure)
        if max(off) > RIGHT_ANGLE_TOLERANCE:
            return ShapeVerdict("not.rectangle", params, None, strokes, figure)
    return ShapeVerdict(f"shape.{shape.value}", params, shape, strokes, figure)


def _shape_verdicts(figure: Figure) -> list[ShapeVerdict]:
    """What one figure counts as in ArtBox (an angle drawn in one go is 2 lines)."""
    strokes = figure.strokes

    def no(key: str, **params: int | float | str | tuple[str, ...]) -> list[ShapeVerdict]:
        return [ShapeVerdict(key, params, None, strokes, figure)]

    if figure.unjudged:
        return no(f"not.{figure.unjudged}", max=MAX_STROKE_POINTS)
    if figure.kind is FigureKind.DOT:
        return no("not.dot")
    if figure.crosses_itself and not drawn_to_and_fro(figure):
        return no("not.crosses_itself", crossings=figure.crossings)
    if not figure.closed:
        if figure.kind is FigureKind.LINE or drawn_back_along(figure):
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
    if figure.kind is FigureKind.LINES and len(figure.corners) >= POLYGON_CORNERS:
        # corners before roundness: a polygon is not a circle
        return no("not.corners", corners=len(figure.corners))
    if figure.changes_bend:
        # A closed curve whose bend reverses (a bean's dent, a heart's notch): no circle,
        # however round the rest of it is.
        return no("not.changes_bend", bend_reversal=figure.bend_reversal, dent=figure.dent)
    bowed = _bowed_square(figure, strokes)
    if bowed is not None:
        # Before the points: a square's corners are points, and one side drawn round
        # makes it no circle either.
        return [bowed]
    if points_of(figure) >= 2:
        # A circle has no points (a lemon, an eye, a hexagon squashed flat, a lozenge's
        # tips read finer than its outline, which its outline may have rounded off).
        return no("not.corners", corners=max(len(figure.corners), figure.tips))
    misfit = _ellipse_misfit(figure.outline)
    if misfit <= ELLIPSE_TOLERANCE:
        return [ShapeVerdict("shape.circle", {"misfit": round(misfit, 3)}, Shape.CIRCLE,
                             strokes, figure)]
    if figure.kind is FigureKind.LINES:
        return no("not.corners", corners=len(figure.corners))
    return no("not.round", misfit=round(misfit, 3))


_CLOSED_SHAPES: Final = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE)


_MAX_JOINED: Final = 4

LINK_BUDGET: Final = 400
"""Pairs of stroke ends that meet in one drawing, at most (real drawings of 15 strokes
have 12 at most; 20 strokes drawn on top of each other, 380): beyond it the drawing is
left to the table ("drawing.crowded"), since what is read from the links (the joinings,
the strokes drawn over others, the ways to read the drawing) grows with their square."""

OVER_BUDGET: Final = 400
"""Pairs of shapes near enough to be compared (does one lie along the other?), at most
(real drawings of up to 15 strokes: 20 at most; 30 circles on top of each other: 435): beyond it the
drawing is left to the table ("drawing.crowded")."""

_MAX_READINGS: Final = 48
"""Ways of reading a drawing (which joinings to take) compared with the roll, at most."""

Chain = list[tuple[int, bool]]


def _cycles(traces: Sequence[Trace], links: Sequence[Link]) -> list[tuple[float, Chain]]:
    """Ways 2 to 4 open strokes go round end to end, with the sum of their gaps, fewest
    gaps first. Each end has at most JOIN_NEIGHBOURS links, so the walk is bounded."""
    meets: dict[tuple[int, int], list[tuple[float, int, int]]] = {}
    for d, a, ea, b, eb in links:
        meets.setdefault((a, ea), []).append((d, b, eb))
        meets.setdefault((b, eb), []).append((d, a, ea))
    found: list[tuple[float, Chain]] = []

    def walk(chain: Chain, used: set[int], out_end: tuple[int, int], gaps: float) -> None:
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

    for a in sorted({a for _, a, _, _, _ in links} | {b for _, _, _, b, _ in links}):
        walk([(a, False)], {a}, (a, 1), 0.0)
    # Each cycle was found once in each direction: keep one.
    unique: dict[tuple[int, ...], tuple[float, Chain]] = {}
    for gaps, chain in found:
        key = tuple(sorted(i for i, _ in chain))
        if key not in unique or gaps < unique[key][0]:
            unique[key] = (gaps, chain)
    return sorted(unique.values(), key=lambda item: (item[0], [i for i, _ in item[1]]))


def _paths(
    traces: Sequence[Trace], links: Sequence[Link], closed: frozenset[int],
    straight: frozenset[int] = frozenset(),
) -> list[tuple[float, Chain]]:
    """Ways 2 to 4 strokes follow each other end to start without the last one meeting
    the first, whose free ends come near each other: a loop whose last gap, overlap or
    overshoot the joined figure judges as a stroke's own (a circle drawn in two goes with
    a gap at the top, or one go closing by itself with an arc drawn over its seam).
    A stroke that closes by itself (`closed`) is in a path of 2; `straight` strokes
    (open, each straight alone) make a path of 2 on their own, or one with a stroke that
    is neither (they go round a loop by their corners: see `_joinings`). Each end has at
    most JOIN_NEIGHBOURS links, so the walk is bounded."""
    meets: dict[tuple[int, int], list[tuple[float, int, int]]] = {}
    for d, a, ea, b, eb in links:
        if a not in closed or b not in closed:
            meets.setdefault((a, ea), []).append((d, b, eb))
            meets.setdefault((b, eb), []).append((d, a, ea))
    found: dict[tuple[int, ...], tuple[tuple[float, float], Chain]] = {}
    # Each path is walked from both of its ends: it is kept from the end with the lower
    # stroke number only. What is added up along the walk is carried along it.
    reach = CLOSE_GAP + OVERLAP_FRACTION

    def walk(chain: Chain, used: set[int], out_end: tuple[int, int], gaps: float,
             length: float, start: tuple[float, float], with_closed: bool,
             bent: bool) -> None:
        for d, b, eb in meets.get(out_end, ()):
            if b in used or (b in closed and (with_closed or len(chain) > 1)):
                continue
            ends_bent = bent or b not in straight
            if not ends_bent and len(chain) + 1 == _MAX_JOINED:
                continue  # straight strokes only, and none more may come
            chain.append((b, eb == 1))
            used.add(b)
            t = traces[b]
            total = length + t.length
            if chain[0][0] < b:
                # A loop's ends come within CLOSE_GAP of its length, or overshoot each
                # other by OVERLAP_FRACTION at most: strokes whose free ends are farther
                # apart go round no loop, and are not read (a square's sides in a row).
                ex, ey = (t.xs[0], t.ys[0]) if eb == 1 else (t.xs[-1], t.ys[-1])
                gap = math.hypot(ex - start[0], ey - start[1])
                # Of the ways round the same strokes, the one joined where they meet
                # closest, leaving the widest gap (or overlap) to judge as a stroke's own
                # seam: a circle cut in two is joined at the cut, and closed at its seam.
                score = (gaps + d, gap)
                if gap <= reach * total and (ends_bent or len(chain) == 2):
                    key = tuple(i for i, _ in chain)
                    if key not in found or score < found[key][0]:
                        found[key] = (score, list(chain))
            # A stroke closed by itself takes one more at its seam, no more: what the
            # two make is judged as one stroke's loop and its leftovers (at most
            # OVERLAP_FRACTION of the loop off it), and a third would be a part of its
            # own that happens to meet them (a line inside a shape beside the seam).
            if len(chain) < (2 if with_closed or b in closed else _MAX_JOINED):
                walk(chain, used, (b, 1 - eb), gaps + d, total, start,
                     with_closed or b in closed, ends_bent)
            used.discard(b)
            chain.pop()

    for a in sorted({a for _, a, _, _, _ in links} | {b for _, _, _, b, _ in links}):
        t = traces[a]
        for reverse in (False, True):
            start = (t.xs[-1], t.ys[-1]) if reverse else (t.xs[0], t.ys[0])
            walk([(a, reverse)], {a}, (a, 0 if reverse else 1), 0.0, t.length, start,
                 a in closed, a not in straight)
    return [(sum(score), chain) for score, chain in sorted(
        found.values(), key=lambda item: (item[0], [i for i, _ in item[1]]))]


def _dashes(traces: Sequence[Trace], straight: Sequence[int]) -> list[Chain]:
    """Straight strokes in a row along one line, 2 to DASH_STROKES of them, each gap
    between them at most DASH_GAP times the longer dash beside it (each overlap at most
    DASH_OVERLAP of the shorter): a line drawn in dashes
    (Quick, Draw! players draw lines so), one line to a person. Every end of every dash
    lies within LINE_TOLERANCE of the whole's length from the line through its two ends
    farthest apart, and each dash runs along it (within DASH_ANGLE). Read only for up to
    DASH_READ straight strokes in a drawing (the longest), a pass over each pair."""
    if len(straight) < 2:
        return []
    dashes = nlargest(DASH_READ, straight, key=lambda i: traces[i].length)
    # By the dashes' places and digests: a drawing checked after a new stroke has the
    # same longest straight strokes, mostly.
    memo = tuple((i, traces[i].key) for i in dashes)
    keyed = all(key for _, key in memo)
    if keyed and (known := _dashed.get(memo)) is not None:
        return [list(chain) for chain in known]
    found = _dash_chains(traces, dashes)
    if keyed:
        remember(_dashed, memo, tuple(tuple(chain) for chain in found), _DASHED)
    return found


_DASHED: Final = 64
_dashed: dict[tuple[tuple[int, bytes], ...], tuple[tuple[tuple[int, bool], ...], ...]] = {}
"""The dash chains of a drawing's longest straight strokes, by their places and digests."""


def _dash_chains(traces: Sequence[Trace], dashes: Sequence[int]) -> list[Chain]:
    ends = {i: ((traces[i].xs[0], traces[i].ys[0]), (traces[i].xs[-1], traces[i].ys[-1]))
            for i in dashes}
    length = {i: math.dist(*ends[i]) for i in dashes}
    found: list[Chain] = []
    seen: set[tuple[int, ...]] = set()
    limit = math.sin(math.radians(DASH_ANGLE))
    for seed in dashes:
        (ax, ay), (bx, by) = ends[seed]
        if length[seed] <= 0:
            continue
        ux, uy = (bx - ax) / length[seed], (by - ay) / length[seed]
        # Along the seed's line: where each dash starts and stops on it, and how far off.
        row = []
        for i in dashes:
            (px, py), (qx, qy) = ends[i]
            if length[i] <= 0 or abs((qx - px) * uy - (qy - py) * ux) > limit * length[i]:
                continue
            s0 = (px - ax) * ux + (py - ay) * uy
            s1 = (qx - ax) * ux + (qy - ay) * uy
            # Near the seed's line, as far as the run from the seed to it may stray (a
            # line drawn beside the dashes is no dash of them).
            span = max(s0, s1, length[seed]) - min(s0, s1, 0.0)
            aside = max(abs((px - ax) * uy - (py - ay) * ux), abs((qx - ax) * uy - (qy - ay) * ux))
            if aside > DASH_ASIDE * LINE_TOLERANCE * span:
                continue
            row.append((min(s0, s1), max(s0, s1), s0 > s1, i))
        row.sort()
        run = [row[0]] if row else []
        for item in row[1:]:
            before = run[-1]
            gap = item[0] - max(r[1] for r in run)
            shorter, longer = sorted((before[1] - before[0], item[1] - item[0]))
            # Dashes in a row may overlap where they meet; one lying over another for
            # more than DASH_OVERLAP of its length is that line drawn again
            # (`not.drawn_over`), no dash of it.
            if -DASH_OVERLAP * shorter <= gap <= DASH_GAP * longer:
                run.append(item)
                continue
            _dash_run(run, ends, seen, found)
            run = [item]
        _dash_run(run, ends, seen, found)
    return found


def _dash_run(run: list[tuple[float, float, bool, int]], ends: dict[int, tuple[XY, XY]],
              seen: set[tuple[int, ...]], found: list[Chain]) -> None:
    """Keep a run of dashes along a line as a chain when it is 2 to DASH_STROKES dashes
    whose every end lies within LINE_TOLERANCE of the whole's length of its line."""
    if not 2 <= len(run) <= DASH_STROKES:
        return
    key = tuple(sorted(i for *_, i in run))
    if key in seen:
        return
    seen.add(key)
    points = [p for *_, i in run for p in ends[i]]
    (ax, ay), (bx, by) = max(((p, q) for p in points for q in points),
                             key=lambda pq: math.dist(*pq))
    whole = math.dist((ax, ay), (bx, by))
    if whole <= 0 or any(abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / whole
                         > LINE_TOLERANCE * whole for x, y in points):
        return
    found.append([(i, reverse) for _, _, reverse, i in run])


def _joinings(
    traces: Sequence[Trace], singles: Sequence[Figure],
    alone: Sequence[Sequence[ShapeVerdict]] | None = None,
) -> list[ShapeVerdict]:
    """Shapes made of several strokes whose ends meet: 2 to 4 strokes round a circle, a
    square or a triangle, and two straight strokes that continue each other (a line drawn
    in two goes). Nearest ends first; at most JOIN_BUDGET joinings are read. `alone` is
    what each stroke counts as on its own (read here when not given)."""
    # A stroke that crosses itself is no side of a shape: it joins nothing. A stroke
    # closed by itself joins only in a path (below), one such stroke a path: a circle's
    # long piece, closed across its gap, with the short piece drawn over its seam.
    joinable = [
        i for i, f in enumerate(singles)
        if f.kind is not FigureKind.DOT and not f.unjudged and not f.crossings
    ]
    closed = frozenset(i for i in joinable if singles[i].closed)
    links = stroke_links(traces, joinable, LINK_BUDGET, closed)
    open_links = [link for link in links if link[1] not in closed and link[3] not in closed]
    chains: list[tuple[float, Chain, bool]] = [
        (gaps, chain, True) for gaps, chain in _cycles(traces, open_links)
    ]
    for d, a, ea, b, eb in open_links:
        if singles[a].kind is FigureKind.LINE and singles[b].kind is FigureKind.LINE:
            chains.append((d, [(a, ea == 0), (b, eb == 1)], False))
    # Paths come after the loops and lines above, which they may not crowd out of the
    # budget. Straight strokes go round a loop by their corners (above); a path of more
    # than 2 of them, whose last gap was too wide for a corner, only ever closed across
    # the gap between two points of a star (2: a triangle cut below its open apex).
    straight = frozenset(i for i in joinable if i not in closed
                         and singles[i].kind in (FigureKind.LINE, FigureKind.LINES))
    chains.sort(key=lambda item: (item[0], [i for i, _ in item[1]]))
    chains.extend((gaps, chain, False)
                  for gaps, chain in _paths(traces, links, closed, straight))
    # A line drawn in dashes comes last: it may not crowd the joinings above out of the
    # budget. A side of a loop of strokes is no dash (squares side by side have sides
    # along one line).
    looped = {i for _, chain, cycle in chains if cycle for i, _ in chain}
    chains.extend((0.0, chain, False) for chain in _dashes(
        traces, [i for i in joinable if singles[i].kind is FigureKind.LINE and i not in looped]))
    # A stroke closed by itself is the shape of its path, or the path is not read: the
    # other strokes only go over its seam, and add nothing to it nor take from it.
    closed_shape: dict[int, Shape | None] = {}
    for i in closed:
        own = alone[i] if alone is not None else _shape_verdicts(singles[i])
        closed_shape[i] = own[0].shape if len(own) == 1 else None
    found: list[ShapeVerdict] = []
    vertices = JOIN_VERTICES
    for _, chain, cycle in chains[:JOIN_BUDGET]:
        vertices -= sum(len(traces[i].xs) for i, _ in chain)
        if vertices < 0:
            break  # the joinings read so far are the nearest ends: enough for any shape
        figure = chain_figure(traces, chain, cycle=cycle)
        # A stroke closed by itself was asked for its points on its own: the strokes
        # drawn over its seam add none.
        verdicts = _chain_verdicts(figure, traces, None if any(
            i in closed for i, _ in chain) else chain)
        if len(verdicts) == 1 and _joined_lozenge(verdicts[0]):
            # No shape, but one figure: its strokes are read together ("a closed figure
            # with 4 corners", as in one stroke), not as the arcs and lines they are apart.
            found.append(verdicts[0])
            continue
        if len(verdicts) != 1 or verdicts[0].shape is None:
            continue
        shape = verdicts[0].shape
        if (cycle or figure.closed) != (shape in _CLOSED_SHAPES):
            continue
        if any(i in closed and closed_shape[i] is not shape for i, _ in chain):
            continue
        params = {**verdicts[0].params, "shape": shape.value, "count": len(chain)}
        found.append(ShapeVerdict("shape.joined", params, shape, figure.strokes, figure))
    return found


_SHAPES: Final = tuple(Shape)
_strokes_of = attrgetter("strokes")


def _chain_verdicts(figure: Figure, traces: Sequence[Trace], chain: Chain | None
                    ) -> tuple[ShapeVerdict, ...]:
    """What a joined figure counts as, kept by its digest and strokes (a joined figure of
    the same strokes at the same places is the same figure): a drawing checked after a
    new stroke weighs the joinings it had before without measuring them again. A loop of
    the strokes `chain` is asked whether it is a lozenge (`_lozenge_in_strokes`)."""
    if not figure.key:
        return tuple(_lozenge_in_strokes(traces, chain, _shape_verdicts(figure)))
    memo = (figure.key, figure.strokes)
    known = _chains.get(memo)
    if known is None:
        known = tuple(_lozenge_in_strokes(traces, chain, _shape_verdicts(figure)))
        remember(_chains, memo, known, _CHAINS)
    return known


def _lozenge_in_strokes(traces: Sequence[Trace], chain: Chain | None,
                        verdicts: list[ShapeVerdict]) -> list[ShapeVerdict]:
    """A loop of strokes read as a circle or a square is a lozenge, "a closed figure with
    4 corners", when the loop as drawn (`chain_as_drawn`: the strokes' points in the
    order and direction the joining chose, each joint cut as the outline's is) answers
    as one stroke would: a circle whose outline has QUARTER_TIP_CORNERS corners or more
    and which turns at LOZENGE_POINTS points or more (`fine_points`, as `points_of`
    reads one stroke's tips), or at four tips a quarter apart (`four_tips`, as
    `_lozenge_no_circle`); a square whose four sides bow out evenly with LOZENGE_POINTS
    points (as `_lozenge_no_square`). The joined outline rounds the tips off as a single
    stroke's does, and was read only by it: a lozenge drawn in two goes was a circle.
    Otherwise `verdicts` as they are. Broad Lines is not asked (its sheet reads no
    circles nor squares)."""
    shape = verdicts[0] if len(verdicts) == 1 else None
    figure = shape.figure if shape is not None else None
    if (chain is None or shape is None or figure is None or not figure.closed
            or shape.shape not in (Shape.CIRCLE, Shape.SQUARE)
            or len(figure.corners) < QUARTER_TIP_CORNERS):
        return verdicts
    if shape.shape is Shape.SQUARE and min(p.deviation for p in figure.pieces) < EVEN_BOW / 2:
        # A side bowing out evenly by EVEN_BOW as drawn bows on the outline by half that
        # at least (the lozenges read as squares, 0.076 and more): a square's straight
        # sides are not read again.
        return verdicts
    if shape.shape is Shape.CIRCLE:
        return _lozenge_loop(traces, chain, verdicts)
    loops = chain_as_drawn(traces, chain)
    drawn = next(loops, None)
    # A square: its sides' bow, and its points as one stroke's (the loop read again from
    # where the pen first touched only when the first reading has too few).
    if (drawn is None or not _sides_bow_evenly(*drawn, figure)
            or _points(drawn, loops, tolerance_for(figure.size)) < LOZENGE_POINTS):
        return verdicts
    return [ShapeVerdict("not.corners", {"corners": 4, "count": len(chain)}, None,
                         shape.strokes, figure)]


def _lozenge_loop(traces: Sequence[Trace], chain: Chain, verdicts: list[ShapeVerdict]
                  ) -> list[ShapeVerdict]:
    """`_lozenge_in_strokes` for a loop of strokes read as a circle (`verdicts`): its
    points as `points_of` reads one stroke's (but where its outline turns back at a
    wobble's jags, which are no points; nor on a loop sampled no finer than a fast
    mouse's circle, SPARSE_SIDES: its pieces join at a vertex that turns as any of its
    others, where `sparse_round` reads one stroke), or four tips a quarter apart. What
    the loop as drawn shows is kept by its strokes' digests and directions: the same
    strokes joined as a loop and as a path closed across its gap (an oval cut in two)
    are read once."""
    circle = verdicts[0]
    figure = circle.figure
    assert figure is not None
    asked = figure.bend_reversal < BEND_REVERSAL
    memo = (tuple((traces[i].key, rev) for i, rev in chain), asked)
    keyed = all(key for key, _ in memo[0])
    known = _loops.get(memo) if keyed else None
    if known is None:
        loops = chain_as_drawn(traces, chain)
        drawn = next(loops, None)
        if drawn is None:
            return verdicts
        xs, ys = drawn
        points = (_points(drawn, loops, tolerance_for(figure.size))
                  if asked and len(xs) > SPARSE_SIDES[1] and not sparse_round(xs, ys) else 0)
        known = (points, points < LOZENGE_POINTS and _turns_at_four_tips(xs, ys))
        if keyed:
            remember(_loops, memo, known, _CHAINS)
    points, four = known
    if points >= LOZENGE_POINTS:
        corners = max(len(figure.corners), points)
    elif four:
        corners = 4
    else:
        return verdicts
    return [ShapeVerdict("not.corners", {"corners": corners, "count": len(chain)}, None,
                         circle.strokes, figure)]


_loops: dict[tuple[tuple[tuple[bytes, bool], ...], bool], tuple[int, bool]] = {}
"""What a loop of strokes read as a circle shows as drawn (its points, whether it turns at
four tips a quarter apart), by its strokes' digests and directions."""


def _points(first: tuple[list[float], list[float]],
            others: Iterator[tuple[list[float], list[float]]], eps: float) -> int:
    """The most points (`fine_points`) a loop of strokes has, read from where its chain
    starts and then, with under LOZENGE_POINTS, from where the pen first touched
    (`chain_as_drawn`)."""
    most = fine_points(*first, eps)
    for loop in others:
        if most >= LOZENGE_POINTS:
            break
        most = max(most, fine_points(*loop, eps))
    return most


def _joined_lozenge(verdict: ShapeVerdict) -> bool:
    """Whether a joined figure's verdict is `_lozenge_in_strokes`'s: the one reading of a
    loop of strokes that is no shape and still read as one (a polygon of strokes, or a
    loop with points its outline shows, is not: its strokes are read apart)."""
    return (verdict.shape is None and verdict.reason_key == "not.corners"
            and "count" in verdict.params)


_CHAINS: Final = 256
_chains: dict[tuple[bytes, tuple[int, ...]], tuple[ShapeVerdict, ...]] = {}


@dataclass(frozen=True)
class _Reading:
    """One way of reading a drawing: which joinings are taken."""

    verdicts: tuple[ShapeVerdict, ...]
    found: tuple[Shape, ...]
    unrecognised: int


def _read(
    singles: Sequence[list[ShapeVerdict]], joined: Sequence[ShapeVerdict],
    keys: Sequence[tuple[int, ...]], over: dict[int, list[tuple[int, str]]],
    overlook: bool = True,
) -> _Reading:
    """The drawing read with the joinings `joined` (disjoint) and every other stroke on
    its own; lines drawn over a shape of this reading add nothing, nor (`overlook`) do
    stray marks."""
    used = {i for v in joined for i in v.strokes}
    verdicts = [*joined, *(v for i, vs in enumerate(singles) if i not in used for v in vs)]
    verdicts.sort(key=_strokes_of)
    present = {v.strokes for v in verdicts if v.shape is not None}
    out: list[ShapeVerdict] = []
    shapes: list[Shape] = []
    unrecognised = 0
    for verdict in verdicts:
        if verdict.shape is not None and len(verdict.strokes) == 1:
            for under_key, shape in over.get(verdict.strokes[0], ()):
                if keys[under_key] in present:
                    verdict = ShapeVerdict("not.drawn_over", {"shape": shape}, None,
                                           verdict.strokes, verdict.figure)
                    break
        if verdict.stray and not overlook:
            verdict = replace(verdict, stray=False)
        out.append(verdict)
        # What counts (no stray mark): its shape, or a part that is none (a shape drawn
        # over another adds nothing either way). Counted in the same pass: this runs for
        # every way to read a drawing, up to 96 times a check.
        if not verdict.stray:
            if (s := verdict.shape) is not None:
                shapes.append(s)
            elif verdict.reason_key != "not.drawn_over":
                unrecognised += 1
    found = tuple(s for kind in _SHAPES for s in shapes if s is kind)
    return _Reading(tuple(out), found, unrecognised)


def _not_drawn_over(
    joinings: Sequence[ShapeVerdict], singles: Sequence[Figure],
    keys: Sequence[tuple[int, ...]], over: dict[int, list[tuple[int, str]]],
) -> list[ShapeVerdict]:
    """The joinings but those of a stroke closed by itself and strokes all drawn over it
    (`_drawn_over_table`): that shape and the strokes drawn over it (a side drawn again
    says so) are the reading, not a joining."""
    def over_it(j: int, i: int) -> bool:
        return any(keys[k] == (i,) for k, _ in over.get(j, ()))

    return [v for v in joinings if not any(
        singles[i].closed and all(over_it(j, i) for j in v.strokes if j != i)
        for i in v.strokes)]


def _strays(traces: Sequence[Trace]) -> set[int]:
    """The strokes under STRAY_FRACTION of the whole drawing's size (bounding-box
    diagonal): marks a person overlooks beside the rest. None in a drawing of one
    stroke, and none when every stroke is that small (a drawing of scattered dots)."""
    if len(traces) < 2:
        return set()
    boxes = [t.box for t in traces]
    size = math.hypot(max(b[2] for b in boxes) - min(b[0] for b in boxes),
                      max(b[3] for b in boxes) - min(b[1] for b in boxes))
    small = {i for i, t in enumerate(traces)
             if not t.too_long and t.size < STRAY_FRACTION * size}
    return small if len(small) < len(traces) else set()


def _continues_a_side(line: Figure, shape: Figure) -> bool:
    """Whether a straight stroke starts (or ends) at a triangle's or a square's outline and
    runs along the line of one of its sides, shorter than most of it: that side drawn on
    past its corner, or a gap in it drawn again. A person sees the shape, not a line."""
    a, b = line.outline[0], line.outline[-1]
    length = math.dist(a, b)
    near = max(OVERSHOOT_NEAR * shape.size, 2 * SIMPLIFY_FLOOR)
    sx = [p[0] for p in shape.outline]
    sy = [p[1] for p in shape.outline]
    if not stays_near((a[0],), (a[1],), sx, sy, near) and not stays_near(
            (b[0],), (b[1],), sx, sy, near):
        return False
    for piece in shape.pieces:
        side = math.dist(piece.start, piece.end)
        if side <= 0 or length > OVERSHOOT_LENGTH * side:
            continue
        (x0, y0), (x1, y1) = piece.start, piece.end
        if all(abs((x - x0) * (y1 - y0) - (y - y0) * (x1 - x0)) <= near * side
               for x, y in (a, b)):
            return True
    return False


def _drawn_over_table(
    candidates: Sequence[ShapeVerdict],
) -> tuple[list[tuple[int, ...]], dict[int, list[tuple[int, str]]]]:
    """For each shape of a single stroke, the shapes (by index into the keys) whose outline
    it lies along: a side of the square drawn again, a line over a line, a circle drawn
    over a circle. Two alike count once: the later one is the one drawn over."""
    keys = [v.strokes for v in candidates]
    table: dict[int, list[tuple[int, str]]] = {}
    compared = 0
    # What each pair reads of a candidate is worked out once per candidate, not per pair
    # (the pairs are quadratic in the shapes): its box, grown by as far as a figure's end
    # may be and still lie along it (or on from one of its sides), and its strokes. A
    # figure with neither end in that box is not compared at all.
    others = []
    for other_index, other in enumerate(candidates):
        under = other.figure
        if under is None or other.shape is None or under.box is None:
            continue
        box = under.box
        r = max(OUTLINE_FRACTION * under.size, OVERSHOOT_NEAR * under.size,
                2 * SIMPLIFY_FLOOR) + 1e-6
        others.append((other_index, box[0] - r, box[1] - r, box[2] + r, box[3] + r, other,
                       under, other.shape, frozenset(other.strokes), box))
    for index, verdict in enumerate(candidates):
        figure = verdict.figure
        shape = verdict.shape
        if shape is None or figure is None or len(verdict.strokes) != 1:
            continue
        line = shape is Shape.LINE
        if line and figure.kind is not FigureKind.LINE and not drawn_back_along(figure):
            # One of the lines of an angle: the angle is no side drawn again (a line drawn
            # to and fro is one line, and may be drawn over another).
            continue
        probed: list[tuple[list[float], list[float]]] = []
        (ax, ay), (bx, by) = figure.outline[0], figure.outline[-1]
        own = frozenset(verdict.strokes)
        for other_index, lo_x, lo_y, hi_x, hi_y, other, under, other_shape, theirs, box in others:
            if not (lo_x <= ax <= hi_x and lo_y <= ay <= hi_y) and not (
                    lo_x <= bx <= hi_x and lo_y <= by <= hi_y):
                continue
            if (other_index == index or not own.isdisjoint(theirs)
                    or (not line and other_shape is not shape)
                    or (other_shape is shape and len(other.strokes) == 1
                        and other.strokes > verdict.strokes)):
                continue
            compared += 1
            if compared > OVER_BUDGET:
                raise Crowded(f"more than {OVER_BUDGET} shapes lie near others")
            key = (figure.key, under.key)  # a figure's digest says its shape too
            lies = _along.get(key) if figure.key and under.key else None
            if lies is None:
                if not probed:
                    probed.append(_probes_along(figure, line))
                lies = _lies_along(figure, shape, under, other_shape, box, *probed[0])
                if figure.key and under.key:
                    remember(_along, key, lies, _ALONG)
            if lies:
                table.setdefault(verdict.strokes[0], []).append((other_index, other_shape.value))
    return keys, table


_ALONG: Final = 8192
_along: dict[tuple[bytes, bytes], bool] = {}
"""Whether one figure's shape lies along another's, by the figures' digests: a drawing
checked again after a new stroke compares the new stroke's pairs only."""


def _probes_along(figure: Figure, line: bool) -> tuple[list[float], list[float]]:
    xs = [p[0] for p in figure.outline]
    ys = [p[1] for p in figure.outline]
    cum = cumulative(xs, ys)
    probes = 4 if line else 12
    return points_at(xs, ys, cum, [cum[-1] * k / probes for k in range(probes + 1)])


def _lies_along(
    figure: Figure, shape: Shape, under: Figure, under_shape: Shape,
    box: tuple[float, float, float, float], px: list[float], py: list[float],
) -> bool:
    """Whether `figure` (a `shape`) lies along the outline of `under`: a side of it drawn
    on or again, or a shape traced over it."""
    if (shape is Shape.LINE and under_shape in (Shape.TRIANGLE, Shape.SQUARE)
            and _continues_a_side(figure, under)):
        return True
    near = max(OUTLINE_FRACTION * under.size, 2 * SIMPLIFY_FLOOR)
    if (min(px) < box[0] - near or max(px) > box[2] + near
            or min(py) < box[1] - near or max(py) > box[3] + near):
        return False
    ux = [p[0] for p in under.outline]
    uy = [p[1] for p in under.outline]
    return stays_near(px, py, ux, uy, near)


def _readings(
    singles: Sequence[list[ShapeVerdict]], joinings: Sequence[ShapeVerdict],
) -> list[tuple[ShapeVerdict, ...]]:
    """Sets of disjoint joinings to read the drawing with: the greedy one first (nearest
    ends first, as long as the strokes are free), then the others, at most _MAX_READINGS."""
    greedy: list[ShapeVerdict] = []
    taken: set[int] = set()
    # A person sees the closed shape before the lines it was drawn with: a triangle whose
    # side was drawn in two goes is a triangle, not a line and two more.
    # And a line of more strokes before a line of fewer: a line drawn in three dashes is
    # one line, not two of them joined and a third.
    for v in sorted(joinings, key=lambda v: (v.shape is Shape.LINE,
                                             -len(v.strokes) if v.shape is Shape.LINE else 0)):
        if not taken & set(v.strokes):
            greedy.append(v)
            taken.update(v.strokes)
    out: list[tuple[ShapeVerdict, ...]] = [tuple(greedy)]
    seen = {frozenset(v.strokes for v in greedy)}

    def grow(start: int, chosen: list[ShapeVerdict], used: set[int]) -> None:
        for k in range(start, len(joinings)):
            if len(out) >= _MAX_READINGS:
                return
            v = joinings[k]
            if used & set(v.strokes):
                continue
            chosen.append(v)
            key = frozenset(c.strokes for c in chosen)
            if key not in seen:
                seen.add(key)
                out.append(tuple(chosen))
            if len(chosen) < 4:
                grow(k + 1, chosen, used | set(v.strokes))
            chosen.pop()

    if len(out) < _MAX_READINGS:
        empty: frozenset[tuple[int, ...]] = frozenset()
        if empty not in seen:
            seen.add(empty)
            out.append(())
        grow(0, [], set())
    return out


def _lozenges_kept(ways: list[tuple[ShapeVerdict, ...]], joinings: Sequence[ShapeVerdict]
                   ) -> list[tuple[ShapeVerdict, ...]]:
    """The ways to read a drawing but those that read a lozenge of strokes
    (`_joined_lozenge`) as its strokes apart, none of them in a joining: a person sees the
    one figure, not the two bowed angles it was drawn as (their arms bow within
    SIDE_TOLERANCE, so apart they are four straight lines, a reading with no part that
    is no shape, which the fewest such parts would choose over the one lozenge). The
    greedy way is always kept: it joins the lozenge, or some of its strokes otherwise."""
    rings = [set(v.strokes) for v in joinings if _joined_lozenge(v)]
    if not rings:
        return ways
    return [way for way in ways
            if all(any(not ring.isdisjoint(v.strokes) for v in way) for ring in rings)]


_SINGLES: Final = 1024
_singles: dict[tuple[bytes, int, bool], tuple[Figure, tuple[ShapeVerdict, ...]]] = {}
"""Stroke number n of a drawing read on its own (its figure and what it counts as), by
the stroke's digest: a drawing checked after a new stroke reads the new stroke only."""


def _left_open_circle(index: int, trace: Trace, verdicts: list[ShapeVerdict]
                      ) -> list[ShapeVerdict]:
    """A stroke that is an open curve on its own is a circle when it is one left open by
    a gap too wide to close as a stroke's ends close (`closed_across_its_gap`) and reads
    as a circle with the gap closed along its circle; otherwise `verdicts` as they are.
    Broad Lines is not asked: a circle open or closed is 1 curve there either way."""
    if len(verdicts) != 1 or verdicts[0].reason_key not in ("not.open_curve", "not.mixed"):
        return verdicts
    closed = closed_across_its_gap(index, trace)
    if closed is None:
        return verdicts
    again = _shape_verdicts(closed)
    return again if len(again) == 1 and again[0].shape is Shape.CIRCLE else verdicts


_MOST_KNOTS: Final = 4
"""A stroke crossing itself more often than a square has corners is not read again
without its knots (a scribble, a random walk: a second reading would cost as much again)."""


def _knotted_polygon(index: int, trace: Trace, verdicts: list[ShapeVerdict]
                     ) -> list[ShapeVerdict]:
    """A stroke that crosses itself on its own is a triangle or a square when what it
    crosses are knots at its corners (`without_knots`: a fast hand's small loop where it
    turns) and, read with them cut out, it is one; otherwise `verdicts` as they are.
    Broad Lines is not asked: a polygon is lines there, crossing itself or not."""
    if (len(verdicts) != 1 or verdicts[0].reason_key != "not.crosses_itself"
            or verdicts[0].figure is None or verdicts[0].figure.crossings > _MOST_KNOTS):
        return verdicts
    figure = without_knots(index, trace)
    if figure is None:
        return verdicts
    again = _shape_verdicts(figure)
    return again if len(again) == 1 and again[0].shape in (Shape.SQUARE,
                                                            Shape.TRIANGLE) else verdicts


def _lozenge_no_square(trace: Trace, verdicts: list[ShapeVerdict]) -> list[ShapeVerdict]:
    """A stroke read on its own as a square is a lozenge, "a closed figure with 4
    corners", when every one of its four sides bows out evenly by EVEN_BOW or more and it
    has LOZENGE_POINTS points or more, both read from the stroke as drawn (`even_bow`: a
    puffed side bends all along, a square's side drawn fast only near its round corners;
    `fine_points`: a lozenge's sharper tips, where a square drawn round has none);
    otherwise `verdicts` as they are. Broad Lines is not asked (its sheet counts sides,
    not shapes)."""
    square = verdicts[0] if len(verdicts) == 1 else None
    if square is None or square.shape is not Shape.SQUARE or trace.fine is None:
        return verdicts
    figure = square.figure
    fx, fy = trace.fine
    if (figure is None or not _sides_bow_evenly(fx, fy, figure)
            or fine_points(fx, fy, tolerance_for(trace.size)) < LOZENGE_POINTS):
        return verdicts
    return [ShapeVerdict("not.corners", {"corners": 4}, None, square.strokes, figure)]


def _sides_bow_evenly(xs: Sequence[float], ys: Sequence[float], figure: Figure) -> bool:
    """Whether each of the four sides of a closed path as drawn, read as the square
    `figure`, bows out evenly by EVEN_BOW or more (`_lozenge_no_square`)."""
    return (len(figure.pieces) == 4
            and even_bow(xs, ys, [piece.start for piece in figure.pieces], EVEN_BOW) >= EVEN_BOW)


def _lozenge_no_circle(trace: Trace, verdicts: list[ShapeVerdict]) -> list[ShapeVerdict]:
    """A stroke read on its own as a circle is a lozenge, "a closed figure with 4
    corners", when the stroke as drawn turns at four tips a quarter of the way round from
    each other by QUARTER_TIP_TURN or more beyond its bend beside them, nowhere else by
    more than QUARTER_TIP_ALONE of that, and the middle of every side between them by
    QUARTER_SIDE_BEND or more (`four_tips`): a lozenge whose sides bow so far that its
    outline rounds its tips off, and the stroke's tips turn by less than a point's angle,
    still turns sharply there, evenly spaced, and gently along its bowed sides; a circle,
    an oval or a lumpy circle does not turn so, and a square drawn with round corners has
    straight sides. Otherwise `verdicts` as they are. Broad Lines is not asked (its sheet
    reads no circles). Asked only of a circle whose outline has QUARTER_TIP_CORNERS
    corners or more (a lozenge's outline keeps its sharper tips; a round stroke's, mostly
    none): the others do not pay for it."""
    circle = verdicts[0] if len(verdicts) == 1 else None
    if (circle is None or circle.shape is not Shape.CIRCLE or trace.fine is None
            or circle.figure is None or len(circle.figure.corners) < QUARTER_TIP_CORNERS):
        return verdicts
    if not _turns_at_four_tips(*trace.fine):
        return verdicts
    return [ShapeVerdict("not.corners", {"corners": 4}, None, circle.strokes, circle.figure)]


def _turns_at_four_tips(xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Whether a closed path as drawn turns as a lozenge does (`_lozenge_no_circle`): at
    four tips a quarter apart by QUARTER_TIP_TURN or more, nowhere else by more than
    QUARTER_TIP_ALONE of that, and the middle of each side between by QUARTER_SIDE_BEND."""
    tips = four_tips(xs, ys)
    return (tips.tip >= math.radians(QUARTER_TIP_TURN)
            and tips.elsewhere <= QUARTER_TIP_ALONE * tips.tip
            and tips.side >= math.radians(QUARTER_SIDE_BEND))


def _single_read(
    index: int, trace: Trace, stray: bool
) -> tuple[Figure, tuple[ShapeVerdict, ...]]:
    key = (trace.key, index, stray)
    known = _singles.get(key) if trace.key else None
    if known is None:
        figure = single_figure(index, trace)
        verdicts = _lozenge_no_circle(trace, _shape_verdicts(figure))
        verdicts = _left_open_circle(index, trace, verdicts)
        verdicts = _knotted_polygon(index, trace, verdicts)
        verdicts = _lozenge_no_square(trace, verdicts)
        if stray:
            verdicts = [replace(v, stray=True) for v in verdicts]
        known = (figure, tuple(verdicts))
        if trace.key:
            remember(_singles, key, known, _SINGLES)
    return known


def _recognise(
    strokes: Sequence[Stroke], rolled: Sequence[Shape] | None,
    traces: Sequence[Trace] | None = None,
) -> _Reading:
    if traces is None:
        traces = [simplify_stroke(s) for s in strokes]
    strays = _strays(traces)
    read = [_single_read(i, t, i in strays) for i, t in enumerate(traces)]
    singles_figures = [figure for figure, _ in read]
    singles = [list(verdicts) for _, verdicts in read]
    joinings = _joinings(traces, singles_figures, singles)
    keys, over = _drawn_over_table([*(v for vs in singles for v in vs), *joinings])
    joinings = _not_drawn_over(joinings, singles_figures, keys, over)
    ways = _lozenges_kept(_readings(singles, joinings), joinings)
    if rolled is None:
        # The first reading (the greedy one on a tie) with the fewest parts that are no
        # shape: a circle in three goes is one circle, not two goes joined and an arc
        # left over. A reading with none cannot be bettered.
        first: _Reading | None = None
        for joined in ways:
            reading = _read(singles, joined, keys, over)
            if first is None or reading.unrecognised < first.unrecognised:
                first = reading
                if not first.unrecognised:
                    break
        assert first is not None  # the greedy way is always read
        return first
    # A small line may be one of the rolled shapes: then the drawing is read with it
    # counted too.
    counted = (True, False) if any(
        v.shape is not None for i in strays for v in singles[i]) else (True,)
    want = [(kind, sum(1 for s in rolled if s is kind)) for kind in _SHAPES]

    def misfit(reading: _Reading) -> tuple[int, int]:
        # How far the shapes found are from the roll: the shapes of each kind too many or
        # too few, added up (counted by identity: a Counter hashed each shape, and this
        # runs for every reading of every check).
        found = reading.found
        return reading.unrecognised, sum(abs(found.count(kind) - n) for kind, n in want)

    # The first of the best (the greedy one on a tie); a reading that fits the roll
    # exactly cannot be bettered, so the ways after it are not read.
    best: _Reading | None = None
    best_fit = (0, 0)
    for overlook in counted:
        for joined in ways:
            reading = _read(singles, joined, keys, over, overlook)
            fit = misfit(reading)
            if best is None or fit < best_fit:
                best, best_fit = reading, fit
                if fit == (0, 0):
                    return best
    assert best is not None  # the greedy way is always read
    return best


def recognise_shapes(
    strokes: Sequence[Stroke], rolled: Sequence[Shape] | None = None
) -> tuple[ShapeVerdict, ...]:
    """ArtBox: each shape of a drawing, in the order of its first stroke.

    A shape is usually one stroke. Open strokes whose ends meet round a loop (2 to 4 of
    them, nearest ends first, overshoots cut off) may count as one circle, square or
    triangle, and two straight strokes that continue each other as one line; each stroke
    counts once (and so may strokes in a row whose free ends close the loop, or a stroke
    closed by itself and one drawn over its seam). Without a roll, those joinings are
    taken nearest ends first (closed shapes before lines), unless another reading leaves
    fewer parts that are no shape; with `rolled`, the reading that fits the roll best is
    chosen (four lines meeting at corners are four lines when four lines were rolled, a
    square when a square was).
    """
    try:
        return _recognise(strokes, rolled).verdicts
    except Crowded as err:
        return _crowded(tuple(strokes), (), err).shapes


def _multiset_minus(a: Sequence[Shape], b: Sequence[Shape]) -> tuple[Shape, ...]:
    # Counted by identity (a Counter hashes each shape, through Enum's own __hash__).
    return tuple(s for s in _SHAPES for _ in range(a.count(s) - b.count(s)))


def check_artbox_drawing(strokes: Sequence[Stroke], rolled: Sequence[Shape]) -> DrawingVerdict:
    """ArtBox: whether a drawing is made of exactly the 4 rolled shapes, and of what.

    The drawing is read against the roll: of the ways to read it (which strokes whose
    ends meet make one shape), the one that fits the roll best is judged. Checks are
    quick when the drawing was checked before: a drawing is checked again after each
    stroke, and all of them again when a match resumes after a power cut, and each stroke's
    own reading is cached."""
    if len(rolled) != 4 or not all(isinstance(s, Shape) for s in rolled):
        raise BadRoll(f"ArtBox rolls 4 shapes, not {list(rolled)!r}")
    rolled_sorted = tuple(s for kind in Shape for s in rolled if s is kind)
    # The strokes' results are cached (by digests of their points), and so are those of
    # pairs of strokes: checking a drawing after a new stroke measures the new stroke and
    # its pairs, then the joinings and the readings. A drawing checked before (after an
    # undo, in another seat's view) is not checked again.
    traces = [simplify_stroke(s) for s in strokes]
    keys = tuple(t.key for t in traces)
    memo = (keys, rolled_sorted)
    known = _drawings.get(memo)
    if known is not None:
        return known
    verdict = _check(tuple(strokes), rolled_sorted, traces)
    if all(keys):  # a stroke too long to judge has no digest: nothing to remember
        remember(_drawings, memo, verdict, _DRAWINGS)
    return verdict


_DRAWINGS: Final = 64
_drawings: dict[tuple[tuple[bytes, ...], tuple[Shape, ...]], DrawingVerdict] = {}
"""The drawings checked last, by their strokes' digests and the roll."""


def _crowded(strokes: tuple[Stroke, ...], rolled_sorted: tuple[Shape, ...],
             err: Crowded) -> DrawingVerdict:
    """The verdict on a drawing too crowded to judge: the table decides."""
    part = ShapeVerdict("not.tangled", {}, None, tuple(range(len(strokes))))
    return DrawingVerdict("drawing.crowded", {"count": len(strokes)}, False, (part,), (),
                          rolled_sorted, rolled_sorted, (), (part,))


def _check(
    strokes: tuple[Stroke, ...], rolled_sorted: tuple[Shape, ...],
    traces: Sequence[Trace] | None = None,
) -> DrawingVerdict:
    try:
        reading = _recognise(strokes, rolled_sorted, traces)
    except Crowded as err:
        return _crowded(strokes, rolled_sorted, err)
    shapes = reading.verdicts
    found = reading.found
    unrecognised = tuple(
        v for v in shapes
        if v.shape is None and v.reason_key != "not.drawn_over" and not v.stray
    )
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
    elif any(v.figure is not None and v.figure.unjudged for v in unrecognised):
        key = "drawing.unjudged"
    elif len(unrecognised) == 1 and unrecognised[0].reason_key == "not.diamond":
        key = "drawing.diamond"  # the one part that is no shape: say why, it looks square
    elif unrecognised:
        key = "drawing.unrecognised"
        params["count"] = len(unrecognised)
    elif len(found) != 4:
        key = "drawing.count"
    elif missing or extra:
        key = "drawing.not_rolled"
    elif strays := sum(1 for v in shapes if v.stray):
        # The rules: a picture of exactly the four rolled shapes, "a dot is not accepted
        # as a very small circle". A small mark is overlooked when the shapes are read
        # (so a dot beside a circle does not spoil the circle), but it is not a shape:
        # the box says so and the table's vote decides.
        key = "drawing.stray"
        params["count"] = strays
    else:
        key = "drawing.ok"
    return DrawingVerdict(
        key, params, key == "drawing.ok", shapes, found, rolled_sorted, missing, extra,
        unrecognised,
    )


def clear_caches() -> None:
    """Forget every cached result (strokes, joinings, drawings): for benchmarks that time
    a first check, and tests that count work."""
    figures.clear_caches()
    _along.clear()
    _chains.clear()
    _dashed.clear()
    _drawings.clear()
    _loops.clear()
    _singles.clear()
