// The per-game phone screens, looked up by `view.match.game`.
//
// A game's module registers itself here and app.js imports it:
//
//   import { registerGameScreen } from "./games.js";
//   registerGameScreen("duplik", {
//     render(root, view, ctx) { ... },   // fill `root` from the view (called on every view)
//     dispose() { ... },                 // optional: the match ended or another game began
//   });
//
// `ctx` offers: act(kind, data) -> id (sends `act`, resent after a reconnect until acked),
// t(key, params), lang(), h(...) (the DOM builder), me (your seat or null), seats, deadline
// ({remaining, length, what} recomputed each second, or null). Games without a screen fall
// back to the generic "game in progress" screen.

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

// Options the host chooses before starting a game, shown under the game list:
//   registerGameOptions("duplik", [
//     { key: "turns", label: "duplik.opt.turns", choices: [[1, "1×"], [2, "2×"], [3, "3×"]],
//       value: 1 },
//     { key: "paper", label: "duplik.opt.paper", toggle: true, value: false },
//   ]);
// Labels are i18n keys; `value` is the default. The chosen values go out with `start`.
export const GAME_OPTIONS = {};

export function registerGameOptions(gameId, options) {
  GAME_OPTIONS[gameId] = options;
}

export function gameOptions(gameId) {
  return Object.prototype.hasOwnProperty.call(GAME_OPTIONS, gameId) ? GAME_OPTIONS[gameId] : [];
}
