"""A full table drawing, no attacker (issue 28, item 11): 8 players and 20 watchers.

The appliance runs as `easel run` (headless) in its own process on a data directory
prepared here: an ArtBox match in its drawing phase with eight seats whose tokens we hold.
This process is the table: the eight players' phones (each from its own loopback address,
127.0.7.x) draw strokes of a finger's size (80 points, the 1.3 s a person takes) about
every 1.5 s each, and 20 watchers' phones (127.0.8.x) read every view.

- `move_to_own_view_p99_ms_8_20` (and `_max`, `_p50`): from a stroke sent to the view
  that shows the drawer its own picture with the stroke in it.
- No longer `move_to_others_*` (a stroke sent to the first view at or past its version on
  each of the other 27 phones): a stroke changes no other phone's view (the others'
  differed by the version number alone), and the box sends them none, so such a view
  comes only with a later change, seconds after (p99 32 s: a figure of nothing).
- `watcher_ping_p99_ms_8_20` (and `_max`): a watcher's ping to its pong, every 0.5 s
  from each watcher through the run: how long any change the others do see would wait
  on the box.
- `move_ack_p99_ms_8_20` (and `_max`): from a stroke sent to its `ack` (committed).
- `views_per_move_8_20`: views the 28 phones received per stroke.

Figures only; what the box does per move is asserted in tests/test_table_load.py.
Run alone: `python -m tests.bench table`.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import msgspec
import psutil

from tests.bench import measured, percentile
from tests.bench.bench_hostile import start_box
from tests.conftest import REPO
from tests.process import free_port

PLAYERS = 8
WATCHERS = 20
SECONDS = 30.0
POINTS = 80
GROUPS = 4
"""Processes the phones run in (two players and five watchers each)."""


def prepare(data_dir: Path) -> dict[str, Any]:
    """An ArtBox match of eight seats in its drawing phase; their tokens and the room."""
    from appliance.system.config import Config, StorageSettings
    from appliance.table.session import HOST, PALETTE, Session
    from appliance.table.store import Store
    from games import registry

    registry.load_all()
    config = Config(storage=StorageSettings(str(data_dir)))
    store = Store(data_dir / "easel.sqlite3")
    session = Session(store, config, "http://127.0.0.1")
    tokens = [session.join(f"Seat {i}", PALETTE[i]).token for i in range(PLAYERS)]
    session.select(HOST, "artbox")
    session.start(HOST)
    assert session.match is not None
    for seat in range(PLAYERS):
        session.act(seat, "keep", {"card": 0})
    session.act(session.match.state.round.starter, "roll", {})
    assert session.match.state.phase == "create"
    room = session.room
    store.close()
    return {"tokens": tokens, "room": room}


def finger(rng: random.Random) -> list[list[int]]:
    """A stroke as a finger draws it: `POINTS` points 16 ms apart, a smooth path."""
    x, y = float(rng.randint(300, 1300)), float(rng.randint(200, 800))
    dx, dy = rng.uniform(-12, 12), rng.uniform(-8, 8)
    points = []
    for i in range(POINTS):
        dx += rng.uniform(-2, 2)
        dy += rng.uniform(-2, 2)
        x = min(max(x + dx, 0), 1599)
        y = min(max(y + dy, 0), 999)
        points.append([round(x), round(y), i * 16])
    return points


class Mine(msgspec.Struct):
    my_picture: list[msgspec.Raw] | None = None


class MatchHead(msgspec.Struct):
    state: Mine | None = None


class ViewHead(msgspec.Struct):
    """What a phone here reads of a message: its type, a view's version, an ack's id
    and its own picture's strokes left undecoded (msgspec skips the rest of the view
    unread, so this process's 7 phones keep up with the box as 7 phones would)."""

    type: str
    version: int | None = None
    id: str | None = None
    match: MatchHead | None = None


_head = msgspec.json.Decoder(ViewHead)


