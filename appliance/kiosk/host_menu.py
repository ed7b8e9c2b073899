"""The kiosk's host layer and the idle lobby's history, drawn from plain view data.

`view["host_menu"]` (added by appliance/door/kiosk_host.py when a host PIN is set) makes the
top-left corner a long-press target (HostCorner, HOST_HOLD_S) and, once held, covers the
frame with a PIN pad (digits shown as dots only) or the small host menu: pause or resume,
end the game, kick or free a seat, restart the box, and a row for the box's sound (−, the
volume with a mute, +; `menu["sound"]`). While it is up, nothing under it can be tapped
or drawn on.

Kick, free a seat, end the game and restart the box each ask "Are you sure?" first, in
a sentence saying what happens, with two buttons. The remote's focus starts on a new
screen's biggest button, the top-left of equals (appliance/kiosk/focus.py, `first`), so
the layout names it: the menu's first button is Close (Restart box is its last, away
from it), a confirmation's safe choice sits left of the one that acts, and the PIN
pad's OK is its tallest key, above Cancel.

`view["history"]` (appliance/table/lobby_history.py) is one step of the lobby's cycle: today's
results (worded by text.result_line, as the finish words them), or one of today's best
drawings; the lobby draws it in a strip under the seats.
Like the rest of the kiosk this module reads plain data only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pygame

from appliance.kiosk.intents import HostChoice, HostCorner, PinKey
from appliance.kiosk.kit import wrap
from appliance.kiosk.painter import Painter
from appliance.kiosk.text import result_line
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
        "close": "Close", "today": "Today's results", "best": "Best drawings of the day",
        "by": "{word} · {name}", "ended_early": "ended early",
        "again": "Play again", "lobby": "Back to the lobby",
        "confirm_kick": "Remove {name} from the table?", "kick_yes": "Remove",
        "kick_note": "{name}'s phone is told so, and the seat is free for someone else.",
        "kick_note_playing": "{name} leaves the game and stays out of it until you let "
        "them back; a newcomer may take the seat.",
        "confirm_offer": "Free {name}'s seat?", "offer_yes": "Free the seat",
        "offer_note": "{name} leaves the game; a newcomer can take the seat with its score.",
        "confirm_end": "End {title} now?", "confirm_end_untitled": "End the game now?",
        "end_yes": "End the game",
        "end_note": "The game stops for everyone, on every screen.",
        "confirm_restart": "Restart the box?", "restart_yes": "Restart",
        "restart_note": "The screen and the phones go blank for a moment; a game in play "
        "goes on where it was.",
        "keep_playing": "No, keep playing",
        "softer": "−", "louder": "+", "sound_on": "Sound {volume} % · Mute",
        "sound_off": "Sound off · Unmute", "sound_on_short": "{volume} % · Mute",
        "sound_off_short": "Off · Unmute",
    },
    "cs": {
        "pin_title": "PIN hostitele", "cancel": "Zrušit", "ok": "OK", "back": "⌫",
        "menu_title": "Menu hostitele", "pause": "Pozastavit", "resume": "Pokračovat",
        "end": "Ukončit hru", "kick": "Odebrat: {name}", "offer": "Uvolnit místo: {name}",
        "restart": "Restartovat", "close": "Zavřít", "today": "Dnešní výsledky",
        "best": "Nejlepší obrázky dne", "by": "{word} · {name}", "ended_early": "ukončena",
        "again": "Hrát znovu", "lobby": "Zpět do předsíně",
        "confirm_kick": "Odebrat hráče {name} od stolu?", "kick_yes": "Odebrat",
        "kick_note": "Telefon hráče {name} se to dozví a místo se uvolní pro někoho dalšího.",
        "kick_note_playing": "{name} opouští hru a nevrátí se do ní, dokud to nepovolíte; "
        "místo může převzít nováček.",
        "confirm_offer": "Uvolnit místo hráče {name}?", "offer_yes": "Uvolnit místo",
        "offer_note": "{name} opouští hru; místo i s body může převzít nováček.",
        "confirm_end": "Ukončit hru {title}?", "confirm_end_untitled": "Ukončit hru?",
        "end_yes": "Ukončit hru",
        "end_note": "Hra skončí pro všechny, na všech obrazovkách.",
        "confirm_restart": "Restartovat krabici?", "restart_yes": "Restartovat",
        "restart_note": "Obrazovka i telefony na chvíli zhasnou; rozehraná hra bude "
        "pokračovat, kde byla.",
        "keep_playing": "Ne, hrajeme dál",
        "softer": "−", "louder": "+", "sound_on": "Zvuk {volume} % · Ztlumit",
        "sound_off": "Zvuk vypnutý · Zapnout", "sound_on_short": "{volume} % · Ztlumit",
        "sound_off_short": "Vypnuto · Zapnout",
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
    r.clear_targets()
    if state == "pin":
        _draw_pin_pad(r, surface, menu, m, lang)
    elif state == "confirm":
        _draw_confirm(r, surface, menu, m, lang)
    else:
        _draw_menu(r, surface, menu, m, lang)


def _draw_confirm(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
                  m: Metrics, lang: str) -> None:
    """ "Free Mia's seat?", what happens in a sentence, and two buttons: the safe one
    (left: the remote's focus starts there) and the one that acts."""
    ask = menu.get("ask")
    ask = ask if ask in ("kick", "offer", "end", "restart") else "kick"
    playing = bool(menu.get("playing"))
    name = str(menu.get("name") or "")[:20]
    title = str(menu.get("title") or "")[:40]
    question_key = "confirm_end_untitled" if ask == "end" and not title else f"confirm_{ask}"
    question = word(lang, question_key, name=name, title=title)
    note_key = "kick_note_playing" if ask == "kick" and playing else f"{ask}_note"
    note = word(lang, note_key, name=name, title=title)
    button_h = max(m.target, round(m.h * 0.09))
    button_w = round(min(m.w * 0.36, 420 * m.scale))
    # Room for the remote's ring (about 1/108 of the screen's height, twice over with its
    # edge) around the focused button, so it covers neither the sentence nor the other.
    gap = max(m.gap, 3 * round(min(m.w, m.h) / 108))
    inner_w = min(2 * button_w + gap, m.w - 2 * m.margin - 2 * m.pad)
    button_w = (inner_w - gap) // 2
    heads = wrap(r, question, m.f_head, inner_w, True)[:3]
    notes = wrap(r, note, m.f_body, inner_w)[:4]
    title_h = len(heads) * r.line(m.f_head, True)
    note_h = len(notes) * r.line(m.f_body)
    panel = _panel(surface, m, inner_w + 2 * m.pad,
                   title_h + note_h + button_h + 2 * m.pad + 2 * gap)
    y = panel.top + m.pad
    for line in heads:
        r.blit_text(surface, line, m.f_head, TEXT, "midtop", (panel.centerx, y), True, inner_w)
        y += r.line(m.f_head, True)
    y += gap // 2
    for line in notes:
        r.blit_text(surface, line, m.f_body, MUTED, "midtop", (panel.centerx, y), False,
                    inner_w)
        y += r.line(m.f_body)
    y = max(y + gap, panel.bottom - m.pad - button_h)
    safe = pygame.Rect(panel.left + m.pad, y, button_w, button_h)
    act = pygame.Rect(safe.right + gap, y, button_w, button_h)
    keep = word(lang, "keep_playing" if playing else "cancel")
    _button(r, surface, safe, keep, HostChoice("no"), m, strong=True, first=True)
    _button(r, surface, act, word(lang, f"{ask}_yes"), HostChoice("yes"), m, danger=True)


def _button(r: Painter, surface: pygame.Surface, rect: pygame.Rect, label: str,
            intent: Any, m: Metrics, strong: bool = False, danger: bool = False,
            first: bool = False) -> None:
    fill = ACCENT if strong else WARN if danger else PANEL_EDGE
    ink = ON_ACCENT if strong else TEXT
    pygame.draw.rect(surface, fill, rect, border_radius=m.radius)
    size = r.fit_size(label, m.f_body, rect.w - m.pad, bold=True)
    r.blit_text(surface, label, size, ink, "center", rect.center, True, rect.w - m.pad // 2)
    r.add_target(rect, intent, first=first)


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
    key = max(m.target, round(min(m.w, m.h) * 0.11))
    gap = m.gap // 2
    title_h = r.line(m.f_head, True)
    # As wide as its message: "Wrong PIN · tries left: 2" is cut nowhere (the count is
    # the point); the keys stay centred under it.
    message = menu.get("message") if isinstance(menu.get("message"), str) else ""
    said = r.fonts.font(m.f_small, True).size(str(message))[0] + 2 * m.pad
    w = max(3 * key + 2 * gap + 2 * m.pad, said)
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
    # OK stands two keys tall at the right, like a keypad's Enter, over Cancel's two keys
    # wide: the same area, and OK's top is higher, so the remote's focus starts on OK
    # (focus.py, `first`): the digits typed on the remote, then OK.
    rows = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["back", "0"]]
    x0 = panel.centerx - (3 * key + 2 * gap) // 2
    for row in rows:
        for i, k in enumerate(row):
            rect = pygame.Rect(x0 + i * (key + gap), y, key, key)
            label = word(lang, k) if k == "back" else k
            _button(r, surface, rect, label, PinKey(k), m)
        y += key + gap
    y -= key + gap
    _button(r, surface, pygame.Rect(x0 + 2 * (key + gap), y, key, 2 * key + gap),
            word(lang, "ok"), PinKey("ok"), m, strong=True, first=True)
    _button(r, surface, pygame.Rect(x0, y + key + gap, 2 * key + gap, key),
            word(lang, "cancel"), PinKey("cancel"), m)


def _draw_menu(r: Painter, surface: pygame.Surface, menu: Mapping[str, Any],
               m: Metrics, lang: str) -> None:
    # Close first (the remote's first focus: one OK after the PIN does nothing drastic),
    # then what can be undone, the seats, and what ends something last, Restart box the
    # very last, away from Close. Each drastic one asks "Are you sure?" (kiosk_host.py).
    items: list[tuple[str, HostChoice, bool, bool]] = [
        (word(lang, "close"), HostChoice("close"), False, False)]
    if menu.get("playing"):
        if menu.get("paused"):
            items.append((word(lang, "resume"), HostChoice("resume"), True, False))
        else:
            items.append((word(lang, "pause"), HostChoice("pause"), True, False))
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
    if menu.get("playing"):
        items.append((word(lang, "end"), HostChoice("end"), False, True))
    items.append((word(lang, "restart"), HostChoice("restart"), False, True))
    cols = 2 if len(items) > 6 else 1
    rows = (len(items) + cols - 1) // cols
    sound = menu.get("sound") if isinstance(menu.get("sound"), Mapping) else None
    rows_drawn = rows + (1 if sound is not None else 0)  # the sound row, the last
    # A finger high at least: a long menu takes a second column (below) before that.
    button_h = max(m.target, min(round(m.h * 0.08), (m.h - 4 * m.margin) // (rows_drawn + 2)))
    wide = (0.36, 560) if cols == 2 else (0.5, 640)
    button_w = round(min(m.w * wide[0], wide[1] * m.scale))
    gap = m.gap // 2
    title_h = r.line(m.f_head, True) + r.line(m.f_small)
    panel = _panel(surface, m, cols * button_w + (cols - 1) * gap + 2 * m.pad,
                   title_h + rows_drawn * (button_h + gap) + 2 * m.pad)
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
        _button(r, surface, rect, label, intent, m, strong, danger, first=i == 0)
    if sound is not None:
        _sound_row(r, surface, sound, pygame.Rect(
            panel.left + m.pad, y + rows * (button_h + gap), cols * button_w + (cols - 1) * gap,
            button_h), gap, m, lang)


def _sound_row(r: Painter, surface: pygame.Surface, sound: Mapping[str, Any],
               row: pygame.Rect, gap: int, m: Metrics, lang: str) -> None:
    """− / "Sound 70 % · Mute" / +: the one level the host page turns too."""
    volume = sound.get("volume") if isinstance(sound.get("volume"), int) else 0
    muted = bool(sound.get("muted"))
    side = min(row.h, row.w // 4)
    minus = pygame.Rect(row.left, row.top, side, row.h)
    plus = pygame.Rect(row.right - side, row.top, side, row.h)
    middle = pygame.Rect(minus.right + gap, row.top, plus.left - gap - minus.right - gap, row.h)
    _button(r, surface, minus, word(lang, "softer"), HostChoice("volume_down"), m)
    key = "sound_off" if muted else "sound_on"
    label = word(lang, key, volume=volume)
    # The volume is the point: a narrow menu (the 7-inch panel) says it shorter, never cut.
    if r.fonts.font(max(r.min_text, m.f_small), True).size(label)[0] > middle.w - m.pad:
        label = word(lang, f"{key}_short", volume=volume)
    _button(r, surface, middle, label, HostChoice("mute"), m)
    _button(r, surface, plus, word(lang, "louder"), HostChoice("volume_up"), m)


# -- the idle lobby's history ------------------------------------------------------------


def history_line(result: Mapping[str, Any], lang: str) -> str:
    """'20:14  Duplik · Winner: Ada', '20:40  Broad Lines · Together: 7 words guessed':
    one of today's games (appliance/table/lobby_history.py), its result worded as the
    finish words it."""
    winners = result.get("winners") if isinstance(result.get("winners"), list) else []
    assert isinstance(winners, list)
    guessed = result.get("guessed")
    said = result_line(lang, together=result.get("together") is True,
                       guessed=guessed if isinstance(guessed, int) else 0,
                       winners=[str(w) for w in winners],
                       ended_early=result.get("ended_early") is True)
    return f"{result.get('when', '')}  {result.get('title', '')} · {said}"


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
            results = history.get("results") if isinstance(history.get("results"), list) else []
            assert isinstance(results, list)
            for result in results:
                if y + r.line(m.f_small) > inner.bottom:
                    break
                if isinstance(result, Mapping):
                    r.blit_text(s, history_line(result, lang), m.f_small, TEXT, "topleft",
                                (inner.left, y), False, inner.w)
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
