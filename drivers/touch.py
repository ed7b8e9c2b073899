"""The table's touch panel through python-evdev: fingers in, strokes out.

`TouchDecoder` is a pure state machine for the kernel's multi-touch protocol B: it takes
`evdev.InputEvent`s and, at each SYN_REPORT, returns what each finger did (`Touch`: down,
move, up) in coordinates normalised to the physical display, 0..1 left to right and top to
bottom. `TouchPanel` finds the touchscreen, reads it on the asyncio loop (no threads), feeds
a decoder and hands every frame's touches to a callback; it outlives the panel being
unplugged. Rotating into the kiosk's logical frame is the kiosk's job, with the same map it
uses for SDL's touch events. docs/touch.md explains the protocol decisions.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal

import evdev
from evdev import ecodes

from drivers.inputs import event_devices

log = logging.getLogger(__name__)

_EV_SYN: Final = ecodes.EV_SYN
_EV_KEY: Final = ecodes.EV_KEY
_EV_ABS: Final = ecodes.EV_ABS
_SYN_REPORT: Final = ecodes.SYN_REPORT
_SYN_DROPPED: Final = ecodes.SYN_DROPPED
_BTN_TOUCH: Final = ecodes.BTN_TOUCH
_ABS_X: Final = ecodes.ABS_X
_ABS_Y: Final = ecodes.ABS_Y
_MT_SLOT: Final = ecodes.ABS_MT_SLOT
_MT_X: Final = ecodes.ABS_MT_POSITION_X
_MT_Y: Final = ecodes.ABS_MT_POSITION_Y
_MT_ID: Final = ecodes.ABS_MT_TRACKING_ID

# A slot's contact, beside real tracking ids (>= 0).
_IDLE: Final = -1  # no finger: the kernel said -1 (or BTN_TOUCH 0 said no finger at all)
_UNKNOWN: Final = -2  # not known since the last resync (start, SYN_DROPPED)
_RESUMED: Final = -3  # a finger that was down through a resync: live, its id unknown

# Finger numbers are unique for the life of the process, across decoders and replugs, so a
# receiver can key strokes by them; the kernel's tracking ids repeat and slots are reused.
_finger_numbers = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Orientation:
    """How the panel's axes sit relative to the display's scanout.

    Applied to the normalised panel position in this order: swap x and y, then mirror the
    (swapped) x, then mirror y. A panel glued on upside down is `invert_x` and `invert_y`.
    """

    swap_xy: bool = False
    invert_x: bool = False
    invert_y: bool = False


@dataclass(frozen=True, slots=True)
class Touch:
    """One finger's change in one frame."""

    kind: Literal["down", "move", "up"]
    finger: int  # unique per touch for the life of the process (not the kernel's slot or id)
    x: float  # 0.0 .. 1.0 across the physical display, left to right, after orientation
    y: float  # 0.0 .. 1.0 top to bottom
    t: float  # seconds: the kernel's timestamp of the frame (event.timestamp())
    cancelled: bool = False  # an "up" that ends a stroke we lost track of (SYN_DROPPED, unplug)

    def __repr__(self) -> str:
        tail = " cancelled" if self.cancelled else ""
        return (f"Touch({self.kind} finger {self.finger} at {self.x:.4f}, {self.y:.4f}, "
                f"t {self.t:.6f}{tail})")


class _Slot:
    """What we know of one kernel slot; mutable, private to the decoder."""

    __slots__ = ("ended", "finger", "last", "tracking", "x", "y")

    def __init__(self) -> None:
        self.tracking: int = _UNKNOWN
        # Raw axis values as the kernel last sent them for this slot, None if not since the
        # last resync: the kernel sends a value only when it changes, so a new touch at the
        # old x sends no x at all and must inherit it.
        self.x: int | None = None
        self.y: int | None = None
        self.finger: int | None = None  # the open stroke, if a "down" went out
        self.last: tuple[int, int] = (0, 0)  # raw position of the stroke's last down/move
        self.ended = False  # this frame ended the contact the open stroke belongs to


