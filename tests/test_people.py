"""Who is who: a person is not a seat. Drawings, points and turns stay with the person
who made them when seats change hands mid-game, on every screen (issue 27)."""

from __future__ import annotations

import contextlib
import random

import pytest

from appliance.table import history
from appliance.table.keepsakes import build_gallery
from appliance.table.roster import Holder, Roster, names_in_turn
from appliance.table.session import HOST, KIOSK, PALETTE, Session, SessionError
from appliance.table.store import Store
from games import registry
from games.core import SeatInfo
from tests.conftest import FakeClock

GAMES = ("broad-lines", "duplik", "luck-of-the-draw", "artbox")


def test_a_roster_credits_each_move_to_whoever_held_the_seat() -> None:
    roster = Roster.from_seats([SeatInfo(1, "Bo", "#111111"), SeatInfo(0, "Ada", "#222222")])
    assert [h.seat for h in roster.holders] == [0, 1]
    assert not roster.changed_hands()
    later = roster.taken(1, "Fay", "#111111", 12, "p-fay")
    assert later.changed_hands() and roster.of(1) == (Holder(1, "Bo", "#111111"),)
    assert later.at(1, 11).name == "Bo" and later.at(1, 12).name == "Fay"  # type: ignore[union-attr]
    assert later.current(1).name == "Fay"  # type: ignore[union-attr]
    assert later.credit(1) == "Bo (then Fay)" and later.credit(1, "cs") == "Bo (pak Fay)"
    assert later.credit(0) == "Ada"
    assert later.drawn_by(1, [3, 5]) == ("Bo",)
    assert later.drawn_by(1, [3, 14]) == ("Bo", "Fay")
    assert later.drawn_by(1, []) == ("Bo", "Fay")  # nothing known: all of them
    assert Roster.from_json(later.to_json()) == later
    assert names_in_turn(["A", "B", "C"]) == "A (then B, then C)"
    # Kicked and let back into his own seat (a new token): still one person, one stretch.
    back = later.taken(0, "Ada", "#222222", 20, "p-ada-again")
    assert back.credit(0) == "Ada" and back.drawn_by(0, [3, 25]) == ("Ada",)
    assert later.taken(1, "Bo", "#111111", 30, "p-bo-again").credit(1) == "Bo (then Fay, then Bo)"


def test_the_rules_get_the_seats_in_their_order_round_the_table(session: Session) -> None:
    """A seat freed in the lobby and taken again comes last in the seats' dict; the rules
    still get seat 0, 1, 2, 3 (ArtBox's starter, Duplik's passing go round by it)."""
    registry.load_all()
    for i in range(4):
        session.join(f"P{i}", PALETTE[i])
    session.leave(1)
    assert session.join("Newcomer", PALETTE[5]).seat == 1
    assert list(session.seats) == [0, 2, 3, 1]
    session.select(HOST, "artbox")
    session.start(HOST)
    assert session.match is not None
    assert [s.seat for s in session.match.record.seats] == [0, 1, 2, 3]
    assert [s.name for s in session.match.record.seats] == ["P0", "Newcomer", "P2", "P3"]


def _play(session: Session, clock: FakeClock, rnd: random.Random, steps: int) -> None:
    """Random legal moves of the seated players and the table, time running out now and
    then, until `steps` are made or the match ends."""
    match = session.match
    assert match is not None
    for _ in range(steps):
        if session.match is not match:
            return
        state = match.state
        seated = [s for s in session.seats if s in {x.seat for x in match.record.seats}]
        moves = [(seat, a) for seat in [*seated, None]
                 for a in match.rules.legal_actions(state, seat)]
        deadline = match.rules.deadline(state)
        if deadline is not None and (not moves or rnd.random() < 0.1):
            clock.advance(deadline.remaining(session.match_clock(match)) + 0.01)
            session.tick()
            continue
        if not moves:
            return
        seat, action = rnd.choice(moves)
        data = dict(action.data)
        if isinstance(data.get("points"), list):  # every stroke its own: credit is by stroke
            data["points"] = [[x + rnd.randint(-4, 4), y + rnd.randint(-4, 4), t]
                              for x, y, t in data["points"]]
        with contextlib.suppress(SessionError):  # a jittered shape the check refuses
            session.act(seat, action.kind, data)


