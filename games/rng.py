"""Seeded randomness kept in the state, so that replaying a log rolls the same dice.

`Rng` is a value: every draw returns the result and the next `Rng`. Nothing in games/
uses the module-level `random` functions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Rng:
    seed: int
    draws: int = 0

    def _generator(self) -> random.Random:
        # A string seed is hashed with SHA-512 by random.Random: stable across processes
        # and Python versions, unlike hash().
        return random.Random(f"{self.seed}/{self.draws}")

    def randint(self, low: int, high: int) -> tuple[int, Rng]:
        """A whole number from low to high inclusive (a die is randint(1, 6))."""
        return self._generator().randint(low, high), Rng(self.seed, self.draws + 1)

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        return self._generator().choice(items), Rng(self.seed, self.draws + 1)

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        out = list(items)
        self._generator().shuffle(out)
        return tuple(out), Rng(self.seed, self.draws + 1)

    def sample(self, items: Sequence[T], k: int) -> tuple[tuple[T, ...], Rng]:
        return tuple(self._generator().sample(list(items), k)), Rng(self.seed, self.draws + 1)
