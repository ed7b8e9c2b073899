"""Seats without a phone: someone sits at the table from the kiosk, with the TV's remote.

A free seat in the lobby opens the seat pad (drawn by appliance/kiosk/seat_pad.py): the
name typed letter by letter on an on-screen keyboard, a colour from those still free, and
"Sit down". The seat is an ordinary seat of the session (`Session.join`), shown as present
while the box runs; its phone's token is simply never used. The pad also says, for the
chosen game, which parts such a player can play from the TV and which need a phone
(the games' private screens: a secret word, a secret scene, secret votes), and a game
started from the kiosk with such a seat gets the start options its house gives a table
without phones (games/house.py's `without_phone`: Duplik is then drawn on paper, the box
being the hourglass, the die and the scoreboard).

`KioskSeats.decorate(view)` adds `seat_pad` to the kiosk's view; its `version` becomes a
tuple that also changes with the pad, as appliance/kiosk_host.py does for the host menu.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final

from appliance.kiosk.intents import Back, Intent, SeatPadKey, SitDown
from appliance.table.session import PALETTE, Session, SessionError, Viewer
from games import registry

log = logging.getLogger("easel.kiosk_seat")

NAME_MAX: Final = 16
"""Letters the pad takes (a phone may type up to the session's own limit)."""



class KioskSeats:
    """The seat pad's state, and the seats it made."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.open = False
        self.name = ""
        self.colour: str | None = None
        self.message = ""
        self.rev = 0
        self.seated: dict[int, str] = {}  # seat -> name, for seats taken at the kiosk
        self._cache: tuple[object, object, Mapping[str, Any]] | None = None

    @property
    def lang(self) -> str:
        return self.session.config.table.language

    def _free_colours(self) -> list[str]:
        taken = {s.colour for s in self.session.seats.values()}
        return [c for c in PALETTE if c not in taken]

    def _changed(self, message: str = "") -> None:
        self.message = message
        self.rev += 1

    def handle(self, intent: Intent) -> bool:
        """Act on a seat-pad intent; False if `intent` is not one (the app handles it)."""
        if isinstance(intent, SitDown):
            if self.session.match is None:
                self.open, self.name = True, ""
                free = self._free_colours()
                self.colour = free[0] if free else None
                self._changed()
            return True
        if isinstance(intent, Back) and self.open:
            self._close()
            return True
        if isinstance(intent, SeatPadKey):
            if self.open:
                self._key(intent)
            return True
        return False

    def _close(self) -> None:
        self.open, self.name = False, ""
        self._changed()

    def _key(self, key: SeatPadKey) -> None:
        match key.what:
            case "letter" if len(key.value) == 1 and len(self.name) < NAME_MAX:
                # Typed in capitals on the pad; a name reads better as "Mia" than "MIA".
                letter = key.value if not self.name or self.name.endswith(" ") else (
                    key.value.lower())
                self.name += letter
                self._changed()
            case "space" if self.name and not self.name.endswith(" "):
                self.name += " "
                self._changed()
            case "back":
                self.name = self.name[:-1]
                self._changed()
            case "colour" if key.value in self._free_colours():
                self.colour = key.value
                self._changed()
            case "cancel":
                self._close()
            case "sit":
                self._sit()

    def _sit(self) -> None:
        from appliance.table.messages import say

        if self.colour is None:
            return
        try:
            welcome = self.session.join(self.name, self.colour)
        except SessionError as err:
            self._changed(say(self.lang, err.key, str(err), **err.params))
            return
        if welcome.seat is None:
            from appliance.kiosk.seat_pad import word

            self._changed(word(self.lang, "full"))
            return
        self.seated[welcome.seat] = self.session.seats[welcome.seat].name
        # Present for as long as the box runs: the seat card does not say "offline".
        self.session.attach(Viewer("player", welcome.seat))
        log.info("kiosk: %r sat down at the table in seat %d", self.name, welcome.seat)
        self._close()

    def _prune(self) -> None:
        """Forget seats that were kicked or taken over since."""
        seats = self.session.seats
        for seat, name in list(self.seated.items()):
            if seat not in seats or seats[seat].name != name:
                del self.seated[seat]

    def start_options(self, game: str | None) -> dict[str, Any]:
        """What a game started from the kiosk adds for players without a phone."""
        self._prune()
        if self.seated and game is not None:
            return dict(registry.house(game).without_phone)
        return {}

    def decorate(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """The kiosk's view with the seat pad (when open) and the kiosk's own seats."""
        if self.open and self.session.match is not None:
            self.open = False  # a game started under it: the pad has no seat to give
            self._changed()
        self._prune()
        key = (self.rev, tuple(sorted(self.seated)))
        cached = self._cache
        if cached is not None and cached[0] is view and cached[1] == key:
            return cached[2]
        out = dict(view)
        out["version"] = (view.get("version"), "seat", *key)
        selected = view.get("selected")
        game = selected if isinstance(selected, str) else None
        out["seat_pad"] = {
            "state": "open" if self.open else "closed",
            "name": self.name,
            "colour": self.colour,
            "colours": self._free_colours(),
            "message": self.message,
            "game": game,
            "from_the_tv": dict(registry.house(game).from_the_tv) if game else {},
            "kiosk_seats": sorted(self.seated),
        }
        self._cache = (view, key, out)
        return out
