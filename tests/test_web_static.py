"""The phone page's scripts put text into the page only as text.

Names and typed words come from other players' phones; the client builds every element
with ui.js `h`/`fill` (text nodes), so no script may use an HTML sink. Comments may name
them (to say they are not used).
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

STATIC = REPO / "appliance" / "web" / "static"
SINKS = re.compile(
    r"\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\s*\(|new\s+Function\s*\("
    r"|setTimeout\s*\(\s*['\"`]|createContextualFragment|\.srcdoc\b"
)


def code_of(text: str) -> str:
    """The script without its comments (// to the end of a line, and /* ... */)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


@pytest.mark.parametrize("path", sorted(STATIC.glob("*.js")), ids=lambda p: p.name)
def test_no_script_writes_html(path: object) -> None:
    from pathlib import Path

    assert isinstance(path, Path)
    found = [m.group(0) for m in SINKS.finditer(code_of(path.read_text(encoding="utf-8")))]
    assert found == [], f"{path.name} uses an HTML sink: {found}"


def test_the_check_finds_a_sink() -> None:
    assert SINKS.search(code_of("el.innerHTML = name; // fine"))
    assert not SINKS.search(code_of("// no innerHTML here\nel.textContent = name;"))
