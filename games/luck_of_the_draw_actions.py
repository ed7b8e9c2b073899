"""What each Luck of the Draw move may carry (games/luck_of_the_draw.py judges it)."""

from __future__ import annotations

from games.action_schema import NOTHING, STROKE, ActionSchemas, Bool, Field, Text

ACTIONS: ActionSchemas = {
    "roll": NOTHING,
    "start_timer": NOTHING,
    "stroke": STROKE,
    "undo": NOTHING,
    "clear": NOTHING,
    "done": NOTHING,
    "reveal": NOTHING,
    "vote": {"chip": Field(Text(32, 1))},
    "nothing_fits": {"agree": Field(Bool())},
    "close_vote": NOTHING,
    "next": NOTHING,
}
