// Doodle Dash on the phones (tests only): the round, the word, a scribble and "done".
//
// It lives with the game (tests/house_game/), not in the box's static folder: its house
// names it (`phone_script`, `phone_files`), the box lists it in /games.json and serves it
// at /static/games/doodle-dash/phone.js, and the page imports it from there; the page's
// shared modules are two folders up. Its sentences come with it (addStrings).

import { registerGameScreen } from "../../games.js";
import { addStrings } from "../../i18n.js";

const GAME = "doodle-dash";
const SCRIBBLE = { points: [[200, 200, 0], [800, 500, 120], [1200, 300, 240]], colour: "#3366cc", width: 12 };

addStrings({
  en: {
    [`${GAME}.round`]: "Round {round} of {rounds}",
    [`${GAME}.draw`]: "Draw: {word}",
    [`${GAME}.scribble`]: "Scribble",
    [`${GAME}.strokes`]: "Your strokes: {n}",
    [`${GAME}.done`]: "Done",
    [`${GAME}.wait`]: "Done: the others are still drawing.",
  },
  cs: {
    [`${GAME}.round`]: "Kolo {round} z {rounds}",
    [`${GAME}.draw`]: "Kresli: {word}",
    [`${GAME}.scribble`]: "Čmárnout",
    [`${GAME}.strokes`]: "Tvé tahy: {n}",
    [`${GAME}.done`]: "Hotovo",
    [`${GAME}.wait`]: "Hotovo: ostatní ještě kreslí.",
  },
});

let shown = ""; // the key of what is on the page: rebuilt only when it changes

function render(root, view, ctx) {
  const st = (view.match && view.match.state) || {};
  const word = st.word ? String(st.word[ctx.lang()] ?? st.word.en ?? "") : "";
  const done = Array.isArray(st.done) && st.done.includes(ctx.me);
  const drawn = st.drawings && Array.isArray(st.drawings[String(ctx.me)]) ? st.drawings[String(ctx.me)].length : 0;
  const key = [st.phase, st.round, word, done, drawn, ctx.lang()].join("|");
  if (key === shown && root.firstChild) return;
  shown = key;
  const h = ctx.h;
  root.replaceChildren(h("section", { class: "card", dataset: { game: GAME } },
    h("h2", {}, ctx.t(`${GAME}.round`, { round: st.round, rounds: st.rounds })),
    h("p", { class: "dd-word" }, ctx.t(`${GAME}.draw`, { word })),
    h("p", { class: "muted", dataset: { strokes: String(drawn) } }, ctx.t(`${GAME}.strokes`, { n: drawn })),
    done || st.phase !== "drawing"
      ? h("p", { class: "muted", dataset: { waiting: "true" } }, ctx.t(`${GAME}.wait`))
      : h("div", { class: "actions" },
        h("button", { type: "button", class: "btn", dataset: { act: "scribble" },
          onclick: () => ctx.act("stroke", SCRIBBLE) }, ctx.t(`${GAME}.scribble`)),
        h("button", { type: "button", class: "btn btn-primary", dataset: { act: "done" },
          onclick: () => ctx.act("done", {}) }, ctx.t(`${GAME}.done`)))));
}

function dispose() {
  shown = "";
}

registerGameScreen(GAME, { render, dispose });
