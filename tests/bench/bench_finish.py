"""Benchmark: what a game's finish costs the kiosk.

`finish_frame_ms` is the CPU time of one redraw of Duplik's finish at 1920x1080 under
SDL's dummy driver, 8 Artists' canvases of ~30 strokes in each of 9 rounds, once every
round has been shown (the finish steps through the rounds every `FINISH_STEP_S` and each
step is a redraw; a canvas is painted once, on its first showing). Median and p99 over
several cycles; `finish_first_cycle_max_ms` is the slowest first showing of a round (it
paints that round's canvases).

`finish_frame_ms_luck` and `finish_frame_ms_artbox` are the same for Luck of the Draw
(8 drawings of ~30 strokes a round) and ArtBox (8 pictures a round), whose finishes step
through the art show of the whole game the same way, 9 rounds each.

Run alone: `python -m tests.bench.bench_finish`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import statistics
import time
from dataclasses import replace
from typing import Any

from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.render import FINISH_STEP_S
from tests.bench import percentile, print_figures
from tests.test_duplik_screens import SCENE_SVG, duplik_view

ROUNDS = 9
CYCLES = 12


def _cycles(view: dict[str, Any]) -> tuple[list[float], list[float]]:
    """CPU ms of each step of the art show: the first cycle's, and the later ones'."""
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
    return first, samples


def _finished(view: dict[str, Any], game: str) -> dict[str, Any]:
    """`view` as the finish holds it, its one round's art show made `ROUNDS` rounds."""
    view["phase"] = "over"
    match = view["match"]
    match["gallery_url"] = "http://192.168.1.20:8080/gallery/bench-token-aaaaaaaaaaaaaaaa"
    state = match["state"]
    show = state["art_show"][0]
    extra = {"scene_svg": SCENE_SVG} if game == "duplik" else {}
    state["art_show"] = [{**show, "round": n + 1, **extra} for n in range(ROUNDS)]
    return view


def _luck_view() -> dict[str, Any]:
    from tests.test_luck_of_the_draw_screens import envelope, state_in

    state = state_in("scores", players=8, strokes=30)
    view = envelope(replace(state, phase="over"), 8)
    return _finished(view, "luck-of-the-draw")


def _artbox_view() -> dict[str, Any]:
    from tests.test_artbox_screens import artbox_view

    view = artbox_view("over", players=8)
    state = view["match"]["state"]
    state["art_show"] = [{key: state.get(key) for key in
                          ("round", "dice", "pictures", "revealed", "round_points")}]
    return _finished(view, "artbox")


def run() -> dict[str, float]:
    first, samples = _cycles(_finished(duplik_view("over", players=ROUNDS, strokes=30), "duplik"))
    figures = {
        "finish_frame_ms": statistics.median(samples),
        "finish_frame_p99_ms": percentile(samples, 0.99),
        "finish_first_cycle_max_ms": max(first),
    }
    for name, view in (("luck", _luck_view()), ("artbox", _artbox_view())):
        first, samples = _cycles(view)
        figures[f"finish_frame_ms_{name}"] = statistics.median(samples)
        figures[f"finish_first_cycle_max_ms_{name}"] = max(first)
    return figures


if __name__ == "__main__":
    print_figures(run())
