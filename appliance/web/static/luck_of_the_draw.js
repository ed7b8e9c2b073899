// Luck of the Draw on the phones: one screen per phase (docs/luck-of-the-draw.md).
//
// Everyone sees the Subject card and may roll the die and turn the hourglass (the table's
// buttons do the same); everyone draws on one sheet (canvas.js) and hands it in; the
// drawings come back as an anonymous gallery with coloured chips; each Category card is
// voted on secretly with a wheel of the chips (one's own drawing allowed), the votes are
// revealed at once, and at the round's end the owners and the cards are shown.
//
// The page is rebuilt only when the layout changes (phase, round, category...); otherwise
// each part is patched when its own content changes: a view can arrive at any moment, and
// rebuilding a button between a finger's down and up would swallow the tap, rebuilding
// the canvas would wipe a stroke being drawn. Names and texts reach the page only as
// text (ui.js `h`): no markup is ever parsed.

import { registerGameScreen } from "./games.js";
import { czechCounts } from "./i18n.js";
import { createCanvas, sheetElement } from "./canvas.js";
import { gameKit, patch, roundFold, seatsOf, waiting } from "./kit.js";
import { fill, h } from "./ui.js";

const GAME = "luck-of-the-draw";

// The phone's sentences for this game (the box picks the language).
const STRINGS = {
  en: {
    round: "Round {n}",
    goal: "First to {n} cards",
    your_cards: "Your cards: {n}",
    subject_card: "Subject card",
    roll_subject: "Roll the die",
    roll_hint: "The die picks which subject everyone draws.",
    wait_roll: "Anyone can roll: here, on the big screen or with the DIE button.",
    draw_this: "Everyone draws:",
    turn: "Turn the hourglass",
    turn_hint: "Turn it when everyone is ready: {s} seconds.",
    draw_hint: "Draw: {subject}",
    // The rules: "There are no restrictions as to what can or cannot be drawn."
    anything_goes: "Draw it however you like — there are no restrictions.",
    done: "Done",
    done_confirm: "Hand your drawing in? You can't change it afterwards.",
    done_yes: "Hand it in",
    done_no: "Keep drawing",
    handed_in: "Handed in face down. Waiting for the others…",
    your_drawing: "Your drawing",
    gallery: "The drawings",
    yours: "yours",
    roll_categories: "Roll for the categories",
    categories_hint: "The die says how many Category cards are voted on this round.",
    category: "Category {n} of {total}",
    vote_title: "Which drawing fits best?",
    wheel: "Turn your wheel to a chip",
    your_vote: "Your vote: {chip}",
    no_vote: "You haven't voted yet.",
    own_ok: "You may vote for your own drawing — if it truly deserves it!",
    voted_one: "{n} of {total} has voted",
    voted_other: "{n} of {total} have voted",
    nothing_fits: "Nothing fits",
    nothing_fits_on: "You say nothing fits ({n} of {total} agree)",
    nothing_fits_hint: "If everyone agrees, another Category card is drawn.",
    reveal: "Reveal the votes",
    wait_reveal: "Waiting for everyone to vote…",
    closed: "The vote is closed.",
    wins: "{chip} wins the card!",
    tie: "A tie! Each tied drawing gets a half card; the category goes back in the box.",
    votes_one: "{n} vote",
    votes_other: "{n} votes",
    secret_winners: "Whose drawing won stays secret until the last category.",
    next_category: "Next category",
    show_owners: "Whose are they?",
    whose: "Whose drawing was whose",
    next_round: "Next round",
    scores: "Cards",
    player: "Player",
    this_round: "This round",
    total: "Total",
    winner: "The winner:",
    half: "½",
    follow: "Watch the big screen.",
    watch_roll: "The die picks which subject everyone draws.",
    sit_out: "You sit this round out (your seat was free when it began); you play from the next.",
    watch_ready: "Everyone gets ready; the hourglass turns next.",
    watch_done_one: "{n} of {total} has handed in",
    watch_done_other: "{n} of {total} have handed in",
    watch_categories: "The die says how many Category cards are voted on.",
    watch_vote: "The players vote for the drawing that fits best.",
    art_show: "Art show of the whole game",
    art_show_round: "Round {n}: {subject}",
  },
  cs: {
    round: "Kolo {n}",
    goal: "Vyhrává {n} karet",
    your_cards: "Tvoje karty: {n}",
    subject_card: "Karta námětů",
    roll_subject: "Hodit kostkou",
    roll_hint: "Kostka vybere, který námět budou kreslit všichni.",
    wait_roll: "Házet může kdokoli: tady, na velké obrazovce nebo tlačítkem KOSTKA.",
    draw_this: "Všichni kreslí:",
    turn: "Otočit přesýpací hodiny",
    turn_hint: "Otoč je, až budou všichni připraveni: {s} sekund.",
    draw_hint: "Kresli: {subject}",
    anything_goes: "Nakresli to, jak chceš — žádná omezení nejsou.",
    done: "Hotovo",
    done_confirm: "Odevzdat obrázek? Pak už ho nezměníš.",
    done_yes: "Odevzdat",
    done_no: "Kreslit dál",
    handed_in: "Odevzdáno lícem dolů. Čekáme na ostatní…",
    your_drawing: "Tvůj obrázek",
    gallery: "Obrázky",
    yours: "tvůj",
    roll_categories: "Hodit o kategorie",
    categories_hint: "Kostka určí, o kolika kartách kategorií se v tomto kole hlasuje.",
    category: "Kategorie {n} z {total}",
    vote_title: "Který obrázek sedí nejlépe?",
    wheel: "Otoč kolečko na žeton",
    your_vote: "Tvůj hlas: {chip}",
    no_vote: "Tvůj hlas ještě chybí.",
    own_ok: "Můžeš hlasovat i pro svůj obrázek — pokud si to opravdu zaslouží!",
    voted_one: "Hlasoval {n} z {total}",
    voted_few: "Hlasovali {n} z {total}",
    voted_other: "Hlasovalo {n} z {total}",
    nothing_fits: "Nic nesedí",
    nothing_fits_on: "Podle tebe nic nesedí (souhlasí {n} z {total})",
    nothing_fits_hint: "Když budou souhlasit všichni, táhne se jiná karta kategorie.",
    reveal: "Odhalit hlasy",
    wait_reveal: "Čekáme, až všichni zahlasují…",
    closed: "Hlasování je uzavřené.",
    wins: "{chip} vyhrává kartu!",
    tie: "Remíza! Každý obrázek v remíze dostane půl karty; kategorie jde zpět do krabice.",
    votes_one: "{n} hlas",
    votes_few: "{n} hlasy",
    votes_other: "{n} hlasů",
    secret_winners: "Čí obrázek vyhrál, zůstane tajné až do poslední kategorie.",
    next_category: "Další kategorie",
    show_owners: "Čí jsou?",
    whose: "Kdo co nakreslil",
    next_round: "Další kolo",
    scores: "Karty",
    player: "Hráč",
    this_round: "Toto kolo",
    total: "Celkem",
    winner: "Vítěz:",
    half: "½",
    follow: "Sleduj velkou obrazovku.",
    watch_roll: "Kostka vybere téma, které kreslí všichni.",
    sit_out: "Toto kolo vynecháváš (tvé místo bylo volné); hraješ od dalšího.",
    watch_ready: "Všichni se chystají; pak se otočí přesýpací hodiny.",
    watch_done_one: "Odevzdáno: {n} z {total}",
    watch_done_few: "Odevzdali {n} z {total}",
    watch_done_other: "Odevzdalo {n} z {total}",
    watch_categories: "Kostka určí, o kolika kartách kategorií se hlasuje.",
    watch_vote: "Hráči hlasují, která kresba se hodí nejlíp.",
    art_show: "Výstava celé hry",
    art_show_round: "Kolo {n}: {subject}",
  },
};

