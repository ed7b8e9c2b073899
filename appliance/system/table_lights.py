"""What the panel's LEDs and buzzer show, worked out from the kiosk's view and the clock.

The lights follow the game, never the other way round: the bar graph drains with the
running hourglass, the LED of each button that does something now pulses, a reveal
(REVEAL pressed, or a phone's reveal) plays a short sweep, and time running out sounds
the buzzer. `LightShow` remembers when those two cues began; `lights_at` is the pure
picture at one moment, so tests step an injected clock through it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from drivers.lights import BUTTONS, DARK, Lights

PULSE_S: Final = 1.6
"""One breath of a waiting button's LED."""

REVEAL_S: Final = 1.5
"""The reveal sweep: the bar fills and empties while the button LEDs blink."""

REVEAL_KINDS: Final = frozenset({"reveal", "press_reveal"})
TIME_UP_KIND: Final = "time_up"

BUZZ: Final = ((0.0, 0.25, 880.0), (0.35, 0.6, 660.0), (0.7, 1.2, 440.0))
"""Time up: three falling beeps (start s, end s, Hz); an on/off buzzer just beeps."""


def _match(view: Mapping[str, Any]) -> Mapping[str, Any]:
    match = view.get("match")
    return match if view.get("phase") == "playing" and isinstance(match, Mapping) else {}


def hourglass_left(view: Mapping[str, Any], now: float) -> float | None:
    """The running hourglass' fraction left (1 = just turned), or None."""
    deadline = _match(view).get("deadline")
    if not isinstance(deadline, Mapping):
        return None
    at, length = deadline.get("at"), deadline.get("length")
    if not isinstance(at, int | float) or not isinstance(length, int | float) or length <= 0:
        return None
    return min(max((at - now) / length, 0.0), 1.0)


def lights_at(
    view: Mapping[str, Any],
    now: float,
    reveal_at: float | None = None,
    buzz_at: float | None = None,
) -> Lights:
    """The panel at `now` (the session's clock) for `view`, with the cues' start times."""
    tone = None
    if buzz_at is not None:
        t = now - buzz_at
        tone = next((hz for start, end, hz in BUZZ if start <= t < end), None)
    if reveal_at is not None and 0.0 <= now - reveal_at < REVEAL_S:
        t = now - reveal_at
        half = REVEAL_S / 2
        bar = t / half if t < half else 2.0 - t / half
        blink = 1.0 if int(t * 8) % 2 == 0 else 0.0
        return Lights(bar, (blink, blink, blink), tone)
    match = _match(view)
    waiting = match.get("buttons")
    waiting = set(waiting) if isinstance(waiting, list) else set()
    breath = 0.1 + 0.9 * (0.5 - 0.5 * math.cos(2 * math.pi * now / PULSE_S))
    left = hourglass_left(view, now)
    buttons = tuple(breath if name in waiting else 0.0 for name in BUTTONS)
    lights = Lights(0.0 if left is None else left, (buttons[0], buttons[1], buttons[2]), tone)
    return DARK if lights == DARK else lights


@dataclass
class LightShow:
    """Follows the kiosk's view: notices new cues and gives the panel's picture."""

    seen_seq: int | None = None
    seen_match: object = None
    reveal_at: float | None = None
    buzz_at: float | None = None

    def lights(self, view: Mapping[str, Any], now: float) -> Lights:
        match = _match(view)
        cue = match.get("cue")
        if isinstance(cue, Mapping) and isinstance(cue.get("seq"), int):
            seq = cue["seq"]
            # The first look at a match (a restart, a new game) plays nothing: only moves
            # made while watching flash or buzz.
            if match.get("id") == self.seen_match and self.seen_seq is not None:
                if seq > self.seen_seq and cue.get("kind") in REVEAL_KINDS:
                    self.reveal_at = now
                if seq > self.seen_seq and cue.get("kind") == TIME_UP_KIND:
                    self.buzz_at = now
            self.seen_seq, self.seen_match = seq, match.get("id")
        return lights_at(view, now, self.reveal_at, self.buzz_at)
