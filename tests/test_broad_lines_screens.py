"""Broad Lines on the kiosk: every phase renders from views the real rules make, the easel
stacks its sheets from a cache, the table's drawing area is declared for the Artist and a
stroke drawn there reaches the game, and the word never reaches the kiosk early."""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.kiosk import KioskRenderer
from appliance.kiosk.broad_lines import broad_lines_screen, caches_of
from appliance.kiosk.intents import ActAs, CanvasSpec, DrawStroke, PressButton
from appliance.table.session import HOST, KIOSK, Session
from games.broad_lines import RULES, BroadLinesState, artists, word_of
from games.core import TABLE, Action, SeatInfo
from tests import screens

SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
SIZES = [(1920, 1080), (800, 480), (1080, 1920)]
NAMES = ["Ada", "Bořek", "Cy", "Dana", "Emil"]
PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4"]


def wobbly(rng: random.Random) -> dict[str, Any]:
    """A hand-drawn arc that keeps its bend: one legal curve."""
    cx, cy = rng.uniform(400, 1200), rng.uniform(300, 700)
    r, start = rng.uniform(120, 300), rng.uniform(0, 6.2)
    pts = []
    for i in range(40):
        a = start + 2.4 * i / 39
        pts.append([round(cx + r * math.cos(a)), round(cy + r * math.sin(a)), 16 * i])
    return {"points": pts, "colour": "#202020", "width": 10}


class Game:
    """A Broad Lines game driven by the real rules, viewed as the kiosk sees it."""

    def __init__(self, players: int = 4, sheets: int = 25, seed: int = 11) -> None:
        self.seats = [SeatInfo(i, NAMES[i], PALETTE[i]) for i in range(players)]
        self.state: BroadLinesState = RULES.setup(self.seats, {"sheets": sheets}, 2**40 + seed)
        self.rng = random.Random(seed)
        self.version = 1

    def act(self, kind: str, seat: int | None = TABLE, **data: Any) -> None:
        self.state = RULES.apply(self.state, Action(kind, seat, data, 0.0))
        self.version += 1

    def place_sheets(self, count: int, guess: bool = True) -> None:
        for _ in range(count):
            if self.state.phase == "choose":
                self.act("name_number", self.state.round.critic, number=3)
            artist = self.state.round.artist
            self.act("stroke", artist, **wobbly(self.rng))
            self.act("place", artist)
            if guess and self.state.used < self.state.total:
                for _ in range(2):
                    self.act("mark", artists(self.state)[0], right=False)

    def view(self, lang: str = "en") -> dict[str, Any]:
        return {
            "type": "view", "version": self.version, "lang": lang, "room": "KQ4T",
            "join_url": "http://192.168.1.20:8080/?room=KQ4T", "wifi": None,
            "phase": "playing", "max_players": 8,
            "seats": [
                {"seat": s.seat, "name": s.name, "colour": s.colour, "connected": True,
                 "host": s.seat == 0}
                for s in self.seats
            ],
            "spectators": 0, "palette": PALETTE, "games": [], "selected": "broad-lines",
            "match": {
                "id": 5, "game": "broad-lines", "title": "Broad Lines",
                "seats": [{"seat": s.seat, "name": s.name, "colour": s.colour}
                          for s in self.seats],
                "state": RULES.view(self.state, None), "deadline": None,
                "outcome": None,
            },
            "you": None,
        }


def in_phase(phase: str) -> Game:
    g = Game()
    if phase == "choose":
        return g
    g.act("name_number", g.state.round.critic, number=2)
    if phase == "drawing":
        g.place_sheets(2)
        return g
    if phase == "panel":
        g.place_sheets(1)
        artist = g.state.round.artist
        g.act("use_panel", artist, on=True)
        g.act("stroke", artist, **wobbly(g.rng))
        return g
    if phase == "vote":
        artist = g.state.round.artist
        for y in (100, 400, 700):
            g.act("stroke", artist, points=[[100, y, 0], [1500, y + 50, 90]])
        g.act("accept_vote", artist, accept=True)
        return g
    if phase == "guessing":
        g.place_sheets(3)
        g.place_sheets(1, guess=False)
        g.act("guess", g.state.round.critic, text="mountain")
        g.act("hint", artists(g.state)[1], hint="almost")
        return g
    if phase == "give_up":
        g.place_sheets(1)
        g.act("hold_hourglass")
        g.act("agree_give_up", 1)
        return g
    if phase == "reveal":
        g.place_sheets(1)
        g.place_sheets(1, guess=False)
        g.act("mark", artists(g.state)[0], right=True)
        return g
    assert phase == "over"
    g = Game(sheets=8)
    g.act("name_number", g.state.round.critic, number=2)
    g.place_sheets(1)
    g.place_sheets(1, guess=False)
    g.act("mark", artists(g.state)[0], right=True)
    g.act("press_reveal")
    g.place_sheets(6)
    for _ in range(2):  # the last sheet's last two guesses
        g.act("mark", artists(g.state)[0], right=False)
    assert g.state.phase == "over"
    return g


