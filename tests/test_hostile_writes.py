"""Every write outside a move (a seat taken, left, kicked or handed over; a game chosen,
started, paused, resumed or ended; the language) goes through the store's writer thread:
a stalled fsync never holds the loop that answers every phone's ping, each change is
answered only once it is committed, and a write that fails is refused with a clear
error and leaves the session as it was (appliance/table/session.py `_change`)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from appliance.system.config import Config
from appliance.table.session import HOST, PALETTE, NotSaved, Session
from appliance.table.store import Store
from tests.conftest import FakeClock, LiveServer, Phone
from tests.test_store_writer import SlowCard
from tests.toygame import RaceToTwenty

STALL_S = 0.6  # each commit: an SD card's fsync stall, long beside a ping (and a loaded CI core)


class StalledCard(SlowCard):
    """test_store_writer's slow card with commits of STALL_S and a `broken` of its own;
    a commit on the loop's thread fails the test."""

    broken = threading.Event()
    stall_s = STALL_S


@pytest.fixture
async def stalled(
    tmp_path: Path, config: Config, clock: FakeClock, race: RaceToTwenty
) -> AsyncIterator[LiveServer]:
    from aiohttp import ClientSession, web

    from appliance.door.server import PhoneServer

    path = tmp_path / "easel.sqlite3"
    store = Store(path)
    StalledCard.broken.clear()
    assert store.start_writer(lambda: StalledCard(path))
    session = Session(store, config, "http://box", clock)
    server = PhoneServer(session, config)
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    async with ClientSession() as http:
        live = LiveServer(server, f"http://127.0.0.1:{runner.addresses[0][1]}", http)
        yield live
        for phone in live.phones:
            await phone.ws.close()
    await runner.cleanup()
    StalledCard.broken.clear()
    store.close()


class Pinger:
    """An honest phone pinging at a phone's pace the whole time. The server and this
    client share one loop, so a ping in flight is only one way to see the loop held:
    every wait also counts how much later than asked the loop woke it (`times`)."""

    PACE_S = 0.02

    def __init__(self, phone: Phone) -> None:
        self.phone = phone
        self.times: list[float] = []
        self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            t0 = time.monotonic()
            await self.phone.send({"type": "ping"})
            await self.phone.expect("pong")
            self.times.append(time.monotonic() - t0)
            t0 = time.monotonic()
            await asyncio.sleep(self.PACE_S)
            self.times.append(time.monotonic() - t0 - self.PACE_S)

    async def stop(self) -> list[float]:
        self.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self.task
        return self.times


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> float:
    """Wait until `check()`; how long it took."""
    t0 = time.monotonic()
    while not check():
        assert time.monotonic() - t0 < timeout, f"never: {what}"
        await asyncio.sleep(0.01)
    return time.monotonic() - t0


async def test_no_write_path_holds_the_loop_and_each_is_answered_once_committed(
    stalled: LiveServer,
) -> None:
    session = stalled.session
    watcher = await stalled.phone()
    await watcher.send({"type": "hello", "room": session.room})
    await watcher.expect("welcome")
    pinger = Pinger(watcher)
    took: dict[str, float] = {}

    players = [await stalled.phone() for _ in range(3)]
    for i, phone in enumerate(players[:2]):
        await phone.send({"type": "hello", "room": session.room})
        await phone.expect("welcome")
        t0 = time.monotonic()
        await phone.send({"type": "join", "name": f"P{i}", "colour": PALETTE[i]})
        welcome = await phone.expect("welcome")
        took[f"join {i}"] = time.monotonic() - t0
        assert welcome["role"] == "player" and welcome["seat"] == i
    host = players[0]

    t0 = time.monotonic()
    await host.send({"type": "select", "game": "race"})
    await until(lambda: session.selected == "race", "selected")
    took["select"] = time.monotonic() - t0
    t0 = time.monotonic()
    await host.send({"type": "start", "options": {}})
    await until(lambda: session.match is not None, "started")
    took["start"] = time.monotonic() - t0

    # The host page's and the kiosk's ways (they await the same changes).
    t0 = time.monotonic()
    await session.pause_async(HOST)
    took["pause"] = time.monotonic() - t0
    assert session.paused
    t0 = time.monotonic()
    await session.resume_async(HOST)
    took["resume"] = time.monotonic() - t0
    assert not session.paused
    t0 = time.monotonic()
    await session.offer_seat_async(HOST, 1)
    took["offer"] = time.monotonic() - t0
    assert 1 not in session.seats and 1 in session.open_seats
    newcomer = players[2]
    await newcomer.send({"type": "hello", "room": session.room})
    await newcomer.expect("welcome")
    t0 = time.monotonic()
    await newcomer.send({"type": "join", "name": "New", "colour": PALETTE[5]})
    taken = await newcomer.expect("welcome")
    took["take over"] = time.monotonic() - t0
    assert taken["seat"] == 1 and 1 not in session.open_seats

    t0 = time.monotonic()
    await host.send({"type": "end"})
    await until(lambda: session.match is None, "ended")
    took["end"] = time.monotonic() - t0
    t0 = time.monotonic()
    await session.set_language_async(HOST, "cs")
    took["language"] = time.monotonic() - t0
    t0 = time.monotonic()
    await newcomer.send({"type": "leave"})
    guest = await newcomer.expect("welcome")
    took["leave"] = time.monotonic() - t0
    assert guest["role"] == "guest" and 1 not in session.seats
    assert (await players[1].expect("kicked"))["code"] == "kicked"  # handed over
    await newcomer.send({"type": "join", "name": "Bo", "colour": PALETTE[1]})
    assert (await newcomer.expect("welcome"))["seat"] == 1
    t0 = time.monotonic()
    await host.send({"type": "kick", "seat": 1})
    await until(lambda: 1 not in session.seats, "kicked")
    took["kick"] = time.monotonic() - t0

    pings = await pinger.stop()
    slow = {what: t for what, t in took.items() if t < STALL_S * 0.9}
    assert not slow, f"answered before the commit: {slow}"
    # A commit waited for on the loop shows as a wait of STALL_S or more; a loaded
    # machine (the suite on two busy cores) adds up to ~0.4 s of its own now and then.
    assert len(pings) >= 20 and max(pings) < STALL_S * 7 / 8, (max(pings), len(pings))
    # All of it is on disk, as the memory says.
    store = session.store
    assert store.get_meta("language") == "cs" and store.get_meta("selected") == "race"
    assert [s.seat for s in store.seats()] == [0]
    assert store.finished_matches()[-1].outcome is None


