"""Oracle bots: phones that play any registered game over real WebSockets.

A phone only sees its own view, which is not enough to pick a legal move in every game;
so the bots ask an oracle, the game's own rules (`rules.legal_actions(state, seat)`) on
the match's current state, as the conformance suite's playouts do. The state comes from
a `Table`: in-process (`InProcessTable`, reading `session.match` of an `Appliance` in the
test's own loop) or from a real appliance process (`ControlTable`, through the test-only
control socket of tests/serve_bots.py). The table also does what no phone can: press the
table's buttons, send the kiosk's table actions, and move the clock so an hourglass runs
out by itself.

`BotPhone` speaks docs/protocol.md like the phone page: hello with its token after a
drop, a unique `id` on every act, and after a reconnect it resends its unanswered act
with the same id (the box must apply it at most once). It keeps only its newest view, so
a day of play does not pile up in the test's memory.

`Driver.step` makes one move: the oracle lists every seat's (and the table's) legal
actions, picks one at random (moves that only stall a game, such as re-reading a
criterion, are picked rarely, so games end), and sends it through the right channel.
Every game registered with `games.registry` is driven the same way; `SPEED_OPTIONS`
only shortens the games that have a length option.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp

from games import registry
from games.core import TABLE, Deadline, Rules

# Moves that keep a game where it is (re-read, undo, hint, propose and refuse to give up):
# picked with a small weight, else random bots talk for ever and never finish a game.
DAWDLE = frozenset(
    {
        "reread", "hint", "undo", "clear", "unguess", "ask_other", "use_panel",
        "propose_give_up", "refuse_give_up", "dispute", "contest", "nothing_fits",
        "hold_hourglass",
    }
)
DAWDLE_WEIGHT = 0.08

# Start options that make a game short where it has a length (docs/<game>.md); a game
# not listed starts with the box's defaults, so a newly registered game just runs.
SPEED_OPTIONS: dict[str, dict[str, Any]] = {
    "duplik": {"turns": 1},
    "broad-lines": {"sheets": 6},
}

PACE_RATE = 30.0  # messages a second, per phone
PACE_BURST = 100.0

COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")


def game_ids() -> list[str]:
    """Every game the box can start (the rotation of a day's play); not the tests' toy."""
    from tests.toygame import RULES as TOY

    return [r.id for r in registry.load_all() if r.id != TOY.id]


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# -- the oracle -------------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The running match as the rules see it."""

    match_id: int
    game: str
    rules: Rules[Any]
    state: Any
    seq: int  # the next action's seq: how many actions the match has logged
    now: float  # the match's clock
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Move:
    who: int | None  # a seat, or TABLE
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunOut:
    """Let the hourglass run out: nobody moves, the clock passes the deadline."""

    deadline: Deadline


def choose(
    snap: Snapshot,
    rnd: random.Random,
    *,
    seats: Iterable[int] | None = None,
    p_time: float = 0.08,
) -> Move | RunOut | None:
    """One legal move for `seats` (default: every seat) or the table, or let time run out.

    None: nobody who may act has anything to do and no hourglass runs (the game waits).
    """
    rules, state = snap.rules, snap.state
    who: list[int | None] = [*(snap.seats if seats is None else seats), TABLE]
    groups: dict[tuple[int | None, str], list[Move]] = {}
    for seat in who:
        for action in rules.legal_actions(state, seat):
            groups.setdefault((seat, action.kind), []).append(
                Move(seat, action.kind, dict(action.data))
            )
    deadline = rules.deadline(state)
    if deadline is not None and (not groups or rnd.random() < p_time):
        return RunOut(deadline)
    if not groups:
        return None
    keys = list(groups)
    weights = [DAWDLE_WEIGHT if kind in DAWDLE else 1.0 for _, kind in keys]
    (key,) = rnd.choices(keys, weights)
    return rnd.choice(groups[key])


# -- the phone --------------------------------------------------------------------------


class Dropped(ConnectionError):
    """The WebSocket closed before the box answered."""


class BotPhone:
    """One phone: its seat, its token, its newest view, and every id it sent and heard of."""

    _ids = itertools.count()

    def __init__(self, http: aiohttp.ClientSession, url: str, name: str, colour: str) -> None:
        self.http = http
        self.url = url
        self.name = name
        self.colour = colour
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task[None] | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.view_changed = asyncio.Event()
        self.welcomes: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.unanswered: dict[str, tuple[str, dict[str, Any]]] = {}  # sent, no ack/error
        self.acked: list[str] = []
        self.refused: list[tuple[str, str]] = []  # (id, code)
        self.other_errors: list[dict[str, Any]] = []  # errors not about an act
        self.kicked: list[dict[str, Any]] = []
        # The box drops what a phone sends over its flood limit (appliance/system/ratelimit.py:
        # 40 a second, bursts of 160): a bot keeps under it, as a person's taps do.
        self._tokens = PACE_BURST
        self._stamp = time.monotonic()

    def new_id(self) -> str:
        return f"{self.name}-{next(self._ids)}"

    # -- the socket ---------------------------------------------------------------------
    async def connect(self) -> None:
        self.ws = await self.http.ws_connect(self.url + "/ws", autoping=True)
        self.view = None
        self.reader = asyncio.create_task(self._read(self.ws))

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data: dict[str, Any] = json.loads(msg.data)
                kind = data["type"]
                if kind == "view":
                    self.view = data
                    self.view_changed.set()
                elif kind == "welcome":
                    self.welcomes.put_nowait(data)
                elif kind in ("ack", "error"):
                    ref = data.get("id") if kind == "ack" else data.get("ref")
                    future = self.waiting.pop(ref, None) if ref is not None else None
                    if future is not None and not future.done():
                        future.set_result(data)
                    elif kind == "error" and ref is None:
                        self.other_errors.append(data)
                elif kind == "kicked":
                    self.kicked.append(data)
        except (aiohttp.ClientError, ConnectionError):
            pass
        finally:
            for future in self.waiting.values():
                if not future.done():
                    future.set_exception(Dropped("the connection closed"))
            self.waiting.clear()

    async def send(self, message: dict[str, Any]) -> None:
        now = time.monotonic()
        self._tokens = min(PACE_BURST, self._tokens + (now - self._stamp) * PACE_RATE)
        self._stamp = now
        if self._tokens < 1.0:
            await asyncio.sleep((1.0 - self._tokens) / PACE_RATE)
            self._tokens, self._stamp = 1.0, time.monotonic()
        self._tokens -= 1.0
        assert self.ws is not None
        await self.ws.send_str(json.dumps(message))

    async def drop(self) -> None:
        """The phone goes away (Wi-Fi lost, lock screen): the socket is simply gone."""
        ws, reader = self.ws, self.reader
        self.ws = self.reader = None
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(reader, 5)

    async def welcome(self, timeout: float = 10.0) -> dict[str, Any]:
        return await asyncio.wait_for(self.welcomes.get(), timeout)

    async def join(self, room: str) -> dict[str, Any]:
        await self.connect()
        await self.send({"type": "hello", "room": room, "token": None})
        await self.welcome()
        await self.send({"type": "join", "name": self.name, "colour": self.colour})
        welcome = await self.welcome()
        assert welcome["role"] == "player", welcome
        self.token, self.seat = welcome["token"], welcome["seat"]
        return welcome

    async def rejoin(self, room: str = "") -> dict[str, Any]:
        """Come back with the token (a new socket), then resend what went unanswered."""
        await self.connect()
        await self.send({"type": "hello", "room": room, "token": self.token})
        welcome = await self.welcome()
        assert (welcome["role"], welcome["seat"]) == ("player", self.seat), (
            f"{self.name} came back as {welcome}, not in seat {self.seat}"
        )
        return welcome

    async def resend(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Send every unanswered act again with its own id; the box applies it at most once."""
        answers = []
        for action_id, (kind, data) in list(self.unanswered.items()):
            answers.append(await self.act(kind, data, action_id, timeout))
        return answers

    # -- moves --------------------------------------------------------------------------
    def fire(self, kind: str, data: Mapping[str, Any], action_id: str | None = None
             ) -> tuple[str, asyncio.Future[dict[str, Any]]]:
        """Send an act without waiting: (its id, the future of its ack or error)."""
        action_id = action_id or self.new_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[action_id] = future
        self.unanswered[action_id] = (kind, dict(data))
        message = {"type": "act", "id": action_id, "kind": kind, "data": dict(data)}

        async def go() -> None:
            try:
                await self.send(message)
            except Exception as err:  # the socket is gone: the act never left the phone
                self.waiting.pop(action_id, None)
                if not future.done():
                    future.set_exception(Dropped(str(err)))

        asyncio.get_running_loop().create_task(go())
        return action_id, future

    def settle(self, action_id: str, answer: dict[str, Any]) -> str:
        """Book the box's answer to an act: 'ack' or the error's code."""
        self.unanswered.pop(action_id, None)
        if answer["type"] == "ack":
            self.acked.append(action_id)
            return "ack"
        self.refused.append((action_id, answer["code"]))
        return str(answer["code"])

    async def act(
        self, kind: str, data: Mapping[str, Any], action_id: str | None = None,
        timeout: float = 10.0,
    ) -> dict[str, Any]:
        """Send one act and wait for its ack or error (raises Dropped if the socket goes)."""
        action_id, future = self.fire(kind, data, action_id)
        answer = await asyncio.wait_for(future, timeout)
        self.settle(action_id, answer)
        return answer

    async def until_view(self, predicate: Any, timeout: float = 10.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.view is None or not predicate(self.view):
            self.view_changed.clear()
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no view matched; the last was {self.view}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.view_changed.wait(), left)
        return self.view


# -- the table: the oracle's state, the buttons and the clock ---------------------------


class Table(Protocol):
    async def snapshot(self) -> Snapshot | None: ...

    async def last_match(self) -> int | None: ...

    async def press(self, kind: str) -> bool: ...

    async def table_act(self, kind: str, data: Mapping[str, Any]) -> bool: ...

    async def run_out(self, snap: Snapshot, deadline: Deadline) -> None: ...


def press_of(kind: str) -> tuple[str, bool] | None:
    """('hourglass', True) for 'hold_hourglass': the button behind a table kind, if any."""
    for prefix, long in (("press_", False), ("hold_", True)):
        if kind.startswith(prefix):
            return kind[len(prefix):], long
    return None


class InProcessTable:
    """An `Appliance` running in the test's own loop, with a clock the test moves."""

    def __init__(self, app: Any, clock: Any, nudge: bool = True) -> None:
        self.app = app
        self.session = app.session
        self.clock = clock  # tests.conftest.FakeClock: moves only when told
        self.nudge = nudge

    async def snapshot(self) -> Snapshot | None:
        match = self.session.match
        if match is None:
            return None
        return Snapshot(
            match.record.id,
            match.record.game,
            match.rules,
            match.state,
            match.next_seq,
            self.session.match_clock(match),
            tuple(s.seat for s in match.record.seats),
        )

    async def last_match(self) -> int | None:
        last = self.session.last_match
        return None if last is None else int(last.record.id)

    async def press(self, kind: str) -> bool:
        button = press_of(kind)
        assert button is not None
        return bool(self.session.press(*button))

    async def table_act(self, kind: str, data: Mapping[str, Any]) -> bool:
        from appliance.table.session import SessionError

        try:
            self.session.act(None, kind, data)
        except SessionError:
            return False
        return True

    async def run_out(self, snap: Snapshot, deadline: Deadline, wait: float = 5.0) -> None:
        """Move the clock past the deadline; the appliance's own timer sends TIME_UP.

        Without `nudge` this waits for the timer's next look (at most a second); with it,
        the timer is re-planned at once, as after any change of the match.
        """
        self.clock.advance(max(0.0, deadline.at - snap.now) + 0.01)
        if self.nudge:
            self.app._schedule_tick()
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        while loop.time() < end:
            now = await self.snapshot()
            if now is None or now.match_id != snap.match_id or now.seq > snap.seq:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"the hourglass of match {snap.match_id} did not run out")


class ControlTable:
    """A real appliance process, through the control socket of tests/serve_bots.py."""

    def __init__(self, socket_path: Path) -> None:
        self.socket_path = socket_path
        self.offset = 0.0  # the clock offset to hand back at the next start
        self.http: aiohttp.ClientSession | None = None

    async def open(self) -> None:
        await self.close()
        self.http = aiohttp.ClientSession(
            connector=aiohttp.UnixConnector(path=str(self.socket_path)),
            timeout=aiohttp.ClientTimeout(total=10),
        )

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()
            self.http = None

    async def _call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        assert self.http is not None
        async with self.http.request(method, "http://box" + path, json=body) as response:
            response.raise_for_status()
            data: dict[str, Any] = await response.json()
        self.offset = float(data["offset"])
        return data

    @staticmethod
    def _snap(body: dict[str, Any]) -> Snapshot | None:
        match = body["match"]
        if match is None:
            return None
        rules = registry.get(match["game"])
        return Snapshot(
            match["id"], match["game"], rules, rules.from_json(match["state"]),
            match["seq"], match["now"], tuple(match["seats"]),
        )

    async def snapshot(self) -> Snapshot | None:
        return self._snap(await self._call("GET", "/state"))

    async def last_match(self) -> int | None:
        last = (await self._call("GET", "/state"))["last"]
        return None if last is None else int(last)

    async def press(self, kind: str) -> bool:
        button = press_of(kind)
        assert button is not None
        body = await self._call("POST", "/press", {"button": button[0], "long": button[1]})
        return bool(body["applied"])

    async def table_act(self, kind: str, data: Mapping[str, Any]) -> bool:
        body = await self._call("POST", "/act", {"kind": kind, "data": dict(data)})
        return bool(body["applied"])

    async def run_out(self, snap: Snapshot, deadline: Deadline, wait: float = 5.0) -> None:
        await self._call("POST", "/advance", {"seconds": max(0.0, deadline.at - snap.now) + 0.01})
        loop = asyncio.get_running_loop()
        end = loop.time() + wait
        while loop.time() < end:
            now = await self.snapshot()
            if now is None or now.match_id != snap.match_id or now.seq > snap.seq:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"the hourglass of match {snap.match_id} did not run out")


