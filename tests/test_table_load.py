"""What the box does per move at a busy table (issue 28, item 11): a move's answer goes
before the views it makes due, and moves committed together make one round of views
(appliance/door/server.py `_session_changed`, appliance/table/session.py `_committed`,
appliance/table/store.py StoreWriter's batches). The timing is bench_table's."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from appliance.table.session import HOST, PALETTE
from appliance.table.store import Store
from tests.conftest import LiveServer, Phone
from tests.toygame import RaceToTwenty


async def _table(live: LiveServer, store: Store, watchers: int) -> tuple[list[Phone], list[Phone]]:
    assert store.start_writer()  # as the box runs: commits on the writer thread
    session = live.session
    players = [await live.phone() for _ in range(2)]
    for i, phone in enumerate(players):
        await phone.join(session.room, f"P{i}", PALETTE[i])
    seen = []
    for _ in range(watchers):
        phone = await live.phone()
        await phone.send({"type": "hello", "room": session.room})
        await phone.expect("welcome")
        seen.append(phone)
    session.select(HOST, "race")
    session.start(HOST)
    for phone in [*players, *seen]:
        await phone.view_where(lambda v: v["version"] == session.version)
    return players, seen


async def test_a_drawer_hears_its_move_saved_before_its_view_goes_out(
    live: LiveServer, store: Store, race: RaceToTwenty
) -> None:
    players, watchers = await _table(live, store, watchers=6)
    before = live.session.version
    await players[0].send({"type": "act", "id": "m0", "kind": "add", "data": {"n": 1}})
    first: dict[str, Any] = await players[0].receive()
    assert first == {"type": "ack", "id": "m0"}, "the view of the move came before its ack"
    view = await players[0].expect("view")
    assert view["version"] > before
    for phone in watchers:
        await phone.view_where(lambda v: v["version"] > before)


async def test_moves_committed_together_make_one_round_of_views(
    live: LiveServer, store: Store, race: RaceToTwenty
) -> None:
    players, watchers = await _table(live, store, watchers=4)
    session, server = live.session, live.server
    go = threading.Event()
    held = store.later(lambda _: go.wait(10))  # the card busy with a commit
    assert held is not None
    for n in range(4):  # turns alternate: each judged on the one before, none saved yet
        await players[n % 2].send({"type": "act", "id": f"m{n}", "kind": "add",
                                   "data": {"n": 1}})
        while session.match is not None and len(session.match.pending) <= n:
            await asyncio.sleep(0.01)
    fan_outs = server.fan_outs
    go.set()
    for n in range(4):
        assert (await players[n % 2].expect("ack"))["id"] == f"m{n}"
    for phone in [*players, *watchers]:
        await phone.view_where(lambda v: v["version"] == session.version)
    # One round, or two if the loop took the batch's first answer before the writer had
    # set the others (one commit tells them together; each was a round of its own).
    assert server.fan_outs - fan_outs <= 2, "a round of views for each of the four moves"
    assert store.writer is not None and store.writer.batches == 1
