"""A real X server for display tests and benchmarks: Xvfb on a display number it picks
itself (-displayfd), so parallel runs never collide; stopped when the block ends.

`need_xvfb()` skips a test when Xvfb is not installed, and fails it instead when
EASEL_REQUIRE_TOOLS=1 (as CI sets), so a missing tool never passes silently there.
"""

from __future__ import annotations

import os
import select
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

START_TIMEOUT_S = 10.0


class XvfbError(RuntimeError):
    """Xvfb did not start (its own message is attached)."""


def xvfb_path() -> str | None:
    return shutil.which("Xvfb")


def need_xvfb() -> str:
    """The Xvfb executable, or skip (fail under EASEL_REQUIRE_TOOLS=1) without it."""
    import pytest

    path = xvfb_path()
    if path is None:
        reason = "Xvfb is not installed (apt-get install xvfb)"
        if os.environ.get("EASEL_REQUIRE_TOOLS") == "1":
            pytest.fail(f"{reason} (EASEL_REQUIRE_TOOLS=1)")
        pytest.skip(reason)
    return path


@dataclass(frozen=True)
class XServer:
    display: str  # for $DISPLAY: ":N"
    pid: int  # the server's process (a benchmark counts its CPU time too)


@contextmanager
def xvfb(width: int = 1920, height: int = 1080) -> Iterator[XServer]:
    """Run Xvfb with one `width`x`height` 24-bit screen until the block ends."""
    path = xvfb_path()
    if path is None:
        raise XvfbError("Xvfb is not installed")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [path, "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
         "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], START_TIMEOUT_S)
        number = os.read(read_fd, 32).decode().strip() if ready else ""
        if not number:
            proc.kill()
            _, err = proc.communicate(timeout=5)
            raise XvfbError(f"Xvfb did not start: {err.decode(errors='replace')[-500:]}")
        yield XServer(f":{number}", proc.pid)
    finally:
        os.close(read_fd)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if proc.stderr is not None:
            proc.stderr.close()
