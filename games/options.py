"""Reading a game's start options and small state defaults, the same way in every game.

`start` options come from a phone (the host's choices) or the box's config; a game names
what it accepts and each reader raises `BadOptions` naming the option and what is allowed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

from games.core import BadOptions


def no_unknown(options: Mapping[str, Any], known: Collection[str], game: str) -> None:
    unknown = set(options) - set(known)
    if unknown:
        raise BadOptions(
            "unknown_option", "{game} has no option {name}.", game=game, name=sorted(unknown)[0]
        )


def seconds(options: Mapping[str, Any], default: float) -> float:
    """The hourglass option: 10 to 600 seconds."""
    value = options.get("seconds", default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 10 <= value <= 600:
        raise BadOptions("seconds", "The hourglass runs 10 to 600 seconds.")
    return float(value)


def flag(options: Mapping[str, Any], name: str) -> bool:
    """A yes/no option, off unless given."""
    value = options.get(name, False)
    if type(value) is not bool:
        raise BadOptions("flag", "{name} is true or false.", name=name)
    return value


def nothing() -> Mapping[Any, Any]:
    """An empty read-only mapping: the default of a frozen state's mapping field."""
    return MappingProxyType({})
