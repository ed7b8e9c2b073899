"""Word packs: the file format's checks (every problem named with its line and entry) for
all three games that take them, adding to and replacing a deck, the shelf on disk, and
ArtBox dealing from a pack (Broad Lines and Luck of the Draw: tests/test_packs_games.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from appliance.table.packs import BadPackName, NoSuchPack, PackShelf
from games import artbox
from games.artbox_words import WORDS
from games.core import BadOptions, SeatInfo
from games.packs import PackError, Text, combine, parse_pack

KITCHEN = """\
# Our kitchen
game = "artbox"
title = "Kitchen"
mode = "add"
words = [
  ["fridge", "lednička"],
  "kettle",
  ["frying pan", "pánev"],
]
"""


def test_a_good_pack_is_read() -> None:
    pack = parse_pack("kitchen.toml", KITCHEN)
    assert (pack.game, pack.title, pack.mode, pack.size()) == ("artbox", "Kitchen", "add", 3)
    assert pack.decks["words"] == (
        (Text("fridge", "lednička"),), (Text("kettle", "kettle"),), (Text("frying pan", "pánev"),)
    )


def test_every_bad_entry_is_named_with_its_line() -> None:
    text = """\
game = "artbox"
words = [
  "apple",
  ["pear"],
  "<b>bold</b>",
  "",
  "an extraordinarily long word for a card",
  "Apple",
  42,
]
"""
    with pytest.raises(PackError) as err:
        parse_pack("fruit.toml", text)
    problems = [str(p) for p in err.value.problems]
    assert problems == [
        'fruit.toml, line 4, words entry 2: an entry is "text" (both languages) or '
        '["English", "Czech"]',
        "fruit.toml, line 5, words entry 3: '<b>bold</b>': use letters, digits, spaces and "
        "- ' . , ! ? & ( ) only",
        "fruit.toml, words entry 4: the English text is empty",
        "fruit.toml, line 7, words entry 5: an extraordinarily long … has 39 characters; at "
        "most 24",
        "fruit.toml, line 8, words entry 6: 'Apple' is already words entry 1",
        'fruit.toml, words entry 7: an entry is "text" (both languages) or ["English", "Czech"]',
    ]
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ('game = "duplik"\nwords = ["a"]\n', "line 1: game = 'duplik' is not a game with word"),
        ('words = ["a"]\n', "the pack needs a line game = ..."),
        ('game = "artbox"\nmode = "swap"\nwords = ["a"]\n', "line 2: mode = 'swap'"),
        ('game = "artbox"\nwords = ["a"\n', "not valid TOML"),
        ('game = "artbox"\nwordz = ["a"]\n', "line 2: unknown key 'wordz'"),
        ('game = "artbox"\n', "the pack has no entries"),
        ('game = "artbox"\nmode = "replace"\nwords = ["a", "b"]\n',
         "line 3: words has 2 entries; to replace the built-in deck a pack needs at least 24"),
        ('game = "broad-lines"\ncards = [["a", "b"]]\n',
         "line 2, card 1: it has 2 words; a card has 6, numbered 1-6 in order"),
    ],
)
def test_file_level_problems(text: str, wanted: str) -> None:
    with pytest.raises(PackError, match=wanted.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        parse_pack("p.toml", text)


def test_bytes_that_are_not_utf8_or_too_big() -> None:
    with pytest.raises(PackError, match="not UTF-8"):
        parse_pack("p.toml", b'game = "artbox"\nwords = ["\xff"]\n')
    with pytest.raises(PackError, match="at most 262144"):
        parse_pack("p.toml", b"#" * 300_000)


def test_cards_of_several_entries() -> None:
    pack = parse_pack(
        "bl.toml",
        'game = "broad-lines"\ncards = [["cup", "cat", "apple", "house", "king", "shadow"]]\n',
    )
    assert len(pack.decks["cards"]) == 1 and len(pack.decks["cards"][0]) == 6


def test_add_keeps_the_built_in_deck_and_replace_drops_it() -> None:
    built_in = ((Text("house", "dům"),), (Text("cat", "kočka"),))
    add = parse_pack("a.toml", 'game = "artbox"\nwords = ["Cat", "fridge"]\n')
    cards, used = combine(built_in, [add], "words")
    assert [c[0].en for c in cards] == ["house", "cat", "fridge"] and used == ("a.toml",)
    words = ", ".join(f'"w{i}"' for i in range(24))
    replace = parse_pack("r.toml", f'game = "artbox"\nmode = "replace"\nwords = [{words}]\n')
    cards, used = combine(built_in, [add, replace], "words")
    assert len(cards) == 24 and used == ("r.toml",)


def test_the_shelf_saves_checks_and_deletes(tmp_path: Path) -> None:
    system = tmp_path / "etc"
    system.mkdir()
    (system / "broken.toml").write_text('game = "artbox"\nwords = [1]\n')
    shelf = PackShelf(tmp_path / "packs", extra_dirs=(system,))
    assert shelf.options_for("artbox") == {}
    shelf.save("kitchen.toml", KITCHEN.encode())
    listed = {f["file"]: f for f in (p.to_json() for p in shelf.files())}
    assert listed["kitchen.toml"]["ok"] and listed["kitchen.toml"]["entries"] == 3
    assert not listed["broken.toml"]["ok"] and "words entry 1" in listed["broken.toml"][
        "problems"][0]
    words = shelf.options_for("artbox")["words"]
    # "fridge" is a built-in card already: a word is dealt from one card only.
    assert len(words) == len(WORDS) + 2 and words[-2:] == [["kettle", "kettle"],
                                                           ["frying pan", "pánev"]]
    assert shelf.options_for("duplik") == {}
    with pytest.raises(PackError):
        shelf.save("bad.toml", b'game = "artbox"\nwords = [""]\n')
    assert not (tmp_path / "packs" / "bad.toml").exists()
    for name in ("../evil.toml", "x.txt", ".hidden.toml", "a/b.toml"):
        with pytest.raises(BadPackName):
            shelf.save(name, KITCHEN.encode())
    shelf.delete("kitchen.toml")
    with pytest.raises(NoSuchPack):
        shelf.delete("kitchen.toml")
    with pytest.raises(NoSuchPack):
        shelf.delete("broken.toml")  # /etc/easel/packs is read-only for the box


SEATS = tuple(SeatInfo(i, f"P{i}", "#000000") for i in range(4))


def test_artbox_deals_from_the_words_option_and_replays() -> None:
    deck = [[f"thing {i}", f"věc {i}"] for i in range(30)]
    state = artbox.RULES.setup(SEATS, {"words": deck}, 7)
    mine = artbox.RULES.view(state, 0)["my_cards"]
    assert all(card["en"].startswith("thing ") for card in mine)
    assert artbox.RULES.from_json(artbox.RULES.to_json(state)) == state
    plain = artbox.RULES.setup(SEATS, {}, 7)
    assert "custom_words" not in artbox.RULES.to_json(plain)
    assert artbox.RULES.from_json(artbox.RULES.to_json(plain)) == plain
    secrets = artbox.RULES.secrets(state)
    assert all(text.startswith('"thing ') for text in secrets[0])


@pytest.mark.parametrize("bad", [[["a", "b"]] * 3, "words", [["a"]] * 30, [["a", ""]] * 30])
def test_artbox_refuses_a_bad_words_option(bad: object) -> None:
    with pytest.raises(BadOptions, match="words is a list of 24"):
        artbox.RULES.setup(SEATS, {"words": bad}, 7)


# -- Broad Lines and Luck of the Draw: cards of several entries --------------------------

OUR_CARDS = """\
game = "broad-lines"
title = "Our cards"
cards = [
  # a card: six entries, numbered 1-6 in order; each "text" or ["English", "Czech"]
  [["kettle", "konvice"], ["hamster", "křeček"], ["plum", "švestka"],
   ["lighthouse", "maják"], ["juggler", "žonglér"], ["rainbow", "duha"]],
  ["robot", "pizza", ["tram", "tramvaj"], ["fog", "mlha"], ["ladder", "žebřík"],
   ["snowman", "sněhulák"]],
]
"""


def test_a_broad_lines_pack_in_english_and_czech() -> None:
    pack = parse_pack("ours.toml", OUR_CARDS)
    first, second = pack.decks["cards"]
    assert first[0] == Text("kettle", "konvice") and first[5] == Text("rainbow", "duha")
    assert second[:3] == (Text("robot", "robot"), Text("pizza", "pizza"), Text("tram", "tramvaj"))
    assert (pack.game, pack.mode, pack.size()) == ("broad-lines", "add", 2)


def test_every_bad_broad_lines_card_is_named() -> None:
    text = """\
