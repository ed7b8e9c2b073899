"""Presenting the kiosk's frame: live ink is shown as dirty rectangles (turned with the
mount, so the physical screen always equals the upright frame turned), at most 30 times a
second, with every point of every stroke kept; through the window surface (turned on the
CPU) and through SDL's renderer (a streaming texture the renderer turns: SDL's software
renderer under the dummy driver, the GPU's on a Pi), pixel for pixel the same picture."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pygame
import pytest
from pygame._sdl2 import video

from appliance.kiosk import GAME_SCREENS, INK_INTERVAL_S, Kiosk, run_kiosk
from appliance.kiosk import present as present_module
from appliance.kiosk.display import KMSDRM_INDEX_VARIABLE, DisplayChoice, open_window
from appliance.kiosk.intents import DrawStroke
from appliance.kiosk.present import (
    RendererPresenter,
    SurfacePresenter,
    choose_present,
    open_presenter,
)
from appliance.kiosk.rotation import (
    ROTATIONS,
    logical_to_physical,
    physical_rect,
    physical_size,
    rotate_frame,
    rotate_region,
)
from appliance.system.config import ConfigError, load
from drivers.touch import Touch
from tests.conftest import FakeClock
from tests.test_ink import VIEW, easel_screen


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def make_kiosk(clock: FakeClock) -> Iterator[type[Kiosk]]:
    GAME_SCREENS["easel-test"] = easel_screen
    made: list[Kiosk] = []

    def factory(
        rotation: int, size: tuple[int, int] = (640, 400), present: str = "surface"
    ) -> Kiosk:
        kiosk = Kiosk(size, rotation, clock=clock, present=present)
        kiosk.update(VIEW, 0.0)
        made.append(kiosk)
        return kiosk

    yield factory  # type: ignore[misc]
    for kiosk in made:
        kiosk.close()
    GAME_SCREENS.pop("easel-test", None)


def shown(kiosk: Kiosk) -> bytes:
    return pygame.image.tobytes(kiosk.screen, "RGB")


def upright_turned(kiosk: Kiosk) -> bytes:
    return pygame.image.tobytes(rotate_frame(kiosk.frame, kiosk.rotation), "RGB")


Kind = Literal["down", "move", "up"]


def touch_at(kiosk: Kiosk, kind: Kind, logical: tuple[int, int], t: float) -> Touch:
    """A touch panel report for the logical point, in the panel's physical 0..1 units."""
    w, h = kiosk.screen.get_size()
    px, py = kiosk.to_physical(logical)
    return Touch(kind, 1, px / (w - 1), py / (h - 1), t)


def zigzag(kiosk: Kiosk, n: int) -> list[tuple[int, int]]:
    sheet = kiosk.renderer.canvases[0][0]
    return [(sheet.x + 5 + (i * 7) % (sheet.w - 10), sheet.y + 5 + (i * 3) % (sheet.h - 10))
            for i in range(n)]


PRESENTS = ("surface", "renderer")


@pytest.mark.parametrize("present", PRESENTS)
@pytest.mark.parametrize("rotation", ROTATIONS)
def test_ink_shown_in_dirty_rectangles_matches_the_frame_in_every_rotation(
    make_kiosk, clock: FakeClock, rotation: int, present: str
) -> None:
    kiosk = make_kiosk(rotation, present=present)
    wanted = RendererPresenter if present == "renderer" else SurfacePresenter
    assert isinstance(kiosk.presenter, wanted)
    assert kiosk.display_size == physical_size(kiosk.size, rotation)
    assert shown(kiosk) == upright_turned(kiosk)
    points = zigzag(kiosk, 40)
    kiosk.feed_touches([touch_at(kiosk, "down", points[0], 0.0)])
    for i, point in enumerate(points[1:], 1):
        kiosk.feed_touches([touch_at(kiosk, "move", point, i * 0.04)])
        dirty = kiosk.ink.dirty
        assert dirty is not None
        assert dirty.w * dirty.h < kiosk.size[0] * kiosk.size[1] // 4, "a segment, not a frame"
        clock.now += INK_INTERVAL_S
        assert kiosk.present_ink()
        # The picture on the mounted screen is the upright frame turned, pixel for pixel.
        assert shown(kiosk) == upright_turned(kiosk), f"after point {i}"
    assert kiosk.ink_frames_shown == len(points) - 1


