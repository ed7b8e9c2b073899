"""The kiosk's host menu: hold the top-left corner, type the PIN, then a few big buttons.

The same powers as the host page, kept modest for a shared touch screen: pause or resume,
end the game, kick a seat or free it for a newcomer, restart the box, and the box's
sound (− / the volume and a mute / +: the host page's own `SoundDial`, so both show and
turn the one level). The PIN is checked
by the host page's `PinGuard` with the kiosk as one client, so wrong tries on the screen
lock it out just as on a phone. The menu closes itself after a minute untouched, so it
is never left open for the next child at the table.

Nothing that cannot be undone happens in one press: kick, free a seat, end the game and
restart the box each ask "Are you sure?" first (`Asking`), naming what happens, with the
safe choice first for the remote's focus (appliance/kiosk/host_menu.py draws it); the
safe choice, Back, or a minute untouched cancel it. A seat that changed hands while the
question was up is not acted on: the answer was about the person named.

`KioskHostMenu.decorate(view)` adds `host_menu` (and the lobby's `history` step) to the
kiosk's view for appliance/kiosk/host_menu.py to draw; the view's `version` becomes a
tuple that also changes with the menu, so the kiosk redraws exactly when either changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from appliance.door.host import HostPageOff, LockedOut, PinGuard, WrongPin
from appliance.kiosk.intents import Back, HostChoice, HostCorner, Intent, KickSeat, PinKey
from appliance.system.table_sounds import SoundDial
from appliance.table.session import HOST, Session, SessionError

log = logging.getLogger("easel.kiosk_host")

IDLE_S: Final = 60.0
CLIENT: Final = "kiosk"
MAX_DIGITS: Final = 12
VOLUME_STEP: Final = 10
"""What − and + in the menu's sound row turn the volume by (of 0-100)."""

# The number last, after a colon: right in both languages for any number ("1 tries
# left", "zbývá 1 pokusů" were not).
TEXT: Final = {
    "en": {
        "wrong": "Wrong PIN · tries left: {n}", "locked": "Too many tries: wait {s} s",
        "seat_changed": "{name} is no longer in that seat: nothing was done.",
    },
    "cs": {
        "wrong": "Špatný PIN · zbývající pokusy: {n}",
        "locked": "Příliš mnoho pokusů: počkejte {s} s",
        "seat_changed": "{name} už na tom místě nesedí: nic se nestalo.",
    },
}

Drastic = Literal["kick", "offer", "end", "restart"]


@dataclass(frozen=True)
class Asking:
    """A choice that cannot be undone, waiting for its "Are you sure?".

    `held_by` is the seat's record when the question was asked: "yes" acts only if the
    same person still holds the seat. `from_menu`: asked from the menu (after the PIN),
    not from a lobby seat's ✕; a refusal is then shown in the menu.
    """

    what: Drastic
    seat: int | None = None
    held_by: object = None
    from_menu: bool = True


