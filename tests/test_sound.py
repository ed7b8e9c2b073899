"""The box's voice: each table event's sound, worked out from the kiosk's public view
(appliance/system/table_sounds.py) and played through pygame's mixer on SDL's dummy
audio driver (drivers/speaker.py); the volume, the mute and the quiet hours."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import random
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from appliance.app import Appliance
from appliance.system.config import (
    Config,
    DisplaySettings,
    PanelSettings,
    ServerSettings,
    SoundSettings,
    StorageSettings,
    TableSettings,
)
from appliance.system.table_sounds import (
    SOUNDS,
    TICK_MIN_LENGTH_S,
    SoundCues,
    SoundLevel,
    in_quiet_hours,
    quiet_hours_error,
    right_guesses,
)
from appliance.table.session import HOST, PALETTE, Refused
from drivers.speaker import Note, SoundError, Speaker, render
from tests.bots import SPEED_OPTIONS, Move, RunOut, Snapshot, choose, press_of
from tests.conftest import FakeClock
from tests.process import free_port
from tests.toygame import RaceToTwenty


def view(
    *, phase: str = "playing", seats: tuple[int, ...] = (0, 1), match_id: int | None = 1,
    seq: int = 0, kind: str | None = None, at: float | None = None, length: float = 30,
    state: dict[str, Any] | None = None,
) -> dict[str, Any]:
    deadline = None if at is None else {"at": at, "length": length, "what": "hourglass"}
    match = None if match_id is None else {
        "id": match_id, "deadline": deadline, "cue": {"seq": seq, "kind": kind},
        "state": state or {},
    }
    return {"phase": phase, "seats": [{"seat": s} for s in seats], "match": match}


def test_the_first_look_says_nothing_then_each_change_has_its_sound() -> None:
    cues = SoundCues()
    assert cues.events(view(seq=5, kind="press_reveal", seats=(0, 1, 2)), 0.0) == [], (
        "a restart or a kiosk that just opened must not play the last move"
    )
    assert cues.events(view(seq=6, kind="reveal", seats=(0, 1, 2)), 1.0) == ["reveal"]
    assert cues.events(view(seq=7, kind="time_up", seats=(0, 1, 2)), 2.0) == ["time_up"]
    assert cues.events(view(seq=8, kind="stroke", seats=(0, 1, 2)), 3.0) == []
    assert cues.events(view(seq=8, kind="stroke", seats=(0, 1, 2, 3)), 3.0) == ["join"]
    guessed = {"guesses": [{"right": True}, {"right": False}]}
    assert cues.events(view(seq=9, kind="mark", seats=(0, 1, 2, 3), state=guessed), 4.0) == [
        "right"]
    assert cues.events(view(phase="over", seats=(0, 1, 2, 3), state=guessed), 5.0) == [
        "finish"]
    # A new match: its first look is silent again (no reveal of its cue 3).
    assert cues.events(view(match_id=2, seq=3, kind="reveal", seats=(0, 1, 2, 3)), 6.0) == []


def test_the_same_view_twice_plays_once() -> None:
    cues = SoundCues()
    cues.events(view(seq=1), 0.0)
    changed = view(seq=2, kind="reveal")
    assert cues.events(changed, 1.0) == ["reveal"]
    assert cues.events(changed, 1.1) == []


def test_the_hourglass_ticks_through_its_last_ten_seconds_once_a_second() -> None:
    cues = SoundCues()
    running = view(at=130.0, length=30, seq=1)
    ticks = []
    for step in range(0, 700):  # 35 s at the kiosk's 20 Hz
        now = 100.0 + step * 0.05
        ticks += [round(now, 2) for e in cues.events(running, now) if e == "tick"]
    assert len(ticks) == 10, ticks
    assert ticks[0] == pytest.approx(120.0, abs=0.06) and ticks[-1] == pytest.approx(
        129.0, abs=0.06)
    assert all(b - a == pytest.approx(1.0, abs=0.06) for a, b in itertools.pairwise(ticks))


def test_a_paused_or_short_hourglass_does_not_tick() -> None:
    cues = SoundCues()
    paused = view(seq=1)
    paused["match"]["deadline"] = {"at": None, "length": 30, "remaining": 5.0}
    short = view(at=110.0, length=10, seq=1)
    assert [e for t in range(200) for e in cues.events(paused, 100 + t * 0.05)] == []
    assert [e for t in range(200) for e in cues.events(short, 100 + t * 0.05)] == []


def test_right_guesses_are_read_from_each_games_public_view() -> None:
    def of(state: dict[str, Any]) -> int:
        return right_guesses({"match": {"state": state}})

    assert of({"guesses": [{"right": True}, {"right": None}, {"right": True}]}) == 2
    assert of({"guessed": {"0": 2, "1": 0, "2": 1}}) == 3  # ArtBox, once shown
    assert of({"results": [{"0": True, "1": False}, {"0": None, "1": True}]}) == 2  # Duplik
    assert of({"guessed": None, "guesses": "nonsense"}) == 0


def test_volume_mute_and_quiet_hours() -> None:
    noon = time.mktime((2026, 12, 3, 12, 0, 0, 0, 0, -1))
    night = time.mktime((2026, 12, 3, 23, 30, 0, 0, 0, -1))
    level = SoundLevel(volume=70, quiet_hours="22:00-08:00")
    assert level.gain_at(noon) == pytest.approx(0.7)
    assert level.gain_at(night) == 0.0, "quiet hours are silent"
    assert level.changed(volume=30).gain_at(noon) == pytest.approx(0.3)
    assert level.changed(muted=True).gain_at(noon) == 0.0
    assert level.changed(volume=250).volume == 100
    assert SoundLevel(enabled=False).gain_at(noon) == 0.0
    assert in_quiet_hours("22:00-08:00", 7 * 60 + 59) and not in_quiet_hours(
        "22:00-08:00", 8 * 60)
    assert in_quiet_hours("13:00-14:30", 14 * 60) and not in_quiet_hours("13:00-14:30", 12 * 60)
    assert quiet_hours_error("") is None and quiet_hours_error("22:00-07:30") is None
    for bad in ("22-8", "24:00-08:00", "22:00-22:00", "22:00 - 08:00"):
        assert quiet_hours_error(bad) is not None, bad


def test_sounds_are_short_and_rendered_without_clipping() -> None:
    for name, notes in SOUNDS.items():
        data = render(notes, 22050, 1)
        seconds = len(data) / 2 / 22050
        assert 0.03 < seconds <= 1.3, name
        samples = memoryview(data).cast("h")
        assert max(abs(s) for s in samples) <= 0.46 * 32767, name
        assert abs(samples[0]) < 200 and abs(samples[-1]) < 200, f"{name} clicks"
    assert len(render(SOUNDS["tick"], 44100, 2)) == 2 * len(render(SOUNDS["tick"], 44100, 1))
    with pytest.raises(SoundError):
        Note(0.0, 0.1, 5.0)
    with pytest.raises(SoundError):
        render(())


def played_speaker() -> tuple[Speaker, list[tuple[str, bool]], threading.Event]:
    heard: list[tuple[str, bool]] = []
    done = threading.Event()

    def played(name: str, busy: bool) -> None:
        heard.append((name, busy))
        done.set()

    return Speaker(SOUNDS, close_after_s=0.2, on_played=played), heard, done


def test_each_sound_plays_through_the_mixer_and_the_device_closes_when_silent() -> None:
    speaker, heard, done = played_speaker()
    speaker.start()
    assert speaker.ready.wait(5) and speaker.available
    try:
        for name in SOUNDS:
            done.clear()
            speaker.play(name, 0.5)
            assert done.wait(5), name
            assert heard[-1] == (name, True), f"the mixer is not playing {name}"
        speaker.play("tick", 0.0)  # silent: never queued
        with pytest.raises(SoundError):
            speaker.play("trumpet", 1.0)
        for _ in range(300):  # the last sound ends, then the device closes
            if not speaker._open:
                break
            time.sleep(0.01)
        assert not speaker._open, "an open device would mix silence all day"
        done.clear()
        speaker.play("join", 1.0)  # it opens again for the next
        assert done.wait(5) and heard[-1] == ("join", True)
    finally:
        speaker.close()
    assert [n for n, _ in heard] == [*SOUNDS, "join"]


def test_a_burst_of_sounds_plays_the_newest() -> None:
    """More sounds at once than the mixer has channels (moves in quick succession): the
    newest is heard, the one playing longest gives way."""
    speaker, heard, _ = played_speaker()
    speaker.start()
    assert speaker.ready.wait(5) and speaker.available
    try:
        for _ in range(12):
            speaker.play("finish", 0.5)  # 1.2 s each: all still playing at the end
        speaker.play("join", 0.5)
        for _ in range(500):
            if len(heard) == 13:
                break
            time.sleep(0.01)
    finally:
        speaker.close()
    assert len(heard) == 13 and all(busy for _, busy in heard), heard


def test_no_sound_device_is_one_line_and_silence(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_device(*args: Any, **kwargs: Any) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    speaker, heard, _ = played_speaker()
    with caplog.at_level(logging.INFO, "easel.sound"):
        speaker.start()
        assert speaker.ready.wait(5)
        for name in SOUNDS:
            speaker.play(name, 1.0)
        speaker.close()
    assert speaker.available is False and heard == []
    lines = [r.getMessage() for r in caplog.records if r.name == "easel.sound"]
    assert lines == ["sound: off, no sound device (No available audio device)"]


# --- in the appliance -------------------------------------------------------------------


@pytest.fixture
async def box(tmp_path: Path) -> AsyncIterator[Appliance]:
    async with running_box(tmp_path, SoundSettings()) as app:
        yield app


@contextlib.asynccontextmanager
async def running_box(tmp_path: Path, sound: SoundSettings) -> AsyncIterator[Appliance]:
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
        panel=PanelSettings(enabled=False),
        # Seats joined here have no phone: the clock run past hourglasses must not make
        # them away (tests/test_people.py plays that).
        table=TableSettings(away_after_s=600, away_wait_s=600),
        sound=sound,
    )
    app = Appliance(config, clock=FakeClock())
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    for _ in range(300):
        if app.kiosk is not None and app.kiosk.frames_drawn and app.speaker is not None:
            break
        await asyncio.sleep(0.01)
    yield app
    stop.set()
    await asyncio.wait_for(task, 10)


async def wait_for(predicate: Any, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_the_appliance_plays_a_join_the_last_ten_seconds_and_time_up(
    box: Appliance, race: RaceToTwenty
) -> None:
    heard: list[str] = []
    box.speaker.on_played = lambda name, busy: heard.append(name if busy else "?" + name)
    assert box.speaker.ready.wait(5) and box.speaker.available
    session, clock = box.session, box.clock
    assert isinstance(clock, FakeClock)
    session.join("Ada", PALETTE[0])
    await wait_for(lambda: heard == ["join"])
    session.join("Bo", PALETTE[1])
    await wait_for(lambda: heard == ["join", "join"])
    session.select(HOST, "race")
    session.start(HOST)
    session.press("hourglass", False)  # the race's hourglass: 30 s
    await asyncio.sleep(0.2)
    clock.advance(19.5)  # 10.5 s left: not yet
    await asyncio.sleep(0.2)
    assert "tick" not in heard
    for _ in range(10):
        clock.advance(1.0)
        await asyncio.sleep(0.15)
    clock.advance(1.0)  # time up
    await wait_for(lambda: "time_up" in heard)
    assert heard.count("tick") == 10, heard
    box.sound.set(muted=True)
    session.join("Cy", PALETTE[2])
    await asyncio.sleep(0.3)
    assert heard.count("join") == 2, "muted: nothing plays"
    assert all(not name.startswith("?") for name in heard), "each sound was playing"


async def play_through(box: Appliance, game: str, rnd: random.Random) -> list[str]:
    """Seat four, start `game` and play it to its finish as the oracle bots do, the box's
    loop running between moves (so the kiosk sees each move's view, as at a table); the
    first hourglass runs out second by second, the others at once. What was heard."""
    heard: list[str] = []
    box.speaker.on_played = lambda name, busy: heard.append(name if busy else "?" + name)
    session, clock = box.session, box.clock
    assert isinstance(clock, FakeClock)
    for i, name in enumerate(("Ada", "Bo", "Cy", "Di")):
        session.join(name, PALETTE[i])
        await asyncio.sleep(0.05)
    session.select(HOST, game)
    session.start(HOST, SPEED_OPTIONS.get(game, {}))
    counted_down = False
    for _ in range(3000):
        match = session.match
        if match is None:
            break
        await asyncio.sleep(0.03)  # a kiosk turn: its sounds of this view
        snap = Snapshot(match.record.id, match.record.game, match.rules, match.state,
                        match.next_seq, session.match_clock(match),
                        tuple(s.seat for s in match.record.seats))
        move = choose(snap, rnd)
        if isinstance(move, RunOut):
            left = max(0.0, move.deadline.at - snap.now)
            if not counted_down and move.deadline.length >= TICK_MIN_LENGTH_S:
                counted_down = True
                clock.advance(max(0.0, left - 10.5))
                for _ in range(11):
                    clock.advance(1.0)
                    await asyncio.sleep(0.12)
            else:
                clock.advance(left + 0.1)
            session.tick()
        elif isinstance(move, Move):
            button = press_of(move.kind) if move.who is None else None
            try:
                if button is not None:
                    session.press(*button)
                else:
                    session.act(move.who, move.kind, dict(move.data))
            except Refused:
                pass  # judged on a state the box's own timer has moved on from: look again
    else:
        raise AssertionError(f"{game} did not end")
    await wait_for(lambda: "finish" in heard)
    assert all(not name.startswith("?") for name in heard), (game, " ".join(heard))
    return heard


async def test_each_game_played_through_the_box_sounds_its_events(box: Appliance) -> None:
    """The four games, one after the other at the same box, each to its finish: every
    sound of SOUNDS is heard, each game's own at least (a right guess where the game has
    them, a reveal where it turns cards), and every game's players' joins and finish."""
    assert box.speaker.ready.wait(5) and box.speaker.available
    rnd = random.Random(7)
    heard_in: dict[str, list[str]] = {}
    for game in ("broad-lines", "artbox", "luck-of-the-draw", "duplik"):
        heard_in[game] = await play_through(box, game, rnd)
        box.session.leave_finish(HOST, False)
        for seat in list(box.session.seats):
            box.session.leave(seat)
        await asyncio.sleep(0.1)
    for game, heard in heard_in.items():
        assert heard.count("join") == 4 and heard[-1] == "finish", (game, heard)
        assert heard.count("finish") == 1, (game, heard)
    assert "right" in heard_in["broad-lines"] and "right" in heard_in["duplik"], heard_in
    assert "reveal" in heard_in["artbox"] and "reveal" in heard_in["luck-of-the-draw"], heard_in
    everything = {name for heard in heard_in.values() for name in heard}
    assert everything == set(SOUNDS), heard_in


async def test_quiet_hours_silence_the_box_and_end_on_time(tmp_path: Path) -> None:
    """The owner's quiet hours (config `[sound] quiet_hours`, local time): a player sitting
    down in them is not heard; one sitting down after them is."""
    clock = FakeClock()
    local = time.localtime(clock.now)
    start = local.tm_hour * 60 + local.tm_min
    hours = f"{start // 60:02}:{start % 60:02}-{(start + 60) // 60 % 24:02}:{start % 60:02}"
    async with running_box(tmp_path, SoundSettings(quiet_hours=hours)) as app:
        heard: list[str] = []
        app.speaker.on_played = lambda name, busy: heard.append(name)
        assert app.speaker.ready.wait(5) and app.speaker.available
        assert app.sound.level.quiet_at(app.clock())
        app.session.join("Ada", PALETTE[0])
        await asyncio.sleep(0.5)
        assert heard == [], f"quiet hours {hours}: {heard}"
        assert isinstance(app.clock, FakeClock)
        app.clock.advance(3600 + 60)  # past the hour
        app.session.join("Bo", PALETTE[1])
        await wait_for(lambda: heard == ["join"])
