"""The phone page in a real Chromium against the real appliance.

Two browser contexts are two phones on the café Wi-Fi: they join from the QR link, see
each other, survive a reload without typing anything, and a hostile name stays text.
Runs Debian's chromium through Playwright (never a downloaded browser); without one the
tests skip, unless EASEL_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.browser import PHONE, SCREENSHOT_DIR, WAIT_MS, Appliance

pytestmark = pytest.mark.browser

HOSTILE_NAME = "<img src=x onerror>"  # 19 characters: names have at most 20


@dataclass
class Phone:
    """One phone: its own browser context (own localStorage) and page."""

    context: Any
    page: Any
    errors: list[str] = field(default_factory=list)

    def open(self, url: str) -> None:
        self.page.goto(url)

    def screen(self, name: str) -> Any:
        return self.page.locator(f'[data-screen="{name}"]')

    def join(self, name: str, swatch: int) -> None:
        from playwright.sync_api import expect

        page = self.page
        expect(self.screen("join")).to_be_visible(timeout=WAIT_MS)
        page.fill("#name-input", name)
        page.click(f'label[for="swatch-{swatch}"]')
        expect(page.locator(f"#swatch-{swatch}")).to_be_checked()
        page.click("#join-button")
        expect(self.screen("lobby")).to_be_visible(timeout=WAIT_MS)

    def seat_row(self, seat: int) -> Any:
        return self.page.locator(f'[data-screen="lobby"] li.seat[data-seat="{seat}"]')


@pytest.fixture
def phones(browser: Any) -> Iterator[list[Phone]]:
    made: list[Phone] = []

    def new_phone() -> Phone:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        phone = Phone(context, page)
        page.on("pageerror", lambda err: phone.errors.append(str(err)))

        def on_dialog(dialog: Any) -> None:  # e.g. an alert() smuggled in through a name
            phone.errors.append(f"dialog: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        made.append(phone)
        return phone

    yield [new_phone(), new_phone()]
    for phone in made:
        phone.context.close()
    errors = [e for phone in made for e in phone.errors]
    assert not errors, f"the page raised: {errors}"


def _shot(page: Any, name: str) -> Path:
    path = SCREENSHOT_DIR / f"easel-{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def test_two_phones_join_and_a_reload_keeps_the_seat(box: Appliance, phones: list[Phone]) -> None:
    from playwright.sync_api import expect

    ada, bo = phones
    link = f"{box.url}/?room={box.room}"

    ada.open(link)
    expect(ada.screen("join")).to_be_visible(timeout=WAIT_MS)
    expect(ada.page.locator("#name-input")).not_to_have_value("")  # a fun name is offered
    ada.join("Ada", 0)
    expect(ada.page.locator("#me-seat")).to_have_text("You are in seat 1")

    bo.open(link)
    expect(bo.screen("join")).to_be_visible(timeout=WAIT_MS)
    expect(bo.page.locator("#swatch-0")).to_be_disabled(timeout=WAIT_MS)  # Ada's colour
    _shot(bo.page, "join")
    # Names are unique at the table: the box says why, the join screen stays.
    bo.page.fill("#name-input", "ADA")
    bo.page.click('label[for="swatch-1"]')
    bo.page.click("#join-button")
    expect(bo.page.locator("#toast")).to_be_visible(timeout=WAIT_MS)
    expect(bo.page.get_by_role("alert")).to_contain_text("ADA")  # the box names the clash
    expect(bo.screen("join")).to_be_visible()
    bo.page.click("#toast-close")
    bo.join("Bo", 1)
    expect(bo.page.locator("#me-seat")).to_have_text("You are in seat 2")
    expect(bo.page.locator("#me-name")).to_have_text("Bo")

    for phone in phones:
        seats = phone.page.locator('[data-screen="lobby"] li.seat')
        expect(seats).to_have_count(2, timeout=WAIT_MS)
        expect(seats.nth(0).locator(".seat-name")).to_have_text("Ada")
        expect(seats.nth(1).locator(".seat-name")).to_have_text("Bo")
    # Ada joined first: she is the host and may kick Bo and pick the game; Bo may not.
    expect(ada.seat_row(1).locator("button.kick")).to_be_visible()
    expect(ada.page.locator("#start-button")).to_be_visible()
    expect(bo.page.locator('[data-screen="lobby"] button.kick')).to_have_count(0)
    expect(bo.page.locator("#wait-host")).to_be_visible()
    expect(ada.seat_row(1).locator(".presence.on")).to_be_visible(timeout=WAIT_MS)
    _shot(ada.page, "lobby")

    # A reload (a locked phone, a browser that threw the tab away): same seat, no typing.
    bo.page.reload()
    expect(bo.screen("lobby")).to_be_visible(timeout=WAIT_MS)
    expect(bo.page.locator("#me-seat")).to_have_text("You are in seat 2")
    expect(bo.page.locator("#me-name")).to_have_text("Bo")
    expect(ada.seat_row(1).locator(".presence.on")).to_be_visible(timeout=WAIT_MS)

    # Gone for a while (tab closed), then back from the home screen without the room
    # link: the host sees Bo drop out and come back in the same seat.
    bo.page.close()
    expect(ada.seat_row(1).locator(".presence.off")).to_be_visible(timeout=WAIT_MS)
    bo.page = bo.context.new_page()
    bo.page.on("pageerror", lambda err: bo.errors.append(str(err)))
    bo.open(box.url + "/")
    expect(bo.screen("lobby")).to_be_visible(timeout=WAIT_MS)
    expect(bo.page.locator("#me-seat")).to_have_text("You are in seat 2")
    expect(ada.seat_row(1).locator(".presence.on")).to_be_visible(timeout=WAIT_MS)
    expect(ada.page.locator('[data-screen="lobby"] li.seat')).to_have_count(2)


def test_a_name_is_text_never_markup(box: Appliance, phones: list[Phone]) -> None:
    from playwright.sync_api import expect

    host, stranger = phones
    link = f"{box.url}/?room={box.room}"
    host.open(link)
    host.join("Cy", 2)
    stranger.open(link)
    stranger.join(HOSTILE_NAME, 3)

    for phone in phones:
        page = phone.page
        row = page.locator('[data-screen="lobby"] li.seat[data-seat="1"] .seat-name')
        expect(row).to_have_text(HOSTILE_NAME, timeout=WAIT_MS)
        expect(row).to_be_visible()
        assert page.locator("img").count() == 0, "a player's name became an <img> element"
    expect(stranger.page.locator("#me-name")).to_have_text(HOSTILE_NAME)
    # The host's kick confirmation repeats the name: still text.
    host.page.click('button.kick[data-kick="1"]')
    expect(host.page.locator(".kick-question")).to_contain_text(HOSTILE_NAME)
    assert host.page.locator("img").count() == 0


def test_leave_and_kick(box: Appliance, phones: list[Phone]) -> None:
    from playwright.sync_api import expect

    host, guest = phones
    link = f"{box.url}/?room={box.room}"
    host.open(link)
    host.join("Dee", 4)
    guest.open(link)
    guest.join("Eve", 5)

    # Leaving gives the seat back and shows the join screen again (not "you were removed").
    guest.page.click("#leave-button")
    expect(guest.screen("join")).to_be_visible(timeout=WAIT_MS)
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(1, timeout=WAIT_MS)
    assert guest.page.evaluate("localStorage.getItem('easel.token')") is None
    expect(guest.page.locator("#name-input")).to_have_value("Eve")  # remembered
    guest.page.click("#join-button")
    expect(guest.screen("lobby")).to_be_visible(timeout=WAIT_MS)

    # The host removes Eve, after confirming.
    has_token = guest.page.evaluate("localStorage.getItem('easel.token') !== null")
    assert has_token, "a seated phone keeps its reconnect token"
    host.page.click('button.kick[data-kick="1"]')
    host.page.click('[data-kick-yes="1"]')
    expect(guest.screen("kicked")).to_be_visible(timeout=WAIT_MS)
    expect(guest.page.locator("#kicked-message")).not_to_be_empty()
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(1, timeout=WAIT_MS)
    assert guest.page.evaluate("localStorage.getItem('easel.token')") is None

    guest.page.click("#kicked-again")
    expect(guest.screen("join")).to_be_visible(timeout=WAIT_MS)


def test_the_phone_reconnects_by_itself_when_the_box_comes_back(
    box: Appliance, phones: list[Phone]
) -> None:
    from playwright.sync_api import expect

    phone, _ = phones
    phone.open(f"{box.url}/?room={box.room}")
    phone.join("Fay", 6)
    room = box.room

    box.stop()  # a power cut, or the café owner restarting the box
    expect(phone.page.locator("#conn")).to_be_visible(timeout=WAIT_MS)
    expect(phone.screen("lobby")).to_be_visible()  # the last view stays on screen
    box.start()
    assert box.room == room, "the room code survives a restart while someone is seated"
    # No reload, no tap: the backoff loop finds the box and the token gets the seat back.
    expect(phone.page.locator("#conn")).to_be_hidden(timeout=WAIT_MS)
    expect(phone.page.locator("#me-seat")).to_have_text("You are in seat 1")
    row = phone.page.locator('[data-screen="lobby"] li.seat[data-seat="0"]')
    expect(row.locator(".presence.on")).to_be_visible(timeout=WAIT_MS)


BOTS_JS = """async ({url, room, palette, names}) => {
  window.bots = window.bots || [];
  for (const [i, name] of names.entries()) {
    const ws = new WebSocket(url.replace("http", "ws") + "/ws");
    const got = [];
    ws.onmessage = (e) => got.push(JSON.parse(e.data));
    await new Promise((ok) => { ws.onopen = ok; });
    const welcome = async (n) => {
      for (let t = 0; t < 200 && got.filter((m) => m.type === "welcome").length < n; t++) {
        await new Promise((ok) => setTimeout(ok, 25));
      }
    };
    ws.send(JSON.stringify({ type: "hello", room, token: null }));
    await welcome(1);
    ws.send(JSON.stringify({ type: "join", name, colour: palette[i] }));
    await welcome(2);
    window.bots.push({ ws, got });
  }
  return window.bots.length;
}"""


def test_a_ninth_phone_watches_without_a_colour_and_a_freed_seat_is_offered(
    box: Appliance, phones: list[Phone]
) -> None:
    """The report: with 8 seated every colour was taken and the page said "Pick a colour."
    and sent nothing; and a freed seat's newcomer read "you can watch" on the button
    that seated them."""
    from playwright.sync_api import expect

    from appliance.table.session import PALETTE

    bots, ninth = phones
    bots.open(f"{box.url}/healthz")
    names = [f"Bot {i}" for i in range(8)]
    assert bots.page.evaluate(BOTS_JS, {"url": box.url, "room": box.room,
                                        "palette": list(PALETTE), "names": names}) == 8
    ninth.open(f"{box.url}/?room={box.room}")
    expect(ninth.screen("join")).to_be_visible(timeout=WAIT_MS)
    expect(ninth.page.locator("#join-note")).to_have_text("All seats are taken — you can watch.")
    expect(ninth.page.locator(".swatch-set")).to_be_hidden()  # no colour to pick
    expect(ninth.page.locator("#join-button")).to_have_text("Watch the game")
    _shot(ninth.page, "join-ninth")
    ninth.page.click("#join-button")
    expect(ninth.screen("spectator")).to_be_visible(timeout=WAIT_MS)

    # A game starts; the host frees seat 3 for a newcomer: the page says it seats you.
    bots.page.evaluate("""() => {
      const host = window.bots[0].ws;
      host.send(JSON.stringify({ type: "select", game: "duplik" }));
      host.send(JSON.stringify({ type: "start", options: {} }));
    }""")
    # It watches the game itself (tests/test_browser_watchers.py), read-only.
    expect(ninth.screen("playing")).to_be_visible(timeout=WAIT_MS)
    expect(ninth.page.locator("#watch-why")).to_contain_text("A game is running")
    bots.page.evaluate("() => window.bots[0].ws.send(JSON.stringify({type: 'kick', seat: 3}))")
    ninth.page.reload()
    ninth.page.evaluate("localStorage.clear()")
    ninth.page.reload()
    expect(ninth.screen("join")).to_be_visible(timeout=WAIT_MS)
    note = ninth.page.locator("#join-note")
    expect(note).to_contain_text("a seat is free: you take it", timeout=WAIT_MS)
    expect(ninth.page.locator("#join-button")).to_have_text("Take the free seat")
    _shot(ninth.page, "join-freed-seat")
    ninth.page.fill("#name-input", "Newcomer")
    ninth.page.click("#join-button")
    expect(ninth.screen("playing")).to_be_visible(timeout=WAIT_MS)
