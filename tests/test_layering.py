"""The dependency rule of DESIGN.md, read from the imports of every module."""

from __future__ import annotations

import ast
import re
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


# --- no import cycles ---------------------------------------------------------------------

LAYERED = ("games", "drivers", "appliance")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path = REPO, packages: tuple[str, ...] = LAYERED) -> dict[str, set[str]]:
    """module -> the project modules it imports anywhere in its text (at the top, inside a
    function, under `if TYPE_CHECKING`): a cycle hidden in a function is still a cycle of
    the design, only one that waits for a call to bite."""
    files = {
        module_name(p, root): p for pkg in packages for p in sorted((root / pkg).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if is_package else name.split(".")[:-1]
                    here = here[: len(here) - (node.level - 1)]
                    base = ".".join([*here, base] if base else here)
                # `from pkg import mod` imports the module pkg.mod; `from mod import name`
                # imports mod.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in node.names
                ]
            for target in targets:
                # `import a.b.c` of a module we do not have resolves to its nearest parent.
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def is_parent_package(a: str, b: str) -> bool:
    return b.startswith(a + ".") or a.startswith(b + ".")


def test_no_module_imports_itself_back() -> None:
    # A package's __init__ that imports its own submodules (appliance.kiosk imports
    # kiosk.render, which is inside appliance.kiosk) is how Python packages work, not a
    # cycle: importing a submodule runs its package first, never the other way round.
    graph = {
        name: {t for t in targets if not is_parent_package(name, t)}
        for name, targets in import_graph().items()
    }
    found = cycles(graph)
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    pkg = tmp_path / "appliance"
    (pkg / "kiosk").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kiosk" / "__init__.py").write_text("from appliance.kiosk import render\n")
    (pkg / "kiosk" / "render.py").write_text("from appliance.kiosk.theme import BG\n")
    (pkg / "kiosk" / "theme.py").write_text(
        "def late():\n    from .kit import pill\n"  # relative, inside a function
    )
    (pkg / "kiosk" / "kit.py").write_text("import appliance.kiosk.render as r\n")
    (pkg / "kiosk" / "ok.py").write_text("from appliance.kiosk import theme\n")
    graph = import_graph(tmp_path, ("appliance",))
    assert graph["appliance.kiosk.ok"] == {"appliance.kiosk.theme"}
    assert graph["appliance.kiosk.theme"] == {"appliance.kiosk.kit"}
    found = cycles(
        {n: {t for t in ts if not is_parent_package(n, t)} for n, ts in graph.items()}
    )
    assert found == [["appliance.kiosk.kit", "appliance.kiosk.render", "appliance.kiosk.theme"]]


# --- the box knows no game by name --------------------------------------------------------


def game_ids() -> set[str]:
    """Every game's id the checks look for: the catalogue's and the tests' own game that
    the box never heard of (tests/house_game/)."""
    from games.registry import CATALOGUE
    from tests.house_game.rules import GAME_ID

    return {entry.id for entry in CATALOGUE} | {GAME_ID}


def _module_of(game: str) -> str:
    return game.replace("-", "_")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes: prose may speak of a game, code may not name one."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def names_of_games(path: Path, games: set[str]) -> list[str]:
    """Where the module at `path` names a game: a game id as a string (not in a
    docstring), an import of a game's own modules (games.<game>, games.<game>_words...,
    appliance.kiosk.<game>), or such a module's dotted name in a string (importlib)."""
    modules = {_module_of(g) for g in games}

    def is_games_module(name: str) -> bool:
        for prefix in ("games.", "appliance.kiosk."):
            if name.startswith(prefix):
                first = name[len(prefix):].split(".")[0]
                if any(first == m or first.startswith(m + "_") for m in modules):
                    return True
        return False

    tree = ast.parse(path.read_text(), str(path))
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if is_games_module(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            found += [f"from {node.module} import ..." for t in targets[:1] if any(
                is_games_module(t) for t in targets)]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in prose):
            text = node.value
            if text in games:
                found.append(repr(text))
            elif any(is_games_module(word) for word in text.replace('"', " ").split()):
                found.append(repr(text[:60]))
    return [f"{path.relative_to(REPO) if path.is_relative_to(REPO) else path.name}: {what}"
            for what in found]


def boxs_modules(root: Path = REPO) -> list[Path]:
    """Every module of appliance/ but the games' own kiosk screens (appliance/kiosk/<id>.py)."""
    screens = {root / "appliance" / "kiosk" / f"{_module_of(g)}.py" for g in game_ids()}
    return [p for p in sorted((root / "appliance").rglob("*.py")) if p not in screens]


def test_the_box_names_no_game() -> None:
    games = game_ids()
    named = [where for path in boxs_modules() for where in names_of_games(path, games)]
    assert named == [], "the box names a game (its house says it instead):\n" + "\n".join(named)


def test_the_name_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""A module about Duplik and "duplik" in its docstring: prose, allowed."""\n'
        "import importlib\n"
        "from games.duplik import RULES\n"
        "from games import broad_lines_words\n"
        "import games.artbox_actions\n"
        "from appliance.kiosk import luck_of_the_draw\n"
        'PAPER = frozenset({"duplik"})\n'
        'def f(game):\n    """Doodle dash, in prose."""\n    return game == "doodle-dash"\n'
        'importlib.import_module("games.broad_lines")\n'
        'TEXT = {"duplik.round": "Round {n}", "note": "the doodle-dash way"}\n'
    )
    found = sorted(w.split(": ", 1)[1] for w in names_of_games(bad, game_ids()))
    # A text key of a game's kiosk screen ("duplik.round") and prose are not names.
    assert found == sorted([
        "from games.duplik import ...", "from games import ...", "import games.artbox_actions",
        "from appliance.kiosk import ...", "'duplik'", "'doodle-dash'", "'games.broad_lines'",
    ]), found
    screen = tmp_path / "appliance" / "kiosk" / "duplik.py"
    screen.parent.mkdir(parents=True)
    screen.write_text('GAME = "duplik"\n')
    assert screen not in boxs_modules(tmp_path)


# --- the phone page names no game either ---------------------------------------------------

PAGE_SUFFIXES = (".js", ".css", ".html")


def _without_comments(text: str) -> str:
    """A page file's code: prose in comments may speak of a game, code may not name one."""
    text = re.sub(r"/\*.*?\*/|<!--.*?-->", " ", text, flags=re.S)
    return re.sub(r"(?m)(?:^|\s)//.*$", " ", text)


def names_of_games_in_page(path: Path, games: set[str]) -> list[str]:
    """Where a file of the phone page names a game: its id or its module's name as a word
    of its code ("duplik", "broad-lines", "./luck_of_the_draw.js", "duplik.round")."""
    words = sorted(games | {_module_of(g) for g in games}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, words)) + r")(?![\w-])")
    code = _without_comments(path.read_text())
    return [f"{path.name}: {m.group(0)!r}" for m in pattern.finditer(code)]


