"""Luck of the Draw's content: enough Subject and Category cards, each distinct in English
and in Czech, in the card format, translated rather than copied, and matching the die."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from games.luck_of_the_draw_cards import (
    CATEGORY_CARDS,
    DIE_FACES,
    SUBJECT_CARDS,
    SUBJECTS_PER_CARD,
    SubjectCard,
    Text,
    category_count,
    subject_number,
)

LANGS = ("en", "cs")
# Letters, digits-free, joined by single spaces, hyphens, apostrophes or a comma.
FORMAT = re.compile(r"[^\W\d_]+(?:(?:, |[ '’-])[^\W\d_]+)*")
CS_ONLY = set("áčďéěíňóřšťúůýž")
CARONS = set("čďěňřšťůž")  # Czech's own letters: never in English (unlike café's é)


def subjects() -> list[Text]:
    return [text for card in SUBJECT_CARDS for text in card.subjects]


def test_the_counts_of_the_printed_game() -> None:
    assert all(type(card) is SubjectCard for card in SUBJECT_CARDS)
    assert len(SUBJECT_CARDS) >= 210
    assert len(CATEGORY_CARDS) >= 105


def test_every_subject_card_lists_one_subject_per_number_on_the_die() -> None:
    numbers = {subject_number(face) for face in DIE_FACES}
    assert numbers == set(range(1, SUBJECTS_PER_CARD + 1))
    assert all(len(card.subjects) == SUBJECTS_PER_CARD for card in SUBJECT_CARDS)
    assert len(DIE_FACES) == 6
    # Every face comes up as often as every other: each number is on two faces.
    assert set(Counter(DIE_FACES).values()) == {2}
    assert {category_count(face) for face in DIE_FACES} == {1, 2, 3}


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_distinct(lang: str) -> None:
    for texts in (subjects(), list(CATEGORY_CARDS)):
        counts = Counter(getattr(t, lang).casefold() for t in texts)
        assert [text for text, n in counts.items() if n > 1] == []
    cards = Counter(tuple(getattr(t, lang) for t in card.subjects) for card in SUBJECT_CARDS)
    assert max(cards.values()) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_card_format(lang: str) -> None:
    for text in [*subjects(), *CATEGORY_CARDS]:
        value = getattr(text, lang)
        assert value == value.strip() and "  " not in value, text
        assert 0 < len(value) <= 48, text
        assert FORMAT.fullmatch(value), text
        if lang == "en":
            assert not set(value.lower()) & CARONS, text
    for category in CATEGORY_CARDS:
        assert category.en[0].isupper() and category.cs[0].isupper(), category
        assert not category.en.endswith("."), category


def test_translated_rather_than_copied() -> None:
    texts = [*subjects(), *CATEGORY_CARDS]
    same = [t for t in texts if t.en.casefold() == t.cs.casefold()]
    # Loan words (pizza, robot, zebra...) read the same; most cards do not.
    assert len(same) < len(texts) // 20, same
    with_diacritics = [t for t in texts if set(t.cs.lower()) & CS_ONLY]
    assert len(with_diacritics) > len(texts) // 2


def test_the_categories_judge_a_drawing_not_a_subject() -> None:
    english = {c.en for c in CATEGORY_CARDS}
    for example in ("Most likely to bite", "Best use of the whole page",
                    "Would look great on a T-shirt"):
        assert example in english
