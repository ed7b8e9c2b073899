"""Request bodies from a stranger: the host page's login reads at most a few KiB, in time.

Before, `request.read()` took up to the app's 1 MiB per request with no time limit: 184
half-sent login bodies from 4 addresses held 250 MB for as long as they liked. Here, on
a real server on loopback: a declared length over the limit is refused unread (413), a
chunked body that grows past it is cut (413), a body that stops coming is answered 408
after the header timeout and its connection closed; the right PIN still logs in.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from appliance.door.host_api import BODY_BYTES, HostApi
from appliance.door.server import GuardedRunner, PhoneServer
from appliance.system.config import Config, HostSettings
from appliance.table.packs import PackShelf
from appliance.table.session import Session
from tests.conftest import FakeClock
from tests.test_hostile_limits import ATTACKER, closed_within

PIN = "4711"


@pytest.fixture
async def port(session: Session, config: Config, clock: FakeClock, tmp_path: Path
               ) -> AsyncIterator[int]:
    config = dataclasses.replace(
        config, host=HostSettings(pin=PIN),
        server=dataclasses.replace(config.server, header_timeout_s=2))
    session.config = config
    server = PhoneServer(session, config)
    HostApi(session, config, PackShelf(tmp_path / "packs", ()), clock).install(server.app)
    runner = GuardedRunner(server, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    yield runner.addresses[0][1]
    await runner.cleanup()


async def post_head(port: int, headers: str) -> tuple[asyncio.StreamReader,
                                                       asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                   local_addr=(ATTACKER, 0))
    writer.write(f"POST /host/api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Content-Type: application/json\r\n{headers}\r\n".encode())
    return reader, writer


def answer(said: bytes) -> tuple[int, str]:
    head, _, body = said.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)["error"]["code"] if body.startswith(b"{") else ""


async def test_a_declared_body_over_the_limit_is_refused_unread(port: int) -> None:
    reader, writer = await post_head(port, "Content-Length: 1048576\r\n")
    said = await closed_within(reader, 3)
    assert answer(said) == (413, "too_big")
    writer.close()


async def test_a_chunked_body_growing_past_the_limit_is_cut(port: int) -> None:
    reader, writer = await post_head(port, "Transfer-Encoding: chunked\r\n")
    chunk = b"%x\r\n%s\r\n" % (4096, b" " * 4096)
    try:
        for _ in range(BODY_BYTES // 4096 + 4):
            writer.write(chunk)
            await writer.drain()
    except ConnectionError:
        pass
    said = await closed_within(reader, 3)
    assert answer(said) == (413, "too_big")
    writer.close()


async def test_bodies_that_stop_coming_are_answered_and_closed_in_time(port: int) -> None:
    held = []
    for _ in range(5):  # half-sent logins: each would hold its body for ever
        reader, writer = await post_head(port, "Content-Length: 4000\r\n")
        writer.write(b'{"pin": "')
        held.append((reader, writer))
    started = time.perf_counter()
    for reader, _writer in held:
        assert answer(await closed_within(reader, 5)) == (408, "too_slow")
    assert time.perf_counter() - started < 4  # the header timeout is 2 s here
    for _reader, writer in held:
        writer.close()
    # The host, meanwhile and after, logs in as ever.
    async with aiohttp.ClientSession() as http, http.post(
            f"http://127.0.0.1:{port}/host/api/login", json={"pin": PIN}) as response:
        assert response.status == 200, await response.text()
