"""The box's address on the local network, for the join address and its QR code.

Reads the interfaces' IPv4 addresses (no packet is sent: a café hotspot has no route to
the internet, so the usual "connect a UDP socket to 8.8.8.8" trick fails there).
"""

from __future__ import annotations

import fcntl
import socket
import struct

SIOCGIFADDR = 0x8915
_VIRTUAL = ("lo", "docker", "br-", "veth", "virbr", "tun", "tap", "wg")


def interface_addresses() -> dict[str, str]:
    """IPv4 address of every interface that has one, by name (Linux)."""
    found: dict[str, str] = {}
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # down, or no IPv4 address
            found[name] = socket.inet_ntoa(reply[20:24])
    return found


def lan_address(addresses: dict[str, str] | None = None) -> str | None:
    """The address phones should use: Wi-Fi first, then Ethernet, then anything real."""
    addresses = interface_addresses() if addresses is None else addresses
    real = {n: a for n, a in addresses.items() if not n.startswith(_VIRTUAL)}
    for prefix in ("wlan", "wl", "eth", "en"):
        for name in sorted(real):
            if name.startswith(prefix):
                return real[name]
    return next(iter(sorted(real.values())), None)
