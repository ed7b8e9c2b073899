"""What the box says to people in words, in English and Czech.

Errors carry a `key`, an English sentence and its parameters; `say` gives the sentence in
the table's language. Keys missing here fall back to the English sentence, so a new
message is never lost, only untranslated (a test checks that every key used has Czech).
"""

from __future__ import annotations

from typing import Any

# Players are told "ty" (their phones, the kiosk); what only the host page or the host
# does ("Běží hra; nejdřív ji ukončete") keeps "vy", as the host page does (issue 19).
CZECH: dict[str, str] = {
    # session
    "wrong_room": "Stůl s kódem {room} tu není.",
    "not_host": "To může udělat jen hostitel.",
    "name_empty": "Napiš prosím jméno.",
    "name_long": "Jméno může mít nejvýš {max} znaků.",
    "name_chars": "Jméno smí obsahovat jen písmena, číslice a interpunkci.",
    "name_taken": "{name} už u stolu sedí.",
    "name_marks": "Nad jedním písmenem smí být nejvýš {max} znaménka.",
    "name_alike": "U stolu už sedí {other}, jméno vypadá stejně; zvol si jiné.",
    "bad_colour": "Vyber si prosím jednu z nabízených barev.",
    "colour_taken": "Tu barvu už někdo má; vyber si jinou.",
    "no_such_seat": "Na místě {seat} nikdo nesedí.",
    "no_such_game": "Hra {game} neexistuje.",
    "not_available": "Tahle hra na krabici zatím není.",
    "select_playing": "Běží hra; nejdřív ji ukončete.",
    "already_playing": "Hra už běží.",
    "nothing_selected": "Nejdřív vyberte hru.",
    "player_count": "{game} je pro {low} až {high} hráčů; u stolu sedí {count}.",
    "not_playing": "Žádná hra neběží.",
    "not_in_match": "Tuhle hru sleduješ, nehraješ.",
    "leave_playing": "Během hry nelze odejít; požádej hostitele.",
    "no_kiosk_seat": "V téhle hře není volné žádné místo bez telefonu; připoj se z telefonu, "
    "nebo počkej na další hru.",
    "kicked_out": "Hostitel tě z téhle hry odebral. Můžeš hrát příští, nebo požádej "
    "hostitele, ať tě pustí zpátky.",
    "not_kicked": "Nikoho jménem {name} hostitel neodebral.",
    # protocol
    "bad_json": "Zpráva není platný JSON: {detail}",
    "not_text": "Zprávy musí být text ve formátu JSON.",
    "too_big": "Zpráva má {size} bajtů; nejvýš lze {limit}.",
    "unknown_type": "Neznámý typ zprávy {type!r}; známé jsou: {known}.",
    "invalid": "Zpráva není platná: {detail}",
    "hello_first": "Nejdřív pošlete hello s kódem stolu.",
    "join_first": "Nejdřív si sedni ke stolu (join).",
    "already_joined": "U stolu už sedíš.",
    "already_joining": "Tvoje místo se právě ukládá; chvilku.",
    "kicked": "Hostitel tě od stolu odebral.",
    "seat_gone": "Tvoje místo u stolu bylo uvolněno; připoj se znovu.",
    "not_saved": "Tah se nepodařilo uložit ({detail}); zkus to znovu.",
    # limits against a hostile phone (appliance/door/server.py, session.py)
    "too_many_guesses": "Příliš mnoho špatných kódů stolu; zkus to znovu za {seconds} s.",
    "too_many_sockets": "Z této adresy se někdo připojuje příliš často; počkej pár sekund.",
    "too_many_seats": "Z tohoto telefonu už sedí u stolu {max} hráči; každý hráč se "
    "připojí ze svého telefonu.",
    "ink_rate": "Posíláš kresby rychleji, než kdokoli kreslí; počkej pár sekund.",
    "match_full": "Tahle hra už nemá místo pro další tahy; hostitel ji má ukončit.",
    "box_full": "Paměťová karta krabice je plná; tah nebyl uložen. Hostitel má hru ukončit.",
    "end_not_saved": "Hru se nepodařilo ukončit ({detail}): krabice nemůže zapisovat na "
    "paměťovou kartu.",
    "pause_not_saved": "Pauzu se nepodařilo uložit ({detail}); hra pokračuje.",
    "store_failed": "Krabice nemůže zapisovat na paměťovou kartu ({detail}); nic se nezměnilo.",
    "starting": "Hra se právě připravuje; chvilku.",
    "still_saving": "Krabice ještě ukládá poslední tahy; zkus to za chvilku znovu.",
    "start_not_saved": "Hru se nepodařilo spustit ({detail}): krabice nemůže zapisovat na "
    "paměťovou kartu.",
    "start_changed": "Během přípravy hry se stůl změnil; spusťte ji prosím znovu.",
    "degraded_card": "Na paměťovou kartu nelze zapisovat: hraje se, ale nic se neuloží.",
    "degraded_todo": "Uvolněte na ní místo (nebo ji povolte k zápisu) a krabici restartujte.",
    # family filter, pause, handing a seat over, the host's settings
    "name_unfriendly": "U tohoto stolu hrají rodiny: vyber si prosím jiné jméno.",
    "text_unfriendly": "U tohoto stolu hrají rodiny: napiš prosím jiné slovo.",
    "paused": "Hra je pozastavená; hostitel ji zase spustí.",
    "already_paused": "Hra už je pozastavená.",
    "not_paused": "Hra není pozastavená.",
    "no_finish": "Na obrazovce není žádná dohraná hra.",
    "handover_no_game": "Místa se předávají během hry; žádná neběží.",
    "handover_not_playing": "Místo {seat} tuhle hru nehraje.",
    "handover_already": "Místo {seat} už je volné k převzetí.",
    "bad_language": "Krabice mluví en nebo cs, ne {lang}.",
    "too_deep": "Zpráva je příliš hluboce vnořená.",
    "game_bug": "Krabice tento tah ({kind}) nedokázala provést; byl vynechán a hra pokračuje.",
    "slow_down": "Příliš mnoho zpráv najednou; tyto byly zahozeny. Zpomal prosím.",
    "too_many_connections": "Z této adresy je připojeno příliš mnoho zařízení.",
}


