"""The table's GPIO panel, on gpiozero's own MockFactory (MockPWMPin for the dimmed LEDs).

Buttons: a press is one action, a chattering press is still one, a long press is the long
action; edges from gpiozero's threads reach the session on the loop's thread. Outputs
follow the view over an injected clock: the bar graph drains with the hourglass, waiting
buttons pulse, a reveal sweeps, time up buzzes. A part that cannot be used stops the
start naming its pin.
"""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from appliance.app import Appliance
from appliance.system.config import (
    Config,
    ConfigError,
    DisplaySettings,
    PanelSettings,
    ServerSettings,
    StorageSettings,
    load,
)
from appliance.system.table_lights import BUZZ, PULSE_S, REVEAL_S, LightShow, lights_at
from appliance.table.session import HOST, PALETTE
from drivers.panel import (
    DARK,
    Lights,
    Panel,
    PanelError,
    PanelWiring,
    Press,
    choose_pin_factory,
)
from tests.conftest import FakeClock
from tests.process import free_port
from tests.toygame import RaceToTwenty

WIRING = PanelWiring(
    buttons={"hourglass": 17, "die": 27, "reveal": 22},
    leds={"hourglass": 23, "die": 24, "reveal": 25},
    bar=(4, 5, 6, 12, 13, 16, 19, 20, 21, 26),
    buzzer=18,
    buzzer_kind="onoff",
    bounce_s=0.03,
    hold_s=0.15,
)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


@pytest.fixture
async def panel(factory: MockFactory) -> AsyncIterator[tuple[Panel, list[Press]]]:
    presses: list[Press] = []
    made = Panel(WIRING, factory, presses.append, asyncio.get_running_loop())
    yield made, presses
    made.close()


async def settle(seconds: float = 0.0) -> None:
    """Let the loop run what gpiozero's handlers handed it (and timers due by then)."""
    await asyncio.sleep(seconds)
    await asyncio.sleep(0)


def tap(pin: Any) -> None:
    pin.drive_low()  # the buttons pull up: pressed is low
    pin.drive_high()


# --- buttons ----------------------------------------------------------------------------