def test_a_dirty_rectangle_maps_onto_the_pixels_the_turn_moves_it_to() -> None:
    frame = pygame.Surface((64, 40))
    for x in range(64):
        for y in range(40):
            frame.set_at((x, y), (x * 4, y * 6, (x ^ y) * 3 % 256))
    for rotation in ROTATIONS:
        turned = rotate_frame(frame, rotation)
        for rect in (pygame.Rect(0, 0, 1, 1), pygame.Rect(3, 5, 20, 9),
                     pygame.Rect(50, 30, 14, 10), frame.get_rect()):
            target = physical_rect(rect, frame.get_size(), rotation)
            part = rotate_frame(frame.subsurface(rect), rotation)
            assert target.size == part.get_size()
            assert pygame.image.tobytes(turned.subsurface(target), "RGB") == \
                pygame.image.tobytes(part, "RGB"), (rotation, rect)


def test_a_screen_of_another_pixel_format_gets_the_same_picture() -> None:
    """A 16-bit screen (some DPI panels) under a 32-bit frame: converted, not copied raw."""
    frame = pygame.Surface((64, 40), depth=32)
    frame.fill((255, 0, 0), pygame.Rect(0, 0, 32, 40))
    frame.fill((0, 0, 255), pygame.Rect(32, 0, 32, 40))
    screen = pygame.Surface((40, 64), depth=16)
    assert rotate_region(frame, screen, frame.get_rect(), 90) == screen.get_rect()
    assert screen.get_at((20, 10))[:3] == (255, 0, 0)  # the frame's left half, now on top
    assert screen.get_at((20, 50))[:3] == (0, 0, 255)


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_a_physical_rect_is_spanned_by_its_corners_maps(rotation: int) -> None:
    rng = random.Random(rotation)
    logical = (800, 480)
    for _ in range(500):
        x, y = rng.randrange(800), rng.randrange(480)
        rect = pygame.Rect(x, y, rng.randint(1, 800 - x), rng.randint(1, 480 - y))
        corners = [logical_to_physical(c, logical, rotation)
                   for c in ((rect.left, rect.top), (rect.right - 1, rect.bottom - 1))]
        xs, ys = sorted(int(c[0]) for c in corners), sorted(int(c[1]) for c in corners)
        spanned = pygame.Rect(xs[0], ys[0], xs[1] - xs[0] + 1, ys[1] - ys[0] + 1)
        assert physical_rect(rect, logical, rotation) == spanned


@pytest.mark.parametrize(("rotation", "present"), [(0, "surface"), (90, "surface"),
                                                   (90, "renderer")])
def test_ink_is_shown_at_most_30_times_a_second_and_no_point_is_lost(
    make_kiosk, clock: FakeClock, rotation: int, present: str
) -> None:
    """A panel reporting every 4 ms for a second: about 30 presents, not 250, and the stroke
    the game gets has every point the finger went through."""
    kiosk = make_kiosk(rotation, present=present)
    points = zigzag(kiosk, 251)
    kiosk.feed_touches([touch_at(kiosk, "down", points[0], 0.0)])
    for i, point in enumerate(points[1:], 1):
        clock.now += 0.004
        kiosk.feed_touches([touch_at(kiosk, "move", point, i * 0.004)])
        kiosk.present_ink()
        wait = kiosk.ink_wait()
        assert wait is None or 0 <= wait <= INK_INTERVAL_S
    # 4 ms reports: a present every 9th report (36 ms), never more than 30 a second.
    assert 25 <= kiosk.ink_frames_shown <= 31
    kiosk.feed_touches([touch_at(kiosk, "up", points[-1], 1.0)])
    (stroke,) = kiosk.poll()
    assert isinstance(stroke, DrawStroke)
    assert len(stroke.points) == len(set(points)) == len(points)
    # The last segments, held back by the cap, are shown once it allows.
    clock.now += INK_INTERVAL_S
    kiosk.present_ink()
    assert kiosk.ink_wait() is None
    assert shown(kiosk) == upright_turned(kiosk)


