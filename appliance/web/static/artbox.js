// ArtBox on the phones: one screen per phase (docs/artbox.md, "A round, and who does what").
//
// choose: two word cards, keep one. roll: the starter rolls the shape dice. create: the
// picture, made either with the SHAPE TOOL (pick a rolled shape, place it, size and turn
// it by its handles; it goes to the box as a clean outline the geometry recognises) or
// FREEHAND on canvas.js; the box's shape check (my_check) is shown after every stroke;
// Done takes the next order token. match: every picture by its number and the shuffled
// words; tap a picture, then its word. reveal: the starter reveals picture by picture,
// verdicts may be contested and voted on; then the two points and the scores.
//
// As in duplik.js the page is rebuilt only when the layout changes (phase, round, role);
// otherwise each part is patched when its own content changes: a view arrives after
// every player's move, and rebuilding would swallow a tap or wipe a stroke in progress.
// Words and names reach the page only as text (ui.js `h`); icons are SVG elements built
// with createElementNS. No innerHTML.

import { addStrings } from "./i18n.js";
import { registerGameScreen } from "./games.js";
import { createCanvas, sheetElement, sheetRect, SHEET } from "./canvas.js";
import { gameKit, patch, roundFold, waiting } from "./kit.js";
import { fill, fitWords, h } from "./ui.js";

// The phone's sentences for this game, English and Czech, added to the page's catalogue
// (i18n.js) under its own prefix: they live here, beside the screen that says them.
addStrings({
  en: {
    "artbox.round": "Round {n}",
    "artbox.target": "first to {n} points",
    "artbox.target_adv_long": "Advanced end: 2 red + 2 grey tokens, or 6 of one colour, win (7–8 players: 1 + 1, or 4).",
    "artbox.your_score": "Your points: {n}",
    "artbox.you_start": "You are the starting player this round.",
    "artbox.starter": "Starting player:",
    "artbox.your_word": "Your word:",
    "artbox.quoted": "“{word}”",
    "artbox.shape.circle": "circle",
    "artbox.shape.square": "square",
    "artbox.shape.triangle": "triangle",
    "artbox.shape.line": "line",
    "artbox.dice": "The rolled shapes",
    "artbox.choose_title": "Keep one word",
    "artbox.choose_hint": "Secretly pick the word you will draw. The other card goes on the discard pile.",
    "artbox.keep_label": "Keep “{word}”",
    "artbox.kept_title": "You will draw",
    "artbox.choose_watch": "The players choose their words",
    "artbox.wait_choose": "Waiting for the others ({n} of {total} chose)",
    "artbox.chose": "chose",
    "artbox.chose_count": "{n} of {total} have chosen",
    "artbox.wait_vote": "Vote in progress",
    "artbox.choosing": "choosing…",
    "artbox.roll": "Roll the shape dice",
    "artbox.roll_title": "Everyone has chosen",
    "artbox.roll_hint": "Roll the four shape dice: every picture must use exactly the shapes they show.",
    "artbox.wait_roll": "Waiting for {name} to roll the shape dice",
    "artbox.roll_others": "Then draw your word with exactly those four shapes.",
    "artbox.create_hint": "Draw “{word}” with exactly these shapes:",
    "artbox.mode": "How to draw",
    "artbox.mode_shapes": "Shapes",
    "artbox.mode_free": "Freehand",
    "artbox.rotate": "Turn your phone sideways for a bigger sheet.",
    "artbox.tool_label": "Shape tool: drag the shape, its corner to size it, the round handle to turn it",
    "artbox.pick_shape": "Pick a rolled shape",
    "artbox.tool_pick": "Tap a die to place its shape.",
    "artbox.tool_hint": "Drag to move (or tap where it goes) · corner: size · round handle: turn · two fingers: both.",
    "artbox.tool_hint_line": "Drag the line, or its ends to stretch and turn it.",
    "artbox.tool_full": "All four shapes are placed. Undo one to change it.",
    "artbox.place": "Place",
    "artbox.discard": "Remove",
    "artbox.clear": "Clear",
    "artbox.check_empty": "Use exactly these shapes:",
    "artbox.check_sees": "The box sees:",
    "artbox.check_nothing": "no shape yet",
    "artbox.check_missing": "Missing:",
    "artbox.check_extra": "Extra:",
    "artbox.done": "Done — take a token",
    "artbox.done_hint": "Place all 4 shapes first ({n} of 4).",
    "artbox.finish_confirm": "Take order token {n}? Your picture is then locked.",
    "artbox.finish_warn": "The box doubts your picture: {reason} The table may still overrule it.",
    "artbox.finish_yes": "Yes, I'm done",
    "artbox.finish_no": "Keep drawing",
    "artbox.you_are": "You are number {n}",
    "artbox.locked": "Your picture is locked. Waiting for the others.",
    "artbox.your_picture": "Your picture",
    "artbox.finished_count": "{n} of {total} finished",
    "artbox.finished": "finished",
    "artbox.drawing": "drawing…",
    "artbox.watch_create": "The players are drawing",
    "artbox.picture_n": "Picture {n}",
    "artbox.yours": "yours",
    "artbox.match_title": "Which word is which picture?",
    "artbox.match_hint": "Tap a picture, then its word.",
    "artbox.match_pick_word": "Now tap the word for picture {n}.",
    "artbox.match_pick_picture": "Now tap the picture for this word.",
    "artbox.match_locked": "Your guesses are in.",
    "artbox.match_watch": "The players are guessing.",
    "artbox.guessed": "{n} of {total} pictures guessed",
    "artbox.no_guess": "no guess yet",
    "artbox.unguess": "Take back the guess for picture {n}",
    "artbox.words": "Words",
    "artbox.matched": "Done guessing",
    "artbox.match_need": "Guess every other picture first ({n} left).",
    "artbox.match_wait": "Waiting for the others ({n} of {total} done)",
    "artbox.hourglass_rule": "The first player done turns the hourglass.",
    "artbox.hourglass_running": "The hourglass is running!",
    "artbox.reveal_title": "Whose picture is it?",
    "artbox.reveal_done": "All pictures revealed",
    "artbox.revealed": "{n} of {total} revealed",
    "artbox.reveal_next": "Reveal picture {n}",
    "artbox.wait_reveal": "{name} reveals picture {n}",
    "artbox.wait_award": "{name} awards the points",
    "artbox.award": "Award the points",
    "artbox.contest_hint": "Think a shape verdict is wrong? Contest it before the points are awarded.",
    "artbox.contest": "Contest the shape verdict",
    "artbox.recognised_one": "recognised by {n} player",
    "artbox.recognised_other": "recognised by {n} players",
    "artbox.your_guess": "your guess: {word}",
    "artbox.legal": "Shapes OK",
    "artbox.illegal": "Breaks the shape rules",
    "artbox.overruled": "overruled",
    "artbox.vote_title": "Vote!",
    "artbox.vote_question": "Does {name}'s picture break the shape rules?",
    "artbox.vote_yes": "YES",
    "artbox.vote_no": "NO",
    "artbox.vote_artist": "The others vote on your picture.",
    "artbox.vote_progress": "{n} of {total} voted",
    "artbox.correct_title": "Correct guesses",
    "artbox.correct_one": "{n} correct",
    "artbox.correct_other": "{n} correct",
    "artbox.points_title": "Points of round {n}",
    "artbox.game_over": "Game over",
    "artbox.art_show": "Art show of the whole game",
    "artbox.winners": "Winner:",
    "artbox.red_point": "Most recognised picture",
    "artbox.grey_point": "Most correct guesses",
    "artbox.nobody": "nobody",
    "artbox.scores": "Scores",
    "artbox.player": "Player",
    "artbox.red": "red tokens",
    "artbox.grey": "grey tokens",
    "artbox.this_round": "Round",
    "artbox.total": "Total",
    "artbox.next_round": "Next round",
    "artbox.wait_next": "{name} starts the next round",
    "artbox.follow": "Follow the big screen.",
  },
  cs: {
    "artbox.round": "{n}. kolo",
    "artbox.target": "vyhrává první s {n} body",
    "artbox.target_adv_long": "Pokročilý konec: vyhrávají 2 červené + 2 šedé žetony, nebo 6 jedné barvy (7–8 hráčů: 1 + 1, nebo 4).",
    "artbox.your_score": "Tvoje body: {n}",
    "artbox.you_start": "V tomto kole jsi začínající hráč.",
    "artbox.starter": "Začínající hráč:",
    "artbox.your_word": "Tvoje slovo:",
    "artbox.quoted": "„{word}“",
    "artbox.shape.circle": "kruh",
    "artbox.shape.square": "čtverec",
    "artbox.shape.triangle": "trojúhelník",
    "artbox.shape.line": "čára",
    "artbox.dice": "Hozené tvary",
    "artbox.choose_title": "Nech si jedno slovo",
    "artbox.choose_hint": "Tajně si vyber slovo, které nakreslíš. Druhá karta jde na odkládací balíček.",
    "artbox.keep_label": "Nechat si „{word}“",
    "artbox.kept_title": "Budeš kreslit",
    "artbox.choose_watch": "Hráči si vybírají slova",
    "artbox.wait_choose": "Čekáme na ostatní (vybralo {n} z {total})",
    "artbox.chose": "vybráno",
    "artbox.chose_count": "Vybralo {n} z {total}",
    "artbox.wait_vote": "Probíhá hlasování",
    "artbox.choosing": "vybírá…",
    "artbox.roll": "Hodit kostkami tvarů",
    "artbox.roll_title": "Všichni si vybrali",
    "artbox.roll_hint": "Hoď čtyřmi kostkami tvarů: každý obrázek musí použít právě tvary, které padnou.",
    "artbox.wait_roll": "Čekáme, až {name} hodí kostkami tvarů",
    "artbox.roll_others": "Pak nakresli své slovo právě těmi čtyřmi tvary.",
    "artbox.create_hint": "Nakresli „{word}“ právě těmito tvary:",
    "artbox.mode": "Jak kreslit",
    "artbox.mode_shapes": "Tvary",
    "artbox.mode_free": "Od ruky",
    "artbox.rotate": "Otoč telefon na šířku, papír bude větší.",
    "artbox.tool_label": "Nástroj tvarů: táhni tvar, rohem měň velikost, kulatým úchytem otáčej",
    "artbox.pick_shape": "Vyber hozený tvar",
    "artbox.tool_pick": "Klepni na kostku a polož její tvar.",
    "artbox.tool_hint": "Táhni pro posun (nebo klepni, kam patří) · roh: velikost · kulatý úchyt: otočení · dva prsty: obojí.",
    "artbox.tool_hint_line": "Táhni čáru, nebo její konce pro natažení a otočení.",
    "artbox.tool_full": "Všechny čtyři tvary jsou položené. Pro změnu jeden vrať zpět.",
    "artbox.place": "Položit",
    "artbox.discard": "Odebrat",
    "artbox.clear": "Smazat vše",
    "artbox.check_empty": "Použij právě tyto tvary:",
    "artbox.check_sees": "Krabice vidí:",
    "artbox.check_nothing": "zatím žádný tvar",
    "artbox.check_missing": "Chybí:",
    "artbox.check_extra": "Navíc:",
    "artbox.done": "Hotovo — vzít žeton",
    "artbox.done_hint": "Nejdřív polož všechny 4 tvary ({n} ze 4).",
    "artbox.finish_confirm": "Vzít žeton pořadí {n}? Obrázek pak už nezměníš.",
    "artbox.finish_warn": "Krabice o obrázku pochybuje: {reason} Stůl ji ještě může přehlasovat.",
    "artbox.finish_yes": "Ano, mám hotovo",
    "artbox.finish_no": "Kreslit dál",
    "artbox.you_are": "Jsi číslo {n}",
    "artbox.locked": "Tvůj obrázek je uzamčen. Čekáme na ostatní.",
    "artbox.your_picture": "Tvůj obrázek",
    "artbox.finished_count": "Hotovo {n} z {total}",
    "artbox.finished": "hotovo",
    "artbox.drawing": "kreslí…",
    "artbox.watch_create": "Hráči kreslí",
    "artbox.picture_n": "Obrázek {n}",
    "artbox.yours": "tvůj",
    "artbox.match_title": "Které slovo patří ke kterému obrázku?",
    "artbox.match_hint": "Klepni na obrázek a pak na jeho slovo.",
    "artbox.match_pick_word": "Teď klepni na slovo k obrázku {n}.",
    "artbox.match_pick_picture": "Teď klepni na obrázek k tomuto slovu.",
    "artbox.match_locked": "Tvoje tipy jsou odevzdané.",
    "artbox.match_watch": "Hráči hádají.",
    "artbox.guessed": "Tipnuto {n} z {total} obrázků",
    "artbox.no_guess": "zatím bez tipu",
    "artbox.unguess": "Vzít zpět tip k obrázku {n}",
    "artbox.words": "Slova",
    "artbox.matched": "Mám dohádáno",
    "artbox.match_need": "Nejdřív tipni všechny ostatní obrázky (zbývá {n}).",
    "artbox.match_wait": "Čekáme na ostatní (hotovo {n} z {total})",
    "artbox.hourglass_rule": "Kdo má hotovo první, otočí přesýpací hodiny.",
    "artbox.hourglass_running": "Přesýpací hodiny běží!",
    "artbox.reveal_title": "Čí je který obrázek?",
    "artbox.reveal_done": "Všechny obrázky odhaleny",
    "artbox.revealed": "Odhaleno {n} z {total}",
    "artbox.reveal_next": "Odhalit obrázek {n}",
    "artbox.wait_reveal": "{name} odhaluje obrázek {n}",
    "artbox.wait_award": "{name} rozdá body",
    "artbox.award": "Rozdat body",
    "artbox.contest_hint": "Myslíš, že krabice tvary posoudila špatně? Napadni to před rozdáním bodů.",
    "artbox.contest": "Napadnout posouzení tvarů",
    "artbox.recognised_one": "poznal {n} hráč",
    "artbox.recognised_few": "poznali {n} hráči",
    "artbox.recognised_other": "poznalo {n} hráčů",
    "artbox.your_guess": "tvůj tip: {word}",
    "artbox.legal": "Tvary v pořádku",
    "artbox.illegal": "Porušuje pravidla tvarů",
    "artbox.overruled": "přehlasováno",
    "artbox.vote_title": "Hlasování!",
    "artbox.vote_question": "Porušuje obrázek hráče {name} pravidla tvarů?",
    "artbox.vote_yes": "ANO",
    "artbox.vote_no": "NE",
    "artbox.vote_artist": "O tvém obrázku hlasují ostatní.",
    "artbox.vote_progress": "Hlasovalo {n} z {total}",
    "artbox.correct_title": "Správné tipy",
    "artbox.correct_one": "{n} správně",
    "artbox.correct_few": "{n} správně",
    "artbox.correct_other": "{n} správně",
    "artbox.points_title": "Body {n}. kola",
    "artbox.game_over": "Konec hry",
    "artbox.art_show": "Výstava celé hry",
    "artbox.winners": "Vítěz:",
    "artbox.red_point": "Nejčastěji poznaný obrázek",
    "artbox.grey_point": "Nejvíc správných tipů",
    "artbox.nobody": "nikdo",
    "artbox.scores": "Body",
    "artbox.player": "Hráč",
    "artbox.red": "červené žetony",
    "artbox.grey": "šedé žetony",
    "artbox.this_round": "Kolo",
    "artbox.total": "Celkem",
    "artbox.next_round": "Další kolo",
    "artbox.wait_next": "{name} zahájí další kolo",
    "artbox.follow": "Sleduj velkou obrazovku.",
  },
});

