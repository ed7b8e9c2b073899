"""drivers/remote.py: remote keys from synthesised evdev streams (real `evdev.InputEvent`s,
as the kernel sends them for the CEC adapter's rc device, an Xbox 360 pad and a USB
keyboard), hot-plug, the one mapping table and its docs, and `cec-ctl` run for real: a
fake `cec-ctl` script on PATH records what it is asked.

The fakes here (`FakeInput`, the stream builders) are shared by tests/test_remote_play.py
and tests/bench/bench_remote.py.
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import logging
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import evdev
import pytest
from evdev import ecodes as e

from drivers.remote import (
    BINDINGS,
    BY_CODE,
    ArrowRepeat,
    Cec,
    KeyDecoder,
    RemoteInputs,
    RemotePress,
    ScreenOutput,
    cec_device_for,
    describe,
    key_for_sdl,
    kind_of,
)
from tests.conftest import FakeClock

REPO = Path(__file__).resolve().parent.parent

# -- synthesised devices -------------------------------------------------------------------

# CEC User Control Codes of the keys (the rc-cec keymap's scancodes, sent as MSC_SCAN).
CEC_SCANCODES = {
    "KEY_OK": 0x00, "KEY_UP": 0x01, "KEY_DOWN": 0x02, "KEY_LEFT": 0x03, "KEY_RIGHT": 0x04,
    "KEY_ROOT_MENU": 0x09, "KEY_EXIT": 0x0D, "KEY_PLAY": 0x44, "KEY_PAUSE": 0x46,
    "KEY_PLAYPAUSE": 0x61, "KEY_BLUE": 0x71, "KEY_RED": 0x72, "KEY_GREEN": 0x73,
    "KEY_YELLOW": 0x74, **{f"KEY_NUMERIC_{n}": 0x20 + n for n in range(10)},
}
# USB HID usages a keyboard sends as MSC_SCAN before each key.
HID_USAGES = {
    "KEY_UP": 0x70052, "KEY_DOWN": 0x70051, "KEY_LEFT": 0x70050, "KEY_RIGHT": 0x7004F,
    "KEY_ENTER": 0x70028, "KEY_ESC": 0x70029, "KEY_BACKSPACE": 0x7002A, "KEY_SPACE": 0x7002C,
    "KEY_H": 0x7000B, "KEY_D": 0x70007, "KEY_R": 0x70015, "KEY_P": 0x70013, "KEY_M": 0x70010,
    "KEY_LEFTSHIFT": 0x700E1, **{f"KEY_{n}": 0x7001E + (n - 1) % 10 for n in range(10)},
}
XBOX_STICK = evdev.AbsInfo(value=0, min=-32768, max=32767, fuzz=16, flat=128, resolution=0)
XBOX_TRIGGER = evdev.AbsInfo(value=0, min=0, max=255, fuzz=0, flat=0, resolution=0)
XBOX_HAT = evdev.AbsInfo(value=0, min=-1, max=1, fuzz=0, flat=0, resolution=0)


class Clock:
    """Event timestamps: each frame 20 ms after the last, like a person pressing keys."""

    def __init__(self, t: float = 1_700_000_000.0) -> None:
        self.t = t

    def next(self, dt: float = 0.02) -> float:
        self.t += dt
        return self.t


def event(t: float, etype: int, code: int, value: int) -> evdev.InputEvent:
    sec = int(t)
    return evdev.InputEvent(sec, round((t - sec) * 1e6), etype, code, value)


def syn(t: float) -> evdev.InputEvent:
    return event(t, e.EV_SYN, e.SYN_REPORT, 0)


class FakeInput:
    """What drivers.remote uses of `evdev.InputDevice`: its identity and capabilities, and
    `async_read` from a queue the test fills (one kernel read per item). Unplugging puts
    an ENODEV in the queue, as the kernel does to a reader of a vanished node."""

    def __init__(
        self, name: str, path: str, keys: Iterable[int], *, bustype: int = e.BUS_USB,
        absinfo: dict[int, evdev.AbsInfo] | None = None, msc: bool = True,
        props: Iterable[int] = (),
    ) -> None:
        self.name = name
        self.path = path
        self.info = evdev.DeviceInfo(bustype, 0x045E, 0x028E, 0x0110)
        self._caps: dict[int, list[int]] = {e.EV_SYN: [0], e.EV_KEY: sorted(set(keys))}
        self._absinfo = dict(absinfo or {})
        if self._absinfo:
            self._caps[e.EV_ABS] = sorted(self._absinfo)
        if msc:
            self._caps[e.EV_MSC] = [e.MSC_SCAN]
        self._props = list(props)
        self.queue: asyncio.Queue[list[evdev.InputEvent] | OSError] = asyncio.Queue()
        self.closed = False
        self.grabbed = False
        self.clock = Clock()

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict[int, Any]:
        caps: dict[int, Any] = {k: list(v) for k, v in self._caps.items()}
        if absinfo and e.EV_ABS in caps:
            caps[e.EV_ABS] = [(c, self._absinfo[c]) for c in caps[e.EV_ABS]]
        return caps

    def input_props(self, verbose: bool = False) -> list[int]:
        return list(self._props)

    def absinfo(self, code: int) -> evdev.AbsInfo:
        return self._absinfo[code]

    def grab(self) -> None:
        self.grabbed = True

    def close(self) -> None:
        self.closed = True

    async def async_read(self) -> list[evdev.InputEvent]:
        if self.closed:
            raise OSError(errno.EBADF, "read from a closed device")
        item = await self.queue.get()
        if isinstance(item, OSError):
            raise item
        return item

    def send(self, *frames: list[evdev.InputEvent]) -> None:
        for frame in frames:
            self.queue.put_nowait(frame)

    def unplug(self) -> None:
        self.queue.put_nowait(OSError(errno.ENODEV, "No such device"))

    # -- what a person does with it (the kernel's frames for each)

    def tap(self, name: str, repeats: int = 0) -> list[list[evdev.InputEvent]]:
        """Press and release the key `name` (a KEY_* or BTN_* name), with autorepeats."""
        code = getattr(e, name)
        scan = (CEC_SCANCODES if self.info.bustype == e.BUS_CEC else HID_USAGES).get(name)
        has_msc = e.EV_MSC in self._caps and scan is not None

        def frame(value: int, dt: float = 0.02) -> list[evdev.InputEvent]:
            t = self.clock.next(dt)
            head = ([event(t, e.EV_MSC, e.MSC_SCAN, scan)]
                    if scan is not None and has_msc and value != 2 else [])
            return [*head, event(t, e.EV_KEY, code, value), syn(t)]

        frames = [frame(1)]
        frames += [frame(2, 0.25 if i == 0 else 0.033) for i in range(repeats)]
        frames.append(frame(0, 0.09))
        return frames

    def hat(self, axis: str, value: int) -> list[list[evdev.InputEvent]]:
        """The d-pad pressed (ABS_HAT0X/Y to -1 or +1) and let go."""
        code = getattr(e, axis)
        t1, t2 = self.clock.next(), self.clock.next(0.1)
        return [[event(t1, e.EV_ABS, code, value), syn(t1)],
                [event(t2, e.EV_ABS, code, 0), syn(t2)]]

    def stick(self, axis: str, values: Iterable[int]) -> list[list[evdev.InputEvent]]:
        code = getattr(e, axis)
        frames = []
        for v in values:
            t = self.clock.next(0.008)
            frames.append([event(t, e.EV_ABS, code, v), syn(t)])
        return frames

    def press(self, name: str, repeats: int = 0) -> None:
        self.send(*self.tap(name, repeats))


def cec_remote(path: str = "/dev/input/event3") -> FakeInput:
    """The CEC adapter's remote-control input device (rc-core, bus CEC, rc-cec keymap)."""
    keys = [getattr(e, name) for name in CEC_SCANCODES] + [e.KEY_SELECT, e.KEY_MENU]
    return FakeInput("vc4-hdmi-0", path, keys, bustype=e.BUS_CEC)


