"""Seats without a private screen: the games deal around them, and the kiosk passes the
device where the rules let everyone else look away.

The rules (pure): Duplik's Portrayer rotation never reaches a seat the NO_SCREEN start
option names (nor do its start rolls), the plan has that many fewer rounds, a table with
no phone at all is refused at start, and the seats are kept in the state so a replay
deals the same; Broad Lines' vote on a refused sheet waits only for Artists with a phone.
The kiosk (appliance/door/kiosk_seat.py on a real Session): a Broad Lines Artist seated at the
kiosk is asked, while the Critic looks away, to press OK; the word is in the kiosk's view
only while shown, and OK or Back hides it. Rendered at 800x480 and 1920x1080 and looked at.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.door.kiosk_seat import KioskSeats
from appliance.kiosk import KioskRenderer
from appliance.kiosk.intents import Back, SeatPadKey
from appliance.table.session import HOST, KIOSK, PALETTE, NotNow, Session
from games import registry
from games.broad_lines import RULES as BROAD_LINES
from games.broad_lines import card_of
from games.core import NO_SCREEN, TABLE, Action, BadOptions, SeatInfo, replay, time_up
from games.duplik import RULES as DUPLIK
from tests import screens
from tests.conftest import LiveServer

SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))

SEATS = tuple(SeatInfo(i, f"P{i}", PALETTE[i]) for i in range(4))


def playout(rules: Any, options: dict[str, Any], seed: int, steps: int = 4000
            ) -> tuple[Any, list[Action]]:
    """Random legal moves (the clock's TIME_UP when nobody can act) to the end."""
    rnd = random.Random(seed)
    state = rules.setup(SEATS, options, seed)
    log: list[Action] = []
    now = 0.0
    for _ in range(steps):
        if rules.outcome(state) is not None:
            break
        now += 1.0
        moves = [a for seat in (*range(len(SEATS)), TABLE)
                 for a in rules.legal_actions(state, seat)]
        deadline = rules.deadline(state)
        if deadline is not None and (not moves or rnd.random() < 0.05):
            action = time_up(deadline)
            now = max(now, action.at)
        else:
            assert moves, "nobody can act: the game stalls"
            pick = rnd.choice(moves)
            action = Action(pick.kind, pick.seat, pick.data, now)
        state = rules.apply(state, action)
        log.append(action)
    return state, log


# -- the rules ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_duplik_never_deals_the_portrayer_to_a_seat_without_a_screen(seed):
    options = {NO_SCREEN: [1, 3], "paper": True, "turns": 2}
    state, log = playout(DUPLIK, options, seed)
    assert DUPLIK.outcome(state) is not None, "the game ended"
    portrayers = [r.portrayer for r in state.history]
    assert set(portrayers) <= {0, 2} and portrayers, portrayers
    assert len(state.history) == 2 * 2  # two seats portray, twice each
    assert all(seat in (0, 2) for seat, _ in state.start_rolls)  # only they roll for it
    assert state.no_screen == frozenset({1, 3})
    # Kept in the state: the log replays to the same game, and survives JSON.
    again = replay(DUPLIK, SEATS, options, seed, log)
    assert DUPLIK.to_json(again) == DUPLIK.to_json(state)
    assert DUPLIK.from_json(json.loads(json.dumps(DUPLIK.to_json(state)))) == state


def test_duplik_counts_its_rounds_without_the_seats_that_cannot_portray():
    state = DUPLIK.setup(SEATS, {NO_SCREEN: [2]}, 5)
    assert DUPLIK.view(state, None)["rounds"] == 3
    assert state.round.portrayer != 2
    plain = DUPLIK.setup(SEATS, {}, 5)
    assert DUPLIK.view(plain, None)["rounds"] == 4
    assert "no_screen" not in DUPLIK.to_json(plain)  # the JSON of a plain game as it was


def test_duplik_with_no_phone_at_the_table_is_refused_at_start():
    with pytest.raises(BadOptions) as err:
        DUPLIK.setup(SEATS, {NO_SCREEN: [0, 1, 2, 3], "paper": True}, 1)
    assert err.value.key == "portrayer_phone" and "needs a phone" in str(err.value)
    for bad in ("1", [1.0], {"1": True}):
        with pytest.raises(BadOptions) as err:
            DUPLIK.setup(SEATS, {NO_SCREEN: bad}, 1)
        assert err.value.key == "no_screen"
    # A seat no longer at the table ("play again" after it left) is left out.
    assert DUPLIK.setup(SEATS, {NO_SCREEN: [9]}, 1).no_screen == frozenset()


THREE_LINES = [{"points": [[100, 100 + 200 * k, 0], [900, 100 + 200 * k, 90]]} for k in range(3)]


def _refused_sheet_put_to_the_vote(options: dict[str, Any]) -> Any:
    """Broad Lines with 4 seats: the number named, the Artist drew three lines (refused)
    and asks the table."""
    state = BROAD_LINES.setup(SEATS, options, 7)
    critic = state.round.critic
    state = BROAD_LINES.apply(state, Action("name_number", critic, {"number": 1}))
    artist = state.round.artist
    for line in THREE_LINES:
        state = BROAD_LINES.apply(state, Action("stroke", artist, line))
    assert state.round.check is not None and not state.round.check.legal
    return BROAD_LINES.apply(state, Action("accept_vote", artist, {"accept": True}))


def test_broad_lines_vote_waits_only_for_artists_with_a_phone():
    plain = _refused_sheet_put_to_the_vote({})
    artist, critic = plain.round.artist, plain.round.critic
    others = [s for s in range(4) if s not in (artist, critic)]
    kiosk, phone = others
    # Three Artists: one yes and one no leave the vote open, waiting for the third.
    state = BROAD_LINES.apply(plain, Action("accept_vote", phone, {"accept": False}))
    assert state.phase == "vote"
    # With the third at the kiosk, the vote is the drawer's and the phone's: a tie keeps
    # the check's verdict, and the kiosk seat may not vote (the Critic would see).
    shared = _refused_sheet_put_to_the_vote({NO_SCREEN: [kiosk]})
    assert shared.round.artist == artist
    assert not [a for a in BROAD_LINES.legal_actions(shared, kiosk) if a.kind == "accept_vote"]
    with pytest.raises(ValueError, match="phone votes"):
        BROAD_LINES.apply(shared, Action("accept_vote", kiosk, {"accept": True}))
    state = BROAD_LINES.apply(shared, Action("accept_vote", phone, {"accept": False}))
    assert state.phase == "drawing" and state.round.vote_lost


@pytest.mark.parametrize("seed", [4, 5])
def test_broad_lines_with_seats_at_the_kiosk_plays_to_its_end(seed):
    options = {NO_SCREEN: [0, 1], "sheets": 5}
    state, log = playout(BROAD_LINES, options, seed)
    assert BROAD_LINES.outcome(state) is not None
    again = replay(BROAD_LINES, SEATS, options, seed, log)
    assert BROAD_LINES.to_json(again) == BROAD_LINES.to_json(state)
    assert "no_screen" not in BROAD_LINES.to_json(BROAD_LINES.setup(SEATS, {}, seed))


# -- the kiosk passes the device --------------------------------------------------------


def _texts(view: Any) -> str:
    return json.dumps(view, ensure_ascii=False, default=str).lower()


def _shown(words: list[str], view: Any) -> list[str]:
    """The words of `words` the view carries as words ("road" is not in "broad-lines"),
    but for the game's fixed words on the pad (its house's `from_the_tv`, in which the
    Czech "telefon" is a Broad Lines card too): they are not state."""
    if isinstance(view, dict) and isinstance(view.get("seat_pad"), dict):
        view = {**view, "seat_pad": {k: v for k, v in view["seat_pad"].items()
                                     if k != "from_the_tv"}}
    text = _texts(view)
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def _card_words(session: Session) -> list[str]:
    assert session.match is not None
    return [t.lower() for w in card_of(session.match.state.round) for t in (w.en, w.cs)]


def kiosk_table(session: Session, at_kiosk: int = 2) -> KioskSeats:
    """Two players with phones and `at_kiosk` seated from the kiosk's pad; Broad Lines
    started from the kiosk."""
    registry.load_all()
    seats = KioskSeats(session)
    for i in range(2):
        session.join(f"Phone{i}", PALETTE[i])
    for name in ("MIA", "OTA")[:at_kiosk]:
        seats.handle(SeatPadKey("cancel"))
        from appliance.kiosk.intents import SitDown

        seats.handle(SitDown())
        for letter in name:
            seats.handle(SeatPadKey("letter", letter))
        seats.handle(SeatPadKey("sit"))
    assert len(seats.seated) == at_kiosk
    session.select(HOST, "broad-lines")
    session.start(HOST)  # the seats say who has no phone
    return seats


def artist_round(session: Session, kiosk: int) -> int:
    """Play on until `kiosk` is an Artist (a round given up while the kiosk seat is the
    Critic, who sees nothing to pass); returns the Critic."""
    match = session.match
    assert match is not None
    critic = match.state.round.critic
    if critic == kiosk:
        session.act(critic, "name_number", {"number": 1})
        assert match.state.phase == "drawing"
        session.act(None, "hold_hourglass", {})
        for seat in match.state.seats:
            session.act(seat, "agree_give_up", {})
        assert match.state.phase == "reveal"
        session.act(None, "press_reveal", {})
        critic = match.state.round.critic
    assert critic != kiosk
    return int(critic)


def test_a_kiosk_artist_sees_the_word_only_while_the_critic_looks_away(session: Session):
    seats = kiosk_table(session)
    match = session.match
    assert match is not None and match.state.no_screen == frozenset(seats.seated)
    state = match.state
    critic = state.round.critic
    assert seats.decorate(session.view_for(KIOSK))["pass_device"] is None  # no word yet
    session.act(critic, "name_number", {"number": 2})
    words = _card_words(session)
    artists = [s for s in sorted(seats.seated) if s != critic]
    first = artists[0]
    view = seats.decorate(session.view_for(KIOSK))
    passing = view["pass_device"]
    assert passing["stage"] == "ask" and passing["seat"] == first
    assert passing["critic"] == session.seats[critic].name and passing["word"] is None
    assert not _shown(words, view)
    # Another seat's button (an old frame) shows nothing.
    seats.handle(SeatPadKey("show_word", str(critic)))
    assert seats.decorate(session.view_for(KIOSK))["pass_device"]["stage"] == "ask"
    seats.handle(SeatPadKey("show_word", str(first)))
    view = seats.decorate(session.view_for(KIOSK))
    word = match.rules.view(match.state, first)["word"]["en"]
    assert view["pass_device"] == {"stage": "show", "seat": first, "name": seats.seated[first],
                                   "critic": session.seats[critic].name, "word": word}
    # That word, and no other word of the card; never in the session's own kiosk view.
    assert _shown(words, view) == [word.lower()]
    assert not _shown(words, session.view_for(KIOSK))
    # OK (or Back) hides it; the next kiosk Artist is asked, or nobody.
    assert seats.handle(Back() if first % 2 else SeatPadKey("hide_word"))
    view = seats.decorate(session.view_for(KIOSK))
    assert not _shown(words, view)
    rest = artists[1:]
    if rest:
        assert view["pass_device"]["stage"] == "ask" and view["pass_device"]["seat"] == rest[0]
        seats.handle(SeatPadKey("show_word", str(rest[0])))
        assert word.lower() in _texts(seats.decorate(session.view_for(KIOSK)))
        seats.handle(SeatPadKey("hide_word"))
    assert seats.decorate(session.view_for(KIOSK))["pass_device"] is None
    assert not seats.handle(Back())  # nothing to hide: Back is the app's again


def test_the_word_goes_when_an_artist_asks_for_another_number(session: Session):
    seats = kiosk_table(session, at_kiosk=1)
    match = session.match
    assert match is not None
    (kiosk,) = seats.seated
    critic = artist_round(session, kiosk)
    session.act(critic, "name_number", {"number": 1})
    seats.handle(SeatPadKey("show_word", str(kiosk)))
    first = _texts(seats.decorate(session.view_for(KIOSK))["pass_device"]["word"])
    phone = next(s for s in match.state.seats if s not in (critic, kiosk))
    session.act(phone, "ask_other", {})
    view = seats.decorate(session.view_for(KIOSK))
    assert view["pass_device"] is None and first not in _texts(view)
    session.act(critic, "name_number", {"number": 3})
    view = seats.decorate(session.view_for(KIOSK))
    assert view["pass_device"]["stage"] == "ask"  # the new word is to be seen again


def test_a_duplik_from_the_kiosk_tells_the_rules_who_has_no_phone(session: Session):
    registry.load_all()
    for i in range(2):
        session.join(f"Phone{i}", PALETTE[i])
    mia = session.join("Mia", PALETTE[3], kiosk=True).seat
    assert mia == 2
    for game in ("artbox", "luck-of-the-draw"):  # every player draws and votes alone
        session.select(HOST, game)
        with pytest.raises(NotNow) as err:
            session.start(HOST)
        assert err.value.key == "kiosk_seat_phone" and "without one: Mia" in str(err.value)
        assert session.match is None
        session.tell_table(err.value)  # what the app does with a refused start on the kiosk
        assert "without one: mia. choose a game a player without a phone can play" in _texts(
            session.view_for(KIOSK))
    session.select(HOST, "duplik")
    session.start(HOST, {NO_SCREEN: [0, 1]})  # a caller's list is not the seats' word
    match = session.match
    assert match is not None and match.record.options[NO_SCREEN] == [2]
    assert match.record.options["paper"] is True and match.state.no_screen == {2}
    assert match.state.round.portrayer != 2


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_passing_the_device_draws_one_button(session: Session, size):
    from appliance.kiosk.focus import focusable

    seats = kiosk_table(session, at_kiosk=1)
    match = session.match
    assert match is not None
    (kiosk,) = seats.seated
    critic = artist_round(session, kiosk)
    session.act(critic, "name_number", {"number": 4})
    with screens.open_display():
        for stage in ("ask", "show"):
            if stage == "show":
                seats.handle(SeatPadKey("show_word", str(kiosk)))
            view = seats.decorate(session.view_for(KIOSK))
            assert view["pass_device"]["stage"] == stage
            surface = pygame.Surface(size)
            r = KioskRenderer()
            r.render(surface, view, 0.0)
            intents = [i for _, i in r.targets]
            want = (SeatPadKey("show_word", str(kiosk)) if stage == "ask"
                    else SeatPadKey("hide_word"))
            assert intents == [want]
            (rect, _), = focusable(r.targets, surface.get_rect())
            assert surface.get_rect().contains(rect)
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-pass-device-{stage}-{size[0]}.png")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_an_evaluator_at_the_kiosk_judges_on_the_kiosk_and_the_round_goes_on(
    session: Session, clock: Any, size: tuple[int, int]
):
    """Duplik on paper with Mia at the kiosk: the canvas in front of her is judged with
    YES / NO on its verdict card (acting for her), so "next" is not held up by a seat
    with no phone."""
    from appliance.kiosk.focus import focusable, reachable
    from appliance.kiosk.intents import ActAs

    registry.load_all()
    seats = KioskSeats(session)
    for i in range(3):
        session.join(f"Phone{i}", PALETTE[i])
    mia = session.join("Mia", PALETTE[4], kiosk=True).seat
    assert mia is not None
    session.select(HOST, "duplik")
    session.start(HOST)
    match = session.match
    assert match is not None and match.state.paper
    portrayer = match.state.round.portrayer
    assert portrayer != mia
    session.act(portrayer, "roll", {})
    session.act(portrayer, "start_timer", {})
    clock.advance(match.state.seconds + 1)
    assert session.tick()
    session.act(portrayer, "pass", {"direction": "left"})
    assert match.state.phase == "evaluating"
    for criterion in (1, 2):
        for seat in match.state.seats:
            if seat not in (portrayer, mia):
                session.act(seat, "judge", {"met": True, "criterion": criterion})
        with screens.open_display():
            surface = pygame.Surface(size)
            r = KioskRenderer()
            r.render(surface, seats.decorate(session.view_for(KIOSK)), 0.0)
        judging = [i for _, i in r.targets if isinstance(i, ActAs) and i.kind == "judge"]
        rects = [rect for rect, _ in focusable(r.targets, surface.get_rect())]
        assert reachable(rects, 0) == set(range(len(rects)))  # the remote reaches them
        # Only Mia's buttons: the phones judge on the phones.
        assert judging == [ActAs(mia, "judge", {"met": True, "criterion": criterion}),
                           ActAs(mia, "judge", {"met": False, "criterion": criterion})][::-1]
        with pytest.raises(ValueError, match="Every canvas"):
            session.act(portrayer, "next", {})
        no = judging[0]
        session.act(no.seat, no.kind, dict(no.data))
        if criterion == 1:
            pygame.image.save(surface, SCREENSHOT_DIR / f"easel-duplik-kiosk-judge-{size[0]}.png")
        session.act(portrayer, "next", {})
        assert match.state.round.presented == criterion + 1


