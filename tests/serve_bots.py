"""The real `easel` command plus a test-only control socket, for the power-cut harness.

`python -m tests.serve_bots run --headless --port P --data-dir D` is the appliance as
`make run` starts it (the product's routes, session, store and hourglass timer,
unchanged), plus a small HTTP server on the UNIX socket `D/test-control.sock` that only
the tests use. Through it the oracle bots (tests/bots.py) do what no phone can:

- `GET  /state`    the running match as the rules see it (`rules.to_json(state)`), its
                   next seq and its clock; the oracle picks legal moves from it;
- `POST /press`    a table button (`{"button", "long"}`), as the panel presses it;
- `POST /act`      a table action that is not a button (`{"kind", "data"}`), as the
                   kiosk's on-screen buttons send it (`session.act(None, …)`);
- `GET  /view`     the kiosk's view of the table (`session.view_for(KIOSK)`), as the
                   easel shows it: its finish's names and credits, who is away;
- `POST /advance`  pushes the box's clock forward (`{"seconds"}`) and re-plans the
                   hourglass timer, so an hourglass runs out without the test sleeping.

The clock is the wall clock plus an offset that starts at `EASEL_TEST_CLOCK_OFFSET`: the
test hands the offset back at each restart, so time never runs backwards across a kill.
None of this is served on the phones' port, and none of it is in the product.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from aiohttp import web

import appliance.app
from appliance.cli import main
from appliance.table.session import KIOSK, SessionError

SOCKET_NAME = "test-control.sock"


class ShiftedClock:
    """Real time plus an offset the test pushes forward (the loop's timers stay real)."""

    def __init__(self, offset: float) -> None:
        self.offset = offset

    def __call__(self) -> float:
        return time.time() + self.offset


class BotAppliance(appliance.app.Appliance):
    """The product's Appliance with a shifted clock and the control socket beside it."""

    def __init__(self, config: Any, **kwargs: Any) -> None:
        self.shifted = ShiftedClock(float(os.environ.get("EASEL_TEST_CLOCK_OFFSET", "0")))
        super().__init__(config, clock=self.shifted, **kwargs)

    async def run(self, stop: asyncio.Event) -> None:
        control = web.Application()
        control.router.add_get("/state", self._state)
        control.router.add_get("/view", self._view)
        control.router.add_post("/press", self._press)
        control.router.add_post("/act", self._act)
        control.router.add_post("/advance", self._advance)
        runner = web.AppRunner(control, access_log=None, handle_signals=False)
        await runner.setup()
        await web.UnixSite(runner, str(Path(self.config.data_dir()) / SOCKET_NAME)).start()
        try:
            await super().run(stop)
        finally:
            await runner.cleanup()

    def _snapshot(self) -> dict[str, Any]:
        session = self.session
        match = session.match
        last = session.last_match
        body: dict[str, Any] = {
            "offset": self.shifted.offset,
            "last": None if last is None else last.record.id,
            "match": None,
        }
        if match is not None:
            body["match"] = {
                "id": match.record.id,
                "game": match.record.game,
                "seq": match.next_seq,
                "now": session.match_clock(match),
                "seats": [s.seat for s in match.record.seats],
                "state": match.rules.to_json(match.state),
            }
        return body

    async def _state(self, request: web.Request) -> web.Response:
        return web.json_response(self._snapshot())

    async def _view(self, request: web.Request) -> web.Response:
        return web.json_response({"view": self.session.view_for(KIOSK), **self._snapshot()})

    async def _press(self, request: web.Request) -> web.Response:
        body = await request.json()
        applied = self.session.press(str(body["button"]), bool(body.get("long", False)))
        return web.json_response({"applied": applied, **self._snapshot()})

    async def _act(self, request: web.Request) -> web.Response:
        body = await request.json()
        try:
            self.session.act(None, str(body["kind"]), dict(body.get("data") or {}))
        except SessionError as err:
            return web.json_response({"applied": False, "error": err.code, **self._snapshot()})
        return web.json_response({"applied": True, **self._snapshot()})

    async def _advance(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.shifted.offset += max(0.0, float(body["seconds"]))
        # As after any change: the timer looks at the (moved) clock now, not in a second.
        self._schedule_tick()
        await asyncio.sleep(0)
        return web.json_response(self._snapshot())


if __name__ == "__main__":
    appliance.app.Appliance = BotAppliance  # type: ignore[misc]  # cli._run imports it late
    sys.exit(main())
