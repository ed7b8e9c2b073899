// Duplik on the phones: one screen per phase and role (docs/duplik.md).
//
// The Portrayer sees the secret scene, rolls, turns the hourglass, passes the canvases
// and reads the criteria; the Artists draw (canvas.js), hand in, judge the canvas in front
// of them, dispute and vote; everyone meets at the art show.
//
// The page is rebuilt only when the layout changes (phase, role, round...); otherwise
// each part is patched when its own content changes. A view can arrive at any moment
// (every player's move makes one), and rebuilding a button between a finger's down and
// up would swallow the tap; rebuilding the canvas would wipe a stroke being drawn.
//
// Names and texts reach the page only as text (ui.js `h`); the scene's SVG reaches it
// only as the source of an <img> (a data: URL: an SVG image cannot run scripts), never
// as markup.

import { addStrings } from "./i18n.js";
import { registerGameScreen } from "./games.js";
import { createCanvas, sheetElement } from "./canvas.js";
import { gameKit, patch, roundFold, seatsOf, waiting } from "./kit.js";
import { fill, h } from "./ui.js";

// The phone's sentences for this game, English and Czech, added to the page's catalogue
// (i18n.js) under its own prefix: they live here, beside the screen that says them.
addStrings({
  en: {
    "duplik.round": "Round {round} of {rounds}",
    "duplik.quoted": "“{title}”",
    "duplik.golden": "golden",
    "duplik.golden_is": "Golden criterion: {n}",
    "duplik.golden_worth": "Meeting it is worth 3 points instead of 1.",
    "duplik.golden_tag": "golden",
    "duplik.you_portray": "You are the Portrayer this round.",
    "duplik.portrayer_is": "Portrayer:",
    "duplik.your_score": "Your score: {n}",
    "duplik.secret": "Secret — only you can see this scene. Don't show it!",
    "duplik.scene_alt": "The scene “{title}”",
    "duplik.no_scene": "The scene is on its way…",
    "duplik.your_scene": "Your scene",
    "duplik.announce": "Announce its title:",
    "duplik.roll": "Roll the die",
    "duplik.wait_roll": "Waiting for {name} to roll the die",
    "duplik.get_ready": "Get ready to draw — listen carefully, no questions!",
    "duplik.first_rolls": "Who portrays first: {rolls}",
    "duplik.start_timer": "Start the hourglass",
    "duplik.ready_portrayer": "Describe the scene as fast and as clearly as you can: where things are, how big, how many. No gestures!",
    "duplik.ready_artist": "{name} will describe the scene",
    "duplik.ready_hint": "Draw big, stick figures are fine. Press Done when you finish.",
    "duplik.paper_hint": "Have your paper and pencil ready.",
    "duplik.draw_hint": "Listen to {name} and draw — no questions!",
    "duplik.rotate": "Turn your phone sideways for a bigger canvas.",
    "duplik.done": "Done — hand in",
    "duplik.done_confirm": "Hand in your canvas? You cannot draw on it any more.",
    "duplik.done_yes": "Yes, hand in",
    "duplik.done_no": "Keep drawing",
    "duplik.paper_draw": "Draw on paper while {name} describes. No questions!",
    "duplik.handed_in_title": "Handed in",
    "duplik.handed_in": "Face down until everyone is done or the sand runs out",
    "duplik.your_canvas": "Your canvas",
    "duplik.describe": "Describe the scene!",
    "duplik.describe_hint": "Don't look at the drawings, and no gestures.",
    "duplik.done_count": "{n} of {total} handed in",
    "duplik.is_done": "handed in",
    "duplik.is_drawing": "drawing…",
    "duplik.end_drawing": "End drawing",
    "duplik.times_up": "Pencils down!",
    "duplik.wait_pass": "{name} decides where the canvases go",
    "duplik.pass_title": "Pass the canvases",
    "duplik.pass_hint": "Everyone judges a neighbour's canvas, never their own.",
    "duplik.pass_left": "Pass left",
    "duplik.pass_right": "Pass right",
    "duplik.pass_rule": "Nobody judges their own canvas.",
    "duplik.criterion": "Criterion {n} of {total}",
    "duplik.read_again": "Read again",
    "duplik.in_front": "In front of you:",
    "duplik.canvas_of": "{name}'s canvas",
    "duplik.paper_front": "Look at the paper canvas in front of you.",
    "duplik.question": "Does this canvas meet the criterion?",
    "duplik.question_n": "Does this canvas meet criterion {n}?",
    "duplik.judged_now": "Your verdict is for criterion {n}:",
    "duplik.yes": "YES",
    "duplik.no": "NO",
    "duplik.not_yet": "not judged yet",
    "duplik.unsure": "Not sure? Put it to a vote",
    "duplik.settled": "Settled by a vote: {verdict}",
    "duplik.own_waiting": "{name} is judging it…",
    "duplik.own_yes": "{name} judged it YES",
    "duplik.own_no": "{name} judged it NO",
    "duplik.by_vote": "by vote",
    "duplik.dispute": "Dispute — put it to a vote",
    "duplik.dispute_title": "Dispute!",
    "duplik.dispute_about": "{name}'s canvas, criterion {n}: the others vote.",
    "duplik.dispute_question": "Does {name}'s canvas meet criterion {n}?",
    "duplik.paper_dispute": "Look at {name}'s paper canvas.",
    "duplik.vote_cast": "Vote cast — {n} of {total} have voted",
    "duplik.tie_rule": "A tie awards the point.",
    "duplik.vote_progress": "Vote in progress: {n} of {total}",
    "duplik.portrayer_no_vote": "The Portrayer does not vote and may not explain the criterion — but may read it again.",
    "duplik.criteria_so_far": "Criteria read",
    "duplik.tally": "met on {met} of {total} canvases",
    "duplik.reread": "Read again",
    "duplik.on_screen": "on screen",
    "duplik.reading": "reading",
    "duplik.peek": "Your scene",
    "duplik.verdicts": "Criterion {n}: verdicts",
    "duplik.judging_now": "{name} is judging",
    "duplik.next": "Next criterion",
    "duplik.to_scores": "Show the scores",
    "duplik.artshow": "Art show",
    "duplik.round_title": "Round {n}: {title}",
    "duplik.the_scene": "The scene",
    "duplik.on_paper": "on paper",
    "duplik.points_one": "+{n} point",
    "duplik.points_other": "+{n} points",
    "duplik.scores": "Scores",
    "duplik.player": "Player",
    "duplik.this_round": "This round",
    "duplik.total": "Total",
    "duplik.portrayed": "(Portrayer)",
    "duplik.next_round": "Next round",
    "duplik.finish": "Finish the game",
    "duplik.wait_next": "{name} starts the next round",
    "duplik.follow": "Follow the big screen.",
    "duplik.watch_draw": "The Artists draw while {name} describes the scene.",
    "duplik.watch_evaluate": "{name} reads the criteria; each Artist judges a neighbour's canvas.",
    "duplik.watch_dispute": "The Artists vote: {n} of {total} have voted.",
  },
  cs: {
    "duplik.round": "Kolo {round} z {rounds}",
    "duplik.quoted": "„{title}“",
    "duplik.golden": "zlaté",
    "duplik.golden_is": "Zlaté kritérium: {n}",
    "duplik.golden_worth": "Jeho splnění vynese 3 body místo 1.",
    "duplik.golden_tag": "zlaté",
    "duplik.you_portray": "V tomto kole vyprávíš ty.",
    "duplik.portrayer_is": "Vypravěč:",
    "duplik.your_score": "Tvoje body: {n}",
    "duplik.secret": "Tajné — obrázek vidíš jen ty. Nikomu ho neukazuj!",
    "duplik.scene_alt": "Obrázek „{title}“",
    "duplik.no_scene": "Obrázek je na cestě…",
    "duplik.your_scene": "Tvůj obrázek",
    "duplik.announce": "Oznam jeho název:",
    "duplik.roll": "Hodit kostkou",
    "duplik.wait_roll": "Čeká se, až {name} hodí kostkou",
    "duplik.get_ready": "Připrav se kreslit — poslouchej pozorně, žádné otázky!",
    "duplik.first_rolls": "Kdo vypráví první: {rolls}",
    "duplik.start_timer": "Otočit přesýpací hodiny",
    "duplik.ready_portrayer": "Popiš obrázek co nejrychleji a nejjasněji: kde co je, jak velké, kolik toho je. Bez gest!",
    "duplik.ready_artist": "{name} bude popisovat obrázek",
    "duplik.ready_hint": "Kresli velké, panáčci stačí. Až dokreslíš, stiskni Hotovo.",
    "duplik.paper_hint": "Připrav si papír a tužku.",
    "duplik.draw_hint": "Poslouchej, co popisuje {name}, a kresli — žádné otázky!",
    "duplik.rotate": "Otoč telefon na šířku a plátno bude větší.",
    "duplik.done": "Hotovo — odevzdat",
    "duplik.done_confirm": "Odevzdat plátno? Pak už na něj nepůjde kreslit.",
    "duplik.done_yes": "Ano, odevzdat",
    "duplik.done_no": "Kreslit dál",
    "duplik.paper_draw": "Kresli na papír, zatímco {name} popisuje. Žádné otázky!",
    "duplik.handed_in_title": "Odevzdáno",
    "duplik.handed_in": "Lícem dolů, dokud nedokreslí všichni nebo nedoteče písek",
    "duplik.your_canvas": "Tvoje plátno",
    "duplik.describe": "Popisuj obrázek!",
    "duplik.describe_hint": "Nedívej se na kresby a nepoužívej gesta.",
    "duplik.done_count": "Odevzdáno {n} z {total}",
    "duplik.is_done": "odevzdáno",
    "duplik.is_drawing": "kreslí…",
    "duplik.end_drawing": "Ukončit kreslení",
    "duplik.times_up": "Tužky dolů!",
    "duplik.wait_pass": "{name} rozhoduje, kam se plátna posunou",
    "duplik.pass_title": "Předej plátno",
    "duplik.pass_hint": "Každý hodnotí plátno souseda, nikdy své vlastní.",
    "duplik.pass_left": "Doleva",
    "duplik.pass_right": "Doprava",
    "duplik.pass_rule": "Nikdo nehodnotí své vlastní plátno.",
    "duplik.criterion": "Kritérium {n} z {total}",
    "duplik.read_again": "Znovu",
    "duplik.in_front": "Před tebou:",
    "duplik.canvas_of": "Plátno: {name}",
    "duplik.paper_front": "Podívej se na papírové plátno před sebou.",
    "duplik.question": "Splňuje toto plátno kritérium?",
    "duplik.question_n": "Splňuje toto plátno kritérium {n}?",
    "duplik.judged_now": "Hodnotíš kritérium {n}:",
    "duplik.yes": "ANO",
    "duplik.no": "NE",
    "duplik.not_yet": "zatím neposouzeno",
    "duplik.unsure": "Nevíš? Dej to k hlasování",
    "duplik.settled": "Rozhodlo hlasování: {verdict}",
    "duplik.own_waiting": "{name} ho právě posuzuje…",
    "duplik.own_yes": "Verdikt – {name}: ANO",
    "duplik.own_no": "Verdikt – {name}: NE",
    "duplik.by_vote": "hlasováním",
    "duplik.dispute": "Spor — dát k hlasování",
    "duplik.dispute_title": "Spor!",
    "duplik.dispute_about": "Plátno: {name}, kritérium {n} — ostatní hlasují.",
    "duplik.dispute_question": "Splňuje plátno ({name}) kritérium {n}?",
    "duplik.paper_dispute": "Podívej se na papírové plátno ({name}).",
    "duplik.vote_cast": "Hlas odevzdán — hlasovalo {n} z {total}",
    "duplik.tie_rule": "Při rovnosti se bod uděluje.",
    "duplik.vote_progress": "Hlasuje se: {n} z {total}",
    "duplik.portrayer_no_vote": "Vypravěč nehlasuje a kritérium nevysvětluje — smí ho ale přečíst znovu.",
    "duplik.criteria_so_far": "Přečtená kritéria",
    "duplik.tally": "splněno na {met} z {total} pláten",
    "duplik.reread": "Přečíst znovu",
    "duplik.on_screen": "na obrazovce",
    "duplik.reading": "čte se",
    "duplik.peek": "Tvůj obrázek",
    "duplik.verdicts": "Kritérium {n}: verdikty",
    "duplik.judging_now": "posuzuje {name}",
    "duplik.next": "Další kritérium",
    "duplik.to_scores": "Ukázat body",
    "duplik.artshow": "Výstava",
    "duplik.round_title": "Kolo {n}: {title}",
    "duplik.the_scene": "Předloha",
    "duplik.on_paper": "na papíře",
    "duplik.points_one": "+{n} bod",
    "duplik.points_few": "+{n} body",
    "duplik.points_other": "+{n} bodů",
    "duplik.scores": "Body",
    "duplik.player": "Hráč",
    "duplik.this_round": "Toto kolo",
    "duplik.total": "Celkem",
    "duplik.portrayed": "(vypravěč)",
    "duplik.next_round": "Další kolo",
    "duplik.finish": "Ukončit hru",
    "duplik.wait_next": "{name} zahájí další kolo",
    "duplik.follow": "Sleduj velkou obrazovku.",
    "duplik.watch_draw": "Umělci kreslí, zatímco {name} popisuje obrázek.",
    "duplik.watch_evaluate": "{name} čte kritéria; každý umělec hodnotí plátno souseda.",
    "duplik.watch_dispute": "Umělci hlasují: hlasovalo {n} z {total}.",
  },
});

