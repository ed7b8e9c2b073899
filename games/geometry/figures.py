"""Reading strokes as figures: closed or open, corners, straight pieces, curves, bend.

A stroke is simplified (`simplify_stroke`), its loop found when it closes, its corners
and the pieces between them measured (`single_figure`, `classify_stroke`); strokes whose
ends meet are joined into one figure (`chain_figure`). Broad Lines and ArtBox decide
their rules from the `Figure` values made here.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import math
import weakref
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property, lru_cache
from itertools import pairwise
from operator import itemgetter, sub
from typing import Final, TypeVar

from games.geometry.polyline import (
    XY,
    Crossing,
    chord_deviation,
    cumulative,
    cuts_through,
    decimated,
    despike,
    find_crossings,
    meeting_point,
    nearest_point,
    points_at,
    projection,
    resampled,
    signed_area,
    simplify,
    stays_near,
    sub_polyline,
    thin,
    trim_flicks,
    turn_between,
    without_curls,
)
from games.geometry.reasons import JSON
from games.geometry.tolerances import (
    BEND_REVERSAL,
    BEND_STEP,
    CLOSE_GAP,
    CORNER_ANGLE,
    CORNER_REACH,
    CORNER_SHARPNESS,
    CORNER_WINDOW,
    CROSSING_LIMIT,
    DENT_DEPTH,
    DOT_SIZE,
    FINE_POINT_ANGLE,
    FINE_POINT_REACH,
    FINE_POINT_SHARPNESS,
    FINE_SEAM_ANGLE,
    FINE_SEAM_REACH,
    FINE_TIP_ANGLE,
    FINE_TIP_SAMPLES,
    FINE_TIP_WIDE_ANGLE,
    FLAT_REACH,
    FLAT_SAMPLES,
    FLAT_TURN,
    GAP_END_ANGLE,
    GAP_SPAN,
    HOOK_FRACTION,
    JOIN_FLOOR,
    JOIN_FRACTION,
    JOIN_NEIGHBOURS,
    KNOT_LENGTH,
    KNOT_TURN,
    LINE_TOLERANCE,
    LUMP_REVERSAL,
    LUMPY_SIDE,
    MAX_STROKE_POINTS,
    MAX_VERTICES,
    MIN_ROUNDNESS,
    OVERLAP_FRACTION,
    POINT_ANGLE,
    POLYGON_CORNER_ANGLE,
    POLYGON_CORNERS,
    POLYGON_FLAT_SHARE,
    POLYGON_FOUR_SHARE,
    POLYGON_RUN_SHARE,
    POLYGON_SIDE_BEND,
    POLYGON_SIDE_LENGTH,
    POLYGON_SIDE_SHARE,
    POLYGON_SIDE_STRAIGHT,
    POLYGON_TURN_SHARE,
    RAW_POINTS,
    RETRACE_FRACTION,
    RETRACE_REACH,
    ROUND_GAP_ANGLE,
    ROUND_GAP_MISFIT,
    ROUND_GAP_SHARE,
    SEAM_DENT_DEPTH,
    SEAM_MARGIN,
    SIDE_BY_SIDE_ANGLE,
    SIDE_TOLERANCE,
    SIMPLIFY_FLOOR,
    SIMPLIFY_FRACTION,
    SPARSE_SIDES,
    SPARSE_SPACING,
    SPARSE_TURN,
    TO_AND_FRO_LENGTH,
    WAVE_BEND,
    WAVE_CORNER_SHARE,
    WAVE_RISE,
)
from games.sheet import Stroke

K = TypeVar("K")
V = TypeVar("V")


class GeometryError(ValueError):
    """A stroke or a roll that geometry cannot work with."""


class EmptyStroke(GeometryError):
    """A stroke without points."""


class Crowded(GeometryError):
    """More stroke ends meet than a check may weigh (strokes piled on top of each other):
    the drawing is left to the table rather than judged at unbounded cost."""


class FigureKind(Enum):
    """What one figure (a stroke, or strokes whose ends meet) is made of."""

    DOT = "dot"
    LINE = "line"
    LINES = "lines"  # straight pieces meeting at corners: an angle, a zigzag, a polygon
    CURVE = "curve"
    MIXED = "mixed"  # straight stretches and curved ones: it counts as 1 curve


@dataclass(frozen=True)
class Piece:
    """A stretch of a figure between corners (or its ends)."""

    start: XY
    end: XY
    straight: bool
    deviation: float
    """How far it strays from its chord, as a fraction of the chord's length."""


@dataclass(frozen=True)
class Figure:
    """What one stroke, or several strokes whose ends meet, turned out to be."""

    strokes: tuple[int, ...]
    """Which strokes of the sheet or drawing it is made of (indices)."""
    kind: FigureKind
    closed: bool
    lines: int
    """How many straight lines it counts as (an angle is 2; 0 when it is a curve)."""
    curves: int
    """1 when anything in it is curved: it is then one curve, straight stretches and all."""
    pieces: tuple[Piece, ...]
    """The stretches between its corners, straight or not."""
    corners: tuple[XY, ...]
    rounds: int
    """How many times a closed figure was drawn round (2 for a circle drawn twice)."""
    bend_reversal: float
    """Degrees the curves turn back against their bend at most (0 without curves)."""
    crossings: int
    """Places where the figure crosses itself (an overshoot at the closing point aside)."""
    size: float
    """Bounding-box diagonal, sheet units."""
    length: float
    outline: tuple[XY, ...] = field(repr=False)
    """The simplified polyline that was measured (closed figures end where they start)."""
    unjudged: str = ""
    """Why the figure was not judged: "too_long" (a stroke of more than
    MAX_STROKE_POINTS points), "tangled" (it crosses itself beyond the crossing budget);
    empty when it was. The table decides an unjudged figure."""
    dent: float = 0.0
    """How deep a closed curve falls in from its convex hull, as a fraction of its size
    (away from where it closes); DENT_DEPTH or more is a dent, where its bend reverses."""
    tips: int = 0
    """The points a closed curve of one stroke turns at, read finer than its outline
    (`fine_points`; 0 for any other figure): a lozenge's tips, which its outline rounds
    off as an oval's ends."""
    tips_read: bool = False
    """Whether `tips` was read from the stroke as drawn: then it, and not the corners of
    the outline, says how many points the curve has (a long oval's ends turn as sharply
    as points on its outline, and round as drawn)."""
    key: bytes = field(default=b"", compare=False, repr=False)
    """A digest of what it was read from (its strokes' points, and how they were joined;
    empty when unknown): what results about pairs of figures are cached by."""

    @property
    def changes_bend(self) -> bool:
        # A closed curve's bend changes where it falls in (a dent) or turns back sharply
        # (a notch): a lump's wiggle turns back by less, without falling in.
        reversal = LUMP_REVERSAL if self.closed else BEND_REVERSAL
        return self.curves > 0 and (self.bend_reversal >= reversal or self.dent >= DENT_DEPTH)

    @property
    def crosses_itself(self) -> bool:
        return self.crossings > 0

    @cached_property
    def box(self) -> tuple[float, float, float, float] | None:
        """Least x, least y, greatest x, greatest y of its outline (None without one),
        made once: a drawing checked after each stroke compares its shapes' boxes."""
        outline = self.outline
        if not outline:
            return None
        # The least point has the least x and the greatest the greatest (at C speed).
        return (min(outline)[0], min(y for _, y in outline), max(outline)[0],
                max(y for _, y in outline))

    def to_json(self) -> dict[str, JSON]:
        """What was found, for a view (the outline and pieces stay out: they are long)."""
        return {
            "strokes": list(self.strokes), "kind": self.kind.value, "closed": self.closed,
            "lines": self.lines, "curves": self.curves, "corners": len(self.corners),
            "rounds": self.rounds, "bend_reversal": self.bend_reversal,
            "crossings": self.crossings, "unjudged": self.unjudged,
        }


def stroke_from_xy(points: Iterable[Sequence[float]], step_ms: int = 10) -> Stroke:
    """A Stroke from (x, y) pairs (rounded to sheet units), `step_ms` apart in time."""
    return Stroke(
        tuple((round(p[0]), round(p[1]), i * step_ms) for i, p in enumerate(points))
    )


def strokes_from_xy(lines: Iterable[Iterable[Sequence[float]]]) -> tuple[Stroke, ...]:
    """Strokes from lists of (x, y) pairs, for tests and tools."""
    return tuple(stroke_from_xy(points) for points in lines)


@dataclass(frozen=True)
class Trace:
    """One stroke, simplified: its vertices, size (bounding-box diagonal) and length."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    size: float
    dot: bool
    length: float
    points: int = 0
    """How many points the stroke had as drawn."""
    key: bytes = field(default=b"", compare=False, repr=False)
    """The digest of the stroke's points (empty for a trace made otherwise): what the
    results about pairs of strokes are cached by, so that a drawing checked again after
    a new stroke measures only the new stroke's pairs."""
    fine: tuple[array[float], array[float]] | None = field(
        default=None, compare=False, repr=False)
    """The stroke thinned but not simplified (its points 1 tolerance apart at least, 160
    at most), x and y: what a closed curve's points are read from (FINE_POINT_ANGLE)."""

    @property
    def too_long(self) -> bool:
        return self.points > MAX_STROKE_POINTS

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        """Least x, least y, greatest x, greatest y of its vertices (made once: a drawing
        checked after each stroke weighs every stroke's box against the whole's)."""
        return min(self.xs), min(self.ys), max(self.xs), max(self.ys)


def tolerance_for(size: float) -> float:
    """The simplification tolerance for a figure of this size (bounding-box diagonal)."""
    return max(SIMPLIFY_FRACTION * size, SIMPLIFY_FLOOR)


def simplify_stroke(stroke: Stroke) -> Trace:
    """The stroke thinned, simplified and rid of spikes (a dot is left as its first point).

    The cost is bounded whatever the stroke: beyond RAW_POINTS it is taken every k-th
    point, after thinning it is resampled to MAX_VERTICES at most, and a stroke of more
    than MAX_STROKE_POINTS is not simplified at all (it is too long to judge)."""
    points = stroke.points
    if not points:
        raise EmptyStroke("a stroke needs at least one point")
    if len(points) > MAX_STROKE_POINTS:
        return _simplified(points)  # not judged: nothing worth caching
    # Cached by a digest of the points (the colour and width change nothing), so that the
    # cache holds no stroke: a drawing checked after each new stroke, or replayed after a
    # power cut, simplifies each stroke once, and 512 entries hold at most ~2 MB.
    key = stroke_digest(stroke)
    trace = _traces.get(key)
    if trace is None:
        trace = _simplified(points, key)
        remember(_traces, key, trace, _TRACES)
    return trace


_TRACES: Final = 512


def stroke_digest(stroke: Stroke) -> bytes:
    """The 16-byte digest of a stroke's points, what its results are cached by. Kept by
    the stroke's identity too (a weak reference, so no stroke is held): a drawing checked
    after each new stroke holds the same stroke objects, and hashing all their points
    again cost more than the check of the new one (30 us for 300 points)."""
    known = _digests.get(id(stroke))
    if known is not None and known[0]() is stroke:
        return known[1]
    # Marshal version 2 writes each value with its type, as version 4 does, but keeps no
    # table of the objects it has written (a lookup per point): a quarter faster, and
    # the key is only ever kept in memory.
    key = hashlib.blake2b(marshal.dumps(stroke.points, 2), digest_size=16).digest()
    with contextlib.suppress(TypeError):  # a stroke-like value without weak references
        remember(_digests, id(stroke), (weakref.ref(stroke), key), _DIGESTS)
    return key


_DIGESTS: Final = 1024
_digests: dict[int, tuple[weakref.ref[Stroke], bytes]] = {}
"""Digests by the identity of the stroke they were made of (checked through a weak
reference: an identity reused by another object after the stroke is gone misses)."""


def remember(cache: dict[K, V], key: K, value: V, size: int) -> None:
    """Keep `value` in a cache of at most `size` entries, the oldest going first. The box
    checks drawings on its writer thread and, now and then, on its loop: a race between
    the two only forgets an entry (the result is the same, made again)."""
    if len(cache) >= size:
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del cache[next(iter(cache))]
    cache[key] = value


_traces: dict[bytes, Trace] = {}


def _simplified(points: tuple[tuple[int, int, int], ...], key: bytes = b"") -> Trace:
    count = len(points)
    if count > RAW_POINTS:
        points = (*points[decimated(count, RAW_POINTS)], points[-1])
    # As floats once: the thinning's and the simplification's arithmetic on them is a
    # tenth to a quarter faster than on the integers as drawn (exactly the same values).
    xs = list(map(float, map(_first, points)))
    ys = list(map(float, map(_second, points)))
    width = max(xs) - min(xs)
    height = max(ys) - min(ys)
    size = math.hypot(width, height)
    if count > MAX_STROKE_POINTS or (width < DOT_SIZE and height < DOT_SIZE):
        return Trace((xs[0],), (ys[0],), size, True, 0.0, count, key)
    eps = tolerance_for(size)
    fx: Sequence[float]
    fy: Sequence[float]
    fx, fy = thin(xs, ys, eps)
    if len(fx) > MAX_VERTICES:
        fx, fy = resampled(fx, fy, MAX_VERTICES)
    kept = simplify(fx, fy, eps)
    txs, tys = despike([fx[k] for k in kept], [fy[k] for k in kept], eps)
    return Trace(tuple(txs), tuple(tys), size, False, cumulative(txs, tys)[-1], count, key,
                 (array("d", fx), array("d", fy)))


