"""ArtBox on the kiosk: the table's shared screen while the game runs.

Registered as GAME_SCREENS["artbox"]. It draws the public view (docs/artbox.md, "The
game's view") and nothing else: the round and the starting player; who has chosen a word
(never which); the four rolled shapes, big, as the printed game's cards of possible
shapes; who has finished and the order tokens they took (never a picture while it is
drawn); from matching on, every picture at its number 1..N with the words laid out
beside them and the hourglass; the owners, words, tokens and shape verdicts as the
starting player reveals them; a contested verdict's vote; the round's two points and the
scores (with the red and grey tokens in the advanced end).

Pictures are painted once into cached sheets (kiosk.strokes.StrokeCache, keyed by match,
round and number: a laid-out picture never changes), dice faces and cards through the
renderer's part cache, so a redraw of the matching frame is a fill and some blits. Taps
on the dice, the hourglass and the reveal button act as the table's DIE, HOURGLASS and
REVEAL buttons.

Like the rest of the kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import PressButton
from appliance.kiosk.kit import (
    GOLD,
    NO,
    SHADOW,
    YES,
    PerRenderer,
    Player,
    SeatTable,
    as_int,
    as_list,
    as_map,
    captioned_chip,
    centre_block,
    centred_lines,
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
    shadowed_sheet,
    sheet_grid,
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
    PANEL,
    PANEL_EDGE,
    TEXT,
    WARN,
    WHITE,
    Frame,
    KioskRenderer,
    Metrics,
    blend,
    finish_step,
    format_seconds,
    ink_on,
)
from appliance.kiosk.strokes import PAPER, StrokeCache, sheet_rect
from appliance.kiosk.text import add_texts, quoted, tr

GAME_ID: Final = "artbox"
SHAPES: Final = ("circle", "square", "triangle", "line")
RED_TOKEN: Final[Colour] = (229, 72, 77)
GREY_TOKEN: Final[Colour] = (154, 160, 168)
DIE_INK: Final[Colour] = (32, 32, 32)
DIE_EDGE: Final[Colour] = (205, 196, 220)
SUPERSAMPLE: Final = 3
"""Dice and tokens are drawn at three times their size and scaled down once (cached):
pygame's outlines are not antialiased, and these shapes are what the table reads."""

View = Mapping[str, Any]

# The kiosk's sentences for this game, English and Czech, added to the shared catalogues
# under "artbox." (kept here, beside the screen that says them).
STRINGS: Final[dict[str, dict[str, str | dict[str, str]]]] = {
    "en": {
        "artbox.round": "Round {n}",
        "artbox.goal": "first to {n} points",
        "artbox.goal_advanced": "advanced end",
        "artbox.starter": "Starting player",
        "artbox.title_choose": "Choose your word",
        "artbox.title_roll": "{name} rolls the shape dice",
        "artbox.title_create": "Draw with exactly these shapes",
        "artbox.title_match": "Which word is which picture?",
        "artbox.title_reveal": "Whose picture is it?",
        "artbox.title_points": "Points of round {n}",
        "artbox.title_over": "Game over",
        "artbox.scores": "Scores",
        "artbox.chose": "has chosen",
        "artbox.choosing": "choosing…",
        "artbox.rolls": "rolls the dice",
        "artbox.token_n": "finished · token {n}",
        "artbox.drawing": "drawing…",
        "artbox.guessed": "done guessing",
        "artbox.guessing": "guessing…",
        "artbox.on_trial": "under vote",
        "artbox.voted": "voted",
        "artbox.voting": "voting…",
        "artbox.correct": {"one": "{n} correct guess", "other": "{n} correct guesses"},
        "artbox.red_point_short": "+1 · most recognised",
        "artbox.grey_point_short": "+1 · most correct guesses",
        "artbox.choose_hint": "Everyone keeps one of their two word cards",
        "artbox.choose_secret": "Secretly, on your phone. The other card is discarded.",
        "artbox.chose_count": "{n} of {total} have chosen",
        "artbox.roll_hint": "Every picture must use exactly the four shapes rolled.",
        "artbox.roll_tap": "Tap the dice or press DIE",
        "artbox.shape.circle": "circle",
        "artbox.shape.square": "square",
        "artbox.shape.triangle": "triangle",
        "artbox.shape.line": "line",
        "artbox.create_rule": "Exactly these four, no more, no less. "
        "A rectangle counts as a square, an oval as a circle; lines are straight.",
        "artbox.finished_count": "Finished: {n} of {total}",
        "artbox.picture_n": "Picture {n}",
        "artbox.hourglass_running": "The sand is running!",
        "artbox.hourglass_tap": "The first player done turns the hourglass (or tap it here)",
        "artbox.done_count": "Done guessing: {n} of {total}",
        "artbox.words": "Words",
        "artbox.recognised": {"one": "guessed by {n}", "other": "guessed by {n}"},
        "artbox.vote_title": "Vote!",
        "artbox.by_vote": "by vote",
        "artbox.vote_question": "Does {name}'s picture break the shape rules?",
        "artbox.votes": "{n} of {total} voted",
        "artbox.vote_rule": "Everyone but the artist votes on their phone. "
        "A majority overrules the box; a tie leaves its verdict.",
        "artbox.revealed_count": "Revealed {n} of {total}",
        "artbox.reveal_button": "Reveal picture {n}",
        "artbox.award_button": "Award the points",
        "artbox.reveal_hint": "{name} reveals the pictures one by one (or press REVEAL).",
        "artbox.award_hint": "A verdict can be contested on a phone before {name} "
        "awards the points.",
        "artbox.correct_title": "Correct guesses",
        "artbox.red_point": "Most recognised picture",
        "artbox.grey_point": "Most correct guesses",
        "artbox.nobody": "nobody",
        "artbox.winner": "Winner: {name}",
        "artbox.next_round": "Next round",
        "artbox.next_hint": "{name} starts the next round (or press REVEAL)",
        "artbox.artshow_round": "Art show · round {n} of {total}",
    },
    "cs": {
        "artbox.round": "{n}. kolo",
        "artbox.goal": "vyhrává první s {n} body",
        "artbox.goal_advanced": "pokročilý konec",
        "artbox.starter": "Začínající hráč",
        "artbox.title_choose": "Vyber si slovo",
        "artbox.title_roll": "{name} hází kostkami tvarů",
        "artbox.title_create": "Kresli právě těmito tvary",
        "artbox.title_match": "Které slovo patří ke kterému obrázku?",
        "artbox.title_reveal": "Čí je který obrázek?",
        "artbox.title_points": "Body {n}. kola",
        "artbox.title_over": "Konec hry",
        "artbox.scores": "Body",
        "artbox.chose": "vybráno",
        "artbox.choosing": "vybírá…",
        "artbox.rolls": "hází kostkami",
        "artbox.token_n": "hotovo · žeton {n}",
        "artbox.drawing": "kreslí…",
        "artbox.guessed": "dohádáno",
        "artbox.guessing": "hádá…",
        "artbox.on_trial": "hlasuje se o něm",
        "artbox.voted": "hlas odevzdán",
        "artbox.voting": "hlasuje…",
        "artbox.correct": {
            "one": "{n} správný tip",
            "few": "{n} správné tipy",
            "other": "{n} správných tipů",
        },
        "artbox.red_point_short": "+1 · nejčastěji poznaný",
        "artbox.grey_point_short": "+1 · nejvíc správných tipů",
        "artbox.choose_hint": "Každý si nechá jednu ze dvou karet se slovem",
        "artbox.choose_secret": "Tajně, na telefonu. Druhá karta jde na odkládací balíček.",
        "artbox.chose_count": "Vybralo {n} z {total}",
        "artbox.roll_hint": "Každý obrázek musí použít právě čtyři hozené tvary.",
        "artbox.roll_tap": "Klepni na kostky nebo stiskni KOSTKA",
        "artbox.shape.circle": "kruh",
        "artbox.shape.square": "čtverec",
        "artbox.shape.triangle": "trojúhelník",
        "artbox.shape.line": "čára",
        "artbox.create_rule": "Právě tyto čtyři, ne víc, ne míň. "
        "Obdélník platí za čtverec, ovál za kruh; čáry jsou rovné.",
        "artbox.finished_count": "Hotovo: {n} z {total}",
        "artbox.picture_n": "Obrázek {n}",
        "artbox.hourglass_running": "Písek se sype!",
        "artbox.hourglass_tap": "Kdo má hotovo první, otočí přesýpací hodiny (nebo klepni sem)",
        "artbox.done_count": "Dohádáno: {n} z {total}",
        "artbox.words": "Slova",
        "artbox.recognised": {"one": "poznal {n}", "few": "poznali {n}", "other": "poznalo {n}"},
        "artbox.vote_title": "Hlasování!",
        "artbox.by_vote": "hlasováním",
        "artbox.vote_question": "Porušuje obrázek hráče {name} pravidla tvarů?",
        "artbox.votes": "Hlasovalo {n} z {total}",
        "artbox.vote_rule": "Hlasují na telefonech všichni kromě autora. "
        "Většina přehlasuje krabici; při rovnosti platí její verdikt.",
        "artbox.revealed_count": "Odhaleno {n} z {total}",
        "artbox.reveal_button": "Odhalit obrázek {n}",
        "artbox.award_button": "Rozdat body",
        "artbox.reveal_hint": "{name} odhaluje obrázky jeden po druhém (nebo stiskni ODHALIT).",
        "artbox.award_hint": "Než {name} rozdá body, lze posouzení tvarů na telefonu napadnout.",
        "artbox.correct_title": "Správné tipy",
        "artbox.red_point": "Nejčastěji poznaný obrázek",
        "artbox.grey_point": "Nejvíc správných tipů",
        "artbox.nobody": "nikdo",
        "artbox.winner": "Vítěz: {name}",
        "artbox.next_round": "Další kolo",
        "artbox.next_hint": "{name} zahájí další kolo (nebo stiskni ODHALIT)",
        "artbox.artshow_round": "Výstava · kolo {n} z {total}",
    },
}
add_texts(STRINGS)


