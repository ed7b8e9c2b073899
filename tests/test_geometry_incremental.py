"""ArtBox's whole-drawing check is incremental and bounded: the rules check a picture after
every stroke, and a new stroke measures only itself and its pairs with the strokes before
it (what pairs of strokes have in common is cached by the strokes' digests), a drawing
checked before is not checked again, strokes piled on top of each other are left to the
table before their pairs are walked, and the box makes the check on its writer thread,
not on the loop that serves the phones.

The verdict of a drawing checked stroke by stroke is the verdict of the same drawing
checked cold; how the drawings are judged is tested in test_geometry*.py.
"""

from __future__ import annotations

import gc
import math
import random
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.system.config import Config
from appliance.table.session import HOST, PALETTE, Session, Viewer
from appliance.table.store import Store
from games.geometry import (
    Shape,
    check_artbox_drawing,
    clear_caches,
    figures,
    recognise_shapes,
    stroke_from_xy,
)
from games.sheet import Stroke
from tests.test_geometry_person import CASES
from tests.test_geometry_quickdraw import load_drawings

ROLL = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)


def several_stroke_drawings() -> list[list[Stroke]]:
    """Real drawings of 3 strokes or more (a part of the Quick, Draw! sample) and the
    seeded finger-drawn cases of issue 15 made of several strokes."""
    real = [list(d.strokes) for d in load_drawings() if len(d.strokes) >= 3][::3]
    made = [make(random.Random(seed)) for make, _, _ in CASES.values() for seed in range(3)]
    return real + [strokes for strokes in made if len(strokes) >= 2]


@pytest.fixture(scope="module")
def drawings() -> list[list[Stroke]]:
    return several_stroke_drawings()


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


def test_a_drawing_checked_stroke_by_stroke_is_judged_as_checked_cold(
    drawings: list[list[Stroke]],
) -> None:
    assert len(drawings) >= 40
    for strokes in drawings:
        clear_caches()
        steps = [check_artbox_drawing(strokes[:k], ROLL).to_json()
                 for k in range(1, len(strokes) + 1)]
        for k in range(1, len(strokes) + 1):
            clear_caches()
            assert check_artbox_drawing(strokes[:k], ROLL).to_json() == steps[k - 1]


