"""A finished game's finish stays on every screen until the host moves on (to the lobby, or
the same game again), and a power cut during it shows it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from appliance.system.config import Config
from appliance.table.session import (
    FINISH_BUTTON_AFTER_S,
    HOST,
    HOST_PAGE,
    KIOSK,
    PALETTE,
    NotHost,
    NotNow,
    Session,
    Viewer,
)
from appliance.table.store import Store
from tests.conftest import FakeClock
from tests.toygame import RaceToTwenty


def play_to_the_end(session: Session, players: int = 2, target: int = 5) -> int:
    for i in range(players):
        session.join(f"Player {i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST, {"target": target})
    assert session.match is not None
    match_id = session.match.record.id
    while session.match is not None:
        session.act(session.match.state.turn % players, "add", {"n": 1})
    return match_id


def test_the_finish_stays_until_the_host_goes_back_to_the_lobby(
    session: Session, race: RaceToTwenty
) -> None:
    match_id = play_to_the_end(session)
    for viewer in (KIOSK, Viewer("player", 0), Viewer("player", 1), HOST_PAGE):
        view = session.view_for(viewer)
        assert view["phase"] == "over", viewer
        assert view["match"]["id"] == match_id and view["match"]["outcome"]["winners"]
        assert view["match"]["state"]["total"] == 5  # the game's last state, to show
        assert view["match"]["gallery_url"].startswith("http://192.0.2.7:8080/gallery/")
    with pytest.raises(NotHost):
        session.leave_finish(1)  # not the host's phone
    assert session.view_for(KIOSK)["phase"] == "over"
    session.leave_finish(0)
    assert session.view_for(KIOSK)["phase"] == "finished"  # the lobby, with the result
    assert session.view_for(Viewer("player", 0))["phase"] == "finished"
    with pytest.raises(NotNow):
        session.leave_finish(HOST)


def test_play_again_starts_the_same_game_with_its_options(
    session: Session, race: RaceToTwenty
) -> None:
    first = play_to_the_end(session, players=3, target=7)
    session.join("Late", PALETTE[5])  # joined during the finish: plays the next one
    session.leave_finish(HOST, again=True)
    assert session.match is not None and session.match.record.id != first
    assert session.match.record.game == "race"
    assert session.match.record.options["target"] == 7
    assert len(session.match.record.seats) == 4
    assert session.view_for(KIOSK)["phase"] == "playing"


def test_play_again_that_cannot_start_keeps_the_finish(
    session: Session, race: RaceToTwenty
) -> None:
    play_to_the_end(session)
    session.kick(HOST, 1)  # the race needs two
    with pytest.raises(NotNow):
        session.leave_finish(HOST, again=True)
    assert session.view_for(KIOSK)["phase"] == "over"


def test_starting_from_the_finish_ends_it(session: Session, race: RaceToTwenty) -> None:
    play_to_the_end(session)
    session.start(HOST)
    assert session.view_for(KIOSK)["phase"] == "playing"
    assert not session.finish_held


def test_the_tables_reveal_button_leads_on_but_not_at_once(
    session: Session, race: RaceToTwenty, clock: FakeClock
) -> None:
    play_to_the_end(session)
    # The press that ended a game (or its bounce) must not skip the finish.
    assert session.press("reveal") is False
    assert session.view_for(KIOSK)["phase"] == "over"
    clock.advance(FINISH_BUTTON_AFTER_S + 0.1)
    assert session.press("die") is False
    assert session.press("reveal") is True
    assert session.view_for(KIOSK)["phase"] == "finished"


def test_an_ended_early_game_goes_straight_to_the_lobby(
    session: Session, race: RaceToTwenty
) -> None:
    for i in range(2):
        session.join(f"Player {i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    session.end_match(HOST)
    assert session.view_for(KIOSK)["phase"] == "finished"
    assert "gallery_url" not in session.view_for(Viewer("player", 0))["match"]


def test_a_power_cut_during_the_finish_shows_it_again(
    tmp_path: Path, config: Config, race: RaceToTwenty
) -> None:
    store = Store(tmp_path / "cut.sqlite3")
    session = Session(store, config, "http://box", FakeClock())
    match_id = play_to_the_end(session)
    del session  # the power goes

    again = Session(store, config, "http://box", FakeClock())
    view = again.view_for(KIOSK)
    assert view["phase"] == "over" and view["match"]["id"] == match_id
    assert view["match"]["outcome"]["winners"] and view["match"]["state"]["total"] == 5
    again.leave_finish(HOST)
    assert Session(store, config, "", FakeClock()).view_for(KIOSK)["phase"] == "lobby"
    store.close()
