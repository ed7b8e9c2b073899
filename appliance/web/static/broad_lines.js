// Broad Lines on the phones: one screen per role and phase (docs/broad-lines.md).
//
// choose: the Art Critic names a number 1-6 (never seeing the card); the Artists see the
// card. drawing: every Artist sees the word; the Artist whose turn it is draws ONE sheet
// on canvas.js (undo until placed), reads the box's sheet check at once, places it, or
// asks the Artists to accept a refused sheet; or hands the drawing over to the table's
// screen ("Draw on the table screen"), where the kiosk shows a blank sheet for them.
// vote: the Artists see the refused sheet and vote. guessing: the Critic says a guess
// aloud or types it; an Artist marks it right or wrong (a typed guess shows the box's
// opinion), and the Artists may send the rules' three hints. Anyone may propose to give
// up; everyone agrees. reveal: the word for all; next round. over: the rating and the
// art show.
//
// The page is rebuilt only when the layout changes (phase, round, role, sheet); the
// drawing pad survives other views, so a view arriving mid-stroke never wipes it. Words
// and names reach the page only as text (ui.js `h`). No innerHTML.

import { registerGameScreen } from "./games.js";
import { createCanvas, sheetElement } from "./canvas.js";
import { gameKit, patch, waiting } from "./kit.js";
import { fill, h } from "./ui.js";

