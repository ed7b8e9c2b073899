"""Pictures of scenes: one SVG that nanosvg (pygame's SDL_image) and every browser draw alike.

Only rect, circle, ellipse, line, polyline, polygon and path (absolute M, L, Q, C, Z) with
plain fill, stroke and stroke-width: nanosvg ignores text, and the kiosk's art show loads
the same SVG as the Portrayer's phone. Each object is one `<g data-object="ID">` whose
drawing fills its box; strings and leads between objects are `<g data-link="ID">`.

Each kind is drawn on its own design grid (`kinds.size_of`), mapped onto the object's box
and mirrored when it faces left. Outlines are one dark ink of one width, like a card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

from games.duplik_scenes.kinds import (
    PERSON_GRID,
    Figure,
    dog_collar,
    figure,
    hand,
    size_of,
)
from games.duplik_scenes.model import Backdrop, Box, Scene, SceneObject
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH

INK: Final = "#2e2a36"
SW: Final = 5.0
SKIN: Final = "#f6cfa6"
WHITE: Final = "#ffffff"
GLASS: Final = "#bfe3ff"
WOOD: Final = "#c98a4b"
DARK_WOOD: Final = "#8b5a3c"
YELLOW: Final = "#ffd23f"
ORANGE: Final = "#f7a72b"
RED: Final = "#e84a4a"
GREEN: Final = "#5fb84a"
GREY: Final = "#a9a9b3"


def _n(value: float) -> str:
    return f"{round(value, 1):g}"


class Pen:
    """Collects SVG elements in sheet coordinates."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    @staticmethod
    def _paint(fill: str | None, stroke: str | None, width: float, extra: str = "") -> str:
        out = f' fill="{fill or "none"}"'
        if stroke:
            out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
        return out + extra

    def rect(self, x: float, y: float, w: float, h: float, fill: str, rx: float = 0,
             stroke: str | None = INK, width: float = SW) -> None:
        corner = f' rx="{_n(rx)}" ry="{_n(rx)}"' if rx else ""
        self.parts.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"'
                          f'{corner}{self._paint(fill, stroke, width)}/>')

    def circle(self, cx: float, cy: float, r: float, fill: str | None,
               stroke: str | None = INK, width: float = SW) -> None:
        self.parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}"'
                          f'{self._paint(fill, stroke, width)}/>')

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str | None,
                stroke: str | None = INK, width: float = SW) -> None:
        self.parts.append(f'<ellipse cx="{_n(cx)}" cy="{_n(cy)}" rx="{_n(rx)}" ry="{_n(ry)}"'
                          f'{self._paint(fill, stroke, width)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK,
             width: float = SW, cap: str = "round") -> None:
        self.parts.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"'
                          f' stroke="{stroke}" stroke-width="{_n(width)}"'
                          f' stroke-linecap="{cap}"/>')

    def poly(self, points: Sequence[tuple[float, float]], fill: str | None,
             stroke: str | None = INK, width: float = SW, closed: bool = True) -> None:
        tag = "polygon" if closed else "polyline"
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
        self.parts.append(f'<{tag} points="{pts}"{self._paint(fill, stroke, width)}/>')

    def path(self, d: str, fill: str | None, stroke: str | None = INK, width: float = SW,
             cap: str = "round") -> None:
        self.parts.append(f'<path d="{d}"{self._paint(fill, stroke, width)}'
                          f' stroke-linecap="{cap}"/>')


Cmd = tuple[str | float, ...]


class F:
    """A kind's design grid (grid_w x grid_h units) laid onto a box, mirrored if facing left.

    Coordinates are grid units; radii and line widths given in grid units are scaled too,
    outlines stay SW wide so every object wears the same ink.
    """

    def __init__(self, pen: Pen, box: Box, grid_w: float, grid_h: float,
                 mirrored: bool = False) -> None:
        self.pen = pen
        self.box = box
        self.gw = grid_w
        self.gh = grid_h
        self.s = box.w / grid_w
        self.mirrored = mirrored

    def x(self, u: float) -> float:
        return self.box.x + ((self.gw - u) if self.mirrored else u) * self.s

    def y(self, v: float) -> float:
        return self.box.y + v * self.box.h / self.gh

    def p(self, u: float, v: float) -> tuple[float, float]:
        return self.x(u), self.y(v)

    def rect(self, u1: float, v1: float, u2: float, v2: float, fill: str, r: float = 0,
             stroke: str | None = INK) -> None:
        xa, xb = sorted((self.x(u1), self.x(u2)))
        self.pen.rect(xa, self.y(v1), xb - xa, self.y(v2) - self.y(v1), fill, r * self.s, stroke)

    def circle(self, u: float, v: float, r: float, fill: str | None,
               stroke: str | None = INK, lw: float | None = None) -> None:
        self.pen.circle(self.x(u), self.y(v), r * self.s, fill, stroke,
                        SW if lw is None else lw * self.s)

    def ellipse(self, u: float, v: float, ru: float, rv: float, fill: str | None,
                stroke: str | None = INK) -> None:
        self.pen.ellipse(self.x(u), self.y(v), ru * self.s, rv * self.s, fill, stroke)

    def line(self, u1: float, v1: float, u2: float, v2: float, colour: str = INK,
             lw: float | None = None, cap: str = "round") -> None:
        self.pen.line(self.x(u1), self.y(v1), self.x(u2), self.y(v2), colour,
                      SW if lw is None else lw * self.s, cap)

    def thick(self, points: Sequence[tuple[float, float]], colour: str, lw: float) -> None:
        """A thick outlined stroke (a leg, a log, a tail): ink under colour."""
        self.poly(points, None, INK, lw + 2 * SW / self.s, closed=False)
        self.poly(points, None, colour, lw, closed=False)

    def poly(self, points: Sequence[tuple[float, float]], fill: str | None,
             stroke: str | None = INK, lw: float | None = None, closed: bool = True) -> None:
        self.pen.poly([self.p(u, v) for u, v in points], fill, stroke,
                      SW if lw is None else lw * self.s, closed)

    def path(self, cmds: Sequence[Cmd], fill: str | None, stroke: str | None = INK,
             lw: float | None = None) -> None:
        out = []
        for cmd in cmds:
            letter, *nums = cmd
            out.append(str(letter))
            for i in range(0, len(nums), 2):
                x, y = self.p(float(nums[i]), float(nums[i + 1]))
                out.append(f"{_n(x)} {_n(y)}")
        self.pen.path(" ".join(out), fill, stroke, SW if lw is None else lw * self.s)

    def blob(self, circles: Sequence[tuple[float, float, float]], fill: str) -> None:
        """Overlapping circles with one outline around all of them (a cloud, a crown)."""
        for u, v, r in circles:
            self.circle(u, v, r, fill, INK, 2 * SW / self.s)
        for u, v, r in circles:
            self.circle(u, v, r, fill, None)


def _grid(obj: SceneObject) -> tuple[float, float]:
    return size_of(obj.kind, dict(obj.details))


def _frame(pen: Pen, obj: SceneObject) -> F:
    w, h = _grid(obj)
    return F(pen, obj.box, w, h, obj.facing < 0)


def _star_points(cx: float, cy: float, outer: float, inner: float,
                 points: int = 5) -> list[tuple[float, float]]:
    out = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _flower_head(f: F, u: float, v: float, colour: str, size: float = 1.0) -> None:
    for i in range(5):
        a = -math.pi / 2 + i * 2 * math.pi / 5
        f.circle(u + 12 * size * math.cos(a), v + 12 * size * math.sin(a), 9 * size, colour)
    f.circle(u, v, 7 * size, YELLOW)


# --- The sky --------------------------------------------------------------------------------


def sun(f: F, o: SceneObject) -> None:
    for i in range(12):
        a = i * math.pi / 6
        f.line(105 + 76 * math.cos(a), 105 + 76 * math.sin(a),
               105 + 100 * math.cos(a), 105 + 100 * math.sin(a), ORANGE, 10)
    f.circle(105, 105, 68, YELLOW)
    if o.detail("face"):
        f.circle(84, 92, 7, INK, None)
        f.circle(126, 92, 7, INK, None)
        f.path([("M", 76, 116), ("Q", 105, 150, 134, 116)], None, INK, 6)


def cloud(f: F, o: SceneObject) -> None:
    rain = o.detail("rain")
    if rain:
        for u in (60, 100, 140, 180, 220):
            f.line(u, 145, u - 14, 205, "#3f8fe0", 8)
    f.blob([(70, 82, 45), (120, 57, 50), (175, 62, 45), (213, 87, 38), (140, 88, 40)],
           "#c5cdd9" if rain else WHITE)


