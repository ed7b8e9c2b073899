// The drawing canvas every game uses: a finger, a pen or a mouse draws on a landscape
// sheet, and each stroke becomes data in the sheet space the whole box shares
// (SHEET.width x SHEET.height, 16:10; docs/protocol.md and games/sheet.py): integer
// [x, y, t] points, t in ms since the stroke began, plus colour and width.
//
//   const pad = createCanvas({ onStroke(stroke) {...}, onUndo() {...} });
//   parent.append(pad.el);          // toolbar + sheet
//   pad.sync(serverStrokes);        // after every view: adopt the box's copy when it differs
//   pad.setEnabled(false);          // handed in, or time is up
//   pad.addStroke(stroke);          // a stroke made some other way (ArtBox's shape tool):
//                                   // shown at once, sent through onStroke like a drawn one
//   pad.clear();                    // wipe the sheet (sends onClear if given)
//   pad.current();                  // {colour, width} the toolbar has chosen
//   pad.destroy();
//
//   renderStrokes(canvasEl, strokes);  // a read-only sheet (judging, art show), kept sharp
//                                      // on resize and on a change of devicePixelRatio
//
// The stroke is drawn locally at once and sent on pointerup; the box's copy comes back
// in the next view. `sync` tells a stroke still on its way from one the box refused.
//
//   noteMove(id, data);             // the page sent move `id` carrying `data` (app.js)
//   setMoveFate(id, fate);          // and what became of it: "waiting" (refused for a
//                                   // budget or the pause, to be sent again: kept on the
//                                   // sheet), "sent", "done", or "refused" (given up:
//                                   // shown faded, "Not saved", never silently gone)

import { t } from "./i18n.js";
import { fill, h } from "./ui.js";

export const SHEET = Object.freeze({ width: 1600, height: 1000 });
export const MAX_POINTS = 4000;          // games.strokes.MAX_POINTS
export const MIN_STEP = 2;               // sheet units between kept points
export const PAPER = "#fffdf7";
export const COLOURS = ["#202020", "#e53935", "#1e66f5", "#2e9e44", "#f28c28", "#8d5524"];
export const WIDTHS = [6, 14, 30];       // sheet units (the box allows 2-60)

const STALE_MS = 4000; // a move unanswered this long was lost or refused: trust the box

// The host paused the game: every pad stops taking new strokes (the box would refuse
// them), whatever its game allows, says so over the sheet itself (a phone scrolled to its
// canvas sees it) and takes them again on resume. A stroke under the finger when the
// pause comes is kept: the page sends it at resume (app.js holds moves while paused).
let tablePaused = false;
const livePads = new Set();

/** Pause (or resume) drawing on every canvas of the page. */
export function setTablePaused(on) {
  const paused = Boolean(on);
  if (paused === tablePaused) return;
  tablePaused = paused;
  for (const pad of livePads) pad.onPause();
}

// What became of each stroke sent (app.js tells): a pad keeps a stroke whose move waits
// to be sent again, and shows one given up faded instead of dropping it.
const strokeMoves = new WeakMap(); // stroke object (the move's data) -> move id
const fates = new Map();           // move id -> {fate: "waiting" | "sent", stroke}; gone once answered

/** Move `id` carries `data`: if that is a pad's stroke, its fate is followed. */
export function noteMove(id, data) {
  if (data && typeof data === "object" && Array.isArray(data.points)) {
    strokeMoves.set(data, id);
    fates.set(id, { fate: "sent", stroke: data });
  }
}

/** What became of move `id`: "waiting", "sent", "done" or "refused" (see above). */
export function setMoveFate(id, fate) {
  const known = fates.get(id);
  if (!known) return;
  if (fate === "waiting" || fate === "sent") known.fate = fate;
  else fates.delete(id);
  for (const pad of livePads) pad.onFate(id, fate, known.stroke);
}

function isWaiting(op) {
  if (!op || op.kind !== "stroke") return false;
  const id = strokeMoves.get(op.stroke);
  const known = id === undefined ? undefined : fates.get(id);
  return Boolean(known && known.fate === "waiting");
}

