"""The whole appliance in one process, and `easel` as a command."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from appliance.app import Appliance, base_url
from appliance.kiosk.intents import (
    FinishChoice,
    HostChoice,
    KickSeat,
    PressButton,
    SelectGame,
    StartGame,
)
from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings
from appliance.table.session import HOST, KIOSK, PALETTE
from tests.conftest import REPO
from tests.process import free_port
from tests.toygame import RaceToTwenty


class ShiftedClock:
    """Real time plus an offset a test can push forward: the loop's timers stay real."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        import time

        return time.time() + self.offset


@pytest.fixture
async def running(
    tmp_path: Path, race: RaceToTwenty
) -> AsyncIterator[tuple[Appliance, ShiftedClock]]:
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    clock = ShiftedClock()
    app = Appliance(config, clock=clock)
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    for _ in range(200):
        if app.kiosk is not None and app.kiosk.frames_drawn:
            break
        await asyncio.sleep(0.01)
    yield app, clock
    stop.set()
    await asyncio.wait_for(task, 10)


async def test_the_hourglass_runs_out_by_itself(running: tuple[Appliance, ShiftedClock]) -> None:
    app, clock = running
    session = app.session
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    app._on_intent(SelectGame("race"))
    app._on_intent(StartGame())
    await started(app)
    app._on_intent(PressButton("hourglass"))
    assert session.match is not None
    clock.offset += 31
    for _ in range(300):
        if session.match.state.turn == 1:
            break
        await asyncio.sleep(0.01)
    assert session.match.state.turn == 1, "TIME_UP should have been applied by the clock"
    kinds = [a.action.kind for a in app.store.actions(session.match.record.id)]
    assert kinds == ["press_hourglass", "time_up"]


async def test_the_kiosk_hosts(running: tuple[Appliance, ShiftedClock]) -> None:
    app, _ = running
    app.session.join("Ada", PALETTE[0])
    app._on_intent(KickSeat(0))
    assert 0 in app.session.seats  # one tap on the ✕ only asks (kiosk_host.py)
    app._on_intent(HostChoice("yes"))
    await app.session.settled()  # written off the loop, applied once committed
    assert app.session.seats == {}
    app._on_intent(KickSeat(5))  # nobody there: logged, not raised
    app._on_intent(HostChoice("yes"))
    app._on_intent(StartGame())  # nothing selected: logged, not raised
    app._on_intent(FinishChoice())  # no finish on the screen: logged, not raised
    app.session.join("Ada", PALETTE[0])
    app.session.join("Bo", PALETTE[1])
    app._on_intent(SelectGame("race"))
    await app.session.settled()
    app.session.start(HOST, {"target": 5})
    while app.session.match is not None:
        app.session.act(app.session.match.state.turn % 2, "add", {"n": 1})
    assert app.session.view_for(KIOSK)["phase"] == "over"
    app._on_intent(FinishChoice(again=True))  # the finish strip's "Play again"
    await started(app)
    assert app.session.match is not None


async def started(app: Appliance) -> None:
    """Wait (bounded) for a start the kiosk asked for: it is set up off the loop."""
    for _ in range(300):
        if app.session.match is not None:
            return
        await asyncio.sleep(0.01)


def play_out(app: Appliance) -> None:
    """Play the race to its finish (the finish strip and menu offer Play again)."""
    session = app.session
    while session.match is not None:
        session.act(session.match.state.turn % 2, "add", {"n": 1})
    assert session.view_for(KIOSK)["phase"] == "over"


