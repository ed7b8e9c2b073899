"""Putting the kiosk's frame on the screen: the window's own surface, or SDL's renderer.

The kiosk draws a *logical* frame, upright for the players (appliance/kiosk/rotation.py);
a presenter shows it, or the part of it that changed, on the *physical* display:

- `SurfacePresenter`: pygame.display's window surface. Upright, the frame is the screen
  itself; on a rotated mount the changed part is turned on the CPU (`rotate_region`), which
  for a full redraw costs about as much again as drawing it (2-3x a 1080p frame's upload).
- `RendererPresenter`: SDL's renderer (pygame._sdl2.video). The frame is uploaded to a
  streaming texture of the logical size (live ink: only its dirty rectangle) and the
  renderer draws the texture turned: on a Pi that is the GPU (kmsdrm's OpenGL ES
  renderer on V3D, the same path SDL takes for the window surface there), so a turned
  frame costs the CPU what an upright one does.

`choose_present` decides between them (config `display.present`): "auto" takes the
renderer on a rotated kmsdrm screen only. On a desktop without a GPU SDL's renderers are
Mesa's software rasteriser or SDL's own software renderer, both slower than the CPU turn
(tests/bench/bench_display.py measures both), and a desktop can turn its output itself.
When the renderer cannot be made the surface path is taken and the log says why.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import pygame
from pygame._sdl2 import video

from appliance.kiosk.display import (
    DEVICE_TREE_MODEL,
    KMSDRM_INDEX_VARIABLE,
    SYSFS_DRM,
    DisplayChoice,
    DisplayError,
    open_display,
    open_window,
)
from appliance.kiosk.rotation import check_rotation, logical_size, rotate_region

log = logging.getLogger(__name__)

PRESENTS: Final = ("auto", "renderer", "surface")
Size = tuple[int, int]


@dataclass(frozen=True)
class PresentChoice:
    """Which presenter to open, and why (logged at start)."""

    renderer: bool
    reason: str


def choose_present(setting: str, rotation: int, driver: str | None) -> PresentChoice:
    """The presenter for config `display.present` = `setting` on SDL video `driver`.

    "renderer" and "surface" force it; "auto" takes the renderer where the GPU turns the
    frame for free and the CPU turn is what costs: a rotated mount on kmsdrm (a Pi
    without a desktop). Upright, the window surface is the cheapest everywhere.
    """
    if setting not in PRESENTS:
        raise ValueError(f"display.present must be one of {', '.join(PRESENTS)}; got {setting!r}")
    rotation = check_rotation(rotation)
    if setting == "renderer":
        return PresentChoice(True, "display.present = renderer")
    if setting == "surface":
        return PresentChoice(False, "display.present = surface")
    if rotation and (driver or "").lower() == "kmsdrm":
        return PresentChoice(True, f"rotation {rotation} on kmsdrm: the GPU turns the frame")
    if rotation:
        return PresentChoice(False, f"rotation {rotation} off kmsdrm: turned on the CPU")
    return PresentChoice(False, "upright: the window surface")


class Presenter(Protocol):
    """Shows the logical frame on the display."""

    @property
    def rotation(self) -> int: ...
    @property
    def display_size(self) -> Size:
        """The physical display's size in pixels."""
        ...

    def new_frame(self) -> pygame.Surface:
        """The back buffer to draw into, of the logical size (for the display as it is now)."""
        ...

    def present(self, frame: pygame.Surface, dirty: pygame.Rect | None = None) -> None:
        """Show `frame` (`dirty`: only that logical rectangle changed since the last)."""
        ...

    def shown(self, frame: pygame.Surface) -> pygame.Surface:
        """What the physical display shows, as a surface of its size."""
        ...

    def resized(self) -> bool:
        """Follow a change of the window's size; True when `new_frame` must be called."""
        ...

    def toggle_fullscreen(self) -> None: ...
    def close(self) -> None: ...


