"""The single authority of the box: seats, room code, the running match, the clock.

Everything that changes anything goes through a `Session` method, from one thread (the
event loop's): phones, the kiosk's touch, the table's buttons and the clock's deadlines.
An action is checked by the game's rules, appended to the store's log (committed) and only
then applied and acknowledged; then every viewer's view is recomputed through the one
function that decides what each may see, `view_for`.

With the store's writer thread running (appliance/table/store.py `StoreWriter`, as the appliance
runs it) the commit happens there, off the event loop, and a move is *applied only once
its commit future resolves*: `match.state` is always what is on disk. Moves that arrive
meanwhile are checked against the newest state asked for (the pending chain's head), so
their order is the order they came in and each is judged on the moves before it. A write
that fails refuses that move and every pending one after it (they were judged on it; the
writer skips them, see `Chain`), and nothing of any of them was ever applied or shown:
nothing to roll back. Without a writer (tests driving a session by hand, a box on a
memory store) the commit runs inline, with the same outcome.

Every other change (a seat, a game chosen, started, paused or ended, the language) is a
`Plan`: a generator that checks, yields its writes and changes the memory after each is
committed. `_change` runs one from the loop with its writes on the writer thread (the
`*_async` methods), `_now` on the caller's thread (the plain methods: start-up, tests).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import gc
import hashlib
import json
import logging
import secrets
import sqlite3
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Literal, TypeVar, cast

import msgspec

from appliance.system.config import Config
from appliance.system.ratelimit import TokenBucket
from appliance.table.family_filter import blocked_word
from appliance.table.game_options import default_options, seat_options
from appliance.table.keepsakes import Credit, build_gallery, round_credits
from appliance.table.messages import say
from appliance.table.presence import Presence
from appliance.table.roster import Roster, names_in_turn, person_of
from appliance.table.store import (
    BudgetExceeded,
    LoggedAction,
    MatchRecord,
    SeatRecord,
    Store,
    read_actions,
)
from games import registry
from games.core import (
    NO_SCREEN,
    TABLE,
    VOTE,
    Action,
    GameError,
    Rules,
    SeatInfo,
    end_early,
    no_screen,
    replay,
    seat_back,
    seat_left,
    time_up,
)

log = logging.getLogger("easel.session")

PALETTE: Final = (
    "#e6194b",  # red
    "#3cb44b",  # green
    "#4363d8",  # blue
    "#f58231",  # orange
    "#911eb4",  # purple
    "#42d4f4",  # cyan
    "#f032e6",  # magenta
    "#9a6324",  # brown
)
# No vowels, so a random code never spells a word; no I/O/0/1 to confuse.
ROOM_LETTERS: Final = "BCDFGHJKLMNPQRSTVWXZ"
NAME_MAX: Final = 20
BUTTONS: Final = ("hourglass", "die", "reveal")
CLOCK_SAVE_S: Final = 5.0
"""How often a running hourglass's match time is saved: after a power cut it continues
from at most this much earlier (appliance/system/clock.py)."""
CLOCK_META: Final = "match_clock"
HANDOVER_RETRY_S: Final = 5.0
"""A handed-over seat whose leaving could not be saved is tried again this much later."""
FINISH_BUTTON_AFTER_S: Final = 5.0
"""The table's REVEAL leads from a held finish to the lobby only this long after the game
ended: the press that ended it (Luck of the Draw's last reveal) must not skip its finish."""

"""Which `[timers]` setting is the default `seconds` option of which game."""

WATCHERS_COALESCE_S: Final = 1.0
"""How long a change in the number of watchers may wait to be shown (`_watchers_changed`)."""
NOTICE_S: Final = 4.0
"""How long the kiosk shows a notice: a table button taken, or a press or tap refused."""
HOST_SPEAKS_FOR_TABLE: Final = frozenset({"close_vote"})
"""Kinds the host's phone sends as the table: the rules let the table (the kiosk, the
host), never one player alone, start a vote's countdown (games.core.VOTE)."""

HOST: Final = "host"
"""`by` for requests made on the kiosk itself, which is always allowed to host."""

Requester = int | Literal["host"]

UNLIMITED_CLIENTS: Final = frozenset({"127.0.0.1", "::1"})
"""The box itself (appliance/door/server.py BOX_ITSELF): its seats are not counted per address."""
PENDING_MAX: Final = 64
"""Moves handed to the store's writer and not yet committed, at most: past it (a card
stalled in its fsync for seconds) a move is refused (`still_saving`) before anything is
judged, so the queue and the states it holds stay bounded."""
CHANGES_MAX: Final = 32
"""Changes (a seat, a pause...) waiting for the writer, at most: past it (a stalled
card, a phone repeating itself) the next is refused (`still_saving`) before anything
is checked or queued."""
INK_BYTES_PER_S: Final = 8192
INK_BURST_BYTES: Final = 131_072
"""What one seat may add to the log: a fast drawer logs ~2 KB a second, a hostile phone
is held to ~0.6 MB a minute (a burst of a few large strokes is fine)."""


def pending_per_seat() -> int:
    """A seat's share of `PENDING_MAX` (the table's too): a quarter, so three others
    flooding at once still leave room for an honest seat's moves."""
    return max(1, PENDING_MAX // 4)


class SessionError(Exception):
    """A request the session refused. `code` is for programs, `key`/`params` for people."""

    code = "refused"

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message.format(**params) if params else message)
        self.key = key
        self.template = message  # unformatted: `say` fills it in the table's language
        self.params = params


class WrongRoom(SessionError, PermissionError):
    code = "wrong_room"


class NotHost(SessionError, PermissionError):
    code = "not_host"


class BadName(SessionError, ValueError):
    code = "bad_name"


class BadColour(SessionError, ValueError):
    code = "bad_colour"


class NoSuchSeat(SessionError, LookupError):
    code = "no_such_seat"


class NoSuchGame(SessionError, LookupError):
    code = "no_such_game"


class NotNow(SessionError, RuntimeError):
    """Fine in another phase, not in this one (e.g. `act` in the lobby)."""

    code = "not_now"


class NotSaved(SessionError, OSError):
    """The store could not commit the action (e.g. a full SD card): nothing changed."""

    code = "not_saved"


@dataclass(frozen=True)
class Notice:
    """What the kiosk tells the table for a moment (NOTICE_S): a button press taken
    ("press", `key` is the button), or a press or tap refused ("refused", the error's key,
    sentence and params, said in the table's language when the view is built)."""

    kind: Literal["press", "refused"]
    key: str
    template: str
    params: Mapping[str, Any]
    at: float


class Refused(SessionError, ValueError):
    """The game's rules refused the action; `key`/`params` are the game's."""

    code = "illegal"


class Unfriendly(SessionError, ValueError):
    """Typed text (a guess) the family filter keeps off a family table."""

    code = "unfriendly"


class BadLanguage(SessionError, ValueError):
    code = "bad_language"


class TooManySeats(SessionError, PermissionError):
    """One phone (address) has taken `[table] seats_per_address` seats already."""

    code = "too_many_seats"


class MatchFull(SessionError, OSError):
    """The match's log reached `[storage] match_budget_mb`: nothing more is kept."""

    code = "match_full"


class BoxFull(SessionError, OSError):
    """The data file reached `[storage] total_budget_mb` even after pruning old matches."""

    code = "box_full"


class SlowDown(SessionError, RuntimeError):
    """A seat logs more than a person draws (bytes a second): wait a moment."""

    code = "slow_down"


class StillSaving(SessionError, RuntimeError):
    """The memory card is slow to take the moves already made (`PENDING_MAX` waiting)."""

    code = "still_saving"


class KickedOut(SessionError, PermissionError):
    """The host asked this person to leave the running game: they stay out of it until
    the host lets them back (`let_back`) or the game ends."""

    code = "kicked_out"


class NotKicked(SessionError, LookupError):
    """`let_back` names nobody the host removed from the running game."""

    code = "not_kicked"


class BadHandover(SessionError, ValueError):
    """A seat cannot be offered to a newcomer (no game runs, or it is not in the game)."""

    code = "bad_handover"


@dataclass(frozen=True)
class Welcome:
    """What a phone is after `hello` or `join`."""

    role: Literal["guest", "player", "spectator"]
    seat: int | None = None
    token: str | None = None


@dataclass(frozen=True)
class Viewer:
    """Who a view is for: the kiosk, a seated player, a spectator or a guest (not joined)."""

    role: Literal["kiosk", "player", "spectator", "guest", "host"]
    seat: int | None = None


KIOSK: Final = Viewer("kiosk")
HOST_PAGE: Final = Viewer("host")
"""The host page (appliance/door/host_api.py): the public table plus seats, never a secret."""


class Chain:
    """The moves handed to the writer one after another, each judged on the one before:
    once one fails to commit, `error` says why and the writer commits none after it."""

    def __init__(self) -> None:
        self.error: SessionError | None = None


@dataclass(frozen=True)
class PendingMove:
    """A move judged and handed to the writer, not yet committed (so not yet applied)."""

    action: Action
    action_id: str | None
    seq: int
    state: Any  # the match's state once it is applied
    chain: Chain
    done: asyncio.Future[bool]  # for whoever waits for it, on the loop
    written: concurrent.futures.Future[None]  # the writer's, from its thread


@dataclass
class LiveMatch:
    record: MatchRecord
    rules: Rules[Any]
    state: Any
    next_seq: int
    # The kind of the last action applied since this process started (not replayed: a
    # restart must not buzz or flash for a move made before the power cut).
    last_kind: str | None = None
    # Pause: the match has its own clock, the session's clock minus the time it stood
    # still. Actions are stamped and deadlines judged on it, so every hourglass is
    # shifted by the pause and a replay of the log gives the same states (store.pauses).
    paused_total: float = 0.0
    paused_at: float | None = None
    # Moves handed to the store's writer thread, oldest first (see the module docstring).
    pending: deque[PendingMove] = field(default_factory=deque)
    chain: Chain = field(default_factory=Chain)
    # Who holds which seat from which move on (a seat handed over mid-game has a new
    # holder): what every screen credits drawings and points to (appliance/table/roster.py).
    roster: Roster = field(default_factory=Roster)

    def __post_init__(self) -> None:
        if not self.roster.holders:
            self.roster = self.record.people

    @property
    def head(self) -> Any:
        """The state once every pending move is applied: what the next move is judged on."""
        return self.pending[-1].state if self.pending else self.state


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


T = TypeVar("T")
Write = Callable[[Store], Any]
"""One commit of a change, run on the store's writer thread (or here, without one)."""
Plan = Generator[Write, Any, T]
"""A change of the session as a generator: it checks (raising a refusal), yields each
write and is sent its result (or thrown its error) once it is committed, and only then
changes the memory, so a write that fails leaves the session as it was. `_now` runs one
on this thread, `_change` on the phones' loop with its writes off it."""


class Done(Generic[T]):
    """A change already made (no writer thread, no loop, nothing to write): awaiting it
    gives its result at once. Dropping it unawaited is fine (a coroutine would warn)."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def __await__(self) -> Generator[Any, None, T]:
        return self.value
        yield  # a generator that never suspends


# Characters that draw nothing but are letters or symbols to Unicode (fillers, the
# braille blank, default-ignorable code points): a name of them looks empty or hides.
BLANK_CHARS: Final = frozenset(
    "\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0\u034f\u061c\u2061\u2062\u2063"
    "\u2064\u206a\u206b\u206c\u206d\u206e\u206f\ufeff\u00ad\u200b\u200c\u200e\u200f"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
) | frozenset(chr(c) for c in range(0xFE00, 0xFE10) if c not in (0xFE0E, 0xFE0F))
# What joins an emoji sequence (ZWJ, the presentation selectors, the keycap, the tags of
# a subdivision flag): format characters, yet part of what a person sees as one emoji.
EMOJI_JOINERS: Final = frozenset("\u200d\ufe0e\ufe0f\u20e3") | frozenset(
    chr(c) for c in range(0xE0020, 0xE0080)
)


def _visible(ch: str) -> bool:
    return not ch.isspace() and ch not in BLANK_CHARS and ch not in EMOJI_JOINERS


MARKS_MAX: Final = 3
"""Accents one letter of a name may carry in a row (Vietnamese stacks two, Hindi three):
more is "Zalgo" text, drawn over the names above and below it on the kiosk."""
# Letters of other scripts drawn like a Latin one (after casefolding), and pairs that
# look alike in the kiosk's font: a newcomer named "Аda" in Cyrillic, "Ada️" with a
# variation selector or "AdA" would pass for the "Ada" already seated.
_LOOKALIKE: Final = str.maketrans({
    **dict(zip("аеорсухіјѕԁһӏвкмнтү", "aeopcyxijsdhibkmhty", strict=True)),  # Cyrillic
    **dict(zip("αβεζηικμνορτυχς", "abeznikmvoptuxc", strict=True)),  # Greek
    **dict(zip("01l", "oii", strict=True)),
})


def name_key(name: str) -> str:
    """What two names that look the same on the kiosk have in common: no accents, no
    case, no invisible marks, lookalike letters of other scripts and 0/o, 1/l/I as one."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", name.casefold())
        if unicodedata.category(ch) not in ("Mn", "Me", "Cf") and not ch.isspace()
    )
    return bare.translate(_LOOKALIKE).replace("rn", "m")


