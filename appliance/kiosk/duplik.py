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
art show's "next" act as the table's DIE, HOURGLASS and REVEAL buttons. An Evaluator
seated at the kiosk (no phone: `seat_pad.kiosk_seats`, appliance/door/kiosk_seat.py) judges the
canvas in front of them with YES / NO on its verdict card (a verdict is public anyway).

Like the rest of the kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

import io
import logging
import math
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import ActAs, PressButton
from appliance.kiosk.kit import (
    GOLD,
    GOLD_DEEP,
    NO,
    YES,
    PerRenderer,
    Player,
    SeatTable,
    as_int,
    as_list,
    as_map,
    captioned_chip,
    centre_block,
    draw_hourglass,
    draw_lines,
    draw_mark,
    draw_scoreboard,
    fit_wrapped,
    for_round,
    grid_origin,
    leader_score,
    localised,
    paint_score_row,
    phase_of,
    pill,
    players_of,
    seat_ints,
    seat_list,
    seat_map,
    shadowed_sheet,
    sheet_key,
    split_body,
    state_of,
    vote_countdown,
    wrap,
)
from appliance.kiosk.render import (
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
    finish_result,
    finish_round,
    format_seconds,
    ink_on,
)
from appliance.kiosk.strokes import PAPER, StrokeCache, sheet_rect
from appliance.kiosk.text import add_texts, join_names, quoted, tr

log = logging.getLogger(__name__)

GAME_ID: Final = "duplik"
CRITERIA: Final = 10
View = Mapping[str, Any]

