"""Polyline building blocks of drawing geometry: simplification, arc length, turning,
crossings. Internal to `games.geometry`; points come as parallel x and y sequences.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import accumulate
from operator import sub

from games.geometry.tolerances import (
    CORNER_ANGLE,
    CROSSING_LIMIT,
    HOOK_FRACTION,
    PAIR_BUDGET,
    SIMPLIFY_BUDGET,
)

XY = tuple[float, float]


def simplify(
    xs: Sequence[float], ys: Sequence[float], eps: float, budget: int = SIMPLIFY_BUDGET
) -> list[int]:
    """Ramer-Douglas-Peucker: the indices of the points that stay (first and last do).

    At most `budget` point-to-chord distances are computed (the worst case of the method
    is quadratic); the spans still unsplit when it runs out keep all their points."""
    n = len(xs)
    if n <= 2:
        return list(range(n))
    keep = bytearray(n)
    keep[0] = keep[n - 1] = 1
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        budget -= j - i - 1
        if budget < 0:
            for k in range(i + 1, j):
                keep[k] = 1
            continue
        x1 = xs[i]
        y1 = ys[i]
        dx = xs[j] - x1
        dy = ys[j] - y1
        norm = math.hypot(dx, dy)
        best = -1
        if norm > 1e-9:
            # |cross| / norm is the distance to the chord: compare cross with eps * norm.
            limit = eps * norm
            c = x1 * dy - y1 * dx
            for k in range(i + 1, j):
                d = xs[k] * dy - ys[k] * dx - c
                if d < 0:
                    d = -d
                if d > limit:
                    limit = d
                    best = k
        else:  # a chord of no length (a closed stroke): the point farthest from its end
            limit = eps * eps
            for k in range(i + 1, j):
                ex = xs[k] - x1
                ey = ys[k] - y1
                d = ex * ex + ey * ey
                if d > limit:
                    limit = d
                    best = k
        if best >= 0:
            keep[best] = 1
            stack.append((i, best))
            stack.append((best, j))
    return [k for k in range(n) if keep[k]]


def thin(xs: list[float], ys: list[float], eps: float) -> tuple[list[float], list[float]]:
    """Drop each point within `eps` of the last point kept (the last point stays): a
    cheap first pass that halves the work of the simplification on dense strokes."""
    limit = eps * eps
    lx = xs[0]
    ly = ys[0]
    out_x = [lx]
    out_y = [ly]
    for x, y in zip(xs, ys, strict=True):
        dx = x - lx
        dy = y - ly
        if dx * dx + dy * dy > limit:
            out_x.append(x)
            out_y.append(y)
            lx = x
            ly = y
    if lx != xs[-1] or ly != ys[-1]:
        out_x.append(xs[-1])
        out_y.append(ys[-1])
    return out_x, out_y


def decimated(count: int, cap: int) -> slice:
    """The slice that takes a sequence of `count` items down to at most `cap` + 1 of them,
    evenly (every k-th item; the caller adds the last one)."""
    step = -(-count // cap)
    return slice(0, count, step)


def resampled(
    xs: Sequence[float], ys: Sequence[float], count: int
) -> tuple[list[float], list[float]]:
    """`count` points evenly spaced along the polyline (first and last kept)."""
    cum = cumulative(xs, ys)
    total = cum[-1]
    if total <= 0 or count < 2:
        return [xs[0], xs[-1]], [ys[0], ys[-1]]
    return points_at(xs, ys, cum, [total * k / (count - 1) for k in range(count)])


def despike(xs: list[float], ys: list[float], eps: float) -> tuple[list[float], list[float]]:
    """Without spikes: a vertex where the stroke doubles back (a turn of 120 degrees or
    more) by less than three times the tolerance is jitter, or points that arrived out of
    order."""
    reverse = math.radians(120)
    near = 3 * eps
    hypot = math.hypot
    atan2 = math.atan2
    k = 1
    last = len(xs) - 1
    while k < last:
        x = xs[k]
        y = ys[k]
        ux = x - xs[k - 1]
        uy = y - ys[k - 1]
        vx = xs[k + 1] - x
        vy = ys[k + 1] - y
        dot = ux * vx + uy * vy
        if (dot < 0  # it turns by more than a right angle at least
                and abs(atan2(ux * vy - uy * vx, dot)) >= reverse  # turn_between, inline
                and min(hypot(ux, uy), hypot(vx, vy)) < near):
            del xs[k], ys[k]
            last -= 1
            k = max(1, k - 1)
        else:
            k += 1
    return xs, ys


def cumulative(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """The arc length at each point, from 0 at the first."""
    steps = map(math.hypot, map(sub, xs[1:], xs[:-1]), map(sub, ys[1:], ys[:-1]))
    return list(accumulate(steps, initial=0.0))


def point_at(xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], s: float) -> XY:
    """The point at arc length `s` (clamped to the polyline)."""
    last = len(cum) - 2
    i = bisect_right(cum, s) - 1
    i = 0 if i < 0 else last if i > last else i
    span = cum[i + 1] - cum[i]
    t = (s - cum[i]) / span if span > 0 else 0.0
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return xs[i] + t * (xs[i + 1] - xs[i]), ys[i] + t * (ys[i + 1] - ys[i])


def points_at(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], positions: Sequence[float]
) -> tuple[list[float], list[float]]:
    """The points at the given arc lengths (clamped to the polyline), in one sweep."""
    count = len(positions)
    out_x = [0.0] * count
    out_y = [0.0] * count
    last = len(cum) - 2
    seg = 0
    previous = -math.inf
    # Callers ask in runs of rising positions (a resampling; the chords behind, then
    # ahead of, each vertex; round a loop, past where it closes): the segment is found by
    # walking on within a run and by bisection where a new run starts, rather than sorting
    # the positions. Either way it is the first segment ending at or after s.
    for i in range(count):
        s = positions[i]
        if s < previous:
            seg = bisect_left(cum, s, 1) - 1
            if seg > last:
                seg = last
        previous = s
        while seg < last and cum[seg + 1] < s:
            seg += 1
        start = cum[seg]
        span = cum[seg + 1] - start
        t = (s - start) / span if span > 0 else 0.0
        if t < 0:
            t = 0.0
        elif t > 1:
            t = 1.0
        x = xs[seg]
        y = ys[seg]
        out_x[i] = x + t * (xs[seg + 1] - x)
        out_y[i] = y + t * (ys[seg + 1] - y)
    return out_x, out_y


def nearest_point(xs: Sequence[float], ys: Sequence[float], x: float, y: float,
                  start: int = 0, stop: int | None = None) -> int:
    """The index of the point nearest to (x, y) among those from `start` to before `stop`
    (the first of the nearest): the squared distances in one list at C speed, rather than
    a key function called for each point."""
    squares = [(px - x) ** 2 + (py - y) ** 2
               for px, py in zip(xs[start:stop], ys[start:stop], strict=True)]
    return start + squares.index(min(squares))


def signed_area(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Signed area of the polygon through the points (closed implicitly)."""
    n = len(xs)
    total = 0.0
    x0 = xs[0]
    y0 = ys[0]
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        total += (xs[k] - x0) * (ys[j] - y0) - (xs[j] - x0) * (ys[k] - y0)
    return total / 2


def segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The distance from point p to the segment ab."""
    dx = bx - ax
    dy = by - ay
    span = dx * dx + dy * dy
    t = ((px - ax) * dx + (py - ay) * dy) / span if span > 0 else 0.0
    t = 0.0 if t < 0 else 1.0 if t > 1 else t
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def projection(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Where point p falls along the segment ab: 0 at a, 1 at b (clamped)."""
    dx = bx - ax
    dy = by - ay
    span = dx * dx + dy * dy
    t = ((px - ax) * dx + (py - ay) * dy) / span if span > 0 else 0.0
    return 0.0 if t < 0 else 1.0 if t > 1 else t


def turn_between(ux: float, uy: float, vx: float, vy: float) -> float:
    """Signed angle (radians) from direction u to direction v."""
    return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)


def vertex_turn(xs: Sequence[float], ys: Sequence[float], k: int) -> float:
    """Signed turn (radians) of a polyline at its inner vertex k."""
    return turn_between(
        xs[k] - xs[k - 1], ys[k] - ys[k - 1], xs[k + 1] - xs[k], ys[k + 1] - ys[k]
    )


def chord_deviation(xs: Sequence[float], ys: Sequence[float], indices: Sequence[int]) -> float:
    """How far the vertices stray from the chord first-last, relative to the chord."""
    a = indices[0]
    b = indices[-1]
    ax = xs[a]
    ay = ys[a]
    dx = xs[b] - ax
    dy = ys[b] - ay
    chord = dx * dx + dy * dy
    if chord <= 0:
        return math.inf
    worst = 0.0
    for k in indices[1:-1]:
        d = (xs[k] - ax) * dy - (ys[k] - ay) * dx
        if d > worst:
            worst = d
        elif -d > worst:  # the size of d, without a call of abs
            worst = -d
    return worst / chord


