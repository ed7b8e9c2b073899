"""What a stroke costs outside the geometry (issue 30): live ArtBox play with big strokes,
the resume of the longest legal match after a power cut, and the shape checks made again
after that restart.

- `artbox_live_stroke_ratio`: the CPU a stroke of 4000 points costs the box in live play
  (the move judged and logged, then the views of the kiosk and every player built and
  encoded as the door sends them), with pictures of 35-40 strokes over pictures of 1-5
  (the median of 15 strokes each, what the start made frozen as the box freezes it): a
  stroke should cost the same however big the picture (goal <= 1.5).
- `resume_longest_artbox_s`: a restart in the middle of the longest legal ArtBox match
  (8 players drawing random walks of 4000 points until the match's log is at its budget,
  8 MB: storage.match_budget_mb), in CPU seconds of the thread: the Session made (the log
  read and replayed) and the first view of the kiosk and of every player (goal <= 0.3).
- `artbox_cold_recheck_ms_max`: after that restart, the worst time the loop spends on the
  shape check of one picture (goal <= 20): the session hands them to the writer thread
  as it resumes (`artbox_cold_recheck_off_loop_ms_max`: what one costs there, cold).

CPU time of the thread (time.thread_time_ns), on a shared machine; nothing here asserts
a time (the targets live in tests.bench). Run alone: `python -m tests.bench strokecost`.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from appliance.door.server import SharedParts
from appliance.system.config import Config, StorageSettings
from appliance.system.ratelimit import TokenBucket
from appliance.table.session import KIOSK, PALETTE, Session, Viewer
from appliance.table.store import BudgetExceeded, Store
from games.artbox import RULES as ARTBOX
from games.artbox import check_picture
from games.core import Action
from games.geometry import clear_caches
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH

MIB = 1024 * 1024
POINTS = 4000


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def walk(rng: random.Random, n: int = POINTS) -> list[list[int]]:
    """A finger's random walk of `n` points, on the sheet."""
    x, y, points = rng.randint(200, 1400), rng.randint(200, 800), []
    for i in range(n):
        x = min(max(x + rng.randint(-6, 6), 0), SHEET_WIDTH)
        y = min(max(y + rng.randint(-6, 6), 0), SHEET_HEIGHT)
        points.append([x, y, i * 8])
    return points


def _session(tmp: Path, players: int, clock: Clock, budget: int | None = 8 * MIB) -> Session:
    store = Store(tmp / "easel.sqlite3", match_budget=budget)
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(tmp)))
    session = Session(store, config, "http://192.0.2.7:8080", clock)
    for i in range(players):
        session.join(f"Player {i}", PALETTE[i])
    session.select("host", "artbox")
    session.start("host")
    for i in range(players):
        session.act(i, "keep", {"card": 0})
    assert session.match is not None
    session.act(session.match.state.round.starter, "roll", {})
    for i in range(players):  # the ink rate is not what is measured here
        session._ink[i] = TokenBucket(1e12, 1e12)
    return session


def live_stroke_ratio(rng: random.Random) -> dict[str, float]:
    # 120 strokes of 4000 points, 40 a picture: past one seat's share of the 8 MB log
    # budget (a quarter of it with three players), so no budget here: the cost is measured.
    players, strokes = 3, 40
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        session = _session(Path(tmp), players, clock, budget=None)
        parts = SharedParts()
        # As the box does once its lobby shows (appliance/app.py): what the start made is
        # frozen, so a full collection walks only what play makes since.
        gc.collect()
        gc.freeze()
        viewers = [KIOSK, *(Viewer("player", i) for i in range(players))]
        costs: list[list[float]] = []
        for _ in range(strokes):
            row = []
            for seat in range(players):
                data = {"points": walk(rng), "colour": "#202020", "width": 8}
                clock.now += 20
                began = time.thread_time_ns()
                session.act(seat, "stroke", data)
                for viewer in viewers:
                    parts.encode(session.view_for(viewer))
                row.append((time.thread_time_ns() - began) / 1e6)
            costs.append(row)
        session.store.close()
        gc.unfreeze()
    # Medians: one stroke in the run pays a full collection (a few ms here), and a mean
    # of 15 swung the ratio by a third with it.
    small_ms = statistics.median(c for row in costs[:5] for c in row)
    big_ms = statistics.median(c for row in costs[-5:] for c in row)
    return {"artbox_live_stroke_ms_small": small_ms, "artbox_live_stroke_ms_big": big_ms,
            "artbox_live_stroke_ratio": big_ms / small_ms}


