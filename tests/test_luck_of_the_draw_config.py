"""Luck of the Draw's settings: the config's [luck_of_the_draw] and [timers] become the
game's start options (appliance/table/game_options.py)."""

from __future__ import annotations

from appliance.system.config import Config
from appliance.table.game_options import default_options
from games.luck_of_the_draw import RULES
from tests.test_luck_of_the_draw import seats


def test_the_boxs_config_gives_the_start_options() -> None:
    config = Config().with_game_settings({
        "timers.luck_of_the_draw_s": 40, "timers.extended_factor": 1.5,
        "luck_of_the_draw.auto_hourglass": True, "luck_of_the_draw.extended_time": True,
        "luck_of_the_draw.longer_game": True, "luck_of_the_draw.extra_cards": 3,
    })
    state = RULES.setup(seats(4), default_options(config, "luck-of-the-draw"), 1)
    assert state.seconds == 60 and state.auto_hourglass and state.target == 7 + 3
    plain = RULES.setup(seats(6), default_options(Config(), "luck-of-the-draw"), 1)
    assert (plain.seconds, plain.auto_hourglass, plain.speedier, plain.target) == (45, False,
                                                                                     False, 5)
