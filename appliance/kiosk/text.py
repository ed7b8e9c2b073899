"""Every sentence the kiosk shows, in English and Czech.

The view's "lang" picks the catalogue; an unknown language falls back to English, and a
key missing from a catalogue falls back to the English sentence rather than failing a
frame. Player names and game titles never pass through here: they are data, drawn as is.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        "too_many": "Too many players (max. {max})",
        "game_not_ready": "{title} is coming soon",
        "pick_game": "Choose a game",
        "winners": {"one": "Winner: {names}", "other": "Winners: {names}"},
        "gallery_title": "Take the art show home",
        "gallery_help": "Scan for every drawing of this game, to keep or download.",
        "no_winner": "No winner this time",
        "match_over": "{title} is over",
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
        # Duplik (appliance/kiosk/duplik.py)
        "duplik.round": "Round {round} of {rounds}",
        "duplik.quoted": "“{title}”",
        "duplik.portrayer": "Portrayer",
        "duplik.portrays": "portrays",
        "duplik.golden": "Golden",
        "duplik.golden_is": "Golden criterion: {number}",
        "duplik.golden_worth": "It is worth 3 points to every Artist who meets it.",
        "duplik.golden_tag": "GOLDEN · 3 points",
        "duplik.roll_title": "{name} rolls the die",
        "duplik.roll_hint": "The die picks the golden criterion.",
        "duplik.roll_tap": "Tap the die or press DIE",
        "duplik.first_rolls": "Who portrays first: {rolls}",
        "duplik.ready_hint": "{name} turns the hourglass when everyone is ready",
        "duplik.ready_tap": "Tap the hourglass or press HOURGLASS",
        "duplik.drawing_title": "{name} describes the scene",
        "duplik.no_questions": "Artists draw in silence — no questions!",
        "duplik.paper": "Artists draw on paper — no questions!",
        "duplik.drawing_now": "drawing…",
        "duplik.on_paper": "on paper",
        "duplik.handed_in": "handed in",
        "duplik.done_count": "{n} of {total} handed in",
        "duplik.passing_title": "Pass the canvases",
        "duplik.passing_hint": "{name} decides: to the left or to the right",
        "duplik.passing_rule": "Nobody judges their own canvas.",
        "duplik.left": "left",
        "duplik.right": "right",
        "duplik.criterion": "Criterion {n} of {total}",
        "duplik.read_again": "Read again",
        "duplik.progress_hint": "green: some Artist met it",
        "duplik.judged": "Judged {n} of {total}",
        "duplik.yes": "YES",
        "duplik.no": "NO",
        "duplik.by_vote": "settled by a vote",
        "duplik.voted": "voted",
        "duplik.voted_by": "Voted: {names}",
        "duplik.voting": "voting…",
        "duplik.dispute_title": "Dispute!",
        "duplik.dispute_canvas": "{name}'s canvas, criterion {n}",
        "duplik.votes": "{n} of {total} voted",
        "vote.countdown": "The vote closes in {time}",
        "vote.start_countdown": "Start the countdown",
        "vote.asked": "{n} asked for it",
        "duplik.vote_rule": "Everyone but the Portrayer votes on their phone. "
        "A tie awards the point.",
        "duplik.scores": "Scores",
        "duplik.artshow": "Art show",
        "duplik.the_scene": "The scene",
        "duplik.points": {"one": "+{n} point", "other": "+{n} points"},
        "duplik.next_round": "Next round",
        "duplik.next_hint": "{name} goes on when you have laughed enough",
        # ArtBox (appliance/kiosk/artbox.py)
        "artbox.round": "Round {n}",
        "artbox.goal": "first to {n} points",
        "artbox.goal_advanced": "advanced end",
        "artbox.starter": "Starting player",
        "artbox.title_choose": "Choose your word",
        "artbox.title_roll": "{name} rolls the shape dice",
        "artbox.title_create": "Draw with exactly these shapes",
        "artbox.title_match": "Which word is which picture?",
        "artbox.title_reveal": "Whose picture is it?",
        "artbox.title_points": "Points of round {n}",
        "artbox.title_over": "Game over",
        "artbox.scores": "Scores",
        "artbox.chose": "has chosen",
        "artbox.choosing": "choosing…",
        "artbox.rolls": "rolls the dice",
        "artbox.token_n": "finished · token {n}",
        "artbox.drawing": "drawing…",
        "artbox.guessed": "done guessing",
        "artbox.guessing": "guessing…",
        "artbox.on_trial": "under vote",
        "artbox.voted": "voted",
        "artbox.voting": "voting…",
        "artbox.correct": {"one": "{n} correct guess", "other": "{n} correct guesses"},
        "artbox.red_point_short": "+1 · most recognised",
        "artbox.grey_point_short": "+1 · most correct guesses",
        "artbox.choose_hint": "Everyone keeps one of their two word cards",
        "artbox.choose_secret": "Secretly, on your phone. The other card is discarded.",
        "artbox.chose_count": "{n} of {total} have chosen",
        "artbox.roll_hint": "Every picture must use exactly the four shapes rolled.",
        "artbox.roll_tap": "Tap the dice or press DIE",
        "artbox.shape.circle": "circle",
        "artbox.shape.square": "square",
        "artbox.shape.triangle": "triangle",
        "artbox.shape.line": "line",
        "artbox.create_rule": "Exactly these four, no more, no less. "
        "A rectangle counts as a square, an oval as a circle; lines are straight.",
        "artbox.finished_count": "Finished: {n} of {total}",
        "artbox.picture_n": "Picture {n}",
        "artbox.hourglass_running": "The sand is running!",
        "artbox.hourglass_tap": "The first player done turns the hourglass (or tap it here)",
        "artbox.done_count": "Done guessing: {n} of {total}",
        "artbox.words": "Words",
        "artbox.recognised": {"one": "guessed by {n}", "other": "guessed by {n}"},
        "artbox.vote_title": "Vote!",
        "artbox.by_vote": "by vote",
        "artbox.vote_question": "Does {name}'s picture break the shape rules?",
        "artbox.votes": "{n} of {total} voted",
        "artbox.vote_rule": "Everyone but the artist votes on their phone. "
        "A majority overrules the box; a tie leaves its verdict.",
        "artbox.revealed_count": "Revealed {n} of {total}",
        "artbox.reveal_button": "Reveal picture {n}",
        "artbox.award_button": "Award the points",
        "artbox.reveal_hint": "{name} reveals the pictures one by one (or press REVEAL).",
        "artbox.award_hint": "A verdict can be contested on a phone before {name} "
        "awards the points.",
        "artbox.correct_title": "Correct guesses",
        "artbox.red_point": "Most recognised picture",
        "artbox.grey_point": "Most correct guesses",
        "artbox.nobody": "nobody",
        "artbox.winner": "Winner: {name}",
        "artbox.next_round": "Next round",
        "artbox.next_hint": "{name} starts the next round (or press REVEAL)",
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
        "games": "Vyberte hru",
        "players_range": "{min}–{max} hráčů",
        "coming_soon": "již brzy",
        "start": "Začít hru",
        "need_more": {
            "one": "Chybí ještě {n} hráč",
            "few": "Chybějí ještě {n} hráči",
            "other": "Chybí ještě {n} hráčů",
        },
        "too_many": "Příliš mnoho hráčů (nejvýš {max})",
        "game_not_ready": "{title} – již brzy",
        "pick_game": "Vyberte hru",
        "winners": {"one": "Vítěz: {names}", "other": "Vítězové: {names}"},
        "gallery_title": "Výstava obrázků domů",
        "gallery_help": "Naskenujte: všechny obrázky z této hry na prohlížení i stažení.",
        "no_winner": "Tentokrát bez vítěze",
        "match_over": "Konec hry {title}",
        "and": " a ",
        "seat_n": "Místo {n}",
        "in_progress": "Probíhá hra",
        "button_hourglass": "Přesýpačky",
        "button_die": "Kostka",
        "button_reveal": "Odhalit",
        "placeholder": "Vlastní obrazovka této hry přijde spolu s hrou.",
        "placeholder_hint": "Hrajte na telefonech; tahle obrazovka hlídá čas a body.",
        "deadline_hourglass": "Přesýpací hodiny",
        "deadline_other": "Čas",
        "join_or_watch": "Připoj se nebo sleduj",
        "score": "body",
        # Duplik (appliance/kiosk/duplik.py)
        "duplik.round": "Kolo {round} z {rounds}",
        "duplik.quoted": "„{title}“",
        "duplik.portrayer": "Vypravěč",
        "duplik.portrays": "vypráví",
        "duplik.golden": "Zlaté",
        "duplik.golden_is": "Zlaté kritérium: {number}",
        "duplik.golden_worth": "Každému kreslíři, který ho splní, vynese 3 body.",
        "duplik.golden_tag": "ZLATÉ · 3 body",
        "duplik.roll_title": "{name} hází kostkou",
        "duplik.roll_hint": "Kostka určí zlaté kritérium.",
        "duplik.roll_tap": "Klepni na kostku nebo stiskni KOSTKA",
        "duplik.first_rolls": "Kdo vypráví první: {rolls}",
        "duplik.ready_hint": "{name} otočí přesýpací hodiny, až budou všichni připraveni",
        "duplik.ready_tap": "Klepni na přesýpací hodiny nebo stiskni HODINY",
        "duplik.drawing_title": "{name} popisuje obrázek",
        "duplik.no_questions": "Kreslíři kreslí mlčky — žádné otázky!",
        "duplik.paper": "Kreslíři kreslí na papír — žádné otázky!",
        "duplik.drawing_now": "kreslí…",
        "duplik.on_paper": "na papíře",
        "duplik.handed_in": "odevzdáno",
        "duplik.done_count": "Odevzdáno {n} z {total}",
        "duplik.passing_title": "Předejte plátna",
        "duplik.passing_hint": "{name} rozhodne: doleva, nebo doprava",
        "duplik.passing_rule": "Nikdo nehodnotí své vlastní plátno.",
        "duplik.left": "doleva",
        "duplik.right": "doprava",
        "duplik.criterion": "Kritérium {n} z {total}",
        "duplik.read_again": "Znovu",
        "duplik.progress_hint": "zelená: někdo ho splnil",
        "duplik.judged": "Posouzeno {n} z {total}",
        "duplik.yes": "ANO",
        "duplik.no": "NE",
        "duplik.by_vote": "rozhodlo hlasování",
        "duplik.voted": "hlasoval(a)",
        "duplik.voted_by": "Hlasovali: {names}",
        "duplik.voting": "hlasuje…",
        "duplik.dispute_title": "Spor!",
        "duplik.dispute_canvas": "Plátno: {name}, kritérium {n}",
        "duplik.votes": "Hlasovalo {n} z {total}",
        "vote.countdown": "Hlasování skončí za {time}",
        "vote.start_countdown": "Spustit odpočet",
        "vote.asked": "Žádá: {n}",
        "duplik.vote_rule": "Hlasují na telefonech všichni kromě vypravěče. "
        "Při rovnosti se bod uděluje.",
        "duplik.scores": "Body",
        "duplik.artshow": "Výstava",
        "duplik.the_scene": "Předloha",
        "duplik.points": {"one": "+{n} bod", "few": "+{n} body", "other": "+{n} bodů"},
        "duplik.next_round": "Další kolo",
        "duplik.next_hint": "{name} pokračuje, až se dosmějete",
        # ArtBox (appliance/kiosk/artbox.py)
        "artbox.round": "{n}. kolo",
        "artbox.goal": "vyhrává první s {n} body",
        "artbox.goal_advanced": "pokročilý konec",
        "artbox.starter": "Začínající hráč",
        "artbox.title_choose": "Vyberte si slovo",
        "artbox.title_roll": "{name} hází kostkami tvarů",
        "artbox.title_create": "Kreslete právě těmito tvary",
        "artbox.title_match": "Které slovo patří ke kterému obrázku?",
        "artbox.title_reveal": "Čí je který obrázek?",
        "artbox.title_points": "Body {n}. kola",
        "artbox.title_over": "Konec hry",
        "artbox.scores": "Body",
        "artbox.chose": "vybráno",
        "artbox.choosing": "vybírá…",
        "artbox.rolls": "hází kostkami",
        "artbox.token_n": "hotovo · žeton {n}",
        "artbox.drawing": "kreslí…",
        "artbox.guessed": "dohádáno",
        "artbox.guessing": "hádá…",
        "artbox.on_trial": "hlasuje se o něm",
        "artbox.voted": "hlasoval(a)",
        "artbox.voting": "hlasuje…",
        "artbox.correct": {
            "one": "{n} správný tip",
            "few": "{n} správné tipy",
            "other": "{n} správných tipů",
        },
        "artbox.red_point_short": "+1 · nejčastěji poznaný",
        "artbox.grey_point_short": "+1 · nejvíc správných tipů",
        "artbox.choose_hint": "Každý si nechá jednu ze dvou karet se slovem",
        "artbox.choose_secret": "Tajně, na telefonu. Druhá karta jde na odkládací balíček.",
        "artbox.chose_count": "Vybralo {n} z {total}",
        "artbox.roll_hint": "Každý obrázek musí použít právě čtyři hozené tvary.",
        "artbox.roll_tap": "Klepni na kostky nebo stiskni KOSTKA",
        "artbox.shape.circle": "kruh",
        "artbox.shape.square": "čtverec",
        "artbox.shape.triangle": "trojúhelník",
        "artbox.shape.line": "čára",
        "artbox.create_rule": "Právě tyto čtyři, ne víc, ne míň. "
        "Obdélník platí za čtverec, ovál za kruh; čáry jsou rovné.",
        "artbox.finished_count": "Hotovo: {n} z {total}",
        "artbox.picture_n": "Obrázek {n}",
        "artbox.hourglass_running": "Písek se sype!",
        "artbox.hourglass_tap": "Kdo má hotovo první, otočí přesýpací hodiny (nebo klepni sem)",
        "artbox.done_count": "Dohádáno: {n} z {total}",
        "artbox.words": "Slova",
        "artbox.recognised": {"one": "poznal {n}", "few": "poznali {n}", "other": "poznalo {n}"},
        "artbox.vote_title": "Hlasování!",
        "artbox.by_vote": "hlasováním",
        "artbox.vote_question": "Porušuje obrázek hráče {name} pravidla tvarů?",
        "artbox.votes": "Hlasovalo {n} z {total}",
        "artbox.vote_rule": "Hlasují na telefonech všichni kromě autora. "
        "Většina přehlasuje krabici; při rovnosti platí její verdikt.",
        "artbox.revealed_count": "Odhaleno {n} z {total}",
        "artbox.reveal_button": "Odhalit obrázek {n}",
        "artbox.award_button": "Rozdat body",
        "artbox.reveal_hint": "{name} odhaluje obrázky jeden po druhém (nebo stiskni ODHALIT).",
        "artbox.award_hint": "Než {name} rozdá body, lze posouzení tvarů na telefonu napadnout.",
        "artbox.correct_title": "Správné tipy",
        "artbox.red_point": "Nejčastěji poznaný obrázek",
        "artbox.grey_point": "Nejvíc správných tipů",
        "artbox.nobody": "nikdo",
        "artbox.winner": "Vítěz: {name}",
        "artbox.next_round": "Další kolo",
        "artbox.next_hint": "{name} zahájí další kolo (nebo stiskni ODHALIT)",
    },
}

LANGUAGES: Final = tuple(CATALOGUES)


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of `n` for the languages the kiosk speaks."""
    if lang == "cs":
        if n == 1:
            return "one"
        if 2 <= n <= 4:
            return "few"
        return "other"
    return "one" if n == 1 else "other"


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
        template = entry.get(plural_form(lang, count), entry["other"])
        return template.format(n=count, **fields)
    return entry.format(n=n, **fields)


def join_names(lang: str, names: Sequence[str]) -> str:
    """'Ada', 'Ada and Bo', 'Ada, Bo and Cy' (Czech: 'Ada, Bo a Cy')."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + tr(lang, "and") + names[-1]