async def test_the_kiosks_start_and_play_again_are_set_up_off_the_loop(
    running: tuple[Appliance, ShiftedClock],
) -> None:
    """The kiosk's Start, its Play again and the host menu's Play again set the game up
    on a worker thread, like a phone's; a refused set-up is the kiosk's notice."""
    import threading

    from appliance.table.session import Refused

    app, _ = running
    session = app.session
    threads: list[threading.Thread] = []
    set_up = session._set_up
    refuse = [True]

    def watched(*args: object, **kwargs: object) -> object:
        threads.append(threading.current_thread())
        if refuse[0]:
            raise Refused("bad_deck", "The deck is bad.")
        return set_up(*args, **kwargs)  # type: ignore[arg-type]

    session._set_up = watched  # type: ignore[method-assign, assignment]
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    app._on_intent(SelectGame("race"))
    app._on_intent(StartGame())
    assert session.match is None  # not on this turn of the loop
    for _ in range(300):
        if session.notice is not None:
            break
        await asyncio.sleep(0.01)
    assert session.notice is not None and session.notice.key == "bad_deck"
    assert session.view_for(KIOSK)["notice"]["text"] == "The deck is bad."
    assert session.match is None
    refuse[0] = False
    app._on_intent(StartGame())
    await started(app)
    assert session.match is not None
    play_out(app)
    app._on_intent(FinishChoice(again=True))
    await started(app)
    assert session.match is not None
    play_out(app)
    assert app.host_menu is not None
    app.host_menu._set("menu")  # as after the PIN
    app._on_intent(HostChoice("again"))
    await started(app)
    assert session.match is not None
    assert len(threads) == 4
    assert all(t is not threading.main_thread() for t in threads)


async def test_a_flood_of_changes_is_drawn_at_the_kiosks_frame_rate(
    running: tuple[Appliance, ShiftedClock],
) -> None:
    """One seat's stroke/undo flood changes the view hundreds of times a second: the
    kiosk draws the newest view as often as its share of the time allows (VIEW_SHARE:
    after a frame of t, the next waits 3t, at most VIEW_INTERVAL_S), not a whole frame
    for every change; a change after a quiet moment still shows at once."""
    from appliance.kiosk import VIEW_INTERVAL_S, VIEW_SHARE
    from appliance.table.session import NotNow

    app, clock = running
    kiosk, session = app.kiosk, app.session
    assert kiosk is not None
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.2)
    drawn, spent, began, changes = kiosk.frames_drawn, kiosk.drawing_s, loop.time(), 0
    while loop.time() - began < 0.5:
        session.tell_table(NotNow("flood", f"change {changes}"))  # a new view each time
        changes += 1
        await asyncio.sleep(0.002)
    elapsed = loop.time() - began
    frames, spent = kiosk.frames_drawn - drawn, kiosk.drawing_s - spent
    assert changes > 40  # a flood (~250 on a quiet machine, 50-60 on a loaded one)
    assert 1 <= frames < changes, (frames, changes)
    # The frames' time together: the share, give or take (each gap is reckoned from the
    # frame before, and frames vary); a frame per change would be most of the time.
    assert spent <= 1.5 * VIEW_SHARE * elapsed, (spent, elapsed, frames)
    await asyncio.sleep(3 * VIEW_INTERVAL_S)  # the last change is drawn: the newest view
    assert not kiosk.renderer.needs_redraw(app.kiosk_view(), clock(), kiosk.size)
    await asyncio.sleep(1.2)  # quiet
    drawn, began = kiosk.frames_drawn, loop.time()
    session.tell_table(NotNow("flood", "one more"))
    while kiosk.frames_drawn == drawn and loop.time() - began < 1:
        await asyncio.sleep(0.002)
    assert kiosk.frames_drawn == drawn + 1 and loop.time() - began < 0.2


async def test_the_kiosk_frame_is_served_to_this_box(
    running: tuple[Appliance, ShiftedClock],
) -> None:
    app, _ = running
    import aiohttp

    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{app.config.server.port}/kiosk.png") as response,
    ):
        assert response.status == 200
        assert (await response.read()).startswith(b"\x89PNG")


