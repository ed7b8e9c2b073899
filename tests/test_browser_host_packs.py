"""The host page's word packs in Czech, in a real Chromium against the real appliance
(issue 31: "Pack errors stay English on the Czech host page").

The owner switches the box to Czech on the host page, uploads a pack with mistakes and
finds a pack dropped in by hand that does not check out: both lists of problems are in
Czech (where: "řádek", the deck's entry; what: the problem's own sentence), and back in
English they are English again. Screenshots at a phone's size and at 1920x1080.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import PHONE, SCREENSHOT_DIR, WAIT_MS, Appliance

pytestmark = pytest.mark.browser

PIN = "8642"
BAD = 'game = "artbox"\nwords = [\n  "spoon",\n  ["fork"],\n  "Spoon",\n]\n'


@pytest.fixture
def host_box(tmp_path: Path) -> Iterator[Appliance]:
    box = Appliance(tmp_path)
    box.env.update(EASEL_HOST_PIN=PIN)
    packs = box.data_dir / "packs"
    packs.mkdir(parents=True, exist_ok=True)
    (packs / "by-hand.toml").write_text('game = "chess"\nwords = ["pawn"]\n', encoding="utf-8")
    try:
        box.start()
        yield box
    finally:
        box.stop()


@pytest.mark.parametrize("viewport", [PHONE["viewport"], {"width": 1920, "height": 1080}],
                         ids=["phone", "1080p"])
def test_pack_problems_are_czech_on_the_czech_host_page(
    host_box: Appliance, browser: Any, tmp_path: Path, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(**{**PHONE, "viewport": viewport})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{host_box.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-button")
        expect(page.locator('[data-screen="host"]')).to_be_visible(timeout=WAIT_MS)
        listed = page.locator('#packs li[data-pack="by-hand.toml"]')
        expect(listed).to_contain_text("is not a game with word decks", timeout=WAIT_MS)
        # A pack without a title is named by its file once, not twice side by side.
        assert listed.locator(":scope > *").all_inner_texts().count("by-hand.toml") == 1

        page.locator('#languages [data-lang="cs"]').click()
        expect(listed).to_contain_text("není hra se slovy", timeout=WAIT_MS)
        expect(listed).not_to_contain_text("is not a game")
        bad = tmp_path / "broken.toml"
        bad.write_text(BAD, encoding="utf-8")
        page.set_input_files("#pack-file", str(bad))
        problems = page.locator("#pack-problems")
        expect(problems).to_contain_text(
            'broken.toml, řádek 4, words: položka 2: má být "text"', timeout=WAIT_MS)
        expect(problems).to_contain_text("„Spoon“ už v balíčku je (položka 1)")
        expect(problems).not_to_contain_text("entry")
        name = f"easel-host-packs-cs-{viewport['width']}x{viewport['height']}.png"
        page.screenshot(path=str(SCREENSHOT_DIR / name), full_page=True)

        page.locator('#languages [data-lang="en"]').click()
        expect(listed).to_contain_text("is not a game with word decks", timeout=WAIT_MS)
        page.set_input_files("#pack-file", str(bad))
        expect(problems).to_contain_text("broken.toml, line 4, words entry 2", timeout=WAIT_MS)
        name = f"easel-host-packs-en-{viewport['width']}x{viewport['height']}.png"
        page.screenshot(path=str(SCREENSHOT_DIR / name), full_page=True)
        assert not errors, errors
    finally:
        context.close()
