"""A game the box has never heard of, played end to end through the real box.

Doodle Dash (tests/house_game/) is registered here only, with its house; no file of
appliance/ names it (tests/test_layering.py checks). Two phones play it over the real
server's WebSocket: it is in the lobby, starts with a host's option and the option its
house feeds from the config, deals from a pack that replaces its deck, ends with a finish,
and its gallery page shows every drawing with the pack's words. Its own kiosk screen and
phone script live beside it (tests/house_game/screen.py, phone.js): the box imports the
one and lists and serves the other because its house names them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pygame
import pytest

from appliance.app import Appliance
from appliance.kiosk import KioskRenderer
from appliance.kiosk.render import GAME_SCREENS
from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings
from appliance.table.game_options import default_options
from appliance.table.session import KIOSK, PALETTE
from games import registry
from games.core import Action, SeatInfo
from games.packs import parse_pack
from tests import house_game, screens
from tests.conftest import Phone
from tests.house_game.screen import doodle_dash_screen
from tests.process import free_port

PACK = """game = "doodle-dash"
title = "Our own"
mode = "replace"
words = [["lantern", "lucerna"], ["snail", "šnek"], ["umbrella", "deštník"]]
"""
STROKE = {"points": [[200, 200, 0], [800, 500, 120], [1200, 300, 240]], "colour": "#3366cc",
          "width": 12}


@pytest.fixture
def doodle_dash() -> Iterator[None]:
    house_game.register()
    yield
    house_game.unregister()


@pytest.fixture
async def box(tmp_path: Path, doodle_dash: None) -> AsyncIterator[Appliance]:
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path)),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    app = Appliance(config)
    app.shelf.directory.mkdir(parents=True, exist_ok=True)
    (app.shelf.directory / "our-own.toml").write_text(PACK)
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    for _ in range(300):
        if app.kiosk is not None and app.kiosk.frames_drawn:
            break
        await asyncio.sleep(0.01)
    yield app
    stop.set()
    await asyncio.wait_for(task, 10)


async def test_a_game_the_box_does_not_know_plays_from_lobby_to_gallery(box: Appliance) -> None:
    base = f"http://127.0.0.1:{box.config.server.port}"
    room = box.session.room
    async with aiohttp.ClientSession() as http:
        phones = [Phone(await http.ws_connect(base + "/ws")) for _ in range(2)]
        for n, phone in enumerate(phones):
            await phone.join(room, ("Ada", "Bo")[n], PALETTE[n])
        ada, bo = phones
        # The pages learn of it from the box's list: its script, its options with labels.
        async with http.get(base + "/games.json") as listing:
            listed_games = {g["id"]: g for g in (await listing.json())["games"]}
        dash = listed_games["doodle-dash"]
        assert dash["script"] == "/static/games/doodle-dash/phone.js"
        assert dash["together"] is False
        assert dash["options"] == [{"key": "rounds", "phone": True, "value": 2,
                                    "label": {"en": "Rounds", "cs": "Kola"},
                                    "choices": [[1, "1"], [2, "2"], [3, "3"]]}]
        assert listed_games["duplik"]["script"] == "/static/duplik.js"
        async with http.get(base + dash["script"]) as script:
            assert script.status == 200 and "javascript" in script.content_type
            assert 'registerGameScreen(GAME' in await script.text()
        # Only its own scripts and stylesheets are served, nothing else of its folder.
        for other in ("house.py", "..%2Fhouse_game%2Fhouse.py", "%2Fetc%2Fpasswd", "nope.js"):
            async with http.get(f"{base}/static/games/doodle-dash/{other}") as missing:
                assert missing.status == 404, other
        async with http.get(base + "/static/games/duplik/duplik.js") as missing:
            assert missing.status == 404  # a game without files of its own has none here
        lobby = await ada.view_where(lambda v: len(v["seats"]) == 2)
        listed = {g["id"]: g for g in lobby["games"]}
        assert listed["doodle-dash"]["available"] is True
        assert listed["doodle-dash"]["title"] == "Doodle Dash"

        await ada.send({"type": "select", "game": "doodle-dash"})
        await ada.view_where(lambda v: v["selected"] == "doodle-dash")
        drawn = box.kiosk.frames_drawn
        # The host's own deck is not taken (the packs give decks); its `rounds` is.
        await ada.send({"type": "start", "options": {"rounds": 2, "words": [["x", "y"]] * 3}})
        playing = await ada.view_where(lambda v: v["match"] is not None)
        state = playing["match"]["state"]
        assert state["rounds"] == 2
        assert state["word"]["en"] in ("lantern", "snail", "umbrella")  # the pack's deck
        match = box.session.match
        assert match is not None
        options = match.record.options
        assert options["rounds"] == 2
        assert options["extended_factor"] == box.config.timers.extended_factor  # the setting
        assert [w[0] for w in options["words"]] == ["lantern", "snail", "umbrella"]

        # The kiosk draws it with the screen the game brought (its house names the module).
        assert GAME_SCREENS["doodle-dash"] is doodle_dash_screen
        for _ in range(200):
            if box.kiosk.frames_drawn > drawn:
                break
            await asyncio.sleep(0.01)
        assert box.kiosk.frames_drawn > drawn

        # A move carrying what its house does not declare is refused before the rules.
        await bo.send({"type": "act", "id": "odd", "kind": "done", "data": {"loud": True}})
        refused = await bo.expect("error")
        assert refused["code"] == "invalid" and refused["ref"] == "odd"

        ids = iter(range(1000))
        for _round in range(2):
            for phone in phones:
                await phone.send({"type": "act", "id": f"s{next(ids)}", "kind": "stroke",
                                  "data": STROKE})
                await phone.expect("ack")
                await phone.send({"type": "act", "id": f"d{next(ids)}", "kind": "done",
                                  "data": {}})
                await phone.expect("ack")
        # The gallery's address comes once its token is committed (the store's writer).
        over = await bo.view_where(
            lambda v: v["phase"] == "over" and v["match"]["gallery_url"] is not None
        )
        assert sorted(over["match"]["outcome"]["winners"]) == [0, 1]
        gallery_url = over["match"]["gallery_url"]
        path = gallery_url[gallery_url.index("/gallery/"):]
        async with http.get(base + path) as page:
            assert page.status == 200
            html = await page.text()
        assert "Doodle Dash: the art show" in html
        assert html.count("<figure") == 4  # two players, two rounds
        assert "Round 2" in html and "by Ada" in html and "by Bo" in html
        words = [w for w in ("lantern", "snail", "umbrella") if w in html]
        assert 1 <= len(words) <= 2, "each round's word from the pack"
        async with http.get(base + path + "/1.png") as picture:
            assert picture.status == 200
            assert (await picture.read()).startswith(b"\x89PNG")
        for phone in phones:
            await phone.ws.close()


def test_its_house_is_what_the_box_reads_of_it(doodle_dash: None) -> None:
    config = Config()
    assert default_options(config, "doodle-dash") == {
        "extended_factor": config.timers.extended_factor}
    assert registry.action_schemas("doodle-dash") is house_game.HOUSE.actions
    pack = parse_pack("our-own.toml", PACK)
    assert pack.game == "doodle-dash" and len(pack.decks["words"]) == 3
    # Its states survive the log's JSON as every game's do (a resume replays them).
    rules = house_game.RULES
    state = rules.setup([SeatInfo(0, "Ada", PALETTE[0]), SeatInfo(1, "Bo", PALETTE[1])],
                        {"rounds": 1}, 5)
    state = rules.apply(state, Action("stroke", 0, STROKE))
    assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state


def test_the_kiosk_shows_it_with_its_own_screen(doodle_dash: None) -> None:
    from appliance.app import load_kiosk_screens
    from appliance.door.kiosk_games import KioskGames
    from appliance.table.session import HOST, Session
    from appliance.table.store import Store

    with screens.open_display():
        store = Store(Path(":memory:"))
        try:
            session = Session(store, Config(), "http://192.0.2.7:8080", lambda: 1e9)
            session.join("Ada", PALETTE[0])
            session.join("Bo", PALETTE[1])
            session.select(HOST, "doodle-dash")
            session.start(HOST, {"rounds": 1})
            session.act(0, "stroke", STROKE)
            view = dict(KioskGames().decorate(session.view_for(KIOSK)))
            surface = pygame.Surface((1280, 720))
            renderer = KioskRenderer()
            assert "tests.house_game.screen" in load_kiosk_screens()
            assert GAME_SCREENS["doodle-dash"] is doodle_dash_screen
            drawn: list[object] = []

            def spy(r: KioskRenderer, f: Any) -> None:
                drawn.append(f)
                doodle_dash_screen(r, f)

            GAME_SCREENS["doodle-dash"] = spy
            try:
                renderer.render(surface, view, 1e9)
            finally:
                GAME_SCREENS["doodle-dash"] = doodle_dash_screen
            assert drawn, "the generic screen drew it, not its own"
            assert "doodle-dash" not in renderer._broken_screens
            pygame.image.save(surface, "/tmp/easel-doodle-dash-kiosk.png")
        finally:
            store.close()
