"""Text on the phone pages reads on its card (issue 19: Broad Lines' hint was yellow italic
on white, 1.6:1): every text colour a game's stylesheet gives as a literal, and every
colour variable it defines for text, reaches WCAG AA (4.5:1) on the card of the scheme it
is declared for (light, or dark under prefers-color-scheme: dark)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

STATIC = REPO / "appliance" / "web" / "static"
AA = 4.5


def luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def split_schemes(css: str) -> tuple[str, str]:
    """(the light rules, the rules inside `@media (prefers-color-scheme: dark) {...}`)."""
    dark, light, i = [], [], 0
    for m in re.finditer(r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{", css):
        light.append(css[i : m.start()])
        depth, j = 1, m.end()
        while depth and j < len(css):
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        dark.append(css[m.end() : j])
        i = j
    light.append(css[i:])
    return "".join(light), "".join(dark)


def card_colours() -> tuple[str, str]:
    light, dark = split_schemes((STATIC / "style.css").read_text())
    found = [re.search(r"--card:\s*(#[0-9a-fA-F]{3,6})", css) for css in (light, dark)]
    assert found[0] is not None and found[1] is not None, "style.css has no --card colours"
    return found[0].group(1), found[1].group(1)


def text_colours(css: str) -> list[str]:
    """Literal text colours (`color: #...`) and text colour variables (`--x-gold: #...`
    and the like, not backgrounds) in `css`."""
    literal = re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b", css)
    variables = re.findall(r"--bl-[\w-]+:\s*(#[0-9a-fA-F]{6})", css)
    return literal + variables


# Broad Lines colours its texts itself; the other games put white on coloured chips, which
# this plain check cannot pair with their ground.
@pytest.mark.parametrize("sheet", ["broad_lines.css"])
def test_text_colours_reach_aa_on_their_card(sheet: str) -> None:
    light_card, dark_card = card_colours()
    light, dark = split_schemes((STATIC / sheet).read_text())
    poor = [
        f"{colour} on {card}: {contrast(colour, card):.1f}:1"
        for rules, card in ((light, light_card), (dark, dark_card))
        for colour in text_colours(rules)
        if contrast(colour, card) < AA
    ]
    assert text_colours(light), "no text colour found: the check reads nothing"
    assert not poor, f"{sheet}: text under {AA}:1 — " + "; ".join(poor)


def test_the_check_can_fail() -> None:
    assert contrast("#ffc72c", "#ffffff") < AA  # the old hint on white
    assert contrast("#8a5a00", "#ffffff") >= AA
    light, dark = split_schemes("a { color: #111; } @media (prefers-color-scheme: dark) "
                                "{ a { color: #eee; } } b { color: #222; }")
    assert text_colours(light) == ["#111", "#222"] and text_colours(dark) == ["#eee"]
