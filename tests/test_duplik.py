"""Duplik's rules, rule by rule, and a golden replay."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from games.core import (
    ENDED_EARLY,
    SEAT_BACK,
    SEAT_LEFT,
    TABLE,
    TIME_UP,
    TOO_FEW,
    VOTE,
    VOTE_COUNTDOWN_S,
    Action,
    BadOptions,
    IllegalAction,
    SeatInfo,
    replay,
    time_up,
)
from games.duplik import (
    CRITERIA,
    RULES,
    DuplikState,
    canvas_before,
    evaluator_of,
    round_points,
    scene_of,
    verdict,
)

LINE = {"points": [[100, 100, 0], [300, 120, 40], [500, 160, 80]], "colour": "#123456"}


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i}", "#e6194b") for i in range(n)]


class Table:
    """A game in progress with a clock, so scenarios read like the rules."""

    def __init__(self, players: int = 4, seed: int = 2**40 + 17, **options: Any) -> None:
        self.seats = seats(players)
        self.options = options
        self.seed = seed
        self.state: DuplikState = RULES.setup(self.seats, options, seed)
        self.now = 1_800_000_000.0
        self.log: list[Action] = []

    def act(self, kind: str, seat: int | None = TABLE, **data: Any) -> DuplikState:
        self.now += 1
        action = Action(kind, seat, data, self.now)
        self.state = RULES.apply(self.state, action)
        self.log.append(action)
        return self.state

    @property
    def portrayer(self) -> int:
        return self.state.round.portrayer

    @property
    def artists(self) -> list[int]:
        return [s for s in self.state.seats if s != self.portrayer]

    def to_evaluation(self, direction: str = "left") -> None:
        self.act("roll", self.portrayer)
        self.act("start_timer", self.portrayer)
        for artist in self.artists:
            self.act("stroke", artist, **LINE)
            self.act("done", artist)
        self.act("end_drawing", self.portrayer)
        self.act("pass", self.portrayer, direction=direction)

    def judge_all(self, met: bool = True) -> None:
        for evaluator in self.artists:
            self.act("judge", evaluator, met=met)

    def change(self, kind: str, seat: int) -> DuplikState:
        """A seat leaves (SEAT_LEFT) or a newcomer takes it back (SEAT_BACK)."""
        self.now += 1
        action = Action(kind, TABLE, {"seat": seat}, self.now)
        self.state = RULES.apply(self.state, action)
        self.log.append(action)
        return self.state

    def judge_all_present(self, met: bool = True) -> None:
        for evaluator in self.artists:
            if evaluator not in self.state.gone:
                self.act("judge", evaluator, met=met)


def test_setup_rolls_for_the_first_portrayer() -> None:
    tied = 0
    for seed in range(40):
        state = RULES.setup(seats(5), {}, seed)
        first_rolls = state.start_rolls[:5]
        best = max(v for _, v in first_rolls)
        highest = [s for s, v in first_rolls if v == best]
        assert state.round.portrayer in highest
        tied += len(highest) > 1 and len(state.start_rolls) > 5  # ties rolled again
        assert state.phase == "roll" and state.round.golden is None
    assert tied, "40 seeds should show at least one tie rolled again"


@pytest.mark.parametrize(
    ("options", "players", "words"),
    [
        ({"turns": 4}, 4, "1, 2 or 3"),
        ({"seconds": 5}, 4, "10 to 600"),
        ({"colour": True}, 4, "no option colour"),
        ({"paper": "yes"}, 4, "true or false"),
        ({}, 2, "3 to 10"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], players: int, words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        RULES.setup(seats(players), options, 1)


def test_the_die_and_the_hourglass_belong_to_the_portrayer_or_the_table() -> None:
    t = Table()
    with pytest.raises(IllegalAction, match="Portrayer rolls"):
        t.act("roll", t.artists[0])
    with pytest.raises(IllegalAction, match="hourglass is not needed"):
        t.act("press_hourglass")
    t.act("press_die")
    assert 1 <= (t.state.round.golden or 0) <= CRITERIA
    with pytest.raises(IllegalAction, match="die is not needed"):
        t.act("press_die")
    with pytest.raises(IllegalAction, match="not begun"):
        t.act("stroke", t.artists[0], **LINE)
    t.act("press_hourglass")
    assert t.state.phase == "drawing"
    deadline = RULES.deadline(t.state)
    assert deadline is not None and deadline.at == t.now + 90


def test_drawing_strokes_undo_done_and_time_up() -> None:
    t = Table(seconds=45)
    t.act("roll", t.portrayer)
    t.act("start_timer", t.portrayer)
    a, b, c = t.artists
    t.act("stroke", a, **LINE)
    t.act("stroke", a, **LINE)
    t.act("undo", a)
    assert len(t.state.round.canvases[a]) == 1
    with pytest.raises(IllegalAction, match="Only the Artists"):
        t.act("stroke", t.portrayer, **LINE)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        t.act("undo", b)
    with pytest.raises(IllegalAction, match="outside the sheet"):
        t.act("stroke", b, points=[[5000, 1, 0]])
    t.act("done", a)
    with pytest.raises(IllegalAction, match="handed your canvas in"):
        t.act("stroke", a, **LINE)
    with pytest.raises(IllegalAction, match="Every Artist"):
        t.act("end_drawing", t.portrayer)
    deadline = RULES.deadline(t.state)
    assert deadline is not None
    with pytest.raises(IllegalAction, match="not up"):
        RULES.apply(t.state, Action("time_up", TABLE, {}, deadline.at - 1))
    t.state = RULES.apply(t.state, Action("time_up", TABLE, {}, deadline.at))
    assert t.state.phase == "passing"
    assert len(t.state.round.canvases[a]) == 1  # taken as it is
    assert c not in t.state.round.canvases


@pytest.mark.parametrize("players", range(3, 11))
@pytest.mark.parametrize("direction", ["left", "right"])
def test_nobody_judges_their_own_canvas(players: int, direction: str) -> None:
    t = Table(players)
    t.to_evaluation(direction)
    artists = t.artists
    judges = {a: evaluator_of(t.state, a) for a in artists}
    assert all(judge != a for a, judge in judges.items())
    assert sorted(judges.values()) == sorted(artists)  # every Evaluator gets one canvas
    assert all(canvas_before(t.state, j) == a for a, j in judges.items())
    first = artists[0]
    step = 1 if direction == "left" else -1
    assert judges[first] == artists[step % len(artists)]


def test_criteria_one_at_a_time_with_rereading() -> None:
    t = Table(3)
    t.to_evaluation()
    with pytest.raises(IllegalAction, match="judged first"):
        t.act("next", t.portrayer)
    with pytest.raises(IllegalAction, match="already read"):
        t.act("reread", t.portrayer, criterion=2)
    t.judge_all()
    t.act("next", t.portrayer)
    t.act("reread", t.portrayer, criterion=1)
    assert t.state.round.reading == 1 and t.state.round.presented == 2
    with pytest.raises(IllegalAction, match="Portrayer reads"):
        t.act("reread", t.artists[0], criterion=1)
    view = RULES.view(t.state, t.artists[0])
    assert [c["number"] for c in view["criteria"]] == [1, 2]


def test_a_disputed_no_goes_to_the_vote_and_a_tie_awards_the_point() -> None:
    t = Table(5)  # four Artists vote: 2 against 2 is a tie
    t.to_evaluation()
    a = t.artists[0]
    judge = evaluator_of(t.state, a)
    for evaluator in t.artists:
        t.act("judge", evaluator, met=evaluator != judge)
    with pytest.raises(IllegalAction, match="your own canvas, or the one in front"):
        t.act("dispute", t.artists[2] if t.artists[2] != judge else t.artists[3], artist=a)
    t.act("dispute", a, artist=a)
    with pytest.raises(IllegalAction, match="Settle the dispute"):
        t.act("next", t.portrayer)
    with pytest.raises(IllegalAction, match="does not vote"):
        t.act("vote", t.portrayer, met=True)
    view = RULES.view(t.state, None)
    assert view["dispute"]["artist"] == a and view["dispute"]["canvas"]
    for i, voter in enumerate(t.artists):
        t.act("vote", voter, met=i % 2 == 0)
    assert t.state.round.dispute is None
    assert RULES.view(t.state, None)["results"][0][str(a)] is True
    with pytest.raises(IllegalAction, match="settled by a vote"):
        t.act("judge", judge, met=False)


def test_a_majority_no_denies_and_no_one_player_counts_early() -> None:
    t = Table(4)
    t.to_evaluation()
    a = t.artists[0]
    t.judge_all(met=False)
    t.act("dispute", a, artist=a)
    t.act("vote", t.artists[1], met=False)
    # The Portrayer, who gains from a YES, cannot cut the vote short after one vote.
    t.act("close_vote", t.portrayer)
    assert t.state.round.dispute is not None and RULES.deadline(t.state) is None
    with pytest.raises(IllegalAction, match="asked already"):
        t.act("close_vote", t.portrayer)
    t.act("vote", t.artists[2], met=False)
    t.act("close_vote", t.artists[1])  # 2 of 4 players asked: not a majority
    assert RULES.deadline(t.state) is None
    t.act("close_vote", t.artists[2])  # 3 of 4: the countdown for the quiet phone starts
    deadline = RULES.deadline(t.state)
    assert deadline is not None and deadline.what == VOTE
    assert deadline.length == VOTE_COUNTDOWN_S
    assert RULES.view(t.state, None)["dispute"]["countdown"] is True
    with pytest.raises(IllegalAction, match="not up"):
        t.act(TIME_UP, TABLE)
    t.state = RULES.apply(t.state, time_up(deadline))
    assert t.state.round.dispute is None
    assert RULES.view(t.state, None)["results"][0][str(a)] is False


def test_everyone_entitled_voting_closes_the_vote_and_the_table_can_start_a_countdown() -> None:
    t = Table(4)
    t.to_evaluation()
    a = t.artists[0]
    t.judge_all(met=False)
    t.act("dispute", a, artist=a)
    assert [x.kind for x in RULES.legal_actions(t.state, TABLE)] == ["close_vote"]
    t.act("close_vote", TABLE)  # the kiosk (the host) starts the countdown at once
    deadline = RULES.deadline(t.state)
    assert deadline is not None and deadline.at == t.now + VOTE_COUNTDOWN_S
    for voter in t.artists:
        t.act("vote", voter, met=True)
    assert t.state.round.dispute is None and RULES.deadline(t.state) is None
    assert RULES.view(t.state, None)["results"][0][str(a)] is True


def present_artists(t: Table) -> list[int]:
    return [s for s in t.artists if s not in t.state.gone]


def test_a_kicked_artist_is_skipped_and_the_next_criterion_comes() -> None:
    t = Table(5)
    t.to_evaluation()
    leaver = t.artists[1]
    for evaluator in t.artists:
        if evaluator != leaver:
            t.act("judge", evaluator, met=True)
    assert not any(x.kind == "next" for x in RULES.legal_actions(t.state, t.portrayer))
    t.change(SEAT_LEFT, leaver)
    # The ring closes over the Artists still here: every canvas in front of one of them
    # needs a verdict, the leaver's canvas none, and nobody waits for the leaver.
    missing = [x for x in present_artists(t) if verdict(t.state.round, 0, x) is None]
    for artist in missing:
        t.act("judge", evaluator_of(t.state, artist), met=True)
    with pytest.raises(IllegalAction, match="left the game"):
        t.act("judge", leaver, met=True)
    assert any(x.kind == "next" for x in RULES.legal_actions(t.state, t.portrayer))
    t.act("next", t.portrayer)
    assert t.state.round.presented == 2
    assert leaver not in RULES.view(t.state, None)["artists"]
    assert RULES.view(t.state, None)["gone"] == [leaver]
    # A newcomer takes the seat: it is judged again from the next criterion on.
    t.change(SEAT_BACK, leaver)
    assert leaver in RULES.view(t.state, None)["artists"]
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


def test_a_portrayer_who_leaves_takes_the_round_with_them() -> None:
    t = Table(4)
    t.act("roll", t.portrayer)
    t.act("start_timer", t.portrayer)
    first = t.portrayer
    t.change(SEAT_LEFT, first)
    assert (t.state.phase, t.state.round.number) == ("roll", 1) and t.portrayer != first
    assert len(t.state.history) == 0  # the unplayed scene is in no art show
    # The leaver's later turns to portray are skipped too: the game still ends.
    while RULES.outcome(t.state) is None:
        if t.state.phase == "roll":
            t.act("roll", t.portrayer)
            t.act("start_timer", t.portrayer)
            for artist in present_artists(t):
                t.act("done", artist)
            t.act("end_drawing", t.portrayer)
            t.act("pass", t.portrayer, direction="left")
        for _ in range(10):
            t.judge_all_present()
            t.act("next", t.portrayer)
        t.act("next", t.portrayer)
    portrayers = [RULES.view(t.state, None)["art_show"][i]["portrayer"] for i in range(3)]
    assert first not in portrayers and len(t.state.history) == 3


def test_too_few_players_end_the_game_with_a_reason() -> None:
    t = Table(3)
    t.to_evaluation()
    t.change(SEAT_LEFT, t.artists[0])
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == TOO_FEW
    with pytest.raises(IllegalAction):
        t.change(SEAT_LEFT, t.artists[1])


def play_round(t: Table, verdicts: dict[int, set[int]]) -> None:
    """Judge criterion n as met exactly for the artists in verdicts[n] (1-based n)."""
    t.to_evaluation()
    for n in range(1, CRITERIA + 1):
        for evaluator in t.artists:
            artist = canvas_before(t.state, evaluator)
            t.act("judge", evaluator, met=artist in verdicts.get(n, set()))
        t.act("next", t.portrayer)


def test_scoring_golden_three_others_one_portrayer_once_per_criterion() -> None:
    golden = Table(4).act("roll", Table(4).portrayer).round.golden  # same seed, same die
    assert golden is not None
    other = golden % CRITERIA + 1
    t = Table(4)
    portrayer = t.portrayer
    a, b, c = t.artists
    play_round(t, {golden: {a, b}, other: {a}})
    assert t.state.phase == "artshow"
    assert dict(t.state.scores) == {portrayer: 2, a: 4, b: 3, c: 0}
    assert round_points(t.state, t.state.round)[portrayer] == 2


def test_the_next_portrayer_is_to_the_left_and_the_game_length_holds() -> None:
    t = Table(3, turns=2)
    portrayers = []
    while t.state.phase != "over":
        portrayers.append(t.portrayer)
        play_round(t, {})
        t.act("press_reveal")
    assert len(portrayers) == 6
    first = portrayers[0]
    assert portrayers == [(first + i) % 3 for i in range(6)]
    outcome = RULES.outcome(t.state)
    assert outcome is not None and set(outcome.winners) == {0, 1, 2}  # nobody scored
    assert len(RULES.view(t.state, None)["art_show"]) == 6


def test_points_of_earlier_rounds_are_final() -> None:
    t = Table(3)
    a = t.artists[0]
    play_round(t, {1: {a}})
    first_round, before = t.state.round, dict(t.state.scores)
    t.act("next", t.portrayer)
    with pytest.raises(IllegalAction, match="not judged now"):
        t.act("judge", a, met=False)  # no way back into the finished round
    play_round(t, {})
    assert t.state.history[0] == first_round
    assert all(t.state.scores[s] >= before[s] for s in before)


def test_who_sees_what() -> None:
    t = Table(4)
    scene = scene_of(t.state.round.scene_seed)
    portrayer, (a, b, _) = t.portrayer, t.artists
    assert RULES.view(t.state, portrayer)["scene"]["key"] == scene.key
    for seat in (a, b, None):
        text = json.dumps(RULES.view(t.state, seat))
        assert scene.key not in text and "<svg" not in text
        assert scene.title.en in text  # the title is announced to all
    assert all(c.text.en not in json.dumps(RULES.view(t.state, portrayer)) for c in scene.criteria)
    t.act("roll", portrayer)
    t.act("start_timer", portrayer)
    t.act("stroke", a, points=[[777, 333, 0], [778, 334, 5]])
    assert RULES.view(t.state, a)["my_canvas"][0]["points"][0] == (777, 333, 0)
    mark = "[777, 333, 0]"
    for seat in (b, portrayer, None):
        assert mark not in json.dumps(RULES.view(t.state, seat)), seat
    for artist in t.artists:
        t.act("done", artist)
    t.act("end_drawing", portrayer)
    t.act("pass", portrayer, direction="left")
    judge = evaluator_of(t.state, a)
    assert mark in json.dumps(RULES.view(t.state, judge)["judging"])
    outsider = next(s for s in t.artists if s not in (a, judge))
    assert mark not in json.dumps(RULES.view(t.state, outsider))
    view = RULES.view(t.state, None)
    assert [c["en"] for c in view["criteria"]] == [scene.criteria[0].text.en]


def test_paper_canvases() -> None:
    t = Table(3, paper=True)
    t.act("roll", t.portrayer)
    t.act("start_timer", t.portrayer)
    with pytest.raises(IllegalAction, match="on paper"):
        t.act("stroke", t.artists[0], **LINE)
    for artist in t.artists:
        t.act("done", artist)
    t.act("end_drawing", t.portrayer)
    t.act("pass", t.portrayer, direction="right")
    t.judge_all()
    assert RULES.view(t.state, t.artists[0])["judging"]["canvas"] is None


def test_generated_scenes_instead_of_the_deck() -> None:
    t = Table(3, generated=True)
    assert len(t.state.deck) == 3 and scene_of(t.state.deck[0]).criteria


def test_golden_replay() -> None:
    """A fixed seed and a scripted game give the same scores and state as when recorded."""
    t = Table(4, seed=20261129)
    while t.state.phase != "over":
        artists = t.artists
        play_round(t, {n: {a for a in artists if (n + a) % 3 == 0} for n in range(1, 11)})
        t.act("next", t.portrayer)
    digest = hashlib.sha256(
        json.dumps(RULES.to_json(t.state), sort_keys=True).encode()
    ).hexdigest()[:16]
    assert dict(t.state.scores) == GOLDEN_SCORES
    assert digest == GOLDEN_DIGEST
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


GOLDEN_SCORES: dict[int, int] = {0: 21, 1: 18, 2: 20, 3: 21}
GOLDEN_DIGEST = "3b72995c1fa5cd03"


def test_a_verdict_names_its_criterion_so_a_reread_cannot_misfile_it() -> None:
    """The report: re-reading criterion 1 while 2 was current, YES/NO set criterion 2.
    A phone sends the criterion it shows; any other than the current one is refused."""
    t = Table(4)
    t.to_evaluation()
    t.judge_all()
    t.act("next", t.portrayer)
    t.act("reread", t.portrayer, criterion=1)
    view = RULES.view(t.state, t.artists[0])
    assert (view["reading"], len(view["criteria"])) == (1, 2)
    with pytest.raises(IllegalAction, match="Criterion 2 is the one judged now"):
        t.act("judge", t.artists[0], met=True, criterion=1)
    t.act("judge", t.artists[0], met=True, criterion=2)
    artist = canvas_before(t.state, t.artists[0])
    assert t.state.round.judged[1][artist] is True


def test_the_finish_writes_each_scenes_svg_once_for_the_longest_game(monkeypatch):
    """The finish's view carries every round's scene, in deck order, at every version: the
    SVGs of the longest game's 30 rounds are all kept (a cache of 16, cycled in order,
    kept none and wrote every scene again, ~50 ms each, per version)."""
    from games import duplik_scenes
    from games.duplik import MOST_ROUNDS, Duplik, svg_of

    assert Duplik.max_players * 3 == MOST_ROUNDS
    written: list[int] = []

    def render_svg(scene: duplik_scenes.Scene) -> str:
        written.append(scene.seed)
        return "<svg/>"

    monkeypatch.setattr(duplik_scenes, "render_svg", render_svg)
    seeds = duplik_scenes.CURATED_SEEDS[:MOST_ROUNDS]
    svg_of.cache_clear()
    for _ in range(2):  # two versions of the finish's view
        for seed in seeds:
            svg_of(seed)
    assert len(written) == MOST_ROUNDS
    svg_of.cache_clear()  # the other tests' scenes are real ones


# -- the host ends the game early ----------------------------------------------------------


def test_ending_early_keeps_the_scored_rounds_and_not_the_one_being_judged() -> None:
    t = Table(4)
    a, b, _ = t.artists
    play_round(t, {1: {a, b}, 2: {a}})
    scored = dict(t.state.scores)
    assert max(scored.values()) > 0
    t.act("press_reveal")
    t.to_evaluation()
    t.judge_all(met=True)  # a round half judged: its points are not the game's yet
    with pytest.raises(IllegalAction):
        t.act("end_early", t.portrayer)  # the host's, never a seat's
    t.act("end_early")
    assert t.state.phase == "over" and dict(t.state.scores) == scored
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == ENDED_EARLY
    best = max(scored.values())
    assert outcome.winners == tuple(s for s in t.state.seats if scored[s] == best)
    assert dict(outcome.scores) == {s: float(v) for s, v in scored.items()}
    shown = RULES.view(t.state, None)
    assert shown["ended"] == ENDED_EARLY and shown["round_points"] is None
    assert len(shown["art_show"]) == 1  # the scored round only
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


def test_ending_early_at_the_art_show_counts_that_round() -> None:
    t = Table(3)
    a, portrayer = t.artists[0], t.portrayer
    play_round(t, {1: {a}})
    assert t.state.phase == "artshow"
    t.act("end_early")
    outcome = RULES.outcome(t.state)
    assert outcome is not None and set(outcome.winners) == {a, portrayer}  # 1 point each
    shown = RULES.view(t.state, None)
    assert shown["round_points"] is not None and len(shown["art_show"]) == 1


def test_ending_early_before_anyone_scored_is_nobodys_win() -> None:
    t = Table(3)
    t.to_evaluation()
    t.act("end_early")
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.summary == ENDED_EARLY
