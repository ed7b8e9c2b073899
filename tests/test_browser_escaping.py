"""A hostile name is text on every phone, in the lobby and in every game's screens.

A player joins as `<svg onload=p()>` (a name is at most 20 characters; this one would run
`p()` if any page put it into the document as markup). Every page defines `p` to count
calls before the app loads; after the lobby and each game's first screens, no page has
called it and no page holds an element made from the name. Duplik names its Portrayer on
the first screen; the other games name players later (scores, reveals), where
tests/test_web_static.py's check that no script has an HTML sink covers them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import WAIT_MS, Appliance, GamePhone, game_phones

pytestmark = pytest.mark.browser

HOSTILE = "<svg onload=p()>"
TRAP = "window.__ran = 0; window.p = () => { window.__ran += 1; };"
GAMES = ["duplik", "artbox", "broad-lines", "luck-of-the-draw"]


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "escaping", (HOSTILE, "Bo", "Cy", "Dee")) as made:
        for phone in made:
            phone.page.add_init_script(TRAP)
        yield made


def assert_inert(phones: list[GamePhone], where: str) -> None:
    for phone in phones:
        ran = phone.page.evaluate("window.__ran")
        assert ran == 0, f"{phone.name}'s page ran the name's script {where}"
        assert phone.page.locator("svg[onload]").count() == 0, f"markup from a name {where}"


@pytest.mark.parametrize("game", GAMES)
def test_a_hostile_name_stays_text_through_a_game(
    box: Appliance, phones: list[GamePhone], game: str
) -> None:
    from playwright.sync_api import expect

    link = f"{box.url}/?room={box.room}"
    for i, phone in enumerate(phones):
        phone.join(link, i)
    host = phones[0]
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(4, timeout=WAIT_MS)
    for phone in phones:
        row = phone.page.locator('[data-screen="lobby"] li.seat[data-seat="0"] .seat-name')
        expect(row).to_have_text(HOSTILE, timeout=WAIT_MS)
    assert_inert(phones, "in the lobby")
    tile = host.page.locator(f'.game[data-game="{game}"]')
    expect(tile).to_be_enabled(timeout=WAIT_MS)
    tile.click()
    expect(tile).to_have_attribute("aria-pressed", "true", timeout=WAIT_MS)
    host.page.click("#start-button")
    for phone in phones:
        expect(phone.page.locator("#game-root")).not_to_be_empty(timeout=WAIT_MS)
    # Whatever the game shows first (whose turn, the scores, a card), the name in it is
    # text: it is on some phone's game screen as typed.
    deadline = time.monotonic() + 5
    shown = False
    while not shown and time.monotonic() < deadline:
        shown = any(p.page.locator("#game-root", has_text=HOSTILE).count() for p in phones)
        time.sleep(0.1)
    if game == "duplik":
        assert shown, "Duplik's first screen names the Portrayer: the check must see it"
    assert_inert(phones, f"in {game}")