_first = itemgetter(0)
_second = itemgetter(1)


def _resimplify(xs: Sequence[float], ys: Sequence[float]) -> tuple[list[float], list[float]]:
    """Simplify again at the tolerance of the whole (for strokes joined into one), after
    resampling to MAX_VERTICES when the strokes together have more."""
    size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    if len(xs) > MAX_VERTICES:
        xs, ys = resampled(xs, ys, MAX_VERTICES)
    kept = simplify(xs, ys, tolerance_for(size))
    return [xs[k] for k in kept], [ys[k] for k in kept]


_LOOP_TRIES: Final = 6
"""Closing points tried per figure (the best by crossings inside and overshoot first)."""

_PROBES: Final = 9
"""Points along an overshoot checked to lie along the loop (a circle drawn twice round)."""


def _probes(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], a: float, b: float
) -> tuple[list[float], list[float]]:
    """_PROBES points evenly along the polyline between arc lengths a and b."""
    return points_at(xs, ys, cum, [a + (b - a) * k / (_PROBES - 1) for k in range(_PROBES)])


@dataclass(frozen=True)
class _Loop:
    xs: list[float]  # explicitly closed: the last point is the first
    ys: list[float]
    rounds: int
    crossings: int
    gap: bool  # the last segment bridges a gap: it was not drawn
    cum: list[float] | None = None  # its arc lengths, when measured already


def _close(
    xs: list[float], ys: list[float], cum: list[float], crossings: list[Crossing], eps: float
) -> _Loop | None:
    """The loop of a figure whose ends meet, overshoot or retrace it; None when open.

    Candidates are judged the same way from either end, so reversing a stroke does not
    change the answer: a crossing whose leftovers at both ends are short (or retrace the
    loop) wins; otherwise the ends may simply come close, or one end may touch the other
    end's first stretch.
    """
    total = cum[-1]
    n = len(xs)
    positions = [
        (cum[i] + ti * (cum[i + 1] - cum[i]), cum[j] + tj * (cum[j + 1] - cum[j]))
        for i, j, ti, tj in crossings
    ]
    best: tuple[int, float, float, float] | None = None  # inside, leftover, a, b
    # Crossings inside the loop (the fewer the better: a wavering overshoot can cross the
    # other end more than once, and only one of those closes the loop), then the least
    # left over: the first candidate in that order that passes is the loop. There are
    # at most CROSSING_LIMIT crossings, and only the first few candidates are measured.
    candidates = sorted(
        (sum(1 for a2, b2 in positions if a < a2 and b2 < b), a + total - b, a, b)
        for a, b in positions
        # Ends that merely touch are a gap of nothing (below); small curls are not the
        # loop, which may have been drawn at most 4 times round.
        if a + total - b > eps and b - a >= 0.25 * total
    )
    for inside, _, a, b in candidates[:_LOOP_TRIES]:
        loop_length = b - a
        head = a
        tail = total - b
        lx, ly = sub_polyline(xs, ys, cum, a, b)
        if abs(signed_area(lx, ly)) < MIN_ROUNDNESS * loop_length * loop_length:
            continue
        limit = OVERLAP_FRACTION * loop_length
        near = RETRACE_FRACTION * math.hypot(max(lx) - min(lx), max(ly) - min(ly))
        if head > limit and not stays_near(*_probes(xs, ys, cum, 0.0, a), lx, ly, near):
            continue
        if tail > limit and not stays_near(*_probes(xs, ys, cum, b, total), lx, ly, near):
            continue
        best = (inside, head + tail, a, b)
        break
    if best is not None:  # lx, ly are its loop, cut out above
        inside, _, a, b = best
        lx[-1] = lx[0]
        ly[-1] = ly[0]
        return _Loop(lx, ly, max(1, round(total / (b - a))), inside, False)
    # No overshoot: the ends come close, or one end touches the other end's first stretch
    # (where it comes nearest to it).
    options: list[tuple[float, float, float]] = []  # distance, a, b
    gap = math.hypot(xs[-1] - xs[0], ys[-1] - ys[0])
    if gap <= CLOSE_GAP * total:
        options.append((gap, 0.0, total))
    reach = OVERLAP_FRACTION * total
    # Farther along, up to RETRACE_REACH, an end may still touch the other end's stretch
    # when what is left over retraces the loop (a square whose first side is drawn again
    # to its end, without crossing it: the leftover runs beside the loop, not across).
    far = RETRACE_REACH * total
    nearest: tuple[float, float, float] | None = None
    for k in range(n - 1):
        if cum[k] > far:
            break
        t = projection(xs[-1], ys[-1], xs[k], ys[k], xs[k + 1], ys[k + 1])
        d = math.hypot(xs[-1] - xs[k] - t * (xs[k + 1] - xs[k]),
                       ys[-1] - ys[k] - t * (ys[k + 1] - ys[k]))
        a = cum[k] + t * (cum[k + 1] - cum[k])
        if a <= far and d <= CLOSE_GAP * (total - a) and (nearest is None or d < nearest[0]):
            nearest = (d, a, total)
    if nearest is not None and (nearest[1] <= reach or _retraces(xs, ys, cum, 0.0, nearest[1],
                                                                 nearest[1], total)):
        options.append(nearest)
    nearest = None
    for k in range(n - 2, -1, -1):
        if total - cum[k + 1] > far:
            break
        t = projection(xs[0], ys[0], xs[k], ys[k], xs[k + 1], ys[k + 1])
        d = math.hypot(xs[0] - xs[k] - t * (xs[k + 1] - xs[k]),
                       ys[0] - ys[k] - t * (ys[k + 1] - ys[k]))
        b = cum[k] + t * (cum[k + 1] - cum[k])
        if total - b <= far and d <= CLOSE_GAP * b and (nearest is None or d < nearest[0]):
            nearest = (d, 0.0, b)
    if nearest is not None and (total - nearest[2] <= reach or _retraces(
            xs, ys, cum, nearest[2], total, 0.0, nearest[2])):
        options.append(nearest)
    for d, a, b in sorted(options):
        lx, ly = sub_polyline(xs, ys, cum, a, b)
        if abs(signed_area(lx, ly)) < MIN_ROUNDNESS * (b - a + d) ** 2:
            continue
        if d > eps:
            # What closes the gap must not span the figure from side to side: the ends
            # of a U are as far apart as the U is wide, a circle's gap is a short chord.
            ux, uy = (lx[-1] - lx[0]) / d, (ly[-1] - ly[0]) / d
            along = [x * ux + y * uy for x, y in zip(lx, ly, strict=True)]
            if d > GAP_SPAN * (max(along) - min(along)):
                continue
        bridged = d > eps and len(lx) > 3
        meeting = meeting_point(lx, ly, d) if bridged else None
        if meeting is not None:  # extend both ends to where they meet: a corner, usually
            lx[0], ly[0] = meeting
            lx.append(lx[0])
            ly.append(ly[0])
        elif bridged:
            lx.append(lx[0])
            ly.append(ly[0])
        else:
            lx[-1] = lx[0]
            ly[-1] = ly[0]
        if bridged and (cuts_through(lx, ly, len(lx) - 2) or cuts_through(lx, ly, 0)):
            continue  # what closes the gap would cut through the figure: a spiral, say
        found = find_crossings(lx, ly, True)
        if found is None:  # a tangle: leave it open, the figure is judged tangled
            return None
        loop_cum = cumulative(lx, ly)
        crossings = without_curls(found, loop_cum, True)
        return _Loop(lx, ly, 1, len(crossings), bridged and meeting is None, loop_cum)
    return None


def _retraces(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float],
              a: float, b: float, la: float, lb: float) -> bool:
    """Whether the stretch from a to b (arc lengths) stays within RETRACE_FRACTION of the
    loop's size of the loop from la to lb: a leftover drawn along the loop again."""
    lx, ly = sub_polyline(xs, ys, cum, la, lb)
    near = RETRACE_FRACTION * math.hypot(max(lx) - min(lx), max(ly) - min(ly))
    return stays_near(*_probes(xs, ys, cum, a, b), lx, ly, near)


def _corners(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], closed: bool, w: float,
    angle: float = CORNER_ANGLE, turns: dict[int, float] | None = None,
    signed: dict[int, float] | None = None,
) -> list[int]:
    """The vertices where the figure turns by `angle` or more between the chords reaching
    w back and ahead along it (round the loop when closed), and, on an open figure,
    sharply: at least CORNER_SHARPNESS of that turn happens within w/2 (a corner turns at
    a point; a smooth bend, such as the bottom of a U or the crest of a wave, turns along
    its way; a closed figure's corners are weighed together, see POLYGON_TURN_SHARE). The
    sharpest first, none within w of another, so that a rounded corner is one corner.
    `turns` gets each candidate's turn, `signed` the same with its sign."""
    n = len(xs)
    total = cum[-1]
    vertices = range(n - 1) if closed else range(1, n - 1)
    if closed:
        back = [(cum[k] - w) % total for k in vertices]
        ahead = [(cum[k] + w) % total for k in vertices]
    else:
        back = [cum[k] - w for k in vertices]
        ahead = [cum[k] + w for k in vertices]
    count = len(back)
    px, py = points_at(xs, ys, cum, back + ahead)
    bx, by, ax, ay = px[:count], py[:count], px[count:], py[count:]
    limit = math.radians(angle)
    wide = []
    for i, k in enumerate(vertices):
        x = xs[k]
        y = ys[k]
        way = turn_between(x - bx[i], y - by[i], ax[i] - x, ay[i] - y)
        turn = abs(way)
        if turn >= limit:
            wide.append((turn, k))
            if signed is not None:
                signed[k] = way
    if closed:
        # A closed figure's corners are weighed together (POLYGON_TURN_SHARE), not one by
        # one by how sharply each turns: no chords of half the window are needed.
        candidates = [(-turn, k) for turn, k in wide]
        if turns is not None:
            turns.update((k, turn) for turn, k in wide)
    else:
        half = w / 2
        hb = [cum[k] - half for _, k in wide]
        ha = [cum[k] + half for _, k in wide]
        count = len(hb)
        px, py = points_at(xs, ys, cum, hb + ha)
        hbx, hby, hax, hay = px[:count], py[:count], px[count:], py[count:]
        candidates = []
        for i, (turn, k) in enumerate(wide):
            x = xs[k]
            y = ys[k]
            near = abs(turn_between(x - hbx[i], y - hby[i], hax[i] - x, hay[i] - y))
            if near >= CORNER_SHARPNESS * turn:
                candidates.append((-turn, k))
                if turns is not None:
                    turns[k] = turn
    candidates.sort()
    chosen: list[int] = []
    for _, k in candidates:
        s = cum[k]
        for c in chosen:
            d = abs(cum[c] - s)
            if closed:
                d = min(d, total - d)
            if d < w:
                break
        else:
            chosen.append(k)
    return sorted(chosen)


def _open_corners(
    cum: Sequence[float], corners: list[int], corner_turns: dict[int, float],
    signed_turns: dict[int, float],
) -> tuple[list[int], bool]:
    """An open figure's corners, from the sharp turns of POLYGON_CORNER_ANGLE or more:
    all of them when it is a polygon left open (POLYGON_CORNERS - 1 alike corners or
    more, away from its ends, each at least half the sharpest, all turning the same
    way: an octagon missing a side turns by 45 degrees at each corner); otherwise only
    those of CORNER_ANGLE. The flag says whether it is a polygon left open.
    `signed_turns` are the corners' turns with their signs, as _corners measured them
    (between the chords reaching the corner window back and ahead)."""
    total = cum[-1]
    hook = HOOK_FRACTION * total

    def one_way(ks: list[int]) -> bool:
        return len({signed_turns[k] > 0 for k in ks}) == 1

    inner = [k for k in corners if hook <= cum[k] <= total - hook]
    if len(inner) >= POLYGON_CORNERS - 1:
        strongest = max(corner_turns[k] for k in inner)
        if all(corner_turns[k] >= strongest / 2 for k in inner) and one_way(inner):
            return corners, True
    limit = math.radians(CORNER_ANGLE)
    sharp = [k for k in corners if corner_turns[k] >= limit]
    # As many corners of the usual angle, all turning one way, are a polygon left open
    # too, its corners unlike (some drawn round, as a hand runs on round the last ones).
    inner = [k for k in sharp if hook <= cum[k] <= total - hook]
    return sharp, len(inner) >= POLYGON_CORNERS - 1 and one_way(inner)


