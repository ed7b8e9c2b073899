"""Live ink on the kiosk: strokes drawn on a game's drawing area, shown as the finger moves.

A game screen declares a drawing area with `KioskRenderer.add_canvas`. A finger on the
touch panel (or a mouse drag on a desktop) that starts there draws: each movement is
drawn at once into the kiosk's back buffer as a short segment, without redrawing the
frame, and when the finger lifts the stroke becomes a `DrawStroke` intent in sheet units,
which the wiring sends to the game as that seat's stroke. The game's own screen then
shows the accepted stroke; strokes still being drawn are laid again over every redraw.
Each finger is its own stroke, so two children can draw at once.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

import pygame

from appliance.kiosk.intents import CanvasSpec, DrawStroke
from appliance.kiosk.strokes import INK, SHEET_HEIGHT, SHEET_WIDTH
from appliance.kiosk.theme import parse_colour

MAX_POINTS = 4000
"""The game refuses longer strokes (games/strokes.py); a finger that goes on starts a new one."""


@dataclass
class LiveStroke:
    """A stroke being drawn: where, for whom, and its points so far."""

    rect: pygame.Rect
    canvas: CanvasSpec
    started: float
    colour: tuple[int, int, int]
    width_px: int
    last_px: tuple[int, int]
    points: list[tuple[int, int, int]] = field(default_factory=list)
    pixels: list[tuple[int, int]] = field(default_factory=list)


class Ink:
    """The strokes being drawn now, by pointer (a finger id, or the mouse)."""

    def __init__(self) -> None:
        self.strokes: dict[Hashable, LiveStroke] = {}
        self.dirty: pygame.Rect | None = None
        """The part of the back buffer drawn since the last present, if any."""
        self.held = False
        """A frame is being drawn into the back buffer (Kiosk.update_async): points are
        kept but not drawn, and `redraw` lays them on the finished frame."""
        self._ended_held: list[LiveStroke] = []  # strokes that ended while held

    def begin(
        self,
        pointer: Hashable,
        rect: pygame.Rect,
        canvas: CanvasSpec,
        pos: tuple[int, int],
        at: float,
        surface: pygame.Surface,
    ) -> None:
        width_px = max(1, round(canvas.width * rect.w / SHEET_WIDTH))
        stroke = LiveStroke(
            pygame.Rect(rect), canvas, at, parse_colour(canvas.colour, INK), width_px, pos
        )
        self.strokes[pointer] = stroke
        self._add(stroke, pos, at, surface)

    def extend(
        self, pointer: Hashable, pos: tuple[int, int], at: float, surface: pygame.Surface
    ) -> DrawStroke | None:
        """Add a point; returns the stroke as finished if it reached the points' limit."""
        stroke = self.strokes.get(pointer)
        if stroke is None or pos == stroke.last_px:
            return None
        self._add(stroke, pos, at, surface)
        if len(stroke.points) >= MAX_POINTS:
            finished = self.end(pointer)
            self.strokes[pointer] = LiveStroke(
                stroke.rect, stroke.canvas, at, stroke.colour, stroke.width_px, pos
            )
            self._add(self.strokes[pointer], pos, at, surface)
            return finished
        return None

    def end(self, pointer: Hashable) -> DrawStroke | None:
        """The finished stroke for the game, or None if `pointer` was not drawing."""
        stroke = self.strokes.pop(pointer, None)
        if stroke is None or not stroke.points:
            return None
        if self.held:  # its last points are not drawn yet: the finished frame gets them
            self._ended_held.append(stroke)
        return DrawStroke(stroke.canvas, tuple(stroke.points))

    def cancel(self, pointer: Hashable) -> None:
        self.strokes.pop(pointer, None)

    def is_drawing(self, pointer: Hashable) -> bool:
        return pointer in self.strokes

    def redraw(self, surface: pygame.Surface) -> None:
        """Lay the strokes still being drawn over a freshly rendered frame (and, once,
        those that ended while it was drawn: the game's next view has them)."""
        ended, self._ended_held = self._ended_held, []
        for stroke in (*ended, *self.strokes.values()):
            previous = stroke.pixels[0] if stroke.pixels else None
            for px in stroke.pixels:
                self._segment(surface, stroke, previous or px, px)
                previous = px

    def _add(
        self, stroke: LiveStroke, pos: tuple[int, int], at: float, surface: pygame.Surface
    ) -> None:
        rect = stroke.rect
        x = round((pos[0] - rect.x) * SHEET_WIDTH / max(1, rect.w))
        y = round((pos[1] - rect.y) * SHEET_HEIGHT / max(1, rect.h))
        x = min(max(x, 0), SHEET_WIDTH)
        y = min(max(y, 0), SHEET_HEIGHT)
        t = max(0, round((at - stroke.started) * 1000))
        if stroke.points and stroke.points[-1][:2] == (x, y):
            return
        stroke.points.append((x, y, t))
        previous = stroke.pixels[-1] if stroke.pixels else pos
        stroke.pixels.append(pos)
        stroke.last_px = pos
        if not self.held:
            self._segment(surface, stroke, previous, pos)

    def _segment(
        self,
        surface: pygame.Surface,
        stroke: LiveStroke,
        a: tuple[int, int],
        b: tuple[int, int],
    ) -> None:
        old_clip = surface.get_clip()
        surface.set_clip(stroke.rect)
        radius = max(1, stroke.width_px // 2)
        if a != b:
            pygame.draw.line(surface, stroke.colour, a, b, stroke.width_px)
        drawn = pygame.draw.circle(surface, stroke.colour, b, radius)
        surface.set_clip(old_clip)
        area = pygame.Rect(min(a[0], b[0]), min(a[1], b[1]), abs(a[0] - b[0]), abs(a[1] - b[1]))
        area = area.inflate(2 * radius + 2, 2 * radius + 2).union(drawn).clip(stroke.rect)
        self.dirty = area if self.dirty is None else self.dirty.union(area)
