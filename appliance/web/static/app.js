// The phone client of Easel: room code, name and colour, the lobby, and the frame the
// per-game screens (games.js) plug into. Speaks docs/protocol.md over net.js.
//
// One rule above all: names and messages come from strangers, so they only ever reach
// the page as text (ui.js `h`/`fill`); there is no innerHTML in this client.

import { Connection } from "./net.js";
import { colourName, funName, FUN_NAMES, lang, setLang, t, translateDocument } from "./i18n.js";
import { $, avatar, fill, h, halves, inkOn, nameChip, randomId, safeColour } from "./ui.js";
import { gameOptions, gameScreen, loadGames, optionLabel, playedTogether } from "./games.js";
import { noteMove, setMoveFate, setTablePaused } from "./canvas.js";

const STORE = {
  token: "easel.token",
  room: "easel.room",
  name: "easel.name",
  colour: "easel.colour",
  // The token of the seat this phone held last: said in hello once the seat is gone, so
  // the box knows who comes back (a removed player stays out; a player gets their own
  // seat back, never another's).
  former: "easel.former",
};
const ROOM_CODE = /^[A-Za-z0-9]{4,8}$/;
const TOAST_MS = 7000;
// A move the box refused for a budget (its memory card is slow, this seat sends too fast,
// a write failed: nothing was applied) is sent again with the same id, the box applying
// an id once: after 0.6 s, doubling to 8 s, five times; every later move waits behind it,
// so the box still gets them in the order they were made. docs/protocol.md.
const RESEND_CODES = new Set(["still_saving", "slow_down", "not_saved"]);
const RESEND_FIRST_MS = 600;
const RESEND_MAX_MS = 8000;
const RESENDS = 5;

// --- small persistence helpers (private mode or a full disk must not break the page) ---

function load(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (err) {
    return null;
  }
}

function save(key, value) {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch (err) {
    // Nothing to do: the player just won't be remembered after a reload.
  }
}

function roomFromUrl() {
  const raw = new URLSearchParams(window.location.search).get("room");
  return raw && ROOM_CODE.test(raw.trim()) ? raw.trim().toUpperCase() : null;
}

// --- state ---------------------------------------------------------------------------

const urlRoom = roomFromUrl();
const state = {
  room: urlRoom || load(STORE.room),
  token: load(STORE.token),
  askRoom: false,        // waiting for the player to type a room code
  role: null,            // guest | player | spectator (latest of welcome / view.you)
  seat: null,
  view: null,
  kicked: null,          // the box's message after `kicked`
  status: "connecting",
  joining: false,        // a `join` is on its way
  wantSeat: false,       // a spectator tapped "join when a seat is free"
  takingSeat: false,     // a watcher's "Take the free seat" `join` is on its way
  pendingKick: null,     // seat number waiting for the host's confirmation
  screen: null,
  colour: load(STORE.colour),
  nameIndex: Math.floor(Math.random() * FUN_NAMES.length),
  suggested: null,       // the fun name we put in the box (replaced when the language changes)
  deadline: null,        // {remaining, length, what, at: performance.now() when received}
  handover: null,        // the free seat's wait: {remaining, paused, at: performance.now()}
  // Moves not yet acknowledged, resent after a reconnect (the box applies an id once), in
  // the order they were made: id -> {msg, tries, held}; `held`: not on its way (refused
  // for a budget and waiting for `resendTimer`, or made or refused while paused).
  // Kept in memory only: after a reload the view tells the player where the game stands.
  outbox: new Map(),
  resendTimer: null,
  options: {},           // game id -> {option key: value} the host chose for `start`
  keptOptions: new Set(), // game ids whose options above are the last game's
};
state.askRoom = !state.room && !state.token;

function setToken(token) {
  if (!token && state.token) save(STORE.former, state.token);
  state.token = token || null;
  save(STORE.token, state.token);
}

// --- connection ----------------------------------------------------------------------

const conn = new Connection({
  hello() {
    if (state.kicked !== null || state.askRoom) return null;
    return { type: "hello", room: state.room || "", token: state.token || load(STORE.former) || null };
  },
  onMessage: handleMessage,
  onStatus(status) {
    state.status = status;
    render();
  },
});

function send(msg) {
  conn.send(msg);
}

/** Send a move of the running game; resent after a reconnect until the box acknowledges. */
function act(kind, data = {}) {
  const msg = { type: "act", id: randomId(), kind: String(kind), data };
  noteMove(msg.id, data);
  // Behind a move refused for a budget it waits its turn. A stroke made while paused
  // (the one under the finger when the pause came) waits for the resume; any other move
  // goes, and the box's refusal says why.
  const held = (isPausedView() && isStroke(msg))
    || [...state.outbox.values()].some((e) => e.held && e.tries > 0);
  state.outbox.set(msg.id, { msg, tries: 0, held });
  if (held) setMoveFate(msg.id, "waiting");
  // While reconnecting it waits in the outbox, which is resent after the next `welcome`.
  else conn.send(msg, { queue: false });
  return msg.id;
}

function isStroke(msg) {
  return msg.kind === "stroke" && Boolean(msg.data) && Array.isArray(msg.data.points);
}

function isPausedView() {
  const match = state.view && state.view.match;
  return Boolean(match && match.paused && state.view.phase === "playing");
}

