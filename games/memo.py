"""A value made once from immutable parts and shared while those same parts come again.

A finished game's art show is the same for every seat and every view of one finished
state; made per view, the whole game's strokes would be converted once per phone. The
rules keep it here, keyed by the identity of the parts it was made from: holding the parts
keeps their ids unique while the entry lives, and a few entries are enough (one finish is
shown at a time).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class SameParts(Generic[V]):
    """`made(parts, make)`: `make()`'s value, made again only for other parts."""

    def __init__(self, keep: int = 4) -> None:
        self._keep = keep
        self._made: dict[tuple[int, ...], tuple[tuple[object, ...], V]] = {}

    def made(self, parts: tuple[object, ...], make: Callable[[], V]) -> V:
        key = tuple(id(p) for p in parts)
        hit = self._made.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], parts, strict=True)):
            return hit[1]
        value = make()
        if len(self._made) >= self._keep:
            self._made.clear()
        self._made[key] = (parts, value)
        return value
