// Building blocks for a game's phone screen (duplik.js, artbox.js, the next game).
//
// What every game screen needs and no one game owns: patching a part only when its
// content changes, reading the seats of a view, translating under the game's prefix
// (with Czech plural forms), names and colour chips by seat, localised texts, buttons
// that take one tap per move, the waiting line and the deadline's countdowns.
//
// `gameKit(S, game, timerClass)` binds the helpers that need the game's module state
// (S.root, S.ctx, S.view) to it; the rest are plain functions.

import { fill, h, nameChip, safeColour } from "./ui.js";

const BUSY_MS = 3000;
const FLUSH_BEFORE_S = 0.6;    // a tick is 250 ms: at least two chances before time up
const patched = new WeakMap();

/** Refill `el` from build() only when `key` differs from the last time. */
export function patch(el, key, build) {
  const k = JSON.stringify(key);
  if (patched.get(el) === k) return false;
  patched.set(el, k);
  fill(el, build());
  return true;
}

/** The seats of a view by number: the match's own, refreshed by the table's. */
export function seatsOf(view) {
  const seats = new Map();
  const match = view.match || {};
  for (const list of [match.seats, view.seats]) {
    for (const s of Array.isArray(list) ? list : []) {
      if (s && Number.isInteger(s.seat)) seats.set(s.seat, { ...(seats.get(s.seat) || {}), ...s });
    }
  }
  return seats;
}

// Which rounds of a finish's art show the player opened or closed: every change of the
// view rebuilds the page, and a round read should not fold away under the reader.
const folds = { show: "", open: new Map() };

/**
 * `open` and `ontoggle` for the <details> of round `round` of the art show `show` (a key
 * that names that game's show): the newest round starts open, then the player decides.
 * Another show (the next game) starts afresh.
 */
export function roundFold(show, round, newest) {
  if (folds.show !== show) {
    folds.show = show;
    folds.open = new Map();
  }
  const open = folds.open;
  return {
    open: open.has(round) ? open.get(round) : newest,
    ontoggle: (event) => { if (folds.open === open) open.set(round, event.currentTarget.open); },
  };
}

export function waiting(text) {
  return h("p", { class: "waiting" }, h("span", { class: "dots", "aria-hidden": "true" }, h("i"), h("i"), h("i")), text);
}

/**
 * The helpers bound to one game's module state `S` ({root, ctx, view}): `game` is its
 * translation prefix, `timerClass` the class of its countdown boxes.
 */
