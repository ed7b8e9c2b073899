"""The host's End game keeps what was played: the rules hear a logged END_EARLY, and the
match closes through the normal finish, its outcome in the store, on every screen, in
the host page's results and the lobby's history."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from appliance.door.kiosk_games import KioskGames
from appliance.kiosk.host_menu import history_line
from appliance.kiosk.render import finish_result
from appliance.system.config import Config
from appliance.table.history import result_of
from appliance.table.lobby_history import LobbyHistory
from appliance.table.session import HOST, KIOSK, PALETTE, NotSaved, Session, Viewer
from appliance.table.store import Store
from games import registry
from games.core import END_EARLY, ENDED_EARLY, TABLE, end_early, replay
from tests.conftest import FakeClock
from tests.finish_play import play_to_the_finish
from tests.test_store_writer import SlowCard
from tests.toygame import RaceToTwenty

LINE = {"points": [[100, 100, 0], [600, 400, 80]]}


def seated(session: Session, game: str, players: int = 4) -> None:
    registry.load_all()
    for i in range(players):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, game)
    session.start(HOST)


def guess_a_word(session: Session) -> None:
    """One Broad Lines round: the Critic names a number, an Artist places a sheet, the
    Critic's guess (said aloud) is marked right, and the next round begins."""
    match = session.match
    assert match is not None
    rnd = match.state.round
    session.act(rnd.critic, "name_number", {"number": 3})
    artist = session.match.state.round.artist if session.match else None
    assert artist is not None
    session.act(artist, "stroke", LINE)
    session.act(artist, "place", {})
    session.act(artist, "mark", {"right": True})
    session.press("reveal")


def test_broad_lines_ended_after_two_words_keeps_them_and_their_rating(
    session: Session, store: Store, clock: FakeClock
) -> None:
    seated(session, "broad-lines")
    guess_a_word(session)
    guess_a_word(session)
    assert session.match is not None
    match_id = session.match.record.id
    session.end_match(HOST)
    assert session.match is None and session.finish_held
    kiosk = KioskGames().decorate(session.view_for(KIOSK))  # as the kiosk gets it
    assert kiosk["phase"] == "over"  # the finish, held as at a game's own end
    shown = kiosk["match"]
    assert shown["outcome"]["summary"] == ENDED_EARLY
    assert shown["state"]["score"] == 2 and shown["state"]["rating"]["band"] == "2-3"
    assert shown["gallery_url"]
    assert finish_result(kiosk, "en") == "Together: 2 words guessed · ended early"
    assert finish_result(kiosk, "cs") == "Společně: uhodnuta 2 slova · ukončeno předčasně"
    phone = session.view_for(Viewer("player", 1))
    assert phone["phase"] == "over" and phone["match"]["state"]["rating"]["band"] == "2-3"
    # The log ends with the host's END_EARLY, and replays to the same finish.
    logged = store.actions(match_id)
    assert logged[-1].action.kind == END_EARLY and logged[-1].action.seat is TABLE
    record = store.match(match_id)
    assert record is not None and record.outcome is not None
    assert record.outcome["summary"] == ENDED_EARLY
    assert record.outcome["winners"] == [0, 1, 2, 3]
    assert [score for _, score in record.outcome["scores"]] == [2.0] * 4
    rules = registry.get("broad-lines")
    state = replay(rules, record.seats, record.options, record.seed,
                   [a.action for a in logged])
    assert rules.outcome(state) is not None
    result = result_of(record, "en")
    assert result["ended_early"] and result["winners"] == ["P0", "P1", "P2", "P3"]
    assert result["scores"] == [["P0", 2.0], ["P1", 2.0], ["P2", 2.0], ["P3", 2.0]]
    # The lobby's history gives the table's count (a game played together: every seat
    # "won") and says the game was ended early; the kiosk words it (appliance/kiosk).
    history = LobbyHistory(session, clock, 8.0)
    assert record.finished_at is not None
    winners = history._steps_of([record], record.finished_at)[0]
    assert winners["kind"] == "winners"
    assert {k: v for k, v in winners["results"][0].items() if k != "when"} == {
        "title": "Broad Lines", "winners": ["P0", "P1", "P2", "P3"], "together": True,
        "guessed": 2, "ended_early": True}
    assert history_line(winners["results"][0], "en").endswith(
        "  Broad Lines · Together: 2 words guessed · ended early")


def test_luck_of_the_draw_ended_mid_round_keeps_the_cards_won(
    session: Session, store: Store
) -> None:
    seated(session, "luck-of-the-draw")
    match = session.match
    assert match is not None
    session.press("die")
    session.press("hourglass")
    for seat in range(4):
        session.act(seat, "stroke", LINE)
        session.act(seat, "done", {})
    if match.state.phase == "categories":
        session.press("die")
    assert match.state.phase == "voting"
    rnd = match.state.round
    chip = next(e.chip for e in rnd.gallery if e.owner == 2)
    for seat in range(4):
        session.act(seat, "vote", {"chip": chip})
    session.press("reveal")  # revealed: seat 2's drawing won the card
    assert match.state.phase == "result" and not match.state.cards[2]
    session.end_match(HOST)
    kiosk = KioskGames().decorate(session.view_for(KIOSK))
    assert kiosk["phase"] == "over"
    assert finish_result(kiosk, "en") == "Winner: P2 · ended early"
    record = store.match(match.record.id)
    assert record is not None and record.outcome is not None
    assert record.outcome["winners"] == [2] and record.outcome["summary"] == ENDED_EARLY
    assert result_of(record, "en")["winners"] == ["P2"]


