"""Who may host from the host page and the kiosk's host menu: the PIN, its tries, logins.

The PIN comes from config (`[host] pin`, set at install; empty = no host page). Wrong
PINs are counted per client (its network address; the kiosk's PIN pad counts as one
client): after `tries` wrong ones in a row it must wait `lockout_s` seconds, and every
further wrong PIN doubles the wait, so guessing even a 4-digit PIN takes days. A right
PIN clears the count and, on the host page, opens a login: a random token kept in memory
(only its SHA-256), sent as an HttpOnly, SameSite=Strict cookie and valid for
`login_minutes`. A restart of the box logs every host out, which is the safe way round.
Both take the session's injectable clock, so tests never sleep.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

MAX_CLIENTS: Final = 1024
MAX_LOGINS: Final = 64


class HostPageOff(PermissionError):
    """No PIN is set: the host page and the kiosk's host menu are off."""


class WrongPin(PermissionError):
    """The PIN was wrong; `tries_left` before the client must wait."""

    def __init__(self, tries_left: int) -> None:
        super().__init__(f"wrong PIN; {tries_left} tries left before a wait")
        self.tries_left = tries_left


class LockedOut(PermissionError):
    """Too many wrong PINs: no try is even checked for `retry_after` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"too many wrong PINs; try again in {math.ceil(retry_after)} s")
        self.retry_after = retry_after


@dataclass
class _Tries:
    wrong: int = 0
    locked_until: float = 0.0


class PinGuard:
    """Checks PINs with a per-client count of wrong tries and a growing lock-out."""

    def __init__(
        self, pin: str, tries: int, lockout_s: float, clock: Callable[[], float]
    ) -> None:
        self.pin = pin
        self.tries = tries
        self.lockout_s = lockout_s
        self.clock = clock
        self._clients: OrderedDict[str, _Tries] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    def check(self, client: str, pin: str) -> None:
        """Return if `pin` is right; raise HostPageOff, LockedOut or WrongPin."""
        if not self.pin:
            raise HostPageOff("no host PIN is set ([host] pin in the box's settings)")
        now = self.clock()
        tries = self._clients.get(client)
        if tries is not None and now < tries.locked_until:
            raise LockedOut(tries.locked_until - now)
        if secrets.compare_digest(pin.encode(), self.pin.encode()):
            self._clients.pop(client, None)
            return
        if tries is None:
            tries = self._clients[client] = _Tries()
            while len(self._clients) > MAX_CLIENTS:  # a spoofing flood forgets the oldest
                self._clients.popitem(last=False)
        tries.wrong += 1
        over = tries.wrong - self.tries
        if over >= 0:
            wait = self.lockout_s * 2**min(over, 16)
            tries.locked_until = now + wait
            raise LockedOut(wait)
        raise WrongPin(self.tries - tries.wrong)

    def locked_for(self, client: str) -> float:
        """Seconds `client` must still wait (0 when it may try)."""
        tries = self._clients.get(client)
        return 0.0 if tries is None else max(0.0, tries.locked_until - self.clock())


class HostLogins:
    """Host-page logins: random tokens, kept as hashes, each with an expiry."""

    def __init__(self, minutes: float, clock: Callable[[], float]) -> None:
        self.seconds = minutes * 60
        self.clock = clock
        self._expiry: OrderedDict[str, float] = OrderedDict()

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        self._expiry[_hash(token)] = self.clock() + self.seconds
        while len(self._expiry) > MAX_LOGINS:
            self._expiry.popitem(last=False)
        return token

    def is_valid(self, token: str | None) -> bool:
        if not token or len(token) > 128:
            return False
        key = _hash(token)
        expiry = self._expiry.get(key)
        if expiry is None:
            return False
        if self.clock() >= expiry:
            del self._expiry[key]
            return False
        return True

    def close(self, token: str | None) -> None:
        if token:
            self._expiry.pop(_hash(token), None)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
