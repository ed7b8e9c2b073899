"""The appliance in this process, eight phones in another: round trips and memory.

Run by bench_spine in a fresh interpreter so that no other benchmark's data inflates the
memory figure, and with nothing of the test harness loaded (pytest, psutil: a few MB the
box does not have): the figure is the box's own. Prints one JSON object of metrics.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import json
import socket
import statistics
import sys
import tempfile
import time
from typing import Any

from appliance.app import Appliance
from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings
from games import registry
from tests.bench import percentile
from tests.toygame import RULES

ACTIONS = 300


def free_port() -> int:
    # tests.process has one, but it imports the test suite's conftest, and with it pytest.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def resident_mb() -> float:
    """This process's resident memory (VmRSS), in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def probe() -> dict[str, float]:
    registry.register(RULES)
    port = free_port()
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(tempfile.mkdtemp(prefix="easel-bench-")),
        server=ServerSettings(host="127.0.0.1", port=port),
        display=DisplaySettings(mode="headless", width=1920, height=1080),
    )
    drawn: list[tuple[int, float]] = []  # (session version on screen, when)
    frames = 0

    def on_frame() -> None:
        nonlocal frames
        if app.kiosk is not None and app.kiosk.frames_drawn != frames:
            frames = app.kiosk.frames_drawn
            drawn.append((app.session.version, time.monotonic()))

    app = Appliance(config, on_frame=on_frame)
    stop = asyncio.Event()
    runner = asyncio.create_task(app.run(stop))
    while not drawn:
        await asyncio.sleep(0.01)
    driver = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bench.phones",
        f"http://127.0.0.1:{port}",
        app.session.room,
        str(ACTIONS),
        stdout=asyncio.subprocess.PIPE,
    )
    assert driver.stdout is not None
    rows: list[dict[str, Any]] = []
    rss = full_collection_ms = 0.0
    async for raw in driver.stdout:
        row = json.loads(raw)
        if "connected" in row:
            await asyncio.sleep(0.2)
            rss = resident_mb()
            # What a full pass of the collector holds the loop for with eight phones in:
            # the box froze what its start made once the lobby showed (appliance/app.py),
            # so this walks what the phones and the table made since.
            began = time.perf_counter()
            gc.collect()
            full_collection_ms = (time.perf_counter() - began) * 1000
        else:
            rows.append(row)
    await driver.wait()
    stop.set()
    await runner
    trips = []
    phones_only = [(row["all_phones"] - row["sent"]) * 1000 for row in rows]
    for row in rows:
        kiosk_at = next(t for v, t in drawn if v >= row["version"] and t >= row["sent"])
        trips.append((max(row["all_phones"], kiosk_at) - row["sent"]) * 1000)
    return {
        "action_roundtrip_p50_ms": statistics.median(trips),
        "action_roundtrip_p99_ms": percentile(trips, 0.99),
        "phones_only_p50_ms": statistics.median(phones_only),
        "phones_only_p99_ms": percentile(phones_only, 0.99),
        "rss_8_phones_mb": rss,
        "gc_full_collection_ms_8_phones": full_collection_ms,
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(probe())))
