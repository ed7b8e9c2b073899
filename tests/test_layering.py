"""The dependency rule of DESIGN.md, read from the imports of every module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.conftest import REPO


def imports(package: str, root: Path = REPO) -> list[tuple[Path, str]]:
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found += [(path, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((path, node.module))
    return found


def test_games_use_only_the_standard_library() -> None:
    for path, module in imports("games"):
        top = module.split(".")[0]
        assert top == "games" or top in sys.stdlib_module_names, f"{path} imports {module}"
    for banned in ("asyncio", "sqlite3"):
        assert all(m.split(".")[0] != banned for _, m in imports("games")), banned


def test_drivers_know_no_game_and_no_appliance() -> None:
    for path, module in imports("drivers"):
        assert module.split(".")[0] not in ("games", "appliance"), f"{path} imports {module}"


def test_the_kiosk_draws_views_not_games() -> None:
    for path, module in imports("appliance/kiosk"):
        top = module.split(".")[0]
        assert top not in ("games", "drivers", "aiohttp", "sqlite3"), f"{path} imports {module}"


def test_the_check_can_fail(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "bad.py").write_text("import pygame\nfrom asyncio import sleep\n")
    found = [m for _, m in imports("games", tmp_path)]
    assert found == ["pygame", "asyncio"]
    assert [m for m in found if m not in sys.stdlib_module_names] == ["pygame"]