def test_a_duplik_with_nobody_who_has_a_phone_is_refused_in_words_on_the_kiosk(
    session: Session, clock: Any
):
    from appliance.table.session import Refused

    registry.load_all()
    seats = KioskSeats(session)
    for name, colour in zip(("Mia", "Ota", "Eva"), PALETTE, strict=False):
        welcome = session.join(name, colour, kiosk=True)
        assert welcome.seat is not None
    session.select(HOST, "duplik")
    with pytest.raises(Refused) as err:
        session.start(HOST)
    assert err.value.key == "portrayer_phone" and session.match is None
    session.tell_table(err.value)  # what the app does with a refused tap on the kiosk
    view = seats.decorate(session.view_for(KIOSK))
    assert "at least one player needs a phone" in _texts(view)
    with screens.open_display():
        surface = pygame.Surface((1920, 1080))
        KioskRenderer().render(surface, view, clock())
        pygame.image.save(surface, SCREENSHOT_DIR / "easel-duplik-no-phone-refused.png")


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_kiosk_artist_who_forgot_asks_for_the_word_again(session: Session, size):
    from appliance.kiosk.focus import focusable, reachable

    seats = kiosk_table(session, at_kiosk=1)
    (kiosk,) = seats.seated
    critic = artist_round(session, kiosk)
    session.act(critic, "name_number", {"number": 6})
    seats.handle(SeatPadKey("show_word", str(kiosk)))
    seats.handle(SeatPadKey("hide_word"))
    again = SeatPadKey("word_again", str(kiosk))
    with screens.open_display():
        surface = pygame.Surface(size)
        r = KioskRenderer()
        view = seats.decorate(session.view_for(KIOSK))
        assert view["pass_device"] is None
        r.render(surface, view, 0.0)
        pygame.image.save(surface, SCREENSHOT_DIR / f"easel-word-again-{size[0]}.png")
    assert again in [i for _, i in r.targets]  # on the Artist's chip, for the remote too
    rects = [rect for rect, _ in focusable(r.targets, surface.get_rect())]
    assert reachable(rects, 0) == set(range(len(rects)))
    seats.handle(SeatPadKey("word_again", str(critic)))  # not a kiosk seat: nothing
    assert seats.decorate(session.view_for(KIOSK))["pass_device"] is None
    seats.handle(again)
    passing = seats.decorate(session.view_for(KIOSK))["pass_device"]
    assert passing["stage"] == "ask" and passing["seat"] == kiosk and passing["word"] is None


