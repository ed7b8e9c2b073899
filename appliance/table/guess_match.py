"""The box's word-form opinion of a typed guess (games/word_forms.py's WORD_FORMS).

A game that wants it (Broad Lines, whose rules count a word as guessed "even if the Art
Critic did not name it exactly, for example by using a different grammatical number,
gender or form (diminutive, pejorative or augmentative)") is given this opinion: "match"
(the word, maybe in another form), "close" (a shared stem or a typo: the players look
twice) or "no".

How: both texts are folded (case, diacritics, hyphens), cut into words, and each word is
turned into a few keys: its Snowball stem (English and Czech stemmers, from the pure
Python `snowballstemmer` package), the stem without a diminutive, feminine or
augmentative suffix, and the stem with a Czech alternation undone (dům/domy, pták/
ptáček, kniha/knize). Two words are the same when their keys meet; a guess matches when
its words are the card word's words, in either language.

This lives in the appliance, not in games/, because games/ is standard library only
(tests/test_layering.py). The rules take the matcher as an argument; `register` gives it
to every registered game whose house wants WORD_FORMS, so the opinion is still computed
where the guess is applied (never sent by a phone, which could forge it) and is logged in
the state like everything else.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final

from games import registry
from games.word_forms import WORD_FORMS, Opinion, Worded, fold


@lru_cache(maxsize=2)
def _stemmer(lang: str) -> Any:
    """The Snowball stemmer, loaded at the first guess (3 MB the box does not need until
    someone plays a game that wants it)."""
    import snowballstemmer

    return snowballstemmer.stemmer({"en": "english", "cs": "czech"}[lang])

_ENGLISH_IRREGULAR: Final = {
    "mice": "mouse", "geese": "goose", "teeth": "tooth", "feet": "foot", "men": "man",
    "women": "woman", "children": "child", "oxen": "ox", "people": "person",
    "dice": "die", "fishes": "fish", "knives": "knife", "wives": "wife",
    # Latin plurals
    "octopi": "octopus", "cacti": "cactus", "fungi": "fungus", "radii": "radius",
    # Diminutives no rule finds: a doubled consonant and -y is as often an adjective
    # (catty, sunny, funny) as a pet name, so only these pet names count.
    "kitten": "cat", "kittens": "cat", "kitty": "cat", "kitties": "cat",
    "doggy": "dog", "doggie": "dog", "doggies": "dog", "puppy": "dog", "puppies": "dog",
    "piggy": "pig", "piggie": "pig", "froggy": "frog", "horsey": "horse",
    "bunny": "rabbit", "bunnies": "rabbit", "birdie": "bird", "ducky": "duck",
}
_ARTICLES: Final = frozenset({"a", "an", "the"})
"""English articles: "a cat" and "the cats" are the cat (Czech has none)."""
# Suffixes cut from a (folded) stem, longest first: English gender and diminutives,
# Czech diminutives (-eček, -íček, -inka, -átko, -ka), feminines (-ovna, -ice) and
# augmentatives (-isko). A cut must leave 3 letters.
_SUFFIXES: Final = {
    "en": ("tress", "ess", "ette", "ling", "let", "ie", "i"),
    "cs": ("eck", "ick", "ink", "atk", "isk", "ic", "ik", "k"),
}
_HISS_ES: Final = ("ses", "xes", "zes", "ches", "shes")
MIN_STEM: Final = {"en": 3, "cs": 2}  # Czech: lev/lvice, pes/psisko


def _bare(text: str) -> str:
    """Czech ů is an o that lengthened (dům, domy): fold it to o before the diacritics."""
    return fold(text.replace("ů", "o").replace("Ů", "O"))


def _words(text: str) -> list[str]:
    return [w for w in "".join(c if c.isalnum() else " " for c in text).split() if w]


@lru_cache(maxsize=4096)
def keys(word: str, lang: str) -> frozenset[str]:
    """The forms under which `word` (one word, as typed) is the same word in `lang`."""
    stemmer = _stemmer(lang)
    raw = unicodedata.normalize("NFC", word.casefold())
    variants = {raw, _bare(raw)}
    if lang == "en":
        variants |= {_ENGLISH_IRREGULAR.get(v, v) for v in set(variants)}
        variants |= {v[:-3] + "f" for v in variants if v.endswith("ves")}
        # buses, boxes, churches: the stemmer keeps the e of -es after a hiss.
        variants |= {v[:-2] for v in variants if v.endswith(_HISS_ES) and len(v) > 4}
        # actress -> actor, waitress -> waiter: the feminine of an -or or -er.
        variants |= {v[:-5] + end for v in variants if v.endswith("tress")
                     for end in ("tor", "ter")}
    else:
        bare = _bare(raw)
        if len(raw) <= 4 and raw[-1:] in "aeiouyáéíóúý":
            # A short word's case ending: psa, psi (pes), lva (lev); the stemmer keeps it.
            variants.add(bare[:-1])
        if bare.endswith("ce") and len(bare) >= 5:
            # A neuter in -ce loses it in its diminutive: slunce/sluníčko, srdce/srdíčko.
            variants.add(bare[:-2])
    found: set[str] = set()
    for variant in variants:
        stem = _bare(stemmer.stemWord(variant))
        shortened = _shortened(stem, lang)
        if lang == "en" and variant.endswith("ing") and not stem.endswith("ing"):
            # An activity is not its thing: fishing is not fish, though they share a stem.
            shortened = {f"{s}+ing" for s in shortened}
        found |= shortened
    return frozenset(found)


def _shortened(stem: str, lang: str) -> set[str]:
    least = MIN_STEM[lang]
    out = {stem}
    if lang == "en" and len(stem) > least and stem[-1] == stem[-2]:
        # giraffe/girafe: a doubled last consonant is the same word (not after a cut:
        # catty and sunny are adjectives; the pet names are listed above).
        out.add(stem[:-1])
    cuts: set[str] = set()
    for _ in range(2):  # a diminutive of a feminine: králíček, kotátko...
        for s in list(out):
            for suffix in _SUFFIXES[lang]:
                if s.endswith(suffix) and len(s) - len(suffix) >= least:
                    cut = s[: -len(suffix)]
                    if lang == "en" and suffix == "tress":
                        cut += "ter"  # waitress -> waiter
                    out.add(cut)
                    cuts.add(cut)
                    break
    if lang == "en":
        return out
    # A diminutive softens the consonant before it (pták/ptáček, kůň/koníček); cases
    # do so at the end (kniha/knize).
    out |= {s[:-1] + "k" for s in cuts if s.endswith("c")}
    out |= {s[:-1] + "h" for s in out if s.endswith("z")}
    # The j a diminutive puts in: pes/pejsek.
    out |= {s.replace("ej", "e") for s in out if "ej" in s}
    # The fleeting e of domek/domku, pes/psa, lev/lvice, and the ý a diminutive makes of
    # it (prsten/prstýnek): keys without it too.
    out |= {s[:-2] + s[-1] for s in out if len(s) >= 3 and s[-2] in "ey"}
    return {s for s in out if len(s) >= least}


def _same(a: str, b: str, lang: str) -> bool:
    return _bare(a) == _bare(b) or bool(keys(a, lang) & keys(b, lang))


def _near(a: str, b: str) -> bool:
    """A typo (one letter off, two in a long word) or one word's start being the other."""
    a, b = _bare(a), _bare(b)
    if min(len(a), len(b)) < 4:
        return False
    if a.startswith(b) or b.startswith(a):
        return True
    return _distance(a, b) <= (1 if max(len(a), len(b)) < 8 else 2)


