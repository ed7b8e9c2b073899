"""Broad Lines' rules, rule by rule, and a golden replay."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from games.broad_lines import (
    RATINGS,
    RULES,
    BroadLines,
    BroadLinesState,
    artists,
    guesses_left,
    rating,
    word_of,
)
from games.broad_lines_words import CARDS
from games.core import (
    ENDED_EARLY,
    TABLE,
    TOO_FEW,
    Action,
    BadOptions,
    IllegalAction,
    SeatInfo,
    replay,
    seat_left,
)

LINE = {"points": [[100, 100, 0], [600, 400, 80]], "colour": "#123456", "width": 8}
LINE2 = {"points": [[900, 100, 0], [1400, 700, 80]]}
LINE3 = {"points": [[100, 900, 0], [1500, 900, 80]]}
# A smooth arc that keeps its bend: one legal curve.
ARC = {"points": [[200 + 40 * i, 600 - int(((i - 15) ** 2 - 225) * -1.5), 10 * i]
                  for i in range(31)]}


def seats(n: int) -> list[SeatInfo]:
    return [SeatInfo(i, f"P{i}", "#e6194b") for i in range(n)]


class Table:
    """A game in progress with a clock, so scenarios read like the rules."""

    def __init__(self, players: int = 4, seed: int = 2**40 + 5, rules: BroadLines = RULES,
                 **options: Any) -> None:
        self.rules = rules
        self.seats = seats(players)
        self.options = options
        self.seed = seed
        self.state: BroadLinesState = rules.setup(self.seats, options, seed)
        self.now = 1_800_000_000.0
        self.log: list[Action] = []

    def act(self, kind: str, seat: int | None = TABLE, **data: Any) -> BroadLinesState:
        self.now += 1
        action = Action(kind, seat, data, self.now)
        self.state = self.rules.apply(self.state, action)
        self.log.append(action)
        return self.state

    def refused(self, kind: str, seat: int | None = TABLE, **data: Any) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as err:
            self.act(kind, seat, **data)
        assert self.state == before
        return err.value

    def phase(self) -> str:
        # A method, not the attribute: mypy would narrow the attribute across moves.
        return self.state.phase

    @property
    def critic(self) -> int:
        return self.state.round.critic

    @property
    def artist(self) -> int:
        return self.state.round.artist

    def name(self, number: int = 3) -> None:
        self.act("name_number", self.critic, number=number)

    def sheet(self, *strokes: dict[str, Any]) -> None:
        """The Artist whose turn it is draws and places a sheet."""
        artist = self.artist
        for stroke in strokes or (LINE,):
            self.act("stroke", artist, **stroke)
        self.act("place", artist)

    def wrong(self, times: int = 2) -> None:
        marker = artists(self.state)[0]
        for _ in range(times):
            self.act("mark", marker, right=False)

    def right(self) -> None:
        self.act("mark", artists(self.state)[0], right=True)


def view_text(table: Table, seat: int | None) -> str:
    return json.dumps(table.rules.view(table.state, seat), ensure_ascii=False)


# -- setup -------------------------------------------------------------------------------


def test_setup_picks_a_random_critic_and_the_artist_on_their_left() -> None:
    critics = set()
    for seed in range(30):
        state = RULES.setup(seats(4), {}, seed)
        critics.add(state.round.critic)
        assert state.phase == "choose"
        assert state.round.artist == (state.round.critic + 1) % 4
        assert (state.total, state.used, state.check_sheets) == (25, 0, True)
    assert critics == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("options", "players"),
    [({"sheets": 4}, 4), ({"sheets": "25"}, 4), ({"check_sheets": 1}, 4), ({"colour": 1}, 4),
     ({}, 2), ({}, 13)],
)
def test_bad_options_and_player_counts(options: dict[str, Any], players: int) -> None:
    with pytest.raises(BadOptions):
        RULES.setup(seats(players), options, 1)


# -- the word ------------------------------------------------------------------------------


def test_the_critic_names_a_number_and_only_the_artists_see_the_word() -> None:
    t = Table()
    t.refused("name_number", t.artist, number=2)
    t.refused("name_number", t.critic, number=7)
    t.name(4)
    word = word_of(t.state.round)
    assert word == CARDS[t.state.round.card][3]
    assert t.phase() == "drawing"
    for seat in range(4):
        shown = RULES.view(t.state, seat)
        if seat == t.critic:
            assert shown["word"] is None and shown["card"] is None
            assert f'"{word.en}"' not in view_text(t, seat)
        else:
            assert shown["word"] == {"en": word.en, "cs": word.cs}
            assert len(shown["card"]) == 6
    assert f'"{word.en}"' not in view_text(t, None)
    assert RULES.view(t.state, t.critic)["number"] == 4


def test_an_artist_may_ask_for_another_number_before_the_first_sheet() -> None:
    t = Table()
    t.name(2)
    t.refused("ask_other", t.critic)
    t.act("ask_other", artists(t.state)[1])
    assert t.phase() == "choose" and t.state.round.refused == (2,)
    t.refused("name_number", t.critic, number=2)
    t.name(5)
    t.sheet()
    t.wrong()
    t.refused("ask_other", artists(t.state)[0])


def test_a_card_runs_out_of_numbers() -> None:
    t = Table()
    for n in range(1, 6):
        t.name(n)
        t.act("ask_other", artists(t.state)[0])
    t.name(6)
    t.refused("ask_other", artists(t.state)[0])


# -- drawing ---------------------------------------------------------------------------------


def test_artists_draw_in_turn_clockwise_from_the_critics_left() -> None:
    t = Table(players=5)
    t.name()
    critic = t.critic
    order = []
    for _ in range(6):
        order.append(t.artist)
        for seat in range(5):
            if seat != t.artist:
                t.refused("stroke", seat, **LINE)
        t.sheet()
        t.wrong()
    expected = [(critic + k) % 5 for k in (1, 2, 3, 4, 1, 2)]
    assert order == expected


def test_undo_until_placed_then_the_sheet_stays() -> None:
    t = Table()
    t.name()
    artist = t.artist
    t.refused("undo", artist)
    t.act("stroke", artist, **LINE)
    t.act("stroke", artist, **LINE2)
    t.act("undo", artist)
    assert len(t.state.round.drawing) == 1
    t.act("place", artist)
    assert len(t.state.round.sheets) == 1 and not t.state.round.drawing
    t.refused("undo", artist)


def test_the_check_refuses_a_sheet_and_says_why() -> None:
    t = Table()
    t.name()
    artist = t.artist
    t.refused("place", artist)  # nothing drawn
    for stroke in (LINE, LINE2, LINE3):
        t.act("stroke", artist, **stroke)
    check = t.state.round.check
    assert check is not None and not check.legal
    assert "2 straight lines or 1 curve" in check.reason_en
    assert "2 rovné čáry nebo 1 křivka" in check.reason_cs
    err = t.refused("place", artist)
    assert "this sheet has 3 lines" in str(err)
    shown = RULES.view(t.state, artist)
    assert shown["check"]["legal"] is False and shown["drawing"]
    # Nobody else sees the sheet in the Artist's hands, least of all the Critic.
    for seat in (t.critic, None, *(a for a in artists(t.state) if a != artist)):
        assert RULES.view(t.state, seat)["drawing"] is None
    t.act("undo", artist)
    t.act("place", artist)
    assert t.phase() == "guessing"


def test_a_curve_is_a_sheet() -> None:
    t = Table()
    t.name()
    artist = t.artist
    t.act("stroke", artist, **ARC)
    check = t.state.round.check
    assert check is not None and check.legal and check.reason_en == "1 curve: allowed."
    t.act("place", artist)
    assert t.phase() == "guessing"


def test_a_majority_of_the_artists_accepts_a_refused_sheet() -> None:
    t = Table(players=5)  # 4 Artists: 3 yes are a majority, 2 are not
    t.name()
    artist = t.artist
    for stroke in (LINE, LINE2, LINE3):
        t.act("stroke", artist, **stroke)
    others = [a for a in artists(t.state) if a != artist]
    t.refused("accept_vote", others[0], accept=True)  # the Artist asks, not the others
    t.act("accept_vote", artist, accept=True)
    assert t.phase() == "vote"
    # The Artists see the sheet they vote on; the Critic does not vote and does not see it.
    assert RULES.view(t.state, others[0])["drawing"]
    assert RULES.view(t.state, t.critic)["drawing"] is None
    t.refused("accept_vote", t.critic, accept=True)
    t.refused("stroke", artist, **LINE)
    t.act("accept_vote", others[0], accept=True)
    assert t.phase() == "vote"
    t.act("accept_vote", others[1], accept=True)
    assert t.phase() == "guessing"
    assert t.state.round.sheets[-1].overruled


def test_a_tie_keeps_the_checks_verdict_until_the_sheet_changes() -> None:
    t = Table(players=5)
    t.name()
    artist = t.artist
    for stroke in (LINE, LINE2, LINE3):
        t.act("stroke", artist, **stroke)
    t.act("accept_vote", artist, accept=True)
    others = [a for a in artists(t.state) if a != artist]
    t.act("accept_vote", others[0], accept=False)
    t.act("accept_vote", others[1], accept=False)
    assert t.phase() == "drawing" and not t.state.round.sheets
    t.refused("accept_vote", artist, accept=True)  # change it first
    t.act("undo", artist)
    t.act("stroke", artist, **LINE3)
    t.act("accept_vote", artist, accept=True)
    assert t.phase() == "vote"


def test_the_table_can_switch_the_check_off() -> None:
    t = Table(check_sheets=False)
    t.name()
    artist = t.artist
    for stroke in (LINE, LINE2, LINE3):
        t.act("stroke", artist, **stroke)
    assert t.state.round.check is None
    t.act("place", artist)
    assert len(t.state.round.sheets[0].strokes) == 3


def test_drawing_on_the_table_screen_shows_the_sheet_there() -> None:
    t = Table()
    t.name()
    artist = t.artist
    t.refused("use_panel", t.critic, on=True)
    t.act("use_panel", artist, on=True)
    t.act("stroke", artist, **LINE)
    public = RULES.view(t.state, None)
    assert public["panel"] is True and len(public["drawing"]) == 1
    assert RULES.view(t.state, t.critic)["drawing"] is None
    t.act("place", artist)
    assert RULES.view(t.state, None)["panel"] is False


# -- guessing ---------------------------------------------------------------------------------


def test_two_guesses_per_placed_sheet() -> None:
    t = Table()
    t.name()
    t.refused("mark", artists(t.state)[0], right=False)  # no sheet yet
    first = t.artist
    t.sheet()
    assert guesses_left(t.state.round) == 2
    t.refused("mark", t.critic, right=False)  # the Artists mark
    t.wrong(1)
    assert guesses_left(t.state.round) == 1 and t.phase() == "guessing"
    t.wrong(1)
    assert t.phase() == "drawing" and t.artist != first
    t.sheet()
    assert guesses_left(t.state.round) == 2


def test_a_typed_guess_gets_the_boxs_opinion_for_the_artists_only() -> None:
    t = Table()
    t.name(1)
    word = word_of(t.state.round)
    assert word is not None
    t.sheet()
    t.refused("guess", artists(t.state)[0], text="x")
    t.refused("guess", t.critic, text="   ")
    t.act("guess", t.critic, text=word.en.upper())
    t.refused("guess", t.critic, text="again")  # marked first
    t.refused("pass", t.critic)
    artist_view = RULES.view(t.state, artists(t.state)[0])
    assert artist_view["guesses"][-1]["opinion"] == "match" and artist_view["pending"]
    assert RULES.view(t.state, t.critic)["guesses"][-1]["opinion"] is None
    assert RULES.view(t.state, None)["guesses"][-1]["opinion"] is None
    t.right()
    assert t.phase() == "reveal" and t.state.round.result == "guessed"
    assert RULES.view(t.state, t.critic)["word"] == {"en": word.en, "cs": word.cs}


def test_a_wrong_typed_guess_is_marked_and_counts() -> None:
    t = Table()
    t.name()
    t.sheet()
    t.act("guess", t.critic, text="zzz")
    assert t.state.round.guesses[-1].opinion == "no"
    t.wrong(1)
    assert guesses_left(t.state.round) == 1


def test_the_critic_may_pass_the_rest_of_a_sheets_guesses() -> None:
    t = Table()
    t.name()
    t.sheet()
    t.act("pass", t.critic)
    assert t.phase() == "drawing"


def test_hints_come_from_the_artists_after_a_guess() -> None:
    t = Table()
    t.name()
    t.sheet()
    marker = artists(t.state)[1]
    t.refused("hint", marker, hint="almost")  # nothing to answer yet
    t.wrong(1)
    t.refused("hint", t.critic, hint="almost")
    t.refused("hint", marker, hint="warmer")
    t.act("hint", marker, hint="almost")
    t.act("hint", marker, hint="almost")
    hint = RULES.view(t.state, None)["hint"]
    assert (hint["kind"], hint["serial"], hint["en"], hint["cs"]) == ("almost", 2, "Well, almost",
                                                                      "No, skoro")


# -- the end of a round -------------------------------------------------------------------------


def test_the_next_critic_is_left_of_the_last_artist() -> None:
    t = Table(players=5)
    t.name()
    critic = t.critic
    t.sheet()
    t.wrong()
    t.sheet()
    last = t.state.round.sheets[-1].artist
    assert last == (critic + 2) % 5
    t.right()
    assert RULES.view(t.state, None)["guessed_words"]
    t.refused("next", TABLE)
    t.act("next", t.critic)
    assert t.state.round.critic == (last + 1) % 5
    assert t.state.round.number == 2 and t.phase() == "choose"
    assert t.state.round.card != t.state.history[0].card


def test_reveal_is_the_tables_next_round() -> None:
    t = Table()
    t.name()
    t.sheet()
    assert [a.kind for a in RULES.legal_actions(t.state, TABLE)] == ["hold_hourglass"]
    t.refused("press_reveal")
    t.right()
    assert [a.kind for a in RULES.legal_actions(t.state, TABLE)] == ["press_reveal"]
    t.act("press_reveal")
    assert t.phase() == "choose"
    assert RULES.legal_actions(t.state, TABLE) == []


def test_the_die_and_the_short_hourglass_say_they_have_no_use() -> None:
    t = Table()
    assert "no use for the die" in str(t.refused("press_die"))
    assert "hold the button" in str(t.refused("press_hourglass"))


# -- giving up ---------------------------------------------------------------------------------


def test_giving_up_needs_everyone_and_burns_a_sheet() -> None:
    t = Table()
    t.refused("propose_give_up", t.critic)  # no word chosen yet
    t.name()
    t.sheet()
    t.wrong()
    used = t.state.used
    t.act("propose_give_up", t.critic)
    t.refused("stroke", t.artist, **LINE)  # the proposal first
    t.refused("agree_give_up", t.critic)
    t.act("agree_give_up", 1 if t.critic != 1 else 2)
    t.act("refuse_give_up", t.artist)
    assert t.state.round.give_up is None
    t.act("propose_give_up", t.artist)
    for seat in range(4):
        if seat != t.artist:
            t.act("agree_give_up", seat)
    assert t.phase() == "reveal"
    assert t.state.round.result == "given_up" and t.state.round.burned
    assert t.state.used == used + 1
    assert RULES.view(t.state, None)["guessed_words"] == []


def test_a_long_press_of_the_hourglass_proposes_and_the_table_may_refuse() -> None:
    t = Table()
    t.name()
    t.act("hold_hourglass")
    assert t.state.round.give_up is not None and t.state.round.give_up.agreed == frozenset()
    t.refused("hold_hourglass")
    t.act("refuse_give_up")
    t.act("hold_hourglass")
    for seat in range(4):
        t.act("agree_give_up", seat)
    assert t.state.round.result == "given_up"
    # Given up before any sheet: the next Critic is left of the first Artist.
    first = (t.critic + 1) % 4
    t.act("next", 0)
    assert t.state.round.critic == (first + 1) % 4


# -- the end of the game -------------------------------------------------------------------------


def play_sheets(t: Table, count: int) -> None:
    for _ in range(count):
        if t.phase() == "choose":
            t.name()
        t.sheet()
        if t.state.used < t.state.total:
            t.wrong()


def test_the_last_sheet_gets_its_two_guesses_then_the_game_ends() -> None:
    t = Table(sheets=5)
    play_sheets(t, 5)
    assert t.state.used == 5 and t.phase() == "guessing"
    shown = RULES.view(t.state, None)
    assert shown["last_chance"] is True and shown["guesses_left"] == 2
    t.wrong(1)
    assert t.phase() == "guessing"
    t.wrong(1)
    assert t.phase() == "over"
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.summary == "rating 0"
    over = RULES.view(t.state, t.critic)
    assert over["rating"]["en"].startswith("The main thing is that you had fun")
    assert len(over["art_show"]) == 1 and len(over["art_show"][0]["sheets"]) == 5
    assert over["art_show"][0]["word"] is not None


def test_a_word_guessed_on_the_last_sheet_counts() -> None:
    t = Table(sheets=5)
    play_sheets(t, 4)
    t.sheet()
    t.right()
    assert t.phase() == "over"
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == (0, 1, 2, 3)
    assert dict(outcome.scores) == {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0}
    assert RULES.view(t.state, None)["rating"]["band"] == "1"


def test_giving_up_with_one_sheet_left_burns_it_and_ends_the_game() -> None:
    t = Table(sheets=5)
    play_sheets(t, 4)
    t.act("hold_hourglass")
    for seat in range(4):
        t.act("agree_give_up", seat)
    assert t.state.used == 5 and t.phase() == "over"


def test_the_25_sheets_of_a_whole_game() -> None:
    t = Table(players=3)
    guessed = 0
    while t.phase() != "over":
        if t.phase() == "choose":
            t.name()
        elif t.phase() == "reveal":
            t.act("press_reveal")
        else:
            t.sheet()
            if len(t.state.round.sheets) == 2 and t.phase() == "guessing":
                t.right()
                guessed += 1
            elif t.phase() == "guessing":
                t.wrong()
    assert t.state.used == 25
    assert RULES.view(t.state, None)["score"] == guessed == 12
    assert RULES.view(t.state, None)["rating"]["band"] == "10+"


@pytest.mark.parametrize(
    ("guessed", "band"),
    [(0, "0"), (1, "1"), (2, "2-3"), (3, "2-3"), (4, "4-5"), (5, "4-5"), (6, "6-7"),
     (7, "6-7"), (8, "8-9"), (9, "8-9"), (10, "10+"), (11, "10+"), (25, "10+")],
)
def test_rating_bands_at_every_boundary(guessed: int, band: str) -> None:
    assert rating(guessed)[0] == band


def test_the_rating_table_is_the_rules_word_for_word() -> None:
    english = [en for _, _, en, _ in RATINGS]
    assert english == [
        "Brilliant! Your works could be exhibited in an art gallery.",
        "Your paintings are almost perfect, but your technique could still use some work.",
        "Excellent! You are a talented artist.",
        "Neither fame nor shame! You can do better!",
        "Well, at least you know how to hold a marker. Now you need to learn how to use it.",
        "Perhaps you should not build your life around the visual arts.",
        "The main thing is that you had fun. Maybe someday you will learn to draw!",
    ]
    assert all(cs and cs != en for _, _, en, cs in RATINGS)


# -- the contract ---------------------------------------------------------------------------------


def test_an_injected_matcher_gives_the_opinion() -> None:
    t = Table(rules=BroadLines(matcher=lambda guess, word: "close"))
    t.name()
    t.sheet()
    t.act("guess", t.critic, text="anything")
    assert t.state.round.guesses[-1].opinion == "close"


def test_secrets_are_the_card_for_the_artists_only() -> None:
    t = Table()
    t.name()
    hidden = RULES.secrets(t.state)
    word = word_of(t.state.round)
    assert word is not None
    for seat in artists(t.state):
        assert f'"{word.cs}"' in hidden[seat]
    assert t.critic not in hidden


def scripted_game() -> Table:
    t = Table(players=4, seed=2**40 + 99)
    t.name(2)
    t.act("ask_other", artists(t.state)[0])
    t.name(6)
    t.sheet(LINE, LINE2)
    t.act("guess", t.critic, text="tree")
    t.wrong(1)
    t.act("hint", artists(t.state)[1], hint="not_bad")
    t.wrong(1)
    t.act("use_panel", t.artist, on=True)
    t.sheet(ARC)
    t.right()
    t.act("press_reveal")
    t.name(1)
    t.sheet()
    t.act("hold_hourglass")
    for seat in range(4):
        t.act("agree_give_up", seat)
    t.act("next", 0)
    return t


def test_golden_replay() -> None:
    t = scripted_game()
    rebuilt = replay(RULES, t.seats, {}, t.seed, t.log)
    assert rebuilt == t.state
    digest = hashlib.sha256(
        json.dumps(RULES.to_json(t.state), sort_keys=True).encode()
    ).hexdigest()
    assert (t.state.used, t.state.round.number, len(t.state.history)) == (4, 3, 2)
    assert digest == GOLDEN, digest


GOLDEN = "be9238156b7ff961ffc10ddcc8867b7062caf0b4a5c21ad235f1564fe61327a7"


def test_the_artist_whose_turn_it_is_leaving_passes_the_turn_on() -> None:
    t = Table(5)
    t.name()
    drawing = t.artist
    t.act("stroke", drawing, **LINE)
    t.state = RULES.apply(t.state, seat_left(drawing, t.now + 1))
    assert t.phase() == "drawing" and t.artist not in (drawing, t.critic)
    assert t.state.round.drawing == ()  # the sheet in their hands went with them
    assert drawing not in RULES.view(t.state, None)["artists"]
    t.sheet()
    t.wrong()
    assert t.artist != drawing  # the turn skips the seat that left


def test_the_critic_leaving_ends_the_round_and_the_next_critic_takes_over() -> None:
    t = Table(4)
    t.name()
    t.sheet()
    critic = t.critic
    t.state = RULES.apply(t.state, seat_left(critic, t.now + 1))
    assert t.phase() == "reveal" and t.state.round.result == "unfinished"
    assert not t.state.round.burned
    t.act("next", t.artist)
    assert t.critic != critic and t.phase() == "choose"
    with pytest.raises(IllegalAction, match="left the game"):
        t.act("propose_give_up", critic)
    # Before a word is chosen the next player simply becomes the Critic.
    new = t.critic
    t.state = RULES.apply(t.state, seat_left(new, t.now + 1))
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == TOO_FEW  # 2 of 4 left


def test_giving_up_waits_only_for_the_players_still_here() -> None:
    t = Table(4)
    t.name()
    t.sheet()
    quiet = next(s for s in artists(t.state) if s != t.artist)
    for seat in range(4):
        if seat != quiet:
            t.act("agree_give_up" if t.state.round.give_up else "propose_give_up", seat)
    assert t.state.round.give_up is not None
    t.state = RULES.apply(t.state, seat_left(quiet, t.now + 1))
    assert t.phase() == "reveal" and t.state.round.result == "given_up"


# -- the host ends the game early ----------------------------------------------------------


def two_words_then_a_third_on_the_easel() -> Table:
    t = Table()
    for _ in range(2):
        t.name()
        t.sheet()
        t.right()
        t.act("press_reveal")
    t.name()
    t.sheet()
    t.act("guess", t.critic, text="a guess")  # typed, not yet marked
    return t


def test_ending_early_keeps_the_words_guessed_and_their_rating() -> None:
    t = two_words_then_a_third_on_the_easel()
    third = word_of(t.state.round)
    t.refused("end_early", t.critic)  # the host's, never a seat's
    t.act("end_early")
    assert t.phase() == "over"
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.summary == ENDED_EARLY
    assert outcome.winners == (0, 1, 2, 3)  # together, as at a full game's end
    assert dict(outcome.scores) == {0: 2.0, 1: 2.0, 2: 2.0, 3: 2.0}
    shown = RULES.view(t.state, None)
    assert shown["score"] == 2 and len(shown["guessed_words"]) == 2
    assert shown["rating"]["band"] == "2-3" and shown["ended"] == ENDED_EARLY
    assert shown["rating"]["en"].startswith("Well, at least you know how to hold a marker")
    # The round on the easel ends unfinished, its sheet and word in the art show; the
    # unmarked guess did not count and no sheet was burned.
    assert [r["result"] for r in shown["art_show"]] == ["guessed", "guessed", "unfinished"]
    assert third is not None and shown["art_show"][2]["word"]["en"] == third.en
    assert t.state.used == 3
    t.refused("end_early")  # over is over
    t.refused("press_reveal")
    assert replay(RULES, t.seats, {}, t.seed, t.log) == t.state


def test_ending_early_before_a_round_has_a_sheet_leaves_the_round_out() -> None:
    t = Table()
    t.name()
    t.sheet()
    t.right()
    t.act("press_reveal")
    t.name()  # the next word is chosen, nothing drawn yet
    t.act("end_early")
    shown = RULES.view(t.state, None)
    assert [r["result"] for r in shown["art_show"]] == ["guessed"]
    assert shown["score"] == 1 and shown["rating"]["band"] == "1"


def test_ending_early_with_nothing_guessed_is_nobodys_win() -> None:
    t = Table()
    t.act("end_early")
    outcome = RULES.outcome(t.state)
    assert outcome is not None and outcome.winners == () and outcome.summary == ENDED_EARLY
    assert RULES.view(t.state, None)["rating"]["band"] == "0"
