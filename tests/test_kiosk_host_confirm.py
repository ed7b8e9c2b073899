"""The kiosk's host menu never does anything drastic in one press (issue 27, items 4 and 7).

The report: after the PIN the remote's focus landed on "Free Mia's seat", and one more OK
freed it; "End game" and "Restart box" acted at once, and "Restart box" sat beside
"Close". Here the host is driven as from a sofa, with the remote's keys through a real
`Kiosk` and its focus ring: after the PIN the ring is on Close; kick, free a seat, end the
game and restart the box each ask "Are you sure?" with a sentence naming what happens,
the ring on the safe choice; OK there, Back, or the safe button do nothing; the other
button does it. A seat that changed hands while the question was up is left alone.
"""

from __future__ import annotations

import dataclasses
import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.door.host import PinGuard
from appliance.door.kiosk_host import KioskHostMenu
from appliance.kiosk import Kiosk
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.focus import Direction, step
from appliance.kiosk.intents import Back, HostChoice, Intent, PinKey
from appliance.system.config import Config, HostSettings
from appliance.table.session import HOST, KIOSK, PALETTE, Session
from appliance.table.store import Store
from tests.conftest import FakeClock
from tests.toygame import RaceToTwenty

HEADLESS = DisplayChoice("dummy", False, True, "test")
PIN = "1234"
SIZES = [(800, 480), (1920, 1080)]
SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))
NAMES = ("Ada", "Mia", "Bo")
DIRECTIONS: tuple[Direction, ...] = ("up", "down", "left", "right")


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def kiosk(request: pytest.FixtureRequest) -> Iterator[Kiosk]:
    made = Kiosk(size=request.param, choice=HEADLESS)
    made.focus.clock = lambda: 1e9  # the ring settled at once
    made.renderer.record_layout = True
    made.renderer.panel_buttons = True  # the table's buttons on screen: targets for the ring
    yield made
    pygame.event.clear()
    made.close()


def table(store: Store, config: Config, clock: FakeClock, lang: str = "en") -> Session:
    config = dataclasses.replace(
        config, host=HostSettings(pin=PIN, tries=3, lockout_s=30),
        table=dataclasses.replace(config.table, language=lang))
    session = Session(store, config, "http://192.0.2.7:8080", clock)
    for i, name in enumerate(NAMES):
        session.join(name, PALETTE[i])
    return session


def playing(session: Session) -> Session:
    session.select(HOST, "race")
    session.start(HOST)
    return session


class Sofa:
    """The host with the remote: every key goes through the kiosk as the app's loop would
    send it (Kiosk.remote_key), every intent to the host layer, and the frame is drawn
    again after each."""

    def __init__(self, kiosk: Kiosk, session: Session, clock: FakeClock) -> None:
        self.kiosk, self.session, self.clock = kiosk, session, clock
        self.restarts: list[int] = []
        guard = PinGuard(PIN, 3, 30, clock)
        self.menu = KioskHostMenu(session, guard, clock, lambda: self.restarts.append(1))
        self.draw()

    def draw(self) -> dict[str, Any]:
        view = dict(self.menu.decorate(self.session.view_for(KIOSK)))
        self.kiosk.update(view, self.clock())
        return view

    def key(self, key: str) -> Intent | None:
        intent = self.kiosk.remote_key(key)
        if intent is not None:
            self.menu.handle(intent)
        self.draw()
        return intent

    @property
    def on(self) -> Intent | None:
        return self.kiosk.focus.intent

    def go_to(self, intent: Intent) -> None:
        """The arrows that take the ring to `intent` (the shortest way), then OK."""
        targets = self.kiosk.focus.targets
        rects = [r for r, _ in targets]
        goal = next(i for i, (_, it) in enumerate(targets) if it == intent)
        start = self.kiosk.focus.index
        assert start is not None
        came: dict[int, tuple[int, Direction] | None] = {start: None}
        todo = deque([start])
        while todo:
            i = todo.popleft()
            for d in DIRECTIONS:
                j = step(rects, i, d)
                if j is not None and j not in came:
                    came[j] = (i, d)
                    todo.append(j)
        path: list[Direction] = []
        at = goal
        while (back := came[at]) is not None:
            at, arrow = back
            path.append(arrow)
        for arrow in reversed(path):
            self.key(arrow)
        assert self.on == intent
        self.key("ok")

    def open_menu(self) -> None:
        """The remote's menu key, the PIN on its digits, OK (the ring already on OK)."""
        self.key("menu")
        assert self.menu.state == "pin"
        assert self.on == PinKey("ok"), "the pad's first focus is its OK"
        for digit in PIN:
            assert self.key(digit) == PinKey(digit)
        self.key("ok")
        assert self.menu.state == "menu"


