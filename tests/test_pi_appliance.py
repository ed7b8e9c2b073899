"""The box as a Pi appliance: systemd's notify protocol on a real socket, the display
profiles, a screen that must not silently go headless, and rotation where the picture and
the finger agree."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.app import Appliance, StartError
from appliance.kiosk import Kiosk
from appliance.kiosk.intents import SelectGame
from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings, load
from appliance.system.sdnotify import Notifier
from drivers.touch import Touch
from tests.conftest import REPO, FakeClock
from tests.process import free_port

PROFILES = REPO / "config" / "profiles"


class NotifySocket:
    """A stand-in for systemd's notify socket: a real AF_UNIX datagram socket whose
    messages are collected, with their arrival times, by a thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._collect, daemon=True)
        self._thread.start()

    def _collect(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def texts(self) -> list[str]:
        return [text for _, text in self.messages]

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[NotifySocket]:
    made = NotifySocket(tmp_path / "notify")
    yield made
    made.close()


def wait_until(predicate: object, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


# --- sd_notify ----------------------------------------------------------------------------


def test_the_notifier_speaks_the_protocol(notify_socket: NotifySocket) -> None:
    clock = FakeClock()
    notifier = Notifier({"NOTIFY_SOCKET": str(notify_socket.path), "WATCHDOG_USEC": "4000000",
                         "WATCHDOG_PID": str(os.getpid())}, clock=clock)
    assert notifier.watchdog_interval == 2.0, "half of WatchdogSec"
    notifier.ready("lobby on screen")
    notifier.ready("again")  # READY is said once
    for _ in range(50):  # 50 loop turns in 5 s: pings every 2 s, not every turn
        notifier.watchdog()
        clock.advance(0.1)
    notifier.stopping()
    notifier.close()
    wait_until(lambda: "STOPPING=1" in notify_socket.texts())
    assert notify_socket.texts() == [
        "READY=1\nSTATUS=lobby on screen",
        "WATCHDOG=1",
        "WATCHDOG=1",
        "WATCHDOG=1",
        "STOPPING=1",
    ]


def test_the_notifier_reaches_an_abstract_socket_and_is_quiet_outside_systemd() -> None:
    name = f"easel-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(b"\0" + name.encode())
    server.settimeout(2)
    try:
        Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert server.recv(100) == b"READY=1"
    finally:
        server.close()
    quiet = Notifier({})
    assert not quiet.enabled and not quiet.send("READY=1")
    quiet.watchdog()
    # A WATCHDOG_PID of another process means the watchdog is not ours to feed.
    assert Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000000",
                     "WATCHDOG_PID": "1"}).watchdog_interval is None


