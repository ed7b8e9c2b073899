"""Issue 27's "done": every game played by people who come and go, and every screen's
credit checked against the log.

Per game, one real appliance process (tests/serve_bots.py: the product plus a test-only
control socket) and oracle bots (tests/bots.py) playing over real WebSockets:

1. five phones join (P0..P4) and the host phone starts the game; the bots play a little;
2. a seat changes hands: the host page (`/host/api/offer`, logged in with the PIN) frees
   seat 2 and Fay takes it; play on;
3. a kicked player rejoins: the host kicks P1 (or P4) (`/host/api/kick`); his phone comes back
   saying its old token and joins again, under his name and under another: refused
   `kicked_out`, never seated; let back (`/host/api/let_back`), he is in seat 1 again;
4. a closed tab: P3's (or P4's) socket goes; within away_after_s + away_wait_s the table lists her
   `away`, the game goes on meanwhile (the log grows, and where the game waited for her
   alone the rules heard `seat_left`); back with her token, `away` clears;
5. an early end: the host page ends the game if it has not ended by itself.

Then the credit: from the store's log (each stroke's seat and sequence number) and the
test's own record of who took which seat when, the test works out who drew each picture
and compares it with the store's roster, the gallery page in Chromium (its captions), the
gallery's zip (its file names), the host page's "Today's games" in Chromium, and the
kiosk's and a phone's finish (`match.seats`, `match.credits`). The kiosk's frame is
saved for a look. Runs Debian's chromium through Playwright; without one it skips,
unless EASEL_REQUIRE_BROWSER=1 makes that a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import random
import re
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest

from appliance.app import DB_NAME
from appliance.table.keepsakes import slug
from appliance.table.store import LoggedAction, MatchRecord, Store
from games import registry
from games.core import SEAT_BACK, SEAT_LEFT, TABLE, VOTE
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH
from games.strokes import stroke_to_data
from tests.bots import (
    COLOURS,
    SPEED_OPTIONS,
    BotPhone,
    ControlTable,
    Driver,
    Move,
    RunOut,
    Snapshot,
    choose,
    press_of,
)
from tests.browser import SCREENSHOT_DIR, WAIT_MS, Appliance
from tests.serve_bots import SOCKET_NAME

pytestmark = pytest.mark.browser

GAMES = ["broad-lines", "duplik", "luck-of-the-draw", "artbox"]
PIN = "8642"
AWAY_S = 5  # `away_after_s` and `away_wait_s` both: the shortest the settings allow
SLACK_S = 4.0
STROKE_BIAS = 0.5
UNDRAW = {"broad-lines": frozenset({"propose_give_up"})}  # else undo and clear
KEEPS = {"broad-lines": "place"}  # the move that keeps a player's strokes (else "stroke")
UNTIL_MOVES = 400  # at most, to a person's turn to draw (Duplik's verdicts are long)
# Long enough for every stretch of play to happen in a running game, short as can be.
OPTIONS: dict[str, dict[str, Any]] = {**SPEED_OPTIONS, "broad-lines": {"sheets": 30}}
MOVES = 12  # oracle moves per stretch of play: small, the machine is shared
HANDED = 2  # the seat the host hands over to Fay
KICKED = (1, 4)  # the seat whose player the host kicks and lets back: the first not
# Duplik's Portrayer now (his scene goes with him, and its canvases unkept)
CLOSED = (3, 4)  # the seat whose tab closes: the first not Duplik's Portrayer now (his
# scene goes with him, and the round's canvases, Fay's part of P2's among them, unkept)


@dataclass
class Played:
    """What the test did and saw while playing, to check the screens against."""

    match_id: int = 0
    fay_since: int = 0  # the log's seq from which seat 2 was Fay's
    back_since: int = 0  # the log's seq from which P1 held seat 1 again
    ended_early: bool = False
    kiosk: dict[str, Any] = field(default_factory=dict)  # the kiosk's view at the end
    phone: dict[str, Any] = field(default_factory=dict)  # P0's view at the end
    moves_while_away: int = 0
    seq_at_close: int = 0
    kicked: int = 0  # the seat whose player was kicked and let back
    closed: int = 0  # the seat whose tab closed
    waited_for_her: bool = False  # she had a move and no hourglass would end it


# -- playing ------------------------------------------------------------------------------


class HostPage:
    """The host page's JSON API, logged in with the PIN (its cookie kept)."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        self.http, self.url = http, url

    async def post(self, call: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        async with self.http.post(f"{self.url}/host/api/{call}", json=body) as response:
            data: dict[str, Any] = await response.json()
            assert response.status == status, (call, response.status, data)
            return data


def jittered(move: Move, rnd: random.Random) -> dict[str, Any]:
    """The move's data; a stroke's points moved a little, so every stroke in the log is
    its own (the oracle draws the same square every time, as no person does)."""
    data = dict(move.data)
    if isinstance(data.get("points"), list):
        data["points"] = [
            [min(max(x + rnd.randint(-6, 6), 0), SHEET_WIDTH),
             min(max(y + rnd.randint(-6, 6), 0), SHEET_HEIGHT), t]
            for x, y, t in data["points"]
        ]
    return data


class Keeping:
    """The rules, with no move that takes strokes away (undo, clear): every stroke drawn
    stays in a picture, so every holder's part of it is there to be credited. (A Broad
    Lines sheet is kept once placed, so undo is fine there; giving up is not, it burns
    the sheets Fay would draw.)"""

    def __init__(self, rules: Any, game: str) -> None:
        self.rules = rules
        self.left_out = UNDRAW.get(game, frozenset({"undo", "clear"}))

    def legal_actions(self, state: Any, seat: int | None) -> list[Any]:
        return [a for a in self.rules.legal_actions(state, seat)
                if a.kind not in self.left_out]

    def deadline(self, state: Any) -> Any:
        return self.rules.deadline(state)


class PeopleDriver(Driver):
    """The bots' driver, counting who drew how many strokes (by name)."""

    drawn: Counter[tuple[str, str]]  # (name, kind): how many such moves they made


async def step(
    driver: PeopleDriver, seats: list[int], p_time: float = 0.1, eager: str | None = None,
    kinds: tuple[str, ...] = ("stroke",),
) -> str:
    """One oracle move by `seats` or the table or the clock (Driver.step, with strokes
    of their own); `eager`'s seat makes a move of `kinds` (the first it may) if it can."""
    snap = await driver.table.snapshot()
    if snap is None:
        return "over"
    playing = [s for s in seats if s in snap.seats]
    snap = dataclasses.replace(snap, rules=cast(Any, Keeping(snap.rules, snap.game)))
    legal = {seat: snap.rules.legal_actions(snap.state, seat) for seat in playing}
    wanted = [Move(seat, a.kind, dict(a.data)) for kind in kinds
              for seat in playing if driver.bots[seat].name == eager
              for a in legal[seat] if a.kind == kind]
    # Strokes first, half the time: the pictures are what the credit is about.
    strokes = [Move(seat, a.kind, dict(a.data)) for seat in playing
               for a in legal[seat] if a.kind == "stroke"]
    move: Move | RunOut | None
    if wanted:
        move = wanted[0]
    elif strokes and driver.rnd.random() < STROKE_BIAS:
        move = driver.rnd.choice(strokes)
    else:
        move = choose(snap, driver.rnd, seats=playing, p_time=p_time)
    if move is None:
        return "idle"
    if isinstance(move, RunOut):
        await driver.table.run_out(snap, move.deadline)
        return "time"
    if move.who is TABLE:
        if press_of(move.kind) is not None:
            await driver.table.press(move.kind)
        else:
            await driver.table.table_act(move.kind, move.data)
        return "table"
    bot = driver.bots[move.who]
    answer = await bot.act(move.kind, jittered(move, driver.rnd))
    if answer["type"] != "ack":
        return str(answer["code"])
    driver.drawn[(bot.name, move.kind)] += 1
    return "ack"


async def play_some(driver: PeopleDriver, seats: list[int], moves: int = MOVES) -> int:
    done = 0
    for _ in range(moves):
        what = await step(driver, seats)
        if what == "over":
            break
        if what == "idle":
            await asyncio.sleep(0.05)
        else:
            done += 1
    return done


async def play_until(driver: PeopleDriver, seats: list[int], name: str, kind: str) -> None:
    """Play until `name` has made a move of `kind` (a stroke; Broad Lines: a sheet with
    a stroke of theirs placed): their seat draws whenever it may, the others play and the
    hourglass runs out now and then, until it is their turn."""
    for _ in range(UNTIL_MOVES):
        if driver.drawn[(name, kind)]:
            return
        kinds = ("place", "stroke") if driver.drawn[(name, "stroke")] else ("stroke",)
        what = await step(driver, seats, 0.02, name, kinds)
        assert what != "over", f"the game ended before {name} could {kind}"
        if what == "idle":
            await asyncio.sleep(0.05)
    raise AssertionError(f"{name} had no turn to {kind} in {UNTIL_MOVES} moves")


def portrayer_of(snap: Snapshot | None) -> int | None:
    """Duplik's Portrayer of the round under way (None in the other games)."""
    now = getattr(snap.state, "round", None) if snap is not None else None
    return getattr(now, "portrayer", None)


async def seq_now(control: ControlTable) -> int:
    snap = await control.snapshot()
    assert snap is not None, "the match ended too soon"
    return snap.seq


async def play(box: Appliance, game: str) -> Played:
    played = Played()
    rnd = random.Random(f"people-{game}")
    jar = aiohttp.CookieJar(unsafe=True)  # the box is 127.0.0.1: keep its cookie anyway
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        control = ControlTable(box.data_dir / SOCKET_NAME)
        await control.open()
        try:
            host = HostPage(http, box.url)
            await host.post("login", {"pin": PIN})
            bots: dict[int, BotPhone] = {}
            for i in range(5):
                bot = BotPhone(http, box.url, f"P{i}", COLOURS[i])
                await bot.join(box.room)
                assert bot.seat == i
                bots[i] = bot
            driver = PeopleDriver(control, bots, rnd)
            driver.drawn = Counter()
            snap = await driver.start(game, OPTIONS.get(game, {}))
            played.match_id = snap.match_id
            await play_some(driver, list(bots), 4)
            await play_until(driver, list(bots), "P2", "stroke")  # handed over as he draws

            # 2. Seat 2 changes hands.
            await host.post("offer", {"seat": HANDED})
            fay = BotPhone(http, box.url, "Fay", COLOURS[5])
            await fay.join(box.room)
            assert fay.seat == HANDED, f"Fay took seat {fay.seat}, not the one handed over"
            played.fay_since = await seq_now(control)
            await bots[HANDED].drop()
            bots[HANDED] = driver.bots[HANDED] = fay
            await play_until(driver, list(bots), "Fay", KEEPS.get(game, "stroke"))
            await play_some(driver, list(bots), 6)

            # 3. P1 (or P4) is kicked; his phone says its old token, he stays out until let back.
            portrayer = portrayer_of(await control.snapshot())
            played.kicked = kicked = next(s for s in KICKED if s != portrayer)
            bo = bots[kicked]
            del driver.bots[kicked]
            await host.post("kick", {"seat": kicked})
            await bo.until_view(lambda v: all(s["seat"] != kicked for s in v["seats"]))
            await bo.drop()
            await play_some(driver, [s for s in bots if s != kicked], 4)
            await bo.connect()
            await bo.send({"type": "hello", "room": box.room, "token": bo.token})
            assert (await bo.welcome())["role"] == "guest"
            for name in (bo.name, "Someone"):  # his own name, or another on the same phone
                await bo.send({"type": "join", "name": name, "colour": COLOURS[6]})
                await wait_until(lambda: bool(bo.other_errors), f"{name} refused")
                refusal = bo.other_errors.pop()
                assert refusal["code"] == "kicked_out", refusal
                assert bo.welcomes.empty(), "a kicked player was seated"
            kiosk = await kiosk_view(control)
            assert all(s["seat"] != kicked for s in kiosk["seats"]), kiosk["seats"]
            assert kicked in kiosk["open_seats"]
            nobody = await host.post("let_back", {"name": "Nobody"}, status=404)
            assert nobody["error"]["code"] == "not_kicked", nobody
            state = await host.post("let_back", {"name": bo.name})
            assert state["view"].get("kicked", []) == [], state["view"].get("kicked")
            await bo.send({"type": "join", "name": bo.name, "colour": COLOURS[6]})
            welcome = await bo.welcome()
            assert (welcome["role"], welcome["seat"]) == ("player", kicked), welcome
            bo.token = welcome["token"]
            played.back_since = await seq_now(control)
            driver.bots[kicked] = bo
            await play_some(driver, list(bots))

            # 4. P3's tab closes while the game has something for her to do, and
            # nobody moves: the table must not wait for her for ever.
            portrayer = portrayer_of(await control.snapshot())
            played.closed = closed = next(s for s in CLOSED if s not in (portrayer, kicked))
            dee = bots[closed]
            closing = await control.snapshot()
            for _ in range(MOVES * 5):
                assert closing is not None, "the match ended before the tab could close"
                if closing.rules.legal_actions(closing.state, closed):
                    break
                await play_some(driver, list(bots), 1)
                closing = await control.snapshot()
            assert closing is not None
            played.seq_at_close = closing.seq
            others = [s for s in bots if s != closed]
            deadline = closing.rules.deadline(closing.state)
            played.waited_for_her = bool(closing.rules.legal_actions(closing.state, closed)) and (
                deadline is None or deadline.what not in ("hourglass", VOTE))
            await dee.drop()
            watcher = bots[0]

            def away(view: dict[str, Any]) -> dict[str, Any] | None:
                return next((a for a in view.get("away", []) if a["seat"] == closed), None)

            await watcher.until_view(lambda v: away(v) is not None, timeout=AWAY_S + SLACK_S)
            if played.waited_for_her:  # her count runs out: the rules go on without her
                await watcher.until_view(lambda v: (away(v) or {}).get("gone_on") is True,
                                         timeout=AWAY_S + SLACK_S)
            away_now = await control.snapshot()
            assert away_now is not None, "the match ended while P3 was away"
            assert choose(away_now, rnd, seats=others, p_time=0) is not None or (
                away_now.rules.deadline(away_now.state) is not None), "the table waits for P3"
            played.moves_while_away = await play_some(driver, others, 6)
            assert played.moves_while_away, "nobody could move while P3 was away"
            await dee.rejoin(box.room)
            await watcher.until_view(lambda v: v.get("away") == [], timeout=AWAY_S)
            await play_some(driver, list(bots), 6)

            # 5. The host ends the game early if it did not end by itself.
            if await control.snapshot() is not None:
                await host.post("end", {})
                played.ended_early = True
            assert await control.last_match() == played.match_id

            # The finish's credit is worked out off the loop, and its gallery's address
            # committed by the writer without the loop waiting: wait for both (Fay drew,
            # so her seat's pictures are credited; either missing after 10 s fails below).
            async def credited() -> bool:
                match = (await kiosk_view(control)).get("match") or {}
                return (match.get("id") == played.match_id and bool(match.get("credits"))
                        and bool(match.get("gallery_url")))
            with contextlib.suppress(AssertionError):
                await wait_until(credited, "the finish's credits", async_=True)
            played.kiosk = await kiosk_view(control)
            await watcher.until_view(
                lambda v: (v.get("match") or {}).get("credits") == played.kiosk["match"]["credits"])
            played.phone = watcher.view or {}
            for bot in bots.values():
                await bot.drop()
        finally:
            await control.close()
    return played


async def kiosk_view(control: ControlTable) -> dict[str, Any]:
    assert control.http is not None
    async with control.http.get("http://box/view") as response:
        response.raise_for_status()
        view: dict[str, Any] = (await response.json())["view"]
        return view


async def wait_until(predicate: Any, what: str, timeout: float = 10.0,
                     async_: bool = False) -> None:
    end = time.monotonic() + timeout
    while not (await predicate() if async_ else predicate()):
        assert time.monotonic() < end, f"waited {timeout} s for {what}"
        await asyncio.sleep(0.02)


# -- the credit, worked out from the log ------------------------------------------------


def in_turn(names: list[str]) -> str:
    """ "Bo", "Bo (then Fay)": each person once, in the order they came."""
    names = list(dict.fromkeys(names))
    return names[0] + "".join(
        f"{' (' if i == 0 else ', '}then {n}" for i, n in enumerate(names[1:])
    ) + (")" if len(names) > 1 else "")


def holder_at(played: Played, seat: int, seq: int) -> str:
    """Who held `seat` when the log's move `seq` was made, by the test's own record."""
    if seat == HANDED and seq >= played.fay_since:
        return "Fay"
    return f"P{seat}"


def seat_holders(seat: int) -> list[str]:
    """Everyone who held `seat` (P1, kicked and let back into it, is still one person)."""
    return ["P2", "Fay"] if seat == HANDED else [f"P{seat}"]


def seat_credit(seat: int) -> str:
    return in_turn(seat_holders(seat))


def as_printed(points: float) -> str:
    """A score as the pages print it: 3 (not 3.0), a half card 3½ (not 3.5)."""
    whole = int(points)
    if points == whole:
        return str(whole)
    return f"{whole or ''}½" if points - whole == 0.5 else str(points)


@dataclass(frozen=True)
class Expected:
    round: int
    by_seat: tuple[tuple[int, str], ...]  # each seat of the picture and who drew its part
    credit: str  # who drew the picture
    word: str  # what it shows (English), or ""


def expected_drawings(
    played: Played, record: MatchRecord, logged: list[LoggedAction]
) -> list[Expected]:
    """Each kept picture of the match, and who drew it: every stroke of it found in the
    log (its seat and seq), credited to whoever held that seat then."""
    rules = registry.get(record.game)
    state = rules.setup(record.seats, record.options, record.seed)
    states = [state]
    for entry in logged:
        if rules.outcome(state) is not None:
            break
        state = rules.apply(state, entry.action)
        states.append(state)
    kept = registry.house(record.game).keep(iter(states))
    logged_at: dict[tuple[tuple[int, ...], ...], list[tuple[int, int]]] = {}
    for entry in logged:
        points = entry.action.data.get("points")
        if entry.action.seat is not None and isinstance(points, list):
            key = tuple(tuple(p) for p in points)
            logged_at.setdefault(key, []).append((entry.action.seat, entry.seq))
    found = []
    for picture in kept.pictures:
        drew: dict[int, list[str]] = {seat: [] for seat in picture.artists}
        for stroke in picture.strokes:
            key = tuple(tuple(p) for p in stroke_to_data(stroke)["points"])
            made = logged_at.get(key)
            assert made is not None, f"round {picture.round}: a stroke not in the log"
            assert len(made) == 1, f"round {picture.round}: a stroke logged twice: {made}"
            seat, seq = made[0]
            assert seat in drew, f"round {picture.round}: seat {seat}'s stroke"
            drew[seat].append(holder_at(played, seat, seq))
        # A seat with no stroke of its own in the picture: all who held it.
        names = {seat: made or seat_holders(seat) for seat, made in drew.items()}
        by_seat = tuple((seat, in_turn(made)) for seat, made in names.items())
        everyone = [n for made in names.values() for n in made]
        word = picture.caption.en if picture.caption is not None else ""
        found.append(Expected(picture.round, by_seat, in_turn(everyone), word))
    return found


# -- the test -----------------------------------------------------------------------------


@pytest.fixture
def people_box(tmp_path: Path) -> Iterator[Appliance]:
    box = Appliance(tmp_path, module="tests.serve_bots")
    box.env.update(
        EASEL_HOST_PIN=PIN,
        EASEL_TABLE_AWAY_AFTER_S=str(AWAY_S),
        EASEL_TABLE_AWAY_WAIT_S=str(AWAY_S),
        EASEL_TEST_CLOCK_OFFSET="0",
    )
    try:
        box.start()
        yield box
    finally:
        box.stop()


@pytest.mark.parametrize("game", GAMES)
def test_people_come_and_go_and_every_screen_credits_the_log(
    people_box: Appliance, browser: Any, game: str
) -> None:
    from playwright.sync_api import expect

    registry.load_all()
    box = people_box
    with ThreadPoolExecutor(1) as pool:  # the bots' loop, beside Playwright's own
        played = pool.submit(asyncio.run, play(box, game)).result(timeout=120)

    store = Store(box.data_dir / DB_NAME)
    try:
        record = store.match(played.match_id)
        logged = store.actions(played.match_id)
        token = store.gallery_token(played.match_id)
    finally:
        store.close()
    assert record is not None
    assert token is not None, (
        f"no gallery in the store for match {played.match_id}; the kiosk says "
        f"{played.kiosk['match'].get('gallery_url')}")

    # The store's roster says who held which seat from when, as the test saw it happen.
    roster = record.people
    kicked_name = f"P{played.kicked}"
    assert [(h.name, h.since) for h in roster.of(HANDED)] == [
        ("P2", 0), ("Fay", played.fay_since)]
    assert [(h.name, h.since) for h in roster.holders if h.seat == played.kicked] == [
        (kicked_name, 0), (kicked_name, played.back_since)]  # back in his seat
    assert {h.name for h in roster.of(played.kicked)} == {kicked_name}, roster.of(played.kicked)
    assert roster.credit(played.kicked) == kicked_name, "kicked and let back: still one person"
    # The closed tab: away and back, and the game did not wait for her.
    kinds = [(e.action.kind, e.action.data.get("seat")) for e in logged
             if e.seq >= played.seq_at_close]
    if played.waited_for_her:
        assert (SEAT_LEFT, played.closed) in kinds and (SEAT_BACK, played.closed) in kinds, (
            kinds)
    back = (SEAT_BACK, played.closed)
    if back in kinds:  # back, she is not left again
        assert (SEAT_LEFT, played.closed) not in kinds[kinds.index(back):], kinds

    expected = expected_drawings(played, record, logged)
    seat_two = [name for e in expected for seat, name in e.by_seat if seat == HANDED]
    assert any("Fay" in name for name in seat_two), f"{game}: Fay drew nothing: {seat_two}"
    seats = sorted({s.seat for s in record.seats})

    # (d) The kiosk's finish and a phone's: the seats by all their holders, each
    # handed-over seat's pictures by who drew them.
    for view in (played.kiosk, played.phone):
        match = view["match"]
        assert {s["seat"]: s["name"] for s in match["seats"]} == {
            s: seat_credit(s) for s in seats}
        credits = [(c["round"], c["seat"], c["name"]) for c in match["credits"]]
        assert [c for c in credits if c[1] == HANDED] == [
            (e.round, seat, name) for e in expected for seat, name in e.by_seat
            if seat == HANDED]
        for rnd, seat, name in credits:
            if seat != HANDED:
                assert name == seat_credit(seat), (rnd, seat, name)

    from tests.browser import PHONE

    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        # (a) The gallery page: each picture by who drew it, round by round.
        page.goto(f"{box.url}/gallery/{token}")
        expect(page.locator("main figure").first).to_be_visible(timeout=WAIT_MS)
        shown = page.locator("section.round").evaluate_all(
            """sections => sections.map(s => [s.querySelector('h2').textContent,
                 [...s.querySelectorAll('figure:not(.scene) figcaption span')]
                   .map(x => x.textContent)])""")
        rounds = sorted({e.round for e in expected})
        assert shown == [
            [f"Round {r}", [f"by {e.credit}" for e in expected if e.round == r]]
            for r in rounds if any(e.round == r for e in expected)
        ]
        page.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-gallery-people.png"),
                        full_page=True)
        # (b) The zip: each picture's file named by who drew it.
        response = page.request.get(f"{box.url}/gallery/{token}/all.zip")
        assert response.ok
        # In the gallery's order (the pictures' own), each named by who drew it.
        names = [n for n in zipfile.ZipFile(io.BytesIO(response.body())).namelist()
                 if "-scene." not in n]
        bases = [f"round-{e.round:02d}-{slug(e.credit)}" + (f"-{slug(e.word)}" if e.word else "")
                 for e in expected]
        assert len(names) == len(bases), (names, bases)
        for name, base in zip(names, bases, strict=True):  # (-2: a second of that name)
            assert re.fullmatch(re.escape(base) + r"(-\d+)?\.png", name), (name, base)

        # (c) The host page's "Today's games": the seat's score is P2's and Fay's.
        page.goto(f"{box.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-button")
        row = page.locator(f'#results li[data-match="{played.match_id}"]')
        expect(row).to_be_visible(timeout=WAIT_MS)
        text = row.inner_text()
        outcome = record.outcome
        assert outcome is not None, "an early end keeps what was played (issue 27)"
        if played.ended_early:
            assert "ended early" in text, text
        # Best first, as the host page lists them.
        ranked = sorted(outcome["scores"], key=lambda pair: -pair[1])
        # As the page prints a number: 3, not 3.0; a half card 3½, as on the phones.
        scores = " · ".join(f"{seat_credit(s)} {as_printed(v)}" for s, v in ranked)
        if registry.house(game).together:
            # The table's count, nobody's win, and who played it (issue 31).
            assert "played together" in text and " won" not in text, text
            assert " · ".join(seat_credit(s) for s, _ in ranked) in text, text
        else:
            assert scores in text, (scores, text)
        if outcome["winners"] and not registry.house(game).together:
            winners = ", ".join(seat_credit(w) for w in outcome["winners"])
            assert f"{winners} won" in text, (winners, text)
        assert "Fay " not in text.replace("then Fay", ""), text  # never Fay's alone
        page.screenshot(path=str(SCREENSHOT_DIR / f"easel-{game}-host-results-people.png"),
                        full_page=True)
    finally:
        context.close()
    box.kiosk_png(SCREENSHOT_DIR / f"easel-{game}-kiosk-people.png")
