"""What the phone page and the host page learn of the games, from the games' houses.

`GET /games.json` lists every registered game with what its house (games/house.py)
declares for the pages: the URL of its phone script (which the page imports, so the page
itself names no game), whether the table plays it together, and its start options with
their controls, bounds and labels in every language, each at the value this box's config
gives it (a café that sets a longer game in config/appliance.toml gets it from the phone's
lobby too, unless the host changes it). A game that brings its own phone
files (`House.phone_files`) has them served at `/static/games/<id>/<file>`, so its script
imports the page's shared modules as "../../games.js". docs/protocol.md, "The games".
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from aiohttp import web

from appliance.system.config import Config
from appliance.table.game_options import default_options
from games import registry

STATIC_URL: Final = "/static/"
OWN_FILES_URL: Final = "/static/games/"
OWN_FILE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\.(?:js|css)")
"""A game's own phone file: a plain name of a script or a stylesheet, nothing above it."""


def script_url(game_id: str) -> str | None:
    """Where the page finds `game_id`'s phone script (None: the generic screen shows it)."""
    house = registry.house(game_id)
    if house.phone_script is None:
        return None
    if house.phone_files is not None:
        return f"{OWN_FILES_URL}{game_id}/{house.phone_script}"
    return STATIC_URL + house.phone_script


def games_list(config: Config) -> dict[str, Any]:
    """The body of /games.json: a few hundred bytes a game, made from plain data."""
    games = []
    for rules in registry.registered():
        house = registry.house(rules.id)
        configured = default_options(config, rules.id)
        options = []
        for option in house.start_options:
            if option.offered:
                described = option.described()
                if option.option in configured:
                    described["value"] = configured[option.option]
                options.append(described)
        games.append({
            "id": rules.id,
            "script": script_url(rules.id),
            "together": house.together,
            "options": options,
        })
    return {"games": games}


def own_file(game_id: str, name: str) -> Path | None:
    """The file `name` of `game_id`'s own phone files, or None for anything else (an
    unknown game, a game without files, a name that is no plain script or stylesheet)."""
    if not registry.is_registered(game_id) or OWN_FILE.fullmatch(name) is None:
        return None
    folder = registry.house(game_id).phone_files
    if folder is None:
        return None
    path = folder / name
    return path if path.is_file() else None




async def serve_own_file(request: web.Request) -> web.StreamResponse:
    path = own_file(request.match_info["game"], request.match_info["name"])
    if path is None:
        raise web.HTTPNotFound(text="no such file of a game\n")
    response = web.FileResponse(path)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def add_routes(app: web.Application, config: Config) -> None:
    """The two routes; added before the box's own /static/ folder, which they sit in."""

    async def serve_list(request: web.Request) -> web.Response:
        response = web.json_response(games_list(config))
        response.headers["Cache-Control"] = "no-cache"
        return response

    app.router.add_get("/games.json", serve_list)
    app.router.add_get(OWN_FILES_URL + "{game}/{name}", serve_own_file)
