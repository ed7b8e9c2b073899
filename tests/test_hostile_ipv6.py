"""Per-address limits against IPv6 phones: a device has a whole /64 to pick from.

Every per-address limit (seats, TCP connections, WebSockets, requests, unfinished bytes,
room-code and PIN guesses, zip downloads) counts `client_key`: an IPv6 address by its
/64, an IPv4 one that came on a dual-stack socket (::ffff:a.b.c.d) as itself, and never
what a header (X-Forwarded-For, Forwarded) claims. The /64 attack runs a real server on
a loopback of its own (tests/ipv6_box.py, in a private network namespace: root only);
the dual-stack one runs here on [::].
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from appliance.app import listen, listen_hosts
from appliance.door.server import GuardedRunner, PhoneServer
from appliance.system.config import Config
from appliance.system.ratelimit import client_key
from appliance.table.session import PALETTE, Session
from tests.conftest import REPO, Phone


@pytest.mark.parametrize(("address", "key"), [
    ("192.0.2.7", "192.0.2.7"),
    ("::ffff:192.0.2.7", "192.0.2.7"),
    ("::ffff:127.0.0.1", "127.0.0.1"),
    ("::1", "::1"),
    ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:dead:beef:1:2", "2001:db8:1:2::/64"),
    ("2001:DB8:1:2:0:0:0:9", "2001:db8:1:2::/64"),
    ("fe80::1%wlan0", "fe80::/64"),
    (None, "?"),
    ("", "?"),
])
def test_a_client_is_counted_by_its_ipv4_address_or_its_ipv6_64(
        address: str | None, key: str) -> None:
    assert client_key(address) == key


def test_two_ipv6_networks_are_two_clients() -> None:
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")


def _can_make_a_private_network() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    try:
        done = subprocess.run(["unshare", "--net", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@pytest.mark.skipif(not _can_make_a_private_network(),
                    reason="needs a network namespace of its own (root) for a /64 on loopback")
def test_a_device_with_a_whole_ipv6_64_is_still_one_address() -> None:
    setup = (
        "ip link set lo up && sysctl -qw net.ipv6.ip_nonlocal_bind=1"
        " && ip -6 route add local 2001:db8:16::/64 dev lo table local"
        " && ip -6 route add local 2001:db8:17::/64 dev lo table local"
        f" && exec {sys.executable} -m tests.ipv6_box"
    )
    done = subprocess.run(["unshare", "--net", "sh", "-c", setup], cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    # Three addresses of one /64, each claiming another address in its headers: two seats.
    assert result["seats"] == ["player", "player", "too_many_seats"]
    # Another /64 is another phone.
    assert result["neighbour_seat"] == "player"
    # Eight connections from eight addresses of the /64, over a cap of 6: two refused.
    assert result["tcp_refused"] == 2
    assert result["neighbour_http"] == 200


def _dual_stack() -> bool:
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            probe.bind(("::", 0))
    except OSError:
        return False
    return True


@pytest.fixture
async def dual_stack(session: Session, config: Config) -> AsyncIterator[int]:
    """The phone server on [::] (IPv4 phones arrive as ::ffff:a.b.c.d); its port."""
    if not _dual_stack():
        pytest.skip("no dual-stack IPv6 socket here")
    session.config = dataclasses.replace(
        config, table=dataclasses.replace(config.table, seats_per_address=2))
    server = PhoneServer(session, session.config)
    runner = GuardedRunner(server, access_log=None)
    await runner.setup()
    sock = socket.socket(socket.AF_INET6)
    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    sock.bind(("::", 0))
    site = web.SockSite(runner, sock)
    await site.start()
    yield sock.getsockname()[1]
    await runner.cleanup()


async def _join(port: int, address: str, session: Session, n: int,
                headers: dict[str, str] | None = None) -> str:
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0))) as http:
        phone = Phone(await http.ws_connect(f"http://127.0.0.1:{port}/ws", headers=headers))
        answer = await phone.join_answer(session.room, f"P{n}", PALETTE[n])
        await phone.ws.close()
        return answer


async def test_an_ipv4_phone_on_a_dual_stack_socket_is_counted_as_itself(
        dual_stack: int, session: Session) -> None:
    forged = {"X-Forwarded-For": "198.51.100.1", "Forwarded": "for=198.51.100.2"}
    seats = [await _join(dual_stack, "127.0.0.2", session, n, forged) for n in range(3)]
    assert seats == ["player", "player", "too_many_seats"]
    # ::ffff:127.0.0.1 is the box itself (a browser on the kiosk): not counted.
    box = [await _join(dual_stack, "127.0.0.1", session, n) for n in range(3, 6)]
    assert box == ["player", "player", "player"]
    # The box's own health report, with the room code, is the box's to read.
    async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=("127.0.0.1", 0))) as http, \
            http.get(f"http://127.0.0.1:{dual_stack}/healthz") as answer:
        assert (await answer.json())["room"] == session.room


async def test_host_dual_stack_listens_on_ipv4_and_ipv6_both(
        session: Session, config: Config) -> None:
    """`host = "::"` (the config's way to take IPv6 phones too): the QR code's IPv4
    address must answer as well as an IPv6 one (asyncio makes "::" IPv6-only)."""
    if not socket.has_ipv6:
        pytest.skip("no IPv6 here")
    runner = GuardedRunner(PhoneServer(session, config), access_log=None)
    await runner.setup()
    try:
        sites = await listen(runner, "::", 0)
        port = sites[0]._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        async with aiohttp.ClientSession() as http:
            for url in (f"http://127.0.0.1:{port}/healthz", f"http://[::1]:{port}/healthz"):
                async with http.get(url) as answer:
                    assert answer.status == 200, url
    finally:
        await runner.cleanup()
    assert listen_hosts("0.0.0.0") == ("0.0.0.0",)