# -- the session knows its kiosk seats, whoever starts ----------------------------------


def _sit_at_kiosk(seats: KioskSeats, name: str) -> int:
    """Mia sits down with the seat pad, as the remote does; returns her seat."""
    from appliance.kiosk.intents import SitDown

    seats.handle(SitDown())
    for letter in name.upper():
        seats.handle(SeatPadKey("letter", letter))
    seats.handle(SeatPadKey("sit"))
    (seat,) = (s for s, n in seats.seated.items() if n == name)
    return seat


async def test_a_host_phones_start_and_play_again_ask_the_seats_who_has_no_phone(
    live: LiveServer,
):
    """The host's phone starts (not the kiosk): ArtBox is refused on that phone in words
    while Mia sits at the kiosk, Broad Lines is told she has no phone whatever the phone
    sent. "Play again" asks the seats as they are then: a phone that took Mia's old seat
    number is a phone."""
    registry.load_all()
    session = live.session
    seats = KioskSeats(session)
    ada, bo = await live.phone(), await live.phone()
    await ada.join(session.room, "Ada", PALETTE[0])
    await bo.join(session.room, "Bo", PALETTE[1])
    mia = _sit_at_kiosk(seats, "Mia")
    assert mia == 2 and session.seats[mia].kiosk
    await ada.send({"type": "select", "game": "artbox"})
    await ada.send({"type": "start", "options": {}})
    refused = await ada.expect("error")
    assert refused["code"] == "not_now" and "without one: Mia" in refused["message"]
    assert session.match is None
    await ada.send({"type": "select", "game": "broad-lines"})
    await ada.send({"type": "start", "options": {NO_SCREEN: []}})  # not the phone's to say
    await ada.view_where(lambda v: v["phase"] == "playing")
    match = session.match
    assert match is not None and match.record.options[NO_SCREEN] == [mia]
    assert match.state.no_screen == {mia}
    # Bo leaves: too few to play on, the finish is held. Mia goes, two phones come; Dee
    # gets Mia's old seat number.
    session.kick(HOST, 1)
    assert session.match is None and session.finish_held
    session.kick(HOST, mia)
    cy, dee = await live.phone(), await live.phone()
    await cy.join(session.room, "Cy", PALETTE[3])
    assert (await dee.join(session.room, "Dee", PALETTE[4]))["seat"] == mia
    await ada.send({"type": "finish", "again": True})
    await ada.view_where(lambda v: v["phase"] == "playing")
    match = session.match
    assert match is not None and NO_SCREEN not in match.record.options
    assert match.state.no_screen == frozenset() and seats.seated == {}


