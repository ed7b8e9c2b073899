"""Custom word packs: a table's own words for a game's deck, read from a small TOML file.

The format is documented in docs/packs.md. A pack names its game, whether it adds to the
game's built-in deck or replaces it, and lists its entries; an entry is one text for both
languages ("kettle") or an English and a Czech text (["kettle", "konvice"]). Games that
deal cards of several words (Broad Lines: 6, Luck of the Draw's Subject cards: 3) take
their cards as lists of entries.

Everything here is pure: `parse_pack(name, text)` returns a `Pack` or raises `PackError`
listing every problem found, each with the file, the line (where it can be found) and the
entry number, so a café owner can fix a file in one go. How a game uses a pack is the
game's: the appliance turns the packs into start options (e.g. ArtBox's `words`), which
go into the match's log, so a replay needs no pack file.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from games import registry

# A pack's pieces are the decks' (re-exported: a pack reader speaks of them).
from games.decks import MAX_TEXT as MAX_TEXT
from games.decks import Card as Card
from games.decks import DeckShape as DeckShape
from games.decks import Text as Text
from games.options import MAX_DECK

MAX_BYTES: Final = 256 * 1024
MAX_ENTRIES: Final = 2000
# Letters (any script), digits, spaces and a little punctuation; no markup, no controls.
_ALLOWED: Final = re.compile(r"^[\w][\w '’.,!?&()-]*$")

Mode = Literal["add", "replace"]


def deck_shapes() -> dict[str, tuple[DeckShape, ...]]:
    """Which decks each game's packs may fill, as the games' houses declare them (Duplik
    has none: its scenes are generated). A deck's key is also the start option that
    carries it to the game's rules."""
    shapes = {}
    for game in registry.known_ids():
        decks = registry.house(game).decks
        if decks:
            shapes[game] = tuple(deck.shape for deck in decks)
    return shapes


