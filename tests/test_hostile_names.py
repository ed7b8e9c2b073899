"""Names a stranger picks to confuse the table: Zalgo towers and lookalikes of a seated
player (another script's letters, invisible marks, 0 for o, I for l)."""

from __future__ import annotations

import pytest

from appliance.table.session import PALETTE, BadName, Session, clean_name


@pytest.mark.parametrize("name", ["Z\u0300\u0301\u0302\u0303", "A\u0489\u0489\u0489\u0489"])
def test_a_zalgo_tower_is_refused_with_its_reason(name: str) -> None:
    with pytest.raises(BadName) as refused:
        clean_name(name)
    assert refused.value.key == "name_marks"


@pytest.mark.parametrize("name", ["Nguyễn", "Trần Thị Ngọc", "ज़्यादा", "1\ufe0f\u20e3",
                                  "Bořek", "Z\u0300\u0301\u0302"])
def test_real_names_with_their_marks_are_welcome(name: str) -> None:
    assert clean_name(name)


@pytest.mark.parametrize(("seated", "newcomer"), [
    ("Ada", "\u0410da"),        # a Cyrillic A
    ("Ada", "Ada\ufe0f"),       # an invisible variation selector
    ("Ada", "Adá"),             # an accent hardly seen across the table
    ("Alice", "AIice"),         # a capital I for the l
    ("Bob", "B0b"),             # a zero for the o
    ("Ορέστης", "Opέστης"),     # Latin letters in a Greek name
])
def test_a_name_that_looks_like_a_seated_players_is_refused(
        session: Session, seated: str, newcomer: str) -> None:
    session.join(seated, PALETTE[0])
    with pytest.raises(BadName) as refused:
        session.join(newcomer, PALETTE[1])
    assert refused.value.key == "name_alike"
    assert seated in str(refused.value)  # it names whom it looks like


def test_names_that_merely_share_letters_are_fine(session: Session) -> None:
    for n, name in enumerate(["Ada", "Adam", "Dana", "Ian", "Саша", "Jan", "Jana"]):
        assert session.join(name, PALETTE[n]).role == "player"
    with pytest.raises(BadName) as refused:
        session.join("ADA", PALETTE[7])
    assert refused.value.key == "name_taken"
