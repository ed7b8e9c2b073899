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
from collections.abc import Callable, Mapping
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour, Fonts, clean_text
from appliance.kiosk.host_menu import draw_host_layer
from appliance.kiosk.intents import (
    CanvasSpec,
    FinishChoice,
    Intent,
    PressButton,
    SitDown,
)
from appliance.kiosk.kit import PerRenderer, draw_lines, fit_wrapped, wrap
from appliance.kiosk.lobby import draw_lobby, finish_result
from appliance.kiosk.painter import Painter
from appliance.kiosk.seat_pad import draw_seat_layer
from appliance.kiosk.text import tr
from appliance.kiosk.theme import (
    ACCENT,
    BG,
    BLACK,
    MUTED,
    ON_ACCENT,
    ONLINE,
    PANEL,
    PANEL_EDGE,
    TEXT,
    WARN,
    WHITE,
    Frame,
    Metrics,
    Size,
    View,
    _dicts,
    _fmt_score,
    _int,
    _num,
    blend,
    deadline_remaining,
    format_seconds,
    ink_on,
    parse_colour,
    scores_of,
    view_lang,
)

# What render.py offered before the kiosk was split into layers (theme, painter, kit,
# host menu, render): game screens and tests import these names from here.
__all__ = [
    "ACCENT",
    "BG",
    "BLACK",
    "GAME_SCREENS",
    "MUTED",
    "ONLINE",
    "ON_ACCENT",
    "PANEL",
    "PANEL_EDGE",
    "TEXT",
    "WARN",
    "WHITE",
    "CanvasSpec",
    "Colour",
    "Fonts",
    "Frame",
    "GameScreen",
    "Intent",
    "KioskRenderer",
    "Metrics",
    "Size",
    "View",
    "_dicts",
    "_fmt_score",
    "_int",
    "_num",
    "blend",
    "deadline_remaining",
    "finish_result",
    "finish_round",
    "finish_step",
    "format_seconds",
    "generic_playing_screen",
    "ink_on",
    "parse_colour",
    "scores_of",
    "view_lang",
]

log = logging.getLogger(__name__)


FINISH_STEP_S: Final = 8.0
"""How long a finish shows one round of its art show before the next (Frame.now)."""


