"""Each kiosk screen names its first focus (issue 31, "The TV and the remote"): the action a
person with a remote most likely wants next, and one that works.

Over every screen the kiosk shows (tests/test_focus.py's catalogue, and each game played
by seeded bots through a real Session as tests/test_kiosk_layout.py plays it, with seats
at the kiosk where the game allows them), at 800x480 and 1920x1080, in English and Czech,
with and without the on-screen table buttons: where the focus starts on a fresh screen
is a button the screen named (`Painter.first_focus`), lit (never an Hourglass whose OK
is refused), and not one that undoes, cancels, removes or ends something. On a TV without
touch no screen offers "Draw here on the table" at all (only what works: "Drawn on
paper"). The remote's own path is checked too: digits typed on the PIN pad take the ring
to OK, End game lands on Play again, not the host's ✕, and an Hourglass pressed and gone
dark hands the ring on.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from appliance.kiosk import Kiosk, KioskRenderer
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.focus import Focus
from appliance.kiosk.intents import (
    ActAs,
    FinishChoice,
    HostChoice,
    Intent,
    KickSeat,
    PinKey,
    PressButton,
    SeatPadKey,
)
from tests import screens
from tests.bots import game_ids
from tests.test_focus import SCREENS
from tests.test_kiosk import make_view
from tests.test_kiosk_layout import KIOSK_SEAT_GAMES, Shot, played_views

SIZES = [(800, 480), (1920, 1080)]
HEADLESS = DisplayChoice("dummy", False, True, "tests")


def undoes(intent: Intent) -> bool:
    """A first focus one OK would regret: it removes, ends, cancels or goes back."""
    if isinstance(intent, KickSeat):
        return True
    if isinstance(intent, HostChoice):
        return intent.what in ("kick", "offer", "end", "restart", "yes")
    if isinstance(intent, PinKey):
        return intent.key in ("back", "cancel")
    if isinstance(intent, SeatPadKey):
        return intent.what in ("cancel", "back")
    if isinstance(intent, ActAs):
        return intent.kind in ("undo", "agree_give_up")
    return False


def draws_here(intent: Intent) -> bool:
    return isinstance(intent, ActAs) and intent.kind == "use_panel" and bool(
        intent.data.get("on"))


@pytest.fixture(scope="module")
def display() -> Iterator[pygame.Surface]:
    with screens.open_display() as screen:
        yield screen


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Shot]]:
    tmp = tmp_path_factory.mktemp("first")
    out: list[tuple[str, Shot]] = []
    for i, game in enumerate(sorted(game_ids())):
        shots = played_views(game, 3 + i, 4, tmp, KIOSK_SEAT_GAMES.get(game, 0))
        shots += [({**v, "lang": "cs", "version": -1}, now) for v, now in shots[::4]]
        out += [(f"{game}#{n}", shot) for n, shot in enumerate(shots)]
    return out


def first_problems(name: str, view: dict[str, Any], now: float, size: tuple[int, int],
                   renderer: KioskRenderer) -> list[str]:
    surface = pygame.Surface(size)
    renderer.render(surface, view, now)
    focus = Focus(clock=lambda: 0.0)
    focus.sync(renderer.targets, surface.get_rect(), renderer.first_focus, renderer.unlit)
    where = f"{name} {size[0]}x{size[1]} {view.get('lang')}"
    found = []
    if not renderer.touch:
        found += [f"{where}: offers {t!r} with no touch" for _, t in renderer.targets
                  if draws_here(t)]
    if focus.intent is None:
        return found
    lit = [it for _, it in focus.targets if it not in renderer.unlit]
    if renderer.first_focus is None and len(lit) > 1:
        found.append(f"{where}: names no first focus (started on {focus.intent!r})")
    if focus.intent in renderer.unlit and lit:
        found.append(f"{where}: starts on unlit {focus.intent!r}")
    if undoes(focus.intent):
        found.append(f"{where}: starts on {focus.intent!r}")
    return found


@pytest.mark.timeout(300)
@pytest.mark.parametrize("touch", [True, False], ids=["touch", "tv"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_starts_on_a_lit_sensible_first_focus(
    display: pygame.Surface, played: list[tuple[str, Shot]], size: tuple[int, int],
    touch: bool,
) -> None:
    found: list[str] = []
    for panel_buttons in (False, True):
        renderer = KioskRenderer()
        renderer.panel_buttons = panel_buttons
        renderer.touch = touch
        for name, view, now in SCREENS:
            for lang in ("en", "cs"):
                found += first_problems(name, {**view, "lang": lang, "version": -1}, now,
                                        size, renderer)
        for name, (view, now) in played:
            found += first_problems(name, view, now, size, renderer)
    unique = sorted(set(found))
    assert not unique, f"{len(unique)} problems:\n" + "\n".join(unique[:50])


def kiosk(size: tuple[int, int] = (1920, 1080)) -> Kiosk:
    k = Kiosk(size=size, choice=HEADLESS)
    k.renderer.panel_buttons = True
    return k


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_digits_typed_on_the_pin_pad_take_the_ring_to_ok(display: pygame.Surface,
                                                         size: tuple[int, int]) -> None:
    k = kiosk(size)
    try:
        pad = {**make_view(seats=3), "host_menu": {"state": "pin", "digits": 0, "message": ""}}
        k.update(pad, 0.0)
        k.remote_key("down")  # shows the ring
        for _ in range(3):
            k.remote_key("down")
        k.remote_key("left")
        assert k.focus.intent == PinKey("back")  # where the report's ring was
        for n, digit in enumerate("1234", start=1):
            assert k.remote_key(digit) == PinKey(digit)
            assert k.focus.intent == PinKey("ok")
            k.update({**pad, "version": n + 1,
                      "host_menu": {"state": "pin", "digits": n, "message": ""}}, 0.0)
            assert k.focus.intent == PinKey("ok")
        assert k.remote_key("ok") == PinKey("ok")
        shot = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
        k.screenshot(shot / f"focus-pin-ok-{size[0]}x{size[1]}.png")
    finally:
        k.close()


def test_end_game_lands_on_play_again_not_the_hosts_kick(display: pygame.Surface) -> None:
    k = kiosk()
    try:
        game = make_view(seats=3, phase="playing")
        ask = {**game, "host_menu": {"state": "confirm", "ask": "end", "seat": None,
                                     "name": "", "title": "Duplik", "playing": True}}
        k.update(ask, 100.0)
        k.remote_key("ok")
        k.remote_key("right")
        assert k.remote_key("ok") == HostChoice("yes")
        over = {**make_view(seats=3, phase="over", version=3), "host_menu": {"state": "closed"}}
        k.update(over, 100.0)
        assert k.focus.intent == FinishChoice(again=True)
        lobby = {**make_view(seats=3, version=4), "host_menu": {"state": "closed"}}
        k.update(lobby, 100.0)
        assert not isinstance(k.focus.intent, KickSeat), k.focus.intent
    finally:
        k.close()


def test_an_hourglass_pressed_and_gone_dark_hands_the_ring_on() -> None:
    focus = Focus(clock=lambda: 0.0)
    bounds = pygame.Rect(0, 0, 1000, 1000)
    go, hourglass = pygame.Rect(0, 0, 200, 80), pygame.Rect(600, 900, 300, 80)
    targets: list[tuple[pygame.Rect, Intent]] = [
        (go, ActAs(1, "name_number", {"number": 1})), (hourglass, PressButton("hourglass"))]
    focus.sync(targets, bounds, PressButton("hourglass"))
    assert focus.intent == PressButton("hourglass")
    focus.sync(targets, bounds, targets[0][1], [PressButton("hourglass")])  # pressed: dark
    assert focus.intent == targets[0][1]
    focus.move("down")
    focus.move("down")  # the arrows may still go to it on purpose, and it stays
    assert focus.intent == PressButton("hourglass")
    focus.sync(targets, bounds, targets[0][1], [PressButton("hourglass")])
    assert focus.intent == PressButton("hourglass")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_ring_passes_under_a_notice_toast(display: pygame.Surface,
                                              size: tuple[int, int]) -> None:
    """The report: the ring was drawn over a toast, striking its words. Whatever the ring
    is on, the toast's pixels stay as drawn (and the ring still shows around the button)."""
    # A refusal too long for the table buttons' bar (a short toast sits in the bar, left
    # of the buttons, away from the ring): above the bar, next to the buttons.
    view = {**make_view(seats=4, phase="playing"), "notice": {
        "at": 99.5, "until": 104.0, "kind": "refused",
        "text": "Nothing to flip now: the hourglass runs only while the Artists draw, and "
                "nobody is drawing yet."}}
    view["match"] = {**view["match"], "buttons": ["die", "reveal", "hourglass"]}
    r = KioskRenderer()
    r.panel_buttons = True
    surface = pygame.Surface(size)
    r.render(surface, view, 100.0)
    assert r.covers, "the toast says where it is"
    clean = surface.copy()
    focus = Focus(clock=lambda: 1e9)
    focus.sync(r.targets, surface.get_rect(), r.first_focus, r.unlit, r.covers)
    focus.visible = True
    overlapped = 0
    for i in range(len(focus.targets)):
        focus.index = i
        focus.draw(surface)
        for cover in r.covers:
            ring = focus.targets[i][0].inflate(40, 40)
            overlapped += ring.colliderect(cover)
            for x in range(cover.left, cover.right, 3):
                for y in range(cover.top, cover.bottom, 3):
                    assert surface.get_at((x, y)) == clean.get_at((x, y)), (focus.targets[i], x, y)
    assert overlapped, "no button near the toast: the test would prove nothing"
    shot = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
    focus.index = len(focus.targets) - 1
    focus.draw(surface)
    pygame.image.save(surface, str(shot / f"focus-under-toast-{size[0]}x{size[1]}.png"))