/** Send every held move again, in order (nothing while paused or before a resend's time). */
function sendHeld() {
  if (isPausedView() || state.resendTimer) return;
  for (const entry of state.outbox.values()) {
    if (!entry.held) continue;
    entry.held = false;
    setMoveFate(entry.msg.id, "sent");
    conn.send(entry.msg, { queue: false });
  }
}

function forgetMove(id, fate) {
  if (!state.outbox.delete(id)) return;
  setMoveFate(id, fate);
}

/** The box refused move `entry` with `code`: true if it waits to be sent again. */
function holdRefused(entry, code) {
  const pausedNow = code === "not_now" && isPausedView() && isStroke(entry.msg);
  if (!pausedNow && !(RESEND_CODES.has(code) && entry.tries < RESENDS)) return false;
  // Every later move still on its way may be refused too; whichever are, and every move
  // made from now on, wait behind this one and go again after it, in order.
  entry.held = true;
  setMoveFate(entry.msg.id, "waiting");
  if (pausedNow) return true; // sent again at resume (onView)
  const delay = Math.min(RESEND_FIRST_MS * 2 ** entry.tries, RESEND_MAX_MS);
  entry.tries += 1;
  if (state.resendTimer) clearTimeout(state.resendTimer);
  state.resendTimer = setTimeout(() => {
    state.resendTimer = null;
    sendHeld();
  }, delay);
  return true;
}

function handleMessage(msg) {
  switch (msg.type) {
    case "welcome":
      onWelcome(msg);
      break;
    case "view":
      onView(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "ack":
      forgetMove(msg.id, "done");
      break;
    case "kicked":
      onKicked(msg);
      break;
    case "pong":
    default:
      break;
  }
}

function onWelcome(msg) {
  if (msg.lang) changeLang(msg.lang);
  state.role = msg.role;
  state.seat = msg.seat ?? null;
  state.joining = false;
  if (msg.role === "guest") {
    // A token the box no longer knows (the seat was kicked or freed) is worth nothing.
    setToken(null);
    dropOutbox();
  } else if (msg.token) {
    setToken(msg.token);
  }
  // Seated, or told to watch (a seat taken meanwhile): either way the form is done.
  state.wantSeat = false;
  state.takingSeat = false;
  // Resend the moves the box may not have logged before the connection dropped (the
  // held ones go when their time comes, in order).
  if (msg.role === "player") {
    for (const entry of state.outbox.values()) {
      if (!entry.held) send(entry.msg);
    }
  }
  render();
}

function onView(view) {
  if (view.lang) changeLang(view.lang);
  state.view = view;
  if (view.you) {
    state.role = view.you.role;
    state.seat = view.you.seat ?? null;
  }
  if (view.room && ROOM_CODE.test(view.room)) {
    state.room = view.room;
    save(STORE.room, view.room);
  }
  const dl = view.match && view.match.deadline;
  state.deadline = dl && typeof dl.remaining === "number"
    ? { remaining: dl.remaining, length: dl.length, what: dl.what, at: performance.now(),
        paused: Boolean(dl.paused) }
    : null;
  // A seat handed over waits so long for a newcomer (then the game goes on without it).
  const wait = Array.isArray(view.handovers) ? view.handovers[0] : null;
  state.handover = wait && typeof wait.remaining === "number"
    ? { remaining: wait.remaining, paused: wait.at == null, at: performance.now() } : null;
  if (state.pendingKick !== null && !seatOf(state.pendingKick)) state.pendingKick = null;
  if (!view.match || view.phase !== "playing") dropOutbox("dropped");
  render();
  // Resumed: the moves refused or made during the pause go now, in order.
  sendHeld();
}

/** Forget every move not yet acknowledged (the game is gone, or the seat). */
function dropOutbox(fate = "dropped") {
  const ids = [...state.outbox.keys()];
  state.outbox.clear();
  if (state.resendTimer) clearTimeout(state.resendTimer);
  state.resendTimer = null;
  for (const id of ids) setMoveFate(id, fate);
}

function onError(msg) {
  const text = typeof msg.message === "string" && msg.message ? msg.message : t("error.generic");
  const entry = msg.ref ? state.outbox.get(msg.ref) : undefined;
  if (entry && holdRefused(entry, msg.code)) return; // kept, to be sent again: no alarm
  if (entry) {
    const stroke = isStroke(entry.msg);
    // A budget's last refusal: the canvas shows the stroke faded, "Not saved".
    forgetMove(msg.ref, RESEND_CODES.has(msg.code) || msg.code === "not_now" ? "refused" : "dropped");
    // Moves held behind it go now (the box would have refused them with it otherwise).
    sendHeldAfterRefusal();
    if (stroke && RESEND_CODES.has(msg.code)) {
      render();
      return;
    }
  }
  state.joining = false;
  // A watcher's seat taken with the name it watched under, refused (the name is taken
  // now): the form, to choose another.
  if (state.takingSeat) state.wantSeat = true;
  state.takingSeat = false;
  if (msg.code === "wrong_room") {
    // The box refused the code (and any token with it): ask for the code again.
    setToken(null);
    state.askRoom = true;
    state.role = null;
    state.view = null;
    conn.helloSent = false;
    render();
    showRoomError(text);
    return;
  }
  showToast(text);
  render();
}

function sendHeldAfterRefusal() {
  if (state.resendTimer || [...state.outbox.values()].some((e) => e.held && e.tries > 0)) return;
  sendHeld();
}

function onKicked(msg) {
  state.kicked = typeof msg.message === "string" && msg.message ? msg.message : t("kicked.default");
  setToken(null);
  dropOutbox();
  state.role = null;
  state.view = null;
  state.pendingKick = null;
  conn.stop();
  render();
}

function changeLang(code) {
  if (!setLang(code)) return;
  translateDocument();
  const input = $("#name-input");
  if (input && state.suggested !== null && input.value === state.suggested) {
    state.suggested = funName(state.nameIndex);
    input.value = state.suggested;
  }
  renderSwatchLabels();
}

// --- screens -------------------------------------------------------------------------

function chooseScreen() {
  if (state.kicked !== null) return "kicked";
  if (state.askRoom) return "room";
  if (state.role === null) return "connecting";
  if (state.role === "guest") return "join";
  if (!state.view) return "connecting";
  const inGame = state.view.phase === "playing" || state.view.phase === "over";
  // A watcher sees the game's public screen, read-only, as the kiosk shows it.
  if (state.role === "spectator") return state.wantSeat ? "join" : inGame && state.view.match ? "playing" : "spectator";
  // A game's finish ("over") stays on the game's own screen until the host moves on.
  return inGame ? "playing" : "lobby";
}

function render() {
  const screen = chooseScreen();
  const changed = screen !== state.screen;
  for (const el of document.querySelectorAll("[data-screen]")) {
    el.hidden = el.dataset.screen !== screen;
  }
  state.screen = screen;
  const room = state.view && state.view.room;
  const badge = $("#room-badge");
  badge.hidden = !room || screen === "room" || screen === "kicked";
  badge.textContent = room || "";
  if (room) badge.setAttribute("aria-label", t("room.badge", { room }));

  if (screen === "room") renderRoom(changed);
  else if (screen === "join") renderJoin(changed);
  else if (screen === "lobby") renderLobby();
  else if (screen === "spectator") renderSpectator();
  else if (screen === "playing") renderPlaying();
  else if (screen === "kicked") renderKicked();
  if (screen !== "playing") disposeGameScreen();

  if (changed) {
    hideRoomErrorUnless(screen === "room");
    const heading = $(`[data-screen="${screen}"] h1`);
    // Move a screen reader to the new screen without popping up a phone keyboard.
    if (heading && state.screenShown) heading.focus({ preventScroll: true });
    state.screenShown = true;
    window.scrollTo(0, 0);
  }
  renderConn();
}

function renderConn() {
  const box = $("#conn");
  box.hidden = !(state.status === "reconnecting" && state.kicked === null);
}

// 1. room code

function renderRoom(changed) {
  const input = $("#room-input");
  if (changed && !input.value && state.room) input.value = state.room;
}

function showRoomError(text) {
  const el = $("#room-error");
  el.textContent = text;
  el.hidden = false;
  const input = $("#room-input");
  input.setAttribute("aria-invalid", "true");
  if (!input.value && state.room) input.value = state.room;
}

function hideRoomErrorUnless(keep) {
  if (keep) return;
  $("#room-error").hidden = true;
  $("#room-input").removeAttribute("aria-invalid");
}

$("#room-input").addEventListener("input", (event) => {
  const input = event.target;
  const clean = input.value.replace(/[^A-Za-z0-9]/g, "").toUpperCase().slice(0, 8);
  if (clean !== input.value) input.value = clean;
  $("#room-error").hidden = true;
  input.removeAttribute("aria-invalid");
});

$("#room-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = $("#room-input").value.trim().toUpperCase();
  if (!ROOM_CODE.test(code)) {
    showRoomError(t("room.invalid"));
    $("#room-input").focus();
    return;
  }
  state.room = code;
  state.askRoom = false;
  save(STORE.room, code);
  const url = new URL(window.location.href);
  url.searchParams.set("room", code);
  window.history.replaceState(null, "", url.toString());
  render();
  conn.helloSent = false;
  conn.start();
  conn.sayHello();
});