class SurfacePresenter:
    """The window surface of pygame.display; a rotated mount is turned on the CPU, only
    the part that changed."""

    def __init__(self, screen: pygame.Surface, rotation: int) -> None:
        self.screen = screen
        self.rotation = check_rotation(rotation)

    @property
    def display_size(self) -> Size:
        return self.screen.get_size()

    def new_frame(self) -> pygame.Surface:
        # Always a surface of its own, upright too: the kiosk's worker thread draws into
        # the frame while the loop's thread may have SDL replace the window's surface (a
        # resize, F11 on a desktop), and drawing into a freed surface is no exception but
        # a crash. The copy onto the screen happens at present, on the loop's thread.
        return pygame.Surface(logical_size(self.screen.get_size(), self.rotation)).convert()

    def present(self, frame: pygame.Surface, dirty: pygame.Rect | None = None) -> None:
        # A partial present copies (on a rotated mount: turns) and uploads only what
        # changed (the full frame's turn costs more than drawing it).
        if dirty is not None:
            if self.rotation:
                dirty = rotate_region(frame, self.screen, dirty, self.rotation)
            else:
                dirty = self.screen.blit(frame, dirty, dirty)
            pygame.display.update(dirty)
            return
        if self.rotation:
            rotate_region(frame, self.screen, frame.get_rect(), self.rotation)
        else:
            self.screen.blit(frame, (0, 0))
        pygame.display.flip()

    def shown(self, frame: pygame.Surface) -> pygame.Surface:
        return self.screen

    def resized(self) -> bool:
        surface = pygame.display.get_surface()
        if surface is None:
            return False
        self.screen = surface
        return True

    def toggle_fullscreen(self) -> None:
        try:
            pygame.display.toggle_fullscreen()
        except pygame.error as exc:
            log.info("cannot toggle fullscreen here: %s", exc)

    def close(self) -> None:
        pygame.display.quit()


