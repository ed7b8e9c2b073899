"""Choosing and opening the kiosk's display: kmsdrm on a bare Pi, a window on a desktop,
SDL's dummy driver when there is no screen at all (phones are still served then).

`choose_display`, `choose_card`, `fullscreen_size` and `fit_window` are pure so every case
is testable on a laptop; `open_display` is the only place that touches SDL's environment
and pygame.display.

On a Pi 5 the DSI port is its own DRM card (RP1) beside vc4 (HDMI) and v3d (render only),
the card numbers change between boots, and SDL's kmsdrm takes the first card that opens:
so before SDL starts, the kiosk reads /sys/class/drm for the card whose connector of the
configured kind (`display.connector`) has a screen connected and names it to SDL with
SDL_KMSDRM_DEVICE_INDEX. SDL then makes one display per connected connector of that card
(a Pi 4's two HDMI ports, a Pi 4's DSI beside HDMI), in the kernel's connector order: the
kiosk opens the display of the configured connector, not always display 0.

On kmsdrm the kiosk also asks SDL for its OpenGL ES 2 renderer (SDL_RENDER_DRIVER), for
the window surface (which SDL's kmsdrm backs with a renderer's texture) and for
display.present = renderer alike. SDL's own first choice there is desktop OpenGL, first
in its list; on Mesa's GBM/EGL (seen in `make boot-check`'s VM, llvmpipe) that renderer
clears the screen but draws no texture, so the kiosk's frame was black. GLES 2 is what a
Pi's V3D speaks natively, and what this project's docs assumed SDL took. An operator's
own SDL_RENDER_DRIVER wins.
"""

from __future__ import annotations

import glob
import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pygame

from appliance.kiosk.rotation import check_rotation, physical_size

log = logging.getLogger(__name__)

MODES: Final = ("auto", "window", "fullscreen", "headless")
# SDL drivers that draw into memory only; choosing one means nobody sees the frame.
_OFFSCREEN_DRIVERS: Final = frozenset({"dummy", "offscreen"})


SYSFS_DRM: Final = Path("/sys/class/drm")
DEVICE_TREE_MODEL: Final = Path("/proc/device-tree/model")
# Set before SDL's video starts: the /dev/dri/cardN kmsdrm opens (SDL >= 2.26 reads it).
KMSDRM_INDEX_VARIABLE: Final = "SDL_KMSDRM_DEVICE_INDEX"
# Set before SDL's video starts on kmsdrm unless the environment names one: SDL's
# renderer (and the window surface's) is OpenGL ES 2, not its default desktop OpenGL.
RENDER_DRIVER_VARIABLE: Final = "SDL_RENDER_DRIVER"
KMSDRM_RENDER_DRIVER: Final = "opengles2"
# display.connector = "auto" looks for these kinds, in this order, then any connected one.
AUTO_CONNECTORS: Final = ("DSI", "HDMI")
# The boards that cannot draw 1920x1080 in software at a usable rate (and have only
# 1 GB or less): a TV gets 1280x720 from them.
SMALL_PIS: Final = (
    "Raspberry Pi 3",
    "Raspberry Pi Zero",
    "Raspberry Pi 2",
    "Raspberry Pi Model",  # the first Pi ("Raspberry Pi Model B Rev 2")
    "Raspberry Pi Compute Module 3",
)
SMALL_PI_MODE: Final = (1280, 720)
# SDL_WINDOWPOS_UNDEFINED_DISPLAY(0): or-ed with a display index, a window placed there.
WINDOWPOS_UNDEFINED_DISPLAY: Final = 0x1FFF0000
_CARD_CONNECTOR: Final = re.compile(r"^card(\d+)-(.+)$")


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
    """The window size: `wanted` when it fits the desktop, else the largest window of the
    same shape that does (a 1920x1080 kiosk on a 1366x768 laptop is 1365x768).

    Never shrunk by a fixed factor: a 1920x1080 kiosk on a 1920x1080 desktop is a
    1920x1080 window. The renderer draws at any size, so a smaller window still shows
    everything rather than being cut off by the screen's edges.
    """
    if desktop is None or (wanted[0] <= desktop[0] and wanted[1] <= desktop[1]):
        return wanted
    scale = min(desktop[0] / wanted[0], desktop[1] / wanted[1])
    # Rounded down, so the window never pokes past the desktop's edge.
    return max(320, int(wanted[0] * scale)), max(240, int(wanted[1] * scale))


@dataclass(frozen=True)
class DrmConnector:
    """One of /sys/class/drm's `cardN-<name>` entries: a screen output of DRM card N."""

    card: int
    name: str  # "DSI-1", "HDMI-A-1", "Writeback-1", ...
    status: str  # "connected", "disconnected" or "unknown", as the kernel says
    # The kernel's connector id (sysfs `connector_id`, kernel 6.x), the order SDL lists
    # the card's displays in; 0 where sysfs does not say (then names order them).
    connector_id: int = 0


