"""The art show to take home: every drawing of a finished game, as a page and a zip.

When a match ends the session gives it an unguessable token (`secrets.token_urlsafe`,
stored in SQLite's `galleries` table) and the kiosk shows a QR code of
`/gallery/<token>`. That page lists every drawing with its word, round and artist (a
scene the box made, such as Duplik's, beside its canvases) and offers "download all":
PNG files in a zip. Nothing
lists galleries: without the token there is no way to a match's drawings.

Drawings are data in the match's action log; a gallery is rebuilt from it by replaying
the match (appliance/table/keepsakes.py, which asks the game's house for them) and the
pictures are painted on request (appliance/system/drawing.py) by one worker thread, once: the files
are kept in the data directory's `gallery-cache` and served from there. After `[gallery]
keep_days` the token is deleted (`purge`, at start and hourly; a request for an older
one is refused even before that) with its rendered files, and the address stops working.
"""

from __future__ import annotations

import asyncio
import html
import io
import logging
import os
import shutil
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from appliance.system.config import Config
from appliance.system.drawing import png_of, svg_png
from appliance.system.ratelimit import client_key

# The gallery's pieces are the keepsakes' (re-exported: the page is made of them).
from appliance.table.keepsakes import Drawing as Drawing
from appliance.table.keepsakes import Gallery as Gallery
from appliance.table.keepsakes import Scene as Scene
from appliance.table.keepsakes import build_gallery as build_gallery
from appliance.table.keepsakes import slug
from appliance.table.messages import plural_form
from appliance.table.store import MatchRecord, Store, read_actions
from games import registry

log = logging.getLogger("easel.gallery")

DAY: Final = 86_400.0
PNG_SIZE: Final = (1200, 750)
ZIPS_PER_ADDRESS: Final = 2
"""Zips one address may be downloading at once (a phone needs one)."""
PAINTER_IDLE_S: Final = 60.0
"""The painting process (GalleryRoutes._paint) ends this long after its last picture."""
CACHE_MAX_BYTES: Final = 256 * 1024 * 1024
"""Rendered pictures and zips kept on the card at most; the oldest galleries' go first."""
TOKEN_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


# -- pictures --------------------------------------------------------------------------


def drawing_png(drawing: Drawing, size: tuple[int, int] = PNG_SIZE) -> bytes:
    return png_of(list(drawing.strokes), size)


def scene_png(scene: Scene, width: int = PNG_SIZE[0]) -> bytes | None:
    """The scene's SVG rasterised, or None where it cannot be."""
    return svg_png(scene.svg, width)


