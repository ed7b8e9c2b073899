"""A round of ArtBox on three phones in a real Chromium against the real appliance.

The phones join, the host starts ArtBox; each keeps a word card; the starting player
(chosen at random by the rules) rolls the shape dice. Ada builds her picture with the
SHAPE TOOL: she places each rolled shape from its die, moves one and resizes and turns it
by its handles, pinches and twists another with two (synthetic touch) fingers, and the
box must see exactly the rolled shapes; Done is disabled until all four are placed. Bo
draws FREEHAND with the mouse: each rolled shape as a polyline of pointer moves (his
sheet is looked at sideways first, for the screenshots). Cy draws only three of the
shapes freehand and finishes anyway, past the phone's warning. They finish in that order and hold
order tokens 1, 2, 3. Every phone then matches words to the two other pictures (Ada and
Bo guess right, Cy guesses wrong; Bo picks word first, and takes a wrong guess back), all
are done and the first done turns the hourglass; the starting player reveals the three
pictures; Cy contests his picture's verdict and Ada and Bo vote that it breaks the rules;
the points are awarded, and the page shows what the rules promise for the revealed data:
red to the most recognised legal picture, grey to the most correct guesses of the others.
Along the way: no phone shows another player's picture before matching, and the kiosk's
frames are saved for a look.

Runs Debian's chromium through Playwright (never a downloaded browser); without one the
test skips, unless EASEL_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import (
    PHONE,
    SCREENSHOT_DIR,
    WAIT_MS,
    Appliance,
    GamePhone,
    assert_on_screen,
    game_phones,
)

pytestmark = pytest.mark.browser

SHEET_W, SHEET_H = 1600, 1000
# Where each freehand shape goes on the sheet: the four quarters, as the shape tool does.
QUARTERS = [(420, 270), (1180, 270), (420, 730), (1180, 730)]


@pytest.fixture
def phones(browser: Any) -> Iterator[list[GamePhone]]:
    with game_phones(browser, "artbox", ("Ada", "Bo", "Cy")) as made:
        yield made


# --- drawing with the pointer -------------------------------------------------------------


def sheet_to_page(box: dict[str, float], x: float, y: float) -> tuple[float, float]:
    """A sheet point (1600 x 1000 units) on the page, the sheet letterboxed in `box`."""
    scale = min(box["width"] / SHEET_W, box["height"] / SHEET_H)
    left = box["x"] + (box["width"] - SHEET_W * scale) / 2
    top = box["y"] + (box["height"] - SHEET_H * scale) / 2
    return left + x * scale, top + y * scale


def freehand_outline(shape: str, cx: float, cy: float) -> list[tuple[float, float]]:
    """The points a hand would pass through drawing `shape` around (cx, cy)."""
    if shape == "circle":
        return [
            (cx + 150 * math.cos(2 * math.pi * i / 40), cy + 120 * math.sin(2 * math.pi * i / 40))
            for i in range(41)
        ]
    if shape == "square":
        corners = [
            (cx - 140, cy - 120),
            (cx + 140, cy - 120),
            (cx + 140, cy + 120),
            (cx - 140, cy + 120),
            (cx - 140, cy - 120),
        ]
    elif shape == "triangle":
        corners = [(cx, cy - 140), (cx + 160, cy + 120), (cx - 160, cy + 120), (cx, cy - 140)]
    else:
        corners = [(cx - 180, cy + 80), (cx + 180, cy - 80)]
    out = [corners[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(corners):
        out += [(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8) for k in range(1, 9)]
    return out


def draw_freehand(page: Any, canvas: Any, shape: str, quarter: int) -> None:
    box = canvas.bounding_box()
    assert box is not None
    points = [sheet_to_page(box, x, y) for x, y in freehand_outline(shape, *QUARTERS[quarter])]
    page.mouse.move(*points[0])
    page.mouse.down()
    for x, y in points[1:]:
        page.mouse.move(x, y, steps=2)
    page.mouse.up()


def drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()


def wait_pad(phone: GamePhone) -> Any:
    canvas = phone.page.locator("#game-root .pad canvas.sheet-canvas")
    phone.page.wait_for_function(
        "(c) => c.width > 0 && c.getBoundingClientRect().width > 10",
        arg=canvas.element_handle(),
        timeout=WAIT_MS,
    )
    return canvas


def rolled(phone: GamePhone) -> list[str]:
    dice = phone.page.locator("#game-root button[data-die]")
    return [dice.nth(i).get_attribute("data-shape") or "" for i in range(dice.count())]


def build_with_the_shape_tool(phone: GamePhone) -> None:
    """Place each rolled shape from its die; move, resize and turn the first one."""
    from playwright.sync_api import expect

    page = phone.page
    canvas = wait_pad(phone)
    dice = rolled(phone)
    assert len(dice) == 4, dice
    for i, shape in enumerate(dice):
        die = page.locator(f'#game-root button[data-die="{i}"]')
        expect(die).to_be_enabled(timeout=WAIT_MS)
        die.click()
        expect(phone.act("place")).to_be_visible()
        if i == 0:
            # The first shape appears in the top left quarter: drag it to the middle,
            # then pull its handles: the corner (or a line's end) outwards, and the
            # round knob (40 CSS px above the shape) a little to the right to turn it.
            box = canvas.bounding_box()
            assert box is not None
            scale = min(box["width"] / SHEET_W, box["height"] / SHEET_H)
            drag(page, sheet_to_page(box, 420, 270), sheet_to_page(box, 800, 500))
            if shape == "line":
                # The line's right end (length 380 at -15 degrees) pulled further out.
                end = (800 + 190 * math.cos(-math.pi / 12), 500 + 190 * math.sin(-math.pi / 12))
                drag(page, sheet_to_page(box, *end), sheet_to_page(box, end[0] + 40, end[1]))
            else:
                w, h = {"triangle": (320, 280)}.get(shape, (300, 300))
                drag(
                    page,
                    sheet_to_page(box, 800 + w / 2, 500 + h / 2),
                    sheet_to_page(box, 800 + w / 2 + 30, 500 + h / 2 + 10),
                )
                x, y = sheet_to_page(box, 800, 500 - (h + 20) / 2)
                drag(page, (x, y - 40), (x + 60 * scale + 12, y - 40))
            phone.shot("create-tool-editing", full=False)
        if i == 1:
            # Two fingers on the second shape: spread and twist them (touch pointers,
            # as a phone sends them); the overlay must show the shape changed.
            overlay = page.locator("#game-root canvas.ab-overlay")
            before = overlay.evaluate("(c) => c.toDataURL()")
            pinch(page, overlay, QUARTERS[1])
            assert overlay.evaluate("(c) => c.toDataURL()") != before, "the pinch did nothing"
        phone.act("place").click()
    expect(page.locator("#game-root .ab-check.is-ok")).to_be_visible(timeout=WAIT_MS)


def pinch(page: Any, overlay: Any, centre: tuple[float, float]) -> None:
    """Two touch pointers around `centre` (sheet units) moving apart and turning."""
    box = overlay.bounding_box()
    assert box is not None
    cx, cy = sheet_to_page(box, *centre)
    overlay.evaluate(
        """(c, [cx, cy]) => {
            const fire = (type, id, x, y) => c.dispatchEvent(new PointerEvent(type, {
                pointerId: id, pointerType: "touch", isPrimary: id === 11, bubbles: true,
                cancelable: true, clientX: x, clientY: y, button: 0, buttons: 1 }));
            const at = (k) => {
                const r = 30 + 20 * k, a = 0.35 * k;
                return [[cx - r * Math.cos(a), cy - r * Math.sin(a)],
                        [cx + r * Math.cos(a), cy + r * Math.sin(a)]];
            };
            let [p, q] = at(0);
            fire("pointerdown", 11, ...p);
            fire("pointerdown", 12, ...q);
            for (let k = 1; k <= 5; k += 1) {
                [p, q] = at(k / 5);
                fire("pointermove", 11, ...p);
                fire("pointermove", 12, ...q);
            }
            fire("pointerup", 11, ...p);
            fire("pointerup", 12, ...q);
        }""",
        [cx, cy],
    )


def draw_freehand_picture(phone: GamePhone, shapes: list[str]) -> None:
    page = phone.page
    page.locator('#game-root [data-mode="free"]').click()
    canvas = wait_pad(phone)
    for quarter, shape in enumerate(shapes):
        draw_freehand(page, canvas, shape, quarter)
        # Each stroke is in the box before the next: the check follows stroke by stroke.
        page.wait_for_function(
            "(n) => document.querySelectorAll('#game-root .ab-check-head, "
            "#game-root .ab-check.is-empty').length > 0 && n >= 0",
            arg=quarter,
        )


def finish(phone: GamePhone, token: int, warned: bool = False, last: bool = False) -> None:
    from playwright.sync_api import expect

    done = phone.act("finish")
    expect(done).to_be_enabled(timeout=WAIT_MS)
    done.click()
    confirm = phone.page.locator("#game-root .ab-confirm")
    expect(confirm).to_contain_text(f"Take order token {token}?")
    warning = phone.page.locator("#game-root .ab-warn")
    if warned:
        expect(warning).to_be_visible()
        expect(warning).to_contain_text("doubts")
    else:
        expect(warning).to_be_hidden()
    phone.act("finish-yes").click()
    if last:
        # The last token lays the pictures out: matching begins at once.
        expect(phone.page.locator("#game-root .ab-match")).to_be_visible(timeout=WAIT_MS)
        return
    expect(phone.page.locator("#game-root .ab-number")).to_have_text(
        f"You are number {token}", timeout=WAIT_MS
    )


def number_in(text: str) -> int:
    found = re.search(r"\d+", text)
    assert found is not None, f"no number in {text!r}"
    return int(found.group())


def word_list(phone: GamePhone) -> list[str]:
    """The words laid out, in their order (data-word is the index the rules know)."""
    buttons = phone.page.locator("#game-root .ab-word")
    out = []
    for k in range(buttons.count()):
        button = buttons.nth(k)
        assert button.get_attribute("data-word") == str(k)
        out.append(button.locator("span").first.inner_text())
    return out


def expected_points(revealed: list[dict[str, Any]], guessed: dict[str, int]) -> tuple[str, str]:
    """(red, grey) by the rules, from what the page revealed: the most recognised legal
    picture (ties: the lower order token); then, not the red winner, the most correct
    guesses (ties: a legal picture first, then the lower order token)."""
    legal = [p for p in revealed if p["legal"]]
    red = min(legal, key=lambda p: (-p["recognised"], p["token"]))["owner"]
    others = [p for p in revealed if p["owner"] != red]
    grey = min(others, key=lambda p: (-guessed[p["owner"]], not p["legal"], p["token"]))
    return red, grey["owner"]


def test_a_round_of_artbox_on_three_phones(box: Appliance, phones: list[GamePhone]) -> None:
    from playwright.sync_api import expect

    started = time.monotonic()
    link = f"{box.url}/?room={box.room}"
    for i, phone in enumerate(phones):
        phone.join(link, i)
    ada, bo, cy = phones
    host = ada
    expect(host.page.locator('[data-screen="lobby"] li.seat')).to_have_count(3, timeout=WAIT_MS)
    game = host.page.locator('.game[data-game="artbox"]')
    expect(game).to_be_enabled(timeout=WAIT_MS)
    game.click()
    expect(game).to_have_attribute("aria-pressed", "true", timeout=WAIT_MS)
    expect(host.page.locator('input[data-option="advanced"]')).to_be_visible()
    expect(host.page.locator(".game-options")).to_contain_text("Advanced end")
    host.page.click("#start-button")

    # choose: two word cards each; keep one.
    words: dict[str, str] = {}
    for n, phone in enumerate(phones):
        card = phone.act(f"keep-{n % 2}")
        expect(card).to_be_visible(timeout=WAIT_MS)
        if phone is ada:
            phone.shot("choose")
        words[phone.name] = card.inner_text().strip()
        card.click()
        expect(phone.page.locator("#game-root .ab-myword strong")).to_have_text(
            f"“{words[phone.name]}”", timeout=WAIT_MS
        )
    assert len(set(words.values())) == 3

    # roll: the starting player (chosen by the rules) has the button.
    deadline = time.monotonic() + 10
    starter: GamePhone | None = None
    while starter is None and time.monotonic() < deadline:
        starter = next((p for p in phones if p.act("roll").count() == 1), None)
        if starter is None:
            time.sleep(0.05)
    assert starter is not None, "no phone offers to roll the dice"
    for other in phones:
        if other is not starter:
            expect(other.page.locator("#game-root")).to_contain_text("roll the shape dice")
    starter.shot("roll-starter")
    starter.act("roll").click()

    # create: Ada with the shape tool, Bo freehand, Cy freehand with a shape missing.
    for phone in phones:
        expect(phone.page.locator("#game-root .ab-create")).to_be_visible(timeout=WAIT_MS)
    dice = rolled(ada)
    assert dice == rolled(bo) == rolled(cy)
    assert ada.act("finish").is_disabled(), "Done before 4 shapes are placed"
    build_with_the_shape_tool(ada)
    ada.shot("create-tool")
    assert_on_screen(ada.page, ada.act("finish"), "Done")
    # Sideways, the sheet takes the screen and the tools go beside it.
    bo.page.set_viewport_size({"width": 844, "height": 390})
    wait_pad(bo)
    bo.page.locator('#game-root button[data-die="0"]').click()
    bo.shot("create-landscape-tool", full=False)
    bo.act("discard").click()
    bo.page.locator('#game-root [data-mode="free"]').click()
    bo.shot("create-landscape", full=False)
    bo.page.set_viewport_size(PHONE["viewport"])
    draw_freehand_picture(bo, dice)
    expect(bo.page.locator("#game-root .ab-check.is-ok")).to_be_visible(timeout=WAIT_MS)
    bo.shot("create-free")
    draw_freehand_picture(cy, dice[:3])
    check = cy.page.locator("#game-root .ab-check.is-bad")
    expect(check).to_be_visible(timeout=WAIT_MS)
    expect(check.locator(".ab-icons.is-missing .ab-icon")).to_have_count(1)
    cy.shot("create-missing")
    # Nobody sees another player's picture while drawing: one sheet per page, their own.
    for phone in phones:
        assert phone.page.locator("#game-root canvas.sheet-canvas").count() == 1
    finish(ada, 1)
    finish(bo, 2)
    ada.shot("created")
    finish(cy, 3, warned=True, last=True)

    # match: every phone sees 3 pictures by number, its own marked; 6 words (3 + 3 extra).
    own: dict[str, int] = {}
    for phone in phones:
        tiles = phone.page.locator("#game-root .ab-gallery .ab-pic")
        expect(tiles).to_have_count(3, timeout=WAIT_MS)
        mine = phone.page.locator("#game-root .ab-pic.is-mine .ab-pic-no")
        expect(mine).to_have_count(1)
        own[phone.name] = int(mine.inner_text())
        expect(phone.page.locator("#game-root .ab-word")).to_have_count(6)
        for i in range(3):
            phone.page.wait_for_function(
                "(c) => c.width > 0", arg=tiles.nth(i).locator("canvas").element_handle()
            )
    assert sorted(own.values()) == [1, 2, 3]
    box.kiosk_png(SCREENSHOT_DIR / "easel-artbox-kiosk-match.png")
    owner_of = {n: name for name, n in own.items()}
    for phone in phones:
        for n in sorted(owner_of):
            if owner_of[n] == phone.name:
                continue
            # Ada and Bo guess right; Cy takes the first word that is nobody's.
            laid_out = word_list(phone)
            word = (
                words[owner_of[n]]
                if phone is not cy
                else next(w for w in laid_out if w not in words.values())
            )
            tile = phone.page.locator(f'#game-root button.ab-pic[data-picture="{n}"]')
            if phone is bo:
                # Bo tries it the other way round: the word first, then the picture; and
                # first a wrong one, which he takes back (the tile's ×).
                wrong = next(w for w in laid_out if w != word)
                phone.page.locator(
                    f'#game-root .ab-word[data-word="{laid_out.index(wrong)}"]'
                ).click()
                tile.click()
                expect(tile.locator(".ab-guess")).to_have_text(wrong, timeout=WAIT_MS)
                tile.locator(".ab-unguess").click()
                expect(tile.locator(".ab-guess")).to_have_text("no guess yet", timeout=WAIT_MS)
            tile.click()
            phone.page.locator(f'#game-root .ab-word[data-word="{laid_out.index(word)}"]').click()
            expect(tile.locator(".ab-guess")).to_have_text(word, timeout=WAIT_MS)
            if phone is ada:
                phone.shot(f"match-picking-{n}", full=False)
        if phone is ada:
            phone.shot("match")
        done = phone.act("done")
        expect(done).to_be_enabled(timeout=WAIT_MS)
        done.click()
        if phone is ada:
            # The first player done turns the hourglass: the others see it run.
            expect(bo.page.locator("#game-root .ab-timer")).to_be_visible(timeout=WAIT_MS)

    # reveal: the starting player reveals the three pictures.
    for n in range(1, 4):
        button = starter.act("reveal")
        expect(button).to_have_text(f"Reveal picture {n}", timeout=WAIT_MS)
        button.click()
        for phone in phones:
            tile = phone.page.locator(f'#game-root .ab-pic[data-picture="{n}"]')
            expect(tile.locator(".ab-reveal-word")).to_have_text(
                f"“{words[owner_of[n]]}”", timeout=WAIT_MS
            )
    verdicts = {}
    for n, name in owner_of.items():
        tile = ada.page.locator(f'#game-root .ab-pic[data-picture="{n}"]')
        verdicts[name] = tile.locator(".ab-verdict").get_attribute("class") or ""
    assert "is-ok" in verdicts["Ada"], "the shape tool's picture is not legal"
    assert "is-bad" in verdicts["Cy"], "a picture missing a shape passed"

    # Cy contests his verdict; Ada and Bo vote that it breaks the rules: it stands.
    cy.act(f"contest-{own['Cy']}").click()
    for voter in (ada, bo):
        expect(voter.page.locator("#game-root .ab-vote")).to_contain_text(
            "Does Cy's picture break the shape rules?", timeout=WAIT_MS
        )
    expect(cy.page.locator("#game-root .ab-vote")).to_contain_text("The others vote")
    assert cy.act("vote-yes").count() == 0, "the artist may not vote"
    box.kiosk_png(SCREENSHOT_DIR / "easel-artbox-kiosk-vote.png")
    ada.act("vote-yes").click()
    bo.shot("vote")
    bo.act("vote-yes").click()
    expect(ada.page.locator("#game-root .ab-vote")).to_be_hidden(timeout=WAIT_MS)
    box.kiosk_png(SCREENSHOT_DIR / "easel-artbox-kiosk-reveal.png")

    # What the page revealed, read back to compute the points the rules promise.
    names = {}
    revealed = []
    for n in owner_of:
        tile = ada.page.locator(f'#game-root .ab-pic[data-picture="{n}"]')
        names[n] = tile.locator(".ab-owner .chip").inner_text()
        recognised = number_in(tile.locator(".ab-pic-caption p.small").first.inner_text())
        revealed.append(
            {
                "owner": names[n],
                "token": int(tile.locator(".ab-owner .ab-token").inner_text()),
                "recognised": recognised,
                "legal": "is-ok" in (tile.locator(".ab-verdict").get_attribute("class") or ""),
            }
        )
    assert names == owner_of
    assert {p["owner"]: p["token"] for p in revealed} == {"Ada": 1, "Bo": 2, "Cy": 3}
    tally = ada.page.locator("#game-root .ab-tally .ab-person")
    expect(tally).to_have_count(3)
    guessed = {}
    for i in range(3):
        row = tally.nth(i)
        guessed[row.locator(".chip").inner_text()] = number_in(
            row.locator(".ab-count").inner_text()
        )
    assert guessed == {"Ada": 2, "Bo": 2, "Cy": 0}
    ada.shot("reveal")
    red, grey = expected_points(revealed, guessed)

    starter.act("award").click()
    for phone in phones:
        expect(phone.page.locator("#game-root .ab-awards")).to_be_visible(timeout=WAIT_MS)
    awards = ada.page.locator("#game-root .ab-award")
    assert awards.nth(0).locator(".chip").inner_text() == red
    assert awards.nth(1).locator(".chip").inner_text() == grey
    rows = ada.page.locator("#game-root .ab-table tbody tr")
    expect(rows).to_have_count(3)
    scores = {}
    for i in range(3):
        row = rows.nth(i)
        scores[row.locator(".chip").inner_text()] = int(row.locator(".ab-total").inner_text())
    assert red != grey and sum(scores.values()) == 2
    assert scores == {n: int(n in (red, grey)) for n in ("Ada", "Bo", "Cy")}
    ada.shot("points")
    box.kiosk_png(SCREENSHOT_DIR / "easel-artbox-kiosk-points.png")
    expect(starter.act("next")).to_be_enabled()
    assert time.monotonic() - started < 60, "the round took more than a minute"
