"""What the box's config says each game starts with, before the host's own choices.

Each game that reads settings from `config/appliance.toml` (its hourglass, its length, its
rule checks) has one function here turning the config into that game's start options; the
host's options at `start` override them key by key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from appliance.config import Config

Options = dict[str, Any]


def _duplik(config: Config) -> Options:
    return {"seconds": config.timers.duplik_s}


def _artbox(config: Config) -> Options:
    return {"seconds": config.timers.artbox_s}


def _luck_of_the_draw(config: Config) -> Options:
    game = config.luck_of_the_draw
    return {
        "seconds": config.timers.luck_of_the_draw_s,
        "extended": game.extended_time,
        "extended_factor": config.timers.extended_factor,
        "auto_hourglass": game.auto_hourglass,
        "longer": game.longer_game,
        "extra_cards": game.extra_cards,
        "speedier": game.speedier_game,
    }


def _broad_lines(config: Config) -> Options:
    return {"sheets": config.broad_lines.sheets, "check_sheets": config.broad_lines.check_sheets}


DEFAULTS: Final[dict[str, Callable[[Config], Options]]] = {
    "broad-lines": _broad_lines,
    "duplik": _duplik,
    "artbox": _artbox,
    "luck-of-the-draw": _luck_of_the_draw,
}


def default_options(config: Config, game: str) -> Options:
    """The start options the config gives `game` ({} for a game with no settings)."""
    make = DEFAULTS.get(game)
    return make(config) if make else {}
