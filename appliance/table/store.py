"""The box's memory: SQLite in the data directory, written only by the session.

Tables: `meta` (the room code), `seats` (who sits where, with a hash of each phone's
reconnect token, and whether it was made at the kiosk), `matches` (game, seats, options,
seed, result) and `actions`, the append-only log of every accepted action of every match;
`pauses` (how long a match's hourglass stood still) and `galleries` (the secret address of
a finished match's art show). WAL mode with synchronous=FULL: `append_action` returns only
once the action is on disk, so an acknowledged action survives a power cut, and on start
the unfinished match is rebuilt from its log.

Commits happen on a thread of their own once `start_writer` is called (the appliance
does; tests that drive a session by hand need not): `StoreWriter` owns a second
connection and runs every write, in the order asked, so an SD card's fsync stall never
holds the event loop that serves the phones. Reads stay on the loop's connection (WAL:
a reader never waits for a writer) and see what is committed, nothing else. The
session hands every write over without waiting (`later`) and changes its memory only
once the future says it is committed (appliance/table/session.py `_change`, `submit`);
a write method called directly with the writer running hands its job over and waits
for it on the caller's thread (`write`: start-up and tests, never the phones' loop).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import queue
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec

from appliance.table.roster import Roster
from games.core import Action, Outcome, SeatInfo

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    seat       INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    colour     TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    joined_at  REAL NOT NULL,
    kiosk      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS matches (
    id          INTEGER PRIMARY KEY,
    game        TEXT NOT NULL,
    seats       TEXT NOT NULL,
    options     TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    started_at  REAL NOT NULL,
    finished_at REAL,
    outcome     TEXT,
    roster      TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    seq       INTEGER NOT NULL,
    action_id TEXT,
    seat      INTEGER,
    kind      TEXT NOT NULL,
    data      TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
DROP INDEX IF EXISTS actions_by_id;
CREATE UNIQUE INDEX IF NOT EXISTS actions_by_seat_id ON actions(match_id, seat, action_id)
    WHERE action_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS pauses (
    match_id     INTEGER PRIMARY KEY REFERENCES matches(id),
    paused_total REAL NOT NULL,
    paused_at    REAL
);
CREATE TABLE IF NOT EXISTS galleries (
    match_id   INTEGER PRIMARY KEY REFERENCES matches(id),
    token      TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
"""
SCHEMA_VERSION = 1
T = TypeVar("T")


class StoreError(RuntimeError):
    """The data file cannot be opened or is not an Easel store."""


class BudgetExceeded(sqlite3.DatabaseError):
    """An action would take the match's log (or the whole file) past its budget."""

    def __init__(self, message: str, whole_box: bool, seat: int | None = None) -> None:
        super().__init__(message)
        self.whole_box = whole_box
        self.seat = seat  # a seat past its share of the match's budget (the others not)


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str
    colour: str
    token_hash: str
    joined_at: float
    # Made at the kiosk (appliance/door/kiosk_seat.py): a player with no phone, no private
    # screen. Kept with the seat, so every start after a power cut still knows.
    kiosk: bool = False


@dataclass(frozen=True)
class MatchRecord:
    id: int
    game: str
    seats: tuple[SeatInfo, ...]
    options: dict[str, Any]
    seed: int
    started_at: float
    finished_at: float | None
    outcome: dict[str, Any] | None
    roster: Roster | None = None

    @property
    def people(self) -> Roster:
        """Who held each seat when: the roster kept, or the starting seats of a match
        older than rosters."""
        return self.roster if self.roster is not None else Roster.from_seats(self.seats)


@dataclass(frozen=True)
class LoggedAction:
    seq: int
    action_id: str | None
    action: Action


