"""Every kiosk screen fits its screen (issue 19): each game is played by seeded bots through
a real Session, the kiosk's view is taken at every change of phase (and the lobby before
and after), and each is drawn at 800x480 (the official 7-inch panel), 1280x720, 1920x1080
and 720x1280 portrait. The painter's layout log of each frame must show no text smaller
than the screen's minimum, no text cut without an ellipsis, no list that dropped items
without saying so, no two declared panels overlapping or leaving the frame, and no touch
target smaller than a finger.

Views are sampled (the first of each phase and step of a game, a few of each at most) so
the whole sweep stays in seconds.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pygame
import pytest

from appliance.kiosk import KioskRenderer
from appliance.kiosk.painter import LayoutLog
from appliance.kiosk.theme import Metrics
from appliance.system.config import Config, StorageSettings
from appliance.table.session import HOST, KIOSK, Session, Viewer
from appliance.table.store import Store
from tests.bots import SPEED_OPTIONS, Move, RunOut, Snapshot, choose, game_ids
from tests.conftest import FakeClock

SIZES = [(800, 480), (1280, 720), (1920, 1080), (720, 1280)]
NAMES = ["Ada", "Bořivoj Novotný", "Cy", "Dana", "Emil", "Fróða", "Gustav Mahler-Werfel"]
COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6"]
PER_PHASE = 2  # views kept of each (phase, step) of a game
MAX_STEPS = 900
SHOTS = os.environ.get("EASEL_LAYOUT_SHOTS")


def _phase_key(view: dict[str, Any]) -> tuple[object, ...]:
    match = view.get("match") or {}
    state = match.get("state") if isinstance(match, dict) else None
    state = state if isinstance(state, dict) else {}
    rnd = state.get("round")
    sub = state.get("step") or (rnd.get("phase") if isinstance(rnd, dict) else None)
    return (view.get("phase"), state.get("phase"), sub if isinstance(sub, str) else None)


def played_views(game: str, seed: int, players: int, tmp: Path) -> list[dict[str, Any]]:
    """Kiosk views of one seeded game of `game`: the lobby, each phase a few times, the
    lobby after the game (its result and gallery code)."""
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(tmp)))
    store = Store(tmp / f"{game}-{seed}.sqlite3")
    clock = FakeClock()
    try:
        session = Session(store, config, "http://192.168.1.20:8080", clock)
        seats = [session.join(NAMES[i], COLOURS[i]).seat for i in range(players)]
        for seat in seats[1:]:  # the first player's phone is off: the kiosk says so
            session.attach(Viewer("player", seat))
        session.attach(Viewer("spectator"))
        session.select(HOST, game)
        views = [session.view_for(KIOSK)]
        with mock.patch("appliance.table.session.secrets.randbits", return_value=2**40 + seed):
            session.start(HOST, SPEED_OPTIONS.get(game))
        rnd = random.Random(seed)
        seen: dict[tuple[object, ...], int] = {}
        for _ in range(MAX_STEPS):
            view = session.view_for(KIOSK)
            key = _phase_key(view)
            if seen.get(key, 0) < PER_PHASE:
                seen[key] = seen.get(key, 0) + 1
                views.append(view)
            match = session.match
            if match is None:
                break
            snap = Snapshot(
                match.record.id, game, match.rules, match.state, 0,
                session.match_clock(match), tuple(s.seat for s in match.record.seats),
            )
            move = choose(snap, rnd)
            if move is None:
                break
            if isinstance(move, RunOut):
                clock.advance(max(0.0, move.deadline.at - snap.now) + 0.1)
                session.tick()
                continue
            assert isinstance(move, Move)
            try:
                session.act(move.who, move.kind, dict(move.data))
            except Exception:  # a refusal (a word the family filter blocks...): try another
                continue
        views.append(session.view_for(KIOSK))
        return views
    finally:
        store.close()


@pytest.fixture(scope="module")
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.display.quit()


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    tmp = tmp_path_factory.mktemp("layout")
    out: dict[str, list[dict[str, Any]]] = {}
    for i, game in enumerate(sorted(game_ids())):
        # Four players, and a full table of seven, whose names crowd the scoreboard.
        views = played_views(game, 3 + i, 4, tmp) + played_views(game, 13 + i, 7, tmp)
        # A Czech table too: its words are longer.
        for view in views[1::3]:
            views.append({**view, "lang": "cs", "version": -1})
        out[game] = views
    return out


def problems(log: LayoutLog, r: KioskRenderer, m: Metrics) -> list[str]:
    """What is wrong with one frame's layout, in words."""
    found = []
    for t in log.texts:
        where = "in a part" if t.in_part else f"at {tuple(t.rect) if t.rect else '?'}"
        if t.size < m.f_min:
            found.append(f"{t.size} px text {t.text!r} {where} (minimum {m.f_min})")
        if t.clipped:
            found.append(f"text cut without an ellipsis: {t.text!r} {where} on {t.surface}")
    for name, shown, total in log.dropped:
        found.append(f"{name}: {shown} of {total} shown, no ellipsis")
    frame = pygame.Rect((0, 0), log.size)
    for i, (name, box) in enumerate(log.panels):
        if not frame.contains(box):
            found.append(f"panel {name} {tuple(box)} leaves the frame {log.size}")
        for other, obox in log.panels[i + 1 :]:
            if box.colliderect(obox):
                found.append(f"panels {name} {tuple(box)} and {other} {tuple(obox)} overlap")
    for rect, intent in r.targets:
        if min(rect.w, rect.h) < m.target:
            found.append(f"target {type(intent).__name__} {tuple(rect)} under {m.target} px")
        if not frame.contains(rect):
            found.append(f"target {type(intent).__name__} {tuple(rect)} leaves the frame")
    return found


def sweep(
    views: dict[str, list[dict[str, Any]]], games: list[str], sizes: list[tuple[int, int]]
) -> tuple[int, list[str]]:
    checked, found = 0, []
    for game in games:
        for size in sizes:
            r = KioskRenderer()
            r.record_layout = True
            r.panel_buttons = True  # no physical panel: the pills must find room too
            surface = pygame.Surface(size)
            m = Metrics.for_size(size)
            for n, view in enumerate(views[game]):
                r.render(surface, view, view.get("match", {}).get("deadline", {}).get("at", 0.0)
                         if isinstance(view.get("match"), dict)
                         and isinstance(view["match"].get("deadline"), dict) else 0.0)
                assert game not in r._broken_screens, f"{game}'s screen raised"
                assert r.layout is not None
                checked += 1
                if SHOTS:  # to look at them: EASEL_LAYOUT_SHOTS=/tmp/shots
                    name = f"{game}_{size[0]}x{size[1]}_{n:02d}_{view.get('lang')}.png"
                    pygame.image.save(surface, str(Path(SHOTS) / name))
                found += [
                    f"{game} {size[0]}x{size[1]} view {n} ({view.get('lang')}, "
                    f"{_phase_key(view)}): {p}"
                    for p in problems(r.layout, r, m)
                ]
    return checked, found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_of_every_game_fits(
    display: None, views: dict[str, list[dict[str, Any]]], size: tuple[int, int]
) -> None:
    checked, found = sweep(views, sorted(views), [size])
    assert checked >= 4 * 8, f"only {checked} screens checked"
    unique = sorted(set(found))
    assert not unique, f"{len(unique)} layout problems in {checked} screens:\n" + "\n".join(
        unique[:60]
    )
