"""Duplik: one player describes a hidden scene, the others draw it, and the drawings are judged.

The rules of the design's rules/duplik.txt as pure functions over a frozen state. A round:
the Portrayer's scene is dealt (only the Portrayer sees it; everyone hears its title); the
d10 picks the golden criterion; the hourglass runs while the Artists draw; the Portrayer
passes the canvases left or right so nobody judges their own; the ten criteria are read
one at a time and every Evaluator marks the canvas in front of them YES or NO; a judgement
can be disputed and is then settled by a vote of everyone but the Portrayer (a tie awards
the point); then the art show. Artists score 3 for the golden criterion and 1 for each
other; the Portrayer 1 for each criterion at least one Artist met.

Seats are in clockwise order, so the player to the left of seat i is the next seat.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Final, Literal

from games import duplik_scenes as scenes
from games import options as options_
from games import registry
from games.codec import decode, drop_unset, to_jsonable
from games.core import (
    END_EARLY,
    ENDED_EARLY,
    NO_SCREEN,
    SEAT_BACK,
    SEAT_LEFT,
    TABLE,
    TIME_UP,
    TOO_FEW,
    VOTE,
    VOTE_COUNTDOWN_S,
    Action,
    BadOptions,
    Deadline,
    IllegalAction,
    Outcome,
    Seat,
    SeatInfo,
    check_end_early,
    majority,
    no_screen,
    require,
    seat_change,
)
from games.rng import Rng
from games.sheet import Stroke
from games.strokes import stroke_from_data, stroke_to_data

CRITERIA: Final = 10
GOLDEN_POINTS: Final = 3
DEFAULT_SECONDS: Final = 90
MAX_STROKES: Final = 400

Phase = Literal["roll", "ready", "drawing", "passing", "evaluating", "artshow", "over"]
Direction = Literal["left", "right"]


@dataclass(frozen=True)
class Dispute:
    """A judgement put to the vote: one criterion, one canvas; everyone but the Portrayer votes."""

    artist: Seat
    votes: Mapping[Seat, bool] = field(default_factory=options_.nothing)
    # Who asked to count the votes, and when the countdown for the rest began (a majority
    # of the table asked, or the table itself did): nobody closes a vote alone.
    asked: frozenset[Seat] = frozenset()
    closing: float | None = None


@dataclass(frozen=True)
class Round:
    number: int
    portrayer: Seat
    scene_seed: int
    golden: int | None = None  # 1..10, from the die
    started: float | None = None  # when the hourglass was turned
    canvases: Mapping[Seat, tuple[Stroke, ...]] = field(default_factory=options_.nothing)
    done: frozenset[Seat] = frozenset()
    direction: Direction | None = None
    presented: int = 0  # criteria read out so far (the current one is presented - 1)
    reading: int = 0  # the criterion on display: the current one, or an earlier one re-read
    # criterion (0-based) -> artist -> met: as the Evaluators judged, and as votes settled
    judged: Mapping[int, Mapping[Seat, bool]] = field(default_factory=options_.nothing)
    dispute: Dispute | None = None
    settled: Mapping[int, Mapping[Seat, bool]] = field(default_factory=options_.nothing)


@dataclass(frozen=True)
class DuplikState:
    seats: tuple[Seat, ...]
    names: tuple[str, ...]
    turns: int
    seconds: float
    paper: bool
    deck: tuple[int, ...]  # scene seeds in the order they will be dealt
    start_rolls: tuple[tuple[Seat, int], ...]
    phase: Phase
    round: Round
    scores: Mapping[Seat, int]
    history: tuple[Round, ...]
    rng: Rng
    gone: frozenset[Seat] = frozenset()  # seats whose player left; nobody waits for them
    ended: str = ""  # why the game ended early (TOO_FEW, ENDED_EARLY), or ""
    # Seats without a private screen (games.core.NO_SCREEN): they never portray, since
    # the Portrayer sees the scene for the whole round and nobody can look away that long.
    no_screen: frozenset[Seat] = frozenset()


MOST_ROUNDS: Final = 10 * 3
"""The longest game's rounds: 10 players (Duplik.max_players) portraying 3 times each."""


