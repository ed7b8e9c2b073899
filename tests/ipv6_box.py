"""The box's per-address limits seen from IPv6 phones, on a real server on loopback.

Run by tests/test_hostile_ipv6.py inside a network namespace of its own (`unshare
--net`), where the loopback carries a whole /64 of documentation addresses
(2001:db8:16::/64, routed locally, bound with `ip_nonlocal_bind`): one device there may
use any of its 2^64 addresses, as a stranger on the café's Wi-Fi can. Prints one JSON
object of what happened for the test to judge; touches nothing outside the namespace.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from appliance.door.server import GuardedRunner, PhoneServer
from appliance.system.config import Config, StorageSettings
from appliance.system.ratelimit import Limits
from appliance.table.session import PALETTE, Session
from appliance.table.store import Store
from tests.conftest import FakeClock, Phone

STRANGER = "2001:db8:16::{}"  # one /64: every address of it is one device's to take
NEIGHBOUR = "2001:db8:17::5"  # another /64


async def attack(data_dir: Path) -> dict[str, Any]:
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(data_dir)))
    store = Store(data_dir / "easel.sqlite3")
    session = Session(store, config, "http://[::1]:8080", FakeClock())
    server = PhoneServer(session, config, limits=Limits(tcp_per_address=6))
    runner = GuardedRunner(server, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "::1", 0)
    await site.start()
    port = runner.addresses[0][1]
    url = f"http://[::1]:{port}"
    clients: list[aiohttp.ClientSession] = []

    def http_from(address: str) -> aiohttp.ClientSession:
        client = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(address, 0), force_close=True))
        clients.append(client)
        return client

    async def joined(address: str, n: int, spoof: str) -> str:
        # Each time a header claims another address: the box must not believe it.
        ws = await http_from(address).ws_connect(
            url + "/ws", headers={"X-Forwarded-For": spoof, "Forwarded": f"for={spoof}",
                                  "X-Real-IP": spoof})
        return await Phone(ws).join_answer(session.room, f"Player {n}", PALETTE[n])

    result: dict[str, Any] = {}
    try:
        # Seats: three phones from three addresses of one /64, each with a forged header.
        result["seats"] = [await joined(STRANGER.format(10 + n), n, f"198.51.100.{n}")
                           for n in range(3)]
        result["neighbour_seat"] = await joined(NEIGHBOUR, 3, "198.51.100.9")
        # TCP connections: one each from addresses of the /64, past the cap of 6.
        held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        for n in range(8):
            held.append(await asyncio.open_connection(
                "::1", port, local_addr=(STRANGER.format(100 + n), 0)))
        refused = 0
        for reader, writer in held:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: box\r\n\r\n")
            head = await asyncio.wait_for(reader.read(12), 3)
            refused += head.startswith(b"HTTP/1.1 429")
        result["tcp_refused"] = refused
        for _reader, writer in held:
            writer.close()
        neighbour = http_from(NEIGHBOUR)
        async with neighbour.get(url + "/healthz") as answer:
            result["neighbour_http"] = answer.status
    finally:
        for client in clients:
            await client.close()
        await runner.cleanup()
        store.close()
    return result


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(asyncio.run(attack(Path(tmp)))))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
