"""QR codes for the lobby: the join address and the Wi-Fi network, as cached surfaces.

Modules are drawn as whole-pixel squares (no smoothing, an integer scale) with the
standard 4-module quiet zone, dark on white: what every phone camera reads best.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final

import pygame
import segno

QUIET_ZONE: Final = 4
DARK: Final = (0, 0, 0)
LIGHT: Final = (255, 255, 255)

_WIFI_SPECIAL: Final = frozenset('\\;,":')


def escape_wifi(value: str) -> str:
    """Backslash-escape the characters the WIFI: (MECARD-style) format reserves."""
    return "".join("\\" + ch if ch in _WIFI_SPECIAL else ch for ch in value)


def wifi_payload(
    ssid: str, password: str | None, security: str | None = "WPA", hidden: bool = False
) -> str:
    """The standard Wi-Fi QR text, e.g. `WIFI:T:WPA;S:Cafe;P:se\\;cret;;`.

    An open network (no password, or security "nopass"/"open"/"none") gets `T:nopass`;
    WEP and SAE (WPA3-only) are kept, every other WPA flavour is written as `WPA`.
    """
    sec = (security or "WPA").strip().upper()
    if not password or sec in ("NOPASS", "OPEN", "NONE"):
        kind = "nopass"
    elif sec in ("WEP", "SAE"):
        kind = sec
    else:
        # "WPA" is what phones expect for WPA, WPA2 and mixed WPA2/WPA3 networks alike.
        kind = "WPA"
    data = f"WIFI:T:{kind};S:{escape_wifi(ssid)};"
    if kind != "nopass" and password:
        data += f"P:{escape_wifi(password)};"
    if hidden:
        data += "H:true;"
    return data + ";"


def wifi_from_view(wifi: Mapping[str, Any]) -> str:
    """The Wi-Fi QR text for a view's `wifi` object ({"ssid", "password", "security"})."""
    return wifi_payload(
        str(wifi.get("ssid", "")),
        None if wifi.get("password") is None else str(wifi.get("password")),
        None if wifi.get("security") is None else str(wifi.get("security", "WPA")),
        bool(wifi.get("hidden", False)),
    )


@functools.lru_cache(maxsize=16)
def qr_modules(data: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix of `data` (quiet zone included), True = dark.

    Remembered (a few KB each): encoding is 8 ms here (segno tries all eight masks), 5-20
    times that on a Pi, and the codes painted into parts (the lobby's join card, a
    finish's gallery code) are painted again whenever their part is, with the same
    text. The surfaces themselves are not kept twice (see Painter.part)."""
    # Non-ASCII text (a café's SSID) goes as UTF-8: segno would pick Latin-1 where it can,
    # and a phone that reads UTF-8 (they all guess it) would then join the wrong SSID.
    encoding = None if data.isascii() else "utf-8"
    code = segno.make(data, error="m", micro=False, encoding=encoding)
    return tuple(
        tuple(bool(m) for m in row) for row in code.matrix_iter(scale=1, border=QUIET_ZONE)
    )


def render_qr(data: str, max_px: int) -> pygame.Surface:
    """`data` as a square QR surface at most `max_px` wide, at a whole number of pixels
    per module (at least 1, so a too-small box gets a code that overflows it slightly)."""
    modules = qr_modules(data)
    n = len(modules)
    scale = max(1, max_px // n)
    surf = pygame.Surface((n * scale, n * scale))
    surf.fill(LIGHT)
    for y, row in enumerate(modules):
        x = 0
        # One rect per horizontal run of dark modules: ~5x fewer fills than per module.
        while x < n:
            if row[x]:
                start = x
                while x < n and row[x]:
                    x += 1
                surf.fill(DARK, (start * scale, y * scale, (x - start) * scale, scale))
            else:
                x += 1
    return surf


class QrCache:
    """QR surfaces keyed by (text, size); a handful at most live at once."""

    def __init__(self, max_entries: int = 8) -> None:
        self._cache: OrderedDict[tuple[str, int], pygame.Surface] = OrderedDict()
        self._max = max_entries

    def get(self, data: str, max_px: int) -> pygame.Surface:
        key = (data, max_px)
        surf = self._cache.get(key)
        if surf is None:
            surf = render_qr(data, max_px)
            if pygame.display.get_surface() is not None:
                surf = surf.convert()
            self._cache[key] = surf
            if len(self._cache) > self._max:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return surf
