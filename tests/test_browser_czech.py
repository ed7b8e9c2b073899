"""No Czech page says an English sentence, as a Czech player and host see them (issue 31):
the real appliance in Czech, its pages rendered by Chromium and their visible text read.

tests/test_czech_words.py reads the catalogues; this reads what is on the screen, so a
sentence put together in a script, a key missing from the Czech table (shown in English),
a browser's own control or a word form chosen wrongly are caught too. Each game is played
in-process into a round and to its finish (tests/test_browser_finish.py's `stored_box`);
at each, two seats' phones at 360x640, a newcomer's join screen, the host page (logged
in: the table, the seats, today's results) and the gallery are read. A line is English
if it has a word of an English sentence that no Czech one uses, or a stretch of three or
more words of an English sentence of the page scripts' catalogues.

Also checked where a Czech reader would stumble: Czech quotation marks, "1 ze 4" (not
"1 z 4"), today's results say a game played
together as the table's count and one or more winners in the right number ("vítěz" /
"vítězové"), an ended game is "Hra … skončila" whatever the title's gender, and the pack
upload is our own button (the browser's file control is English and cut at 360 px).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from appliance.table.session import HOST, Session
from games import registry
from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance, seated_page
from tests.finish_play import NAMES
from tests.test_browser_finish import started_box
from tests.test_czech_words import STATIC, english_words

pytestmark = pytest.mark.browser

PIN = "2468"
SMALL = {"width": 360, "height": 640}
GAMES = ["broad-lines", "duplik", "luck-of-the-draw", "artbox"]
ROUND = {"broad-lines": "drawing", "duplik": "drawing", "luck-of-the-draw": "voting",
         "artbox": "create"}
"""A phase of each game's round with the most on a phone's screen."""
SCRIPTS = ("i18n.js", "host.js", "artbox.js", "broad_lines.js", "duplik.js",
           "luck_of_the_draw.js")
PROPER = ("Easel", "English", "Broad Lines", "Luck of the Draw", "ArtBox", "Duplik", *NAMES)
"""Names said as they are in any language: the brand, the English button, the titles."""


def english_block(script: str) -> list[str]:
    """The sentences of the `en: { ... }` table of a page script."""
    source = (STATIC / script).read_text(encoding="utf-8")
    start = source.index("\n  en: {")
    end = source.index("\n  },", start)
    return [m.group(1) for m in re.finditer(r'"?[\w.]+"?:\s*"((?:[^"\\]|\\.)*)"',
                                            source[start:end])]


def english_stretches() -> set[str]:
    """Runs of three or more words of the English catalogues, placeholders cut out."""
    found: set[str] = set()
    for script in SCRIPTS:
        for sentence in english_block(script):
            for piece in re.split(r"\{[^}]*\}", sentence):
                words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)*", piece)
                if len(words) >= 3:
                    found.add(" ".join(words).lower())
    return found


STRETCHES = english_stretches()


def english_lines(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        plain = line
        for name in PROPER:
            plain = plain.replace(name, " ")
        words = " ".join(re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)*", plain)).lower()
        stretch = next((s for s in STRETCHES if f" {s} " in f" {words} "), None)
        if english_words(plain) or stretch:
            found.append(line.strip())
    return found


def assert_czech(page: Any, where: str) -> str:
    text: str = page.evaluate("document.body.innerText")
    # What a person reads without seeing it on screen counts too (a screen reader).
    text += "\n" + "\n".join(page.evaluate(
        """() => [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
             .filter((el) => el.getClientRects().length)
             .map((el) => el.getAttribute('aria-label') || el.getAttribute('title')
                          || el.getAttribute('placeholder'))"""))
    english = english_lines(text)
    assert not english, f"{where} says English in Czech: {english}"
    # Czech quotes „so“ (English “so” ends with ”), and counts "1 ze 4" (not "1 z 4").
    assert "”" not in text, f"{where} quotes the English way: {text}"
    wrong = re.findall(r"(?:^|[\s(])z (?:[2346-7]|1[2-467]|[2-46-7]\d)\b", text)
    assert not wrong, f"{where} says 'z' for 'ze': {wrong}"
    return text


def in_czech(session: Session) -> None:
    session.set_language(HOST, "cs")


def czech_box(tmp_path: Path, game: str, phase: str | None
              ) -> AbstractContextManager[tuple[Appliance, list[str]]]:
    return started_box(tmp_path, game, phase, PIN, then=in_czech)


@contextmanager
def czech_page(browser: Any, box: Appliance, token: str | None = None) -> Iterator[Any]:
    with seated_page(browser, box, token, goto=False, viewport=SMALL, is_mobile=True,
                     has_touch=True, locale="cs-CZ", device_scale_factor=2) as page:
        yield page


def read_phones(browser: Any, box: Appliance, tokens: list[str], what: str) -> None:
    from playwright.sync_api import expect

    for seat in (0, 1):
        with czech_page(browser, box, tokens[seat]) as page:
            page.goto(box.url)
            expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
            expect(page.locator("#game-root")).not_to_be_empty(timeout=WAIT_MS)
            page.wait_for_timeout(500)  # the game's script has drawn its screen
            assert_czech(page, f"{what}, seat {seat}'s phone")
            page.screenshot(path=str(SCREENSHOT_DIR / f"easel-czech-{what}-seat{seat}.png"),
                            full_page=True)
    with czech_page(browser, box) as page:  # a newcomer: the room code, then join or watch
        page.goto(f"{box.url}/?room={box.room}")
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-screen]')].some((s) => !s.hidden"
            " && s.dataset.screen !== 'connecting')", timeout=WAIT_MS)
        assert_czech(page, f"{what}, a newcomer's phone")


@pytest.mark.parametrize("game", GAMES)
def test_a_round_of_each_game_is_czech_on_every_phone(
    browser: Any, tmp_path: Path, game: str
) -> None:
    with czech_box(tmp_path, game, ROUND[game]) as (box, tokens):
        read_phones(browser, box, tokens, f"{game}-{ROUND[game]}")


@pytest.mark.parametrize("game", GAMES)
def test_each_games_finish_host_page_and_gallery_are_czech(
    browser: Any, tmp_path: Path, game: str
) -> None:
    from playwright.sync_api import expect

    with czech_box(tmp_path, game, None) as (box, tokens):
        title_cs = registry.get(game).title["cs"]
        read_phones(browser, box, tokens, f"{game}-finish")
        with czech_page(browser, box, tokens[1]) as page:
            page.goto(box.url)
            gallery = page.locator("#finish-gallery")
            expect(gallery).to_be_visible(timeout=WAIT_MS)
            # The join address the store was made with is not this box's: its path is.
            page.goto(box.url + urlsplit(str(gallery.get_attribute("href"))).path)
            expect(page.locator("h1")).to_contain_text("výstava obrázků", timeout=WAIT_MS)
            text = assert_czech(page, f"{game}'s gallery")
            # "autor: Cy" (by Cy), never "kreslí Cy" (Cy is drawing).
            assert "autor: " in text and not re.search(r"kreslí (Ada|Bořek|Cyril|Dana)", text)
            page.screenshot(path=str(SCREENSHOT_DIR / f"easel-czech-{game}-gallery.png"),
                            full_page=True)

        with czech_page(browser, box) as page:
            page.goto(f"{box.url}/host")
            page.fill("#pin", PIN)
            page.click("#login-button")
            row = page.locator("#results li[data-match]")
            expect(row).to_have_count(1, timeout=WAIT_MS)
            expect(page.locator("#status")).to_have_text(
                f"Hra {title_cs} skončila: její závěr je na všech obrazovkách.")
            text = assert_czech(page, f"the host page after {game}")
            result = page.evaluate(
                "async () => (await (await fetch('/host/api/state')).json()).results[0]")
            line = row.inner_text()
            if registry.house(game).together:
                assert result["together"] is not None, result
                assert re.search(r"hráli společně: uhodnut[oa] \d+ slov", line), line
                assert "vítěz" not in line, line
            elif len(result["winners"]) == 1:
                assert f"vítěz: {result['winners'][0]}" in line, line
            elif result["winners"]:
                assert f"vítězové: {', '.join(result['winners'])}" in line, line
            assert "(a)" not in text and "offline" not in text, text
            assert not re.search(r"\d\.5\b", line), f"a half card reads ½: {line}"
            # The pack upload is the page's own button, whole on a small phone.
            upload = page.locator('label[for="pack-file"]')
            expect(upload).to_have_text("Nahrát balíček")
            upload.scroll_into_view_if_needed()
            box_of = upload.bounding_box()
            assert box_of is not None and box_of["x"] + box_of["width"] <= SMALL["width"]
            assert box_of["height"] >= 44, box_of
            assert page.locator("#pack-file").bounding_box() in (None,) or (
                page.locator("#pack-file").bounding_box()["width"] <= 1
            ), "the browser's file control (its own language, cut) is shown"
            page.screenshot(path=str(SCREENSHOT_DIR / f"easel-czech-{game}-host.png"),
                            full_page=True)