// 2. name and colour

function takenColours() {
  const taken = new Map();
  for (const seat of (state.view && state.view.seats) || []) {
    if (seat.seat !== state.seat || state.role !== "player") {
      taken.set(safeColour(seat.colour), seat.name);
    }
  }
  return taken;
}

function takenNames() {
  return new Set(((state.view && state.view.seats) || [])
    .filter((s) => state.role !== "player" || s.seat !== state.seat)
    .map((s) => String(s.name).toLocaleLowerCase()));
}

/** The next fun name (from `step` on) that nobody at the table uses; names are unique. */
function suggestName(step) {
  const taken = takenNames();
  for (let i = 0; i < FUN_NAMES.length; i += 1) {
    const index = (state.nameIndex + step + i) % FUN_NAMES.length;
    if (!taken.has(funName(index).toLocaleLowerCase())) {
      state.nameIndex = index;
      break;
    }
  }
  state.suggested = funName(state.nameIndex);
  return state.suggested;
}

function renderJoin(changed) {
  const view = state.view;
  const nameInput = $("#name-input");
  if (changed && !nameInput.value) {
    const last = load(STORE.name);
    if (last) {
      nameInput.value = last;
      state.suggested = null;
    } else {
      nameInput.value = suggestName(0);
    }
  } else if (nameInput.value === state.suggested && takenNames().has(state.suggested.toLocaleLowerCase())) {
    nameInput.value = suggestName(1);  // someone just took our suggestion
  }
  $("#join-room").textContent = view && view.room ? t("join.room", { room: view.room }) : "";
  renderSwatches();

  const note = $("#join-note");
  const how = joinKind(view);
  note.hidden = how === "seat";
  note.textContent = {
    open_seat: t("join.open_seat"), busy: t("join.busy"), full: t("join.full"), seat: "",
  }[how];
  renderHandoverWait(how);
  // Only a new seat picks a colour: a freed seat keeps its own, a spectator needs none.
  $(".swatch-set").hidden = how !== "seat";
  const button = $("#join-button");
  button.textContent = how === "busy" || how === "full" ? t("join.watch")
    : how === "open_seat" ? t("join.take_seat") : t("join.go");
  button.disabled = state.joining || !conn.isOpen;
  renderJoinPreview();
}

