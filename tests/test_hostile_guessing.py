"""Guessing the host PIN, odd names, and a full or read-only memory card.

The PIN is limited per address and for the whole box (no number of addresses gets
past), records holding a lock are never evicted, the kiosk's pad locks itself only
briefly and never locks anyone else out, and a login survives a restart. Names that
draw nothing are refused, emoji sequences are welcome. When the card is full or
read-only, ending or pausing a game is refused with a clear reason and changes nothing.
All against real servers on loopback and a real SQLite file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from appliance.door.host import (
    GLOBAL_BURST,
    KIOSK_CLIENT,
    KIOSK_MAX_LOCK_S,
    MAX_CLIENTS,
    HostLogins,
    LockedOut,
    PinGuard,
    WrongPin,
)
from appliance.door.host_api import HostApi
from appliance.door.server import PhoneServer
from appliance.system.config import Config, HostSettings
from appliance.table.packs import PackShelf
from appliance.table.session import PALETTE, BadName, Session, clean_name
from appliance.table.store import Store
from games import registry
from tests.conftest import FakeClock, Phone
from tests.toygame import RaceToTwenty

PIN = "4821"


# --- the PIN ------------------------------------------------------------------------------


def test_a_thousand_addresses_do_not_get_past_the_box_wide_budget(clock: FakeClock) -> None:
    guard = PinGuard(PIN, tries=5, lockout_s=60, clock=clock)
    checked = 0
    for n in range(1008):  # every address tries 10 PINs within the same minute
        for guess in range(10):
            try:
                guard.check(f"10.0.{n // 250}.{n % 250}", f"{guess:04d}")
                raise AssertionError("a wrong PIN was taken")
            except WrongPin:
                checked += 1
            except LockedOut:
                pass
    assert checked <= GLOBAL_BURST
    # A fresh address for every wrong PIN spends even the reserve kept for clean
    # clients: then even the right PIN is not looked at while the budget is spent ...
    with pytest.raises(LockedOut) as locked:
        guard.check("192.168.1.50", PIN)
    assert 0 < locked.value.retry_after <= 60
    # ... and comes back slowly: one more guess a minute.
    clock.advance(60)
    guard.check("192.168.1.50", PIN)


def test_the_owner_gets_in_while_four_addresses_keep_guessing(clock: FakeClock) -> None:
    guard = PinGuard(PIN, tries=5, lockout_s=60, clock=clock)
    attackers = [f"10.0.0.{n}" for n in range(4)] + ["2001:db8:6:6::1"]
    for address in attackers[:4]:  # 20 wrong PINs from 4 addresses ...
        for guess in range(5):
            with pytest.raises((WrongPin, LockedOut)):
                guard.check(address, f"{guess:04d}")
    owners = ["192.168.1.50", "2001:db8:1:2::50", "2001:db8:1:2:a:b:c:d"]
    for minute in range(120):  # ... then, for two hours, one more every minute
        clock.advance(60)
        address = attackers[minute % len(attackers)]
        with pytest.raises((WrongPin, LockedOut)):
            guard.check(address, f"{minute:04d}")
        # Meanwhile the owner's right PIN gets in, from IPv4 and from IPv6.
        guard.check(owners[minute % len(owners)], PIN)
    # A typo of the owner's own is only a typo.
    with pytest.raises(WrongPin):
        guard.check("192.168.1.50", "1234")
    guard.check("192.168.1.50", PIN)


def test_addresses_taken_at_will_in_one_ipv6_network_are_slowed_as_one(
    clock: FakeClock,
) -> None:
    guard = PinGuard(PIN, tries=3, lockout_s=60, clock=clock)
    checked = 0
    for n in range(1, 200):  # a fresh address of the same /64 for every guess
        try:
            guard.check(f"2001:db8:5:5::{n:x}", "0000")
        except WrongPin:
            checked += 1
        except LockedOut:
            pass
    assert checked < 3 * 4, "the /64 was locked after its own tries"
    with pytest.raises(LockedOut):
        guard.check("2001:db8:5:5::9999", PIN)
    guard.check("2001:db8:5:6::1", PIN)  # the next network is not its neighbour's keeper
    guard.check("192.168.1.50", PIN)


async def test_a_wall_clock_set_back_locks_nobody_out(
    session: Session, config: Config, clock: FakeClock, tmp_path: Path
) -> None:
    config = dataclasses.replace(config, host=HostSettings(pin=PIN, tries=3, lockout_s=30))
    api = HostApi(session, config, PackShelf(tmp_path / "packs", ()), clock)
    clock.advance(-3600)  # the wall clock set back an hour, no game running
    api.guard.check("192.168.1.50", PIN)
    clock.advance(-2 * 86400)  # and two days
    api.guard.check("192.168.1.50", PIN)
    with pytest.raises(WrongPin):
        api.guard.check("192.168.1.51", "0000")


def test_a_locked_address_is_not_evicted_into_a_fresh_start(clock: FakeClock) -> None:
    guard = PinGuard(PIN, tries=2, lockout_s=60, clock=clock)
    for _ in range(2):
        with pytest.raises((WrongPin, LockedOut)):
            guard.check("10.9.9.9", "0000")
    assert guard.locked_for("10.9.9.9") > 0
    for n in range(MAX_CLIENTS + 50):  # other addresses, each one wrong PIN, over hours
        clock.advance(200)  # (so the box-wide budget is never what stops them)
        with pytest.raises((WrongPin, LockedOut)):
            guard.check(f"10.1.{n // 250}.{n % 250}", "0000")
        with pytest.raises((WrongPin, LockedOut)):  # and the locked one keeps trying
            guard.check("10.9.9.9", "0000")
    assert guard.locked_for("10.9.9.9") > 0, "its lock survived"
    assert len(guard._clients) <= MAX_CLIENTS


def test_the_kiosk_pad_locks_only_briefly_and_locks_out_no_phone(clock: FakeClock) -> None:
    guard = PinGuard(PIN, tries=3, lockout_s=60, clock=clock)
    longest = 0.0
    for _ in range(200):  # a child at the screen all afternoon
        try:
            guard.check(KIOSK_CLIENT, "1111")
        except LockedOut as err:
            longest = max(longest, err.retry_after)
            clock.advance(err.retry_after)
        except WrongPin:
            pass
    assert 0 < longest <= KIOSK_MAX_LOCK_S
    guard.check("192.168.1.50", PIN)  # the owner's phone is not locked out
    clock.advance(KIOSK_MAX_LOCK_S)
    guard.check(KIOSK_CLIENT, PIN)


def test_a_login_survives_a_restart_but_not_its_expiry_or_logout(
    tmp_path: Path, clock: FakeClock
) -> None:
    store = Store(tmp_path / "db")
    token = HostLogins(minutes=10, clock=clock, store=store).open()
    other = HostLogins(minutes=10, clock=clock, store=store).open()
    store.close()
    store = Store(tmp_path / "db")  # the box restarted
    logins = HostLogins(minutes=10, clock=clock, store=store)
    assert logins.is_valid(token) and logins.is_valid(other)
    assert token not in (store.get_meta("host_logins") or ""), "only hashes are kept"
    logins.close(other)
    assert not HostLogins(minutes=10, clock=clock, store=store).is_valid(other)
    clock.advance(601)
    assert not HostLogins(minutes=10, clock=clock, store=store).is_valid(token)
    store.close()


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "A\u3164", "\u115f\u1160",
                                  "\u200b", "Bo\u00ad", "\ufeffEve", "\u2062"])
def test_names_that_draw_nothing_are_refused(name: str) -> None:
    with pytest.raises(BadName) as refused:
        clean_name(name)
    assert refused.value.key in ("name_chars", "name_empty")


@pytest.mark.parametrize("name", ["👩‍👩‍👧", "Ada 🧑🏽‍🚀", "🏳️‍🌈", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "Zoë", "Ji-ří", "1️⃣"])
def test_emoji_sequences_and_accents_are_welcome(name: str) -> None:
    assert clean_name(name) == name


# --- a full or read-only card ---------------------------------------------------------------


def make_read_only(store: Store) -> None:
    """SQLite refuses every write from now on, as on a card the kernel made read-only;
    a full card (SQLITE_FULL) takes the same way: a sqlite3.Error on the write."""
    store._db.execute("PRAGMA query_only = ON")


@pytest.fixture
async def host_table(
    store: Store, config: Config, clock: FakeClock, race: RaceToTwenty, tmp_path: Path
) -> AsyncIterator[dict[str, Any]]:
    registry.load_all()
    config = dataclasses.replace(config, host=HostSettings(pin=PIN, tries=3, lockout_s=30))
    session = Session(store, config, "http://box", clock)
    server = PhoneServer(session, config)
    HostApi(session, config, PackShelf(tmp_path / "packs", ()), clock).install(server.app)
    runner = web.AppRunner(server.app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        phones = [Phone(await http.ws_connect(url + "/ws")) for _ in range(2)]
        for name, phone, colour in zip(("Ada", "Bo"), phones, PALETTE, strict=False):
            await phone.join(session.room, name, colour)
        session.select(0, race.id)
        session.start(0)
        async with http.post(url + "/host/api/login", json={"pin": PIN}) as response:
            assert response.status == 200
        yield {"session": session, "store": store, "phones": phones, "http": http, "url": url}
        for phone in phones:
            await phone.ws.close()
    await runner.cleanup()


@pytest.mark.parametrize("break_card", [make_read_only])
async def test_the_host_phone_hears_why_a_game_cannot_end(
    host_table: dict[str, Any], break_card: Any
) -> None:
    session, host = host_table["session"], host_table["phones"][0]
    break_card(host_table["store"])
    await host.send({"type": "end"})
    error = await host.expect("error")
    assert error["code"] == "not_saved" and "could not be ended" in error["message"]
    assert session.match is not None, "the game goes on"
    await host.send({"type": "ping"})
    assert (await host.expect("pong"))["type"] == "pong", "the connection stays"


@pytest.mark.parametrize("break_card", [make_read_only])
async def test_the_host_page_gets_a_reason_and_a_failed_pause_is_not_applied(
    host_table: dict[str, Any], break_card: Any
) -> None:
    session, http, url = host_table["session"], host_table["http"], host_table["url"]
    break_card(host_table["store"])
    for call in ("pause", "end"):
        async with http.post(f"{url}/host/api/{call}", json={}) as response:
            assert response.status == 503, call
            assert response.content_type == "application/json"
            body = json.loads(await response.text())
        assert body["error"]["code"] == "not_saved" and body["error"]["message"]
    assert not session.paused and session.match is not None
    # The phones can still move (or hear why not): nothing was half applied.
    phone = host_table["phones"][0]
    await phone.send({"type": "act", "id": "m1", "kind": "add", "data": {"n": 1}})
    answer = await phone.expect("error")
    assert answer["code"] == "not_saved" and answer["ref"] == "m1"


async def test_a_deeply_nested_pack_is_a_bad_pack(host_table: dict[str, Any]) -> None:
    http, url = host_table["http"], host_table["url"]
    text = 'title = "Deep"\ngame = "artbox"\nwords = ' + "[" * 2000 + "]" * 2000 + "\n"
    async with http.post(f"{url}/host/api/packs",
                         json={"file": "deep.toml", "text": text}) as response:
        body = json.loads(await response.text())
        assert response.status == 400, body
    assert body["error"]["code"] == "bad_pack"
