"""What the box needs of ArtBox beside its rules (games/house.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.artbox import MIN_DECK, deck_of
from games.artbox_actions import ACTIONS
from games.artbox_words import WORDS
from games.decks import Deck, DeckShape, Text, texts
from games.house import House, Keepsakes, Picture, Setting, StartOption, hourglass


def keepsakes(states: Iterable[Any]) -> Keepsakes:
    """Every finished picture with the word its artist kept."""
    rounds: dict[int, Any] = {}
    for state in states:  # the last sight of each round holds its finished pictures
        rounds[state.round.number] = (state.round, deck_of(state))
    pictures = []
    for number in sorted(rounds):
        rnd, deck = rounds[number]
        for seat, picture in sorted(rnd.pictures.items()):
            if not picture:
                continue
            word = deck[rnd.kept[seat]] if seat in rnd.kept else None
            pictures.append(Picture(
                number + 1, (seat,), None if word is None else Text(word.en, word.cs),
                tuple(picture), best=rnd.red == seat,
            ))
    return Keepsakes(tuple(pictures))


def make_after_move(state: Any) -> None:
    """The shape checks of the round's pictures (a stroke leaves the new one to be made
    when first read: 1-8 ms for a crowded drawing), made now."""
    for check in state.round.checks.values():
        _ = check.legal


HOUSE = House(
    keepsakes=keepsakes,
    make_after_move=make_after_move,
    settings=(Setting("timers.artbox_s", 60, 10, 600),),
    start_options=(
        hourglass("timers.artbox_s"),
        StartOption("advanced", label=Text("Advanced end (grey and red tokens)",
                                           "Pokročilý konec (šedé a červené žetony)"),
                    toggle=True, default=False, on_phone=True),
    ),
    phone_script="artbox.js",
    decks=(Deck(DeckShape("words", 1, MIN_DECK, 24), lambda: tuple(texts(w) for w in WORDS)),),
    actions=ACTIONS,
    from_the_tv={
        "en": "Needs a phone: the secret word, drawing and matching the pictures, for "
              "every player. While you sit here the TV does not start it.",
        "cs": "Telefon potřebuje každý hráč: tajné slovo, kreslení a přiřazování "
              "obrázků. Dokud tu sedíš, televize tuhle hru nespustí.",
    },
)
