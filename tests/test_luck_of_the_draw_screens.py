"""Luck of the Draw's kiosk screen: every phase renders at a TV's, a small panel's and a
portrait screen's size, in English and Czech; the table's buttons are on screen when
they do something; no drawing is shown while it is drawn; a redraw paints no stroke
twice; and a broken view does not break the frame.

The views are the rules' own (games.luck_of_the_draw, seat None) wrapped in the
session's envelope, so the screen is tested against what the box really sends. SDL's
dummy driver stands in for the screen.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import copy
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.kiosk import KioskRenderer, PressButton, luck_of_the_draw
from appliance.kiosk.intents import ActAs
from appliance.kiosk.luck_of_the_draw import caches_of, halves_text, luck_screen
from games.core import TABLE, Action, SeatInfo, time_up
from games.luck_of_the_draw import RULES, LuckState, chip_of
from tests import screens
from tests.test_duplik_screens import scribble

GAME = "luck-of-the-draw"
PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"]
NAMES = ["Ada", "Bořivoj", "Cy", "Dana", "Eliška", "František", "Gus", "Hana"]
SIZES = [(1920, 1080), (800, 480), (1080, 1920)]
PHASES = ["subject", "ready", "drawing", "categories", "voting", "voted", "result", "scores",
          "over"]
SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
NOW = 1_800_000_000.0


def envelope(state: LuckState, players: int, lang: str = "en", version: int = 1) -> dict[str, Any]:
    """The kiosk's view of `state`, as Session.view_for builds it."""
    seats = [
        {"seat": s, "name": NAMES[s], "colour": PALETTE[s], "connected": s != 2, "host": s == 0}
        for s in range(players)
    ]
    deadline = RULES.deadline(state)
    outcome = RULES.outcome(state)
    return {
        "type": "view",
        "version": version,
        "lang": lang,
        "room": "KQ4T",
        "join_url": "http://192.168.1.20:8080/?room=KQ4T",
        "wifi": None,
        "phase": "playing",
        "max_players": 8,
        "seats": seats,
        "spectators": 0,
        "palette": PALETTE,
        "games": [],
        "selected": GAME,
        "match": {
            "id": 3,
            "game": GAME,
            "title": "Luck of the Draw" if lang == "en" else "Štěstí v kreslení",
            "seats": [{"seat": s["seat"], "name": s["name"], "colour": s["colour"]}
                      for s in seats],
            "state": RULES.view(state, None),
            "deadline": None if deadline is None else {
                "at": deadline.at, "remaining": 31.0, "length": deadline.length,
                "what": "hourglass",
            },
            "outcome": None if outcome is None else outcome.to_json(),
        },
        "you": None,
    }


def state_in(phase: str, players: int = 5, strokes: int = 12, seed: int = 7) -> LuckState:
    """A game played by the rules up to `phase` ("voted": voting with all votes in)."""
    rng = random.Random(seed)
    infos = [SeatInfo(s, NAMES[s], PALETTE[s]) for s in range(players)]
    state = RULES.setup(infos, {}, 2**40 + seed)
    now = NOW

    def act(kind: str, seat: int | None = TABLE, **data: Any) -> None:
        nonlocal state, now
        now += 1
        state = RULES.apply(state, Action(kind, seat, data, now))

    if phase == "over":
        return _played_to_the_end(state, infos)
    if phase == "subject":
        return state
    act("press_die")
    if phase == "ready":
        return state
    act("press_hourglass")
    for seat in range(players):
        for stroke in scribble(rng, strokes, 40):
            act("stroke", seat, **stroke)
        if seat < players - 1:
            act("done", seat)
    if phase == "drawing":
        return state
    deadline = RULES.deadline(state)
    assert deadline is not None
    state = RULES.apply(state, time_up(deadline))
    if phase == "categories":
        return state
    act("press_die")
    if state.round.categories < 2:  # a round of two or three categories shows the most
        return state_in(phase, players, strokes, seed + 100)
    act("vote", 0, chip=chip_of(state.round, 1))
    act("vote", 1, chip=chip_of(state.round, 1))
    act("nothing_fits", 3, agree=True)
    if phase == "voting":
        return state
    for seat in range(2, players):
        act("vote", seat, chip=chip_of(state.round, seat % 3))
    if phase == "voted":
        return state
    act("press_reveal")
    if phase == "result":
        return state
    act("press_reveal")
    while state.phase in ("voting", "result"):
        if state.phase == "voting":
            for seat in range(players):
                act("vote", seat, chip=chip_of(state.round, 0))
        act("press_reveal")
    assert state.phase == "scores"
    return state


def _played_to_the_end(state: LuckState, infos: list[SeatInfo]) -> LuckState:
    now = NOW
    while state.phase != "over":
        now += 1
        if state.phase == "drawing":
            for seat in range(len(infos)):
                state = RULES.apply(state, Action("stroke", seat, scribble(random.Random(seat),
                                                                           1, 30)[0], now))
                state = RULES.apply(state, Action("done", seat, {}, now))
            continue
        if state.phase == "voting":
            for seat in range(len(infos)):
                state = RULES.apply(state, Action("vote", seat,
                                                  {"chip": chip_of(state.round, 1)}, now))
        kinds = [a.kind for a in RULES.legal_actions(state, TABLE) if a.kind.startswith("press")]
        state = RULES.apply(state, Action(kinds[0], TABLE, {}, now))
    return state


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    with screens.screen_registered(GAME, luck_screen):
        yield


@pytest.fixture(scope="module")
def display() -> Iterator[pygame.Surface]:
    with screens.open_display() as screen:
        yield screen


def render(
    size: tuple[int, int], view: dict[str, Any], renderer: KioskRenderer | None = None
) -> tuple[pygame.Surface, KioskRenderer]:
    return screens.render(GAME, size, view, renderer, NOW + 10)


EXPECTED: dict[str, list[Any]] = {
    "subject": [PressButton("die")],
    "ready": [PressButton("hourglass")],
    "drawing": [],
    "categories": [PressButton("die")],
    "voting": [ActAs(None, "close_vote"), ActAs(None, "nothing_fits")],
    "voted": [PressButton("reveal")],
    "result": [PressButton("reveal")],
    "scores": [PressButton("reveal")],
    "over": [],
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_renders(display: pygame.Surface, size: tuple[int, int], phase: str) -> None:
    state = state_in(phase)
    for lang in ("en", "cs"):
        surface, r = render(size, envelope(state, 5, lang))
        assert len(screens.region_colours(surface, surface.get_rect(), 11)) > 8, "a blank frame"
        if lang == "en" or size == (1920, 1080):
            name = f"easel-lotd-{phase}-{size[0]}x{size[1]}-{lang}.png"
            pygame.image.save(surface, SCREENSHOT_DIR / name)
        assert [intent for _, intent in r.targets] == EXPECTED[phase]


@pytest.mark.parametrize("players", [4, 8])
@pytest.mark.parametrize("phase", ["drawing", "voting", "result", "scores"])
def test_few_and_many_players(display: pygame.Surface, players: int, phase: str) -> None:
    state = state_in(phase, players=players)
    surface, r = render((1920, 1080), envelope(state, players))
    if phase != "drawing":
        assert caches_of(r).sheets.misses == players, "one painted sheet per drawing"
    pygame.image.save(surface, SCREENSHOT_DIR / f"easel-lotd-{phase}-{players}p.png")


def test_no_drawing_is_shown_while_it_is_drawn(display: pygame.Surface) -> None:
    view = envelope(state_in("drawing", strokes=30), 5)
    # Even a view that (wrongly) carried drawings shows none of them while drawing.
    view["match"]["state"]["my_drawing"] = scribble(random.Random(1), 30)
    _, r = render((1920, 1080), view)
    assert caches_of(r).sheets.misses == 0


def test_a_redraw_paints_no_stroke_again(display: pygame.Surface) -> None:
    view = envelope(state_in("voting", players=8, strokes=30), 8)
    r = KioskRenderer()
    surface = pygame.Surface((1920, 1080)).convert()
    r.render(surface, view, NOW)
    painted = caches_of(r).sheets.misses
    assert painted == 8
    for version in range(2, 8):
        rebuilt = copy.deepcopy(view)
        rebuilt["version"] = version
        rebuilt["match"]["state"]["voted"] = version % 8
        started = time.process_time()
        r.render(surface, rebuilt, NOW)
        assert time.process_time() - started >= 0
    assert caches_of(r).sheets.misses == painted, "a redraw painted strokes again"


@pytest.mark.parametrize(
    "state",
    [
        {},
        {"phase": "voting", "gallery": "x", "verdicts": [None, 3], "voted": "many"},
        {"phase": "result", "gallery": [{"chip": 5}, {"chip": "red", "strokes": 7}],
         "verdicts": [{"leaders": "red", "tally": [[1, 2]], "votes": [{"voter": "x"}]}]},
        {"phase": "scores", "gallery": [{"chip": "red", "owner": "nobody", "strokes": [
            {"points": [[5, 5, 0]], "width": True}]}], "gained": {"0": 3}},
        {"phase": "ready", "subject": 9, "subject_card": {"subjects": [None, {"number": "1"}]}},
        {"phase": "drawing", "done": None, "cards": {"0": "lots"}, "halves": [1]},
    ],
)
def test_a_broken_state_does_not_break_the_frame(
    display: pygame.Surface, state: dict[str, Any]
) -> None:
    view = envelope(state_in("subject"), 5)
    view["match"]["state"] = state
    render((800, 480), view)


def test_half_cards_read_as_halves() -> None:
    assert [halves_text(n) for n in (0, 1, 2, 3, 7)] == ["0", "½", "1", "1½", "3½"]


def test_the_vote_countdown_is_offered_then_shown(display: pygame.Surface) -> None:
    """Fair votes: the kiosk starts a countdown for those who have not voted (never ends
    the vote at once) and shows it running."""
    state = state_in("voting")
    surface, r = render((1920, 1080), envelope(state, 5))
    assert ActAs(None, "close_vote") in [intent for _, intent in r.targets]
    state = RULES.apply(state, Action("close_vote", TABLE, {}, NOW + 500))
    assert not state.round.closed and RULES.deadline(state) is not None
    view = envelope(state, 5)
    view["match"]["deadline"]["remaining"] = 14.0
    surface, r = render((1920, 1080), view)
    assert ActAs(None, "close_vote") not in [intent for _, intent in r.targets]
    pygame.image.save(surface, SCREENSHOT_DIR / "easel-luck-of-the-draw-vote-countdown.png")


def test_the_texts_add_no_rule_the_rules_do_not_have() -> None:
    """The rules: "There are no restrictions as to what can or cannot be drawn"; the box
    said "no words, no letters!" on the kiosk and the phone."""
    from appliance.kiosk.text import tr

    for lang in ("en", "cs"):
        text = tr(lang, "lotd.draw_on_phones").casefold()
        assert "word" not in text and "letter" not in text and "slov" not in text, text
    phone = (Path(__file__).parent.parent / "appliance/web/static/luck_of_the_draw.js").read_text()
    assert "no words" not in phone.casefold() and "žádná slova" not in phone.casefold()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [5, 8])
def test_the_reveal_lists_every_voter(
    display: pygame.Surface, size: tuple[int, int], players: int
) -> None:
    """Issue 31: at 800x480 the fifth voter (Eve) never appeared; two columns make room."""
    state = state_in("result", players)
    view = envelope(state, players, "en")
    last = view["match"]["state"]["verdicts"][-1]
    voters = {NAMES[v["voter"]] for v in last["votes"]}
    assert len(voters) >= players - 1, last
    r = KioskRenderer()
    r.record_layout = True
    frame = pygame.Surface(size)
    r.render(frame, view, NOW + 10)
    assert r.layout is not None
    drawn = {t.text for t in r.layout.texts}
    assert voters <= drawn, voters - drawn
    cut = [t for t in drawn if t.endswith("…")]
    assert not cut, f"a sentence that says what happens next is never cut: {cut}"
    name = f"easel-lotd-reveal-{players}-{size[0]}x{size[1]}.png"
    pygame.image.save(frame, SCREENSHOT_DIR / name)


def test_the_die_badge_shows_the_last_roll(
    display: pygame.Surface, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 31: the header's die showed the subject's roll while the table voted on the
    Category cards its second roll had counted; from the vote on, it shows that roll."""
    faces: list[int | None] = []
    drawn = luck_of_the_draw.die_face

    def recording(r: KioskRenderer, value: int | None, side: int, dim: bool = False
                  ) -> pygame.Surface:
        faces.append(value)
        return drawn(r, value, side, dim)

    monkeypatch.setattr(luck_of_the_draw, "die_face", recording)
    drawing = state_in("drawing")
    render((1920, 1080), envelope(drawing, 5))
    assert faces == [drawing.round.subject]
    voting = state_in("voting")
    assert voting.round.categories != voting.round.subject  # else the test says nothing
    faces.clear()
    render((1920, 1080), envelope(voting, 5))
    assert faces == [voting.round.categories]