game = "broad-lines"
cards = [
  ["cup", "cat", "apple", "house", "king", "shadow"],
  ["sock", "owl", "pear", "barn", "nurse"],
  "kite",
  ["mop", ["goat"], "plum", "tent", "judge", "moon"],
  ["lamp", "Cat", "fig", "hut", "cook", "star"],
  ["bed", "fox", ["nut", ""], "mill", "maid", "a very long word for a card"],
  [],
]
"""
    with pytest.raises(PackError) as err:
        parse_pack("bl.toml", text)
    assert [str(p) for p in err.value.problems] == [
        "bl.toml, line 4, card 2: it has 5 words; a card has 6, numbered 1-6 in order",
        'bl.toml, line 5, card 3: a card is a list of 6 words, numbered 1-6 in order, each '
        '"text" (both languages) or ["English", "Czech"]',
        'bl.toml, line 6, card 4, word 2: an entry is "text" (both languages) or '
        '["English", "Czech"]',
        "bl.toml, line 7, card 5, word 2: 'Cat' is already card 1, word 2",
        "bl.toml, line 8, card 6, word 3: the Czech text is empty",
        "bl.toml, line 8, card 6, word 6: a very long word for a c… has 27 characters; at "
        "most 24",
        "bl.toml, card 7: it has 0 words; a card has 6, numbered 1-6 in order",
    ]


def test_a_luck_of_the_draw_pack_fills_either_box() -> None:
    text = """\
