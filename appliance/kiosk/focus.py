"""Focus navigation: every button the kiosk draws can also be reached with arrow keys and
chosen with OK, from a TV remote, a gamepad or a keyboard.

Nothing here knows a screen. The focusable things are exactly the hit targets the last
frame registered for touches (`KioskRenderer.targets`: the lobby's tiles, the host menu,
the PIN pad, every game's buttons), so a button added later is reachable by itself. The
order is spatial: an arrow goes to the nearest target in its direction, preferring one in
the same row (or column). The ring is drawn into the kiosk's back buffer after the frame,
over a saved copy of what was under it, so moving it costs a couple of small blits and
never a redraw of the frame; it settles onto its target in a short animation.

Plain pygame and intents only, like the rest of the kiosk.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final, Literal

import pygame

from appliance.kiosk.intents import HostCorner, Intent

Direction = Literal["up", "down", "left", "right"]
Target = tuple[pygame.Rect, Intent]

RING: Final = (255, 255, 255)
RING_EDGE: Final = (0, 0, 0)
SETTLE_S: Final = 0.18
"""How long the ring takes to settle onto a new target (it starts larger and shrinks)."""
FRAME_S: Final = 1 / 60
"""The kiosk loop's turn while the ring moves (otherwise 20 Hz, or 4 Hz when nothing moves)."""


def focusable(targets: Sequence[Target], bounds: pygame.Rect) -> list[Target]:
    """The targets a remote can reach: on screen, not covered by a later target (which
    would take the tap), and not the host corner (an invisible long-press area; the
    remote's menu key asks for the PIN instead)."""
    out: list[Target] = []
    for i, (rect, intent) in enumerate(targets):
        if isinstance(intent, HostCorner):
            continue
        shown = rect.clip(bounds)
        if shown.w <= 0 or shown.h <= 0:
            continue
        if any(later.contains(shown) for later, _ in targets[i + 1:]):
            continue
        out.append((shown, intent))
    return out


def _gap(a0: int, a1: int, b0: int, b1: int) -> int:
    """Distance between the ranges [a0, a1) and [b0, b1); 0 if they overlap."""
    return max(0, b0 - a1, a0 - b1)


def step(rects: Sequence[pygame.Rect], current: int, direction: Direction) -> int | None:
    """The index of the target an arrow moves to from `current`, or None (nothing there).

    Candidates lie beyond the current target's centre in the arrow's direction. Those
    sharing its row (for left/right) or column (for up/down) come first, nearest first;
    then the others by distance along the arrow plus twice the distance across it, so a
    far target straight ahead beats a near one off to the side.
    """
    cur = rects[current]
    cx, cy = cur.center
    best: tuple[tuple[int, int, int], int] | None = None
    for i, r in enumerate(rects):
        if i == current:
            continue
        if direction == "right":
            if r.centerx <= cx:
                continue
            along, across = max(0, r.left - cur.right), _gap(cur.top, cur.bottom, r.top, r.bottom)
            skew = abs(r.centery - cy)
        elif direction == "left":
            if r.centerx >= cx:
                continue
            along, across = max(0, cur.left - r.right), _gap(cur.top, cur.bottom, r.top, r.bottom)
            skew = abs(r.centery - cy)
        elif direction == "down":
            if r.centery <= cy:
                continue
            along, across = max(0, r.top - cur.bottom), _gap(cur.left, cur.right, r.left, r.right)
            skew = abs(r.centerx - cx)
        else:
            if r.centery >= cy:
                continue
            along, across = max(0, cur.top - r.bottom), _gap(cur.left, cur.right, r.left, r.right)
            skew = abs(r.centerx - cx)
        score = (1 if across else 0, along + 2 * across, skew)
        if best is None or score < best[0]:
            best = (score, i)
    return None if best is None else best[1]