/** What `join` will do now: a new seat, a seat freed mid-game, or watching. */
function joinKind(view) {
  if (!view) return "seat";
  if (view.phase === "playing") return (view.open_seats || []).length ? "open_seat" : "busy";
  const full = view.seats && view.max_players && view.seats.length >= view.max_players;
  return full ? "full" : "seat";
}

let swatchKey = "";

function renderSwatches() {
  const palette = ((state.view && state.view.palette) || []).map(safeColour);
  const box = $("#swatches");
  const key = palette.join(",");
  if (key !== swatchKey) {
    swatchKey = key;
    fill(box, palette.map((colour, i) => {
      const input = h("input", {
        type: "radio", name: "colour", value: colour, id: `swatch-${i}`, class: "swatch-input",
        onchange: () => {
          state.colour = colour;
          renderJoinPreview();
        },
      });
      return h("label", { class: "swatch", for: `swatch-${i}`, style: { "--c": colour, "--ink": inkOn(colour) } },
        input,
        h("span", { class: "swatch-dot", "aria-hidden": "true" }),
        h("span", { class: "visually-hidden swatch-name" }));
    }));
  }
  const taken = takenColours();
  // Keep the player's choice while it is free; otherwise their last colour, else the first free.
  const free = palette.filter((c) => !taken.has(c));
  if (!state.colour || !free.includes(state.colour)) {
    const last = safeColour(load(STORE.colour));
    state.colour = free.includes(last) ? last : (free[0] || null);
  }
  for (const input of box.querySelectorAll("input")) {
    const isTaken = taken.has(input.value);
    input.disabled = isTaken;
    input.checked = input.value === state.colour;
    input.closest(".swatch").classList.toggle("is-taken", isTaken);
  }
  renderSwatchLabels();
}

function renderSwatchLabels() {
  const taken = takenColours();
  const inputs = document.querySelectorAll("#swatches input");
  inputs.forEach((input, i) => {
    const label = input.closest(".swatch");
    const name = colourName(input.value, i);
    const by = taken.get(input.value);
    const text = by !== undefined ? `${name} (${t("join.taken", { name: by })})` : name;
    label.querySelector(".swatch-name").textContent = text;
    label.title = text;
  });
}

function renderJoinPreview() {
  const name = $("#name-input").value.trim() || "?";
  const colour = state.colour || "#8a8a8a";
  fill($("#join-preview"), avatar(name, colour, "avatar-lg"), nameChip(name, colour));
}

$("#name-input").addEventListener("input", () => {
  $("#name-error").hidden = true;
  $("#name-input").removeAttribute("aria-invalid");
  renderJoinPreview();
});

$("#name-shuffle").addEventListener("click", () => {
  $("#name-input").value = suggestName(1 + Math.floor(Math.random() * (FUN_NAMES.length - 1)));
  $("#name-error").hidden = true;
  renderJoinPreview();
});

$("#join-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#name-input");
  const name = input.value.trim();
  const length = Array.from(name).length;
  if (length < 1 || length > 20) {
    const err = $("#name-error");
    err.textContent = t("join.name_invalid");
    err.hidden = false;
    input.setAttribute("aria-invalid", "true");
    input.focus();
    return;
  }
  const seating = joinKind(state.view) === "seat";
  if (seating && !state.colour) {
    showToast(t("join.colour_invalid"));
    return;
  }
  save(STORE.name, name);
  if (state.colour) save(STORE.colour, state.colour);
  state.joining = true;
  $("#join-button").disabled = true;
  // A spectator (the ninth phone, a running game) and a freed seat need no colour.
  send({ type: "join", name, colour: state.colour || "" });
});

// seats (lobby, spectator, playing)

function seatOf(n) {
  return ((state.view && state.view.seats) || []).find((s) => s.seat === n) || null;
}