def _bend_turns(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], closed: bool, gap: bool
) -> list[float]:
    """The turns between successive chords of BEND_STEP of the length, in drawing order:
    turning measured at that scale, so the wobble of a finger (and the pixel steps of a
    small drawing) average out while each real bend keeps its whole turn. Left out: the
    first and last HOOK_FRACTION of the drawn length, where an open stroke may flick and
    where a loop closes (the pen started and stopped there; it made no turn)."""
    total = cum[-1]
    drawn = cum[-2] if gap else total  # a bridged gap is the last segment
    margin = HOOK_FRACTION * total
    step = BEND_STEP * total
    start = margin
    stop = drawn - margin
    if step <= 0 or stop - start < 2 * step:
        return []
    count = max(2, round((stop - start) / step))
    step = (stop - start) / count
    last = len(cum) - 2
    seg = 0
    px = py = 0.0
    prev_dx = prev_dy = 0.0
    turns: list[float] = []
    for k in range(count + 1):
        s = start + k * step
        while seg < last and cum[seg + 1] < s:
            seg += 1
        span = cum[seg + 1] - cum[seg]
        t = (s - cum[seg]) / span if span > 0 else 0.0
        x = xs[seg] + t * (xs[seg + 1] - xs[seg])
        y = ys[seg] + t * (ys[seg + 1] - ys[seg])
        if k:
            dx = x - px
            dy = y - py
            if k > 1:
                turns.append(turn_between(prev_dx, prev_dy, dx, dy))
            prev_dx, prev_dy = dx, dy
        px, py = x, y
    return turns


def _seam_turn(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float]) -> float:
    """Where a loop closes: the turn from the chord of its last HOOK_FRACTION to the chord
    of its first (chords that long, so that the cusp a closing overshoot leaves is no
    turn, while a heart's notch, where the lobes meet, is)."""
    total = cum[-1]
    margin = HOOK_FRACTION * total
    (ax, bx), (ay, by) = points_at(xs, ys, cum, [total - margin, margin])
    return turn_between(xs[0] - ax, ys[0] - ay, bx - xs[0], by - ys[0])


def bend_count(turns: Sequence[float], degrees: float = BEND_REVERSAL) -> int:
    """How many bends, one way then the other, the turns make: each must turn by
    `degrees` net (a hysteresis, so that wobble within a bend is no new bend). An arc has
    1, an S 2, a wave one per crest."""
    threshold = math.radians(degrees)
    count = 0
    side = 0
    run = 0.0
    for t in turns:
        run += t
        # The first bend may be cut by the start (the turns leave the ends out): a third
        # of the turn establishes it.
        need = threshold if side else threshold / 3
        if side >= 0 and run <= -need:
            count, side, run = count + 1, -1, 0.0
        elif side <= 0 and run >= need:
            count, side, run = count + 1, 1, 0.0
        elif (side > 0 and run > 0) or (side < 0 and run < 0):
            run = 0.0  # turning on in the bend's own direction: the same bend
    if side and abs(run) >= threshold / 3 and (run > 0) != (side > 0):
        count += 1  # so may the last
    return count


def _main_sign(turns: Sequence[float]) -> float:
    forward = sum(t for t in turns if t > 0)
    backward = -sum(t for t in turns if t < 0)
    return 1.0 if forward >= backward else -1.0


def _reversal(turns: Sequence[float], sign: float = 0.0) -> float:
    """The most a run of consecutive turns goes back against the main direction of turning
    (radians; `sign`, or the direction most of the turns take): Kadane's maximum sum over
    the turns counted against that direction."""
    sign = sign or _main_sign(turns)
    best = 0.0
    running = 0.0
    for t in turns:
        v = -sign * t
        running = running + v if running > 0 else v
        if running > best:
            best = running
    return best


def _figure(strokes: tuple[int, ...], xs: list[float], ys: list[float], size: float,
            key: bytes = b"", fine: tuple[Sequence[float], Sequence[float]] | None = None,
            parts: Sequence[tuple[Sequence[float], Sequence[float]]] = ()) -> Figure:
    """Read one simplified polyline: closed or not, its corners, straight pieces, curves.
    `key` is the digest it was read from, when it is one stroke's (see Figure.key);
    `fine` the stroke as drawn, when it is one stroke; `parts` the strokes as drawn, when
    it is strokes joined (for their flat share only)."""
    xs, ys, cum = trim_flicks(xs, ys)
    total = cum[-1]
    eps = tolerance_for(size)
    if total <= eps:  # strokes that cancel out (a line and the same line backwards)
        return _dot_figure(strokes, size, xs, ys)
    found = find_crossings(xs, ys, closed=False)
    if found is None:
        return replace(_dot_figure(strokes, size, xs, ys), kind=FigureKind.CURVE, curves=1,
                       length=total, crossings=CROSSING_LIMIT, unjudged="tangled")
    crossings = without_curls(found, cum, closed=False)
    loop = _close(xs, ys, cum, crossings, eps) if len(xs) > 3 else None
    rounds = 1
    if loop is not None:
        xs, ys, rounds, crossing_count = loop.xs, loop.ys, loop.rounds, loop.crossings
        cum = loop.cum if loop.cum is not None else cumulative(xs, ys)
        total = cum[-1]
    else:
        crossing_count = len(crossings)
    closed = loop is not None
    n = len(xs)
    w = CORNER_WINDOW * total
    corner_turns: dict[int, float] = {}
    signed_turns: dict[int, float] = {}  # the same turns with their signs
    unlike = False  # a polygon's corners of two sizes: then every side must be straight
    left_open = False  # a polygon left open (an octagon missing a side)
    by_sides = False  # a polygon by its straight sides (_side_corners), its corners soft
    corners = _corners(xs, ys, cum, closed, w, POLYGON_CORNER_ANGLE, corner_turns,
                       signed_turns)
    if not closed:
        corners, left_open = _open_corners(cum, corners, corner_turns, signed_turns)
    if closed and corners:
        # A polygon's corners are alike, and it turns at them and nowhere else: they must
        # hold most of the loop's whole turn. Otherwise (a round loop with a few sharper
        # spots, a square with a kink) only corners of the usual angle count.
        def polygon_corners(ks: list[int]) -> bool:
            return (len(ks) >= POLYGON_CORNERS
                    and sum(corner_turns[k] for k in ks) >= POLYGON_TURN_SHARE * 2 * math.pi)

        strongest = max(corner_turns[k] for k in corners)
        alike = [k for k in corners if corner_turns[k] >= strongest / 2]
        ranked = sorted((corner_turns[k] for k in corners), reverse=True)
        if (not polygon_corners(alike) and len(corners) >= POLYGON_CORNERS
                and sum(ranked[:4]) < POLYGON_FOUR_SHARE * sum(ranked)):
            # Corners of two sizes, none of them a kink: a polygon drawn round, its
            # corners sharper at its ends (an octagon, a hexagon drawn wide, a gap closed
            # across a side, which makes its two corners one). A square or a triangle
            # with kinks turns mostly at its 3 or 4 corners.
            alike = list(corners)
            unlike = True
        if not polygon_corners(alike):
            # A polygon drawn fast turns softly between straight sides: its corners may
            # turn by less than POLYGON_CORNER_ANGLE within the window, but its sides
            # are long straight runs, where a circle turns all along.
            limit = math.radians(CORNER_ANGLE)
            sharp = [k for k in corners if corner_turns[k] >= limit]
            alike = _rounded_corners(xs, ys, sharp, corners, corner_turns) or sharp
            if len(alike) < 3 or any(chord_deviation(xs, ys, span) > SIDE_TOLERANCE
                                     for span in _closed_spans(alike, n)):
                runs = _side_corners(xs, ys, cum)
                if runs is not None:
                    alike = runs
                    unlike = False
                    by_sides = True
        corners = alike
        if (len(corners) >= POLYGON_CORNERS and not by_sides
                and (_run_share(xs, ys, cum) < POLYGON_RUN_SHARE
                     or (fine is not None and _lumpy_sides(fine, xs, ys, corners)))):
            # Corners without sides between them: the lumps of a round figure drawn with
            # a wobbling finger, which turns all along between them (a polygon's sides
            # are straight runs a person sees). Its points stay (a heart's notch and
            # tip): a circle has none.
            point = math.radians(POINT_ANGLE)
            corners = [k for k in corners if corner_turns[k] >= point]
            unlike = False
    elif closed:
        corners = _side_corners(xs, ys, cum) or []
        by_sides = bool(corners)
    drawn = parts or ((fine,) if fine is not None else ())
    if (closed and drawn and len(corners) >= POLYGON_CORNERS
            and all(corner_turns.get(k, 0.0) < math.radians(POINT_ANGLE) for k in corners)
            and ((len(drawn) == 1 and sparse_round(*drawn[0]))
                 or _flat_share_of(drawn) < POLYGON_FLAT_SHARE)):
        # Blunt corners with too little flat between them where a person looks: a lumpy
        # circle drawn with a wobbling finger, however straight the outline runs between
        # its lumps at the simplification's scale (a polygon's sides are flat for most of
        # their length, its turn held in its corners), or a circle drawn fast with a
        # mouse, whose few points turn alike all round. A star's points are sharp: it
        # stays lines.
        corners = []
        unlike = by_sides = False
    first = 0
    last = n - 1
    if not closed:
        hook = HOOK_FRACTION * total
        while corners and cum[corners[0]] < hook:
            first = corners.pop(0)
        while corners and total - cum[corners[-1]] < hook:
            last = corners.pop()
    # Straightness first, relative to the length: a stroke that stays within
    # LINE_TOLERANCE of its chord is one straight line, its wiggles no corners, unless it
    # bends back and forth 3 times or more: then it is a low wave, a curve.
    wave = False
    open_turns: list[float] | None = None  # measured once: for the wave and for the bend
    straying = chord_deviation(xs, ys, range(first, last + 1)) if not closed else math.inf
    if straying <= LINE_TOLERANCE:
        # A wave must rise above the pen's tremor: one within WAVE_RISE simplification
        # tolerances of its chord is a straight line whose jitter turns both ways (a
        # short stroke's few vertices turn sharply at the smallest wobble).
        chord = math.hypot(xs[last] - xs[first], ys[last] - ys[first])
        if straying * chord > WAVE_RISE * eps:
            open_turns = _bend_turns(xs, ys, cum, False, False)
            wave = bend_count(open_turns, WAVE_BEND) >= 3
        corners = []
    # Pieces run from corner to corner (from end to end when open).
    spans: list[list[int]] = []
    if closed:
        m = n - 1
        if corners:
            for c, start in enumerate(corners):
                stop = corners[(c + 1) % len(corners)]
                span = list(range(start, stop + 1)) if stop > start else [
                    *range(start, m), *range(0, stop + 1)
                ]
                spans.append(span)
        else:
            spans.append(list(range(0, n)))
    else:
        bounds = [first, *corners, last]
        spans = [list(range(bounds[c], bounds[c + 1] + 1)) for c in range(len(bounds) - 1)]
    deviations = [chord_deviation(xs, ys, span) for span in spans]
    # Corners are evidence of straight lines meeting: the arms of an angle and the sides
    # of a polygon may bow more than a lone stroke and still be straight lines (hands bow
    # them; a wave whose crests are tighter than the corner window reads as lines too).
    # A polygon has 3 sides at least.
    tolerance = SIDE_TOLERANCE if corners else LINE_TOLERANCE
    # Corners before roundness: a closed figure with POLYGON_CORNERS clear corners or
    # more, its sides straight on average, is a polygon: they count as straight lines,
    # and it is not a circle or a curve (a heart has corners too, but round lobes).
    # So is a polygon left open whose sides are straight on average, but for its first or
    # last side, which may bow (no longer than twice the middle side): an octagon missing
    # a side whose last side runs on round the corner is 7 lines to a person, not "1
    # curve"; a question mark, whose hook may have corners too, bows between them.
    mean_deviation = sum(deviations) / len(deviations)
    polygon = ((closed and len(corners) >= POLYGON_CORNERS
                and (by_sides or mean_deviation <= LINE_TOLERANCE)
                and (not unlike or max(deviations) <= SIDE_TOLERANCE)
                and not _rounded_dent(xs, ys, cum, corners, w))
               or (left_open and len(corners) >= POLYGON_CORNERS - 1 and not crossing_count
                   and mean_deviation <= LINE_TOLERANCE
                   and _bows_are_sides(xs, ys, spans, deviations)))
    straight = [
        polygon or (d <= tolerance and (not closed or len(spans) >= 3) and not wave)
        for d in deviations
    ]
    if (not closed and len(corners) >= 2 and all(straight) and not crossing_count
            and _corner_share(xs, ys, cum, [first, *corners, last]) < WAVE_CORNER_SHARE):
        # Straight pieces whose corners turn one way and the other, but that turn along
        # their flanks too: a wave with sharp crests, one curve changing its bend (a
        # person sees a snake, not a zigzag of lines).
        straight = [False] * len(straight)
    pieces = tuple(
        Piece(
            (xs[span[0]], ys[span[0]]),
            (xs[span[-1]], ys[span[-1]]),
            is_straight,
            deviation,
        )
        for span, deviation, is_straight in zip(spans, deviations, straight, strict=True)
    )
    # Only straight pieces: that many straight lines. Anything curved makes the whole
    # figure one curve (a "J" is a curve, not a line and a curve), whose bend is then
    # measured over all of it, corners included.
    all_straight = all(straight)
    lines = len(pieces) if all_straight else 0
    curves = 0 if all_straight else 1
    reversal = 0.0
    if curves:
        gap = loop is not None and loop.gap
        turns = open_turns if open_turns is not None else _bend_turns(xs, ys, cum, closed, gap)
        reversal = _reversal(turns)
        if closed and not gap and turns:
            # Round the loop, through where it closes: the pen started and stopped there,
            # and the cusp it leaves may turn back by 30-40 degrees; a turn back of twice
            # BEND_REVERSAL is more than a sloppy close (a heart's notch turns back 90+).
            mid = len(turns) // 2
            around = _reversal([*turns[mid:], _seam_turn(xs, ys, cum), *turns[:mid]],
                               _main_sign(turns))
            if around >= math.radians(2 * BEND_REVERSAL):
                reversal = max(reversal, around)
    # How deep it falls in: only for a closed curve still keeping its bend (a heart's
    # notch has changed it already).
    dent = (_dent_depth(xs, ys, cum)
            if closed and curves and reversal < math.radians(LUMP_REVERSAL) else 0.0)
    kind = (
        FigureKind.LINE if lines == 1
        else FigureKind.LINES if lines
        else FigureKind.MIXED if any(
            s and (cum[span[-1]] - cum[span[0]]) % total >= 2 * w  # not a flat between bends
            for s, span in zip(straight, spans, strict=True)
        )
        else FigureKind.CURVE
    )
    return Figure(
        strokes=strokes,
        kind=kind,
        closed=closed,
        lines=lines,
        curves=curves,
        pieces=pieces,
        corners=tuple((xs[k], ys[k]) for k in corners),
        rounds=rounds,
        bend_reversal=round(math.degrees(reversal), 1),
        crossings=crossing_count,
        size=size,
        length=total,
        outline=tuple(zip(xs, ys, strict=True)),
        dent=round(dent, 4),
        key=key,
    )


