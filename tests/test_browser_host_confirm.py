"""The host page asks "Are you sure?" before kick, free a seat, end and restart (issue 27).

A café owner on a small phone (360x640): each of the four opens the page's own dialog
with the question naming the person or the game, a sentence saying what happens, and
the safe button focused; Esc and the safe button do nothing, the other does it. In
Czech too. Restart, once confirmed, really restarts the box, and the page finds it again.
Runs Debian's chromium through Playwright (EASEL_CHROMIUM); without one the test skips.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import (
    PHONE,
    SCREENSHOT_DIR,
    WAIT_MS,
    Appliance,
    GamePhone,
    game_phones,
    running,
)
from tests.test_browser_host import state_of

pytestmark = pytest.mark.browser

PIN = "8642"
SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 640}}


@pytest.fixture
def host_box(tmp_path: Path) -> Iterator[Appliance]:
    with running(tmp_path, EASEL_HOST_PIN=PIN) as box:
        yield box


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "host-confirm", ("Ada", "Bo", "Cy", "Dee")) as made:
        yield made



def asked(page: Any, question: str, sentence: str, safe: str, yes: str) -> None:
    """The dialog is up with these words, and the safe button has the focus."""
    from playwright.sync_api import expect

    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#confirm-question")).to_have_text(question)
    expect(page.locator("#confirm-note")).to_contain_text(sentence)
    expect(page.locator("#confirm-no")).to_have_text(safe)
    expect(page.locator("#confirm-yes")).to_have_text(yes)
    expect(page.locator("#confirm-no")).to_be_focused()
    # Both buttons on the small screen, no scrolling.
    for button in ("#confirm-no", "#confirm-yes"):
        box = page.locator(button).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["y"] >= 0 and box["y"] + box["height"] <= 640


def test_the_host_page_asks_before_anything_drastic(
    host_box: Appliance, browser: Any, phones: list[GamePhone]
) -> None:
    from playwright.sync_api import expect

    box = host_box
    context = browser.new_context(**SMALL_PHONE)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))

    def native_dialog(dialog: Any) -> None:
        errors.append(f"native dialog: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", native_dialog)
    try:
        page.goto(f"{box.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-button")
        expect(page.locator('[data-screen="host"]')).to_be_visible(timeout=WAIT_MS)
        link = f"{box.url}/?room={box.room}"
        for i, phone in enumerate(phones):
            phone.join(link, i)
        seats = page.locator("#seats li[data-seat]")
        expect(seats).to_have_count(4, timeout=WAIT_MS)
        dialog = page.locator("#confirm")

        # Kick in the lobby: Esc, then the safe button, leave Dee seated; Remove removes.
        kick_dee = page.locator('#seats li[data-seat="3"] [data-do="kick"]')
        kick_dee.click()
        asked(page, "Remove Dee from the table?", "Dee's phone is told so", "Cancel", "Remove")
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-host-confirm-kick-360.png"))
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        kick_dee.click()
        page.keyboard.press("Enter")  # on the focused safe button
        expect(dialog).to_be_hidden()
        page.wait_for_timeout(2500)  # a poll later: still four
        expect(seats).to_have_count(4)
        assert len(state_of(page)["view"]["seats"]) == 4
        kick_dee.click()
        page.locator("#confirm-yes").click()
        expect(seats).to_have_count(3, timeout=WAIT_MS)
        expect(phones[3].screen("kicked")).to_be_visible(timeout=WAIT_MS)

        # A game: free Cy's seat, asked first.
        page.select_option("#game-select", "artbox")
        page.click("#start")
        expect(page.locator("#status")).to_contain_text("Playing ArtBox", timeout=WAIT_MS)
        offer_cy = page.locator('#seats li[data-seat="2"] [data-do="offer"]')
        expect(offer_cy).to_be_visible(timeout=WAIT_MS)
        offer_cy.click()
        asked(page, "Free Cy's seat?", "a newcomer can take the seat with its score",
              "No, keep playing", "Free the seat")
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-host-confirm-offer-360.png"))
        page.locator("#confirm-no").click()
        expect(dialog).to_be_hidden()
        assert state_of(page)["view"].get("open_seats") in (None, [])
        offer_cy.click()
        page.locator("#confirm-yes").click()
        expect(page.locator("#seats li.muted")).to_contain_text("Seat 3: free to take",
                                                                timeout=WAIT_MS)

        # Kick mid-game says they stay out of the game; Esc leaves Bo playing.
        page.locator('#seats li[data-seat="1"] [data-do="kick"]').click()
        asked(page, "Remove Bo from the table?", "stays out of it until you let them back",
              "No, keep playing", "Remove")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        assert any(s["seat"] == 1 for s in state_of(page)["view"]["seats"])

        # End: named, Esc keeps playing, End the game ends it.
        end = page.locator('#match-buttons [data-do="end"]')
        end.click()
        asked(page, "End ArtBox now?", "The game stops for everyone", "No, keep playing",
              "End the game")
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-host-confirm-end-360.png"))
        page.keyboard.press("Escape")
        page.wait_for_timeout(2500)
        expect(page.locator("#status")).to_contain_text("Playing ArtBox")
        end.click()
        page.locator("#confirm-yes").click()
        # Ended early, its finish is held as at a game's own end (what was played counts).
        expect(page.locator("#status")).to_contain_text("has ended", timeout=WAIT_MS)

        # In Czech, the same questions in Czech.
        page.locator('#languages [data-lang="cs"]').click()
        expect(page.locator('[data-h="restart"]')).to_have_text("Restartovat krabici",
                                                                timeout=WAIT_MS)
        page.click("#restart")
        asked(page, "Restartovat krabici?", "Obrazovka i telefony na chvíli zhasnou", "Zrušit",
              "Restartovat")
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-host-confirm-restart-cs-360.png"))
        page.locator("#confirm-no").click()
        page.wait_for_timeout(1000)
        assert box.proc is not None and box.proc.poll() is None  # the box is still up
        kick_bo = page.locator('#seats li[data-seat="1"] [data-do="kick"]')
        kick_bo.click()
        asked(page, "Odebrat hráče Bo od stolu?", "Telefon hráče Bo se to dozví", "Zrušit",
              "Odebrat")
        page.keyboard.press("Escape")

        # Restart, confirmed: the box starts again (here by itself, as no systemd runs it;
        # tests/test_restart.py) and the page finds it again, as it promised.
        up = box.health()["uptime_s"]
        page.click("#restart")
        page.locator("#confirm-yes").click()
        expect(page.locator("#notice")).to_be_visible(timeout=WAIT_MS)
        page.wait_for_function(
            "async (up) => { try { const r = await fetch('/healthz');"
            " return (await r.json()).uptime_s < up; } catch (e) { return false; } }",
            arg=up, timeout=30_000, polling=500)
        assert box.proc.poll() is None, "the box stopped instead of starting again"
        expect(page.locator("#status")).to_be_visible(timeout=WAIT_MS)
    finally:
        context.close()
    assert not errors, errors
