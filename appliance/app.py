"""Wires the box together: config → store → session → phone server, kiosk and clock.

`Appliance.run` is the whole appliance in one coroutine: it opens the store (resuming an
unfinished match), serves the phones, shows the kiosk (or runs headless), turns expired
hourglasses into TIME_UP actions, and stops cleanly when `stop` is set.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import importlib
import logging
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from appliance.door import gallery
from appliance.door.host import PinGuard
from appliance.door.kiosk_games import KioskGames
from appliance.system import memory, netinfo
from appliance.system.clock import JUMP_S, SteadyClock
from appliance.system.config import Config
from appliance.system.table_lights import LightShow
from appliance.system.table_sounds import SOUNDS, SoundCues, SoundDial, SoundLevel
from appliance.table import guess_match
from appliance.table.messages import say
from appliance.table.packs import PackShelf
from appliance.table.session import HOST, KIOSK, Session, SessionError
from appliance.table.store import Store, StoreError
from games import registry

log = logging.getLogger("easel")

DB_NAME = "easel.sqlite3"
RESTART_EXIT = 75
"""The exit code after a restart asked by the host: systemd's Restart=always starts the
box again (EX_TEMPFAIL: "try again"; any code would do)."""
GALLERY_PURGE_S = 3600.0
HOUSEKEEPING_S = 5.0
"""How often the box looks at its network addresses (the join address follows a DHCP
lease or a Wi-Fi that came up late) and, with no match running, at the wall clock."""
MIB = 1024 * 1024


def load_games() -> None:
    """Register every game written, with what the box adds to them (the word-form
    opinion, which needs a library games/ may not import, for the games that want it)."""
    registry.load_all()
    guess_match.register()


def load_kiosk_screens() -> tuple[str, ...]:
    """Import the kiosk screens the registered games' houses bring from outside
    appliance/kiosk/ (which imports its own): each registers itself in the kiosk's
    GAME_SCREENS. One that fails to import is logged, and its game is shown by the
    kiosk's generic screen. Returns the modules imported."""
    loaded = []
    for rules in registry.registered():
        module = registry.house(rules.id).kiosk_screen
        if module is None:
            continue
        try:
            importlib.import_module(module)
        except Exception:
            log.exception("the kiosk screen %s of %s did not load", module, rules.id)
            continue
        loaded.append(module)
    return tuple(loaded)



DUAL_STACK: Final = "::"
"""`[server] host` that takes IPv6 and IPv4 phones both."""


def listen_hosts(host: str) -> tuple[str, ...]:
    """The addresses one `[server] host` listens on. "::" is every IPv6 and every IPv4
    address: asyncio makes an IPv6 socket IPv6-only, so IPv4 gets a socket of its own
    (the QR code's address is IPv4)."""
    return (DUAL_STACK, "0.0.0.0") if host == DUAL_STACK else (host,)


async def listen(runner: web.BaseRunner, host: str, port: int) -> list[web.TCPSite]:
    """Start the phones' server on `host` (see `listen_hosts`); the sites started. With
    "::" and no IPv6 on the box, IPv4 alone (said in the log)."""
    sites: list[web.TCPSite] = []
    for address in listen_hosts(host):
        # Port 0 (tests): the IPv4 socket takes the port the IPv6 one was given.
        bound = port or (sites[0]._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
                         if sites else 0)
        site = web.TCPSite(runner, address, bound)
        try:
            await site.start()
        except OSError as err:
            if address == DUAL_STACK and err.errno in (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL):
                log.warning("no IPv6 on this box (%s): phones join over IPv4 only", err)
                continue
            for started in sites:
                await started.stop()
            raise
        sites.append(site)
    return sites

class StartError(RuntimeError):
    """The appliance cannot start; the message says why and what to do."""


class TaskFailed(StartError):
    """A long-lived task of the running box (the kiosk, the touch panel) died of an error:
    the box stops so that systemd starts it again, rather than sit there frozen."""


