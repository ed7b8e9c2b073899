"""The server encodes a finished game's art show once, not once per phone and change."""

from __future__ import annotations

from typing import Any

import msgspec

from appliance.door.server import SharedParts
from appliance.table.session import PALETTE


def _view(seat: int, art_show: list[dict[str, Any]], version: int) -> dict[str, Any]:
    return {"type": "view", "version": version,
            "match": {"id": 1, "state": {"you": seat, "art_show": art_show, "small": [seat]}},
            "you": {"seat": seat}}


def test_a_big_shared_part_is_encoded_once_for_every_viewer_and_version() -> None:
    strokes = [{"points": [[x, x + 1, x * 10] for x in range(400)], "colour": "#123456"}]
    art_show = [{"round": n, "strokes": strokes} for n in range(12)]
    parts = SharedParts()
    for version in (7, 8):
        for seat in range(4):
            view = _view(seat, art_show, version)
            # The same bytes as encoding the whole view at once.
            assert parts.encode(view) == msgspec.json.encode(view)
    assert parts.encoded == 1
    # A new finish (another list) is encoded anew; small lists are never kept.
    again = [dict(show) for show in art_show]
    assert msgspec.json.decode(parts.encode(_view(0, again, 9))) == _view(0, again, 9)
    assert parts.encoded == 2
    assert all(len(raw) > SharedParts.SHARED_BYTES for _, raw in parts._raw.values())


def test_views_without_a_match_or_lists_encode_as_they_are() -> None:
    parts = SharedParts()
    for view in ({"type": "view", "match": None}, {"match": {"state": {"a": 1}}},
                 {"match": {"state": None}}):
        assert parts.encode(view) == msgspec.json.encode(view)
    assert parts.encoded == 0


async def test_a_view_goes_to_every_phone_as_the_bytes_encoded_once(
    live: Any, monkeypatch: Any
) -> None:
    """Each phone's view is the one encoded for its viewer and version, sent as those
    very bytes: a finish's view is megabytes, and a str decoded per viewer and encoded
    again per phone cost ~30 ms a phone for 3 MB of Czech words here."""
    from aiohttp import web

    from appliance.door.server import PhoneServer

    sent: list[tuple[int, int]] = []  # (id of the view's pieces, version)
    texts: list[str] = []
    stream, send_str = PhoneServer._stream, web.WebSocketResponse.send_str

    async def streamed(server: PhoneServer, conn: Any, pieces: Any) -> None:
        sent.append((id(pieces), msgspec.json.decode(b"".join(pieces))["version"]))
        await stream(server, conn, pieces)

    async def text(ws: web.WebSocketResponse, data: str, compress: int | None = None) -> None:
        texts.append(data)
        await send_str(ws, data, compress)

    monkeypatch.setattr(PhoneServer, "_stream", streamed)
    monkeypatch.setattr(web.WebSocketResponse, "send_str", text)
    session = live.session
    watchers = [await live.phone() for _ in range(3)]
    for phone in watchers:
        await phone.send({"type": "hello", "room": session.room})
        await phone.expect("welcome")
    for phone in watchers:
        await phone.view_where(lambda v: v["version"] == session.version)
    session.join("Ada", PALETTE[0])  # one new version, a new seat for everyone to see
    for phone in watchers:
        await phone.view_where(lambda v: v["version"] == session.version)
    newest = [sent_id for sent_id, version in sent if version == session.version]
    assert len(newest) == 3 and len(set(newest)) == 1, sent
    assert not [t for t in texts if t.startswith('{"type":"view"')]


def test_a_big_view_is_pieces_that_share_its_big_parts() -> None:
    """The big parts are the kept objects themselves in every viewer's pieces (no copy per
    viewer, version or socket); joined, the pieces are the view's JSON."""
    strokes = [{"points": [[x, x + 1, x * 10] for x in range(400)], "colour": "#123456"}]
    art_show = [{"round": n, "strokes": strokes, "word": "žluťoučký kůň"} for n in range(12)]
    parts = SharedParts()
    one, two = parts.pieces(_view(0, art_show, 7)), parts.pieces(_view(1, art_show, 8))
    assert b"".join(one) == msgspec.json.encode(_view(0, art_show, 7))
    assert b"".join(two) == msgspec.json.encode(_view(1, art_show, 8))
    big = [p for p in one if len(p) > SharedParts.SHARED_BYTES]
    assert len(big) == 1 and any(p is big[0] for p in two)
    assert sum(len(p) for p in one if p is not big[0]) < 200


def test_a_view_goes_in_frames_of_a_piece_never_cut_inside_a_character() -> None:
    from appliance.door.server import _frames

    text = ('{"w":"' + "žluťoučký kůň úpěl ďábelské ódy " * 3000 + '"}').encode()
    pieces = (text[:5000], msgspec.Raw(text[5000:70001]), text[70001:])
    frames = list(_frames(pieces, 4096))
    assert b"".join(bytes(f) for f, _ in frames) == text
    assert [last for _, last in frames] == [False] * (len(frames) - 1) + [True]
    assert all(0 < len(f) <= 4096 for f, _ in frames)
    for f, _ in frames:
        bytes(f).decode()  # each frame whole characters
    assert list(_frames((b"{}",), 4096)) == [(b"{}", True)]
