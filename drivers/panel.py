"""The table's panel on the Pi's GPIO header, through gpiozero.

Three arcade buttons with an LED inside (HOURGLASS, DIE, REVEAL), a bar graph of LEDs
that is the hourglass, and a buzzer. `Panel` turns button edges into `Press` values on
the asyncio loop and sets its outputs from a `Lights` value; it knows nothing of games.

Threads: gpiozero calls button handlers on its own threads (lgpio's callback thread, or
whoever drives a mock pin). The handlers only stamp the time and hand the edge to the
loop with `call_soon_threadsafe`; debouncing, the long press and the `on_press` callback
all run on the loop's thread, so whoever receives presses never sees another thread.

Debouncing is done here, not by the pin library: gpiozero's MockPin ignores bounce_time,
and lgpio and RPi.GPIO debounce differently (a settle delay versus a lock-out), so one
behaviour for every backend keeps the tests honest. DIE and REVEAL act the moment they go
down; HOURGLASS acts when let go (a short press) or once held for `hold_s` (the long
press), so one push never counts as both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from gpiozero import PWMLED, Button, Buzzer, LEDBarGraph, TonalBuzzer
from gpiozero.tones import Tone

from drivers.lights import BUTTONS, DARK, ButtonName, Lights

log = logging.getLogger(__name__)

BuzzerKind = Literal["onoff", "tonal", "none"]
FactoryName = Literal["auto", "lgpio", "rpigpio", "mock"]

# A passive buzzer is played within two octaves of A4 (gpiozero refuses tones outside).
_MID_TONE: Final = 440.0
_OCTAVES: Final = 2


class PanelError(RuntimeError):
    """A part of the panel cannot be used: its pin is missing, busy or unsupported, or the
    GPIO library is absent. `part` and `pin` name it for the message that stops the start."""

    def __init__(self, message: str, *, part: str = "", pin: int | None = None) -> None:
        super().__init__(message)
        self.part = part
        self.pin = pin


@dataclass(frozen=True)
class PanelWiring:
    """Which GPIO (BCM number) each part is on, and how buttons are read."""

    buttons: Mapping[ButtonName, int]
    leds: Mapping[ButtonName, int]
    bar: tuple[int, ...]
    buzzer: int | None = None
    buzzer_kind: BuzzerKind = "onoff"
    bounce_s: float = 0.03
    hold_s: float = 1.5


@dataclass(frozen=True)
class Press:
    """A button pressed on the panel (`long`: HOURGLASS held), at `at` on the panel's clock."""

    button: ButtonName
    long: bool = False
    at: float = 0.0


# --- choosing the GPIO library ----------------------------------------------------------


@dataclass(frozen=True)
class FactoryChoice:
    """The pin factory to use and the line the log says about it."""

    factory: Any
    name: str
    reason: str
    simulated: bool = field(default=False)


SIMULATED_HISTORY: Final = 16


def _simulated_pin(base: type[Any]) -> type[Any]:
    """gpiozero's MockPWMPin keeping only its last few changes.

    A mock pin appends every change to `states` (for a test's `assert_states`); the
    simulated panel of a box without a Pi runs all day, and its bar and button lights
    change with every hourglass tick, so that list grew for as long as the box ran."""

    class SimulatedPin(base):  # type: ignore[misc]  # gpiozero has no types
        def _change_state(self, value: Any) -> bool:
            changed = bool(super()._change_state(value))
            if len(self.states) > SIMULATED_HISTORY:
                del self.states[:-SIMULATED_HISTORY]
            return changed

    return SimulatedPin


