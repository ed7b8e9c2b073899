"""What the kiosk asks the box to do: small immutable values made from taps, clicks, keys and
remote keys (appliance/kiosk/focus.py, drivers/remote.py).

The kiosk never changes the session itself. A tap on a rendered button or a development
key becomes one of these intents; the lead's wiring turns them into session actions
(the kiosk acts as the host at the table) or into table-button presses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

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
class FinishChoice:
    """On a game's finish (phase "over"): back to the lobby, or `again`: the same game anew."""

    again: bool = False


@dataclass(frozen=True)
class PressButton:
    """One of the table's physical buttons; keys H, D, R (Shift+H = long press) stand in."""

    button: ButtonName
    long: bool = False


@dataclass(frozen=True)
class ActAs:
    """A kiosk button that acts for a seat playing at the table's own screen (e.g. the
    Artist drawing on the touch panel taps "place the sheet"): `session.act(seat, kind,
    data)`. Game screens add these as targets; the game decides whether the move is legal."""

    seat: int | None
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CanvasSpec:
    """A drawing area on the kiosk: strokes drawn in it (touch panel, or mouse drag on a
    desktop) become `session.act(seat, kind, {"points", "colour", "width"})`, the same
    stroke message a phone sends (games/strokes.py), in sheet units (games/sheet.py)."""

    seat: int
    kind: str = "stroke"
    colour: str = "#202020"
    width: int = 8


@dataclass(frozen=True)
class DrawStroke:
    """A finished stroke drawn on a kiosk canvas: points [x, y, t] in sheet units, t in
    milliseconds from the stroke's first point."""

    canvas: CanvasSpec
    points: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Quit:
    """The window's close button: the operator wants the kiosk to stop. No key quits: a
    keyboard's Escape, like a remote's Back, is `Back`."""


@dataclass(frozen=True)
class Back:
    """Back on a remote, B on a gamepad, Escape: one step back (closes the PIN pad or the
    host menu); never quits the appliance."""


@dataclass(frozen=True)
class TogglePause:
    """Play/pause on a remote (Start on a gamepad, P): the host pauses or resumes the game;
    the kiosk may always host, as its other table buttons do."""


HOST_HOLD_S = 2.0
"""How long the top-left corner must be held to ask for the host PIN."""


@dataclass(frozen=True)
class HostCorner:
    """The top-left corner held for HOST_HOLD_S: the host wants the PIN pad."""


@dataclass(frozen=True)
class PinKey:
    """A key of the kiosk's PIN pad: "0"-"9", "back", "ok" or "cancel"."""

    key: str


@dataclass(frozen=True)
class HostChoice:
    """A button of the kiosk's host menu: pause, resume, end, kick, offer, restart, close."""

    what: str
    seat: int | None = None


@dataclass(frozen=True)
class SitDown:
    """A free seat in the lobby chosen on the kiosk: someone without a phone sits at the
    table (appliance/door/kiosk_seat.py opens the seat pad)."""


@dataclass(frozen=True)
class SeatPadKey:
    """A key of the kiosk's seat pad: `what` is "letter" (with `value`), "space",
    "back", "colour" (with `value`, '#rrggbb'), "sit" or "cancel"."""

    what: str
    value: str = ""


Intent = (
    KickSeat | SelectGame | StartGame | FinishChoice | PressButton | ActAs | DrawStroke | Quit
    | HostCorner | PinKey | HostChoice | Back | TogglePause | SitDown | SeatPadKey
)

__all__ = [
    "ActAs",
    "Back",
    "ButtonName",
    "CanvasSpec",
    "DrawStroke",
    "FinishChoice",
    "HostChoice",
    "HostCorner",
    "Intent",
    "KickSeat",
    "PinKey",
    "PressButton",
    "Quit",
    "SeatPadKey",
    "SelectGame",
    "SitDown",
    "StartGame",
    "TogglePause",
]
