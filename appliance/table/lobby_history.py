"""The idle lobby's history: today's results and best drawings, one step at a time.

Only while the lobby is idle (phase "lobby", or "finished" two minutes after a game ended)
and `[lobby] history` is on. The step is the
clock divided by `[lobby] history_step_s`, so the kiosk redraws once per step and never in
between (the kiosk idles near zero CPU). The list of steps is read from the store when a
match has ended since it was last read, not on every frame. A match's best drawings
are its log replayed (seconds for a long match): with a loop running they are rebuilt
on a worker thread, and the steps follow when they are ready.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from appliance.table.history import BestDrawing, BestDrawings, result_of, start_of_day, today
from appliance.table.session import Session
from appliance.table.store import MatchRecord

log = logging.getLogger("easel.lobby_history")

QUIET_AFTER_GAME_S = 120.0
GALLERY_STEP: dict[str, Any] = {"kind": "gallery", "sig": "g"}

class LobbyHistory:
    def __init__(self, session: Session, clock: Callable[[], float], step_s: float) -> None:
        self.session = session
        self.clock = clock
        self.step_s = step_s
        self.best = BestDrawings(session.store)
        self._steps: list[dict[str, Any]] = []
        self._read_key: tuple[object, ...] | None = None
        self._finished_seen: dict[int, float] = {}
        self._rebuilding: asyncio.Future[None] | None = None

    def __call__(self, view: Mapping[str, Any]) -> Mapping[str, Any] | None:
        phase = view.get("phase")
        if phase not in ("lobby", "finished"):
            return None
        now = self.clock()
        last = self.session.last_match
        if phase == "finished" and last is not None:
            # The result and the gallery's QR code have the screen to themselves a while.
            seen = self._finished_seen.setdefault(last.record.id, now)
            if now - seen < QUIET_AFTER_GAME_S:
                return None
        # Read again when a game ended, the day or language changed, or every 5 minutes.
        key = (start_of_day(now), self.session.config.table.language,
               None if last is None else last.record.id, now // 300)
        if key != self._read_key:
            self._read_key = key
            self._steps = self._read(now)
        steps = self._steps
        if phase == "finished" and steps:
            steps = [GALLERY_STEP, *steps]  # the last game's QR code keeps its turn
        if not steps:
            return None
        step = int(now // self.step_s)
        return steps[step % len(steps)]

    def _read(self, now: float) -> list[dict[str, Any]]:
        records = today(self.session.store, now)
        missing = [r for r in records[-4:] if self.best.kept(r) is None]
        if missing and str(self.session.store.path) != ":memory:":
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if loop is not None:
                self._rebuild_later(loop, missing, now)
                return self._steps_of(records, now, ready_only=True)
        return self._steps_of(records, now)

    def _rebuild_later(
        self, loop: asyncio.AbstractEventLoop, missing: list[MatchRecord], now: float
    ) -> None:
        if self._rebuilding is not None and not self._rebuilding.done():
            return  # the next read (a new key) asks again for what is still missing

        def rebuild() -> list[tuple[MatchRecord, tuple[BestDrawing, ...]]]:
            return [(r, self.best.rebuild_from_file(r)) for r in missing]

        async def rebuilt() -> None:
            for record, found in await loop.run_in_executor(None, rebuild):
                self.best.keep(record, found)
            self._steps = self._steps_of(today(self.session.store, now), now)

        self._rebuilding = asyncio.ensure_future(rebuilt())
        self._rebuilding.add_done_callback(_log_failure)

    def _steps_of(
        self, records: list[MatchRecord], now: float, ready_only: bool = False
    ) -> list[dict[str, Any]]:
        lang = self.session.config.table.language
        results = []
        steps: list[dict[str, Any]] = []
        for record in records[-6:]:
            result = result_of(record, lang)
            # The kiosk words each line (appliance/kiosk/text.py, result_line), as its
            # finish and its banner say a result: a game played together by its count.
            results.append({
                "when": datetime.fromtimestamp(record.finished_at or now).strftime("%H:%M"),
                "title": result["title"],
                "winners": result["winners"],
                "together": result["together"] is not None,
                "guessed": result["together"] or 0,
                "ended_early": result["ended_early"],
            })
        if results:
            steps.append({"kind": "winners", "results": results[::-1],
                          "sig": f"w:{records[-1].id}"})
        for record in records[-4:]:
            kept = self.best.kept(record)
            if kept is None and ready_only:
                continue  # being rebuilt off the loop: shown once it is
            for n, best in enumerate((kept if kept is not None else self.best.of(record))[:2]):
                d = best.drawing
                steps.append({
                    "kind": "drawing",
                    "sig": f"d:{record.id}:{n}",
                    "word": None if d.word is None else d.word.get(lang) or d.word.get("en"),
                    "artist": d.credit(lang),
                    "colour": d.colour,
                    "title": result_of(record, lang)["title"],
                    "strokes": list(d.strokes),
                })
        return steps


def _log_failure(done: asyncio.Future[None]) -> None:
    if not done.cancelled() and done.exception() is not None:
        log.error("the lobby's best drawings could not be rebuilt", exc_info=done.exception())
