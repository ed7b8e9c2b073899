"""Start the appliance as a real process on a free port, wait for it, and stop or kill it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.conftest import REPO


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ApplianceProcess:
    def __init__(
        self, data_dir: Path, port: int | None = None, module: str = "tests.serve_toygame"
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.module = module
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "appliance.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(
        self, timeout: float = 20.0, extra_env: dict[str, str] | None = None
    ) -> dict[str, Any]:
        env = {
            **os.environ,
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "XDG_CONFIG_HOME": str(self.data_dir / "no-config"),
            **(extra_env or {}),
        }
        args = [sys.executable, "-m", self.module, "run", "--headless", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--data-dir", str(self.data_dir)]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=log, stderr=log)
        return self.wait_ready(timeout)

    def wait_ready(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the appliance exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    health: dict[str, Any] = json.load(response)
                    return health
            except OSError:
                time.sleep(0.05)
        raise TimeoutError(f"no /healthz after {timeout} s: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """Pull the plug: SIGKILL, no chance to flush or say goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return self.proc.returncode