async def test_the_kiosk_loop_shows_held_back_ink_without_waiting_for_its_idle_tick() -> None:
    GAME_SCREENS["easel-test"] = easel_screen
    kiosk = Kiosk((640, 400), 90)
    try:
        kiosk.update(VIEW, 0.0)
        stop = asyncio.Event()
        # A 10 s idle tick: only the ink cap's own wait can show the second move in time.
        task = asyncio.create_task(
            run_kiosk(kiosk, lambda: VIEW, lambda: 0.0, lambda intent: None, stop, 10.0)
        )
        await asyncio.sleep(0.05)
        a, b, c = zigzag(kiosk, 3)
        kiosk.feed_touches([touch_at(kiosk, "down", a, 0.0), touch_at(kiosk, "move", b, 0.01)])
        await asyncio.sleep(0.005)
        kiosk.feed_touches([touch_at(kiosk, "move", c, 0.02)])  # within the cap: held back
        await asyncio.sleep(0.005)
        assert kiosk.ink.dirty is not None
        await asyncio.sleep(3 * INK_INTERVAL_S)
        assert kiosk.ink.dirty is None and kiosk.ink_frames_shown == 2
        assert shown(kiosk) == upright_turned(kiosk)
        stop.set()
        kiosk.wake()
        await asyncio.wait_for(task, 5)
    finally:
        kiosk.close()
        GAME_SCREENS.pop("easel-test", None)


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_a_full_redraw_through_the_renderer_is_the_frame_turned_at_odd_sizes(
    make_kiosk, rotation: int
) -> None:
    """The renderer turns about the texture's corner: no half-pixel shift when the sides
    differ by an odd number (a 1365x768 window on a laptop)."""
    kiosk = make_kiosk(rotation, (641, 400), "renderer")
    kiosk.frame.fill((200, 30, 30), pygame.Rect(0, 0, 1, 400))  # the left column
    kiosk.frame.fill((30, 30, 200), pygame.Rect(0, 399, 641, 1))  # the bottom row
    kiosk._present()
    assert kiosk.screen.get_size() == physical_size((641, 400), rotation)
    assert shown(kiosk) == upright_turned(kiosk)


def test_the_renderer_is_chosen_for_a_rotated_pi_screen_only() -> None:
    assert choose_present("auto", 90, "kmsdrm").renderer
    assert choose_present("auto", 270, "KMSDRM").renderer
    assert not choose_present("auto", 0, "kmsdrm").renderer, "upright: the surface is cheapest"
    # On a desktop SDL's renderers may be Mesa's or SDL's software ones: slower than the CPU.
    assert not choose_present("auto", 90, None).renderer
    assert not choose_present("auto", 90, "x11").renderer
    assert choose_present("renderer", 0, "dummy").renderer
    assert not choose_present("surface", 90, "kmsdrm").renderer
    with pytest.raises(ValueError, match=r"display\.present must be one of auto, renderer"):
        choose_present("gpu", 90, "kmsdrm")