async def test_a_failed_write_is_refused_clearly_and_changes_nothing(
    stalled: LiveServer,
) -> None:
    session = stalled.session
    players = [await stalled.phone() for _ in range(3)]
    for i, phone in enumerate(players[:2]):
        await phone.join(session.room, f"P{i}", PALETTE[i])
    await until(lambda: len(session.seats) == 2, "seated")
    await session.select_async(HOST, "race")
    host = players[0]
    StalledCard.broken.set()

    stranger = players[2]
    await stranger.send({"type": "hello", "room": session.room})
    await stranger.expect("welcome")
    await stranger.send({"type": "join", "name": "Cy", "colour": PALETTE[2]})
    refused = await stranger.expect("error")
    assert refused["code"] == "not_saved" and "readonly" in refused["message"]
    assert sorted(session.seats) == [0, 1]

    version = session.version
    for message in ({"type": "select", "game": "race"}, {"type": "kick", "seat": 1}):
        await host.send(message)
        assert (await host.expect("error"))["code"] == "not_saved", message
    assert sorted(session.seats) == [0, 1] and session.version == version
    await players[1].send({"type": "leave"})
    assert (await players[1].expect("error"))["code"] == "not_saved"
    assert 1 in session.seats
    await host.send({"type": "start", "options": {}})
    assert (await host.expect("error"))["code"] == "not_saved"
    assert session.match is None

    StalledCard.broken.clear()
    await session.start_async(HOST)
    assert session.match is not None
    StalledCard.broken.set()
    with pytest.raises(NotSaved):
        await session.pause_async(HOST)
    assert not session.paused
    with pytest.raises(NotSaved):
        await session.offer_seat_async(HOST, 1)
    assert 1 in session.seats and not session.open_seats
    await host.send({"type": "end"})
    assert (await host.expect("error"))["code"] == "not_saved"
    assert session.match is not None
    with pytest.raises(NotSaved):
        await session.set_language_async(HOST, "cs")
    assert session.language_override is None

    # The phones were never disturbed: the one that left is still seated and plays on.
    StalledCard.broken.clear()
    await players[1].send({"type": "ping"})
    await players[1].expect("pong")
    await host.send({"type": "act", "id": "m0", "kind": "add", "data": {"n": 1}})
    assert (await host.expect("ack"))["id"] == "m0"


async def test_changes_waiting_for_a_stalled_card_are_bounded(
    stalled: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from appliance.table import session as session_module
    from appliance.table.session import StillSaving

    monkeypatch.setattr(session_module, "CHANGES_MAX", 3)
    session = stalled.session
    asked = [session.join_async(f"P{i}", PALETTE[i]) for i in range(3)]
    with pytest.raises(StillSaving, match="still saving"):
        session.join_async("P3", PALETTE[3])
    assert [w.seat for w in [await a for a in asked]] == [0, 1, 2]
    welcome = await session.join_async("P3", PALETTE[3])  # drained: taken again
    assert welcome.seat == 3
