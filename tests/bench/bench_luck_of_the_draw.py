"""Luck of the Draw's figures: the gallery frame with 8 drawings, and 8 phones handing in
2,000-point drawings at the same instant.

`gallery_frame_ms_8_drawings`: the kiosk (1920x1080, SDL dummy) redrawing the voting
frame (8 drawings of 30 hand-like strokes, their chips, the Category card) for a new view
version, as when one more player votes; drawings painted once, then blitted.

`submit_8_drawings_ms`: the appliance runs in this process (its real server, session,
store and kiosk); 8 phones in another process each send a 2,000-point stroke and "done" at
the same instant, and the time runs until every phone holds the view with the gallery
laid out (and the kiosk has drawn it). Repeated over fresh matches.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import asyncio
import copy
import dataclasses
import json
import math
import statistics
import sys
import tempfile
import time
from typing import Any

import aiohttp

from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.luck_of_the_draw import caches_of
from tests.bench import percentile, print_figures

FRAMES = 300
SUBMITS = 12
POINTS = 2000
PHONES = 8
COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")


# --- the gallery frame --------------------------------------------------------------------


def gallery_frame() -> dict[str, float]:
    from tests.test_luck_of_the_draw_screens import envelope, state_in

    view = envelope(state_in("voting", players=8, strokes=30), 8)
    views = []
    for i in range(FRAMES):
        rebuilt = copy.deepcopy(view)
        rebuilt["version"] = 2 + i
        rebuilt["match"]["state"]["voted"] = i % 8
        views.append(rebuilt)
    kiosk = Kiosk((1920, 1080), 0, DisplayChoice("dummy", False, True, "benchmark"))
    try:
        t0 = time.process_time_ns()
        kiosk.update(view, 0.0)
        first_ms = (time.process_time_ns() - t0) / 1e6
        painted = caches_of(kiosk.renderer).sheets.misses
        samples: list[float] = []
        for rebuilt in views:
            t0 = time.process_time_ns()
            if not kiosk.update(rebuilt, 0.0):
                raise RuntimeError("the benchmark view did not cause a redraw")
            samples.append((time.process_time_ns() - t0) / 1e6)
        if caches_of(kiosk.renderer).sheets.misses != painted:
            raise RuntimeError("a redraw painted the drawings again")
    finally:
        kiosk.close()
    return {
        "gallery_frame_ms_8_drawings": statistics.median(samples),
        "gallery_frame_p99_ms_8_drawings": percentile(samples, 0.99),
        "gallery_first_frame_ms_8_drawings": first_ms,
    }


# --- 8 phones hand in at once: the phones' side (a process of its own) --------------------


def spiral(seat: int) -> dict[str, Any]:
    """A 2,000-point stroke: a slow spiral, as a patient finger draws it."""
    cx, cy = 800 + 40 * (seat % 4), 500 + 30 * (seat // 4)
    points = []
    for i in range(POINTS):
        a = i / 40
        r = 20 + 420 * i / POINTS
        points.append([round(cx + r * math.cos(a)), round(cy + 0.9 * r * math.sin(a)), 8 * i])
    return {"points": points, "colour": "#202020", "width": 8}


class Phone:
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

    def game_phase(self) -> str | None:
        if self.view.get("phase") != "playing":
            return None
        match = self.view.get("match") or {}
        phase = (match.get("state") or {}).get("phase")
        return phase if isinstance(phase, str) else None

    async def until(self, check: Any) -> None:
        while not check(self):
            self.changed.clear()
            await self.changed.wait()


async def phones_main(url: str, room: str) -> None:
    async with aiohttp.ClientSession() as http:
        phones = [Phone(await http.ws_connect(url + "/ws", max_msg_size=0)) for _ in range(PHONES)]
        readers = [asyncio.create_task(p.read()) for p in phones]
        for i, phone in enumerate(phones):
            await phone.send({"type": "hello", "room": room})
            await phone.send({"type": "join", "name": f"Phone {i}", "colour": COLOURS[i]})
            await phone.welcome
        host = phones[0]
        await host.send({"type": "select", "game": "luck-of-the-draw"})
        strokes = [json.dumps({"type": "act", "id": "", "kind": "stroke", "data": spiral(i)})
                   for i in range(PHONES)]
        for n in range(SUBMITS):
            await host.send({"type": "start", "options": {}})
            await host.until(lambda p: p.game_phase() == "subject")
            await host.send({"type": "act", "id": f"r{n}", "kind": "roll", "data": {}})
            await host.until(lambda p: p.game_phase() == "ready")
            await host.send({"type": "act", "id": f"t{n}", "kind": "start_timer", "data": {}})
            await asyncio.gather(*(p.until(lambda q: q.game_phase() == "drawing") for p in phones))

            async def hand_in(i: int, phone: Phone, n: int = n) -> None:
                await phone.ws.send_str(strokes[i].replace('"id": ""', f'"id": "s{n}-{i}"'))
                await phone.send({"type": "act", "id": f"d{n}-{i}", "kind": "done", "data": {}})

            sent = time.monotonic()
            await asyncio.gather(*(hand_in(i, p) for i, p in enumerate(phones)))
            await asyncio.gather(
                *(p.until(lambda q: q.game_phase() == "categories") for p in phones)
            )
            done = time.monotonic()
            version = phones[0].view["version"]
            print(json.dumps({"sent": sent, "all_phones": done, "version": version}), flush=True)
            await host.send({"type": "end"})
            # Ended early, its finish is held (what was played counts): the host leads on.
            await host.until(lambda p: p.view.get("phase") == "over")
            await host.send({"type": "finish", "again": False})
            await host.until(lambda p: p.view.get("phase") == "finished")
        for phone in phones:
            await phone.ws.close()
        for reader in readers:
            reader.cancel()


# --- 8 phones hand in at once: the box's side ---------------------------------------------


async def submit_probe() -> dict[str, float]:
    from appliance.app import Appliance
    from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings
    from tests.process import free_port

    port = free_port()
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(tempfile.mkdtemp(prefix="easel-bench-")),
        server=ServerSettings(host="127.0.0.1", port=port),
        display=DisplaySettings(mode="headless", width=1920, height=1080),
    )
    drawn: list[tuple[int, float]] = []
    frames = 0

    def on_frame() -> None:
        nonlocal frames
        if app.kiosk is not None and app.kiosk.frames_drawn != frames:
            frames = app.kiosk.frames_drawn
            drawn.append((app.session.version, time.monotonic()))

    app = Appliance(config, on_frame=on_frame)
    stop = asyncio.Event()
    runner = asyncio.create_task(app.run(stop))
    while not drawn:
        await asyncio.sleep(0.01)
    driver = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.bench.bench_luck_of_the_draw", "phones",
        f"http://127.0.0.1:{port}", app.session.room,
        stdout=asyncio.subprocess.PIPE,
    )
    assert driver.stdout is not None
    rows = [json.loads(raw) async for raw in driver.stdout]
    await driver.wait()
    stop.set()
    await runner
    if len(rows) != SUBMITS:
        raise RuntimeError(f"the phones reported {len(rows)} of {SUBMITS} hand-ins")
    phones_only = [(row["all_phones"] - row["sent"]) * 1000 for row in rows]
    with_kiosk = []
    for row in rows:
        kiosk_at = next(
            (t for v, t in drawn if v >= row["version"] and t >= row["sent"]), row["all_phones"]
        )
        with_kiosk.append((max(row["all_phones"], kiosk_at) - row["sent"]) * 1000)
    return {
        "submit_8_drawings_ms": statistics.median(with_kiosk),
        "submit_8_drawings_p90_ms": percentile(with_kiosk, 0.9),
        "submit_8_drawings_phones_only_ms": statistics.median(phones_only),
    }


def run() -> dict[str, float]:
    figures = gallery_frame()
    figures.update(asyncio.run(submit_probe()))
    for key, value in figures.items():
        print(f"   {key:36} {value:10.3f}")
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["phones"]:
        asyncio.run(phones_main(sys.argv[2], sys.argv[3]))
    else:
        print_figures(run())
