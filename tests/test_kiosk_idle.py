"""The kiosk loop's pace and the desktop window's held arrows.

A held arrow key in the kiosk's own window (SDL's keyboard) repeats at the one cadence of
every device (drivers.remote.ArrowRepeat) and stops on its key-up; the loop sleeps a few
times a second when nothing moves, and at full pace while a finger is down, the hourglass
runs, or something happened in the last CALM_AFTER_S; a held arrow's next repeat bounds
the nap. Real pygame events on the SDL dummy driver, the real ArrowRepeat.
"""

from __future__ import annotations

import os
import time

import pygame

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from appliance.kiosk import CALM_AFTER_S, IDLE_SLOW_S, Kiosk
from appliance.kiosk.display import DisplayChoice
from drivers.remote import ArrowRepeat, key_for_sdl
from tests.test_kiosk import make_view

HEADLESS = DisplayChoice("dummy", False, True, "tests")


def _key(etype: int, key: int) -> pygame.event.Event:
    return pygame.event.Event(etype, key=key, mod=0, unicode="", scancode=0)


def test_a_held_arrow_in_the_window_repeats_and_stops_when_let_go():
    kiosk = Kiosk(size=(1920, 1080), choice=HEADLESS)
    try:
        kiosk.sdl_keys = key_for_sdl
        kiosk.key_repeat = ArrowRepeat(delay_s=0.05, interval_s=0.05)
        # The PIN pad: four rows of keys, the ring starts at the bottom.
        kiosk.update({**make_view(seats=4), "host_menu": {"state": "pin", "digits": 0}}, 0.0)
        for _ in range(6):
            kiosk.remote_key("down")
        start = kiosk.focus.index
        pygame.event.clear()
        pygame.event.post(_key(pygame.KEYDOWN, pygame.K_UP))
        kiosk.poll()
        seen = [kiosk.focus.index]
        assert seen[0] != start and kiosk.key_repeat.key == "up"
        nap = kiosk.idle_wait(None, 0.0, 0.05)
        assert 0.0 <= nap <= 0.05  # the loop wakes for the repeat
        for _ in range(2):  # held: the ring keeps going up, one row per repeat
            time.sleep(0.06)
            kiosk.poll()
            seen.append(kiosk.focus.index)
        assert len(set(seen)) == 3, f"a held arrow did not repeat: {seen}"
        pygame.event.post(_key(pygame.KEYUP, pygame.K_UP))
        kiosk.poll()
        assert kiosk.key_repeat.key is None and kiosk.key_repeat.next_at is None
        here = kiosk.focus.index
        time.sleep(0.12)
        kiosk.poll()
        assert kiosk.focus.index == here  # let go: no more moves
    finally:
        kiosk.close()


def test_the_loop_slows_when_nothing_moves_and_not_while_something_does():
    kiosk = Kiosk(size=(800, 480), choice=HEADLESS)
    try:
        view = make_view(seats=4)
        kiosk.update(view, 0.0)
        assert kiosk.idle_wait(view, 0.0, 0.05) == 0.05  # just drew: full pace
        kiosk._active_at = time.monotonic() - CALM_AFTER_S - 0.1
        assert kiosk.idle_wait(view, 0.0, 0.05) == IDLE_SLOW_S
        # A mouse button down (a stroke may start): full pace.
        pygame.event.clear()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1))
        kiosk.poll()
        kiosk._active_at = time.monotonic() - CALM_AFTER_S - 0.1
        assert kiosk.idle_wait(view, 0.0, 0.05) == 0.05
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(5, 5), button=1))
        kiosk.poll()
        kiosk._active_at = time.monotonic() - CALM_AFTER_S - 0.1
        assert kiosk.idle_wait(view, 0.0, 0.05) == IDLE_SLOW_S
        # A running hourglass: full pace, so its seconds are drawn on time.
        running = {**view, "phase": "playing",
                   "match": {"deadline": {"at": 30.0, "length": 30.0}, "state": {}}}
        assert kiosk.idle_wait(running, 10.0, 0.05) == 0.05
        # A game waiting for the table's buttons: their LEDs breathe, if a panel has them.
        waiting = {**view, "phase": "playing", "match": {"buttons": ["reveal"], "state": {}}}
        assert kiosk.idle_wait(waiting, 10.0, 0.05) == IDLE_SLOW_S  # no panel: nothing moves
        kiosk.led_pulse = True
        assert kiosk.idle_wait(waiting, 10.0, 0.05) == 0.05
        # Woken by news (a phone's move, the remote, the touch driver): full pace again.
        kiosk.wake()
        assert kiosk.idle_wait(view, 0.0, 0.05) == 0.05
    finally:
        kiosk.close()
