"""No Czech screen says an English sentence: every Czech sentence the box has (the kiosk's
catalogues with every game's screens loaded, the session's and the host API's messages,
the gallery page, the phone page's and the host page's scripts) is read for English
words that no Czech sentence uses."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from appliance.app import load_kiosk_screens
from appliance.door import gallery, host_api
from appliance.kiosk import text
from appliance.table import messages, packs
from tests.conftest import REPO

ENGLISH_ONLY = frozenset({
    "the", "and", "you", "your", "is", "are", "of", "with", "this", "that", "for", "not",
    "wait", "please", "draw", "draws", "guess", "guesses", "player", "players", "round",
    "score", "winner", "winners", "game", "games", "left", "here", "now", "press", "tap",
    "again", "until", "host", "seat", "will", "can't", "don't", "it's", "what", "who",
})
"""Words of English sentences that are no Czech word (unlike "a", "to", "je")."""

STATIC = REPO / "appliance" / "web" / "static"
SCRIPTS = ("i18n.js", "host.js", "artbox.js", "broad_lines.js", "duplik.js",
           "luck_of_the_draw.js")


def english_words(sentence: str) -> set[str]:
    # Placeholders, config keys, paths and file names are not words said to a person.
    # A pack file's keys as written in it (game = …) are its words, not English ones.
    plain = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\S*/\S*|\S+\.(toml|json)\b|\b\w+ = ", " ",
                   sentence)
    # Whole words of any letters: "anděl" is no "and" (ASCII letters alone would cut it).
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)*", plain.lower())
    return {w for w in words if w in ENGLISH_ONLY}


def entries(catalogue: Mapping[str, object]) -> Iterator[tuple[str, str]]:
    for key, value in catalogue.items():
        if isinstance(value, str):
            yield key, value
        elif isinstance(value, Mapping):
            for form, sentence in value.items():
                yield f"{key}.{form}", str(sentence)


def czech_block(script: str) -> dict[str, str]:
    """The `cs: { ... }` table of a page script, as key -> sentence."""
    source = (STATIC / script).read_text(encoding="utf-8")
    start = source.index("\n  cs: {")
    end = source.index("\n  },", start) if "\n  },\n" in source[start:] else len(source)
    block = source[start:end]
    pairs = re.findall(r'"?([\w.]+)"?:\s*"((?:[^"\\]|\\.)*)"', block)
    return dict(pairs)


def test_the_page_scripts_czech_tables_are_read() -> None:
    # The reader must find the tables it checks (else the test below passes on nothing).
    for script in SCRIPTS:
        assert len(czech_block(script)) >= 10, script
    assert english_words("Wait for the host, please") == {"wait", "for", "the", "host",
                                                           "please"}
    assert english_words("Je to {name}: [host] pin v /etc/easel/appliance.toml") == set()
    assert english_words("Anděl a tvoje hra") == set()


def czech_catalogues() -> list[tuple[str, Mapping[str, object]]]:
    """Every Czech catalogue the box has, named by where it lives."""
    load_kiosk_screens()
    return [
        ("kiosk", text.CATALOGUES["cs"]),
        ("messages", messages.CZECH),
        ("host api", host_api.CZECH),
        ("pack problems", packs.PROBLEMS_CZECH),
        ("gallery", gallery.PAGE_TEXT["cs"]),
        *((script, czech_block(script)) for script in SCRIPTS),
    ]


def test_no_czech_sentence_has_an_english_word() -> None:
    found = []
    for where, catalogue in czech_catalogues():
        for key, sentence in entries(catalogue):
            words = english_words(sentence)
            if words:
                found.append(f"{where} {key}: {sentence!r} ({', '.join(sorted(words))})")
    assert not found, "\n".join(found)


GENDER_CHOICE = re.compile(r"[^\W\d_](?:\((?:a|á|o|y|i|e|ka)\)|/(?:a|á|o|y|ka)\b)")
"""A word offering both genders ("hlasoval(a)", "hotov/a"): the box does not know a
player's gender, so a Czech sentence is written to need none."""


def test_no_czech_sentence_asks_for_a_players_gender() -> None:
    assert GENDER_CHOICE.search("Řekl(a) Dana to slovo?")
    assert GENDER_CHOICE.search("Až budeš hotov/a, stiskni Hotovo.")
    assert not GENDER_CHOICE.search("Hotovo (a pak dál) {n}/{total}, a/b")
    found = [f"{where} {key}: {sentence!r}"
             for where, catalogue in czech_catalogues()
             for key, sentence in entries(catalogue) if GENDER_CHOICE.search(sentence)]
    assert not found, "\n".join(found)
