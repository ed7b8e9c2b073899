"""The values a Duplik scene is made of: boxes, objects, the backdrop, criteria, the scene.

Everything is in sheet space (1600 x 1000, y down, see `games.sheet`). An object is its
kind, its bounding box (the picture of it fills that box), its details ("windows": 2) and
who holds it; relations such as "on top of" or "inside" are not stored but read from the
boxes, so a criterion can always be re-checked against the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.duplik_scenes.words import Text
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in sheet units: top-left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x2(self) -> float:
        return self.x + self.w

    @property
    def y2(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def area(self) -> float:
        return self.w * self.h

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def grown(self, margin: float) -> Box:
        return Box(self.x - margin, self.y - margin, self.w + 2 * margin, self.h + 2 * margin)

    def overlaps(self, other: Box) -> bool:
        return (self.x < other.x2 and other.x < self.x2
                and self.y < other.y2 and other.y < self.y2)

    def overlap_area(self, other: Box) -> float:
        w = min(self.x2, other.x2) - max(self.x, other.x)
        h = min(self.y2, other.y2) - max(self.y, other.y)
        return max(0.0, w) * max(0.0, h)

    def contains_point(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x2 and self.y <= y <= self.y2

    def inside(self, other: Box) -> bool:
        return (other.x <= self.x and self.x2 <= other.x2
                and other.y <= self.y and self.y2 <= other.y2)

    def union(self, other: Box) -> Box:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Box(x, y, max(self.x2, other.x2) - x, max(self.y2, other.y2) - y)

    def part(self, u1: float, v1: float, u2: float, v2: float) -> Box:
        """The sub-box between fractions (u1, v1) and (u2, v2) of this box."""
        return Box(self.x + u1 * self.w, self.y + v1 * self.h,
                   (u2 - u1) * self.w, (v2 - v1) * self.h)


FRAME = Box(0, 0, SHEET_WIDTH, SHEET_HEIGHT)


@dataclass(frozen=True)
class SceneObject:
    """One drawn thing. `id` is "<kind>-<n>"; `facing` is +1 (right) or -1 (left)."""

    id: str
    kind: str
    box: Box
    details: tuple[tuple[str, int], ...] = ()
    facing: int = 1
    held_by: str | None = None
    colour: str = ""

    def detail(self, name: str) -> int:
        """How many (or whether, 0/1) of a detail the object has: 0 when it has none."""
        return next((value for key, value in self.details if key == name), 0)


@dataclass(frozen=True)
class Backdrop:
    """The picture behind the objects: its kind, the horizon, the water (pond, sea), if any."""

    kind: str
    horizon: float
    water: Box | None = None
    mirrored: bool = False


@dataclass(frozen=True)
class Criterion:
    """One statement on the back of the card, true of the scene.

    `kind` is what sort of fact it is ("count", "position", "relation", "size", "detail");
    `test` and `args` are how `holds` re-checks it against the scene's data; `objects` are
    the ids of every object it names (all of them, for a count).
    """

    kind: str
    text: Text
    objects: tuple[str, ...]
    test: str
    args: tuple[str | int, ...] = ()

    @property
    def fact(self) -> tuple[str | int, ...]:
        """The fact without its wording: two criteria with one fact would be one criterion."""
        mirror = {"right_of": "left_of", "smaller": "bigger", "under": "above"}
        if self.test in mirror:
            return (mirror[self.test], *reversed(self.objects), *self.args)
        return (self.test, *self.objects, *self.args)


@dataclass(frozen=True)
class Scene:
    """A picture card: seed, title, objects (in drawing order) and its 10 criteria."""

    seed: int
    title: Text
    objects: tuple[SceneObject, ...]
    criteria: tuple[Criterion, ...]
    backdrop: Backdrop = field(default_factory=lambda: Backdrop("meadow", 430))
    theme: str = ""

    @property
    def key(self) -> str:
        return f"scene-{self.seed}"

    def object(self, object_id: str) -> SceneObject:
        for obj in self.objects:
            if obj.id == object_id:
                return obj
        raise UnknownObject(f"{self.key} has no object {object_id!r}")

    def of_kind(self, kind: str) -> tuple[SceneObject, ...]:
        return tuple(obj for obj in self.objects if obj.kind == kind)


class UnknownObject(LookupError):
    """A criterion or a caller named an object the scene does not have."""
