"""The games the box knows: the catalogue of the four titles, and the rules registered so far.

The catalogue is what the lobby lists (names in every language, player counts); a title
can be started once its `Rules` are registered here by its module. `action_schemas` hands
out what each of a game's moves may carry (`games/<id>_actions.py`).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from games.action_schema import ActionSchemas
from games.core import Rules


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    title_en: str
    title_cs: str
    min_players: int
    max_players: int

    @property
    def module(self) -> str:
        """The module whose import registers this game's rules."""
        return "games." + self.id.replace("-", "_")

    def title(self, lang: str) -> str:
        return self.title_cs if lang == "cs" else self.title_en


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("broad-lines", "Broad Lines", "Široké čáry", 3, 12),
    CatalogueEntry("duplik", "Duplik", "Duplik", 3, 10),
    CatalogueEntry("luck-of-the-draw", "Luck of the Draw", "Štěstí v kreslení", 4, 8),
    CatalogueEntry("artbox", "ArtBox", "ArtBox", 3, 8),
)

_registered: dict[str, Rules[Any]] = {}


class UnknownGame(LookupError):
    """No game with that id is registered."""


def load_all() -> tuple[Rules[Any], ...]:
    """Import every catalogued game that has been written, so each registers itself."""
    for entry in CATALOGUE:
        if importlib.util.find_spec(entry.module) is not None:
            importlib.import_module(entry.module)
    return registered()


def register(rules: Rules[Any]) -> Rules[Any]:
    """Make `rules` startable; a second registration of the same id replaces the first."""
    _registered[rules.id] = rules
    return rules


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)


def get(game_id: str) -> Rules[Any]:
    try:
        return _registered[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None


def registered() -> tuple[Rules[Any], ...]:
    return tuple(_registered.values())


def is_registered(game_id: str) -> bool:
    return game_id in _registered


def action_schemas(game_id: str) -> ActionSchemas | None:
    """What each kind of move of a game may carry (`games/<id>_actions.py`, declared
    beside its rules in games/action_schema.py's terms), or None for a game that
    declares none (its moves are then bounded only by the message size)."""
    module = "games." + game_id.replace("-", "_") + "_actions"
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if found is None:
        return None
    schemas: ActionSchemas = importlib.import_module(module).ACTIONS
    return schemas
