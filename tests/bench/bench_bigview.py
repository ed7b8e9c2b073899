"""A finish's view of megabytes against 100 readers that never read it (issue 28 item 1).

The appliance runs as `easel run` (headless) in its own process, on a data directory
prepared here: an ArtBox game played to its end with 12 long strokes (2000 points) in
every picture, whose finish the box shows again after its start, a view of ~6.5 MB to
every phone. This process is the crowd, 100 loopback addresses 127.0.6.x each with one
socket that says hello and never reads (a 4 KiB receive buffer), and an honest phone
from 127.0.0.9 pinging every 50 ms:

- `bigview_view_mb`: the size of the view (what every reader is sent).
- `bigview_rss_growth_mb_100_deaf`: the box's RSS peak over its start (the view made
  once by an honest phone first) while the 100 readers hold their sockets (8 s).
- `bigview_rss_kb_per_deaf_socket`: that growth per reader.
- `bigview_rss_left_mb_100_deaf`: the box's RSS over its start 8 s after they closed.
- `bigview_ping_p99_ms_100_deaf`: the honest phone's ping p99 meanwhile (its own view
  of the finish came first, whole).
- `bigview_honest_view_s_100_deaf`: how long a new honest phone's hello took to its whole
  view while they hold their sockets.
- `nat_seated_ok_pct_socket_flood`, `nat_seated_welcome_p99_ms_socket_flood`: a seated
  phone at 127.0.7.1 reconnecting 20 times (its token's hello to its welcome) while a loop
  at the same address opens WebSockets and says hello as fast as it is answered (a guest
  Wi-Fi's NAT: one address for both); `nat_anonymous_refused_pct_socket_flood`: how many
  of the loop's sockets were turned away.

Figures only; the behaviour is asserted in tests/test_hostile_readers.py.
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
from tests.bench.bench_hostile import HONEST, start_box
from tests.process import free_port
from tests.test_hostile_limits import frame

READERS = 100


def _long_stroke(k: int) -> dict[str, Any]:
    return {"points": [[200 + (i * 7 + k * 13) % 1400, 200 + (i * 11 + k * 5) % 600, 5 * i]
                       for i in range(2000)]}


def prepare(data_dir: Path) -> dict[str, Any]:
    """An ArtBox game of long strokes played to its end: its finish is held (and shown
    again when the box starts). The ink budget (what a person draws a second) is not
    spent here: a whole game is played at once."""
    from appliance.system.config import Config, StorageSettings
    from appliance.table.session import HOST, PALETTE, Session, Viewer
    from appliance.table.store import Store
    from games import registry
    from games.artbox import number_of, word_position
    from tests.test_artbox import shape_stroke

    registry.load_all()
    config = Config(storage=StorageSettings(str(data_dir)))
    store = Store(data_dir / "easel.sqlite3")
    session = Session(store, config, "http://127.0.0.1")
    session._spend_ink = lambda seat, data: None  # type: ignore[method-assign]
    tokens = [session.join(f"Artist {i}", PALETTE[i]).token for i in range(3)]
    session.select(HOST, "artbox")
    session.start(HOST)
    k = 0
    for _ in range(400):
        match = session.match
        if match is None:
            break
        st, rnd = match.state, match.state.round
        if st.phase == "choose":
            for seat in st.seats:
                if seat not in rnd.kept:
                    session.act(seat, "keep", {"card": seat % 2})
        elif st.phase == "roll":
            session.act(rnd.starter, "roll", {})
        elif st.phase == "create":
            for seat in st.seats:
                if seat in rnd.order:
                    continue
                for i, shape in enumerate(rnd.dice):
                    session.act(seat, "stroke", shape_stroke(shape, 250 + 370 * i, 500))
                for _ in range(12):
                    k += 1
                    session.act(seat, "stroke", _long_stroke(k))
                session.act(seat, "finish", {})
        elif st.phase == "match":
            for seat in st.seats:
                if seat in rnd.done:
                    continue
                for owner in st.seats:
                    if owner != seat:
                        now = session.match.state.round if session.match else rnd
                        session.act(seat, "guess", {"picture": number_of(now, owner),
                                                    "word": word_position(now, owner)})
                session.act(seat, "done", {})
        elif st.phase == "reveal":
            if not session.press("reveal"):
                session.act(rnd.starter, "award", {})
        elif st.phase == "points":
            session.act(rnd.starter, "next", {})
    assert session.finish_held, "the game did not end"
    import msgspec

    size = len(msgspec.json.encode(session.view_for(Viewer("guest"))))
    room = session.room
    store.close()
    return {"room": room, "view_bytes": size, "tokens": tokens}


async def deaf_reader(port: int, address: str, room: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(sock, (
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
    await loop.sock_sendall(sock, frame(json.dumps({"type": "hello", "room": room}).encode()))
    return sock


async def honest_view(http: aiohttp.ClientSession, port: int, room: str
                      ) -> tuple[aiohttp.ClientWebSocketResponse, float, int]:
    """A guest's socket with its whole view taken: (socket, seconds, view bytes)."""
    started = time.perf_counter()
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
    await ws.send_json({"type": "hello", "room": room})
    while True:
        msg = await ws.receive(timeout=60)
        if json.loads(msg.data).get("type") == "view":
            return ws, time.perf_counter() - started, len(msg.data)