def test_without_a_renderer_the_frame_is_turned_on_the_cpu_and_the_log_says_why(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_renderer(*args: object, **kwargs: object) -> None:
        raise pygame.error("Couldn't find matching render driver")

    monkeypatch.setattr(video, "Renderer", no_renderer)
    monkeypatch.delenv(KMSDRM_INDEX_VARIABLE, raising=False)

    def window_on_a_chosen_card(*args: object, **kwargs: object) -> pygame.Window:
        os.environ[KMSDRM_INDEX_VARIABLE] = "2"  # as the card search does for kmsdrm
        return open_window(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(present_module, "open_window", window_on_a_chosen_card)
    headless = DisplayChoice("dummy", False, True, "test")
    with caplog.at_level("WARNING", logger="appliance.kiosk.present"):
        presenter = open_presenter(headless, (320, 200), 90, present="renderer")
    try:
        assert isinstance(presenter, SurfacePresenter)
        assert presenter.display_size == (200, 320)
        frame = presenter.new_frame()
        frame.fill((0, 120, 0), pygame.Rect(0, 0, 320, 10))  # the top band
        presenter.present(frame)
        assert presenter.shown(frame).get_at((195, 100))[:3] == (0, 120, 0), "now the right"
    finally:
        presenter.close()
    (record,) = caplog.records
    assert "Couldn't find matching render driver" in record.getMessage()
    assert "turned on the CPU" in record.getMessage()
    # The surface's start chooses the card again, rather than take it for the operator's.
    assert KMSDRM_INDEX_VARIABLE not in os.environ


class FirstPresentUnseen:
    """A renderer as SDL's kmsdrm behaves in make boot-check's VM: the first present after
    the window is made never reaches the screen; the screen shows each later one."""

    def __init__(self) -> None:
        self.draw_color = (255, 0, 255, 255)
        self.target = "nothing"
        self.presents = 0
        self.screen = "black"

    def clear(self) -> None:
        self.target = f"cleared {self.draw_color}"

    def present(self) -> None:
        self.presents += 1
        if self.presents > 1:
            self.screen = self.target


def test_the_renderer_spends_the_unseen_first_present_on_the_background() -> None:
    """The kiosk presents only when something changes: were its lobby the first present,
    a kmsdrm screen would stay black until the first phone joined."""
    screen = FirstPresentUnseen()
    presenter = RendererPresenter(None, screen, 0)  # type: ignore[arg-type]
    assert presenter.texture is None  # no frame yet, only the background
    screen.target = "the lobby"  # the kiosk's first frame, drawn and presented
    screen.present()
    assert screen.screen == "the lobby"


def test_the_present_setting_is_read_and_a_wrong_one_is_named(tmp_path: Path) -> None:
    assert load(files=[], env={"EASEL_DISPLAY_PRESENT": "surface"}).display.present == "surface"
    assert load(files=[], env={}).display.present == "auto"
    path = tmp_path / "appliance.toml"
    path.write_text('[display]\npresent = "gpu"\n')
    with pytest.raises(ConfigError, match=r"display\.present = 'gpu'.*'auto', 'renderer'"):
        load(files=[path], env={})


def test_a_resized_renderer_window_gets_a_frame_and_texture_of_its_new_size(make_kiosk) -> None:
    kiosk = make_kiosk(90, (640, 400), "renderer")
    assert isinstance(kiosk.presenter, RendererPresenter)
    kiosk.presenter.window.size = (300, 500)  # the window manager's doing, on a desktop
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=300, y=500))
    kiosk.poll()
    assert kiosk.display_size == (300, 500)
    assert kiosk.size == kiosk.frame.get_size() == (500, 300)
    assert kiosk.update(VIEW, 0.0), "laid out again at the new size"
    assert shown(kiosk) == upright_turned(kiosk)


@pytest.mark.parametrize(("fullscreen", "toggles"), [(True, 0), (False, 1)],
                         ids=["the-box", "a-desktop-window"])
def test_f11_toggles_a_desktop_window_only(monkeypatch: pytest.MonkeyPatch, clock: FakeClock,
                                           fullscreen: bool, toggles: int) -> None:
    """On the box (fullscreen from the start) a USB keyboard's F11 changes nothing; a
    window on a desktop still goes fullscreen with it."""
    GAME_SCREENS["easel-test"] = easel_screen
    choice = DisplayChoice("dummy", fullscreen, False, "test")
    kiosk = Kiosk((640, 400), 0, choice, clock=clock, present="surface")
    try:
        asked: list[None] = []
        monkeypatch.setattr(kiosk.presenter, "toggle_fullscreen", lambda: asked.append(None))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0,
                                             unicode="", scancode=0))
        kiosk.poll()
        assert len(asked) == toggles
    finally:
        GAME_SCREENS.pop("easel-test", None)
        kiosk.close()


def test_the_worker_never_draws_into_the_display_surface(make_kiosk) -> None:
    """The frame the worker thread draws into is the presenter's own, upright too: SDL may
    replace the window's surface on the loop's thread (a resize) while a frame is drawn."""
    kiosk = make_kiosk(0, (640, 400), "surface")
    assert isinstance(kiosk.presenter, SurfacePresenter)
    screen = pygame.display.get_surface()
    assert screen is not None and kiosk.frame is not screen
    kiosk.frame.fill((200, 10, 10), pygame.Rect(5, 5, 20, 20))
    assert screen.get_at((10, 10))[:3] != (200, 10, 10), "not shown before its present"
    kiosk.presenter.present(kiosk.frame, pygame.Rect(0, 0, 30, 30))
    assert screen.get_at((10, 10))[:3] == (200, 10, 10)
    assert shown(kiosk) == upright_turned(kiosk)