async def test_ready_after_the_first_frame_then_pings_that_stop_when_the_loop_hangs(
    tmp_path: Path, notify_socket: NotifySocket
) -> None:
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    notifier = Notifier({"NOTIFY_SOCKET": str(notify_socket.path),
                         "WATCHDOG_USEC": "200000"})  # pings every 0.1 s
    frames_at_ready: list[int] = []
    app: Appliance

    def ready() -> None:
        frames_at_ready.append(app.kiosk.frames_drawn)
        notifier.ready()

    app = Appliance(config, on_first_frame=ready, on_frame=notifier.watchdog)
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    try:
        for _ in range(300):
            if len(notify_socket.messages) >= 5:
                break
            await asyncio.sleep(0.01)
        assert notify_socket.texts()[0] == "READY=1"
        assert frames_at_ready == [1], "ready once the lobby frame is on screen"
        # The frame loop hangs (a renderer stuck in a loop): no pings for that long.
        hung_from = time.monotonic()
        time.sleep(0.6)
        hung_to = time.monotonic()
        await asyncio.sleep(0.3)
        pings = [at for at, text in notify_socket.messages if text == "WATCHDOG=1"]
        assert not [at for at in pings if hung_from + 0.02 < at < hung_to - 0.02]
        assert [at for at in pings if at > hung_to], "pings resume with the loop"
        gaps = [b - a for a, b in itertools.pairwise(pings) if a > hung_to]
        assert all(gap >= 0.08 for gap in gaps), "at half the interval, not every turn"
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def test_the_easel_command_tells_systemd(tmp_path: Path, notify_socket: NotifySocket) -> None:
    env = dict(os.environ, NOTIFY_SOCKET=str(notify_socket.path), WATCHDOG_USEC="1000000",
               SDL_VIDEODRIVER="dummy", XDG_CONFIG_HOME=str(tmp_path / "cfg"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "appliance", "run", "--headless", "--host", "127.0.0.1",
         "--port", str(free_port()), "--data-dir", str(tmp_path / "data")],
        env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        wait_until(lambda: any(t.startswith("READY=1") for t in notify_socket.texts()), 30)
        ready = next(t for t in notify_socket.texts() if t.startswith("READY=1"))
        assert "STATUS=lobby on screen; phones join at http://" in ready
        wait_until(lambda: "WATCHDOG=1" in notify_socket.texts())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        wait_until(lambda: "STOPPING=1" in notify_socket.texts())
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- the display --------------------------------------------------------------------------


async def test_a_screen_that_cannot_open_stops_the_box_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No silent fallback to headless where the kiosk must take the screen (kmsdrm)."""
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="fullscreen"),
    )
    if Path("/dev/dri/card0").exists():
        pytest.skip("this machine has a KMS screen: kmsdrm might open")
    app = Appliance(config, clock=FakeClock())
    with pytest.raises(StartError, match="dtoverlay=vc4-kms-v3d") as caught:
        await asyncio.wait_for(app.run(asyncio.Event()), 10)
    assert "kmsdrm" in str(caught.value)
    assert os.environ.get("SDL_VIDEODRIVER") is None, "the environment is left as found"


@pytest.mark.parametrize("name", ["pi-7inch", "touch-display-2", "hdmi-tv"])
def test_profiles_are_valid_settings(name: str) -> None:
    path = PROFILES / f"{name}.toml"
    config = load(files=[path], env={})
    text = tomllib.loads(path.read_text())
    for section, values in text.items():
        for key, value in values.items():
            got = getattr(getattr(config, section), key)
            assert got == value, f"{name}: {section}.{key}"
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            j = i - 1
            while lines[j] and not lines[j].startswith(("#", "[")):
                j -= 1
            assert lines[j].startswith("#") or lines[j].startswith("["), line


def test_the_profiles_are_the_three_screens() -> None:
    pi7 = load(files=[PROFILES / "pi-7inch.toml"], env={})
    assert (pi7.display.width, pi7.display.height, pi7.touch.source) == (800, 480, "evdev")
    td2 = load(files=[PROFILES / "touch-display-2.toml"], env={})
    assert td2.display.rotation in (90, 270), "a portrait panel turned to landscape"
    assert td2.display.width > td2.display.height
    tv = load(files=[PROFILES / "hdmi-tv.toml"], env={})
    assert (tv.display.width, tv.display.height, tv.touch.source) == (1920, 1080, "none")


# --- rotation: the picture and the finger agree ---------------------------------------


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_rendered_button_is_where_the_finger_lands(rotation: int) -> None:
    """Draw the lobby for a screen mounted at `rotation`; find a game tile on the physical
    screen by its pixels, touch it there through the touch driver's coordinates, and the
    kiosk reads the tap as that tile."""
    view = {
        "version": 1, "phase": "lobby", "lang": "en", "room": "ABCD",
        "join_url": "http://192.0.2.1:8080/?room=ABCD", "seats": [], "spectators": 0,
        "max_players": 8, "palette": [], "selected": None, "match": None, "wifi": None,
        "games": [{"id": "duplik", "title": "Duplik", "min_players": 3, "max_players": 10,
                   "available": True}],
    }
    kiosk = Kiosk(size=(1280, 720), rotation=rotation)
    try:
        kiosk.update(view, 0.0)
        (tile,) = [rect for rect, intent in kiosk.renderer.targets
                   if intent == SelectGame("duplik")]
        logical = (tile.x + tile.w // 3, tile.y + tile.h // 3)
        physical = kiosk.to_physical(logical)
        # The physical screen shows, at that point, what the upright frame has there.
        assert kiosk.screen.get_at(physical) == kiosk.frame.get_at(logical)
        w, h = kiosk.screen.get_size()
        x, y = physical[0] / (w - 1), physical[1] / (h - 1)
        kiosk.feed_touches([Touch("down", 1, x, y, 0.0)])
        kiosk.feed_touches([Touch("up", 1, x, y, 0.05)])
        assert kiosk.poll() == [SelectGame("duplik")]
    finally:
        kiosk.close()
