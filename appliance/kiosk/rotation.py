"""Mounting the screen rotated: pure maps between the logical frame and the physical display.

SDL's kmsdrm driver cannot rotate the output, so the kiosk lays out a *logical* frame in
the orientation the players see, and blits it rotated onto the *physical* display.
`rotation` is the clockwise angle (0, 90, 180, 270) by which the logical frame is turned
to appear upright on the mounted screen. Touches arrive in physical coordinates and are
mapped back before hit testing.

Coordinates are pixel indices: (0, 0) is the top-left pixel, (w - 1, h - 1) the bottom-right
one, so a point maps exactly onto the pixel `pygame.transform.rotate(frame, -rotation)`
moved it to, and the round trip is exact.
"""

from __future__ import annotations

from typing import Any, Final

import pygame

ROTATIONS: Final = (0, 90, 180, 270)

Size = tuple[int, int]
Point = tuple[float, float]


def check_rotation(rotation: int) -> int:
    """`rotation` if it is one of 0, 90, 180, 270, else ValueError naming what is allowed."""
    if rotation not in ROTATIONS:
        raise ValueError(f"display rotation must be one of 0, 90, 180, 270; got {rotation!r}")
    return rotation


def physical_size(logical: Size, rotation: int) -> Size:
    """The display size that shows a `logical` frame turned by `rotation`."""
    w, h = logical
    return (h, w) if check_rotation(rotation) in (90, 270) else (w, h)


def logical_size(physical: Size, rotation: int) -> Size:
    """The frame size to lay out for a display of `physical` size turned by `rotation`."""
    # Swapping is its own inverse.
    return physical_size(physical, rotation)


def logical_to_physical(pos: Point, logical: Size, rotation: int) -> Point:
    """Where the logical point `pos` lands on the physical display."""
    x, y = pos
    w, h = logical
    r = check_rotation(rotation)
    if r == 0:
        return (x, y)
    if r == 90:
        return (h - 1 - y, x)
    if r == 180:
        return (w - 1 - x, h - 1 - y)
    return (y, w - 1 - x)


def physical_to_logical(pos: Point, logical: Size, rotation: int) -> Point:
    """The logical point under the physical point `pos` (a touch, a click)."""
    px, py = pos
    w, h = logical
    r = check_rotation(rotation)
    if r == 0:
        return (px, py)
    if r == 90:
        return (py, h - 1 - px)
    if r == 180:
        return (w - 1 - px, h - 1 - py)
    return (w - 1 - py, px)


def rotate_frame(frame: pygame.Surface, rotation: int) -> pygame.Surface:
    """The logical frame turned clockwise by `rotation` (pygame turns counter-clockwise)."""
    if check_rotation(rotation) == 0:
        return frame
    return pygame.transform.rotate(frame, -rotation)


def physical_rect(rect: pygame.Rect, logical: Size, rotation: int) -> pygame.Rect:
    """The part of the physical display that shows the logical `rect` (same pixels,
    turned): what a partial update of a rotated mount uploads. The corners' maps of
    `logical_to_physical`, written out (this runs for every ink present)."""
    w, h = logical
    r = check_rotation(rotation)
    if r == 0:
        return pygame.Rect(rect)
    if r == 90:
        return pygame.Rect(h - rect.bottom, rect.left, rect.h, rect.w)
    if r == 180:
        return pygame.Rect(w - rect.right, h - rect.bottom, rect.w, rect.h)
    return pygame.Rect(rect.top, w - rect.right, rect.h, rect.w)


def rotate_region(
    frame: pygame.Surface, screen: pygame.Surface, rect: pygame.Rect, rotation: int
) -> pygame.Rect:
    """Copy the logical `rect` of `frame` onto the physical `screen`, turned by `rotation`;
    returns the physical rect it covers. Only that part is turned, so the cost follows
    what changed, not the frame's size.

    The pixels go straight from one surface to the other through strided views (a
    transposed, reversed PixelArray): no turned copy is allocated and no blit is set up,
    which would cost more than turning a finger's segment itself.
    """
    area = rect.clip(frame.get_rect())
    target = physical_rect(area, frame.get_size(), rotation)
    if area.w <= 0 or area.h <= 0:
        return target
    if frame.get_bytesize() != screen.get_bytesize():
        # PixelArrays copy raw pixels; a blit converts between formats.
        screen.blit(rotate_frame(frame.subsurface(area), rotation), target.topleft)
        return target
    source, dest = pygame.PixelArray(frame), pygame.PixelArray(screen)
    # pygame-ce's stubs know PixelArray's integer indexing only, not its sliced views.
    src_view: Any = source
    dest_view: Any = dest
    try:
        part = src_view[area.left : area.right, area.top : area.bottom]
        r = check_rotation(rotation)
        # PixelArrays index [x, y]; see logical_to_physical for the maps.
        if r == 90:
            part = part.transpose()[::-1, :]
        elif r == 180:
            part = part[::-1, ::-1]
        elif r == 270:
            part = part.transpose()[:, ::-1]
        dest_view[target.left : target.right, target.top : target.bottom] = part
    finally:
        # The surfaces stay locked while a PixelArray is open; SDL cannot present them.
        source.close()
        dest.close()
    return target
