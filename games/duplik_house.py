"""What the box needs of Duplik beside its rules (games/house.py)."""

from __future__ import annotations

import collections
from collections.abc import Iterable
from typing import Any

from games.decks import Text
from games.duplik import round_points, scene_of, svg_of
from games.duplik_actions import ACTIONS
from games.house import (
    House,
    Keepsakes,
    Picture,
    Scene,
    Setting,
    StartOption,
    hourglass,
)


def keepsakes(states: Iterable[Any]) -> Keepsakes:
    """Each round's scene (made by the box) beside the canvases drawn from it."""
    final = collections.deque(states, maxlen=1)[0]
    rounds = list(final.history)
    if final.round.canvases and all(r.number != final.round.number for r in rounds):
        rounds.append(final.round)  # ended during a round: its canvases count too
    pictures: list[Picture] = []
    scenes: list[Scene] = []
    for rnd in rounds:
        scene = scene_of(rnd.scene_seed)
        title = Text(scene.title.en, scene.title.cs)
        scenes.append(Scene(rnd.number + 1, title, svg_of(rnd.scene_seed)))
        points = round_points(final, rnd)
        canvases = {a: c for a, c in rnd.canvases.items() if c}
        top = max((points.get(a, 0) for a in canvases), default=0)
        for artist, canvas in sorted(canvases.items()):
            pictures.append(Picture(
                rnd.number + 1, (artist,), title, tuple(canvas),
                best=top > 0 and points.get(artist, 0) == top,
            ))
    return Keepsakes(tuple(pictures), tuple(scenes))


def make_ahead(state: Any) -> None:
    """Every round's scene of the deck (~5 ms each; games/duplik.py keeps the last 64,
    more than a deck holds), so no view makes one on the box's event loop."""
    for seed in state.deck:
        scene_of(seed)


HOUSE = House(
    make_ahead=make_ahead,
    no_screen=True,
    keepsakes=keepsakes,
    settings=(Setting("timers.duplik_s", 90, 10, 600),),
    start_options=(
        hourglass("timers.duplik_s"),
        StartOption("turns", label=Text("Each player portrays", "Každý hráč popisuje"),
                    choices=((1, "1×"), (2, "2×"), (3, "3×")), default=1, on_phone=True),
        StartOption("paper", label=Text("Draw on paper (phones only judge)",
                                        "Kreslit na papír (telefony jen hodnotí)"),
                    toggle=True, default=False, on_phone=True),
        # docs/duplik.md: fresh scenes from the generator instead of the curated deck.
        StartOption("generated", label=Text("Fresh generated scenes (not the curated deck)",
                                            "Nové generované scény (ne vybraný balíček)"),
                    toggle=True, default=False, on_phone=True),
    ),
    phone_script="duplik.js",
    actions=ACTIONS,
    without_phone={"paper": True},
    from_the_tv={
        "en": "From the TV: an Artist, drawing on paper (the box times, rolls and "
              "counts), judging with YES / NO on the TV. Needs a phone: the Portrayer, "
              "who sees the scene (you are passed over), and disputes. At least one "
              "player needs a phone.",
        "cs": "Z televize: Umělec, který kreslí na papír (krabice měří čas, hází a "
              "počítá) a hodnotí ANO / NE na televizi. Telefon potřebuje: Popisovatel, "
              "který vidí scénu (ten tah přeskočíš), a spory. Aspoň jeden hráč "
              "potřebuje telefon.",
    },
)
