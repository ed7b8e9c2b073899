"""Eight phones in a process of their own: join, play in turn, time every round trip.

`python -m tests.bench.phones URL ROOM ACTIONS` prints one JSON line per action:
{"version": v, "sent": t0, "all_phones": t1} with CLOCK_MONOTONIC times (system-wide on
Linux, so the appliance's process can compare its own kiosk times against them).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import aiohttp

PHONES = 8
COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")


class BenchPhone:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.changed = asyncio.Event()
        self.welcome: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data["type"] == "view":
                self.view = data
                self.changed.set()
            elif data["type"] == "welcome" and data["role"] != "guest":
                self.welcome.set_result(data)
            elif data["type"] == "error":
                print(f"error: {data}", file=sys.stderr)

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

    async def until(self, version: int) -> None:
        while self.view.get("version", -1) < version:
            self.changed.clear()
            await self.changed.wait()


async def main(url: str, room: str, actions: int) -> None:
    async with aiohttp.ClientSession() as http:
        phones = [BenchPhone(await http.ws_connect(url + "/ws")) for _ in range(PHONES)]
        readers = [asyncio.create_task(p.read()) for p in phones]
        for i, phone in enumerate(phones):
            await phone.send({"type": "hello", "room": room})
            await phone.send({"type": "join", "name": f"Phone {i}", "colour": COLOURS[i]})
            await phone.welcome
        host = phones[0]
        await host.send({"type": "select", "game": "race"})
        done = 0
        while done < actions:
            if host.view.get("phase") != "playing":
                await host.send({"type": "start", "options": {"target": 50}})
                while host.view.get("phase") != "playing":
                    host.changed.clear()
                    await host.changed.wait()
                await asyncio.gather(*(p.until(host.view["version"]) for p in phones))
            version = max(p.view["version"] for p in phones)
            turn = host.view["match"]["state"]["turn"]
            sent = time.monotonic()
            await phones[turn].send(
                {"type": "act", "id": f"a{done}", "kind": "add", "data": {"n": 1}}
            )
            await asyncio.gather(*(p.until(version + 1) for p in phones))
            line = {"version": version + 1, "sent": sent, "all_phones": time.monotonic()}
            print(json.dumps(line), flush=True)
            done += 1
            await asyncio.sleep(0.005)  # people do not act back to back
        print(json.dumps({"connected": PHONES}), flush=True)
        await asyncio.sleep(0.5)  # let the box measure its memory with every phone on
        for phone in phones:
            await phone.ws.close()
        for reader in readers:
            reader.cancel()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
