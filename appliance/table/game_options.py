"""What the box's config says each game starts with, before the host's own choices.

A game's house (games/house.py) names the settings of `config/appliance.toml` that feed
its start options (its hourglass, its length, its rule checks); this reads them from the
config. The host's options at `start` override them key by key.
"""

from __future__ import annotations

from typing import Any

from appliance.system.config import Config
from games import registry

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
    }