const SHAPES = ["circle", "square", "triangle", "line"];
const SVG_NS = "http://www.w3.org/2000/svg";
// The shape tool, in sheet units (1600 x 1000).
const MIN_SIDE = 60;       // the box reads anything under 40 units as a dot
const MIN_LINE = 80;
const INSET = 12;          // outlines stay this far inside the sheet (half a thick line)
const CIRCLE_POINTS = 48;  // docs: "circle/ellipse ~48 points"
const STEP_MS = 16;        // the time between outline points: t must increase
// Where the k-th shape appears: the four quarters of the sheet, so four shapes placed
// without moving them do not overlap (overlapping outlines may be read as one figure).
const SLOTS = [[420, 270], [1180, 270], [420, 730], [1180, 730]];
// How far a default spot strays from its quarter, and how much its size varies: enough that
// two players who only tap Place make different pictures, never so much that two default
// shapes touch (a quarter's shapes stay 360 units apart) or leave the sheet.
const SPOT_DX = 120;
const SPOT_DY = 45;
const SPOT_SCALE = [0.85, 1.15];

/** A small seeded generator (mulberry32): the same seat and round, the same spots. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The shape tool's default spots for this seat in this round: the four quarters in an
 *  order of their own, each nudged and sized a little differently. */
export function defaultSpots(seat, round) {
  const next = seeded(((Number(seat) || 0) + 1) * 2654435761 + (Number(round) || 0) * 40503);
  const quarters = SLOTS.slice();
  for (let i = quarters.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [quarters[i], quarters[j]] = [quarters[j], quarters[i]];
  }
  return quarters.map(([x, y]) => ({
    cx: Math.round(x + (next() * 2 - 1) * SPOT_DX),
    cy: Math.round(y + (next() * 2 - 1) * SPOT_DY),
    scale: SPOT_SCALE[0] + next() * (SPOT_SCALE[1] - SPOT_SCALE[0]),
    tilt: (next() * 2 - 1) * (Math.PI / 12),
  }));
}
const DEFAULT_SIZE = { circle: [300, 300], square: [300, 300], triangle: [320, 280], line: [380, 0] };
// On-screen sizes of the handles (CSS pixels): big enough for a thumb.
const HANDLE_PX = 13;
const HIT_PX = 26;
const ROTATE_PX = 40;
const SNAP_DEG = 6;

// --- module state (one ArtBox screen at a time) -------------------------------------------

const S = {
  root: null,
  head: null,
  body: null,
  layout: null,
  parts: null,
  ctx: null,
  view: null,
  pad: null,           // the drawing pad while this phone creates
  editor: null,        // the shape tool's overlay on that pad
  mode: "shapes",      // "shapes" (the shape tool) or "free" (freehand)
  toolMade: new Map(), // stroke signature -> shape, for strokes this phone made with the tool
  pick: null,          // matching: {picture: n} or {word: i} chosen first
  timer: null,
};

const { tr, lang, trn, nameOf, colourOf, chipOf, local, button, enable, tickTimers, screen, voteCloser } = gameKit(S, "artbox", "ab-timer");

// --- reading the view -----------------------------------------------------------------------

/** The seats playing this match, in seat order. */
function players(view) {
  const match = view.match || {};
  const list = Array.isArray(match.seats) && match.seats.length ? match.seats : view.seats || [];
  return list.filter((s) => s && Number.isInteger(s.seat)).map((s) => s.seat).sort((a, b) => a - b);
}

