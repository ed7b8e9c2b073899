"""The word-form capability: the box's opinion of a typed guess as a card's word.

A game whose players type guesses at a word (Broad Lines' Art Critic) may want more than
the same letters: "lighthouses" or "majáček" for the card's lighthouse. Telling forms of a
word apart needs a stemmer, which games/ may not import (standard library only), so a
game declares in its house that it wants `WORD_FORMS` and the box provides a
`WordForms` function (appliance/table/guess_match.py) through `registry.provide`. The rules
alone fall back on `folded_match`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Final, Literal, Protocol

WORD_FORMS: Final = "word_forms"
"""The capability's name in a house's `wants`."""

Opinion = Literal["match", "close", "no"]
""""match": the word, maybe in another form; "close": a shared stem or a typo (the players
look twice); "no"."""


class Worded(Protocol):
    """A card's word, in English and in Czech."""

    @property
    def en(self) -> str: ...

    @property
    def cs(self) -> str: ...


WordForms = Callable[[str, Worded], Opinion]
"""(the typed guess, the card's word) -> the box's opinion."""


def fold(text: str) -> str:
    """Case and diacritics folded, spaces and hyphens evened: "Žirafa " -> "zirafa"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.replace("-", " ").split())


def folded_match(guess: str, word: Worded) -> Opinion:
    """Without the box's help: the same letters in either language, or not."""
    return "match" if fold(guess) in (fold(word.en), fold(word.cs)) else "no"
