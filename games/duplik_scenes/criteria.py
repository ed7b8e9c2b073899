"""Criteria: every true, fair, drawable statement about a scene, and `holds` to re-check one.

A criterion is found by reading the objects' boxes and details, worded in both languages,
and later re-checked by `holds` from the same data (never from a stored flag). Each test
keeps a clear margin, so what is true in the data is unmistakable in the picture and in
an Evaluator's stick-figure drawing: "left of" means a gap between the two, "bigger"
means at least 1.5 times as wide and as tall, a corner means the object's centre lies in the
outer quarter of the frame both ways and no other object's centre lies there (so "the dog
is in the bottom-right corner" can only be said of one object), a side or the middle the
same with the middle quarter for the other direction (`REGION_BANDS`).

Fairness: a criterion may name "the dog" only when the scene has exactly one dog, and may
not count or name birds while an owl (also a bird) is in the picture (`kinds.CONFLICTS`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from games.duplik_scenes.kinds import (
    CONFLICTS,
    CONTRASTS,
    HOLDERS,
    OBJECT_KINDS,
    SURFACE_NOUN,
    body_of,
    cavity_of,
    hand,
    is_aloft,
    size_of,
    surface_of,
    underside_of,
)
from games.duplik_scenes.model import FRAME, Box, Criterion, Scene, SceneObject
from games.duplik_scenes.words import Noun, Text, cap, cs_be, cs_count, cs_in, en_be, en_count

CRITERIA_PER_SCENE: Final = 10
UNCOUNTED: Final = frozenset({"sun", "moon", "rainbow"})
"""Kinds nobody counts: "exactly one sun" is no criterion."""

# --- Regions of the frame -----------------------------------------------------------------

REGIONS: Final = {
    (0, 0): "top-left", (1, 0): "top", (2, 0): "top-right",
    (0, 1): "left", (1, 1): "centre", (2, 1): "right",
    (0, 2): "bottom-left", (1, 2): "bottom", (2, 2): "bottom-right",
}
REGION_TEXT: Final = {
    "top-left": Text("in the top-left corner", "v levém horním rohu"),
    "top": Text("at the top, in the middle", "nahoře uprostřed"),
    "top-right": Text("in the top-right corner", "v pravém horním rohu"),
    "left": Text("in the middle of the left side", "uprostřed levé strany obrázku"),
    "centre": Text("in the middle of the picture", "uprostřed obrázku"),
    "right": Text("in the middle of the right side", "uprostřed pravé strany obrázku"),
    "bottom-left": Text("in the bottom-left corner", "v levém dolním rohu"),
    "bottom": Text("at the bottom, in the middle", "dole uprostřed"),
    "bottom-right": Text("in the bottom-right corner", "v pravém dolním rohu"),
}
HALF_TEXT: Final = {
    "left": Text("in the left half of the picture", "v levé polovině obrázku"),
    "right": Text("in the right half of the picture", "v pravé polovině obrázku"),
    "top": Text("in the top half of the picture", "v horní polovině obrázku"),
    "bottom": Text("in the bottom half of the picture", "v dolní polovině obrázku"),
}

REGION_BANDS: Final = ((0.0, 0.25), (0.375, 0.625), (0.75, 1.0))
"""Where an object's centre must lie, as a share of the frame's width (columns: left,
middle, right) and height (rows: top, middle, bottom), for its region to be unmistakable:
the outer quarter for a side or a corner, the middle quarter for the middle. A centre
between two bands (e.g. 25-37.5 % across) is in no region."""
REGION_SHARE: Final = 0.6
"""How much of the object's box must lie in that third of the frame."""
HALF_MARGIN: Final = 20.0
GAP: Final = 30.0
"""The least gap between two objects for "left of" / "above"."""
NEXT_TO_GAP: Final = 120.0
BIGGER: Final = 1.5
SIT_TOLERANCE: Final = 8.0


def _band(value: float, length: float) -> int | None:
    share = value / length
    return next((i for i, (low, high) in enumerate(REGION_BANDS) if low <= share <= high), None)


def region_cell(box: Box) -> tuple[int, int] | None:
    """(column, row) of the band `box`'s centre lies in both ways, or None (between bands)."""
    col, row = _band(box.cx, FRAME.w), _band(box.cy, FRAME.h)
    return None if col is None or row is None else (col, row)


