"""A finished match's keepsakes as the box shows them: its drawings and scenes, by name.

A match's drawings are data in its action log. `build_gallery` replays the log and asks
the game's house (games/house.py) for its keepsakes, then puts the table's names, colours
and captions on them. Pure: no store, no pygame, no web; the gallery pages
(appliance/door/gallery.py) and the lobby's history (appliance/table/history.py) both read it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from appliance.table.roster import Roster, names_in_turn
from appliance.table.store import LoggedAction, MatchRecord
from games import registry
from games.decks import Text
from games.sheet import SHEET_HEIGHT, SHEET_WIDTH, Stroke
from games.strokes import stroke_to_data

StrokeKey = tuple[Any, ...]


@dataclass(frozen=True)
class Drawing:
    """One picture: its round, what it shows (en/cs), who drew it (each person once, in
    the order they drew: a seat that changed hands mid-picture has two), its strokes."""

    round: int
    artists: tuple[str, ...]
    colour: str
    word: dict[str, str] | None
    strokes: tuple[dict[str, Any], ...]
    best: bool = False  # the round's most recognised/best-scored picture (lobby history)
    # Each seat of the picture and who drew its part (the kiosk's art show names them
    # round by round: appliance/table/session.py `credits`).
    by_seat: tuple[tuple[int, tuple[str, ...]], ...] = ()

    @property
    def artist(self) -> str:
        return self.credit("en")

    def credit(self, lang: str) -> str:
        """"Ada", or "Bo (then Fay)" in `lang`."""
        return names_in_turn(self.artists, lang)


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
    verdict: dict[str, str] | None = None
    """What that score means in the rules' words (Broad Lines' rating), per language."""

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
    roster = record.people
    # Only where a seat changed hands is it worth finding which move made which stroke.
    logged_at = _stroke_moves(logged) if roster.changed_hands() else {}
    drawings = []
    for picture in kept.pictures:
        by_seat = tuple(
            (seat, _drawn_by(roster, seat, picture.strokes, logged_at))
            for seat in dict.fromkeys(picture.artists))
        artists = dict.fromkeys(name for _, names in by_seat for name in names)
        first = roster.of(picture.artists[0])
        drawings.append(Drawing(
            picture.round, tuple(artists), first[0].colour if first else "#808080",
            _texts(picture.caption), tuple(stroke_to_data(s) for s in picture.strokes),
            best=picture.best, by_seat=by_seat,
        ))
    scenes = tuple(Scene(s.round, {"en": s.title.en, "cs": s.title.cs}, s.svg)
                   for s in kept.scenes)
    outcome = record.outcome or {}
    winners = tuple(roster.credit(w) for w in outcome.get("winners", []))
    together = None
    if registry.house(record.game).together and record.outcome is not None:
        scores = [v for _, v in outcome.get("scores", []) if isinstance(v, int | float)]
        together, winners = int(max(scores, default=0)), ()
    return Gallery(
        record.id, record.game, dict(rules.title), record.finished_at, tuple(drawings),
        scenes, winners, together, _texts(kept.verdict),
    )


def _stroke_key(seat: int | None, points: Any, colour: Any, width: Any) -> StrokeKey:
    """What tells one logged stroke from another cheaply: its seat, length, first and last
    points (clamped to the sheet as the rules keep them), colour and width."""
    def clamp(p: Any) -> tuple[int, int, int]:
        return (min(max(p[0], 0), SHEET_WIDTH), min(max(p[1], 0), SHEET_HEIGHT), p[2])
    return (seat, len(points), clamp(points[0]), clamp(points[-1]), str(colour).lower(), width)


def _stroke_moves(logged: Sequence[LoggedAction]) -> dict[StrokeKey, int]:
    """Each logged stroke's move (its sequence number), the first where two look alike."""
    found: dict[StrokeKey, int] = {}
    for entry in logged:
        data, seat = entry.action.data, entry.action.seat
        points = data.get("points")
        if seat is None or not isinstance(points, list) or not points:
            continue
        try:
            key = _stroke_key(seat, points, data.get("colour", "#202020"), data.get("width", 8))
        except (TypeError, IndexError):
            continue  # not a stroke the rules took (they refused it: it is not logged)
        found.setdefault(key, entry.seq)
    return found


def _drawn_by(
    roster: Roster, seat: int, strokes: Sequence[Stroke], logged_at: dict[StrokeKey, int]
) -> tuple[str, ...]:
    """The people who drew `seat`'s strokes of a picture, each once, in turn."""
    if len(roster.of(seat)) <= 1:
        return roster.drawn_by(seat, ())
    seqs = [logged_at.get(_stroke_key(seat, s.points, s.colour, s.width)) for s in strokes]
    return roster.drawn_by(seat, (q for q in seqs if q is not None))


Credit = tuple[int, int, tuple[str, ...]]
"""A picture's round, one of its seats, and who drew that seat's part of it."""


def round_credits(gallery: Gallery, seats: Iterable[int]) -> tuple[Credit, ...]:
    """(round, seat, who drew it) for every picture of `seats` (those that changed hands):
    what the kiosk's art show names round by round instead of the seat's holders."""
    wanted = set(seats)
    return tuple(
        (d.round, seat, names)
        for d in gallery.drawings for seat, names in d.by_seat if seat in wanted
    )