def xbox_pad(path: str = "/dev/input/event5") -> FakeInput:
    keys = [e.BTN_SOUTH, e.BTN_EAST, e.BTN_NORTH, e.BTN_WEST, e.BTN_TL, e.BTN_TR,
            e.BTN_SELECT, e.BTN_START, e.BTN_MODE, e.BTN_THUMBL, e.BTN_THUMBR]
    axes = {e.ABS_X: XBOX_STICK, e.ABS_Y: XBOX_STICK, e.ABS_RX: XBOX_STICK,
            e.ABS_RY: XBOX_STICK, e.ABS_Z: XBOX_TRIGGER, e.ABS_RZ: XBOX_TRIGGER,
            e.ABS_HAT0X: XBOX_HAT, e.ABS_HAT0Y: XBOX_HAT}
    return FakeInput("Microsoft X-Box 360 pad", path, keys, absinfo=axes, msc=False)


def usb_keyboard(path: str = "/dev/input/event7") -> FakeInput:
    keys = [*range(e.KEY_ESC, e.KEY_KPDOT + 1), e.KEY_UP, e.KEY_DOWN, e.KEY_LEFT,
            e.KEY_RIGHT, e.KEY_KPENTER, e.KEY_PAUSE, e.KEY_COMPOSE]
    return FakeInput("Logitech USB Keyboard", path, keys)


