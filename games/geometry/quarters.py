"""Where a closed stroke turns: at four tips a quarter of the way round from each other,
or evenly all round.

A lozenge whose sides bow out far (8-14 % of their chords) leaves little of its tips: its
outline rounds them off, and the stroke as drawn may turn there by less than a point's
angle (`fine_points`). A person still sees four tips: the way turns sharply at four
places evenly spaced round the figure, a quarter of the way apart, and gently along
the bowed sides in between. A circle, an oval, an egg or a lumpy circle turns evenly,
or at its two ends only (a long oval), or at lumps spread as they come, never more
sharply at four evenly spaced places than anywhere else (issue 30's tenth pass, ArtBox:
docs/geometry.md, "lozenges read as circles").
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import sub
from typing import Final

from games.geometry.polyline import cumulative, points_at

SAMPLES = 80
"""The closed stroke is read at this many places evenly along it (1.25 % of its length
apart): the turns are compared between places, not between the stroke's own points
(whose spacing follows the hand's speed)."""

CHORD = 2
"""The way at a place is the chord from the place this many samples behind to as many
ahead (5 % of the length): the finger's tremor and the thinning's jags are shorter."""

TIP = 3
"""The samples a tip's turn is summed over (3.75 % of the length), centred on it."""

FLANK = 4
"""The samples either side of a tip whose turn, at its rate, is what the tip would
turn by if the stroke bent there as it does beside it: a tip turns by its excess."""

SLACK = 1
"""How far (samples) a tip may lie from a quarter of the way from the next: a lozenge's
sides bow by different amounts, so their lengths differ by a few per cent."""

AWAY = 5
"""Places at least this many samples (6.25 % of the length) from every quarter's place
are "elsewhere": where a stroke with four tips turns only gently."""

MIDDLE = (8, 13)
"""A side's middle, the samples from the first to before the second after a tip (a
quarter of the side, about its middle): a lozenge's bowed side turns there by its bow,
a square's straight side, its corners drawn however round, hardly."""

QUARTER = SAMPLES // 4


@dataclass(frozen=True)
class FourTips:
    """How a closed stroke turns at the four places a quarter of the way round from each
    other whose weakest turns most (radians)."""

    tip: float
    """The weakest of the four places' excess turn (see `four_tips`)."""
    elsewhere: float
    """The strongest excess turn elsewhere (AWAY from each of the four)."""
    side: float
    """The least turn of a side's MIDDLE, between two of the four."""


NO_TIPS: Final = FourTips(0.0, 0.0, 0.0)


def _ring(xs: Sequence[float], ys: Sequence[float]
          ) -> tuple[list[float], list[float], list[float]]:
    """The stroke as a loop, and its length at each of its points: cut where its end comes
    nearest its start in its last fifth (an overshoot past the start is dropped, a gap
    bridged), as `fine_points` reads its seam."""
    cum = cumulative(xs, ys)
    sx, sy = xs[0], ys[0]
    last = bisect_left(cum, 0.8 * cum[-1])
    gaps = [(x - sx) ** 2 + (y - sy) ** 2 for x, y in zip(xs[last:], ys[last:], strict=True)]
    end = last + gaps.index(min(gaps))
    return ([*xs[: end + 1], sx], [*ys[: end + 1], sy],
            [*cum[: end + 1], cum[end] + math.sqrt(gaps[end - last])])


def four_tips(xs: Sequence[float], ys: Sequence[float]) -> FourTips:
    """How a closed stroke turns at four tips a quarter of the way apart: at the four
    places a quarter apart whose weakest tip turns most, that tip's excess turn, the
    strongest excess turn elsewhere, and the least turn of the middles of the sides
    between them. A tip's excess turn is what the way turns by over TIP samples beyond
    what it turns by at the rate of its FLANKs: 0 where the stroke bends evenly (a
    circle, an arc's middle), the tip's angle at a sharp tip between gently bent sides.
    NO_TIPS for a stroke too short to say or not going once round.

    `xs`, `ys` are the stroke as drawn (thinned: at most a few hundred points); the cost
    is linear in them, and fixed beyond (SAMPLES)."""
    if len(xs) < 8:
        return NO_TIPS
    rx, ry, cum = _ring(xs, ys)
    length = cum[-1]
    if length <= 0:
        return NO_TIPS
    px, py = points_at(rx, ry, cum, [length * i / SAMPLES for i in range(SAMPLES)])
    n = SAMPLES
    # The way at sample i: from sample i - CHORD to i + CHORD (lists rolled round the loop).
    way = list(map(math.atan2, map(sub, py[CHORD:] + py[:CHORD], py[-CHORD:] + py[:-CHORD]),
                   map(sub, px[CHORD:] + px[:CHORD], px[-CHORD:] + px[:-CHORD])))
    tau = 2 * math.pi
    turns = [(b - a + math.pi) % tau - math.pi
             for a, b in zip(way[-1:] + way[:-1], way, strict=True)]
    total = sum(turns)
    if abs(total) < math.pi:
        return NO_TIPS  # not once round (a figure of eight turns both ways)
    if total < 0:
        turns = [-t for t in turns]
    # Turns summed over any run of samples round the loop: before[k] is the sum of the
    # turns at samples -n .. k - n - 1 (three rounds, so runs may start before 0).
    before = [0.0, *accumulate(turns * 3)]
    half, rate = TIP // 2, TIP / (2 * FLANK)
    start = n - half  # where the run of TIP samples centred on sample 0 starts
    excess = [
        tip - rate * (flank_before + flank_after)
        for flank_before, tip, flank_after in zip(
            map(sub, before[start:start + n], before[start - FLANK:start - FLANK + n]),
            map(sub, before[start + TIP:start + TIP + n], before[start:start + n]),
            map(sub, before[start + TIP + FLANK:start + TIP + FLANK + n],
                before[start + TIP:start + TIP + n]),
            strict=True)
    ]
    rounds = excess * 3  # so that a run of places round the loop is one slice
    near = rounds[n - SLACK:2 * n - SLACK]
    for k in range(1, 2 * SLACK + 1):
        near = list(map(max, near, rounds[n - SLACK + k:2 * n - SLACK + k]))
    weakest, phase = max((min(near[c::QUARTER]), c) for c in range(QUARTER))
    # The strongest excess between AWAY and QUARTER - AWAY samples after each tip.
    elsewhere = max(max(rounds[c + AWAY:c + QUARTER - AWAY + 1])
                    for c in range(phase, n, QUARTER))
    first, last = MIDDLE
    side = min(before[c + n + last] - before[c + n + first] for c in range(phase, n, QUARTER))
    return FourTips(weakest, elsewhere, side)
