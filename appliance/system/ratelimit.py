"""Flood limits for the phones' side: a token bucket per WebSocket and per client address.

A phone that sends faster than any person taps (a stuck script, a hostile page) has the
excess dropped with one `slow_down` error a second, so it can neither starve the other
phones of the loop nor fill the log. Wrong guesses (room codes) are limited per address
(`FailureLimiter`: only the guesser waits, never a newcomer); `AddressCounter` keeps
what each address holds (connections, bytes of unfinished messages). Every one of them
counts a client by `client_key`: an IPv4 address, or an IPv6 phone's whole /64 network. The clock is
injectable for tests.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

IPV6_GROUP: Final = 64
"""IPv6 prefix length one client is counted under: a device picks its interface id at
will (privacy addresses, or any of the 2^64 of its network), so a per-address limit
keyed by the whole IPv6 address would be no limit at all."""


def client_key(address: str | None) -> str:
    """What the per-address limits count a client under: its IPv4 address (also when it
    came as ::ffff:a.b.c.d on a dual-stack socket), the box's own ::1, or for any other
    IPv6 address its /64 network ("2001:db8:1:2::/64"). The network's headers
    (X-Forwarded-For, Forwarded) are never looked at: only the socket's peer is."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # a link-local's zone
    except ValueError:
        return address[:64]  # not an IP (a unix socket in tests): as it is, bounded
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    mapped = ip.ipv4_mapped
    if mapped is not None:
        return str(mapped)
    if ip.is_loopback:
        return str(ip)
    return str(ipaddress.IPv6Network((ip, IPV6_GROUP), strict=False))


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

    def take(self, amount: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= amount:
            self.tokens -= amount
            return True
        return False


@dataclass(frozen=True)
class Limits:
    """How much one phone, and one address, may ask of the box."""

    messages_per_s: float = 40.0
    message_burst: float = 160.0
    connections_per_address: int = 32
    # WebSockets one address opens: a phone reconnects after a drop, a loop does it
    # a hundred times a second (each a handshake and a whole view, megabytes at a finish).
    # Past these or `connections_per_address` a socket gets in only with a seated token
    # (then within that seat's own opens a second): a player never pays for its NAT.
    sockets_per_s: float = 2.0
    socket_burst: float = 40.0
    requests_per_s: float = 100.0
    request_burst: float = 400.0
    # Memory: what a socket may have sent of a message not yet complete. Before hello
    # only a hello fits; after it a message up to `hard_message_factor` times
    # `[server] max_message_bytes` is still read (and refused politely) and a larger one
    # closes the socket; all the sockets of one address together hold at most
    # `buffered_bytes_per_address` of unfinished messages.
    hello_bytes: int = 2048
    hard_message_factor: int = 8
    buffered_bytes_per_address: int = 2 * 1024 * 1024
    # What the sockets of one address may send, in bytes a second (more waits: the box
    # stops reading them for a while), so parsing a flood cannot take the loop.
    bytes_per_s_per_address: float = 512 * 1024
    byte_burst_per_address: float = 1024 * 1024
    # TCP connections (HTTP and WebSocket) one address may hold open; the next is
    # answered 429 at once, before any handler runs.
    tcp_per_address: int = 48
    # What the box has written to an address's sockets that its phones have not taken
    # yet (a finish's view is megabytes; a socket that never reads keeps its copy): past
    # it a view waits, never copied, until they take some. One socket of an address
    # always gets its view, so a lone slow phone is only slow.
    unsent_bytes_per_address: int = 8 * 1024 * 1024
    # Answers (pongs, acks, errors) queued for one socket that is not taking them: past
    # it the socket is closed, as is one whose unsent bytes made no progress in `stall_s`.
    control_backlog: int = 1024
    stall_s: float = 60.0
    # The whole box: unfinished messages of every address and what every socket has not
    # taken together. Past `box_unsent_bytes` a view waits for the slower phones (the
    # slowest socket that took nothing since the last look is dropped first); past
    # `box_buffered_bytes` the socket holding the most unfinished bytes is cut. Many small
    # senders add up: each address's own budget alone let 200 of them hold 470 MiB.
    box_unsent_bytes: int = 32 * 1024 * 1024
    box_buffered_bytes: int = 16 * 1024 * 1024
    # Wrong room codes: free per address, then a growing wait; and for the whole box.
    room_free_failures: int = 10
    room_lockout_s: float = 30.0
    room_max_lockout_s: float = 3600.0
    room_failures_per_s: float = 2.0
    room_failure_burst: float = 40.0


SHARED_KEY: Final = "*"
"""Where failures go once the table of addresses is full of records still in force."""


@dataclass
class _Failures:
    count: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class FailureLimiter:
    """Wrong guesses (room codes) per address (an IPv6 phone: its /64, `client_key`).

    An address may fail `free` times; then it waits `lockout_s`, doubled at every further
    failure (at most `max_lockout_s`). Only the guesser waits: an address with no lock is
    always checked, so a newcomer with the right code, or a seated phone, is never
    refused for what other addresses did. The box also counts every failure against its
    own tokens (`global_rate` a second, `global_burst` saved up): while they are spent
    (guesses spread over many addresses) a failing address gets no free tries, it is
    locked at its first wrong guess, so each fresh address buys one guess, not `free`.
    A record is forgotten only once it has been quiet for `forget_s` and is not locked;
    when the table of `max_keys` addresses is full of records still in force, a newcomer
    shares one record with every other newcomer (`SHARED_KEY`), so a flood of fresh
    addresses never buys a fresh start.
    """

    def __init__(
        self,
        free: int,
        lockout_s: float,
        max_lockout_s: float,
        global_rate: float,
        global_burst: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 4096,
        forget_s: float = 3600.0,
    ) -> None:
        self.free = free
        self.lockout_s = lockout_s
        self.max_lockout_s = max_lockout_s
        self.clock = clock
        self.max_keys = max_keys
        self.forget_s = forget_s
        self._global = TokenBucket(global_rate, global_burst, clock)
        self._records: OrderedDict[str, _Failures] = OrderedDict()

    def _key(self, key: str) -> str:
        return key if key in self._records or len(self._records) < self.max_keys else SHARED_KEY

    def wait(self, key: str) -> float:
        """Seconds `key` must wait before its next try is looked at (0: it may try)."""
        record = self._records.get(self._key(key))
        return 0.0 if record is None else max(0.0, record.locked_until - self.clock())

    def spread_attack(self) -> bool:
        """True while the box's tokens are spent: failures come from many addresses."""
        bucket = self._global
        tokens = min(
            bucket.burst, bucket.tokens + (self.clock() - bucket.updated) * bucket.rate
        )
        return tokens < 1.0

    def failed(self, key: str) -> float:
        """Count one failure of `key`; the seconds it must now wait (0: it may try again)."""
        now = self.clock()
        spread = not self._global.take()
        if key not in self._records and len(self._records) >= self.max_keys:
            self._forget_quiet(now)
        key = self._key(key)
        record = self._records.get(key)
        if record is None:
            record = self._records[key] = _Failures()
        self._records.move_to_end(key)
        record.count += 1
        record.last = now
        over = record.count - self.free
        if spread:  # no free tries while the box is being guessed at from everywhere
            over = max(over, 0)
        if over >= 0:
            record.locked_until = now + min(self.max_lockout_s, self.lockout_s * 2 ** min(over, 20))
        return max(0.0, record.locked_until - now)

    def succeeded(self, key: str) -> None:
        if key != SHARED_KEY:
            self._records.pop(key, None)

    def _forget_quiet(self, now: float) -> None:
        """Make room: drop the records quiet for `forget_s` that hold no lock."""
        for key in [
            k for k, r in self._records.items()
            if now - r.last >= self.forget_s and r.locked_until <= now
        ]:
            del self._records[key]

    def __len__(self) -> int:
        return len(self._records)


class AddressCounter:
    """How many of something (connections, buffered bytes) each address holds now."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self.total = 0  # of every address

    def add(self, key: str, amount: int = 1) -> int:
        before = self._counts.get(key, 0)
        total = before + amount
        if total > 0:
            self._counts[key] = total
        else:
            self._counts.pop(key, None)
        self.total += max(0, total) - before
        return max(0, total)

    def get(self, key: str) -> int:
        return self._counts.get(key, 0)

    def __len__(self) -> int:
        return len(self._counts)