def flat_share(xs: Sequence[float], ys: Sequence[float], whole: float = 0.0) -> float:
    """The share of a stroke (as drawn: thinned, not simplified) that is flat where a
    person looks at it: resampled every 1/FLAT_SAMPLES of `whole` (the length of the loop
    it is part of; its own length when 0), those points where it turns between chords of
    FLAT_REACH of `whole` either side by less than FLAT_TURN of what a circle of that
    length turns there. A circle has none; a polygon's sides are flat for most of their
    length. Linear in the stroke's points (FLAT_SAMPLES turns at most)."""
    cum = cumulative(xs, ys)
    total = cum[-1]
    whole = whole or total
    if len(xs) < 3 or total <= 0:
        return 1.0
    count = min(FLAT_SAMPLES, math.floor(FLAT_SAMPLES * total / whole))
    k = max(1, round(FLAT_REACH * FLAT_SAMPLES))
    if count < 2 * k + 1:
        return 1.0  # too short a piece to turn within the reach: nothing measured
    rx, ry = points_at(xs, ys, cum, [total * i / count for i in range(count + 1)])
    limit = FLAT_TURN * 2 * math.pi * 2 * FLAT_REACH
    flat = sum(abs(turn_between(rx[i] - rx[i - k], ry[i] - ry[i - k],
                                rx[i + k] - rx[i], ry[i + k] - ry[i])) < limit
               for i in range(k, count + 1 - k))
    return flat / (count + 1 - 2 * k)


def sparse_round(xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Whether a stroke (as drawn: thinned, not simplified) is sampled so sparsely that
    it can show no flat side below its spacing, and turns alike all round at that
    spacing: a circle drawn fast with a mouse, its pointer events 10-30 straight segments
    (SPARSE_SIDES, SPARSE_TURN). Its points are merged first where they are closer than
    1/SPARSE_SPACING of its length (the slow ends' bunched events, stair steps of a
    pixel). Each turn is weighed against what a circle turns over its two segments'
    share of the length, so that an uneven pace (slow ends, a fast middle) does not
    matter, and a turn back, a flat or a corner does. Linear in the points."""
    total = cumulative(xs, ys)[-1]
    if len(xs) < SPARSE_SIDES[0] + 1 or total <= 0:
        return False
    gap = total / SPARSE_SPACING
    kx, ky = [xs[0]], [ys[0]]
    for x, y in zip(xs, ys, strict=True):
        if math.hypot(x - kx[-1], y - ky[-1]) >= gap:
            if len(kx) > SPARSE_SIDES[1]:
                return False  # dense: the flat share reads it
            kx.append(x)
            ky.append(y)
    sides = len(kx) - 1
    if not SPARSE_SIDES[0] <= sides <= SPARSE_SIDES[1]:
        return False
    lengths = [math.hypot(bx - ax, by - ay) for ax, ay, bx, by in
               zip(kx, ky, kx[1:], ky[1:], strict=False)]
    turns = [turn_between(kx[i] - kx[i - 1], ky[i] - ky[i - 1], kx[i + 1] - kx[i],
                          ky[i + 1] - ky[i]) for i in range(1, sides)]
    sign = 1.0 if sum(turns) > 0 else -1.0
    low, high = SPARSE_TURN
    # A circle turns by pi * (l0 + l1) / total between two segments' midpoints.
    return all(low <= sign * turn * total / (math.pi * (before + after)) <= high
               for turn, before, after in zip(turns, lengths, lengths[1:], strict=False))


def _flat_share_of(parts: Sequence[tuple[Sequence[float], Sequence[float]]]) -> float:
    """The flat share of strokes as drawn round a loop, each measured on its own (where
    two strokes meet, the pen was lifted: no turn of the hand to measure) at the scale of
    the whole loop, weighed by its length."""
    if len(parts) == 1:
        return flat_share(*parts[0])
    lengths = [cumulative(xs, ys)[-1] for xs, ys in parts]
    whole = sum(lengths)
    if whole <= 0:
        return 1.0
    return sum(flat_share(xs, ys, whole) * length
               for (xs, ys), length in zip(parts, lengths, strict=True)) / whole


def _lumpy_sides(fine: tuple[Sequence[float], Sequence[float]], xs: Sequence[float],
                 ys: Sequence[float], corners: Sequence[int]) -> bool:
    """Whether the stretches between a closed stroke's corners are no straight sides, read
    from the stroke as drawn (`fine`, thinned, not simplified): the middle 60 % of each
    stretch wavers across its chord by LUMPY_SIDE of its length or more, at the median.
    A circle's lumps drawn with a wobbling finger waver so (generated: 0.03-0.15, most
    over 0.075); a polygon's sides, however fast or unevenly drawn, stay straight
    (generated fast and wide octagons: 0.023-0.072; Quick, Draw! octagons and hexagons:
    0-0.072, but one of 0.109). Linear in the stroke's points and its corners."""
    fx, fy = fine
    n = len(fx)
    if n < 2 * len(corners):
        return False
    # Each corner at its point of the stroke (the outline's vertices are the stroke's
    # points but where a loop was closed), or the nearest.
    index = {p: i for i, p in enumerate(zip(fx, fy, strict=True))}
    where = []
    for k in corners:
        cx, cy = xs[k], ys[k]
        i = index.get((cx, cy))
        where.append(i if i is not None else nearest_point(fx, fy, cx, cy))
    where.sort()
    widths = []
    for a, b in zip(where, [*where[1:], where[0] + n], strict=True):
        cut = round((b - a) * 0.2)
        lo, hi = a + cut, b - cut
        if hi - lo < 2:
            widths.append(0.0)
            continue
        x0, y0, x1, y1 = fx[lo % n], fy[lo % n], fx[hi % n], fy[hi % n]
        dx, dy = x1 - x0, y1 - y0
        chord = math.hypot(dx, dy)
        if chord <= 0:
            widths.append(0.0)
            continue
        off = [dx * (fy[i % n] - y0) - dy * (fx[i % n] - x0) for i in range(lo, hi + 1)]
        widths.append((max(off) - min(off)) / (chord * chord))
    widths.sort()
    return widths[len(widths) // 2] >= LUMPY_SIDE


def _run_share(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float]) -> float:
    """The share of a closed outline (the last point is the first) covered by straight
    runs at least CORNER_WINDOW of its length long: consecutive segments meeting at turns
    under POLYGON_SIDE_BEND (see POLYGON_RUN_SHARE). Linear in the outline's vertices."""
    n = len(xs) - 1
    total = cum[-1]
    if n < 2 or total <= 0:
        return 0.0
    bend = math.radians(POLYGON_SIDE_BEND)
    breaks = [k for k in range(n)
              if abs(turn_between(xs[k] - xs[k - 1 if k else n - 1],
                                  ys[k] - ys[k - 1 if k else n - 1],
                                  xs[k + 1] - xs[k], ys[k + 1] - ys[k])) >= bend]
    if not breaks:
        return 1.0
    shortest = CORNER_WINDOW * total
    covered = 0.0
    for i, start in enumerate(breaks):
        length = (cum[breaks[(i + 1) % len(breaks)]] - cum[start]) % total
        if len(breaks) == 1:
            length = total
        if length >= shortest:
            covered += length
    return covered / total


def _side_corners(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float]
                  ) -> list[int] | None:
    """The corners of a closed outline (the last point is the first) that is a polygon by
    its straight sides, or None: POLYGON_CORNERS or more straight runs, each at least
    POLYGON_SIDE_LENGTH of the length (segments meeting at turns under
    POLYGON_SIDE_BEND) and within POLYGON_SIDE_STRAIGHT of its chord, covering
    POLYGON_SIDE_SHARE of it, turning the same way from each to the next and by
    POLYGON_CORNER_ANGLE or more at POLYGON_CORNERS joints at least (an oval's flanks
    meet at 15-30 degrees). A corner is the vertex halfway along what lies between two
    runs (a corner drawn round). Linear in the outline's vertices."""
    n = len(xs) - 1
    total = cum[-1]
    if n < POLYGON_CORNERS or total <= 0:
        return None
    bend = math.radians(POLYGON_SIDE_BEND)
    # Breaks: the vertices where the outline turns by POLYGON_SIDE_BEND or more.
    breaks = [k for k in range(n)
              if abs(turn_between(xs[k] - xs[k - 1 if k else n - 1],
                                  ys[k] - ys[k - 1 if k else n - 1],
                                  xs[k + 1] - xs[k], ys[k + 1] - ys[k])) >= bend]
    if len(breaks) < POLYGON_CORNERS:
        return None
    runs = []  # (first vertex, last vertex) of each long run, in order round the loop
    covered = 0.0
    for i, start in enumerate(breaks):
        stop = breaks[(i + 1) % len(breaks)]
        length = (cum[stop] - cum[start]) % total
        if length >= POLYGON_SIDE_LENGTH * total:
            runs.append((start, stop))
            covered += length
    if len(runs) < POLYGON_CORNERS or covered < POLYGON_SIDE_SHARE * total:
        return None
    joints = []
    corners = []
    for i, (start, stop) in enumerate(runs):
        after, ahead = runs[(i + 1) % len(runs)]
        joints.append(turn_between(xs[stop] - xs[start], ys[stop] - ys[start],
                                   xs[ahead] - xs[after], ys[ahead] - ys[after]))
        # What lies between the runs, stop to after (none when they share a vertex).
        middle = (cum[stop] + ((cum[after] - cum[stop]) % total) / 2) % total
        between = [stop] if after == stop else [
            k % n for k in range(stop, after + (n if after < stop else 0) + 1)]
        corners.append(min(between, key=lambda k: min(abs(cum[k] - middle),
                                                      total - abs(cum[k] - middle))))
    corner = math.radians(POLYGON_CORNER_ANGLE)
    if (len({j > 0 for j in joints}) != 1
            or sum(abs(j) >= corner for j in joints) < POLYGON_CORNERS):
        return None  # an oval's flat flanks turn by 15-30 degrees from run to run
    if any(chord_deviation(xs, ys, [k % n for k in range(start, stop + (n if stop <= start
                                                                     else 0) + 1)])
           > POLYGON_SIDE_STRAIGHT for start, stop in runs):
        return None
    return sorted(set(corners))


