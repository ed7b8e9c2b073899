"""Building blocks for a game's kiosk screen (kiosk.duplik, kiosk.artbox, the next game).

A game screen reads the public view defensively and draws it with the renderer's caches.
What every such screen needs, and what is not any one game's own, lives here:

- view readers that never raise: `as_map`, `as_list`, `as_int`, `seat_map`, `seat_ints`,
  `seat_list`, `localised`;
- `Player` and `players_of` (the match's seats refreshed by the table's), and `SeatTable`,
  the base of a game's `Table` wrapper (names and colours by seat);
- per-renderer caches (`PerRenderer`) and the key of a finished, cached sheet;
- text: `wrap`, `fit_wrapped`, `draw_lines`, `pill`, a captioned name chip, and an icon
  above centred lines (`centre_block`);
- the scoreboard's frame (`split_body`, `scoreboard_height`, `draw_scoreboard`,
  `paint_score_row`): the game says what goes in a row beside the name and the score;
- drawn things more than one game uses: the hourglass, the verdict mark, a sheet with its
  drop shadow, and a grid's origin.

Like the rest of the kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Final, Generic, TypeVar

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import ActAs
from appliance.kiosk.painter import Painter
from appliance.kiosk.strokes import StrokeCache, sheet_rect
from appliance.kiosk.text import tr
from appliance.kiosk.theme import (
    ACCENT,
    BG,
    MUTED,
    PANEL,
    PANEL_EDGE,
    TEXT,
    WARN,
    Frame,
    Metrics,
    blend,
    format_seconds,
    ink_on,
    parse_colour,
)

GOLD: Final[Colour] = ACCENT
GOLD_DEEP: Final[Colour] = (196, 138, 12)
YES: Final[Colour] = (70, 200, 115)
NO: Final[Colour] = WARN
SAND: Final[Colour] = (240, 196, 92)
SHADOW: Final[Colour] = (6, 7, 12)
GLASS: Final[Colour] = (120, 132, 165)

T = TypeVar("T")
ST = TypeVar("ST", bound="SeatTable")


# --- reading the view --------------------------------------------------------------------


def as_map(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def as_int(value: object, default: int | None = None) -> int | None:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return default
    return default


def seat_map(value: object) -> dict[int, Any]:
    """{"2": x} (JSON keys are strings) as {2: x}."""
    out: dict[int, Any] = {}
    for k, v in as_map(value).items():
        seat = as_int(k)
        if seat is not None:
            out[seat] = v
    return out


def seat_ints(value: object) -> dict[int, int]:
    """{"2": 3} (JSON keys are strings) as {2: 3}, skipping what is not a count."""
    out: dict[int, int] = {}
    for k, v in as_map(value).items():
        seat, n = as_int(k), as_int(v)
        if seat is not None and n is not None:
            out[seat] = n
    return out


def seat_list(value: object) -> list[int]:
    """The whole numbers of a list (seats), skipping anything else."""
    return [s for s in (as_int(x) for x in as_list(value)) if s is not None]


def localised(value: object, lang: str, any_language: bool = False) -> str:
    """A {en, cs} text in `lang` (English if missing); a plain string as it is. With
    `any_language`, a text in neither falls back to whichever language it has."""
    if isinstance(value, str):
        return value
    texts = as_map(value)
    text = texts.get(lang) or texts.get("en")
    if isinstance(text, str):
        return text
    if not any_language:
        return ""
    return next((v for v in texts.values() if isinstance(v, str)), "")


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    colour: Colour
    connected: bool


def players_of(view: Mapping[str, Any], match_seats_only: bool = False) -> dict[int, Player]:
    """The match's own seat list (who plays, by the names the match gives them: whoever
    holds a seat now, and at the finish everyone who held it), refreshed by the table's
    seats (who is connected right now; a name for a seat the match does not know). With
    `match_seats_only`, a table seat that is not in the match (a late spectator's) is no
    player."""
    match = as_map(view.get("match"))
    players: dict[int, Player] = {}
    playing = {as_int(as_map(s).get("seat")) for s in as_list(match.get("seats"))} - {None}
    for raw in as_list(match.get("seats")) + as_list(view.get("seats")):
        entry = as_map(raw)
        seat = as_int(entry.get("seat"))
        if seat is None or (match_seats_only and playing and seat not in playing):
            continue
        old = players.get(seat)
        players[seat] = Player(
            seat,
            old.name if old and old.name else str(entry.get("name", "")),
            parse_colour(entry.get("colour"), old.colour if old else MUTED),
            bool(entry.get("connected", old.connected if old else True)),
        )
    return players


def for_round(table: ST, view: Mapping[str, Any], number: int) -> ST:
    """The table as the art show names round `number` (from 1): a seat that changed hands
    by whoever drew its picture of that round (the match's `credits`), not by all who
    held it."""
    names = {
        as_int(c.get("seat")): str(c.get("name") or "")
        for c in map(as_map, as_list(as_map(view.get("match")).get("credits")))
        if as_int(c.get("round")) == number
    }
    if not names:
        return table
    players = {seat: replace(p, name=names.get(seat) or p.name)
               for seat, p in table.players.items()}
    return replace(table, players=players)


def phase_of(state: Mapping[str, Any]) -> str:
    phase = state.get("phase")
    return phase if isinstance(phase, str) else ""


@dataclass
class SeatTable:
    """What every game's view wrapper (its `Table`) has: the language, the game's state,
    its phase and the players, with each seat's name and colour."""

    lang: str
    state: Mapping[str, Any]
    phase: str
    players: dict[int, Player]

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        player = self.players.get(seat)
        return player.name if player else tr(self.lang, "seat_n", n=seat + 1)

    def colour(self, seat: int | None) -> Colour:
        player = self.players.get(seat) if seat is not None else None
        return player.colour if player else MUTED


def state_of(f: Frame) -> Mapping[str, Any]:
    """The game's state in a frame's view ({} when there is none)."""
    return as_map(as_map(f.view.get("match")).get("state"))


# --- caches that live as long as the renderer ---------------------------------------------


class PerRenderer(Generic[T]):
    """One `T` per renderer, made on first use and gone with the renderer (a test's fresh
    renderer starts cold).

    One game is on screen at a time: when a renderer starts using one game's caches, it
    lets go of every other game's, so a day of all four games holds one game's pictures
    (each cache is bounded) rather than four games' worth (tests/test_endurance.py)."""

    _all: ClassVar[weakref.WeakSet[PerRenderer[Any]]] = weakref.WeakSet()

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._of: weakref.WeakKeyDictionary[Painter, T] = weakref.WeakKeyDictionary()
        PerRenderer._all.add(self)

    def of(self, r: Painter) -> T:
        value = self._of.get(r)
        if value is None:
            for other in list(PerRenderer._all):
                if other is not self:
                    other._of.pop(r, None)
            value = self._of[r] = self._factory()
        return value

    @staticmethod
    def release(r: Painter) -> None:
        """Let go of every game's caches of `r`: no game is on its screen any more."""
        for caches in list(PerRenderer._all):
            caches._of.pop(r, None)


def sheet_key(f: Frame, game: str, round_no: int | None, who: int | None, count: int) -> Hashable:
    """A finished sheet's name in a sheet cache: the game, the match, the round, whose or
    which sheet (plus its stroke count, a cheap guard)."""
    match_id = as_map(f.view.get("match")).get("id")
    return (game, match_id if isinstance(match_id, int | str) else None, round_no, who, count)


def shadowed_sheet(
    surface: pygame.Surface,
    sheets: StrokeCache,
    strokes: object,
    box: pygame.Rect,
    key: Hashable | None = None,
) -> pygame.Rect:
    """A drawing's sheet (cached once painted; `key` names a finished one) letterboxed
    into `box`, with a drop shadow; returns where it went."""
    rect = sheet_rect(box)
    off = max(2, rect.h // 60)
    # The shadow as two strips: filling a whole rectangle under the sheet costs a
    # sheet-sized fill per sheet per frame for pixels nobody sees.
    pygame.draw.rect(surface, SHADOW, (rect.left + off, rect.bottom, rect.w, off))
    pygame.draw.rect(surface, SHADOW, (rect.right, rect.top + off, off, rect.h))
    surface.blit(sheets.sheet(strokes, rect.size, key=key), rect)
    return rect


# --- text -----------------------------------------------------------------------------------


def wrap(r: Painter, text: str, size: int, width: int, bold: bool = False) -> list[str]:
    """`text` broken into lines no wider than `width` (a long word gets a line alone)."""
    font = r.fonts.font(size, bold)
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if font.size(trial)[0] <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def fit_wrapped(
    r: Painter, text: str, size: int, width: int, height: int, bold: bool = False
) -> tuple[int, list[str]]:
    """The largest type size (from `size` down, never under the screen's smallest type)
    at which wrapped `text` fits the box; if even that is too tall, the lines that fit,
    the last one ended with an ellipsis."""
    floor = max(10, size // 2)
    if size >= r.min_text:
        floor = max(floor, r.min_text)
    while True:
        lines = wrap(r, text, size, width, bold)
        line_h = r.line(size, bold)
        if len(lines) * line_h <= height:
            return size, lines
        if size <= floor:
            keep = max(1, height // max(1, line_h))
            if keep >= len(lines):
                return size, lines
            cut = r.fonts.fit(f"{lines[keep - 1]} {lines[keep]}", size, bold, width)
            r.note_cut(text, size)
            return size, [*lines[: keep - 1], cut]
        size = max(floor, size - max(1, size // 10))


def draw_lines(
    r: Painter,
    surface: pygame.Surface,
    lines: Sequence[str],
    size: int,
    colour: Colour,
    pos: tuple[int, int],
    width: int,
    bold: bool = False,
    align: str = "left",
) -> pygame.Rect:
    x, y = pos
    box = pygame.Rect(x, y, 0, 0)
    for line in lines:
        anchor = {"left": "topleft", "center": "midtop", "right": "topright"}[align]
        at = {"left": x, "center": x + width // 2, "right": x + width}[align]
        rect = r.blit_text(surface, line, size, colour, anchor, (at, y), bold, width)
        box.union_ip(rect)
        y += r.line(size, bold)
    box.h = max(box.h, y - pos[1])
    return box


def pill(
    r: Painter,
    surface: pygame.Surface,
    text: str,
    size: int,
    fill: Colour,
    anchor: str,
    pos: tuple[int, int],
    bold: bool = True,
    max_width: int | None = None,
    min_h: int = 0,
) -> pygame.Rect:
    """Text on a rounded capsule of `fill`, in whichever of black or white reads best; at
    least `min_h` tall (a pill that is a button: Metrics.target)."""
    ink = ink_on(fill)
    label = r.text(text, size, ink, bold, max_width)
    pad_x = max(6, size // 2)
    pad_y = max(2, size // 6)
    rect = pygame.Rect(0, 0, label.get_width() + 2 * pad_x,
                       max(min_h, label.get_height() + 2 * pad_y))
    setattr(rect, anchor, pos)
    pygame.draw.rect(surface, fill, rect, border_radius=rect.h // 2)
    surface.blit(label, label.get_rect(center=rect.center))
    return rect


def captioned_chip(
    r: Painter,
    f: Frame,
    caption: str,
    table: SeatTable,
    seat: int,
    right: int,
    area: pygame.Rect,
) -> int:
    """A player's name chip flush right at `right` in the header, its caption above it
    (so a short name cannot push the caption leftwards); returns where the next thing
    to the left may end."""
    m, s = f.metrics, f.surface
    chip = pill(
        r,
        s,
        table.name(seat),
        m.f_body,
        table.colour(seat),
        "topright",
        (right, area.top + r.line(m.f_small)),
        max_width=round(area.w * 0.22),
    )
    label = r.blit_text(s, caption, m.f_small, MUTED, "bottomright", (right, chip.top))
    return min(chip.left, label.left) - m.gap


def centre_block(
    r: Painter,
    f: Frame,
    rect: pygame.Rect,
    icon_h: int,
    lines: Sequence[tuple[str, int, Colour, bool]],
) -> tuple[pygame.Rect, int]:
    """An icon above some lines, the whole centred in `rect`: the icon's box and the y
    where the text starts."""
    m = f.metrics
    text_h = sum(r.line(size, bold) for _, size, _, bold in lines)
    top = rect.top + max(0, (rect.h - icon_h - m.gap - text_h) // 2)
    icon = pygame.Rect(rect.left, top, rect.w, icon_h)
    return icon, icon.bottom + m.gap


# --- the scoreboard -------------------------------------------------------------------------


def split_body(
    r: Painter,
    m: Metrics,
    body: pygame.Rect,
    players: int,
    portrait_share: int,
    landscape_share: float,
    landscape_min: int,
) -> tuple[pygame.Rect, pygame.Rect, int]:
    """The body cut into the phase's room and the scoreboard's: below it in portrait (at
    most 1/`portrait_share` of the height, two columns), beside it otherwise (a share of
    the width, at least `landscape_min` scaled pixels unless that passes a third, one
    column). Returns the phase's rect, the scoreboard's and its columns."""
    if m.portrait:
        side_h = min(body.h // portrait_share, scoreboard_height(r, m, players, cols=2))
        main = pygame.Rect(body.left, body.top, body.w, body.h - side_h - m.gap)
        side = pygame.Rect(body.left, main.bottom + m.gap, body.w, side_h)
        return main, side, 2
    side_w = max(round(body.w * landscape_share), min(body.w // 3, round(landscape_min * m.scale)))
    main = pygame.Rect(body.left, body.top, body.w - side_w - m.gap, body.h)
    side = pygame.Rect(main.right + m.gap, body.top, side_w, body.h)
    return main, side, 1


def scoreboard_height(r: Painter, m: Metrics, n: int, cols: int) -> int:
    row = row_ideal(r, m)
    rows = math.ceil(max(1, n) / cols)
    return r.line(m.f_head, True) + m.gap // 2 + rows * (row + m.gap // 3)


def row_ideal(r: Painter, m: Metrics) -> int:
    """A scoreboard row: the name and, under it, what the player is doing now."""
    return r.line(m.f_body, True) + r.line(m.f_small) + m.gap // 2


def draw_scoreboard(
    r: Painter,
    f: Frame,
    title: str,
    seats: Sequence[int],
    rect: pygame.Rect,
    cols: int,
    row: Callable[[int, tuple[int, int]], pygame.Surface],
) -> None:
    """The scoreboard's heading and a row per seat (`row(seat, size)` paints it), in
    `cols` columns, as many rows as fit."""
    m, s = f.metrics, f.surface
    r.add_panel(rect, "scoreboard")
    head = r.blit_text(s, title, m.f_head, TEXT, "topleft", rect.topleft, True, rect.w)
    if not seats:
        return
    y = head.bottom + m.gap // 2
    gap = m.gap // 3
    rows = math.ceil(len(seats) / cols)
    ideal = row_ideal(r, m)
    row_h = max(r.line(m.f_small) + 4, min(ideal, (rect.bottom - y - (rows - 1) * gap) // rows))
    col_w = (rect.w - (cols - 1) * m.gap) // cols
    for i, seat in enumerate(seats):
        box = pygame.Rect(
            rect.left + (i % cols) * (col_w + m.gap), y + (i // cols) * (row_h + gap), col_w, row_h
        )
        if box.bottom > rect.bottom + 1:
            r.note_dropped("scoreboard", i, len(seats))
            break
        s.blit(row(seat, box.size), box)


def leader_score(scores: Mapping[int, int]) -> int:
    return max(scores.values(), default=0)


def paint_score_row(
    r: Painter,
    m: Metrics,
    surf: pygame.Surface,
    player: Player,
    score: int | None,
    lead: bool,
    note: tuple[str, Colour] | None,
    extras: Callable[[pygame.Surface, pygame.Rect, int], int] | None = None,
) -> None:
    """A scoreboard row on `surf`: the player's colour stripe, the score at the right
    (gold for the leader), then `extras(surf, rect, right)` (the game's own marks left of
    the score; returns the new right edge), and the name with `note` under it."""
    rect = surf.get_rect()
    radius = min(m.radius, rect.h // 3)
    pygame.draw.rect(surf, PANEL, rect, border_radius=radius)
    stripe = pygame.Rect(0, 0, max(6, rect.h // 7), rect.h)
    colour = player.colour if player.connected else blend(player.colour, PANEL, 0.6)
    pygame.draw.rect(
        surf, colour, stripe, border_top_left_radius=radius, border_bottom_left_radius=radius
    )
    x = stripe.right + m.gap // 2
    right = rect.right - m.gap // 2
    if score is not None:
        sc = r.blit_text(
            surf,
            str(score),
            m.f_head,
            GOLD if lead else TEXT,
            "midright",
            (right, rect.centery),
            True,
        )
        # A clear gap: "+10" set close beside "26" reads as "+1026" at 800x480.
        right = sc.left - max(m.gap // 2, m.f_small // 2)
    if extras is not None:
        right = extras(surf, rect, right)
    name_h = r.line(m.f_body, True)
    note_h = r.line(m.f_small)
    width = max(1, right - x)
    ink = TEXT if player.connected else MUTED
    if note and name_h + note_h <= rect.h * 1.02:
        top = rect.centery - (name_h + note_h) // 2
        r.blit_text(surf, player.name, m.f_body, ink, "topleft", (x, top), True, width)
        # "+1 · most correct guesses" too wide: its first part, whole ("+1"), rather than
        # a cut that can hide the number.
        said = note[0]
        floor = r.fonts.font(max(r.min_text, round(m.f_small * 0.8)))
        if " · " in said and floor.size(said)[0] > width:
            said = said.split(" · ")[0]
        r.blit_text(surf, said, m.f_small, note[1], "topleft", (x, top + name_h), False, width)
    else:
        r.blit_text(surf, player.name, m.f_body, ink, "midleft", (x, rect.centery), True, width)


# --- drawn things ---------------------------------------------------------------------------


def centred_lines(
    r: Painter,
    f: Frame,
    rect: pygame.Rect,
    y: int,
    lines: Sequence[tuple[str, int, Colour, bool]],
) -> int:
    """Each (text, size, colour, bold) centred in `rect` from `y` down, shrunk to fit its
    width, or on two lines if even the smallest type is too wide (an instruction is not to
    be cut); an empty text keeps its line's room. Returns the y below the last line."""
    for text, size, colour, bold in lines:
        if text:
            fitted = r.fit_size(text, size, rect.w, bold)
            if r.fonts.font(fitted, bold).size(text)[0] > rect.w:
                fitted, parts = fit_wrapped(r, text, size, rect.w, 2 * r.line(size, bold), bold)
                y = draw_lines(r, f.surface, parts, fitted, colour, (rect.left, y), rect.w, bold,
                               "center").bottom
                continue
            r.blit_text(f.surface, text, fitted, colour, "midtop", (rect.centerx, y), bold, rect.w)
        y += r.line(size, bold)
    return y


def sheet_grid(n: int, box: pygame.Rect, label_h: int, gap: int) -> tuple[int, int, int]:
    """Columns, rows and cell width for `n` sheets (16:10, a label under each) in `box`,
    as large as the box allows."""
    options: list[tuple[float, int, int]] = []
    for cols in range(1, max(1, n) + 1):
        rows = math.ceil(max(1, n) / cols)
        tw = (box.w - (cols - 1) * gap) / cols
        th = (box.h - (rows - 1) * gap) / rows - label_h
        if tw > 0 and th > 0:
            options.append((min(tw, th * 1.6), cols, rows))
    if not options:
        return (1, max(1, n), 1)
    largest = max(w for w, _, _ in options)
    # Of the layouts (nearly) as large as the largest, the one with the most columns:
    # a wide screen then shows 3 + 2 pictures rather than 2 + 2 + 1.
    w, cols, rows = max((o for o in options if o[0] >= largest * 0.97), key=lambda o: o[1])
    return (cols, rows, int(w))


def grid_origin(
    box: pygame.Rect, cols: int, rows: int, cell_w: int, label_h: int, gap: int
) -> tuple[int, int, int]:
    """Where a grid of 16:10 cells (a label under each) starts in `box`: centred across,
    a third of the spare height above. Returns x0, y0 and the cell height."""
    cell_h = round(cell_w / 1.6)
    used_w = cols * cell_w + (cols - 1) * gap
    used_h = rows * (cell_h + label_h) + (rows - 1) * gap
    x0 = box.left + max(0, (box.w - used_w) // 2)
    y0 = box.top + max(0, (box.h - used_h) // 3)
    return x0, y0, cell_h


def draw_hourglass(surface: pygame.Surface, box: pygame.Rect, fraction: float) -> None:
    """An hourglass whose top bulb holds `fraction` of the sand (1 = just turned)."""
    fraction = max(0.0, min(1.0, fraction))
    h = min(box.h, round(box.w * 1.6))
    w = round(h / 1.6)
    x0, y0 = box.centerx - w // 2, box.centery - h // 2
    cap = max(4, h // 16)
    neck = max(2, w // 14)
    half = (h - 2 * cap) / 2
    top_y, mid_y, bot_y = y0 + cap, y0 + cap + half, y0 + h - cap
    cx = x0 + w / 2
    line = max(2, h // 60)
    # Sand: the top bulb keeps a triangle of `fraction` of its height, above the neck;
    # the bottom bulb fills from its base in the same proportion the top has lost.
    if fraction > 0:
        level = mid_y - half * fraction * 0.92
        spread = (mid_y - level) / half * (w / 2 - neck) + neck
        pygame.draw.polygon(
            surface, SAND, [(cx - spread, level), (cx + spread, level), (cx, mid_y)]
        )
    lost = 1 - fraction
    if lost > 0:
        pile = half * lost * 0.92
        spread = w / 2 - line * 2
        pygame.draw.polygon(
            surface,
            SAND,
            [
                (cx - spread, bot_y),
                (cx + spread, bot_y),
                (cx + spread * 0.35, bot_y - pile),
                (cx - spread * 0.35, bot_y - pile),
            ],
        )
        if fraction > 0:
            pygame.draw.line(surface, SAND, (cx, mid_y), (cx, bot_y - pile), max(2, neck // 2))
    glass = [
        (x0 + line, top_y),
        (x0 + w - line, top_y),
        (cx + neck, mid_y),
        (x0 + w - line, bot_y),
        (x0 + line, bot_y),
        (cx - neck, mid_y),
    ]
    pygame.draw.polygon(surface, GLASS, glass, line)
    wood = blend(GOLD_DEEP, BG, 0.25)
    pygame.draw.rect(surface, wood, (x0 - cap // 2, y0, w + cap, cap), border_radius=cap // 3)
    pygame.draw.rect(
        surface, wood, (x0 - cap // 2, y0 + h - cap, w + cap, cap), border_radius=cap // 3
    )


def draw_mark(
    surface: pygame.Surface, centre: tuple[int, int], radius: int, met: bool | None
) -> None:
    """A verdict as a shape as well as a colour: ✓ on green, ✕ on red, … on grey."""
    cx, cy = centre
    fill = YES if met is True else NO if met is False else PANEL_EDGE
    pygame.draw.circle(surface, fill, centre, radius)
    ink = ink_on(fill)
    w = max(2, radius // 4)
    if met is True:
        pts = [
            (cx - radius * 0.45, cy + radius * 0.02),
            (cx - radius * 0.1, cy + radius * 0.38),
            (cx + radius * 0.5, cy - radius * 0.35),
        ]
        pygame.draw.lines(surface, ink, False, pts, w)
    elif met is False:
        a = radius * 0.4
        pygame.draw.line(surface, ink, (cx - a, cy - a), (cx + a, cy + a), w)
        pygame.draw.line(surface, ink, (cx - a, cy + a), (cx + a, cy - a), w)
    else:
        for dx in (-0.4, 0.0, 0.4):
            pygame.draw.circle(surface, TEXT, (cx + dx * radius, cy), max(1, radius // 8))


def vote_countdown(
    r: Painter, f: Frame, vote: Mapping[str, Any], pos: tuple[int, int], width: int
) -> pygame.Rect:
    """Under a vote: its countdown once it runs ("The vote closes in 0:14"), else the
    button that starts it (the kiosk speaks for the table, games.core.VOTE) and how many
    players asked. Returns the rect drawn (top-left at `pos`)."""
    m, s, lang = f.metrics, f.surface, f.lang
    x, y = pos
    if vote.get("countdown"):
        left = f.remaining if f.remaining is not None else 0.0
        text = tr(lang, "vote.countdown", time=format_seconds(left))
        size = r.fit_size(text, m.f_head, width, True, min_size=10)
        return r.blit_text(s, text, size, WARN, "topleft", (x, y), True, width)
    # A button a finger high whose words are never cut: they shrink to the floor first.
    label = tr(lang, "vote.start_countdown")
    room = max(1, width - 2 * max(6, m.f_small // 2))
    size = r.fit_size(label, m.f_small, room, True, min_size=r.min_text)
    button = pill(r, s, label, size, GOLD, "topleft", (x, y), max_width=room, min_h=m.target)
    r.add_target(button, ActAs(None, "close_vote"), first=r.first_focus is None)
    asked = vote.get("asked")
    count = len(asked) if isinstance(asked, list) else asked if isinstance(asked, int) else 0
    if count and button.right + m.gap < x + width:
        r.blit_text(s, tr(lang, "vote.asked", n=count), m.f_small, MUTED, "midleft",
                    (button.right + m.gap, button.centery), False, x + width - button.right - m.gap)
    return button
