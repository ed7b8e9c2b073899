"""The box's voice: short sounds synthesised in code, played through pygame's mixer.

The sounds are notes (`Note`), rendered once into 16-bit samples with the standard
library: no sound file, nothing to licence. Everything the mixer does runs on the
speaker's own thread, fed by a small queue: opening an audio device (ALSA, PulseAudio,
HDMI) can take a tenth of a second, which the event loop every phone uses must not wait
for. The device is open only while sounds play and closed `close_after_s` after the
last one: an open device's mixing thread would run all day for nothing (the kiosk's
idle CPU). No device (none, busy, no driver): the speaker says so in one log line and
stays silent.
"""

from __future__ import annotations

import logging
import math
import queue
import threading
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

log = logging.getLogger("easel.sound")

RATE: Final = 22050
"""Samples a second asked of the device (plenty for these tones)."""

ATTACK_S: Final = 0.004
RELEASE_S: Final = 0.012
"""A note's ramps in and out: without them a sine starting or stopping mid-wave clicks."""

PEAK: Final = 0.45
"""A sound's loudest sample as a share of full scale: two at once still do not clip."""

QUEUE_SIZE: Final = 16
"""Sounds waiting to be played, at most; more (a flood of events) are dropped."""


class SoundError(RuntimeError):
    """A sound cannot be played: an unknown name, or notes that make no sound."""


@dataclass(frozen=True)
class Note:
    """One tone of a sound: from `at` seconds for `length` seconds at `hz`, `gain` 0..1.

    Its loudness falls away over its length (a struck bell or a marimba, not an organ),
    with a soft second and third harmonic for warmth."""

    at: float
    length: float
    hz: float
    gain: float = 1.0

    def __post_init__(self) -> None:
        if not (0 <= self.at <= 10 and 0 < self.length <= 5 and 20 <= self.hz <= 10_000
                and 0 < self.gain <= 1):
            raise SoundError(f"a note must be 0-10 s in, 0-5 s long, 20-10000 Hz, gain "
                             f"0-1: {self}")


def render(notes: tuple[Note, ...], rate: int = RATE, channels: int = 1) -> bytes:
    """The notes as signed 16-bit samples in the machine's byte order, `channels` interleaved."""
    if not notes:
        raise SoundError("a sound needs at least one note")
    end = max(n.at + n.length for n in notes)
    total = int(end * rate) + 1
    mix = [0.0] * total
    attack = max(1, int(ATTACK_S * rate))
    release = max(1, int(RELEASE_S * rate))
    for note in notes:
        first = int(note.at * rate)
        count = max(1, int(note.length * rate))
        step = 2 * math.pi * note.hz / rate
        decay = 4.0 / count  # e^-4 (2 %) at the note's end
        for i in range(count):
            phase = step * i
            tone = math.sin(phase) + 0.25 * math.sin(2 * phase) + 0.08 * math.sin(3 * phase)
            ramp = min(1.0, i / attack, (count - i) / release)
            mix[first + i] += note.gain * ramp * math.exp(-decay * i) * tone
    loudest = max(abs(s) for s in mix) or 1.0
    scale = PEAK * 32767 / loudest
    samples = array("h", (int(s * scale) for s in mix for _ in range(channels)))
    return samples.tobytes()  # native order: the mixer is opened for AUDIO_S16SYS


Played = Callable[[str, bool], None]
"""Told after each sound is started: its name, and whether the mixer is playing it."""


class Speaker:
    """Plays named sounds on a thread of its own; `play` never blocks or raises."""

    def __init__(
        self,
        sounds: Mapping[str, tuple[Note, ...]],
        *,
        close_after_s: float = 30.0,
        on_played: Played | None = None,
    ) -> None:
        for name, notes in sounds.items():
            if not notes:
                raise SoundError(f"the sound {name!r} has no notes")
        self.sounds = dict(sounds)
        self.close_after_s = close_after_s
        self.on_played = on_played
        self.available: bool | None = None  # None until the device was tried
        self._queue: queue.Queue[tuple[str, float] | None] = queue.Queue(QUEUE_SIZE)
        self._thread: threading.Thread | None = None
        self._rendered: dict[tuple[str, int, int], bytes] = {}
        self._open = False
        self.ready = threading.Event()  # set once the device was tried

    def start(self) -> None:
        """Try the device (on the thread) and wait there for sounds."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
            self._thread.start()

    def play(self, name: str, volume: float) -> None:
        """Play `name` at `volume` (0..1) soon; nothing if silent or the queue is full."""
        if name not in self.sounds:
            raise SoundError(f"no sound named {name!r}; known: {', '.join(self.sounds)}")
        if self.available is False or volume <= 0:
            return
        try:
            self._queue.put_nowait((name, min(1.0, volume)))
        except queue.Full:
            log.debug("sound %s dropped: %d waiting", name, QUEUE_SIZE)

    def close(self, timeout: float = 2.0) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            return
        thread.join(timeout)

    # -- the speaker's thread ------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._probe()
        finally:
            self.ready.set()
        if not self.available:
            return
        while True:
            try:
                item = self._queue.get(timeout=self.close_after_s if self._open else None)
            except queue.Empty:
                self._close_if_silent()
                continue
            if item is None:
                self._shut()
                return
            try:
                self._play_now(*item)
            except Exception:  # a lost device must not end the box's voice for the day
                log.exception("sound %s could not be played", item[0])
                self._shut()

    def _probe(self) -> None:
        import pygame

        try:
            self._mixer_open()
        except Exception as err:  # pygame.error, or no mixer module in this build
            self.available = False
            log.info("sound: off, no sound device (%s)", err or type(err).__name__)
            return
        driver = pygame.mixer.get_init()
        self.available = True
        log.info("sound: on (%s Hz, %s channels; the device is closed while silent)",
                 driver[0] if driver else "?", driver[2] if driver else "?")
        self._shut()

    def _mixer_open(self) -> None:
        import pygame

        if not self._open:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=512)
            pygame.mixer.set_num_channels(8)
            self._open = True

    def _shut(self) -> None:
        import pygame

        if self._open:
            self._open = False
            pygame.mixer.quit()

    def _close_if_silent(self) -> None:
        import pygame

        if self._open and not pygame.mixer.get_busy():
            self._shut()

    def _sound(self, name: str) -> Any:
        import pygame

        init = pygame.mixer.get_init()
        rate, channels = (init[0], init[2]) if init else (RATE, 1)
        key = (name, rate, channels)
        data = self._rendered.get(key)
        if data is None:
            data = self._rendered[key] = render(self.sounds[name], rate, channels)
        return pygame.mixer.Sound(buffer=data)

    def _play_now(self, name: str, volume: float) -> None:
        import pygame

        self._mixer_open()
        sound = self._sound(name)
        sound.set_volume(volume)
        # With every channel taken (a burst of moves), the newest event is the one to hear:
        # the channel playing longest gives way (Sound.play would drop the new one).
        channel = pygame.mixer.find_channel(True)
        if channel is not None:
            channel.play(sound)
        if self.on_played is not None:
            self.on_played(name, channel is not None and channel.get_busy())
