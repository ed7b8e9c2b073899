"""The drawing sheet on small phones and tablets (issues 28 and 31), in a real Chromium
against the real appliance.

Each game is played in-process up to its drawing (tests/test_browser_finish.py's
`stored_box`), the box starts on that store and the phones come back with their seats'
tokens. Checked, each where a person would see it:

- a stroke the box refuses for a budget (`still_saving`) is sent again with the same id
  and lands; one refused every time stays on the sheet faded, "Not saved" (Czech too);
- the pause is said over the sheet itself (the phone is scrolled to its canvas); a
  stroke under the finger when the pause comes and one refused `not_now` are sent at
  resume; a touch during the pause is refused where it is drawn;
- upright at 360x640 the tools stuck to the bottom cover at most 15 % of the sheet at any
  scroll, every tool at least 44 px (ArtBox, Duplik, Luck of the Draw; screenshots at
  360x640 and 1080x1920, English and Czech, in the screenshot folder);
- a word card never breaks inside a word; two players tapping Place with the shape tool
  make different pictures; a Broad Lines art show rates the table instead of naming
  everyone a winner.

Runs Debian's chromium through Playwright; without one the tests skip, unless
EASEL_REQUIRE_BROWSER=1 makes that a failure.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from games.broad_lines import RATINGS
from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance, seated_page
from tests.test_browser_finish import started_box

pytestmark = pytest.mark.browser

PIN = "2468"
SMALL = {"width": 360, "height": 640}
TABLET = {"width": 1080, "height": 1920}
TALL = {"width": 390, "height": 844}  # where the sheet is clear of the tools, old page or new
MAX_COVERED = 0.15
MIN_TARGET_PX = 44


def table(tmp_path: Path, game: str, phase: str | None
          ) -> AbstractContextManager[tuple[Appliance, list[str]]]:
    return started_box(tmp_path, game, phase, PIN)


@contextmanager
def phone(browser: Any, box: Appliance, token: str, size: dict[str, int] = SMALL,
          route: Callable[[Any], None] | None = None) -> Iterator[Any]:
    tablet = size["width"] >= 700
    with seated_page(browser, box, token, goto=False, viewport=size, is_mobile=not tablet,
                     has_touch=True, device_scale_factor=1 if tablet else 2) as page:
        if route is not None:
            page.route_web_socket(re.compile(r".*/ws$"), route)
        page.goto(box.url)
        yield page


@contextmanager
def host(browser: Any, box: Appliance) -> Iterator[Callable[..., None]]:
    """The host's API, called from a page of the box's own origin after the PIN."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(box.url + "/healthz")

    def call(path: str, body: dict[str, Any] | None = None) -> None:
        status = page.evaluate(
            """async ([path, body]) => (await fetch(path, {method: 'POST', credentials:
                 'same-origin', headers: {'Content-Type': 'application/json'},
                 body: JSON.stringify(body)})).status""",
            [path, body or {}],
        )
        assert status == 200, f"{path}: {status}"

    call("/host/api/login", {"pin": PIN})
    try:
        yield call
    finally:
        context.close()


class Wire:
    """Between the page and the box: every move the page sends, every view the box sends,
    and a say in which moves reach the box (`refuse(msg) -> code or None`; "hold" keeps
    the move back unanswered, to be refused later with `answer`)."""

    def __init__(self, refuse: Callable[[dict[str, Any]], str | None] | None = None) -> None:
        self.refuse = refuse or (lambda msg: None)
        self.sent: list[dict[str, Any]] = []
        self.held: list[dict[str, Any]] = []
        self.views: list[dict[str, Any]] = []
        self.page_side: Any = None

    def __call__(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.page_side = ws

        def from_page(message: Any) -> None:
            msg = json.loads(message) if isinstance(message, str) else {}
            if msg.get("type") == "act":
                self.sent.append(msg)
                code = self.refuse(msg)
                if code == "hold":
                    self.held.append(msg)
                    return
                if code is not None:
                    ws.send(json.dumps({"type": "error", "code": code, "ref": msg["id"],
                                        "message": f"refused by the test ({code})"}))
                    return
            server.send(message)

        def from_box(message: Any) -> None:
            if isinstance(message, str) and '"view"' in message:
                msg = json.loads(message)
                if msg.get("type") == "view":
                    self.views.append(msg)
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_box)

    def answer(self, msg: dict[str, Any], code: str) -> None:
        self.page_side.send(json.dumps({"type": "error", "code": code, "ref": msg["id"],
                                        "message": f"refused by the test ({code})"}))

    def strokes_sent(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("kind") == "stroke"]

    def my_picture(self) -> list[Any]:
        for view in reversed(self.views):
            state = (view.get("match") or {}).get("state") or {}
            if "my_picture" in state:
                return list(state.get("my_picture") or [])
        return []