const CRITERIA = 10;

// --- module state (one Duplik screen at a time) ------------------------------------------

const S = {
  root: null,
  layout: null,      // the key of what is built
  parts: null,       // the built screen: {el, update(view, st)}
  ctx: null,         // the newest ctx from app.js (t, act, deadline...)
  view: null,
  pad: null,         // the drawing canvas while this phone draws
  timer: null,       // setInterval for the countdowns
  scenes: new Map(), // scene key -> data: URL, remembered for later art shows
};

const { tr, lang, trn, nameOf, colourOf, chipOf, local, button, enable, screen, voteCloser } = gameKit(S, "duplik", "dk-timer");

// --- reading the view ----------------------------------------------------------------------

function roleOf(st, me) {
  if (S.ctx && S.ctx.watching) return "watcher"; // the public table, read-only
  if (me === st.portrayer) return "portrayer";
  if (Array.isArray(st.artists) && st.artists.includes(me)) return "artist";
  return "watcher";
}

function verdictsOf(st, criterion) {
  const row = (Array.isArray(st.results) && st.results[criterion - 1]) || {};
  const out = new Map();
  for (const a of st.artists || []) {
    const v = row[String(a)];
    out.set(a, v === true || v === false ? v : null);
  }
  return out;
}

function settledByVote(st, criterion, artist) {
  return (st.voted_on || []).some((p) => Array.isArray(p) && p[0] === criterion && p[1] === artist);
}

