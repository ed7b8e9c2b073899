"""Drawing on the kiosk itself: the touch panel's real recordings and a mouse drag become
live ink in the back buffer and, on lift, a stroke for the seat whose drawing area it is.
Touches elsewhere are taps; SDL's own touch events are ignored when evdev is the source."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from evdev import ecodes

from appliance.kiosk import GAME_SCREENS, Kiosk
from appliance.kiosk.intents import CanvasSpec, DrawStroke, PressButton
from appliance.kiosk.render import Frame, KioskRenderer
from appliance.kiosk.strokes import SHEET_HEIGHT, SHEET_WIDTH
from drivers.touch import Touch, TouchDecoder
from tests import evemu

CANVAS = CanvasSpec(seat=2, kind="stroke", colour="#d02020", width=12)


def easel_screen(r: KioskRenderer, f: Frame) -> None:
    """A test game's screen: a white sheet (16:10) in the middle that seat 2 draws on,
    and a button in the top-left corner."""
    w, h = f.surface.get_size()
    sheet = pygame.Rect(0, 0, w // 2, w // 2 * SHEET_HEIGHT // SHEET_WIDTH)
    sheet.center = (w // 2, h // 2)
    f.surface.fill((255, 255, 255), sheet)
    r.add_canvas(sheet, CANVAS)
    r.add_target(pygame.Rect(0, 0, w // 8, h // 8), PressButton("die"))


VIEW: dict[str, Any] = {"version": 1, "phase": "playing", "lang": "en",
                        "match": {"game": "easel-test", "state": {}}}


@pytest.fixture
def kiosk(request: pytest.FixtureRequest) -> Iterator[Kiosk]:
    GAME_SCREENS["easel-test"] = easel_screen
    rotation = getattr(request, "param", 0)
    made = Kiosk(size=(1280, 720), rotation=rotation)
    made.update(VIEW, 0.0)
    yield made
    made.close()
    GAME_SCREENS.pop("easel-test")


def sheet_rect(kiosk: Kiosk) -> pygame.Rect:
    return kiosk.renderer.canvases[0][0]


def into_sheet(kiosk: Kiosk, stem: str) -> list[Any]:
    """Replay `stem` scaled into the middle of the kiosk's sheet (where a child would draw)."""
    rect = sheet_rect(kiosk)
    w, h = kiosk.size
    recording = evemu.touch(stem)
    decoder = TouchDecoder(recording.absinfo[ecodes.ABS_MT_POSITION_X],
                           recording.absinfo[ecodes.ABS_MT_POSITION_Y])
    for event in recording.events:
        touches = [
            Touch(t.kind, t.finger, (rect.x + 2 + t.x * (rect.w - 4)) / (w - 1),
                  (rect.y + 2 + t.y * (rect.h - 4)) / (h - 1), t.t, t.cancelled)
            for t in decoder.feed(event)
        ]
        if touches:
            kiosk.feed_touches(touches)
    return kiosk.poll()


def test_four_fingers_on_the_sheet_are_four_strokes_for_its_seat(kiosk: Kiosk) -> None:
    intents = into_sheet(kiosk, "ep0430m09.4-finger-drag-down")
    strokes = [i for i in intents if isinstance(i, DrawStroke)]
    assert len(strokes) == 4
    for stroke in strokes:
        assert stroke.canvas == CANVAS
        xs = [x for x, _, _ in stroke.points]
        ys = [y for _, y, _ in stroke.points]
        ts = [t for _, _, t in stroke.points]
        assert all(0 <= x <= SHEET_WIDTH for x in xs) and all(0 <= y <= SHEET_HEIGHT for y in ys)
        # The EP0430M09's "drag down" fingers travel toward its top edge (tests/test_touch.py).
        assert ys[-1] < ys[0] - SHEET_HEIGHT / 5, "the fingers travel across the sheet"
        assert ts[0] == 0 and ts == sorted(ts), "times in ms from the stroke's start"


def test_ink_is_in_the_back_buffer_before_any_redraw(kiosk: Kiosk) -> None:
    frames = kiosk.frames_drawn
    rect = sheet_rect(kiosk)
    w, h = kiosk.size
    a = (rect.x + 40, rect.centery)
    b = (rect.right - 40, rect.centery)
    kiosk.feed_touches([Touch("down", 1, a[0] / (w - 1), a[1] / (h - 1), 1.0)])
    kiosk.feed_touches([Touch("move", 1, b[0] / (w - 1), b[1] / (h - 1), 1.1)])
    assert kiosk.frame.get_at((rect.centerx, rect.centery))[:3] == (0xD0, 0x20, 0x20)
    assert kiosk.frames_drawn == frames, "ink does not redraw the frame"
    assert kiosk.present_ink() and not kiosk.present_ink(), "shown once"
    # A redraw while the finger is still down keeps the ink.
    kiosk.renderer.invalidate()
    kiosk.update(dict(VIEW, version=2), 0.0)
    assert kiosk.frame.get_at((rect.centerx, rect.centery))[:3] == (0xD0, 0x20, 0x20)
    kiosk.feed_touches([Touch("up", 1, b[0] / (w - 1), b[1] / (h - 1), 1.2)])
    (stroke,) = kiosk.poll()
    assert isinstance(stroke, DrawStroke) and len(stroke.points) == 2
    assert stroke.points[1][2] == 100


