"""Broad Lines' word cards: at least the printed deck's 91 cards of 6 words, each word in
English and Czech, distinct, in the card format, translated, and mixed on every card."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.broad_lines_words import CARDS, LANGUAGES, WORDS_PER_CARD, Word

MAX_LENGTH = 24
CARD = re.compile(r"[^\W\d_]+(?:[ -][^\W\d_]+)*")
EN_LETTERS = set("abcdefghijklmnopqrstuvwxyz -")
CS_LETTERS = EN_LETTERS | set("áčďéěíňóřšťúůýž")
WORDS = [word for card in CARDS for word in card]


def test_at_least_the_printed_decks_91_cards_of_6_words() -> None:
    assert isinstance(CARDS, tuple)
    assert len(CARDS) >= 91
    assert WORDS_PER_CARD == 6
    for card in CARDS:
        assert isinstance(card, tuple) and len(card) == WORDS_PER_CARD
        assert all(type(word) is Word for word in card)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_word_twice_in_either_language(lang: str) -> None:
    counts = Counter(word.in_(lang).casefold() for word in WORDS)
    assert [text for text, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_format(lang: str) -> None:
    alphabet = EN_LETTERS if lang == "en" else CS_LETTERS
    for word in WORDS:
        text = word.in_(lang)
        assert text == text.strip() == text.lower(), word
        assert 0 < len(text) <= MAX_LENGTH, word
        assert CARD.fullmatch(text), word
        assert set(text) <= alphabet, (word, set(text) - alphabet)


def test_czech_is_written_with_its_diacritics() -> None:
    with_diacritics = [word for word in WORDS if set(word.cs) - EN_LETTERS]
    assert len(with_diacritics) >= len(WORDS) // 3
    for english, czech in (("ostrich", "pštros"), ("house", "dům"), ("snowman", "sněhulák")):
        assert next(w.cs for w in WORDS if w.en == english) == czech


def test_english_and_czech_differ_for_most_words() -> None:
    same = [word for word in WORDS if word.en == word.cs]
    assert len(same) <= len(WORDS) // 50, same


def test_the_rules_example_is_in_the_deck() -> None:
    """The rulebook's examples: "Ostrich" and "House"."""
    english = {word.en for word in WORDS}
    assert {"ostrich", "house"} <= english


def test_every_card_mixes_easy_and_hard_words() -> None:
    """Each card holds one word of each of the six groups (the data file's doc): a short
    everyday word and a longer or rarer one side by side."""
    for card in CARDS:
        lengths = sorted(len(word.en) for word in card)
        assert lengths[0] <= 7, card
        assert lengths[-1] >= 6, card


def test_words_are_family_safe() -> None:
    unsafe = {"gun", "knife", "sword", "blood", "beer", "wine", "cigarette", "skull", "bomb"}
    assert not unsafe & {word.en for word in WORDS}
