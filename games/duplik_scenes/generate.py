"""Making a scene from a seed: theme, title, objects and their details, designed relations,
a layout without confusing overlaps, and ten criteria chosen from every true one.

Everything is drawn from one `random.Random` seeded with a string made of the seed (string
seeds are hashed with SHA-512, stable across processes and Python versions). If a draw
cannot be laid out or gives too few criteria, the next attempt uses the next string; the
attempts are part of the seed's fate, so `generate(seed)` is still a pure function.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Final

from games.duplik_scenes.criteria import candidates, choose
from games.duplik_scenes.kinds import (
    CONFLICTS,
    CONTRASTS,
    HELD,
    HOLDERS,
    INSIDE,
    OBJECT_KINDS,
    ON,
    UNDER,
    body_of,
    cavity_of,
    hand,
    size_of,
    surface_of,
    underside_of,
)
from games.duplik_scenes.model import FRAME, Backdrop, Box, Scene, SceneObject
from games.duplik_scenes.themes import THEMES, Theme, Title

PAD: Final = 34.0
"""The least gap between two unrelated objects, so none of them touch."""
EDGE: Final = 16.0
"""The least gap between an object and the edge of the frame."""
MAX_OBJECTS: Final = 13
ATTEMPTS: Final = 60


class SceneError(RuntimeError):
    """No scene could be made for a seed (never seen; the tests try thousands of seeds)."""


# --- Backdrops and where things can stand -------------------------------------------------


@dataclass(frozen=True)
class Zone:
    """Where an anchor may go: `stand` zones give a range for its bottom edge (x across the
    zone, y between area.y and area.y2); float zones must hold the whole box."""

    stand: bool
    area: Box
    obstacles: tuple[Box, ...] = ()


def make_backdrop(kind: str, rand: random.Random) -> Backdrop:
    if kind == "lake":
        left = rand.random() < 0.5
        x = rand.uniform(90, 200) if left else rand.uniform(640, 760)
        return Backdrop("lake", 430, Box(x, 545, rand.uniform(720, 800), 300), mirrored=left)
    if kind == "beach":
        sea_left = rand.random() < 0.5
        width = rand.uniform(700, 780)
        sea = Box(0, 420, width, 580) if sea_left else Box(1600 - width, 420, width, 580)
        return Backdrop("beach", 420, sea, mirrored=sea_left)
    horizon = {"indoor": 600.0, "underwater": 130.0, "space": 830.0, "street": 430.0}
    return Backdrop(kind, horizon.get(kind, 430.0))


def zones_of(backdrop: Backdrop) -> dict[str, Zone]:
    kind, horizon = backdrop.kind, backdrop.horizon
    sky = Zone(False, Box(EDGE, EDGE, FRAME.w - 2 * EDGE, horizon - 50))
    if kind in ("meadow", "snow", "night"):
        return {"sky": sky, "ground": Zone(True, Box(EDGE, horizon + 120, FRAME.w - 2 * EDGE,
                                                     975 - horizon - 120))}
    if kind == "lake":
        pond = backdrop.water
        assert pond is not None
        ground = Zone(True, Box(EDGE, horizon + 120, FRAME.w - 2 * EDGE, 975 - horizon - 120),
                      (pond.grown(12),))
        on_pond = Zone(True, Box(pond.x + 50, pond.y + 95, pond.w - 100, pond.h - 130))
        return {"sky": sky, "ground": ground, "water": on_pond}
    if kind == "beach":
        sea = backdrop.water
        assert sea is not None
        top, depth = horizon + 120, 975 - horizon - 120
        if backdrop.mirrored:
            sand = Box(sea.x2 + 30, top, FRAME.w - sea.x2 - 30 - EDGE, depth)
        else:
            sand = Box(EDGE, top, sea.x - 30 - EDGE, depth)
        waves = Box(sea.x + 40 if not backdrop.mirrored else EDGE, horizon + 110,
                    sea.w - 40 - EDGE, 960 - horizon - 110)
        return {"sky": sky, "sand": Zone(True, sand, (sea,)), "water": Zone(True, waves)}
    if kind == "street":
        return {"sky": sky,
                "ground": Zone(True, Box(EDGE, horizon + 120, FRAME.w - 2 * EDGE,
                                         800 - horizon - 120)),
                "road": Zone(True, Box(EDGE, 935, FRAME.w - 2 * EDGE, 40))}
    if kind == "indoor":
        return {"wall": Zone(False, Box(60, 40, FRAME.w - 120, 470)),
                "floor": Zone(True, Box(EDGE, 745, FRAME.w - 2 * EDGE, 230))}
    if kind == "underwater":
        return {"surface": Zone(True, Box(EDGE, 176, FRAME.w - 2 * EDGE, 6)),
                "deep": Zone(False, Box(EDGE, 250, FRAME.w - 2 * EDGE, 590)),
                "seabed": Zone(True, Box(EDGE, 905, FRAME.w - 2 * EDGE, 70))}
    if kind == "space":
        return {"space": Zone(False, Box(EDGE, EDGE, FRAME.w - 2 * EDGE, 790)),
                "ground": Zone(True, Box(EDGE, 905, FRAME.w - 2 * EDGE, 70))}
    raise ValueError(f"unknown backdrop {kind!r}")


# --- Pieces: objects while they are being made --------------------------------------------


@dataclass
class Piece:
    """An object under construction: mutable until the layout gives it a box."""

    id: str
    kind: str
    details: dict[str, int]
    facing: int
    scale: float
    colour: str
    required: bool = False
    held_by: str | None = None
    role: str = ""
    """How it hangs on its anchor: "on", "in", "under", "holding", "next_to" (or "")."""
    anchor: str = ""
    box: Box | None = None
    deps: list[str] = field(default_factory=list)

    def dims(self) -> tuple[float, float]:
        w, h = size_of(self.kind, self.details)
        return w * self.scale, h * self.scale

    def at(self, box: Box) -> SceneObject:
        return SceneObject(self.id, self.kind, box, tuple(sorted(self.details.items())),
                           self.facing, self.held_by, self.colour)


PALETTES: Final[Mapping[str, tuple[str, ...]]] = {
    "cat": ("#f2a541", "#a7a9b4", "#f4efe6", "#c9834a"),
    "dog": ("#c58b52", "#e8d2a6", "#8d6748", "#f4efe6"),
    "bird": ("#4f8fe8", "#e85d4f", "#f2c12e", "#5cb85c"),
    "fish": ("#f28c28", "#4fb0e8", "#f2c12e", "#e86a9a"),
    "car": ("#e84a4a", "#3f7fe0", "#f2c12e", "#4cb06e"),
    "bus": ("#f2c12e", "#e84a4a", "#3f7fe0"),
    "boat": ("#e84a4a", "#3f7fe0", "#f2c12e", "#8b5a3c"),
    "balloon": ("#e84a4a", "#3f7fe0", "#f2c12e", "#4cb06e", "#b06ee8"),
    "kite": ("#e84a4a", "#3f7fe0", "#f2c12e", "#b06ee8"),
    "flower": ("#e84a7f", "#f2c12e", "#b06ee8", "#ff7f50"),
    "house": ("#f7d9a8", "#f4b6a6", "#cde3f5", "#fff1b8"),
    "man": ("#3f7fe0", "#4cb06e", "#e84a4a", "#f28c28"),
    "woman": ("#e86a9a", "#b06ee8", "#f2c12e", "#4fb0e8"),
    "child": ("#f2c12e", "#4cb06e", "#e84a4a", "#4fb0e8"),
    "butterfly": ("#f28c28", "#b06ee8", "#4fb0e8", "#e86a9a"),
    "gift": ("#e84a4a", "#3f7fe0", "#4cb06e", "#b06ee8"),
    "ball": ("#e84a4a", "#3f7fe0", "#f2c12e"),
    "bicycle": ("#e84a4a", "#3f7fe0", "#4cb06e"),
    "tent": ("#f28c28", "#4cb06e", "#3f7fe0", "#e84a4a"),
    "planet": ("#e8a04a", "#7fb0e8", "#d97fe8", "#8fd18f"),
    "flag": ("#e84a4a", "#3f7fe0", "#f2c12e"),
    "vase": ("#4fb0e8", "#e86a9a", "#f2c12e"),
    "chair": ("#c58b52", "#4fb0e8", "#e84a4a"),
    "lamp": ("#f2c12e", "#e86a9a", "#4cb06e"),
    "parasol": ("#e84a4a", "#3f7fe0", "#f28c28"),
}


def _max_count(kind: str) -> int:
    w, h = OBJECT_KINDS[kind].size
    area = w * h
    return 2 if area > 110_000 else 3 if area > 50_000 else 4 if area > 20_000 else 5


def _clashes(kind: str, present: Iterable[str]) -> bool:
    """Would `kind` make a criterion unfair next to one of `present` (or vice versa)?"""
    return any(kind in CONFLICTS.get(p, ()) or p in CONFLICTS.get(kind, ()) for p in present)


class Builder:
    """The pieces of one attempt, their designed relations, and the layout."""

    def __init__(self, rand: random.Random, theme: Theme, zones: Mapping[str, Zone]) -> None:
        self.rand = rand
        self.theme = theme
        self.zones = zones
        self.pieces: dict[str, Piece] = {}
        self.designed: dict[tuple[str, str, str], float] = {}

    # Choosing what is in the picture.

    def kinds(self) -> list[str]:
        return [p.kind for p in self.pieces.values()]

    def fits_here(self, kind: str) -> bool:
        return any(z in self.zones for z in OBJECT_KINDS[kind].zones)

    def can_add(self, kind: str) -> bool:
        present = self.kinds()
        return (kind not in present and self.fits_here(kind) and not _clashes(kind, present)
                and len(self.pieces) < MAX_OBJECTS)

    def add(self, kind: str, count: int = 1, forced: Mapping[str, int] | None = None,
            required: bool = False) -> list[Piece]:
        made = []
        base = self.rand.uniform(0.8, 1.05)
        for _ in range(count):
            number = sum(p.kind == kind for p in self.pieces.values()) + 1
            spec = OBJECT_KINDS[kind]
            if count > 1:
                scale = base * self.rand.uniform(0.95, 1.05)
            elif kind in HOLDERS:
                scale = self.rand.uniform(0.95, 1.08)  # a child must not pass for a man
            else:
                scale = self.rand.uniform(0.85, 1.15)
            piece = Piece(f"{kind}-{number}", kind, self._details(kind, forced or {}),
                          self.rand.choice((1, -1)) if spec.facing else 1, scale,
                          self.rand.choice(PALETTES.get(kind, ("",))), required)
            self.pieces[piece.id] = piece
            made.append(piece)
        return made

    def _details(self, kind: str, forced: Mapping[str, int]) -> dict[str, int]:
        out: dict[str, int] = {}
        for spec in OBJECT_KINDS[kind].details:
            if spec.name in forced:
                out[spec.name] = forced[spec.name]
                continue
            if spec.requires and not out.get(spec.requires):
                continue
            if kind == "boat" and "surface" in self.zones:
                continue  # seen from under the sea a mast would stick out of the picture
            if self.rand.random() < spec.chance:
                out[spec.name] = self.rand.randint(spec.low, spec.high)
        return {k: v for k, v in out.items() if v}

    def compose(self, title: Title) -> None:
        theme, rand = self.theme, self.rand
        groups: dict[str, int] = {}
        for need in title.needs:
            if need.endswith("*"):
                kind = need[:-1]
                groups[kind] = rand.randint(2, min(4, _max_count(kind)))
            elif ":" in need:
                kind, detail = need.split(":")
                self.add(kind, forced={detail: 1}, required=True)
            else:
                self.add(need, required=True)
        for kind, n in groups.items():
            self.add(kind, n, required=True)
        for pool, low, high in ((theme.big, 1, 2), (theme.actors, *theme.cast), (theme.sky, 1, 2),
                                (theme.water, 1, 2), (theme.extras, 0, 1)):
            wanted = min(len(pool), rand.randint(low, high))
            for kind in rand.sample(pool, len(pool)):
                if wanted <= 0:
                    break
                if self.can_add(kind):
                    self.add(kind)
                    wanted -= 1
        extra_groups = rand.randint(1, 2) - len(groups)
        for kind in rand.sample(theme.groups, len(theme.groups)):
            if extra_groups <= 0:
                break
            count = rand.randint(2, _max_count(kind))
            if self.can_add(kind) and len(self.pieces) + count <= MAX_OBJECTS:
                self.add(kind, count)
                extra_groups -= 1

    # Designed relations.

    def singles(self) -> list[Piece]:
        kinds = self.kinds()
        return [p for p in self.pieces.values() if kinds.count(p.kind) == 1]

    def free(self, piece: Piece) -> bool:
        return not piece.role and not piece.deps

    def attach(self, dep: Piece, anchor: Piece, role: str, weight: float = 6.0) -> None:
        dep.role, dep.anchor = role, anchor.id
        anchor.deps.append(dep.id)
        if role == "holding":
            dep.held_by = anchor.id
            self.designed["holding", anchor.id, dep.id] = weight
        else:
            self.designed[role, dep.id, anchor.id] = weight
        if role == "in" and anchor.kind in ("box", "basket"):
            # Grow the box to the cat rather than shrink the cat into a toy.
            dep_w = size_of(dep.kind, dep.details)[0] * dep.scale
            base_w = size_of(anchor.kind, anchor.details)[0]
            anchor.scale = min(1.6, max(anchor.scale, dep_w / (0.8 * base_w)))

    def relate(self) -> None:
        rand = self.rand
        theme = self.theme
        pools = set(theme.actors + theme.extras + theme.sky + theme.big + theme.groups)
        budget = rand.choice((2, 3, 3, 4))

        def singles_of(kinds: Iterable[str]) -> list[Piece]:
            wanted = set(kinds)
            return [p for p in self.singles() if p.kind in wanted and self.free(p)]

        def adopt(kind: str, anchor: Piece, role: str) -> bool:
            """Add a new `kind` to hang on `anchor`, if it may join the picture."""
            if kind not in pools and not (kind == "fish" and anchor.kind == "fishbowl"):
                return False
            if kind in self.kinds() or _clashes(kind, self.kinds()):
                return False
            placed_alone = kind == "kite" or (role == "under" and anchor.kind == "boat")
            if placed_alone and not self.fits_here(kind):
                return False  # a kite needs a sky, a fish under a boat needs the sea
            if len(self.pieces) >= MAX_OBJECTS:
                return False
            (piece,) = self.add(kind)
            self.attach(piece, anchor, role)
            return True

        # Holding: a balloon, a kite, a flag or a dog on a lead.
        for held in rand.sample(singles_of(HELD), len(singles_of(HELD))):
            holders = [p for p in singles_of(HOLDERS)
                       if held.kind == "dog" or not p.details.get("umbrella")]
            if holders and budget and rand.random() < 0.85:
                self.attach(held, rand.choice(holders), "holding")
                budget -= 1
        if budget and "sky" in self.zones and rand.random() < 0.5:
            holders = [p for p in singles_of(HOLDERS) if not p.details.get("umbrella")]
            if holders:
                kind = rand.choice(("balloon", "kite", "flag"))
                if adopt(kind, rand.choice(holders), "holding"):
                    budget -= 1

        # Inside, on top of, under: existing pairs first, then a newcomer for a lone anchor.
        for role, rules in (("in", INSIDE), ("on", ON), ("under", UNDER)):
            for dep in rand.sample(singles_of(rules), len(singles_of(rules))):
                anchors = [p for p in self.singles() if p.kind in rules[dep.kind]
                           and p.id != dep.id and self._room(p, role)]
                if anchors and budget and rand.random() < 0.8:
                    self.attach(dep, rand.choice(anchors), role)
                    budget -= 1
            for anchor in rand.sample(self.singles(), len(self.singles())):
                if not (budget or anchor.kind == "fishbowl") or not self._room(anchor, role):
                    continue
                options = sorted(k for k, where in rules.items() if anchor.kind in where)
                # An empty fishbowl is no fun: it always gets its fish.
                chance = 1.0 if anchor.kind == "fishbowl" else 0.65
                if options and rand.random() < chance and adopt(rand.choice(options), anchor, role):
                    budget -= 1

        # Side by side.
        if budget and rand.random() < 0.7:
            standing = [p for p in self.singles() if self.free(p)
                        and self.zone_of(p).stand and OBJECT_KINDS[p.kind].layer]
            if len(standing) >= 2:
                a, b = rand.sample(standing, 2)
                if _area(b) > _area(a):
                    a, b = b, a  # "the frog is next to the house", not the other way round
                if self.zone_of(a) is self.zone_of(b):
                    self.attach(b, a, "next_to", 4.0)

    def _room(self, anchor: Piece, role: str) -> bool:
        """Can `anchor` take one more thing in this role? (A table takes two on top and one
        under; a box takes one thing, in or on; a dependent carries nothing itself.)"""
        if anchor.role:
            return False
        used = [self.pieces[d].role for d in anchor.deps]
        if role == "on":
            return "in" not in used and used.count("on") < (2 if anchor.kind == "table" else 1)
        if role == "in":
            return not {"in", "on"} & set(used)
        return role not in used

    def contrast(self) -> None:
        """Make one free single clearly bigger than another of about the same size."""
        rand = self.rand
        if rand.random() > 0.7:
            return
        options = [p for p in self.singles() if not p.role and p.kind in CONTRASTS]

        def body(piece: Piece) -> Box:
            return body_of(piece.at(Box(0, 0, *size_of(piece.kind, piece.details))))

        pairs = []
        for a in options:
            for b in options:
                if a.id == b.id or self.zone_of(a).stand != self.zone_of(b).stand:
                    continue
                if a.kind in HOLDERS and b.kind in HOLDERS:
                    continue  # a child as big as a man would pass for a man
                if 0.55 <= body(a).area / body(b).area <= 1.8:
                    pairs.append((a, b))
        if not pairs:
            return
        big, small = rand.choice(pairs)
        ratio = 1.62 / min(body(big).w / body(small).w, body(big).h / body(small).h)
        small.scale = rand.uniform(0.8, 0.9)
        big.scale = small.scale * ratio
        if big.scale > 1.4:
            big.scale = 1.4
            small.scale = big.scale / ratio
        if small.scale < 0.78:
            return
        if rand.random() < 0.5:
            self.designed["bigger", big.id, small.id] = 5.0
        else:
            self.designed["smaller", small.id, big.id] = 5.0

    # Layout.

    def zone_of(self, piece: Piece) -> Zone:
        for name in OBJECT_KINDS[piece.kind].zones:
            if name in self.zones:
                return self.zones[name]
        raise SceneError(f"{piece.kind} has no place in this backdrop")

    def cluster(self, anchor: Piece) -> dict[str, Box] | None:
        """The boxes of an anchor and what hangs on it, with the anchor's box at (0, 0)."""
        rand = self.rand
        aw, ah = anchor.dims()
        boxes = {anchor.id: Box(0, 0, aw, ah)}
        at = anchor.at(boxes[anchor.id])
        sitters = [d for d in anchor.deps if self.pieces[d].role == "on"]
        for dep_id in anchor.deps:
            dep = self.pieces[dep_id]
            role = dep.role
            late = (role == "holding" and dep.kind == "kite") or (
                role == "under" and anchor.kind == "boat")
            if late:
                continue  # placed after everything else, far from the anchor
            if role == "on":
                y, x1, x2 = surface_of(at) or (0.0, 0.0, aw)
                share = {"house": 0.3, "table": 0.36 if len(sitters) > 1 else 0.42, "rock": 0.85,
                         "box": 0.75, "chair": 0.7, "elephant": 0.28, "cow": 0.3,
                         "tree": 0.45, "fence": 0.4, "car": 0.45, "bench": 0.45}
                if not self._fit(dep, share.get(anchor.kind, 0.45) * aw, None):
                    return None
                dw, dh = dep.dims()
                if len(sitters) > 1:
                    index = sitters.index(dep_id)
                    cx = x1 + (x2 - x1) * (0.25 + 0.5 * index)
                else:
                    cx = rand.uniform(x1 + 0.3 * (x2 - x1), x2 - 0.3 * (x2 - x1))
                boxes[dep_id] = Box(cx - dw / 2, y - dh, dw, dh)
            elif role == "in":
                cavity = cavity_of(at)
                assert cavity is not None
                if anchor.kind == "fishbowl":
                    if not self._fit(dep, 0.5 * aw, 0.4 * ah, grow=True):
                        return None
                    dw, dh = dep.dims()
                    boxes[dep_id] = Box(aw / 2 - dw / 2, 0.62 * ah - dh / 2, dw, dh)
                elif anchor.kind == "boat":
                    hull = 120 * aw / 300
                    if not self._fit(dep, 0.42 * aw, 2.3 * hull, grow=True):
                        return None
                    dw, dh = dep.dims()
                    cx = (0.3 if anchor.facing > 0 else 0.7) * aw
                    boxes[dep_id] = Box(cx - dw / 2, ah - hull + 0.6 * hull - dh, dw, dh)
                else:
                    body_top = {"box": 0.3, "basket": 0.42}[anchor.kind] * ah
                    if not self._fit(dep, 0.8 * aw, None):
                        return None
                    dw, dh = dep.dims()
                    bottom = body_top + min(0.45 * ah, 0.42 * dh)
                    boxes[dep_id] = Box(aw / 2 - dw / 2, bottom - dh, dw, dh)
            elif role == "under":
                underside = underside_of(at)
                assert underside is not None
                room = {"parasol": 0.4, "table": 0.45}.get(anchor.kind, 0.5)
                if not self._fit(dep, room * aw, ah - underside - 14):
                    return None
                dw, dh = dep.dims()
                if anchor.kind == "parasol":
                    u = rand.choice((0.22, 0.78))
                else:
                    u = rand.uniform(0.38, 0.62)
                boxes[dep_id] = Box(u * aw - dw / 2, ah - dh, dw, dh)
            elif role == "holding":
                dw, dh = dep.dims()
                if dep.kind == "dog":
                    dep.facing = -anchor.facing
                    gap = rand.uniform(45, 85)
                    x = aw + gap if anchor.facing > 0 else -gap - dw
                    boxes[dep_id] = Box(x, ah - dh, dw, dh)
                else:
                    hx, hy = hand(at, raised=True)
                    if dep.kind == "balloon":
                        boxes[dep_id] = Box(hx - dw / 2, hy - dh, dw, dh)
                    else:
                        dep.facing = anchor.facing
                        pole = 0.08 if dep.facing > 0 else 0.92
                        boxes[dep_id] = Box(hx - pole * dw, hy - dh, dw, dh)
            elif role == "next_to":
                dw, dh = dep.dims()
                gap = rand.uniform(25, 60)
                x = aw + gap if rand.random() < 0.5 else -gap - dw
                boxes[dep_id] = Box(x, ah - dh, dw, dh)
        return boxes

    def _fit(self, piece: Piece, max_w: float, max_h: float | None, grow: bool = False) -> bool:
        """Scale `piece` to fit max_w x max_h (and up to it when `grow`); False if too small."""
        w, h = piece.dims()
        factor = max_w / w if max_h is None else min(max_w / w, max_h / h)
        if factor < 1 or grow:
            piece.scale *= min(factor, 1.4)
        return piece.scale >= 0.45

    def place_all(self) -> bool:
        anchors = [p for p in self.pieces.values() if not p.role]
        sized = []
        for anchor in anchors:
            boxes = self.cluster(anchor)
            if boxes is None:
                return False
            union = _union(boxes.values())
            sized.append((union.area, anchor))
        placed: list[Box] = []
        for _, anchor in sorted(sized, key=lambda item: (-item[0], item[1].id)):
            if not self._place(anchor, placed):
                if self._essential(anchor):
                    return False
                self._drop(anchor)
        return self._place_late(placed)

    def _essential(self, anchor: Piece) -> bool:
        return anchor.required or any(self.pieces[d].required for d in anchor.deps)

    def _drop(self, anchor: Piece) -> None:
        for dep in anchor.deps:
            self.pieces.pop(dep, None)
        self.pieces.pop(anchor.id)
        self.designed = {k: v for k, v in self.designed.items()
                         if all(i in self.pieces for i in k[1:])}

    def _place(self, anchor: Piece, placed: list[Box]) -> bool:
        rand = self.rand
        zone = self.zone_of(anchor)
        for _shrink in range(3):
            boxes = self.cluster(anchor)
            if boxes is None:
                return False
            union = _union(boxes.values())
            aw, ah = anchor.dims()
            for _try in range(90):
                if zone.stand:
                    dy = rand.uniform(zone.area.y, zone.area.y2) - ah
                    low, high = zone.area.x - union.x, zone.area.x2 - union.x2
                else:
                    dy = rand.uniform(zone.area.y, zone.area.y2 - ah)
                    low, high = zone.area.x, zone.area.x2 - aw
                if high < low:
                    break
                dx = rand.uniform(low, high)
                if not zone.stand and rand.random() < 0.4:
                    dx = self._over_something(aw, low, high) or dx
                moved = union.moved(dx, dy)
                if not moved.inside(FRAME.grown(-EDGE)):
                    continue
                if any(moved.overlaps(b.grown(PAD)) for b in placed) or any(
                        moved.overlaps(o) for o in zone.obstacles):
                    continue
                for piece_id, box in boxes.items():
                    self.pieces[piece_id].box = box.moved(dx, dy)
                placed.append(moved)
                return True
            for piece_id in (anchor.id, *anchor.deps):
                self.pieces[piece_id].scale *= 0.88
        return False

    def _over_something(self, width: float, low: float, high: float) -> float | None:
        """An x that puts a thing in the sky over something on the ground (for "above")."""
        below = [p.box for p in self.pieces.values()
                 if p.box is not None and OBJECT_KINDS[p.kind].layer and p.box.y > 300]
        if not below:
            return None
        target = self.rand.choice(below)
        dx = target.cx - width / 2 + self.rand.uniform(-0.15, 0.15) * target.w
        return dx if low <= dx <= high else None

    def _place_late(self, placed: list[Box]) -> bool:
        """Kites far up on their string, and fish under a boat: after everything else."""
        rand = self.rand
        for piece in list(self.pieces.values()):
            if not piece.role or piece.box is not None or piece.id not in self.pieces:
                continue
            anchor = self.pieces[piece.anchor]
            if anchor.box is None:
                self.pieces.pop(piece.id)
                continue
            zone = self.zone_of(piece)
            w, h = piece.dims()
            done = False
            for _try in range(120):
                if piece.kind == "kite":
                    hx, hy = hand(anchor.at(anchor.box), raised=True)
                    cx = hx + anchor.facing * rand.uniform(180, 650)
                    y = rand.uniform(zone.area.y, zone.area.y2 - h)
                else:
                    boat = anchor.box
                    cx = rand.uniform(boat.x + 0.3 * boat.w, boat.x2 - 0.3 * boat.w)
                    y = rand.uniform(boat.y2 + 50, zone.area.y2 - h) if (
                        boat.y2 + 50 < zone.area.y2 - h) else -1.0
                box = Box(cx - w / 2, y, w, h)
                if y < 0 or not box.inside(zone.area):
                    continue
                if any(box.overlaps(b.grown(PAD)) for b in placed):
                    continue
                if piece.kind == "kite" and not self._string_clear(
                        (hx, hy), (box.cx, box.y + 0.45 * box.h), {piece.id, anchor.id}):
                    continue
                piece.box = box
                placed.append(box)
                done = True
                break
            if not done:
                if piece.required:
                    return False
                anchor.deps.remove(piece.id)
                self.pieces.pop(piece.id)
                self.designed = {k: v for k, v in self.designed.items() if piece.id not in k}
        return True

    def _string_clear(self, a: tuple[float, float], b: tuple[float, float],
                      skip: set[str]) -> bool:
        steps = max(1, int(math.dist(a, b) / 8))
        others = [p.box.grown(6) for p in self.pieces.values()
                  if p.box is not None and p.id not in skip]
        for i in range(steps + 1):
            x = a[0] + (b[0] - a[0]) * i / steps
            y = a[1] + (b[1] - a[1]) * i / steps
            if any(o.contains_point(x, y) for o in others):
                return False
        return True

    def objects(self) -> tuple[SceneObject, ...]:
        """The placed objects in drawing order: far before near, containers over contents."""
        def order(piece: Piece) -> tuple[int, float, int, str]:
            anchor = self.pieces[piece.anchor] if piece.role else piece
            assert anchor.box is not None and piece.box is not None
            if piece.role == "in" and anchor.kind != "fishbowl":
                sub = -1  # drawn first, so the box, basket or boat hides its lower part
            elif piece.role:
                sub = 1
            else:
                sub = 0
            base = piece.box.y2 if piece.role == "holding" and piece.kind == "kite" else (
                anchor.box.y2)
            return OBJECT_KINDS[piece.kind].layer, base, sub, piece.id

        placed = [p for p in self.pieces.values() if p.box is not None]
        return tuple(p.at(p.box) for p in sorted(placed, key=order) if p.box is not None)