def mouse(path: str = "/dev/input/event9") -> FakeInput:
    return FakeInput("USB Optical Mouse", path, [e.BTN_LEFT, e.BTN_RIGHT, e.BTN_MIDDLE],
                     msc=False)


def touchscreen(path: str = "/dev/input/event1") -> FakeInput:
    axis = evdev.AbsInfo(0, 0, 4095, 0, 0, 0)
    return FakeInput("FT5406 memory based driver", path, [e.BTN_TOUCH],
                     absinfo={e.ABS_MT_POSITION_X: axis, e.ABS_MT_POSITION_Y: axis,
                              e.ABS_X: axis, e.ABS_Y: axis},
                     props=[e.INPUT_PROP_DIRECT], msc=False)


class FakeInputDir:
    """A /dev/input whose devices the test plugs in and out."""

    def __init__(self, *devices: FakeInput) -> None:
        self.devices = {d.path: d for d in devices}
        self.opened: list[str] = []

    def lister(self) -> list[str]:
        return sorted(self.devices)

    def opener(self, path: str) -> FakeInput:
        self.opened.append(path)
        device = self.devices.get(path)
        if device is None:
            raise FileNotFoundError(errno.ENOENT, "No such file", path)
        device.closed = False
        return device


def decode(decoder: KeyDecoder, frames: Iterable[list[evdev.InputEvent]]) -> list[str]:
    return [p.key for frame in frames for ev in frame for p in decoder.feed(ev)]


# -- the decoder ----------------------------------------------------------------------------


def test_a_cec_remote_steers_chooses_and_presses_the_table_buttons() -> None:
    remote = cec_remote()
    decoder = KeyDecoder("remote")
    names = ["KEY_UP", "KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_OK", "KEY_EXIT", "KEY_RED",
             "KEY_GREEN", "KEY_YELLOW", "KEY_PLAYPAUSE", "KEY_PAUSE", "KEY_ROOT_MENU",
             "KEY_NUMERIC_7", "KEY_BLUE"]
    keys = decode(decoder, [f for name in names for f in remote.tap(name)])
    assert keys == ["up", "down", "left", "right", "ok", "back", "hourglass", "die", "reveal",
                    "pause", "pause", "menu", "7"]  # blue means nothing yet


def test_the_kernels_autorepeat_moves_nothing_and_other_keys_count_once() -> None:
    remote = cec_remote()
    decoder = KeyDecoder("remote")
    presses = [p for f in remote.tap("KEY_DOWN", repeats=3) + remote.tap("KEY_RED", repeats=3)
               for ev in f for p in decoder.feed(ev)]
    # A held arrow's repeats are ArrowRepeat's, one cadence for every device.
    assert [(p.key, p.repeat) for p in presses] == [("down", False), ("hourglass", False)]
    assert all(isinstance(p, RemotePress) and p.source == "remote" for p in presses)


def held_arrow(decoder: KeyDecoder, frames: list[list[evdev.InputEvent]], clock: FakeClock,
               up: int, repeat: ArrowRepeat) -> tuple[list[tuple[str, bool, float]], float]:
    """Feed `frames` (the last `up` of them let go), 10 ms of the box's clock apart, as
    drivers.remote.RemoteInputs does: a new hold starts `repeat`, its release ends it, and
    the repeats owed are taken every 10 ms. (key, repeat, time since the first frame) of
    each press, and when it was let go."""
    start = clock()
    out: list[tuple[str, bool, float]] = []
    hold = None
    released = 0.0
    for i, frame in enumerate(frames):
        if i == len(frames) - up:
            released = round(clock() + 0.6 - start, 2)
            for _ in range(60):  # hold on a while before letting go
                clock.advance(0.01)
                out += [(p.key, p.repeat, round(clock() - start, 2)) for p in repeat.due(clock())]
        out += [(p.key, p.repeat, round(clock() - start, 2))
                for ev in frame for p in decoder.feed(ev)]
        if decoder.held is not None and hold != (decoder.held, decoder.holds):
            hold = (decoder.held, decoder.holds)
            repeat.hold(decoder.held, decoder.source, clock())
        elif decoder.held is None:
            hold = None
            repeat.release()
        clock.advance(0.01)
        out += [(p.key, p.repeat, round(clock() - start, 2)) for p in repeat.due(clock())]
    for _ in range(50):  # let go: nothing more, however long we wait
        clock.advance(0.01)
        out += [(p.key, p.repeat, round(clock() - start, 2)) for p in repeat.due(clock())]
    return out, released


