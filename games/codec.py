"""JSON for frozen dataclass states: `to_jsonable(value)` and `from_jsonable(type, raw)`.

Games keep their state as frozen dataclasses of ints, floats, strs, bools, None, tuples,
frozensets, Mappings and other such dataclasses. This turns one into plain JSON and back,
guided by the type hints, so every game gets its `to_json`/`from_json` for free and the
round trip is checked once, here.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")


class CodecError(ValueError):
    """The JSON does not fit the type it should decode to."""


_PLAIN = frozenset({int, float, str, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    if type(value) in _PLAIN:  # most of a state: answer these first
        return value
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted((to_jsonable(v) for v in value), key=repr)
    if isinstance(value, Mapping):
        # JSON keys are strings: keep the keys' types by writing pairs.
        return [[to_jsonable(k), to_jsonable(v)] for k, v in value.items()]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise CodecError(f"cannot write {type(value).__name__} as JSON")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, raw: Any) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return raw
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(raw, dict):
            raise CodecError(f"{tp.__name__} wants an object, got {type(raw).__name__}")
        hints = _hints(tp)
        kwargs = {
            f.name: from_jsonable(hints[f.name], raw[f.name])
            for f in dataclasses.fields(tp)
            if f.name in raw
        }
        return tp(**kwargs)
    if origin in (Union, types.UnionType):
        last: Exception | None = None
        for option in get_args(tp):
            try:
                return from_jsonable(option, raw)
            except (CodecError, TypeError, KeyError) as err:
                last = err
        raise CodecError(f"{raw!r} fits none of {tp}") from last
    if origin is typing.Literal:
        if raw not in get_args(tp):
            raise CodecError(f"{raw!r} is not one of {get_args(tp)}")
        return raw
    if origin is tuple:
        args = get_args(tp)
        if not isinstance(raw, list):
            raise CodecError(f"wanted a list, got {type(raw).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], v) for v in raw)
        return tuple(from_jsonable(a, v) for a, v in zip(args, raw, strict=True))
    if origin is frozenset:
        (item,) = get_args(tp)
        return frozenset(from_jsonable(item, v) for v in raw)
    if origin in (dict, Mapping):
        key_tp, value_tp = get_args(tp)
        return types.MappingProxyType(
            {from_jsonable(key_tp, k): from_jsonable(value_tp, v) for k, v in raw}
        )
    if tp is type(None):
        if raw is not None:
            raise CodecError(f"wanted null, got {raw!r}")
        return None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(raw)
    if tp is float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise CodecError(f"wanted a number, got {raw!r}")
        return float(raw)
    if tp in (int, str, bool):
        if type(raw) is not tp:
            raise CodecError(f"wanted {tp.__name__}, got {raw!r}")
        return raw
    raise CodecError(f"cannot read {tp!r} from JSON")


def decode(tp: type[T], raw: Any) -> T:
    """`from_jsonable` with the result typed as `tp`."""
    result: T = from_jsonable(tp, raw)
    return result


def drop_unset(raw: dict[str, Any], **unset: Any) -> dict[str, Any]:
    """`raw` without the fields that hold their unset value (decoding gives them back as
    their defaults): a field added later leaves the JSON of a state as it was."""
    for name, value in unset.items():
        if name in raw and raw[name] == value:
            del raw[name]
    return raw