function renderSeats(list, { canKick = false } = {}) {
  const view = state.view;
  const seats = (view && view.seats) || [];
  if (!seats.length) {
    fill(list, h("li", { class: "seat seat-empty muted" }, t("seat.empty")));
    return;
  }
  fill(list, seats.map((seat) => {
    const mine = state.role === "player" && seat.seat === state.seat;
    const name = String(seat.name);
    const badges = [];
    if (seat.host) {
      badges.push(h("span", { class: "badge badge-host" },
        h("span", { "aria-hidden": "true" }, "★ "), t("seat.host")));
    }
    if (mine) badges.push(h("span", { class: "badge badge-you" }, t("seat.you")));
    const row = h("li", {
      class: `seat${mine ? " is-me" : ""}${seat.connected ? "" : " is-away"}`,
      dataset: { seat: String(seat.seat) },
    },
    h("span", { class: "avatar-wrap" },
      avatar(name, seat.colour),
      h("span", {
        class: `presence ${seat.connected ? "on" : "off"}`,
        title: seat.connected ? t("seat.online") : t("seat.offline"),
      }, h("span", { class: "visually-hidden" }, seat.connected ? t("seat.online") : t("seat.offline")))),
    h("span", { class: "seat-main" },
      h("span", { class: "seat-name" }, name),
      h("span", { class: "seat-meta" }, h("span", { class: "seat-number" }, t("seat.number", { n: seat.seat + 1 })), badges)));
    if (canKick && !mine) {
      if (state.pendingKick === seat.seat) {
        row.classList.add("is-confirming");
        row.appendChild(h("span", { class: "kick-confirm", role: "group", "aria-label": t("seat.kick_confirm", { name }) },
          h("span", { class: "kick-question" }, t("seat.kick_confirm", { name })),
          h("button", {
            type: "button", class: "btn btn-danger btn-small", "data-kick-yes": String(seat.seat),
            onclick: () => {
              state.pendingKick = null;
              send({ type: "kick", seat: seat.seat });
              render();
            },
          }, t("seat.kick_yes")),
          h("button", {
            type: "button", class: "btn btn-quiet btn-small",
            onclick: () => {
              state.pendingKick = null;
              render();
            },
          }, t("seat.kick_no"))));
      } else {
        row.appendChild(h("button", {
          type: "button", class: "btn btn-quiet btn-small kick",
          "aria-label": t("seat.kick_label", { name }),
          "data-kick": String(seat.seat),
          onclick: () => {
            state.pendingKick = seat.seat;
            render();
          },
        }, t("seat.kick")));
      }
    }
    return row;
  }));
}

function spectatorText(n) {
  if (!n) return "";
  return n === 1 ? t("lobby.spectators_one") : t("lobby.spectators", { n });
}

// 3. lobby

function renderLobby() {
  const view = state.view;
  const me = seatOf(state.seat);
  const host = Boolean(view.you && view.you.host);
  const colour = me ? me.colour : "#8a8a8a";
  const myName = me ? me.name : "";

  fill($("#me-avatar"), avatar(myName || "?", colour, "avatar-lg"));
  $("#me-seat").textContent = t("lobby.you_seat", { n: (state.seat ?? 0) + 1 });
  fill($("#me-name"), nameChip(myName, colour));

  renderResult();
  renderSeats($("#lobby-seats"), { canKick: host });
  $("#lobby-spectators").textContent = spectatorText(view.spectators);
  $("#lobby-count").textContent = view.max_players
    ? `${(view.seats || []).length}/${view.max_players}` : "";

  const games = Array.isArray(view.games) ? view.games : [];
  const selected = games.find((g) => g.id === view.selected) || null;
  const gameBox = $("#lobby-game");
  if (host) {
    fill(gameBox,
      h("p", { class: "muted small", id: "choose-label" }, t("lobby.choose")),
      h("div", { class: "games", role: "group", "aria-labelledby": "choose-label" },
        games.map((g) => h("button", {
          type: "button",
          class: `game${g.id === view.selected ? " is-selected" : ""}${g.available ? "" : " is-soon"}`,
          "aria-pressed": g.id === view.selected ? "true" : "false",
          disabled: !g.available,
          dataset: { game: g.id },
          onclick: () => send({ type: "select", game: g.id }),
        },
        h("span", { class: "game-title" }, String(g.title)),
        h("span", { class: "game-meta" },
          g.available
            ? t("lobby.players_range", { min: g.min_players, max: g.max_players })
            : t("lobby.coming_soon"))))),
      selected && selected.available ? optionControls(selected.id) : null);
  } else {
    fill(gameBox, h("p", { class: "selected-game" },
      selected ? t("lobby.selected", { title: selected.title }) : t("lobby.no_game")));
  }

  const start = $("#start-button");
  const hint = $("#start-hint");
  start.hidden = !host;
  $("#wait-host").hidden = host;
  if (host) {
    const n = (view.seats || []).length;
    let why = "";
    if (!games.some((g) => g.available)) why = t("lobby.none_ready");
    else if (!selected) why = t("lobby.pick_first");
    else if (!selected.available) why = t("lobby.unavailable", { title: selected.title });
    else if (n < selected.min_players) {
      why = t("lobby.need_players", { title: selected.title, min: selected.min_players, n });
    } else if (selected.max_players && n > selected.max_players) {
      why = t("lobby.too_many", { title: selected.title, max: selected.max_players, n });
    }
    start.textContent = selected ? t("lobby.start", { title: selected.title }) : t("lobby.start_plain");
    start.disabled = Boolean(why);
    hint.textContent = why;
    hint.hidden = !why;
  } else {
    hint.hidden = true;
  }
}

// "Ada 22 · Bo 17": the final scores, names from the match (a player may have left since).
function scoreLine(match, outcome) {
  const names = new Map((match.seats || []).map((s) => [s.seat, s.name]));
  const scores = (outcome.scores || [])
    .filter((pair) => Array.isArray(pair) && pair.length === 2)
    .sort((a, b) => b[1] - a[1])
    .map(([seat, points]) => `${names.get(seat) ?? "?"} ${halves(points)}`);
  return scores.length ? h("p", { class: "muted" }, scores.join(" · ")) : null;
}

