"""Whatever a move carries is checked, and what the log may hold is bounded.

Every kind of move of every game is declared beside its rules (games/<game>_actions.py);
the server checks a phone's `act` against it with msgspec before the session sees it:
unknown fields, unbounded strings, lists and numbers and oversized strokes are refused
with `invalid` naming the field. What one seat, one match and the whole data file may
add to the log is bounded too (appliance/table/session.py, appliance/table/store.py).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

import games.artbox
from appliance.door.action_check import InvalidMove, check_move
from appliance.table.session import BoxFull, MatchFull, Refused, Session, SlowDown
from appliance.table.store import BudgetExceeded, Store
from games import registry
from games.core import TABLE, Action, SeatInfo
from tests.conformance import playout
from tests.test_hostile import Table, exchange, table  # noqa: F401  (the fixture)

GAMES = ("artbox", "broad-lines", "duplik", "luck-of-the-draw")
STATIC = Path(__file__).resolve().parents[1] / "appliance" / "web" / "static"


@pytest.mark.parametrize("game", GAMES)
def test_every_move_a_game_offers_fits_its_declaration(game: str) -> None:
    """Random playouts: every move the rules list for a seat passes the server's check."""
    registry.load_all()
    rules = registry.get(game)
    checked = 0
    for seed in (1, 2):
        for action in playout(rules, seed, max_steps=400, every=50).actions:
            if action.seat is TABLE or action.kind == "time_up":
                continue
            raw = json.dumps(action.data).encode()
            assert check_move(game, action.kind, raw) == json.loads(raw), action
            checked += 1
    assert checked > 20


STROKE = {"points": [[10, 20, 0], [30, 40, 16]], "colour": "#aabbcc", "width": 8}


@pytest.mark.parametrize(
    ("kind", "data", "named"),
    [
        ("stroke", {**STROKE, "extra": "x" * 200_000}, "extra"),
        ("stroke", {**STROKE, "points": [[1, 2, 3]] * 4001}, "points"),
        ("stroke", {**STROKE, "points": [[1, 2]]}, "points[0]"),
        ("stroke", {**STROKE, "points": [[1, 2_000_000, 3]]}, "points[0][1]"),
        ("stroke", {**STROKE, "points": [[1, 2, 3.5]]}, "points[0][2]"),
        ("stroke", {**STROKE, "colour": "red" * 100}, "colour"),
        ("stroke", {**STROKE, "width": 10**30}, "width"),
        ("keep", {"card": 2**70}, "card"),
        ("keep", {"card": True}, "card"),
        ("guess", {"picture": 1}, "word"),
        ("undo", {"why": "because"}, "why"),
        ("no_such_kind", {"anything": [1, 2, 3]}, "anything"),
    ],
)
def test_what_a_move_may_not_carry_is_refused_naming_the_field(
    kind: str, data: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidMove) as refused:
        check_move("artbox", kind, json.dumps(data).encode())
    assert named in str(refused.value)


def test_the_schemas_are_plain_data_beside_the_rules() -> None:
    for game in GAMES:
        schemas = registry.action_schemas(game)
        assert schemas is not None and "stroke" in schemas
        assert all(isinstance(kind, str) for kind in schemas)
    assert registry.action_schemas("no-such-game") is None
    # Declared as data: nothing but the standard library and games/ (tests/test_layering).
    text = (Path(games.artbox.__file__).parent / "artbox_actions.py").read_text()
    assert "import msgspec" not in text


async def test_an_extra_field_never_reaches_the_log(table: Table) -> None:  # noqa: F811
    store = table.live.session.store
    match = table.live.session.match
    assert match is not None
    before = len(store.actions(match.record.id))
    move = {"type": "act", "id": "fat", "kind": "stroke",
            "data": {**STROKE, "payload": "x" * 200_000}}
    answers = await exchange(table.hostile, json.dumps(move))
    assert answers[0]["code"] == "invalid" and "payload" in answers[0]["message"]
    assert answers[0]["ref"] == "fat"
    assert len(store.actions(match.record.id)) == before


