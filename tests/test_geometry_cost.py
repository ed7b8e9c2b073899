"""Drawing geometry has bounded cost on any stroke: a scribble of any length gets a
verdict (or a clear refusal) at once, and the box keeps answering every phone meanwhile.

Before the rework one 400-point random stroke took 3 s to check and a 1000-point one did
not finish in 3 minutes; the bounds below are a hundred times what is measured now (see
`make bench`, geometry_worst_ms), so they fail only when the cost is unbounded again.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from games.codec import to_jsonable
from games.core import replay
from games.geometry import (
    Shape,
    check_artbox_drawing,
    check_broad_lines_sheet,
    recognise_shapes,
    stroke_from_xy,
)
from games.sheet import Stroke
from tests.conftest import LiveServer

GENEROUS_S = 0.5
"""A check of any input finishes well within this (measured: a few milliseconds)."""

ROUND_TRIP_S = 2.0
"""A ping answered while a 4000-point stroke goes through the whole box (JSON, the rules'
check, the SQLite log, a view to every phone): 60-150 ms on the shared development
machine, of which the geometry is a few; before the rework, minutes."""


def random_walk(count: int, seed: int | random.Random, step: float = 40.0) -> Stroke:
    """A hostile scribble: `count` points wandering over the whole sheet (from `seed`, or
    drawn from a generator's next numbers)."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    x, y = 800.0, 500.0
    points = []
    for _ in range(count):
        x = min(1600.0, max(0.0, x + rng.uniform(-step, step)))
        y = min(1000.0, max(0.0, y + rng.uniform(-step, step)))
        points.append((x, y))
    return stroke_from_xy(points)


def random_points(count: int, seed: int) -> Stroke:
    rng = random.Random(seed)
    return stroke_from_xy((rng.uniform(0, 1600), rng.uniform(0, 1000)) for _ in range(count))


def timed(call: object) -> float:
    began = time.perf_counter()
    assert callable(call)
    call()
    return time.perf_counter() - began


def test_a_20000_point_stroke_is_refused_at_once_as_too_long() -> None:
    stroke = random_walk(20_000, seed=1)
    began = time.perf_counter()
    sheet = check_broad_lines_sheet([stroke])
    drawing = check_artbox_drawing([stroke], [Shape.LINE] * 4)
    assert time.perf_counter() - began < GENEROUS_S
    assert not sheet.legal and sheet.reason_key == "sheet.too_long"
    assert "table decides" in sheet.reason and "4000" in sheet.reason
    assert "rozhodnou" in sheet.reason_in("cs")
    assert not drawing.legal and drawing.reason_key == "drawing.unjudged"
    assert drawing.unrecognised[0].reason_key == "not.too_long"


def test_scribbles_of_any_length_get_a_verdict_at_once() -> None:
    for count in (100, 400, 1000, 4000):
        for stroke in (random_walk(count, seed=count), random_points(count, seed=count)):
            began = time.perf_counter()
            sheet = check_broad_lines_sheet([stroke])
            drawing = check_artbox_drawing([stroke], [Shape.LINE] * 4)
            assert time.perf_counter() - began < GENEROUS_S, count
            # Refused either way: it crosses itself, or it is too tangled to judge.
            assert not sheet.legal and sheet.reason_key in (
                "sheet.crosses_itself", "sheet.tangled"), (count, sheet.reason)
            assert not drawing.legal


def test_a_tangle_is_left_to_the_table() -> None:
    sheet = check_broad_lines_sheet([random_points(1000, seed=7)])
    assert sheet.reason_key == "sheet.tangled"
    assert sheet.reason == "Too tangled to judge; the table decides."
    assert sheet.figures[0].unjudged == "tangled"
    (part,) = recognise_shapes([random_points(1000, seed=7)])
    assert part.shape is None and part.reason_key == "not.tangled"


def test_twenty_jagged_strokes_on_one_artbox_drawing_are_judged_at_once() -> None:
    strokes = [random_walk(300, seed=s, step=60) for s in range(20)]
    began = time.perf_counter()
    for upto in range(1, 21):  # checked after every stroke, as the game does
        verdict = check_artbox_drawing(strokes[:upto], [Shape.LINE] * 4)
    assert time.perf_counter() - began < 20 * GENEROUS_S
    assert not verdict.legal


def test_a_dense_real_stroke_reads_as_its_sparse_self() -> None:
    """Decimation and resampling keep what a stroke is: a circle of 3000 points is a
    circle, a line of 3000 points a line."""
    import math

    circle = stroke_from_xy((800 + 300 * math.cos(2 * math.pi * k / 2999),
                             500 + 300 * math.sin(2 * math.pi * k / 2999)) for k in range(3000))
    line = stroke_from_xy((200 + k * 0.4, 300 + k * 0.1) for k in range(3000))
    assert [v.shape for v in recognise_shapes([circle])] == [Shape.CIRCLE]
    assert [v.shape for v in recognise_shapes([line])] == [Shape.LINE]
    assert check_broad_lines_sheet([circle]).reason_key == "sheet.curve"


async def test_the_box_answers_pings_while_a_scribble_is_judged(live: LiveServer) -> None:
    """Through the real server: an Artist sends the longest stroke a phone may send, a
    4000-point scribble, and another phone's ping is answered meanwhile; the Artist is
    told why the sheet is refused. A 20000-point stroke is refused by the protocol itself
    (the geometry would refuse it too, at once: see the first test)."""
    import games.broad_lines  # noqa: F401  (registers Broad Lines)
    from appliance.table.session import PALETTE

    phones = [await live.phone() for _ in range(3)]
    for i, phone in enumerate(phones):
        await phone.join(live.session.room, f"P{i}", PALETTE[i])
    await phones[0].send({"type": "select", "game": "broad-lines"})
    await phones[0].send({"type": "start", "options": {}})
    await phones[0].view_where(lambda v: v["phase"] == "playing")
    match = live.session.match
    assert match is not None
    rnd = match.state.round
    await phones[rnd.critic].send(
        {"type": "act", "id": "n1", "kind": "name_number", "data": {"number": 3}})
    await phones[rnd.critic].expect("ack")
    artist = phones[match.state.round.artist]
    other = next(p for i, p in enumerate(phones)
                 if i not in (match.state.round.artist, match.state.round.critic))
    scribble = random_walk(4000, seed=3)
    points = [list(p) for p in scribble.points]
    await artist.send({"type": "act", "id": "s1", "kind": "stroke", "data": {"points": points}})
    sent = time.perf_counter()
    await other.send({"type": "ping"})
    await other.expect("pong")
    pong = time.perf_counter() - sent
    await artist.expect("ack")
    acked = time.perf_counter() - sent
    assert pong < ROUND_TRIP_S and acked < ROUND_TRIP_S, (pong, acked)
    view = await artist.view_where(lambda v: v["match"]["state"]["check"] is not None)
    check = view["match"]["state"]["check"]
    assert check["legal"] is False
    assert "crosses itself" in check["reason_en"] or "table decides" in check["reason_en"]

    too_long = [[k % 1600, (k * 7) % 1000, k] for k in range(20_000)]
    await artist.send({"type": "act", "id": "s2", "kind": "stroke", "data": {"points": too_long}})
    error = await artist.expect("error")
    # Refused before any geometry: too many bytes for one message, or too many points.
    assert error["code"] == "too_big" or "4000" in error["message"], error
    await other.send({"type": "ping"})
    await asyncio.wait_for(other.expect("pong"), ROUND_TRIP_S)


def test_the_caches_hold_no_stroke_and_stay_bounded() -> None:
    """The per-stroke cache is keyed by a digest, not by the points: a phone sending
    thousands of different long strokes leaves at most 512 small traces behind."""
    from games.geometry import figures

    clear = figures.clear_caches
    clear()
    for seed in range(530):
        check_broad_lines_sheet([random_points(60, seed)])
    assert len(figures._traces) == 512
    assert all(isinstance(key, bytes) and len(key) == 16 for key in figures._traces)
    assert all(len(trace.xs) <= 160 for trace in figures._traces.values())
    clear()


def test_a_replayed_artbox_match_checks_each_picture_once_not_after_every_stroke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # After a power cut the session replays the whole log; the rules check a picture
    # after every stroke (the phone shows at once what the box sees), but lazily: the
    # replay checks a picture only when the rules read it (the points), once.
    import games.artbox as artbox
    from tests.test_artbox import Table, shape_stroke

    table = Table(3)
    table.keep_all()
    table.act("roll", table.starter)
    for seat in table.players:
        for i, shape in enumerate(table.state.round.dice):
            table.act("stroke", seat, **shape_stroke(shape, 250 + 370 * i, 500))
            table.act("stroke", seat, **shape_stroke("line", 250 + 370 * i, 900, 60))
            table.act("undo", seat)
        assert artbox.RULES.view(table.state, seat)["my_check"]["legal"] is True
        table.act("finish", seat)
    strokes = sum(a.kind == "stroke" for a in table.log)
    calls: list[int] = []
    checked = check_artbox_drawing  # what games.artbox calls

    def counted(strokes: object, rolled: object) -> object:
        calls.append(1)
        return checked(strokes, rolled)  # type: ignore[arg-type]

    monkeypatch.setattr(artbox, "check_artbox_drawing", counted)
    state = replay(artbox.RULES, table.seats, {}, table.seed, table.log)
    assert not calls  # nothing read a check yet: none was made
    assert state == table.state  # the same checks, made or not
    assert all(state.round.checks[s].legal for s in table.players)
    assert len(calls) <= len(table.players) < strokes // 4, (len(calls), strokes)
    assert to_jsonable(state.round.checks) == to_jsonable(table.state.round.checks)


def test_a_replayed_broad_lines_sheet_is_checked_when_placed_not_after_every_stroke(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import games.broad_lines as broad_lines
    from tests.test_broad_lines import ARC, LINE, LINE2, LINE3, Table

    table = Table()
    table.name()
    artist = table.artist
    for stroke in (LINE, LINE2, LINE3, ARC):
        table.act("stroke", artist, **stroke)
    for _ in range(3):
        table.act("undo", artist)
    table.act("stroke", artist, **LINE2)
    assert table.state.round.check is not None and table.state.round.check.legal
    table.act("place", artist)
    calls: list[int] = []
    checked = check_broad_lines_sheet  # what games.broad_lines calls

    def counted(strokes: object) -> object:
        calls.append(1)
        return checked(strokes)  # type: ignore[arg-type]

    monkeypatch.setattr(broad_lines, "check_broad_lines_sheet", counted)
    state = replay(broad_lines.RULES, table.seats, table.options, table.seed, table.log)
    assert state == table.state
    assert len(calls) == 1  # placing the sheet read its check; the 5 strokes made none
