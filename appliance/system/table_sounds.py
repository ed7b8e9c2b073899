"""What the box says aloud, worked out from the kiosk's view and the clock.

Like the panel's lights (table_lights), the sounds follow the public table and nothing
else: the kiosk's view, which holds no seat's secret. `SoundCues` watches it and names
the events since its last look: the hourglass's last ten seconds (a tick each second),
its end, a reveal, a right guess, a player sitting down, the finish. The first look at
a match (a restart, a new game) says nothing: only what happens while watching sounds.
`SOUNDS` is what each event sounds like (drivers/speaker.py renders the notes);
`SoundLevel` is the volume, the mute and the owner's quiet hours.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from appliance.system.table_lights import REVEAL_KINDS, TIME_UP_KIND
from drivers.speaker import Note

SoundName = Literal["tick", "time_up", "reveal", "right", "join", "finish"]
TICK_FROM_S: Final = 10
"""The hourglass ticks through its last this many seconds."""

TICK_MIN_LENGTH_S: Final = 15
"""A shorter hourglass (a 10-second vote countdown) does not tick: it would tick all along."""

# Notes (start s, length s, Hz): C major, bright and short; nothing over 1.2 s.
C5, E5, G5, A5, C6, E6 = 523.25, 659.25, 783.99, 880.0, 1046.5, 1318.5
SOUNDS: Final[Mapping[str, tuple[Note, ...]]] = {
    # A soft wood-block tick.
    "tick": (Note(0.0, 0.06, 1760.0, 0.5), Note(0.0, 0.04, 880.0, 0.3)),
    # Three falling notes, as the panel's buzzer (table_lights.BUZZ) plays them.
    "time_up": (Note(0.0, 0.22, G5), Note(0.2, 0.22, E5), Note(0.4, 0.45, C5)),
    # A quick rising arpeggio: the cards turn.
    "reveal": (Note(0.0, 0.18, C5, 0.7), Note(0.07, 0.18, E5, 0.7),
               Note(0.14, 0.18, G5, 0.7), Note(0.21, 0.35, C6, 0.8)),
    # Ding-ding.
    "right": (Note(0.0, 0.15, E6, 0.7), Note(0.11, 0.4, A5 * 2, 0.8)),
    # A soft two-note hello.
    "join": (Note(0.0, 0.14, G5, 0.6), Note(0.1, 0.3, C6, 0.6)),
    # A small fanfare ending on a held chord.
    "finish": (Note(0.0, 0.16, C5), Note(0.15, 0.16, E5), Note(0.3, 0.16, G5),
               Note(0.45, 0.75, C6), Note(0.45, 0.75, G5, 0.6), Note(0.45, 0.75, E5, 0.5)),
}

_HOURS: Final = re.compile(r"([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)")


def quiet_hours_error(value: str) -> str | None:
    """None if `value` is empty or "HH:MM-HH:MM" (two different times), else what is."""
    match = _HOURS.fullmatch(value)
    if value == "" or (match and value[:5] != value[6:]):
        return None
    return 'empty (no quiet hours), or "HH:MM-HH:MM" in 24-hour time, e.g. "22:00-08:00"'


def in_quiet_hours(hours: str, minute_of_day: int) -> bool:
    """Is `minute_of_day` (0..1439, local time) inside `hours` ("22:00-08:00" wraps)?"""
    match = _HOURS.fullmatch(hours)
    if not match:
        return False
    start = int(match[1]) * 60 + int(match[2])
    end = int(match[3]) * 60 + int(match[4])
    if start < end:
        return start <= minute_of_day < end
    return minute_of_day >= start or minute_of_day < end


@dataclass(frozen=True)
class SoundLevel:
    """How loud the box is: `volume` 0..100, `muted` by the host, silent in `quiet_hours`
    (local time; "" for none). `enabled` false: the box has no voice at all."""

    enabled: bool = True
    volume: int = 70
    muted: bool = False
    quiet_hours: str = ""

    def quiet_at(self, now: float) -> bool:
        local = time.localtime(now)
        return in_quiet_hours(self.quiet_hours, local.tm_hour * 60 + local.tm_min)

    def gain_at(self, now: float) -> float:
        """The mixer's volume 0..1 at `now` (epoch seconds); 0 plays nothing."""
        if not self.enabled or self.muted or self.quiet_at(now):
            return 0.0
        return max(0, min(100, self.volume)) / 100

    def changed(self, volume: int | None = None, muted: bool | None = None) -> SoundLevel:
        return replace(
            self,
            volume=self.volume if volume is None else max(0, min(100, volume)),
            muted=self.muted if muted is None else muted,
        )

    def to_json(self, now: float) -> dict[str, Any]:
        return {"enabled": self.enabled, "volume": self.volume, "muted": self.muted,
                "quiet_hours": self.quiet_hours, "quiet_now": self.quiet_at(now)}