class TouchDecoder:
    """Pure state machine: evdev InputEvents in, Touch changes out (emitted at each SYN_REPORT).

    `x` and `y` are the absinfo of ABS_MT_POSITION_X/Y (or ABS_X/Y with `single_touch`).
    Slots from `max_fingers` up are ignored. `slot` is the kernel's current slot when the
    device was opened (absinfo of ABS_MT_SLOT): evdev names the slot only when it changes.
    `single_touch` decodes a panel without multi-touch (BTN_TOUCH with ABS_X/Y) as slot 0.
    """

    def __init__(
        self,
        x: evdev.AbsInfo,
        y: evdev.AbsInfo,
        orientation: Orientation = Orientation(),
        max_fingers: int = 10,
        *,
        slot: int = 0,
        single_touch: bool = False,
    ) -> None:
        if max_fingers < 1:
            raise ValueError(f"max_fingers must be at least 1; got {max_fingers}")
        self._x0, self._xspan = x.min, x.max - x.min
        self._y0, self._yspan = y.min, y.max - y.min
        self._orientation = orientation
        self._slots = [_Slot() for _ in range(1 if single_touch else max_fingers)]
        self._slot = slot
        self._single = single_touch
        self._frame: list[evdev.InputEvent] = []
        self._dropping = False  # after SYN_DROPPED, until the next SYN_REPORT

    @property
    def active(self) -> int:
        """Fingers down now: strokes that had a "down" and no "up" yet."""
        return sum(s.finger is not None for s in self._slots)

    def feed(self, event: evdev.InputEvent) -> list[Touch]:
        """Take one event; at a SYN_REPORT (or SYN_DROPPED) return what the frame changed."""
        etype = event.type
        if etype != _EV_SYN:
            if not self._dropping and etype in (_EV_ABS, _EV_KEY):
                self._frame.append(event)
            return []
        code = event.code
        if code == _SYN_REPORT:
            if self._dropping:
                self._dropping = False  # the next frame is whole again
                return []
            return self._end_frame(event.timestamp())
        if code == _SYN_DROPPED:
            self._dropping = True
            return self._resync(event.timestamp())
        return []

    def cancel_all(self, t: float) -> list[Touch]:
        """End every open stroke with a cancelled "up" at time `t` (the device went away)."""
        self._dropping = False
        return self._resync(t)

    def _resync(self, t: float) -> list[Touch]:
        # The events we lost may have lifted fingers, moved them or changed the current
        # slot; without EVIOCGMTSLOTS we cannot ask, so we forget the slots and end every
        # stroke. The current slot stays our best guess (the kernel only names changes).
        self._frame.clear()
        out = []
        for s in self._slots:
            if s.finger is not None:
                out.append(self._touch("up", s.finger, s.last, t, cancelled=True))
            s.finger, s.tracking, s.x, s.y, s.ended = None, _UNKNOWN, None, None, False
        return out

    def _end_frame(self, t: float) -> list[Touch]:
        if not self._frame:
            return []
        slots = self._slots
        limit = len(slots)
        current = self._slot
        touched: set[int] = set()
        no_finger = False  # BTN_TOUCH 0: the kernel has no contact at all
        for ev in self._frame:
            code, value = ev.code, ev.value
            if ev.type == _EV_KEY:
                if code != _BTN_TOUCH:
                    continue
                if self._single:
                    # The kernel sends BTN_TOUCH only when it changes: 1 is a new contact.
                    code, value, current = _MT_ID, (0 if value else -1), 0
                elif value == 0:
                    no_finger = True
                    continue
                else:
                    continue
            elif self._single:
                if code == _ABS_X:
                    code, current = _MT_X, 0
                elif code == _ABS_Y:
                    code, current = _MT_Y, 0
                else:
                    continue
            if code == _MT_SLOT:
                current = value
                continue
            if not 0 <= current < limit:
                continue  # a finger beyond max_fingers, or a nonsense slot
            s = slots[current]
            if code == _MT_X:
                s.x = value
            elif code == _MT_Y:
                s.y = value
            elif code == _MT_ID:
                if value < 0:
                    s.ended = s.ended or s.tracking != _IDLE
                    s.tracking = _IDLE
                elif value != s.tracking:
                    # A new id in a slot that held a contact means a new contact there
                    # (the kernel can reuse a slot within one frame without a -1 between).
                    s.ended = True
                    s.tracking = value
            else:
                continue
            touched.add(current)
        self._slot = current
        self._frame.clear()

        out: list[Touch] = []
        for i in sorted(touched) if len(touched) > 1 else touched:
            s = slots[i]
            if s.ended:
                s.ended = False
                if s.finger is not None:
                    out.append(self._touch("up", s.finger, s.last, t))
                    s.finger = None
            x, y = s.x, s.y
            if x is None or y is None:
                continue  # never a down at a made-up position: wait for the kernel's
            if s.finger is None:
                if s.tracking == _UNKNOWN:
                    # Positions only come for live contacts: a finger held through a resync.
                    s.tracking = _RESUMED
                if s.tracking >= 0 or s.tracking == _RESUMED:
                    s.finger = next(_finger_numbers)
                    s.last = (x, y)
                    out.append(self._touch("down", s.finger, s.last, t))
            elif (x, y) != s.last:
                s.last = (x, y)
                out.append(self._touch("move", s.finger, s.last, t))
        if no_finger:
            # Pointer emulation says nobody touches: whatever we still think is down was
            # lost (a resync guessed the wrong slot); end it rather than leave it open.
            for s in slots:
                if s.finger is not None:
                    out.append(self._touch("up", s.finger, s.last, t, cancelled=True))
                    s.finger = None
                s.tracking = _IDLE
        return out

    def _touch(
        self, kind: Literal["down", "move", "up"], finger: int, raw: tuple[int, int], t: float,
        cancelled: bool = False,
    ) -> Touch:
        x = (raw[0] - self._x0) / self._xspan if self._xspan > 0 else 0.0
        y = (raw[1] - self._y0) / self._yspan if self._yspan > 0 else 0.0
        # The kernel does not clamp to absinfo's range; some panels overshoot their edges.
        x = 0.0 if x < 0.0 else 1.0 if x > 1.0 else x
        y = 0.0 if y < 0.0 else 1.0 if y > 1.0 else y
        o = self._orientation
        if o.swap_xy:
            x, y = y, x
        if o.invert_x:
            x = 1.0 - x
        if o.invert_y:
            y = 1.0 - y
        return Touch(kind, finger, x, y, t, cancelled)