// --- module state (one screen at a time) ------------------------------------------------

const S = {
  root: null,
  layout: null,
  parts: null,
  ctx: null,
  view: null,
  pad: null,
  timer: null,
};

const kit = gameKit(S, GAME, "ld-timer");
const { lang, nameOf, chipOf, local, button, enable, voteCloser } = kit;

function tr(key, params) {
  const table = STRINGS[lang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return S.ctx ? S.ctx.t(`${GAME}.${key}`, params) : key;
  if (!params) return template;
  const said = template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
  return lang() === "cs" ? czechCounts(said) : said;
}

/** `key_one`, `key_few` (Czech 2-4) or `key_other` by the count. */
function trn(key, n, params = {}) {
  const form = n === 1 ? "one" : lang() === "cs" && n >= 2 && n <= 4 ? "few" : "other";
  const table = STRINGS[lang()] || STRINGS.en;
  const chosen = table[`${key}_${form}`] !== undefined ? `${key}_${form}` : `${key}_other`;
  return tr(chosen, { n, ...params });
}

// --- reading the view ---------------------------------------------------------------------

function halvesText(halves) {
  const whole = Math.floor(halves / 2);
  const half = halves % 2 === 1;
  if (half) return whole ? `${whole}½` : "½";
  return String(whole);
}

function myHalves(st) {
  const me = String(S.ctx.me);
  return 2 * Number((st.cards || {})[me] || 0) + Number((st.halves || {})[me] || 0);
}

function chipName(entry) {
  return entry ? local({ en: entry.en, cs: entry.cs }) : "?";
}

function galleryChip(st, id) {
  return (st.gallery || []).find((e) => e.chip === id) || null;
}

// --- small building blocks -----------------------------------------------------------------

function countdown() {
  return h("div", { class: "ld-timer", role: "timer", "aria-live": "off" },
    h("span", { class: "ld-timer-time" }, "–:––"),
    h("span", { class: "ld-timer-bar", "aria-hidden": "true" }, h("span")));
}

function dot(colour, big = false) {
  return h("span", { class: `ld-chip${big ? " ld-chip-big" : ""}`, style: { "--c": colour }, "aria-hidden": "true" });
}

function chipLabel(entry) {
  return h("span", { class: "ld-chip-label" }, dot(entry ? entry.colour : "#888888"), chipName(entry));
}

function pips(n) {
  return h("span", { class: `ld-die ld-die-${n}`, "aria-hidden": "true" },
    Array.from({ length: Math.max(0, Math.min(3, n || 0)) }, () => h("i")));
}

function subjectCard(st) {
  const card = st.subject_card || {};
  return h("section", { class: "card ld-subject" },
    h("p", { class: "ld-caption" }, tr("subject_card"), card.number ? ` ${card.number}` : ""),
    h("ol", { class: "ld-subjects" }, (card.subjects || []).map((s) =>
      h("li", { class: `ld-subject-row${st.subject === s.number ? " is-chosen" : st.subject ? " is-dim" : ""}` },
        pips(s.number), h("span", {}, local(s))))));
}

function subjectText(st) {
  const s = ((st.subject_card || {}).subjects || []).find((x) => x.number === st.subject);
  return s ? local(s) : "?";
}

/** The gallery: every drawing with its chip (and, at the round's end, its owner). */
function galleryEl(st, { votes = null, owners = false, won = null } = {}) {
  const mine = st.my_chip;
  return h("div", { class: "ld-gallery" }, (st.gallery || []).map((e) => {
    const owner = owners && Number.isInteger(e.owner) ? e.owner : null;
    const count = votes ? votes.get(e.chip) || 0 : null;
    const cards = won ? won.get(e.chip) || [] : [];
    return h("figure", { class: `ld-tile${e.chip === mine ? " is-mine" : ""}`, dataset: { chip: e.chip } },
      h("div", { class: "ld-tile-sheet" }, sheetElement(e.strokes || [], chipName(e)), dot(e.colour, true)),
      h("figcaption", {},
        owner !== null ? chipOf(owner) : chipLabel(e),
        e.chip === mine && owner === null ? h("span", { class: "ld-tag" }, tr("yours")) : null,
        count !== null ? h("span", { class: "ld-count" }, trn("votes", count)) : null,
        cards.length ? h("span", { class: "ld-won" }, cards.join(" · ")) : null));
  }));
}

/** The Category cards a round's verdicts laid under each chip ("½ …" for a tie). */
function wonByChip(verdicts) {
  const won = new Map();
  for (const v of verdicts || []) {
    const leaders = v.leaders || [];
    for (const chip of leaders) {
      const label = leaders.length > 1 ? `${tr("half")} ${local(v.category)}` : local(v.category);
      won.set(chip, [...(won.get(chip) || []), label]);
    }
  }
  return won;
}

/** The finish: every round's drawings with their subject, artists and cards, newest first;
 * the newest open, the others a line each to open (a phone's page stays a few screens long). */
function artShowEl(st) {
  const shows = Array.isArray(st.art_show) ? st.art_show : [];
  const show = JSON.stringify(shows.map((round) => [round.round, round.subject]));
  return h("section", { class: "card stack ld-artshow" }, h("h2", {}, tr("art_show")),
    shows.slice().reverse().map((round, i) => h("details", { class: "ld-show-round", ...roundFold(show, round.round, i === 0), dataset: { round: String(round.round) } },
      h("summary", {}, h("h3", {}, tr("art_show_round", { n: round.round, subject: local(round.subject) || "?" }))),
      galleryEl({ gallery: round.gallery }, { owners: true, won: wonByChip(round.verdicts) }))));
}

function galleryKey(st) {
  return (st.gallery || []).map((e) => [e.chip, (e.strokes || []).length, e.owner ?? null]);
}

// --- the frame of every phase: round, goal, my cards --------------------------------------

function headCard() {
  const el = h("section", { class: "card ld-head" });
  return {
    el,
    update(view, st) {
      const halves = myHalves(st);
      const out = sittingOut(st);
      patch(el, [st.round, st.target, halves, out, lang()], () => [
        h("div", { class: "ld-head-row" },
          h("strong", { class: "ld-round" }, tr("round", { n: st.round })),
          h("span", { class: "muted small" }, tr("goal", { n: st.target }))),
        S.ctx.me != null ? h("p", { class: "ld-mycards" }, tr("your_cards", { n: halvesText(halves) })) : null,
        out ? h("p", { class: "ld-sit-out small", "data-sit-out": "" }, tr("sit_out")) : null,
      ]);
    },
  };
}

// --- subject, ready, drawing ---------------------------------------------------------------

/** Whether this phone watches (ctx.watching), or its seat sits this round out (taken over
 * mid-round: the rules let it play from the next): the public table, no control. */
function watching() {
  return Boolean(S.ctx && S.ctx.watching) || sittingOut(S.view && S.view.match && S.view.match.state);
}

function sittingOut(st) {
  const me = S.ctx && S.ctx.me;
  return me != null && Boolean(st) && Array.isArray(st.out) && st.out.includes(me);
}

function screenSubject(st) {
  if (watching()) {
    const el = h("div", { class: "ld-stack" }, subjectCard(st),
      h("section", { class: "card stack center" }, waiting(tr("watch_roll"))));
    return { el, update() {} };
  }
  const roll = button(tr("roll_subject"), () => S.ctx.act("roll"), "btn-primary btn-block ld-big", { "data-act": "roll" });
  const el = h("div", { class: "ld-stack" }, subjectCard(st),
    h("section", { class: "card stack center" }, h("p", { class: "muted" }, tr("roll_hint")), roll,
      h("p", { class: "muted small" }, tr("wait_roll"))));
  return { el, update(view, s) { enable(roll, s.phase === "subject"); } };
}

function screenReady(st) {
  if (watching()) {
    const el = h("div", { class: "ld-stack" }, subjectCard(st),
      h("section", { class: "card stack center" },
        h("p", { class: "muted" }, tr("draw_this")),
        h("p", { class: "ld-draw-this" }, subjectText(st)),
        waiting(tr("watch_ready"))));
    return { el, update() {} };
  }
  const go = button(tr("turn"), () => S.ctx.act("start_timer"), "btn-primary btn-block ld-big", { "data-act": "start_timer" });
  const el = h("div", { class: "ld-stack" }, subjectCard(st),
    h("section", { class: "card stack center" },
      h("p", { class: "muted" }, tr("draw_this")),
      h("p", { class: "ld-draw-this" }, subjectText(st)),
      go,
      h("p", { class: "muted small" }, tr("turn_hint", { s: Math.round(st.seconds || 45) }))));
  return { el, update(view, s) { enable(go, s.phase === "ready"); } };
}

function screenDraw(st) {
  const wrap = h("section", { class: "card ld-draw" });
  const confirm = h("div", { class: "ld-confirm", hidden: true },
    h("p", {}, tr("done_confirm")),
    h("div", { class: "ld-confirm-row" },
      button(tr("done_yes"), () => S.ctx.act("done"), "btn-primary", { "data-act": "done-yes" }),
      h("button", { type: "button", class: "btn btn-quiet", onclick: () => { confirm.hidden = true; doneBtn.hidden = false; } }, tr("done_no"))));
  const doneBtn = h("button", {
    type: "button", class: "btn btn-primary ld-done", "data-act": "done",
    onclick: () => { confirm.hidden = false; doneBtn.hidden = true; },
  }, tr("done"));
  const pad = createCanvas({
    onStroke: (stroke) => S.ctx.act("stroke", stroke),
    onUndo: () => S.ctx.act("undo"),
    onClear: () => S.ctx.act("clear"),
    extra: h("div", { class: "ld-draw-actions" }, doneBtn, confirm),
  });
  S.pad = pad;
  document.body.classList.add("is-drawing");
  pad.setStrokes(st.my_drawing || []);
  fill(wrap,
    h("div", { class: "ld-draw-top" },
      h("p", { class: "ld-draw-hint" }, tr("draw_hint", { subject: subjectText(st) })),
      countdown()),
    h("p", { class: "muted small" }, tr("anything_goes")),
    pad.el);
  return { el: wrap, update(view, s) { pad.sync(s.my_drawing || []); } };
}

function screenHandedIn(st) {
  const el = h("section", { class: "card stack" },
    h("div", { class: "ld-draw-top" }, h("p", { class: "ld-draw-hint" }, tr("draw_hint", { subject: subjectText(st) })), countdown()),
    waiting(tr("handed_in")),
    h("h3", {}, tr("your_drawing")),
    sheetElement(st.my_drawing || [], tr("your_drawing")));
  return { el, update() {} };
}

/** A watcher while everyone draws: the subject, the hourglass, who handed in (face down:
 * nobody's drawing is shown before the gallery, as on the kiosk). */
function screenDrawWatch(st) {
  const people = h("div", { class: "stack" });
  const el = h("section", { class: "card stack" },
    h("div", { class: "ld-draw-top" }, h("p", { class: "ld-draw-hint" }, tr("draw_hint", { subject: subjectText(st) })), countdown()),
    people);
  return {
    el,
    update(view, s) {
      const seats = Object.keys(s.cards || {}).map(Number).filter(Number.isInteger)
        .filter((k) => !(s.out || []).includes(k) && !(s.gone || []).includes(k));
      const done = new Set(s.done || []);
      patch(people, [s.done, seats, seats.map((k) => nameOf(k)), lang()], () => [
        waiting(trn("watch_done", done.size, { total: seats.length })),
        h("ul", { class: "ld-people" }, seats.map((k) => h("li", { class: done.has(k) ? "is-done" : "" },
          chipOf(k), h("span", { class: "small muted" }, done.has(k) ? " ✓" : " …")))),
      ]);
    },
  };
}

// --- the gallery, the categories die -------------------------------------------------------

function screenCategories(st) {
  if (watching()) {
    const el = h("div", { class: "ld-stack" },
      h("section", { class: "card stack center" }, waiting(tr("watch_categories"))),
      h("section", { class: "card stack" }, h("h2", {}, tr("gallery")), galleryEl(st)));
    return { el, update() {} };
  }
  const roll = button(tr("roll_categories"), () => S.ctx.act("roll"), "btn-primary btn-block ld-big", { "data-act": "roll" });
  const el = h("div", { class: "ld-stack" },
    h("section", { class: "card stack center" }, h("p", { class: "muted" }, tr("categories_hint")), roll),
    h("section", { class: "card stack" }, h("h2", {}, tr("gallery")), galleryEl(st)));
  return { el, update(view, s) { enable(roll, s.phase === "categories"); } };
}

// --- voting: the wheel -----------------------------------------------------------------------

function wheel(st) {
  const chips = st.gallery || [];
  const centre = h("div", { class: "ld-wheel-centre" });
  const buttons = chips.map((e, i) => {
    const angle = (360 * i) / chips.length - 90;
    return h("button", {
      type: "button",
      class: "ld-wheel-chip",
      style: { "--a": `${angle}deg`, "--c": e.colour },
      "aria-label": chipName(e),
      "aria-pressed": "false",
      dataset: { act: `vote-${e.chip}`, chip: e.chip },
      onclick: () => S.ctx.act("vote", { chip: e.chip }),
    }, h("span", { class: "ld-wheel-name" }, chipName(e)));
  });
  const el = h("div", { class: "ld-wheel", role: "radiogroup", "aria-label": tr("wheel") }, ...buttons, centre);
  return {
    el,
    update(s) {
      for (const b of buttons) {
        const on = b.dataset.chip === s.my_vote;
        b.classList.toggle("is-chosen", on);
        b.setAttribute("aria-pressed", on ? "true" : "false");
        b.disabled = Boolean(s.closed);
      }
      const chosen = galleryChip(s, s.my_vote);
      patch(centre, [s.my_vote, lang()], () => (chosen
        ? [dot(chosen.colour, true), h("span", {}, chipName(chosen))]
        : [h("span", { class: "muted small" }, tr("wheel"))]));
    },
  };
}

function screenVote(st) {
  const head = h("section", { class: "card ld-category" },
    h("p", { class: "ld-caption" }, tr("category", { n: st.category_number, total: st.categories })),
    h("p", { class: "ld-category-text" }, local(st.category)),
    h("p", { class: "muted small" }, tr("vote_title")));
  const w = wheel(st);
  const mine = h("p", { class: "ld-myvote", "aria-live": "polite" });
  const progress = h("p", { class: "ld-progress" });
  const reveal = button(tr("reveal"), () => S.ctx.act("reveal"), "btn-primary btn-block ld-big", { "data-act": "reveal" });
  const closer = voteCloser();
  const nothing = h("button", { type: "button", class: "btn btn-quiet btn-block ld-nothing", "data-act": "nothing-fits", "aria-pressed": "false" });
  nothing.addEventListener("click", () => {
    S.ctx.act("nothing_fits", { agree: nothing.getAttribute("aria-pressed") !== "true" });
  });
  const voting = h("section", { class: "card stack center" }, w.el, mine,
    h("p", { class: "muted small" }, tr("own_ok")), progress, reveal, closer.el);
  const el = h("div", { class: "ld-stack" }, head, voting,
    h("section", { class: "card stack" }, h("h2", {}, tr("gallery")), galleryEl(st),
      nothing, h("p", { class: "muted small" }, tr("nothing_fits_hint"))));
  return {
    el,
    update(view, s) {
      w.update(s);
      const chosen = galleryChip(s, s.my_vote);
      patch(mine, [s.my_vote, lang()], () => (chosen ? tr("your_vote", { chip: chipName(chosen) }) : tr("no_vote")));
      const total = s.voters || 0;
      const ready = s.closed || s.voted >= total;
      patch(progress, [s.voted, total, s.closed, lang()], () => [
        trn("voted", s.voted, { total }), s.closed ? ` — ${tr("closed")}` : ""]);
      enable(reveal, ready);
      reveal.hidden = !ready;
      closer.update({
        open: !ready, countdown: Boolean(s.countdown), asked: s.asked || 0,
        mine: Boolean(s.my_asked), total,
      });
      const agree = Boolean(s.my_nothing_fits);
      nothing.setAttribute("aria-pressed", agree ? "true" : "false");
      nothing.classList.toggle("is-on", agree);
      const count = (s.nothing_fits || []).length;
      const text = agree ? tr("nothing_fits_on", { n: count, total }) : tr("nothing_fits");
      if (nothing.textContent !== text) nothing.textContent = text;
    },
  };
}

/** A watcher during a vote: the category, how many voted (never who for what), the
 * gallery with its chips, as on the kiosk. */
function screenVoteWatch(st) {
  const progress = h("p", { class: "ld-progress" });
  const clock = h("div", { class: "ld-timer vote-countdown", hidden: true },
    h("span", { class: "muted small" }, S.ctx.t("vote.closes_in")),
    h("span", { class: "ld-timer-time", role: "timer" }),
    h("span", { class: "ld-timer-bar", "aria-hidden": "true" }, h("span")));
  const el = h("div", { class: "ld-stack" },
    h("section", { class: "card ld-category" },
      h("p", { class: "ld-caption" }, tr("category", { n: st.category_number, total: st.categories })),
      h("p", { class: "ld-category-text" }, local(st.category)),
      h("p", { class: "muted small" }, tr("watch_vote")),
      progress, clock),
    h("section", { class: "card stack" }, h("h2", {}, tr("gallery")), galleryEl(st)));
  return {
    el,
    update(view, s) {
      const total = s.voters || 0;
      patch(progress, [s.voted, total, s.closed, lang()], () => [
        trn("voted", s.voted, { total }), s.closed ? ` — ${tr("closed")}` : ""]);
      clock.classList.toggle("is-off", !s.countdown || Boolean(s.closed));
    },
  };
}

// --- a category's result ---------------------------------------------------------------------

function screenResult(st) {
  const verdicts = st.verdicts || [];
  const last = verdicts[verdicts.length - 1] || {};
  const tally = new Map((last.tally || []).map(([chip, n]) => [chip, n]));
  const leaders = last.leaders || [];
  const lastOne = verdicts.length >= (st.categories || 1);
  const next = button(lastOne ? tr("show_owners") : tr("next_category"), () => S.ctx.act("next"), "btn-primary btn-block ld-big", { "data-act": "next" });
  const winner = leaders.length === 1 ? galleryChip(st, leaders[0]) : null;
  const el = h("div", { class: "ld-stack" },
    h("section", { class: "card stack ld-result" },
      h("p", { class: "ld-caption" }, tr("category", { n: verdicts.length, total: st.categories })),
      h("p", { class: "ld-category-text" }, local(last.category)),
      winner
        ? h("p", { class: "ld-verdict" }, dot(winner.colour, true), tr("wins", { chip: chipName(winner) }))
        : h("p", { class: "ld-verdict is-tie" }, tr("tie")),
      h("ul", { class: "ld-votes" }, (last.votes || []).map((v) =>
        h("li", {}, chipOf(v.voter), h("span", { "aria-hidden": "true" }, " → "), chipLabel(galleryChip(st, v.chip))))),
      lastOne ? null : h("p", { class: "muted small" }, tr("secret_winners")),
      watching() ? null : next),
    h("section", { class: "card stack" }, h("h2", {}, tr("gallery")), galleryEl(st, { votes: tally })));
  return { el, update(view, s) { enable(next, s.phase === "result"); } };
}

// --- the round's end -------------------------------------------------------------------------

function screenScores(st) {
  const seats = [...seatsOf(S.view).keys()].filter((k) => st.cards && String(k) in st.cards);
  const halvesOf = (k) => 2 * Number(st.cards[String(k)] || 0) + Number((st.halves || {})[String(k)] || 0);
  seats.sort((a, b) => halvesOf(b) - halvesOf(a) || a - b);
  const gainedOf = (k) => {
    const g = (st.gained || {})[String(k)] || {};
    return 2 * Number(g.cards || 0) + Number(g.halves || 0);
  };
  const best = Math.max(0, ...seats.map(halvesOf));
  const next = st.phase === "scores" && !watching()
    ? button(tr("next_round"), () => S.ctx.act("next"), "btn-primary btn-block ld-big", { "data-act": "next" })
    : null;
  const el = h("div", { class: "ld-stack" },
    h("section", { class: "card stack" },
      h("h2", {}, tr("scores")),
      st.phase === "over"
        ? h("p", { class: "ld-winner" }, tr("winner"), " ", seats.filter((k) => halvesOf(k) === best).map((k) => chipOf(k)))
        : null,
      h("table", { class: "ld-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, tr("player")), h("th", { scope: "col" }, tr("this_round")), h("th", { scope: "col" }, tr("total")))),
        h("tbody", {}, seats.map((k) => h("tr", { class: k === S.ctx.me ? "is-me" : "" },
          h("td", {}, chipOf(k)),
          h("td", { class: "ld-num" }, gainedOf(k) ? `+${halvesText(gainedOf(k))}` : ""),
          h("td", { class: "ld-num ld-total" }, halvesText(halvesOf(k))))))),
      next),
    st.phase === "over" && Array.isArray(st.art_show) && st.art_show.length
      ? artShowEl(st)
      : h("section", { class: "card stack" }, h("h2", {}, tr("whose")), galleryEl(st, { owners: true })));
  return { el, update(view, s) { if (next) enable(next, s.phase === "scores"); } };
}

// --- choosing the screen -------------------------------------------------------------------

function layoutOf(st) {
  const me = S.ctx.me;
  const player = me != null && st.cards && String(me) in st.cards;
  switch (st.phase) {
    case "subject":
    case "ready":
      return st.phase;
    case "drawing":
      if (watching()) return "draw-watch";
      if (!player) return "wait";
      return st.my_drawing && (st.done || []).includes(me) ? "handed-in" : "draw";
    case "categories":
      return "categories";
    case "voting":
      if (watching()) return `vote-watch|${st.category_number}|${(st.verdicts || []).length}|${st.replaced}`;
      return player ? `voting|${st.category_number}|${(st.verdicts || []).length}|${st.replaced}` : "wait";
    case "result":
      return `result|${(st.verdicts || []).length}`;
    case "scores":
    case "over":
      return st.phase;
    default:
      return "wait";
  }
}

function build(layout, st) {
  const kind = layout.split("|")[0];
  switch (kind) {
    case "subject": return screenSubject(st);
    case "ready": return screenReady(st);
    case "draw": return screenDraw(st);
    case "handed-in": return screenHandedIn(st);
    case "draw-watch": return screenDrawWatch(st);
    case "vote-watch": return screenVoteWatch(st);
    case "categories": return screenCategories(st);
    case "voting": return screenVote(st);
    case "result": return screenResult(st);
    case "scores":
    case "over": return screenScores(st);
    default: return { el: h("section", { class: "card" }, waiting(tr("follow"))), update() {} };
  }
}

function dropPad() {
  if (S.pad) S.pad.destroy();
  S.pad = null;
  document.body.classList.remove("is-drawing");
}

const { render, dispose } = kit.screen({
  rootClass: "luck-of-the-draw",
  bodyClass: "ld-body",
  headCard,
  dropPad,
  layoutKey: (view, st, ctx) =>
    [layoutOf(st), st.round, JSON.stringify(galleryKey(st)), ctx.me, watching() ? 1 : 0, lang()].join("#"),
  build: (view, st) => build(layoutOf(st), st),
});

if (!document.querySelector("link[data-luck-css]")) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/luck_of_the_draw.css", "data-luck-css": "" }));
}

registerGameScreen(GAME, {
  render,
  dispose,
  // A seat's cards as the table reads them ("1½").
  seatScore: (st, seat) => (st.cards && String(seat) in st.cards
    ? halvesText(2 * Number(st.cards[String(seat)] || 0) + Number((st.halves || {})[String(seat)] || 0)) : null),
});
