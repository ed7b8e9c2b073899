"""Watchers watch the game (issue 27, item 8), on real phones in Debian's Chromium.

A phone that watches (a ninth at an eight-seat table, or one that came while a game runs)
sees the game's public screen, read-only, as the kiosk shows it: the easel and its
sheets, the gallery with its chips, the verdicts, the reveal, the scores, the art show;
under a clear "Watching" card, with nothing on it that would send a move. The moment the
host frees a seat, the card offers it ("Take the free seat (Bot 3's place, score 0)"),
and one tap seats the watcher there to play on.

Each game's phases are reached in-process through a Session, as in the finish tests, and
the real appliance starts on that store; the ninth phone's game is played by eight bots
over WebSockets from one page. Screenshots of every watcher at 360x640 and 1024x768 are
saved for a look (EASEL_SCREENSHOT_DIR, /tmp by default).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from appliance.table.session import PALETTE
from tests.browser import PHONE, SCREENSHOT_DIR, WAIT_MS, Appliance
from tests.test_browser_finish import stored_box

pytestmark = pytest.mark.browser

SMALL = {"width": 360, "height": 640}
LARGE = {"width": 1024, "height": 768}

# What the page sends, recorded before any script of the page runs: a watcher sends only
# hello (and a ping); `act` would be a move.
RECORD_SENT = """(() => {
  window.sentFrames = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let sent = String(data);
    try { sent = JSON.parse(data); } catch (err) { /* not JSON: kept as text */ }
    window.sentFrames.push(sent);
    return send.call(this, data);
  };
})();"""

# A drawn sheet has ink: some pixel of the canvas differs from its corner's (the paper).
INKED_JS = """(c) => {
  if (!c.width || !c.height) return false;
  const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  const first = [data[0], data[1], data[2]];
  for (let i = 0; i < data.length; i += 4) {
    const off = Math.abs(data[i] - first[0]) + Math.abs(data[i + 1] - first[1])
      + Math.abs(data[i + 2] - first[2]);
    if (off > 60) return true;
  }
  return false;
}"""
INKED = INKED_JS
# Some canvas matching the selector has ink (a random playout may hand a sheet in blank).
ANY_INKED = f"""(sel) => Array.from(document.querySelectorAll(sel)).some({INKED_JS})"""


@contextmanager
def watcher(
    browser: Any, box: Appliance, size: dict[str, int], name: str = "Wanda"
) -> Iterator[Any]:
    """A phone that joins while a game runs, so watches; fails on a script error."""
    from playwright.sync_api import expect

    context = browser.new_context(**{**PHONE, "viewport": size})
    context.add_init_script(RECORD_SENT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(f"{box.url}/?room={box.room}")
        expect(page.locator('[data-screen="join"]')).to_be_visible(timeout=WAIT_MS)
        page.fill("#name-input", name)
        page.click("#join-button")
        expect(page.locator('[data-screen="playing"]')).to_be_visible(timeout=WAIT_MS)
        yield page
    finally:
        context.close()
    assert not errors, errors


def sent_kinds(page: Any) -> list[str]:
    frames = page.evaluate("window.sentFrames")
    return [m.get("type", "?") if isinstance(m, dict) else "?" for m in frames]


def assert_read_only(page: Any, what: str) -> None:
    """Nothing on the game's screen would send a move: no enabled control, no pad."""
    root = page.locator("#game-root")
    controls = root.locator(
        "button:visible:enabled, input:visible:enabled, [role='button']:visible")
    texts = [controls.nth(i).inner_text() for i in range(min(controls.count(), 5))]
    assert controls.count() == 0, f"{what}: a watcher is offered {texts}"
    assert root.locator(".pad").count() == 0, f"{what}: a watcher has a drawing pad"
    kinds = sent_kinds(page)
    assert "act" not in kinds, f"{what}: a watcher sent a move ({kinds})"


def _phase(name: str, extra: Callable[[Any], bool] = lambda st: True) -> Callable[[Any], bool]:
    return lambda st: bool(st.phase == name and extra(st))


