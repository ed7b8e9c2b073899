// The host page: run the table from a phone after the PIN (appliance/door/host_api.py).
//
// It talks JSON to /host/api/... (docs/protocol.md, "The host page") and polls the table's
// state every two seconds. Everything shown that a person typed (names, pack titles,
// errors) goes in as text through `h`/`fill`; there is no innerHTML here either.

import { gameOptions, loadGames, optionLabel } from "./games.js";
import { setLang } from "./i18n.js";
import { $, fill, h, halves, nameChip } from "./ui.js";

const POLL_MS = 2000;

const WORDS = {
  en: {
    badge: "Host", logout: "Log out", login_title: "Host the table",
    login_help: "Type the host PIN set when the box was installed.", pin: "PIN", login: "Log in",
    off_title: "The host page is off", table: "The table", seats: "Seats", game: "Game",
    choose_game: "Choose the game", start: "Start the game", language: "Language",
    packs: "Word packs", packs_help: "A word pack adds your own words to a game: the family's in-jokes, a theme night. It is a small text file: download the example, change its words in any text editor and upload it here. The next game uses it.",
    pack_example: "Download the example pack",
    upload: "Upload a pack", results: "Today's games", box: "The box", restart: "Restart the box",
    lobby: "In the lobby: {n} seated.", playing: "Playing {title}.", finished: "{title} is over.",
    paused: "Paused", pause: "Pause", resume: "Resume", end: "End the game",
    over: "{title} has ended: its finish is on every screen.", again: "Play again",
    to_lobby: "Back to the lobby",
    kick: "Kick", offer: "Free for a newcomer",
    kicked_out: "{name}: removed from this game", let_back: "Let back in", offline: "offline", open_seat: "Seat {n}: free to take",
    host_seat: "★ host", no_results: "No game has ended today yet.",
    sound: "Sound", volume: "Volume", mute: "Mute", unmute: "Sound on",
    sound_muted: "Muted: the box is silent until you turn the sound on (or it restarts).",
    sound_quiet: "Quiet hours ({hours}): the box is silent now.",
    sound_hours: "Quiet hours: {hours}.", sound_kept: "A change here lasts until the box restarts.",
    ended_early: "ended early", winner: "{names} won",
    together: "played together: {n} words guessed", together_one: "played together: 1 word guessed", pack_ok: "{game}, {mode}, {n} entries", pack_ok_one: "{game}, {mode}, 1 entry",
    pack_bad: "not used: it has problems",
    remove: "Remove", uploaded: "The pack {file} is saved.",
    confirm_restart: "Restart the box now?",
    restart_note: "The screen and the phones go blank for a moment; a game in play goes on where it was.",
    restart_yes: "Restart",
    confirm_end: "End {title} now?", confirm_end_note: "The game stops for everyone, on every screen.",
    end_yes: "End the game",
    confirm_kick: "Remove {name} from the table?", kick_yes: "Remove",
    kick_note: "{name}'s phone is told so, and the seat is free for someone else.",
    kick_note_playing: "{name} leaves the game and stays out of it until you let them back; a newcomer may take the seat.",
    confirm_offer: "Free {name}'s seat?", offer_yes: "Free the seat",
    offer_note: "{name} leaves the game; a newcomer can take the seat with its score.",
    keep_playing: "No, keep playing", cancel: "Cancel",
    seat_changed: "{name} is no longer in that seat: nothing was done.",
    restarting: "The box is restarting…",
    left: "{s} s left", deadline_paused: "{s} s left (stopped)", mode_add: "adds", mode_replace: "replaces",
    unavailable: "coming soon", lost: "The box does not answer; trying again…",
    options_kept: "These options are the last game's.", options_reset: "Back to the defaults",
  },
  cs: {
    badge: "Hostitel", logout: "Odhlásit", login_title: "Řídit stůl",
    login_help: "Zadejte PIN hostitele nastavený při instalaci krabice.", pin: "PIN", login: "Přihlásit",
    off_title: "Stránka hostitele je vypnutá", table: "Stůl", seats: "Místa", game: "Hra",
    choose_game: "Vyberte hru", start: "Spustit hru", language: "Jazyk",
    packs: "Balíčky slov", packs_help: "Balíček slov přidá do hry vaše vlastní slova: rodinné vtipy, tematický večer. Je to malý textový soubor: stáhněte si ukázku, přepište v ní slova v libovolném textovém editoru a nahrajte ji sem. Použije ji hned další hra.",
    pack_example: "Stáhnout ukázkový balíček",
    upload: "Nahrát balíček", results: "Dnešní hry", box: "Krabice", restart: "Restartovat krabici",
    lobby: "V předsíni: u stolu {n}.", playing: "Hraje se {title}.", finished: "Hra {title} skončila.",
    paused: "Pozastaveno", pause: "Pozastavit", resume: "Pokračovat", end: "Ukončit hru",
    over: "Hra {title} skončila: její závěr je na všech obrazovkách.", again: "Hrát znovu",
    to_lobby: "Zpět do předsíně",
    kick: "Odebrat", offer: "Uvolnit pro nováčka",
    kicked_out: "{name}: mimo tuto hru", let_back: "Pustit zpět", offline: "bez spojení", open_seat: "Místo {n}: volné k převzetí",
    host_seat: "★ hostitel", no_results: "Dnes zatím žádná hra neskončila.",
    sound: "Zvuk", volume: "Hlasitost", mute: "Ztlumit", unmute: "Zapnout zvuk",
    sound_muted: "Ztlumeno: krabice mlčí, dokud zvuk nezapnete (nebo se nerestartuje).",
    sound_quiet: "Noční klid ({hours}): krabice teď mlčí.",
    sound_hours: "Noční klid: {hours}.", sound_kept: "Změna tady platí do restartu krabice.",
    ended_early: "ukončena předčasně", winner_one: "vítěz: {names}", winner: "vítězové: {names}",
    together: "hráli společně: uhodnuto {n} slov", together_one: "hráli společně: uhodnuto 1 slovo",
    together_few: "hráli společně: uhodnuta {n} slova", pack_ok: "{game}, {mode}, {n} položek", pack_ok_one: "{game}, {mode}, 1 položka",
    pack_ok_few: "{game}, {mode}, {n} položky",
    pack_bad: "nepoužívá se: obsahuje chyby",
    remove: "Smazat", uploaded: "Balíček {file} je uložen.",
    confirm_restart: "Restartovat krabici?",
    restart_note: "Obrazovka i telefony na chvíli zhasnou; rozehraná hra bude pokračovat, kde byla.",
    restart_yes: "Restartovat",
    confirm_end: "Ukončit hru {title}?", confirm_end_note: "Hra skončí pro všechny, na všech obrazovkách.",
    end_yes: "Ukončit hru",
    confirm_kick: "Odebrat hráče {name} od stolu?", kick_yes: "Odebrat",
    kick_note: "Telefon hráče {name} se to dozví a místo se uvolní pro někoho dalšího.",
    kick_note_playing: "{name} opouští hru a nevrátí se do ní, dokud to nepovolíte; místo může převzít nováček.",
    confirm_offer: "Uvolnit místo hráče {name}?", offer_yes: "Uvolnit místo",
    offer_note: "{name} opouští hru; místo i s body může převzít nováček.",
    keep_playing: "Ne, hrajeme dál", cancel: "Zrušit",
    seat_changed: "{name} už na tom místě nesedí: nic se nestalo.",
    restarting: "Krabice se restartuje…",
    left: "zbývá {s} s", deadline_paused: "zbývá {s} s (zastaveno)", mode_add: "přidává", mode_replace: "nahrazuje",
    unavailable: "brzy", lost: "Krabice neodpovídá; zkouším znovu…",
    options_kept: "Tyto volby zůstaly z minulé hry.", options_reset: "Zpět na výchozí",
  },
};

