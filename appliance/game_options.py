"""What the box's config says each game starts with, before the host's own choices.

Each game that reads settings from `config/appliance.toml` (its hourglass, its length, its
rule checks) has one function here turning the config into that game's start options; the
host's options at `start` override them key by key. `seat_options` then adds what the
seats say, whoever asked for the start: which have no phone (seats made at the kiosk).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, Final

from appliance.config import Config
from games.core import NO_SCREEN

Options = dict[str, Any]


def _duplik(config: Config) -> Options:
    return {"seconds": config.timers.duplik_s}


def _artbox(config: Config) -> Options:
    return {"seconds": config.timers.artbox_s}


def _luck_of_the_draw(config: Config) -> Options:
    game = config.luck_of_the_draw
    return {
        "seconds": config.timers.luck_of_the_draw_s,
        "extended": game.extended_time,
        "extended_factor": config.timers.extended_factor,
        "auto_hourglass": game.auto_hourglass,
        "longer": game.longer_game,
        "extra_cards": game.extra_cards,
        "speedier": game.speedier_game,
    }


def _broad_lines(config: Config) -> Options:
    return {"sheets": config.broad_lines.sheets, "check_sheets": config.broad_lines.check_sheets}


DEFAULTS: Final[dict[str, Callable[[Config], Options]]] = {
    "broad-lines": _broad_lines,
    "duplik": _duplik,
    "artbox": _artbox,
    "luck-of-the-draw": _luck_of_the_draw,
}


def default_options(config: Config, game: str) -> Options:
    """The start options the config gives `game` ({} for a game with no settings)."""
    make = DEFAULTS.get(game)
    return make(config) if make else {}


NO_SCREEN_GAMES: Final = frozenset({"broad-lines", "duplik"})
"""Games that take the NO_SCREEN start option (they deal roles around seats without a
phone, or pass the device to them)."""

PAPER_GAMES: Final = frozenset({"duplik"})
"""Games whose drawing may be on paper (a start option `paper`): started so while a seat
without a phone is at the table, the box being hourglass, die and scoreboard."""

PHONE_GAMES: Final = frozenset({"luck-of-the-draw", "artbox"})
"""Games in which every player draws and votes on their own screen: a seat without a
phone could play no part (ArtBox would wait for it), so they are not started while one is
seated (appliance/session.py says why)."""


def seat_options(game: str, options: Options, no_phone: Collection[int]) -> Options:
    """`options` with what the seats say: NO_SCREEN lists the seats `no_phone` (and is
    dropped whatever a caller sent: it is the seats' fact, not a choice), and a paper
    game is drawn on paper while one is seated."""
    out = {k: v for k, v in options.items() if k != NO_SCREEN}
    if no_phone and game in NO_SCREEN_GAMES:
        out[NO_SCREEN] = sorted(no_phone)
    if no_phone and game in PAPER_GAMES:
        out["paper"] = True
    return out
