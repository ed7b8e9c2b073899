"""A game's declared moves (games/<game>_actions.py) as msgspec checks for the server.

Each kind of move becomes a msgspec Struct that forbids unknown fields and bounds every
number, string and list, so what a phone's `act` carries is checked in C before the
session, the rules or the log see it; a kind the game does not declare may carry
nothing. The checked data comes back as plain JSON values for `Session.act`.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

import msgspec
import msgspec.structs

from games import registry
from games.action_schema import ActionSchema, Bool, Colour, Int, OneOf, Points, Text, Value


class InvalidMove(ValueError):
    """The move's data does not fit its game's declaration; the message names the field."""


def _type(value: Value) -> Any:
    match value:
        case Int(low=low, high=high):
            return Annotated[int, msgspec.Meta(ge=low, le=high)]
        case Bool():
            return bool
        case Text(max_length=most, min_length=least):
            return Annotated[str, msgspec.Meta(min_length=least, max_length=most)]
        case OneOf(options=options):
            return Annotated[str, msgspec.Meta(pattern="^(" + "|".join(options) + ")$")]
        case Colour():
            return Annotated[str, msgspec.Meta(pattern="^#[0-9a-fA-F]{6}$")]
        case Points(max_points=most, x=x, y=y, t=t):
            point = tuple[
                Annotated[int, msgspec.Meta(ge=x[0], le=x[1])],
                Annotated[int, msgspec.Meta(ge=y[0], le=y[1])],
                Annotated[int, msgspec.Meta(ge=t[0], le=t[1])],
            ]
            return Annotated[list[point], msgspec.Meta(min_length=1, max_length=most)]
    raise TypeError(f"no check for {value!r}")


def _struct(name: str, schema: ActionSchema) -> type[msgspec.Struct]:
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for key, declared in sorted(schema.items(), key=lambda kv: not kv[1].required):
        kind = _type(declared.value)
        fields.append((key, kind) if declared.required else (key, kind | None, None))
    return msgspec.defstruct(name, fields, forbid_unknown_fields=True, omit_defaults=True)


_NOTHING = _struct("nothing", {})


@functools.cache
def _decoders(
    game: str,
) -> dict[str, tuple[msgspec.json.Decoder[Any], frozenset[str]]] | None:
    """Per kind: its decoder, and its fields that are a stroke's points."""
    schemas = registry.action_schemas(game)
    if schemas is None:
        return None
    return {
        kind: (
            msgspec.json.Decoder(_struct(f"{game}:{kind}", schema)),
            frozenset(k for k, f in schema.items() if isinstance(f.value, Points)),
        )
        for kind, schema in schemas.items()
    }


def check_move(game: str, kind: str, raw: bytes) -> dict[str, Any]:
    """The data of a `kind` move of `game`, checked; raises InvalidMove naming the field."""
    decoders = _decoders(game)
    if decoders is None:  # no declaration (no game runs, or a game without one)
        try:
            data: dict[str, Any] = _plain.decode(raw)
        except msgspec.ValidationError as err:
            raise InvalidMove(f"{kind}: {err}".replace("`$", "`$.data")) from None
        return data
    decoder, points = decoders.get(kind) or (_NOTHING_DECODER, frozenset())
    try:
        move = decoder.decode(raw)
    except msgspec.ValidationError as err:
        detail = str(err).replace("`$", "`$.data")
        if "`$" not in detail:
            detail += " - at `$.data`"
        raise InvalidMove(f"{kind}: {detail}") from None
    # Checked, and decoded once: as the plain JSON values the rules take (a point is
    # decoded as a tuple, for its per-axis bounds; the rules want a list).
    checked: dict[str, Any] = {}
    for key, value in msgspec.structs.asdict(move).items():
        if value is None:
            continue  # an optional field the phone left out
        checked[key] = [list(p) for p in value] if key in points else value
    return checked


_NOTHING_DECODER = msgspec.json.Decoder(_NOTHING)
_plain = msgspec.json.Decoder(dict[str, Any])
