"""A box whose memory card cannot be written still starts: degraded, not a restart loop.

The whole appliance (server, session, headless kiosk) is started on a data directory
that cannot be created; it comes up, phones join and play, and /healthz says why and
what to do.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pygame
import pytest

from appliance.app import DB_NAME, Appliance
from appliance.system.config import Config, DisplaySettings, ServerSettings, StorageSettings
from appliance.table.session import PALETTE, Session
from appliance.table.store import Store
from tests.conftest import Phone


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_a_box_that_cannot_write_starts_degraded_and_serves_phones(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    port = free_port()
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(blocker / "easel")),
        server=ServerSettings(host="127.0.0.1", port=port),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    app = Appliance(config)
    assert app.degraded is not None and "restart the box" in app.degraded
    stop = asyncio.Event()
    task = asyncio.create_task(app.run(stop))
    try:
        for _ in range(500):
            if app.kiosk is not None and app.kiosk.frames_drawn:
                break
            assert not task.done(), task.result()
            await asyncio.sleep(0.01)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                health = await response.json()
            assert health["ok"] is False
            assert "cannot be written" in health["degraded"]
            assert "Free space" in health["degraded"]
            # The kiosk says it too, in the lobby's notices: what is wrong, what to do.
            notices = app.kiosk_view()["notices"]
            assert any("cannot be written" in n for n in notices), notices
            assert any("restart the box" in n for n in notices), notices
            async with http.get(f"http://127.0.0.1:{port}/kiosk.png") as response:
                assert response.status == 200
                assert (await response.read()).startswith(b"\x89PNG")
            phone = Phone(await http.ws_connect(f"http://127.0.0.1:{port}/ws"))
            welcome = await phone.join(app.session.room, "Ada", PALETTE[0])
            assert welcome["role"] == "player"
            await phone.ws.close()
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (480, 800)])
def test_the_degraded_notices_leave_the_room_code_and_the_start_clear(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """At 800x480 the two lines saying the card cannot be written covered half the room
    code and the Start button: the lobby now keeps above them."""
    from appliance.kiosk.render import KioskRenderer
    from tests.screens import render
    from tests.test_kiosk import make_view

    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    config = dataclasses.replace(
        Config(), storage=StorageSettings(str(blocker / "easel")),
        display=DisplaySettings(mode="headless", width=size[0], height=size[1]),
    )
    app = Appliance(config)
    view = make_view(seats=4)
    view["notices"] = list(app.notices)
    renderer = KioskRenderer()
    renderer.record_layout = True
    _, renderer = render("lobby", size, view, renderer)
    log = renderer.layout
    assert log is not None
    notices = [box for name, box in log.panels if name == "notice"]
    assert len(notices) == 2, log.panels
    others = [(name, box) for name, box in log.panels if name != "notice"]
    assert {"join panel", "start button"} <= {name for name, _ in others}
    for box in notices:
        assert pygame.Rect((0, 0), size).contains(box)
        for name, other in others:
            assert not box.colliderect(other), f"a notice {box} covers the {name} {other}"
        for rect, intent in renderer.targets:
            assert not box.colliderect(rect), f"a notice {box} covers {intent}"


def refuse_the_first_write(monkeypatch: pytest.MonkeyPatch) -> str:
    """The card opens but refuses its first write (a card turned read-only under a file
    already open). Returns what the degraded reason names."""
    real_set_meta = Store.set_meta

    def read_only(self: Store, key: str, value: str) -> None:
        if str(self.path) != ":memory:":
            raise sqlite3.OperationalError("attempt to write a readonly database")
        real_set_meta(self, key, value)

    monkeypatch.setattr(Store, "set_meta", read_only)
    return "readonly database"


def refuse_the_opening(monkeypatch: pytest.MonkeyPatch) -> str:
    """A file system mounted read-only: the data file cannot even be opened for writing
    (SQLite's WAL needs its shared-memory file; make boot-check found it)."""
    real_init = Store.__init__

    def read_only_mount(self: Store, path: Path | str, *args: object, **kwargs: object) -> None:
        if str(path) != ":memory:":
            raise sqlite3.OperationalError("unable to open database file")
        real_init(self, path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "__init__", read_only_mount)
    return "unable to open"


@pytest.mark.parametrize("card_fails", [refuse_the_first_write, refuse_the_opening])
def test_a_card_turned_read_only_keeps_the_room_code_and_the_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    card_fails: Callable[[pytest.MonkeyPatch], str],
) -> None:
    """The report: a read-only card started with a new room code, so every phone's token
    and the code on the table stopped working. The last good state is read (not written)
    and the box plays on from it, in memory, however the card refuses."""
    config = dataclasses.replace(
        Config(),
        storage=StorageSettings(str(tmp_path / "easel")),
        server=ServerSettings(host="127.0.0.1", port=free_port()),
        display=DisplaySettings(mode="headless", width=800, height=480),
    )
    store = Store(config.data_dir() / DB_NAME)
    session = Session(store, config, "http://box", time.time)
    seated = session.join("Ada", PALETTE[0])
    room = session.room
    store.close()
    reason = card_fails(monkeypatch)
    app = Appliance(config)
    assert app.degraded is not None and reason in app.degraded
    assert app.session.room == room
    welcome = app.session.hello("", seated.token)
    assert (welcome.role, welcome.seat) == ("player", seated.seat)
    app.store.close()
