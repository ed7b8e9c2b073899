"""Who may host from the host page and the kiosk's host menu: the PIN, its tries, logins.

The PIN comes from config (`[host] pin`, set at install; empty = no host page). Wrong
PINs are counted per client (its network address, an IPv6 one on its /64 too; the
kiosk's PIN pad counts as one client): after `tries` wrong ones in a row it must wait
`lockout_s` seconds, and every further wrong PIN doubles the wait. Against many
addresses at once there is also a budget for the whole box: `GLOBAL_BURST` wrong PINs,
then one more each `GLOBAL_INTERVAL_S`, so no number of addresses guesses a 4-digit PIN
in less than days; its last `RESERVE` are kept for clients with no wrong PIN, so the
owner's right PIN is still checked while attackers wait. Every wait runs on the
monotonic clock (a wall clock set back never locks anyone out). A client's record is never
dropped while it holds a lock: when the table of clients is full, newcomers share one
record. The kiosk's pad is someone standing at the box: it locks itself for at most
`KIOSK_MAX_LOCK_S` and spends nothing of the box's budget, so a child at the screen can
neither lock the kiosk for long nor lock the owner's phone out.

A right PIN clears the count and, on the host page, opens a login: a random token sent
as an HttpOnly, SameSite=Strict cookie and valid for `login_minutes`; the box keeps only
its SHA-256 with the expiry, in the data file (`HostLogins(store=...)`), so a login
survives a restart of the box. Both take the session's injectable clock, so tests never
sleep.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import ipaddress
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from appliance.system.ratelimit import client_key

log = logging.getLogger("easel.host")

MAX_CLIENTS: Final = 1024
MAX_LOGINS: Final = 64
KIOSK_CLIENT: Final = "kiosk"
KIOSK_MAX_LOCK_S: Final = 30.0
GLOBAL_BURST: Final = 20
GLOBAL_INTERVAL_S: Final = 60.0
SHARED_CLIENT: Final = "*"
RESERVE: Final = 5
NETWORK_FACTOR: Final = 4


class MetaStore(Protocol):
    """Where logins are kept across restarts (appliance.table.store.Store's meta table)."""

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def later(self, job: Callable[[Any], Any]) -> concurrent.futures.Future[Any] | None: ...


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


def client_keys(client: str) -> tuple[str, ...]:
    """The records a wrong PIN from `client` counts on: an IPv4 address (or the kiosk)
    alone; an IPv6 address and also its /64, since a device picks addresses in its
    network at will (the /64's record takes `NETWORK_FACTOR` times the tries)."""
    try:
        ip = ipaddress.ip_address(client.split("%", 1)[0])
    except ValueError:
        return (client,)
    if isinstance(ip, ipaddress.IPv6Address) and not ip.is_loopback:
        if ip.ipv4_mapped is not None:
            return (str(ip.ipv4_mapped),)
        return (str(ip), client_key(str(ip)))
    return (str(ip),)


class PinGuard:
    """Checks PINs with a per-client count of wrong tries and a growing lock-out, and a
    budget of wrong PINs for the whole box (the kiosk's pad aside), on the monotonic
    clock: setting the wall clock back locks nobody out.

    The box's budget keeps `RESERVE` wrong PINs that only a clean client may spend (one
    whose address has no wrong PIN on record and whose /64 is not locked): attackers that
    already failed spend the rest and then wait, so the owner, typing the right PIN from
    an address of its own, is checked at once whatever they do. To keep the reserve spent
    an attacker needs a fresh address for every wrong PIN, and even so the box's budget
    (20, then one a minute) bounds how fast the PIN can be guessed."""

    def __init__(
        self,
        pin: str,
        tries: int,
        lockout_s: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pin = pin
        self.tries = tries
        self.lockout_s = lockout_s
        self.clock = clock
        self._clients: OrderedDict[str, _Tries] = OrderedDict()
        self._budget = float(GLOBAL_BURST)
        self._budget_at = clock()

    @property
    def enabled(self) -> bool:
        return bool(self.pin)

    def check(self, client: str, pin: str) -> None:
        """Return if `pin` is right; raise HostPageOff, LockedOut or WrongPin. `client`
        is the peer's address as it came (an IPv6 one is counted on its /64 too)."""
        if not self.pin:
            raise HostPageOff("no host PIN is set ([host] pin in the box's settings)")
        now = self.clock()
        keys = tuple(self._key(k) for k in client_keys(client))
        own = self._own_wait(keys, now)
        if own > 0:
            raise LockedOut(own)
        kiosk = client == KIOSK_CLIENT
        if not kiosk:
            wait = self._global_wait(now, self._clean(keys, now))
            if wait > 0:
                raise LockedOut(wait)
        if secrets.compare_digest(pin.encode(), self.pin.encode()):
            for key in keys:
                if key != SHARED_CLIENT:
                    self._clients.pop(key, None)
            return
        if not kiosk:
            self._budget -= 1.0
        left = self.tries
        lock = 0.0
        for n, key in enumerate(keys):
            tries = self._clients.get(key)
            if tries is None:
                self._make_room(now)
                key = self._key(key)
                tries = self._clients.setdefault(key, _Tries())
            self._clients.move_to_end(key)
            tries.wrong += 1
            allowed = self.tries * (NETWORK_FACTOR if n else 1)
            over = tries.wrong - allowed
            if over >= 0:
                wait = self.lockout_s * 2**min(over, 16)
                if kiosk:
                    wait = min(wait, KIOSK_MAX_LOCK_S)
                tries.locked_until = now + wait
                lock = max(lock, wait)
            left = min(left, allowed - tries.wrong)
        if lock > 0:
            raise LockedOut(lock)
        raise WrongPin(left)

    def _own_wait(self, keys: tuple[str, ...], now: float) -> float:
        records = [self._clients.get(k) for k in keys]
        return max([0.0] + [t.locked_until - now for t in records if t is not None])

    def _clean(self, keys: tuple[str, ...], now: float) -> bool:
        """No wrong PIN from this address, and no lock on its network."""
        address = self._clients.get(keys[0])
        return address is None and keys[0] != SHARED_CLIENT and self._own_wait(keys, now) <= 0

    def _key(self, client: str) -> str:
        if client in self._clients or len(self._clients) < MAX_CLIENTS:
            return client
        return SHARED_CLIENT

    def _make_room(self, now: float) -> None:
        """Forget clients that hold no lock (the oldest first); never a locked one."""
        if len(self._clients) < MAX_CLIENTS:
            return
        for key in [k for k, t in self._clients.items() if t.locked_until <= now]:
            del self._clients[key]
            if len(self._clients) < MAX_CLIENTS // 2:
                break

    def _global_wait(self, now: float, clean: bool) -> float:
        """Seconds until the box's budget of wrong PINs has one again for this client (a
        clean one may spend the reserve too; 0: it has)."""
        self._budget = min(
            float(GLOBAL_BURST), self._budget + (now - self._budget_at) / GLOBAL_INTERVAL_S
        )
        self._budget_at = now
        floor = 1.0 if clean else 1.0 + RESERVE
        return 0.0 if self._budget >= floor else (floor - self._budget) * GLOBAL_INTERVAL_S

    def locked_for(self, client: str) -> float:
        """Seconds `client` must still wait (0 when it may try)."""
        now = self.clock()
        keys = tuple(self._key(k) for k in client_keys(client))
        own = self._own_wait(keys, now)
        if client == KIOSK_CLIENT:
            return own
        return max(own, self._global_wait(now, self._clean(keys, now)))


class HostLogins:
    """Host-page logins: random tokens, kept as hashes, each with an expiry; with a
    `store`, kept in its meta table too, so a restart of the box keeps them."""

    KEY: Final = "host_logins"

    def __init__(
        self, minutes: float, clock: Callable[[], float], store: MetaStore | None = None
    ) -> None:
        self.seconds = minutes * 60
        self.clock = clock
        self.store = store
        self._expiry: OrderedDict[str, float] = OrderedDict()
        if store is not None:
            try:
                kept = json.loads(store.get_meta(self.KEY) or "{}")
            except ValueError:
                kept = {}
            now = clock()
            for key, expiry in sorted(kept.items(), key=lambda kv: kv[1]):
                if isinstance(expiry, int | float) and now < expiry <= now + self.seconds:
                    self._expiry[str(key)] = float(expiry)

    def _save(self) -> None:
        if self.store is None:
            return
        kept = json.dumps(dict(self._expiry))
        # Handed to the store's writer thread when it runs, never waited for on the loop.
        written = self.store.later(lambda store: store.set_meta(self.KEY, kept))
        if written is not None:
            written.add_done_callback(_warn_unkept)
            return
        try:
            self.store.set_meta(self.KEY, kept)
        except Exception as err:  # a full card: the login holds until the box restarts
            _warn_unkept_error(err)

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        self._expiry[_hash(token)] = self.clock() + self.seconds
        while len(self._expiry) > MAX_LOGINS:
            self._expiry.popitem(last=False)
        self._save()
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
        if token and self._expiry.pop(_hash(token), None) is not None:
            self._save()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _warn_unkept_error(err: BaseException) -> None:
    log.warning("the host's login could not be kept across restarts: %s", err)


def _warn_unkept(written: concurrent.futures.Future[Any]) -> None:
    err = written.exception()
    if err is not None:  # a full card: the login holds until the box restarts
        _warn_unkept_error(err)