class Store:
    """One SQLite connection, used from the event loop's thread only (and, once
    `start_writer` ran, a `StoreWriter` whose own connection does every write).

    `match_budget` and `total_budget` (bytes; None = none) bound what one match's log and
    the whole file may hold: past the total the oldest finished matches are deleted
    (`prune`), and an action that still does not fit raises `BudgetExceeded`."""

    def __init__(
        self,
        path: Path | str,
        match_budget: int | None = None,
        total_budget: int | None = None,
        commit_delay_s: float = 0.0,
    ) -> None:
        self.path = Path(path)
        self.match_budget = match_budget
        self.total_budget = total_budget
        # Benchmarks only ([storage] emulate_commit_ms): each commit takes this much longer,
        # as an SD card's fsync does (~10 ms) on a machine whose disk is fast.
        self.commit_delay_s = commit_delay_s
        self._batched = False  # in a batch of the writer's: a transaction is a savepoint
        self._match_bytes: dict[int, int] = {}
        self._seat_bytes: dict[tuple[int, int | None], int] = {}
        self.writer: StoreWriter | None = None
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            self._add_missing_columns()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"cannot use {path} as Easel's data file: {err}") from err
        version = self.get_meta("schema_version")
        if version is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
        elif int(version) > SCHEMA_VERSION:
            raise StoreError(
                f"{path} was written by a newer Easel (schema {version}); update the software"
            )

    def _add_missing_columns(self) -> None:
        """Columns added since a file was made, with their defaults (older software
        reads and writes such a file as before: it names its columns)."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(seats)")}
        if "kiosk" not in have:
            self._db.execute("ALTER TABLE seats ADD COLUMN kiosk INTEGER NOT NULL DEFAULT 0")
        # Who held which seat from which move on (appliance/table/roster.py); NULL in a
        # match older than rosters, whose seats' first players did everything.
        have = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        if "roster" not in have:
            self._db.execute("ALTER TABLE matches ADD COLUMN roster TEXT")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()  # what was handed over is committed first
            self.writer = None
        self._db.close()

    def start_writer(self, factory: Callable[[], Store] | None = None) -> bool:
        """Do every write from now on on a thread of its own, with its own connection
        made by `factory` (default: this file, these budgets). False for ":memory:",
        which no second connection can see: it keeps writing on the caller's thread."""
        if self.writer is not None:
            return True
        if str(self.path) == ":memory:":
            return False
        self.writer = StoreWriter(
            factory or (lambda: Store(self.path, self.match_budget, self.total_budget,
                                      self.commit_delay_s))
        )
        return True

    def later(self, job: Callable[[Store], T], batch: bool = False
              ) -> concurrent.futures.Future[T] | None:
        """Hand `job` to the writer thread (it gets the writer's Store); its future, or
        None without a writer (then the caller writes itself). A `batch` job (a move) may
        be committed with the batch jobs queued next to it, in one transaction and one
        fsync (`StoreWriter`)."""
        return None if self.writer is None else self.writer.submit(job, batch)

    def write(self, job: Callable[[Store], T]) -> T:
        """Run `job` here (no writer) or on the writer, waiting for it: for start-up and
        tests; on the phones' loop a change hands its jobs over (`later`) instead."""
        if self.writer is None:
            return job(self)
        return self.writer.submit(job).result()

    def _written(self, job: Callable[[Store], T]) -> T | None:
        """Run `job` on the writer and wait for it, or None: no writer, write here."""
        if self.writer is None:
            return None
        return self.writer.submit(job).result()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        if self._batched:  # one job of the writer's batch: undone alone if it fails
            self._db.execute("SAVEPOINT job")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK TO job")
                self._db.execute("RELEASE job")
                raise
            self._db.execute("RELEASE job")
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._commit()

    def _commit(self) -> None:
        self._db.execute("COMMIT")
        if self.commit_delay_s:
            time.sleep(self.commit_delay_s)

    def begin_batch(self) -> None:
        """The writer's jobs from here to `end_batch` are one transaction: one commit (one
        fsync) for all of them, each job's own writes a savepoint."""
        self._db.execute("BEGIN IMMEDIATE")
        self._batched = True

    def end_batch(self) -> None:
        """Commit the batch; if that fails nothing of it is written (and the budgets'
        running counts, which counted its moves, are read again from the file)."""
        self._batched = False
        try:
            self._commit()
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            self._match_bytes.clear()
            self._seat_bytes.clear()
            raise

    # -- the last good state of a card that cannot be written ---------------------------
    KEPT_SEAT_COLUMNS = ("seat", "name", "colour", "token_hash", "joined_at", "kiosk")

    def keep_from(self, path: Path) -> bool:
        """Copy into this (memory) store what a data file that can no longer be written
        still says about the table: its meta (the room code, host logins) and its seats
        (their tokens), read without writing a byte to it. So a card turned read-only
        keeps the room code on the table and every phone's token working. False (and
        nothing copied) if the file cannot even be read."""
        quoted = urllib.parse.quote(str(path))
        # mode=ro reads the WAL too; a read-only file system may refuse its shared
        # memory file, and then only immutable=1 (without the WAL's last commits) reads.
        for uri in (f"file:{quoted}?mode=ro", f"file:{quoted}?mode=ro&immutable=1"):
            try:
                card = sqlite3.connect(uri, uri=True)
            except sqlite3.Error:
                continue
            try:
                meta = card.execute("SELECT key, value FROM meta").fetchall()
                have = {row[1] for row in card.execute("PRAGMA table_info(seats)")}
                columns = [c for c in self.KEPT_SEAT_COLUMNS if c in have]
                seats = card.execute(f"SELECT {', '.join(columns)} FROM seats").fetchall()
            except sqlite3.Error:
                continue
            finally:
                card.close()
            with self._transaction():
                self._db.executemany(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                    [(k, v) for k, v in meta if k != "schema_version"],
                )
                self._db.executemany(
                    f"INSERT OR REPLACE INTO seats ({', '.join(columns)}) "
                    f"VALUES ({', '.join('?' * len(columns))})",
                    seats,
                )
            return True
        return False

    # -- meta -------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        if self.writer is not None:
            self._written(lambda store: store.set_meta(key, value))
            return
        with self._transaction() as db:
            db.execute(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    def set_metas(self, values: Mapping[str, str]) -> None:
        """Several meta keys in one commit (one fsync, all or none)."""
        if self.writer is not None:
            self._written(lambda store: store.set_metas(values))
            return
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                list(values.items()),
            )

    # -- seats ------------------------------------------------------------------------
    def seats(self) -> list[SeatRecord]:
        rows = self._db.execute(
            "SELECT seat, name, colour, token_hash, joined_at, kiosk FROM seats ORDER BY seat"
        )
        return [SeatRecord(seat, name, colour, token, at, bool(kiosk))
                for seat, name, colour, token, at, kiosk in rows]

    def put_seat(self, record: SeatRecord) -> None:
        if self.writer is not None:
            self._written(lambda store: store.put_seat(record))
            return
        with self._transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO seats(seat, name, colour, token_hash, joined_at, kiosk) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record.seat, record.name, record.colour, record.token_hash, record.joined_at,
                 int(record.kiosk)),
            )

    def remove_seat(self, seat: int) -> None:
        if self.writer is not None:
            self._written(lambda store: store.remove_seat(seat))
            return
        with self._transaction() as db:
            db.execute("DELETE FROM seats WHERE seat = ?", (seat,))

    # -- matches ----------------------------------------------------------------------
    def begin_match(
        self,
        game: str,
        seats: Sequence[SeatInfo],
        options: dict[str, Any],
        seed: int,
        at: float,
        roster: Roster | None = None,
    ) -> int:
        if self.writer is not None:
            made = self._written(
                lambda store: store.begin_match(game, seats, options, seed, at, roster))
            assert made is not None
            return made
        seats_json = json.dumps([[s.seat, s.name, s.colour] for s in seats])
        roster_json = None if roster is None else json.dumps(roster.to_json())
        with self._transaction() as db:
            cur = db.execute(
                "INSERT INTO matches(game, seats, options, seed, started_at, roster) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, seats_json, json.dumps(options), seed, at, roster_json),
            )
            match_id = cur.lastrowid
        assert match_id is not None
        return match_id

    def append_action(self, match_id: int, seq: int, action_id: str | None, action: Action) -> None:
        """Log one accepted action; returns once it is committed (fsync'd) to disk.
        Raises BudgetExceeded (nothing written) past the match's or the file's budget."""
        if self.writer is not None:
            self._written(lambda store: store.append_action(match_id, seq, action_id, action))
            return
        data = json.dumps(action.data, separators=(",", ":"))
        size = len(data) + len(action.kind) + len(action_id or "") + 48  # row overhead
        used = self._logged_bytes(match_id)
        if self.match_budget is not None and used + size > self.match_budget:
            raise BudgetExceeded(
                f"match {match_id} holds {used} bytes of moves; at most {self.match_budget}",
                whole_box=False,
            )
        seat = action.seat
        if self.match_budget is not None and seat is not None and used + size > (
            self.match_budget // 2
        ):
            # Past half the budget, each seat its share: one seat's flood must not fill
            # the match for everyone (the table's own moves are never held back).
            share = self.match_budget // (self._seat_count(match_id) + 1)
            mine = self._seat_logged(match_id, seat)
            if mine >= share:
                raise BudgetExceeded(
                    f"seat {seat} holds {mine} bytes of match {match_id}'s moves; its share "
                    f"is {share}", whole_box=False, seat=seat,
                )
        if self.total_budget is not None and self.used_bytes() + size > self.total_budget:
            self.prune(keep=match_id)
            if self.used_bytes() + size > self.total_budget:
                raise BudgetExceeded(
                    f"the data file holds {self.used_bytes()} bytes; at most "
                    f"{self.total_budget}", whole_box=True,
                )
        with self._transaction() as db:
            db.execute(
                "INSERT INTO actions(match_id, seq, action_id, seat, kind, data, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (match_id, seq, action_id, action.seat, action.kind, data, action.at),
            )
        self._match_bytes[match_id] = used + size
        if (match_id, action.seat) in self._seat_bytes:
            self._seat_bytes[match_id, action.seat] += size

    def _seat_count(self, match_id: int) -> int:
        row = self._db.execute("SELECT seats FROM matches WHERE id = ?", (match_id,)).fetchone()
        return 0 if row is None else len(json.loads(row[0]))

    def _seat_logged(self, match_id: int, seat: int) -> int:
        """Bytes of `seat`'s moves in the match's log (as `_logged_bytes` counts them)."""
        used = self._seat_bytes.get((match_id, seat))
        if used is None:
            row = self._db.execute(
                "SELECT COALESCE(SUM(LENGTH(data) + LENGTH(kind) + "
                "COALESCE(LENGTH(action_id), 0) + 48), 0) FROM actions "
                "WHERE match_id = ? AND seat = ?",
                (match_id, seat),
            ).fetchone()
            if len(self._seat_bytes) > 64:
                self._seat_bytes.clear()
            used = self._seat_bytes[match_id, seat] = int(row[0])
        return used

    def _logged_bytes(self, match_id: int) -> int:
        used = self._match_bytes.get(match_id)
        if used is None:
            row = self._db.execute(
                "SELECT COALESCE(SUM(LENGTH(data) + LENGTH(kind) + "
                "COALESCE(LENGTH(action_id), 0) + 48), 0) FROM actions WHERE match_id = ?",
                (match_id,),
            ).fetchone()
            if len(self._match_bytes) > 16:
                self._match_bytes.clear()
            used = self._match_bytes[match_id] = int(row[0])
        return used

    def used_bytes(self) -> int:
        """Bytes the data file holds in use (its pages less the free ones)."""
        pages = self._db.execute("PRAGMA page_count").fetchone()[0]
        free = self._db.execute("PRAGMA freelist_count").fetchone()[0]
        size = self._db.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)

    def has_action_id(self, match_id: int, action_id: str, seat: int | None = None) -> bool:
        """Was `action_id` logged for this seat (None: the table) in this match?"""
        row = self._db.execute(
            "SELECT 1 FROM actions WHERE match_id = ? AND action_id = ? AND seat IS ?",
            (match_id, action_id, seat),
        ).fetchone()
        return row is not None

    def prune(
        self, before: float | None = None, keep: int | None = None, batch: int = 4
    ) -> list[int]:
        """Delete finished matches (their log, pause, gallery): those finished before
        `before`, or else, over the total budget, the oldest `batch` of them; never
        `keep` nor an unfinished match. Returns the deleted match ids."""
        if self.writer is not None:
            pruned = self._written(lambda store: store.prune(before, keep, batch))
            assert pruned is not None
            return pruned
        if before is not None:
            rows = self._db.execute(
                "SELECT id FROM matches WHERE finished_at IS NOT NULL AND finished_at < ? "
                "ORDER BY id", (before,),
            ).fetchall()
        else:
            rows = self._db.execute(
                "SELECT id FROM matches WHERE finished_at IS NOT NULL AND id IS NOT ? "
                "ORDER BY id LIMIT ?", (keep, batch),
            ).fetchall()
        ids = [int(r[0]) for r in rows if int(r[0]) != keep]
        for match_id in ids:
            with self._transaction() as db:
                for table in ("actions", "pauses", "galleries"):
                    db.execute(f"DELETE FROM {table} WHERE match_id = ?", (match_id,))
                db.execute("DELETE FROM matches WHERE id = ?", (match_id,))
            self._match_bytes.pop(match_id, None)
            self._seat_bytes.clear()
        return ids

    def finish_match(self, match_id: int, outcome: Outcome | None, at: float) -> None:
        """Close a match: finished (with its outcome) or ended early (outcome None)."""
        if self.writer is not None:
            self._written(lambda store: store.finish_match(match_id, outcome, at))
            return
        with self._transaction() as db:
            db.execute(
                "UPDATE matches SET finished_at = ?, outcome = ? WHERE id = ?",
                (at, None if outcome is None else json.dumps(outcome.to_json()), match_id),
            )

    def set_roster(self, match_id: int, roster: Roster) -> None:
        """Keep who holds which seat of a match from which move on (a seat changed hands)."""
        if self.writer is not None:
            self._written(lambda store: store.set_roster(match_id, roster))
            return
        with self._transaction() as db:
            db.execute("UPDATE matches SET roster = ? WHERE id = ?",
                       (json.dumps(roster.to_json()), match_id))

    def unfinished_match(self) -> MatchRecord | None:
        row = self._db.execute(
            "SELECT * FROM matches WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else _match(row)

    def match(self, match_id: int) -> MatchRecord | None:
        row = self._db.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
        return None if row is None else _match(row)

    def actions(self, match_id: int) -> list[LoggedAction]:
        rows = self._db.execute(
            "SELECT seq, action_id, seat, kind, data, at FROM actions "
            "WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [
            LoggedAction(seq, action_id, Action(kind, seat, _data(data), at))
            for seq, action_id, seat, kind, data, at in rows
        ]

    def finished_matches(self, since: float = 0.0) -> list[MatchRecord]:
        rows = self._db.execute(
            "SELECT * FROM matches WHERE finished_at IS NOT NULL AND finished_at >= ? "
            "ORDER BY finished_at",
            (since,),
        )
        return [_match(row) for row in rows]

    # -- pauses (appliance/table/session.py: the match's clock stands still while paused) -----
    def pause_of(self, match_id: int) -> tuple[float, float | None]:
        """(seconds the match was paused before, when the running pause began or None)."""
        row = self._db.execute(
            "SELECT paused_total, paused_at FROM pauses WHERE match_id = ?", (match_id,)
        ).fetchone()
        return (0.0, None) if row is None else (float(row[0]), row[1])

    def set_pause(self, match_id: int, paused_total: float, paused_at: float | None) -> None:
        if self.writer is not None:
            self._written(lambda store: store.set_pause(match_id, paused_total, paused_at))
            return
        with self._transaction() as db:
            db.execute(
                "INSERT INTO pauses(match_id, paused_total, paused_at) VALUES (?, ?, ?) "
                "ON CONFLICT(match_id) DO UPDATE SET paused_total = excluded.paused_total, "
                "paused_at = excluded.paused_at",
                (match_id, paused_total, paused_at),
            )

    # -- galleries (appliance/door/gallery.py): one unguessable address per finished match --
    def put_gallery(self, match_id: int, token: str, at: float) -> None:
        if self.writer is not None:
            self._written(lambda store: store.put_gallery(match_id, token, at))
            return
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO galleries(match_id, token, created_at) VALUES (?, ?, ?)",
                (match_id, token, at),
            )

    def gallery_token(self, match_id: int) -> str | None:
        row = self._db.execute(
            "SELECT token FROM galleries WHERE match_id = ?", (match_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def gallery_match(self, token: str) -> tuple[int, float] | None:
        """(match id, created at) of the gallery with this token, or None."""
        row = self._db.execute(
            "SELECT match_id, created_at FROM galleries WHERE token = ?", (token,)
        ).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def delete_galleries_before(self, at: float) -> list[int]:
        """Forget the galleries made before `at`; returns their match ids."""
        if self.writer is not None:
            gone = self._written(lambda store: store.delete_galleries_before(at))
            assert gone is not None
            return gone
        with self._transaction() as db:
            rows = db.execute(
                "SELECT match_id FROM galleries WHERE created_at < ?", (at,)
            ).fetchall()
            db.execute("DELETE FROM galleries WHERE created_at < ?", (at,))
        return [int(r[0]) for r in rows]

    def integrity_check(self) -> str:
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])