# The games' refusals (games/*.py raise them with these keys and an English sentence): what
# a player or the table reads when a move is not allowed, so it is "ty", like the phones.
# Where games share a key with different sentences, the Czech says what they have in common.
GAMES_CZECH: dict[str, str] = {
    "over": "Hra skončila.",
    "give_up_open": "Nejdřív je třeba rozhodnout o návrhu vzdát to.",
    "unknown_kind": "Tahle hra nezná tah {kind!r}.",
    "not_now_other": "O jiné číslo se dá požádat jen před položením první fólie.",
    "artists_ask": "O jiné číslo žádá jen umělec.",
    "no_numbers": "Na téhle kartě už nezbylo žádné číslo.",
    "not_drawing": "Teď se nekreslí.",
    "not_your_turn": "Teď kreslí jiný umělec.",
    "accept": "Hlasuj ano, nebo ne.",
    "artists_vote": "O fólii hlasují jen umělci.",
    "not_guessing": "Kritik teď nehádá.",
    "artists_mark": "Tip kritika hodnotí umělec.",
    "right": "Označ tip jako správný, nebo špatný.",
    "not_now_give_up": "Vzdát se dá jen rozehrané kolo.",
    "no_give_up": "Nikdo nenavrhl to vzdát.",
    "players_only": "To dělají jen hráči.",
    "agreed": "Tvůj souhlas už platí.",
    "not_now_hint": "Nápovědy odpovídají na kritikovy tipy.",
    "artists_hint": "Nápovědy dávají jen umělci.",
    "hint": "Nápovědy jsou: {hints}.",
    "sheets": "Krabice má {low} až {high} fólií.",
    "flag": "{name} je buď zapnuto, nebo vypnuto.",
    "die_unused": "Široké čáry kostku nepotřebují.",
    "hourglass_unused": "Široké čáry nemají přesýpací hodiny; podrž tlačítko a navrhni to vzdát.",
    "not_now_next": "Kolo ještě neskončilo.",
    "not_choosing": "Slovo už je vybrané.",
    "critic_names": "Číslo říká kritik umění.",
    "number": "Řekni číslo od 1 do {n}.",
    "number_refused": "Umělec požádal o jiné číslo než {number}.",
    "on": "Řekni zapnout, nebo vypnout.",
    "panel_already": "Tady už kreslíš.",
    "empty_sheet": "Nejdřív něco nakresli.",
    "too_many": "Tahů je už dost; víc se nevejde.",
    "ask_vote": "Stůl se ptá umělec, jehož je fólie.",
    "sheet_fine": "Tuhle fólii můžeš položit, jak je.",
    "vote_lost": "Umělci nechali verdikt kontroly platit; fólii nejdřív změň.",
    "no_vote": "Není o čem hlasovat.",
    "voted": "Tvůj hlas už je odeslán.",
    "critic_guesses": "Hádá kritik umění.",
    "guess_pending": "Umělci ještě neohodnotili poslední tip.",
    "text": "Napiš tip.",
    "text_length": "Tip má 1 až {n} znaků.",
    "text_chars": "Tip tvoří písmena, číslice a interpunkce.",
    "critic_passes": "Vzdát kolo může kritik umění.",
    "sheet_refused": "{why} Změň fólii, nebo požádej umělce, ať ji přijmou.",
    "paper_no_screen": "Na papír kreslí jen umělec bez telefonu.",
    "paper_drawing": "Tahle fólie se kreslí na obrazovce; polož ji, nebo ji smaž.",
    "nothing_to_undo": "Není co vracet.",
    "nothing_to_clear": "Obrázek je prázdný.",
    "table_only": "To dělá jen tlačítko na stole.",
    "artists_draw": "Kreslí jen umělci.",
    "handed_in": "Tvůj obrázek už je odevzdaný.",
    "paper": "Tahle hra se kreslí na papír.",
    "no_screen": "{name} je seznam míst u stolu.",
    "portrayer_phone": "Popisovatel vidí scénu celé kolo sám: aspoň jeden hráč potřebuje "
                       "telefon.",
    "vote_screen": "O fólii hlasuje jen umělec s telefonem.",
    "kiosk_seat_phone": "Tady potřebuje telefon každý; bez něj: {names}. Vyber hru, "
                        "kterou jde hrát i bez telefonu.",
    "not_evaluating": "Plátna se teď neposuzují.",
    "portrayer_next": "Dál pokračuje vypravěč.",
    "dispute_open": "Nejdřív je třeba dořešit spor.",
    "not_all_judged": "Nejdřív musí být posouzena všechna plátna.",
    "turns": "Každý hráč vypráví 1, 2 nebo 3krát.",
    "not_now_roll": "Kostka se teď nehází.",
    "portrayer_rolls": "Kostkou hází vypravěč.",
    "not_now_timer": "Přesýpací hodiny teď nejsou potřeba.",
    "portrayer_timer": "Přesýpací hodiny otáčí vypravěč.",
    "early": "Čas ještě nevypršel.",
    "not_now": "Teď ne.",
    "not_all_done": "Nejdřív musí všichni umělci říct, že mají hotovo.",
    "not_now_pass": "Plátna se teď nepředávají.",
    "portrayer_passes": "Kam plátna putují, rozhoduje vypravěč.",
    "direction": "Předej doleva, nebo doprava.",
    "evaluators_judge": "Posuzují jen hodnotitelé.",
    "met": "Odpověz ano, nebo ne.",
    "settled": "O tomhle posudku už rozhodlo hlasování.",
    "evaluators_dispute": "Spor vedou jen umělci a hodnotitelé.",
    "dispute_artist": "Řekni, o čí plátno se vede spor.",
    "dispute_own": "Spor můžeš vést o své plátno, nebo o to, které máš před sebou.",
    "dispute_no": "Spor se vede o NE u tvého plátna.",
    "no_dispute": "Není o čem hlasovat.",
    "portrayer_reads": "Kritéria čte vypravěč.",
    "reread_later": "Znovu přečíst jde jen kritérium, které už zaznělo.",
    "portrayer_no_vote": "Vypravěč nehlasuje.",
    "portrayer_closes": "Hlasování uzavírá vypravěč.",
    "no_votes": "Ještě nikdo nehlasoval.",
    "players_draw": "Kreslí jen hráči.",
    "not_voting": "Teď se nehlasuje.",
    "extended_factor": "Prodloužený čas je 1× až 4× delší.",
    "extra_cards": "Delší hra potřebuje k výhře 1 až 10 karet navíc.",
    "players_vote": "Hlasují jen hráči.",
    "closed": "Hlasování je uzavřené.",
    "chip": "Hlasuj pro jeden z žetonů u obrázků.",
    "agree": "Řekni ano, nebo ne.",
    "all_voted": "Všichni hlasovali: odhal hlasy.",
    # seats that leave and fair votes (games/core.py, duplik.py, artbox.py)
    "asked": "Tvoje žádost už platí.",
    "closing": "Odpočet už běží.",
    "criterion_moved": "Teď se posuzuje kritérium {n}.",
    "gone_already": "To místo už je volné.",
    "not_gone": "To místo nikdo neopustil.",
    "players_close": "O to žádají jen hráči.",
    "seat": "Vyber místo u stolu v této hře.",
    "sitting_out": "Toto kolo vynecháváš; hraješ zase od dalšího.",
    "not_all_voted": "Počkej, až všichni odhlasují (nebo hlasování ukončí hostitel).",
    "words": "words je seznam nejméně {low} dvojic [anglicky, česky].",
    "players_keep": "Slovo si nechávají jen hráči.",
    "kept": "Slovo už máš ponechané.",
    "card": "Nech si kartu 0, nebo kartu 1.",
    "not_creating": "Čas kreslení ještě nezačal, nebo už skončil.",
    "locked": "Máš žeton pořadí: obrázek je zamčený.",
    "not_matching": "Slova se teď nepřiřazují.",
    "players_guess": "Hádají jen hráči.",
    "guesses_done": "Tvoje tipy už jsou odevzdané.",
    "picture": "Řekni číslo obrázku.",
    "own_picture": "To je tvůj vlastní obrázek.",
    "not_revealing": "Obrázky se teď neodhalují.",
    "reveal_all": "Nejdřív odhal všechny obrázky.",
    "starter_rolls": "Kostkami hází začínající hráč.",
    "turned": "Přesýpací hodiny už běží.",
    "guess_all": "Nejdřív přiřaď slovo ke všem ostatním obrázkům.",
    "word": "Vyber jedno z vyložených slov.",
    "no_guess": "K tomu obrázku žádný tip není.",
    "starter_next": "Další kolo začíná začínající hráč.",
    "starter_reveals": "Obrázky odhaluje začínající hráč.",
    "all_revealed": "Všechny obrázky jsou odhalené.",
    "vote_open": "Nejdřív dokonči hlasování.",
    "players_contest": "Verdikt napadají jen hráči.",
    "artist": "Řekni, čí je ten obrázek.",
    "artist_no_vote": "Autor obrázku nehlasuje.",
    "breaks": "Hlasuj ano, nebo ne.",
    "starter_closes": "Hlasování uzavírá začínající hráč.",
    # games/options.py and games/strokes.py, shared by the games
    "seconds": "Přesýpací hodiny běží 10 až 600 sekund.",
    "unknown_option": "{game} nemá volbu {name}.",
    "stroke_points": "Tah potřebuje seznam bodů.",
    "stroke_long": "Tah má nejvýš {max} bodů.",
    "stroke_point": "Každý bod je [x, y, t] v celých číslech.",
    "stroke_outside": "Bod leží mimo fólii.",
    "stroke_time": "Čas bodu je mimo rozsah.",
    "stroke_colour": "Barva se píše #rrggbb.",
    "stroke_width": "Čára je široká {low} až {high} jednotek.",
}
# The session's own sentences win where a key is both (player_count takes params there).
CZECH.update({k: v for k, v in GAMES_CZECH.items() if k not in CZECH})


def say(lang: str, key: str, english: str, **params: Any) -> str:
    """The sentence for `key` in `lang`, with `params` filled in."""
    template = CZECH.get(key, english) if lang == "cs" else english
    for text in (template, english):
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue  # a translation (or a game's sentence) that does not fit its params
    return english


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` ("one", "few", "other") for the languages the box
    speaks, for the table's and the doors' sentences (the gallery's). The kiosk, which
    imports nothing outside its wing, has its twin in appliance/kiosk/text.py and the
    phone page asks Intl.PluralRules; tests/test_messages.py holds the twins to one
    answer."""
    if lang == "cs":
        if n == 1:
            return "one"
        if 2 <= n <= 4:
            return "few"
        return "other"
    return "one" if n == 1 else "other"