def page_files(root: Path = REPO) -> list[Path]:
    """The phone page's shared files: every script, stylesheet and page of the box's static
    folder but a game's own (named after it: duplik.js, broad_lines.css)."""
    static = root / "appliance" / "web" / "static"
    own = {_module_of(g) for g in game_ids()}
    return [p for p in sorted(static.rglob("*"))
            if p.suffix in PAGE_SUFFIXES and p.stem not in own]


def test_the_phone_page_names_no_game() -> None:
    games = game_ids()
    named = [where for path in page_files() for where in names_of_games_in_page(path, games)]
    assert named == [], "the page names a game (its house and script say it):\n" + "\n".join(named)


def test_each_game_brings_its_own_phone_script() -> None:
    from games import registry

    static = REPO / "appliance" / "web" / "static"
    for entry in registry.CATALOGUE:
        house = registry.house(entry.id)
        assert house.phone_script == f"{_module_of(entry.id)}.js", entry.id
        assert (static / house.phone_script).is_file(), house.phone_script


def test_the_page_check_can_fail(tmp_path: Path) -> None:
    static = tmp_path / "appliance" / "web" / "static"
    static.mkdir(parents=True)
    (static / "app.js").write_text(
        "// Duplik's screen (duplik.js) registers itself: prose.\n"
        "/* broad-lines, in a comment */\n"
        'import "./duplik.js";\n'
        'if (match.game === "broad-lines") t("artbox.round");\n'
        'const url = "http://box/static/x.js"; // the doodle-dash way\n'
    )
    (static / "duplik.css").write_text(".duplik { gap: 1px; }\n")
    (static / "style.css").write_text(".luck_of_the_draw { gap: 1px; }\n")
    assert page_files(tmp_path) == [static / "app.js", static / "style.css"]
    found = [w for p in page_files(tmp_path) for w in names_of_games_in_page(p, game_ids())]
    assert found == ["app.js: 'duplik'", "app.js: 'broad-lines'", "app.js: 'artbox'",
                     "style.css: 'luck_of_the_draw'"], found


