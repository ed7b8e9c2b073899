"""What the box's config says each game starts with, before the host's own choices.

A game's house (games/house.py) names the settings of `config/appliance.toml` that feed
its start options (its hourglass, its length, its rule checks); this reads them from the
config. The host's options at `start` override them key by key. `seat_options` then adds
what the seats say, whoever asked for the start: which have no phone (seats made at the
kiosk), as the game's house says it takes them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from appliance.system.config import Config
from games import registry
from games.core import NO_SCREEN

Options = dict[str, Any]


class UnknownSetting(LookupError):
    """A game's house names a setting the config does not have."""


def setting(config: Config, path: str) -> Any:
    """The value of a dotted setting ("timers.duplik_s") of `config`."""
    value: Any = config
    for part in path.split("."):
        if part.startswith("_") or not hasattr(value, part):
            raise UnknownSetting(f"the config has no setting {path!r}")
        value = getattr(value, part)
    return value


def default_options(config: Config, game: str) -> Options:
    """The start options the config gives `game` ({} for a game with no settings)."""
    return {
        option.option: setting(config, option.setting)
        for option in registry.house(game).start_options
        if option.setting is not None
    }


def seat_options(game: str, options: Options, no_phone: Collection[int]) -> Options:
    """`options` with what the seats say: NO_SCREEN lists the seats `no_phone` (and is
    dropped whatever a caller sent: it is the seats' fact, not a choice) for a game that
    takes it, and the house's options for a table with a seat without a phone (Duplik on
    paper) are added while one is seated."""
    house = registry.house(game)
    out = {k: v for k, v in options.items() if k != NO_SCREEN}
    if no_phone and house.no_screen:
        out[NO_SCREEN] = sorted(no_phone)
    if no_phone:
        out.update(house.without_phone)
    return out


def phoneless_games() -> list[str]:
    """The registered games a seat without a phone can play (their houses say so)."""
    return [r.id for r in registry.registered() if registry.house(r.id).no_screen]
