"""Doodle Dash, the game the box never heard of, played from two phones in a real Chromium.

The real appliance runs with the game installed beside it (`python -m tests.house_game`,
nothing of appliance/ or its static folder names it). The phone page learns of it from
/games.json: the host's lobby offers its `rounds` option as its house declares it (label
in the page's language), the page imports its own phone script from tests/house_game/,
both phones draw and say done on that screen for one round, and the finish links to its
gallery. The kiosk draws it with its own screen, also brought by the game.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance, GamePhone, game_phones

pytestmark = pytest.mark.browser

GAME = "doodle-dash"


@pytest.fixture
def dash_box(tmp_path: Path) -> Iterator[Appliance]:
    appliance = Appliance(tmp_path, module="tests.house_game")
    try:
        appliance.start()
        yield appliance
    finally:
        appliance.stop()


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, GAME, ("Ada", "Bo")) as made:
        yield made


def test_doodle_dash_plays_from_the_phones_with_its_own_screens(
    dash_box: Appliance, phones: list[GamePhone]
) -> None:
    from playwright.sync_api import expect

    with urllib.request.urlopen(dash_box.url + "/games.json", timeout=5) as response:
        listed = {g["id"]: g for g in json.load(response)["games"]}
    assert listed[GAME]["script"] == f"/static/games/{GAME}/phone.js"

    link = f"{dash_box.url}/?room={dash_box.room}"
    for i, phone in enumerate(phones):
        phone.join(link, i)
    host = phones[0]
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(2, timeout=WAIT_MS)
    host.page.click(f'.game[data-game="{GAME}"]')
    # Its option, as its house declares it: three choices, 2 by default.
    expect(host.page.locator('.option-choice[aria-label="Rounds"]')).to_be_visible(
        timeout=WAIT_MS)
    expect(host.page.locator('[data-option="rounds"][data-value="2"]')).to_have_attribute(
        "aria-pressed", "true")
    host.page.click('[data-option="rounds"][data-value="1"]')
    expect(host.page.locator('[data-option="rounds"][data-value="1"]')).to_have_attribute(
        "aria-pressed", "true", timeout=WAIT_MS)
    host.shot("lobby")
    expect(host.page.locator("#start-button")).to_be_enabled(timeout=WAIT_MS)
    host.page.click("#start-button")

    # Its own phone screen (tests/house_game/phone.js), not the generic one.
    for phone in phones:
        card = phone.page.locator(f'#game-root [data-game="{GAME}"]')
        expect(card).to_be_visible(timeout=WAIT_MS)
        expect(card).to_contain_text("Round 1 of 1")
        expect(phone.page.locator("#game-generic")).to_be_hidden()
    dash_box.kiosk_png(SCREENSHOT_DIR / f"easel-{GAME}-kiosk-playing.png")
    for phone in phones:
        phone.act("scribble").click()
        expect(phone.page.locator("#game-root [data-strokes]")).to_have_attribute(
            "data-strokes", "1", timeout=WAIT_MS)
    phones[0].shot("drawing")
    for phone in phones:
        phone.act("done").click()

    for phone in phones:
        expect(phone.page.locator("#finish-card")).to_be_visible(timeout=WAIT_MS)
    gallery = host.page.locator("#finish-gallery")
    # The finish card shows at once; the gallery's link comes with a later view, once
    # the picture is kept (reading the attribute at once raced it on a busy machine).
    expect(gallery).to_have_attribute("href", re.compile("/gallery/"), timeout=WAIT_MS)
    href = gallery.get_attribute("href")
    assert href
    host.shot("finish")