def _is_touchscreen(device: Any) -> bool:
    axes = device.capabilities(absinfo=False).get(_EV_ABS, ())
    return (
        _MT_X in axes and _MT_Y in axes
        and ecodes.INPUT_PROP_DIRECT in device.input_props()
    )


def _scan(paths: Iterable[str], opener: Callable[[str], Any]) -> tuple[str | None, list[str]]:
    """The first touchscreen among `paths`, and the paths we were not allowed to open."""
    denied = []
    for path in paths:
        try:
            device = opener(path)
        except PermissionError:
            denied.append(path)
            continue
        except OSError:
            continue  # gone between listing and opening
        try:
            if _is_touchscreen(device):
                return path, denied
        except OSError:
            continue
        finally:
            with contextlib.suppress(OSError):
                device.close()
    return None, denied


def find_touchscreen(
    paths: Iterable[str] | None = None,
    opener: Callable[[str], Any] = evdev.InputDevice,
) -> str | None:
    """The first device with ABS_MT_POSITION_X/Y and INPUT_PROP_DIRECT.

    INPUT_PROP_DIRECT is what tells a touchscreen from a touchpad (same axes, but the
    finger moves a pointer instead of touching what is under it).
    """
    return _scan(event_devices() if paths is None else paths, opener)[0]


def _decoder_for(device: Any, orientation: Orientation) -> TouchDecoder | None:
    """A decoder for the device's axes, or None if it has no position axes at all."""
    axes = device.capabilities(absinfo=False).get(_EV_ABS, ())
    if _MT_X in axes and _MT_Y in axes:
        slot = device.absinfo(_MT_SLOT).value if _MT_SLOT in axes else 0
        return TouchDecoder(device.absinfo(_MT_X), device.absinfo(_MT_Y), orientation,
                            slot=slot)
    if _ABS_X in axes and _ABS_Y in axes:
        return TouchDecoder(device.absinfo(_ABS_X), device.absinfo(_ABS_Y), orientation,
                            single_touch=True)
    return None


