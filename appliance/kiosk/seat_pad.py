"""The kiosk's seat pad: sitting at the table without a phone, with the TV's remote.

`view["seat_pad"]` (added by appliance/door/kiosk_seat.py) makes each free seat of the lobby a
target (SitDown) and, once chosen, covers the frame with an on-screen keyboard for the
name, the free colours, "Sit down" and "Cancel", and what the selected game lets such a
player do from the TV and what needs a phone (`from_the_tv`, per language, from the game's
house). Every key is a hit target, so the remote's focus ring reaches it
(appliance/kiosk/focus.py) and a finger can tap it; while the pad is up nothing under it
can be tapped. Plain view data only, like the rest of the kiosk.

`view["pass_device"]` covers a running game while a player without a phone sees what
only they may see: first "Critic, look away — Mia, press OK to see your word" (the game
dimmed under it), then the word alone on an opaque screen until OK hides it. Its one
button is the only target, so OK is all it takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import pygame

from appliance.kiosk.intents import SeatPadKey
from appliance.kiosk.kit import draw_lines, fit_wrapped, wrap
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
    ink_on,
    parse_colour,
)

LETTERS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
COLUMNS: Final = 7

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "title": "Sit at the table", "name": "Your name", "space": "Space", "back": "⌫",
        "sit": "Sit down", "cancel": "Cancel", "full": "The table is full.",
        "no_colour": "Every colour is taken.",
        "no_game": "Choose a game: the pad says what you can play from the TV.",
        "look_away": "{critic}, look away!",
        "look_away_all": "Art Critic, look away!",
        "press_ok": "{name}, press OK to see your word.",
        "show_word": "Show {name}'s word",
        "your_word": "{name}, your word is",
        "hide_hint": "Remember it, then press OK to hide it.",
        "hide_word": "Hide the word",
    },
    "cs": {
        "title": "Sednout si ke stolu", "name": "Tvoje jméno", "space": "Mezera", "back": "⌫",
        "sit": "Sednout si", "cancel": "Zrušit", "full": "U stolu už není místo.",
        "no_colour": "Všechny barvy jsou obsazené.",
        "no_game": "Vyber hru: tady uvidíš, co jde hrát z televize.",
        "look_away": "{critic}, nedívej se!",
        "look_away_all": "Kritiku, nedívej se!",
        "press_ok": "{name}, stiskni OK a uvidíš své slovo.",
        "show_word": "Ukázat slovo ({name})",
        "your_word": "{name}, tvoje slovo je",
        "hide_hint": "Zapamatuj si ho a stiskni OK, slovo zmizí.",
        "hide_word": "Skrýt slovo",
    },
}


def word(lang: str, key: str) -> str:
    return WORDS.get(lang, WORDS["en"]).get(key) or WORDS["en"].get(key, "")


def seat_pad_open(view: Mapping[str, Any]) -> bool:
    pad = view.get("seat_pad")
    return isinstance(pad, Mapping) and pad.get("state") == "open"


def draw_seat_layer(r: Painter, surface: pygame.Surface, view: Mapping[str, Any],
                    m: Metrics, lang: str) -> None:
    """The seat pad over the frame, if it is open (the free seats' targets are the
    lobby's own, see render.py), or the device passed to a player without a phone."""
    passing = view.get("pass_device")
    if isinstance(passing, Mapping):
        _draw_pass_device(r, surface, passing, m, lang)
        return
    pad = view.get("seat_pad")
    if not isinstance(pad, Mapping) or pad.get("state") != "open":
        return
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 190))
    surface.blit(shade, (0, 0))
    r.clear_targets()
    _draw_pad(r, surface, pad, m, lang)


