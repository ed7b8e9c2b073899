"""The host page's server side: `/host` and its JSON API under `/host/api/` (docs/protocol.md).

The café owner (or a parent) runs the table from a phone: after the PIN (appliance/door/host.py)
a login cookie lets it choose the game and its options, kick a seat or hand it to a
newcomer, pause, end the game, switch the language, restart the box, read today's results
and manage word packs. Every request body is checked with msgspec against its own
schema; every refusal is JSON `{"error": {"code", "message"}}` in the box's language with
a fitting HTTP status, and never disturbs the game or the phones.

What the host sees of a running game is `Session.view_for(HOST_PAGE)`: the public table
(what the kiosk shows, without the Wi-Fi password) plus the seats; never a seat's own
view, so a host phone cannot read a word, a scene or a vote.

Cross-site requests: the cookie is SameSite=Strict, every POST must be JSON, and a
browser's Origin must be this box, so another page cannot drive the host's login.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Final
from urllib.parse import urlsplit

import msgspec
from aiohttp import web

from appliance.door.host import HostLogins, HostPageOff, LockedOut, PinGuard, WrongPin
from appliance.system.config import Config
from appliance.system.ratelimit import client_key
from appliance.system.table_sounds import SoundDial
from appliance.table.game_options import default_options
from appliance.table.history import result_of, today
from appliance.table.messages import say
from appliance.table.packs import (
    DECK_OPTIONS,
    BadPackName,
    NoSuchPack,
    PackShelf,
    problem_json,
    problem_text,
)
from appliance.table.session import HOST, HOST_PAGE, NotNow, Session, SessionError
from games import registry
from games.packs import PackError

log = logging.getLogger("easel.host")

STATIC_DIR: Final = Path(__file__).parents[1] / "web" / "static"
COOKIE: Final = "easel_host"


class Login(msgspec.Struct, forbid_unknown_fields=True):
    pin: Annotated[str, msgspec.Meta(max_length=32)]


class SelectGame(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, msgspec.Meta(max_length=64)]


class StartGame(msgspec.Struct, forbid_unknown_fields=True):
    options: dict[str, Any] = msgspec.field(default_factory=dict)


class FinishChoice(msgspec.Struct, forbid_unknown_fields=True):
    again: bool = False


class SeatRequest(msgspec.Struct, forbid_unknown_fields=True):
    seat: Annotated[int, msgspec.Meta(ge=0, le=63)]


class NameRequest(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(max_length=64)]


class Language(msgspec.Struct, forbid_unknown_fields=True):
    lang: Annotated[str, msgspec.Meta(max_length=8)]


class SoundChange(msgspec.Struct, forbid_unknown_fields=True):
    volume: Annotated[int, msgspec.Meta(ge=0, le=100)] | None = None
    muted: bool | None = None


class Nothing(msgspec.Struct, forbid_unknown_fields=True):
    pass


class Upload(msgspec.Struct, forbid_unknown_fields=True):
    file: Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
    text: Annotated[str, msgspec.Meta(max_length=300_000)]


BODY_BYTES: Final = 16 * 1024
"""A host page request's JSON body, at most (a PIN, a seat, the start's options)."""
UPLOAD_BYTES: Final = 1024 * 1024
"""A pack upload's body (300,000 characters of TOML, escaped as JSON), at most; only a
host who is logged in gets to send one."""

ENGLISH: Final = {
    "no_pin": "The host page is off: set a PIN ([host] pin in /etc/easel/appliance.toml).",
    # The number after a colon: right for any number ("1 more tries" was not).
    "wrong_pin": "That PIN is not right. Tries left before a wait: {tries}.",
    "locked": "Too many wrong PINs; try again in {seconds} seconds.",
    "login_first": "Please log in with the PIN first.",
    "bad_origin": "Requests to the host page must come from the host page itself.",
    "not_json": "The request must be JSON (Content-Type: application/json).",
    "invalid": "The request is not valid: {detail}",
    "too_big": "The request is too big: at most {limit} bytes.",
    "too_slow": "The request's body did not arrive within {seconds} seconds; try again.",
    "bad_pack": "The pack was not saved: {detail}",
    "bad_pack_name": "{detail}",
    "no_such_pack": "{detail}",
    "restarting": "The box restarts now; this page reconnects in a few seconds.",
    "not_saved": "The box cannot write to its memory card ({detail}); nothing changed.",
}
CZECH: Final = {
    "no_pin": (
        "Stránka hostitele je vypnutá: nastavte PIN ([host] pin v /etc/easel/appliance.toml)."
    ),
    "wrong_pin": "Tento PIN není správný. Zbývající pokusy, než se bude čekat: {tries}.",
    "locked": "Příliš mnoho špatných PINů; zkuste to znovu za {seconds} s.",
    "login_first": "Nejdřív se přihlaste PINem.",
    "bad_origin": "Požadavky na stránku hostitele musí přijít z ní samotné.",
    "not_json": "Požadavek musí být JSON (Content-Type: application/json).",
    "invalid": "Požadavek není platný: {detail}",
    "too_big": "Požadavek je příliš velký: nejvýš {limit} bajtů.",
    "too_slow": "Tělo požadavku nedorazilo do {seconds} s; zkuste to znovu.",
    "bad_pack": "Balíček nebyl uložen: {detail}",
    "bad_pack_name": "„{name}“ není název balíčku: použijte písmena, číslice, - a _ "
    "(nejvýš 48) a na konci .toml",
    "no_such_pack": "Balíček „{name}“ tu není.",
    "restarting": "Krabice se restartuje; stránka se za pár sekund znovu připojí.",
    "not_saved": "Krabice nemůže zapisovat na paměťovou kartu ({detail}); nic se nezměnilo.",
}


class HostError(Exception):
    """A refusal of the host API: an HTTP status, a code and a sentence."""

    def __init__(self, status: int, code: str, **params: Any) -> None:
        super().__init__(ENGLISH[code].format(**params))
        self.status = status
        self.code = code
        self.params = params


class Answered(HostError):
    """A refusal already sent, its connection closed (a body not to be read at all)."""

    def __init__(self, refusal: HostError, response: web.Response) -> None:
        super().__init__(refusal.status, refusal.code, **refusal.params)
        self.response = response


class HostApi:
    def __init__(
        self,
        session: Session,
        config: Config,
        shelf: PackShelf,
        clock: Callable[[], float],
        on_restart: Callable[[], None] | None = None,
        guard: PinGuard | None = None,
        *,
        sound: SoundDial | None = None,
    ) -> None:
        self.session = session
        self.config = config
        self.shelf = shelf
        self.clock = clock
        self.on_restart = on_restart
        self.sound = sound  # None: a box without a voice (the page shows no sound row)
        host = config.host
        # Waits on the monotonic clock, not the box's wall-clock time: a clock set back
        # must not lock the owner out.
        self.guard = guard or PinGuard(host.pin, host.tries, host.lockout_s)
        # Kept in the data file: a restart of the box does not log the host out.
        self.logins = HostLogins(host.login_minutes, clock, store=session.store)

    @property
    def lang(self) -> str:
        return self.session.language_override or self.config.table.language

    def install(self, app: web.Application) -> None:
        app.router.add_get("/host", self.page)
        app.router.add_post("/host/api/login", self.login)
        app.router.add_post("/host/api/logout", self.logout)
        app.router.add_get("/host/api/state", self.state)
        app.router.add_post("/host/api/select", self.select)
        app.router.add_post("/host/api/start", self.start)
        app.router.add_post("/host/api/kick", self.kick)
        app.router.add_post("/host/api/offer", self.offer)
        app.router.add_post("/host/api/let_back", self.let_back)
        app.router.add_post("/host/api/pause", self.pause)
        app.router.add_post("/host/api/resume", self.resume)
        app.router.add_post("/host/api/end", self.end)
        app.router.add_post("/host/api/finish", self.finish)
        app.router.add_post("/host/api/language", self.language)
        app.router.add_post("/host/api/restart", self.restart)
        app.router.add_post("/host/api/sound", self.set_sound)
        app.router.add_post("/host/api/packs", self.upload_pack)
        app.router.add_delete("/host/api/packs/{file}", self.delete_pack)

    # -- plumbing -----------------------------------------------------------------------
    def _error(self, err: HostError | SessionError) -> web.Response:
        if isinstance(err, Answered):
            return err.response
        if isinstance(err, HostError):
            template = (CZECH if self.lang == "cs" else ENGLISH)[err.code]
            message = template.format(**err.params)
            status, code, extra = err.status, err.code, err.params
        else:
            message = say(self.lang, err.key, err.template, **err.params)
            # OSError: the box could not write (a full or read-only card): not the host's doing.
            status = 409 if isinstance(err, NotNow) else 503 if isinstance(
                err, OSError) else 403 if isinstance(
                err, PermissionError) else 404 if isinstance(err, LookupError) else 400
            code, extra = err.code, {}
        body: dict[str, Any] = {"error": {"code": code, "message": message, **extra}}
        return web.json_response(body, status=status, headers=_NO_STORE)

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        netloc = urlsplit(origin).netloc
        public = urlsplit(self.config.server.public_url).netloc
        return netloc == request.host or (bool(public) and netloc == public)

    async def _body(self, request: web.Request, kind: type[Any]) -> Any:
        if not self._origin_ok(request):
            raise HostError(403, "bad_origin")
        if request.content_type != "application/json":
            raise HostError(415, "not_json")
        raw = await self._read(request, UPLOAD_BYTES if kind is Upload else BODY_BYTES)
        try:
            return msgspec.json.decode(raw or b"{}", type=kind)
        except (msgspec.ValidationError, msgspec.DecodeError) as err:
            raise HostError(400, "invalid", detail=str(err)) from None

    async def _read(self, request: web.Request, limit: int) -> bytes:
        """The body, at most `limit` bytes, within the header timeout: a stranger's
        half-sent bodies (a login is a PIN) would each hold up to the app's megabyte for
        as long as the connection lives (184 of them held 250 MB)."""
        length = request.content_length
        if length is not None and length > limit:
            await self._refuse_unread(request, HostError(413, "too_big", limit=limit))
        seconds = self.config.server.header_timeout_s
        body = bytearray()
        try:
            async with asyncio.timeout(seconds):
                while chunk := await request.content.read(65536):
                    body += chunk
                    if len(body) > limit:
                        break
        except TimeoutError:
            await self._refuse_unread(request, HostError(408, "too_slow",
                                                         seconds=_seconds(seconds)))
        if len(body) > limit:
            await self._refuse_unread(request, HostError(413, "too_big", limit=limit))
        return bytes(body)

    async def _refuse_unread(self, request: web.Request, refusal: HostError) -> None:
        """Answer `refusal` now and close the connection, the rest of its body unread
        (aiohttp would otherwise read on, for seconds, what the stranger still sends)."""
        response = self._error(refusal)
        response.force_close()
        await response.prepare(request)
        await response.write_eof()
        request.protocol.force_close()
        raise Answered(refusal, response)

    def _require_login(self, request: web.Request) -> None:
        if not self.guard.enabled:
            raise HostError(503, "no_pin")
        if not self.logins.is_valid(request.cookies.get(COOKIE)):
            raise HostError(401, "login_first")

    async def _do(
        self,
        request: web.Request,
        kind: type[Any],
        action: Callable[[Any], Awaitable[None] | None],
    ) -> web.Response:
        try:
            self._require_login(request)
            body = await self._body(request, kind)
            done = action(body)
            if done is not None:
                await done
        except (HostError, SessionError) as err:
            return self._error(err)
        except sqlite3.Error as err:  # a write nothing guarded: say why, change nothing
            log.error("host page: %s could not be saved: %s", request.path, err)
            return self._error(HostError(503, "not_saved", detail=str(err)))
        return web.json_response(await self._state(), headers=_NO_STORE)

    # -- the page and the login ---------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        response = web.FileResponse(STATIC_DIR / "host.html")
        response.headers.update(_PAGE_HEADERS)
        return response

    async def login(self, request: web.Request) -> web.Response:
        remote = request.remote or "?"  # counted on its /64 too (host.client_keys)
        client = client_key(remote)
        try:
            body = await self._body(request, Login)
            try:
                self.guard.check(remote, body.pin)
            except HostPageOff:
                raise HostError(503, "no_pin") from None
            except LockedOut as err:
                raise HostError(429, "locked", seconds=_seconds(err.retry_after)) from None
            except WrongPin as err:
                log.warning("host page: wrong PIN from %s", client)
                raise HostError(401, "wrong_pin", tries=err.tries_left) from None
        except HostError as err:
            response = self._error(err)
            if err.code == "locked":
                response.headers["Retry-After"] = str(err.params["seconds"])
            return response
        token = self.logins.open()
        log.info("host page: logged in from %s", client)
        response = web.json_response(await self._state(), headers=_NO_STORE)
        response.set_cookie(
            COOKIE, token, max_age=int(self.logins.seconds), path="/host", httponly=True,
            samesite="Strict",
        )
        return response

    async def logout(self, request: web.Request) -> web.Response:
        self.logins.close(request.cookies.get(COOKIE))
        response = web.json_response({"ok": True}, headers=_NO_STORE)
        response.del_cookie(COOKIE, path="/host")
        return response

    async def state(self, request: web.Request) -> web.Response:
        try:
            self._require_login(request)
        except HostError as err:
            response = self._error(err)
            if err.code == "login_first":
                # Tell the login screen about a running lock-out before it is tried.
                locked = self.guard.locked_for(request.remote or "?")
                response.headers["X-Easel-Locked"] = str(_seconds(locked))
            return response
        return web.json_response(await self._state(), headers=_NO_STORE)

    async def _state(self) -> dict[str, Any]:
        session = self.session
        lang = self.lang
        config = session.config
        # Checked off the loop: a changed pack takes up to a second (kept once checked).
        packs = await asyncio.get_running_loop().run_in_executor(None, self.shelf.files)
        return {
            "view": session.view_for(HOST_PAGE),
            "paused": session.paused,
            "defaults": {
                r.id: default_options(config, r.id) for r in registry.registered()
            },
            "results": [result_of(r, lang) for r in today(session.store, self.clock())],
            # Removed from the running game, until let back (`let_back`).
            "kicked": sorted(session.kicked.values()),
            "packs": [f.to_json(lang) for f in packs],
            "packs_dir": str(self.shelf.directory),
            "sound": None if self.sound is None else self.sound.level.to_json(self.clock()),
        }

    # -- what the host does ------------------------------------------------------------
    async def select(self, request: web.Request) -> web.Response:
        return await self._do(
            request, SelectGame, lambda b: self.session.select_async(HOST, b.game)
        )

    async def start(self, request: web.Request) -> web.Response:
        async def go(body: StartGame) -> None:
            game = self.session.selected
            # The packs' decks are the box's to add; a host's own `words`, `cards`,
            # `subjects` or `categories` would bypass them. Read off the loop.
            options = {k: v for k, v in body.options.items() if k not in DECK_OPTIONS}
            await self.session.start_async(HOST, options)
            log.info("host page started %s with %s", game, options)

        return await self._do(request, StartGame, go)

    async def kick(self, request: web.Request) -> web.Response:
        return await self._do(request, SeatRequest, lambda b: self.session.kick_async(HOST, b.seat))

    async def let_back(self, request: web.Request) -> web.Response:
        return await self._do(
            request, NameRequest, lambda b: self.session.let_back_async(HOST, b.name)
        )

    async def offer(self, request: web.Request) -> web.Response:
        return await self._do(
            request, SeatRequest, lambda b: self.session.offer_seat_async(HOST, b.seat)
        )

    async def pause(self, request: web.Request) -> web.Response:
        return await self._do(request, Nothing, lambda b: self.session.pause_async(HOST))

    async def resume(self, request: web.Request) -> web.Response:
        return await self._do(request, Nothing, lambda b: self.session.resume_async(HOST))

    async def end(self, request: web.Request) -> web.Response:
        return await self._do(request, Nothing, lambda b: self.session.end_match_async(HOST))

    async def finish(self, request: web.Request) -> web.Response:
        """From a game's finish back to the lobby, or (`again`) into the same game anew."""
        return await self._do(
            request, FinishChoice, lambda b: self.session.leave_finish_async(HOST, b.again)
        )

    async def language(self, request: web.Request) -> web.Response:
        return await self._do(
            request, Language, lambda b: self.session.set_language_async(HOST, b.lang)
        )

    async def set_sound(self, request: web.Request) -> web.Response:
        """The volume (0-100) and the mute, until the box restarts."""
        def change(body: SoundChange) -> None:
            if self.sound is not None:
                level = self.sound.set(body.volume, body.muted)
                log.info("host page: sound volume %d%s", level.volume,
                         ", muted" if level.muted else "")

        return await self._do(request, SoundChange, change)

    async def restart(self, request: web.Request) -> web.Response:
        try:
            self._require_login(request)
            await self._body(request, Nothing)
        except HostError as err:
            return self._error(err)
        log.warning("host page asked for a restart")
        if self.on_restart is not None:
            # After this answer has gone out: the page learns why it lost the box.
            asyncio.get_running_loop().call_later(0.3, self.on_restart)
        message = (CZECH if self.lang == "cs" else ENGLISH)["restarting"]
        return web.json_response({"restarting": True, "message": message}, headers=_NO_STORE)

    async def upload_pack(self, request: web.Request) -> web.Response:
        try:
            self._require_login(request)
            body = await self._body(request, Upload)
            try:
                # Parsing a pack (up to 300 kB of TOML) is not for the loop every phone uses.
                await asyncio.get_running_loop().run_in_executor(
                    None, self.shelf.save, body.file, body.text.encode("utf-8")
                )
            except RecursionError:
                deep = "balíček je zanořený příliš hluboko" if self.lang == "cs" else (
                    "the pack nests too deeply")
                raise HostError(400, "bad_pack", detail=deep) from None
            except BadPackName as err:
                raise HostError(400, "bad_pack_name", detail=str(err),
                                name=body.file[:60]) from None
            except PackError as err:
                # In the box's language, as every refusal; the codes for a program.
                failure = HostError(400, "bad_pack",
                                    detail=problem_text(err.problems[0], self.lang))
                failure.params["problems"] = [problem_text(p, self.lang) for p in err.problems]
                failure.params["issues"] = [problem_json(p, self.lang) for p in err.problems]
                raise failure from None
            except OSError as err:
                raise HostError(400, "bad_pack", detail=err.strerror or str(err)) from None
        except HostError as err:
            return self._error(err)
        return web.json_response(await self._state(), headers=_NO_STORE)

    async def delete_pack(self, request: web.Request) -> web.Response:
        try:
            self._require_login(request)
            if not self._origin_ok(request):
                raise HostError(403, "bad_origin")
            try:
                self.shelf.delete(request.match_info["file"])
            except NoSuchPack as err:
                raise HostError(404, "no_such_pack", detail=str(err),
                                name=request.match_info["file"][:60]) from None
        except HostError as err:
            return self._error(err)
        return web.json_response(await self._state(), headers=_NO_STORE)


def _seconds(value: float) -> int:
    return max(1, int(-(-value // 1)))


_NO_STORE: Final = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_PAGE_HEADERS: Final = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
