"""The kiosk: the box's own screen (pygame), showing the public view and turning taps,
clicks and development keys into intents.

`Kiosk` owns the display: it redraws only when the view's version, the frame size or the
hourglass' second changes, has the logical frame shown turned for a rotated mount
(appliance/kiosk/present.py: on the CPU or by SDL's renderer), and maps touches back.
`run_kiosk` is its asyncio loop, which idles near zero CPU.

This package renders plain view dicts: it imports no game, driver, server or session code.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import pkgutil
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final, Protocol

# pygame prints a banner on import unless told not to; the box logs through logging.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from appliance.kiosk.display import (
    DisplayChoice,
    DisplayError,
    choose_display,
    detect_display,
    detect_drm,
    detect_pi,
    open_display,
)
from appliance.kiosk.focus import FRAME_S, Focus
from appliance.kiosk.ink import Ink
from appliance.kiosk.intents import (
    HOST_HOLD_S,
    Back,
    HostCorner,
    Intent,
    KickSeat,
    PinKey,
    PressButton,
    Quit,
    SeatPadKey,
    SelectGame,
    StartGame,
    TogglePause,
)
from appliance.kiosk.present import Presenter, open_presenter
from appliance.kiosk.render import GAME_SCREENS, Frame, GameScreen, KioskRenderer
from appliance.kiosk.rotation import (
    check_rotation,
    logical_to_physical,
    physical_to_logical,
)
from appliance.kiosk.theme import deadline_remaining
from appliance.system.drawing import png_bytes


def _load_game_screens() -> None:
    """Games' own kiosk screens (appliance/kiosk/<id>.py) register themselves in
    GAME_SCREENS when imported: every module of the package is imported, so a new game's
    screen needs no line here (a game without one is shown by the generic screen)."""
    for found in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{found.name}")


_load_game_screens()

log = logging.getLogger(__name__)

__all__ = [
    "GAME_SCREENS",
    "DisplayChoice",
    "DisplayError",
    "Frame",
    "GameScreen",
    "Intent",
    "KickSeat",
    "Kiosk",
    "KioskRenderer",
    "PressButton",
    "Quit",
    "SelectGame",
    "StartGame",
    "choose_display",
    "detect_display",
    "detect_drm",
    "detect_pi",
    "open_display",
    "run_kiosk",
]

_HEADLESS: Final = DisplayChoice("dummy", False, True, "headless by default")
_NO_PRESS: Final = object()
INK_INTERVAL_S: Final = 1 / 30
"""Live ink is shown at most 30 times a second: every point is drawn into the back buffer
as it comes (strokes stay complete and exact), only the presenting is capped, since on a Pi
every present uploads to the screen and can wait for its refresh."""

VIEW_INTERVAL_S: Final = 1 / 20
"""The longest a changed view waits for its frame: 20 a second (the loop's pace while
anything moves) at the least. A flood of moves (stroke, undo, stroke... from one seat)
would otherwise cost a whole frame each; within this, VIEW_SHARE decides."""

VIEW_SHARE: Final = 0.25
"""The share of the time a flood of changes may keep the kiosk drawing: after a frame
that took t of CPU, the next waits 3t (at most VIEW_INTERVAL_S), then draws the newest
view. The first change after a quiet moment is drawn at once, and with the frames a few
milliseconds each a phone's move is on the screen a few milliseconds after it came,
not up to VIEW_INTERVAL_S. Live ink has its own cadence (INK_INTERVAL_S)."""


DRAW_SWITCH_S: Final = 0.0005
"""The GIL's switch interval while the kiosk runs (Python's default is 5 ms): how long
the loop may wait for its turn while a frame is drawn on the kiosk's worker thread
(Kiosk.update_async), plus pygame's longest single call (a 1080p fill, under 1 ms)."""