async def test_the_kiosk_frame_is_encoded_off_the_loop(
    running: tuple[Appliance, ShiftedClock], monkeypatch: pytest.MonkeyPatch
) -> None:
    """/kiosk.png (for `easel screenshot`) is the frame on screen, pixel for pixel,
    encoded on a worker thread: a 1080p PNG is 100+ ms of zlib the phones' loop would
    wait for."""
    import io
    import threading

    import aiohttp
    import pygame

    from appliance.system.drawing import png_bytes

    app, _ = running
    kiosk = app.kiosk
    assert kiosk is not None
    threads: list[int] = []

    def recorded(surface: pygame.Surface) -> bytes:
        threads.append(threading.get_ident())
        return png_bytes(surface)

    monkeypatch.setattr("appliance.kiosk.png_bytes", recorded)
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{app.config.server.port}/kiosk.png") as response,
    ):
        body = await response.read()
    assert threads and threading.get_ident() not in threads
    shot = pygame.image.load(io.BytesIO(body), "kiosk.png")
    assert shot.get_size() == kiosk.frame.get_size()
    frame = pygame.image.tobytes(kiosk.frame, "RGB")
    assert pygame.image.tobytes(shot, "RGB") == frame


async def test_a_start_without_the_collector_turns_it_on_at_the_lobby(tmp_path: Path) -> None:
    """`easel run` starts with the collector off (appliance/cli.py): the lobby's first
    frame freezes what the start made and turns it back on, or garbage would pile up."""
    import gc

    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    app = Appliance(config)
    stop = asyncio.Event()
    frozen = gc.get_freeze_count()
    gc.disable()
    try:
        task = asyncio.create_task(app.run(stop))
        for _ in range(200):
            if app.kiosk is not None and app.kiosk.frames_drawn:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        assert gc.isenabled()
        assert gc.get_freeze_count() > frozen
        stop.set()
        await asyncio.wait_for(task, 10)
    finally:
        gc.enable()
        gc.unfreeze()  # the rest of the test session collects as usual


def test_the_join_address_is_the_lan_address() -> None:
    cfg = Config()
    addresses = {"lo": "127.0.0.1", "docker0": "172.17.0.1", "wlan0": "192.168.4.1"}
    assert base_url(cfg, addresses) == "http://192.168.4.1:8080"
    assert base_url(cfg, {"lo": "127.0.0.1", "eth0": "10.0.0.5"}) == "http://10.0.0.5:8080"
    public = dataclasses.replace(cfg, server=ServerSettings(public_url="http://easel.local:8080/"))
    assert base_url(public, addresses) == "http://easel.local:8080"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)  # as on a machine with no screen: auto-detect
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    return env


def test_easel_run_without_a_display_says_so_and_serves(tmp_path: Path) -> None:
    port = free_port()
    args = [sys.executable, "-m", "appliance", "run", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--data-dir", str(tmp_path)]
    proc = subprocess.Popen(args, cwd=REPO, env=_env(tmp_path), stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    lines = []
    try:
        for line in proc.stderr:
            lines.append(line)
            if "lobby on screen" in line:
                break
        headless = [line for line in lines if "headless" in line]
        assert len(headless) == 1, lines
        assert any(f":{port}/?room=" in line for line in lines), lines
        shot = tmp_path / "frame.png"
        result = subprocess.run(
            [sys.executable, "-m", "appliance", "screenshot", str(shot), "--port", str(port)],
            cwd=REPO,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 0, result
        assert shot.read_bytes().startswith(b"\x89PNG")
    finally:
        proc.terminate()
        assert proc.wait(10) == 0


def test_a_busy_port_stops_the_start_with_a_reason(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "appliance",
                "run",
                "--headless",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--data-dir",
                str(tmp_path),
            ],
            cwd=REPO,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert result.returncode == 1
    assert f"port {port} is in use" in result.stderr


def test_a_bad_config_stops_the_start(tmp_path: Path) -> None:
    env = {**_env(tmp_path), "EASEL_DISPLAY_ROTATION": "45"}
    result = subprocess.run(
        [sys.executable, "-m", "appliance", "run", "--data-dir", str(tmp_path)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "display.rotation = 45" in result.stderr and "EASEL_DISPLAY_ROTATION" in result.stderr