def _someone_leads(rules: Any) -> Any:
    """`until` for play_to_the_finish: ending the game now would give it a winner."""
    def leads(state: Any) -> bool:
        ended = rules.outcome(rules.apply(state, end_early(0.0)))
        return ended is not None and bool(ended.winners)

    return leads


@pytest.mark.parametrize("game", ["broad-lines", "duplik", "luck-of-the-draw", "artbox"])
def test_every_game_ended_early_stores_its_winners(
    session: Session, store: Store, clock: FakeClock, game: str
) -> None:
    registry.load_all()
    play_to_the_finish(session, clock, game, until=_someone_leads(registry.get(game)))
    match = session.match
    assert match is not None, "the game ended by itself before anyone led"
    expected = match.rules.outcome(match.rules.apply(match.state, end_early(0.0)))
    assert expected is not None
    session.end_match(HOST)
    assert session.view_for(KIOSK)["phase"] == "over"
    record = store.match(match.record.id)
    assert record is not None and record.outcome is not None
    assert record.outcome["winners"] == list(expected.winners)
    assert dict((s, v) for s, v in record.outcome["scores"]) == dict(expected.scores)
    names = {s.seat: s.name for s in record.seats}
    result = result_of(record, "en")
    assert result["ended_early"]
    assert result["winners"] == [names[w] for w in expected.winners]


async def test_with_the_writer_the_end_is_committed_before_the_finish_shows(
    tmp_path: Path, config: Config, clock: FakeClock
) -> None:
    store = Store(tmp_path / "writer.sqlite3")
    assert store.start_writer()
    try:
        session = Session(store, config, "http://box", clock)
        seated(session, "broad-lines")
        guess_a_word(session)
        match = session.match
        assert match is not None
        await session.end_match_async(HOST)
        await session.settled()
        await asyncio.sleep(0.05)  # the writer's answers reach the loop
        assert session.match is None and session.view_for(KIOSK)["phase"] == "over"
        record = store.match(match.record.id)
        assert record is not None and record.outcome is not None
        assert record.outcome["summary"] == ENDED_EARLY
        assert store.actions(match.record.id)[-1].action.kind == END_EARLY
    finally:
        store.close()


def test_a_game_that_cannot_end_early_closes_with_no_outcome_as_before(
    session: Session, store: Store, race: RaceToTwenty
) -> None:
    """The toy game is from outside the box and knows no END_EARLY: the match closes
    with no outcome, and no finish is held."""
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    session.start(HOST)
    assert session.match is not None
    match_id = session.match.record.id
    session.act(0, "add", {"n": 2})
    session.end_match(HOST)
    assert session.view_for(KIOSK)["phase"] == "finished" and not session.finish_held
    record = store.match(match_id)
    assert record is not None and record.finished_at is not None and record.outcome is None
    assert all(a.action.kind != END_EARLY for a in store.actions(match_id))
    assert result_of(record, "en")["ended_early"]



class BrokenCard(SlowCard):
    """A card with no stall whose writes fail while `broken` is set."""

    broken = threading.Event()
    stall_s = 0.0


async def test_an_end_the_card_could_not_write_changes_nothing(
    tmp_path: Path, config: Config, clock: FakeClock
) -> None:
    path = tmp_path / "broken.sqlite3"
    store = Store(path)
    BrokenCard.broken.clear()
    assert store.start_writer(lambda: BrokenCard(path))
    try:
        session = Session(store, config, "http://box", clock)
        seated(session, "broad-lines")
        guess_a_word(session)
        match = session.match
        assert match is not None
        BrokenCard.broken.set()
        with pytest.raises(NotSaved) as refused:
            await session.end_match_async(HOST)
        assert refused.value.key == "end_not_saved"
        assert session.match is match and match.state.phase != "over"  # the game goes on
        BrokenCard.broken.clear()
        await session.end_match_async(HOST)
        await session.settled()
        await asyncio.sleep(0.05)
        assert session.match is None and session.finish_held
        record = store.match(match.record.id)
        assert record is not None and record.outcome is not None
        assert [a.action.kind for a in store.actions(match.record.id)].count(END_EARLY) == 1
    finally:
        BrokenCard.broken.clear()
        store.close()


def test_a_match_whose_log_is_full_still_ends_without_its_outcome(
    session: Session, store: Store
) -> None:
    """The host must be able to end a game whose log has no room left ("the host should
    end it"): the END_EARLY cannot be logged, so it closes as before, with no outcome."""
    seated(session, "broad-lines")
    guess_a_word(session)
    assert session.match is not None
    match_id = session.match.record.id
    store.match_budget = store._logged_bytes(match_id)  # not one byte more
    session.end_match(HOST)
    assert session.match is None and session.view_for(KIOSK)["phase"] == "finished"
    record = store.match(match_id)
    assert record is not None and record.finished_at is not None and record.outcome is None
