"""Hostile input: a fuzzer and the worst messages a broken or malicious phone can send.

A seated player's phone in a running ArtBox match sends thousands of generated messages
(hypothesis): inside the schema and beyond it — wrong types, huge numbers, deep nesting,
odd unicode, moves for the wrong phase or for another seat. Every one gets exactly one
clear answer (an error with a code and a sentence, or an ack), the match's state changes
only through an acknowledged move, the server keeps running, and the other phones see
nothing but views. The HTTP side: unknown paths, path traversal, a foreign origin, floods.
`EASEL_FUZZ_EXAMPLES` scales the fuzz run (the default sends over 10,000 messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import WSMsgType, web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.artbox  # noqa: F401  (registers ArtBox)
from appliance.door.server import PhoneServer
from appliance.system.config import Config
from appliance.system.ratelimit import Limits
from appliance.table.session import PALETTE, Session
from tests.conftest import LiveServer, Phone

EXAMPLES = int(os.environ.get("EASEL_FUZZ_EXAMPLES", "1300"))
SENT: list[int] = [0]

# --- what a hostile phone sends ---------------------------------------------------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=40),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.dictionaries(st.text(max_size=12), inner, max_size=6),
    ),
    max_leaves=10,
)
ARTBOX_KINDS = ["keep", "roll", "press_die", "shape", "stroke", "undo", "done", "order",
                "guess", "unguess", "reveal", "contest", "vote", "close_vote", "award", "next",
                "press_hourglass", "press_reveal", "hold_hourglass", "time_up"]
kinds = st.one_of(st.sampled_from(ARTBOX_KINDS), st.text(min_size=1, max_size=40))
seats = st.one_of(st.integers(min_value=-5, max_value=70), st.integers(), json_value)
points = st.lists(
    st.lists(st.one_of(st.integers(min_value=-3000, max_value=5_000_000), json_leaf),
             min_size=0, max_size=4),
    max_size=40,
)
act_data = st.one_of(
    st.dictionaries(st.text(max_size=12), json_value, max_size=5),
    st.fixed_dictionaries({"points": points},
                          optional={"colour": json_leaf, "width": json_leaf}),
    st.fixed_dictionaries({"seat": seats, "artist": seats, "card": json_value,
                           "number": json_value, "word": json_value}),
)
messages = st.one_of(
    st.fixed_dictionaries({"type": st.just("act"), "id": st.text(max_size=80),
                           "kind": kinds, "data": act_data}),
    st.fixed_dictionaries({"type": st.just("act"), "id": json_value, "kind": json_value,
                           "data": json_value}),
    st.fixed_dictionaries({"type": st.just("kick"), "seat": seats}),
    st.fixed_dictionaries({"type": st.just("select"), "game": json_value}),
    st.fixed_dictionaries({"type": st.just("start"), "options": json_value}),
    # Not "leave": leaving mid-game is a fair move now (the rules hear SEAT_LEFT and the
    # seat is offered to newcomers; tests/test_session_host.py), not an attack.
    st.fixed_dictionaries({"type": st.sampled_from(["end", "ping"])}),
    st.fixed_dictionaries({"type": st.just("join"), "name": st.text(max_size=300),
                           "colour": json_value}),
    st.fixed_dictionaries({"type": st.just("hello"), "room": json_value,
                           "token": json_value}),
    st.dictionaries(st.text(max_size=10), json_value, max_size=5),
    json_value,
)
frames = st.one_of(
    messages.map(lambda m: json.dumps(m)),
    st.text(max_size=200),  # not JSON at all
    st.binary(max_size=64),  # a binary frame (invalid UTF-8 included)
)


# --- the table under attack -------------------------------------------------------------


class Table:
    def __init__(self, live: LiveServer, players: list[Phone], hostile: Phone) -> None:
        self.live = live
        self.players = players
        self.hostile = hostile

    def state(self) -> Any:
        match = self.live.session.match
        assert match is not None, "the match must still be running"
        return match.rules.to_json(match.state)


@pytest.fixture
async def table(session: Session, config: Config) -> AsyncIterator[Table]:
    # The fuzzer is one phone sending as fast as it can; the flood limit is tested below.
    server = PhoneServer(session, config, limits=Limits(messages_per_s=1e9, message_burst=1e9))
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as http:
        live = LiveServer(server, f"http://127.0.0.1:{port}", http)
        phones = [await live.phone() for _ in range(3)]
        for name, phone, colour in zip(("Ada", "Bo", "Mallory"), phones, PALETTE, strict=False):
            await phone.join(session.room, name, colour)
        host = phones[0]
        await host.send({"type": "select", "game": "artbox"})
        await host.send({"type": "start", "options": {}})
        await host.view_where(lambda v: v["phase"] == "playing")
        for phone in phones:
            await phone.view_where(lambda v: v["phase"] == "playing")
        yield Table(live, phones[:2], phones[2])
        for phone in phones:
            await phone.ws.close()
    await runner.cleanup()


async def exchange(phone: Phone, frame: str | bytes) -> list[dict[str, Any]]:
    """Send one frame, then a ping as a marker; everything the phone got until the marker's
    pong (a ping frame's own pong comes first)."""
    if isinstance(frame, bytes):
        await phone.ws.send_bytes(frame)
    else:
        await phone.ws.send_str(frame)
    await phone.send({"type": "ping"})
    want = 2 if frame_is_ping(frame) else 1
    got: list[dict[str, Any]] = []
    while sum(d["type"] == "pong" for d in got) < want:
        msg = await phone.ws.receive(timeout=10)
        assert msg.type == WSMsgType.TEXT, f"the connection must stay open; got {msg.type}"
        got.append(json.loads(msg.data))
    return got


def frame_is_ping(frame: str | bytes) -> bool:
    if isinstance(frame, bytes):
        return False
    try:
        return bool(json.loads(frame) == {"type": "ping"})
    except (ValueError, RecursionError):
        return False


# Ten thousand messages take 60-110 s on two busy cores: the suite's 120 s limit per test
# is for a test that hangs, and this one is long by design.
@pytest.mark.timeout(300)
@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(batch=st.lists(frames, min_size=8, max_size=10))
async def test_fuzz_every_message_gets_one_clear_answer(table: Table,
                                                        batch: list[str | bytes]) -> None:
    for frame in batch:
        before = table.state()
        answers = [d for d in await exchange(table.hostile, frame) if d["type"] != "view"]
        SENT[0] += 1
        replies = answers[:-1]  # the last is the marker's pong
        assert len(replies) == 1, f"{frame!r:.200} got {answers}"
        reply = replies[0]
        assert reply["type"] in ("error", "ack", "welcome", "pong", "kicked"), reply
        if reply["type"] == "error":
            assert reply["code"] and isinstance(reply["message"], str) and reply["message"]
        if reply["type"] != "ack":
            assert table.state() == before, f"{frame!r:.200} changed the game"
    # The other players are never told about the hostile phone's mistakes.
    for phone in table.players:
        while True:
            try:
                msg = await phone.ws.receive(timeout=0.001)
            except TimeoutError:
                break
            assert msg.type == WSMsgType.TEXT and json.loads(msg.data)["type"] == "view"


def test_the_fuzzer_sent_enough() -> None:
    """Runs after the fuzz test (pytest keeps file order): the issue asks for 10,000."""
    if EXAMPLES >= 1300:
        assert SENT[0] >= 10_000, SENT[0]


# --- the worst single messages ----------------------------------------------------------


async def test_a_message_over_the_limit_is_refused_politely(table: Table) -> None:
    """Up to 8x `max_message_bytes` a phone hears `too_big` and keeps its connection."""
    limit = table.live.session.config.server.max_message_bytes
    big = json.dumps({"type": "act", "id": "big", "kind": "stroke",
                      "data": {"points": [[1, 2, 3]] * (limit // 8)}})
    assert limit < len(big) < 4 * limit
    before = table.state()
    answers = await exchange(table.hostile, big)
    assert answers[0]["type"] == "error" and answers[0]["code"] == "too_big"
    assert table.state() == before
    answers = await exchange(table.hostile, "x" * (2 * limit))
    assert answers[0]["code"] == "too_big"


async def test_ten_megabytes_close_only_that_connection(table: Table) -> None:
    """Past the hard limit the socket is closed (1009) before the message is buffered:
    the server, the game and the other phones go on."""
    huge = json.dumps({"type": "act", "id": "big", "kind": "stroke",
                       "data": {"points": [[1, 2, 3]] * 1_000_000}})
    assert len(huge) > 9_000_000
    before = table.state()
    # The box stops reading: it may close before the last byte is written.
    with contextlib.suppress(ConnectionError):
        await table.hostile.ws.send_str(huge)
    msg = await table.hostile.ws.receive(timeout=5)
    assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR)
    assert table.hostile.ws.close_code in (1009, 1006)
    assert table.state() == before
    await table.players[0].send({"type": "ping"})
    assert (await table.players[0].expect("pong"))["type"] == "pong"


async def test_deep_nesting_is_refused(table: Table) -> None:
    for depth in (1_000, 100_000):
        nested = '{"type": "act", "id": "n", "kind": "stroke", "data": {"a": ' + "[" * depth
        nested += "]" * depth + "}}"
        answers = await exchange(table.hostile, nested)
        assert answers[0]["type"] == "error", answers[0]


async def test_invalid_utf8_closes_only_that_connection(table: Table) -> None:
    """A text frame that is not UTF-8 breaks the WebSocket protocol itself: that socket is
    closed with 1007; the server, the game and the other phones go on."""
    before = table.state()
    writer = table.hostile.ws._writer
    await writer.send_frame(b'{"type": "ping", "x": "\xff\xfe"}', aiohttp.WSMsgType.TEXT)
    msg = await table.hostile.ws.receive(timeout=5)
    assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
    assert table.hostile.ws.close_code == 1007
    assert table.state() == before
    await table.players[0].send({"type": "ping"})
    assert (await table.players[0].expect("pong"))["type"] == "pong"


# --- HTTP -------------------------------------------------------------------------------


async def test_unknown_paths_and_traversal_get_nothing(live: LiveServer) -> None:
    for path in ("/nope", "/static/nope.js", "/static/../session.py",
                 "/static/%2e%2e/session.py", "/static/..%2fsession.py",
                 "/static/%2e%2e/%2e%2e/games/core.py", "/static//etc/passwd",
                 "/..%2f..%2fappliance/store.py"):
        async with live.http.get(live.url + path) as response:
            body = await response.text()
            assert response.status in (403, 404), (path, response.status)
            assert "import" not in body and "root:" not in body, path


async def test_a_websocket_from_another_origin_is_refused(live: LiveServer) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as caught:
        await live.http.ws_connect(live.url + "/ws", headers={"Origin": "http://evil.example"})
    assert caught.value.status == 403


async def test_a_flood_from_one_phone_is_dropped_and_said_once_a_second(
    live: LiveServer,
) -> None:
    phone = await live.phone()
    limits = live.server.limits
    for _ in range(int(limits.message_burst) + 200):
        await phone.send({"type": "ping"})
    got = []
    while True:
        try:
            got.append(await phone.receive(timeout=0.3))
        except TimeoutError:
            break
    pongs = sum(m["type"] == "pong" for m in got)
    slow = [m for m in got if m.get("code") == "slow_down"]
    assert int(limits.message_burst) <= pongs < int(limits.message_burst) + 50
    assert 1 <= len(slow) <= 2, "one warning a second, not one per dropped message"
    await asyncio.sleep(0.2)  # the bucket refills: the phone is served again
    await phone.send({"type": "ping"})
    assert (await phone.expect("pong"))["type"] == "pong"


async def test_too_many_connections_from_one_address_are_refused(live: LiveServer) -> None:
    """Past its address's sockets an anonymous one is told why and closed (1013, try
    again later); a seated token would be let in (tests/test_hostile_nat.py)."""
    live.server.limits = Limits(connections_per_address=3)
    for _ in range(3):
        phone = await live.phone()
        await phone.send({"type": "hello", "room": live.session.room})
        await phone.expect("welcome")
    phone = await live.phone()
    await phone.send({"type": "hello", "room": live.session.room})
    assert (await phone.expect("error"))["code"] == "too_many_connections"
    assert (await phone.ws.receive(timeout=3)).type == aiohttp.WSMsgType.CLOSE
    assert phone.ws.close_code == 1013


async def test_an_http_flood_is_refused_with_429(live: LiveServer) -> None:
    live.server.limits = Limits(requests_per_s=1, request_burst=20)
    live.server._request_buckets.clear()
    statuses = []
    for _ in range(40):
        async with live.http.get(live.url + "/healthz") as response:
            statuses.append(response.status)
    assert statuses[:20] == [200] * 20 and 429 in statuses[20:]
