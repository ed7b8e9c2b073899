"""Giving memory the box has freed back to the system.

glibc's malloc keeps what Python and SDL free for reuse, and a heap only shrinks from its
top: surfaces of a finished match (its pictures, its gallery code, a result banner) leave
holes that stay in the box's resident memory after their owners let go of them, a few MB
per match at 1080p. `malloc_trim` hands those free pages back; it walks the free lists
only (about a millisecond here), so the box does it once per ended match, after the kiosk
drew the end of the game (appliance/app.py). Elsewhere (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from typing import Any

log = logging.getLogger("easel.memory")

_libc: Any = None
_looked = False


def _malloc_trim() -> Any:
    global _libc, _looked
    if not _looked:
        _looked = True
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _libc = libc.malloc_trim if hasattr(libc, "malloc_trim") else None
        except OSError:
            _libc = None
    return _libc


def release_free_memory() -> bool:
    """Return the heap's free pages to the system; False where the C library cannot."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
