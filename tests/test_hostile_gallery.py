"""Gallery downloads under load: pictures and the zip are rendered once, off the loop,
kept on disk and served from there; the files go with their gallery.

Eight phones download the same zip at once, on a real server on loopback: each picture
is painted once, the zip is built once, every phone gets the same bytes, and the loop
keeps answering an honest phone meanwhile.
"""

from __future__ import annotations

import asyncio
import io
import time
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from appliance.door import gallery
from appliance.table.session import KIOSK, Session
from games import registry
from tests.conftest import FakeClock
from tests.gallery_play import play_artbox


@pytest.fixture
async def show(
    session: Session, clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[dict[str, Any]]:
    registry.load_all()
    play_artbox(session)
    painted: list[str] = []  # the files handed to the painting process
    paint = gallery.GalleryRoutes._paint

    def counted(routes: gallery.GalleryRoutes, path: Path, render: Any) -> Any:
        painted.append(path.name)
        return paint(routes, path, render)

    monkeypatch.setattr(gallery.GalleryRoutes, "_paint", counted)
    cache = tmp_path / "gallery-cache"
    app = web.Application()
    async def ping(request: web.Request) -> web.Response:
        return web.Response(text="pong")

    app.router.add_get("/ping", ping)
    gallery.GalleryRoutes(session.store, lambda: session.config, clock, cache).install(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    path = session.view_for(KIOSK)["match"]["gallery_url"].split("8080", 1)[1]
    async with aiohttp.ClientSession() as http:
        yield {"base": base, "path": path, "http": http, "painted": painted, "cache": cache,
               "session": session}
    await runner.cleanup()


async def test_eight_parallel_zips_render_every_picture_once(show: dict[str, Any]) -> None:
    http, url = show["http"], show["base"] + show["path"]

    async def download(n: int = 0) -> bytes:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{10 + n}", 0))
        ) as phone, phone.get(url + "/all.zip") as response:
            assert response.status == 200 and response.content_type == "application/zip"
            assert "attachment" in response.headers["Content-Disposition"]
            data: bytes = await response.read()
            return data

    async def pings() -> list[float]:
        took = []
        for _ in range(20):
            started = time.perf_counter()
            async with http.get(show["base"] + "/ping") as response:
                assert await response.text() == "pong"
            took.append(time.perf_counter() - started)
            await asyncio.sleep(0.01)
        return took

    zips, took = await asyncio.gather(
        asyncio.gather(*(download(n) for n in range(8))), pings()
    )
    assert len(set(zips)) == 1, "every phone got the same zip"
    with zipfile.ZipFile(io.BytesIO(zips[0])) as zf:
        pictures = [n for n in zf.namelist() if n.endswith(".png")]
    assert pictures and show["painted"] == ["all.zip"], "the zip built once, not per download"
    assert took, "the loop answered while the zip was built"
    # Kept on disk and served from it: another download paints nothing.
    match_id = show["session"].last_match.record.id
    assert (show["cache"] / str(match_id) / "all.zip").is_file()
    assert await download() == zips[0] and show["painted"] == ["all.zip"]


async def test_one_address_downloads_two_zips_at_once_at_most(show: dict[str, Any]) -> None:
    url = show["base"] + show["path"] + "/all.zip"
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(local_addr=("127.0.0.20", 0))
    ) as phone:
        async def status() -> int:
            async with phone.get(url) as response:
                await response.read()
                return response.status

        statuses = await asyncio.gather(*(status() for _ in range(6)))
    assert statuses.count(200) >= 2 and 429 in statuses


async def test_a_picture_is_painted_once_for_many_phones(show: dict[str, Any]) -> None:
    http, url = show["http"], show["base"] + show["path"]

    async def picture() -> bytes:
        async with http.get(url + "/1.png") as response:
            assert response.status == 200 and response.content_type == "image/png"
            data: bytes = await response.read()
            return data

    got = await asyncio.gather(*(picture() for _ in range(6)))
    assert len(set(got)) == 1 and got[0].startswith(b"\x89PNG")
    assert show["painted"] == ["1.png"]


async def test_the_files_go_with_their_gallery(show: dict[str, Any], clock: FakeClock) -> None:
    http, url = show["http"], show["base"] + show["path"]
    async with http.get(url + "/1.png") as response:
        assert response.status == 200
    session = show["session"]
    folder = show["cache"] / str(session.last_match.record.id)
    assert folder.is_dir()
    (show["cache"] / "999").mkdir()  # a folder whose gallery is long gone
    clock.advance(8 * gallery.DAY)
    gallery.purge(session.store, clock(), 7, show["cache"])
    assert not folder.exists() and not (show["cache"] / "999").exists()


def test_a_gallery_picture_is_the_kiosks_sheet_in_a_true_png() -> None:
    """Painted band by band and encoded by zlib (so the worker lets the loop run), the
    picture is still exactly the kiosk's drawing of it."""
    import pygame

    from appliance.kiosk.strokes import render_sheet

    strokes = [
        {"points": [[(i * 37) % 1600, (i * 53) % 1000, i] for i in range(60)],
         "colour": colour, "width": width}
        for colour, width in (("#202020", 8), ("#e6194b", 30), ("#4363d8", 2))
    ]
    size = (301, 190)  # not a whole number of bands
    png = gallery.drawing_png(gallery.Drawing(1, ("Ada",), "#e6194b", None, tuple(strokes)), size)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    decoded = pygame.image.load(io.BytesIO(png), "picture.png")
    kiosk = render_sheet(strokes, size)
    assert decoded.get_size() == size
    assert pygame.image.tobytes(decoded, "RGB") == pygame.image.tobytes(kiosk, "RGB")
