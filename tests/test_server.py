"""The phone server on a real socket, with real WebSocket clients (docs/protocol.md)."""

from __future__ import annotations

import json
from dataclasses import replace

import aiohttp
import pytest

from appliance.table.session import HOST, PALETTE
from tests.conftest import LiveServer, Phone
from tests.toygame import RaceToTwenty


async def seated(live: LiveServer, count: int) -> list[Phone]:
    phones = []
    for i in range(count):
        phone = await live.phone()
        welcome = await phone.join(live.session.room, f"Player {i}", PALETTE[i])
        assert (welcome["role"], welcome["seat"]) == ("player", i)
        phones.append(phone)
    return phones


async def test_phones_join_and_see_each_other(live: LiveServer) -> None:
    ada, bo = await seated(live, 2)
    for phone in (ada, bo):
        view = await phone.view_where(lambda v: len(v["seats"]) == 2)
        assert [s["name"] for s in view["seats"]] == ["Player 0", "Player 1"]
        assert all(s["connected"] for s in view["seats"])
        assert view["wifi"] is None
    assert (await ada.view_where(lambda v: True))["you"] == {
        "role": "player",
        "seat": 0,
        "host": True,
    }


async def test_a_reconnect_with_the_token_returns_to_the_same_seat(live: LiveServer) -> None:
    ada, bo = await seated(live, 2)
    token = bo.token
    await bo.ws.close()
    await ada.view_where(lambda v: not v["seats"][1]["connected"])
    again = await live.phone()
    await again.send({"type": "hello", "room": live.session.room, "token": token})
    welcome = await again.expect("welcome")
    assert (welcome["role"], welcome["seat"], welcome["token"]) == ("player", 1, token)
    await ada.view_where(lambda v: v["seats"][1]["connected"])


async def test_the_ninth_phone_becomes_a_spectator(live: LiveServer) -> None:
    phones = await seated(live, 8)
    ninth = await live.phone()
    welcome = await ninth.join(live.session.room, "Ninth", PALETTE[0])
    assert welcome["role"] == "spectator" and welcome["token"] is None
    view = await phones[0].view_where(lambda v: v["spectators"] == 1)
    assert len(view["seats"]) == 8
    # Every colour is taken: the tenth phone watches without one (the page sends "").
    tenth = await live.phone()
    await tenth.send({"type": "hello", "room": live.session.room, "token": None})
    await tenth.expect("welcome")
    await tenth.send({"type": "join", "name": "Tenth", "colour": ""})
    welcome = await tenth.expect("welcome")
    assert welcome["role"] == "spectator" and welcome["token"] is None


async def test_the_host_kicks_and_the_kicked_phone_is_told(live: LiveServer) -> None:
    ada, bo, cy = await seated(live, 3)
    await bo.send({"type": "kick", "seat": 2})
    error = await bo.expect("error")
    assert error["code"] == "not_host" and error["message"]
    await ada.send({"type": "kick", "seat": 2})
    kicked = await cy.expect("kicked")
    assert kicked["code"] == "kicked"
    await ada.view_where(lambda v: [s["seat"] for s in v["seats"]] == [0, 1])
    # The kicked phone can join again as a newcomer.
    await cy.send({"type": "join", "name": "Cy again", "colour": PALETTE[5]})
    assert (await cy.expect("welcome"))["seat"] == 2


async def test_the_kiosk_kicks_too(live: LiveServer) -> None:
    ada, bo = await seated(live, 2)
    live.session.kick(HOST, 0)
    assert (await ada.expect("kicked"))["code"] == "kicked"
    view = await bo.view_where(lambda v: len(v["seats"]) == 1)
    assert view["you"]["host"] is True


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("{not json", "bad_json", "not valid JSON"),
        ('{"type": "dance"}', "unknown_type", "'dance'"),
        ('{"type": "kick", "seat": "two"}', "invalid", "$.seat"),
        ('{"room": "X"}', "invalid", "type"),
        ('{"type": "hello", "room": "X", "extra": 1}', "invalid", "extra"),
        ("[1, 2]", "invalid", "object"),
        ('{"type": "hello", "room": "NOPE"}', "wrong_room", "NOPE"),
        ('{"type": "act", "id": "1", "kind": "add"}', "join_first", "seat"),
    ],
)
async def test_bad_messages_get_a_clear_error_and_nobody_else_notices(
    live: LiveServer, text: str, code: str, words: str
) -> None:
    await seated(live, 2)
    version = live.session.version
    stranger = await live.phone()
    await stranger.send({"type": "hello", "room": live.session.room})
    await stranger.expect("welcome")
    await stranger.ws.send_str(text)
    error = await stranger.expect("error")
    assert error["code"] == code and words in error["message"], error
    await stranger.send({"type": "ping"})
    assert (await stranger.expect("pong"))["type"] == "pong"  # the connection is kept
    assert live.session.version == version
    assert len(live.session.seats) == 2


async def test_messages_before_hello_are_refused(live: LiveServer) -> None:
    phone = await live.phone()
    await phone.send({"type": "join", "name": "A", "colour": PALETTE[0]})
    assert (await phone.expect("error"))["code"] == "hello_first"


async def test_an_oversized_message_is_refused_and_the_connection_kept(live: LiveServer) -> None:
    (ada,) = await seated(live, 1)
    limit = live.server.config.server.max_message_bytes
    await ada.send({"type": "act", "id": "big", "kind": "add", "data": {"x": "é" * limit}})
    error = await ada.expect("error")
    assert error["code"] == "too_big" and str(limit) in error["message"]
    await ada.send({"type": "ping"})
    await ada.expect("pong")


