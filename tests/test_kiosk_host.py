"""The kiosk's host layer: a long press on the corner, the PIN pad, the host menu, the
gallery's QR code after a game and the idle lobby's history."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from collections.abc import Iterator
from typing import Any

import numpy as np
import pygame
import pytest
import zxingcpp

from appliance.door.host import PinGuard
from appliance.door.kiosk_host import KioskHostMenu
from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.intents import HostChoice, HostCorner, KickSeat, PinKey
from appliance.system.config import Config, HostSettings
from appliance.table.lobby_history import LobbyHistory
from appliance.table.session import HOST, KIOSK, PALETTE, Session
from appliance.table.store import Store
from games import registry
from tests.conftest import FakeClock
from tests.gallery_play import play_artbox
from tests.toygame import RaceToTwenty

HEADLESS = DisplayChoice("dummy", False, True, "test")
PIN = "1234"


@pytest.fixture
def kiosk() -> Iterator[Kiosk]:
    made = Kiosk(size=(1280, 720), choice=HEADLESS)
    yield made
    pygame.event.clear()
    made.close()


@pytest.fixture
def host_session(store: Store, config: Config, clock: FakeClock) -> Session:
    config = dataclasses.replace(config, host=HostSettings(pin=PIN, tries=2, lockout_s=30))
    return Session(store, config, "http://192.0.2.7:8080", clock)


def menu_for(session: Session, clock: FakeClock, restarts: list[int] | None = None,
             history: Any = None) -> KioskHostMenu:
    guard = PinGuard(PIN, 2, 30, clock)
    out = restarts if restarts is not None else []
    return KioskHostMenu(session, guard, clock, lambda: out.append(1), history)


def draw(kiosk: Kiosk, menu: KioskHostMenu, session: Session, clock: FakeClock) -> Any:
    view = menu.decorate(session.view_for(KIOSK))
    kiosk.update(view, clock())
    return view


def tap(kiosk: Kiosk, intent: Any) -> Any:
    rect = next(r for r, it in kiosk.renderer.targets if it == intent)
    kiosk.pointer_down("finger", rect.center, 0.0)
    return kiosk.pointer_up("finger", rect.center, 0.1)


def test_a_long_press_on_the_corner_asks_for_the_pin(
    kiosk: Kiosk, host_session: Session, clock: FakeClock
) -> None:
    menu = menu_for(host_session, clock)
    draw(kiosk, menu, host_session, clock)
    kiosk.pointer_down("finger", (10, 10), 100.0)
    assert kiosk.pointer_up("finger", (10, 10), 100.5) is None  # a tap is not enough
    kiosk.pointer_down("finger", (10, 10), 200.0)
    assert kiosk.pointer_up("finger", (10, 10), 202.1) == HostCorner()


def test_pin_then_menu_pauses_and_ends(
    kiosk: Kiosk, host_session: Session, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = host_session
    for i in range(3):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    menu = menu_for(session, clock)
    assert menu.handle(HostCorner())
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"] == {"state": "pin", "digits": 0, "message": ""}
    # While the pad is up nothing else on the screen can be tapped.
    assert all(isinstance(it, PinKey) for _, it in kiosk.renderer.targets)
    for key in "9999":
        menu.handle(tap(kiosk, PinKey(key)))
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"]["digits"] == 4 and PIN not in str(view)
    menu.handle(tap(kiosk, PinKey("ok")))
    view = draw(kiosk, menu, session, clock)
    assert "Wrong PIN · tries left: 1" in view["host_menu"]["message"]  # not "1 tries"
    for key in PIN:
        menu.handle(tap(kiosk, PinKey(key)))
        draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, PinKey("ok")))
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"]["state"] == "menu" and view["host_menu"]["playing"]
    menu.handle(tap(kiosk, HostChoice("pause")))
    assert session.paused
    draw(kiosk, menu, session, clock)
    assert not any(isinstance(it, HostChoice) for _, it in kiosk.renderer.targets)  # closed
    menu.handle(HostCorner())
    draw(kiosk, menu, session, clock)
    for key in [*PIN, "ok"]:
        menu.handle(tap(kiosk, PinKey(key)))
        draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("resume")))
    assert not session.paused
    menu.state = "menu"  # straight back in, as after another PIN
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("offer", 1)))
    assert session.open_seats == set()  # asked first (test_kiosk_host_confirm.py)
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("yes")))
    assert session.open_seats == {1}
    menu.state = "menu"
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("end")))
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("yes")))
    assert session.match is None


def test_the_pad_locks_out_and_closes_itself(
    kiosk: Kiosk, host_session: Session, clock: FakeClock
) -> None:
    restarts: list[int] = []
    menu = menu_for(host_session, clock, restarts)
    menu.handle(HostCorner())
    for _ in range(2):
        menu.handle(PinKey("0"))
        menu.handle(PinKey("ok"))
    assert "wait 30 s" in menu.decorate(host_session.view_for(KIOSK))["host_menu"]["message"]
    for key in [*PIN, "ok"]:
        menu.handle(PinKey(key))
    assert menu.state == "pin"  # locked: the right PIN waits too
    clock.advance(61)
    assert menu.decorate(host_session.view_for(KIOSK))["host_menu"]["state"] == "closed"
    menu.handle(HostCorner())
    for key in [*PIN, "ok"]:
        menu.handle(PinKey(key))
    menu.handle(HostChoice("restart"))
    assert restarts == [] and menu.state == "confirm"
    menu.handle(HostChoice("yes"))
    assert restarts == [1] and menu.state == "closed"


def test_no_pin_no_corner(kiosk: Kiosk, session: Session, clock: FakeClock) -> None:
    menu = KioskHostMenu(session, PinGuard("", 5, 60, clock), clock, lambda: None)
    view = session.view_for(KIOSK)
    assert menu.decorate(view) is view
    menu.handle(HostCorner())
    assert menu.state == "closed"


def _decode(kiosk: Kiosk) -> list[str]:
    surface = pygame.image.load(io.BytesIO(kiosk.png_bytes()), "frame.png")
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    return [r.text for r in zxingcpp.read_barcodes(pixels)]


def test_after_a_game_the_kiosk_shows_the_gallery_code_then_the_days_history(
    kiosk: Kiosk, session: Session, clock: FakeClock
) -> None:
    registry.load_all()
    play_artbox(session)
    history = LobbyHistory(session, clock, 8)
    menu = KioskHostMenu(session, PinGuard("", 5, 60, clock), clock, lambda: None, history)
    view = draw(kiosk, menu, session, clock)
    url = session.view_for(KIOSK)["match"]["gallery_url"]
    assert view["phase"] == "over" and url in _decode(kiosk)  # the game's finish
    clock.advance(300)
    assert "history" not in draw(kiosk, menu, session, clock)  # held until the host moves on
    session.leave_finish(HOST)
    view = draw(kiosk, menu, session, clock)
    assert url in _decode(kiosk)
    assert "history" not in view  # the result and the code first
    clock.advance(130)
    steps = set()
    for _ in range(6):
        view = draw(kiosk, menu, session, clock)
        assert view["history"]["kind"] in ("winners", "drawing", "gallery")
        steps.add(view["history"]["sig"])
        drawn = kiosk.frames_drawn
        kiosk.update(view, clock())
        assert kiosk.frames_drawn == drawn  # nothing new within a step: no redraw
        clock.advance(8)
    assert len(steps) >= 2 and any(s.startswith("w:") for s in steps)
    assert any(s.startswith("d:") for s in steps)


async def test_the_host_menu_and_the_finish_strip_lead_on_from_a_finish(
    kiosk: Kiosk, host_session: Session, clock: FakeClock, race: RaceToTwenty
) -> None:
    from appliance.kiosk.intents import FinishChoice

    session = host_session
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST, {"target": 5})
    while session.match is not None:
        session.act(session.match.state.turn % 2, "add", {"n": 1})
    menu = menu_for(session, clock)
    draw(kiosk, menu, session, clock)
    # The finish strip's buttons are targets under the host layer, like the lobby's Start.
    assert tap(kiosk, FinishChoice(True)) == FinishChoice(True)
    menu._set("menu")  # as after the PIN
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"]["over"] and not view["host_menu"]["playing"]
    menu.handle(tap(kiosk, HostChoice("again")))
    assert session.match is None  # set up off the loop (Session.start_for_table)
    for _ in range(300):
        if session.match is not None:
            break
        await asyncio.sleep(0.01)
    assert session.match is not None and session.match.record.options["target"] == 5
    while session.match is not None:
        session.act(session.match.state.turn % 2, "add", {"n": 1})
    menu._set("menu")  # as after the PIN
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("lobby")))
    assert session.view_for(KIOSK)["phase"] == "finished"
def test_the_seat_cross_asks_for_the_pin_then_confirms(
    kiosk: Kiosk, host_session: Session, clock: FakeClock
) -> None:
    """The report: the kiosk's ✕ kicked a player with one tap, no PIN even when one is set."""
    session = host_session
    for i in range(3):
        session.join(f"P{i}", PALETTE[i])
    menu = menu_for(session, clock)
    assert menu.handle(KickSeat(1))
    assert 1 in session.seats
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"]["state"] == "pin"
    for key in [*PIN, "ok"]:
        menu.handle(tap(kiosk, PinKey(key)))
        view = draw(kiosk, menu, session, clock)
    assert view["host_menu"] == {"state": "confirm", "ask": "kick", "seat": 1, "name": "P1",
                                 "title": "", "playing": False}
    assert {it for _, it in kiosk.renderer.targets} == {HostChoice("yes"), HostChoice("no")}
    with open("/tmp/easel-kiosk-kick-confirm.png", "wb") as out:
        out.write(kiosk.png_bytes())
    menu.handle(tap(kiosk, HostChoice("no")))
    assert 1 in session.seats and menu.state == "closed"
    # The host menu's own "Kick" asks once more too; "Remove" removes.
    menu.state = "menu"
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("kick", 2)))
    draw(kiosk, menu, session, clock)
    menu.handle(tap(kiosk, HostChoice("yes")))
    assert 2 not in session.seats