def choose_pin_factory(name: FactoryName, on_pi: bool) -> FactoryChoice:
    """The gpiozero pin factory for `name` on this machine, or PanelError saying the fix.

    "auto" picks lgpio (then RPi.GPIO) on a Pi and a simulated panel elsewhere; on a Pi
    the simulation is only ever used when asked for by name.
    """
    if name == "mock" or (name == "auto" and not on_pi):
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        reason = (
            "simulated, as panel.pin_factory asks, although this is a Raspberry Pi"
            if on_pi
            else "simulated: no Raspberry Pi here (keys H, D, R and the on-screen buttons "
            "stand in)"
        )
        factory = MockFactory(pin_class=_simulated_pin(MockPWMPin))
        return FactoryChoice(factory, "mock", reason, True)
    candidates = ["lgpio", "rpigpio"] if name == "auto" else [name]
    problems = []
    for candidate in candidates:
        try:
            factory = _real_factory(candidate)
        except Exception as err:  # each library fails in its own way
            problems.append(f"{candidate}: {err}")
            continue
        return FactoryChoice(factory, candidate, f"GPIO through {candidate}")
    raise PanelError(
        "no GPIO library works here ("
        + "; ".join(problems)
        + "). On Raspberry Pi OS: sudo apt install python3-lgpio (the installer does), "
        "or set panel.enabled = false if this box has no panel"
    )


def _real_factory(name: str) -> Any:
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    from gpiozero.pins.rpigpio import RPiGPIOFactory

    return RPiGPIOFactory()


# --- debouncing one button --------------------------------------------------------------


@dataclass
class Debouncer:
    """One button's debounced state: a change counts unless it comes within `bounce_s`
    of the last change that counted (contacts chatter for a few milliseconds).

    A chattering line can settle opposite to what was last counted (a tap shorter than
    `bounce_s`); `settle` reads the line again once the lock-out has passed.
    """

    bounce_s: float
    down: bool = False
    changed_at: float = float("-inf")

    def edge(self, down: bool, at: float) -> bool:
        """Whether the edge to `down` at `at` is a real change (and record it)."""
        if down == self.down or at - self.changed_at < self.bounce_s:
            return False
        self.down = down
        self.changed_at = at
        return True

    def settles_at(self) -> float:
        return self.changed_at + self.bounce_s


# --- the panel --------------------------------------------------------------------------


