"""Drawings to pixels: stroke dicts painted with pygame, as surfaces, PNG files, and SVG
scenes rasterised.

A drawing arrives as data (docs/protocol.md): `[{points: [[x, y, t], ...], colour, width},
...]` in the sheet space, SHEET_WIDTH x SHEET_HEIGHT units (16:10, y down), shared by every
game. `draw_strokes` paints such a list into a rectangle of a surface at any size,
`render_sheet` onto a sheet of its own, `png_of` into a PNG file's bytes, and `svg_png`
turns an SVG the box made (a Duplik scene) into a PNG.

This is the one place strokes become pixels, below both the kiosk (appliance/kiosk/
strokes.py caches its sheets) and the gallery (appliance/door/gallery.py serves its PNGs). It
reads plain data only and imports nothing of the box but pygame (the sheet size is
repeated from games.sheet, which a test keeps in step).
"""

from __future__ import annotations

import io
import itertools
import logging
import math
import os
import struct
import zlib
from collections.abc import Hashable, Mapping
from typing import Final

# pygame prints a banner on import unless told not to; the box logs through logging (the
# gallery imports this before the kiosk is opened).
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

log = logging.getLogger("easel.drawing")

Colour = tuple[int, int, int]

SHEET_WIDTH: Final = 1600
SHEET_HEIGHT: Final = 1000

PAPER: Final[Colour] = (255, 253, 247)
INK: Final[Colour] = (32, 32, 32)
SUPERSAMPLE: Final = 2
"""Sheets are painted at twice their size and scaled down: pygame draws thick lines
without antialiasing, and a drawing is painted once, so the smoothing is nearly free."""

_MAX_POINTS: Final = 4000  # as games.strokes.MAX_POINTS: a hostile view cannot stall a frame


def parse_colour(value: object, default: Colour) -> Colour:
    """'#rrggbb' (or 'rrggbb', '#rgb') as an RGB tuple; anything else gives `default`."""
    if not isinstance(value, str):
        return default
    s = value.strip().lstrip("#")
    if len(s) == 3:
        s = "".join(c * 2 for c in s)
    if len(s) != 6:
        return default
    try:
        return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
    except ValueError:
        return default


def sheet_rect(box: pygame.Rect) -> pygame.Rect:
    """The largest 16:10 rectangle centred in `box` (the sheet letterboxed into it)."""
    if box.w * SHEET_HEIGHT <= box.h * SHEET_WIDTH:
        w = box.w
        h = max(1, round(w * SHEET_HEIGHT / SHEET_WIDTH))
    else:
        h = box.h
        w = max(1, round(h * SHEET_WIDTH / SHEET_HEIGHT))
    rect = pygame.Rect(0, 0, max(1, w), max(1, h))
    rect.center = box.center
    return rect


def _points(raw: object) -> list[tuple[float, float]]:
    if not isinstance(raw, list | tuple):
        return []
    out: list[tuple[float, float]] = []
    for item in raw[:_MAX_POINTS]:
        if isinstance(item, list | tuple) and len(item) >= 2:
            x, y = item[0], item[1]
            if (
                isinstance(x, int | float)
                and isinstance(y, int | float)
                and not isinstance(x, bool)
                and not isinstance(y, bool)
                and math.isfinite(x)
                and math.isfinite(y)
            ):
                out.append((float(x), float(y)))
    return out


def draw_strokes(surface: pygame.Surface, strokes: object, rect: pygame.Rect | None = None) -> int:
    """Paint `strokes` (a list of stroke dicts) scaled from the sheet into `rect` (the whole
    surface by default); returns the number of strokes painted. Anything malformed in the
    list is skipped: a drawing from a stranger's phone must never fail a frame."""
    area = surface.get_rect() if rect is None else pygame.Rect(rect)
    if not isinstance(strokes, list | tuple) or area.w <= 0 or area.h <= 0:
        return 0
    sx = area.w / SHEET_WIDTH
    sy = area.h / SHEET_HEIGHT
    scale = (sx + sy) / 2
    painted = 0
    for stroke in strokes:
        if not isinstance(stroke, Mapping):
            continue
        pts = _points(stroke.get("points"))
        if not pts:
            continue
        colour = parse_colour(stroke.get("colour"), INK)
        raw_width = stroke.get("width", 8)
        width_units = (
            float(raw_width)
            if isinstance(raw_width, int | float) and not isinstance(raw_width, bool)
            else 8.0
        )
        width_units = min(max(width_units, 1.0), 120.0)
        px = max(1.0, width_units * scale)
        xy = [(area.left + x * sx, area.top + y * sy) for x, y in pts]
        radius = px / 2
        if len(xy) == 1:
            pygame.draw.circle(surface, colour, xy[0], max(1.0, radius))
        elif px < 2.5:
            pygame.draw.lines(surface, colour, False, xy, max(1, round(px)))
        else:
            # Round caps and joins, as on the phone's canvas: a segment per pair and a
            # disc on every point (pygame's own joins leave notches on thick lines).
            w = max(1, round(px))
            for a, b in itertools.pairwise(xy):
                pygame.draw.line(surface, colour, a, b, w)
            for p in xy:
                pygame.draw.circle(surface, colour, p, radius)
        painted += 1
    return painted