def turns_within_half(xs: Sequence[float], ys: Sequence[float]) -> bool:
    """Whether the directions of an open polyline's segments stay within less than half
    a turn of each other (the turning, added up, spans under 180 degrees): then it moves
    forwards along the middle direction all the way, and cannot cross itself. Lines,
    angles and arcs are done here, without the sweep."""
    low = high = angle = 0.0
    px = xs[1] - xs[0]
    py = ys[1] - ys[0]
    limit = math.pi - 1e-9
    for k in range(1, len(xs) - 1):
        qx = xs[k + 1] - xs[k]
        qy = ys[k + 1] - ys[k]
        angle += math.atan2(px * qy - py * qx, px * qx + py * qy)
        if angle < low:
            low = angle
            if high - low >= limit:
                return False
        elif angle > high:
            high = angle
            if high - low >= limit:
                return False
        px = qx
        py = qy
    return True


Crossing = tuple[int, int, float, float]
"""Segments i < j of a polyline cross at parameter ti along i and tj along j."""


def find_crossings(
    xs: Sequence[float], ys: Sequence[float], closed: bool
) -> list[Crossing] | None:
    """Every proper crossing of two non-adjacent segments (touching counts once), in
    order; None when the polyline is a tangle (more than CROSSING_LIMIT crossings, or more
    than PAIR_BUDGET pairs of segments to compare).

    Segments are swept along the axis on which they overlap least (a comb of long
    horizontal strokes is swept from top to bottom), so only pairs whose extents overlap
    on that axis are compared, and those are counted against the budget."""
    segments = len(xs) - 1
    if segments < 3 or (not closed and turns_within_half(xs, ys)):
        return []
    # Each segment's box, at C speed (a map of min over the points and the next ones).
    from_x = xs[:-1]
    to_x = xs[1:]
    from_y = ys[:-1]
    to_y = ys[1:]
    lox = list(map(min, from_x, to_x))
    hix = list(map(max, from_x, to_x))
    loy = list(map(min, from_y, to_y))
    hiy = list(map(max, from_y, to_y))
    if segments <= _ALL_PAIRS:
        return _crossings_of_all_pairs(xs, ys, closed, lox, hix, loy, hiy)
    spread_x = (max(hix) - min(lox)) or 1.0
    spread_y = (max(hiy) - min(loy)) or 1.0
    overlap_x = sum(map(sub, hix, lox)) / spread_x
    overlap_y = sum(map(sub, hiy, loy)) / spread_y
    if overlap_y < overlap_x:  # sweep along y: swap the roles of the axes
        lox, hix, loy, hiy = loy, hiy, lox, hix
    order = sorted(range(segments), key=lox.__getitem__)
    starts = list(map(lox.__getitem__, order))
    found: list[Crossing] = []
    budget = PAIR_BUDGET
    for p, first in enumerate(order):
        right = hix[first]
        bottom = loy[first]
        top = hiy[first]
        # The segments after this one in the sweep that start before it ends (found at C
        # speed); past the budget of pairs the polyline is a tangle, whatever they hold.
        stop = bisect_right(starts, right, p + 1)
        budget -= stop - p - 1
        if budget < 0:
            return None
        for second in order[p + 1 : stop]:
            if loy[second] > top or hiy[second] < bottom:
                continue
            i, j = (first, second) if first < second else (second, first)
            if j - i < 2 or (closed and i == 0 and j == segments - 1):
                continue  # neighbours share a point
            ax = xs[i]
            ay = ys[i]
            at = _crossing_at(ax, ay, xs[i + 1] - ax, ys[i + 1] - ay, xs, ys, j)
            if at is not None:
                found.append((i, j, *at))
                if len(found) > CROSSING_LIMIT:
                    return None
    found.sort()
    return found


