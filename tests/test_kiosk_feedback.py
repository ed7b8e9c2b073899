"""Every table press and every refusal is answered on the kiosk (issue 19): a short notice
in the table's language, shown for NOTICE_S seconds and then gone, drawn legibly."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator

import pygame
import pytest

from appliance.kiosk import KioskRenderer
from appliance.system.config import Config
from appliance.table.messages import CZECH
from appliance.table.session import HOST, KIOSK, NOTICE_S, NotNow, Session
from appliance.table.store import Store
from games import registry
from tests.conftest import REPO, FakeClock

SIZE = (800, 480)


@pytest.fixture
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.display.quit()


def broad_lines(session: Session) -> None:
    registry.load_all()
    for name, colour in (("Ada", "#e6194b"), ("Bořek", "#3cb44b"), ("Cy", "#4363d8")):
        session.join(name, colour)
    session.select(HOST, "broad-lines")
    session.start(HOST)


def drawn_texts(session: Session, now: float) -> list[str]:
    r = KioskRenderer()
    r.record_layout = True
    r.panel_buttons = True
    r.render(pygame.Surface(SIZE), session.view_for(KIOSK), now)
    assert r.layout is not None
    for t in r.layout.texts:
        assert t.size >= 16 and not t.clipped, t
    return [t.text for t in r.layout.texts]


def test_a_press_the_game_refuses_is_said_on_the_kiosk_then_goes(
    display: None, session: Session, clock: FakeClock
) -> None:
    broad_lines(session)
    assert session.press("die") is False
    notice = session.view_for(KIOSK)["notice"]
    assert notice["kind"] == "refused"
    assert notice["text"] == "Broad Lines has no use for the die."
    assert any("no use for the die" in t for t in drawn_texts(session, clock()))

    assert session.press("hourglass") is False  # a short press: Broad Lines wants a hold
    assert "hold the button" in session.view_for(KIOSK)["notice"]["text"]
    assert any("hold the" in t for t in drawn_texts(session, clock()))

    r = KioskRenderer()
    view = session.view_for(KIOSK)
    r.mark_drawn(view, clock(), SIZE)
    clock.advance(NOTICE_S + 0.5)
    # The same view, later: the kiosk redraws without the notice, unasked.
    assert r.needs_redraw(view, clock(), SIZE)
    assert not any("hold the" in t for t in drawn_texts(session, clock()))


def test_a_press_taken_is_shown_too(display: None, session: Session, clock: FakeClock) -> None:
    broad_lines(session)
    assert session.match is not None
    session.act(session.match.state.round.critic, "name_number", {"number": 1})
    assert session.press("hourglass", long=True) is True  # propose giving up the word
    notice = session.view_for(KIOSK)["notice"]
    assert (notice["kind"], notice["key"]) == ("press", "hourglass")
    assert "Hourglass ✓" in drawn_texts(session, clock())


def test_refusals_are_said_in_the_tables_language(
    display: None, store: Store, config: Config, clock: FakeClock
) -> None:
    czech = dataclasses.replace(config, table=dataclasses.replace(config.table, language="cs"))
    session = Session(store, czech, "http://192.0.2.7:8080", clock)
    broad_lines(session)
    assert session.press("die") is False  # the game's own refusal, in Czech
    assert session.view_for(KIOSK)["notice"]["text"] == "Široké čáry kostku nepotřebují."
    session.pause(HOST)
    assert session.press("reveal") is False
    assert session.view_for(KIOSK)["notice"]["text"] == (
        "Hra je pozastavená; hostitel ji zase spustí."
    )
    # A tap on the kiosk the session refused (app.py tells the table).
    session.tell_table(NotNow("not_playing", "No game is running."))
    assert session.view_for(KIOSK)["notice"]["text"] == "Žádná hra neběží."
    assert "Žádná hra neběží." in drawn_texts(session, clock())


def refusal_keys() -> set[str]:
    """The keys of every refusal the games raise (require, IllegalAction, BadOptions)."""
    keys = set()
    for path in sorted((REPO / "games").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            at = {"require": 1, "IllegalAction": 0, "BadOptions": 0}.get(name)
            if at is not None and len(node.args) > at:
                arg = node.args[at]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    keys.add(arg.value)
    return keys


def test_every_refusal_of_the_games_has_czech() -> None:
    keys = refusal_keys()
    assert len(keys) > 100, "the scan found too few keys to be trusted"
    assert not keys - set(CZECH), f"no Czech for {sorted(keys - set(CZECH))}"
