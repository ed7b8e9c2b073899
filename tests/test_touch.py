"""The touch panel driver on real panels' recordings (tests/data/touch, evemu format).

Every expectation about a gesture was read off the recording itself: the "drag up-down"
recordings go there and back, and the EP0430M09's "drag down" fingers move toward the top
of its panel. SYN_DROPPED and unplugging are not in any recording, so those cases are built
on top of real ones.
"""

from __future__ import annotations

import asyncio
import errno
import itertools
import logging
import os
import struct
from collections.abc import Iterable, Sequence

import evdev
import evdev.eventio_async
import pytest
from evdev import ecodes

from appliance.kiosk.rotation import ROTATIONS, physical_size, physical_to_logical
from drivers.touch import Orientation, Touch, TouchDecoder, TouchPanel, find_touchscreen
from tests import evemu
from tests.evemu import FakeDevice, Recording

EP = "ep0430m09"
ATMEL = "atmel-maxtouch"
DELL = "dell-canvas-touch"
RECORDINGS = [
    f"{EP}.1-finger-drag-up-down",
    f"{EP}.2-finger-scroll-down",
    f"{EP}.2-fingers-touch-release",
    f"{EP}.4-finger-drag-down",
    f"{ATMEL}.1-finger-drag-up-down",
    f"{ATMEL}.1-finger-fast-taps",
    f"{ATMEL}.2-fingers-touch-release",
    f"{ATMEL}.4-finger-drag-down",
    DELL,
]


def decoder_for(rec: Recording, **kwargs: object) -> TouchDecoder:
    x, y = rec.absinfo[ecodes.ABS_MT_POSITION_X], rec.absinfo[ecodes.ABS_MT_POSITION_Y]
    return TouchDecoder(x, y, **kwargs)  # type: ignore[arg-type]


def decode(
    events: Iterable[evdev.InputEvent], decoder: TouchDecoder
) -> tuple[list[Touch], int]:
    """Every touch the events produce, and the most fingers down at once."""
    out: list[Touch] = []
    peak = 0
    for event in events:
        touches = decoder.feed(event)
        for touch in touches:
            # Emitted at the frame's end, with the kernel's time of that frame.
            assert touch.t == event.timestamp()
        out += touches
        peak = max(peak, decoder.active)
    return out, peak


def decode_rec(stem: str, **kwargs: object) -> tuple[list[Touch], int]:
    rec = evemu.touch(stem)
    return decode(rec.events, decoder_for(rec, **kwargs))


def strokes(touches: Iterable[Touch]) -> list[list[Touch]]:
    """Touches grouped by finger, in the order the fingers went down."""
    by_finger: dict[int, list[Touch]] = {}
    for touch in touches:
        by_finger.setdefault(touch.finger, []).append(touch)
    return list(by_finger.values())


def assert_well_formed(stroke: Sequence[Touch]) -> None:
    assert stroke[0].kind == "down"
    assert stroke[-1].kind == "up"
    assert all(t.kind == "move" for t in stroke[1:-1])
    assert all(a.t <= b.t for a, b in itertools.pairwise(stroke))
    moves = [(t.x, t.y) for t in stroke[:-1]]
    assert all(a != b for a, b in itertools.pairwise(moves)), "a move that did not move"


def event(t: float, etype: int, code: int, value: int) -> evdev.InputEvent:
    sec = int(t)
    return evdev.InputEvent(sec, round((t - sec) * 1_000_000), etype, code, value)


def shifted(events: Iterable[evdev.InputEvent], by: float) -> list[evdev.InputEvent]:
    return [event(e.timestamp() + by, e.type, e.code, e.value) for e in events]


def frame_ends(events: Sequence[evdev.InputEvent]) -> list[int]:
    return [i for i, e in enumerate(events)
            if e.type == ecodes.EV_SYN and e.code == ecodes.SYN_REPORT]


# --- the evemu reader ---------------------------------------------------------------------