def region_of(box: Box) -> str | None:
    """The region of the frame that clearly holds `box` ("top-left" ...), or None if unclear:
    its centre in that region's bands (REGION_BANDS) and most of it in that third."""
    where = region_cell(box)
    if where is None:
        return None
    col, row = where
    third_w, third_h = FRAME.w / 3, FRAME.h / 3
    area = Box(col * third_w, row * third_h, third_w, third_h)
    if box.overlap_area(area) < REGION_SHARE * box.area:
        return None
    return REGIONS[col, row]


def is_corner(region: str) -> bool:
    return "-" in region


def alone_in_corner(scene: Scene, obj: SceneObject, region: str) -> bool:
    """No other object's centre lies in that corner: a corner names one object only."""
    where = next(cell for cell, name in REGIONS.items() if name == region)
    return all(o.id == obj.id or region_cell(o.box) != where for o in scene.objects)


def in_half(box: Box, half: str) -> bool:
    """The whole box lies in that half of the frame, clear of the middle line."""
    mid_x, mid_y = FRAME.w / 2, FRAME.h / 2
    return {
        "left": box.x2 <= mid_x - HALF_MARGIN,
        "right": box.x >= mid_x + HALF_MARGIN,
        "top": box.y2 <= mid_y - HALF_MARGIN,
        "bottom": box.y >= mid_y + HALF_MARGIN,
    }[half]


# --- Relations read from the boxes --------------------------------------------------------


def is_left_of(a: Box, b: Box) -> bool:
    return a.x2 + GAP <= b.x


def is_above(a: Box, b: Box) -> bool:
    """`a` is clearly higher than `b` and over it (its centre over b's middle 70 %)."""
    return a.y2 + GAP <= b.y and b.x + 0.15 * b.w <= a.cx <= b.x2 - 0.15 * b.w


def is_under(a: SceneObject, b: SceneObject) -> bool:
    """`a` is beneath `b`'s top: under a table top, a parasol, or below a boat on the sea."""
    underside = underside_of(b)
    if underside is None:
        return False
    centred = b.box.x + 0.1 * b.box.w <= a.box.cx <= b.box.x2 - 0.1 * b.box.w
    if b.kind == "boat":
        return centred and a.box.y >= b.box.y2 + 10
    return centred and a.box.y >= underside - 2 and a.box.y2 <= b.box.y2 + 5


def is_on(a: SceneObject, b: SceneObject) -> bool:
    surface = surface_of(b)
    if surface is None:
        return False
    y, x1, x2 = surface
    return abs(a.box.y2 - y) <= SIT_TOLERANCE and x1 <= a.box.cx <= x2


def is_inside(a: SceneObject, b: SceneObject) -> bool:
    cavity = cavity_of(b)
    return cavity is not None and cavity.contains_point(a.box.cx, a.box.y2)


def is_holding(a: SceneObject, b: SceneObject) -> bool:
    """`a` holds `b`: `b` says so, and a balloon's string or a flag's pole ends at a's hand."""
    if b.held_by != a.id:
        return False
    if b.kind in ("balloon", "flag"):
        hx, hy = hand(a, raised=True)
        grip_x = b.box.cx if b.kind == "balloon" else (
            b.box.x + (0.92 if b.facing < 0 else 0.08) * b.box.w)
        return abs(grip_x - hx) <= 12 and abs(b.box.y2 - hy) <= 25
    return True


def is_next_to(a: SceneObject, b: SceneObject, others: Sequence[SceneObject]) -> bool:
    """Side by side on the same ground line, close, nothing between them."""
    left, right = (a.box, b.box) if a.box.cx <= b.box.cx else (b.box, a.box)
    gap = right.x - left.x2
    if not 0 <= gap <= NEXT_TO_GAP or abs(a.box.y2 - b.box.y2) > 60:
        return False
    between = Box(left.x2, min(left.y, right.y), gap, max(left.y2, right.y2) - min(left.y, right.y))
    return not any(o.box.overlaps(between) for o in others if o.id not in (a.id, b.id))


def is_bigger(a: SceneObject, b: SceneObject) -> bool:
    """At least 1.5 times as wide and as tall, body to body (an umbrella does not count)."""
    x, y = body_of(a), body_of(b)
    return x.w >= BIGGER * y.w and x.h >= BIGGER * y.h


# --- holds ------------------------------------------------------------------------------------