def test_a_held_arrow_repeats_at_one_cadence_on_every_device() -> None:
    """A key held (the kernel's autorepeat or not), the d-pad as a hat and the stick held
    past the dead zone: the ring moves at once, again after 0.4 s, then every 0.12 s."""
    remote, kb, pad = cec_remote(), usb_keyboard(), xbox_pad()
    sticks = {e.ABS_X: XBOX_STICK, e.ABS_Y: XBOX_STICK}
    hat_down = pad.hat("ABS_HAT0Y", 1)
    cases = [
        ("remote", KeyDecoder("remote"), remote.tap("KEY_DOWN", repeats=20), "down"),
        ("keyboard", KeyDecoder("keyboard"), kb.tap("KEY_LEFT", repeats=20), "left"),
        ("gamepad", KeyDecoder("gamepad", sticks),
         [hat_down[0]] + [[] for _ in range(60)] + [hat_down[1]], "down"),
        # The stick pushed right, wobbling inside the push, then back to the centre.
        ("gamepad", KeyDecoder("gamepad", sticks),
         pad.stick("ABS_X", [5000, 30000, 32767] + [25000, 31000] * 30 + [0]), "right"),
    ]
    for source, decoder, frames, key in cases:
        clock = FakeClock(100.0)
        got, released = held_arrow(decoder, frames, clock, 1, ArrowRepeat(0.4, 0.12))
        first = next(t for _, r, t in got if not r)
        times = [round(t - first, 2) for _, r, t in got if r]
        assert {k for k, _, _ in got} == {key} and [r for _, r, _ in got].count(False) == 1
        assert times[:4] == [0.4, 0.52, 0.64, 0.76], (source, times)
        assert all(0.11 <= b - a <= 0.13 for a, b in itertools.pairwise(times))
        assert decoder.held is None  # let go: nothing after the release
        assert len(times) >= 4 and times[-1] + first <= released < times[-1] + first + 0.13


def test_a_repeat_stops_on_a_lost_release_and_never_bursts() -> None:
    repeat = ArrowRepeat(0.4, 0.12, max_s=2.0)
    clock = FakeClock(0.0)
    repeat.hold("up", "remote", clock())
    clock.advance(1.0)  # the loop was busy: one repeat owed now, not five
    assert [p.key for p in repeat.due(clock())] == ["up"]
    assert repeat.due(clock()) == []
    clock.advance(0.13)
    assert len(repeat.due(clock())) == 1
    clock.advance(1.0)  # past max_s without a release (a flat battery): it stops
    assert repeat.due(clock()) == [] and repeat.next_at is None
    # SYN_DROPPED (releases lost in the kernel's buffer) lets go of a held arrow too.
    decoder = KeyDecoder("gamepad", {e.ABS_X: XBOX_STICK})
    decoder.feed(event(2.0, e.EV_ABS, e.ABS_X, 32000))
    assert decoder.held == "right"
    decoder.feed(event(2.1, e.EV_SYN, e.SYN_DROPPED, 0))
    assert decoder.held is None


def test_an_xbox_pad_steers_with_the_dpad_and_the_stick_once_per_push() -> None:
    pad = xbox_pad()
    decoder = KeyDecoder("gamepad", {e.ABS_X: XBOX_STICK, e.ABS_Y: XBOX_STICK})
    frames = (pad.hat("ABS_HAT0Y", 1) + pad.hat("ABS_HAT0X", -1) + pad.hat("ABS_HAT0Y", -1)
              # a shaky thumb: far right, back to the middle of the dead zone, right again
              + pad.stick("ABS_X", [2000, 9000, 20000, 31000, 32767, 14000, 12000, 30000, 0])
              + pad.stick("ABS_Y", [-32768, -100]))
    for name in ("BTN_SOUTH", "BTN_EAST", "BTN_TL", "BTN_TR", "BTN_NORTH", "BTN_WEST",
                 "BTN_START", "BTN_MODE", "BTN_THUMBL"):
        frames += pad.tap(name)
    assert decode(decoder, frames) == [
        "down", "left", "up", "right", "up", "ok", "back", "hourglass", "die", "reveal",
        "hourglass_long", "pause", "menu"]