async def test_binary_frames_are_refused(live: LiveServer) -> None:
    phone = await live.phone()
    await phone.ws.send_bytes(b"\x00\x01")
    assert (await phone.expect("error"))["code"] == "not_text"


async def test_errors_speak_czech_when_the_table_does(live: LiveServer) -> None:
    config = live.server.config
    live.server.config = replace(config, table=replace(config.table, language="cs"))
    phone = await live.phone()
    await phone.send({"type": "hello", "room": "QQQQ"})
    error = await phone.expect("error")
    assert error["message"] == "Stůl s kódem QQQQ tu není."


async def test_a_game_is_played_over_websockets(live: LiveServer, race: RaceToTwenty) -> None:
    ada, bo = await seated(live, 2)
    await bo.send({"type": "select", "game": "race"})
    assert (await bo.expect("error"))["code"] == "not_host"
    await ada.send({"type": "select", "game": "race"})
    await ada.send({"type": "start", "options": {}})
    view = await bo.view_where(lambda v: v["phase"] == "playing")
    my_word = view["match"]["state"]["your_word"]
    assert my_word and my_word not in json.dumps(ada.seen)
    await bo.send({"type": "act", "id": "b1", "kind": "add", "data": {"n": 1}})
    error = await bo.expect("error")
    assert (error["code"], error["ref"]) == ("illegal", "b1")
    assert "not your turn" in error["message"]
    await ada.send({"type": "act", "id": "a1", "kind": "add", "data": {"n": 3}})
    assert (await ada.expect("ack"))["id"] == "a1"
    await ada.send({"type": "act", "id": "a1", "kind": "add", "data": {"n": 3}})
    assert (await ada.expect("ack"))["id"] == "a1"  # a resend is acknowledged again ...
    view = await bo.view_where(lambda v: v["match"] and v["match"]["state"]["total"] == 3)
    assert live.session.match is not None
    assert live.session.match.state.total == 3  # ... and applied once


async def test_a_websocket_from_another_origin_is_refused(live: LiveServer) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await live.phone(Origin="http://evil.example")
    assert err.value.status == 403
    same = await live.phone(Origin=live.url)
    await same.send({"type": "ping"})
    await same.expect("pong")


async def test_healthz_and_the_phone_page(live: LiveServer) -> None:
    async with live.http.get(live.url + "/healthz") as response:
        body = await response.json()
    assert body["ok"] is True and body["room"] == live.session.room
    async with live.http.get(live.url + "/") as response:
        assert response.status == 200
        assert "text/html" in response.headers["Content-Type"]
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    for path in ("/static/../session.py", "/static/%2e%2e/session.py", "/nope"):
        async with live.http.get(live.url + path) as response:
            assert response.status in (403, 404), path
    async with live.http.get(live.url + "/kiosk.png") as response:
        assert response.status == 404  # this server was started without a kiosk


async def test_leaving_is_not_being_kicked(live: LiveServer) -> None:
    _, bo = await seated(live, 2)
    await bo.send({"type": "leave"})
    welcome = await bo.expect("welcome")
    assert (welcome["role"], welcome["seat"], welcome["token"]) == ("guest", None, None)
    view = await bo.view_where(lambda v: len(v["seats"]) == 1)
    assert view["you"] == {"role": "guest", "seat": None, "host": False}
    assert not [m for m in bo.seen if m["type"] == "kicked"]


async def test_a_guest_is_never_the_host(live: LiveServer) -> None:
    phone = await live.phone()
    await phone.send({"type": "hello", "room": live.session.room})
    await phone.expect("welcome")
    view = await phone.view_where(lambda v: True)
    assert view["seats"] == [] and view["you"]["host"] is False


async def test_a_host_phone_cannot_bring_its_own_deck(live: LiveServer) -> None:
    """The decks are the packs' to give (checked, family-safe): a phone's are dropped."""
    import games.artbox  # noqa: F401  (registers ArtBox)

    phones = [await live.phone() for _ in range(3)]
    for i, phone in enumerate(phones):
        await phone.join(live.session.room, f"P{i}", PALETTE[i])
    await phones[0].send({"type": "select", "game": "artbox"})
    mine = [f"word{i}" for i in range(40)]
    await phones[0].send({"type": "start", "options": {"words": mine}})
    await phones[0].view_where(lambda v: v["phase"] == "playing")
    assert live.session.match is not None
    assert "words" not in live.session.match.record.options


async def test_a_repeated_hello_makes_no_table_version_and_no_view_for_the_others(
    live: LiveServer,
) -> None:
    """Issue 28, item 3: a phone re-sending hello with its own token (or as the same
    watcher) cost two table versions and a view to every phone each time."""
    ada, bo = await seated(live, 2)
    watcher = await live.phone()
    await watcher.send({"type": "hello", "room": live.session.room})
    await watcher.expect("welcome")
    for phone in (ada, bo, watcher):
        await phone.view_where(lambda v: v["version"] == live.session.version)
    before, fan_outs = live.session.version, live.server.fan_outs
    for _ in range(10):
        await bo.send({"type": "hello", "room": live.session.room, "token": bo.token})
        assert (await bo.expect("welcome"))["seat"] == 1
        await watcher.send({"type": "hello", "room": live.session.room})
        await watcher.expect("welcome")
    await ada.send({"type": "ping"})
    await ada.expect("pong")  # (whatever came before the pong has come)
    assert live.session.version == before and live.server.fan_outs == fan_outs
    assert not [m for m in ada.seen if m["type"] == "view" and m["version"] > before]