# --- reading the view ---------------------------------------------------------------------


def _shapes(value: object) -> list[str]:
    return [s for s in as_list(value) if isinstance(s, str) and s in SHAPES]


@dataclass
class Table(SeatTable):
    """The parts of an ArtBox view that every phase needs, read defensively once."""

    starter: int | None
    round: int
    order: list[int]
    scores: dict[int, int] = field(default_factory=dict)
    red: dict[int, int] = field(default_factory=dict)
    grey: dict[int, int] = field(default_factory=dict)

    def token(self, seat: int) -> int | None:
        return self.order.index(seat) + 1 if seat in self.order else None

    @classmethod
    def of(cls, f: Frame) -> Table:
        state = state_of(f)
        return cls(
            lang=f.lang,
            state=state,
            phase=phase_of(state),
            # A late spectator's seat is not a player.
            players=players_of(f.view, match_seats_only=True),
            starter=as_int(state.get("starter")),
            round=as_int(state.get("round"), 1) or 1,
            order=seat_list(state.get("order")),
            scores=seat_ints(state.get("scores")),
            red=seat_ints(state.get("red")),
            grey=seat_ints(state.get("grey")),
        )


@dataclass(frozen=True)
class Picture:
    number: int
    strokes: list[Any]


def pictures_of(state: Mapping[str, Any]) -> list[Picture]:
    out: dict[int, Picture] = {}
    for raw in as_list(state.get("pictures")):
        entry = as_map(raw)
        number = as_int(entry.get("number"))
        strokes = entry.get("strokes")
        if number is not None and number > 0:
            out[number] = Picture(number, strokes if isinstance(strokes, list) else [])
    return [out[n] for n in sorted(out)]


def revealed_of(state: Mapping[str, Any]) -> dict[int, Mapping[str, Any]]:
    out: dict[int, Mapping[str, Any]] = {}
    for raw in as_list(state.get("revealed")):
        entry = as_map(raw)
        number = as_int(entry.get("number"))
        if number is not None:
            out[number] = entry
    return out


# --- caches that live as long as the renderer ---------------------------------------------


@dataclass
class ArtBoxCaches:
    sheets: StrokeCache = field(default_factory=StrokeCache)


_CACHES: PerRenderer[ArtBoxCaches] = PerRenderer(ArtBoxCaches)


def caches_of(r: KioskRenderer) -> ArtBoxCaches:
    """The ArtBox caches of one renderer (a test's fresh renderer starts cold)."""
    return _CACHES.of(r)


def picture_key(f: Frame, round_no: int, number: int, strokes: Sequence[Any]) -> Hashable:
    """A laid-out picture's name: the match, the round and its number (plus its stroke
    count, a cheap guard). Pictures are locked before they are laid out, so a redraw
    needs no signature of their strokes."""
    return sheet_key(f, GAME_ID, round_no, number, len(strokes))


# --- drawn things: shapes, dice, tokens -----------------------------------------------------


