"""The box against a hostile phone (issue 16): memory, slowloris, pings under attack, log growth.

The appliance runs as `easel run` (headless) in its own process on a data directory
prepared here: a finished ArtBox match with a gallery, and an ArtBox match running with
three seats whose tokens the attacker holds. This process is the attacker, from the
loopback addresses 127.0.0.2-6 (the box's own 127.0.0.1 is not counted per address), and
the honest phone, from 127.0.0.9:

- `hostile_memory_mb`: the box's RSS growth while 64 sockets from 4 addresses each send a
  16 MiB message in fragments without a hello.
- `slowloris_new_phone_ms`: a new phone's `GET /` while 1100 half-open requests are held.
- `ping_p99_ms_under_attack`: the honest phone's ping p99 during 8 parallel gallery zip
  downloads, a stroke flood from a seat (big strokes its budget refuses, and small ones it
  takes, each a new view) and room-code guessing (the worst of them; each also on its own).
- `ping_p99_ms_ping_frames`, `ping_p99_ms_reconnect_storm`: the same during a flood of
  WebSocket ping frames from 4 sockets, and a spectator reconnecting in a loop (4 at once,
  each time its whole view), both also in `ping_p99_ms_under_attack`.
- `db_growth_mb_per_min_hostile`: what one seat doing its worst adds to the match's log.

Figures only; the behaviour is asserted in tests/test_hostile_*.py.
"""

from __future__ import annotations

import asyncio
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import aiohttp
import psutil

from tests.bench import measured, percentile
from tests.conftest import REPO
from tests.process import free_port
from tests.test_hostile_limits import frame

HONEST = "127.0.0.9"


def prepare(data_dir: Path) -> dict[str, Any]:
    """A finished ArtBox match (its gallery) and a running one whose seats we hold."""
    from appliance.system.config import Config, StorageSettings
    from appliance.table.session import HOST, PALETTE, Session
    from appliance.table.store import Store
    from games import registry
    from tests.gallery_play import play_artbox

    registry.load_all()
    config = Config(storage=StorageSettings(str(data_dir)))
    store = Store(data_dir / "easel.sqlite3")
    session = Session(store, config, "http://127.0.0.1")
    play_artbox(session)
    token = store.gallery_token(session.last_match.record.id if session.last_match else 0)
    for seat in list(session.seats):
        session.kick(HOST, seat)
    tokens = [session.join(f"Seat {i}", PALETTE[i]).token for i in range(3)]
    session.select(HOST, "artbox")
    session.start(HOST)
    assert session.match is not None
    match_id = session.match.record.id
    # On to the drawing: every seat keeps a word, the starter rolls.
    for seat in range(3):
        session.act(seat, "keep", {"card": 0})
    session.act(session.match.state.round.starter, "roll", {})
    assert session.match.state.phase == "create"
    room = session.room
    store.close()
    return {"gallery": token, "tokens": tokens, "match": match_id, "room": room}


def start_box(data_dir: Path, port: int,
              settings: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`easel run` headless on `data_dir`, with `settings` (EASEL_<SECTION>_<KEY>) added."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "EASEL_DISPLAY_MODE": "headless",
        "EASEL_DISPLAY_WIDTH": "800",
        "EASEL_DISPLAY_HEIGHT": "480",
        "EASEL_SERVER_HOST": "127.0.0.1",
        "EASEL_SERVER_PORT": str(port),
        "EASEL_STORAGE_DATA_DIR": str(data_dir),
        "XDG_CONFIG_HOME": tempfile.mkdtemp(prefix="easel-bench-"),
        **(settings or {}),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "appliance", "run"], cwd=REPO, env=env,
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if "lobby on screen" in line:
            break
    # Keep reading its log, or a full pipe would stall the box.
    import threading

    threading.Thread(target=proc.stderr.read, daemon=True).start()
    return proc


