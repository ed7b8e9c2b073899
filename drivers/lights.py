"""What the table's panel shows and which buttons it has, as plain values.

Kept apart from `drivers.panel` so that what works out the lights (the appliance's
table_lights) loads no GPIO library: a box with `[panel] enabled = false` never imports
gpiozero (about 4 MB on the Pi).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

ButtonName = Literal["hourglass", "die", "reveal"]
BUTTONS: Final[tuple[ButtonName, ...]] = ("hourglass", "die", "reveal")


@dataclass(frozen=True)
class Lights:
    """Everything the panel shows at one moment.

    `bar`: how much of the bar graph is lit, 0..1 (the last lit LED glows by its fraction);
    `buttons`: brightness 0..1 of the LED in each button, in BUTTONS order;
    `tone`: the buzzer sounds at this frequency in Hz (an on/off buzzer just sounds), or None.
    """

    bar: float = 0.0
    buttons: tuple[float, float, float] = (0.0, 0.0, 0.0)
    tone: float | None = None


DARK: Final = Lights()
