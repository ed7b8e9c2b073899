"""Each game's house (games/house.py): what the box reads of a game beside its rules."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from appliance.door.kiosk_games import KioskGames
from appliance.system.config import Config
from appliance.table.game_options import UnknownSetting, default_options, setting
from games import registry
from games.core import SeatInfo
from games.house import House
from games.word_forms import WORD_FORMS, Opinion, Worded

GAMES = [entry.id for entry in registry.CATALOGUE]


@pytest.fixture(autouse=True)
def loaded() -> None:
    registry.load_all()


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i}", f"#00000{i}") for i in range(n)]


@pytest.mark.parametrize("game", GAMES)
def test_the_config_feeds_the_start_options_the_house_names(game: str) -> None:
    house = registry.house(game)
    config = Config()
    options = default_options(config, game)
    # Every option fed by a setting, and only those (the others are the host's choice).
    assert list(options) == [o.option for o in house.start_options if o.setting is not None]
    rules = registry.get(game)
    rules.setup(seats(rules.min_players), options, 7)  # the rules take what the config gives


@pytest.mark.parametrize("game", GAMES)
def test_the_built_in_decks_fit_their_own_shapes(game: str) -> None:
    """A pack replacing a deck with the built-in cards gives start options the rules take
    (they raise BadOptions for a deck of the wrong shape)."""
    rules = registry.get(game)
    for deck in registry.house(game).decks:
        cards = deck.built_in()
        assert len(cards) >= deck.shape.minimum
        assert all(len(card) == deck.shape.per_card for card in cards)
        rules.setup(seats(rules.min_players), deck.to_options(cards), 7)


@pytest.mark.parametrize("game", GAMES)
def test_the_registry_hands_out_the_games_move_schemas(game: str) -> None:
    module = importlib.import_module("games." + game.replace("-", "_") + "_actions")
    assert registry.action_schemas(game) is module.ACTIONS is registry.house(game).actions


def test_a_setting_the_config_does_not_have_is_named() -> None:
    assert setting(Config(), "timers.duplik_s") == 90
    for path in ("timers.no_such_s", "nothing.here", "timers.__class__"):
        with pytest.raises(UnknownSetting, match="no setting"):
            setting(Config(), path)


@pytest.fixture
def restored() -> Iterator[None]:
    before = {r.id: r for r in registry.registered()}
    yield
    for rules in before.values():
        registry.register(rules)


def test_a_capability_goes_to_the_games_that_want_it(restored: None) -> None:
    def always(guess: str, word: Worded) -> Opinion:
        return "close"

    others = {g: registry.get(g) for g in GAMES if g != "broad-lines"}
    assert registry.provide(WORD_FORMS, always) == ("broad-lines",)
    assert getattr(registry.get("broad-lines"), "matcher", None) is always
    assert all(registry.get(g) is rules for g, rules in others.items())
    assert registry.provide("no_such_capability", always) == ()


def test_a_game_without_a_house_has_an_empty_one() -> None:
    assert registry.house("no-such-game") == House()
    assert registry.house("../../etc") == House()
    assert default_options(Config(), "no-such-game") == {}


def test_the_kiosk_is_told_which_games_the_table_plays_together() -> None:
    view: dict[str, Any] = {"games": [{"id": g} for g in GAMES] + [{"id": 3}, "odd"]}
    kiosk = KioskGames()
    shown = kiosk.decorate(view)
    assert {g["id"]: g["together"] for g in shown["games"][:4]} == {
        g: g == "broad-lines" for g in GAMES}
    assert shown["games"][4:] == [{"id": 3}, "odd"]  # what it cannot read is left alone
    assert kiosk.decorate(view) is shown  # the same view, the same dict


def test_the_gallerys_painting_does_not_print_pygames_banner() -> None:
    """The gallery paints with appliance/system/drawing.py, imported before any kiosk: the box's
    output is its log, not pygame's greeting."""
    env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
    done = subprocess.run([sys.executable, "-c", "import appliance.door.gallery"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
