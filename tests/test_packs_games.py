"""Word packs in Broad Lines and Luck of the Draw: a pack that adds to or replaces a deck
is dealt from (seeded), the deck travels in the match's start options so a replay and the
gallery need no pack file, and a game without packs is exactly as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from appliance.door import gallery
from appliance.system.config import Config
from appliance.table import guess_match
from appliance.table.packs import PackShelf
from appliance.table.session import HOST, PALETTE, Session
from appliance.table.store import Store
from games import broad_lines, luck_of_the_draw, registry
from games.broad_lines_words import CARDS, Word
from games.core import TABLE, Action, BadOptions, SeatInfo, replay, time_up
from games.luck_of_the_draw_cards import CATEGORY_CARDS, SUBJECT_CARDS
from tests.conftest import FakeClock

SEATS = tuple(SeatInfo(i, f"P{i}", "#000000") for i in range(4))


def card_line(n: int) -> str:
    """A Broad Lines card of six English-Czech pairs, all its own."""
    words = ", ".join(f'["thing {n}-{k}", "věc {n}-{k}"]' for k in range(1, 7))
    return f"  [{words}],"


REPLACE_CARDS = "\n".join(
    ['game = "broad-lines"', 'mode = "replace"', "cards = [", *map(card_line, range(12)), "]"]
) + "\n"

ADD_CARDS = """\
game = "broad-lines"
cards = [
  [["kettle", "konvice"], ["hamster", "křeček"], ["plum", "švestka"],
   ["lighthouse", "maják"], ["juggler", "žonglér"], ["rainbow", "duha"]],
]
"""


def subject_line(n: int) -> str:
    return f'  [["critter {n}", "tvor {n}"], ["gadget {n}", "věcička {n}"], ' \
        f'["a party {n}", "večírek {n}"]],'


LUCK_PACK = "\n".join([
    'game = "luck-of-the-draw"',
    'mode = "replace"',
    "subjects = [", *map(subject_line, range(10)), "]",
]) + "\n"

LUCK_CATEGORIES = """\
game = "luck-of-the-draw"
mode = "add"
categories = [["Most like our dog", "Nejvíc jako náš pes"]]
"""


def shelf_with(tmp_path: Path, **files: str) -> PackShelf:
    shelf = PackShelf(tmp_path / "packs", ())
    for name, text in files.items():
        shelf.save(f"{name}.toml", text.encode())
    return shelf


def seed_where(test: Callable[[int], bool]) -> int:
    """The first seed for which `test` holds: a seeded game that deals what a test needs."""
    return next(seed for seed in range(2000) if test(seed))


# -- Broad Lines --------------------------------------------------------------------------


def test_a_replacing_pack_is_the_whole_broad_lines_deck(tmp_path: Path) -> None:
    options = shelf_with(tmp_path, ours=REPLACE_CARDS).options_for("broad-lines")
    assert list(options) == ["cards"] and len(options["cards"]) == 12
    assert options["cards"][0][0] == ["thing 0-1", "věc 0-1"]
    rules = broad_lines.RULES
    state = rules.setup(SEATS, options, 11)
    assert len(state.deck) == 11 and all(0 <= i < 12 for i in state.deck)
    card = [w.en for w in broad_lines.card_of(state.round)]
    assert card == [f"thing {state.round.card}-{k}" for k in range(1, 7)]
    state = rules.apply(state, Action("name_number", state.round.critic, {"number": 2}))
    artist = rules.view(state, state.round.artist)
    assert artist["word"] == {"en": card[1], "cs": f"věc {state.round.card}-2"}
    assert [w["en"] for w in artist["card"]] == card
    critic = json.dumps(rules.view(state, state.round.critic), ensure_ascii=False)
    public = json.dumps(rules.view(state, None), ensure_ascii=False)
    assert "thing " not in critic and "věc " not in critic and "thing " not in public
    secret = rules.secrets(state)
    assert f'"{card[0]}"' in secret[state.round.artist]
    assert rules.from_json(rules.to_json(state)) == state


def test_an_added_broad_lines_card_is_dealt_and_its_word_guessed(tmp_path: Path) -> None:
    options = shelf_with(tmp_path, ours=ADD_CARDS).options_for("broad-lines")
    assert len(options["cards"]) == len(CARDS) + 1
    ours = len(CARDS)  # added after the built-in cards
    rules = broad_lines.BroadLines(guess_match.opinion)  # the box's: forms of a pack word too
    seed = seed_where(lambda s: rules.setup(SEATS, options, s).round.card == ours)
    state = rules.setup(SEATS, options, seed)
    assert broad_lines.card_of(state.round)[0] == Word("kettle", "konvice")
    critic, artist = state.round.critic, state.round.artist
    for action in (
        Action("name_number", critic, {"number": 2}),
        Action("stroke", artist, {"points": [[100, 100, 0], [600, 400, 80]]}),
        Action("place", artist),
        Action("guess", critic, {"text": "křečci"}),  # hamsters, in Czech
    ):
        state = rules.apply(state, action)
    assert state.round.guesses[-1].opinion == "match"
    state = rules.apply(state, Action("mark", artist, {"right": True}))
    assert rules.view(state, None)["guessed_words"] == [{"en": "hamster", "cs": "křeček"}]
    assert guess_match.opinion("lighthouses", Word("lighthouse", "maják")) == "match"
    assert guess_match.opinion("majáček", Word("lighthouse", "maják")) == "match"
    assert guess_match.opinion("juggle", Word("juggler", "žonglér")) in ("close", "match")


def test_broad_lines_without_packs_is_as_it_was() -> None:
    rules = broad_lines.RULES
    plain = rules.setup(SEATS, {}, 5)
    raw = rules.to_json(plain)
    assert "custom_cards" not in raw and "custom_card" not in raw["round"]
    assert rules.from_json(raw) == plain
    # The built-in deck in the option deals exactly as no option: same cards, same order.
    built_in = [[[w.en, w.cs] for w in card] for card in CARDS]
    same = rules.setup(SEATS, {"cards": built_in}, 5)
    assert same.deck == plain.deck and same.round.card == plain.round.card


@pytest.mark.parametrize("bad", [
    "cards",
    [[["a", "b"]] * 6] * 9,  # too few cards
    [[["a", "b"]] * 5] * 10,  # a card of five words
    [[["a", "b"]] * 6] * 9 + [[["a", ""]] * 6],
    [[["a", "b"]] * 6] * 9 + [[["a", 3]] * 6],
    [[["a", "b"]] * 6] * 9 + [["a"] * 6],
])
def test_broad_lines_refuses_a_bad_cards_option(bad: object) -> None:
    with pytest.raises(BadOptions, match="cards is a list of 10 or more cards, each of 6"):
        broad_lines.RULES.setup(SEATS, {"cards": bad}, 1)


# -- Luck of the Draw ---------------------------------------------------------------------


def test_luck_of_the_draw_deals_pack_subjects_and_categories(tmp_path: Path) -> None:
    shelf = shelf_with(tmp_path, subjects=LUCK_PACK, dog=LUCK_CATEGORIES)
    options = shelf.options_for("luck-of-the-draw")
    assert len(options["subjects"]) == 10  # replaced
    assert len(options["categories"]) == len(CATEGORY_CARDS) + 1  # added to
    assert options["subjects"][3] == [["critter 3", "tvor 3"], ["gadget 3", "věcička 3"],
                                      ["a party 3", "večírek 3"]]
    ours = len(CATEGORY_CARDS)
    rules = luck_of_the_draw.RULES

    def to_vote(seed: int) -> Any:
        state = rules.setup(SEATS, {**options, "speedier": True}, seed)
        state = rules.apply(state, Action("press_die", TABLE, {}, 1.0))
        state = rules.apply(state, Action("press_hourglass", TABLE, {}, 2.0))
        for seat in range(4):
            state = rules.apply(state, Action("done", seat, {}, 3.0))
        return state

    seed = seed_where(lambda s: to_vote(s).round.category == ours)
    state = rules.setup(SEATS, options, seed)
    view = rules.view(state, None)
    n = view["subject_card"]["number"] - 1
    assert [s["en"] for s in view["subject_card"]["subjects"]] == [
        f"critter {n}", f"gadget {n}", f"a party {n}"]
    assert [s["number"] for s in view["subject_card"]["subjects"]] == [1, 2, 3]
    state = to_vote(seed)
    subject = luck_of_the_draw.subject_of(state)
    assert subject is not None and subject.en.endswith(f" {n}")
    assert subject == state.custom_subjects[n].subjects[(state.round.subject or 0) - 1]
    assert rules.view(state, 0)["category"] == {"en": "Most like our dog",
                                                "cs": "Nejvíc jako náš pes"}
    assert rules.from_json(rules.to_json(state)) == state


def test_luck_of_the_draw_without_packs_is_as_it_was() -> None:
    rules = luck_of_the_draw.RULES
    plain = rules.setup(SEATS, {}, 5)
    raw = rules.to_json(plain)
    assert "custom_subjects" not in raw and "custom_categories" not in raw
    assert rules.from_json(raw) == plain
    built_in = {
        "subjects": [[[t.en, t.cs] for t in card.subjects] for card in SUBJECT_CARDS],
        "categories": [[t.en, t.cs] for t in CATEGORY_CARDS],
    }
    same = rules.setup(SEATS, built_in, 5)
    assert (same.subjects, same.categories) == (plain.subjects, plain.categories)


@pytest.mark.parametrize(("name", "bad", "wanted"), [
    ("subjects", [[["a", "b"]] * 3] * 9, "subjects is a list of 10 or more cards, each of 3"),
    ("subjects", [[["a", "b"]] * 2] * 10, "subjects is a list of 10 or more cards, each of 3"),
    ("categories", [["a", "b"]] * 29, "categories is a list of 30 or more"),
    ("categories", [[["a", "b"]]] * 30, "categories is a list of 30 or more"),
    ("categories", [["a", "b" * 41]] * 30, "categories is a list of 30 or more"),
])
def test_luck_of_the_draw_refuses_bad_deck_options(name: str, bad: object, wanted: str) -> None:
    with pytest.raises(BadOptions, match=wanted):
        luck_of_the_draw.RULES.setup(SEATS, {name: bad}, 1)


# -- through the session: logged with the match, replayed without the files ----------------


def seat_up(session: Session, game: str, players: int = 4) -> None:
    for i in range(players):
        session.join(f"P{i}", PALETTE[i])
    session.select(HOST, game)


def test_a_broad_lines_game_replays_without_its_pack(
    store: Store, config: Config, clock: FakeClock, tmp_path: Path
) -> None:
    registry.load_all()
    shelf = shelf_with(tmp_path, ours=REPLACE_CARDS)
    session = Session(store, config, "", clock, deck_options=shelf.options_for)
    seat_up(session, "broad-lines")
    session.start(HOST)
    match = session.match
    assert match is not None and len(match.record.options["cards"]) == 12
    rnd = match.state.round
    session.act(rnd.critic, "name_number", {"number": 4})
    session.act(rnd.artist, "stroke", {"points": [[100, 100, 0], [600, 400, 80]]})
    session.act(rnd.artist, "place", {})
    assert session.match is not None
    word = broad_lines.word_of(session.match.state.round)
    assert word is not None and word.en == f"thing {rnd.card}-4"
    session.act(rnd.critic, "guess", {"text": word.cs})
    session.act(rnd.artist, "mark", {"right": True})
    assert session.match is not None
    before = session.match.state
    shelf.delete("ours.toml")
    assert shelf.options_for("broad-lines") == {}
    again = Session(store, config, "", clock, deck_options=shelf.options_for)
    assert again.match is not None and again.match.state == before
    assert broad_lines.guessed_words(again.match.state) == [word]
    # The gallery of the match names the pack's word, from the log alone.
    again.end_match(HOST)
    record = store.match(match.record.id)
    assert record is not None
    shown = gallery.build_gallery(record, store.actions(record.id))
    assert [d.word for d in shown.drawings] == [{"en": word.en, "cs": word.cs}]


def test_a_luck_of_the_draw_game_replays_without_its_packs(
    store: Store, config: Config, clock: FakeClock, tmp_path: Path
) -> None:
    registry.load_all()
    shelf = shelf_with(tmp_path, subjects=LUCK_PACK, dog=LUCK_CATEGORIES)
    session = Session(store, config, "", clock, deck_options=shelf.options_for)
    seat_up(session, "luck-of-the-draw")
    session.start(HOST)
    match = session.match
    assert match is not None
    assert {"subjects", "categories"} <= set(match.record.options)
    session.press("die")
    session.press("hourglass")
    for seat in range(4):
        session.act(seat, "stroke", {"points": [[100, 100, 0], [300, 120, 40]]})
    assert session.match is not None
    deadline = luck_of_the_draw.RULES.deadline(session.match.state)
    assert deadline is not None
    before = session.match.state
    subject = luck_of_the_draw.subject_of(before)
    assert subject is not None and subject.cs.split()[0] in ("tvor", "věcička", "večírek")
    for name in ("subjects.toml", "dog.toml"):
        shelf.delete(name)
    again = Session(store, config, "", clock, deck_options=shelf.options_for)
    assert again.match is not None and again.match.state == before
    logged = [a.action for a in store.actions(match.record.id)]
    rebuilt = replay(luck_of_the_draw.RULES, match.record.seats, match.record.options,
                     match.record.seed, [*logged, time_up(deadline)])
    assert rebuilt.phase in ("categories", "voting")


def test_a_luck_of_the_draw_gallery_names_the_pack_subject(
    store: Store, clock: FakeClock
) -> None:
    registry.load_all()
    subjects = [[[f"critter {n}", "tvor"], [f"gadget {n}", "věc"], [f"party {n}", "večírek"]]
                for n in range(10)]
    options = {"subjects": subjects}
    match_id = store.begin_match("luck-of-the-draw", SEATS, options, 3, clock.now)
    actions = [Action("press_die", TABLE, {}, 1.0), Action("press_hourglass", TABLE, {}, 2.0)]
    actions += [Action("stroke", s, {"points": [[100, 100, 0], [300, 120, 40]]}, 3.0)
                for s in range(4)]
    for i, action in enumerate(actions):
        store.append_action(match_id, i, None, action)
    record = store.match(match_id)
    assert record is not None
    shown = gallery.build_gallery(record, store.actions(match_id))
    assert shown.drawings and all(
        d.word is not None and d.word["en"].split()[0] in ("critter", "gadget", "party")
        for d in shown.drawings
    )