class Phone:
    """One phone: every view's version and arrival time, and its own picture's length."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.arrivals: list[tuple[int, float]] = []  # (version, when), in arrival order
        self.mine: list[tuple[int, int]] = []  # (version, strokes in my picture)
        self.acks: dict[str, float] = {}
        self.pongs: list[float] = []
        self.errors: list[str] = []
        self.welcome: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def read(self, player: bool) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            now = time.perf_counter()
            head = _head.decode(msg.data)
            if head.type == "view" and head.version is not None:
                self.arrivals.append((head.version, now))
                state = None if head.match is None else head.match.state
                if player and state is not None and state.my_picture is not None:
                    self.mine.append((head.version, len(state.my_picture)))
            elif head.type == "ack" and head.id is not None:
                self.acks[head.id] = now
            elif head.type == "pong":
                self.pongs.append(now)
            elif head.type == "welcome" and not self.welcome.done():
                self.welcome.set_result(None)
            elif head.type == "error":
                self.errors.append(msg.data)


async def connect(http: aiohttp.ClientSession, port: int, player: bool,
                  hello: dict[str, Any], join: dict[str, Any] | None = None
                  ) -> tuple[Phone, asyncio.Task[None]]:
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws", max_msg_size=0)
    phone = Phone(ws)
    reader = asyncio.create_task(phone.read(player))
    await ws.send_json(hello)
    await asyncio.wait_for(phone.welcome, 10)
    if join is not None:
        phone.welcome = asyncio.get_running_loop().create_future()
        await ws.send_json(join)
        await asyncio.wait_for(phone.welcome, 10)
    return phone, reader


async def phones(spec: dict[str, Any]) -> dict[str, Any]:
    """One process's phones (`spec`: port, room, its seats' numbers and tokens, its
    watchers' numbers, when to start and for how long, on CLOCK_MONOTONIC, which every
    process shares): what each saw, as plain data for the bench to join."""
    port = spec["port"]
    sessions: list[aiohttp.ClientSession] = []
    readers: list[asyncio.Task[None]] = []
    players: dict[int, Phone] = {}
    watchers: list[Phone] = []
    sent: list[tuple[int, str, float, int]] = []  # seat, id, when, strokes after it
    try:
        for seat, token in spec["seats"]:
            http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(f"127.0.7.{seat + 1}", 0)))
            sessions.append(http)
            phone, reader = await connect(http, port, True,
                                          {"type": "hello", "room": "", "token": token})
            players[seat] = phone
            readers.append(reader)
        for n in spec["watchers"]:
            http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(f"127.0.8.{n + 1}", 0)))
            sessions.append(http)
            phone, reader = await connect(
                http, port, False, {"type": "hello", "room": spec["room"]},
                {"type": "join", "name": f"Watcher {n}", "colour": "#3cb44b"})
            watchers.append(phone)
            readers.append(reader)
        await asyncio.sleep(max(0.0, spec["start"] - time.monotonic()))

        async def draw(seat: int, phone: Phone) -> None:
            rng = random.Random(seat)
            await asyncio.sleep(rng.uniform(0, 1.5))  # people do not start together
            end = spec["start"] + spec["seconds"]
            n = 0
            while time.monotonic() < end:
                n += 1
                ref = f"s{seat}-{n}"
                sent.append((seat, ref, time.perf_counter(), n))
                await phone.ws.send_str(json.dumps(
                    {"type": "act", "id": ref, "kind": "stroke",
                     "data": {"points": finger(rng), "colour": "#202020", "width": 8}}))
                await asyncio.sleep(rng.uniform(1.0, 2.0))

        async def ping(phone: Phone) -> None:
            end = spec["start"] + spec["seconds"]
            while time.monotonic() < end:
                # (sent at the time of its pong's index: one ping out at a time)
                pinged.append((phone, len(phone.pongs), time.perf_counter()))
                await phone.ws.send_str('{"type":"ping"}')
                await asyncio.sleep(0.5)

        pinged: list[tuple[Phone, int, float]] = []
        await asyncio.gather(*(draw(seat, phone) for seat, phone in players.items()),
                             *(ping(phone) for phone in watchers))
        await asyncio.sleep(2.0)
        pings = [(p.pongs[n] - at) * 1000 for p, n, at in pinged if n < len(p.pongs)]
        return {
            "sent": sent,
            "players": {str(seat): {"arrivals": p.arrivals, "mine": p.mine, "acks": p.acks,
                                    "errors": p.errors} for seat, p in players.items()},
            "watchers": [{"arrivals": p.arrivals, "errors": p.errors} for p in watchers],
            "pings": pings,
        }
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        for phone in [*players.values(), *watchers]:
            await phone.ws.close()
        for http in sessions:
            await http.close()


def thread_cpu(box: psutil.Process) -> dict[str, float]:
    """CPU seconds of the box's event loop (its main thread) and of its other threads."""
    times = {"loop": 0.0, "threads": 0.0}
    for thread in box.threads():
        times["loop" if thread.id == box.pid else "threads"] += (
            thread.user_time + thread.system_time)
    return times


