// Small DOM helpers. Everything a stranger typed (player names, messages) goes in as
// text nodes through `h`, never as HTML: there is no innerHTML anywhere in this client.

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

/**
 * Build an element: h("button", {class: "btn", onclick: fn, disabled: true}, "text", child).
 * Attributes starting with "on" become event listeners; `dataset` and `style` objects are
 * applied through the DOM (CSP-friendly, no inline attributes). Strings become text nodes.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Shrink `el`'s font (to `minPx` at the least) until its longest word fits its width: a
 * word card never breaks inside a word ("sunflow/er"); phrases still wrap between words.
 * The element must be a block whose words may not break (`overflow-wrap: normal`).
 */
export function fitWords(el, minPx = 14) {
  el.style.fontSize = "";
  let size = parseFloat(getComputedStyle(el).fontSize) || 16;
  while (size > minPx && el.scrollWidth > el.clientWidth + 0.5) {
    size -= 1;
    el.style.fontSize = `${size}px`;
  }
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** A colour from the box, or a neutral grey if it is not a plain #rrggbb. */
export function safeColour(value) {
  return typeof value === "string" && HEX_COLOUR.test(value) ? value.toLowerCase() : "#8a8a8a";
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance). */
export function inkOn(hex) {
  const c = safeColour(hex);
  const channel = (i) => {
    const v = parseInt(c.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  // White reads friendlier on a bright colour; names are big and bold (WCAG "large
  // text"), so white wins while it keeps a 3.5:1 contrast, else the better of the two.
  const onWhite = 1.05 / (lum + 0.05);
  const onBlack = (lum + 0.05) / 0.05;
  return onWhite >= 3.5 || onWhite >= onBlack ? "#ffffff" : "#111111";
}

/** The first letter of a name (a whole emoji or accented letter, not half of one). */
export function initial(name) {
  const first = Array.from(String(name).trim())[0] || "?";
  return first.toLocaleUpperCase();
}

/** A round badge in the player's colour with their initial. */
export function avatar(name, colour, extraClass = "") {
  const c = safeColour(colour);
  return h("span", {
    class: `avatar ${extraClass}`.trim(),
    "aria-hidden": "true",
    style: { "--c": c, "--ink": inkOn(c) },
  }, initial(name));
}

/** A pill with the name on the player's colour. */
export function nameChip(name, colour) {
  const c = safeColour(colour);
  return h("span", { class: "chip", style: { "--c": c, "--ink": inkOn(c) } }, String(name));
}

/** A random id for `act` messages; crypto.randomUUID needs HTTPS, getRandomValues does not. */
export function randomId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// 6.5 cards read "6½", as on the kiosk and in Luck of the Draw's own table (never "6.5",
// which a Czech reader takes for a typo of 6,5).
export function halves(points) {
  const n = Number(points);
  if (!Number.isFinite(n) || Number.isInteger(n)) return String(points);
  return Math.abs(n % 1) === 0.5 ? `${n >= 1 ? Math.floor(n) : ""}½` : String(n);
}
