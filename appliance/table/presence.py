"""Who is at the table right now: each seat's phones, who has been gone how long, who is
away, and how many watch.

A fact of the connections, not of the store: after a restart nobody is connected until
their phone says hello again. A seat is *away* once its last phone has been gone
`[table] away_after_s`; its count runs `away_wait_s` more, and then whatever the game
waits for from it goes on without it (appliance/table/session.py tells the rules
SEAT_LEFT, and SEAT_BACK once a phone of the seat is back). Times are the running
match's own clock, so a pause stops every count. A seat that never had a phone attached
(a test driving the session by hand) is never away; a seat made at the kiosk has no phone
to lose and the session never asks about it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field


@dataclass
class Presence:
    """The table's connections as the session counts them (one per session)."""

    after_s: float
    wait_s: float
    phones: Counter[int] = field(default_factory=Counter)
    gone_at: dict[int, float] = field(default_factory=dict)
    shown: frozenset[int] = frozenset()  # the seats every screen shows as away now
    watchers: int = 0

    def connected(self, seat: int) -> bool:
        return self.phones[seat] > 0

    def arrive(self, seat: int) -> bool:
        """A phone of `seat` is connected; True if it is the seat's first (the table
        shows it back)."""
        self.phones[seat] += 1
        if self.phones[seat] > 1:
            return False
        self.gone_at.pop(seat, None)
        self.shown = self.shown - {seat}
        return True

    def depart(self, seat: int, now: float) -> bool | None:
        """A phone of `seat` went; True if it was the last (the seat counts as gone from
        `now`), None if the seat had none."""
        if self.phones[seat] <= 0:
            return None
        self.phones[seat] -= 1
        if self.phones[seat] > 0:
            return False
        self.gone_at[seat] = now
        return True

    def forget(self, seat: int) -> None:
        """The seat is freed or handed over: whoever comes is counted afresh."""
        self.phones.pop(seat, None)
        self.gone_at.pop(seat, None)
        self.shown = self.shown - {seat}

    def restart_counts(self, seats: Iterable[int], now: float) -> None:
        """Every seat still without a phone counts as gone from `now` (a start-up, a
        match's first second)."""
        self.gone_at = {seat: now for seat in seats if not self.connected(seat)}
        self.shown = frozenset()

    def away(self, seats: Collection[int], now: float) -> dict[int, float]:
        """Which of `seats` are away at `now`, and when (the same clock) the game goes on
        without each."""
        return {
            seat: gone + self.after_s + self.wait_s
            for seat, gone in self.gone_at.items()
            if seat in seats and now - gone >= self.after_s
        }

    def next_look(self, seats: Collection[int], now: float, heard: Collection[int]
                  ) -> list[float]:
        """When a seat of `seats` next shows as away or its count runs out; `now` + 1 s
        while a count ran out and the rules have not heard of it (`heard`): the game did
        not wait for that player yet, so look again each second."""
        ends = []
        for seat, gone in self.gone_at.items():
            if seat not in seats:
                continue
            shows, until = gone + self.after_s, gone + self.after_s + self.wait_s
            if now < shows:
                ends.append(shows)
            elif seat not in heard:
                ends.append(until if now < until else now + 1.0)
        return ends