def test_the_reader_gives_evdev_values_with_recorded_times() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    assert rec.name == "EP0430M09"
    assert rec.bus == 0x18
    assert rec.properties == {ecodes.INPUT_PROP_DIRECT}
    assert rec.capabilities[ecodes.EV_KEY] == (ecodes.BTN_TOUCH,)
    assert set(rec.capabilities[ecodes.EV_ABS]) == {
        ecodes.ABS_X, ecodes.ABS_Y, ecodes.ABS_MT_SLOT, ecodes.ABS_MT_POSITION_X,
        ecodes.ABS_MT_POSITION_Y, ecodes.ABS_MT_TRACKING_ID}
    assert rec.absinfo[ecodes.ABS_MT_POSITION_X] == evdev.AbsInfo(0, 0, 1279, 0, 0, 0)
    assert rec.absinfo[ecodes.ABS_MT_POSITION_Y] == evdev.AbsInfo(0, 0, 767, 0, 0, 0)
    assert len(rec.events) == 735
    first, last = rec.events[0], rec.events[-1]
    assert isinstance(first, evdev.InputEvent)
    assert (first.sec, first.usec, first.type, first.code, first.value) == (
        0, 1, ecodes.EV_ABS, ecodes.ABS_MT_TRACKING_ID, 0)
    # "E: 1.433975 0000 0000 0000", and the lift before it: "0003 0039 -001".
    assert (last.sec, last.usec, last.type, last.code) == (1, 433975, 0, 0)
    assert rec.events[-3].value == -1
    assert len(list(rec.frames())) == 183


def test_the_reader_reads_a_combined_evemu_file_with_resolution() -> None:
    rec = evemu.touch(DELL)
    assert rec.name == "Advanced Silicon S.A. CoolTouch® System"
    assert (rec.bus, rec.vendor, rec.product) == (0x03, 0x2575, 0x0204)
    assert rec.absinfo[ecodes.ABS_MT_POSITION_X] == evdev.AbsInfo(0, 0, 32767, 0, 0, 55)
    assert rec.absinfo[ecodes.ABS_MT_POSITION_Y] == evdev.AbsInfo(0, 0, 32767, 0, 0, 98)
    assert len(list(rec.frames())) == 450
    assert rec.events[-1].timestamp() == pytest.approx(13.865196)


# --- decoding the recordings ----------------------------------------------------------------


@pytest.mark.parametrize("stem", RECORDINGS)
def test_every_stroke_goes_down_moves_and_comes_up_inside_the_screen(stem: str) -> None:
    touches, _ = decode_rec(stem)
    assert touches
    for stroke in strokes(touches):
        assert_well_formed(stroke)
    assert not any(t.cancelled for t in touches)
    assert all(0.0 <= t.x <= 1.0 and 0.0 <= t.y <= 1.0 for t in touches)
    # Nothing from the kernel lands at the panel's corner: no down at a made-up (0, 0).
    assert all((t.x, t.y) != (0.0, 0.0) for t in touches)


@pytest.mark.parametrize("stem", RECORDINGS)
def test_touch_times_are_the_recorded_frame_times(stem: str) -> None:
    rec = evemu.touch(stem)
    touches, _ = decode(rec.events, decoder_for(rec))
    frame_times = {rec.events[i].timestamp() for i in frame_ends(rec.events)}
    assert {t.t for t in touches} <= frame_times
    assert touches[0].t == rec.events[0].timestamp()
    lifts = [e for e in rec.events if e.code == ecodes.ABS_MT_TRACKING_ID and e.value < 0]
    assert touches[-1].t == lifts[-1].timestamp()


def test_ep0430m09_one_finger_drag_goes_down_the_screen_and_back_in_one_stroke() -> None:
    touches, peak = decode_rec(f"{EP}.1-finger-drag-up-down")
    (stroke,) = strokes(touches)
    assert peak == 1
    ys = [t.y for t in stroke]
    turn = ys.index(max(ys))
    assert ys[0] < 0.2 and max(ys) > 0.8 and ys[-1] < 0.2
    assert ys[: turn + 1] == sorted(ys[: turn + 1])  # top to bottom ...
    assert ys[turn:] == sorted(ys[turn:], reverse=True)  # ... and back up
    assert max(t.x for t in stroke) - min(t.x for t in stroke) < 0.06  # a vertical drag
    assert len(stroke) == 183  # a down, 181 moves, an up: one per frame
    assert stroke[-1].t - stroke[0].t == pytest.approx(1.433974)


