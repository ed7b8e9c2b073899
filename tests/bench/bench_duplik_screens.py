"""Benchmark: what Duplik's art show costs the kiosk.

`artshow_frame_ms` is the CPU time of one real art show redraw at 1920x1080 under SDL's
dummy driver: the scene beside 8 canvases of ~30 strokes each, the view rebuilt with a
new version every frame (as the session does after any change: new lists, same
drawings), so every frame is drawn but no stroke should be painted again. Median and
p99 over many frames after the first; `artshow_first_frame_ms` is the first frame,
which paints every canvas and rasterises the scene's SVG.

Run alone: `python -m tests.bench.bench_duplik_screens`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import copy
import statistics
import time
from typing import Any

from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.duplik import caches_of
from tests.bench import percentile, print_figures
from tests.test_duplik_screens import duplik_view

FRAMES = 300
CANVASES = 8
STROKES = 30


def run() -> dict[str, float]:
    view = duplik_view("artshow", players=CANVASES + 1, strokes=STROKES)
    # Rebuilt views made up front: the copying is the session's cost, not the kiosk's.
    views: list[dict[str, Any]] = []
    for i in range(FRAMES):
        rebuilt = copy.deepcopy(view)
        rebuilt["version"] = 2 + i
        views.append(rebuilt)

    kiosk = Kiosk((1920, 1080), 0, DisplayChoice("dummy", False, True, "benchmark"))
    try:
        t0 = time.process_time_ns()
        kiosk.update(view, 0.0)
        first_ms = (time.process_time_ns() - t0) / 1e6
        painted = caches_of(kiosk.renderer).sheets.misses
        samples: list[float] = []
        for rebuilt in views:
            t0 = time.process_time_ns()
            drew = kiosk.update(rebuilt, 0.0)
            samples.append((time.process_time_ns() - t0) / 1e6)
            if not drew:
                raise RuntimeError("the benchmark view did not cause a redraw")
        if caches_of(kiosk.renderer).sheets.misses != painted:
            raise RuntimeError("a redraw painted the canvases again")
    finally:
        kiosk.close()
    return {
        "artshow_frame_ms": statistics.median(samples),
        "artshow_frame_p99_ms": percentile(samples, 0.99),
        "artshow_first_frame_ms": first_ms,
    }


if __name__ == "__main__":
    print_figures(run())