def holds(scene: Scene, criterion: Criterion) -> bool:
    """Whether `criterion` is true of `scene`, re-derived from the scene's objects."""
    try:
        named = [scene.object(i) for i in criterion.objects]
    except LookupError:
        return False
    test, args = criterion.test, criterion.args
    if test == "count":
        kind, n = args
        ids = {o.id for o in scene.of_kind(str(kind))}
        return len(ids) == n and ids == set(criterion.objects)
    if test == "more":
        more, fewer = (scene.of_kind(str(k)) for k in args)
        return (len(more) > len(fewer) >= 1
                and {o.id for o in (*more, *fewer)} == set(criterion.objects))
    if len(named) == 1:
        obj = named[0]
        if test == "region":
            region = str(args[0])
            return region_of(obj.box) == region and (
                not is_corner(region) or alone_in_corner(scene, obj, region))
        if test == "half":
            return in_half(obj.box, str(args[0]))
        if test == "detail":
            return obj.detail(str(args[0])) == args[1]
        return False
    if len(named) != 2:
        return False
    a, b = named
    checks = {
        "left_of": lambda: is_left_of(a.box, b.box),
        "right_of": lambda: is_left_of(b.box, a.box),
        "above": lambda: is_above(a.box, b.box),
        "under": lambda: is_under(a, b),
        "on": lambda: is_on(a, b),
        "in": lambda: is_inside(a, b),
        "holding": lambda: is_holding(a, b),
        "next_to": lambda: is_next_to(a, b, scene.objects),
        "bigger": lambda: is_bigger(a, b),
        "smaller": lambda: is_bigger(b, a),
    }
    check = checks.get(test)
    return check is not None and check()


def is_fair(scene: Scene, criterion: Criterion) -> bool:
    """Every kind the criterion names is one nobody can mistake in the picture."""
    kinds = Counter(o.kind for o in scene.objects)
    named = {scene.object(i).kind for i in criterion.objects}
    if any(CONFLICTS.get(k, frozenset()) & kinds.keys() for k in named):
        return False
    if criterion.test in ("count", "more"):
        return True
    return all(kinds[k] == 1 for k in named)


# --- Wording ----------------------------------------------------------------------------------


def _noun(obj: SceneObject) -> Noun:
    return OBJECT_KINDS[obj.kind].noun


def _text_region(obj: SceneObject, where: Text) -> Text:
    word = _noun(obj)
    return Text(cap(f"{word.the} is {where.en}."), cap(f"{word.nom} je {where.cs}."))


def _text_relation(test: str, a: SceneObject, b: SceneObject) -> Text:
    x, y = _noun(a), _noun(b)
    sits = OBJECT_KINDS[a.kind].animate
    if test == "left_of":
        return Text(cap(f"{x.the} is to the left of {y.the}."),
                    cap(f"{x.nom} je vlevo od {y.gen}."))
    if test == "right_of":
        return Text(cap(f"{x.the} is to the right of {y.the}."),
                    cap(f"{x.nom} je vpravo od {y.gen}."))
    if test == "above":
        return Text(cap(f"{x.the} is above {y.the}."), cap(f"{x.nom} je nad {y.ins}."))
    if test == "under":
        return Text(cap(f"{x.the} is under {y.the}."), cap(f"{x.nom} je pod {y.ins}."))
    if test == "on":
        place = SURFACE_NOUN.get(b.kind, Text(y.the, y.loc))
        verb_en, verb_cs = ("sits", "sedí") if sits else ("is", "je")
        return Text(cap(f"{x.the} {verb_en} on {place.en}."),
                    cap(f"{x.nom} {verb_cs} na {place.cs}."))
    if test == "in":
        if a.kind == "fish":
            verb_en, verb_cs = "swims", "plave"
        elif sits and a.kind not in HOLDERS:
            verb_en, verb_cs = "sits", "sedí"
        else:
            verb_en, verb_cs = "is", "je"
        return Text(cap(f"{x.the} {verb_en} in {y.the}."),
                    cap(f"{x.nom} {verb_cs} {cs_in(y.loc)}."))
    if test == "holding":
        held = {
            "balloon": Text("{} holds a balloon.", "{} drží balónek."),
            "kite": Text("{} is flying a kite.", "{} pouští draka."),
            "flag": Text("{} holds a flag.", "{} drží vlajku."),
            "dog": Text("{} walks the dog on a lead.", "{} vede psa na vodítku."),
        }[b.kind]
        return Text(held.en.format(cap(x.the)), held.cs.format(cap(x.nom)))
    if test == "next_to":
        return Text(cap(f"{x.the} is next to {y.the}."), cap(f"{x.nom} je vedle {y.gen}."))
    if test == "bigger":
        return Text(cap(f"{x.the} is bigger than {y.the}."), cap(f"{x.nom} je větší než {y.nom}."))
    if test == "smaller":
        return Text(cap(f"{x.the} is smaller than {y.the}."),
                    cap(f"{x.nom} je menší než {y.nom}."))
    raise ValueError(f"no wording for relation {test!r}")


