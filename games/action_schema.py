"""What a move may carry: the vocabulary each game's `<game>_actions.py` declares its
moves in, as plain data beside its rules.

A game lists, for every kind of move a phone may send, the fields of its `data` and
what each may hold (`ACTIONS: ActionSchemas`). The box (appliance/door/action_check.py) turns
that into checks that run before the session or the rules see a move: a field the game
did not declare is refused, every number, string and list is bounded, and a kind the
game does not list may carry no data at all. The rules still judge what the move means.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.sheet import SHEET_HEIGHT, SHEET_WIDTH
from games.strokes import MARGIN, MAX_POINTS, WIDTHS


@dataclass(frozen=True)
class Int:
    """A whole number from `low` to `high` (booleans are not numbers here)."""

    low: int
    high: int


@dataclass(frozen=True)
class Bool:
    """true or false."""


@dataclass(frozen=True)
class Text:
    """A string of `min_length` to `max_length` characters."""

    max_length: int
    min_length: int = 0


@dataclass(frozen=True)
class OneOf:
    """One of a few strings."""

    options: tuple[str, ...]


@dataclass(frozen=True)
class Colour:
    """#rrggbb."""


@dataclass(frozen=True)
class Points:
    """A stroke's points: 1 to `max_points` of [x, y, t], each bounded."""

    max_points: int = MAX_POINTS
    x: tuple[int, int] = (-MARGIN, SHEET_WIDTH + MARGIN)
    y: tuple[int, int] = (-MARGIN, SHEET_HEIGHT + MARGIN)
    t: tuple[int, int] = (0, 3_600_000)


Value = Int | Bool | Text | OneOf | Colour | Points


@dataclass(frozen=True)
class Field:
    """One field of a move's data; `required` fields must be there."""

    value: Value
    required: bool = True


ActionSchema = Mapping[str, Field]
"""The fields of one kind of move."""
ActionSchemas = Mapping[str, ActionSchema]
"""Every kind of move a game takes from a phone, with its fields."""

NOTHING: ActionSchema = {}
"""A move that carries no data (roll, undo, next, ...)."""

STROKE: ActionSchema = {
    "points": Field(Points()),
    "colour": Field(Colour(), required=False),
    "width": Field(Int(*WIDTHS), required=False),
}
"""A drawn line, as games/strokes.py takes it."""

SEAT = Int(0, 63)
"""A seat number (the rules check that someone sits there)."""
