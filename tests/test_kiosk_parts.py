"""The painter's part cache keeps each seat's card once per kind (lobby, game): a new
score or a new layout replaces a seat's card instead of piling up beside it; a QR code
painted again into a part is not encoded again."""

from __future__ import annotations

from typing import Any

import pygame
import pytest
import segno

from appliance.kiosk import qr
from appliance.kiosk.painter import Painter
from appliance.kiosk.theme import Metrics


def _seat(seat: int, name: str, connected: bool = True) -> dict[str, object]:
    return {"seat": seat, "name": name, "colour": "#4363d8", "connected": connected}


def test_a_seats_new_score_replaces_its_card() -> None:
    pygame.font.init()
    painter, m = Painter(), Metrics.for_size((1920, 1080))
    first = painter.seat_card(_seat(1, "Ada"), (586, 85), m, "en", trailing="1")
    one_card = painter._part_bytes
    for score in range(2, 40):
        card = painter.seat_card(_seat(1, "Ada"), (586, 85), m, "en", trailing=str(score))
    assert painter._part_bytes == one_card  # one card for seat 1, whatever its score
    assert card is not first
    # The card shown now is kept: drawn again, it is the same surface, not painted anew.
    again = painter.seat_card(_seat(1, "Ada"), (586, 85), m, "en", trailing="39")
    assert again is card


def test_each_seat_and_each_kind_keeps_its_own_card() -> None:
    pygame.font.init()
    painter, m = Painter(), Metrics.for_size((1920, 1080))
    lobby = [painter.seat_card(_seat(s, f"P{s}"), (586, 85), m, "en", kick=True)
             for s in range(8)]
    game = [painter.seat_card(_seat(s, f"P{s}"), (586, 85), m, "en", trailing="0")
            for s in range(8)]
    assert len(painter._parts) == 16
    # A seat that drops out, in a wider layout: its lobby card is replaced, the game's kept.
    painter.seat_card(_seat(3, "P3", connected=False), (920, 80), m, "en", kick=True)
    assert len(painter._parts) == 16
    assert painter.seat_card(_seat(3, "P3"), (586, 85), m, "en", trailing="0") is game[3]
    assert painter.seat_card(_seat(4, "P4"), (586, 85), m, "en", kick=True) is lobby[4]


def test_a_code_painted_again_is_not_encoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part with a QR code (the join card, a finish's gallery code) painted anew with
    the same text takes the code's modules as they were encoded the first time."""
    made: list[str] = []
    real_make = segno.make

    def counting_make(data: str, **kwargs: Any) -> Any:
        made.append(data)
        return real_make(data, **kwargs)

    monkeypatch.setattr(segno, "make", counting_make)
    url = "http://192.0.2.7:8080/gallery/v-painted-twice"
    first = qr.render_qr(url, 200)
    again = qr.render_qr(url, 300)  # a part of another size: drawn anew, same modules
    assert made == [url]
    side = len(qr.qr_modules(url))
    assert first.get_width() == side * (200 // side)
    assert again.get_width() == side * (300 // side)
    assert qr.render_qr(url + "x", 200) is not None and made == [url, url + "x"]