# -- the driver -------------------------------------------------------------------------


@dataclass
class Tally:
    acts: int = 0
    refused: int = 0
    presses: int = 0
    table_acts: int = 0
    time_ups: int = 0
    idle: int = 0
    matches: int = 0
    finished: int = 0


class Driver:
    """Plays whatever match runs: one oracle-chosen move per `step`."""

    def __init__(self, table: Table, bots: Mapping[int, BotPhone], rnd: random.Random) -> None:
        self.table = table
        self.bots = dict(bots)  # seat -> phone
        self.rnd = rnd
        self.tally = Tally()
        self.last: Snapshot | None = None  # the newest state the oracle saw
        # The first to join is the host (the VIP) as long as they stay seated.
        self.host = self.bots[min(self.bots)]

    async def start(self, game: str, options: Mapping[str, Any] | None = None) -> Snapshot:
        """The host phone selects `game` and starts it; returns the new match."""
        before = await self.table.snapshot()
        assert before is None, f"match {before.match_id} is still running"
        opts = dict(SPEED_OPTIONS.get(game, {}) if options is None else options)
        await self.host.send({"type": "select", "game": game})
        await self.host.send({"type": "start", "options": opts})
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while loop.time() < end:
            snap = await self.table.snapshot()
            if snap is not None:
                assert snap.game == game, (snap.game, game)
                self.tally.matches += 1
                self.last = snap
                return snap
            await asyncio.sleep(0.01)
        raise AssertionError(f"{game} did not start: {self.host.other_errors[-3:]}")

    async def end(self) -> None:
        """The host ends the running match early (its log is kept)."""
        snap = await self.table.snapshot()
        if snap is None:
            return
        await self.host.send({"type": "end"})
        loop = asyncio.get_running_loop()
        end = loop.time() + 10
        while loop.time() < end:
            if await self.table.snapshot() is None:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"match {snap.match_id} did not end: {self.host.other_errors[-3:]}")

    async def step(self, seats: Iterable[int] | None = None, p_time: float = 0.08) -> str:
        """One move by `seats` (default: all the bots' seats) or the table or the clock.

        Returns what happened: 'ack', an error code, 'press', 'table', 'time', 'idle'
        (nothing to do now) or 'over' (no match runs).
        """
        snap = await self.table.snapshot()
        self.last = snap
        if snap is None:
            return "over"
        allowed = [s for s in (self.bots if seats is None else seats) if s in snap.seats]
        move = choose(snap, self.rnd, seats=allowed, p_time=p_time)
        if move is None:
            self.tally.idle += 1
            return "idle"
        if isinstance(move, RunOut):
            await self.table.run_out(snap, move.deadline)
            self.tally.time_ups += 1
            return "time"
        if move.who is TABLE:
            if press_of(move.kind) is not None:
                await self.table.press(move.kind)
                self.tally.presses += 1
                return "press"
            await self.table.table_act(move.kind, move.data)
            self.tally.table_acts += 1
            return "table"
        answer = await self.bots[move.who].act(move.kind, move.data)
        if answer["type"] == "ack":
            self.tally.acts += 1
            return "ack"
        self.tally.refused += 1
        return str(answer["code"])

    def pick(self, snap: Snapshot, seats: Iterable[int]) -> Move | None:
        """A phone move for one of `seats` now (for acts fired without waiting)."""
        move = choose(snap, self.rnd, seats=seats, p_time=0.0)
        if isinstance(move, Move) and move.who is not TABLE:
            return move
        return None


async def wait_for(predicate: Any, timeout: float = 10.0, what: str = "a condition") -> None:
    """Poll an async predicate until it holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await predicate():
        if loop.time() > end:
            raise TimeoutError(f"waited {timeout} s for {what}")
        await asyncio.sleep(0.01)