function renderResult() {
  const view = state.view;
  const card = $("#result-card");
  const match = view.match;
  if (view.phase !== "finished" || !match) {
    card.hidden = true;
    return;
  }
  const outcome = match.outcome || {};
  const winners = (outcome.winners || []).map((n) => seatOf(n)).filter(Boolean);
  const early = endedEarly(outcome) ? h("p", { class: "muted small" }, t("finish.ended_early")) : null;
  if (playedTogether(match.game)) { // the table's words, no ranking
    fill(card, h("h2", {}, t("lobby.result", { title: match.title || "" })),
      h("p", { class: "winners" }, togetherText(outcome)), early);
    card.hidden = false;
    return;
  }
  fill(card,
    h("h2", {}, t("lobby.result", { title: match.title || "" })),
    winners.length ? h("p", { class: "winners" }, t("lobby.winners", { names: "", n: winners.length }),
      winners.map((s) => nameChip(s.name, s.colour))) : null,
    scoreLine(match, outcome), early);
  card.hidden = false;
}

function chosenOptions(gameId) {
  const chosen = {};
  for (const option of gameOptions(gameId, true)) {
    chosen[option.key] = (state.options[gameId] || {})[option.key] ?? option.value;
  }
  return chosen;
}

function chooseOption(gameId, key, value) {
  state.options[gameId] = { ...(state.options[gameId] || {}), [key]: value };
  state.keptOptions.delete(gameId);
  render();
}

/** The host's options for `gameId` differ from the game's defaults only because they were
 * chosen for the last game: said so, with a way back to the defaults. */
function keptNote(gameId, options, chosen) {
  const changed = options.some((o) => chosen[o.key] !== o.value);
  if (!state.keptOptions.has(gameId) || !changed) return null;
  return h("p", { class: "options-kept small", "data-kept": "true" },
    h("span", {}, t("options.kept")), " ",
    h("button", {
      type: "button", class: "btn btn-quiet btn-small", "data-act": "options-reset",
      onclick: () => { state.options[gameId] = {}; state.keptOptions.delete(gameId); render(); },
    }, t("options.reset")));
}

// The host's choices for the selected game (game length, paper canvases...).
function optionControls(gameId) {
  const options = gameOptions(gameId, true);
  if (!options.length) return null;
  const chosen = chosenOptions(gameId);
  return h("div", { class: "game-options" }, keptNote(gameId, options, chosen), options.map((option) => {
    if (option.toggle) {
      return h("label", { class: "option-toggle" },
        h("input", {
          type: "checkbox",
          checked: Boolean(chosen[option.key]),
          dataset: { option: option.key },
          onchange: (event) => chooseOption(gameId, option.key, event.target.checked),
        }),
        h("span", {}, optionLabel(option, lang())));
    }
    const label = optionLabel(option, lang());
    return h("div", { class: "option-choice", role: "group", "aria-label": label },
      h("span", { class: "muted small" }, label),
      (option.choices || []).map(([value, text]) => h("button", {
        type: "button",
        class: `chip-button${chosen[option.key] === value ? " is-selected" : ""}`,
        "aria-pressed": chosen[option.key] === value ? "true" : "false",
        dataset: { option: option.key, value: String(value) },
        onclick: () => chooseOption(gameId, option.key, value),
      }, text)));
  }));
}

$("#start-button").addEventListener("click", () => {
  const gameId = state.view && state.view.selected;
  send({ type: "start", options: gameId ? chosenOptions(gameId) : {} });
  // Kept for the next game of the same kind, and said to be kept (keptNote).
  if (gameId) state.keptOptions.add(gameId);
});

$("#leave-button").addEventListener("click", () => {
  send({ type: "leave" });
  setToken(null);
  state.role = "guest";
  state.seat = null;
  state.pendingKick = null;
  render();
});

// 4. spectator

function renderSpectator() {
  const view = state.view;
  const playing = view.phase === "playing";
  // "Full" only when every seat is taken; a running game is the other reason to watch.
  const free = !playing && !tableFull(view);
  $("#spectator-title").textContent = playing ? t("spectator.busy")
    : free ? t("spectator.free") : t("spectator.full");
  $("#spectator-game").textContent = playing && view.match
    ? t("playing.now", { title: view.match.title || "" }) : "";
  $("#spectator-join").hidden = !free;
  $("#spectator-join").textContent = t("spectator.join_now");
  $("#spectator-hint").hidden = free;
  renderSeats($("#spectator-seats"));
  $("#spectator-count").textContent = spectatorText(view.spectators);
}

$("#spectator-join").addEventListener("click", () => {
  state.wantSeat = true;
  render();
});

/** Every seat of the table is taken (the box's `max_players`, the seats in the view). */
function tableFull(view) {
  return Boolean(view.max_players) && (view.seats || []).length >= view.max_players;
}

/** Whether this phone watches the game on screen rather than playing it. */
function watching() {
  return state.role === "spectator";
}