# The kiosk's sentences for this game, English and Czech, added to the shared catalogues
# under "duplik." (kept here, beside the screen that says them).
STRINGS: Final[dict[str, dict[str, str | dict[str, str]]]] = {
    "en": {
        "duplik.round": "Round {round} of {rounds}",
        "duplik.portrayer": "Portrayer",
        "duplik.portrays": "portrays",
        "duplik.golden": "Golden",
        "duplik.golden_is": "Golden criterion: {number}",
        "duplik.golden_worth": "It is worth 3 points to every Artist who meets it.",
        "duplik.golden_tag": "GOLDEN · 3 points",
        "duplik.roll_title": "{name} rolls the die",
        "duplik.roll_hint": "The die picks the golden criterion.",
        "duplik.roll_tap": "Tap the die or press DIE",
        "duplik.first_rolls": "Who portrays first: {rolls}",
        "duplik.ready_hint": "{name} turns the hourglass when everyone is ready",
        "duplik.ready_tap": "Tap the hourglass or press HOURGLASS",
        "duplik.drawing_title": "{name} describes the scene",
        "duplik.no_questions": "Artists draw in silence — no questions!",
        "duplik.paper": "Artists draw on paper — no questions!",
        "duplik.drawing_now": "drawing…",
        "duplik.on_paper": "on paper",
        "duplik.handed_in": "handed in",
        "duplik.done_count": "{n} of {total} handed in",
        "duplik.passing_title": "Pass the canvases",
        "duplik.passing_hint": "{name} decides: to the left or to the right",
        "duplik.passing_rule": "Nobody judges their own canvas.",
        "duplik.left": "left",
        "duplik.right": "right",
        "duplik.criterion": "Criterion {n} of {total}",
        "duplik.read_again": "Read again",
        "duplik.judged_now": "The verdicts are for criterion {n}: {text}",
        "duplik.progress_hint": "green: some Artist met it",
        "duplik.judged": "Judged {n} of {total}",
        "duplik.yes": "YES",
        "duplik.no": "NO",
        "duplik.by_vote": "settled by a vote",
        "duplik.voted": "voted",
        "duplik.voted_by": "Voted: {names}",
        "duplik.voting": "voting…",
        "duplik.dispute_title": "Dispute!",
        "duplik.dispute_canvas": "{name}'s canvas, criterion {n}",
        "duplik.votes": "{n} of {total} voted",
        "duplik.vote_rule": "Everyone but the Portrayer votes on their phone. "
        "A tie awards the point.",
        "duplik.scores": "Scores",
        "duplik.artshow": "Art show",
        "duplik.the_scene": "The scene",
        "duplik.points": {"one": "+{n} point", "other": "+{n} points"},
        "duplik.next_round": "Next round",
        "duplik.next_hint": "{name} goes on when you have laughed enough",
    },
    "cs": {
        "duplik.round": "Kolo {round} z {rounds}",
        "duplik.portrayer": "Vypravěč",
        "duplik.portrays": "vypráví",
        "duplik.golden": "Zlaté",
        "duplik.golden_is": "Zlaté kritérium: {number}",
        "duplik.golden_worth": "Každému kreslíři, který ho splní, vynese 3 body.",
        "duplik.golden_tag": "ZLATÉ · 3 body",
        "duplik.roll_title": "{name} hází kostkou",
        "duplik.roll_hint": "Kostka určí zlaté kritérium.",
        "duplik.roll_tap": "Klepni na kostku nebo stiskni KOSTKA",
        "duplik.first_rolls": "Kdo vypráví první: {rolls}",
        "duplik.ready_hint": "{name} otočí přesýpací hodiny, až budou všichni připraveni",
        "duplik.ready_tap": "Klepni na přesýpací hodiny nebo stiskni HODINY",
        "duplik.drawing_title": "{name} popisuje obrázek",
        "duplik.no_questions": "Kreslíři kreslí mlčky — žádné otázky!",
        "duplik.paper": "Kreslíři kreslí na papír — žádné otázky!",
        "duplik.drawing_now": "kreslí…",
        "duplik.on_paper": "na papíře",
        "duplik.handed_in": "odevzdáno",
        "duplik.done_count": "Odevzdáno {n} z {total}",
        "duplik.passing_title": "Předej plátno",
        "duplik.passing_hint": "{name} rozhodne: doleva, nebo doprava",
        "duplik.passing_rule": "Nikdo nehodnotí své vlastní plátno.",
        "duplik.left": "doleva",
        "duplik.right": "doprava",
        "duplik.criterion": "Kritérium {n} z {total}",
        "duplik.read_again": "Znovu",
        "duplik.judged_now": "Hodnotí se kritérium {n}: {text}",
        "duplik.progress_hint": "zelená: někdo ho splnil",
        "duplik.judged": "Posouzeno {n} z {total}",
        "duplik.yes": "ANO",
        "duplik.no": "NE",
        "duplik.by_vote": "rozhodlo hlasování",
        "duplik.voted": "hlas odevzdán",
        "duplik.voted_by": "Hlasovali: {names}",
        "duplik.voting": "hlasuje…",
        "duplik.dispute_title": "Spor!",
        "duplik.dispute_canvas": "Plátno: {name}, kritérium {n}",
        "duplik.votes": "Hlasovalo {n} z {total}",
        "duplik.vote_rule": "Hlasují na telefonech všichni kromě vypravěče. "
        "Při rovnosti se bod uděluje.",
        "duplik.scores": "Body",
        "duplik.artshow": "Výstava",
        "duplik.the_scene": "Předloha",
        "duplik.points": {"one": "+{n} bod", "few": "+{n} body", "other": "+{n} bodů"},
        "duplik.next_round": "Další kolo",
        "duplik.next_hint": "{name} pokračuje, až se všichni dosmějí",
    },
}
add_texts(STRINGS)


# --- reading the view --------------------------------------------------------------------


@dataclass
class Table(SeatTable):
    """The parts of a Duplik view that every phase needs, read defensively once."""

    portrayer: int | None
    artists: list[int]
    scores: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, f: Frame) -> Table:
        state = state_of(f)
        return cls(
            lang=f.lang,
            state=state,
            phase=phase_of(state),
            # The match's own seat list first (who plays), refreshed by the table's seats.
            players=players_of(f.view),
            portrayer=as_int(state.get("portrayer")),
            artists=seat_list(state.get("artists")),
            scores=seat_ints(state.get("scores")),
        )


# --- caches that live as long as the renderer ---------------------------------------------


