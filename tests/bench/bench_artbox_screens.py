"""Benchmark: what ArtBox's matching frame costs the kiosk.

`matching_frame_ms_8_pictures` is the CPU time of one real matching redraw at 1920x1080
under SDL's dummy driver: 8 pictures of 4 shapes each at their numbers, the 9 words and
the running hourglass, the view rebuilt with a new version every frame (as the session
does after any move: new lists, same pictures) and the hourglass a second further, so
every frame is drawn but no picture should be painted again. Median and p99 over many
frames after the first; `matching_first_frame_ms` is the first frame, which paints every
picture.

Run alone: `python -m tests.bench.bench_artbox_screens`.
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
from appliance.kiosk.artbox import caches_of
from appliance.kiosk.display import DisplayChoice
from tests.bench import percentile, print_figures
from tests.test_artbox_screens import artbox_view

FRAMES = 300
PICTURES = 8


def run() -> dict[str, float]:
    view = artbox_view("match", players=PICTURES)
    # Rebuilt views made up front: the copying is the session's cost, not the kiosk's.
    views: list[dict[str, Any]] = []
    for i in range(FRAMES):
        rebuilt = copy.deepcopy(view)
        rebuilt["version"] = 2 + i
        rebuilt["match"]["state"]["done"] = list(range(i % PICTURES))
        views.append(rebuilt)

    kiosk = Kiosk((1920, 1080), 0, DisplayChoice("dummy", False, True, "benchmark"))
    try:
        t0 = time.process_time_ns()
        kiosk.update(view, 100.0)
        first_ms = (time.process_time_ns() - t0) / 1e6
        painted = caches_of(kiosk.renderer).sheets.misses
        if painted != PICTURES:
            raise RuntimeError(f"the first frame painted {painted} pictures, not {PICTURES}")
        samples: list[float] = []
        for i, rebuilt in enumerate(views):
            t0 = time.process_time_ns()
            drew = kiosk.update(rebuilt, 100.0 + (i % 40))
            samples.append((time.process_time_ns() - t0) / 1e6)
            if not drew:
                raise RuntimeError("the benchmark view did not cause a redraw")
        if caches_of(kiosk.renderer).sheets.misses != painted:
            raise RuntimeError("a redraw painted the pictures again")
    finally:
        kiosk.close()
    return {
        "matching_frame_ms_8_pictures": statistics.median(samples),
        "matching_frame_p99_ms_8_pictures": percentile(samples, 0.99),
        "matching_first_frame_ms_8_pictures": first_ms,
    }


if __name__ == "__main__":
    print_figures(run())
