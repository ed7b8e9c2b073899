"""The take-home gallery in the real Chromium: every picture loads, the zip downloads.

A played ArtBox match is put in the box's store before it starts, as a power cut would
leave it; then the page is opened at the address the kiosk's QR code carries (and with a
trailing slash, as a person may type it).
"""

from __future__ import annotations

import dataclasses
import io
import time
import zipfile
from pathlib import Path
from typing import Any

from appliance.app import DB_NAME
from appliance.system.config import Config, StorageSettings
from appliance.table.session import KIOSK, Session
from appliance.table.store import Store
from games import registry
from tests.browser import PHONE, SCREENSHOT_DIR, WAIT_MS, Appliance
from tests.gallery_play import play_artbox


def played_box(tmp_path: Path) -> tuple[Appliance, str, list[tuple[int, str, str]]]:
    """A box whose store holds a finished ArtBox game; its gallery path and drawings."""
    registry.load_all()
    box = Appliance(tmp_path)
    box.data_dir.mkdir(parents=True)
    config = dataclasses.replace(Config(), storage=StorageSettings(data_dir=str(box.data_dir)))
    store = Store(box.data_dir / DB_NAME)
    try:
        session = Session(store, config, "http://box", time.time)
        match_id = play_artbox(session)
        url = session.view_for(KIOSK)["match"]["gallery_url"]
        from appliance.door import gallery

        record = store.match(match_id)
        assert record is not None
        shown = gallery.build_gallery(record, store.actions(match_id))
        drawings = [(d.round, d.artist, (d.word or {}).get("en", "")) for d in shown.drawings]
    finally:
        store.close()
    return box, url.removeprefix("http://box"), drawings


def test_the_gallery_page_shows_every_picture_and_downloads_its_zip(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    box, path, drawings = played_box(tmp_path)
    assert len(drawings) >= 6
    box.start()
    context = browser.new_context(**PHONE, accept_downloads=True)
    try:
        page = context.new_page()
        for address in (path, path + "/"):
            page.goto(box.url + address)
            assert page.url == box.url + path  # the trailing slash is sent to the page
            images = page.locator("main figure img")
            expect(images).to_have_count(len(drawings), timeout=WAIT_MS)
            for i in range(len(drawings)):
                images.nth(i).scroll_into_view_if_needed()  # they load lazily
            page.wait_for_function(
                "() => [...document.images].every((img) => img.complete)", timeout=WAIT_MS
            )
            broken = page.evaluate(
                "() => [...document.images].filter((img) => !img.naturalWidth)"
                ".map((img) => img.getAttribute('src'))"
            )
            assert broken == [], f"pictures that did not load: {broken}"
        # Every drawing with its word, its round and its artist.
        for rnd, artist, word in drawings:
            section = page.locator("section.round", has=page.get_by_role(
                "heading", name=f"Round {rnd}", exact=True))
            figure = section.locator("figure", has_text=artist).filter(has_text=word)
            expect(figure.first).to_be_visible()
        page.screenshot(path=str(SCREENSHOT_DIR / "easel-gallery-page.png"), full_page=False)
        with page.expect_download(timeout=WAIT_MS) as info:
            page.locator("a.download").click()
        download = info.value
        assert download.suggested_filename.endswith(".zip")
        data = Path(download.path()).read_bytes()
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
            assert len(names) == len(drawings)
            assert all(n.startswith("round-") and n.endswith(".png") for n in names)
            assert all(zf.read(n).startswith(b"\x89PNG") for n in names)
    finally:
        context.close()
        box.stop()
