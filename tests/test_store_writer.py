"""The store's writer thread: commits off the event loop, moves acknowledged only once
committed, in order, and a failed commit changes nothing (appliance/table/store.py StoreWriter,
appliance/table/session.py's pending chain)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
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


class CountedCommits(Store):
    """A store that counts its commits, and whose commits fail while `failing` is set."""

    commits = 0
    failing = threading.Event()

    def _commit(self) -> None:
        if self.failing.is_set():
            raise sqlite3.OperationalError("disk I/O error")
        type(self).commits += 1
        super()._commit()


@pytest.fixture
def counted_store(tmp_path: Path) -> Iterator[Store]:
    path = tmp_path / "easel.sqlite3"
    store = Store(path)
    CountedCommits.commits = 0
    CountedCommits.failing.clear()
    assert store.start_writer(lambda: CountedCommits(path))
    yield store
    CountedCommits.failing.clear()
    store.close()


def _held_writer(store: Store) -> threading.Event:
    """The writer busy with a job until the event is set (a commit stalled on the card)."""
    go = threading.Event()
    held = store.later(lambda _: go.wait(10))
    assert held is not None
    return go


def _setting(key: str, value: str = "1") -> Callable[[Store], None]:
    """A writer's job: one meta key set (a move's stand-in)."""
    return lambda store: store.set_meta(key, value)


def _meta(path: Path, key: str) -> str | None:
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    finally:
        db.close()
    return None if row is None else str(row[0])


def test_moves_waiting_together_are_committed_in_one_commit(counted_store: Store) -> None:
    go = _held_writer(counted_store)
    waiting = [counted_store.later(_setting(f"move{n}", str(n)), batch=True)
               for n in range(20)]
    go.set()
    for done in waiting:
        assert done is not None
        done.result(10)
    assert CountedCommits.commits == 1, "one fsync for the twenty moves that waited"
    assert counted_store.writer is not None and counted_store.writer.batches == 1
    assert [_meta(counted_store.path, f"move{n}") for n in range(20)] == [
        str(n) for n in range(20)]


def test_a_job_that_is_no_move_is_committed_on_its_own_between_batches(
    counted_store: Store,
) -> None:
    go = _held_writer(counted_store)
    first = [counted_store.later(_setting(f"a{n}"), batch=True)
             for n in range(3)]
    change = counted_store.later(_setting("seat", "taken"))
    then = [counted_store.later(_setting(f"b{n}"), batch=True)
            for n in range(3)]
    go.set()
    for done in [*first, change, *then]:
        assert done is not None
        done.result(10)
    assert CountedCommits.commits == 3  # the moves before it, the change, the moves after


def test_a_move_that_fails_in_a_batch_is_undone_alone(counted_store: Store) -> None:
    def broken(store: Store) -> None:
        with store._transaction() as db:
            db.execute("INSERT INTO meta(key, value) VALUES ('broken', 'x')")
            raise ValueError("this move's own error")

    go = _held_writer(counted_store)
    before = counted_store.later(_setting("before"), batch=True)
    failing = counted_store.later(broken, batch=True)
    after = counted_store.later(_setting("after"), batch=True)
    go.set()
    assert before is not None and failing is not None and after is not None
    before.result(10)
    after.result(10)
    with pytest.raises(ValueError, match="own error"):
        failing.result(10)
    assert CountedCommits.commits == 1
    assert (_meta(counted_store.path, "before"), _meta(counted_store.path, "broken"),
            _meta(counted_store.path, "after")) == ("1", None, "1")


def test_a_batch_whose_commit_fails_tells_every_move_and_writes_none(
    counted_store: Store,
) -> None:
    go = _held_writer(counted_store)
    CountedCommits.failing.set()
    waiting = [counted_store.later(_setting(f"lost{n}"), batch=True)
               for n in range(5)]
    go.set()
    for done in waiting:
        assert done is not None
        with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
            done.result(10)
    CountedCommits.failing.clear()
    later = counted_store.later(_setting("later"), batch=True)
    assert later is not None
    later.result(10)  # the writer goes on
    assert [_meta(counted_store.path, f"lost{n}") for n in range(5)] == [None] * 5
    assert _meta(counted_store.path, "later") == "1"


async def test_a_full_tables_moves_on_a_slow_card_share_their_commits(
    tmp_path: Path, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    """Eight seats' moves handed over while the card commits the first: acknowledged
    after two commits, not eight (each would wait for all the fsyncs before it)."""
    path = tmp_path / "easel.sqlite3"
    store = Store(path)
    CountedCommits.commits = 0
    CountedCommits.failing.clear()
    session = Session(store, config, "http://box", clock)
    for i in range(8):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    assert store.start_writer(lambda: CountedCommits(path))
    try:
        go = _held_writer(store)
        moves = [session.submit(seat, "add", {"n": 1}, f"m{seat}") for seat in range(8)]
        go.set()
        for done in moves:
            assert not isinstance(done, bool) and await done is True
        assert CountedCommits.commits == 1
        assert race_total(session) == 8
    finally:
        store.close()