// --- geometry ----------------------------------------------------------------------

/** The sheet's rectangle (CSS pixels) inside a box of w x h: as large as fits, centred. */
export function sheetRect(w, h) {
  const scale = Math.min(w / SHEET.width, h / SHEET.height);
  const sw = SHEET.width * scale;
  const sh = SHEET.height * scale;
  return { x: (w - sw) / 2, y: (h - sh) / 2, w: sw, h: sh, scale };
}

function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

function validStrokes(list) {
  return Array.isArray(list)
    ? list.filter((s) => s && Array.isArray(s.points) && s.points.length > 0)
    : [];
}

function signature(stroke) {
  const p = stroke.points;
  const first = p[0] || [];
  const last = p[p.length - 1] || [];
  return `${p.length}|${first.join(",")}|${last.join(",")}|${String(stroke.colour || "").toLowerCase()}|${stroke.width}`;
}

function sameStrokes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (signature(a[i]) !== signature(b[i])) return false;
  return true;
}

// --- painting ------------------------------------------------------------------------

function paintStroke(ctx, stroke, rect) {
  const pts = stroke.points;
  if (!pts.length) return;
  const width = Math.max(1, (Number(stroke.width) || 8) * rect.scale);
  ctx.strokeStyle = ctx.fillStyle = /^#[0-9a-f]{6}$/i.test(stroke.colour) ? stroke.colour : "#202020";
  ctx.lineWidth = width;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const x = (p) => rect.x + p[0] * rect.scale;
  const y = (p) => rect.y + p[1] * rect.scale;
  if (pts.length === 1) {
    ctx.beginPath();
    ctx.arc(x(pts[0]), y(pts[0]), width / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.beginPath();
  ctx.moveTo(x(pts[0]), y(pts[0]));
  for (let i = 1; i < pts.length; i += 1) ctx.lineTo(x(pts[i]), y(pts[i]));
  ctx.stroke();
}

/** Size `canvas`'s backing store to its CSS box at the device's pixel ratio; returns the
 *  2D context (in CSS pixels) and the box, or null while the canvas is not laid out. */
function fitBacking(canvas) {
  const box = canvas.getBoundingClientRect();
  if (box.width < 2 || box.height < 2) return null;
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  const w = Math.round(box.width * dpr);
  const hgt = Math.round(box.height * dpr);
  if (canvas.width !== w || canvas.height !== hgt) {
    canvas.width = w;
    canvas.height = hgt;
  }
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w: box.width, h: box.height };
}

function paintSheet(canvas, strokes, faded = []) {
  const fit = fitBacking(canvas);
  if (!fit) return null;
  const { ctx, w, h: hgt } = fit;
  const rect = sheetRect(w, hgt);
  ctx.clearRect(0, 0, w, hgt);
  ctx.fillStyle = PAPER;
  ctx.fillRect(rect.x, rect.y, rect.w, rect.h);
  if (faded.length) {
    // Strokes the box would not keep: there, but plainly not part of the drawing.
    ctx.save();
    ctx.globalAlpha = 0.45;
    ctx.setLineDash([10, 8]);
    for (const stroke of faded) paintStroke(ctx, stroke, rect);
    ctx.restore();
  }
  for (const stroke of strokes) paintStroke(ctx, stroke, rect);
  return { ctx, rect };
}

// Read-only sheets: the strokes each canvas shows, and one observer for all of them.
const shown = new WeakMap();
let observer = null;

function watch(canvas) {
  if (!observer && typeof ResizeObserver === "function") {
    observer = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const strokes = shown.get(entry.target);
        if (strokes) paintSheet(entry.target, strokes);
      }
    });
  }
  if (observer) observer.observe(canvas);
}

/** Draw `strokes` read-only on `canvasEl` (and again whenever it is resized). */
export function renderStrokes(canvasEl, strokes) {
  const list = validStrokes(strokes);
  const first = !shown.has(canvasEl);
  shown.set(canvasEl, list);
  if (first) watch(canvasEl);
  paintSheet(canvasEl, list);
  return canvasEl;
}

