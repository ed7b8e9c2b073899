"""How late the event loop wakes a 5 ms timer while a test does something: the proof that
what it did ran off the loop (a lag of the work's length means it ran on it)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

TICK_S = 0.005


@contextlib.asynccontextmanager
async def loop_lags() -> AsyncIterator[list[float]]:
    """Within the block, every wake-up's lateness in seconds is appended to the list."""
    lags: list[float] = []

    async def watch() -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lags.append(time.perf_counter() - asked - TICK_S)

    watcher = asyncio.ensure_future(watch())
    try:
        yield lags
    finally:
        watcher.cancel()
