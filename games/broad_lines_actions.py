"""What each Broad Lines move may carry (games/broad_lines.py judges what it means)."""

from __future__ import annotations

from games.action_schema import NOTHING, STROKE, ActionSchemas, Bool, Field, Int, Text

ACTIONS: ActionSchemas = {
    "hint": {"hint": Field(Text(32, 1))},
    "name_number": {"number": Field(Int(1, 16))},
    "ask_other": NOTHING,
    "use_panel": {"on": Field(Bool())},
    "place": NOTHING,
    # An Artist without a phone placed a sheet drawn on paper (no strokes to carry).
    "place_paper": NOTHING,
    "stroke": STROKE,
    "undo": NOTHING,
    "clear": NOTHING,
    "accept_vote": {"accept": Field(Bool())},
    # A typed guess: the rules keep at most 40 characters once trimmed; what a phone may
    # send before trimming is bounded too.
    "guess": {"text": Field(Text(200))},
    "mark": {"right": Field(Bool())},
    "pass": NOTHING,
    "next": NOTHING,
    "propose_give_up": NOTHING,
    "agree_give_up": NOTHING,
    "refuse_give_up": NOTHING,
}