game = "luck-of-the-draw"
mode = "add"
subjects = [
  # 1 a creature or food, 2 a thing or person, 3 a scene: the die's numbers
  [["hamster", "křeček"], ["grandma", "babička"], ["a picnic in the rain", "piknik v dešti"]],
]
categories = [
  ["Most likely to be our dog", "Nejspíš náš pes"],
  "Pizza!",
]
"""
    pack = parse_pack("ours.toml", text)
    (card,) = pack.decks["subjects"]
    assert [t.cs for t in card] == ["křeček", "babička", "piknik v dešti"]
    assert pack.decks["categories"] == (
        (Text("Most likely to be our dog", "Nejspíš náš pes"),), (Text("Pizza!", "Pizza!"),)
    )
    only_categories = parse_pack("c.toml", 'game = "luck-of-the-draw"\ncategories = ["Best"]\n')
    assert list(only_categories.decks) == ["categories"]


def test_every_bad_luck_of_the_draw_entry_is_named() -> None:
    text = """\
game = "luck-of-the-draw"
mode = "replace"
subjects = [
  ["owl", "tram", "a day at the zoo"],
  [["cat", "kočka"], ["bus", "autobus"]],
  ["fox", "OWL", "a snowball fight"],
]
categories = [
  "Funniest",
  ["Funniest", "Nejvtipnější"],
  ["Looks most like a potato on a sunny Sunday", "Brambora"],
]
"""
    with pytest.raises(PackError) as err:
        parse_pack("luck.toml", text)
    assert [str(p) for p in err.value.problems] == [
        "luck.toml, line 5, subject card 2: it has 2 subjects; a subject card has 3, one "
        "for each number on the die (1, 2, 3) in order",
        "luck.toml, line 6, subject card 3, subject 2: 'OWL' is already subject card 1, "
        "subject 1",
        "luck.toml, line 10, categories entry 2: 'Funniest' is already categories entry 1",
        "luck.toml, line 11, categories entry 3: Looks most like a potato on a sunny Sund… has 42 "
        "characters; at most 40",
        'luck.toml, line 3: subjects has 3 cards; to replace the built-in deck a pack needs '
        'at least 10 (or use mode = "add")',
        'luck.toml, line 8: categories has 3 entries; to replace the built-in deck a pack '
        'needs at least 30 (or use mode = "add")',
    ]


def test_the_built_in_decks_fit_the_pack_format() -> None:
    """Everything on the box's own cards can be written as a pack (a table copying the
    built-in deck to edit it gets a file that checks out), and the limits agree with
    what the rules accept."""
    from games import broad_lines, luck_of_the_draw
    from games.broad_lines_words import CARDS, WORDS_PER_CARD
    from games.luck_of_the_draw_cards import CATEGORY_CARDS, SUBJECT_CARDS, SUBJECTS_PER_CARD
    from games.packs import deck_shapes

    def pair(t: Any) -> str:
        return json.dumps([t.en, t.cs], ensure_ascii=False)

    cards = ",\n".join("[" + ", ".join(pair(w) for w in card) + "]" for card in CARDS)
    pack = parse_pack("bl.toml", f'game = "broad-lines"\nmode = "replace"\ncards = [\n{cards}\n]\n')
    assert pack.decks["cards"] == tuple(tuple(Text(w.en, w.cs) for w in c) for c in CARDS)
    subjects = ",\n".join(
        "[" + ", ".join(pair(t) for t in card.subjects) + "]" for card in SUBJECT_CARDS
    )
    categories = ",\n".join(pair(t) for t in CATEGORY_CARDS)
    pack = parse_pack("luck.toml", f'game = "luck-of-the-draw"\nmode = "replace"\n'
                      f"subjects = [\n{subjects}\n]\ncategories = [\n{categories}\n]\n")
    assert len(pack.decks["subjects"]) == len(SUBJECT_CARDS)
    assert len(pack.decks["categories"]) == len(CATEGORY_CARDS)
    shapes = {s.key: s for decks in deck_shapes().values() for s in decks}
    assert (shapes["cards"].per_card, shapes["cards"].minimum) == (
        WORDS_PER_CARD, broad_lines.MIN_CARDS)
    assert (shapes["subjects"].per_card, shapes["subjects"].minimum) == (
        SUBJECTS_PER_CARD, luck_of_the_draw.MIN_SUBJECT_CARDS)
    assert shapes["categories"].minimum == luck_of_the_draw.MIN_CATEGORY_CARDS
    assert shapes["words"].minimum == artbox.MIN_DECK


def test_the_examples_in_the_docs_check_out() -> None:
    from tests.conftest import REPO

    text = (REPO / "docs" / "packs.md").read_text()
    examples = re.findall(r"```toml\n(.*?)```", text, re.S)
    games = {parse_pack(f"example-{n}.toml", toml).game for n, toml in enumerate(examples)}
    assert games == {"artbox", "broad-lines", "luck-of-the-draw"}


def _big_artbox_pack(n: int) -> bytes:
    words = ", ".join(f'"pack{n}word{k}"' for k in range(2000))
    return f'game = "artbox"\ntitle = "Big {n}"\nwords = [{words}]\n'.encode()


def test_packs_that_together_pass_a_games_limit_are_refused_at_upload(
    tmp_path: Path,
) -> None:
    shelf = PackShelf(tmp_path / "packs", extra_dirs=())
    shelf.save("big1.toml", _big_artbox_pack(1))
    shelf.save("big2.toml", _big_artbox_pack(2))
    with pytest.raises(PackError) as refused:
        shelf.save("big3.toml", _big_artbox_pack(3))
    reason = str(refused.value.problems[0])
    assert "5000" in reason and "big1.toml" in reason and "big2.toml" in reason, reason
    assert not (tmp_path / "packs" / "big3.toml").exists()
    shelf.save("big2.toml", _big_artbox_pack(2))  # replacing itself is no growth
    # One dropped in by hand past the limit: the game still starts, with the first 5000.
    (tmp_path / "packs" / "big3.toml").write_bytes(_big_artbox_pack(3))
    words = shelf.options_for("artbox")["words"]
    assert len(words) == 5000
    artbox.RULES.setup(SEATS, {"words": words}, 7)


def test_unchanged_packs_are_never_checked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "packs"
    folder.mkdir()
    for n in range(70):  # more than the 64 the shelf once kept
        (folder / f"p{n:02d}.toml").write_text(KITCHEN)
    shelf = PackShelf(folder, extra_dirs=())
    assert len(shelf.files()) == 70
    checks: list[str] = []
    real = parse_pack

    def counted(name: str, data: str | bytes) -> Any:
        checks.append(name)
        return real(name, data)

    monkeypatch.setattr("appliance.table.packs.rules_packs.parse_pack", counted)
    for _ in range(3):  # three answers of the host page
        assert all(f.pack is not None for f in shelf.files())
    assert checks == []
    (folder / "p07.toml").write_text(KITCHEN.replace("Kitchen", "Kitchen two"))
    assert [f.pack.title for f in shelf.files() if f.pack][7] == "Kitchen two"
    assert checks == ["p07.toml"]
