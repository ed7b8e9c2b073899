"""ArtBox's word cards: enough of them, each distinct in English and in Czech, in the card
format (lowercase, trimmed, short, letters only), translated rather than copied, frozen."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest

from games.artbox_words import LANGUAGES, WORDS, UnknownLanguage, Word

MAX_LENGTH = 24
# Words of letters, joined by single spaces or hyphens: no digits, punctuation or doubled,
# leading or trailing blanks.
CARD = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
EN_LETTERS = set("abcdefghijklmnopqrstuvwxyz -")
CS_LETTERS = EN_LETTERS | set("áčďéěíňóřšťúůýž")


def test_at_least_the_printed_decks_hundred_cards() -> None:
    assert isinstance(WORDS, tuple)
    assert all(type(word) is Word for word in WORDS)
    assert len(WORDS) >= 100


def test_the_issues_examples_are_in_the_deck() -> None:
    english = {word.en for word in WORDS}
    for example in ("snowman", "house", "robot", "traffic light"):
        assert example in english


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_word_is_distinct_in_each_language(lang: str) -> None:
    counts = Counter(word.in_(lang).casefold() for word in WORDS)
    assert [text for text, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_format(lang: str) -> None:
    alphabet = EN_LETTERS if lang == "en" else CS_LETTERS
    for word in WORDS:
        text = word.in_(lang)
        assert text == text.strip(), word
        assert text == text.lower(), word
        assert 0 < len(text) <= MAX_LENGTH, word
        assert CARD.fullmatch(text), word
        assert set(text) <= alphabet, (word, set(text) - alphabet)


def test_czech_is_written_with_its_diacritics() -> None:
    # A deck typed without háčky and čárky would have none; this one has plenty.
    with_diacritics = [word for word in WORDS if set(word.cs) - EN_LETTERS]
    assert len(with_diacritics) >= len(WORDS) // 3
    for word, expected in (
        ("snowman", "sněhulák"),
        ("traffic light", "semafor"),
        ("ice cream cone", "kornout zmrzliny"),
    ):
        assert next(w.cs for w in WORDS if w.en == word) == expected


def test_english_and_czech_differ_for_most_words() -> None:
    # Cognates such as "robot" may be spelt alike; a deck mostly copied is untranslated.
    same = [word for word in WORDS if word.en.casefold() == word.cs.casefold()]
    assert len(same) <= len(WORDS) // 20, same


def test_in_gives_each_language_and_refuses_others() -> None:
    word = Word("house", "dům")
    assert (word.in_("en"), word.in_("cs")) == ("house", "dům")
    with pytest.raises(UnknownLanguage):
        word.in_("de")
    with pytest.raises(ValueError):
        word.in_("EN")


def test_word_is_frozen_and_hashable() -> None:
    word = WORDS[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        word.en = "changed"  # type: ignore[misc]
    assert word == Word(word.en, word.cs)
    assert len(set(WORDS)) == len(WORDS)
