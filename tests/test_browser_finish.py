"""The finish and the pause on real phones (Debian's Chromium at 390x844).

A game is played to its end (or to its drawing) in-process through a Session, as a power
cut would leave it in the store; the real appliance then starts on that store and the
phones come back with their seats' tokens, as after a reload. The finish must be the
game's own last screen with the result, the gallery link and, for the host, the way on;
the pause must read as a pause (no missing glyph) and no canvas may take a stroke.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from appliance.app import DB_NAME
from appliance.system.config import Config, StorageSettings
from appliance.table.session import HOST, Session
from appliance.table.store import Store
from games import registry
from tests.browser import (
    PHONE,
    SCREENSHOT_DIR,
    WAIT_MS,
    Appliance,
    assert_on_screen,
    seated_page,
)
from tests.conftest import FakeClock
from tests.finish_play import play_to_the_finish

GAMES = ["broad-lines", "duplik", "luck-of-the-draw", "artbox"]
MAX_FINISH_PAGE_PX = 4 * 844
"""A finish's page on a 390x844 phone, its whole art show included: four screens at most
(each round but the newest a line to open; a Luck of the Draw's was 6,400 px, 2,500 now)."""


def stored_box(
    tmp_path: Path, game: str, until: Callable[[Any], bool] | None = None,
    then: Callable[[Session], None] | None = None, kiosk: int = 0,
) -> tuple[Appliance, list[str]]:
    registry.load_all()
    box = Appliance(tmp_path)
    box.data_dir.mkdir(parents=True)
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(box.data_dir)))
    store = Store(box.data_dir / DB_NAME)
    try:
        clock = FakeClock(time.time())
        session = Session(store, config, "http://box", clock)
        tokens = play_to_the_finish(session, clock, game, players=4, until=until, kiosk=kiosk)
        if then is not None:
            then(session)
    finally:
        store.close()
    return box, tokens


def phase_is(name: str) -> Callable[[Any], bool]:
    """Play until the rules' state is in phase `name` (for `stored_box`'s `until`)."""
    return lambda state: bool(state.phase == name)


@contextmanager
def started_box(tmp_path: Path, game: str, phase: str | None, pin: str,
                then: Callable[[Session], None] | None = None,
                ) -> Iterator[tuple[Appliance, list[str]]]:
    """`stored_box` played until `phase` (None: to its finish), started with host `pin`,
    stopped afterwards."""
    box, tokens = stored_box(tmp_path, game, until=None if phase is None else phase_is(phase),
                             then=then)
    box.env.update(EASEL_HOST_PIN=pin)
    box.start()
    try:
        yield box, tokens
    finally:
        box.stop()


@contextmanager
def phone(browser: Any, box: Appliance, token: str) -> Iterator[Any]:
    with seated_page(browser, box, token, **PHONE) as page:
        yield page