def first(rects: Sequence[pygame.Rect], skip: Sequence[int] = ()) -> int:
    """Where focus starts on a new screen that names no first focus of its own
    (`Painter.first_focus`): the biggest target, the top-left one of equals, passing over
    the indices in `skip` (unlit buttons: OK on them only says no) while others exist."""
    pool = [i for i in range(len(rects)) if i not in skip] or list(range(len(rects)))
    return min(pool, key=lambda i: (-rects[i].w * rects[i].h, rects[i].top, rects[i].left))


class Focus:
    """Which target has the focus, and its ring in the back buffer.

    Hidden until a remote key is used (a touch table never sees it), hidden again by a
    touch. After each render the focused intent is found again among the new targets (the
    same intent, unless it just went unlit: pressed, it would only be refused); else the
    first focus the screen names (the action a person most likely wants next: "Drawn on
    paper", Play again, the PIN pad's OK); else, on a screen that still shows some button
    of the last one, the target nearest to where the ring was; else `first`.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.visible = False
        self.targets: list[Target] = []
        self.index: int | None = None
        self._rect: pygame.Rect | None = None  # where the ring was: to find it again
        self._known: list[Intent] = []  # the intents of the last frame that had targets
        self._unlit: list[Intent] = []  # the last frame's unlit targets
        self.covers: list[pygame.Rect] = []  # what the ring never paints over (a toast)
        self._patch: tuple[pygame.Surface, pygame.Rect] | None = None
        self._moved_at = -1.0
        self._drawn_settled = True

    # -- which target

    @property
    def intent(self) -> Intent | None:
        if self.index is None:
            return None
        return self.targets[self.index][1]

    @property
    def rect(self) -> pygame.Rect | None:
        return None if self.index is None else self.targets[self.index][0]

    def sync(self, targets: Sequence[Target], bounds: pygame.Rect,
             named: Intent | None = None, unlit: Sequence[Intent] = (),
             covers: Sequence[pygame.Rect] = ()) -> None:
        """Take the targets of a newly rendered frame (the ring's pixels are gone): `named`
        is the screen's first focus, `unlit` its buttons that do nothing now, `covers` the
        boxes drawn over everything (a notice's toast) that the ring stays under."""
        self._patch = None
        self.covers = [pygame.Rect(c) for c in covers]
        intent, rect = self.intent, self._rect
        before, was_unlit = self._known, self._unlit
        self.targets = focusable(targets, bounds)
        self._unlit = list(unlit)
        self.index = None
        if not self.targets:
            return
        self._known = [it for _, it in self.targets]
        if intent is not None:
            same = [i for i, (_, it) in enumerate(self.targets) if it == intent]
            # A button that went unlit under the ring (Hourglass, once pressed) hands the
            # ring on; one the arrows chose while unlit keeps it.
            gone_dark = intent in self._unlit and intent not in was_unlit
            if same and not gone_dark:
                self.index = min(same, key=lambda i: _distance(self.targets[i][0], rect))
                self._rect = self.targets[self.index][0]
                return
        chosen = next((i for i, (_, it) in enumerate(self.targets) if it == named), None)
        dark = [i for i, (_, it) in enumerate(self.targets) if it in self._unlit]
        if chosen is not None:
            self.index = chosen
        # A new screen (no button of the last one is on it: a menu opened or closed, a
        # confirmation asked) starts where its own design says, `first`, not near where
        # the ring was: a "Free Mia's seat" that happens to lie under the PIN pad's OK
        # key must not be one OK away.
        elif rect is not None and not _new_screen(before, self._known):
            lit = [i for i in range(len(self.targets)) if i not in dark] or dark
            self.index = min(lit, key=lambda i: _distance(self.targets[i][0], rect))
        else:
            self.index = first([r for r, _ in self.targets], dark)
        self._rect = self.targets[self.index][0]

    def go(self, intent: Intent) -> bool:
        """Put the focus on the target carrying `intent` (the PIN pad's OK once a digit is
        typed on the remote); False if no target carries it."""
        found = next((i for i, (_, it) in enumerate(self.targets) if it == intent), None)
        if found is None or found == self.index:
            return found is not None
        self.index = found
        self._rect = self.targets[found][0]
        self._moved_at = self.clock()
        return True

    def move(self, direction: Direction) -> bool:
        """An arrow: show the ring (the first press only shows it), or move it. True if
        the picture changes."""
        if not self.targets:
            return False
        if self.index is None:
            self.index = first([r for r, _ in self.targets],
                               [i for i, (_, it) in enumerate(self.targets) if it in self._unlit])
        if not self.visible:
            self.visible = True
            self._moved_at = self.clock()
            return True
        nxt = step([r for r, _ in self.targets], self.index, direction)
        if nxt is None:
            return False
        self.index = nxt
        self._rect = self.targets[nxt][0]
        self._moved_at = self.clock()
        return True

    def choose(self) -> Intent | None:
        """OK: the focused target's intent; the first OK on a hidden ring only shows it."""
        if not self.targets:
            return None
        if not self.visible:
            self.move("up")
            return None
        return self.intent

    def find(self, intent: Intent) -> Intent | None:
        """`intent` if a target of the frame on screen carries it (a PIN key typed on the
        remote's digits presses the pad's own key)."""
        return next((it for _, it in self.targets if it == intent), None)

    def hide(self) -> bool:
        was, self.visible = self.visible, False
        return was

    # -- the ring

    def animating(self) -> bool:
        return self.visible and not self._drawn_settled

    def draw(self, frame: pygame.Surface) -> pygame.Rect | None:
        """Put the ring where it belongs now (or take it away); the changed area, if any."""
        dirty: pygame.Rect | None = None
        if self._patch is not None:
            patch, where = self._patch
            frame.blit(patch, where)
            dirty = pygame.Rect(where)
            self._patch = None
        rect = self.rect
        if not self.visible or rect is None:
            self._drawn_settled = True
            return dirty
        w, h = frame.get_size()
        thick = max(5, round(min(w, h) / 108))
        t = (self.clock() - self._moved_at) / SETTLE_S
        t = 1.0 if t >= 1.0 or t < 0 else t
        self._drawn_settled = t >= 1.0
        # Ease out: the ring lands big and tightens onto its target.
        grow = round(3 * thick * (1.0 - t) ** 2)
        ring = rect.inflate(thick + 2 * grow, thick + 2 * grow)
        reach = ring.inflate(6 * thick + 8, 6 * thick + 8).clip(frame.get_rect())
        if reach.w <= 0 or reach.h <= 0:
            return dirty
        self._patch = (frame.subsurface(reach).copy(), reach)
        # A toast lies over the frame: the ring passes under it, its words stay whole.
        kept = [(frame.subsurface(c).copy(), c) for c in
                (cover.clip(reach) for cover in self.covers) if c.w > 0 and c.h > 0]
        radius = max(thick, min(ring.w, ring.h) // 6)
        edge = max(2, thick // 3)
        pygame.draw.rect(frame, RING_EDGE, ring.inflate(2 * edge, 2 * edge), thick + 2 * edge,
                         border_radius=radius + edge)
        pygame.draw.rect(frame, RING, ring, thick, border_radius=radius)
        for pixels, where in kept:
            frame.blit(pixels, where)
        return reach if dirty is None else dirty.union(reach)


def _new_screen(before: Sequence[Intent], now: Sequence[Intent]) -> bool:
    """No intent of `before` is among `now` (compared by ==: an intent may hold a dict,
    so no set; run only when the focused button went, at most a few thousand compares)."""
    return not any(it == old for it in now for old in before)


def _distance(a: pygame.Rect, b: pygame.Rect | None) -> float:
    if b is None:
        return 0.0
    return float((a.centerx - b.centerx) ** 2 + (a.centery - b.centery) ** 2)


def reachable(rects: Sequence[pygame.Rect], start: int) -> set[int]:
    """Every index the four arrows reach from `start` (for tests: none trapped)."""
    seen, todo = {start}, [start]
    directions: tuple[Direction, ...] = ("up", "down", "left", "right")
    while todo:
        i = todo.pop()
        for d in directions:
            j = step(rects, i, d)
            if j is not None and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen
