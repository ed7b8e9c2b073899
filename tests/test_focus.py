"""Focus navigation (appliance/kiosk/focus.py): on every kiosk screen (the lobby, the PIN
pad, the host menu, every phase of the four games, with and without the on-screen table
buttons) at 800x480 and 1920x1080, every target is reachable with the arrows from every
other (none trapped); the ring is drawn thick into the back buffer and taken away without
a redraw; remote keys become the intents a tap would; Back never quits.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from appliance.kiosk import Kiosk, KioskRenderer
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.focus import Focus, first, focusable, reachable, step
from appliance.kiosk.intents import (
    Back,
    HostChoice,
    HostCorner,
    PinKey,
    PressButton,
    SelectGame,
    StartGame,
    TogglePause,
)
from tests import screens
from tests.test_artbox_screens import PHASES as ARTBOX_PHASES
from tests.test_artbox_screens import artbox_view
from tests.test_broad_lines_screens import PHASES as BROAD_LINES_PHASES
from tests.test_broad_lines_screens import in_phase
from tests.test_duplik_screens import PHASES as DUPLIK_PHASES
from tests.test_duplik_screens import duplik_view
from tests.test_kiosk import make_view
from tests.test_luck_of_the_draw_screens import NOW as LUCK_NOW
from tests.test_luck_of_the_draw_screens import PHASES as LUCK_PHASES
from tests.test_luck_of_the_draw_screens import envelope, state_in

SIZES = [(800, 480), (1920, 1080)]
HEADLESS = DisplayChoice("dummy", False, True, "tests")
SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))


def with_host(view: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    return {**view, "host_menu": layer}


def host_menu(view: dict[str, Any], paused: bool = False) -> dict[str, Any]:
    seats = [{"seat": s["seat"], "name": s["name"]} for s in view.get("seats", [])]
    return with_host(view, {"state": "menu", "playing": view.get("phase") == "playing",
                            "paused": paused, "seats": seats, "message": "",
                            "sound": {"volume": 70, "muted": paused}})


def kiosk_screens() -> Iterator[tuple[str, dict[str, Any], float]]:
    """(name, view, now) of every screen the kiosk shows."""
    for seats in (0, 3, 8):
        yield f"lobby-{seats}", make_view(seats=seats), 0.0
    yield "lobby-start-disabled", make_view(seats=4, selected="broad-lines"), 0.0
    yield "lobby-finished", make_view(seats=4, phase="finished"), 0.0
    lobby = make_view(seats=5)
    yield "lobby-host-corner", with_host(lobby, {"state": "closed"}), 0.0
    offered = {**make_view(seats=3), "seat_pad": {"state": "closed"}}
    yield "lobby-free-seats-to-sit", offered, 0.0
    yield "seat-pad", {**offered, "seat_pad": {"state": "open", "name": "Ema", "game": "duplik",
                                               "colours": ["#4363d8", "#f58231"],
                                               "colour": "#4363d8"}}, 0.0
    yield "pin-pad", with_host(lobby, {"state": "pin", "digits": 3, "message": "Wrong PIN"}), 0.0
    yield "host-menu-lobby", host_menu(lobby), 0.0
    yield "host-menu-8-seats", host_menu(make_view(seats=8, phase="playing")), 100.0
    yield "host-menu-paused", host_menu(make_view(seats=3, phase="playing"), True), 100.0
    game = make_view(seats=3, phase="playing")
    for ask, seat in (("kick", 1), ("offer", 1), ("end", None), ("restart", None)):
        yield f"host-confirm-{ask}", with_host(game, {
            "state": "confirm", "ask": ask, "seat": seat, "name": "Mia", "title": "Duplik",
            "playing": True}), 100.0
    for phase in ARTBOX_PHASES:
        yield f"artbox-{phase}", artbox_view(phase, players=5), 100.0
    for phase in DUPLIK_PHASES:
        yield f"duplik-{phase}", duplik_view(phase, players=5), 100.0
    for phase in BROAD_LINES_PHASES:
        yield f"broad-lines-{phase}", in_phase(phase).view("en"), 100.0
    for phase in LUCK_PHASES:
        yield f"luck-{phase}", envelope(state_in(phase), 5), LUCK_NOW + 10


SCREENS = list(kiosk_screens())


@pytest.fixture(scope="module")
def display() -> Iterator[pygame.Surface]:
    with screens.open_display() as screen:
        yield screen


@pytest.mark.parametrize("panel_buttons", [False, True], ids=["panel", "no-panel"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_target_of_every_screen_is_reachable_and_none_traps(display, size, panel_buttons):
    renderer = KioskRenderer()
    renderer.panel_buttons = panel_buttons
    problems = []
    for name, view, now in SCREENS:
        surface = pygame.Surface(size)
        renderer.render(surface, view, now)
        targets = focusable(renderer.targets, surface.get_rect())
        tappable = [(r, i) for r, i in renderer.targets if not isinstance(i, HostCorner)]
        # Only targets nothing can tap are left out (covered by a later one, off screen).
        for rect, intent in tappable:
            if not any(it == intent for _, it in targets):
                shown = rect.clip(surface.get_rect())
                assert shown.w <= 0 or renderer.hit(shown.center) != intent, (name, intent)
        if not targets:
            continue
        rects = [r for r, _ in targets]
        for start in range(len(rects)):
            got = reachable(rects, start)
            if got != set(range(len(rects))):
                missing = [targets[i][1] for i in set(range(len(rects))) - got]
                problems.append(f"{name}: from {targets[start][1]} cannot reach {missing}")
                break
    assert not problems, "\n".join(problems)


def test_the_screens_have_targets_to_focus(display):
    renderer = KioskRenderer()
    counted = {}
    for name, view, now in SCREENS:
        surface = pygame.Surface((1920, 1080))
        renderer.render(surface, view, now)
        counted[name] = len(focusable(renderer.targets, surface.get_rect()))
    # The lobby: 8 kicks, 4 games, Start; the pad: 12 keys and Cancel; the menu: 5 items
    # and the sound's three.
    assert counted["lobby-8"] == 13
    assert counted["pin-pad"] == 13
    assert counted["host-menu-lobby"] == 5 + 2 + 3
    assert counted["lobby-host-corner"] == counted["lobby-3"] + 2  # no corner: its own key
    assert sum(counted.values()) > 60


def grid(cols: int, rows: int, w: int = 100, h: int = 60, gap: int = 20) -> list[pygame.Rect]:
    return [pygame.Rect(c * (w + gap), r * (h + gap), w, h) for r in range(rows)
            for c in range(cols)]


def test_arrows_go_to_the_nearest_target_in_their_direction():
    rects = grid(3, 2)  # 0 1 2 / 3 4 5
    assert [step(rects, 0, d) for d in ("right", "down", "left", "up")] == [1, 3, None, None]
    assert step(rects, 4, "up") == 1 and step(rects, 4, "left") == 3
    assert step(rects, 2, "right") is None  # no wrap-around
    # A wide button under the row (the lobby's Start): down from anywhere, up to its middle.
    start = pygame.Rect(0, 200, 340, 60)
    rects = [*grid(3, 1), start]
    assert [step(rects, i, "down") for i in range(3)] == [3, 3, 3]
    assert step(rects, 3, "up") == 1
    # Same row wins over a nearer target off to the side.
    rects = [pygame.Rect(0, 0, 50, 50), pygame.Rect(400, 10, 50, 50), pygame.Rect(80, 90, 50, 50)]
    assert step(rects, 0, "right") == 1
    assert first([pygame.Rect(0, 0, 10, 10), start, pygame.Rect(0, 0, 400, 5)]) == 1


def on(focus: Focus) -> Any:
    """The focused intent (a call, so that each check reads it afresh)."""
    return focus.intent


def test_focus_keeps_its_button_across_redraws_and_finds_the_nearest_when_it_goes():
    focus = Focus(clock=lambda: 0.0)
    bounds = pygame.Rect(0, 0, 1000, 1000)
    a, b, c = pygame.Rect(0, 0, 100, 50), pygame.Rect(200, 0, 100, 50), pygame.Rect(0, 300, 400, 80)
    focus.sync([(a, SelectGame("x")), (b, SelectGame("y")), (c, StartGame())], bounds)
    assert on(focus) == StartGame()  # the biggest
    assert focus.move("up") and on(focus) == StartGame()  # the first press shows it
    assert focus.move("up") and on(focus) in (SelectGame("x"), SelectGame("y"))
    focus.move("right")
    assert on(focus) == SelectGame("y")
    # Redrawn in another order and place: still on "y".
    focus.sync([(c, StartGame()), (b.move(0, 40), SelectGame("y")), (a, SelectGame("x"))], bounds)
    assert on(focus) == SelectGame("y")
    # "y" is gone: the nearest target to where it was.
    focus.sync([(a, SelectGame("x")), (c, StartGame())], bounds)
    assert on(focus) == SelectGame("x")
    assert focus.find(PinKey("4")) is None


def test_a_new_screen_starts_on_its_first_focus_not_near_the_ring():
    """The report (issue 27): after the PIN the ring went to the menu button nearest the
    pad's OK, "Free Mia's seat". A screen sharing no button with the last one starts on
    its biggest, top-left of equals; one that kept a button still goes to the nearest."""
    focus = Focus(clock=lambda: 0.0)
    bounds = pygame.Rect(0, 0, 1000, 1000)
    ok = pygame.Rect(500, 500, 100, 100)
    focus.sync([(pygame.Rect(0, 0, 100, 100), PinKey("1")), (ok, PinKey("ok"))], bounds)
    focus.move("down")
    focus.move("right")
    assert on(focus) == PinKey("ok")
    close, offer = pygame.Rect(0, 0, 200, 50), pygame.Rect(480, 520, 200, 50)
    focus.sync([(close, HostChoice("close")), (offer, HostChoice("offer", 1))], bounds)
    assert on(focus) == HostChoice("close")  # not the one under the ring
    focus.move("down")
    assert on(focus) == HostChoice("offer", 1)
    # A screen that keeps a button of the last one: the nearest to where the ring was.
    focus.sync([(close, HostChoice("close")), (offer.move(0, 40), HostChoice("kick", 1))],
               bounds)
    assert on(focus) == HostChoice("kick", 1)
    # A frame with no targets in between is not a new screen by itself.
    focus.sync([], bounds)
    focus.sync([(close, HostChoice("close")), (offer, HostChoice("end"))], bounds)
    assert on(focus) == HostChoice("end")


def ring_pixels(surface: pygame.Surface, clean: pygame.Surface, rect: pygame.Rect) -> int:
    """Pixels around `rect` that the ring turned white."""
    band = rect.inflate(80, 80).clip(surface.get_rect())
    white = (255, 255, 255)
    return sum(
        1
        for x in range(band.left, band.right, 2)
        for y in range(band.top, band.bottom, 2)
        if tuple(surface.get_at((x, y)))[:3] == white and tuple(clean.get_at((x, y)))[:3] != white
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_ring_is_drawn_thick_settles_and_leaves_no_trace(size):
    kiosk = Kiosk(size=size, choice=HEADLESS)
    try:
        now = [10.0]
        kiosk.focus.clock = lambda: now[0]
        view = make_view(seats=4)
        kiosk.update(view, 0.0)
        clean = kiosk.frame.copy()
        drawn = kiosk.frames_drawn
        assert kiosk.remote_key("down") is None
        start = kiosk.focus.rect
        assert start is not None and kiosk.focus.intent == StartGame()
        assert ring_pixels(kiosk.frame, clean, start) > 200
        assert kiosk.focus.animating()
        now[0] += 1.0
        assert kiosk.update(view, 0.0) is False  # settled by a blit, not a redraw
        assert not kiosk.focus.animating()
        pygame.image.save(kiosk.frame, SCREENSHOT_DIR / f"easel-focus-lobby-{size[0]}.png")
        kiosk.remote_key("up")
        assert kiosk.focus.intent != StartGame()
        now[0] += 1.0
        kiosk.present_focus()
        # Where the ring was is exactly as the frame drew it again.
        # (below its top: the new ring, on the tile above, reaches a little over it).
        where = pygame.Rect(start.left - 30, start.top + 12, start.w + 60, start.h + 30).clip(
            kiosk.frame.get_rect())
        assert kiosk.frame.subsurface(where).copy().get_view("2").raw == (
            clean.subsurface(where).copy().get_view("2").raw)
        assert kiosk.frames_drawn == drawn
        # A touch takes the ring away; the frame is as drawn.
        kiosk.pointer_down("mouse", (1, 1), 0.0)
        assert kiosk.frame.get_view("2").raw == clean.get_view("2").raw
        # The ring thickness reads from a sofa: at least 1/120 of the screen's height.
        kiosk.remote_key("down")
        now[0] += 1.0
        kiosk.present_focus()
        r = kiosk.focus.rect
        assert r is not None
        column = [tuple(kiosk.frame.get_at((r.centerx, y)))[:3]
                  for y in range(r.top - 20, r.top + 12)]
        assert column.count((255, 255, 255)) >= max(5, size[1] // 120)
    finally:
        kiosk.close()


def test_remote_keys_mean_what_a_tap_would_and_back_never_quits():
    kiosk = Kiosk(size=(800, 480), choice=HEADLESS)
    try:
        kiosk.update(make_view(seats=4, selected="luck-of-the-draw"), 0.0)
        assert kiosk.remote_key("ok") is None  # the first OK only shows the ring
        assert kiosk.remote_key("ok") == StartGame()
        kiosk.remote_key("up")
        assert kiosk.remote_key("ok") in (SelectGame("luck-of-the-draw"), SelectGame("artbox"))
        assert kiosk.remote_key("back") == Back()
        assert kiosk.remote_key("pause") == TogglePause()
        assert kiosk.remote_key("menu") == HostCorner()
        assert kiosk.remote_key("die") == PressButton("die")
        assert kiosk.remote_key("hourglass_long") == PressButton("hourglass", long=True)
        assert kiosk.remote_key("5") is None  # no PIN pad on screen
        kiosk.update(with_host(make_view(seats=4, version=2), {"state": "pin", "digits": 0}), 0)
        assert kiosk.remote_key("5") == PinKey("5")
        # The pad is all there is: arrows stay on its keys.
        for key in ["up"] * 6 + ["left"] * 4 + ["down"] * 8:
            kiosk.remote_key(key)
            assert isinstance(kiosk.focus.intent, PinKey)
    finally:
        kiosk.close()


def test_the_focus_ring_on_the_pin_pad_and_the_host_menu_looks_right(display):
    for name, view in [("pin", with_host(make_view(seats=3), {"state": "pin", "digits": 2})),
                       ("menu", host_menu(make_view(seats=3, phase="playing")))]:
        kiosk = Kiosk(size=(1920, 1080), choice=HEADLESS)
        try:
            kiosk.focus.clock = lambda: 1e9
            kiosk.update(view, 100.0)
            kiosk.remote_key("down")
            kiosk.remote_key("down")
            assert isinstance(kiosk.focus.intent, PinKey | HostChoice)
            pygame.image.save(kiosk.frame, SCREENSHOT_DIR / f"easel-focus-{name}.png")
        finally:
            kiosk.close()