def test_hourglass_held_is_the_long_press_and_a_short_one_counts_when_it_comes_up() -> None:
    remote = cec_remote()
    decoder = KeyDecoder("remote", hold_s=1.5)
    short = remote.tap("KEY_RED", repeats=3)  # released after ~0.4 s
    assert decode(decoder, short[:-1]) == []  # nothing while it is down
    assert decode(decoder, short[-1:]) == ["hourglass"]
    held = remote.tap("KEY_RED", repeats=45)  # ~1.7 s of autorepeat
    assert decode(decoder, held) == ["hourglass_long"]  # once, and no short one on release
    kb = usb_keyboard()
    keys = KeyDecoder("keyboard", hold_s=1.5)
    assert decode(keys, kb.tap("KEY_H", repeats=45) + kb.tap("KEY_H")) == [
        "hourglass_long", "hourglass"]


def test_a_keyboard_types_arrows_enter_escape_and_shift_h() -> None:
    kb = usb_keyboard()
    decoder = KeyDecoder("keyboard")
    frames = kb.tap("KEY_RIGHT") + kb.tap("KEY_ENTER") + kb.tap("KEY_ESC") + kb.tap("KEY_H")
    t = kb.clock.next()
    frames.append([event(t, e.EV_MSC, e.MSC_SCAN, 0x700E1), event(t, e.EV_KEY, e.KEY_LEFTSHIFT, 1),
                   syn(t)])
    frames += kb.tap("KEY_H")
    frames.append([event(t + 1, e.EV_KEY, e.KEY_LEFTSHIFT, 0), syn(t + 1)])
    frames += kb.tap("KEY_D") + kb.tap("KEY_R") + kb.tap("KEY_BACKSPACE") + kb.tap("KEY_4")
    assert decode(decoder, frames) == ["right", "ok", "back", "hourglass", "hourglass_long",
                                       "die", "reveal", "back", "4"]


def test_syn_dropped_forgets_a_held_shift_and_a_pushed_stick() -> None:
    decoder = KeyDecoder("keyboard")
    decoder.feed(event(1.0, e.EV_KEY, e.KEY_RIGHTSHIFT, 1))
    decoder.feed(event(1.1, e.EV_SYN, e.SYN_DROPPED, 0))  # the release was lost
    assert decoder.feed(event(1.2, e.EV_KEY, e.KEY_H, 1)) == []
    assert [p.key for p in decoder.feed(event(1.3, e.EV_KEY, e.KEY_H, 0))] == ["hourglass"]
    pad = KeyDecoder("gamepad", {e.ABS_X: XBOX_STICK})
    assert [p.key for p in pad.feed(event(2.0, e.EV_ABS, e.ABS_X, 32000))] == ["right"]
    pad.feed(event(2.1, e.EV_SYN, e.SYN_DROPPED, 0))
    assert [p.key for p in pad.feed(event(2.2, e.EV_ABS, e.ABS_X, 32000))] == ["right"]


def test_what_each_device_is() -> None:
    assert kind_of(cec_remote()) == "remote"
    assert kind_of(xbox_pad()) == "gamepad"
    assert kind_of(usb_keyboard()) == "keyboard"
    assert kind_of(mouse()) is None
    assert kind_of(touchscreen()) is None
    ir = FakeInput("gpio_ir_recv", "/dev/input/event2",
                   [e.KEY_UP, e.KEY_DOWN, e.KEY_LEFT, e.KEY_RIGHT, e.KEY_OK, e.KEY_POWER],
                   bustype=e.BUS_HOST)
    assert kind_of(ir) == "remote"


# -- the one table, and its docs --------------------------------------------------------------


def test_the_table_maps_each_code_once_and_its_sdl_names_are_pygames() -> None:
    codes = [b.code for b in BINDINGS]
    assert len(codes) == len(set(codes)), "a key bound twice"
    assert key_for_sdl("Escape") == "back" and key_for_sdl("return") == "ok"
    assert key_for_sdl("h", shift=True) == "hourglass_long" and key_for_sdl("h") == "hourglass"
    assert key_for_sdl("q") is None
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.display.init()
    try:
        for b in BINDINGS:
            if b.sdl is not None:
                assert pygame.key.key_code(b.sdl) != pygame.K_UNKNOWN, b
                assert key_for_sdl(pygame.key.name(pygame.key.key_code(b.sdl))) == b.key, b
    finally:
        pygame.display.quit()


def test_docs_print_the_table() -> None:
    text = (REPO / "docs" / "remote.md").read_text()
    rows = set(re.findall(r"^\| `([A-Z0-9_]+)` \| ([^|]+?) \| `([a-z0-9_]+)` \|$", text, re.M))
    assert rows == set(describe()), set(describe()) ^ rows
    for key in set(BY_CODE.values()):
        assert f"`{key}`" in text


# -- hot-plug -------------------------------------------------------------------------------


