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


DEFAULTS: Final[dict[str, Callable[[Config], Options]]] = {
    "duplik": _duplik,
    "artbox": _artbox,
}


def default_options(config: Config, game: str) -> Options:
    """The start options the config gives `game` ({} for a game with no settings)."""
    make = DEFAULTS.get(game)
    return make(config) if make else {}
