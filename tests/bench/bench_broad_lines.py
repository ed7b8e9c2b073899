"""Benchmark: what Broad Lines' easel costs the kiosk.

`easel_frame_ms_1_sheet` and `easel_frame_ms_25_sheets` are the CPU time of one redraw of
the guessing screen at 1920x1080 under SDL's dummy driver, with 1 and with 25 sheets on
the easel, the view rebuilt with a new version every frame (as the session does after
any change), so every frame is drawn. The stack is painted once per change into one
cached surface: 25 sheets should cost what 1 does (target: within 1.2x).

Run alone: `python -m tests.bench.bench_broad_lines`.
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
from appliance.kiosk.broad_lines import caches_of
from appliance.kiosk.display import DisplayChoice
from tests.bench import percentile, print_figures
from tests.test_broad_lines_screens import Game

FRAMES = 300


def frames(view: dict[str, Any]) -> tuple[list[float], float]:
    views = []
    for i in range(FRAMES):
        rebuilt = copy.deepcopy(view)
        rebuilt["version"] = 2 + i
        views.append(rebuilt)
    kiosk = Kiosk((1920, 1080), 0, DisplayChoice("dummy", False, True, "benchmark"))
    try:
        t0 = time.process_time_ns()
        kiosk.update(view, 0.0)
        first_ms = (time.process_time_ns() - t0) / 1e6
        painted = caches_of(kiosk.renderer).stacks.painted
        samples = []
        for rebuilt in views:
            t0 = time.process_time_ns()
            if not kiosk.update(rebuilt, 0.0):
                raise RuntimeError("the benchmark view did not cause a redraw")
            samples.append((time.process_time_ns() - t0) / 1e6)
        if caches_of(kiosk.renderer).stacks.painted != painted:
            raise RuntimeError("a redraw painted the stack again")
    finally:
        kiosk.close()
    return samples, first_ms


def easel_view(sheets: int) -> dict[str, Any]:
    game = Game(sheets=25)
    game.act("name_number", game.state.round.critic, number=1)
    game.place_sheets(sheets - 1)
    game.place_sheets(1, guess=False)
    if game.state.phase != "guessing":
        raise RuntimeError("the benchmark game is not on the easel")
    return game.view()


def run() -> dict[str, float]:
    one, one_first = frames(easel_view(1))
    many, many_first = frames(easel_view(25))
    return {
        "easel_frame_ms_1_sheet": statistics.median(one),
        "easel_frame_ms_25_sheets": statistics.median(many),
        "easel_frame_p99_ms_25_sheets": percentile(many, 0.99),
        "easel_25_over_1_sheet_ratio": statistics.median(many) / statistics.median(one),
        "easel_first_frame_ms_25_sheets": many_first,
        "easel_first_frame_ms_1_sheet": one_first,
    }


if __name__ == "__main__":
    print_figures(run())
