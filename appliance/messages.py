"""What the box says to people in words, in English and Czech.

Errors carry a `key`, an English sentence and its parameters; `say` gives the sentence in
the table's language. Keys missing here fall back to the English sentence, so a new
message is never lost, only untranslated (a test checks that every key used has Czech).
"""

from __future__ import annotations

from typing import Any

CZECH: dict[str, str] = {
    # session
    "wrong_room": "Stůl s kódem {room} tu není.",
    "not_host": "To může udělat jen hostitel.",
    "name_empty": "Napište prosím jméno.",
    "name_long": "Jméno může mít nejvýš {max} znaků.",
    "name_chars": "Jméno smí obsahovat jen písmena, číslice a interpunkci.",
    "name_taken": "{name} už u stolu sedí.",
    "bad_colour": "Vyberte prosím jednu z nabízených barev.",
    "colour_taken": "Tu barvu už někdo má; vyberte jinou.",
    "no_such_seat": "Na místě {seat} nikdo nesedí.",
    "no_such_game": "Hra {game} neexistuje.",
    "not_available": "Tahle hra na krabici zatím není.",
    "select_playing": "Běží hra; nejdřív ji ukončete.",
    "already_playing": "Hra už běží.",
    "nothing_selected": "Nejdřív vyberte hru.",
    "player_count": "{game} je pro {low} až {high} hráčů; u stolu sedí {count}.",
    "not_playing": "Žádná hra neběží.",
    "not_in_match": "Tuhle hru sledujete, nehrajete.",
    "leave_playing": "Během hry nelze odejít; požádejte hostitele.",
    # protocol
    "bad_json": "Zpráva není platný JSON: {detail}",
    "not_text": "Zprávy musí být text ve formátu JSON.",
    "too_big": "Zpráva má {size} bajtů; nejvýš lze {limit}.",
    "unknown_type": "Neznámý typ zprávy {type!r}; známé jsou: {known}.",
    "invalid": "Zpráva není platná: {detail}",
    "hello_first": "Nejdřív pošlete hello s kódem stolu.",
    "join_first": "Nejdřív si sedněte ke stolu (join).",
    "already_joined": "U stolu už sedíte.",
    "kicked": "Hostitel vás od stolu odebral.",
    "seat_gone": "Vaše místo u stolu bylo uvolněno; připojte se znovu.",
    "not_saved": "Tah se nepodařilo uložit ({detail}); zkuste to znovu.",
    # limits against a hostile phone (appliance/server.py, session.py)
    "too_many_guesses": "Příliš mnoho špatných kódů stolu; zkuste to znovu za {seconds} s.",
    "too_many_seats": "Z tohoto telefonu už sedí u stolu {max} hráči; každý hráč se "
    "připojí ze svého telefonu.",
    "ink_rate": "Posíláte kresby rychleji, než kdokoli kreslí; počkejte pár sekund.",
    "match_full": "Tahle hra už nemá místo pro další tahy; hostitel ji má ukončit.",
    "box_full": "Paměťová karta krabice je plná; tah nebyl uložen. Hostitel má hru ukončit.",
    "end_not_saved": "Hru se nepodařilo ukončit ({detail}): krabice nemůže zapisovat na "
    "paměťovou kartu.",
    "pause_not_saved": "Pauzu se nepodařilo uložit ({detail}); hra pokračuje.",
    "store_failed": "Krabice nemůže zapisovat na paměťovou kartu ({detail}); nic se nezměnilo.",
    # family filter, pause, handing a seat over, the host's settings
    "name_unfriendly": "U tohoto stolu hrají rodiny: vyberte si prosím jiné jméno.",
    "text_unfriendly": "U tohoto stolu hrají rodiny: napište prosím jiné slovo.",
    "paused": "Hra je pozastavená; hostitel ji zase spustí.",
    "already_paused": "Hra už je pozastavená.",
    "not_paused": "Hra není pozastavená.",
    "handover_no_game": "Místa se předávají během hry; žádná neběží.",
    "handover_not_playing": "Místo {seat} tuhle hru nehraje.",
    "handover_already": "Místo {seat} už je volné k převzetí.",
    "bad_language": "Krabice mluví en nebo cs, ne {lang}.",
    "too_deep": "Zpráva je příliš hluboce vnořená.",
    "game_bug": "Krabice tento tah ({kind}) nedokázala provést; byl vynechán a hra pokračuje.",
    "slow_down": "Příliš mnoho zpráv najednou; tyto byly zahozeny. Zpomalte prosím.",
    "too_many_connections": "Z této adresy je připojeno příliš mnoho zařízení.",
}


def say(lang: str, key: str, english: str, **params: Any) -> str:
    """The sentence for `key` in `lang`, with `params` filled in."""
    template = CZECH.get(key, english) if lang == "cs" else english
    for text in (template, english):
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue  # a translation (or a game's sentence) that does not fit its params
    return english