def _bows_are_sides(
    xs: Sequence[float], ys: Sequence[float], spans: Sequence[Sequence[int]],
    deviations: Sequence[float],
) -> bool:
    """Whether only an end piece of an open figure bows beyond SIDE_TOLERANCE, no longer
    (corner to corner) than twice the median piece: a polygon's first or last side, the
    hand running on round a corner where it starts or stops; not a stem, nor an arc
    between corners (a question mark's hook, however angular, bows in its middle)."""
    lengths = [math.hypot(xs[span[-1]] - xs[span[0]], ys[span[-1]] - ys[span[0]])
               for span in spans]
    middle = sorted(lengths)[len(lengths) // 2]
    last = len(spans) - 1
    return all(d <= SIDE_TOLERANCE or (k in (0, last) and lengths[k] <= 2 * middle)
               for k, d in enumerate(deviations))


def _closed_spans(corners: Sequence[int], n: int) -> list[list[int]]:
    """The vertex indices of each side of a closed outline of n points (the last is the
    first) from corner to corner, round the loop."""
    m = n - 1
    spans = []
    for c, start in enumerate(corners):
        stop = corners[(c + 1) % len(corners)]
        spans.append(list(range(start, stop + 1)) if stop > start
                     else [*range(start, m), *range(0, stop + 1)])
    return spans


def _rounded_corners(
    xs: Sequence[float], ys: Sequence[float], sharp: Sequence[int], weak: Sequence[int],
    turns: dict[int, float],
) -> list[int] | None:
    """The corners of a triangle with a corner drawn round, or None: the loop's 2 corners
    of CORNER_ANGLE (`sharp`) leave a side that is not straight, and one more of its
    turns of POLYGON_CORNER_ANGLE (`weak`) makes every side straight (SIDE_TOLERANCE).
    A hand rounds a corner whose turn then spreads beyond the corner window (an obtuse
    corner of a triangle turns by 60 degrees, and by 30-45 within the window once
    rounded); the arc of a "D" or of a lemon, split where it turns most, is still bowed
    (a quarter circle: 21 % off its chord). One corner only: a corner drawn so round
    that it turns twice by 30 degrees is not two corners (a triangle is not "four sides,
    the corners far from right angles"); nor from 3 corners to 4: a triangle left open
    at a corner, the gap bridged, would be four-sided."""
    if len(sharp) != 2 or len(weak) <= len(sharp):
        return None
    n = len(xs)
    if all(chord_deviation(xs, ys, span) <= SIDE_TOLERANCE
           for span in _closed_spans(sharp, n)):
        return None  # already straight sides: nothing is rounded
    for extra in sorted((k for k in weak if k not in sharp), key=lambda k: -turns[k]):
        corners = sorted([*sharp, extra])
        if all(chord_deviation(xs, ys, span) <= SIDE_TOLERANCE
               for span in _closed_spans(corners, n)):
            return corners
    return None


def _corner_share(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], bounds: Sequence[int]
) -> float:
    """How much of the bends of an open figure its corners hold (1.0 unless the corners,
    the inner `bounds`, turn one way and the other): the turn within CORNER_WINDOW of each
    corner, over the turn between the middles of the pieces either side of it. A zigzag
    turns at its corners only (0.85 and more); a wave with sharp crests along its flanks
    too (0.5-0.75)."""
    total = cum[-1]
    w = CORNER_WINDOW * total
    d = BEND_STEP * total / 2
    at = [cum[k] for k in bounds]
    positions: list[float] = []
    for c in range(1, len(at) - 1):
        before = (at[c - 1] + at[c]) / 2
        after = (at[c] + at[c + 1]) / 2
        positions += [before - d, before + d, after - d, after + d, at[c] - w, at[c], at[c] + w]
    px, py = points_at(xs, ys, cum, positions)
    corner_sum = bend_sum = 0.0
    sign = 0.0
    for i in range(0, len(positions), 7):
        bend = turn_between(px[i + 1] - px[i], py[i + 1] - py[i],
                            px[i + 3] - px[i + 2], py[i + 3] - py[i + 2])
        corner = turn_between(px[i + 5] - px[i + 4], py[i + 5] - py[i + 4],
                              px[i + 6] - px[i + 5], py[i + 6] - py[i + 5])
        if sign and (corner > 0) == (sign > 0):
            return 1.0  # two corners the same way: a bracket, a polygon's sides
        sign = corner
        corner_sum += abs(corner)
        bend_sum += abs(bend)
    return corner_sum / bend_sum if bend_sum > 0 else 1.0


def _rounded_dent(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], corners: Sequence[int],
    w: float,
) -> bool:
    """Whether a closed figure falls in (a dent, DENT_DEPTH deep) with fewer than two
    corners turning back: a bean whose weak corners count five, or more. A polygon is
    convex (a hexagon, an octagon), or falls in at its inner corners (a star's five)."""
    if _dent_depth(xs, ys, cum) < DENT_DEPTH:
        return False
    total = cum[-1]
    orientation = 1.0 if signed_area(xs, ys) > 0 else -1.0
    positions = [p for k in corners for p in ((cum[k] - w) % total, (cum[k] + w) % total)]
    px, py = points_at(xs, ys, cum, positions)
    inner = 0
    for i, k in enumerate(corners):
        bx, by, ax, ay = px[2 * i], py[2 * i], px[2 * i + 1], py[2 * i + 1]
        if orientation * turn_between(xs[k] - bx, ys[k] - by, ax - xs[k], ay - ys[k]) < 0:
            inner += 1
    return inner < 2


def _dent_depth(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float]) -> float:
    """How deep a closed outline (the last point is the first) falls in from its convex
    hull, relative to its size: the farthest a vertex lies inside the hull edge that
    spans it. In the pocket where the loop closes, the vertices within SEAM_MARGIN of the
    closing point are left out (the pen started and stopped there: a close falling short
    inwards leaves a notch; the turn there is judged by the seam's own rule), unless
    they fall in by SEAM_DENT_DEPTH or more."""
    n = len(xs) - 1
    if n < 4:
        return 0.0
    size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    if size <= 0 or _convex(xs, ys, n):
        return 0.0  # the usual circle: no vertex inside its hull, nothing to search
    total = cum[-1]
    margin = SEAM_MARGIN * total
    hull = _hull(xs, ys, n)
    deepest = 0.0
    seam_deepest = 0.0
    for a, b in zip(hull, [*hull[1:], hull[0] + n], strict=True):
        if b - a < 2:
            continue
        seam = a == 0 or b >= n
        ax, ay = xs[a], ys[a]
        ex, ey = xs[b % n] - ax, ys[b % n] - ay
        edge = math.hypot(ex, ey)
        if edge <= 0:
            continue
        for k in range(a + 1, b):
            j = k % n
            depth = abs(ex * (ys[j] - ay) - ey * (xs[j] - ax)) / edge
            if seam and (cum[j] < margin or total - cum[j] < margin):
                seam_deepest = max(seam_deepest, depth)
            elif depth > deepest:
                deepest = depth
    if seam_deepest >= SEAM_DENT_DEPTH * size:
        # Deeper than a close falling short: a notch where the pen began (a heart drawn
        # from its notch).
        deepest = max(deepest, seam_deepest)
    return deepest / size


def _convex(xs: Sequence[float], ys: Sequence[float], n: int) -> bool:
    """Whether the closed polygon of the first n points turns the same way at every vertex
    (then each vertex is on its convex hull, if it goes round once)."""
    sign = 0.0
    px = xs[0] - xs[n - 1]
    py = ys[0] - ys[n - 1]
    for k in range(n):
        nxt = k + 1 if k + 1 < n else 0
        qx = xs[nxt] - xs[k]
        qy = ys[nxt] - ys[k]
        cross = px * qy - py * qx
        if cross:
            if sign and (cross > 0) != (sign > 0):
                return False
            sign = cross
        px = qx
        py = qy
    return True


def _hull(xs: Sequence[float], ys: Sequence[float], n: int) -> list[int]:
    """The indices (of the first n points) on their convex hull, in the order of the
    outline (Andrew's monotone chain, O(n log n))."""
    order = sorted(range(n), key=list(zip(xs, ys, strict=True)).__getitem__)  # by x, then y

    def half(indices: Iterable[int]) -> list[int]:
        chain: list[int] = []
        for k in indices:
            while len(chain) >= 2:
                o, a = chain[-2], chain[-1]
                if ((xs[a] - xs[o]) * (ys[k] - ys[o]) - (ys[a] - ys[o]) * (xs[k] - xs[o])) > 0:
                    break
                chain.pop()
            chain.append(k)
        return chain[:-1]

    return sorted({*half(order), *half(reversed(order))})


def drawn_back_along(figure: Figure) -> bool:
    """An open figure of straight pieces that all lie along one line, within
    LINE_TOLERANCE of the longest piece's length: a line drawn there and back (or to and
    fro) in one stroke, which a person reads as one line, not as a narrow angle."""
    if (figure.kind is not FigureKind.LINES or len(figure.pieces) < 2
            or len(figure.strokes) != 1):
        return False  # strokes joined end to end continue each other: not this
    longest = max(figure.pieces, key=lambda p: math.dist(p.start, p.end))
    (x0, y0), (x1, y1) = longest.start, longest.end
    chord = math.dist(longest.start, longest.end)
    if chord <= 0:
        return False
    reach = LINE_TOLERANCE * chord * chord  # distances times the chord's length
    dx, dy = x1 - x0, y1 - y0
    return all(abs((x - x0) * dy - (y - y0) * dx) <= reach for x, y in figure.outline)


def drawn_to_and_fro(figure: Figure) -> bool:
    """An open figure along one line (FigureKind.LINE, or `drawn_back_along`) drawn to and
    fro: back along its pieces, or, where its outline is one piece (the turns back lie on
    its chord), at least TO_AND_FRO_LENGTH times its chord's length as drawn. Its goes
    cross where they meet, and a person still sees one line, drawn thick; a line with a
    curl in it is as long as its chord and a fifth at most, and crosses itself."""
    if figure.closed or figure.kind not in (FigureKind.LINE, FigureKind.LINES):
        return False
    if figure.kind is FigureKind.LINES:
        return drawn_back_along(figure)
    return figure.length >= TO_AND_FRO_LENGTH * math.dist(figure.outline[0], figure.outline[-1])


def sharp_points(figure: Figure) -> int:
    """How many of a closed figure's corners turn by POINT_ANGLE or more between the
    chords of CORNER_WINDOW of its length either side: the points a circle has none of
    (its seam leaves one at most)."""
    outline = figure.outline
    if not figure.closed or len(figure.corners) < 2 or len(outline) < 4:
        return 0
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    cum = cumulative(xs, ys)
    total = cum[-1]
    if total <= 0:
        return 0
    where = {p: k for k, p in enumerate(outline[:-1])}
    at = [where[c] for c in figure.corners if c in where]
    w = CORNER_WINDOW * total
    px, py = points_at(xs, ys, cum, [*((cum[k] - w) % total for k in at),
                                     *((cum[k] + w) % total for k in at)])
    count = len(at)
    limit = math.radians(POINT_ANGLE)
    return sum(
        1 for i, k in enumerate(at)
        if abs(turn_between(xs[k] - px[i], ys[k] - py[i],
                            px[count + i] - xs[k], py[count + i] - ys[k])) >= limit
    )


def points_of(figure: Figure) -> int:
    """How many points a closed curve has: its tips read from the stroke as drawn, where
    they were (one stroke), or else the sharper of its outline's corners and those."""
    if figure.tips_read:
        return figure.tips
    return max(sharp_points(figure), figure.tips)


def open_corners(figure: Figure) -> int:
    """How many corners of an open curve turn by POLYGON_CORNER_ANGLE or more between the
    chords of CORNER_WINDOW of its length either side, a window or more from its ends,
    when two of them are the ends of a straight side (within SIDE_TOLERANCE of its
    chord): then it is straight sides and bows at corners (an octagon left open and drawn
    round, a square bracket drawn fast), not one curve; 0 otherwise (the bottom of a
    narrow U bows between the corners its outline has there). Linear in its corners."""
    outline = figure.outline
    corners = figure.corners
    if (figure.closed or not figure.curves or len(corners) < 2 or len(outline) < 4
            or len(figure.pieces) != len(corners) + 1):
        return 0
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    cum = cumulative(xs, ys)
    total = cum[-1]
    w = CORNER_WINDOW * total
    where = {p: k for k, p in enumerate(outline)}
    at = [where.get(c, -1) for c in corners]
    px, py = points_at(xs, ys, cum, [*(cum[k] - w for k in at), *(cum[k] + w for k in at)])
    count = len(at)
    limit = math.radians(POLYGON_CORNER_ANGLE)
    sharp = [
        k >= 0 and w <= cum[k] <= total - w
        and abs(turn_between(xs[k] - px[i], ys[k] - py[i],
                             px[count + i] - xs[k], py[count + i] - ys[k])) >= limit
        for i, k in enumerate(at)
    ]
    # pieces[i + 1] runs from corner i to corner i + 1.
    if not any(sharp[i] and sharp[i + 1] and figure.pieces[i + 1].deviation <= SIDE_TOLERANCE
               for i in range(count - 1)):
        return 0
    return sum(sharp)


def _dot_figure(
    strokes: tuple[int, ...], size: float, xs: Sequence[float], ys: Sequence[float]
) -> Figure:
    return Figure(
        strokes=strokes, kind=FigureKind.DOT, closed=False, lines=0, curves=0, pieces=(),
        corners=(), rounds=1, bend_reversal=0.0, crossings=0, size=size, length=0.0,
        outline=tuple(zip(xs, ys, strict=True)),
    )


def single_figure(index: int, trace: Trace) -> Figure:
    """The figure of stroke number `index` on its own (read once per trace)."""
    figure = _single_figures.get(trace)
    if figure is None:
        # Read as stroke `index`, with its key: a first check makes no copy to set them
        # (8 us each); the same stroke elsewhere in a drawing gets a copy.
        figure = _read_single(index, trace)
        remember(_single_figures, trace, figure, _SINGLE_FIGURES)
    if figure.strokes == (index,) and figure.key == trace.key:
        return figure
    return replace(figure, strokes=(index,), key=trace.key)


