"""The box's opinion of a typed Broad Lines guess: word forms count, other words do not."""

from __future__ import annotations

import pytest

from appliance.table.guess_match import is_form_of, opinion
from games import registry
from games.broad_lines_words import CARDS, Word
from games.word_forms import folded_match

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
    ],
)
def test_other_words_do_not(guess: str, word: Word) -> None:
    assert opinion(guess, word) == "no"


# The forms the table found the box missed (issue 17), English and Czech: each must be
# "match", each of the last must not (another word that only looks like a form).
FORMS_TABLE: list[tuple[str, Word, bool]] = [
    ("buses", Word("bus", "autobus"), True),  # -es after a hiss
    ("boxes", Word("box", "krabice"), True),
    ("actress", Word("actor", "herec"), True),  # the feminine of an -or
    ("kitten", Word("cat", "kočka"), True),  # pet names
    ("kitty", Word("cat", "kočka"), True),
    ("octopi", Word("octopus", "chobotnice"), True),  # a Latin plural
    ("a cat", Word("cat", "kočka"), True),  # articles are not the word
    ("the cats", Word("cat", "kočka"), True),
    ("an apple", Word("apple", "jablko"), True),
    ("lvice", Word("lion", "lev"), True),  # the feminine, with the fleeting e
    ("pejsek", Word("dog", "pes"), True),  # a diminutive with a j put in
    ("psi", Word("dog", "pes"), True),  # short case endings
    ("psa", Word("dog", "pes"), True),
    ("nožík", Word("knife", "nůž"), True),  # -ík
    ("sluníčko", Word("sun", "slunce"), True),  # -ce lost in the diminutive
    ("prstýnek", Word("ring", "prsten"), True),  # e lengthened to ý
    ("catty", Word("cat", "kočka"), False),  # an adjective, not a pet name
    ("sunny", Word("sun", "slunce"), False),
    ("the", Word("cat", "kočka"), False),  # an article alone is nothing
]


@pytest.mark.parametrize(("guess", "word", "form"), FORMS_TABLE,
                         ids=[f"{g}-{w.en}" for g, w, _ in FORMS_TABLE])
def test_the_table_of_forms_in_english_and_czech(guess: str, word: Word, form: bool) -> None:
    assert (opinion(guess, word) == "match") is form


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
    assert getattr(rules, "matcher", None) is opinion
