"""A game's decks as a pack may fill them: their shape, their built-in cards, their texts.

A deck's key is both the pack's key (docs/packs.md) and the start option that carries the
deck to the game's rules. A game names its decks in its house (games/house.py); the pack
reader (games/packs.py) checks a file against their shapes and the appliance turns the
packs into start options with `Deck.to_options`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

MAX_TEXT: Final = 40


@dataclass(frozen=True)
class Text:
    """One entry: the same thing in English and Czech."""

    en: str
    cs: str

    def to_json(self) -> list[str]:
        return [self.en, self.cs]


Card = tuple[Text, ...]


class HasTexts(Protocol):
    """A game's own word or text class: anything with an English and a Czech text."""

    @property
    def en(self) -> str: ...

    @property
    def cs(self) -> str: ...


def texts(*words: HasTexts) -> Card:
    """A card of the game's own words (Word, Text...) as pack texts."""
    return tuple(Text(w.en, w.cs) for w in words)


@dataclass(frozen=True)
class DeckShape:
    """One deck of a game a pack may fill: entries one by one, or cards of `per_card`.

    `card` and `part` are what a problem calls a card and one entry on it ("card 3,
    word 2"), so the owner reads the game's own words; a deck of single entries names
    them by its key ("words entry 3")."""

    key: str
    per_card: int = 1
    minimum: int = 1  # entries (or cards) a pack must give to *replace* the deck
    max_text: int = MAX_TEXT
    card: str = "card"
    part: str = "entry"
    why: str = ""  # said after "a card has n ...": why that many

    def label(self, n: int) -> str:
        return f"{self.key} entry {n}" if self.per_card == 1 else f"{self.card} {n}"


@dataclass(frozen=True)
class Deck:
    """A deck a pack may extend or replace: its shape and the game's built-in cards.

    A deck of single entries (`per_card` 1) travels as an option of [English, Czech]
    pairs; a deck of cards as a list of cards, each a list of such pairs."""

    shape: DeckShape
    built_in: Callable[[], tuple[Card, ...]]

    @property
    def key(self) -> str:
        return self.shape.key

    def to_options(self, cards: Sequence[Card]) -> dict[str, Any]:
        if self.shape.per_card == 1:
            return {self.key: [card[0].to_json() for card in cards]}
        return {self.key: [[text.to_json() for text in card] for card in cards]}
