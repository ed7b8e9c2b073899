"""What the box needs of Doodle Dash beside its rules (games/house.py)."""

from __future__ import annotations

import collections
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from games.action_schema import NOTHING, STROKE, ActionSchemas
from games.decks import Deck, DeckShape, Text
from games.house import House, Keepsakes, Picture, StartOption
from tests.house_game.rules import MIN_WORDS, WORDS, DashState, word_of

ACTIONS: Final[ActionSchemas] = {"stroke": STROKE, "done": NOTHING}


def keepsakes(states: Iterable[Any]) -> Keepsakes:
    """Every drawing of every round with its word; a round's most detailed is its best."""
    final: DashState = collections.deque(states, maxlen=1)[0]
    pictures = []
    for number, drawn in enumerate(final.drawings):
        en, cs = word_of(final, number)
        most = max((len(strokes) for strokes in drawn.values()), default=0)
        for seat, strokes in sorted(drawn.items()):
            pictures.append(Picture(number + 1, (seat,), Text(en, cs), strokes,
                                    best=len(strokes) == most))
    return Keepsakes(tuple(pictures))


HOUSE: Final = House(
    keepsakes=keepsakes,
    start_options=(
        StartOption("extended_factor", "timers.extended_factor"),
        StartOption("rounds", label=Text("Rounds", "Kola"),
                    choices=((1, "1"), (2, "2"), (3, "3")), default=2, on_phone=True),
    ),
    decks=(Deck(DeckShape("words", 1, MIN_WORDS, 24),
                lambda: tuple((Text(en, cs),) for en, cs in WORDS)),),
    actions=ACTIONS,
    from_the_tv={"en": "Needs a phone: everyone draws on their own.",
                 "cs": "Telefon je potřeba: každý kreslí na svém."},
    # Its own screens, beside its rules: nothing of appliance/ names them.
    kiosk_screen="tests.house_game.screen",
    phone_script="phone.js",
    phone_files=Path(__file__).parent,
)