def _crossing_at(
    ax: float, ay: float, ux: float, uy: float, xs: Sequence[float], ys: Sequence[float],
    j: int,
) -> tuple[float, float] | None:
    """Where the segment from (ax, ay) along (ux, uy) properly crosses segment j of the
    polyline: the parameters along it and along j, or None. Called only for pairs whose
    boxes touch, which are few."""
    cx = xs[j]
    cy = ys[j]
    vx = xs[j + 1] - cx
    vy = ys[j + 1] - cy
    d1 = ux * (cy - ay) - uy * (cx - ax)
    d2 = ux * (cy + vy - ay) - uy * (cx + vx - ax)
    if (d1 > 0) == (d2 > 0):
        return None
    d3 = vx * (ay - cy) - vy * (ax - cx)
    d4 = vx * (ay + uy - cy) - vy * (ax + ux - cx)
    if (d3 > 0) == (d4 > 0) or d1 == d2 or d3 == d4:
        return None
    return d3 / (d3 - d4), d1 / (d1 - d2)


_ALL_PAIRS = 32
"""Up to this many segments every pair is compared (fewer than PAIR_BUDGET, so no budget
to count): for the dozen segments of a real stroke, cheaper than sorting for the sweep."""


def _crossings_of_all_pairs(
    xs: Sequence[float], ys: Sequence[float], closed: bool, lox: list[float],
    hix: list[float], loy: list[float], hiy: list[float],
) -> list[Crossing] | None:
    """find_crossings for a polyline of a few segments: the pairs whose boxes touch are
    the sweep's, and so are the crossings found (the same arithmetic, in the same order
    of i < j); only the order of comparing differs, and the list is sorted."""
    segments = len(xs) - 1
    found: list[Crossing] = []
    for i in range(segments - 2):
        left = lox[i]
        right = hix[i]
        bottom = loy[i]
        top = hiy[i]
        ax = xs[i]
        ay = ys[i]
        ux = xs[i + 1] - ax
        uy = ys[i + 1] - ay
        stop = segments - 1 if closed and i == 0 else segments  # the last meets the first
        for j in range(i + 2, stop):
            if lox[j] > right or hix[j] < left or loy[j] > top or hiy[j] < bottom:
                continue
            at = _crossing_at(ax, ay, ux, uy, xs, ys, j)
            if at is not None:
                found.append((i, j, *at))
                if len(found) > CROSSING_LIMIT:
                    return None
    found.sort()
    return found


def without_curls(crossings: list[Crossing], cum: Sequence[float], closed: bool) -> list[
    Crossing
]:
    """The crossings that close a loop of at least HOOK_FRACTION of the length: a smaller
    one is a curl of the pen (at a corner, say), not a figure crossing itself."""
    if not crossings:
        return crossings
    total = cum[-1]
    least = HOOK_FRACTION * total
    kept = []
    for crossing in crossings:
        i, j, ti, tj = crossing
        between = cum[j] + tj * (cum[j + 1] - cum[j]) - cum[i] - ti * (cum[i + 1] - cum[i])
        if closed:
            between = min(between, total - between)
        if between >= least:
            kept.append(crossing)
    return kept


def cuts_through(xs: Sequence[float], ys: Sequence[float], k: int) -> bool:
    """Whether segment k of a closed polyline crosses a segment not next to it."""
    segments = len(xs) - 1
    ax, ay = xs[k], ys[k]
    ux, uy = xs[k + 1] - ax, ys[k + 1] - ay
    beside = (k, (k + 1) % segments, (k - 1) % segments)  # itself and its neighbours
    for j in range(segments):
        if j in beside:
            continue
        cx, cy = xs[j], ys[j]
        vx, vy = xs[j + 1] - cx, ys[j + 1] - cy
        d1 = ux * (cy - ay) - uy * (cx - ax)
        d2 = ux * (cy + vy - ay) - uy * (cx + vx - ax)
        if (d1 > 0) == (d2 > 0):
            continue
        d3 = vx * (ay - cy) - vy * (ax - cx)
        d4 = vx * (ay + uy - cy) - vy * (ax + ux - cx)
        if (d3 > 0) != (d4 > 0):
            return True
    return False