class KioskHostMenu:
    def __init__(
        self,
        session: Session,
        guard: PinGuard,
        clock: Callable[[], float],
        on_restart: Callable[[], None],
        history: Callable[[Mapping[str, Any]], Mapping[str, Any] | None] | None = None,
        sound: SoundDial | None = None,
    ) -> None:
        self.session = session
        self.guard = guard
        self.clock = clock
        self.on_restart = on_restart
        self.history = history
        self.sound = sound
        self.state = "closed"  # "pin", "menu", "confirm" (asking `asking`)
        self.asking: Asking | None = None  # what a "yes" would do; None once answered
        self.digits = ""
        self.message = ""
        self.rev = 0
        self.touched = 0.0
        self._cache: tuple[object, object, Mapping[str, Any]] | None = None

    @property
    def lang(self) -> str:
        return self.session.config.table.language

    def _say(self, key: str, **fields: object) -> str:
        return TEXT.get(self.lang, TEXT["en"])[key].format(**fields)

    def _set(self, state: str, message: str = "") -> None:
        self.state, self.message = state, message
        self.rev += 1
        self.touched = self.clock()

    def handle(self, intent: Intent) -> bool:
        """Act on a host-menu intent; False if `intent` is not one (the app handles it)."""
        if isinstance(intent, HostCorner):
            if self.guard.enabled:
                self.digits = ""
                self._set("pin")
            return True
        if isinstance(intent, PinKey):
            self._pin_key(intent.key)
            return True
        if isinstance(intent, HostChoice):
            self._choice(intent)
            return True
        if isinstance(intent, KickSeat):
            # One tap on a seat's ✕ must not remove a player: the PIN first (when one is
            # set, as for the menu), then "Remove Bo from the table?".
            self.asking = self._ask("kick", intent.seat, from_menu=False)
            self.digits = ""
            self._set("pin" if self.guard.enabled else "confirm")
            return True
        if isinstance(intent, Back) and self.state != "closed":
            # A remote's Back: one step back, which from the pad or the menu is closed,
            # and on a confirmation is its safe answer (nothing done, back to the table).
            self.digits = ""
            self.asking = None
            self._set("closed")
            return True
        return False

    def _ask(self, what: Drastic, seat: int | None = None, from_menu: bool = True) -> Asking:
        held_by = self.session.seats.get(seat) if seat is not None else None
        return Asking(what, seat, held_by, from_menu)

    def _pin_key(self, key: str) -> None:
        if self.state != "pin":
            return
        if key == "cancel":
            self.digits = ""
            self.asking = None
            self._set("closed")
        elif key == "back":
            self.digits = self.digits[:-1]
            self._set("pin", self.message)
        elif key.isdigit() and len(key) == 1:
            if len(self.digits) < MAX_DIGITS:
                self.digits += key
            self._set("pin", self.message)
        elif key == "ok":
            if not self.digits:
                return  # nothing typed (a stray OK of the remote): no try spent
            digits, self.digits = self.digits, ""
            try:
                self.guard.check(CLIENT, digits)
            except HostPageOff:
                self._set("closed")
            except LockedOut as err:
                self._set("pin", self._say("locked", s=max(1, round(err.retry_after))))
            except WrongPin as err:
                log.warning("kiosk: wrong host PIN")
                self._set("pin", self._say("wrong", n=err.tries_left))
            else:
                if self.asking is not None:
                    self._set("confirm")
                    return
                log.info("kiosk: host menu opened")
                self._set("menu")

    def _choice(self, choice: HostChoice) -> None:
        if self.state == "confirm":
            self._confirm(choice)
            return
        if self.state != "menu":
            return
        session = self.session
        try:
            match choice.what:
                # Each is written off the loop; a late refusal is the kiosk's notice.
                case "pause":
                    session.start_for_table(session.pause_async(HOST))
                case "resume":
                    session.start_for_table(session.resume_async(HOST))
                case "end" | "restart":
                    # Asked once more: the game (or the box) stops for everyone.
                    self.asking = self._ask(choice.what)
                    self._set("confirm")
                    return
                case "again" | "lobby":
                    # Play again sets up off the loop; its refusal is the kiosk's notice.
                    session.start_for_table(
                        session.leave_finish_async(HOST, again=choice.what == "again"))
                case "kick" | "offer" if choice.seat is not None:
                    # Asked once more, as from the seat's ✕: one OK must not send a
                    # player (a child without a phone) away from the table.
                    self.asking = self._ask(choice.what, choice.seat)
                    self._set("confirm")
                    return
                case "close":
                    self._set("closed")
                    return
                case "volume_down" | "volume_up" | "mute" if self.sound is not None:
                    # The menu stays: a few presses of + or − in a row.
                    level = self.sound.level
                    if choice.what == "mute":
                        level = self.sound.set(muted=not level.muted)
                    else:
                        step = VOLUME_STEP if choice.what == "volume_up" else -VOLUME_STEP
                        # Turning it up unmutes: the host wants to hear it.
                        level = self.sound.set(level.volume + step,
                                               False if step > 0 else None)
                    log.info("kiosk: sound volume %d%s", level.volume,
                             ", muted" if level.muted else "")
                    self._set("menu")
                    return
                case _:
                    return
        except SessionError as err:
            from appliance.table.messages import say

            self._set("menu", say(self.lang, err.key, str(err), **err.params))
            return
        # Done: close, so the table sees the game (and nobody else taps the menu).
        self._set("closed")

    def _confirm(self, choice: HostChoice) -> None:
        """The answer to "Are you sure?": "yes" does it, "no" does nothing (both close)."""
        asking = self.asking
        if choice.what not in ("yes", "no") or asking is None:
            return  # a stale tap of the menu's frame: the question still stands
        self.asking = None
        if choice.what == "no":
            self._set("closed")
            return
        session, seat = self.session, asking.seat
        if seat is not None and session.seats.get(seat) != asking.held_by:
            # Left, kicked from a phone or re-taken while the question was up.
            name = getattr(asking.held_by, "name", "")
            log.info("kiosk: seat %d changed hands before the host's yes: not acted on", seat)
            self._after_refusal(asking, self._say("seat_changed", name=name))
            return
        try:
            match asking.what:
                case "kick" if seat is not None:
                    session.start_for_table(session.kick_async(HOST, seat))
                case "offer" if seat is not None:
                    session.start_for_table(session.offer_seat_async(HOST, seat))
                case "end":
                    session.start_for_table(session.end_match_async(HOST))
                case "restart":
                    self._set("closed")
                    self.on_restart()
                    return
        except SessionError as err:
            from appliance.table.messages import say

            log.info("kiosk: %s refused: %s", asking.what, err)
            self._after_refusal(asking, say(self.lang, err.key, str(err), **err.params))
            return
        self._set("closed")

    def _after_refusal(self, asking: Asking, message: str) -> None:
        # Back to the menu with the reason when asked from it (the PIN was typed); a ✕'s
        # question just closes (the menu was never opened).
        self._set("menu" if asking.from_menu else "closed", message if asking.from_menu else "")

    def decorate(self, view: Mapping[str, Any]) -> Mapping[str, Any]:
        """The kiosk's view with the host layer and the lobby's history step."""
        if self.state != "closed" and self.clock() - self.touched > IDLE_S:
            self.digits = ""
            self._set("closed")
        history = self.history(view) if self.history is not None else None
        layer = self.guard.enabled or self.state == "confirm"
        if not layer and history is None:
            return view
        # The sound's level is the host page's too: a change there redraws an open menu.
        level = self.sound.level if self.sound is not None and self.state == "menu" else None
        key = (self.rev, None if history is None else history.get("sig"),
               None if level is None else (level.volume, level.muted))
        cached = self._cache
        if cached is not None and cached[0] is view and cached[1] == key:
            return cached[2]
        out = dict(view)
        out["version"] = (view.get("version"), *key)
        if history is not None:
            out["history"] = history
        if layer:
            out["host_menu"] = self._layer(view)
        self._cache = (view, key, out)
        return out

    def _layer(self, view: Mapping[str, Any]) -> dict[str, Any]:
        if self.state == "pin":
            return {"state": "pin", "digits": len(self.digits), "message": self.message}
        if self.state == "menu":
            seats = [
                {"seat": s.get("seat"), "name": s.get("name")}
                for s in view.get("seats") or []
                if isinstance(s, Mapping)
            ]
            return {
                "state": "menu",
                "playing": view.get("phase") == "playing",
                "over": view.get("phase") == "over",
                "paused": self.session.paused,
                "seats": seats,
                "message": self.message,
                "sound": None if self.sound is None or not self.sound.level.enabled else {
                    "volume": self.sound.level.volume, "muted": self.sound.level.muted},
            }
        if self.state == "confirm" and self.asking is not None:
            # The name as asked (the seat may be emptied under the question); the game's
            # title for "End ArtBox now?".
            match = view.get("match")
            title = match.get("title") if isinstance(match, Mapping) else None
            return {
                "state": "confirm",
                "ask": self.asking.what,
                "seat": self.asking.seat,
                "name": str(getattr(self.asking.held_by, "name", "") or ""),
                "title": title if isinstance(title, str) else "",
                "playing": view.get("phase") == "playing",
            }
        return {"state": "closed"}
