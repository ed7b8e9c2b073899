"""The box's opinion of a typed Broad Lines guess: word forms count, other words do not."""

from __future__ import annotations

import pytest

from appliance import guess_match
from appliance.guess_match import is_form_of, opinion
from games import registry
from games.broad_lines import folded_match
from games.broad_lines_words import CARDS, Word

OSTRICH = Word("ostrich", "pštros")


@pytest.mark.parametrize(
    ("guess", "word"),
    [
        ("Ostrich", OSTRICH),
        ("PŠTROS", OSTRICH),
        ("pstros", OSTRICH),  # typed without diacritics
        ("ostriches", OSTRICH),  # number
        ("pštrosi", OSTRICH),
        ("domy", Word("house", "dům")),  # ů alternates with o
        ("domeček", Word("house", "dům")),  # diminutive
        ("kočička", Word("cat", "kočka")),
        ("kocky", Word("cat", "kočka")),
        ("ptáček", Word("bird", "pták")),  # k softens to č
        ("koníček", Word("horse", "kůň")),
        ("koně", Word("horse", "kůň")),
        ("učitelka", Word("teacher", "učitel")),  # gender
        ("lioness", Word("lion", "lev")),
        ("waitress", Word("waiter", "číšník")),
        ("psisko", Word("dog", "pes")),  # augmentative
        ("doggy", Word("dog", "pes")),
        ("mice", Word("mouse", "myš")),  # irregular plural
        ("leaves", Word("leaf", "list")),
        ("knížka", Word("book", "kniha")),
        ("Polar Bears", Word("polar bear", "lední medvěd")),
        ("lední medvědi", Word("polar bear", "lední medvěd")),
        ("girafe", Word("giraffe", "žirafa")),  # a typo the stems forgive
    ],
)
def test_forms_of_the_word_match(guess: str, word: Word) -> None:
    assert opinion(guess, word) == "match"


@pytest.mark.parametrize(
    ("guess", "word"),
    [
        ("bear", Word("polar bear", "lední medvěd")),  # part of it
        ("elefant", Word("elephant", "slon")),  # a typo
        ("královna", Word("king", "král")),
        ("fish", Word("fishing", "rybaření")),  # an activity is not its thing
        ("hrnek", Word("pot", "hrnec")),  # mug and pot: one letter apart, the Artists decide
    ],
)
def test_near_misses_are_close(guess: str, word: Word) -> None:
    assert opinion(guess, word) == "close"


@pytest.mark.parametrize(
    ("guess", "word"),
    [
        ("mountain", Word("house", "dům")),
        ("triangle", Word("house", "dům")),
        ("", OSTRICH),
        ("!!", OSTRICH),
        ("kitten", Word("cat", "kočka")),  # another word, not a form
    ],
)
def test_other_words_do_not(guess: str, word: Word) -> None:
    assert opinion(guess, word) == "no"


def test_no_word_on_a_card_is_a_form_of_another() -> None:
    """Else the box would call a guess of word 2 right when word 5 was chosen."""
    clashes = [
        (text, other)
        for card in CARDS
        for word in card
        for other in card
        if other != word
        for text in (word.en, word.cs)
        if is_form_of(text, other)
    ]
    assert clashes == []


def test_the_rules_alone_fold_case_and_diacritics_only() -> None:
    assert folded_match("PSTROS", OSTRICH) == "match"
    assert folded_match("ostriches", OSTRICH) == "no"


def test_the_box_registers_broad_lines_with_this_matcher() -> None:
    from appliance.app import load_games

    load_games()
    rules = registry.get("broad-lines")
    assert rules is guess_match.RULES
    assert getattr(rules, "matcher", None) is opinion
