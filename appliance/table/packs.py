"""The table's word packs on disk: where they live, which are good, what each game gets.

Packs are TOML files (docs/packs.md) in the packs directory (`[packs] dir`, by default
the data directory's "packs" folder, which updates leave alone; the host page saves
uploads there) and, read-only, in /etc/easel/packs/. They are read again at every game
start, so a file dropped in is used by the next game without a restart. A file that does
not check out is skipped with every problem logged (and listed on the host page); the
other packs still count.

`PackShelf.options_for(game)` is what the session asks at `start`: the start options that
carry the decks the game's house declares (games/house.py; e.g. a deck `words`), each
only when a pack fills it; the options are logged with the match, so a replay does not
depend on the files still being there.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Container, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from games import packs as rules_packs
from games import registry
from games.options import MAX_DECK
from games.packs import Pack, PackError, Problem

log = logging.getLogger("easel.packs")

SYSTEM_DIR: Final = Path("/etc/easel/packs")

PROBLEMS_CZECH: Final[dict[str, str]] = {
    "too_big": "soubor má {bytes} bajtů; balíček smí mít nejvýš {max}",
    "not_utf8": "soubor není text v kódování UTF-8 (chyba na bajtu {at})",
    "toml": "to není platný TOML: {error}",
    "no_game": "balíčku chybí řádek game = …, jedna z možností {known}",
    "bad_game": "game = {game} není hra se slovy; použijte jednu z možností {known} "
    "(předlohy Dupliku tvoří krabice sama, ne ze slov)",
    "bad_mode": 'mode = {mode}: použijte "add" (přidat k vestavěným slovům) nebo "replace" '
    "(nahradit je)",
    "bad_title": "title musí být text o 1 až 60 znacích",
    "unknown_key": "neznámý klíč {key}; balíček pro {game} má klíče {keys}",
    "no_entries": "balíček nemá žádné položky; přidejte {keys}",
    "too_few": "{key}: položek je {have}; aby balíček nahradil vestavěná slova, potřebuje "
    'jich nejméně {minimum} (nebo použijte mode = "add")',
    "not_list": "{key} musí být seznam [ … ]",
    "too_many": "{key} má příliš mnoho položek; nejvýš {max}",
    "card_parts": "počet položek na kartě: {have}, má jich být {per}",
    "card_not_list": 'karta má být seznam {per} položek, každá "text" (pro oba jazyky) nebo '
    '["anglicky", "česky"]',
    "entry_form": 'má být "text" (pro oba jazyky) nebo ["anglicky", "česky"]',
    "empty_text": "{lang} text je prázdný",
    "text_long": "{text}… má {length} znaků; nejvýš {max}",
    "bad_chars": "{text}: používejte jen písmena, číslice, mezery a - ' . , ! ? & ( )",
    "duplicate": "„{text}“ už v balíčku je (položka {first})",
    "deck_too_big": "spolu s {others} by {key} hry {game} měl {count} položek a hra vezme "
    "nejvýš {max}: nejdřív odeberte jiný balíček, nebo tento zmenšete",
    "not_read": "nenačteno: krabice čte nejvýš {max} balíčků; některé odeberte",
    "unreadable": "soubor nejde přečíst: {reason}",
    "too_many_files": "krabice už má {max} balíčků; nejdřív jeden odeberte",
}
"""What each problem's code says in Czech (games/packs.py's `Problem`: the English
sentence is its `message`), with the problem's `fields` in place."""
_LANGUAGE_CZECH: Final = {"en": "anglický", "cs": "český"}