/** The reason of a check or verdict in the phone's language. */
function reasonOf(obj) {
  if (!obj) return "";
  return String((lang() === "cs" ? obj.reason_cs : obj.reason_en) || obj.reason_en || obj.reason || "");
}

function seatList(value) {
  return Array.isArray(value) ? value.filter((s) => Number.isInteger(s)) : [];
}

function seatMap(value) {
  const out = new Map();
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const seat = Number(k);
      if (Number.isInteger(seat)) out.set(seat, v);
    }
  }
  return out;
}

function shapesOf(list) {
  return Array.isArray(list) ? list.filter((s) => SHAPES.includes(s)) : [];
}

function counts(list) {
  const out = new Map();
  for (const s of list) out.set(s, (out.get(s) || 0) + 1);
  return out;
}

function picturesOf(st) {
  return (Array.isArray(st.pictures) ? st.pictures : [])
    .filter((p) => p && Number.isInteger(p.number))
    .sort((a, b) => a.number - b.number);
}

function wordsOf(st) {
  return (Array.isArray(st.words) ? st.words : []).filter((w) => w && Number.isInteger(w.index));
}

function guessesOf(st) {
  const out = new Map();
  for (const [k, v] of Object.entries(st.my_guesses || {})) {
    const n = Number(k);
    if (Number.isInteger(n) && Number.isInteger(v)) out.set(n, v);
  }
  return out;
}

function revealedOf(st) {
  const out = new Map();
  for (const r of Array.isArray(st.revealed) ? st.revealed : []) {
    if (r && Number.isInteger(r.number)) out.set(r.number, r);
  }
  return out;
}

function isPlayer(view) {
  return Number.isInteger(S.ctx.me) && players(view).includes(S.ctx.me);
}

// --- small building blocks -------------------------------------------------------------------

function svg(viewBox, cls, ...children) {
  const el = document.createElementNS(SVG_NS, "svg");
  el.setAttribute("viewBox", viewBox);
  el.setAttribute("class", cls);
  el.setAttribute("aria-hidden", "true");
  el.setAttribute("focusable", "false");
  for (const c of children) el.appendChild(c);
  return el;
}

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** A shape as a drawn icon (never an emoji: a phone without the font shows a box). */
function shapeIcon(shape, cls = "ab-shape") {
  switch (shape) {
    case "circle": return svg("0 0 24 24", cls, svgEl("circle", { cx: 12, cy: 12, r: 8.5 }));
    case "square": return svg("0 0 24 24", cls, svgEl("rect", { x: 3.5, y: 3.5, width: 17, height: 17, rx: 1 }));
    case "triangle": return svg("0 0 24 24", cls, svgEl("path", { d: "M12 3.2 21.2 20H2.8Z" }));
    case "line": return svg("0 0 24 24", cls, svgEl("path", { d: "M4 20 20 4" }));
    default: return svg("0 0 24 24", cls, svgEl("path", { d: "M8 9a4 4 0 1 1 5 4v2M12 19v.5" }));
  }
}

function shapeName(shape) {
  return tr(`shape.${shape}`);
}

/** A die showing a shape: a span, or a button for the shape tool. */
function dieFace(shape, attrs = {}, tag = "span") {
  return h(tag, { class: "ab-die", title: shapeName(shape), ...attrs },
    shapeIcon(shape), h("span", { class: "visually-hidden" }, shapeName(shape)));
}

function diceRow(dice, cls = "") {
  return h("div", { class: `ab-dice ${cls}`.trim(), role: "list", "aria-label": tr("dice") },
    dice.map((s) => h("span", { role: "listitem" }, dieFace(s))));
}

function shapeIcons(list, cls = "") {
  return h("span", { class: `ab-icons ${cls}`.trim() },
    list.map((s) => h("span", { class: "ab-icon", title: shapeName(s) }, shapeIcon(s),
      h("span", { class: "visually-hidden" }, shapeName(s)))));
}

/** An order token (a numbered disc), in a player's colour when given. */
function token(n, colour = null, big = false) {
  const attrs = { class: `ab-token${big ? " ab-token-big" : ""}`, "aria-hidden": "true" };
  if (colour) attrs.style = { "--c": colour };
  return h("span", attrs, n == null ? "?" : String(n));
}

/** A victory token: red (most recognised picture) or grey (most correct guesses). */
function victory(kind) {
  return h("span", { class: `ab-victory is-${kind}`, "aria-hidden": "true" });
}

function countdown() {
  return h("div", { class: "ab-timer", role: "timer", "aria-live": "off", hidden: true },
    svg("0 0 24 24", "ab-glass", svgEl("path", { d: "M6 3h12M6 21h12M7 3c0 6 10 6 10 9s-10 3-10 9M17 3c0 6-10 6-10 9s10 3 10 9" })),
    h("span", { class: "ab-timer-time" }, "–:––"),
    h("span", { class: "ab-timer-bar", "aria-hidden": "true" }, h("span")));
}

/** Who has done something (chosen, finished, matched): a chip each, ticked when done. */
function peopleList(view, doneSeats, { doneText, openText, tokenOf = null } = {}) {
  const done = new Set(doneSeats);
  return h("ul", { class: "ab-people" }, players(view).map((seat) => {
    const k = tokenOf ? tokenOf(seat) : null;
    return h("li", { class: `ab-person${done.has(seat) ? " is-done" : ""}` },
      chipOf(seat),
      k ? token(k, colourOf(seat)) : h("span", { class: `ab-tick${done.has(seat) ? " is-on" : ""}`, "aria-hidden": "true" }, done.has(seat) ? "✓" : "…"),
      h("span", { class: "small muted" }, done.has(seat) ? doneText : openText));
  }));
}

// --- the frame of every phase ----------------------------------------------------------------

function headCard() {
  const el = h("section", { class: "card ab-head" });
  return {
    el,
    update(view, st) {
      const me = S.ctx.me;
      const score = st.scores ? seatMap(st.scores).get(me) : null;
      const word = local(st.my_word);
      const adv = Boolean(st.advanced);
      const red = seatMap(st.red).get(me) || 0;
      const grey = seatMap(st.grey).get(me) || 0;
      patch(el, [st.round, st.starter, nameOf(st.starter), colourOf(st.starter), st.target, adv, score, red, grey, word, me === st.starter, lang()], () => [
        h("div", { class: "ab-head-row" },
          h("p", { class: "ab-round" }, tr("round", { n: st.round ?? 1 })),
          score != null ? h("span", { class: "ab-myscore" },
            adv ? [victory("red"), ` ${red} `, victory("grey"), ` ${grey} · `] : null,
            tr("your_score", { n: score })) : null),
        h("p", { class: "ab-starter" },
          me === st.starter ? h("strong", {}, tr("you_start")) : [tr("starter"), " ", chipOf(st.starter)]),
        word ? h("p", { class: "ab-myword" }, h("span", { class: "muted small" }, tr("your_word")), " ",
          h("strong", {}, tr("quoted", { word }))) : null,
      ]);
    },
  };
}

// --- choose ----------------------------------------------------------------------------------

function screenChoose() {
  const el = h("section", { class: "card stack ab-choose" });
  return {
    el,
    update(view, st) {
      const me = S.ctx.me;
      const kept = seatList(st.kept);
      const total = players(view).length;
      const mine = kept.includes(me);
      const cards = Array.isArray(st.my_cards) ? st.my_cards : [];
      patch(el, [mine, cards.map(local), local(st.my_word), kept, total, lang()], () => {
        if (mine || !isPlayer(view)) {
          return [
            mine ? h("h2", {}, tr("kept_title")) : h("h2", {}, tr("choose_watch")),
            mine && local(st.my_word) ? h("div", { class: "ab-card is-kept" },
              h("span", { class: "ab-card-word" }, local(st.my_word))) : null,
            waiting(tr("wait_choose", { n: kept.length, total })),
            peopleList(view, kept, { doneText: tr("chose"), openText: tr("choosing") }),
          ];
        }
        return [
          h("h2", {}, tr("choose_title")),
          h("p", { class: "muted" }, tr("choose_hint")),
          h("div", { class: "ab-cards" }, cards.slice(0, 2).map((card, i) =>
            button(h("span", { class: "ab-card-word" }, local(card)), () => S.ctx.act("keep", { card: i }),
              "ab-card", { "data-act": `keep-${i}`, "aria-label": tr("keep_label", { word: local(card) }) }))),
          h("p", { class: "muted small center" }, tr("chose_count", { n: kept.length, total })),
        ];
      });
      // Laid out first: then each card's word shrinks until it fits whole.
      requestAnimationFrame(() => {
        for (const word of el.querySelectorAll(".ab-card-word")) fitWords(word, 14);
      });
    },
  };
}

// --- roll ------------------------------------------------------------------------------------

function screenRoll(st) {
  const el = h("section", { class: "card stack center ab-roll" });
  const me = S.ctx.me;
  const blank = h("div", { class: "ab-dice ab-dice-big" }, [0, 1, 2, 3].map(() => h("span", { class: "ab-die is-blank" }, "?")));
  if (me === st.starter) {
    const roll = button(tr("roll"), () => S.ctx.act("roll"), "btn-primary btn-block ab-big", { "data-act": "roll" });
    fill(el, h("h2", {}, tr("roll_title")), blank, h("p", { class: "muted" }, tr("roll_hint")), roll);
    return { el, update(view, s) { enable(roll, s.phase === "roll"); } };
  }
  fill(el, blank, waiting(tr("wait_roll", { name: nameOf(st.starter) })), h("p", { class: "muted small" }, tr("roll_others")));
  return { el, update() {} };
}

