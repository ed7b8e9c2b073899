"""ArtBox's rules, rule by rule, and a golden replay."""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Collection
from dataclasses import replace
from types import MappingProxyType
from typing import Any

import pytest

from games.artbox import (
    DIE_FACES,
    RULES,
    ArtBoxState,
    Check,
    Round,
    correct_guesses,
    deck_of,
    extra_words,
    finishers,
    number_of,
    recognised,
    round_points,
    target_points,
    word_position,
)
from games.artbox_words import WORDS
from games.core import (
    ENDED_EARLY,
    TABLE,
    TOO_FEW,
    VOTE,
    Action,
    BadOptions,
    IllegalAction,
    SeatInfo,
    replay,
    seat_back,
    seat_left,
    time_up,
)


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i}", "#e6194b") for i in range(n)]


def shape_stroke(shape: str, cx: int, cy: int, size: int = 120) -> dict[str, Any]:
    """A clean stroke of one shape, as the phone's shape tool sends it."""
    if shape == "circle":
        pts = [(cx + size * math.cos(a / 24 * math.tau), cy + size * math.sin(a / 24 * math.tau))
               for a in range(25)]
    elif shape == "square":
        pts = [(cx - size, cy - size), (cx + size, cy - size), (cx + size, cy + size),
               (cx - size, cy + size), (cx - size, cy - size)]
    elif shape == "triangle":
        pts = [(cx, cy - size), (cx + size, cy + size), (cx - size, cy + size), (cx, cy - size)]
    else:
        pts = [(cx - size, cy), (cx + size, cy)]
    return {"points": [[round(x), round(y), 20 * i] for i, (x, y) in enumerate(pts)]}


class Table:
    def __init__(self, players: int = 4, seed: int = 2**41 + 7, **options: Any) -> None:
        self.seats = seats(players)
        self.seed = seed
        self.state: ArtBoxState = RULES.setup(self.seats, options, seed)
        self.now = 1_800_000_000.0
        self.log: list[Action] = []

    def act(self, kind: str, seat: int | None = TABLE, **data: Any) -> ArtBoxState:
        self.now += 1
        action = Action(kind, seat, data, self.now)
        self.state = RULES.apply(self.state, action)
        self.log.append(action)
        return self.state

    @property
    def starter(self) -> int:
        return self.state.round.starter

    @property
    def players(self) -> list[int]:
        return list(self.state.seats)

    def keep_all(self) -> None:
        for seat in self.players:
            self.act("keep", seat, card=seat % 2)

    def draw_rolled(self, seat: int) -> None:
        for i, shape in enumerate(self.state.round.dice):
            self.act("stroke", seat, **shape_stroke(shape, 250 + 370 * i, 500))

    def to_match(
        self, finish_order: list[int] | None = None, legal: set[int] | None = None
    ) -> None:
        self.keep_all()
        self.act("roll", self.starter)
        for seat in finish_order or self.players:
            if legal is None or seat in legal:
                self.draw_rolled(seat)
            else:
                self.act("stroke", seat, **shape_stroke("line", 800, 500))
            self.act("finish", seat)

    def guess_right(self, guesser: int, owners: list[int]) -> None:
        rnd = self.state.round
        for owner in owners:
            self.act("guess", guesser, picture=number_of(rnd, owner),
                     word=word_position(rnd, owner))

    def guess_wrong(self, guesser: int, owners: list[int]) -> None:
        rnd = self.state.round
        for owner in owners:
            wrong = next(i for i in range(len(rnd.words)) if i != word_position(rnd, owner))
            self.act("guess", guesser, picture=number_of(rnd, owner), word=wrong)


@pytest.mark.parametrize("players", range(3, 9))
def test_setup_deals_two_cards_each(players: int) -> None:
    state = RULES.setup(seats(players), {}, players)
    cards = [c for pair in state.round.cards.values() for c in pair]
    assert len(cards) == 2 * players == len(set(cards))
    assert state.phase == "choose" and state.round.starter in state.seats
    assert target_points(players) == {3: 5, 4: 5, 5: 4, 6: 4, 7: 3, 8: 3}[players]
    assert extra_words(players) == {3: 3, 4: 3, 5: 2, 6: 2, 7: 1, 8: 1}[players]


