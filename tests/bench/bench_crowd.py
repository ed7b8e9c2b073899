"""The box against a crowd (issue 28): many small senders, each within its own budget.

The appliance runs as `easel run` (headless) in its own process, on the data directory
bench_hostile prepares (an ArtBox match being drawn, three seats whose tokens we hold).
This process is the crowd, from loopback addresses 127.0.4.x and 127.0.5.x, and two
honest seats from 127.0.0.9:

- `honest_ack_p99_ms_rehello_30`, `honest_view_p99_ms_rehello_30`,
  `other_ping_p99_ms_rehello_30`: an honest seat's small strokes (5 a second),
  acknowledged, shown back to it as a newer view, and another seat's ping meanwhile (the
  stroke is hidden from it: what it would wait on is the box), while 30
  addresses each re-send hello and join as watchers as fast as their budget allows (each
  used to cost two table versions and a view to every phone).
- `box_rss_growth_mb_200_addresses`, `box_rss_left_mb_200_addresses`: the box's RSS
  growth while 200 addresses (127.0.6.x and 127.0.7.x) each send 1.9 MiB of a message
  they never finish (64 KiB fragments, after a hello), held 3 s, and what is left 5 s
  after they closed (`held_mb_200_addresses`: what they had sent, together).
- `box_rss_growth_mb_100_deaf`, `box_rss_left_mb_100_deaf`: the box's RSS growth while 100
  addresses each hold one socket that never reads, the honest seat drawing (a new view
  for every socket each time), and what is left 5 s after they closed.

Figures only; the behaviour is asserted in tests/test_hostile_*.py and tests/test_people.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import psutil

from tests.bench import measured, percentile
from tests.bench.bench_hostile import HONEST, prepare, start_box
from tests.process import free_port


async def _seat(http: aiohttp.ClientSession, port: int, token: str) -> Any:
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
    await ws.send_json({"type": "hello", "room": "", "token": token})
    while (await ws.receive_json(timeout=10))["type"] != "welcome":
        pass
    return ws


async def honest_strokes(port: int, tokens: list[str], seconds: float
                         ) -> tuple[float, float, float]:
    """(ack p99 ms, own-view p99 ms, other seat's ping p99 ms) of one seat's small strokes.

    An ArtBox stroke is hidden from the other phones while they draw, and a phone is sent
    no view that tells it nothing new (docs/protocol.md): what the others wait on is the
    box itself, measured as the other seat's ping to its pong; the drawer's own view of
    its move (a newer version after its ack) is what the move costs to be shown."""
    acks: list[float] = []
    shown: list[float] = []
    pings: list[float] = []
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=(HONEST, 0))
    ) as http:
        drawer = await _seat(http, port, tokens[0])
        other = await _seat(http, port, tokens[1])
        pinged: list[float] = []

        async def pong() -> None:
            async for msg in other:
                if msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data).get(
                        "type") == "pong" and pinged:
                    pings.append((time.perf_counter() - pinged.pop()) * 1000)

        async def ping() -> None:
            while True:
                if not pinged:  # one ping out at a time
                    pinged.append(time.perf_counter())
                    await other.send_str('{"type":"ping"}')
                await asyncio.sleep(0.25)

        tasks = [asyncio.create_task(pong()), asyncio.create_task(ping())]
        version = -1
        end = time.monotonic() + seconds
        n = 0
        while time.monotonic() < end:
            n += 1
            kind = "stroke" if n % 2 else "undo"
            data = ({"points": [[100 + n % 50, 100, 0], [300, 200 + n % 50, 60]],
                     "colour": "#202020", "width": 8} if n % 2 else {})
            started = time.perf_counter()
            await drawer.send_json({"type": "act", "id": f"h{n}", "kind": kind, "data": data})
            acked = done = False
            while not done:
                try:  # a move that changes nothing shown is sent no view: 2 s after its ack
                    msg = json.loads((await drawer.receive(timeout=2 if acked else 10)).data)
                except TimeoutError:
                    if not acked:
                        raise
                    break
                if msg.get("type") == "view" and isinstance(msg.get("version"), int):
                    if acked and msg["version"] > version:
                        shown.append((time.perf_counter() - started) * 1000)
                        done = True
                    version = max(version, msg["version"])
                elif (msg.get("type") == "ack" and msg.get("id") == f"h{n}") or (
                        msg.get("type") == "error" and msg.get("ref") == f"h{n}"):
                    acked, done = True, msg.get("type") == "error"
                    acks.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await drawer.close()
        await other.close()

    def p99(values: list[float]) -> float:
        return percentile(values, 0.99) if values else float("nan")

    return p99(acks), p99(shown), p99(pings)


async def rehello_crowd(port: int, room: str, addresses: int, stop: asyncio.Event) -> None:
    async def one(address: str) -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0))
        ) as http:
            with contextlib.suppress(aiohttp.ClientError, TimeoutError, ConnectionError):
                async with http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0) as ws:
                    async def drain() -> None:
                        async for _ in ws:
                            pass

                    reader = asyncio.create_task(drain())
                    try:
                        while not stop.is_set():
                            await ws.send_json({"type": "hello", "room": room})
                            await ws.send_json({"type": "join", "name": "Watcher",
                                                "colour": "#e6194b"})
                            await asyncio.sleep(0.06)  # within the socket's 40 a second
                    finally:
                        reader.cancel()

    await asyncio.gather(*(one(f"127.0.4.{n}") for n in range(1, addresses + 1)))


async def deaf_socket(port: int, address: str, room: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    from tests.test_hostile_limits import frame

    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
    await loop.sock_sendall(sock, frame(json.dumps({"type": "hello", "room": room}).encode()))
    return sock


def _opcodes(data: bytes) -> list[int]:
    """The opcodes of the box's (unmasked) frames in `data`."""
    found, at = [], 0
    while at + 2 <= len(data):
        size, at_payload = data[at + 1] & 0x7F, at + 2
        if size == 126:
            size, at_payload = int.from_bytes(data[at + 2:at + 4], "big"), at + 4
        elif size == 127:
            size, at_payload = int.from_bytes(data[at + 2:at + 10], "big"), at + 10
        found.append(data[at] & 0x0F)
        at = at_payload + size
    return found


async def unfinished(port: int, room: str, addresses: int, box: psutil.Process
                     ) -> dict[str, float]:
    """`addresses` addresses each send 1.9 MiB of a message never finished, hold it 3 s."""
    from tests.bench.bench_hostile import raw_websocket
    from tests.test_hostile_limits import frame

    base = box.memory_info().rss
    peak = base
    sent = [0]
    writers: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    chunk = frame(b"x" * 65536, 0x0, fin=False)

    async def one(address: str) -> None:
        try:
            reader, writer = await raw_websocket(port, address)
            writers.append(writer)
            readers.append(reader)
            writer.write(frame(json.dumps({"type": "hello", "room": room}).encode()))
            await asyncio.sleep(0.5)  # welcomed (more before it is cut: "send hello first")
            writer.write(frame(b'{"type":"join","name":"' + b"x" * 65000, fin=False))
            for _ in range(29):  # 1.9 MiB in all
                writer.write(chunk)
                await asyncio.wait_for(writer.drain(), 2)
                sent[0] += 65536
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            return

    async def sample() -> None:
        nonlocal peak
        while True:
            peak = max(peak, box.memory_info().rss)
            await asyncio.sleep(0.05)

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(one(f"127.0.{6 + n // 200}.{1 + n % 200}")
                           for n in range(addresses)))
    await asyncio.sleep(3.0)
    cut = 0
    for reader in readers:  # the box closed it: its close frame came, or the EOF
        data, reset = b"", False
        try:
            while not reader.at_eof():
                data += await asyncio.wait_for(reader.read(1 << 20), 0.05)
        except OSError:
            reset = True  # aborted after its close frame
        except TimeoutError:
            pass
        cut += reset or reader.at_eof() or 0x8 in _opcodes(data)
    for writer in writers:
        writer.close()
    await asyncio.sleep(5.0)
    sampler.cancel()
    await asyncio.gather(sampler, return_exceptions=True)
    return {"box_rss_growth_mb_200_addresses": (peak - base) / 2**20,
            "box_rss_left_mb_200_addresses": (box.memory_info().rss - base) / 2**20,
            "held_mb_200_addresses": sent[0] / 2**20,
            "cut_sockets_200_addresses": float(cut)}


