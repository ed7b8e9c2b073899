"""The family box on a TV, end to end: the whole appliance with no touch and no mouse,
driven by synthesised evdev streams of a TV remote (the CEC adapter's device), an Xbox
pad and a USB keyboard on a fake /dev/input, while bots on real WebSockets play the
phones' parts (tests/bots.py). Each of the four games goes from the lobby (choose the
game, Start, both with the arrows and OK) to its end: the table's buttons come from the
remote's colour keys, the pad's shoulders or the keyboard's H/D/R, and every table choice
a game screen shows (a number, "nothing fits", "close the vote", marking a guess) is
reached with the arrows and pressed with OK. A fake `cec-ctl` on PATH checks that the box
registers at start and wakes the TV when a game starts or a new player sits down.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from appliance.app import Appliance
from appliance.kiosk.focus import Direction, step
from appliance.kiosk.intents import ActAs, FinishChoice, Intent, SelectGame, StartGame
from appliance.system.config import (
    Config,
    DisplaySettings,
    HostSettings,
    RemoteSettings,
    ServerSettings,
    StorageSettings,
    TvSettings,
)
from drivers.remote import RemoteInputs
from games.core import TABLE
from tests.bots import COLOURS, BotPhone, InProcessTable, RunOut, choose, press_of
from tests.conftest import FakeClock
from tests.process import free_port
from tests.test_remote import (
    REGISTERED,
    FakeInput,
    FakeInputDir,
    cec_remote,
    fake_cec_ctl,
    usb_keyboard,
    xbox_pad,
)

# What each device sends for a remote key (drivers/remote.py's table, read the other way).
REMOTE_KEYS = {
    "up": "KEY_UP", "down": "KEY_DOWN", "left": "KEY_LEFT", "right": "KEY_RIGHT",
    "ok": "KEY_OK", "back": "KEY_EXIT", "hourglass": "KEY_RED", "die": "KEY_GREEN",
    "reveal": "KEY_YELLOW", "pause": "KEY_PLAYPAUSE", "menu": "KEY_ROOT_MENU",
    **{str(n): f"KEY_NUMERIC_{n}" for n in range(10)},
}
PAD_KEYS = {
    "ok": "BTN_SOUTH", "back": "BTN_EAST", "hourglass": "BTN_TL", "die": "BTN_TR",
    "reveal": "BTN_NORTH", "hourglass_long": "BTN_WEST", "pause": "BTN_START",
    "menu": "BTN_MODE",
}
PAD_HAT = {"up": ("ABS_HAT0Y", -1), "down": ("ABS_HAT0Y", 1), "left": ("ABS_HAT0X", -1),
           "right": ("ABS_HAT0X", 1)}
KEYBOARD_KEYS = {
    "up": "KEY_UP", "down": "KEY_DOWN", "left": "KEY_LEFT", "right": "KEY_RIGHT",
    "ok": "KEY_ENTER", "back": "KEY_ESC", "hourglass": "KEY_H", "die": "KEY_D",
    "reveal": "KEY_R", "pause": "KEY_P", "menu": "KEY_M", **{str(n): f"KEY_{n}" for n in range(10)},
}
PIN = "2468"


async def until(predicate: Callable[[], object], timeout: float = 5.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.002)


class Sofa:
    """Someone on the sofa with one device: presses its keys and waits for the kiosk."""

    def __init__(self, app: Appliance, device: FakeInput, kind: str) -> None:
        self.app = app
        self.device = device
        self.kind = kind
        self.presses = 0

    @property
    def kiosk(self) -> Any:
        return self.app.kiosk

    def send(self, key: str) -> None:
        self.presses += 1
        if key == "hourglass_long" and self.kind != "gamepad":
            # Held down past [panel] hold_s: the kernel's autorepeat says it still is.
            self.device.press(REMOTE_KEYS["hourglass"] if self.kind == "remote" else "KEY_H",
                              repeats=45)
            return
        if self.kind == "gamepad" and key in PAD_HAT:
            self.device.send(*self.device.hat(*PAD_HAT[key]))
            return
        table = {"remote": REMOTE_KEYS, "gamepad": PAD_KEYS, "keyboard": KEYBOARD_KEYS}
        self.device.press(table[self.kind][key])

    async def shown(self) -> None:
        """Until the kiosk has drawn the session's newest view (its targets are current)."""
        app = self.app

        def drawn() -> bool:
            view = app.kiosk_view()
            last = app.kiosk.renderer._last_key
            # (A frame drawn on the kiosk's worker is shown, and its targets are the
            # ring's, once the loop has finished it: `drawing` is None again.)
            return (last is not None and last[0] == view.get("version")
                    and app.kiosk.drawing is None)

        await until(drawn, what="the kiosk to draw the newest view")

    async def key(self, key: str) -> None:
        self.send(key)
        # Read by the device's reader task on the loop, then taken by the kiosk's next turn.
        await asyncio.sleep(0.005)

    def on_screen(self, intent: Intent) -> bool:
        return any(it == intent for _, it in self.kiosk.focus.targets)

    async def go_to(self, intent: Intent) -> None:
        """Arrows until the ring is on `intent`'s target (the shortest way there)."""
        await self.shown()
        focus = self.kiosk.focus
        if not focus.visible:
            await self.key("down")  # the first arrow shows the ring where it starts
            await until(lambda: focus.visible)
        rects = [r for r, _ in focus.targets]
        goal = next(i for i, (_, it) in enumerate(focus.targets) if it == intent)
        path = _path(rects, focus.index, goal)
        assert path is not None, f"{intent} cannot be reached from {focus.intent}"
        for direction, index in path:
            await self.key(direction)
            await until(partial(lambda i: focus.index == i, index), what=f"focus on {index}")
        assert focus.intent == intent

    async def choose(self, intent: Intent, done: Callable[[], object]) -> None:
        """Go to `intent` and press OK; wait until `done()`."""
        await self.go_to(intent)
        await self.key("ok")
        await until(done, what=f"{intent} to be done")


