// The per-game phone screens, looked up by `view.match.game`, and what the box says of
// each game (its house, games/house.py): the list /games.json (appliance/door/
// phone_games.py) names each game's phone script, which `loadGames` imports; the page
// itself names no game. A game's script registers its screen here:
//
//   import { registerGameScreen } from "./games.js";
//   registerGameScreen("duplik", {
//     render(root, view, ctx) { ... },   // fill `root` from the view (called on every view)
//     dispose() { ... },                 // optional: the match ended or another game began
//     seatScore(state, seat) { ... },    // optional: a seat's score as shown ("3", "1½"),
//                                        // or null (a game played together has none)
//   });
//
// `ctx` offers: act(kind, data) -> id (sends `act`, resent after a reconnect until acked),
// t(key, params), lang(), h(...) (the DOM builder), me (your seat or null), seats, deadline
// ({remaining, length, what} recomputed each second, or null), watching (true on a phone
// that watches: `me` is null, the view's state is the public one the kiosk gets, and the
// screen shows it read-only, with no control that would send a move; `act` sends
// nothing there). Games without a screen fall back to the generic "game in progress"
// screen.

export const GAME_SCREENS = {};

export function registerGameScreen(gameId, screen) {
  if (!screen || typeof screen.render !== "function") {
    throw new TypeError(`game screen for ${gameId} needs a render(root, view, ctx)`);
  }
  GAME_SCREENS[gameId] = screen;
}

export function gameScreen(gameId) {
  return Object.prototype.hasOwnProperty.call(GAME_SCREENS, gameId) ? GAME_SCREENS[gameId] : null;
}

// What the box lists of each game: {id, script, together, options}. Each option is
//   { key: "turns", label: {en: "Each player portrays", cs: "..."}, choices: [[1, "1×"], ...],
//     value: 1, phone: true }
// with `toggle: true`, `number: [low, high]` or `choices`; `value` is what this box starts it
// at (its config, else the game's default; options without a control take the config's value
// at the start), `phone` that the seated host's lobby offers it too.
const GAMES = new Map();

/** Fetch the box's list of games and (`withScripts`) import every game's phone script (each
 * registers its screen); a script that fails is left out (its game shows the generic screen). */
export async function loadGames(withScripts = true) {
  let listed = [];
  try {
    const response = await fetch("/games.json", { credentials: "same-origin" });
    const body = response.ok ? await response.json() : null;
    listed = body && Array.isArray(body.games) ? body.games : [];
  } catch (err) {
    console.warn("games: the list of games did not load", err);
  }
  for (const game of listed) {
    if (game && typeof game.id === "string") GAMES.set(game.id, game);
  }
  if (!withScripts) return;
  await Promise.all(listed.filter((g) => g && typeof g.script === "string" && g.script.startsWith("/"))
    .map((g) => import(g.script).catch((err) => console.warn(`games: ${g.script} not loaded`, err))));
}

/** Whether the table plays `gameId` together (its result is the table's, not a ranking). */
export function playedTogether(gameId) {
  const game = GAMES.get(gameId);
  return Boolean(game && game.together);
}

/** The start options of `gameId` the host may choose: on the host page all of them, in the
 * phone's lobby (`onPhone`) those its house offers there. */
export function gameOptions(gameId, onPhone = false) {
  const game = GAMES.get(gameId);
  const options = game && Array.isArray(game.options) ? game.options : [];
  return onPhone ? options.filter((o) => o.phone) : options;
}

/** An option's label in `code` (English for a language it lacks). */
export function optionLabel(option, code) {
  const label = option.label || {};
  return String(label[code] ?? label.en ?? option.key);
}