PHASES = ["choose", "drawing", "panel", "vote", "guessing", "give_up", "reveal", "over"]


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    with screens.screen_registered("broad-lines", broad_lines_screen):
        yield


@pytest.fixture(scope="module")
def display() -> Iterator[pygame.Surface]:
    with screens.open_display() as screen:
        yield screen


def render(
    size: tuple[int, int], view: dict[str, Any], renderer: KioskRenderer | None = None
) -> tuple[pygame.Surface, KioskRenderer]:
    return screens.render("broad-lines", size, view, renderer)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_renders(display: pygame.Surface, size: tuple[int, int], phase: str) -> None:
    game = in_phase(phase)
    for lang in ("en", "cs"):
        surface, r = render(size, game.view(lang))
        assert len(screens.region_colours(surface, surface.get_rect(), 11)) > 8
        if lang == "en" and size == SIZES[0]:
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-broad-lines-{phase}.png")
        intents = [intent for _, intent in r.targets]
        critic = game.state.round.critic
        if phase == "choose":
            assert ActAs(critic, "name_number", {"number": 4}) in intents
        if phase == "drawing":
            assert ActAs(game.state.round.artist, "use_panel", {"on": True}) in intents
        if phase == "reveal":
            assert PressButton("reveal") in intents
        if phase == "give_up":
            assert ActAs(None, "refuse_give_up") in intents
            assert ActAs(0, "agree_give_up") in intents
            assert ActAs(1, "agree_give_up") not in intents  # agreed already
        if phase == "guessing":
            marker = game.state.round.sheets[-1].artist
            assert ActAs(marker, "mark", {"right": True}) in intents


@pytest.mark.parametrize("sheets", [1, 25])
def test_the_easel_stacks_its_sheets(display: pygame.Surface, sheets: int) -> None:
    """Screenshots of the easel with 1 and with 25 sheets; the stack is painted once."""
    game = Game(sheets=25)
    game.act("name_number", game.state.round.critic, number=1)
    game.place_sheets(sheets - 1)
    game.place_sheets(1, guess=False)
    view = game.view()
    assert len(view["match"]["state"]["easel"]) == sheets
    surface, r = render((1920, 1080), view)
    pygame.image.save(surface, SCREENSHOT_DIR / f"easel-broad-lines-{sheets}-sheets.png")
    painted = caches_of(r).stacks.painted
    again = json.loads(json.dumps(view))
    again["version"] += 1
    render((1920, 1080), again, r)
    assert caches_of(r).stacks.painted == painted, "a redraw painted the stack again"
    # The next sheet paints one layer on the cached stack, not the whole stack again.
    if sheets < 25:
        for _ in range(2):
            game.act("mark", artists(game.state)[0], right=False)
        game.place_sheets(1, guess=False)
        render((1920, 1080), game.view(), r)
        assert caches_of(r).stacks.painted == painted + 1
    # The sheets are visible on the board: its pixels are no longer one colour.
    assert len(screens.region_colours(surface, pygame.Rect(200, 300, 900, 500), 9)) > 3


def test_drawing_on_the_table_declares_a_canvas_and_its_stroke_reaches_the_game(
    display: pygame.Surface,
) -> None:
    game = in_phase("panel")
    artist = game.state.round.artist
    _surface, r = render((1920, 1080), game.view())
    assert len(r.canvases) == 1
    rect, spec = r.canvases[0]
    assert spec == CanvasSpec(seat=artist, kind="stroke", colour="#202020", width=10)
    assert abs(rect.w / rect.h - 1.6) < 0.01
    intents = [intent for _, intent in r.targets]
    assert ActAs(artist, "place", {}) in intents and ActAs(artist, "undo", {}) in intents
    assert ActAs(artist, "use_panel", {"on": False}) in intents
    # What the ink layer sends for a stroke on this canvas: the session's act(seat, kind, data).
    before = len(game.state.round.drawing)
    data = {"points": [[200, 200, 0], [900, 650, 100]], "colour": spec.colour,
            "width": spec.width}
    game.act(spec.kind, spec.seat, **data)
    assert len(game.state.round.drawing) == before + 1
    _, r2 = render((1920, 1080), game.view(), r)
    assert len(r2.canvases) == 1
    # Placed (the table accepts the two figures): the easel is back, no drawing area.
    game.act("undo", artist)
    game.act("place", artist)
    _, r3 = render((1920, 1080), game.view(), r)
    assert r3.canvases == []