def longest_match(tmp: Path, rng: random.Random) -> int:
    """The longest legal ArtBox match's log, written as the box writes it: 8 players in the
    drawing phase, 4000-point walks until the next would pass the match's budget. Returns
    the number of strokes logged."""
    clock = Clock()
    session = _session(tmp, 8, clock)
    match = session.match
    assert match is not None
    store, match_id = session.store, match.record.id
    state, seq, strokes = match.state, match.next_seq, 0
    while True:
        seat = strokes % 8
        clock.now += 20
        action = Action("stroke", seat, {"points": walk(rng), "colour": "#202020", "width": 8},
                        clock.now)
        try:
            state = ARTBOX.apply(state, action)
            store.append_action(match_id, seq, None, action)
        except BudgetExceeded:
            break
        seq, strokes = seq + 1, strokes + 1
    store.close()
    return strokes


def resume_after_power_cut(tmp: Path) -> tuple[float, float, float, Session]:
    """CPU seconds to make the session again (the resume) and for its first views (the
    shape checks the loop makes in them included), and the worst such check in ms."""
    store = Store(tmp / "easel.sqlite3", match_budget=8 * MIB)
    store.start_writer()  # as the box starts: the writer thread first, then the session
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(tmp)))
    began = time.thread_time_ns()
    session = Session(store, config, "http://192.0.2.7:8080", Clock())
    resumed = (time.thread_time_ns() - began) / 1e9
    assert session.match is not None, "the match resumes"
    # The phones come back a second or more after the start: by then the writer thread
    # has made what the session handed it (its jobs run in order).
    done = store.later(lambda _: None)
    assert done is not None
    done.result()
    recheck = _recheck_on_loop_ms(session)
    parts = SharedParts()
    began = time.thread_time_ns()
    for viewer in [KIOSK, *(Viewer("player", i) for i in range(8))]:
        parts.encode(session.view_for(viewer))
    viewed = (time.thread_time_ns() - began) / 1e9
    return resumed, viewed + recheck / 1e3, recheck, session


def resume_cost(rng: random.Random) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        strokes = longest_match(Path(tmp), rng)
        size = (Path(tmp) / "easel.sqlite3").stat().st_size
        best: tuple[float, float] | None = None
        recheck = cold = 0.0
        for _ in range(3):
            resumed, viewed, checked, session = resume_after_power_cut(Path(tmp))
            if best is None or resumed + viewed < sum(best):
                best = (resumed, viewed)
            recheck = max(recheck, checked)
            match = session.match
            assert match is not None
            cold = max(cold, _cold_check_ms(match.state))
            session.store.close()
    assert best is not None
    return {"resume_longest_artbox_s": best[0] + best[1],
            "resume_longest_artbox_replay_s": best[0],
            "resume_longest_artbox_first_views_s": best[1],
            "resume_longest_artbox_strokes": float(strokes),
            "resume_longest_artbox_file_mb": size / MIB,
            "artbox_cold_recheck_ms_max": recheck,
            "artbox_cold_recheck_off_loop_ms_max": cold}


def _cold_check_ms(state: Any) -> float:
    """The worst cold shape check of one picture of `state` (nothing cached)."""
    worst = 0.0
    rnd = state.round
    for picture in rnd.pictures.values():
        clear_caches()
        began = time.thread_time_ns()
        check_picture(picture, rnd.dice)
        worst = max(worst, (time.thread_time_ns() - began) / 1e6)
    return worst


def _recheck_on_loop_ms(session: Session) -> float:
    """The worst time one picture's shape check takes on the caller (the loop) after the
    resume, before any view: what reading each check costs once the session has made
    what it makes (the writer thread's jobs)."""
    match = session.match
    assert match is not None
    worst = 0.0
    for check in match.state.round.checks.values():
        began = time.thread_time_ns()
        _ = check.legal
        worst = max(worst, (time.thread_time_ns() - began) / 1e6)
    return worst


def run() -> dict[str, float]:
    rng = random.Random(3030)
    live = live_stroke_ratio(rng)
    resume = resume_cost(rng)
    print(f"   live stroke of {POINTS} points: {live['artbox_live_stroke_ms_small']:.1f} ms CPU"
          f" on a small picture, {live['artbox_live_stroke_ms_big']:.1f} ms on a big one"
          f" (x{live['artbox_live_stroke_ratio']:.2f})")
    print(f"   resume of the longest legal match ({resume['resume_longest_artbox_strokes']:.0f}"
          f" strokes, {resume['resume_longest_artbox_file_mb']:.1f} MB file):"
          f" {resume['resume_longest_artbox_replay_s']:.3f} s + first views"
          f" {resume['resume_longest_artbox_first_views_s']:.3f} s CPU")
    print(f"   a picture's shape check on the loop after the restart, worst:"
          f" {resume['artbox_cold_recheck_ms_max']:.1f} ms (made off the loop, cold:"
          f" {resume['artbox_cold_recheck_off_loop_ms_max']:.1f} ms)")
    return {**live, **resume}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:40} {value:12.3f}")
