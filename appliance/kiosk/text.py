"""Every sentence the kiosk shows, in English and Czech.

The view's "lang" picks the catalogue; an unknown language falls back to English, and a
key missing from a catalogue falls back to the English sentence rather than failing a
frame. Player names and game titles never pass through here: they are data, drawn as is.
Here are the box's own sentences; a game's kiosk screen keeps its own beside it, under
its own prefix ("duplik.round"), and adds them with `add_texts` when it registers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

DEFAULT_LANG: Final = "en"

# Plural forms: English uses "one"/"other"; Czech "one" (1), "few" (2-4), "other".
# A key that needs a count is stored as a dict of forms.
_Entry = str | dict[str, str]

CATALOGUES: Final[dict[str, dict[str, _Entry]]] = {
    "en": {
        "scan_to_join": "Scan to join",
        "step_wifi": "1 · Wi-Fi",
        "step_join": "2 · Join",
        "wifi_network": "Network: {ssid}",
        "wifi_password": "Password: {password}",
        "wifi_open": "Open network",
        "or_open": "or open",
        "room_code": "Room code",
        "players": "Players",
        "spectators": {"one": "{n} watching", "other": "{n} watching"},
        "free_seat": "free seat",
        "host": "host",
        "offline": "offline",
        "games": "Choose a game",
        "players_range": "{min}–{max} players",
        "coming_soon": "coming soon",
        "start": "Start",
        "need_more": {"one": "Need {n} more player", "other": "Need {n} more players"},
        "more_players": {"one": "and {n} more", "other": "and {n} more"},
        "too_many": "Too many players (max. {max})",
        "game_not_ready": "{title} is coming soon",
        "pick_game": "Choose a game",
        "winners": {"one": "Winner: {names}", "other": "Winners: {names}"},
        "gallery_title": "Take the art show home",
        "gallery_help": "Scan for every drawing of this game, to keep or download.",
        "no_winner": "No winner this time",
        "ended_early": "{result} · ended early",
        "match_over": "{title} is over",
        "finish_again": "Play again",
        "finish_lobby": "Back to the lobby",
        "finish_hint": "The host chooses (or press REVEAL)",
        "together": {"one": "Together: {n} word guessed", "other": "Together: {n} words guessed"},
        "paused": "Paused",
        "paused_help": "The game and its hourglass stand still. To resume: Play/Pause on "
        "the remote, P on a keyboard, or the host menu.",
        "handover": "{name}'s seat is free: join with the code {room} within {time}",
        "away_count": "{name} is away: the game goes on without them in {time}",
        "away": "{name} is away",
        "sit_here": "Sit here without a phone",
        "away_gone_on": "{name} is away: the game goes on, and they play on when back",
        "and": " and ",
        "seat_n": "Seat {n}",
        "in_progress": "Game in progress",
        "button_hourglass": "Hourglass",
        "button_die": "Die",
        "button_reveal": "Reveal",
        "placeholder": "The game's own screen comes with the game.",
        "placeholder_hint": "Play on your phones; this screen keeps the time and the scores.",
        "deadline_hourglass": "Hourglass",
        "deadline_other": "Time",
        "join_or_watch": "Join or watch",
        "score": "score",
        "vote.countdown": "The vote closes in {time}",
        "vote.start_countdown": "Start the countdown",
        "vote.start_countdown_short": "Countdown",
        "vote.asked": "{n} asked for it",
    },
    "cs": {
        "scan_to_join": "Naskenuj a hraj",
        "step_wifi": "1 · Wi-Fi",
        "step_join": "2 · Připoj se",
        "wifi_network": "Síť: {ssid}",
        "wifi_password": "Heslo: {password}",
        "wifi_open": "Otevřená síť",
        "or_open": "nebo otevři",
        "room_code": "Kód místnosti",
        "players": "Hráči",
        "spectators": {"one": "{n} divák", "few": "{n} diváci", "other": "{n} diváků"},
        "free_seat": "volné místo",
        "host": "hostitel",
        "offline": "bez spojení",
        "games": "Vyber hru",
        "players_range": "{min}–{max} hráčů",
        "coming_soon": "již brzy",
        "start": "Začít hru",
        "more_players": {"one": "a {n} další", "few": "a {n} další", "other": "a {n} dalších"},
        "need_more": {
            "one": "Chybí ještě {n} hráč",
            "few": "Chybějí ještě {n} hráči",
            "other": "Chybí ještě {n} hráčů",
        },
        "too_many": "Příliš mnoho hráčů (nejvýš {max})",
        "game_not_ready": "{title} – již brzy",
        "pick_game": "Vyber hru",
        "winners": {"one": "Vítěz: {names}", "other": "Vítězové: {names}"},
        "gallery_title": "Odneste si obrázky domů",
        "gallery_help": "Naskenuj: všechny obrázky z této hry na prohlížení i stažení.",
        "no_winner": "Tentokrát bez vítěze",
        "ended_early": "{result} · ukončeno předčasně",
        "match_over": "Konec hry {title}",
        "finish_again": "Hrát znovu",
        "finish_lobby": "Zpět do předsíně",
        "finish_hint": "Vybere hostitel (nebo stiskni Odhalit)",
        "together": {
            "one": "Společně: uhodnuto {n} slovo",
            "few": "Společně: uhodnuta {n} slova",
            "other": "Společně: uhodnuto {n} slov",
        },
        "paused": "Pozastaveno",
        "paused_help": "Hra i přesýpací hodiny stojí. Spustí je hostitel tlačítkem "
        "Play/Pauza na ovladači, P na klávesnici nebo v menu hostitele.",
        "handover": "Místo hráče {name} je volné: připoj se kódem {room} do {time}",
        "away_count": "{name} je pryč: hra půjde dál za {time}",
        "away": "{name} je pryč",
        "sit_here": "Sednout si sem bez telefonu",
        "away_gone_on": "{name} je pryč: hra jde dál, po návratu se zase zapojí",
        "and": " a ",
        "seat_n": "Místo {n}",
        "in_progress": "Probíhá hra",
        "button_hourglass": "Přesýpačky",
        "button_die": "Kostka",
        "button_reveal": "Odhalit",
        "placeholder": "Vlastní obrazovka této hry přijde spolu s hrou.",
        "placeholder_hint": "Hraj na telefonu; tahle obrazovka hlídá čas a body.",
        "deadline_hourglass": "Přesýpací hodiny",
        "deadline_other": "Čas",
        "join_or_watch": "Připoj se nebo sleduj",
        "score": "body",
        "vote.countdown": "Hlasování skončí za {time}",
        "vote.start_countdown": "Spustit odpočet",
        "vote.start_countdown_short": "Odpočet",
        "vote.asked": "Žádá: {n}",
    },
}

LANGUAGES: Final = tuple(CATALOGUES)


class TextClash(ValueError):
    """A game's sentence would replace one the box or another game already says."""


