"""Broad Lines on the kiosk: the table's easel while the game runs.

Registered as GAME_SCREENS["broad-lines"]. It draws the public view (docs/broad-lines.md,
"The game's view") and nothing else; the word never reaches it before the round ends.

- The easel: the sheets placed this round, stacked in order, each a visibly transparent
  sheet (a faint tint, an edge, a small offset), beside a side panel with the sheets used
  of the box's 25, the guesses left on this sheet, the words guessed so far, the Artists'
  order, the last hint and a proposal to give up.
- While the Artist whose turn it is draws on the table's own screen, the easel is hidden
  (the rules forbid holding a sheet up to it) and a blank sheet is declared as a drawing
  area (`add_canvas`): strokes drawn there reach the session as that Artist's `stroke`.
  Buttons beside it act for that Artist (undo, place, ask the table, back to the phone).
- The Critic may name the number here (six buttons acting for the Critic); an Artist may
  mark a guess right or wrong here; REVEAL's stand-in starts the next round.
- An Artist seated at the kiosk (no phone: `seat_pad.kiosk_seats`) is shown the word by
  appliance/door/kiosk_seat.py passing the device; their chip in the Artists' order ("Mia ·
  word") asks for it again. On their turn they may draw on a real sheet at the table and
  press "Drawn on paper" (`place_paper`, the first button, so OK on a TV remote is all
  it takes); the easel then shows a "drawn on paper" card for that sheet, which the Critic
  judges held up.
- The art show at the end: every round's easel with its word.

The stack of sheets is painted once per change into one cached surface, so a frame is a
fill and a few dozen blits whether 1 or 25 sheets are on the easel. Like the rest of the
kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import ActAs, CanvasSpec, PressButton, SeatPadKey
from appliance.kiosk.kit import (
    GOLD,
    NO,
    YES,
    PerRenderer,
    SeatTable,
    as_int,
    as_list,
    as_map,
    captioned_chip,
    draw_lines,
    fit_wrapped,
    localised,
    phase_of,
    pill,
    players_of,
    seat_list,
    sheet_key,
    state_of,
    wrap,
)
from appliance.kiosk.render import (
    GAME_SCREENS,
    MUTED,
    ON_ACCENT,
    PANEL,
    PANEL_EDGE,
    TEXT,
    Frame,
    KioskRenderer,
    Metrics,
    blend,
    ink_on,
)
from appliance.kiosk.strokes import (
    PAPER,
    SUPERSAMPLE,
    StrokeCache,
    draw_strokes,
    sheet_rect,
)
from appliance.kiosk.text import plural_form, quoted, tr

GAME_ID: Final = "broad-lines"
BOARD: Final[Colour] = (238, 240, 244)
WOOD: Final[Colour] = (150, 104, 58)
SHEET_TINT: Final = (170, 205, 255, 14)
SHEET_EDGE: Final = (90, 120, 170, 150)
PEN: Final = ("#202020", 10)
"""The marker's colour and width (sheet units) on the table's drawing area."""

# (dx, dy) of each sheet in thousandths of the easel's width: sheets are laid by hand,
# never exactly on top of each other, which is what makes the stack read as a stack.
_OFFSETS: Final = ((0, 0), (4, -3), (-3, 4), (5, 3), (-4, -4), (2, 5), (-5, 1), (3, -5))

_TEXTS: Final[dict[str, dict[str, str | dict[str, str]]]] = {
    "en": {
        "round": "Round {round}",
        "critic": "Art Critic",
        "choose": "{name}, name a number from 1 to 6",
        "choose_hint": "The Artists' phones show the card; the Critic must not see it.",
        "choose_again": "An Artist asked for another number.",
        "draw": "{name} draws sheet {n}",
        "draw_panel": "{name} draws on the table",
        "draw_here": "Draw here on the table",
        "draw_hint": "2 straight lines or 1 curve; no comments from the other Artists.",
        "paper_done": "Drawn on paper",
        "other_number": "Another number",
        "paper_hint": "{name}: draw 2 straight lines or 1 curve on a sheet at the table, "
                      "then press “Drawn on paper”.",
        "paper_sheet": "Sheet {n}: {name} drew on paper. Hold it up for the Critic.",
        "vote": "Accept {name}'s sheet anyway?",
        "vote_hint": "The Artists vote on their phones ({n} voted).",
        "guess": "{name} guesses",
        "last_chance": "Last chance! {name} guesses",
        "guessed": "Guessed: “{word}”",
        "given_up": "Given up: “{word}”",
        "not_guessed": "Not guessed: “{word}”",
        "burned": "One more sheet goes back to the box.",
        "next_round": "Next round",
        "over": "{n} words guessed",
        "sheets": "Sheets",
        "guesses_left": "Guesses on this sheet",
        "words": {"one": "{n} word guessed", "other": "{n} words guessed"},
        "order": "Artists in turn",
        "word_again": "word",
        "typed": "{name} typed: “{text}”",
        "mark_hint": "An Artist marks the guess:",
        "right": "Right!",
        "wrong": "Wrong",
        "undo": "Undo",
        "place": "Place the sheet",
        "ask_table": "Ask the Artists",
        "to_phone": "Use my phone",
        "give_up": "Give up this word?",
        "give_up_hint": "Everyone must agree. Tap your name or agree on your phone.",
        "play_on": "No, play on",
        "agreed": "agreed",
        "art_show": "Art show",
        "result_guessed": "guessed",
        "result_given_up": "given up",
        "result_unfinished": "not guessed",
        "empty_easel": "The easel is empty: the first sheet goes on it.",
    },
    "cs": {
        "round": "Kolo {round}",
        "critic": "Kritik umění",
        "choose": "{name}, řekni číslo od 1 do 6",
        "choose_hint": "Telefony umělců ukazují kartu; kritik ji nesmí vidět.",
        "choose_again": "Umělec požádal o jiné číslo.",
        "draw": "{name} kreslí {n}. fólii",
        "draw_panel": "{name} kreslí na stole",
        "draw_here": "Kreslit tady na stole",
        "paper_done": "Nakresleno na papír",
        "other_number": "Jiné číslo",
        "paper_hint": "{name}: nakresli na fólii u stolu 2 rovné čáry nebo 1 křivku, "
                      "pak stiskni „Nakresleno na papír“.",
        "paper_sheet": "Fólie {n}: {name} kreslí na papír. Ukaž ji Kritikovi.",
        "draw_hint": "2 rovné čáry nebo 1 křivka; ostatní umělci nic neradí.",
        "vote": "Fólie – {name}: přesto přijmout?",
        "vote_hint": "Umělci hlasují na telefonech (hlasovalo: {n}).",
        "guess": "{name} hádá",
        "last_chance": "Poslední šance! {name} hádá",
        "guessed": "Uhodnuto: „{word}“",
        "given_up": "Vzdáno: „{word}“",
        "not_guessed": "Neuhodnuto: „{word}“",
        "burned": "Jedna fólie navíc se vrací do krabice.",
        "next_round": "Další kolo",
        "over": "Uhodnutá slova: {n}",
        "sheets": "Fólie",
        "guesses_left": "Pokusy na této fólii",
        "words": {
            "one": "{n} uhodnuté slovo",
            "few": "{n} uhodnutá slova",
            "other": "{n} uhodnutých slov",
        },
        "order": "Pořadí umělců",
        "word_again": "slovo",
        "typed": "Psaný tip – {name}: „{text}“",
        "mark_hint": "Umělec označí pokus:",
        "right": "Správně!",
        "wrong": "Špatně",
        "undo": "Zpět",
        "place": "Položit fólii",
        "ask_table": "Zeptat se umělců",
        "to_phone": "Na telefon",
        "give_up": "Vzdát toto slovo?",
        "give_up_hint": "Souhlasit musí všichni. Ťukni na své jméno nebo souhlas na telefonu.",
        "play_on": "Ne, hrajeme dál",
        "agreed": "souhlasí",
        "art_show": "Výstava",
        "result_guessed": "uhodnuto",
        "result_given_up": "vzdáno",
        "result_unfinished": "neuhodnuto",
        "empty_easel": "Stojan je prázdný: první fólie přijde sem.",
    },
}


def tx(lang: str, key: str, n: int | None = None, **fields: object) -> str:
    """A sentence of this screen in `lang` (English for anything missing)."""
    entry = _TEXTS.get(lang, _TEXTS["en"]).get(key, _TEXTS["en"][key])
    if isinstance(entry, dict):
        count = 0 if n is None else n
        template = entry.get(plural_form(lang, count), entry["other"])
        return template.format(n=count, **fields)
    return entry.format(n=n, **fields)


# --- reading the view --------------------------------------------------------------------


@dataclass
class Table(SeatTable):
    """The parts of a Broad Lines view that every phase needs, read defensively once."""

    critic: int | None
    artist: int | None
    artists: list[int]
    easel: list[list[Any]] = field(default_factory=list)
    paper: list[tuple[int, int]] = field(default_factory=list)  # (sheet number, Artist)
    kiosk: set[int] = field(default_factory=set)  # seats with no phone, at the kiosk

    @classmethod
    def of(cls, f: Frame) -> Table:
        state = state_of(f)
        sheets = [as_map(s) for s in as_list(state.get("easel"))]
        easel = [as_list(s.get("strokes")) for s in sheets]
        paper = [(k + 1, seat) for k, s in enumerate(sheets)
                 if s.get("paper") is True and (seat := as_int(s.get("artist"))) is not None]
        return cls(
            lang=f.lang,
            state=state,
            phase=phase_of(state),
            players=players_of(f.view),
            critic=as_int(state.get("critic")),
            artist=as_int(state.get("artist")),
            artists=seat_list(state.get("artists")),
            easel=easel,
            paper=paper,
            kiosk=set(seat_list(as_map(f.view.get("seat_pad")).get("kiosk_seats"))),
        )

    def word(self, value: object) -> str:
        return localised(value, self.lang, any_language=True)


# --- the stack of transparent sheets, painted once -------------------------------------------


class StackCache:
    """Easels (stacks of sheets) painted into one opaque surface per key and size.

    Sheets only ever go on top: the stack of n sheets is the stack of n - 1 (when still
    cached) plus one new layer, so placing the 25th sheet paints one sheet, not 25. The
    stack of n - 1 is then let go: it is not shown again, and keeping every step of a
    growing easel held a full-size board per sheet (~4.9 MB each at 1080p, a 25-sheet
    round 120 MB). The cache is bounded by bytes too; one frame needs one easel, or the
    art show's small boards."""

    def __init__(self, max_entries: int = 48, max_bytes: int = 16 * 2**20) -> None:
        self._stacks: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        self._max = max_entries
        self._max_bytes = max_bytes
        self.bytes = 0  # pixel bytes held
        self.painted = 0  # layers painted

    def stack(
        self, key: Hashable, sheets: Sequence[Sequence[Any]], size: tuple[int, int]
    ) -> pygame.Surface:
        """The stack of `sheets` named `key` (the same key for a growing stack)."""
        full = (key, len(sheets), size)
        surf = self._stacks.get(full)
        if surf is not None:
            self._stacks.move_to_end(full)
            return surf
        below = self._stacks.pop((key, len(sheets) - 1, size), None) if sheets else None
        if below is not None:
            # Laid in place: the stack below goes anyway, so no board-sized copy.
            self.bytes -= _bytes(below)
            surf = below
            lay_sheet(surf, len(sheets) - 1, sheets[-1])
            self.painted += 1
        else:
            surf = paint_stack(sheets, size)
            self.painted += len(sheets)
        self._stacks[full] = surf
        self.bytes += _bytes(surf)
        while len(self._stacks) > 1 and (
            len(self._stacks) > self._max or self.bytes > self._max_bytes
        ):
            _, old = self._stacks.popitem(last=False)
            self.bytes -= _bytes(old)
        return surf

    def __len__(self) -> int:
        return len(self._stacks)