async def measure() -> dict[str, float]:
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-crowd-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port)
    box = psutil.Process(proc.pid)
    figures: dict[str, float] = {}
    room, tokens = seeded["room"], seeded["tokens"]
    try:
        await asyncio.sleep(1.0)
        stop = asyncio.Event()
        crowd = asyncio.create_task(rehello_crowd(port, room, 30, stop))
        await asyncio.sleep(1.0)
        ack, shown, ping = await honest_strokes(port, tokens, 8.0)
        stop.set()
        await asyncio.gather(crowd, return_exceptions=True)
        figures["honest_ack_p99_ms_rehello_30"] = ack
        figures["honest_view_p99_ms_rehello_30"] = shown
        figures["other_ping_p99_ms_rehello_30"] = ping

        await asyncio.sleep(2.0)
        figures.update(await unfinished(port, room, 200, box))

        await asyncio.sleep(2.0)
        base = box.memory_info().rss
        deaf = [await deaf_socket(port, f"127.0.5.{n}", room) for n in range(1, 101)]
        peak = base
        drawing = asyncio.create_task(honest_strokes(port, tokens, 6.0))
        while not drawing.done():
            peak = max(peak, box.memory_info().rss)
            await asyncio.sleep(0.1)
        for sock in deaf:
            sock.close()
        await asyncio.sleep(5.0)
        figures["box_rss_growth_mb_100_deaf"] = (peak - base) / 2**20
        figures["box_rss_left_mb_100_deaf"] = (box.memory_info().rss - base) / 2**20
    finally:
        proc.terminate()
        proc.wait(10)
    return figures


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    run()