def add_texts(texts: Mapping[str, Mapping[str, _Entry]]) -> None:
    """Add a game's sentences (language -> key -> sentence) to the catalogues. A key
    already there with another sentence is refused, naming it: two screens saying
    different things under one key would show one of them in the other's place."""
    for lang, entries in texts.items():
        catalogue = CATALOGUES.setdefault(lang, {})
        for key, entry in entries.items():
            if key in catalogue and catalogue[key] != entry:
                raise TextClash(f"kiosk text {key!r} ({lang}) is already said otherwise")
        catalogue.update(entries)


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` for the languages the kiosk speaks."""
    if lang == "cs":
        if n == 1:
            return "one"
        if 2 <= n <= 4:
            return "few"
        return "other"
    return "one" if n == 1 else "other"


def _takes_ze(n: int) -> bool:
    """Does Czech say "ze" (not "z") before the number `n`? By how its genitive begins:
    "ze dvou / tří / čtyř / šesti / sedmi / dvanácti / dvaceti / sta", "z pěti / osmi"."""
    if n >= 1000:
        return n >= 2000 and _takes_ze(n // 1000)
    if n >= 100:
        return n // 100 in (1, 2, 3, 4, 6, 7)
    if n >= 20:
        return n // 10 in (2, 3, 4, 6, 7)
    return n in (2, 3, 4, 6, 7, 12, 13, 14, 16, 17)


_CZECH_COUNT: Final = re.compile(r"(^|[\s(])z (\d+)\b")


def czech_counts(text: str) -> str:
    """Czech counts read "1 ze 4", "2 z 5": the preposition follows the number after it.
    The phone page's twin is i18n.js's czechCounts; tests/test_messages.py holds the two
    to one answer."""
    return _CZECH_COUNT.sub(
        lambda m: f"{m[1]}ze {m[2]}" if _takes_ze(int(m[2])) else m[0], text)


def _entry(lang: str, key: str) -> _Entry:
    catalogue = CATALOGUES.get(lang, CATALOGUES[DEFAULT_LANG])
    if key in catalogue:
        return catalogue[key]
    return CATALOGUES[DEFAULT_LANG][key]


def tr(lang: str, key: str, n: int | None = None, **fields: object) -> str:
    """The sentence `key` in `lang`, with `{fields}` filled in; `n` picks the plural form."""
    entry = _entry(lang, key)
    if isinstance(entry, dict):
        count = 0 if n is None else n
        said = entry.get(plural_form(lang, count), entry["other"]).format(n=count, **fields)
    else:
        said = entry.format(n=n, **fields)
    return czech_counts(said) if lang == "cs" else said


def join_names(lang: str, names: Sequence[str]) -> str:
    """'Ada', 'Ada and Bo', 'Ada, Bo and Cy' (Czech: 'Ada, Bo a Cy')."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + tr(lang, "and") + names[-1]


def quoted(lang: str, text: str) -> str:
    """`text` in the language's quotation marks: “word” in English, „slovo“ in Czech."""
    return f"„{text}“" if lang == "cs" else f"“{text}”"


def result_line(lang: str, *, together: bool, guessed: int, winners: Sequence[str],
                ended_early: bool) -> str:
    """A finished game's result in one line, the one wording of every screen that shows
    it (the finish, the lobby's banner, the idle lobby's list of today's games): the
    words the table guessed in a game played together (everyone "won" together, so
    naming them as winners says nothing), else who won; "· ended early" when the host
    ended it."""
    if together:
        result = tr(lang, "together", n=guessed)
    elif winners:
        result = tr(lang, "winners", n=len(winners), names=join_names(lang, winners))
    else:
        result = tr(lang, "no_winner")
    return tr(lang, "ended_early", result=result) if ended_early else result
