"""What the box needs of Luck of the Draw beside its rules (games/house.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.decks import MAX_TEXT, Deck, DeckShape, Text, texts
from games.house import House, Keepsakes, Picture, Setting, StartOption, hourglass
from games.luck_of_the_draw import MIN_CATEGORY_CARDS, MIN_SUBJECT_CARDS, subject_of
from games.luck_of_the_draw_actions import ACTIONS
from games.luck_of_the_draw_cards import CATEGORY_CARDS, SUBJECT_CARDS, SUBJECTS_PER_CARD


def keepsakes(states: Iterable[Any]) -> Keepsakes:
    """Every drawing with the round's subject; the best are those that won their chip."""
    rounds: dict[int, Any] = {}
    last: Any = None
    for state in states:
        rounds[state.round.number] = state.round
        last = state
    pictures = []
    for number in sorted(rounds):
        rnd = rounds[number]
        # Any state knows the match's decks (a table's pack, or the built-in ones).
        text = subject_of(last, rnd)
        subject = None if text is None else Text(text.en, text.cs)
        won = {v.leaders[0] for v in rnd.verdicts if len(v.leaders) == 1}
        for seat, drawing in sorted(rnd.drawings.items()):
            if not drawing:
                continue
            chip = next((e.chip for e in rnd.gallery if e.owner == seat), None)
            pictures.append(Picture(
                number + 1, (seat,), subject, tuple(drawing),
                best=chip is not None and chip in won,
            ))
    return Keepsakes(tuple(pictures))


HOUSE = House(
    keepsakes=keepsakes,
    settings=(
        Setting("timers.luck_of_the_draw_s", 45, 10, 600),
        Setting("timers.extended_factor", 2.0, 1.0, 4.0),
        Setting("luck_of_the_draw.auto_hourglass", False),
        Setting("luck_of_the_draw.extended_time", False),
        Setting("luck_of_the_draw.longer_game", False),
        Setting("luck_of_the_draw.extra_cards", 2, 1, 10),
        Setting("luck_of_the_draw.speedier_game", False),
    ),
    start_options=(
        hourglass("timers.luck_of_the_draw_s"),
        StartOption("auto_hourglass", "luck_of_the_draw.auto_hourglass",
                    Text("The hourglass turns itself", "Hodiny se otočí samy"), toggle=True),
        StartOption("extra_cards", "luck_of_the_draw.extra_cards",
                    Text("Extra cards for a longer game", "Karet navíc pro delší hru"),
                    number=(1, 10)),
        StartOption("extended", "luck_of_the_draw.extended_time",
                    Text("Extended time (young or new players)",
                         "Delší čas (malí nebo noví hráči)"),
                    toggle=True, default=False, on_phone=True),
        StartOption("longer", "luck_of_the_draw.longer_game",
                    Text("Longer game (more cards to win)", "Delší hra (víc karet k výhře)"),
                    toggle=True, default=False, on_phone=True),
        StartOption("speedier", "luck_of_the_draw.speedier_game",
                    Text("Speedier game (always two categories)",
                         "Rychlejší hra (vždy dvě kategorie)"),
                    toggle=True, default=False, on_phone=True),
        StartOption("extended_factor", "timers.extended_factor"),
    ),
    phone_script="luck_of_the_draw.js",
    decks=(
        Deck(DeckShape("subjects", SUBJECTS_PER_CARD, MIN_SUBJECT_CARDS, MAX_TEXT,
                       "subject card", "subject",
                       ", one for each number on the die (1, 2, 3) in order"),
             lambda: tuple(texts(*card.subjects) for card in SUBJECT_CARDS)),
        Deck(DeckShape("categories", 1, MIN_CATEGORY_CARDS),
             lambda: tuple(texts(card) for card in CATEGORY_CARDS)),
    ),
    actions=ACTIONS,
    from_the_tv={
        "en": "Needs a phone: drawing and the secret votes, for every player. While "
              "you sit here the TV does not start it.",
        "cs": "Telefon potřebuje každý hráč: kreslení a tajné hlasování. Dokud tu "
              "sedíš, televize tuhle hru nespustí.",
    },
)
