"""The session: seats, host rights, games, actions, the clock, views and resuming."""

from __future__ import annotations

import dataclasses
import json

import pytest

from appliance.system.config import Config, TableSettings, WifiSettings
from appliance.table.session import (
    HOST,
    KIOSK,
    PALETTE,
    BadColour,
    BadName,
    NoSuchGame,
    NotHost,
    NotNow,
    Refused,
    Session,
    Viewer,
    WrongRoom,
)
from appliance.table.store import Store
from games import registry
from tests.conftest import FakeClock
from tests.toygame import RaceToTwenty


def seat_up(session: Session, count: int) -> list[str]:
    tokens = []
    for i in range(count):
        welcome = session.join(f"Player {i}", PALETTE[i])
        assert welcome.role == "player" and welcome.seat == i and welcome.token
        tokens.append(welcome.token)
    return tokens


def test_room_code_is_letters_without_vowels(session: Session) -> None:
    assert len(session.room) == 4
    assert set(session.room) <= set("BCDFGHJKLMNPQRSTVWXZ")
    assert session.join_url == f"http://192.0.2.7:8080/?room={session.room}"


def test_hello_needs_the_room_code_unless_the_token_holds_a_seat(session: Session) -> None:
    with pytest.raises(WrongRoom) as err:
        session.hello("ZZZZZ", None)
    assert isinstance(err.value, PermissionError) and "ZZZZZ" in str(err.value)
    assert session.hello(session.room.lower(), None).role == "guest"
    (token,) = seat_up(session, 1)
    again = session.hello("wrong", token)
    assert (again.role, again.seat) == ("player", 0)


def test_names_are_cleaned_and_checked(session: Session) -> None:
    assert session.join("  Ada \t  Lovelace ", PALETTE[0]).seat == 0
    assert session.seats[0].name == "Ada Lovelace"
    for bad in ("", "   ", "x" * 21, "bell\x07"):
        with pytest.raises(BadName):
            session.join(bad, PALETTE[1])
    with pytest.raises(BadName, match="already"):
        session.join("ADA LOVELACE", PALETTE[1])
    with pytest.raises(BadColour):
        session.join("Bo", PALETTE[0])
    with pytest.raises(BadColour):
        session.join("Bo", "#123456")
    assert isinstance(BadName("k", "m"), ValueError)


def test_ninth_phone_watches(session: Session) -> None:
    seat_up(session, 8)
    spectator = session.join("Ninth", PALETTE[0])
    assert spectator.role == "spectator" and spectator.seat is None and spectator.token is None


def test_max_players_comes_from_config(store: Store, config: Config, clock: FakeClock) -> None:
    small = dataclasses.replace(config, table=TableSettings(max_players=3))
    session = Session(store, small, "", clock)
    seat_up(session, 3)
    assert session.join("Four", PALETTE[3]).role == "spectator"


def test_only_the_host_kicks_and_the_host_moves_on(session: Session, clock: FakeClock) -> None:
    tokens = []
    for i in range(3):
        tokens.append(session.join(f"P{i}", PALETTE[i]).token)
        clock.advance(1)
    assert session.host_seat == 0
    with pytest.raises(NotHost):
        session.kick(1, 2)
    session.kick(0, 2)
    assert 2 not in session.seats
    assert session.hello(session.room, tokens[2]).role == "guest"
    session.leave(0)
    assert session.host_seat == 1
    session.kick(HOST, 1)
    assert session.seats == {}