def clean_name(raw: str, family_filter: bool = False) -> str:
    """A player's name as shown: trimmed, inner whitespace folded; raises BadName."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise BadName("name_empty", "Please type a name.")
    if len(name) > NAME_MAX:
        raise BadName("name_long", "A name has at most {max} characters.", max=NAME_MAX)
    if any(
        ch in BLANK_CHARS
        or (unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") and ch not in EMOJI_JOINERS)
        for ch in name
    ) or not any(_visible(ch) for ch in name):
        raise BadName("name_chars", "A name may hold letters, digits and punctuation only.")
    run = 0
    for ch in name:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") and (
            ch not in EMOJI_JOINERS) else 0
        if run > MARKS_MAX:
            raise BadName("name_marks", "A letter of a name may carry at most {max} "
                          "marks.", max=MARKS_MAX)
    if family_filter and blocked_word(name) is not None:
        raise BadName("name_unfriendly", "This is a family table: please choose another name.")
    return name


class Session:
    def __init__(
        self,
        store: Store,
        config: Config,
        base_url: str = "",
        clock: Callable[[], float] = time.time,
        deck_options: Callable[[str], Mapping[str, Any]] | None = None,
    ) -> None:
        self.store = store
        stored = store.get_meta("language")
        # The language the host chose on the host page, kept across restarts.
        self.language_override = stored if stored in ("en", "cs") else None
        self.config = _with_stored_language(config, self.language_override)
        self.clock = clock
        self.base_url = base_url.rstrip("/")
        # Extra start options a game's word packs give it (appliance/table/packs.py).
        self.deck_options = deck_options
        self.version = 0
        self._listeners: list[Callable[[], None]] = []
        # Who is connected, who has been gone how long, who is away (not stored: a fact
        # of the connections; appliance/table/presence.py).
        self.presence = Presence(config.table.away_after_s, config.table.away_wait_s)
        self._views: dict[Viewer, dict[str, Any]] = {}
        # What the views of this version share (`_shared_view`, `_shared_match`).
        self._shared: dict[Any, Any] = {}
        self.seats: dict[int, SeatRecord] = {s.seat: s for s in store.seats()}
        self.selected: str | None = store.get_meta("selected")
        self.match: LiveMatch | None = None
        self.last_match: LiveMatch | None = None
        self.notice: Notice | None = None
        # The last match's finish is on every screen (phase "over") until the host moves
        # on: to the lobby (phase "finished") or straight into the next game.
        self.finish_held = False
        self._finished_at = 0.0
        # Seats of the running match whose player left, free to take: the next phone to
        # join gets the seat (its score, its cards) instead of watching.
        self.open_seats: set[int] = set(json.loads(store.get_meta("open_seats") or "[]"))
        # Which address took which seat (memory only: after a restart nobody is counted).
        self._seat_clients: dict[int, str | None] = {}
        self._ink: dict[int | None, TokenBucket] = {}
        # The open seats whose leaving the rules heard (kicked, left): a newcomer taking
        # one is told to them too (SEAT_BACK). A seat handed over is held as it stands.
        self.left_seats: set[int] = set(json.loads(store.get_meta("left_seats") or "[]"))
        # Seats the host handed over, and until when (the match's own time, so a pause
        # stops the count) they wait for a newcomer before the rules hear they are left.
        self.handovers: dict[int, float] = {
            int(seat): float(until)
            for seat, until in json.loads(store.get_meta("handovers") or "{}").items()
        }
        # The people the host removed from the running match (`person_of` their token ->
        # their name): they stay out of it until let back or the match ends, whichever
        # phone they come back on, and so does a name that looks like theirs.
        kicked = json.loads(store.get_meta("kicked") or "{}")
        self.kicked: dict[str, str] = dict(kicked.get("people", {}))
        self.room = self._room_code()
        # The QR code carries the room code, so a scan needs no typing.
        self.join_url = f"{base_url.rstrip('/')}/?room={self.room}" if base_url else ""
        self._clock_saved_at = float("-inf")
        self._setting_up = False  # a start_async is reading packs on a worker thread
        self._table_starts: set[asyncio.Future[Any]] = set()  # the kiosk's, kept till done
        # The change being written through the writer thread, if any (`_change`): the
        # next one waits for it, so each is checked on what the one before left.
        self._in_flight: asyncio.Future[Any] | None = None
        self._changes: set[asyncio.Future[Any]] = set()  # kept till done
        self._expiring = False  # a handed-over seat's wait is running out (`tick`)
        # The seats the rules heard leave because their player was away (they come back
        # with SEAT_BACK when a phone of theirs is back).
        self.away_left: set[int] = set(json.loads(store.get_meta("away_left") or "[]"))
        self._leaving_away = False  # an away seat's leaving is being written (`tick`)
        self._watchers_due: asyncio.TimerHandle | None = None  # `_watchers_changed`
        # A finished match's pictures of seats that changed hands: who drew each, round by
        # round (`_credit_drawings`), for the art show on every screen.
        self._credits: dict[int, tuple[Credit, ...]] = {}
        self._resume()
        if self.match is None and not self.finish_held:
            self._resume_finish()
        self.presence.restart_counts(self.seats, self._table_time())  # nobody is back yet

    # -- start-up ---------------------------------------------------------------------
    def _room_code(self) -> str:
        """Keep the code while anyone is seated (a power cut must not lock them out)."""
        stored = self.store.get_meta("room")
        if stored and len(stored) == self.config.table.room_code_length and (
            self.seats or self.store.unfinished_match()
        ):
            return stored
        code = "".join(
            secrets.choice(ROOM_LETTERS) for _ in range(self.config.table.room_code_length)
        )
        self.store.set_meta("room", code)
        return code

    def _resume(self) -> None:
        record = self.store.unfinished_match()
        if record is None:
            return
        if not registry.is_registered(record.game):
            log.error("match %d of unknown game %r cannot resume; closed", record.id, record.game)
            self.store.finish_match(record.id, None, self.clock())
            return
        try:
            rules, logged, state = self._replayed(record)
        except (GameError, ValueError, KeyError, TypeError) as err:
            log.error("match %d does not replay (%s); closed, its log is kept", record.id, err)
            self.store.finish_match(record.id, None, self.clock())
            return
        next_seq = logged[-1].seq + 1 if logged else 0
        paused_total, paused_at = self.store.pause_of(record.id)
        live = LiveMatch(record, rules, state, next_seq, None, paused_total, paused_at)
        outcome = rules.outcome(state)
        if outcome is not None:
            # The power went after the last move was committed but before the match was
            # closed: close it now, or the table would "play" a game nobody can move in.
            self.store.finish_match(record.id, outcome, self.clock())
            self._made_gallery(live)
            self._credit_drawings(live)
            self.last_match = live
            self._match_over()
            self._hold_finish(live)
            log.info("match %d had ended before the restart: %s", record.id, outcome)
            return
        self._carry_over_time(live, logged[-1].action.at if logged else None)
        self.match = live
        # What the first views would compute on the loop (ArtBox's shape check of every
        # picture on the table, cold after a restart: up to ~100 ms one), made on the
        # writer thread while the box starts, as after every live move.
        after_move = registry.house(rules.id).make_after_move
        if after_move is not None:
            self.store.later(lambda _: _made_after_move(after_move, state))
        log.info("resumed match %d of %s after %d actions", record.id, record.game, len(logged))

    def _carry_over_time(self, live: LiveMatch, last_action_at: float | None) -> None:
        """The time the box was off runs no hourglass. The match's own clock continues
        from the last reading saved (the heartbeat of `keep_time`, or the last action's
        stamp), whatever this clock says now: a Pi without a real-time clock starts from
        the time it last saved, and NTP may set it hours later. Stored, like a pause, so
        the log replays to the same states."""
        seen = live.record.started_at  # the match clock read that at its start
        if last_action_at is not None:
            seen = max(seen, last_action_at)
        saved = self._saved_match_time(live.record.id)
        if saved is not None:
            seen = max(seen, saved)
        now = self.clock()
        if live.paused_at is not None:
            # Still paused: the match clock stays frozen where the pause froze it.
            frozen = live.paused_at - live.paused_total
            live.paused_at, live.paused_total = now, now - frozen
        else:
            live.paused_total = now - seen
        self.store.set_pause(live.record.id, live.paused_total, live.paused_at)
        self._clock_saved_at = now

    def _saved_match_time(self, match_id: int) -> float | None:
        try:
            saved = json.loads(self.store.get_meta(CLOCK_META) or "null")
            if isinstance(saved, dict) and saved.get("match") == match_id:
                return float(saved["at"])
        except (ValueError, TypeError, KeyError):
            log.warning("the saved match time is unreadable; using the last move's")
        return None

    def keep_time(self) -> None:
        """Save the running match's own time every CLOCK_SAVE_S, so an hourglass running
        when the power goes continues after the restart with the time it had left (the
        appliance calls this from its clock tick; cheap otherwise)."""
        match = self.match
        if match is None or match.paused_at is not None:
            return
        now = self.clock()
        if 0.0 <= now - self._clock_saved_at < CLOCK_SAVE_S:
            return
        self._clock_saved_at = now
        reading = json.dumps({"match": match.record.id, "at": self.match_clock(match)})
        # No one waits for it: with the writer thread it is handed over, not awaited.
        written = self.store.later(lambda store: store.set_meta(CLOCK_META, reading))
        if written is not None:
            written.add_done_callback(_log_clock_failure)
            return
        try:
            self.store.set_meta(CLOCK_META, reading)
        except sqlite3.Error as err:  # the game goes on; a power cut would lose a little
            log.error("could not save the match's time: %s", err)

    def set_base_url(self, base_url: str) -> bool:
        """Phones now reach the box at `base_url` (the network came up, or the lease
        changed): the join address and its QR code follow. True if it changed."""
        base = base_url.rstrip("/")
        if base == self.base_url:
            return False
        self.base_url = base
        self.join_url = f"{base}/?room={self.room}" if base else ""
        self._changed()
        return True

    # -- listeners --------------------------------------------------------------------
    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every change (from the session's thread)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        self.version += 1
        self._views.clear()
        self._shared.clear()
        for listener in self._listeners:
            listener()

    # -- changes and their writes ---------------------------------------------------
    def _now(self, plan: Plan[T]) -> T:
        """Run a change here, each write waited for on this thread: start-up, tests and a
        store without a writer (never the phones' loop with one: that is `_change`)."""
        result: Any = None
        failure: Exception | None = None
        while True:
            try:
                job = plan.send(result) if failure is None else plan.throw(failure)
            except StopIteration as stop:
                return cast(T, stop.value)
            result, failure = None, None
            try:
                result = self.store.write(job)
            except Exception as err:  # the plan hears it where it yielded
                failure = err

    def _change(self, plan: Plan[T]) -> Awaitable[T]:
        """Run a change from the phones' loop without ever waiting there for a commit:
        its checks run now (a refusal raises here) unless another change is still being
        written, its writes go to the store's writer thread one by one, and the memory
        changes as each is committed. One change at a time, in the order asked (the next
        is checked on what this one left). Without a writer or a loop it is `_now`."""
        if self.store.writer is None or not _loop_running():
            return Done(self._now(plan))
        before = self._in_flight
        if len(self._changes) >= CHANGES_MAX:
            plan.close()
            raise StillSaving("still_saving", "The box is still saving the last moves; try "
                              "again in a moment.")
        if before is None or before.done():
            try:
                first = next(plan)
            except StopIteration as stop:
                return Done(cast(T, stop.value))
            work = self._write_all(plan, first)
        else:
            work = self._after(before, plan)
        task = asyncio.get_running_loop().create_task(work)
        self._in_flight = task
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return asyncio.shield(task)  # a caller that goes away does not stop the change

    async def settled(self) -> None:
        """Wait until every change asked for so far is made or refused (the kiosk's
        included): for tests and for a clean stop."""
        while pending := [*self._changes, *self._table_starts]:
            await asyncio.gather(*pending, return_exceptions=True)
            await asyncio.sleep(0)  # their done-callbacks run

    async def _written_so_far(self) -> None:
        """Until no change is being written (a refusal is its own caller's)."""
        while (before := self._in_flight) is not None and not before.done():
            await asyncio.wait([before])

    async def _start_when_written(self, by: Requester, options: Mapping[str, Any] | None) -> None:
        await self._written_so_far()
        await self.start_async(by, options)

    async def _after(self, before: asyncio.Future[Any], plan: Plan[T]) -> T:
        await asyncio.wait([before])  # its refusal was its caller's
        try:
            first = next(plan)
        except StopIteration as stop:
            return cast(T, stop.value)
        return await self._write_all(plan, first)

    async def _write_all(self, plan: Plan[T], job: Write) -> T:
        while True:
            result: Any = None
            failure: Exception | None = None
            written = self.store.later(job)
            try:
                result = job(self.store) if written is None else await asyncio.wrap_future(
                    written)
            except Exception as err:
                failure = err
            try:
                job = plan.send(result) if failure is None else plan.throw(failure)
            except StopIteration as stop:
                return cast(T, stop.value)

    def _keep(self, job: Write, what: str, then: Callable[[], None] | None = None) -> None:
        """A write whose failure changes nothing but the log (what it kept is lost on a
        restart): handed to the writer and not waited for on the loop; `then` runs on the
        loop once it is committed."""
        written = self.store.later(job) if _loop_running() else None
        if written is None:
            try:
                self.store.write(job)
            except sqlite3.Error as err:
                log.error("%s: %s", what, err)
                return
            if then is not None:
                then()
            return
        loop = asyncio.get_running_loop()

        def heard(done: concurrent.futures.Future[Any]) -> None:
            err = done.exception()
            if err is not None:
                log.error("%s: %s", what, err)
            elif then is not None:
                _on_loop(loop, then)

        written.add_done_callback(heard)

    # -- who is who -------------------------------------------------------------------
    @property
    def host_seat(self) -> int | None:
        """The VIP: the player seated longest; they may kick and start from their phone."""
        if not self.seats:
            return None
        return min(self.seats.values(), key=lambda s: (s.joined_at, s.seat)).seat

    def _require_host(self, by: Requester) -> None:
        if by != HOST and by != self.host_seat:
            raise NotHost("not_host", "Only the host can do that.")

    def hello(self, room: str, token: str | None) -> Welcome:
        if token:
            wanted = hash_token(token)
            for record in self.seats.values():
                if secrets.compare_digest(record.token_hash, wanted):
                    return Welcome("player", record.seat, token)
        if room.strip().upper() != self.room:
            raise WrongRoom(
                "wrong_room", "There is no table with the code {room}.", room=room.strip()[:12]
            )
        return Welcome("guest")

    def join(
        self, name: str, colour: str, client: str | None = None, kiosk: bool = False,
        person: str | None = None,
    ) -> Welcome:
        """`join_async`, waited for here (tests, a store without a writer)."""
        return self._now(self._join(name, colour, client, kiosk, person))

    def join_async(
        self, name: str, colour: str, client: str | None = None, kiosk: bool = False,
        person: str | None = None,
    ) -> Awaitable[Welcome]:
        """Take a seat. `client` is the phone's address: it may hold at most
        `[table] seats_per_address` seats (None, the kiosk or the box itself: no limit).
        `kiosk`: a seat made at the kiosk, for a player with no phone (kept with the seat;
        every start tells the games, see `start`). A freed seat taken over mid-game is
        always a phone's. Seated once the seat is committed (`_change`). `person`: who the
        phone was before (`person_of` the token it last held), if it says: a person the
        host removed stays out of the running game, and one who held a seat of it gets
        that seat back or watches, never another person's seat."""
        return self._change(self._join(name, colour, client, kiosk, person))

    def _join(
        self, name: str, colour: str, client: str | None, kiosk: bool, person: str | None
    ) -> Plan[Welcome]:
        name = clean_name(name, self.config.table.family_filter)
        self._check_not_kicked(name, person)
        # Only a new seat takes the colour asked for: a freed seat keeps its own and a
        # spectator (a game runs, or every seat is taken) has none, so it may send none.
        # Watching takes no seat, so the per-address limit is for seats only.
        if self.match is not None and kiosk:
            # Back at the table without a phone: only into a seat the game knows has no
            # private screen (made at the kiosk when it started, so dealt no secret role).
            free = self.kiosk_seat_free()
            if free is None:
                raise NotNow("no_kiosk_seat", "No seat without a phone is free in this "
                             "game; join it from a phone, or wait for the next one.")
            return (yield from self._take_open_seat(name, None, free, kiosk=True))
        if self.match is not None and self._free_to_take():
            held = self._seat_held_by(person)
            if held is not None and held not in self._free_to_take():
                return Welcome("spectator")  # their seat went on with someone else
            self._check_seats_of(client)
            return (yield from self._take_open_seat(name, client, held))
        if self.match is not None or len(self.seats) >= self.config.table.max_players:
            return Welcome("spectator")
        self._check_seats_of(client)
        if colour not in PALETTE:
            raise BadColour("bad_colour", "Please pick one of the colours shown.")
        self._check_name_free(name)
        if any(s.colour == colour for s in self.seats.values()):
            raise BadColour("colour_taken", "That colour is taken; please pick another.")
        seat = min(set(range(self.config.table.max_players)) - set(self.seats))
        token = secrets.token_urlsafe(24)
        record = SeatRecord(seat, name, colour, hash_token(token), self.clock(), kiosk)
        try:
            yield lambda store: store.put_seat(record)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        self.seats[seat] = record
        self._seat_clients[seat] = client
        log.info("seat %d joined as %r%s", seat, name, " at the kiosk" if kiosk else "")
        self._changed()
        return Welcome("player", seat, token)

    def kiosk_seat_free(self) -> int | None:
        """A free seat of the running game that was made at the kiosk when it started
        (the game deals it no role that needs a phone): a player without one may sit
        there again from the kiosk's seat pad."""
        match = self.match
        if match is None:
            return None
        at_kiosk = no_screen(match.record.options, self._match_seats())
        free = [s for s in self._free_to_take() if s in at_kiosk]
        return free[0] if free else None

    def _check_not_kicked(self, name: str, person: str | None) -> None:
        if self.match is None or not self.kicked:
            return
        key = name_key(name)
        if (person is not None and person in self.kicked) or any(
            name_key(gone) == key for gone in self.kicked.values()
        ):
            raise KickedOut("kicked_out", "The host asked you to leave this game. You can "
                            "join the next one, or ask the host to let you back in.")

    def _seat_held_by(self, person: str | None) -> int | None:
        """The seat of the running match `person` held last, if any."""
        match = self.match
        if match is None or not person:
            return None
        held = match.roster.held_by(person)
        return held[-1].seat if held else None

    def let_back(self, by: Requester, name: str) -> None:
        self._now(self._let_back(by, name))

    def let_back_async(self, by: Requester, name: str) -> Awaitable[None]:
        return self._change(self._let_back(by, name))

    def _let_back(self, by: Requester, name: str) -> Plan[None]:
        """The host lets a person they removed from the running game join it again."""
        self._require_host(by)
        key = name_key(name)
        kept = {p: gone for p, gone in self.kicked.items() if name_key(gone) != key}
        if len(kept) == len(self.kicked):
            raise NotKicked("not_kicked", "Nobody called {name} was asked to leave.",
                            name=name[:NAME_MAX])
        try:
            yield self._kicked_job(kept)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        self.kicked = kept
        log.info("%r may join the game again", name)
        self._changed()

    def _kicked_job(self, kicked: Mapping[str, str]) -> Write:
        value = json.dumps({"people": dict(kicked)})
        return lambda store: store.set_meta("kicked", value)

    def _check_seats_of(self, client: str | None) -> None:
        limit = self.config.table.seats_per_address
        if client is None or limit <= 0 or client in UNLIMITED_CLIENTS:
            return
        held = sum(1 for seat in self.seats if self._seat_clients.get(seat) == client)
        if held >= limit:
            raise TooManySeats(
                "too_many_seats", "This phone has taken {max} seats already; each player "
                "joins from their own phone.", max=limit,
            )

    # -- handing a seat over mid-game --------------------------------------------------
    def offer_seat(self, by: Requester, seat: int) -> None:
        self._now(self._offer_seat(by, seat))

    def offer_seat_async(self, by: Requester, seat: int) -> Awaitable[None]:
        return self._change(self._offer_seat(by, seat))

    def _offer_seat(self, by: Requester, seat: int) -> Plan[None]:
        """The host frees a seat of the running match for a newcomer: its phone (if any)
        is let go, and the next phone to join takes the seat as it stands, score and all."""
        self._require_host(by)
        if self.match is None:
            raise BadHandover(
                "handover_no_game", "Seats are handed over during a game; none is running."
            )
        if seat not in self._match_seats():
            raise BadHandover(
                "handover_not_playing", "Seat {seat} is not playing this game.", seat=seat + 1
            )
        if seat in self.open_seats:
            raise BadHandover(
                "handover_already", "Seat {seat} is already free to take.", seat=seat + 1
            )
        # Held as it stands, not left: the game waits for the newcomer (kick instead to
        # have the rules skip the seat's duties), but not for ever: after
        # `[table] handover_wait_s` of play nobody took, `tick` tells the rules it is left.
        match = self.match
        until = self.match_clock(match) + self.config.table.handover_wait_s
        seated = seat in self.seats
        saved = self._open_seats_job(
            self.open_seats | {seat}, self.left_seats, {**self.handovers, seat: until})
        def write(store: Store) -> None:
            if seated:
                store.remove_seat(seat)
            saved(store)

        try:
            yield write
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        if self.match is not match:
            return  # the match ended while it was written
        if seat in self.seats:
            del self.seats[seat]
            self.presence.forget(seat)
        self.open_seats.add(seat)
        self.handovers[seat] = until
        log.info("seat %d is free to take", seat)
        self._changed()

    def _leave_match(self, seat: int) -> Plan[None]:
        """A seat of the running match is left (kicked, or its player left): the rules
        hear it as a logged SEAT_LEFT, so they skip or pass on its duties instead of
        waiting, and the seat is free for the next phone that joins (SEAT_BACK then)."""
        match = self.match
        if match is None or seat not in self._match_seats() or seat in self.open_seats:
            return
        told = True
        self.presence.forget(seat)
        if seat in self.away_left:  # the rules heard it already, while its player was away
            away = self.away_left - {seat}
            try:
                yield self._away_job(away)
            except sqlite3.Error as err:
                raise _store_failed(err) from err
            self.away_left = away
        else:
            try:
                self._commit(match, seat_left(seat, self.match_clock(match)), None)
            except Refused as err:  # a game that cannot hear it plays on as before
                log.error("%s refused seat %d leaving: %s", match.rules.id, seat, err)
                told = False
        if self.match is match:  # not ended by it (too few players left)
            left = self.left_seats | {seat} if told else self.left_seats
            try:
                yield self._open_seats_job(self.open_seats | {seat}, left, self.handovers)
            except sqlite3.Error as err:
                raise _store_failed(err) from err
            if self.match is match:
                self.open_seats.add(seat)
                self.left_seats = self.left_seats | left

    def _expire_handovers(self, match: LiveMatch) -> Plan[bool]:
        """A handed-over seat that nobody took in time is treated as left (SEAT_LEFT, as a
        kick would be): the rules skip or pass on its duties, and the seat stays free for
        a late newcomer (who then comes back with SEAT_BACK). True if one expired."""
        now = self.match_clock(match)
        due = sorted(seat for seat, until in self.handovers.items() if until <= now)
        for seat in due:
            if self.match is not match:  # the match ended on an earlier one (too few left)
                break
            log.info("nobody took seat %d in time: it is treated as left", seat)
            self.open_seats.discard(seat)  # so that _leave_match tells the rules
            try:
                yield from self._leave_match(seat)
            except SessionError:
                # Not saved (a full or failing card): held open as before, tried again
                # later rather than on every turn of the loop.
                self.open_seats.add(seat)
                self.handovers[seat] = now + HANDOVER_RETRY_S
                self._keep(self._open_seats_job(), "the open seats are not kept")
                raise
            self.handovers.pop(seat, None)
            self._keep(self._open_seats_job(), "the open seats are not kept")
            self._changed()
        return bool(due)

    def _handover_views(self, match: LiveMatch | None) -> list[dict[str, Any]]:
        """The handed-over seats still waiting, for every screen's countdown: when the
        wait ends on the session's clock (null while paused) and what is left of it."""
        if match is None or match is not self.match:
            return []
        now = self.match_clock(match)
        paused = match.paused_at is not None
        return [
            {"seat": seat, "at": None if paused else until + match.paused_total,
             "remaining": round(max(0.0, until - now), 1)}
            for seat, until in sorted(self.handovers.items(), key=lambda item: item[1])
            if seat in self.open_seats
        ]

    def _free_to_take(self) -> list[int]:
        return sorted(self.open_seats & self._match_seats())

    def _check_name_free(self, name: str) -> None:
        """Names are unique regardless of case, and one that looks like a seated
        player's on the kiosk (`name_key`) is refused too."""
        key = name_key(name)
        for seat in self.seats.values():
            if seat.name.casefold() == name.casefold():
                raise BadName("name_taken", "{name} is already at the table.", name=name)
            if name_key(seat.name) == key:
                raise BadName("name_alike", "{other} is already at the table and the name "
                              "looks the same; please choose another.", other=seat.name)

    def _take_open_seat(
        self, name: str, client: str | None = None, seat: int | None = None,
        kiosk: bool = False,
    ) -> Plan[Welcome]:
        """A newcomer takes the first free seat of the running match (`seat`: this one,
        the seat they held before; `kiosk`: from the kiosk's seat pad, without a phone)."""
        self._check_name_free(name)
        seat = self._free_to_take()[0] if seat is None else seat
        match = self.match
        assert match is not None
        away = self.away_left - {seat}
        if seat in self.left_seats or seat in self.away_left:
            # The rules heard it leave (kicked, or its player away and the game went on):
            # the game counts on the seat again (committed before anyone is seated).
            try:
                self._commit(match, seat_back(seat, self.match_clock(match)), None)
            except Refused as err:
                log.error("%s refused seat %d coming back: %s", match.rules.id, seat, err)
            self.left_seats.discard(seat)
        # The seat keeps its colour: the game's screens know the seat by it.
        colour = next(s.colour for s in match.record.seats if s.seat == seat)
        token = secrets.token_urlsafe(24)
        record = SeatRecord(seat, name, colour, hash_token(token), self.clock(), kiosk)
        # The newcomer's from the next move handed to the writer on; what the seat made
        # before stays its earlier holders', moves still pending too (the SEAT_BACK above,
        # a stroke of the earlier holder in flight get their seqs before it).
        roster = match.roster.taken(seat, name, colour, match.next_seq + len(match.pending),
                                    person_of(record.token_hash))
        match_id = match.record.id
        saved = self._open_seats_job(
            self.open_seats - {seat}, self.left_seats,
            {s: until for s, until in self.handovers.items() if s != seat})
        keep_away = self._away_job(away) if away != self.away_left else None

        def write(store: Store) -> None:
            store.put_seat(record)
            store.set_roster(match_id, roster)
            saved(store)
            if keep_away is not None:
                keep_away(store)

        try:
            yield write
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        # Changes are made one at a time (`_change`): nobody took the seat meanwhile; a
        # match that ended meanwhile leaves the newcomer seated in the lobby.
        self.seats[seat] = record
        self._seat_clients[seat] = client
        self.away_left = self.away_left - {seat}
        match.roster = roster
        self.open_seats.discard(seat)
        self.handovers.pop(seat, None)  # taken in time: the seat plays on
        log.info("seat %d taken over by %r", seat, name)
        self._changed()
        return Welcome("player", seat, token)

    def _open_seats_job(
        self,
        open_seats: set[int] | None = None,
        left_seats: set[int] | None = None,
        handovers: Mapping[int, float] | None = None,
    ) -> Write:
        """The write that keeps these open seats (default: the session's now)."""
        opened = self.open_seats if open_seats is None else open_seats
        left = self.left_seats if left_seats is None else left_seats
        waits = self.handovers if handovers is None else handovers
        values = {
            "open_seats": json.dumps(sorted(opened)),
            "left_seats": json.dumps(sorted(left & opened)),
            "handovers": json.dumps({str(seat): until for seat, until in sorted(waits.items())
                                     if seat in opened}),
        }
        return lambda store: store.set_metas(values)

    def _match_over(self) -> None:
        """The running match ended (finished or stopped): its open seats go with it, and
        whoever was removed from it may join the next."""
        if self.kicked:
            self.kicked = {}
            self._keep(self._kicked_job({}), "the removed players are not let back")
        if self.away_left or self.presence.shown:
            self.away_left = set()
            self.presence.shown = frozenset()
            self._keep(self._away_job(set()), "the players away are not forgotten")
        if self.open_seats or self.left_seats or self.handovers:
            self.open_seats.clear()
            self.left_seats.clear()
            self.handovers.clear()
            self._keep(self._open_seats_job(), "the open seats are not cleared")

    # -- the finish: a finished game stays on every screen until the host moves on ----
    def _hold_finish(self, match: LiveMatch) -> None:
        self.finish_held = True
        self._finished_at = self.clock()
        held = str(match.record.id)
        # The game is over either way; only a restart forgets.
        self._keep(lambda store: store.set_meta("finish", held),
                   f"the finish of match {held} is not kept")

    def _replayed(self, record: MatchRecord) -> tuple[Rules[Any], list[LoggedAction], Any]:
        """A stored match's rules, log and state rebuilt from the log (raises what the
        rules raise on a log they cannot replay)."""
        rules = registry.get(record.game)
        with _collector_paused():
            logged = self.store.actions(record.id)
            state = replay(
                rules, record.seats, record.options, record.seed, [a.action for a in logged]
            )
        return rules, logged, state

    def _resume_finish(self) -> None:
        """After a restart during a finish, show it again: replay its (closed) match."""
        held = self.store.get_meta("finish")
        record = self.store.match(int(held)) if held and held.isdigit() else None
        if record is None or record.outcome is None or not registry.is_registered(record.game):
            return
        try:
            rules, logged, state = self._replayed(record)
        except (GameError, ValueError, KeyError, TypeError) as err:
            log.error("the finish of match %d does not replay (%s)", record.id, err)
            return
        if rules.outcome(state) is None:
            return
        next_seq = logged[-1].seq + 1 if logged else 0
        self.last_match = LiveMatch(record, rules, state, next_seq)
        self._credit_drawings(self.last_match)
        self.finish_held = True
        self._finished_at = self.clock()
        log.info("showing the finish of match %d again after the restart", record.id)

    def leave_finish(self, by: Requester, again: bool = False) -> None:
        """The host moves on from a finish: back to the lobby, or `again`: the same game
        with the same options and whoever is seated now."""
        options = self._now(self._leave_finish(by, again))
        if options is not None:
            self.start(by, options)  # it refuses (e.g. too few seated): the finish stays

    def leave_finish_async(
        self, by: Requester, again: bool = False
    ) -> Coroutine[Any, Any, None] | None:
        """`leave_finish` whose next game is set up off the loop (`start_async`): None
        when it went back to the lobby, else the start's coroutine. A refusal found at
        once raises here."""
        chosen = self._change(self._leave_finish(by, again))
        if isinstance(chosen, Done):
            options = chosen.value
            return None if options is None else self.start_async(by, options)
        return self._start_after(by, chosen)

    async def _start_after(
        self, by: Requester, chosen: Awaitable[dict[str, Any] | None]
    ) -> None:
        options = await chosen
        if options is not None:
            await self.start_async(by, options)

    def _leave_finish(self, by: Requester, again: bool) -> Plan[dict[str, Any] | None]:
        """Back to the lobby (None), or the options to start the same game again with."""
        self._require_host(by)
        last = self.last_match
        if not self.finish_held or last is None:
            raise NotNow("no_finish", "No finished game is on the screen.")
        if again:
            decks = self.deck_options(last.rules.id) if self.deck_options else {}
            # The packs' decks are the box's to give again (they may have changed), and
            # who has no phone is the seats' to say now (`start`), not the last game's.
            options = {k: v for k, v in last.record.options.items() if k not in decks}
            if options.get(NO_SCREEN):
                options.pop("paper", None)  # the seats' paper then: `start` asks them again
            game = last.record.game
            try:
                yield lambda store: store.set_meta("selected", game)
            except sqlite3.Error as err:
                raise _store_failed(err) from err
            self.selected = game
            return options
        self._release_finish()
        log.info("back to the lobby after match %d", last.record.id)
        self._changed()
        return None

    def _release_finish(self) -> None:
        if self.finish_held:
            self.finish_held = False
            # A restart would show the finish once more.
            self._keep(lambda store: store.set_meta("finish", ""),
                       "the end of the finish is not kept")

    # -- the host's table settings ------------------------------------------------------
    def set_language(self, by: Requester, lang: str) -> None:
        self._now(self._set_language(by, lang))

    def set_language_async(self, by: Requester, lang: str) -> Awaitable[None]:
        return self._change(self._set_language(by, lang))

    def _set_language(self, by: Requester, lang: str) -> Plan[None]:
        """The kiosk's and phones' language, kept across restarts (store meta)."""
        self._require_host(by)
        if lang not in ("en", "cs"):
            raise BadLanguage("bad_language", "The box speaks en or cs, not {lang}.", lang=lang[:8])
        try:
            yield lambda store: store.set_meta("language", lang)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        self.language_override = lang
        self.config = _with_stored_language(self.config, lang)
        self._changed()

    def leave(self, seat: int) -> None:
        self._now(self._leave(seat))

    def leave_async(self, seat: int) -> Awaitable[None]:
        return self._change(self._leave(seat))

    def _leave(self, seat: int) -> Plan[None]:
        """A player goes; mid-game the rules skip their duties and a newcomer may take
        the seat, score and all."""
        if seat in self.seats:
            yield from self._leave_match(seat)
        yield from self._free(seat)

    def kick(self, by: Requester, seat: int) -> None:
        self._now(self._kick(by, seat))

    def kick_async(self, by: Requester, seat: int) -> Awaitable[None]:
        return self._change(self._kick(by, seat))

    def _kick(self, by: Requester, seat: int) -> Plan[None]:
        self._require_host(by)
        record = self.seats.get(seat)
        if record is None:
            raise NoSuchSeat("no_such_seat", "Nobody sits in seat {seat}.", seat=seat + 1)
        if self.match is not None and seat in self._match_seats():
            # Out of this game, on whichever phone they come back (until let back).
            kicked = {**self.kicked, person_of(record.token_hash): record.name}
            try:
                yield self._kicked_job(kicked)
            except sqlite3.Error as err:
                raise _store_failed(err) from err
            self.kicked = kicked
        yield from self._leave_match(seat)
        yield from self._free(seat)

    def _free(self, seat: int) -> Plan[None]:
        if seat not in self.seats:
            return
        try:
            yield lambda store: store.remove_seat(seat)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        if seat not in self.seats:
            return
        del self.seats[seat]
        self.presence.forget(seat)
        log.info("seat %d freed", seat)
        self._changed()

    def is_seated(self, seat: int, token: str) -> bool:
        """Does `token` still hold `seat`? (False once the seat was kicked or left.)"""
        record = self.seats.get(seat)
        return record is not None and secrets.compare_digest(record.token_hash, hash_token(token))

    # -- presence (not stored: it is a fact of the connections) -----------------------
    def attach(self, viewer: Viewer) -> None:
        """A phone of `viewer` is connected. Only a seat's first phone changes what the
        table shows (a second tab, a reconnect racing its old socket change nothing)."""
        if viewer.role == "player" and viewer.seat is not None:
            seat = viewer.seat
            if not self.presence.arrive(seat):
                return
            if seat in self.away_left and self.match is not None:
                try:
                    self._track(self._change(self._back_from_away(self.match, seat)))
                except SessionError as err:  # a stalled card: the next tick tries again
                    log.error("seat %d is back but the game cannot hear it yet: %s", seat, err)
        elif viewer.role == "spectator":
            self.presence.watchers += 1
            self._watchers_changed()
            return
        else:
            return
        self._changed()

    def detach(self, viewer: Viewer) -> None:
        if viewer.role == "player" and viewer.seat is not None:
            if not self.presence.depart(viewer.seat, self._table_time()):
                return
        elif viewer.role == "spectator":
            self.presence.watchers = max(0, self.presence.watchers - 1)
            self._watchers_changed()
            return
        else:
            return
        self._changed()

    def _watchers_changed(self) -> None:
        """How many watch is shown, but a crowd coming and going must not make a table
        version (a view to every phone) each time: the count goes out with the next
        change, or WATCHERS_COALESCE_S after the first of a burst."""
        if not _loop_running():
            self._changed()
            return
        if self._watchers_due is None:
            self._watchers_due = asyncio.get_running_loop().call_later(
                WATCHERS_COALESCE_S, self._watchers_shown)

    def _watchers_shown(self) -> None:
        self._watchers_due = None
        if self._shared.get("view", {}).get("spectators") != self.presence.watchers:
            self._changed()

    # -- away: nobody absent holds the table --------------------------------------------
    def _table_time(self) -> float:
        """The running match's own clock (a pause stops it), else the session's."""
        return self.match_clock(self.match) if self.match is not None else self.clock()

    def _track(self, work: Awaitable[Any]) -> None:
        """A change started by the session itself: its refusal goes to the log and the
        kiosk, never to a phone that did not ask."""
        if isinstance(work, Done):
            return
        self.start_for_table(work)

    def _away_seats(self, match: LiveMatch) -> dict[int, float]:
        """The match's seats shown as away, and when (the match's clock) the game goes on
        without each. A seat made at the kiosk has no phone to lose; a seat handed over
        waits on its own count (`handovers`)."""
        return self.presence.away(self._phone_seats(), self.match_clock(match))

    def _phone_seats(self) -> set[int]:
        """The running match's seats held by a player with a phone."""
        return {seat for seat in self._match_seats()
                if seat in self.seats and not self.seats[seat].kiosk
                and seat not in self.open_seats}

    def _waits_for(self, match: LiveMatch, seat: int) -> bool:
        """Does the game wait for `seat`: something is theirs to do and no hourglass (or
        a vote's countdown) will end it by itself?"""
        state = match.head
        deadline = match.rules.deadline(state)
        if deadline is not None and deadline.what in ("hourglass", VOTE):
            return False
        return bool(match.rules.legal_actions(state, seat))

    def _away_due(self, match: LiveMatch) -> list[int]:
        """The away seats whose countdown ran out and whom the game waits for."""
        now = self.match_clock(match)
        return sorted(
            seat for seat, until in self._away_seats(match).items()
            if until <= now and seat not in self.away_left and self._waits_for(match, seat)
        )

    def _away_job(self, away: set[int]) -> Write:
        value = json.dumps(sorted(away))
        return lambda store: store.set_meta("away_left", value)

    def _leave_away(self, match: LiveMatch, seats: list[int]) -> Plan[None]:
        """The game goes on without players who are away: the rules hear SEAT_LEFT, as
        for a player who left (their duties skipped or passed on), and SEAT_BACK when
        their phone is back (`attach`)."""
        for seat in seats:
            if self.match is not match or seat in self.away_left:
                break
            log.info("seat %d is away: the game goes on without it", seat)
            try:
                self._commit(match, seat_left(seat, self.match_clock(match)), None)
            except Refused as err:
                log.error("%s refused seat %d leaving: %s", match.rules.id, seat, err)
                continue
            away = self.away_left | {seat}
            try:
                yield self._away_job(away)
            except sqlite3.Error as err:
                raise _store_failed(err) from err
            self.away_left = away
        self._changed()

    def _back_from_away(self, match: LiveMatch, seat: int) -> Plan[None]:
        if self.match is not match or seat not in self.away_left:
            return
        log.info("seat %d is back", seat)
        try:
            self._commit(match, seat_back(seat, self.match_clock(match)), None)
        except Refused as err:
            log.error("%s refused seat %d coming back: %s", match.rules.id, seat, err)
        away = self.away_left - {seat}
        try:
            yield self._away_job(away)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        self.away_left = away
        self._changed()

    def _away_views(self, match: LiveMatch | None) -> list[dict[str, Any]]:
        """The seats shown as away, for every screen: when the game goes on without each
        (the session's clock; null while paused), what is left of the count, and whether
        it already went on without them."""
        if match is None or match is not self.match:
            return []
        now = self.match_clock(match)
        paused = match.paused_at is not None
        return [
            {"seat": seat, "at": None if paused else until + match.paused_total,
             "remaining": round(max(0.0, until - now), 1), "gone_on": seat in self.away_left}
            for seat, until in sorted(self._away_seats(match).items(), key=lambda i: i[1])
        ]

    # -- games ------------------------------------------------------------------------
    def select(self, by: Requester, game: str) -> None:
        self._now(self._select(by, game))

    def select_async(self, by: Requester, game: str) -> Awaitable[None]:
        return self._change(self._select(by, game))

    def _select(self, by: Requester, game: str) -> Plan[None]:
        self._require_host(by)
        if game not in {entry.id for entry in registry.CATALOGUE} | {
            r.id for r in registry.registered()
        }:
            raise NoSuchGame("no_such_game", "There is no game called {game}.", game=game[:40])
        if self.match is not None:
            raise NotNow("select_playing", "A game is running; end it first.")
        try:
            yield lambda store: store.set_meta("selected", game)
        except sqlite3.Error as err:
            raise _store_failed(err) from err
        self.selected = game
        self._changed()

    def start(self, by: Requester, options: Mapping[str, Any] | None = None) -> None:
        """Start the selected game with whoever is seated (all of it on this thread)."""
        rules, seats = self._startable(by)
        seed = secrets.randbits(62)
        opts, state = self._set_up(rules, seats, self._no_phone(), options, seed)
        self._now(self._begin(rules, seats, opts, seed, state))

    def start_async(
        self, by: Requester, options: Mapping[str, Any] | None = None
    ) -> Coroutine[Any, Any, None]:
        """`start` with its slow part on a worker thread, off the loop that serves the
        phones: the packs read from the card and the game set up (Duplik's scenes made).
        What may refuse at once (not the host, a game running, too few seated) raises
        here; the coroutine returned does the rest. One start at a time; a table that
        changed meanwhile is told to start again. Asked while a change is being written
        (the game just chosen), it is judged once that change is made."""
        if self._in_flight is not None and not self._in_flight.done():
            return self._start_when_written(by, options)
        rules, seats = self._startable(by)
        if self._setting_up:
            raise NotNow("starting", "A game is being set up; a moment.")
        self._setting_up = True
        return self._start_set_up(by, rules, seats, self._no_phone(), options,
                                  secrets.randbits(62))

    def start_for_table(self, work: Awaitable[Any] | None) -> None:
        """Run a start or change the kiosk asked for (`start_async`, `leave_finish_async`,
        `pause_async`...) on the loop, as the phones' are: the set-up on its worker
        thread, the writes on the store's, and a refusal it ends with said on the kiosk
        (`tell_table`), as a tap refused at once is."""
        if work is None or isinstance(work, Done):
            return
        task = asyncio.ensure_future(work)
        self._table_starts.add(task)
        task.add_done_callback(self._table_start_done)

    def _table_start_done(self, task: asyncio.Future[Any]) -> None:
        self._table_starts.discard(task)
        err = None if task.cancelled() else task.exception()
        if isinstance(err, SessionError):
            log.info("kiosk: %s", err)
            self.tell_table(err)
        elif isinstance(err, sqlite3.Error):  # begin_match could not write: nothing began
            log.error("could not save a start from the kiosk: %s", err)
            self.tell_table(NotSaved("start_not_saved", "The game could not be started "
                                     "({detail}): the box cannot write to its memory card.",
                                     detail=str(err)))
        elif err is not None:
            log.error("a start from the kiosk failed", exc_info=err)

    async def _start_set_up(
        self,
        by: Requester,
        rules: Rules[Any],
        seats: tuple[SeatInfo, ...],
        no_phone: frozenset[int],
        options: Mapping[str, Any] | None,
        seed: int,
    ) -> None:
        try:
            opts, state = await asyncio.to_thread(
                self._set_up, rules, seats, no_phone, options, seed)
        finally:
            self._setting_up = False
        def unchanged() -> None:
            if self._startable(by) != (rules, seats) or self._no_phone() != no_phone:
                raise NotNow("start_changed", "The table changed while the game was being "
                             "set up; please start again.")

        await self._change(self._begin(rules, seats, opts, seed, state, unchanged))

    def _startable(self, by: Requester) -> tuple[Rules[Any], tuple[SeatInfo, ...]]:
        """The rules and seats a start would use now, or the reason it may not start."""
        self._require_host(by)
        if self.match is not None:
            raise NotNow("already_playing", "A game is already running.")
        if self.selected is None:
            raise NotNow("nothing_selected", "Choose a game first.")
        if not registry.is_registered(self.selected):
            raise NoSuchGame("not_available", "That game is not on this box yet.")
        rules = registry.get(self.selected)
        # Which seats have no phone is the seats' own fact, as they are now, whoever asked
        # for the start (kiosk, host phone, host page, "play again"): never a caller's.
        kiosk = {s.seat: s.name for s in self.seats.values() if s.kiosk}
        if kiosk and not registry.house(rules.id).no_screen:
            names = ", ".join(kiosk[s] for s in sorted(kiosk))
            raise NotNow("kiosk_seat_phone", "Each player needs a phone here; without "
                         "one: {names}. Choose a game a player without a phone can play.",
                         names=names)
        # Seat order is the order around the table, whoever took a seat last: the rules
        # deal turns, starters and "pass left" by it.
        seats = tuple(SeatInfo(s.seat, s.name, s.colour)
                      for s in sorted(self.seats.values(), key=lambda s: s.seat))
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise NotNow(
                "player_count",
                "{game} is for {low} to {high} players; {count} are seated.",
                game=self.selected,
                low=rules.min_players,
                high=rules.max_players,
                count=len(seats),
            )
        return rules, seats

    def _no_phone(self) -> frozenset[int]:
        """The seats made at the kiosk, as they are now: the players with no phone."""
        return frozenset(s.seat for s in self.seats.values() if s.kiosk)

    def _set_up(
        self,
        rules: Rules[Any],
        seats: tuple[SeatInfo, ...],
        no_phone: frozenset[int],
        options: Mapping[str, Any] | None,
        seed: int,
    ) -> tuple[dict[str, Any], Any]:
        """The start options (the packs' decks read from disk) and the first state, with
        what its views will need made ahead. Touches nothing of the session: a worker
        thread may run it (`start_async`)."""
        decks = self.deck_options(rules.id) if self.deck_options else {}
        opts = {**self._default_options(rules.id), **decks, **(options or {})}
        opts = seat_options(rules.id, opts, no_phone)
        try:
            state = rules.setup(seats, opts, seed)
        except GameError as err:
            raise Refused(err.key, err.reason, **err.params) from err
        _make_ahead(rules.id, state)
        return opts, state

    def _begin(
        self,
        rules: Rules[Any],
        seats: tuple[SeatInfo, ...],
        opts: dict[str, Any],
        seed: int,
        state: Any,
        check: Callable[[], None] | None = None,
    ) -> Plan[None]:
        """The match begins once it is written (`check`: may it still, raising if not)."""
        if check is not None:
            check()
        now = self.clock()
        roster = Roster.from_seats(seats, {
            s.seat: person_of(s.token_hash) for s in self.seats.values()})
        match_id = yield lambda store: store.begin_match(
            rules.id, seats, opts, seed, now, roster)
        record = MatchRecord(match_id, rules.id, seats, opts, seed, now, None, None, roster)
        self.match = LiveMatch(record, rules, state, 0)
        # Absent at the start: away counts from the match's first second.
        self.presence.restart_counts(list(self.presence.gone_at), self.match_clock(self.match))
        self.last_match = None
        self._release_finish()
        log.info("match %d of %s started with %d players", match_id, rules.id, len(seats))
        self._changed()

    def _default_options(self, game: str) -> dict[str, Any]:
        """What the box's config says for a game (e.g. its hourglass); `start` may override."""
        return default_options(self.config, game)

    def end_match(self, by: Requester) -> None:
        self._now(self._end_match(by))

    def end_match_async(self, by: Requester) -> Awaitable[None]:
        return self._change(self._end_match(by))

    def _end_match(self, by: Requester) -> Plan[None]:
        """The host stops the running game early. The rules hear it as a logged
        END_EARLY (games.core), committed as a table move is, so the match closes through
        the normal finish (`_apply`: its outcome of what was played stored, the finish
        held, the gallery made); a game that cannot hear it (from outside the box), or a
        log with no room left for it, is closed with no outcome, its log kept."""
        self._require_host(by)
        match = self.match
        if match is None:
            raise NotNow("not_playing", "No game is running.")
        if match.rules.outcome(match.head) is not None:
            return  # its last move, still being written, ends it
        try:
            done = self._commit(match, end_early(self.match_clock(match)), None)
            if done is not None:  # with the writer: heard once it is committed
                chain = match.pending[-1].chain

                def written(store: Store) -> None:
                    # On the writer, after the move: why it was not written, if it was not.
                    if chain.error is not None:
                        raise chain.error

                yield written
            return
        except NotSaved as err:  # nothing changed: the game goes on
            raise NotSaved("end_not_saved", "The game could not be ended ({detail}): the "
                           "box could not write to its memory card.",
                           detail=str(err.params.get("detail", err))) from err
        except (Refused, MatchFull, BoxFull) as err:
            log.warning("match %d cannot end with its outcome (%s): ended without",
                        match.record.id, err)
        if self.match is not match:
            return  # its last move ended it meanwhile
        match_id, at = match.record.id, self.clock()
        try:
            yield lambda store: store.finish_match(match_id, None, at)
        except sqlite3.Error as err:  # nothing changed: the game goes on
            log.error("could not end match %d: %s", match_id, err)
            raise NotSaved("end_not_saved", "The game could not be ended ({detail}): the "
                           "box could not write to its memory card.", detail=str(err)) from err
        if self.match is not match:
            return  # its last move ended it meanwhile
        self._made_gallery(match)
        self._credit_drawings(match)
        self.last_match, self.match = match, None
        self._match_over()
        self._changed()

    # -- pause: the hourglass stands still --------------------------------------------
    def pause(self, by: Requester) -> None:
        self._now(self._pause(by))

    def pause_async(self, by: Requester) -> Awaitable[None]:
        return self._change(self._pause(by))

    def _pause(self, by: Requester) -> Plan[None]:
        self._require_host(by)
        match = self.match
        if match is None:
            raise NotNow("not_playing", "No game is running.")
        if match.paused_at is not None:
            raise NotNow("already_paused", "The game is already paused.")
        paused_at = self.clock()
        yield from self._save_pause(match, match.paused_total, paused_at)
        match.paused_at = paused_at  # only once it is on disk: a failed pause changes nothing
        log.info("match %d paused", match.record.id)
        self._changed()

    def resume(self, by: Requester) -> None:
        self._now(self._resume_match(by))

    def resume_async(self, by: Requester) -> Awaitable[None]:
        return self._change(self._resume_match(by))

    def _resume_match(self, by: Requester) -> Plan[None]:
        self._require_host(by)
        match = self.match
        if match is None:
            raise NotNow("not_playing", "No game is running.")
        if match.paused_at is None:
            raise NotNow("not_paused", "The game is not paused.")
        # A wall clock set backwards during the pause must not make time run twice.
        paused_total = match.paused_total + max(0.0, self.clock() - match.paused_at)
        yield from self._save_pause(match, paused_total, None)
        match.paused_total, match.paused_at = paused_total, None
        log.info("match %d resumed (paused %.0f s in all)", match.record.id, match.paused_total)
        self._changed()

    def _save_pause(self, match: LiveMatch, total: float, at: float | None) -> Plan[None]:
        match_id = match.record.id
        try:
            yield lambda store: store.set_pause(match_id, total, at)
        except sqlite3.Error as err:
            log.error("could not save the pause of match %d: %s", match.record.id, err)
            raise NotSaved("pause_not_saved", "The pause could not be saved ({detail}); the "
                           "game goes on.", detail=str(err)) from err

    @property
    def paused(self) -> bool:
        return self.match is not None and self.match.paused_at is not None

    def match_clock(self, match: LiveMatch) -> float:
        """The match's own time: the session's clock minus every pause (frozen in one)."""
        now = self.clock() if match.paused_at is None else match.paused_at
        return now - match.paused_total

    def _refuse_paused(self) -> None:
        if self.paused:
            raise NotNow("paused", "The game is paused; the host will resume it.")

    # -- the art show to take home ----------------------------------------------------
    def _made_gallery(self, match: LiveMatch) -> None:
        """Give the ended match an unguessable gallery address (appliance/door/gallery.py)."""
        if self.config.gallery.keep_days <= 0:
            return
        match_id, token, at = match.record.id, secrets.token_urlsafe(18), self.clock()
        # The game is over either way; the log says why there is no QR. Its views show
        # the address once it is committed.
        self._keep(lambda store: store.put_gallery(match_id, token, at),
                   f"no gallery for match {match_id}", then=self._changed)

    def _credit_drawings(self, match: LiveMatch) -> None:
        """At a finish, who drew each round's picture of a seat that changed hands: the
        log replayed off the loop (a long match is seconds of it), the views told once
        it is known; until then such a seat shows all its holders ("Bo (then Fay)")."""
        changed = [h.seat for h in match.roster.holders if len(match.roster.of(h.seat)) > 1]
        if not changed or match.record.id in self._credits:
            return
        record = dataclasses.replace(match.record, roster=match.roster)
        path = self.store.path

        def work() -> tuple[Credit, ...]:
            gallery = build_gallery(record, read_actions(path, record.id))
            return round_credits(gallery, changed)

        if not _loop_running() or str(path) == ":memory:":
            try:
                self._credits = {record.id: work()}
            except Exception:  # the art show keeps the seats' holders
                log.exception("who drew what in match %d is not known", record.id)
            return
        loop = asyncio.get_running_loop()

        def known(done: asyncio.Future[tuple[Credit, ...]]) -> None:
            if done.cancelled() or done.exception() is not None:
                log.error("who drew what in match %d is not known: %s", record.id,
                          None if done.cancelled() else done.exception())
                return
            self._credits = {record.id: done.result()}  # one finish is shown at a time
            self._changed()

        loop.run_in_executor(None, work).add_done_callback(known)

    def _credit_views(self, match: LiveMatch) -> list[dict[str, Any]]:
        lang = self.config.table.language
        return [
            {"round": rnd, "seat": seat, "name": names_in_turn(names, lang)}
            for rnd, seat, names in self._credits.get(match.record.id, ())
        ]

    def gallery_url(self, match_id: int) -> str | None:
        token = self.store.gallery_token(match_id)
        if token is None:
            return None
        return f"{self.base_url}/gallery/{token}"

    def _match_seats(self) -> set[int]:
        return set() if self.match is None else {s.seat for s in self.match.record.seats}

    def act(
        self, seat: int | None, kind: str, data: Mapping[str, Any], action_id: str | None = None
    ) -> bool:
        """Apply one action; True if applied, False if `action_id` was applied before.
        Returns once it is applied: with the writer thread, this waits for its commit (the
        kiosk's own moves and tests; a phone's go through `submit`, which does not)."""
        match = self.match
        done = self.submit(seat, kind, data, action_id)
        if isinstance(done, bool):
            return done
        assert match is not None
        self._settle(match)
        if not done.done():
            return False  # a resend of a move that was pending: the first one's answer
        return done.result()  # or raises the refusal

    def act_for_table(
        self, seat: int | None, kind: str, data: Mapping[str, Any]
    ) -> None:
        """The kiosk's own move (a tap, a stroke on the panel): `submit`, not waited
        for on the loop; a refusal, at once or once its commit failed, is the kiosk's
        notice (the caller tells one raised here)."""
        done = self.submit(seat, kind, data)
        if not isinstance(done, bool):
            done.add_done_callback(self._tell_if_refused)

    def _settle(self, match: LiveMatch) -> None:
        """Wait (on this thread) until the writer has done every pending move of `match`,
        then apply them in order, as `_committed` would when the loop gets to it."""
        if match.pending:
            concurrent.futures.wait([match.pending[-1].written])
        for move in list(match.pending):
            self._committed(match, move, move.written)

    def _tell_if_refused(self, done: asyncio.Future[bool]) -> None:
        if not done.cancelled() and isinstance(done.exception(), SessionError):
            self.tell_table(cast(SessionError, done.exception()))

    def submit(
        self, seat: int | None, kind: str, data: Mapping[str, Any], action_id: str | None = None
    ) -> bool | asyncio.Future[bool]:
        """`act` for a phone that is to hear when its move is committed: a bool as `act`
        without the writer thread; with it a future, True once committed and applied, or
        the SessionError that refused it. A refusal found before writing is raised."""
        match = self.match
        if match is None:
            raise NotNow("not_playing", "No game is running.")
        if seat is not None and seat not in self._match_seats():
            raise NotNow("not_in_match", "You are watching this game, not playing it.")
        # Ids are the phone's own: unique per seat, so one seat's ids never shadow another's.
        # What the host says for the table is logged as the table's: its resend is looked
        # up there too (else it would be applied again), whoever speaks for the table now.
        speakers = (seat, TABLE) if kind in HOST_SPEAKS_FOR_TABLE else (seat,)
        if action_id is not None:
            waiting = next((p for p in match.pending if p.action_id == action_id
                            and p.action.seat in speakers), None)
            if waiting is not None:  # a resend of a move being written: its answer
                return _same_answer(waiting.done)
            if any(self.store.has_action_id(match.record.id, action_id, s) for s in speakers):
                return False
        self._refuse_paused()
        if len(match.pending) >= PENDING_MAX:
            raise StillSaving("still_saving", "The box is still saving the last moves; try "
                              "again in a moment.")
        if kind in HOST_SPEAKS_FOR_TABLE and seat is not None and seat == self.host_seat:
            seat = TABLE
        # Each seat its share of the queue: one seat's flood (several sockets, one token)
        # must not leave the others "still saving".
        if sum(1 for p in match.pending if p.action.seat == seat) >= pending_per_seat():
            raise StillSaving("still_saving", "The box is still saving your last moves; try "
                              "again in a moment.")
        typed = data.get("text")
        if self.config.table.family_filter and isinstance(typed, str) and blocked_word(typed):
            raise Unfriendly("text_unfriendly", "This is a family table: please type another word.")
        self._spend_ink(seat, data)
        action = Action(kind, seat, dict(data), self.match_clock(match))
        done = self._commit(match, action, action_id)
        return True if done is None else done

    def _spend_ink(self, seat: int | None, data: Mapping[str, Any]) -> None:
        """Bytes a second a seat may add to the log (what a person draws, not a script)."""
        if not data:
            return
        bucket = self._ink.get(seat)
        if bucket is None:
            bucket = self._ink[seat] = TokenBucket(INK_BYTES_PER_S, INK_BURST_BYTES)
        if not bucket.take(len(msgspec.json.encode(data))):
            raise SlowDown("ink_rate", "You are sending drawings faster than anyone draws; "
                           "wait a few seconds.")

    def press(self, button: str, long: bool = False) -> bool:
        """A table button (or its key or on-screen stand-in). What it means is the game's."""
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r}; buttons are {', '.join(BUTTONS)}")
        if self.finish_held and button == "reveal" and not long:
            if self.clock() - self._finished_at < FINISH_BUTTON_AFTER_S:
                return False
            self.leave_finish(HOST)
            return True
        if self.match is None:
            return False
        if self.paused:
            self.tell_table(NotNow("paused", "The game is paused; the host will resume it."))
            return False
        kind = f"{'hold' if long else 'press'}_{button}"
        # Shown on the kiosk with the move's own redraw: every press gets an answer there.
        self.notice = Notice("press", button, "", {}, self.clock())
        try:
            done = self._commit(
                self.match, Action(kind, TABLE, {}, self.match_clock(self.match)), None
            )
        except Refused as err:
            log.info("button %s means nothing now: %s", kind, err)
            self.tell_table(err)
            return False
        if done is not None:
            done.add_done_callback(self._tell_if_refused)
        return True

    def tell_table(self, err: SessionError) -> None:
        """Show `err` on the kiosk for a moment, in the table's language: a press or a tap
        on the kiosk that was refused must not go only to the log."""
        self.notice = Notice("refused", err.key, err.template, dict(err.params), self.clock())
        self._changed()

    def _notice_view(self, lang: str) -> dict[str, Any] | None:
        notice = self.notice
        if notice is None or self.clock() - notice.at > NOTICE_S:
            return None
        text = (
            say(lang, notice.key, notice.template, **notice.params)
            if notice.kind == "refused"
            else ""
        )
        return {"kind": notice.kind, "key": notice.key, "text": text, "at": notice.at,
                "until": notice.at + NOTICE_S}

    def tick(self) -> bool:
        """Turn an expired hourglass into the game's TIME_UP action. True if one fired."""
        match = self.match
        if match is None or match.paused_at is not None:
            return False
        shown = frozenset(self._away_seats(match))
        if shown != self.presence.shown:  # someone is away now (or back): every screen says so
            self.presence.shown = shown
            self._changed()
        back = [seat for seat in sorted(self.away_left) if self.presence.connected(seat)]
        if not self._leaving_away and back:  # back, but the game could not hear it then
            returned = self._change(self._back_from_away(match, back[0]))
            if not isinstance(returned, Done):
                self._leaving_away = True
                returning = asyncio.ensure_future(returned)
                returning.add_done_callback(self._left_away)
                self.start_for_table(returning)
            return True
        if not self._leaving_away and (due := self._away_due(match)):
            left = self._change(self._leave_away(match, due))
            if not isinstance(left, Done):  # being written: not fired again meanwhile
                self._leaving_away = True
                leaving = asyncio.ensure_future(left)
                leaving.add_done_callback(self._left_away)
                self.start_for_table(leaving)
            return True
        if self.handovers and not self._expiring and self._handovers_due(match):
            expired = self._change(self._expire_handovers(match))
            if not isinstance(expired, Done):  # being written: not fired again meanwhile
                self._expiring = True
                waited = asyncio.ensure_future(expired)
                waited.add_done_callback(self._expired)
                self.start_for_table(waited)  # a late refusal is the kiosk's notice
            return True
        # The head: a TIME_UP already handed to the writer is not fired again.
        deadline = match.rules.deadline(match.head)
        if deadline is None or not deadline.is_expired(self.match_clock(match)):
            return False
        done = self._commit(match, time_up(deadline), None)
        if done is not None:
            done.add_done_callback(self._tell_if_refused)
        return True

    def _handovers_due(self, match: LiveMatch) -> bool:
        now = self.match_clock(match)
        return any(until <= now for until in self.handovers.values())

    def _expired(self, done: asyncio.Future[Any]) -> None:
        self._expiring = False

    def _left_away(self, done: asyncio.Future[Any]) -> None:
        self._leaving_away = False

    def _away_ends(self, match: LiveMatch) -> list[float]:
        """When, on the match's clock, a seat next shows as away or its count runs out
        (once a second while a count ran out and the game does not wait for it yet)."""
        return self.presence.next_look(self._phone_seats(), self.match_clock(match),
                                       self.away_left)

    def next_deadline(self) -> float | None:
        """When the running hourglass, the wait of a seat handed over or an away player's
        count ends (or a seat next shows as away), on the session's clock (None while
        paused): when `tick` has something to do."""
        if self.match is None or self.match.paused_at is not None:
            return None
        deadline = self.match.rules.deadline(self.match.head)
        ends = [until for seat, until in self.handovers.items() if seat in self.open_seats]
        ends += self._away_ends(self.match)
        if deadline is not None:
            ends.append(deadline.at)
        return min(ends) + self.match.paused_total if ends else None

    def _commit(
        self, match: LiveMatch, action: Action, action_id: str | None
    ) -> asyncio.Future[bool] | None:
        """Judge `action` on the match's head and log it: applied here (None) or, with the
        store's writer thread, once committed (the future; `_committed`)."""
        try:
            state = match.rules.apply(match.head, action)
        except GameError as err:
            raise Refused(err.key, err.reason, **err.params) from err
        except Exception as err:
            # A bug in a game's rules, found by odd data: the move is refused with a clear
            # error and the state is untouched (apply is pure), so the table plays on.
            log.exception("%s could not apply %r", match.rules.id, action)
            raise Refused("game_bug", "The box could not apply this move ({kind}); it was "
                          "ignored and the game goes on.", kind=action.kind) from err
        # Logged and committed before anyone learns of it: what a phone saw acknowledged
        # survives a power cut.
        seq = match.next_seq + len(match.pending)
        if self.store.writer is not None and _loop_running():
            return self._hand_over(match, action, action_id, seq, state)
        try:
            self.store.append_action(match.record.id, seq, action_id, action)
        except (BudgetExceeded, sqlite3.Error) as err:
            raise _not_logged(match, action, err) from err
        self._apply(match, action, state)
        return None

    def _hand_over(
        self, match: LiveMatch, action: Action, action_id: str | None, seq: int, state: Any
    ) -> asyncio.Future[bool]:
        """Give the move to the writer thread; `_committed` hears back on the loop."""
        loop = asyncio.get_running_loop()
        match_id, chain = match.record.id, match.chain
        after_move = registry.house(match.rules.id).make_after_move

        def write(store: Store) -> None:  # on the writer thread, in the order handed over
            if chain.error is not None:
                raise chain.error  # judged on a move that was not saved: not written
            try:
                store.append_action(match_id, seq, action_id, action)
            except (BudgetExceeded, sqlite3.Error) as err:
                # Set here, before the writer takes the next job: none after it is written.
                chain.error = _not_logged(match, action, err)
                raise chain.error from err
            if after_move is not None:
                _made_after_move(after_move, state)

        written = self.store.later(write, batch=True)
        assert written is not None
        move = PendingMove(action, action_id, seq, state, chain, loop.create_future(), written)
        move.done.add_done_callback(_heard)  # whoever else listens, the loop never warns
        match.pending.append(move)
        written.add_done_callback(lambda f: _on_loop(loop, self._committed, match, move, f))
        return move.done

    def _committed(
        self, match: LiveMatch, move: PendingMove, written: concurrent.futures.Future[None]
    ) -> None:
        """The writer is done with `move` (futures come back in the order handed over)."""
        if move.done.done():
            return  # refused already: an earlier move of its chain was not saved
        err = written.exception()
        if err is None:
            assert match.pending and match.pending[0] is move
            self._applied(match)
            # The moves after it committed with it (one batch, one fsync): applied now,
            # not one loop turn each, so the phones get one round of views for them all.
            while match.pending and (written := match.pending[0].written).done() and (
                    not written.cancelled() and written.exception() is None):
                self._applied(match)
            return
        refusal = err if isinstance(err, SessionError) else _not_logged(match, move.action, err)
        # Every pending move was judged on this one: none is written, all are refused,
        # and the next move is judged on what is on disk (a fresh chain).
        if move.chain.error is None:
            move.chain.error = refusal
        if match.chain is move.chain:
            match.chain = Chain()
        doomed = [p for p in match.pending if p.chain is move.chain]
        match.pending = deque(p for p in match.pending if p.chain is not move.chain)
        for pending in doomed:
            if not pending.done.done():
                pending.done.set_exception(refusal)
        if not move.done.done():
            move.done.set_exception(refusal)

    def _applied(self, match: LiveMatch) -> None:
        """The first pending move is committed: answered and applied."""
        move = match.pending.popleft()
        self._apply(match, move.action, move.state)
        move.done.set_result(True)

    def _apply(self, match: LiveMatch, action: Action, state: Any) -> None:
        """A committed action becomes the match's state, and everyone hears of it."""
        match.next_seq += 1
        match.state = state
        match.last_kind = action.kind
        outcome = match.rules.outcome(state)
        if outcome is not None and match is self.match:
            match_id, at = match.record.id, self.clock()
            # The last move is kept: if this fails a restart closes it.
            self._keep(lambda store: store.finish_match(match_id, outcome, at),
                       f"could not close match {match_id}")
            log.info("match %d finished: %s", match.record.id, outcome)
            self._made_gallery(match)
            self._credit_drawings(match)
            self.last_match, self.match = match, None
            self._match_over()
            self._hold_finish(match)
        self._changed()

    # -- views: the one place that decides what each viewer sees ------------------------
    def view_for(self, viewer: Viewer) -> dict[str, Any]:
        cached = self._views.get(viewer)
        if cached is None:
            cached = self._views[viewer] = self._build_view(viewer)
        return cached

    def view_news(self, viewer: Viewer) -> dict[str, Any]:
        """`viewer`'s view of this version less what a phone works out by itself: the
        version number, and the time left of every count that runs (its "at" is set; the
        phone counts down from the "remaining" it had). Equal for two versions, the
        second view tells a phone that has the first nothing: an ArtBox stroke changes
        the drawer's view alone, not the 27 others' (appliance/door/server.py
        `_fan_out`). Compared with `==`, which is cheap: the big parts are the very
        same objects version after version (strokes, art show), found equal by identity."""
        view = self.view_for(viewer)
        news: dict[str, Any] = {**view, "version": None,
                                "handovers": _settled(view["handovers"]),
                                "away": _settled(view["away"])}
        match = view.get("match")
        if isinstance(match, dict) and isinstance(match.get("deadline"), dict):
            news["match"] = {**match, "deadline": _settled([match["deadline"]])}
        return news

    def _build_view(self, viewer: Viewer) -> dict[str, Any]:
        # What every viewer sees alike is built once per version and shared (views are
        # never changed once built); only the match's state, the kiosk's extras and `you`
        # are the viewer's own.
        view = dict(self._shared_view())
        shown = self.match or self.last_match
        if viewer.role == "kiosk":
            wifi = self.config.wifi
            if wifi.ssid:
                view["wifi"] = {
                    "ssid": wifi.ssid, "password": wifi.password, "security": wifi.security
                }
        view["match"] = None if shown is None else self._match_view(shown, viewer)
        if viewer.role == "kiosk":
            view["notice"] = self._notice_view(view["lang"])
        else:
            host = view["host_seat"]
            view["you"] = {
                "role": viewer.role,
                "seat": viewer.seat,
                "host": viewer.role == "host" or (viewer.seat is not None and viewer.seat == host),
            }
        del view["host_seat"]
        return view

    def _shared_view(self) -> dict[str, Any]:
        """The part of every view that is the same for every viewer, once per version."""
        cached = self._shared.get("view")
        if cached is not None:
            return cast(dict[str, Any], cached)
        lang = self.config.table.language
        host = self.host_seat
        view: dict[str, Any] = {
            "type": "view",
            "version": self.version,
            "lang": lang,
            "room": self.room,
            "join_url": self.join_url,
            "wifi": None,
            "phase": "playing" if self.match
            else ("over" if self.finish_held else "finished") if self.last_match
            else "lobby",
            "max_players": self.config.table.max_players,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "colour": s.colour,
                    # A seat made at the kiosk is at the table while the box runs.
                    "connected": s.kiosk or self.presence.connected(s.seat),
                    "away": s.seat in self.presence.shown,
                    "host": s.seat == host,
                    "kiosk": s.kiosk,
                }
                for s in sorted(self.seats.values(), key=lambda r: r.seat)
            ],
            "spectators": self.presence.watchers,
            "palette": list(PALETTE),
            # A game's range as this table can seat it ("Duplik 3-8" at an 8-seat table).
            "games": [
                {
                    "id": entry.id,
                    "title": entry.title(lang),
                    "min_players": entry.min_players,
                    "max_players": min(entry.max_players, self.config.table.max_players),
                    "available": registry.is_registered(entry.id),
                }
                for entry in registry.CATALOGUE
            ]
            + [
                {
                    "id": r.id,
                    "title": r.title.get(lang, r.id),
                    "min_players": r.min_players,
                    "max_players": min(r.max_players, self.config.table.max_players),
                    "available": True,
                }
                for r in registry.registered()
                if r.id not in {entry.id for entry in registry.CATALOGUE}
            ],
            "selected": self.selected,
            "open_seats": self._free_to_take(),
            # ...and those of them a player without a phone may take at the kiosk.
            "open_seats_at_kiosk": [] if (free := self.kiosk_seat_free()) is None else [free],
            # A seat handed over waits so long for a newcomer (then it is left).
            "handovers": self._handover_views(self.match),
            # A player whose phone is gone: the game goes on without them after a count.
            "away": self._away_views(self.match),
            "match": None,
            "you": None,
            "host_seat": host,  # for `you`; not sent
        }
        self._shared["view"] = view
        return view

    def _match_view(self, match: LiveMatch, viewer: Viewer) -> dict[str, Any]:
        # The game decides what its seats see; anyone not playing sees the public table.
        playing = viewer.role == "player" and viewer.seat in self._match_seats()
        seat = viewer.seat if playing else None
        shared = self._shared_match(match)
        state_key = ("state", match.record.id, seat)
        state = self._shared.get(state_key)
        if state is None:
            state = self._shared[state_key] = match.rules.view(match.state, seat)
        live = match is self.match
        view = dict(shared)
        view["state"] = state
        if viewer.role == "kiosk":
            view.update(self._table_cues(match))
        # During the finish the players' phones show the art show's address too.
        if not live and (viewer.role == "kiosk" or (self.finish_held
                         and viewer.role in ("player", "spectator", "host"))):
            key = ("gallery", match.record.id)
            if key not in self._shared:
                self._shared[key] = self.gallery_url(match.record.id)
            view["gallery_url"] = self._shared[key]
        return view

    def _shared_match(self, match: LiveMatch) -> dict[str, Any]:
        """A match's view but its state, the same for every viewer, once per version."""
        key = ("match", match.record.id)
        cached = self._shared.get(key)
        if cached is not None:
            return cast(dict[str, Any], cached)
        deadline = match.rules.deadline(match.state)
        outcome = match.rules.outcome(match.state)
        now = self.match_clock(match)
        paused = match.paused_at is not None
        live = match is self.match
        shared = {
            "id": match.record.id,
            "game": match.record.game,
            "title": match.rules.title.get(self.config.table.language, match.record.game),
            "seats": [self._match_seat(match, s.seat, live) for s in match.record.seats],
            "state": None,
            "paused": paused,
            "deadline": None
            if deadline is None
            else {
                # On the session's clock; null while paused (the hourglass stands still:
                # count from "remaining" and do not count down).
                "at": None if paused else deadline.at + match.paused_total,
                "remaining": round(deadline.remaining(now), 1),
                "length": deadline.length,
                "what": deadline.what,
                "paused": paused,
            },
            "outcome": None if outcome is None else outcome.to_json(),
            # When the held finish began (the session's clock): the kiosk's art show
            # starts from the last round and steps on from there.
            **({"finished_at": self._finished_at} if not live and self.finish_held else {}),
            # Who drew each round's picture of a seat that changed hands (the finish only).
            **({"credits": self._credit_views(match)} if not live else {}),
        }
        self._shared[key] = shared
        return shared

    def _match_seat(self, match: LiveMatch, seat: int, live: bool) -> dict[str, Any]:
        """A seat of a match as every screen names it: during play whoever holds it now
        (a seat handed over shows its new player), at the finish everyone who held it
        ("Bo (then Fay)": the seat's score is theirs together); `holders` says who in turn."""
        holders = match.roster.of(seat)
        lang = self.config.table.language
        now = holders[-1] if holders else None
        name = (now.name if now is not None else "?") if live else match.roster.credit(seat, lang)
        return {
            "seat": seat,
            "colour": holders[0].colour if holders else "#808080",
            "name": name,
            "holders": [h.name for h in holders],
        }

    def _table_cues(self, match: LiveMatch) -> dict[str, Any]:
        """For the kiosk and the panel: which table buttons do something now (their LEDs
        pulse), and the last move (a reveal flashes the lights, time up buzzes)."""
        kinds = {a.kind for a in match.rules.legal_actions(match.state, TABLE)}
        return {
            "buttons": [b for b in BUTTONS if f"press_{b}" in kinds],
            "cue": {"seq": match.next_seq, "kind": match.last_kind},
        }


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic collections while a log is read and replayed: a long match's strokes are
    hundreds of thousands of lists and tuples, all kept, and the collector's passes over
    them, again and again as they are made, were most of a resume's time (`easel run`
    starts with the collector off anyway; a resume during a test or a restart of the
    session does not)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            # What the replay made lives as long as the match: out of the collector's
            # passes (the first, right after, would walk all of it), as `easel run` does
            # with what its start made.
            gc.freeze()
            gc.enable()


