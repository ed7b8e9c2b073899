"""Broad Lines' word-form opinion: the time the box spends on one typed guess.

`guess_opinion_ms` is `guess_match.opinion(guess, word)` with the stem cache cleared
before each call (a fresh guess on a fresh card), over every guess of the test table and
the card words, as p50 and p99. It runs on the event loop that serves every phone, so it
must stay far below a few ms. Nothing here asserts a time (the targets live in
tests.bench). Run alone with `python -m tests.bench.bench_guess_match`.
"""

from __future__ import annotations

import gc
import time

from appliance.table import guess_match
from games.broad_lines_words import CARDS
from tests.bench import percentile
from tests.test_guess_match import FORMS_TABLE


def run() -> dict[str, float]:
    pairs = [(guess, word) for guess, word, _ in FORMS_TABLE]
    pairs += [(other.en, word) for card in CARDS[:40] for word in card[:2] for other in card]
    for guess, word in pairs[:20]:  # warm-up: the stemmers' tables
        guess_match.opinion(guess, word)
    times: list[float] = []
    gc.collect()
    for guess, word in pairs:
        guess_match.keys.cache_clear()
        started = time.perf_counter()
        guess_match.opinion(guess, word)
        times.append((time.perf_counter() - started) * 1000)
    results = {
        "guess_opinion_ms_p50": percentile(times, 0.50),
        "guess_opinion_ms_p99": percentile(times, 0.99),
    }
    print(f"   {'guesses':28} {len(pairs):10d}")
    print(f"   {'opinion, p50 (ms)':28} {results['guess_opinion_ms_p50']:10.3f}")
    print(f"   {'opinion, p99 (ms)':28} {results['guess_opinion_ms_p99']:10.3f}")
    print(f"   {'opinion, max (ms)':28} {max(times):10.3f}")
    return results


if __name__ == "__main__":
    print(run())
