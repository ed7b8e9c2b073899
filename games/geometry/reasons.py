"""The reasons a verdict gives, in English and Czech, and the base of every verdict.

A verdict carries a `reason_key` and its `params` (JSON values); `reason_text` turns
them into a sentence in a language, with Czech counts that agree with their numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

JSON = Any
"""A value made of dict, list, str, int, float, bool and None."""

Params = Mapping[str, int | float | str | tuple[str, ...]]
"""What fills in a reason: counts, measurements, shape names (tuples become lists in JSON)."""


def no_params() -> dict[str, int | float | str | tuple[str, ...]]:
    return {}


@dataclass(frozen=True)
class Reasoned:
    """A verdict's why: a key into REASONS and the values that fill it in."""

    reason_key: str
    params: Params = field(default_factory=no_params, hash=False)

    @property
    def reason(self) -> str:
        """The reason in English."""
        return reason_text(self.reason_key, self.params, "en")

    def reason_in(self, lang: str) -> str:
        """The reason in `lang` ("en" or "cs"; anything else gives English)."""
        return reason_text(self.reason_key, self.params, lang)

    def _reason_json(self) -> dict[str, JSON]:
        return {
            "reason_key": self.reason_key,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
            "reason": self.reason,
        }


REASONS: Final[Mapping[str, tuple[str, str]]] = {
    "sheet.empty": ("Nothing is drawn on this sheet yet.", "Na fólii zatím nic není."),
    "sheet.lines": (
        "{found}: allowed (up to 2 straight lines).",
        "{found}: smí se (nejvýš 2 rovné čáry).",
    ),
    "sheet.curve": ("1 curve: allowed.", "1 křivka: smí se."),
    "sheet.too_many": (
        "2 straight lines or 1 curve — this sheet has {found}.",
        "2 rovné čáry nebo 1 křivka — na této fólii {verb} {found}.",
    ),
    "sheet.dot": (
        "A dot is neither a straight line nor a curve.",
        "Tečka není rovná čára ani křivka.",
    ),
    "sheet.crosses_itself": ("This curve crosses itself.", "Tato křivka kříží sama sebe."),
    "sheet.changes_bend": ("This curve changes its bend.", "Tato křivka mění směr ohybu."),
    "sheet.corners": (
        "A curve bends without corners; this one turns at {points} corners.",
        "Křivka se ohýbá bez rohů; tato se lomí v rozích (počet: {points}).",
    ),
    "sheet.points": (
        "A closed curve must be a circle or an oval; this one has {points} sharp points.",
        "Uzavřená křivka smí být jen kruh nebo ovál; tato má ostré hroty (počet: {points}).",
    ),
    "sheet.too_long": (
        "A stroke of more than {max} points is too long to judge; the table decides.",
        "Tah o více než {max} bodech je na posouzení příliš dlouhý; rozhodnou hráči u stolu.",
    ),
    "sheet.tangled": (
        "Too tangled to judge; the table decides.",
        "Příliš zamotané na posouzení; rozhodnou hráči u stolu.",
    ),
    "shape.circle": (
        "A circle (an ellipse or an oval counts).",
        "Kruh (platí i elipsa nebo ovál).",
    ),
    "shape.square": ("A square (a rectangle counts).", "Čtverec (platí i obdélník)."),
    "shape.triangle": ("A triangle.", "Trojúhelník."),
    "shape.line": ("A straight line.", "Rovná čára."),
    "shape.line_of_several": (
        "A straight line, one of {count} drawn in one go.",
        "Rovná čára, jedna z {count} nakreslených jedním tahem.",
    ),
    "shape.joined": (
        "{Shape}, drawn in {count} strokes whose ends meet.",
        "{Shape}, nakreslený {count} tahy, jejichž konce se potkávají.",
    ),
    "not.dot": (
        "Too small: a dot is not a circle.",
        "Příliš malé: tečka není kruh.",
    ),
    "not.crosses_itself": (
        "It crosses itself, so it is none of the shapes.",
        "Kříží sama sebe, takže to není žádný z tvarů.",
    ),
    "not.open_curve": (
        "An open curve is none of the shapes.",
        "Otevřená křivka není žádný z tvarů.",
    ),
    "not.mixed": (
        "Straight and curved parts together are none of the shapes.",
        "Rovné a zakřivené části dohromady nejsou žádný z tvarů.",
    ),
    "not.corners": (
        "A closed figure with {corners} corners is none of the shapes.",
        "Uzavřený obrazec, počet rohů: {corners}; to není žádný z tvarů.",
    ),
    "not.drawn_over": (
        "Drawn over the outline of a {shape}, so it adds no shape of its own.",
        "Nakresleno přes obrys jiného tvaru ({shape}), takže nepřidává žádný vlastní tvar.",
    ),
    "not.changes_bend": (
        "Not a circle: its bend reverses (a dent or a notch).",
        "Není to kruh: jeho ohyb mění směr (promáčklina nebo zářez).",
    ),
    "not.rectangle": (
        "Four sides, but the corners are far from right angles.",
        "Čtyři strany, ale rohy mají daleko k pravým úhlům.",
    ),
    "not.diamond": (
        "A diamond: a square stands on a side, with right angles.",
        "Kosočtverec: čtverec stojí na straně a má pravé úhly.",
    ),
    "not.round": (
        "A closed curve, but not round enough for a circle or an oval.",
        "Uzavřená křivka, ale na kruh nebo ovál není dost kulatá.",
    ),
    "not.too_long": (
        "A stroke of more than {max} points is too long to judge.",
        "Tah o více než {max} bodech je na posouzení příliš dlouhý.",
    ),
    "not.tangled": (
        "Too tangled to judge.",
        "Příliš zamotané na posouzení.",
    ),
    "drawing.unjudged": (
        "Too tangled or too long to judge; the table decides.",
        "Příliš zamotané nebo dlouhé na posouzení; rozhodnou hráči u stolu.",
    ),
    "drawing.crowded": (
        "Too many strokes on top of each other to judge; the table decides.",
        "Příliš mnoho tahů přes sebe na posouzení; rozhodnou hráči u stolu.",
    ),
    "drawing.ok": (
        "Exactly the rolled shapes: {found}.",
        "Přesně hozené tvary: {found}.",
    ),
    "drawing.empty": ("Nothing is drawn yet.", "Zatím nic není nakresleno."),
    "drawing.unrecognised": (
        "Parts of the drawing that are none of the shapes: {count}.",
        "Části kresby, které nejsou žádným z tvarů: {count}.",
    ),
    "drawing.diamond": (
        "A diamond is no square: a square stands on a side.",
        "Kosočtverec není čtverec: čtverec stojí na straně.",
    ),
    "drawing.count": (
        "Exactly 4 shapes are needed; this drawing has {count}: {found}.",
        "Tvary musí být přesně 4; tato kresba má {count}: {found}.",
    ),
    "drawing.stray": (
        "The rolled shapes are there ({found}), and small marks beside them: {count}. "
        "A dot or a tick is not a shape; the table decides.",
        "Hozené tvary tu jsou ({found}) a vedle nich drobné značky: {count}. "
        "Tečka ani čárka není tvar; rozhodnou hráči u stolu.",
    ),
    "drawing.not_rolled": (
        "Not the rolled shapes: {missing} missing, {extra} instead.",
        "Nejsou to hozené tvary: chybí {missing}, navíc je {extra}.",
    ),
}