async def raw_websocket(port: int, address: str
                        ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    return reader, writer


async def hostile_memory(port: int, box: psutil.Process) -> float:
    """64 sockets x a 16 MiB fragmented message, no hello, from 4 addresses."""
    base = box.memory_info().rss
    peak = base
    stop = False

    async def sample() -> None:
        nonlocal peak
        while not stop:
            peak = max(peak, box.memory_info().rss)
            await asyncio.sleep(0.02)

    async def attack(address: str) -> None:
        chunk = frame(b"x" * 65536, 0x0, fin=False)
        try:
            _reader, writer = await raw_websocket(port, address)
            writer.write(frame(b"[" * 1024, fin=False))
            for _ in range(256):  # 16 MiB in 64 KiB fragments
                writer.write(chunk)
                await asyncio.wait_for(writer.drain(), 2)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            return

    sampler = asyncio.create_task(sample())
    await asyncio.gather(*(attack(f"127.0.0.{2 + n % 4}") for n in range(64)))
    await asyncio.sleep(1.0)
    stop = True
    await sampler
    return float(peak - base) / 2**20


async def slowloris(port: int) -> float:
    """1100 half-open requests from one address, then a new phone's GET / (median of 5)."""
    held = []
    for _ in range(1100):
        try:
            _reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.2", 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(writer)
        except OSError:
            break
    await asyncio.sleep(0.5)
    took = []
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=("127.0.0.6", 0), force_close=True)
    ) as http:
        for _ in range(5):
            started = time.perf_counter()
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                await response.read()
                assert response.status == 200
            took.append((time.perf_counter() - started) * 1000)
    for writer in held:
        writer.close()
    return sorted(took)[len(took) // 2]


async def pings_during(port: int, room: str, attack: Callable[[], Coroutine[Any, Any, None]],
                       seconds: float = 8.0) -> float:
    """The honest phone's ping round trips (ms, p99) while `attack` runs."""
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=(HONEST, 0))
    ) as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
        await ws.send_json({"type": "hello", "room": room})
        while (await ws.receive_json())["type"] != "welcome":
            pass
        trips: list[float] = []
        task = asyncio.create_task(attack())
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            await ws.send_json({"type": "ping"})
            while (await ws.receive_json(timeout=10))["type"] != "pong":
                pass
            trips.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await ws.close()
    return percentile(trips, 0.99)


async def idle() -> None:
    await asyncio.sleep(3600)


def zip_downloads(port: int, token: str) -> Callable[[], Coroutine[Any, Any, None]]:
    async def attack() -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.0.3", 0))
        ) as http:
            async def one() -> None:
                while True:
                    async with http.get(f"http://127.0.0.1:{port}/gallery/{token}/all.zip") as r:
                        await r.read()

            await asyncio.gather(*(one() for _ in range(8)))

    return attack


def stroke_flood(port: int, token: str, length: int = 4000
                 ) -> Callable[[], Coroutine[Any, Any, None]]:
    """Stroke, undo, stroke... every 5 ms from one seat: strokes of `length` points (4000:
    the seat's bytes a second refuse most; 12: most are taken, a new view each)."""
    points = [[i % 1600, (i * 7) % 1000, i] for i in range(length)]

    async def attack() -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.0.4", 0))
        ) as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
            await ws.send_json({"type": "hello", "room": "", "token": token})
            while (await ws.receive_json())["type"] != "welcome":
                pass

            async def drain() -> None:
                async for _ in ws:
                    pass

            reader = asyncio.create_task(drain())
            n = 0
            try:
                while True:
                    n += 1
                    kind = "stroke" if n % 2 else "undo"
                    data = {"points": points, "colour": "#202020", "width": 8} if n % 2 else {}
                    await ws.send_json({"type": "act", "id": f"f{n}", "kind": kind, "data": data})
                    await asyncio.sleep(0.005)
            finally:
                reader.cancel()

    return attack


def guessing(port: int) -> Callable[[], Coroutine[Any, Any, None]]:
    async def attack() -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.0.5", 0))
        ) as http:
            async def guesser(k: int) -> None:
                n = 0
                while True:
                    try:
                        ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
                        for _ in range(20):
                            n += 1
                            await ws.send_json({"type": "hello", "room": f"{k}{n:04d}"[-4:]})
                            await ws.receive(timeout=5)
                        await ws.close()
                    except (aiohttp.ClientError, TimeoutError):
                        await asyncio.sleep(0.05)

            await asyncio.gather(*(guesser(k) for k in range(4)))

    return attack


