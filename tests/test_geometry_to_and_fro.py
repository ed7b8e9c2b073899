"""A line drawn to and fro along itself is one line in ArtBox, as on a Broad Lines sheet
(issue 30's eleventh pass: `figures.drawn_to_and_fro`, TO_AND_FRO_LENGTH).

A child going over a line again and again to make it thick draws goes that cross where
they meet: ArtBox refused such a line as "It crosses itself" (110 of 300 generated, and a
Quick, Draw! line), while Broad Lines counted it as 1 line. A line with a loop in it
crosses itself too, and stays refused: it is as long as its chord and a fifth at most,
a line drawn to and fro twice as long and more.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from functools import partial

from games.geometry import Shape, recognise_shapes
from games.geometry.figures import drawn_to_and_fro
from games.sheet import Stroke
from tests.test_geometry_person import (
    Pts,
    along,
    arc,
    finger,
    line_to_and_fro,
    shapes_reading,
    sheet_reading,
)
from tests.test_geometry_quickdraw import load_drawings

Maker = Callable[[random.Random], list[Stroke]]
HELD_OUT = range(300, 500)
"""Seeds not looked at when TO_AND_FRO_LENGTH was chosen (0-299 were)."""


def readings(make: Maker, seeds: range = HELD_OUT) -> Counter[str]:
    return Counter(shapes_reading(make(random.Random(seed))) for seed in seeds)


def line_then_to_and_fro(rng: random.Random) -> list[Stroke]:
    """A line, then the same line gone over to and fro 2-4 times in a second stroke."""
    a = (300 + rng.uniform(-10, 10), 300 + rng.uniform(-10, 10))
    b = (1300 + rng.uniform(-10, 10), 700 + rng.uniform(-10, 10))
    goes = [a if k % 2 == 0 else b for k in range(rng.randint(3, 5))]
    goes = [(x + rng.uniform(-8, 8), y + rng.uniform(-8, 8)) for x, y in goes]
    return [finger(along([a, b]), rng), finger(along(goes), rng)]


def curled_line(rng: random.Random, radius: float) -> list[Stroke]:
    """A line 1000 long with a loop of `radius` (a share of its length) somewhere in its
    middle: it crosses itself once."""
    at = 300 + 1000 * rng.uniform(0.2, 0.8)
    r = radius * 1000
    points: Pts = along([(300.0, 500.0), (at, 500.0)])
    points += arc(at, 500.0 - r, r, math.pi / 2, math.pi / 2 - 2 * math.pi, step=3.0)[1:]
    points += along([(at, 500.0), (1300.0, 500.0)])[1:]
    return [finger(points, rng)]


def test_a_line_drawn_to_and_fro_is_one_line_in_artbox_as_on_a_sheet() -> None:
    # Before: 1 in 3 of them "It crosses itself" in ArtBox (110 of seeds 0-299).
    assert readings(line_to_and_fro) == Counter({"line": len(HELD_OUT)})
    sheets = Counter(sheet_reading(line_to_and_fro(random.Random(s))) for s in HELD_OUT)
    assert sheets == Counter({"1 lines": len(HELD_OUT)})


def test_a_line_gone_over_to_and_fro_is_one_line_and_a_stroke_drawn_over_it() -> None:
    # Before: 61 of 200 (a to-and-fro line was no line that can lie over another).
    read = readings(line_then_to_and_fro)
    assert read["line not.drawn_over"] >= 190, read


def test_a_line_with_a_loop_in_it_still_crosses_itself() -> None:
    for radius in (0.03, 0.04, 0.06, 0.1):
        read = readings(partial(curled_line, radius=radius), range(100))
        assert read["not.crosses_itself"] >= 95, (radius, read)


def test_a_real_line_drawn_to_and_fro_is_a_line() -> None:
    # A Quick, Draw! "line": a line, then a second stroke going over it three times,
    # crossing itself six times where its goes meet.
    drawing = next(d for d in load_drawings() if d.key_id == "5076834762883072")
    stroke = drawing.strokes[1]
    (verdict,) = recognise_shapes([stroke])
    assert verdict.figure is not None and verdict.figure.crossings >= 2
    assert verdict.shape is Shape.LINE
    assert drawn_to_and_fro(verdict.figure)