/** Who judges `artist`'s canvas: the next Artist in the direction the canvases went. */
function evaluatorOf(st, artist) {
  const ring = st.artists || [];
  const i = ring.indexOf(artist);
  if (i < 0 || !ring.length || !st.direction) return null;
  const step = st.direction === "left" ? 1 : -1;
  return ring[(i + step + ring.length) % ring.length];
}

function sceneUrl(scene) {
  if (!scene || typeof scene.svg !== "string" || typeof scene.key !== "string") return null;
  let url = S.scenes.get(scene.key);
  if (!url) {
    url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(scene.svg)}`;
    S.scenes.set(scene.key, url);
    if (S.scenes.size > 40) S.scenes.delete(S.scenes.keys().next().value);
  }
  return url;
}

// --- small building blocks -----------------------------------------------------------------

function sceneImage(url, alt) {
  return h("img", { class: "dk-scene-img", src: url, alt, draggable: "false" });
}

function coin(n, big = false) {
  return h("span", { class: `dk-coin${big ? " dk-coin-big" : ""}`, "aria-hidden": "true" }, n == null ? "?" : String(n));
}

function mark(met) {
  const cls = met === true ? "is-yes" : met === false ? "is-no" : "is-open";
  const sym = met === true ? "✓" : met === false ? "✗" : "…";
  const word = met === true ? tr("yes") : met === false ? tr("no") : tr("not_yet");
  return h("span", { class: `dk-mark ${cls}` }, h("span", { "aria-hidden": "true" }, sym), h("span", { class: "visually-hidden" }, word));
}

function countdown(big = false) {
  return h("div", { class: `dk-timer${big ? " dk-timer-big" : ""}`, role: "timer", "aria-live": "off" },
    h("span", { class: "dk-timer-time" }, "–:––"),
    h("span", { class: "dk-timer-bar", "aria-hidden": "true" }, h("span")));
}

/** Criterion `n`'s sentence in the page's language ("" before it is read). */
function criterionText(s, n) {
  return local((s.criteria || [])[n - 1] || {});
}

/** The question with the criterion's own words: on a small phone the criterion's card has
 *  scrolled away by the time the canvas and its YES / NO are on screen. */
function question(text, criterion) {
  return [text, criterion ? " " : null,
    criterion ? h("q", { class: "dk-question-criterion" }, criterion) : null];
}

function criterionCard() {
  const el = h("section", { class: "card dk-criterion", "aria-live": "polite" });
  return {
    el,
    update(s) {
      const current = (s.criteria || []).length;
      const reading = Number.isInteger(s.reading) && s.reading > 0 ? s.reading : current;
      const shown = (s.criteria || [])[reading - 1] || {};
      const golden = s.golden != null && shown.number === s.golden;
      const judged = (s.criteria || [])[current - 1] || {};
      patch(el, [reading, current, golden, local(shown), local(judged), lang()], () => [
        h("p", { class: `dk-criterion-no${golden ? " is-golden" : ""}` },
          reading !== current ? h("span", { class: "dk-tag" }, tr("read_again")) : null,
          tr("criterion", { n: reading, total: CRITERIA }),
          golden ? h("span", { class: "dk-golden-tag" }, "★ ", tr("golden_tag")) : null),
        h("p", { class: "dk-criterion-text" }, local(shown)),
        // A criterion read again is only heard again: every YES/NO is for the current one.
        reading !== current
          ? h("p", { class: "dk-judged-now", "data-criterion": String(current) },
            h("strong", {}, tr("judged_now", { n: current })), " ", local(judged))
          : null,
      ]);
    },
  };
}

// --- the frame of every phase: round, title, Portrayer, golden criterion, my role ----

function headCard() {
  const el = h("section", { class: "card dk-head" });
  return {
    el,
    update(view, st) {
      const me = S.ctx.me;
      const role = roleOf(st, me);
      const score = st.scores ? st.scores[String(me)] : null;
      patch(el, [st.round, st.rounds, local(st.title), st.portrayer, nameOf(st.portrayer), colourOf(st.portrayer), st.golden, role, score, lang()], () => [
        h("div", { class: "dk-head-row" },
          h("div", { class: "dk-head-main" },
            h("p", { class: "muted small" }, tr("round", { round: st.round, rounds: st.rounds })),
            h("h2", { class: "dk-title" }, tr("quoted", { title: local(st.title) }))),
          st.golden != null
            ? h("div", { class: "dk-head-golden", title: tr("golden_is", { n: st.golden }) },
              coin(st.golden), h("span", { class: "small muted" }, tr("golden")))
            : null),
        h("p", { class: "dk-role" },
          role === "portrayer" ? tr("you_portray")
            : h("span", {}, tr("portrayer_is"), " ", chipOf(st.portrayer)),
          score != null ? h("span", { class: "dk-myscore" }, tr("your_score", { n: score })) : null),
      ]);
    },
  };
}

// --- roll and ready -----------------------------------------------------------------------

function lockIcon() {
  // Drawn, not an emoji: a phone without an emoji font would show a box.
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "dk-lock");
  svg.setAttribute("aria-hidden", "true");
  const body = document.createElementNS(ns, "rect");
  for (const [k, v] of Object.entries({ x: 5, y: 10, width: 14, height: 11, rx: 2.5 })) body.setAttribute(k, String(v));
  const shackle = document.createElementNS(ns, "path");
  shackle.setAttribute("d", "M8 10V7a4 4 0 0 1 8 0v3");
  svg.append(body, shackle);
  return svg;
}

function portrayerScene(st, { note = true } = {}) {
  const url = sceneUrl(st.scene);
  return h("div", { class: "dk-secret" },
    note ? h("p", { class: "dk-secret-note" }, lockIcon(), tr("secret")) : null,
    url ? sceneImage(url, tr("scene_alt", { title: local(st.title) })) : h("p", { class: "muted" }, tr("no_scene")));
}

function screenRoll(st, role) {
  const body = h("section", { class: "card stack" });
  if (role === "portrayer") {
    const roll = button(tr("roll"), () => S.ctx.act("roll"), "btn-primary btn-block dk-big", { "data-act": "roll" });
    fill(body,
      h("h2", {}, tr("your_scene")),
      portrayerScene(st),
      h("p", { class: "lead" }, tr("announce"), " ", h("strong", {}, tr("quoted", { title: local(st.title) }))),
      roll);
    return { el: body, update(view, s) { enable(roll, s.phase === "roll"); } };
  }
  const firstRolls = (st.round === 1 && Array.isArray(st.start_rolls) && st.start_rolls.length > 1)
    ? h("p", { class: "muted small" }, tr("first_rolls", {
      rolls: st.start_rolls.map((p) => `${nameOf(p[0])} ${p[1]}`).join(" · "),
    }))
    : null;
  fill(body,
    waiting(tr("wait_roll", { name: nameOf(st.portrayer) })),
    role === "watcher" ? null : h("p", { class: "lead center" }, tr("get_ready")),
    firstRolls);
  return { el: body, update() {} };
}

function screenReady(st, role) {
  const body = h("section", { class: "card stack center" });
  const golden = h("div", { class: "dk-golden" }, coin(st.golden, true),
    h("p", { class: "dk-golden-text" }, tr("golden_is", { n: st.golden })),
    h("p", { class: "muted small" }, tr("golden_worth")));
  if (role === "portrayer") {
    const go = button(tr("start_timer"), () => S.ctx.act("start_timer"), "btn-primary btn-block dk-big", { "data-act": "start_timer" });
    fill(body, golden, portrayerScene(st, { note: false }), h("p", {}, tr("ready_portrayer")), go);
    return { el: body, update(view, s) { enable(go, s.phase === "ready"); } };
  }
  fill(body, golden, waiting(tr("ready_artist", { name: nameOf(st.portrayer) })),
    role === "watcher" ? null : h("p", { class: "muted small" }, st.paper ? tr("paper_hint") : tr("ready_hint")));
  return { el: body, update() {} };
}

// --- drawing -------------------------------------------------------------------------------

function screenDrawArtist(st) {
  const wrap = h("section", { class: "card dk-draw" });
  const confirm = h("div", { class: "dk-confirm", hidden: true },
    h("p", {}, tr("done_confirm")),
    h("div", { class: "dk-confirm-row" },
      button(tr("done_yes"), () => S.ctx.act("done"), "btn-primary", { "data-act": "done-yes" }),
      h("button", { type: "button", class: "btn btn-quiet", onclick: () => { confirm.hidden = true; doneBtn.hidden = false; } }, tr("done_no"))));
  const doneBtn = h("button", {
    type: "button", class: "btn btn-primary dk-done", "data-act": "done",
    onclick: () => { confirm.hidden = false; doneBtn.hidden = true; },
  }, tr("done"));

  if (st.paper) {
    fill(wrap,
      h("div", { class: "dk-draw-top" }, h("p", { class: "lead" }, tr("paper_draw", { name: nameOf(st.portrayer) })), countdown()),
      doneBtn, confirm);
    return { el: wrap, update() {} };
  }
  // Done sits in the toolbar: beside the sheet when the phone is held sideways.
  const actions = h("div", { class: "dk-draw-actions" }, doneBtn, confirm);
  const pad = createCanvas({
    onStroke: (stroke) => S.ctx.act("stroke", stroke),
    onUndo: () => S.ctx.act("undo"),
    extra: actions,
  });
  S.pad = pad;
  document.body.classList.add("is-drawing");
  pad.setStrokes(st.my_canvas || []);
  fill(wrap,
    h("div", { class: "dk-draw-top" },
      h("p", { class: "dk-draw-hint" }, tr("draw_hint", { name: nameOf(st.portrayer) })),
      countdown()),
    h("p", { class: "dk-rotate muted small" }, tr("rotate")),
    pad.el);
  return {
    el: wrap,
    update(view, s) {
      pad.sync(s.my_canvas || []);
    },
  };
}

function screenDrawDone(st) {
  const body = h("section", { class: "card stack" },
    h("h2", {}, tr("handed_in_title")),
    waiting(tr("handed_in")),
    st.paper ? null : sheetElement(st.my_canvas || [], tr("your_canvas")));
  return { el: body, update() {} };
}

function doneList(st) {
  const done = new Set(st.done || []);
  return h("ul", { class: "dk-people" }, (st.artists || []).map((a) =>
    h("li", { class: `dk-person${done.has(a) ? " is-done" : ""}` }, chipOf(a), mark(done.has(a) ? true : null),
      h("span", { class: "small muted" }, done.has(a) ? tr("is_done") : tr("is_drawing")))));
}

function screenDrawPortrayer(st) {
  const list = h("div");
  const end = button(tr("end_drawing"), () => S.ctx.act("end_drawing"), "btn-primary btn-block", { "data-act": "end_drawing" });
  const body = h("section", { class: "card stack" },
    h("div", { class: "dk-draw-top" }, h("h2", {}, tr("describe")), countdown(true)),
    h("p", { class: "muted small" }, tr("describe_hint")),
    portrayerScene(st, { note: false }),
    list,
    end);
  return {
    el: body,
    update(view, s) {
      const done = s.done || [];
      const all = (s.artists || []).every((a) => done.includes(a));
      patch(list, [done, s.artists, lang()], () => [
        h("p", { class: "small" }, tr("done_count", { n: done.length, total: (s.artists || []).length })),
        doneList(s)]);
      end.hidden = !all;
      enable(end, all);
    },
  };
}

/** A watcher during the drawing: what the kiosk shows (the hourglass, who handed in). */
function screenDrawWatch(st) {
  const list = h("div");
  const body = h("section", { class: "card stack" },
    h("div", { class: "dk-draw-top" }, h("p", { class: "lead" }, tr("watch_draw", { name: nameOf(st.portrayer) })), countdown()),
    list);
  return {
    el: body,
    update(view, s) {
      const done = s.done || [];
      patch(list, [done, s.artists, lang()], () => [
        h("p", { class: "small" }, tr("done_count", { n: done.length, total: (s.artists || []).length })),
        doneList(s)]);
    },
  };
}

// --- passing -------------------------------------------------------------------------------

function ringText(st, direction) {
  const ring = st.artists || [];
  if (ring.length < 2) return "";
  const order = direction === "left" ? ring : ring.slice().reverse();
  return [...order, order[0]].map((s) => nameOf(s)).join(" → ");
}

function screenPassing(st, role) {
  const body = h("section", { class: "card stack center" });
  if (role === "portrayer") {
    const left = button(h("span", {}, h("span", { "aria-hidden": "true" }, "← "), tr("pass_left")), () => S.ctx.act("pass", { direction: "left" }), "btn-primary dk-big", { "data-act": "pass-left" });
    const right = button(h("span", {}, tr("pass_right"), h("span", { "aria-hidden": "true" }, " →")), () => S.ctx.act("pass", { direction: "right" }), "btn-primary dk-big", { "data-act": "pass-right" });
    fill(body,
      h("h2", {}, tr("pass_title")),
      h("p", { class: "muted" }, tr("pass_hint")),
      h("div", { class: "dk-pass" },
        h("div", { class: "dk-pass-option" }, left, h("p", { class: "small muted" }, ringText(st, "left"))),
        h("div", { class: "dk-pass-option" }, right, h("p", { class: "small muted" }, ringText(st, "right")))));
    return { el: body, update(view, s) { enable(left, s.phase === "passing"); enable(right, s.phase === "passing"); } };
  }
  fill(body, h("h2", {}, tr("times_up")), waiting(tr("wait_pass", { name: nameOf(st.portrayer) })),
    h("p", { class: "muted small" }, tr("pass_rule")));
  return { el: body, update() {} };
}

// --- evaluating ----------------------------------------------------------------------------

function judgeButtons(onYes, onNo, chosen, kind) {
  const yes = button(h("span", {}, h("span", { "aria-hidden": "true" }, "✓ "), tr("yes")), onYes, `dk-yes${chosen === true ? " is-chosen" : ""}`, { "aria-pressed": chosen === true ? "true" : "false", "data-act": `${kind}-yes` });
  const no = button(h("span", {}, h("span", { "aria-hidden": "true" }, "✗ "), tr("no")), onNo, `dk-no${chosen === false ? " is-chosen" : ""}`, { "aria-pressed": chosen === false ? "true" : "false", "data-act": `${kind}-no` });
  return h("div", { class: "dk-yesno" }, yes, no);
}

function screenEvaluateArtist() {
  const crit = criterionCard();
  // Slots patched on their own: a new verdict must not re-create the canvas above it.
  const frontHead = h("h2");
  const frontSheet = h("div");
  const frontControls = h("div", { class: "stack" });
  const front = h("section", { class: "card stack dk-front" }, frontHead, frontSheet, frontControls);
  const mine = h("section", { class: "card stack dk-mine" });
  const el = h("div", { class: "dk-stack" }, crit.el, front, mine);
  return {
    el,
    update(view, s) {
      crit.update(s);
      const me = S.ctx.me;
      const current = (s.criteria || []).length;
      const judging = s.judging || {};
      const artist = judging.artist;
      const settled = settledByVote(s, current, artist);
      const verdict = verdictsOf(s, current).get(artist);
      patch(frontHead, [artist, nameOf(artist), colourOf(artist), lang()], () => [tr("in_front"), " ", chipOf(artist)]);
      patch(frontSheet, [artist, s.paper, lang()], () =>
        (s.paper ? h("p", { class: "muted" }, tr("paper_front"))
          : sheetElement(judging.canvas || [], tr("canvas_of", { name: nameOf(artist) }))));
      const asked = criterionText(s, current);
      patch(frontControls, [artist, current, judging.my_verdict, settled, verdict, asked, lang()], () => (settled
        ? h("p", { class: "dk-settled" }, mark(verdict), " ", tr("settled", { verdict: verdict ? tr("yes") : tr("no") }))
        : [
          h("p", { class: "dk-question" }, ...question(tr("question_n", { n: current }), asked)),
          // The criterion goes with the verdict, so a YES can only be for the one named.
          judgeButtons(() => S.ctx.act("judge", { met: true, criterion: current }), () => S.ctx.act("judge", { met: false, criterion: current }), judging.my_verdict, "judge"),
          // The rules let an unsure Evaluator put the canvas to the table too.
          button(tr("unsure"), () => S.ctx.act("dispute", { artist, criterion: current }), "btn-quiet btn-small dk-unsure", { "data-act": "dispute-front" }),
        ]));
      const my = verdictsOf(s, current).get(me);
      const mySettled = settledByVote(s, current, me);
      const evaluator = evaluatorOf(s, me);
      const judge = evaluator == null ? "…" : nameOf(evaluator);
      patch(mine, ["mine", current, my, mySettled, judge, lang()], () => [
        h("h2", {}, tr("your_canvas")),
        h("p", { class: "dk-own" }, mark(my),
          " ",
          my === null ? tr("own_waiting", { name: judge }) : tr(my ? "own_yes" : "own_no", { name: judge }),
          mySettled ? h("span", { class: "dk-tag" }, tr("by_vote")) : null),
        my === false && !mySettled
          ? button(tr("dispute"), () => S.ctx.act("dispute", { artist: me }), "btn-danger btn-block", { "data-act": "dispute" })
          : null,
      ]);
    },
  };
}

function screenDispute(role) {
  const crit = criterionCard();
  const card = h("section", { class: "card stack dk-dispute" });
  const extra = role === "portrayer" ? criteriaList() : null;
  const closer = voteCloser();
  const el = h("div", { class: "dk-stack" }, crit.el, card, extra && extra.el);
  const head = h("div", { class: "stack" });
  const sheet = h("div");
  const controls = h("div", { class: "stack" });
  const status = h("div", { class: "stack" });
  if (role === "watcher") fill(card, head, sheet, controls);
  else if (role !== "portrayer") fill(card, head, sheet, controls, closer.el);
  else fill(card, status, closer.el);
  return {
    el,
    update(view, s) {
      crit.update(s);
      const d = s.dispute || {};
      const voted = d.voted || [];
      const voters = s.artists || [];
      const me = S.ctx.me;
      const asked = d.asked || [];
      closer.update({
        open: voted.length < voters.length, countdown: Boolean(d.countdown),
        asked: asked.length, mine: asked.includes(me), total: voters.length + 1,
      });
      if (role === "portrayer") {
        patch(status, ["p", d.artist, d.criterion, voted, lang()], () => [
          h("h2", {}, tr("dispute_title")),
          h("p", {}, tr("dispute_about", { name: nameOf(d.artist), n: d.criterion })),
          waiting(tr("vote_progress", { n: voted.length, total: voters.length })),
          h("p", { class: "muted small" }, tr("portrayer_no_vote")),
        ]);
        extra.update(view, s);
        return;
      }
      const mine = voted.includes(me);
      if (role === "watcher") {
        patch(controls, ["w", voted.length, voters.length, lang()], () => [
          waiting(tr("watch_dispute", { n: voted.length, total: voters.length })),
          h("p", { class: "muted small" }, tr("tie_rule")),
        ]);
      }
      const disputed = criterionText(s, d.criterion);
      patch(head, [d.artist, d.criterion, nameOf(d.artist), disputed, lang()], () => [
        h("h2", {}, tr("dispute_title")),
        h("p", { class: "lead" },
          ...question(tr("dispute_question", { name: nameOf(d.artist), n: d.criterion }), disputed)),
      ]);
      patch(sheet, [d.artist, d.criterion, s.paper, lang()], () =>
        (s.paper ? h("p", { class: "muted" }, tr("paper_dispute", { name: nameOf(d.artist) }))
          : sheetElement(d.canvas || [], tr("canvas_of", { name: nameOf(d.artist) }))));
      if (role !== "watcher") patch(controls, [d.artist, d.criterion, mine, voted.length, lang()], () => [
        mine
          ? waiting(tr("vote_cast", { n: voted.length, total: voters.length }))
          : judgeButtons(() => S.ctx.act("vote", { met: true }), () => S.ctx.act("vote", { met: false }), null, "vote"),
        h("p", { class: "muted small" }, tr("tie_rule")),
      ]);
    },
  };
}

/** The criteria read so far with their tallies; the Portrayer may read one again (not a
 * watcher: `readOnly`). */
function criteriaList(readOnly = false) {
  const el = h("section", { class: "card stack dk-list" });
  return {
    el,
    update(view, s) {
      const criteria = s.criteria || [];
      const current = criteria.length;
      const reading = s.reading;
      const rows = criteria.map((c, i) => {
        const n = i + 1;
        const verdicts = [...verdictsOf(s, n).values()];
        return [n, local(c), verdicts.filter((v) => v === true).length, verdicts.filter((v) => v !== null).length];
      });
      patch(el, ["list", rows, reading, s.golden, s.artists, s.dispute ? 1 : 0, lang()], () => [
        h("h2", {}, tr("criteria_so_far")),
        h("ol", { class: "dk-criteria" }, rows.slice().reverse().map(([n, text, met, judged]) =>
          h("li", { class: `dk-crit${n === reading ? " is-reading" : ""}${n === s.golden ? " is-golden" : ""}` },
            h("span", { class: "dk-crit-no" }, n === s.golden ? `★${n}` : String(n)),
            h("span", { class: "dk-crit-text" }, text,
              h("span", { class: "small muted dk-crit-tally" }, tr("tally", { met, total: (s.artists || []).length, judged }))),
            n === reading
              ? h("span", { class: "dk-tag" }, n === current ? tr("on_screen") : tr("reading"))
              : readOnly ? null : button(tr("reread"), () => S.ctx.act("reread", { criterion: n }), "btn-quiet btn-small", { "data-act": `reread-${n}` })))),
      ]);
    },
  };
}

function screenEvaluatePortrayer(st) {
  const crit = criterionCard();
  const status = h("section", { class: "card stack dk-status" });
  const next = button("", () => S.ctx.act("next"), "btn-primary btn-block dk-big", { "data-act": "next" });
  const list = criteriaList();
  const scene = h("details", { class: "card dk-scene-peek" },
    h("summary", {}, tr("peek")), portrayerScene(st, { note: false }));
  const el = h("div", { class: "dk-stack" }, crit.el, status, list.el, scene);
  return {
    el,
    update(view, s) {
      crit.update(s);
      const current = (s.criteria || []).length;
      const verdicts = verdictsOf(s, current);
      const all = [...verdicts.values()].every((v) => v !== null);
      patch(status, ["status", current, [...verdicts.entries()], lang()], () => [
        h("h2", {}, tr("verdicts", { n: current })),
        h("ul", { class: "dk-people" }, [...verdicts.entries()].map(([a, v]) =>
          h("li", { class: "dk-person" }, chipOf(a), mark(v),
            h("span", { class: "small muted" }, v === null ? tr("judging_now", { name: nameOf(evaluatorOf(s, a)) })
              : settledByVote(s, current, a) ? tr("by_vote") : "")))),
        next,
      ]);
      next.textContent = current >= CRITERIA ? tr("to_scores") : tr("next");
      enable(next, all && !s.dispute);
      list.update(view, s);
    },
  };
}

/** A watcher during the verdicts: the criterion, every canvas's verdict so far and the
 * criteria read, as on the kiosk (no canvas: they are face down until the art show). */
function screenEvaluateWatch(st) {
  const crit = criterionCard();
  const status = h("section", { class: "card stack dk-status" });
  const list = criteriaList(true);
  const el = h("div", { class: "dk-stack" }, crit.el, status, list.el);
  return {
    el,
    update(view, s) {
      crit.update(s);
      const current = (s.criteria || []).length;
      const verdicts = verdictsOf(s, current);
      patch(status, ["watch", current, [...verdicts.entries()], s.direction, lang()], () => [
        h("h2", {}, tr("verdicts", { n: current })),
        h("p", { class: "muted small" }, tr("watch_evaluate", { name: nameOf(s.portrayer) })),
        h("ul", { class: "dk-people" }, [...verdicts.entries()].map(([a, v]) =>
          h("li", { class: "dk-person" }, chipOf(a), mark(v),
            h("span", { class: "small muted" }, v === null ? tr("judging_now", { name: nameOf(evaluatorOf(s, a)) })
              : settledByVote(s, current, a) ? tr("by_vote") : "")))),
      ]);
      list.update(view, s);
    },
  };
}

// --- art show ------------------------------------------------------------------------------

function screenArtShow(st, role) {
  const el = h("div", { class: "dk-stack" });
  const show = h("section", { class: "card stack dk-artshow" });
  const scores = h("section", { class: "card stack dk-scores" });
  const go = role === "portrayer" && st.phase === "artshow"
    ? button(st.round >= st.rounds ? tr("finish") : tr("next_round"), () => S.ctx.act("next"), "btn-primary btn-block dk-big", { "data-act": "next-round" })
    : null;
  fill(el, show, scores,
    st.phase === "artshow" ? (go || waiting(tr("wait_next", { name: nameOf(st.portrayer) }))) : null);
  return {
    el,
    update(view, s) {
      const shows = Array.isArray(s.art_show) ? s.art_show : [];
      const url = sceneUrl(s.scene);
      patch(show, ["show", shows.map((r) => [r.round, r.scene_key, Object.keys(r.canvases || {})]), s.round_points, url ? 1 : 0, lang()], () => [
        h("h2", {}, tr("artshow")),
        // The newest round open, the others a line each to open (a few screens, not ten).
        shows.slice().reverse().map((round, i) => {
          const sceneSrc = S.scenes.get(round.scene_key) || (s.scene && s.scene.key === round.scene_key ? url : null)
            || sceneUrl({ key: round.scene_key, svg: round.scene_svg });
          const canvases = Object.entries(round.canvases || {});
          return h(shows.length > 1 ? "details" : "div", { class: "dk-round", ...(shows.length > 1 ? roundFold(JSON.stringify(shows.map((r) => r.scene_key)), round.round, i === 0) : {}) },
            shows.length > 1 ? h("summary", {}, h("h3", {}, tr("round_title", { n: round.round, title: tr("quoted", { title: local(round.title) }) }))) : null,
            h("div", { class: "dk-gallery" },
              h("figure", { class: "dk-tile dk-tile-scene" },
                sceneSrc ? sceneImage(sceneSrc, tr("scene_alt", { title: local(round.title) })) : h("div", { class: "dk-noscene" }, "?"),
                h("figcaption", {}, h("strong", {}, tr("the_scene")))),
              canvases.map(([seat, strokes]) => {
                const n = Number(seat);
                const pts = shows.length === 1 && s.round_points ? s.round_points[seat] : null;
                return h("figure", { class: "dk-tile", style: { "--c": colourOf(n) } },
                  s.paper ? h("div", { class: "dk-noscene" }, tr("on_paper")) : sheetElement(strokes, tr("canvas_of", { name: nameOf(n) })),
                  h("figcaption", {}, h("span", { class: "dk-tile-name" }, nameOf(n)),
                    pts != null ? h("span", { class: "dk-plus" }, trn("points", pts)) : null));
              })));
        }),
      ]);
      const seats = [...seatsOf(view).keys()].filter((k) => s.scores && String(k) in s.scores);
      seats.sort((a, b) => (s.scores[String(b)] - s.scores[String(a)]) || a - b);
      patch(scores, ["scores", s.scores, s.round_points, seats.map((k) => nameOf(k)), lang()], () => [
        h("h2", {}, tr("scores")),
        h("table", { class: "dk-table" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, tr("player")), h("th", { scope: "col" }, tr("this_round")), h("th", { scope: "col" }, tr("total")))),
          h("tbody", {}, seats.map((k) => h("tr", { class: k === S.ctx.me ? "is-me" : "" },
            h("td", {}, chipOf(k), k === s.portrayer ? h("span", { class: "small muted" }, ` ${tr("portrayed")}`) : null),
            h("td", { class: "dk-num" }, s.round_points ? `+${s.round_points[String(k)] ?? 0}` : ""),
            h("td", { class: "dk-num dk-total" }, String(s.scores[String(k)] ?? 0)))))),
      ]);
      if (go) enable(go, s.phase === "artshow");
    },
  };
}

// --- choosing the screen -------------------------------------------------------------------

function layoutOf(st, role) {
  const me = S.ctx.me;
  switch (st.phase) {
    case "drawing":
      if (role === "artist") return (st.done || []).includes(me) ? "draw-done" : "draw";
      return role === "portrayer" ? "draw-portrayer" : role === "watcher" ? "draw-watch" : "wait";
    case "evaluating":
      if (st.dispute) return "dispute";
      return role === "portrayer" ? "evaluate-portrayer" : role === "artist" ? "evaluate"
        : role === "watcher" ? "evaluate-watch" : "wait";
    default:
      return st.phase;
  }
}

function build(layout, st, role) {
  switch (layout) {
    case "roll": return screenRoll(st, role);
    case "ready": return screenReady(st, role);
    case "draw": return screenDrawArtist(st);
    case "draw-done": return screenDrawDone(st);
    case "draw-portrayer": return screenDrawPortrayer(st);
    case "draw-watch": return screenDrawWatch(st);
    case "passing": return screenPassing(st, role);
    case "evaluate": return screenEvaluateArtist();
    case "evaluate-portrayer": return screenEvaluatePortrayer(st);
    case "evaluate-watch": return screenEvaluateWatch(st);
    case "dispute": return screenDispute(role);
    case "artshow":
    case "over": return screenArtShow(st, role);
    default: return { el: h("section", { class: "card" }, waiting(tr("follow"))), update() {} };
  }
}

function dropPad() {
  if (S.pad) S.pad.destroy();
  S.pad = null;
  document.body.classList.remove("is-drawing");
}

const { render, dispose } = screen({
  rootClass: "duplik",
  bodyClass: "dk-body",
  headCard,
  dropPad,
  layoutKey(view, st, ctx) {
    const role = roleOf(st, ctx.me);
    return [layoutOf(st, role), role, st.round, st.paper ? 1 : 0, ctx.me, lang()].join("|");
  },
  build(view, st, ctx) {
    const role = roleOf(st, ctx.me);
    return build(layoutOf(st, role), st, role);
  },
});

registerGameScreen("duplik", {
  render,
  dispose,
  seatScore: (st, seat) => (st.scores && st.scores[String(seat)] != null ? String(st.scores[String(seat)]) : null),
});

// The look of these screens lives beside this module (style.css stays the frame's).
if (!document.querySelector("link[data-duplik-css]")) {
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/static/duplik.css", "data-duplik-css": "" }));
}