def ping_frames(port: int, room: str) -> Callable[[], Coroutine[Any, Any, None]]:
    """WebSocket ping frames (6 bytes each) from 4 sockets as fast as the box reads them."""
    async def attack() -> None:
        async def one() -> None:
            reader, writer = await raw_websocket(port, "127.0.0.6")
            writer.write(frame(f'{{"type":"hello","room":"{room}"}}'.encode()))
            await asyncio.sleep(0.3)

            async def drain() -> None:
                while await reader.read(65536):
                    pass

            reading = asyncio.create_task(drain())
            pings = frame(b"", 0x9) * 4096
            try:
                while True:
                    writer.write(pings)
                    await writer.drain()
            finally:
                reading.cancel()

        await asyncio.gather(*(one() for _ in range(4)), return_exceptions=True)

    return attack


def reconnect_storm(port: int, room: str) -> Callable[[], Coroutine[Any, Any, None]]:
    """A spectator reconnecting in a loop (4 at once): a new socket, hello, its whole
    view, gone, again."""
    async def attack() -> None:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.0.7", 0))
        ) as http:
            async def one() -> None:
                while True:
                    try:
                        async with http.ws_connect(f"http://127.0.0.1:{port}/ws",
                                                   max_msg_size=0) as ws:
                            await ws.send_json({"type": "hello", "room": room})
                            while (await ws.receive_json(timeout=5))["type"] != "view":
                                pass
                    except (aiohttp.ClientError, TimeoutError):
                        await asyncio.sleep(0.05)

            await asyncio.gather(*(one() for _ in range(4)))

    return attack


def logged_bytes(db: Path, match_id: int) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute(
            "SELECT COALESCE(SUM(LENGTH(data)), 0) FROM actions WHERE match_id = ?", (match_id,)
        ).fetchone()
    finally:
        conn.close()
    return int(row[0])


async def measure() -> dict[str, float]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # As the unit's LimitNOFILE does for the box (systemd/easel.service); the attacker
    # side needs them too.
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16384)), hard))
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-hostile-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port)
    box = psutil.Process(proc.pid)
    figures: dict[str, float] = {}
    try:
        figures["hostile_memory_mb"] = await hostile_memory(port, box)
        await asyncio.sleep(1.5)
        figures["slowloris_new_phone_ms"] = await slowloris(port)
        await asyncio.sleep(11)  # the half-open ones time out
        room = seeded["room"]
        figures["ping_p99_ms_idle"] = await pings_during(port, room, idle)
        figures["ping_p99_ms_zip_downloads"] = await pings_during(
            port, room, zip_downloads(port, seeded["gallery"]))
        db = data_dir / "easel.sqlite3"
        before, began = logged_bytes(db, seeded["match"]), time.monotonic()
        figures["ping_p99_ms_stroke_flood"] = await pings_during(
            port, room, stroke_flood(port, seeded["tokens"][2]), seconds=20)
        grown = logged_bytes(db, seeded["match"]) - before
        figures["db_growth_mb_per_min_hostile"] = grown / 2**20 / (
            (time.monotonic() - began) / 60)
        # Small strokes the seat's budget lets through: a new view for every phone and
        # the kiosk about 50 times a second.
        figures["ping_p99_ms_small_stroke_flood"] = await pings_during(
            port, room, stroke_flood(port, seeded["tokens"][2], length=12))
        figures["ping_p99_ms_guessing"] = await pings_during(port, room, guessing(port))
        figures["ping_p99_ms_ping_frames"] = await pings_during(port, room,
                                                               ping_frames(port, room))
        figures["ping_p99_ms_reconnect_storm"] = await pings_during(
            port, room, reconnect_storm(port, room))
        figures["ping_p99_ms_under_attack"] = max(
            figures["ping_p99_ms_zip_downloads"], figures["ping_p99_ms_stroke_flood"],
            figures["ping_p99_ms_small_stroke_flood"], figures["ping_p99_ms_guessing"],
            figures["ping_p99_ms_ping_frames"], figures["ping_p99_ms_reconnect_storm"])
    finally:
        proc.terminate()
        proc.wait(10)
    return figures


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    run()
