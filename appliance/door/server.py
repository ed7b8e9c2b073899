"""The phones' side of the box: aiohttp serving the phone page, `/ws` and `/healthz`.

Every WebSocket message is size-checked, then schema-checked (msgspec) before the
session sees it; anything refused is answered with an `error` naming the problem, on
that connection only, and the connection stays open. Views go out through
`Session.view_for`, one per viewer, encoded once for all its phones and sent in pieces as
each phone takes them (`PhoneServer._stream`); a slow phone gets only the newest view,
never a backlog. Past its address's WebSockets a socket gets in only with a seated
token (`PhoneServer._off_probation`). See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import socket
import sqlite3
import struct
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar, cast
from urllib.parse import urlsplit

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError

from appliance.door import phone_games
from appliance.door.action_check import InvalidMove, check_move
from appliance.system import memory
from appliance.system.config import Config
from appliance.system.ratelimit import (
    AddressCounter,
    FailureLimiter,
    Limits,
    TokenBucket,
    client_key,
)
from appliance.table.messages import say
from appliance.table.packs import DECK_OPTIONS
from appliance.table.roster import person_of
from appliance.table.session import (
    KIOSK,
    Done,
    Session,
    SessionError,
    Viewer,
    Welcome,
    WrongRoom,
    hash_token,
)
from games.sheet import StrokeData

log = logging.getLogger("easel.server")
T = TypeVar("T")

STATIC_DIR: Final = Path(__file__).parents[1] / "web" / "static"
# aiohttp closes the socket above this; below it we answer `too_big` and keep the
# connection, so a phone learns why its drawing did not arrive. The limit in force is
# `Limits.hard_message_factor` x `[server] max_message_bytes`, never more than this.
HARD_LIMIT: Final = 16 * 1024 * 1024
TRIM_AFTER_BYTES: Final = 8 * 1024 * 1024
"""Once sockets held this much unsent or unfinished and let go of nearly all of it, the
sweep hands the freed heap back (appliance/system/memory.py)."""
CUT_CLOSE_S: Final = 1.0
"""A socket cut for memory: how long its close frame (saying why) has before it is
aborted; its unfinished bytes count until then."""
TRIM_EVERY_S: Final = 1.5
"""While sockets are cut for the box's memory, how often the heap is trimmed (after the
1 s a cut socket is given for its close frame)."""
COUNTED: Final = frozenset({WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.PING, WSMsgType.PONG})
"""What a socket sends that counts towards its messages a second: WebSocket pings and
pongs too (answered by aiohttp itself, a flood of them went unmetered: 8000 a second
from two addresses held an honest phone's ping for 0.1 s)."""
READ_LATER_S: Final = 1.0
"""How long a socket over its messages a second is not read (nothing is lost: TCP
holds it; its bucket has 40 messages again by then)."""
IN_A_ROW: Final = 16
"""Messages one socket's reader handles before it lets the loop's other work run."""
OVER_REQUESTS: Final = web.RequestKey("over_requests", bool)
"""Set on a WebSocket's request past its address's requests a second (`_flood_guard`)."""
YIELD_AFTER_BYTES: Final = 256 * 1024
"""Bytes of a view written to one socket before the loop's other work runs (`_stream`)."""
PROBATION_HELLO_S: Final = 2.0
"""How long a socket opened past its address's WebSockets has to say hello (a phone
says it at once)."""
HELD_VIEW_RETRY_S: Final = 0.25
"""How soon a view held back for its address's unsent bytes is looked at again."""
VIEW_PIECE: Final = 32 * 1024
"""A view longer than this goes in frames of this size, each once the phone took the last
(`PhoneServer._stream`): what the box holds for one phone of a megabytes view."""
SWEEP_S: Final = 5.0
"""How often (at most) the sockets are looked at for a phone that stopped taking what it
is sent (`Limits.stall_s`)."""
SEND_BUFFER: Final = 256 * 1024
"""The kernel's send buffer of a phone's WebSocket (SO_SNDBUF; Linux keeps twice it)."""
PRE_HELLO_READ: Final = 16 * 1024
"""More than this in one read before hello: not a phone saying hello; not even parsed."""
BOX_ITSELF: Final = frozenset({"127.0.0.1", "::1"})
"""Addresses of the box itself (a browser on the kiosk, a proxy on the box, the tests):
the per-address caps (TCP connections, unfinished bytes, seats) do not count them, as
they would stand for every phone at once; per-connection limits still apply."""

Short = Annotated[str, msgspec.Meta(max_length=64)]


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True):
    room: Annotated[str, msgspec.Meta(max_length=16)]
    token: Annotated[str, msgspec.Meta(max_length=128)] | None = None


class Join(msgspec.Struct, tag="join", forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=200)]
    colour: Annotated[str, msgspec.Meta(max_length=16)]


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True):
    pass


class Kick(msgspec.Struct, tag="kick", forbid_unknown_fields=True):
    seat: Annotated[int, msgspec.Meta(ge=0, le=63)]


class Select(msgspec.Struct, tag="select", forbid_unknown_fields=True):
    game: Short


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True):
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class End(msgspec.Struct, tag="end", forbid_unknown_fields=True):
    pass


class Finish(msgspec.Struct, tag="finish", forbid_unknown_fields=True):
    """The host phone moves on from a game's finish: to the lobby, or `again`."""

    again: bool = False


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True):
    id: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=32)]
    # Checked against the running game's declaration of `kind` (appliance/door/action_check.py).
    data: msgspec.Raw = msgspec.field(default_factory=lambda: msgspec.Raw(b"{}"))


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True):
    pass


Message = Hello | Join | Leave | Kick | Select | Start | End | Finish | Act | Ping
MESSAGE_TYPES: Final = (
    "hello", "join", "leave", "kick", "select", "start", "end", "finish", "act", "ping"
)
_decoder = msgspec.json.Decoder(Message)
_encode = msgspec.json.Encoder().encode


ViewPieces = tuple[bytes | msgspec.Raw, ...]
"""A view's JSON in pieces (joined, the whole text): its own bytes and shared big parts."""


