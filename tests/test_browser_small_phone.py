"""A round on a small phone (360x640 upright, issue 31): what a player answers is on the
screen together with what it is about.

Each game is played in-process up to the moment (tests/test_browser_finish.py's
`stored_box`) and the seats' phones come back in a real Chromium against the real box:

- Duplik's verdict: with a canvas's YES / NO on screen the criterion's own words are on
  screen too (its card above has scrolled away by then), English and Czech;
- Broad Lines' Art Critic: with the guess field at the bottom of the screen (where a
  phone's keyboard puts it) the easel's sheet is on screen whole above it;
- and in both, the game's cards stand apart (Broad Lines' touched edge to edge);
- a Broad Lines Artist drawing a sheet, upright at 360x640 and sideways at 640x360, has
  the sheet, its tools and Place on screen as the turn comes, without scrolling (the
  sheet was below the fold, and Place further down);
- ArtBox's matching, upright and sideways: the word tray is one row (it took a third of
  the screen), its words 44 px for a thumb, every picture can be seen whole above it,
  and a picture then the tray's last word makes a guess.

Runs Debian's chromium through Playwright; without one the tests skip, unless
EASEL_REQUIRE_BROWSER=1 makes that a failure.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from appliance.table.session import HOST, Session
from games.broad_lines import pending_guess
from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance, seated_page
from tests.test_browser_finish import stored_box

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}


@contextmanager
def small_phone(browser: Any, box: Appliance, token: str,
                size: dict[str, int] = SMALL) -> Iterator[Any]:
    with seated_page(browser, box, token, viewport=size, is_mobile=True, has_touch=True,
                     device_scale_factor=2) as page:
        yield page


def in_viewport(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def text_on_screen(page: Any, text: str) -> bool:
    """Some visible element inside the viewport shows `text` whole."""
    return bool(page.evaluate(
        """(text) => [...document.querySelectorAll('#game-root *')].some((el) => {
             if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
               return false;
             const r = el.getBoundingClientRect();
             return el.textContent.includes(text) && r.height > 0 && r.top >= 0
               && r.bottom <= innerHeight;
           })""", text))


def touching_cards(page: Any) -> list[str]:
    """The game's cards one under the other with no room between them (one edge for two
    cards reads as one card)."""
    found: list[str] = page.evaluate(
        """() => {
             const cards = [...document.querySelectorAll('#game-root .card')]
               .filter((c) => c.getClientRects().length && !c.parentElement.closest('.card'))
               .map((c) => [c.getBoundingClientRect(), c.className]);
             cards.sort((a, b) => a[0].top - b[0].top);
             const out = [];
             for (let i = 1; i < cards.length; i += 1) {
               const [above, aName] = cards[i - 1];
               const [below, bName] = cards[i];
               if (below.top - above.bottom < 6) out.push(`${aName} | ${bName}`);
             }
             return out;
           }""")
    return found


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_duplik_verdict_shows_the_criterion_with_its_yes_and_no(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    from playwright.sync_api import expect

    def language(session: Session) -> None:
        session.set_language(HOST, lang)

    box, tokens = stored_box(tmp_path, "duplik", until=lambda s: s.phase == "evaluating",
                             then=language)
    box.start()
    try:
        judged = 0
        for seat, token in enumerate(tokens):
            with small_phone(browser, box, token) as page:
                expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
                criterion = page.locator("#game-root .dk-criterion-text")
                expect(criterion).to_be_visible(timeout=WAIT_MS)
                yes = page.locator('#game-root [data-act="judge-yes"]')
                if not yes.count():
                    continue  # the Portrayer: nothing to judge
                words = criterion.inner_text().strip()
                assert words
                yes.scroll_into_view_if_needed()
                page.wait_for_timeout(100)
                assert in_viewport(page, yes)
                assert text_on_screen(page, words), (
                    f"seat {seat} answers YES / NO without the criterion ({words!r}) on screen")
                assert not touching_cards(page), touching_cards(page)
                page.screenshot(path=str(SCREENSHOT_DIR / f"easel-small-duplik-verdict-{lang}.png"))
                judged += 1
        assert judged >= 2, "the judges' phones were not reached"
    finally:
        box.stop()


def test_the_art_critic_types_a_guess_with_the_easel_in_sight(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    def guessing(state: Any) -> bool:
        return bool(state.phase == "guessing" and pending_guess(state.round) is None)

    box, tokens = stored_box(tmp_path, "broad-lines", until=guessing)
    box.start()
    try:
        critics = 0
        for token in tokens:
            with small_phone(browser, box, token) as page:
                expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
                expect(page.locator("#game-root .bl-easel")).to_be_visible(timeout=WAIT_MS)
                field = page.locator('#game-root [data-act="guess-text"]')
                if not field.count():
                    continue  # an Artist
                critics += 1
                field.evaluate("(el) => el.scrollIntoView({block: 'end'})")
                page.wait_for_timeout(100)
                assert in_viewport(page, field)
                sheet = page.locator("#game-root .bl-easel canvas")
                assert sheet.count() == 1, "the easel has a sheet drawn on it"
                assert in_viewport(page, sheet.first), (
                    "the Art Critic types a guess with the easel out of sight")
                assert not touching_cards(page), touching_cards(page)
                page.screenshot(path=str(SCREENSHOT_DIR / "easel-small-broad-lines-critic.png"))
        assert critics == 1
    finally:
        box.stop()


@pytest.mark.parametrize("size", [SMALL, {"width": 640, "height": 360}],
                         ids=["upright", "sideways"])
def test_a_broad_lines_artist_sees_the_sheet_its_tools_and_place_at_once(
    browser: Any, tmp_path: Path, size: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    box, tokens = stored_box(tmp_path, "broad-lines", until=lambda s: s.phase == "drawing")
    box.start()
    try:
        drawers = 0
        for token in tokens:
            with small_phone(browser, box, token, size) as page:
                expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
                expect(page.locator("#game-root .bl-head")).to_be_attached(timeout=WAIT_MS)
                if not page.locator("#game-root .pad").count():
                    continue  # the Art Critic, or an Artist whose turn it is not
                drawers += 1
                page.evaluate("window.scrollTo(0, 0)")  # as the turn comes: no scrolling
                page.wait_for_timeout(150)
                height = size["height"]
                for what, part in (("the sheet", "#game-root .pad .sheet-canvas"),
                                   ("the tools", "#game-root .pad .toolbar"),
                                   ("Place", '#game-root [data-act="place"]')):
                    got = page.locator(part).first.bounding_box()
                    assert got is not None and got["y"] >= 0 and (
                        got["y"] + got["height"] <= height + 0.5), (
                        f"{what} is off a {size['width']}x{height} screen: {got}")
                name = f"easel-small-broad-lines-draw-{size['width']}x{height}.png"
                page.screenshot(path=str(SCREENSHOT_DIR / name))
        assert drawers == 1
    finally:
        box.stop()


@pytest.mark.parametrize("size", [SMALL, {"width": 640, "height": 360}],
                         ids=["upright", "sideways"])
def test_artbox_matching_keeps_the_pictures_in_sight_above_a_compact_word_tray(
    browser: Any, tmp_path: Path, size: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    box, tokens = stored_box(tmp_path, "artbox", until=lambda s: s.phase == "match")
    box.start()
    try:
        with small_phone(browser, box, tokens[0], size) as page:
            expect(page.locator("#game-root .ab-match")).to_be_visible(timeout=WAIT_MS)
            tray = page.locator("#game-root .ab-words")
            words = page.locator("#game-root .ab-words button.ab-word")
            expect(words.first).to_be_visible(timeout=WAIT_MS)
            page.wait_for_timeout(150)
            height = tray.bounding_box()["height"]
            assert height <= 0.25 * size["height"], (
                f"the word tray takes {height:.0f} px of a {size['height']} px screen")
            for i in range(words.count()):
                got = words.nth(i).bounding_box()
                assert got is not None and got["height"] >= 44, f"word {i} is {got} (44 px)"
            # Every picture can be brought into sight whole, above the tray.
            pictures = page.locator("#game-root button.ab-pic")
            assert pictures.count() >= 2
            for i in range(pictures.count()):
                pictures.nth(i).evaluate("(el) => el.scrollIntoView({block: 'center'})")
                page.wait_for_timeout(80)
                pic = pictures.nth(i).bounding_box()
                top = tray.bounding_box()["y"]
                assert pic is not None and pic["y"] >= 0 and pic["y"] + pic["height"] <= top, (
                    f"picture {i} ({pic}) is under the word tray (from y={top:.0f})")
            shot = SCREENSHOT_DIR / f"easel-small-artbox-match-{size['width']}"
            page.screenshot(path=f"{shot}.png")
            # A thumb matches: a picture, then the last word (scrolled to within the tray).
            pictures.first.tap()
            last = words.nth(words.count() - 1)
            last.scroll_into_view_if_needed()
            word = last.inner_text().strip().splitlines()[0]
            assert in_viewport(page, last)
            last.tap()
            expect(pictures.first.locator(".ab-guess")).to_have_text(word, timeout=WAIT_MS)
            page.screenshot(path=f"{shot}ed.png")
    finally:
        box.stop()
