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


async def _seated(live: LiveServer, players: int, watchers: int
                  ) -> tuple[list[Phone], list[Phone]]:
    """`players` phones joined in seats, then `watchers` phones welcomed as watchers."""
    room = live.session.room
    seated = [await live.phone() for _ in range(players)]
    for i, phone in enumerate(seated):
        await phone.join(room, f"P{i}", PALETTE[i])
    seen = []
    for _ in range(watchers):
        phone = await live.phone()
        await phone.send({"type": "hello", "room": room})
        await phone.expect("welcome")
        seen.append(phone)
    return seated, seen


async def _table(live: LiveServer, store: Store, watchers: int) -> tuple[list[Phone], list[Phone]]:
    assert store.start_writer()  # as the box runs: commits on the writer thread
    session = live.session
    players, seen = await _seated(live, 2, watchers)
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


async def test_an_artbox_stroke_makes_a_view_for_its_drawer_alone(live: LiveServer) -> None:
    """Issue 28, item 11: a stroke changes what its drawer sees and nothing the other
    seats or the watchers see (their views differ by the version number and the time
    left of the hourglass, which the phone counts down itself): one view is encoded and
    sent, the drawer's, and none to the others. Counted, not timed."""
    import games.artbox  # noqa: F401  (registers ArtBox)

    session, server = live.session, live.server
    players, watchers = await _seated(live, 3, 4)
    session.select(HOST, "artbox")
    session.start(HOST)
    assert session.match is not None
    for seat in range(3):
        session.act(seat, "keep", {"card": 0})
    session.act(session.match.state.round.starter, "roll", {})
    assert session.match.state.phase == "create"
    everyone = [*players, *watchers]
    for phone in everyone:
        await phone.view_where(lambda v: v["version"] == session.version)
    stroke = {"points": [[100 + i, 200 + i, 16 * i] for i in range(30)],
              "colour": "#202020", "width": 8}
    for n in range(3):
        before, encoded, spared = session.version, server.views_encoded, server.views_spared
        await players[0].send({"type": "act", "id": f"s{n}", "kind": "stroke", "data": stroke})
        assert (await players[0].expect("ack"))["id"] == f"s{n}"
        mine = await players[0].view_where(lambda v, b=before: v["version"] > b)
        assert len(mine["match"]["state"]["my_picture"]) == n + 1
        for phone in everyone[1:]:  # whatever came before the pong has come
            await phone.send({"type": "ping"})
            await phone.expect("pong")
            assert not [m for m in phone.seen if m["type"] == "view"
                        and m["version"] > before], "a view that told this phone nothing"
        assert server.views_encoded - encoded == 1, "a view encoded for a phone it told nothing"
        assert server.views_spared - spared == len(everyone) - 1
    # What does change for the others still reaches them: the drawer takes its token.
    before = session.version
    await players[0].send({"type": "act", "id": "fin", "kind": "finish", "data": {}})
    for phone in everyone:
        view = await phone.view_where(lambda v: v["version"] > before)
        assert view["match"]["state"]["order"] == [0]
