"""Drawings on the kiosk: stroke dicts from a view, rendered once into cached surfaces.

The painting itself is appliance/system/drawing.py's (shared with the gallery; its names are
re-exported here for the kiosk's screens): `StrokeCache` keeps the painted sheets so that
a frame showing many canvases costs one blit per canvas, however many strokes they hold.

This module reads plain data only: like the rest of the kiosk it imports no game code.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

import pygame

from appliance.kiosk.fonts import Colour

# The kiosk's screens take the sheet's geometry and painting from here.
from appliance.system.drawing import INK as INK
from appliance.system.drawing import PAPER as PAPER
from appliance.system.drawing import SHEET_HEIGHT as SHEET_HEIGHT
from appliance.system.drawing import SHEET_WIDTH as SHEET_WIDTH
from appliance.system.drawing import SUPERSAMPLE as SUPERSAMPLE
from appliance.system.drawing import draw_strokes as draw_strokes
from appliance.system.drawing import render_sheet as render_sheet
from appliance.system.drawing import sheet_rect as sheet_rect
from appliance.system.drawing import stroke_signature as stroke_signature


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


def strokes_of(value: object) -> Sequence[Any]:
    """`value` if it is a list of strokes, else an empty list."""
    return value if isinstance(value, list) else []