// The watcher's card over the game: why it watches, and a freed seat the moment it frees.
function renderWatch(view) {
  const card = $("#watch-card");
  card.hidden = !watching();
  if (card.hidden) return;
  const match = view.match || {};
  const open = view.phase === "playing" ? (view.open_seats || []).filter(Number.isInteger) : [];
  const take = $("#watch-take");
  let why = view.phase === "over" ? t("watch.why_over") : t("watch.why_busy");
  if (open.length) {
    // The seat the join takes: the box seats a newcomer in the first one freed.
    const seat = open[0];
    const held = (match.seats || []).find((s) => s.seat === seat);
    const name = held ? String(held.name) : t("seat.number", { n: seat + 1 });
    const screen = gameScreen(match.game);
    let score = null;
    try {
      score = screen && typeof screen.seatScore === "function"
        ? screen.seatScore((match.state || {}), seat) : null;
    } catch (err) {
      console.error(err);
    }
    take.textContent = score === null || score === undefined
      ? t("watch.take_plain", { name }) : t("watch.take", { name, score });
    take.dataset.seat = String(seat);
    why = t("watch.why_free");
  } else if (view.phase === "over" && !tableFull(view)) {
    take.textContent = t("watch.join");
    delete take.dataset.seat;
  }
  take.hidden = !open.length && !(view.phase === "over" && !tableFull(view));
  take.disabled = state.joining || !conn.isOpen;
  const el = $("#watch-why");
  if (el.textContent !== why) el.textContent = why;
  renderWatchWait(open.length > 0);
}

/** How long the freed seat still waits for a newcomer, ticking on the watcher's card. */
function renderWatchWait(open = watching() && (state.view.open_seats || []).length > 0) {
  const el = $("#watch-wait");
  const text = open ? handoverText() : "";
  el.hidden = !text;
  if (el.textContent !== text) el.textContent = text;
}

$("#watch-take").addEventListener("click", () => {
  const view = state.view;
  const name = (load(STORE.name) || "").trim();
  if (!view || view.phase !== "playing" || !(view.open_seats || []).length || !name) {
    // A seat of the next game, or no name yet: the form (name and colour).
    state.wantSeat = true;
    render();
    return;
  }
  // The same `join` as the form's: the box seats this phone in the freed seat, with its
  // colour and score (docs/protocol.md); a freed seat needs no colour.
  state.joining = true;
  state.takingSeat = true;
  $("#watch-take").disabled = true;
  send({ type: "join", name, colour: "" });
});

// 5. playing

let activeGame = null; // {id, screen} of the game screen rendered into #game-root

function gameContext() {
  const watcher = watching();
  return {
    // A watcher sends no move: its screen has no control that would, and this is the
    // floor under that.
    act: watcher ? () => null : act,
    watching: watcher,
    t,
    lang,
    h,
    me: watcher ? null : state.seat,
    seats: (state.view && state.view.seats) || [],
    get deadline() {
      return currentDeadline();
    },
  };
}

function disposeGameScreen() {
  if (!activeGame) return;
  try {
    if (activeGame.screen && typeof activeGame.screen.dispose === "function") activeGame.screen.dispose();
  } catch (err) {
    console.error(err);
  }
  activeGame = null;
  $("#game-root").replaceChildren();
}

function renderPlaying() {
  const view = state.view;
  const match = view.match || {};
  const over = view.phase === "over";
  $("#playing-title").textContent = String(match.title || match.game || "");
  $("#playing-label").textContent = over
    ? t("finish.title", { title: String(match.title || match.game || "") })
    : watching() ? t("watch.title") : t("playing.title");
  $("#playing-label").classList.toggle("is-watching", watching());
  renderWatch(view);
  const paused = !over && Boolean(match.paused);
  $("#pause-banner").hidden = !paused;
  renderAway(view, over || paused);
  setTablePaused(paused); // no canvas takes a stroke the box would refuse
  renderFinish(view, over);
  const screen = gameScreen(match.game);
  if (!activeGame || activeGame.id !== match.game || activeGame.matchId !== match.id) {
    disposeGameScreen();
    activeGame = { id: match.game, matchId: match.id, screen };
  }
  let shown = false;
  if (screen) {
    try {
      screen.render($("#game-root"), view, gameContext());
      shown = true;
    } catch (err) {
      console.error(err);
    }
  }
  $("#game-root").hidden = !shown;
  $("#game-generic").hidden = shown;
  renderSeats($("#playing-seats"));
  renderHourglass();
}

// Who is away (their phone gone): the kiosk counts down, the phones say it in words.
function renderAway(view, hide) {
  const note = $("#away-note");
  const away = Array.isArray(view.away) ? view.away : [];
  const names = (entries) => entries.map((a) => {
    const seat = seatOf(a.seat);
    return seat ? String(seat.name) : t("seat.number", { n: Number(a.seat) + 1 });
  }).join(", ");
  const counting = away.filter((a) => !a.gone_on);
  const goneOn = away.filter((a) => a.gone_on);
  const lines = [];
  if (counting.length) lines.push(t("away.count", { names: names(counting) }));
  if (goneOn.length) lines.push(t("away.gone_on", { names: names(goneOn) }));
  note.hidden = hide || !lines.length;
  note.textContent = lines.join(" ");
}

