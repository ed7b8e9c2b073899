// The phone page's words in English and Czech.
//
// The box decides the language (the `lang` field of `welcome` and `view`); before the
// first message arrives we guess from the browser so the very first screen already
// speaks the player's language.

const STRINGS = {
  en: {
    "app.tagline": "Party drawing games",
    "conn.reconnecting": "Reconnecting…",
    "conn.connecting": "Connecting to the table…",
    "room.title": "Join the table",
    "room.help": "Type the room code shown on the big screen.",
    "room.label": "Room code",
    "room.go": "Enter",
    "room.invalid": "A room code has 4 to 6 letters or digits.",
    "join.title": "Who's playing?",
    "join.room": "Room {room}",
    "room.badge": "Room code {room}",
    "join.name": "Your name",
    "join.shuffle": "Suggest another name",
    "join.colour": "Your colour",
    "join.taken": "taken by {name}",
    "join.go": "Join the table",
    "join.watch": "Watch the game",
    "join.busy": "A game is in progress — you can watch it, and take a seat when one frees.",
    "join.open_seat": "A game is in progress and a seat is free: you take it, with its score.",
    "join.take_seat": "Take the free seat",
    "join.seat_wait": "The seat waits {time} more; then the game goes on without it.",
    "join.full": "All seats are taken — you can watch.",
    "join.name_invalid": "A name has 1 to 20 characters.",
    "join.colour_invalid": "Pick a colour.",
    "lobby.you_seat": "You are in seat {n}",
    "lobby.players": "Players",
    "lobby.spectators": "{n} watching",
    "lobby.spectators_one": "1 watching",
    "lobby.game": "Game",
    "lobby.choose": "Choose the game",
    "options.kept": "These options are the last game's.",
    "options.reset": "Back to the defaults",
    "lobby.selected": "The host picked {title}.",
    "lobby.no_game": "The host hasn't picked a game yet.",
    "lobby.pick_first": "Pick a game above first.",
    "lobby.none_ready": "No game is ready on this box yet — coming soon!",
    "lobby.wait_host": "Waiting for the host to start…",
    "lobby.start": "Start {title}",
    "lobby.start_plain": "Start",
    "lobby.need_players": "{title} needs at least {min} players ({n} seated).",
    "lobby.too_many": "{title} takes at most {max} players ({n} seated).",
    "lobby.unavailable": "{title} is coming soon.",
    "lobby.players_range": "{min}–{max} players",
    "lobby.coming_soon": "coming soon",
    "lobby.leave": "Leave seat",
    "lobby.result": "Last game: {title}",
    "lobby.winners": "Winners: {names}",
    "lobby.winners_one": "Winner: {names}",
    "seat.you": "you",
    "seat.host": "host",
    "seat.online": "connected",
    "seat.offline": "disconnected",
    "away.count": "Away: {names}. The game goes on without them in a few seconds; they play on when back.",
    "away.gone_on": "Away: {names}. The game goes on without them until they are back.",
    "seat.number": "Seat {n}",
    "seat.kick": "Remove",
    "seat.kick_label": "Remove {name} from the table",
    "seat.kick_confirm": "Remove {name}?",
    "seat.kick_yes": "Yes, remove",
    "seat.kick_no": "Cancel",
    "seat.empty": "Nobody has joined yet.",
    "spectator.full": "The table is full — you are watching.",
    "spectator.busy": "A game is in progress — you are watching.",
    "spectator.hint": "You can join when a seat frees up or the game ends.",
    "spectator.join": "Join when a seat is free",
    "spectator.free": "A seat is free: you can join the table.",
    "spectator.join_now": "Join the table",
    "watch.title": "Watching",
    "watch.label": "Watching: {title}",
    "watch.why_busy": "A game is running: you see the table, and can take a seat when one frees.",
    "watch.why_over": "The game is over: the host chooses what comes next.",
    "watch.why_free": "A seat is free: you can take it and play on.",
    "watch.take": "Take the free seat ({name}'s place, score {score})",
    "watch.take_plain": "Take the free seat ({name}'s place)",
    "watch.join": "Join for the next game",
    "playing.title": "Game in progress",
    "playing.now": "Now playing: {title}",
    "playing.time": "Time left",
    "playing.paused": "Paused",
    "playing.paused_help": "The host will resume the game; the hourglass stands still.",
    "finish.title": "{title} is over",
    "finish.together": "Together you guessed {n} words",
    "finish.together_one": "Together you guessed 1 word",
    "finish.ended_early": "The host ended the game early: what was played counts.",
    "finish.no_winner": "No winner this time",
    "finish.gallery": "Take the art show home",
    "finish.winner": "Winner:",
    "finish.winners": "Winners:",
    "finish.again": "Play again",
    "finish.lobby": "Back to the lobby",
    "finish.wait": "The host will choose what comes next.",
    "vote.closes_in": "The vote closes in",
    "vote.start": "Start the countdown",
    "vote.ask": "Ask to count the votes",
    "vote.asked": "You asked ({n} of {total} players)",
    "vote.start_hint": "As the host you can give those who have not voted 20 seconds.",
    "vote.ask_hint": "When most of the table asks, those who have not voted get 20 seconds.",
    "vote.running_hint": "Whoever has not voted by then abstains.",
    "playing.placeholder": "Follow the big screen — this game's phone screen is on its way.",
    "kicked.title": "Removed from the table",
    "kicked.default": "You were removed from the table by the host.",
    "kicked.again": "Join again",
    "error.close": "Dismiss",
    "error.generic": "Something went wrong.",
    "colour.default": "Colour {n}",
    // The drawing canvas (canvas.js), for every game.
    "canvas.label": "Your drawing sheet",
    "canvas.drawing": "A drawing",
    "canvas.undo": "Undo",
    "canvas.colour": "Colour",
    "canvas.width": "Line width",
    "canvas.colour_0": "black",
    "canvas.colour_1": "red",
    "canvas.colour_2": "blue",
    "canvas.colour_3": "green",
    "canvas.colour_4": "orange",
    "canvas.colour_5": "brown",
    "canvas.width_0": "thin line",
    "canvas.width_1": "medium line",
    "canvas.width_2": "thick line",
    "canvas.paused": "Paused",
    "canvas.paused_help": "Drawing waits until the host resumes the game.",
    "canvas.not_saved": "Not saved",
    "canvas.not_saved_help": "The box could not keep this line: draw it again.",
  },
  cs: {
    "app.tagline": "Kreslicí hry pro partu",
    "conn.reconnecting": "Znovu se připojuji…",
    "conn.connecting": "Připojuji se ke stolu…",
    "room.title": "Přidej se ke stolu",
    "room.help": "Napiš kód místnosti z velké obrazovky.",
    "room.label": "Kód místnosti",
    "room.go": "Vstoupit",
    "room.invalid": "Kód místnosti má 4 až 6 písmen nebo číslic.",
    "join.title": "Kdo hraje?",
    "join.room": "Místnost {room}",
    "room.badge": "Kód místnosti {room}",
    "join.name": "Tvoje jméno",
    "join.shuffle": "Navrhnout jiné jméno",
    "join.colour": "Tvoje barva",
    "join.taken": "má ji {name}",
    "join.go": "Přisednout ke stolu",
    "join.watch": "Dívat se na hru",
    "join.busy": "Právě běží hra — můžeš se dívat a přisednout, až se uvolní místo.",
    "join.open_seat": "Právě běží hra a jedno místo je volné: přisedneš si i s jeho body.",
    "join.take_seat": "Přisednout na volné místo",
    "join.seat_wait": "Místo počká ještě {time}, pak hra pokračuje bez něj.",
    "join.full": "Všechna místa jsou obsazená — můžeš se dívat.",
    "join.name_invalid": "Jméno má 1 až 20 znaků.",
    "join.colour_invalid": "Vyber si barvu.",
    "lobby.you_seat": "Sedíš na místě {n}",
    "lobby.players": "Hráči",
    "lobby.spectators": "Diváci: {n}",
    "lobby.spectators_one": "Diváci: 1",
    "lobby.game": "Hra",
    "lobby.choose": "Vyber hru",
    "options.kept": "Tyhle volby zůstaly z minulé hry.",
    "options.reset": "Zpět na výchozí",
    "lobby.selected": "Hostitel vybral hru {title}.",
    "lobby.no_game": "Hostitel ještě nevybral hru.",
    "lobby.pick_first": "Nejdřív nahoře vyber hru.",
    "lobby.none_ready": "Na krabici zatím není připravená žádná hra — už brzy!",
    "lobby.wait_host": "Čeká se, až hostitel hru spustí…",
    "lobby.start": "Spustit: {title}",
    "lobby.start_plain": "Spustit",
    "lobby.need_players": "{title}: potřeba aspoň {min} hráčů (sedí {n}).",
    "lobby.too_many": "{title}: nejvýš {max} hráčů (sedí {n}).",
    "lobby.unavailable": "{title} už brzy.",
    "lobby.players_range": "{min}–{max} hráčů",
    "lobby.coming_soon": "už brzy",
    "lobby.leave": "Odejít od stolu",
    "lobby.result": "Minulá hra: {title}",
    "lobby.winners": "Vítězové: {names}",
    "lobby.winners_one": "Vítěz: {names}",
    "seat.you": "ty",
    "seat.host": "hostitel",
    "seat.online": "připojen",
    "seat.offline": "odpojen",
    "away.count": "Pryč: {names}. Za pár sekund hra půjde dál bez nich; po návratu se zase zapojí.",
    "away.gone_on": "Pryč: {names}. Hra jde dál bez nich, dokud se nevrátí.",
    "seat.number": "Místo {n}",
    "seat.kick": "Odebrat",
    "seat.kick_label": "Odebrat hráče {name} od stolu",
    "seat.kick_confirm": "Odebrat hráče {name}?",
    "seat.kick_yes": "Ano, odebrat",
    "seat.kick_no": "Zrušit",
    "seat.empty": "Zatím nikdo nepřisedl.",
    "spectator.full": "Stůl je plný — díváš se.",
    "spectator.busy": "Právě běží hra — díváš se.",
    "spectator.hint": "Přisednout můžeš, až se uvolní místo nebo hra skončí.",
    "spectator.join": "Přisednout, až bude volno",
    "spectator.free": "Jedno místo je volné: můžeš přisednout ke stolu.",
    "spectator.join_now": "Přisednout ke stolu",
    "watch.title": "Díváš se",
    "watch.label": "Díváš se: {title}",
    "watch.why_busy": "Právě běží hra: vidíš stůl a přisednout můžeš, až se uvolní místo.",
    "watch.why_over": "Hra skončila: co dál, vybere hostitel.",
    "watch.why_free": "Jedno místo je volné: můžeš si přisednout a hrát dál.",
    "watch.take": "Přisednout na volné místo (místo: {name}, body: {score})",
    "watch.take_plain": "Přisednout na volné místo (místo: {name})",
    "watch.join": "Přisednout k další hře",
    "playing.title": "Hra běží",
    "playing.now": "Hraje se: {title}",
    "playing.time": "Zbývá",
    "playing.paused": "Pozastaveno",
    "playing.paused_help": "Hostitel hru zase spustí; přesýpací hodiny stojí.",
    "finish.title": "Konec hry {title}",
    "finish.together": "Společně jste uhodli slov: {n}",
    "finish.together_one": "Společně jste uhodli 1 slovo",
    "finish.ended_early": "Hostitel hru ukončil předčasně: platí, co se odehrálo.",
    "finish.no_winner": "Tentokrát bez vítěze",
    "finish.gallery": "Odneste si obrázky domů",
    "finish.winner": "Vítěz:",
    "finish.winners": "Vítězové:",
    "finish.again": "Hrát znovu",
    "finish.lobby": "Zpět do předsíně",
    "finish.wait": "Co dál, vybere hostitel.",
    "vote.closes_in": "Hlasování skončí za",
    "vote.start": "Spustit odpočet",
    "vote.ask": "Požádat o sečtení hlasů",
    "vote.asked": "Tvá žádost platí ({n} z {total} hráčů)",
    "vote.start_hint": "Jako hostitel můžeš těm, kdo nehlasovali, dát 20 sekund.",
    "vote.ask_hint": "Když o to požádá většina stolu, kdo nehlasoval, dostane 20 sekund.",
    "vote.running_hint": "Kdo do té doby nehlasuje, zdržel se.",
    "playing.placeholder": "Sleduj velkou obrazovku — obrazovka této hry pro telefon se připravuje.",
    "kicked.title": "Už nesedíš u stolu",
    "kicked.default": "Hostitel tě odebral od stolu.",
    "kicked.again": "Přidat se znovu",
    "error.close": "Zavřít",
    "error.generic": "Něco se pokazilo.",
    "colour.default": "Barva {n}",
    "canvas.label": "Tvůj kreslicí papír",
    "canvas.drawing": "Kresba",
    "canvas.undo": "Zpět",
    "canvas.colour": "Barva",
    "canvas.width": "Tloušťka čáry",
    "canvas.colour_0": "černá",
    "canvas.colour_1": "červená",
    "canvas.colour_2": "modrá",
    "canvas.colour_3": "zelená",
    "canvas.colour_4": "oranžová",
    "canvas.colour_5": "hnědá",
    "canvas.width_0": "tenká čára",
    "canvas.width_1": "střední čára",
    "canvas.width_2": "tlustá čára",
    "canvas.paused": "Pozastaveno",
    "canvas.paused_help": "Kreslit se dá, až hostitel hru zase spustí.",
    "canvas.not_saved": "Neuloženo",
    "canvas.not_saved_help": "Krabice tuhle čáru neuložila: nakresli ji znovu.",
  },
};