class StoreWriter:
    """One thread, one connection of its own, one queue: every job runs there in the
    order it was submitted, and its future says when it is committed (or why not).

    Moves waiting next to each other in the queue (`submit(job, batch=True)`) are
    committed together, up to `BATCH_MAX`: one transaction, one fsync. While an SD card
    takes 10 ms or more to commit, the moves of a full table (or of one seat's flood)
    come faster than one commit each; one each, the queue would grow until the moves
    were refused "still saving", and every honest move would wait behind all of them.
    Each job's writes are a savepoint of the batch: a job that fails is undone alone
    and told so; a commit that fails tells every job of the batch."""

    BATCH_MAX: Final = 64

    def __init__(self, factory: Callable[[], Store]) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.batches = 0  # commits of more than one job: for tests and benchmarks
        opened: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self._run, args=(factory, opened), name="easel-store-writer", daemon=True
        )
        self._thread.start()
        opened.result()  # a file the writer cannot open is the caller's StoreError

    def submit(self, job: Callable[[Store], T], batch: bool = False
               ) -> concurrent.futures.Future[T]:
        done: concurrent.futures.Future[T] = concurrent.futures.Future()
        if threading.current_thread() is self._thread:
            raise RuntimeError("a writer job cannot wait for another one")
        self._jobs.put(_Job(job, done, batch))
        return done

    def close(self) -> None:
        """Commit what was submitted, then stop the thread."""
        self._jobs.put(None)
        self._thread.join()

    def _run(self, factory: Callable[[], Store], opened: concurrent.futures.Future[None]) -> None:
        try:
            store = factory()
        except BaseException as err:
            opened.set_exception(err)
            return
        opened.set_result(None)
        following: _Job | None = None
        try:
            while True:
                item = following if following is not None else self._jobs.get()
                following = None
                if item is None:
                    break
                if not item.batch:
                    self._one(store, item)
                    continue
                batch = [item]
                while len(batch) < self.BATCH_MAX:
                    try:
                        more = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if more is None or not more.batch:
                        following = more
                        if more is None:
                            self._jobs.put(None)  # (the stop, after this batch)
                        break
                    batch.append(more)
                if len(batch) == 1:
                    self._one(store, item)
                else:
                    self._batch(store, batch)
        finally:
            store.close()

    @staticmethod
    def _one(store: Store, item: _Job) -> None:
        if not item.done.set_running_or_notify_cancel():
            return
        try:
            item.done.set_result(item.job(store))
        except BaseException as err:  # the submitter hears it, the thread goes on
            item.done.set_exception(err)

    def _batch(self, store: Store, batch: list[_Job]) -> None:
        """`batch`'s jobs in one transaction; their futures once it is committed."""
        results: list[tuple[_Job, bool, Any]] = []  # job, succeeded, result or error
        try:
            store.begin_batch()
        except sqlite3.Error as err:
            for item in batch:
                if item.done.set_running_or_notify_cancel():
                    item.done.set_exception(err)
            return
        for item in batch:
            if not item.done.set_running_or_notify_cancel():
                continue
            try:
                results.append((item, True, item.job(store)))
            except BaseException as err:
                results.append((item, False, err))
        try:
            store.end_batch()
        except BaseException as err:
            for item, succeeded, value in results:  # nothing of the batch is written
                item.done.set_exception(err if succeeded else value)
            return
        self.batches += 1
        for item, succeeded, value in results:
            if succeeded:
                item.done.set_result(value)
            else:
                item.done.set_exception(value)


