"""Luck of the Draw's settings: the config's [luck_of_the_draw] and [timers] become the
game's start options (appliance/table/game_options.py)."""

from __future__ import annotations

import dataclasses

from appliance.system.config import Config, LuckOfTheDrawSettings, TimerSettings
from appliance.table.game_options import default_options
from games.luck_of_the_draw import RULES
from tests.test_luck_of_the_draw import seats


def test_the_boxs_config_gives_the_start_options() -> None:
    config = dataclasses.replace(
        Config(),
        timers=TimerSettings(luck_of_the_draw_s=40, extended_factor=1.5),
        luck_of_the_draw=LuckOfTheDrawSettings(
            auto_hourglass=True, extended_time=True, longer_game=True, extra_cards=3
        ),
    )
    state = RULES.setup(seats(4), default_options(config, "luck-of-the-draw"), 1)
    assert state.seconds == 60 and state.auto_hourglass and state.target == 7 + 3
    plain = RULES.setup(seats(6), default_options(Config(), "luck-of-the-draw"), 1)
    assert (plain.seconds, plain.auto_hourglass, plain.speedier, plain.target) == (45, False,
                                                                                     False, 5)
