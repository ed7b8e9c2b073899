"""The games the box knows: the catalogue of the four titles, and the rules registered so far.

The catalogue is what the lobby lists (names in every language, player counts); a title
can be started once its `Rules` are registered here by its module. `house` hands out
everything else the box needs of a game (games/house.py: its keepsakes, start options,
decks, move schemas, kiosk texts, wanted capabilities), read from `games/<id>_house.py`
or given to `register`; `action_schemas` what each of a game's moves may carry
(`games/<id>_actions.py`); `provide` gives the games that want it a helper of the box's.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from games.action_schema import ActionSchemas
from games.core import Rules
from games.house import NOTHING, House


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
_houses: dict[str, House] = {}


class UnknownGame(LookupError):
    """No game with that id is registered."""


def load_all() -> tuple[Rules[Any], ...]:
    """Import every catalogued game that has been written, so each registers itself."""
    for entry in CATALOGUE:
        if importlib.util.find_spec(entry.module) is not None:
            importlib.import_module(entry.module)
    return registered()


def register(rules: Rules[Any], house: House | None = None) -> Rules[Any]:
    """Make `rules` startable; a second registration of the same id replaces the first
    (its house stays unless a new one is given)."""
    _registered[rules.id] = rules
    if house is not None:
        _houses[rules.id] = house
    return rules


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)
    _houses.pop(game_id, None)


def _module_of(game_id: str, suffix: str) -> str:
    return "games." + game_id.replace("-", "_") + suffix


def _find(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def house(game_id: str) -> House:
    """What the box needs of `game_id` beside its rules: the house given to `register`,
    else `HOUSE` of `games/<id>_house.py`, else an empty one."""
    found = _houses.get(game_id)
    if found is not None:
        return found
    module = _module_of(game_id, "_house")
    if not game_id.replace("-", "_").isidentifier() or not _find(module):
        return NOTHING
    declared: House = importlib.import_module(module).HOUSE
    _houses[game_id] = declared
    return declared


def known_ids() -> tuple[str, ...]:
    """The catalogue's ids, then those of any other game registered."""
    ids = [entry.id for entry in CATALOGUE]
    return (*ids, *(r.id for r in registered() if r.id not in ids))


def provide(capability: str, helper: Any) -> tuple[str, ...]:
    """Give `helper` to every registered game whose house wants `capability`: each is
    registered again as its house makes it with the helper. Returns their ids."""
    given = []
    for rules in registered():
        make = house(rules.id).wants.get(capability)
        if make is not None:
            register(make(helper))
            given.append(rules.id)
    return tuple(given)


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
    """What each kind of move of a game may carry (its house's `actions`, else
    `games/<id>_actions.py`, declared in games/action_schema.py's terms), or None for a
    game that declares none (its moves are then bounded only by the message size)."""
    declared = house(game_id).actions
    if declared is not None:
        return declared
    module = _module_of(game_id, "_actions")
    if not _find(module):
        return None
    schemas: ActionSchemas = importlib.import_module(module).ACTIONS
    return schemas
