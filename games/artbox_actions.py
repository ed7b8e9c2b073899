"""What each ArtBox move may carry (games/artbox.py judges what it means)."""

from __future__ import annotations

from games.action_schema import NOTHING, SEAT, STROKE, ActionSchemas, Bool, Field, Int

ACTIONS: ActionSchemas = {
    "keep": {"card": Field(Int(0, 1))},
    "roll": NOTHING,
    "stroke": STROKE,
    "undo": NOTHING,
    "clear": NOTHING,
    "finish": NOTHING,
    "done": NOTHING,
    "guess": {"picture": Field(Int(1, 64)), "word": Field(Int(0, 63))},
    "unguess": {"picture": Field(Int(1, 64))},
    "reveal": NOTHING,
    "contest": {"artist": Field(SEAT)},
    "vote": {"breaks": Field(Bool())},
    "close_vote": NOTHING,
    "award": NOTHING,
    "next": NOTHING,
}
