"""Drawing geometry's figures: the worst time on adversarial strokes (random walks of 100
to 20000 points, 20 jagged strokes on one drawing, the longest real scribble), the time to
check a real stroke (Broad Lines) and a 4-shape drawing (ArtBox), each cold (nothing
cached), a step of a busy ArtBox picture checked after each stroke (40 strokes, and 60
piled on one spot as the hostile bench's flood leaves them), the accuracy on the $1
gestures (tuning and held-out people), on the Quick, Draw! sample (tuning and held-out
halves), on the cases of issue 15 and on shapes drawn fast with a mouse in a browser
(their pointer events, by how long they took), and the time to replay a long ArtBox match after a
power cut (resume_long_artbox_s).

Times are per call on this machine, as p50 and p99 over many calls, in CPU time of the
thread (time.thread_time_ns: the machine is shared, and time spent preempted is not the
check's); nothing here asserts a time (the targets live in tests.bench). Run alone with
`python -m tests.bench.bench_geometry`.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise

from games.artbox import RULES as ARTBOX
from games.core import Action, SeatInfo, replay
from games.geometry import (
    Shape,
    check_artbox_drawing,
    check_broad_lines_sheet,
    clear_caches,
    stroke_from_xy,
)
from games.sheet import Stroke
from tests.test_artbox import Table
from tests.test_geometry_cost import random_walk
from tests.test_geometry_cost11 import knotted_adversaries
from tests.test_geometry_cost11 import resampled as resampled_to
from tests.test_geometry_cuts import CUTS, cut_rates
from tests.test_geometry_dollar1 import OUTCOMES, POSITIVES, confusion, load_gestures, rates
from tests.test_geometry_knots import knotted_polygon
from tests.test_geometry_lozenge_strokes import mixed_lozenge_in_strokes
from tests.test_geometry_person import (
    CASES,
    arcs_at_a_cusp,
    browser_circle,
    browser_polygon,
    circle_left_open,
    dashed_line,
    lozenge,
    rate,
    round_arc,
    shapes_reading,
    sheet_reading,
    wide_angle,
    wobbly_circle,
)
from tests.test_geometry_quickdraw import confusion as quickdraw_confusion
from tests.test_geometry_quickdraw import load_drawings, load_simplified, rhombus_readings
from tests.test_geometry_quickdraw import rates as quickdraw_rates
from tests.test_geometry_quickdraw import sheet_rates as quickdraw_sheet_rates

Pts = list[tuple[float, float]]


def _shaken(points: Pts, rng: random.Random) -> Stroke:
    """A stroke with the tremor (1.5 units) and the slow wobble (4 units) of a finger."""
    phase = rng.uniform(0, 6.3)
    return stroke_from_xy(
        (x + rng.gauss(0, 1.5) + 4 * math.sin(i / 9 + phase),
         y + rng.gauss(0, 1.5) + 4 * math.cos(i / 11 + phase))
        for i, (x, y) in enumerate(points)
    )


def _resampled(corners: Pts, count: int) -> Pts:
    """`count` points evenly spaced along the polyline through `corners`."""
    lengths = [math.dist(a, b) for a, b in pairwise(corners)]
    total = sum(lengths)
    out: Pts = []
    segment = 0
    walked = 0.0
    for k in range(count):
        s = total * k / (count - 1)
        while segment < len(lengths) - 1 and walked + lengths[segment] < s:
            walked += lengths[segment]
            segment += 1
        t = min(1.0, (s - walked) / lengths[segment]) if lengths[segment] else 0.0
        (ax, ay), (bx, by) = corners[segment], corners[segment + 1]
        out.append((ax + t * (bx - ax), ay + t * (by - ay)))
    return out


def _ellipse(cx: float, cy: float, rx: float, ry: float, count: int, turns: float = 1.04) -> Pts:
    return [(cx + rx * math.cos(2 * math.pi * turns * k / (count - 1)),
             cy + ry * math.sin(2 * math.pi * turns * k / (count - 1))) for k in range(count)]


def strokes_of_200_points(rng: random.Random) -> dict[str, Stroke]:
    """One of each kind of stroke a Broad Lines player draws, 200 points each."""
    n = 200
    wave = [(800 + 220 * math.sin(math.pi * 2 * k / (n - 1)), 150 + 700 * k / (n - 1))
            for k in range(n)]
    spiral = [(800 + (40 + 14 * a) * math.cos(a), 500 + (40 + 14 * a) * math.sin(a))
              for a in (k * 0.09 for k in range(n))]
    return {name: _shaken(points, rng) for name, points in (
        ("line", _resampled([(200, 300), (1400, 700)], n)),
        ("angle", _resampled([(300, 200), (700, 800), (1100, 200)], n)),
        ("ellipse", _ellipse(800, 500, 380, 260, n)),
        ("wave", wave),
        ("spiral, 3 turns", spiral),
        ("triangle", _resampled([(300, 700), (800, 150), (1300, 700), (300, 700)], n)),
    )}


def drawing_of_4_shapes(rng: random.Random) -> list[Stroke]:
    """An ArtBox drawing: a circle, a square, a triangle and a line, 120-160 points each."""
    return [
        _shaken(_ellipse(350, 300, 200, 170, 140), rng),
        _shaken(_resampled([(700, 150), (1050, 150), (1050, 500), (700, 500), (700, 150)],
                           160), rng),
        _shaken(_resampled([(1150, 500), (1350, 150), (1550, 500), (1150, 500)], 140), rng),
        _shaken(_resampled([(150, 800), (1450, 900)], 120), rng),
    ]


def _timed(calls: Sequence[Callable[[], object]], rounds: int) -> tuple[float, float]:
    """p50 and p99 in milliseconds of each call, over `rounds` rounds of all of them."""
    for call in calls:  # warm-up
        call()
    times: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for call in calls:
                began = time.thread_time_ns()
                call()
                times.append((time.thread_time_ns() - began) / 1e6)
    finally:
        gc.enable()
    times.sort()
    return times[len(times) // 2], times[min(len(times) - 1, int(len(times) * 0.99))]


def _cold(call: Callable[[], object]) -> Callable[[], object]:
    """The call after forgetting every cached result: a first check, the worst case."""
    def run_cold() -> object:
        clear_caches()
        return call()
    return run_cold


def _percentile(times: list[float], share: float) -> float:
    times = sorted(times)
    return times[min(len(times) - 1, int(len(times) * share))]


def worst_cases(rng: random.Random) -> dict[str, float]:
    """geometry_worst_ms: adversarial inputs, each checked cold (nothing cached). What the
    bench made before is frozen, as the box freezes what its start made (appliance/app.py):
    a check that happens to trigger a full collection then walks what checks make, not
    the bench's data sets (a 400-point walk measured 13-20 ms now and then without, the
    same walk 0.8 ms the other times)."""
    gc.collect()
    gc.freeze()
    try:
        return _worst_cases(rng)
    finally:
        gc.unfreeze()


def _worst_cases(rng: random.Random) -> dict[str, float]:
    figures: dict[str, float] = {}
    every: list[float] = []
    for count in (100, 400, 1000, 4000, 20000):
        walks = [random_walk(count, rng) for _ in range(5)]
        times = []
        for walk in walks:
            for call in (partial(check_broad_lines_sheet, [walk]),
                         partial(check_artbox_drawing, [walk], (Shape.LINE,) * 4)):
                began = time.thread_time_ns()
                _cold(call)()
                times.append((time.thread_time_ns() - began) / 1e6)
        figures[f"geometry_walk_{count}_ms_max"] = max(times)
        every.extend(times)
    # 20 jagged strokes on one ArtBox drawing, checked after each stroke as the game does
    # (the earlier strokes' results cached), and the whole drawing cold.
    jagged = [random_walk(300, rng, step=60) for _ in range(20)]
    clear_caches()
    steps = []
    for upto in range(1, 21):
        began = time.thread_time_ns()
        check_artbox_drawing(jagged[:upto], (Shape.LINE,) * 4)
        steps.append((time.thread_time_ns() - began) / 1e6)
    began = time.thread_time_ns()
    _cold(partial(check_artbox_drawing, jagged, (Shape.LINE,) * 4))()
    cold_20 = (time.thread_time_ns() - began) / 1e6
    figures["geometry_20_jagged_step_ms_max"] = max(steps)
    figures["geometry_20_jagged_cold_ms"] = cold_20
    every.extend(steps)
    # The longest real scribble: the $1 gesture with the most points, and all its
    # pigtails end to end in one stroke (a real hand, going on and on).
    gestures = load_gestures()
    longest = max(gestures, key=lambda g: len(g.stroke.points)).stroke
    pigtails = [g.stroke for g in gestures if g.label == "pigtail"][:12]
    chained = Stroke(tuple((x + 120 * i, y, t) for i, st in enumerate(pigtails)
                           for x, y, t in st.points))
    for stroke in (longest, chained):
        times = []
        for _ in range(20):
            began = time.thread_time_ns()
            _cold(partial(check_broad_lines_sheet, [stroke]))()
            times.append((time.thread_time_ns() - began) / 1e6)
        every.extend(times)
    figures["geometry_real_scribble_ms_max"] = max(times)
    figures["geometry_worst_ms_p99"] = _percentile(every, 0.99)
    figures["geometry_worst_ms_max"] = max(every)
    figures["geometry_4000_over_100_ratio"] = (
        figures["geometry_walk_4000_ms_max"] / figures["geometry_walk_100_ms_max"])
    figures["geometry_20000_over_100_ratio"] = (
        figures["geometry_walk_20000_ms_max"] / figures["geometry_walk_100_ms_max"])
    return figures


def tenth_pass_worst() -> dict[str, float]:
    """Issue 30's eleventh pass: the tenth pass's rules against their adversaries, each
    check cold (ms). `knot_worst_ms_max`: squares and triangles in one stroke with a knot
    at every corner, small curls all along their sides and ends crossing past the start,
    1000 and 4000 points (tests/test_geometry_cost11.py), read twice (the knot rule);
    `knot_broad_lines_ms_max`, the same on a Broad Lines sheet (not asked there);
    `knot_60_strokes_cold_ms`, a picture of 60 of them (the most it holds) checked cold, as
    the writer thread re-checks it after a restart, and `knot_60_strokes_step_ms_max`,
    checked after each stroke; `round_4000_ms_max`, lozenges and wobbling circles of 4000
    points (asked for four tips, or for evenly bowed sides)."""
    figures: dict[str, float] = {}
    knotted = knotted_adversaries(24)
    for name, check in (("knot_worst_ms", partial(check_artbox_drawing, rolled=(Shape.LINE,) * 4)),
                        ("knot_broad_lines_ms", check_broad_lines_sheet)):
        times = []
        for stroke in knotted:
            for _ in range(3):
                began = time.thread_time_ns()
                _cold(partial(check, [stroke]))()
                times.append((time.thread_time_ns() - began) / 1e6)
        figures[f"{name}_p50"] = _percentile(times, 0.5)
        figures[f"{name}_max"] = max(times)
    shapes = knotted[:6]
    picture = [stroke_from_xy([(x * 0.25 + 160 * (k % 10) - 100, y * 0.25 + 160 * (k // 10) - 50)
                               for x, y, _ in shapes[k % 6].points]) for k in range(60)]
    roll = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
    clear_caches()
    steps = []
    for upto in range(1, len(picture) + 1):
        began = time.thread_time_ns()
        check_artbox_drawing(picture[:upto], roll)
        steps.append((time.thread_time_ns() - began) / 1e6)
    figures["knot_60_strokes_step_ms_max"] = max(steps)
    colds = []
    for _ in range(3):
        began = time.thread_time_ns()
        _cold(partial(check_artbox_drawing, picture, roll))()
        colds.append((time.thread_time_ns() - began) / 1e6)
    figures["knot_60_strokes_cold_ms"] = min(colds)
    round_strokes = [resampled_to(make(random.Random(seed))[0], 4000)
                     for seed in range(12) for make in (lozenge, wobbly_circle)]
    times = []
    for stroke in round_strokes:
        for _ in range(3):
            began = time.thread_time_ns()
            _cold(partial(check_artbox_drawing, [stroke], roll))()
            times.append((time.thread_time_ns() - began) / 1e6)
    figures["round_4000_ms_max"] = max(times)
    return figures


def drawing_of_40_strokes(rng: random.Random) -> list[Stroke]:
    """A busy ArtBox picture drawn as fingers do: 16 shapes on a 4 x 4 grid, squares side
    by side, triangles too, half the circles in two goes: 40 strokes or so."""
    strokes: list[Stroke] = []
    shapes = ["square", "triangle", "circle", "line"]
    for row in range(4):
        for col in range(4):
            shape = shapes[(row + col) % 4]
            for part in _finger_shape(shape, 200 + 400 * col, 130 + 250 * row, rng, 0.6):
                strokes.append(Stroke(tuple((x, y, t) for x, y, t in part)))
    return strokes


def piled_strokes(count: int = 60) -> list[Stroke]:
    """What the hostile bench's small-stroke flood leaves: the same 12-point stroke, again
    and again (60 is the most a picture holds)."""
    return [stroke_from_xy([(i % 1600, (i * 7) % 1000) for i in range(12)])] * count


def incremental_steps(rng: random.Random) -> dict[str, float]:
    """artbox_step_ms: a drawing checked after each of its strokes, as the game does (the
    strokes and pairs before it cached), the worst step and the cold check of the whole."""
    figures: dict[str, float] = {}
    roll = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
    for name, strokes in (("40_strokes", drawing_of_40_strokes(rng)),
                          ("60_piled", piled_strokes())):
        clear_caches()
        steps = []
        for upto in range(1, len(strokes) + 1):
            began = time.thread_time_ns()
            check_artbox_drawing(strokes[:upto], roll)
            steps.append((time.thread_time_ns() - began) / 1e6)
        clear_caches()
        began = time.thread_time_ns()
        check_artbox_drawing(strokes, roll)
        figures[f"artbox_{name}_cold_ms"] = (time.thread_time_ns() - began) / 1e6
        figures[f"artbox_{name}_step_ms_p50"] = _percentile(steps, 0.5)
        figures[f"artbox_{name}_step_ms_max"] = max(steps)
        figures[f"artbox_{name}_strokes"] = float(len(strokes))
    return figures


def long_artbox_match(rng: random.Random) -> tuple[list[SeatInfo], int, list[Action]]:
    """A long ArtBox match, as its log: 8 players, every picture drawn shape by shape in
    finger strokes (a square side by side, a triangle too, half the circles in two goes),
    with a stray line undone now and then, played to its end. Returns the seats, the
    seed and the actions."""
    table = Table(8, seed=20261201)
    rounds = 0
    while table.state.phase != "over" and rounds < 12:
        rounds += 1
        table.keep_all()
        table.act("roll", table.starter)
        for seat in table.players:
            for i, shape in enumerate(table.state.round.dice):
                cx, cy = 250 + 370 * i, 300 + 400 * (seat % 2)
                for part in _finger_shape(shape, cx, cy, rng):
                    table.act("stroke", seat, points=part)
                if rng.random() < 0.3:  # a stray line, undone
                    table.act("stroke", seat, points=_finger_shape("line", cx, cy + 200, rng)[0])
                    table.act("undo", seat)
            table.act("finish", seat)
        for seat in table.players:
            owners = [s for s in table.players if s != seat]
            table.guess_right(seat, [s for s in owners if (s + rounds) % 3])
            table.guess_wrong(seat, [s for s in owners if not (s + rounds) % 3])
            table.act("done", seat)
        while table.state.phase == "reveal":
            table.act("press_reveal")
        if table.state.phase == "points":
            table.act("next", table.starter)
    return table.seats, table.seed, table.log


def _finger_shape(shape: str, cx: float, cy: float, rng: random.Random, scale: float = 1.0
                  ) -> list[list[list[int]]]:
    """One shape drawn by a finger, as the points of its strokes: a square side by side,
    a triangle too, a circle in one or two goes, 25-160 points each, with a finger's
    tremor and wobble."""
    r = 120.0 * scale
    if shape == "circle":
        outline = _ellipse(cx, cy, r, r * 0.9, rng.randint(100, 160))
        cut = rng.choice([len(outline), len(outline) // 2])
        parts = [outline[:cut + 3], outline[cut:]] if cut < len(outline) else [outline]
    elif shape in ("square", "triangle"):
        corners = ([(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
                   if shape == "square" else [(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)])
        ring = [*corners, corners[0]]
        parts = [_resampled([a, b], rng.randint(25, 40)) for a, b in pairwise(ring)]
    else:
        parts = [_resampled([(cx - r, cy), (cx + r, cy + 10)], rng.randint(100, 120))]
    return [[[x, y, t] for x, y, t in _shaken(part, rng).points] for part in parts if part]


def resume_cost(rng: random.Random) -> dict[str, float]:
    """resume_long_artbox_s: the replay of a long ArtBox match's log after a power cut,
    with nothing cached (the process is new), in CPU seconds of the thread."""
    seats, seed, log = long_artbox_match(rng)
    strokes = sum(a.kind == "stroke" for a in log)
    times = []
    for _ in range(3):
        clear_caches()
        began = time.thread_time_ns()
        state = replay(ARTBOX, seats, {}, seed, log)
        # What a view after the resume reads: every check of the round on the table.
        for check in state.round.checks.values():
            _ = check.legal
        times.append((time.thread_time_ns() - began) / 1e9)
    return {"resume_long_artbox_s": min(times), "resume_long_artbox_actions": float(len(log)),
            "resume_long_artbox_strokes": float(strokes)}


MOUSE_SECONDS: tuple[tuple[float, float], ...] = ((0.12, 0.2), (0.2, 0.3), (0.3, 0.5), (0.5, 1.0))
"""How long a fast mouse circle takes, the buckets its reading is reported by."""


def browser_rates() -> dict[str, float]:
    """Per cent of circles drawn fast with a mouse (as a browser samples them) read as a
    circle, by how long they took, on the tuning seeds (0-199) and held-out seeds
    (1000-1399); and of polygons so drawn in 0.15-0.3 s read as theirs (300 each)."""
    out = {}
    for seconds in MOUSE_SECONDS:
        name = f"browser_circle_{seconds[0]:g}_{seconds[1]:g}s".replace(".", "")
        for half, seeds in (("tuning", range(200)), ("held_out", range(1000, 1400))):
            circles = sum(shapes_reading(browser_circle(random.Random(seed), seconds)) == "circle"
                          for seed in seeds)
            out[f"{name}_pct_{half}"] = 100 * circles / len(seeds)
    for sides, wanted in ((3, ("triangle",)), (4, ("square", "not.diamond")), (6, ("not.corners",)),
                          (8, ("not.corners",))):
        kept = sum(shapes_reading(browser_polygon(sides, random.Random(seed), (0.15, 0.3)))
                   in wanted for seed in range(300))
        out[f"browser_polygon_{sides}_sides_kept_pct"] = 100 * kept / 300
    return out


SIXTH_PASS: tuple[tuple[str, Callable[[random.Random], list[Stroke]],
                        Callable[[list[Stroke]], str], str, range, range], ...] = (
    ("lozenge_circle", lozenge, shapes_reading, "circle", range(200), range(200, 800)),
    ("lozenge_square", lozenge, shapes_reading, "square", range(200), range(200, 800)),
    ("dashed_line_one_line", dashed_line, shapes_reading, "line", range(100), range(100, 300)),
    ("cusp_two_lines", arcs_at_a_cusp, sheet_reading, "2 lines", range(200), range(1000, 1200)),
    ("cusp_wide_two_lines", partial(arcs_at_a_cusp, turns=(40, 70)), sheet_reading, "2 lines",
     range(0, 400, 2), range(1000, 1400)),
    ("wide_angle_two_lines", wide_angle, sheet_reading, "2 lines", range(0, 400, 2),
     range(1000, 1400)),
)
"""Issue 30's sixth pass: generated cases, per cent read so, on the seeds the rules were
chosen on (tuning) and on seeds not looked at (held out): a lozenge as a circle or a
square (goal: 2 % at most), a line in dashes as one line, two arcs at a cusp as "2
lines" on a Broad Lines sheet (goal: refused; docs/geometry.md says why not all are).
The ninth pass's: two arcs at a cusp wider than 110 degrees inside (chords turning by
40-70 degrees) as "2 lines" (goal: refused, `CUSP_TURN`), and an angle as wide with
straight arms as "2 lines" (it must stay so)."""


def sixth_pass_rates() -> dict[str, float]:
    out = {}
    for name, make, read, wanted, tuning, held_out in SIXTH_PASS:
        for half, seeds in (("tuning", tuning), ("held_out", held_out)):
            hits = sum(read(make(random.Random(seed))) == wanted for seed in seeds)
            out[f"{name}_pct_{half}"] = 100 * hits / len(seeds)
    return out


NINTH_PASS: tuple[tuple[str, Callable[[random.Random], list[Stroke]]], ...] = (
    ("circle_open_05_15", lambda r: circle_left_open(r, (0.05, 0.15))),
    ("circle_open_15_20", circle_left_open),
    ("circle_open_20_25", lambda r: circle_left_open(r, (0.2, 0.25))),
    ("c_open_27_40", lambda r: circle_left_open(r, (0.27, 0.4))),
    ("arc_200_285", round_arc),
)
"""Issue 30's ninth pass: lumpy circles left open by a gap of 5-25 % of their length,
a C (27-40 %) and an arc of 200-285 degrees: per cent read as a circle, on the seeds the
rule was chosen on (tuning: even 0-798) and the others (held out: odd 1-799)."""


def ninth_pass_rates() -> dict[str, float]:
    out = {}
    for name, make in NINTH_PASS:
        for half, seeds in (("tuning", range(0, 800, 2)), ("held_out", range(1, 800, 2))):
            hits = sum(shapes_reading(make(random.Random(seed))) == "circle" for seed in seeds)
            out[f"{name}_circle_pct_{half}"] = 100 * hits / len(seeds)
    return out


KNOTS: tuple[tuple[str, str, Callable[[random.Random], list[Stroke]]], ...] = (
    ("knotted_square", "square", lambda r: knotted_polygon(r, "square")),
    ("knotted_rectangle", "square", lambda r: knotted_polygon(r, "rectangle")),
    ("knotted_triangle", "triangle", lambda r: knotted_polygon(r, "triangle")),
    ("knot_loop_8_15", "shape", lambda r: knotted_polygon(
        r, r.choice(("square", "rectangle", "triangle")), loop=(0.08, 0.15))),
    ("knot_loop_15_30", "shape", lambda r: knotted_polygon(
        r, r.choice(("square", "rectangle", "triangle")), loop=(0.15, 0.3))),
)
"""Issue 30's tenth pass: squares, rectangles and triangles drawn fast in one stroke with
a knot of 2-8 % of the perimeter at 1-2 corners and their ends running on past the
crossing (tests/test_geometry_knots.py), per cent read as their shape; and with bigger
loops (8-15 %, 15-30 %: the border, and loops a figure's own), per cent read as any
shape. On the seeds the rule was chosen on (tuning: even 0-398) and the others (held out:
odd 1-399)."""


def knot_rates() -> dict[str, float]:
    out = {}
    for name, wanted, make in KNOTS:
        for half, seeds in (("tuning", range(0, 400, 2)), ("held_out", range(1, 400, 2))):
            readings = [shapes_reading(make(random.Random(seed))) for seed in seeds]
            hits = sum(r == wanted or (wanted == "shape" and r in ("square", "triangle"))
                       for r in readings)
            out[f"{name}_{wanted}_pct_{half}"] = 100 * hits / len(seeds)
    return out


LOZENGE_NEW_SEEDS = range(800, 2800)
"""Issue 30's tenth pass: lozenges on new seeds (the tuning ones, seeds 0-199 and the even
ones of 200-2799, and the held-out odd ones), read as a circle or a square, per cent;
the goal is 2 % at most together."""


def lozenge_new_seed_rates() -> dict[str, float]:
    readings = Counter(shapes_reading(lozenge(random.Random(seed))) for seed in LOZENGE_NEW_SEEDS)
    count = len(LOZENGE_NEW_SEEDS)
    return {"lozenge_circle_pct_new_seeds": 100 * readings["circle"] / count,
            "lozenge_square_pct_new_seeds": 100 * readings["square"] / count}


LOZENGE_IN_STROKES_SEEDS: tuple[tuple[str, range], ...] = (
    ("tuning", range(200)), ("held_out", range(200, 800)))
"""Issue 30's eleventh pass: a lozenge drawn in 2 strokes (half of them), 3 or 4, cut at
random points or (a quarter) at its tips (`mixed_lozenge_in_strokes`), read as a circle
or a square, per cent, on the seeds the rule was looked at on (tuning) and the others
(held out); the goal is that of one stroke, 2 % at most."""


def lozenge_in_strokes_rates() -> dict[str, float]:
    out = {}
    for half, seeds in LOZENGE_IN_STROKES_SEEDS:
        readings = Counter(shapes_reading(mixed_lozenge_in_strokes(random.Random(seed)))
                           for seed in seeds)
        out[f"lozenge_in_strokes_pct_{half}"] = (
            100 * (readings["circle"] + readings["square"]) / len(seeds))
    return out


def run() -> dict[str, float]:
    rng = random.Random(2007)
    worst = worst_cases(rng)
    tenth_worst = tenth_pass_worst()
    strokes = strokes_of_200_points(rng)
    stroke_p50, stroke_p99 = _timed(
        [_cold(partial(check_broad_lines_sheet, [stroke])) for stroke in strokes.values()], 400)
    each = {name: _timed([_cold(partial(check_broad_lines_sheet, [stroke]))], 200)
            for name, stroke in strokes.items()}
    roll = (Shape.CIRCLE, Shape.SQUARE, Shape.TRIANGLE, Shape.LINE)
    drawings = [drawing_of_4_shapes(rng) for _ in range(5)]
    assert all(check_artbox_drawing(d, roll).legal for d in drawings), "the bench drawing"
    artbox_p50, artbox_p99 = _timed(
        [_cold(partial(check_artbox_drawing, drawing, roll)) for drawing in drawings], 200)

    gestures = load_gestures()
    real = _timed([_cold(partial(check_broad_lines_sheet, [g.stroke])) for g in gestures], 1)
    began = time.perf_counter()
    clear_caches()
    table = confusion(gestures)
    per_gesture = (time.perf_counter() - began) / len(gestures) * 1000
    accuracy = rates(table)
    held = rates(confusion([g for g in gestures if g.held_out]))
    tuning = rates(confusion([g for g in gestures if not g.held_out]))
    cuts_held = {k: v for at in CUTS
                 for k, v in cut_rates([g for g in gestures if g.held_out], at).items()}
    cuts_tuning = {k: v for at in CUTS
                   for k, v in cut_rates([g for g in gestures if not g.held_out], at).items()}
    person = {name: rate(case)[0] * 100 for name, case in CASES.items()}
    sample = load_drawings()
    quickdraw_tuning = quickdraw_rates(quickdraw_confusion([d for d in sample if not d.held_out]))
    quickdraw_held = quickdraw_rates(quickdraw_confusion([d for d in sample if d.held_out]))
    sheets_tuning = quickdraw_sheet_rates([d for d in sample if not d.held_out])
    sheets_held = quickdraw_sheet_rates([d for d in sample if d.held_out])
    rhombi = rhombus_readings(sample)
    more = load_simplified(sample)
    more_tuning = quickdraw_rates(quickdraw_confusion([d for d in more if not d.held_out]))
    more_held = quickdraw_rates(quickdraw_confusion([d for d in more if d.held_out]))
    mouse = browser_rates()
    sixth = sixth_pass_rates()
    ninth = ninth_pass_rates()
    knots = knot_rates()
    lozenges = lozenge_new_seed_rates()
    in_strokes = lozenge_in_strokes_rates()
    resume = resume_cost(rng)
    steps = incremental_steps(rng)

    print(f"   {'adversarial (cold), ms':34} {'':>8} {'max':>8}")
    for key, value in worst.items():
        print(f"   {key:40} {value:8.3f}")
    print("   the tenth pass's rules against their adversaries (cold), ms:")
    for key, value in tenth_worst.items():
        print(f"   {key:40} {value:8.3f}")
    print(f"   {'check':34} {'p50 ms':>8} {'p99 ms':>8}")
    print(f"   {'Broad Lines, a $1 gesture (cold)':34} {real[0]:8.3f} {real[1]:8.3f}")
    print(f"   {'Broad Lines, one 200-point stroke':34} {stroke_p50:8.3f} {stroke_p99:8.3f}")
    for name, (p50, p99) in each.items():
        print(f"   {'   ' + name:34} {p50:8.3f} {p99:8.3f}")
    print(f"   {'ArtBox, a drawing of 4 shapes':34} {artbox_p50:8.3f} {artbox_p99:8.3f}")
    print(f"   {'ArtBox, one $1 gesture (mean)':34} {per_gesture:8.3f}")
    for name in ("40_strokes", "60_piled"):
        print(f"   {'ArtBox, ' + name.replace('_', ' ') + ', a step':34}"
              f" {steps[f'artbox_{name}_step_ms_p50']:8.3f}"
              f" {steps[f'artbox_{name}_step_ms_max']:8.3f} (max; cold"
              f" {steps[f'artbox_{name}_cold_ms']:.3f})")
    print()
    print(f"   $1 gestures read as ArtBox shapes ({len(gestures)} gestures, counts):")
    print(f"   {'class':18}" + "".join(f"{o:>10}" for o in OUTCOMES))
    for label in sorted(table, key=lambda name: (name not in POSITIVES, name)):
        print(f"   {label:18}" + "".join(f"{table[label][o]:10d}" for o in OUTCOMES))
    print()
    print(f"   {'$1, % (all / tuning: odd people / held out: even)':50}")
    for key, value in accuracy.items():
        print(f"   {key:28} {value:6.2f} {tuning[key]:6.2f} {held[key]:6.2f}")
    print("   $1 shapes cut into two strokes, read as that one shape, % (tuning / held out):")
    for key, value in cuts_held.items():
        print(f"   {key:36} {cuts_tuning[key]:6.1f} {value:6.1f}")
    print()
    print("   the cases of issue 15 (seeded finger-drawn generators, 20 each), % as wanted:")
    for name, value in person.items():
        print(f"   {name:40} {value:5.0f}")
    print()
    print("   Quick, Draw! drawings read as an ArtBox shape, % (tuning / held out):")
    for key, value in quickdraw_held.items():
        print(f"   {key:36} {quickdraw_tuning[key]:6.1f} {value:6.1f}")
    print(f"   more Quick, Draw! drawings (the simplified files, {len(more)} not in the sample),"
          " % (tuning / held out):")
    for key, value in more_held.items():
        print(f"   {key:36} {more_tuning[key]:6.1f} {value:6.1f}")
    print("   Quick, Draw! drawings legal as one Broad Lines sheet, % (tuning / held out):")
    for key, value in sheets_held.items():
        print(f"   {key:36} {sheets_tuning[key]:6.1f} {value:6.1f}")
    print("   Quick, Draw! squares and diamonds, both halves: rhombi (alike sides, corners 15-30"
          " degrees off) and diamonds read as a square:")
    for key, value in rhombi.items():
        print(f"   {key:40} {value:6.1f}")
    print("   drawn fast with a mouse (pointer events), % a circle (tuning / held out) or"
          " polygons kept:")
    for key, value in mouse.items():
        print(f"   {key:40} {value:6.1f}")
    print("   issue 30's sixth and ninth passes, generated, % (tuning / held out seeds):")
    for name, *_ in SIXTH_PASS:
        print(f"   {name:40} {sixth[f'{name}_pct_tuning']:6.1f}"
              f" {sixth[f'{name}_pct_held_out']:6.1f}")
    print("   issue 30's ninth pass, generated, % a circle (tuning / held out seeds):")
    for name, _ in NINTH_PASS:
        print(f"   {name:40} {ninth[f'{name}_circle_pct_tuning']:6.1f}"
              f" {ninth[f'{name}_circle_pct_held_out']:6.1f}")
    print("   issue 30's tenth pass, knotted polygons, % read as the shape (tuning / held out"
          " seeds):")
    for key in sorted({key.rsplit("_pct_", 1)[0] for key in knots}):
        print(f"   {key:40} {knots[f'{key}_pct_tuning']:6.1f} {knots[f'{key}_pct_held_out']:6.1f}")
    print("   issue 30's tenth pass, lozenges of seeds 800-2799, %:")
    for key, value in lozenges.items():
        print(f"   {key:40} {value:6.1f}")
    print("   issue 30's eleventh pass, a lozenge in 2-4 strokes, % a circle or a square"
          " (tuning / held out seeds):")
    print(f"   {'lozenge_in_strokes':40} {in_strokes['lozenge_in_strokes_pct_tuning']:6.1f}"
          f" {in_strokes['lozenge_in_strokes_pct_held_out']:6.1f}")
    print()
    logged = resume["resume_long_artbox_actions"], resume["resume_long_artbox_strokes"]
    print(f"   resume: a long ArtBox match replayed cold ({logged[0]:.0f} actions, {logged[1]:.0f}"
          f" strokes): {resume['resume_long_artbox_s']:.3f} s CPU")
    return {
        **{key: value for key, value in worst.items()},
        **tenth_worst,
        "stroke_check_ms_p50": real[0],
        "stroke_check_ms_p99": real[1],
        "stroke_200_points_ms_p99": stroke_p99,
        "artbox_check_ms_p50": artbox_p50,
        "artbox_check_ms_p99": artbox_p99,
        "dollar1_gesture_ms_mean": per_gesture,
        **accuracy,
        **{f"{key}_held_out": value for key, value in held.items()},
        **{f"{key}_held_out": value for key, value in cuts_held.items()},
        **{f"{key}_tuning": value for key, value in cuts_tuning.items()},
        **{f"person_{_slug(name)}_pct": value for name, value in person.items()},
        **{f"{key}_held_out": value for key, value in quickdraw_held.items()},
        **{f"{key}_tuning": value for key, value in quickdraw_tuning.items()},
        **{f"{key}_held_out": value for key, value in sheets_held.items()},
        **{f"{key}_tuning": value for key, value in sheets_tuning.items()},
        **{f"{key}_simplified_held_out": value for key, value in more_held.items()},
        **{f"{key}_simplified_tuning": value for key, value in more_tuning.items()},
        **rhombi,
        **mouse,
        **sixth,
        **ninth,
        **knots,
        **lozenges,
        **in_strokes,
        **resume,
        **steps,
    }


def _slug(name: str) -> str:
    return "_".join("".join(c if c.isalnum() else " " for c in name.split(":")[0]).split())


if __name__ == "__main__":
    print(run())