# (game, phase, until, what the watcher's game screen shows there)
CASES: list[tuple[str, str, Callable[[Any], bool], str]] = [
    ("duplik", "drawing", _phase("drawing"), ".dk-people .dk-person"),
    ("duplik", "evaluating", _phase("evaluating", lambda st: st.round.presented >= 2),
     ".dk-status .dk-person"),
    ("duplik", "dispute", _phase("evaluating", lambda st: st.round.dispute is not None),
     ".dk-dispute canvas.sheet-canvas"),
    ("duplik", "artshow", _phase("artshow"), ".dk-artshow .dk-tile canvas.sheet-canvas"),
    ("broad-lines", "drawing", _phase("drawing", lambda st: st.round.number >= 2), ".bl-easel"),
    ("broad-lines", "guessing", _phase("guessing"), ".bl-easel canvas.sheet-canvas"),
    ("broad-lines", "reveal", _phase("reveal"), ".bl-result"),
    ("luck-of-the-draw", "subject", _phase("subject"), ".ld-subject-row"),
    ("luck-of-the-draw", "drawing", _phase("drawing"), ".ld-people li"),
    ("luck-of-the-draw", "voting", _phase("voting"), ".ld-gallery .ld-tile canvas.sheet-canvas"),
    ("luck-of-the-draw", "result", _phase("result"), ".ld-verdict"),
    ("artbox", "create", _phase("create"), ".ab-people .ab-person"),
    ("artbox", "match", _phase("match"), ".ab-gallery .ab-pic canvas.sheet-canvas"),
    ("artbox", "reveal", _phase("reveal", lambda st: st.round.revealed >= 1),
     ".ab-gallery .ab-pic canvas.sheet-canvas"),
    ("artbox", "vote", _phase("reveal", lambda st: st.round.vote is not None), ".ab-vote"),
]


@pytest.mark.parametrize(("game", "phase", "until", "shows"), CASES,
                         ids=[f"{game}-{phase}" for game, phase, _, _ in CASES])
def test_a_watcher_sees_the_public_table_read_only(
    browser: Any, tmp_path: Path, game: str, phase: str, until: Callable[[Any], bool], shows: str
) -> None:
    from playwright.sync_api import expect

    box, _ = stored_box(tmp_path, game, until=until)
    box.start()
    try:
        for size in (SMALL, LARGE):
            with watcher(browser, box, size) as page:
                card = page.locator("#watch-card")
                expect(card).to_be_visible()
                expect(page.locator("#playing-label")).to_have_text("Watching")
                expect(page.locator("#watch-why")).to_contain_text("A game is running")
                expect(page.locator("#watch-take")).to_be_hidden()  # no seat is free
                shown = page.locator(f"#game-root {shows}")
                expect(shown.first).to_be_visible(timeout=WAIT_MS)
                if "canvas" in shows:  # the players' strokes, drawn
                    page.wait_for_function(ANY_INKED, arg=f"#game-root {shows}", timeout=WAIT_MS)
                page.wait_for_timeout(300)  # a view or two more: still nothing sent
                assert_read_only(page, f"{game} {phase}")
                page.screenshot(
                    path=str(SCREENSHOT_DIR / f"easel-{game}-watcher-{phase}-{size['width']}.png"),
                    full_page=False, animations="disabled")
    finally:
        box.stop()


BOTS_JS = """async ({url, room, palette, names}) => {
  window.bots = [];
  for (const [i, name] of names.entries()) {
    const ws = new WebSocket(url.replace("http", "ws") + "/ws");
    const got = [];
    ws.onmessage = (e) => got.push(JSON.parse(e.data));
    await new Promise((ok) => { ws.onopen = ok; });
    const welcome = async (n) => {
      for (let t = 0; t < 200 && got.filter((m) => m.type === "welcome").length < n; t++) {
        await new Promise((ok) => setTimeout(ok, 25));
      }
    };
    ws.send(JSON.stringify({ type: "hello", room, token: null }));
    await welcome(1);
    ws.send(JSON.stringify({ type: "join", name, colour: palette[i] }));
    await welcome(2);
    window.bots.push({ ws, got, n: 0 });
  }
  // A bot's move, answered (ack or error) before the next.
  window.botAct = async (i, kind, data) => {
    const bot = window.bots[i];
    const id = `bot${i}-${bot.n++}`;
    bot.ws.send(JSON.stringify({ type: "act", id, kind, data: data || {} }));
    for (let t = 0; t < 200; t++) {
      const answer = bot.got.find((m) => m.id === id || m.ref === id);
      if (answer) return answer.type;
      await new Promise((ok) => setTimeout(ok, 25));
    }
    return "no answer";
  };
  // A bot's newest view.
  window.botLast = (i) => window.bots[i].got.filter((m) => m.type === "view").pop() || null;
  return window.bots.length;
}"""


