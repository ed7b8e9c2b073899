"""Benchmarks: `make bench` runs every tests/bench/bench_*.py and reports figures.

Each module has `run() -> dict[str, float]`. They measure and print; they never assert a
time (tests assert behaviour). The figures land in .bench/results.json.
"""

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Any


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The sample at `fraction` (0.5 = median, 0.99 = p99) of the sorted samples."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def print_figures(results: dict[str, float]) -> None:
    """A benchmark run on its own prints its figures like this."""
    width = max(len(k) for k in results)
    print(f"{'metric':<{width}}  value")
    for key, value in results.items():
        print(f"{key:<{width}}  {value:8.3f}")


def measured(measure: Callable[[], Coroutine[Any, Any, dict[str, float]]]) -> dict[str, float]:
    """Run an async `measure` to its figures and print them as `make bench` shows a
    module's own lines (the benches whose box runs in a process of its own)."""
    figures = asyncio.run(measure())
    for key, value in figures.items():
        print(f"   {key:32} {value:10.3f}")
    return figures