IDLE_SLOW_S: Final = 0.25
"""How long the kiosk loop sleeps when nothing moves (no ink, no finger or mouse button
down, no settling focus ring, no held arrow, no running hourglass, nothing drawn or
pressed for CALM_AFTER_S): 4 turns a second instead of 20. What wakes it (a phone's move,
the touch panel's driver, the remote) still wakes it at once; only input SDL itself
delivers (a desktop window's mouse and keys) may wait up to this for its first event."""
CALM_AFTER_S: Final = 2.0
"""The loop stays at full pace this long after the last input or drawn frame."""

_ARROWS: Final = frozenset({"up", "down", "left", "right"})
_SDL_TEXT: Final = {"space": " ", "backspace": "\b"}
"""What the window's keys type on the seat pad (besides the letters, named by themselves)."""


class KeyRepeat(Protocol):
    """The held arrow's repeat (drivers.remote.ArrowRepeat, passed in by the app: the
    kiosk imports no driver), for the arrow keys SDL reads in the kiosk's window."""

    @property
    def key(self) -> Any: ...
    @property
    def next_at(self) -> float | None: ...
    def hold(self, key: Any, source: Any, now: float) -> None: ...
    def release(self) -> None: ...
    def due(self, now: float) -> Iterable[RemoteLike]: ...


class TouchLike(Protocol):
    """A finger's change from the touch panel's driver (drivers.touch.Touch): x and y are
    0..1 across the physical display; `finger` is unique per touch."""

    @property
    def kind(self) -> str: ...
    @property
    def finger(self) -> int: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def t(self) -> float: ...
    @property
    def cancelled(self) -> bool: ...


class RemoteLike(Protocol):
    """A remote key's press from drivers.remote (RemotePress): `key` is one of its
    RemoteKey names ("up", "ok", "back", "die", ...); `text` what a keyboard's key types
    ("h", " ", "\b"; "" for the rest)."""

    @property
    def key(self) -> str: ...
    @property
    def text(self) -> str: ...


# Remote keys that stand for the table's buttons (drivers/remote.py maps the devices).
_BUTTON_KEYS: Final[dict[str, PressButton]] = {
    "hourglass": PressButton("hourglass"),
    "hourglass_long": PressButton("hourglass", long=True),
    "die": PressButton("die"),
    "reveal": PressButton("reveal"),
}


