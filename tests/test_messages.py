"""Everything the box says to people exists in Czech too."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess

import pytest

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


def test_the_kiosk_and_the_phone_page_say_z_and_ze_alike() -> None:
    # Twins in two languages (the kiosk's Python, the page's JavaScript): one answer for
    # every count a table can show, read from the page's own module by Node.
    from appliance.kiosk.text import czech_counts

    node = shutil.which("node") or shutil.which("nodejs")
    sentences = [f"Kolo {n % 7} z {n}" for n in range(0, 2500)] + [
        "Hlasovalo 0 z 4 (z 3 kol)", "z 2 hráčů", "bez 4", "vz 4"]
    assert [czech_counts(s) for s in sentences[1:5]] == [
        "Kolo 1 z 1", "Kolo 2 ze 2", "Kolo 3 ze 3", "Kolo 4 ze 4"]
    assert czech_counts("Hlasovalo 0 z 4 (z 3 kol)") == "Hlasovalo 0 ze 4 (ze 3 kol)"
    assert czech_counts("Kolo 1 z 5, z 8, z 12, z 21, z 100, z 1000") == (
        "Kolo 1 z 5, z 8, ze 12, ze 21, ze 100, z 1000")
    if node is None:
        pytest.skip("no node to run the phone page's twin")
    module = (REPO / "appliance" / "web" / "static" / "i18n.js").as_uri()
    # The module reads the browser's language as it loads: Node is given an empty one.
    script = ("globalThis.navigator = { languages: [], language: 'cs' };"
              "globalThis.localStorage = { getItem: () => null, setItem: () => {} };"
              f"const {{ czechCounts }} = await import({json.dumps(module)});"
              "let s = ''; process.stdin.on('data', (d) => { s += d; });"
              "process.stdin.on('end', () => console.log(JSON.stringify("
              "JSON.parse(s).map(czechCounts))));")
    out = subprocess.run([node, "--input-type=module", "-e", script],
                         input=json.dumps(sentences), capture_output=True, text=True,
                         check=True, timeout=60)
    assert json.loads(out.stdout) == [czech_counts(s) for s in sentences]
