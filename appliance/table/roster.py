"""Who is who at a match: the people who held each seat, from which move on.

A person is not a seat and not a socket. A seat is a place around the table (its number
is its order, clockwise, and the order the rules are given the seats in); a person holds a
seat for a stretch of the match's log, from the first move that is theirs (`since`, a
sequence number of the log) until the next holder's. A seat handed over mid-game keeps
its score and its cards, so a seat's points are credited to everyone who held it ("Bo
(then Fay)"), and a drawing to whoever held the seat when its strokes were logged.

Every screen reads the same record: the live views (appliance/table/session.py), the
keepsakes (appliance/table/keepsakes.py: the gallery, its zip, the lobby's history) and
today's results (appliance/table/history.py). Pure values: no store, no loop; the store
keeps a match's roster as JSON beside the match (appliance/table/store.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.core import SeatInfo

THEN: Final = {"en": "then", "cs": "pak"}
"""The word between a seat's holders: "Bo (then Fay)"."""


def person_of(token_hash: str) -> str:
    """A person's identity as the record keeps it: a digest of their token's hash (the
    token itself never leaves the phone and the seats table; this names nobody)."""
    return hashlib.sha256(f"person:{token_hash}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Holder:
    """One person holding one seat, from the log's move `since` on."""

    seat: int
    name: str
    colour: str
    since: int = 0
    person: str = ""  # "" in a match older than rosters: its players are known by name only


@dataclass(frozen=True)
class Roster:
    """The holders of every seat of a match, in seat order, each seat's in turn."""

    holders: tuple[Holder, ...] = ()

    @classmethod
    def from_seats(
        cls, seats: Iterable[SeatInfo], persons: Mapping[int, str] | None = None
    ) -> Roster:
        """The roster at a match's start: each seat held by its player from the first move."""
        persons = persons or {}
        return cls(tuple(
            Holder(s.seat, s.name, s.colour, 0, persons.get(s.seat, ""))
            for s in sorted(seats, key=lambda s: s.seat)
        ))

    def taken(self, seat: int, name: str, colour: str, since: int, person: str) -> Roster:
        """The roster once `person` holds `seat` from move `since` on. Whoever held it
        before stays in the record (they held a seat of this match: `held_by`), even with
        no move of theirs."""
        added = Holder(seat, name, colour, since, person)
        return Roster(tuple(sorted((*self.holders, added), key=lambda h: (h.seat, h.since))))

    def held_by(self, person: str) -> tuple[Holder, ...]:
        return tuple(h for h in self.holders if person and h.person == person)

    def of(self, seat: int) -> tuple[Holder, ...]:
        """Everyone who held `seat` for at least one move, first to last (and whoever
        holds it now)."""
        mine = [h for h in self.holders if h.seat == seat]
        moved = [h for h, after in zip(mine, [*mine[1:], None], strict=True)
                 if after is None or after.since > h.since]
        # A person back in the seat they held last (kicked and let back: a new token, so
        # a new holder) held it all along: "Bo", not "Bo (then Bo)".
        return tuple(h for h, before in zip(moved, [None, *moved[:-1]], strict=True)
                     if before is None or before.name != h.name)

    def at(self, seat: int, seq: int) -> Holder | None:
        """Who held `seat` when the log's move `seq` was made."""
        held = None
        for holder in self.of(seat):
            if holder.since <= seq:
                held = holder
        return held

    def current(self, seat: int) -> Holder | None:
        holders = self.of(seat)
        return holders[-1] if holders else None

    def changed_hands(self) -> bool:
        """Did any seat have more than one holder? (Only then is credit worth working out
        move by move.)"""
        seats = [h.seat for h in self.holders]
        return len(seats) != len(set(seats))

    def credit(self, seat: int, lang: str = "en") -> str:
        """The seat's holders as one name: "Bo", or "Bo (then Fay)" for a seat that
        changed hands (its score is all of theirs)."""
        return names_in_turn([h.name for h in self.of(seat)], lang)

    def drawn_by(self, seat: int, seqs: Iterable[int]) -> tuple[str, ...]:
        """Who made something of `seat` from the moves `seqs`: each holder once, in turn
        (two where both drew on it); all the seat's holders when no move is known."""
        people = [self.at(seat, seq) for seq in sorted(set(seqs))]
        names = tuple(dict.fromkeys(h.name for h in people if h is not None))
        return names or tuple(h.name for h in self.of(seat)) or ("?",)

    def to_json(self) -> list[list[Any]]:
        return [[h.seat, h.name, h.colour, h.since, h.person] for h in self.holders]

    @classmethod
    def from_json(cls, raw: Sequence[Sequence[Any]]) -> Roster:
        return cls(tuple(
            Holder(int(seat), str(name), str(colour), int(since), str(person))
            for seat, name, colour, since, person in raw
        ))


def names_in_turn(names: Sequence[str], lang: str = "en") -> str:
    """ "Bo", "Bo (then Fay)", "Bo (then Fay, then Gil)"."""
    if not names:
        return "?"
    if len(names) == 1:
        return names[0]
    then = THEN.get(lang, THEN["en"])
    return f"{names[0]} ({', '.join(f'{then} {n}' for n in names[1:])})"
