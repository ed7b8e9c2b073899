"""The phone page against the box's hello timeout (issue 16), in a real Chromium.

The box closes a socket that has not said hello within `[server] hello_timeout_s`. A
phone opened without the room code has nothing to say until its player types it: the
page opens no socket until then, so nobody sees "reconnecting" flash while typing; a
wrong code, whose silent socket the box then closes, leaves the page calm too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import PHONE, SCREENSHOT_DIR, WAIT_MS, Appliance

pytestmark = pytest.mark.browser

HELLO_TIMEOUT_S = 1


def test_typing_the_room_code_opens_no_socket_and_never_says_reconnecting(
    tmp_path: Path, browser: Any
) -> None:
    from playwright.sync_api import expect

    box = Appliance(tmp_path)
    box.env["EASEL_SERVER_HELLO_TIMEOUT_S"] = str(HELLO_TIMEOUT_S)
    box.start()
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        sockets: list[Any] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(box.url + "/")
        expect(page.locator('[data-screen="room"]')).to_be_visible(timeout=WAIT_MS)
        page.locator("#room-input").press_sequentially(box.room[:2], delay=300)
        page.wait_for_timeout(HELLO_TIMEOUT_S * 1000 * 2 + 500)  # a slow typist
        assert not sockets, "a socket before there is a room code to say hello with"
        expect(page.locator("#conn")).to_be_hidden()
        # A wrong code: the box says so; its socket, silent, is closed after the timeout.
        wrong = "ZZZZ" if box.room != "ZZZZ" else "XXXX"
        page.fill("#room-input", wrong)
        page.locator("#room-form").evaluate("form => form.requestSubmit()")
        expect(page.locator("#room-error")).to_be_visible(timeout=WAIT_MS)
        page.wait_for_timeout(HELLO_TIMEOUT_S * 1000 * 2 + 500)
        expect(page.locator("#conn")).to_be_hidden()
        expect(page.locator('[data-screen="room"]')).to_be_visible()
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-room-calm.png"), full_page=True)
        # The right code: connected, on to the join screen.
        page.fill("#room-input", box.room)
        page.locator("#room-form").evaluate("form => form.requestSubmit()")
        expect(page.locator('[data-screen="join"]')).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#conn")).to_be_hidden()
        assert not errors, errors
    finally:
        context.close()
        box.stop()
