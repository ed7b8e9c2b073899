"""Benchmark: from the touch panel's event to ink in the kiosk's back buffer.

`touch_to_ink_ms` replays the EP0430M09's real 4-finger drag (the FocalTech family of the
Pi's 7" display) through the driver's decoder into a 1920x1080 kiosk whose game screen is
a sheet to draw on, as Broad Lines' Artist at the panel: each sample is one kernel frame
(the events up to a SYN_REPORT), timed from its first event entering the decoder to the
segments drawn into the back buffer (before the screen is updated, which the kiosk loop
does once per turn). p50 and p99 over the recording played 40 times.

Run alone: `python -m tests.bench.bench_touch`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import time

from evdev import ecodes

from appliance.kiosk import GAME_SCREENS, Kiosk
from drivers.touch import TouchDecoder
from tests import evemu
from tests.bench import percentile, print_figures
from tests.test_ink import VIEW, easel_screen

PLAYS = 40


def run() -> dict[str, float]:
    recording = evemu.touch("ep0430m09.4-finger-drag-down")
    frames = list(recording.frames())
    GAME_SCREENS["easel-test"] = easel_screen
    kiosk = Kiosk((1920, 1080))
    try:
        kiosk.update(VIEW, 0.0)
        sheet = kiosk.renderer.canvases[0][0]
        # The recording's fingers mapped onto the sheet, so every move draws.
        w, h = kiosk.size
        samples: list[float] = []
        strokes = 0
        for _ in range(PLAYS):
            decoder = TouchDecoder(
                recording.absinfo[ecodes.ABS_MT_POSITION_X],
                recording.absinfo[ecodes.ABS_MT_POSITION_Y],
            )
            for frame in frames:
                t0 = time.perf_counter_ns()
                touches = []
                for event in frame:
                    touches += decoder.feed(event)
                if touches:
                    kiosk.feed_touches(
                        [
                            t.__class__(
                                t.kind,
                                t.finger,
                                (sheet.x + t.x * sheet.w) / (w - 1),
                                (sheet.y + t.y * sheet.h) / (h - 1),
                                t.t,
                                t.cancelled,
                            )
                            for t in touches
                        ]
                    )
                samples.append((time.perf_counter_ns() - t0) / 1e6)
            strokes += len(kiosk.poll())
            kiosk.present_ink()
        if strokes != 4 * PLAYS:
            raise RuntimeError(f"expected {4 * PLAYS} strokes, got {strokes}")
    finally:
        kiosk.close()
        GAME_SCREENS.pop("easel-test", None)
    results = {
        "touch_to_ink_ms_p50": percentile(samples, 0.5),
        "touch_to_ink_ms_p99": percentile(samples, 0.99),
    }
    return results


if __name__ == "__main__":
    print_figures(run())
