"""The art show to take home: a played game's gallery page, its pictures and zip, the
unguessable address, and expiry after `[gallery] keep_days`."""

from __future__ import annotations

import dataclasses
import html
import io
import random
import zipfile
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import aiohttp
import pygame
import pytest
from aiohttp import web

from appliance.door import gallery
from appliance.system.config import Config, GallerySettings
from appliance.table.session import KIOSK, PALETTE, Session
from appliance.table.store import Store
from games import registry
from games.broad_lines import guessed_words, rating
from tests.conformance import playout, seats_for
from tests.conftest import FakeClock
from tests.gallery_play import play_artbox


@pytest.fixture
def played(session: Session) -> tuple[Session, int]:
    registry.load_all()
    return session, play_artbox(session)


def test_a_played_artbox_game_has_every_drawing(played: tuple[Session, int]) -> None:
    session, match_id = played
    record = session.store.match(match_id)
    assert record is not None and record.outcome is not None
    shown = gallery.build_gallery(record, session.store.actions(match_id))
    rounds = {d.round for d in shown.drawings}
    assert len(rounds) >= 2 and len(shown.drawings) == 3 * len(rounds)
    assert all(d.word and d.word["en"] and d.strokes for d in shown.drawings)
    assert {d.artist for d in shown.drawings} == {"Artist 0", "Artist 1", "Artist 2"}
    assert sum(d.best for d in shown.drawings) == len(rounds)  # one red point a round
    assert shown.winners


def test_the_zip_holds_every_drawing_as_png(played: tuple[Session, int]) -> None:
    session, match_id = played
    record = session.store.match(match_id)
    assert record is not None
    shown = gallery.build_gallery(record, session.store.actions(match_id))
    data = gallery.gallery_zip(shown)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        assert len(names) == len(shown.drawings)
        assert all(n.startswith("round-") and n.endswith(".png") for n in names)
        picture = pygame.image.load(io.BytesIO(zf.read(names[0])), "x.png")
    assert picture.get_size() == gallery.PNG_SIZE
    # Something is drawn: not every pixel is paper.
    colours = {picture.get_at((x, y))[:3] for x in range(0, 1200, 7) for y in range(0, 750, 7)}
    assert len(colours) > 1


def test_a_duplik_gallery_shows_the_scene_beside_its_canvases(
    store: Store, clock: FakeClock
) -> None:
    registry.load_all()
    rules = registry.get("duplik")
    game = playout(rules, 3, max_steps=3000, every=10_000)
    assert game.finished
    # The playout's own choices, made again: how many seats, and the game's seed.
    rnd = random.Random(game.seed)
    seats = seats_for(rnd.randint(rules.min_players, min(rules.max_players, 8)))
    seed = rnd.getrandbits(62) | (1 << 40)
    match_id = store.begin_match("duplik", seats, {}, seed, clock.now)
    for i, action in enumerate(game.actions):
        store.append_action(match_id, i, None, action)
    record = store.match(match_id)
    assert record is not None
    shown = gallery.build_gallery(record, store.actions(match_id))
    assert shown.scenes and shown.drawings
    assert {d.round for d in shown.drawings} <= {s.round for s in shown.scenes}
    assert all("<svg" in s.svg[:200] for s in shown.scenes)
    assert all(d.word == next(s.title for s in shown.scenes if s.round == d.round)
               for d in shown.drawings)
    page = gallery.render_page(shown, "cs", 7, "/gallery/tok")
    assert 'src="/gallery/tok/scene-1.svg"' in page and "Předloha" in page
    with zipfile.ZipFile(io.BytesIO(gallery.gallery_zip(shown))) as zf:
        names = zf.namelist()
    assert "round-01-scene.svg" in names
    assert sum(n.endswith(".png") and "scene" not in n for n in names) == len(shown.drawings)


