"""The kiosk's frame with its present, measured inside the boot-check VM (issue 29 item 4).

Run by tests/test_boot_check.py in the VM, as root with the unit stopped, under the
installed venv (`/opt/easel/venv/bin/python /srv/easel-src/tests/boot_check/present_cost.py`):
it needs only Easel itself, not the test suite's packages. It opens the kiosk the way the
box does, on the VM's virtio-gpu card through SDL's kmsdrm (Mesa's GBM/EGL, its software
GLES on llvmpipe), upright and turned by 90, through each present path (the window
surface and SDL's renderer), and again on SDL's dummy driver (no present at all, what
tests/bench/bench_kiosk.py measures) in the same VM. Each figure is the median
milliseconds of a full lobby frame (the selection moves, so every frame is a real redraw)
including the present: CPU time of the whole process (SDL's and llvmpipe's threads too)
and wall time. Prints one JSON object; tests/bench/bench_present_vm.py reports it.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from typing import Any

FRAMES = 12  # under TCG a 1080p llvmpipe frame takes a good part of a second
WARMUP = 3
# (SDL video driver, config display.present, the figure's suffix)
PATHS = (
    ("kmsdrm", "surface", "kmsdrm_surface"),
    ("kmsdrm", "renderer", "kmsdrm_renderer"),
    ("dummy", "surface", "dummy"),
)
ROTATIONS = (0, 90)
PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
           "#bfef45"]


def lobby_view(version: int) -> dict[str, Any]:
    """The lobby with four seats; the selected game changes every frame (a real redraw)."""
    names = ["Ada", "Bořivoj", "Cy", "Dana"]
    games = [("broad-lines", "Broad Lines", 3, 12), ("duplik", "Duplik", 3, 10),
             ("luck-of-the-draw", "Luck of the Draw", 4, 8), ("artbox", "ArtBox", 3, 8)]
    return {
        "type": "view", "version": version, "lang": "en", "room": "KQ4T",
        "join_url": "http://192.168.1.20:8080/?room=KQ4T", "wifi": None, "phase": "lobby",
        "max_players": 8, "spectators": 0, "palette": PALETTE,
        "seats": [{"seat": i, "name": name, "colour": PALETTE[i], "connected": True,
                   "host": i == 0} for i, name in enumerate(names)],
        "games": [{"id": g, "title": t, "min_players": lo, "max_players": hi,
                   "available": True} for g, t, lo, hi in games],
        "selected": ["duplik", "luck-of-the-draw"][version % 2],
    }


def measure(driver: str, present: str, rotation: int) -> tuple[float, float, list[int]]:
    """(CPU ms, wall ms) per full frame, the medians; and the display's size."""
    import pygame

    from appliance.kiosk import Kiosk
    from appliance.kiosk.display import DisplayChoice

    choice = (DisplayChoice("kmsdrm", True, False, "present cost: the VM's screen")
              if driver == "kmsdrm" else DisplayChoice("dummy", False, True, "present cost"))
    # The screen's own mode (the kiosk takes it when the asked one is not offered).
    kiosk = Kiosk((1280, 800), rotation, choice, ink_interval=0.0, present=present)
    try:
        if driver == "kmsdrm" and pygame.display.get_driver().lower() != "kmsdrm":
            raise RuntimeError(f"SDL opened {pygame.display.get_driver()!r}, not kmsdrm")
        cpu: list[float] = []
        wall: list[float] = []
        for i in range(WARMUP + FRAMES):
            c0, w0 = time.process_time(), time.perf_counter()
            if not kiosk.update(lobby_view(i), 0.0):
                raise RuntimeError("the lobby view did not cause a redraw")
            c1, w1 = time.process_time(), time.perf_counter()
            if i >= WARMUP:
                cpu.append((c1 - c0) * 1000)
                wall.append((w1 - w0) * 1000)
        size = list(kiosk.display_size)
    finally:
        kiosk.close()
    return statistics.median(cpu), statistics.median(wall), size


def main() -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    figures: dict[str, Any] = {}
    for driver, present, suffix in PATHS:
        for rotation in ROTATIONS:
            cpu, wall, size = measure(driver, present, rotation)
            figures[f"vm_frame_cpu_ms_rot{rotation}_{suffix}"] = round(cpu, 2)
            figures[f"vm_frame_wall_ms_rot{rotation}_{suffix}"] = round(wall, 2)
            if driver == "kmsdrm":
                figures["vm_display"] = "x".join(map(str, size)) if rotation == 0 else \
                    figures.get("vm_display", "")
    figures["vm_gallium_driver"] = os.environ.get("GALLIUM_DRIVER", "llvmpipe (Mesa default)")
    figures["vm_lp_num_threads"] = os.environ.get("LP_NUM_THREADS", "(Mesa default)")
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
