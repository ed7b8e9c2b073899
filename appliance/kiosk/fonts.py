"""Fonts and rendered text for the kiosk, cached because the Pi is slow at both.

DejaVu Sans (Debian's fonts-dejavu-core, present on Raspberry Pi OS) is preferred: it has
every Czech glyph in a regular and a bold weight. Without it, pygame's bundled font is
used (it covers Czech too, but is bold only and kerns poorly); that is logged once.
Text arrives as data (player names included): it is sanitised so that no string can fail
a frame, and truncated with an ellipsis to fit a width.
"""

from __future__ import annotations

import logging
import unicodedata
from collections import OrderedDict
from pathlib import Path
from typing import Final

import pygame

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]

_HERE: Final = Path(__file__).resolve().parent
# A font dropped next to this module (package data) wins over the system's copy.
REGULAR_CANDIDATES: Final = (
    _HERE / "DejaVuSans.ttf",
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
)
BOLD_CANDIDATES: Final = (
    _HERE / "DejaVuSans-Bold.ttf",
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
)
ELLIPSIS: Final = "…"


def _first_existing(paths: tuple[Path, ...]) -> Path | None:
    for path in paths:
        if path.is_file():
            return path
    return None


def clean_text(text: object) -> str:
    """`text` as a single line SDL_ttf can always render.

    Control and format characters (newlines, NUL, bidi overrides) become spaces or vanish,
    lone surrogates (possible in JSON) become U+FFFD.
    """
    text = str(text)
    if text.isprintable():
        # No character of the categories below (nor a space other than " "): as it is.
        # Every text of every frame comes here; the loop below is the rare case.
        return text
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat == "Cc":
            out.append(" ")
        elif cat == "Cs":
            out.append("\ufffd")
        elif cat in ("Cf", "Co", "Cn") and ch != "\u200d":
            # ZWJ stays: it glues emoji sequences; the rest are invisible or unrenderable.
            continue
        else:
            out.append(ch)
    return "".join(out)


MAX_FACES: Final = 48
"""Font faces kept open: the lobby, a game and its finish use 20-30 sizes at most."""


class Fonts:
    """Font objects per (size, bold), and rendered text surfaces keyed by content.

    The text cache is a bounded LRU so a day of changing names cannot grow it forever.
    It is bounded by bytes as well as entries: at 1080p a line of a Duplik criterion in
    96 px type is ~0.5 MB, and 1024 entries of a day's game texts held ~90 MB. One frame
    shows ~2 MB of text at 1080p, so the default budget keeps a few frames' worth.
    """

    def __init__(
        self,
        regular: Path | None = None,
        bold: Path | None = None,
        max_cached_texts: int = 1024,
        max_text_bytes: int = 8 * 2**20,
        max_faces: int = MAX_FACES,
    ) -> None:
        pygame.font.init()
        self.regular_path = regular or _first_existing(REGULAR_CANDIDATES)
        self.bold_path = bold or _first_existing(BOLD_CANDIDATES) or self.regular_path
        if self.regular_path is None:
            log.warning(
                "DejaVu Sans not found (install fonts-dejavu-core); "
                "using pygame's bundled font for the kiosk"
            )
        # Faces by (size, bold), least recently used first: fitting a text tries sizes in
        # between, and each face holds ~150 KB, so a day of names would keep every size.
        self._fonts: OrderedDict[tuple[int, bool], pygame.font.Font] = OrderedDict()
        self._max_faces = max_faces
        self._texts: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()
        self._max_texts = max_cached_texts
        self._max_text_bytes = max_text_bytes
        self._text_bytes = 0

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        size = max(6, int(size))
        key = (size, bold)
        font = self._fonts.get(key)
        if font is not None:
            self._fonts.move_to_end(key)
        else:
            path = self.bold_path if bold else self.regular_path
            try:
                font = pygame.font.Font(path, size)
            except (OSError, pygame.error) as exc:
                log.warning("cannot load font %s (%s); using pygame's bundled font", path, exc)
                self.regular_path = self.bold_path = None
                font = pygame.font.Font(None, size)
            self._fonts[key] = font
            if len(self._fonts) > self._max_faces:
                self._fonts.popitem(last=False)
        return font

    def line_height(self, size: int, bold: bool = False) -> int:
        return self.font(size, bold).get_linesize()

    def fit(self, text: str, size: int, bold: bool, max_width: int | None) -> str:
        """`text`, cut and ended with an ellipsis when it is wider than `max_width`."""
        if max_width is None:
            return text
        font = self.font(size, bold)
        if font.size(text)[0] <= max_width:
            return text
        # Binary search on the prefix length: font.size is cheap, rendering is not.
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if font.size(text[:mid].rstrip() + ELLIPSIS)[0] <= max_width:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo].rstrip() + ELLIPSIS if lo else ELLIPSIS

    def render(
        self,
        text: object,
        size: int,
        colour: Colour,
        bold: bool = False,
        max_width: int | None = None,
        keep: bool = True,
    ) -> pygame.Surface:
        """`text` as an antialiased surface, at most `max_width` pixels wide.

        `keep=False`: taken from the cache if there, but not added to it (text painted
        once into a cached surface of its own)."""
        key = (text, int(size), colour, bold, max_width)
        surf = self._texts.get(key)
        if surf is not None:
            self._texts.move_to_end(key)
            return surf
        clean = clean_text(text)
        fitted = self.fit(clean, size, bold, None if max_width is None else max(1, max_width))
        font = self.font(size, bold)
        try:
            surf = font.render(fitted, True, colour)
        except (pygame.error, ValueError, UnicodeError):
            # A glyph SDL_ttf chokes on must not blank the whole kiosk.
            surf = font.render(fitted.encode("ascii", "replace").decode("ascii"), True, colour)
        if pygame.display.get_surface() is not None:
            surf = surf.convert_alpha()
        if not keep:
            return surf
        self._texts[key] = surf
        self._text_bytes += _surface_bytes(surf)
        while len(self._texts) > 1 and (
            len(self._texts) > self._max_texts or self._text_bytes > self._max_text_bytes
        ):
            _, old = self._texts.popitem(last=False)
            self._text_bytes -= _surface_bytes(old)
        return surf

    @property
    def cached_text_bytes(self) -> int:
        """Pixel bytes held by the text cache (the memory the budget bounds)."""
        return self._text_bytes


def _surface_bytes(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()
