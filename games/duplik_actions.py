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
    # `criterion`: the one the phone showed; the rules refuse a verdict for another (a
    # criterion read again is not the one judged).
    "judge": {"met": Field(Bool()), "criterion": Field(Int(1, 64), required=False)},
    "dispute": {"artist": Field(SEAT), "criterion": Field(Int(1, 64), required=False)},
    "vote": {"met": Field(Bool())},
    "close_vote": NOTHING,
    "reread": {"criterion": Field(Int(1, 64))},
    "next": NOTHING,
}
