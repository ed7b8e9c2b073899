"""Choosing and opening the kiosk's display: kmsdrm on a bare Pi, a window on a desktop,
SDL's dummy driver when there is no screen at all (phones are still served then).

`choose_display` is pure so every case is testable on a laptop; `open_display` is the only
place that touches SDL's environment and pygame.display.
"""

from __future__ import annotations

import glob
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pygame

from appliance.kiosk.rotation import check_rotation, physical_size

log = logging.getLogger(__name__)

MODES: Final = ("auto", "window", "fullscreen", "headless")
# SDL drivers that draw into memory only; choosing one means nobody sees the frame.
_OFFSCREEN_DRIVERS: Final = frozenset({"dummy", "offscreen"})


class DisplayError(RuntimeError):
    """SDL could not open the chosen display; the message carries SDL's own reason."""


@dataclass(frozen=True)
class DisplayChoice:
    """How to open the display, and why (logged at start so an operator can tell)."""

    driver: str | None  # SDL_VIDEODRIVER to set; None lets SDL pick (x11, wayland, ...)
    fullscreen: bool
    headless: bool
    reason: str


def _has_desktop(env: Mapping[str, str]) -> bool:
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def choose_display(mode: str, env: Mapping[str, str], is_pi: bool, has_drm: bool) -> DisplayChoice:
    """Decide how to show the kiosk for config `display.mode` in this environment.

    mode "auto": a desktop session ($DISPLAY or $WAYLAND_DISPLAY) gets a window; a
    Raspberry Pi with /dev/dri and no desktop goes fullscreen through kmsdrm; otherwise
    the kiosk runs headless. "window", "fullscreen" and "headless" force the choice.
    An SDL_VIDEODRIVER already set in the environment wins over detection.
    """
    if mode not in MODES:
        raise ValueError(f"display.mode must be one of {', '.join(MODES)}; got {mode!r}")
    if mode == "headless":
        return DisplayChoice("dummy", False, True, "display.mode = headless")

    preset = (env.get("SDL_VIDEODRIVER") or "").strip()
    if preset:
        if preset.lower() in _OFFSCREEN_DRIVERS:
            return DisplayChoice(
                preset, False, True, f"SDL_VIDEODRIVER={preset} draws off screen; headless"
            )
        fullscreen = mode == "fullscreen" or (mode == "auto" and preset.lower() == "kmsdrm")
        return DisplayChoice(
            preset, fullscreen, False, f"SDL_VIDEODRIVER={preset} set in the environment"
        )

    desktop = _has_desktop(env)
    if mode == "window":
        return DisplayChoice(None, False, False, "display.mode = window")
    if mode == "fullscreen":
        if desktop:
            return DisplayChoice(None, True, False, "display.mode = fullscreen on the desktop")
        return DisplayChoice("kmsdrm", True, False, "display.mode = fullscreen, no desktop: kmsdrm")

    # mode == "auto"
    if desktop:
        return DisplayChoice(None, False, False, "desktop session found; opening a window")
    if is_pi:
        # An appliance's screen is the product: on a Pi the kiosk takes the screen through
        # kmsdrm or the start fails saying why, never a silent headless box.
        why = "" if has_drm else " (no /dev/dri yet: is dtoverlay=vc4-kms-v3d enabled?)"
        return DisplayChoice("kmsdrm", True, False, f"Raspberry Pi without a desktop: kmsdrm{why}")
    if has_drm:
        # A PC at a text console (or over ssh) has /dev/dri too; taking over its screen
        # uninvited would be rude, so only a Pi gets kmsdrm automatically.
        return DisplayChoice(
            "dummy",
            False,
            True,
            "no desktop found ($DISPLAY unset) and not a Raspberry Pi; running headless, "
            "phones are still served (display.mode = fullscreen uses the screen via kmsdrm)",
        )
    return DisplayChoice(
        "dummy",
        False,
        True,
        "no display found ($DISPLAY unset, no /dev/dri); running headless, phones are still served",
    )


def fit_window(wanted: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window size: `wanted`, shrunk (same shape) to fit 90 % of a smaller desktop.

    The renderer draws at any size, so a 1920x1080 kiosk on a 1366x768 laptop becomes a
    smaller window showing everything, not a big one cut off by the screen's edges.
    """
    if desktop is None:
        return wanted
    scale = min(1.0, 0.9 * desktop[0] / wanted[0], 0.9 * desktop[1] / wanted[1])
    return max(320, round(wanted[0] * scale)), max(240, round(wanted[1] * scale))


def detect_pi(model_path: str | Path = "/proc/device-tree/model") -> bool:
    """Whether this machine is a Raspberry Pi, by its device-tree model string."""
    try:
        model = Path(model_path).read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model


def detect_drm(pattern: str = "/dev/dri/card*") -> bool:
    """Whether a DRM/KMS device exists (what SDL's kmsdrm driver needs)."""
    return bool(glob.glob(pattern))


def detect_display(mode: str = "auto") -> DisplayChoice:
    """`choose_display` for this machine and process environment."""
    return choose_display(mode, os.environ, detect_pi(), detect_drm())


def open_display(choice: DisplayChoice, size: tuple[int, int], rotation: int = 0) -> pygame.Surface:
    """Open the display SDL-side and return the screen surface.

    `size` is the logical frame size; a window (or the headless surface) gets that size
    turned by `rotation`. Fullscreen takes the screen's own resolution. Raises
    DisplayError with SDL's message when the driver or mode cannot be opened.
    """
    check_rotation(rotation)
    previous = os.environ.get("SDL_VIDEODRIVER")
    if choice.driver is not None and previous != choice.driver:
        if pygame.display.get_init():
            # SDL reads the driver only when the video subsystem starts.
            pygame.display.quit()
        os.environ["SDL_VIDEODRIVER"] = choice.driver
    try:
        pygame.display.init()
        pygame.display.set_caption("Easel")
        if choice.fullscreen:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        elif choice.headless:
            screen = pygame.display.set_mode(physical_size(size, rotation))
        else:
            desktops = pygame.display.get_desktop_sizes()
            wanted = physical_size(size, rotation)
            screen = pygame.display.set_mode(fit_window(wanted, desktops[0] if desktops else None))
    except pygame.error as exc:
        pygame.display.quit()
        # Leave the environment as found, so the caller's fallback starts clean.
        if previous is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = previous
        driver = choice.driver or "SDL's default"
        raise DisplayError(f"cannot open the display ({driver}): {exc}") from exc
    got = pygame.display.get_driver()
    if choice.driver is not None and not choice.headless and got.lower() != choice.driver.lower():
        pygame.display.quit()
        raise DisplayError(f"SDL opened the {got!r} video driver, not {choice.driver!r}")
    if choice.fullscreen and not choice.headless:
        # A touch table has no mouse; a cursor parked mid-screen is just a smudge.
        pygame.mouse.set_visible(False)
    log.debug(
        "kiosk display: driver=%s size=%s rotation=%d (%s)",
        pygame.display.get_driver(),
        screen.get_size(),
        rotation,
        choice.reason,
    )
    return screen