@dataclass(frozen=True)
class _Job:
    job: Callable[[Store], Any]
    done: concurrent.futures.Future[Any]
    batch: bool


def read_actions(path: Path, match_id: int) -> list[LoggedAction]:
    """A match's log read through a read-only connection of its own: for a worker thread
    (the store's connection belongs to the event loop's thread)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT seq, action_id, seat, kind, data, at FROM actions "
            "WHERE match_id = ? ORDER BY seq",
            (match_id,),
        ).fetchall()
    finally:
        db.close()
    return [
        LoggedAction(seq, action_id, Action(kind, seat, _data(data), at))
        for seq, action_id, seat, kind, data, at in rows
    ]


def _data(text: str) -> Any:
    """An action's logged data, decoded: by msgspec (a few times faster than json on a
    log of long strokes, the bulk of a resume), or by json where msgspec refuses what
    json.dumps may have written (NaN, a lone surrogate): the same values either way."""
    try:
        return _decode(text)
    except msgspec.DecodeError:
        return json.loads(text)


_decode = msgspec.json.Decoder().decode


def _match(row: tuple[Any, ...]) -> MatchRecord:
    match_id, game, seats, options, seed, started_at, finished_at, outcome, roster = row
    return MatchRecord(
        id=match_id,
        game=game,
        seats=tuple(SeatInfo(s, n, c) for s, n, c in json.loads(seats)),
        options=json.loads(options),
        seed=seed,
        started_at=started_at,
        finished_at=finished_at,
        outcome=None if outcome is None else json.loads(outcome),
        roster=None if roster is None else Roster.from_json(json.loads(roster)),
    )