def _make_ahead(game: str, state: Any) -> None:
    """What a game's views would otherwise compute on the loop, made on the caller's
    thread (its house says what: Duplik's scene of every round in its deck)."""
    make = registry.house(game).make_ahead
    if make is not None:
        make(state)


def _made_after_move(make: Callable[[Any], None], state: Any) -> None:
    """What the views of a committed move's state would compute on the loop (its game's
    house says what: ArtBox's shape check of the picture), made on the writer thread. The
    move is saved already: a failure here only leaves it to be made when read."""
    try:
        make(state)
    except Exception:
        log.exception("could not make ahead what the views of a move need")


def _not_logged(match: LiveMatch, action: Action, err: BaseException) -> SessionError:
    """What the phone hears when its move could not be committed."""
    log.error("could not log %s of match %d: %s", action.kind, match.record.id, err)
    if isinstance(err, BudgetExceeded):
        if err.whole_box:
            return BoxFull("box_full", "The box's memory card is full; the move was not "
                           "saved. The host should end the game.")
        if err.seat is not None:  # this seat's share: the others play on
            return MatchFull("match_full", "Your moves fill your share of this game's "
                             "memory; the others can still play. The host may end it.")
        return MatchFull("match_full", "This game has no room for more moves; the host "
                         "should end it.")
    return NotSaved("not_saved", "The move could not be saved ({detail}); try again.",
                    detail=str(err))


