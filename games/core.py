"""The contract every game implements, and the small values it speaks in.

A game is a `Rules` object: `setup` makes the first state from the seats, the options and
a seed; `apply` returns the next state for one `Action` (or raises `IllegalAction` with a
reason a player understands); `view` is the only way anything leaves the state, per seat
(`None` is the public table: the kiosk); `outcome` says when and how it ended. States are
frozen values that survive a JSON round trip (`to_json`/`from_json`), so `replay(seed,
actions)` rebuilds any state exactly, which is how a match resumes after a power cut.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

Seat = int
"""A seat at the table, 0-based, in clockwise order."""

TABLE: Final = None
"""Who sends an action that no seat sends: the table's buttons, the kiosk, the clock."""

TIME_UP: Final = "time_up"
"""The action kind the session sends (from TABLE) when a state's deadline has passed."""

SEAT_LEFT: Final = "seat_left"
"""The action kind the session sends (from TABLE, `data` {"seat": n}) when a seat's player
leaves or is removed mid-game. From then on the rules never wait for that seat: its duties
are skipped or passed on, and a game with fewer players left than its minimum ends
(its `Outcome.summary` is `TOO_FEW`). Logged like any move, so a replay gives the same."""

SEAT_BACK: Final = "seat_back"
"""The action kind the session sends (from TABLE, `data` {"seat": n}) when a newcomer takes
a seat that left: it plays on with its score (at the latest from the next round)."""

TOO_FEW: Final = "too_few_players"
"""`Outcome.summary` of a game that ended because too few players were left."""

END_EARLY: Final = "end_early"
"""The action kind the session sends (from TABLE, no `data`) when the host ends the game
before its end: the rules move the state to their normal finish, with the outcome of
what was played so far (the scores as they stand, the winners by the game's own rules
of ties; what each game does with a round under way is in its docs/<game>.md), and its
`Outcome.summary` is `ENDED_EARLY`. Logged like any move, so a replay gives the same.
A seat never sends it, and `legal_actions` does not offer it (it is the host's)."""

ENDED_EARLY: Final = "ended_early"
"""`Outcome.summary` of a game the host ended early (`END_EARLY`)."""

VOTE: Final = "vote"
"""`Deadline.what` of a vote's countdown: when it runs out the vote closes with the votes
cast. A vote closes by itself once everyone entitled has voted; the countdown for those who
have not is started by the table (the kiosk or the host) or by a majority of the players,
never by one interested player."""

VOTE_COUNTDOWN_S: Final = 20.0
"""How long those who have not voted have once the countdown is started."""

JSON = Any
"""A value made of dict, list, str, int, float, bool and None."""

NO_SCREEN: Final = "no_screen"
"""A seat capability, passed to `setup` as a start option: the seats whose player has no
private screen (no phone; they play at the kiosk, which the whole table sees). A list of
seats. A game that takes it never deals such a seat a role that needs a private screen
when another seat can take it, and refuses to start when none can. Logged with the
match's options, so a replay deals the same roles. Games read it with `no_screen`."""


class GameError(Exception):
    """Something a game refused; `key` names it for translation, `params` fill it in."""

    def __init__(self, key: str, reason: str, **params: JSON) -> None:
        super().__init__(reason.format(**params) if params else reason)
        self.key = key
        self.reason = reason
        self.params = params


class IllegalAction(GameError, ValueError):
    """The action breaks the rules here and now (wrong phase, wrong seat, bad move)."""


class BadOptions(GameError, ValueError):
    """The options asked of `setup` are not ones this game offers, or the seats do not fit."""


@dataclass(frozen=True)
class Action:
    """One thing a seat (or the table) did, stamped with the session clock when it arrived.

    `data` must be JSON and is treated as read-only. `at` lets rules start and check
    deadlines without reading a clock, so replaying a log gives the same states.
    """

    kind: str
    seat: Seat | None = TABLE
    data: Mapping[str, JSON] = field(default_factory=dict, hash=False)
    at: float = 0.0

    def __repr__(self) -> str:
        who = "table" if self.seat is None else f"seat {self.seat}"
        args = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"<Action {self.kind}({args}) by {who} at {self.at:.3f}>"

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data), "at": self.at}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Action:
        return cls(str(raw["kind"]), raw["seat"], dict(raw.get("data") or {}), float(raw["at"]))


@dataclass(frozen=True)
class SeatInfo:
    """What a game may know of a seat: its place, the player's name and colour."""

    seat: Seat
    name: str
    colour: str


