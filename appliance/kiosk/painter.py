"""The renderer's drawing base: fonts, cached parts, QR codes, hit targets and the
building blocks every screen uses (text, timers, seat cards).

`Painter` sits above the theme and below the shared widgets (kit), the lobby, the host
menu and the games' screens, which all draw with one; `render.KioskRenderer` is a
Painter that also decides what a frame shows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pygame

from appliance.kiosk.fonts import Colour, Fonts, clean_text
from appliance.kiosk.intents import CanvasSpec, Intent
from appliance.kiosk.qr import QrCache, render_qr
from appliance.kiosk.text import tr
from appliance.kiosk.theme import (
    ACCENT,
    BG,
    MUTED,
    ONLINE,
    PANEL,
    TEXT,
    WARN,
    WHITE,
    Metrics,
    Size,
    blend,
    format_seconds,
    ink_on,
    parse_colour,
)


@dataclass(frozen=True)
class TextBox:
    """One text drawn in a frame, as the layout log keeps it.

    `rect` is on the surface it was drawn on: the frame (in frame coordinates) or a part
    being painted (`in_part`, in the part's own coordinates). `clipped`: some of its ink
    fell outside that surface, so it was cut without an ellipsis. `ellipsised`: it was
    wider than its room and ended with "…". A text made with `Painter.text` and blitted
    by the screen itself has no rect."""

    text: str
    size: int
    bold: bool
    rect: pygame.Rect | None
    surface: Size
    in_part: bool
    ellipsised: bool
    clipped: bool


@dataclass
class LayoutLog:
    """What one frame drew: its texts, its panels (named boxes that must not overlap) and,
    read from the painter, its targets. Kept only while `Painter.record_layout` is on: the
    layout test reads it, the kiosk does not pay for it."""

    size: Size
    texts: list[TextBox] = field(default_factory=list)
    panels: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    # Lists that showed fewer items than they had without saying so (name, shown, total).
    dropped: list[tuple[str, int, int]] = field(default_factory=list)
    # Each button as drawn (the rect a screen gave `add_target`, what a finger aims at)
    # beside its intent; the hit rects are the painter's `targets`.
    buttons: list[tuple[pygame.Rect, Intent]] = field(default_factory=list)


class Painter:
    """Draws text, parts and QR codes with caches, and remembers the last frame's targets."""

    def __init__(self, fonts: Fonts | None = None, max_part_bytes: int = 24 * 2**20) -> None:
        self.fonts = fonts or Fonts()
        self.qr = QrCache()
        self.targets: list[tuple[pygame.Rect, Intent]] = []
        # The frame's first focus for a remote (the action most likely wanted next) and its
        # unlit buttons (a tap is refused): appliance/kiosk/focus.py reads both.
        self.first_focus: Intent | None = None
        self.unlit: list[Intent] = []
        self.covers: list[pygame.Rect] = []  # toasts over the frame: the ring stays under
        # Drawing areas of the last frame: touches that start in one draw, not tap.
        self.canvases: list[tuple[pygame.Rect, CanvasSpec]] = []
        # The targets and drawing areas of the last frame finished (`shown`): taps are
        # tested against them while the next frame is being drawn on another thread.
        self._shown_targets = self.targets
        self._shown_canvases = self.canvases
        self._parts: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        # Bounded by bytes, not entries: a 1080p seat card is ~0.25 MB, a day of players
        # coming and going must not eat a small Pi's memory. One frame needs ~7 MB.
        self._max_part_bytes = max_part_bytes
        self._part_bytes = 0
        # slot -> the key of the one part shown in it (see `part`).
        self._slots: dict[Hashable, Hashable] = {}
        # Parts being painted now: what goes into a part is kept in the part's pixels,
        # so its texts and QR codes are not cached a second time (see `part`).
        self._painting = 0
        # The smallest type the screen allows (Metrics.f_min of the frame being drawn):
        # a text that does not fit its room shrinks to no less than this before it is cut.
        self.min_text = 0
        self.min_target = 0  # Metrics.target of the frame being drawn
        self._shrunk_sizes: dict[tuple[str, int, bool, int, int], int] = {}  # see _shrunk
        self._frame = pygame.Rect(0, 0, 0, 0)
        # The layout log of the frame being drawn, when record_layout is on (tests).
        self.record_layout = False
        self.layout: LayoutLog | None = None

    def begin_frame(self, surface: pygame.Surface, metrics: Metrics) -> None:
        """A new frame: no targets or drawing areas yet, the screen's smallest type, and a
        fresh layout log if one is kept."""
        self.clear_targets()
        self.min_text = metrics.f_min
        self.min_target = metrics.target
        self._frame = surface.get_rect()
        self.layout = LayoutLog(surface.get_size()) if self.record_layout else None

    def add_panel(self, rect: pygame.Rect, name: str) -> None:
        """Declare a box of the frame (a sidebar, a scoreboard, a button bar) that no other
        declared box may overlap; only the layout log keeps it."""
        if self.layout is not None:
            self.layout.panels.append((name, pygame.Rect(rect)))

    def note_dropped(self, name: str, shown: int, total: int) -> None:
        """A list showed `shown` of its `total` items with no "…and n more": the layout
        test fails on it."""
        if self.layout is not None and shown < total:
            self.layout.dropped.append((name, shown, total))

    def note_text(self, text: str, size: int) -> None:
        """Tell the layout log of a text drawn straight with a font (a number on a token,
        a die's "?"), at the `size` it has on screen."""
        if self.layout is not None and text.strip():
            self.layout.texts.append(
                TextBox(text, size, True, None, self.layout.size, True, False, False)
            )

    def note_cut(self, text: str, size: int) -> None:
        """Tell the layout log that wrapped `text` did not fit its box and its last line
        shown ends with an ellipsis (the log has only that line's piece otherwise)."""
        if self.layout is not None:
            self.layout.texts.append(
                TextBox(clean_text(text), size, False, None, self.layout.size, True, True, False)
            )

    def drop_targets_in(self, rect: pygame.Rect) -> None:
        """A layer is drawn over `rect` (a proposal over the side panel): the buttons under
        it are hidden, so a tap or the remote's focus must not reach them."""
        self.targets = [(box, it) for box, it in self.targets if not rect.contains(box)]
        if self.layout is not None:
            self.layout.buttons = [(box, it) for box, it in self.layout.buttons
                                   if not rect.contains(box)]

    def _log_text(
        self,
        text: object,
        size: int,
        bold: bool,
        max_width: int | None,
        surf: pygame.Surface,
        surface: pygame.Surface | None,
        rect: pygame.Rect | None,
    ) -> None:
        assert self.layout is not None
        clean = clean_text(text)
        if not clean.strip():
            return
        wide = max_width is not None and self.fonts.font(size, bold).size(clean)[0] > max_width
        clipped = False
        where: pygame.Rect | None = None
        on: Size = self.layout.size
        if surface is not None and rect is not None:
            bounds = surface.get_rect()
            on = bounds.size
            if not bounds.contains(rect):
                ink = surf.get_bounding_rect().move(rect.topleft)
                clipped = ink.w > 0 and ink.h > 0 and not bounds.contains(ink)
            where = rect.move(surface.get_abs_offset()) if not self._painting else rect
        self.layout.texts.append(
            TextBox(clean, size, bold, where, on, self._painting > 0, wide, clipped)
        )

    # -- hit testing

    def clear_targets(self) -> None:
        """No targets, drawing areas or first focus (a layer covering the frame starts
        its own)."""
        self.targets = []
        self.canvases = []
        self.first_focus = None
        self.unlit = []
        self.covers = []
        if self.layout is not None:
            self.layout.buttons = []

    def add_target(self, rect: pygame.Rect, intent: Intent, first: bool = False,
                   lit: bool = True) -> None:
        """Make `rect` a button for `intent`. A button drawn smaller than a finger
        (Metrics.target) answers to a finger-sized area around its centre, kept on the
        frame. `first`: the remote's focus starts here on a new screen (the last such
        call of a frame wins); not `lit`: drawn dim, a press is refused, so the focus
        does not start there."""
        if first:
            self.first_focus = intent
        if not lit:
            self.unlit.append(intent)
        box = pygame.Rect(rect)
        t = self.min_target
        if t and (box.w < t or box.h < t):
            grown = pygame.Rect(0, 0, max(box.w, t), max(box.h, t))
            grown.center = box.center
            if self._frame.w >= grown.w and self._frame.h >= grown.h:
                grown.clamp_ip(self._frame)
            box = grown
        self.targets.append((box, intent))
        if self.layout is not None:
            self.layout.buttons.append((pygame.Rect(rect), intent))

    def add_canvas(self, rect: pygame.Rect, canvas: CanvasSpec) -> None:
        """Make `rect` (the sheet's shape, 1600:1000) a drawing area for `canvas.seat`."""
        self.canvases.append((pygame.Rect(rect), canvas))

    def shown(self) -> None:
        """The frame being drawn is done: taps are tested against its targets now."""
        self._shown_targets, self._shown_canvases = self.targets, self.canvases

    def canvas_at(self, pos: tuple[float, float]) -> tuple[pygame.Rect, CanvasSpec] | None:
        """The drawing area under logical `pos` in the last frame, if any."""
        x, y = int(pos[0]), int(pos[1])
        for rect, canvas in reversed(self._shown_canvases):
            if rect.collidepoint(x, y):
                return rect, canvas
        return None

    def hit(self, pos: tuple[float, float]) -> Intent | None:
        """The intent of the button under logical `pos` in the last frame, if any."""
        x, y = int(pos[0]), int(pos[1])
        # Later targets are drawn on top (the ✕ sits on its seat card).
        for rect, intent in reversed(self._shown_targets):
            if rect.collidepoint(x, y):
                return intent
        return None

    # -- building blocks (also for games' own screens)

    def text(
        self,
        text: object,
        size: int,
        colour: Colour = TEXT,
        bold: bool = False,
        max_width: int | None = None,
    ) -> pygame.Surface:
        size = self._shrunk(text, size, bold, max_width)
        surf = self.fonts.render(text, size, colour, bold, max_width, keep=not self._painting)
        if self.layout is not None:
            self._log_text(text, size, bold, max_width, surf, None, None)
        return surf

    def _shrunk(self, text: object, size: int, bold: bool, max_width: int | None) -> int:
        """`size`, or a little less (down to a fifth off, never under the screen's smallest
        type) when that makes `text` fit `max_width`: smaller before cut."""
        if max_width is None or size <= self.min_text:
            return size
        # Remembered: every text of every frame is measured here, mostly the same texts.
        key = (str(text), size, bold, max_width, self.min_text)
        shrunk = self._shrunk_sizes.get(key)
        if shrunk is None:
            if len(self._shrunk_sizes) >= 4096:
                self._shrunk_sizes.clear()
            shrunk = self._shrunk_sizes[key] = self._shrink(text, size, bold, max_width)
        return shrunk

    def _shrink(self, text: object, size: int, bold: bool, max_width: int) -> int:
        font = self.fonts.font(size, bold)
        clean = clean_text(text)
        if font.size(clean)[0] <= max_width:
            return size
        floor = max(self.min_text, round(size * 0.8))
        return self.fit_size(clean, size, max_width, bold, floor)

    def blit_text(
        self,
        surface: pygame.Surface,
        text: object,
        size: int,
        colour: Colour,
        anchor: str,
        pos: tuple[int, int],
        bold: bool = False,
        max_width: int | None = None,
    ) -> pygame.Rect:
        """Draw `text` with its rect's `anchor` ("topleft", "midright", ...) at `pos`; too
        wide for `max_width`, it is drawn a little smaller, then cut with an ellipsis."""
        size = self._shrunk(text, size, bold, max_width)
        surf = self.fonts.render(text, size, colour, bold, max_width, keep=not self._painting)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        if self.layout is not None:
            self._log_text(text, size, bold, max_width, surf, surface, rect)
        return rect

    def fit_size(
        self, text: object, size: int, max_width: int, bold: bool = False, min_size: int = 0
    ) -> int:
        """The largest type size from `size` down to `min_size` at which `text` fits
        `max_width`: an address or a password is better smaller than cut."""
        floor = max(6, min_size or round(size * 0.6))
        if size >= self.min_text:
            floor = max(floor, self.min_text)
        while size > floor and self.fonts.font(size, bold).size(str(text))[0] > max_width:
            size = max(floor, size - max(1, size // 12))
        return size

    def line(self, size: int, bold: bool = False) -> int:
        return self.fonts.line_height(size, bold)

    def part(
        self,
        key: Hashable,
        size: Size,
        draw: Callable[[pygame.Surface], None],
        slot: Hashable | None = None,
    ) -> pygame.Surface:
        """A cached opaque surface of `size` on the page background, drawn once by `draw`.

        A part drawn into a `slot` replaces the slot's previous part in the cache: for
        what is made anew per match and never shown again once replaced (the last game's
        gallery code and result, a step of the lobby's history). Left to the LRU, a
        1080p gallery strip (1.3 MB) per finished match filled the budget with pictures
        nobody would see again."""
        full_key = (key, size)
        surf = self._parts.get(full_key)
        if surf is not None:
            self._parts.move_to_end(full_key)
            return surf
        if slot is not None:
            old_key = self._slots.get(slot)
            old = None if old_key is None else self._parts.pop(old_key, None)
            if old is not None:
                self._part_bytes -= _surface_bytes(old)
            self._slots[slot] = full_key
        surf = pygame.Surface((max(1, size[0]), max(1, size[1])))
        if pygame.display.get_surface() is not None:
            surf = surf.convert()
        surf.fill(BG)
        # Texts and QR codes painted into a part live on in its pixels: caching them too
        # held a second copy (the 1080p join code alone is 1.3 MB) until evicted.
        self._painting += 1
        try:
            draw(surf)
        finally:
            self._painting -= 1
        self._parts[full_key] = surf
        self._part_bytes += _surface_bytes(surf)
        while self._part_bytes > self._max_part_bytes and len(self._parts) > 1:
            _, old = self._parts.popitem(last=False)
            self._part_bytes -= _surface_bytes(old)
        return surf

    def draw_qr(
        self, surface: pygame.Surface, data: str, box: pygame.Rect, radius: int = 0
    ) -> pygame.Rect:
        """A QR code of `data` centred on a white card filling the square `box`; returns
        the card's rect. Codes of different lengths thus get cards of the same size."""
        side = min(box.w, box.h)
        card = pygame.Rect(0, 0, side, side)
        card.center = box.center
        code = render_qr(data, side) if self._painting else self.qr.get(data, side)
        pygame.draw.rect(surface, WHITE, card, border_radius=radius)
        surface.blit(code, code.get_rect(center=card.center))
        return card

    def draw_timer(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        remaining: float,
        length: float,
        label: str,
        metrics: Metrics,
    ) -> None:
        """The hourglass as a bar that empties, with the label and the seconds left."""
        urgent = remaining <= min(10.0, length / 4)
        colour = WARN if urgent else ACCENT
        text_h = self.line(metrics.f_head, True)
        self.blit_text(
            surface,
            label,
            metrics.f_body,
            MUTED,
            "bottomleft",
            (rect.left, rect.top + text_h),
            max_width=rect.w // 2,
        )
        self.blit_text(
            surface,
            format_seconds(remaining),
            metrics.f_head,
            colour,
            "topright",
            (rect.right, rect.top),
            bold=True,
        )
        bar = pygame.Rect(
            rect.left,
            rect.top + text_h + metrics.gap // 2,
            rect.w,
            max(6, rect.bottom - rect.top - text_h - metrics.gap // 2),
        )
        radius = bar.h // 2
        pygame.draw.rect(surface, PANEL, bar, border_radius=radius)
        frac = 0.0 if length <= 0 else max(0.0, min(1.0, remaining / length))
        if frac > 0:
            fill = pygame.Rect(bar.left, bar.top, max(bar.h, round(bar.w * frac)), bar.h)
            pygame.draw.rect(surface, colour, fill, border_radius=radius)

    def seat_card(
        self,
        seat: Mapping[str, Any],
        size: Size,
        metrics: Metrics,
        lang: str,
        trailing: str | None = None,
        kick: bool = False,
    ) -> pygame.Surface:
        """A player's card in their colour: status dot, name, host crown, and either a
        kick ✕ (lobby) or a trailing text such as the score (game).

        Each seat has one card in the cache for the lobby and one for the game (a slot):
        a new score, a phone that comes back, a layout for more players replaces it.
        Left to the LRU, every score of a match was a card of its own (0.2-0.3 MB at
        1080p) and the superseded ones held a third of the part budget."""
        name = seat.get("name", "")
        colour = parse_colour(seat.get("colour"))
        connected = bool(seat.get("connected", True))
        host = bool(seat.get("host", False))
        key = ("seat", str(name), colour, connected, host, trailing, kick, lang, metrics)
        number = seat.get("seat")
        return self.part(
            key,
            size,
            lambda surf: self._draw_seat_card(
                surf, str(name), colour, connected, host, trailing, kick, lang, metrics
            ),
            slot=("seat card", number, kick) if isinstance(number, int) else None,
        )

    def _draw_seat_card(
        self,
        surf: pygame.Surface,
        name: str,
        colour: Colour,
        connected: bool,
        host: bool,
        trailing: str | None,
        kick: bool,
        lang: str,
        m: Metrics,
    ) -> None:
        w, h = surf.get_size()
        # A player who dropped out fades into the table; the colour stays recognisable.
        fill = colour if connected else blend(colour, PANEL, 0.62)
        ink = ink_on(fill)
        radius = min(m.radius, h // 3)
        pygame.draw.rect(surf, fill, surf.get_rect(), border_radius=radius)

        cy = h // 2
        dot_r = max(4, round(h * 0.12))
        x = max(m.pad // 2, round(h * 0.22))
        dot_c = (x + dot_r, cy)
        if connected:
            pygame.draw.circle(surf, ONLINE, dot_c, dot_r)
            pygame.draw.circle(surf, ink, dot_c, dot_r, max(2, dot_r // 3))
        else:
            pygame.draw.circle(surf, ink, dot_c, dot_r, max(2, dot_r // 3))
        x += 2 * dot_r + max(6, m.gap // 2)

        right = w - max(m.pad // 2, round(h * 0.2))
        if kick:
            right = w - h
            _draw_kick(surf, pygame.Rect(w - h, 0, h, h), ink, fill)
        elif trailing is not None:
            tr_rect = self.blit_text(
                surf, trailing, m.f_head, ink, "midright", (right, cy), bold=True
            )
            right = tr_rect.left - m.gap // 2

        crown_w = 0
        if host:
            crown_w = round(h * 0.36)
            right -= crown_w + m.gap // 2

        subtitle = []
        if host:
            subtitle.append(tr(lang, "host"))
        if not connected:
            subtitle.append(tr(lang, "offline"))
        name_size = m.f_body
        name_h = self.line(name_size, True)
        sub_h = self.line(m.f_small)
        two_lines = bool(subtitle) and name_h + sub_h <= h * 0.92
        max_w = max(1, right - x)
        if two_lines:
            top = cy - (name_h + sub_h) // 2
            name_rect = self.blit_text(
                surf, name, name_size, ink, "topleft", (x, top), bold=True, max_width=max_w
            )
            self.blit_text(
                surf,
                " · ".join(subtitle),
                m.f_small,
                ink,
                "topleft",
                (x, top + name_h),
                max_width=max_w,
            )
        else:
            # No room for a second line: "offline" (and "host") after the name, so a
            # dropped-out player is told in words, not by the dimmed colour alone.
            tail = f" · {' · '.join(subtitle)}" if subtitle else ""
            tail_w = self.fonts.font(m.f_small).size(tail)[0] if tail else 0
            fits = bool(tail) and tail_w < max_w // 2
            name_w = max(1, max_w - tail_w) if fits else max_w
            name_rect = self.blit_text(
                surf, name, name_size, ink, "midleft", (x, cy), bold=True, max_width=name_w
            )
            if fits:
                # After the crown, if there is one (it is drawn right of the name below).
                left = name_rect.right + (crown_w + m.gap // 2 if host else 0)
                self.blit_text(
                    surf, tail, m.f_small, ink, "midleft", (left, cy),
                    max_width=max(1, x + max_w + (crown_w + m.gap // 2 if host else 0) - left),
                )
        if host:
            cw = crown_w
            ch = round(cw * 0.75)
            _draw_crown(
                surf,
                pygame.Rect(
                    name_rect.right + m.gap // 2,
                    cy - ch // 2 - (sub_h // 2 if two_lines else 0),
                    cw,
                    ch,
                ),
                ink,
            )


def _surface_bytes(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()


def _draw_kick(surf: pygame.Surface, area: pygame.Rect, ink: Colour, fill: Colour) -> None:
    """The ✕ drawn as lines: no font has to carry the glyph; big enough to be seen as a
    button (the whole square `area` answers to a touch)."""
    r = max(8, round(area.h * 0.36))
    c = area.center
    pygame.draw.circle(surf, blend(fill, ink, 0.22), c, r)
    arm = round(r * 0.45)
    width = max(2, round(r * 0.2))
    pygame.draw.line(surf, ink, (c[0] - arm, c[1] - arm), (c[0] + arm, c[1] + arm), width)
    pygame.draw.line(surf, ink, (c[0] - arm, c[1] + arm), (c[0] + arm, c[1] - arm), width)


def _draw_crown(surf: pygame.Surface, box: pygame.Rect, ink: Colour) -> None:
    """A three-pointed crown marking the host."""
    x, y, w, h = box
    points = [
        (x, y + h),
        (x, y + h * 0.25),
        (x + w * 0.28, y + h * 0.6),
        (x + w * 0.5, y),
        (x + w * 0.72, y + h * 0.6),
        (x + w, y + h * 0.25),
        (x + w, y + h),
    ]
    pygame.draw.polygon(surf, ink, points)
