"""Luck of the Draw on the kiosk: the table's shared screen while the game runs.

Registered as GAME_SCREENS["luck-of-the-draw"]. It draws the public view
(docs/luck-of-the-draw.md, "The game's view") and nothing else: the Subject card with its
numbered subjects and the one the die picked; the hourglass and who has handed in (never
a drawing while it is drawn); the gallery of drawings in the order the rules laid them
out, each with its coloured chip; the Category card read out, big, with how many have
voted (never who) and how many say nothing fits; the votes revealed all at once, the
Category cards lying under their drawings; and, at the round's end, whose drawing was
whose and the cards each player holds (a half card is a Subject card from a tie).

Drawings are painted once into cached sheets (kiosk.strokes.StrokeCache, keyed by match,
round and chip: a laid-out drawing never changes), labels and cards through the
renderer's part and text caches, so a gallery frame is a fill and some blits. Taps on
the die, the hourglass and the reveal button act as the table's DIE, HOURGLASS and
REVEAL buttons; "end the vote" and "nothing fits" act for the table (the kiosk hosts).

Like the rest of the kiosk this module imports no game code: it renders view dicts.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.intents import ActAs, Intent, PressButton
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
    centred_lines,
    draw_hourglass,
    draw_lines,
    draw_scoreboard,
    fit_wrapped,
    for_round,
    grid_origin,
    localised,
    paint_score_row,
    phase_of,
    pill,
    players_of,
    seat_ints,
    seat_list,
    seat_map,
    shadowed_sheet,
    sheet_grid,
    sheet_key,
    split_body,
    state_of,
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
    Frame,
    KioskRenderer,
    Metrics,
    blend,
    finish_round,
    format_seconds,
    parse_colour,
)
from appliance.kiosk.strokes import StrokeCache
from appliance.kiosk.text import add_texts, join_names, tr

GAME_ID: Final = "luck-of-the-draw"
CHIP_EDGE: Final[Colour] = (40, 40, 40)

# The kiosk's sentences for this game, English and Czech, added to the shared catalogues
# under "lotd." (kept here, beside the screen that says them).
STRINGS: Final[dict[str, dict[str, str | dict[str, str]]]] = {
    "en": {
        "lotd.round": "Round {n}",
        "lotd.goal": "first to {n} cards",
        "lotd.subject_card": "Subject card",
        "lotd.title_subject": "Roll the die for the subject",
        "lotd.title_ready": "Draw: {subject}",
        "lotd.title_drawing": "Draw: {subject}",
        "lotd.title_categories": "The drawings are in!",
        "lotd.title_voting": "Category {n} of {total}",
        "lotd.title_result": "The votes for category {n} of {total}",
        "lotd.title_scores": "Whose drawing was whose?",
        "lotd.title_over": "The game is over",
        "lotd.tap_die": "Tap the die or press DIE",
        "lotd.die_picks": "The die picks the subject everyone draws.",
        "lotd.tap_hourglass": "Tap the hourglass or press HOURGLASS when everyone is ready",
        "lotd.draw_on_phones": "Everyone draws on their phone — anything goes!",
        "lotd.handed_in": {"one": "{n} of {total} handed in", "other": "{n} of {total} handed in"},
        "lotd.drawing": "drawing…",
        "lotd.done": "handed in",
        "lotd.roll_categories": "Roll the die: how many Category cards this round?",
        "lotd.speedier": "Speedier game: two Category cards every round",
        "lotd.vote_on_phones": "Vote on your phone for the drawing that fits best",
        "lotd.voted": {"one": "{n} of {total} has voted", "other": "{n} of {total} have voted"},
        "lotd.all_voted": "Everyone has voted — press REVEAL!",
        "lotd.closed": "The vote is closed — press REVEAL",
        "lotd.nothing_fits": "Nothing fits: {n} of {total} agree",
        "lotd.nothing_fits_button": "Nothing fits",
        "lotd.end_vote": "End the vote",
        "lotd.reveal": "Reveal the votes",
        "lotd.next_category": "Next category",
        "lotd.show_owners": "Whose are they?",
        "lotd.next_round": "Next round",
        "lotd.replaced": {
            "one": "{n} category replaced: nothing fitted",
            "other": "{n} categories replaced: nothing fitted",
        },
        "lotd.votes": {"one": "{n} vote", "other": "{n} votes"},
        "lotd.wins": "wins the card",
        "lotd.tie": "Tie! A half card each; the category goes back in the box",
        "lotd.half_card": "half card",
        "lotd.winner_hidden": "The winners stay secret until the last category.",
        "lotd.scores": "Cards",
        "lotd.gained": "+{cards}",
        "lotd.agrees": "nothing fits",
        "lotd.winner": "winner",
        "lotd.artshow_round": "Art show · round {n} of {total}: {subject}",
        "lotd.round_gains": "Round {n}",
    },
    "cs": {
        "lotd.round": "Kolo {n}",
        "lotd.goal": "vyhrává {n} karet",
        "lotd.subject_card": "Karta námětů",
        "lotd.title_subject": "Hoď kostkou o námět",
        "lotd.title_ready": "Kreslíme: {subject}",
        "lotd.title_drawing": "Kreslíme: {subject}",
        "lotd.title_categories": "Všechny obrázky jsou odevzdané!",
        "lotd.title_voting": "Kategorie {n} z {total}",
        "lotd.title_result": "Hlasy pro kategorii {n} z {total}",
        "lotd.title_scores": "Kdo co nakreslil?",
        "lotd.title_over": "Konec hry",
        "lotd.tap_die": "Ťukni na kostku nebo stiskni KOSTKA",
        "lotd.die_picks": "Kostka vybere námět, který kreslí všichni.",
        "lotd.tap_hourglass": "Až budou všichni připraveni, ťukni na přesýpací hodiny",
        "lotd.draw_on_phones": "Všichni kreslí na telefonu — cokoli je dovoleno!",
        "lotd.handed_in": {
            "one": "{n} z {total} odevzdal",
            "few": "{n} z {total} odevzdali",
            "other": "{n} z {total} odevzdalo",
        },
        "lotd.drawing": "kreslí…",
        "lotd.done": "odevzdáno",
        "lotd.roll_categories": "Hoď kostkou: kolik kategorií bude v tomto kole?",
        "lotd.speedier": "Rychlejší hra: v každém kole dvě kategorie",
        "lotd.vote_on_phones": "Na telefonu hlasuj pro obrázek, který sedí nejlépe",
        "lotd.voted": {
            "one": "Hlasoval {n} z {total}",
            "few": "Hlasovali {n} z {total}",
            "other": "Hlasovalo {n} z {total}",
        },
        "lotd.all_voted": "Všichni hlasovali — stiskni ODHALIT!",
        "lotd.closed": "Hlasování je uzavřené — stiskni ODHALIT",
        "lotd.nothing_fits": "Nic nesedí: souhlasí {n} z {total}",
        "lotd.nothing_fits_button": "Nic nesedí",
        "lotd.end_vote": "Ukončit hlasování",
        "lotd.reveal": "Odhalit hlasy",
        "lotd.next_category": "Další kategorie",
        "lotd.show_owners": "Čí jsou?",
        "lotd.next_round": "Další kolo",
        "lotd.replaced": {
            "one": "{n} kategorie vyměněna: nic nesedělo",
            "few": "{n} kategorie vyměněny: nic nesedělo",
            "other": "{n} kategorií vyměněno: nic nesedělo",
        },
        "lotd.votes": {"one": "{n} hlas", "few": "{n} hlasy", "other": "{n} hlasů"},
        "lotd.wins": "vyhrává kartu",
        "lotd.tie": "Remíza! Každý dostane půl karty a kategorie jde zpět do krabice",
        "lotd.half_card": "půl karty",
        "lotd.winner_hidden": "Vítězové zůstanou tajní až do poslední kategorie.",
        "lotd.scores": "Karty",
        "lotd.gained": "+{cards}",
        "lotd.agrees": "nic nesedí",
        "lotd.winner": "vítěz",
        "lotd.artshow_round": "Výstava · kolo {n} z {total}: {subject}",
        "lotd.round_gains": "Kolo {n}",
    },
}
add_texts(STRINGS)


# --- reading the view ---------------------------------------------------------------------


@dataclass(frozen=True)
class Exhibit:
    """A drawing in the gallery as the view shows it: its chip, and its owner once shown."""

    chip: str
    colour: Colour
    name: Mapping[str, Any]
    strokes: list[Any]
    owner: int | None


def gallery_of(state: Mapping[str, Any]) -> list[Exhibit]:
    out = []
    for raw in as_list(state.get("gallery")):
        entry = as_map(raw)
        chip = entry.get("chip")
        if not isinstance(chip, str):
            continue
        strokes = entry.get("strokes")
        out.append(
            Exhibit(
                chip,
                parse_colour(entry.get("colour"), MUTED),
                entry,
                strokes if isinstance(strokes, list) else [],
                as_int(entry.get("owner")),
            )
        )
    return out


def halves_text(halves: int) -> str:
    """Half cards counted as cards: 7 -> '3½'."""
    whole, half = divmod(max(0, halves), 2)
    if half and whole:
        return f"{whole}½"
    return "½" if half else str(whole)


@dataclass
class Table(SeatTable):
    """The parts of a Luck of the Draw view that every phase needs, read defensively once."""

    round: int
    cards: dict[int, int] = field(default_factory=dict)
    halves: dict[int, int] = field(default_factory=dict)
    gallery: list[Exhibit] = field(default_factory=list)

    @classmethod
    def of(cls, f: Frame) -> Table:
        state = state_of(f)
        return cls(
            lang=f.lang,
            state=state,
            phase=phase_of(state),
            players=players_of(f.view, match_seats_only=True),
            round=as_int(state.get("round"), 1) or 1,
            cards=seat_ints(state.get("cards")),
            halves=seat_ints(state.get("halves")),
            gallery=gallery_of(state),
        )

    def score_halves(self, seat: int) -> int:
        return 2 * self.cards.get(seat, 0) + self.halves.get(seat, 0)

    def subject_text(self) -> str:
        number = as_int(self.state.get("subject"))
        for raw in as_list(as_map(self.state.get("subject_card")).get("subjects")):
            entry = as_map(raw)
            if number is not None and as_int(entry.get("number")) == number:
                return localised(entry, self.lang, any_language=True)
        return "?"


# --- caches that live as long as the renderer ---------------------------------------------


@dataclass
class LuckCaches:
    sheets: StrokeCache = field(default_factory=StrokeCache)


_CACHES: PerRenderer[LuckCaches] = PerRenderer(LuckCaches)


def caches_of(r: KioskRenderer) -> LuckCaches:
    """The Luck of the Draw caches of one renderer (a test's fresh renderer starts cold)."""
    return _CACHES.of(r)


def drawing_key(f: Frame, round_no: int, place: int, strokes: Sequence[Any]) -> Hashable:
    """A laid-out drawing's name: the match, the round and its place in the gallery (plus
    its stroke count, a cheap guard). The rules take no stroke once it is laid out."""
    return sheet_key(f, GAME_ID, round_no, place, len(strokes))


# --- the screen -----------------------------------------------------------------------------


def shown_round(f: Frame, table: Table) -> tuple[Table, tuple[int, int, str] | None]:
    """At the finish, the round of the art show on screen now (the last one first, then
    the whole game, a round per FINISH_STEP_S): the table as that round left it, with
    (its number, the rounds, its subject). Before the finish: the table as it is."""
    shows = [as_map(x) for x in as_list(table.state.get("art_show"))]
    if table.phase != "over" or not shows:
        return table, None
    show = shows[finish_round(f.view, f.now, len(shows))]
    state = {
        **table.state,
        "gallery": show.get("gallery"),
        "verdicts": show.get("verdicts"),
        "gained": show.get("gained"),
    }
    number = as_int(show.get("round"), table.round) or table.round
    subject = localised(show.get("subject"), table.lang, any_language=True) or "?"
    shown = replace(table, state=state, round=number, gallery=gallery_of(state))
    return for_round(shown, f.view, number), (number, len(shows), subject)


def luck_screen(r: KioskRenderer, f: Frame) -> None:
    """Draw one Luck of the Draw frame (GAME_SCREENS["luck-of-the-draw"])."""
    m = f.metrics
    table, art_show = shown_round(f, Table.of(f))
    area = pygame.Rect(m.margin, m.margin, m.w - 2 * m.margin, m.h - 2 * m.margin)
    header = _draw_header(r, f, table, area, art_show)
    top = header.bottom + m.gap
    body = pygame.Rect(area.left, top, area.w, area.bottom - top)
    if body.h < 20 or body.w < 40:
        return
    wide = bool(table.gallery)
    main, side, cols = split_body(
        r, m, body, len(table.players), 4 if wide else 3, 0.18 if wide else 0.26, 260
    )
    draw = {
        "subject": _draw_subject,
        "ready": _draw_subject,
        "drawing": _draw_drawing,
        "categories": _draw_gallery_phase,
        "voting": _draw_gallery_phase,
        "result": _draw_gallery_phase,
        "scores": _draw_gallery_phase,
        "over": _draw_gallery_phase,
    }.get(table.phase)
    if draw is not None:
        draw(r, f, table, main)
    _draw_scoreboard(r, f, table, side, cols)


def _title(table: Table) -> str:
    lang, phase, state = table.lang, table.phase, table.state
    total = as_int(state.get("categories")) or 0
    verdicts = as_list(state.get("verdicts"))
    if phase in ("ready", "drawing"):
        return tr(lang, f"lotd.title_{phase}", subject=table.subject_text())
    if phase == "voting":
        n = as_int(state.get("category_number")) or len(verdicts) + 1
        return tr(lang, "lotd.title_voting", n=n, total=total)
    if phase == "result":
        return tr(lang, "lotd.title_result", n=len(verdicts), total=total)
    if phase in ("subject", "categories", "scores", "over"):
        return tr(lang, f"lotd.title_{phase}")
    return "Luck of the Draw"


def _draw_header(
    r: KioskRenderer, f: Frame, table: Table, area: pygame.Rect,
    art_show: tuple[int, int, str] | None = None,
) -> pygame.Rect:
    m, s, lang = f.metrics, f.surface, f.lang
    match = as_map(f.view.get("match"))
    game_title = str(match.get("title") or "Luck of the Draw")
    right = area.right
    # The die's last roll: the subject's, then (from the vote on) the Category cards'
    # count; the speedier game's two cards were not rolled, so the badge goes then.
    rolled = as_int(table.state.get("subject"))
    if table.phase in ("voting", "result", "scores"):
        speedier = bool(table.state.get("speedier"))
        rolled = None if speedier else as_int(table.state.get("categories"))
    if rolled is not None and table.phase not in ("subject",) and art_show is None:
        side = r.line(m.f_head, True) + r.line(m.f_small)
        s.blit(die_face(r, rolled, side), (right - side, area.top))
        right -= side + m.gap
    parts = [game_title, tr(lang, "lotd.round", n=table.round)]
    if art_show is not None:  # the finish: the game is over, its rounds on show in turn
        parts[1] = tr(lang, "lotd.title_over")
    target = as_int(table.state.get("target"))
    if target:
        parts.append(tr(lang, "lotd.goal", n=target))
    sub = " · ".join(parts)
    width = max(1, right - area.left)
    small = r.blit_text(s, sub, m.f_small, MUTED, "topleft", area.topleft, True, width)
    heading = _title(table)
    if art_show is not None:
        number, rounds, subject_text = art_show
        heading = tr(lang, "lotd.artshow_round", n=number, total=rounds, subject=subject_text)
    size = r.fit_size(heading, m.f_title, width, bold=True, min_size=m.f_head)
    if r.fonts.font(size, True).size(heading)[0] <= width:
        big = r.blit_text(s, heading, size, TEXT, "topleft", (area.left, small.bottom), True, width)
    else:
        size, lines = fit_wrapped(r, heading, m.f_head, width, 2 * r.line(m.f_head, True), True)
        big = draw_lines(r, s, lines[:2], size, TEXT, (area.left, small.bottom), width, True)
    bottom = max(big.bottom, area.top + r.line(m.f_head, True) + r.line(m.f_small))
    return pygame.Rect(area.left, area.top, area.w, bottom - area.top)


# --- drawn things: the die, a chip, a card --------------------------------------------------


PIPS: Final = {1: ((0.5, 0.5),), 2: ((0.28, 0.28), (0.72, 0.72)),
               3: ((0.26, 0.26), (0.5, 0.5), (0.74, 0.74))}


def die_face(r: KioskRenderer, value: int | None, side: int, dim: bool = False) -> pygame.Surface:
    """The custom die showing `value` as pips ("?" before it is rolled)."""

    def paint(surf: pygame.Surface) -> None:
        rect = surf.get_rect()
        fill = blend(GOLD, BG, 0.55) if dim else GOLD
        pygame.draw.rect(surf, fill, rect, border_radius=max(3, side // 6))
        pygame.draw.rect(surf, GOLD_DEEP, rect, width=max(2, side // 24),
                         border_radius=max(3, side // 6))
        if value in PIPS:
            for fx, fy in PIPS[value]:
                pygame.draw.circle(surf, ON_ACCENT, (round(side * fx), round(side * fy)),
                                   max(2, side // 10))
        else:
            font = r.fonts.font(max(8, round(side * 0.6)), True)
            label = font.render("?", True, ON_ACCENT)
            surf.blit(label, label.get_rect(center=rect.center))

    return r.part(("lotd-die", value, side, dim), (side, side), paint)


def chip_disc(r: KioskRenderer, colour: Colour, side: int, ground: Colour) -> pygame.Surface:
    """A coloured chip with a dark rim, so a white or yellow chip reads on paper too."""

    def paint(surf: pygame.Surface) -> None:
        surf.fill(ground)
        centre = (side // 2, side // 2)
        pygame.draw.circle(surf, CHIP_EDGE, centre, side // 2)
        pygame.draw.circle(surf, colour, centre, max(1, side // 2 - max(2, side // 9)))
        pygame.draw.circle(surf, blend(colour, (255, 255, 255), 0.45), centre,
                           max(1, side // 5), max(1, side // 16))

    return r.part(("lotd-chip", colour, side, ground), (side, side), paint)



def fitted_block(
    r: KioskRenderer, text: str, size: int, width: int, height: int, bold: bool = False
) -> tuple[int, list[str]]:
    """`text` wrapped to fit the box, no word cut: Czech has long words ("Nejrealističtější")
    that a line to themselves would still overflow at the heading's size."""
    longest = max(text.split(), key=len, default="")
    size = min(size, r.fit_size(longest, size, width, bold, min_size=r.min_text))
    return fit_wrapped(r, text, size, width, height, bold)


def line_fitted(
    r: KioskRenderer, s: pygame.Surface, text: str, size: int, colour: Colour, anchor: str,
    pos: tuple[int, int], width: int, bold: bool = True,
) -> pygame.Rect:
    """One line, smaller rather than cut."""
    fitted = r.fit_size(text, size, width, bold, min_size=r.min_text)
    return r.blit_text(s, text, fitted, colour, anchor, pos, bold, width)


def button(
    r: KioskRenderer, f: Frame, label: str, anchor: str, pos: tuple[int, int], intent: Intent,
    fill: Colour = GOLD, width: int | None = None,
) -> pygame.Rect:
    """An on-screen button (a pill) that stands in for the table's own button; no wider
    than `width` (its words smaller, else cut with an ellipsis)."""
    m = f.metrics
    size, room = m.f_body, None
    if width is not None:
        room = max(1, width - 2 * max(6, m.f_body // 2))
        size = r.fit_size(label, m.f_body, room, True, min_size=r.min_text)
    # A finger high (Metrics.target): Nothing fits and Reveal the votes were 25-31 px.
    rect = pill(r, f.surface, label, size, fill, anchor, pos, True, room, m.target)
    # "Start the countdown" is the vote's next step (REVEAL's waits for every vote).
    r.add_target(rect, intent,
                 first=isinstance(intent, ActAs) and intent.kind == "close_vote")
    return rect


# --- subject and drawing ---------------------------------------------------------------------


def _subject_card(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> pygame.Rect:
    """The Subject card: its numbered subjects, the one the die picked lit."""
    m, s, lang = f.metrics, f.surface, f.lang
    chosen = as_int(table.state.get("subject"))
    card = as_map(table.state.get("subject_card"))
    subjects = [as_map(x) for x in as_list(card.get("subjects"))][:6]
    row_h = r.line(m.f_head, True) + m.gap
    h = r.line(m.f_small, True) + m.gap + max(1, len(subjects)) * row_h + m.gap
    box = pygame.Rect(rect.left, rect.top, rect.w, min(rect.h, h))
    pygame.draw.rect(s, PANEL, box, border_radius=m.radius)
    pygame.draw.rect(s, YES, box, width=max(3, round(6 * m.scale)), border_radius=m.radius)
    number = as_int(card.get("number"))
    caption = tr(lang, "lotd.subject_card") + (f" {number}" if number else "")
    y = r.blit_text(s, caption, m.f_small, YES, "topleft", (box.left + m.pad, box.top + m.gap // 2),
                    True).bottom + m.gap // 2
    for entry in subjects:
        n = as_int(entry.get("number"))
        lit = chosen is None or n == chosen
        side = r.line(m.f_head, True)
        s.blit(die_face(r, n, side, dim=not lit), (box.left + m.pad, y))
        ink = TEXT if lit else blend(MUTED, PANEL, 0.35)
        r.blit_text(s, localised(entry, lang, any_language=True), m.f_head, ink, "midleft",
                    (box.left + m.pad + side + m.gap, y + side // 2), lit and chosen is not None,
                    box.w - 2 * m.pad - side - m.gap)
        y += row_h
    return box


def _draw_subject(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s = f.metrics, f.lang, f.surface
    card = _subject_card(r, f, table, rect.inflate(-rect.w // 8, 0))
    rest = pygame.Rect(rect.left, card.bottom + m.gap, rect.w, rect.bottom - card.bottom - m.gap)
    icon_h = max(20, min(round(rest.h * 0.5), rest.h - 2 * r.line(m.f_body)))
    icon = pygame.Rect(0, 0, icon_h, icon_h)
    icon.midtop = (rest.centerx, rest.top)
    if table.phase == "subject":
        s.blit(die_face(r, None, icon_h), icon)
        r.add_target(icon.inflate(m.gap, m.gap), PressButton("die"))
        lines = [(tr(lang, "lotd.tap_die"), m.f_body, GOLD, True),
                 (tr(lang, "lotd.die_picks"), m.f_small, MUTED, False)]
    else:
        glass = pygame.Rect(0, 0, round(icon_h / 1.6), icon_h)
        glass.midtop = icon.midtop
        draw_hourglass(s, glass, 1.0)
        r.add_target(glass.inflate(m.gap, m.gap), PressButton("hourglass"))
        lines = [(tr(lang, "lotd.tap_hourglass"), m.f_body, GOLD, True),
                 (tr(lang, "lotd.draw_on_phones"), m.f_small, MUTED, False)]
    centred_lines(r, f, rest, icon.bottom + m.gap // 2, lines)


def _draw_drawing(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, lang, s, state = f.metrics, f.lang, f.surface, table.state
    remaining = f.remaining
    length = f.length or float(as_int(state.get("seconds"), 45) or 45)
    fraction = 1.0 if remaining is None else remaining / max(1.0, length)
    urgent = remaining is not None and remaining <= min(10.0, length / 4)
    glass_w = min(round(rect.w * 0.3), round(rect.h * 0.85 / 1.6))
    glass = pygame.Rect(rect.left, rect.top, glass_w, rect.h)
    draw_hourglass(s, glass.inflate(-m.gap, -2 * m.gap), fraction)
    text = pygame.Rect(glass.right + 2 * m.gap, rect.top, rect.right - glass.right - 2 * m.gap,
                       rect.h)
    if text.w < 20:
        return
    clock = format_seconds(remaining) if remaining is not None else "–:––"
    big = r.fit_size(clock, round(m.f_title * 2.6), text.w, bold=True)
    done = set(seat_list(state.get("done")))
    players = sorted(table.players)
    y = text.top + m.gap
    size, lines = fit_wrapped(r, table.subject_text(), m.f_title, text.w, 2 * r.line(m.f_title,
                              True), True)
    y = draw_lines(r, s, lines[:2], size, GOLD, (text.left, y), text.w, True).bottom
    size, lines = fit_wrapped(r, tr(lang, "lotd.draw_on_phones"), m.f_body, text.w,
                              2 * r.line(m.f_body))
    y = draw_lines(r, s, lines, size, MUTED, (text.left, y), text.w).bottom + m.gap
    y = r.blit_text(s, clock, big, WARN if urgent else TEXT, "topleft", (text.left, y),
                    True).bottom + m.gap
    count = tr(lang, "lotd.handed_in", n=sum(1 for p in players if p in done), total=len(players))
    y = r.blit_text(s, count, m.f_body, TEXT, "topleft", (text.left, y), True, text.w).bottom
    y += m.gap // 2
    x = text.left
    for seat in players:
        fill = table.colour(seat) if seat in done else PANEL
        chip = pill(r, s, table.name(seat), m.f_small, fill, "topleft", (x, y),
                    max_width=round(320 * m.scale))
        if seat not in done:
            pygame.draw.rect(s, PANEL_EDGE, chip, width=2, border_radius=chip.h // 2)
        x = chip.right + m.gap // 2
        if x > text.right - round(160 * m.scale):
            x, y = text.left, chip.bottom + m.gap // 2
        if y > text.bottom:
            break


# --- the gallery -------------------------------------------------------------------------------



def _verdict_marks(table: Table) -> tuple[dict[str, list[str]], set[str], dict[str, int]]:
    """From this round's verdicts: the Category cards under each chip's drawing, the
    chips tied in the latest verdict, and the latest votes per chip."""
    under: dict[str, list[str]] = {}
    tied: set[str] = set()
    latest: dict[str, int] = {}
    verdicts = [as_map(v) for v in as_list(table.state.get("verdicts"))]
    for i, verdict in enumerate(verdicts):
        leaders = [c for c in as_list(verdict.get("leaders")) if isinstance(c, str)]
        category = localised(verdict.get("category"), table.lang, any_language=True)
        if len(leaders) == 1:
            under.setdefault(leaders[0], []).append(category)
        else:
            for chip in leaders:
                under.setdefault(chip, []).append("½ " + category)
        if i == len(verdicts) - 1:
            tied = set(leaders) if len(leaders) > 1 else set()
            for pair in as_list(verdict.get("tally")):
                items = as_list(pair)
                if len(items) == 2 and isinstance(items[0], str):
                    latest[items[0]] = as_int(items[1], 0) or 0
    return under, tied, latest


def _draw_gallery_phase(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m = f.metrics
    panel_w = max(round(rect.w * 0.3), min(rect.w // 3, round(380 * m.scale)))
    if m.portrait:
        panel = pygame.Rect(rect.left, rect.bottom - rect.h // 3, rect.w, rect.h // 3)
        grid = pygame.Rect(rect.left, rect.top, rect.w, panel.top - m.gap - rect.top)
    else:
        panel = pygame.Rect(rect.right - panel_w, rect.top, panel_w, rect.h)
        grid = pygame.Rect(rect.left, rect.top, rect.w - panel_w - m.gap, rect.h)
    _draw_gallery(r, f, table, grid)
    _draw_side_panel(r, f, table, panel)


def _draw_gallery(r: KioskRenderer, f: Frame, table: Table, box: pygame.Rect) -> None:
    m, s, lang, phase = f.metrics, f.surface, f.lang, table.phase
    exhibits = table.gallery
    label_h = r.line(m.f_small, True) * 2 + m.gap // 3
    gap = max(4, m.gap // 2)
    cols, rows, cell_w = sheet_grid(len(exhibits), box, label_h, gap)
    x0, y0, cell_h = grid_origin(box, cols, rows, cell_w, label_h, gap)
    under, tied, latest = _verdict_marks(table)
    showing_votes = phase == "result"
    leaders = {c for c, n in latest.items() if n and n == max(latest.values(), default=0)}
    owners_shown = phase in ("scores", "over")
    for i, ex in enumerate(exhibits):
        col, row = i % cols, i // cols
        cell = pygame.Rect(x0 + col * (cell_w + gap), y0 + row * (cell_h + label_h + gap),
                           cell_w, cell_h)
        key = drawing_key(f, table.round, i, ex.strokes)
        sheet = shadowed_sheet(s, caches_of(r).sheets, ex.strokes, cell, key)
        if showing_votes and ex.chip in leaders:
            ring = GOLD if ex.chip not in tied else blend(GOLD, MUTED, 0.4)
            pygame.draw.rect(s, ring, sheet.inflate(8, 8), width=max(3, round(5 * m.scale)),
                             border_radius=4)
        side = max(14, min(round(sheet.h * 0.28), round(r.line(m.f_head, True) * 1.15)))
        s.blit(chip_disc(r, ex.colour, side, (255, 253, 247)), (sheet.left + 4, sheet.top + 4))
        y = sheet.bottom + m.gap // 4
        name = localised(ex.name, lang, any_language=True)
        if owners_shown and ex.owner is not None:
            owner = table.name(ex.owner)
            pygame.draw.line(s, table.colour(ex.owner), (sheet.left, sheet.bottom + 2),
                             (sheet.right, sheet.bottom + 2), max(3, round(6 * m.scale)))
            label = f"{owner} · {name}"
        else:
            label = name
        right = sheet.right
        if showing_votes:
            votes = tr(lang, "lotd.votes", n=latest.get(ex.chip, 0))
            v = r.blit_text(s, votes, m.f_small, GOLD if ex.chip in leaders else MUTED,
                            "topright", (right, y), True)
            right = v.left - m.gap // 3
        r.blit_text(s, label, m.f_small, ex.colour if not owners_shown else TEXT, "topleft",
                    (sheet.left, y), True, max(1, right - sheet.left))
        cards = under.get(ex.chip)
        if cards:
            _draw_cards(r, f, cards, (sheet.left, y + r.line(m.f_small, True)), sheet.w)


def _draw_cards(r: KioskRenderer, f: Frame, cards: list[str], pos: tuple[int, int],
                width: int) -> None:
    """The Category cards under a drawing ("½ Shiniest · Funniest"); where they do not
    fit, how many first ("+1½", never cut: "½ Looks the ol…" hid a second card), then
    their names in what is left."""
    m, s = f.metrics, f.surface
    said = " · ".join(cards)
    if r.fonts.font(max(r.min_text, round(m.f_small * 0.8))).size(said)[0] <= width:
        r.blit_text(s, said, m.f_small, GOLD, "topleft", pos, False, width)
        return
    halves = sum(1 if card.startswith("½ ") else 2 for card in cards)
    count = r.blit_text(s, tr(f.lang, "lotd.gained", cards=halves_text(halves)), m.f_small,
                        GOLD, "topleft", pos, True)
    names = " · ".join(card.removeprefix("½ ") for card in cards)
    room = pos[0] + width - count.right - m.gap // 3
    if room > 2 * m.f_small:
        r.blit_text(s, names, m.f_small, GOLD, "topleft", (count.right + m.gap // 3, pos[1]),
                    False, room)


def _draw_side_panel(r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect) -> None:
    m, s, lang, phase, state = f.metrics, f.surface, f.lang, table.phase, table.state
    pygame.draw.rect(s, PANEL, rect, border_radius=m.radius)
    inner = rect.inflate(-2 * m.pad, -2 * m.pad)
    if inner.w < 20 or inner.h < 20:
        return
    y = inner.top
    players = len(table.players) or as_int(state.get("voters"), 0) or 0
    if phase == "categories":
        # The question and what to press whole (a narrow Czech panel cut both): the die
        # is drawn in the room they leave.
        question = wrap(r, tr(lang, "lotd.roll_categories"), m.f_body, inner.w, True)
        tap = wrap(r, tr(lang, "lotd.tap_die"), m.f_small, inner.w, True)
        words_h = (len(question) * r.line(m.f_body, True) + len(tap) * r.line(m.f_small, True)
                   + m.gap + m.gap // 2)
        side = max(m.target, min(round(inner.h * 0.35), inner.w // 2, inner.h - words_h))
        die = pygame.Rect(0, 0, side, side)
        die.midtop = (inner.centerx, y)
        s.blit(die_face(r, None, side), die)
        r.add_target(die.inflate(m.gap, m.gap), PressButton("die"))
        y = die.bottom + m.gap
        y = draw_lines(r, s, question, m.f_body, TEXT, (inner.left, y), inner.w, True,
                       "center").bottom
        draw_lines(r, s, tap, m.f_small, GOLD, (inner.left, y + m.gap // 2), inner.w, True,
                   "center")
        return
    verdicts = [as_map(v) for v in as_list(state.get("verdicts"))]
    category = state.get("category") if phase == "voting" else (
        verdicts[-1].get("category") if verdicts and phase == "result" else None
    )
    if category is not None:
        # The Category card, read out: as big as it fits in the upper half.
        card_h = round(inner.h * (0.5 if phase == "voting" else 0.4))
        if phase == "voting":  # smaller before the instruction under it is cut (7-inch)
            below = (r.line(m.f_head, True) + 2 * (m.target + m.gap // 2)
                     + 3 * r.line(m.f_small) + 2 * m.gap)
            card_h = max(2 * r.line(m.f_head, True), min(card_h, inner.h - below))
        card = pygame.Rect(inner.left, y, inner.w, card_h)
        pygame.draw.rect(s, blend(PANEL, GOLD, 0.12), card, border_radius=m.radius)
        pygame.draw.rect(s, GOLD, card, width=max(2, round(4 * m.scale)), border_radius=m.radius)
        text = localised(category, lang, any_language=True)
        size, lines = fitted_block(r, text, m.f_title, card.w - 2 * m.gap, card.h - 2 * m.gap, True)
        text_h = len(lines) * r.line(size, True)
        draw_lines(r, s, lines, size, TEXT, (card.left + m.gap, card.centery - text_h // 2),
                   card.w - 2 * m.gap, True, "center")
        y = card.bottom + m.gap
    if phase == "voting":
        voted = as_int(state.get("voted"), 0) or 0
        total = as_int(state.get("voters"), players) or players
        closed = bool(state.get("closed"))
        ready = closed or (total > 0 and voted >= total)
        line = tr(lang, "lotd.voted", n=voted, total=total)
        y = line_fitted(r, s, line, m.f_head, GOLD if ready else TEXT, "topleft",
                        (inner.left, y), inner.w).bottom
        hint = tr(lang, "lotd.closed" if closed else "lotd.all_voted" if ready
                  else "lotd.vote_on_phones")
        # The buttons (and a running countdown) from the bottom up first, no wider than
        # the panel (narrow on the 7-inch screen); the notes then get the room between.
        wide = rect.w - m.gap
        bottom = inner.bottom
        if ready:
            bottom = button(r, f, tr(lang, "lotd.reveal"), "midbottom", (inner.centerx, bottom),
                            PressButton("reveal"), width=wide).top - m.gap // 2
        else:
            if state.get("countdown"):
                # On two lines rather than cut: the time left ends the sentence.
                left = format_seconds(f.remaining if f.remaining is not None else 0.0)
                size, lines = fit_wrapped(r, tr(lang, "vote.countdown", time=left), m.f_head,
                                          inner.w, 2 * r.line(m.f_head, True), True)
                top = bottom - len(lines) * r.line(size, True)
                draw_lines(r, s, lines, size, WARN, (inner.left, top), inner.w, True, "center")
                bottom = top - m.gap // 2
            else:  # the kiosk speaks for the table: a countdown for those who have not voted
                # Said shorter where it would be cut (the 7-inch panel's side panel).
                label = tr(lang, "vote.start_countdown")
                room = wide - 2 * max(6, m.f_body // 2)
                if r.fonts.font(r.min_text, True).size(label)[0] > room:
                    label = tr(lang, "vote.start_countdown_short")
                bottom = button(r, f, label, "midbottom", (inner.centerx, bottom),
                                ActAs(None, "close_vote"), PANEL_EDGE, wide).top - m.gap // 2
            bottom = button(r, f, tr(lang, "lotd.nothing_fits_button"), "midbottom",
                            (inner.centerx, bottom), ActAs(None, "nothing_fits"), PANEL_EDGE,
                            wide).top - m.gap // 2
        notes: list[tuple[str, Colour, bool]] = []
        agree = len(seat_list(state.get("nothing_fits")))
        if agree:
            notes.append((tr(lang, "lotd.nothing_fits", n=agree, total=total), WARN, True))
        replaced = as_int(state.get("replaced"), 0) or 0
        if replaced:
            notes.append((tr(lang, "lotd.replaced", n=replaced), MUTED, False))
        # The instruction in as many lines as the room holds (up to four): a narrow panel
        # wraps rather than cuts it; the notes under it, each on its lines.
        line_h = r.line(m.f_small, True)
        note_lines = [fit_wrapped(r, t, m.f_small, inner.w, 2 * line_h, bold)
                      for t, _, bold in notes]
        notes_h = sum(len(lines) * line_h for _, lines in note_lines)
        room = min(4 * r.line(m.f_small), bottom - y - notes_h)
        if room >= r.line(m.f_small):
            size, lines = fit_wrapped(r, hint, m.f_small, inner.w, room)
            y = draw_lines(r, s, lines, size, MUTED, (inner.left, y), inner.w).bottom
        for (_, colour, bold), (size, lines) in zip(notes, note_lines, strict=True):
            if y + len(lines) * line_h > bottom:
                break
            y = draw_lines(r, s, lines, size, colour, (inner.left, y), inner.w, bold).bottom
        return
    if phase == "result" and verdicts:
        last = verdicts[-1]
        leaders = [c for c in as_list(last.get("leaders")) if isinstance(c, str)]
        names = {e.chip: localised(e.name, lang, any_language=True) for e in table.gallery}
        colours = {e.chip: e.colour for e in table.gallery}
        if len(leaders) == 1:
            side = r.line(m.f_head, True)
            s.blit(chip_disc(r, colours.get(leaders[0], MUTED), side, PANEL), (inner.left, y))
            # Two lines beside the chip rather than "white wins th…" in a narrow panel.
            text_w = inner.w - side - m.gap // 2
            size, lines = fit_wrapped(r, f"{names.get(leaders[0], '?')} {tr(lang, 'lotd.wins')}",
                                      m.f_head, text_w, 2 * r.line(m.f_head, True), True)
            said = draw_lines(r, s, lines, size, GOLD, (inner.left + side + m.gap // 2, y),
                              text_w, True)
            y = max(y + side, said.bottom) + m.gap // 2
        else:
            size, lines = fit_wrapped(r, tr(lang, "lotd.tie"), m.f_body, inner.w,
                                      4 * r.line(m.f_body, True), True)
            y = draw_lines(r, s, lines, size, GOLD, (inner.left, y), inner.w, True).bottom
        # Every vote, revealed at once: who turned their wheel to which chip. All of them:
        # in two columns when one has no room for every voter (a 7-inch screen, 5+ votes).
        votes = [(voter, chip) for v in as_list(last.get("votes"))[:8]
                 if (voter := as_int(as_map(v).get("voter"))) is not None
                 and isinstance(chip := as_map(v).get("chip"), str)]
        side = r.line(m.f_small)
        total = as_int(state.get("categories"), 1) or 1
        last_one = len(verdicts) >= total
        room = inner.bottom - max(m.target, r.line(m.f_body, True) + m.gap) - y
        # One column (names whole) where it fits above the button, else two; the hint
        # below comes only where there is room for it whole.
        fit = max(1, room // (side + 2))
        columns = 1 if len(votes) <= fit else 2
        per_column = -(-len(votes) // columns)
        col_w = (inner.w - (columns - 1) * m.gap) // columns
        for i, (voter, chip) in enumerate(votes):
            at_x = inner.left + (i // per_column) * (col_w + m.gap)
            at_y = y + (i % per_column) * (side + 2)
            s.blit(chip_disc(r, colours.get(chip, MUTED), side, PANEL),
                   (at_x + col_w - side, at_y))
            r.blit_text(s, table.name(voter), m.f_small, table.colour(voter), "topleft",
                        (at_x, at_y), True, col_w - side - m.gap // 2)
        y += per_column * (side + 2)
        if not last_one:
            button_h = max(m.target, r.line(m.f_body, True) + m.gap)
            room = inner.bottom - y - m.gap // 3 - button_h
            room = min(4 * r.line(m.f_small), room)
            lines = wrap(r, tr(lang, "lotd.winner_hidden"), m.f_small, inner.w)
            # Whole or not at all ("The winners stay s…" says nothing): where every
            # voter takes the room, the voters win; the rules and the phones say it too.
            if len(lines) * r.line(m.f_small) <= room:
                draw_lines(r, s, lines, m.f_small, MUTED, (inner.left, y + m.gap // 3), inner.w)
        label = tr(lang, "lotd.show_owners" if last_one else "lotd.next_category")
        button(r, f, label, "midbottom", (inner.centerx, inner.bottom), PressButton("reveal"))
        return
    if phase in ("scores", "over"):
        gained = seat_map(state.get("gained"))
        rows = sorted(table.players, key=lambda p: (-table.score_halves(p), p))
        if phase == "over":  # the art show's round: what its verdicts gave
            y = r.blit_text(s, tr(lang, "lotd.round_gains", n=table.round), m.f_small, MUTED,
                            "topleft", (inner.left, y), True, inner.w).bottom
        for seat in rows:
            got = as_map(gained.get(seat))
            cards, halves = as_int(got.get("cards"), 0) or 0, as_int(got.get("halves"), 0) or 0
            if not cards and not halves:
                continue
            # The cards won whole at the right, the name cut before them if it must be.
            gain = r.blit_text(s, f"+{halves_text(2 * cards + halves)}", m.f_body, YES,
                               "topright", (inner.right, y), True)
            y = r.blit_text(s, table.name(seat), m.f_body, YES, "topleft", (inner.left, y),
                            True, max(1, gain.left - m.gap // 2 - inner.left)).bottom
        if phase == "scores":
            button(r, f, tr(lang, "lotd.next_round"), "midbottom", (inner.centerx, inner.bottom),
                   PressButton("reveal"))
        else:
            best = max((table.score_halves(p) for p in table.players), default=0)
            winners = [table.name(p) for p in table.players if table.score_halves(p) == best]
            r.blit_text(s, f"{tr(lang, 'lotd.winner')}: {join_names(lang, winners)}", m.f_head,
                        GOLD, "bottomleft", (inner.left, inner.bottom), True, inner.w)


# --- the scoreboard ---------------------------------------------------------------------------


def _note(table: Table, seat: int) -> tuple[str, Colour] | None:
    """What a player is doing now, for their scoreboard row (never whether they voted)."""
    lang, state, phase = table.lang, table.state, table.phase
    if phase == "drawing":
        done = seat in seat_list(state.get("done"))
        return (tr(lang, "lotd.done"), YES) if done else (tr(lang, "lotd.drawing"), MUTED)
    if phase == "voting" and seat in seat_list(state.get("nothing_fits")):
        return tr(lang, "lotd.agrees"), NO
    return None


def _draw_scoreboard(
    r: KioskRenderer, f: Frame, table: Table, rect: pygame.Rect, cols: int
) -> None:
    m = f.metrics
    leader = max((table.score_halves(p) for p in table.players), default=0)

    def row(seat: int, size: tuple[int, int]) -> pygame.Surface:
        player = table.players[seat]
        halves = table.score_halves(seat)
        return _score_row(r, m, player, halves, leader > 0 and halves == leader,
                          _note(table, seat), size)

    draw_scoreboard(r, f, tr(f.lang, "lotd.scores"), sorted(table.players), rect, cols, row)


def _score_row(
    r: KioskRenderer, m: Metrics, player: Player, halves: int, lead: bool,
    note: tuple[str, Colour] | None, size: tuple[int, int],
) -> pygame.Surface:
    def score(surf: pygame.Surface, rect: pygame.Rect, right: int) -> int:
        # Cards as "3½": paint_score_row's score is a whole number.
        text = halves_text(halves)
        sc = r.blit_text(surf, text, m.f_head, GOLD if lead else TEXT, "midright",
                         (right, rect.centery), True)
        return sc.left - m.gap // 3

    def paint(surf: pygame.Surface) -> None:
        paint_score_row(r, m, surf, player, None, lead, note, score)

    return r.part(("lotd-score", player, halves, lead, note, m), size, paint)


GAME_SCREENS[GAME_ID] = luck_screen

__all__ = ["LuckCaches", "caches_of", "halves_text", "luck_screen"]