const STRINGS = {
  en: {
    round: "Round {n}",
    sheets: "Sheets {used} / {total}",
    score_one: "{n} word guessed",
    score_other: "{n} words guessed",
    you_critic: "You are the Art Critic: don't look at the Artists' phones!",
    you_artist: "You are an Artist. Art Critic:",
    name_number: "Name a number",
    name_hint: "It picks the word from the card the Artists see.",
    refused_hint: "An Artist asked for another number.",
    wait_number: "{name} names a number…",
    card: "The card",
    word: "Draw: “{word}”",
    word_plain: "The word: “{word}”",
    quoted: "“{word}”",
    ask_other: "I don't know this word: ask for another number",
    your_turn: "Your sheet: 2 straight lines or 1 curve",
    place: "Place the sheet on the easel",
    ask_vote: "Ask the Artists to accept it",
    vote_lost: "The Artists kept the check's verdict: change the sheet.",
    to_panel: "Draw on the table screen instead",
    on_panel: "You draw on the table's screen now.",
    to_phone: "Draw on my phone instead",
    drawing_other: "{name} draws sheet {n}…",
    drawing_critic: "{name} draws sheet {n}. Watch the easel.",
    easel: "The easel",
    empty_easel: "No sheet on the easel yet.",
    paper_sheet: "Sheet {n}: {name} drew on paper at the table.",
    vote_title: "Accept {name}'s sheet anyway?",
    vote_hint: "The box refused it: {reason}",
    accept: "Yes, accept it",
    reject: "No, draw again",
    voted: "You voted. Waiting for the other Artists…",
    wait_vote: "The Artists vote on a refused sheet…",
    guesses_left_one: "1 guess left on this sheet",
    guesses_left_other: "{n} guesses left on this sheet",
    last_chance: "Last sheet: the game's last chance!",
    say_guess: "Say your guess aloud, or type it:",
    guess_label: "Your guess",
    send_guess: "Send",
    pass: "No more guesses on this sheet",
    wait_mark: "Waiting for an Artist to mark “{text}”…",
    wait_mark_aloud: "An Artist marks your guess.",
    typed: "{name} typed: “{text}”",
    box_match: "The box thinks: that's the word (in some form).",
    box_close: "The box thinks: close, but check it.",
    box_no: "The box thinks: not the word.",
    said: "Did {name} say the word?",
    right: "Right!",
    wrong: "Wrong",
    hints: "Hints (the only comments allowed)",
    hint_almost: "Well, almost",
    hint_not_bad: "Not bad",
    hint_not_at_all: "Not at all",
    hint_from: "{name}: “{hint}”",
    give_up: "Give up this word",
    give_up_title: "Give up this word? Everyone must agree.",
    give_up_agreed: "Agreed: {names}",
    agree: "Yes, give up",
    refuse: "No, play on",
    you_agreed: "You agreed. Waiting for the others…",
    guessed: "Guessed: “{word}”",
    given_up: "Given up: “{word}”",
    not_guessed: "Not guessed: “{word}”",
    burned: "One more sheet goes back to the box.",
    next: "Next round",
    over: "Game over",
    art_show: "Art show",
    result_guessed: "guessed",
    result_given_up: "given up",
    result_unfinished: "not guessed",
    nobody: "nobody yet",
    watch_critic: "Art Critic:",
    watch_guess: "{name} guesses the word.",
    watch_mark: "An Artist marks {name}'s guess.",
    panel_sheet: "{name} draws sheet {n} on the table's screen:",
  },
  cs: {
    round: "Kolo {n}",
    sheets: "Fólie {used} / {total}",
    score_one: "{n} uhodnuté slovo",
    score_few: "{n} uhodnutá slova",
    score_other: "{n} uhodnutých slov",
    you_critic: "Jsi kritik umění: nedívej se umělcům do telefonů!",
    you_artist: "Jsi umělec. Kritik umění:",
    name_number: "Řekni číslo",
    name_hint: "Vybere slovo z karty, kterou vidí umělci.",
    refused_hint: "Umělec požádal o jiné číslo.",
    wait_number: "{name} vybírá číslo…",
    card: "Karta",
    word: "Kreslíme: „{word}“",
    word_plain: "Slovo: „{word}“",
    quoted: "„{word}“",
    ask_other: "Tohle slovo neznám: požádat o jiné číslo",
    your_turn: "Tvoje fólie: 2 rovné čáry nebo 1 křivka",
    place: "Položit fólii na stojan",
    ask_vote: "Požádat umělce, ať ji přijmou",
    vote_lost: "Umělci ponechali verdikt kontroly: fólii změň.",
    to_panel: "Kreslit raději na obrazovce stolu",
    on_panel: "Teď kreslíš na obrazovce stolu.",
    to_phone: "Kreslit raději na telefonu",
    drawing_other: "{name} kreslí {n}. fólii…",
    drawing_critic: "{name} kreslí {n}. fólii. Sleduj stojan.",
    easel: "Stojan",
    empty_easel: "Na stojanu zatím není žádná fólie.",
    paper_sheet: "Fólie {n}: {name} kreslí na papír u stolu.",
    vote_title: "Přijmout i tak fólii od hráče {name}?",
    vote_hint: "Krabice ji odmítla: {reason}",
    accept: "Ano, přijmout",
    reject: "Ne, kreslit znovu",
    voted: "Tvůj hlas je odeslán. Čeká se na ostatní umělce…",
    wait_vote: "Umělci hlasují o odmítnuté fólii…",
    guesses_left_one: "Na této fólii zbývá 1 pokus",
    guesses_left_few: "Na této fólii zbývají {n} pokusy",
    guesses_left_other: "Na této fólii zbývá {n} pokusů",
    last_chance: "Poslední fólie: poslední šance hry!",
    say_guess: "Řekni tip nahlas, nebo ho napiš:",
    guess_label: "Tvůj tip",
    send_guess: "Poslat",
    pass: "Na této fólii už nehádám",
    wait_mark: "Čeká se, až umělec označí „{text}“…",
    wait_mark_aloud: "Umělec tvůj tip označí.",
    typed: "Psaný tip – {name}: „{text}“",
    box_match: "Krabice si myslí: to je ono slovo (v nějakém tvaru).",
    box_close: "Krabice si myslí: blízko, ale ověř to.",
    box_no: "Krabice si myslí: to slovo to není.",
    said: "{name}: padlo to slovo?",
    right: "Správně!",
    wrong: "Špatně",
    hints: "Nápovědy (jediné povolené komentáře)",
    hint_almost: "No, skoro",
    hint_not_bad: "Není to špatné",
    hint_not_at_all: "Vůbec ne",
    hint_from: "{name}: „{hint}“",
    give_up: "Vzdát toto slovo",
    give_up_title: "Vzdát toto slovo? Souhlasit musí všichni.",
    give_up_agreed: "Souhlasí: {names}",
    agree: "Ano, vzdát",
    refuse: "Ne, hrajeme dál",
    you_agreed: "Tvůj souhlas je odeslán. Čeká se na ostatní…",
    guessed: "Uhodnuto: „{word}“",
    given_up: "Vzdáno: „{word}“",
    not_guessed: "Neuhodnuto: „{word}“",
    burned: "Jedna fólie navíc se vrací do krabice.",
    next: "Další kolo",
    over: "Konec hry",
    art_show: "Výstava",
    result_guessed: "uhodnuto",
    result_given_up: "vzdáno",
    result_unfinished: "neuhodnuto",
    nobody: "zatím nikdo",
    watch_critic: "Kritik umění:",
    watch_guess: "{name} hádá slovo.",
    watch_mark: "Umělec vyhodnotí tip – {name}.",
    panel_sheet: "{name} kreslí {n}. fólii na obrazovce stolu:",
  },
};