async def until(predicate: Any, timeout: float = 3.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("timed out")
        await asyncio.sleep(0.002)


async def test_remotes_pads_and_keyboards_are_found_read_unplugged_and_found_again(caplog):
    caplog.set_level(logging.INFO, "drivers.remote")
    remote, pad, kb = cec_remote(), xbox_pad(), usb_keyboard()
    devices = FakeInputDir(remote, mouse(), touchscreen())
    presses: list[RemotePress] = []
    inputs = RemoteInputs(presses.append, rescan_s=0.01, opener=devices.opener,
                          lister=devices.lister)
    stop = asyncio.Event()
    task = asyncio.create_task(inputs.run(stop))
    await until(lambda: inputs.connected == [("remote", "vc4-hdmi-0")])
    remote.press("KEY_DOWN")
    await until(lambda: len(presses) == 1)
    devices.devices[pad.path] = pad
    devices.devices[kb.path] = kb
    await until(lambda: len(inputs.connected) == 3)
    pad.press("BTN_SOUTH")
    kb.press("KEY_ESC")
    await until(lambda: len(presses) == 3)
    # The mouse and the touch screen were opened once, not at every rescan.
    assert devices.opened.count("/dev/input/event9") == 1
    assert devices.opened.count("/dev/input/event1") == 1
    remote.unplug()
    del devices.devices[remote.path]
    await until(lambda: len(inputs.connected) == 2)
    assert remote.closed
    replugged = cec_remote("/dev/input/event4")  # a new node, as after a reload
    devices.devices[replugged.path] = replugged
    await until(lambda: len(inputs.connected) == 3)
    replugged.press("KEY_RED")
    await until(lambda: len(presses) == 4)
    stop.set()
    await asyncio.wait_for(task, 2)
    assert [(p.key, p.source) for p in presses] == [
        ("down", "remote"), ("ok", "gamepad"), ("back", "keyboard"), ("hourglass", "remote")]
    gone = [r.getMessage() for r in caplog.records if "gone" in r.getMessage()]
    assert len(gone) == 1 and "vc4-hdmi-0" in gone[0]
    assert pad.closed and kb.closed


async def test_an_arrow_held_on_a_device_repeats_on_a_timer_only_while_it_is_held():
    remote, pad = cec_remote(), xbox_pad()
    devices = FakeInputDir(remote, pad)
    presses: list[RemotePress] = []
    inputs = RemoteInputs(presses.append, rescan_s=0.01, opener=devices.opener,
                          lister=devices.lister, repeat=ArrowRepeat(0.05, 0.02))
    stop = asyncio.Event()
    task = asyncio.create_task(inputs.run(stop))
    await until(lambda: len(inputs.connected) == 2)
    down, up = remote.tap("KEY_UP")[0], remote.tap("KEY_UP")[-1]
    remote.send(down)
    await until(lambda: len(presses) >= 4)  # the press, then repeats on the box's timer
    remote.send(up)
    await until(lambda: inputs._repeat_timer is None)
    count = len(presses)
    await asyncio.sleep(0.1)
    assert len(presses) == count  # let go: no timer, nothing more
    assert presses[0].repeat is False and all(p.repeat for p in presses[1:])
    assert {p.key for p in presses} == {"up"}
    # The pad's stick held past the dead zone repeats too; unplugged mid-hold, it stops.
    presses.clear()
    pad.send(*pad.stick("ABS_Y", [32767]))
    await until(lambda: len(presses) >= 3)
    pad.unplug()
    del devices.devices[pad.path]
    await until(lambda: inputs._repeat_timer is None and len(inputs.connected) == 1)
    count = len(presses)
    await asyncio.sleep(0.1)
    assert len(presses) == count and {p.key for p in presses} == {"down"}
    stop.set()
    await asyncio.wait_for(task, 2)


async def test_keyboards_can_be_left_to_sdl_and_nothing_found_is_said_once(caplog):
    caplog.set_level(logging.INFO, "drivers.remote")
    kb = usb_keyboard()
    devices = FakeInputDir(kb)
    inputs = RemoteInputs(lambda p: None, keyboards=False, rescan_s=0.01,
                          opener=devices.opener, lister=devices.lister)
    stop = asyncio.Event()
    task = asyncio.create_task(inputs.run(stop))
    await asyncio.sleep(0.1)
    stop.set()
    await task
    assert inputs.connected == []
    said = [r.getMessage() for r in caplog.records]
    assert said == ["remote keys: no remote or gamepad found yet; looking every 0.01 s"]


async def test_a_device_we_may_not_read_is_named_once(caplog):
    caplog.set_level(logging.INFO, "drivers.remote")

    def denied(path: str) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    inputs = RemoteInputs(lambda p: None, rescan_s=0.01, opener=denied,
                          lister=lambda: ["/dev/input/event0"])
    stop = asyncio.Event()
    task = asyncio.create_task(inputs.run(stop))
    await asyncio.sleep(0.08)
    stop.set()
    await task
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["remote keys: not allowed to read /dev/input/event0: add the user to "
                        "the 'input' group"]


async def test_a_device_not_yet_readable_is_read_once_it_is(caplog):
    """A node just plugged in is root's for a moment, until udev gives it to the input
    group: refused once, it is tried again at the next look, not ignored for good."""
    caplog.set_level(logging.INFO, "drivers.remote")
    remote = cec_remote()
    devices = FakeInputDir(remote)
    refusals = [remote.path]

    def opener(path: str) -> Any:
        if path in refusals:
            refusals.remove(path)
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return devices.opener(path)

    presses: list[RemotePress] = []
    inputs = RemoteInputs(presses.append, rescan_s=0.01, opener=opener,
                          lister=devices.lister)
    stop = asyncio.Event()
    task = asyncio.create_task(inputs.run(stop))
    await until(lambda: inputs.connected == [("remote", "vc4-hdmi-0")])
    remote.press("KEY_DOWN")
    await until(lambda: len(presses) == 1)
    stop.set()
    await asyncio.wait_for(task, 2)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert said == [f"remote keys: not allowed to read {remote.path}: add the user to the "
                    "'input' group"]


async def test_a_bug_in_the_receiver_is_raised_not_swallowed():
    remote = cec_remote()
    devices = FakeInputDir(remote)

    def broken(press: RemotePress) -> None:
        raise RuntimeError("kiosk bug")

    inputs = RemoteInputs(broken, rescan_s=0.01, opener=devices.opener, lister=devices.lister)
    task = asyncio.create_task(inputs.run(asyncio.Event()))
    await until(lambda: inputs.connected != [])
    remote.press("KEY_OK")
    with pytest.raises(RuntimeError, match="kiosk bug"):
        await asyncio.wait_for(task, 2)


# -- HDMI-CEC with a fake cec-ctl ---------------------------------------------------------------

FAKE_CEC_CTL = """#!/bin/sh
# A stand-in for v4l-utils' cec-ctl: records its arguments, answers like the real one.
printf '%s\\n' "$*" >> "{log}"
case "$*" in
  *--playback*)
    {register}
    ;;
  *--image-view-on*|*--active-source*)
    echo "Transmit from Playback Device 1 to TV (4 to 0):"
    ;;
  *)
    echo "Driver Info:"
    echo "	Physical Address           : 2.0.0.0"
    ;;
esac
"""
REGISTERED = """echo "Driver Info:"
    echo "	Driver                     : vc4_hdmi"
    echo "	Physical Address           : {address}"
    echo "	Logical Address Mask       : 0x0010"
    echo "	OSD Name                   : 'Easel'"
"""
NO_ADAPTER = """echo "Failed to open /dev/cec0: No such file or directory" >&2
    exit 1"""


def fake_cec_ctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, register: str) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "cec-ctl.log"
    script = bin_dir / "cec-ctl"
    script.write_text(FAKE_CEC_CTL.format(log=log, register=register))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


