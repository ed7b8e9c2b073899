"""Broad Lines on three phones in a real Chromium against the real appliance.

The phones join, the host starts Broad Lines; the Art Critic's phone offers the numbers
and never shows the word, the two Artists' phones show it; the first Artist draws one
straight line with the pointer, the box's check says it is allowed, the sheet goes on
the easel; the Critic types the word, the Artists see the box's opinion and one marks
it right; everyone sees the word guessed. The next round's Critic names a number, a
player proposes to give up, everyone agrees, and the round ends given up with one more
sheet burned.

Runs Debian's chromium through Playwright (never a downloaded browser); without one the
test skips, unless EASEL_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import WAIT_MS, Appliance, GamePhone, assert_on_screen, game_phones

pytestmark = pytest.mark.browser


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "broad-lines", ("Ada", "Bo", "Cy")) as made:
        yield made


def find(phones: list[GamePhone], act: str) -> GamePhone:
    """The one phone that offers the control `act`."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        found = [p for p in phones if p.act(act).count() > 0]
        if len(found) == 1:
            return found[0]
        time.sleep(0.05)
    raise AssertionError(f"not exactly one phone offers {act}")


def draw_line(page: Any, canvas: Any) -> None:
    page.wait_for_function(
        "(c) => c.width > 0 && c.getBoundingClientRect().width > 10", arg=canvas.element_handle()
    )
    box = canvas.bounding_box()
    assert box is not None
    x0, y0, w, h = box["x"], box["y"], box["width"], box["height"]
    page.mouse.move(x0 + w * 0.2, y0 + h * 0.3)
    page.mouse.down()
    for i in range(1, 21):
        page.mouse.move(x0 + w * (0.2 + 0.6 * i / 20), y0 + h * (0.3 + 0.4 * i / 20), steps=2)
    page.mouse.up()


def draw_zigzag(page: Any, canvas: Any) -> None:
    """One stroke of three straight lines: more than a sheet may hold."""
    box = canvas.bounding_box()
    assert box is not None
    x0, y0, w, h = box["x"], box["y"], box["width"], box["height"]
    corners = [(0.15, 0.2), (0.4, 0.8), (0.6, 0.2), (0.85, 0.8)]
    page.mouse.move(x0 + w * corners[0][0], y0 + h * corners[0][1])
    page.mouse.down()
    for (ax, ay), (bx, by) in itertools.pairwise(corners):
        for i in range(1, 11):
            page.mouse.move(x0 + w * (ax + (bx - ax) * i / 10), y0 + h * (ay + (by - ay) * i / 10))
    page.mouse.up()


def name_a_number(phones: list[GamePhone], number: int) -> tuple[GamePhone, list[GamePhone], str]:
    """The Critic names `number`; returns the Critic, the Artists and the word they see."""
    from playwright.sync_api import expect

    critic = find(phones, "number-1")
    artists = [p for p in phones if p is not critic]
    critic.act(f"number-{number}").click()
    words = []
    for artist in artists:
        line = artist.page.locator("#game-root [data-word]").first
        expect(line).to_be_visible(timeout=WAIT_MS)
        match = re.search(r"“(.+)”", line.inner_text())
        assert match, line.inner_text()
        words.append(match.group(1))
    assert len(set(words)) == 1
    word = words[0]
    # The Critic's page never holds the word.
    expect(critic.page.locator("#game-root")).to_contain_text("Art Critic", timeout=WAIT_MS)
    assert word not in critic.page.locator("body").inner_text()
    return critic, artists, word


def start_broad_lines(box: Appliance, phones: list[GamePhone]) -> None:
    """The phones join the box's room and the first (the host) starts Broad Lines."""
    from playwright.sync_api import expect

    link = f"{box.url}/?room={box.room}"
    for i, phone in enumerate(phones):
        phone.join(link, i)
    host = phones[0]
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(3, timeout=WAIT_MS)
    host.page.click('.game[data-game="broad-lines"]')
    expect(host.page.locator("#start-button")).to_be_enabled(timeout=WAIT_MS)
    host.page.click("#start-button")
    for phone in phones:
        expect(phone.page.locator("#game-root .broad-lines")).to_be_visible(timeout=WAIT_MS)
        expect(phone.page.locator("#game-root")).to_contain_text("Sheets 0 / 25")


