"""Benchmarks: `make bench` runs every tests/bench/bench_*.py and reports figures.

Each module has `run() -> dict[str, float]`. They measure and print; they never assert a
time (tests assert behaviour). The figures land in .bench/results.json.
"""
