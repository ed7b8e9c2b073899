"""Shared fixtures: a config in a temp dir, a fake clock, the toy game, a live phone server."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import aiohttp
import pytest
from aiohttp import web

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from appliance.door.server import PhoneServer
from appliance.system.config import Config, StorageSettings
from appliance.table.session import PALETTE, Session
from appliance.table.store import Store
from games import registry
from tests import toygame

pytest_plugins = ["tests.browser"]  # the `box` and `browser` fixtures

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
"""Test data with their licences and SOURCE notes; nothing in the repository reads outside it."""


class FakeClock:
    """Session time that moves only when a test says so: no test sleeps for a timer."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def match_seeds(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every match a test starts in this process is dealt from seeds of the test's own
    (its id's digest), so a failure on a dealt card replays: a secrets audit once failed
    in CI only, on a card the random seed of that run dealt.
    `EASEL_TEST_MATCH_SEEDS=random` deals from the system's randomness instead, to look
    for such seeds; a test that patches the seed itself wins over this."""
    if os.environ.get("EASEL_TEST_MATCH_SEEDS") == "random":
        yield
        return
    digest = hashlib.blake2b(request.node.nodeid.encode(), digest_size=8).digest()
    dealer = random.Random(digest)
    with mock.patch("appliance.table.session.secrets.randbits", side_effect=dealer.getrandbits):
        yield


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(tmp_path)))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "easel.sqlite3")
    yield s
    s.close()


@pytest.fixture
def race() -> Iterator[toygame.RaceToTwenty]:
    registry.register(toygame.RULES)
    yield toygame.RULES
    registry.unregister(toygame.RULES.id)


@pytest.fixture
def session(store: Store, config: Config, clock: FakeClock) -> Session:
    return Session(store, config, "http://192.0.2.7:8080", clock)


class Phone:
    """A WebSocket client that speaks docs/protocol.md, like the phone page does."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.token: str | None = None
        self.seat: int | None = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

    async def receive(self, timeout: float = 5.0) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        assert msg.type == aiohttp.WSMsgType.TEXT, f"wanted a text message, got {msg.type}"
        data: dict[str, Any] = json.loads(msg.data)
        self.seen.append(data)
        if data["type"] == "welcome":
            self.token, self.seat = data["token"], data["seat"]
        return data

    async def expect(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of type `kind`, skipping views (which may come at any time)."""
        while True:
            data = await self.receive(timeout)
            if data["type"] == kind:
                return data
            assert data["type"] == "view", f"wanted {kind}, got {data}"

    async def view_where(self, predicate: Any, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until the newest view makes predicate(view) true, and return it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            # Drain what has arrived already, so an old view is never mistaken for news.
            try:
                while True:
                    await self.receive(timeout=0.02)
            except TimeoutError:
                pass
            views = [m for m in self.seen if m["type"] == "view"]
            if views and predicate(views[-1]):
                return views[-1]
            if loop.time() > end:
                raise TimeoutError(f"no view matched; the last was {views[-1] if views else None}")
            await self.receive(max(0.01, end - loop.time()))

    async def join(self, room: str, name: str, colour: str | None = None) -> dict[str, Any]:
        await self.send({"type": "hello", "room": room, "token": None})
        await self.expect("welcome")
        await self.send({"type": "join", "name": name, "colour": colour or self.free_colour()})
        return await self.expect("welcome")

    async def join_answer(self, room: str, name: str, colour: str) -> str:
        """Hello and join: the role the box seats the phone in ("player"), or the code of
        its refusal ("too_many_seats")."""
        await self.send({"type": "hello", "room": room})
        await self.expect("welcome")
        await self.send({"type": "join", "name": name, "colour": colour})
        answer = await self.receive()
        while answer["type"] == "view":
            answer = await self.receive()
        return str(answer.get("role") or answer.get("code"))

    def free_colour(self) -> str:
        views = [m for m in self.seen if m["type"] == "view"]
        taken = {s["colour"] for s in views[-1]["seats"]} if views else set()
        return next(c for c in PALETTE if c not in taken)


class LiveServer:
    def __init__(self, server: PhoneServer, url: str, http: aiohttp.ClientSession) -> None:
        self.server = server
        self.session = server.session
        self.url = url
        self.http = http
        self.phones: list[Phone] = []

    async def phone(self, **headers: str) -> Phone:
        ws = await self.http.ws_connect(self.url + "/ws", headers=headers or None)
        phone = Phone(ws)
        self.phones.append(phone)
        return phone


@pytest.fixture
async def live(session: Session, config: Config) -> AsyncIterator[LiveServer]:
    """The real PhoneServer on a free port of 127.0.0.1, with real WebSocket clients."""
    server = PhoneServer(session, config)
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as http:
        live = LiveServer(server, f"http://127.0.0.1:{port}", http)
        yield live
        for phone in live.phones:
            await phone.ws.close()
    await runner.cleanup()