def problem_text(problem: Problem, lang: str) -> str:
    """`problem` as the host page says it in `lang`: where, then what is wrong (English,
    or a problem without a code, as `str(problem)`)."""
    template = PROBLEMS_CZECH.get(problem.code) if lang == "cs" else None
    if template is None:
        return str(problem)
    fields = problem.params()
    if problem.code == "empty_text":
        fields["lang"] = _LANGUAGE_CZECH.get(fields.get("lang", ""), fields.get("lang", ""))
    if problem.code == "unknown_key":  # the file's own keys, as written in it
        fields["keys"] = f"game, title, mode a {fields.get('keys', '')}"
    if problem.code == "deck_too_big" and not fields.get("others"):
        fields["others"] = "vestavěnými slovy"
    where = problem.file
    if problem.line is not None:
        where += f", řádek {problem.line}"
    if problem.deck and len(problem.at) == 1:
        where += f", {problem.deck}: položka {problem.at[0]}"
    elif problem.deck and len(problem.at) == 2:
        where += f", {problem.deck}: karta {problem.at[0]}, položka {problem.at[1]}"
    elif problem.entry is not None:
        where += f", {problem.entry}"
    try:
        said = template.format(**fields)
    except (KeyError, IndexError):
        return str(problem)
    return f"{where}: {said}"


def problem_json(problem: Problem, lang: str) -> dict[str, Any]:
    """A problem for the host page: its code and values, and its sentence in `lang`."""
    return {"code": problem.code, "fields": problem.params(), "file": problem.file,
            "line": problem.line, "deck": problem.deck or None, "at": list(problem.at),
            "text": problem_text(problem, lang)}
_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,47}\.toml$")


class BadPackName(ValueError):
    """An upload's file name the box will not write (it must be a plain name.toml)."""


class NoSuchPack(LookupError):
    """There is no pack of that name in the writable packs directory."""


class DeckOptions(Container[str]):
    """The start options that carry a deck in any game (`words`, `cards`...): the packs'
    to give, not a host's to type. Read from the games' houses at every look, so a game
    registered later counts too."""

    def __contains__(self, key: object) -> bool:
        return any(
            deck.key == key for game in registry.known_ids() for deck in registry.house(game).decks
        )


DECK_OPTIONS: Final = DeckOptions()


@dataclass(frozen=True)
class PackFile:
    """One file on the shelf: the pack, or what is wrong with it."""

    path: Path
    pack: Pack | None
    problems: tuple[Problem, ...] = ()

    @property
    def writable(self) -> bool:
        return self.path.parent != SYSTEM_DIR

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """The host page's line for this file; its problems said in `lang`."""
        pack = self.pack
        return {
            "file": self.path.name,
            "ok": pack is not None,
            "game": None if pack is None else pack.game,
            "title": None if pack is None else pack.title,
            "mode": None if pack is None else pack.mode,
            "entries": 0 if pack is None else pack.size(),
            "used": pack is not None and bool(registry.house(pack.game).decks),
            "removable": self.writable,
            "problems": [problem_text(p, lang) for p in self.problems],
            "issues": [problem_json(p, lang) for p in self.problems],
        }


