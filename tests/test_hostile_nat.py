"""Players behind one address with a socket flood, on a real server on loopback.

A guest Wi-Fi's NAT makes every phone on it one address. A loop from that address
opening WebSockets as fast as it may (2 a second, 40 saved up) used to get every new
WebSocket of the address refused, a seated player's reconnect too. Now a socket past
its address's WebSockets (opened a second, or open at once) is taken on probation: its
hello must carry a seated token (which gets its seat, within that seat's own opens a
second), and an anonymous one is told why and closed (1013, try again later), its page
backing off. 127.0.0.5 is the shared address here, 127.0.0.3 another one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from appliance.door.server import PhoneServer
from appliance.system.config import Config
from appliance.system.ratelimit import Limits
from appliance.table.session import PALETTE, Session
from tests.conftest import Phone
from tests.test_hostile_limits import HONEST, Box, served

NAT = "127.0.0.5"


@pytest.fixture
async def box(session: Session, config: Config) -> AsyncIterator[Box]:
    limits = Limits(sockets_per_s=0.2, socket_burst=6, connections_per_address=4)
    async with served(PhoneServer(session, config, limits=limits)) as box:
        yield box


async def hello(box: Box, address: str, token: str | None = None) -> tuple[Phone, Any]:
    """A socket from `address` saying hello: (the phone, its first answer or how it closed)."""
    phone = await box.phone(address)
    await phone.send({"type": "hello", "room": box.session.room, "token": token})
    msg = await phone.ws.receive(timeout=5)
    if msg.type != aiohttp.WSMsgType.TEXT:
        return phone, msg.type
    return phone, json.loads(msg.data)


async def closed_with(phone: Phone) -> int | None:
    """The close code the box ends `phone`'s socket with (answers before it skipped)."""
    async with asyncio.timeout(5):
        while True:
            msg = await phone.ws.receive()
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING):
                return phone.ws.close_code
            assert json.loads(msg.data)["type"] != "view", "an anonymous opener got a view"


async def test_a_seated_phone_gets_in_past_a_flood_of_sockets_from_its_address(
        box: Box) -> None:
    token = box.session.join("Ada", PALETTE[0]).token
    assert token is not None
    # A loop at the same address opens sockets and closes them as fast as it may.
    anonymous: list[Any] = []
    for _ in range(12):
        phone, first = await hello(box, NAT)
        anonymous.append(first)
        await phone.ws.close()
    welcomed = [a for a in anonymous if isinstance(a, dict) and a["type"] == "welcome"]
    refused = [a for a in anonymous if isinstance(a, dict) and a.get("code") == "too_many_sockets"]
    assert len(welcomed) <= 7 and len(refused) >= 5, anonymous  # its budget: 6 at once
    # The seated phone behind the same address reconnects: its seat, and its view.
    phone, first = await hello(box, NAT, token)
    assert isinstance(first, dict) and first["type"] == "welcome", first
    assert first["role"] == "player" and first["seat"] == 0
    await phone.expect("view")
    await phone.send({"type": "ping"})
    await phone.expect("pong")
    # ... and the anonymous opener is still turned away, told why, the socket closed.
    stranger, first = await hello(box, NAT)
    assert isinstance(first, dict) and first["code"] == "too_many_sockets", first
    assert await closed_with(stranger) == 1013
    # Another address is not held by any of it.
    _other, first = await hello(box, HONEST)
    assert isinstance(first, dict) and first["type"] == "welcome"


async def test_a_seated_phone_gets_in_past_its_address_s_open_sockets(box: Box) -> None:
    token = box.session.join("Ada", PALETTE[0]).token
    held = [await hello(box, NAT) for _ in range(4)]  # the address's 4, held open
    assert all(isinstance(first, dict) and first["type"] == "welcome" for _, first in held)
    stranger, first = await hello(box, NAT)
    assert isinstance(first, dict) and first["code"] == "too_many_connections", first
    assert await closed_with(stranger) == 1013
    phone, first = await hello(box, NAT, token)
    assert isinstance(first, dict) and first["type"] == "welcome" and first["seat"] == 0
    await phone.expect("view")


async def test_a_wrong_token_or_none_on_probation_is_no_seat_and_no_guess(box: Box) -> None:
    for _ in range(6):
        phone, _first = await hello(box, NAT)
        await phone.ws.close()
    for token in (None, "not-a-token"):
        phone, first = await hello(box, NAT, token)
        assert isinstance(first, dict) and first["code"] == "too_many_sockets", first
        assert await closed_with(phone) == 1013
    assert box.server.room_guesses.wait(NAT) == 0  # a refusal is no room-code guess


async def test_a_seat_opening_sockets_in_a_loop_is_held_to_its_own_budget(box: Box) -> None:
    token = box.session.join("Ada", PALETTE[0]).token
    for _ in range(6):  # the address's budget spent
        phone, _first = await hello(box, NAT)
        await phone.ws.close()
    answers = []
    for _ in range(10):
        phone, first = await hello(box, NAT, token)
        answers.append(first["type"] if isinstance(first, dict) else first)
        await phone.ws.close()
    assert answers[:6] == ["welcome"] * 6 and "error" in answers[6:], answers


async def test_a_seated_phone_gets_in_past_its_address_s_request_flood(
        session: Session, config: Config) -> None:
    """Past the address's HTTP requests a second a page is refused 429, but a WebSocket is
    taken on probation: the seated phone gets its seat, an anonymous socket is turned away."""
    limits = Limits(requests_per_s=0.5, request_burst=5)
    async with served(PhoneServer(session, config, limits=limits)) as box:
        token = session.join("Ada", PALETTE[0]).token
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(local_addr=(NAT, 0))) as http:
            statuses = []
            for _ in range(8):
                async with http.get(box.url + "/healthz") as answer:
                    statuses.append(answer.status)
            assert statuses[-1] == 429, statuses
        _phone, first = await hello(box, NAT, token)
        assert isinstance(first, dict) and first["type"] == "welcome", first
        assert first["seat"] == 0
        stranger, first = await hello(box, NAT)
        assert isinstance(first, dict) and first["code"] == "too_many_sockets", first
        assert await closed_with(stranger) == 1013