_SHAPE_NAMES: Final[Mapping[str, tuple[str, str]]] = {
    "circle": ("circle", "kruh"),
    "square": ("square", "čtverec"),
    "triangle": ("triangle", "trojúhelník"),
    "line": ("line", "čára"),
}


_NOUNS: Final[Mapping[str, tuple[tuple[str, str], tuple[str, str, str]]]] = {
    "line": (("line", "lines"), ("čára", "čáry", "čar")),
    "curve": (("curve", "curves"), ("křivka", "křivky", "křivek")),
    "dot": (("dot", "dots"), ("tečka", "tečky", "teček")),
}


def _counted(lang: str, noun: str, count: int) -> str:
    english, czech = _NOUNS[noun]
    if lang == "cs":
        form = czech[0] if count == 1 else czech[1] if 2 <= count <= 4 else czech[2]
        return f"{count} {form}"
    return f"{count} {english[0] if count == 1 else english[1]}"


def _found_phrase(lang: str, lines: int, curves: int, dots: int) -> str:
    parts = [
        _counted(lang, noun, n)
        for noun, n in (("line", lines), ("curve", curves), ("dot", dots))
        if n
    ]
    if not parts:
        return "nic" if lang == "cs" else "nothing"
    joiner = " a " if lang == "cs" else " and "
    return ", ".join(parts[:-1]) + joiner + parts[-1] if len(parts) > 1 else parts[0]


def _shape_list(lang: str, names: Sequence[str]) -> str:
    index = 1 if lang == "cs" else 0
    words = [_SHAPE_NAMES[n][index] if n in _SHAPE_NAMES else n for n in names]
    return ", ".join(words) if words else ("nic" if lang == "cs" else "none")


def reason_text(key: str, params: Params, lang: str = "en") -> str:
    """The sentence for `key` in `lang` ("en" or "cs"), with `params` filled in."""
    index = 1 if lang == "cs" else 0
    template = REASONS[key][index]
    values: dict[str, object] = dict(params)
    if key.startswith("sheet."):
        counts = [params.get(name, 0) for name in ("lines", "curves", "dots")]
        lines, curves, dots = (c if isinstance(c, int) else 0 for c in counts)
        values["found"] = _found_phrase(lang, lines, curves, dots)
        # Czech: "je 1 čára", "jsou 3 čáry", "je 5 čar", "jsou 1 čára a 1 křivka".
        nonzero = [c for c in (lines, curves, dots) if c]
        plural = len(nonzero) > 1 or (len(nonzero) == 1 and 2 <= nonzero[0] <= 4)
        values["verb"] = "jsou" if plural else "je"
    for name in ("found", "missing", "extra"):
        raw = params.get(name)
        if isinstance(raw, tuple):
            values[name] = _shape_list(lang, raw)
    shape = params.get("shape")
    if isinstance(shape, str):
        word = _SHAPE_NAMES[shape][index]
        values["shape"] = word
        values["Shape"] = word[:1].upper() + word[1:]
    return template.format(**values)