class TouchPanel:
    """Async reader: discovers (or opens the configured path), reads with the asyncio read loop
    (`async_read`, no threads), feeds a TouchDecoder, calls on_touch(list[Touch]) per
    SYN_REPORT batch that changed something.

    Survives the device disappearing (an OSError such as ENODEV on read): ends open strokes
    with cancelled ups, logs once, looks for it again every `rescan_s` seconds, logs once when
    it is back. Grabs the device (no one else sees its events) only if `grab`. Never raises
    out of run() for device trouble; an exception from on_touch does propagate, being a bug.
    """

    def __init__(
        self,
        on_touch: Callable[[list[Touch]], None],
        *,
        path: str | None = None,
        grab: bool = False,
        orientation: Orientation = Orientation(),
        rescan_s: float = 3.0,
        opener: Callable[[str], Any] = evdev.InputDevice,
        lister: Callable[[], list[str]] = event_devices,
    ) -> None:
        self._on_touch = on_touch
        self._path = path
        self._grab = grab
        self._orientation = orientation
        self._rescan_s = rescan_s
        self._opener = opener
        self._lister = lister
        self._device: Any = None
        self._seen = False  # connected at least once: the next connection is "back"
        self._missing_logged = False
        self._last_t = 0.0  # timestamp of the last event read

    @property
    def connected(self) -> bool:
        return self._device is not None

    async def run(self, stop: asyncio.Event) -> None:
        """Read touches until `stop` is set, through any number of unplugs."""
        while not stop.is_set():
            opened = self._open()
            if opened is not None:
                device, decoder = opened
                self._device = device
                try:
                    await self._read_until_gone(device, decoder, stop)
                finally:
                    self._device = None
                    with contextlib.suppress(OSError):
                        device.close()
            # Also after a read failed: a node that opens but cannot be read must not spin.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._rescan_s)

    def _open(self) -> tuple[Any, TouchDecoder] | None:
        """Open the panel, or log (once per absence) why not."""
        denied: list[str] = []
        try:
            if self._path is not None:
                path: str | None = self._path
            else:
                path, denied = _scan(self._lister(), self._opener)
            if path is None:
                self._missing(denied)
                return None
            device = self._opener(path)
        except PermissionError as error:
            self._missing([str(error.filename or self._path)])
            return None
        except OSError:
            self._missing(denied)
            return None
        try:
            decoder = _decoder_for(device, self._orientation)
            if decoder is None:
                raise OSError(f"{path} has no position axes")
            if self._grab:
                device.grab()
        except OSError as error:
            with contextlib.suppress(OSError):
                device.close()
            self._missing(denied, str(error))
            return None
        log.info("touch panel %s: %s at %s", "back" if self._seen else "found",
                 getattr(device, "name", "?"), path)
        self._seen, self._missing_logged = True, False
        return device, decoder

    def _missing(self, denied: list[str], why: str = "") -> None:
        if self._missing_logged:
            return
        self._missing_logged = True
        every = f"looking for it every {self._rescan_s:g} s"
        if self._seen:
            message = f"touch panel gone; {every}"
        elif self._path is not None:
            message = f"no touch panel at {self._path}; {every}"
        else:
            message = f"no touch panel found; {every}"
        if why:
            message += f" ({why})"
        if denied:
            message += (f"; not allowed to read {', '.join(denied)}: add the user to the "
                        "'input' group")
        log.warning(message)

    async def _read_until_gone(
        self, device: Any, decoder: TouchDecoder, stop: asyncio.Event
    ) -> None:
        reader = asyncio.ensure_future(self._pump(device, decoder))
        stopper = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait((reader, stopper), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (reader, stopper):
                task.cancel()
            await asyncio.gather(reader, stopper, return_exceptions=True)
        if reader.done() and not reader.cancelled():
            error = reader.exception()
            if error is not None:
                raise error  # on_touch raised: a bug, not device trouble
        # Gone or stopping: either way every stroke that went down gets its up, stamped
        # with the last time the kernel gave us (it has no timestamp for "unplugged").
        ups = decoder.cancel_all(self._last_t)
        if ups:
            self._on_touch(ups)
        if not stop.is_set():
            self._missing([])

    async def _pump(self, device: Any, decoder: TouchDecoder) -> None:
        feed, on_touch = decoder.feed, self._on_touch
        while True:
            try:
                # evdev's read is a generator that reads on first use: exhaust it here.
                events = list(await device.async_read())
            except BlockingIOError:
                continue  # woken with nothing to read
            except OSError as error:
                log.debug("touch panel read failed: %s", error)
                return
            if events:
                self._last_t = events[-1].timestamp()
            for event in events:
                touches = feed(event)
                if touches:
                    on_touch(touches)