/** A new read-only sheet element showing `strokes`. */
export function sheetElement(strokes, label) {
  const canvas = h("canvas", { class: "sheet-canvas", role: "img", "aria-label": label || t("canvas.drawing") });
  const box = h("div", { class: "sheet-box is-readonly" }, canvas);
  // Painted once laid out (the observer fires then); painting now would find no size.
  shown.set(canvas, validStrokes(strokes));
  watch(canvas);
  requestAnimationFrame(() => paintSheet(canvas, shown.get(canvas) || []));
  return box;
}

// --- the drawing pad -----------------------------------------------------------------------

/**
 * A canvas to draw on, with its toolbar (colours, widths, undo).
 * @param {{onStroke: (s: {points: number[][], colour: string, width: number}) => void,
 *          onUndo: () => void, onClear?: () => void, colours?: string[], widths?: number[],
 *          extra?: Node}} opts
 */
export function createCanvas(opts) {
  const colours = opts.colours || COLOURS;
  const widths = opts.widths || WIDTHS;
  let colour = colours[0];
  let width = widths[1] ?? widths[0];
  let enabled = true;
  let strokes = [];        // what the player sees: the box's copy plus moves on their way
  let pending = [];        // [{kind: "stroke"|"undo"|"clear", stroke?, at}] not yet in a view
  let live = null;         // the stroke under the finger: {id, points, colour, width, start, last}
  let unsaved = [];        // strokes the box refused for good (after every resend): faded
  const mine = new WeakSet(); // the strokes this pad sent
  let rect = null;         // the sheet's place in the canvas (CSS px)
  let ctx = null;

  const canvas = h("canvas", {
    class: "sheet-canvas",
    role: "img",
    "aria-label": t("canvas.label"),
  });
  // Pinned over the sheet, so a phone scrolled to its canvas sees them: the pause, and
  // the strokes the box could not keep.
  const pauseNote = h("div", { class: "sheet-pause", role: "status", hidden: true },
    h("span", { class: "pause-mark", "aria-hidden": "true" }),
    h("span", { class: "sheet-pause-text" },
      h("strong", {}, t("canvas.paused")), " ", h("span", {}, t("canvas.paused_help"))));
  const unsavedNote = h("div", { class: "sheet-unsaved", role: "alert", hidden: true });
  const box = h("div", { class: "sheet-box" }, canvas, pauseNote, unsavedNote);
  const undoButton = h("button", {
    type: "button",
    class: "btn btn-quiet btn-small tool-undo",
    "aria-label": t("canvas.undo"),
    title: t("canvas.undo"),
    onclick: () => undo(),
  }, h("span", { "aria-hidden": "true" }, "↶"), h("span", { class: "tool-text" }, t("canvas.undo")));

  const group = `pad-${Math.random().toString(36).slice(2, 8)}`;
  const colourTools = h("div", { class: "tools tools-colours", role: "radiogroup", "aria-label": t("canvas.colour") },
    colours.map((c, i) => h("label", { class: "tool tool-colour", title: t(`canvas.colour_${i}`) },
      h("input", {
        type: "radio", name: `${group}-c`, value: c, checked: c === colour,
        onchange: () => { colour = c; },
      }),
      h("span", { class: "tool-swatch", style: { "--c": c }, "aria-hidden": "true" }),
      h("span", { class: "visually-hidden" }, t(`canvas.colour_${i}`)))));
  const widthTools = h("div", { class: "tools tools-widths", role: "radiogroup", "aria-label": t("canvas.width") },
    widths.map((w, i) => h("label", { class: "tool tool-width", title: t(`canvas.width_${i}`) },
      h("input", {
        type: "radio", name: `${group}-w`, value: String(w), checked: w === width,
        onchange: () => { width = w; },
      }),
      h("span", { class: "tool-dot", style: { "--d": `${6 + i * 6}px` }, "aria-hidden": "true" }),
      h("span", { class: "visually-hidden" }, t(`canvas.width_${i}`)))));
  const toolbar = h("div", { class: "toolbar" }, colourTools, widthTools, undoButton, opts.extra || null);
  const el = h("div", { class: "pad" }, box, toolbar);

  // On a phone held upright the toolbar is one row (style.css): each group shows only
  // its chosen tool, and a tap on it opens the whole group in the row to choose from.
  function closeGroups() {
    toolbar.classList.remove("is-picking");
    for (const g of [colourTools, widthTools]) g.classList.remove("is-open");
  }
  for (const group of [colourTools, widthTools]) {
    group.addEventListener("click", (event) => {
      const input = event.target;
      if (!(input instanceof HTMLInputElement)) return;
      if (group.classList.contains("is-open")) {
        closeGroups();
        return;
      }
      const folded = [...group.querySelectorAll(".tool")].some((label) =>
        !label.contains(input) && getComputedStyle(label).display === "none");
      if (!folded) return;
      closeGroups();
      group.classList.add("is-open");
      toolbar.classList.add("is-picking");
    });
  }

  function redraw() {
    const painted = paintSheet(canvas, strokes, unsaved);
    if (!painted) return;
    ({ ctx, rect } = painted);
    if (live) paintStroke(ctx, live, rect);
    undoButton.disabled = !enabled || strokes.length === 0;
  }

  function toSheet(event) {
    const box2 = canvas.getBoundingClientRect();
    const r = rect || sheetRect(box2.width, box2.height);
    const x = (event.clientX - box2.left - r.x) / r.scale;
    const y = (event.clientY - box2.top - r.y) / r.scale;
    return [Math.round(clamp(x, 0, SHEET.width)), Math.round(clamp(y, 0, SHEET.height))];
  }

  function addPoint(event, force) {
    const [x, y] = toSheet(event);
    const last = live.points[live.points.length - 1];
    const ms = Math.max(0, Math.round(event.timeStamp - live.start));
    if (!force && Math.hypot(x - last[0], y - last[1]) < MIN_STEP) return;
    if (force && last[0] === x && last[1] === y) return;
    live.points.push([x, y, Math.max(ms, last[2])]);
    if (ctx && rect) {
      // Draw only the new segment: the frame cost stays flat however long the stroke.
      ctx.strokeStyle = live.colour;
      ctx.lineWidth = Math.max(1, live.width * rect.scale);
      ctx.lineCap = "round";
      ctx.lineJoin = "round";
      ctx.beginPath();
      ctx.moveTo(rect.x + last[0] * rect.scale, rect.y + last[1] * rect.scale);
      ctx.lineTo(rect.x + x * rect.scale, rect.y + y * rect.scale);
      ctx.stroke();
    }
    if (live.points.length >= MAX_POINTS) {
      // A very long scribble goes on as a new stroke from the same spot.
      const id = live.id;
      finish();
      begin(event, id);
    }
  }

  function begin(event, pointerId) {
    live = { id: pointerId, points: [], colour, width, start: event.timeStamp };
    const [x, y] = toSheet(event);
    live.points.push([x, y, 0]);
    if (ctx && rect) paintStroke(ctx, live, rect);
  }

  function finish() {
    if (!live) return;
    const stroke = { points: live.points, colour: live.colour, width: live.width };
    live = null;
    strokes.push(stroke);
    mine.add(stroke);
    pending.push({ kind: "stroke", stroke, at: performance.now() });
    undoButton.disabled = !enabled;
    try {
      opts.onStroke(stroke);
    } catch (err) {
      console.error(err);
    }
  }

  /**
   * Send the stroke under the finger now and go on drawing it from the same spot: used
   * just before the hourglass runs out, so a drawing taken at time up holds everything
   * drawn, even if the finger never lifts (or the phone drops right then).
   */
  function flush() {
    if (!live || live.points.length < 2) return;
    const { id } = live;
    const [x, y] = live.points[live.points.length - 1];
    finish();
    live = { id, points: [[x, y, 0]], colour, width, start: performance.now() };
  }

  function onDown(event) {
    closeGroups();
    if (enabled && tablePaused && !live) {
      nudge();
      return;
    }
    if (!enabled || tablePaused || live) return; // one finger draws; not a palm or a second
    if (event.pointerType === "mouse" && event.button !== 0) return;
    event.preventDefault();
    try {
      canvas.setPointerCapture(event.pointerId);
    } catch (err) {
      // Synthetic events cannot be captured; drawing works without.
    }
    if (!rect) redraw();
    begin(event, event.pointerId);
  }

  function onMove(event) {
    if (!live || event.pointerId !== live.id) return;
    event.preventDefault();
    const events = typeof event.getCoalescedEvents === "function" ? event.getCoalescedEvents() : [];
    for (const e of events.length ? events : [event]) addPoint(e, false);
  }

  function onUp(event) {
    if (!live || event.pointerId !== live.id) return;
    event.preventDefault();
    addPoint(event, true);
    finish();
  }

  function onCancel(event) {
    // The system took the touch (a gesture, a call): the half stroke is dropped.
    if (!live || event.pointerId !== live.id) return;
    live = null;
    redraw();
  }

  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", onCancel);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());

  const resize = typeof ResizeObserver === "function" ? new ResizeObserver(() => redraw()) : null;
  if (resize) resize.observe(canvas);
  const dprQuery = window.matchMedia ? window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`) : null;
  const onDpr = () => redraw();
  if (dprQuery && dprQuery.addEventListener) dprQuery.addEventListener("change", onDpr);
  window.addEventListener("resize", onDpr);

  function undo() {
    if (enabled && tablePaused) return nudge();
    if (!enabled || !strokes.length) return false;
    strokes.pop();
    pending.push({ kind: "undo", at: performance.now() });
    redraw();
    try {
      opts.onUndo();
    } catch (err) {
      console.error(err);
    }
    return true;
  }

  /**
   * The box's copy of this canvas arrived. Moves still on their way explain a difference
   * (a stroke sent but not yet logged): find how many of them the box has already applied;
   * if none explains it (a refused move, a reload, another phone) the box is right.
   */
  function sync(serverStrokes) {
    const server = validStrokes(serverStrokes);
    const now = performance.now();
    let adopted = false;
    for (let k = 0; k <= pending.length; k += 1) {
      const predicted = server.slice();
      for (const op of pending.slice(k)) {
        if (op.kind === "stroke") predicted.push(op.stroke);
        else if (op.kind === "clear") predicted.length = 0;
        else predicted.pop();
      }
      if (sameStrokes(predicted, strokes)) {
        pending = pending.slice(k);
        adopted = true;
        break;
      }
    }
    // A move refused for a budget or the pause is sent again, and the page holds every
    // later move behind it (app.js): none of them is stale while the first one waits.
    if (adopted && pending.length && !isWaiting(pending[0]) && now - pending[0].at > STALE_MS) adopted = false;
    if (!adopted) {
      // The box is right; the strokes still to be sent again stay on top of its copy.
      const kept = pending.filter(isWaiting);
      strokes = server.map((s) => ({ points: s.points, colour: s.colour, width: s.width }));
      for (const op of kept) strokes.push(op.stroke);
      pending = kept;
      redraw();
    }
  }

  /** App.js told what became of move `id` (carrying `stroke`): one on its way again is
   *  fresh, one given up goes faded, "Not saved". */
  function onFate(id, fate, stroke) {
    if (!mine.has(stroke)) return;
    const at = pending.findIndex((op) => op.kind === "stroke" && op.stroke === stroke);
    if (fate === "sent" && at >= 0) pending[at].at = performance.now();
    if (fate !== "refused") return;
    if (at >= 0) pending.splice(at, 1);
    const i = strokes.lastIndexOf(stroke);
    if (i >= 0) strokes.splice(i, 1);
    unsaved.push(stroke);
    if (unsaved.length > 20) unsaved = unsaved.slice(-20);
    showUnsaved();
    redraw();
  }

  function showUnsaved() {
    unsavedNote.hidden = unsaved.length === 0;
    if (!unsaved.length) return;
    // Beside the last stroke given up (in sheet units, so it follows any resize).
    const pts = unsaved[unsaved.length - 1].points;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const top = (Math.min(...ys) / SHEET.height) * 100;
    const bottom = (Math.max(...ys) / SHEET.height) * 100;
    unsavedNote.style.left = `${clamp((cx / SHEET.width) * 100, 25, 75)}%`;
    // Above the faded stroke if there is room, else below it, else over it: the stroke
    // itself stays to be seen.
    const where = top > 28 ? "above" : bottom < 72 ? "below" : "over";
    unsavedNote.dataset.where = where;
    unsavedNote.style.top = `${where === "above" ? top - 2 : where === "below" ? bottom + 2 : (top + bottom) / 2}%`;
    fill(unsavedNote, h("strong", {}, t("canvas.not_saved")), " ", h("span", { class: "sheet-unsaved-help" }, t("canvas.not_saved_help")));
  }

  /** A finished stroke from elsewhere (a shape tool): kept, shown and sent as if drawn;
   *  false if the pad cannot take it now (disabled, or the game is paused: said so). */
  function addStroke(stroke) {
    if (enabled && tablePaused) return nudge();
    if (!enabled || !stroke || !Array.isArray(stroke.points) || !stroke.points.length) return false;
    const kept = { points: stroke.points, colour: stroke.colour || colour, width: stroke.width || width };
    strokes.push(kept);
    mine.add(kept);
    pending.push({ kind: "stroke", stroke: kept, at: performance.now() });
    redraw();
    try {
      opts.onStroke(kept);
    } catch (err) {
      console.error(err);
    }
    return true;
  }

  function clear() {
    if (enabled && tablePaused) return nudge();
    if (!enabled || !strokes.length) return false;
    strokes = [];
    pending.push({ kind: "clear", at: performance.now() });
    redraw();
    try {
      if (typeof opts.onClear === "function") opts.onClear();
    } catch (err) {
      console.error(err);
    }
    return true;
  }

  function setEnabled(on) {
    enabled = Boolean(on);
    el.classList.toggle("is-disabled", !enabled);
    if (!enabled && live) {
      live = null;
      redraw();
    }
    for (const input of toolbar.querySelectorAll("input, button")) input.disabled = !enabled;
    undoButton.disabled = !enabled || strokes.length === 0;
  }

  /** Refused where it is done: the note over the sheet says why, with a nudge. */
  function nudge() {
    pauseNote.classList.remove("is-nudged");
    void pauseNote.offsetWidth; // restart the animation
    pauseNote.classList.add("is-nudged");
    return false;
  }

  function onPause() {
    el.classList.toggle("is-paused", tablePaused);
    pauseNote.hidden = !tablePaused;
    pauseNote.classList.remove("is-nudged");
    // The stroke under the finger is kept as far as it went: the page holds it and sends
    // it at resume, never dropped silently.
    if (tablePaused && live) {
      if (live.points.length) finish();
      else live = null;
      redraw();
    }
  }
  const hooks = { onPause, onFate };
  livePads.add(hooks);
  onPause();

  function destroy() {
    livePads.delete(hooks);
    if (resize) resize.disconnect();
    if (dprQuery && dprQuery.removeEventListener) dprQuery.removeEventListener("change", onDpr);
    window.removeEventListener("resize", onDpr);
  }

  requestAnimationFrame(redraw);
  return {
    el,
    canvas,
    sync,
    setStrokes(list) {
      strokes = validStrokes(list).map((s) => ({ points: s.points, colour: s.colour, width: s.width }));
      pending = [];
      unsaved = [];
      showUnsaved();
      redraw();
    },
    strokes: () => strokes.slice(),
    current: () => ({ colour, width }),
    addStroke,
    clear,
    undo,
    flush,
    setEnabled,
    destroy,
    redraw,
  };
}
