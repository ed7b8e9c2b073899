"""Read evemu recordings of real input devices, and stand in for the device that made them.

evemu (freedesktop.org) writes a device description (`N:` name, `I:` ids, `P:` property
bits, `B:` event-code bits per type, `A:` absolute axes) and its events (`E: sec.usec TYPE
CODE VALUE`, type and code in hex, value in decimal). A `.desc` file holds the description,
an `.events` file the events (and often the description again), an `.evemu` file both.

`read()` turns that into evdev's own values, `evdev.InputEvent` with the recorded times and
`evdev.AbsInfo`, so the touch driver is tested on exactly what a kernel sent; `FakeDevice`
replays a recording behind the part of `evdev.InputDevice` the driver uses.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import evdev
from evdev import ecodes

from tests.conftest import DATA

TOUCH_DATA = DATA / "touch"


@dataclass(frozen=True)
class Recording:
    """One device description and the events recorded from it."""

    name: str
    bus: int
    vendor: int
    product: int
    version: int
    properties: frozenset[int]
    capabilities: dict[int, tuple[int, ...]]  # event type -> codes, as evdev lists them
    absinfo: dict[int, evdev.AbsInfo]
    events: tuple[evdev.InputEvent, ...] = ()

    def with_events(self, events: Iterable[evdev.InputEvent]) -> Recording:
        return dataclasses.replace(self, events=tuple(events))

    def frames(self) -> Iterator[list[evdev.InputEvent]]:
        """The events cut after each SYN_REPORT, as a kernel delivers them."""
        frame: list[evdev.InputEvent] = []
        for event in self.events:
            frame.append(event)
            if event.type == ecodes.EV_SYN and event.code == ecodes.SYN_REPORT:
                yield frame
                frame = []
        if frame:
            yield frame


def _bits(hex_bytes: Sequence[str], offset: int = 0) -> list[int]:
    """The bit numbers set in little-endian bytes `hex_bytes` that start at byte `offset`."""
    found = []
    for i, text in enumerate(hex_bytes):
        byte = int(text, 16)
        found += [(offset + i) * 8 + bit for bit in range(8) if byte >> bit & 1]
    return found


def parse(lines: Iterable[str]) -> Recording:
    """A recording from evemu text; descriptions may come once or twice (.desc + .events)."""
    name = ""
    ids = [0, 0, 0, 0]
    props: set[int] = set()
    prop_bytes = 0
    # evemu writes a type's bitmask over several `B:` lines; bytes continue across them.
    type_bytes: dict[int, int] = {}
    codes: dict[int, set[int]] = {}
    absinfo: dict[int, evdev.AbsInfo] = {}
    events: list[evdev.InputEvent] = []
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tag, _, rest = line.partition(":")
        fields = rest.split()
        if tag == "N":
            if name:  # a second description of the same device: start its bitmasks afresh
                props, prop_bytes, type_bytes, codes = set(), 0, {}, {}
            name = rest.strip()
        elif tag == "I":
            ids = [int(f, 16) for f in fields]
        elif tag == "P":
            props.update(_bits(fields, prop_bytes))
            prop_bytes += len(fields)
        elif tag == "B":
            etype, data = int(fields[0], 16), fields[1:]
            codes.setdefault(etype, set()).update(_bits(data, type_bytes.get(etype, 0)))
            type_bytes[etype] = type_bytes.get(etype, 0) + len(data)
        elif tag == "A":
            code, lo, hi, fuzz, flat, *res = (int(f, 16) if i == 0 else int(f)
                                               for i, f in enumerate(fields))
            absinfo[code] = evdev.AbsInfo(0, lo, hi, fuzz, flat, res[0] if res else 0)
        elif tag == "E":
            sec, usec = fields[0].split(".")
            events.append(evdev.InputEvent(
                int(sec), int(usec.ljust(6, "0")), int(fields[1], 16), int(fields[2], 16),
                int(fields[3]),
            ))
    # Type 0's bits are the event types themselves; evdev leaves EV_SYN's codes out too.
    types = codes.pop(ecodes.EV_SYN, set())
    capabilities = {t: tuple(sorted(codes.get(t, ()))) for t in sorted(types)}
    capabilities.pop(ecodes.EV_SYN, None)
    bus, vendor, product, version = ids
    return Recording(name, bus, vendor, product, version, frozenset(props), capabilities,
                     absinfo, tuple(events))


def read(*paths: Path) -> Recording:
    """Parse one .evemu file, or a .desc and an .events file together."""
    lines: list[str] = []
    for path in paths:
        lines += path.read_text(encoding="utf-8").splitlines()
    return parse(lines)


def touch(stem: str) -> Recording:
    """A recording in tests/data/touch by stem: `ep0430m09.4-finger-drag-down`."""
    evemu = TOUCH_DATA / f"{stem}.evemu"
    if evemu.exists():
        return read(evemu)
    device = stem.split(".", 1)[0]
    return read(TOUCH_DATA / f"{device}.desc", TOUCH_DATA / f"{stem}.events")


@dataclass
class FakeDevice:
    """What the touch driver uses of `evdev.InputDevice`, replaying a recording.

    Each `async_read()` returns one frame. After the last one the device either goes away
    (`OSError(ENODEV)`, like an unplugged panel) or waits for events that never come.
    """

    recording: Recording
    path: str = "/dev/input/event9"
    unplug_at_end: bool = False
    closed: bool = False
    grabbed: bool = False
    _frames: Iterator[list[evdev.InputEvent]] | None = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.recording.name

    def capabilities(
        self, verbose: bool = False, absinfo: bool = True
    ) -> dict[int, list[object]]:
        assert not verbose
        caps: dict[int, list[object]] = {}
        for etype, codes in self.recording.capabilities.items():
            if absinfo and etype == ecodes.EV_ABS:
                caps[etype] = [(c, self.recording.absinfo[c]) for c in codes]
            else:
                caps[etype] = list(codes)
        return caps

    def input_props(self, verbose: bool = False) -> list[int]:
        return sorted(self.recording.properties)

    def absinfo(self, axis_num: int) -> evdev.AbsInfo:
        return self.recording.absinfo[axis_num]

    def grab(self) -> None:
        self.grabbed = True

    def ungrab(self) -> None:
        self.grabbed = False

    def close(self) -> None:
        self.closed = True

    async def async_read(self) -> list[evdev.InputEvent]:
        if self.closed:
            raise OSError(errno.EBADF, "read from a closed device")
        if self._frames is None:
            self._frames = self.recording.frames()
        await asyncio.sleep(0)  # a real read returns to the loop too
        frame = next(self._frames, None)
        if frame is not None:
            return frame
        if self.unplug_at_end:
            raise OSError(errno.ENODEV, "No such device")
        await asyncio.Future()  # still plugged in, nobody touching it
        raise AssertionError("unreachable")


def keyboard() -> Recording:
    """A keyboard-like device: keys only, no axes, no properties."""
    return Recording("Fake Keyboard", 3, 1, 1, 1, frozenset(),
                     {ecodes.EV_KEY: tuple(range(1, 100))}, {})


def touchpad(of: Recording) -> Recording:
    """The same axes as `of` but an indirect device (a touchpad: INPUT_PROP_POINTER)."""
    return Recording(f"{of.name} Touchpad", of.bus, of.vendor, of.product, of.version,
                     frozenset({ecodes.INPUT_PROP_POINTER}), of.capabilities, of.absinfo)
