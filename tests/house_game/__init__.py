"""Doodle Dash: a game the box has never heard of, brought whole by its own package.

Not part of the product. It proves docs/architecture.md's "Adding a game": its rules
(`rules.py`) and its house (`house.py`: keepsakes, a start option fed by a setting, a deck
a pack may replace, its move schemas) are all the box needs; no file of appliance/ names
it (tests/test_layering.py), it has no kiosk screen (the kiosk's generic one shows it)
and no phone script. `register()` is called by the tests only.
"""

from __future__ import annotations

from games import registry
from tests.house_game.house import HOUSE
from tests.house_game.rules import GAME_ID, RULES

__all__ = ["GAME_ID", "HOUSE", "RULES", "register", "unregister"]


def register() -> None:
    registry.register(RULES, HOUSE)


def unregister() -> None:
    registry.unregister(GAME_ID)