def test_a_new_stroke_measures_only_its_own_pairs(
    drawings: list[list[Stroke]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    measured: list[int] = []
    measure = figures._measure_pair

    def counted(a: figures.Trace, b: figures.Trace, seam: bool = False
                ) -> tuple[tuple[float, int, int], ...]:
        measured.append(1)
        return measure(a, b, seam)

    monkeypatch.setattr(figures, "_measure_pair", counted)
    longest = max(drawings, key=len)
    assert len(longest) >= 8
    for k in range(1, len(longest) + 1):
        measured.clear()
        check_artbox_drawing(longest[:k], ROLL)
        assert len(measured) <= k - 1, (k, len(measured))
    measured.clear()
    check_artbox_drawing(longest[:-1], ROLL)  # an undo: that drawing was checked before
    check_artbox_drawing(longest, [Shape.LINE] * 4)  # another roll: the same pairs
    assert not measured


def test_a_new_stroke_looks_up_only_its_own_pairs_and_joinings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A busy picture (squares and triangles side by side, circles in two goes): each
    # check after a new stroke looks up the new stroke's pairs only, and reads no joined
    # figure it read before; the verdicts are those of the drawing checked cold.
    from tests.bench.bench_geometry import drawing_of_40_strokes

    strokes = drawing_of_40_strokes(random.Random(5))[:16]
    looked: list[int] = []
    read: list[int] = []
    look, join = figures._pair_links, figures._joined

    def counted_look(a: figures.Trace, b: figures.Trace, seam: bool = False
                     ) -> tuple[tuple[float, int, int], ...]:
        looked.append(1)
        return look(a, b, seam)

    def counted_join(parts: list[figures.Part], reaches: list[float], cycle: bool
                     ) -> tuple[list[float], list[float]]:
        read.append(1)
        return join(parts, reaches, cycle)

    monkeypatch.setattr(figures, "_pair_links", counted_look)
    monkeypatch.setattr(figures, "_joined", counted_join)
    steps = []
    for k in range(1, len(strokes) + 1):
        looked.clear()
        steps.append(check_artbox_drawing(strokes[:k], ROLL).to_json())
        assert len(looked) <= k - 1, (k, len(looked))
    stepwise = len(read)
    assert stepwise > 0  # joinings were read
    for k in range(1, len(strokes) + 1):
        clear_caches()
        looked.clear()
        assert check_artbox_drawing(strokes[:k], ROLL).to_json() == steps[k - 1]
    assert len(looked) > len(strokes)  # cold, every pair is looked up
    assert len(read) > 2 * stepwise  # and every joining of every drawing read again


def test_the_reading_chosen_is_the_first_of_the_best_of_every_way_to_read_it(
    drawings: list[list[Stroke]],
) -> None:
    # The search ends at a reading that fits the roll exactly; the reading it returns is
    # still the first of those that fit best among all the ways (counted here with
    # Counters, each way read).
    from collections import Counter

    from games.geometry import artbox

    rolls = [ROLL, (Shape.LINE,) * 4, (Shape.SQUARE, Shape.SQUARE, Shape.LINE, Shape.LINE)]
    exact = 0
    for strokes in drawings[::2]:
        traces = [figures.simplify_stroke(s) for s in strokes]
        strays = artbox._strays(traces)
        read = [artbox._single_read(i, t, i in strays) for i, t in enumerate(traces)]
        singles = [list(verdicts) for _, verdicts in read]
        figures_read = [figure for figure, _ in read]
        joinings = artbox._joinings(traces, figures_read)
        keys, over = artbox._drawn_over_table([*(v for vs in singles for v in vs), *joinings])
        joinings = artbox._not_drawn_over(joinings, figures_read, keys, over)
        ways = artbox._readings(singles, joinings)
        every = [artbox._read(singles, joined, keys, over) for joined in ways]
        every += [artbox._read(singles, joined, keys, over, False) for joined in ways
                  if any(v.shape is not None for i in strays for v in singles[i])]
        for roll in rolls:
            want = Counter(roll)

            def misfit(reading: artbox._Reading, want: Counter[Shape] = want
                       ) -> tuple[int, int]:
                have = Counter(reading.found)
                return reading.unrecognised, sum(((have - want) + (want - have)).values())

            best = min(every, key=misfit)
            exact += misfit(best) == (0, 0)
            assert artbox._recognise(strokes, roll).verdicts == best.verdicts
        # without a roll: the first of those with the fewest parts that are no shape
        fewest = min(every, key=lambda reading: reading.unrecognised)
        assert artbox._recognise(strokes, None).verdicts == fewest.verdicts
    assert exact >= 3  # some drawings fit a roll exactly: the search ended there


def test_far_pairs_are_not_measured_and_no_meeting_is_lost(
    drawings: list[list[Stroke]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pairs of strokes left unmeasured (all their ends farther apart than any two
    ends that meet) would have had no link: the links are those of measuring every pair."""
    traces = [[figures.simplify_stroke(s) for s in strokes] for strokes in drawings]
    pairs = [(a, b) for ts in traces for i, a in enumerate(ts) for b in ts[i + 1:]]
    filtered = [figures._measure_pair(a, b) for a, b in pairs]
    at_seams = [figures._measure_pair(a, b, True) for a, b in pairs]
    monkeypatch.setattr(figures, "_FARTHEST_LINK", math.inf)
    monkeypatch.setattr(figures, "_FARTHEST_AT_SEAM", math.inf)
    every = [figures._measure_pair(a, b) for a, b in pairs]
    assert filtered == every
    # the same for a stroke meeting the seam of one closed by itself
    assert at_seams == [figures._measure_pair(a, b, True) for a, b in pairs]
    assert sum(1 for f in filtered if f) >= 50  # enough of them meet to tell
    assert sum(1 for f in filtered if not f) >= 50


def strokes_on_top_of_each_other(count: int) -> list[Stroke]:
    return [stroke_from_xy([(300 + 3 * i, 200 + 7 * i) for i in range(12)])] * count


def test_strokes_piled_on_top_of_each_other_are_left_to_the_table() -> None:
    """60 short lines on one spot (a script's flood, the most a picture holds): every
    pair of their ends meets, so the drawing is refused with a clear reason before the
    links are sorted and walked, and each stroke added costs its own pairs only."""
    piled = strokes_on_top_of_each_other(60)
    verdicts = [check_artbox_drawing(piled[:k], ROLL) for k in range(1, 61)]
    assert verdicts[3].reason_key != "drawing.crowded"  # four alike: still judged
    last = verdicts[-1]
    assert not last.legal and last.reason_key == "drawing.crowded"
    assert last.reason == "Too many strokes on top of each other to judge; the table decides."
    assert "rozhodnou" in last.reason_in("cs")
    assert [v.reason_key for v in last.unrecognised] == ["not.tangled"]
    assert last.to_json()["missing"] == [s.value for s in ROLL]
    (part,) = recognise_shapes(piled)
    assert part.shape is None and part.reason_key == "not.tangled"
    assert part.strokes == tuple(range(60))


def test_closed_shapes_piled_on_top_of_each_other_are_left_to_the_table() -> None:
    """Circles have no ends to meet: it is comparing each with every other (is it drawn
    over it?) that is bounded."""
    rng = random.Random(5)
    circle = [(600 + 200 * math.cos(a / 10), 400 + 170 * math.sin(a / 10)) for a in range(66)]
    circles = [stroke_from_xy((x + rng.uniform(-2, 2), y + rng.uniform(-2, 2))
                              for x, y in circle) for _ in range(40)]
    assert check_artbox_drawing(circles[:2], ROLL).reason_key != "drawing.crowded"
    assert check_artbox_drawing(circles, ROLL).reason_key == "drawing.crowded"


def test_a_strokes_digest_is_kept_by_its_identity_without_holding_the_stroke(
    drawings: list[list[Stroke]],
) -> None:
    strokes = drawings[0]
    steps = [check_artbox_drawing(strokes[:k], ROLL).to_json()
             for k in range(1, len(strokes) + 1)]
    # Copies of the same strokes (a match replayed after a power cut builds new objects)
    # have the same digests, read from their points, and get the same verdicts.
    copies = [Stroke(tuple(s.points), s.colour, s.width) for s in strokes]
    assert [figures.stroke_digest(c) for c in copies] == [
        figures.stroke_digest(s) for s in strokes]
    clear_caches()
    assert [check_artbox_drawing(copies[:k], ROLL).to_json()
            for k in range(1, len(copies) + 1)] == steps
    # Another stroke, even one made where a forgotten stroke lived, has its own digest.
    moved = Stroke(tuple((x + 1, y, t) for x, y, t in strokes[0].points))
    assert figures.stroke_digest(moved) != figures.stroke_digest(strokes[0])
    # The memo holds no stroke: a stroke nobody else holds is gone.
    alone = Stroke(tuple((x, y + 3, t) for x, y, t in strokes[0].points))
    figures.stroke_digest(alone)
    gone = weakref.ref(alone)
    del alone
    gc.collect()
    assert gone() is None
    again = Stroke(tuple((x, y + 3, t) for x, y, t in strokes[0].points))
    assert figures.stroke_digest(again) == figures.stroke_digest(Stroke(again.points))


async def test_an_artbox_pictures_check_is_made_on_the_writer_thread_not_the_loop(
    tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import games.artbox as artbox

    store = Store(tmp_path / "easel.sqlite3")
    assert store.start_writer()
    try:
        session = Session(store, config, "http://box")
        for i in range(3):
            session.join(f"Seat {i}", PALETTE[i])
        session.select(HOST, "artbox")
        session.start(HOST)
        assert session.match is not None
        for seat in range(3):
            session.act(seat, "keep", {"card": 0})
        session.act(session.match.state.round.starter, "roll", {})
        threads: list[threading.Thread] = []
        checked = check_artbox_drawing  # what games.artbox calls

        def counted(strokes: object, rolled: object) -> object:
            threads.append(threading.current_thread())
            return checked(strokes, rolled)  # type: ignore[arg-type]

        monkeypatch.setattr(artbox, "check_artbox_drawing", counted)
        points = [[300 + 40 * i, 400, 10 * i] for i in range(12)]
        done = session.submit(0, "stroke", {"points": points})
        assert not isinstance(done, bool)
        assert await done
        check = session.match.state.round.checks[0]
        assert "made" in check.__dict__  # made before the loop applied the move
        assert threads and threading.main_thread() not in threads
        assert check.found == ("line",)
        view = session.view_for(Viewer("player", 0))
        assert view["match"]["state"]["my_check"]["found"] == ["line"]
        assert len(threads) == 1  # the view read the check made
    finally:
        store.close()