def zigzag(row: int) -> dict[str, Any]:
    """A stroke across the sheet, at a height of its own per bot."""
    y = 120 + 100 * row
    points = [[100 + 140 * i, y + (50 if i % 2 else -50), 16 * i] for i in range(11)]
    return {"points": points, "colour": "#202020", "width": 12}


def test_a_ninth_phone_watches_then_takes_the_seat_the_host_frees(
    browser: Any, box: Appliance
) -> None:
    """Eight bots play Luck of the Draw; the ninth phone watched from the lobby ("the
    table is full", all eight seats taken) into the game, sees the gallery of the bots'
    drawings without sending a move, is offered seat 4 the moment the host frees it, takes
    it (sitting the round out, as the rules have a seat left mid-round) and rolls the
    next round's die."""
    from playwright.sync_api import expect

    bots = browser.new_context()
    ninth = browser.new_context(**{**PHONE, "viewport": SMALL})
    ninth.add_init_script(RECORD_SENT)
    try:
        page = bots.new_page()
        page.goto(f"{box.url}/healthz")
        names = [f"Bot {i}" for i in range(8)]
        assert page.evaluate(BOTS_JS, {"url": box.url, "room": box.room,
                                       "palette": list(PALETTE), "names": names}) == 8
        phone = ninth.new_page()
        errors: list[str] = []
        phone.on("pageerror", lambda err: errors.append(str(err)))
        phone.goto(f"{box.url}/?room={box.room}")
        expect(phone.locator('[data-screen="join"]')).to_be_visible(timeout=WAIT_MS)
        phone.fill("#name-input", "Nina")
        phone.click("#join-button")
        spectator = phone.locator('[data-screen="spectator"]')
        expect(spectator).to_be_visible(timeout=WAIT_MS)
        expect(phone.locator("#spectator-title")).to_have_text(
            "The table is full — you are watching.")

        page.evaluate("""() => {
          const host = window.bots[0].ws;
          host.send(JSON.stringify({ type: "select", game: "luck-of-the-draw" }));
          host.send(JSON.stringify({ type: "start", options: { speedier: true } }));
        }""")
        playing = phone.locator('[data-screen="playing"]')
        expect(playing).to_be_visible(timeout=WAIT_MS)
        expect(phone.locator("#watch-card")).to_be_visible()
        expect(phone.locator("#playing-label")).to_have_text("Watching")
        expect(phone.locator("#game-root .ld-subject-row")).to_have_count(3, timeout=WAIT_MS)

        assert page.evaluate("() => window.botAct(0, 'roll')") == "ack"
        assert page.evaluate("() => window.botAct(1, 'start_timer')") == "ack"
        for i in range(8):
            drawn = page.evaluate("([i, s]) => window.botAct(i, 'stroke', s)", [i, zigzag(i)])
            assert drawn == "ack"
        expect(phone.locator("#game-root .ld-people li")).to_have_count(8, timeout=WAIT_MS)
        for i in range(8):
            assert page.evaluate("(i) => window.botAct(i, 'done')", i) == "ack"

        # The gallery: eight drawings with their chips, each with its bot's stroke.
        tiles = phone.locator("#game-root .ld-gallery .ld-tile")
        expect(tiles).to_have_count(8, timeout=WAIT_MS)
        for n in range(8):
            sheet = tiles.nth(n).locator("canvas.sheet-canvas")
            phone.wait_for_function(INKED, arg=sheet.element_handle(), timeout=WAIT_MS)
        assert_read_only(phone, "the ninth phone watching the vote")
        phone.screenshot(path=str(SCREENSHOT_DIR / "easel-watcher-ninth-gallery.png"),
                         full_page=False, animations="disabled")

        # The host frees seat 4: offered at once, with whose place and score it is.
        page.evaluate("() => window.bots[0].ws.send(JSON.stringify({type: 'kick', seat: 3}))")
        take = phone.locator("#watch-take")
        expect(take).to_be_visible(timeout=WAIT_MS)
        expect(take).to_have_text("Take the free seat (Bot 3's place, score 0)")
        expect(phone.locator("#watch-why")).to_contain_text("A seat is free")
        phone.screenshot(path=str(SCREENSHOT_DIR / "easel-watcher-ninth-offered.png"),
                         full_page=False, animations="disabled")
        assert "act" not in sent_kinds(phone)
        take.click()

        # Seated in seat 4 with its colour. The rules sit a seat left mid-round out until
        # the next round: the phone says so, and still offers nothing to press.
        expect(phone.locator("#watch-card")).to_be_hidden(timeout=WAIT_MS)
        expect(phone.locator("#playing-label")).to_have_text("Game in progress")
        expect(phone.locator("#game-root [data-sit-out]")).to_be_visible(timeout=WAIT_MS)
        assert_read_only(phone, "a seat taken over mid-round")
        joins = [m for m in phone.evaluate("window.sentFrames")
                 if isinstance(m, dict) and m.get("type") == "join"]
        assert [j["name"] for j in joins] == ["Nina", "Nina"], joins  # to watch, then the seat
        view = page.evaluate("() => window.botLast(0)")
        seat = next(s for s in view["seats"] if s["seat"] == 3)
        assert seat["name"] == "Nina" and seat["colour"] == PALETTE[3]

        # The bots play the round out (two categories); the next round is Nina's too.
        voters = [0, 1, 2, 4, 5, 6, 7]
        for _category in range(2):
            chip = page.evaluate("() => window.botLast(0).match.state.gallery[0].chip")
            for i in voters:
                voted = page.evaluate("([i, c]) => window.botAct(i, 'vote', {chip: c})",
                                      [i, chip])
                assert voted == "ack"
            assert page.evaluate("() => window.botAct(0, 'reveal')") == "ack"
            assert page.evaluate("() => window.botAct(0, 'next')") == "ack"
        expect(phone.locator("#game-root .ld-table tbody tr")).to_have_count(8, timeout=WAIT_MS)
        assert page.evaluate("() => window.botAct(0, 'next')") == "ack"
        roll = phone.locator('#game-root [data-act="roll"]')
        expect(roll).to_be_enabled(timeout=WAIT_MS)
        expect(phone.locator("#game-root [data-sit-out]")).to_have_count(0)
        roll.click()
        chosen = phone.locator("#game-root .ld-subject-row.is-chosen")
        expect(chosen).to_have_count(1, timeout=WAIT_MS)
        assert "act" in sent_kinds(phone)  # its first move, as seat 4's player
        phone.screenshot(path=str(SCREENSHOT_DIR / "easel-watcher-ninth-plays.png"),
                         full_page=False, animations="disabled")
        assert not errors, errors
    finally:
        ninth.close()
        bots.close()