def _distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _content(words: list[str], lang: str) -> list[str]:
    """The words that name the thing: English articles dropped (never all of them)."""
    if lang != "en":
        return words
    kept = [w for w in words if w.casefold() not in _ARTICLES]
    return kept or words


def is_form_of(guess: str, word: Worded) -> bool:
    """Is `guess` the card's `word`, in English or Czech, maybe in another form?"""
    if not _words(guess):
        return False
    if fold(guess) in (fold(word.en), fold(word.cs)):
        return True
    for lang, text in _languages(word):
        typed = _content(_words(guess), lang)
        words = _content(_words(text), lang)
        if len(typed) == len(words) and all(
            _same(g, w, lang) for g, w in zip(typed, words, strict=True)
        ):
            return True
    return False


def opinion(guess: str, word: Worded) -> Opinion:
    """The box's opinion of `guess` as the card's `word` (in English or in Czech)."""
    if is_form_of(guess, word):
        return "match"
    for lang, text in _languages(word):
        typed = _content(_words(guess), lang)
        if any(_same(g, w, lang) or _near(g, w) for g in typed
               for w in _content(_words(text), lang)):
            return "close"
    return "no"


def _languages(word: Worded) -> Iterable[tuple[str, str]]:
    return (("en", word.en), ("cs", word.cs))


def register() -> tuple[str, ...]:
    """Give this opinion to the registered games that want it: replaces the rules each
    registers by itself (which know only case and diacritics). Called by the wiring;
    returns the games given it."""
    return registry.provide(WORD_FORMS, opinion)
