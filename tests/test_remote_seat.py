"""A seat without a phone (appliance/door/kiosk_seat.py, appliance/kiosk/seat_pad.py): someone
sits at the table with the TV's remote (a free seat, the name typed on the pad's letters,
a colour, Sit down), is shown present, and a Duplik started from the kiosk with them is
drawn on paper. The pad says for each game what can be played from the TV and what needs
a phone; Back closes it. Rendered at 800x480 and 1920x1080 and looked at.
"""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
import pygame
import pytest

from appliance.kiosk import KioskRenderer
from appliance.kiosk.focus import focusable, reachable
from appliance.kiosk.intents import SeatPadKey, SelectGame, SitDown, StartGame
from appliance.table.session import PALETTE
from games import registry
from tests import screens
from tests.bots import COLOURS, BotPhone
from tests.conftest import FakeClock
from tests.test_kiosk import make_view
from tests.test_remote import REGISTERED, FakeInputDir, cec_remote, fake_cec_ctl
from tests.test_remote_play import Sofa, living_room, until

SCREENSHOT_DIR = Path(os.environ.get("EASEL_SCREENSHOT_DIR", "/tmp"))


def pad_view(game: str | None = "duplik", name: str = "Mia", lang: str = "en") -> dict[str, Any]:
    view = make_view(seats=3, lang=lang, selected=game or "duplik")
    view["selected"] = game
    view["seat_pad"] = {"state": "open", "name": name, "colour": PALETTE[4],
                        "colours": list(PALETTE[3:]), "message": "", "game": game,
                        "from_the_tv": dict(registry.house(game).from_the_tv) if game else {},
                        "kiosk_seats": []}
    return view


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_pad_draws_every_key_and_says_what_needs_a_phone(size):
    with screens.open_display():
        for game in ("duplik", "broad-lines", "luck-of-the-draw", "artbox", None):
            for lang in ("en", "cs"):
                surface = pygame.Surface(size)
                r = KioskRenderer()
                r.render(surface, pad_view(game, lang=lang), 0.0)
                intents = [i for _, i in r.targets]
                # 26 letters, Space, ⌫, 5 colours, Sit down, Cancel; nothing of the lobby.
                assert len(intents) == 26 + 2 + 5 + 2, intents
                assert SeatPadKey("sit") in intents and SelectGame("duplik") not in intents
                rects = [rect for rect, _ in focusable(r.targets, surface.get_rect())]
                assert all(surface.get_rect().contains(rect) for rect in rects)
                assert reachable(rects, 0) == set(range(len(rects)))
                # No two keys overlap.
                assert not any(a.colliderect(b) for i, a in enumerate(rects)
                               for b in rects[i + 1:])
                if lang == "en":
                    pygame.image.save(surface, SCREENSHOT_DIR /
                                      f"easel-seat-pad-{game}-{size[0]}.png")
    for lang in ("en", "cs"):
        for game in ("duplik", "broad-lines", "luck-of-the-draw", "artbox"):
            said = registry.house(game).from_the_tv
            assert "phone" in said["en"] and said[lang]


def test_free_seats_open_the_pad_only_where_it_is_offered():
    with screens.open_display():
        r = KioskRenderer()
        surface = pygame.Surface((1920, 1080))
        r.render(surface, make_view(seats=3), 0.0)
        assert SitDown() not in [i for _, i in r.targets]
        view = make_view(seats=3)
        view["seat_pad"] = {"state": "closed"}
        r.render(surface, view, 0.0)
        assert [i for _, i in r.targets].count(SitDown()) == 5  # 8 seats, 3 taken


async def test_sitting_down_with_the_remote_and_a_duplik_on_paper(tmp_path, monkeypatch):
    fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="1.0.0.0"))
    clock = FakeClock()
    remote = cec_remote()
    async with living_room(tmp_path, clock, FakeInputDir(remote)) as app, \
            aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{app.config.server.port}"
        bots = [BotPhone(http, url, f"Bot{i}", COLOURS[i]) for i in range(2)]
        for bot in bots:
            await bot.join(app.session.room)
        await until(lambda: app.remote_inputs.connected != [])
        sofa = Sofa(app, remote, "remote")
        seats = app.kiosk_seats
        await sofa.choose(SelectGame("duplik"), lambda: app.session.selected == "duplik")
        await sofa.choose(SitDown(), lambda: seats.open)
        # Back closes the pad; the next one opens it again.
        await sofa.key("back")
        await until(lambda: not seats.open)
        await sofa.choose(SitDown(), lambda: seats.open)
        for letter in "MIA":
            typed = len(seats.name) + 1
            await sofa.choose(SeatPadKey("letter", letter),
                              partial(lambda n: len(seats.name) == n, typed))
        assert seats.name == "Mia"
        await sofa.choose(SeatPadKey("back"), lambda: seats.name == "Mi")
        await sofa.choose(SeatPadKey("letter", "A"), lambda: seats.name == "Mia")
        colour = PALETTE[5]
        await sofa.choose(SeatPadKey("colour", colour), lambda: seats.colour == colour)
        await sofa.shown()
        pygame.image.save(app.kiosk.frame, SCREENSHOT_DIR / "easel-seat-pad-app.png")
        await sofa.choose(SeatPadKey("sit"), lambda: not seats.open)
        seated = [s for s in app.session.seats.values() if s.name == "Mia"]
        assert len(seated) == 1 and seated[0].colour == colour
        view = app.kiosk_view()
        mia = next(s for s in view["seats"] if s["name"] == "Mia")
        assert mia["connected"] is True  # at the table, not "offline"
        # The same name again is refused on the pad, in words, and the pad stays open.
        await sofa.choose(SitDown(), lambda: seats.open)
        for letter in "MIA":
            typed = len(seats.name) + 1
            await sofa.choose(SeatPadKey("letter", letter),
                              partial(lambda n: len(seats.name) == n, typed))
        await sofa.choose(SeatPadKey("sit"), lambda: seats.message != "")
        assert seats.open and "Mia is already at the table" in seats.message
        await sofa.key("back")
        await until(lambda: not seats.open)
        # Duplik started from the kiosk with Mia at the table is drawn on paper.
        await sofa.choose(StartGame(), lambda: app.session.match is not None)
        assert app.session.match is not None
        assert app.session.match.record.options.get("paper") is True
        assert app.session.match.state.paper is True