@pytest.mark.parametrize(
    ("options", "players", "words"),
    [({"seconds": 2}, 4, "10 to 600"), ({"target": 9}, 4, "no option target"),
     ({"advanced": 1}, 4, "true or false"), ({}, 2, "3 to 8"), ({}, 9, "3 to 8")],
)
def test_bad_options(options: dict[str, Any], players: int, words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        RULES.setup(seats(players), options, 1)


def test_choosing_a_card_is_secret() -> None:
    t = Table(3)
    mine = RULES.view(t.state, 0)["my_cards"]
    assert [w["en"] for w in mine] == [WORDS[i].en for i in t.state.round.cards[0]]
    for other in (1, 2, None):
        text = json.dumps(RULES.view(t.state, other))
        assert all(f'"{w["en"]}"' not in text for w in mine)
    t.act("keep", 0, card=1)
    with pytest.raises(IllegalAction, match="kept a word already"):
        t.act("keep", 0, card=0)
    with pytest.raises(IllegalAction, match="card 0 or card 1"):
        t.act("keep", 1, card=2)
    assert RULES.view(t.state, 1)["kept"] == [0]
    assert RULES.view(t.state, 0)["my_word"]["en"] == WORDS[t.state.round.cards[0][1]].en
    with pytest.raises(IllegalAction, match="once everyone chose"):
        t.act("press_die")
    t.act("keep", 1, card=0)
    t.act("keep", 2, card=0)
    assert t.state.phase == "roll"


def test_the_dice() -> None:
    t = Table(3)
    t.keep_all()
    not_starter = next(s for s in t.players if s != t.starter)
    with pytest.raises(IllegalAction, match="starting player rolls"):
        t.act("roll", not_starter)
    t.act("press_die")
    dice = t.state.round.dice
    assert len(dice) == 4 and set(dice) <= set(DIE_FACES)
    assert RULES.view(t.state, None)["dice"] == list(dice)


def test_drawing_is_checked_at_once_and_locked_by_the_token() -> None:
    t = Table(3)
    t.keep_all()
    t.act("roll", t.starter)
    dice = t.state.round.dice
    t.act("stroke", 0, **shape_stroke(dice[0], 300, 500))
    check = RULES.view(t.state, 0)["my_check"]
    assert check["legal"] is False and len(check["missing"]) == 3 and check["reason_cs"]
    for i, shape in enumerate(dice[1:], start=1):
        t.act("stroke", 0, **shape_stroke(shape, 300 + 350 * i, 500))
    check = RULES.view(t.state, 0)["my_check"]
    assert check["legal"] is True and sorted(check["found"]) == sorted(dice)
    t.act("stroke", 0, **shape_stroke("line", 800, 900, 60))
    assert RULES.view(t.state, 0)["my_check"]["extra"] == ["line"]
    t.act("undo", 0)
    assert RULES.view(t.state, 0)["my_check"]["legal"] is True
    assert RULES.view(t.state, 1)["my_picture"] == [] and RULES.view(t.state, 1)["pictures"] is None
    t.act("finish", 0)
    with pytest.raises(IllegalAction, match="locked"):
        t.act("stroke", 0, **shape_stroke("line", 800, 900))
    assert RULES.view(t.state, None)["order"] == [0]


def test_pictures_and_words_are_laid_out_when_all_finished() -> None:
    t = Table(5)
    t.to_match(finish_order=[3, 1, 4, 0, 2])
    rnd = t.state.round
    assert t.state.phase == "match"
    assert [rnd.order.index(s) + 1 for s in (3, 1, 4, 0, 2)] == [1, 2, 3, 4, 5]
    assert sorted(rnd.layout) == t.players
    assert len(rnd.words) == 5 + extra_words(5)
    assert {rnd.kept[s] for s in t.players} <= set(rnd.words)
    view = RULES.view(t.state, 2)
    assert view["my_number"] == number_of(rnd, 2)
    assert "owner" not in json.dumps(view["pictures"])  # whose is whose stays hidden
    assert view["revealed"] == []


def test_matching_rules_and_the_hourglass() -> None:
    t = Table(3)
    t.to_match()
    rnd = t.state.round
    with pytest.raises(IllegalAction, match="your own picture"):
        t.act("guess", 0, picture=number_of(rnd, 0), word=0)
    with pytest.raises(IllegalAction, match="every other picture"):
        t.act("done", 0)
    t.guess_right(0, [1, 2])
    assert RULES.deadline(t.state) is None
    t.act("done", 0)
    deadline = RULES.deadline(t.state)
    assert deadline is not None and deadline.at == t.now + 60
    with pytest.raises(IllegalAction, match="handed in"):
        t.act("unguess", 0, picture=number_of(rnd, 1))
    t.guess_wrong(1, [0])
    # A guess shows only on its guesser's phone until every picture is revealed.
    assert list(RULES.view(t.state, 1)["my_guesses"]) == [str(number_of(rnd, 0))]
    assert RULES.view(t.state, 2)["my_guesses"] == {}
    assert RULES.view(t.state, None)["my_guesses"] is None
    assert RULES.view(t.state, None)["guessed"] is None
    t.state = RULES.apply(t.state, Action("time_up", TABLE, {}, deadline.at))
    assert t.state.phase == "reveal"  # unfinished guesses stand as they are


def test_reveal_picture_by_picture_then_two_points() -> None:
    t = Table(3)
    t.to_match(finish_order=[0, 1, 2])
    t.guess_right(0, [1, 2])
    t.guess_right(1, [2])
    t.guess_wrong(1, [0])
    t.guess_wrong(2, [0, 1])
    for seat in t.players:
        t.act("done", seat)
    assert t.state.phase == "reveal"
    with pytest.raises(IllegalAction, match="Reveal every picture"):
        t.act("award", t.starter)
    for n in range(1, 4):
        t.act("press_reveal")
        shown = RULES.view(t.state, None)["revealed"]
        assert [r["number"] for r in shown] == list(range(1, n + 1))
    view = RULES.view(t.state, None)
    by_owner = {r["owner"]: r for r in view["revealed"]}
    assert [by_owner[s]["recognised"] for s in (0, 1, 2)] == [0, 1, 2]
    assert view["guessed"] == {"0": 2, "1": 1, "2": 0}
    with pytest.raises(IllegalAction, match="Every picture is revealed"):
        t.act("reveal", t.starter)  # a double tap must not skip the chance to contest
    t.act("press_reveal")  # = award
    phase: str = t.state.phase
    assert phase == "points"
    assert RULES.view(t.state, None)["round_points"] == {"red": 2, "grey": 0}
    assert dict(t.state.scores) == {0: 1, 1: 0, 2: 1}


def a_round(
    guesses: dict[int, dict[int, bool]], order: list[int], illegal: Collection[int] = ()
) -> Round:
    """A finished round: guesses[guesser][owner] says whether the guess was right."""
    players = sorted(order)
    kept = {s: 10 + s for s in players}
    words = (*(kept[s] for s in players), 90, 91)
    layout = tuple(players)
    table: dict[int, Any] = {}
    for guesser, right in guesses.items():
        table[guesser] = MappingProxyType({
            layout.index(owner) + 1: words.index(kept[owner]) if ok else len(words) - 1
            for owner, ok in right.items()
        })
    return Round(
        0, players[0], MappingProxyType({s: (0, 1) for s in players}),
        kept=MappingProxyType(kept), dice=("circle",) * 4,
        checks=MappingProxyType({s: Check(s not in illegal) for s in players}),
        order=tuple(order), layout=layout, words=words,
        guesses=MappingProxyType(table), revealed=len(players),
    )


def test_red_goes_to_the_most_recognised_picture_ties_to_the_faster() -> None:
    rnd = a_round({0: {1: True, 2: True}, 1: {0: True, 2: True}, 2: {0: False, 1: True}},
                  order=[2, 1, 0])
    assert [recognised(rnd, s) for s in (0, 1, 2)] == [1, 2, 2]
    red, grey = round_points(rnd, [0, 1, 2])
    assert red == 2  # 1 and 2 tie on 2; 2 took token 1
    assert grey in (0, 1) and grey != red


def test_a_rule_breaker_cannot_win_red_and_loses_grey_ties() -> None:
    rnd = a_round({0: {1: True, 2: True}, 1: {0: True, 2: True}, 2: {0: True, 1: True}},
                  order=[2, 1, 0], illegal={2})
    assert recognised(rnd, 2) == 2 and recognised(rnd, 1) == 2
    red, grey = round_points(rnd, [0, 1, 2])
    assert red == 1  # 2 broke the shape rules
    assert [correct_guesses(rnd, s) for s in (0, 2)] == [2, 2]
    assert grey == 0  # a tie with a rule-breaker: the rule-breaker loses despite token 1


def test_one_player_never_gets_both_points() -> None:
    rnd = a_round({0: {1: True, 2: True}, 1: {0: False, 2: False}, 2: {0: False, 1: False}},
                  order=[0, 1, 2])
    red, grey = round_points(rnd, [0, 1, 2])
    assert correct_guesses(rnd, 0) == 2
    assert red == 1 or red == 2
    assert grey == 0 and red != grey
    rnd = a_round({0: {1: True, 2: False}, 1: {0: True, 2: False}, 2: {0: True, 1: False}},
                  order=[0, 1, 2])
    red, grey = round_points(rnd, [0, 1, 2])
    assert red == 0 and grey != 0  # 0 also guessed best but already has red


def test_everyone_breaking_the_rules_means_no_red_point() -> None:
    rnd = a_round({0: {1: True, 2: True}, 1: {0: True}, 2: {}}, order=[0, 1, 2],
                  illegal={0, 1, 2})
    red, grey = round_points(rnd, [0, 1, 2])
    assert red is None and grey == 0


def test_the_table_overrules_the_shape_check_by_majority() -> None:
    t = Table(4)
    t.to_match(legal={0, 1, 2})  # seat 3 drew one line only
    for seat in t.players:
        t.guess_right(seat, [s for s in t.players if s != seat])
        t.act("done", seat)
    for _ in range(4):
        t.act("reveal", t.starter)
    assert t.state.round.checks[3].legal is False
    t.act("contest", 0, artist=3)
    with pytest.raises(IllegalAction, match="artist does not vote"):
        t.act("vote", 3, breaks=False)
    t.act("vote", 0, breaks=False)
    t.act("vote", 1, breaks=False)
    t.act("vote", 2, breaks=True)
    shown = {r["owner"]: r for r in RULES.view(t.state, None)["revealed"]}
    assert shown[3]["legal"] is True and shown[3]["overruled"] is True
    t.act("contest", 1, artist=0)
    t.act("vote", 1, breaks=True)
    t.act("vote", 2, breaks=False)
    # Seat 3's phone went quiet. The starter alone cannot cut the vote short...
    t.act("close_vote", t.starter)
    assert t.state.round.vote is not None and RULES.deadline(t.state) is None
    # ...the table (the kiosk, the host) starts a countdown for the quiet phone.
    t.act("close_vote", TABLE)
    deadline = RULES.deadline(t.state)
    assert deadline is not None and deadline.what == VOTE
    assert RULES.view(t.state, None)["vote"]["countdown"] is True
    t.state = RULES.apply(t.state, time_up(deadline))  # 1 against 1 is a tie
    assert t.state.round.vote is None
    shown = {r["owner"]: r for r in RULES.view(t.state, None)["revealed"]}
    assert shown[0]["legal"] is True and shown[0]["overruled"] is False


def test_a_seat_leaving_passes_the_start_on_and_is_not_waited_for() -> None:
    t = Table(5)
    t.keep_all()
    starter = t.starter
    t.state = RULES.apply(t.state, seat_left(starter, t.now + 1))
    assert t.starter == (starter + 1) % 5 and t.state.phase == "roll"
    t.act("roll", t.starter)
    playing = [s for s in t.players if s != starter]
    for seat in playing[:-1]:
        t.draw_rolled(seat)
        t.act("finish", seat)
    with pytest.raises(IllegalAction, match="sit this round out"):
        t.act("finish", starter)
    t.state = RULES.apply(t.state, seat_left(playing[-1], t.now + 1))
    # Everyone still playing has a token: the pictures are laid out without the leavers'.
    assert t.state.phase == "match" and sorted(t.state.round.layout) == playing[:-1]
    t.state = RULES.apply(t.state, seat_back(starter, t.now + 1))
    assert RULES.view(t.state, None)["out"] == sorted({starter, playing[-1]})
    t.state = RULES.apply(t.state, seat_left(playing[0], t.now + 1))
    t.state = RULES.apply(t.state, seat_left(playing[1], t.now + 1))  # 2 of 5 left
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == TOO_FEW


def test_the_next_starter_is_to_the_left_and_the_game_ends_at_the_target() -> None:
    t = Table(3)
    starters = []
    while t.state.phase != "over":
        starters.append(t.starter)
        t.to_match()
        for seat in t.players:
            t.guess_right(seat, [s for s in t.players if s != seat])
            t.act("done", seat)
        for _ in range(3):
            t.act("reveal", t.starter)
        t.act("award", t.starter)
        if max(t.state.scores.values()) >= target_points(3):
            assert RULES.outcome(t.state) is not None  # the game is over at once
            # The deciding award is the finish: no "next round" is offered after it.
            assert RULES.legal_actions(t.state, t.starter) == []
            assert RULES.legal_actions(t.state, TABLE) == []
            assert RULES.view(t.state, None)["round_points"] is not None
            break
        assert t.state.phase == "points"
        t.act("next", t.starter)
    assert starters == [(starters[0] + i) % 3 for i in range(len(starters))]
    assert max(t.state.scores.values()) == 5 and sum(t.state.scores.values()) == 2 * len(starters)
    outcome = RULES.outcome(t.state)
    assert outcome is not None and t.state.scores[outcome.winners[0]] == 5


def test_ties_at_the_end_go_to_the_most_recognised_then_the_faster() -> None:
    rnd = a_round({0: {1: True, 2: True}, 1: {0: True, 2: True}, 2: {0: False, 1: True}},
                  order=[1, 2, 0])
    state = replace(Table(3).state, phase="over", round=rnd,
                    scores=MappingProxyType({0: 5, 1: 5, 2: 5}))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (1,)  # 1 and 2 recognised twice; 1 faster
    state = replace(state, scores=MappingProxyType({0: 5, 1: 4, 2: 3}))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


@pytest.mark.parametrize(
    ("players", "red", "grey", "ends"),
    [(4, 2, 2, True), (4, 2, 1, False), (4, 6, 0, True), (4, 0, 6, True), (4, 5, 1, False),
     (7, 1, 1, True), (7, 4, 0, True), (8, 3, 0, False), (8, 0, 4, True)],
)
def test_the_advanced_end(players: int, red: int, grey: int, ends: bool) -> None:
    state = Table(players, advanced=True).state
    state = replace(state, red=MappingProxyType({**state.red, 0: red}),
                    grey=MappingProxyType({**state.grey, 0: grey}))
    assert bool(finishers(state)) is ends


def test_golden_replay() -> None:
    t = Table(4, seed=20261129)
    rounds = 0
    while t.state.phase != "over":
        rounds += 1
        t.to_match(legal=set(t.players) - {rounds % 4})
        for seat in t.players:
            owners = [s for s in t.players if s != seat]
            t.guess_right(seat, [s for s in owners if (s + rounds) % 3])
            t.guess_wrong(seat, [s for s in owners if not (s + rounds) % 3])
            t.act("done", seat)
        t.act("press_reveal")
        t.act("press_reveal")
        t.act("press_reveal")
        t.act("press_reveal")
        t.act("press_reveal")
        if t.state.phase == "points":  # the deciding round ends the game at its award
            t.act("next", t.starter)
    digest = hashlib.sha256(
        json.dumps(RULES.to_json(t.state), sort_keys=True).encode()
    ).hexdigest()[:16]
    assert (rounds, dict(t.state.scores)) == GOLDEN_RESULT
    assert digest == GOLDEN_DIGEST
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


GOLDEN_RESULT: tuple[int, dict[int, int]] = (6, {0: 5, 1: 5, 2: 2, 3: 0})
# The state keeps every scored round for the finish's art show (`history`); without it the
# digest is the one recorded before, 7c72148261d4760d.
GOLDEN_DIGEST = "7692b2a56925628b"


def test_the_finish_shows_every_rounds_pictures_words_artists_and_points() -> None:
    """At the end the whole game's art show is public: every round's pictures, each with
    its word, artist, order token and recognitions, and the round's two points."""
    t = Table(4, seed=20261129)
    rounds = 0
    while t.state.phase != "over":
        rounds += 1
        t.to_match(legal=set(t.players) - {rounds % 4})
        for seat in t.players:
            owners = [s for s in t.players if s != seat]
            t.guess_right(seat, [s for s in owners if (s + rounds) % 2])
            t.guess_wrong(seat, [s for s in owners if not (s + rounds) % 2])
            t.act("done", seat)
        assert RULES.view(t.state, None)["art_show"] is None  # never before the end
        for _ in range(5):
            t.act("press_reveal")
        if t.state.phase == "points":
            assert RULES.view(t.state, None)["art_show"] is None
            t.act("next", t.starter)
    view = RULES.view(t.state, None)
    shows = view["art_show"]
    assert [s["round"] for s in shows] == list(range(1, rounds + 1))
    last = shows[-1]
    assert last["pictures"] == view["pictures"] and last["revealed"] == view["revealed"]
    assert last["round_points"] == view["round_points"]
    red = {s: 0 for s in t.players}
    for show, past in zip(shows, t.state.history, strict=True):
        assert show["dice"] == list(past.dice) and len(show["pictures"]) == len(t.players)
        assert {r["owner"] for r in show["revealed"]} == set(t.players)
        for info in show["revealed"]:
            assert info["word"] == _word_of(t, past, info["owner"])
        if show["round_points"]["red"] is not None:
            red[show["round_points"]["red"]] += 1
    assert red == dict(t.state.red)  # the rounds' points add up to the final tokens
    # Made once for every seat's view: the game's strokes are not converted per phone.
    assert all(RULES.view(t.state, seat)["art_show"] is shows for seat in t.players)


def _word_of(t: Table, rnd: Round, seat: int) -> dict[str, str]:
    word = deck_of(t.state)[rnd.kept[seat]]
    return {"en": word.en, "cs": word.cs}


# -- the host ends the game early ----------------------------------------------------------


def scored_round_of_three(t: Table) -> None:
    """Round 1: seat 0 gets grey, seat 2's picture (recognised twice) red: 1, 0, 1."""
    t.to_match(finish_order=[0, 1, 2])
    t.guess_right(0, [1, 2])
    t.guess_right(1, [2])
    t.guess_wrong(1, [0])
    t.guess_wrong(2, [0, 1])
    for seat in t.players:
        t.act("done", seat)
    for _ in range(3):
        t.act("press_reveal")
    t.act("press_reveal")  # = award
    assert dict(t.state.scores) == {0: 1, 1: 0, 2: 1}


def test_ending_early_keeps_the_points_and_breaks_the_tie_on_the_last_scored_round() -> None:
    t = Table(3)
    scored_round_of_three(t)
    t.act("next", t.starter)
    t.to_match()  # round 2 laid out, nothing scored of it
    t.guess_right(1, [0, 2])
    with pytest.raises(IllegalAction):
        t.act("end_early", t.starter)  # the host's, never a seat's
    t.act("end_early")
    assert t.state.phase == "over" and dict(t.state.scores) == {0: 1, 1: 0, 2: 1}
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == ENDED_EARLY
    # 0 and 2 tie on 1 point; in round 1 seat 2's picture was recognised twice, 0's never.
    assert outcome.winners == (2,)
    assert dict(outcome.scores) == {0: 1.0, 1: 0.0, 2: 1.0}
    assert RULES.view(t.state, None)["ended"] == ENDED_EARLY
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


def test_ending_early_at_the_points_counts_that_round() -> None:
    t = Table(3)
    scored_round_of_three(t)
    t.act("end_early")
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == (2,)


def test_ending_early_before_anyone_scored_is_nobodys_win() -> None:
    t = Table(3)
    t.to_match()
    t.act("end_early")
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.summary == ENDED_EARLY