def _area(piece: Piece) -> float:
    w, h = OBJECT_KINDS[piece.kind].size
    return float(w * h)


def _union(boxes: Iterable[Box]) -> Box:
    it = iter(boxes)
    out = next(it)
    for box in it:
        out = out.union(box)
    return out


def _attempt(seed: int, attempt: int) -> Scene | None:
    # The theme and title depend on the seed alone, so a theme that is harder to lay out
    # is not dealt less often; the rest is drawn afresh on each attempt.
    first = random.Random(f"duplik-scene/{seed}")
    theme = first.choice(THEMES)
    title = first.choice(theme.titles)
    rand = random.Random(f"duplik-scene/{seed}/{attempt}")
    backdrop = make_backdrop(theme.backdrop, rand)
    builder = Builder(rand, theme, zones_of(backdrop))
    builder.compose(title)
    builder.relate()
    builder.contrast()
    if not builder.place_all():
        return None
    objects = builder.objects()
    draft = Scene(seed, title.text, objects, (), backdrop, theme.id)
    designed = {k: v for k, v in builder.designed.items()
                if all(any(o.id == i for o in objects) for i in k[1:])}
    chosen = choose(candidates(draft, designed), rand)
    if chosen is None:
        return None
    order = list(chosen)
    rand.shuffle(order)
    return replace(draft, criteria=tuple(order))


@lru_cache(maxsize=512)
def generate(seed: int) -> Scene:
    """The scene for `seed`: the same seed always gives the same scene.

    Remembered (scenes are frozen values): a match asks for its current scene on every view.
    """
    for attempt in range(ATTEMPTS):
        scene = _attempt(seed, attempt)
        if scene is not None:
            return scene
    raise SceneError(f"no scene could be laid out for seed {seed}")


__all__ = ["SceneError", "Zone", "generate", "make_backdrop", "zones_of"]