async def test_the_box_registers_as_a_playback_device_and_wakes_the_tv(tmp_path, monkeypatch):
    log = fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="1.0.0.0"))
    now = [100.0]
    cec = Cec("/dev/cec1", "Easel", clock=lambda: now[0])
    assert await cec.register()
    assert cec.available and cec.physical_address == "1.0.0.0"
    assert await cec.wake()
    assert not await cec.wake()  # again at once: not every new player wakes the TV
    now[0] += 11
    assert await cec.wake()
    assert log.read_text().splitlines() == [
        "--device /dev/cec1 --playback --osd-name Easel",
        "--device /dev/cec1 --to 0 --image-view-on",
        "--device /dev/cec1 --to 0 --active-source phys-addr=1.0.0.0",
        "--device /dev/cec1 --to 0 --image-view-on",
        "--device /dev/cec1 --to 0 --active-source phys-addr=1.0.0.0",
    ]


async def test_a_tv_switched_off_at_start_is_asked_for_its_address_at_wake(tmp_path, monkeypatch):
    log = fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="f.f.f.f"))
    cec = Cec()
    assert await cec.register()
    assert await cec.wake()
    assert log.read_text().splitlines()[1:] == [
        "--device /dev/cec0",
        "--device /dev/cec0 --to 0 --image-view-on",
        "--device /dev/cec0 --to 0 --active-source phys-addr=2.0.0.0",
    ]


