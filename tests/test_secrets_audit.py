"""The secrets audit: every message the box sends to every phone, in seeded playouts of
every registered game over real WebSockets, carries nothing that phone may not know yet.

The conformance suite checks each game's `view` in isolation; this checks what actually
leaves the box: the session's whole view (lobby, seats, deadline, cues, outcome) as
encoded and sent, to each player, a late joiner watching, a guest, and the kiosk. What a
seat may not know comes from the game itself (`rules.secrets(state)`: the word to the
Critic, other players' words and guesses, the Duplik scene and criteria, votes and owners
before the reveal), recorded at every version; the match's seed must never appear.
`EASEL_AUDIT_STEPS` lengthens the playouts (the default plays a few hundred moves a game).
"""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import random
import re
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import pytest
from aiohttp import WSMsgType

from appliance.table.session import BUTTONS, HOST, KIOSK, PALETTE, Session
from games import registry
from games.core import TABLE, VOTE
from tests.conftest import FakeClock, LiveServer, Phone

STEPS = int(os.environ.get("EASEL_AUDIT_STEPS", "400"))
GAMES = [rules.id for rules in registry.load_all()]
LEAKS: list[str] = []


class Listener:
    """Collects every message a phone receives, as sent."""

    def __init__(self, phone: Phone, who: str, seat: int | None) -> None:
        self.phone = phone
        self.who = who
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        async for msg in self.phone.ws:
            if msg.type != WSMsgType.TEXT:
                return
            self.messages.append(json.loads(msg.data))


def _words(secret: str) -> re.Pattern[str]:
    # Whole words only: the word "tent" is a leak, "content" in some sentence is not.
    return re.compile(r"(?<!\w)" + re.escape(secret) + r"(?!\w)", re.IGNORECASE)


def _values(node: Any) -> Any:
    """`node` with every mapping turned into the list of its values and its keys that are
    not field names, less the protocol's own words in the fields that carry them. A
    field's name is protocol, not state: the kiosk's notice has a field called "key",
    which is also an ArtBox card (quoted as JSON writes it, `"key"`), and a refused press
    at the wrong moment made the audit cry leak. Keys that are data (seat numbers) stay
    in; no view indexes by a word (words are values, as the secrets are)."""
    if isinstance(node, dict):
        return [[k for k in node if not _FIELD_NAME.fullmatch(k)],
                *(_values(_unprotocol(k, v)) for k, v in node.items())]
    if isinstance(node, list):
        return [_values(v) for v in node]
    return node


_FIELD_NAME = re.compile(r"[a-z][a-z_]*[a-z]|[a-z]")

# Fields whose values are the protocol's own words: what an hourglass times, the table's
# buttons, and a pressed button's notice. "hourglass" is also a Broad Lines word, and a
# match dealt its card made every view with a running hourglass cry leak. Only these
# words are taken out, and only from these fields: a card's word in "what" still counts.
_PROTOCOL_WORDS: dict[str, frozenset[str]] = {
    "what": frozenset(("hourglass", VOTE)),
    "buttons": frozenset(BUTTONS),
    "key": frozenset(BUTTONS),
}


def _unprotocol(field: str, value: Any) -> Any:
    words = _PROTOCOL_WORDS.get(field)
    if words is None:
        return value
    if isinstance(value, str):
        return None if value in words else value
    if isinstance(value, list):
        return [v for v in value if not (isinstance(v, str) and v in words)]
    return value


def _visible(message: dict[str, Any]) -> str:
    """The message's values as JSON text, without the game catalogue's fixed titles (not
    state) and without field names."""
    shown = dict(message)
    shown.pop("games", None)
    return json.dumps(_values(shown), ensure_ascii=False)


class Audit:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.versions: list[int] = []
        self.owners: list[dict[str, set[int | None]]] = []

    def record(self) -> None:
        """What each seat may not see at the session's current version."""
        match = self.session.match
        owners: dict[str, set[int | None]] = {}
        if match is not None:
            for owner, values in match.rules.secrets(match.state).items():
                for secret in values:
                    owners.setdefault(secret, set()).add(owner)
        version = self.session.version
        if self.versions and self.versions[-1] == version:
            self.owners[-1] = owners
        else:
            self.versions.append(version)
            self.owners.append(owners)

    def forbidden_at(self, version: int, seat: int | None) -> list[str]:
        i = bisect.bisect_right(self.versions, version) - 1
        if i < 0:
            return []
        return [s for s, allowed in self.owners[i].items() if seat is None or seat not in allowed]

    def check(self, who: str, seat: int | None, message: dict[str, Any], seed: int) -> None:
        text = _visible(message)
        if str(seed) in text:
            LEAKS.append(f"{who} was sent the match's seed")
        version = message.get("version")
        if message.get("type") != "view" or not isinstance(version, int):
            return
        for secret in self.forbidden_at(version, seat):
            if _words(secret).search(text):
                LEAKS.append(f"{who} (seat {seat}) saw {secret!r} at version {version}")


