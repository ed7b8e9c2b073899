"""A game's start is set up off the event loop: the packs read from the card and Duplik's
scenes made on a worker thread, while the loop keeps answering an honest phone."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Mapping
from typing import Any

from appliance.table.session import PALETTE, Session
from games import duplik, registry
from tests.conftest import LiveServer

SLOW_CARD_S = 0.3


async def test_a_slow_pack_read_at_start_never_holds_a_ping(live: LiveServer) -> None:
    registry.load_all()
    session: Session = live.session
    read_on: list[threading.Thread] = []

    def slow_packs(game: str) -> Mapping[str, Any]:
        read_on.append(threading.current_thread())
        time.sleep(SLOW_CARD_S)  # a card that takes its time, or a pile of packs
        return {}

    session.deck_options = slow_packs
    host = await live.phone()
    await host.join(session.room, "Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.join("Cy", PALETTE[2])
    watcher = await live.phone()
    await watcher.send({"type": "hello", "room": session.room})
    await watcher.expect("welcome")
    duplik.scene_of.cache_clear()
    await host.send({"type": "select", "game": "duplik"})
    await host.send({"type": "start", "options": {"generated": True, "turns": 3}})
    pings: list[float] = []
    while session.match is None:
        t0 = time.monotonic()
        await watcher.send({"type": "ping"})
        await watcher.expect("pong")
        pings.append(time.monotonic() - t0)
        await asyncio.sleep(0.02)
        assert len(pings) < 200, "the game never started"
    assert read_on and all(t is not threading.main_thread() for t in read_on)
    assert len(pings) >= 5 and max(pings) < SLOW_CARD_S / 3, pings
    # Every round's scene was made on the worker: no view makes one on the loop.
    deck = session.match.state.deck
    hits = duplik.scene_of.cache_info().hits
    for seed in deck:
        duplik.scene_of(seed)
    assert duplik.scene_of.cache_info().hits == hits + len(deck)
    view = await host.view_where(lambda v: v["phase"] == "playing")
    assert view["match"]["game"] == "duplik"


async def test_a_second_start_while_one_is_set_up_is_refused(live: LiveServer) -> None:
    registry.load_all()
    session: Session = live.session

    def slow_packs(game: str) -> Mapping[str, Any]:
        time.sleep(SLOW_CARD_S)
        return {}

    session.deck_options = slow_packs
    host = await live.phone()
    await host.join(session.room, "Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.join("Cy", PALETTE[2])
    await host.send({"type": "select", "game": "duplik"})
    await host.send({"type": "start"})
    await asyncio.sleep(0.05)
    await host.send({"type": "start"})
    error = await host.expect("error")
    assert error["code"] == "not_now" and "being set up" in error["message"]
    await host.view_where(lambda v: v["phase"] == "playing")
    assert session.match is not None and session.match.record.id == 1