// --- create: the shape tool --------------------------------------------------------------------

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

function localOutline(shape, w, hgt) {
  switch (shape) {
    case "circle": {
      const pts = [];
      for (let i = 0; i <= CIRCLE_POINTS; i += 1) {
        const a = (2 * Math.PI * i) / CIRCLE_POINTS;
        pts.push([(w / 2) * Math.cos(a), (hgt / 2) * Math.sin(a)]);
      }
      return pts;
    }
    case "square":
      return [[-w / 2, -hgt / 2], [w / 2, -hgt / 2], [w / 2, hgt / 2], [-w / 2, hgt / 2], [-w / 2, -hgt / 2]];
    case "triangle":
      return [[0, -hgt / 2], [w / 2, hgt / 2], [-w / 2, hgt / 2], [0, -hgt / 2]];
    default:
      return [[-w / 2, 0], [w / 2, 0]];
  }
}

function toWorld(e, [x, y]) {
  const c = Math.cos(e.angle);
  const s = Math.sin(e.angle);
  return [e.cx + x * c - y * s, e.cy + x * s + y * c];
}

function toLocal(e, [x, y]) {
  const dx = x - e.cx;
  const dy = y - e.cy;
  const c = Math.cos(e.angle);
  const s = Math.sin(e.angle);
  return [dx * c + dy * s, -dx * s + dy * c];
}

function outlineOf(e) {
  return localOutline(e.shape, e.w, e.h).map((p) => toWorld(e, p));
}

/** `e` moved inside the sheet, or null if it cannot fit (too big at this angle). */
function fitted(e) {
  const pts = outlineOf(e);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  if (x1 - x0 > SHEET.width - 2 * INSET || y1 - y0 > SHEET.height - 2 * INSET) return null;
  let dx = 0;
  let dy = 0;
  if (x0 < INSET) dx = INSET - x0;
  else if (x1 > SHEET.width - INSET) dx = SHEET.width - INSET - x1;
  if (y0 < INSET) dy = INSET - y0;
  else if (y1 > SHEET.height - INSET) dy = SHEET.height - INSET - y1;
  return { ...e, cx: e.cx + dx, cy: e.cy + dy };
}

/** The shape as the clean stroke the box recognises: integer [x, y, t], t increasing. */
function shapeStroke(e, colour, width) {
  const points = [];
  for (const [x, y] of outlineOf(e)) {
    const p = [Math.round(clamp(x, 0, SHEET.width)), Math.round(clamp(y, 0, SHEET.height))];
    const last = points[points.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) continue;
    points.push([p[0], p[1], points.length * STEP_MS]);
  }
  return { points, colour, width };
}

function strokeSig(stroke) {
  const p = stroke.points || [];
  return `${p.length}|${(p[0] || []).join(",")}|${(p[p.length - 1] || []).join(",")}`;
}

function snapAngle(a) {
  const step = Math.PI / 12; // 15 degrees
  const near = Math.round(a / step) * step;
  return Math.abs(a - near) < (SNAP_DEG * Math.PI) / 180 ? near : a;
}

/**
 * The shape tool: an overlay on the pad's sheet where one shape at a time is placed,
 * moved (drag it, or tap where it should go), resized (the corner handle, or pinch),
 * turned (the round handle above it, or twist two fingers); a line by its two ends.
 */
function createShapeEditor(box, { colour, onChange, spots = defaultSpots(0, 0) }) {
  const canvas = h("canvas", { class: "ab-overlay", "aria-label": tr("tool_label"), role: "img" });
  box.appendChild(canvas);
  let edit = null;         // {shape, die, cx, cy, w, h, angle}
  let drag = null;
  const pointers = new Map();

  function rect() {
    const b = canvas.getBoundingClientRect();
    return { ...sheetRect(b.width, b.height), left: b.left, top: b.top, bw: b.width, bh: b.height };
  }

  function toSheet(event, r) {
    return [(event.clientX - r.left - r.x) / r.scale, (event.clientY - r.top - r.y) / r.scale];
  }

  function handles(e, scale) {
    if (e.shape === "line") {
      return { end0: toWorld(e, [-e.w / 2, 0]), end1: toWorld(e, [e.w / 2, 0]) };
    }
    // The turning knob sits above the shape, or below it when above would be off the
    // sheet (a shape near the top edge): a knob nobody can reach turns nothing.
    const reach = ROTATE_PX / scale;
    const margin = HANDLE_PX / scale;
    const inside = ([x, y]) => x >= margin && x <= SHEET.width - margin && y >= margin && y <= SHEET.height - margin;
    const above = toWorld(e, [0, -e.h / 2 - reach]);
    const below = toWorld(e, [0, e.h / 2 + reach]);
    return {
      resize: toWorld(e, [e.w / 2, e.h / 2]),
      rotate: inside(above) || !inside(below) ? above : below,
      stem: inside(above) || !inside(below) ? toWorld(e, [0, -e.h / 2]) : toWorld(e, [0, e.h / 2]),
    };
  }

  function propose(next) {
    const ok = fitted(next);
    if (!ok) return false;
    edit = ok;
    paint();
    onChange();
    return true;
  }

  function paint() {
    const r = rect();
    if (r.bw < 2 || r.bh < 2) return;
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const w = Math.round(r.bw * dpr);
    const hh = Math.round(r.bh * dpr);
    if (canvas.width !== w || canvas.height !== hh) {
      canvas.width = w;
      canvas.height = hh;
    }
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, r.bw, r.bh);
    if (!edit) return;
    const px = (p) => [r.x + p[0] * r.scale, r.y + p[1] * r.scale];
    const ink = colour();
    // The box's outline, as it will be sent.
    const pts = outlineOf(edit).map(px);
    g.lineCap = "round";
    g.lineJoin = "round";
    g.strokeStyle = ink.colour;
    g.lineWidth = Math.max(1, ink.width * r.scale);
    g.beginPath();
    pts.forEach((p, i) => (i ? g.lineTo(p[0], p[1]) : g.moveTo(p[0], p[1])));
    g.stroke();
    const accent = "#5a3cc8";
    g.lineWidth = 1.5;
    g.strokeStyle = accent;
    if (edit.shape !== "line") {
      // The selection frame, turned with the shape.
      // Just outside the outline, so that the ink itself stays visible.
      const pad = ink.width / 2 + 6 / r.scale; // sheet units: half the line, then 6 CSS px
      const frame = [[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]
        .map(([a, b]) => px(toWorld(edit, [a * (edit.w / 2 + pad), b * (edit.h / 2 + pad)])));
      g.setLineDash([6, 5]);
      g.beginPath();
      frame.forEach((p, i) => (i ? g.lineTo(p[0], p[1]) : g.moveTo(p[0], p[1])));
      g.stroke();
      g.setLineDash([]);
      const hs = handles(edit, r.scale);
      const top = px(hs.stem);
      const rot = px(hs.rotate);
      g.beginPath();
      g.moveTo(top[0], top[1]);
      g.lineTo(rot[0], rot[1]);
      g.stroke();
      knob(g, rot, accent, "rotate");
      knob(g, px(hs.resize), accent, "resize");
    } else {
      const hs = handles(edit, r.scale);
      knob(g, px(hs.end0), accent, "end");
      knob(g, px(hs.end1), accent, "end");
    }
  }

  function knob(g, [x, y], accent, kind) {
    g.beginPath();
    g.arc(x, y, HANDLE_PX, 0, Math.PI * 2);
    g.fillStyle = "#ffffff";
    g.fill();
    g.lineWidth = 3;
    g.strokeStyle = accent;
    g.stroke();
    g.lineWidth = 2;
    g.beginPath();
    if (kind === "rotate") {
      // A turning arrow.
      g.arc(x, y, HANDLE_PX * 0.5, -Math.PI * 0.9, Math.PI * 0.5);
      g.stroke();
      g.beginPath();
      g.moveTo(x - HANDLE_PX * 0.15, y + HANDLE_PX * 0.5);
      g.lineTo(x + HANDLE_PX * 0.2, y + HANDLE_PX * 0.25);
      g.lineTo(x + HANDLE_PX * 0.2, y + HANDLE_PX * 0.75);
      g.closePath();
      g.fillStyle = accent;
      g.fill();
    } else if (kind === "resize") {
      // A diagonal double arrow.
      const a = HANDLE_PX * 0.45;
      g.moveTo(x - a, y - a);
      g.lineTo(x + a, y + a);
      g.moveTo(x - a, y - a + 5);
      g.lineTo(x - a, y - a);
      g.lineTo(x - a + 5, y - a);
      g.moveTo(x + a, y + a - 5);
      g.lineTo(x + a, y + a);
      g.lineTo(x + a - 5, y + a);
      g.stroke();
    } else {
      g.arc(x, y, HANDLE_PX * 0.35, 0, Math.PI * 2);
      g.fillStyle = accent;
      g.fill();
    }
  }

  function hitKind(p, r) {
    const hs = handles(edit, r.scale);
    const reach = HIT_PX / r.scale;
    let best = null;
    let bestD = Infinity;
    for (const [kind, q] of Object.entries(hs)) {
      if (kind === "stem") continue;
      const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
      if (d <= reach && d < bestD) {
        best = kind;
        bestD = d;
      }
    }
    if (best) return best;
    const [lx, ly] = toLocal(edit, p);
    const pad = 16 / r.scale;
    if (edit.shape === "line") {
      if (Math.abs(lx) <= edit.w / 2 + pad && Math.abs(ly) <= 28 / r.scale) return "move";
    } else if (Math.abs(lx) <= edit.w / 2 + pad && Math.abs(ly) <= edit.h / 2 + pad) {
      return "move";
    }
    return "place";
  }

  function onDown(event) {
    if (!edit) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch (err) {
      // Synthetic events cannot be captured; dragging works without.
    }
    const r = rect();
    const p = toSheet(event, r);
    pointers.set(event.pointerId, p);
    if (pointers.size === 2) {
      // Two fingers: pinch to size, twist to turn, both move the shape with them.
      const [a, b] = [...pointers.values()];
      drag = {
        kind: "pinch",
        ids: [...pointers.keys()],
        d0: Math.max(1, Math.hypot(b[0] - a[0], b[1] - a[1])),
        a0: Math.atan2(b[1] - a[1], b[0] - a[0]),
        m0: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
        e0: { ...edit },
      };
      return;
    }
    if (pointers.size > 2) return;
    let kind = hitKind(p, r);
    if (kind === "place") {
      // A tap beside the shape puts it there; the drag goes on from there.
      propose({ ...edit, cx: p[0], cy: p[1] });
      kind = "move";
    }
    drag = { kind, id: event.pointerId, start: p, e0: { ...edit } };
  }

  function onMove(event) {
    if (!pointers.has(event.pointerId) || !edit || !drag) return;
    event.preventDefault();
    const r = rect();
    const p = toSheet(event, r);
    pointers.set(event.pointerId, p);
    const e0 = drag.e0;
    if (drag.kind === "pinch") {
      const a = pointers.get(drag.ids[0]);
      const b = pointers.get(drag.ids[1]);
      if (!a || !b) return;
      const k = Math.hypot(b[0] - a[0], b[1] - a[1]) / drag.d0;
      const turn = Math.atan2(b[1] - a[1], b[0] - a[0]) - drag.a0;
      const m = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      const min = e0.shape === "line" ? MIN_LINE : MIN_SIDE;
      const w = Math.max(min, e0.w * k);
      const hh = e0.shape === "line" ? 0 : Math.max(MIN_SIDE, e0.h * k);
      propose({ ...e0, w, h: hh, angle: e0.angle + turn, cx: e0.cx + m[0] - drag.m0[0], cy: e0.cy + m[1] - drag.m0[1] });
      return;
    }
    if (event.pointerId !== drag.id) return;
    switch (drag.kind) {
      case "move":
        propose({ ...e0, cx: e0.cx + p[0] - drag.start[0], cy: e0.cy + p[1] - drag.start[1] });
        break;
      case "resize": {
        const [lx, ly] = toLocal(e0, p);
        let w = Math.max(MIN_SIDE, 2 * Math.abs(lx));
        let hh = Math.max(MIN_SIDE, 2 * Math.abs(ly));
        // Nearly equal sides snap to a true circle or square: what the dice show.
        if (e0.shape !== "triangle" && Math.abs(w - hh) < 0.06 * Math.max(w, hh)) w = hh = (w + hh) / 2;
        propose({ ...e0, w, h: hh });
        break;
      }
      case "rotate":
        propose({ ...e0, angle: snapAngle(Math.atan2(p[1] - e0.cy, p[0] - e0.cx) + Math.PI / 2) });
        break;
      case "end0":
      case "end1": {
        const fixed = toWorld(e0, [drag.kind === "end0" ? e0.w / 2 : -e0.w / 2, 0]);
        const len = Math.hypot(p[0] - fixed[0], p[1] - fixed[1]);
        if (len < MIN_LINE) break;
        const dir = drag.kind === "end1"
          ? Math.atan2(p[1] - fixed[1], p[0] - fixed[0])
          : Math.atan2(fixed[1] - p[1], fixed[0] - p[0]);
        propose({ ...e0, w: len, angle: snapAngle(dir), cx: (p[0] + fixed[0]) / 2, cy: (p[1] + fixed[1]) / 2 });
        break;
      }
      default:
        break;
    }
  }

  function onUp(event) {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    // When one finger of two lifts, the drag ends: going on with the other would jump.
    if (!pointers.size || (drag && drag.kind === "pinch")) drag = null;
  }

  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onUp);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => paint()) : null;
  if (resize) resize.observe(canvas);

  return {
    el: canvas,
    /** Start placing `shape` (die index `die`) in the `slot`-th free place. */
    begin(shape, die, slot) {
      const spot = spots[slot % spots.length];
      const { cx, cy } = spot;
      const w = Math.round(DEFAULT_SIZE[shape][0] * spot.scale);
      const hh = Math.round(DEFAULT_SIZE[shape][1] * spot.scale);
      // A line leans a little (a level line is easy to mistake for the sheet's edge), by
      // an angle of this seat's own.
      const angle = shape === "line" ? -Math.PI / 12 + spot.tilt : 0;
      const keep = edit && edit.shape !== "line" && shape !== "line" ? { cx: edit.cx, cy: edit.cy } : { cx, cy };
      edit = fitted({ shape, die, w, h: hh, angle, ...keep }) || { shape, die, cx: 800, cy: 500, w, h: hh, angle };
      drag = null;
      pointers.clear();
      paint();
      onChange();
    },
    editing: () => edit,
    stroke() {
      if (!edit) return null;
      const ink = colour();
      return { shape: edit.shape, stroke: shapeStroke(edit, ink.colour, ink.width) };
    },
    cancel() {
      edit = null;
      drag = null;
      pointers.clear();
      paint();
      onChange();
    },
    setActive(on) {
      canvas.hidden = !on;
      if (on) requestAnimationFrame(paint);
    },
    paint,
    destroy() {
      if (resize) resize.disconnect();
    },
  };
}