def finish_step(view: View, now: float) -> int:
    """Which step of a finish's art show is on screen at `now`: one per FINISH_STEP_S,
    counted from the game's end (the match's `finished_at`, on the session's clock), so a
    table first sees its last round. Part of the frame key: one redraw per step."""
    match = view.get("match")
    at = _num(match.get("finished_at")) if isinstance(match, Mapping) else None
    return max(0, int((now - (at or 0.0)) // FINISH_STEP_S))


def finish_round(view: View, now: float, rounds: int) -> int:
    """The index of the round a finish's art show of `rounds` rounds shows at `now`: the
    last round (its reveal in full) first, then the whole game from its first round."""
    return (rounds - 1 + finish_step(view, now)) % rounds if rounds > 0 else -1


GameScreen = Callable[["KioskRenderer", Frame], None]

# game id -> the kiosk screen a game brings for its "playing" phase.
GAME_SCREENS: dict[str, GameScreen] = {}


# --- the renderer -----------------------------------------------------------------------


class KioskRenderer(Painter):
    """Draws views onto surfaces and remembers where the last frame's buttons are."""

    def __init__(self, fonts: Fonts | None = None, max_part_bytes: int = 24 * 2**20) -> None:
        super().__init__(fonts, max_part_bytes)
        self._game_on_screen = False  # a game's own screen drew since the last lobby
        self._last_key: tuple[object, ...] | None = None
        self._broken_screens: set[str] = set()
        # No physical panel: the table's three buttons are drawn on screen while a game runs.
        self.panel_buttons = False
        # The screen takes touches (a touch panel, a desktop's mouse). False on a TV: no
        # screen offers what needs a finger on it (Broad Lines' "Draw here on the table").
        self.touch = True
        # A finish's hint row in the frame drawn now (where a toast goes there), or None.
        self._toast_row: pygame.Rect | None = None

    # -- redraw decisions

    def frame_key(self, view: View, now: float, size: Size) -> tuple[object, ...]:
        """What the picture depends on: the view's version, the size, the timer's second."""
        timer = deadline_remaining(view, now) if view.get("phase") == "playing" else None
        second = None if timer is None else math.ceil(timer[0])
        notice = _shown_notice(view, now)
        # A finish shows its art show a round at a time: one redraw per step.
        step = finish_step(view, now) if view.get("phase") == "over" else None
        banner = _banner_shown(view, now)
        return (
            view.get("version"),
            tuple(size),
            second,
            None if notice is None else notice["at"],
            step,
            None if banner is None else math.ceil(banner[2]),
        )

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
        self.begin_frame(surface, metrics)
        self._toast_row = None
        surface.fill(BG)
        phase = view.get("phase")
        if phase in ("playing", "over"):
            timer = deadline_remaining(view, now) if phase == "playing" else None
            # A finish (phase "over"): the game's own last screen above, and below it the
            # gallery's QR code and the host's way on, until the host takes it. Without a
            # physical panel the table's buttons get a bar of their own along the bottom
            # while a game runs; the game draws above either, in frame coordinates all the
            # same (the game's surface starts at the frame's top-left corner).
            strip = self._finish_rect(metrics) if phase == "over" else None
            game_surface = surface
            if strip is not None:
                game_surface = surface.subsurface((0, 0, size[0], strip.top))
            elif self.panel_buttons and not _is_paused(view):
                bar_h = self._panel_bar_height(metrics)
                game_surface = surface.subsurface(
                    pygame.Rect(0, 0, size[0], max(1, size[1] - bar_h))
                )
            frame = Frame(
                surface=game_surface,
                view=view,
                lang=lang,
                now=now,
                remaining=None if timer is None else timer[0],
                length=None if timer is None else timer[1],
                metrics=(
                    metrics
                    if game_surface is surface
                    else Metrics.for_size(game_surface.get_size())
                ),
            )
            self._game_on_screen = True
            self._draw_playing(frame)
            if strip is not None:
                self._draw_finish(surface, view, lang, strip, metrics)
            elif _is_paused(view):
                self._draw_paused(surface, lang, metrics)
            elif self.panel_buttons:
                self._draw_panel_buttons(surface, view, lang, metrics)
            if phase == "playing" and not _is_paused(view):
                self._draw_handover(surface, view, lang, metrics, now)
        else:
            if self._game_on_screen:
                # The match is over: its screen's painted sheets (up to 32 MB at 1080p)
                # are named by the match and never drawn again, so they go now rather
                # than wait for the next game to replace them.
                self._game_on_screen = False
                PerRenderer.release(self)
            notices = self._notice_lines(view, metrics)
            shown = _shown_notice(view, now)
            if shown is not None:
                # No table buttons' bar in the lobby, and its foot is its Start: the toast
                # is a line of the notices' strip while it shows, the lobby above it.
                line = self._toast_line(shown, lang, metrics)
                notices += [line] if line is not None else []
            top = self._notices_top(notices, metrics)
            # The lobby keeps clear of the notices' strip (its room code, its Start).
            below = max(0, metrics.h - metrics.margin - (top - metrics.gap // 2))
            draw_lobby(self, surface, view, lang, metrics, below if notices else 0)
            self._draw_notices(surface, notices, metrics)
        notice = _shown_notice(view, now)
        if notice is not None and phase in ("playing", "over"):
            self._draw_notice(surface, notice, lang, metrics)
        draw_seat_layer(self, surface, view, metrics, lang)  # sitting down without a phone
        draw_host_layer(self, surface, view, metrics, lang)  # the host's corner, PIN, menu
        self._last_key = self.frame_key(view, now, size)
        self.shown()

    def _draw_playing(self, frame: Frame) -> None:
        match = frame.view.get("match")
        game = match.get("game") if isinstance(match, Mapping) else None
        screen = GAME_SCREENS.get(game) if isinstance(game, str) else None
        if screen is not None and isinstance(game, str) and game not in self._broken_screens:
            try:
                screen(self, frame)
                self._light_buttons(frame.view)
                return
            except Exception:
                # A game's screen bug must not blank the table: log it once, fall back.
                log.exception("kiosk screen of %r failed; using the generic one", game)
                self._broken_screens.add(game)
                self.clear_targets()
                frame.surface.fill(BG)
        generic_playing_screen(self, frame)

    def _light_buttons(self, view: View) -> None:
        """A game's own HOURGLASS, DIE and REVEAL are lit when the phase waits for them, as
        on the panel; one that is, the first focus unless the game named its own."""
        match = view.get("match")
        waiting = match.get("buttons") if isinstance(match, Mapping) else None
        waiting = waiting if isinstance(waiting, list) else []
        for _, intent in self.targets:
            if not isinstance(intent, PressButton):
                continue
            if intent.button not in waiting:
                self.unlit.append(intent)
            elif self.first_focus is None:
                self.first_focus = intent

    def _draw_notice(
        self, surface: pygame.Surface, notice: Mapping[str, Any], lang: str, m: Metrics
    ) -> None:
        """A toast over the bottom of the frame for a few seconds: the button the table
        pressed, or why a press or a tap did nothing (the session says it in the table's
        language)."""
        text, fill = _toast_text(notice, lang)
        if not text.strip():
            return
        width = min(m.w - 2 * m.margin, max(round(m.w * 0.6), 12 * m.f_body))
        bar_h = self._panel_bar_height(m)
        table_buttons = [rect for rect, i in self.targets if isinstance(i, PressButton)
                         and rect.bottom > m.h - bar_h]
        free = min((rect.left for rect in table_buttons), default=0) - m.gap - m.margin
        # In the table buttons' own bar, left of them, where it fits on one line there (in
        # a smaller type if need be): it hides no game's words ("Hourglass ✓" lay over the
        # rules' text above the bar). Else above the bar, or at the frame's foot.
        for body in (m.f_body, m.f_small):
            line_h = self.line(body, True)
            text_w = self.fonts.font(body, True).size(clean_text(text))[0]
            in_bar = (self.panel_buttons and bool(table_buttons)
                      and text_w + 2 * m.pad <= free and line_h + m.pad // 2 <= bar_h - 4)
            if in_bar:
                box = pygame.Rect(0, 0, text_w + 2 * m.pad, line_h + m.pad // 2)
                box.midleft = (m.margin, m.h - bar_h // 2 - m.gap // 4)
                size, lines = body, [text]
                break
        else:
            row = self._toast_row
            if row is not None:  # a finish: over its hint, in the strip's small type
                width = row.w
            size, lines = fit_wrapped(self, text, m.f_small if row else m.f_body,
                                      width - 2 * m.pad, 2 * self.line(m.f_body, True), True)
            line_h = self.line(size, True)
            text_w = max(self.fonts.font(size, True).size(line)[0] for line in lines)
            box = pygame.Rect(0, 0, min(width, text_w + 2 * m.pad), len(lines) * line_h + m.pad)
            if row is not None:  # as tall as the hint's line, or two
                box.h = len(lines) * line_h + m.pad // 4
                box.bottomleft = (row.left, row.bottom + m.pad // 4)
            else:
                bottom = m.h - m.margin
                if self.panel_buttons and table_buttons:
                    bottom = m.h - bar_h - m.gap // 2
                box.midbottom = (m.w // 2, bottom)
        pygame.draw.rect(surface, BG, box.inflate(6, 6), border_radius=m.radius)
        pygame.draw.rect(surface, fill, box, border_radius=m.radius)
        self.covers.append(box.inflate(6, 6).clip(surface.get_rect()))
        top = box.top + (box.h - len(lines) * self.line(size, True)) // 2
        draw_lines(self, surface, lines, size, ink_on(fill), (box.left + m.pad, top),
                   box.w - 2 * m.pad, True, "center")

    # -- a game's finish and a pause, over the game's own screen

    def _finish_rect(self, m: Metrics) -> pygame.Rect:
        # Tall enough for its two buttons stacked, each a finger high (the 7-inch panel),
        # and for the result, the gallery's heading, its help on two lines and the hint.
        texts = (self.line(m.f_head, True) + self.line(m.f_body, True)
                 + 3 * self.line(m.f_small) + m.pad + m.gap)
        h = max(round(m.h * (0.22 if m.portrait else 0.21)), 2 * m.target + 2 * m.gap, texts)
        return pygame.Rect(0, m.h - h, m.w, h)

    def _draw_finish(
        self, surface: pygame.Surface, view: View, lang: str, rect: pygame.Rect, m: Metrics
    ) -> None:
        """The strip under a finished game: the gallery's QR code, and "Play again" and
        "Back to the lobby" (intents, so the host's touch or the remote's focus takes them)."""
        match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
        assert isinstance(match, Mapping)
        url = match.get("gallery_url")
        url = url if isinstance(url, str) and url else None
        inner = rect.inflate(-2 * m.margin, -2 * (m.gap // 2))
        gap = m.gap // 2
        if m.portrait:  # the two buttons side by side under the code
            button_h = round(inner.h * 0.3)
            buttons = pygame.Rect(inner.left, inner.bottom - button_h, inner.w, button_h)
            left = pygame.Rect(inner.left, inner.top, inner.w, inner.h - button_h - gap)
        else:  # the two buttons stacked beside it
            button_w = round(min(inner.w * 0.3, 560 * m.scale))
            buttons = pygame.Rect(inner.right - button_w, inner.top, button_w, inner.h)
            left = pygame.Rect(inner.left, inner.top, buttons.left - m.gap - inner.left, inner.h)

        result = finish_result(view, lang)
        # The hint's row ("The host chooses…"), where a toast goes on the finish: the
        # strip's words above it and its buttons beside it stay in sight.
        text_x = (left.h - 2 * (m.pad // 2) + m.pad) if url is not None else m.pad
        self._toast_row = pygame.Rect(left.left + text_x, left.top, left.w - text_x - m.pad,
                                      left.h - m.pad // 2)

        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            pygame.draw.rect(s, PANEL, r, border_radius=m.radius)
            x = m.pad
            if url is not None:
                side = r.h - 2 * (m.pad // 2)
                self.draw_qr(s, url, pygame.Rect(m.pad // 2, m.pad // 2, side, side),
                             radius=m.radius // 2)
                x = side + m.pad
            width = r.w - x - m.pad
            # The result carries a count: smaller, then on two lines, never cut (a Czech
            # "… · ukončeno předčasně" did not fit the 7-inch panel's strip on one).
            font = self.fit_size(result, m.f_head, width, bold=True, min_size=m.f_small)
            if self.fonts.font(font, True).size(result)[0] > width:
                font, lines = fit_wrapped(self, result, m.f_body, width,
                                          2 * self.line(m.f_body, True), bold=True)
            else:
                lines = [result]
            y = draw_lines(self, s, lines, font, ACCENT, (x, m.pad // 2), width,
                           bold=True).bottom
            if url is not None:
                # What the code is for wraps above the hint (the strip is tall enough).
                y = self.blit_text(s, tr(lang, "gallery_title"), m.f_body, TEXT, "topleft",
                                   (x, y), True, width).bottom
                room = r.h - m.pad // 2 - self.line(m.f_small) - y
                help_text = tr(lang, "gallery_help")
                least = max(10, m.f_small // 2, self.min_text)  # fit_wrapped's floor
                if len(wrap(self, help_text, least, width)) * self.line(least) <= room:
                    size, lines = fit_wrapped(self, help_text, m.f_small, width, room)
                    draw_lines(self, s, lines, size, TEXT, (x, y), width)
                # else a result on two lines took its room: the title beside the code
                # says what it is for, rather than half a sentence.
            self.blit_text(s, tr(lang, "finish_hint"), m.f_small, MUTED, "bottomleft",
                           (x, r.h - m.pad // 2), False, width)

        key = ("finish", url, result, lang, left.size, m)
        surface.blit(self.part(key, left.size, paint, slot="finish"), left)
        for i, (label, again) in enumerate(
            ((tr(lang, "finish_again"), True), (tr(lang, "finish_lobby"), False))
        ):
            if m.portrait:
                half = (buttons.w - gap) // 2
                button = pygame.Rect(buttons.left + i * (half + gap), buttons.top, half, buttons.h)
            else:
                half = (buttons.h - gap) // 2
                button = pygame.Rect(buttons.left, buttons.top + i * (half + gap), buttons.w, half)
            surface.blit(self._finish_button(label, again, button.size, m), button)
            self.add_target(button, FinishChoice(again), first=again)

    def _finish_button(self, label: str, strong: bool, size: Size, m: Metrics) -> pygame.Surface:
        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            radius = min(m.radius * 2, r.h // 2)
            fill = ACCENT if strong else PANEL
            pygame.draw.rect(s, fill, r, border_radius=radius)
            if not strong:
                pygame.draw.rect(s, PANEL_EDGE, r, width=max(2, m.gap // 8), border_radius=radius)
            font = self.fit_size(label, m.f_head, r.w - 2 * m.pad, bold=True, min_size=m.f_small)
            self.blit_text(s, label, font, ON_ACCENT if strong else TEXT, "center", r.center,
                           bold=True, max_width=r.w - 2 * m.pad)

        return self.part(("finish-button", label, strong, size, m), size, paint)

    def _draw_handover(
        self, surface: pygame.Surface, view: View, lang: str, m: Metrics, now: float
    ) -> None:
        """A seat the host handed over waits for a newcomer (whose seat, the room code to
        join with and the time left), or a player is away (the time left before the game
        goes on without them), in a strip along the top edge, so the game's own bottom bar
        and the toasts stay clear."""
        shown = _banner_shown(view, now)
        if shown is None:
            return
        key, seat, left = shown
        match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
        assert isinstance(match, Mapping)
        name = next((str(s.get("name") or "") for s in _dicts(match.get("seats"))
                     if _int(s.get("seat"), -1) == seat), "") or tr(lang, "seat_n", n=seat + 1)
        text = tr(lang, key, name=name, room=str(view.get("room") or ""),
                  time=format_seconds(left))
        width = min(m.w - 2 * m.margin, max(round(m.w * 0.7), 12 * m.f_body))
        # Two lines where one would cut it: the time left ends the sentence.
        size, lines = fit_wrapped(self, text, m.f_body, width - 2 * m.pad,
                                  2 * self.line(m.f_body, True), True)
        text_w = max(self.fonts.font(size, True).size(line)[0] for line in lines)
        box = pygame.Rect(0, 0, min(width, text_w + 2 * m.pad),
                          len(lines) * self.line(size, True) + m.pad // 2)
        box.midtop = (m.w // 2, m.gap // 4)
        pygame.draw.rect(surface, BG, box.inflate(6, 6), border_radius=m.radius)
        pygame.draw.rect(surface, WARN, box, border_radius=m.radius)
        draw_lines(self, surface, lines, size, ink_on(WARN),
                   (box.left + m.pad, box.top + m.pad // 4), box.w - 2 * m.pad, True, "center")
        if key == "handover" and seat in [_int(x, -1) for x in view.get("open_seats_at_kiosk")
                                          or []]:
            # A seat made at the kiosk: its player sits down again here, without a phone.
            label = tr(lang, "sit_here")
            sit = self.text(label, m.f_body, ON_ACCENT, True)
            button = pygame.Rect(0, 0, max(sit.get_width() + 2 * m.pad, m.target),
                                 max(sit.get_height() + m.pad, m.target))
            button.midtop = (box.centerx, box.bottom + m.gap // 2)
            pygame.draw.rect(surface, ACCENT, button, border_radius=m.radius)
            surface.blit(sit, sit.get_rect(center=button.center))
            self.add_target(button, SitDown())

    def _draw_paused(self, surface: pygame.Surface, lang: str, m: Metrics) -> None:
        """The host paused the game: the frame dimmed (its hourglass stands where it
        stopped) under a banner; no drawing area nor button of the game takes a touch."""
        self.clear_targets()
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((*BG, 185))
        surface.blit(veil, (0, 0))
        title_h = self.line(m.f_title, True)
        w = round(min(m.w - 2 * m.margin, 1200 * m.scale))
        # Wrapped rather than cut: the key that resumes is the point.
        help_size, help_lines = fit_wrapped(self, tr(lang, "paused_help"), m.f_body,
                                            w - 2 * m.pad, 3 * self.line(m.f_body))
        h = title_h + len(help_lines) * self.line(help_size) + 3 * m.pad
        box = pygame.Rect(0, 0, w, h)
        # Low on the screen: the stopped timer and hourglass stay readable above it.
        box.midbottom = (m.w // 2, m.h - m.margin)

        def paint(s: pygame.Surface) -> None:
            r = s.get_rect()
            pygame.draw.rect(s, PANEL, r, border_radius=m.radius)
            pygame.draw.rect(s, ACCENT, r, width=max(3, round(5 * m.scale)),
                             border_radius=m.radius)
            # Two bars: drawn, so no font needs a pause glyph.
            bar_h = round(title_h * 0.8)
            bar_w = max(4, bar_h // 4)
            label = self.text(tr(lang, "paused"), m.f_title, ACCENT, True, r.w - 6 * bar_w)
            left = (r.w - (3 * bar_w + m.gap + label.get_width())) // 2
            top = m.pad + (title_h - bar_h) // 2
            for dx in (0, 2 * bar_w):
                pygame.draw.rect(s, ACCENT, (left + dx, top, bar_w, bar_h),
                                 border_radius=bar_w // 3)
            s.blit(label, (left + 3 * bar_w + m.gap, m.pad))
            draw_lines(self, s, help_lines, help_size, TEXT,
                       (m.pad, m.pad + title_h + m.pad // 2), r.w - 2 * m.pad, False, "center")

        surface.blit(self.part(("paused", lang, box.size, m), box.size, paint, slot="paused"),
                     box)

    @staticmethod
    def _panel_bar_height(m: Metrics) -> int:
        return m.target + m.gap // 2

    def _draw_panel_buttons(
        self, surface: pygame.Surface, view: View, lang: str, m: Metrics
    ) -> None:
        """HOURGLASS, DIE and REVEAL as buttons in a bar along the bottom, below the
        game's screen; the ones that do something now are lit, as on the panel."""
        match = view.get("match")
        waiting = match.get("buttons") if isinstance(match, Mapping) else None
        waiting = waiting if isinstance(waiting, list) else []
        bar = pygame.Rect(0, m.h - self._panel_bar_height(m), m.w, self._panel_bar_height(m))
        self.add_panel(bar, "table buttons")
        h = m.target
        top = bar.bottom - h - m.gap // 4
        right = m.w - m.gap // 2
        for name in ("reveal", "die", "hourglass"):
            lit = name in waiting
            fill = ACCENT if lit else PANEL_EDGE
            label = tr(lang, f"button_{name}")
            text_w = self.fonts.font(m.f_small, True).size(label)[0]
            w = max(h, text_w + 2 * m.pad)
            rect = pygame.Rect(right - w, top, w, h)
            pygame.draw.rect(surface, fill, rect, border_radius=h // 2)
            self.blit_text(
                surface, label, m.f_small, ink_on(fill), "center", rect.center, True, w - m.pad
            )
            # The first focus only if the game's screen named none: its own button says more.
            self.add_target(rect, PressButton(name), first=lit and self.first_focus is None,
                            lit=lit)
            right = rect.left - m.gap // 2

    def _notice_lines(self, view: View, m: Metrics) -> list[tuple[pygame.Surface, Colour]]:
        """What is wrong with the box but did not stop it (the appliance's notices, e.g.
        a panel pin that cannot be used, a memory card that cannot be written): at most
        three, one line each, on their warning colour."""
        notices = [str(n) for n in view.get("notices") or () if n][:3]
        return [(self.text(text, m.f_small, TEXT, max_width=m.w - 2 * m.margin - 2 * m.pad),
                 WARN) for text in notices]

    def _toast_line(self, notice: Mapping[str, Any], lang: str,
                    m: Metrics) -> tuple[pygame.Surface, Colour] | None:
        """The toast's words as one line of the lobby's notices' strip."""
        text, fill = _toast_text(notice, lang)
        if not text.strip():
            return None
        return self.text(text, m.f_small, ink_on(fill), True,
                         max_width=m.w - 2 * m.margin - 2 * m.pad), fill

    def _notices_top(self, lines: list[tuple[pygame.Surface, Colour]], m: Metrics) -> int:
        """Where the notices' strip along the bottom edge begins."""
        bottom = m.h - m.gap // 2
        for surf, _ in lines:
            bottom -= surf.get_height() + m.pad + m.gap // 4
        return bottom + (m.gap // 4 if lines else 0)

    def _draw_notices(self, surface: pygame.Surface, lines: list[tuple[pygame.Surface, Colour]],
                      m: Metrics) -> None:
        """The notices, one line each along the lobby's bottom edge, below the lobby."""
        bottom = m.h - m.gap // 2
        for surf, fill in reversed(lines):
            rect = surf.get_rect(midbottom=(m.w // 2, bottom - m.pad // 2))
            back = rect.inflate(2 * m.pad, m.pad)
            pygame.draw.rect(surface, fill, back, border_radius=m.radius)
            surface.blit(surf, rect)
            self.add_panel(back, "notice")
            bottom = back.top - m.gap // 4

    # -- hit testing

def _toast_text(notice: Mapping[str, Any], lang: str) -> tuple[str, Colour]:
    """A notice's words and colour: the button the table pressed, or why a press or a tap
    did nothing (the session says it in the table's language)."""
    if notice.get("kind") == "refused":
        return str(notice.get("text") or ""), WARN
    return f"{tr(lang, 'button_' + str(notice.get('key')))} ✓", ONLINE


def _shown_notice(view: View, now: float) -> Mapping[str, Any] | None:
    """The view's notice while it is to be shown at `now` (the session's clock)."""
    notice = view.get("notice")
    if not isinstance(notice, Mapping):
        return None
    at, until = _num(notice.get("at")), _num(notice.get("until"))
    if at is None or until is None or not at - 1.0 <= now < until:
        return None
    return notice


def _soonest(view: View, key: str, now: float) -> tuple[int, float] | None:
    """The seat of the view's `key` (`handovers`, `away`; soonest first) and the seconds
    left of its count (frozen while paused), or None."""
    if view.get("phase") != "playing":
        return None
    for entry in _dicts(view.get(key)):
        seat = _int(entry.get("seat"), -1)
        at, remaining = _num(entry.get("at")), _num(entry.get("remaining"))
        if seat < 0 or remaining is None:
            continue
        return seat, max(0.0, remaining if at is None else at - now)
    return None


def _banner_shown(view: View, now: float) -> tuple[str, int, float] | None:
    """The top strip's sentence, seat and seconds left: a seat handed over first (a
    newcomer is wanted), else the first player away (`away`), or None."""
    handover = _soonest(view, "handovers", now)
    if handover is not None:
        return "handover", *handover
    away = _soonest(view, "away", now)
    if away is None:
        return None
    seat, left = away
    gone_on = any(_int(e.get("seat"), -1) == seat and e.get("gone_on")
                  for e in _dicts(view.get("away")))
    return ("away_gone_on" if gone_on else "away_count" if left > 0 else "away"), seat, left


def _is_paused(view: View) -> bool:
    match = view.get("match")
    return isinstance(match, Mapping) and match.get("paused") is True


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
