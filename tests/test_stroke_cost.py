"""A stroke costs the same however big its picture is (issue 30): its data for views is
made once per stroke, the door encodes each stroke once, and the bulk check of a stroke's
points gives exactly what the point-by-point check gives."""

from __future__ import annotations

import random

import msgspec
import pytest

from appliance.door.server import SharedParts
from games.artbox import RULES as ARTBOX
from games.artbox import ArtBoxState
from games.core import Action, IllegalAction, SeatInfo
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH, Stroke
from games.strokes import MARGIN, stroke_from_data, stroke_to_data


def _walk(rng: random.Random, n: int) -> list[list[int]]:
    x, y, pts = 800, 500, []
    for i in range(n):
        x = min(max(x + rng.randint(-4, 4), 0), SHEET_WIDTH)
        y = min(max(y + rng.randint(-4, 4), 0), SHEET_HEIGHT)
        pts.append([x, y, i * 8])
    return pts


def _creating() -> ArtBoxState:
    seats = [SeatInfo(i, f"P{i}", "#ff0000") for i in range(3)]
    state = ARTBOX.setup(seats, {}, 7)
    for seat in range(3):
        state = ARTBOX.apply(state, Action("keep", seat, {"card": 0}))
    return ARTBOX.apply(state, Action("roll", state.round.starter))


def test_a_strokes_view_data_is_made_once_and_shared_by_later_views() -> None:
    rng = random.Random(1)
    state = _creating()
    state = ARTBOX.apply(state, Action("stroke", 0, {"points": _walk(rng, 300)}))
    first = ARTBOX.view(state, 0)["my_picture"]
    state = ARTBOX.apply(state, Action("stroke", 0, {"points": _walk(rng, 300)}))
    second = ARTBOX.view(state, 0)["my_picture"]
    assert len(second) == 2
    assert second[0] is first[0]  # not converted again for the next stroke's view
    stroke = state.round.pictures[0][0]
    assert stroke_to_data(stroke) is stroke_to_data(stroke)
    # ... and it is what the protocol carries.
    assert msgspec.json.decode(msgspec.json.encode(second[0])) == {
        "points": [list(p) for p in stroke.points], "colour": stroke.colour,
        "width": stroke.width,
    }


def test_the_door_encodes_each_stroke_once_however_many_views_carry_it() -> None:
    rng = random.Random(2)
    state = _creating()
    parts = SharedParts()
    strokes = 6
    for _ in range(strokes):
        state = ARTBOX.apply(state, Action("stroke", 0, {"points": _walk(rng, 200)}))
        for seat in (None, 0, 1, 2):
            view = {"type": "view", "match": {"state": ARTBOX.view(state, seat)}}
            sent = parts.encode(view)
            assert msgspec.json.decode(sent) == msgspec.json.decode(msgspec.json.encode(view))
    assert parts.strokes_encoded == strokes


def test_the_door_forgets_strokes_past_its_bound() -> None:
    parts = SharedParts()
    parts.STROKE_BYTES = 10_000  # type: ignore[misc]
    kept = [Stroke(tuple((i, i, i) for i in range(200))) for _ in range(20)]
    for stroke in kept:
        parts.encode({"match": {"state": {"my_picture": [stroke.data]}}})
    assert parts._stroke_bytes <= 10_000 and len(parts._strokes) < 20


def _one_by_one(raw: list[object]) -> tuple[tuple[int, int, int], ...] | str:
    """The point-by-point check the bulk check must agree with: the points, or the key."""
    out = []
    for item in raw:
        if not isinstance(item, list) or len(item) != 3 or not all(type(v) is int for v in item):
            return "stroke_point"
        x, y, t = item
        if not (-MARGIN <= x <= SHEET_WIDTH + MARGIN and -MARGIN <= y <= SHEET_HEIGHT + MARGIN):
            return "stroke_outside"
        if not 0 <= t <= 3_600_000:
            return "stroke_time"
        out.append((min(max(x, 0), SHEET_WIDTH), min(max(y, 0), SHEET_HEIGHT), t))
    return tuple(out)


@pytest.mark.parametrize("seed", range(40))
def test_the_bulk_check_of_points_is_the_point_by_point_one(seed: int) -> None:
    rng = random.Random(seed)
    raw: list[object] = [list(p) for p in _walk(rng, rng.randint(1, 400))]
    spoil = rng.choice(["none", "overshoot", "outside", "time", "float", "bool", "short",
                        "tuple", "negative_time", "edge"])
    at = rng.randrange(len(raw))
    point = raw[at]
    assert isinstance(point, list)
    if spoil == "overshoot":
        point[0] = -rng.randint(1, MARGIN)
    elif spoil == "outside":
        point[1] = SHEET_HEIGHT + MARGIN + 1
    elif spoil == "time":
        point[2] = 3_600_001
    elif spoil == "negative_time":
        point[2] = -1
    elif spoil == "float":
        point[0] = 3.0
    elif spoil == "bool":
        point[1] = True
    elif spoil == "short":
        raw[at] = point[:2]
    elif spoil == "tuple":
        raw[at] = tuple(point)
    elif spoil == "edge":
        point[0], point[1] = SHEET_WIDTH, 0
    expected = _one_by_one(raw)
    if isinstance(expected, str):
        with pytest.raises(IllegalAction) as refused:
            stroke_from_data({"points": raw})
        assert refused.value.key == expected
    else:
        got = stroke_from_data({"points": raw}).points
        assert got == expected and all(type(p) is tuple for p in got)
