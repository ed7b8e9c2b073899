"""The kiosk: lobby and game frames, QR codes that phones can read, hit testing (also on a
rotated mount), display choice, redraw economy and the asyncio loop. SDL's dummy driver
stands in for the screen; the QR codes are decoded from the PNG screenshots with zxing.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import asyncio
import io
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pygame
import pytest
import zxingcpp

from appliance.kiosk import (
    GAME_SCREENS,
    Frame,
    Intent,
    KickSeat,
    Kiosk,
    KioskRenderer,
    PressButton,
    Quit,
    SelectGame,
    StartGame,
    run_kiosk,
)
from appliance.kiosk.display import DisplayChoice, choose_display, detect_pi
from appliance.kiosk.fonts import ELLIPSIS, clean_text
from appliance.kiosk.intents import Back
from appliance.kiosk.qr import escape_wifi, wifi_payload
from appliance.kiosk.render import (
    deadline_remaining,
    format_seconds,
    ink_on,
    parse_colour,
    scores_of,
)
from appliance.kiosk.rotation import (
    ROTATIONS,
    logical_to_physical,
    physical_size,
    physical_to_logical,
    rotate_frame,
)
from appliance.kiosk.text import CATALOGUES, join_names, tr

HEADLESS = DisplayChoice("dummy", False, True, "tests")
PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324"]
JOIN_URL = "http://192.168.1.20:8080/?room=KQ4T"
LONG_NAME = "<b>Ada</b>" + "y" * 200
WIFI_PASSWORD = 'se;cr:et,"\\x'
WIFI_TEXT = 'WIFI:T:WPA;S:Kavárna Čáp;P:se\\;cr\\:et\\,\\"\\\\x;;'


def make_view(
    seats: int = 4,
    version: int = 1,
    lang: str = "en",
    wifi: bool = False,
    phase: str = "lobby",
    selected: str = "duplik",
    names: list[str] | None = None,
) -> dict[str, Any]:
    names = names or ["Ada", "Bořivoj", "Cy", "Dana", "Eve", "Fróða", "Gus", "Hana"]
    view: dict[str, Any] = {
        "type": "view",
        "version": version,
        "lang": lang,
        "room": "KQ4T",
        "join_url": JOIN_URL,
        "wifi": (
            {"ssid": "Kavárna Čáp", "password": WIFI_PASSWORD, "security": "WPA"} if wifi else None
        ),
        "phase": phase,
        "max_players": 8,
        "seats": [
            {
                "seat": i,
                "name": names[i % len(names)],
                "colour": PALETTE[i],
                "connected": i != 2,
                "host": i == 0,
            }
            for i in range(seats)
        ],
        "spectators": 1,
        "palette": PALETTE,
        "games": [
            {
                "id": "broad-lines",
                "title": "Broad Lines",
                "min_players": 3,
                "max_players": 12,
                "available": False,
            },
            {
                "id": "duplik",
                "title": "Duplik",
                "min_players": 3,
                "max_players": 10,
                "available": True,
            },
            {
                "id": "luck-of-the-draw",
                "title": "Luck of the Draw",
                "min_players": 4,
                "max_players": 8,
                "available": True,
            },
            {
                "id": "artbox",
                "title": "ArtBox",
                "min_players": 3,
                "max_players": 8,
                "available": False,
            },
        ],
        "selected": selected,
        "match": None,
        "you": None,
    }
    if phase in ("playing", "finished"):
        view["match"] = {
            "id": 3,
            "game": "duplik",
            "title": "Duplik",
            "state": {"scores": {"0": 3, "1": 5}},
            "deadline": (
                {"at": 141.0, "remaining": 41.0, "length": 90, "what": "hourglass"}
                if phase == "playing"
                else None
            ),
            "outcome": (
                {"winners": [0, 1], "scores": [[0, 7], [1, 7]], "summary": ""}
                if phase == "finished"
                else None
            ),
        }
    return view


@pytest.fixture
def open_kiosk() -> Iterator[Callable[..., Kiosk]]:
    kiosks: list[Kiosk] = []

    def factory(size: tuple[int, int] = (1920, 1080), rotation: int = 0) -> Kiosk:
        kiosk = Kiosk(size=size, rotation=rotation, choice=HEADLESS)
        kiosks.append(kiosk)
        return kiosk

    yield factory
    if pygame.display.get_init():
        pygame.event.clear()  # no event of this test may leak into the next one
    for kiosk in kiosks:
        kiosk.close()


def decode(png: bytes) -> list[Any]:
    surface = pygame.image.load(io.BytesIO(png), "frame.png")
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    return list(zxingcpp.read_barcodes(pixels))


def symbol_height(result: Any) -> int:
    p = result.position
    ys = [p.top_left.y, p.top_right.y, p.bottom_left.y, p.bottom_right.y]
    return int(max(ys) - min(ys))


def target_of(kiosk: Kiosk, intent: Intent) -> pygame.Rect:
    rects = [rect for rect, it in kiosk.renderer.targets if it == intent]
    assert rects, f"{intent!r} is not on screen"
    return rects[0]


def click(kiosk: Kiosk, physical: tuple[int, int]) -> list[Intent]:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=physical, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=physical, button=1))
    return kiosk.poll()


# --- the lobby and its QR codes ---------------------------------------------------------

SIZES = [(1920, 1080), (800, 480), (1080, 1920), (480, 800)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_lobby_qr_code_reads_as_the_join_url(open_kiosk, size, tmp_path):
    kiosk = open_kiosk(size)
    assert kiosk.update(make_view(), 0.0)
    png = kiosk.png_bytes()
    assert png.startswith(b"\x89PNG")
    results = decode(png)
    assert [r.text for r in results] == [JOIN_URL]
    # Big enough to scan at arm's length: code with its quiet zone >= 25 % of the short side
    # (the full height on a landscape screen).
    quiet_factor = 37 / 29  # version 3 symbol: 29 modules plus 2 x 4 quiet modules
    assert symbol_height(results[0]) * quiet_factor >= 0.25 * min(size)
    kiosk.screenshot(tmp_path / "lobby.png")
    assert (tmp_path / "lobby.png").read_bytes() == png


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_wifi_qr_code_carries_the_escaped_network(open_kiosk, size):
    kiosk = open_kiosk(size)
    kiosk.update(make_view(wifi=True), 0.0)
    texts = sorted(r.text for r in decode(kiosk.png_bytes()))
    assert texts == sorted([JOIN_URL, WIFI_TEXT])


def test_wifi_payload_format_and_escaping():
    assert wifi_payload("Cafe", "pw") == "WIFI:T:WPA;S:Cafe;P:pw;;"
    assert wifi_payload("a;b", WIFI_PASSWORD) == 'WIFI:T:WPA;S:a\\;b;P:se\\;cr\\:et\\,\\"\\\\x;;'
    assert wifi_payload("Open", None) == "WIFI:T:nopass;S:Open;;"
    assert wifi_payload("Open", "", "WPA") == "WIFI:T:nopass;S:Open;;"
    assert wifi_payload("Old", "k", "wep") == "WIFI:T:WEP;S:Old;P:k;;"
    assert wifi_payload("New", "k", "WPA2") == "WIFI:T:WPA;S:New;P:k;;"
    assert wifi_payload("Hid", "k", hidden=True) == "WIFI:T:WPA;S:Hid;P:k;H:true;;"
    assert escape_wifi('\\;,":') == '\\\\\\;\\,\\"\\:'


def test_czech_lobby_differs_from_english(open_kiosk):
    kiosk = open_kiosk((1280, 720))
    kiosk.update(make_view(lang="en"), 0.0)
    english = kiosk.png_bytes()
    kiosk.update(make_view(lang="cs", version=2), 0.0)
    czech = kiosk.png_bytes()
    assert english != czech
    assert [r.text for r in decode(czech)] == [JOIN_URL]


def test_catalogues_have_the_same_keys_and_czech_plurals():
    assert set(CATALOGUES["en"]) == set(CATALOGUES["cs"])
    assert tr("cs", "spectators", n=1) == "1 divák"
    assert tr("cs", "spectators", n=3) == "3 diváci"
    assert tr("cs", "spectators", n=5) == "5 diváků"
    assert tr("en", "need_more", n=1) == "Need 1 more player"
    assert tr("xx", "start") == "Start"
    assert join_names("cs", ["Ada", "Bo", "Cy"]) == "Ada, Bo a Cy"
    assert join_names("en", ["Ada", "Bo"]) == "Ada and Bo"


def test_a_game_screen_brings_its_own_sentences_and_may_not_replace_anothers():
    from appliance.kiosk import duplik
    from appliance.kiosk.text import TextClash, add_texts

    # Duplik's sentences live beside its screen and reach tr through the catalogues.
    assert "duplik.round" in duplik.STRINGS["cs"]
    assert tr("cs", "duplik.round", round=1, rounds=3) == "Kolo 1 ze 3"  # Czech counts
    assert tr("cs", "duplik.round", round=1, rounds=5) == "Kolo 1 z 5"
    add_texts({"en": {"duplik.round": "Round {round} of {rounds}"}})  # the same: fine
    with pytest.raises(TextClash, match=r"'duplik\.round' \(en\)"):
        add_texts({"en": {"duplik.round": "Another round"}})
    assert tr("en", "duplik.round", round=2, rounds=3) == "Round 2 of 3"


def test_czech_glyphs_render_with_real_shapes():
    renderer = KioskRenderer()
    font = renderer.fonts.font(40)
    # A glyph the font lacks renders as the same box as any other missing glyph.
    missing = font.render("\ue000", True, (0, 0, 0))
    for ch in "řžťůěďčšňŘŽŤŮĚĎČŠŇ…":
        glyph = font.render(ch, True, (0, 0, 0))
        assert pygame.image.tobytes(glyph, "RGBA") != pygame.image.tobytes(missing, "RGBA"), ch


def test_long_and_hostile_names_are_truncated_text(open_kiosk):
    kiosk = open_kiosk((800, 480))
    names = [LONG_NAME, "a\x00b\nc", "\ud800lone", "😀🎨 emoji", "\u202eevil", "", "   ", "x"]
    kiosk.update(make_view(seats=8, names=names), 0.0)
    fonts = kiosk.renderer.fonts
    fitted = fonts.fit(clean_text(LONG_NAME), 20, True, 200)
    assert fitted.startswith("<b>Ada</b>") and fitted.endswith(ELLIPSIS)
    assert fonts.render(LONG_NAME, 20, (0, 0, 0), True, 200).get_width() <= 200
    assert clean_text("a\x00b\nc") == "a b c"
    assert clean_text("\ud800x") == "\ufffdx"
    assert clean_text("\u202eevil") == "evil"


def test_finished_lobby_and_playing_frame_render(open_kiosk):
    kiosk = open_kiosk((1920, 1080))
    assert kiosk.update(make_view(phase="finished", seats=8, lang="cs"), 0.0)
    assert [r.text for r in decode(kiosk.png_bytes())] == [JOIN_URL]
    assert kiosk.update(make_view(phase="playing", version=2), 100.0)
    assert KickSeat(1) not in [it for _, it in kiosk.renderer.targets]


# --- hit testing ------------------------------------------------------------------------


def test_clicks_on_kick_game_and_start(open_kiosk):
    kiosk = open_kiosk((1920, 1080))
    kiosk.update(make_view(seats=4), 0.0)
    kick = target_of(kiosk, KickSeat(1))
    # The target is where the ✕ is drawn: black ink on seat 1's green card.
    assert kiosk.frame.get_at(kick.center)[:3] == (0, 0, 0)
    assert click(kiosk, kick.center) == [KickSeat(1)]
    assert click(kiosk, target_of(kiosk, SelectGame("artbox")).center) == [SelectGame("artbox")]
    assert click(kiosk, target_of(kiosk, StartGame()).center) == [StartGame()]
    assert kiosk.renderer.hit((1, 1)) is None


def test_start_is_disabled_without_enough_players_or_an_available_game(open_kiosk):
    kiosk = open_kiosk((1920, 1080))
    kiosk.update(make_view(seats=2), 0.0)
    assert StartGame() not in [it for _, it in kiosk.renderer.targets]
    kiosk.update(make_view(seats=4, selected="artbox", version=2), 0.0)
    assert StartGame() not in [it for _, it in kiosk.renderer.targets]
    kiosk.update(make_view(seats=3, selected="luck-of-the-draw", version=3), 0.0)
    assert StartGame() not in [it for _, it in kiosk.renderer.targets]


def test_press_that_slides_to_another_button_cancels(open_kiosk):
    kiosk = open_kiosk((1920, 1080))
    kiosk.update(make_view(), 0.0)
    down = target_of(kiosk, KickSeat(0)).center
    up = target_of(kiosk, KickSeat(1)).center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=down, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=1))
    assert kiosk.poll() == []


def test_touch_generated_mouse_events_are_not_doubled(open_kiosk):
    kiosk = open_kiosk((800, 480))
    kiosk.update(make_view(), 0.0)
    x, y = target_of(kiosk, SelectGame("duplik")).center
    w, h = kiosk.screen.get_size()
    finger = {"touch_id": 1, "finger_id": 0, "x": x / (w - 1), "y": y / (h - 1)}
    pygame.event.post(pygame.event.Event(pygame.FINGERDOWN, **finger))
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, **finger))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=True))
    assert kiosk.poll() == [SelectGame("duplik")]


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_hit_testing_through_a_rotated_mount(open_kiosk, rotation):
    kiosk = open_kiosk((1920, 1080), rotation)
    assert kiosk.size == (1920, 1080)
    assert kiosk.screen.get_size() == physical_size((1920, 1080), rotation)
    kiosk.update(make_view(), 0.0)
    logical = target_of(kiosk, KickSeat(1)).center
    physical = kiosk.to_physical(logical)
    # The rotated picture really shows the ✕ there.
    assert kiosk.screen.get_at(physical)[:3] == kiosk.frame.get_at(logical)[:3] == (0, 0, 0)
    assert kiosk.to_logical(physical) == logical
    assert click(kiosk, physical) == [KickSeat(1)]
    w, h = kiosk.screen.get_size()
    finger = {"touch_id": 1, "finger_id": 0, "x": physical[0] / (w - 1), "y": physical[1] / (h - 1)}
    pygame.event.post(pygame.event.Event(pygame.FINGERUP, **finger))
    assert kiosk.poll() == [KickSeat(1)]
    # The screenshot is the upright logical frame, so its QR code still reads.
    assert [r.text for r in decode(kiosk.png_bytes())] == [JOIN_URL]


@pytest.mark.parametrize("rotation", ROTATIONS)
def test_rotation_maps_are_inverse_and_match_pygame(rotation):
    size = (7, 4)
    rng = random.Random(rotation)
    frame = pygame.Surface(size)
    for _ in range(10):
        frame.fill((0, 0, 0))
        point = (rng.randrange(size[0]), rng.randrange(size[1]))
        frame.set_at(point, (255, 255, 255))
        shown = rotate_frame(frame, rotation)
        assert shown.get_size() == physical_size(size, rotation)
        px, py = logical_to_physical(point, size, rotation)
        assert shown.get_at((int(px), int(py)))[:3] == (255, 255, 255)
        assert physical_to_logical((px, py), size, rotation) == point
    with pytest.raises(ValueError, match="0, 90, 180, 270"):
        physical_size(size, 45)


def test_rotation_90_turns_clockwise():
    # Clockwise: the logical top-left corner ends up top-right on the display.
    assert logical_to_physical((0, 0), (1920, 1080), 90) == (1079, 0)
    assert logical_to_physical((0, 0), (1920, 1080), 270) == (0, 1919)


# --- keys and window events -------------------------------------------------------------


def test_keys_stand_in_for_the_table_buttons(open_kiosk):
    from drivers.remote import key_for_sdl

    kiosk = open_kiosk((640, 360))
    kiosk.sdl_keys = key_for_sdl  # as the app wires it: the one key table
    for key, mod in [
        (pygame.K_h, 0),
        (pygame.K_h, pygame.KMOD_LSHIFT),
        (pygame.K_d, 0),
        (pygame.K_r, 0),
        (pygame.K_x, 0),
        (pygame.K_ESCAPE, 0),
    ]:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    # Escape is Back, never Quit: only the window's close button quits (issue 20).
    assert kiosk.poll() == [
        PressButton("hourglass"),
        PressButton("hourglass", long=True),
        PressButton("die"),
        PressButton("reveal"),
        Back(),
        Quit(),
    ]
    # Keyboards read through evdev instead: the window's keys are not counted again.
    kiosk.keys_source = "evdev"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0))
    assert kiosk.poll() == []


# --- redraw economy ---------------------------------------------------------------------


def test_redraws_only_when_version_size_or_second_changes(open_kiosk):
    kiosk = open_kiosk((800, 480))
    view = make_view()
    assert kiosk.update(view, 0.0)
    assert not kiosk.update(view, 5.0)
    assert not kiosk.update(dict(view), 9.0)
    assert kiosk.frames_drawn == 1
    assert kiosk.update(make_view(version=2), 9.0)
    assert kiosk.frames_drawn == 2

    playing = make_view(phase="playing", version=3)  # deadline at 141.0
    assert kiosk.update(playing, 100.0)
    assert not kiosk.update(playing, 100.5)  # still 41 s on the hourglass
    assert kiosk.update(playing, 101.2)  # 40 s
    assert kiosk.frames_drawn == 4
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    kiosk.poll()
    assert kiosk.update(playing, 101.3)


def test_deadline_and_scores_parsing():
    view = make_view(phase="playing")
    assert deadline_remaining(view, 100.0) == (41.0, 90.0)
    assert deadline_remaining(view, 500.0) == (41.0, 90.0)  # another clock: trust the view
    assert deadline_remaining(make_view(), 0.0) is None
    assert format_seconds(41.2) == "0:42" and format_seconds(0) == "0:00"
    assert format_seconds(90) == "1:30"
    assert scores_of({"outcome": {"scores": [[0, 3], [2, 1.5]]}}) == {0: 3, 2: 1.5}
    assert scores_of({"state": {"scores": {"1": 4}}}) == {1: 4}
    assert scores_of({"state": {"scores": [5, 6]}}) == {0: 5, 1: 6}
    assert scores_of({"state": {}}) == {}
    assert parse_colour("#3cb44b") == (0x3C, 0xB4, 0x4B)
    assert parse_colour("nope", (1, 2, 3)) == (1, 2, 3)
    assert ink_on((255, 225, 25)) == (0, 0, 0)
    assert ink_on((67, 99, 216)) == (255, 255, 255)


def test_game_screens_replace_the_generic_frame_and_fall_back_when_broken(open_kiosk):
    kiosk = open_kiosk((800, 480))
    calls: list[str] = []

    def own_screen(renderer: KioskRenderer, frame: Frame) -> None:
        calls.append(frame.lang)
        assert frame.remaining == 41.0
        frame.surface.fill((1, 2, 3))

    def broken_screen(renderer: KioskRenderer, frame: Frame) -> None:
        raise RuntimeError("bug in a game's screen")

    previous = GAME_SCREENS.get("duplik")
    try:
        GAME_SCREENS["duplik"] = own_screen
        kiosk.update(make_view(phase="playing"), 100.0)
        assert calls == ["en"]
        assert kiosk.frame.get_at((400, 240))[:3] == (1, 2, 3)
        GAME_SCREENS["duplik"] = broken_screen
        assert kiosk.update(make_view(phase="playing", version=2), 100.0)
        assert kiosk.frame.get_at((1, 1))[:3] != (1, 2, 3)
    finally:
        if previous is None:
            GAME_SCREENS.pop("duplik", None)
        else:
            GAME_SCREENS["duplik"] = previous


# --- choosing the display ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "env", "is_pi", "has_drm", "expected"),
    [
        ("auto", {"DISPLAY": ":0"}, False, True, (None, False, False)),
        ("auto", {"WAYLAND_DISPLAY": "wayland-0"}, True, True, (None, False, False)),
        ("auto", {}, True, True, ("kmsdrm", True, False)),
        ("auto", {}, True, False, ("kmsdrm", True, False)),
        ("auto", {}, False, True, ("dummy", False, True)),
        ("auto", {}, False, False, ("dummy", False, True)),
        ("auto", {"SDL_VIDEODRIVER": "dummy", "DISPLAY": ":0"}, True, True, ("dummy", False, True)),
        ("auto", {"SDL_VIDEODRIVER": "kmsdrm"}, False, False, ("kmsdrm", True, False)),
        ("auto", {"SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"}, False, False, ("x11", False, False)),
        ("window", {}, False, False, (None, False, False)),
        ("fullscreen", {"DISPLAY": ":0"}, False, False, (None, True, False)),
        ("fullscreen", {}, True, True, ("kmsdrm", True, False)),
        ("headless", {"DISPLAY": ":0"}, True, True, ("dummy", False, True)),
        ("headless", {"SDL_VIDEODRIVER": "x11"}, False, False, ("dummy", False, True)),
    ],
)
def test_choose_display(mode, env, is_pi, has_drm, expected):
    choice = choose_display(mode, env, is_pi, has_drm)
    assert (choice.driver, choice.fullscreen, choice.headless) == expected
    assert choice.reason


def test_choose_display_explains_headless_and_rejects_unknown_modes():
    choice = choose_display("auto", {}, False, False)
    assert choice.reason == (
        "no display found ($DISPLAY unset, no /dev/dri); running headless, phones are still served"
    )
    with pytest.raises(ValueError, match=r"display\.mode"):
        choose_display("tv", {}, False, False)


def test_detect_pi(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert detect_pi(model)
    model.write_bytes(b"Generic x86\x00")
    assert not detect_pi(model)
    assert not detect_pi(tmp_path / "missing")


# --- the loop ---------------------------------------------------------------------------


def test_run_kiosk_draws_once_delivers_intents_and_stops():
    from drivers.remote import key_for_sdl

    kiosk = Kiosk(size=(640, 360), choice=HEADLESS)
    kiosk.sdl_keys = key_for_sdl
    try:
        view = make_view()
        intents: list[Intent] = []
        frames: list[int] = []

        async def scenario() -> None:
            stop = asyncio.Event()

            def on_frame() -> None:
                frames.append(kiosk.frames_drawn)
                if len(frames) == 2:
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0))
                if len(frames) >= 10:
                    stop.set()

            def on_intent(intent: Intent) -> None:
                intents.append(intent)
                raise RuntimeError("a failing handler must not stop the kiosk")

            await asyncio.wait_for(
                run_kiosk(
                    kiosk,
                    lambda: view,
                    time.monotonic,
                    on_intent,
                    stop,
                    idle_interval=0.001,
                    on_frame=on_frame,
                ),
                timeout=5,
            )

        asyncio.run(scenario())
        assert intents == [PressButton("die")]
        assert kiosk.frames_drawn == 1
        assert len(frames) == 10
    finally:
        kiosk.close()


def test_run_kiosk_survives_a_broken_view():
    kiosk = Kiosk(size=(640, 360), choice=HEADLESS)
    try:
        calls = 0

        def get_view() -> dict[str, Any]:
            nonlocal calls
            calls += 1
            if calls < 4:
                raise KeyError("no view yet")
            return make_view()

        async def scenario() -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, stop.set)
            await run_kiosk(kiosk, get_view, lambda: 0.0, lambda i: None, stop, 0.002)

        asyncio.run(scenario())
        assert kiosk.frames_drawn == 1
    finally:
        kiosk.close()


# --- robustness and boundaries ----------------------------------------------------------


@pytest.mark.parametrize("size", [(320, 240), (3000, 500), (120, 900), (1024, 768)])
@pytest.mark.parametrize("phase", ["lobby", "finished", "playing"])
def test_odd_sizes_and_crowded_rooms_render(size, phase):
    renderer = KioskRenderer()
    view = make_view(seats=8, phase=phase, wifi=True)
    view["max_players"] = 12
    view["seats"] += [dict(view["seats"][0], seat=8 + i, host=False) for i in range(4)]
    surface = pygame.Surface(size)
    renderer.render(surface, view, 120.0)
    assert renderer.targets or phase == "playing"


def test_cached_parts_stay_within_their_memory_budget():
    budget = 3 * 2**20
    renderer = KioskRenderer(max_part_bytes=budget)
    surface = pygame.Surface((1280, 720))
    for i in range(60):
        renderer.render(surface, make_view(version=i, names=[f"Player {i}", "Bo", "Cy"]), 0.0)
    held = sum(p.get_pitch() * p.get_height() for p in renderer._parts.values())
    assert held <= budget


@pytest.mark.parametrize(
    "view",
    [
        {},
        {"version": 1, "phase": "lobby", "seats": None, "games": "nope", "wifi": "x"},
        {"phase": "finished", "match": {"outcome": {"winners": [7, "x"]}}},
        {"phase": "playing", "match": {"deadline": {"at": "soon"}, "state": {"scores": 3}}},
        {"phase": "playing", "match": None, "seats": [{"seat": "a", "colour": 5}]},
    ],
)
def test_malformed_views_do_not_break_a_frame(view):
    KioskRenderer().render(pygame.Surface((800, 480)), view, 0.0)


def test_a_display_that_cannot_open_raises_a_typed_error_and_headless_still_works():
    from appliance.kiosk.display import DisplayError, open_display

    with pytest.raises(DisplayError, match="nonexistent") as info:
        open_display(DisplayChoice("nonexistent", True, False, "test"), (800, 480))
    assert isinstance(info.value, RuntimeError)
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"  # restored for the fallback
    kiosk = Kiosk(size=(800, 480), choice=HEADLESS)
    try:
        assert kiosk.update(make_view(), 0.0)
    finally:
        kiosk.close()


def test_the_kiosk_imports_no_game_driver_server_or_store_code():
    import ast
    from pathlib import Path

    import appliance.kiosk

    forbidden = (
        "games",
        "drivers",
        "aiohttp",
        "sqlite3",
        "appliance.table.session",
        "appliance.door.server",
        "appliance.system.config",
    )
    package = Path(appliance.kiosk.__file__).parent
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not any(name == f or name.startswith(f + ".") for f in forbidden), (
                    f"{source.name} imports {name}"
                )


def test_a_window_fits_a_smaller_desktop() -> None:
    from appliance.kiosk.display import fit_window

    # Same shape, as large as fits: never a fixed 90 % (tests/test_display.py has more).
    assert fit_window((1920, 1080), (1366, 768)) == (1365, 768)
    assert fit_window((800, 480), (1920, 1080)) == (800, 480)
    assert fit_window((1080, 1920), (1920, 1080)) == (607, 1080)
    assert fit_window((1920, 1080), None) == (1920, 1080)
