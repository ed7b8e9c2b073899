"""Drawings on the kiosk: stroke dicts from a view, rendered once into cached surfaces.

A drawing arrives as data (docs/protocol.md): `[{points: [[x, y, t], ...], colour, width},
...]` in the sheet space, SHEET_WIDTH x SHEET_HEIGHT units (16:10, y down), shared by every
game. `draw_strokes` paints such a list into a rectangle of a surface at any size;
`StrokeCache` keeps the painted sheets so that a frame showing many canvases costs one
blit per canvas, however many strokes they hold.

This module reads plain data only: like the rest of the kiosk it imports no game code
(the sheet size is repeated from games.sheet, which a test keeps in step).
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.theme import parse_colour

SHEET_WIDTH: Final = 1600
SHEET_HEIGHT: Final = 1000

PAPER: Final[Colour] = (255, 253, 247)
INK: Final[Colour] = (32, 32, 32)
SUPERSAMPLE: Final = 2
"""Sheets are painted at twice their size and scaled down: pygame draws thick lines
without antialiasing, and a drawing is painted once, so the smoothing is nearly free."""

_MAX_POINTS: Final = 4000  # as games.strokes.MAX_POINTS: a hostile view cannot stall a frame


def sheet_rect(box: pygame.Rect) -> pygame.Rect:
    """The largest 16:10 rectangle centred in `box` (the sheet letterboxed into it)."""
    if box.w * SHEET_HEIGHT <= box.h * SHEET_WIDTH:
        w = box.w
        h = max(1, round(w * SHEET_HEIGHT / SHEET_WIDTH))
    else:
        h = box.h
        w = max(1, round(h * SHEET_WIDTH / SHEET_HEIGHT))
    rect = pygame.Rect(0, 0, max(1, w), max(1, h))
    rect.center = box.center
    return rect


def _points(raw: object) -> list[tuple[float, float]]:
    if not isinstance(raw, list | tuple):
        return []
    out: list[tuple[float, float]] = []
    for item in raw[:_MAX_POINTS]:
        if isinstance(item, list | tuple) and len(item) >= 2:
            x, y = item[0], item[1]
            if (
                isinstance(x, int | float)
                and isinstance(y, int | float)
                and not isinstance(x, bool)
                and not isinstance(y, bool)
                and math.isfinite(x)
                and math.isfinite(y)
            ):
                out.append((float(x), float(y)))
    return out


def draw_strokes(surface: pygame.Surface, strokes: object, rect: pygame.Rect | None = None) -> int:
    """Paint `strokes` (a list of stroke dicts) scaled from the sheet into `rect` (the whole
    surface by default); returns the number of strokes painted. Anything malformed in the
    list is skipped: a drawing from a stranger's phone must never fail a frame."""
    area = surface.get_rect() if rect is None else pygame.Rect(rect)
    if not isinstance(strokes, list | tuple) or area.w <= 0 or area.h <= 0:
        return 0
    sx = area.w / SHEET_WIDTH
    sy = area.h / SHEET_HEIGHT
    scale = (sx + sy) / 2
    painted = 0
    for stroke in strokes:
        if not isinstance(stroke, Mapping):
            continue
        pts = _points(stroke.get("points"))
        if not pts:
            continue
        colour = parse_colour(stroke.get("colour"), INK)
        raw_width = stroke.get("width", 8)
        width_units = (
            float(raw_width)
            if isinstance(raw_width, int | float) and not isinstance(raw_width, bool)
            else 8.0
        )
        width_units = min(max(width_units, 1.0), 120.0)
        px = max(1.0, width_units * scale)
        xy = [(area.left + x * sx, area.top + y * sy) for x, y in pts]
        radius = px / 2
        if len(xy) == 1:
            pygame.draw.circle(surface, colour, xy[0], max(1.0, radius))
        elif px < 2.5:
            pygame.draw.lines(surface, colour, False, xy, max(1, round(px)))
        else:
            # Round caps and joins, as on the phone's canvas: a segment per pair and a
            # disc on every point (pygame's own joins leave notches on thick lines).
            w = max(1, round(px))
            for a, b in itertools.pairwise(xy):
                pygame.draw.line(surface, colour, a, b, w)
            for p in xy:
                pygame.draw.circle(surface, colour, p, radius)
        painted += 1
    return painted