def _key(r: Painter, surface: pygame.Surface, rect: pygame.Rect, label: str,
         intent: SeatPadKey, m: Metrics, fill: tuple[int, int, int] = PANEL_EDGE,
         ink: tuple[int, int, int] = TEXT) -> None:
    pygame.draw.rect(surface, fill, rect, border_radius=max(4, m.radius // 2))
    # A word on a letter's key ("Space", "Mezera") is set small rather than cut.
    size = r.fit_size(label, m.f_body, rect.w - m.pad // 2, bold=True,
                      min_size=m.f_min)
    r.blit_text(surface, label, size, ink, "center", rect.center, True, rect.w - m.pad // 3)
    r.add_target(rect, intent)


def _draw_pad(r: Painter, surface: pygame.Surface, pad: Mapping[str, Any], m: Metrics,
              lang: str) -> None:
    key = max(m.target, round(min(m.w, m.h) * 0.075))  # the painter never takes less
    gap = max(3, m.gap // 3)
    rows = -(-(len(LETTERS) + 2) // COLUMNS)  # the letters, then a Space two keys wide
    grid_w = COLUMNS * key + (COLUMNS - 1) * gap
    title_h = r.line(m.f_head, True)
    field_h = key  # the name, and ⌫ at its end
    keyboard_h = title_h + field_h + gap + rows * (key + gap)
    rest_h = key + gap + r.line(m.f_small) + key + gap
    said = pad.get("from_the_tv")
    told = (said.get(lang) or said.get("en")) if isinstance(said, Mapping) else None
    note = told if isinstance(told, str) and told else word(lang, "no_game")
    note_h = len(wrap(r, note, m.f_small, grid_w)) * r.line(m.f_small)
    # One column where it fits; on a low wide screen (the 7-inch panel) the colours, Sit
    # down and the game's note go beside the keyboard, so the note keeps readable type.
    beside = (keyboard_h + rest_h + note_h + m.pad > m.h - m.margin
              and 2 * grid_w + 3 * m.pad <= m.w - 2 * m.margin)
    if beside:
        panel = pygame.Rect(0, 0, m.w - 2 * m.margin,
                            min(max(keyboard_h, title_h + rest_h + note_h) + m.pad,
                                m.h - m.margin))
    else:
        panel = pygame.Rect(0, 0, min(grid_w + 2 * m.pad, m.w - 2 * m.margin),
                            min(keyboard_h + rest_h + note_h + m.pad, m.h - m.margin))
    panel.center = (m.w // 2, m.h // 2)
    pygame.draw.rect(surface, PANEL, panel, border_radius=m.radius)
    x0, y = panel.left + m.pad, panel.top + m.pad // 2
    r.blit_text(surface, word(lang, "title"), m.f_head, TEXT, "midtop", (panel.centerx, y),
                True, panel.w - m.pad)
    y += title_h
    top = y

    # The name so far, in the chosen colour, with a caret; ⌫ at its end.
    colour = parse_colour(pad.get("colour"), MUTED)
    field = pygame.Rect(x0, y, grid_w - key - gap, field_h)
    pygame.draw.rect(surface, colour, field, border_radius=max(4, m.radius // 2))
    name = str(pad.get("name") or "")
    shown = name + "_" if name else word(lang, "name")
    r.blit_text(surface, shown, m.f_body, ink_on(colour), "midleft",
                (field.left + m.pad // 2, field.centery), True, field.w - m.pad)
    _key(r, surface, pygame.Rect(field.right + gap, y, key, key), word(lang, "back"),
         SeatPadKey("back"), m)
    y = field.bottom + gap

    cells = [(c, SeatPadKey("letter", c), 1) for c in LETTERS]
    cells.append((word(lang, "space"), SeatPadKey("space"), 2))  # a word: two keys wide
    cell = 0
    for label, intent, span in cells:
        col, row = cell % COLUMNS, cell // COLUMNS
        rect = pygame.Rect(x0 + col * (key + gap), y + row * (key + gap),
                           span * key + (span - 1) * gap, key)
        _key(r, surface, rect, label, intent, m)
        cell += span
    y += rows * (key + gap)
    width = grid_w
    if beside:  # the second column
        x0 += grid_w + m.pad
        width = panel.right - m.pad - x0
        y = top

    # The free colours as swatches; the chosen one ringed.
    colours = [c for c in pad.get("colours") or [] if isinstance(c, str)][:8]
    if colours:
        side = min(key, (width - (len(colours) - 1) * gap) // len(colours))
        for i, c in enumerate(colours):
            rect = pygame.Rect(x0 + i * (side + gap), y, side, key)
            fill = parse_colour(c)
            pygame.draw.rect(surface, fill, rect, border_radius=max(4, m.radius // 2))
            if c == pad.get("colour"):
                pygame.draw.rect(surface, TEXT, rect, max(3, gap),
                                 border_radius=max(4, m.radius // 2))
            r.add_target(rect, SeatPadKey("colour", c))
    else:
        r.blit_text(surface, word(lang, "no_colour"), m.f_small, WARN, "midleft",
                    (x0, y + key // 2), True, width)
    y += key + gap

    message = pad.get("message")
    if isinstance(message, str) and message:
        r.blit_text(surface, message, m.f_small, WARN, "midtop", (x0 + width // 2, y), True,
                    width)
    y += r.line(m.f_small)

    half = (width - gap) // 2
    can_sit = bool(name.strip()) and bool(colours)
    sit = pygame.Rect(x0, y, half, key)
    if can_sit:
        _key(r, surface, sit, word(lang, "sit"), SeatPadKey("sit"), m, ACCENT, ON_ACCENT)
    else:
        pygame.draw.rect(surface, PANEL, sit, border_radius=max(4, m.radius // 2))
        pygame.draw.rect(surface, PANEL_EDGE, sit, 2, border_radius=max(4, m.radius // 2))
        r.blit_text(surface, word(lang, "sit"), m.f_body, MUTED, "center", sit.center, True,
                    half)
    _key(r, surface, pygame.Rect(x0 + half + gap, y, half, key), word(lang, "cancel"),
         SeatPadKey("cancel"), m)
    # Where the remote starts: Sit down once a name and a colour are there, else the
    # first letter (a keyboard types the name anyway).
    r.first_focus = SeatPadKey("sit") if can_sit else SeatPadKey("letter", LETTERS[0])
    y += key + gap

    # What the chosen game lets a player without a phone do, and what needs one: in the
    # game's own words (its house's, put in the pad by appliance/door/kiosk_seat.py),
    # wrapped, shrunk to no less than the screen's smallest type, else cut with "…".
    size, lines = fit_wrapped(r, note, m.f_small, width, panel.bottom - m.pad // 2 - y)
    draw_lines(r, surface, lines, size, MUTED, (x0, y), width)


def _draw_pass_device(r: Painter, surface: pygame.Surface, passing: Mapping[str, Any],
                      m: Metrics, lang: str) -> None:
    """Ask the player to look (the Critic looks away), or show them their word."""
    r.clear_targets()
    name = str(passing.get("name") or "")
    seat = passing.get("seat")
    shown = passing.get("stage") == "show"
    if shown:  # the word alone: nothing of the game around it to glance at
        surface.fill(PANEL)
    else:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 235))
        surface.blit(shade, (0, 0))
    width = m.w - 2 * m.margin
    key = max(m.target, round(min(m.w, m.h) * 0.1))
    if shown:
        text = str(passing.get("word") or "?")
        lines = [(word(lang, "your_word").format(name=name), m.f_head, MUTED, False),
                 (text, max(m.f_title, round(m.h * 0.16)), ACCENT, True),
                 (word(lang, "hide_hint"), m.f_body, TEXT, False)]
        label, intent = word(lang, "hide_word"), SeatPadKey("hide_word")
    else:
        critic = str(passing.get("critic") or "")
        look = (word(lang, "look_away").format(critic=critic) if critic
                else word(lang, "look_away_all"))
        lines = [(look, max(m.f_title, round(m.h * 0.1)), WARN, True),
                 (word(lang, "press_ok").format(name=name), m.f_head, TEXT, True)]
        label = word(lang, "show_word").format(name=name)
        intent = SeatPadKey("show_word", str(seat))
    sizes = [r.fit_size(t, size, width, bold=bold, min_size=m.f_small)
             for t, size, _, bold in lines]
    gap = m.gap
    total = sum(r.line(size, bold) for size, (_, _, _, bold) in zip(sizes, lines, strict=True))
    total += gap * len(lines) + key
    y = max(m.margin, (m.h - total) // 2)
    for size, (t, _, colour, bold) in zip(sizes, lines, strict=True):
        y = r.blit_text(surface, t, size, colour, "midtop", (m.w // 2, y), bold,
                        width).bottom + gap
    button_w = min(width, max(key * 4, r.fonts.font(m.f_body, True).size(label)[0] + 2 * m.pad))
    button = pygame.Rect(0, y, button_w, key)
    button.centerx = m.w // 2
    _key(r, surface, button, label, intent, m, ACCENT, ON_ACCENT)
