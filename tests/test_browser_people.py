"""People come and go, in a real Chromium against the real appliance (issue 27).

Four phones start ArtBox; three keep a word card and Dee closes her tab without choosing.
The table does not freeze: every phone says she is away, and once her count runs out the
game goes on without her (the dice are rolled). She opens the page again, is back in her
own seat, and the note goes. The kiosk's frame is saved for a look.
Runs Debian's chromium through Playwright; without one the test skips, unless
EASEL_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance, GamePhone, game_phones, running

pytestmark = pytest.mark.browser

AWAY_S = 5  # the shortest the settings allow, for `away_after_s` and `away_wait_s` both


@pytest.fixture
def quick_box(tmp_path: Path) -> Iterator[Appliance]:
    with running(tmp_path, EASEL_TABLE_AWAY_AFTER_S=str(AWAY_S),
                 EASEL_TABLE_AWAY_WAIT_S=str(AWAY_S)) as appliance:
        yield appliance


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "artbox", ("Ada", "Bo", "Cy", "Dee")) as made:
        yield made


def test_a_closed_tab_is_away_and_the_game_goes_on(
    quick_box: Appliance, phones: list[GamePhone]
) -> None:
    from playwright.sync_api import expect

    link = f"{quick_box.url}/?room={quick_box.room}"
    for i, phone in enumerate(phones):
        phone.join(link, i)
    ada, bo, cy, dee = phones
    expect(ada.page.locator('[data-screen="lobby"] li.seat')).to_have_count(4, timeout=WAIT_MS)
    game = ada.page.locator('.game[data-game="artbox"]')
    expect(game).to_be_enabled(timeout=WAIT_MS)
    game.click()
    ada.page.click("#start-button")
    for phone in (ada, bo, cy):
        card = phone.act("keep-0")
        expect(card).to_be_visible(timeout=WAIT_MS)
        card.click()
    expect(dee.act("keep-0")).to_be_visible(timeout=WAIT_MS)
    dee.page.close()  # the tab is gone, her word not chosen: the game waits for her

    note = ada.page.locator("#away-note")
    expect(note).to_be_visible(timeout=(AWAY_S + 4) * 1000)
    expect(note).to_contain_text("Away: Dee")
    ada.shot("away-note", full=False)
    quick_box.kiosk_png(SCREENSHOT_DIR / "easel-kiosk-away-live.png")
    # Her count runs out: the rules go on without her, someone can roll the dice.
    expect(note).to_contain_text("until they are back", timeout=(AWAY_S + 4) * 1000)
    rollers = [p for p in (ada, bo, cy) if p.act("roll").count()]
    deadline_ms = 5000
    while not rollers and deadline_ms > 0:
        ada.page.wait_for_timeout(100)
        deadline_ms -= 100
        rollers = [p for p in (ada, bo, cy) if p.act("roll").count()]
    assert rollers, "the game still waits for Dee"

    # Dee opens the page again (same phone, its token kept): back in her own seat.
    dee.page = dee.context.new_page()
    dee.page.goto(link)
    expect(dee.page.locator("#game-root")).to_be_visible(timeout=WAIT_MS)
    expect(note).to_be_hidden(timeout=WAIT_MS)
    seat = dee.page.evaluate("() => window.localStorage.getItem('easel.token')")
    assert seat, "Dee lost her seat"


PIN = "8642"


@pytest.fixture
def host_box(tmp_path: Path) -> Iterator[Appliance]:
    with running(tmp_path, EASEL_HOST_PIN=PIN) as appliance:
        yield appliance


def test_a_kicked_player_stays_out_until_let_back_and_gets_his_own_seat(
    host_box: Appliance, browser: Any, phones: list[GamePhone]
) -> None:
    """The host kicks Bo mid-game from the host page (it asks first). Bo's "Join again"
    is refused with a reason, on the same phone, never seated in anyone's seat; the host
    page lists him with "Let back in"; let back, he is in his own seat again."""
    from playwright.sync_api import expect

    box = host_box
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{box.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-button")
        expect(page.locator('[data-screen="host"]')).to_be_visible(timeout=WAIT_MS)
        link = f"{box.url}/?room={box.room}"
        for i, phone in enumerate(phones):
            phone.join(link, i)
        bo = phones[1]
        expect(page.locator("#seats li[data-seat]")).to_have_count(4, timeout=WAIT_MS)
        page.select_option("#game-select", "artbox")
        page.click("#start")
        expect(page.locator("#status")).to_contain_text("Playing ArtBox", timeout=WAIT_MS)
        page.locator('#seats li[data-seat="1"] [data-do="kick"]').click()
        expect(page.locator("#confirm")).to_contain_text("stays out of it", timeout=WAIT_MS)
        page.locator("#confirm-yes").click()
        expect(bo.screen("kicked")).to_be_visible(timeout=WAIT_MS)

        bo.page.click("#kicked-again")
        expect(bo.screen("join")).to_be_visible(timeout=WAIT_MS)
        bo.page.fill("#name-input", "Bobby")  # another name, the same phone
        bo.page.click("#join-button")
        expect(bo.page.get_by_role("alert")).to_contain_text("asked you to leave this game",
                                                             timeout=WAIT_MS)
        back_in = page.locator('#seats [data-do="let_back"]')
        expect(back_in).to_have_count(1, timeout=WAIT_MS)
        expect(page.locator("#seats")).to_contain_text("Bo: removed from this game")
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-host-let-back.png"), full_page=True)
        back_in.click()
        expect(back_in).to_have_count(0, timeout=WAIT_MS)
        bo.page.click("#toast-close")
        bo.page.fill("#name-input", "Bo")
        bo.page.click("#join-button")
        expect(bo.page.locator("#game-root")).to_be_visible(timeout=WAIT_MS)
        seats = page.locator("#seats li[data-seat]")
        expect(seats).to_have_count(4, timeout=WAIT_MS)
        expect(page.locator('#seats li[data-seat="1"]')).to_contain_text("Bo")
    finally:
        context.close()