def _text_count(kind: str, n: int) -> Text:
    word = OBJECT_KINDS[kind].noun
    return Text(f"There {en_be(n)} exactly {en_count(n, word)} in the picture.",
                f"Na obrázku {cs_be(n)} přesně {cs_count(n, word)}.")


def _text_more(more: str, fewer: str) -> Text:
    x, y = OBJECT_KINDS[more].noun, OBJECT_KINDS[fewer].noun
    return Text(f"There are more {x.en_pl} than {y.en_pl}.",
                f"Na obrázku je víc {x.gen_pl} než {y.gen_pl}.")


# --- Finding every candidate ------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A true criterion and how much the generator wants it (designed facts weigh most)."""

    weight: float
    criterion: Criterion


def candidates(scene: Scene, designed: Mapping[tuple[str, str, str], float]) -> list[Candidate]:
    """Every fair criterion true of the scene's objects (its criteria are not read).
    `designed` weighs the relations the layout made on purpose, keyed (test, a, b)."""
    objects = scene.objects
    out: list[Candidate] = []
    kinds = Counter(o.kind for o in objects)
    present = set(kinds)

    def clear(kind: str) -> bool:
        return not (CONFLICTS.get(kind, frozenset()) & present)

    def countable(kind: str) -> bool:
        return clear(kind) and kind not in UNCOUNTED

    singles = [o for o in objects if kinds[o.kind] == 1 and clear(o.kind)]
    attached = {key[1] for key in designed if key[0] in ("on", "in", "holding", "under")}
    attached |= {o.id for o in objects if o.held_by}
    free = [o for o in singles if o.id not in attached]

    def add(weight: float, kind: str, text: Text, ids: tuple[str, ...], test: str,
            args: tuple[str | int, ...] = ()) -> None:
        crit = Criterion(kind, text, ids, test, args)
        if holds(scene, crit):
            out.append(Candidate(weight, crit))

    # Counts: exactly N of a kind; more of one kind than of another.
    for kind, n in sorted(kinds.items()):
        if not countable(kind) or n > 10:
            continue
        ids = tuple(o.id for o in objects if o.kind == kind)
        add(5.0 if n >= 2 else 0.5, "count", _text_count(kind, n), ids, "count", (kind, n))
    for more, n_more in sorted(kinds.items()):
        for fewer, n_fewer in sorted(kinds.items()):
            if n_more > n_fewer >= 1 and n_more >= 2 and countable(more) and countable(fewer):
                ids = tuple(o.id for o in objects if o.kind in (more, fewer))
                # "More birds than clouds" is a good count; "more birds than giraffes" less so.
                weight = 1.5 if n_fewer >= 2 else 0.3
                add(weight, "count", _text_more(more, fewer), ids, "more", (more, fewer))

    # Positions: a clear third of the frame, or failing that a clear half.
    for obj in free:
        region = region_of(obj.box)
        if region is not None:
            weight = 3.5 if "-" in region else 2.5
            add(weight, "position", _text_region(obj, REGION_TEXT[region]), (obj.id,), "region",
                (region,))
            continue
        for half, where in HALF_TEXT.items():
            if in_half(obj.box, half):
                add(0.7, "position", _text_region(obj, where), (obj.id,), "half", (half,))

    # Relations the layout designed, then those that happen to be true.
    for (test, a_id, b_id), weight in designed.items():
        a = next((o for o in singles if o.id == a_id), None)
        b = next((o for o in singles if o.id == b_id), None)
        if a is None or b is None:
            continue
        kind = "size" if test in ("bigger", "smaller") else "relation"
        add(weight, kind, _text_relation(test, a, b), (a.id, b.id), test)
    for a in free:
        for b in free:
            if a.id == b.id or ("next_to", a.id, b.id) in designed:
                continue
            level = is_aloft(a.kind) == is_aloft(b.kind)
            if level and is_left_of(a.box, b.box) and abs(a.box.y2 - b.box.y2) < 250:
                add(1.2, "relation", _text_relation("left_of", a, b), (a.id, b.id), "left_of")
                add(1.2, "relation", _text_relation("right_of", b, a), (b.id, a.id), "right_of")
            if is_above(a.box, b.box) and is_aloft(a.kind) and not is_aloft(b.kind) and (
                    OBJECT_KINDS[b.kind].layer and b.box.area >= 30_000):
                # The sun over the house, a bird over the tree: not a cloud over a snail.
                add(2.5, "relation", _text_relation("above", a, b), (a.id, b.id), "above")
            if level and a.kind in CONTRASTS and b.kind in CONTRASTS and is_bigger(a, b) and (
                    _surprising(a, b)):
                key = ("bigger", a.id, b.id)
                if key not in designed and ("smaller", b.id, a.id) not in designed:
                    add(2.0, "size", _text_relation("bigger", a, b), (a.id, b.id), "bigger")

    # Details.
    for obj in singles:
        for spec in OBJECT_KINDS[obj.kind].details:
            value = obj.detail(spec.name)
            text = spec.text(_noun(obj), value)
            if text is not None:
                weight = 4.0 if spec.high > 1 else 3.5
                add(weight, "detail", text, (obj.id,), "detail", (spec.name, value))
    return out


