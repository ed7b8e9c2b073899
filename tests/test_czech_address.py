"""One form of address in Czech (issue 19): the players are told "ty" (the informal
singular: "Naskenuj a hraj", "Vyber hru") on the kiosk and their phones; the café owner
is told "vy" (formal) on the host page. A formal imperative in a player's text, or an
informal one on the host page, fails here."""

from __future__ import annotations

import re
from collections.abc import Iterator

from tests.conftest import REPO

# Second person plural imperatives and present tense ("Vyberte", "Ťukněte", "hlasujte",
# "ověřte", "dosmějete"): what Czech uses for "vy".
FORMAL = re.compile(r"\b\w+(?:ěte|ejte|ujte|ňte|ďte|něte|ete|íte|řte|rte|šte|čte|žte)\b")
# Informal imperatives the host page must not use (the owner is "vy").
INFORMAL = re.compile(r"\b(?:Vyber|Zadej|Napiš|Ťukni|Stiskni|Počkej|Nahraj|Stáhni|Zkus)\b")
NOT_ADDRESS = {"Sečte"}  # "(it) adds up": third person singular

PLAYERS = [
    "appliance/kiosk/text.py",
    "appliance/kiosk/artbox.py",
    "appliance/kiosk/broad_lines.py",
    "appliance/kiosk/duplik.py",
    "appliance/kiosk/luck_of_the_draw.py",
    "appliance/web/static/i18n.js",
    "appliance/web/static/artbox.js",
    "appliance/web/static/broad_lines.js",
    "appliance/web/static/duplik.js",
    "appliance/web/static/luck_of_the_draw.js",
]
HOST = ["appliance/web/static/host.js"]


def czech_texts(path: str) -> Iterator[str]:
    """The string literals of `path` that are Czech (they have Czech letters)."""
    text = (REPO / path).read_text()
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        s = m.group(1)
        if re.search("[ěščřžůťďň]", s, re.IGNORECASE):
            yield s


def test_players_are_told_ty() -> None:
    found = [
        f"{path}: {word!r} in {text!r}"
        for path in PLAYERS
        for text in czech_texts(path)
        for word in FORMAL.findall(text)
        if word not in NOT_ADDRESS
    ]
    assert not found, "\n".join(found)


def test_the_host_page_says_vy() -> None:
    found = [
        f"{path}: {word!r} in {text!r}"
        for path in HOST
        for text in czech_texts(path)
        for word in INFORMAL.findall(text)
    ]
    assert not found, "\n".join(found)
    assert any(FORMAL.search(t) for path in HOST for t in czech_texts(path))


def test_the_check_can_fail() -> None:
    assert FORMAL.findall("Vyberte hru a ťukněte") == ["Vyberte", "ťukněte"]
    assert FORMAL.findall("Vyber hru a ťukni") == []
    assert INFORMAL.findall("Vyber hru") == ["Vyber"]


def test_the_games_refusals_tell_the_player_ty() -> None:
    from appliance.table.messages import GAMES_CZECH

    found = [f"{key}: {text!r}" for key, text in GAMES_CZECH.items() if FORMAL.search(text)]
    assert not found, "\n".join(found)