def test_starting_a_game(
    session: Session, race: RaceToTwenty, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(NoSuchGame):
        session.select(HOST, "chess")
    # Every catalogued game is written now: pretend one is not on this box (loaded
    # first, so the test does not depend on another having loaded the games).
    registry.load_all()
    monkeypatch.delitem(registry._registered, "broad-lines")
    session.select(HOST, "broad-lines")
    with pytest.raises(NoSuchGame):
        session.start(HOST)  # catalogued, not written yet
    session.select(HOST, "race")
    seat_up(session, 1)
    with pytest.raises(NotNow, match="2 to 8 players; 1 are seated"):
        session.start(0)
    session.join("Second", PALETTE[1])
    with pytest.raises(NotHost):
        session.start(1)
    session.start(0)
    assert session.match is not None
    assert session.join("Late", PALETTE[2]).role == "spectator"
    with pytest.raises(NotNow):
        session.start(0)


def test_actions_are_checked_logged_and_applied_once(
    session: Session, race: RaceToTwenty, store: Store
) -> None:
    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    assert session.match is not None
    match_id = session.match.record.id
    with pytest.raises(Refused, match="not your turn") as err:
        session.act(1, "add", {"n": 1}, "a1")
    assert isinstance(err.value, ValueError) and err.value.key == "not_your_turn"
    assert session.act(0, "add", {"n": 3}, "a1") is True
    assert session.act(0, "add", {"n": 3}, "a1") is False  # a resend: acknowledged, not applied
    assert session.view_for(Viewer("player", 0))["match"]["state"]["total"] == 3
    logged = store.actions(match_id)
    assert [(a.seq, a.action_id, a.action.kind) for a in logged] == [(0, "a1", "add")]
    with pytest.raises(NotNow):
        session.act(5, "add", {"n": 1})


def test_the_hourglass_runs_out_on_the_session_clock(
    session: Session, race: RaceToTwenty, clock: FakeClock, store: Store
) -> None:
    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    assert session.next_deadline() is None
    assert session.press("hourglass")
    deadline = session.next_deadline()
    assert deadline == clock.now + 30
    clock.advance(29.9)
    assert session.tick() is False
    clock.advance(0.2)
    assert session.tick() is True
    assert session.view_for(KIOSK)["match"]["state"]["turn"] == 1
    assert session.match is not None
    kinds = [(a.action.kind, a.action.seat) for a in store.actions(session.match.record.id)]
    assert kinds == [("press_hourglass", None), ("time_up", None)]


def test_a_button_that_means_nothing_now_is_ignored(session: Session, race: RaceToTwenty) -> None:
    assert session.press("die") is False  # lobby
    with pytest.raises(ValueError, match="unknown button"):
        session.press("turbo")
    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    assert session.press("reveal") is False  # the race has no use for REVEAL
    assert session.press("die") is True


def test_a_finished_match_is_stored_and_shown(
    session: Session, race: RaceToTwenty, store: Store
) -> None:
    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    seat = 0
    while session.match is not None:
        session.act(seat, "add", {"n": 3})
        seat = 1 - seat
    view = session.view_for(KIOSK)
    assert view["phase"] == "over"  # its finish, until the host moves on
    assert view["match"]["outcome"]["winners"] == [0]  # 3+3+3+3+3+3+3 = 21 on seat 0's move
    (record,) = store.finished_matches()
    assert record.outcome is not None and record.outcome["winners"] == [0]


def test_views_keep_secrets(
    store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    wifi = WifiSettings(ssid="Cafe", password="s3cret-pass")
    session = Session(store, dataclasses.replace(config, wifi=wifi), "http://x", clock)
    seat_up(session, 3)
    session.select(HOST, "race")
    session.start(HOST)
    assert session.match is not None
    words = session.match.state.words
    seed = str(session.match.record.seed)
    for seat in range(3):
        text = json.dumps(session.view_for(Viewer("player", seat)))
        assert words[seat] in text
        assert not any(w in text for i, w in enumerate(words) if i != seat)
        assert "s3cret-pass" not in text and seed not in text
    kiosk = json.dumps(session.view_for(KIOSK))
    assert "s3cret-pass" in kiosk and not any(w in kiosk for w in words) and seed not in kiosk
    spectator = json.dumps(session.view_for(Viewer("spectator")))
    assert not any(w in spectator for w in words)


def test_a_restart_resumes_the_match_and_the_seats(
    store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = Session(store, config, "", clock)
    tokens = seat_up(session, 3)
    session.select(HOST, "race")
    session.start(HOST)
    session.act(0, "add", {"n": 2}, "x1")
    session.press("die")
    session.act(1, "add", {"n": 1}, "x2")
    session.act(2, "reveal", {}, "x3")
    assert session.match is not None
    before = race.to_json(session.match.state)
    again = Session(store, config, "", clock)
    assert again.room == session.room
    assert again.match is not None and race.to_json(again.match.state) == before
    assert again.hello("", tokens[1]).seat == 1
    assert again.act(1, "add", {"n": 1}, "x2") is False  # already in the log
    again.act(2, "add", {"n": 1}, "x4")
    assert again.match.next_seq == 5


def test_the_room_code_changes_when_nobody_is_seated(
    store: Store, config: Config, clock: FakeClock
) -> None:
    first = Session(store, config, "", clock).room
    codes = {Session(store, config, "", clock).room for _ in range(5)}
    assert codes - {first}, "an empty table gets a new code at each start"


def test_views_are_computed_once_per_change(session: Session) -> None:
    seat_up(session, 1)
    a = session.view_for(Viewer("player", 0))
    assert session.view_for(Viewer("player", 0)) is a
    session.join("Other", PALETTE[1])
    b = session.view_for(Viewer("player", 0))
    assert b is not a and b["version"] == a["version"] + 1


def test_a_views_news_leaves_out_the_version_and_the_time_left_of_a_running_count(
    session: Session, race: RaceToTwenty, clock: FakeClock
) -> None:
    """What the door compares to send a phone only a view that tells it something
    (appliance/door/server.py `_fan_out`): the phone counts a running hourglass down
    itself, so its time left alone is no news; a pause, which stops it, is."""
    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    assert session.press("hourglass")
    watcher = Viewer("spectator")
    after, seen = session.view_news(watcher), session.view_for(watcher)
    clock.advance(5)
    session.tell_table(NotNow("x", "a word on the kiosk"))  # a new version, no new seat
    now = session.view_for(watcher)
    assert now["version"] > seen["version"]
    assert now["match"]["deadline"]["remaining"] < seen["match"]["deadline"]["remaining"]
    again = session.view_news(watcher)
    assert again == after
    session.pause(HOST)
    paused = session.view_news(watcher)
    assert paused != again
    assert paused["match"]["deadline"][0]["remaining"] is not None  # it stands still


def test_a_move_the_store_cannot_save_changes_nothing(
    session: Session, race: RaceToTwenty, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from appliance.table.session import NotSaved

    seat_up(session, 2)
    session.select(HOST, "race")
    session.start(HOST)
    version = session.version

    def full_disk(*args: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "append_action", full_disk)
    with pytest.raises(NotSaved, match="disk is full") as err:
        session.act(0, "add", {"n": 2}, "z1")
    assert isinstance(err.value, OSError)
    assert session.version == version
    assert session.match is not None and session.match.state.total == 0
    monkeypatch.undo()
    assert session.act(0, "add", {"n": 2}, "z1") is True  # the phone's resend goes through


def test_the_lobby_offers_each_game_for_as_many_as_the_table_seats(session: Session) -> None:
    """The report: "Duplik 3-10" and "Broad Lines 3-12" at an 8-seat table."""
    registry.load_all()
    games = {g["id"]: g for g in session.view_for(KIOSK)["games"]}
    seats = session.config.table.max_players
    assert seats == 8
    assert (games["duplik"]["min_players"], games["duplik"]["max_players"]) == (3, 8)
    assert games["broad-lines"]["max_players"] == 8
    assert games["luck-of-the-draw"]["max_players"] == 8