// Names of the default palette, so a screen reader says "red", not "#e6194b".
const COLOUR_NAMES = {
  "#e6194b": ["red", "červená"],
  "#3cb44b": ["green", "zelená"],
  "#4363d8": ["blue", "modrá"],
  "#f58231": ["orange", "oranžová"],
  "#911eb4": ["purple", "fialová"],
  "#42d4f4": ["cyan", "tyrkysová"],
  "#f032e6": ["pink", "růžová"],
  "#9a6324": ["brown", "hnědá"],
  "#ffe119": ["yellow", "žlutá"],
  "#bfef45": ["lime", "limetková"],
  "#469990": ["teal", "modrozelená"],
  "#800000": ["maroon", "vínová"],
  "#000075": ["navy", "námořnická modrá"],
  "#a9a9a9": ["grey", "šedá"],
};

// Fun names to prefill the name box: [English, Czech] (Czech adjectives agree in gender).
export const FUN_NAMES = [
  ["Purple Fox", "Fialová liška"],
  ["Green Bear", "Zelený medvěd"],
  ["Sleepy Owl", "Ospalá sova"],
  ["Brave Hedgehog", "Statečný ježek"],
  ["Dancing Llama", "Tančící lama"],
  ["Sneaky Cat", "Mazaná kočka"],
  ["Happy Otter", "Veselá vydra"],
  ["Swift Hare", "Rychlý zajíc"],
  ["Clever Raven", "Chytrý havran"],
  ["Golden Carp", "Zlatý kapr"],
  ["Jolly Badger", "Bodrý jezevec"],
  ["Tiny Dragon", "Malý drak"],
  ["Spotted Frog", "Tečkovaná žába"],
  ["Proud Rooster", "Pyšný kohout"],
  ["Quiet Mole", "Tichý krtek"],
  ["Wild Squirrel", "Divoká veverka"],
];

