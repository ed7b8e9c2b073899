"""One seat floods the writer's queue on a slow card (issue 28, item 2).

The appliance runs as `easel run` (headless) in its own process with
`[storage] emulate_commit_ms = 10` (every commit 10 ms longer: an SD card's fsync), on the
data directory bench_hostile prepares (an ArtBox match being drawn, three seats whose
tokens we hold). This process is a hostile seat, from 4 sockets at 4 addresses
(127.0.9.1-4) each sending 38 small moves a second with the seat's token (a stroke of
two points and its undo, over and over), and an honest seat from 127.0.0.9 drawing 50
strokes, each sent once the last was answered:

- `honest_ack_p99_ms_seat_flood_fsync10` (and `_max`): the honest strokes' acks;
- `honest_refused_seat_flood_fsync10`: honest strokes refused (any code; "still saving"
  was the issue's);
- `flood_acked_per_s_seat_flood_fsync10`: the flood's moves the box committed a second
  (what the seat's budgets let through).

Figures only; the behaviour is asserted in tests/test_store_writer.py (batches, a
seat's share of the queue) and tests/test_hostile_limits.py (a seat's message budget
over its sockets). Run alone: `python -m tests.bench flood`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.bench import measured, percentile
from tests.bench.bench_hostile import HONEST, prepare, start_box
from tests.process import free_port

COMMIT_MS = 10
SOCKETS = 4
MOVES_PER_S = 38
HONEST_STROKES = 50


async def _seated(http: aiohttp.ClientSession, port: int, token: str
                  ) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
    await ws.send_json({"type": "hello", "room": "", "token": token})
    while (await ws.receive_json(timeout=10))["type"] != "welcome":
        pass
    return ws


async def flood(port: int, token: str, stop: asyncio.Event, acked: list[int]) -> None:
    """One seat's token on `SOCKETS` sockets, each `MOVES_PER_S` small moves a second."""

    async def one(n: int) -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(f"127.0.9.{n + 1}", 0))
        ) as http:
            with contextlib.suppress(aiohttp.ClientError, TimeoutError, ConnectionError):
                ws = await _seated(http, port, token)

                async def drain() -> None:
                    async for msg in ws:
                        if msg.type == aiohttp.WSMsgType.TEXT and '"ack"' in msg.data:
                            acked[0] += 1

                reader = asyncio.create_task(drain())
                try:
                    k = 0
                    while not stop.is_set():
                        k += 1
                        move = ({"type": "act", "id": f"f{n}-{k}", "kind": "stroke",
                                 "data": {"points": [[10 * n, k % 900, 0], [10 * n + 5, 5, 9]],
                                          "colour": "#202020", "width": 4}}
                                if k % 2 else
                                {"type": "act", "id": f"f{n}-{k}", "kind": "undo", "data": {}})
                        await ws.send_str(json.dumps(move))
                        await asyncio.sleep(1 / MOVES_PER_S)
                finally:
                    reader.cancel()
                    await ws.close()

    await asyncio.gather(*(one(n) for n in range(SOCKETS)))


async def honest(port: int, token: str) -> tuple[list[float], list[str]]:
    """The honest seat's strokes: each ack's time (ms), and the codes of those refused."""
    acks: list[float] = []
    refused: list[str] = []
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=(HONEST, 0))
    ) as http:
        ws = await _seated(http, port, token)
        for n in range(HONEST_STROKES):
            ref = f"h{n}"
            move: dict[str, Any] = {"type": "act", "id": ref, "kind": "stroke", "data": {
                "points": [[400 + n * 8, 300, 0], [420 + n * 8, 500, 120], [440, 700, 240]],
                "colour": "#e6194b", "width": 8}} if n % 2 == 0 else {
                "type": "act", "id": ref, "kind": "undo", "data": {}}
            started = time.perf_counter()
            await ws.send_str(json.dumps(move))
            while True:
                msg = json.loads((await ws.receive(timeout=30)).data)
                if msg.get("type") == "ack" and msg.get("id") == ref:
                    acks.append((time.perf_counter() - started) * 1000)
                    break
                if msg.get("type") == "error" and msg.get("ref") == ref:
                    refused.append(str(msg.get("code")))
                    break
            await asyncio.sleep(0.2)  # a person's pace
        await ws.close()
    return acks, refused


async def measure() -> dict[str, float]:
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-flood-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port, {"EASEL_STORAGE_EMULATE_COMMIT_MS": str(COMMIT_MS)})
    try:
        await asyncio.sleep(1.0)
        stop = asyncio.Event()
        acked = [0]
        flooding = asyncio.create_task(flood(port, seeded["tokens"][2], stop, acked))
        await asyncio.sleep(2.0)
        began, before = time.monotonic(), acked[0]
        acks, refused = await honest(port, seeded["tokens"][0])
        rate = (acked[0] - before) / (time.monotonic() - began)
        stop.set()
        await asyncio.gather(flooding, return_exceptions=True)
    finally:
        proc.terminate()
        proc.wait(10)
    if refused:
        print(f"   honest strokes refused: {', '.join(sorted(set(refused)))}")
    return {
        "honest_ack_p99_ms_seat_flood_fsync10": percentile(acks, 0.99) if acks else float("nan"),
        "honest_ack_max_ms_seat_flood_fsync10": max(acks) if acks else float("nan"),
        "honest_ack_p50_ms_seat_flood_fsync10": percentile(acks, 0.5) if acks else float("nan"),
        "honest_refused_seat_flood_fsync10": float(len(refused)),
        "flood_acked_per_s_seat_flood_fsync10": rate,
    }


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    run()