def _surprising(big: SceneObject, small: SceneObject) -> bool:
    """A size comparison worth a criterion: by nature `big` is not clearly the bigger one
    (a sailing boat is bigger than a crab anyway; a cat bigger than a dog is news)."""
    def natural(obj: SceneObject) -> float:
        w, h = size_of(obj.kind, dict(obj.details))
        body = body_of(replace(obj, box=Box(0, 0, w, h)))
        return body.area

    return natural(big) < 1.4 * natural(small)


KIND_CAPS: Final = {"count": 2, "position": 3, "relation": 4, "size": 2, "detail": 3}
PER_OBJECT: Final = 3


def choose(pool: Sequence[Candidate], rand: random.Random) -> tuple[Criterion, ...] | None:
    """Ten criteria, weighted, of at least three kinds, no fact or text twice, not too
    many of one kind or about one object; None if the pool cannot give that."""
    chosen: list[Criterion] = []
    for strict in (True, False):
        left = [c for c in pool if c.criterion not in chosen]
        while left and len(chosen) < CRITERIA_PER_SCENE:
            pick = rand.random() * sum(c.weight for c in left)
            index = 0
            while index < len(left) - 1 and pick > left[index].weight:
                pick -= left[index].weight
                index += 1
            cand = left.pop(index)
            if _fits(cand.criterion, chosen, strict):
                chosen.append(cand.criterion)
    kinds = {c.kind for c in chosen}
    if len(chosen) < CRITERIA_PER_SCENE or len(kinds) < 3:
        return None
    return tuple(chosen)


def _fits(crit: Criterion, chosen: Sequence[Criterion], strict: bool) -> bool:
    facts = {c.fact for c in chosen}
    texts = {c.text.en for c in chosen} | {c.text.cs for c in chosen}
    if crit.fact in facts or crit.text.en in texts or crit.text.cs in texts:
        return False
    if crit.kind == "position" and any(c.kind == "position" and c.objects == crit.objects
                                       for c in chosen):
        return False  # "in the bottom half" says less than "in the bottom-left corner"
    pair = frozenset(crit.objects)
    if len(pair) == 2 and any(frozenset(c.objects) == pair for c in chosen
                              if c.kind in ("relation", "size")):
        return False  # "left of" and "next to" the same pair say nearly the same
    if not strict:
        return True
    if sum(c.kind == crit.kind for c in chosen) >= KIND_CAPS.get(crit.kind, 3):
        return False
    if crit.test in ("left_of", "right_of") and sum(
            c.test in ("left_of", "right_of") for c in chosen) >= 2:
        return False
    if crit.kind != "count":
        mentions = Counter(i for c in chosen if c.kind != "count" for i in c.objects)
        if any(mentions[i] >= PER_OBJECT for i in crit.objects):
            return False
    return True
