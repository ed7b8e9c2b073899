"""The session's host powers: pause (the hourglass stands still), handing a seat over
mid-game, the family filter on names and typed text, the table's language, galleries."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from appliance.system.config import Config, GallerySettings, TableSettings
from appliance.table.session import (
    HOST,
    HOST_PAGE,
    KIOSK,
    PALETTE,
    BadHandover,
    BadName,
    NotHost,
    NotNow,
    Session,
    Unfriendly,
    Viewer,
)
from appliance.table.store import Store
from games import registry
from games.core import SEAT_BACK, SEAT_LEFT, TOO_FEW, VOTE
from tests.conftest import FakeClock
from tests.toygame import TURN_SECONDS, RaceToTwenty


def seated_match(session: Session, players: int = 3) -> list[str]:
    tokens = []
    for i in range(players):
        welcome = session.join(f"Player {i}", PALETTE[i])
        assert welcome.token is not None
        tokens.append(welcome.token)
    session.select(HOST, "race")
    session.start(HOST)
    return tokens


# -- pause ------------------------------------------------------------------------------


def test_pause_stops_the_hourglass_and_resume_shifts_it(
    session: Session, race: RaceToTwenty, clock: FakeClock
) -> None:
    seated_match(session)
    session.act(0, "add", {"n": 1})  # seat 1's turn starts: TURN_SECONDS on the clock
    started = clock.now
    assert session.next_deadline() == started + TURN_SECONDS
    clock.advance(TURN_SECONDS - 5)
    session.pause(HOST)
    assert session.paused and session.next_deadline() is None
    view = session.view_for(KIOSK)["match"]
    assert view["paused"] and view["deadline"]["paused"] and view["deadline"]["at"] is None
    assert view["deadline"]["remaining"] == 5.0
    clock.advance(600)  # a long break: nothing runs out
    assert not session.tick()
    assert session.view_for(KIOSK)["match"]["deadline"]["remaining"] == 5.0
    with pytest.raises(NotNow, match="paused") as err:
        session.act(1, "add", {"n": 1})
    assert err.value.key == "paused"
    assert not session.press("hourglass")
    with pytest.raises(NotNow):
        session.pause(HOST)
    session.resume(HOST)
    assert session.next_deadline() == started + TURN_SECONDS + 600
    assert session.view_for(KIOSK)["match"]["deadline"]["remaining"] == 5.0
    clock.advance(4.9)
    assert not session.tick()
    clock.advance(0.2)
    assert session.tick()  # 5 s of the hourglass were left when it was paused
    with pytest.raises(NotNow):
        session.resume(HOST)


def test_a_pause_survives_a_restart_and_the_log_replays(
    store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = Session(store, config, "", clock)
    seated_match(session)
    session.act(0, "add", {"n": 2})
    clock.advance(10)
    session.pause(HOST)
    clock.advance(100)
    again = Session(store, config, "", clock)
    assert again.paused
    clock.advance(100)
    again.resume(HOST)
    clock.advance(5)
    again.act(1, "add", {"n": 3})  # stamped on the match's clock: 15 s after the first
    third = Session(store, config, "", clock)
    assert third.match is not None and not third.paused
    assert third.match.state.total == 5
    # The hourglass goes on from where it stood (the next look may come sooner: the
    # seats' phones are not back yet after the restart, see test_people's away tests).
    assert third.view_for(KIOSK)["match"]["deadline"]["at"] == clock.now + TURN_SECONDS
    assert third.next_deadline() == clock.now + third.config.table.away_after_s


def test_only_the_host_pauses(session: Session, race: RaceToTwenty) -> None:
    seated_match(session)
    with pytest.raises(NotHost):
        session.pause(1)
    session.pause(0)  # the VIP phone may
    session.resume(HOST)
    session.end_match(HOST)
    with pytest.raises(NotNow):
        session.pause(HOST)


# -- handing a seat over ------------------------------------------------------------------


def test_a_dropped_players_seat_goes_to_the_next_phone_with_its_score(
    session: Session, race: RaceToTwenty
) -> None:
    tokens = seated_match(session)
    session.act(0, "add", {"n": 3})
    session.act(1, "reveal", {})
    session.offer_seat(HOST, 1)
    assert not session.is_seated(1, tokens[1])
    assert session.view_for(KIOSK)["open_seats"] == [1]
    welcome = session.join("Newcomer", PALETTE[6])  # the phone's own colour is not used
    assert (welcome.role, welcome.seat) == ("player", 1)
    assert session.seats[1].colour == PALETTE[1] and session.seats[1].name == "Newcomer"
    assert session.view_for(KIOSK)["open_seats"] == []
    mine = session.view_for(Viewer("player", 1))
    assert mine["match"]["state"]["your_word"] is not None  # the seat's own secret
    names = {s["seat"]: s["name"] for s in mine["match"]["seats"]}
    assert names[1] == "Newcomer"
    session.act(1, "add", {"n": 2})  # plays on where the seat stood
    assert session.match is not None and session.match.state.total == 5
    assert session.join("Late", PALETTE[7]).role == "spectator"


def test_handing_over_is_refused_when_it_makes_no_sense(
    session: Session, race: RaceToTwenty
) -> None:
    session.join("A", PALETTE[0])
    with pytest.raises(BadHandover) as err:
        session.offer_seat(HOST, 0)
    assert err.value.code == "bad_handover" and isinstance(err.value, ValueError)
    session.join("B", PALETTE[1])
    session.select(HOST, "race")
    session.start(HOST)
    with pytest.raises(BadHandover, match="Seat 6 is not playing"):
        session.offer_seat(HOST, 5)
    with pytest.raises(NotHost):
        session.offer_seat(1, 0)
    session.offer_seat(HOST, 1)
    with pytest.raises(BadHandover, match="already free"):
        session.offer_seat(HOST, 1)
    with pytest.raises(BadName):
        session.join("a", PALETTE[3])  # names stay unique
    session.end_match(HOST)
    assert session.open_seats == set()  # the game is over: nobody takes a seat in it


# -- the family filter ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Sh1t", "f.u.c.k", "KURVA", "kretén", "Kr3t3n", "s h i t"])
def test_rude_names_are_refused_politely(session: Session, name: str) -> None:
    with pytest.raises(BadName) as err:
        session.join(name, PALETTE[0])
    assert err.value.key == "name_unfriendly" and "family table" in str(err.value)


@pytest.mark.parametrize("name", ["Scunthorpe", "Dick", "Assunta", "Kuba", "Šárka", "Class 3B"])
def test_ordinary_names_pass(session: Session, name: str) -> None:
    assert session.join(name, PALETTE[0]).role == "player"


def test_the_filter_can_be_switched_off(store: Store, config: Config, clock: FakeClock) -> None:
    relaxed = dataclasses.replace(config, table=TableSettings(family_filter=False))
    session = Session(store, relaxed, "", clock)
    assert session.join("Shit", PALETTE[0]).role == "player"


def test_typed_text_is_filtered_too(session: Session, race: RaceToTwenty) -> None:
    seated_match(session)
    with pytest.raises(Unfriendly) as err:
        session.act(0, "add", {"n": 1, "text": "you b1tch"})
    assert err.value.code == "unfriendly" and isinstance(err.value, ValueError)
    assert session.match is not None and session.match.next_seq == 0  # nothing logged


# -- language and the views -----------------------------------------------------------------


def test_the_host_sets_the_language_and_it_is_kept(
    store: Store, config: Config, clock: FakeClock, session: Session
) -> None:
    session.join("A", PALETTE[0])
    with pytest.raises(NotHost):
        session.set_language(1, "cs")
    session.set_language(HOST, "cs")
    assert session.view_for(KIOSK)["lang"] == "cs"
    assert Session(store, config, "", clock).config.table.language == "cs"


def test_the_host_page_sees_the_public_table_only(session: Session, race: RaceToTwenty) -> None:
    seated_match(session)
    view = session.view_for(HOST_PAGE)
    assert view["you"] == {"role": "host", "seat": None, "host": True}
    assert view["wifi"] is None
    assert view["match"]["state"]["your_word"] is None
    assert "buttons" not in view["match"]


def test_a_finished_match_gets_a_gallery_address_on_the_kiosk_only(
    session: Session, race: RaceToTwenty
) -> None:
    seated_match(session)
    session.end_match(HOST)
    kiosk = session.view_for(KIOSK)["match"]
    assert kiosk["gallery_url"].startswith("http://192.0.2.7:8080/gallery/")
    assert len(kiosk["gallery_url"].rsplit("/", 1)[1]) >= 24
    assert "gallery_url" not in session.view_for(Viewer("player", 0))["match"]


def test_no_gallery_when_kept_zero_days(store: Store, config: Config, clock: FakeClock,
                                        race: RaceToTwenty) -> None:
    session = Session(store, dataclasses.replace(config, gallery=GallerySettings(0)), "", clock)
    seated_match(session)
    session.end_match(HOST)
    assert session.view_for(KIOSK)["match"]["gallery_url"] is None


# -- seats that leave mid-game --------------------------------------------------------------


def _duplik_at_evaluation(session: Session, players: int = 4) -> tuple[list[str], Any]:
    tokens = []
    for i in range(players):
        welcome = session.join(f"Player {i}", PALETTE[i])
        assert welcome.token is not None
        tokens.append(welcome.token)
    registry.load_all()
    session.select(HOST, "duplik")
    session.start(HOST)
    assert session.match is not None
    portrayer = session.match.state.round.portrayer
    session.act(portrayer, "roll", {})
    session.act(portrayer, "start_timer", {})
    for seat in range(players):
        if seat != portrayer:
            session.act(seat, "done", {})
    session.act(portrayer, "end_drawing", {})
    session.act(portrayer, "pass", {"direction": "left"})
    return tokens, portrayer


def test_a_kicked_artist_is_skipped_and_the_seat_goes_to_the_next_phone(
    session: Session,
) -> None:
    """The report: a kicked Artist's canvas never got a verdict, "Next criterion" stayed
    disabled, and the kicked player rejoining became a spectator."""
    _, portrayer = _duplik_at_evaluation(session, 4)
    artists = [s for s in range(4) if s != portrayer]
    kicked = artists[0]
    for seat in artists[1:]:
        session.act(seat, "judge", {"met": True})
    session.kick(HOST, kicked)
    assert session.match is not None
    state = session.match.state
    assert state.gone == frozenset({kicked})
    assert session.store.actions(session.match.record.id)[-1].action.kind == SEAT_LEFT
    # The two Artists left judge each other: the round goes on without the kicked seat.
    for seat in artists[1:]:
        if session.match.state.round.judged.get(0, {}).get(seat) is None:
            other = next(s for s in artists[1:] if s != seat)
            session.act(other, "judge", {"met": True})
    session.act(portrayer, "next", {})
    assert session.match.state.round.presented == 2
    assert session.view_for(KIOSK)["open_seats"] == [kicked]
    again = session.join("Back again", PALETTE[5])
    assert (again.role, again.seat) == ("player", kicked)
    assert session.match.state.gone == frozenset()
    assert session.store.actions(session.match.record.id)[-1].action.kind == SEAT_BACK


def test_leaving_mid_game_is_allowed_and_too_few_players_end_it(session: Session) -> None:
    _duplik_at_evaluation(session, 3)
    session.leave(1)
    assert session.match is None and session.last_match is not None
    outcome = session.last_match.rules.outcome(session.last_match.state)
    assert outcome is not None and outcome.summary == TOO_FEW
    assert session.view_for(KIOSK)["open_seats"] == []


def test_the_hosts_phone_starts_a_votes_countdown_for_the_table(session: Session) -> None:
    _, portrayer = _duplik_at_evaluation(session, 4)
    assert session.match is not None
    artists = [s for s in range(4) if s != portrayer]
    for seat in artists:
        session.act(seat, "judge", {"met": False})
    session.act(artists[0], "dispute", {"artist": artists[0]})
    session.act(artists[1], "vote", {"met": True})
    asker = next(s for s in range(4) if s != session.host_seat)
    session.act(asker, "close_vote", {})  # one player alone: asked, no countdown
    assert session.next_deadline() is None
    session.act(session.host_seat, "close_vote", {})
    deadline = session.match.rules.deadline(session.match.state)
    assert deadline is not None and deadline.what == VOTE
    assert session.store.actions(session.match.record.id)[-1].action.seat is None
    assert session.view_for(KIOSK)["match"]["deadline"]["what"] == VOTE


def test_a_hosts_close_vote_resent_gets_its_first_answer_and_is_not_applied_again(
    session: Session,
) -> None:
    _, portrayer = _duplik_at_evaluation(session, 4)
    assert session.match is not None
    artists = [s for s in range(4) if s != portrayer]
    for seat in artists:
        session.act(seat, "judge", {"met": False})
    session.act(artists[0], "dispute", {"artist": artists[0]})
    session.act(artists[1], "vote", {"met": True})
    host = session.host_seat
    assert host is not None
    assert session.act(host, "close_vote", {}, action_id="v-1") is True
    logged = len(session.store.actions(session.match.record.id))
    # The phone heard nothing and sends it again: its ack, not "The vote is closing."
    assert session.act(host, "close_vote", {}, action_id="v-1") is False
    assert len(session.store.actions(session.match.record.id)) == logged
    # Whoever speaks for the table now, the id is the table's move already.
    other = next(s for s in artists if s != host)
    assert session.act(other, "close_vote", {}, action_id="v-1") is False
    assert len(session.store.actions(session.match.record.id)) == logged


def test_a_handed_over_seat_nobody_takes_is_left_after_a_visible_countdown(
    session: Session, clock: FakeClock, store: Store, config: Config
) -> None:
    """The report: a seat handed over to a newcomer that nobody took kept the game
    waiting for ever. Now it waits `[table] handover_wait_s` of play (a pause stops the
    count, a restart keeps it), then the rules hear it left, as a kick."""
    _, portrayer = _duplik_at_evaluation(session, 4)
    assert session.match is not None
    wait = config.table.handover_wait_s
    artist = next(s for s in range(4) if s != portrayer)
    session.offer_seat(HOST, artist)
    shown = session.view_for(KIOSK)["handovers"]
    assert shown == [{"seat": artist, "at": clock.now + wait, "remaining": wait}]
    assert session.view_for(Viewer("player", portrayer))["handovers"] == shown
    assert session.next_deadline() == clock.now + wait  # the app wakes for it
    clock.advance(wait - 10)
    session.pause(HOST)
    clock.advance(3600)  # a long break: the countdown stands still
    assert not session.tick()
    assert session.view_for(KIOSK)["handovers"][0] == {"seat": artist, "at": None,
                                                     "remaining": 10.0}
    session.resume(HOST)
    session.keep_time()  # the app's heartbeat, as while any countdown runs
    session = Session(store, config, "", clock)  # a restart keeps the countdown
    assert session.view_for(KIOSK)["handovers"][0]["remaining"] == 10.0
    clock.advance(9.5)
    assert not session.tick() and session.match is not None
    assert session.match.state.gone == frozenset()  # still waited for
    clock.advance(1)
    assert session.tick()
    assert session.match.state.gone == frozenset({artist})  # its duties passed on
    assert session.store.actions(session.match.record.id)[-1].action.kind == SEAT_LEFT
    assert session.view_for(KIOSK)["handovers"] == []
    assert session.view_for(KIOSK)["open_seats"] == [artist]  # a late newcomer may come
    late = session.join("Late", PALETTE[6])
    assert (late.role, late.seat) == ("player", artist)
    assert session.match.state.gone == frozenset()
    assert session.store.actions(session.match.record.id)[-1].action.kind == SEAT_BACK


def test_a_handed_over_seat_taken_in_time_plays_on_without_a_countdown(
    store: Store, config: Config, clock: FakeClock
) -> None:
    config = dataclasses.replace(
        config, table=dataclasses.replace(config.table, handover_wait_s=20)
    )
    session = Session(store, config, "", clock)
    _, portrayer = _duplik_at_evaluation(session, 4)
    assert session.match is not None
    artist = next(s for s in range(4) if s != portrayer)
    session.offer_seat(HOST, artist)
    assert session.view_for(KIOSK)["handovers"][0]["remaining"] == 20
    clock.advance(19)
    assert session.join("Newcomer", PALETTE[6]).seat == artist
    assert session.view_for(KIOSK)["handovers"] == [] and session.next_deadline() is None
    logged = len(session.store.actions(session.match.record.id))
    clock.advance(60)
    assert not session.tick()
    assert session.match.state.gone == frozenset()
    assert len(session.store.actions(session.match.record.id)) == logged  # nothing told


def test_a_kicked_evaluators_judgement_of_the_criterion_read_now_goes_with_them(
    session: Session,
) -> None:
    """The report: a kicked Evaluator's verdict was hidden but still counted (+1 in the
    art show). It goes with them; the next Evaluator judges that canvas afresh, and
    nobody's points count it unless they do."""
    from games.duplik import canvas_before, evaluator_of

    _, portrayer = _duplik_at_evaluation(session, 4)
    match = session.match
    assert match is not None
    artists = [s for s in range(4) if s != portrayer]
    leaving = artists[0]
    judged = canvas_before(match.state, leaving)
    session.act(leaving, "judge", {"met": True})
    assert match.state.round.judged[0][judged] is True
    session.kick(HOST, leaving)
    state = match.state
    assert judged not in state.round.judged.get(0, {})  # not counted, to be judged again
    judge = evaluator_of(state, judged)
    assert judge not in (leaving, judged)
    session.act(judge, "judge", {"met": False})  # judged afresh by who has it now
    assert match.state.round.judged[0][judged] is False