@pytest.mark.parametrize("game", GAMES)
def test_credit_follows_the_person_when_a_seat_changes_hands(
    game: str, session: Session, store: Store, clock: FakeClock
) -> None:
    """Four players; mid-game the host frees seat 2 and Fay takes it. Every drawing of
    seat 2 is credited to whoever held it when its strokes were logged, its score to
    both ("P2 (then Fay)"), on the kiosk's finish, the gallery and today's results."""
    registry.load_all()
    for i in range(4):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, game)
    session.start(HOST)
    match = session.match
    assert match is not None
    rnd = random.Random(f"{game}-people")
    _play(session, clock, rnd, 60)
    if session.match is not match:
        pytest.skip("the playout ended before the seat could change hands")
    session.offer_seat(HOST, 2)
    welcome = session.join("Fay", PALETTE[6])
    assert welcome.seat == 2
    since = match.next_seq
    assert match.roster.at(2, since).name == "Fay"  # type: ignore[union-attr]
    playing = session.view_for(KIOSK)["match"]["seats"]
    assert next(s for s in playing if s["seat"] == 2)["name"] == "Fay"  # her turn, her name
    _play(session, clock, rnd, 400)
    if session.match is match:
        session.end_match(HOST)
    record = store.match(match.record.id)
    assert record is not None and record.roster == match.roster
    finish = session.view_for(KIOSK)["match"]["seats"]
    assert next(s for s in finish if s["seat"] == 2)["name"] == "P2 (then Fay)"
    assert next(s for s in finish if s["seat"] == 1)["name"] == "P1"

    logged = store.actions(record.id)
    gallery = build_gallery(record, logged)
    for drawing in gallery.drawings:
        assert "?" not in drawing.artists
        assert drawing.artists, drawing
    # Each of seat 2's strokes was logged before Fay (P2's) or after (Fay's).
    strokes_by = {
        tuple(tuple(p) for p in a.action.data["points"]): ("P2" if a.seq < since else "Fay")
        for a in logged if a.action.seat == 2 and "points" in a.action.data
    }
    for drawing in gallery.drawings:
        made = [strokes_by.get(tuple(tuple(p) for p in s["points"])) for s in drawing.strokes]
        makers = list(dict.fromkeys(m for m in made if m is not None))
        if makers:
            assert [a for a in drawing.artists if a in ("P2", "Fay")] == makers, drawing.round
    # The art show names each round's picture of seat 2 by who drew it (the kiosk's).
    credits = session.view_for(KIOSK)["match"]["credits"]
    expected = [
        {"round": d.round, "seat": seat, "name": names_in_turn(names)}
        for d in gallery.drawings for seat, names in d.by_seat if seat == 2
    ]
    assert credits == expected
    from appliance.kiosk.kit import SeatTable, for_round, players_of

    view = session.view_for(KIOSK)
    table = SeatTable("en", {}, "over", players_of(view))
    assert table.name(2) == "P2 (then Fay)"  # the seat's score is theirs together
    for credit in credits:
        assert for_round(table, view, credit["round"]).name(2) == credit["name"]
    result = history.result_of(record, "en")
    named = {name for name, _ in result["scores"]} | set(result["winners"])
    assert "Fay" not in named  # her points are the seat's, shared with P2
    if result["scores"]:
        assert "P2 (then Fay)" in {name for name, _ in result["scores"]}


def test_a_kicked_person_stays_out_until_the_host_lets_them_back(
    session: Session, clock: FakeClock
) -> None:
    """Kick Bo mid-game: on his old phone (its token's person) or with his name he is
    refused, never seated in someone else's seat; let back, he watches (his seat went on
    with Fay, Dee's is not his); the next game is open to him anyway."""
    from appliance.table.roster import person_of
    from appliance.table.session import KickedOut, hash_token

    registry.load_all()
    tokens = [session.join(n, PALETTE[i]).token for i, n in enumerate(("Ada", "Bo", "Cy", "Dee"))]
    session.select(HOST, "artbox")
    session.start(HOST)
    bo = person_of(hash_token(tokens[1] or ""))
    session.offer_seat(HOST, 3)  # Dee's seat is free to take
    session.kick(HOST, 1)
    for name, person in (("Bo", bo), ("Someone", bo), ("B0", None)):
        with pytest.raises(KickedOut) as err:
            session.join(name, PALETTE[5], person=person)
        assert isinstance(err.value, PermissionError)
    assert 3 in session.open_seats and 1 in session.open_seats  # nobody took either seat
    fay = session.join("Fay", PALETTE[6])
    assert fay.seat == 1  # a newcomer takes the first free seat, score and all
    session.let_back(HOST, "bo")
    welcome = session.join("Bo", PALETTE[5], person=bo)
    assert welcome.role == "spectator"  # let back, but his seat is Fay's now: not Dee's
    assert 3 in session.open_seats
    session.end_match(HOST)
    assert session.kicked == {}