class Kiosk:
    """The kiosk's display, renderer and input.

    `size` is the logical frame size; fullscreen asks the screen for that mode (turned by
    `rotation`) and takes the screen's own when it is not offered; `connector` is the
    screen output kmsdrm takes (config `display.connector`); `present` how the frame gets
    there (config `display.present`, see appliance/kiosk/present.py). `choice` defaults to
    headless so that constructing a Kiosk never grabs a screen by surprise; pass
    `detect_display()`.
    Raises DisplayError when SDL cannot open the display.
    """

    def __init__(
        self,
        size: tuple[int, int] = (1920, 1080),
        rotation: int = 0,
        choice: DisplayChoice = _HEADLESS,
        renderer: KioskRenderer | None = None,
        connector: str = "auto",
        clock: Callable[[], float] = time.monotonic,
        ink_interval: float = INK_INTERVAL_S,
        present: str = "auto",
        view_interval: float = VIEW_INTERVAL_S,
    ) -> None:
        self.rotation = check_rotation(rotation)
        self.choice = choice
        self.presenter: Presenter = open_presenter(choice, size, rotation, connector, present)
        self.renderer = renderer or KioskRenderer()
        self.frames_drawn = 0
        self.ink_frames_shown = 0
        self.clock = clock
        self.ink_interval = ink_interval
        self._ink_shown_at = -float("inf")
        self.view_interval = view_interval
        self._drawn_at = -float("inf")  # monotonic: the last whole frame drawn
        # The CPU time the last frame took (its thread's: not the waits for the GIL or
        # for a core the machine's other programs hold), and all frames' together.
        self.frame_s = 0.0
        self.drawing_s = 0.0
        self._view_timer: asyncio.TimerHandle | None = None  # a changed view's frame
        self._view_due: float | None = None  # monotonic: a changed view's frame is due
        self._presses: dict[Any, object] = {}
        self._pressed_at: dict[Any, float] = {}  # for the host corner's long press
        self.ink = Ink()
        # Where finger touches come from: "sdl" (SDL's FINGER events) or "evdev" (the
        # driver feeds them); never both, so a finger is not counted twice.
        self.touch_source = "sdl"
        # Focus navigation for remotes, gamepads and keyboards (appliance/kiosk/focus.py).
        self.focus = Focus()
        # Keys pressed in the window: SDL's key name (and Shift) -> a remote key; the app
        # passes drivers.remote.key_for_sdl (the one mapping table). "evdev": keyboards
        # are read by drivers.remote instead, and the window's keys are ignored.
        self.sdl_keys: Callable[[str, bool], str | None] | None = None
        self.keys_source = "sdl"
        # An arrow held in the window repeats at the one cadence every device has (the app
        # passes drivers.remote.ArrowRepeat; None: no repeat). Its times are monotonic.
        self.key_repeat: KeyRepeat | None = None
        self._active_at = -float("inf")  # monotonic: the last input or drawn frame
        # The table panel's LEDs breathe while a game waits for its buttons, one step per
        # loop turn (the app sets this when a panel is attached): then the loop keeps pace.
        self.led_pulse = False
        self._pending: list[Intent] = []
        self._nap: asyncio.Future[None] | None = None
        # The kiosk's worker thread (update_async) and the frame it is drawing, if any.
        self._draw_pool: ThreadPoolExecutor | None = None
        self.drawing: asyncio.Future[None] | None = None
        self._attach()

    def wake(self) -> None:
        """Cut the kiosk loop's nap short: the view changed (called from the loop's thread)."""
        self._active_at = time.monotonic()
        self._end_nap()

    def view_changed(self) -> None:
        """The session's view changed (the app subscribes this): the loop wakes at once
        if the last frame ended long enough ago (VIEW_SHARE: three times as long as it
        took, at most `view_interval`), else when it will have, and draws the newest view
        then, so a flood of changes keeps the kiosk drawing a quarter of the time."""
        self._active_at = now = time.monotonic()
        gap = min(self.view_interval, self.frame_s * (1 / VIEW_SHARE - 1))
        due_at = self._drawn_at + gap
        self._view_due = due_at if self._view_due is None else min(self._view_due, due_at)
        due = due_at - now
        if due <= 0:
            self._end_nap()
        elif self._nap is not None and not self._nap.done() and self._view_timer is None:
            self._view_timer = asyncio.get_running_loop().call_later(due, self._end_nap)

    def _end_nap(self) -> None:
        if self._nap is not None and not self._nap.done():
            self._nap.set_result(None)

    def idle_wait(self, view: Mapping[str, Any] | None, now: float, quick: float) -> float:
        """How long the loop may sleep: `quick` while something moves or may move soon (a
        running hourglass, a finger or mouse button down, input or a frame in the last
        CALM_AFTER_S), else IDLE_SLOW_S; never past a held arrow's next repeat. `now` is
        on the view's clock (the session's)."""
        mono = time.monotonic()
        wait = quick
        calm = (mono - self._active_at >= CALM_AFTER_S and not self._presses
                and not self.ink.strokes)
        if calm and isinstance(view, Mapping) and view.get("phase") == "playing":
            calm = deadline_remaining(view, now) is None  # the hourglass's sand runs
            match = view.get("match")
            if calm and self.led_pulse and isinstance(match, Mapping):
                calm = not match.get("buttons")  # waiting buttons' LEDs breathe
        if calm:
            wait = max(quick, IDLE_SLOW_S)
        repeat_at = None if self.key_repeat is None else self.key_repeat.next_at
        if repeat_at is not None:
            wait = min(wait, max(0.0, repeat_at - mono))
        return wait

    async def nap(self, seconds: float) -> None:
        """Sleep until `seconds` pass or `wake` is called, whichever is first."""
        loop = asyncio.get_running_loop()
        if self.focus.animating():
            seconds = min(seconds, FRAME_S)  # the ring is settling: a few quick turns
        if self._view_due is not None:  # a view changed while the last frame was drawn
            seconds = min(seconds, max(0.0, self._view_due - time.monotonic()))
        self._nap = nap = loop.create_future()
        timer = loop.call_later(seconds, self._end_nap)  # a nap's end is no news
        try:
            await nap
        finally:
            timer.cancel()
            if self._view_timer is not None:
                self._view_timer.cancel()
                self._view_timer = None
            self._nap = None

    def _attach(self) -> None:
        self.frame = self.presenter.new_frame()
        self.size = self.frame.get_size()
        self.renderer.invalidate()

    @property
    def display_size(self) -> tuple[int, int]:
        """The physical display's size (turned from `size` on a rotated mount)."""
        return self.presenter.display_size

    @property
    def screen(self) -> pygame.Surface:
        """What the physical display shows (read back from SDL's renderer when it
        presents); `frame` is the upright picture."""
        return self.presenter.shown(self.frame)

    # -- output

    def update(self, view: Mapping[str, Any], now: float) -> bool:
        """Draw `view` if it differs from what is shown; returns whether it drew.

        `now` must be on the clock of the view's deadlines (the session's clock).
        """
        self._view_due = None  # the newest view is looked at: what changes next is due
        if not self.renderer.needs_redraw(view, now, self.size):
            self.present_ink()
            self.present_focus()
            return False
        self._show_frame(view, self._render(self.frame, view, now))
        return True

    async def update_async(self, view: Mapping[str, Any], now: float) -> bool:
        """`update` for the loop that serves every phone (run_kiosk): the frame is drawn
        on the kiosk's own worker thread, so the loop goes on meanwhile.

        pygame holds the GIL while it draws, but Python hands the GIL over every
        switch interval (DRAW_SWITCH_S, set by run_kiosk): a 1080p frame's 2-5 ms here
        (5-20 times that on a Pi) become slices the loop runs between. Until the frame
        is done nothing else touches it: ink is kept (drawn when the frame is), the
        focus ring waits, taps are tested against the last frame shown; then it is
        finished and presented here, on the loop, as `update` does."""
        self._view_due = None  # the newest view is looked at: what changes next is due
        if not self.renderer.needs_redraw(view, now, self.size):
            self.present_ink()
            self.present_focus()
            return False
        if self._draw_pool is None:
            self._draw_pool = ThreadPoolExecutor(1, thread_name_prefix="kiosk-draw")
        frame = self.frame
        self.drawing = asyncio.get_running_loop().create_future()
        self.ink.held = True
        try:
            spent = await asyncio.get_running_loop().run_in_executor(
                self._draw_pool, self._render, frame, view, now
            )
        finally:
            self.ink.held = False
            self.drawing.set_result(None)
            self.drawing = None
        if frame is not self.frame:  # the window was resized meanwhile: draw it anew
            self.renderer.invalidate()
            return False
        self._show_frame(view, spent)
        return True

    def _render(self, frame: pygame.Surface, view: Mapping[str, Any], now: float) -> float:
        """Draw `view` into `frame`; returns the CPU seconds it took this thread."""
        began = time.thread_time()
        self.renderer.render(frame, view, now)
        return time.thread_time() - began

    def _show_frame(self, view: Mapping[str, Any], spent: float) -> None:
        """A frame just drawn into `frame` (in `spent` CPU seconds): live ink and the
        focus ring on it, shown."""
        began = time.thread_time()
        match = view.get("match")
        if isinstance(match, Mapping) and match.get("paused") is True:
            # The host paused: a stroke under a finger would only be refused; it goes.
            self.ink.strokes.clear()
        # Strokes still under a finger are not in the view yet: lay them on again.
        self.ink.redraw(self.frame)
        self.ink.dirty = None
        self.focus.sync(self.renderer.targets, self.frame.get_rect(),
                        self.renderer.first_focus, self.renderer.unlit, self.renderer.covers)
        self.focus.draw(self.frame)
        self._present()
        self.frames_drawn += 1
        self._active_at = self._drawn_at = time.monotonic()
        self.frame_s = spent + time.thread_time() - began
        self.drawing_s += self.frame_s

    def present_ink(self) -> bool:
        """Show the ink drawn into the back buffer since the last present, if any and if
        the last ink present is at least `ink_interval` ago (`ink_wait` says when)."""
        if self.ink.dirty is None or self.drawing is not None:
            return False
        now = self.clock()
        # (A microsecond's slack: clock readings are floats.)
        if now - self._ink_shown_at < self.ink_interval - 1e-6:
            return False
        dirty, self.ink.dirty = self.ink.dirty, None
        self._ink_shown_at = now
        self._present(dirty)
        self.ink_frames_shown += 1
        return True

    def ink_wait(self) -> float | None:
        """Seconds until the pending ink may be shown (0: now), None when there is none."""
        if self.ink.dirty is None:
            return None
        return max(0.0, self._ink_shown_at + self.ink_interval - self.clock())
    def present_focus(self) -> bool:
        """Show the focus ring's next step while it settles onto its target."""
        if not self.focus.animating() or self.drawing is not None:
            return False
        dirty = self.focus.draw(self.frame)
        if dirty is not None:
            self._present(dirty)
        return True

    def _present(self, dirty: pygame.Rect | None = None) -> None:
        # A partial present uploads only what changed (see appliance/kiosk/present.py).
        self.presenter.present(self.frame, dirty)

    def png_bytes(self) -> bytes:
        """The current logical frame (upright, whatever the mount) as a PNG."""
        return png_bytes(self.frame)

    async def png_async(self) -> bytes:
        """`png_bytes` for the loop (the server's /kiosk.png): the frame is copied here,
        a millisecond or two, and encoded on a worker thread, which holds the GIL for a
        band of pixels at a time; pygame's PNG writer held the loop 100-300 ms. A frame
        being drawn is waited for: a screenshot shows whole frames only."""
        while self.drawing is not None:
            await asyncio.shield(self.drawing)
        snapshot = self.frame.copy()
        return await asyncio.to_thread(png_bytes, snapshot)

    def screenshot(self, path: str | Path) -> None:
        Path(path).write_bytes(self.png_bytes())

    def close(self) -> None:
        if self._draw_pool is not None:
            self._draw_pool.shutdown()
            self._draw_pool = None
        self.presenter.close()

    # -- input

    def to_logical(self, physical: tuple[float, float]) -> tuple[int, int]:
        """A point on the display (a click, a touch) in logical frame coordinates."""
        x, y = physical_to_logical(physical, self.size, self.rotation)
        return (int(x), int(y))

    def to_physical(self, logical: tuple[float, float]) -> tuple[int, int]:
        x, y = logical_to_physical(logical, self.size, self.rotation)
        return (int(x), int(y))

    def poll(self) -> list[Intent]:
        """Drain pygame's events and return the intents they mean, in order (after the
        ones the touch panel's driver brought since the last poll)."""
        intents, self._pending = self._pending, []
        if intents:
            self._active_at = time.monotonic()
        for event in pygame.event.get():
            self._active_at = time.monotonic()
            intent = self._intent_of(event)
            if intent is not None:
                intents.append(intent)
        if self.key_repeat is not None:  # a held arrow's repeats owed by now
            for press in self.key_repeat.due(time.monotonic()):
                self.remote_key(press.key)
        return intents

    def _finger_pos(self, event: pygame.event.Event) -> tuple[int, int]:
        # FINGER events are normalised to the window (0..1), in physical orientation.
        w, h = self.display_size
        x = min(max(float(event.x), 0.0), 1.0) * (w - 1)
        y = min(max(float(event.y), 0.0), 1.0) * (h - 1)
        return self.to_logical((x, y))

    # One path for every pointer (mouse, SDL finger, touch panel finger): a touch that
    # starts on a drawing area draws; anywhere else it is a tap on what is under it.

    def pointer_down(self, pointer: Hashable, pos: tuple[int, int], at: float) -> None:
        if self.focus.hide():
            self._show_focus()  # a finger on the screen: the remote's ring goes
        canvas = self.renderer.canvas_at(pos)
        if canvas is not None:
            self.ink.begin(pointer, canvas[0], canvas[1], pos, at, self.frame)
        else:
            self._presses[pointer] = self.renderer.hit(pos)
            self._pressed_at[pointer] = at

    def pointer_move(self, pointer: Hashable, pos: tuple[int, int], at: float) -> Intent | None:
        return self.ink.extend(pointer, pos, at, self.frame)

    def pointer_up(
        self, pointer: Hashable, pos: tuple[int, int], at: float, cancelled: bool = False
    ) -> Intent | None:
        if self.ink.is_drawing(pointer):
            self.ink.extend(pointer, pos, at, self.frame)
            # A cancelled touch (the panel dropped events, or was unplugged) still keeps
            # what was drawn: nothing a child drew is thrown away by the hardware.
            return self.ink.end(pointer)
        pressed = self._presses.pop(pointer, _NO_PRESS)
        pressed_at = self._pressed_at.pop(pointer, at)
        if cancelled:
            return None
        target = self.renderer.hit(pos)
        # A press that slides off its button onto another one cancels, as on any touch UI.
        if pressed is not _NO_PRESS and pressed != target:
            return None
        # The host corner answers a long press only: a child's tap does nothing there.
        if isinstance(target, HostCorner) and at - pressed_at < HOST_HOLD_S:
            return None
        return target

    def feed_touches(self, touches: Iterable[TouchLike]) -> None:
        """Touches from the touch panel's driver (on the loop's thread): ink is drawn at
        once, intents wait for the next poll, and the loop is woken to show them."""
        w, h = self.display_size
        first = not self.renderer.touch
        if first:  # a panel plugged in after the start: it touches
            self.renderer.touch = True
            self.renderer.invalidate()
        for touch in touches:
            x = min(max(touch.x, 0.0), 1.0) * (w - 1)
            y = min(max(touch.y, 0.0), 1.0) * (h - 1)
            pos = self.to_logical((x, y))
            if first:
                # Where a new panel's first finger lands says whether it is the right way
                # round (touch.swap_xy, invert_x, invert_y) without a screen to look at.
                log.info("touch: the panel's first touch, at %d,%d on the screen: %s",
                         pos[0], pos[1], self.renderer.hit(pos) or "no button there")
                first = False
            pointer = ("panel", touch.finger)
            intent: Intent | None = None
            if touch.kind == "down":
                self.pointer_down(pointer, pos, touch.t)
            elif touch.kind == "move":
                intent = self.pointer_move(pointer, pos, touch.t)
            else:
                intent = self.pointer_up(pointer, pos, touch.t, touch.cancelled)
            if intent is not None:
                self._pending.append(intent)
        self.wake()

    # Remote keys (TV remote, gamepad, keyboard): arrows move the focus ring in the back
    # buffer at once; OK is a tap on the focused target; the rest are table buttons.

    def remote_key(self, key: str, text: str = "") -> Intent | None:
        """What a remote key means on the screen shown now (drivers/remote.py's names).
        `text` is what a keyboard's key types ("a", " ", "\b" for Backspace): on the seat
        pad it types the name (H is a letter there, Space a space, Backspace rubs out)."""
        typed = self._typed(text)
        if typed is not None:
            return typed
        if key in ("up", "down", "left", "right"):
            if self.focus.move(key):  # type: ignore[arg-type]  # one of the four
                self._show_focus()
            return None
        if key == "ok":
            was_visible = self.focus.visible
            intent = self.focus.choose()
            if not was_visible:
                self._show_focus()
            return intent
        if key == "back":
            return Back()
        if key == "pause":
            return TogglePause()
        if key == "menu":
            return HostCorner()  # the PIN pad, as the corner held down
        if key.isdigit() and len(key) == 1:
            pressed = self.focus.find(PinKey(key))
            # A digit typed: OK is what comes next (not the ⌫ the ring may be on).
            if pressed is not None and self.focus.go(PinKey("ok")) and self.focus.visible:
                self._show_focus()
            return pressed
        return _BUTTON_KEYS.get(key)

    def _typed(self, text: str) -> Intent | None:
        """The seat pad's key for a typed character, if the pad is on screen."""
        if not text:
            return None
        if text == "\b":
            return self.focus.find(SeatPadKey("back"))
        if text == " ":
            return self.focus.find(SeatPadKey("space"))
        return self.focus.find(SeatPadKey("letter", text.upper()))

    def feed_remote(self, presses: Iterable[RemoteLike]) -> None:
        """Remote keys from drivers.remote (on the loop's thread): the ring moves now,
        intents wait for the next poll, and the loop is woken."""
        for press in presses:
            intent = self.remote_key(press.key, getattr(press, "text", ""))
            if intent is not None:
                self._pending.append(intent)
        self.wake()

    def _show_focus(self) -> None:
        if self.drawing is not None:
            return  # the frame being drawn shows the ring where it is by then
        dirty = self.focus.draw(self.frame)
        if dirty is not None:
            self._present(dirty)

    def _intent_of(self, event: pygame.event.Event) -> Intent | None:
        etype = event.type
        if etype == pygame.QUIT:
            return Quit()
        if etype == pygame.KEYDOWN:
            return self._key(event)
        if etype == pygame.KEYUP:
            self._key_up(event)
            return None
        if etype == pygame.WINDOWFOCUSLOST and self.key_repeat is not None:
            self.key_repeat.release()  # its key-up goes to another window
        # SDL also synthesises mouse events from touches; those are handled as fingers.
        mouse = etype in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
        ) and not getattr(event, "touch", False)
        finger = etype in (pygame.FINGERDOWN, pygame.FINGERMOTION, pygame.FINGERUP)
        if mouse and etype == pygame.MOUSEMOTION:
            if event.buttons[0]:
                return self.pointer_move("mouse", self.to_logical(event.pos), time.monotonic())
        elif mouse and event.button == 1:
            pos, now = self.to_logical(event.pos), time.monotonic()
            if etype == pygame.MOUSEBUTTONDOWN:
                self.pointer_down("mouse", pos, now)
            else:
                return self.pointer_up("mouse", pos, now)
        elif finger and self.touch_source == "sdl":
            pointer = ("finger", event.touch_id, event.finger_id)
            pos, now = self._finger_pos(event), time.monotonic()
            if etype == pygame.FINGERDOWN:
                self.pointer_down(pointer, pos, now)
            elif etype == pygame.FINGERMOTION:
                return self.pointer_move(pointer, pos, now)
            else:
                return self.pointer_up(pointer, pos, now)
        elif etype in (pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED, pygame.VIDEOEXPOSE):
            self.renderer.invalidate()
        elif etype in (pygame.WINDOWSIZECHANGED, pygame.VIDEORESIZE) and self.presenter.resized():
            self._attach()
        return None

    def _key(self, event: pygame.event.Event) -> Intent | None:
        key = event.key
        if key == pygame.K_F11:
            # A desktop's window goes fullscreen and back; on the box (fullscreen from the
            # start, KMS/DRM) a USB keyboard's F11 must not resize the screen under it.
            if not self.choice.fullscreen and not self.choice.headless:
                self.toggle_fullscreen()
            return None
        if self.keys_source != "sdl" or self.sdl_keys is None:
            return None  # keyboards come through drivers.remote (or not at all)
        # No key quits: Escape is Back, like the remote's (quitting is the host's).
        name = pygame.key.name(key)
        remote = self.sdl_keys(name, bool(event.mod & pygame.KMOD_SHIFT))
        text = _SDL_TEXT.get(name, name if len(name) == 1 and name.isalpha() else "")
        if text and self._typed(text) is not None:
            return self._typed(text)
        if remote is None:
            return None
        if remote in _ARROWS and self.key_repeat is not None:
            self.key_repeat.hold(remote, "keyboard", time.monotonic())
        return self.remote_key(remote)

    def _key_up(self, event: pygame.event.Event) -> None:
        repeat = self.key_repeat
        if repeat is None or repeat.key is None or self.sdl_keys is None:
            return
        remote = self.sdl_keys(pygame.key.name(event.key), bool(event.mod & pygame.KMOD_SHIFT))
        if remote == repeat.key:
            repeat.release()

    def toggle_fullscreen(self) -> None:
        self.presenter.toggle_fullscreen()
        if self.presenter.resized():
            self._attach()