def test_a_touch_panel_plugged_in_later_offers_drawing_on_the_table(
        display: pygame.Surface, caplog: pytest.LogCaptureFixture) -> None:
    """A TV started without touch offers no "Draw here on the table"; the first touch of a
    panel plugged in later says there is one, and the next frame offers it. The log says
    where that first touch landed (a panel the wrong way round shows there)."""
    from types import SimpleNamespace

    from tests.test_broad_lines_screens import Game

    k = kiosk((1280, 720))
    try:
        k.renderer.touch = False
        g = Game()
        g.act("name_number", g.state.round.critic, number=2)
        k.update(g.view(), 100.0)
        assert not any(draws_here(i) for _, i in k.renderer.targets)
        with caplog.at_level(logging.INFO, "appliance.kiosk"):
            k.feed_touches([SimpleNamespace(kind="down", finger=1, x=0.5, y=0.1, t=1.0,
                                            cancelled=False)])
            k.feed_touches([SimpleNamespace(kind="up", finger=1, x=0.5, y=0.1, t=1.1,
                                            cancelled=False)])
        assert k.renderer.touch
        firsts = [r.getMessage() for r in caplog.records if "first touch" in r.getMessage()]
        assert firsts == [f"touch: the panel's first touch, at 639,71 on the screen: "
                          f"{k.renderer.hit((639, 71)) or 'no button there'}"], firsts
        k.update(g.view(), 100.0)
        assert any(draws_here(i) for _, i in k.renderer.targets)
    finally:
        k.close()