class RendererPresenter:
    """SDL's renderer: the frame goes up as a streaming texture and is drawn turned.

    Every present draws the whole texture (a renderer's back buffer holds nothing after
    a present), but uploads only what changed. The turns are about the texture's
    top-left corner, so every pixel lands exactly where `rotate_frame` puts it, whatever
    the sizes' parity.
    """

    def __init__(
        self,
        window: pygame.Window,
        renderer: video.Renderer,
        rotation: int,
        fullscreen: bool = False,
    ) -> None:
        self.window = window
        self.renderer = renderer
        self.rotation = check_rotation(rotation)
        self.fullscreen = fullscreen
        self.texture: video.Texture | None = None
        # A present of the plain background first: on kmsdrm the first present after the
        # window is made never reaches the screen (seen in `make boot-check`'s VM: SDL
        # sets the mode then and shows a buffer of its own), and the kiosk presents only
        # when something changes, so its first frame, the lobby, would stay unseen.
        self.renderer.draw_color = (0, 0, 0, 255)
        self.renderer.clear()
        self.renderer.present()

    @property
    def display_size(self) -> Size:
        w, h = self.window.size
        return (int(w), int(h))

    def new_frame(self) -> pygame.Surface:
        size = logical_size(self.display_size, self.rotation)
        self.texture = video.Texture(self.renderer, size, streaming=True)
        self.texture.blend_mode = 0  # opaque: no blending, whatever the alpha bytes hold
        # No display surface to convert() to: 32-bit XRGB, the texture's own layout.
        return pygame.Surface(size, 0, 32)

    def _draw(self, texture: video.Texture) -> None:
        w, h = texture.width, texture.height
        self.renderer.draw_color = (0, 0, 0, 255)
        self.renderer.clear()
        # SDL turns clockwise about `origin` (relative to dstrect): about the top-left
        # corner, then moved back onto the display.
        if self.rotation == 90:
            texture.draw(dstrect=pygame.Rect(h, 0, w, h), angle=90, origin=(0, 0))
        elif self.rotation == 270:
            texture.draw(dstrect=pygame.Rect(0, w, w, h), angle=270, origin=(0, 0))
        elif self.rotation == 180:
            texture.draw(dstrect=pygame.Rect(0, 0, w, h), flip_x=True, flip_y=True)
        else:
            texture.draw(dstrect=pygame.Rect(0, 0, w, h))

    def _upload(self, frame: pygame.Surface, dirty: pygame.Rect | None) -> video.Texture:
        texture = self.texture
        if texture is None or (texture.width, texture.height) != frame.get_size():
            raise ValueError(
                f"frame of {frame.get_size()} does not match the display's texture: "
                "call new_frame() after the display changed"
            )
        if dirty is None:
            texture.update(frame)
        else:
            area = dirty.clip(frame.get_rect())
            if area.w > 0 and area.h > 0:
                # A tuple, not the Rect: pygame-ce 2.5.8's Texture.update puts the pixels
                # at the texture's corner when `area` is a pygame.Rect, a tuple is placed
                # right (the renderer's ink test in tests/test_display_present.py).
                texture.update(frame.subsurface(area), (area.x, area.y, area.w, area.h))
        return texture

    def present(self, frame: pygame.Surface, dirty: pygame.Rect | None = None) -> None:
        self._draw(self._upload(frame, dirty))
        self.renderer.present()

    def shown(self, frame: pygame.Surface) -> pygame.Surface:
        # Drawn again and read back before any present: exactly what the next one shows.
        if self.texture is None:
            raise ValueError("nothing presented yet: call new_frame() first")
        self._draw(self.texture)
        return self.renderer.to_surface()

    def resized(self) -> bool:
        texture = self.texture
        wanted = logical_size(self.display_size, self.rotation)
        return texture is None or (texture.width, texture.height) != wanted

    def toggle_fullscreen(self) -> None:
        try:
            if self.fullscreen:
                self.window.set_windowed()
            else:
                self.window.set_fullscreen(desktop=True)
            self.fullscreen = not self.fullscreen
        except pygame.error as exc:
            log.info("cannot toggle fullscreen here: %s", exc)

    def close(self) -> None:
        self.texture = None
        del self.renderer
        self.window.destroy()
        pygame.display.quit()


def open_presenter(
    choice: DisplayChoice,
    size: Size,
    rotation: int = 0,
    connector: str = "auto",
    present: str = "auto",
    sysfs: str | Path = SYSFS_DRM,
    model_path: str | Path = DEVICE_TREE_MODEL,
) -> Presenter:
    """Open the display (see `open_display`) with the presenter `choose_present` picks.

    When SDL cannot make a renderer (no GPU driver, a driver without one) the window
    goes and the surface path is opened instead, with a warning naming SDL's reason.
    Raises DisplayError when the display itself cannot be opened.
    """
    picked = choose_present(present, rotation, choice.driver)
    if picked.renderer:
        window: pygame.Window | None = None
        card = os.environ.get(KMSDRM_INDEX_VARIABLE)
        try:
            window = open_window(choice, size, rotation, connector, sysfs, model_path)
            presenter = RendererPresenter(
                window, video.Renderer(window), rotation, choice.fullscreen
            )
        except (pygame.error, DisplayError) as exc:
            if window is not None:
                window.destroy()
            pygame.display.quit()
            # The card is chosen (and logged) again, not taken for the operator's setting.
            if card is None:
                os.environ.pop(KMSDRM_INDEX_VARIABLE, None)
            log.warning("kiosk display: SDL's renderer is not available (%s); the frame is "
                        "turned on the CPU instead", exc)
        else:
            log.info("kiosk display: SDL's renderer presents (%s)", picked.reason)
            return presenter
    screen = open_display(choice, size, rotation, connector, sysfs, model_path)
    log.debug("kiosk display: the window surface presents (%s)", picked.reason)
    return SurfacePresenter(screen, rotation)