def moon(f: F, o: SceneObject) -> None:
    if o.detail("crescent"):
        f.path([("M", 104, 6), ("C", -14, 6, -14, 164, 104, 164), ("C", 40, 140, 40, 30, 104, 6),
                ("Z",)], "#fff3a6")
    else:
        f.circle(75, 85, 70, "#fff3a6")
        for u, v, r in ((52, 68, 12), (96, 104, 16), (92, 50, 8)):
            f.circle(u, v, r, "#efe08a", "#d9c66a", 3)


def star(f: F, o: SceneObject) -> None:
    f.poly(_star_points(50, 53, 48, 20), YELLOW)


def bird(f: F, o: SceneObject) -> None:
    c = o.colour or "#4f8fe8"
    f.line(50, 76, 46, 93, ORANGE, 4)
    f.line(62, 76, 64, 93, ORANGE, 4)
    f.poly([(26, 52), (0, 36), (4, 66)], c)
    f.ellipse(55, 57, 36, 25, c)
    f.circle(88, 40, 19, c)
    f.poly([(104, 34), (120, 42), (104, 49)], ORANGE)
    f.circle(93, 37, 4, INK, None)
    f.path([("M", 36, 54), ("Q", 50, 8, 78, 48), ("Z",)], WHITE)


def plane(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    f.poly([(40, 56), (14, 4), (52, 4), (92, 56)], c)
    f.path([("M", 22, 74), ("Q", 22, 52, 52, 52), ("L", 268, 52), ("Q", 318, 56, 318, 76),
            ("Q", 312, 96, 268, 96), ("L", 52, 96), ("Q", 22, 96, 22, 74), ("Z",)], WHITE)
    for u in range(110, 260, 30):
        f.circle(u, 68, 8, GLASS)
    f.poly([(130, 78), (196, 78), (150, 128), (104, 128)], c)


def balloon(f: F, o: SceneObject) -> None:
    f.poly([(45, 107), (38, 130), (52, 155), (40, 178), (45, 200)], None, INK, 3, closed=False)
    f.poly([(39, 110), (51, 110), (45, 100)], o.colour or RED)
    f.ellipse(45, 54, 42, 52, o.colour or RED)
    f.ellipse(30, 36, 8, 14, WHITE, None)


KITE_BOWS: Final = ((57, 172), (69, 198), (60, 222), (65, 246))


def kite(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    f.poly([(65, 150), (50, 180), (80, 205), (55, 235), (66, 258)], None, INK, 3, closed=False)
    f.poly([(65, 0), (128, 60), (65, 150), (2, 60)], c)
    f.line(65, 0, 65, 150, INK, 3)
    f.line(2, 60, 128, 60, INK, 3)
    for u, v in KITE_BOWS[:o.detail("bows")]:
        f.poly([(u - 17, v - 10), (u, v), (u - 17, v + 10)], YELLOW)
        f.poly([(u + 17, v - 10), (u, v), (u + 17, v + 10)], YELLOW)


def butterfly(f: F, o: SceneObject) -> None:
    c = o.colour or ORANGE
    f.line(57, 22, 45, 3, INK, 3)
    f.line(63, 22, 75, 3, INK, 3)
    for u, v, ru, rv in ((34, 36, 30, 27), (86, 36, 30, 27), (40, 70, 21, 18), (80, 70, 21, 18)):
        f.ellipse(u, v, ru, rv, c)
    f.circle(32, 34, 8, WHITE, None)
    f.circle(88, 34, 8, WHITE, None)
    f.ellipse(60, 52, 7, 32, INK)


def rainbow(f: F, o: SceneObject) -> None:
    colours = ("#e84a4a", "#f7a72b", "#f2d22e", "#5fb84a", "#3f8fe0", "#8e5fd1")
    band = 24.0
    k = 0.5523
    outer = 222.0

    def arc(r: float) -> list[Cmd]:
        cx, cy = 230.0, 240.0
        return [("M", cx - r, cy), ("C", cx - r, cy - k * r, cx - k * r, cy - r, cx, cy - r),
                ("C", cx + k * r, cy - r, cx + r, cy - k * r, cx + r, cy)]

    mid = outer - band * len(colours) / 2
    f.pen.path(_cmds(f, arc(mid)), None, INK, (band * len(colours) + 2 * SW / f.s) * f.s, "butt")
    for i, colour in enumerate(colours):
        f.pen.path(_cmds(f, arc(outer - band * (i + 0.5))), None, colour, band * f.s, "butt")


def _cmds(f: F, cmds: Sequence[Cmd]) -> str:
    out = []
    for cmd in cmds:
        letter, *nums = cmd
        out.append(str(letter))
        for i in range(0, len(nums), 2):
            x, y = f.p(float(nums[i]), float(nums[i + 1]))
            out.append(f"{_n(x)} {_n(y)}")
    return " ".join(out)


def rocket(f: F, o: SceneObject) -> None:
    if o.detail("flames"):
        f.poly([(46, 248), (70, 378), (94, 248)], ORANGE)
        f.poly([(58, 248), (70, 335), (82, 248)], YELLOW, None)
    f.poly([(28, 170), (0, 250), (32, 234)], RED)
    f.poly([(112, 170), (140, 250), (108, 234)], RED)
    f.rect(46, 226, 94, 250, "#7d8190")
    f.path([("M", 70, 0), ("C", 112, 30, 118, 90, 112, 232), ("L", 28, 232),
            ("C", 22, 90, 28, 30, 70, 0), ("Z",)], "#f4f4f8")
    f.path([("M", 70, 0), ("C", 90, 14, 100, 36, 104, 58), ("L", 36, 58),
            ("C", 40, 36, 50, 14, 70, 0), ("Z",)], RED)
    for v in (98, 146, 194)[:o.detail("portholes")]:
        f.circle(70, v, 17, GLASS)


def planet(f: F, o: SceneObject) -> None:
    c = o.colour or "#e8a04a"
    ring = o.detail("ring")
    cx = 135.0 if ring else 85.0
    k = 0.5523

    def half(top: bool) -> list[Cmd]:
        sign = -1 if top else 1
        near, far = 85 + sign * k * 30, 85 + sign * 30
        return [("M", cx - 130, 85), ("C", cx - 130, near, cx - k * 130, far, cx, far),
                ("C", cx + k * 130, far, cx + 130, near, cx + 130, 85)]

    if ring:
        f.pen.path(_cmds(f, half(True)), None, INK, 22 * f.s)
        f.pen.path(_cmds(f, half(True)), None, "#e3c98a", 12 * f.s)
    f.circle(cx, 85, 70, c)
    f.path([("M", cx - 62, 60), ("Q", cx, 75, cx + 62, 60)], None, "#ffffff", 8)
    f.path([("M", cx - 66, 105), ("Q", cx, 120, cx + 66, 105)], None, "#ffffff", 8)
    if ring:
        f.pen.path(_cmds(f, half(False)), None, INK, 22 * f.s)
        f.pen.path(_cmds(f, half(False)), None, "#e3c98a", 12 * f.s)


# --- Nature -----------------------------------------------------------------------------------


TREE_APPLES: Final = ((95, 110), (165, 105), (130, 160), (75, 175), (190, 170), (130, 62))


def tree(f: F, o: SceneObject) -> None:
    f.poly([(108, 370), (116, 200), (144, 200), (152, 370)], "#9a6a3f")
    f.blob([(130, 95, 90), (70, 150, 62), (190, 150, 62), (130, 175, 70)], GREEN)
    for u, v in TREE_APPLES[:o.detail("apples")]:
        f.circle(u, v, 14, RED)


def fir(f: F, o: SceneObject) -> None:
    f.rect(82, 282, 108, 330, "#9a6a3f")
    green = "#3f9a5a"
    f.poly([(95, 140), (188, 290), (2, 290)], green)
    f.poly([(95, 60), (170, 192), (20, 192)], green)
    f.poly([(95, 0), (150, 106), (40, 106)], green)


def flower(f: F, o: SceneObject) -> None:
    f.line(40, 70, 40, 160, "#3f9a5a", 7)
    f.path([("M", 40, 128), ("Q", 64, 100, 74, 116), ("Q", 62, 136, 40, 128), ("Z",)], GREEN)
    _flower_head(f, 40, 40, o.colour or "#e84a7f", 1.55)


def mountain(f: F, o: SceneObject) -> None:
    f.poly([(0, 300), (220, 0), (440, 300)], "#8fa3bf")
    f.poly([(110, 300), (260, 95), (330, 300)], "#7d92b0", None)
    if o.detail("snow"):
        f.poly([(220, 0), (292, 98), (256, 82), (226, 108), (192, 82), (150, 96)], WHITE)


def rock(f: F, o: SceneObject) -> None:
    f.path([("M", 8, 110), ("Q", 0, 55, 35, 30), ("Q", 60, 5, 95, 5), ("Q", 140, 5, 165, 40),
            ("Q", 183, 75, 172, 110), ("Z",)], GREY)
    f.path([("M", 120, 40), ("Q", 140, 55, 135, 80)], None, "#8c8c96", 5)


def bush(f: F, o: SceneObject) -> None:
    f.blob([(50, 76, 44), (100, 56, 52), (150, 76, 44), (100, 84, 36)], "#4ea64a")


def mushroom(f: F, o: SceneObject) -> None:
    f.rect(38, 58, 72, 120, "#f6ecd6", 8)
    f.path([("M", 2, 68), ("Q", 5, 0, 55, 0), ("Q", 105, 0, 108, 68), ("Z",)], RED)
    for u, v, r in ((28, 38, 8), (57, 20, 9), (83, 42, 8)):
        f.circle(u, v, r, WHITE, None)


PALM_COCONUTS: Final = ((104, 122), (131, 130), (158, 122), (117, 152))


def palm(f: F, o: SceneObject) -> None:
    f.poly([(116, 400), (144, 400), (150, 280), (146, 160), (138, 108), (122, 108),
            (124, 160), (122, 280)], "#b07a45")
    leaf = "#3fa34d"
    for tip, ctrl1, ctrl2 in (((5, 95), (60, 35), (60, 75)), ((255, 95), (200, 35), (200, 75)),
                              ((40, 18), (85, 5), (95, 45)), ((220, 18), (175, 5), (165, 45)),
                              ((20, 175), (50, 100), (80, 125)), ((240, 175), (210, 100),
                                                                  (180, 125))):
        f.path([("M", 130, 100), ("Q", *ctrl1, *tip), ("Q", *ctrl2, 130, 100), ("Z",)], leaf)
    for u, v in PALM_COCONUTS[:o.detail("coconuts")]:
        f.circle(u, v, 14, "#7a4b24")


# --- Buildings and things that stand ----------------------------------------------------------


HOUSE_WINDOWS: Final = ((70, 175), (226, 175), (70, 262), (226, 262))


def house(f: F, o: SceneObject) -> None:
    oy = 90.0 if o.detail("smoke") else 0.0
    if o.detail("chimney"):
        f.rect(250, oy + 28, 284, oy + 110, "#b5533c")
    if o.detail("smoke"):
        f.blob([(268, 78, 17), (286, 48, 22), (306, 22, 20)], "#d6d6de")
    f.rect(30, oy + 145, 310, oy + 340, o.colour or "#f7d9a8")
    f.poly([(5, oy + 150), (105, oy + 40), (235, oy + 40), (335, oy + 150)], "#d9534f")
    f.rect(146, oy + 240, 194, oy + 340, DARK_WOOD, 4)
    f.circle(184, oy + 292, 4, YELLOW, None)
    for u, v in HOUSE_WINDOWS[:o.detail("windows")]:
        f.rect(u, oy + v, u + 44, oy + v + 44, GLASS)
        f.line(u + 22, oy + v, u + 22, oy + v + 44, INK, 3)
        f.line(u, oy + v + 22, u + 44, oy + v + 22, INK, 3)


def castle(f: F, o: SceneObject) -> None:
    stone, dark = "#b8b8c4", "#9d9dab"
    towers = [(20, 120), (320, 420)] if o.detail("towers") < 3 else [(20, 120), (320, 420),
                                                                    (170, 270)]
    f.rect(60, 200, 380, 380, stone)
    for u in range(68, 380, 44):
        f.rect(u, 182, u + 24, 202, stone)
    for i, (left, right) in enumerate(towers):
        top = 70.0 if i == 2 else 110.0
        a, b = float(left), float(right)
        f.rect(a, top, b, 380, stone)
        for k in range(3):
            c = a + 6 + k * (b - a - 24) / 2
            f.rect(c, top - 20, c + 18, top, stone)
        f.rect((a + b) / 2 - 10, top + 40, (a + b) / 2 + 10, top + 75, "#4a4458", 8)
    f.path([("M", 180, 380), ("L", 180, 310), ("Q", 220, 255, 260, 310), ("L", 260, 380),
            ("Z",)], DARK_WOOD)
    f.line(220, 290, 220, 380, dark, 4)
    if o.detail("flag"):
        a, b = towers[-1]
        top = 70.0 if len(towers) == 3 else 110.0
        pole = (a + b) / 2
        f.line(pole, top - 20, pole, 2, INK, 5)
        f.poly([(pole, 4), (pole + 48, 16), (pole, 30)], o.colour or RED)


def tent(f: F, o: SceneObject) -> None:
    oy = 80.0 if o.detail("flag") else 0.0
    if oy:
        f.line(140, oy, 140, 6, INK, 5)
        f.poly([(140, 6), (192, 24), (140, 42)], RED)
    f.poly([(140, oy), (280, oy + 200), (0, oy + 200)], o.colour or ORANGE)
    f.poly([(140, oy + 62), (176, oy + 200), (104, oy + 200)], "#5a4636")


def fence(f: F, o: SceneObject) -> None:
    for i in range(6):
        u = 8 + i * (330 - 16 - 26) / 5
        f.rect(u, 8, u + 26, 130, "#e0b07a")
    f.rect(0, 0, 330, 16, "#d49a5e")
    f.rect(0, 62, 330, 78, "#d49a5e")


def bench(f: F, o: SceneObject) -> None:
    legs = "#5b5b66"
    f.rect(40, 10, 52, 75, legs)
    f.rect(228, 10, 240, 75, legs)
    f.rect(30, 95, 44, 160, legs)
    f.rect(236, 95, 250, 160, legs)
    f.rect(24, 8, 256, 28, WOOD, 4)
    f.rect(24, 38, 256, 58, WOOD, 4)
    f.rect(6, 75, 274, 96, WOOD, 4)


def lighthouse(f: F, o: SceneObject) -> None:
    light = o.detail("light")
    ox = 90.0 if light else 0.0
    if light:
        glow = "#fff3a6"
        f.poly([(ox + 46, 58), (0, 25), (0, 110), (ox + 46, 88)], glow, "#e6c84a", 3)
        f.poly([(ox + 104, 58), (330, 25), (330, 110), (ox + 104, 88)], glow, "#e6c84a", 3)

    def at(v: float) -> tuple[float, float]:
        t = (v - 110) / 310
        return ox + 40 - 20 * t, ox + 110 + 20 * t

    f.poly([(ox + 40, 110), (ox + 110, 110), (ox + 130, 420), (ox + 20, 420)], WHITE)
    for v1, v2 in ((165, 215), (265, 315), (365, 415)):
        (a1, b1), (a2, b2) = at(v1), at(v2)
        f.poly([(a1, v1), (b1, v1), (b2, v2), (a2, v2)], RED)
    f.rect(ox + 62, 372, ox + 88, 420, DARK_WOOD)
    f.rect(ox + 46, 44, ox + 104, 100, YELLOW if light else GLASS)
    f.rect(ox + 28, 98, ox + 122, 114, "#4a4458")
    f.poly([(ox + 36, 46), (ox + 75, 0), (ox + 114, 46)], RED)


def campfire(f: F, o: SceneObject) -> None:
    f.path([("M", 85, 0), ("Q", 132, 60, 126, 96), ("Q", 120, 126, 85, 128), ("Q", 50, 126, 44, 96),
            ("Q", 38, 60, 85, 0), ("Z",)], ORANGE)
    f.path([("M", 85, 46), ("Q", 110, 86, 105, 106), ("Q", 100, 122, 85, 122),
            ("Q", 70, 122, 65, 106), ("Q", 60, 86, 85, 46), ("Z",)], YELLOW, None)
    f.thick([(18, 136), (152, 112)], DARK_WOOD, 22)
    f.thick([(18, 112), (152, 136)], "#a0703f", 22)


SNOWMAN_BUTTONS: Final = ((105, 128), (105, 168), (105, 226), (105, 266))


def snowman(f: F, o: SceneObject) -> None:
    snow = "#ffffff"
    f.thick([(60, 140), (12, 104)], DARK_WOOD, 6)
    f.thick([(150, 140), (198, 104)], DARK_WOOD, 6)
    if o.detail("broom"):
        f.line(196, 58, 196, 288, DARK_WOOD, 8)
        f.poly([(182, 280), (210, 280), (209, 328), (183, 328)], "#e8c35a")
    f.circle(105, 256, 72, snow)
    f.circle(105, 150, 52, snow)
    f.circle(105, 62, 40, snow)
    if o.detail("pot"):
        f.rect(74, 0, 136, 32, "#8a8f9c", 4)
        f.rect(64, 26, 146, 36, "#8a8f9c", 3)
    f.circle(92, 56, 5, INK, None)
    f.circle(118, 56, 5, INK, None)
    f.poly([(104, 64), (152, 72), (104, 80)], ORANGE)
    for u, v in SNOWMAN_BUTTONS[:o.detail("buttons")]:
        f.circle(u, v, 8, INK, None)


def parasol(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    f.line(165, 60, 165, 400, "#6b6b75", 9)
    f.path([("M", 5, 130), ("C", 15, -40, 315, -40, 325, 130), ("Q", 285, 152, 245, 130),
            ("Q", 205, 152, 165, 130), ("Q", 125, 152, 85, 130), ("Q", 45, 152, 5, 130), ("Z",)],
           c)
    f.path([("M", 165, 3), ("L", 108, 131), ("L", 140, 137), ("Z",)], WHITE, None)
    f.path([("M", 165, 3), ("L", 222, 131), ("L", 190, 137), ("Z",)], WHITE, None)
    f.path([("M", 5, 130), ("C", 15, -40, 315, -40, 325, 130)], None, INK)


# --- Vehicles ---------------------------------------------------------------------------------


def car(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    f.path([("M", 12, 122), ("L", 12, 86), ("Q", 16, 68, 44, 66), ("L", 92, 66), ("L", 126, 2),
            ("L", 234, 2), ("L", 270, 66), ("L", 294, 68), ("Q", 316, 74, 316, 100),
            ("L", 316, 122), ("Z",)], c)
    f.poly([(136, 14), (176, 14), (176, 62), (108, 62)], GLASS)
    f.poly([(188, 14), (226, 14), (258, 62), (188, 62)], GLASS)
    f.circle(304, 88, 7, YELLOW)
    for u in (80, 245):
        f.circle(u, 134, 33, "#3b3b46")
        f.circle(u, 134, 12, "#c9c9d2")


def bus(f: F, o: SceneObject) -> None:
    c = o.colour or "#f2c12e"
    f.rect(5, 10, 435, 170, c, 18)
    f.rect(5, 112, 435, 126, WHITE)
    n = o.detail("windows") or 3
    step = 330 / n
    for i in range(n):
        u = 24 + i * step
        f.rect(u, 32, u + step - 18, 86, GLASS, 4)
    f.rect(372, 32, 418, 166, "#5b6b7c", 4)
    f.line(395, 32, 395, 166, INK, 3)
    for u in (100, 330):
        f.circle(u, 172, 34, "#3b3b46")
        f.circle(u, 172, 12, "#c9c9d2")


def train(f: F, o: SceneObject) -> None:
    oy = 80.0 if o.detail("smoke") else 0.0
    n = max(1, o.detail("carriages"))
    w = 200 + 150 * n
    if oy:
        f.blob([(w - 48, 88, 17), (w - 74, 58, 22), (w - 106, 28, 24)], "#d6d6de")
    for i in range(n):
        u = 8 + 150 * i
        f.line(u + 130, oy + 130, u + 160, oy + 130, INK, 6)
        f.rect(u, oy + 52, u + 132, oy + 152, "#4f8fe8" if i % 2 else "#4cb06e", 6)
        f.rect(u + 16, oy + 70, u + 56, oy + 104, GLASS)
        f.rect(u + 76, oy + 70, u + 116, oy + 104, GLASS)
        f.circle(u + 32, oy + 166, 19, "#3b3b46")
        f.circle(u + 100, oy + 166, 19, "#3b3b46")
    e = w - 200
    f.rect(e + 48, oy + 25, e + 72, oy + 75, "#3b3b46")
    f.rect(e + 10, oy + 32, e + 90, oy + 152, RED, 4)
    f.rect(e + 26, oy + 50, e + 70, oy + 90, GLASS)
    f.rect(e + 86, oy + 74, e + 192, oy + 152, "#d9534f", 6)
    f.rect(e + 150, oy + 26, e + 174, oy + 76, "#3b3b46")
    for u in (e + 40, e + 100, e + 160):
        f.circle(u, oy + 166, 21, "#3b3b46")


def bicycle(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    for u in (55, 195):
        f.circle(u, 110, 46, None, INK, 7)
        f.circle(u, 110, 5, INK, None)
    for a, b in (((55, 110), (115, 110)), ((115, 110), (100, 58)), ((100, 58), (55, 110)),
                 ((100, 62), (174, 58)), ((115, 110), (174, 58)), ((174, 58), (195, 110))):
        f.line(*a, *b, c, 8)
    f.ellipse(98, 50, 18, 6, INK)
    f.poly([(174, 58), (182, 28), (204, 26)], None, INK, 6, closed=False)
    if o.detail("basket"):
        f.poly([(196, 24), (248, 24), (240, 60), (204, 60)], "#d9a35a")
        f.line(200, 42, 244, 42, INK, 3)


def boat(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    gh = f.gh
    top = gh - 120
    if o.detail("sail") or o.detail("flag"):
        f.line(186, top + 24, 186, 8, DARK_WOOD, 8)
    if o.detail("sail"):
        f.poly([(194, 22), (194, top + 8), (292, top + 8)], "#fdfdf6")
    if o.detail("flag"):
        f.poly([(182, 8), (134, 22), (182, 36)], YELLOW if c == RED else RED)
    if not (o.detail("sail") or o.detail("flag")):
        # A motorboat's cabin, so a boat without a sail still reads as a boat.
        f.rect(150, 4, 250, top + 20, WHITE, 6)
        f.rect(166, 16, 196, 40, GLASS)
        f.rect(206, 16, 236, 40, GLASS)
    f.poly([(0, top + 22), (300, top + 6), (256, gh - 2), (42, gh - 2)], c)
    f.line(24, top + 48, 282, top + 36, WHITE, 6)


# --- Animals ----------------------------------------------------------------------------------


def cat(f: F, o: SceneObject) -> None:
    c = o.colour or "#f2a541"
    stripe = "#8a5a2a" if c not in ("#a7a9b4",) else "#5b5b66"
    f.thick([(36, 148), (8, 128), (14, 92)], c, 12)
    f.ellipse(64, 116, 44, 43, c)
    f.ellipse(86, 154, 14, 7, c)
    f.ellipse(112, 154, 14, 7, c)
    f.poly([(68, 40), (72, 2), (96, 24)], c)
    f.poly([(106, 24), (126, 2), (130, 42)], c)
    f.circle(97, 56, 37, c)
    if o.detail("stripes"):
        for a, b, d in (((36, 96), (50, 102), (44, 118)), ((54, 82), (66, 90), (62, 106)),
                        ((26, 122), (40, 126), (36, 140))):
            f.path([("M", *a), ("Q", *b, *d)], None, stripe, 6)
        f.line(97, 22, 97, 34, stripe, 5)
        f.line(86, 25, 88, 36, stripe, 5)
        f.line(108, 25, 106, 36, stripe, 5)
    f.circle(86, 52, 5, INK, None)
    f.circle(110, 52, 5, INK, None)
    f.poly([(93, 62), (103, 62), (98, 68)], "#f08aa0", None)
    for dv in (-4, 4):
        f.line(66, 66 + dv, 84, 66, INK, 2)
        f.line(112, 66, 132, 66 + dv, INK, 2)


def dog(f: F, o: SceneObject) -> None:
    c = o.colour or "#c58b52"
    dark = "#7a5233"
    f.thick([(40, 76), (18, 52), (22, 28)], c, 12)
    for u1, v1 in ((50, 104), (80, 110), (130, 110), (160, 104)):
        f.rect(u1, v1, u1 + 18, 160, c, 6)
    f.ellipse(105, 86, 70, 38, c)
    if o.detail("spots"):
        for u, v, ru, rv in ((86, 74, 16, 11), (128, 92, 13, 10), (66, 100, 10, 7)):
            f.ellipse(u, v, ru, rv, dark, None)
    f.line(146, 64, 160, 94, RED, 9)
    f.circle(176, 54, 33, c)
    f.ellipse(200, 68, 19, 14, c)
    f.circle(215, 62, 6, INK, None)
    f.ellipse(158, 54, 12, 24, dark)
    f.circle(184, 45, 5, INK, None)
    if o.detail("bone"):
        for u, v in ((188, 73), (188, 87), (214, 73), (214, 87)):
            f.circle(u, v, 6, WHITE)
        f.rect(188, 75, 214, 85, WHITE, 0, None)


def fish(f: F, o: SceneObject) -> None:
    c = o.colour or "#f28c28"
    f.poly([(2, 16), (46, 50), (2, 84)], c)
    f.poly([(88, 16), (106, 2), (128, 14)], c)
    f.ellipse(106, 50, 70, 40, c)
    if o.detail("stripes"):
        for u in (76, 106):
            f.path([("M", u, 14), ("Q", u + 12, 50, u, 86)], None, "#2e2a36", 8)
    f.circle(150, 42, 9, WHITE)
    f.circle(152, 42, 4, INK, None)
    f.path([("M", 164, 60), ("Q", 170, 64, 176, 58)], None, INK, 3)


def duck(f: F, o: SceneObject) -> None:
    c = "#f5d547"
    f.poly([(14, 84), (0, 56), (34, 70)], c)
    f.ellipse(76, 92, 64, 34, c)
    f.ellipse(70, 86, 34, 17, "#eec12e")
    f.circle(120, 45, 26, c)
    f.poly([(140, 40), (160, 50), (140, 58)], ORANGE)
    f.circle(126, 40, 4, INK, None)


def cow(f: F, o: SceneObject) -> None:
    for u in (62, 96, 190, 222):
        f.rect(u, 130, u + 22, 220, WHITE, 5)
        f.rect(u, 206, u + 22, 220, "#5b5b66", 3)
    f.line(48, 64, 22, 130, INK, 5)
    f.ellipse(20, 134, 7, 10, INK, None)
    f.rect(44, 50, 248, 150, WHITE, 30)
    for u, v, ru, rv in ((100, 82, 28, 18), (182, 112, 22, 15), (72, 126, 16, 11)):
        f.ellipse(u, v, ru, rv, INK, None)
    f.ellipse(150, 152, 20, 9, "#f5a9b8")
    f.poly([(252, 32), (242, 4), (264, 24)], "#f6ecd6")
    f.poly([(298, 24), (310, 2), (308, 34)], "#f6ecd6")
    f.rect(240, 24, 310, 112, WHITE, 18)
    f.ellipse(280, 100, 29, 17, "#f5a9b8")
    f.circle(270, 100, 4, INK, None)
    f.circle(290, 100, 4, INK, None)
    f.circle(260, 56, 5, INK, None)
    f.circle(292, 56, 5, INK, None)
    if o.detail("bell"):
        f.line(244, 112, 262, 128, DARK_WOOD, 5)
        f.poly([(250, 126), (272, 126), (278, 152), (244, 152)], "#f2c12e")


def horse(f: F, o: SceneObject) -> None:
    c, dark = "#a86b3c", "#5b3a22"
    f.thick([(40, 102), (14, 140), (20, 196)], dark, 14)
    for u in (55, 86, 164, 195):
        f.rect(u, 150, u + 20, 270, c, 6)
        f.rect(u, 254, u + 20, 270, INK, 3)
    f.ellipse(130, 125, 95, 48, c)
    f.poly([(186, 104), (222, 36), (256, 44), (232, 126)], c)
    f.ellipse(256, 56, 34, 22, c)
    f.circle(278, 70, 15, c)
    f.poly([(236, 40), (240, 14), (254, 36)], c)
    f.poly([(222, 34), (184, 104), (196, 110), (236, 40)], dark)
    f.circle(256, 48, 4, INK, None)
    if o.detail("saddle"):
        f.path([("M", 96, 80), ("Q", 130, 96, 168, 80), ("L", 168, 102), ("Q", 130, 118, 96, 102),
                ("Z",)], RED)
        f.line(132, 108, 132, 146, INK, 4)
        f.rect(124, 144, 140, 152, INK)


def pig(f: F, o: SceneObject) -> None:
    c = "#f5a9b8"
    f.path([("M", 24, 70), ("Q", 2, 62, 10, 50), ("Q", 20, 40, 8, 30)], None, INK, 5)
    for u in (50, 80, 120, 150):
        f.rect(u, 110, u + 18, 150, c, 5)
    f.ellipse(100, 80, 80, 48, c)
    f.poly([(150, 36), (160, 8), (178, 32)], c)
    f.circle(170, 66, 38, c)
    f.ellipse(204, 74, 14, 18, "#f08aa0")
    f.circle(200, 68, 3, INK, None)
    f.circle(208, 80, 3, INK, None)
    f.circle(180, 54, 4, INK, None)


def sheep(f: F, o: SceneObject) -> None:
    legs = "#3b3b46"
    for u in (56, 82, 124, 150):
        f.rect(u, 110, u + 13, 160, legs, 4)
    f.blob([(50, 82, 34), (86, 60, 38), (126, 62, 38), (154, 86, 31), (100, 96, 38)], WHITE)
    f.ellipse(166, 50, 14, 7, legs)
    f.ellipse(182, 72, 22, 30, legs)
    f.circle(188, 64, 4, WHITE, None)


def rabbit(f: F, o: SceneObject) -> None:
    c = "#e6e1da"
    f.circle(14, 160, 12, WHITE)
    for u in (62, 88):
        f.ellipse(u, 32, 11, 31, c)
        f.ellipse(u, 34, 5, 22, "#f5b8c4", None)
    f.ellipse(55, 140, 45, 47, c)
    f.ellipse(70, 183, 24, 6, c)
    f.circle(76, 86, 30, c)
    f.circle(86, 80, 4, INK, None)
    f.circle(104, 90, 4, "#f08aa0", None)
    if o.detail("carrot"):
        f.line(96, 108, 88, 94, GREEN, 4)
        f.line(100, 106, 100, 92, GREEN, 4)
        f.poly([(90, 112), (108, 106), (116, 160)], ORANGE)


def snail(f: F, o: SceneObject) -> None:
    f.line(140, 52, 132, 16, INK, 4)
    f.line(148, 52, 156, 18, INK, 4)
    f.circle(132, 14, 5, INK, None)
    f.circle(156, 16, 5, INK, None)
    f.path([("M", 6, 108), ("Q", 0, 94, 22, 94), ("L", 118, 94), ("Q", 128, 58, 142, 48),
            ("Q", 160, 54, 155, 80), ("Q", 150, 108, 128, 108), ("Z",)], "#c9b07a")
    f.circle(65, 55, 48, "#d98a4a")
    f.path([("M", 65, 55), ("Q", 82, 44, 80, 63), ("Q", 72, 82, 52, 70), ("Q", 38, 50, 58, 34),
            ("Q", 88, 24, 97, 56)], None, INK, 5)


def frog(f: F, o: SceneObject) -> None:
    c = "#6cc24a"
    oy = 40.0 if o.detail("crown") else 0.0
    f.ellipse(40, oy + 104, 17, 6, c)
    f.ellipse(100, oy + 104, 17, 6, c)
    f.ellipse(70, oy + 75, 62, 34, c)
    for u in (42, 98):
        f.circle(u, oy + 38, 20, c)
        f.circle(u, oy + 38, 12, WHITE, None)
        f.circle(u, oy + 38, 6, INK, None)
    f.path([("M", 45, oy + 80), ("Q", 70, oy + 96, 95, oy + 80)], None, INK, 4)
    if oy:
        f.poly([(56, 66), (56, 30), (63, 44), (70, 24), (77, 44), (84, 30), (84, 66)], YELLOW)


def owl(f: F, o: SceneObject) -> None:
    c = "#a0784a"
    f.poly([(22, 48), (18, 14), (44, 38)], c)
    f.poly([(98, 48), (102, 14), (76, 38)], c)
    f.ellipse(60, 96, 52, 61, c)
    f.ellipse(60, 112, 31, 38, "#e8d2a6", None)
    for u in (41, 79):
        f.circle(u, 70, 18, WHITE)
        f.circle(u, 71, 8, INK, None)
    f.poly([(54, 86), (66, 86), (60, 100)], ORANGE)
    f.line(48, 156, 48, 159, ORANGE, 8)
    f.line(72, 156, 72, 159, ORANGE, 8)


def bear(f: F, o: SceneObject) -> None:
    c, light = "#8b5a3c", "#c89a6e"
    f.ellipse(72, 230, 26, 29, c)
    f.ellipse(138, 230, 26, 29, c)
    f.ellipse(40, 150, 20, 40, c)
    f.ellipse(170, 150, 20, 40, c)
    f.ellipse(105, 165, 64, 72, c)
    f.ellipse(105, 176, 37, 44, light, None)
    f.circle(66, 26, 18, c)
    f.circle(144, 26, 18, c)
    f.circle(105, 66, 50, c)
    f.ellipse(105, 86, 24, 18, light)
    f.ellipse(105, 78, 8, 6, INK, None)
    f.circle(87, 56, 5, INK, None)
    f.circle(123, 56, 5, INK, None)


def elephant(f: F, o: SceneObject) -> None:
    c, dark = "#9aa3b5", "#828ba0"
    f.line(42, 110, 18, 160, INK, 6)
    for u in (70, 120, 200, 238):
        f.rect(u, 170, u + 40, 270, c, 8)
    f.ellipse(160, 120, 120, 80, c)
    f.path([("M", 318, 118), ("Q", 352, 180, 342, 240), ("L", 320, 240), ("Q", 322, 180, 296, 138),
            ("Z",)], c)
    f.circle(282, 100, 58, c)
    f.ellipse(250, 106, 40, 56, dark)
    f.poly([(312, 140), (344, 150), (316, 154)], WHITE)
    f.circle(300, 84, 6, INK, None)


def giraffe(f: F, o: SceneObject) -> None:
    c, patch = "#f2c65a", "#b5722e"
    f.line(42, 268, 28, 330, INK, 5)
    for u in (60, 90, 150, 180):
        f.rect(u, 296, u + 18, 440, c, 5)
    f.ellipse(125, 280, 86, 45, c)
    f.poly([(160, 262), (186, 92), (222, 92), (206, 272)], c)
    for u, v in ((90, 272), (135, 262), (170, 290), (60, 292), (192, 150), (198, 210),
                 (112, 300)):
        f.circle(u, v, 11, patch, None)
    f.line(194, 52, 190, 30, INK, 5)
    f.line(212, 50, 214, 28, INK, 5)
    f.circle(190, 26, 6, patch)
    f.circle(214, 24, 6, patch)
    f.ellipse(208, 70, 30, 22, c)
    f.circle(212, 62, 4, INK, None)


LADYBIRD_SPOTS: Final = ((50, 54), (100, 82), (58, 104), (100, 54), (42, 82), (92, 104))


def ladybird(f: F, o: SceneObject) -> None:
    for v in (52, 76, 100):
        f.line(10, v, 140, v, INK, 5)
    f.line(66, 14, 56, 0, INK, 4)
    f.line(84, 14, 94, 0, INK, 4)
    f.ellipse(75, 30, 32, 22, INK)
    f.ellipse(75, 74, 60, 44, RED)
    f.line(75, 32, 75, 118, INK, 4)
    for u, v in LADYBIRD_SPOTS[:o.detail("spots")]:
        f.circle(u, v, 9, INK, None)


def crab(f: F, o: SceneObject) -> None:
    c = "#e8553f"
    for side in (1, -1):
        for k in range(3):
            u0 = 100 + side * 40
            f.poly([(u0, 88 + 8 * k), (100 + side * 80, 96 + 8 * k), (100 + side * 88, 124)],
                   None, INK, 5, closed=False)
        f.line(100 + side * 42, 70, 100 + side * 70, 40, c, 8)
        f.circle(100 + side * 76, 28, 20, c)
        f.poly([(100 + side * 76, 28), (100 + side * 98, 14), (100 + side * 98, 30)], "#a8d8f0",
               None)
    f.line(86, 60, 80, 30, INK, 4)
    f.line(114, 60, 120, 30, INK, 4)
    f.ellipse(100, 86, 56, 34, c)
    for u in (80, 120):
        f.circle(u, 28, 9, WHITE)
        f.circle(u, 28, 4, INK, None)


def starfish(f: F, o: SceneObject) -> None:
    f.poly(_star_points(70, 74, 68, 30), "#f28c4a")
    for u, v in ((70, 40), (100, 66), (88, 100), (52, 100), (40, 66)):
        f.circle(u, v, 4, "#fbd1a6", None)


def octopus(f: F, o: SceneObject) -> None:
    c = "#a66fd1"
    for i in range(8):
        start = 52 + i * 96 / 7
        end = 8 + i * 184 / 7
        f.thick([(start, 100), ((start + end) / 2 + 12 * (-1) ** i, 160), (end, 212)], c, 14)
    f.path([("M", 38, 112), ("Q", 38, 8, 100, 8), ("Q", 162, 8, 162, 112), ("Z",)], c)
    for u in (80, 120):
        f.circle(u, 72, 14, WHITE)
        f.circle(u, 74, 6, INK, None)
    f.path([("M", 86, 96), ("Q", 100, 106, 114, 96)], None, INK, 4)


def turtle(f: F, o: SceneObject) -> None:
    c = "#8fcf6a"
    f.ellipse(55, 114, 18, 13, c)
    f.ellipse(150, 114, 18, 13, c)
    f.poly([(26, 96), (4, 106), (28, 106)], c)
    f.circle(190, 82, 24, c)
    f.circle(198, 76, 4, INK, None)
    f.rect(20, 92, 190, 108, "#c9e08a", 8)
    f.path([("M", 26, 98), ("Q", 30, 14, 108, 14), ("Q", 186, 14, 184, 98), ("Z",)], "#4f9a52")
    f.poly([(84, 42), (132, 42), (148, 72), (68, 72)], None, "#c9e08a", 5)


# --- People -----------------------------------------------------------------------------------


HAIR: Final = ("#5b3a22", "#2e2a36", "#d9a441", "#a0522d")


def person(pen: Pen, o: SceneObject, holding: str | None) -> None:
    fig = figure(o)
    child = o.kind == "child"
    woman = o.kind == "woman"
    head_v, head_r = (42.0, 27.0) if child else (38.0, 22.0)
    shoulder, hip = (76.0, 130.0) if child else (70.0, 135.0)
    foot = float(PERSON_GRID[o.kind][1]) - 6
    hair = HAIR[sum(map(ord, o.id)) % len(HAIR)]
    shirt = o.colour or "#3f7fe0"
    s = fig.scale

    def P(u: float, v: float) -> tuple[float, float]:
        return fig.at(u, v)

    def stroke(points: Sequence[tuple[float, float]], colour: str, lw: float) -> None:
        pts = [P(u, v) for u, v in points]
        pen.poly(pts, None, INK, (lw + 2 * SW / s) * s, closed=False)
        pen.poly(pts, None, colour, lw * s, closed=False)

    def fill(points: Sequence[tuple[float, float]], colour: str) -> None:
        pen.poly([P(u, v) for u, v in points], colour)

    if o.detail("umbrella"):
        _umbrella(pen, fig, shirt)
    if woman:
        x, y = P(50, 46)
        pen.ellipse(x, y, 27 * s, 32 * s, hair)
    legs = SKIN if woman or child else "#3a4a6b"
    leg_top = 150.0 if woman else hip
    stroke([(44, leg_top), (40, foot - 4)], legs, 11)
    stroke([(56, leg_top), (60, foot - 4)], legs, 11)
    if child:
        fill([(31, hip - 4), (69, hip - 4), (71, hip + 24), (52, hip + 24), (50, hip + 12),
              (48, hip + 24), (29, hip + 24)], "#3a4a6b")
    for u in (37, 63):
        x, y = P(u, foot)
        pen.ellipse(x, y, 10 * s, 6 * s, INK)
    back_hand = (20.0, 95.0) if o.detail("umbrella") else (18.0, 124.0 if not child else 118.0)
    stroke([(32, shoulder + 2), back_hand], shirt, 10)
    if woman:
        fill([(34, 66), (66, 66), (82, 152), (18, 152)], shirt)
    else:
        fill([(30, shoulder - 6), (70, shoulder - 6), (68, hip), (32, hip)], shirt)
    if holding in ("balloon", "flag", "kite"):
        hx, hy = hand(o, raised=True)
    elif holding == "dog":
        hx, hy = hand(o, raised=False)
    else:
        hx, hy = P(82, 124 if not child else 118)
    sx, sy = P(68, shoulder + 2)
    pen.poly([(sx, sy), (hx, hy)], None, INK, (10 + 2 * SW / s) * s, closed=False)
    pen.poly([(sx, sy), (hx, hy)], None, shirt, 10 * s, closed=False)
    pen.circle(hx, hy, 6 * s, SKIN)
    bx, by = P(*back_hand)
    pen.circle(bx, by, 6 * s, SKIN)
    x, y = P(50, head_v)
    pen.circle(x, y, head_r * s, SKIN)
    top = head_v - head_r
    if not o.detail("hat"):
        fill([(28, top + 20), (32, top + 4), (50, top - 1), (68, top + 4), (72, top + 20),
              (60, top + 9), (40, top + 9)], hair)
        if child:  # a cowlick: children read as children even as stick figures
            fill([(46, top + 1), (50, top - 9), (56, top + 1)], hair)
    eye_v = head_v - 2
    for u in (43, 57):
        x, y = P(u, eye_v)
        pen.circle(x, y, 2.8 * s, INK, None)
    a, b, c = P(43, head_v + 9), P(50, head_v + 15), P(57, head_v + 9)
    pen.path(f"M {_n(a[0])} {_n(a[1])} Q {_n(b[0])} {_n(b[1])} {_n(c[0])} {_n(c[1])}", None, INK,
             3 * s)
    if o.detail("beard"):
        fill([(29, head_v + 2), (36, head_v + 20), (50, head_v + 26), (64, head_v + 20),
              (71, head_v + 2), (60, head_v + 12), (40, head_v + 12)], hair)
    if o.detail("glasses"):
        for u in (43, 57):
            x, y = P(u, eye_v)
            pen.circle(x, y, 7 * s, None, INK, 3 * s)
        (x1, y1), (x2, y2) = P(46, eye_v), P(54, eye_v)
        pen.line(x1, y1, x2, y2, INK, 3 * s)
    if o.detail("hat"):
        hat = "#4a3b6b"
        x, y = P(50, top + 2)
        pen.ellipse(x, y, 30 * s, 5 * s, hat)
        fill([(37, top + 1), (37, top - 16), (63, top - 16), (63, top + 1)], hat)
        fill([(37, top - 4), (63, top - 4), (63, top + 1), (37, top + 1)], RED)


def _umbrella(pen: Pen, fig: Figure, colour: str) -> None:
    s = fig.scale
    canopy = [(-50, -10), (-50, -75), (90, -75), (90, -10)]
    pts = [fig.at(u, v) for u, v in canopy]
    ridge = [fig.at(u, -10) for u in (72, 55, 38, 20, 3, -15, -33, -50)]
    low = [fig.at(u, -20) for u in (81, 63, 46, 29, 12, -6, -24, -41)]
    d = f"M {_n(pts[0][0])} {_n(pts[0][1])} C " + " ".join(
        f"{_n(x)} {_n(y)}" for x, y in pts[1:])
    for i in range(0, 8, 1):
        (cx, cy), (x, y) = low[i], ridge[i]
        d += f" Q {_n(cx)} {_n(cy)} {_n(x)} {_n(y)}"
    (x1, y1), (x2, y2) = fig.at(20, -10), fig.at(20, 95)
    pen.line(x1, y1, x2, y2, INK, 5 * s)
    (x3, y3), (x4, y4) = fig.at(20, 108), fig.at(10, 110)
    hook = f"M {_n(x2)} {_n(y2)} L {_n(x3)} {_n(y3)} Q {_n(x3)} {_n(y3 + 8 * s)}"
    pen.path(f"{hook} {_n(x4)} {_n(y4)}", None, INK, 4 * s)
    tip0, tip1 = fig.at(20, -56), fig.at(20, -67)
    pen.line(tip0[0], tip0[1], tip1[0], tip1[1], INK, 5 * s)
    pen.path(d + " Z", "#3f7fe0" if colour != "#3f7fe0" else RED)


# --- Indoors and small things -----------------------------------------------------------------


def table(f: F, o: SceneObject) -> None:
    f.rect(30, 24, 52, 200, DARK_WOOD)
    f.rect(328, 24, 350, 200, DARK_WOOD)
    f.rect(20, 22, 360, 40, DARK_WOOD)
    f.rect(0, 0, 380, 24, "#b9804a", 4)


def chair(f: F, o: SceneObject) -> None:
    c = o.colour or WOOD
    f.rect(24, 138, 38, 240, DARK_WOOD)
    f.rect(122, 138, 136, 240, DARK_WOOD)
    f.rect(20, 0, 40, 130, c, 4)
    f.rect(20, 118, 142, 140, c, 4)


def lamp(f: F, o: SceneObject) -> None:
    lit = o.detail("lit")
    if lit:
        f.poly([(28, 85), (122, 85), (146, 182), (4, 182)], "#fff6c2", None)
        for a, b in (((16, 56), (0, 56)), ((134, 56), (150, 56)), ((24, 28), (6, 12)),
                     ((126, 28), (144, 12))):
            f.line(*a, *b, "#f2b705", 7)
    f.rect(70, 84, 80, 182, "#7d8190")
    f.ellipse(75, 188, 40, 10, "#7d8190")
    f.poly([(42, 20), (108, 20), (128, 86), (22, 86)], YELLOW if lit else (o.colour or "#e86a9a"))


VASE_HEADS: Final = {1: ((70, 40),), 2: ((46, 44), (94, 30)), 3: ((30, 44), (70, 28), (110, 44)),
                     4: ((24, 46), (56, 28), (88, 46), (118, 28))}


def vase(f: F, o: SceneObject) -> None:
    heads = VASE_HEADS[max(1, min(4, o.detail("flowers")))]
    colours = ("#e84a7f", "#f28c28", "#b06ee8", "#e84a4a")
    for (u, v), colour in zip(heads, colours, strict=False):
        f.line(70, 150, u, v, "#3f9a5a", 6)
        _flower_head(f, u, v, colour)
    f.path([("M", 42, 142), ("Q", 4, 182, 28, 252), ("L", 112, 252), ("Q", 136, 182, 98, 142),
            ("Z",)], o.colour or "#4fb0e8")
    f.rect(40, 134, 100, 148, o.colour or "#4fb0e8", 4)


def cake(f: F, o: SceneObject) -> None:
    f.ellipse(85, 150, 82, 9, WHITE)
    n = max(1, o.detail("candles"))
    for i in range(n):
        u = 24 + 122 * (i + 0.5) / n
        f.rect(u - 5, 42, u + 5, 82, "#4fb0e8")
        f.path([("M", u, 12), ("Q", u + 10, 30, u, 38), ("Q", u - 10, 30, u, 12), ("Z",)], ORANGE)
    f.rect(18, 80, 152, 148, "#f7b6c8", 8)
    f.path([("M", 18, 80), ("L", 152, 80), ("L", 152, 96), ("Q", 137, 110, 122, 96),
            ("Q", 107, 110, 92, 96), ("Q", 77, 110, 62, 96), ("Q", 47, 110, 33, 96),
            ("Q", 25, 104, 18, 96), ("Z",)], WHITE)


def gift(f: F, o: SceneObject) -> None:
    c = o.colour or RED
    f.ellipse(55, 22, 20, 13, YELLOW)
    f.ellipse(95, 22, 20, 13, YELLOW)
    f.rect(10, 52, 140, 150, c)
    f.rect(0, 36, 150, 60, c)
    f.rect(64, 36, 86, 150, YELLOW)
    f.circle(75, 30, 9, YELLOW)


def window(f: F, o: SceneObject) -> None:
    f.rect(10, 10, 250, 268, WHITE)
    f.rect(26, 26, 234, 254, "#cfeaff")
    f.rect(124, 26, 136, 254, WHITE)
    f.rect(26, 134, 234, 146, WHITE)
    f.rect(0, 260, 260, 280, WOOD)
    if o.detail("curtains"):
        colour = "#e86a9a"
        f.poly([(0, 0), (76, 0), (52, 130), (76, 260), (0, 260)], colour)
        f.poly([(260, 0), (184, 0), (208, 130), (184, 260), (260, 260)], colour)
        f.line(0, 4, 260, 4, DARK_WOOD, 8)


def basket(f: F, o: SceneObject) -> None:
    f.path([("M", 30, 66), ("C", 30, -20, 160, -20, 160, 66)], None, INK, 16)
    f.path([("M", 30, 66), ("C", 30, -20, 160, -20, 160, 66)], None, "#b07a45", 8)
    f.poly([(4, 62), (186, 62), (166, 150), (24, 150)], "#d9a35a")
    for v in (90, 118):
        f.line(14, v, 176, v, "#a0703f", 4)
    for u in (52, 95, 138):
        f.line(u, 64, u - 2 if u < 95 else u + 2 if u > 95 else u, 148, "#a0703f", 4)


def box(f: F, o: SceneObject) -> None:
    c = "#ecc995"  # lighter than the wooden floor it usually stands on
    f.poly([(10, 45), (0, 12), (34, 45)], "#d9ad70")
    f.poly([(190, 45), (200, 12), (166, 45)], "#d9ad70")
    f.rect(10, 45, 190, 150, c)
    f.line(10, 70, 190, 70, "#b47a42", 4)


def fishbowl(f: F, o: SceneObject) -> None:
    f.rect(58, 178, 142, 190, "#7d8190", 3)
    f.circle(100, 104, 84, "#eaf7fd")
    water = [(100 + 84 * math.cos(a), 104 + 84 * math.sin(a))
             for a in (math.radians(d) for d in range(-35, 216, 10))]
    f.poly(water, "#9fd8f5", None)
    f.circle(100, 104, 84, None)
    f.ellipse(100, 26, 48, 9, "#eaf7fd")


def ball(f: F, o: SceneObject) -> None:
    f.circle(50, 50, 48, o.colour or RED)
    f.path([("M", 50, 2), ("Q", 18, 50, 50, 98), ("Q", 82, 50, 50, 2), ("Z",)], WHITE)
    f.line(2, 50, 98, 50, INK, 4)


def flag(f: F, o: SceneObject) -> None:
    f.line(9, 4, 9, 198, DARK_WOOD, 7)
    f.rect(12, 6, 108, 72, o.colour or RED)
    f.rect(12, 31, 108, 47, WHITE, 0, None)
    f.circle(9, 5, 5, YELLOW)


NEST_EGGS: Final = {1: (80,), 2: (60, 100), 3: (46, 80, 114), 4: (36, 66, 96, 126)}


def nest(f: F, o: SceneObject) -> None:
    for u in NEST_EGGS[max(1, min(4, o.detail("eggs")))]:
        f.ellipse(u, 36, 15, 20, "#e9f4ff")
    f.path([("M", 4, 40), ("Q", 80, 52, 156, 40), ("Q", 150, 88, 80, 88), ("Q", 10, 88, 4, 40),
            ("Z",)], "#9a6a3f")
    f.path([("M", 20, 56), ("Q", 80, 66, 140, 56)], None, "#6b4526", 4)
    f.path([("M", 32, 72), ("Q", 80, 80, 128, 72)], None, "#6b4526", 4)


DRAWERS: Final[dict[str, Callable[[F, SceneObject], None]]] = {
    "sun": sun, "cloud": cloud, "moon": moon, "star": star, "bird": bird, "plane": plane,
    "balloon": balloon, "kite": kite, "butterfly": butterfly, "rainbow": rainbow,
    "rocket": rocket, "planet": planet, "tree": tree, "fir": fir, "flower": flower,
    "mountain": mountain, "rock": rock, "bush": bush, "mushroom": mushroom, "palm": palm,
    "house": house, "castle": castle, "tent": tent, "fence": fence, "bench": bench,
    "lighthouse": lighthouse, "campfire": campfire, "snowman": snowman, "parasol": parasol,
    "car": car, "bus": bus, "train": train, "bicycle": bicycle, "boat": boat, "cat": cat,
    "dog": dog, "fish": fish, "duck": duck, "cow": cow, "horse": horse, "pig": pig,
    "sheep": sheep, "rabbit": rabbit, "snail": snail, "frog": frog, "owl": owl, "bear": bear,
    "elephant": elephant, "giraffe": giraffe, "ladybird": ladybird, "crab": crab,
    "starfish": starfish, "octopus": octopus, "turtle": turtle, "table": table,
    "chair": chair, "lamp": lamp, "vase": vase, "cake": cake, "gift": gift, "window": window,
    "basket": basket, "box": box, "fishbowl": fishbowl, "ball": ball, "flag": flag,
    "nest": nest,
}
PEOPLE: Final = ("man", "woman", "child")


# --- Backdrops --------------------------------------------------------------------------------


def backdrop(pen: Pen, back: Backdrop) -> None:
    kind, horizon = back.kind, back.horizon
    w, h = SHEET_WIDTH, SHEET_HEIGHT
    if kind == "indoor":
        pen.rect(0, 0, w, horizon, "#f8e7c9", stroke=None)
        for x in range(100, w, 200):
            pen.rect(x, 0, 60, horizon, "#f3dcb6", stroke=None)
        pen.rect(0, horizon, w, h - horizon, "#c99a6b", stroke=None)
        for y in (horizon + 80, horizon + 200, horizon + 330):
            pen.line(0, y, w, y, "#b3835a", 4)
        pen.rect(0, horizon - 18, w, 22, "#a0703f", stroke=None)
        return
    if kind == "underwater":
        pen.rect(0, 0, w, horizon, "#bfe3ff", stroke=None)
        pen.rect(0, horizon, w, h - horizon, "#3d9bd6", stroke=None)
        pen.rect(0, horizon, w, 140, "#56acde", stroke=None)
        pen.line(0, horizon, w, horizon, "#2a7fb8", 5)
        pen.path(f"M 0 870 Q 400 840 800 870 Q 1200 900 {w} 860 L {w} {h} L 0 {h} Z", "#f0d58c",
                 None)
        return
    if kind == "space":
        pen.rect(0, 0, w, h, "#161a3d", stroke=None)
        pen.path(f"M 0 {horizon} Q 800 {horizon - 60} {w} {horizon} L {w} {h} L 0 {h} Z",
                 "#b9b7c9", None)
        for x, y, r in ((180, 930, 26), (620, 960, 18), (1050, 915, 30), (1420, 965, 20)):
            pen.ellipse(x, y, r * 1.8, r * 0.6, "#a3a1b6", None)
        return
    sky = {"night": "#243165", "snow": "#cfe0f2"}.get(kind, "#bfe3ff")
    ground = {"night": "#2f5b3c", "snow": "#e4edf8", "beach": "#f2d893"}.get(kind, "#9bd46a")
    pen.rect(0, 0, w, horizon + 2, sky, stroke=None)
    pen.rect(0, horizon, w, h - horizon, ground, stroke=None)
    hill = {"night": "#386b47", "snow": "#d7e3f1", "beach": "#ead08a"}.get(kind, "#8bc95c")
    pen.path(f"M 0 {horizon + 40} Q 400 {horizon - 40} 800 {horizon + 30} Q 1200 {horizon + 90} "
             f"{w} {horizon + 10} L {w} {horizon + 120} L 0 {horizon + 120} Z", hill, None)
    if kind == "street":
        pen.rect(0, 800, w, 30, "#d5d5dc", stroke=None)
        pen.rect(0, 830, w, 170, "#8d9099", stroke=None)
        for x in range(40, w, 200):
            pen.rect(x, 908, 110, 12, WHITE, stroke=None)
    if kind == "lake" and back.water is not None:
        p = back.water
        pen.path(f"M {_n(p.x)} {_n(p.cy)} C {_n(p.x)} {_n(p.y - 20)} {_n(p.x2)} {_n(p.y - 20)} "
                 f"{_n(p.x2)} {_n(p.cy)} C {_n(p.x2)} {_n(p.y2 + 20)} {_n(p.x)} {_n(p.y2 + 20)} "
                 f"{_n(p.x)} {_n(p.cy)} Z", "#5ab4e8", "#3f8fc4", 6)
    if kind == "beach" and back.water is not None:
        sea = back.water
        edge = sea.x2 if back.mirrored else sea.x
        out = 0 if back.mirrored else w
        pen.path(f"M {_n(edge)} {_n(horizon)} Q {_n(edge - 60 if back.mirrored else edge + 60)} "
                 f"700 {_n(edge)} {h} L {out} {h} L {out} {_n(horizon)} Z", "#4aa8e0", "#3a8cc4",
                 5)


# --- The whole picture ------------------------------------------------------------------------


def render_svg(scene: Scene) -> str:
    """The scene as an SVG picture card, 1600 x 1000, for phones and for nanosvg alike."""
    pen = Pen()
    backdrop(pen, scene.backdrop)
    held = {o.held_by: o.kind for o in scene.objects if o.held_by}
    body = ["".join(pen.parts)]
    for obj in scene.objects:
        pen.parts = []
        if obj.kind in PEOPLE:
            person(pen, obj, held.get(obj.id))
        else:
            DRAWERS[obj.kind](_frame(pen, obj), obj)
        body.append(f'<g data-object="{obj.id}" stroke-linejoin="round" stroke-linecap="round">'
                    + "".join(pen.parts) + "</g>")
    for obj in scene.objects:
        if obj.held_by and obj.kind in ("kite", "dog"):
            holder = scene.object(obj.held_by)
            pen.parts = []
            hx, hy = hand(holder, raised=obj.kind == "kite")
            if obj.kind == "kite":
                tx, ty = obj.box.cx, obj.box.y + 0.45 * obj.box.h
            else:
                tx, ty = dog_collar(obj)
            pen.line(hx, hy, tx, ty, INK, 3 if obj.kind == "kite" else 5)
            body.append(f'<g data-link="{obj.id}">' + "".join(pen.parts) + "</g>")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SHEET_WIDTH}" '
            f'height="{SHEET_HEIGHT}" viewBox="0 0 {SHEET_WIDTH} {SHEET_HEIGHT}">'
            + "".join(body) + "</svg>")
