"""Everything the box says to people exists in Czech too."""

from __future__ import annotations

import ast

from appliance.table import messages
from tests.conftest import REPO

SPEAKERS = {"Refusal", "SessionError", "WrongRoom", "NotHost", "BadName", "BadColour",
            "NoSuchSeat", "NoSuchGame", "NotNow", "Refused", "NotSaved", "Unfriendly",
            "BadHandover", "BadLanguage"}


def keys_said() -> set[str]:
    keys = set()
    for name in ("table/session.py", "door/server.py"):
        tree = ast.parse((REPO / "appliance" / name).read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in SPEAKERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                keys.add(str(node.args[0].value))
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_unseat"
                and isinstance(node.args[1], ast.Constant)
            ):
                keys.add(str(node.args[1].value))
    return keys


def test_every_key_has_czech() -> None:
    said = keys_said()
    assert len(said) > 20, "the scan found too few keys to be trusted"
    missing = said - set(messages.CZECH)
    assert not missing, f"no Czech for {sorted(missing)}"


def test_say_fills_in_and_falls_back() -> None:
    assert messages.say("cs", "name_long", "At most {max}.", max=20) == (
        "Jméno může mít nejvýš 20 znaků."
    )
    assert messages.say("en", "name_long", "At most {max}.", max=20) == "At most 20."
    assert messages.say("cs", "brand_new", "New {x}.", x=1) == "New 1."


def test_the_box_and_the_kiosk_pick_one_plural_form() -> None:
    from appliance.kiosk.text import plural_form as kiosk_form
    from appliance.table.messages import plural_form

    for lang in ("en", "cs"):
        assert [plural_form(lang, n) for n in range(200)] == [
            kiosk_form(lang, n) for n in range(200)]
    assert [plural_form("cs", n) for n in (0, 1, 2, 4, 5, 22, 25)] == [
        "other", "one", "few", "few", "other", "other", "other"]
