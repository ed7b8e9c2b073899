"""Drawing the public view on the kiosk: the lobby (join QR codes, seats, games, Start) and
the frame shown while a game runs, plus hit testing of what was drawn.

The renderer reads plain view dicts (docs/protocol.md, "The view") and nothing else. Every
piece that does not change from frame to frame (QR codes, text, seat cards, game tiles)
is rendered once into a surface keyed by its content and size, so a redraw is a fill and
a few dozen blits. Games bring their own screen for the "playing" phase by registering a
function in GAME_SCREENS; `generic_playing_screen` is the fallback.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour, Fonts
from appliance.kiosk.intents import (
    CanvasSpec,
    Intent,
    KickSeat,
    PressButton,
    SelectGame,
    SitDown,
    StartGame,
)
from appliance.kiosk.qr import QrCache, render_qr, wifi_from_view
from appliance.kiosk.text import DEFAULT_LANG, LANGUAGES, join_names, tr

log = logging.getLogger(__name__)

# High contrast on a dark ground: readable across a café table and kind to a TV at night.
BG: Final[Colour] = (16, 18, 26)
PANEL: Final[Colour] = (31, 35, 48)
PANEL_EDGE: Final[Colour] = (62, 69, 92)
TEXT: Final[Colour] = (246, 246, 242)
MUTED: Final[Colour] = (160, 168, 190)
ACCENT: Final[Colour] = (255, 199, 44)
ON_ACCENT: Final[Colour] = (22, 20, 16)
ONLINE: Final[Colour] = (64, 220, 120)
WARN: Final[Colour] = (240, 84, 72)
WHITE: Final[Colour] = (255, 255, 255)
BLACK: Final[Colour] = (0, 0, 0)

Size = tuple[int, int]
View = Mapping[str, Any]


# --- small pure helpers -----------------------------------------------------------------


def parse_colour(value: object, default: Colour = MUTED) -> Colour:
    """'#rrggbb' (or 'rrggbb', '#rgb') as an RGB tuple; anything else gives `default`."""
    if not isinstance(value, str):
        return default
    s = value.strip().lstrip("#")
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    if len(s) != 6:
        return default
    try:
        return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
    except ValueError:
        return default


def _luminance(c: Colour) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def ink_on(fill: Colour) -> Colour:
    """Black or white, whichever has the higher WCAG contrast on `fill`."""
    lum = _luminance(fill)
    return BLACK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else WHITE


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """`a` moved a fraction `t` of the way towards `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _int(value: object, default: int = 0) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    return default


def _num(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _dicts(value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, Mapping)]


def view_lang(view: View) -> str:
    lang = view.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else DEFAULT_LANG


def deadline_remaining(view: View, now: float) -> tuple[float, float] | None:
    """(seconds left, hourglass length) of match.deadline at `now`, or None.

    `now` must come from the clock that made deadline["at"] (the session's clock). If it
    plainly does not (the result is outside the hourglass), the view's own "remaining"
    is used instead, so a clock mix-up shows a frozen timer rather than nonsense.
    """
    match = view.get("match")
    if not isinstance(match, Mapping):
        return None
    deadline = match.get("deadline")
    if not isinstance(deadline, Mapping):
        return None
    reported = _num(deadline.get("remaining"))
    length = _num(deadline.get("length"))
    at = _num(deadline.get("at"))
    remaining = reported
    if at is not None:
        computed = at - now
        if length is None or -1.0 <= computed <= length + 1.0 or reported is None:
            remaining = computed
    if remaining is None:
        return None
    remaining = max(0.0, remaining)
    if length is None or length <= 0:
        length = max(remaining, 1.0)
    return remaining, length


def scores_of(match: Mapping[str, Any]) -> dict[int, float]:
    """Scores per seat from match.outcome.scores or match.state.scores, in any of the
    shapes a game may use: [[seat, score], ...], {"seat": score}, or [score per seat]."""
    for holder in (match.get("outcome"), match.get("state")):
        if not isinstance(holder, Mapping) or "scores" not in holder:
            continue
        raw = holder["scores"]
        out: dict[int, float] = {}
        if isinstance(raw, Mapping):
            for k, v in raw.items():
                n = _num(v)
                try:
                    seat = int(k)
                except (TypeError, ValueError):
                    continue
                if n is not None:
                    out[seat] = n
        elif isinstance(raw, list | tuple):
            for i, item in enumerate(raw):
                if isinstance(item, list | tuple) and len(item) == 2:
                    n = _num(item[1])
                    if n is not None and _num(item[0]) is not None:
                        out[int(item[0])] = n
                else:
                    n = _num(item)
                    if n is not None:
                        out[i] = n
        return out
    return {}


def _fmt_score(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def format_seconds(seconds: float) -> str:
    """'0:41' for a timer, rounding up so 0:00 means time is up."""
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


# --- layout metrics ---------------------------------------------------------------------


@dataclass(frozen=True)
class Metrics:
    """Spacing and type sizes for one frame size; everything scales from a 1080p design."""

    w: int
    h: int
    portrait: bool
    scale: float
    margin: int
    gap: int
    pad: int
    radius: int
    f_code: int
    f_title: int
    f_head: int
    f_body: int
    f_small: int

    @classmethod
    def for_size(cls, size: Size) -> Metrics:
        w, h = max(1, size[0]), max(1, size[1])
        portrait = h > w
        s = min(w / 1080, h / 1920) if portrait else min(w / 1920, h / 1080)
        if portrait:
            # Type sized from the short side would be tiny on a tall screen.
            s *= 1.15

        def px(v: float, floor: int = 1) -> int:
            return max(floor, round(v * s))

        return cls(
            w=w,
            h=h,
            portrait=portrait,
            scale=s,
            margin=px(32, 6),
            gap=px(20, 4),
            pad=px(24, 5),
            radius=px(18, 4),
            # Portrait screens are short of height for the QR codes: a smaller room code.
            f_code=px(88 if portrait else 132, 28),
            f_title=px(64, 20),
            f_head=px(44, 16),
            f_body=px(36, 14),
            f_small=px(27, 11),
        )


@dataclass
class Frame:
    """What a game screen draws on: the surface, the view and the time left, if any."""

    surface: pygame.Surface
    view: View
    lang: str
    now: float
    remaining: float | None
    length: float | None
    metrics: Metrics


GameScreen = Callable[["KioskRenderer", Frame], None]

# game id -> the kiosk screen a game brings for its "playing" phase.
GAME_SCREENS: dict[str, GameScreen] = {}


# --- the renderer -----------------------------------------------------------------------


class KioskRenderer:
    """Draws views onto surfaces and remembers where the last frame's buttons are."""

    def __init__(self, fonts: Fonts | None = None, max_part_bytes: int = 24 * 2**20) -> None:
        self.fonts = fonts or Fonts()
        self.qr = QrCache()
        self.targets: list[tuple[pygame.Rect, Intent]] = []
        # Drawing areas of the last frame: touches that start in one draw, not tap.
        self.canvases: list[tuple[pygame.Rect, CanvasSpec]] = []
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
        self._game_on_screen = False  # a game's own screen drew since the last lobby
        self._last_key: tuple[object, ...] | None = None
        self._broken_screens: set[str] = set()
        # No physical panel: the table's three buttons are drawn on screen while a game runs.
        self.panel_buttons = False

    # -- redraw decisions

    def frame_key(self, view: View, now: float, size: Size) -> tuple[object, ...]:
        """What the picture depends on: the view's version, the size, the timer's second."""
        timer = deadline_remaining(view, now) if view.get("phase") == "playing" else None
        second = None if timer is None else math.ceil(timer[0])
        return (view.get("version"), tuple(size), second)

    def needs_redraw(self, view: View, now: float, size: Size) -> bool:
        # A view without a version cannot be compared: always draw it.
        if view.get("version") is None:
            return True
        return self.frame_key(view, now, size) != self._last_key

    def mark_drawn(self, view: View, now: float, size: Size) -> None:
        """Treat `view` as shown, so needs_redraw is False until it changes."""
        self._last_key = self.frame_key(view, now, size)

    def invalidate(self) -> None:
        """Force the next frame to be drawn (the window was exposed, resized...)."""
        self._last_key = None

    # -- drawing

    def render(self, surface: pygame.Surface, view: View, now: float = 0.0) -> None:
        """Draw `view` onto `surface` (always; see needs_redraw) and record hit targets."""
        size = surface.get_size()
        metrics = Metrics.for_size(size)
        lang = view_lang(view)
        self.targets = []
        self.canvases = []
        surface.fill(BG)
        phase = view.get("phase")
        if phase == "playing":
            timer = deadline_remaining(view, now)
            frame = Frame(
                surface=surface,
                view=view,
                lang=lang,
                now=now,
                remaining=None if timer is None else timer[0],
                length=None if timer is None else timer[1],
                metrics=metrics,
            )
            self._game_on_screen = True
            self._draw_playing(frame)
            if self.panel_buttons:
                self._draw_panel_buttons(frame)
        else:
            if self._game_on_screen:
                # The match is over: its screen's painted sheets (up to 32 MB at 1080p)
                # are named by the match and never drawn again, so they go now rather
                # than wait for the next game to replace them.
                from appliance.kiosk.kit import PerRenderer

                self._game_on_screen = False
                PerRenderer.release(self)
            self._draw_lobby(surface, view, lang, metrics)
        from appliance.kiosk.host_menu import draw_host_layer
        from appliance.kiosk.seat_pad import draw_seat_layer

        draw_seat_layer(self, surface, view, metrics, lang)  # sitting down without a phone
        draw_host_layer(self, surface, view, metrics, lang)  # the host's corner, PIN, menu
        self._last_key = self.frame_key(view, now, size)

    def _draw_playing(self, frame: Frame) -> None:
        match = frame.view.get("match")
        game = match.get("game") if isinstance(match, Mapping) else None
        screen = GAME_SCREENS.get(game) if isinstance(game, str) else None
        if screen is not None and isinstance(game, str) and game not in self._broken_screens:
            try:
                screen(self, frame)
                return
            except Exception:
                # A game's screen bug must not blank the table: log it once, fall back.
                log.exception("kiosk screen of %r failed; using the generic one", game)
                self._broken_screens.add(game)
                self.targets = []
                frame.surface.fill(BG)
        generic_playing_screen(self, frame)

    def _draw_panel_buttons(self, f: Frame) -> None:
        """HOURGLASS, DIE and REVEAL as small pills in the bottom-right corner, on top of
        the game's screen; the ones that do something now are lit, as on the panel."""
        from appliance.kiosk.kit import pill

        match = f.view.get("match")
        waiting = match.get("buttons") if isinstance(match, Mapping) else None
        waiting = waiting if isinstance(waiting, list) else []
        m = f.metrics
        size = m.f_small
        right, bottom = m.w - m.gap // 2, m.h - m.gap // 2
        for name in ("reveal", "die", "hourglass"):
            lit = name in waiting
            rect = pill(
                self,
                f.surface,
                tr(f.lang, f"button_{name}"),
                size,
                ACCENT if lit else PANEL_EDGE,
                "bottomright",
                (right, bottom),
            )
            self.add_target(rect.inflate(m.gap // 2, m.gap // 2), PressButton(name))
            right = rect.left - m.gap // 2

    # -- hit testing

    def add_target(self, rect: pygame.Rect, intent: Intent) -> None:
        self.targets.append((pygame.Rect(rect), intent))

    def add_canvas(self, rect: pygame.Rect, canvas: CanvasSpec) -> None:
        """Make `rect` (the sheet's shape, 1600:1000) a drawing area for `canvas.seat`."""
        self.canvases.append((pygame.Rect(rect), canvas))

    def canvas_at(self, pos: tuple[float, float]) -> tuple[pygame.Rect, CanvasSpec] | None:
        """The drawing area under logical `pos` in the last frame, if any."""
        x, y = int(pos[0]), int(pos[1])
        for rect, canvas in reversed(self.canvases):
            if rect.collidepoint(x, y):
                return rect, canvas
        return None

    def hit(self, pos: tuple[float, float]) -> Intent | None:
        """The intent of the button under logical `pos` in the last frame, if any."""
        x, y = int(pos[0]), int(pos[1])
        # Later targets are drawn on top (the ✕ sits on its seat card).
        for rect, intent in reversed(self.targets):
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
        return self.fonts.render(text, size, colour, bold, max_width, keep=not self._painting)

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
        """Draw `text` with its rect's `anchor` ("topleft", "midright", ...) at `pos`."""
        surf = self.text(text, size, colour, bold, max_width)
        rect = surf.get_rect(**{anchor: pos})
        surface.blit(surf, rect)
        return rect

    def fit_size(
        self, text: object, size: int, max_width: int, bold: bool = False, min_size: int = 0
    ) -> int:
        """The largest type size from `size` down to `min_size` at which `text` fits
        `max_width`: an address or a password is better smaller than cut."""
        floor = max(6, min_size or round(size * 0.6))
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
        kick ✕ (lobby) or a trailing text such as the score (game)."""
        name = seat.get("name", "")
        colour = parse_colour(seat.get("colour"))
        connected = bool(seat.get("connected", True))
        host = bool(seat.get("host", False))
        key = ("seat", str(name), colour, connected, host, trailing, kick, lang, metrics)
        return self.part(
            key,
            size,
            lambda surf: self._draw_seat_card(
                surf, str(name), colour, connected, host, trailing, kick, lang, metrics
            ),
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
            name_rect = self.blit_text(
                surf, name, name_size, ink, "midleft", (x, cy), bold=True, max_width=max_w
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

    # -- the lobby

    def _draw_lobby(self, surface: pygame.Surface, view: View, lang: str, m: Metrics) -> None:
        wifi = view.get("wifi") if isinstance(view.get("wifi"), Mapping) else None
        area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
        n_codes = 2 if wifi else 1
        if m.portrait:
            join_h = round(area.h * 0.54)
            join = pygame.Rect(area.left, area.top, area.w, join_h)
            rest = pygame.Rect(
                area.left, join.bottom + m.gap, area.w, area.bottom - join.bottom - m.gap
            )
        else:
            qr_side = self._join_qr_height(area.h, m, wifi is not None)
            join_w = n_codes * qr_side + (n_codes - 1) * m.gap + 2 * m.pad
            join_w = min(join_w, round(area.w * (0.5 if wifi else 0.4)))
            join = pygame.Rect(area.left, area.top, join_w, area.h)
            rest = pygame.Rect(
                join.right + m.gap, area.top, area.right - join.right - m.gap, area.h
            )
        self._draw_join_panel(surface, view, wifi, lang, join, m)

        if view.get("phase") == "finished":
            banner = self._draw_result_banner(surface, view, lang, rest, m)
            rest = pygame.Rect(
                rest.left, banner.bottom + m.gap, rest.w, rest.bottom - banner.bottom - m.gap
            )
        # One slot under the result: the gallery's QR code, or a step of the idle lobby's
        # history (appliance/lobby_history.py), whose cycle includes the code again.
        history = view.get("history")
        if isinstance(history, Mapping) and history.get("kind") in ("winners", "drawing"):
            from appliance.kiosk.host_menu import draw_history

            slot = self._slot(rest, m)
            if slot is not None:
                draw_history(self, surface, history, slot, m, lang)
                rest = pygame.Rect(rest.left, slot.bottom + m.gap, rest.w,
                                   rest.bottom - slot.bottom - m.gap)
        elif view.get("phase") == "finished":
            rest = self._draw_gallery_code(surface, view, lang, rest, m)
        self._draw_seats_and_games(surface, view, lang, rest, m)

    def _slot(self, rest: pygame.Rect, m: Metrics) -> pygame.Rect | None:
        """The strip under the result banner for the gallery code or the history."""
        side = min(round(rest.h * 0.3), round(240 * m.scale))
        if side < 60:
            return None
        return pygame.Rect(rest.left, rest.top, rest.w, side + 2 * m.pad)

    def _draw_gallery_code(
        self, surface: pygame.Surface, view: View, lang: str, rest: pygame.Rect, m: Metrics
    ) -> pygame.Rect:
        """The art show to take home: a QR code of the finished game's gallery; returns
        what is left of `rest` below it."""
        match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
        assert isinstance(match, Mapping)
        url = match.get("gallery_url")
        if not isinstance(url, str) or not url:
            return rest
        rect = self._slot(rest, m)
        if rect is None:
            return rest
        side = rect.h - 2 * m.pad

        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            pygame.draw.rect(s, PANEL, r, border_radius=m.radius)
            self.draw_qr(s, url, pygame.Rect(m.pad, m.pad, side, side), radius=m.radius // 2)
            x = 2 * m.pad + side
            head = self.blit_text(s, tr(lang, "gallery_title"), m.f_head, ACCENT, "topleft",
                                  (x, m.pad), True, r.w - x - m.pad)
            self.blit_text(s, tr(lang, "gallery_help"), m.f_small, TEXT, "topleft",
                           (x, head.bottom + m.gap // 2), False, r.w - x - m.pad)

        key = ("gallery", url, lang, rect.size, m)
        surface.blit(self.part(key, rect.size, paint, slot="gallery"), rect)
        below = rect.bottom + m.gap
        return pygame.Rect(rest.left, below, rest.w, rest.bottom - below)

    def _join_text_height(self, m: Metrics, wifi: bool) -> int:
        h = self.line(m.f_head, True) + m.gap  # heading
        if wifi:
            h += self.line(m.f_small, True) + m.gap // 2  # step captions
            h += 2 * self.line(m.f_small)  # network and password
        h += m.gap + self.line(m.f_small) + self.line(m.f_body)  # "or open" + address
        h += m.gap + self.line(m.f_small) + self.line(m.f_code, True)  # room code
        return h + 2 * m.pad

    def _join_qr_height(self, height: int, m: Metrics, wifi: bool) -> int:
        return max(21, height - self._join_text_height(m, wifi))

    def _draw_join_panel(
        self,
        surface: pygame.Surface,
        view: View,
        wifi: Mapping[str, Any] | None,
        lang: str,
        rect: pygame.Rect,
        m: Metrics,
    ) -> None:
        url = str(view.get("join_url") or "")
        room = str(view.get("room") or "")
        wifi_data = wifi_from_view(wifi) if wifi else None
        key = (
            "join",
            url,
            room,
            wifi_data,
            str(wifi.get("ssid")) if wifi else None,
            str(wifi.get("password")) if wifi else None,
            lang,
            m,
        )
        panel = self.part(
            key, rect.size, lambda s: self._paint_join_panel(s, url, room, wifi, wifi_data, lang, m)
        )
        surface.blit(panel, rect)

    def _paint_join_panel(
        self,
        surf: pygame.Surface,
        url: str,
        room: str,
        wifi: Mapping[str, Any] | None,
        wifi_data: str | None,
        lang: str,
        m: Metrics,
    ) -> None:
        rect = surf.get_rect()
        pygame.draw.rect(surf, PANEL, rect, border_radius=m.radius)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        cx = inner.centerx
        heading = tr(lang, "scan_to_join")
        head = self.blit_text(
            surf, heading, m.f_head, TEXT, "midtop", inner.midtop, bold=True, max_width=inner.w
        )
        y = head.bottom + m.gap

        codes = [(wifi_data, tr(lang, "step_wifi")), (url, tr(lang, "step_join"))]
        if wifi_data is None:
            codes = codes[1:]
        n = len(codes)
        column_w = inner.w // n
        qr_h = self._join_qr_height(rect.h, m, wifi is not None)
        side = max(21, min(qr_h, (inner.w - (n - 1) * m.gap) // n))
        total_w = n * side + (n - 1) * m.gap
        x0 = cx - total_w // 2
        centres = [x0 + i * (side + m.gap) + side // 2 for i in range(n)]
        if wifi_data is not None:
            for centre, (_, caption) in zip(centres, codes, strict=True):
                self.blit_text(
                    surf, caption, m.f_small, ACCENT, "midtop", (centre, y), True, column_w
                )
            y += self.line(m.f_small, True) + m.gap // 2
        for centre, (data, _) in zip(centres, codes, strict=True):
            if data:
                box = pygame.Rect(centre - side // 2, y, side, side)
                self.draw_qr(surf, data, box, radius=m.radius // 2)
        y += side

        if wifi is not None:
            password = wifi.get("password")
            line1 = tr(lang, "wifi_network", ssid=str(wifi.get("ssid", "")))
            line2 = (
                tr(lang, "wifi_password", password=password) if password else tr(lang, "wifi_open")
            )
            # One size for both lines; a password is better smaller than cut.
            size = min(
                self.fit_size(line1, m.f_small, column_w),
                self.fit_size(line2, m.f_small, column_w),
            )
            col_x = max(inner.left + column_w // 2, centres[0])
            y += m.gap // 2
            for text in (line1, line2):
                self.blit_text(surf, text, size, TEXT, "midtop", (col_x, y), max_width=column_w)
                y += self.line(m.f_small)

        # Address and room code sit at the bottom; the QR block floats above them.
        code_rect = self.blit_text(
            surf, room, m.f_code, ACCENT, "midbottom", inner.midbottom, True, inner.w
        )
        label = tr(lang, "room_code")
        label_rect = self.blit_text(
            surf, label, m.f_small, MUTED, "midbottom", (cx, code_rect.top), max_width=inner.w
        )
        url_size = self.fit_size(url, m.f_body, inner.w, bold=True, min_size=m.f_small * 3 // 4)
        url_rect = self.blit_text(
            surf, url, url_size, TEXT, "midbottom", (cx, label_rect.top - m.gap), True, inner.w
        )
        or_open = tr(lang, "or_open")
        self.blit_text(
            surf, or_open, m.f_small, MUTED, "midbottom", (cx, url_rect.top), max_width=inner.w
        )

    def _draw_result_banner(
        self, surface: pygame.Surface, view: View, lang: str, rest: pygame.Rect, m: Metrics
    ) -> pygame.Rect:
        match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
        assert isinstance(match, Mapping)
        outcome = match.get("outcome") if isinstance(match.get("outcome"), Mapping) else {}
        assert isinstance(outcome, Mapping)
        # The match's own seats first: a player who has left since still has a name.
        names_by_seat = {
            _int(s.get("seat"), -1): str(s.get("name", ""))
            for s in (*_dicts(view.get("seats")), *_dicts(match.get("seats")))
        }
        winners = outcome.get("winners") if isinstance(outcome.get("winners"), list) else []
        assert isinstance(winners, list)
        names = [
            names_by_seat.get(_int(w, -1)) or tr(lang, "seat_n", n=_int(w, -1) + 1) for w in winners
        ]
        title = str(match.get("title") or match.get("game") or "")
        line1 = (
            tr(lang, "winners", n=len(names), names=join_names(lang, names))
            if names
            else tr(lang, "no_winner")
        )
        scores = [
            (names_by_seat.get(_int(pair[0], -1)) or "?", pair[1])
            for pair in (outcome.get("scores") or [])
            if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], int | float)
        ]
        scores.sort(key=lambda item: -item[1])
        line2 = (
            "  ·  ".join(f"{name} {points:g}" for name, points in scores)
            if scores
            else (tr(lang, "match_over", title=title) if title else "")
        )
        h = 2 * m.pad + self.line(m.f_head, True) + (self.line(m.f_small) if line2 else 0)
        rect = pygame.Rect(rest.left, rest.top, rest.w, h)
        key = ("banner", line1, line2, m)

        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            pygame.draw.rect(s, ACCENT, r, border_radius=m.radius)
            inner = r.inflate(-2 * m.pad, -2 * m.pad)
            t = self.blit_text(
                s,
                line1,
                m.f_head,
                ON_ACCENT,
                "topleft",
                inner.topleft,
                bold=True,
                max_width=inner.w,
            )
            if line2:
                self.blit_text(
                    s,
                    line2,
                    m.f_small,
                    ON_ACCENT,
                    "topleft",
                    (inner.left, t.bottom),
                    max_width=inner.w,
                )

        surface.blit(self.part(key, rect.size, paint, slot="banner"), rect)
        return rect

    def _draw_seats_and_games(
        self, surface: pygame.Surface, view: View, lang: str, rect: pygame.Rect, m: Metrics
    ) -> None:
        seats = sorted(_dicts(view.get("seats")), key=lambda s: _int(s.get("seat")))
        max_players = max(_int(view.get("max_players"), len(seats)), len(seats))
        games = _dicts(view.get("games"))
        selected = view.get("selected")
        cols = 2 if rect.w >= 520 * m.scale else 1
        slot_rows = math.ceil(max(1, max_players) / cols)
        game_rows = math.ceil(max(1, len(games)) / cols)

        head_h = self.line(m.f_head, True)
        body_h = self.line(m.f_body, True)
        small_h = self.line(m.f_small)
        card_ideal = round(body_h * 2.1)
        tile_ideal = body_h + small_h + 2 * m.pad
        button_ideal = round(head_h * 1.7)
        fixed = (
            2 * (head_h + m.gap)
            + (slot_rows - 1) * m.gap // 2
            + (game_rows - 1) * m.gap // 2
            + 2 * m.gap
        )
        flex = slot_rows * card_ideal + game_rows * tile_ideal + button_ideal
        # Cards may grow a little to use a tall column, or shrink to fit a short one.
        k = min(1.3, max(0.3, (rect.h - fixed) / max(1, flex)))
        card_h = max(body_h + 4, round(card_ideal * k))
        tile_h = max(body_h + 4, round(tile_ideal * k))
        button_h = max(head_h + 4, round(button_ideal * k))
        row_gap = m.gap // 2

        # Players header: "Players  3 / 8"             "1 watching"
        y = rect.top
        title = self.blit_text(
            surface, tr(lang, "players"), m.f_head, TEXT, "topleft", (rect.left, y), bold=True
        )
        count = f"{len(seats)} / {max_players}"
        count_rect = self.blit_text(
            surface, count, m.f_head, ACCENT, "topleft", (title.right + m.gap, y), bold=True
        )
        spectators = max(0, _int(view.get("spectators")))
        watching = tr(lang, "spectators", n=spectators)
        room_left = rect.right - count_rect.right - m.gap
        if self.fonts.font(m.f_small).size(watching)[0] <= room_left:
            self.blit_text(
                surface,
                watching,
                m.f_small,
                MUTED,
                "bottomright",
                (rect.right, y + head_h - (head_h - small_h) // 3),
            )
        y += head_h + m.gap

        col_w = (rect.w - (cols - 1) * m.gap) // cols
        for i in range(slot_rows * cols):
            if i >= max_players:
                break
            cx = rect.left + (i % cols) * (col_w + m.gap)
            cy = y + (i // cols) * (card_h + row_gap)
            card = pygame.Rect(cx, cy, col_w, card_h)
            if i < len(seats):
                seat = seats[i]
                surface.blit(self.seat_card(seat, card.size, m, lang, kick=True), card)
                self.add_target(
                    pygame.Rect(card.right - card_h, card.top, card_h, card_h),
                    KickSeat(_int(seat.get("seat"))),
                )
            else:
                surface.blit(self._free_slot(card.size, lang, m), card)
                if isinstance(view.get("seat_pad"), Mapping):
                    # Someone without a phone sits here (appliance/kiosk_seat.py).
                    self.add_target(card, SitDown())
        y += slot_rows * card_h + (slot_rows - 1) * row_gap + m.gap

        # Games: a tile per title, the selected one outlined in the accent colour.
        self.blit_text(
            surface,
            tr(lang, "games"),
            m.f_head,
            TEXT,
            "topleft",
            (rect.left, y),
            bold=True,
            max_width=rect.w,
        )
        y += head_h + m.gap
        for i, game in enumerate(games):
            gx = rect.left + (i % cols) * (col_w + m.gap)
            gy = y + (i // cols) * (tile_h + row_gap)
            tile = pygame.Rect(gx, gy, col_w, tile_h)
            surface.blit(
                self._game_tile(game, game.get("id") == selected, tile.size, lang, m), tile
            )
            gid = game.get("id")
            if isinstance(gid, str):
                self.add_target(tile, SelectGame(gid))
        y += game_rows * tile_h + (game_rows - 1) * row_gap + m.gap

        button = pygame.Rect(rect.left, max(y, rect.bottom - button_h), rect.w, button_h)
        enabled, label = _start_state(view, seats, games, lang)
        surface.blit(self._start_button(label, enabled, button.size, m), button)
        if enabled:
            self.add_target(button, StartGame())

    def _free_slot(self, size: Size, lang: str, m: Metrics) -> pygame.Surface:
        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            pygame.draw.rect(
                s, PANEL_EDGE, r, width=max(2, m.gap // 8), border_radius=min(m.radius, r.h // 3)
            )
            self.blit_text(
                s,
                tr(lang, "free_seat"),
                m.f_small,
                MUTED,
                "midleft",
                (max(m.pad, round(r.h * 0.3)), r.centery),
                max_width=r.w - m.pad,
            )

        return self.part(("free", lang, m), size, paint)

    def _game_tile(
        self, game: Mapping[str, Any], selected: bool, size: Size, lang: str, m: Metrics
    ) -> pygame.Surface:
        title = str(game.get("title") or game.get("id") or "")
        lo, hi = _int(game.get("min_players")), _int(game.get("max_players"))
        available = bool(game.get("available", False))
        players = tr(lang, "players_range", min=lo, max=hi)

        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            radius = min(m.radius, r.h // 3)
            pygame.draw.rect(s, PANEL, r, border_radius=radius)
            if selected:
                pygame.draw.rect(
                    s, ACCENT, r, width=max(3, round(5 * m.scale)), border_radius=radius
                )
            inner = r.inflate(-2 * m.pad, 0)
            colour = TEXT if available else MUTED
            body_h = self.line(m.f_body, True)
            small_h = self.line(m.f_small)
            top = r.centery - (body_h + small_h) // 2
            badge_w = 0
            if selected:
                # A filled dot reads as "chosen" even for the colour-blind.
                dr = max(5, round(body_h * 0.22))
                pygame.draw.circle(s, ACCENT, (inner.right - dr, top + body_h // 2), dr)
                badge_w = 2 * dr + m.gap // 2
            self.blit_text(
                s,
                title,
                m.f_body,
                colour,
                "topleft",
                (inner.left, top),
                bold=True,
                max_width=inner.w - badge_w,
            )
            sub = players if available else f"{players} · {tr(lang, 'coming_soon')}"
            self.blit_text(
                s,
                sub,
                m.f_small,
                MUTED if available else ACCENT,
                "topleft",
                (inner.left, top + body_h),
                max_width=inner.w,
            )

        key = ("game", title, lo, hi, available, selected, lang, m)
        return self.part(key, size, paint)

    def _start_button(self, label: str, enabled: bool, size: Size, m: Metrics) -> pygame.Surface:
        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            radius = min(m.radius * 2, r.h // 2)
            if enabled:
                pygame.draw.rect(s, ACCENT, r, border_radius=radius)
                self.blit_text(
                    s,
                    label,
                    m.f_head,
                    ON_ACCENT,
                    "center",
                    r.center,
                    bold=True,
                    max_width=r.w - 2 * m.pad,
                )
            else:
                pygame.draw.rect(s, PANEL, r, border_radius=radius)
                pygame.draw.rect(s, PANEL_EDGE, r, width=max(2, m.gap // 8), border_radius=radius)
                self.blit_text(
                    s, label, m.f_body, MUTED, "center", r.center, max_width=r.w - 2 * m.pad
                )

        return self.part(("start", label, enabled, m), size, paint)


def _surface_bytes(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()


def _start_state(
    view: View,
    seats: Sequence[Mapping[str, Any]],
    games: Sequence[Mapping[str, Any]],
    lang: str,
) -> tuple[bool, str]:
    """Whether Start can be pressed, and the button's text (or why it cannot)."""
    selected = view.get("selected")
    game = next((g for g in games if g.get("id") == selected), None)
    if game is None:
        return False, tr(lang, "pick_game")
    title = str(game.get("title") or selected)
    if not game.get("available", False):
        return False, tr(lang, "game_not_ready", title=title)
    seated = len(seats)
    lo, hi = _int(game.get("min_players")), _int(game.get("max_players"), 10**6)
    if seated < lo:
        return False, tr(lang, "need_more", n=lo - seated)
    if seated > hi:
        return False, tr(lang, "too_many", max=hi)
    return True, f"{tr(lang, 'start')}: {title}"


def _draw_kick(surf: pygame.Surface, area: pygame.Rect, ink: Colour, fill: Colour) -> None:
    """The ✕ drawn as lines: no font has to carry the glyph."""
    r = max(6, round(area.h * 0.28))
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


# --- the generic "game in progress" frame -----------------------------------------------


def generic_playing_screen(r: KioskRenderer, f: Frame) -> None:
    """Title, timer, seats with scores and a small join code for late spectators, until
    the game brings its own kiosk screen."""
    m, view, s = f.metrics, f.view, f.surface
    match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
    assert isinstance(match, Mapping)
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)

    # Top right: a small code to join or watch, with the room code.
    url = str(view.get("join_url") or "")
    qr_side = round(min(area.h, area.w) * 0.2)
    if url:
        qr_box = pygame.Rect(area.right - qr_side, area.top, qr_side, qr_side)
        code = r.draw_qr(s, url, qr_box, radius=m.radius // 3)
        room = r.blit_text(
            s,
            str(view.get("room") or ""),
            m.f_head,
            ACCENT,
            "midtop",
            (code.centerx, code.bottom + m.gap // 2),
            bold=True,
            max_width=qr_side + m.pad,
        )
        cap = tr(f.lang, "join_or_watch")
        cap_size = r.fit_size(cap, m.f_small, qr_side + m.margin)
        r.blit_text(
            s,
            cap,
            cap_size,
            MUTED,
            "midtop",
            (code.centerx, room.bottom),
            False,
            qr_side + m.margin,
        )
        text_right = code.left - m.gap
    else:
        text_right = area.right

    title = str(match.get("title") or match.get("game") or "")
    t = r.blit_text(
        s,
        title,
        m.f_title,
        TEXT,
        "topleft",
        area.topleft,
        bold=True,
        max_width=text_right - area.left,
    )
    sub = r.blit_text(
        s,
        tr(f.lang, "in_progress"),
        m.f_body,
        MUTED,
        "topleft",
        (area.left, t.bottom),
        max_width=text_right - area.left,
    )
    y = sub.bottom + m.gap

    if f.remaining is not None and f.length is not None:
        deadline = match.get("deadline") if isinstance(match.get("deadline"), Mapping) else {}
        assert isinstance(deadline, Mapping)
        what = deadline.get("what")
        label = tr(
            f.lang, "deadline_hourglass" if what in (None, "hourglass") else "deadline_other"
        )
        timer = pygame.Rect(
            area.left,
            y,
            text_right - area.left,
            r.line(m.f_head, True) + m.gap + round(36 * m.scale) + 6,
        )
        r.draw_timer(s, timer, f.remaining, f.length, label, m)
        y = timer.bottom + m.gap

    y = max(
        y, (area.top + qr_side + m.gap + r.line(m.f_head, True) + r.line(m.f_small)) if url else y
    )
    y += m.gap

    seats = sorted(_dicts(view.get("seats")), key=lambda st: _int(st.get("seat")))
    scores = scores_of(match)
    cols = 1 if m.portrait and m.w < 700 else 2
    if len(seats) > 8:
        cols = max(cols, 3 if not m.portrait else 2)
    rows = max(1, math.ceil(len(seats) / cols))
    card_h = min(
        round(r.line(m.f_body, True) * 2.0),
        max(
            r.line(m.f_body, True) + 4,
            (area.bottom - y - 3 * r.line(m.f_head)) // rows - m.gap // 2,
        ),
    )
    col_w = (area.w - (cols - 1) * m.gap) // cols
    for i, seat in enumerate(seats):
        seat_no = _int(seat.get("seat"))
        score = scores.get(seat_no)
        card = pygame.Rect(
            area.left + (i % cols) * (col_w + m.gap),
            y + (i // cols) * (card_h + m.gap // 2),
            col_w,
            card_h,
        )
        trailing = None if score is None else _fmt_score(score)
        s.blit(r.seat_card(seat, card.size, m, f.lang, trailing=trailing), card)
    y += rows * (card_h + m.gap // 2)

    # The placeholder fills the rest, centred.
    rest = pygame.Rect(area.left, y, area.w, area.bottom - y)
    if rest.h > r.line(m.f_head):
        placeholder = tr(f.lang, "placeholder")
        msg = r.blit_text(
            s,
            placeholder,
            r.fit_size(placeholder, m.f_head, rest.w),
            MUTED,
            "center",
            (rest.centerx, rest.centery - r.line(m.f_small) // 2),
            max_width=rest.w,
        )
        r.blit_text(
            s,
            tr(f.lang, "placeholder_hint"),
            m.f_small,
            MUTED,
            "midtop",
            (rest.centerx, msg.bottom + m.gap // 2),
            max_width=rest.w,
        )
