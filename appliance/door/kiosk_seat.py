"""Seats without a phone: someone sits at the table from the kiosk, with the TV's remote.

A free seat in the lobby (or, mid-game, a seat made at the kiosk and handed over: its
banner's "Sit here") opens the seat pad (drawn by appliance/kiosk/seat_pad.py): the
name typed letter by letter on an on-screen keyboard, a colour from those still free, and
"Sit down". The seat is an ordinary seat of the session (`Session.join(kiosk=True)`): the
session keeps, with the seat in the store, that it was made at the kiosk, shows it present
and, at every start (whoever asks), tells the games which seats have no private screen
(appliance/table/game_options.py `seat_options`). The pad also says, for the chosen game, which
parts such a player can play from the TV and which need a phone (the games' private
screens: a secret word, a secret scene, secret votes); a Duplik started with such a seat
is drawn on paper, the box being the hourglass, the die and the scoreboard, and Luck of
the Draw and ArtBox are not started.

A game so told (the start option games.core.NO_SCREEN) deals them no role that needs one
while another seat can take it (Duplik's Portrayer), and refuses to start if none can.
Where the rules let everyone else look away, the kiosk passes the device instead: a Broad
Lines Artist at the kiosk is asked, while the Critic looks away, to press OK to see the
word; the word is on screen until OK again, and in the kiosk's view only then
(`pass_device`, from that seat's own view: the session's kiosk view never carries it).

`KioskSeats.decorate(view)` adds `seat_pad` and `pass_device` to the kiosk's view; its
`version` becomes a tuple that also changes with them, as appliance/door/kiosk_host.py does
for the host menu.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from typing import Any, Final

from appliance.kiosk.intents import Back, Intent, SeatPadKey, SitDown
from appliance.table.session import (
    KIOSK,
    PALETTE,
    Done,
    Session,
    SessionError,
    Viewer,
    Welcome,
)
from games import registry
from games.house import PrivateLook

log = logging.getLogger("easel.kiosk_seat")

NAME_MAX: Final = 16
"""Letters the pad takes (a phone may type up to the session's own limit)."""

RevealKey = tuple[int, int, tuple[int | str, ...]]
"""(match id, seat, the look's own key): one private look, as one seat must see it once."""


class KioskSeats:
    """The seat pad's state, and the seats it made."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.open = False
        self.name = ""
        self.colour: str | None = None
        self.message = ""
        self.rev = 0
        # Passing the device: the word on screen now (its key), and the words seen.
        self.showing: RevealKey | None = None
        self.seen: set[RevealKey] = set()
        self._cache: tuple[object, object, Mapping[str, Any]] | None = None

    @property
    def seated(self) -> dict[int, str]:
        """Seat -> name of the seats made at the kiosk, as the session keeps them (a
        phone that took one over since is a phone's)."""
        return {s.seat: s.name for s in self.session.seats.values() if s.kiosk}

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
            # The lobby's free seat, or mid-game a seat without a phone handed over (a
            # child freed by mistake sits down again).
            if self.session.match is None or self.session.kiosk_seat_free() is not None:
                self.open, self.name = True, ""
                free = self._free_colours()
                self.colour = free[0] if free else None
                self._changed()
            return True
        if isinstance(intent, Back) and self.open:
            self._close()
            return True
        if isinstance(intent, Back) and self.showing is not None:
            self._hide()  # Back hides the word, as OK does: never leaves it up
            return True
        if isinstance(intent, SeatPadKey):
            if intent.what in ("show_word", "hide_word", "word_again"):
                self._pass_key(intent)
            elif self.open:
                self._key(intent)
            return True
        return False

    # -- passing the device: a private screen for a moment -----------------------------
    def _waiting(self) -> list[RevealKey]:
        """The words kiosk seats must still see, in seat order (Broad Lines' Artists
        once the Critic has named the number)."""
        return [k for k in self._words_now() if k not in self.seen]

    def _words_now(self) -> list[RevealKey]:
        """The private look each kiosk seat should have now, seen or not (the game's
        house says which: Broad Lines' Artists once the Critic has named the number)."""
        return [(match_id, look.seat, look.key) for match_id, look in self._looks()]

    def _looks(self) -> list[tuple[int, PrivateLook]]:
        match = self.session.match
        if match is None or not self.seated:
            return []
        looks = registry.house(match.record.game).private_looks
        if looks is None:
            return []
        return [(match.record.id, look)
                for look in looks(self._public_state(), frozenset(self.seated))]

    def _public_state(self) -> Mapping[str, Any]:
        match = self.session.view_for(KIOSK).get("match")
        state = match.get("state") if isinstance(match, Mapping) else None
        return state if isinstance(state, Mapping) else {}

    def _pass_key(self, key: SeatPadKey) -> None:
        waiting = self._waiting()
        if key.what == "show_word" and self.showing is None and waiting:
            if key.value == str(waiting[0][1]):
                self.showing = waiting[0]
                self._changed()
        elif key.what == "hide_word" and self.showing is not None:
            self._hide()
        elif key.what == "word_again" and self.showing is None:
            # Forgotten: ask that Artist again (the Critic looks away again).
            for seen in self._words_now():
                if str(seen[1]) == key.value and seen in self.seen:
                    self.seen.discard(seen)
                    self._changed()

    def _hide(self) -> None:
        if self.showing is not None:
            self.seen.add(self.showing)
        self.showing = None
        self._changed()

    def _word_of(self, seat: int) -> str | None:
        """What `seat` is shown privately, from its own view (what that player may see),
        in the table's language."""
        match = self.session.match
        own = self.session.view_for(Viewer("player", seat)).get("match")
        state = own.get("state") if isinstance(own, Mapping) else None
        if match is None or not isinstance(state, Mapping):
            return None
        text_of = registry.house(match.record.game).private_text
        texts = None if text_of is None else text_of(state)
        if not texts:
            return None
        return texts.get(self.lang) or texts.get("en")

    def _pass_device(self) -> dict[str, Any] | None:
        """What the kiosk shows to pass the device: asking a seat to look (the one named
        looks away), or that seat's word; None when nobody must see anything."""
        waiting = self._waiting()
        if self.showing is not None and self.showing not in waiting:
            self.showing = None  # the round moved on (another number, the end): hidden
            self.rev += 1
        key = self.showing or (waiting[0] if waiting else None)
        if key is None:
            return None
        seat = key[1]
        away = next((look.away for _, look in self._looks()
                     if (look.seat, look.key) == (seat, key[2])), None)
        seats = self.session.seats
        out: dict[str, Any] = {
            "stage": "show" if self.showing is not None else "ask",
            "seat": seat,
            "name": seats[seat].name if seat in seats else "",
            "critic": seats[away].name if away in seats else "",
            "word": None,
        }
        if self.showing is not None:
            out["word"] = self._word_of(seat)
        return out

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
            joined = self.session.join_async(self.name, self.colour, kiosk=True)
        except SessionError as err:
            self._changed(say(self.lang, err.key, str(err), **err.params))
            return
        if isinstance(joined, Done):
            self._seated(joined.value)
        else:  # the seat is being written off the loop: the pad hears back then
            self.session.start_for_table(self._sit_later(joined))

    async def _sit_later(self, joined: Awaitable[Welcome]) -> None:
        from appliance.table.messages import say

        try:
            welcome = await joined
        except SessionError as err:
            self._changed(say(self.lang, err.key, str(err), **err.params))
            return
        self._seated(welcome)

    def _seated(self, welcome: Welcome) -> None:
        if welcome.seat is None:
            from appliance.kiosk.seat_pad import word

            self._changed(word(self.lang, "full"))
            return
        log.info("kiosk: %r sat down at the table in seat %d", self.name, welcome.seat)
        self._close()

    def decorate(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """The kiosk's view with the seat pad (when open) and the kiosk's own seats."""
        if self.open and self.session.match is not None and (
            self.session.kiosk_seat_free() is None
        ):
            self.open = False  # a game started under it: the pad has no seat to give
            self._changed()
        passing = self._pass_device()
        key = (self.rev, tuple(sorted(self.seated)),
               None if passing is None else (passing["stage"], passing["seat"], self.showing))
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
        out["pass_device"] = passing
        self._cache = (view, key, out)
        return out
