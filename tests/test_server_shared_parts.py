"""The server encodes a finished game's art show once, not once per phone and change."""

from __future__ import annotations

from typing import Any

import msgspec

from appliance.door.server import SharedParts


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