@pytest.mark.parametrize("game", GAMES)
def test_phones_show_the_finish_until_the_host_goes_back_to_the_lobby(
    browser: Any, tmp_path: Path, game: str
) -> None:
    from playwright.sync_api import expect

    box, tokens = stored_box(tmp_path, game)
    box.start()
    try:
        with phone(browser, box, tokens[0]) as host, phone(browser, box, tokens[1]) as other:
            for page in (host, other):
                expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
                card = page.locator("#finish-card")
                expect(card).to_be_visible()
                if game == "broad-lines":
                    expect(page.locator("#finish-result")).to_contain_text("Together you guessed")
                    expect(card).not_to_contain_text("Winner")
                else:
                    expect(page.locator("#finish-result")).to_contain_text("Winner")
                gallery = page.locator("#finish-gallery")
                expect(gallery).to_be_visible()
                assert "/gallery/" in (gallery.get_attribute("href") or "")
                # The game's own finish (its game-over / art-show screen) below the card.
                root = page.locator("#game-root")
                expect(root).to_be_visible()
                assert len(root.inner_text().strip()) > 20
            expect(host.locator("#finish-again")).to_be_visible()
            expect(host.locator("#finish-lobby")).to_be_visible()
            expect(other.locator("#finish-wait")).to_be_visible()
            expect(other.locator("#finish-host")).to_be_hidden()
            if game == "duplik":  # the art show of every round, each with its scene
                rounds = other.locator(".dk-round")
                expect(rounds).to_have_count(4)
                expect(other.locator(".dk-round .dk-tile-scene img")).to_have_count(4)
            if game == "artbox":
                expect(other.locator("#game-root")).not_to_contain_text("Next round")
            if game in ("luck-of-the-draw", "artbox"):  # the art show of the whole game
                rounds = other.locator(".ld-artshow .ld-show-round" if game == "luck-of-the-draw"
                                       else ".ab-artshow .ab-show-round")
                expect(rounds.first).to_be_visible()
                assert rounds.count() > 1
                expect(rounds.last).to_contain_text("Round 1")  # newest first
                tile = ".ld-tile" if game == "luck-of-the-draw" else ".ab-pic"
                for n in (0, rounds.count() - 1):  # four drawings, each with its artist
                    expect(rounds.nth(n).locator(tile)).to_have_count(4)
                    expect(rounds.nth(n).locator(f"{tile} .chip")).to_have_count(4)
                if game == "artbox":  # and its word
                    word = rounds.first.locator(".ab-pic-caption strong").first
                    expect(word).to_contain_text("“")
            # Portrait: the host's way on is on screen without scrolling, the art show
            # under it is condensed (not pages of it), one countdown at most.
            assert_on_screen(host, host.locator("#finish-again"), "Play again")
            assert_on_screen(other, other.locator("#finish-card"), "the finish's result")
            for page in (host, other):
                tall = page.evaluate("document.scrollingElement.scrollHeight")
                assert tall <= MAX_FINISH_PAGE_PX, f"the {game} finish is {tall} px tall"
            host.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-phone-finish-host.png"),
                            full_page=True, animations="disabled")
            other.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-phone-finish.png"),
                             full_page=True, animations="disabled")
            time.sleep(0.1)
            host.locator("#finish-lobby").click()
            for page in (host, other):
                expect(page.locator('[data-screen="lobby"]')).to_be_visible(timeout=WAIT_MS)
                if game == "broad-lines":  # the lobby keeps the result, as a team's
                    expect(page.locator("#result-card")).to_contain_text("Together")
                    expect(page.locator("#result-card")).not_to_contain_text("Winner")
    finally:
        box.stop()


def test_a_paused_game_shows_it_and_its_canvas_takes_no_stroke(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    def drawing(state: Any) -> bool:
        return bool(state.phase == "drawing")

    box, tokens = stored_box(tmp_path, "luck-of-the-draw", until=drawing,
                             then=lambda session: session.pause(HOST))
    box.start()
    try:
        with phone(browser, box, tokens[1]) as page:
            sent: list[str] = []
            page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(
                frame if isinstance(frame, str) else str(frame))))
            page.reload()
            banner = page.locator("#pause-banner")
            expect(banner).to_be_visible(timeout=WAIT_MS)
            expect(banner).to_contain_text("Paused")
            # One countdown at a time: the game's own timer (the page's hourglass gives
            # way to it) stands still and shows two bars drawn in CSS, not a glyph.
            expect(page.locator("#hourglass")).to_be_hidden()
            timer = page.locator("#game-root .ld-timer").first
            expect(timer).to_be_visible()
            expect(timer).to_have_class(re.compile(r"\bis-paused\b"))
            bars = page.evaluate(
                "() => { const t = document.querySelector('.ld-timer.is-paused .ld-timer-time');"
                " if (!t) return [0, 0]; const s = getComputedStyle(t, '::before');"
                " return [parseFloat(s.width), parseFloat(s.height)]; }"
            )
            assert bars[0] > 4 and bars[1] > 8, bars
            assert "⏸" not in page.locator("body").inner_text()  # no glyph a font may lack
            canvas = page.locator("#game-root canvas.sheet-canvas").first
            expect(canvas).to_be_visible()
            area = canvas.bounding_box()
            assert area is not None
            page.mouse.move(area["x"] + 40, area["y"] + 40)
            page.mouse.down()
            for i in range(1, 12):
                page.mouse.move(area["x"] + 40 + 15 * i, area["y"] + 40 + 6 * i)
            page.mouse.up()
            page.wait_for_timeout(400)
            assert not [f for f in sent if '"act"' in f], "a paused canvas sent a stroke"
            expect(page.locator("#toast")).to_be_hidden()
            page.screenshot(path=str(SCREENSHOT_DIR / "easel-phone-paused.png"),
                            full_page=False, animations="disabled")
    finally:
        box.stop()


