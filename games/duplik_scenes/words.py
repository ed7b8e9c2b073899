"""Words for Duplik's scenes: a text in both languages, nouns with their Czech cases, counts.

Czech needs more than a plural: a noun after a numeral is nominative singular for 1
("jeden pták"), nominative plural for 2-4 ("tři ptáci") and genitive plural from 5 on
("pět ptáků"); the numerals 1 and 2 agree with the noun's gender ("dva psi", "dvě kočky",
"dvě kola", "jedna kočka", "jedno kolo"); a verb with a counted subject is singular for 1
and 5+ and plural for 2-4 ("je jeden", "jsou tři", "je pět"). Prepositions take their own
cases: "od/vedle" + genitive, "na/v" + locative, "nad/pod" + instrumental.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Gender = Literal["ma", "mi", "f", "n"]
"""Czech grammatical gender: masculine animate, masculine inanimate, feminine, neuter."""

Case = Literal["nom", "acc"]


class UnknownLanguage(ValueError):
    """A text was asked for in a language the scenes are not written in."""


LANGUAGES: Final = ("en", "cs")


@dataclass(frozen=True)
class Text:
    """One sentence or title in English and Czech."""

    en: str
    cs: str

    def in_(self, lang: str) -> str:
        if lang == "en":
            return self.en
        if lang == "cs":
            return self.cs
        raise UnknownLanguage(f"no text in {lang!r}; the scenes speak {', '.join(LANGUAGES)}")


@dataclass(frozen=True)
class Noun:
    """A noun in English (singular, plural) and Czech (the cases the sentences need)."""

    en: str
    en_pl: str
    nom: str
    gen: str
    acc: str
    loc: str
    ins: str
    nom_pl: str
    gen_pl: str
    gender: Gender

    @property
    def the(self) -> str:
        return f"the {self.en}"


def noun(en: str, en_pl: str, cs: str, gender: Gender) -> Noun:
    """`cs` is "nom/gen/acc/loc/ins/nom_pl/gen_pl", e.g. "pes/psa/psa/psovi/psem/psi/psů"."""
    forms = cs.split("/")
    if len(forms) != 7:
        raise ValueError(f"{en}: need 7 Czech forms, got {forms}")
    nom, gen, acc, loc, ins, nom_pl, gen_pl = forms
    return Noun(en, en_pl, nom, gen, acc, loc, ins, nom_pl, gen_pl, gender)


EN_NUMBERS: Final = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
)
_CS_ONE: Final[dict[Case, dict[Gender, str]]] = {
    "nom": {"ma": "jeden", "mi": "jeden", "f": "jedna", "n": "jedno"},
    "acc": {"ma": "jednoho", "mi": "jeden", "f": "jednu", "n": "jedno"},
}
_CS_NUMBERS: Final = {3: "tři", 4: "čtyři", 5: "pět", 6: "šest", 7: "sedm", 8: "osm",
                      9: "devět", 10: "deset"}


def en_count(n: int, word: Noun) -> str:
    """"three birds", "one bird"."""
    return f"{EN_NUMBERS[n]} {word.en if n == 1 else word.en_pl}"


def cs_count(n: int, word: Noun, case: Case = "nom") -> str:
    """"jeden pták", "dvě kočky", "tři ptáci", "pět ptáků"; `case` is the case of the phrase."""
    if not 1 <= n <= 10:
        raise ValueError(f"cannot count {n} in words")
    if n == 1:
        return f"{_CS_ONE[case][word.gender]} {word.nom if case == 'nom' else word.acc}"
    if n <= 4:
        if case == "acc" and word.gender == "ma":
            # "vidím dva psy" differs from "jsou dva psi"; no sentence here needs it.
            raise ValueError(f"no accusative plural stored for {word.nom}")
        numeral = ("dva" if word.gender in ("ma", "mi") else "dvě") if n == 2 else _CS_NUMBERS[n]
        return f"{numeral} {word.nom_pl}"
    return f"{_CS_NUMBERS[n]} {word.gen_pl}"


def cs_be(n: int) -> str:
    """The verb "to be" with a counted subject: "je jeden", "jsou tři", "je pět"."""
    return "jsou" if 2 <= n <= 4 else "je"


def en_be(n: int) -> str:
    return "is" if n == 1 else "are"


def cs_in(word: str) -> str:
    """The preposition "v" before a locative, vocalised to "ve" where Czech says so."""
    first = word[:1].lower()
    second = word[1:2].lower()
    vowels = "aáeéěiíoóuúůyý"
    if first in "vf" or (first in "sšzžřcčj" and second and second not in vowels):
        return f"ve {word}"
    return f"v {word}"


def cap(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]
