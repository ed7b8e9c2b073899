"""The kiosk's host layer and the idle lobby's history, drawn from plain view data.

`view["host_menu"]` (added by appliance/door/kiosk_host.py when a host PIN is set) makes the
top-left corner a long-press target (HostCorner, HOST_HOLD_S) and, once held, covers the
frame with a PIN pad (digits shown as dots only) or the small host menu: pause or resume,
end the game, kick or free a seat, restart the box. While it is up, nothing under it can
be tapped or drawn on.

`view["history"]` (appliance/table/lobby_history.py) is one step of the lobby's cycle: today's
winners, or one of today's best drawings; the lobby draws it in a strip under the seats.
Like the rest of the kiosk this module reads plain data only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pygame

from appliance.kiosk.intents import HostChoice, HostCorner, PinKey
from appliance.kiosk.painter import Painter
from appliance.kiosk.theme import (
    ACCENT,
    MUTED,
    ON_ACCENT,
    PANEL,
    PANEL_EDGE,
    TEXT,
    WARN,
    Metrics,
    parse_colour,
)

WORDS: Final = {
    "en": {
        "pin_title": "Host PIN", "cancel": "Cancel", "ok": "OK", "back": "⌫",
        "menu_title": "Host menu", "pause": "Pause", "resume": "Resume", "end": "End game",
        "kick": "Kick {name}", "offer": "Free {name}'s seat", "restart": "Restart box",
        "close": "Close", "today": "Today's winners", "best": "Best drawings of the day",
        "by": "{word} · {name}", "ended_early": "ended early",
        "again": "Play again", "lobby": "Back to the lobby",
        "confirm_kick": "Remove {name} from the table?", "kick_yes": "Remove",
        "kick_note": "Their seat is offered to the next phone that joins.",
    },
    "cs": {
        "pin_title": "PIN hostitele", "cancel": "Zrušit", "ok": "OK", "back": "⌫",
        "menu_title": "Menu hostitele", "pause": "Pozastavit", "resume": "Pokračovat",
        "end": "Ukončit hru", "kick": "Odebrat: {name}", "offer": "Uvolnit místo: {name}",
        "restart": "Restartovat", "close": "Zavřít", "today": "Dnešní vítězové",
        "best": "Nejlepší obrázky dne", "by": "{word} · {name}", "ended_early": "ukončena",
        "again": "Hrát znovu", "lobby": "Zpět do předsíně",
        "confirm_kick": "Odebrat hráče {name} od stolu?", "kick_yes": "Odebrat",
        "kick_note": "Jeho místo dostane další telefon, který se připojí.",
    },
}


def word(lang: str, key: str, **fields: object) -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"][key]).format(**fields)


def corner_rect(m: Metrics) -> pygame.Rect:
    side = max(48, round(min(m.w, m.h) * 0.12))
    return pygame.Rect(0, 0, side, side)


def draw_host_layer(r: Painter, surface: pygame.Surface, view: Mapping[str, Any],
                    m: Metrics, lang: str) -> None:
    menu = view.get("host_menu")
    if not isinstance(menu, Mapping):
        return
    state = menu.get("state")
    if state not in ("pin", "menu", "confirm"):
        # Under everything else: a game's button in the corner still wins a tap.
        r.targets.insert(0, (corner_rect(m), HostCorner()))
        return
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 190))
    surface.blit(shade, (0, 0))
    r.targets = []
    r.canvases = []
    if state == "pin":
        _draw_pin_pad(r, surface, menu, m, lang)
    elif state == "confirm":
        _draw_confirm(r, surface, menu, m, lang)
    else:
        _draw_menu(r, surface, menu, m, lang)


def _draw_confirm(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
                  m: Metrics, lang: str) -> None:
    """ "Remove Bo from the table?" with Remove and Cancel: a ✕ never kicks in one tap."""
    name = str(menu.get("name") or "")[:20]
    button_h = max(40, round(m.h * 0.09))
    button_w = round(min(m.w * 0.3, 360 * m.scale))
    gap = m.gap
    title_h = 2 * r.line(m.f_head, True)
    note_h = 2 * r.line(m.f_small) if menu.get("playing") else 0
    panel = _panel(surface, m, 2 * button_w + gap + 2 * m.pad,
                   title_h + note_h + button_h + 2 * m.pad + gap)
    y = panel.top + m.pad
    r.blit_text(surface, word(lang, "confirm_kick", name=name), m.f_head, TEXT, "midtop",
                (panel.centerx, y), True, panel.w - 2 * m.pad)
    y += title_h
    if note_h:
        r.blit_text(surface, word(lang, "kick_note"), m.f_small, MUTED, "midtop",
                    (panel.centerx, y), False, panel.w - 2 * m.pad)
        y += note_h
    y += gap // 2
    left = pygame.Rect(panel.left + m.pad, y, button_w, button_h)
    right = pygame.Rect(left.right + gap, y, button_w, button_h)
    _button(r, surface, left, word(lang, "kick_yes"), HostChoice("kick_yes"), m, danger=True)
    _button(r, surface, right, word(lang, "cancel"), HostChoice("kick_no"), m, strong=True)


def _button(r: Painter, surface: pygame.Surface, rect: pygame.Rect, label: str,
            intent: Any, m: Metrics, strong: bool = False, danger: bool = False) -> None:
    fill = ACCENT if strong else WARN if danger else PANEL_EDGE
    ink = ON_ACCENT if strong else TEXT
    pygame.draw.rect(surface, fill, rect, border_radius=m.radius)
    size = r.fit_size(label, m.f_body, rect.w - m.pad, bold=True)
    r.blit_text(surface, label, size, ink, "center", rect.center, True, rect.w - m.pad // 2)
    r.add_target(rect, intent)


def _panel(surface: pygame.Surface, m: Metrics, w: int, h: int) -> pygame.Rect:
    rect = pygame.Rect(0, 0, min(w, m.w - 2 * m.margin), min(h, m.h - 2 * m.margin))
    rect.center = (m.w // 2, m.h // 2)
    pygame.draw.rect(surface, PANEL, rect, border_radius=m.radius)
    return rect


def _message(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
             pos: tuple[int, int], width: int, m: Metrics) -> None:
    text = menu.get("message")
    if isinstance(text, str) and text:
        r.blit_text(surface, text, m.f_small, WARN, "midtop", pos, True, width)


def _draw_pin_pad(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
                  m: Metrics, lang: str) -> None:
    key = max(40, round(min(m.w, m.h) * 0.11))
    gap = m.gap // 2
    title_h = r.line(m.f_head, True)
    w = 3 * key + 2 * gap + 2 * m.pad
    h = title_h + r.line(m.f_body) + r.line(m.f_small) + 5 * key + 5 * gap + 2 * m.pad
    panel = _panel(surface, m, w, h)
    y = panel.top + m.pad
    r.blit_text(surface, word(lang, "pin_title"), m.f_head, TEXT, "midtop", (panel.centerx, y),
                True, panel.w - m.pad)
    y += title_h
    digits = menu.get("digits")
    count = digits if isinstance(digits, int) else 0
    r.blit_text(surface, "●" * count or "·", m.f_body, ACCENT, "midtop", (panel.centerx, y),
                True, panel.w - m.pad)
    y += r.line(m.f_body)
    _message(r, surface, menu, (panel.centerx, y), panel.w - m.pad, m)
    y += r.line(m.f_small)
    rows = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["back", "0", "ok"]]
    x0 = panel.left + m.pad
    for row in rows:
        for i, k in enumerate(row):
            rect = pygame.Rect(x0 + i * (key + gap), y, key, key)
            label = word(lang, k) if k in ("back", "ok") else k
            _button(r, surface, rect, label, PinKey(k), m, strong=k == "ok")
        y += key + gap
    _button(r, surface, pygame.Rect(x0, y, 3 * key + 2 * gap, key), word(lang, "cancel"),
            PinKey("cancel"), m)


def _draw_menu(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
               m: Metrics, lang: str) -> None:
    items: list[tuple[str, HostChoice, bool, bool]] = []
    if menu.get("playing"):
        if menu.get("paused"):
            items.append((word(lang, "resume"), HostChoice("resume"), True, False))
        else:
            items.append((word(lang, "pause"), HostChoice("pause"), True, False))
        items.append((word(lang, "end"), HostChoice("end"), False, True))
    if menu.get("over"):  # a game's finish is on the screen
        items.append((word(lang, "again"), HostChoice("again"), True, False))
        items.append((word(lang, "lobby"), HostChoice("lobby"), False, False))
    seats = menu.get("seats") if isinstance(menu.get("seats"), list) else []
    assert isinstance(seats, list)
    for seat in seats[:8]:
        if not isinstance(seat, Mapping) or not isinstance(seat.get("seat"), int):
            continue
        name = str(seat.get("name", ""))[:20]
        kick = HostChoice("kick", seat["seat"])
        items.append((word(lang, "kick", name=name), kick, False, False))
        if menu.get("playing"):
            items.append(
                (word(lang, "offer", name=name), HostChoice("offer", seat["seat"]), False, False)
            )
    items.append((word(lang, "restart"), HostChoice("restart"), False, True))
    items.append((word(lang, "close"), HostChoice("close"), False, False))
    cols = 2 if len(items) > 6 else 1
    rows = (len(items) + cols - 1) // cols
    button_h = max(36, min(round(m.h * 0.08), (m.h - 4 * m.margin) // (rows + 2)))
    wide = (0.36, 560) if cols == 2 else (0.5, 640)
    button_w = round(min(m.w * wide[0], wide[1] * m.scale))
    gap = m.gap // 2
    title_h = r.line(m.f_head, True) + r.line(m.f_small)
    panel = _panel(surface, m, cols * button_w + (cols - 1) * gap + 2 * m.pad,
                   title_h + rows * (button_h + gap) + 2 * m.pad)
    y = panel.top + m.pad
    r.blit_text(surface, word(lang, "menu_title"), m.f_head, TEXT, "midtop",
                (panel.centerx, y), True, panel.w - m.pad)
    y += r.line(m.f_head, True)
    _message(r, surface, menu, (panel.centerx, y), panel.w - m.pad, m)
    y += r.line(m.f_small)
    for i, (label, intent, strong, danger) in enumerate(items):
        col, row = i % cols, i // cols
        rect = pygame.Rect(panel.left + m.pad + col * (button_w + gap),
                           y + row * (button_h + gap), button_w, button_h)
        _button(r, surface, rect, label, intent, m, strong, danger)


# -- the idle lobby's history ------------------------------------------------------------


def draw_history(r: Painter, surface: pygame.Surface, history: Mapping[str, Any],
                 rect: pygame.Rect, m: Metrics, lang: str) -> None:
    """One step of the lobby's cycle into `rect`: a list of winners, or one drawing."""
    # `sig` names the step's content (appliance/table/lobby_history.py): painted once per step.
    key = ("history", str(history.get("sig")), rect.size, lang, m)

    def paint(s: pygame.Surface) -> None:
        from appliance.kiosk.strokes import render_sheet

        area = s.get_rect()
        pygame.draw.rect(s, PANEL, area, border_radius=m.radius)
        inner = area.inflate(-2 * m.pad, -2 * m.pad)
        kind = history.get("kind")
        heading = word(lang, "today" if kind == "winners" else "best")
        head = r.blit_text(s, heading, m.f_body, ACCENT, "topleft", inner.topleft, True, inner.w)
        y = head.bottom + m.gap // 2
        if kind == "winners":
            lines = history.get("lines") if isinstance(history.get("lines"), list) else []
            assert isinstance(lines, list)
            for line in lines:
                if y + r.line(m.f_small) > inner.bottom:
                    break
                r.blit_text(s, str(line), m.f_small, TEXT, "topleft", (inner.left, y), False,
                            inner.w)
                y += r.line(m.f_small)
            return
        strokes = history.get("strokes") if isinstance(history.get("strokes"), list) else []
        sheet_h = inner.bottom - y
        sheet_w = min(inner.w // 2, sheet_h * 16 // 10)
        if sheet_w > 8 and sheet_h > 5:
            sheet = render_sheet(strokes, (sheet_w, sheet_w * 10 // 16))
            s.blit(sheet, (inner.left, y))
            pygame.draw.rect(s, parse_colour(history.get("colour")), sheet.get_rect(
                topleft=(inner.left, y)), max(2, m.gap // 6), border_radius=4)
        x = inner.left + sheet_w + m.gap
        label = word(lang, "by", word=str(history.get("word") or "?"),
                     name=str(history.get("artist") or ""))
        r.blit_text(s, label, m.f_body, TEXT, "topleft", (x, y), True, inner.right - x)
        r.blit_text(s, str(history.get("title") or ""), m.f_small, MUTED, "topleft",
                    (x, y + r.line(m.f_body)), False, inner.right - x)

    # One step on screen at a time: the step it replaces is painted again in its turn
    # (once per `history_step_s`) rather than kept, ~1.4 MB a step at 1080p.
    surface.blit(r.part(key, rect.size, paint, slot="history"), rect)
