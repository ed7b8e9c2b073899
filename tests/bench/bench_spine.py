"""The spine's figures: start-up, idle CPU, action round trips with 8 phones, memory."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

from tests.conftest import REPO
from tests.process import free_port


def startup_and_idle() -> dict[str, float]:
    """`easel run` as `make run` starts it (SDL dummy, 1920x1080), timed from the outside.

    With bytecode, as on a Pi: pip compiles every module when it installs Easel, while
    this checkout is an editable install whose modules compile from source at every
    start when nothing may be written (PYTHONDONTWRITEBYTECODE=1, as some shells set).
    So the bytecode goes to a folder of the benchmark's own (PYTHONPYCACHEPREFIX) and a
    first, uncounted start writes it. `startup_cpu_s`: the CPU seconds the process used
    up to the lobby, which unlike the wall clock does not count the time other programs
    on a shared machine hold the cores."""
    starts = []
    cpus = []
    idle = 0.0
    pycache = tempfile.mkdtemp(prefix="easel-bench-pycache-")
    for attempt in range(4):
        env = {
            **os.environ,
            "SDL_VIDEODRIVER": "dummy",
            "EASEL_DISPLAY_WIDTH": "1920",
            "EASEL_DISPLAY_HEIGHT": "1080",
            "EASEL_SERVER_HOST": "127.0.0.1",
            "EASEL_SERVER_PORT": str(free_port()),
            "EASEL_STORAGE_DATA_DIR": tempfile.mkdtemp(prefix="easel-bench-"),
            "XDG_CONFIG_HOME": tempfile.mkdtemp(prefix="easel-bench-"),
            "PYTHONPYCACHEPREFIX": pycache,
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        began = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "appliance", "run"],
            cwd=REPO,
            env=env,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert proc.stderr is not None
        process = psutil.Process(proc.pid)
        for line in proc.stderr:
            if "lobby on screen" in line:
                if attempt:  # the first start compiles the bytecode
                    starts.append(time.monotonic() - began)
                    used = process.cpu_times()
                    cpus.append(used.user + used.system)
                break
        if attempt == 1:
            time.sleep(1.0)  # let start-up work settle
            before = process.cpu_times()
            wall = time.monotonic()
            time.sleep(5.0)
            after = process.cpu_times()
            used = (after.user - before.user) + (after.system - before.system)
            idle = 100 * used / (time.monotonic() - wall)
        proc.terminate()
        proc.wait(10)
    return {
        "startup_to_lobby_s": statistics.median(starts),
        "startup_cpu_s": statistics.median(cpus),
        "idle_cpu_pct": idle,
    }


def round_trips() -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.bench.spine_probe"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def run() -> dict[str, float]:
    figures = {**startup_and_idle(), **round_trips()}
    for key, value in figures.items():
        print(f"   {key:28} {value:10.3f}")
    return figures


if __name__ == "__main__":
    print(run())