@lru_cache(maxsize=64)
def scene_of(seed: int) -> scenes.Scene:
    return scenes.generate(seed)


@lru_cache(maxsize=MOST_ROUNDS + 2)
def svg_of(seed: int) -> str:
    """The scene's SVG (~50 ms to write, ~20 KB): kept for every round of the longest
    game and a little more, since the finish's view carries every round's scene and a
    smaller cache, cycled through in deck order at each version, kept none of them."""
    return scenes.render_svg(scene_of(seed))


def artists(state: DuplikState, rnd: Round | None = None) -> tuple[Seat, ...]:
    """The Artists still at the table (a seat that left is skipped: nobody waits for it)."""
    portrayer = (rnd or state.round).portrayer
    return tuple(s for s in state.seats if s != portrayer and s not in state.gone)


def every_artist(state: DuplikState, rnd: Round) -> tuple[Seat, ...]:
    """Everyone who drew in `rnd`, present or not: their canvases and points stay."""
    return tuple(s for s in state.seats if s != rnd.portrayer)


def present(state: DuplikState) -> tuple[Seat, ...]:
    return tuple(s for s in state.seats if s not in state.gone)


def portrayers(state: DuplikState) -> tuple[Seat, ...]:
    """The seats that take turns to portray: every seat with a private screen."""
    return tuple(s for s in state.seats if s not in state.no_screen)


def planned_rounds(state: DuplikState) -> int:
    """Rounds the game plans: each seat that may portray does so `turns` times."""
    return len(portrayers(state)) * state.turns


def evaluator_of(state: DuplikState, artist: Seat, rnd: Round | None = None) -> Seat:
    """Who judges `artist`'s canvas: the next Artist in the chosen direction."""
    rnd = rnd or state.round
    ring = artists(state, rnd)
    step = 1 if rnd.direction == "left" else -1
    return ring[(ring.index(artist) + step) % len(ring)]


def canvas_before(state: DuplikState, evaluator: Seat, rnd: Round | None = None) -> Seat:
    """Whose canvas lies in front of `evaluator` (the inverse of evaluator_of)."""
    rnd = rnd or state.round
    ring = artists(state, rnd)
    step = 1 if rnd.direction == "left" else -1
    return ring[(ring.index(evaluator) - step) % len(ring)]


def verdict(rnd: Round, criterion: int, artist: Seat) -> bool | None:
    """Was the criterion met on that canvas: the vote if there was one, else the judgement."""
    if artist in rnd.settled.get(criterion, {}):
        return rnd.settled[criterion][artist]
    return rnd.judged.get(criterion, {}).get(artist)


def scored(state: DuplikState) -> bool:
    """The round on the table is scored: at its art show, or the last of a finished
    game (a game ended early, or with too few players, mid-round kept none of it)."""
    if state.phase == "artshow":
        return True
    return bool(state.history) and state.history[-1].number == state.round.number


def round_points(state: DuplikState, rnd: Round) -> dict[Seat, int]:
    """Points of one fully judged round, per seat (the Portrayer's included)."""
    points = {seat: 0 for seat in state.seats}
    for criterion in range(CRITERIA):
        golden = rnd.golden == criterion + 1
        met_by_any = False
        for artist in every_artist(state, rnd):
            if verdict(rnd, criterion, artist):
                points[artist] += GOLDEN_POINTS if golden else 1
                met_by_any = True
        if met_by_any:
            points[rnd.portrayer] += 1  # once per criterion, the golden one too
    return points


