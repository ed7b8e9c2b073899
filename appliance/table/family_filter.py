"""The family filter: is a typed text (a player's name, a typed guess) fit for a family table?

Word lists live beside this module, one per language (filter_words/en.txt, cs.txt); both
are checked whatever the table's language, since a rude English word is as rude on a
Czech table. A text is folded before it is compared: case, accents ("kretén" = "kreten")
and simple l33t spelling ("sh1t", "$hit", "f.u.c.k") do not hide a word. Matching is by
whole words, so "Scunthorpe" or "class" pass; an entry ending in `*` also blocks the
words that start with it ("fuck*" blocks "fucking"). The lists are short on purpose: the
filter is a courtesy to families, not a censor, and the table can switch it off
(`[table] family_filter`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

WORDS_DIR: Final = Path(__file__).parent / "filter_words"
LANGUAGES: Final = ("en", "cs")

# Digits and symbols people use for letters. Applied only inside a word, so "2 cats"
# stays "2 cats" (a lone digit is not a word of the list anyway).
_LEET: Final = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
     "@": "a", "$": "s", "!": "i", "|": "i", "€": "e", "+": "t"}
)
_WORD: Final = re.compile(r"[a-z0-9@$!|€+]+")
# Letters split by single dots, dashes, stars or spaces ("f.u.c.k", "s h i t").
_SPACED: Final = re.compile(
    r"(?<![a-z0-9])(?:[a-z0-9@$!|€+][ ._*\-]){2,}[a-z0-9@$!|€+](?![a-z0-9])"
)


def fold(text: str) -> str:
    """Lower case, no accents (NFKD without combining marks), ß as ss."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class WordList:
    """Blocked words of one or more languages: exact words and word beginnings."""

    exact: frozenset[str]
    prefixes: tuple[str, ...]

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> WordList:
        exact: set[str] = set()
        prefixes: set[str] = set()
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            word = fold(line)
            if word.endswith("*"):
                prefixes.add(word[:-1])
            else:
                exact.add(word)
        return cls(frozenset(exact), tuple(sorted(prefixes)))

    def __add__(self, other: WordList) -> WordList:
        return WordList(self.exact | other.exact, tuple(sorted({*self.prefixes, *other.prefixes})))

    def blocks_word(self, word: str) -> bool:
        return word in self.exact or any(word.startswith(p) for p in self.prefixes)


@cache
def word_list(lang: str) -> WordList:
    """The list shipped for `lang` ("en" or "cs")."""
    if lang not in LANGUAGES:
        raise ValueError(f"no family filter list for {lang!r}; there are {', '.join(LANGUAGES)}")
    path = WORDS_DIR / f"{lang}.txt"
    return WordList.from_lines(path.read_text(encoding="utf-8").splitlines())


@cache
def all_lists() -> WordList:
    lists = [word_list(lang) for lang in LANGUAGES]
    combined = lists[0]
    for more in lists[1:]:
        combined = combined + more
    return combined


def candidates(text: str) -> list[str]:
    """The words of `text` as the filter compares them (folded, de-l33ted, joined up)."""
    folded = fold(text)
    words = _WORD.findall(folded)
    # "!" or "$" at a word's edge is punctuation far more often than a letter.
    found = [w.translate(_LEET) for w in words]
    found += [e.translate(_LEET) for w in words if (e := w.strip("@$!|€+")) and e != w]
    # Keep the plain form too: "a55" reads as "ass", but "b2b" should not become "bb".
    found += [w for w in words if not w.isalpha()]
    for spaced in _SPACED.findall(folded):
        found.append(re.sub(r"[ ._*\-]", "", spaced).translate(_LEET))
    return found


def blocked_word(text: str, words: WordList | None = None) -> str | None:
    """The first blocked word in `text` (folded), or None when the text is fine."""
    words = words or all_lists()
    for candidate in candidates(text):
        if words.blocks_word(candidate):
            return candidate
    return None


def is_family_friendly(text: str, words: WordList | None = None) -> bool:
    return blocked_word(text, words) is None
