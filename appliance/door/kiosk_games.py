"""What the kiosk shows of each game that the session's view does not say: its house's.

The kiosk imports no game (tests/test_layering.py); it learns what it must know of a
game beside its view from the view itself. `KioskGames.decorate(view)` marks each entry of
the view's `games` with `together` (games/house.py: the table plays it together, so a
finish shows the table's result rather than winners). The seat pad's words about a game
are put in by appliance/door/kiosk_seat.py the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import registry


class KioskGames:
    """The kiosk's view with the games' house facts; the last one is kept, so an unchanged
    view costs nothing (and decorates to the very same dict, which the next layers'
    caches compare by identity)."""

    def __init__(self) -> None:
        self._last: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None

    def decorate(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        last = self._last
        if last is not None and last[0] is view:
            return last[1]
        games = view.get("games")
        out = dict(view)
        if isinstance(games, list):
            out["games"] = [
                {**game, "together": registry.house(game["id"]).together}
                if isinstance(game, Mapping) and isinstance(game.get("id"), str)
                else game
                for game in games
            ]
        self._last = (view, out)
        return out