def _store_failed(err: sqlite3.Error) -> NotSaved:
    """A change other than a move could not be committed: nothing of it changed."""
    log.error("could not save a change: %s", err)
    return NotSaved("store_failed", "The box cannot write to its memory card ({detail}); "
                    "nothing changed.", detail=str(err))


def _same_answer(first: asyncio.Future[bool]) -> asyncio.Future[bool]:
    """A resend's answer: refused as the first was, or False (applied before) once it is."""
    answer: asyncio.Future[bool] = first.get_loop().create_future()

    def copy(done: asyncio.Future[bool]) -> None:
        if answer.done():
            return
        if done.cancelled() or done.exception() is None:
            answer.set_result(False)
        else:
            answer.set_exception(cast(BaseException, done.exception()))

    first.add_done_callback(copy)
    return answer


def _loop_running() -> bool:
    """Is this the event loop's thread? (Without a loop a move is written and waited for.)"""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _on_loop(loop: asyncio.AbstractEventLoop, call: Callable[..., None], *args: Any) -> None:
    """From the writer thread: `call(*args)` on the loop, unless it has stopped for good
    (the process is ending: what was committed is on disk, nobody waits to hear it)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(call, *args)


def _heard(done: asyncio.Future[bool]) -> None:
    if not done.cancelled():
        done.exception()


def _log_clock_failure(written: concurrent.futures.Future[None]) -> None:
    err = written.exception()
    if err is not None:  # the game goes on; a power cut would lose a little
        log.error("could not save the match's time: %s", err)


def _with_stored_language(config: Config, lang: str | None) -> Config:
    """The config with the language the host chose on the host page, if any."""
    if lang not in ("en", "cs") or lang == config.table.language:
        return config
    return dataclasses.replace(config, table=dataclasses.replace(config.table, language=lang))


def _settled(counts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Counts as a phone keeps them: a running one's "remaining" left out (it changes
    with every version; the phone counts down from the last it had), a paused one's
    (its "at" is null: the count stands still) kept."""
    return [{**c, "remaining": None} if c.get("at") is not None else c for c in counts]
