"""Every kiosk screen fits its screen (issue 19): each game is played by seeded bots through
a real Session, the kiosk's view is taken at every change of phase (and the lobby before
and after), and each is drawn at 800x480 (the official 7-inch panel), 1280x720, 1920x1080
and 720x1280 portrait. The painter's layout log of each frame must show no text smaller
than the screen's minimum, no text cut without an ellipsis, no list that dropped items
without saying so, no two declared panels overlapping or leaving the frame, and no touch
target smaller than a finger; the remote's focus ring must show whole around every
target it can reach.

Besides each phase, the sweep takes the screens that only some tables see: the seat pad
(a player sitting down at the kiosk, `KioskSeats`), a game played with such a seat (Broad
Lines passing the device and its sheets drawn on paper, Duplik drawn on paper and judged
with YES / NO on the TV), a seat handed over mid-game (the handover countdown), the
degraded box's notices under the lobby, the host's PIN pad, menu and "Are you sure?"
questions over the lobby and over a game, and every step of each game's finish (its
whole art show, a step per FINISH_STEP_S from the match's `finished_at`).

Views are sampled (the first of each phase and step of a game, a few of each at most) so
the whole sweep stays in seconds.
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pygame
import pytest

from appliance.door.kiosk_games import KioskGames
from appliance.door.kiosk_host import TEXT as PIN_TEXT
from appliance.door.kiosk_seat import KioskSeats
from appliance.kiosk import KioskRenderer, broad_lines
from appliance.kiosk.focus import RING, RING_EDGE, Focus
from appliance.kiosk.intents import PressButton, SeatPadKey, SitDown
from appliance.kiosk.painter import LayoutLog
from appliance.kiosk.render import FINISH_STEP_S, view_lang
from appliance.kiosk.text import CATALOGUES
from appliance.kiosk.theme import BG, Metrics
from appliance.system.config import Config, StorageSettings
from appliance.table.lobby_history import LobbyHistory
from appliance.table.messages import say
from appliance.table.session import HOST, KIOSK, Session, Viewer
from appliance.table.store import Store
from games import broad_lines as broad_lines_rules
from tests import screens
from tests.bots import SPEED_OPTIONS, Move, RunOut, Snapshot, choose, game_ids
from tests.conftest import FakeClock
from tests.test_czech_words import english_words

SIZES = [(800, 480), (1280, 720), (1920, 1080), (720, 1280)]
NAMES = ["Ada", "Bořivoj Novotný", "Cy", "Dana", "Emil", "Fróða", "Gustav Mahler-Werfel"]
COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6"]
PER_PHASE = 2  # views kept of each (phase, step) of a game
MAX_STEPS = 900
SHOTS = os.environ.get("EASEL_LAYOUT_SHOTS")


Shot = tuple[dict[str, Any], float]
"""A kiosk view and the time (the session's clock) it is drawn at."""

HOST_MENU_SEATS = [{"seat": 0, "name": NAMES[1]}, {"seat": 1, "name": NAMES[6]}]
# A game that can be played with a seat at the kiosk (no phone): its pad, its paper.
KIOSK_SEAT_GAMES = {"broad-lines": 2, "duplik": 1}
MAX_FINISH_STEPS = 30  # steps of a finish's art show drawn: all of a short game's


def _phase_key(view: dict[str, Any]) -> tuple[object, ...]:
    match = view.get("match") or {}
    state = match.get("state") if isinstance(match, dict) else None
    state = state if isinstance(state, dict) else {}
    rnd = state.get("round")
    sub = state.get("step") or (rnd.get("phase") if isinstance(rnd, dict) else None)
    passing = view.get("pass_device")
    return (view.get("phase"), state.get("phase"), sub if isinstance(sub, str) else None,
            passing.get("stage") if isinstance(passing, dict) else None)


def _lobby_extras(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The lobby as a box in trouble and a host at the kiosk see it: the degraded card's
    two notices in their strip (the texts appliance/app.py says), the PIN pad, the menu."""
    notices = [
        say(view_lang(view), "degraded_card", "The memory card cannot be written: games are "
            "played but not kept."),
        say(view_lang(view), "degraded_todo", "Free space on it (or make it writable), then "
            "restart the box."),
    ]
    return [
        {**view, "notices": notices, "version": -1},
        {**view, "version": -1, "host_menu": {
            "state": "pin", "digits": 3,
            "message": PIN_TEXT[view_lang(view)]["wrong"].format(n=2)}},
        _with_menu(view),
        _with_question(view, "kick", NAMES[6]),
        _with_question(view, "restart"),
    ]


def _with_question(view: dict[str, Any], ask: str, name: str = "") -> dict[str, Any]:
    """The host's "Are you sure?" over `view` (appliance/door/kiosk_host.py's layer)."""
    match = view.get("match")
    title = match.get("title", "") if isinstance(match, dict) else ""
    return {**view, "version": -1, "host_menu": {
        "state": "confirm", "ask": ask, "seat": 1 if name else None, "name": name,
        "title": title, "playing": view.get("phase") == "playing"}}


def _paused(view: dict[str, Any]) -> dict[str, Any]:
    """`view` with the game paused by the host (its card over the dimmed frame)."""
    return {**view, "version": -1, "match": {**view["match"], "paused": True}}


def _pressed(view: dict[str, Any], now: float) -> dict[str, Any]:
    """`view` with the table's HOURGLASS just pressed: the "Hourglass ✓" toast."""
    return {**view, "version": -1, "notice": {
        "kind": "pressed", "key": "hourglass", "text": "", "at": now - 0.5, "until": now + 3}}


def _drawn_here(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Broad Lines' drawing phase with its Artist drawing on the kiosk's own sheet ("Draw
    here on the table"): its Place the sheet, Undo and Use my phone (the bots draw on
    their phones, so a game played never shows it); none for other screens."""
    match = view.get("match") or {}
    state = match.get("state") if isinstance(match, dict) else None
    if match.get("game") != "broad-lines" or not isinstance(state, dict) or (
            state.get("phase") != "drawing" or state.get("artist") is None):
        return []
    stroke = {"points": ((300, 200, 0), (700, 800, 120)), "colour": "#202020", "width": 8}
    return [{**view, "version": -1, "match": {**match, "state": {
        **state, "panel": True, "drawing": drawing}}} for drawing in ([], [stroke])]


def _with_menu(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "version": -1, "host_menu": {
        "state": "menu", "playing": view.get("phase") == "playing",
        "over": view.get("phase") == "over", "paused": False, "seats": HOST_MENU_SEATS,
        "message": "", "sound": {"volume": 70, "muted": False}}}


def _ended_early(view: dict[str, Any]) -> dict[str, Any]:
    """`view` as if the host had ended its game early (the outcome says so: the finish,
    the banner and today's list add "ended early" to the result)."""
    match = view.get("match")
    if not isinstance(match, dict) or not isinstance(match.get("outcome"), dict):
        return view
    outcome = {**match["outcome"], "summary": "ended_early"}
    out = {**view, "match": {**match, "outcome": outcome}, "version": -2}
    history = view.get("history")
    if isinstance(history, dict) and isinstance(history.get("results"), list):
        out["history"] = {**history, "sig": f"{history.get('sig')}:early", "results": [
            {**result, "ended_early": True} for result in history["results"]]}
    return out


def played_views(game: str, seed: int, players: int, tmp: Path, at_kiosk: int = 0,
                 lang: str = "en") -> list[Shot]:
    """Kiosk views of one seeded game of `game`: the lobby (and the seat pad, for the
    `at_kiosk` players who sit down at the kiosk), each phase a few times (passing the
    device to a kiosk seat: asked, then shown), a seat handed over and taken again, every
    step of the finish's art show, the lobby after the game (its result and gallery
    code). `lang`: the table's language (the session's words too, not only the kiosk's)."""
    config = dataclasses.replace(
        Config(), storage=StorageSettings(data_dir=str(tmp)),
        table=dataclasses.replace(Config().table, language=lang))
    store = Store(tmp / f"{game}-{seed}-{at_kiosk}-{lang}.sqlite3")
    clock = FakeClock()
    try:
        session = Session(store, config, "http://192.168.1.20:8080", clock)
        pad = KioskSeats(session)
        seats = [session.join(NAMES[i], COLOURS[i]).seat for i in range(players - at_kiosk)]
        for seat in seats[1:]:  # the first player's phone is off: the kiosk says so
            session.attach(Viewer("player", seat))
        session.attach(Viewer("spectator"))
        session.select(HOST, game)

        games = KioskGames()

        def kiosk_view() -> dict[str, Any]:  # decorated as appliance/app.py does
            return dict(pad.decorate(games.decorate(session.view_for(KIOSK))))

        shots: list[Shot] = []
        for i in range(at_kiosk):  # sitting down at the kiosk, letter by letter
            pad.handle(SitDown())
            for letter in ("MIA", "OTAKAR")[i % 2]:
                pad.handle(SeatPadKey("letter", letter))
            shots.append((kiosk_view(), clock.now))
            pad.handle(SeatPadKey("sit"))
        lobby = kiosk_view()
        shots += [(lobby, clock.now), (_pressed(lobby, clock.now), clock.now)]
        shots += [(v, clock.now) for v in _lobby_extras(lobby)]
        with mock.patch("appliance.table.session.secrets.randbits", return_value=2**40 + seed):
            session.start(HOST, SPEED_OPTIONS.get(game))
        rnd = random.Random(seed)
        seen: dict[tuple[object, ...], int] = {}
        handed_over = False
        for step in range(MAX_STEPS):
            view = kiosk_view()
            key = _phase_key(view)
            if seen.get(key, 0) < PER_PHASE:
                seen[key] = seen.get(key, 0) + 1
                shots.append((view, clock.now))
                if seen[key] == 1 and view.get("phase") == "playing":
                    shots.append((_with_menu(view), clock.now))
                    shots.append((_paused(view), clock.now))
                    shots.append((_pressed(view, clock.now), clock.now))
                    shots += [(v, clock.now) for v in _drawn_here(view)]
                    shots.append((_with_question(view, "offer", NAMES[6]), clock.now))
                    shots.append((_with_question(view, "end"), clock.now))
                if seen[key] == 1 and view.get("phase") == "over":
                    shots.append((_pressed(view, clock.now), clock.now))
            passing = view.get("pass_device")
            if isinstance(passing, dict) and passing.get("stage") == "ask":
                # The kiosk's Artist presses OK to see the word, then OK to hide it.
                pad.handle(SeatPadKey("show_word", str(passing["seat"])))
                shown = kiosk_view()
                if seen.get(_phase_key(shown), 0) < PER_PHASE:
                    seen[_phase_key(shown)] = seen.get(_phase_key(shown), 0) + 1
                    shots.append((shown, clock.now))
                pad.handle(SeatPadKey("hide_word"))
            match = session.match
            if match is None:
                break
            if not handed_over and step >= 6 and view.get("phase") == "playing":
                # The host frees the longest name's seat for a newcomer, who joins in time.
                handed_over = True
                seat = max(session.seats, key=lambda s: len(session.seats[s].name))
                colour = session.seats[seat].colour
                session.offer_seat(HOST, seat)
                handing = kiosk_view()
                shots += [(handing, clock.now), (handing, clock.now + 30.0)]
                session.join("Zdeňka Nováková", colour)
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
        finish = kiosk_view()
        at = finish.get("match", {}).get("finished_at") if isinstance(
            finish.get("match"), dict) else None
        if finish.get("phase") == "over" and isinstance(at, float):
            # Every step of the finish's art show, and the host's menu over it.
            # (ArtBox's rounds may take two steps each on a small screen: a page each.)
            state = finish["match"].get("state") or {}
            shows = state.get("art_show") if isinstance(state, dict) else None
            steps = min(MAX_FINISH_STEPS, 2 * len(shows) if isinstance(shows, list) else 1)
            shots += [(finish, at + (k + 0.5) * FINISH_STEP_S) for k in range(steps)]
            shots.append((_with_menu(finish), at + 1.0))
            session.leave_finish(HOST)
        end = kiosk_view()
        shots += [(end, clock.now), (_with_menu(end), clock.now)]
        # The idle lobby's list of today's games (this one, and the other games of the
        # day as a café's evening has them), and the game as if the host had ended it.
        records = store.finished_matches(since=0)
        today_step = LobbyHistory(session, clock, 8.0)._steps_of(records, clock.now)
        shots += [({**end, "history": step}, clock.now) for step in today_step
                  if step["kind"] == "winners"]
        shots += [(_ended_early(v), t) for v, t in ((finish, at or clock.now), (end, clock.now),
                                                   *((v, t) for v, t in shots[-1:]
                                                     if v.get("history")))]
        return shots
    finally:
        store.close()


@pytest.fixture(scope="module")
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.display.quit()


@pytest.fixture(scope="module")
def czech_views(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Shot]]:
    """Each game played at a Czech table (five players, one at the kiosk where the game
    allows it): the session's words are Czech too."""
    tmp = tmp_path_factory.mktemp("czech")
    return {game: played_views(game, 23 + i, 5, tmp, min(1, KIOSK_SEAT_GAMES.get(game, 0)),
                               "cs")
            for i, game in enumerate(sorted(game_ids()))}


@pytest.fixture(scope="module")
def views(tmp_path_factory: pytest.TempPathFactory, czech_views: dict[str, list[Shot]]
          ) -> dict[str, list[Shot]]:
    tmp = tmp_path_factory.mktemp("layout")
    out: dict[str, list[Shot]] = {}
    for i, game in enumerate(sorted(game_ids())):
        # Four players (some at the kiosk, where the game allows it), and a full table of
        # seven, whose names crowd the scoreboard.
        shots = played_views(game, 3 + i, 4, tmp, KIOSK_SEAT_GAMES.get(game, 0))
        shots += played_views(game, 13 + i, 7, tmp)
        # The kiosk's words in Czech (longer) over an English table's views, and a Czech
        # table.
        for view, now in shots[1::3]:
            shots.append(({**view, "lang": "cs", "version": -1}, now))
        out[game] = shots + czech_views[game]
    return out


def _sentences() -> list[tuple[str, str, re.Pattern[str]]]:
    """Every sentence of the kiosk's catalogues (every game's screens loaded) that says
    at least `words` words of its own besides its placeholders, as (language, key, a
    pattern matching it filled in)."""
    found = []
    # Broad Lines' screen keeps its sentences in a table of its own (`tx`).
    tables = [CATALOGUES, broad_lines._TEXTS]
    for lang, catalogue in ((lang, c) for table in tables for lang, c in table.items()):
        for key, entry in catalogue.items():
            for sentence in [entry] if isinstance(entry, str) else entry.values():
                words = re.findall(r"[^\W\d_]{2,}", re.sub(r"\{[^}]*\}", " ", sentence))
                if len(words) < 3:
                    continue
                parts = [re.escape(p) for p in re.split(r"\{[^}]*\}", sentence)]
                found.append((lang, key, re.compile("^" + "(.+?)".join(parts) + "$", re.S)))
    return found


SENTENCES = _sentences() + [
    # The rules' verdict on a game played together (Broad Lines' rating) is read whole.
    (lang, f"broad-lines rating {band}", re.compile("^" + re.escape(said) + "$"))
    for _, band, en, cs in broad_lines_rules.RATINGS for lang, said in (("en", en), ("cs", cs))]
"""The box's own instructions and explanations (three words or more): names, words to
draw and categories are data, and a name may be cut; these may not."""


def instruction(text: str) -> str | None:
    """Why `text` must never end in an ellipsis: it carries a number (a score, a count,
    a half card), or it is one of the box's sentences; None if it may."""
    if re.search(r"[0-9½]", text):
        return "a number"
    said = next((key for _, key, pattern in SENTENCES if pattern.match(text)), None)
    return f"the sentence {said!r}" if said else None


def hit_extent(targets: list[tuple[pygame.Rect, Any]], i: int) -> tuple[int, int]:
    """How wide and tall target `i` is where a finger reaches it, as `Painter.hit` tests a
    touch (the last target drawn wins): the runs through its centre, across and down,
    that land on it and on no later target; (0, 0) when a later one covers its centre."""
    box = targets[i][0]
    later = [rect for rect, _ in targets[i + 1:]]
    cx, cy = box.center
    if any(rect.collidepoint(cx, cy) for rect in later):
        return 0, 0

    def run(lo: int, hi: int, at: int, covers: list[tuple[int, int]]) -> int:
        for start, end in covers:  # the covered spans cut the run at the centre
            if end <= at:
                lo = max(lo, end)
            elif start > at:
                hi = min(hi, start)
        return hi - lo

    across = [(rect.left, rect.right) for rect in later if rect.top <= cy < rect.bottom]
    down = [(rect.top, rect.bottom) for rect in later if rect.left <= cx < rect.right]
    return run(box.left, box.right, cx, across), run(box.top, box.bottom, cy, down)


def problems(log: LayoutLog, r: KioskRenderer, m: Metrics) -> list[str]:
    """What is wrong with one frame's layout, in words."""
    found = []
    for t in log.texts:
        where = "in a part" if t.in_part else f"at {tuple(t.rect) if t.rect else '?'}"
        if t.size < m.f_min:
            found.append(f"{t.size} px text {t.text!r} {where} (minimum {m.f_min})")
        if t.clipped:
            found.append(f"text cut without an ellipsis: {t.text!r} {where} on {t.surface}")
        why = instruction(t.text) if t.ellipsised else None
        if why:
            found.append(f"text carrying {why} cut with an ellipsis: {t.text!r} {where}")
    for toast in r.covers:  # a notice's toast hides no words and no panel of the game
        for t in log.texts:
            if t.rect and not t.in_part and t.rect.colliderect(toast) and not toast.contains(
                    t.rect):
                found.append(f"a toast {tuple(toast)} over the text {t.text!r}")
        for rect, intent in r.targets:  # a finger aiming at it would press the toast
            if rect.colliderect(toast) and not isinstance(intent, PressButton):
                found.append(f"a toast {tuple(toast)} over the button {_named(intent)}")
        for name, box in log.panels:
            if name != "table buttons" and box.colliderect(toast):
                found.append(f"a toast {tuple(toast)} over the panel {name} {tuple(box)}")
    for name, shown, total in log.dropped:
        found.append(f"{name}: {shown} of {total} shown, no ellipsis")
    frame = pygame.Rect((0, 0), log.size)
    for i, (name, box) in enumerate(log.panels):
        if not frame.contains(box):
            found.append(f"panel {name} {tuple(box)} leaves the frame {log.size}")
        for other, obox in log.panels[i + 1 :]:
            if box.colliderect(obox):
                found.append(f"panels {name} {tuple(box)} and {other} {tuple(obox)} overlap")
    for rect, intent in log.buttons:  # what a person sees and aims at
        if min(rect.w, rect.h) < m.target:
            found.append(f"button {_named(intent)} drawn {tuple(rect)}, under {m.target} px")
    for i, (rect, intent) in enumerate(r.targets):
        w, h = hit_extent(r.targets, i)  # what a finger hits, the later targets over it
        if min(w, h) < m.target:
            found.append(f"target {_named(intent)} {tuple(rect)} hit {w}x{h}, under "
                         f"{m.target} px")
        if not frame.contains(rect):
            found.append(f"target {_named(intent)} {tuple(rect)} leaves the frame")
    return found


def _named(intent: object) -> str:
    kind = getattr(intent, "kind", None)
    return f"{type(intent).__name__}({kind})" if isinstance(kind, str) else type(intent).__name__


def ring_problems(surface: pygame.Surface, r: KioskRenderer) -> list[str]:
    """The remote's focus ring, settled on each target it reaches in turn: it must draw
    on all four sides of the target, not be lost off the frame's edge (its taking away
    is tests/test_focus.py's)."""
    found = []
    focus = Focus(clock=lambda: 1e9)  # long settled
    focus.sync(r.targets, surface.get_rect())
    focus.visible = True
    frame = surface.get_rect()
    for i, (rect, intent) in enumerate(focus.targets):
        focus.index = i
        focus.draw(surface)
        ring = rect.inflate(4, 4)
        sides = {
            "top": (ring.centerx, ring.top), "bottom": (ring.centerx, ring.bottom - 1),
            "left": (ring.left, ring.centery), "right": (ring.right - 1, ring.centery),
        }
        for side, (x, y) in sides.items():
            if not frame.collidepoint(x, y) or surface.get_at((x, y))[:3] not in (RING,
                                                                                  RING_EDGE):
                found.append(f"focus ring on {type(intent).__name__} {tuple(rect)}: "
                             f"no ring on its {side} side")
    focus.visible = False
    focus.draw(surface)
    return found


def sweep(
    views: dict[str, list[Shot]], games: list[str], sizes: list[tuple[int, int]]
) -> tuple[int, list[str]]:
    checked, found = 0, []
    for game in games:
        for size in sizes:
            r = KioskRenderer()
            r.record_layout = True
            r.panel_buttons = True  # no physical panel: the pills must find room too
            surface = pygame.Surface(size)
            m = Metrics.for_size(size)
            for n, (view, now) in enumerate(views[game]):
                r.render(surface, view, now)
                assert game not in r._broken_screens, f"{game}'s screen raised"
                assert r.layout is not None
                checked += 1
                if SHOTS:  # to look at them: EASEL_LAYOUT_SHOTS=/tmp/shots
                    what = "-".join(str(k) for k in _phase_key(view) if k is not None)
                    layers = "".join(f"+{k}" for k in ("host_menu", "notices", "handovers")
                                     if view.get(k))
                    name = (f"{game}_{size[0]}x{size[1]}_{n:03d}_{view.get('lang')}_{what}"
                            f"{layers}.png")
                    pygame.image.save(surface, str(Path(SHOTS) / name))
                found += [
                    f"{game} {size[0]}x{size[1]} view {n} ({view.get('lang')}, "
                    f"{_phase_key(view)}): {p}"
                    for p in problems(r.layout, r, m) + ring_problems(surface, r)
                ]
    return checked, found


@pytest.mark.timeout(300)  # the first of a worker plays the eight games (seconds, or more
# on a loaded machine), then each draws its few hundred frames
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_of_every_game_fits(
    display: None, views: dict[str, list[Shot]], size: tuple[int, int]
) -> None:
    checked, found = sweep(views, sorted(views), [size])
    assert checked >= 300, f"only {checked} screens checked"
    unique = sorted(set(found))
    assert not unique, f"{len(unique)} layout problems in {checked} screens:\n" + "\n".join(
        unique[:400]
    )


def english_sentences(texts: list[str]) -> list[str]:
    """The texts that are one of the kiosk's English sentences (and not also a Czech
    one, like "Duplik"), or carry a word of an English sentence no Czech one has."""
    english = [(key, p) for lang, key, p in SENTENCES if lang == "en"]
    czech = [p for lang, _, p in SENTENCES if lang == "cs"]
    found = []
    for text in texts:
        said = next((key for key, p in english if p.match(text)), None)
        if said and not any(p.match(text) for p in czech):
            found.append(f"{text!r} (the English {said!r})")
            continue
        # What players typed is quoted („…“, “…”) and theirs: a bot guesses "a guess".
        words = english_words(re.sub(r"[„“][^“”]*[“”]", " ", text))
        if words:
            found.append(f"{text!r} ({', '.join(sorted(words))})")
    return found


def test_an_english_sentence_is_found(display: None) -> None:
    # The check below must be able to fail: the English words of a screen are caught.
    assert len(english_sentences(["Ada", "Scan to join", "Press the button again"])) == 2
    assert not english_sentences(["Ada", "Naskenuj a připoj se", "Bo: „the guess“"])


@pytest.mark.timeout(300)
def test_no_czech_kiosk_screen_shows_an_english_sentence(
    display: None, czech_views: dict[str, list[Shot]]
) -> None:
    """Every text drawn on a Czech table's screens (each game played in Czech, its
    finish, the host's menu and questions, the seat pad) at 800x480 and 1920x1080, and
    their quotation marks („…“, not “…”)."""
    found: set[str] = set()
    checked = 0
    for game, shots in sorted(czech_views.items()):
        for size in ((800, 480), (1920, 1080)):
            r = KioskRenderer()
            r.record_layout = True
            r.panel_buttons = True
            surface = pygame.Surface(size)
            for view, now in shots:
                assert view.get("lang") == "cs"
                r.render(surface, view, now)
                assert r.layout is not None
                checked += 1
                texts = [t.text for t in r.layout.texts]
                found.update(f"{game} {size[0]}x{size[1]}: {problem}" for problem in
                             english_sentences(texts))
                found.update(f"{game} {size[0]}x{size[1]}: {t!r} quotes the English way"
                             for t in texts if "”" in t)
    assert checked >= 100, f"only {checked} screens checked"
    assert not found, f"{len(found)} English texts on Czech screens:\n" + "\n".join(
        sorted(found)[:60])


@pytest.mark.timeout(300)
def test_nothing_is_drawn_past_the_side_panels_edge(
    display: None, views: dict[str, list[Shot]]
) -> None:
    """Issue 31: at 800x480 a sliver of the panel's colour lay right of Broad Lines' side
    panel (an Artist's chip too wide for its row was wiped past the panel's edge). Beside
    the panel, down to the table buttons' bar, the frame is its background."""
    checked = 0
    for size in ((800, 480), (1920, 1080)):
        r = KioskRenderer()
        r.record_layout = True
        r.panel_buttons = True
        surface = pygame.Surface(size)
        for view, now in views["broad-lines"]:
            if view.get("phase") != "playing" or view.get("host_menu") or view.get(
                    "pass_device") or (view.get("match") or {}).get("paused"):
                continue
            r.render(surface, view, now)
            assert r.layout is not None
            side = next((box for name, box in r.layout.panels if name == "sidebar"), None)
            if side is None or side.right >= size[0]:
                continue
            checked += 1
            beside = pygame.Rect(side.right, side.top, size[0] - side.right, side.h)
            colours = screens.region_colours(surface, beside, 1)
            assert colours == {BG}, f"{size}: {sorted(colours)[:4]} right of the panel"
    assert checked >= 20, f"only {checked} screens checked"