class SceneCache:
    """Scene pictures rasterised from their SVG, per scene key and size.

    nanosvg takes tens of milliseconds on a big scene; the kiosk does it once per size.
    A scene that cannot be read is remembered as broken rather than retried every frame.
    """

    def __init__(self, max_entries: int = 32, max_picture_bytes: int = 24 * 2**20) -> None:
        # Every round's SVG of the longest game (10 players portraying 3 times: 30
        # rounds, ~20 KB each): a finish's view names them all at every frame, and a
        # smaller cache, refilled in round order, forgot the rounds it was about to show.
        self._svg: OrderedDict[str, bytes] = OrderedDict()
        self._aspect: dict[str, float] = {}
        self._scaled: OrderedDict[tuple[str, tuple[int, int]], pygame.Surface | None] = (
            OrderedDict()
        )
        self._max = max_entries
        # The rasterised pictures are bounded by bytes (a 1080p finish's is ~2 MB).
        self._max_picture_bytes = max_picture_bytes
        self._picture_bytes = 0
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
        self._picture_bytes += _picture_bytes(surf)
        while len(self._scaled) > 1 and (len(self._scaled) > 2 * self._max
                                         or self._picture_bytes > self._max_picture_bytes):
            _, old = self._scaled.popitem(last=False)
            self._picture_bytes -= _picture_bytes(old)
        return surf

    @property
    def picture_bytes(self) -> int:
        """Pixel bytes held by the rasterised pictures (the memory the budget bounds)."""
        return self._picture_bytes

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


def _picture_bytes(surf: pygame.Surface | None) -> int:
    return 0 if surf is None else surf.get_pitch() * surf.get_height()


@dataclass
class DuplikCaches:
    sheets: StrokeCache = field(default_factory=StrokeCache)
    scenes: SceneCache = field(default_factory=SceneCache)


_CACHES: PerRenderer[DuplikCaches] = PerRenderer(DuplikCaches)


def caches_of(r: KioskRenderer) -> DuplikCaches:
    """The Duplik caches of one renderer (a test's fresh renderer starts cold)."""
    return _CACHES.of(r)


# --- small drawing helpers ---------------------------------------------------------------


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
    return shadowed_sheet(surface, caches_of(r).sheets, strokes, box, key)


def canvas_key(f: Frame, round_no: object, seat: int | None, strokes: object) -> Hashable:
    """A finished canvas's name: the match, the round and the Artist (plus its stroke
    count, a cheap guard). Canvases shown on the kiosk (a dispute, the art show) are
    finished: the rules take no stroke after the drawing phase."""
    count = len(strokes) if isinstance(strokes, list | tuple) else -1
    return sheet_key(f, GAME_ID, as_int(round_no), seat, count)


# --- the screen -----------------------------------------------------------------------------