def _path(rects: list[Any], start: int | None, goal: int) -> list[tuple[Direction, int]] | None:
    assert start is not None
    todo: list[tuple[int, list[tuple[Direction, int]]]] = [(start, [])]
    seen = {start}
    while todo:
        i, path = todo.pop(0)
        if i == goal:
            return path
        directions: tuple[Direction, ...] = ("up", "down", "left", "right")
        for d in directions:
            j = step(rects, i, d)
            if j is not None and j not in seen:
                seen.add(j)
                todo.append((j, [*path, (d, j)]))
    return None


@contextlib.asynccontextmanager
async def living_room(
    tmp_path: Path, clock: FakeClock, devices: FakeInputDir, size: tuple[int, int] = (800, 480)
) -> AsyncIterator[Appliance]:
    """The appliance on a TV: headless kiosk, remotes read through evdev (keyboards too,
    as on a Pi under KMS/DRM), CEC on with wake-up, a host PIN, short Broad Lines."""
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path / "data")),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=size[0], height=size[1]),
        remote=RemoteSettings(keyboard="evdev"),
        tv=TvSettings(cec=True, wake=True),
        host=HostSettings(pin=PIN),
    ).with_game_settings({"broad_lines.sheets": 5})
    app = Appliance(config, clock=clock)

    def remote_inputs() -> RemoteInputs:
        return RemoteInputs(lambda press: app.kiosk.feed_remote([press]),
                            keyboards=app.kiosk.keys_source == "evdev", rescan_s=0.02,
                            opener=devices.opener, lister=devices.lister)

    app._remote_inputs = remote_inputs  # type: ignore[method-assign]  # the fake /dev/input
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    await until(lambda: task.done() or (app.kiosk is not None and app.kiosk.frames_drawn),
                10, "the lobby")
    if task.done():
        task.result()
    # The kiosk draws a change at most 20 times a second (a flood costs one frame per
    # interval); this sofa presses as fast as the kiosk shows, so it would wait that
    # interval at each of its hundreds of steps: draw every change at once here.
    assert app.kiosk is not None
    app.kiosk.view_interval = 0.0
    try:
        yield app
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@dataclasses.dataclass
class Tally:
    by_remote: int = 0  # table moves and table choices pressed with the device
    by_phone: int = 0
    table_off_screen: list[str] = dataclasses.field(default_factory=list)  # not offered
    time_ups: int = 0


