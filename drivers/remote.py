"""Remote keys: a TV remote (HDMI-CEC), gamepads and keyboards through python-evdev, and
the CEC registration and wake-up of the TV through `cec-ctl`.

Everything the box can be driven with that is not a finger ends up as a few abstract
*remote keys* (`RemoteKey`: arrows, ok, back, the table's three buttons, pause, the host
menu, digits). `BINDINGS` is the one table that says which key of which device means
what; docs/remote.md prints it (a test keeps the two equal). `KeyDecoder` is a pure state
machine from `evdev.InputEvent`s to `RemotePress` values; `ArrowRepeat` is the one
auto-repeat of a held arrow, whatever holds it (a key, a d-pad, a stick); `RemoteInputs`
finds every remote, gamepad and keyboard, reads each with the asyncio read loop (no
threads, no polling: the loop waits on the devices' descriptors, and a timer runs only
while an arrow is held) and survives them coming and going, as
`drivers.touch.TouchPanel` does for the touch panel.
`Cec` registers the box on the HDMI-CEC bus as a playback device, announces it as the
active source (the TV sends its remote's keys to the active source only) and asks the TV
to wake and show the box's input (One Touch Play), with `cec-ctl` (Debian's v4l-utils)
run as a subprocess with a timeout, never blocking the loop. `cec_device_for` finds the
CEC adapter of the HDMI output the kiosk is on (a Pi 4 or 5 has one per port).

Hardware only: standard library and evdev, no game, no pygame, nothing from appliance/.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import logging
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

import evdev
from evdev import ecodes

from drivers.inputs import event_devices

log = logging.getLogger(__name__)

RemoteKey = Literal[
    "up", "down", "left", "right", "ok", "back",
    "hourglass", "hourglass_long", "die", "reveal", "pause", "menu",
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "text",  # a keyboard's key that only types (a letter with no meaning of its own)
]
DeviceKind = Literal["remote", "gamepad", "keyboard"]
ARROWS: Final = frozenset({"up", "down", "left", "right"})


@dataclass(frozen=True, slots=True)
class Binding:
    """One key of one kind of device: its evdev code, the name SDL gives the same key in a
    desktop window (pygame.key.name; None: not read through SDL), and what it means."""

    name: str  # evdev's name of the code, e.g. "KEY_RED"
    key: RemoteKey
    sdl: str | None = None
    where: str = "keyboard"  # the device it is found on, for docs/remote.md

    @property
    def code(self) -> int:
        return int(getattr(ecodes, self.name))


_E = ecodes
_b = Binding
_digits: list[Binding] = []
for _n in range(10):
    _d: Any = str(_n)  # "0".."9": a RemoteKey
    _digits += [_b(f"KEY_{_n}", _d, _d, "keyboard"), _b(f"KEY_KP{_n}", _d, f"[{_n}]", "keyboard"),
                _b(f"KEY_NUMERIC_{_n}", _d, None, "TV remote")]

BINDINGS: Final[tuple[Binding, ...]] = (
    # The TV's remote through HDMI-CEC: the kernel's rc-cec keymap (User Control Codes).
    _b("KEY_UP", "up", "up", "TV remote, keyboard"),
    _b("KEY_DOWN", "down", "down", "TV remote, keyboard"),
    _b("KEY_LEFT", "left", "left", "TV remote, keyboard"),
    _b("KEY_RIGHT", "right", "right", "TV remote, keyboard"),
    _b("KEY_OK", "ok", None, "TV remote"),
    _b("KEY_SELECT", "ok", None, "TV remote"),
    _b("KEY_ENTER", "ok", "return", "TV remote, keyboard"),
    _b("KEY_KPENTER", "ok", "enter", "keyboard"),
    _b("KEY_SPACE", "ok", "space", "keyboard"),
    _b("KEY_EXIT", "back", None, "TV remote"),
    _b("KEY_BACK", "back", "ac back", "TV remote"),
    _b("KEY_ESC", "back", "escape", "keyboard"),
    _b("KEY_BACKSPACE", "back", "backspace", "keyboard"),
    _b("KEY_RED", "hourglass", None, "TV remote"),
    _b("KEY_GREEN", "die", None, "TV remote"),
    _b("KEY_YELLOW", "reveal", None, "TV remote"),
    _b("KEY_H", "hourglass", "h", "keyboard"),  # Shift+H: hourglass_long
    _b("KEY_D", "die", "d", "keyboard"),
    _b("KEY_R", "reveal", "r", "keyboard"),
    _b("KEY_PLAYPAUSE", "pause", None, "TV remote, keyboard"),
    _b("KEY_PLAY", "pause", None, "TV remote"),
    _b("KEY_PAUSE", "pause", "break", "TV remote, keyboard"),
    _b("KEY_PLAYCD", "pause", None, "TV remote"),
    _b("KEY_PAUSECD", "pause", None, "TV remote"),
    _b("KEY_P", "pause", "p", "keyboard"),
    _b("KEY_ROOT_MENU", "menu", None, "TV remote"),
    _b("KEY_MENU", "menu", "menu", "TV remote, keyboard"),
    _b("KEY_CONTEXT_MENU", "menu", None, "TV remote"),
    _b("KEY_SETUP", "menu", None, "TV remote"),
    _b("KEY_COMPOSE", "menu", None, "keyboard"),
    _b("KEY_M", "menu", "m", "keyboard"),
    *_digits,
    # Gamepads (the kernel's names; Xbox-style layout: A south, B east, X west, Y north).
    _b("BTN_SOUTH", "ok", None, "gamepad (A)"),
    _b("BTN_EAST", "back", None, "gamepad (B)"),
    _b("BTN_TL", "hourglass", None, "gamepad (left shoulder)"),
    _b("BTN_TR", "die", None, "gamepad (right shoulder)"),
    _b("BTN_NORTH", "reveal", None, "gamepad (Y)"),
    _b("BTN_WEST", "hourglass_long", None, "gamepad (X)"),
    _b("BTN_START", "pause", None, "gamepad (Start / Menu)"),
    _b("BTN_SELECT", "menu", None, "gamepad (Select / View)"),
    _b("BTN_MODE", "menu", None, "gamepad (Home / Guide)"),
    _b("BTN_DPAD_UP", "up", None, "gamepad (d-pad as buttons)"),
    _b("BTN_DPAD_DOWN", "down", None, "gamepad (d-pad as buttons)"),
    _b("BTN_DPAD_LEFT", "left", None, "gamepad (d-pad as buttons)"),
    _b("BTN_DPAD_RIGHT", "right", None, "gamepad (d-pad as buttons)"),
)
"""The one mapping table: every device key the box answers to. Gamepads also steer with
the d-pad as a hat (ABS_HAT0X/Y) and the left stick (ABS_X/Y), see `KeyDecoder`."""

BY_CODE: Final[dict[int, RemoteKey]] = {b.code: b.key for b in BINDINGS}
TYPED: Final[dict[int, str]] = {
    **{int(getattr(ecodes, f"KEY_{c.upper()}")): c for c in "abcdefghijklmnopqrstuvwxyz"},
    int(ecodes.KEY_SPACE): " ", int(ecodes.KEY_BACKSPACE): "\b",
}
"""What a keyboard's key types, besides what it means (the kiosk's seat pad takes it as a
letter of a name: there H is an H, not the hourglass)."""
BY_SDL_NAME: Final[dict[str, RemoteKey]] = {b.sdl: b.key for b in BINDINGS if b.sdl}

_SHIFTS: Final = frozenset({_E.KEY_LEFTSHIFT, _E.KEY_RIGHTSHIFT})
_STICK_ON: Final = 0.5  # of the half range from the centre: a push
_STICK_OFF: Final = 0.3  # back under this: released (hysteresis, so a shaky thumb is one push)

REPEAT_DELAY_S: Final = 0.4
"""A held arrow moves the ring again after this long..."""
REPEAT_INTERVAL_S: Final = 0.12
"""...then once every this long, while it is held (any device: one cadence)."""
REPEAT_MAX_S: Final = 30.0
"""No arrow is held this long: its release was lost (a remote's flat battery), stop."""


def key_for_sdl(name: str, shift: bool = False) -> RemoteKey | None:
    """The remote key of a key pressed in the kiosk's window (pygame.key.name(key))."""
    key = BY_SDL_NAME.get(name.lower())
    if key == "hourglass" and shift:
        return "hourglass_long"
    return key


@dataclass(frozen=True, slots=True)
class RemotePress:
    """One press of a remote key (an arrow held down repeats: `repeat`)."""

    key: RemoteKey
    source: DeviceKind
    t: float  # the kernel's timestamp of the event (a repeat: the box's clock)
    repeat: bool = False
    text: str = ""  # what a keyboard's key types: "a".."z", " ", "\b" (the kiosk's seat pad)

    def __repr__(self) -> str:
        tail = " repeat" if self.repeat else ""
        return f"RemotePress({self.key} from {self.source}, t {self.t:.6f}{tail})"


class KeyDecoder:
    """Pure: one device's events in, `RemotePress` values out, at once (a key does not wait
    for its SYN_REPORT). Every key counts once per press, and a hat or stick once per push
    away from the centre; the kernel's autorepeat (value 2) moves nothing. `held` is the
    arrow held down now (a key, the d-pad, the stick), and `holds` counts the holds, for
    `ArrowRepeat`, the one cadence of repeats for every device.

    HOURGLASS behaves as the panel's button: held for `hold_s` (the kernel's autorepeat
    says it is still down) it is `hourglass_long`, else `hourglass` when it comes up, so
    one push is never both. Shift+H on a keyboard is the long press at once.
    """

    def __init__(
        self, source: DeviceKind, absinfo: dict[int, Any] | None = None, hold_s: float = 1.5
    ) -> None:
        self.source = source
        self.hold_s = hold_s
        self._held: dict[int, tuple[float, bool]] = {}  # hourglass key -> (down at, long sent)
        self._shift = 0
        self._axes: dict[int, tuple[float, float]] = {}  # code -> (centre, half range)
        for code, info in (absinfo or {}).items():
            half = (info.max - info.min) / 2
            if half > 0:
                self._axes[code] = (info.min + half, half)
        self._pushed: dict[int, int] = {}  # axis -> -1, 0, +1
        self.held: RemoteKey | None = None  # the arrow held down now
        self.holds = 0  # arrows held so far: a new hold of the same arrow is another
        self._held_by: int | None = None  # the key or axis code holding it

    def _hold(self, code: int, key: RemoteKey) -> None:
        self.held, self._held_by = key, code
        self.holds += 1

    def _let_go(self, code: int) -> None:
        if self._held_by == code:
            self.held = self._held_by = None

    def feed(self, event: evdev.InputEvent) -> list[RemotePress]:
        etype = event.type
        if etype == _E.EV_KEY:
            code, value = event.code, event.value
            if code in _SHIFTS:
                self._shift += 1 if value == 1 else -1 if value == 0 else 0
                self._shift = max(0, self._shift)
                return []
            key = BY_CODE.get(code)
            text = TYPED.get(code, "") if self.source == "keyboard" else ""
            if key is None and text:
                key = "text"
            if key is None:
                return []
            if key == "hourglass":  # H types when it comes up, as it presses the hourglass
                return self._hourglass(code, value, event.timestamp(), text)
            if text and value == 1:  # typed (the kiosk decides: a name's letter, or the key)
                return [RemotePress(key, self.source, event.timestamp(), text=text)]
            if key in ARROWS:
                if value == 0:
                    self._let_go(code)
                elif value == 1:
                    self._hold(code, key)
            if value != 1:
                return []  # up, or the kernel's autorepeat: ArrowRepeat has the cadence
            return [RemotePress(key, self.source, event.timestamp())]
        if etype == _E.EV_ABS and self.source == "gamepad":
            return self._axis(event)
        if etype == _E.EV_SYN and event.code == _E.SYN_DROPPED:
            # Releases may be lost: forget held modifiers, keys and pushed sticks.
            self._shift = 0
            self._held.clear()
            self._pushed.clear()
            self.held = self._held_by = None
        return []

    def _hourglass(self, code: int, value: int, t: float, text: str = "") -> list[RemotePress]:
        if value == 1:
            if self._shift and self.source == "keyboard":
                self._held[code] = (t, True)
                return [RemotePress("hourglass_long", self.source, t, text=text)]
            self._held[code] = (t, False)
            return []
        down_at, long_sent = self._held.get(code, (t, value == 2))
        if value == 2:
            if not long_sent and t - down_at >= self.hold_s:
                self._held[code] = (down_at, True)
                return [RemotePress("hourglass_long", self.source, t)]
            return []
        self._held.pop(code, None)
        return [] if long_sent else [RemotePress("hourglass", self.source, t, text=text)]

    def _axis(self, event: evdev.InputEvent) -> list[RemotePress]:
        code = event.code
        if code in (_E.ABS_HAT0X, _E.ABS_HAT0Y):
            direction = (event.value > 0) - (event.value < 0)
        elif code in (_E.ABS_X, _E.ABS_Y) and code in self._axes:
            centre, half = self._axes[code]
            x = (event.value - centre) / half
            before = self._pushed.get(code, 0)
            if abs(x) >= _STICK_ON:
                direction = 1 if x > 0 else -1
            elif abs(x) <= _STICK_OFF:
                direction = 0
            else:
                direction = before
        else:
            return []
        before = self._pushed.get(code, 0)
        self._pushed[code] = direction
        if direction == before:
            return []
        self._let_go(code)
        if direction == 0:
            return []
        horizontal = code in (_E.ABS_HAT0X, _E.ABS_X)
        key: RemoteKey = (
            ("right" if direction > 0 else "left") if horizontal
            else ("down" if direction > 0 else "up")
        )
        self._hold(code, key)
        return [RemotePress(key, self.source, event.timestamp())]


class ArrowRepeat:
    """Pure: the auto-repeat of a held arrow, the same for every device. `hold` when an
    arrow goes down (its first press has been sent), `release` when it comes up; `due(now)`
    gives the repeats owed by `now` (`delay_s` after the hold, then every `interval_s`),
    and `next_at` when the next is owed. A loop that fell behind gets one repeat, not a
    burst; an arrow held `max_s` has lost its release and stops. Times are the caller's
    clock (the box's monotonic clock, or a test's fake one)."""

    def __init__(self, delay_s: float = REPEAT_DELAY_S, interval_s: float = REPEAT_INTERVAL_S,
                 max_s: float = REPEAT_MAX_S) -> None:
        self.delay_s, self.interval_s, self.max_s = delay_s, interval_s, max_s
        self._key: RemoteKey | None = None
        self._source: DeviceKind = "remote"
        self._since = 0.0
        self._next = 0.0

    @property
    def key(self) -> RemoteKey | None:
        return self._key

    @property
    def next_at(self) -> float | None:
        return None if self._key is None else self._next

    def hold(self, key: RemoteKey, source: DeviceKind, now: float) -> None:
        self._key, self._source = key, source
        self._since, self._next = now, now + self.delay_s

    def release(self) -> None:
        self._key = None

    def due(self, now: float) -> list[RemotePress]:
        key = self._key
        if key is None or now < self._next:
            return []
        if now - self._since >= self.max_s:
            self._key = None
            return []
        self._next = max(self._next + self.interval_s, now + self.interval_s / 2)
        return [RemotePress(key, self._source, now, True)]


def kind_of(device: Any) -> DeviceKind | None:
    """What a device is to the box: a TV remote (the CEC adapter, or any IR/Bluetooth
    remote with arrows and OK), a gamepad, a keyboard, or nothing (touch screens, mice)."""
    caps = device.capabilities(absinfo=False)
    keys = set(caps.get(_E.EV_KEY, ()))
    axes = set(caps.get(_E.EV_ABS, ()))
    if _E.ABS_MT_POSITION_X in axes or _E.INPUT_PROP_DIRECT in device.input_props():
        return None  # a touch screen: drivers/touch.py reads it
    if _E.BTN_SOUTH in keys or _E.BTN_GAMEPAD in keys:
        return "gamepad"
    info = getattr(device, "info", None)
    if info is not None and getattr(info, "bustype", None) == _E.BUS_CEC:
        return "remote"
    letters = {_E.KEY_A, _E.KEY_Z, _E.KEY_ENTER, _E.KEY_SPACE}
    if letters <= keys:
        return "keyboard"
    steering = {_E.KEY_UP, _E.KEY_DOWN, _E.KEY_LEFT, _E.KEY_RIGHT}
    if steering <= keys and keys & {_E.KEY_OK, _E.KEY_SELECT, _E.KEY_ENTER}:
        return "remote"
    return None


class _Denied:
    """`RemoteInputs._open`'s answer for a device this process may not read."""


_DENIED: Final = _Denied()


class RemoteInputs:
    """Every remote, gamepad and keyboard at once: looks for new devices every `rescan_s`
    seconds, reads each with the asyncio read loop, calls `on_press(RemotePress)`.

    A device that goes away (an OSError such as ENODEV on read) is closed and said once;
    it is found again when it comes back. `keyboards=False` leaves keyboards to SDL (a
    desktop window gets them itself; reading them twice would press every key twice).
    An arrow held on any of them repeats through one `ArrowRepeat` (the last one pressed
    wins), on a loop timer that exists only while it is held.
    Never raises out of run() for device trouble; an exception from on_press propagates.
    """

    def __init__(
        self,
        on_press: Callable[[RemotePress], None],
        *,
        keyboards: bool = True,
        grab: bool = False,
        rescan_s: float = 3.0,
        hold_s: float = 1.5,
        opener: Callable[[str], Any] = evdev.InputDevice,
        lister: Callable[[], list[str]] = event_devices,
        repeat: ArrowRepeat | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._on_press = on_press
        self._repeat = repeat or ArrowRepeat()
        self._clock = clock
        self._repeating: tuple[KeyDecoder, int] | None = None  # whose hold repeats
        self._repeat_timer: asyncio.TimerHandle | None = None
        self._hold_s = hold_s
        self._keyboards = keyboards
        self._grab = grab
        self._rescan_s = rescan_s
        self._opener = opener
        self._lister = lister
        self._readers: dict[str, asyncio.Task[None]] = {}
        self._devices: dict[str, tuple[DeviceKind, str]] = {}
        self._ignored: set[str] = set()  # not ours (a mouse, the touch panel): not reopened
        self._denied_logged: set[str] = set()
        self._none_logged = False
        self._failure: BaseException | None = None

    @property
    def connected(self) -> list[tuple[DeviceKind, str]]:
        """(kind, name) of every device read now."""
        return list(self._devices.values())

    async def run(self, stop: asyncio.Event) -> None:
        try:
            while not stop.is_set():
                self.rescan()
                if self._failure is not None:
                    raise self._failure
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), self._rescan_s)
                if self._failure is not None:
                    raise self._failure
        finally:
            self._stop_repeat()
            for task in self._readers.values():
                task.cancel()
            await asyncio.gather(*self._readers.values(), return_exceptions=True)
            self._readers.clear()
            self._devices.clear()

    def rescan(self) -> None:
        """Open the devices that appeared since the last look (cheap when none did)."""
        try:
            paths = list(self._lister())
        except OSError:
            paths = []
        present = set(paths)
        self._ignored &= present
        for path in paths:
            if path in self._readers or path in self._ignored:
                continue
            opened = self._open(path)
            if isinstance(opened, _Denied):
                # Tried again at the next look: a node just plugged in is root's until
                # udev gives it to the input group a moment later.
                continue
            if opened is None:
                self._ignored.add(path)
                continue
            device, kind = opened
            name = str(getattr(device, "name", "?"))
            self._devices[path] = (kind, name)
            log.info("remote keys: %s %r at %s", kind, name, path)
            self._readers[path] = asyncio.ensure_future(self._read(path, device, kind))
        if not self._devices and not self._none_logged:
            self._none_logged = True
            what = "remote, gamepad or keyboard" if self._keyboards else "remote or gamepad"
            log.info("remote keys: no %s found yet; looking every %g s", what, self._rescan_s)

    def _open(self, path: str) -> tuple[Any, DeviceKind] | _Denied | None:
        """The device and its kind; None if it is not ours (or gone); _DENIED if this
        process may not read it (yet)."""
        try:
            device = self._opener(path)
        except PermissionError:
            if path not in self._denied_logged:
                self._denied_logged.add(path)
                log.warning("remote keys: not allowed to read %s: add the user to the "
                            "'input' group", path)
            return _DENIED
        except OSError:
            return None
        try:
            kind = kind_of(device)
            if kind is None or (kind == "keyboard" and not self._keyboards):
                raise LookupError(path)
            if self._grab:
                device.grab()
        except (OSError, LookupError):
            with contextlib.suppress(OSError):
                device.close()
            return None
        return device, kind

    async def _read(self, path: str, device: Any, kind: DeviceKind) -> None:
        absinfo: dict[int, Any] = {}
        if kind == "gamepad":
            with contextlib.suppress(OSError, KeyError, AttributeError):
                for code in (_E.ABS_X, _E.ABS_Y):
                    if code in device.capabilities(absinfo=False).get(_E.EV_ABS, ()):
                        absinfo[code] = device.absinfo(code)
        decoder = KeyDecoder(kind, absinfo, self._hold_s)
        feed, on_press = decoder.feed, self._on_press
        try:
            while True:
                try:
                    events = list(await device.async_read())
                except BlockingIOError:
                    continue
                except OSError as error:
                    log.info("remote keys: %s %r gone (%s)", kind,
                             getattr(device, "name", "?"), error.strerror or error)
                    return
                for event in events:
                    for press in feed(event):
                        try:
                            on_press(press)
                        except Exception as error:
                            self._failure = error  # a bug in the receiver: run() raises it
                            raise
                self._steer(decoder)
        finally:
            if self._repeating is not None and self._repeating[0] is decoder:
                self._stop_repeat()  # unplugged with an arrow down
            self._readers.pop(path, None)
            self._devices.pop(path, None)
            with contextlib.suppress(OSError):
                device.close()


    # -- a held arrow: one repeat for every device -------------------------------------
    def _steer(self, decoder: KeyDecoder) -> None:
        """After a read: a new hold starts the repeat, its release ends it."""
        if decoder.held is not None:
            hold = (decoder, decoder.holds)
            if self._repeating != hold:
                self._repeating = hold
                self._repeat.hold(decoder.held, decoder.source, self._clock())
                self._schedule_repeat()
        elif self._repeating is not None and self._repeating[0] is decoder:
            self._stop_repeat()

    def _stop_repeat(self) -> None:
        self._repeating = None
        self._repeat.release()
        if self._repeat_timer is not None:
            self._repeat_timer.cancel()
            self._repeat_timer = None

    def _schedule_repeat(self) -> None:
        if self._repeat_timer is not None:
            self._repeat_timer.cancel()
            self._repeat_timer = None
        at = self._repeat.next_at
        if at is None:
            self._repeating = None
            return
        loop = asyncio.get_running_loop()
        self._repeat_timer = loop.call_later(max(0.0, at - self._clock()), self._repeat_due)

    def _repeat_due(self) -> None:
        self._repeat_timer = None
        for press in self._repeat.due(self._clock()):
            try:
                self._on_press(press)
            except Exception as error:
                self._failure = error  # a bug in the receiver: run() raises it
                self._stop_repeat()
                return
        self._schedule_repeat()