const HINTS = ["almost", "not_bad", "not_at_all"];

// --- module state (one Broad Lines screen at a time) ----------------------------------------

const S = {
  root: null,
  head: null,
  body: null,
  layout: null,
  ctx: null,
  view: null,
  pad: null,      // the drawing pad while this phone draws a sheet
  padKey: null,   // which sheet the pad is for (round, sheet number)
  draw: null,     // the drawer's check line and buttons, patched in place
  timer: null,
};

const { lang, nameOf, chipOf, local, button, enable, wakeButtons } = gameKit(S, "broad", "bl-timer");

/** A sentence of this screen in the phone's language, `{name}` filled from `params`. */
function tr(key, params = {}) {
  const table = STRINGS[lang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/** `key_one`, `key_few` (Czech 2-4) or `key_other` by the count. */
function trn(key, n, params = {}) {
  const form = n === 1 ? "one" : lang() === "cs" && n >= 2 && n <= 4 ? "few" : "other";
  const table = STRINGS[lang()] || STRINGS.en;
  return tr(table[`${key}_${form}`] !== undefined ? `${key}_${form}` : `${key}_other`, { n, ...params });
}

// --- reading the view -------------------------------------------------------------------------

function roleOf(st, me) {
  if (me === null || me === undefined || (S.ctx && S.ctx.watching)) return "watcher";
  if (me === st.critic) return "critic";
  if (me === st.artist) return "drawer";
  return "artist";
}

function easelStrokes(st) {
  const all = [];
  for (const sheet of Array.isArray(st.easel) ? st.easel : []) {
    for (const s of Array.isArray(sheet.strokes) ? sheet.strokes : []) all.push(s);
  }
  return all;
}

function layoutOf(st, role) {
  const sheet = Array.isArray(st.easel) ? st.easel.length : 0;
  switch (st.phase) {
    case "choose": return `choose-${role === "critic" ? "critic" : "other"}`;
    case "drawing":
      if (role === "drawer") return st.panel ? "draw-panel" : `draw-${sheet}`;
      return `drawing-${role === "critic" ? "critic" : "other"}-${sheet}`;
    case "vote": return `vote-${role === "critic" || role === "watcher" ? "wait" : "artist"}`;
    case "guessing": return `guess-${role === "critic" ? "critic" : role === "watcher" ? "watch" : "artist"}-${sheet}`;
    default: return st.phase || "none";
  }
}

// --- building blocks --------------------------------------------------------------------------

function headCard() {
  const el = h("section", { class: "card bl-head" });
  return {
    el,
    update(st) {
      const role = roleOf(st, S.ctx.me);
      const score = Number(st.score) || 0;
      patch(el, [st.round, st.sheets_used, st.sheets_total, score, st.critic, nameOf(st.critic), role, st.phase, lang()], () => [
        h("p", { class: "muted small" },
          tr("round", { n: st.round }), " · ", tr("sheets", { used: st.sheets_used, total: st.sheets_total }),
          " · ", trn("score", score)),
        st.phase === "over" ? null
          : role === "critic"
            ? h("p", { class: "bl-role is-critic" }, tr("you_critic"))
            : h("p", { class: "bl-role" }, tr(role === "watcher" ? "watch_critic" : "you_artist"), " ", chipOf(st.critic)),
      ]);
    },
  };
}

function easelCard(st) {
  const strokes = easelStrokes(st);
  const sheets = Array.isArray(st.easel) ? st.easel : [];
  // A sheet drawn on paper (a player without a phone): the box has none of its lines.
  const paper = sheets.map((s, i) => s && s.paper === true
    ? h("p", { class: "muted" }, tr("paper_sheet", { n: i + 1, name: nameOf(s.artist) })) : null);
  return h("section", { class: "card bl-easel" },
    h("h3", {}, tr("easel")),
    strokes.length ? sheetElement(strokes, tr("easel"))
      : sheets.length ? null : h("p", { class: "muted" }, tr("empty_easel")),
    ...paper);
}

function wordLine(st, key = "word") {
  return st.word ? h("p", { class: "bl-word", "data-word": "" }, tr(key, { word: local(st.word) })) : null;
}

/** The proposal to give up (or the button to make one) for a round under way. */
function giveUpCard(st) {
  const el = h("section", { class: "card bl-give-up" });
  const me = S.ctx.me;
  const proposal = st.give_up;
  if (!proposal) {
    fill(el, button(tr("give_up"), () => S.ctx.act("propose_give_up"), "btn-quiet btn-block", { "data-act": "give-up" }));
    return el;
  }
  const agreed = Array.isArray(proposal.agreed) ? proposal.agreed : [];
  const names = agreed.map((s) => nameOf(s)).join(", ") || tr("nobody");
  fill(el,
    h("p", { class: "lead" }, tr("give_up_title")),
    h("p", { class: "muted small" }, tr("give_up_agreed", { names })),
    agreed.includes(me)
      ? h("p", {}, tr("you_agreed"))
      : button(tr("agree"), () => S.ctx.act("agree_give_up"), "btn-primary btn-block", { "data-act": "agree-give-up" }),
    button(tr("refuse"), () => S.ctx.act("refuse_give_up"), "btn-quiet btn-block", { "data-act": "refuse-give-up" }));
  return el;
}

function hintLine(st) {
  if (!st.hint) return null;
  return h("p", { class: "bl-hint", "aria-live": "polite" },
    tr("hint_from", { name: nameOf(st.hint.seat), hint: local(st.hint) }));
}

function hintButtons() {
  return h("div", { class: "bl-hints" },
    h("p", { class: "muted small" }, tr("hints")),
    h("div", { class: "row" }, HINTS.map((kind) =>
      button(tr(`hint_${kind}`), () => S.ctx.act("hint", { hint: kind }), "btn-quiet btn-small", { "data-act": `hint-${kind}` }))));
}

// --- the screens --------------------------------------------------------------------------------

function screenChoose(st, role) {
  if (role !== "critic") {
    const card = Array.isArray(st.card) ? st.card : null;
    return [
      h("section", { class: "card stack" },
        waiting(tr("wait_number", { name: nameOf(st.critic) })),
        Array.isArray(st.refused) && st.refused.length ? h("p", { class: "muted" }, tr("refused_hint")) : null),
      card ? h("section", { class: "card bl-card" }, h("h3", {}, tr("card")),
        h("ol", {}, card.map((w, i) => h("li", { class: (st.refused || []).includes(i + 1) ? "is-refused" : "" }, local(w))))) : null,
    ];
  }
  const refused = new Set(Array.isArray(st.refused) ? st.refused : []);
  return [h("section", { class: "card stack center" },
    h("h2", {}, tr("name_number")),
    h("p", { class: "muted" }, tr("name_hint")),
    refused.size ? h("p", { class: "bl-note" }, tr("refused_hint")) : null,
    h("div", { class: "bl-numbers" }, [1, 2, 3, 4, 5, 6].map((n) => {
      const b = button(String(n), () => S.ctx.act("name_number", { number: n }), "btn-primary bl-number", { "data-act": `number-${n}` });
      if (refused.has(n)) b.disabled = true;
      return b;
    })))];
}

function ensurePad(st) {
  const key = `${st.round}|${(st.easel || []).length}`;
  if (S.pad && S.padKey === key) return S.pad;
  dropPad();
  S.pad = createCanvas({
    onStroke: (stroke) => S.ctx.act("stroke", stroke),
    onUndo: () => S.ctx.act("undo"),
    onClear: () => S.ctx.act("clear"),
  });
  S.padKey = key;
  return S.pad;
}

function checkLine(st) {
  if (!st.check_sheets || !st.check) return null;
  const reason = lang() === "cs" ? st.check.reason_cs : st.check.reason_en;
  return h("p", { class: `bl-check ${st.check.legal ? "is-ok" : "is-refused"}`, "data-check": st.check.legal ? "ok" : "refused" }, reason || "");
}

function screenDraw(st) {
  const pad = ensurePad(st);
  const check = h("div", { class: "bl-check-box", "aria-live": "polite" });
  const place = button(tr("place"), () => S.ctx.act("place"), "btn-primary btn-block", { "data-act": "place" });
  const askVote = button(tr("ask_vote"), () => S.ctx.act("accept_vote", { accept: true }), "btn-quiet btn-block", { "data-act": "ask-vote" });
  S.draw = { check, place, askVote };
  return [
    h("section", { class: "card stack bl-draw" },
      wordLine(st),
      h("h3", {}, tr("your_turn")),
      pad.el,
      check,
      place,
      askVote,
      button(tr("to_panel"), () => S.ctx.act("use_panel", { on: true }), "btn-quiet btn-block", { "data-act": "use-panel" }),
      (st.easel || []).length === 0
        ? button(tr("ask_other"), () => S.ctx.act("ask_other"), "btn-quiet btn-block", { "data-act": "ask-other" })
        : null),
  ];
}

/** The drawer's sheet changed (a stroke, an undo): the pad, the check and the buttons. */
function updateDraw(st) {
  if (!S.pad || !S.draw) return;
  const drawn = Array.isArray(st.drawing) ? st.drawing : [];
  S.pad.sync(drawn);
  const legal = !st.check_sheets || Boolean(st.check && st.check.legal);
  patch(S.draw.check, [st.check, st.vote_lost, lang()], () => [
    checkLine(st),
    st.vote_lost ? h("p", { class: "muted small" }, tr("vote_lost")) : null,
  ]);
  enable(S.draw.place, drawn.length > 0 && legal);
  S.draw.askVote.hidden = !(drawn.length > 0 && !legal && !st.vote_lost);
  enable(S.draw.askVote, !S.draw.askVote.hidden);
}

function screenDrawPanel(st) {
  return [h("section", { class: "card stack center" },
    wordLine(st),
    h("p", { class: "lead" }, tr("on_panel")),
    button(tr("to_phone"), () => S.ctx.act("use_panel", { on: false }), "btn-primary btn-block", { "data-act": "use-phone" }))];
}

function screenDrawing(st, role) {
  const n = (st.easel || []).length + 1;
  const who = nameOf(st.artist);
  return [
    h("section", { class: "card stack" },
      role === "critic" || role === "watcher" ? null : wordLine(st),
      waiting(tr(role === "critic" ? "drawing_critic" : "drawing_other", { name: who, n })),
      role === "artist" && (st.easel || []).length === 0
        ? button(tr("ask_other"), () => S.ctx.act("ask_other"), "btn-quiet btn-block", { "data-act": "ask-other" })
        : null,
      hintLine(st),
      role === "artist" && (st.guesses || []).length ? hintButtons() : null),
    // Drawn on the table's screen: its sheet is public, as the kiosk shows it.
    role === "watcher" && st.panel && Array.isArray(st.drawing)
      ? h("section", { class: "card stack" }, h("p", { class: "muted small" }, tr("panel_sheet", { name: who, n })),
        sheetElement(st.drawing, tr("easel")))
      : null,
    easelCard(st),
  ];
}

function screenVote(st, role) {
  if (role === "critic" || role === "watcher") {
    return [h("section", { class: "card" }, waiting(tr("wait_vote"))), easelCard(st)];
  }
  const voted = (st.votes || []).includes(S.ctx.me);
  const reason = st.check ? (lang() === "cs" ? st.check.reason_cs : st.check.reason_en) : "";
  return [h("section", { class: "card stack" },
    h("h2", {}, tr("vote_title", { name: nameOf(st.artist) })),
    h("p", { class: "muted" }, tr("vote_hint", { reason })),
    sheetElement(Array.isArray(st.drawing) ? st.drawing : []),
    voted ? waiting(tr("voted")) : h("div", { class: "row" },
      button(tr("accept"), () => S.ctx.act("accept_vote", { accept: true }), "btn-primary", { "data-act": "accept" }),
      button(tr("reject"), () => S.ctx.act("accept_vote", { accept: false }), "btn-quiet", { "data-act": "reject" })))];
}

function guessesLine(st) {
  return h("p", { class: "bl-left" },
    trn("guesses_left", Number(st.guesses_left) || 0),
    st.last_chance ? h("strong", { class: "bl-last" }, " · ", tr("last_chance")) : null);
}

function lastGuess(st) {
  const list = Array.isArray(st.guesses) ? st.guesses : [];
  return list.length ? list[list.length - 1] : null;
}

function screenGuessCritic(st) {
  const pending = st.pending ? lastGuess(st) : null;
  if (pending) {
    return [h("section", { class: "card stack" }, guessesLine(st),
      waiting(pending.text ? tr("wait_mark", { text: pending.text }) : tr("wait_mark_aloud"))), easelCard(st)];
  }
  const input = h("input", { type: "text", maxlength: "40", class: "bl-guess-input", "data-act": "guess-text", autocomplete: "off", "aria-label": tr("guess_label"), placeholder: tr("guess_label") });
  const send = button(tr("send_guess"), () => {
    const text = input.value.trim();
    if (text) S.ctx.act("guess", { text });
  }, "btn-primary", { "data-act": "send-guess" });
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") send.click(); });
  // The easel above the guess: a phone's keyboard scrolls the field to the bottom of a
  // small screen, and what is guessed must stay in sight over it.
  return [
    easelCard(st),
    h("section", { class: "card stack" },
      guessesLine(st),
      h("p", {}, tr("say_guess")),
      h("div", { class: "row bl-guess" }, input, send),
      hintLine(st),
      button(tr("pass"), () => S.ctx.act("pass"), "btn-quiet btn-block", { "data-act": "pass" })),
  ];
}

function screenGuessArtist(st) {
  const last = lastGuess(st);
  const pending = st.pending && last;
  const opinion = pending && last.opinion ? tr(`box_${last.opinion}`) : null;
  return [
    h("section", { class: "card stack" },
      wordLine(st, "word_plain"),
      guessesLine(st),
      pending && last.text
        ? h("p", { class: "lead" }, tr("typed", { name: nameOf(st.critic), text: last.text }))
        : h("p", { class: "lead" }, tr("said", { name: nameOf(st.critic) })),
      opinion ? h("p", { class: `bl-opinion is-${last.opinion}`, "data-opinion": last.opinion }, opinion) : null,
      h("div", { class: "row" },
        button(tr("right"), () => S.ctx.act("mark", { right: true }), "btn-primary", { "data-act": "mark-right" }),
        button(tr("wrong"), () => S.ctx.act("mark", { right: false }), "btn-danger", { "data-act": "mark-wrong" })),
      hintLine(st),
      (st.guesses || []).length ? hintButtons() : null),
    easelCard(st),
  ];
}

/** A watcher while the Critic guesses: the guesses left, the guess being marked, the
 * hint, the easel; no word (the kiosk shows none before the reveal). */
function screenGuessWatch(st) {
  const pending = st.pending ? lastGuess(st) : null;
  return [
    h("section", { class: "card stack" },
      guessesLine(st),
      pending
        ? waiting(pending.text ? tr("wait_mark", { text: pending.text }) : tr("watch_mark", { name: nameOf(st.critic) }))
        : waiting(tr("watch_guess", { name: nameOf(st.critic) })),
      hintLine(st)),
    easelCard(st),
  ];
}

function screenReveal(st, role) {
  const key = st.result === "guessed" ? "guessed" : st.result === "given_up" ? "given_up" : "not_guessed";
  return [
    h("section", { class: "card stack center" },
      h("h2", { class: "bl-result", "data-result": st.result || "" }, tr(key, { word: local(st.word) })),
      st.burned ? h("p", { class: "muted" }, tr("burned")) : null,
      role === "watcher" ? null
        : button(tr("next"), () => S.ctx.act("next"), "btn-primary btn-block", { "data-act": "next" })),
    easelCard(st),
  ];
}

function screenOver(st) {
  const rounds = Array.isArray(st.art_show) ? st.art_show : [];
  return [
    h("section", { class: "card stack center" },
      h("h2", {}, tr("over")),
      h("p", { class: "bl-rating lead" }, local(st.rating)),
      h("p", { class: "muted" }, trn("score", Number(st.score) || 0))),
    h("section", { class: "card" }, h("h3", {}, tr("art_show")),
      h("div", { class: "bl-gallery" }, rounds.map((r) => {
        const strokes = [];
        for (const sheet of r.sheets || []) for (const s of sheet.strokes || []) strokes.push(s);
        return h("figure", { class: "bl-piece" }, sheetElement(strokes, local(r.word)),
          h("figcaption", {}, h("strong", {}, tr("quoted", { word: local(r.word) })), " · ",
            tr(`result_${r.result}`)));
      }))),
  ];
}

function build(st, role) {
  const under = ["drawing", "vote", "guessing"].includes(st.phase) && role !== "watcher";
  let parts;
  switch (st.phase) {
    case "choose": parts = screenChoose(st, role); break;
    case "drawing":
      if (role === "drawer") parts = st.panel ? screenDrawPanel(st) : screenDraw(st);
      else parts = screenDrawing(st, role);
      break;
    case "vote": parts = screenVote(st, role); break;
    case "guessing": parts = role === "critic" ? screenGuessCritic(st) : role === "watcher" ? screenGuessWatch(st) : screenGuessArtist(st); break;
    case "reveal": parts = screenReveal(st, role); break;
    case "over": parts = screenOver(st); break;
    default: parts = [h("section", { class: "card" }, waiting("…"))];
  }
  // While a proposal to give up is open it comes first: nothing else moves until answered.
  const giveUp = under ? giveUpCard(st) : null;
  return st.give_up && giveUp ? [giveUp, ...parts] : [...parts, giveUp];
}

function dropPad() {
  if (S.pad) S.pad.destroy();
  S.pad = null;
  S.padKey = null;
  S.draw = null;
}

function render(root, view, ctx) {
  S.ctx = ctx;
  S.view = view;
  const st = (view.match && view.match.state) || {};
  const role = roleOf(st, ctx.me);
  if (S.root !== root || !S.head || !root.contains(S.head.el)) {
    S.root = root;
    S.head = headCard();
    S.body = h("div", { class: "bl-body" });
    fill(root, h("div", { class: "broad-lines" }, S.head.el, S.body));
    S.layout = null;
  }
  S.head.update(st);
  // Rebuilt when anything shown changes. While this phone draws, its sheet's strokes and
  // check are patched in place instead: the pad (and a stroke in progress) survives.
  const drawingHere = st.phase === "drawing" && role === "drawer" && !st.panel;
  // The page's drawing layout (style.css, duplik.css): upright, the page's heading gives
  // way and the tools stay on screen; sideways, the sheet takes the screen. Without it a
  // 360x640 phone scrolled between the sheet and its Place button.
  document.body.classList.toggle("is-drawing", drawingHere);
  const key = JSON.stringify([layoutOf(st, role), role, st.round, lang(), st.give_up, st.pending,
    (st.guesses || []).length, st.hint && st.hint.serial, st.votes, st.result, st.refused,
    st.card ? 1 : 0, st.word ? 1 : 0,
    drawingHere ? null : [st.check, (st.drawing || []).length]]);
  if (!drawingHere && S.pad) dropPad();
  if (key !== S.layout) {
    S.layout = key;
    if (!drawingHere) S.draw = null;
    fill(S.body, build(st, role));
  }
  if (drawingHere) updateDraw(st);
  wakeButtons();
  if (!S.timer) S.timer = setInterval(wakeButtons, 500);
}

function dispose() {
  document.body.classList.remove("is-drawing");
  dropPad();
  if (S.timer) clearInterval(S.timer);
  S.timer = null;
  S.root = null;
  S.head = null;
  S.layout = null;
}

// Played together: no seat has a score of its own (seatScore null).
registerGameScreen("broad-lines", { render, dispose, seatScore: () => null });

// The look of these screens lives beside this module (style.css stays the frame's).
if (!document.querySelector("link[data-broad-lines-css]")) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/broad_lines.css", "data-broad-lines-css": "" }));
}