def _segment(
    surface: pygame.Surface,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: Colour,
    width: float,
) -> None:
    """A segment `width` thick measured across it, with round ends (pygame's own thick
    lines are measured along an axis, so a slanted one comes out thinner)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    pygame.draw.polygon(
        surface,
        colour,
        [
            (a[0] + nx, a[1] + ny),
            (b[0] + nx, b[1] + ny),
            (b[0] - nx, b[1] - ny),
            (a[0] - nx, a[1] - ny),
        ],
    )
    pygame.draw.circle(surface, colour, a, width / 2)
    pygame.draw.circle(surface, colour, b, width / 2)


def draw_shape(
    surface: pygame.Surface, shape: str, box: pygame.Rect, colour: Colour, width: int
) -> None:
    """A shape's outline filling the square `box` (a line runs corner to corner)."""
    inset = width // 2 + 1
    inner = box.inflate(-2 * inset, -2 * inset)
    if inner.w <= 2 or inner.h <= 2:
        return
    if shape == "circle":
        pygame.draw.circle(surface, colour, inner.center, inner.w // 2, width)
    elif shape == "square":
        pygame.draw.rect(surface, colour, inner, width, border_radius=max(1, width // 3))
    elif shape == "triangle":
        top = (float(inner.centerx), inner.top + inner.h * 0.06)
        left = (float(inner.left), inner.bottom - inner.h * 0.06)
        right = (float(inner.right), inner.bottom - inner.h * 0.06)
        for p, q in ((top, right), (right, left), (left, top)):
            _segment(surface, p, q, colour, width)
    elif shape == "line":
        start = (inner.left + width / 2, inner.bottom - width / 2)
        end = (inner.right - width / 2, inner.top + width / 2)
        _segment(surface, start, end, colour, width)
    else:
        pygame.draw.circle(surface, colour, inner.center, max(2, width))


def die_face(r: KioskRenderer, shape: str | None, side: int, dim: bool = False) -> pygame.Surface:
    """A shape die seen from above: a paper-white rounded cube with the shape drawn on
    it; `None` is a die not rolled yet ("?"). Cached per shape and size."""
    side = max(8, side)

    def paint(surf: pygame.Surface) -> None:
        # Drawn on transparency and scaled with its alpha: the smoothing blends the edge
        # into whatever ground the part has, and leaves that ground exactly as it was.
        big = pygame.Surface((side * SUPERSAMPLE, side * SUPERSAMPLE), pygame.SRCALPHA)
        rect = big.get_rect().inflate(-SUPERSAMPLE * 2, -SUPERSAMPLE * 2)
        radius = rect.w // 6
        shade = rect.move(0, rect.h // 20)
        pygame.draw.rect(big, SHADOW, shade, border_radius=radius)
        face = PAPER if not dim else blend(PAPER, BG, 0.55)
        pygame.draw.rect(big, face, rect, border_radius=radius)
        pygame.draw.rect(big, DIE_EDGE, rect, max(2, rect.w // 40), border_radius=radius)
        glyph = rect.inflate(-rect.w * 0.42, -rect.h * 0.42)
        if shape is None:
            font = r.fonts.font(max(10, round(side * SUPERSAMPLE * 0.5)), True)
            label = font.render("?", True, MUTED)
            big.blit(label, label.get_rect(center=rect.center))
        else:
            draw_shape(big, shape, glyph, DIE_INK, max(3, rect.w // 13))
        surf.blit(pygame.transform.smoothscale(big, (side, side)), (0, 0))

    return r.part(("artbox-die", shape, side, dim), (side, side), paint)


def token_disc(
    r: KioskRenderer,
    label: str,
    fill: Colour,
    side: int,
    outline_only: bool = False,
    ground: Colour = BG,
) -> pygame.Surface:
    """An order or victory token: a disc with a number on `ground` (what it is blitted
    onto: the disc is smoothed against it), cached per look and size."""
    side = max(8, side)

    def paint(surf: pygame.Surface) -> None:
        surf.fill(ground)
        big = pygame.Surface((side * SUPERSAMPLE, side * SUPERSAMPLE), pygame.SRCALPHA)
        c = big.get_rect().center
        radius = side * SUPERSAMPLE // 2 - SUPERSAMPLE
        ring = max(3, radius // 7)
        if outline_only:
            pygame.draw.circle(big, PANEL_EDGE, c, radius, ring)
            ink = MUTED
        else:
            pygame.draw.circle(big, blend(fill, SHADOW, 0.35), c, radius)
            pygame.draw.circle(big, fill, c, radius - ring)
            ink = ink_on(fill)
        if label:
            # As big as the screen's smallest type where the disc has room for it.
            share = 1.05 if len(label) < 2 else 0.8
            font_px = max(10, round(radius * share), r.min_text * SUPERSAMPLE)
            font_px = min(font_px, round(radius * share * 1.6))
            font = r.fonts.font(font_px, True)
            text = font.render(label, True, ink)
            big.blit(text, text.get_rect(center=c))
            r.note_text(label, font_px // SUPERSAMPLE)
        surf.blit(pygame.transform.smoothscale(big, (side, side)), (0, 0))

    return r.part(("artbox-token", label, fill, side, outline_only, ground), (side, side), paint)


def dice_row(
    r: KioskRenderer,
    surface: pygame.Surface,
    shapes: Sequence[str | None],
    box: pygame.Rect,
    gap: int,
) -> pygame.Rect:
    """The dice side by side, as big as `box` allows, centred; returns their extent."""
    n = max(1, len(shapes))
    side = max(8, min(box.h, (box.w - (n - 1) * gap) // n))
    total = n * side + (n - 1) * gap
    x = box.centerx - total // 2
    y = box.centery - side // 2
    for shape in shapes:
        surface.blit(die_face(r, shape, side), (x, y))
        x += side + gap
    return pygame.Rect(box.centerx - total // 2, y, total, side)


# --- the screen -----------------------------------------------------------------------------


def shown_round(
    f: Frame, table: Table, per_step: int = 0
) -> tuple[Table, tuple[int, int, int, int] | None]:
    """At the finish, the round of the art show on screen now (the last one first, then
    the whole game, a step per FINISH_STEP_S): the table as that round left it, with (its
    number, the rounds, the page, the pages). A round with more pictures than `per_step`
    (what one row holds readably; 0: all) is shown in pages of that many, a step each, so
    the words under the pictures stay readable on the 7-inch panel. Before the finish:
    the table as it is."""
    shows = [as_map(x) for x in as_list(table.state.get("art_show"))]
    if table.phase != "over" or not shows:
        return table, None

    def pages(show: Mapping[str, Any]) -> int:
        n = len(pictures_of(show))
        return max(1, -(-n // per_step)) if per_step > 0 else 1

    steps = [(i, page) for i, show in enumerate(shows) for page in range(pages(show))]
    first = steps.index((len(shows) - 1, 0))  # the last round, its first page
    index, page = steps[(first + finish_step(f.view, f.now)) % len(steps)]
    show = shows[index]
    pictures = as_list(show.get("pictures"))
    if per_step > 0 and pages(show) > 1:
        numbers = [p.number for p in pictures_of(show)][page * per_step:(page + 1) * per_step]
        pictures = [x for x in pictures if as_int(as_map(x).get("number")) in numbers]
    state = {
        **table.state,
        "dice": show.get("dice"),
        "pictures": pictures,
        "revealed": show.get("revealed"),
        "round_points": show.get("round_points"),
    }
    number = as_int(show.get("round"), table.round) or table.round
    shown = for_round(replace(table, state=state, round=number), f.view, number)
    return shown, (number, len(shows), page, pages(show))


def finish_per_step(r: KioskRenderer, m: Metrics, width: int, height: int) -> int:
    """How many pictures one step of the finish shows in a `width` x `height` room: as
    many columns as keep a sheet nine small letters wide (its word, token and mark under
    it), in as many rows as keep such a sheet and its two lines; at least one."""
    label_h = r.line(m.f_small, True) * 2 + m.gap // 2
    cell_w = 9 * m.f_small
    cols = max(1, (width + m.gap) // (cell_w + m.gap))
    rows = max(1, (height + m.gap) // (round(cell_w * 0.6) + label_h + m.gap))
    return cols * rows


def artbox_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one ArtBox frame (GAME_SCREENS["artbox"])."""
    m = f.metrics
    table = Table.of(f)
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    per_step = 0
    if table.phase == "over":  # the room the finish's pictures get (the header, the cards)
        guess = pygame.Rect(area.left, area.top + r.line(m.f_small, True)
                            + r.line(m.f_title, True) + m.gap, area.w, area.h)
        guess.h = area.bottom - guess.top
        main, _, _ = split_body(r, m, guess, len(table.players), 4, 0.2, 280)
        awards_h = min(round(main.h * 0.45), r.line(m.f_small) + r.line(m.f_title, True)
                       + m.gap + 2 * m.pad)
        per_step = finish_per_step(r, m, main.w, main.h - awards_h - m.gap)
    table, art_show = shown_round(f, table, per_step)
    header = _draw_header(r, f, table, area, art_show)
    top = header.bottom + m.gap
    body = pygame.Rect(area.left, top, area.w, area.bottom - top)
    if body.h < 20 or body.w < 40:
        return
    wide = table.phase in ("match", "reveal", "over")
    # The pictures need the room while they are on show: a narrower scoreboard then.
    main, side, cols = split_body(
        r, m, body, len(table.players), 4 if wide else 3, 0.2 if wide else 0.26, 280
    )
    draw = {
        "choose": _draw_choose,
        "roll": _draw_roll,
        "create": _draw_create,
        "match": _draw_match,
        "reveal": _draw_reveal,
        "points": _draw_points,
        "over": _draw_points,
    }.get(table.phase)
    if draw is not None:
        draw(r, f, table, main)
    _draw_scoreboard(r, f, table, side, cols)


def _title(table: Table) -> str:
    lang, phase = table.lang, table.phase
    if phase == "roll":
        return tr(lang, "artbox.title_roll", name=table.name(table.starter))
    if phase in ("points", "over"):
        key = "artbox.title_over" if phase == "over" else "artbox.title_points"
        return tr(lang, key, n=table.round)
    return (
        tr(lang, f"artbox.title_{phase}")
        if phase in ("choose", "create", "match", "reveal")
        else "ArtBox"
    )


def _draw_header(
    r: KioskRenderer, f: Frame, table: Table, area: pygame.Rect,
    art_show: tuple[int, int, int, int] | None = None,
) -> pygame.Rect:
    m, s, lang = f.metrics, f.surface, f.lang
    match = as_map(f.view.get("match"))
    game_title = str(match.get("title") or "ArtBox")
    right = area.right
    top = area.top
    if table.starter is not None and art_show is None:  # at the end nobody starts
        right = captioned_chip(r, f, tr(lang, "artbox.starter"), table, table.starter, right, area)
    target = as_int(table.state.get("target"))
    goal = (
        tr(lang, "artbox.goal_advanced")
        if table.state.get("advanced")
        else tr(lang, "artbox.goal", n=target)
        if target
        else ""
    )
    sub = f"{game_title} · {tr(lang, 'artbox.round', n=table.round)}"
    heading = _title(table)
    if art_show is not None:  # the finish: the game is over, its rounds on show in turn
        sub = f"{game_title} · {tr(lang, 'artbox.title_over')}"
        heading = tr(lang, "artbox.artshow_round", n=art_show[0], total=art_show[1])
        if art_show[3] > 1:  # the round's pictures in pages: which of them
            heading = f"{heading} · {art_show[2] + 1}/{art_show[3]}"
    if goal:
        sub = f"{sub} · {goal}"
    small = r.blit_text(
        s, sub, m.f_small, MUTED, "topleft", area.topleft, True, max(1, right - area.left)
    )
    width = max(1, right - area.left)
    # Smaller rather than cut, then on two lines: a long Czech title on a portrait screen
    # still reads whole.
    size = r.fit_size(heading, m.f_title, width, bold=True, min_size=m.f_head)
    if r.fonts.font(size, True).size(heading)[0] <= width:
        big = r.blit_text(s, heading, size, TEXT, "topleft", (area.left, small.bottom), True, width)
    else:
        size, lines = fit_wrapped(r, heading, m.f_head, width, 2 * r.line(m.f_head, True), True)
        big = draw_lines(r, s, lines[:2], size, TEXT, (area.left, small.bottom), width, True)
    bottom = max(big.bottom, top + r.line(m.f_small) + r.line(m.f_body, True) + m.gap // 2)
    return pygame.Rect(area.left, area.top, area.w, bottom - area.top)


# --- the scoreboard -------------------------------------------------------------------------


def _note(table: Table, seat: int) -> tuple[str, Colour] | None:
    """What a player is doing now, for their scoreboard row."""
    lang, state, phase = table.lang, table.state, table.phase
    if phase == "choose":
        chose = seat in seat_list(state.get("kept"))
        return (tr(lang, "artbox.chose"), YES) if chose else (tr(lang, "artbox.choosing"), MUTED)
    if phase == "roll" and seat == table.starter:
        return tr(lang, "artbox.rolls"), GOLD
    if phase == "create":
        k = table.token(seat)
        return (tr(lang, "artbox.token_n", n=k), YES) if k else (tr(lang, "artbox.drawing"), MUTED)
    if phase == "match":
        done = seat in seat_list(state.get("done"))
        return (tr(lang, "artbox.guessed"), YES) if done else (tr(lang, "artbox.guessing"), MUTED)
    if phase == "reveal":
        vote = as_map(state.get("vote"))
        artist = as_int(vote.get("artist"))
        if vote and artist is not None:
            if seat == artist:
                return tr(lang, "artbox.on_trial"), NO
            voted = seat in seat_list(vote.get("voted"))
            return (tr(lang, "artbox.voted"), YES) if voted else (tr(lang, "artbox.voting"), MUTED)
        guessed = seat_ints(state.get("guessed"))
        if seat in guessed:
            return tr(lang, "artbox.correct", n=guessed[seat]), MUTED
    if phase in ("points", "over"):
        points = as_map(state.get("round_points"))
        if as_int(points.get("red")) == seat:
            return tr(lang, "artbox.red_point_short"), RED_TOKEN
        if as_int(points.get("grey")) == seat:
            return tr(lang, "artbox.grey_point_short"), GREY_TOKEN
    return None


def _draw_scoreboard(
    r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect, cols: int
) -> None:
    m = f.metrics
    leader = leader_score(table.scores)
    advanced = bool(table.state.get("advanced"))

    def row(seat: int, size: tuple[int, int]) -> pygame.Surface:
        player = table.players[seat]
        score = table.scores.get(seat)
        tokens = (table.red.get(seat, 0), table.grey.get(seat, 0)) if advanced else None
        lead = score is not None and leader > 0 and score == leader
        # The order token beside the name while the players finish; later it lies on the
        # pictures (reveal), and beside red and grey tokens it would read as a third colour.
        order = table.token(seat) if table.phase == "create" else None
        return _score_row(r, m, player, score, tokens, _note(table, seat), order, lead, size)

    draw_scoreboard(r, f, tr(f.lang, "artbox.scores"), sorted(table.players), rect, cols, row)


def _score_row(
    r: KioskRenderer,
    m: Metrics,
    player: Player,
    score: int | None,
    tokens: tuple[int, int] | None,
    note: tuple[str, Colour] | None,
    order: int | None,
    lead: bool,
    size: tuple[int, int],
) -> pygame.Surface:
    def marks(surf: pygame.Surface, rect: pygame.Rect, right: int) -> int:
        if tokens is not None:
            # The advanced end counts colours: a red and a grey token, each with its count
            # beside it in the row's own type (a number on so small a disc was unreadable).
            side = max(10, round(r.line(m.f_small) * 0.8))
            for count, fill in ((tokens[1], GREY_TOKEN), (tokens[0], RED_TOKEN)):
                num = r.blit_text(surf, str(count), m.f_body, TEXT, "midright",
                                  (right, rect.centery), True)
                right = num.left - m.gap // 6 - side
                surf.blit(token_disc(r, "", fill, side, ground=PANEL),
                          (right, rect.centery - side // 2))
                right -= m.gap // 2
        if order is not None:
            side = max(10, min(rect.h - 4, round(r.line(m.f_small) * 1.7)))
            disc = token_disc(r, str(order), player.colour, side, ground=PANEL)
            right -= side
            surf.blit(disc, (right, rect.centery - side // 2))
            right -= m.gap // 3
        return right

    def paint(surf: pygame.Surface) -> None:
        paint_score_row(r, m, surf, player, score, lead, note, marks)

    key = ("artbox-score", player, score, tokens, note, order, lead, m)
    return r.part(key, size, paint)


# --- phases ---------------------------------------------------------------------------------



def _draw_choose(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    kept = [k for k in seat_list(table.state.get("kept")) if k in table.players]
    lines: list[tuple[str, int, Colour, bool]] = [
        (tr(lang, "artbox.choose_hint"), m.f_head, TEXT, True),
        (tr(lang, "artbox.choose_secret"), m.f_body, MUTED, False),
        (
            tr(lang, "artbox.chose_count", n=len(kept), total=len(table.players)),
            m.f_body,
            GOLD,
            True,
        ),
    ]
    icon_h = max(20, min(round(rect.h * 0.4), rect.h - 4 * r.line(m.f_body)))
    icon, y = centre_block(r, f, rect, icon_h, lines)
    # Two word cards face down, fanned: the one a player keeps, the one they discard.
    card_h = icon.h
    card_w = round(card_h * 0.68)
    for k, (dx, tilt) in enumerate(((-0.32, 8), (0.32, -8))):
        card = _card_back(r, (card_w, card_h)).copy()
        # Keyed before turning: rotate fills the new corners with the key, not black.
        card.set_colorkey(BG)
        turned = pygame.transform.rotate(card, tilt)
        centre = (icon.centerx + round(dx * card_w), icon.centery + k * m.gap // 2)
        s.blit(turned, turned.get_rect(center=centre))
    centred_lines(r, f, rect, y, lines)


def _card_back(r: KioskRenderer, size: tuple[int, int]) -> pygame.Surface:
    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect().inflate(-4, -4)
        radius = max(4, rect.w // 10)
        pygame.draw.rect(surf, RED_TOKEN, rect, border_radius=radius)
        inner = rect.inflate(-rect.w // 7, -rect.w // 7)
        pygame.draw.rect(surf, blend(RED_TOKEN, WHITE, 0.85), inner, border_radius=radius // 2)
        glyph = pygame.Rect(0, 0, inner.w // 2, inner.w // 2)
        glyph.center = inner.center
        for shape, dx, dy in (
            ("circle", -1, -1),
            ("square", 1, -1),
            ("triangle", -1, 1),
            ("line", 1, 1),
        ):
            box = pygame.Rect(0, 0, glyph.w // 2 - 4, glyph.w // 2 - 4)
            box.center = (
                glyph.centerx + dx * glyph.w // 4,
                glyph.centery + dy * glyph.w // 4,
            )
            draw_shape(surf, shape, box, RED_TOKEN, max(2, box.w // 9))

    return r.part(("artbox-card", size), size, paint)


def _draw_roll(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang = f.metrics, f.lang
    lines: list[tuple[str, int, Colour, bool]] = [
        (tr(lang, "artbox.roll_hint"), m.f_body, MUTED, False),
        (tr(lang, "artbox.roll_tap"), m.f_small, GOLD, True),
    ]
    icon_h = max(20, min(round(rect.h * 0.36), rect.h - 3 * r.line(m.f_body)))
    icon, y = centre_block(r, f, rect, icon_h, lines)
    dice = dice_row(r, f.surface, [None] * 4, icon.inflate(-2 * m.gap, 0), m.gap)
    r.add_target(dice.inflate(m.gap, m.gap), PressButton("die"))
    centred_lines(r, f, rect, y, lines)


def _draw_create(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    dice = _shapes(table.state.get("dice"))
    seats = sorted(table.players)
    order = [o for o in table.order if o in table.players]
    n = max(1, len(seats))
    # Sizes first, so that the dice, the rule and the order tokens sit centred together.
    rule_size, rule = fit_wrapped(
        r, tr(lang, "artbox.create_rule"), m.f_small, rect.w, 2 * r.line(m.f_small)
    )
    label_h = r.line(m.f_small, True)
    text_h = r.line(m.f_body, True) + len(rule) * r.line(rule_size) + m.gap
    head_h = r.line(m.f_head, True) + m.gap // 2
    dice_h = min(round(rect.h * 0.42), (rect.w - 3 * m.gap) // 4)
    side = max(12, min((rect.w - (n - 1) * m.gap) // n, round(130 * m.scale)))
    side = max(12, min(side, rect.h - dice_h - text_h - head_h - label_h - 2 * m.gap))
    total_h = dice_h + m.gap // 2 + text_h + head_h + side + label_h
    y = rect.top + max(0, (rect.h - total_h) // 3)
    # The four rolled shapes, big: the table draws from them.
    row = dice_row(r, s, dice or [None] * 4, pygame.Rect(rect.left, y, rect.w, dice_h), m.gap)
    y = row.bottom + m.gap // 2
    names = " · ".join(tr(lang, f"artbox.shape.{d}") for d in dice)
    if names:
        y = r.blit_text(s, names, m.f_body, TEXT, "midtop", (rect.centerx, y), True, rect.w).bottom
    y = draw_lines(r, s, rule, rule_size, MUTED, (rect.left, y), rect.w, align="center").bottom
    y += m.gap
    # The order tokens: a slot per player, filled (colour, number, name) as they finish.
    head = r.blit_text(
        s,
        tr(lang, "artbox.finished_count", n=len(order), total=len(seats)),
        m.f_head,
        GOLD,
        "midtop",
        (rect.centerx, y),
        True,
        rect.w,
    )
    y = head.bottom + m.gap // 2
    cell = max(side, min((rect.w - (n - 1) * m.gap // 2) // n, side * 2))
    total = n * cell + (n - 1) * (m.gap // 2)
    x = rect.centerx - total // 2
    for k in range(n):
        seat = order[k] if k < len(order) else None
        cx = x + cell // 2
        if seat is None:
            disc = token_disc(r, str(k + 1), PANEL, side, outline_only=True)
        else:
            disc = token_disc(r, str(k + 1), table.colour(seat), side)
        s.blit(disc, (cx - side // 2, y))
        if seat is not None:
            r.blit_text(
                s, table.name(seat), m.f_small, TEXT, "midtop", (cx, y + side + 2), True, cell
            )
        x += cell + m.gap // 2



def _picture_cells(
    pictures: Sequence[Picture], box: pygame.Rect, label_h: int, gap: int
) -> list[tuple[Picture, pygame.Rect]]:
    """Where each picture's sheet goes (its label below it), in number order."""
    cols, rows, cell_w = sheet_grid(len(pictures), box, label_h, gap)
    x0, y0, cell_h = grid_origin(box, cols, rows, cell_w, label_h, gap)
    out = []
    for i, pic in enumerate(pictures):
        col, row = i % cols, i // cols
        out.append(
            (
                pic,
                pygame.Rect(
                    x0 + col * (cell_w + gap), y0 + row * (cell_h + label_h + gap), cell_w, cell_h
                ),
            )
        )
    return out


def _blit_picture(r: KioskRenderer, f: Frame, table: Table, pic: Picture, box: pygame.Rect) -> None:
    """A picture on its sheet with its number in the corner; cached once painted."""
    s, m = f.surface, f.metrics
    key = picture_key(f, table.round, pic.number, pic.strokes)
    rect = shadowed_sheet(s, caches_of(r).sheets, pic.strokes, box, key)
    side = max(14, min(round(rect.h * 0.26), round(r.line(m.f_head, True) * 1.1)))
    s.blit(_number_badge(r, pic.number, side), rect.topleft)


def _number_badge(r: KioskRenderer, number: int, side: int) -> pygame.Surface:
    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        surf.fill(PAPER)  # the badge sits on the sheet's corner: its rounding shows paper
        pygame.draw.rect(surf, TEXT, rect, border_bottom_right_radius=max(3, side // 3))
        font = r.fonts.font(font_px, True)
        label = font.render(str(number), True, BG)
        r.note_text(str(number), font_px)
        surf.blit(label, label.get_rect(center=rect.center))

    font_px = max(8, r.min_text, round(side * 0.62))
    side = max(side, round(font_px / 0.62))
    width = side if number < 10 else round(side * 1.45)
    return r.part(("artbox-number", number, side), (width, side), paint)


def _draw_match(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    pictures = pictures_of(state)
    words = [as_map(w) for w in as_list(state.get("words"))]
    # Twelve small letters at least: at 800x480 the hourglass's sentence wraps, not cuts.
    words_w = max(round(rect.w * 0.27), min(rect.w // 3, max(round(300 * m.scale),
                                                              12 * m.f_small)))
    if m.portrait:
        words_box = pygame.Rect(rect.left, rect.bottom - rect.h // 3, rect.w, rect.h // 3)
        grid_box = pygame.Rect(rect.left, rect.top, rect.w, words_box.top - m.gap - rect.top)
    else:
        words_box = pygame.Rect(rect.right - words_w, rect.top, words_w, rect.h)
        grid_box = pygame.Rect(rect.left, rect.top, rect.w - words_w - m.gap, rect.h)
    label_h = r.line(m.f_small, True) + m.gap // 3
    gap = max(4, m.gap // 2)
    done = set(seat_list(state.get("done")))
    for pic, box in _picture_cells(pictures, grid_box, label_h, gap):
        _blit_picture(r, f, table, pic, box)
        r.blit_text(
            s,
            tr(lang, "artbox.picture_n", n=pic.number),
            m.f_small,
            MUTED,
            "midtop",
            (box.centerx, box.bottom + m.gap // 4),
            True,
            box.w,
        )
    _draw_words(r, f, table, words, words_box, len(done))


def _draw_words(
    r: KioskRenderer,
    f: Frame,
    table: Table,
    words: Sequence[Mapping[str, Any]],
    rect: pygame.Rect,
    done: int,
) -> None:
    """The hourglass (a tap turns it) above the shuffled words."""
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    pygame.draw.rect(s, PANEL, rect, border_radius=m.radius)
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    if inner.w < 20 or inner.h < 20:
        return
    started = bool(state.get("hourglass_started"))
    glass_h = min(round(inner.h * 0.28), round(170 * m.scale))
    glass = pygame.Rect(inner.left, inner.top, round(glass_h / 1.6), glass_h)
    remaining, length = f.remaining, f.length
    fraction = 1.0 if remaining is None or not length else remaining / max(1.0, length)
    draw_hourglass(s, glass, fraction if started else 1.0)
    tx = glass.right + m.gap
    tw = max(1, inner.right - tx)
    if started and remaining is not None:
        urgent = remaining <= min(10.0, (length or 60) / 4)
        clock = format_seconds(remaining)
        size = r.fit_size(clock, round(m.f_title * 1.3), tw, True)
        t = r.blit_text(
            s, clock, size, WARN if urgent else GOLD, "topleft", (tx, glass.top), True, tw
        )
        room = glass.bottom - t.bottom
        if room >= r.line(m.f_small):
            size, lines = fit_wrapped(r, tr(lang, "artbox.hourglass_running"), m.f_small, tw, room)
            draw_lines(r, s, lines, size, MUTED, (tx, t.bottom), tw)
    y = glass.bottom + m.gap // 2
    if not (started and remaining is not None):
        # Beside the glass, else under it across the panel: never cut (at 800x480 "(or
        # tap it here)" was lost); the words below take the lines left.
        tap = tr(lang, "artbox.hourglass_tap")
        lines = wrap(r, tap, m.f_small, tw, True)
        if len(lines) * r.line(m.f_small, True) <= glass.h:
            draw_lines(r, s, lines, m.f_small, GOLD, (tx, glass.top), tw, True)
        else:
            lines = wrap(r, tap, m.f_small, inner.w, True)
            y = draw_lines(r, s, lines, m.f_small, GOLD, (inner.left, y), inner.w,
                           True).bottom + m.gap // 2
        r.add_target(glass.inflate(m.gap, m.gap), PressButton("hourglass"))
    size, lines = fit_wrapped(r, tr(lang, "artbox.done_count", n=done, total=len(table.players)),
                              m.f_small, inner.w, 2 * r.line(m.f_small, True), True)
    y = draw_lines(r, s, lines, size, TEXT, (inner.left, y), inner.w, True).bottom
    y += m.gap // 2
    y = r.blit_text(
        s, tr(lang, "artbox.words"), m.f_head, TEXT, "topleft", (inner.left, y), True, inner.w
    ).bottom
    y += m.gap // 3
    _word_columns(
        r,
        f,
        [localised(w, lang) for w in words],
        pygame.Rect(inner.left, y, inner.w, inner.bottom - y),
    )


def _word_columns(
    r: KioskRenderer,
    f: Frame,
    words: Sequence[str],
    box: pygame.Rect,
    revealed: Mapping[str, int] | None = None,
) -> None:
    """The words in as few columns as fit `box` (one on a side panel, several on a wide
    one), the biggest type that lets them all show, column by column. A word in
    `revealed` is greyed, with the number of its picture beside it."""
    m, s = f.metrics, f.surface
    if not words or box.h <= 0:
        return
    n = len(words)
    max_cols = max(1, box.w // max(1, round(230 * m.scale)))
    for size in (m.f_body, m.f_small):
        row_h = r.line(size, True) + m.gap // 3
        rows = max(1, box.h // row_h)
        cols = math.ceil(n / rows)
        if cols <= max_cols:
            break
    # Even the small type in as many columns as the width holds does not fit: more, narrower
    # columns (long words end in "…"), never a word left out (a portrait panel lost two).
    cols = max(1, min(n, cols))
    rows = math.ceil(n / cols)
    col_w = box.w // cols
    bullet = max(3, row_h // 8)
    shown = 0
    for i, text in enumerate(words):
        col, row = i // rows, i % rows
        x = box.left + col * col_w
        y = box.top + row * row_h
        if y + row_h > box.bottom + 2:
            continue  # no room: the layout log says so (a word nobody can match)
        shown += 1
        number = (revealed or {}).get(text)
        width = col_w - 3 * bullet - m.gap // 2
        if number is not None:
            badge = _number_badge(r, number, max(8, r.line(size, True) - 6))
            s.blit(badge, badge.get_rect(midright=(x + col_w - m.gap // 2, y + row_h // 2)))
            width -= badge.get_width() + m.gap // 3
        pygame.draw.circle(
            s, GOLD if number is None else PANEL_EDGE, (x + bullet, y + row_h // 2), bullet
        )
        r.blit_text(
            s,
            text,
            r.fit_size(text, size, width, True),
            TEXT if number is None else MUTED,
            "midleft",
            (x + 3 * bullet, y + row_h // 2),
            True,
            width,
        )
    if shown < n:
        r.note_dropped("artbox words", shown, n)


def _draw_reveal(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    pictures = pictures_of(state)
    revealed = revealed_of(state)
    vote = as_map(state.get("vote"))
    panel_w = max(round(rect.w * 0.27), min(rect.w // 3, max(round(300 * m.scale),
                                                              12 * m.f_small)))
    if m.portrait:
        # A third, as the guessing has: a quarter had no room left for the words.
        panel = pygame.Rect(rect.left, rect.bottom - rect.h // 3, rect.w, rect.h // 3)
        grid_box = pygame.Rect(rect.left, rect.top, rect.w, panel.top - m.gap - rect.top)
    else:
        panel = pygame.Rect(rect.right - panel_w, rect.top, panel_w, rect.h)
        grid_box = pygame.Rect(rect.left, rect.top, rect.w - panel_w - m.gap, rect.h)
    label_h = r.line(m.f_small, True) * 2 + m.gap // 2
    gap = max(4, m.gap // 2)
    upcoming = next((p.number for p in pictures if p.number not in revealed), None)
    for pic, box in _picture_cells(pictures, grid_box, label_h, gap):
        _blit_picture(r, f, table, pic, box)
        info = revealed.get(pic.number)
        label = pygame.Rect(box.left, box.bottom + m.gap // 4, box.w, label_h - m.gap // 4)
        if info is None:
            colour = GOLD if pic.number == upcoming else MUTED
            r.blit_text(s, "?", m.f_head, colour, "midtop", (label.centerx, label.top), True)
            if pic.number == upcoming:
                pygame.draw.rect(s, GOLD, sheet_rect(box).inflate(6, 6), max(2, m.gap // 6), 4)
            continue
        s.blit(_reveal_label(r, m, lang, table, info, label.size), label)
    _draw_reveal_panel(r, f, table, panel, len(revealed), len(pictures), upcoming, vote)


def _reveal_label(
    r: KioskRenderer,
    m: Metrics,
    lang: str,
    table: Table,
    info: Mapping[str, Any],
    size: tuple[int, int],
) -> pygame.Surface:
    owner = as_int(info.get("owner"))
    word = localised(info.get("word"), lang)
    token = as_int(info.get("token"))
    recognised = as_int(info.get("recognised"), 0) or 0
    legal = info.get("legal")
    overruled = bool(info.get("overruled"))
    name = table.name(owner)
    colour = table.colour(owner)

    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        line = r.line(m.f_small, True)
        side = max(10, line, round(r.min_text * 1.4))  # room for a readable number
        x = 0
        if token is not None:
            surf.blit(token_disc(r, str(token), colour, side), (0, 0))
            x = side + m.gap // 4
        mark_r = max(5, line // 2 - 1)
        verdict = legal if isinstance(legal, bool) else None
        draw_mark(surf, (rect.right - mark_r - 1, line // 2), mark_r, verdict)
        right = rect.right - 2 * mark_r - m.gap // 3
        if overruled:
            # The table's vote changed the box's verdict: say so beside the mark.
            o = r.blit_text(
                surf,
                tr(lang, "artbox.by_vote"),
                m.f_small,
                GOLD,
                "midright",
                (right, line // 2),
                True,
                max(1, (right - x) // 2),  # the word keeps at least half the line
            )
            right = o.left - m.gap // 3
        r.blit_text(
            surf, quoted(lang, word), m.f_small, TEXT, "midleft", (x, line // 2), True,
            max(1, right - x),
        )
        y2 = line + max(0, (rect.h - 2 * line) // 2)
        pygame.draw.rect(surf, colour, (0, y2 + 2, max(4, line // 5), line - 4))
        # The count is the point ("guessed b…" hid it): it is drawn whole, the name
        # takes what is left and is cut if it must.
        count = tr(lang, "artbox.recognised", n=recognised)
        count_w = r.fonts.font(m.f_small).size(count)[0]
        left = line // 5 + 4
        room = max(1, rect.right - left - m.gap // 3 - count_w)
        who = r.blit_text(surf, name, m.f_small, TEXT, "topleft", (left, y2), False, room)
        r.blit_text(surf, count, m.f_small, MUTED, "topright", (rect.right, y2), False,
                    max(count_w, rect.right - who.right - m.gap // 3))

    key = ("artbox-reveal", name, colour, word, token, recognised, legal, overruled, lang, m)
    return r.part(key, size, paint)


def _draw_reveal_panel(
    r: KioskRenderer,
    f: Frame,
    table: Table,
    rect: pygame.Rect,
    shown: int,
    total: int,
    upcoming: int | None,
    vote: Mapping[str, Any],
) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    artist = as_int(vote.get("artist")) if vote else None
    on_trial = artist is not None
    pygame.draw.rect(
        s, blend(PANEL, WARN, 0.14) if on_trial else PANEL, rect, border_radius=m.radius
    )
    if on_trial:
        pygame.draw.rect(s, WARN, rect, max(3, round(5 * m.scale)), border_radius=m.radius)
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    if inner.w < 20 or inner.h < 20:
        return
    y = inner.top
    if on_trial:
        y = r.blit_text(
            s,
            tr(lang, "artbox.vote_title"),
            m.f_head,
            WARN,
            "topleft",
            (inner.left, y),
            True,
            inner.w,
        ).bottom
        question = tr(lang, "artbox.vote_question", name=table.name(artist))
        size, lines = fit_wrapped(r, question, m.f_body, inner.w, 3 * r.line(m.f_body, True), True)
        y = draw_lines(r, s, lines, size, TEXT, (inner.left, y), inner.w, True).bottom + m.gap // 2
        voters = [p for p in table.players if p != artist]
        voted = [v for v in seat_list(vote.get("voted")) if v in voters]
        y = (
            r.blit_text(
                s,
                tr(lang, "artbox.votes", n=len(voted), total=len(voters)),
                m.f_body,
                GOLD,
                "topleft",
                (inner.left, y),
                True,
                inner.w,
            ).bottom
            + m.gap // 2
        )
        y = vote_countdown(r, f, vote, (inner.left, y), inner.w).bottom + m.gap // 2
        size, lines = fit_wrapped(
            r, tr(lang, "artbox.vote_rule"), m.f_small, inner.w, max(1, inner.bottom - y)
        )
        draw_lines(r, s, lines, size, MUTED, (inner.left, y), inner.w)
        return
    progress = tr(lang, "artbox.revealed_count", n=shown, total=total)
    y = (
        r.blit_text(
            s,
            progress,
            r.fit_size(progress, m.f_head, inner.w, True),
            TEXT,
            "topleft",
            (inner.left, y),
            True,
            inner.w,
        ).bottom
        + m.gap // 2
    )
    all_shown = total > 0 and shown >= total
    label = (
        tr(lang, "artbox.award_button")
        if all_shown
        else tr(lang, "artbox.reveal_button", n=upcoming or 0)
    )
    # The pill pads its label by half a line each side: the label is fitted to what is left.
    size = r.fit_size(label, m.f_body, inner.w - m.f_body, True, m.f_small)
    button = pill(r, s, label, size, GOLD, "topleft", (inner.left, y), max_width=inner.w,
                  min_h=m.target)  # a finger high
    r.add_target(button, PressButton("reveal"))
    y = button.bottom + m.gap // 3
    hint = tr(
        lang,
        "artbox.award_hint" if all_shown else "artbox.reveal_hint",
        name=table.name(table.starter),
    )
    # Up to five lines (a narrow panel, a long name): the words below take what is left.
    size, lines = fit_wrapped(r, hint, m.f_small, inner.w, 5 * r.line(m.f_small))
    y = draw_lines(r, s, lines, size, MUTED, (inner.left, y), inner.w).bottom + m.gap
    # The words laid out; a revealed one shows its picture's number. (Who guessed how
    # many is on the scoreboard once everything is revealed.)
    words = [localised(w, lang) for w in as_list(state.get("words"))]
    at: dict[str, int] = {}
    for shown_no, info in revealed_of(state).items():
        at.setdefault(localised(info.get("word"), lang), shown_no)
    _word_columns(r, f, words, pygame.Rect(inner.left, y, inner.w, inner.bottom - y), at)


def _draw_points(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    points = as_map(state.get("round_points"))
    over = table.phase == "over"
    pictures = pictures_of(state)
    if over and pictures:
        # The game's end keeps the shown round's reveal in full under the two points. The
        # pictures take all the room the two cards leave (the strip under the game says
        # who won), so their words stay readable on the 7-inch panel.
        awards_h = r.line(m.f_small) + r.line(m.f_title, True) + m.gap + 2 * m.pad
        split = rect.top + min(round(rect.h * 0.45), awards_h)
        _draw_last_reveal(r, f, table, pygame.Rect(rect.left, split + m.gap, rect.w,
                                                   rect.bottom - split - m.gap))
        rect = pygame.Rect(rect.left, rect.top, rect.w, split - rect.top)
    cards: list[tuple[Colour, str, int | None]] = [
        (RED_TOKEN, tr(lang, "artbox.red_point"), as_int(points.get("red"))),
        (GREY_TOKEN, tr(lang, "artbox.grey_point"), as_int(points.get("grey"))),
    ]
    foot_h = 0 if over and pictures else r.line(m.f_body, True) + r.line(m.f_small) + 2 * m.gap
    stacked = m.portrait and not (over and pictures)  # side by side above the pictures
    cols = 1 if stacked else 2
    rows = 2 if stacked else 1
    area = pygame.Rect(rect.left, rect.top, rect.w, rect.h - foot_h)
    card_w = (area.w - (cols - 1) * m.gap) // cols
    card_h = min((area.h - (rows - 1) * m.gap) // rows, round(card_w * 0.75))
    top = area.top + max(0, (area.h - rows * card_h - (rows - 1) * m.gap) // 2)
    for i, (fill, what, seat) in enumerate(cards):
        box = pygame.Rect(
            area.left + (i % cols) * (card_w + m.gap),
            top + (i // cols) * (card_h + m.gap),
            card_w,
            card_h,
        )
        name = table.name(seat) if seat is not None else tr(lang, "artbox.nobody")
        colour = table.colour(seat) if seat is not None else MUTED
        s.blit(_award_card(r, m, fill, what, name, colour, box.size), box)
    y = top + rows * card_h + (rows - 1) * m.gap + m.gap
    if over and pictures:
        return
    if over:
        outcome = as_map(as_map(f.view.get("match")).get("outcome"))
        winners = [w for w in seat_list(outcome.get("winners")) if w in table.players]
        text = (
            tr(lang, "artbox.winner", name=", ".join(table.name(w) for w in winners))
            if winners
            else tr(lang, "artbox.title_over")
        )
        r.blit_text(s, text, m.f_head, GOLD, "midtop", (rect.centerx, y), True, rect.w)
        return
    button = pill(r, s, tr(lang, "artbox.next_round"), m.f_body, GOLD, "midtop", (rect.centerx, y),
                  min_h=m.target)  # a finger high
    r.add_target(button, PressButton("reveal"))
    r.blit_text(
        s,
        tr(lang, "artbox.next_hint", name=table.name(table.starter)),
        m.f_small,
        MUTED,
        "midtop",
        (rect.centerx, button.bottom + m.gap // 3),
        False,
        rect.w,
    )


def _draw_last_reveal(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    """Every picture of the last round with its word, its artist and its recognitions."""
    m, revealed = f.metrics, revealed_of(table.state)
    label_h = r.line(m.f_small, True) * 2 + m.gap // 2
    for pic, box in _picture_cells(pictures_of(table.state), rect, label_h, max(4, m.gap // 2)):
        _blit_picture(r, f, table, pic, box)
        info = revealed.get(pic.number)
        if info is not None:
            label = pygame.Rect(box.left, box.bottom + m.gap // 4, box.w, label_h - m.gap // 4)
            f.surface.blit(_reveal_label(r, m, f.lang, table, info, label.size), label)


def _award_card(
    r: KioskRenderer,
    m: Metrics,
    fill: Colour,
    what: str,
    name: str,
    colour: Colour,
    size: tuple[int, int],
) -> pygame.Surface:
    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        pygame.draw.rect(surf, PANEL, rect, border_radius=m.radius)
        pygame.draw.rect(surf, fill, rect, max(3, round(6 * m.scale)), border_radius=m.radius)
        inner = rect.inflate(-2 * m.pad, -2 * m.pad)
        if inner.w < 10 or inner.h < 10:
            return
        text_h = r.line(m.f_small) + r.line(m.f_title, True) + m.gap
        side = max(12, min(round((inner.h - text_h) * 0.8), inner.w // 3))
        if side < round(r.min_text * 1.4):
            # No room for a readable "+1" (the finish's smaller card on a 7" screen):
            # the card's words say it alone.
            side = 0
        else:
            disc = token_disc(r, "+1", fill, side, ground=PANEL)
            surf.blit(disc, (inner.centerx - side // 2,
                             inner.top + (inner.h - text_h - side) // 2))
        y = inner.top + (inner.h - text_h - side) // 2 + side + m.gap // 2
        y = r.blit_text(
            surf, what, m.f_small, MUTED, "midtop", (inner.centerx, y), True, inner.w
        ).bottom
        size_ = r.fit_size(name, m.f_title, inner.w, True, m.f_body)
        label = r.blit_text(
            surf, name, size_, TEXT, "midtop", (inner.centerx, y + m.gap // 3), True, inner.w
        )
        pygame.draw.line(
            surf,
            colour,
            (label.left, label.bottom + 2),
            (label.right, label.bottom + 2),
            max(3, round(6 * m.scale)),
        )

    return r.part(("artbox-award", fill, what, name, colour, m), size, paint)


GAME_SCREENS[GAME_ID] = artbox_screen

__all__ = [
    "ArtBoxCaches",
    "artbox_screen",
    "caches_of",
    "die_face",
    "draw_shape",
    "pictures_of",
]
