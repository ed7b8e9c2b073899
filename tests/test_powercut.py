"""Pull the plug in the middle of a match: every acknowledged action survives the restart."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from appliance.system.config import Config
from appliance.table.session import HOST, KIOSK, PALETTE, Session
from appliance.table.store import Store
from tests.conftest import FakeClock, Phone
from tests.process import ApplianceProcess


async def connect(http: aiohttp.ClientSession, url: str) -> Phone:
    return Phone(await http.ws_connect(url + "/ws"))


@pytest.mark.slow
async def test_sigkill_mid_match_resumes_with_every_acknowledged_action(tmp_path: Path) -> None:
    box = ApplianceProcess(tmp_path)
    room = box.start()["room"]
    rnd = random.Random(7)
    acked: set[str] = set()
    sent: list[str] = []
    try:
        async with aiohttp.ClientSession() as http:
            phones = [await connect(http, box.url) for _ in range(2)]
            for i, phone in enumerate(phones):
                await phone.join(room, f"Player {i}", PALETTE[i])
            tokens = [p.token for p in phones]
            await phones[0].send({"type": "select", "game": "race"})
            await phones[0].send({"type": "start", "options": {"target": 50}})
            await phones[0].view_where(lambda v: v["phase"] == "playing")
            for cut in range(3):
                for _ in range(rnd.randint(3, 8)):
                    view = await phones[0].view_where(lambda v: v["match"] is not None)
                    turn = view["match"]["state"]["turn"]
                    action_id = f"c{cut}-{len(sent)}"
                    sent.append(action_id)
                    await phones[turn].send(
                        {"type": "act", "id": action_id, "kind": "add", "data": {"n": 1}}
                    )
                    assert (await phones[turn].expect("ack"))["id"] == action_id
                    acked.add(action_id)
                    count = len(acked)
                    await phones[0].view_where(
                        lambda v, n=count: v["match"]["state"]["total"] >= n
                    )
                # One more in flight when the power goes.
                turn = (await phones[0].view_where(lambda v: True))["match"]["state"]["turn"]
                sent.append(f"c{cut}-flight")
                await phones[turn].send(
                    {"type": "act", "id": f"c{cut}-flight", "kind": "add", "data": {"n": 1}}
                )
                await asyncio.sleep(rnd.uniform(0, 0.01))
                box.kill()
                for phone in phones:
                    await phone.ws.close()
                box.start()
                phones = [await connect(http, box.url) for _ in range(2)]
                for i, phone in enumerate(phones):
                    await phone.send({"type": "hello", "room": "", "token": tokens[i]})
                    welcome = await phone.expect("welcome")
                    assert (welcome["role"], welcome["seat"]) == ("player", i)
                view = await phones[0].view_where(lambda v: v["match"] is not None)
                assert view["phase"] == "playing"
                total = view["match"]["state"]["total"]
                assert len(acked) <= total <= len(sent), (total, len(acked), len(sent))
                acked |= {f"c{cut}-flight"} if total == len(sent) else set()
                if total != len(sent):
                    sent.pop()  # the unacknowledged one was lost with the power: allowed
    finally:
        box.stop()
    db = sqlite3.connect(tmp_path / "easel.sqlite3")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    ids = [row[0] for row in db.execute("SELECT action_id FROM actions ORDER BY seq")]
    assert len(ids) == len(set(ids)), "an action was applied twice"
    assert acked <= set(ids), "an acknowledged action was lost"
    seqs = [row[0] for row in db.execute("SELECT seq FROM actions ORDER BY seq")]
    assert seqs == list(range(len(seqs)))




def test_a_cut_after_the_winning_move_resumes_a_finished_match(
    tmp_path: Path, config: Config, race: Any
) -> None:
    """The winning move is committed, then the power goes before the match is closed
    (two transactions): the restarted box shows the result, it does not resume a match
    that nobody can move in."""
    store = Store(tmp_path / "easel.sqlite3")
    session = Session(store, config, "", FakeClock())
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.select(HOST, "race")
    session.start(HOST, {"target": 5})
    assert session.match is not None
    match_id = session.match.record.id
    close = store.finish_match
    store.finish_match = lambda *args, **kwargs: None  # type: ignore[method-assign]
    while session.match is not None:
        session.act(session.match.state.turn % 2, "add", {"n": 1})
    store.finish_match = close
    assert store.unfinished_match() is not None  # as the power cut left it

    again = Session(store, config, "", FakeClock())
    assert again.match is None
    assert again.last_match is not None and again.last_match.record.id == match_id
    assert again.view_for(KIOSK)["phase"] == "over"  # its finish, as if no cut
    record = store.match(match_id)
    assert record is not None and record.outcome is not None
    assert store.unfinished_match() is None
    store.close()
