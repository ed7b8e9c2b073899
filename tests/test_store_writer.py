"""The store's writer thread: commits off the event loop, moves acknowledged only once
committed, in order, and a failed commit changes nothing (appliance/table/store.py StoreWriter,
appliance/table/session.py's pending chain)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from appliance.system.config import Config
from appliance.table.session import HOST, PALETTE, NotSaved, Session
from appliance.table.store import Store
from tests.conftest import FakeClock, LiveServer
from tests.toygame import RaceToTwenty

COMMIT_S = 0.5  # long beside a ping even on a loaded machine (the suite runs on two workers)


class SlowCard(Store):
    """A store whose every commit takes COMMIT_S (an SD card's fsync stall), and whose
    writes fail while `broken` is set (a card gone read-only). Off the loop's thread only."""

    broken = threading.Event()
    stall_s: float = COMMIT_S

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        assert threading.current_thread() is not threading.main_thread(), "a commit on the loop"
        if self.broken.is_set():
            raise sqlite3.OperationalError("attempt to write a readonly database")
        with super()._transaction() as db:
            yield db
        time.sleep(self.stall_s)


@pytest.fixture
def slow_store(tmp_path: Path) -> Iterator[Store]:
    path = tmp_path / "easel.sqlite3"
    store = Store(path)
    SlowCard.broken.clear()
    assert store.start_writer(lambda: SlowCard(path))
    yield store
    SlowCard.broken.clear()
    store.close()


@pytest.fixture
async def slow_live(
    slow_store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> AsyncIterator[LiveServer]:
    from aiohttp import ClientSession, web

    from appliance.door.server import PhoneServer

    session = Session(slow_store, config, "http://box", clock)
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


def race_total(session: Session) -> int:
    assert session.match is not None
    return int(session.match.state.total)


async def test_a_stalled_commit_never_holds_an_honest_phones_ping(slow_live: LiveServer) -> None:
    session = slow_live.session
    players = [await slow_live.phone() for _ in range(2)]
    for i, phone in enumerate(players):
        await phone.join(session.room, f"P{i}", PALETTE[i])
    watcher = await slow_live.phone()
    await watcher.send({"type": "hello", "room": session.room})
    await watcher.expect("welcome")
    session.select(HOST, "race")
    session.start(HOST)
    moves = 3
    sent_at = time.monotonic()
    for n in range(moves):  # turns alternate: each judged on the one before, not yet saved
        await players[n % 2].send({"type": "act", "id": f"m{n}", "kind": "add", "data": {"n": 1}})
        await asyncio.sleep(0.03)  # two sockets: let this one's move be read first
    pings: list[float] = []
    # The state while the first commit is under way (the sends above took ~0.09 s).
    seen_before_ack: list[int] = [race_total(session)]
    acked = asyncio.ensure_future(players[0].expect("ack", timeout=10))
    while not acked.done():
        t0 = time.monotonic()
        await watcher.send({"type": "ping"})
        await watcher.expect("pong")
        pings.append(time.monotonic() - t0)
        await asyncio.sleep(0.02)  # a phone's pace, within the message rate
        if time.monotonic() - sent_at < COMMIT_S * 0.9:  # surely not committed yet
            seen_before_ack.append(race_total(session))
    assert (await acked)["id"] == "m0"
    assert time.monotonic() - sent_at >= COMMIT_S, "acknowledged before it was committed"
    assert seen_before_ack and set(seen_before_ack) == {0}, "applied before its commit"
    assert len(pings) >= 5 and max(pings) < COMMIT_S / 2, pings
    assert (await players[1].expect("ack", timeout=10))["id"] == "m1"
    assert (await players[0].expect("ack", timeout=10))["id"] == "m2"
    assert race_total(session) == moves
    assert [a.action_id for a in session.store.actions(session.match.record.id)] == [  # type: ignore[union-attr]
        "m0", "m1", "m2"
    ]


async def test_a_failed_commit_refuses_it_and_every_move_judged_on_it(
    slow_store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = Session(slow_store, config, "http://box", clock)
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    assert session.match is not None
    version = session.version
    SlowCard.broken.set()
    first = session.submit(0, "add", {"n": 2}, "a")
    second = session.submit(1, "add", {"n": 3}, "b")
    resend = session.submit(0, "add", {"n": 2}, "a")  # the phone resends while it waits
    assert not isinstance(first, bool) and not isinstance(second, bool)
    assert not isinstance(resend, bool)
    for done in (first, second, resend):
        with pytest.raises(NotSaved, match="readonly"):
            await done
    assert race_total(session) == 0 and session.version == version, "nothing changed"
    assert not session.match.pending
    SlowCard.broken.clear()
    again = session.submit(0, "add", {"n": 2}, "a")  # judged on what is on disk
    assert not isinstance(again, bool) and await again is True
    assert race_total(session) == 2
    assert [(a.seq, a.action_id) for a in slow_store.actions(session.match.record.id)] == [
        (0, "a")
    ]
    dup = session.submit(0, "add", {"n": 2}, "a")
    assert dup is False  # committed before: not applied twice


async def test_a_stalled_card_holds_a_bounded_queue_of_moves(
    slow_store: Store, config: Config, clock: FakeClock, race: RaceToTwenty,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from appliance.table import session as session_module
    from appliance.table.session import StillSaving

    monkeypatch.setattr(session_module, "PENDING_MAX", 2)
    session = Session(slow_store, config, "http://box", clock)
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    waiting = [session.submit(0, "add", {"n": 1}, "a"), session.submit(1, "add", {"n": 1}, "b")]
    with pytest.raises(StillSaving, match="still saving"):
        session.submit(0, "add", {"n": 1}, "c")
    for done in waiting:
        assert not isinstance(done, bool) and await done is True
    third = session.submit(0, "add", {"n": 1}, "c")  # the queue drained: taken again
    assert not isinstance(third, bool) and await third is True
    assert race_total(session) == 3


async def test_one_seat_flooding_a_stalled_card_leaves_the_others_their_share(
    slow_store: Store, config: Config, clock: FakeClock, race: RaceToTwenty,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from appliance.table import session as session_module
    from appliance.table.session import StillSaving, pending_per_seat

    monkeypatch.setattr(session_module, "PENDING_MAX", 8)
    share = pending_per_seat()
    assert share == 2
    session = Session(slow_store, config, "http://box", clock)
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    flood = [session.submit(0, "add", {"n": 1}, "f0"), session.submit(0, "reveal", {}, "f1")]
    with pytest.raises(StillSaving, match="your last moves"):  # before any rule is asked
        session.submit(0, "reveal", {}, "f2")
    honest = session.submit(1, "add", {"n": 1}, "h")  # the queue has room: its share
    for done in [*flood, honest]:
        assert not isinstance(done, bool) and await done is True
    assert race_total(session) == 2


async def test_writes_outside_moves_go_through_the_writer_too(
    slow_store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = Session(slow_store, config, "http://box", clock)
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.select(HOST, "race")
    session.start(HOST)
    session.pause(HOST)
    assert slow_store.pause_of(session.match.record.id)[1] is not None  # type: ignore[union-attr]
    SlowCard.broken.set()
    with pytest.raises(NotSaved):
        session.resume(HOST)
    assert session.paused, "a failed resume is not applied"
    _: Any = None
