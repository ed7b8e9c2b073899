"""What each Duplik move may carry (games/duplik.py judges what it means)."""

from __future__ import annotations

from games.action_schema import NOTHING, SEAT, STROKE, ActionSchemas, Bool, Field, Int, OneOf

ACTIONS: ActionSchemas = {
    "roll": NOTHING,
    "start_timer": NOTHING,
    "end_drawing": NOTHING,
    "pass": {"direction": Field(OneOf(("left", "right")))},
    "stroke": STROKE,
    "undo": NOTHING,
    "done": NOTHING,
    "judge": {"met": Field(Bool())},
    "dispute": {"artist": Field(SEAT)},
    "vote": {"met": Field(Bool())},
    "close_vote": NOTHING,
    "reread": {"criterion": Field(Int(1, 64))},
    "next": NOTHING,
}