_SINGLE_FIGURES: Final = 512
_single_figures: dict[Trace, Figure] = {}
"""The figure of each simplified stroke read on its own, by the simplified stroke."""


def _read_single(index: int, trace: Trace) -> Figure:
    if trace.too_long:
        return replace(_dot_figure((index,), trace.size, trace.xs, trace.ys),
                       kind=FigureKind.CURVE, curves=1, unjudged="too_long")
    if trace.dot:
        return _dot_figure((index,), trace.size, trace.xs, trace.ys)
    return _read_polyline(index, trace, list(trace.xs), list(trace.ys), trace.key, trace.fine)


def _read_polyline(index: int, trace: Trace, xs: list[float], ys: list[float], key: bytes,
                   fine: tuple[Sequence[float], Sequence[float]] | None) -> Figure:
    """One stroke's figure from its outline `xs`, `ys` and as drawn (`fine`)."""
    figure = _figure((index,), xs, ys, trace.size, key, fine)
    # A closed curve whose outline turns back at its lumps (by BEND_REVERSAL, not by
    # LUMP_REVERSAL: no dent, no notch) turns sharply at a wobble's jags, which are no
    # points: a lozenge's tips are where a convex outline turns. Nor are the vertices of
    # a circle drawn fast with a mouse, which turn alike all round at its events.
    if (figure.closed and figure.curves and fine is not None
            and figure.bend_reversal < BEND_REVERSAL):
        tips = fine_points(fine[0], fine[1], tolerance_for(trace.size))
        if (tips or sharp_points(figure) >= 2) and not sparse_round(*fine):
            figure = replace(figure, tips=tips, tips_read=True)
    return figure


def gap_arc(xs: Sequence[float], ys: Sequence[float]) -> tuple[list[float], list[float]] | None:
    """The points that close a stroke left open as a circle is, along its circle across
    the gap from its last point towards its first; None when it is not such a stroke.

    As a person sees a circle left open: the stroke runs round one circle, one way (its
    points within ROUND_GAP_MISFIT of the circle fitted to them), round all of it but a
    gap of at most ROUND_GAP_ANGLE and ROUND_GAP_SHARE of its length, and its ends run
    along the circle into the gap (GAP_END_ANGLE), facing each other across it. A C, an
    arc, a U, a spiral, a hook do not: their gap is wide, or they leave the circle (a
    polygon left open may, and is then read closed as the polygon it is, no circle)."""
    n = len(xs)
    if n < 12:
        return None
    mx = sum(xs) / n
    my = sum(ys) / n
    us = [x - mx for x in xs]
    vs = [y - my for y in ys]
    # The circle fitted to the points (least squares on u^2 + v^2 + a u + b v + c = 0).
    suu = sum(u * u for u in us)
    svv = sum(v * v for v in vs)
    suv = sum(u * v for u, v in zip(us, vs, strict=True))
    zs = [u * u + v * v for u, v in zip(us, vs, strict=True)]
    szu = sum(z * u for z, u in zip(zs, us, strict=True))
    szv = sum(z * v for z, v in zip(zs, vs, strict=True))
    det = suu * svv - suv * suv
    if det <= 0.0:
        return None  # the points lie along a line
    # sum(u) = sum(v) = 0 about the centroid: the normal equations in a and b stand alone.
    a = -(szu * svv - szv * suv) / det
    b = -(szv * suu - szu * suv) / det
    cx, cy = -a / 2, -b / 2
    radius = math.sqrt(cx * cx + cy * cy + sum(zs) / n)
    radii = [math.hypot(u - cx, v - cy) for u, v in zip(us, vs, strict=True)]
    if max(abs(r - radius) for r in radii) > ROUND_GAP_MISFIT * radius:
        return None
    angles = [math.atan2(v - cy, u - cx) for u, v in zip(us, vs, strict=True)]
    steps = [(q - p + math.pi) % (2 * math.pi) - math.pi for p, q in pairwise(angles)]
    sweep = sum(steps)
    way = 1.0 if sweep > 0 else -1.0
    back = sum(s for s in steps if s * way < 0)
    if abs(back) > math.radians(GAP_END_ANGLE):
        return None  # it does not go round one way
    missing = 2 * math.pi - abs(sweep)
    if not 0.0 < missing <= math.radians(ROUND_GAP_ANGLE):
        return None
    cum = cumulative(xs, ys)
    if math.hypot(xs[-1] - xs[0], ys[-1] - ys[0]) > ROUND_GAP_SHARE * cum[-1]:
        return None
    # Each end runs along the circle into the gap: its last stretch against the tangent.
    hook = HOOK_FRACTION * cum[-1]
    (bx, ex), (by, ey) = points_at(xs, ys, cum, [hook, cum[-1] - hook])
    # The pen leaves its start the way it goes round, and runs into its end so: each end
    # pointed into the gap is the circle's tangent there, backwards at the start.
    for px, py, qx, qy, angle, into in ((bx, by, xs[0], ys[0], angles[0], -way),
                                        (ex, ey, xs[-1], ys[-1], angles[-1], way)):
        tx, ty = -math.sin(angle) * into, math.cos(angle) * into
        if abs(turn_between(qx - px, qy - py, tx, ty)) > math.radians(GAP_END_ANGLE):
            return None
    count = max(3, math.ceil(missing / math.radians(10)))
    r0, r1 = radii[-1], radii[0]
    fill_x: list[float] = []
    fill_y: list[float] = []
    for k in range(1, count):
        t = k / count
        angle = angles[-1] + way * missing * t
        r = r0 + (r1 - r0) * t
        fill_x.append(mx + cx + r * math.cos(angle))
        fill_y.append(my + cy + r * math.sin(angle))
    return fill_x, fill_y


def closed_across_its_gap(index: int, trace: Trace) -> Figure | None:
    """The figure of a stroke left open as a circle is (`gap_arc`), read with its gap
    closed along its circle; None when it is not so drawn. ArtBox asks for it only of a
    stroke that is an open curve on its own."""
    if trace.fine is None or trace.dot or trace.too_long:
        return None
    fx, fy = trace.fine
    fill = gap_arc(fx, fy)
    if fill is None:
        return None
    xs = [*fx, *fill[0], fx[0]]
    ys = [*fy, *fill[1], fy[0]]
    outline_x, outline_y = _resimplify(xs, ys)
    # Its own digest: what is cached by a figure's key must not take it for the open one.
    key = hashlib.blake2b(trace.key + b"closed across its gap", digest_size=16).digest()
    return _read_polyline(index, trace, outline_x, outline_y, key, (xs, ys))


def knots_cut(xs: Sequence[float], ys: Sequence[float]) -> tuple[list[float], list[float]] | None:
    """The stroke as drawn without its knots, each loop cut out at the point where it
    crosses its own way; None when it has none.

    A knot as a person sees it (issue 30's tenth pass): a loop the pen makes at a corner
    of a figure drawn fast, small against the figure (round it at most KNOT_LENGTH of the
    rest of the stroke's length, so it encloses little) and where the way turns (the
    chords of CORNER_WINDOW into it and out of it turn by KNOT_TURN or more). A loop in
    the middle of a side (a pigtail's), a big one (a figure-eight's halves, a star's
    points, the loop of a triangle with long tails) and a crossing near an end (where a
    loop closes) are not knots. One pass over the crossings (at most CROSSING_LIMIT), one
    copy of the points."""
    found = find_crossings(xs, ys, closed=False)
    if not found:  # none, or a tangle
        return None
    cum = cumulative(xs, ys)
    total = cum[-1]
    reach = CORNER_WINDOW * total
    knots: list[tuple[float, float, int, int, float, float]] = []
    for i, j, ti, tj in found:
        a = cum[i] + ti * (cum[i + 1] - cum[i])
        b = cum[j] + tj * (cum[j + 1] - cum[j])
        if b - a > KNOT_LENGTH * (total - b + a) or a < reach or b > total - reach:
            continue
        px = xs[i] + ti * (xs[i + 1] - xs[i])
        py = ys[i] + ti * (ys[i + 1] - ys[i])
        (ix, ox), (iy, oy) = points_at(xs, ys, cum, [a - reach, b + reach])
        if abs(turn_between(px - ix, py - iy, ox - px, oy - py)) < math.radians(KNOT_TURN):
            continue  # the way goes on as it came: a loop in a side, no corner
        knots.append((a, b, i, j, px, py))
    if not knots:
        return None
    knots.sort()
    out_x: list[float] = []
    out_y: list[float] = []
    copied = 0  # the first point not yet copied
    cut_to = -math.inf
    for a, b, i, j, px, py in knots:
        if a < cut_to:
            continue  # within a knot cut already
        out_x.extend(xs[copied:i + 1])
        out_y.extend(ys[copied:i + 1])
        out_x.append(px)
        out_y.append(py)
        copied = j + 1
        cut_to = b
    out_x.extend(xs[copied:])
    out_y.extend(ys[copied:])
    return out_x, out_y


def without_knots(index: int, trace: Trace) -> Figure | None:
    """The figure of a stroke read with its knots cut out (`knots_cut`); None when it has
    none. ArtBox asks for it only of a stroke that crosses itself on its own."""
    if trace.fine is None or trace.dot or trace.too_long:
        return None
    cut = knots_cut(*trace.fine)
    if cut is None:
        return None
    xs, ys = cut
    outline_x, outline_y = _resimplify(xs, ys)
    # Its own digest: what is cached by a figure's key must not take it for the knotted one.
    key = hashlib.blake2b(trace.key + b"without its knots", digest_size=16).digest()
    return _read_polyline(index, trace, outline_x, outline_y, key, (xs, ys))


def fine_points(xs: Sequence[float], ys: Sequence[float], eps: float) -> int:
    """How many points a closed stroke turns at, read from the stroke as drawn (thinned,
    not simplified): where it turns by FINE_POINT_ANGLE or more between chords of
    FINE_POINT_REACH either side, and by FINE_POINT_SHARPNESS of that or more than between
    chords twice as long (or by FINE_TIP_ANGLE, turning by FINE_TIP_WIDE_ANGLE between the
    longer chords, with FINE_TIP_SAMPLES points round it: a tip between convex sides);
    one turning more than its neighbours within twice the reach counts once. Away from
    its ends (HOOK_FRACTION: flicks), and at the seam, where its end comes back to its
    start (a lozenge drawn from a tip). Linear in its points."""
    n = len(xs)
    if n < 5:
        return 0
    cum = cumulative(xs, ys)
    total = cum[-1]
    reach = max(FINE_POINT_REACH * total, 2 * eps)
    skip = HOOK_FRACTION * total
    angle = math.radians(FINE_POINT_ANGLE)
    tip_angle, tip_wide = math.radians(FINE_TIP_ANGLE), math.radians(FINE_TIP_WIDE_ANGLE)
    # The turn between the chords either side of a point is at most what the stroke
    # turns from one chord's far end to the other's: only where its vertices turn by the
    # tip's angle within the reach is it measured (a round stroke turns by 15 degrees
    # there).
    heading = list(map(math.atan2, map(sub, ys[1:], ys[:-1]), map(sub, xs[1:], xs[:-1])))
    tau = 2 * math.pi
    bends = [0.0, *(tau - b if b > math.pi else b
                    for b in map(abs, map(sub, heading[1:], heading[:-1]))), 0.0]
    at = []
    around = []  # how many of the stroke's points lie within the reach of each of at
    lo = hi = 0
    window = 0.0  # what the vertices turn by strictly within the reach of vertex k
    for k in range(n):
        while hi < n and cum[hi] < cum[k] + reach:
            window += bends[hi]
            hi += 1
        while cum[lo] <= cum[k] - reach:
            window -= bends[lo]
            lo += 1
        if window >= tip_angle and skip + 2 * reach <= cum[k] <= total - skip - 2 * reach:
            at.append(k)
            around.append(hi - lo)
    count = 0
    last = -math.inf
    if at:
        m = len(at)
        px, py = points_at(xs, ys, cum, [*(cum[k] - reach for k in at),
                                         *(cum[k] + reach for k in at)])
        # Most of them (a round stroke's tremor) turn by less than the tip's angle between
        # the nearer chords: the chords twice as long are measured only where they do.
        sharp = []
        for i, k in enumerate(at):
            x, y = xs[k], ys[k]
            near = abs(turn_between(x - px[i], y - py[i], px[m + i] - x, py[m + i] - y))
            if near >= tip_angle:
                sharp.append((i, k, near))
        m = len(sharp)
        px, py = points_at(xs, ys, cum, [*(cum[k] - 2 * reach for _, k, _ in sharp),
                                         *(cum[k] + 2 * reach for _, k, _ in sharp)])
        best = 0.0
        for s, (i, k, near) in enumerate(sharp):
            x, y = xs[k], ys[k]
            far = abs(turn_between(x - px[s], y - py[s], px[m + s] - x, py[m + s] - y))
            if near < FINE_POINT_SHARPNESS * far:
                continue
            # Under FINE_POINT_ANGLE, a tip between convex sides only: read wider, it
            # turns by FINE_TIP_WIDE_ANGLE (a lozenge's bowed sides go on turning), where
            # a lump of a wobbling circle turns less (its flanks turn back); and drawn
            # with points enough round it to show its sides bowing, not a stroke
            # sampled so sparsely that each of its points turns as a corner.
            if near < angle and (far < tip_wide or around[i] < FINE_TIP_SAMPLES):
                continue
            if cum[k] - last < 2 * reach:  # the same point, read at a neighbour
                if near > best:
                    best, last = near, cum[k]
                continue
            count += 1
            best, last = near, cum[k]
    # The seam: the end's nearest point to the start, in the last fifth of the stroke.
    # Read closer and by a wider angle (FINE_SEAM_REACH, FINE_SEAM_ANGLE): where the pen
    # stopped, the end's last stretch curls in or overshoots, a spot a person overlooks.
    sx, sy = xs[0], ys[0]
    reach = max(FINE_SEAM_REACH * total, 2 * eps)
    angle = math.radians(FINE_SEAM_ANGLE)
    j = nearest_point(xs, ys, sx, sy, bisect_left(cum, 0.8 * total))
    if math.hypot(xs[j] - sx, ys[j] - sy) <= reach and cum[j] > 4 * reach:
        bx, by = points_at(xs, ys, cum, [cum[j] - 2 * reach, cum[j] - reach, reach,
                                         2 * reach])
        near = abs(turn_between(sx - bx[1], sy - by[1], bx[2] - sx, by[2] - sy))
        far = abs(turn_between(sx - bx[0], sy - by[0], bx[3] - sx, by[3] - sy))
        count += near >= angle and near >= FINE_POINT_SHARPNESS * far
    return count


