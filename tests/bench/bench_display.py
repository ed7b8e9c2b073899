"""Benchmark: the kiosk's real present path, in a real X11 window under Xvfb.

SDL's dummy driver (the other kiosk benchmarks) presents for free; on a Pi every present
uploads the frame to the screen. Here the kiosk opens a real window on an Xvfb server
through SDL's x11 driver with its native framebuffer (SDL_FRAMEBUFFER_ACCELERATION=0): a
full present (flip) uploads the whole frame to the X server through shared memory, a
partial one (display.update(rects)) only the rectangles, the same cost model as the Pi's
texture upload. (SDL's default on X11 draws the window through OpenGL, which on a machine
without a GPU is Mesa's software rasteriser: that would measure Mesa, not the kiosk.)

Figures, CPU milliseconds per frame, the kiosk's process and the X server's together (the
server does the upload's copy; CPU time, unlike the wall clock, does not count the time
other programs on this shared machine hold the cores), at 800x480 (the 7" display) and
1920x1080 (a TV), rotation 0 and 90:
- `present_full_ms_<size>_rot<r>`: a full redraw: the lobby re-rendered (the selection moves
  every frame), turned for the mount, uploaded;
- `present_ink_ms_<size>_rot<r>`: an ink-only frame: one finger move drawn into the back
  buffer and presented (the dirty rectangle, turned);
- `present_rot90_ratio_full_<size>`, `present_rot90_ratio_ink_<size>`: rotation 90 over 0;
- the same with `_renderer` appended: presented through SDL's renderer (config
  `display.present = renderer`, what a rotated Pi screen takes): the frame uploaded to a
  streaming texture (ink: its dirty rectangle) which the renderer draws turned. Here that
  renderer is OpenGL on Mesa's software rasteriser (llvmpipe; Xvfb has no GPU), so its
  absolute figures are Mesa's drawing, not a Pi's; what carries over is its ratio (the
  turn is the renderer's, not the CPU's). The default (`present = auto`) off kmsdrm is the
  window surface, the figures without the suffix.

Without Xvfb the benchmark says so and reports nothing. Run alone:
`python -m tests.bench.bench_display`.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psutil
import pygame

from appliance.kiosk import GAME_SCREENS, Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.rotation import physical_size
from drivers.touch import Touch
from tests.bench import print_figures
from tests.bench.bench_kiosk import lobby_view
from tests.test_ink import VIEW, easel_screen
from tests.xvfb import xvfb, xvfb_path

CpuClock = Callable[[], float]

SIZES = ((800, 480), (1920, 1080))
ROTATIONS = (0, 90)
FULL_FRAMES = {(800, 480): 100, (1920, 1080): 40}
INK_MOVES = 2000  # a batch long enough for the X server's 10 ms CPU clock ticks
BATCHES = 5
WARMUP = 5
WINDOW = DisplayChoice("x11", False, False, "benchmark: a real X11 window")
# (config display.present, the figures' suffix)
PRESENTS = (("surface", ""), ("renderer", "_renderer"))


@contextmanager
def _x11_environment(display: str) -> Iterator[None]:
    names = ("DISPLAY", "SDL_VIDEODRIVER", "SDL_FRAMEBUFFER_ACCELERATION")
    saved = {name: os.environ.get(name) for name in names}
    os.environ.update(
        {"DISPLAY": display, "SDL_VIDEODRIVER": "x11", "SDL_FRAMEBUFFER_ACCELERATION": "0"}
    )
    try:
        yield
    finally:
        pygame.display.quit()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _open(size: tuple[int, int], rotation: int, present: str) -> Kiosk:
    # ink_interval 0: this measures what one present costs; the 30 Hz cap is a rate.
    kiosk = Kiosk(size, rotation, WINDOW, ink_interval=0.0, present=present)
    got = kiosk.display_size
    if pygame.display.get_driver() != "x11" or got != physical_size(size, rotation):
        kiosk.close()
        raise RuntimeError(f"expected an x11 window of {physical_size(size, rotation)}, got {got}")
    return kiosk


def _full_frames(size: tuple[int, int], rotation: int, present: str, cpu: CpuClock) -> float:
    """CPU ms per full redraw, the median of BATCHES batches."""
    kiosk = _open(size, rotation, present)
    batches: list[float] = []
    # Mesa's rasteriser makes the renderer's frames ~10x dearer here: fewer of them.
    frames = FULL_FRAMES[size] if present == "surface" else FULL_FRAMES[size] // 4
    try:
        for i in range(WARMUP):
            kiosk.update(lobby_view(i), 0.0)
        version = WARMUP
        for _ in range(BATCHES):
            pygame.event.pump()  # keep the window answering the X server
            t0 = cpu()
            for _ in range(frames):
                if not kiosk.update(lobby_view(version), 0.0):
                    raise RuntimeError("the benchmark view did not cause a redraw")
                version += 1
            batches.append((cpu() - t0) * 1000 / frames)
    finally:
        kiosk.close()
    return float(statistics.median(batches))


def _ink_frames(size: tuple[int, int], rotation: int, present: str, cpu: CpuClock) -> float:
    """CPU ms per ink-only frame (a move drawn and presented), the median of batches."""
    GAME_SCREENS["easel-test"] = easel_screen
    kiosk = _open(size, rotation, present)
    moves = INK_MOVES if present == "surface" else INK_MOVES // 50  # Mesa's: ~300x dearer
    batches: list[float] = []
    try:
        kiosk.update(VIEW, 0.0)
        sheet = kiosk.renderer.canvases[0][0]
        pw, ph = kiosk.display_size

        def touch(kind: str, i: int) -> Touch:
            # A zigzag across the sheet: every move is a new segment of about 10 px.
            x = sheet.x + 10 + (i * 9) % (sheet.w - 20)
            y = sheet.y + 10 + (i * 5) % (sheet.h - 20)
            px, py = kiosk.to_physical((x, y))
            return Touch(kind, 1, px / (pw - 1), py / (ph - 1), i * 0.008)  # type: ignore[arg-type]

        kiosk.feed_touches([touch("down", 0)])
        kiosk.present_ink()
        i = 1
        for batch in range(BATCHES + 1):
            pygame.event.pump()
            t0 = cpu()
            for _ in range(moves):
                kiosk.feed_touches([touch("move", i)])
                if not kiosk.present_ink():
                    raise RuntimeError("an ink move was not presented")
                i += 1
            if batch:  # the first batch warms up
                batches.append((cpu() - t0) * 1000 / moves)
            # A new stroke per batch (the game refuses strokes over 4000 points).
            kiosk.feed_touches([touch("up", i), touch("down", i + 1)])
            kiosk.poll()
            i += 2
        kiosk.feed_touches([touch("up", i)])
        kiosk.poll()
    finally:
        kiosk.close()
        GAME_SCREENS.pop("easel-test", None)
    return float(statistics.median(batches))


def run() -> dict[str, float]:
    if xvfb_path() is None:
        print("   Xvfb is not installed (apt-get install xvfb): no figures")
        return {}
    results: dict[str, float] = {}
    # Tall enough for the 1080x1920 window of a 1920x1080 kiosk turned by 90.
    with xvfb(1920, 1920) as server, _x11_environment(server.display):
        x_server = psutil.Process(server.pid)

        def cpu() -> float:
            # Both processes: the kiosk draws and hands over, the X server copies.
            times = x_server.cpu_times()
            return time.process_time() + float(times.user) + float(times.system)

        for present, suffix in PRESENTS:
            for w, h in SIZES:
                name = f"{w}x{h}"
                for rotation in ROTATIONS:
                    full = _full_frames((w, h), rotation, present, cpu)
                    ink = _ink_frames((w, h), rotation, present, cpu)
                    results[f"present_full_ms_{name}_rot{rotation}{suffix}"] = full
                    results[f"present_ink_ms_{name}_rot{rotation}{suffix}"] = ink
                for kind in ("full", "ink"):
                    turned = results[f"present_{kind}_ms_{name}_rot90{suffix}"]
                    upright = results[f"present_{kind}_ms_{name}_rot0{suffix}"]
                    results[f"present_rot90_ratio_{kind}_{name}{suffix}"] = turned / upright
    return results


if __name__ == "__main__":
    print_figures(run())