let current = guessLang();

/** The language before the box has told us: Czech browsers get Czech, others English. */
export function guessLang() {
  const langs = (navigator.languages && navigator.languages.length
    ? navigator.languages : [navigator.language || "en"]);
  return String(langs[0] || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
}

export function lang() {
  return current;
}

/** Switch language; returns true when it changed (the caller re-renders). */
export function setLang(code) {
  const next = code === "cs" ? "cs" : "en";
  if (next === current) return false;
  current = next;
  return true;
}

/** The string `key` with `{name}` placeholders filled in from `params`. */
/** Add a game's sentences (language -> key -> sentence) to the catalogue: each game's
 * phone script brings its own, under its own prefix ("duplik.round"). */
export function addStrings(strings) {
  for (const [code, table] of Object.entries(strings)) {
    STRINGS[code] = { ...(STRINGS[code] || {}), ...table };
  }
}

/** Does Czech say "ze" (not "z") before the number `n`? By how its genitive begins:
 *  "ze dvou / tří / čtyř / šesti / sedmi / dvanácti / dvaceti / sta", "z pěti / osmi". */
function takesZe(n) {
  if (n >= 1000) return n >= 2000 && takesZe(Math.floor(n / 1000));
  if (n >= 100) return [1, 2, 3, 4, 6, 7].includes(Math.floor(n / 100));
  if (n >= 20) return [2, 3, 4, 6, 7].includes(Math.floor(n / 10));
  return [2, 3, 4, 6, 7, 12, 13, 14, 16, 17].includes(n);
}

/** Czech counts read "1 ze 4", "2 z 5": the preposition follows the number after it.
 *  The kiosk's twin is czech_counts in appliance/kiosk/text.py; tests/test_messages.py holds
 *  the two to one answer. */
export function czechCounts(text) {
  return text.replace(/(^|[\s(])z (\d+)\b/g,
    (whole, before, digits) => (takesZe(Number(digits)) ? `${before}ze ${digits}` : whole));
}

export function t(key, params) {
  const table = STRINGS[current] || STRINGS.en;
  // A count `n` picks the language's plural form where the key has one ("key_one",
  // "key_few"): the one place the phone page does (as messages.plural_form does for
  // the box).
  const form = params && typeof params.n === "number"
    ? new Intl.PluralRules(current === "cs" ? "cs" : "en").select(params.n) : null;
  const own = form ? table[`${key}_${form}`] : undefined;
  const template = own ?? table[key] ?? STRINGS.en[key] ?? key;
  if (!params) return template;
  const said = template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
  return current === "cs" ? czechCounts(said) : said;
}

export function colourName(hex, index) {
  const pair = COLOUR_NAMES[String(hex).toLowerCase()];
  if (pair) return current === "cs" ? pair[1] : pair[0];
  return t("colour.default", { n: index + 1 });
}

export function funName(index) {
  const pair = FUN_NAMES[((index % FUN_NAMES.length) + FUN_NAMES.length) % FUN_NAMES.length];
  return current === "cs" ? pair[1] : pair[0];
}

/** Translate the static markup: data-i18n (text), data-i18n-placeholder, data-i18n-label. */
export function translateDocument(root = document) {
  document.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    el.setAttribute("title", t(el.dataset.i18nLabel));
  }
}
