"""Drawing geometry against public drawings it was not written for: a sample of Google's
Quick, Draw! data (CC BY 4.0; tests/data/quickdraw/SOURCE.md), drawn by players of an
online game with a mouse or a finger, one stroke or several, against a 20-second clock.

Circles, squares, triangles and lines must read as that ArtBox shape (the whole drawing,
however many strokes); hexagons, octagons, diamonds, stars, zigzags, squiggles, peanuts
and snakes must rarely be taken for a circle, a square or a triangle. The drawings are
split in two by a digest of their key: rules are tuned on one half only, and the test's
floors are on the other, the held-out half, measured once with a margin below.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.geometry import Shape, ShapeVerdict, check_broad_lines_sheet, recognise_shapes
from games.geometry.figures import FigureKind
from games.geometry.polyline import turn_between
from games.geometry.tolerances import SIDE_TOLERANCE
from games.sheet import Stroke

QUICKDRAW = Path(__file__).resolve().parent / "data" / "quickdraw"
SIMPLIFIED = Path(__file__).resolve().parent / "data" / "quickdraw_simplified"
"""More drawings of the shape classes, from the data set's simplified files (no stair
steps, no times; SOURCE.md there): only those not in the raw sample are read."""
SPAN = 800
"""Sheet units the longer side of a drawing is scaled to (players drew on canvases of
different sizes; 800 is half the sheet's width, a drawing made to fill a phone)."""

POSITIVES = {"circle": "circle", "square": "square", "triangle": "triangle", "line": "line"}
"""Each shape class and the outcome it must read as."""
NEGATIVES = ("hexagon", "octagon", "diamond", "star", "zigzag", "squiggle", "peanut", "snake")
CLOSED = {"circle", "square", "triangle"}
OTHERS = ("lightning", "cookie")
"""Classes read for one thing each: a lightning bolt is no legal Broad Lines sheet (its
zigzag is 3 lines or more, or curves), and a cookie's outline (its longest stroke) is a
round, lumpy circle drawn fast (some are bitten or drawn open: no floor of 100 %)."""


@dataclass(frozen=True)
class Drawing:
    word: str
    key_id: str
    strokes: tuple[Stroke, ...]

    @property
    def held_out(self) -> bool:
        """The held-out half: by a digest of the drawing's key, so that the split does not
        follow the order of the file or the country."""
        return hashlib.blake2b(self.key_id.encode(), digest_size=1).digest()[0] % 2 == 1


def load_drawings(folder: Path = QUICKDRAW, skip: frozenset[str] = frozenset()) -> list[Drawing]:
    """Every drawing of every class, scaled to SPAN sheet units, with times from 0 (a
    simplified drawing has none: 10 ms a point), but those whose key is in `skip`."""
    files = sorted(folder.glob("*.ndjson"))
    if not files:
        raise FileNotFoundError(f"the Quick, Draw! sample is missing: expected {folder}/*.ndjson")
    drawings = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["key_id"] in skip:
                continue
            raw = [stroke if len(stroke) == 3
                   else [*stroke, [10 * i for i in range(len(stroke[0]))]]
                   for stroke in row["drawing"]]
            xs = [x for stroke in raw for x in stroke[0]]
            ys = [y for stroke in raw for y in stroke[1]]
            scale = SPAN / max(max(xs) - min(xs), max(ys) - min(ys), 1)
            t0 = raw[0][2][0]
            strokes = tuple(
                Stroke(tuple((round(400 + (x - min(xs)) * scale),
                              round(100 + (y - min(ys)) * scale), t - t0)
                             for x, y, t in zip(*stroke, strict=True)))
                for stroke in raw
            )
            drawings.append(Drawing(row["word"], row["key_id"], strokes))
    return drawings


def load_simplified(raw: Sequence[Drawing]) -> list[Drawing]:
    """The simplified sample's drawings that the raw sample does not hold."""
    return load_drawings(SIMPLIFIED, frozenset(d.key_id for d in raw))


def outcome(verdicts: Sequence[ShapeVerdict]) -> str:
    """What a whole drawing reads as: one shape, only lines, or no shape (a part drawn
    over another, or a stray mark, is no part of it, as in the game's verdict)."""
    shapes = [v.shape for v in verdicts if v.reason_key != "not.drawn_over" and not v.stray]
    if len(shapes) == 1 and shapes[0] is not None:
        return shapes[0].value
    if shapes and all(s is Shape.LINE for s in shapes):
        return "lines"
    return "no shape"


def confusion(drawings: Sequence[Drawing]) -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {}
    for drawing in drawings:
        table.setdefault(drawing.word, Counter())[outcome(recognise_shapes(drawing.strokes))] += 1
    return table


def rates(table: dict[str, Counter[str]]) -> dict[str, float]:
    """Per cent of each shape class read as its shape, and of each other class taken for
    a circle, a square or a triangle."""
    out = {f"quickdraw_{word}_pct": 100 * table[word][want] / sum(table[word].values())
           for word, want in POSITIVES.items() if word in table}
    for word in NEGATIVES:
        if word in table:
            taken = sum(table[word][s] for s in CLOSED)
            out[f"quickdraw_{word}_taken_pct"] = 100 * taken / sum(table[word].values())
    return out


SHEET_CLASSES = ("circle", "line", "hexagon", "octagon", "zigzag", "star", "snake", "peanut")
"""Classes whose Broad Lines reading is measured: circles and lines are legal sheets, the
others are not (too many lines, or a curve that changes its bend)."""


def sheet_rates(drawings: Sequence[Drawing]) -> dict[str, float]:
    """Per cent of each class's drawings that pass a Broad Lines sheet."""
    out = {}
    for word in SHEET_CLASSES:
        mine = [d for d in drawings if d.word == word]
        if mine:
            legal = sum(check_broad_lines_sheet(d.strokes).legal for d in mine)
            out[f"quickdraw_{word}_sheet_legal_pct"] = 100 * legal / len(mine)
    return out


@pytest.fixture(scope="module")
def drawings() -> list[Drawing]:
    return load_drawings()


def test_the_sample_is_there_with_its_licence(drawings: list[Drawing]) -> None:
    assert (QUICKDRAW / "LICENSE.CC-BY-4.0").is_file() and (QUICKDRAW / "SOURCE.md").is_file()
    per_class = Counter(d.word for d in drawings)
    assert set(per_class) == set(POSITIVES) | set(NEGATIVES) | set(OTHERS)
    assert min(per_class.values()) >= 20
    held = sum(d.held_out for d in drawings)
    assert 0.4 < held / len(drawings) < 0.6


FLOORS: dict[str, float] = {"circle": 90, "square": 80, "triangle": 65, "line": 85}
"""Held-out floors, per cent, each lowered by a margin of two drawings or more (the
classes hold 19-61 held-out drawings each). Measured on the held-out half when it was
first read (circle 23/24, square 18/19, triangle 23/32, line 56/61), once again
after the stray-mark, side-overshoot and there-and-back rules, which were chosen on the
tuning half only (circle 24/24, the others unchanged), and after the rules of the fifth
session (sharp points, corners of two sizes, sides crossing a quarter past their
corners; chosen on the tuning half and on generated polygons): triangle 24/32; after
the sixth session's (a corner drawn round, parting ends at a sharp corner, a wave above
the tremor; chosen on the tuning half and generators): unchanged."""
CEILINGS: dict[str, float] = {
    "hexagon": 8, "octagon": 15, "diamond": 37, "peanut": 8,
    "star": 6, "zigzag": 6, "squiggle": 6, "snake": 8,
}
"""Held-out ceilings, per cent, of other classes taken for a circle, a square or a
triangle (measured: hexagon 2/25, octagon 2/20, diamond 4/19 when first read and 5/19
after the rules above (a three-cornered diamond with a dot beside it, now a
triangle), peanut 1/26, none of the others; after the fifth session's rules hexagon
0/25, octagon 1/20, peanut 0/26; the sixth session's and the seventh's (polygons by
their straight sides, diamonds by their diagonals): unchanged), with the same margin."""


def test_the_held_out_half_reads_as_a_person_would(drawings: list[Drawing]) -> None:
    table = confusion([d for d in drawings if d.held_out])
    measured = rates(table)
    for word, floor in FLOORS.items():
        assert measured[f"quickdraw_{word}_pct"] >= floor, (word, dict(table[word]))
    for word, ceiling in CEILINGS.items():
        assert measured[f"quickdraw_{word}_taken_pct"] <= ceiling, (word, dict(table[word]))


BROAD_LINES_LEGAL: dict[str, float] = {
    "hexagon": 0.12, "octagon": 0.10, "zigzag": 0.05, "star": 0.05,
}
"""At most this share of each class may pass a Broad Lines sheet (measured on the
held-out half: hexagon 6/25, octagon 4/20, zigzag 0/26, star 0/18; after the fifth
session's rules, polygons left open and closed curves with points, hexagon 1/25,
octagon 1/20; after the sixth session's, straight strokes at joints and an open
polygon's bowed end side, unchanged, the tuning half's 9.1 -> 4.5 % and 25.9 -> 18.5 %;
after issue 30's open curve turning at corners, octagon 0/20, the tuning half's hexagons
4.5 -> 0 % and octagons 14.8 -> 11.1 %), with a margin of two drawings."""


def test_broad_lines_refuses_polygons_and_zigzags_of_the_held_out_half(
    drawings: list[Drawing],
) -> None:
    held = [d for d in drawings if d.held_out]
    for word in ("hexagon", "octagon", "zigzag", "star"):
        verdicts = [check_broad_lines_sheet(d.strokes) for d in held if d.word == word]
        legal = sum(v.legal for v in verdicts)
        assert legal <= BROAD_LINES_LEGAL[word] * len(verdicts), (word, legal, len(verdicts))


def test_real_peanuts_are_no_circles_their_dents_reverse_the_bend(
    drawings: list[Drawing],
) -> None:
    # A peanut's outline (its longest stroke) is a closed blob with a dent at its waist:
    # no circle, and no "1 curve" of Broad Lines. Measured on the held-out half: 2 of 26
    # taken for a shape, 3 of 26 allowed (before the dent rule: 3 and 6).
    outlines = [max(d.strokes, key=lambda s: len(s.points))
                for d in drawings if d.held_out and d.word == "peanut"]
    shapes = sum(recognise_shapes([o])[0].shape is not None for o in outlines)
    legal = sum(check_broad_lines_sheet([o]).legal for o in outlines)
    assert shapes <= 0.16 * len(outlines) and legal <= 0.2 * len(outlines), (shapes, legal)


def test_real_zigzags_stay_straight_lines_the_wave_rule_leaves_them(
    drawings: list[Drawing],
) -> None:
    # A zigzag turns at its corners only: too many lines, not a wave (measured on the
    # held-out half: 21 of the 23 one-stroke zigzags).
    zigzags = [d.strokes for d in drawings
               if d.held_out and d.word == "zigzag" and len(d.strokes) == 1]
    lines = sum(check_broad_lines_sheet(z).reason_key == "sheet.too_many" for z in zigzags)
    assert lines >= 0.8 * len(zigzags), (lines, len(zigzags))


def _turned(stroke: Stroke) -> Stroke:
    """The stroke turned by 90 degrees about the middle of the drawings (800, 500)."""
    return Stroke(tuple((800 - (y - 500), 500 + (x - 800), t) for x, y, t in stroke.points))


def test_two_real_lines_on_one_sheet_are_legal(drawings: list[Drawing]) -> None:
    # Each held-out line drawn in one stroke that is a legal sheet alone, with the next
    # one on the same sheet: overlaid (the sample's drawings all span the same 800
    # units, so their ends meet), or turned by 90 degrees. Issue 15's goal is 95 %;
    # measured: overlaid 56/56 (before the side-by-side and to-and-fro rules: 52/56),
    # turned 54/56 (54/56). The tuning half: 43/47 and 44/47 (42/47, 44/47).
    alone = [d.strokes for d in drawings
             if d.held_out and d.word == "line" and len(d.strokes) == 1
             and check_broad_lines_sheet(d.strokes).legal]
    pairs = list(zip(alone, alone[1:] + alone[:1], strict=True))
    overlaid = sum(check_broad_lines_sheet(a + b).legal for a, b in pairs)
    turned = sum(check_broad_lines_sheet(a + tuple(_turned(s) for s in b)).legal
                 for a, b in pairs)
    assert overlaid >= 0.95 * len(pairs) and turned >= 0.95 * len(pairs), (
        overlaid, turned, len(pairs))


def _four_sided(verdict: ShapeVerdict) -> tuple[float, float] | None:
    """A closed figure of 4 straight sides: how far its corners are off square on average
    (degrees) and its shortest side over its longest; None for any other part."""
    figure = verdict.figure
    if (figure is None or not figure.closed or figure.kind is not FigureKind.LINES
            or len(figure.pieces) != 4):
        return None
    pieces = figure.pieces
    turns = [math.degrees(abs(turn_between(a.end[0] - a.start[0], a.end[1] - a.start[1],
                                           b.end[0] - b.start[0], b.end[1] - b.start[1])))
             for a, b in zip(pieces, (*pieces[1:], pieces[0]), strict=True)]
    sides = [math.dist(p.start, p.end) for p in pieces]
    return sum(abs(t - 90) for t in turns) / 4, min(sides) / max(sides)


def rhombus_readings(drawings: Sequence[Drawing]) -> dict[str, float]:
    """Issue 15's rhombus measure on the squares and diamonds: four-sided figures whose
    sides are alike (the shortest 75 % of the longest or more) and whose corners are
    15-30 degrees off square on average (rhombi; how many are read as a square), and
    how many diamonds are read as one square."""
    rhombi = rhombi_squares = diamond_squares = 0
    for drawing in drawings:
        if drawing.word not in ("diamond", "square"):
            continue
        verdicts = recognise_shapes(drawing.strokes)
        diamond_squares += drawing.word == "diamond" and outcome(verdicts) == "square"
        for verdict in verdicts:
            measured = _four_sided(verdict)
            if measured is None:
                continue
            off, sides = measured
            if 15 <= off <= 30 and sides >= 0.75:
                rhombi += 1
                rhombi_squares += verdict.shape is Shape.SQUARE
    return {"quickdraw_rhombi": rhombi, "quickdraw_rhombi_taken_for_square": rhombi_squares,
            "quickdraw_diamonds_read_as_square": diamond_squares}


def test_a_real_rhombus_or_square_on_its_tip_is_a_diamond_no_square(
    drawings: list[Drawing],
) -> None:
    # Issue 15's measure, on both halves of the squares and diamonds (nothing here is
    # tuned: it checks the diamond rule's two sides). Quick, Draw! "diamonds" are gems
    # (a triangle under a flat top, facets) and rhombi; the four-sided ones stand on
    # their tip, some with corners near square (diagonals 1.08 and 1.14 apart, held
    # out), which a person calls a diamond (TIP_ANGLE: a square on its tip is seen as
    # one). A four-sided figure whose sides are alike and whose corners are 15-30
    # degrees off square on average is a rhombus: refused (one square of the tuning
    # half, corners 15.5 off, is such a rhombus). The real squares, drawn upright, stay
    # squares (test_the_held_out_half_reads_as_a_person_would).
    measured = rhombus_readings(drawings)
    assert measured["quickdraw_rhombi"] >= 1, measured
    assert measured["quickdraw_rhombi_taken_for_square"] == 0, measured
    assert measured["quickdraw_diamonds_read_as_square"] == 0, measured


def test_an_octagon_left_open_its_last_side_run_round_a_corner_is_lines(
    drawings: list[Drawing],
) -> None:
    # A tuning drawing the rule was written for: an octagon two sides short whose last
    # side runs on round its corner (15.9 % off its chord) is 6 lines, not "1 curve"
    # (before the sixth session: "1 curve: allowed"). Its first or last side may bow, and
    # no side between corners: a question mark's hook, however angular, bows there (the
    # 330 $1 question marks read as before, to the gesture).
    octagon = next(d for d in drawings if d.key_id == "6654824772796416")
    verdict = check_broad_lines_sheet(octagon.strokes)
    assert (verdict.reason_key, verdict.lines, verdict.curves) == ("sheet.too_many", 6, 0)


def test_two_real_lines_meeting_at_a_small_angle_stay_two_lines(drawings: list[Drawing]) -> None:
    # Stroke ends pointing out the same way that part meet at a corner only when the
    # strokes open by half SIDE_BY_SIDE_ANGLE or more (a narrow triangle's apex, 15
    # degrees or more): two tuning lines overlaid on one sheet, a straight one and one
    # bowed up to meet its right end with a hook, 9 degrees apart chord to chord, are
    # 2 lines, not an angle and a line.
    by_key = {d.key_id: d for d in drawings}
    sheet = by_key["5934449751490560"].strokes + by_key["4574804118077440"].strokes
    verdict = check_broad_lines_sheet(sheet)
    assert verdict.legal and verdict.lines == 2, verdict.reason


def test_real_lightning_bolts_are_no_legal_sheet(drawings: list[Drawing]) -> None:
    # Measured, when the class was added (both halves, the rules of that time): 0 of 29.
    bolts = [d for d in drawings if d.word == "lightning"]
    legal = sum(check_broad_lines_sheet(d.strokes).legal for d in bolts)
    assert legal <= 0.07 * len(bolts), (legal, len(bolts))


def test_a_real_cookies_round_outline_is_a_circle(drawings: list[Drawing]) -> None:
    # The longest stroke of each held-out cookie: 14 of 16 read as a circle when the class
    # was added (the other two: a bitten cookie with a flat side, and one left open).
    outlines = [max(d.strokes, key=lambda s: len(s.points))
                for d in drawings if d.held_out and d.word == "cookie"]
    circles = sum(recognise_shapes([o])[0].shape is Shape.CIRCLE for o in outlines)
    assert circles >= len(outlines) - 4, (circles, len(outlines))


def test_an_octagon_left_open_and_drawn_round_turns_at_corners_no_curve(
    drawings: list[Drawing],
) -> None:
    # A tuning octagon, half of it drawn, its sides bowing between 4 corners of 30-45
    # degrees: "1 curve: allowed" before issue 30's third pass, now a curve turning at
    # corners (open_corners), as is a held-out one.
    by_key = {d.key_id: d for d in drawings}
    for key in ("5032903316602880", "5697908470972416"):
        verdict = check_broad_lines_sheet(by_key[key].strokes)
        assert verdict.reason_key == "sheet.corners" and not verdict.legal, verdict.reason
        points = verdict.params["points"]
        assert isinstance(points, int) and points >= 2 and "corners" in verdict.reason


SIMPLIFIED_FLOORS: dict[str, float] = {"circle": 85, "square": 83, "triangle": 82, "line": 82}
"""Held-out floors on the simplified sample's new drawings, per cent, each a margin of
two drawings below what was measured when they were added (issue 30's third pass, the
rules chosen before on the raw sample and generators): circle 26/28, square 37/42,
triangle 26/29; the tuning half: 26/28, 31/35, 35/37. The lines came in the fourth pass,
before any rule was changed: 26/29 held out, 27/34 tuning (the misses: lines drawn in
dashes, an L, a cross, two lines side by side, a wavy line, a leaf)."""


def test_more_real_drawings_read_as_their_shape(drawings: list[Drawing]) -> None:
    more = load_simplified(drawings)
    assert (SIMPLIFIED / "LICENSE.CC-BY-4.0").is_file() and (SIMPLIFIED / "SOURCE.md").is_file()
    per_class = Counter(d.word for d in more)
    assert set(per_class) == set(SIMPLIFIED_FLOORS) and min(per_class.values()) >= 50
    assert not {d.key_id for d in more} & {d.key_id for d in drawings}
    measured = rates(confusion([d for d in more if d.held_out]))
    for word, floor in SIMPLIFIED_FLOORS.items():
        assert measured[f"quickdraw_{word}_pct"] >= floor, (word, measured)


def test_a_real_line_drawn_in_dashes_is_one_line(drawings: list[Drawing]) -> None:
    # Three tuning lines of the simplified files, drawn in 2-3 dashes with gaps of 0.5-1.2
    # dashes (and a tap or two at an end, which a person overlooks): several lines before
    # issue 30's sixth pass, one line now (`artbox._dashes`); held out, one more (27/29).
    by_key = {d.key_id: d for d in load_simplified(drawings)}
    for key in ("5287879389478912", "6535067394375680", "5980915257835520"):
        assert outcome(recognise_shapes(by_key[key].strokes)) == "line", key


def test_a_cookie_read_as_four_sides_36_degrees_off_square_is_no_square(
    drawings: list[Drawing],
) -> None:
    # The nearest real figure to RIGHT_ANGLE_TOLERANCE that no person calls a square: a
    # tuning cookie whose outline is read as four sides, one corner 36 degrees off (its
    # chips are a circle and a scribble).
    cookie = next(d for d in drawings if d.key_id == "5645038027538432")
    verdicts = recognise_shapes(cookie.strokes)
    assert "not.rectangle" in [v.reason_key for v in verdicts], verdicts
    assert Shape.SQUARE not in [v.shape for v in verdicts], verdicts


def test_a_real_square_with_one_side_drawn_round_is_a_square(drawings: list[Drawing]) -> None:
    # A tuning square in one stroke, its right side swung out round (bowing 15.5 % of its
    # chord, its corners 81-100 degrees): "a closed figure with 4 corners" before issue
    # 30's eighth pass (`artbox._bowed_square`, BOWED_SIDE); held out, one more moved so.
    square = next(d for d in drawings if d.key_id == "4526069946253312")
    verdicts = recognise_shapes(square.strokes)
    assert outcome(verdicts) == "square", verdicts
    bow = verdicts[0].params["deviation"]
    assert isinstance(bow, float) and bow > SIDE_TOLERANCE  # its side is no straight one
