"""Doodle Dash's kiosk screen: the round, the word everyone draws, who is done.

It lives with the game (tests/house_game/), not in appliance/kiosk/: its house names this
module (`House.kiosk_screen`) and the box imports it when it starts, which registers it in
the kiosk's GAME_SCREENS like any game's screen. Its sentences come with it (`add_texts`).
"""

from __future__ import annotations

from typing import Final

import pygame

from appliance.kiosk.kit import as_int, localised, players_of, seat_list, state_of
from appliance.kiosk.render import GAME_SCREENS, KioskRenderer
from appliance.kiosk.text import add_texts, tr
from appliance.kiosk.theme import ACCENT, MUTED, TEXT, Frame

GAME_ID: Final = "doodle-dash"

STRINGS: Final[dict[str, dict[str, str | dict[str, str]]]] = {
    "en": {
        "doodle-dash.round": "Round {round} of {rounds}",
        "doodle-dash.draw": "Everyone draws: {word}",
        "doodle-dash.done": "done",
        "doodle-dash.drawing": "drawing…",
    },
    "cs": {
        "doodle-dash.round": "Kolo {round} z {rounds}",
        "doodle-dash.draw": "Všichni kreslí: {word}",
        "doodle-dash.done": "hotovo",
        "doodle-dash.drawing": "kreslí…",
    },
}
add_texts(STRINGS)


def doodle_dash_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one Doodle Dash frame (GAME_SCREENS["doodle-dash"])."""
    m, s, st = f.metrics, f.surface, state_of(f)
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    title = r.blit_text(
        s, tr(f.lang, "doodle-dash.round", round=as_int(st.get("round"), 1),
              rounds=as_int(st.get("rounds"), 1)),
        m.f_title, TEXT, "topleft", area.topleft, bold=True, max_width=area.w,
    )
    word = r.blit_text(
        s, tr(f.lang, "doodle-dash.draw", word=localised(st.get("word"), f.lang)),
        m.f_head, ACCENT, "topleft", (area.left, title.bottom + m.gap), bold=True,
        max_width=area.w,
    )
    done = set(seat_list(st.get("done")))
    y = word.bottom + 2 * m.gap
    for seat, player in sorted(players_of(f.view, match_seats_only=True).items()):
        state = tr(f.lang, "doodle-dash.done" if seat in done else "doodle-dash.drawing")
        line = r.blit_text(s, f"{player.name} · {state}", m.f_body,
                           TEXT if seat in done else MUTED, "topleft", (area.left, y),
                           max_width=area.w)
        y = line.bottom + m.gap // 2


GAME_SCREENS[GAME_ID] = doodle_dash_screen