const S = { lang: "en", data: null, options: {}, kept: new Set(), timer: null, busy: false, asking: null };

function w(key, params = {}) {
  const table = WORDS[S.lang] || WORDS.en;
  // A count picks the language's plural form: "1 entry", "2 položky", "5 položek".
  const form = typeof params.n === "number" ? new Intl.PluralRules(S.lang).select(params.n) : null;
  const text = (form && table[`${key}_${form}`]) ?? table[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

function translatePage() {
  document.documentElement.lang = S.lang;
  for (const el of document.querySelectorAll("[data-h]")) el.textContent = w(el.dataset.h);
}

function notice(text, isError = false) {
  const box = $("#notice");
  box.textContent = text || "";
  box.classList.toggle("is-error", isError);
  box.hidden = !text;
}

function show(screen) {
  for (const el of document.querySelectorAll("[data-screen]")) el.hidden = el.dataset.screen !== screen;
  $("#logout").hidden = screen !== "host";
}

// --- "Are you sure?" ------------------------------------------------------------------
//
// Kick, free a seat, end the game and restart the box ask first, in the page's language:
// the question, a sentence saying what happens, the safe button first and focused (Esc
// or it cancels). A question about a seat remembers who sat there: if the seat changes
// hands while it is open (the page polls), it closes and nothing is done.

function askFirst({ question, note, yes, safe, seat = null, name = "" }) {
  const dialog = $("#confirm");
  if (dialog.open) return Promise.resolve(false); // modal: nothing else is asked meanwhile
  $("#confirm-question").textContent = question;
  $("#confirm-note").textContent = note;
  $("#confirm-yes").textContent = yes;
  $("#confirm-no").textContent = safe;
  dialog.returnValue = "no";
  return new Promise((resolve) => {
    const asking = { seat, name };
    S.asking = asking;
    dialog.addEventListener("close", () => {
      if (S.asking === asking) S.asking = null;
      resolve(dialog.returnValue === "yes" && !sitterChanged(asking));
    }, { once: true });
    dialog.showModal();
    $("#confirm-no").focus(); // the safe choice first, whatever the browser would pick
  });
}

for (const button of document.querySelectorAll("#confirm [data-answer]")) {
  button.addEventListener("click", () => $("#confirm").close(button.dataset.answer));
}

/** Does `seat` no longer hold the person the question named? (Said, if so.) */
function sitterChanged(asking) {
  if (asking.seat === null || !S.data) return false;
  const now = (S.data.view.seats || []).find((s) => s.seat === asking.seat);
  if (now && now.name === asking.name) return false;
  notice(w("seat_changed", { name: asking.name }), true);
  return true;
}

function playingNow() {
  return Boolean(S.data && S.data.view.phase === "playing");
}

async function confirmEnd() {
  const title = (S.data && S.data.view.match && S.data.view.match.title) || "";
  const sure = await askFirst({
    question: w("confirm_end", { title }), note: w("confirm_end_note"), yes: w("end_yes"),
    safe: w("keep_playing"),
  });
  if (sure) act("end");
}

async function confirmSeat(kind, seat) {
  const name = seat.name;
  const kick = kind === "kick";
  const note = kick ? w(playingNow() ? "kick_note_playing" : "kick_note", { name }) : w("offer_note", { name });
  const sure = await askFirst({
    question: w(kick ? "confirm_kick" : "confirm_offer", { name }), note,
    yes: w(kick ? "kick_yes" : "offer_yes"), safe: w(playingNow() ? "keep_playing" : "cancel"),
    seat: seat.seat, name,
  });
  if (sure) act(kind, { seat: seat.seat });
}

// --- talking to the box ---------------------------------------------------------------

async function api(path, body, method = "POST") {
  const init = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(`/host/api/${path}`, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return { ok: response.ok, status: response.status, data, headers: response.headers };
}

function errorOf(result) {
  return (result.data && result.data.error) || { code: "http", message: `HTTP ${result.status}` };
}

async function refresh() {
  let result;
  try {
    result = await api("state", undefined, "GET");
  } catch {
    notice(w("lost"), true);
    return;
  }
  if (result.ok) {
    if ($("#notice").textContent === w("lost")) notice("");
    take(result.data);
    return;
  }
  const error = errorOf(result);
  stopPolling();
  if (error.code === "no_pin") {
    $("#off-message").textContent = error.message;
    show("off");
  } else {
    const locked = Number(result.headers.get("X-Easel-Locked") || 0);
    show("login");
    if (locked > 0) loginError("", locked);
  }
}

function startPolling() {
  stopPolling();
  S.timer = setInterval(refresh, POLL_MS);
}

function stopPolling() {
  if (S.timer !== null) clearInterval(S.timer);
  S.timer = null;
}

async function act(path, body = {}) {
  if (S.busy) return;
  S.busy = true;
  try {
    const result = await api(path, body);
    if (result.ok) {
      notice("");
      take(result.data);
    } else {
      const error = errorOf(result);
      notice(error.message, true);
      if (error.code === "login_first") show("login");
    }
  } catch {
    notice(w("lost"), true);
  } finally {
    S.busy = false;
  }
}

// --- login ------------------------------------------------------------------------------

function loginError(message, lockedSeconds = 0) {
  const el = $("#login-error");
  el.textContent = message;
  el.hidden = !message;
  const button = $("#login-button");
  if (lockedSeconds > 0) {
    button.disabled = true;
    setTimeout(() => { button.disabled = false; }, lockedSeconds * 1000);
  }
}

$("#login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = $("#pin").value.trim();
  const result = await api("login", { pin });
  $("#pin").value = "";
  if (result.ok) {
    loginError("");
    take(result.data);
    startPolling();
    return;
  }
  const error = errorOf(result);
  if (error.code === "no_pin") {
    $("#off-message").textContent = error.message;
    show("off");
    return;
  }
  loginError(error.message, error.code === "locked" ? Number(error.seconds || 1) : 0);
});

$("#logout").addEventListener("click", async () => {
  await api("logout", {});
  stopPolling();
  S.data = null;
  show("login");
});

// --- the table ----------------------------------------------------------------------------

function take(data) {
  S.data = data;
  const view = data.view;
  // The seat asked about changed hands under the question: it goes, unanswered.
  if (S.asking && S.asking.seat !== null && $("#confirm").open) {
    const now = (view.seats || []).find((s) => s.seat === S.asking.seat);
    if (!now || now.name !== S.asking.name) {
      notice(w("seat_changed", { name: S.asking.name }), true);
      $("#confirm").close("changed");
    }
  }
  if (view.lang && view.lang !== S.lang) {
    S.lang = view.lang;
    setLang(view.lang);
    translatePage();
  }
  show("host");
  renderStatus(view, data.paused);
  renderSeats(view, data.kicked || []);
  renderGames(view, data.defaults);
  renderSound(data.sound);
  renderLanguages(view);
  renderPacks(data.packs);
  renderResults(data.results);
}

function renderStatus(view, paused) {
  const match = view.match;
  let text = w("lobby", { n: (view.seats || []).length });
  if (view.phase === "playing" && match) text = w("playing", { title: match.title });
  if (view.phase === "finished" && match) text = w("finished", { title: match.title });
  if (view.phase === "over" && match) text = w("over", { title: match.title });
  const parts = [text];
  const deadline = match && view.phase === "playing" ? match.deadline : null;
  if (deadline) parts.push(w(paused ? "deadline_paused" : "left", { s: Math.ceil(deadline.remaining) }));
  fill($("#status"), parts.join(" "), paused ? h("span", { class: "is-paused" }, ` ${w("paused")}`) : null);
  const playing = view.phase === "playing";
  const over = view.phase === "over"; // the finish stays until the host moves on
  fill($("#match-buttons"),
    over ? h("button", {
      type: "button", class: "btn btn-primary", dataset: { do: "again" },
      onclick: () => act("finish", { again: true }),
    }, w("again")) : null,
    over ? h("button", {
      type: "button", class: "btn", dataset: { do: "to_lobby" },
      onclick: () => act("finish", { again: false }),
    }, w("to_lobby")) : null,
    playing ? h("button", {
      type: "button", class: "btn btn-primary", dataset: { do: paused ? "resume" : "pause" },
      onclick: () => act(paused ? "resume" : "pause"),
    }, w(paused ? "resume" : "pause")) : null,
    playing ? h("button", {
      type: "button", class: "btn btn-danger", dataset: { do: "end" },
      onclick: confirmEnd,
    }, w("end")) : null);
}

function renderSeats(view, kicked) {
  const playing = view.phase === "playing";
  const rows = (view.seats || []).map((seat) => h("li", { dataset: { seat: String(seat.seat) } },
    h("span", { class: "seat-name" }, nameChip(seat.name, seat.colour),
      seat.host ? ` ${w("host_seat")}` : "", seat.connected ? "" : ` · ${w("offline")}`),
    h("button", {
      type: "button", class: "btn btn-quiet btn-small", dataset: { do: "kick" },
      onclick: () => confirmSeat("kick", seat),
    }, w("kick")),
    playing ? h("button", {
      type: "button", class: "btn btn-quiet btn-small", dataset: { do: "offer" },
      onclick: () => confirmSeat("offer", seat),
    }, w("offer")) : null));
  // A seat handed over waits so long (refreshed with every poll), then the game goes on.
  const waits = new Map((view.handovers || []).map((x) => [x.seat, Math.ceil(Number(x.remaining) || 0)]));
  const left = (n) => (waits.has(n) ? ` · ${Math.floor(waits.get(n) / 60)}:${String(waits.get(n) % 60).padStart(2, "0")}` : "");
  const open = (view.open_seats || []).map((n) => h("li", { class: "muted" }, w("open_seat", { n: n + 1 }) + left(n)));
  // Removed from this game: they stay out until let back (or the game ends).
  const out = kicked.map((name) => h("li", { class: "muted", dataset: { kicked: String(name) } },
    h("span", { class: "seat-name" }, w("kicked_out", { name: String(name) })),
    h("button", {
      type: "button", class: "btn btn-quiet btn-small", dataset: { do: "let_back" },
      onclick: () => act("let_back", { name: String(name) }),
    }, w("let_back"))));
  fill($("#seats"), rows, open, out);
}

function renderGames(view, defaults) {
  const select = $("#game-select");
  const games = (view.games || []).filter((g) => g && typeof g.id === "string");
  const wanted = games.map((g) => `${g.id}:${g.title}:${g.available}`).join("|");
  if (select.dataset.games !== wanted) {
    fill(select, games.map((g) => h("option", { value: g.id, disabled: !g.available },
      g.available ? g.title : `${g.title} (${w("unavailable")})`)));
    select.dataset.games = wanted;
  }
  if (document.activeElement !== select) select.value = view.selected || "";
  const playing = view.phase === "playing";
  select.disabled = playing;
  $("#start").disabled = playing || !view.selected;
  renderOptions(view.selected, (defaults || {})[view.selected] || {}, playing);
}

// Every start option the game's house offers (the box lists them, games.js): the
// hourglass, the game length, the rule checks... Defaults come from the box's config.
function optionList(gameId) {
  return gameOptions(gameId);
}

function chosen(gameId, option, defaults) {
  const mine = (S.options[gameId] || {})[option.key];
  if (mine !== undefined) return mine;
  if (option.key in defaults) return defaults[option.key];
  return option.value;
}

function choose(gameId, key, value) {
  S.options[gameId] = { ...(S.options[gameId] || {}), [key]: value };
  S.kept.delete(gameId);
}

/** Options that differ from the box's defaults only because the last game had them: said
 * so, with a way back to the defaults (a ticked box nobody remembers ticking misleads). */
function keptNote(gameId, defaults) {
  if (!S.kept.has(gameId)) return null;
  const changed = optionList(gameId).some((o) => {
    const mine = (S.options[gameId] || {})[o.key];
    const base = o.key in defaults ? defaults[o.key] : o.value;
    return mine !== undefined && mine !== base;
  });
  if (!changed) return null;
  return h("p", { class: "options-kept small", "data-kept": "true" },
    h("span", {}, w("options_kept")), " ",
    h("button", {
      type: "button", class: "btn btn-quiet btn-small", dataset: { act: "options-reset" },
      onclick: () => {
        S.options[gameId] = {};
        S.kept.delete(gameId);
        $("#options").dataset.key = "";
        renderOptions(gameId, defaults, false);
      },
    }, w("options_reset")));
}

function renderOptions(gameId, defaults, disabled) {
  const box = $("#options");
  const key = `${gameId}|${disabled}|${JSON.stringify(defaults)}|${S.lang}|${S.kept.has(gameId)}`;
  if (box.dataset.key === key) return; // do not rebuild under the host's fingers
  box.dataset.key = key;
  if (!gameId) {
    fill(box);
    return;
  }
  fill(box, disabled ? null : keptNote(gameId, defaults), optionList(gameId).map((option) => {
    const value = chosen(gameId, option, defaults);
    const label = optionLabel(option, S.lang);
    const id = `opt-${option.key}`;
    if (option.toggle) {
      return h("label", { for: id },
        h("input", {
          id, type: "checkbox", checked: Boolean(value), disabled, dataset: { option: option.key },
          onchange: (event) => choose(gameId, option.key, event.target.checked),
        }), h("span", {}, label));
    }
    if (option.number) {
      return h("label", { for: id }, h("span", {}, label),
        h("input", {
          id, type: "number", class: "input", min: option.number[0], max: option.number[1],
          value: value ?? "", disabled, dataset: { option: option.key },
          onchange: (event) => choose(gameId, option.key, Number(event.target.value)),
        }));
    }
    return h("label", { for: id }, h("span", {}, label),
      h("select", {
        id, class: "input", disabled, dataset: { option: option.key },
        onchange: (event) => {
          const picked = option.choices[event.target.selectedIndex];
          if (picked) choose(gameId, option.key, picked[0]);
        },
      }, option.choices.map(([v, text]) => h("option", { selected: v === value }, text))));
  }));
}

function chosenOptions(gameId) {
  const defaults = ((S.data && S.data.defaults) || {})[gameId] || {};
  const out = {};
  for (const option of optionList(gameId)) {
    const value = chosen(gameId, option, defaults);
    if (value !== undefined && value !== null && !(typeof value === "number" && Number.isNaN(value))) {
      out[option.key] = value;
    }
  }
  return out;
}

$("#game-select").addEventListener("change", (event) => act("select", { game: event.target.value }));

$("#start").addEventListener("click", () => {
  const gameId = S.data && S.data.view.selected;
  if (!gameId) return;
  act("start", { options: chosenOptions(gameId) });
  S.kept.add(gameId); // the next game of this kind starts from these, and says so
});

function renderSound(sound) {
  const card = $("#sound-card");
  card.hidden = !sound || !sound.enabled;
  if (card.hidden) return;
  const slider = $("#volume");
  // Not while a finger is on the slider: the poll would pull it back under the finger.
  if (document.activeElement !== slider) slider.value = String(sound.volume);
  $("#volume-value").textContent = `${slider.value} %`;
  const mute = $("#mute");
  mute.textContent = w(sound.muted ? "unmute" : "mute");
  mute.setAttribute("aria-pressed", sound.muted ? "true" : "false");
  const notes = [];
  if (sound.muted) notes.push(w("sound_muted"));
  else if (sound.quiet_now) notes.push(w("sound_quiet", { hours: sound.quiet_hours }));
  else if (sound.quiet_hours) notes.push(w("sound_hours", { hours: sound.quiet_hours }));
  notes.push(w("sound_kept"));
  $("#sound-note").textContent = notes.join(" ");
}

$("#volume").addEventListener("input", (event) => {
  $("#volume-value").textContent = `${event.target.value} %`;
});
$("#volume").addEventListener("change", (event) => {
  act("sound", { volume: Number(event.target.value) });
});
$("#mute").addEventListener("click", () => {
  const sound = S.data && S.data.sound;
  if (sound) act("sound", { muted: !sound.muted });
});

function renderLanguages(view) {
  fill($("#languages"), [["en", "English"], ["cs", "Čeština"]].map(([code, name]) => h("button", {
    type: "button", class: `btn btn-small ${view.lang === code ? "btn-primary" : "btn-quiet"}`,
    "aria-pressed": view.lang === code ? "true" : "false", dataset: { lang: code },
    onclick: () => act("language", { lang: code }),
  }, name)));
}

function renderPacks(packs) {
  // No file-system path here: the café owner uploads through this page (docs/packs.md).
  fill($("#packs"), (packs || []).map((pack) => h("li", { dataset: { pack: pack.file } },
    h("strong", {}, pack.title || pack.file),
    // The file's name beside its title; once if it has none (a pack with problems).
    pack.title && pack.title !== pack.file ? h("span", { class: "muted small" }, pack.file) : null,
    h("span", { class: "small" }, !pack.ok ? w("pack_bad")
      : w("pack_ok", { game: gameTitle(pack.game), mode: w(`mode_${pack.mode}`), n: pack.entries })),
    pack.problems.length ? h("ul", { class: "field-error small" }, pack.problems.map((p) => h("li", {}, p))) : null,
    pack.removable ? h("button", {
      type: "button", class: "btn btn-quiet btn-small", dataset: { do: "remove" },
      onclick: () => removePack(pack.file),
    }, w("remove")) : null)));
}

/** The game's name in the page's language ("ArtBox", "Štětcem po čáře"), not its id. */
function gameTitle(gameId) {
  const games = (S.data && S.data.view && S.data.view.games) || [];
  const game = games.find((g) => g.id === gameId);
  return game ? game.title : gameId;
}

async function removePack(file) {
  const result = await api(`packs/${encodeURIComponent(file)}`, undefined, "DELETE");
  if (result.ok) take(result.data);
  else notice(errorOf(result).message, true);
}

$("#pack-file").addEventListener("change", async (event) => {
  const file = event.target.files && event.target.files[0];
  const problems = $("#pack-problems");
  fill(problems);
  problems.hidden = true;
  if (!file) return;
  const text = await file.text();
  const result = await api("packs", { file: file.name, text });
  event.target.value = "";
  if (result.ok) {
    notice(w("uploaded", { file: file.name }));
    take(result.data);
    return;
  }
  const error = errorOf(result);
  notice("");
  fill(problems, (error.problems || [error.message]).map((p) => h("li", {}, p)));
  problems.hidden = false;
});

function renderResults(results) {
  const list = $("#results");
  if (!results || !results.length) {
    fill(list, h("li", { class: "muted" }, w("no_results")));
    return;
  }
  fill(list, results.slice().reverse().map((r) => {
    // Czech reads the 24-hour clock (18:42, never 06:42 PM); English the phone's own.
    const when = r.finished_at ? new Date(r.finished_at * 1000).toLocaleTimeString(S.lang === "cs" ? "cs-CZ" : [], { hour: "2-digit", minute: "2-digit" }) : "";
    // A game played together has the table's count, not winners; otherwise the winners
    // (one or more: the language's plural) of what was played, and if it was cut short.
    const won = r.together != null ? w("together", { n: r.together })
      : r.winners.length ? w("winner", { names: r.winners.join(", "), n: r.winners.length }) : "";
    const who = r.ended_early ? (won ? `${won} (${w("ended_early")})` : w("ended_early")) : won;
    // Together, every seat has the table's count (said once above): who played it.
    const scores = (r.scores || [])
      .map(([name, v]) => (r.together != null ? name : `${name} ${halves(v)}`)).join(" · ");
    return h("li", { dataset: { match: String(r.id) } },
      h("strong", {}, `${when} ${r.title}`), ` — ${who}`,
      scores ? h("div", { class: "muted small" }, scores) : null);
  }));
}

$("#restart").addEventListener("click", async () => {
  const sure = await askFirst({
    question: w("confirm_restart"), note: w("restart_note"), yes: w("restart_yes"),
    safe: w(playingNow() ? "keep_playing" : "cancel"),
  });
  if (!sure) return;
  const result = await api("restart", {});
  if (result.ok) {
    notice(result.data.message || w("restarting"));
    stopPolling();
    setTimeout(() => { refresh(); startPolling(); }, 5000);
  } else {
    notice(errorOf(result).message, true);
  }
});

S.lang = (navigator.language || "en").toLowerCase().startsWith("cs") ? "cs" : "en";
setLang(S.lang);
translatePage();
loadGames(false).finally(async () => {
  await refresh();
  if (S.data) startPolling();
});
