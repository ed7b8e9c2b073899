"""The box's clock: wall-clock seconds that never jump while a game runs.

A Raspberry Pi has no real-time clock. After a power cut offline it starts from the
time it last saved (fake-hwclock), and when the network comes back NTP sets the clock
at once, hours or days forward (or back). Hourglasses judged on the wall clock would all
run out at that moment. `SteadyClock` reads like the wall clock (the store's dates and
the phones' deadlines stay meaningful) but advances with the monotonic clock; the
appliance moves it to the wall clock only when no match is running (`resync`).

What survives a power cut is the match's own time (appliance/table/session.py: the last
action's stamp and a heartbeat of the match clock); the time the box was off does not
run any hourglass.
"""

from __future__ import annotations

import time
from collections.abc import Callable

JUMP_S = 2.0
"""A difference from the wall clock worth saying in the log (NTP's small slews are not)."""


class SteadyClock:
    """Seconds since the epoch as the wall clock said at the last `resync`, advanced by
    the monotonic clock since. Callable, like time.time."""

    def __init__(
        self,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._offset = wall() - monotonic()

    def __call__(self) -> float:
        return self._offset + self._monotonic()

    def drift(self) -> float:
        """How far the wall clock is ahead of this clock now (seconds; negative: behind)."""
        return self._wall() - self()

    def resync(self) -> float:
        """Take the wall clock's time from now on; returns the jump (0 when none)."""
        jump = self.drift()
        self._offset += jump
        return jump