@pytest.mark.parametrize("game", ["broad-lines", "luck-of-the-draw", "artbox"])
def test_every_game_with_drawings_has_a_gallery(
    game: str, store: Store, clock: FakeClock
) -> None:
    registry.load_all()
    rules = registry.get(game)
    played = playout(rules, 5, max_steps=4000, every=10_000)
    rnd = random.Random(played.seed)
    seats = seats_for(rnd.randint(rules.min_players, min(rules.max_players, 8)))
    seed = rnd.getrandbits(62) | (1 << 40)
    match_id = store.begin_match(game, seats, {}, seed, clock.now)
    for i, action in enumerate(played.actions):
        store.append_action(match_id, i, None, action)
    record = store.match(match_id)
    assert record is not None
    shown = gallery.build_gallery(record, store.actions(match_id))
    strokes_sent = sum(1 for a in played.actions if a.kind in ("stroke", "sheet", "draw"))
    if strokes_sent:
        assert shown.drawings, f"{game}: strokes were drawn but the gallery is empty"
    assert all(d.round >= 1 and d.artist for d in shown.drawings)
    gallery.render_page(shown, "en", 7)


def test_expiry_deletes_old_galleries(
    store: Store, config: Config, clock: FakeClock
) -> None:
    store.begin_match("artbox", (), {}, 1, clock.now)
    store.put_gallery(1, "old-token-aaaaaaaaaaaa", clock.now)
    clock.advance(6 * gallery.DAY)
    store.begin_match("artbox", (), {}, 2, clock.now)
    store.put_gallery(2, "new-token-bbbbbbbbbbbb", clock.now)
    clock.advance(1.5 * gallery.DAY)
    assert gallery.purge(store, clock.now, 7) == [1]
    assert store.gallery_match("old-token-aaaaaaaaaaaa") is None
    assert store.gallery_match("new-token-bbbbbbbbbbbb") == (2, clock.now - 1.5 * gallery.DAY)
    assert gallery.purge(store, clock.now, 7) == []