class Panel:
    """The panel's gpiozero devices; presses go to `on_press` on `loop`'s thread.

    `factory` is a gpiozero pin factory (see choose_pin_factory; tests pass MockFactory).
    Raises PanelError naming the part and the pin that cannot be used.
    """

    def __init__(
        self,
        wiring: PanelWiring,
        factory: Any,
        on_press: Callable[[Press], None],
        loop: asyncio.AbstractEventLoop,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.wiring = wiring
        self.on_press = on_press
        self.loop = loop
        self.clock = clock
        self._devices: list[Any] = []
        self._debounce = {name: Debouncer(wiring.bounce_s) for name in BUTTONS}
        self._hold_timer: asyncio.TimerHandle | None = None
        self._settle_timers: dict[ButtonName, asyncio.TimerHandle] = {}
        self._held = False
        self._shown: Lights | None = None
        try:
            self.buttons = {
                name: self._open(Button, f"the {name.upper()} button", pin, factory,
                                 pull_up=True, bounce_time=None)
                for name, pin in wiring.buttons.items()
            }
            self.leds = {
                name: self._open(PWMLED, f"the {name.upper()} button's LED", pin, factory)
                for name, pin in wiring.leds.items()
            }
            self.bar = self._open_bar(factory)
            self.buzzer = self._open_buzzer(factory)
        except PanelError:
            self.close()
            raise
        for name, button in self.buttons.items():
            button.when_pressed = self._edge_handler(name, True)
            button.when_released = self._edge_handler(name, False)

    def _open(self, cls: Any, part: str, pin: int, factory: Any, **kwargs: Any) -> Any:
        try:
            device = cls(pin, pin_factory=factory, **kwargs)
        except Exception as err:  # gpiozero and the backends raise many kinds
            raise PanelError(f"{part} on GPIO{pin} cannot be used: {err}", part=part,
                             pin=pin) from err
        self._devices.append(device)
        return device

    def _open_bar(self, factory: Any) -> LEDBarGraph | None:
        pins = self.wiring.bar
        if not pins:
            return None
        # Opened one pin at a time first, so an error names the LED that failed.
        for i, pin in enumerate(pins):
            probe = self._open(PWMLED, f"bar graph LED {i + 1}", pin, factory)
            probe.close()
            self._devices.remove(probe)
        return self._open(_Bar, "the bar graph", pins[0], factory, pins=pins)

    def _open_buzzer(self, factory: Any) -> Any:
        pin, kind = self.wiring.buzzer, self.wiring.buzzer_kind
        if pin is None or kind == "none":
            return None
        if kind == "tonal":
            return self._open(TonalBuzzer, "the buzzer", pin, factory,
                              mid_tone=Tone(frequency=_MID_TONE), octaves=_OCTAVES)
        return self._open(Buzzer, "the buzzer", pin, factory)

    # -- input (gpiozero's thread -> the loop)

    def _edge_handler(self, name: ButtonName, down: bool) -> Callable[[], None]:
        def handler() -> None:
            at = self.clock()
            # RuntimeError: the loop is closed, the box is shutting down.
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(self._edge, name, down, at)

        return handler

    def _edge(self, name: ButtonName, down: bool, at: float) -> None:
        debouncer = self._debounce[name]
        if not debouncer.edge(down, at):
            if down != debouncer.down:
                self._settle_later(name)
            return
        if name != "hourglass":
            if down:
                self.on_press(Press(name, False, at))
            return
        if down:
            self._held = False
            self._cancel_hold()
            self._hold_timer = self.loop.call_later(self.wiring.hold_s, self._hold_fired)
        else:
            self._cancel_hold()
            if not self._held:
                self.on_press(Press("hourglass", False, at))

    def _settle_later(self, name: ButtonName) -> None:
        """Read the line again once the lock-out passes: it may have settled opposite."""
        if name in self._settle_timers:
            return
        delay = max(0.0, self._debounce[name].settles_at() - self.clock())

        def settle() -> None:
            self._settle_timers.pop(name, None)
            button = self.buttons.get(name)
            if button is not None and not button.closed:
                self._edge(name, bool(button.is_pressed), self.clock())

        self._settle_timers[name] = self.loop.call_later(delay, settle)

    def _hold_fired(self) -> None:
        self._hold_timer = None
        if self._debounce["hourglass"].down:
            self._held = True
            self.on_press(Press("hourglass", True, self.clock()))

    def _cancel_hold(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None

    # -- output

    def show(self, lights: Lights) -> None:
        """Set every output to `lights`; writes only what changed since the last call."""
        shown = self._shown
        if shown == lights:
            return
        if self.bar is not None and (shown is None or shown.bar != lights.bar):
            self.bar.value = min(max(lights.bar, 0.0), 1.0)
        for i, name in enumerate(BUTTONS):
            led = self.leds.get(name)
            value = min(max(lights.buttons[i], 0.0), 1.0)
            if led is not None and (shown is None or shown.buttons[i] != lights.buttons[i]):
                led.value = value
        if self.buzzer is not None and (shown is None or shown.tone != lights.tone):
            self._sound(lights.tone)
        self._shown = lights

    def _sound(self, tone: float | None) -> None:
        if isinstance(self.buzzer, TonalBuzzer):
            if tone is None:
                self.buzzer.stop()
            else:
                low, high = _MID_TONE / 2**_OCTAVES, _MID_TONE * 2**_OCTAVES
                self.buzzer.play(Tone(frequency=min(max(tone, low), high)))
        elif tone is None:
            self.buzzer.off()
        else:
            self.buzzer.on()

    @property
    def shown(self) -> Lights | None:
        return self._shown

    def close(self) -> None:
        """Release every pin (lights go dark); safe to call twice."""
        self._cancel_hold()
        for timer in self._settle_timers.values():
            timer.cancel()
        self._settle_timers.clear()
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing must go on for the other pins
                log.debug("closing %r failed", device, exc_info=True)
        self._devices.clear()


class _Bar(LEDBarGraph):  # type: ignore[misc]
    """LEDBarGraph opened through `_open`'s one-pin signature (pins given by keyword)."""

    def __init__(self, _first: int, *, pins: tuple[int, ...], pin_factory: Any) -> None:
        super().__init__(*pins, pwm=True, pin_factory=pin_factory)


__all__ = [
    "BUTTONS",
    "DARK",
    "ButtonName",
    "Debouncer",
    "FactoryChoice",
    "Lights",
    "Panel",
    "PanelError",
    "PanelWiring",
    "Press",
    "choose_pin_factory",
]