// --- create: the screen --------------------------------------------------------------------

function checkPanel() {
  const el = h("div", { class: "ab-check", "aria-live": "polite" });
  return {
    el,
    update(st) {
      const check = st.my_check;
      const dice = shapesOf(st.dice);
      patch(el, [check, dice, lang()], () => {
        el.className = "ab-check";
        if (!check) {
          el.classList.add("is-empty");
          return [h("p", { class: "ab-check-line" }, tr("check_empty"), " ", shapeIcons(dice))];
        }
        el.classList.add(check.legal ? "is-ok" : "is-bad");
        const found = shapesOf(check.found);
        const missing = shapesOf(check.missing);
        const extra = shapesOf(check.extra);
        return [
          h("p", { class: "ab-check-head" },
            h("span", { class: "ab-check-mark", "aria-hidden": "true" }, check.legal ? "✓" : "!"),
            h("span", {}, tr("check_sees")), " ",
            found.length ? shapeIcons(found, "is-found") : h("span", { class: "muted" }, tr("check_nothing"))),
          missing.length ? h("p", { class: "ab-check-line" }, h("span", { class: "ab-check-label" }, tr("check_missing")), " ", shapeIcons(missing, "is-missing")) : null,
          extra.length ? h("p", { class: "ab-check-line" }, h("span", { class: "ab-check-label" }, tr("check_extra")), " ", shapeIcons(extra, "is-extra")) : null,
          reasonOf(check) ? h("p", { class: "ab-check-reason" }, reasonOf(check)) : null,
        ];
      });
    },
  };
}