@dataclass(frozen=True)
class Pack:
    """A checked pack. `decks` maps a deck key to its cards (one Text each for plain decks)."""

    name: str
    title: str
    game: str
    mode: Mode
    decks: Mapping[str, tuple[Card, ...]]

    def size(self) -> int:
        return sum(len(cards) for cards in self.decks.values())


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a pack file, where it is and what to do.

    `message` is the English sentence; `code` names the problem and `fields` its values
    (text and numbers), so the host page says it in the box's language
    (appliance/table/packs.py, `problem_text`); `at` is the entry's place in its deck
    `deck` (its number, and on a card the entry's number on it)."""

    file: str
    line: int | None
    entry: str | None
    message: str
    code: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    deck: str = ""
    at: tuple[int, ...] = ()

    def params(self) -> dict[str, str]:
        return dict(self.fields)

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f", line {self.line}"
        if self.entry is not None:
            where += f", {self.entry}"
        return f"{where}: {self.message}"


def _fields(**values: object) -> tuple[tuple[str, str], ...]:
    return tuple((k, str(v)) for k, v in values.items())


class PackError(ValueError):
    """A pack file that cannot be used; `problems` lists every reason found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class _Lines:
    """Finds the line of an entry's text in the source (tomllib reports no positions)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines()
        self.at = 0  # where the last text found ends: entries are looked for in order

    def find(self, value: str) -> int | None:
        """The line of the next quoted `value`; several entries on one line, or the same
        text twice in a row, each get their own place."""
        found = [
            (i, q) for q in (f'"{value}"', f"'{value}'") if (i := self.text.find(q, self.at)) >= 0
        ]
        if not found:
            return None
        i, quoted = min(found)
        self.at = i + len(quoted)
        return self.text.count("\n", 0, i) + 1

    def find_key(self, key: str) -> int | None:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for i, line in enumerate(self.lines):
            if pattern.match(line):
                return i + 1
        return None


def parse_pack(name: str, text: str | bytes) -> Pack:
    """Read and check one pack file's content; `name` is its file name (for messages)."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise PackError([Problem(name, None, None, f"the file has {len(text)} bytes; "
                                     f"a pack may have at most {MAX_BYTES}", "too_big",
                                     _fields(bytes=len(text), max=MAX_BYTES))])
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise PackError([Problem(name, None, None, f"the file is not UTF-8 text ({err.reason} "
                                     f"at byte {err.start})", "not_utf8",
                                     _fields(at=err.start))]) from None
    if len(text.encode()) > MAX_BYTES:
        raise PackError([Problem(name, None, None, f"a pack may have at most {MAX_BYTES} bytes",
                                 "too_big", _fields(bytes=len(text.encode()), max=MAX_BYTES))])
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = _toml_line(str(err))
        raise PackError([Problem(name, line, None, f"not valid TOML: {err}", "toml",
                                 _fields(error=err))]) from None
    lines = _Lines(text)
    problems: list[Problem] = []

    def bad(message: str, on_key: str | None = None, code: str = "",
            **values: object) -> None:
        problems.append(Problem(name, lines.find_key(on_key) if on_key else None, None, message,
                                code, _fields(**values)))

    game = raw.get("game")
    decks_of = deck_shapes()
    if not isinstance(game, str) or game not in decks_of:
        known = ", ".join(f'"{g}"' for g in decks_of)
        bad(f'game = {game!r} is not a game with word decks; use one of {known} '
            "(Duplik's scenes are made by the box, not from words)" if game is not None
            else f"the pack needs a line game = ..., one of {known}", "game",
            "bad_game" if game is not None else "no_game", game=repr(game), known=known)
        raise PackError(problems)
    mode = raw.get("mode", "add")
    if mode not in ("add", "replace"):
        bad(f'mode = {mode!r}: use "add" (to the built-in deck) or "replace" (it)', "mode",
            "bad_mode", mode=repr(mode))
    title = raw.get("title", name.rsplit(".", 1)[0])
    if not isinstance(title, str) or not 1 <= len(title.strip()) <= 60:
        bad("title must be text of 1 to 60 characters", "title", "bad_title")
        title = name
    shapes = {shape.key: shape for shape in decks_of[game]}
    for key in raw:
        if key not in ("game", "mode", "title", *shapes):
            bad(f"unknown key {key!r}; a {game} pack has game, title, mode and "
                + ", ".join(shapes), key, "unknown_key", key=repr(key), game=game,
                keys=", ".join(shapes))
    decks: dict[str, tuple[Card, ...]] = {}
    for key, shape in shapes.items():
        if key not in raw:
            continue
        cards = _read_deck(name, key, raw[key], shape, lines, problems)
        if cards:
            decks[key] = cards
    if not decks and not problems:
        add = " or ".join(f"{k} = [...]" for k in shapes)
        bad(f"the pack has no entries; add {add}", None, "no_entries",
            keys=" / ".join(f"{k} = [...]" for k in shapes))
    if mode == "replace":
        for key, shape in shapes.items():
            # As written, bad ones too: the count the owner sees in the file.
            have = len(raw[key]) if isinstance(raw.get(key), list) else 0
            if key in decks and have < shape.minimum:
                unit = ("card" if shape.per_card > 1 else "entry") if have == 1 else (
                    "cards" if shape.per_card > 1 else "entries")
                bad(f"{key} has {have} {unit}; to replace the built-in deck a pack needs at "
                    f"least {shape.minimum} (or use mode = \"add\")", key, "too_few", key=key,
                    have=have, minimum=shape.minimum)
    if problems:
        raise PackError(problems)
    assert isinstance(title, str) and mode in ("add", "replace")
    return Pack(name, title.strip(), game, mode, decks)


def _read_deck(
    file: str, key: str, value: Any, shape: DeckShape, lines: _Lines, problems: list[Problem]
) -> tuple[Card, ...]:
    if not isinstance(value, list):
        problems.append(Problem(file, lines.find_key(key), None, f"{key} must be a list [ ... ]",
                                "not_list", _fields(key=key)))
        return ()
    if len(value) * shape.per_card > MAX_ENTRIES:
        problems.append(Problem(file, lines.find_key(key), None,
                                f"{key} has too many entries; at most {MAX_ENTRIES}",
                                "too_many", _fields(key=key, max=MAX_ENTRIES)))
        return ()
    cards: list[Card] = []
    # Every text once per deck and language: where it was first, for the message.
    seen: dict[str, dict[str, tuple[str, str]]] = {"en": {}, "cs": {}}
    for n, item in enumerate(value, start=1):
        label = shape.label(n)
        if shape.per_card == 1:
            items: list[Any] = [item]
        elif isinstance(item, list) and len(item) == shape.per_card:
            items = item
        else:
            code, values = (("card_parts", _fields(have=len(item), per=shape.per_card))
                            if isinstance(item, list) else
                            ("card_not_list", _fields(per=shape.per_card)))
            problems.append(Problem(file, lines.find(_first_text(item)), label,
                                    _card_shape_problem(item, shape), code, values, key, (n,)))
            continue
        card: list[Text] = []
        for m, entry in enumerate(items, start=1):
            where = label if shape.per_card == 1 else f"{label}, {shape.part} {m}"
            at = (n,) if shape.per_card == 1 else (n, m)
            text, message, first = _read_text(entry, shape.max_text)
            line = lines.find(first) if first else None
            if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], str):
                lines.find(entry[1])  # past the Czech text too: it is not the next entry
            if message is not None:
                said, code, values = message
                problems.append(Problem(file, line, where, said, code, values, key, at))
                continue
            assert text is not None
            for lang in ("en", "cs"):
                folded = getattr(text, lang).casefold()
                if folded in seen[lang]:
                    before, first_at = seen[lang][folded]
                    problems.append(Problem(file, line, where, f"{getattr(text, lang)!r} is "
                                            f"already {before}", "duplicate",
                                            _fields(text=getattr(text, lang), first=first_at),
                                            key, at))
                    break
            else:
                for lang in ("en", "cs"):
                    seen[lang].setdefault(getattr(text, lang).casefold(),
                                          (where, "/".join(str(i) for i in at)))
                card.append(text)
        if len(card) == len(items):
            cards.append(tuple(card))
    return tuple(cards)


def _card_shape_problem(item: Any, shape: DeckShape) -> str:
    """What is wrong with a card that is not a list of `per_card` entries."""
    parts = f"{shape.part}s"
    if isinstance(item, list):
        return (f"it has {len(item)} {parts if len(item) != 1 else shape.part}; "
                f"a {shape.card} has {shape.per_card}{shape.why}")
    return (f'a {shape.card} is a list of {shape.per_card} {parts}{shape.why}, each "text" '
            '(both languages) or ["English", "Czech"]')


def _first_text(item: Any) -> str:
    """The first text inside a (nested) entry, to find its line (a NUL finds none)."""
    if isinstance(item, str):
        return item
    if isinstance(item, list):
        for inner in item:
            found = _first_text(inner)
            if found != "\0":
                return found
    return "\0"


_Said = tuple[str, str, tuple[tuple[str, str], ...]]  # English, code, fields


def _read_text(entry: Any, max_text: int) -> tuple[Text | None, _Said | None, str | None]:
    """(the entry, None, its first text) or (None, what is wrong, the text to locate)."""
    if isinstance(entry, str):
        texts = [entry, entry]
    elif isinstance(entry, list) and len(entry) == 2 and all(isinstance(t, str) for t in entry):
        texts = list(entry)
    else:
        first = entry[0] if isinstance(entry, list) and entry else None
        located = first if isinstance(first, str) else None
        return None, ('an entry is "text" (both languages) or ["English", "Czech"]',
                      "entry_form", ()), located
    cleaned = []
    for lang, raw in zip(("English", "Czech"), texts, strict=True):
        text = " ".join(unicodedata.normalize("NFC", raw).split())
        if not text:
            return None, (f"the {lang} text is empty", "empty_text",
                          _fields(lang=lang[:2].lower().replace("cz", "cs"))), texts[0] or None
        if len(text) > max_text:
            return None, (f"{text[:max_text]}… has {len(text)} characters; at most "
                          f"{max_text}", "text_long",
                          _fields(text=text[:max_text], length=len(text), max=max_text)), raw
        if not _ALLOWED.match(text):
            return None, (f"{text!r}: use letters, digits, spaces and - ' . , ! ? & ( ) only",
                          "bad_chars", _fields(text=repr(text))), raw
        cleaned.append(text)
    return Text(cleaned[0], cleaned[1]), None, texts[0]


def _toml_line(message: str) -> int | None:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None


def combine(
    built_in: Sequence[Card], packs: Sequence[Pack], key: str
) -> tuple[tuple[Card, ...], tuple[str, ...]]:
    """The deck `key` a game gets: the built-in cards plus every pack that adds, or only
    the packs that replace (when any does). Returns (cards, the packs used, by name)."""
    relevant = [p for p in packs if key in p.decks]
    replacing = [p for p in relevant if p.mode == "replace"]
    used = replacing or relevant
    cards: list[Card] = [] if replacing else list(built_in)
    seen = {tuple(t.en.casefold() for t in card) for card in cards}
    for pack in used:
        for card in pack.decks[key]:
            mark = tuple(t.en.casefold() for t in card)
            if mark not in seen:  # the same word in two packs (or built in) once
                seen.add(mark)
                cards.append(card)
    return tuple(cards), tuple(p.name for p in used)


def combined_problem(
    name: str, game: str, key: str, built_in: Sequence[Card], packs: Sequence[Pack]
) -> Problem | None:
    """What is wrong with the deck `key` that `packs` (the new one among them, `name`)
    give `game` together: more cards than a game's deck option takes (`MAX_DECK`), or
    None. Asked at upload, so a pack that would make the game unable to start is
    refused there, with the limit named, not found at the game's start."""
    cards, used = combine(built_in, packs, key)
    if len(cards) <= MAX_DECK:
        return None
    others = [n for n in used if n != name]
    return Problem(
        name, None, None,
        f"with {', '.join(others) or 'the built-in deck'}, {game}'s {key} would hold "
        f"{len(cards)} entries, and a game takes at most {MAX_DECK}: remove a pack first "
        "or make this one smaller", "deck_too_big",
        _fields(others=", ".join(others), game=game, key=key, count=len(cards), max=MAX_DECK),
    )

