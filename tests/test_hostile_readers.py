"""Phones that do not read what the box sends them, on a real server on loopback.

A finish's view is megabytes (a long game's every drawing) and the transport keeps a
copy of whatever a phone has not taken: sockets that say hello and then never read
would hold one view each, 32 to an address. Here a view of 2 MiB goes to sockets from
127.0.0.2 that never read (their receive buffers made small, so the kernel holds little
for them): a view goes in pieces as the phone takes them, so each socket holds about one
piece and the view's bytes are held once for all of them; the box holds at most
`unsent_bytes_per_address` (plus the one view the first socket always gets) for the
address; a socket that keeps sending pings and never
reads their pongs is dropped once its queue is full; a socket whose unsent bytes make
no progress for `stall_s` is dropped. An honest phone from 127.0.0.3 plays on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from appliance.door.server import VIEW_PIECE, GuardedRunner, PhoneServer
from appliance.system.config import Config
from appliance.system.ratelimit import Limits
from appliance.table.session import PALETTE, Session, Viewer
from tests.test_hostile_limits import ATTACKER, HONEST, Box, frame, raw_websocket, served

VIEW_BYTES = 2 * 1024 * 1024
BUDGET = 1024 * 1024


@pytest.fixture
async def box(session: Session, config: Config, monkeypatch: pytest.MonkeyPatch
              ) -> AsyncIterator[Box]:
    # A view of megabytes, as a long game's finish is (its art show in every view).
    filler = "x" * VIEW_BYTES
    plain = session.view_for

    def big_view(viewer: Viewer) -> dict[str, Any]:
        return {**plain(viewer), "filler": filler}

    monkeypatch.setattr(session, "view_for", big_view)
    limits = Limits(unsent_bytes_per_address=BUDGET, control_backlog=64, stall_s=1.0)
    async with served(PhoneServer(session, config, limits=limits)) as box:
        yield box


async def deaf_socket(box: Box, address: str = ATTACKER
                      ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket that says hello and then never reads (a receive buffer of 16 KiB)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", box.port))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1024)
    writer.write(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 3)
    assert head.startswith(b"HTTP/1.1 101"), head
    writer.write(frame(json.dumps({"type": "hello", "room": box.session.room}).encode()))
    return reader, writer


def unsent(box: Box, address: str) -> int:
    return sum(c.unsent_bytes() for c in box.server.connections if c.remote == address)


async def honest_view_and_pong(box: Box) -> float:
    """An honest phone's hello to its (2 MiB) view and a ping's pong: seconds taken."""
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HONEST, 0)))
    box.clients.append(http)
    started = time.perf_counter()
    ws = await http.ws_connect(box.url + "/ws", max_msg_size=0)
    await ws.send_json({"type": "hello", "room": box.session.room})
    seen: set[str] = set()
    while "view" not in seen:
        seen.add(json.loads((await ws.receive(timeout=5)).data)["type"])
    await ws.send_json({"type": "ping"})
    while json.loads((await ws.receive(timeout=5)).data)["type"] != "pong":
        pass
    took = time.perf_counter() - started
    await ws.close()
    return took


async def test_sockets_that_never_read_hold_a_bounded_share_of_the_views(box: Box) -> None:
    deaf = [await deaf_socket(box) for _ in range(12)]
    for _ in range(4):  # the table changes: a new view is due to every phone
        box.session._changed()
        await asyncio.sleep(0.1)
    assert sum(c.remote == ATTACKER for c in box.server.connections) == 12
    # Without the budget: 12 views of 2 MiB kept for phones that never take them. Now
    # each socket holds about one piece of its view, the view itself once for them all.
    assert unsent(box, ATTACKER) <= 12 * 2 * VIEW_PIECE
    assert box.server.holding()[0] <= VIEW_BYTES + 12 * 2 * VIEW_PIECE + 64 * 1024
    assert sum(c.held for c in box.server.connections if c.remote == ATTACKER) >= 10
    assert await honest_view_and_pong(box) < 2.0
    for _reader, writer in deaf:
        writer.close()


async def test_a_socket_that_pings_and_never_reads_is_dropped(
        box: Box, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "easel.server")
    _reader, writer = await deaf_socket(box)
    ping = frame(b'{"type":"ping"}')
    with contextlib.suppress(ConnectionError):  # (dropped while it sends)
        for _ in range(8):  # 160 pings, within the socket's burst: each answered, none read
            writer.write(ping * 20)
            await writer.drain()
            await asyncio.sleep(0.05)
    async with asyncio.timeout(3):
        while any(c.remote == ATTACKER for c in box.server.connections):
            await asyncio.sleep(0.05)
    dropped = [r for r in caplog.records if "does not read" in r.getMessage()]
    assert len(dropped) == 1, caplog.text  # said once, not once per ping
    assert await honest_view_and_pong(box) < 2.0
    writer.close()


async def test_a_socket_that_stopped_taking_its_view_is_dropped_a_slow_one_is_not(
        box: Box) -> None:
    _reader, writer = await deaf_socket(box)
    slow_reader, slow_writer = await deaf_socket(box, HONEST)

    async def read_slowly() -> int:  # a phone on poor Wi-Fi: 64 KiB every 0.1 s
        got = 0
        while chunk := await slow_reader.read(65536):
            got += len(chunk)
            await asyncio.sleep(0.1)
        return got

    reading = asyncio.create_task(read_slowly())
    async with asyncio.timeout(6):  # stall_s is 1 s here, looked at every 0.25 s
        while any(c.remote == ATTACKER for c in box.server.connections):
            await asyncio.sleep(0.1)
    assert any(c.remote == HONEST for c in box.server.connections)
    reading.cancel()
    writer.close()
    slow_writer.close()


async def test_the_box_shuts_down_at_once_beside_a_socket_that_never_reads(
        session: Session, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    filler = "x" * VIEW_BYTES
    plain = session.view_for
    monkeypatch.setattr(session, "view_for", lambda viewer: {**plain(viewer), "f": filler})
    server = PhoneServer(session, config, limits=Limits(stall_s=600))
    runner = GuardedRunner(server, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    box = Box(server, runner.addresses[0][1])
    _reader, writer = await deaf_socket(box)
    async with asyncio.timeout(3):
        while not unsent(box, ATTACKER):
            await asyncio.sleep(0.05)
    started = time.perf_counter()
    async with asyncio.timeout(10):
        await runner.cleanup()  # its goodbye would wait for the phone to read
    assert time.perf_counter() - started < 2.0
    writer.close()


async def pong_frames(reader: asyncio.StreamReader, seconds: float) -> int:
    """How many pong frames come in `seconds` (server frames: unmasked, short)."""
    pongs = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                first, length = await reader.readexactly(2)
                size = length & 0x7F
                if size == 126:
                    size = int.from_bytes(await reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await reader.readexactly(8), "big")
                await reader.readexactly(size)
                pongs += first & 0x0F == 0xA
    return pongs


async def test_websocket_pings_count_towards_the_sockets_messages_a_second(
        box: Box, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    reader, writer = await raw_websocket(box)  # one that reads
    writer.write(frame(json.dumps({"type": "hello", "room": box.session.room}).encode()))
    await asyncio.sleep(0.2)  # its hello first
    # Read as a phone does (its view is being sent, piece by piece as it is taken).
    counting = asyncio.create_task(pong_frames(reader, 1.5))
    writer.write(frame(b"", 0x9) * 2000)  # 2000 pings at once: 12 KB
    await writer.drain()
    pongs = await counting
    burst = box.server.limits.message_burst + 2 * box.server.limits.messages_per_s
    assert 0 < pongs <= burst, pongs  # was: every one answered
    assert await honest_view_and_pong(box) < 2.0
    writer.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_spectator_reconnecting_in_a_loop_is_held_to_a_few_sockets_a_second(
        box: Box) -> None:
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(ATTACKER, 0)))
    box.clients.append(http)
    views = refused = 0
    for _ in range(60):  # each time a handshake and its whole view (2 MiB here)
        async with http.ws_connect(box.url + "/ws", max_msg_size=0) as ws:
            await ws.send_json({"type": "hello", "room": box.session.room})
            while True:
                said = json.loads((await ws.receive(timeout=5)).data)
                if said["type"] == "view":
                    views += 1
                    break
                if said["type"] == "error":  # past its budget: no view, told why
                    assert said["code"] == "too_many_sockets", said
                    refused += 1
                    break
    burst = box.server.limits.socket_burst
    assert burst <= views <= burst + 10 and refused >= 60 - burst - 10, (views, refused)
    assert await honest_view_and_pong(box) < 2.0  # another address is not held


async def test_many_addresses_that_never_read_hold_the_box_budget_not_each_its_own(
        session: Session, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: 100 addresses each with one deaf socket during a 6.4 MB finish took the
    box from 172 to 795 MiB, each within its own address's budget. Now the box as a whole
    holds at most `box_unsent_bytes` (plus the view being written), the slowest sockets
    that took nothing are dropped first, and an honest phone still gets its view."""
    filler = "x" * VIEW_BYTES
    plain = session.view_for
    monkeypatch.setattr(session, "view_for", lambda v: {**plain(v), "filler": filler})
    box_budget = 3 * VIEW_BYTES
    limits = Limits(unsent_bytes_per_address=64 * VIEW_BYTES, box_unsent_bytes=box_budget,
                    stall_s=1.0)
    async with served(PhoneServer(session, config, limits=limits)) as box:
        deaf = [await deaf_socket(box, f"127.0.1.{n}") for n in range(1, 21)]
        worst = 0
        for _ in range(12):  # the table changes now and then: a new view for everyone
            box.session._changed()
            await asyncio.sleep(0.15)
            worst = max(worst, box.server.holding()[0])
        assert worst <= box_budget + VIEW_BYTES + 256 * 1024, worst
        assert await honest_view_and_pong(box) < 3.0
        left = sum(c.remote.startswith("127.0.1.") for c in box.server.connections)
        assert left < 20  # the slowest, which took nothing, were dropped
        for _reader, writer in deaf:
            writer.close()