async def run_kiosk(
    kiosk: Kiosk,
    get_view: Callable[[], Mapping[str, Any]],
    clock: Callable[[], float],
    on_intent: Callable[[Intent], None],
    stop: asyncio.Event,
    idle_interval: float = 0.05,
    on_frame: Callable[[], None] | None = None,
) -> None:
    """Poll input, hand intents to `on_intent`, redraw when the view changed, sleep.

    Runs until `stop` is set (a Quit intent is only reported: the caller decides).
    One iteration per `idle_interval` (20 Hz) while anything moves: a tap is answered
    within 50 ms; when nothing does, a few a second (`Kiosk.idle_wait`), and an unchanged
    view costs a dictionary look-up, so the loop idles near zero CPU. A broken
    view or intent handler is logged and the loop goes on: the table must keep its screen.
    `on_frame` runs after every iteration (e.g. a systemd watchdog ping). Frames are
    drawn on the kiosk's worker thread (`Kiosk.update_async`), the GIL handed over every
    DRAW_SWITCH_S meanwhile.
    """
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(min(switch_interval, DRAW_SWITCH_S))
    try:
        await _kiosk_turns(kiosk, get_view, clock, on_intent, stop, idle_interval, on_frame)
    finally:
        sys.setswitchinterval(switch_interval)