def test_a_guessed_round_and_a_round_given_up(box: Appliance, phones: list[GamePhone]) -> None:
    from playwright.sync_api import expect

    start_broad_lines(box, phones)

    # Round 1: a number, one sheet, the word typed and marked right.
    critic, artists, word = name_a_number(phones, 3)
    critic.shot("critic-drawing")
    drawer = find(phones, "place")
    assert drawer is not critic
    canvas = drawer.page.locator("#game-root .pad canvas.sheet-canvas")
    # A zigzag of three lines is refused, and its reason is read in full: the Place it
    # disables does not stick over it.
    draw_zigzag(drawer.page, canvas)
    refused = drawer.page.locator('#game-root [data-check="refused"]')
    expect(refused).to_be_visible(timeout=WAIT_MS)
    expect(drawer.act("place")).to_be_disabled(timeout=WAIT_MS)
    refused.scroll_into_view_if_needed()
    drawer.page.evaluate("window.scrollBy(0, -120)")  # the reason low on the screen
    reason_box, place_box = refused.bounding_box(), drawer.act("place").bounding_box()
    assert reason_box is not None and place_box is not None
    assert place_box["y"] >= reason_box["y"] + reason_box["height"], (reason_box, place_box)
    drawer.shot("refused", full=False)
    drawer.page.locator("#game-root .pad .tool-undo").click()
    expect(drawer.act("place")).to_be_disabled(timeout=WAIT_MS)
    draw_line(drawer.page, canvas)
    expect(drawer.page.locator('#game-root [data-check="ok"]')).to_be_visible(timeout=WAIT_MS)
    expect(drawer.act("place")).to_be_enabled(timeout=WAIT_MS)
    drawer.shot("drawer")
    assert_on_screen(drawer.page, drawer.act("place"), "Place the sheet")
    drawer.act("place").click()
    for phone in phones:
        expect(phone.page.locator("#game-root")).to_contain_text("Sheets 1 / 25", timeout=WAIT_MS)
    guess = critic.act("guess-text")
    expect(guess).to_be_visible(timeout=WAIT_MS)
    guess.fill(word.upper())
    critic.act("send-guess").click()
    for artist in artists:
        expect(artist.page.locator('#game-root [data-opinion="match"]')).to_be_visible(
            timeout=WAIT_MS
        )
    artists[0].shot("artist-marks")
    assert word not in critic.page.locator("body").inner_text().replace(word.upper(), "")
    artists[0].act("mark-right").click()
    for phone in phones:
        result = phone.page.locator('#game-root [data-result="guessed"]')
        expect(result).to_be_visible(timeout=WAIT_MS)
        expect(result).to_contain_text(word)
        expect(phone.page.locator("#game-root")).to_contain_text("1 word guessed")
    phones[1].act("next").click()

    # Round 2: given up by everyone's agreement; one more sheet is burned.
    critic2, _, word2 = name_a_number(phones, 5)
    assert word2 != word
    proposer = phones[2]
    proposer.act("give-up").click()
    for phone in phones:
        if phone is proposer:
            continue
        agree = phone.act("agree-give-up")
        expect(agree).to_be_visible(timeout=WAIT_MS)
        agree.click()
    for phone in phones:
        result = phone.page.locator('#game-root [data-result="given_up"]')
        expect(result).to_be_visible(timeout=WAIT_MS)
        expect(result).to_contain_text(word2)
        expect(phone.page.locator("#game-root")).to_contain_text("Sheets 2 / 25")
        expect(phone.page.locator("#game-root")).to_contain_text("1 word guessed")
    critic2.shot("given-up")


def test_a_click_that_straddles_another_players_move_still_counts(
    box: Appliance, phones: list[GamePhone]
) -> None:
    """A mouse's click is a press and a release: when another player's move rebuilds the
    page between them, the release meets a new button and the browser fires no click.
    The page takes the release on the same control as the click it was meant to be
    (a laptop player agreeing to give up while the others agree)."""
    from playwright.sync_api import expect

    start_broad_lines(box, phones)
    name_a_number(phones, 2)
    proposer, late, other = phones[2], phones[0], phones[1]
    proposer.act("give-up").click()
    agree = late.act("agree-give-up")
    expect(agree).to_be_visible(timeout=WAIT_MS)
    agree.scroll_into_view_if_needed()
    spot = agree.bounding_box()
    assert spot is not None
    old = agree.element_handle()
    late.page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    late.page.mouse.down()
    other.act("agree-give-up").click()  # the late phone's page is rebuilt under the mouse
    late.page.wait_for_function("(el) => !el.isConnected", arg=old, timeout=WAIT_MS)
    expect(agree).to_be_visible(timeout=WAIT_MS)
    late.page.mouse.up()
    for phone in phones:
        expect(phone.page.locator('#game-root [data-result="given_up"]')).to_be_visible(
            timeout=WAIT_MS)