def test_without_a_pin_the_cross_still_confirms(
    kiosk: Kiosk, session: Session, clock: FakeClock
) -> None:
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    menu = KioskHostMenu(session, PinGuard("", 5, 60, clock), clock, lambda: None)
    assert menu.handle(KickSeat(0))
    view = draw(kiosk, menu, session, clock)
    assert view["host_menu"]["state"] == "confirm" and 0 in session.seats
    menu.handle(tap(kiosk, HostChoice("yes")))
    assert 0 not in session.seats
    assert menu.decorate(session.view_for(KIOSK)) is session.view_for(KIOSK)  # layer gone


async def test_the_lobbys_best_drawings_are_rebuilt_off_the_loop(
    session: Session, clock: FakeClock
) -> None:
    """A match's best drawings are its log replayed (seconds for a long match): with the
    loop running the lobby rebuilds them on a worker thread and shows them when ready."""
    import threading

    from appliance.table import history as history_module
    from tests.gallery_play import play_artbox

    registry.load_all()
    play_artbox(session)
    session.leave_finish(HOST)
    lobby = LobbyHistory(session, clock, 8)
    clock.advance(600)
    threads: list[threading.Thread] = []
    rebuild = history_module.rebuild

    def watched(*args: Any) -> Any:
        threads.append(threading.current_thread())
        return rebuild(*args)

    history_module.rebuild = watched  # type: ignore[assignment]
    try:
        first = lobby._read(clock())
        assert not [s for s in first if s["kind"] == "drawing"]  # not yet: being rebuilt
        assert lobby._rebuilding is not None
        await lobby._rebuilding
    finally:
        history_module.rebuild = rebuild
    assert threads and all(t is not threading.main_thread() for t in threads)
    drawings = [s for s in lobby._steps if s["kind"] == "drawing"]
    assert drawings and all(s["strokes"] for s in drawings)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_menus_sound_row_turns_the_host_pages_level(
    host_session: Session, clock: FakeClock, size: tuple[int, int]
) -> None:
    """Issue 31: a volume setting and a mute in the kiosk's host menu, the same setting as
    the host page's (one SoundDial): − and + step it, the middle mutes and unmutes, the
    menu stays open, and a change on the host page shows in an open menu."""
    import os
    from pathlib import Path

    from appliance.kiosk.focus import focusable, reachable
    from appliance.system.table_sounds import SoundDial, SoundLevel

    dial = SoundDial(SoundLevel(volume=70))
    guard = PinGuard(PIN, 2, 30, clock)
    menu = KioskHostMenu(host_session, guard, clock, lambda: None, None, dial)
    shots = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
    kiosk = Kiosk(size=size, choice=HEADLESS)
    try:
        menu.handle(HostCorner())
        for key in (*PIN, "ok"):
            menu.handle(PinKey(key))
        assert menu.state == "menu"
        draw(kiosk, menu, host_session, clock)
        intents = [i for _, i in kiosk.renderer.targets]
        for what in ("volume_down", "mute", "volume_up"):
            assert HostChoice(what) in intents
        rects = [r for r, _ in focusable(kiosk.renderer.targets, kiosk.frame.get_rect())]
        assert reachable(rects, 0) == set(range(len(rects)))
        assert kiosk.renderer.first_focus == HostChoice("close")  # still the safe start
        assert tap(kiosk, HostChoice("volume_down")) == HostChoice("volume_down")
        menu.handle(HostChoice("volume_down"))
        menu.handle(HostChoice("volume_down"))
        assert dial.level.volume == 50 and menu.state == "menu"
        view = draw(kiosk, menu, host_session, clock)
        assert view["host_menu"]["sound"] == {"volume": 50, "muted": False}
        kiosk.screenshot(shots / f"kiosk-host-sound-en-{size[0]}x{size[1]}.png")
        menu.handle(HostChoice("mute"))
        assert dial.level.muted
        dial.set(volume=30)  # the host page turns it meanwhile: the open menu shows it
        view = draw(kiosk, menu, host_session, clock)
        assert view["host_menu"]["sound"] == {"volume": 30, "muted": True}
        menu.handle(HostChoice("volume_up"))  # louder unmutes
        assert (dial.level.volume, dial.level.muted) == (40, False)
        for _ in range(9):
            menu.handle(HostChoice("volume_up"))
        assert dial.level.volume == 100
        menu.handle(HostChoice("mute"))
        cs = dataclasses.replace(host_session.config.table, language="cs")
        host_session.config = dataclasses.replace(host_session.config, table=cs)
        view = menu.decorate({**host_session.view_for(KIOSK), "lang": "cs"})
        kiosk.update(view, clock())
        kiosk.screenshot(shots / f"kiosk-host-sound-cs-{size[0]}x{size[1]}.png")
    finally:
        kiosk.close()
