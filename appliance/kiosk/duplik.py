"""Duplik on the kiosk: the table's shared screen while the game runs.

Registered as GAME_SCREENS["duplik"]. It draws the public view (docs/duplik.md, "The
game's view") and nothing else: the round, the Portrayer, the golden criterion, the die,
the hourglass and who has handed in (never a drawing while it is drawn), the criterion
being read (big, so the table reads along), the verdicts, a dispute with the disputed
canvas, the scores, and the art show: the scene beside every canvas.

Pictures are made once: the scene's SVG is rasterised by SDL_image (nanosvg) per scene
key and size, every canvas is painted once into a cached sheet (kiosk.strokes), and the
rest goes through the renderer's part and text caches. A frame is thus a fill and a
few dozen blits, whatever the number of strokes. Taps on the die, the hourglass and the
art show's "next" act as the table's DIE, HOURGLASS and REVEAL buttons.

Like the rest of the kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

import io
import logging
import math
import weakref
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import PressButton
from appliance.kiosk.render import (
    ACCENT,
    BG,
    GAME_SCREENS,
    MUTED,
    ON_ACCENT,
    PANEL,
    PANEL_EDGE,
    TEXT,
    WARN,
    WHITE,
    Frame,
    KioskRenderer,
    Metrics,
    blend,
    format_seconds,
    ink_on,
    parse_colour,
)
from appliance.kiosk.strokes import PAPER, StrokeCache, sheet_rect
from appliance.kiosk.text import join_names, tr

log = logging.getLogger(__name__)

GAME_ID: Final = "duplik"
CRITERIA: Final = 10
GOLD: Final[Colour] = ACCENT
GOLD_DEEP: Final[Colour] = (196, 138, 12)
YES: Final[Colour] = (70, 200, 115)
NO: Final[Colour] = WARN
SAND: Final[Colour] = (240, 196, 92)
SHADOW: Final[Colour] = (6, 7, 12)
GLASS: Final[Colour] = (120, 132, 165)

View = Mapping[str, Any]


# --- reading the view --------------------------------------------------------------------


def _map(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _int(value: object, default: int | None = None) -> int | None:
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


def _seat_map(value: object) -> dict[int, Any]:
    """{"2": x} (JSON keys are strings) as {2: x}."""
    out: dict[int, Any] = {}
    for k, v in _map(value).items():
        seat = _int(k)
        if seat is not None:
            out[seat] = v
    return out


def _localised(value: object, lang: str) -> str:
    """A {en, cs} text in `lang` (English if missing); a plain string as it is."""
    if isinstance(value, str):
        return value
    texts = _map(value)
    text = texts.get(lang) or texts.get("en")
    if isinstance(text, str):
        return text
    return next((v for v in texts.values() if isinstance(v, str)), "")


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    colour: Colour
    connected: bool


@dataclass
class Table:
    """The parts of a Duplik view that every phase needs, read defensively once."""

    lang: str
    state: Mapping[str, Any]
    phase: str
    players: dict[int, Player]
    portrayer: int | None
    artists: list[int]
    scores: dict[int, int] = field(default_factory=dict)

    def name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        player = self.players.get(seat)
        return player.name if player else tr(self.lang, "seat_n", n=seat + 1)

    def colour(self, seat: int | None) -> Colour:
        player = self.players.get(seat) if seat is not None else None
        return player.colour if player else MUTED

    @classmethod
    def of(cls, f: Frame) -> Table:
        view = f.view
        match = _map(view.get("match"))
        state = _map(match.get("state"))
        players: dict[int, Player] = {}
        # The match's own seat list first (who plays), refreshed by the table's seats
        # (names, colours, who is connected right now).
        for raw in _list(match.get("seats")) + _list(view.get("seats")):
            entry = _map(raw)
            seat = _int(entry.get("seat"))
            if seat is None:
                continue
            old = players.get(seat)
            players[seat] = Player(
                seat,
                str(entry.get("name", old.name if old else "")),
                parse_colour(entry.get("colour"), old.colour if old else MUTED),
                bool(entry.get("connected", old.connected if old else True)),
            )
        artists = [a for a in (_int(x) for x in _list(state.get("artists"))) if a is not None]
        scores = {
            s: v
            for s, v in ((s, _int(v)) for s, v in _seat_map(state.get("scores")).items())
            if v is not None
        }
        phase = state.get("phase")
        return cls(
            lang=f.lang,
            state=state,
            phase=phase if isinstance(phase, str) else "",
            players=players,
            portrayer=_int(state.get("portrayer")),
            artists=artists,
            scores=scores,
        )


# --- caches that live as long as the renderer ---------------------------------------------


class SceneCache:
    """Scene pictures rasterised from their SVG, per scene key and size.

    nanosvg takes tens of milliseconds on a big scene; the kiosk does it once per size.
    A scene that cannot be read is remembered as broken rather than retried every frame.
    """

    def __init__(self, max_entries: int = 12) -> None:
        self._svg: OrderedDict[str, bytes] = OrderedDict()
        self._aspect: dict[str, float] = {}
        self._scaled: OrderedDict[tuple[str, tuple[int, int]], pygame.Surface | None] = (
            OrderedDict()
        )
        self._max = max_entries
        self.loads = 0

    def remember(self, key: str, svg: str) -> None:
        """Keep the SVG text of `key` (the view carries it only while it is public)."""
        if key in self._svg:
            self._svg.move_to_end(key)
            return
        self._svg[key] = svg.encode("utf-8")
        while len(self._svg) > self._max:
            old, _ = self._svg.popitem(last=False)
            self._aspect.pop(old, None)

    def known(self, key: str) -> bool:
        return key in self._svg

    def aspect(self, key: str) -> float:
        """Width / height of the scene (16:10 until it has been read)."""
        if key not in self._aspect and key in self._svg:
            raw = self._load(key, None)
            self._aspect[key] = raw.get_width() / max(1, raw.get_height()) if raw else 1.6
        return self._aspect.get(key, 1.6)

    def picture(self, key: str, size: tuple[int, int]) -> pygame.Surface | None:
        w, h = max(1, size[0]), max(1, size[1])
        cache_key = (key, (w, h))
        if cache_key in self._scaled:
            self._scaled.move_to_end(cache_key)
            return self._scaled[cache_key]
        surf = self._load(key, (w, h))
        if surf is not None:
            if surf.get_size() != (w, h):
                surf = pygame.transform.smoothscale(surf, (w, h))
            # Flattened onto white once: an opaque blit is several times cheaper than
            # an alpha one, every frame.
            flat = pygame.Surface((w, h))
            flat.fill(WHITE)
            flat.blit(surf, (0, 0))
            surf = flat.convert() if pygame.display.get_surface() is not None else flat
        self._scaled[cache_key] = surf
        while len(self._scaled) > 2 * self._max:
            self._scaled.popitem(last=False)
        return surf

    def _load(self, key: str, size: tuple[int, int] | None) -> pygame.Surface | None:
        data = self._svg.get(key)
        if data is None:
            return None
        self.loads += 1
        try:
            loader = getattr(pygame.image, "load_sized_svg", None)
            if size is not None and loader is not None:
                # Rasterised at the size shown: crisp, and no big intermediate surface.
                surf: pygame.Surface = loader(io.BytesIO(data), size)
            else:
                surf = pygame.image.load(io.BytesIO(data), "scene.svg")
        except (pygame.error, ValueError, OSError) as exc:
            log.warning("scene %s cannot be drawn: %s", key, exc)
            return None
        return surf


@dataclass
class DuplikCaches:
    sheets: StrokeCache = field(default_factory=StrokeCache)
    scenes: SceneCache = field(default_factory=SceneCache)


_CACHES: weakref.WeakKeyDictionary[KioskRenderer, DuplikCaches] = weakref.WeakKeyDictionary()


def caches_of(r: KioskRenderer) -> DuplikCaches:
    """The Duplik caches of one renderer (a test's fresh renderer starts cold)."""
    caches = _CACHES.get(r)
    if caches is None:
        caches = _CACHES[r] = DuplikCaches()
    return caches


# --- small drawing helpers ---------------------------------------------------------------


def wrap(r: KioskRenderer, text: str, size: int, width: int, bold: bool = False) -> list[str]:
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
    r: KioskRenderer, text: str, size: int, width: int, height: int, bold: bool = False
) -> tuple[int, list[str]]:
    """The largest type size (from `size` down) at which wrapped `text` fits the box."""
    floor = max(10, size // 2)
    while True:
        lines = wrap(r, text, size, width, bold)
        if size <= floor or len(lines) * r.line(size, bold) <= height:
            return size, lines
        size = max(floor, size - max(1, size // 10))


def draw_lines(
    r: KioskRenderer,
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
    r: KioskRenderer,
    surface: pygame.Surface,
    text: str,
    size: int,
    fill: Colour,
    anchor: str,
    pos: tuple[int, int],
    bold: bool = True,
    max_width: int | None = None,
) -> pygame.Rect:
    """Text on a rounded capsule of `fill`, in whichever of black or white reads best."""
    ink = ink_on(fill)
    label = r.text(text, size, ink, bold, max_width)
    pad_x = max(6, size // 2)
    pad_y = max(2, size // 6)
    rect = pygame.Rect(0, 0, label.get_width() + 2 * pad_x, label.get_height() + 2 * pad_y)
    setattr(rect, anchor, pos)
    pygame.draw.rect(surface, fill, rect, border_radius=rect.h // 2)
    surface.blit(label, label.get_rect(center=rect.center))
    return rect


def draw_die(surface: pygame.Surface, box: pygame.Rect, fill: Colour, edge: Colour) -> pygame.Rect:
    """A d10 seen from above: a kite with its facets, fitting `box`."""
    h = min(box.h, round(box.w * 1.25))
    w = round(h * 0.8)
    cx, top = box.centerx, box.centery - h // 2
    tip, left, right, bottom = (
        (cx, top),
        (cx - w // 2, top + h * 0.6),
        (cx + w // 2, top + h * 0.6),
        (cx, top + h),
    )
    pygame.draw.polygon(surface, fill, [tip, right, bottom, left])
    inner_l = (cx - w * 0.24, top + h * 0.55)
    inner_r = (cx + w * 0.24, top + h * 0.55)
    inner_b = (cx, top + h * 0.72)
    line = max(2, h // 45)
    for a, b in (
        (tip, inner_l),
        (tip, inner_r),
        (inner_l, inner_b),
        (inner_r, inner_b),
        (inner_l, left),
        (inner_r, right),
        (inner_b, bottom),
    ):
        pygame.draw.line(surface, edge, a, b, line)
    pygame.draw.polygon(surface, edge, [tip, right, bottom, left], line)
    return pygame.Rect(cx - w // 2, top, w, h)


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


def golden_badge(
    r: KioskRenderer,
    surface: pygame.Surface,
    number: int | None,
    centre: tuple[int, int],
    radius: int,
) -> pygame.Rect:
    """The golden criterion's number on a gold coin ("?" before the die is cast)."""
    pygame.draw.circle(surface, GOLD_DEEP, centre, radius)
    pygame.draw.circle(surface, GOLD, centre, max(1, radius - max(2, radius // 9)))
    label = "?" if number is None else str(number)
    r.blit_text(surface, label, max(10, round(radius * 1.15)), ON_ACCENT, "center", centre, True)
    return pygame.Rect(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius)


def paper_sheet(
    r: KioskRenderer,
    surface: pygame.Surface,
    strokes: object,
    box: pygame.Rect,
    key: Hashable | None = None,
) -> pygame.Rect:
    """A canvas (cached once painted; `key` names a finished one) letterboxed into
    `box`, with a drop shadow; returns where it went."""
    rect = sheet_rect(box)
    off = max(2, rect.h // 60)
    # The shadow as two strips: filling a whole rectangle under the sheet costs a
    # sheet-sized fill per canvas per frame for pixels nobody sees.
    pygame.draw.rect(surface, SHADOW, (rect.left + off, rect.bottom, rect.w, off))
    pygame.draw.rect(surface, SHADOW, (rect.right, rect.top + off, off, rect.h))
    surface.blit(caches_of(r).sheets.sheet(strokes, rect.size, key=key), rect)
    return rect


def canvas_key(f: Frame, round_no: object, seat: int | None, strokes: object) -> Hashable:
    """A finished canvas's name: the match, the round and the Artist (plus its stroke
    count, a cheap guard). Canvases shown on the kiosk (a dispute, the art show) are
    finished: the rules take no stroke after the drawing phase."""
    match = _map(f.view.get("match"))
    match_id = match.get("id")
    count = len(strokes) if isinstance(strokes, list | tuple) else -1
    return (
        GAME_ID,
        match_id if isinstance(match_id, int | str) else None,
        _int(round_no),
        seat,
        count,
    )


# --- the screen -----------------------------------------------------------------------------


def duplik_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one Duplik frame (GAME_SCREENS["duplik"])."""
    m = f.metrics
    table = Table.of(f)
    scene = _map(table.state.get("scene"))
    key, svg = scene.get("key"), scene.get("svg")
    if isinstance(key, str) and isinstance(svg, str):
        caches_of(r).scenes.remember(key, svg)

    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    header = _draw_header(r, f, table, area)
    top = header.bottom + m.gap
    body = pygame.Rect(area.left, top, area.w, area.bottom - top)
    if body.h < 20 or body.w < 40:
        return
    if m.portrait:
        side_h = min(body.h // 3, _scoreboard_height(r, m, len(table.players), cols=2))
        main = pygame.Rect(body.left, body.top, body.w, body.h - side_h - m.gap)
        side = pygame.Rect(body.left, main.bottom + m.gap, body.w, side_h)
        cols = 2
    else:
        side_w = max(round(body.w * 0.26), min(body.w // 3, round(300 * m.scale)))
        main = pygame.Rect(body.left, body.top, body.w - side_w - m.gap, body.h)
        side = pygame.Rect(main.right + m.gap, body.top, side_w, body.h)
        cols = 1
    draw = {
        "roll": _draw_roll,
        "ready": _draw_ready,
        "drawing": _draw_drawing,
        "passing": _draw_passing,
        "evaluating": _draw_evaluating,
        "artshow": _draw_artshow,
        "over": _draw_artshow,
    }.get(table.phase)
    if draw is not None:
        draw(r, f, table, main)
    _draw_scoreboard(r, f, table, side, cols)


def _draw_header(r: KioskRenderer, f: Frame, table: Table, area: pygame.Rect) -> pygame.Rect:
    m, s, lang, state = f.metrics, f.surface, f.lang, table.state
    match = _map(f.view.get("match"))
    game_title = str(match.get("title") or "Duplik")
    round_no, rounds = _int(state.get("round")), _int(state.get("rounds"))
    title = _localised(state.get("title"), lang)

    # Right: the Portrayer and the golden criterion, the two facts everyone asks for.
    coin_r = max(8, round(r.line(m.f_head, True) * 0.75))
    right = area.right
    top = area.top
    golden = _int(state.get("golden"))
    if table.phase not in ("roll", "") or golden is not None:
        coin = golden_badge(r, s, golden, (right - coin_r, top + coin_r), coin_r)
        label = r.blit_text(
            s,
            tr(lang, "duplik.golden"),
            m.f_small,
            MUTED,
            "topright",
            (coin.left - m.gap // 2, top + max(0, coin_r - r.line(m.f_small))),
        )
        right = min(coin.left, label.left) - m.gap
    if table.portrayer is not None:
        colour = table.colour(table.portrayer)
        chip = pill(
            r,
            s,
            table.name(table.portrayer),
            m.f_body,
            colour,
            "topright",
            (right, top + r.line(m.f_small)),
            max_width=round(area.w * 0.22),
        )
        # The caption sits above the chip, both flush right, so a short name cannot
        # push the caption into the golden coin's.
        label = r.blit_text(
            s, tr(lang, "duplik.portrayer"), m.f_small, MUTED, "bottomright", (right, chip.top)
        )
        right = min(chip.left, label.left) - m.gap

    sub = game_title
    if round_no is not None and rounds is not None:
        sub = f"{game_title} · {tr(lang, 'duplik.round', round=round_no, rounds=rounds)}"
    small = r.blit_text(
        s, sub, m.f_small, MUTED, "topleft", area.topleft, True, max(1, right - area.left)
    )
    # The title is what the table talks about: smaller rather than cut, down to a head.
    heading = tr(lang, "duplik.quoted", title=title) if title else game_title
    width = max(1, right - area.left)
    size = r.fit_size(heading, m.f_title, width, bold=True, min_size=m.f_head)
    big = r.blit_text(s, heading, size, TEXT, "topleft", (area.left, small.bottom), True, width)
    bottom = max(big.bottom, top + 2 * coin_r)
    return pygame.Rect(area.left, area.top, area.w, bottom - area.top)


def _scoreboard_height(r: KioskRenderer, m: Metrics, n: int, cols: int) -> int:
    row = _row_ideal(r, m)
    rows = math.ceil(max(1, n) / cols)
    return r.line(m.f_head, True) + m.gap // 2 + rows * (row + m.gap // 3)


def _row_ideal(r: KioskRenderer, m: Metrics) -> int:
    """A scoreboard row: the name and, under it, what the player is doing now."""
    return r.line(m.f_body, True) + r.line(m.f_small) + m.gap // 2


def _role_note(table: Table, seat: int) -> tuple[str, Colour] | None:
    """What a player is doing now, for their scoreboard row."""
    lang, state = table.lang, table.state
    if seat == table.portrayer:
        return tr(lang, "duplik.portrays"), GOLD
    if table.phase == "drawing":
        done = {d for d in (_int(x) for x in _list(state.get("done"))) if d is not None}
        if state.get("paper"):
            return (
                (tr(lang, "duplik.handed_in"), YES)
                if seat in done
                else (tr(lang, "duplik.on_paper"), MUTED)
            )
        return (
            (tr(lang, "duplik.handed_in"), YES)
            if seat in done
            else (tr(lang, "duplik.drawing_now"), MUTED)
        )
    if table.phase == "evaluating":
        dispute = _map(state.get("dispute"))
        voted = {v for v in (_int(x) for x in _list(dispute.get("voted"))) if v is not None}
        if dispute and seat in table.artists:
            return (
                (tr(lang, "duplik.voted"), YES)
                if seat in voted
                else (tr(lang, "duplik.voting"), MUTED)
            )
    return None


def _draw_scoreboard(
    r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect, cols: int
) -> None:
    m, s, lang = f.metrics, f.surface, f.lang
    raw_points = _seat_map(table.state.get("round_points"))
    round_points = {k: p for k, p in ((k, _int(v)) for k, v in raw_points.items()) if p is not None}
    head = r.blit_text(
        s, tr(lang, "duplik.scores"), m.f_head, TEXT, "topleft", rect.topleft, True, rect.w
    )
    seats = sorted(table.players)
    if not seats:
        return
    y = head.bottom + m.gap // 2
    gap = m.gap // 3
    rows = math.ceil(len(seats) / cols)
    ideal = _row_ideal(r, m)
    row_h = max(r.line(m.f_small) + 4, min(ideal, (rect.bottom - y - (rows - 1) * gap) // rows))
    col_w = (rect.w - (cols - 1) * m.gap) // cols
    leader = max(table.scores.values(), default=0)
    for i, seat in enumerate(seats):
        box = pygame.Rect(
            rect.left + (i % cols) * (col_w + m.gap), y + (i // cols) * (row_h + gap), col_w, row_h
        )
        if box.bottom > rect.bottom + 1:
            break
        player = table.players[seat]
        score = table.scores.get(seat)
        gained = round_points.get(seat)
        note = _role_note(table, seat)
        lead = score is not None and leader > 0 and score == leader
        s.blit(_score_row(r, m, player, score, gained, note, lead, box.size), box)


def _score_row(
    r: KioskRenderer,
    m: Metrics,
    player: Player,
    score: int | None,
    gained: int | None,
    note: tuple[str, Colour] | None,
    lead: bool,
    size: tuple[int, int],
) -> pygame.Surface:
    def paint(surf: pygame.Surface) -> None:
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
            right = sc.left - m.gap // 3
            if gained:
                plus = r.blit_text(
                    surf, f"+{gained}", m.f_small, YES, "midright", (right, rect.centery), True
                )
                right = plus.left - m.gap // 3
        name_h = r.line(m.f_body, True)
        note_h = r.line(m.f_small)
        width = max(1, right - x)
        if note and name_h + note_h <= rect.h * 1.02:
            top = rect.centery - (name_h + note_h) // 2
            r.blit_text(
                surf,
                player.name,
                m.f_body,
                TEXT if player.connected else MUTED,
                "topleft",
                (x, top),
                True,
                width,
            )
            r.blit_text(
                surf, note[0], m.f_small, note[1], "topleft", (x, top + name_h), False, width
            )
        else:
            r.blit_text(
                surf,
                player.name,
                m.f_body,
                TEXT if player.connected else MUTED,
                "midleft",
                (x, rect.centery),
                True,
                width,
            )

    key = ("duplik-score", player, score, gained, note, lead, m)
    return r.part(key, size, paint)


def _centre_block(
    r: KioskRenderer,
    f: Frame,
    rect: pygame.Rect,
    icon_h: int,
    lines: Sequence[tuple[str, int, Colour, bool]],
) -> tuple[pygame.Rect, int]:
    """Vertical centring of an icon above some lines: returns the icon's box and the y
    where the text starts."""
    m = f.metrics
    text_h = sum(r.line(size, bold) for _, size, _, bold in lines)
    total = icon_h + m.gap + text_h
    top = rect.top + max(0, (rect.h - total) // 2)
    icon = pygame.Rect(rect.left, top, rect.w, icon_h)
    return icon, icon.bottom + m.gap


def _blit_centred_lines(
    r: KioskRenderer,
    f: Frame,
    rect: pygame.Rect,
    y: int,
    lines: Sequence[tuple[str, int, Colour, bool]],
) -> int:
    for text, size, colour, bold in lines:
        if not text:
            continue
        r.blit_text(f.surface, text, size, colour, "midtop", (rect.centerx, y), bold, rect.w)
        y += r.line(size, bold)
    return y


def _draw_roll(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang = f.metrics, f.lang
    name = table.name(table.portrayer)
    lines: list[tuple[str, int, Colour, bool]] = [
        (tr(lang, "duplik.roll_title", name=name), m.f_title, TEXT, True),
        (tr(lang, "duplik.roll_hint"), m.f_body, MUTED, False),
        (tr(lang, "duplik.roll_tap"), m.f_small, GOLD, True),
    ]
    rolls = _first_rolls(table)
    if rolls:
        lines.append(("", m.f_small, MUTED, False))
        lines.append((rolls, m.f_small, MUTED, False))
    icon_h = max(20, min(round(rect.h * 0.42), rect.h - 4 * r.line(m.f_body)))
    icon, y = _centre_block(r, f, rect, icon_h, lines)
    die = draw_die(f.surface, icon, GOLD, GOLD_DEEP)
    r.blit_text(
        f.surface,
        "?",
        max(10, die.h // 3),
        ON_ACCENT,
        "center",
        (die.centerx, die.top + round(die.h * 0.42)),
        True,
    )
    r.add_target(die.inflate(m.gap, m.gap), PressButton("die"))
    _blit_centred_lines(r, f, rect, y, lines)


def _first_rolls(table: Table) -> str:
    """'Who portrays first: Ada 7 · Bo 9' — only in the first round, where it explains
    why this player begins."""
    if _int(table.state.get("round")) != 1:
        return ""
    parts = []
    for raw in _list(table.state.get("start_rolls")):
        pair = _list(raw)
        if len(pair) == 2:
            seat, value = _int(pair[0]), _int(pair[1])
            if seat is not None and value is not None:
                parts.append(f"{table.name(seat)} {value}")
    if len(parts) < 2:
        return ""
    return tr(table.lang, "duplik.first_rolls", rolls=" · ".join(parts))


def _draw_ready(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    golden = _int(table.state.get("golden"))
    lines: list[tuple[str, int, Colour, bool]] = [
        (
            tr(lang, "duplik.golden_is", number=golden if golden is not None else "?"),
            m.f_title,
            GOLD,
            True,
        ),
        (tr(lang, "duplik.golden_worth"), m.f_body, MUTED, False),
        (tr(lang, "duplik.ready_hint", name=table.name(table.portrayer)), m.f_body, TEXT, True),
        (tr(lang, "duplik.ready_tap"), m.f_small, GOLD, True),
    ]
    icon_h = max(20, min(round(rect.h * 0.4), rect.h - 5 * r.line(m.f_body)))
    icon, y = _centre_block(r, f, rect, icon_h, lines)
    radius = icon.h // 2
    coin = golden_badge(r, s, golden, (icon.centerx - radius - m.gap, icon.centery), radius)
    glass = pygame.Rect(coin.right + 2 * m.gap, icon.top, round(icon.h / 1.6), icon.h)
    draw_hourglass(s, glass, 1.0)
    r.add_target(glass.inflate(m.gap, m.gap), PressButton("hourglass"))
    _blit_centred_lines(r, f, rect, y, lines)


def _draw_drawing(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    remaining = f.remaining
    length = f.length or float(_int(state.get("seconds"), 90) or 90)
    fraction = 1.0 if remaining is None else remaining / max(1.0, length)
    urgent = remaining is not None and remaining <= min(10.0, length / 4)

    glass_w = min(round(rect.w * 0.3), round(rect.h * 0.85 / 1.6))
    glass = pygame.Rect(rect.left, rect.top, glass_w, rect.h)
    draw_hourglass(s, glass.inflate(-m.gap, -2 * m.gap), fraction)

    text = pygame.Rect(
        glass.right + 2 * m.gap, rect.top, rect.right - glass.right - 2 * m.gap, rect.h
    )
    if text.w < 20:
        return
    title = tr(lang, "duplik.drawing_title", name=table.name(table.portrayer))
    rule = tr(lang, "duplik.paper") if state.get("paper") else tr(lang, "duplik.no_questions")
    clock = format_seconds(remaining) if remaining is not None else "–:––"
    big = r.fit_size(clock, round(m.f_title * 2.6), text.w, bold=True)
    done = {d for d in (_int(x) for x in _list(state.get("done"))) if d is not None}
    artists = table.artists
    count = tr(
        lang, "duplik.done_count", n=sum(1 for a in artists if a in done), total=len(artists)
    )
    # Who has handed in: a chip per Artist, a tick once done. Never the drawings.
    chip_h = r.line(m.f_body, True) + m.gap // 2
    chips = [
        _artist_chip(
            r, m, table.name(a), table.colour(a) if a in done else PANEL, a in done, chip_h
        )
        for a in artists
    ]
    chip_rows, x = 1, 0
    for chip in chips:
        if x and x + chip.get_width() > text.w:
            chip_rows, x = chip_rows + 1, 0
        x += chip.get_width() + m.gap // 2
    block = (
        r.line(m.f_head, True)
        + r.line(m.f_body)
        + m.gap
        + r.line(big, True)
        + m.gap
        + r.line(m.f_body, True)
        + m.gap // 2
        + chip_rows * (chip_h + m.gap // 2)
    )
    y = text.top + max(0, (text.h - block) // 2)
    y = r.blit_text(s, title, m.f_head, TEXT, "topleft", (text.left, y), True, text.w).bottom
    y = r.blit_text(s, rule, m.f_body, MUTED, "topleft", (text.left, y), False, text.w).bottom
    y += m.gap
    colour = WARN if urgent else GOLD
    y = r.blit_text(s, clock, big, colour, "topleft", (text.left, y), True).bottom + m.gap
    y = r.blit_text(s, count, m.f_body, TEXT, "topleft", (text.left, y), True, text.w).bottom
    y += m.gap // 2
    x = text.left
    for chip in chips:
        if x > text.left and x + chip.get_width() > text.right:
            x = text.left
            y += chip_h + m.gap // 2
        if y + chip_h > text.bottom:
            break
        s.blit(chip, (x, y))
        x += chip.get_width() + m.gap // 2


def _artist_chip(
    r: KioskRenderer, m: Metrics, name: str, fill: Colour, done: bool, h: int
) -> pygame.Surface:
    ink = ink_on(fill) if done else MUTED
    label = r.text(name, m.f_small, ink, True, round(360 * m.scale))
    a = max(3, h // 5)  # half the tick's width
    w = label.get_width() + h + (h // 4 + 2 * a if done else 0)

    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        pygame.draw.rect(surf, fill, rect, border_radius=h // 2)
        if not done:
            pygame.draw.rect(surf, PANEL_EDGE, rect, width=max(2, h // 16), border_radius=h // 2)
        surf.blit(label, (h // 2, (h - label.get_height()) // 2))
        if done:
            cx = h // 2 + label.get_width() + h // 4 + a
            cy = rect.centery
            tick = [(cx - a, cy), (cx - a // 3, cy + a * 2 // 3), (cx + a, cy - a * 2 // 3)]
            pygame.draw.lines(surf, ink, False, tick, max(2, h // 12))

    return r.part(("duplik-chip", name, fill, done, h, m), (w, h), paint)


def _draw_passing(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    lines: list[tuple[str, int, Colour, bool]] = [
        (tr(lang, "duplik.passing_title"), m.f_title, TEXT, True),
        (tr(lang, "duplik.passing_hint", name=table.name(table.portrayer)), m.f_body, MUTED, False),
        (tr(lang, "duplik.passing_rule"), m.f_small, MUTED, False),
    ]
    icon_h = max(20, min(round(rect.h * 0.3), rect.h - 4 * r.line(m.f_body)))
    icon, y = _centre_block(r, f, rect, icon_h, lines)
    # Two arrows, left and right, around a stack of canvases.
    sheet = sheet_rect(pygame.Rect(0, 0, round(icon.h * 1.1), round(icon.h * 0.7)))
    sheet.center = icon.center
    for k in (2, 1, 0):
        pygame.draw.rect(s, blend(PAPER, BG, 0.25 * k), sheet.move(k * 8, -k * 8), border_radius=4)
    arm = round(icon.h * 0.9)
    for direction in (-1, 1):
        start = sheet.centerx + direction * (sheet.w // 2 + m.gap)
        end = start + direction * arm
        cy = icon.centery
        width = max(4, icon.h // 12)
        pygame.draw.line(s, GOLD, (start, cy), (end, cy), width)
        head = width * 2.2
        pygame.draw.polygon(
            s, GOLD, [(end + direction * head, cy), (end, cy - head), (end, cy + head)]
        )
        word = tr(lang, "duplik.left" if direction < 0 else "duplik.right")
        r.blit_text(s, word, m.f_body, GOLD, "midtop", ((start + end) // 2, round(cy + head)), True)
    _blit_centred_lines(r, f, rect, y, lines)


def _verdicts(table: Table) -> tuple[int, dict[int, bool | None], set[tuple[int, int]]]:
    """The current criterion (1-based), its verdict per Artist, and the (criterion,
    artist) pairs that a vote settled."""
    state = table.state
    results = _list(state.get("results"))
    current = len(_list(state.get("criteria"))) or len(results)
    latest = _seat_map(results[current - 1]) if 0 < current <= len(results) else {}
    verdicts = {
        a: latest.get(a) if isinstance(latest.get(a), bool) else None for a in table.artists
    }
    voted: set[tuple[int, int]] = set()
    for raw in _list(state.get("voted_on")):
        pair = _list(raw)
        if len(pair) == 2:
            c, a = _int(pair[0]), _int(pair[1])
            if c is not None and a is not None:
                voted.add((c, a))
    return current, verdicts, voted


def _draw_evaluating(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    criteria = [_map(c) for c in _list(state.get("criteria"))]
    current, verdicts, voted = _verdicts(table)
    reading = _int(state.get("reading"), current) or current
    golden = _int(state.get("golden"))
    shown = criteria[reading - 1] if 0 < reading <= len(criteria) else {}
    number = _int(shown.get("number"), reading) or reading
    dispute = _map(state.get("dispute"))

    # The criterion: number, golden mark, then the text as big as the space allows; the
    # verdicts (or the dispute) keep the bottom of the screen.
    y = rect.top
    label = tr(lang, "duplik.criterion", n=number, total=CRITERIA)
    if reading != current:
        label = f"{tr(lang, 'duplik.read_again')} · {label}"
    is_golden = number == golden
    head = r.blit_text(
        s, label, m.f_head, GOLD if is_golden else MUTED, "topleft", (rect.left, y), True, rect.w
    )
    if is_golden:
        pill(
            r,
            s,
            tr(lang, "duplik.golden_tag"),
            m.f_small,
            GOLD,
            "midleft",
            (head.right + m.gap, head.centery),
        )
    y = head.bottom + m.gap // 2

    progress_h = r.line(m.f_small, True) + m.gap
    if dispute:
        bottom_h = round(rect.h * 0.5)
    else:
        bottom_h = _verdicts_height(r, m, len(table.artists), rect.w)
    text_box = pygame.Rect(
        rect.left,
        y,
        rect.w,
        max(r.line(m.f_body), rect.bottom - y - progress_h - bottom_h - 2 * m.gap),
    )
    size, lines = fit_wrapped(
        r, _localised(shown, lang), round(m.f_title * 1.5), text_box.w, text_box.h, True
    )
    lines = lines[: max(1, text_box.h // max(1, r.line(size, True)))]
    text_h = len(lines) * r.line(size, True)
    draw_lines(
        r,
        s,
        lines,
        size,
        TEXT,
        (rect.left, text_box.top + (text_box.h - text_h) // 3),
        rect.w,
        True,
    )
    y = text_box.bottom + m.gap

    y = _draw_progress(r, f, table, current, golden, pygame.Rect(rect.left, y, rect.w, progress_h))
    y += m.gap
    rest = pygame.Rect(rect.left, y, rect.w, rect.bottom - y)
    if dispute:
        _draw_dispute(r, f, table, dispute, current, rest)
    else:
        _draw_verdicts(r, f, table, current, verdicts, voted, rest)


def _verdict_columns(m: Metrics, n: int, width: int) -> int:
    return max(1, min(n, 3 if width > 900 * m.scale else 2))


def _verdicts_height(r: KioskRenderer, m: Metrics, n: int, width: int) -> int:
    rows = math.ceil(max(1, n) / _verdict_columns(m, n, width))
    card = round(r.line(m.f_body, True) * 1.9)
    return r.line(m.f_body, True) + m.gap // 2 + rows * (card + m.gap // 2)


def _draw_progress(
    r: KioskRenderer,
    f: Frame,
    table: Table,
    current: int,
    golden: int | None,
    rect: pygame.Rect,
) -> int:
    """Ten pips: read criteria filled (green when some Artist met it), the golden one gold."""
    m, s = f.metrics, f.surface
    results = _list(table.state.get("results"))
    radius = max(5, min(rect.h // 2 - 2, round(16 * m.scale)))
    x = rect.left + radius
    cy = rect.top + rect.h // 2
    step = max(2 * radius + 4, min(round(radius * 3.2), (rect.w // 2) // CRITERIA))
    for n in range(1, CRITERIA + 1):
        centre = (x, cy)
        if n <= current and n - 1 < len(results):
            met = _seat_map(results[n - 1]).values()
            done = all(isinstance(v, bool) for v in met) and bool(met)
            fill = YES if any(v is True for v in met) else (NO if done else PANEL_EDGE)
            pygame.draw.circle(s, fill, centre, radius)
        else:
            pygame.draw.circle(s, PANEL_EDGE, centre, radius, max(2, radius // 4))
        if n == golden:
            pygame.draw.circle(s, GOLD, centre, radius + max(2, radius // 3), max(2, radius // 3))
        if n == current:
            pygame.draw.line(
                s,
                TEXT,
                (x - radius, cy + radius + 5),
                (x + radius, cy + radius + 5),
                max(2, radius // 4),
            )
        x += step
    caption = tr(table.lang, "duplik.progress_hint")
    r.blit_text(
        s,
        caption,
        m.f_small,
        MUTED,
        "midleft",
        (x + m.gap // 2, cy),
        False,
        max(1, rect.right - x - m.gap),
    )
    return rect.bottom


def _draw_verdicts(
    r: KioskRenderer,
    f: Frame,
    table: Table,
    current: int,
    verdicts: dict[int, bool | None],
    voted: set[tuple[int, int]],
    rect: pygame.Rect,
) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    judged = sum(1 for v in verdicts.values() if v is not None)
    head = r.blit_text(
        s,
        tr(lang, "duplik.judged", n=judged, total=len(verdicts)),
        m.f_body,
        TEXT,
        "topleft",
        rect.topleft,
        True,
        rect.w,
    )
    y = head.bottom + m.gap // 2
    n = max(1, len(table.artists))
    cols = _verdict_columns(m, n, rect.w)
    rows = math.ceil(n / cols)
    card_h = max(
        r.line(m.f_body, True) + 8,
        min(round(r.line(m.f_body, True) * 1.9), (rect.bottom - y) // max(1, rows) - m.gap // 2),
    )
    col_w = (rect.w - (cols - 1) * m.gap // 2) // cols
    for i, seat in enumerate(table.artists):
        box = pygame.Rect(
            rect.left + (i % cols) * (col_w + m.gap // 2),
            y + (i // cols) * (card_h + m.gap // 2),
            col_w,
            card_h,
        )
        if box.bottom > rect.bottom + 1:
            break
        met = verdicts.get(seat)
        by_vote = (current, seat) in voted
        s.blit(
            _verdict_card(r, m, lang, table.name(seat), table.colour(seat), met, by_vote, box.size),
            box,
        )


def _verdict_card(
    r: KioskRenderer,
    m: Metrics,
    lang: str,
    name: str,
    colour: Colour,
    met: bool | None,
    by_vote: bool,
    size: tuple[int, int],
) -> pygame.Surface:
    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        radius = min(m.radius, rect.h // 3)
        edge = YES if met is True else NO if met is False else PANEL_EDGE
        pygame.draw.rect(surf, PANEL, rect, border_radius=radius)
        pygame.draw.rect(surf, edge, rect, width=max(2, rect.h // 18), border_radius=radius)
        dot_r = max(4, rect.h // 9)
        pygame.draw.circle(surf, colour, (m.gap // 2 + dot_r + 4, rect.centery), dot_r)
        x = m.gap // 2 + 2 * dot_r + 4 + m.gap // 2
        mark_r = max(6, round(rect.h * 0.3))
        draw_mark(surf, (rect.right - mark_r - m.gap // 2, rect.centery), mark_r, met)
        word = tr(lang, "duplik.yes" if met else "duplik.no") if met is not None else ""
        right = rect.right - 2 * mark_r - m.gap
        if word:
            w = r.blit_text(surf, word, m.f_body, edge, "midright", (right, rect.centery), True)
            right = w.left - m.gap // 2
        name_h = r.line(m.f_body, True)
        sub_h = r.line(m.f_small)
        if by_vote and name_h + sub_h <= rect.h:
            top = rect.centery - (name_h + sub_h) // 2
            r.blit_text(surf, name, m.f_body, TEXT, "topleft", (x, top), True, max(1, right - x))
            r.blit_text(
                surf,
                tr(lang, "duplik.by_vote"),
                m.f_small,
                GOLD,
                "topleft",
                (x, top + name_h),
                False,
                max(1, right - x),
            )
        else:
            r.blit_text(
                surf, name, m.f_body, TEXT, "midleft", (x, rect.centery), True, max(1, right - x)
            )

    return r.part(("duplik-verdict", name, colour, met, by_vote, lang, m), size, paint)


def _draw_dispute(
    r: KioskRenderer,
    f: Frame,
    table: Table,
    dispute: Mapping[str, Any],
    current: int,
    rect: pygame.Rect,
) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    radius = m.radius
    pygame.draw.rect(s, blend(PANEL, WARN, 0.12), rect, border_radius=radius)
    pygame.draw.rect(s, WARN, rect, width=max(3, round(5 * m.scale)), border_radius=radius)
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    if inner.w < 20 or inner.h < 20:
        return
    artist = _int(dispute.get("artist"))
    criterion = _int(dispute.get("criterion"), current) or current
    canvas_w = min(round(inner.w * 0.5), round(inner.h * 1.6))
    canvas_box = pygame.Rect(inner.left, inner.top, canvas_w, inner.h)
    if table.state.get("paper"):
        _paper_placeholder(r, f, canvas_box)
    else:
        canvas = dispute.get("canvas")
        key = canvas_key(f, table.state.get("round"), artist, canvas)
        paper_sheet(r, s, canvas, canvas_box, key)
    text = pygame.Rect(
        canvas_box.right + m.gap, inner.top, inner.right - canvas_box.right - m.gap, inner.h
    )
    y = text.top
    y = r.blit_text(
        s, tr(lang, "duplik.dispute_title"), m.f_head, WARN, "topleft", (text.left, y), True, text.w
    ).bottom
    line = tr(lang, "duplik.dispute_canvas", name=table.name(artist), n=criterion)
    size, lines = fit_wrapped(r, line, m.f_body, text.w, 2 * r.line(m.f_body, True), True)
    y = draw_lines(r, s, lines, size, TEXT, (text.left, y), text.w, True).bottom + m.gap // 2
    voters = list(table.artists)
    voted = {v for v in (_int(x) for x in _list(dispute.get("voted"))) if v is not None}
    y = r.blit_text(
        s,
        tr(lang, "duplik.votes", n=len(voted & set(voters)), total=len(voters)),
        m.f_body,
        GOLD,
        "topleft",
        (text.left, y),
        True,
        text.w,
    ).bottom
    y += m.gap // 3
    names = [table.name(v) for v in voters if v in voted]
    if names:
        size, lines = fit_wrapped(
            r,
            tr(lang, "duplik.voted_by", names=join_names(lang, names)),
            m.f_small,
            text.w,
            2 * r.line(m.f_small),
        )
        y = draw_lines(r, s, lines, size, MUTED, (text.left, y), text.w).bottom
    y += m.gap // 2
    size, lines = fit_wrapped(
        r, tr(lang, "duplik.vote_rule"), m.f_small, text.w, max(r.line(m.f_small), text.bottom - y)
    )
    draw_lines(r, s, lines, size, MUTED, (text.left, y), text.w)


def _paper_placeholder(r: KioskRenderer, f: Frame, box: pygame.Rect) -> None:
    rect = sheet_rect(box)
    pygame.draw.rect(f.surface, PANEL_EDGE, rect, width=max(2, rect.h // 60), border_radius=6)
    r.blit_text(
        f.surface,
        tr(f.lang, "duplik.on_paper"),
        f.metrics.f_small,
        MUTED,
        "center",
        rect.center,
        False,
        rect.w,
    )


def scene_grid(n: int, box: pygame.Rect, label_h: int, gap: int) -> tuple[int, int, int]:
    """Columns, rows and cell width of the art show's grid: the scene takes the top-left
    2x2 cells, the `n` canvases (16:10, with a label line under each) the other cells,
    all as large as `box` allows."""
    best = (2, 2, 1)
    best_w = 0.0
    for cols in range(2, n + 3):
        rows = max(2, math.ceil((n + 4) / cols))
        tw = (box.w - (cols - 1) * gap) / cols
        th = (box.h - (rows - 1) * gap) / rows - label_h
        if tw <= 0 or th <= 0:
            continue
        w = min(tw, th * 1.6)
        if w > best_w + 0.5:
            best_w, best = w, (cols, rows, int(w))
    return best


def _draw_artshow(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    shows = [_map(x) for x in _list(state.get("art_show"))]
    show = shows[-1] if shows else {}
    canvases = _seat_map(show.get("canvases"))
    round_points = {k: _int(v) for k, v in _seat_map(state.get("round_points")).items()}
    scene = _map(state.get("scene"))
    scene_key = show.get("scene_key") or scene.get("key")

    head = r.blit_text(
        s, tr(lang, "duplik.artshow"), m.f_head, GOLD, "topleft", rect.topleft, True, rect.w // 2
    )
    if table.phase == "artshow":
        button = pill(
            r,
            s,
            tr(lang, "duplik.next_round"),
            m.f_small,
            GOLD,
            "midright",
            (rect.right, head.centery),
        )
        r.add_target(button.inflate(m.gap // 2, m.gap // 2), PressButton("reveal"))
        hint = tr(lang, "duplik.next_hint", name=table.name(table.portrayer))
        room = button.left - head.right - m.gap
        if room > 40:
            r.blit_text(
                s,
                hint,
                m.f_small,
                MUTED,
                "midright",
                (button.left - m.gap // 2, head.centery),
                False,
                room,
            )
    top = head.bottom + m.gap // 2
    body = pygame.Rect(rect.left, top, rect.w, rect.bottom - top)
    label_h = r.line(m.f_small, True) + m.gap // 2
    gap = max(4, m.gap // 2)
    artists = sorted(canvases) or table.artists
    cols, rows, cell_w = scene_grid(len(artists), body, label_h, gap)
    cell_h = round(cell_w / 1.6)
    used_w = cols * cell_w + (cols - 1) * gap
    used_h = rows * (cell_h + label_h) + (rows - 1) * gap
    x0 = body.left + max(0, (body.w - used_w) // 2)
    y0 = body.top + max(0, (body.h - used_h) // 3)

    scene_box = pygame.Rect(x0, y0, 2 * cell_w + gap, 2 * cell_h + label_h + gap)
    _draw_scene(r, f, scene_key, scene_box, label_h)

    cells = [(c, rw) for rw in range(rows) for c in range(cols) if not (c < 2 and rw < 2)]
    for seat, (col, row) in zip(artists, cells, strict=False):
        x = x0 + col * (cell_w + gap)
        y = y0 + row * (cell_h + label_h + gap)
        box = pygame.Rect(x, y, cell_w, cell_h)
        if state.get("paper"):
            _paper_placeholder(r, f, box)
        else:
            canvas = canvases.get(seat, [])
            paper_sheet(r, s, canvas, box, canvas_key(f, show.get("round"), seat, canvas))
        pygame.draw.line(
            s,
            table.colour(seat),
            (x, box.bottom + 1),
            (x + cell_w - 1, box.bottom + 1),
            max(2, round(5 * m.scale)),
        )
        gained = round_points.get(seat)
        right = x + cell_w
        if gained is not None:
            points = r.blit_text(
                s,
                tr(lang, "duplik.points", n=gained),
                m.f_small,
                YES if gained else MUTED,
                "topright",
                (right, box.bottom + 4),
                True,
            )
            right = points.left - m.gap // 2
        r.blit_text(
            s,
            table.name(seat),
            m.f_small,
            TEXT,
            "topleft",
            (x, box.bottom + 4),
            True,
            max(1, right - x),
        )


def _draw_scene(r: KioskRenderer, f: Frame, key: object, box: pygame.Rect, label_h: int) -> None:
    """The scene in a gold frame, as large as its own aspect allows in `box` (whose last
    `label_h` pixels hold its caption)."""
    m, s = f.metrics, f.surface
    scenes = caches_of(r).scenes
    aspect = scenes.aspect(key) if isinstance(key, str) else 1.6
    space = pygame.Rect(box.left, box.top, box.w, max(1, box.h - label_h))
    w = min(space.w, round(space.h * aspect))
    h = min(space.h, round(w / aspect))
    rect = pygame.Rect(0, 0, max(1, w), max(1, h))
    rect.midtop = (space.centerx, space.top + (space.h - h) // 2)
    picture = scenes.picture(key, rect.size) if isinstance(key, str) else None
    border = max(3, round(8 * m.scale))
    frame = rect.inflate(2 * border, 2 * border)
    pygame.draw.rect(s, GOLD_DEEP, frame, width=border, border_radius=max(3, m.radius // 3))
    if picture is not None:
        s.blit(picture, rect)
    else:
        pygame.draw.rect(s, PANEL, rect)
        r.blit_text(s, "?", m.f_title, MUTED, "center", rect.center, True)
    r.blit_text(
        s,
        tr(f.lang, "duplik.the_scene"),
        m.f_small,
        GOLD,
        "midtop",
        (rect.centerx, rect.bottom + 4),
        True,
        rect.w,
    )


GAME_SCREENS[GAME_ID] = duplik_screen

__all__ = ["DuplikCaches", "SceneCache", "caches_of", "duplik_screen", "scene_grid", "wrap"]