def sofa_at_the_table(kiosk: Kiosk, session: Session, clock: FakeClock) -> Sofa:
    sofa = Sofa(kiosk, session, clock)
    sofa.key("down")  # the remote was in use: its ring shows (the first press shows it)
    assert kiosk.focus.visible
    return sofa


def texts(kiosk: Kiosk) -> list[str]:
    layout = kiosk.renderer.layout
    assert layout is not None
    return [t.text for t in layout.texts]


def shot(kiosk: Kiosk, name: str) -> None:
    w = kiosk.frame.get_width()
    pygame.image.save(kiosk.frame, SCREENSHOT_DIR / f"easel-host-confirm-{name}-{w}.png")


def test_one_ok_after_the_pin_frees_nobody(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = playing(table(store, config, clock))
    sofa = sofa_at_the_table(kiosk, session, clock)
    sofa.open_menu()
    assert sofa.on == HostChoice("close")
    shot(kiosk, "menu")
    sofa.key("ok")
    assert sofa.menu.state == "closed"
    assert set(session.seats) == {0, 1, 2} and session.open_seats == set()
    assert session.match is not None and not session.paused
    # Again, in the lobby (no Pause there): Close first too, never a kick.
    session.end_match(HOST)
    assert session.match is None
    sofa.draw()
    sofa.open_menu()
    assert sofa.on == HostChoice("close")
    sofa.key("ok")
    assert set(session.seats) == {0, 1, 2} and sofa.menu.state == "closed"


def test_restart_box_is_far_from_close(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    sofa = sofa_at_the_table(kiosk, playing(table(store, config, clock)), clock)
    sofa.open_menu()
    rects = {it: r for r, it in kiosk.focus.targets}
    close, restart = rects[HostChoice("close")], rects[HostChoice("restart")]
    # Not a neighbour: other buttons lie between them, Restart box the last of all.
    assert restart.top > close.bottom + close.h
    order = [it for _, it in kiosk.focus.targets]
    assert order[0] == HostChoice("close") and order[-1] == HostChoice("restart")


WHAT = [
    ("kick", 1, "Remove Mia from the table?", "Mia leaves the game and stays out of it"),
    ("offer", 1, "Free Mia's seat?", "a newcomer can take the seat with its score"),
    ("end", None, "End Race to twenty now?", "The game stops for everyone"),
    ("restart", None, "Restart the box?", "a game in play goes on where it was"),
]


def done(session: Session, sofa: Sofa, what: str) -> bool:
    """Has `what` happened to the table?"""
    match what:
        case "kick":
            return 1 not in session.seats
        case "offer":
            return 1 in session.open_seats
        case "end":
            return session.match is None
        case _:
            return sofa.restarts == [1]


@pytest.mark.parametrize(("what", "seat", "question", "sentence"), WHAT,
                         ids=[w[0] for w in WHAT])
def test_each_drastic_choice_asks_with_the_safe_choice_focused(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock, race: RaceToTwenty,
    what: str, seat: int | None, question: str, sentence: str,
) -> None:
    session = playing(table(store, config, clock))
    title = session.view_for(KIOSK)["match"]["title"]
    question = question.replace("Race to twenty", title)
    sofa = sofa_at_the_table(kiosk, session, clock)
    # OK on the choice asks; OK again (the ring on the safe choice) does nothing.
    sofa.open_menu()
    sofa.go_to(HostChoice(what, seat))
    assert sofa.menu.state == "confirm" and not done(session, sofa, what)
    assert {it for _, it in kiosk.focus.targets} == {HostChoice("no"), HostChoice("yes")}
    assert sofa.on == HostChoice("no"), "the safe choice first"
    drawn = texts(kiosk)
    assert question in drawn, drawn
    assert sentence in " ".join(drawn), drawn  # wrapped into lines, in order
    assert "No, keep playing" in drawn
    shot(kiosk, what)
    sofa.key("ok")
    assert sofa.menu.state == "closed" and not done(session, sofa, what)
    # Back on the question cancels it too.
    sofa.open_menu()
    sofa.go_to(HostChoice(what, seat))
    assert sofa.menu.state == "confirm"
    assert sofa.key("back") == Back()
    assert sofa.menu.state == "closed" and not done(session, sofa, what)
    # Across to the other button, OK: done.
    sofa.open_menu()
    sofa.go_to(HostChoice(what, seat))
    sofa.key("right")
    assert sofa.on == HostChoice("yes")
    sofa.key("ok")
    assert done(session, sofa, what) and sofa.menu.state == "closed"


def test_the_question_says_what_happens_in_czech(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = playing(table(store, config, clock, "cs"))
    sofa = sofa_at_the_table(kiosk, session, clock)
    sofa.open_menu()
    sofa.go_to(HostChoice("offer", 1))
    drawn = " ".join(texts(kiosk))
    assert "Uvolnit místo hráče Mia?" in drawn
    assert "Mia opouští hru" in drawn and "Ne, hrajeme dál" in drawn
    assert sofa.on == HostChoice("no")
    shot(kiosk, "offer-cs")


def test_a_seat_that_changed_hands_under_the_question_is_left_alone(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock
) -> None:
    session = table(store, config, clock)  # in the lobby
    sofa = sofa_at_the_table(kiosk, session, clock)
    sofa.open_menu()
    sofa.go_to(HostChoice("kick", 1))
    assert sofa.menu.state == "confirm"
    session.leave(1)  # Mia goes; Zoe sits down in her seat before the host answers
    session.join("Zoe", PALETTE[5])
    assert session.seats[1].name == "Zoe"
    assert "Remove Mia from the table?" in texts(kiosk)  # asked about Mia, still
    sofa.key("right")
    sofa.key("ok")
    assert session.seats[1].name == "Zoe"
    assert sofa.menu.state == "menu"
    assert "Mia is no longer in that seat" in sofa.draw()["host_menu"]["message"]


def test_an_ok_on_an_empty_pad_spends_no_try(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock
) -> None:
    sofa = sofa_at_the_table(kiosk, table(store, config, clock), clock)
    sofa.key("menu")
    for _ in range(5):  # more than the tries: a stray OK is not a wrong PIN
        sofa.key("ok")
    assert sofa.menu.state == "pin" and sofa.menu.message == ""
    for digit in PIN:
        sofa.key(digit)
    sofa.key("ok")
    assert sofa.menu.state == "menu"


def test_the_seat_cross_asks_with_the_safe_choice_focused(
    kiosk: Kiosk, store: Store, config: Config, clock: FakeClock
) -> None:
    """The lobby's ✕ on a seat: PIN, then the same question, the ring on Cancel."""
    session = table(store, config, clock)
    sofa = sofa_at_the_table(kiosk, session, clock)
    from appliance.kiosk.intents import KickSeat

    sofa.menu.handle(KickSeat(1))
    sofa.draw()
    for digit in PIN:
        sofa.key(digit)
    sofa.key("ok")
    assert sofa.menu.state == "confirm" and sofa.on == HostChoice("no")
    drawn = texts(kiosk)
    assert "Remove Mia from the table?" in drawn and "Cancel" in drawn
    sofa.key("ok")
    assert 1 in session.seats and sofa.menu.state == "closed"


def test_the_confirmation_closes_itself_untouched(
    store: Store, config: Config, clock: FakeClock, race: RaceToTwenty
) -> None:
    session = playing(table(store, config, clock))
    menu = KioskHostMenu(session, PinGuard(PIN, 3, 30, clock), clock, lambda: None)
    menu._set("menu")  # as after the PIN
    menu.handle(HostChoice("end"))
    assert menu.state == "confirm"
    clock.advance(61)
    assert menu.decorate(session.view_for(KIOSK))["host_menu"]["state"] == "closed"
    menu.handle(HostChoice("yes"))  # a late tap on the question's old frame
    assert session.match is not None