async def table(port: int, seeded: dict[str, Any], box: psutil.Process) -> dict[str, float]:
    """The players and watchers in `GROUPS` processes of their own; their figures."""
    start = time.monotonic() + 6.0  # every phone connected by then, presence sent
    specs = [{"port": port, "room": seeded["room"], "start": start, "seconds": SECONDS,
              "seats": [[s, seeded["tokens"][s]] for s in range(PLAYERS) if s % GROUPS == g],
              "watchers": [n for n in range(WATCHERS) if n % GROUPS == g]}
             for g in range(GROUPS)]
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bench.bench_table", json.dumps(spec), cwd=REPO,
        stdout=asyncio.subprocess.PIPE) for spec in specs]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    cpu_before = thread_cpu(box)
    outputs = await asyncio.gather(*(p.communicate() for p in procs))
    cpu = {k: v - cpu_before[k] for k, v in thread_cpu(box).items()}
    seen_by = [json.loads(out) for out, _ in outputs]
    players: dict[int, dict[str, Any]] = {}
    everyone: list[tuple[int | None, list[list[float]]]] = []
    for group in seen_by:
        for seat, phone in group["players"].items():
            players[int(seat)] = phone
            everyone.append((int(seat), phone["arrivals"]))
        everyone += [(None, w["arrivals"]) for w in group["watchers"]]
    sent = [tuple(s) for group in seen_by for s in group["sent"]]
    acks: list[float] = []
    own: list[float] = []
    for seat, ref, at, strokes in sent:
        drawer = players[seat]
        if ref in drawer["acks"]:
            acks.append((drawer["acks"][ref] - at) * 1000)
        version = next((v for v, count in drawer["mine"] if count >= strokes), None)
        if version is None:
            continue
        shown = next((t for v, t in drawer["arrivals"] if v == version), None)
        if shown is not None:
            own.append((shown - at) * 1000)
    pings = [ms for group in seen_by for ms in group["pings"]]
    moves = max(1, len(sent))
    views = sum(1 for _, arrivals in everyone for v, t in arrivals if t >= start)
    errors = [e for group in seen_by for phone in [*group["players"].values(),
                                                  *group["watchers"]] for e in phone["errors"]]
    if errors:
        print(f"   errors: {len(errors)}, e.g. {errors[0]}")
    return {
        "move_to_own_view_p99_ms_8_20": percentile(own, 0.99),
        "move_to_own_view_max_ms_8_20": max(own),
        "move_to_own_view_p50_ms_8_20": percentile(own, 0.5),
        "watcher_ping_p99_ms_8_20": percentile(pings, 0.99),
        "watcher_ping_max_ms_8_20": max(pings),
        "move_ack_p99_ms_8_20": percentile(acks, 0.99),
        "move_ack_max_ms_8_20": max(acks),
        "moves_8_20": float(len(sent)),
        "views_per_move_8_20": views / moves,
        "box_loop_cpu_ms_per_move_8_20": cpu["loop"] * 1000 / moves,
        "box_threads_cpu_ms_per_move_8_20": cpu["threads"] * 1000 / moves,
        "errors_8_20": float(len(errors)),
    }


async def measure() -> dict[str, float]:
    data_dir = Path(tempfile.mkdtemp(prefix="easel-bench-table-"))
    seeded = prepare(data_dir)
    port = free_port()
    proc = start_box(data_dir, port)
    try:
        await asyncio.sleep(1.0)
        return await table(port, seeded, psutil.Process(proc.pid))
    finally:
        proc.terminate()
        proc.wait(10)


def run() -> dict[str, float]:
    return measured(measure)


if __name__ == "__main__":
    if len(sys.argv) > 1:  # one process's phones (`table`)
        print(json.dumps(asyncio.run(phones(json.loads(sys.argv[1])))))
    else:
        run()
