"""The lobby as a screen: the join panel (QR codes, address, room code, the café's
Wi-Fi), the last game's result and gallery code or a step of the day's history, the
seats with their kick ✕, the games and Start.

Like a game's screen, it draws with a Painter and records its buttons as hit targets;
render.KioskRenderer shows it whenever no match is being played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

import pygame

from appliance.kiosk.host_menu import draw_history
from appliance.kiosk.intents import KickSeat, SelectGame, SitDown, StartGame
from appliance.kiosk.kit import wrap
from appliance.kiosk.painter import Painter
from appliance.kiosk.qr import wifi_from_view
from appliance.kiosk.text import result_line, tr
from appliance.kiosk.theme import (
    ACCENT,
    MUTED,
    ON_ACCENT,
    PANEL,
    PANEL_EDGE,
    TEXT,
    Metrics,
    Size,
    View,
    _dicts,
    _int,
)

ENDED_EARLY: Final = "ended_early"
"""The outcome summary of a game the host ended early (games.core.ENDED_EARLY; the kiosk
reads views, not games)."""


def plays_together(view: View, game: object) -> bool:
    """Whether the table plays `game` together: its result is the table's, not a list of
    winners (the game's house says so; appliance/door/kiosk_games.py marks the view's games)."""
    return any(g.get("id") == game and g.get("together") is True
               for g in _dicts(view.get("games")))


def finish_result(view: View, lang: str) -> str:
    """A finished match's result in a line: the words the table guessed together in a
    cooperative game, else who won; "ended early" when the host ended it."""
    match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
    assert isinstance(match, Mapping)
    outcome = match.get("outcome") if isinstance(match.get("outcome"), Mapping) else {}
    assert isinstance(outcome, Mapping)
    scores = [pair[1] for pair in outcome.get("scores") or []
              if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], int | float)]
    names_by_seat = {
        _int(s.get("seat"), -1): str(s.get("name", ""))
        for s in (*_dicts(view.get("seats")), *_dicts(match.get("seats")))
    }
    winners = outcome.get("winners") if isinstance(outcome.get("winners"), list) else []
    assert isinstance(winners, list)
    names = [names_by_seat.get(_int(w, -1)) or tr(lang, "seat_n", n=_int(w, -1) + 1)
             for w in winners]
    return result_line(lang, together=plays_together(view, match.get("game")),
                       guessed=int(max(scores, default=0)), winners=names,
                       ended_early=outcome.get("summary") == ENDED_EARLY)


def rating_of(view: View, lang: str) -> str:
    """The rules' own words for a game played together's result (Broad Lines' rating,
    `match.state.rating`), or "" where the view does not carry one."""
    match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
    assert isinstance(match, Mapping)
    state = match.get("state") if isinstance(match.get("state"), Mapping) else {}
    assert isinstance(state, Mapping)
    rating = state.get("rating")
    if not isinstance(rating, Mapping):
        return ""
    said = rating.get(lang, rating.get("en"))
    return said if isinstance(said, str) else ""


def draw_lobby(
    painter: Painter, surface: pygame.Surface, view: View, lang: str, m: Metrics,
    below: int = 0,
) -> None:
    """The lobby above the bottom `below` pixels (kept for the box's notices, so that
    they never cover the room code or the Start button)."""
    wifi = view.get("wifi") if isinstance(view.get("wifi"), Mapping) else None
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin - below)
    n_codes = 2 if wifi else 1
    if m.portrait:
        join_h = round(area.h * 0.54)
        join = pygame.Rect(area.left, area.top, area.w, join_h)
        rest = pygame.Rect(
            area.left, join.bottom + m.gap, area.w, area.bottom - join.bottom - m.gap
        )
    else:
        qr_side = _join_qr_height(painter, area.h, m, wifi is not None)
        join_w = n_codes * qr_side + (n_codes - 1) * m.gap + 2 * m.pad
        join_w = min(join_w, round(area.w * (0.5 if wifi else 0.4)))
        join = pygame.Rect(area.left, area.top, join_w, area.h)
        rest = pygame.Rect(join.right + m.gap, area.top, area.right - join.right - m.gap, area.h)
    _draw_join_panel(painter, surface, view, wifi, lang, join, m)

    if view.get("phase") == "finished":
        banner = _draw_result_banner(painter, surface, view, lang, rest, m)
        rest = pygame.Rect(
            rest.left, banner.bottom + m.gap, rest.w, rest.bottom - banner.bottom - m.gap
        )
    # One slot under the result: the gallery's QR code, or a step of the idle lobby's
    # history (appliance/table/lobby_history.py), whose cycle includes the code again.
    history = view.get("history")
    if isinstance(history, Mapping) and history.get("kind") in ("winners", "drawing"):
        slot = _slot(painter, rest, m, _least_seats_and_games(painter, view, m, rest.w))
        if slot is not None:
            draw_history(painter, surface, history, slot, m, lang)
            rest = pygame.Rect(
                rest.left, slot.bottom + m.gap, rest.w, rest.bottom - slot.bottom - m.gap
            )
    elif view.get("phase") == "finished":
        rest = _draw_gallery_code(painter, surface, view, lang, rest, m)
    _draw_seats_and_games(painter, surface, view, lang, rest, m)


def _slot(
    painter: Painter, rest: pygame.Rect, m: Metrics, below: int = 0
) -> pygame.Rect | None:
    """The strip under the result banner for the gallery code or the history, leaving
    `below` pixels for what comes under it."""
    side = min(round(rest.h * 0.3), round(240 * m.scale), rest.h - below - m.gap - 2 * m.pad)
    if side < 60:
        return None
    return pygame.Rect(rest.left, rest.top, rest.w, side + 2 * m.pad)


def _draw_gallery_code(
    painter: Painter, surface: pygame.Surface, view: View, lang: str, rest: pygame.Rect, m: Metrics
) -> pygame.Rect:
    """The art show to take home: a QR code of the finished game's gallery; returns
    what is left of `rest` below it."""
    match = view.get("match") if isinstance(view.get("match"), Mapping) else {}
    assert isinstance(match, Mapping)
    url = match.get("gallery_url")
    if not isinstance(url, str) or not url:
        return rest
    rect = _slot(painter, rest, m, _least_seats_and_games(painter, view, m, rest.w))
    if rect is None:
        return rest
    side = rect.h - 2 * m.pad

    def paint(s: pygame.Surface) -> None:
        r = s.get_rect()
        pygame.draw.rect(s, PANEL, r, border_radius=m.radius)
        painter.draw_qr(s, url, pygame.Rect(m.pad, m.pad, side, side), radius=m.radius // 2)
        x = 2 * m.pad + side
        head = painter.blit_text(
            s,
            tr(lang, "gallery_title"),
            m.f_head,
            ACCENT,
            "topleft",
            (x, m.pad),
            True,
            r.w - x - m.pad,
        )
        painter.blit_text(
            s,
            tr(lang, "gallery_help"),
            m.f_small,
            TEXT,
            "topleft",
            (x, head.bottom + m.gap // 2),
            False,
            r.w - x - m.pad,
        )

    key = ("gallery", url, lang, rect.size, m)
    surface.blit(painter.part(key, rect.size, paint, slot="gallery"), rect)
    below = rect.bottom + m.gap
    return pygame.Rect(rest.left, below, rest.w, rest.bottom - below)


def _join_text_height(painter: Painter, m: Metrics, wifi: bool) -> int:
    h = painter.line(m.f_head, True) + m.gap  # heading
    if wifi:
        h += painter.line(m.f_small, True) + m.gap // 2  # step captions
        h += 2 * painter.line(m.f_small)  # network and password
    h += m.gap + painter.line(m.f_small) + painter.line(m.f_body)  # "or open" + address
    h += m.gap + painter.line(m.f_small) + painter.line(m.f_code, True)  # room code
    return h + 2 * m.pad


def _join_qr_height(painter: Painter, height: int, m: Metrics, wifi: bool) -> int:
    return max(21, height - _join_text_height(painter, m, wifi))


def _draw_join_panel(
    painter: Painter,
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
    panel = painter.part(
        key, rect.size, lambda s: _paint_join_panel(painter, s, url, room, wifi, wifi_data, lang, m)
    )
    surface.blit(panel, rect)
    painter.add_panel(rect, "join panel")  # the room code: nothing may cover it


def _paint_join_panel(
    painter: Painter,
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
    head = painter.blit_text(
        surf, heading, m.f_head, TEXT, "midtop", inner.midtop, bold=True, max_width=inner.w
    )
    y = head.bottom + m.gap

    codes = [(wifi_data, tr(lang, "step_wifi")), (url, tr(lang, "step_join"))]
    if wifi_data is None:
        codes = codes[1:]
    n = len(codes)
    column_w = inner.w // n
    qr_h = _join_qr_height(painter, rect.h, m, wifi is not None)
    side = max(21, min(qr_h, (inner.w - (n - 1) * m.gap) // n))
    total_w = n * side + (n - 1) * m.gap
    x0 = cx - total_w // 2
    centres = [x0 + i * (side + m.gap) + side // 2 for i in range(n)]
    if wifi_data is not None:
        for centre, (_, caption) in zip(centres, codes, strict=True):
            painter.blit_text(
                surf, caption, m.f_small, ACCENT, "midtop", (centre, y), True, column_w
            )
        y += painter.line(m.f_small, True) + m.gap // 2
    for centre, (data, _) in zip(centres, codes, strict=True):
        if data:
            box = pygame.Rect(centre - side // 2, y, side, side)
            painter.draw_qr(surf, data, box, radius=m.radius // 2)
    y += side

    if wifi is not None:
        password = wifi.get("password")
        line1 = tr(lang, "wifi_network", ssid=str(wifi.get("ssid", "")))
        line2 = tr(lang, "wifi_password", password=password) if password else tr(lang, "wifi_open")
        # One size for both lines; a password is better smaller than cut.
        size = min(
            painter.fit_size(line1, m.f_small, column_w),
            painter.fit_size(line2, m.f_small, column_w),
        )
        col_x = max(inner.left + column_w // 2, centres[0])
        y += m.gap // 2
        for text in (line1, line2):
            painter.blit_text(surf, text, size, TEXT, "midtop", (col_x, y), max_width=column_w)
            y += painter.line(m.f_small)

    # Address and room code sit at the bottom; the QR block floats above them.
    code_rect = painter.blit_text(
        surf, room, m.f_code, ACCENT, "midbottom", inner.midbottom, True, inner.w
    )
    label = tr(lang, "room_code")
    label_rect = painter.blit_text(
        surf, label, m.f_small, MUTED, "midbottom", (cx, code_rect.top), max_width=inner.w
    )
    url_size = painter.fit_size(url, m.f_body, inner.w, bold=True, min_size=m.f_small * 3 // 4)
    shown = url
    if painter.fonts.font(url_size, True).size(url)[0] > inner.w:
        # Too long to read whole on a small screen: the address without "http://" and the
        # room (shown just below) still opens the page, and is what a person types.
        shown = _short_address(url)
        url_size = painter.fit_size(shown, m.f_body, inner.w, bold=True)
    url_rect = painter.blit_text(
        surf, shown, url_size, TEXT, "midbottom", (cx, label_rect.top - m.gap), True, inner.w
    )
    or_open = tr(lang, "or_open")
    painter.blit_text(
        surf, or_open, m.f_small, MUTED, "midbottom", (cx, url_rect.top), max_width=inner.w
    )


def _short_address(url: str) -> str:
    """'http://192.168.1.20:8080/?room=KQ4T' as '192.168.1.20:8080'."""
    bare = url.split("://", 1)[-1]
    return bare.split("/", 1)[0].split("?", 1)[0] or url


def _draw_result_banner(
    painter: Painter, surface: pygame.Surface, view: View, lang: str, rest: pygame.Rect, m: Metrics
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
    title = str(match.get("title") or match.get("game") or "")
    line1 = finish_result(view, lang)
    scores = [
        (names_by_seat.get(_int(pair[0], -1)) or "?", pair[1])
        for pair in (outcome.get("scores") or [])
        if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], int | float)
    ]
    scores.sort(key=lambda item: -item[1])
    together = plays_together(view, match.get("game"))
    over = tr(lang, "match_over", title=title) if title else ""
    # Played together, every seat has the same score: the rules' rating says more.
    line2 = (rating_of(view, lang) or over) if together else (
        "  ·  ".join(f"{name} {points:g}" for name, points in scores) if scores else over)
    # The result carries a count and the rating the rules' verdict: both are said whole,
    # smaller or on more lines, never cut (Czech at 800x480 cut both).
    width = rest.w - 2 * m.pad
    head_size = painter.fit_size(line1, m.f_head, width, bold=True, min_size=m.f_body)
    heads = wrap(painter, line1, head_size, width, bold=True)
    if together:
        smalls = wrap(painter, line2, m.f_small, width) if line2 else []
    else:
        smalls = [_scores_that_fit(painter, line2, scores, lang, m.f_small, width)
                  if scores else line2] if line2 else []
    def height() -> int:
        return (2 * m.pad + len(heads) * painter.line(head_size, True)
                + len(smalls) * painter.line(m.f_small))

    small_size = m.f_small
    if len(smalls) > 1 and (rest.h - height() - m.gap
                            < _least_seats_and_games(painter, view, m, rest.w)):
        # No room for the rating's lines above the seats and Start (the 7-inch panel, a
        # tall portrait lobby): on one line at the smallest type if it fits so, else the
        # game's title, as any finish says it.
        small_size = painter.fit_size(line2, m.f_small, width, min_size=m.f_min)
        fits = painter.fonts.font(small_size).size(line2)[0] <= width
        smalls = [line2] if fits else [over] if over else []
        small_size = small_size if fits else m.f_small
    h = (2 * m.pad + len(heads) * painter.line(head_size, True)
         + len(smalls) * painter.line(small_size))
    rect = pygame.Rect(rest.left, rest.top, rest.w, h)
    key = ("banner", line1, line2, lang, m)

    def paint(s: pygame.Surface) -> None:
        r = s.get_rect()
        pygame.draw.rect(s, ACCENT, r, border_radius=m.radius)
        inner = r.inflate(-2 * m.pad, -2 * m.pad)
        y = inner.top
        for text in heads:
            y = painter.blit_text(s, text, head_size, ON_ACCENT, "topleft", (inner.left, y),
                                  bold=True, max_width=inner.w).bottom
        for text in smalls:
            y = painter.blit_text(s, text, small_size, ON_ACCENT, "topleft", (inner.left, y),
                                  max_width=inner.w).bottom

    surface.blit(painter.part(key, rect.size, paint, slot="banner"), rect)
    return rect


def _scores_that_fit(painter: Painter, line: str, scores: list[tuple[str, float]],
                     lang: str, size: int, width: int) -> str:
    """`line` (every "name score"), or as many of them whole as fit with "and 2 more": a
    score is never cut in half (a full table's names did not fit the 7-inch panel)."""
    font = painter.fonts.font(max(painter.min_text, round(size * 0.8)))
    if font.size(line)[0] <= width:
        return line
    for shown in range(len(scores) - 1, 0, -1):
        said = "  ·  ".join(f"{name} {points:g}" for name, points in scores[:shown])
        said += "  ·  " + tr(lang, "more_players", n=len(scores) - shown)
        if font.size(said)[0] <= width:
            return said
    return line


def _draw_seats_and_games(
    painter: Painter, surface: pygame.Surface, view: View, lang: str, rect: pygame.Rect, m: Metrics
) -> None:
    seats = sorted(_dicts(view.get("seats")), key=lambda s: _int(s.get("seat")))
    max_players = max(_int(view.get("max_players"), len(seats)), len(seats))
    games = _dicts(view.get("games"))
    selected = view.get("selected")
    cols = _columns(rect.w, m)
    game_rows = math.ceil(max(1, len(games)) / cols)

    head_h = painter.line(m.f_head, True)
    body_h = painter.line(m.f_body, True)
    small_h = painter.line(m.f_small)
    # Free seats are shown while there is room for them at a finger's height; on a small
    # screen after a game (result, gallery code) only the taken ones and one free seat
    # are, and the header's "4 / 8" tells the rest.
    # Still short of room (a full table): the seats in one more column, then no heading
    # over the games (their tiles say what they are).
    wider = cols + 1 if (rect.w - cols * m.gap) // (cols + 1) >= 150 * max(1.0, m.scale) else cols
    plans = [(n, cols, 2) for n in (max_players, min(max_players, len(seats) + 1), len(seats))]
    plans += [(len(seats), wider, 2), (len(seats), wider, 1)]
    for shown, seat_cols, heads in plans:
        slot_rows = math.ceil(max(1, shown) / seat_cols)
        if _least_height(painter, m, slot_rows, game_rows, heads) <= rect.h:
            break
    card_min, tile_min, button_min = _least_sizes(painter, m)
    card_ideal = round(body_h * 2.1)
    tile_ideal = body_h + small_h + 2 * m.pad
    button_ideal = round(head_h * 1.7)
    fixed = _fixed_height(painter, m, slot_rows, game_rows, heads)
    flex = slot_rows * card_ideal + game_rows * tile_ideal + button_ideal
    # Cards may grow a little to use a tall column, or shrink to fit a short one.
    k = min(1.3, max(0.3, (rect.h - fixed) / max(1, flex)))
    while True:
        card_h = max(card_min, round(card_ideal * k))
        tile_h = max(tile_min, round(tile_ideal * k))
        button_h = max(button_min, round(button_ideal * k))
        used = fixed + slot_rows * card_h + game_rows * tile_h + button_h
        if used <= rect.h or k <= 0.3:
            break
        k = max(0.3, k - 0.02)  # the floors took some of the room: shrink the rest
    row_gap = m.gap // 2

    # Players header: "Players  3 / 8"             "1 watching"
    y = rect.top
    title = painter.blit_text(
        surface, tr(lang, "players"), m.f_head, TEXT, "topleft", (rect.left, y), bold=True
    )
    count = f"{len(seats)} / {max_players}"
    count_rect = painter.blit_text(
        surface, count, m.f_head, ACCENT, "topleft", (title.right + m.gap, y), bold=True
    )
    spectators = max(0, _int(view.get("spectators")))
    watching = tr(lang, "spectators", n=spectators)
    room_left = rect.right - count_rect.right - m.gap
    if painter.fonts.font(m.f_small).size(watching)[0] <= room_left:
        painter.blit_text(
            surface,
            watching,
            m.f_small,
            MUTED,
            "bottomright",
            (rect.right, y + head_h - (head_h - small_h) // 3),
        )
    y += head_h + m.gap

    col_w = (rect.w - (cols - 1) * m.gap) // cols
    seat_w = (rect.w - (seat_cols - 1) * m.gap) // seat_cols
    for i in range(slot_rows * seat_cols):
        if i >= shown:
            break
        cx = rect.left + (i % seat_cols) * (seat_w + m.gap)
        cy = y + (i // seat_cols) * (card_h + row_gap)
        card = pygame.Rect(cx, cy, seat_w, card_h)
        if i < len(seats):
            seat = seats[i]
            surface.blit(painter.seat_card(seat, card.size, m, lang, kick=True), card)
            painter.add_panel(card, "seat card")
            painter.add_target(
                pygame.Rect(card.right - card_h, card.top, card_h, card_h),
                KickSeat(_int(seat.get("seat"))),
            )
        else:
            surface.blit(_free_slot(painter, card.size, lang, m), card)
            if isinstance(view.get("seat_pad"), Mapping):
                # Someone without a phone sits here (appliance/door/kiosk_seat.py).
                painter.add_target(card, SitDown())
    y += slot_rows * card_h + (slot_rows - 1) * row_gap + m.gap

    # Games: a tile per title, the selected one outlined in the accent colour.
    if heads == 2:
        painter.blit_text(
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
            _game_tile(painter, game, game.get("id") == selected, tile.size, lang, m), tile
        )
        painter.add_panel(tile, "game tile")
        gid = game.get("id")
        if isinstance(gid, str):
            # The first focus while Start cannot be pressed yet: the chosen game, else
            # the first (a remote's OK there says what the game needs).
            painter.add_target(tile, SelectGame(gid), first=gid == selected or i == 0)
    y += game_rows * tile_h + (game_rows - 1) * row_gap + m.gap

    button = pygame.Rect(rect.left, max(y, rect.bottom - button_h), rect.w, button_h)
    enabled, label = _start_state(view, seats, games, lang)
    surface.blit(_start_button(painter, label, enabled, button.size, m), button)
    painter.add_panel(button, "start button")
    if enabled:
        painter.add_target(button, StartGame(), first=True)


def _columns(width: int, m: Metrics) -> int:
    return 2 if width >= 520 * m.scale else 1


def _least_sizes(painter: Painter, m: Metrics) -> tuple[int, int, int]:
    """The smallest seat card, game tile and Start button: a finger's height, and room for
    their text."""
    body_h = painter.line(m.f_body, True)
    return (
        max(body_h + 4, m.target),
        max(body_h + painter.line(m.f_small) + 4, m.target),
        max(painter.line(m.f_head, True) + 4, m.target),
    )


def _fixed_height(
    painter: Painter, m: Metrics, slot_rows: int, game_rows: int, heads: int = 2
) -> int:
    head_h = painter.line(m.f_head, True)
    return (
        heads * (head_h + m.gap)
        + (slot_rows - 1) * m.gap // 2
        + (game_rows - 1) * m.gap // 2
        + 2 * m.gap
    )


def _least_height(
    painter: Painter, m: Metrics, slot_rows: int, game_rows: int, heads: int = 2
) -> int:
    card, tile, button = _least_sizes(painter, m)
    return (
        _fixed_height(painter, m, slot_rows, game_rows, heads)
        + slot_rows * card
        + game_rows * tile
        + button
    )


def _least_seats_and_games(painter: Painter, view: View, m: Metrics, width: int) -> int:
    """The least height the seats, games and Start need: the taken seats only."""
    cols = _columns(width, m)
    seated = len(_dicts(view.get("seats")))
    games = len(_dicts(view.get("games")))
    return _least_height(
        painter, m, math.ceil(max(1, seated) / cols), math.ceil(max(1, games) / cols)
    )


def _free_slot(painter: Painter, size: Size, lang: str, m: Metrics) -> pygame.Surface:
    def paint(s: pygame.Surface) -> None:
        r = s.get_rect()
        pygame.draw.rect(
            s, PANEL_EDGE, r, width=max(2, m.gap // 8), border_radius=min(m.radius, r.h // 3)
        )
        painter.blit_text(
            s,
            tr(lang, "free_seat"),
            m.f_small,
            MUTED,
            "midleft",
            (max(m.pad, round(r.h * 0.3)), r.centery),
            max_width=r.w - m.pad,
        )

    return painter.part(("free", lang, m), size, paint)


def _game_tile(
    painter: Painter, game: Mapping[str, Any], selected: bool, size: Size, lang: str, m: Metrics
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
            pygame.draw.rect(s, ACCENT, r, width=max(3, round(5 * m.scale)), border_radius=radius)
        inner = r.inflate(-2 * m.pad, 0)
        colour = TEXT if available else MUTED
        body_h = painter.line(m.f_body, True)
        small_h = painter.line(m.f_small)
        top = r.centery - (body_h + small_h) // 2
        badge_w = 0
        if selected:
            # A filled dot reads as "chosen" even for the colour-blind.
            dr = max(5, round(body_h * 0.22))
            pygame.draw.circle(s, ACCENT, (inner.right - dr, top + body_h // 2), dr)
            badge_w = 2 * dr + m.gap // 2
        painter.blit_text(
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
        painter.blit_text(
            s,
            sub,
            m.f_small,
            MUTED if available else ACCENT,
            "topleft",
            (inner.left, top + body_h),
            max_width=inner.w,
        )

    key = ("game", title, lo, hi, available, selected, lang, m)
    return painter.part(key, size, paint)


def _start_button(
    painter: Painter, label: str, enabled: bool, size: Size, m: Metrics
) -> pygame.Surface:
    def paint(s: pygame.Surface) -> None:
        r = s.get_rect()
        radius = min(m.radius * 2, r.h // 2)
        if enabled:
            pygame.draw.rect(s, ACCENT, r, border_radius=radius)
            painter.blit_text(
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
            painter.blit_text(
                s, label, m.f_body, MUTED, "center", r.center, max_width=r.w - 2 * m.pad
            )

    return painter.part(("start", label, enabled, m), size, paint)


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