@pytest.fixture
async def web_gallery(
    played: tuple[Session, int], config: Config, clock: FakeClock
) -> AsyncIterator[tuple[str, aiohttp.ClientSession, Session]]:
    session, _ = played
    app = web.Application()
    gallery.GalleryRoutes(session.store, lambda: session.config, clock).install(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with aiohttp.ClientSession() as http:
        yield f"http://127.0.0.1:{port}", http, session
    await runner.cleanup()


async def test_the_page_pictures_and_zip_over_http(
    web_gallery: tuple[str, aiohttp.ClientSession, Session], clock: FakeClock
) -> None:
    base, http, session = web_gallery
    url = session.view_for(KIOSK)["match"]["gallery_url"]
    path = url.split("8080", 1)[1]
    async with http.get(base + path) as response:
        assert response.status == 200
        assert "script-src" not in response.headers["Content-Security-Policy"]
        page = await response.text()
    assert "Artist 0" in page and f'href="{path}/all.zip"' in page and "<script" not in page
    assert f'src="{path}/1.png"' in page  # absolute: a relative "1.png" loses the token
    async with http.get(base + path + "/", allow_redirects=False) as response:
        assert response.status == 308 and response.headers["Location"] == path
    async with http.get(base + path + "/1.png") as response:
        assert response.status == 200 and response.content_type == "image/png"
    async with http.get(base + path + "/all.zip") as response:
        assert response.status == 200
        assert "attachment" in response.headers["Content-Disposition"]
        with zipfile.ZipFile(io.BytesIO(await response.read())) as zf:
            assert len(zf.namelist()) >= 6
    for wrong in ("/gallery/" + "A" * 24, "/gallery/x", "/gallery/", path + "/999.png"):
        async with http.get(base + wrong) as response:
            assert response.status == 404, wrong
    clock.advance(8 * gallery.DAY)  # past keep_days, even before a purge ran
    async with http.get(base + path) as response:
        assert response.status == 404


def test_names_on_the_page_are_text(store: Store) -> None:
    shown = gallery.Gallery(
        1, "artbox", {"en": "ArtBox"}, None,
        (gallery.Drawing(1, ("<img src=x onerror=alert(1)>",), PALETTE[0], {"en": "<b>"}, ()),),
    )
    page = gallery.render_page(shown, "en", 7)
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page


def test_no_gallery_address_when_switched_off(store: Store, config: Config,
                                             clock: FakeClock) -> None:
    registry.load_all()
    off = dataclasses.replace(config, gallery=GallerySettings(0))
    session = Session(store, off, "http://box", clock)
    play_artbox(session)
    assert session.view_for(KIOSK)["match"]["gallery_url"] is None


def test_the_page_counts_winners_and_a_game_played_together_in_czech() -> None:
    drawing = gallery.Drawing(1, ("Cy",), PALETTE[0], {"en": "cat", "cs": "kočka"}, ())

    def page(lang: str, **fields: object) -> str:
        shown = gallery.Gallery(1, "artbox", {"en": "ArtBox", "cs": "ArtBox"}, None,
                                (drawing,), **fields)  # type: ignore[arg-type]
        return gallery.render_page(shown, lang, 7)

    assert "Vítěz: Ada<" in page("cs", winners=("Ada",))
    assert "Vítězové: Ada, Bo<" in page("cs", winners=("Ada", "Bo"))
    assert "Winner: Ada<" in page("en", winners=("Ada",))
    assert "Winners: Ada, Bo<" in page("en", winners=("Ada", "Bo"))
    assert "autor: Cy" in page("cs") and "kreslí" not in page("cs"), (
        "'kreslí Cy' is 'Cy is drawing'; the page means who drew it")
    together = page("cs", together=3)
    assert "společně: uhodnuta 3 slova" in together and "Vítěz" not in together
    assert "uhodnuto 1 slovo" in page("cs", together=1)
    assert "Played together: 5 words guessed" in page("en", together=5)
    evening = datetime(2026, 12, 6, 18, 42).timestamp()
    dated = gallery.Gallery(1, "artbox", {"en": "ArtBox", "cs": "ArtBox"}, evening,
                            (drawing,))
    assert "Hráno 6. 12. 2026 18:42" in gallery.render_page(dated, "cs", 7)
    assert "Played 6 Dec 2026, 18:42" in gallery.render_page(dated, "en", 7)


def test_a_broad_lines_gallery_says_together_not_winner_everyone(
    store: Store, clock: FakeClock
) -> None:
    registry.load_all()
    rules = registry.get("broad-lines")
    played = playout(rules, 5, max_steps=600, every=10_000)
    rnd = random.Random(played.seed)  # the seats and seed as the playout dealt them
    seats = seats_for(rnd.randint(rules.min_players, min(rules.max_players, 8)))
    seed = rnd.getrandbits(62) | (1 << 40)
    match_id = store.begin_match("broad-lines", seats, {}, seed, clock.now)
    for i, action in enumerate(played.actions):
        store.append_action(match_id, i, None, action)
    record = store.match(match_id)
    assert record is not None
    # As the session records a cooperative game won: every seat, the table's count.
    won = dataclasses.replace(record, outcome={
        "winners": [s.seat for s in seats], "scores": [[s.seat, 4.0] for s in seats]})
    shown = gallery.build_gallery(won, store.actions(match_id))
    assert shown.winners == () and shown.together == 4
    page = gallery.render_page(shown, "en", 7)
    assert "Winner" not in page and "Played together: 4 words guessed" in page
    # The rules' own rating of the count, under it (issue 31: the page showed none).
    final = final_state(rules, seats, seed, played)
    if rules.outcome(final) is None:
        assert shown.verdict is None
    else:
        _, en, cs = rating(len(guessed_words(final)))
        assert shown.verdict == {"en": en, "cs": cs}
    rated = dataclasses.replace(shown, verdict={"en": rating(4)[1], "cs": rating(4)[2]})
    assert html.escape(rating(4)[1]) in gallery.render_page(rated, "en", 7)
    assert html.escape(rating(4)[2]) in gallery.render_page(rated, "cs", 7)


def final_state(rules: Any, seats: Any, seed: int, played: Any) -> Any:
    state = rules.setup(seats, {}, seed)
    for action in played.actions:
        state = rules.apply(state, action)
    return state