async def play_to_the_end(app: Appliance, sofa: Sofa, clock: FakeClock,
                          bots: dict[int, BotPhone], seed: int, budget: int = 3000) -> Tally:
    """Oracle-chosen moves until the match ends: the phones' parts by the bots, the
    table's and every choice the kiosk shows by `sofa`'s device."""
    table = InProcessTable(app, clock)
    rnd = random.Random(seed)
    tally = Tally()
    session = app.session
    for _ in range(budget):
        snap = await table.snapshot()
        if snap is None:
            return tally
        move = choose(snap, rnd, seats=list(bots), p_time=0.05)
        if move is None:
            await asyncio.sleep(0.005)
            continue
        if isinstance(move, RunOut):
            await table.run_out(snap, move.deadline)
            tally.time_ups += 1
            continue

        def moved(snap: Any = snap) -> bool:
            match = session.match
            return match is None or match.record.id != snap.match_id or match.next_seq > snap.seq

        button = press_of(move.kind) if move.who is TABLE else None
        intent = ActAs(move.who, move.kind, move.data)
        await sofa.shown()
        if button is not None:
            name, long = button
            await sofa.key(f"{name}_long" if long else name)
            await until(moved, what=f"{move.kind} from the {sofa.kind}")
            tally.by_remote += 1
        elif sofa.on_screen(intent):
            await sofa.choose(intent, moved)
            tally.by_remote += 1
        elif move.who is TABLE:
            # A table move the screen does not offer now (Luck of the Draw's "nothing
            # fits" once everyone voted): the sofa cannot make it, so it is not made.
            tally.table_off_screen.append(move.kind)
        else:
            answer = await bots[move.who].act(move.kind, move.data)
            assert answer["type"] in ("ack", "error")
            tally.by_phone += 1
    raise AssertionError(f"the match did not end within {budget} moves: {tally}")


DEVICES = {
    "broad-lines": "remote",
    "duplik": "gamepad",
    "luck-of-the-draw": "keyboard",
    "artbox": "remote",
}


@pytest.mark.parametrize("game", list(DEVICES))
async def test_a_whole_game_from_the_sofa(tmp_path, monkeypatch, game):
    cec_log = fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="1.0.0.0"))
    clock = FakeClock()
    remote, pad, keyboard = cec_remote(), xbox_pad(), usb_keyboard()
    devices = FakeInputDir(remote, pad, keyboard)
    device = {"remote": remote, "gamepad": pad, "keyboard": keyboard}[DEVICES[game]]
    async with living_room(tmp_path, clock, devices) as app, aiohttp.ClientSession() as http:
        await until(lambda: app.cec is not None, what="the CEC registration")
        await until(lambda: len(app.kiosk.focus.targets) > 0)
        sofa = Sofa(app, device, DEVICES[game])
        url = f"http://127.0.0.1:{app.config.server.port}"
        bots = [BotPhone(http, url, f"Bot{i}", COLOURS[i]) for i in range(4)]
        for bot in bots:
            await bot.join(app.session.room)
            await until(lambda: not app._tv_tasks, what="the TV's wake-up")
            clock.advance(11)  # past the TV's wake-up interval: each join may wake it
        await until(lambda: len(app.remote_inputs.connected) == 3, what="three devices")
        # The lobby: choose the game, then Start, with the arrows and OK only.
        await sofa.choose(SelectGame(game), lambda: app.session.selected == game)
        clock.advance(11)
        await sofa.choose(StartGame(), lambda: app.session.match is not None)
        match_id = app.session.match.record.id  # type: ignore[union-attr]
        seats = {b.seat: b for b in bots if b.seat is not None}
        tally = await play_to_the_end(app, sofa, clock, seats, seed=len(game))
        last = app.session.last_match
        assert last is not None and last.record.id == match_id
        assert tally.by_remote > 0, tally
        # Every table move but "nothing fits" after the vote is offered on the screen.
        assert set(tally.table_off_screen) <= {"nothing_fits"}, tally
        # The finish stays until the host moves on: "Back to the lobby" from the sofa too.
        await sofa.shown()
        assert app.session.match is None and app.session.finish_held
        assert sofa.on_screen(FinishChoice(False))
        await sofa.choose(FinishChoice(False), lambda: not app.session.finish_held)
        await sofa.shown()
        assert sofa.on_screen(StartGame())
    log = cec_log.read_text().splitlines()
    assert log[0] == "--device /dev/cec0 --playback --osd-name Easel"
    wakes = [line for line in log if line.endswith("--image-view-on")]
    assert len(wakes) == 5, log  # each of the four players sat down, and the game started


