"""What the box needs of Broad Lines beside its rules (games/house.py)."""

from __future__ import annotations

import collections
from collections.abc import Iterable, Mapping
from typing import Any, Final

from games.broad_lines import MIN_CARDS, BroadLines, guessed_words, rating, word_of
from games.broad_lines_actions import ACTIONS
from games.broad_lines_words import CARDS, WORDS_PER_CARD
from games.decks import Deck, DeckShape, Text, texts
from games.house import House, Keepsakes, Picture, PrivateLook, Setting, StartOption
from games.word_forms import WORD_FORMS, WordForms


def keepsakes(states: Iterable[Any]) -> Keepsakes:
    """Each round's easel: every sheet stacked, drawn by the table's Artists together."""
    final = collections.deque(states, maxlen=1)[0]
    rounds = list(final.history)
    if final.round.sheets and all(r.number != final.round.number for r in rounds):
        rounds.append(final.round)  # ended during a round: its sheets count too
    pictures = []
    for rnd in rounds:
        if not rnd.sheets:
            continue
        word = word_of(rnd)
        pictures.append(Picture(
            rnd.number,
            tuple(dict.fromkeys(sheet.artist for sheet in rnd.sheets)),
            None if word is None else Text(word.en, word.cs),
            tuple(stroke for sheet in rnd.sheets for stroke in sheet.strokes),
            best=rnd.result == "guessed",
        ))
    verdict = None
    if final.phase == "over":
        _, en, cs = rating(len(guessed_words(final)))
        verdict = Text(en, cs)
    return Keepsakes(tuple(pictures), verdict=verdict)


WORD_PHASES: Final = frozenset({"drawing", "vote", "guessing"})
"""The phases in which an Artist must know the word."""


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def private_looks(public: Mapping[str, Any], no_phone: frozenset[int]) -> tuple[PrivateLook, ...]:
    """Once the Critic has named the number, each Artist without a phone sees the word
    on the kiosk while the Critic looks away (one look per round and number)."""
    phase, number, rnd = public.get("phase"), _int(public.get("number")), _int(
        public.get("round"))
    artists = public.get("artists")
    if phase not in WORD_PHASES or number is None or rnd is None or not isinstance(
            artists, list):
        return ()
    critic = _int(public.get("critic"))
    return tuple(PrivateLook(seat, (rnd, number), critic)
                 for seat in sorted(no_phone) if seat in artists)


def private_text(own: Mapping[str, Any]) -> Mapping[str, str] | None:
    """The word, from the Artist's own view."""
    word = own.get("word")
    if not isinstance(word, Mapping):
        return None
    return {lang: text for lang, text in word.items() if isinstance(text, str)}


def _with_word_forms(matcher: WordForms) -> BroadLines:
    return BroadLines(matcher=matcher)


HOUSE = House(
    no_screen=True,
    private_looks=private_looks,
    private_text=private_text,
    keepsakes=keepsakes,
    settings=(
        Setting("broad_lines.sheets", 25, 5, 60),
        Setting("broad_lines.check_sheets", True),
    ),
    start_options=(
        # No start options on the phone: the number of sheets and the sheet check are
        # the table's settings, which a phone's default would otherwise override.
        StartOption("sheets", "broad_lines.sheets",
                    Text("Sheets in the box", "Počet fólií v krabici"), number=(5, 60)),
        StartOption("check_sheets", "broad_lines.check_sheets",
                    Text("The box checks every sheet", "Krabice kontroluje každou fólii"),
                    toggle=True),
    ),
    phone_script="broad_lines.js",
    decks=(
        # Numbers 1-6 name a card's words in order; 24 characters fit its card.
        Deck(DeckShape("cards", WORDS_PER_CARD, MIN_CARDS, 24, "card", "word",
                       ", numbered 1-6 in order"),
             lambda: tuple(texts(*card) for card in CARDS)),
    ),
    actions=ACTIONS,
    together=True,
    from_the_tv={
        "en": "From the TV: the Art Critic (choose the number, say the guesses aloud), "
              "and an Artist: the TV shows you the word while the Critic looks away; you "
              "draw on paper at the table (or on its screen by touch). Needs a phone: "
              "voting on a refused sheet, the hints.",
        "cs": "Z televize: Kritik (vybere číslo, tipy říká nahlas) i Umělec: televize "
              "ti ukáže slovo, když se Kritik nedívá; kreslíš na papír u stolu (nebo "
              "dotykem na jeho obrazovce). Telefon je potřeba: hlasování o fólii, "
              "nápovědy.",
    },
    wants={WORD_FORMS: _with_word_forms},
)
