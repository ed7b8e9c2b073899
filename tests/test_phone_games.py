"""/games.json's options start where this box's config starts them, so the phone's lobby
and the host page agree (a café's longer game is not reset by the host's phone)."""

from __future__ import annotations

from appliance.door.phone_games import games_list
from appliance.system.config import Config
from games import registry

registry.load_all()


def _options(config: Config, game: str) -> dict[str, object]:
    listed = {g["id"]: g for g in games_list(config)["games"]}
    return {o["key"]: o.get("value") for o in listed[game]["options"]}


def test_options_carry_the_configured_values() -> None:
    plain = _options(Config(), "luck-of-the-draw")
    assert plain["longer"] is False and plain["seconds"] == 45
    cafe = Config().with_game_settings({
        "luck_of_the_draw.longer_game": True, "timers.luck_of_the_draw_s": 90})
    configured = _options(cafe, "luck-of-the-draw")
    assert configured["longer"] is True and configured["seconds"] == 90
    # Only what the config changed moved.
    assert {k: v for k, v in configured.items() if k not in ("longer", "seconds")} == {
        k: v for k, v in plain.items() if k not in ("longer", "seconds")}