@dataclass(frozen=True)
class CardChoice:
    """The DRM card kmsdrm should open (None: let SDL pick), the SDL display index of the
    chosen connector on it, and why (logged)."""

    card: int | None
    connector: str | None
    reason: str
    display: int = 0


def drm_connectors(root: str | Path = SYSFS_DRM) -> list[DrmConnector]:
    """The connectors under `root` (the sysfs DRM class), by card then name."""
    found: list[DrmConnector] = []
    try:
        entries = list(Path(root).iterdir())
    except OSError:
        return []
    for entry in entries:
        match = _CARD_CONNECTOR.match(entry.name)
        if match is None:
            continue
        try:
            status = (entry / "status").read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            continue  # not a connector (or it vanished while we looked)
        try:
            connector_id = int((entry / "connector_id").read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            connector_id = 0
        found.append(DrmConnector(int(match.group(1)), match.group(2), status, connector_id))
    return sorted(found, key=lambda c: (c.card, c.name))


def sdl_display_index(chosen: DrmConnector, connectors: Sequence[DrmConnector]) -> int:
    """The SDL display `chosen` becomes: SDL's kmsdrm adds one display per connected
    connector of the card it opened, in the kernel's connector order (connector id)."""
    same_card = sorted(
        (c for c in connectors if c.card == chosen.card and c.status == "connected"
         and not c.name.lower().startswith("writeback")),
        key=lambda c: (c.connector_id, c.name),
    )
    return next((i for i, c in enumerate(same_card) if c.name == chosen.name), 0)


def connector_matches(name: str, wanted: str) -> bool:
    """Whether connector `name` ("HDMI-A-1") is of the kind `wanted` names ("HDMI",
    "HDMI-A", "HDMI-A-1"; case does not matter)."""
    name, wanted = name.lower(), wanted.lower()
    return name == wanted or name.startswith(wanted + "-")


def choose_card(wanted: str, connectors: Sequence[DrmConnector]) -> CardChoice:
    """The card to give kmsdrm for config `display.connector` = `wanted`.

    The first connected connector of the wanted kind wins ("auto": DSI, then HDMI). When
    none is connected but another screen is, that one is taken (a lit screen beats a
    black one) and the reason says so. When nothing is connected, no card is named and
    the reason lists what was found, for the log and the start's error.
    """
    screens = [c for c in connectors if not c.name.lower().startswith("writeback")]
    connected = [c for c in screens if c.status == "connected"]
    kinds = AUTO_CONNECTORS if wanted == "auto" else (wanted,)
    for kind in kinds:
        for c in connected:
            if connector_matches(c.name, kind):
                why = "" if wanted == "auto" else f" (display.connector = {wanted})"
                index = sdl_display_index(c, connected)
                return CardChoice(c.card, c.name, f"{c.name} on card{c.card} is connected"
                                  f"{why}, SDL display {index}", index)
    if connected:
        c = connected[0]
        looked = "DSI or HDMI" if wanted == "auto" else wanted
        return CardChoice(
            c.card,
            c.name,
            f"no {looked} screen is connected; using {c.name} on card{c.card} instead "
            f"(display.connector = {wanted})",
            sdl_display_index(c, connected),
        )
    if not screens:
        return CardChoice(None, None, "no screen outputs in /sys/class/drm (is the KMS driver "
                          "loaded: dtoverlay=vc4-kms-v3d?)")
    seen = ", ".join(f"card{c.card}-{c.name} {c.status}" for c in screens)
    return CardChoice(
        None, None, f"no screen is connected ({seen}): check the screen's cable and power"
    )


def detect_card(wanted: str, root: str | Path = SYSFS_DRM) -> CardChoice:
    """`choose_card` for this machine's sysfs (or a fake tree at `root`)."""
    return choose_card(wanted, drm_connectors(root))


def hdmi_output(wanted: str, root: str | Path = SYSFS_DRM) -> DrmConnector | None:
    """The HDMI output kmsdrm takes for `display.connector` = `wanted` (a TV may be on
    it), or None when the screen is not on HDMI (a DSI panel is no TV) or none is found."""
    connectors = drm_connectors(root)
    chosen = choose_card(wanted, connectors)
    for c in connectors:
        if (c.card, c.name) == (chosen.card, chosen.connector) and connector_matches(
                c.name, "HDMI"):
            return c
    return None


def read_model(model_path: str | Path = DEVICE_TREE_MODEL) -> str:
    """The device-tree model string ("Raspberry Pi 5 Model B Rev 1.0"), or "" off a Pi."""
    try:
        return Path(model_path).read_bytes().rstrip(b"\0\n").decode("utf-8", "replace")
    except OSError:
        return ""


def is_small_pi(model: str) -> bool:
    """Whether `model` is a Pi 3, Zero 2 W or older (a TV gets 1280x720 from them)."""
    return any(model.startswith(name) for name in SMALL_PIS)


def fullscreen_size(
    wanted: tuple[int, int], offered: Sequence[tuple[int, int]] | int, model: str = ""
) -> tuple[tuple[int, int] | None, str]:
    """The mode to ask a fullscreen display for, and why: `wanted` (the profile's size,
    turned by the mount) when the screen offers it, else None (the screen's own mode).

    `offered` is pygame.display.list_modes(): a list of sizes, or -1 when any size goes.
    A Pi 3 or Zero 2 W asks for 1280x720 (same orientation) instead of anything bigger:
    it cannot draw more in software at a usable rate.
    """
    w, h = wanted
    note = ""
    if is_small_pi(model) and w * h > SMALL_PI_MODE[0] * SMALL_PI_MODE[1]:
        w, h = SMALL_PI_MODE if w >= h else SMALL_PI_MODE[::-1]
        note = f"; {model} draws at most {w}x{h}"
    if offered == -1 or (not isinstance(offered, int) and (w, h) in offered):
        return (w, h), f"{w}x{h} as configured{note}"
    listed = "" if isinstance(offered, int) else ", ".join(f"{a}x{b}" for a, b in offered[:6])
    return None, (
        f"the screen does not offer {w}x{h} (offers {listed or 'none'}); using its own mode{note}"
    )


def detect_pi(model_path: str | Path = DEVICE_TREE_MODEL) -> bool:
    """Whether this machine is a Raspberry Pi, by its device-tree model string."""
    return "Raspberry Pi" in read_model(model_path)


def detect_drm(pattern: str = "/dev/dri/card*") -> bool:
    """Whether a DRM/KMS device exists (what SDL's kmsdrm driver needs)."""
    return bool(glob.glob(pattern))


def detect_display(mode: str = "auto") -> DisplayChoice:
    """`choose_display` for this machine and process environment."""
    return choose_display(mode, os.environ, detect_pi(), detect_drm())


def open_display(
    choice: DisplayChoice,
    size: tuple[int, int],
    rotation: int = 0,
    connector: str = "auto",
    sysfs: str | Path = SYSFS_DRM,
    model_path: str | Path = DEVICE_TREE_MODEL,
) -> pygame.Surface:
    """Open the display SDL-side and return the screen surface.

    `size` is the logical frame size; the display gets that size turned by `rotation`:
    a window fitted to the desktop (`fit_window`), fullscreen the mode of that size when
    the screen offers it (SDL switches the mode) else the screen's own mode, headless
    exactly that. For kmsdrm the card is chosen from `sysfs` for `connector` (see
    `choose_card`) unless SDL_KMSDRM_DEVICE_INDEX is already set. Raises DisplayError
    with SDL's message (and what the card search found) when it cannot be opened.
    """
    saved, card_note, display = _start_video(choice, rotation, connector, sysfs)
    wanted = physical_size(size, rotation)
    mode_note = ""
    try:
        pygame.display.set_caption("Easel")
        if choice.fullscreen:
            mode, mode_note = fullscreen_size(
                wanted, pygame.display.list_modes(0, pygame.FULLSCREEN, display),
                read_model(model_path),
            )
            screen = pygame.display.set_mode(mode or (0, 0), pygame.FULLSCREEN, display=display)
        elif choice.headless:
            screen = pygame.display.set_mode(wanted)
        else:
            desktops = pygame.display.get_desktop_sizes()
            screen = pygame.display.set_mode(fit_window(wanted, desktops[0] if desktops else None))
    except pygame.error as exc:
        raise _failed(choice, saved, exc, card_note) from exc
    _opened(choice, mode_note, screen.get_size(), rotation)
    return screen


def open_window(
    choice: DisplayChoice,
    size: tuple[int, int],
    rotation: int = 0,
    connector: str = "auto",
    sysfs: str | Path = SYSFS_DRM,
    model_path: str | Path = DEVICE_TREE_MODEL,
) -> pygame.Window:
    """`open_display`'s window without its surface, for SDL's renderer (appliance/kiosk/
    present.py): SDL refuses a renderer on a window whose surface was taken, and on kmsdrm
    the surface itself is a renderer. Same sizes, card choice and errors as `open_display`.
    (pygame.display.get_surface() stays None: nothing can be convert()ed to it.)"""
    saved, card_note, display = _start_video(choice, rotation, connector, sysfs)
    wanted = physical_size(size, rotation)
    mode_note = ""
    try:
        if choice.fullscreen:
            mode, mode_note = fullscreen_size(
                wanted, pygame.display.list_modes(0, pygame.FULLSCREEN, display),
                read_model(model_path),
            )
            # SDL puts a window at an undefined position of display N on that display.
            where = (WINDOWPOS_UNDEFINED_DISPLAY | display,) * 2
            if mode is None:
                window = pygame.Window("Easel", pygame.display.get_desktop_sizes()[display],
                                       position=where, fullscreen_desktop=True)
            else:
                window = pygame.Window("Easel", mode, position=where, fullscreen=True)
        elif choice.headless:
            window = pygame.Window("Easel", wanted)
        else:
            desktops = pygame.display.get_desktop_sizes()
            window = pygame.Window("Easel", fit_window(wanted, desktops[0] if desktops else None))
    except pygame.error as exc:
        raise _failed(choice, saved, exc, card_note) from exc
    _opened(choice, mode_note, window.size, rotation)
    return window


def _start_video(
    choice: DisplayChoice, rotation: int, connector: str, sysfs: str | Path
) -> tuple[dict[str, str | None], str, int]:
    """Set SDL's driver (and kmsdrm's card) and start its video; returns the environment
    as found (for `_failed`), what the card search found (for the error) and the SDL
    display to open (the configured connector's; 0 off kmsdrm)."""
    check_rotation(rotation)
    saved = {name: os.environ.get(name)
             for name in ("SDL_VIDEODRIVER", KMSDRM_INDEX_VARIABLE, RENDER_DRIVER_VARIABLE)}
    previous = saved["SDL_VIDEODRIVER"]
    if choice.driver is not None and previous != choice.driver:
        if pygame.display.get_init():
            # SDL reads the driver only when the video subsystem starts.
            pygame.display.quit()
        os.environ["SDL_VIDEODRIVER"] = choice.driver
    card_note, display = "", 0
    if (choice.driver or "").lower() == "kmsdrm":
        card_note, display = _choose_kmsdrm_card(connector, sysfs)
        if not os.environ.get(RENDER_DRIVER_VARIABLE):
            os.environ[RENDER_DRIVER_VARIABLE] = KMSDRM_RENDER_DRIVER
        log.info("kiosk display: SDL's %s renderer draws the frame (%s)",
                 os.environ[RENDER_DRIVER_VARIABLE], RENDER_DRIVER_VARIABLE)
    try:
        pygame.display.init()
    except pygame.error as exc:
        raise _failed(choice, saved, exc, card_note) from exc
    displays = pygame.display.get_num_displays()
    if display >= displays:
        # A connector sysfs says is connected that SDL did not make a display of (no
        # mode, no free CRTC): the first display is better than none.
        log.warning("kiosk display: SDL has %d display(s), not display %d; using display 0",
                    displays, display)
        display = 0
    return saved, card_note, display


def _failed(
    choice: DisplayChoice, saved: Mapping[str, str | None], exc: pygame.error, card_note: str
) -> DisplayError:
    pygame.display.quit()
    # Leave the environment as found, so the caller's fallback starts clean.
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    driver = choice.driver or "SDL's default"
    return DisplayError(f"cannot open the display ({driver}): {exc}{card_note}")


def _opened(
    choice: DisplayChoice, mode_note: str, physical: tuple[int, int], rotation: int
) -> None:
    got = pygame.display.get_driver()
    if choice.driver is not None and not choice.headless and got.lower() != choice.driver.lower():
        pygame.display.quit()
        raise DisplayError(f"SDL opened the {got!r} video driver, not {choice.driver!r}")
    if choice.fullscreen and not choice.headless:
        # A touch table has no mouse; a cursor parked mid-screen is just a smudge.
        pygame.mouse.set_visible(False)
        log.info("kiosk display: %s", mode_note)
    log.debug(
        "kiosk display: driver=%s size=%s rotation=%d (%s)",
        got,
        physical,
        rotation,
        choice.reason,
    )


def _choose_kmsdrm_card(connector: str, sysfs: str | Path) -> tuple[str, int]:
    """Name the DRM card to SDL (SDL_KMSDRM_DEVICE_INDEX) and log why; returns what the
    card search found, for the error message should SDL still fail, and the SDL display
    of the chosen connector on that card."""
    preset = os.environ.get(KMSDRM_INDEX_VARIABLE, "").strip()
    if preset:
        log.info("kiosk display: card%s, as %s in the environment says", preset,
                 KMSDRM_INDEX_VARIABLE)
        return "", 0
    card = detect_card(connector, sysfs)
    if card.card is None:
        # SDL still tries (a screen may answer that sysfs did not list); if it fails the
        # start's error says what was found.
        log.warning("kiosk display: %s", card.reason)
        return f"; {card.reason}", 0
    os.environ[KMSDRM_INDEX_VARIABLE] = str(card.card)
    log.info("kiosk display: kmsdrm on /dev/dri/card%d: %s", card.card, card.reason)
    return f" (tried /dev/dri/card{card.card}: {card.reason})", card.display