async def test_a_press_is_one_action(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    _, presses = panel
    factory.pin(27).drive_low()
    await settle()
    assert [(p.button, p.long) for p in presses] == [("die", False)]
    await settle(0.05)
    factory.pin(27).drive_high()
    await settle(0.05)
    factory.pin(22).drive_low()
    await settle(0.05)
    factory.pin(22).drive_high()
    await settle(0.05)
    assert [(p.button, p.long) for p in presses] == [("die", False), ("reveal", False)]


async def test_a_bouncy_press_is_still_one(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    _, presses = panel
    die = factory.pin(27)
    # Five edges within a few microseconds, well inside bounce_time: one press...
    die.drive_low()
    die.drive_high()
    die.drive_low()
    die.drive_high()
    die.drive_low()
    await settle(0.06)
    # ...and the release chatters too.
    die.drive_high()
    die.drive_low()
    die.drive_high()
    await settle(0.06)
    assert [p.button for p in presses] == ["die"]
    # The next real press counts again.
    tap(die)
    await settle(0.06)
    assert [p.button for p in presses] == ["die", "die"]


async def test_a_release_lost_in_the_chatter_is_read_again(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    made, presses = panel
    die = factory.pin(27)
    tap(die)  # shorter than bounce_time: the release edge falls in the lock-out
    await settle(0.08)
    assert [p.button for p in presses] == ["die"]
    assert not made._debounce["die"].down, "the line settled high: the button is up"
    tap(die)
    await settle(0.08)
    assert [p.button for p in presses] == ["die", "die"]


async def test_hourglass_short_press_acts_on_release(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    _, presses = panel
    hourglass = factory.pin(17)
    hourglass.drive_low()
    await settle(0.05)
    assert presses == [], "a short press is only known when the button comes up"
    hourglass.drive_high()
    await settle()
    assert [(p.button, p.long) for p in presses] == [("hourglass", False)]


async def test_hourglass_long_press_is_the_long_action_only(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    _, presses = panel
    hourglass = factory.pin(17)
    hourglass.drive_low()
    await settle(WIRING.hold_s + 0.1)
    assert [(p.button, p.long) for p in presses] == [("hourglass", True)], "fires while held"
    hourglass.drive_high()
    await settle(0.05)
    assert [(p.button, p.long) for p in presses] == [("hourglass", True)]


async def test_edges_from_gpiozero_threads_arrive_on_the_loop_thread(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    made, _ = panel
    seen: list[int] = []
    made.on_press = lambda press: seen.append(threading.get_ident())
    worker = threading.Thread(target=factory.pin(27).drive_low)
    worker.start()
    worker.join()
    await settle(0.02)
    assert seen == [threading.get_ident()]


# --- outputs ----------------------------------------------------------------------------


def bar_values(factory: MockFactory) -> list[float]:
    return [float(factory.pin(pin).state) for pin in WIRING.bar]


async def test_show_sets_the_bar_with_pwm_for_the_last_led(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    made, _ = panel
    made.show(Lights(bar=0.55, buttons=(1.0, 0.0, 0.25), tone=440.0))
    assert bar_values(factory) == [1, 1, 1, 1, 1, pytest.approx(0.5), 0, 0, 0, 0]
    assert [factory.pin(p).state for p in (23, 24, 25)] == [1, 0, 0.25]
    assert factory.pin(18).state == 1
    made.show(DARK)
    assert bar_values(factory) == [0] * 10
    assert factory.pin(18).state == 0


def playing_view(
    *, at: float | None = None, length: float = 30, buttons: list[str] | None = None,
    seq: int = 0, kind: str | None = None, match_id: int = 1,
) -> dict[str, Any]:
    deadline = None if at is None else {"at": at, "length": length, "remaining": 0,
                                        "what": "hourglass"}
    return {
        "phase": "playing",
        "match": {
            "id": match_id,
            "deadline": deadline,
            "buttons": buttons or [],
            "cue": {"seq": seq, "kind": kind},
        },
    }


def test_the_bar_drains_with_the_hourglass() -> None:
    view = playing_view(at=1030.0, length=30)
    fractions = [lights_at(view, 1000.0 + t).bar for t in (0, 3, 15, 27, 30, 40)]
    assert fractions == pytest.approx([1.0, 0.9, 0.5, 0.1, 0.0, 0.0])
    assert lights_at(playing_view(), 1000.0).bar == 0.0, "no hourglass: the bar is dark"
    assert lights_at({"phase": "lobby", "match": None}, 0.0) == DARK


def test_waiting_buttons_pulse_and_the_others_stay_dark() -> None:
    view = playing_view(buttons=["die"])
    levels = [lights_at(view, t * PULSE_S / 8).buttons for t in range(9)]
    assert all(h == 0.0 and r == 0.0 for h, _, r in levels)
    die = [d for _, d, _ in levels]
    assert min(die) == pytest.approx(0.1) and max(die) == pytest.approx(1.0)
    assert die[0] == pytest.approx(die[8]), "one breath per PULSE_S"


def test_a_reveal_sweeps_the_lights_once() -> None:
    show = LightShow()
    assert show.lights(playing_view(seq=3, kind="press_reveal"), 100.0) == DARK, (
        "the first look at a match plays nothing (a restart must not flash)"
    )
    show.lights(playing_view(seq=4, kind="reveal"), 200.0)
    sweep = [show.lights(playing_view(seq=4, kind="reveal"), 200.0 + t) for t in
             (0.0, REVEAL_S / 4, REVEAL_S / 2, 3 * REVEAL_S / 4)]
    assert [round(s.bar, 2) for s in sweep] == [0.0, 0.5, 1.0, 0.5]
    assert any(s.buttons == (1.0, 1.0, 1.0) for s in sweep)
    assert show.lights(playing_view(seq=4, kind="reveal"), 200.0 + REVEAL_S) == DARK


def test_time_up_sounds_the_buzzer_once() -> None:
    clock = FakeClock()
    show = LightShow()
    show.lights(playing_view(at=clock() + 1, seq=1, kind="press_hourglass"), clock())
    clock.advance(1)
    tones = []
    for _ in range(14):
        tones.append(show.lights(playing_view(seq=2, kind="time_up"), clock()).tone)
        clock.advance(0.1)
    assert tones[0] == BUZZ[0][2]
    assert {t for t in tones if t is not None} == {hz for _, _, hz in BUZZ}
    assert tones[-1] is None, "the buzzer stops"
    assert None in tones[:8], "beeps, not one long tone"


# --- the panel in the appliance ---------------------------------------------------------


@pytest.fixture
async def box(tmp_path: Path) -> AsyncIterator[Appliance]:
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
        panel=PanelSettings(pin_factory="mock", hold_s=0.3),
    )
    clock = FakeClock()
    app = Appliance(config, clock=clock)
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    for _ in range(300):
        if app.kiosk is not None and app.kiosk.frames_drawn:
            break
        await asyncio.sleep(0.01)
    yield app
    stop.set()
    await asyncio.wait_for(task, 10)


async def wait_for(predicate: Any, timeout: float = 3.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_panel_buttons_drive_a_game_and_the_bar_drains(
    box: Appliance, race: RaceToTwenty
) -> None:
    session, clock = box.session, box.clock
    assert isinstance(clock, FakeClock)
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.select(HOST, "race")  # the kiosk hosts
    session.start(HOST)
    assert session.match is not None
    match_id = session.match.record.id
    pins = {name: button.pin for name, button in box.panel.buttons.items()}
    # The race's table waits for HOURGLASS and DIE: their LEDs breathe, REVEAL's is dark.
    await wait_for(lambda: box.panel.shown is not None and box.panel.shown.buttons[2] == 0.0
                   and max(box.panel.shown.buttons[:2]) > 0)
    pins["die"].drive_low()
    pins["die"].drive_high()
    pins["hourglass"].drive_low()
    await asyncio.sleep(0.05)
    pins["hourglass"].drive_high()
    await wait_for(lambda: len(box.store.actions(match_id)) == 2)
    kinds = [a.action.kind for a in box.store.actions(match_id)]
    assert kinds == ["press_die", "press_hourglass"]
    await wait_for(lambda: box.panel.shown is not None and box.panel.shown.bar == 1.0)
    clock.advance(15)  # the race's hourglass is 30 s
    await wait_for(lambda: box.panel.shown is not None
                   and box.panel.shown.bar == pytest.approx(0.5))
    clock.advance(16)  # time up: the session applies it, the buzzer sounds
    await wait_for(lambda: box.panel.shown is not None and box.panel.shown.tone is not None)
    assert [a.action.kind for a in box.store.actions(match_id)][-1] == "time_up"


async def test_a_long_press_reaches_the_session_as_the_long_action(
    box: Appliance, race: RaceToTwenty
) -> None:
    session = box.session
    session.join("Ada", PALETTE[0])
    session.join("Bo", PALETTE[1])
    session.select(HOST, "race")
    session.start(HOST)
    asked: list[tuple[str, bool]] = []
    real_press = session.press

    def press(button: str, long: bool = False) -> bool:
        asked.append((button, long))
        return real_press(button, long)

    session.press = press  # type: ignore[method-assign]
    pin = box.panel.buttons["hourglass"].pin
    pin.drive_low()
    await asyncio.sleep(0.45)
    pin.drive_high()
    await asyncio.sleep(0.05)
    assert asked == [("hourglass", True)]


async def test_without_a_real_panel_the_kiosk_draws_its_buttons(box: Appliance) -> None:
    assert box.kiosk.renderer.panel_buttons, "a simulated panel: the buttons are on screen"


# --- choosing the library, and parts that cannot be used --------------------------------


def test_no_pi_means_the_simulated_panel_said_once() -> None:
    choice = choose_pin_factory("auto", on_pi=False)
    assert choice.simulated and "no Raspberry Pi" in choice.reason


def test_on_a_pi_the_simulation_is_only_used_by_name() -> None:
    choice = choose_pin_factory("mock", on_pi=True)
    assert choice.simulated and "although this is a Raspberry Pi" in choice.reason
    # "auto" on a Pi never falls back to the simulation: here neither lgpio nor RPi.GPIO
    # is installed, so it says what to install.
    with pytest.raises(PanelError, match="python3-lgpio"):
        choose_pin_factory("auto", on_pi=True)


async def test_a_busy_pin_names_the_part_and_the_pin(factory: MockFactory) -> None:
    from gpiozero import LED

    squatter = LED(24, pin_factory=factory)
    try:
        with pytest.raises(PanelError, match="DIE button's LED on GPIO24") as caught:
            Panel(WIRING, factory, lambda press: None, asyncio.get_running_loop())
        assert caught.value.pin == 24
        # Everything opened before the failure was released again.
        Panel(dataclasses.replace(WIRING, leds={}), factory, lambda press: None,
              asyncio.get_running_loop()).close()
    finally:
        squatter.close()


async def test_a_panel_that_cannot_start_leaves_the_box_on_its_on_screen_buttons(
    tmp_path: Path,
) -> None:
    """A busy or missing pin must not keep the box dark (tests/test_pi_system.py has the
    notice on the kiosk and the log line)."""
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
        panel=PanelSettings(pin_factory="mock", buzzer=28),  # no GPIO28 on the header
    )
    app = Appliance(config, clock=FakeClock())
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    try:
        for _ in range(500):
            if app.kiosk is not None and app.kiosk.frames_drawn:
                break
            await asyncio.sleep(0.01)
        assert app.panel is None and app.kiosk.renderer.panel_buttons
        assert any("GPIO28" in n and "panel.buzzer" in n for n in app.notices)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


def test_panel_settings_are_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[panel]\ndie_button = 17\n")
    with pytest.raises(ConfigError, match=r"panel.hourglass_button and panel.die_button"):
        load(files=[bad], env={})
    bad.write_text('[panel]\nbar = [4, "five"]\n')
    with pytest.raises(ConfigError, match="list of whole numbers"):
        load(files=[bad], env={})
    bad.write_text("[panel]\nbar = [1, 2]\n")
    with pytest.raises(ConfigError, match="GPIO numbers"):
        load(files=[bad], env={})
    assert load(files=[], env={"EASEL_PANEL_BAR": "[4, 5, 6]"}).panel.bar == (4, 5, 6)


async def test_a_passive_buzzer_plays_the_tones(factory: MockFactory) -> None:
    tonal = Panel(dataclasses.replace(WIRING, buzzer_kind="tonal"), factory,
                  lambda press: None, asyncio.get_running_loop())
    try:
        buzzer = factory.pin(18)
        for _, _, hz in BUZZ:
            tonal.show(Lights(tone=hz))
            assert buzzer.frequency == pytest.approx(hz) and buzzer.state == 0.5
        tonal.show(DARK)
        assert buzzer.frequency is None or buzzer.state == 0
    finally:
        tonal.close()


async def test_a_button_held_through_a_restart_does_nothing_until_pressed_again(
    factory: MockFactory,
) -> None:
    """A sticky button (or a child leaning on it while the box restarts) must not fire on
    its own: not when the panel opens, not when it is finally let go."""
    held = factory.pin(17, pin_class=MockPWMPin)
    held.drive_low()
    die = factory.pin(27, pin_class=MockPWMPin)
    die.drive_low()
    presses: list[Press] = []
    made = Panel(WIRING, factory, presses.append, asyncio.get_running_loop())
    try:
        await settle(WIRING.hold_s + 0.1)
        assert presses == [], "no long press for a button already down at start"
        held.drive_high()
        die.drive_high()
        await settle(0.05)
        assert presses == [], "letting go of it is not a press"
        tap(die)
        held.drive_low()
        await settle(0.05)
        held.drive_high()
        await settle(0.05)
        assert [(p.button, p.long) for p in presses] == [("die", False), ("hourglass", False)]
    finally:
        made.close()


async def test_a_stuck_hourglass_button_gives_one_long_press_not_a_stream(
    panel: tuple[Panel, list[Press]], factory: MockFactory
) -> None:
    _, presses = panel
    factory.pin(17).drive_low()
    await settle(4 * WIRING.hold_s)
    assert [(p.button, p.long) for p in presses] == [("hourglass", True)]


async def test_luck_of_the_draw_is_driven_by_the_panel(box: Appliance) -> None:
    """Issue 6 on the panel: DIE picks the subject, HOURGLASS turns the 45 s hourglass and
    the bar graph drains with it, DIE gives the number of categories, REVEAL reveals the
    votes (with the light sweep) and moves on."""
    session, clock = box.session, box.clock
    assert isinstance(clock, FakeClock)
    for i, name in enumerate(("Ada", "Bo", "Cy", "Dee")):
        session.join(name, PALETTE[i])
    session.select(HOST, "luck-of-the-draw")
    session.start(HOST, {"auto_hourglass": False, "speedier": False})
    pins = {name: button.pin for name, button in box.panel.buttons.items()}

    def phase() -> str:
        assert session.match is not None
        return str(session.match.rules.view(session.match.state, None)["phase"])

    async def push(name: str) -> None:
        before = session.version
        pins[name].drive_low()
        await asyncio.sleep(0.05)
        pins[name].drive_high()
        await wait_for(lambda: session.version > before)
        await asyncio.sleep(0.05)  # past the bounce lock-out

    def lit(name: str) -> bool:
        shown = box.panel.shown
        return shown is not None and shown.buttons[("hourglass", "die", "reveal").index(name)] > 0

    assert phase() == "subject"
    await wait_for(lambda: lit("die") and not lit("hourglass") and not lit("reveal"))
    await push("die")
    assert phase() == "ready"
    await wait_for(lambda: lit("hourglass") and not lit("die"))
    await push("hourglass")
    assert phase() == "drawing"
    await wait_for(lambda: box.panel.shown is not None and box.panel.shown.bar == 1.0)
    clock.advance(22.5)
    await wait_for(lambda: box.panel.shown is not None
                   and box.panel.shown.bar == pytest.approx(0.5, abs=0.01))
    for seat in range(4):  # everyone hands in a drawing
        session.act(seat, "stroke", {"points": [[100 + seat, 100, 0], [900, 600, 200]]})
        session.act(seat, "done", {})
    if phase() == "drawing":
        clock.advance(23)
        await wait_for(lambda: phase() != "drawing")
    assert phase() == "categories"
    await wait_for(lambda: box.panel.shown is not None and box.panel.shown.bar == 0.0)
    await push("die")
    assert phase() == "voting"
    assert session.match is not None
    view = session.match.rules.view(session.match.state, 0)
    chips = [d["chip"] for d in view["gallery"]]
    for seat in range(4):
        session.act(seat, "vote", {"chip": chips[seat % 2]})  # a 2-2 tie
    await wait_for(lambda: lit("reveal"))
    await push("reveal")
    assert phase() == "result"
    # The reveal sweep: all three LEDs blink together while the bar fills and empties.
    await wait_for(lambda: box.light_show.reveal_at is not None
                   and box.panel.shown is not None
                   and box.panel.shown.buttons == (1.0, 1.0, 1.0))
    await push("reveal")
    assert phase() in ("voting", "scores")


def test_a_box_without_a_panel_loads_no_gpio_library() -> None:
    # With `[panel] enabled = false` the box still works out its lights (table_lights);
    # that must not cost gpiozero's few megabytes. A fresh interpreter, so that this
    # file's own import of gpiozero does not count.
    loaded = subprocess.run(
        [sys.executable, "-c",
         "import sys, appliance.app, appliance.system.table_lights;"
         "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'lgpio')))"],
        capture_output=True, text=True, check=True, timeout=60,
    ).stdout.strip()
    assert loaded == "[]", loaded