def test_a_watcher_is_told_the_table_is_full_only_when_it_is(
    browser: Any, tmp_path: Path
) -> None:
    """The report: a watcher read "the table is full" with 5 of 8 seats taken. Four play
    Duplik, a fifth phone watches; the host ends the game: the watcher is told a seat is
    free and offered to join, never that the table is full."""
    from playwright.sync_api import expect

    box, tokens = stored_box(tmp_path, "duplik", until=_phase("drawing"))
    box.start()
    try:
        host = browser.new_context()
        try:
            with watcher(browser, box, SMALL) as page:
                expect(page.locator("#watch-why")).to_contain_text("A game is running")
                bot = host.new_page()
                bot.goto(f"{box.url}/healthz")
                ended = bot.evaluate("""async ({url, room, token}) => {
                  const ws = new WebSocket(url.replace("http", "ws") + "/ws");
                  const got = [];
                  ws.onmessage = (e) => got.push(JSON.parse(e.data));
                  await new Promise((ok) => { ws.onopen = ok; });
                  ws.send(JSON.stringify({ type: "hello", room, token }));
                  for (let t = 0; t < 200 && !got.some((m) => m.type === "view"); t++) {
                    await new Promise((ok) => setTimeout(ok, 25));
                  }
                  ws.send(JSON.stringify({ type: "end" }));
                  for (let t = 0; t < 200; t++) {
                    const last = got.filter((m) => m.type === "view").pop();
                    if (last && last.phase !== "playing") return last.phase;
                    await new Promise((ok) => setTimeout(ok, 25));
                  }
                  return "still playing";
                }""", {"url": box.url, "room": box.room, "token": tokens[0]})
                assert ended in ("over", "finished", "lobby"), ended
                if ended == "over":  # the game's finish: watched, and a seat offered
                    expect(page.locator("#watch-why")).to_contain_text("The game is over")
                    expect(page.locator("#watch-take")).to_have_text("Join for the next game")
                else:
                    title = page.locator("#spectator-title")
                    expect(title).to_have_text("A seat is free: you can join the table.")
                    expect(page.locator("#spectator-join")).to_be_visible()
                expect(page.locator("body")).not_to_contain_text("The table is full")
                page.screenshot(path=str(SCREENSHOT_DIR / "easel-watcher-after-end-360.png"),
                                full_page=False, animations="disabled")
                assert_read_only(page, "after the end")
        finally:
            host.close()
    finally:
        box.stop()