def test_atmel_one_finger_drag_goes_up_the_screen_and_back_in_one_stroke() -> None:
    touches, _ = decode_rec(f"{ATMEL}.1-finger-drag-up-down")
    (stroke,) = strokes(touches)
    ys = [t.y for t in stroke]
    turn = ys.index(min(ys))
    # This one starts low: bottom to top, then back to the bottom.
    assert ys[0] > 0.75 and min(ys) < 0.2 and ys[-1] > 0.8
    assert ys[: turn + 1] == sorted(ys[: turn + 1], reverse=True)
    assert ys[turn:] == sorted(ys[turn:])
    assert len(stroke) == 150


@pytest.mark.parametrize(
    "stem", [f"{EP}.2-fingers-touch-release", f"{ATMEL}.2-fingers-touch-release"]
)
def test_two_fingers_are_two_simultaneous_strokes(stem: str) -> None:
    touches, peak = decode_rec(stem)
    a, b = strokes(touches)
    assert peak == 2
    # Both down before either comes up.
    assert max(a[0].t, b[0].t) < min(a[-1].t, b[-1].t)
    assert abs(a[0].x - b[0].x) > 0.3  # two fingers apart, not one seen twice


def test_two_finger_scroll_is_two_strokes_moving_together() -> None:
    touches, peak = decode_rec(f"{EP}.2-finger-scroll-down")
    pair = strokes(touches)
    assert peak == 2 and len(pair) == 2
    for stroke in pair:
        # "Scroll down" on this panel: the fingers travel toward its top edge.
        assert stroke[0].y - stroke[-1].y > 0.3


def test_atmel_fast_taps_are_nine_taps_at_the_slots_remembered_position() -> None:
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    touches, peak = decode(rec.events, decoder_for(rec))
    taps = strokes(touches)
    assert len(taps) == 9 and peak == 1
    assert all([t.kind for t in tap] == ["down", "up"] for tap in taps)
    assert all(tap[0].x == tap[1].x and tap[0].y == tap[1].y for tap in taps)
    # Some taps land on the previous tap's x or y: the kernel then sends no new value, and
    # the tap must take the slot's last one rather than wait or invent.
    new_x = [any(e.code == ecodes.ABS_MT_POSITION_X for e in frame)
             for frame in rec.frames() if any(e.code == ecodes.ABS_MT_TRACKING_ID
                                              and e.value >= 0 for e in frame)]
    assert new_x.count(False) == 2
    for tap, had_x, before in zip(taps[1:], new_x[1:], taps[:-1], strict=True):
        if not had_x:
            assert tap[0].x == before[0].x
    assert all(0.4 < tap[0].x < 0.5 and 0.45 < tap[0].y < 0.6 for tap in taps)


@pytest.mark.parametrize("device", [EP, ATMEL])
def test_four_finger_drag_is_four_strokes(device: str) -> None:
    touches, peak = decode_rec(f"{device}.4-finger-drag-down")
    four = strokes(touches)
    assert len(four) == 4 and peak == 4
    xs = sorted(stroke[0].x for stroke in four)
    assert all(b - a > 0.1 for a, b in itertools.pairwise(xs))  # four fingers side by side
    for stroke in four:
        travel = stroke[-1].y - stroke[0].y
        if device == ATMEL:
            assert travel > 0.25  # down the screen
        else:
            # The EP0430M09's "drag down" fingers travel toward its top edge (y 0.7 -> 0.4).
            assert travel < -0.2
        assert abs(stroke[-1].x - stroke[0].x) < 0.05


def test_dell_canvas_has_twelve_touches_at_most_five_at_once() -> None:
    touches, peak = decode_rec(DELL)
    assert len(strokes(touches)) == 12
    assert peak == 5


def test_slots_beyond_max_fingers_are_ignored() -> None:
    touches, peak = decode_rec(DELL, max_fingers=3)
    assert peak == 3
    assert len(strokes(touches)) == 9  # the touches that lived in slots 0..2
    for stroke in strokes(touches):
        assert_well_formed(stroke)


def test_one_finger_recordings_never_name_a_slot() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    assert not any(e.code == ecodes.ABS_MT_SLOT for e in rec.events if e.type == ecodes.EV_ABS)