# --- what the log may hold ------------------------------------------------------------------


def big_stroke(n: int) -> dict[str, Any]:
    return {"points": [[i % 1600, i % 1000, i] for i in range(n)], "colour": "#202020",
            "width": 8}


def test_one_seat_cannot_pour_drawings_into_the_log(session: Session, race: Any) -> None:
    """Bytes a second per seat: a burst of large strokes, then `slow_down`."""
    session.join("Ada", "#e6194b")
    session.join("Bo", "#3cb44b")
    session.select(0, race.id)
    session.start(0)
    stroke = big_stroke(4000)
    tries = 0
    with pytest.raises(SlowDown) as slow:
        for n in range(100):
            tries += 1
            with contextlib.suppress(Refused):  # not its turn: refused, yet it was sent
                session.act(0, "add", {"n": 1, "stroke": stroke}, f"s{n}")
    assert 2 <= tries <= 8, tries
    assert slow.value.code == "slow_down"
    # The other seat is not held back.
    assert session.act(1, "add", {"n": 1}, "b0")


def test_a_match_past_its_budget_is_refused_clearly(tmp_path: Path) -> None:
    store = Store(tmp_path / "db", match_budget=4096)
    seats = (SeatInfo(0, "Ada", "#e6194b"), SeatInfo(1, "Bo", "#3cb44b"))
    match = store.begin_match("race", seats, {}, 1, 0.0)
    store.append_action(match, 0, "a", Action("add", 0, {"x": "y" * 3000}, 1.0))
    with pytest.raises(BudgetExceeded) as caught:
        store.append_action(match, 1, "b", Action("add", 0, {"x": "y" * 3000}, 2.0))
    assert not caught.value.whole_box and "4096" in str(caught.value)
    assert [a.seq for a in store.actions(match)] == [0], "nothing was written"
    # After a restart the budget counts what is already logged.
    store.close()
    store = Store(tmp_path / "db", match_budget=4096)
    with pytest.raises(BudgetExceeded):
        store.append_action(match, 1, "b", Action("add", 0, {"x": "y" * 3000}, 2.0))
    store.close()


def test_one_seat_filling_the_match_leaves_the_others_their_share(tmp_path: Path) -> None:
    store = Store(tmp_path / "db", match_budget=60_000)
    seats = tuple(SeatInfo(n, f"P{n}", "#e6194b") for n in range(3))
    match = store.begin_match("race", seats, {}, 1, 0.0)
    seq = 0
    with pytest.raises(BudgetExceeded) as caught:
        for seq in range(200):  # seat 0 floods
            store.append_action(match, seq, f"f{seq}", Action("add", 0, {"x": "y" * 950}, 1.0))
    assert caught.value.seat == 0 and not caught.value.whole_box
    assert "share" in str(caught.value)
    # The others still have theirs, and the table its moves.
    for n in range(12):
        for seat in (1, 2):
            seq += 1
            store.append_action(match, seq, f"h{seat}{n}",
                                Action("add", seat, {"x": "y" * 950}, 2.0))
    seq += 1
    store.append_action(match, seq, None, Action("time_up", None, {}, 3.0))
    # After a restart the share counts what is logged.
    store.close()
    store = Store(tmp_path / "db", match_budget=60_000)
    with pytest.raises(BudgetExceeded) as again:
        store.append_action(match, seq + 1, "f-more", Action("add", 0, {"x": "y"}, 4.0))
    assert again.value.seat == 0
    store.close()