function screenCreate(st) {
  const wrap = h("section", { class: "card ab-create" });
  const dice = shapesOf(st.dice);
  const check = checkPanel();

  // Done, then a confirmation naming the token it takes (and the box's doubts, if any).
  const confirmText = h("p");
  const confirmWarn = h("p", { class: "ab-warn", hidden: true });
  const confirm = h("div", { class: "ab-confirm", hidden: true },
    confirmText, confirmWarn,
    h("div", { class: "ab-confirm-row" },
      button(tr("finish_yes"), () => S.ctx.act("finish"), "btn-primary", { "data-act": "finish-yes" }),
      h("button", { type: "button", class: "btn btn-quiet", onclick: () => { confirm.hidden = true; doneBtn.hidden = false; } }, tr("finish_no"))));
  const doneBtn = h("button", {
    type: "button", class: "btn btn-primary ab-done", "data-act": "finish",
    onclick: () => {
      const s = S.view.match.state;
      const next = seatList(s.order).length + 1;
      confirmText.textContent = tr("finish_confirm", { n: next });
      const c = s.my_check;
      const doubt = S.mode === "free" && c && c.legal === false;
      confirmWarn.hidden = !doubt;
      confirmWarn.textContent = doubt ? tr("finish_warn", { reason: reasonOf(c) }) : "";
      confirm.hidden = false;
      doneBtn.hidden = true;
    },
  }, tr("done"));
  const doneHint = h("p", { class: "small muted ab-done-hint" });
  const clearBtn = h("button", {
    type: "button", class: "btn btn-quiet btn-small ab-clear", "data-act": "clear",
    onclick: () => {
      if (S.editor) S.editor.cancel();
      if (S.pad) S.pad.clear();
      refresh();
    },
  }, tr("clear"));
  const actions = h("div", { class: "ab-actions" }, doneBtn, doneHint, confirm);

  const pad = createCanvas({
    onStroke: (stroke) => { S.ctx.act("stroke", stroke); refresh(); },
    onUndo: () => { S.ctx.act("undo"); refresh(); },
    onClear: () => S.ctx.act("clear"),
    extra: clearBtn,
  });
  S.pad = pad;
  pad.setStrokes(st.my_picture || []);
  const sheetBox = pad.el.querySelector(".sheet-box");
  const toolbar = pad.el.querySelector(".toolbar");
  const editor = createShapeEditor(sheetBox, {
    colour: () => pad.current(),
    onChange: () => refresh(),
    // Seeded by seat and round: two players tapping Place make different pictures.
    spots: defaultSpots(S.ctx.me, st.round),
  });
  S.editor = editor;

  // The shape tool's own bar: the rolled dice to pick from, and place / remove.
  const dieButtons = dice.map((shape, i) => {
    const b = dieFace(shape, { type: "button", "data-die": String(i), "data-shape": shape, "aria-pressed": "false" }, "button");
    b.addEventListener("click", () => {
      if (b.disabled) return;
      editor.begin(shape, i, pad.strokes().length);
    });
    return b;
  });
  const place = h("button", {
    type: "button", class: "btn btn-primary ab-place", "data-act": "place",
    onclick: () => {
      const made = editor.stroke();
      if (!made) return;
      // Kept in the editor if the pad cannot take it now (a pause): never lost.
      if (pad.addStroke(made.stroke) === false) return;
      S.toolMade.set(strokeSig(made.stroke), made.shape);
      editor.cancel();
    },
  }, h("span", { "aria-hidden": "true" }, "✓ "), tr("place"));
  const discard = h("button", {
    type: "button", class: "btn btn-quiet ab-discard", "data-act": "discard",
    onclick: () => editor.cancel(),
  }, tr("discard"));
  const toolHint = h("p", { class: "ab-tool-hint small" });
  const toolBar = h("div", { class: "ab-toolbar" },
    h("div", { class: "ab-dice ab-dice-pick", role: "group", "aria-label": tr("pick_shape") }, dieButtons),
    toolHint,
    h("div", { class: "ab-place-row" }, place, discard));
  pad.el.insertBefore(toolBar, toolbar);

  const modes = ["shapes", "free"].map((m) => h("button", {
    type: "button", class: "ab-mode", "data-mode": m, "aria-pressed": "false",
    onclick: () => { editor.cancel(); S.mode = m; refresh(); },
  }, m === "shapes" ? [shapeIcon("square", "ab-shape ab-mode-icon"), tr("mode_shapes")] : [pencilIcon(), tr("mode_free")]));

  const smallDice = diceRow(dice, "ab-dice-small");
  fill(wrap,
    h("div", { class: "ab-create-top" },
      h("p", { class: "ab-create-hint" }, tr("create_hint", { word: local(st.my_word) })),
      smallDice),
    h("div", { class: "ab-modes", role: "group", "aria-label": tr("mode") }, modes),
    h("p", { class: "dk-rotate ab-rotate muted small" }, tr("rotate")),
    pad.el,
    check.el,
    actions);
  document.body.classList.add("is-drawing");

  /** Which dice are used: the tool's own shapes still on the sheet, or what the box sees. */
  function usedDice() {
    const strokes = pad.strokes();
    const mine = counts(strokes.map((s) => S.toolMade.get(strokeSig(s))).filter(Boolean));
    const c = S.view.match.state.my_check;
    const seen = counts(c ? shapesOf(c.found) : []);
    const left = new Map();
    for (const s of SHAPES) left.set(s, Math.max(mine.get(s) || 0, strokes.length ? seen.get(s) || 0 : 0));
    return dice.map((shape) => {
      const n = left.get(shape) || 0;
      left.set(shape, n - 1);
      return n > 0;
    });
  }

  function refresh() {
    const tool = S.mode === "shapes";
    for (const b of modes) b.setAttribute("aria-pressed", b.dataset.mode === S.mode ? "true" : "false");
    editor.setActive(tool);
    toolBar.hidden = !tool;
    smallDice.hidden = tool;
    const edit = editor.editing();
    const used = usedDice();
    dieButtons.forEach((b, i) => {
      const on = Boolean(edit && edit.die === i);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("is-used", used[i] && !on);
      b.disabled = used[i] && !on;
    });
    place.hidden = !edit;
    discard.hidden = !edit;
    const placed = pad.strokes().length;
    toolHint.textContent = !tool ? "" : edit
      ? (edit.shape === "line" ? tr("tool_hint_line") : tr("tool_hint"))
      : placed >= 4 ? tr("tool_full") : tr("tool_pick");
    // The shape tool's picture is done at exactly 4 shapes; freehand may always finish
    // (the table may overrule the box later), with a warning if the box has doubts.
    const ready = tool ? placed === 4 && !edit : true;
    doneBtn.disabled = !ready;
    doneHint.textContent = tool && !ready ? tr("done_hint", { n: placed }) : "";
    doneHint.hidden = !doneHint.textContent;
    if (!ready) {
      confirm.hidden = true;
      doneBtn.hidden = false;
    }
  }

  refresh();
  return {
    el: wrap,
    update(view, s) {
      pad.sync(s.my_picture || []);
      check.update(s);
      refresh();
    },
  };
}

function pencilIcon() {
  return svg("0 0 24 24", "ab-shape ab-mode-icon", svgEl("path", { d: "M4 20l1.2-4.6L16 4.6a2 2 0 0 1 2.8 0l.6.6a2 2 0 0 1 0 2.8L8.6 18.8Z M14 6.5l3.5 3.5" }));
}

function screenCreated(st) {
  const el = h("div", { class: "ab-stack" });
  const mineCard = h("section", { class: "card stack center ab-mine" });
  const check = checkPanel();
  const people = h("section", { class: "card stack ab-people-card" });
  fill(el, mineCard, people);
  return {
    el,
    update(view, s) {
      const order = seatList(s.order);
      const k = order.indexOf(S.ctx.me) + 1;
      patch(mineCard, ["mine", k, colourOf(S.ctx.me), lang()], () => [
        token(k || null, colourOf(S.ctx.me), true),
        h("h2", { class: "ab-number" }, tr("you_are", { n: k })),
        h("p", { class: "muted" }, tr("locked")),
        sheetElement(s.my_picture || [], tr("your_picture")),
        check.el,
      ]);
      check.update(s);
      const total = players(view).length;
      patch(people, ["people", order, total, players(view).map(nameOf), lang()], () => [
        h("div", { class: "ab-row" }, h("h2", {}, tr("finished_count", { n: order.length, total })), countdown()),
        peopleList(view, order, {
          doneText: tr("finished"), openText: tr("drawing"),
          tokenOf: (seat) => (order.includes(seat) ? order.indexOf(seat) + 1 : null),
        }),
      ]);
      tickTimers();
    },
  };
}

function screenCreateWatch() {
  const el = h("section", { class: "card stack" });
  return {
    el,
    update(view, s) {
      const order = seatList(s.order);
      patch(el, [order, shapesOf(s.dice), lang()], () => [
        h("h2", {}, tr("watch_create")),
        diceRow(shapesOf(s.dice)),
        peopleList(view, order, {
          doneText: tr("finished"), openText: tr("drawing"),
          tokenOf: (seat) => (order.includes(seat) ? order.indexOf(seat) + 1 : null),
        }),
      ]);
    },
  };
}

// --- match: guess which word is which picture --------------------------------------------------

function pictureTile(pic, { mine, attrs = {}, tag = "div" }) {
  const label = tr("picture_n", { n: pic.number });
  const caption = h("div", { class: "ab-pic-caption" });
  const el = h(tag, { class: `ab-pic${mine ? " is-mine" : ""}`, ...attrs },
    h("span", { class: "ab-pic-no", "aria-hidden": "true" }, String(pic.number)),
    mine ? h("span", { class: "ab-pic-yours" }, tr("yours")) : null,
    sheetElement(pic.strokes || [], label),
    caption);
  return { el, caption };
}