# -- HDMI-CEC: the box on the TV's bus --------------------------------------------------

_PHYS: Final = re.compile(r"Physical Address\s*:\s*([0-9a-f](?:\.[0-9a-f]){3})", re.IGNORECASE)
NO_ADDRESS: Final = "f.f.f.f"  # what the adapter reports with no TV (or HPD low)


class Cec:
    """The box as a CEC playback device named `osd_name`, through `cec-ctl`.

    `register()` at start: claims a playback logical address, which also makes the kernel
    pass the TV remote's keys on as an input device (read by `RemoteInputs`). `wake()`:
    One Touch Play, the TV wakes (Image View On) and switches to the box (Active Source).
    Each command runs as a subprocess with a timeout; the loop only awaits it. No cec-ctl,
    no adapter, no TV that answers: said once in the log, and both become no-ops.
    """

    def __init__(
        self,
        device: str = "/dev/cec0",
        osd_name: str = "Easel",
        *,
        command: str = "cec-ctl",
        timeout_s: float = 5.0,
        min_wake_interval_s: float = 10.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.device = device
        self.osd_name = osd_name
        self.command = command
        self.timeout_s = timeout_s
        self.min_wake_interval_s = min_wake_interval_s
        self._clock = clock
        self.available = False
        self.physical_address: str | None = None
        self._said_unavailable = False
        self._last_wake: float | None = None
        self._waking = False

    def registration(self) -> list[str]:
        """The command that registers the box (cec-ctl's own option names)."""
        return [self.command, "--device", self.device, "--playback",
                "--osd-name", self.osd_name]

    def wake_commands(self, physical_address: str) -> list[list[str]]:
        base = [self.command, "--device", self.device, "--to", "0"]
        return [
            [*base, "--image-view-on"],
            [*base, "--active-source", f"phys-addr={physical_address}"],
        ]

    def query(self) -> list[str]:
        """cec-ctl with only the device: prints the adapter's state, its physical address."""
        return [self.command, "--device", self.device]

    async def _run(self, argv: Sequence[str]) -> tuple[int, str]:
        """(exit code, stdout and stderr) of one command; OSError if it cannot run."""
        exe = shutil.which(argv[0])
        if exe is None:
            raise FileNotFoundError(f"{argv[0]} not found (Debian package v4l-utils)")
        # Its own process group, so a timeout ends it and anything it started (a child
        # holding the pipe open would keep us waiting past the timeout).
        proc = await asyncio.create_subprocess_exec(
            exe, *argv[1:], stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), self.timeout_s)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
            raise TimeoutError(f"{argv[0]} did not answer within {self.timeout_s:g} s") from None
        return proc.returncode or 0, out.decode("utf-8", "replace")[-4000:]

    def _unavailable(self, why: str) -> None:
        self.available = False
        if not self._said_unavailable:
            self._said_unavailable = True
            log.info("tv: no HDMI-CEC (%s); the TV's remote and wake-up are off", why)

    async def register(self) -> bool:
        """Register the box on the bus; False (said once) if there is no CEC here."""
        try:
            code, out = await self._run(self.registration())
        except (OSError, TimeoutError) as error:
            self._unavailable(str(error))
            return False
        if code != 0:
            first = next((line.strip() for line in out.splitlines() if line.strip()), "")
            self._unavailable(f"{self.device}: {first or f'cec-ctl exit {code}'}")
            return False
        self.available = True
        match = _PHYS.search(out)
        self.physical_address = match.group(1).lower() if match else None
        log.info("tv: on HDMI-CEC as playback device %r at %s", self.osd_name,
                 self.physical_address or "an unknown address")
        return True

    def announce_command(self, physical_address: str) -> list[str]:
        """Active Source: the box says it is the input on screen, so the TV's remote keys
        come to it (cec-ctl's own example for switching the TV to an output)."""
        return [self.command, "--device", self.device, "--to", "0", "--active-source",
                f"phys-addr={physical_address}"]

    async def status(self) -> str:
        """What cec-ctl says of the adapter (its driver, name, connector, address), or ''
        when it cannot say (no adapter, no cec-ctl, no answer)."""
        try:
            code, out = await self._run(self.query())
        except (OSError, TimeoutError):
            return ""
        return out if code == 0 else ""

    async def announce(self) -> bool:
        """Tell the TV the box is the active source (at boot, when a TV is the screen). No
        Image View On: a TV that is off stays off. True if the TV was told."""
        address = self.physical_address
        if not self.available or address in (None, NO_ADDRESS):
            log.info("tv: not announced as the active source: %s",
                     "no HDMI-CEC" if not self.available else "no HDMI address (TV off?)")
            return False
        assert address is not None
        try:
            code, out = await self._run(self.announce_command(address))
        except (OSError, TimeoutError) as error:
            log.info("tv: announcing the box failed: %s", error)
            return False
        if code != 0:
            log.info("tv: active-source failed: %s", out.strip()[:200])
            return False
        log.info("tv: announced as the active source at %s (the TV's remote reaches the box)",
                 address)
        return True

    async def wake(self) -> bool:
        """One Touch Play; at most once per `min_wake_interval_s`. True if it was asked."""
        if not self.available or self._waking:
            return False
        now = self._clock() if self._clock is not None else asyncio.get_running_loop().time()
        if self._last_wake is not None and now - self._last_wake < self.min_wake_interval_s:
            return False
        self._last_wake = now
        self._waking = True
        try:
            address = self.physical_address
            if address in (None, NO_ADDRESS):
                # The TV was off or unplugged at start: the adapter knows its address now.
                code, out = await self._run(self.query())
                match = _PHYS.search(out) if code == 0 else None
                address = self.physical_address = match.group(1).lower() if match else None
            if address in (None, NO_ADDRESS):
                log.info("tv: cannot wake the TV: no HDMI address (is the TV connected?)")
                return False
            assert address is not None
            for argv in self.wake_commands(address):
                code, out = await self._run(argv)
                if code != 0:
                    log.info("tv: %s failed: %s", argv[-1], out.strip()[:200])
                    return False
            return True
        except (OSError, TimeoutError) as error:
            log.info("tv: wake-up failed: %s", error)
            return False
        finally:
            self._waking = False