def wait_until(page: Any, what: Callable[[], bool], seconds: float, message: str) -> None:
    """Poll `what` while the page runs (the routes answer only while Playwright waits)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if what():
            return
        page.wait_for_timeout(50)
    raise AssertionError(message)


def sheet(page: Any) -> Any:
    canvas = page.locator("#game-root .pad canvas.sheet-canvas").first
    page.wait_for_function("(c) => c.width > 0 && c.getBoundingClientRect().width > 10",
                           arg=canvas.element_handle(), timeout=WAIT_MS)
    return canvas


def scribble(page: Any, canvas: Any, row: float, down: bool = True, up: bool = True) -> None:
    box = canvas.bounding_box()
    assert box is not None
    x0, y0, w, h = box["x"], box["y"], box["width"], box["height"]
    if down:
        page.mouse.move(x0 + w * 0.2, y0 + h * row)
        page.mouse.down()
    for i in range(1, 12):
        page.mouse.move(x0 + w * (0.2 + 0.05 * i), y0 + h * (row + 0.08 * (i % 2)), steps=2)
    if up:
        page.mouse.up()


def freehand(page: Any) -> Any:
    page.locator('#game-root [data-mode="free"]').click()
    return sheet(page)


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(SCREENSHOT_DIR / f"easel-phone-sheet-{name}.png"), full_page=full,
                    animations="disabled")


# --- 1. a stroke refused for a budget -------------------------------------------------------


def test_a_stroke_refused_for_a_budget_is_sent_again_with_its_id(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    tries: dict[str, int] = {}

    def refuse(msg: dict[str, Any]) -> str | None:
        if msg.get("kind") != "stroke":
            return None
        tries[msg["id"]] = tries.get(msg["id"], 0) + 1
        return "still_saving" if tries[msg["id"]] <= 2 else None

    wire = Wire(refuse)
    with table(tmp_path, "artbox", "create") as (box, tokens), \
            phone(browser, box, tokens[0], TALL, route=wire) as page:
        canvas = freehand(page)
        started = time.monotonic()
        scribble(page, canvas, 0.3)
        wait_until(page, lambda: len(wire.my_picture()) == 1, 10,
                   f"the refused stroke never landed: sent {len(wire.strokes_sent())} times")
        took = time.monotonic() - started
        ids = {m["id"] for m in wire.strokes_sent()}
        assert len(wire.strokes_sent()) == 3 and len(ids) == 1, wire.strokes_sent()
        assert took >= 1.5, f"resent after {took:.2f} s: the box was given no time"
        expect(page.locator("#game-root .sheet-unsaved")).to_be_hidden()
        expect(page.locator("#toast")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_stroke_refused_every_time_stays_faded_not_saved(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    from playwright.sync_api import expect

    wire = Wire(lambda msg: "still_saving" if msg.get("kind") == "stroke" else None)
    with table(tmp_path, "artbox", "create") as (box, tokens), host(browser, box) as call:
        call("/host/api/language", {"lang": lang})
        with phone(browser, box, tokens[0], TALL, route=wire) as page:
            canvas = freehand(page)
            scribble(page, canvas, 0.4)
            note = page.locator("#game-root .sheet-unsaved")
            expect(note).to_be_visible(timeout=25_000)
            expect(note).to_contain_text("Not saved" if lang == "en" else "Neuloženo")
            assert len(wire.strokes_sent()) == 6, "not 1 send and 5 resends"
            assert len({m["id"] for m in wire.strokes_sent()}) == 1
            # Faded on the sheet, not gone: ink is still there, under the note.
            inked = canvas.evaluate(
                """(c) => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                     let n = 0; for (let i = 0; i < d.length; i += 4)
                       if (d[i] + d[i + 1] + d[i + 2] < 600) n++; return n; }""")
            assert inked > 200, "the stroke given up vanished from the sheet"
            shot(page, f"not-saved-{lang}")


# --- 2. the pause ---------------------------------------------------------------------------


def test_the_pause_is_said_over_the_sheet_and_no_stroke_is_lost(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    first: list[dict[str, Any]] = []

    def refuse(msg: dict[str, Any]) -> str | None:
        if msg.get("kind") == "stroke" and not first:
            first.append(msg)
            return "hold"  # on its way when the pause comes; refused `not_now` below
        return None

    wire = Wire(refuse)
    with table(tmp_path, "artbox", "create") as (box, tokens), host(browser, box) as call, \
            phone(browser, box, tokens[0], route=wire) as page:
        canvas = freehand(page)
        # Scrolled to the canvas, the page's own banner out of sight.
        page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
        canvas.scroll_into_view_if_needed()
        scribble(page, canvas, 0.2)
        wait_until(page, lambda: bool(first), 5, "the first stroke was not sent")
        scribble(page, canvas, 0.55, up=False)  # the finger is down when the pause comes
        call("/host/api/pause")
        note = page.locator("#game-root .sheet-pause")
        expect(note).to_be_visible(timeout=WAIT_MS)
        expect(note).to_contain_text("Paused")
        wire.answer(first[0], "not_now")
        page.mouse.up()
        area, said = canvas.bounding_box(), note.bounding_box()
        assert area is not None and said is not None
        assert said["y"] >= 0 and said["y"] + said["height"] <= SMALL["height"], said
        assert area["y"] <= said["y"] and said["y"] + said["height"] <= area["y"] + area["height"]
        shot(page, "paused-en")
        # A touch during the pause is refused where it is drawn, and nothing is sent.
        sent = len(wire.sent)
        scribble(page, canvas, 0.75)
        expect(note).to_have_class(re.compile(r"\bis-nudged\b"))
        page.wait_for_timeout(300)
        assert len(wire.sent) == sent, "a stroke was sent during the pause"
        call("/host/api/resume")
        expect(note).to_be_hidden(timeout=WAIT_MS)
        wait_until(page, lambda: len(wire.my_picture()) == 2, 10,
                   f"strokes lost in the pause: the box has {len(wire.my_picture())} of 2")
        assert [m["id"] for m in wire.strokes_sent()].count(first[0]["id"]) == 2
        expect(page.locator("#game-root .sheet-unsaved")).to_be_hidden()


# --- 3. the toolbar upright ------------------------------------------------------------------


def covered(page: Any) -> float:
    """The largest share of the sheet hidden by something drawn over it, at any scroll."""
    worst: float = page.evaluate(
        """async () => {
            const canvas = document.querySelector('#game-root .pad canvas.sheet-canvas');
            const box = canvas.closest('.sheet-box');
            const most = document.scrollingElement.scrollHeight - innerHeight;
            let worst = 0;
            for (let y = 0; y <= most + 40; y += 40) {
                scrollTo(0, Math.min(y, most));
                await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
                const r = box.getBoundingClientRect();
                if (r.bottom < 0 || r.top > innerHeight) continue;
                let hidden = 0, all = 0;
                for (let i = 0; i < 16; i++) for (let j = 0; j < 10; j++) {
                    const x = r.left + r.width * (i + 0.5) / 16;
                    const yy = r.top + r.height * (j + 0.5) / 10;
                    all++;
                    if (yy < 0 || yy > innerHeight) continue;
                    const top = document.elementFromPoint(x, yy);
                    if (top && !box.contains(top)) hidden++;
                }
                worst = Math.max(worst, hidden / all);
            }
            scrollTo(0, 0);
            return worst;
        }"""
    )
    return worst


def small_targets(page: Any) -> list[str]:
    found: list[str] = page.evaluate(
        """(least) => {
            const out = [];
            const sel = '#game-root .pad > .toolbar .tool, #game-root .pad > .toolbar button,'
              + ' #game-root .ab-actions button, #game-root .ab-toolbar button';
            for (const el of document.querySelectorAll(sel)) {
                const r = el.getBoundingClientRect();
                if (!r.width || !r.height) continue;
                if (getComputedStyle(el).visibility === 'hidden') continue;
                const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
                if (r.width < least - 0.5 || r.height < least - 0.5)
                    out.push(`${el.className || el.tagName} ${size}`);
            }
            return out;
        }""",
        MIN_TARGET_PX,
    )
    return found


@pytest.mark.parametrize("game,phase", [
    ("artbox", "create"), ("duplik", "drawing"), ("luck-of-the-draw", "drawing")])
def test_the_upright_toolbar_leaves_the_sheet_free(
    browser: Any, tmp_path: Path, game: str, phase: str
) -> None:
    from playwright.sync_api import expect

    with table(tmp_path, game, phase) as (box, tokens), host(browser, box) as call:
        artist = None
        for token in tokens:  # Duplik's Portrayer draws nothing: the first who draws
            with phone(browser, box, token) as page:
                page.wait_for_timeout(400)
                try:
                    page.locator("#game-root .pad canvas.sheet-canvas").first.wait_for(
                        timeout=3000)
                except Exception:
                    continue
                artist = token
                break
        assert artist is not None, "nobody draws"
        for lang in ("en", "cs"):
            call("/host/api/language", {"lang": lang})
            for size in (SMALL, TABLET):
                with phone(browser, box, artist, size) as page:
                    canvas = sheet(page)
                    if game == "artbox" and lang == "cs":
                        page.locator('#game-root button[data-die="0"]').click()
                        expect(page.locator('#game-root [data-act="place"]')).to_be_visible()
                    page.wait_for_timeout(300)
                    name = f"{game}-{lang}-{size['width']}x{size['height']}"
                    shot(page, name)
                    if size is not SMALL:
                        continue
                    share = covered(page)
                    assert share <= MAX_COVERED, (
                        f"{name}: the tools cover {share:.0%} of the sheet")
                    assert small_targets(page) == [], f"{name}: tools under 44 px"
                    # A group folded to its chosen tool opens in the row, and closes on a pick.
                    swatch = page.locator("#game-root .pad > .toolbar .tools-colours .tool")
                    if swatch.nth(1).is_hidden():
                        swatch.first.click()
                        expect(swatch.nth(1)).to_be_visible()
                        shot(page, f"{name}-colours")
                        swatch.nth(1).click()
                        expect(swatch.nth(2)).to_be_hidden()
                    assert canvas.is_visible()


# --- 4. 5. 6. word cards, the shape tool's spots, the art show's rating ------------------------


def long_words(view_text: str) -> str:
    view = json.loads(view_text)
    state = (view.get("match") or {}).get("state") or {}
    if view.get("type") == "view" and state.get("my_cards"):
        # The word, and the longest single words of the decks (and then some).
        state["my_cards"] = [{"en": "sunflower", "cs": "slunečnice"},
                             {"en": "wheelbarrow caterpillar", "cs": "horkovzdušný plachetnice"}]
    return json.dumps(view)


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_word_card_never_breaks_inside_a_word(
    browser: Any, tmp_path: Path, lang: str
) -> None:
    from playwright.sync_api import expect

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: ws.send(long_words(m) if isinstance(m, str) else m))

    with table(tmp_path, "artbox", "choose") as (box, tokens), host(browser, box) as call:
        call("/host/api/language", {"lang": lang})
        with phone(browser, box, tokens[0], route=route) as page:
            words = page.locator("#game-root .ab-card-word")
            expect(words).to_have_count(2, timeout=WAIT_MS)
            page.wait_for_timeout(300)
            lines = page.evaluate(
                """() => [...document.querySelectorAll('#game-root .ab-card-word')].map((el) => {
                    const text = el.firstChild, range = document.createRange();
                    const out = [];
                    for (const m of text.data.matchAll(/\\S+/g)) {
                        range.setStart(text, m.index);
                        range.setEnd(text, m.index + m[0].length);
                        const tops = [...range.getClientRects()].map((r) => Math.round(r.top));
                        const card = el.closest('.ab-card').getBoundingClientRect();
                        const word = range.getBoundingClientRect();
                        const inside = word.left >= card.left - 1 && word.right <= card.right + 1;
                        out.push([m[0], new Set(tops).size, inside]);
                    }
                    return out;
                })"""
            )
            shot(page, f"word-cards-{lang}")
            for card in lines:
                for word, rows, inside in card:
                    assert rows == 1, f"{word!r} breaks over {rows} lines on its card"
                    assert inside, f"{word!r} runs off its card"


def test_two_players_tapping_place_make_different_pictures(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    pictures = []
    with table(tmp_path, "artbox", "create") as (box, tokens):
        for token in tokens[:2]:
            wire = Wire()
            with phone(browser, box, token, route=wire) as page:
                sheet(page)
                for die in range(2):
                    page.locator(f'#game-root button[data-die="{die}"]').click()
                    place = page.locator('#game-root [data-act="place"]')
                    expect(place).to_be_visible()
                    place.click()
                landed = wire.my_picture
                wait_until(page, lambda: len(landed()) == 2, 10, "the shapes did not land")  # noqa: B023
                pictures.append([s["points"] for s in wire.my_picture()])
    assert pictures[0] != pictures[1], "two players' tap-and-place pictures are identical"
    for a, b in zip(pictures[0], pictures[1], strict=True):
        assert a[0][:2] != b[0][:2], "a shape starts at the very same spot for both players"


def test_a_broad_lines_art_show_rates_the_table(browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with table(tmp_path, "broad-lines", None) as (box, tokens), \
            phone(browser, box, tokens[0]) as page:
        link = page.locator("#finish-gallery")
        expect(link).to_be_visible(timeout=WAIT_MS)
        href = link.get_attribute("href") or ""
        url = href if href.startswith("http") else box.url + href
        with urllib.request.urlopen(url, timeout=10) as response:
            body = response.read().decode()
        assert "Winner" not in body
        assert any(en.replace("'", "&#x27;") in body for _, _, en, _ in RATINGS), (
            "the art show gives no rating")
        page.goto(url)
        expect(page.locator(".rating")).to_be_visible()
        shot(page, "gallery-broad-lines", full=True)