async def pings(ws: aiohttp.ClientWebSocketResponse, stop: asyncio.Event) -> list[float]:
    took: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        await ws.send_json({"type": "ping"})
        while True:
            msg = json.loads((await ws.receive(timeout=10)).data)
            if msg.get("type") == "pong":
                break
        took.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.05)
    return took


async def socket_flood(port: int, room: str, token: str) -> dict[str, float]:
    """A seated phone's reconnects beside a socket loop at its own address."""
    stop = asyncio.Event()
    tally = {"opened": 0, "refused": 0}
    url = f"http://127.0.0.1:{port}/ws"

    async def loop() -> None:
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=("127.0.7.1", 0))) as http:
            while not stop.is_set():
                tally["opened"] += 1
                try:
                    async with http.ws_connect(url, max_msg_size=0) as ws:
                        await ws.send_json({"type": "hello", "room": room})
                        said = json.loads((await ws.receive(timeout=10)).data)
                        tally["refused"] += said.get("type") == "error"
                except (aiohttp.ClientError, TypeError, ValueError):
                    tally["refused"] += 1

    flood = asyncio.create_task(loop())
    await asyncio.sleep(2.0)  # its 40 saved up spent
    welcomed: list[float] = []
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.7.1", 0))) as http:
        for _ in range(20):
            started = time.perf_counter()
            with contextlib.suppress(aiohttp.ClientError, TypeError, ValueError):
                async with http.ws_connect(url, max_msg_size=0) as ws:
                    await ws.send_json({"type": "hello", "room": room, "token": token})
                    said = json.loads((await ws.receive(timeout=10)).data)
                    if said.get("type") == "welcome" and said.get("role") == "player":
                        welcomed.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.2)
    stop.set()
    await asyncio.gather(flood, return_exceptions=True)
    return {
        "nat_seated_ok_pct_socket_flood": 100 * len(welcomed) / 20,
        "nat_seated_welcome_p99_ms_socket_flood": (
            percentile(welcomed, 0.99) if welcomed else float("nan")),
        "nat_anonymous_refused_pct_socket_flood": (
            100 * tally["refused"] / max(1, tally["opened"])),
    }


async def measure() -> dict[str, float]:
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-bigview-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port)
    box = psutil.Process(proc.pid)
    room = seeded["room"]
    figures: dict[str, float] = {"bigview_view_mb": seeded["view_bytes"] / 1e6}
    try:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(HONEST, 0))
        ) as http:
            honest, _, _ = await honest_view(http, port, room)  # the view made once
            await asyncio.sleep(2.0)
            base = box.memory_info().rss
            stop = asyncio.Event()
            pinging = asyncio.create_task(pings(honest, stop))
            deaf = [await deaf_reader(port, f"127.0.6.{n}", room)
                    for n in range(1, READERS + 1)]
            peak = base
            newcomer = None
            until = time.monotonic() + 8.0
            while time.monotonic() < until:
                peak = max(peak, box.memory_info().rss)
                if newcomer is None and time.monotonic() > until - 6.0:
                    newcomer = asyncio.create_task(honest_view(http, port, room))
                await asyncio.sleep(0.1)
            assert newcomer is not None
            late, view_s, _ = await newcomer
            await late.close()
            stop.set()
            took = await pinging
            for sock in deaf:
                sock.close()
            await asyncio.sleep(8.0)  # the sweep looks every 5 s and gives the heap back
            left = box.memory_info().rss
            with contextlib.suppress(Exception):
                await honest.close()
        figures["bigview_rss_growth_mb_100_deaf"] = (peak - base) / 2**20
        figures["bigview_rss_kb_per_deaf_socket"] = (peak - base) / 1024 / READERS
        figures["bigview_rss_left_mb_100_deaf"] = (left - base) / 2**20
        figures["bigview_ping_p99_ms_100_deaf"] = percentile(took, 0.99)
        figures["bigview_honest_view_s_100_deaf"] = view_s
        figures.update(await socket_flood(port, room, seeded["tokens"][0]))
    finally:
        proc.terminate()
        proc.wait(10)
    return figures


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    run()