@dataclass(frozen=True)
class Deadline:
    """An hourglass as data: when it runs out (session clock seconds) and what it times."""

    at: float
    what: str = "hourglass"
    length: float = 0.0

    def remaining(self, now: float) -> float:
        return max(0.0, self.at - now)

    def is_expired(self, now: float) -> bool:
        return now >= self.at


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended: the winners (none in a co-op loss), scores, a summary key."""

    winners: tuple[Seat, ...]
    scores: tuple[tuple[Seat, float], ...] = ()
    summary: str = ""

    def to_json(self) -> dict[str, JSON]:
        return {
            "winners": list(self.winners),
            "scores": [[s, v] for s, v in self.scores],
            "summary": self.summary,
        }


S = TypeVar("S")


class Rules(Protocol[S]):
    """What a game is. Every method is pure: same arguments, same result, no I/O, no clock."""

    id: str
    title: Mapping[str, str]
    min_players: int
    max_players: int

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, JSON], seed: int) -> S:
        """The first state; raises `BadOptions` for seats or options the game cannot take."""
        ...

    def apply(self, state: S, action: Action) -> S:
        """The next state; raises `IllegalAction` and leaves `state` as it was."""
        ...

    def legal_actions(self, state: S, seat: Seat | None) -> Sequence[Action]:
        """Examples of what `seat` may do now (all of them where the choice is finite).

        Random playouts pick from these; an empty list means the seat waits.
        """
        ...

    def view(self, state: S, seat: Seat | None) -> dict[str, JSON]:
        """What `seat` may see now; `None` is the public table. The only way out of a state."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """How the match ended, or None while it goes on."""
        ...

    def deadline(self, state: S) -> Deadline | None:
        """The running hourglass, if any; the session sends TIME_UP when it runs out."""
        ...

    def secrets(self, state: S) -> Mapping[Seat | None, Collection[str]]:
        """Texts only that seat may see now (`None`: nobody yet); a text listed under
        several seats may be seen by each of them. Checked by the tests."""
        ...

    def to_json(self, state: S) -> JSON: ...

    def from_json(self, raw: JSON) -> S: ...


def replay(
    rules: Rules[S],
    seats: Sequence[SeatInfo],
    options: Mapping[str, JSON],
    seed: int,
    actions: Sequence[Action],
) -> S:
    """Rebuild a state from its seed and its action log. Raises if the log does not fit."""
    state = rules.setup(seats, options, seed)
    for action in actions:
        state = rules.apply(state, action)
    return state


def time_up(deadline: Deadline) -> Action:
    """The action the clock sends when `deadline` runs out (stamped with its own time)."""
    return Action(TIME_UP, TABLE, {"what": deadline.what}, deadline.at)


def seat_left(seat: Seat, at: float) -> Action:
    """The action the session sends when `seat` leaves the running game."""
    return Action(SEAT_LEFT, TABLE, {"seat": seat}, at)


def seat_back(seat: Seat, at: float) -> Action:
    """The action the session sends when a newcomer takes the seat `seat` left."""
    return Action(SEAT_BACK, TABLE, {"seat": seat}, at)


def end_early(at: float) -> Action:
    """The action the session sends when the host ends the running game early."""
    return Action(END_EARLY, TABLE, {}, at)


def check_end_early(action: Action) -> None:
    """Raise IllegalAction unless `action` (an END_EARLY) comes from the table."""
    require(action.seat is TABLE, "table_only", "Only the host ends the game early.")


def seat_change(action: Action, seats: Collection[Seat], gone: Collection[Seat]) -> Seat:
    """The seat a SEAT_LEFT / SEAT_BACK action names, checked against the game's seats and
    the ones already gone; raises IllegalAction otherwise."""
    require(action.seat is TABLE, "table_only", "Only the table says who left or came back.")
    seat = action.data.get("seat")
    require(type(seat) is int and seat in seats, "seat", "Name a seat of this game.")
    assert isinstance(seat, int)
    if action.kind == SEAT_LEFT:
        require(seat not in gone, "gone_already", "That seat has left already.")
    else:
        require(seat in gone, "not_gone", "That seat has not left.")
    return seat


def no_screen(options: Mapping[str, JSON], seats: Collection[Seat]) -> frozenset[Seat]:
    """The seats of `seats` the NO_SCREEN start option names; raises BadOptions for
    anything but a list of seat numbers. A seat not in this game is left out (it left
    the table between a finish and "play again")."""
    raw = options.get(NO_SCREEN, [])
    if not isinstance(raw, list | tuple) or len(raw) > 64 or any(
        type(s) is not int for s in raw
    ):
        raise BadOptions("no_screen", "{name} is a list of seats.", name=NO_SCREEN)
    return frozenset(s for s in raw if s in seats)


def majority(count: int, of: int) -> bool:
    """More than half of `of`."""
    return 2 * count > of


def require(condition: bool, key: str, reason: str, **params: JSON) -> None:
    """Raise `IllegalAction(key, reason)` unless `condition` holds: keeps `apply` readable."""
    if not condition:
        raise IllegalAction(key, reason, **params)


def finite(value: float) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)