def gallery_zip(gallery: Gallery) -> bytes:
    """Every drawing as a PNG (and each scene as PNG and SVG) in one zip."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:  # PNGs do not compress
        for name, drawing in gallery.file_names():
            zf.writestr(name, drawing_png(drawing))
        for scene in gallery.scenes:
            base = f"round-{scene.round:02d}-scene"
            png = scene_png(scene)
            if png is not None:
                zf.writestr(f"{base}.png", png)
            zf.writestr(f"{base}.svg", scene.svg, zipfile.ZIP_DEFLATED)
    return buf.getvalue()


# -- expiry ------------------------------------------------------------------------------


def purge(
    store: Store, now: float, keep_days: int, cache_dir: Path | None = None
) -> list[int]:
    """Delete galleries older than `keep_days`; returns their match ids. With
    `cache_dir`, also the rendered files of every gallery that is gone, and the oldest
    ones past `CACHE_MAX_BYTES`."""
    gone = store.delete_galleries_before(now - keep_days * DAY)
    if gone:
        log.info("galleries of matches %s expired and were deleted", gone)
    if cache_dir is not None and cache_dir.is_dir():
        kept: list[tuple[float, int, Path]] = []
        for folder in cache_dir.iterdir():
            if not folder.name.isdigit() or store.gallery_token(int(folder.name)) is None:
                shutil.rmtree(folder, ignore_errors=True)
                continue
            files = [f.stat() for f in folder.iterdir() if f.is_file()]
            kept.append((folder.stat().st_mtime, sum(f.st_size for f in files), folder))
        total = sum(size for _, size, _ in kept)
        for _, size, folder in sorted(kept):
            if total <= CACHE_MAX_BYTES:
                break
            shutil.rmtree(folder, ignore_errors=True)
            total -= size
    return gone


# -- HTTP --------------------------------------------------------------------------------

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
"""English month names, short, as a gallery page writes the day a game was played."""

PAGE_TEXT: Final = {
    "en": {
        "heading": "{title}: the art show",
        "played": "Played {when}",
        "winners": "Winner: {names}",
        "winners_many": "Winners: {names}",
        "together": "Played together: {n} words guessed",
        "together_one": "Played together: 1 word guessed",
        "rating": "Rating: {rating}",
        "download": "Download all pictures (zip)",
        "round": "Round {n}",
        "by": "by {name}",
        "scene": "The scene",
        "none": "No drawings were made in this game.",
        "kept": "This page is kept for {days} days after the game.",
    },
    "cs": {
        "heading": "{title}: výstava obrázků",
        "played": "Hráno {when}",
        "winners": "Vítěz: {names}",
        "winners_many": "Vítězové: {names}",
        "together": "Hráli jste společně: uhodnuto {n} slov",
        "together_one": "Hráli jste společně: uhodnuto 1 slovo",
        "together_few": "Hráli jste společně: uhodnuta {n} slova",
        "rating": "Hodnocení: {rating}",
        "download": "Stáhnout všechny obrázky (zip)",
        "round": "Kolo {n}",
        "by": "autor: {name}",
        "scene": "Předloha",
        "none": "V této hře nevznikly žádné obrázky.",
        "kept": "Tato stránka zůstane {days} dní po hře.",
    },
}


class GalleryRoutes:
    """`/gallery/<token>`, its pictures and its zip; nothing lists galleries.

    Pictures and the zip are rendered once, by one painting process (so downloads never
    take more than one core, nor the GIL from the loop), kept as files in `cache_dir`
    (`<match id>/<name>`, written whole then renamed) and served from disk; a gallery
    asked for by many phones at once is rendered once. Without `cache_dir`, or when the
    card is full, a picture is rendered for each request (in a worker thread).
    """

    def __init__(
        self,
        store: Store,
        config: Callable[[], Config],
        clock: Callable[[], float],
        cache_dir: Path | None = None,
    ):
        self.store = store
        self.config = config
        self.clock = clock
        self.cache_dir = cache_dir
        self._cache: OrderedDict[int, Gallery] = OrderedDict()
        self._building: dict[int, asyncio.Future[Gallery]] = {}
        self._rendering: dict[Path, asyncio.Future[bytes | None]] = {}
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gallery")
        # The process that paints what is kept on disk (`_paint`), while there is work.
        self._painter: Any = None  # a ProcessPoolExecutor (imported when first needed)
        self._painter_idle: asyncio.TimerHandle | None = None
        self._downloads: dict[str, int] = {}  # zips being sent, per address

    def _paint(self, path: Path, render: Callable[[], bytes]) -> asyncio.Future[bytes | None]:
        """Render `render` into `path` in a process of its own (`_render_to`): painting
        is Python and pygame work, and in a thread it would take the GIL from the loop
        that serves every phone, 5 ms at a time. The process goes after PAINTER_IDLE_S
        without work (it holds pygame's memory)."""
        loop = asyncio.get_running_loop()
        if self._painter_idle is not None:
            self._painter_idle.cancel()
            self._painter_idle = None
        done = asyncio.ensure_future(self._painted(path, render))

        def idle(_: asyncio.Future[bytes | None]) -> None:
            if self._painter_idle is None:
                self._painter_idle = loop.call_later(PAINTER_IDLE_S, self.close_painter)

        done.add_done_callback(idle)
        return done

    async def _painted(self, path: Path, render: Callable[[], bytes]) -> bytes | None:
        # Imported here: a box that never paints does not carry multiprocessing.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        loop = asyncio.get_running_loop()
        try:
            if self._painter is None:
                os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # the child's log
                self._painter = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn")
                )
            painted: bytes | None = await loop.run_in_executor(
                self._painter, _render_to, path, render
            )
            return painted
        except (BrokenProcessPool, OSError) as err:  # no process to be had: the thread
            log.warning("gallery painting process unavailable (%s); painting in a thread", err)
            self._painter = None
            return await loop.run_in_executor(self._worker, _render_to, path, render)

    def close_painter(self) -> None:
        """Let the painting process go (it comes back with the next picture to paint)."""
        self._painter_idle = None
        if self._rendering:
            return  # still painting: the last picture's end asks again
        if self._painter is not None:
            self._painter.shutdown(wait=False)
            self._painter = None

    async def _closed(self, app: web.Application) -> None:
        if self._painter_idle is not None:
            self._painter_idle.cancel()
        self._rendering.clear()
        self.close_painter()

    async def _rendered(
        self, match_id: int, name: str, render: Callable[[], bytes]
    ) -> web.StreamResponse | bytes:
        """The file `name` of a gallery: from the disk cache, else rendered once in the
        worker (and kept); returns a FileResponse, or the bytes when nothing could be kept."""
        if self.cache_dir is None:
            return await asyncio.get_running_loop().run_in_executor(self._worker, render)
        path = self.cache_dir / str(match_id) / name
        if path.is_file():
            return web.FileResponse(path)
        pending = self._rendering.get(path)
        if pending is None:
            pending = self._paint(path, render)
            self._rendering[path] = pending
            pending.add_done_callback(lambda _: self._rendering.pop(path, None))
        data = await asyncio.shield(pending)
        if data is None:
            return web.FileResponse(path)
        return data

    def install(self, app: web.Application) -> None:
        app.router.add_get("/gallery/{token}", self.page)
        # The page's own address has no trailing slash (the kiosk's QR code); one typed
        # or pasted with it is sent there rather than shown a 404.
        app.router.add_get("/gallery/{token}/", self.canonical)
        app.router.add_get("/gallery/{token}/all.zip", self.zip)
        app.router.add_get("/gallery/{token}/{n:\\d+}.png", self.picture)
        app.router.add_get("/gallery/{token}/scene-{n:\\d+}.svg", self.scene)
        app.on_cleanup.append(self._closed)

    async def gallery_for(self, token: str) -> Gallery:
        """The gallery of `token`, or 404 (unknown, malformed or expired: all alike)."""
        keep = self.config().gallery.keep_days
        found = (
            self.store.gallery_match(token)
            if 16 <= len(token) <= 64 and set(token) <= TOKEN_CHARS
            else None
        )
        if found is None or keep <= 0 or found[1] < self.clock() - keep * DAY:
            raise web.HTTPNotFound(text="There is no art show at this address (any more).\n")
        match_id = found[0]
        cached = self._cache.get(match_id)
        if cached is not None:
            self._cache.move_to_end(match_id)
            return cached
        record = self.store.match(match_id)
        if record is None or not registry.is_registered(record.game):
            raise web.HTTPNotFound(text="This game's drawings cannot be shown.\n")
        pending = self._building.get(match_id)
        if pending is None:
            loop = asyncio.get_running_loop()
            # The log is read and replayed in a thread with its own read-only connection:
            # a long match's log is megabytes of JSON, not for the loop.
            path = self.store.path
            pending = asyncio.ensure_future(
                loop.run_in_executor(None, _build_from_file, path, record)
                if str(path) != ":memory:"
                else loop.run_in_executor(
                    None, build_gallery, record, self.store.actions(match_id)
                )
            )
            self._building[match_id] = pending
        try:
            gallery = await asyncio.shield(pending)
        finally:
            self._building.pop(match_id, None)
        self._cache[match_id] = gallery
        while len(self._cache) > 4:
            self._cache.popitem(last=False)
        return gallery

    async def page(self, request: web.Request) -> web.Response:
        gallery = await self.gallery_for(request.match_info["token"])
        config = self.config()
        base = f"/gallery/{request.match_info['token']}"
        body = render_page(gallery, config.table.language, config.gallery.keep_days, base)
        return web.Response(text=body, content_type="text/html", headers=_HEADERS)

    async def canonical(self, request: web.Request) -> web.Response:
        await self.gallery_for(request.match_info["token"])  # an unknown token stays 404
        raise web.HTTPPermanentRedirect(f"/gallery/{request.match_info['token']}")

    async def picture(self, request: web.Request) -> web.StreamResponse:
        gallery = await self.gallery_for(request.match_info["token"])
        n = int(request.match_info["n"])
        if not 1 <= n <= len(gallery.drawings):
            raise web.HTTPNotFound(text="no such picture\n")
        drawing = gallery.drawings[n - 1]
        found = await self._rendered(gallery.match_id, f"{n}.png", partial(drawing_png, drawing))
        return _answer(found, "image/png", _IMAGE_HEADERS)

    async def scene(self, request: web.Request) -> web.Response:
        gallery = await self.gallery_for(request.match_info["token"])
        n = int(request.match_info["n"])
        scene = next((s for s in gallery.scenes if s.round == n), None)
        if scene is None:
            raise web.HTTPNotFound(text="no such scene\n")
        return web.Response(text=scene.svg, content_type="image/svg+xml", headers=_IMAGE_HEADERS)

    async def zip(self, request: web.Request) -> web.StreamResponse:
        remote = client_key(request.remote)  # an IPv6 phone: its /64
        # Refused before anything is looked up: a client retrying in a tight loop costs
        # the loop as little as a request can.
        if self._downloads.get(remote, 0) >= ZIPS_PER_ADDRESS:
            raise web.HTTPTooManyRequests(
                text="one download at a time from this address; wait for it to finish\n",
                headers={"Retry-After": "2"},
            )
        self._downloads[remote] = self._downloads.get(remote, 0) + 1
        try:
            gallery = await self.gallery_for(request.match_info["token"])
            found = await self._rendered(
                gallery.match_id, "all.zip", partial(gallery_zip, gallery)
            )
            name = f"easel-{slug(gallery.title.get('en', gallery.game))}-{gallery.match_id}.zip"
            headers = {**_IMAGE_HEADERS,
                       "Content-Disposition": f'attachment; filename="{name}"'}
            response = _answer(found, "application/zip", headers)
            await response.prepare(request)
            await response.write_eof()
            return response
        finally:
            self._downloads[remote] -= 1
            if not self._downloads[remote]:
                del self._downloads[remote]