class SharedParts:
    """Views encoded with their big shared parts encoded once.

    A finished game's art show (every round's drawings: megabytes for a long game) is
    one list in every seat's view, and stays the same object version after version while
    the finish is held (the rules make it once per finished state). Encoded inline, it
    would be encoded again for every phone at every change of the table, on the loop
    that serves them all; here a list in a match's state whose JSON is over SHARED_BYTES
    is kept as `msgspec.Raw` by identity (the object is held, so its id is not reused)
    for the next viewer and the next version. Views are never changed once built.

    Strokes are kept the same way, one by one: a stroke's data (games.sheet.StrokeData)
    is one object for as long as the stroke lives (Stroke.data), so each is encoded once,
    when first sent, and a view of a picture costs a copy of its strokes' bytes, not an
    encoding of every point again at every stroke anyone draws. Kept up to STROKE_BYTES
    of JSON (a whole match's log fits: its budget is 8 MB), the least recent dropped."""

    SHARED_BYTES: Final = 16 * 1024
    KEPT: Final = 8
    STROKE_BYTES: Final = 12 * 1024 * 1024

    def __init__(self) -> None:
        self._raw: OrderedDict[int, tuple[object, msgspec.Raw]] = OrderedDict()
        self._strokes: OrderedDict[int, tuple[StrokeData, msgspec.Raw]] = OrderedDict()
        self._stroke_bytes = 0
        self.encoded = 0  # big parts encoded (not found kept): for tests and benchmarks
        self.strokes_encoded = 0  # strokes encoded (not found kept): for tests, benchmarks

    def encode(self, view: dict[str, Any]) -> bytes:
        return b"".join(self.pieces(view))

    def pieces(self, view: dict[str, Any]) -> ViewPieces:
        """`view` encoded as pieces that joined are its JSON: its own bytes between the
        kept big parts, which are the very objects kept here (never copied per viewer,
        version or socket: a socket sending a view holds references, see `_stream`)."""
        match = view.get("match")
        if not isinstance(match, dict):
            return (_encode(view),)
        state = match.get("state")
        if not isinstance(state, dict) or not any(
                isinstance(v, list) and v for v in state.values()):
            return (_encode(view),)
        parts = {k: self._part(v) for k, v in state.items() if isinstance(v, list) and v}
        big = [raw for raw in parts.values() if len(raw) > self.SHARED_BYTES]
        if not big:
            return (_encode({**view, "match": {**match, "state": {**state, **parts}}}),)
        # Each big part is encoded as a mark, and the view's bytes are cut there. JSON as
        # msgspec writes it has no NUL byte (in a string it is escaped as \u0000), so a
        # NUL marks only these places.
        marks = {id(raw): msgspec.Raw(b"\0%d\0" % n) for n, raw in enumerate(big)}
        marked = {k: marks.get(id(raw), raw) for k, raw in parts.items()}
        cut = _encode({**view, "match": {**match, "state": {**state, **marked}}}).split(b"\0")
        pieces: list[bytes | msgspec.Raw] = []
        for n, piece in enumerate(cut):
            pieces.append(big[int(piece)] if n % 2 else piece)
        return tuple(p for p in pieces if len(p))

    def _part(self, value: list[Any]) -> msgspec.Raw:
        kept = self._raw.get(id(value))
        if kept is not None and kept[0] is value:
            self._raw.move_to_end(id(value))
            return kept[1]
        raw = msgspec.Raw(_encode(self._with_strokes(value)))
        if len(raw) > self.SHARED_BYTES:
            self.encoded += 1
            self._raw[id(value)] = (value, raw)
            while len(self._raw) > self.KEPT:
                self._raw.popitem(last=False)
        return raw

    def _with_strokes(self, node: Any) -> Any:
        """`node` with every stroke in it as its kept JSON (its points are not walked)."""
        if isinstance(node, StrokeData):
            return self._stroke(node)
        if isinstance(node, list):
            return [self._with_strokes(v) for v in node]
        if isinstance(node, dict):
            return {k: self._with_strokes(v) for k, v in node.items()}
        return node

    def _stroke(self, stroke: StrokeData) -> msgspec.Raw:
        kept = self._strokes.get(id(stroke))
        if kept is not None and kept[0] is stroke:
            self._strokes.move_to_end(id(stroke))
            return kept[1]
        raw = msgspec.Raw(_encode(stroke))
        self.strokes_encoded += 1
        if kept is not None:  # an id reused by a stroke that came after a dropped one
            del self._strokes[id(stroke)]
            self._stroke_bytes -= len(kept[1])
        self._strokes[id(stroke)] = (stroke, raw)
        self._stroke_bytes += len(raw)
        while self._stroke_bytes > self.STROKE_BYTES and len(self._strokes) > 1:
            _, (_, old) = self._strokes.popitem(last=False)
            self._stroke_bytes -= len(old)
        return raw


class Holdings:
    """What the box holds for its phones' sockets, counted in one walk over them for a
    turn of the event loop (`PhoneServer._holdings`), then kept up to date as its own
    code changes it: a socket starting on a view, a frame written, a socket dropped.
    Within a turn nothing else changes it (the kernel takes bytes between turns), and
    every socket woken by a new table version looks at it in the same turn: one walk
    for them all, not one each (28 phones, 100 watchers: a walk each was quadratic).

    `box` is bytes not yet taken (the transports') plus every view being sent counted
    once however many sockets share it (by the identity of its pieces); `address` the
    same for each address's sockets alone; `unsent` and `box_unsent` the transports'
    bytes alone, per address and in all."""

    def __init__(self, connections: Iterable[Connection]) -> None:
        self.box = 0
        self.box_unsent = 0
        self.pinned: set[int] = set()
        self.address: dict[str, int] = {}
        self.unsent: dict[str, int] = {}
        self._address_pinned: dict[str, set[int]] = {}
        self._of: dict[Connection, int] = {}  # each socket's unsent bytes as counted
        # Sockets that took nothing lately, the slowest last (`PhoneServer._drop_slowest`).
        self._stalled: list[Connection] = []
        for c in connections:
            self.count(c)
            if c.sending is not None:
                self.started(c, c.sending)
            if (not c.closing and c.remote not in BOX_ITSELF
                    and c.stalled_since != float("inf")):
                self._stalled.append(c)
        self._stalled.sort(key=lambda c: (c.sending is not None, self._of[c]))

    def count(self, conn: Connection) -> None:
        """`conn`'s unsent bytes read again (after a write, or once dropped)."""
        waiting = conn.unsent_bytes()
        change = waiting - self._of.get(conn, 0)
        self._of[conn] = waiting
        self.box += change
        self.box_unsent += change
        self.address[conn.remote] = self.address.get(conn.remote, 0) + change
        self.unsent[conn.remote] = self.unsent.get(conn.remote, 0) + change

    def extra(self, pieces: ViewPieces) -> int:
        """The bytes of `pieces` that no socket is sending yet."""
        return sum(len(p) for p in pieces if id(p) not in self.pinned)

    def started(self, conn: Connection, pieces: ViewPieces) -> None:
        """`conn` sends `pieces`: those not held for any socket yet count, box-wide and for
        its address. (A view finished still counts until the next turn's walk.)"""
        theirs = self._address_pinned.setdefault(conn.remote, set())
        for piece in pieces:
            if id(piece) not in self.pinned:
                self.pinned.add(id(piece))
                self.box += len(piece)
            if id(piece) not in theirs:
                theirs.add(id(piece))
                self.address[conn.remote] = self.address.get(conn.remote, 0) + len(piece)

    def slowest_stalled(self) -> Connection | None:
        while self._stalled:
            conn = self._stalled.pop()
            if not conn.closing:
                return conn
        return None


class Refusal(Exception):
    """A message the server refuses before the session sees it."""

    def __init__(self, code: str, english: str, **params: Any) -> None:
        super().__init__(english.format(**params))
        self.code = code
        self.english = english
        self.params = params


class Connection:
    """One phone's WebSocket: who it is and what is waiting to be sent to it."""

    def __init__(self, ws: web.WebSocketResponse, remote: str, limits: Limits) -> None:
        self.ws = ws
        self.remote = remote
        self.bucket = TokenBucket(limits.messages_per_s, limits.message_burst)
        self.warned_at = float("-inf")
        self.viewer: Viewer | None = None
        self.token: str | None = None
        # Who this phone was: the person of the last token it held or said hello with
        # (kept once its seat is gone), so a join is judged on who they are
        # (appliance/table/session.py `join`: kicked, or back to their own seat).
        self.person: str | None = None
        # Text messages to send in order, and pongs' payloads (WebSocket pings' answers:
        # control frames, sent even between the frames of a view being sent).
        self.control: deque[str] = deque()
        self.pongs: deque[bytes] = deque()
        self.view_due = False
        self.wake = asyncio.Event()
        self.closing = False
        self.counted_until_gone = False  # cut for memory: its bytes count until aborted
        self.joining = False  # a join is being written: a second one waits for it
        # Bytes received since the last whole message came out of the parser: an
        # unfinished (e.g. fragmented) message, bounded by `MeteredReader`.
        self.pending = 0
        self.transport: asyncio.Transport | None = None
        self.backlog = limits.control_backlog
        self.reading_paused = False  # over its messages a second (`_read_later`)
        self.held = False  # a view waits for the box's phones to take what they have
        # What the last view it was sent told (`PhoneServer._news_for`: the very object,
        # kept while versions tell the same): a version that tells it nothing new is
        # not sent (`PhoneServer._fan_out`).
        self.shown: object = None
        # Opened past its address's WebSockets: why, until its hello shows a seated token
        # (`PhoneServer._off_probation`); turned away: closed once told why.
        self.probation: Refusal | None = None
        self.turned_away = False
        self.protocol: Any = None  # aiohttp's, for its flow control (`_stream`)
        # The view being sent, piece by piece as the phone takes it (`_stream`): references
        # to its bytes, which phones of the same view and version share.
        self.sending: ViewPieces | None = None
        # Bytes handed to the transport, and how many of them the phone had taken at the
        # last sweep; since when it took none (`PhoneServer._sweep`).
        self.written = 0
        self.taken = 0
        self.stalled_since = float("inf")

    def unsent_bytes(self) -> int:
        transport = self.transport
        return 0 if transport is None or transport.is_closing() else (
            transport.get_write_buffer_size())

    def send(self, message: dict[str, Any]) -> None:
        if self._room():
            self.control.append(_encode(message).decode())
            self.wake.set()

    def pong(self, payload: bytes) -> None:
        transport = self.transport
        if (not self.pongs and transport is not None and not transport.is_closing()
                and not self.ws.closed and transport.get_write_buffer_size() < 2 * VIEW_PIECE):
            # Written at once, a control frame between the frames of whatever is being
            # sent (every frame is one write): a ping is answered even while a view of
            # megabytes goes out. A phone that takes nothing gets its pongs queued.
            frame = _frame_head(True, True, len(payload), opcode=0xA) + bytes(payload)
            transport.write(frame)
            self.written += len(frame)
            return
        if self._room():
            self.pongs.append(bytes(payload))
            self.wake.set()

    def _room(self) -> bool:
        if self.closing:
            return False
        if len(self.control) + len(self.pongs) >= self.backlog:
            # A phone that sends and never reads: its answers would pile up here for
            # as long as it keeps sending. It is gone as far as the box can tell.
            self.abort("it does not read what the box sends")
            return False
        return True

    def abort(self, reason: str) -> None:
        """Drop the socket at once (what it was sent and never took goes with it)."""
        if self.closing:
            return
        self.closing = True
        self.control.clear()
        self.pongs.clear()
        log.warning("dropped a WebSocket from %s: %s", self.remote, reason)
        if self.transport is not None:
            self.transport.abort()
        self.wake.set()


