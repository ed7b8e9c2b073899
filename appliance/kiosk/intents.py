"""What the kiosk asks the box to do: small immutable values made from taps, clicks and keys.

The kiosk never changes the session itself. A tap on a rendered button or a development
key becomes one of these intents; the lead's wiring turns them into session actions
(the kiosk acts as the host at the table) or into table-button presses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ButtonName = Literal["hourglass", "die", "reveal"]


@dataclass(frozen=True)
class KickSeat:
    """The host at the kiosk frees `seat` (the ✕ on a seat card in the lobby)."""

    seat: int


@dataclass(frozen=True)
class SelectGame:
    """The host at the kiosk picks the game the lobby will start."""

    game: str


@dataclass(frozen=True)
class StartGame:
    """The host at the kiosk starts the selected game with the seated players."""


@dataclass(frozen=True)
class PressButton:
    """One of the table's physical buttons; keys H, D, R (Shift+H = long press) stand in."""

    button: ButtonName
    long: bool = False


@dataclass(frozen=True)
class Quit:
    """Escape or the window's close button: the operator wants the kiosk to stop."""


Intent = KickSeat | SelectGame | StartGame | PressButton | Quit

__all__ = ["ButtonName", "Intent", "KickSeat", "PressButton", "Quit", "SelectGame", "StartGame"]