def test_a_newcomer_sees_how_long_a_seat_handed_over_waits(
    browser: Any, tmp_path: Path
) -> None:
    """The host freed a seat; a new phone is told it takes the seat, and how long the
    seat still waits for it (then the game goes on without it), ticking down."""
    from playwright.sync_api import expect

    def drawing(state: Any) -> bool:
        return bool(state.phase == "drawing")

    box, _ = stored_box(tmp_path, "luck-of-the-draw", until=drawing,
                        then=lambda session: session.offer_seat(HOST, 2))
    box.start()
    try:
        context = browser.new_context(**PHONE)
        try:
            page = context.new_page()
            page.goto(f"{box.url}/?room={box.room}")
            expect(page.locator('[data-screen="join"]')).to_be_visible(timeout=WAIT_MS)
            expect(page.locator("#join-button")).to_have_text("Take the free seat")
            wait = page.locator("#join-wait")
            expect(wait).to_have_text(re.compile(r"The seat waits 0:[0-5]\d more"))
            first = wait.inner_text()
            expect(wait).not_to_have_text(first, timeout=3000)  # it ticks
            assert_on_screen(page, page.locator("#join-button"), "Take the free seat")
            page.screenshot(path=str(SCREENSHOT_DIR / "easel-phone-handover-wait.png"),
                            full_page=False, animations="disabled")
            page.fill("#name-input", "Newcomer")
            page.click("#join-button")
            expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
        finally:
            context.close()
    finally:
        box.stop()


def _kiosk_seat_draws(state: Any) -> bool:
    """Broad Lines: the kiosk's seat (3) is the Artist, nothing drawn yet."""
    return bool(state.phase == "drawing" and state.round.artist == 3 and not state.round.drawing)


def _on_paper(session: Session) -> None:
    """The kiosk's Artist says "Drawn on paper" (the remote's OK on the kiosk's button)."""
    session.act(3, "place_paper", {})


def _drawing(state: Any) -> bool:
    return bool(state.phase == "drawing")


@pytest.mark.parametrize(("game", "until", "then", "act", "what"), [
    ("broad-lines", _kiosk_seat_draws, _on_paper, "send-guess", "Guess"),
    ("duplik", _drawing, None, "done", "Done — hand in"),
], ids=["broad-lines", "duplik"])
def test_phones_beside_a_kiosk_seat_keep_their_action_on_screen(
    browser: Any, tmp_path: Path, game: str, until: Callable[[Any], bool],
    then: Callable[[Session], None] | None, act: str, what: str,
) -> None:
    """A table with a seat at the kiosk (no phone): in Broad Lines its sheet was drawn on
    paper and the phones say so, Duplik is drawn on paper; at 390x844 the phone whose
    turn it is (the Critic guessing, an Artist handing in) has its action on screen
    without scrolling, and one countdown at most."""
    from playwright.sync_api import expect

    # A deal in which the kiosk's seat draws before the game ends (seeds 0 and 1 do not).
    with mock.patch("appliance.table.session.secrets.randbits", return_value=2**40 + 2):
        box, tokens = stored_box(tmp_path, game, until=until, then=then, kiosk=1)
    box.start()
    try:
        shown = 0
        for n, token in enumerate(tokens[:3]):  # the three phones
            with phone(browser, box, token) as page:
                expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
                if game == "broad-lines":
                    expect(page.locator("#game-root")).to_contain_text("drew on paper")
                control = page.locator(f'#game-root [data-act="{act}"]')
                if control.count() and control.first.is_visible():
                    assert_on_screen(page, control.first, what)
                    shown += 1
                page.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-phone-kiosk-seat-{n}.png"),
                                full_page=True, animations="disabled")
        assert shown >= 1, f"no phone showed {what}"
    finally:
        box.stop()


def _two_words_guessed(state: Any) -> bool:
    return len(state.history) >= 2 and sum(r.result == "guessed" for r in state.history) >= 2


def _a_card_won(state: Any) -> bool:
    return bool(state.phase == "result")


@pytest.mark.parametrize("game", ["broad-lines", "luck-of-the-draw"])
def test_phones_show_a_game_ended_early_with_what_was_played(
    browser: Any, tmp_path: Path, game: str
) -> None:
    from playwright.sync_api import expect

    until = _two_words_guessed if game == "broad-lines" else _a_card_won
    box, tokens = stored_box(tmp_path, game, until=until,
                             then=lambda session: session.end_match(HOST))
    box.start()
    try:
        with phone(browser, box, tokens[1]) as other:
            expect(other.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
            expect(other.locator("#finish-card")).to_be_visible()
            scores = other.locator("#finish-scores")
            expect(scores).to_contain_text("The host ended the game early")
            if game == "broad-lines":
                result = other.locator("#finish-result")
                expect(result).to_contain_text("Together you guessed")
                assert not result.inner_text().strip().endswith(" 0 words")
                expect(other.locator("#game-root")).to_contain_text("words guessed")
            else:
                expect(other.locator("#finish-result")).to_contain_text("Winner")
            other.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-phone-ended-early.png"),
                             full_page=True, animations="disabled")
    finally:
        box.stop()
