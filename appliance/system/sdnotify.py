"""Telling systemd how the box is: READY=1 once the lobby is on screen, WATCHDOG=1 while the
kiosk's frame loop turns, STOPPING=1 on the way out.

The sd_notify protocol is one datagram per message to the AF_UNIX socket named in
$NOTIFY_SOCKET (a path, or "@name" for the abstract namespace), so it is written here
rather than taken from a package. With `WatchdogSec=` in the unit systemd sets
$WATCHDOG_USEC; the kiosk's loop calls `watchdog()` after every turn and a ping goes out
at most every half of that interval. A hung renderer stops the pings and systemd restarts
the box; a busy one still turns its loop and keeps pinging. Outside systemd (no
$NOTIFY_SOCKET) every call does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """One service's messages to systemd; a no-op when not started by systemd."""

    def __init__(
        self,
        env: Mapping[str, str] = os.environ,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        # WATCHDOG_PID names the process meant; a child that inherited the variable is not.
        mine = not pid or pid == str(os.getpid())
        self.watchdog_interval = (
            int(usec) / 1e6 / 2 if usec.isdigit() and int(usec) > 0 and mine else None
        )
        self._last_ping = float("-inf")
        self._socket: socket.socket | None = None
        self.ready_sent = False

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        """Send one message (e.g. "READY=1"); False if there is no one to tell or it failed."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._socket.sendto(message.encode(), self.address)
        except OSError as err:
            # systemd may be restarting; the next message tries again.
            log.debug("sd_notify %r failed: %s", message, err)
            return False
        return True

    def ready(self, status: str = "") -> None:
        """The lobby is on screen: systemd may consider the start done."""
        if not self.ready_sent:
            self.ready_sent = self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> None:
        """Called after every turn of the frame loop; pings at half the watchdog interval."""
        if self.watchdog_interval is None:
            return
        now = self.clock()
        if now - self._last_ping >= self.watchdog_interval and self.send("WATCHDOG=1"):
            self._last_ping = now

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def _address(name: str) -> str | bytes | None:
    if not name:
        return None
    if name.startswith("@"):
        return b"\0" + name[1:].encode()  # the abstract namespace
    if name.startswith("/"):
        return name
    return None  # systemd only ever gives a path or an abstract name