class PhoneServer:
    """The aiohttp application and the set of connected phones."""

    def __init__(
        self,
        session: Session,
        config: Config,
        kiosk_png: Callable[[], Awaitable[bytes]] | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.session = session
        self.config = config
        self.kiosk_png = kiosk_png
        self.limits = limits or Limits()
        self._request_buckets: dict[str, TokenBucket] = {}
        self._seat_buckets: dict[str, TokenBucket] = {}  # messages a second, per seat token
        self.connections: set[Connection] = set()
        self.hard_limit = min(
            HARD_LIMIT, self.limits.hard_message_factor * config.server.max_message_bytes
        )
        self.buffered = AddressCounter()  # unfinished messages' bytes, per address
        self._byte_buckets: dict[str, TokenBucket] = {}  # bytes a second, per address
        self._open_buckets: dict[str, TokenBucket] = {}  # WebSockets opened, per address
        self.tcp = AddressCounter()  # open TCP connections, per address
        limits = self.limits
        self.room_guesses = FailureLimiter(
            limits.room_free_failures, limits.room_lockout_s, limits.room_max_lockout_s,
            limits.room_failures_per_s, limits.room_failure_burst,
        )
        self.started = time.monotonic()
        # Why the box keeps nothing (appliance/app.py: a card it cannot write), or None.
        self.degraded: str | None = None
        self._encoded: dict[tuple[int, Viewer], ViewPieces] = {}
        self._held: Holdings | None = None  # this turn's (`_holdings`)
        self.holdings_counted = 0  # walks over every socket's holdings: for tests
        self.views_encoded = 0  # views encoded (one per viewer and version): for tests
        # Per viewer, the version last looked at and what its view told (the object of
        # an older version while they are equal: `Session.view_news`).
        self._news: dict[Viewer, tuple[int, dict[str, Any]]] = {}
        self.views_spared = 0  # views not sent, as they told a phone nothing: for tests
        self._parts = SharedParts()
        self._tasks: set[asyncio.Future[Any]] = set()  # changes being made off the loop
        self.app = web.Application(
            client_max_size=1024 * 1024, middlewares=[self._flood_guard]
        )
        self.app.router.add_get("/", self.index)
        self.app.router.add_get("/ws", self.websocket)
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/kiosk.png", self.kiosk_screenshot)
        phone_games.add_routes(self.app, config)
        self.app.router.add_static("/static/", STATIC_DIR, follow_symlinks=False)
        self._sweeper: asyncio.Task[None] | None = None
        self._trim_due = False
        self.trims = 0  # heap trims after sockets were cut for memory: for tests
        self._fan_out_due = False
        self.fan_outs = 0  # times every phone's view was made due: for tests and benchmarks
        self.app.on_startup.append(self._start_sweep)
        self.app.on_cleanup.append(self._stop_sweep)
        self.app.on_shutdown.append(self._close_all)
        session.subscribe(self._session_changed)

    @property
    def lang(self) -> str:
        # The host may switch the language while the box runs (the host page).
        return self.session.language_override or self.config.table.language

    # -- HTTP -------------------------------------------------------------------------
    @web.middleware
    async def _flood_guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Requests per address: a page load is ~15 files, a flood is thousands."""
        remote = client_key(request.remote)
        bucket = self._request_buckets.get(remote)
        if bucket is None:
            if len(self._request_buckets) > 4096:
                self._request_buckets.clear()  # a day of phones; a spoofing flood is capped
            bucket = self._request_buckets[remote] = TokenBucket(
                self.limits.requests_per_s, self.limits.request_burst
            )
        if not bucket.take():
            if request.path != "/ws":
                raise web.HTTPTooManyRequests(text="too many requests from this address; "
                                              "wait\n")
            # A WebSocket is taken on probation instead (`websocket`): a seated phone
            # behind the flooding address still gets its seat.
            request[OVER_REQUESTS] = True
        encoding = request.headers.get("Content-Encoding", "").strip().lower()
        if encoding not in ("", "identity"):
            # aiohttp inflates such a body on this loop as it is read, and reads the rest
            # to keep the connection: 200 KB of deflate was 200 MB of work, 3 s of every
            # phone's drawing held. No page of the box sends one: refused unread, closed.
            # (A response's own force_close still lets aiohttp read the body to its end.)
            refused = web.Response(status=415, text="compressed request bodies are not "
                                   "taken here; send the body as it is\n")
            refused.force_close()
            await refused.prepare(request)
            await refused.write_eof()
            request.protocol.force_close()  # sent; the connection goes, its body unread
            return refused
        response: web.StreamResponse = await handler(request)
        return response

    async def index(self, request: web.Request) -> web.StreamResponse:
        response = web.FileResponse(STATIC_DIR / "index.html")
        response.headers["Cache-Control"] = "no-cache"
        # connect-src names the WebSocket too: older Safari does not count ws: as 'self'.
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data: blob:; "
            f"connect-src 'self' ws://{request.host} wss://{request.host}; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def healthz(self, request: web.Request) -> web.Response:
        body: dict[str, Any] = {
            "ok": self.degraded is None,
            **({"degraded": self.degraded} if self.degraded else {}),
            "phase": "playing" if self.session.match else "lobby",
            "players": len(self.session.seats),
            "connections": len(self.connections),
            "version": self.session.version,
            "uptime_s": round(time.monotonic() - self.started, 1),
        }
        if _is_loopback(request.remote):
            # The room code is on the kiosk for all to see, but not for the whole network.
            body["room"] = self.session.room
        return web.json_response(body)

    async def kiosk_screenshot(self, request: web.Request) -> web.Response:
        if not _is_loopback(request.remote):
            raise web.HTTPForbidden(text="the kiosk's screenshot is served to this box only\n")
        if self.kiosk_png is None:
            raise web.HTTPNotFound(text="this box runs without a kiosk screen\n")
        # Encoded off the loop (Kiosk.png_async): a 1080p PNG is 100+ ms of zlib.
        return web.Response(body=await self.kiosk_png(), content_type="image/png")

    # -- WebSocket --------------------------------------------------------------------
    def _origin_allowed(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser: no other site's page can be behind it
        parts = urlsplit(origin)
        if parts.netloc == request.host:
            return True
        public = urlsplit(self.config.server.public_url)
        return bool(public.netloc) and parts.netloc == public.netloc

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not self._origin_allowed(request):
            origin = request.headers.get("Origin", "")[:100]
            log.warning("refused a WebSocket from origin %s", origin)
            raise web.HTTPForbidden(
                text=f"WebSocket from origin {origin} refused: open the page from this box\n"
            )
        # Every per-address limit counts this key: an IPv6 phone's /64, never a header.
        remote = client_key(request.remote)
        # Past the address's WebSockets (opened a second, or open), a socket is taken on
        # probation: it gets nothing but the answer to its hello, which must carry a
        # seated token. A player behind the same address as a loop opening sockets (a
        # guest Wi-Fi's NAT) is never refused for it; only an anonymous opener is, with
        # a reason, and its page backs off (net.js). Every connection still counts
        # towards `Limits.tcp_per_address`, which bounds the probations too.
        probation: Refusal | None = None
        if remote not in BOX_ITSELF and (
                not self._socket_opened(remote) or request.get(OVER_REQUESTS, False)):
            probation = Refusal("too_many_sockets", "This address opens connections "
                                "too often; wait a few seconds.")
        elif (sum(c.remote == remote and c.probation is None for c in self.connections)
              >= self.limits.connections_per_address):
            probation = Refusal("too_many_connections", "Too many connections from "
                                "this address; close a tab and try again.")
        if probation is not None and sum(
                c.remote == remote and c.probation is not None for c in self.connections
        ) >= self.limits.tcp_per_address:
            # (the box itself has no TCP cap: its probations are capped here)
            log.warning("refused another WebSocket from %s: %s", remote, probation)
            raise web.HTTPTooManyRequests(text=str(probation) + "\n",
                                          headers={"Retry-After": "2"})
        # timeout: how long close() waits for a vanished phone's goodbye at shutdown.
        # No permessage-deflate: aiohttp inflates a compressed message on this loop before
        # anything of ours sees it, and 2 KB of deflate is 2 MB of text (a bomb past
        # every byte budget: 50 such frames held every phone's ping for 0.1 s here). The
        # views go as they are; a frame marked compressed is a protocol error (closed).
        # autoping off: a ping is answered only within the socket's messages a second.
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=self.hard_limit, timeout=1.0,
                                   compress=False, autoping=False)
        await ws.prepare(request)
        conn = Connection(ws, remote, self.limits)
        conn.probation = probation
        conn.transport = request.transport
        conn.protocol = request.protocol
        if request.transport is not None:
            # Paused past a piece of a view and resumed once the kernel took it all: the
            # box holds at most about one piece of a view for a phone (`_stream`).
            request.transport.set_write_buffer_limits(high=VIEW_PIECE // 2, low=0)
        sock = request.transport.get_extra_info("socket") if request.transport else None
        if sock is not None and remote not in BOX_ITSELF:
            # The kernel's own copy of what a phone has not taken, bounded too (its
            # autotuning grows it to megabytes for a socket that never reads); a phone
            # on Wi-Fi needs a few dozen KiB in flight.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        protocol = request.protocol
        # Every byte the socket sends passes the meter before aiohttp's parser buffers it.
        inner, alive = protocol._payload_parser, protocol._data_received_cb
        protocol._payload_parser = None
        # (`alive` is the heartbeat's: any data from the phone shows it is still there.)
        protocol.set_parser(cast(Any, MeteredReader(inner, conn, self)), data_received_cb=alive)
        self.connections.add(conn)
        sender = asyncio.create_task(self._sender(conn))
        hello_timer = asyncio.get_running_loop().call_later(
            self.config.server.hello_timeout_s if probation is None else min(
                PROBATION_HELLO_S, self.config.server.hello_timeout_s),
            self._hello_overdue, conn
        )
        try:
            in_a_row = 0
            async for msg in ws:
                self._received(conn)
                in_a_row += 1
                if in_a_row >= IN_A_ROW:
                    # Many small messages read at once (a burst of pings is 8000 in a
                    # megabyte): the other phones' turn comes between every few of them.
                    in_a_row = 0
                    await asyncio.sleep(0)
                if msg.type in COUNTED and not conn.bucket.take():
                    if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                        self._slow_down(conn)
                    # (a ping or pong over the rate: dropped unanswered)
                    self._read_later(conn)
                elif msg.type == WSMsgType.PING:
                    conn.pong(msg.data)  # answered by the sender, in turn
                elif msg.type == WSMsgType.TEXT:
                    self._handle_text(conn, msg.data)
                    if len(msg.data) > 4096:
                        # A big message took its time: let the other phones' turn come
                        # before this socket's next one (its queue may hold many).
                        await asyncio.sleep(0)
                elif msg.type == WSMsgType.BINARY:
                    self._refuse(conn, Refusal("not_text", "Messages must be JSON text."))
                elif msg.type == WSMsgType.ERROR:
                    break
        except ConnectionError:
            pass  # the phone went away mid-message; nothing to tell anyone
        finally:
            hello_timer.cancel()
            if not conn.counted_until_gone:  # (a cut socket's: when it is gone, `cut`)
                self._received(conn)
            self.connections.discard(conn)
            if conn.viewer is not None:
                self.session.detach(conn.viewer)
            conn.closing = True
            conn.wake.set()
            await sender
        return ws

    def _socket_opened(self, key: str) -> bool:
        """One more WebSocket from `key` (an address, or a seat's token on probation),
        within its opens a second? (A spectator reconnecting in a loop during a finish is
        a handshake and a whole view each time.)"""
        bucket = self._open_buckets.get(key)
        if bucket is None:
            if len(self._open_buckets) > 4096:
                self._open_buckets.clear()
            bucket = self._open_buckets[key] = TokenBucket(
                self.limits.sockets_per_s, self.limits.socket_burst)
        return bucket.take()

    def _off_probation(self, conn: Connection, message: Hello) -> bool:
        """A socket taken past its address's WebSockets says hello: let it in if its
        token holds a seat (within that seat's own opens a second), else turn it away
        with the reason it was on probation. True: let in."""
        refusal = conn.probation
        if refusal is None:
            return True
        seated = False
        if message.token:
            with contextlib.suppress(WrongRoom):  # ("" is never a room code: no guess)
                seated = self.session.hello("", message.token).role == "player"
        if seated and message.token and self._socket_opened(
                "seat " + hash_token(message.token)):
            conn.probation = None
            return True
        log.warning("refused a WebSocket from %s: %s", conn.remote, refusal)
        self._refuse(conn, refusal)
        conn.turned_away = True
        return False

    # -- memory: what a socket may hold before it has said anything whole -------------
    def _received(self, conn: Connection) -> None:
        """A whole message came out of the parser: its bytes are no longer held."""
        if conn.pending:
            if conn.remote not in BOX_ITSELF:
                self.buffered.add(conn.remote, -conn.pending)
            conn.pending = 0

    def metered(self, conn: Connection, size: int) -> str | None:
        """Count `size` more bytes of an unfinished message; why to cut the socket, or None.
        (`size` < 0: bytes that turned out to be whole messages.)"""
        size = max(size, -conn.pending)
        conn.pending += size
        held = 0 if conn.remote in BOX_ITSELF else self.buffered.add(conn.remote, size)
        if conn.viewer is None and conn.pending > self.limits.hello_bytes:
            return "send hello first"
        if conn.pending > self.hard_limit:
            return "message too big"
        if size > 0 and held > self.limits.buffered_bytes_per_address:
            # (a socket that adds nothing, a whole hello, is not the one to cut: the
            # address may still hold a socket cut a moment ago, counted until gone)
            return "too much unfinished data from this address"
        if size > 0 and self.buffered.total > self.limits.box_buffered_bytes:
            # The box as a whole holds too much: the socket holding the most goes (an
            # honest phone's stroke is kilobytes; a trickle of megabytes is not one).
            biggest = max(
                (c for c in self.connections if c.remote not in BOX_ITSELF
                 and not c.closing),
                key=lambda c: c.pending, default=conn)
            if biggest is conn:
                self._trim_soon()
                return "the box holds too much unfinished data; send whole messages"
            biggest.abort("the box holds too much unfinished data; it held the most")
            self._trim_soon()
        return None

    def _trim_soon(self) -> None:
        """Sockets are cut for the box's memory (a crowd of them each sending megabytes it
        never finishes): once they are gone, their freed buffers go back to the system,
        at most once every TRIM_EVERY_S. Freed but kept, a crowd's next buffers landed
        beside them: the heap grew well past the cap on what is held at once."""
        if self._trim_due:
            return
        self._trim_due = True
        loop = asyncio.get_running_loop()

        def trim() -> None:
            self._trim_due = False
            self.trims += 1
            loop.run_in_executor(None, memory.release_free_memory)

        loop.call_later(TRIM_EVERY_S, trim)

    def throttle(self, conn: Connection, size: int) -> float:
        """Spend `size` of the address's bytes a second; how long to stop reading (0: none)."""
        if conn.remote in BOX_ITSELF:
            return 0.0
        bucket = self._byte_buckets.get(conn.remote)
        if bucket is None:
            if len(self._byte_buckets) > 4096:
                self._byte_buckets.clear()
            bucket = self._byte_buckets[conn.remote] = TokenBucket(
                self.limits.bytes_per_s_per_address, self.limits.byte_burst_per_address
            )
        bucket.take(0.0)  # refill
        bucket.tokens -= size
        return 0.0 if bucket.tokens >= 0 else -bucket.tokens / bucket.rate

    def cut(self, conn: Connection, reason: str) -> None:
        """Close a socket that asked for too much memory; the others play on."""
        if conn.closing:
            return
        conn.closing = True
        log.warning("closed a WebSocket from %s: %s", conn.remote, reason)
        # Its unfinished bytes stay counted until the socket is gone: the parser holds
        # them for the second its close frame is given (then it is aborted). Counted as
        # freed at once, 200 addresses' messages held 240 MiB past the box's 16 MiB cap.
        conn.counted_until_gone = True
        code = WSCloseCode.POLICY_VIOLATION if reason == "send hello first" else (
            WSCloseCode.MESSAGE_TOO_BIG)
        asyncio.get_running_loop().create_task(
            conn.ws.close(code=code, message=reason.encode())
        )

        def gone() -> None:
            if conn.transport is not None:
                conn.transport.abort()
            self._received(conn)

        asyncio.get_running_loop().call_later(CUT_CLOSE_S, gone)

    def _hello_overdue(self, conn: Connection) -> None:
        if conn.viewer is None and not conn.ws.closed:
            self.cut(conn, "send hello first")

    async def _sender(self, conn: Connection) -> None:
        """The only writer to this socket: control messages in order, then the newest view."""
        ws = conn.ws
        while True:
            if conn.held:  # look again soon: the address's phones may have taken some
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(conn.wake.wait(), HELD_VIEW_RETRY_S)
            else:
                await conn.wake.wait()
            conn.wake.clear()
            try:
                await self._send_pongs(conn)
                while conn.control and not ws.closed:
                    item = conn.control.popleft()
                    conn.written += len(item) + 4
                    await ws.send_str(item)
                if conn.turned_away:  # told why: closed, "try again later" (1013)
                    conn.closing = True
                    if not ws.closed:
                        await ws.close(code=WSCloseCode.TRY_AGAIN_LATER,
                                       message=b"too many connections from this address")
                    return
                if conn.view_due and conn.viewer is not None and not ws.closed:
                    # The encoded bytes as they are: a finish's view is megabytes, and
                    # a str would be decoded once and encoded again for every phone.
                    pieces = self._view_pieces(conn.viewer)
                    conn.held = not self._may_start(conn, pieces)
                    if not conn.held:
                        conn.view_due = False
                        conn.shown = self._news_for(conn.viewer)
                        await self._stream(conn, pieces)
            except (ConnectionError, RuntimeError):
                return  # the phone went away; the reader loop ends and cleans up
            finally:
                conn.sending = None
            if conn.closing or ws.closed:
                return

    async def _stream(self, conn: Connection, pieces: ViewPieces) -> None:
        """Send one view as one WebSocket message in frames of `VIEW_PIECE` (RFC 6455
        fragments; the phone's WebSocket joins them into one message), each written once
        the phone took the last: the transport holds about one piece for a phone, never a
        copy of the whole view, and the view's bytes are referenced, shared by every
        phone of the same viewer and version (and its big parts by every viewer)."""
        ws, transport = conn.ws, conn.transport
        if transport is None:
            raise ConnectionResetError("no transport")
        conn.sending = pieces
        first = True
        turn = conn.written
        for frame, last in _frames(pieces, VIEW_PIECE):
            while not self._may_write(conn, len(frame)):
                # The address's or the box's phones hold their budget: the slower ones
                # take theirs first (the slowest, stalled, are dropped: `_may_start`).
                await asyncio.sleep(HELD_VIEW_RETRY_S)
                if conn.closing or ws.closed:
                    raise ConnectionResetError("closed while sending a view")
            if conn.closing or ws.closed or transport.is_closing():
                # (a close frame may come between fragments; no data frame after it)
                raise ConnectionResetError("closed while sending a view")
            head = _frame_head(first, last, len(frame))
            transport.writelines((head, frame))
            conn.written += len(head) + len(frame)
            self._wrote(conn)
            first = False
            protocol = conn.protocol
            if protocol is not None and protocol._paused:
                await protocol._drain_helper()  # until the kernel took this piece
                turn = conn.written
            elif conn.written - turn >= YIELD_AFTER_BYTES:
                # A phone that takes it all at once (the kernel's buffer): the other
                # phones' turn comes between every few pieces all the same.
                await asyncio.sleep(0)
                turn = conn.written
            await self._send_pongs(conn)  # (a control frame may come between fragments)
        conn.sending = None

    async def _send_pongs(self, conn: Connection) -> None:
        while conn.pongs and not conn.ws.closed:
            payload = conn.pongs.popleft()
            conn.written += len(payload) + 2
            await conn.ws.pong(payload)

    def holding(self, remote: str | None = None) -> tuple[int, set[int], int]:
        """What the box holds for its phones' sockets: bytes not yet taken (the
        transports'), plus every view being sent counted once however many sockets
        share it (by the identity of its pieces); those pieces' ids; and the same total
        for the sockets of `remote` alone."""
        box = mine = 0
        pinned: set[int] = set()
        theirs: set[int] = set()
        for c in self.connections:
            waiting = c.unsent_bytes()
            box += waiting
            ours = c.remote == remote
            mine += waiting if ours else 0
            for piece in c.sending or ():
                if id(piece) not in pinned:
                    pinned.add(id(piece))
                    box += len(piece)
                if ours and id(piece) not in theirs:
                    theirs.add(id(piece))
                    mine += len(piece)
        return box, pinned, mine

    def _holdings(self) -> Holdings:
        """What the box holds for its sockets, walked once a turn of the loop and kept
        up to date within it (`Holdings`)."""
        held = self._held
        if held is None:
            held = self._held = Holdings(self.connections)
            self.holdings_counted += 1
            try:
                asyncio.get_running_loop().call_soon(self._forget_holdings)
            except RuntimeError:  # (no loop: nothing changes it behind its back)
                self._held = None
        return held

    def _forget_holdings(self) -> None:
        self._held = None

    def _may_start(self, conn: Connection, pieces: ViewPieces) -> bool:
        """Whether `conn` may start on a view now: what the box holds for its sockets with
        the bytes of this view that no socket is sending yet stays within
        `Limits.box_unsent_bytes` (else the slowest socket that took nothing lately
        goes), and what it holds for the address's sockets within
        `Limits.unsent_bytes_per_address`. The first view always may, and a view the
        other sockets are sending already adds nothing. If it may, it counts as started."""
        if conn.remote in BOX_ITSELF:
            return True
        held = self._holdings()
        box, address = held.box, held.address.get(conn.remote, 0)
        extra = held.extra(pieces)
        if box > 0 and box + extra > self.limits.box_unsent_bytes:
            self._drop_slowest()
            return False  # the slower phones take theirs first; looked at again soon
        if address == 0 or address + extra <= self.limits.unsent_bytes_per_address:
            held.started(conn, pieces)
            return True
        return False

    def _may_write(self, conn: Connection, size: int) -> bool:
        """Whether `size` more bytes of a view may be written to `conn` now: its address's
        phones hold at most `Limits.unsent_bytes_per_address` not yet taken, all phones
        at most `Limits.box_unsent_bytes` (the transport keeps a copy of every byte the
        phone has not taken), and a socket that holds nothing unsent always may."""
        if conn.remote in BOX_ITSELF or conn.unsent_bytes() == 0:
            return True
        held = self._holdings()
        return (held.unsent.get(conn.remote, 0) + size <= self.limits.unsent_bytes_per_address
                and held.box_unsent + size <= self.limits.box_unsent_bytes)

    def _wrote(self, conn: Connection) -> None:
        """`conn`'s transport was written to: this turn's holdings count what it kept."""
        if self._held is not None:
            self._held.count(conn)

    def _drop_slowest(self) -> None:
        """The box holds its whole budget of unsent bytes: the socket with the most of
        them that took nothing since the sweep's last look goes (an honest slow phone
        takes something every few seconds and stays)."""
        held = self._holdings()
        slowest = held.slowest_stalled()
        if slowest is not None:
            slowest.abort("the box's unsent bytes are full and it took nothing lately")
            held.count(slowest)  # (its transport's bytes are let go)

    async def _start_sweep(self, app: web.Application) -> None:
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _stop_sweep(self, app: web.Application) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None

    async def _sweep(self) -> None:
        """Every few seconds: a socket whose unsent bytes made no progress for
        `Limits.stall_s` is dropped (a phone that stopped reading keeps its copy of a
        view, megabytes, for as long as its TCP connection lives)."""
        peak = 0
        while True:
            await asyncio.sleep(min(SWEEP_S, self.limits.stall_s / 4))
            now = time.monotonic()
            held = self.buffered.total + self.holding()[0]
            for conn in list(self.connections):
                unsent = conn.unsent_bytes()
                # (what it took: what was written less what still waits, so a phone
                # taking a view piece by piece is seen taking it)
                taken = conn.written - unsent
                if unsent == 0 or taken > conn.taken:
                    conn.stalled_since = float("inf")
                elif conn.stalled_since == float("inf"):
                    conn.stalled_since = now
                elif now - conn.stalled_since >= self.limits.stall_s:
                    conn.abort(f"it took none of {unsent} bytes in "
                               f"{self.limits.stall_s:.0f} s")
                conn.taken = max(conn.taken, taken)
            peak = max(peak, held)
            if peak >= TRIM_AFTER_BYTES and held < TRIM_AFTER_BYTES // 8:
                # Megabytes held for sockets that are gone now (a crowd of slow or hostile
                # phones left): give the heap's free pages back to the system.
                peak = 0
                asyncio.get_running_loop().run_in_executor(None, memory.release_free_memory)

    def _view_pieces(self, viewer: Viewer) -> ViewPieces:
        key = (self.session.version, viewer)
        data = self._encoded.get(key)
        if data is None:
            # Only the current version is ever asked for again: the older ones go (a
            # picture's view is megabytes; 64 of them were kept). A socket still sending
            # an older one holds its own reference (`holding` counts it).
            if len(self._encoded) > 64 or any(v != key[0] for v, _ in self._encoded):
                self._encoded.clear()
            data = self._encoded[key] = self._parts.pieces(self.session.view_for(viewer))
            self.views_encoded += 1
        return data

    def _news_for(self, viewer: Viewer) -> dict[str, Any]:
        """What `viewer`'s view of this version tells (`Session.view_news`), as the object
        of the first version that told it: the same object means nothing new."""
        version = self.session.version
        kept = self._news.get(viewer)
        if kept is not None and kept[0] == version:
            return kept[1]
        news = self.session.view_news(viewer)
        if kept is not None and kept[1] == news:
            news = kept[1]
        if len(self._news) >= 64 and viewer not in self._news:
            self._news.clear()  # (viewers are few: the roles and the seats)
        self._news[viewer] = (version, news)
        return news

    def _session_changed(self) -> None:
        """A new table version: every phone's view is due, from the loop's next turn on.
        Not at once: the answers to the moves that made it (their `ack`, a future's
        callback) are queued first, so a drawer hears its stroke is saved before the box
        builds and writes the view of every other phone (28 at a full table), and the
        versions of several moves committed together (one commit) make one fan-out."""
        self._unseat_freed()
        if self._fan_out_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (no loop: a test's synchronous session)
            self._fan_out()
            return
        self._fan_out_due = True
        loop.call_soon(self._fan_out)

    def _fan_out(self) -> None:
        self._fan_out_due = False
        self.fan_outs += 1
        for conn in self.connections:
            viewer = conn.viewer
            if viewer is None:
                continue
            if not conn.view_due and conn.shown is self._news_for(viewer):
                # Nothing it does not know: another's stroke, a version number, the time
                # left of a count it counts down itself. Neither encoded nor sent.
                self.views_spared += 1
                continue
            conn.view_due = True
            conn.wake.set()

    def _read_later(self, conn: Connection) -> None:
        """A socket over its messages a second: what it sends next is not even read (nor
        parsed: 6-byte ping frames are 87,000 a second within an address's bytes) until
        a second has passed."""
        transport = conn.transport
        if transport is None or transport.is_closing() or conn.reading_paused:
            return
        conn.reading_paused = True
        transport.pause_reading()

        def resume() -> None:
            conn.reading_paused = False
            _resume(transport)

        asyncio.get_running_loop().call_later(READ_LATER_S, resume)

    def _slow_down(self, conn: Connection) -> None:
        """Drop a message over the phone's rate; say so once a second, not per message."""
        now = time.monotonic()
        if now - conn.warned_at >= 1.0:
            conn.warned_at = now
            self._refuse(conn, Refusal("slow_down", "Too many messages at once; these were "
                                                    "dropped. Please slow down."))

    def _refuse(self, conn: Connection, refusal: Refusal, ref: str | None = None) -> None:
        conn.send(
            {
                "type": "error",
                "code": refusal.code,
                "message": say(self.lang, refusal.code, refusal.english, **refusal.params),
                "ref": ref,
            }
        )

    def _handle_text(self, conn: Connection, text: str) -> None:
        ref: str | None = None
        message: Any = None
        try:
            message = self._decode(text)
            if isinstance(message, Act):
                ref = message.id
            self._dispatch(conn, message)
        except Refusal as refusal:
            self._refuse(conn, refusal, ref)
        except SessionError as err:
            self._session_error(conn, err, ref)
        except sqlite3.Error as err:
            # A write the session does not guard itself (a full or read-only card): the
            # phone hears why, and its connection stays.
            log.error("could not save %s from %s: %s", type(message).__name__, conn.remote, err)
            self._refuse(conn, Refusal("not_saved", "The box cannot write to its memory card "
                                       "({detail}); nothing changed.", detail=str(err)), ref)

    def _session_error(self, conn: Connection, err: SessionError, ref: str | None) -> None:
        conn.send(
            {
                "type": "error",
                "code": err.code,
                "message": say(self.lang, err.key, err.template, **err.params),
                "ref": ref,
            }
        )

    def _decode(self, text: str) -> Message:
        limit = self.config.server.max_message_bytes
        if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
            size = len(text.encode("utf-8", "surrogatepass"))
            raise Refusal("too_big", "The message has {size} bytes; at most {limit}.",
                          size=size, limit=limit)
        try:
            return _decoder.decode(text)
        except msgspec.ValidationError as err:
            detail = str(err)
            if detail.endswith("at `$.type`"):
                wanted = _peek_type(text)
                raise Refusal(
                    "unknown_type",
                    "Unknown message type {type!r}; known: {known}.",
                    type=wanted,
                    known=", ".join(MESSAGE_TYPES),
                ) from None
            raise Refusal("invalid", "The message is not valid: {detail}", detail=detail) from None
        except msgspec.DecodeError as err:
            raise Refusal("bad_json", "The message is not valid JSON: {detail}",
                          detail=str(err)) from None
        except RecursionError:
            # msgspec decodes nested arrays by recursion; no phone nests this deep.
            raise Refusal("too_deep", "The message nests too deeply.") from None

    def _dispatch(self, conn: Connection, message: Message) -> None:
        session = self.session
        if isinstance(message, Ping):
            conn.send({"type": "pong"})
            return
        if isinstance(message, Hello):
            self._hello(conn, message)
            return
        viewer = conn.viewer
        if viewer is None:
            raise Refusal("hello_first", "Send hello with the room code first.")
        if isinstance(message, Join):
            if viewer.role == "player":
                raise Refusal("already_joined", "You already have a seat.")
            if conn.joining:
                raise Refusal("already_joining", "Your seat is being saved; a moment.")
            # Welcomed once the seat is committed (on the store's writer thread).
            joined = session.join_async(message.name, message.colour, conn.remote,
                                        person=conn.person)
            conn.joining = True
            self._answer_later(
                conn, joined, then=lambda welcome: self._welcome(conn, welcome),
                after=lambda: setattr(conn, "joining", False),
            )
            return
        if viewer.role != "player" or viewer.seat is None:
            raise Refusal("join_first", "Take a seat first (join).")
        seat = viewer.seat
        if conn.token is None or not session.is_seated(seat, conn.token):
            self._unseat(conn, "seat_gone", "Your seat was freed; please join again.")
            return
        # Each change is answered once it is committed, off this loop (`_answer_later`).
        if isinstance(message, Leave):
            self._leave(conn, seat)
        elif isinstance(message, Kick):
            self._answer_later(conn, session.kick_async(seat, message.seat))
        elif isinstance(message, Select):
            self._answer_later(conn, session.select_async(seat, message.game))
        elif isinstance(message, Start):
            # The decks are the packs' to give (appliance/table/packs.py), as on the host page:
            # a host phone's own `words` or `cards` would bypass their checks.
            options = {k: v for k, v in message.options.items() if k not in DECK_OPTIONS}
            # The packs are read and the game set up on a worker thread, off this loop.
            self._answer_later(conn, session.start_async(seat, options))
        elif isinstance(message, End):
            self._answer_later(conn, session.end_match_async(seat))
        elif isinstance(message, Finish):
            again = session.leave_finish_async(seat, message.again)
            if again is not None:
                self._answer_later(conn, again)
        elif isinstance(message, Act):
            done = session.submit(seat, message.kind, self._move_data(message), message.id)
            if isinstance(done, bool):
                conn.send({"type": "ack", "id": message.id})
            else:  # acknowledged only once the store's writer thread has committed it
                ref = message.id
                done.add_done_callback(lambda result: self._acknowledge(conn, ref, result))

    def _answer_later(
        self,
        conn: Connection,
        work: Awaitable[T],
        then: Callable[[T], None] | None = None,
        after: Callable[[], None] | None = None,
        failed: Callable[[], None] | None = None,
    ) -> None:
        """Run `work` as a task; a refusal goes back to `conn` as the message's error
        (after `failed`), else `then` hears its result; `after` runs first either way."""
        if isinstance(work, Done):  # made already (no writer thread)
            if after is not None:
                after()
            if then is not None:
                then(work.value)
            return
        task = asyncio.ensure_future(work)
        self._tasks.add(task)

        def answer(done: asyncio.Future[T]) -> None:
            self._tasks.discard(task)
            if after is not None:
                after()
            err = None if done.cancelled() else done.exception()
            if err is None and not done.cancelled():
                if then is not None and not conn.closing:
                    then(done.result())
                return
            if failed is not None:
                failed()
            if isinstance(err, SessionError):
                self._session_error(conn, err, None)
            elif isinstance(err, sqlite3.Error):
                log.error("could not save a change from %s: %s", conn.remote, err)
                self._refuse(conn, Refusal("not_saved", "The box cannot write to its memory "
                                           "card ({detail}); nothing changed.", detail=str(err)))
            elif err is not None:
                log.error("a start from %s failed", conn.remote, exc_info=err)

        task.add_done_callback(answer)

    def _acknowledge(self, conn: Connection, ref: str, done: asyncio.Future[bool]) -> None:
        """A move handed to the writer thread is committed (ack) or was refused (error)."""
        err = None if done.cancelled() else done.exception()
        if err is None:
            conn.send({"type": "ack", "id": ref})
        elif isinstance(err, SessionError):
            self._session_error(conn, err, ref)
        else:
            log.error("could not save a move from %s: %s", conn.remote, err)
            self._refuse(conn, Refusal("not_saved", "The box cannot write to its memory card "
                                       "({detail}); nothing changed.", detail=str(err)), ref)

    def _hello(self, conn: Connection, message: Hello) -> None:
        """Hello, with a failure limit on wrong room codes per address (only the guesser
        waits). A seated phone's token needs no room code, so a lock on its address (a
        shared Wi-Fi's, an IPv6 network's) never keeps a player from its seat."""
        if not self._off_probation(conn, message):
            return
        wait = self.room_guesses.wait(conn.remote)
        if wait > 0:
            if message.token:
                try:  # the token alone ("" is never a room code): no guess is checked
                    welcome = self.session.hello("", message.token)
                except WrongRoom:
                    pass
                else:
                    self._welcome(conn, welcome)
                    return
            raise Refusal("too_many_guesses", "Too many wrong room codes; try again in "
                          "{seconds} seconds.", seconds=max(1, int(-(-wait // 1))))
        if message.token:
            conn.person = person_of(hash_token(message.token))
        try:
            welcome = self.session.hello(message.room, message.token)
        except WrongRoom:
            locked = self.room_guesses.failed(conn.remote)
            if locked > 0:
                log.warning("wrong room codes from %s: locked for %.0f s", conn.remote, locked)
            raise
        if welcome.role == "guest":  # the room code was right
            self.room_guesses.succeeded(conn.remote)
        self._welcome(conn, welcome)

    def _move_data(self, message: Act) -> dict[str, Any]:
        """The move's data, checked against what its game declares for its kind."""
        match = self.session.match
        game = match.record.game if match is not None else ""
        try:
            return check_move(game, message.kind, bytes(message.data))
        except InvalidMove as err:
            raise Refusal("invalid", "The message is not valid: {detail}",
                          detail=str(err)) from None
        except RecursionError:
            raise Refusal("too_deep", "The message nests too deeply.") from None

    def _welcome(self, conn: Connection, welcome: Welcome) -> None:
        viewer = Viewer(welcome.role, welcome.seat)
        # A hello or join repeated as the same viewer changes nothing at the table: no
        # presence goes and comes back, so no new table version (and no view to every
        # phone) comes of it.
        same = conn.viewer == viewer
        if conn.viewer is not None and not same:
            self.session.detach(conn.viewer)
        conn.viewer = viewer
        conn.token = welcome.token
        if welcome.token:
            conn.person = person_of(hash_token(welcome.token))
        if welcome.token is not None:
            # A seat's budget, not a socket's: every socket of one token draws on it, so a
            # seat opening several sockets gets no more than one phone.
            bucket = self._seat_buckets.get(welcome.token)
            if bucket is None:
                if len(self._seat_buckets) > 256:
                    self._seat_buckets.clear()  # seats come and go; a full clear is rare
                bucket = self._seat_buckets[welcome.token] = conn.bucket
            conn.bucket = bucket
        conn.send(
            {
                "type": "welcome",
                "role": welcome.role,
                "seat": welcome.seat,
                "token": welcome.token,
                "lang": self.lang,
            }
        )
        conn.view_due = True
        if not same:
            self.session.attach(conn.viewer)
        conn.wake.set()

    def _leave(self, conn: Connection, seat: int) -> None:
        """The phone gives its seat up itself: a guest again, welcomed as one (not kicked)
        once that is committed; its seat back if it could not be."""
        viewer, token = conn.viewer, conn.token
        conn.viewer, conn.token = Viewer("guest"), None

        def kept() -> None:  # refused: the phone still holds its seat
            if conn.viewer == Viewer("guest") and conn.token is None:
                conn.viewer, conn.token = viewer, token

        try:
            left = self.session.leave_async(seat)
        except (SessionError, sqlite3.Error):
            kept()
            raise
        self._answer_later(conn, left, then=lambda _: self._welcome(conn, Welcome("guest")),
                           failed=kept)

    def _unseat(self, conn: Connection, key: str, english: str) -> None:
        """The phone's seat is gone (kicked or left): it becomes a guest again."""
        conn.viewer = Viewer("guest")
        conn.token = None
        conn.send({"type": "kicked", "code": key, "message": say(self.lang, key, english)})
        conn.view_due = True
        conn.wake.set()

    def _unseat_freed(self) -> None:
        """Tell every phone whose seat was freed (a kick, from a phone or the kiosk) at once."""
        for conn in list(self.connections):
            viewer = conn.viewer
            if (
                viewer is not None
                and viewer.role == "player"
                and viewer.seat is not None
                and (conn.token is None or not self.session.is_seated(viewer.seat, conn.token))
            ):
                self._unseat(conn, "kicked", "The host removed you from the table.")

    async def _close_all(self, app: web.Application) -> None:
        # A phone that has not taken what it was sent would not take a goodbye either:
        # its socket's writer waits for it forever, and so would the box's shutdown.
        deaf = [c for c in self.connections if c.unsent_bytes() > 0]
        for conn in deaf:
            conn.closing = True
            if conn.transport is not None:
                conn.transport.abort()
        await asyncio.gather(
            *(c.ws.close(code=1001, message=b"the box is shutting down")
              for c in self.connections if c not in deaf),
            return_exceptions=True,
        )


class MeteredReader:
    """Stands before aiohttp's WebSocket parser: counts what the socket sends towards an
    unfinished message and cuts it off past its budget, before the parser buffers it.

    aiohttp's `max_msg_size` bounds one message however it is fragmented, but it is one
    number for the socket's whole life; the meter makes it small until hello (a hello
    fits in `Limits.hello_bytes`) and bounds all the sockets of an address together.
    """

    def __init__(self, inner: Any, conn: Connection, server: PhoneServer) -> None:
        self.inner = inner
        self.conn = conn
        self.server = server
        self.stopped = False

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self.stopped:
            return False, b""  # dropped: the socket is being closed
        conn = self.conn
        if conn.viewer is None and len(data) > PRE_HELLO_READ:
            return self._stop("send hello first")  # not even handed to the parser
        # What the parser turns into whole messages is queued (and no longer ours to
        # count); what it keeps is an unfinished message.
        queue = getattr(conn.ws, "_reader", None)
        before = queue._size if queue is not None else 0
        result: tuple[bool, bytes] = self.inner.feed_data(data)
        whole = (queue._size - before) if queue is not None else 0
        reason = self.server.metered(conn, len(data) - max(0, whole))
        if reason is not None:
            return self._stop(reason)
        wait = self.server.throttle(conn, len(data))
        if wait > 0 and conn.transport is not None:
            # Over the address's bytes a second: stop reading it for a while (TCP pushes
            # back on the phone); nothing is dropped.
            conn.transport.pause_reading()
            asyncio.get_running_loop().call_later(wait, _resume, conn.transport)
        return result

    def _stop(self, reason: str) -> tuple[bool, bytes]:
        self.stopped = True
        self.server.cut(self.conn, reason)
        transport = self.conn.transport
        if transport is not None:
            # Nothing more is read; the close frame goes out and the socket ends (`cut`).
            transport.pause_reading()
        return False, b""

    def feed_eof(self) -> None:
        self.inner.feed_eof()


def _frames(pieces: ViewPieces, size: int) -> Iterator[tuple[bytes | memoryview, bool]]:
    """The view's bytes in frames of at most `size` (never cut inside a UTF-8 character,
    though RFC 6455 allows it), each with whether it is the last. A frame within one
    piece is a view of that piece's bytes, not a copy."""
    held: list[memoryview] = []
    count = 0
    ready: bytes | memoryview | None = None
    for piece in pieces:
        rest = memoryview(piece)
        while len(rest):
            cut = min(len(rest), size - count)
            if cut < len(rest):
                while cut > 1 and rest[cut] & 0xC0 == 0x80:
                    cut -= 1  # back to the start of the character
            held.append(rest[:cut])
            count += cut
            rest = rest[cut:]
            if len(rest) or count >= size:
                if ready is not None:
                    yield ready, False
                ready = held[0] if len(held) == 1 else b"".join(held)
                held, count = [], 0
    if held:
        if ready is not None:
            yield ready, False
        ready = held[0] if len(held) == 1 else b"".join(held)
    yield (ready if ready is not None else b""), True


def _frame_head(first: bool, last: bool, size: int, opcode: int = 0x1) -> bytes:
    """A server frame's header (unmasked): `opcode` (text) if `first`, else a
    continuation."""
    code = (0x80 if last else 0) | (opcode if first else 0x0)
    if size < 126:
        return struct.pack("!BB", code, size)
    if size < 65536:
        return struct.pack("!BBH", code, 126, size)
    return struct.pack("!BBQ", code, 127, size)


def _resume(transport: asyncio.Transport) -> None:
    if not transport.is_closing():
        transport.resume_reading()


class AcceptErrors:
    """The loop's exception handler for "out of file descriptors" at accept: one line a
    minute with a count, instead of a traceback per refused connection (asyncio retries
    the accept by itself a second later)."""

    OUT_OF: Final = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.count = 0
        self.total = 0
        self.logged_at = float("-inf")

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in self.OUT_OF:
            self.count += 1
            self.total += 1
            now = self.clock()
            if now - self.logged_at >= 60.0:
                log.error(
                    "cannot accept connections: %s (%d times since the last report); "
                    "too many open connections, probably a flood; raise LimitNOFILE in "
                    "easel.service if this box is just busy", exc.strerror, self.count,
                )
                self.logged_at = now
                self.count = 0
            return
        loop.default_exception_handler(context)


class BadRequests(logging.Filter):
    """On aiohttp's request log: a request the HTTP parser refused (a header line over
    8 KiB, thousands of headers, both Content-Length and Transfer-Encoding...) is
    answered 400 by aiohttp and was logged with a traceback each, as fast as a
    stranger sends them (no handler, so no request limit, sees them). One line a minute
    with a count instead; any other error keeps its traceback."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.count = 0
        self.total = 0
        self.logged_at = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, HttpProcessingError):
            return True
        self.count += 1
        self.total += 1
        now = self.clock()
        if now - self.logged_at < 60.0:
            return False
        record.msg = "refused %d malformed HTTP requests since the last report (the last: %s)"
        record.args = (self.count, str(exc.message)[:80])
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        self.logged_at = now
        self.count = 0
        return True


HTTP_LOG: Final = logging.getLogger("easel.server.http")
"""aiohttp's request log for the phones' server, with `BadRequests` on it."""
HTTP_LOG.addFilter(BadRequests())


class GuardedRunner(web.AppRunner):
    """An AppRunner whose connections are counted per address: one over
    `Limits.tcp_per_address` is answered 429 and closed as it opens, before any handler
    reads a byte of it. Its `keepalive_timeout` is the header timeout: a connection
    that does not finish a request in time is closed (aiohttp's idle timer starts when
    the connection opens and after every answer)."""

    def __init__(self, phone_server: PhoneServer, **kwargs: Any) -> None:
        kwargs.setdefault("keepalive_timeout", phone_server.config.server.header_timeout_s)
        kwargs.setdefault("logger", HTTP_LOG)
        super().__init__(phone_server.app, **kwargs)
        self.phone_server = phone_server

    async def _make_server(self) -> Any:
        server = await super()._make_server()
        made, lost = server.connection_made, server.connection_lost
        guard = self.phone_server
        counted: dict[Any, str] = {}

        def connection_made(handler: Any, transport: asyncio.Transport) -> None:
            made(handler, transport)
            peer = transport.get_extra_info("peername")
            address = client_key(str(peer[0]) if peer else None)
            if address in BOX_ITSELF:
                return
            counted[handler] = address
            if guard.tcp.add(address) > guard.limits.tcp_per_address:
                transport.write(_TOO_MANY)
                transport.pause_reading()  # nothing of it is parsed
                # Closed once the handler's task has started: closed here, the lost
                # connection would reach it first and its task would fail an assertion,
                # a traceback in the log for every refused connection of a flood.
                asyncio.get_running_loop().call_soon(handler.force_close)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            address = counted.pop(handler, None)
            if address is not None:
                guard.tcp.add(address, -1)
            lost(handler, exc)

        setattr(server, "connection_made", connection_made)  # noqa: B010
        setattr(server, "connection_lost", connection_lost)  # noqa: B010
        return server


_TOO_MANY: Final = (
    b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Connection: close\r\nContent-Length: 61\r\n\r\n"
    b"too many connections from this address; close some and retry\n"
)


def _peek_type(text: str) -> str:
    try:
        raw = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return "?"
    value = raw.get("type") if isinstance(raw, dict) else None
    return str(value)[:32]


def _is_loopback(remote: str | None) -> bool:
    if not remote:
        return False
    try:  # (::ffff:127.0.0.1 on a dual-stack socket is the box too)
        return ipaddress.ip_address(client_key(remote)).is_loopback
    except ValueError:
        return False


__all__ = ["KIOSK", "PhoneServer"]