@pytest.mark.parametrize("stem", [f"{EP}.4-finger-drag-down", DELL])
def test_btn_touch_and_single_touch_axes_change_nothing_beside_multitouch(stem: str) -> None:
    rec = evemu.touch(stem)
    mt_only = [e for e in rec.events
               if not (e.type == ecodes.EV_KEY
                       or (e.type == ecodes.EV_ABS and e.code in (ecodes.ABS_X, ecodes.ABS_Y)))]
    plain, _ = decode(rec.events, decoder_for(rec))
    bare, _ = decode(mt_only, decoder_for(rec))
    assert [(t.kind, t.x, t.y, t.t) for t in plain] == [(t.kind, t.x, t.y, t.t) for t in bare]


def test_a_single_touch_panel_decodes_like_its_multitouch_twin() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    st_only = [e for e in rec.events if e.type != ecodes.EV_ABS
               or e.code in (ecodes.ABS_X, ecodes.ABS_Y)]
    single = TouchDecoder(rec.absinfo[ecodes.ABS_X], rec.absinfo[ecodes.ABS_Y],
                          single_touch=True)
    touches, _ = decode(st_only, single)
    multi, _ = decode(rec.events, decoder_for(rec))
    assert [(t.kind, t.x, t.y, t.t) for t in touches] == [(t.kind, t.x, t.y, t.t) for t in multi]


def test_a_touch_without_a_position_yet_waits_for_one() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    # The first frame says "finger 0 is down" but not where (a decoder opened on a panel
    # whose slot already held that position would see exactly this).
    first_end = frame_ends(rec.events)[0]
    position = (ecodes.ABS_MT_POSITION_X, ecodes.ABS_MT_POSITION_Y)
    events = [e for i, e in enumerate(rec.events) if i > first_end or e.code not in position]
    touches, _ = decode(events, decoder_for(rec))
    first_x = next(e for e in events if e.code == ecodes.ABS_MT_POSITION_X)
    first_y = next(e for e in events if e.code == ecodes.ABS_MT_POSITION_Y)
    (stroke,) = strokes(touches)
    assert_well_formed(stroke)
    # Down in the frame that completed the position (x came at 14 ms, y only at 22 ms).
    assert first_x.timestamp() < first_y.timestamp()
    assert stroke[0].t == first_y.timestamp()
    assert (stroke[0].x, stroke[0].y) == pytest.approx((first_x.value / 1279,
                                                        first_y.value / 767))


# --- orientation, and the kiosk's rotation ----------------------------------------------------


@pytest.mark.parametrize(
    ("orientation", "expect"),
    [
        (Orientation(invert_x=True), lambda x, y: (1 - x, y)),
        (Orientation(invert_y=True), lambda x, y: (x, 1 - y)),
        (Orientation(invert_x=True, invert_y=True), lambda x, y: (1 - x, 1 - y)),
        (Orientation(swap_xy=True), lambda x, y: (y, x)),
        (Orientation(swap_xy=True, invert_x=True), lambda x, y: (1 - y, x)),
        (Orientation(swap_xy=True, invert_y=True), lambda x, y: (y, 1 - x)),
    ],
)
def test_orientation_swaps_then_mirrors(orientation: Orientation, expect: object) -> None:
    plain, _ = decode_rec(f"{ATMEL}.4-finger-drag-down")
    turned, _ = decode_rec(f"{ATMEL}.4-finger-drag-down", orientation=orientation)
    assert len(plain) == len(turned)
    for a, b in zip(plain, turned, strict=True):
        assert (b.kind, b.t) == (a.kind, a.t)
        assert (b.x, b.y) == pytest.approx(expect(a.x, a.y))  # type: ignore[operator]


