"""Protections that must never lock honest people out (issue 28 items 4 and 5).

The appliance runs as `easel run` (headless) in its own process, with a host PIN, on a
data directory where one seat is taken (so the room code is kept). This process is the
attacker, from the loopback addresses 127.0.0.2-7, and the honest people, from
127.0.0.9 and 127.0.0.10:

- `owner_login_ok_pct_pin_attack`: of the owner's right PINs (one a second for 20 s)
  while 4 addresses send wrong PINs as fast as they are answered, the share that
  logged in; `owner_login_p99_ms_pin_attack` how long the answer took.
- `newcomer_ok_pct_room_guessing`, `seated_ok_pct_room_guessing`: of a newcomer's
  right room code and a seated phone's token (each every 0.5 s for 15 s, the seat's
  from a guessing address: one that guesses on one socket, locked) while 6 addresses
  guess room codes, the share welcomed.

Figures only; the behaviour is asserted in tests/test_hostile_guessing.py and
tests/test_hostile_limits.py.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.bench import measured, percentile
from tests.conftest import REPO
from tests.process import free_port

PIN = "4821"
OWNER = "127.0.0.9"
NEWCOMER = "127.0.0.10"
ATTACKERS = [f"127.0.0.{n}" for n in range(2, 8)]


def prepare(data_dir: Path) -> dict[str, Any]:
    from appliance.system.config import Config, StorageSettings
    from appliance.table.session import PALETTE, Session
    from appliance.table.store import Store
    from games import registry

    registry.load_all()
    config = Config(storage=StorageSettings(str(data_dir)))
    store = Store(data_dir / "easel.sqlite3")
    session = Session(store, config, "http://127.0.0.1")
    token = session.join("Ada", PALETTE[0]).token
    room = session.room
    store.close()
    return {"room": room, "token": token}


def start_box(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "EASEL_DISPLAY_MODE": "headless",
        "EASEL_DISPLAY_WIDTH": "800",
        "EASEL_DISPLAY_HEIGHT": "480",
        "EASEL_SERVER_HOST": "127.0.0.1",
        "EASEL_SERVER_PORT": str(port),
        "EASEL_STORAGE_DATA_DIR": str(data_dir),
        "EASEL_HOST_PIN": PIN,
        "XDG_CONFIG_HOME": tempfile.mkdtemp(prefix="easel-bench-"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "appliance", "run"], cwd=REPO, env=env,
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if "lobby on screen" in line:
            break
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    return proc


def _client(address: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=(address, 0)),
        cookie_jar=aiohttp.DummyCookieJar(),
    )


async def pin_attack(port: int) -> dict[str, float]:
    url = f"http://127.0.0.1:{port}/host/api/login"
    stop = asyncio.Event()

    async def attacker(address: str) -> None:
        async with _client(address) as http:
            n = 0
            while not stop.is_set():
                n += 1
                async with http.post(url, json={"pin": f"{n % 10000:04d}"}) as answer:
                    await answer.read()
                    if answer.status == 429:
                        await asyncio.sleep(0.05)

    attackers = [asyncio.create_task(attacker(a)) for a in ATTACKERS[:4]]
    await asyncio.sleep(2)  # the box's budget spent, every attacker locked
    ok, times = 0, []
    async with _client(OWNER) as http:
        for _ in range(20):
            began = time.perf_counter()
            async with http.post(url, json={"pin": PIN}) as answer:
                await answer.read()
                ok += answer.status == 200
            times.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*attackers, return_exceptions=True)
    return {"owner_login_ok_pct_pin_attack": 100 * ok / len(times),
            "owner_login_p99_ms_pin_attack": percentile(times, 0.99)}


async def room_guessing(port: int, room: str, token: str) -> dict[str, float]:
    url = f"http://127.0.0.1:{port}/ws"
    stop = asyncio.Event()

    async def guesser(k: int, address: str) -> None:
        async with _client(address) as http:
            n = 0
            while not stop.is_set():
                try:
                    ws = await http.ws_connect(url)
                    for _ in range(20):
                        n += 1
                        await ws.send_json({"type": "hello", "room": f"{k}{n:04d}"[-4:]})
                        await ws.receive(timeout=5)
                    await ws.close()
                except (aiohttp.ClientError, TimeoutError):
                    await asyncio.sleep(0.05)

    async def patient(address: str) -> None:  # one socket, a wrong code every 0.2 s
        async with _client(address) as http:
            ws = await http.ws_connect(url)
            n = 0
            while not stop.is_set():
                n += 1
                await ws.send_json({"type": "hello", "room": f"Q{n:03d}"[-4:]})
                await ws.receive(timeout=5)
                await asyncio.sleep(0.2)
            await ws.close()

    async def welcomed(address: str, hello: dict[str, Any]) -> bool:
        async with _client(address) as http:
            try:
                ws = await http.ws_connect(url)
            except aiohttp.ClientError:
                return False
            await ws.send_json(hello)
            while True:
                said = await ws.receive_json(timeout=5)
                if said["type"] != "view":
                    await ws.close()
                    return bool(said["type"] == "welcome")

    guessers = [asyncio.create_task(guesser(k, a)) for k, a in enumerate(ATTACKERS[:-1])]
    guessers.append(asyncio.create_task(patient(ATTACKERS[-1])))
    await asyncio.sleep(2)
    newcomer = seated = tries = 0
    for _ in range(30):
        tries += 1
        newcomer += await welcomed(NEWCOMER, {"type": "hello", "room": room})
        # The seat's phone shares a guesser's address (one Wi-Fi, one NAT).
        seated += await welcomed(ATTACKERS[-1], {"type": "hello", "room": "", "token": token})
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*guessers, return_exceptions=True)
    return {"newcomer_ok_pct_room_guessing": 100 * newcomer / tries,
            "seated_ok_pct_room_guessing": 100 * seated / tries}


async def measure() -> dict[str, float]:
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-budgets-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port)
    figures: dict[str, float] = {}
    try:
        figures.update(await pin_attack(port))
        figures.update(await room_guessing(port, seeded["room"], seeded["token"]))
    finally:
        proc.terminate()
        proc.wait(10)
    return figures


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    run()
