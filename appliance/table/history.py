"""Today's games from the store: the host page's results and the idle lobby's history.

"Today" is the box's local calendar day. Results are read from the `matches` table (a
game the host ended early has the outcome of what was played, marked `ended_early`; one
closed with no outcome, a game from outside the box that cannot end early, has no winner);
the lobby's history also shows the day's best drawings (a game's `best` pictures,
appliance/table/keepsakes.py), rebuilt from the log once per match and kept, so the
kiosk's idle cycle costs nothing but a blit.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from appliance.table.keepsakes import Drawing, build_gallery
from appliance.table.store import LoggedAction, MatchRecord, Store, read_actions
from games import registry
from games.core import ENDED_EARLY

log = logging.getLogger("easel.history")


def start_of_day(now: float) -> float:
    midnight = datetime.fromtimestamp(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight.timestamp()


def today(store: Store, now: float) -> list[MatchRecord]:
    """The matches that ended today, oldest first."""
    return store.finished_matches(since=start_of_day(now))


def result_of(record: MatchRecord, lang: str) -> dict[str, Any]:
    """A match's result as the host page and the kiosk show it (names, not seats)."""
    people = record.people  # a seat handed over mid-game: "Bo (then Fay)"
    outcome = record.outcome or {}
    title = record.game
    together = None
    if registry.is_registered(record.game):
        title = registry.get(record.game).title.get(lang, record.game)
        if registry.house(record.game).together and record.outcome is not None:
            # The table's count (words guessed), as the gallery says it: nobody won alone.
            together = int(max((v for _, v in outcome.get("scores", [])), default=0))
    return {
        "id": record.id,
        "game": record.game,
        "title": title,
        "finished_at": record.finished_at,
        "ended_early": record.outcome is None or outcome.get("summary") == ENDED_EARLY,
        "winners": [people.credit(w, lang) for w in outcome.get("winners", [])],
        # A game played together (games/house.py): the words the table guessed, every
        # seat's score alike, which the screens say instead of its winners (the rules
        # name every seat); None for a game with winners.
        "together": together,
        # Best first, as a results table reads (the outcome keeps the seats' order).
        "scores": sorted(([people.credit(s, lang), v] for s, v in outcome.get("scores", [])),
                         key=lambda pair: -pair[1] if isinstance(pair[1], int | float) else 0),
    }


@dataclass(frozen=True)
class BestDrawing:
    game: str
    drawing: Drawing


class BestDrawings:
    """The best drawings of finished matches, rebuilt from each log once.

    Only the lobby's last few matches are asked for (appliance/table/lobby_history.py shows
    four), so only a few are kept: a match's best drawings are their full strokes, and 64
    matches of them held several MB of point lists for pictures no longer shown."""

    def __init__(self, store: Store, keep: int = 8) -> None:
        self.store = store
        self.keep_count = keep
        self._by_match: OrderedDict[int, tuple[BestDrawing, ...]] = OrderedDict()

    def of(self, record: MatchRecord) -> tuple[BestDrawing, ...]:
        """A match's best drawings, rebuilt here if not kept (start-up, tests)."""
        cached = self.kept(record)
        if cached is not None:
            return cached
        return self.keep(record, rebuild(record, self.store.actions))

    def kept(self, record: MatchRecord) -> tuple[BestDrawing, ...] | None:
        cached = self._by_match.get(record.id)
        if cached is not None:
            self._by_match.move_to_end(record.id)
        return cached

    def keep(self, record: MatchRecord, found: tuple[BestDrawing, ...]) -> tuple[BestDrawing, ...]:
        self._by_match[record.id] = found
        while len(self._by_match) > self.keep_count:
            self._by_match.popitem(last=False)
        return found

    def rebuild_from_file(self, record: MatchRecord) -> tuple[BestDrawing, ...]:
        """For a worker thread: the log read through a read-only connection of its own
        (a long match's is megabytes of JSON and a replay: not for the loop)."""
        path = self.store.path
        return rebuild(record, lambda match_id: read_actions(path, match_id))


def rebuild(
    record: MatchRecord, actions: Callable[[int], list[LoggedAction]]
) -> tuple[BestDrawing, ...]:
    """The best drawings of `record`, its log replayed (none for an odd old log)."""
    if not registry.is_registered(record.game):
        return ()
    try:
        gallery = build_gallery(record, actions(record.id))
        return tuple(BestDrawing(record.game, d) for d in gallery.drawings if d.best)
    except Exception:  # an odd old log must not take the lobby down
        log.exception("best drawings of match %d cannot be rebuilt", record.id)
        return ()