def duplik_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one Duplik frame (GAME_SCREENS["duplik"])."""
    m = f.metrics
    table = Table.of(f)
    scene = as_map(table.state.get("scene"))
    key, svg = scene.get("key"), scene.get("svg")
    if isinstance(key, str) and isinstance(svg, str):
        caches_of(r).scenes.remember(key, svg)
    for show in (as_map(x) for x in as_list(table.state.get("art_show"))):
        key, svg = show.get("scene_key"), show.get("scene_svg")
        if isinstance(key, str) and isinstance(svg, str):
            caches_of(r).scenes.remember(key, svg)

    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    header = _draw_header(r, f, table, area)
    top = header.bottom + m.gap
    body = pygame.Rect(area.left, top, area.w, area.bottom - top)
    if body.h < 20 or body.w < 40:
        return
    main, side, cols = split_body(r, m, body, len(table.players), 3, 0.26, 300)
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
    match = as_map(f.view.get("match"))
    game_title = str(match.get("title") or "Duplik")
    round_no, rounds = as_int(state.get("round")), as_int(state.get("rounds"))
    title = localised(state.get("title"), lang, any_language=True)

    # Right: the Portrayer and the golden criterion, the two facts everyone asks for.
    coin_r = max(8, round(r.line(m.f_head, True) * 0.75))
    right = area.right
    top = area.top
    golden = as_int(state.get("golden"))
    over = table.phase == "over"  # the game's end: its result, not its last round's roles
    if not over and (table.phase not in ("roll", "") or golden is not None):
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
    if table.portrayer is not None and not over:
        right = captioned_chip(
            r, f, tr(lang, "duplik.portrayer"), table, table.portrayer, right, area
        )

    sub = game_title
    if over:
        title = ""
        game_title = finish_result(f.view, lang)
    elif round_no is not None and rounds is not None:
        sub = f"{game_title} · {tr(lang, 'duplik.round', round=round_no, rounds=rounds)}"
    small = r.blit_text(
        s, sub, m.f_small, MUTED, "topleft", area.topleft, True, max(1, right - area.left)
    )
    # The title is what the table talks about: smaller rather than cut, down to a head.
    heading = quoted(lang, title) if title else game_title
    width = max(1, right - area.left)
    size = r.fit_size(heading, m.f_title, width, bold=True, min_size=m.f_head)
    big = r.blit_text(s, heading, size, TEXT, "topleft", (area.left, small.bottom), True, width)
    bottom = max(big.bottom, top + 2 * coin_r)
    return pygame.Rect(area.left, area.top, area.w, bottom - area.top)


def _role_note(table: Table, seat: int) -> tuple[str, Colour] | None:
    """What a player is doing now, for their scoreboard row."""
    lang, state = table.lang, table.state
    if seat == table.portrayer and table.phase != "over":  # at the end nobody portrays
        return tr(lang, "duplik.portrays"), GOLD
    if table.phase == "drawing":
        done = {d for d in (as_int(x) for x in as_list(state.get("done"))) if d is not None}
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
        dispute = as_map(state.get("dispute"))
        voted = {v for v in (as_int(x) for x in as_list(dispute.get("voted"))) if v is not None}
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
    m = f.metrics
    raw_points = seat_map(table.state.get("round_points"))
    round_points = {
        k: p for k, p in ((k, as_int(v)) for k, v in raw_points.items()) if p is not None
    }
    leader = leader_score(table.scores)

    def row(seat: int, size: tuple[int, int]) -> pygame.Surface:
        score = table.scores.get(seat)
        lead = score is not None and leader > 0 and score == leader
        player = table.players[seat]
        gained = round_points.get(seat)
        note = _role_note(table, seat)
        return _score_row(r, m, player, score, gained, note, lead, size)

    draw_scoreboard(r, f, tr(f.lang, "duplik.scores"), sorted(table.players), rect, cols, row)


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
    def gain(surf: pygame.Surface, rect: pygame.Rect, right: int) -> int:
        if score is not None and gained:
            plus = r.blit_text(
                surf, f"+{gained}", m.f_small, YES, "midright", (right, rect.centery), True
            )
            right = plus.left - m.gap // 3
        return right

    def paint(surf: pygame.Surface) -> None:
        paint_score_row(r, m, surf, player, score, lead, note, gain)

    key = ("duplik-score", player, score, gained, note, lead, m)
    return r.part(key, size, paint)


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


def _wrapped(r: KioskRenderer, f: Frame, rect: pygame.Rect,
             lines: list[tuple[str, int, Colour, bool]]) -> list[tuple[str, int, Colour, bool]]:
    """The lines of a centred block with each text under the title's size wrapped to
    `rect`'s width: "Who portrays first: Ada 8 · Bo 3 · …" and "… turns the hourglass
    when everyone is ready" carry the point at their end and were cut there."""
    out = []
    for text, size, colour, bold in lines:
        if text and size < f.metrics.f_title:
            out += [(part, size, colour, bold) for part in wrap(r, text, size, rect.w, bold)]
        else:
            out.append((text, size, colour, bold))
    return out


