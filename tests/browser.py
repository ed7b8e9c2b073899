"""The browser tests' plumbing: the real appliance in a subprocess, and Debian's Chromium.

Shared by every test that drives the phone page in a real browser (registered as a pytest
plugin in conftest.py, so `box` and `browser` are fixtures everywhere). Chromium comes
from Debian through Playwright, never a downloaded browser; without one the tests skip,
unless EASEL_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

from tests.process import free_port

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
WAIT_MS = 10_000
SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("EASEL_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (EASEL_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


def chromium_path() -> str:
    path = os.environ.get("EASEL_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        unavailable(f"no Chromium at {path}; install Debian's chromium or set EASEL_CHROMIUM")
    return path


class Appliance:
    """The real appliance in a subprocess (headless), on a free port with its own data."""

    def __init__(self, tmp_path: Path, module: str = "appliance") -> None:
        self.module = module  # what `python -m` runs: the box, or a box with a test game
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = tmp_path / "data"
        self.log = tmp_path / "appliance.log"
        # Not this machine's settings, nor its systemd's notify socket (a restart would
        # then leave it to systemd, tests/test_restart.py).
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("EASEL_") and k != "NOTIFY_SOCKET"}
        self.env.update(
            SDL_VIDEODRIVER="dummy",
            SDL_AUDIODRIVER="dummy",
            XDG_CONFIG_HOME=str(tmp_path / "config"),  # no settings from this machine's user
            EASEL_TABLE_LANGUAGE="en",
            PYTHONUNBUFFERED="1",
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.room = ""

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    self.module,
                    "run",
                    "--headless",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--data-dir",
                    str(self.data_dir),
                ],
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.room = str(self.health()["room"])

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)

    def health(self) -> dict[str, Any]:
        assert self.proc is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                code = self.proc.returncode
                pytest.fail(f"the appliance exited ({code}):\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    body: dict[str, Any] = json.load(response)
                    return body
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        pytest.fail(f"the appliance did not answer /healthz within 20 s:\n{self.log.read_text()}")

    def kiosk_png(self, path: Path) -> None:
        """The kiosk's current frame (served to the box itself, which this test is)."""
        with urllib.request.urlopen(self.url + "/kiosk.png", timeout=5) as response:
            path.write_bytes(response.read())


@contextmanager
def running(tmp_path: Path, module: str = "appliance", **env: str) -> Iterator[Appliance]:
    """The real appliance started with these `EASEL_...` settings, stopped afterwards."""
    appliance = Appliance(tmp_path, module)
    appliance.env.update(env)
    try:
        appliance.start()
        yield appliance
    finally:
        appliance.stop()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Appliance]:
    with running(tmp_path) as appliance:
        yield appliance


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Exception as err:  # a broken or too old chromium: say which and why
            unavailable(f"Chromium at {executable} does not start: {err}")
        yield chromium
        chromium.close()


@dataclass
class GamePhone:
    """One phone in a game test: its own browser context (own localStorage) and page."""

    name: str
    context: Any
    page: Any
    game: str
    errors: list[str] = field(default_factory=list)

    def screen(self, name: str) -> Any:
        return self.page.locator(f'[data-screen="{name}"]')

    def act(self, name: str) -> Any:
        """A game screen's control by its data-act name."""
        return self.page.locator(f'#game-root [data-act="{name}"]')

    def join(self, url: str, swatch: int) -> None:
        from playwright.sync_api import expect

        self.page.goto(url)
        expect(self.screen("join")).to_be_visible(timeout=WAIT_MS)
        self.page.fill("#name-input", self.name)
        self.page.click(f'label[for="swatch-{swatch}"]')
        self.page.click("#join-button")
        expect(self.screen("lobby")).to_be_visible(timeout=WAIT_MS)

    def shot(self, name: str, full: bool = True) -> None:
        path = SCREENSHOT_DIR / f"easel-{self.game}-phone-{name}.png"
        self.page.screenshot(path=str(path), full_page=full, animations="disabled")


def assert_on_screen(page: Any, control: Any, what: str) -> None:
    """`control` is wholly inside the viewport with the page at its top (no scrolling to
    find it), and the only hourglass shown is the game's own (issue 19: phones in
    portrait)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(50)
    box = control.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{what} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (
        f"{what} is at y={box['y']:.0f}..{box['y'] + box['height']:.0f}, below the fold of a "
        f"{size['width']}x{size['height']} phone"
    )
    shown = page.locator('[role="timer"]:visible').count()
    assert shown <= 1, f"{shown} countdowns at once"


@contextmanager
def game_phones(browser: Any, game: str, names: Sequence[str]) -> Iterator[list[GamePhone]]:
    """Phones named `names`; fails afterwards if any page raised a script error."""
    made: list[GamePhone] = []
    for name in names:
        context = browser.new_context(**PHONE)
        phone = GamePhone(name, context, context.new_page(), game)
        phone.page.on("pageerror", lambda err, phone=phone: phone.errors.append(str(err)))
        made.append(phone)
    yield made
    for phone in made:
        phone.context.close()
    errors = [f"{phone.name}: {e}" for phone in made for e in phone.errors]
    assert not errors, f"the page raised: {errors}"


@contextmanager
def seated_page(browser: Any, box: Appliance, token: str | None, *, goto: bool = True,
                **context: Any) -> Iterator[Any]:
    """A phone's page in a context of its own (`context`: Playwright's new_context
    options), holding a seat's `token` and the room as the page keeps them after a join
    (none for a newcomer), opened at the box's address unless `goto` is false. Fails
    afterwards if the page raised a script error."""
    made = browser.new_context(**context)
    if token is not None:
        made.add_init_script(f"localStorage.setItem('easel.token', {token!r});"
                             f"localStorage.setItem('easel.room', {box.room!r});")
    page = made.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        if goto:
            page.goto(box.url)
        yield page
    finally:
        made.close()
    assert not errors, errors