@pytest.fixture
async def table(live: LiveServer) -> AsyncIterator[LiveServer]:
    yield live


WATCHED: list[int] = []
"""Views of the latecomer's whose game state was compared with the kiosk's."""


async def play(live: LiveServer, clock: FakeClock, game: str, seed: int) -> tuple[int, int]:
    """Seat players, start `game`, play random legal moves; returns (moves, messages).
    A watcher (the latecomer) must be sent exactly the game the kiosk shows: its every
    view's state is compared with the kiosk's of the same version."""
    session = live.session
    rules = registry.get(game)
    rnd = random.Random(seed)
    players = min(max(rules.min_players, 4), rules.max_players)
    phones = [await live.phone() for _ in range(players)]
    for i, phone in enumerate(phones):
        await phone.join(session.room, f"Player{i}", PALETTE[i])
    listeners = [Listener(p, f"player {i}", i) for i, p in enumerate(phones)]
    audit = Audit(session)
    session.select(HOST, game)
    # The match's seed comes from the playout's, whatever conftest deals: seed 24 below
    # must deal the card it names.
    match_seed = rnd.getrandbits(62) | (1 << 40)  # large, so it cannot hide in small numbers
    with mock.patch("appliance.table.session.secrets.randbits", return_value=match_seed):
        session.start(HOST, {})
    assert session.match is not None and session.match.record.seed == match_seed
    audit.record()
    # A latecomer seated outside the match, and a guest who only said hello: both watch.
    late = await live.phone()
    await late.join(session.room, "Latecomer", PALETTE[players])
    guest = await live.phone()
    await guest.send({"type": "hello", "room": session.room, "token": None})
    listeners += [Listener(late, "latecomer", None), Listener(guest, "guest", None)]
    audit.record()
    kiosk_states: dict[int, Any] = {}
    moves = 0
    for step in range(STEPS):
        match = session.match
        if match is None:
            break
        clock.advance(rnd.uniform(0.05, 3.0))
        choices = [(seat, a) for seat in range(players)
                   for a in match.rules.legal_actions(match.state, seat)]
        presses = [a for a in match.rules.legal_actions(match.state, TABLE)
                   if a.kind.startswith(("press_", "hold_"))]
        deadline = match.rules.deadline(match.state)
        if deadline is not None and (not choices or rnd.random() < 0.1):
            clock.advance(max(0.0, deadline.at - clock()) + 0.01)
            session.tick()
        elif presses and (not choices or rnd.random() < 0.15):
            kind = rnd.choice(presses).kind
            session.press(kind.split("_", 1)[1], long=kind.startswith("hold_"))
        else:
            assert choices, f"{game}: nobody can act at step {step}"
            seat, action = rnd.choice(choices)
            await phones[seat].send({"type": "act", "id": f"{seed}-{step}",
                                     "kind": action.kind, "data": action.data})
            # Wait for the answer, so the version the audit records is this move's.
            for _ in range(500):
                if any(m.get("id") == f"{seed}-{step}" or m.get("ref") == f"{seed}-{step}"
                       for m in listeners[seat].messages[-8:]):
                    break
                await asyncio.sleep(0.001)
        moves += 1
        audit.record()
        kiosk_view = session.view_for(KIOSK)
        audit.check("the kiosk", None, kiosk_view, match_seed)
        if kiosk_view["match"] is not None:
            shown = kiosk_view["match"]["state"]
            kiosk_states[kiosk_view["version"]] = json.loads(json.dumps(shown))
        if step % 25 == 0:
            await asyncio.sleep(0.01)  # let views reach the phones while the game goes on
    await asyncio.sleep(0.2)
    sent = 0
    for listener in listeners:
        for message in listener.messages:
            audit.check(listener.who, listener.seat, message, match_seed)
            sent += 1
            if listener.who == "latecomer" and message.get("type") == "view" and message["match"]:
                kiosk = kiosk_states.get(message["version"])
                if kiosk is not None:
                    WATCHED.append(message["version"])
                    if message["match"]["state"] != kiosk:
                        LEAKS.append(f"the latecomer's game at version {message['version']} "
                                     "is not the kiosk's")
    for phone in [*phones, late, guest]:
        await phone.ws.close()
    return moves, sent


# Seed 24 deals Broad Lines' "hourglass" card, a word that is also the protocol's.
@pytest.mark.parametrize(("game", "seed"), [*((g, 11) for g in GAMES), ("broad-lines", 24)])
async def test_no_message_carries_what_its_phone_may_not_know(
    table: LiveServer, clock: FakeClock, game: str, seed: int
) -> None:
    LEAKS.clear()
    WATCHED.clear()
    moves, sent = await play(table, clock, game, seed)
    assert moves > 20, f"{game}: the playout was too short to mean anything"
    assert sent > moves, "the phones received the game"
    assert len(WATCHED) > 10, f"{game}: the watcher's views were hardly compared ({WATCHED})"
    assert LEAKS == [], f"{game}: {len(LEAKS)} leaks, first: {LEAKS[:5]}"