def _bytes(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()


def sheet_layer(strokes: Sequence[Any], size: tuple[int, int]) -> pygame.Surface:
    """One transparent sheet: a faint tint, its edge, and its strokes (smoothed)."""
    w, h = size
    ink = pygame.Surface((w * SUPERSAMPLE, h * SUPERSAMPLE), pygame.SRCALPHA)
    draw_strokes(ink, list(strokes))
    layer = pygame.Surface((w, h), pygame.SRCALPHA)
    layer.fill(SHEET_TINT)
    pygame.draw.rect(layer, SHEET_EDGE, layer.get_rect(), max(1, w // 400))
    layer.blit(pygame.transform.smoothscale(ink, (w, h)), (0, 0))
    return layer


def paint_stack(sheets: Sequence[Sequence[Any]], size: tuple[int, int]) -> pygame.Surface:
    """The easel's board with every sheet laid on it in order."""
    w, h = max(1, size[0]), max(1, size[1])
    board = pygame.Surface((w, h))
    board.fill(BOARD)
    if pygame.display.get_surface() is not None:
        board = board.convert()
    for k, strokes in enumerate(sheets):
        lay_sheet(board, k, strokes)
    return board


def lay_sheet(board: pygame.Surface, k: int, strokes: Sequence[Any]) -> None:
    """The k-th sheet (0-based) laid on `board`. The sheets are a little smaller than the
    board, so their offsets and edges show."""
    w, h = board.get_size()
    inset = max(2, w // 60)
    dx, dy = _OFFSETS[k % len(_OFFSETS)]
    board.blit(
        sheet_layer(strokes, (w - 2 * inset, h - 2 * inset)),
        (inset + round(dx * w / 1000), inset + round(dy * w / 1000)),
    )


@dataclass
class BroadLinesCaches:
    stacks: StackCache = field(default_factory=StackCache)
    sheets: StrokeCache = field(default_factory=StrokeCache)


_CACHES: PerRenderer[BroadLinesCaches] = PerRenderer(BroadLinesCaches)


def caches_of(r: KioskRenderer) -> BroadLinesCaches:
    """The Broad Lines caches of one renderer (a test's fresh renderer starts cold)."""
    return _CACHES.of(r)


def draw_easel(
    r: KioskRenderer,
    f: Frame,
    sheets: Sequence[Sequence[Any]],
    box: pygame.Rect,
    round_no: int | None,
    legs: bool = True,
) -> pygame.Rect:
    """An easel with `sheets` stacked on its board, fitted into `box`; returns the board."""
    s = f.surface
    leg_h = box.h // 9 if legs else 0
    board = sheet_rect(pygame.Rect(box.left, box.top, box.w, box.h - leg_h))
    if legs:
        post = max(3, board.w // 70)
        foot = board.bottom + leg_h
        for x0, x1 in ((board.left + board.w // 5, board.left + board.w // 12),
                       (board.right - board.w // 5, board.right - board.w // 12)):
            pygame.draw.line(s, WOOD, (x0, board.bottom), (x1, foot), post)
        pygame.draw.line(s, WOOD, (board.centerx, board.bottom), (board.centerx, foot), post)
        ledge = pygame.Rect(board.left - post, board.bottom, board.w + 2 * post, post * 2)
        pygame.draw.rect(s, WOOD, ledge, border_radius=post)
    key = sheet_key(f, GAME_ID, round_no, None, 0)  # the stack's count is the cache's
    s.blit(caches_of(r).stacks.stack(key, sheets, board.size), board)
    if not sheets:
        r.blit_text(s, tx(f.lang, "empty_easel"), f.metrics.f_small, MUTED, "center",
                    board.center, False, board.w - 2 * f.metrics.gap)
    return board


# --- small drawing helpers -------------------------------------------------------------------


def button(
    r: KioskRenderer,
    f: Frame,
    label: str,
    pos: tuple[int, int],
    fill: Colour,
    anchor: str = "topleft",
    width: int | None = None,
) -> pygame.Rect:
    """A rounded button (the caller adds its target); returns its rect."""
    m = f.metrics
    # In a given width its words shrink to the screen's floor before they are cut.
    size = m.f_body if width is None else r.fit_size(label, m.f_body, max(1, width - m.pad),
                                                     True, min_size=r.min_text)
    text = r.text(label, size, ink_on(fill), True, None if width is None else width - m.pad)
    # A finger high (Metrics.target) however small its words: the 7-inch panel's were 31 px.
    rect = pygame.Rect(0, 0, (width or text.get_width() + 2 * m.pad),
                       max(m.target, text.get_height() + m.pad))
    setattr(rect, anchor, pos)
    pygame.draw.rect(f.surface, fill, rect, border_radius=m.radius)
    f.surface.blit(text, text.get_rect(center=rect.center))
    return rect


def number_tile(r: KioskRenderer, f: Frame, n: int, box: pygame.Rect, usable: bool) -> None:
    fill = GOLD if usable else blend(PANEL, MUTED, 0.15)
    pygame.draw.rect(f.surface, fill, box, border_radius=f.metrics.radius)
    ink = ON_ACCENT if usable else MUTED
    r.blit_text(f.surface, str(n), max(12, round(box.h * 0.6)), ink, "center", box.center, True)


# --- the screen -----------------------------------------------------------------------------


def broad_lines_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one Broad Lines frame (GAME_SCREENS["broad-lines"])."""
    m = f.metrics
    table = Table.of(f)
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    header = _draw_header(r, f, table, area)
    top = header.bottom + m.gap
    body = pygame.Rect(area.left, top, area.w, area.bottom - top)
    if body.h < 40 or body.w < 80:
        return
    if table.phase == "over":
        _draw_art_show(r, f, table, body)
        return
    if m.portrait:
        side_h = body.h // 3
        main = pygame.Rect(body.left, body.top, body.w, body.h - side_h - m.gap)
        side = pygame.Rect(body.left, main.bottom + m.gap, body.w, side_h)
    else:
        side_w = max(round(body.w * 0.27), min(body.w // 3, round(320 * m.scale)))
        main = pygame.Rect(body.left, body.top, body.w - side_w - m.gap, body.h)
        side = pygame.Rect(main.right + m.gap, body.top, side_w, body.h)
    draw = {
        "choose": _draw_choose,
        "drawing": _draw_drawing,
        "vote": _draw_easel_phase,
        "guessing": _draw_easel_phase,
        "reveal": _draw_easel_phase,
    }.get(table.phase)
    if draw is not None:
        draw(r, f, table, main)
    _draw_side(r, f, table, side)


def _title(table: Table) -> str:
    lang, state = table.lang, table.state
    critic, artist = table.name(table.critic), table.name(table.artist)
    if table.phase == "choose":
        return tx(lang, "choose", name=critic)
    if table.phase == "drawing":
        if state.get("panel"):
            return tx(lang, "draw_panel", name=artist)
        return tx(lang, "draw", name=artist, n=len(table.easel) + 1)
    if table.phase == "vote":
        return tx(lang, "vote", name=artist)
    if table.phase == "guessing":
        return tx(lang, "last_chance" if state.get("last_chance") else "guess", name=critic)
    word = table.word(state.get("word"))
    if table.phase == "reveal":
        key = {"guessed": "guessed", "given_up": "given_up"}.get(
            str(state.get("result")), "not_guessed"
        )
        return tx(lang, key, word=word)
    if table.phase == "over":
        rating = as_map(state.get("rating"))
        return localised(rating, lang) or tx(lang, "over", n=as_int(state.get("score"), 0))
    return ""


def _draw_header(r: KioskRenderer, f: Frame, table: Table, area: pygame.Rect) -> pygame.Rect:
    m, s, lang = f.metrics, f.surface, f.lang
    match = as_map(f.view.get("match"))
    right = area.right
    if table.critic is not None and table.phase != "over":
        right = captioned_chip(r, f, tx(lang, "critic"), table, table.critic, right, area)
    width = max(1, right - area.left)
    sub = str(match.get("title") or "Broad Lines")
    round_no = as_int(table.state.get("round"))
    if round_no is not None and table.phase != "over":
        sub = f"{sub} · {tx(lang, 'round', round=round_no)}"
    if table.phase == "over":  # a team's result, then the rules' rating of it
        sub = f"{sub} · {tr(lang, 'together', n=as_int(table.state.get('score'), 0) or 0)}"
    small = r.blit_text(s, sub, m.f_small, MUTED, "topleft", area.topleft, True, width)
    title = _title(table)
    too_wide = r.fonts.font(m.f_body, True).size(title)[0] > width  # on two lines then
    if table.phase == "over" or too_wide:
        size, lines = fit_wrapped(r, title, m.f_head, width, 2 * r.line(m.f_head, True), True)
        colour = GOLD if table.phase == "over" else TEXT
        box = draw_lines(r, s, lines, size, colour, (area.left, small.bottom), width, True)
        return pygame.Rect(area.left, area.top, area.w, box.bottom - area.top)
    # Smaller down to the body's type before it is cut: "name a number from 1 to 6" is
    # the instruction (an upright screen and a long name did not fit it at the head's).
    size = r.fit_size(title, m.f_title, width, bold=True, min_size=m.f_body)
    big = r.blit_text(s, title, size, TEXT, "topleft", (area.left, small.bottom), True, width)
    bottom = max(big.bottom, area.top + 2 * r.line(m.f_small) + r.line(m.f_body))
    return pygame.Rect(area.left, area.top, area.w, bottom - area.top)


def _draw_choose(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang = f.metrics, f.lang
    refused = set(seat_list(table.state.get("refused")))
    gap = m.gap
    side = min((rect.w - 5 * gap) // 6, rect.h // 3)
    x0 = rect.centerx - (6 * side + 5 * gap) // 2
    y0 = rect.top + (rect.h - side) // 3
    for n in range(1, 7):
        box = pygame.Rect(x0 + (n - 1) * (side + gap), y0, side, side)
        usable = n not in refused
        number_tile(r, f, n, box, usable)
        if usable and table.critic is not None:
            r.add_target(box, ActAs(table.critic, "name_number", {"number": n}),
                         first=r.first_focus is None)
    y = y0 + side + gap
    if refused:
        y = r.blit_text(f.surface, tx(lang, "choose_again"), m.f_body, GOLD, "midtop",
                        (rect.centerx, y), True, rect.w).bottom
    r.blit_text(f.surface, tx(lang, "choose_hint"), m.f_small, MUTED, "midtop",
                (rect.centerx, y + gap // 2), False, rect.w)


def _draw_drawing(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    if not table.state.get("panel") or table.artist is None:
        _draw_easel_phase(r, f, table, rect)
        return
    # The Artist draws here: the easel is hidden, a blank sheet takes its place.
    m, s, lang, artist = f.metrics, f.surface, f.lang, table.artist
    # Wide enough for its buttons' words at the screen's floor ("Ask the Artists" was cut
    # at 800x480): the sheet gives up the rest, up to half the width.
    words = max(r.fonts.font(r.min_text, True).size(tx(lang, key))[0]
                for key in ("place", "ask_table", "undo", "to_phone"))
    buttons_w = min(rect.w // 2, max(min(rect.w // 3, round(360 * m.scale)), words + 2 * m.pad))
    sheet = sheet_rect(pygame.Rect(rect.left, rect.top, rect.w - buttons_w - m.gap, rect.h))
    drawing = as_list(table.state.get("drawing"))
    s.blit(caches_of(r).sheets.sheet(drawing, sheet.size, PAPER), sheet)
    pygame.draw.rect(s, table.colour(artist), sheet.inflate(6, 6), 3, border_radius=4)
    r.add_canvas(sheet, CanvasSpec(seat=artist, kind="stroke", colour=PEN[0], width=PEN[1]))
    x = sheet.right + m.gap
    y = sheet.top
    check = as_map(table.state.get("check"))
    checking = bool(table.state.get("check_sheets"))
    legal = bool(check.get("legal")) if checking else bool(drawing)
    actions: list[tuple[str, str, dict[str, Any], Colour, bool]] = [
        ("place", "place", {}, YES, bool(drawing) and legal),
        ("ask_table", "accept_vote", {"accept": True}, GOLD,
         checking and bool(drawing) and not legal),
        ("undo", "undo", {}, PANEL_EDGE, bool(drawing)),
        ("to_phone", "use_panel", {"on": False}, PANEL_EDGE, True),
    ]
    for key, kind, data, fill, shown in actions:
        if not shown:
            continue
        rect_b = button(r, f, tx(lang, key), (x, y), fill, width=buttons_w)
        # The first focus: Place the sheet, else Ask the table (the first shown).
        r.add_target(rect_b, ActAs(artist, kind, data),
                     first=r.first_focus is None and kind in ("place", "accept_vote"))
        y = rect_b.bottom + m.gap // 2
    reason = localised({"en": check.get("reason_en"), "cs": check.get("reason_cs")}, lang)
    if checking and reason:
        size, lines = fit_wrapped(r, reason, m.f_body, buttons_w, rect.bottom - y - m.gap)
        draw_lines(r, s, lines, size, YES if legal else NO, (x, y + m.gap // 2), buttons_w)
        y += m.gap + len(lines) * r.line(size)
    # The rule, whole: under the buttons, else under the sheet (at 800x480 the buttons, a
    # finger high each, fill the column and "no comments from the ot…" was cut there).
    hint = tx(lang, "draw_hint")
    beside = wrap(r, hint, m.f_small, buttons_w)
    below = wrap(r, hint, m.f_small, sheet.w)
    if len(beside) * r.line(m.f_small) > rect.bottom - y - m.gap // 2 and (
            len(below) * r.line(m.f_small) <= rect.bottom - sheet.bottom - m.gap):
        draw_lines(r, s, below, m.f_small, MUTED, (sheet.left, sheet.bottom + m.gap // 2 + 3),
                   sheet.w)
        return
    size, lines = fit_wrapped(r, hint, m.f_small, buttons_w, max(0, rect.bottom - y))
    draw_lines(r, s, lines, size, MUTED, (x, y + m.gap // 2), buttons_w)


def _draw_paper_cards(r: KioskRenderer, f: Frame, table: Table, board: pygame.Rect) -> None:
    """A card on the easel for each sheet drawn on paper: the box has no lines of it."""
    m = f.metrics
    y = board.top + m.gap
    width = board.w - 2 * m.gap
    for n, seat in table.paper:
        # Wrapped, two lines at most: at 800x480 "Hold it up for the Critic" is the point.
        label = tx(f.lang, "paper_sheet", n=n, name=table.name(seat))
        pad = max(6, m.f_body // 2)
        size, lines = fit_wrapped(r, label, m.f_body, width - 2 * pad,
                                  2 * r.line(m.f_body, True), True)
        card = pygame.Rect(board.left + m.gap, y, width,
                           len(lines) * r.line(size, True) + pad)
        if card.bottom > board.bottom - m.gap:
            break
        fill = table.colour(seat)
        pygame.draw.rect(f.surface, fill, card, border_radius=min(card.h // 2, m.radius))
        draw_lines(r, f.surface, lines, size, ink_on(fill),
                   (card.left + pad, card.top + pad // 2), width - 2 * pad, True)
        y = card.bottom + m.gap // 2


def _board_note(r: KioskRenderer, f: Frame, board: pygame.Rect, text: str) -> None:
    """`text` on a band across the bottom of the easel's board (the strip under it has
    no room for a sentence beside two buttons at 800x480)."""
    m = f.metrics
    width = board.w - 4 * m.gap
    # Three lines at most: what to draw and which button then, in Czech too.
    size, lines = fit_wrapped(r, text, m.f_body, width, 3 * r.line(m.f_body, True), True)
    band_h = len(lines) * r.line(size, True) + 2 * m.gap
    band = pygame.Rect(board.left + m.gap, board.bottom - m.gap - band_h, board.w - 2 * m.gap,
                       band_h)
    pygame.draw.rect(f.surface, PANEL, band, border_radius=m.radius)
    draw_lines(r, f.surface, lines, size, TEXT, (band.left + m.gap, band.top + m.gap), width,
               True)


def _draw_easel_phase(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    """The easel, with what the phase asks of the table beneath it."""
    m, s, lang, state = f.metrics, f.surface, f.lang, table.state
    strip_h = max(m.target, r.line(m.f_body, True) + m.pad) + m.gap  # buttons a finger high
    easel_box = pygame.Rect(rect.left, rect.top, rect.w, rect.h - strip_h)
    board = draw_easel(r, f, table.easel, easel_box, as_int(state.get("round")))
    _draw_paper_cards(r, f, table, board)
    y = rect.bottom - strip_h + m.gap
    x = board.left
    if table.phase == "drawing" and table.artist is not None:
        hint = tx(lang, "draw_hint")
        if table.artist in table.kiosk:
            # No phone, maybe no touch either: a sheet at the table, then this button.
            paper = button(r, f, tx(lang, "paper_done"), (x, y), YES)
            r.add_target(paper, ActAs(table.artist, "place_paper", {}), first=True)
            x = paper.right + m.gap
            _board_note(r, f, board, tx(lang, "paper_hint", name=table.name(table.artist)))
            hint = ""  # the note on the board says the rule
        # Only what works: on a screen that takes no touch nobody draws on it.
        b = pygame.Rect(x - m.gap, y, 0, max(m.target, r.line(m.f_body, True) + m.pad))
        if r.touch:
            b = button(r, f, tx(lang, "draw_here"), (x, y), GOLD)
            r.add_target(b, ActAs(table.artist, "use_panel", {"on": True}),
                         first=table.artist not in table.kiosk)
        # An Artist without a phone who does not know the word asks for another number
        # (before the first sheet, as the phones offer it); the kiosk speaks for them.
        asker = next((s for s in sorted(table.kiosk) if s != table.critic), None)
        if asker is not None and not table.easel:
            label = tx(lang, "other_number")
            wide = r.fonts.font(m.f_body, True).size(label)[0] + 2 * m.pad
            # The rule's hint beside the buttons keeps a readable width.
            keep = 8 * m.f_small if hint else 0
            if b.right + m.gap + wide + keep <= board.right:  # in the strip, after the others
                b = button(r, f, label, (b.right + m.gap, y), PANEL_EDGE)
                r.add_target(b, ActAs(asker, "ask_other", {}), first=r.first_focus is None)
            else:  # no room there (the 7-inch panel): on the empty easel's top right
                other = button(r, f, label, (board.right - m.gap, board.top + m.gap),
                               PANEL_EDGE, "topright")
                r.add_target(other, ActAs(asker, "ask_other", {}), first=r.first_focus is None)
        # Beside the button, on as many lines as the strip holds (three beside the 7-inch
        # panel's finger-high button): the rule, not a cut rule.
        room = max(1, rect.right - b.right - m.gap)
        if hint:
            size, lines = fit_wrapped(r, hint, m.f_small, room,
                                      max(2 * r.line(m.f_small),
                                          min(3 * r.line(m.f_small), strip_h + m.gap)))
            top = b.centery - len(lines) * r.line(size) // 2
            draw_lines(r, s, lines, size, MUTED, (b.right + m.gap, top), room)
    elif table.phase == "vote":
        voted = len(as_list(state.get("votes")))
        r.blit_text(s, tx(lang, "vote_hint", n=voted), m.f_body, MUTED, "topleft", (x, y),
                    False, rect.w)
    elif table.phase == "guessing":
        _draw_marking(r, f, table, pygame.Rect(x, y, rect.right - x, strip_h - m.gap))
    elif table.phase == "reveal":
        b = button(r, f, tx(lang, "next_round"), (x, y), GOLD)
        r.add_target(b, PressButton("reveal"))
        if state.get("burned"):
            r.blit_text(s, tx(lang, "burned"), m.f_small, MUTED, "midleft",
                        (b.right + m.gap, b.centery), False, max(1, rect.right - b.right))


def _draw_marking(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    """Right / wrong for the Critic's guess, acting as the Artist of the last sheet."""
    m, s, lang, state = f.metrics, f.surface, f.lang, table.state
    marker = as_int(state.get("last_artist"))
    x = rect.left
    guesses = as_list(state.get("guesses"))
    last = as_map(guesses[-1]) if guesses else {}
    if state.get("pending") and last.get("text"):
        label = tx(lang, "typed", name=table.name(table.critic), text=str(last.get("text")))
    else:
        label = tx(lang, "mark_hint")
    if marker is None:
        return
    right = button(r, f, tx(lang, "right"), (x, rect.top), YES)
    wrong = button(r, f, tx(lang, "wrong"), (right.right + m.gap // 2, rect.top), NO)
    r.add_target(right, ActAs(marker, "mark", {"right": True}), first=True)
    r.add_target(wrong, ActAs(marker, "mark", {"right": False}))
    r.blit_text(s, label, m.f_body, TEXT, "midleft", (wrong.right + m.gap, wrong.centery),
                False, max(1, rect.right - wrong.right - m.gap))


def _draw_side(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, s, lang, state = f.metrics, f.surface, f.lang, table.state
    pygame.draw.rect(s, PANEL, rect, border_radius=m.radius)
    r.add_panel(rect, "sidebar")
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    y = inner.top
    # Sheets used of the box's total: a count and a grid of small sheets.
    used = as_int(state.get("sheets_used"), 0) or 0
    total = max(1, as_int(state.get("sheets_total"), 25) or 25)
    head = r.blit_text(s, tx(lang, "sheets"), m.f_small, MUTED, "topleft", (inner.left, y))
    r.blit_text(s, f"{used} / {total}", m.f_head, TEXT, "topright", (inner.right, y), True)
    y = head.bottom + r.line(m.f_head, True) - r.line(m.f_small)
    cols = 10 if total > 25 else 5
    rows = math.ceil(total / cols)
    cell_w = (inner.w - (cols - 1) * 4) // cols
    cell_h = max(4, min(round(cell_w / 1.6), (inner.h // 4) // max(1, rows) - 4))
    for i in range(total):
        cell = pygame.Rect(inner.left + (i % cols) * (cell_w + 4), y + (i // cols) * (cell_h + 4),
                           cell_w, cell_h)
        if i < used:
            pygame.draw.rect(s, blend(PANEL, (170, 205, 255), 0.7), cell, border_radius=3)
        else:
            pygame.draw.rect(s, PANEL_EDGE, cell, 1, border_radius=3)
    y += rows * (cell_h + 4) + m.gap
    # Guesses left on the newest sheet.
    if table.phase == "guessing":
        left = as_int(state.get("guesses_left"), 0) or 0
        label = r.blit_text(s, tx(lang, "guesses_left"), m.f_small, MUTED, "topleft",
                            (inner.left, y), False, inner.w)
        radius = max(6, r.line(m.f_body) // 2)
        for k in range(2):
            centre = (inner.left + radius + k * (2 * radius + m.gap // 2),
                      label.bottom + radius + 4)
            if k < left:
                pygame.draw.circle(s, GOLD, centre, radius)
            else:
                pygame.draw.circle(s, PANEL_EDGE, centre, radius, 2)
        y = label.bottom + 2 * radius + m.gap
    # Words guessed so far.
    words = [table.word(w) for w in as_list(state.get("guessed_words"))]
    count = tx(lang, "words", n=len(words))
    line = r.blit_text(s, count, m.f_body, YES if words else MUTED, "topleft", (inner.left, y),
                       True, inner.w)
    y = line.bottom
    if words:
        # Newest first: what no longer fits is the oldest, and the ellipsis says so.
        text = ", ".join(reversed(words))
        size, lines = fit_wrapped(r, text, m.f_small, inner.w, 2 * r.line(m.f_small))
        y = draw_lines(r, s, lines[:2], size, MUTED, (inner.left, y), inner.w).bottom
    y += m.gap
    # The Artists in turn, the one drawing marked.
    if y + 2 * r.line(m.f_small) < inner.bottom:
        y = r.blit_text(s, tx(lang, "order"), m.f_small, MUTED, "topleft", (inner.left, y),
                        False, inner.w).bottom + 4
        chips_bottom = _draw_order(r, f, table, pygame.Rect(inner.left, y, inner.w,
                                                             inner.bottom - y))
        y = chips_bottom + m.gap
    hint = as_map(state.get("hint"))
    if hint and y + r.line(m.f_body, True) < inner.bottom:
        text = f"{localised(hint, lang)} — {table.name(as_int(hint.get('seat')))}"
        # The pill pads its words: they get the panel's width less that, so it ends inside.
        room = max(1, inner.w - 2 * max(6, m.f_body // 2))
        y = pill(r, s, text, m.f_body, GOLD, "topleft", (inner.left, y), True, room).bottom
        y += m.gap
    give_up = as_map(state.get("give_up"))
    if give_up:
        _draw_give_up(r, f, table, give_up, rect)


def _draw_order(r: KioskRenderer, f: Frame, table: Table, box: pygame.Rect) -> int:
    m, s = f.metrics, f.surface
    x, y = box.left, box.top
    bottom = y
    # Artists at the kiosk may see the word again (the Critic looks away again).
    kiosk: set[int] = set()
    if table.phase in ("drawing", "vote", "guessing") and table.state.get("number"):
        kiosk = set(seat_list(as_map(f.view.get("seat_pad")).get("kiosk_seats")))
    for seat in table.artists:
        turn = seat == table.artist
        fill = table.colour(seat) if turn else blend(table.colour(seat), PANEL, 0.55)
        label = table.name(seat)
        if seat in kiosk:
            label = f"{label} · {tx(f.lang, 'word_again')}"
        # A seat at the kiosk taps its chip for another word: a finger high.
        tall = m.target if seat in kiosk else 0
        # Tried within the box only: a chip that does not fit is wiped with the panel's
        # colour, which outside the panel left a sliver on the frame's background.
        clip = s.get_clip()
        s.set_clip(box.clip(clip))
        chip = pill(r, s, label, m.f_small, fill, "topleft", (x, y), turn, box.w, tall)
        if chip.right > box.right and x > box.left:
            pygame.draw.rect(s, PANEL, chip)
        s.set_clip(clip)
        if chip.right > box.right and x > box.left:
            if chip.bottom + 4 + chip.h > box.bottom:
                # No room for another row: say how many more there are.
                more = len(table.artists) - table.artists.index(seat)
                pill(r, s, f"+{more}", m.f_small, PANEL_EDGE, "topleft", (x, y), True,
                     max(1, box.right - x - 2 * m.f_small))
                break
            x, y = box.left, chip.bottom + 4
            chip = pill(r, s, label, m.f_small, fill, "topleft", (x, y), turn, box.w, tall)
        if seat in kiosk:
            r.add_target(chip, SeatPadKey("word_again", str(seat)))
        x = chip.right + 6
        bottom = chip.bottom
    return bottom


def _draw_give_up(
    r: KioskRenderer, f: Frame, table: Table, give_up: Mapping[str, Any], rect: pygame.Rect
) -> None:
    """The proposal to give up, over the side panel: who agreed, a button per player who
    has not, and "play on" (the table's own no)."""
    m, s, lang = f.metrics, f.surface, f.lang
    r.drop_targets_in(rect)  # an artist's "another word" chip under it is hidden
    pygame.draw.rect(s, blend(PANEL, GOLD, 0.12), rect, border_radius=m.radius)
    pygame.draw.rect(s, GOLD, rect, 3, border_radius=m.radius)
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    y = r.blit_text(s, tx(lang, "give_up"), m.f_head, TEXT, "topleft", inner.topleft, True,
                    inner.w).bottom
    size, lines = fit_wrapped(r, tx(lang, "give_up_hint"), m.f_small, inner.w,
                              4 * r.line(m.f_small))  # four: the Czech sentence is longer
    y = draw_lines(r, s, lines, size, MUTED, (inner.left, y), inner.w).bottom + m.gap
    agreed = set(seat_list(give_up.get("agreed")))
    # Every player's button a finger high, in columns when one does not hold them all.
    seats = sorted(table.players)
    step = max(m.target, r.line(m.f_body, True) + m.pad) + m.gap // 3
    fits = max(0, (inner.bottom - step - y) // step)
    cols = min(3, -(-len(seats) // max(1, fits)))
    col_w = (inner.w - (cols - 1) * (m.gap // 2)) // cols
    shown = seats[: fits * cols]
    r.note_dropped("give-up buttons", len(shown), len(seats))
    for i, seat in enumerate(shown):
        done = seat in agreed
        fill = table.colour(seat) if not done else blend(table.colour(seat), PANEL, 0.5)
        label = table.name(seat) + (f" · {tx(lang, 'agreed')}" if done else "")
        at = (inner.left + (i % cols) * (col_w + m.gap // 2), y + (i // cols) * step)
        b = button(r, f, label, at, fill, width=col_w)
        if not done:
            r.add_target(b, ActAs(seat, "agree_give_up"))
    b = button(r, f, tx(lang, "play_on"), (inner.left, inner.bottom), PANEL_EDGE, "bottomleft",
               inner.w)
    r.add_target(b, ActAs(None, "refuse_give_up"), first=True)  # the safe choice


def _draw_art_show(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    """Every round's easel with its word, in a grid."""
    m, s, lang = f.metrics, f.surface, f.lang
    rounds = [as_map(x) for x in as_list(table.state.get("art_show"))]
    title = r.blit_text(s, tx(lang, "art_show"), m.f_body, MUTED, "topleft", rect.topleft, True)
    box = pygame.Rect(rect.left, title.bottom + m.gap // 2, rect.w,
                      rect.bottom - title.bottom - m.gap // 2)
    if not rounds:
        return
    label_h = r.line(m.f_small, True) + r.line(m.f_small)
    cols, _rows, cell_w = _grid(len(rounds), box, label_h, m)
    cell_h = round(cell_w / 1.6)
    for i, rnd in enumerate(rounds):
        x = box.left + (i % cols) * (cell_w + m.gap)
        y = box.top + (i // cols) * (cell_h + label_h + m.gap)
        sheets = [as_list(as_map(sh).get("strokes")) for sh in as_list(rnd.get("sheets"))]
        cell = pygame.Rect(x, y, cell_w, cell_h)
        board = sheet_rect(cell)
        key = sheet_key(f, GAME_ID, as_int(rnd.get("round")), -1, 0)
        s.blit(caches_of(r).stacks.stack(key, sheets, board.size), board)
        result = str(rnd.get("result") or "unfinished")
        colour = YES if result == "guessed" else MUTED
        word = quoted(lang, table.word(rnd.get("word")))
        r.blit_text(s, word, m.f_small, TEXT, "topleft", (x, board.bottom + 2), True, cell_w)
        note = f"{tx(lang, 'result_' + result)} · {len(sheets)}"
        r.blit_text(s, note, m.f_small, colour, "topleft",
                    (x, board.bottom + 2 + r.line(m.f_small, True)), False, cell_w)


def _grid(n: int, box: pygame.Rect, label_h: int, m: Metrics) -> tuple[int, int, int]:
    """The column count, row count and cell width that show `n` easels largest."""
    best = (1, n, 1)
    best_w = 0
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        by_w = (box.w - (cols - 1) * m.gap) // cols
        by_h = round(((box.h - (rows - 1) * m.gap) / rows - label_h) * 1.6)
        w = min(by_w, by_h)
        if w > best_w:
            best, best_w = (cols, rows, w), w
    return best[0], best[1], max(1, best_w)


GAME_SCREENS[GAME_ID] = broad_lines_screen