@pytest.mark.parametrize("logical", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_every_touch_lands_on_the_logical_screen_at_every_rotation(
    logical: tuple[int, int], rotation: int
) -> None:
    w, h = physical_size(logical, rotation)
    lw, lh = logical
    for stem in RECORDINGS:
        touches, _ = decode_rec(stem)
        for t in touches:
            lx, ly = physical_to_logical((t.x * (w - 1), t.y * (h - 1)), logical, rotation)
            assert 0 <= lx <= lw - 1 and 0 <= ly <= lh - 1, (stem, t)


def test_the_panel_corners_are_the_logical_corners() -> None:
    full = evdev.AbsInfo(0, 0, 799, 0, 0, 0), evdev.AbsInfo(0, 0, 479, 0, 0, 0)
    dec = TouchDecoder(*full)
    corners = []
    for x, y in [(0, 0), (799, 479), (-20, 500)]:  # the last overshoots: clamped
        for e in (event(1, 3, ecodes.ABS_MT_TRACKING_ID, 7),
                  event(1, 3, ecodes.ABS_MT_POSITION_X, x),
                  event(1, 3, ecodes.ABS_MT_POSITION_Y, y), event(1, 0, 0, 0),
                  event(2, 3, ecodes.ABS_MT_TRACKING_ID, -1)):
            dec.feed(e)
        (up,) = dec.feed(event(2, 0, 0, 0))
        corners.append((up.x, up.y))
    assert corners == [(0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    # At 90°, the physical top-left is the logical bottom-left.
    assert physical_to_logical((0.0, 0.0), (800, 480), 90) == (0.0, 479.0)


def test_a_downward_drag_turns_with_the_kiosk() -> None:
    touches, _ = decode_rec(f"{ATMEL}.4-finger-drag-down")
    stroke = strokes(touches)[0]
    logical = (800, 480)

    def logical_travel(rotation: int) -> tuple[float, float]:
        w, h = physical_size(logical, rotation)
        a, b = ((physical_to_logical((t.x * (w - 1), t.y * (h - 1)), logical, rotation))
                for t in (stroke[0], stroke[-1]))
        return b[0] - a[0], b[1] - a[1]

    assert logical_travel(0)[1] > 100  # down the display, down the frame
    assert logical_travel(180)[1] < -100  # a screen mounted upside down: up the frame
    assert logical_travel(90)[0] > 100  # turned a quarter: along the frame's x
    assert logical_travel(270)[0] < -100


def test_touch_repr_reads_like_an_input_event() -> None:
    down = Touch("down", 3, 0.5, 0.25, 1.5)
    assert repr(down) == "Touch(down finger 3 at 0.5000, 0.2500, t 1.500000)"
    assert repr(Touch("up", 3, 0.5, 0.25, 2.0, cancelled=True)).endswith("t 2.000000 cancelled)")


# --- SYN_DROPPED and cancelling ----------------------------------------------------------------


def with_drop(
    events: Sequence[evdev.InputEvent], frame: int, *, lose: int = 1
) -> list[evdev.InputEvent]:
    """`events` with a SYN_DROPPED after the first `lose` events of frame number `frame`."""
    start = frame_ends(events)[frame - 1] + 1
    at = start + lose
    drop = event(events[at].timestamp(), ecodes.EV_SYN, ecodes.SYN_DROPPED, 0)
    return [*events[:at], drop, *events[at:]]


def test_syn_dropped_mid_stroke_cancels_it_and_a_held_finger_resumes_as_a_new_stroke() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    events = with_drop(rec.events, frame=40)
    drop_at = next(i for i, e in enumerate(events) if e.code == ecodes.SYN_DROPPED and e.type == 0)
    dec = decoder_for(rec)
    before, _ = decode(events[:drop_at], dec)
    (up,) = dec.feed(events[drop_at])
    assert up.kind == "up" and up.cancelled
    assert up.finger == before[0].finger
    assert (up.x, up.y) == (before[-1].x, before[-1].y)  # where the stroke was last seen
    assert up.t == events[drop_at].timestamp()
    assert dec.active == 0
    after, _ = decode(events[drop_at + 1:], dec)
    # The rest of the dropped frame is discarded: nothing until a whole frame arrives.
    next_end = frame_ends(events)[40]
    assert all(t.t > events[next_end].timestamp() for t in after)
    # The finger never lifted: it comes back as a new stroke once the kernel has told us
    # both its x and its y again, and ends with the recording's real lift.
    (resumed,) = strokes(after)
    assert_well_formed(resumed)
    assert not resumed[-1].cancelled
    assert resumed[-1].t == rec.events[-1].timestamp()
    first_x_after = next(e for e in events[next_end:] if e.code == ecodes.ABS_MT_POSITION_X)
    assert resumed[0].t == first_x_after.timestamp()
    assert resumed[0].finger != up.finger


def test_syn_dropped_ends_every_stroke_and_later_touches_decode_as_if_fresh() -> None:
    drag = evemu.touch(f"{ATMEL}.4-finger-drag-down")
    taps = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    events = with_drop(drag.events, frame=12, lose=3)
    # Taps on the same panel a second after the drag ended.
    events += shifted(taps.events, drag.events[-1].timestamp() + 1.0)
    drop_at = next(i for i, e in enumerate(events) if e.code == ecodes.SYN_DROPPED and e.type == 0)
    dec = decoder_for(drag)
    decode(events[:drop_at], dec)
    assert dec.active == 4
    cancelled = dec.feed(events[drop_at])
    assert len(cancelled) == 4 and all(t.kind == "up" and t.cancelled for t in cancelled)
    rest, _ = decode(events[drop_at + 1:], dec)
    assert dec.active == 0
    tap_time = drag.events[-1].timestamp() + 1.0
    during = [t for t in rest if t.t < tap_time]
    later = [t for t in rest if t.t >= tap_time]
    # Fingers held through the drop come back as strokes and all end with their lifts.
    for stroke in strokes(during):
        assert_well_formed(stroke)
    assert not any(t.cancelled for t in during)
    fresh, _ = decode(shifted(taps.events, tap_time), decoder_for(taps))
    assert [(t.kind, t.x, t.y, t.t) for t in later] == [(t.kind, t.x, t.y, t.t) for t in fresh]


def test_a_stroke_whose_lift_was_lost_ends_when_no_finger_is_left() -> None:
    rec = evemu.touch(f"{EP}.1-finger-drag-up-down")
    # The -1 went missing (after a resync that guessed the slot wrong, say); BTN_TOUCH 0,
    # the kernel's "no contact at all", is still there in the last frame.
    events = [e for e in rec.events if not (e.code == ecodes.ABS_MT_TRACKING_ID and e.value < 0)]
    touches, _ = decode(events, decoder_for(rec))
    (stroke,) = strokes(touches)
    assert stroke[-1].kind == "up" and stroke[-1].cancelled
    assert stroke[-1].t == rec.events[-1].timestamp()


def test_cancel_all_ends_open_strokes_and_forgets_the_slots() -> None:
    rec = evemu.touch(f"{EP}.4-finger-drag-down")
    ends = frame_ends(rec.events)
    dec = decoder_for(rec)
    before, _ = decode(rec.events[: ends[30] + 1], dec)
    ups = dec.cancel_all(9.0)
    assert len(ups) == 4 and dec.active == 0
    assert all(u.cancelled and u.t == 9.0 for u in ups)
    last = {t.finger: (t.x, t.y) for t in before}
    assert {u.finger: (u.x, u.y) for u in ups} == last
    assert dec.cancel_all(9.5) == []


# --- finding the device --------------------------------------------------------------------


def fake_devices() -> dict[str, Recording]:
    ep = evemu.touch(f"{EP}.1-finger-drag-up-down")
    return {
        "/dev/input/event0": evemu.keyboard(),
        "/dev/input/event1": evemu.touchpad(ep),
        "/dev/input/event2": ep,
        "/dev/input/event3": evemu.touch(f"{ATMEL}.1-finger-fast-taps"),
    }


def test_find_touchscreen_skips_a_keyboard_and_a_touchpad() -> None:
    devices = fake_devices()
    opened: list[FakeDevice] = []

    def opener(path: str) -> FakeDevice:
        if path == "/dev/input/event7":
            raise PermissionError(errno.EACCES, "Permission denied", path)
        opened.append(FakeDevice(devices[path], path))
        return opened[-1]

    paths = ["/dev/input/event7", *devices]
    assert find_touchscreen(paths, opener) == "/dev/input/event2"
    assert all(d.closed for d in opened)
    assert find_touchscreen(["/dev/input/event0", "/dev/input/event1"], opener) is None
    assert find_touchscreen([], opener) is None


# --- the panel: reading, unplug, replug -------------------------------------------------------


class Devices:
    """A fake /dev/input: what the lister lists (scripted, one listing per call) and fresh
    handles on the same recordings for every open, as opening a node twice gives."""

    def __init__(self, *listings: dict[str, FakeDevice]) -> None:
        self.listings = list(listings)
        self.nodes = {path: node for listing in listings for path, node in listing.items()}
        self.opened: list[FakeDevice] = []

    def lister(self) -> list[str]:
        listing = self.listings.pop(0) if len(self.listings) > 1 else self.listings[0]
        return list(listing)

    def opener(self, path: str) -> FakeDevice:
        node = self.nodes[path]
        self.opened.append(FakeDevice(node.recording, path, node.unplug_at_end))
        return self.opened[-1]


async def test_unplug_cancels_the_stroke_logs_once_and_replug_is_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="drivers.touch")
    drag = evemu.touch(f"{EP}.1-finger-drag-up-down")
    taps = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    half = drag.with_events(drag.events[: frame_ends(drag.events)[60] + 1])
    keyboard = FakeDevice(evemu.keyboard(), "/dev/input/event0")
    panel = FakeDevice(half, "/dev/input/event4", unplug_at_end=True)
    again = FakeDevice(taps, "/dev/input/event5")
    gone = {"/dev/input/event0": keyboard}
    devices = Devices(
        {"/dev/input/event0": keyboard, "/dev/input/event4": panel},
        gone, gone, gone, gone,  # several rescans find nothing
        {"/dev/input/event0": keyboard, "/dev/input/event5": again},
    )
    batches: list[list[Touch]] = []
    stop = asyncio.Event()

    def on_touch(batch: list[Touch]) -> None:
        batches.append(batch)
        if sum(t.kind == "up" and not t.cancelled for b in batches for t in b) == 9:
            stop.set()

    touch_panel = TouchPanel(on_touch, rescan_s=0.005, opener=devices.opener,
                             lister=devices.lister)
    await asyncio.wait_for(touch_panel.run(stop), 2.0)

    touches = [t for b in batches for t in b]
    first, *nine = strokes(touches)
    assert first[0].kind == "down" and first[-1].kind == "up" and first[-1].cancelled
    assert first[-1].t == half.events[-1].timestamp()  # the last time the panel spoke
    assert len(first) == 62  # 61 frames (a down, 60 moves), then the cancelled up
    assert len(nine) == 9 and all([t.kind for t in tap] == ["down", "up"] for tap in nine)
    assert not any(t.cancelled for tap in nine for t in tap)
    messages = [r.getMessage() for r in caplog.records]
    assert messages.count("touch panel gone; looking for it every 0.005 s") == 1
    assert sum(m.startswith("touch panel back") for m in messages) == 1
    assert sum(m.startswith("touch panel found") for m in messages) == 1
    assert all(d.closed for d in devices.opened)
    assert not any(d.grabbed for d in devices.opened)
    assert not touch_panel.connected


async def test_stopping_mid_stroke_ends_it_and_closes_the_device() -> None:
    rec = evemu.touch(f"{EP}.4-finger-drag-down")
    part = rec.with_events(rec.events[: frame_ends(rec.events)[20] + 1])
    device = FakeDevice(part, "/dev/input/event2")
    batches: list[list[Touch]] = []
    stop = asyncio.Event()
    panel = TouchPanel(batches.append, path="/dev/input/event2", grab=True,
                       opener=lambda path: device, lister=list)
    task = asyncio.create_task(panel.run(stop))
    for _ in range(100):
        await asyncio.sleep(0)
    assert panel.connected and device.grabbed
    stop.set()
    await asyncio.wait_for(task, 1.0)
    last = batches[-1]
    assert len(last) == 4 and all(t.kind == "up" and t.cancelled for t in last)
    assert device.closed and not panel.connected


async def test_a_configured_path_that_is_missing_is_waited_for(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="drivers.touch")
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    attempts = 0

    def opener(path: str) -> FakeDevice:
        nonlocal attempts
        attempts += 1
        if attempts < 4:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        return FakeDevice(rec, path)

    taps: list[Touch] = []
    stop = asyncio.Event()

    def on_touch(batch: list[Touch]) -> None:
        taps.extend(t for t in batch if t.kind == "down")
        if len(taps) == 9:
            stop.set()

    panel = TouchPanel(on_touch, path="/dev/input/touch", rescan_s=0.005, opener=opener,
                       lister=lambda: pytest.fail("a configured path is not searched for"))
    await asyncio.wait_for(panel.run(stop), 2.0)
    assert len(taps) == 9
    messages = [r.getMessage() for r in caplog.records]
    assert messages.count("no touch panel at /dev/input/touch; looking for it every 0.005 s") == 1


async def test_no_permission_says_which_group_is_missing(caplog: pytest.LogCaptureFixture) -> None:
    def opener(path: str) -> FakeDevice:
        raise PermissionError(errno.EACCES, "Permission denied", path)

    stop = asyncio.Event()
    panel = TouchPanel(lambda batch: None, rescan_s=0.005, opener=opener,
                       lister=lambda: ["/dev/input/event3"])
    task = asyncio.create_task(panel.run(stop))
    await asyncio.sleep(0.03)
    stop.set()
    await asyncio.wait_for(task, 1.0)
    (record,) = [r for r in caplog.records if r.name == "drivers.touch"]
    assert "no touch panel found" in record.getMessage()
    assert "/dev/input/event3" in record.getMessage()
    assert "'input' group" in record.getMessage()


async def test_a_spurious_wakeup_is_not_an_unplug() -> None:
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")

    class Flaky(FakeDevice):
        woken = 0

        async def async_read(self) -> list[evdev.InputEvent]:
            self.woken += 1
            if self.woken == 3:
                raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
            return await super().async_read()

    device = Flaky(rec, "/dev/input/event3")
    downs: list[Touch] = []
    stop = asyncio.Event()

    def on_touch(batch: list[Touch]) -> None:
        downs.extend(t for t in batch if t.kind == "down")
        if len(downs) == 9:
            stop.set()

    panel = TouchPanel(on_touch, path=device.path, opener=lambda path: device, lister=list)
    await asyncio.wait_for(panel.run(stop), 1.0)
    assert len(downs) == 9 and device.woken > 3


async def test_a_bug_in_the_receiver_is_not_swallowed() -> None:
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    device = FakeDevice(rec, "/dev/input/event3")

    def on_touch(batch: list[Touch]) -> None:
        raise ZeroDivisionError

    panel = TouchPanel(on_touch, path=device.path, opener=lambda path: device, lister=list)
    with pytest.raises(ZeroDivisionError):
        await asyncio.wait_for(panel.run(asyncio.Event()), 1.0)
    assert device.closed


async def test_a_node_that_opens_but_cannot_be_read_is_retried_at_the_rescan_pace() -> None:
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    opened: list[FakeDevice] = []

    def opener(path: str) -> FakeDevice:
        opened.append(FakeDevice(rec.with_events([]), path, unplug_at_end=True))
        return opened[-1]

    stop = asyncio.Event()
    panel = TouchPanel(lambda batch: None, path="/dev/input/event3", rescan_s=0.01,
                       opener=opener, lister=list)
    task = asyncio.create_task(panel.run(stop))
    await asyncio.sleep(0.05)
    stop.set()
    await asyncio.wait_for(task, 1.0)
    assert 2 <= len(opened) <= 7  # not a busy loop
    assert all(d.closed for d in opened)


class PipeDevice(evdev.eventio_async.EventIO):
    """evdev's own asyncio reading on a pipe that carries a recording's raw input_events."""

    def __init__(self, rec: Recording, path: str) -> None:
        self.fd, self._writer = os.pipe()
        os.set_blocking(self.fd, False)
        self.fake = FakeDevice(rec, path)
        self.path, self.name = path, rec.name
        raw = b"".join(struct.pack("llHHi", e.sec, e.usec, e.type, e.code, e.value)
                       for e in rec.events)
        os.write(self._writer, raw)

    def capabilities(self, verbose: bool = False, absinfo: bool = True) -> dict[int, list[object]]:
        return self.fake.capabilities(verbose, absinfo)

    def input_props(self, verbose: bool = False) -> list[int]:
        return self.fake.input_props()

    def absinfo(self, axis_num: int) -> evdev.AbsInfo:
        return self.fake.absinfo(axis_num)

    def close(self) -> None:
        super().close()  # takes the fd off the loop
        os.close(self.fd)
        os.close(self._writer)
        self.fd = -1


async def test_the_panel_reads_through_evdevs_own_async_read() -> None:
    rec = evemu.touch(f"{ATMEL}.1-finger-fast-taps")
    device = PipeDevice(rec, "/dev/input/event3")
    touches: list[Touch] = []
    stop = asyncio.Event()

    def on_touch(batch: list[Touch]) -> None:
        touches.extend(batch)
        if len(touches) == 18:
            stop.set()

    panel = TouchPanel(on_touch, path=device.path, opener=lambda path: device, lister=list)
    await asyncio.wait_for(panel.run(stop), 1.0)
    fresh, _ = decode(rec.events, decoder_for(rec))
    assert [(t.kind, t.x, t.y, t.t) for t in touches] == [(t.kind, t.x, t.y, t.t) for t in fresh]
    assert device.fd == -1