def test_the_whole_file_prunes_old_matches_before_it_refuses(tmp_path: Path) -> None:
    seats = (SeatInfo(0, "Ada", "#e6194b"), SeatInfo(1, "Bo", "#3cb44b"))
    store = Store(tmp_path / "db")
    old = []
    for n in range(6):
        match = store.begin_match("race", seats, {}, n, float(n))
        for seq in range(40):
            store.append_action(match, seq, None, Action("add", 0, {"x": "y" * 2000}, 1.0))
        store.finish_match(match, None, float(n))
        store.put_gallery(match, f"token{n}", float(n))
        old.append(match)
    store.total_budget = store.used_bytes() + 50_000
    live = store.begin_match("race", seats, {}, 99, 100.0)
    for seq in range(60):  # more than the headroom: old matches must go
        store.append_action(live, seq, None, Action("add", 0, {"x": "y" * 2000}, 1.0))
    assert store.match(old[0]) is None and store.gallery_match("token0") is None
    assert len(store.actions(live)) == 60
    # Once nothing is left to prune, the move is refused (nothing written).
    store.total_budget = store.used_bytes()
    with pytest.raises(BudgetExceeded) as caught:
        for seq in range(60, 400):
            store.append_action(live, seq, None, Action("add", 0, {"x": "y" * 2000}, 1.0))
    assert caught.value.whole_box
    assert store.unfinished_match() is not None
    store.close()


def test_the_session_says_match_full_and_box_full(session: Session, race: Any) -> None:
    session.join("Ada", "#e6194b")
    session.join("Bo", "#3cb44b")
    session.select(0, race.id)
    session.start(0)
    session.store.match_budget = 1
    with pytest.raises(MatchFull) as full:
        session.act(0, "add", {"n": 1}, "x")
    assert full.value.code == "match_full"
    session.store.match_budget = None
    session.store.total_budget = 1
    with pytest.raises(BoxFull) as box:
        session.act(0, "add", {"n": 1}, "y")
    assert box.value.code == "box_full"
    match = session.match
    assert match is not None and match.next_seq == 0, "nothing was applied"


def test_prune_by_age_keeps_recent_and_unfinished_matches(tmp_path: Path) -> None:
    seats = (SeatInfo(0, "Ada", "#e6194b"),)
    store = Store(tmp_path / "db")
    old = store.begin_match("race", seats, {}, 1, 0.0)
    store.finish_match(old, None, 10.0)
    recent = store.begin_match("race", seats, {}, 2, 0.0)
    store.finish_match(recent, None, 1000.0)
    running = store.begin_match("race", seats, {}, 3, 0.0)
    assert store.prune(before=500.0) == [old]
    assert store.match(recent) is not None and store.match(running) is not None
    store.close()


def test_a_schema_decoder_is_not_fooled_by_json_tricks() -> None:
    raw = b'{"card": 1, "card": 1e400}'
    with pytest.raises((InvalidMove, msgspec.DecodeError)):
        check_move("artbox", "keep", raw)


PHONE_SCRIPTS = {
    "artbox": "artbox.js",
    "broad-lines": "broad_lines.js",
    "duplik": "duplik.js",
    "luck-of-the-draw": "luck_of_the_draw.js",
}
PHONE_ACT = re.compile(r'act\("([a-z_]+)",\s*\{([^}]*)\}')
PHONE_FIELD = re.compile(r"(?:^|,)\s*([A-Za-z_]\w*)\s*(?::|(?=,|$))")


@pytest.mark.parametrize("game", GAMES)
def test_every_field_a_phone_script_sends_is_declared(game: str) -> None:
    """The phone's own moves (as its script writes them) pass the declaration: a field the
    rules learn of but the schema does not list would refuse every honest phone."""
    registry.load_all()
    schemas = registry.action_schemas(game)
    assert schemas is not None
    source = (STATIC / PHONE_SCRIPTS[game]).read_text(encoding="utf-8")
    sent = [(kind, PHONE_FIELD.findall(body)) for kind, body in PHONE_ACT.findall(source)]
    assert sent, "the scan found no move in the script"
    for kind, fields in sent:
        assert kind in schemas, f"{game}: the phone sends {kind!r}, which is not declared"
        undeclared = set(fields) - set(schemas[kind])
        assert not undeclared, f"{game}: {kind!r} carries undeclared {sorted(undeclared)}"
