"""The `easel` command: run the appliance, check the config, save the kiosk's frame."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import signal
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from appliance.system import config as config_module
from appliance.system.config import Config, ConfigError
from appliance.table.store import StoreError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="easel", description="Easel, the drawing-games box")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the appliance (kiosk + phones)")
    run.add_argument("--config", type=Path, help="one more config file, read last")
    run.add_argument("--headless", action="store_true", help="no kiosk window; phones only")
    run.add_argument("--host", help="address to listen on (server.host)")
    run.add_argument("--port", type=int, help="port of the phones' page (server.port)")
    run.add_argument("--data-dir", type=Path, help="where the SQLite file lives")
    run.add_argument("-v", "--verbose", action="store_true", help="log debugging detail")
    check = sub.add_parser("check-config", help="check the settings and print them")
    check.add_argument("--config", type=Path, help="one more config file, read last")
    shot = sub.add_parser("screenshot", help="save the running kiosk's frame as PNG")
    shot.add_argument("out", type=Path, help="the PNG file to write")
    shot.add_argument("--config", type=Path, help="one more config file, read last")
    shot.add_argument("--port", type=int, help="the running appliance's port")
    return parser


def _load(args: argparse.Namespace) -> Config:
    cfg = config_module.load(extra=args.config)
    server = cfg.server
    if getattr(args, "host", None):
        server = dataclasses.replace(server, host=args.host)
    if getattr(args, "port", None):
        if not 1 <= args.port <= 65535:
            raise ConfigError(f"--port {args.port} is not allowed: it must be from 1 to 65535")
        server = dataclasses.replace(server, port=args.port)
    storage = cfg.storage
    if getattr(args, "data_dir", None):
        storage = dataclasses.replace(storage, data_dir=str(args.data_dir))
    display = cfg.display
    if getattr(args, "headless", False):
        display = dataclasses.replace(display, mode="headless")
    return dataclasses.replace(cfg, server=server, storage=storage, display=display)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        cfg = _load(args)
    except ConfigError as err:
        print(f"easel: bad config: {err}", file=sys.stderr)
        return 2
    if args.command == "check-config":
        print(config_module.describe(cfg), end="")
        print("config OK")
        return 0
    if args.command == "screenshot":
        return _screenshot(cfg, args.out)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="easel: %(message)s",
        stream=sys.stderr,
    )
    try:
        code = asyncio.run(_run(cfg))
    except (StoreError, OSError) as err:
        print(f"easel: cannot start: {err}", file=sys.stderr)
        return 1
    from appliance.app import RESTART_EXIT

    if code == RESTART_EXIT and not under_systemd():
        _start_again()
    return code


def under_systemd() -> bool:
    """Whether systemd runs the box (its unit is Type=notify, so it hands the box a
    notify socket): then systemd starts it again after a restart's exit code."""
    return bool(os.environ.get("NOTIFY_SOCKET"))


def _start_again() -> None:
    """The host asked for a restart and nothing would start the box again (a desktop's
    `easel run`): the same command replaces this process, as systemd would start it, so
    the host page's promise of a reconnect holds. Returns only if that cannot be done."""
    print("easel: restart asked by the host; starting the box again", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    try:
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
    except OSError as err:
        print(f"easel: stopped; could not start again ({err}): run it again by hand",
              file=sys.stderr)


async def _run(cfg: Config) -> int:
    # No collections while the box starts: the start builds some 150 dataclasses, the
    # games, fonts and word decks, all of which live all day, and gen-0 passes over them
    # were a tenth of the time to the lobby. Appliance.run freezes what the start made and
    # turns the collector back on once the lobby is on screen. (The start's few cyclic
    # leftovers, some 2000 objects, are frozen with it: a few hundred KB once, cheaper
    # than a full collection on the loop just as the phones arrive.)
    gc.disable()
    from appliance.app import Appliance, StartError, TaskFailed
    from appliance.system.sdnotify import Notifier

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    # Under systemd (Type=notify): ready once the lobby shows, watchdog pings from the
    # kiosk's frame loop. Elsewhere these do nothing.
    notifier = Notifier()

    def ready() -> None:
        notifier.ready(f"lobby on screen; phones join at {app.session.join_url}")

    app = Appliance(cfg, on_first_frame=ready, on_frame=notifier.watchdog)
    try:
        await app.run(stop)
    except StartError as err:
        # TaskFailed: the box ran, then a task of it died (its traceback is in the log).
        doing = "stopped" if isinstance(err, TaskFailed) else "cannot start"
        print(f"easel: {doing}: {err}", file=sys.stderr)
        notifier.send(f"STATUS={doing}: {err}")
        return 1
    finally:
        notifier.stopping()
        notifier.close()
    if app.restart_requested:
        from appliance.app import RESTART_EXIT

        # Under systemd (Restart=always) the box starts again at once; elsewhere `main`
        # starts the same command again once this loop is closed.
        if under_systemd():
            print("easel: restart asked by the host; exiting for systemd to start the box "
                  "again", file=sys.stderr)
        return RESTART_EXIT
    return 0


def _screenshot(cfg: Config, out: Path) -> int:
    url = f"http://127.0.0.1:{cfg.server.port}/kiosk.png"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            data = response.read()
    except urllib.error.HTTPError as err:
        print(f"easel: the appliance refused the screenshot: {err.read().decode()}", end="")
        return 1
    except OSError as err:
        print(f"easel: no appliance answers on port {cfg.server.port} ({err}); is it running?")
        return 1
    out.write_bytes(data)
    print(f"saved the kiosk's frame to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