def base_url(
    config: Config, addresses: dict[str, str] | None = None, *, warn: bool = True
) -> str:
    """Where phones reach the box: the configured address, else the LAN IP and port."""
    if config.server.public_url:
        return config.server.public_url.rstrip("/")
    host = config.server.host
    if host in ("0.0.0.0", "", "::"):
        host = netinfo.lan_address(addresses) or "127.0.0.1"
        if host == "127.0.0.1" and warn:
            log.warning("no network found yet: the join address follows once the box is on "
                        "Wi-Fi or LAN")
    return f"http://{host}:{config.server.port}"


class Appliance:
    def __init__(
        self,
        config: Config,
        *,
        clock: Callable[[], float] | None = None,
        on_first_frame: Callable[[], None] | None = None,
        on_frame: Callable[[], None] | None = None,
        addresses: Callable[[], dict[str, str]] = netinfo.interface_addresses,
    ) -> None:
        self.config = config
        # Wall-clock time that NTP cannot move under a running hourglass
        # (appliance/system/clock.py).
        self.clock: Callable[[], float] = SteadyClock() if clock is None else clock
        clock = self.clock
        # The network interfaces' addresses, looked at again every HOUSEKEEPING_S.
        self.addresses = addresses
        # What is wrong with the box but does not stop it (a panel pin that cannot be
        # used...): in the log once, and on the kiosk's lobby until the next start.
        self.notices: list[str] = []
        self._noticed: tuple[object, dict[str, Any]] | None = None
        self.failure: str | None = None
        self.on_first_frame = on_first_frame
        self.on_frame = on_frame
        load_games()
        # Why the box runs without keeping anything (a full or read-only card), or None.
        self.degraded: str | None = None
        self.store = self._open_store()
        # Gallery pictures and zips, rendered once (appliance/door/gallery.py).
        self.gallery_cache = config.data_dir() / "gallery-cache"
        # Word packs are read at every game start (appliance/table/packs.py).
        self.shelf = PackShelf(config.packs_dir())
        try:
            self.session = Session(
                self.store, config, base_url(config, addresses()), clock,
                deck_options=self.shelf.options_for,
            )
        except sqlite3.Error as err:
            self._degrade(err)
            self.store.close()
            self.store = self._memory_store(self.config.data_dir() / DB_NAME)
            self.session = Session(
                self.store, config, base_url(config, addresses()), clock,
                deck_options=self.shelf.options_for,
            )
        # One PIN guard for the host page and the kiosk's host menu (appliance/door/host.py),
        # on the monotonic clock: the wall clock set back must not lock the owner out.
        host = config.host
        self.pin_guard = PinGuard(host.pin, host.tries, host.lockout_s)
        self.restart_requested = False
        self.host_menu: Any = None
        self.kiosk: Any = None
        self.panel: Any = None
        self.panel_simulated = False
        self.remote_inputs: Any = None  # drivers.remote.RemoteInputs (docs/remote.md)
        self.kiosk_seats: Any = None  # appliance/door/kiosk_seat.py
        self.kiosk_games = KioskGames()
        self.cec: Any = None  # drivers.remote.Cec once registered
        self._tv_seen: tuple[int | None, int] = (None, 0)
        self.light_show = LightShow()
        # The box's voice (appliance/system/table_sounds.py, drivers/speaker.py): the
        # level the host page and the kiosk's host menu change, the cues from the view.
        sound = config.sound
        self.sound = SoundDial(SoundLevel(sound.enabled, sound.volume, False, sound.quiet_hours))
        self.sound_cues = SoundCues()
        self.speaker: Any = None  # drivers.speaker.Speaker once the kiosk runs
        self._tick_handle: asyncio.TimerHandle | None = None
        self.session.subscribe(self._schedule_tick)
        self._released_after: int | None = None  # the last match whose memory went back

    def _open_store(self) -> Store:
        """The data file; on a card that cannot be written (full, read-only, gone) the box
        still starts, degraded: phones play, nothing is kept, /healthz and the log say
        why and what to do (instead of exiting, which systemd would retry in a loop)."""
        storage = self.config.storage
        path = self.config.data_dir() / DB_NAME
        try:
            store = Store(path, match_budget=storage.match_budget_mb * MIB,
                          total_budget=storage.total_budget_mb * MIB,
                          commit_delay_s=storage.emulate_commit_ms / 1000)
        except (StoreError, sqlite3.Error, OSError) as err:
            # A read-only file system refuses even the opening (the WAL's shared memory
            # file cannot be made): its room code and seats are still read, not written.
            self._degrade(err)
            return self._memory_store(path)
        try:
            store.set_meta("started_at", repr(self.clock()))  # can it still write?
        except sqlite3.Error as err:
            store.close()
            self._degrade(err)
            return self._memory_store(path)
        store.start_writer()  # commits (fsync) on a thread of their own, off the loop
        return store

    def _memory_store(self, last_good: Path | None = None) -> Store:
        """A store in memory; with `last_good` (a data file that reads but cannot be
        written), starting from its room code, seats and logins: the code on the table and
        every phone's token keep working (Store.keep_from)."""
        storage = self.config.storage
        store = Store(":memory:", match_budget=storage.match_budget_mb * MIB,
                      total_budget=storage.total_budget_mb * MIB)
        if last_good is not None and last_good.is_file():
            if store.keep_from(last_good):
                log.warning("kept the room code and seats of %s (it cannot be written)",
                            last_good)
            else:
                log.error("%s cannot be read either: a new room code", last_good)
        return store

    def _degrade(self, err: BaseException) -> None:
        where = self.config.data_dir()
        self.degraded = (
            f"the data file in {where} cannot be written ({err}); games are played but not "
            "kept. Free space on the memory card (or make it writable) and restart the box"
        )
        log.error("running degraded: %s", self.degraded)
        # The kiosk says it too, in two lines its lobby has room for: what, and what to do.
        # (Before the kiosk opens: the lobby shows the notices from its first frame.)
        lang = self.config.table.language
        for text in (
            say(lang, "degraded_card", "The memory card cannot be written: games are "
                "played but not kept."),
            say(lang, "degraded_todo", "Free space on it (or make it writable), then "
                "restart the box."),
        ):
            if text not in self.notices:
                self.notices.append(text)

    def _open_kiosk(self) -> Any:
        from appliance.kiosk import Kiosk
        from appliance.kiosk.display import DisplayChoice, DisplayError, detect_display

        load_kiosk_screens()

        size = (self.config.display.width, self.config.display.height)
        rotation = self.config.display.rotation
        connector = self.config.display.connector
        present = self.config.display.present
        choice = detect_display(self.config.display.mode)
        try:
            kiosk = Kiosk(size, rotation, choice, connector=connector, present=present)
        except DisplayError as err:
            if choice.driver == "kmsdrm":
                # The box's own screen: a headless appliance would look dead. Say why.
                raise StartError(
                    f"{err}. Check that the screen is connected and that /boot/firmware/"
                    "config.txt has dtoverlay=vc4-kms-v3d, that the user is in the video "
                    "and render groups, and that no desktop or other program holds the "
                    "screen (docs/install.md, \"Black screen\"); display.mode = headless "
                    "runs the box for phones only"
                ) from None
            log.warning("cannot open the display (%s); running headless", err)
            choice = DisplayChoice(
                "dummy", False, True, f"the display failed ({err}); running headless"
            )
            kiosk = Kiosk(size, rotation, choice, connector=connector, present=present)
        log.info("kiosk: %s", choice.reason)
        return kiosk

    def _open_panel(self, on_pi: bool) -> Any:
        """The GPIO panel, or None when config says there is none. A part that cannot be
        used stops the start with a message naming its pin and the fix."""
        from drivers.panel import Panel, PanelError, PanelWiring, choose_pin_factory

        settings = self.config.panel
        if not settings.enabled:
            log.info("panel: none (panel.enabled = false); the kiosk's buttons stand in")
            return None
        wiring = PanelWiring(
            buttons={
                "hourglass": settings.hourglass_button,
                "die": settings.die_button,
                "reveal": settings.reveal_button,
            },
            leds={
                "hourglass": settings.hourglass_led,
                "die": settings.die_led,
                "reveal": settings.reveal_led,
            },
            bar=settings.bar,
            buzzer=None if settings.buzzer_kind == "none" else settings.buzzer,
            buzzer_kind=settings.buzzer_kind,  # type: ignore[arg-type]  # checked by config
            bounce_s=settings.bounce_ms / 1000,
            hold_s=settings.hold_s,
        )
        choice = None
        try:
            choice = choose_pin_factory(settings.pin_factory, on_pi)  # type: ignore[arg-type]
            panel = Panel(wiring, choice.factory, self._on_press, asyncio.get_running_loop())
        except PanelError as err:
            if choice is not None:  # the GPIO chip stays open otherwise, for nothing
                try:
                    choice.factory.close()
                except Exception:
                    log.debug("closing the pin factory failed", exc_info=True)
            # A busy or missing pin must not keep the whole box dark (and restarting every
            # 2 s): the kiosk's on-screen buttons stand in, and the lobby says what is wrong.
            keys = {pin: key for key, pin in settings.pins().items()}
            key = keys.get(err.pin) if err.pin is not None else None
            where = f"set panel.{key} to a free GPIO, " if key else ""
            log.error(
                "panel: off, the on-screen buttons stand in: %s. Check the wiring against "
                "docs/wiring.md, %sor set panel.enabled = false if this box has no panel",
                err, where,
            )
            if err.part and err.pin is not None:
                what = f"{err.part} on GPIO{err.pin} cannot be used"
                what += f" (panel.{key})" if key else ""
            else:
                what = "no GPIO library works"
            self.notice(f"Panel off: {what}. The on-screen buttons stand in; the log says why.")
            return None
        log.info("panel: %s", choice.reason)
        self.panel_simulated = choice.simulated
        return panel

    def _touch_source(self, on_pi: bool) -> str:
        """Where the kiosk's touches come from: one source only, so no finger counts twice.
        "auto" reads the panel directly under KMS/DRM on a Pi (no desktop hands it on)."""
        source = self.config.touch.source
        if source == "auto":
            source = "evdev" if on_pi and self.kiosk.choice.driver == "kmsdrm" else "sdl"
        return source

    def _has_touch(self) -> bool:
        """Whether the kiosk's screen takes touches (else no screen offers drawing on it:
        a TV): a desktop's mouse stands in; under evdev, a touch panel is found at start
        (one plugged in later says so with its first touch, `Kiosk.feed_touches`)."""
        if self.kiosk.touch_source == "none":
            return False
        if self.kiosk.touch_source == "sdl" or self.config.touch.device:
            return True
        from drivers.touch import find_touchscreen

        try:
            return find_touchscreen() is not None
        except OSError:
            return False

    def _touch_panel(self) -> Any:
        from drivers.touch import Orientation, TouchPanel

        touch = self.config.touch

        def feed(touches: list[Any]) -> None:
            # A kiosk bug must not end touch for the rest of the day: log it, go on.
            try:
                self.kiosk.feed_touches(touches)
            except Exception:
                log.exception("the kiosk could not take touches %r", touches[:3])

        return TouchPanel(
            feed,
            path=touch.device or None,
            grab=touch.grab,
            orientation=Orientation(touch.swap_xy, touch.invert_x, touch.invert_y),
        )

    def _keys_source(self, on_pi: bool) -> str:
        """Where a keyboard's keys come from: one source only, so no key counts twice."""
        remote = self.config.remote
        if not remote.enabled:
            return "none"
        if remote.keyboard == "auto":
            return "evdev" if on_pi and self.kiosk.choice.driver == "kmsdrm" else "sdl"
        return remote.keyboard

    def _remote_inputs(self) -> Any:
        from drivers.remote import RemoteInputs

        def feed(press: Any) -> None:
            try:
                self.kiosk.feed_remote([press])
            except Exception:
                log.exception("the kiosk could not take the remote key %r", press)

        # HOURGLASS held as long as on the panel is its long press.
        return RemoteInputs(feed, keyboards=self.kiosk.keys_source == "evdev",
                            grab=self.config.remote.grab, hold_s=self.config.panel.hold_s)

    def _tv_output(self) -> Any:
        """The HDMI output the kiosk shows on (drivers.remote.ScreenOutput), or None: not
        on KMS/DRM (a desktop window, headless) or not on HDMI (a DSI panel is no TV)."""
        from appliance.kiosk.display import hdmi_output
        from drivers.remote import ScreenOutput

        if self.kiosk is None or (self.kiosk.choice.driver or "").lower() != "kmsdrm":
            return None
        found = hdmi_output(self.config.display.connector)
        return None if found is None else ScreenOutput(found.card, found.connector_id,
                                                       found.name)

    async def _register_tv(self) -> None:
        from drivers.remote import Cec, cec_device_for

        tv = self.config.tv
        output = self._tv_output()
        device = tv.device
        if device == "auto":
            # A Pi 4 or 5 has an adapter per HDMI port: the TV's is the kiosk's output's.
            device, why = await cec_device_for(output)
            log.info("tv: CEC on %s: %s", device, why)
        cec = Cec(device, tv.osd_name, clock=self.clock)
        if await cec.register():
            self.cec = cec
            self._tv_seen = self._tv_moment()
            if output is not None:
                # The TV sends its remote's keys to the active source only: a box that
                # boots onto a TV says it is the one on screen (wake = false or not).
                await cec.announce()

    def _tv_moment(self) -> tuple[int | None, int]:
        match = self.session.match
        return (None if match is None else int(match.record.id), len(self.session.seats))

    def _tv_watch(self) -> None:
        """One Touch Play when a game starts or the lobby gets a new player."""
        if self.cec is None or not self.config.tv.wake:
            return
        before, now = self._tv_seen, self._tv_moment()
        self._tv_seen = now
        started = now[0] is not None and now[0] != before[0]
        joined = now[0] is None and now[1] > before[1]
        if started or joined:
            task = asyncio.get_running_loop().create_task(self.cec.wake())
            self._tv_tasks.add(task)
            task.add_done_callback(self._tv_tasks.discard)

    def _on_press(self, press: Any) -> None:
        try:
            self.session.press(press.button, press.long)
        except SessionError as err:
            log.info("panel: %s", err)
            self.session.tell_table(err)

    def notice(self, text: str) -> None:
        """Say on the kiosk's lobby that something is wrong (the log has the detail)."""
        if text not in self.notices:
            self.notices.append(text)
            self._noticed = None
            if self.kiosk is not None:
                self.kiosk.wake()

    def kiosk_view(self) -> Any:
        """What the kiosk draws: the session's view, the seat pad, the host's layer and the
        notices."""
        view = self.kiosk_games.decorate(self.session.view_for(KIOSK))
        view = self.host_menu.decorate(self.kiosk_seats.decorate(view))
        if not self.notices:
            return view
        cached = self._noticed
        if cached is not None and cached[0] is view:
            return cached[1]
        out = dict(view)
        out["notices"] = list(self.notices)
        out["version"] = (view.get("version"), "notices", len(self.notices))
        self._noticed = (view, out)
        return out

    def _show_lights(self) -> None:
        if self.panel is None:
            return
        try:
            self.panel.show(self.light_show.lights(self.session.view_for(KIOSK), self.clock()))
        except Exception as err:  # a pin lost while running: the kiosk's buttons take over
            log.exception("panel: the lights failed; the panel is off until the next start")
            panel, self.panel = self.panel, None
            self.kiosk.renderer.panel_buttons = True
            self.kiosk.led_pulse = False
            self.notice(f"Panel off: its lights failed ({err}). On-screen buttons stand in.")
            try:
                panel.close()
            except Exception:
                log.debug("closing the failed panel failed", exc_info=True)

    def _play_sounds(self) -> None:
        """The sounds of what changed on the table since the last frame (never raises:
        a sound is not worth a frame)."""
        if self.speaker is None:
            return
        try:
            now = self.clock()
            events = self.sound_cues.events(self.session.view_for(KIOSK), now)
            gain = self.sound.level.gain_at(now) if events else 0.0
            for name in events:
                self.speaker.play(name, gain)
        except Exception:
            log.exception("sound: the table's cues failed")

    def _open_speaker(self) -> Any:
        if not self.config.sound.enabled:
            log.info("sound: off (sound.enabled = false)")
            return None
        from drivers.speaker import Speaker

        speaker = Speaker(SOUNDS)
        speaker.start()  # tries the device on its own thread; says in the log what it found
        return speaker

    def _on_intent(self, intent: Any) -> None:
        from appliance.kiosk.intents import (
            ActAs,
            DrawStroke,
            FinishChoice,
            KickSeat,
            PressButton,
            Quit,
            SelectGame,
            StartGame,
            TogglePause,
        )

        if self.host_menu is not None and self.host_menu.handle(intent):
            return  # the kiosk's host menu (appliance/door/kiosk_host.py)
        if self.kiosk_seats is not None and self.kiosk_seats.handle(intent):
            return  # sitting down without a phone (appliance/door/kiosk_seat.py)
        try:
            match intent:
                # The writes go to the store's writer thread, never waited for here; a
                # late refusal is the kiosk's notice (`start_for_table`).
                case KickSeat(seat=seat):
                    self.session.start_for_table(self.session.kick_async(HOST, seat))
                case SelectGame(game=game):
                    self.session.start_for_table(self.session.select_async(HOST, game))
                case StartGame():
                    # The seats say who has no phone; the set-up runs off the loop.
                    self.session.start_for_table(self.session.start_async(HOST))
                case FinishChoice(again=again):
                    self.session.start_for_table(self.session.leave_finish_async(HOST, again))
                case PressButton(button=button, long=long):
                    self.session.press(button, long)
                case ActAs(seat=seat, kind=kind, data=data):
                    self.session.act_for_table(seat, kind, data)
                case DrawStroke(canvas=canvas, points=points):
                    stroke = {
                        "points": [list(p) for p in points],
                        "colour": canvas.colour,
                        "width": canvas.width,
                    }
                    self.session.act_for_table(canvas.seat, canvas.kind, stroke)
                case TogglePause() if self.session.match is not None:
                    # The remote's play/pause: the kiosk may always host.
                    if self.session.paused:
                        self.session.start_for_table(self.session.resume_async(HOST))
                    else:
                        self.session.start_for_table(self.session.pause_async(HOST))
                case Quit():
                    self._stop.set()
        except SessionError as err:
            log.info("kiosk: %s", err)
            self.session.tell_table(err)  # a tap refused is said on the kiosk too

    def request_restart(self) -> None:
        """The host asked for a restart: stop cleanly; the CLI exits with RESTART_EXIT."""
        log.warning("restart asked by the host")
        self.restart_requested = True
        self._stop.set()

    def _purge_galleries(self) -> None:
        # Deletes and the cache's folders are the writer thread's (its own connection),
        # never the phones' loop: a big prune or a slow card holds nobody's drawing.
        now, keep_days, cache = self.clock(), self.config.gallery.keep_days, self.gallery_cache
        keep_matches_days = self.config.storage.keep_matches_days

        def purge(store: Store) -> None:
            try:
                gallery.purge(store, now, keep_days, cache)
            except Exception:  # the box goes on; the next hour tries again
                log.exception("old galleries could not be deleted")
            try:
                pruned = store.prune(before=now - keep_matches_days * gallery.DAY)
                if pruned:
                    log.info("deleted %d matches older than %d days", len(pruned),
                             keep_matches_days)
            except Exception:
                log.exception("old matches could not be deleted")

        if self.store.later(purge) is None:
            purge(self.store)
        self._purge_handle = asyncio.get_running_loop().call_later(
            GALLERY_PURGE_S, self._purge_galleries
        )

    def _release_after_match(self) -> None:
        """Once per ended match, after the kiosk drew its end (the match's pictures and
        caches replaced by the result's): give the heap's free pages back to the system
        (appliance/system/memory.py), in a worker thread so no phone waits for it."""
        last = self.session.last_match
        if self.session.match is not None or last is None:
            return
        if last.record.id == self._released_after:
            return
        self._released_after = last.record.id
        asyncio.get_running_loop().run_in_executor(None, memory.release_free_memory)

    def _schedule_tick(self) -> None:
        """Wake when the running hourglass ends (re-planned after every change)."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        deadline = self.session.next_deadline()
        if deadline is None:
            return
        # Deadlines are wall-clock (they survive a restart); the loop's timer is monotonic,
        # so look again at least once a second in case the wall clock was set.
        delay = min(1.0, max(0.0, deadline - self.clock()))
        self._tick_handle = asyncio.get_running_loop().call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        try:
            self.session.tick()  # a change re-plans through the listener
        except SessionError as err:
            log.error("the hourglass could not run out: %s", err)
        self.session.keep_time()  # what a power cut now leaves of the hourglass
        if self._tick_handle is None:
            self._schedule_tick()

    def follow_address(self) -> bool:
        """Look at the interfaces again; a new join address redraws the QR codes (the
        network came up after the box, the lease changed). True if it changed."""
        try:
            url = base_url(self.config, self.addresses(), warn=False)
        except OSError as err:
            log.debug("cannot read the network addresses: %s", err)
            return False
        before = self.session.join_url
        if not self.session.set_base_url(url):
            return False
        log.info("phones now join at %s (was %s)", self.session.join_url, before)
        return True

    def _follow_wall_clock(self) -> None:
        """Between matches the box's clock takes the wall clock's time again (NTP set it):
        the store's dates stay true, and no running hourglass feels the jump."""
        clock = self.clock
        if not isinstance(clock, SteadyClock) or self.session.match is not None:
            return
        jump = clock.resync()
        if abs(jump) >= JUMP_S:
            log.info("the wall clock moved %+.0f s (NTP?); the box's clock follows", jump)

    def _housekeep(self) -> None:
        try:
            self.follow_address()
            self._follow_wall_clock()
        except Exception:  # the box goes on; the next round tries again
            log.exception("housekeeping failed")
        self._housekeeping = asyncio.get_running_loop().call_later(
            HOUSEKEEPING_S, self._housekeep
        )

    def _watch(self, task: asyncio.Task[Any]) -> None:
        """A long-lived task that ends by itself with an error stops the box at once, its
        traceback in the log, so systemd starts it again (rather than a frozen screen
        until the watchdog's 30 s are up, with nothing said)."""

        def ended(done: asyncio.Task[Any]) -> None:
            if done.cancelled() or self._stop.is_set():
                return
            err = done.exception()
            what = f"the {done.get_name()} task stopped"
            if err is not None:
                log.critical("%s: %r; stopping so that the box starts again", what, err,
                             exc_info=err)
                self.failure = f"{what}: {err!r}"
            else:
                log.critical("%s by itself; stopping so that the box starts again", what)
                self.failure = what
            self._stop.set()

        task.add_done_callback(ended)

    async def run(self, stop: asyncio.Event) -> None:
        from appliance.door.host_api import HostApi
        from appliance.door.kiosk_host import KioskHostMenu
        from appliance.door.server import AcceptErrors, GuardedRunner, PhoneServer
        from appliance.kiosk import run_kiosk
        from appliance.kiosk.display import detect_pi
        from appliance.table.lobby_history import LobbyHistory

        self._stop = stop
        self.kiosk = self._open_kiosk()
        server = PhoneServer(self.session, self.config, kiosk_png=self.kiosk.png_async)
        server.degraded = self.degraded
        # The host page and the galleries share the phones' server (docs/protocol.md).
        HostApi(
            self.session, self.config, self.shelf, self.clock, self.request_restart,
            self.pin_guard, sound=self.sound,
        ).install(server.app)
        gallery.GalleryRoutes(
            self.store, lambda: self.session.config, self.clock, self.gallery_cache
        ).install(server.app)
        history = (
            LobbyHistory(self.session, self.clock, self.config.lobby.history_step_s)
            if self.config.lobby.history
            else None
        )
        self.host_menu = KioskHostMenu(
            self.session, self.pin_guard, self.clock, self.request_restart, history, self.sound
        )
        from appliance.door.kiosk_seat import KioskSeats

        self.kiosk_seats = KioskSeats(self.session)
        self._purge_galleries()
        # After the server's listener: the phones' views go out first, and the kiosk draws
        # while the phones (other devices) take theirs in.
        self.session.subscribe(self.kiosk.view_changed)  # coalesced: VIEW_INTERVAL_S
        # Out of file descriptors at accept: one line a minute, not a traceback each time.
        asyncio.get_running_loop().set_exception_handler(AcceptErrors())
        runner = GuardedRunner(server, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await listen(runner, self.config.server.host, self.config.server.port)
        except OSError as err:
            await runner.cleanup()
            if err.errno == errno.EADDRINUSE:
                raise StartError(
                    f"port {self.config.server.port} is in use (is Easel already running?); "
                    "stop the other program or set server.port"
                ) from None
            raise StartError(f"cannot listen on port {self.config.server.port}: {err}") from None
        log.info(
            "phones join at %s (room %s); data in %s",
            self.session.join_url,
            self.session.room,
            self.store.path,
        )
        try:
            self.panel = self._open_panel(detect_pi())
        except StartError:
            await runner.cleanup()
            raise
        # Without a real panel the kiosk shows the panel's three buttons on screen.
        self.kiosk.renderer.panel_buttons = self.panel is None or self.panel_simulated
        # A real panel's LEDs breathe on loop turns (a simulated one has none to see).
        self.kiosk.led_pulse = self.panel is not None and not self.panel_simulated
        self.kiosk.touch_source = self._touch_source(detect_pi())
        self.kiosk.renderer.touch = self._has_touch()
        from drivers.remote import ArrowRepeat, key_for_sdl

        self.kiosk.sdl_keys = key_for_sdl  # the one key table (drivers/remote.py)
        self.kiosk.key_repeat = ArrowRepeat()  # held arrows in the window: one cadence
        self.kiosk.keys_source = self._keys_source(detect_pi())
        log.info("touch: %s", {"evdev": "read from the touch panel (evdev)",
                               "sdl": "through SDL (a mouse drag stands in)",
                               "none": "off"}[self.kiosk.touch_source])
        first_frame_seen = False

        def frame_done() -> None:
            nonlocal first_frame_seen
            if not first_frame_seen and self.kiosk.frames_drawn > 0:
                first_frame_seen = True
                log.info("lobby on screen %.2f s after start", _process_age())
                # Everything loaded so far (fonts, scenes, word decks) lives all day: keep
                # it out of the collector's full passes, which would otherwise walk it
                # in the middle of a move. `easel run` starts with the collector off
                # (appliance/cli.py): it runs from here on.
                gc.freeze()
                gc.enable()
                if self.on_first_frame:
                    self.on_first_frame()
            self._show_lights()
            self._play_sounds()
            self._release_after_match()
            if self.on_frame:
                self.on_frame()

        self.speaker = self._open_speaker()
        self._schedule_tick()  # a resumed match may have an hourglass running
        self._housekeeping = asyncio.get_running_loop().call_later(
            HOUSEKEEPING_S, self._housekeep
        )
        tasks = [
            asyncio.create_task(
                run_kiosk(
                    self.kiosk,
                    self.kiosk_view,
                    self.clock,
                    self._on_intent,
                    stop,
                    on_frame=frame_done,
                ),
                name="kiosk",
            ),
        ]
        if self.kiosk.touch_source == "evdev":
            tasks.append(asyncio.create_task(self._touch_panel().run(stop), name="touch"))
        self._tv_tasks: set[asyncio.Task[Any]] = set()
        if self.config.remote.enabled:
            self.remote_inputs = self._remote_inputs()
            tasks.append(asyncio.create_task(self.remote_inputs.run(stop), name="remote"))
        if self.config.tv.cec:
            # Off the start's path: cec-ctl may take a second or time out on a quiet bus.
            # A one-off, not a long-lived task: its end is no failure (see _watch).
            register = asyncio.create_task(self._register_tv(), name="tv")
            self._tv_tasks.add(register)
            register.add_done_callback(self._tv_tasks.discard)
            self.session.subscribe(self._tv_watch)
        for task in tasks:
            self._watch(task)
        try:
            await stop.wait()
        finally:
            if self._tick_handle is not None:
                self._tick_handle.cancel()
            self._purge_handle.cancel()
            self._housekeeping.cancel()
            for task in [*tasks, *self._tv_tasks]:
                task.cancel()
            await asyncio.gather(*tasks, *self._tv_tasks, return_exceptions=True)
            await runner.cleanup()
            if self.panel is not None:
                self.panel.close()
            if self.speaker is not None:
                self.speaker.close()
            self.store.close()
            log.info("stopped")
        if self.failure is not None:
            raise TaskFailed(self.failure)


def _process_age() -> float:
    """Seconds since this process started (from /proc, so imports are counted too)."""
    try:
        with open("/proc/self/stat") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def data_file(config: Config) -> Path:
    return config.data_dir() / DB_NAME