def _icon_room(r: KioskRenderer, f: Frame, rect: pygame.Rect, share: float,
               lines: list[tuple[str, int, Colour, bool]]) -> int:
    """The icon's height over `lines`: `share` of the rect, less where the lines need it."""
    text_h = sum(r.line(size, bold) for _, size, _, bold in lines)
    return max(20, min(round(rect.h * share), rect.h - text_h - 2 * f.metrics.gap))


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
    lines = _wrapped(r, f, rect, lines)
    icon_h = min(max(20, min(round(rect.h * 0.42), rect.h - 4 * r.line(m.f_body))),
                 _icon_room(r, f, rect, 0.42, lines))
    icon, y = centre_block(r, f, rect, icon_h, lines)
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
    if as_int(table.state.get("round")) != 1:
        return ""
    parts = []
    for raw in as_list(table.state.get("start_rolls")):
        pair = as_list(raw)
        if len(pair) == 2:
            seat, value = as_int(pair[0]), as_int(pair[1])
            if seat is not None and value is not None:
                parts.append(f"{table.name(seat)} {value}")
    if len(parts) < 2:
        return ""
    return tr(table.lang, "duplik.first_rolls", rolls=" · ".join(parts))


def _draw_ready(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    golden = as_int(table.state.get("golden"))
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
    lines = _wrapped(r, f, rect, lines)
    icon_h = min(max(20, min(round(rect.h * 0.4), rect.h - 5 * r.line(m.f_body))),
                 _icon_room(r, f, rect, 0.4, lines))
    icon, y = centre_block(r, f, rect, icon_h, lines)
    radius = icon.h // 2
    coin = golden_badge(r, s, golden, (icon.centerx - radius - m.gap, icon.centery), radius)
    glass = pygame.Rect(coin.right + 2 * m.gap, icon.top, round(icon.h / 1.6), icon.h)
    draw_hourglass(s, glass, 1.0)
    r.add_target(glass.inflate(m.gap, m.gap), PressButton("hourglass"))
    _blit_centred_lines(r, f, rect, y, lines)


def _draw_drawing(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    remaining = f.remaining
    length = f.length or float(as_int(state.get("seconds"), 90) or 90)
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
    done = {d for d in (as_int(x) for x in as_list(state.get("done"))) if d is not None}
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
    icon, y = centre_block(r, f, rect, icon_h, lines)
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
    results = as_list(state.get("results"))
    current = len(as_list(state.get("criteria"))) or len(results)
    latest = seat_map(results[current - 1]) if 0 < current <= len(results) else {}
    verdicts = {
        a: latest.get(a) if isinstance(latest.get(a), bool) else None for a in table.artists
    }
    voted: set[tuple[int, int]] = set()
    for raw in as_list(state.get("voted_on")):
        pair = as_list(raw)
        if len(pair) == 2:
            c, a = as_int(pair[0]), as_int(pair[1])
            if c is not None and a is not None:
                voted.add((c, a))
    return current, verdicts, voted


def _draw_evaluating(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    criteria = [as_map(c) for c in as_list(state.get("criteria"))]
    current, verdicts, voted = _verdicts(table)
    reading = as_int(state.get("reading"), current) or current
    golden = as_int(state.get("golden"))
    shown = criteria[reading - 1] if 0 < reading <= len(criteria) else {}
    number = as_int(shown.get("number"), reading) or reading
    dispute = as_map(state.get("dispute"))

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
    # A criterion read again is only heard again: say which one the verdicts are for.
    judged_now, note_h = "", 0
    if reading != current and 0 < current <= len(criteria):
        judged_now = tr(lang, "duplik.judged_now", n=current,
                        text=localised(criteria[current - 1], lang, any_language=True))
        note_h = 2 * r.line(m.f_body, True) + m.gap // 2
    if dispute:
        bottom_h = round(rect.h * 0.5)
    else:
        bottom_h = _verdicts_height(r, m, len(table.artists), rect.w, _judged_here(f, table))
    text_box = pygame.Rect(
        rect.left,
        y,
        rect.w,
        max(r.line(m.f_body), rect.bottom - y - progress_h - note_h - bottom_h - 2 * m.gap),
    )
    size, lines = fit_wrapped(
        r,
        localised(shown, lang, any_language=True),
        round(m.f_title * 1.5),
        text_box.w,
        text_box.h,
        True,
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
    if judged_now:
        size, lines = fit_wrapped(r, judged_now, m.f_body, rect.w, 2 * r.line(m.f_body, True), True)
        y = draw_lines(r, s, lines, size, GOLD, (rect.left, y), rect.w, True).bottom + m.gap // 2

    y = _draw_progress(r, f, table, current, golden, pygame.Rect(rect.left, y, rect.w, progress_h))
    y += m.gap
    rest = pygame.Rect(rect.left, y, rect.w, rect.bottom - y)
    if dispute:
        _draw_dispute(r, f, table, dispute, current, rest)
    else:
        _draw_verdicts(r, f, table, current, verdicts, voted, rest)


def _verdict_columns(m: Metrics, n: int, width: int, judging: bool = False) -> int:
    wide = 3 if width > 900 * m.scale else 2
    if judging:  # a card holds YES and NO a finger wide beside a name still read
        wide = min(wide, max(1, width // (2 * m.target + 6 * m.f_body)))
    return max(1, min(n, wide))


def _verdicts_height(r: KioskRenderer, m: Metrics, n: int, width: int,
                     judging: bool = False) -> int:
    """The verdicts' room; `judging`: an Evaluator at the kiosk judges on its cards, whose
    YES and NO are a finger high (the criterion's text is smaller then)."""
    rows = math.ceil(max(1, n) / _verdict_columns(m, n, width, judging))
    card = round(r.line(m.f_body, True) * 1.9)
    if judging:
        card = max(card, m.target + 8)
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
    results = as_list(table.state.get("results"))
    radius = max(5, min(rect.h // 2 - 2, round(16 * m.scale)))
    x = rect.left + radius
    cy = rect.top + rect.h // 2
    step = max(2 * radius + 4, min(round(radius * 3.2), (rect.w // 2) // CRITERIA))
    for n in range(1, CRITERIA + 1):
        centre = (x, cy)
        if n <= current and n - 1 < len(results):
            met = seat_map(results[n - 1]).values()
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
    cols = _verdict_columns(m, n, rect.w, _judged_here(f, table))
    rows = math.ceil(n / cols)
    card_h = max(
        r.line(m.f_body, True) + 8,
        min(round(r.line(m.f_body, True) * 1.9), (rect.bottom - y) // max(1, rows) - m.gap // 2),
    )
    col_w = (rect.w - (cols - 1) * m.gap // 2) // cols
    kiosk = set(seat_list(as_map(f.view.get("seat_pad")).get("kiosk_seats")))
    judges = _evaluators(table) if kiosk else {}
    if any(judge in kiosk for judge in judges.values()):
        card_h = max(card_h, m.target + 8)  # its YES and NO a finger high
    for i, seat in enumerate(table.artists):
        box = pygame.Rect(
            rect.left + (i % cols) * (col_w + m.gap // 2),
            y + (i // cols) * (card_h + m.gap // 2),
            col_w,
            card_h,
        )
        if box.bottom > rect.bottom + 1:
            r.note_dropped("verdict cards", i, len(table.artists))
            break
        met = verdicts.get(seat)
        by_vote = (current, seat) in voted
        s.blit(
            _verdict_card(r, m, lang, table.name(seat), table.colour(seat), met, by_vote, box.size),
            box,
        )
        judge = judges.get(seat)
        if judge in kiosk and not by_vote and judge is not None:
            _judge_buttons(r, f, box, judge, met, current)


def _judged_here(f: Frame, table: Table) -> bool:
    """Some Evaluator sits at the kiosk: YES and NO are drawn on the verdict cards."""
    kiosk = set(seat_list(as_map(f.view.get("seat_pad")).get("kiosk_seats")))
    return bool(kiosk) and any(judge in kiosk for judge in _evaluators(table).values())


def _evaluators(table: Table) -> dict[int, int]:
    """Artist -> who judges their canvas: the next Artist in the direction the canvases
    were passed (games/duplik.py's evaluator_of, read from the public view)."""
    ring = table.artists
    direction = table.state.get("direction")
    if len(ring) < 2 or direction not in ("left", "right"):
        return {}
    step = 1 if direction == "left" else -1
    return {a: ring[(i + step) % len(ring)] for i, a in enumerate(ring)}


def _judge_buttons(r: KioskRenderer, f: Frame, box: pygame.Rect, judge: int,
                   met: bool | None, criterion: int) -> None:
    """YES and NO over the right of a verdict card, acting for its Evaluator at the kiosk;
    the verdict given is the filled one."""
    m, s, lang = f.metrics, f.surface, f.lang
    h = max(8, box.h - 8)
    w = max(m.target, min(box.w // 4, r.fonts.font(m.f_body, True).size("YES")[0] + m.pad))
    right = box.right - 4
    for verdict, key in ((False, "duplik.no"), (True, "duplik.yes")):
        button = pygame.Rect(right - w, box.top + 4, w, h)
        right = button.left - m.gap // 3
        chosen = met is verdict
        fill = (YES if verdict else NO) if chosen else PANEL_EDGE
        pygame.draw.rect(s, fill, button, border_radius=max(4, m.radius // 2))
        label = tr(lang, key)
        size = r.fit_size(label, m.f_body, w - 6, bold=True, min_size=m.f_small)
        r.blit_text(s, label, size, TEXT, "center", button.center, True, w - 4)
        r.add_target(button, ActAs(judge, "judge", {"met": verdict, "criterion": criterion}),
                     first=verdict and r.first_focus is None)  # the first card's YES


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
    artist = as_int(dispute.get("artist"))
    criterion = as_int(dispute.get("criterion"), current) or current
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
    voted = {v for v in (as_int(x) for x in as_list(dispute.get("voted"))) if v is not None}
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
    y = vote_countdown(r, f, dispute, (text.left, y), text.w).bottom + m.gap // 3
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
    shows = [as_map(x) for x in as_list(state.get("art_show"))]
    # The game's end shows the art show of every round, one after another.
    shown = finish_round(f.view, f.now, len(shows)) if table.phase == "over" and shows else -1
    show = shows[shown] if shows else {}
    if table.phase == "over" and show:  # a seat that changed hands: who drew this round
        table = for_round(table, f.view, as_int(show.get("round"), shown + 1) or shown + 1)
    canvases = seat_map(show.get("canvases"))
    last = shown in (-1, len(shows) - 1)
    round_points = ({k: as_int(v) for k, v in seat_map(state.get("round_points")).items()}
                    if last else {})  # the points of the last round only
    scene = as_map(state.get("scene"))
    scene_key = show.get("scene_key") or (scene.get("key") if last else None)

    heading = tr(lang, "duplik.artshow")
    if table.phase == "over" and len(shows) > 1:
        heading = (f"{heading} · {tr(lang, 'duplik.round', round=shown + 1, rounds=len(shows))}"
                   f" · {quoted(lang, localised(show.get('title'), lang))}")
    head = r.blit_text(s, heading, m.f_head, GOLD, "topleft", rect.topleft, True,
                       rect.w if table.phase == "over" else rect.w // 2)
    if table.phase == "artshow":
        button = pill(
            r,
            s,
            tr(lang, "duplik.next_round"),
            m.f_small,
            GOLD,
            "midright",
            (rect.right, head.centery),
            min_h=m.target,  # a finger high
        )
        r.add_target(button, PressButton("reveal"))
        hint = tr(lang, "duplik.next_hint", name=table.name(table.portrayer))
        room = button.left - head.right - m.gap
        if room > 40:  # on two lines beside the button rather than cut
            size, lines = fit_wrapped(r, hint, m.f_small, room, 2 * r.line(m.f_small))
            top = head.centery - len(lines) * r.line(size) // 2
            draw_lines(r, s, lines, size, MUTED, (button.left - m.gap // 2 - room, top), room,
                       align="right")
    top = head.bottom + m.gap // 2
    body = pygame.Rect(rect.left, top, rect.w, rect.bottom - top)
    label_h = r.line(m.f_small, True) + m.gap // 2
    gap = max(4, m.gap // 2)
    artists = sorted(canvases) or table.artists
    cols, rows, cell_w = scene_grid(len(artists), body, label_h, gap)
    x0, y0, cell_h = grid_origin(body, cols, rows, cell_w, label_h, gap)

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