async def test_the_host_menu_from_the_keyboard_and_back_never_quits(tmp_path, monkeypatch):
    fake_cec_ctl(tmp_path, monkeypatch, "exit 1")  # a TV without CEC: nothing else changes
    clock = FakeClock()
    keyboard, remote = usb_keyboard(), cec_remote()
    devices = FakeInputDir(keyboard, remote)
    async with living_room(tmp_path, clock, devices, (1920, 1080)) as app, \
            aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{app.config.server.port}"
        bots = [BotPhone(http, url, f"Bot{i}", COLOURS[i]) for i in range(3)]
        for bot in bots:
            await bot.join(app.session.room)
        await until(lambda: len(app.remote_inputs.connected) == 2)
        sofa = Sofa(app, keyboard, "keyboard")
        tv = Sofa(app, remote, "remote")
        host = app.host_menu
        for _ in range(3):
            await sofa.key("back")  # Esc, again and again: the box stays up
        await sofa.shown()
        assert not app._stop.is_set()
        await sofa.choose(SelectGame("artbox"), lambda: app.session.selected == "artbox")
        await sofa.choose(StartGame(), lambda: app.session.match is not None)
        # Play/pause on the remote pauses and resumes for the host.
        await tv.key("pause")
        await until(lambda: app.session.paused, what="pause")
        await tv.key("pause")
        await until(lambda: not app.session.paused, what="resume")
        # The menu key asks for the PIN; digits type it, OK opens the menu; Back closes it.
        await sofa.key("menu")
        await until(lambda: host.state == "pin", what="the PIN pad")
        for digit in PIN:
            await sofa.shown()
            await sofa.key(digit)
        await until(lambda: len(host.digits) == len(PIN), what="the digits")
        await sofa.shown()
        await sofa.go_to(_pin_ok(sofa))
        await sofa.key("ok")
        await until(lambda: host.state == "menu", what="the host menu")
        await sofa.key("back")
        await until(lambda: host.state == "closed", what="Back to close the menu")
        # Back from the PIN pad closes it too, and a further Back does nothing.
        await tv.key("menu")
        await until(lambda: host.state == "pin")
        await tv.key("back")
        await until(lambda: host.state == "closed")
        await tv.key("back")
        await sofa.shown()
        assert app.session.match is not None and not app._stop.is_set()
        assert app.cec is None


def _pin_ok(sofa: Sofa) -> Intent:
    from appliance.kiosk.intents import PinKey

    return PinKey("ok")


async def test_a_box_booting_onto_a_tv_announces_itself_on_the_tvs_port(tmp_path, monkeypatch):
    """The TV sends its remote's keys to the active source only: a box whose kiosk is on
    HDMI-A-2 registers on that port's adapter (/dev/cec1, `[tv] device = "auto"`) and says
    it is the active source at once, without waking the TV; nobody has joined yet."""
    import drivers.remote
    from drivers.remote import ScreenOutput
    from tests.test_remote import two_port_cec_ctl

    log = two_port_cec_ctl(tmp_path, monkeypatch, info=True)
    adapters = tmp_path / "dev"
    adapters.mkdir()
    for name in ("cec0", "cec1"):
        (adapters / name).touch()
    monkeypatch.setattr(drivers.remote, "CEC_DEVICES", str(adapters / "cec*"))
    monkeypatch.setattr(Appliance, "_tv_output", lambda self: ScreenOutput(1, 33, "HDMI-A-2"))
    async with living_room(tmp_path, FakeClock(), FakeInputDir()) as app:
        await until(lambda: app.cec is not None and not app._tv_tasks, what="the announce")
        assert app.cec.device == str(adapters / "cec1")
    lines = log.read_text().splitlines()
    assert lines == [
        f"--device {adapters}/cec0",
        f"--device {adapters}/cec1",
        f"--device {adapters}/cec1 --playback --osd-name Easel",
        f"--device {adapters}/cec1 --to 0 --active-source phys-addr=3.0.0.0",
    ]
