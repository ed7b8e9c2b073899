"""The box on a real Pi's first days: no real-time clock (NTP jumps, power cuts), a
network that comes up late or changes address, a panel pin that cannot be used, and a
task that dies. None of these may leave the table dark, frozen or wrong."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest
import zxingcpp

from appliance.app import HOUSEKEEPING_S, Appliance, TaskFailed
from appliance.system.clock import SteadyClock
from appliance.system.config import (
    Config,
    DisplaySettings,
    PanelSettings,
    ServerSettings,
    StorageSettings,
)
from appliance.table.session import CLOCK_SAVE_S, HOST, KIOSK, PALETTE, Session
from appliance.table.store import Store
from games.core import replay
from tests.conftest import FakeClock
from tests.process import free_port
from tests.toygame import TURN_SECONDS, RaceToTwenty


class WallAndMonotonic:
    """A wall clock NTP may set and a monotonic clock that only runs, both by hand."""

    def __init__(self, wall: float = 1_800_000_000.0) -> None:
        self.wall = wall
        self.mono = 1000.0

    def run(self, seconds: float) -> None:
        self.wall += seconds
        self.mono += seconds

    def steady(self) -> SteadyClock:
        return SteadyClock(lambda: self.wall, lambda: self.mono)


def seated_match(session: Session, players: int = 3) -> None:
    for i in range(players):
        session.join(f"Player {i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)


def remaining(session: Session) -> float:
    deadline = session.view_for(KIOSK)["match"]["deadline"]
    return float(deadline["remaining"])


# --- the clock --------------------------------------------------------------------------


def test_the_steady_clock_ignores_a_jump_until_told_to_follow() -> None:
    time = WallAndMonotonic()
    clock = time.steady()
    assert clock() == time.wall
    time.run(10)
    assert clock() == time.wall
    time.wall += 3 * 3600  # NTP: three hours forward at once
    time.run(1)
    assert clock() == time.wall - 3 * 3600
    assert clock.drift() == 3 * 3600
    assert clock.resync() == 3 * 3600
    assert clock() == time.wall and clock.resync() == 0


def test_an_ntp_jump_does_not_run_an_hourglass_out(
    store: Store, config: Config, race: RaceToTwenty
) -> None:
    time = WallAndMonotonic()
    session = Session(store, config, "", time.steady())
    seated_match(session)
    session.act(0, "add", {"n": 1})  # seat 1's turn: TURN_SECONDS on the hourglass
    time.run(10)
    time.wall += 86_400  # the network came back: the clock was a day behind
    assert not session.tick(), "the hourglass must not expire at the jump"
    assert remaining(session) == TURN_SECONDS - 10
    time.wall -= 2 * 86_400  # and a jump back gives no time either
    time.run(TURN_SECONDS - 10 - 0.1)
    assert not session.tick()
    time.run(0.2)
    assert session.tick(), "it runs out after its own 30 s, not the wall clock's"


@pytest.mark.parametrize("restart_wall_shift", [-7 * 86_400.0, 0.0, 3600.0])
def test_after_a_power_cut_the_hourglass_has_the_time_it_had_left(
    tmp_path: Path, config: Config, race: RaceToTwenty, restart_wall_shift: float
) -> None:
    """Without a real-time clock the Pi restarts from its last saved time (a week behind
    here), or an hour late; either way the hourglass continues from the last save, and
    the log still replays to the same game."""
    time = WallAndMonotonic()
    store = Store(tmp_path / "easel.sqlite3")
    session = Session(store, config, "", time.steady())
    seated_match(session)
    session.act(0, "add", {"n": 2})
    for _ in range(12):  # 12 s of the turn, the box's clock tick saving as it goes
        time.run(1)
        session.keep_time()
    # Saved at the first tick and every CLOCK_SAVE_S (5 s) after: at 1, 6 and 11 s.
    saved_at_left = TURN_SECONDS - 11
    assert TURN_SECONDS - 12 < saved_at_left <= TURN_SECONDS - 12 + CLOCK_SAVE_S
    store.close()  # the power goes
    time.wall += restart_wall_shift
    time.mono = 3.0  # a new boot: the monotonic clock starts again
    store = Store(tmp_path / "easel.sqlite3")
    again = Session(store, config, "", time.steady())
    try:
        assert again.match is not None
        assert not again.tick()
        assert remaining(again) == saved_at_left
        time.run(saved_at_left - 0.1)
        assert not again.tick()
        time.run(0.2)
        assert again.tick()
        # Exact replay: the log, its stamps on the match's own clock, gives the same state.
        match = again.match
        assert match is not None
        logged = [a.action for a in store.actions(match.record.id)]
        replayed = replay(match.rules, match.record.seats, match.record.options,
                          match.record.seed, logged)
        assert race.to_json(replayed) == race.to_json(match.state)
        assert logged[-1].kind == "time_up"
    finally:
        store.close()


def test_a_restart_while_paused_stays_paused_with_the_same_time_left(
    tmp_path: Path, config: Config, race: RaceToTwenty
) -> None:
    time = WallAndMonotonic()
    store = Store(tmp_path / "easel.sqlite3")
    session = Session(store, config, "", time.steady())
    seated_match(session)
    session.act(0, "add", {"n": 1})
    time.run(7)
    session.pause(HOST)
    store.close()
    time.wall -= 86_400
    time.mono = 5.0
    store = Store(tmp_path / "easel.sqlite3")
    try:
        again = Session(store, config, "", time.steady())
        assert again.paused and remaining(again) == TURN_SECONDS - 7
        time.run(1000)
        again.resume(HOST)
        assert remaining(again) == TURN_SECONDS - 7
    finally:
        store.close()


# --- the appliance ------------------------------------------------------------------------


def box_config(tmp_path: Path, **changes: Any) -> Config:
    return dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="0.0.0.0", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
        **changes,
    )


async def until(predicate: Callable[[], object], timeout: float = 10.0) -> None:
    """Wait for the box to get somewhere (a frame, a stop), never for a timer of its own."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


