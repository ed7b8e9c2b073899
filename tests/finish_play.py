"""Plays any registered game to its end through a Session, as the bots' oracle does
(random legal moves of every seat and the table, the clock run past an hourglass): used
by the finish tests, which need each game's real last view."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from appliance.table.session import HOST, PALETTE, Session
from tests.bots import SPEED_OPTIONS, Move, RunOut, Snapshot, choose, press_of
from tests.conftest import FakeClock

NAMES = ("Ada", "Bořek", "Cyril", "Dana", "Emil", "Fay", "Gus", "Hana")


def play_to_the_finish(
    session: Session, clock: FakeClock, game: str, players: int = 4, seed: int = 3,
    max_steps: int = 20_000, until: Callable[[Any], bool] | None = None, kiosk: int = 0,
) -> list[str]:
    """Seat `players` (the last `kiosk` of them sat down at the kiosk: no phone), start
    `game` and play it until its finish is held (or until the rules' state satisfies
    `until`); the seats' reconnect tokens ("" for a kiosk seat)."""
    tokens = [session.join(NAMES[i], PALETTE[i], kiosk=i >= players - kiosk).token or ""
              for i in range(players)]
    session.select(HOST, game)
    session.start(HOST, SPEED_OPTIONS.get(game, {}))
    rnd = random.Random(seed)
    for _ in range(max_steps):
        match = session.match
        if match is None:
            assert session.finish_held
            return tokens
        if until is not None and until(match.state):
            return tokens
        snap = Snapshot(match.record.id, match.record.game, match.rules, match.state,
                        match.next_seq, session.match_clock(match),
                        tuple(s.seat for s in match.record.seats))
        move = choose(snap, rnd)
        if isinstance(move, RunOut):
            clock.advance(max(0.0, move.deadline.at - snap.now) + 0.1)
            session.tick()
        elif isinstance(move, Move):
            button = press_of(move.kind) if move.who is None else None
            if button is not None:
                session.press(*button)
            else:
                session.act(move.who, move.kind, dict(move.data))
        else:
            raise AssertionError(f"{game} waits for nobody")
    raise AssertionError(f"{game} did not end in {max_steps} moves")