CEC_DEVICES: Final = "/dev/cec*"
# cec-ctl's adapter status (CEC_ADAP_G_CONNECTOR_INFO, kernel 5.10 on; vc4 fills it in).
_DRM_CARD = re.compile(r"DRM Card Number\s*:\s*(\d+)")
_DRM_CONNECTOR = re.compile(r"DRM Connector ID\s*:\s*(\d+)")
# vc4's adapter names: "vc4-hdmi-0" is HDMI-A-1's, "vc4-hdmi-1" HDMI-A-2's.
_VC4_ADAPTER = re.compile(r"Adapter Name\s*:\s*vc4-hdmi-(\d+)")
_HDMI_PORT = re.compile(r"HDMI-A-(\d+)$", re.IGNORECASE)


@dataclass(frozen=True)
class ScreenOutput:
    """The DRM output the kiosk is on: its card, the kernel's connector id (0: unknown)
    and name ("HDMI-A-2")."""

    card: int
    connector_id: int
    name: str


def adapter_matches(status: str, output: ScreenOutput) -> str:
    """Whether the adapter cec-ctl described in `status` is `output`'s: '' if not, else
    how that is known (the adapter's connector info, or vc4's port-numbered name)."""
    card, connector = _DRM_CARD.search(status), _DRM_CONNECTOR.search(status)
    if card and connector and output.connector_id:
        same = (int(card.group(1)), int(connector.group(1))) == (output.card,
                                                                 output.connector_id)
        return "its connector info" if same else ""
    vc4, port = _VC4_ADAPTER.search(status), _HDMI_PORT.match(output.name)
    if vc4 and port and int(vc4.group(1)) + 1 == int(port.group(1)):
        return f"its name vc4-hdmi-{vc4.group(1)}"
    return ""


async def cec_device_for(output: ScreenOutput | None, devices: Sequence[str] | None = None,
                         command: str = "cec-ctl") -> tuple[str, str]:
    """The CEC adapter of the HDMI output the kiosk is on, and why (for the log): the
    adapter whose connector is `output`, else /dev/cec0 (or the only adapter there is)."""
    found = sorted(glob.glob(CEC_DEVICES)) if devices is None else list(devices)
    first = found[0] if found else "/dev/cec0"
    if not found:
        return first, "no CEC adapter (/dev/cec*) here"
    if output is None:
        return first, "the kiosk is on no HDMI output: the first adapter"
    for device in found:
        how = adapter_matches(await Cec(device, command=command).status(), output)
        if how:
            return device, f"the adapter of {output.name} (by {how})"
    return first, f"no adapter says it is {output.name}'s: the first one"


def describe(bindings: Iterable[Binding] = BINDINGS) -> list[tuple[str, str, str]]:
    """(evdev key name, device, remote key) rows: what docs/remote.md prints."""
    return [(b.name, b.where, b.key) for b in bindings]
