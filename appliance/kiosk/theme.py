"""The kiosk's theme, at the bottom of the kiosk's layers: the palette, colour helpers,
readers of the public view's common fields (language, deadline, scores) and the type sizes
and spacing for a frame size (`Metrics`), plus the `Frame` a screen draws on.

Everything above imports from here (painter, kit, the lobby, the host menu, the games'
screens, render); this module imports none of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import pygame

from appliance.kiosk.fonts import Colour
from appliance.kiosk.text import DEFAULT_LANG, LANGUAGES
from appliance.system import drawing

# High contrast on a dark ground: readable across a café table and kind to a TV at night.
BG: Final[Colour] = (16, 18, 26)
PANEL: Final[Colour] = (31, 35, 48)
PANEL_EDGE: Final[Colour] = (62, 69, 92)
TEXT: Final[Colour] = (246, 246, 242)
MUTED: Final[Colour] = (160, 168, 190)
ACCENT: Final[Colour] = (255, 199, 44)
ON_ACCENT: Final[Colour] = (22, 20, 16)
ONLINE: Final[Colour] = (64, 220, 120)
WARN: Final[Colour] = (240, 84, 72)
WHITE: Final[Colour] = (255, 255, 255)
BLACK: Final[Colour] = (0, 0, 0)

Size = tuple[int, int]
View = Mapping[str, Any]


# --- small pure helpers -----------------------------------------------------------------


def parse_colour(value: object, default: Colour = MUTED) -> Colour:
    """'#rrggbb' (or 'rrggbb', '#rgb') as an RGB tuple; anything else gives `default`."""
    return drawing.parse_colour(value, default)


def _luminance(c: Colour) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def ink_on(fill: Colour) -> Colour:
    """Black or white, whichever has the higher WCAG contrast on `fill`."""
    lum = _luminance(fill)
    return BLACK if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else WHITE


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """`a` moved a fraction `t` of the way towards `b`."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _int(value: object, default: int = 0) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return int(value)
    return default


def _num(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _dicts(value: object) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, Mapping)]


def view_lang(view: View) -> str:
    lang = view.get("lang")
    return lang if isinstance(lang, str) and lang in LANGUAGES else DEFAULT_LANG


def deadline_remaining(view: View, now: float) -> tuple[float, float] | None:
    """(seconds left, hourglass length) of match.deadline at `now`, or None.

    `now` must come from the clock that made deadline["at"] (the session's clock). If it
    plainly does not (the result is outside the hourglass), the view's own "remaining"
    is used instead, so a clock mix-up shows a frozen timer rather than nonsense.
    """
    match = view.get("match")
    if not isinstance(match, Mapping):
        return None
    deadline = match.get("deadline")
    if not isinstance(deadline, Mapping):
        return None
    reported = _num(deadline.get("remaining"))
    length = _num(deadline.get("length"))
    at = _num(deadline.get("at"))
    remaining = reported
    if at is not None:
        computed = at - now
        if length is None or -1.0 <= computed <= length + 1.0 or reported is None:
            remaining = computed
    if remaining is None:
        return None
    remaining = max(0.0, remaining)
    if length is None or length <= 0:
        length = max(remaining, 1.0)
    return remaining, length


def scores_of(match: Mapping[str, Any]) -> dict[int, float]:
    """Scores per seat from match.outcome.scores or match.state.scores, in any of the
    shapes a game may use: [[seat, score], ...], {"seat": score}, or [score per seat]."""
    for holder in (match.get("outcome"), match.get("state")):
        if not isinstance(holder, Mapping) or "scores" not in holder:
            continue
        raw = holder["scores"]
        out: dict[int, float] = {}
        if isinstance(raw, Mapping):
            for k, v in raw.items():
                n = _num(v)
                try:
                    seat = int(k)
                except (TypeError, ValueError):
                    continue
                if n is not None:
                    out[seat] = n
        elif isinstance(raw, list | tuple):
            for i, item in enumerate(raw):
                if isinstance(item, list | tuple) and len(item) == 2:
                    n = _num(item[1])
                    if n is not None and _num(item[0]) is not None:
                        out[int(item[0])] = n
                else:
                    n = _num(item)
                    if n is not None:
                        out[i] = n
        return out
    return {}


def _fmt_score(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def format_seconds(seconds: float) -> str:
    """'0:41' for a timer, rounding up so 0:00 means time is up."""
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


# --- layout metrics ---------------------------------------------------------------------

# The floors of every kiosk screen (issue 19): 16 px text and 48 px touch targets, read
# on the 7-inch 800x480 panel at arm's length.
MIN_TEXT: Final = 16
MIN_TARGET: Final = 48


@dataclass(frozen=True)
class Metrics:
    """Spacing and type sizes for one frame size: they scale from a 1080p design, but never
    below what a person reads across a table or hits with a finger. On the 7-inch 800x480
    panel a straight scale gave 11 px secondary text; the floors keep every text at least
    `f_min` and every touch target at least `target` pixels, and screens fit their texts
    to that (wrapped, shrunk to no less than `f_min`, or cut with an ellipsis)."""

    w: int
    h: int
    portrait: bool
    scale: float
    margin: int
    gap: int
    pad: int
    radius: int
    f_code: int
    f_title: int
    f_head: int
    f_body: int
    f_small: int
    f_min: int = 16  # no text smaller than this, at any size
    target: int = 48  # no touch target narrower or shorter than this

    @classmethod
    def for_size(cls, size: Size) -> Metrics:
        w, h = max(1, size[0]), max(1, size[1])
        portrait = h > w
        s = min(w / 1080, h / 1920) if portrait else min(w / 1920, h / 1080)
        if portrait:
            # Type sized from the short side would be tiny on a tall screen.
            s *= 1.15

        def px(v: float, floor: int = 1) -> int:
            return max(floor, round(v * s))

        return cls(
            w=w,
            h=h,
            portrait=portrait,
            scale=s,
            margin=px(32, 6),
            gap=px(20, 4),
            pad=px(24, 5),
            radius=px(18, 4),
            # Portrait screens are short of height for the QR codes: a smaller room code.
            f_code=px(88 if portrait else 132, 28),
            f_title=px(64, MIN_TEXT + 10),
            f_head=px(44, MIN_TEXT + 5),
            f_body=px(36, MIN_TEXT + 2),
            f_small=px(27, MIN_TEXT),
            f_min=MIN_TEXT,
            target=MIN_TARGET,
        )


@dataclass
class Frame:
    """What a game screen draws on: the surface, the view and the time left, if any."""

    surface: pygame.Surface
    view: View
    lang: str
    now: float
    remaining: float | None
    length: float | None
    metrics: Metrics