def test_drawings_are_painted_below_the_kiosk_and_the_gallery() -> None:
    """Strokes become pixels in appliance/system/drawing.py alone: the gallery (the phones' door)
    does not borrow the kiosk's code, and the lobby's history (the table's memory) does
    not lean on the gallery's web pages."""
    by_module: dict[str, set[str]] = {}
    for path, module in imports("appliance"):
        by_module.setdefault(module_name(path, REPO), set()).add(module)
    assert not {m for m in by_module["appliance.door.gallery"] if m.startswith("appliance.kiosk")}
    assert "appliance.system.drawing" in by_module["appliance.door.gallery"]
    assert "appliance.system.drawing" in by_module["appliance.kiosk.strokes"]
    for memory in ("appliance.table.history", "appliance.table.lobby_history",
                   "appliance.table.keepsakes"):
        assert not by_module[memory] & {
            "appliance.door.gallery", "appliance.door.server", "aiohttp"}
    assert not {m for m in by_module["appliance.system.drawing"]
                if m.startswith(("appliance", "games"))}


# --- the wings of appliance/ --------------------------------------------------------------

WINGS: dict[str, tuple[str, ...]] = {
    # wing -> what its modules may import of the project (each wing's docstring says so)
    "appliance.system": ("appliance.system", "drivers", "games.registry"),
    "appliance.table": ("appliance.system", "appliance.table", "games"),
    "appliance.door": ("appliance.system", "appliance.table", "appliance.door",
                       "appliance.kiosk", "games"),
    "appliance.kiosk": ("appliance.kiosk", "appliance.system.drawing"),
}
NOT_IN: dict[str, tuple[str, ...]] = {
    # wing -> libraries its modules may not use
    "appliance.system": (),
    "appliance.table": ("aiohttp", "pygame"),
    "appliance.door": (),
    "appliance.kiosk": ("aiohttp", "sqlite3"),
}


def wing_of(module: str) -> str | None:
    return next((w for w in WINGS if module == w or module.startswith(w + ".")), None)


def allowed(wing: str, target: str) -> bool:
    return (target + ".").startswith(tuple(w + "." for w in WINGS[wing]))


def wing_breaches(root: Path = REPO) -> list[str]:
    """Each import of a module in a wing that its wing does not allow. appliance/__init__,
    app.py and cli.py are in no wing: they wire every wing together."""
    found = []
    # The box's own modules, resolved (`from appliance.system import drawing` is the
    # module appliance.system.drawing).
    for here, targets in import_graph(root, ("appliance",)).items():
        wing = wing_of(here)
        found += [f"{here} imports {t}" for t in sorted(targets)
                  if wing is not None and not allowed(wing, t)]
    for path, module in imports("appliance", root):
        wing = wing_of(module_name(path, root))
        top = module.split(".")[0]
        if wing is None:
            continue
        if top in ("games", "drivers") and not allowed(wing, module):
            found.append(f"{module_name(path, root)} imports {module}")
        if top in NOT_IN[wing]:
            found.append(f"{module_name(path, root)} uses {module}")
    return found


def test_each_wing_imports_only_what_its_docstring_allows() -> None:
    assert wing_breaches() == []
    for wing in WINGS:
        package = REPO / Path(*wing.split(".")) / "__init__.py"
        doc = ast.get_docstring(ast.parse(package.read_text())) or ""
        assert "May import:" in doc or "imports no game" in doc, f"{wing} says what it may import"


def test_every_module_of_the_box_is_in_a_wing() -> None:
    top = sorted(p.name for p in (REPO / "appliance").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "app.py", "cli.py"], top


def test_the_wing_check_can_fail(tmp_path: Path) -> None:
    for wing, module in (("table", "session"), ("kiosk", "intents"), ("door", "server"),
                         ("system", "drawing")):
        (tmp_path / "appliance" / wing).mkdir(parents=True)
        (tmp_path / "appliance" / wing / f"{module}.py").write_text("")
    (tmp_path / "appliance" / "table" / "bad.py").write_text(
        "from appliance.door.server import PhoneServer\nimport pygame\n")
    (tmp_path / "appliance" / "kiosk" / "bad.py").write_text(
        "from appliance.table.session import Session\nfrom appliance.system import drawing\n")
    (tmp_path / "appliance" / "system" / "bad.py").write_text("from games import registry\n")
    (tmp_path / "appliance" / "door" / "ok.py").write_text(
        "from appliance.table import session\nfrom appliance.kiosk.intents import Back\n")
    assert sorted(wing_breaches(tmp_path)) == [
        "appliance.kiosk.bad imports appliance.table.session",
        "appliance.system.bad imports games",
        "appliance.table.bad imports appliance.door.server",
        "appliance.table.bad uses pygame",
    ]
