"""The server encodes a finished game's art show once, not once per phone and change."""

from __future__ import annotations

from typing import Any

import msgspec

from appliance.door.server import SharedParts
from appliance.table.session import NotNow


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
    from aiohttp import WSMsgType, web

    sent: list[tuple[int, int]] = []  # (id of the frame's bytes, version)
    texts: list[str] = []
    send_frame, send_str = web.WebSocketResponse.send_frame, web.WebSocketResponse.send_str

    async def frame(ws: web.WebSocketResponse, message: bytes, opcode: WSMsgType,
                    compress: int | None = None) -> None:
        if opcode == WSMsgType.TEXT and message.startswith(b'{"type":"view"'):
            sent.append((id(message), msgspec.json.decode(message)["version"]))
        await send_frame(ws, message, opcode, compress)

    async def text(ws: web.WebSocketResponse, data: str, compress: int | None = None) -> None:
        texts.append(data)
        await send_str(ws, data, compress)

    monkeypatch.setattr(web.WebSocketResponse, "send_frame", frame)
    monkeypatch.setattr(web.WebSocketResponse, "send_str", text)
    session = live.session
    watchers = [await live.phone() for _ in range(3)]
    for phone in watchers:
        await phone.send({"type": "hello", "room": session.room})
        await phone.expect("welcome")
    for phone in watchers:
        await phone.view_where(lambda v: v["version"] == session.version)
    session.tell_table(NotNow("x", "a change"))  # one new version for everyone
    for phone in watchers:
        await phone.view_where(lambda v: v["version"] == session.version)
    newest = [sent_id for sent_id, version in sent if version == session.version]
    assert len(newest) == 3 and len(set(newest)) == 1, sent
    assert not [t for t in texts if t.startswith('{"type":"view"')]
