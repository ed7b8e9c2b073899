"""Reading a game's start options and small state defaults, the same way in every game.

`start` options come from a phone (the host's choices) or the box's config; a game names
what it accepts and each reader raises `BadOptions` naming the option and what is allowed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any, Final

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


MAX_DECK: Final = 5000
"""The most cards a deck option may hold (the packs' limit is 2,000 entries a file)."""
MAX_DECK_TEXT: Final = 40

Pair = tuple[str, str]


def _pair(value: Any) -> Pair | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(t, str) and 0 < len(t) <= MAX_DECK_TEXT for t in value)
    ):
        return str(value[0]), str(value[1])
    return None


def text_cards(
    options: Mapping[str, Any], name: str, per_card: int, low: int
) -> tuple[tuple[Pair, ...], ...]:
    """A deck option from the table's word packs: a list of `low` or more cards, each a
    list of `per_card` [English, Czech] pairs (`per_card` 1: each card is one pair, not a
    list of one). () when the option is not given: the game's built-in deck."""
    raw = options.get(name)
    if raw is None:
        return ()
    cards: list[tuple[Pair, ...]] = []
    if isinstance(raw, list | tuple) and low <= len(raw) <= MAX_DECK:
        for item in raw:
            card: tuple[Pair, ...]
            if per_card == 1:
                pair = _pair(item)
                card = () if pair is None else (pair,)
            elif isinstance(item, list | tuple) and len(item) == per_card:
                card = tuple(p for p in map(_pair, item) if p is not None)
            else:
                card = ()
            if len(card) != per_card:
                break
            cards.append(card)
        else:
            return tuple(cards)
    if per_card == 1:
        raise BadOptions(
            name, "{name} is a list of {low} or more [English, Czech] pairs.", name=name, low=low
        )
    raise BadOptions(
        name,
        "{name} is a list of {low} or more cards, each of {per_card} [English, Czech] pairs.",
        name=name, low=low, per_card=per_card,
    )


def nothing() -> Mapping[Any, Any]:
    """An empty read-only mapping: the default of a frozen state's mapping field."""
    return MappingProxyType({})