class PackShelf:
    """The pack files on disk. A pack of 2000 entries takes about a second to check, so
    each file is checked once per version (its inode, size and modification and change
    times) and kept as long as it is there: an answer of the host page re-checks none it
    has seen. At most `MAX_FILES` files are read (the rest are listed, unread, with that
    reason), so the kept packs are bounded; the host page asks off the loop
    (appliance/door/host_api.py)."""

    MAX_FILES: Final = 128

    def __init__(self, directory: Path, extra_dirs: Sequence[Path] = (SYSTEM_DIR,)) -> None:
        self.directory = directory
        self.dirs = [*extra_dirs, directory]
        self._checked: dict[Path, tuple[tuple[int, ...], PackFile]] = {}

    def files(self) -> list[PackFile]:
        """Every pack file, checked, system ones first; the packs directory wins a name."""
        paths: dict[str, Path] = {}
        for folder in self.dirs:
            try:
                found = sorted(p for p in folder.glob("*.toml") if p.is_file())
            except OSError:
                continue
            for path in found:
                paths.pop(path.name, None)  # the later folder wins, in its own place
                paths[path.name] = path
        kept = set(paths.values())
        for gone in [p for p in self._checked if p not in kept]:
            del self._checked[gone]  # forgotten once off the shelf: memory stays bounded
        files = []
        for n, path in enumerate(paths.values()):
            if n < self.MAX_FILES:
                files.append(self._read(path))
            else:
                problem = Problem(path.name, None, None, f"not read: the box reads at most "
                                  f"{self.MAX_FILES} pack files; remove some", "not_read",
                                  (("max", str(self.MAX_FILES)),))
                files.append(PackFile(path, None, (problem,)))
        return files

    def _read(self, path: Path) -> PackFile:
        try:
            seen = path.stat()
            version = (seen.st_ino, seen.st_size, seen.st_mtime_ns, seen.st_ctime_ns)
            kept = self._checked.get(path)
            if kept is not None and kept[0] == version:
                return kept[1]
            data = path.read_bytes()
        except OSError as err:
            problem = Problem(path.name, None, None, f"cannot be read: {err.strerror}",
                              "unreadable", (("reason", str(err.strerror)),))
            return PackFile(path, None, (problem,))
        try:
            checked = PackFile(path, rules_packs.parse_pack(path.name, data))
        except PackError as err:
            checked = PackFile(path, None, err.problems)
        self._checked[path] = (version, checked)
        return checked

    def packs(self) -> list[Pack]:
        good = []
        for entry in self.files():
            if entry.pack is None:
                for problem in entry.problems:
                    log.warning("word pack skipped: %s", problem)
            else:
                good.append(entry.pack)
        return good

    def options_for(self, game: str) -> dict[str, Any]:
        """Start options carrying `game`'s decks from the packs: only the decks some pack
        fills ({} when none does), so a game without packs starts as it always did."""
        packs = [p for p in self.packs() if p.game == game]
        options: dict[str, Any] = {}
        for deck in registry.house(game).decks:
            if not any(deck.key in p.decks for p in packs):
                continue  # the built-in deck, as the rules have it without the option
            cards, used = rules_packs.combine(deck.built_in(), packs, deck.key)
            if len(cards) > MAX_DECK:  # files dropped in by hand: play on, with the first
                log.warning("%s's %s from packs %s hold %d entries; dealing the first %d",
                            game, deck.key, ", ".join(used), len(cards), MAX_DECK)
                cards = cards[:MAX_DECK]
            log.info("%s deals %s from %d cards with packs %s",
                     game, deck.key, len(cards), ", ".join(used))
            options.update(deck.to_options(cards))
        return options

    def save(self, name: str, data: bytes) -> Pack:
        """Check an upload and write it into the packs directory (replacing a same-named
        one). Raises BadPackName or PackError; nothing is written unless it checks out."""
        if not _NAME.match(name):
            raise BadPackName(
                f"{name[:60]!r} is not a pack file name: use letters, digits, - and _ "
                "(at most 48), ending in .toml"
            )
        pack = rules_packs.parse_pack(name, data)
        self._check_together(pack)
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.directory / name
        temporary = target.with_suffix(".toml.part")
        # Written whole, then renamed: a power cut never leaves half a pack.
        with temporary.open("wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        temporary.replace(target)
        log.info("word pack %s saved (%s, %d entries)", name, pack.game, pack.size())
        return pack

    def _check_together(self, pack: Pack) -> None:
        """Refuse (PackError) a pack that with the others of its game (a same-named one
        it replaces aside) would give a deck more entries than a game takes."""
        if len(self.files()) >= self.MAX_FILES and not (self.directory / pack.name).is_file():
            raise PackError([Problem(pack.name, None, None, f"the box already has "
                                     f"{self.MAX_FILES} pack files; remove one first",
                                     "too_many_files", (("max", str(self.MAX_FILES)),))])
        others = [p for p in self.packs() if p.game == pack.game and p.name != pack.name]
        for deck in registry.house(pack.game).decks:
            if deck.key not in pack.decks:
                continue
            problem = rules_packs.combined_problem(
                pack.name, pack.game, deck.key, deck.built_in(), [*others, pack]
            )
            if problem is not None:
                raise PackError([problem])

    def delete(self, name: str) -> None:
        if not _NAME.match(name) or not (self.directory / name).is_file():
            raise NoSuchPack(f"there is no pack {name[:60]!r} in {self.directory}")
        (self.directory / name).unlink()
        log.info("word pack %s deleted", name)