async def test_no_adapter_no_cec_ctl_or_a_hung_one_is_said_once(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO, "drivers.remote")
    fake_cec_ctl(tmp_path, monkeypatch, NO_ADAPTER)
    cec = Cec()
    assert not await cec.register()
    assert not await cec.register()
    assert not await cec.wake()
    said = [r.getMessage() for r in caplog.records]
    assert said == ["tv: no HDMI-CEC (/dev/cec0: Failed to open /dev/cec0: No such file or "
                    "directory); the TV's remote and wake-up are off"]

    caplog.clear()
    missing = Cec(command="cec-ctl-not-installed")
    assert not await missing.register()
    assert "cec-ctl-not-installed not found (Debian package v4l-utils)" in caplog.text

    caplog.clear()
    fake_cec_ctl(tmp_path, monkeypatch, "sleep 30")
    hung = Cec(timeout_s=0.2)
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert not await hung.register()
    assert loop.time() - began < 2
    assert "did not answer within 0.2 s" in caplog.text


# -- which adapter is the TV's, and the announce at boot ----------------------------------------

# cec-ctl's status of a Pi 4's two vc4 adapters (kernel 6.x: with their connector info).
TWO_PORTS_CEC_CTL = """#!/bin/sh
printf '%s\\n' "$*" >> "{log}"
case "$*" in
  *--playback*)
    echo "Driver Info:"
    echo "	Physical Address           : 3.0.0.0"
    ;;
  *--active-source*)
    echo "Transmit from Playback Device 1 to TV (4 to 0):"
    ;;
  *cec0)
    echo "Driver Info:"
    echo "	Adapter Name               : vc4-hdmi-0"
    {info0}
    ;;
  *cec1)
    echo "Driver Info:"
    echo "	Adapter Name               : vc4-hdmi-1"
    {info1}
    ;;
esac
"""
CONNECTOR_INFO = """echo "	DRM Card Number            : 1"
    echo "	DRM Connector ID           : {id}" """


def two_port_cec_ctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, info: bool) -> Path:
    log = fake_cec_ctl(tmp_path, monkeypatch, "")
    script = tmp_path / "bin" / "cec-ctl"
    script.write_text(TWO_PORTS_CEC_CTL.format(
        log=log, info0=CONNECTOR_INFO.format(id=32) if info else "",
        info1=CONNECTOR_INFO.format(id=33) if info else ""))
    return log


@pytest.mark.parametrize("info", [True, False], ids=["connector-info", "vc4-names"])
async def test_the_tv_device_follows_the_kiosks_hdmi_port(tmp_path, monkeypatch, info):
    two_port_cec_ctl(tmp_path, monkeypatch, info=info)
    devices = ["/dev/cec0", "/dev/cec1"]
    second = ScreenOutput(1, 33 if info else 0, "HDMI-A-2")
    device, why = await cec_device_for(second, devices)
    assert device == "/dev/cec1"
    assert why.startswith("the adapter of HDMI-A-2 (by ")
    assert ("connector info" in why) == info
    first = ScreenOutput(1, 32 if info else 0, "HDMI-A-1")
    assert (await cec_device_for(first, devices))[0] == "/dev/cec0"
    # A connector no adapter claims, no HDMI screen, no adapter at all: the first one.
    other = ScreenOutput(2, 99 if info else 0, "HDMI-A-3")
    assert await cec_device_for(other, devices) == (
        "/dev/cec0", "no adapter says it is HDMI-A-3's: the first one")
    assert (await cec_device_for(None, devices))[0] == "/dev/cec0"
    assert await cec_device_for(second, []) == ("/dev/cec0", "no CEC adapter (/dev/cec*) here")


async def test_announce_is_active_source_only_and_needs_an_address(tmp_path, monkeypatch):
    log = fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="1.0.0.0"))
    cec = Cec("/dev/cec1")
    assert not await cec.announce(), "not registered: nothing is sent"
    assert await cec.register()
    assert await cec.announce()
    assert log.read_text().splitlines() == [
        "--device /dev/cec1 --playback --osd-name Easel",
        "--device /dev/cec1 --to 0 --active-source phys-addr=1.0.0.0",
    ]  # no Image View On: a TV that is off stays off
    (tmp_path / "dark").mkdir()
    dark = fake_cec_ctl(tmp_path / "dark", monkeypatch, REGISTERED.format(address="f.f.f.f"))
    off = Cec()
    assert await off.register() and not await off.announce()
    assert "--active-source" not in dark.read_text()
