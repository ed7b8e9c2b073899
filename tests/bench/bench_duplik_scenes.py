"""Duplik's scene generator: the time to make one scene card, data and SVG together.

`scene_generate_ms` is `generate(seed)` plus `render_svg(scene)` for fresh seeds, after a
warm-up, as p50 and p99 over 300 seeds (the curated deck's and random ones). Nothing here
asserts a time (the targets live in tests.bench). Run alone with
`python -m tests.bench.bench_duplik_scenes`.
"""

from __future__ import annotations

import gc
import random
import statistics
import time

from games.duplik_scenes import CURATED_SEEDS, generate, render_svg
from tests.bench import percentile

SEEDS = 300


def run() -> dict[str, float]:
    rand = random.Random(20240611)
    seeds = list(CURATED_SEEDS)[: SEEDS // 2]
    seeds += [rand.randrange(2**32) for _ in range(SEEDS - len(seeds))]
    for seed in range(5):  # warm-up: imports, caches, the allocator
        render_svg(generate(10**9 + seed))
    times: list[float] = []
    svg_bytes: list[int] = []
    generate.cache_clear()  # every seed below is made, not remembered
    gc.collect()
    for seed in seeds:
        started = time.perf_counter()
        svg = render_svg(generate(seed))
        times.append((time.perf_counter() - started) * 1000)
        svg_bytes.append(len(svg))
    results = {
        "scene_generate_ms_p50": percentile(times, 0.50),
        "scene_generate_ms_p99": percentile(times, 0.99),
    }
    print(f"   {'scenes':28} {len(seeds):10d}")
    print(f"   {'generate + SVG, p50 (ms)':28} {results['scene_generate_ms_p50']:10.3f}")
    print(f"   {'generate + SVG, p99 (ms)':28} {results['scene_generate_ms_p99']:10.3f}")
    print(f"   {'generate + SVG, max (ms)':28} {max(times):10.3f}")
    print(f"   {'SVG size, mean (kB)':28} {statistics.mean(svg_bytes) / 1000:10.1f}")
    return results


if __name__ == "__main__":
    print(run())