def stroke_signature(strokes: object) -> Hashable:
    """A key for a drawing's content, cheap enough to compute on every changed view.

    Per stroke: colour, width, the number of points and three of them (first, middle,
    last; each carries its time in ms). Hashing every point would make a redraw cost
    grow with the drawing; two different canvases with equal signatures would need the
    same number of strokes, each with the same point count and the same three timed
    points, which a hand on a touch screen does not produce.
    """
    if not isinstance(strokes, list | tuple):
        return ()
    sig: list[Hashable] = []
    for stroke in strokes:
        try:
            pts = stroke["points"]
            n = len(pts)
            sig.append(
                (
                    stroke.get("colour"),
                    stroke.get("width"),
                    n,
                    tuple(pts[0]),
                    tuple(pts[n // 2]),
                    tuple(pts[-1]),
                )
            )
        except (TypeError, KeyError, IndexError, AttributeError):
            sig.append(("malformed", repr(stroke)[:200]))
    key = tuple(sig)
    try:
        hash(key)
    except TypeError:  # a colour or coordinate that is a list or dict: still a key
        return repr(key)
    return key


def render_sheet(strokes: object, size: tuple[int, int], paper: Colour = PAPER) -> pygame.Surface:
    """A new opaque surface of `size` with the drawing painted on `paper`, smoothed (band
    by band: the kiosk paints on its worker thread, and the loop waits for the GIL)."""
    out = _banded_sheet(strokes, size, paper)
    if pygame.display.get_surface() is not None:
        out = out.convert()
    return out


SHEET_BAND: Final = 96
"""Rows of a picture smoothed per call: one call on the whole supersampled sheet holds
the GIL ~15 ms (the loop waits behind the worker painting it); a band, ~2 ms."""


def _banded_sheet(
    strokes: object, size: tuple[int, int], paper: Colour = PAPER
) -> pygame.Surface:
    """The drawing on `paper`, smoothed down band by band (the same pixels as in one
    call: a whole-number shrink averages each block on its own)."""
    w, h = max(1, int(size[0])), max(1, int(size[1]))
    big = pygame.Surface((w * SUPERSAMPLE, h * SUPERSAMPLE))
    big.fill(paper)
    draw_strokes(big, strokes)
    out = pygame.Surface((w, h))
    for top in range(0, h, SHEET_BAND):
        rows = min(SHEET_BAND, h - top)
        band = big.subsurface((0, top * SUPERSAMPLE, w * SUPERSAMPLE, rows * SUPERSAMPLE))
        out.blit(pygame.transform.smoothscale(band, (w, rows)), (0, top))
    return out


PNG_BAND: Final = 64
"""Rows of pixels `png_bytes` reads at a time."""


def png_bytes(surface: pygame.Surface) -> bytes:
    """`surface` as an RGB PNG, compressed by zlib, which lets go of the GIL meanwhile:
    pygame's own PNG writer holds it for 50-100 ms a picture, and the loop serving every
    phone waits that long behind the worker painting it (the phones' pings during
    gallery downloads)."""
    width, height = surface.get_size()
    stride = width * 3
    packer = zlib.compressobj(6)
    compressed = []
    # Band by band: reading a whole 1080p frame's pixels holds the GIL for 5-20 ms;
    # a band's, well under one (a worker thread's PNG of the kiosk's frame).
    for top in range(0, height, PNG_BAND):
        rows = min(PNG_BAND, height - top)
        band = surface.subsurface((0, top, width, rows))
        raw = memoryview(pygame.image.tobytes(band, "RGB"))
        # Each row starts with its filter type: 0, none (zlib does the squeezing).
        compressed.append(packer.compress(
            b"".join(b"\x00" + raw[y * stride:(y + 1) * stride] for y in range(rows))
        ))
    compressed.append(packer.flush())

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(
            ">I", zlib.crc32(data, zlib.crc32(tag))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
        + chunk(b"IDAT", b"".join(compressed)) + chunk(b"IEND", b"")
    )


def png_of(strokes: object, size: tuple[int, int]) -> bytes:
    """The drawing on a sheet of `size` pixels, as a PNG file."""
    return png_bytes(_banded_sheet(strokes, size))


def svg_png(svg: str, width: int) -> bytes | None:
    """An SVG the box made, rasterised `width` pixels wide (SDL_image's nanosvg), as a
    PNG file; None where it cannot be (an SDL_image without SVG, a degenerate image)."""
    try:
        surf = pygame.image.load(io.BytesIO(svg.encode()), "scene.svg")
        w, h = surf.get_size()
        surf = pygame.transform.smoothscale(surf, (width, max(1, round(h * width / w))))
        return png_bytes(surf)
    except (pygame.error, ValueError, ZeroDivisionError) as err:
        log.info("SVG not rasterised: %s", err)
        return None