function screenMatch(st) {
  const el = h("div", { class: "ab-stack ab-match" });
  const head = h("section", { class: "card stack ab-match-head" });
  const gallery = h("div", { class: "ab-gallery" });
  const words = h("section", { class: "card ab-words" });
  const foot = h("section", { class: "card stack ab-match-foot" });
  const me = S.ctx.me;
  const myNumber = Number.isInteger(st.my_number) ? st.my_number : null;
  const tiles = new Map();
  // A watcher (not a player of this match) sees the gallery and the words, nothing to tap.
  const watcher = !isPlayer(S.view);
  for (const pic of picturesOf(st)) {
    const mine = pic.number === myNumber;
    const tile = pictureTile(pic, {
      mine,
      tag: mine || watcher ? "div" : "button",
      attrs: mine || watcher ? {} : {
        // No aria-label: the name comes from the content, "Picture 2, owl" with the guess.
        type: "button", "data-picture": String(pic.number), "aria-pressed": "false",
        onclick: () => pickPicture(pic.number),
      },
    });
    tiles.set(pic.number, tile);
    gallery.appendChild(tile.el);
  }
  const done = button(tr("matched"), () => S.ctx.act("done"), "btn-primary btn-block ab-big", { "data-act": "done" });
  fill(el, head, h("section", { class: "card ab-gallery-card" }, gallery), words, foot);
  S.pick = null;

  function locked(s) {
    return seatList(s.done).includes(me) || !isPlayer(S.view);
  }

  function pickPicture(n) {
    const s = S.view.match.state;
    if (locked(s)) return;
    if (S.pick && S.pick.word != null) {
      S.ctx.act("guess", { picture: n, word: S.pick.word });
      S.pick = null;
    } else {
      // No toggling off: after a guess the next picture is already chosen, and a player
      // who taps it (as the hint says) must not find it unchosen.
      S.pick = { picture: n };
    }
    update(S.view, s);
  }

  function pickWord(i) {
    const s = S.view.match.state;
    if (locked(s)) return;
    if (S.pick && S.pick.picture != null) {
      S.ctx.act("guess", { picture: S.pick.picture, word: i });
      // On to the next picture still without a guess: the usual order of play.
      const guesses = guessesOf(s);
      guesses.set(S.pick.picture, i);
      const next = picturesOf(s).map((p) => p.number)
        .find((n) => n !== myNumber && !guesses.has(n) && n > S.pick.picture)
        ?? picturesOf(s).map((p) => p.number).find((n) => n !== myNumber && !guesses.has(n));
      S.pick = next != null ? { picture: next } : null;
    } else {
      S.pick = S.pick && S.pick.word === i ? null : { word: i };
    }
    update(S.view, s);
  }

  function update(view, s) {
    const guesses = guessesOf(s);
    const list = wordsOf(s);
    const byIndex = new Map(list.map((w) => [w.index, w]));
    const others = picturesOf(s).filter((p) => p.number !== myNumber).length;
    const guessed = [...guesses.keys()].filter((n) => n !== myNumber).length;
    const isDone = seatList(s.done).includes(me);
    const lock = locked(s);
    const pick = S.pick || {};
    patch(head, [guessed, others, isDone, lock, Boolean(s.hourglass_started), pick.picture ?? null, pick.word ?? null, lang()], () => [
      h("div", { class: "ab-row" }, h("h2", {}, tr("match_title")), countdown()),
      h("p", { class: "muted small" }, lock ? (isDone ? tr("match_locked") : tr("match_watch"))
        : pick.picture != null ? tr("match_pick_word", { n: pick.picture })
          : pick.word != null ? tr("match_pick_picture") : tr("match_hint")),
      isPlayer(view) ? h("p", { class: "ab-progress" }, tr("guessed", { n: guessed, total: others })) : null,
    ]);
    for (const [n, tile] of tiles) {
      const g = guesses.get(n);
      const w = g != null ? byIndex.get(g) : null;
      const selected = pick.picture === n;
      tile.el.classList.toggle("is-selected", selected);
      tile.el.classList.toggle("is-guessed", g != null);
      if (tile.el.tagName === "BUTTON") {
        tile.el.setAttribute("aria-pressed", selected ? "true" : "false");
        tile.el.disabled = lock;
      }
      patch(tile.caption, [n === myNumber, w ? local(w) : null, lock, lang()], () => {
        if (n === myNumber) return h("span", { class: "muted small" }, tr("your_picture"));
        if (!w) return h("span", { class: "ab-guess is-empty" }, tr("no_guess"));
        return [
          h("span", { class: "ab-guess" }, local(w)),
          lock ? null : h("span", {
            class: "ab-unguess", role: "button", tabindex: "0", "data-unguess": String(n),
            "aria-label": tr("unguess", { n }),
            onclick: (event) => { event.stopPropagation(); S.ctx.act("unguess", { picture: n }); },
          }, "×"),
        ];
      });
    }
    const usedBy = new Map();
    for (const [n, i] of guesses) if (n !== myNumber) usedBy.set(i, [...(usedBy.get(i) || []), n]);
    patch(words, [list.map((w) => [w.index, local(w)]), [...usedBy.entries()], pick.word ?? null, pick.picture ?? null, lock, lang()], () => [
      h("h2", { class: "ab-words-title" }, tr("words")),
      h("div", { class: "ab-wordlist" }, list.map((w) => (watcher ? h("span", { class: "ab-word", "data-word": String(w.index) }, h("span", {}, local(w))) : h("button", {
        type: "button", class: `ab-word${pick.word === w.index ? " is-selected" : ""}${usedBy.has(w.index) ? " is-used" : ""}`,
        "data-word": String(w.index), "aria-pressed": pick.word === w.index ? "true" : "false",
        disabled: lock, onclick: () => pickWord(w.index),
      }, h("span", {}, local(w)),
      usedBy.has(w.index) ? h("span", { class: "ab-word-pics" }, usedBy.get(w.index).sort((a, b) => a - b).map((n) => h("span", { class: "ab-word-pic" }, String(n)))) : null)))),
    ]);
    const doneSeats = seatList(s.done);
    const total = players(view).length;
    patch(foot, [isDone, others - guessed, doneSeats, total, Boolean(s.hourglass_started), isPlayer(view), lang()], () => [
      isPlayer(view) && !isDone ? done : null,
      isPlayer(view) && !isDone && guessed < others ? h("p", { class: "small muted center" }, tr("match_need", { n: others - guessed })) : null,
      isDone ? waiting(tr("match_wait", { n: doneSeats.length, total })) : h("p", { class: "small muted center" }, s.hourglass_started ? tr("hourglass_running") : tr("hourglass_rule")),
    ]);
    enable(done, !isDone && guessed >= others && isPlayer(view));
    tickTimers();
  }

  return { el, update };
}

// --- reveal ------------------------------------------------------------------------------------

function verdictLine(r) {
  if (r.legal == null) return null;
  const legal = Boolean(r.legal);
  return h("p", { class: `ab-verdict ${legal ? "is-ok" : "is-bad"}` },
    h("span", { class: "ab-verdict-mark", "aria-hidden": "true" }, legal ? "✓" : "✗"),
    h("span", {}, h("strong", {}, legal ? tr("legal") : tr("illegal")),
      reasonOf(r) ? h("span", { class: "ab-verdict-reason" }, ` — ${reasonOf(r)}`) : null,
      r.overruled ? h("span", { class: "ab-tag" }, tr("overruled")) : null));
}

function screenReveal(st) {
  const el = h("div", { class: "ab-stack ab-reveal" });
  const head = h("section", { class: "card stack ab-reveal-head" });
  const vote = h("section", { class: "card stack ab-vote", hidden: true });
  const gallery = h("div", { class: "ab-gallery ab-gallery-reveal" });
  const tally = h("section", { class: "card stack ab-tally", hidden: true });
  const me = S.ctx.me;
  const myNumber = Number.isInteger(st.my_number) ? st.my_number : null;
  const tiles = new Map();
  for (const pic of picturesOf(st)) {
    const tile = pictureTile(pic, { mine: pic.number === myNumber, attrs: { "data-picture": String(pic.number) } });
    tiles.set(pic.number, tile);
    gallery.appendChild(tile.el);
  }
  const starter = me === st.starter;
  const revealBtn = button("", () => S.ctx.act("reveal"), "btn-primary btn-block ab-big", { "data-act": "reveal" });
  const awardBtn = button(tr("award"), () => S.ctx.act("award"), "btn-primary btn-block ab-big", { "data-act": "award" });
  const closer = voteCloser();
  fill(el, head, vote, h("section", { class: "card ab-gallery-card" }, gallery), tally);

  return {
    el,
    update(view, s) {
      const pics = picturesOf(s);
      const revealed = revealedOf(s);
      const all = pics.length > 0 && revealed.size >= pics.length;
      const next = pics.map((p) => p.number).find((n) => !revealed.has(n));
      const v = s.vote && Number.isInteger(s.vote.artist) ? s.vote : null;
      patch(head, [revealed.size, pics.length, all, Boolean(v), starter, next ?? null, nameOf(s.starter), lang()], () => [
        h("h2", {}, all ? tr("reveal_done") : tr("reveal_title")),
        all ? null : h("p", { class: "ab-progress" }, tr("revealed", { n: revealed.size, total: pics.length })),
        starter ? (all ? (v ? null : awardBtn) : revealBtn)
          : waiting(v ? tr("wait_vote") : all ? tr("wait_award", { name: nameOf(s.starter) }) : tr("wait_reveal", { name: nameOf(s.starter), n: next ?? "" })),
        all && !v ? h("p", { class: "small muted" }, tr("contest_hint")) : null,
      ]);
      revealBtn.textContent = tr("reveal_next", { n: next ?? "" });
      enable(revealBtn, !all);
      enable(awardBtn, all && !v);

      vote.hidden = !v;
      if (v) {
        const voted = seatList(v.voted);
        const voters = players(view).filter((p) => p !== v.artist);
        const mine = voted.includes(me);
        const canVote = isPlayer(view) && me !== v.artist && !mine;
        patch(vote, [v.artist, voted, voters, mine, canVote, starter, nameOf(v.artist), lang()], () => [
          h("h2", {}, tr("vote_title")),
          h("p", { class: "lead" }, tr("vote_question", { name: nameOf(v.artist) })),
          canVote ? h("div", { class: "ab-yesno" },
            button(h("span", {}, h("span", { "aria-hidden": "true" }, "✗ "), tr("vote_yes")), () => S.ctx.act("vote", { breaks: true }), "ab-yes", { "data-act": "vote-yes" }),
            button(h("span", {}, h("span", { "aria-hidden": "true" }, "✓ "), tr("vote_no")), () => S.ctx.act("vote", { breaks: false }), "ab-no", { "data-act": "vote-no" }))
            : me === v.artist ? h("p", { class: "muted" }, tr("vote_artist")) : null,
          h("p", { class: "small muted" }, tr("vote_progress", { n: voted.length, total: voters.length })),
          // Only a player may ask to count the votes; a watcher sees how many voted.
          isPlayer(view) ? closer.el : null,
        ]);
        const asked = seatList(v.asked);
        const entitled = Number.isInteger(v.voters) ? v.voters : voters.length;
        closer.update({
          open: voted.length < entitled, countdown: Boolean(v.countdown),
          asked: asked.length, mine: asked.includes(me), total: entitled + 1,
        });
      }

      const guesses = guessesOf(s);
      const byIndex = new Map(wordsOf(s).map((w) => [w.index, w]));
      for (const [n, tile] of tiles) {
        const r = revealed.get(n);
        const g = guesses.get(n);
        const myGuess = g != null ? byIndex.get(g) : null;
        tile.el.classList.toggle("is-revealed", Boolean(r));
        tile.el.classList.toggle("is-next", n === next);
        const owner = r && Number.isInteger(r.owner) ? r.owner : null;
        if (owner != null) tile.el.style.setProperty("--c", colourOf(owner));
        const right = r && myGuess && local(myGuess) === local(r.word);
        patch(tile.caption, [r || null, owner != null ? [nameOf(owner), colourOf(owner)] : null, myGuess ? local(myGuess) : null, all, Boolean(v), n === myNumber, lang()], () => {
          if (!r) {
            return [
              h("span", { class: "ab-hidden-owner" }, "?"),
              myGuess ? h("span", { class: "small muted" }, tr("your_guess", { word: local(myGuess) })) : null,
            ];
          }
          return [
            h("div", { class: "ab-owner" }, chipOf(owner), Number.isInteger(r.token) ? token(r.token, colourOf(owner)) : null),
            h("p", { class: "ab-reveal-word" }, tr("quoted", { word: local(r.word) })),
            h("p", { class: "small" }, trn("recognised", Number(r.recognised) || 0)),
            myGuess && n !== myNumber ? h("p", { class: `small ab-myguess ${right ? "is-right" : "is-wrong"}` },
              right ? "✓ " : "✗ ", tr("your_guess", { word: local(myGuess) })) : null,
            verdictLine(r),
            all && !v && isPlayer(view) ? button(tr("contest"), () => S.ctx.act("contest", { artist: owner }), "btn-quiet btn-small ab-contest", { "data-act": `contest-${n}` }) : null,
          ];
        });
      }

      const guessed = seatMap(s.guessed);
      tally.hidden = !all || !guessed.size;
      if (all && guessed.size) {
        const rows = players(view).map((p) => [p, Number(guessed.get(p)) || 0]);
        rows.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
        patch(tally, [rows, rows.map(([p]) => nameOf(p)), lang()], () => [
          h("h2", {}, tr("correct_title")),
          h("ul", { class: "ab-people" }, rows.map(([p, n]) => h("li", { class: "ab-person" }, chipOf(p), h("span", { class: "ab-count" }, trn("correct", n))))),
        ]);
      }
    },
  };
}