def qr_texts(png: bytes) -> list[str]:
    surface = pygame.image.load(io.BytesIO(png), "frame.png")
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    return [r.text for r in zxingcpp.read_barcodes(pixels)]


async def test_a_panel_pin_that_cannot_be_used_leaves_the_box_running_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = box_config(
        tmp_path, panel=PanelSettings(pin_factory="mock", buzzer=28)  # no GPIO28 on a Pi
    )
    app = Appliance(config, clock=FakeClock(), addresses=lambda: {"eth0": "192.0.2.5"})
    stop = asyncio.Event()
    caplog.set_level(logging.INFO, "easel")
    task = asyncio.create_task(app.run(stop))
    try:
        await until(lambda: app.kiosk is not None and app.kiosk.frames_drawn > 0)
        assert app.panel is None
        assert app.kiosk.renderer.panel_buttons, "the on-screen buttons stand in"
        (notice,) = app.notices
        assert "GPIO28" in notice and "panel.buzzer" in notice
        assert app.kiosk_view()["notices"] == [notice]
        logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        assert any("GPIO28" in m and "panel.enabled = false" in m for m in logged)
        (tmp_path / "notice.png").write_bytes(app.kiosk.png_bytes())
        # The phones' server is up all the same.
        assert app.session.join_url.startswith("http://192.0.2.5:")
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def test_a_pi_without_any_gpio_library_starts_with_on_screen_buttons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Raspberry Pi OS trixie's lgpio is in the Raspberry Pi archive only (no PyPI wheel for
    Python 3.13): a Pi where neither lgpio nor RPi.GPIO imports still opens the lobby, its
    three buttons on the screen and a notice saying the panel is off."""
    import sys

    import appliance.kiosk.display

    for module in ("lgpio", "RPi", "RPi.GPIO"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails, as on plain trixie
    monkeypatch.setattr(appliance.kiosk.display, "detect_pi", lambda: True)
    app = Appliance(box_config(tmp_path), clock=FakeClock(),
                    addresses=lambda: {"eth0": "192.0.2.5"})
    stop = asyncio.Event()
    caplog.set_level(logging.INFO, "easel")
    task = asyncio.create_task(app.run(stop))
    try:
        await until(lambda: app.kiosk is not None and app.kiosk.frames_drawn > 0)
        assert app.panel is None
        assert app.kiosk.renderer.panel_buttons, "the on-screen buttons stand in"
        (notice,) = app.notices
        assert notice.startswith("Panel off: no GPIO library works"), notice
        assert "on-screen buttons" in notice
        assert app.kiosk_view()["notices"] == [notice]
        logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        assert any("python3-lgpio" in m for m in logged), logged
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def test_the_join_address_follows_the_network(tmp_path: Path) -> None:
    """No network at start (the QR code would say 127.0.0.1), then Wi-Fi comes up, then
    the lease changes: the lobby's QR code follows each time without a restart."""
    interfaces: dict[str, str] = {"lo": "127.0.0.1"}
    app = Appliance(box_config(tmp_path, panel=PanelSettings(enabled=False)),
                    clock=FakeClock(), addresses=lambda: dict(interfaces))
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    try:
        await until(lambda: app.kiosk is not None and app.kiosk.frames_drawn > 0)
        port = app.config.server.port
        assert app.session.join_url.startswith(f"http://127.0.0.1:{port}/")
        handle = app._housekeeping
        loop = asyncio.get_running_loop()
        assert 0 < handle.when() - loop.time() <= HOUSEKEEPING_S, "looked at again soon"
        assert not app.follow_address(), "nothing changed, nothing redrawn"
        for address in ("192.0.2.44", "192.0.2.99"):
            interfaces["wlan0"] = address
            frames = app.kiosk.frames_drawn
            assert app.follow_address()
            want = f"http://{address}:{port}/?room={app.session.room}"
            assert app.session.join_url == want
            await until(lambda f=frames: app.kiosk.frames_drawn > f)  # type: ignore[misc]
            assert want in qr_texts(app.kiosk.png_bytes())
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


