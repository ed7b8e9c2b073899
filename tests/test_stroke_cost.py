"""A stroke costs the same however big its picture is (issue 30): its data for views is
made once per stroke, the door encodes each stroke once, and the bulk check of a stroke's
points gives exactly what the point-by-point check gives."""

from __future__ import annotations

import dataclasses
import gc
import logging
import random
import sqlite3
from pathlib import Path

import msgspec
import pytest

from appliance.door.server import SharedParts
from appliance.system.config import Config, StorageSettings
from appliance.table.session import PALETTE, Session
from appliance.table.store import Store
from games.artbox import RULES as ARTBOX
from games.artbox import ArtBoxState
from games.core import Action, IllegalAction, SeatInfo
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH, Stroke
from games.strokes import MARGIN, stroke_from_data, stroke_to_data
from tests.conftest import FakeClock


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


def _drawn_session(tmp_path: Path, writer: bool = False) -> tuple[Session, Config]:
    store = Store(tmp_path / "easel.sqlite3")
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(tmp_path)))
    session = Session(store, config, "http://192.0.2.7:8080", FakeClock())
    for i in range(3):
        session.join(f"Player {i}", PALETTE[i])
    session.select("host", "artbox")
    session.start("host")
    for i in range(3):
        session.act(i, "keep", {"card": 0})
    assert session.match is not None
    session.act(session.match.state.round.starter, "roll", {})
    rng = random.Random(5)
    for n in range(6):
        session.act(n % 3, "stroke", {"points": _walk(rng, 500)})
    return session, config


def test_a_resume_replays_the_log_to_the_very_state_played(tmp_path: Path) -> None:
    played, config = _drawn_session(tmp_path)
    assert played.match is not None
    before = ARTBOX.to_json(played.match.state)
    played.store.close()
    store = Store(tmp_path / "easel.sqlite3")
    store.start_writer()
    resumed = Session(store, config, "http://192.0.2.7:8080", FakeClock())
    assert resumed.match is not None
    assert ARTBOX.to_json(resumed.match.state) == before
    assert gc.isenabled()  # the collector was paused for the replay only
    # The shape checks the first views read were made on the writer thread, not left
    # to the loop's first view.
    done = store.later(lambda _: None)
    assert done is not None
    done.result()
    checks = resumed.match.state.round.checks
    assert checks and all("made" in vars(c) for c in checks.values())
    store.close()


def test_a_log_with_a_broken_stroke_is_refused_and_the_match_closed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    played, config = _drawn_session(tmp_path)
    assert played.match is not None
    match_id = played.match.record.id
    played.store.close()
    db = sqlite3.connect(tmp_path / "easel.sqlite3")
    with db:
        db.execute("UPDATE actions SET data = ? WHERE match_id = ? AND kind = 'stroke' AND "
                   "seq = (SELECT MAX(seq) FROM actions WHERE kind = 'stroke')",
                   ('{"points": [[10, 20, 0], [10, 20.5, 8]]}', match_id))
    db.close()
    store = Store(tmp_path / "easel.sqlite3")
    with caplog.at_level(logging.ERROR):
        resumed = Session(store, config, "http://192.0.2.7:8080", FakeClock())
    assert resumed.match is None
    assert f"match {match_id} does not replay" in caplog.text
    assert "whole numbers" in caplog.text
    assert store.unfinished_match() is None
    store.close()
