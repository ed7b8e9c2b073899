"""The host's "Restart the box" starts the box again wherever it runs (issue 31): under
systemd (its notify socket) the process exits with RESTART_EXIT and systemd's
Restart=always starts it; on a desktop's `easel run` (or `make run`) nothing would, so
the same command replaces the process and the host page's promised reconnect holds."""

from __future__ import annotations

import http.cookiejar
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

from appliance.app import RESTART_EXIT
from tests.browser import Appliance, running

PIN = "2468"


def host_call(box: Appliance, opener: urllib.request.OpenerDirector, path: str) -> Any:
    body = json.dumps({"pin": PIN} if path == "login" else {}).encode()
    request = urllib.request.Request(
        f"{box.url}/host/api/{path}", data=body, method="POST",
        headers={"Content-Type": "application/json", "Origin": box.url},
    )
    with opener.open(request, timeout=5) as response:
        return json.load(response)


def restart(box: Appliance) -> None:
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    host_call(box, opener, "login")
    assert host_call(box, opener, "restart")["restarting"] is True


def test_on_a_desktop_the_box_starts_again_by_itself(tmp_path: Path) -> None:
    with running(tmp_path, EASEL_HOST_PIN=PIN) as box:
        assert box.proc is not None
        time.sleep(1.5)  # an uptime the new start cannot have
        before = box.health()
        assert before["uptime_s"] >= 1.0
        restart(box)
        deadline = time.monotonic() + 30
        seen_down = False
        while time.monotonic() < deadline:
            assert box.proc.poll() is None, (
                f"the box stopped ({box.proc.returncode}) instead of starting again:\n"
                f"{box.log.read_text()}")
            try:
                with urllib.request.urlopen(box.url + "/healthz", timeout=1) as response:
                    now = json.load(response)
            except OSError:
                seen_down = True
                time.sleep(0.1)
                continue
            if now["uptime_s"] < before["uptime_s"]:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"the box did not start again:\n{box.log.read_text()}")
        assert seen_down, "the box never went down: it did not restart"
        assert "starting the box again" in box.log.read_text()


def test_under_systemd_it_exits_for_systemd_to_start_it(tmp_path: Path) -> None:
    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    try:
        with running(tmp_path, EASEL_HOST_PIN=PIN, NOTIFY_SOCKET=str(notify)) as box:
            assert box.proc is not None
            restart(box)
            assert box.proc.wait(timeout=20) == RESTART_EXIT
    finally:
        listener.close()