async def test_a_kiosk_task_that_dies_stops_the_box_with_its_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = Appliance(box_config(tmp_path, panel=PanelSettings(enabled=False)),
                    clock=FakeClock(), addresses=dict)

    def broken() -> None:
        raise ZeroDivisionError("a bug outside the kiosk's try blocks")

    def first() -> None:
        app.kiosk.present_ink = broken

    app.on_first_frame = first
    caplog.set_level(logging.INFO, "easel")
    with pytest.raises(TaskFailed, match="kiosk task stopped: ZeroDivisionError"):
        # Not the watchdog's 30 s: at once.
        await asyncio.wait_for(app.run(asyncio.Event()), 10)
    (record,) = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert record.exc_info is not None and "a bug outside" in str(record.exc_info[1])
    assert "starts again" in record.getMessage()


# --- the wiring guide and the default pins --------------------------------------------------

# The 40-pin header: BCM GPIO number -> physical pin.
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}
GROUND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}


def wiring_table() -> dict[str, tuple[int, int, str]]:
    """docs/wiring.md's pin table: setting -> (GPIO, pin, where the other side goes)."""
    from tests.conftest import REPO

    rows: dict[str, tuple[int, int, str]] = {}
    for line in (REPO / "docs" / "wiring.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1].startswith("`") and cells[2].isdigit():
            rows[cells[1].strip("`")] = (int(cells[2]), int(cells[3]), cells[4])
    return rows


def test_the_wiring_guide_is_the_default_pins_and_keeps_clear_of_i2s_and_pin_6() -> None:
    panel = PanelSettings()
    table = wiring_table()
    assert {key: gpio for key, (gpio, _, _) in table.items()} == panel.pins()
    for key, (gpio, pin, other) in table.items():
        assert HEADER[gpio] == pin, f"{key}: GPIO{gpio} is pin {HEADER[gpio]}, not {pin}"
        assert gpio not in (18, 19, 20, 21), f"{key} on an I²S pin (sound boards)"
        assert gpio not in (0, 1, 2, 3, 14, 15), key
        grounds = {int(n) for n in re.findall(r"pin (\d+)", other)}
        assert grounds and grounds <= GROUND_PINS, f"{key}: {other}"
        assert 6 not in grounds, f"{key} shares pin 6 with the screen's power lead"
        if key == "buzzer":
            # A buzzer draws 20-40 mA: the budget counts only a transistor's base current.
            assert "1 kΩ to the transistor's base" in other, other
        if key.endswith("led") or key.startswith("bar"):
            ohms = int(other.split(" Ω")[0])
            assert 330 <= ohms <= 470, f"{key}: {ohms} Ω"
            assert (3.3 - 2.0) / ohms * 1000 <= 4.0, "mA per LED"