def test_a_stroke_intent_from_the_canvas_reaches_the_session(
    display: pygame.Surface, session: Session
) -> None:
    """The kiosk's canvas -> DrawStroke -> the session's act: the Artist's sheet grows."""
    for name, colour in zip(NAMES[:3], PALETTE[:3], strict=True):
        session.join(name, colour)
    session.select(HOST, "broad-lines")
    session.start(HOST)
    assert session.match is not None
    session.act(session.match.state.round.critic, "name_number", {"number": 1})
    artist = session.match.state.round.artist
    session.act(artist, "use_panel", {"on": True})
    _, r = render((1920, 1080), session.view_for(KIOSK))
    _rect, spec = r.canvases[0]
    intent = DrawStroke(spec, ((100, 100, 0), (800, 500, 120)))
    # What app.py does with a DrawStroke: the canvas's seat acts with the canvas's kind.
    session.act(intent.canvas.seat, intent.canvas.kind, {
        "points": [list(p) for p in intent.points], "colour": intent.canvas.colour,
        "width": intent.canvas.width,
    })
    assert len(session.match.state.round.drawing) == 1
    _, r = render((1920, 1080), session.view_for(KIOSK), r)
    place = next(t for t in (i for _, i in r.targets) if isinstance(t, ActAs)
                 and t.kind == "place")
    session.act(place.seat, place.kind, place.data)
    assert session.match.state.phase == "guessing"


@pytest.mark.parametrize("phase", PHASES)
def test_the_word_never_reaches_the_kiosk_before_the_round_ends(phase: str) -> None:
    game = in_phase(phase)
    word = word_of(game.state.round)
    text = json.dumps(game.view(), ensure_ascii=False)
    if word is not None and phase not in ("reveal", "over"):
        assert f'"{word.en}"' not in text and f'"{word.cs}"' not in text


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("touch", [True, False], ids=["touch", "tv"])
def test_an_artist_without_a_phone_asks_for_another_number(display, size, touch):
    """Issue 31: an Artist at the kiosk (no phone) who does not know the word asks for
    another number, as the phones offer it, before the first sheet; the rules take it.
    On a TV without touch "Draw here on the table" is not offered, "Drawn on paper" is."""
    for lang, label in (("en", "Another number"), ("cs", "Jiné číslo")):
        g = Game()
        g.act("name_number", g.state.round.critic, number=2)
        kiosk_artist = next(s for s in artists(g.state) if s != g.state.round.artist)
        at_kiosk = [kiosk_artist, g.state.round.artist]
        view = {**g.view(lang), "seat_pad": {"state": "closed", "kiosk_seats": at_kiosk}}
        r = KioskRenderer()
        r.touch = touch
        r.record_layout = True
        surface, r = screens.render("broad-lines", size, view, r)
        intents = [i for _, i in r.targets]
        ask = ActAs(min(at_kiosk), "ask_other", {})  # the kiosk speaks for the first
        assert ask in intents
        assert (ActAs(g.state.round.artist, "use_panel", {"on": True}) in intents) is touch
        assert r.first_focus == ActAs(g.state.round.artist, "place_paper", {})
        assert r.layout is not None and any(t.text == label for t in r.layout.texts)
        pygame.image.save(surface, str(SCREENSHOT_DIR / (
            f"broad-lines-another-number-{'touch' if touch else 'tv'}-{lang}-"
            f"{size[0]}x{size[1]}.png")))
        g.act("ask_other", ask.seat)
        assert g.state.phase == "choose" and 2 in g.state.round.refused
        # Once a sheet is on the easel, no more asking.
        g.act("name_number", g.state.round.critic, number=3)
        g.place_sheets(1)
        view = {**g.view(lang), "seat_pad": {"state": "closed", "kiosk_seats": [kiosk_artist]}}
        _, r = screens.render("broad-lines", size, view, KioskRenderer())
        assert not any(isinstance(i, ActAs) and i.kind == "ask_other" for _, i in r.targets)
