"""A finished match's keepsakes as the box shows them: its drawings and scenes, by name.

A match's drawings are data in its action log. `build_gallery` replays the log and asks
the game's house (games/house.py) for its keepsakes, then puts the table's names, colours
and captions on them. Pure: no store, no pygame, no web; the gallery pages
(appliance/door/gallery.py) and the lobby's history (appliance/table/history.py) both read it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from appliance.table.store import LoggedAction, MatchRecord
from games import registry
from games.decks import Text
from games.strokes import stroke_to_data


@dataclass(frozen=True)
class Drawing:
    """One picture: its round, what it shows (en/cs), who drew it, its strokes."""

    round: int
    artist: str
    colour: str
    word: dict[str, str] | None
    strokes: tuple[dict[str, Any], ...]
    best: bool = False  # the round's most recognised/best-scored picture (lobby history)


@dataclass(frozen=True)
class Scene:
    """A scene the canvases of its round were drawn from (SVG made by the box: Duplik's)."""

    round: int
    title: dict[str, str]
    svg: str


@dataclass(frozen=True)
class Gallery:
    match_id: int
    game: str
    title: dict[str, str]
    finished_at: float | None
    drawings: tuple[Drawing, ...]
    scenes: tuple[Scene, ...] = ()
    winners: tuple[str, ...] = ()
    together: int | None = None
    """A game the table plays together (Broad Lines): what the table scored, not winners."""

    def file_names(self) -> Iterator[tuple[str, Drawing]]:
        """A readable, unique PNG name per drawing: round-03-ada-house.png."""
        seen: set[str] = set()
        for d in self.drawings:
            word = d.word.get("en", "") if d.word else ""
            base = f"round-{d.round:02d}-{slug(d.artist)}" + (f"-{slug(word)}" if word else "")
            name, n = f"{base}.png", 2
            while name in seen:
                name, n = f"{base}-{n}.png", n + 1
            seen.add(name)
            yield name, d


def slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = "".join(ch if ch.isalnum() else "-" for ch in plain).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return slug[:24] or "x"


def _texts(text: Text | None) -> dict[str, str] | None:
    return None if text is None else {"en": text.en, "cs": text.cs}


def build_gallery(record: MatchRecord, logged: Sequence[LoggedAction]) -> Gallery:
    """Replay the match and gather its keepsakes. Pure (no store, no pygame)."""
    rules = registry.get(record.game)

    def states() -> Iterator[Any]:
        state = rules.setup(record.seats, record.options, record.seed)
        yield state
        for entry in logged:
            if rules.outcome(state) is not None:
                break  # an older box logged one more move after the end (ArtBox's "next")
            state = rules.apply(state, entry.action)
            yield state

    kept = registry.house(record.game).keep(states())
    seats = {s.seat: s for s in record.seats}
    drawings = []
    for picture in kept.pictures:
        artists = dict.fromkeys(seats[a].name for a in picture.artists)
        drawings.append(Drawing(
            picture.round, ", ".join(artists), seats[picture.artists[0]].colour,
            _texts(picture.caption), tuple(stroke_to_data(s) for s in picture.strokes),
            best=picture.best,
        ))
    scenes = tuple(Scene(s.round, {"en": s.title.en, "cs": s.title.cs}, s.svg)
                   for s in kept.scenes)
    names = {s.seat: s.name for s in record.seats}
    outcome = record.outcome or {}
    winners = tuple(names.get(w, "?") for w in outcome.get("winners", []))
    together = None
    if registry.house(record.game).together and record.outcome is not None:
        scores = [v for _, v in outcome.get("scores", []) if isinstance(v, int | float)]
        together, winners = int(max(scores, default=0)), ()
    return Gallery(
        record.id, record.game, dict(rules.title), record.finished_at, tuple(drawings),
        scenes, winners, together,
    )