def test_a_cancelled_touch_keeps_what_was_drawn(kiosk: Kiosk) -> None:
    rect = sheet_rect(kiosk)
    w, h = kiosk.size
    x, y = (rect.centerx) / (w - 1), rect.centery / (h - 1)
    kiosk.feed_touches([Touch("down", 7, x, y, 5.0), Touch("move", 7, x + 0.05, y, 5.1)])
    kiosk.feed_touches([Touch("up", 7, x + 0.05, y, 5.2, cancelled=True)])
    (stroke,) = kiosk.poll()
    assert isinstance(stroke, DrawStroke) and len(stroke.points) == 2


def test_a_touch_off_the_sheet_is_a_tap(kiosk: Kiosk) -> None:
    w, h = kiosk.size
    kiosk.feed_touches([Touch("down", 1, 10 / (w - 1), 10 / (h - 1), 1.0)])
    kiosk.feed_touches([Touch("up", 1, 12 / (w - 1), 11 / (h - 1), 1.1)])
    assert kiosk.poll() == [PressButton("die")]


def test_nine_real_taps_on_the_sheet_are_nine_dots(kiosk: Kiosk) -> None:
    taps = into_sheet(kiosk, "atmel-maxtouch.1-finger-fast-taps")
    assert len(taps) == 9 and all(isinstance(i, DrawStroke) for i in taps)


def test_a_mouse_drag_draws_on_a_desktop(kiosk: Kiosk) -> None:
    rect = sheet_rect(kiosk)
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    for dx in range(10, 200, 10):
        pygame.event.post(pygame.event.Event(
            pygame.MOUSEMOTION, pos=(rect.centerx + dx, rect.centery), rel=(10, 0),
            buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP,
                                         pos=(rect.centerx + 190, rect.centery), button=1))
    (stroke,) = kiosk.poll()
    assert isinstance(stroke, DrawStroke) and len(stroke.points) == 20
    xs = [x for x, _, _ in stroke.points]
    assert xs == sorted(xs) and xs[0] == pytest.approx(SHEET_WIDTH / 2, abs=4)


def test_sdl_touches_are_ignored_when_the_panel_is_read_directly(kiosk: Kiosk) -> None:
    kiosk.touch_source = "evdev"
    pygame.event.clear()
    for etype in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(etype, touch_id=1, finger_id=0, x=0.01, y=0.01,
                                             dx=0, dy=0, pressure=1))
    assert kiosk.poll() == []
    kiosk.touch_source = "sdl"
    for etype in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(etype, touch_id=1, finger_id=0, x=0.01, y=0.01,
                                             dx=0, dy=0, pressure=1))
    assert kiosk.poll() == [PressButton("die")]


@pytest.mark.parametrize("kiosk", [90, 180, 270], indirect=True)
def test_touch_follows_the_rotated_kiosk(kiosk: Kiosk) -> None:
    """The panel reports the physical screen; the kiosk turns it into its upright frame."""
    rect = sheet_rect(kiosk)
    target = (rect.x + rect.w // 4, rect.y + rect.h // 4)
    pw, ph = kiosk.screen.get_size()
    px, py = kiosk.to_physical(target)
    kiosk.feed_touches([Touch("down", 3, px / (pw - 1), py / (ph - 1), 0.0)])
    kiosk.feed_touches([Touch("up", 3, px / (pw - 1), py / (ph - 1), 0.1)])
    (stroke,) = kiosk.poll()
    assert isinstance(stroke, DrawStroke)
    x, y, _ = stroke.points[0]
    assert x == pytest.approx(SHEET_WIDTH / 4, abs=6) and y == pytest.approx(SHEET_HEIGHT / 4,
                                                                             abs=6)


async def test_a_panel_unplugged_mid_stroke_keeps_the_stroke(kiosk: Kiosk) -> None:
    """The real driver reads half of a real drag, then the panel is pulled out: the child's
    half-stroke still reaches the game, and the kiosk goes on."""
    import asyncio

    from drivers.touch import TouchPanel
    from tests.evemu import FakeDevice

    drag = evemu.touch("ep0430m09.1-finger-drag-up-down")
    ends = [i for i, e in enumerate(drag.events)
            if e.type == ecodes.EV_SYN and e.code == ecodes.SYN_REPORT]
    half = drag.with_events(drag.events[: ends[60] + 1])
    device = FakeDevice(half, "/dev/input/event4", unplug_at_end=True)
    rect = sheet_rect(kiosk)
    w, h = kiosk.size
    stop = asyncio.Event()
    got: list[Any] = []

    def into_sheet_then_kiosk(touches: list[Touch]) -> None:
        kiosk.feed_touches([
            Touch(t.kind, t.finger, (rect.x + 2 + t.x * (rect.w - 4)) / (w - 1),
                  (rect.y + 2 + t.y * (rect.h - 4)) / (h - 1), t.t, t.cancelled)
            for t in touches
        ])
        got.extend(kiosk.poll())
        if got:
            stop.set()

    panel = TouchPanel(into_sheet_then_kiosk, path=device.path, rescan_s=0.01,
                       opener=lambda path: device, lister=list)
    await asyncio.wait_for(panel.run(stop), 2.0)
    (stroke,) = got
    assert isinstance(stroke, DrawStroke) and len(stroke.points) > 30
    assert not kiosk.ink.strokes, "no stroke is left open"