export function gameKit(S, game, timerClass) {
  function tr(key, params) {
    return S.ctx.t(`${game}.${key}`, params);
  }

  function lang() {
    return S.ctx.lang();
  }

  /** `key_one`, `key_few` or `key_other` by the count (Czech has three forms). */
  function trn(key, n, params = {}) {
    const form = n === 1 ? "one" : lang() === "cs" && n >= 2 && n <= 4 ? "few" : "other";
    const text = tr(`${key}_${form}`, { n, ...params });
    return text === `${game}.${key}_${form}` ? tr(`${key}_other`, { n, ...params }) : text;
  }

  function nameOf(seat) {
    const s = seatsOf(S.view).get(seat);
    return s ? String(s.name) : S.ctx.t("seat.number", { n: Number(seat) + 1 });
  }

  function colourOf(seat) {
    const s = seatsOf(S.view).get(seat);
    return safeColour(s && s.colour);
  }

  function chipOf(seat) {
    return nameChip(nameOf(seat), colourOf(seat));
  }

  function local(text) {
    if (typeof text === "string") return text;
    if (!text || typeof text !== "object") return "";
    return String(text[lang()] || text.en || "");
  }

  function button(label, onclick, cls = "btn-primary btn-block", attrs = {}) {
    const el = h("button", { type: "button", class: `btn ${cls}`, ...attrs }, label);
    el.addEventListener("click", () => {
      if (el.disabled) return;
      // One tap, one move: the button sleeps until the next view (or BUSY_MS, if the move
      // was refused and no view follows), so a double tap does not send it twice.
      el.disabled = true;
      el.dataset.busy = `${S.view && S.view.version}|${performance.now()}`;
      onclick();
    });
    return el;
  }

  function isBusy(el) {
    if (!el.dataset.busy) return false;
    const [version, at] = el.dataset.busy.split("|");
    const fresh = performance.now() - Number(at) < BUSY_MS
      && String(S.view && S.view.version) === version;
    if (!fresh) delete el.dataset.busy;
    return fresh;
  }

  /** Whether a long-lived button may be pressed now (a pressed one waits for the box). */
  function enable(el, on) {
    el.dataset.want = on ? "1" : "0";
    el.disabled = !on || isBusy(el);
  }

  function wakeButtons() {
    if (!S.root) return;
    for (const el of S.root.querySelectorAll("button[data-busy]")) {
      if (!isBusy(el)) el.disabled = el.dataset.want === "0";
    }
  }

  /** Every countdown box on the screen shows the deadline (hidden when there is none). */
  function tickTimers() {
    if (!S.root || !S.ctx) return;
    const d = S.ctx.deadline;
    for (const box of S.root.querySelectorAll(`.${timerClass}`)) {
      box.hidden = !d || box.classList.contains("is-off");
      if (!d) continue;
      const secs = Math.ceil(d.remaining);
      const text = `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
      const time = box.querySelector(`.${timerClass}-time`);
      if (time.textContent !== text) time.textContent = text;
      const frac = d.length > 0 ? Math.min(1, d.remaining / d.length) : 0;
      box.querySelector(`.${timerClass}-bar > span`).style.setProperty("width", `${(frac * 100).toFixed(1)}%`);
      box.classList.toggle("is-low", d.remaining <= 10);
      box.classList.toggle("is-paused", Boolean(d.paused)); // style.css draws the two bars
    }
  }

  function tick() {
    wakeButtons();
    tickTimers();
    // The hourglass is about to run out: what is under a finger goes to the box now, so
    // the drawing taken at time up has all of it (the finger may never lift in time).
    const d = S.ctx && S.ctx.deadline;
    if (d && !d.paused && d.remaining <= FLUSH_BEFORE_S && S.pad && S.pad.flush) S.pad.flush();
  }

  /**
   * A game screen's life on the phone: one head card over a body that is rebuilt when
   * `layoutKey(view, st, ctx)` changes (the drawing pad dropped first) and otherwise
   * patched in place by its parts' `update`, and the 250 ms tick for the countdowns.
   * `build(view, st, ctx)` returns `{el, update(view, st)}`; `dropPad` lets go of the
   * pad; `onDispose` forgets the game's own extra state.
   */
  function screen({ rootClass, bodyClass, headCard, layoutKey, build, dropPad, onDispose }) {
    function render(root, view, ctx) {
      S.ctx = ctx;
      S.view = view;
      const st = (view.match && view.match.state) || {};
      if (S.root !== root || !S.head || !root.contains(S.head.el)) {
        S.root = root;
        S.head = headCard();
        S.body = h("div", { class: bodyClass });
        fill(root, h("div", { class: rootClass }, S.head.el, S.body));
        S.layout = null;
      }
      const layout = layoutKey(view, st, ctx);
      if (layout !== S.layout) {
        dropPad();
        S.layout = layout;
        S.parts = build(view, st, ctx);
        fill(S.body, S.parts.el);
      }
      wakeButtons();
      S.head.update(view, st);
      S.parts.update(view, st);
      tickTimers();
      if (!S.timer) S.timer = setInterval(tick, 250);
    }

    function dispose() {
      dropPad();
      if (S.timer) clearInterval(S.timer);
      S.timer = null;
      S.root = null;
      S.head = null;
      S.layout = null;
      S.parts = null;
      if (onDispose) onDispose();
    }

    return { render, dispose };
  }

  /**
   * Fair votes (games.core.VOTE): nobody closes a vote alone. The button asks for a
   * countdown for those who have not voted: the host's starts it at once (the box hears
   * it from the table), a player's counts towards a majority of the table. Once it runs,
   * the time left, ticked like every countdown box. `update({open, countdown, asked,
   * mine, total})`: `open` while the vote still waits for somebody.
   */
  function voteCloser() {
    const btn = button("", () => S.ctx.act("close_vote"), "btn-quiet btn-block", { "data-act": "close_vote" });
    const note = h("p", { class: "muted small" });
    const clock = h("div", { class: `${timerClass} vote-countdown`, hidden: true },
      h("span", { class: "muted small" }, ""),
      h("span", { class: `${timerClass}-time`, role: "timer" }),
      h("span", { class: `${timerClass}-bar`, "aria-hidden": "true" }, h("span")));
    const el = h("div", { class: "stack vote-closer" }, clock, btn, note);
    return {
      el,
      update({ open, countdown, asked = 0, mine = false, total = 0 }) {
        const host = Boolean(S.view && S.view.you && S.view.you.host);
        el.hidden = !open;
        clock.classList.toggle("is-off", !countdown);
        const caption = S.ctx.t("vote.closes_in");
        if (clock.firstChild.textContent !== caption) clock.firstChild.textContent = caption;
        btn.hidden = Boolean(countdown);
        const label = host ? S.ctx.t("vote.start")
          : mine ? S.ctx.t("vote.asked", { n: asked, total }) : S.ctx.t("vote.ask");
        if (btn.textContent !== label) btn.textContent = label;
        enable(btn, Boolean(open && !countdown && (host || !mine)));
        const hint = countdown ? S.ctx.t("vote.running_hint")
          : host ? S.ctx.t("vote.start_hint") : S.ctx.t("vote.ask_hint");
        if (note.textContent !== hint) note.textContent = hint;
      },
    };
  }

  return { tr, lang, trn, nameOf, colourOf, chipOf, local, button, enable, wakeButtons, tickTimers, tick, screen, voteCloser };
}
