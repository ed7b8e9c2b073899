"""What a day of finished matches may keep: per-match pictures go when the next replaces them.

Found by the spine benchmark (rss_8_phones_mb went from 87 to 104 MB when galleries came)
and a café day of all four games (tests/test_endurance.py): every finished match left a
1080p gallery code strip (1.3 MB) and result banner in the kiosk's part cache, the join
code was cached twice, the text cache held up to 1024 surfaces (~90 MB of big game text
at 1080p), a growing Broad Lines easel kept a full-size board per sheet, the lobby kept
64 matches of best drawings and the simulated panel's pins a list of every light change.
These tests count what is held, not how fast anything is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pygame
import pytest

from appliance.app import Appliance
from appliance.door.host import PinGuard
from appliance.door.kiosk_host import KioskHostMenu
from appliance.kiosk import Kiosk
from appliance.kiosk.broad_lines import StackCache
from appliance.kiosk.display import DisplayChoice
from appliance.kiosk.fonts import Fonts
from appliance.system import memory
from appliance.system.config import Config
from appliance.table.history import BestDrawings, today
from appliance.table.lobby_history import LobbyHistory
from appliance.table.session import HOST, KIOSK, PALETTE, Session
from tests.conftest import FakeClock
from tests.toygame import RaceToTwenty

HEADLESS = DisplayChoice("dummy", False, True, "test")


@pytest.fixture
def kiosk() -> Iterator[Kiosk]:
    made = Kiosk(size=(1920, 1080), choice=HEADLESS)
    yield made
    pygame.event.clear()
    made.close()


def play_race(session: Session, clock: FakeClock) -> None:
    """One short Race to Twenty to its end (the toy game: no drawings)."""
    session.start(HOST, {"target": 5})
    while session.match is not None:
        state = session.match.state
        session.act(state.seats[state.turn], "add", {"n": 3})
        clock.advance(5)


def parts_named(kiosk: Kiosk, name: str) -> list[Any]:
    return [k for k in kiosk.renderer._parts if isinstance(k, tuple) and k[0][0] == name]


def part_bytes(kiosk: Kiosk) -> int:
    return sum(s.get_pitch() * s.get_height() for s in kiosk.renderer._parts.values())


def test_finished_matches_leave_one_gallery_code_banner_and_history_step(
    kiosk: Kiosk, session: Session, clock: FakeClock, race: RaceToTwenty
) -> None:
    for i in range(3):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    history = LobbyHistory(session, clock, 8)
    menu = KioskHostMenu(session, PinGuard("", 5, 60, clock), clock, lambda: None, history)
    held: list[int] = []
    for _ in range(8):
        play_race(session, clock)
        kiosk.update(menu.decorate(session.view_for(KIOSK)), clock())
        assert len(parts_named(kiosk, "finish")) == 1, "the finish shows the gallery code"
        session.leave_finish(HOST)
        kiosk.update(menu.decorate(session.view_for(KIOSK)), clock())
        assert parts_named(kiosk, "gallery"), "the finished screen shows the gallery code"
        clock.advance(130)  # the idle lobby's history cycles under the result
        for _ in range(4):
            kiosk.update(menu.decorate(session.view_for(KIOSK)), clock())
            clock.advance(8)
        assert len(parts_named(kiosk, "gallery")) == 1
        assert len(parts_named(kiosk, "banner")) == 1
        assert len(parts_named(kiosk, "history")) <= 1
        held.append(part_bytes(kiosk))
    # Two matches in, every screen's parts are there; later matches only replace them.
    assert held[-1] <= held[1], [round(b / 2**20, 1) for b in held]


def test_the_text_cache_is_bounded_by_bytes_as_well_as_entries() -> None:
    budget = 2 * 2**20
    fonts = Fonts(max_text_bytes=budget)
    for i in range(300):  # a day's big game texts: ~0.1 MB each at 96 px
        fonts.render(f"The rock is left of the house {i}", 96, (0, 0, 0), True)
    assert fonts.cached_text_bytes <= budget
    held = sum(s.get_pitch() * s.get_height() for s in fonts._texts.values())
    assert held == fonts.cached_text_bytes
    assert fonts.render("The rock is left of the house 299", 96, (0, 0, 0), True) is (
        fonts.render("The rock is left of the house 299", 96, (0, 0, 0), True)
    ), "what was just drawn is still cached"


def test_font_faces_are_bounded_and_the_sizes_in_use_stay_open() -> None:
    fonts = Fonts(max_faces=8)
    title = fonts.font(64, True)
    for size in range(10, 200):  # fitting a day's names tries many sizes in between
        fonts.font(size)
        assert fonts.font(64, True) is title, "a face in use every frame stays open"
    assert len(fonts._fonts) <= 8
    assert fonts.font(12).size("Ada")[0] > 0, "a face closed earlier opens again"


def test_codes_and_texts_painted_into_parts_are_not_cached_twice(
    kiosk: Kiosk, session: Session
) -> None:
    session.join("Ada", PALETTE[0])
    kiosk.update(session.view_for(KIOSK), 0.0)
    assert parts_named(kiosk, "join"), "the join panel is a cached part"
    assert len(kiosk.renderer.qr._cache) == 0, "its QR code lives in the part only"
    assert not any("Ada" in str(key[0]) for key in kiosk.renderer.fonts._texts)


def test_a_growing_easel_keeps_one_board() -> None:
    stacks = StackCache()
    sheets: list[list[Any]] = []
    stroke = {"points": [[100, 100], [800, 500]], "colour": "#222222", "width": 12}
    for _ in range(25):
        sheets.append([stroke])
        stacks.stack(("broad-lines", 1, 1), sheets, (1400, 875))
    assert len(stacks) == 1, "the stacks below the top one are not shown again"
    assert stacks.painted == 25, "each sheet laid once on the stack below"
    assert stacks.bytes == 1400 * 4 * 875


def test_the_stack_cache_is_bounded_by_bytes() -> None:
    stacks = StackCache(max_bytes=3 * 1400 * 4 * 875)
    for round_no in range(10):
        stacks.stack(("broad-lines", 1, round_no), [], (1400, 875))
    assert len(stacks) == 3 and stacks.bytes <= 3 * 1400 * 4 * 875


def test_the_lobby_keeps_the_best_drawings_of_a_few_matches(
    session: Session, clock: FakeClock, race: RaceToTwenty
) -> None:
    for i in range(2):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, "race")
    best = BestDrawings(session.store)
    for _ in range(20):
        play_race(session, clock)
        for record in today(session.store, clock())[-4:]:  # what the lobby asks for
            best.of(record)
    assert len(best._by_match) <= best.keep_count == 8


def test_the_simulated_panel_keeps_no_long_pin_history() -> None:
    from gpiozero import PWMLED

    from drivers.panel import SIMULATED_HISTORY, choose_pin_factory

    choice = choose_pin_factory("mock", on_pi=False)
    led = PWMLED(23, pin_factory=choice.factory)
    try:
        for i in range(1000):  # a day of hourglass ticks on the bar
            led.value = (i % 10) / 10
        assert len(led.pin.states) <= SIMULATED_HISTORY
        assert led.pin.state == pytest.approx(0.9)
    finally:
        led.close()
        choice.factory.close()



async def test_the_box_gives_freed_memory_back_once_per_ended_match(
    config: Config, clock: FakeClock, race: RaceToTwenty, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def release() -> bool:
        calls.append(1)
        return True

    monkeypatch.setattr(memory, "release_free_memory", release)
    app = Appliance(config, clock=clock)
    try:
        for i in range(2):
            app.session.join(f"P{i}", PALETTE[i])
        app.session.select(HOST, "race")
        app._release_after_match()  # every kiosk frame asks; no match has ended yet
        for ended in (1, 2):
            play_race(app.session, clock)
            for _ in range(3):
                app._release_after_match()
            await asyncio.sleep(0.05)  # it runs in a worker thread
            assert len(calls) == ended
    finally:
        app.store.close()


def test_the_c_library_can_give_memory_back_here() -> None:
    # The box runs on Linux with glibc (Raspberry Pi OS), where malloc_trim exists.
    assert memory.release_free_memory()


def test_a_finished_match_lets_go_of_its_games_painted_sheets() -> None:
    from appliance.kiosk.artbox import caches_of
    from appliance.kiosk.render import KioskRenderer

    r = KioskRenderer()
    surface = pygame.Surface((800, 480))
    playing = {"version": 1, "phase": "playing", "match": {"game": "race", "state": {}}}
    stroke = {"points": [[100, 100], [800, 500]], "colour": "#222222", "width": 12}
    r.render(surface, playing, 0.0)
    sheets = caches_of(r).sheets
    sheets.sheet([stroke], (160, 100))
    r.render(surface, {**playing, "version": 2}, 0.0)
    assert caches_of(r).sheets is sheets, "kept while the match runs"
    r.render(surface, {"version": 3, "phase": "finished", "match": {"game": "race"}}, 0.0)
    assert caches_of(r).sheets is not sheets, "the ended match's pictures went with it"