def trim_flicks(
    xs: list[float], ys: list[float]
) -> tuple[list[float], list[float], list[float]]:
    """Without the flicks at the ends: a sharp turn (CORNER_ANGLE or more) within the
    first or last HOOK_FRACTION of the length is where the stroke really starts or ends.
    With the arc lengths of what is left (measured here anyway: made once)."""
    n = len(xs)
    cum = cumulative(xs, ys)
    if n < 4:
        return xs, ys, cum
    total = cum[-1]
    zone = HOOK_FRACTION * total
    sharp = math.radians(CORNER_ANGLE)
    first = 0
    for k in range(1, n - 1):
        if cum[k] > zone:
            break
        turn = vertex_turn(xs, ys, k)
        if abs(turn) >= sharp:
            first = k
    last = n - 1
    for k in range(n - 2, first, -1):
        if total - cum[k] > zone:
            break
        turn = vertex_turn(xs, ys, k)
        if abs(turn) >= sharp:
            last = k
    if first == 0 and last == n - 1:
        return xs, ys, cum
    xs = xs[first : last + 1]
    ys = ys[first : last + 1]
    return xs, ys, cumulative(xs, ys)


def stays_near(
    pxs: Sequence[float], pys: Sequence[float], lxs: Sequence[float], lys: Sequence[float],
    tolerance: float,
) -> bool:
    """Whether every point of p lies within `tolerance` of the polyline l."""
    # The distance to each segment is worked out here rather than by segment_distance:
    # this runs for every probe against every segment of a loop. Each segment is
    # measured when a probe reaches it, not all first: most probes are found in a step or
    # two, and a probe far from the loop (a candidate loop that fails) ends the search.
    limit = tolerance * tolerance
    # Points come in order along a stroke that follows l (an overshoot retracing a loop):
    # each is looked for from the segment the last one lay by, round l, so that a probe
    # is found in a step or two rather than after scanning all the segments before it.
    count = len(lxs) - 1
    start = 0
    for px, py in zip(pxs, pys, strict=True):
        for index in range(start, start + count):
            k = index % count
            ax = lxs[k]
            ay = lys[k]
            dx = lxs[k + 1] - ax
            dy = lys[k + 1] - ay
            span = dx ** 2 + dy ** 2
            ex = px - ax
            ey = py - ay
            t = (ex * dx + ey * dy) / span if span > 0 else 0.0
            if t < 0:
                t = 0.0
            elif t > 1:
                t = 1.0
            ex -= t * dx
            ey -= t * dy
            if ex * ex + ey * ey <= limit:
                start = k
                break
        else:
            return False
    return True


def sub_polyline(
    xs: Sequence[float], ys: Sequence[float], cum: Sequence[float], a: float, b: float
) -> tuple[list[float], list[float]]:
    """The part of a polyline between arc lengths a < b."""
    ax, ay = point_at(xs, ys, cum, a)
    bx, by = point_at(xs, ys, cum, b)
    i = bisect_right(cum, a)
    j = bisect_right(cum, b)
    out_x = [ax, *xs[i:j]]
    out_y = [ay, *ys[i:j]]
    if (bx, by) != (out_x[-1], out_y[-1]):
        out_x.append(bx)
        out_y.append(by)
    return out_x, out_y


def meeting_point(xs: Sequence[float], ys: Sequence[float], gap: float) -> XY | None:
    """Where the last segment, extended forwards, meets the first, extended backwards, if
    neither has to grow by more than twice the gap between them (a corner left open)."""
    ex, ey = xs[-1], ys[-1]
    ux, uy = ex - xs[-2], ey - ys[-2]
    sx, sy = xs[0], ys[0]
    vx, vy = xs[1] - sx, ys[1] - sy
    den = ux * vy - uy * vx
    if den == 0:
        return None
    # E + t u = S - s v
    t = ((sx - ex) * vy - (sy - ey) * vx) / den
    s = -((sx - ex) * uy - (sy - ey) * ux) / den
    if t < 0 or s < 0:
        return None
    if t * math.hypot(ux, uy) > 2 * gap or s * math.hypot(vx, vy) > 2 * gap:
        return None
    return ex + t * ux, ey + t * uy