def classify_stroke(stroke: Stroke) -> Figure:
    """What one stroke is: a dot, a straight line, straight lines at corners, a curve
    (open or closed, with its bend and crossings measured) or a mix."""
    return single_figure(0, simplify_stroke(stroke))


Part = tuple[list[float], list[float]]


def _oriented(trace: Trace, reverse: bool) -> Part:
    if reverse:
        return list(reversed(trace.xs)), list(reversed(trace.ys))
    return list(trace.xs), list(trace.ys)


def _cut_overshoot(p: Part, q: Part, reach: float) -> tuple[Part, Part]:
    """Where the end of p and the start of q cross near the joint (an overshoot), cut
    both there, so that joining them leaves no spike; otherwise leave them as they are."""
    pxs, pys = p
    qxs, qys = q
    p_last = len(pxs) - 1
    travelled_p = 0.0
    for k in range(p_last - 1, -1, -1):  # segment k of p: k -> k + 1, from its end back
        ax, ay = pxs[k], pys[k]
        ux, uy = pxs[k + 1] - ax, pys[k + 1] - ay
        travelled_q = 0.0
        for m in range(len(qxs) - 1):
            cx, cy = qxs[m], qys[m]
            vx, vy = qxs[m + 1] - cx, qys[m + 1] - cy
            den = ux * vy - uy * vx
            if den != 0:
                t = ((cx - ax) * vy - (cy - ay) * vx) / den
                s = ((cx - ax) * uy - (cy - ay) * ux) / den
                if 0 <= t <= 1 and 0 <= s <= 1:
                    x, y = ax + t * ux, ay + t * uy
                    return (
                        ([*pxs[: k + 1], x], [*pys[: k + 1], y]),
                        ([x, *qxs[m + 1 :]], [y, *qys[m + 1 :]]),
                    )
            travelled_q += math.hypot(vx, vy)
            if travelled_q > reach:
                break
        travelled_p += math.hypot(ux, uy)
        if travelled_p > reach:
            break
    # No crossing: the ends may stop short of a corner (both are extended to it), or run
    # alongside each other (each is cut back to where it comes nearest the other's end),
    # so the joint leaves no spike.
    corner = _corner_between(p, q, reach)
    if corner is not None:
        x, y = corner
        return ([*pxs, x], [*pys, y]), ([x, *qxs], [y, *qys])
    p = _trim_end_towards(p, qxs[0], qys[0], reach)
    rq = _trim_end_towards((qxs[::-1], qys[::-1]), p[0][-1], p[1][-1], reach)
    return p, (rq[0][::-1], rq[1][::-1])


def _corner_between(p: Part, q: Part, reach: float) -> XY | None:
    """Where p's last segment and q's first, both extended forwards / backwards, meet at
    an angle of 30 degrees or more within `reach` of both ends (a corner left open)."""
    pxs, pys = p
    qxs, qys = q
    if len(pxs) < 2 or len(qxs) < 2:
        return None
    ex, ey = pxs[-1], pys[-1]
    ux, uy = ex - pxs[-2], ey - pys[-2]
    sx, sy = qxs[0], qys[0]
    vx, vy = qxs[1] - sx, qys[1] - sy
    den = ux * vy - uy * vx
    nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
    if nu == 0 or nv == 0 or abs(den) < math.sin(math.radians(30)) * nu * nv:
        return None
    t = ((sx - ex) * vy - (sy - ey) * vx) / den
    s = -((sx - ex) * uy - (sy - ey) * ux) / den
    if t < 0 or s < 0 or t * nu > reach or s * nv > reach:
        return None
    return ex + t * ux, ey + t * uy


def _trim_end_towards(p: Part, x: float, y: float, reach: float) -> Part:
    """p without the stretch at its end (within `reach` of arc length) that runs past
    the point of it nearest (x, y)."""
    pxs, pys = p
    last = len(pxs) - 1
    best_d = math.hypot(pxs[last] - x, pys[last] - y)
    best: tuple[int, float, float] | None = None
    travelled = 0.0
    for k in range(last - 1, -1, -1):
        ax, ay, bx, by = pxs[k], pys[k], pxs[k + 1], pys[k + 1]
        t = projection(x, y, ax, ay, bx, by)
        cx, cy = ax + t * (bx - ax), ay + t * (by - ay)
        d = math.hypot(cx - x, cy - y)
        if d < best_d - 1e-9:
            best_d = d
            best = (k, cx, cy)
        travelled += math.hypot(bx - ax, by - ay)
        if travelled > reach:
            break
    if best is None:
        return p
    k, cx, cy = best
    return [*pxs[: k + 1], cx], [*pys[: k + 1], cy]


def _joined(parts: list[Part], reaches: list[float], cycle: bool) -> Part:
    """One polyline from parts laid end to start (and back to the first, for a cycle)."""
    parts = list(parts)
    for k in range(len(parts) - 1):
        parts[k], parts[k + 1] = _cut_overshoot(parts[k], parts[k + 1], reaches[k])
    if cycle:
        parts[-1], parts[0] = _cut_overshoot(parts[-1], parts[0], reaches[-1])
    xs: list[float] = []
    ys: list[float] = []
    for pxs, pys in parts:
        start = 1 if xs and (pxs[0], pys[0]) == (xs[-1], ys[-1]) else 0
        xs.extend(pxs[start:])
        ys.extend(pys[start:])
    return xs, ys


def _end_of(trace: Trace, end: int) -> XY:
    return (trace.xs[0], trace.ys[0]) if end == 0 else (trace.xs[-1], trace.ys[-1])


Link = tuple[float, int, int, int, int]
"""distance, stroke a, end of a (0 start, 1 end), stroke b, end of b."""


def join_reach(a: Trace, b: Trace) -> float:
    """How close the ends of two strokes must come to meet: JOIN_FRACTION of the shorter
    one's length, but never less than JOIN_FLOOR of the figure they would make together
    (a short side of a square still meets its neighbours at a sloppy corner)."""
    together = math.hypot(
        max(max(a.xs), max(b.xs)) - min(min(a.xs), min(b.xs)),
        max(max(a.ys), max(b.ys)) - min(min(a.ys), min(b.ys)),
    )
    return max(JOIN_FRACTION * min(a.length, b.length),
               min(JOIN_FLOOR * together, JOIN_FRACTION * max(a.length, b.length)))


def _to_stretch(x: float, y: float, trace: Trace, end: int) -> float:
    """How far (x, y) is from the stretch of `trace` within OVERLAP_FRACTION of its
    length from its end `end` (0 start, 1 end), not counting the end itself."""
    xs, ys = (trace.xs, trace.ys) if end == 0 else (trace.xs[::-1], trace.ys[::-1])
    stretch = OVERLAP_FRACTION * trace.length
    best = math.inf
    travelled = 0.0
    for k in range(len(xs) - 1):
        ax, ay, bx, by = xs[k], ys[k], xs[k + 1], ys[k + 1]
        t = projection(x, y, ax, ay, bx, by)
        step = math.hypot(bx - ax, by - ay)
        if travelled + t * step > stretch:
            break
        if k or t > 0:
            best = min(best, math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)))
        travelled += step
    return best


def _end_segment(t: Trace, e: int) -> tuple[float, float, float, float]:
    """A stroke's end `e` and the direction of its last tenth (not of its last segment,
    which may be a wobble), pointing out of the end."""
    xs, ys = (t.xs, t.ys) if e == 1 else (t.xs[::-1], t.ys[::-1])
    ex, ey = xs[-1], ys[-1]
    back = len(xs) - 2
    while back > 0 and math.hypot(ex - xs[back], ey - ys[back]) < 0.1 * t.length:
        back -= 1
    return ex, ey, ex - xs[back], ey - ys[back]


def _side_by_side(a: Trace, ea: int, b: Trace, eb: int) -> bool:
    """Whether two stroke ends point out the same way (within SIDE_BY_SIDE_ANGLE): the
    strokes lie side by side there, one drawn beside or over the other, and neither
    goes on where the other stops (a circle's halves, a square's sides, a line in two
    goes all point out against each other, or across)."""
    if len(a.xs) < 2 or len(b.xs) < 2:
        return False
    _, _, ux, uy = _end_segment(a, ea)
    _, _, vx, vy = _end_segment(b, eb)
    nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
    if not (nu > 0 and nv > 0 and (ux * vx + uy * vy) >= math.cos(
            math.radians(SIDE_BY_SIDE_ANGLE)) * nu * nv):
        return False
    # Side by side all along: one stroke's other end lies along the other stroke (a line
    # drawn over a line, a side drawn again), or the strokes keep apart as far as where
    # they meet (two sides of a snake). Strokes that point out the same way but part,
    # each far from the other at its other end, meet at a sharp corner (a triangle's
    # corner of 15-25 degrees drawn a side a stroke).
    near = JOIN_FLOOR * math.hypot(
        max(max(a.xs), max(b.xs)) - min(min(a.xs), min(b.xs)),
        max(max(a.ys), max(b.ys)) - min(min(a.ys), min(b.ys)))
    fax, fay = _end_of(a, 1 - ea)
    fbx, fby = _end_of(b, 1 - eb)
    if stays_near((fax,), (fay,), b.xs, b.ys, near) or stays_near((fbx,), (fby,), a.xs, a.ys, near):
        return True

    def parts(t: Trace, e: int, u: Trace, f: int) -> bool:
        # how far u's ends lie off the line of t's chord: its far end much farther
        (x0, y0), (x1, y1) = _end_of(t, e), _end_of(t, 1 - e)
        chord = math.hypot(x1 - x0, y1 - y0)
        if chord <= 0:
            return False
        (nx, ny), (fx, fy) = _end_of(u, f), _end_of(u, 1 - f)
        def off(x: float, y: float) -> float:
            return abs((x - x0) * (y1 - y0) - (y - y0) * (x1 - x0)) / chord
        return off(fx, fy) > 2 * off(nx, ny) + near

    # ...and open by half SIDE_BY_SIDE_ANGLE at least, chord to chord: a triangle's apex
    # (15 degrees or more); two lines drawn over each other, one bowed, meet at less.
    (ax0, ay0), (ax1, ay1) = _end_of(a, ea), _end_of(a, 1 - ea)
    (bx0, by0), (bx1, by1) = _end_of(b, eb), _end_of(b, 1 - eb)
    opening = abs(turn_between(ax1 - ax0, ay1 - ay0, bx1 - bx0, by1 - by0))
    return not (opening >= math.radians(SIDE_BY_SIDE_ANGLE / 2)
                and parts(a, ea, b, eb) and parts(b, eb, a, ea))


def _to_corner(a: Trace, ea: int, b: Trace, eb: int, reach: float) -> float:
    """When the last segments of two strokes, extended or cut back, meet at a corner of
    at least 30 degrees: how far the farther end is from that corner (inf otherwise).
    A side of a square drawn past its corner, or stopping short of it, meets the next."""
    if len(a.xs) < 2 or len(b.xs) < 2:
        return math.inf
    px, py, ux, uy = _end_segment(a, ea)
    qx, qy, vx, vy = _end_segment(b, eb)
    den = ux * vy - uy * vx
    nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
    if nu == 0 or nv == 0 or abs(den) < math.sin(math.radians(30)) * nu * nv:
        return math.inf
    t = ((qx - px) * vy - (qy - py) * vx) / den
    s = ((qx - px) * uy - (qy - py) * ux) / den
    far = max(abs(t) * nu, abs(s) * nv)
    return far if far <= reach else math.inf


_PAIRS: Final = 8192
_pairs: dict[tuple[bytes, bytes, bool], tuple[tuple[float, int, int], ...]] = {}