def test_play_again_tells_the_game_of_a_seat_made_at_the_kiosk_since(
    session: Session,
):
    """A game started with phones only; Mia sits down at the kiosk during its finish;
    "play again" (from the kiosk's host menu) deals around her."""
    registry.load_all()
    seats = KioskSeats(session)
    for i in range(3):
        session.join(f"Phone{i}", PALETTE[i])
    session.select(HOST, "broad-lines")
    session.start(HOST)
    assert session.match is not None and NO_SCREEN not in session.match.record.options
    session.kick(HOST, 2)
    assert session.finish_held
    mia = _sit_at_kiosk(seats, "Mia")
    session.leave_finish(HOST, again=True)
    assert session.match is not None
    assert session.match.record.options[NO_SCREEN] == [mia]
    assert session.match.state.no_screen == {mia}


def test_the_kiosk_seats_survive_a_power_cut(store: Any, config: Any, clock: Any,
                                             tmp_path: Path):
    """After a restart the box still knows Mia has no phone: she is at the table (not
    offline), the kiosk passes her the device, and the next start is told."""
    from appliance.table.store import Store

    registry.load_all()
    first = Session(store, config, "http://box", clock)
    for i in range(2):
        first.join(f"Phone{i}", PALETTE[i])
    mia = _sit_at_kiosk(KioskSeats(first), "Mia")
    store.close()
    again = Store(tmp_path / "easel.sqlite3")
    try:
        session = Session(again, config, "http://box", clock)
        seats = KioskSeats(session)
        assert seats.seated == {mia: "Mia"}
        (card,) = (s for s in session.view_for(KIOSK)["seats"] if s["seat"] == mia)
        assert card["connected"] is True and card["kiosk"] is True
        session.select(HOST, "luck-of-the-draw")
        with pytest.raises(NotNow, match="without one: Mia"):
            session.start(HOST)
        session.select(HOST, "broad-lines")
        session.start(HOST)
        assert session.match is not None and session.match.state.no_screen == {mia}
    finally:
        again.close()


