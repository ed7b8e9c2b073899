"""Run by the arm64 root's Python under qemu-user (tests/test_pi_wheels.py): what a Pi's
first start would do with the installed wheels. Prints one `key: value` line per finding;
the test reads them. Standard library and Easel's own dependencies only."""

from __future__ import annotations

import ctypes
import importlib
import importlib.metadata
import os
import platform
import sys
from pathlib import Path

UNKNOWN_DRIVER = "nosuchdriver"
"""A name SDL has no driver for: its error is what "not compiled in" looks like."""


def say(key: str, value: object) -> None:
    print(f"{key}: {value}", flush=True)


def main() -> None:
    say("machine", platform.machine())
    say("python", platform.python_version())
    # lgpio is a wheel where PyPI has one for this Python (Bookworm's 3.11); on trixie it is
    # Raspberry Pi OS's python3-lgpio, which no Debian root has (EASEL_SMOKE_LGPIO=0).
    with_lgpio = os.environ.get("EASEL_SMOKE_LGPIO", "1") == "1"
    for module in ("aiohttp", "msgspec", "segno", "gpiozero", "snowballstemmer",
                   *(("lgpio",) if with_lgpio else ()),
                   "evdev", "games", "drivers", "appliance", "appliance.app",
                   "appliance.kiosk", "drivers.panel", "drivers.touch"):
        loaded = importlib.import_module(module)
        say(f"import {module}", Path(loaded.__file__ or "?").parent)
    if not with_lgpio:
        # The panel's choice on a Pi without lgpio or RPi.GPIO: a PanelError saying what to
        # install (the box then starts with its on-screen buttons: tests/test_pi_system.py).
        from drivers.panel import PanelError, choose_pin_factory

        try:
            choose_pin_factory("auto", on_pi=True)
            say("gpio without lgpio", "a pin factory opened")
        except PanelError as err:
            say("gpio without lgpio", f"PanelError: {err}")
    import pygame

    say("pygame-ce", pygame.version.ver)
    say("SDL", ".".join(map(str, pygame.get_sdl_version())))
    # SDL's list of the video drivers compiled into this build (not those that work here).
    libs = Path(pygame.__file__).parent.parent / "pygame_ce.libs"
    (sdl_path,) = sorted(libs.glob("libSDL2-*"))
    sdl = ctypes.CDLL(str(sdl_path))
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    drivers = [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())]
    say("SDL video drivers", " ".join(drivers))
    # The console script the installer links to /usr/local/bin/easel.
    (script,) = [ep for ep in importlib.metadata.entry_points(group="console_scripts")
                 if ep.name == "easel"]
    say("easel script", script.value)
    sys.argv = ["easel", "check-config"]
    code = script.load()()
    say("check-config exit", code)
    # Open each driver as the kiosk does; SDL's debug log (stderr) says what it tried.
    for driver in ("kmsdrm", UNKNOWN_DRIVER):
        os.environ["SDL_VIDEODRIVER"] = driver
        print(f"--- opening {driver}", file=sys.stderr, flush=True)
        try:
            pygame.display.init()
            say(f"open {driver}", "opened")
        except pygame.error as err:
            say(f"open {driver}", f"error: {err}")
        finally:
            pygame.display.quit()
        print(f"--- done {driver}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