def _pair_links(ta: Trace, tb: Trace, seam: bool = False) -> tuple[tuple[float, int, int], ...]:
    """The ends of two strokes that meet (distance, end of a, end of b), as
    `stroke_links` takes them (`seam`: one of them is closed). Cached by the strokes'
    digests: a drawing checked after each new stroke measures the new stroke's pairs only."""
    if not (ta.key and tb.key):
        return _measure_pair(ta, tb, seam)
    key = (ta.key, tb.key, seam)
    pair = _pairs.get(key)
    if pair is None:
        pair = _measure_pair(ta, tb, seam)
        remember(_pairs, key, pair, _PAIRS)
    return pair


_FARTHEST_LINK: Final = max(JOIN_FRACTION + OVERLAP_FRACTION, 2 * max(JOIN_FRACTION, 0.5))
"""How far apart (times the longer stroke's length) two ends may be and still meet, at
most: within the reach (at most JOIN_FRACTION of the longer) of a point within
OVERLAP_FRACTION of the other's end, or both within the corner's reach (at most
max(JOIN_FRACTION, 0.5) of the longer) of where their end segments meet. Pairs whose
ends are all farther apart are not measured."""


_FARTHEST_AT_SEAM: Final = JOIN_FRACTION + OVERLAP_FRACTION
"""The same for a stroke meeting the seam of a closed one (no corner is looked for)."""


def _measure_pair(ta: Trace, tb: Trace, seam: bool = False) -> tuple[tuple[float, int, int], ...]:
    """`seam`: one stroke is closed by itself, and the other may only meet it at its seam,
    end to end or running alongside (a circle's arc drawn over where it closes); the
    directions of its ends say nothing of a corner there (a circle and a square side
    by side do not meet where their ends, extended, cross)."""
    ends_a = (_end_of(ta, 0), _end_of(ta, 1))
    ends_b = (_end_of(tb, 0), _end_of(tb, 1))
    farthest = ((_FARTHEST_AT_SEAM if seam else _FARTHEST_LINK) * max(ta.length, tb.length)
                * (1 + 1e-9) + 1e-6)
    if all(math.hypot(ax - bx, ay - by) > farthest
           for ax, ay in ends_a for bx, by in ends_b):
        return ()
    found: list[tuple[float, int, int]] = []
    reach = join_reach(ta, tb)
    for ea in (0, 1):
        ax, ay = ends_a[ea]
        for eb in (0, 1):
            bx, by = ends_b[eb]
            d = min(
                math.hypot(ax - bx, ay - by),
                _to_stretch(ax, ay, tb, eb),  # ends running alongside: an overlap
                _to_stretch(bx, by, ta, ea),
            )
            if d > reach:
                # Overshooting a corner, or stopping short of it: as far as a side of a
                # square may, by the longer stroke (not past half the shorter one).
                d = math.inf if seam else _to_corner(ta, ea, tb, eb, max(reach, min(
                    CORNER_REACH * max(ta.length, tb.length),
                    0.5 * min(ta.length, tb.length))))
            if d < math.inf and not _side_by_side(ta, ea, tb, eb):
                found.append((d, ea, eb))
    return tuple(found)


_LINKS: Final = 64
_LINKS_KEPT: Final = 512
_links: dict[tuple[tuple[int, bytes, bool], ...], tuple[Link, ...]] = {}
"""Every pair of ends that meet among strokes (by their places and digests), unsorted,
unpruned: what the next check, with one stroke more, starts from (64 drawings of at
most 512 pairs each)."""


def _links_of(traces: Sequence[Trace], a: int, b: int, closed: frozenset[int]) -> list[Link]:
    """The links between strokes a and b: none between two strokes closed by themselves,
    and only at its seam with one of them."""
    if a in closed and b in closed:
        return []
    return [(d, a, ea, b, eb)
            for d, ea, eb in _pair_links(traces[a], traces[b], a in closed or b in closed)]


def stroke_links(
    traces: Sequence[Trace], joinable: Sequence[int], limit: int | None = None,
    closed: frozenset[int] = frozenset(),
) -> list[Link]:
    """Pairs of stroke ends that meet, nearest first; each end keeps only its
    JOIN_NEIGHBOURS nearest partners, so a crowded drawing has few links. More than
    `limit` pairs of ends meeting raises Crowded (before they are sorted or walked).
    Strokes in `closed` close by themselves: two of them never meet, and one meets
    another stroke only at its seam (see `_measure_pair`)."""
    # A drawing checked after a new stroke met the same strokes before, at the same
    # places: its pairs are kept (by the strokes' places and digests), and only the new
    # stroke's pairs are looked up (a drawing of 40 strokes has 780 pairs).
    keyed = all(traces[a].key for a in joinable)
    memo = tuple((a, traces[a].key, a in closed) for a in joinable) if keyed else ()
    exact = _links.get(memo) if keyed else None
    before = _links.get(memo[:-1]) if keyed and exact is None and len(memo) > 1 else None
    found: list[Link]
    if exact is not None:
        found = list(exact)
    elif before is not None:
        found = list(before)
        b = joinable[-1]
        for a in joinable[:-1]:
            found.extend(_links_of(traces, a, b, closed))
    else:
        found = []
        for x, a in enumerate(joinable):
            for b in joinable[x + 1 :]:
                found.extend(_links_of(traces, a, b, closed))
            if limit is not None and len(found) > limit:
                raise Crowded(f"{len(found)} pairs of stroke ends meet, more than {limit}")
    if limit is not None and len(found) > limit:
        raise Crowded(f"{len(found)} pairs of stroke ends meet, more than {limit}")
    if keyed and exact is None and len(found) <= _LINKS_KEPT:
        remember(_links, memo, tuple(found), _LINKS)
    found.sort()
    per_end: dict[tuple[int, int], int] = {}
    kept: list[Link] = []
    for link in found:
        _, a, ea, b, eb = link
        end_a = (a, ea)
        end_b = (b, eb)  # another stroke's end: a < b
        links_a = per_end.get(end_a, 0)
        links_b = per_end.get(end_b, 0)
        if links_a < JOIN_NEIGHBOURS and links_b < JOIN_NEIGHBOURS:
            per_end[end_a] = links_a + 1
            per_end[end_b] = links_b + 1
            kept.append(link)
    return kept


def chain_figure(
    traces: Sequence[Trace], chain: Sequence[tuple[int, bool]], cycle: bool
) -> Figure:
    """The figure of strokes laid end to start in `chain` (stroke, reversed)."""
    links = tuple((traces[i], rev) for i, rev in chain)
    strokes = tuple(sorted(i for i, _ in chain))
    if not all(trace.key for trace, _ in links):
        return replace(_chain(links, cycle), strokes=strokes, key=b"")
    # By the digest of what it is read from (the strokes' digests, which way each runs,
    # closed or not) and where its strokes are: a drawing checked again after a new
    # stroke reads the same joinings without hashing their outlines or copying them.
    key = hashlib.blake2b(b"".join(t.key + (b"r" if rev else b"f") for t, rev in links)
                          + (b"c" if cycle else b"o"), digest_size=16).digest()
    known = _chained.get((key, strokes))
    if known is None:
        known = replace(_chain(links, cycle), strokes=strokes, key=key)
        remember(_chained, (key, strokes), known, _CHAINED)
    return known


def chain_as_drawn(
    traces: Sequence[Trace], chain: Sequence[tuple[int, bool]]
) -> Iterator[tuple[list[float], list[float]]]:
    """A loop of strokes (`chain`: stroke, reversed) as drawn: their thinned points
    (`Trace.fine`) laid end to start in the order and direction the joining chose, each
    joint and the seam where the outlines meet (`_cut_overshoot`, as `_chain` joins
    them: where they cross, the corner they stop short of) and the points as drawn cut
    there (`_cut_like`), thinned again at the whole's tolerance to at most MAX_VERTICES
    points, as one stroke's are: what a loop's points are read from, as a stroke's.
    Read from where the chain starts (its seam, for a path closed across its gap), then,
    when that is elsewhere, from where the pen first touched (the start of the stroke
    drawn first): a stroke's start is its seam, read as such by `fine_points` (a lozenge
    drawn from a tip has it there, and keeps it there cut into strokes). Lazy: the
    caller takes as many as it asks about. Nothing when a stroke has no such points (too
    long, a dot)."""
    if any(traces[i].fine is None for i, _ in chain):
        return
    # Where the strokes meet is found on their outlines, as `_chain` finds it (a few
    # vertices: the crossings of points as drawn near a joint cost their square); the
    # points as drawn are cut at their points nearest to it.
    links = [traces[i] for i, _ in chain]
    reaches = [max(join_reach(a, b), CORNER_REACH * max(a.length, b.length))
               for a, b in pairwise([*links, links[0]])]
    cut = [_oriented(trace, rev) for trace, rev in zip(links, (rev for _, rev in chain),
                                                        strict=True)]
    for k in range(len(cut) - 1):
        cut[k], cut[k + 1] = _cut_overshoot(cut[k], cut[k + 1], reaches[k])
    cut[-1], cut[0] = _cut_overshoot(cut[-1], cut[0], reaches[-1])
    parts: list[Part] = []
    for (i, rev), (cxs, cys) in zip(chain, cut, strict=True):
        fine = traces[i].fine
        assert fine is not None
        fx, fy = (list(fine[0])[::-1], list(fine[1])[::-1]) if rev else (list(fine[0]),
                                                                          list(fine[1]))
        parts.append(_cut_like(fx, fy, (cxs[0], cys[0]), (cxs[-1], cys[-1])))
    # Where the stroke drawn first starts: before its part, or after it when it runs
    # reversed in the chain.
    drawn_first = min(range(len(chain)), key=lambda k: chain[k][0])
    touched = (drawn_first + chain[drawn_first][1]) % len(chain)
    for first in dict.fromkeys((0, touched)):
        xs: list[float] = []
        ys: list[float] = []
        for pxs, pys in (*parts[first:], *parts[:first]):
            start = 1 if xs and (pxs[0], pys[0]) == (xs[-1], ys[-1]) else 0
            xs.extend(pxs[start:])
            ys.extend(pys[start:])
        size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
        tx, ty = thin(xs, ys, tolerance_for(size))
        yield resampled(tx, ty, MAX_VERTICES) if len(tx) > MAX_VERTICES else (tx, ty)


def _cut_like(xs: list[float], ys: list[float], start: XY, end: XY) -> Part:
    """A stroke's points as drawn from `start` to `end`, where its outline was cut (or
    drawn on to) at a joint: without its points before the one nearest `start` (of its
    first half) and after the one nearest `end` (of its second half), those two points
    put in their place. Linear in its points."""
    half = len(xs) // 2
    first = nearest_point(xs, ys, *start, stop=max(half, 1))
    last = nearest_point(xs, ys, *end, start=min(half, len(xs) - 1))
    return ([start[0], *xs[first + 1:last], end[0]], [start[1], *ys[first + 1:last], end[1]])


_CHAINED: Final = 256
_chained: dict[tuple[bytes, tuple[int, ...]], Figure] = {}
"""Joined figures by their digest and their strokes' places in the drawing."""


@lru_cache(maxsize=256)
def _chain(chain: tuple[tuple[Trace, bool], ...], cycle: bool) -> Figure:
    parts = [_oriented(trace, rev) for trace, rev in chain]
    ring = [*chain, chain[0]] if cycle else list(chain)
    reaches = [
        # an overshoot is cut where the strokes cross, within CORNER_REACH of the ends
        max(join_reach(a, b), CORNER_REACH * max(a.length, b.length))
        for (a, _), (b, _) in pairwise(ring)
    ]
    xs, ys = _joined(parts, reaches, cycle)
    size = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
    sxs, sys_ = _resimplify(xs, ys)
    # A loop of strokes as drawn, for the flat share of its corners (a circle drawn in
    # two goes is as lumpy as in one).
    drawn = [trace.fine for trace, _ in chain if trace.fine is not None] if cycle else []
    figure = _figure((), sxs, sys_, size,
                     parts=drawn if len(drawn) == len(chain) else ())
    if cycle and figure.closed and figure.curves and not figure.changes_bend:
        # A loop of strokes closes at a joint, and the seam of a loop is spared the bend
        # and dent rules (where a pen started and stopped, a sloppy close). But a joint
        # is where the strokes meet, no seam: a heart drawn in two halves has its notch
        # there (before, 1 in 10 such hearts was "1 curve: allowed"). Read again from
        # halfway along the first stroke, where the pen was drawing, a closed curve
        # whose bend reverses at a joint says so.
        half = chain[0][0].length / 2
        cum = cumulative(xs, ys)
        mid = next((k for k, c in enumerate(cum) if c >= half), 0)
        if 0 < mid < len(xs) - 1:
            rx, ry = [*xs[mid:], *xs[: mid + 1]], [*ys[mid:], *ys[: mid + 1]]
            again = _figure((), *_resimplify(rx, ry), size)
            if again.closed and again.curves and again.changes_bend:
                return again
    return figure


def clear_caches() -> None:
    """Forget the cached simplified strokes, single figures and joined figures."""
    _digests.clear()
    _chained.clear()
    _links.clear()
    _traces.clear()
    _pairs.clear()
    _single_figures.clear()
    _chain.cache_clear()
