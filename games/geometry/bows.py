"""Where a closed stroke's sides bend: evenly all along, or only near their ends.

A lozenge's side is an arc: it bends all along, so the middle half of it still bows out
by about half the whole side's bow (against the half's chord). A square drawn fast has
straight sides that bend only where its corners are drawn round, so their middle halves
are straight within the tremor. The outline (1.5 % of the size) sees both as four
pieces bowing by a few per cent; the stroke as drawn tells them apart (issue 30's tenth
pass, docs/geometry.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.geometry.polyline import XY, cumulative, nearest_point, point_at, signed_area

_MIDDLE: tuple[float, float] = (0.25, 0.75)
"""The middle half of a side, as shares of its length along the stroke."""


def even_bow(xs: Sequence[float], ys: Sequence[float], corners: Sequence[XY],
             enough: float = -math.inf) -> float:
    """How far every side of a closed stroke bows out evenly: the least, over the sides
    between `corners` (each taken at the stroke's point nearest to it), of the side's
    outward bow across its whole length and twice its middle half's bow across the half's
    chord, each as a fraction of its chord. An arc's side scores its bow; a straight side
    with round ends, the tremor of its middle half; a side bowing in, less than 0. The
    first side scoring under `enough` ends it (that score is returned): whether every
    side reaches it is all a rule asks.

    `xs`, `ys` are the stroke as drawn (thinned: at most a few hundred points), closed
    or not; linear in its points times the corners. 0 when a side is too short to say
    (fewer than 3 points, or no length)."""
    n = len(xs)
    if n > 1 and xs[0] == xs[-1] and ys[0] == ys[-1]:
        n -= 1  # explicitly closed: the last point is the first
    if n < 2 * len(corners) or len(corners) < 3:
        return 0.0
    # The outline's vertices are the stroke's points (but where a loop was closed): found
    # by their place, else the nearest.
    index = {p: i for i, p in enumerate(zip(xs[:n], ys[:n], strict=True))}
    where = sorted(_nearest(xs, ys, n, corner, index) for corner in corners)
    # Outwards is to the right of the way round for a loop of positive area (the corners'
    # polygon, in the stroke's order, turns the way the stroke does).
    area = signed_area([xs[i] for i in where], [ys[i] for i in where])
    outward = -1.0 if area > 0 else 1.0
    least = math.inf
    for a, b in zip(where, [*where[1:], where[0] + n], strict=True):
        side = [(xs[i % n], ys[i % n]) for i in range(a, b + 1)]
        least = min(least, _side_bow(side, outward, enough))
        if least < enough:
            break
    return least


def _nearest(xs: Sequence[float], ys: Sequence[float], n: int, corner: XY,
             index: dict[XY, int]) -> int:
    """The index of the stroke's point at `corner`, or else of the nearest (of the first
    `n`)."""
    at = index.get(corner)
    if at is not None:
        return at
    return nearest_point(xs, ys, *corner, stop=n)


def _side_bow(side: list[XY], outward: float, enough: float) -> float:
    """One side's even bow (see `even_bow`): min(whole bow, 2 x middle half's bow); the
    whole bow alone when that is under `enough`."""
    if len(side) < 3:
        return 0.0
    xs, ys = [x for x, _ in side], [y for _, y in side]
    cum = cumulative(xs, ys)
    total = cum[-1]
    if total <= 0:
        return 0.0
    whole = _bow(xs, ys, cum, 0.0, total, outward)
    if whole < enough:
        return whole
    lo, hi = _MIDDLE
    # An arc's part bows (against its own chord) by its share of the length times the
    # whole arc's bow: scaled back so, a side bending evenly scores its bow twice.
    middle = _bow(xs, ys, cum, lo * total, hi * total, outward) / (hi - lo)
    return min(whole, middle)


def _bow(xs: list[float], ys: list[float], cum: list[float], start: float, end: float,
         outward: float) -> float:
    """The greatest outward distance of the side's points between arc lengths `start` and
    `end` from the chord joining the side's places there, over that chord's length."""
    (x0, y0), (x1, y1) = point_at(xs, ys, cum, start), point_at(xs, ys, cum, end)
    dx, dy = x1 - x0, y1 - y0
    chord = math.hypot(dx, dy)
    inner = [(x, y) for x, y, s in zip(xs, ys, cum, strict=True) if start < s < end]
    if chord <= 0 or not inner:
        return 0.0
    return max(outward * (dx * (y - y0) - dy * (x - x0)) for x, y in inner) / (chord * chord)