def test_the_audit_can_fail() -> None:
    """A view that names a seat's secret to another seat is caught."""
    audit = Audit.__new__(Audit)
    audit.versions, audit.owners = [3], [{"giraffe": {1}}]
    LEAKS.clear()
    audit.check("player 0", 0, {"type": "view", "version": 3, "match": {"w": "Giraffe"}}, 99)
    audit.check("player 1", 1, {"type": "view", "version": 3, "match": {"w": "giraffe"}}, 99)
    audit.check("player 2", 2, {"type": "view", "version": 4, "match": {"w": "giraffes"}}, 99)
    audit.check("player 2", 2, {"type": "view", "version": 4, "seed": 99}, 99)
    # A field's name is not a leak; the same word as a value is.
    audit.versions, audit.owners = [5], [{'"key"': {1}}]
    audit.check("the kiosk", None, {"type": "view", "version": 5, "notice": {"key": "x"}}, 99)
    audit.check("player 0", 0, {"type": "view", "version": 5, "card": "key"}, 99)
    # The protocol's own words are not leaks where the protocol puts them; anywhere else,
    # or another word where they go, they are.
    audit.versions, audit.owners = [6], [{'"hourglass"': {1}, '"battery"': {1}}]
    audit.check("the kiosk", None, {"type": "view", "version": 6, "buttons": ["hourglass"],
                                    "deadline": {"what": "hourglass"},
                                    "notice": {"kind": "press", "key": "hourglass"}}, 99)
    audit.check("player 0", 0, {"type": "view", "version": 6, "word": "hourglass"}, 99)
    audit.check("player 0", 0, {"type": "view", "version": 6, "deadline": {"what": "battery"}},
                99)
    assert LEAKS == ["player 0 (seat 0) saw 'giraffe' at version 3",
                     "player 2 was sent the match's seed",
                     "player 0 (seat 0) saw '\"key\"' at version 5",
                     "player 0 (seat 0) saw '\"hourglass\"' at version 6",
                     "player 0 (seat 0) saw '\"battery\"' at version 6"]
    LEAKS.clear()


def test_the_kiosk_shows_a_seats_secret_only_while_it_passes_the_device(
    session: Session, clock: FakeClock, seed: int = 3
) -> None:
    """Broad Lines with two players at the kiosk (no phone) and two with phones: random
    moves, and the words to pass the device shown and hidden at random. The kiosk's view
    as drawn (the session's, with appliance/door/kiosk_seat.py's layer) carries a seat's secret
    only while the kiosk shows it to that seat (`pass_device` stage "show"); the
    session's own kiosk view never does."""
    from appliance.kiosk.intents import Back, SeatPadKey
    from tests.test_kiosk_seat import kiosk_table

    seats = kiosk_table(session, at_kiosk=2)  # dealt from the test's seeds (conftest)
    match = session.match
    assert match is not None
    rnd = random.Random(seed)
    LEAKS.clear()
    shown = 0
    for step in range(250):
        if session.match is None:
            break
        clock.advance(rnd.uniform(0.05, 2.0))
        drawn = seats.decorate(session.view_for(KIOSK))
        passing = drawn.get("pass_device")
        if passing is not None and rnd.random() < 0.6:
            if passing["stage"] == "ask":
                seats.handle(SeatPadKey("show_word", str(passing["seat"])))
            else:
                seats.handle(Back() if rnd.random() < 0.5 else SeatPadKey("hide_word"))
        else:
            choices = [a for seat in match.state.seats
                       for a in match.rules.legal_actions(match.state, seat)]
            choices += [a for a in match.rules.legal_actions(match.state, TABLE)
                        if a.kind in ("press_reveal", "refuse_give_up")]
            if not choices:
                break
            action = rnd.choice(choices)
            session.act(action.seat, action.kind, dict(action.data))
        drawn = seats.decorate(session.view_for(KIOSK))
        passing = drawn.get("pass_device")
        to = passing["seat"] if passing and passing["stage"] == "show" else None
        shown += to is not None
        text = json.dumps(_values(dict(drawn)), ensure_ascii=False, default=str)
        plain = _visible(session.view_for(KIOSK))
        secrets = match.rules.secrets(match.state)
        allowed = set(secrets.get(to, ())) if to is not None else set()
        low = text.lower()
        for owner, values in secrets.items():
            for secret in values:
                if secret.lower() not in low:  # the cheap look first: most steps show none
                    continue
                if _words(secret).search(plain):
                    LEAKS.append(f"the session's kiosk view carried {secret!r} at {step}")
                if secret not in allowed and _words(secret).search(text):
                    LEAKS.append(f"the kiosk showed {secret!r} (for {owner}) at {step}")
    assert shown > 0, "the playout never passed the device: it proves nothing"
    assert LEAKS == [], LEAKS[:5]