class SoundDial:
    """The box's one sound level, which the host page and the kiosk's host menu turn (until
    the box restarts; config's [sound] sets it at start)."""

    def __init__(self, level: SoundLevel) -> None:
        self.level = level

    def set(self, volume: int | None = None, muted: bool | None = None) -> SoundLevel:
        self.level = self.level.changed(volume, muted)
        return self.level


def _playing(view: Mapping[str, Any]) -> Mapping[str, Any]:
    match = view.get("match")
    return match if view.get("phase") == "playing" and isinstance(match, Mapping) else {}


def seconds_left(view: Mapping[str, Any], now: float) -> float | None:
    """The running hourglass' seconds left (not while paused), if it is long enough to
    tick; else None."""
    deadline = _playing(view).get("deadline")
    if not isinstance(deadline, Mapping):
        return None
    at, length = deadline.get("at"), deadline.get("length")
    if not isinstance(at, int | float) or not isinstance(length, int | float):
        return None
    if length < TICK_MIN_LENGTH_S:
        return None
    return max(0.0, at - now)


def right_guesses(view: Mapping[str, Any]) -> int:
    """Guesses found right so far in the public view of the match: Broad Lines' marked
    guesses, ArtBox's right guesses once shown, Duplik's criteria met."""
    match = view.get("match")
    state = match.get("state") if isinstance(match, Mapping) else None
    if not isinstance(state, Mapping):
        return 0
    count = 0
    guesses = state.get("guesses")
    if isinstance(guesses, list):
        count += sum(1 for g in guesses if isinstance(g, Mapping) and g.get("right") is True)
    guessed = state.get("guessed")
    if isinstance(guessed, Mapping):
        count += sum(v for v in guessed.values() if type(v) is int)
    results = state.get("results")
    if isinstance(results, list):
        count += sum(1 for r in results if isinstance(r, Mapping)
                     for v in r.values() if v is True)
    return count


def _seat_numbers(view: Mapping[str, Any]) -> frozenset[int]:
    seats = view.get("seats")
    if not isinstance(seats, list):
        return frozenset()
    return frozenset(s["seat"] for s in seats if isinstance(s, Mapping)
                     and type(s.get("seat")) is int)


@dataclass
class SoundCues:
    """Follows the kiosk's view: `events` names what sounded since the last look."""

    seen_view: object = None
    seen_match: object = None
    seen_seq: int | None = None
    seen_phase: object = None
    seen_seats: frozenset[int] | None = None
    seen_rights: int = 0
    last_tick: int | None = None

    def events(self, view: Mapping[str, Any], now: float) -> list[SoundName]:
        out: list[SoundName] = []
        if view is not self.seen_view:
            out += self._changes(view)
            self.seen_view = view
        left = seconds_left(view, now)
        if left is None:
            self.last_tick = None
        else:
            # One tick as each of the last TICK_FROM_S seconds begins (9.3 s left is in
            # the tenth-to-last); a second seen already, or sand turned back, is silent.
            whole = int(-(-left // 1))
            if 1 <= whole <= TICK_FROM_S and (self.last_tick is None or whole < self.last_tick):
                out.append("tick")
            self.last_tick = whole
        return out

    def _changes(self, view: Mapping[str, Any]) -> list[SoundName]:
        out: list[SoundName] = []
        phase = view.get("phase")
        match = view.get("match")
        match_id = match.get("id") if isinstance(match, Mapping) else None
        seats = _seat_numbers(view)
        if self.seen_seats is not None and seats - self.seen_seats:
            out.append("join")
        self.seen_seats = seats
        same = match_id is not None and match_id == self.seen_match
        rights = right_guesses(view)
        if same and rights > self.seen_rights:
            out.append("right")
        self.seen_rights = rights
        cue = _playing(view).get("cue")
        seq = cue.get("seq") if isinstance(cue, Mapping) else None
        if same and isinstance(seq, int) and self.seen_seq is not None and seq > self.seen_seq:
            kind = cue.get("kind") if isinstance(cue, Mapping) else None
            if kind in REVEAL_KINDS:
                out.append("reveal")
            elif kind == TIME_UP_KIND:
                out.append("time_up")
        if isinstance(seq, int) or not same:
            self.seen_seq = seq if isinstance(seq, int) else None
        if same and self.seen_phase == "playing" and phase in ("over", "finished"):
            out.append("finish")
        self.seen_phase, self.seen_match = phase, match_id
        return out