def test_a_phone_that_takes_a_freed_kiosk_seat_is_a_phone(session: Session):
    registry.load_all()
    seats = KioskSeats(session)
    for i in range(3):
        session.join(f"Phone{i}", PALETTE[i])
    mia = _sit_at_kiosk(seats, "Mia")
    session.select(HOST, "broad-lines")
    session.start(HOST)
    session.offer_seat(HOST, mia)
    welcome = session.join("Eva", "", "192.0.2.9")
    assert welcome.seat == mia and not session.seats[mia].kiosk
    assert seats.seated == {}
    critic = artist_round(session, mia)
    session.act(critic, "name_number", {"number": 2})
    # Eva's phone shows her the word: the kiosk passes nobody the device.
    assert seats.decorate(session.view_for(KIOSK))["pass_device"] is None


# -- a kiosk Artist draws on paper ----------------------------------------------------


def test_only_an_artist_without_a_phone_places_a_paper_sheet_and_it_replays():
    seed = 11
    state = BROAD_LINES.setup(SEATS, {NO_SCREEN: [2]}, seed)
    log: list[Action] = []

    def act(kind: str, seat: int, **data: Any) -> None:
        nonlocal state
        action = Action(kind, seat, data, float(len(log)))
        state = BROAD_LINES.apply(state, action)
        log.append(action)

    act("name_number", state.round.critic, number=3)
    phone = state.round.artist
    assert phone != 2 and state.round.critic != 2  # the seed's deal: a phone draws first
    assert Action("place_paper", phone) not in BROAD_LINES.legal_actions(state, phone)
    with pytest.raises(ValueError, match="without a phone"):
        BROAD_LINES.apply(state, Action("place_paper", phone, {}, 99.0))
    while state.round.artist != 2:  # the Artists before Mia place a line each
        act("stroke", state.round.artist, points=[[300, 200, 0], [700, 800, 120]])
        act("place", state.round.artist)
        act("pass", state.round.critic)
    assert Action("place_paper", 2) in BROAD_LINES.legal_actions(state, 2)
    act("place_paper", 2)
    assert state.phase == "guessing" and state.round.sheets[-1].paper
    easel = BROAD_LINES.view(state, None)["easel"]
    assert easel[-1] == {"artist": 2, "strokes": [], "overruled": False, "paper": True}
    again = replay(BROAD_LINES, SEATS, {NO_SCREEN: [2]}, seed, log)
    assert BROAD_LINES.to_json(again) == BROAD_LINES.to_json(state)
    # A game without paper sheets keeps the JSON it had before `paper`.
    assert "paper" not in json.dumps(BROAD_LINES.to_json(BROAD_LINES.setup(SEATS, {}, seed)))


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_kiosk_artist_draws_on_paper_and_says_so_with_ok(session: Session, size):
    """Mia (no phone, a TV without touch) on her turn: "Drawn on paper" is a target the
    remote reaches; pressed, her sheet is placed and the easel shows a card for it, so
    the Critic guesses and nobody waits for a drawing that cannot come."""
    from appliance.kiosk.focus import focusable, reachable
    from appliance.kiosk.intents import ActAs

    seats = kiosk_table(session, at_kiosk=1)
    (mia,) = seats.seated
    critic = artist_round(session, mia)
    match = session.match
    assert match is not None
    session.act(critic, "name_number", {"number": 1})
    seats.handle(SeatPadKey("show_word", str(mia)))
    seats.handle(SeatPadKey("hide_word"))
    while match.state.round.artist != mia:
        artist = match.state.round.artist
        session.act(artist, "stroke", {"points": [[300, 200, 0], [700, 800, 120]]})
        session.act(artist, "place", {})
        session.act(critic, "pass", {})
    paper = ActAs(mia, "place_paper", {})
    with screens.open_display():
        surface = pygame.Surface(size)
        r = KioskRenderer()
        r.render(surface, seats.decorate(session.view_for(KIOSK)), 0.0)
        pygame.image.save(surface, SCREENSHOT_DIR / f"easel-bl-paper-turn-{size[0]}.png")
        intents = [i for _, i in r.targets]
        assert paper in intents and ActAs(mia, "use_panel", {"on": True}) in intents
        rects = [rect for rect, _ in focusable(r.targets, surface.get_rect())]
        assert reachable(rects, 0) == set(range(len(rects)))
        session.act(paper.seat, paper.kind, dict(paper.data))  # what the app does on OK
        assert match.state.phase == "guessing"
        view = seats.decorate(session.view_for(KIOSK))
        r = KioskRenderer()
        r.record_layout = True
        r.render(surface, view, 0.0)
        pygame.image.save(surface, SCREENSHOT_DIR / f"easel-bl-paper-placed-{size[0]}.png")
        assert r.layout is not None
        texts = r.layout.texts
        # The card's lines (wrapped on a narrow easel): from its "Sheet n:" to "Critic.".
        first = [i for i, t in enumerate(texts) if "drew on paper" in t.text]
        assert len(first) == 1, [t.text for t in texts]
        card = texts[first[0]:first[0] + 2]
        card = card[: next((k + 1 for k, t in enumerate(card) if t.text.endswith("Critic.")),
                           len(card))]
    n = len(match.state.round.sheets)
    assert " ".join(t.text for t in card) == (f"Sheet {n}: Mia drew on paper. Hold it up for "
                                              "the Critic.")
    assert not any(t.ellipsised for t in card)