def test_a_person_who_held_a_seat_gets_that_seat_back_or_watches(
    session: Session, clock: FakeClock
) -> None:
    """Ada's seat was handed over; she joins again from her phone: Bo's free seat is not
    hers to take, so she watches; once her own seat is free again she gets it back."""
    from appliance.table.roster import person_of
    from appliance.table.session import hash_token

    registry.load_all()
    tokens = [session.join(n, PALETTE[i]).token for i, n in enumerate(("Ada", "Bo", "Cy", "Dee"))]
    session.select(HOST, "artbox")
    session.start(HOST)
    ada = person_of(hash_token(tokens[0] or ""))
    session.offer_seat(HOST, 0)
    assert session.join("Fay", PALETTE[6]).seat == 0
    session.offer_seat(HOST, 1)
    assert session.join("Ada", PALETTE[0], person=ada).role == "spectator"
    assert 1 in session.open_seats
    session.offer_seat(HOST, 0)  # Fay's turn to go: Ada's old seat is free again
    again = session.join("Ada", PALETTE[0], person=ada)
    assert again.seat == 0
    assert session.match is not None
    roster = session.match.roster
    assert [h.name for h in roster.holders if h.seat == 0] == ["Ada", "Fay", "Ada"]
    assert [h.name for h in roster.of(0)] == ["Ada"]  # nobody moved meanwhile: hers alone


def test_a_closed_tab_does_not_freeze_the_table(session: Session, clock: FakeClock) -> None:
    """Duplik's verdicts: Dee closes her tab while the others judge. After
    `away_after_s` every screen shows her away with a count; when it runs out the game
    goes on without her (SEAT_LEFT, as the rules know it); back on her phone she plays on
    (SEAT_BACK) and nobody is away any more."""
    from appliance.table.session import Viewer
    from games.core import SEAT_BACK, SEAT_LEFT
    from tests.test_session_host import _duplik_at_evaluation

    _, portrayer = _duplik_at_evaluation(session, 4)
    match = session.match
    assert match is not None
    for seat in range(4):
        session.attach(Viewer("player", seat))
    dee = next(s for s in range(4) if s != portrayer)
    for seat in range(4):
        if seat not in (portrayer, dee):
            session.act(seat, "judge", {"met": True})
    assert match.rules.legal_actions(match.state, dee)  # the table waits for Dee
    session.detach(Viewer("player", dee))
    table = session.config.table
    clock.advance(table.away_after_s - 1)
    session.tick()
    assert session.view_for(KIOSK)["away"] == []
    clock.advance(1)
    before = session.version
    session.tick()
    assert session.version > before  # shown at once, not at the next move
    view = session.view_for(KIOSK)
    (away,) = view["away"]
    assert away["seat"] == dee and away["remaining"] == table.away_wait_s
    assert next(s for s in view["seats"] if s["seat"] == dee)["away"] is True
    assert session.next_deadline() == clock.now + table.away_wait_s
    clock.advance(table.away_wait_s)
    session.tick()
    kinds = [a.action.kind for a in session.store.actions(match.record.id)]
    assert kinds[-1] == SEAT_LEFT
    assert session.view_for(KIOSK)["away"][0]["gone_on"] is True
    assert not match.rules.legal_actions(match.state, dee)  # the verdicts went on
    session.attach(Viewer("player", dee))  # she is back
    kinds = [a.action.kind for a in session.store.actions(match.record.id)]
    assert kinds[-1] == SEAT_BACK
    assert session.view_for(KIOSK)["away"] == [] and session.away_left == set()