class Duplik:
    id = "duplik"
    title: Mapping[str, str] = MappingProxyType({"en": "Duplik", "cs": "Duplik"})
    min_players = 3
    max_players = 10

    # -- setup ------------------------------------------------------------------------
    def setup(
        self, seats: Sequence[SeatInfo], options: Mapping[str, Any], seed: int
    ) -> DuplikState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadOptions("player_count", "Duplik is for 3 to 10 players.")
        options_.no_unknown(options, ("turns", "seconds", "paper", "generated", NO_SCREEN),
                            "Duplik")
        turns = options.get("turns", 1)
        if type(turns) is not int or turns not in (1, 2, 3):
            raise BadOptions("turns", "Each player portrays 1, 2 or 3 times.")
        seconds = options_.seconds(options, DEFAULT_SECONDS)
        paper = options_.flag(options, "paper")
        generated = options_.flag(options, "generated")
        shared = no_screen(options, [s.seat for s in seats])
        if len(shared) == len(seats):
            raise BadOptions("portrayer_phone", "The Portrayer sees the scene alone for the "
                             "whole round: at least one player needs a phone.")
        rng = Rng(seed)
        rounds = (len(seats) - len(shared)) * turns
        if generated:
            fresh = []
            for _ in range(rounds):
                value, rng = rng.randint(0, 2**31 - 1)
                fresh.append(value)
            deck = tuple(fresh)
        else:
            deck, rng = rng.sample(scenes.CURATED_SEEDS, rounds)
        # "Each player rolls the 10-sided die; the highest is the first Portrayer": ties
        # roll again among themselves. A seat without a screen never portrays, so it does
        # not roll for it.
        contenders = [s.seat for s in seats if s.seat not in shared]
        rolls: list[tuple[Seat, int]] = []
        while len(contenders) > 1:
            this_round = []
            for seat in contenders:
                value, rng = rng.randint(1, 10)
                this_round.append((seat, value))
            rolls += this_round
            best = max(v for _, v in this_round)
            contenders = [s for s, v in this_round if v == best]
        first = contenders[0]
        return DuplikState(
            seats=tuple(s.seat for s in seats),
            names=tuple(s.name for s in seats),
            turns=turns,
            seconds=seconds,
            paper=paper,
            deck=deck,
            start_rolls=tuple(rolls),
            phase="roll",
            round=Round(0, first, deck[0]),
            scores=MappingProxyType({s.seat: 0 for s in seats}),
            history=(),
            rng=rng,
            no_screen=shared,
        )

    # -- moves ------------------------------------------------------------------------
    def apply(self, state: DuplikState, action: Action) -> DuplikState:
        require(state.phase != "over", "over", "The game is over.")
        rnd = state.round
        kind, seat = action.kind, action.seat
        if kind in (SEAT_LEFT, SEAT_BACK):
            return self._seat_change(state, action)
        if kind == END_EARLY:
            # The host ends the game (games.core.END_EARLY): the scores as they stand. A
            # round not yet at its art show is not scored, so its points do not count.
            check_end_early(action)
            return replace(state, phase="over", ended=ENDED_EARLY, history=self._kept(state))
        require(seat not in state.gone, "seat_gone", "This seat has left the game.")
        portrayer = seat == rnd.portrayer
        if kind in ("roll", "press_die"):
            require(state.phase == "roll", "not_now_roll", "The die is not needed now.")
            require(portrayer or (kind == "press_die" and seat is TABLE),
                    "portrayer_rolls", "The Portrayer rolls the die.")
            golden, rng = state.rng.randint(1, CRITERIA)
            return replace(state, phase="ready", round=replace(rnd, golden=golden), rng=rng)
        if kind in ("start_timer", "press_hourglass"):
            require(state.phase == "ready", "not_now_timer", "The hourglass is not needed now.")
            require(portrayer or (kind == "press_hourglass" and seat is TABLE),
                    "portrayer_timer", "The Portrayer starts the hourglass.")
            return replace(state, phase="drawing", round=replace(rnd, started=action.at))
        if kind in ("stroke", "undo", "done"):
            return self._draw(state, action)
        if kind == TIME_UP and rnd.dispute is not None:
            closing = rnd.dispute.closing
            require(seat is TABLE and closing is not None
                    and action.at >= closing + VOTE_COUNTDOWN_S, "early", "Time is not up.")
            return self._settle(state)
        if kind == TIME_UP:
            require(seat is TABLE and state.phase == "drawing", "early", "Time is not up.")
            deadline = self.deadline(state)
            require(deadline is not None and action.at >= deadline.at, "early", "Time is not up.")
            return replace(state, phase="passing")
        if kind == "end_drawing":
            require(state.phase == "drawing" and portrayer, "not_now", "Not now.")
            require(set(artists(state)) <= set(rnd.done), "not_all_done",
                    "Every Artist must say they are done first.")
            return replace(state, phase="passing")
        if kind == "pass":
            require(state.phase == "passing", "not_now_pass", "The canvases are not passed now.")
            require(portrayer, "portrayer_passes", "The Portrayer decides where canvases go.")
            direction = action.data.get("direction")
            require(direction in ("left", "right"), "direction", "Pass left or right.")
            assert direction in ("left", "right")
            return replace(
                state, phase="evaluating",
                round=replace(rnd, direction=direction, presented=1, reading=1),
            )
        if kind in ("judge", "dispute", "vote", "close_vote", "reread", "next", "press_reveal"):
            return self._evaluate(state, action)
        raise IllegalAction("unknown_kind", "Duplik has no move {kind!r}.", kind=kind)

    def _draw(self, state: DuplikState, action: Action) -> DuplikState:
        rnd = state.round
        seat = action.seat
        require(state.phase == "drawing", "not_drawing", "Drawing time has not begun or is over.")
        require(seat in artists(state), "artists_draw", "Only the Artists draw.")
        assert seat is not None
        require(seat not in rnd.done, "handed_in", "You have handed your canvas in.")
        require(action.kind == "done" or not state.paper, "paper", "This game is drawn on paper.")
        strokes = rnd.canvases.get(seat, ())
        if action.kind == "stroke":
            require(len(strokes) < MAX_STROKES, "too_many", "This canvas is full.")
            strokes = (*strokes, stroke_from_data(action.data))
        elif action.kind == "undo":
            require(bool(strokes), "nothing_to_undo", "There is nothing to undo.")
            strokes = strokes[:-1]
        else:  # done: handed in face down until time is up
            return replace(state, round=replace(rnd, done=rnd.done | {seat}))
        canvases = MappingProxyType({**rnd.canvases, seat: strokes})
        return replace(state, round=replace(rnd, canvases=canvases))

    def _evaluate(self, state: DuplikState, action: Action) -> DuplikState:
        rnd = state.round
        kind, seat = action.kind, action.seat
        if state.phase == "artshow":
            require(kind in ("next", "press_reveal"), "not_now", "The round is over.")
            require(seat == rnd.portrayer or (kind == "press_reveal" and seat is TABLE)
                    or (rnd.portrayer in state.gone and seat in state.seats),
                    "portrayer_next", "The Portrayer starts the next round.")
            return self._next_round(state)
        require(state.phase == "evaluating", "not_evaluating", "The canvases are not judged now.")
        current = rnd.presented - 1
        voters = artists(state)
        if kind in ("judge", "dispute") and "criterion" in action.data:
            # A phone names the criterion its YES/NO is for: a tap on a screen that showed
            # another one (a re-read, an old view) is refused rather than misfiled.
            require(action.data.get("criterion") == rnd.presented, "criterion_moved",
                    "Criterion {n} is the one judged now.", n=rnd.presented)
        if kind == "judge":
            require(seat in voters, "evaluators_judge", "Only Evaluators judge.")
            assert seat is not None
            met = action.data.get("met")
            require(type(met) is bool, "met", "Judge with yes or no.")
            assert isinstance(met, bool)
            require(rnd.dispute is None, "dispute_open", "Settle the dispute first.")
            artist = canvas_before(state, seat)
            require(artist not in rnd.settled.get(current, {}), "settled",
                    "That judgement was settled by a vote.")
            judged = {**rnd.judged.get(current, {}), artist: met}
            return replace(state, round=replace(
                rnd, judged=MappingProxyType({**rnd.judged, current: MappingProxyType(judged)})
            ))
        if kind == "dispute":
            require(seat in voters, "evaluators_dispute", "Only Artists and Evaluators dispute.")
            require(rnd.dispute is None, "dispute_open", "One dispute at a time.")
            named = action.data.get("artist")
            require(named in voters, "dispute_artist", "Name the Artist whose canvas is disputed.")
            assert isinstance(named, int)
            artist = named
            require(seat in (artist, evaluator_of(state, artist)), "dispute_own",
                    "Dispute your own canvas, or the one in front of you.")
            require(artist not in rnd.settled.get(current, {}), "settled",
                    "That judgement was settled by a vote.")
            # An Artist disputes a NO; an unsure Evaluator may ask the table at any time.
            require(seat != artist or rnd.judged.get(current, {}).get(artist) is False,
                    "dispute_no", "You can dispute a NO for your canvas.")
            return replace(state, round=replace(rnd, dispute=Dispute(artist)))
        if kind in ("vote", "close_vote"):
            dispute = rnd.dispute
            require(dispute is not None, "no_dispute", "There is nothing to vote on.")
            assert dispute is not None
            votes = dict(dispute.votes)
            if kind == "vote":
                require(seat in voters, "portrayer_no_vote", "The Portrayer does not vote.")
                assert seat is not None
                require(seat not in votes, "voted", "You have voted.")
                met = action.data.get("met")
                require(type(met) is bool, "met", "Vote yes or no.")
                assert isinstance(met, bool)
                votes[seat] = met
                state = replace(state, round=replace(
                    rnd, dispute=replace(dispute, votes=MappingProxyType(votes))
                ))
                return self._settle(state) if set(voters) <= set(votes) else state
            # A phone that has gone quiet must not hold the table, and no one player may
            # cut a vote short: the table (kiosk, host) or a majority of the players
            # starts a countdown for those who have not voted.
            require(dispute.closing is None, "closing", "The countdown is running.")
            require(not set(voters) <= set(votes), "all_voted", "Everyone has voted.")
            if seat is TABLE:
                return self._start_countdown(state, action.at)
            require(seat in present(state), "players_close", "Only the players ask for that.")
            assert seat is not None
            require(seat not in dispute.asked, "asked", "You have asked already.")
            asked = dispute.asked | {seat}
            state = replace(state, round=replace(rnd, dispute=replace(dispute, asked=asked)))
            if majority(len(asked), len(present(state))):
                return self._start_countdown(state, action.at)
            return state
        if kind == "reread":
            require(seat == rnd.portrayer, "portrayer_reads", "The Portrayer reads the criteria.")
            number = action.data.get("criterion")
            require(type(number) is int and 1 <= number <= rnd.presented, "reread_later",
                    "Only criteria already read can be read again.")
            assert isinstance(number, int)
            return replace(state, round=replace(rnd, reading=number))
        # next: the next criterion, or the scores once all ten are judged
        require(seat == rnd.portrayer, "portrayer_next", "The Portrayer reads the next criterion.")
        require(rnd.dispute is None, "dispute_open", "Settle the dispute first.")
        missing = [a for a in voters if verdict(rnd, current, a) is None]
        require(not missing, "not_all_judged", "Every canvas must be judged first.")
        if rnd.presented < CRITERIA:
            return replace(state, round=replace(
                rnd, presented=rnd.presented + 1, reading=rnd.presented + 1
            ))
        points = round_points(state, rnd)
        scores = MappingProxyType({s: state.scores[s] + points[s] for s in state.seats})
        return replace(state, phase="artshow", scores=scores)

    def _start_countdown(self, state: DuplikState, at: float) -> DuplikState:
        rnd = state.round
        assert rnd.dispute is not None
        return replace(state, round=replace(rnd, dispute=replace(rnd.dispute, closing=at)))

    def _settle(self, state: DuplikState) -> DuplikState:
        """The dispute is decided by the votes cast (a tie, or no vote, awards the point)."""
        rnd = state.round
        dispute = rnd.dispute
        assert dispute is not None
        current = rnd.presented - 1
        votes = dispute.votes
        awarded = sum(votes.values()) * 2 >= len(votes)
        settled = {**rnd.settled.get(current, {}), dispute.artist: awarded}
        return replace(state, round=replace(
            rnd,
            dispute=None,
            settled=MappingProxyType({**rnd.settled, current: MappingProxyType(settled)}),
        ))

    def _seat_change(self, state: DuplikState, action: Action) -> DuplikState:
        """A seat left (its duties are skipped or passed on) or a newcomer took it back."""
        seat = seat_change(action, state.seats, state.gone)
        if action.kind == SEAT_BACK:
            return replace(state, gone=state.gone - {seat})
        before = state
        state = replace(state, gone=state.gone | {seat})
        if (before.phase == "evaluating" and seat != before.round.portrayer
                and seat in artists(before)):
            state = self._unjudged_by(before, state, seat)
        if len(present(state)) < self.min_players:
            return replace(state, phase="over", ended=TOO_FEW, history=self._kept(state))
        rnd = state.round
        if seat == rnd.portrayer:
            if state.phase != "artshow":
                # The scene goes with its Portrayer: the round is not played; the next is.
                return self._next_round(state, keep=False)
            return state  # the round is scored; anyone at the table starts the next
        dispute = rnd.dispute
        if state.phase == "evaluating" and dispute is not None:
            if dispute.artist == seat:  # nobody is left to defend that canvas
                return replace(state, round=replace(rnd, dispute=None))
            votes = {a: v for a, v in dispute.votes.items() if a != seat}
            state = replace(state, round=replace(rnd, dispute=replace(
                dispute, votes=MappingProxyType(votes), asked=dispute.asked - {seat}
            )))
            if set(artists(state)) <= set(votes):
                return self._settle(state)
        return state

    def _unjudged_by(self, before: DuplikState, state: DuplikState, seat: Seat) -> DuplikState:
        """An Evaluator left while the criterion read now was judged: their judgement of
        it goes with them (the canvas they judged now lies before the next Evaluator, who
        judges it afresh); the criteria read before stand as the table saw them."""
        rnd = before.round
        current = rnd.presented - 1
        judged_canvas = canvas_before(before, seat)
        now = dict(rnd.judged.get(current, {}))
        if judged_canvas == seat or judged_canvas not in now:
            return state
        if judged_canvas in rnd.settled.get(current, {}):
            return state  # settled by the table's vote: not theirs alone
        del now[judged_canvas]
        judged = {**rnd.judged, current: MappingProxyType(now)}
        return replace(state, round=replace(state.round, judged=MappingProxyType(judged)))

    def _kept(self, state: DuplikState) -> tuple[Round, ...]:
        """The history with the round under way, if it was scored (for the art show)."""
        scored = state.phase == "artshow"
        return (*state.history, state.round) if scored else state.history

    def _next_round(self, state: DuplikState, keep: bool = True) -> DuplikState:
        """The next round whose Portrayer is at the table (a seat that left portrays no
        more), or the end once every planned round is played or skipped."""
        rnd = state.round
        history = (*state.history, rnd) if keep else state.history
        total = planned_rounds(state)
        number, portrayer = rnd.number, rnd.portrayer
        while True:
            number += 1
            portrayer = state.seats[(state.seats.index(portrayer) + 1) % len(state.seats)]
            while portrayer in state.no_screen:  # passed over: not a round of the plan
                portrayer = state.seats[(state.seats.index(portrayer) + 1) % len(state.seats)]
            if number >= total:
                return replace(state, phase="over", history=history)
            if portrayer not in state.gone:
                break
        return replace(
            state,
            phase="roll",
            history=history,
            round=Round(number, portrayer, state.deck[number]),
        )

    # -- what the players may do ------------------------------------------------------
    def legal_actions(self, state: DuplikState, seat: Seat | None) -> Sequence[Action]:
        rnd = state.round
        portrayer = seat == rnd.portrayer
        phase = state.phase
        if seat in state.gone:
            return []
        if phase == "roll":
            if seat is TABLE:
                return [Action("press_die")]
            return [Action("roll", seat)] if portrayer else []
        if phase == "ready":
            if seat is TABLE:
                return [Action("press_hourglass")]
            return [Action("start_timer", seat)] if portrayer else []
        if phase == "drawing":
            if portrayer and set(artists(state)) <= set(rnd.done):
                return [Action("end_drawing", seat)]
            if seat in artists(state) and seat not in rnd.done and not state.paper:
                assert seat is not None
                line = {"points": [[100 + 40 * i, 200, 16 * i] for i in range(6)]}
                moves = [Action("stroke", seat, line), Action("done", seat)]
                if rnd.canvases.get(seat):
                    moves.append(Action("undo", seat))
                return moves
            if seat in artists(state) and seat not in rnd.done:
                return [Action("done", seat)]
            return []
        if phase == "passing":
            if not portrayer:
                return []
            return [Action("pass", seat, {"direction": d}) for d in ("left", "right")]
        if phase == "artshow":
            if seat is TABLE:
                return [Action("press_reveal")]
            anyone = rnd.portrayer in state.gone
            return [Action("next", seat)] if portrayer or anyone else []
        if phase != "evaluating":
            return []
        current = rnd.presented - 1
        dispute = rnd.dispute
        can_close = (
            dispute is not None and dispute.closing is None
            and not set(artists(state)) <= set(dispute.votes)
        )
        if seat is TABLE:
            return [Action("close_vote")] if can_close else []
        asks = [Action("close_vote", seat)] if (
            can_close and dispute is not None and seat not in dispute.asked
        ) else []
        if portrayer:
            moves = [
                Action("reread", seat, {"criterion": n}) for n in range(1, rnd.presented + 1)
            ]
            moves += asks
            if rnd.dispute is None and all(
                verdict(rnd, current, a) is not None for a in artists(state)
            ):
                moves.append(Action("next", seat))
            return moves
        if seat not in artists(state):
            return []
        assert seat is not None
        if rnd.dispute is not None:
            if seat in rnd.dispute.votes:
                return asks
            return [Action("vote", seat, {"met": m}) for m in (True, False)] + asks
        moves = []
        artist = canvas_before(state, seat)
        if artist not in rnd.settled.get(current, {}):
            moves += [Action("judge", seat, {"met": m}) for m in (True, False)]
            moves.append(Action("dispute", seat, {"artist": artist}))
        own_no = rnd.judged.get(current, {}).get(seat) is False
        if own_no and seat not in rnd.settled.get(current, {}):
            moves.append(Action("dispute", seat, {"artist": seat}))
        return moves

    # -- what each seat sees ----------------------------------------------------------
    def view(self, state: DuplikState, seat: Seat | None) -> dict[str, Any]:
        rnd = state.round
        scene = scene_of(rnd.scene_seed)
        show = state.phase in ("artshow", "over")
        current = rnd.presented - 1
        view: dict[str, Any] = {
            "phase": state.phase,
            "round": rnd.number + 1,
            "rounds": planned_rounds(state),
            "portrayer": rnd.portrayer,
            "artists": list(artists(state)),
            "gone": sorted(state.gone),  # seats whose player left (not waited for)
            "ended": state.ended or None,
            "start_rolls": [list(r) for r in state.start_rolls],
            "title": {"en": scene.title.en, "cs": scene.title.cs},
            "golden": rnd.golden,
            "paper": state.paper,
            "seconds": state.seconds,
            "done": sorted(rnd.done),
            "direction": rnd.direction,
            "criteria": [
                {"number": n + 1, "en": c.text.en, "cs": c.text.cs}
                for n, c in enumerate(scene.criteria[: rnd.presented])
            ],
            "reading": rnd.reading,
            "results": [
                {str(a): verdict(rnd, n, a) for a in artists(state)}
                for n in range(rnd.presented)
            ],
            "voted_on": [[n + 1, a] for n, settled in rnd.settled.items() for a in settled],
            "dispute": None,
            "scores": {str(s): v for s, v in state.scores.items()},
            "round_points": (
                {str(s): v for s, v in round_points(state, rnd).items()}
                if state.phase in ("artshow", "over") and scored(state)
                else None
            ),
            "scene": None,
            "my_canvas": None,
            "judging": None,
            "art_show": None,
        }
        if rnd.dispute is not None:
            artist = rnd.dispute.artist
            view["dispute"] = {
                "artist": artist,
                "criterion": current + 1,
                "voted": sorted(rnd.dispute.votes),
                "voters": len(artists(state)),
                # Who asked to count the votes; "countdown" once it runs (match.deadline
                # has its time, what "vote").
                "asked": sorted(rnd.dispute.asked),
                "countdown": rnd.dispute.closing is not None,
                # The disputed canvas is shown to everyone who votes, and on the kiosk.
                "canvas": self._canvas(rnd, artist),
            }
        if seat == rnd.portrayer or show:
            view["scene"] = {"key": scene.key, "svg": svg_of(rnd.scene_seed)}
        if seat in artists(state) and not state.paper:
            view["my_canvas"] = self._canvas(rnd, seat)  # a reloaded phone gets it back
        if state.phase == "evaluating" and seat in artists(state):
            assert seat is not None
            artist = canvas_before(state, seat)
            view["judging"] = {
                "artist": artist,
                "canvas": None if state.paper else self._canvas(rnd, artist),
                "my_verdict": rnd.judged.get(current, {}).get(artist),
            }
        if show:
            view["art_show"] = [
                {
                    "round": past.number + 1,
                    "portrayer": past.portrayer,
                    "title": {"en": scene_of(past.scene_seed).title.en,
                              "cs": scene_of(past.scene_seed).title.cs},
                    "scene_key": scene_of(past.scene_seed).key,
                    # At the end every round's scene hangs beside its canvases, also on a
                    # screen that never saw it (a restarted kiosk, a phone that came late).
                    "scene_svg": svg_of(past.scene_seed) if state.phase == "over" else None,
                    "canvases": {
                        str(a): self._canvas(past, a) for a in every_artist(state, past)
                    },
                }
                for past in ((rnd,) if state.phase == "artshow" else state.history)
            ]
        return view

    def _canvas(self, rnd: Round, artist: Seat) -> list[dict[str, Any]]:
        return [stroke_to_data(s) for s in rnd.canvases.get(artist, ())]

    # -- the rest of the contract -----------------------------------------------------
    def outcome(self, state: DuplikState) -> Outcome | None:
        if state.phase != "over":
            return None
        best = max(state.scores.values())
        winners = tuple(s for s in state.seats if state.scores[s] == best)
        if state.ended == ENDED_EARLY and best == 0:
            winners = ()  # ended by the host before anyone scored: nobody won
        scores = tuple((s, float(state.scores[s])) for s in state.seats)
        return Outcome(winners, scores, state.ended or "most_points")

    def deadline(self, state: DuplikState) -> Deadline | None:
        dispute = state.round.dispute
        if state.phase == "evaluating" and dispute is not None and dispute.closing is not None:
            return Deadline(dispute.closing + VOTE_COUNTDOWN_S, VOTE, VOTE_COUNTDOWN_S)
        started = state.round.started
        if state.phase != "drawing" or started is None:
            return None
        return Deadline(started + state.seconds, "hourglass", state.seconds)

    def secrets(self, state: DuplikState) -> Mapping[Seat | None, Collection[str]]:
        if state.phase in ("artshow", "over"):
            return {None: (str(state.rng.seed),)}
        rnd = state.round
        scene = scene_of(rnd.scene_seed)
        unread = [c.text.en for c in scene.criteria[rnd.presented:]]
        unread += [c.text.cs for c in scene.criteria[rnd.presented:]]
        return {
            rnd.portrayer: (scene.key,),
            None: (str(state.rng.seed), *unread),
        }

    def to_json(self, state: DuplikState) -> Any:
        raw = to_jsonable(state)
        # Fields added for seats that leave and fair votes: unset, the JSON stays as it was.
        drop_unset(raw, gone=[], ended="", no_screen=[])
        for rnd in (raw["round"], *raw["history"]):
            if rnd["dispute"] is not None:
                drop_unset(rnd["dispute"], asked=[], closing=None)
        return raw

    def from_json(self, raw: Any) -> DuplikState:
        return decode(DuplikState, raw)


RULES = registry.register(Duplik())
