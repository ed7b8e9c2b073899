"""The store: durable settings, an append-only log, and refusing what it cannot trust."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from appliance.table.store import SeatRecord, Store, StoreError
from games.core import Action, Outcome, SeatInfo


def test_the_log_is_durable(store: Store, tmp_path: Path) -> None:
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    seats = (SeatInfo(0, "Ada", "#e6194b"), SeatInfo(1, "Bo", "#3cb44b"))
    match = store.begin_match("race", seats, {"target": 10}, 2**61 + 5, 100.0)
    store.append_action(match, 0, "a", Action("add", 0, {"n": 2}, 101.0))
    store.append_action(match, 1, None, Action("time_up", None, {"what": "turn"}, 130.0))
    other = Store(tmp_path / "easel.sqlite3")  # a second reader sees what was committed
    record = other.unfinished_match()
    assert record is not None and record.seats == seats and record.seed == 2**61 + 5
    assert [a.action for a in other.actions(match)] == [
        Action("add", 0, {"n": 2}, 101.0),
        Action("time_up", None, {"what": "turn"}, 130.0),
    ]
    assert other.has_action_id(match, "a", 0) and not other.has_action_id(match, "b", 0)
    # Action ids are the phone's own: unique per seat, not per match.
    assert not other.has_action_id(match, "a", 1)
    other.close()
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action(match, 2, "a", Action("add", 0, {"n": 1}, 131.0))
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action(match, 1, "c", Action("add", 1, {"n": 1}, 131.0))
    store.finish_match(match, Outcome((0,), ((0, 1.0),), "won"), 140.0)
    assert store.unfinished_match() is None
    (done,) = store.finished_matches()
    assert done.outcome == {"winners": [0], "scores": [[0, 1.0]], "summary": "won"}
    assert store.integrity_check() == "ok"


def test_seats_and_meta(store: Store) -> None:
    store.put_seat(SeatRecord(2, "Cy", "#4363d8", "h1", 5.0))
    store.set_meta("room", "BCDF")
    store.set_meta("room", "GHJK")
    assert store.get_meta("room") == "GHJK" and store.get_meta("nothing") is None
    assert store.seats() == [SeatRecord(2, "Cy", "#4363d8", "h1", 5.0)]
    store.remove_seat(2)
    assert store.seats() == []


def test_a_seat_made_at_the_kiosk_is_kept_and_an_older_file_gains_the_column(
    tmp_path: Path,
) -> None:
    old = tmp_path / "old.sqlite3"
    db = sqlite3.connect(old)  # the seats table as Easel made it before `kiosk`
    db.executescript("CREATE TABLE seats (seat INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                     "colour TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, "
                     "joined_at REAL NOT NULL);"
                     "INSERT INTO seats VALUES (0, 'Ada', '#e6194b', 'h0', 1.0);")
    db.close()
    store = Store(old)
    store.put_seat(SeatRecord(1, "Mia", "#3cb44b", "h1", 2.0, kiosk=True))
    store.close()
    again = Store(old)
    assert again.seats() == [SeatRecord(0, "Ada", "#e6194b", "h0", 1.0, kiosk=False),
                             SeatRecord(1, "Mia", "#3cb44b", "h1", 2.0, kiosk=True)]
    again.close()


def test_a_file_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        Store(junk)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    Store(path).set_meta("schema_version", "99")
    with pytest.raises(StoreError, match="newer Easel"):
        Store(path)
