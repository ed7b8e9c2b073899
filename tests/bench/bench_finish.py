"""Benchmark: what a game's finish costs the kiosk.

`finish_frame_ms` is the CPU time of one redraw of Duplik's finish at 1920x1080 under
SDL's dummy driver, 8 Artists' canvases of ~30 strokes in each of 9 rounds, once every
round has been shown (the finish steps through the rounds every `FINISH_STEP_S` and each
step is a redraw; a canvas is painted once, on its first showing). Median and p99 over
several cycles; `finish_first_cycle_max_ms` is the slowest first showing of a round (it
paints that round's canvases).

Run alone: `python -m tests.bench.bench_finish`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import statistics
import time

from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.render import FINISH_STEP_S
from tests.bench import percentile, print_figures
from tests.test_duplik_screens import SCENE_SVG, duplik_view

ROUNDS = 9
CYCLES = 12


def run() -> dict[str, float]:
    view = duplik_view("over", players=ROUNDS, strokes=30)
    view["phase"] = "over"
    match = view["match"]
    match["gallery_url"] = "http://192.168.1.20:8080/gallery/bench-token-aaaaaaaaaaaaaaaa"
    show = match["state"]["art_show"][0]
    match["state"]["art_show"] = [
        {**show, "round": n + 1, "scene_svg": SCENE_SVG} for n in range(ROUNDS)
    ]
    kiosk = Kiosk((1920, 1080), 0, DisplayChoice("dummy", False, True, "benchmark"))
    first: list[float] = []
    samples: list[float] = []
    try:
        for step in range((CYCLES + 1) * ROUNDS):
            t0 = time.process_time_ns()
            drew = kiosk.update(view, step * FINISH_STEP_S)
            took = (time.process_time_ns() - t0) / 1e6
            if not drew:
                raise RuntimeError("a step of the art show did not redraw")
            (first if step < ROUNDS else samples).append(took)
    finally:
        kiosk.close()
    return {
        "finish_frame_ms": statistics.median(samples),
        "finish_frame_p99_ms": percentile(samples, 0.99),
        "finish_first_cycle_max_ms": max(first),
    }


if __name__ == "__main__":
    print_figures(run())