def stroke_signature(strokes: object) -> Hashable:
    """A key for a drawing's content, cheap enough to compute on every changed view.

    Per stroke: colour, width, the number of points and three of them (first, middle,
    last; each carries its time in ms). Hashing every point would make a redraw cost
    grow with the drawing; two different canvases with equal signatures would need the
    same number of strokes, each with the same point count and the same three timed
    points, which a hand on a touch screen does not produce.
    """
    if not isinstance(strokes, list | tuple):
        return ()
    sig: list[Hashable] = []
    for stroke in strokes:
        try:
            pts = stroke["points"]
            n = len(pts)
            sig.append(
                (
                    stroke.get("colour"),
                    stroke.get("width"),
                    n,
                    tuple(pts[0]),
                    tuple(pts[n // 2]),
                    tuple(pts[-1]),
                )
            )
        except (TypeError, KeyError, IndexError, AttributeError):
            sig.append(("malformed", repr(stroke)[:200]))
    key = tuple(sig)
    try:
        hash(key)
    except TypeError:  # a colour or coordinate that is a list or dict: still a key
        return repr(key)
    return key


class StrokeCache:
    """Painted sheets, keyed by (drawing signature, size, paper colour); a bounded LRU.

    `misses` counts the sheets actually painted, so a test can see that a second frame
    paints none. The last few drawing lists seen are also remembered by identity, so a
    view that did not change does not even cost the signature.
    """

    def __init__(self, max_bytes: int = 32 * 2**20) -> None:
        self.misses = 0
        self.hits = 0
        self._sheets: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        self._bytes = 0
        self._max_bytes = max_bytes
        # id(list) -> (the list itself, its signature); holding the list keeps its id unique.
        self._by_identity: OrderedDict[int, tuple[object, Hashable]] = OrderedDict()

    def signature(self, strokes: object) -> Hashable:
        entry = self._by_identity.get(id(strokes))
        if entry is not None and entry[0] is strokes:
            self._by_identity.move_to_end(id(strokes))
            return entry[1]
        sig = stroke_signature(strokes)
        self._by_identity[id(strokes)] = (strokes, sig)
        while len(self._by_identity) > 256:
            self._by_identity.popitem(last=False)
        return sig

    def sheet(
        self,
        strokes: object,
        size: tuple[int, int],
        paper: Colour = PAPER,
        key: Hashable | None = None,
    ) -> pygame.Surface:
        """The drawing painted on a sheet of exactly `size` pixels (stretched if `size`
        is not 16:10; callers pass sheet_rect sizes).

        A caller that knows the drawing can no longer change (a finished canvas) may name
        it with `key`; then not even the signature is computed, and a frame costs the
        same however many strokes are on show."""
        w, h = max(1, int(size[0])), max(1, int(size[1]))
        key = (self.signature(strokes) if key is None else ("named", key), w, h, paper)
        surf = self._sheets.get(key)
        if surf is not None:
            self._sheets.move_to_end(key)
            self.hits += 1
            return surf
        self.misses += 1
        surf = render_sheet(strokes, (w, h), paper)
        self._sheets[key] = surf
        self._bytes += surf.get_pitch() * surf.get_height()
        while self._bytes > self._max_bytes and len(self._sheets) > 1:
            _, old = self._sheets.popitem(last=False)
            self._bytes -= old.get_pitch() * old.get_height()
        return surf

    def clear(self) -> None:
        self._sheets.clear()
        self._by_identity.clear()
        self._bytes = 0


def render_sheet(strokes: object, size: tuple[int, int], paper: Colour = PAPER) -> pygame.Surface:
    """A new opaque surface of `size` with the drawing painted on `paper`, smoothed."""
    w, h = max(1, int(size[0])), max(1, int(size[1]))
    big = pygame.Surface((w * SUPERSAMPLE, h * SUPERSAMPLE))
    big.fill(paper)
    draw_strokes(big, strokes)
    out = pygame.transform.smoothscale(big, (w, h))
    if pygame.display.get_surface() is not None:
        out = out.convert()
    return out


def strokes_of(value: object) -> Sequence[Any]:
    """`value` if it is a list of strokes, else an empty list."""
    return value if isinstance(value, list) else []
