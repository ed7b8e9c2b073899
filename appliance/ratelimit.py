"""Flood limits for the phones' side: a token bucket per WebSocket and per client address.

A phone that sends faster than any person taps (a stuck script, a hostile page) has the
excess dropped with one `slow_down` error a second, so it can neither starve the other
phones of the loop nor fill the log. The clock is injectable for tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up; `take` spends one if there is one."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(default=-1.0)
    updated: float = field(default=0.0)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst
        self.updated = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(frozen=True)
class Limits:
    """How much one phone, and one address, may ask of the box."""

    messages_per_s: float = 40.0
    message_burst: float = 160.0
    connections_per_address: int = 32
    requests_per_s: float = 100.0
    request_burst: float = 400.0