async def test_a_kiosk_artist_sees_the_word_with_the_remote_while_the_critic_looks_away(
    tmp_path, monkeypatch
):
    """Broad Lines started with the remote, Mia at the kiosk: once the Critic names the
    number the TV asks the Critic to look away; OK shows Mia's word, OK hides it."""
    from appliance.table.session import KIOSK
    from tests.test_kiosk_seat import artist_round

    fake_cec_ctl(tmp_path, monkeypatch, REGISTERED.format(address="1.0.0.0"))
    clock = FakeClock()
    remote = cec_remote()
    async with living_room(tmp_path, clock, FakeInputDir(remote)) as app, \
            aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{app.config.server.port}"
        bots = [BotPhone(http, url, f"Bot{i}", COLOURS[i]) for i in range(2)]
        for bot in bots:
            await bot.join(app.session.room)
        await until(lambda: app.remote_inputs.connected != [])
        sofa = Sofa(app, remote, "remote")
        seats = app.kiosk_seats
        seats.handle(SitDown())
        for letter in "MIA":
            seats.handle(SeatPadKey("letter", letter))
        seats.handle(SeatPadKey("sit"))
        await app.session.settled()  # the seat is written off the loop
        (mia,) = seats.seated
        await sofa.choose(SelectGame("broad-lines"),
                          lambda: app.session.selected == "broad-lines")
        await sofa.choose(StartGame(), lambda: app.session.match is not None)
        match = app.session.match
        assert match is not None and match.record.options.get("no_screen") == [mia]
        critic = artist_round(app.session, mia)
        app.session.act(critic, "name_number", {"number": 5})
        word = match.rules.view(match.state, mia)["word"]["en"]
        show = SeatPadKey("show_word", str(mia))
        await sofa.shown()
        assert [i for _, i in app.kiosk.focus.targets] == [show]  # nothing else to press
        await sofa.choose(show, lambda: seats.showing is not None)
        await sofa.shown()
        drawn = app.kiosk_view()["pass_device"]
        assert drawn["stage"] == "show" and drawn["word"] == word
        pygame.image.save(app.kiosk.frame, SCREENSHOT_DIR / "easel-pass-device-app.png")
        await sofa.choose(SeatPadKey("hide_word"), lambda: seats.showing is None)
        await sofa.shown()
        assert app.kiosk_view()["pass_device"] is None
        quoted = json.dumps(word, ensure_ascii=False)  # as a view carries it
        assert quoted not in json.dumps(app.kiosk_view(), ensure_ascii=False, default=str)
        assert quoted not in json.dumps(app.session.view_for(KIOSK), ensure_ascii=False)


def test_a_keyboard_types_the_name_on_the_pad_h_included() -> None:
    """Issue 31: letters typed on a keyboard reach the pad (only arrows did). H is a letter
    there, not the hourglass; Space a space, Backspace rubs out; away from the pad the
    same keys mean what they always did. Both ways in: a USB keyboard read by evdev, and
    the keys of the kiosk's window (SDL)."""
    from appliance.kiosk import Kiosk
    from appliance.kiosk.display import DisplayChoice
    from appliance.kiosk.intents import PressButton
    from drivers.remote import KeyDecoder, RemotePress, key_for_sdl
    from tests.test_remote import usb_keyboard

    kb = usb_keyboard()
    decoder = KeyDecoder("keyboard")
    frames = [f for name in ("KEY_H", "KEY_A", "KEY_SPACE", "KEY_BACKSPACE", "KEY_D")
              for f in kb.tap(name)]
    presses = [p for frame in frames for ev in frame for p in decoder.feed(ev)]
    assert [(p.key, p.text) for p in presses] == [
        ("hourglass", "h"), ("text", "a"), ("ok", " "), ("back", "\b"), ("die", "d")]
    with screens.open_display():
        k = Kiosk(size=(800, 480), choice=DisplayChoice("dummy", False, True, "tests"))
        try:
            k.sdl_keys = key_for_sdl
            k.update(pad_view(name=""), 0.0)
            got = [k.remote_key(p.key, p.text) for p in presses]
            assert got == [SeatPadKey("letter", "H"), SeatPadKey("letter", "A"),
                           SeatPadKey("space"), SeatPadKey("back"), SeatPadKey("letter", "D")]
            pygame.event.clear()
            for key in (pygame.K_h, pygame.K_SPACE, pygame.K_BACKSPACE):
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0,
                                                     unicode="", scancode=0))
            assert k.poll() == [SeatPadKey("letter", "H"), SeatPadKey("space"),
                                SeatPadKey("back")]
            k.update(make_view(seats=3, phase="playing", version=9), 100.0)  # no pad
            assert k.remote_key("hourglass", "h") == PressButton("hourglass")
            assert k.remote_key("text", "a") is None
            k.feed_remote([RemotePress("back", "keyboard", 0.0, text="\b")])
            assert k.poll()[-1:] != [SeatPadKey("back")]
        finally:
            k.close()