def test_play_again_draws_a_duplik_on_paper_only_while_a_seat_has_no_phone(session: Session):
    registry.load_all()
    seats = KioskSeats(session)
    for i in range(3):
        session.join(f"Phone{i}", PALETTE[i])
    mia = _sit_at_kiosk(seats, "Mia")
    session.select(HOST, "duplik")
    session.start(HOST)
    assert session.match is not None and session.match.state.paper
    for seat in (1, 2):  # too few left: the finish is held
        session.kick(HOST, seat)
    assert session.match is None and session.finish_held
    session.kick(HOST, mia)
    for name, colour in (("Cy", PALETTE[5]), ("Dee", PALETTE[6])):
        session.join(name, colour)
    session.leave_finish(HOST, again=True)
    match = session.match
    assert match is not None and not match.state.paper
    assert "paper" not in match.record.options and NO_SCREEN not in match.record.options


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_child_without_a_phone_whose_seat_was_freed_sits_down_again(
    session: Session, clock: Any, size: tuple[int, int]
):
    """Issue 27: one OK too many freed Mia's seat, and a player without a phone could not
    come back (the seat pad was the lobby's only). The banner of her seat, free to take,
    offers "Sit here without a phone": the pad, and she is back in her own seat, at the
    kiosk, as the game was dealt. A phone-less newcomer is refused where no such seat is
    free, with a reason."""
    from appliance.kiosk.intents import SitDown

    registry.load_all()
    seats = KioskSeats(session)
    for i in range(3):
        session.join(f"Phone{i}", PALETTE[i])
    mia = _sit_at_kiosk(seats, "Mia")
    session.select(HOST, "broad-lines")
    session.start(HOST)
    with pytest.raises(NotNow) as err:  # no seat without a phone is free yet
        session.join("Ola", PALETTE[6], kiosk=True)
    assert err.value.key == "no_kiosk_seat"
    session.offer_seat(HOST, mia)
    assert session.kiosk_seat_free() == mia
    with screens.open_display():
        view = seats.decorate(session.view_for(KIOSK))
        surface = pygame.Surface(size)
        r = KioskRenderer()
        r.render(surface, view, clock())
        assert any(isinstance(i, SitDown) for _, i in r.targets)
        pygame.image.save(surface, SCREENSHOT_DIR / f"easel-kiosk-sit-again-{size[0]}.png")
    assert _sit_at_kiosk(seats, "Mia") == mia
    assert session.seats[mia].kiosk and session.seats[mia].name == "Mia"
    assert session.kiosk_seat_free() is None