// --- points and the end --------------------------------------------------------------------------

function screenPoints(st) {
  const el = h("div", { class: "ab-stack ab-points" });
  const awards = h("section", { class: "card stack ab-awards" });
  const scores = h("section", { class: "card stack ab-scores" });
  const starter = S.ctx.me === st.starter;
  const next = st.phase === "points" && starter
    ? button(tr("next_round"), () => S.ctx.act("next"), "btn-primary btn-block ab-big", { "data-act": "next" })
    : null;
  fill(el, awards, scores, st.phase === "points" ? (next || waiting(tr("wait_next", { name: nameOf(st.starter) }))) : null,
    st.phase === "over" && Array.isArray(st.art_show) && st.art_show.length ? artShowEl(st) : null);
  return {
    el,
    update(view, s) {
      const rp = s.round_points || {};
      const outcome = (view.match && view.match.outcome) || null;
      const winners = outcome && Array.isArray(outcome.winners) ? outcome.winners : [];
      patch(awards, [rp.red ?? null, rp.grey ?? null, s.phase, s.round, winners, lang()], () => [
        h("h2", {}, s.phase === "over" ? tr("game_over") : tr("points_title", { n: s.round ?? 1 })),
        s.phase === "over" && winners.length ? h("p", { class: "ab-winners" }, tr("winners"), " ", winners.map((w) => chipOf(w))) : null,
        h("div", { class: "ab-award" }, victory("red"),
          h("div", {}, h("p", { class: "ab-award-what" }, tr("red_point")),
            Number.isInteger(rp.red) ? chipOf(rp.red) : h("span", { class: "muted" }, tr("nobody")))),
        h("div", { class: "ab-award" }, victory("grey"),
          h("div", {}, h("p", { class: "ab-award-what" }, tr("grey_point")),
            Number.isInteger(rp.grey) ? chipOf(rp.grey) : h("span", { class: "muted" }, tr("nobody")))),
      ]);
      const sc = seatMap(s.scores);
      const red = seatMap(s.red);
      const grey = seatMap(s.grey);
      const adv = Boolean(s.advanced);
      const seats = players(view).slice().sort((a, b) => (Number(sc.get(b)) || 0) - (Number(sc.get(a)) || 0) || a - b);
      patch(scores, [seats.map((p) => [p, nameOf(p), sc.get(p), red.get(p), grey.get(p)]), rp, adv, s.target, lang()], () => [
        h("h2", {}, tr("scores")),
        s.target ? h("p", { class: "small muted" }, adv ? tr("target_adv_long") : tr("target", { n: s.target })) : null,
        h("table", { class: "ab-table" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, tr("player")),
            adv ? h("th", { scope: "col" }, victory("red"), h("span", { class: "visually-hidden" }, tr("red"))) : null,
            adv ? h("th", { scope: "col" }, victory("grey"), h("span", { class: "visually-hidden" }, tr("grey"))) : null,
            h("th", { scope: "col" }, tr("this_round")),
            h("th", { scope: "col" }, tr("total")))),
          h("tbody", {}, seats.map((p) => h("tr", { class: p === S.ctx.me ? "is-me" : "" },
            h("td", {}, chipOf(p)),
            adv ? h("td", { class: "ab-num" }, String(red.get(p) ?? 0)) : null,
            adv ? h("td", { class: "ab-num" }, String(grey.get(p) ?? 0)) : null,
            h("td", { class: "ab-num ab-plus" }, (rp.red === p || rp.grey === p) ? "+1" : ""),
            h("td", { class: "ab-num ab-total" }, String(sc.get(p) ?? 0)))))),
      ]);
      if (next) enable(next, s.phase === "points");
    },
  };
}

/** The finish: every round's pictures with their words, artists and points, newest first;
 * the newest open, the others a line each to open (a phone's page stays a few screens long). */
function artShowEl(st) {
  const shows = Array.isArray(st.art_show) ? st.art_show : [];
  const show = JSON.stringify(shows.map((round) => [round.round, (round.pictures || []).length]));
  return h("section", { class: "card stack ab-artshow" }, h("h2", {}, tr("art_show")),
    shows.slice().reverse().map((round, i) => {
      const info = new Map((round.revealed || []).map((r) => [r.number, r]));
      const rp = round.round_points || {};
      return h("details", { class: "ab-show-round", ...roundFold(show, round.round, i === 0), dataset: { round: String(round.round) } },
        h("summary", {}, h("h3", {}, tr("round", { n: round.round }))),
        h("p", { class: "small" },
          victory("red"), " ", Number.isInteger(rp.red) ? chipOf(rp.red) : tr("nobody"), " ",
          victory("grey"), " ", Number.isInteger(rp.grey) ? chipOf(rp.grey) : tr("nobody")),
        h("div", { class: "ab-gallery" }, (round.pictures || []).map((pic) => {
          const r = info.get(pic.number) || {};
          const { el, caption } = pictureTile(pic, { mine: false });
          fill(caption,
            h("strong", {}, tr("quoted", { word: local(r.word) })), " ",
            Number.isInteger(r.owner) ? chipOf(r.owner) : null, " ",
            h("span", { class: "small muted" }, trn("recognised", Number(r.recognised) || 0)));
          return el;
        })));
    }));
}

// --- choosing the screen -----------------------------------------------------------------------

function layoutOf(st, view) {
  const me = S.ctx.me;
  switch (st.phase) {
    case "create":
      if (!isPlayer(view)) return "create-watch";
      return seatList(st.order).includes(me) ? "created" : "create";
    case "points":
    case "over":
      return "points";
    default:
      return st.phase || "wait";
  }
}

function build(layout, st) {
  switch (layout) {
    case "choose": return screenChoose();
    case "roll": return screenRoll(st);
    case "create": return screenCreate(st);
    case "created": return screenCreated(st);
    case "create-watch": return screenCreateWatch();
    case "match": return screenMatch(st);
    case "reveal": return screenReveal(st);
    case "points": return screenPoints(st);
    default: return { el: h("section", { class: "card" }, waiting(tr("follow"))), update() {} };
  }
}

function dropPad() {
  if (S.editor) S.editor.destroy();
  S.editor = null;
  if (S.pad) S.pad.destroy();
  S.pad = null;
  document.body.classList.remove("is-drawing");
}

const { render, dispose } = screen({
  rootClass: "artbox",
  bodyClass: "ab-body",
  headCard,
  dropPad,
  layoutKey: (view, st, ctx) => [layoutOf(st, view), st.round, st.phase === "over" ? 1 : 0,
    st.phase === "points" ? st.starter : "", ctx.me, lang()].join("|"),
  build: (view, st) => build(layoutOf(st, view), st),
  onDispose() {
    S.pick = null;
    S.toolMade.clear();
  },
});

// The look of these screens lives beside this module (style.css stays the frame's): the
// page's CSP allows stylesheets from the box itself.
if (!document.querySelector('link[data-artbox-css]')) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/artbox.css", "data-artbox-css": "" }));
}

registerGameScreen("artbox", {
  render,
  dispose,
  seatScore: (st, seat) => {
    const score = seatMap(st.scores).get(seat);
    return score == null ? null : String(score);
  },
});