// A finished game's result in its own terms, the art show to take home, and (for the
// host) the way on; the game's own last screen follows below it.
function renderFinish(view, over) {
  const card = $("#finish-card");
  card.hidden = !over;
  if (!over) return;
  const match = view.match || {};
  const outcome = match.outcome || {};
  const result = $("#finish-result");
  const early = endedEarly(outcome) ? t("finish.ended_early") : "";
  if (playedTogether(match.game)) {
    // Played together: the table's words, not a list of winners.
    fill(result, togetherText(outcome));
    fill($("#finish-scores"), early);
  } else {
    const winners = (outcome.winners || []).map((n) => matchSeatOf(match, n)).filter(Boolean);
    fill(result, winners.length ? t(winners.length === 1 ? "finish.winner" : "finish.winners") : t("finish.no_winner"),
      winners.map((s) => nameChip(s.name, s.colour)));
    const line = scoreLine(match, outcome);
    // The note on a line of its own, not read as one more score.
    fill($("#finish-scores"), line ? line.textContent : "", line && early ? h("br") : null, early);
  }
  const link = $("#finish-gallery");
  const url = typeof match.gallery_url === "string" && /^(https?:\/\/|\/)/.test(match.gallery_url)
    ? match.gallery_url : null;
  link.parentElement.hidden = !url;
  if (url) link.href = url;
  const host = Boolean(view.you && view.you.host);
  $("#finish-host").hidden = !host;
  $("#finish-wait").hidden = host;
}

// The host ended the game before its end: what was played counts, and it says so.
function endedEarly(outcome) {
  return outcome.summary === "ended_early";
}

function togetherText(outcome) {
  const scores = (outcome.scores || []).map((pair) => (Array.isArray(pair) ? Number(pair[1]) : 0));
  const n = Math.max(0, ...scores.filter((x) => Number.isFinite(x)));
  return n === 1 ? t("finish.together_one") : t("finish.together", { n });
}

function matchSeatOf(match, seat) {
  return (match.seats || []).find((s) => s.seat === seat) || seatOf(seat);
}

$("#finish-again").addEventListener("click", () => send({ type: "finish", again: true }));
$("#finish-lobby").addEventListener("click", () => send({ type: "finish", again: false }));

function currentDeadline() {
  const d = state.deadline;
  if (!d) return null;
  // Paused by the host: the hourglass stands still until the box says otherwise.
  const elapsed = d.paused ? 0 : (performance.now() - d.at) / 1000;
  const remaining = Math.max(0, d.remaining - elapsed);
  return { remaining, length: d.length, what: d.what, paused: d.paused };
}

function renderHourglass() {
  const box = $("#hourglass");
  const d = currentDeadline();
  box.hidden = !d;
  if (!d) return;
  const secs = Math.ceil(d.remaining);
  const clock = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  // Paused: two bars drawn in CSS (a "⏸" glyph is an empty box on many phones).
  box.classList.toggle("is-paused", Boolean(d.paused));
  const el = $("#hourglass-clock");
  if (el.textContent !== clock) el.textContent = clock;
  const fraction = d.length > 0 ? Math.min(1, d.remaining / d.length) : 0;
  $("#hourglass-fill").style.setProperty("width", `${(fraction * 100).toFixed(1)}%`);
  box.classList.toggle("is-low", d.remaining <= 10);
}

/** How long the free seat still waits for a newcomer, ticking on the join screen. */
function renderHandoverWait(how = joinKind(state.view)) {
  const el = $("#join-wait");
  const text = how === "open_seat" ? handoverText() : "";
  el.hidden = !text;
  if (el.textContent !== text) el.textContent = text;
}

function handoverText() {
  const wait = state.handover;
  if (!wait) return "";
  const elapsed = wait.paused ? 0 : (performance.now() - wait.at) / 1000;
  const secs = Math.ceil(Math.max(0, wait.remaining - elapsed));
  return t("join.seat_wait", { time: `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}` });
}

setInterval(() => {
  if (state.screen === "playing" && state.deadline) renderHourglass();
  if (state.screen === "join" && state.handover) renderHandoverWait();
  if (state.screen === "playing" && state.handover && watching()) renderWatchWait();
}, 250);

// 6. kicked

function renderKicked() {
  $("#kicked-message").textContent = state.kicked;
}

$("#kicked-again").addEventListener("click", () => {
  state.kicked = null;
  state.role = null;
  state.view = null;
  state.askRoom = !state.room;
  render();
  conn.start();
});

// 7. errors

let toastTimer = null;

function showToast(text) {
  const toast = $("#toast");
  $("#toast-text").textContent = text;
  toast.hidden = false;
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = setTimeout(hideToast, TOAST_MS);
}

function hideToast() {
  $("#toast").hidden = true;
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = null;
}

$("#toast-close").addEventListener("click", hideToast);

// A mouse's click is a press and a release. When another player's move rebuilds a game's
// screen between the two, the release meets a new button and the browser fires no click
// at all (a laptop's "Yes, give up" went unanswered while the others agreed). So a
// release over a button doing what the pressed one did, which is gone, and saying the
// same words, is that click: what a finger's tap does anyway, hit-tested once at its end.
function keepClicksAcrossRebuilds() {
  const control = (event) =>
    event.target instanceof Element ? event.target.closest("button[data-act]") : null;
  let pressed = null;
  document.addEventListener("pointerdown", (event) => {
    pressed = event.pointerType === "mouse" && event.button === 0 ? control(event) : null;
  }, true);
  document.addEventListener("pointerup", (event) => {
    const was = pressed;
    pressed = null;
    if (!was || was.isConnected || event.pointerType !== "mouse") return;
    const now = control(event);
    if (now && now.dataset.act === was.dataset.act && now.textContent === was.textContent
        && !now.disabled) now.click();
  }, true);
}

// --- go ------------------------------------------------------------------------------

if (urlRoom) save(STORE.room, urlRoom);
keepClicksAcrossRebuilds();
translateDocument();
render();
// The games' own scripts first (the box lists them): a view of a game arrives with its screen.
loadGames().finally(() => conn.start());