async def _kiosk_turns(
    kiosk: Kiosk,
    get_view: Callable[[], Mapping[str, Any]],
    clock: Callable[[], float],
    on_intent: Callable[[Intent], None],
    stop: asyncio.Event,
    idle_interval: float,
    on_frame: Callable[[], None] | None,
) -> None:
    failed_version: object = _NO_PRESS
    while not stop.is_set():
        # Ink drawn by the touch panel since the last turn shows now, even if a broken
        # view stops the frame below from being drawn.
        kiosk.present_ink()
        for intent in kiosk.poll():
            try:
                on_intent(intent)
            except Exception:
                log.exception("kiosk intent %r failed", intent)
        view: Mapping[str, Any] | None = None
        try:
            view = get_view()
            await kiosk.update_async(view, clock())
        except Exception:
            version = view.get("version") if isinstance(view, Mapping) else None
            if version != failed_version:
                log.exception("kiosk could not draw view version %r", version)
                failed_version = version
            if isinstance(view, Mapping):
                # Don't retry the same broken view 20 times a second.
                kiosk.renderer.mark_drawn(view, clock(), kiosk.size)
        if on_frame is not None:
            on_frame()
        # Woken by a change (at once after a quiet moment, so a move shows within a
        # millisecond; during a flood as VIEW_SHARE allows), else 20 Hz
        # for touch input and the hourglass, a few Hz when nothing moves (`idle_wait`);
        # ink held back by the rate cap is shown on time.
        ink_wait = kiosk.ink_wait()
        wait = kiosk.idle_wait(view, clock(), idle_interval)
        await kiosk.nap(wait if ink_wait is None else min(wait, ink_wait))