async def test_many_deaf_readers_of_one_big_view_hold_it_once_not_a_copy_each(
        session: Session, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a finish's view of megabytes was written whole into every socket's
    transport (a copy each: 100 deaf readers of 6.4 MB held 640 MB, the budgets only
    capped it). Now it goes in pieces as each phone takes it: a socket that takes nothing
    holds about one piece, and the view's bytes are held once, shared by all of them."""
    filler = "x" * VIEW_BYTES
    plain = session.view_for
    monkeypatch.setattr(session, "view_for", lambda v: {**plain(v), "filler": filler})
    readers = 30
    roomy = 64 * VIEW_BYTES  # budgets that would let every socket hold its own copy
    limits = Limits(unsent_bytes_per_address=roomy, box_unsent_bytes=roomy, stall_s=60.0)
    async with served(PhoneServer(session, config, limits=limits)) as box:
        deaf = [await deaf_socket(box, f"127.0.2.{n}") for n in range(1, readers + 1)]
        await asyncio.sleep(0.5)
        transports = sum(c.unsent_bytes() for c in box.server.connections)
        assert transports <= readers * 2 * VIEW_PIECE, transports  # was: 30 x 2 MiB
        assert box.server.holding()[0] <= VIEW_BYTES + readers * 2 * VIEW_PIECE
        assert await honest_view_and_pong(box) < 2.0  # its view whole, in pieces
        assert sum(c.remote.startswith("127.0.2.") for c in box.server.connections) == readers
        for _reader, writer in deaf:
            writer.close()


async def test_a_round_of_views_reads_each_socket_a_bounded_number_of_times(
        session: Session, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28, item 11: every socket starting on a view walked every socket to check
    the box's budgets (`_may_start`), so a round of views read the transports' unsent
    bytes N x N times (100 watchers: 10,000 reads a version). Now the box's holdings are
    walked once a turn of the loop and kept up to date within it: the reads of a round
    grow as N. Counted, not timed: a quadratic walk makes 50 x 50 here."""
    from appliance.door.server import Connection

    phones = 50
    reads = 0
    plain = Connection.unsent_bytes

    def counted(conn: Connection) -> int:
        nonlocal reads
        reads += 1
        return plain(conn)

    monkeypatch.setattr(Connection, "unsent_bytes", counted)
    async with served(PhoneServer(session, config)) as box:
        sockets = []
        for n in range(1, phones + 1):  # one address each (the box's own skips the caps)
            http = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(f"127.0.4.{n}", 0)))
            box.clients.append(http)
            ws = await http.ws_connect(box.url + "/ws")
            await ws.send_json({"type": "hello", "room": session.room})
            sockets.append(ws)

        async def newest(ws: aiohttp.ClientWebSocketResponse, version: int) -> None:
            while True:
                message = json.loads((await ws.receive(timeout=10)).data)
                if message["type"] == "view" and message["version"] >= version:
                    return

        await asyncio.gather(*(newest(ws, session.version) for ws in sockets))
        rounds: list[tuple[int, int]] = []
        for name in ("Ada", "Bo", "Cy"):
            reads, walks = 0, box.server.holdings_counted
            session.join(name, PALETTE[len(rounds)])  # a new seat: a view for everyone
            await asyncio.gather(*(newest(ws, session.version) for ws in sockets))
            rounds.append((reads, box.server.holdings_counted - walks))
        for ws in sockets:
            await ws.close()
    for counted_reads, walks in rounds:
        assert counted_reads <= 10 * phones, rounds  # (quadratic: 2,500 and more)
        assert walks <= 5, rounds