def _answer(
    found: web.StreamResponse | bytes, content_type: str, headers: dict[str, str]
) -> web.StreamResponse:
    if isinstance(found, bytes):
        return web.Response(body=found, content_type=content_type, headers=headers)
    found.content_type = content_type
    found.headers.update(headers)
    return found


def _render_to(path: Path, render: Callable[[], bytes]) -> bytes | None:
    """In the worker: render and keep as `path` (None: kept, serve the file); the bytes
    themselves when the file cannot be written (a full or read-only card)."""
    if path.is_file():
        return None  # an earlier request rendered it meanwhile
    data = render()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(path.name + ".part")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as err:
        log.warning("gallery file %s not kept (%s); served from memory", path.name, err)
        return data
    return None


def _build_from_file(path: Path, record: MatchRecord) -> Gallery:
    """In a thread: read the match's log through a read-only connection, and replay it."""
    return build_gallery(record, read_actions(path, record.id))


# No script at all on the gallery page; images from the box only; never framed; the
# token in the address is not sent on to anyone (no-referrer).
_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-cache",
}
_IMAGE_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=3600",
}


def render_page(gallery: Gallery, lang: str, keep_days: int, base: str = ".") -> str:
    """The gallery page: plain HTML, every text escaped (names are typed by strangers).

    `base` is the page's own path (`/gallery/<token>`): its pictures and zip are linked
    absolutely under it, since a link relative to `/gallery/<token>` would leave the token
    out (`/gallery/1.png`)."""
    t = PAGE_TEXT.get(lang, PAGE_TEXT["en"])
    e = html.escape
    title = gallery.title.get(lang) or gallery.title.get("en") or gallery.game

    def word_of(word: dict[str, str] | None) -> str:
        return "" if word is None else word.get(lang) or word.get("en", "")

    parts = [
        "<!doctype html>",
        f'<html lang="{e(lang)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{e(t['heading'].format(title=title))}</title>",
        '<link rel="stylesheet" href="/static/gallery.css"></head><body>',
        f"<header><h1>{e(t['heading'].format(title=title))}</h1>",
    ]
    if gallery.finished_at is not None:
        at = datetime.fromtimestamp(gallery.finished_at)
        # As a person reads a day: Czech with dots ("6. 12. 2026 18:42"), English with the
        # month's name ("6 Dec 2026, 18:42"; named here, as %b follows the process locale).
        when = (f"{at.day}. {at.month}. {at.year} {at:%H:%M}" if lang == "cs"
                else f"{at.day} {MONTHS[at.month - 1]} {at.year}, {at:%H:%M}")
        parts.append(f'<p class="muted">{e(t["played"].format(when=when))}</p>')
    if gallery.together is not None:
        n = gallery.together
        form = plural_form(lang, n)
        line = t.get(f"together_{form}", t["together"]).format(n=n)
        parts.append(f"<p>{e(line)}</p>")
        if gallery.verdict:
            # The rules' final rating of the count, as the kiosk and the phones say it.
            said = gallery.verdict.get(lang) or gallery.verdict.get("en", "")
            rated = t["rating"].format(rating=said)
            parts.append(f'<p class="rating"><strong>{e(rated)}</strong></p>')
    elif gallery.winners:
        key = "winners" if len(gallery.winners) == 1 else "winners_many"
        parts.append(f"<p>{e(t[key].format(names=', '.join(gallery.winners)))}</p>")
    if gallery.drawings:
        parts.append(
            f'<p><a class="download" href="{e(base)}/all.zip" download>{e(t["download"])}</a></p>'
        )
    parts.append("</header><main>")
    if not gallery.drawings:
        parts.append(f"<p>{e(t['none'])}</p>")
    rounds = sorted({d.round for d in gallery.drawings} | {s.round for s in gallery.scenes})
    numbered = list(enumerate(gallery.drawings, start=1))
    for rnd in rounds:
        parts.append(f'<section class="round"><h2>{e(t["round"].format(n=rnd))}</h2>')
        parts.append('<div class="grid">')
        for scene in (s for s in gallery.scenes if s.round == rnd):
            caption = f"{t['scene']}: {word_of(scene.title)}"
            parts.append(
                f'<figure class="scene"><img src="{e(base)}/scene-{rnd}.svg" alt="{e(caption)}">'
                f"<figcaption>{e(caption)}</figcaption></figure>"
            )
        for n, drawing in numbered:
            if drawing.round != rnd:
                continue
            word = word_of(drawing.word)
            by = t["by"].format(name=drawing.credit(lang))
            alt = f"{word} — {by}" if word else by
            parts.append(
                f'<figure><img src="{e(base)}/{n}.png" alt="{e(alt)}" loading="lazy" width="600" '
                f'height="375"><figcaption><strong>{e(word)}</strong> '
                f"<span>{e(by)}</span></figcaption></figure>"
            )
        parts.append("</div></section>")
    parts.append(f'</main><footer class="muted">{e(t["kept"].format(days=keep_days))}</footer>')
    parts.append("</body></html>")
    return "\n".join(parts)