def test_nobody_is_away_while_the_hourglass_runs_or_a_pause_holds(
    session: Session, clock: FakeClock
) -> None:
    """The count shows, but an hourglass ends a drawing by itself: the rules hear nothing
    until the game really waits for the player; a pause stops the count."""
    from appliance.table.session import Viewer

    registry.load_all()
    for i in range(4):
        session.join(f"P{i}", PALETTE[i])
        session.attach(Viewer("player", i))
    session.select(HOST, "artbox")
    session.start(HOST)
    match = session.match
    assert match is not None
    session.detach(Viewer("player", 2))
    session.pause(HOST)
    clock.advance(300)
    session.tick()
    assert session.view_for(KIOSK)["away"] == []
    session.resume(HOST)
    table = session.config.table
    clock.advance(table.away_after_s + table.away_wait_s + 1)
    session.tick()
    assert [a["seat"] for a in session.view_for(KIOSK)["away"]] == [2]
    if match.rules.deadline(match.state) is not None:  # ArtBox's dice and hourglass
        assert session.away_left == set()


async def test_a_crowd_of_watchers_coming_and_going_makes_one_table_version(
    session: Session,
) -> None:
    """Issue 28: thirty watchers re-joining made two table versions (a view to every
    phone) each time. Their count is shown with the next change, or once after a burst."""
    import asyncio

    from appliance.table.session import WATCHERS_COALESCE_S, Viewer

    before = session.version
    for _ in range(30):
        session.attach(Viewer("spectator"))
        session.detach(Viewer("spectator"))
        session.attach(Viewer("spectator"))
    assert session.version == before
    await asyncio.sleep(WATCHERS_COALESCE_S + 0.2)
    assert session.version == before + 1
    assert session.view_for(KIOSK)["spectators"] == 30


def test_presence_counts_phones_and_who_is_away() -> None:
    from appliance.table.presence import Presence

    p = Presence(after_s=20, wait_s=20)
    assert p.arrive(1) and not p.arrive(1)  # a second tab changes nothing
    assert p.depart(1, 100.0) is False and p.depart(1, 100.0) is True
    assert p.depart(1, 101.0) is None  # no phone left to go
    assert p.away({1}, 119.0) == {} and p.away({1}, 120.0) == {1: 140.0}
    assert p.away({2}, 130.0) == {}  # not a seat asked about (a kiosk seat, an open one)
    assert p.next_look({1}, 110.0, ()) == [120.0]
    assert p.next_look({1}, 125.0, ()) == [140.0]
    assert p.next_look({1}, 150.0, ()) == [151.0]  # the game did not wait yet: each second
    assert p.next_look({1}, 150.0, {1}) == []  # the rules heard it
    assert p.arrive(1) and p.away({1}, 200.0) == {}
    p.depart(1, 300.0)
    p.restart_counts([1], 400.0)
    assert p.away({1}, 419.0) == {}


def test_a_newcomer_taking_the_seat_of_a_player_gone_away_plays_again(
    session: Session, clock: FakeClock
) -> None:
    """Dee was away and the game went on without her (SEAT_LEFT); the host hands her seat
    to Fay: the rules hear SEAT_BACK, so the game counts on the seat again."""
    from appliance.table.session import Viewer
    from games.core import SEAT_BACK, SEAT_LEFT
    from tests.test_session_host import _duplik_at_evaluation

    _, portrayer = _duplik_at_evaluation(session, 4)
    match = session.match
    assert match is not None
    for seat in range(4):
        session.attach(Viewer("player", seat))
    dee = next(s for s in range(4) if s != portrayer)
    session.detach(Viewer("player", dee))
    table = session.config.table
    clock.advance(table.away_after_s + table.away_wait_s)
    session.tick()
    assert session.away_left == {dee}
    assert session.store.actions(match.record.id)[-1].action.kind == SEAT_LEFT
    session.offer_seat(HOST, dee)
    assert session.join("Fay", PALETTE[6]).seat == dee
    assert session.store.actions(match.record.id)[-1].action.kind == SEAT_BACK
    assert session.away_left == set() and dee not in match.state.gone
