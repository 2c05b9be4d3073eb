"""The package's imports run one way: rules ← cards ← device, and inside the box ports ← core ←
ui ← games ← cli/box/sim, with no circle anywhere.

Every import counts, at the top of a module, inside a function or under TYPE_CHECKING: a
function-level import that runs against the order is still a circle, only a later one, and a
type-only one is a circle the type checker and every reader must follow."""
from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ROOT / "device"
PACKAGE = "cobi_companion"
# The package's four parts, lowest first: the pure rules, the words, the card files, the box.
PARTS = ("rules", "words", "cards", "device")
# The box's own layers, lowest first; its other modules (cli, box, sim, hardware, boot, config:
# what a user or systemd starts) sit on top of them.
DEVICE_LAYERS = ("ports", "core", "ui", "games")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for part in PARTS for p in (ROOT / part).rglob("*.py")}


def layer(module: str) -> tuple[int, int]:
    """Lower layers are imported by higher ones, never the other way round: the part first,
    then, inside device/, the box's layer."""
    part, *rest = module.split(".")
    inner = 0
    if part == "device":
        inner = DEVICE_LAYERS.index(rest[0]) if rest and rest[0] in DEVICE_LAYERS \
            else len(DEVICE_LAYERS)
    return PARTS.index(part), inner


def resolve(current: str, node: ast.ImportFrom) -> Iterator[str]:
    """The package's modules a `from … import …` names (a package's submodule or the package)."""
    if node.level:
        base = current.split(".")
        is_package = MODULES[current].name == "__init__.py"
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        target = ".".join([*base, *([node.module] if node.module else [])])
    elif node.module and node.module.startswith(PACKAGE + "."):
        target = node.module.removeprefix(PACKAGE + ".")
    elif node.module == PACKAGE:
        target = ""
    else:
        return
    for alias in node.names:
        sub = f"{target}.{alias.name}" if target else alias.name
        yield sub if sub in MODULES else target


def imports_of(module: str, source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found.update(resolve(module, node))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + "."))
    return {m for m in found if m != module and m in MODULES}


@cache
def graph() -> dict[str, set[str]]:
    """Each module's imports of the package: read when a test first asks, not when pytest
    collects the tests (in every worker)."""
    return {m: imports_of(m, MODULES[m].read_text(encoding="utf-8")) for m in MODULES}


def test_the_layers_are_the_ones_the_readme_names() -> None:
    assert all((ROOT / part / "__init__.py").is_file() for part in PARTS)
    packages = {p.name for p in DEVICE.iterdir() if (p / "__init__.py").exists()}
    assert set(DEVICE_LAYERS) <= packages


def test_every_part_is_read() -> None:
    # A checker that read nothing would find nothing wrong.
    for part in PARTS:
        assert sum(m.split(".")[0] == part for m in MODULES) > 5, part
    assert "cards.loader" in graph()["cards"] or "cards.book" in graph()["cards"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_run_down_the_layers(module: str) -> None:
    upward = sorted(m for m in graph()[module] if layer(m) > layer(module))
    assert not upward, f"{module} (layer {layer(module)}) imports {upward} from above"


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's, without recursion:
    the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, nexts = work[-1]
            nxt = next(nexts, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def a_circle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One circle through the component's first module, as the path of imports that closes it
    (the shortest, found breadth first)."""
    start, inside = component[0], set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph[node] & inside):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start] if node != start else [start, start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise AssertionError(f"{component} is not a circle")


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each circle of imports, written as the path that closes it."""
    return [" → ".join(a_circle(graph, c)) for c in components(graph)]


def test_no_import_circles() -> None:
    found = components(graph())
    said = [f"{' → '.join(a_circle(graph(), c))} (the circle joins {', '.join(c)})"
            for c in found]
    assert found == [], f"{len(found)} import circles: " + "; ".join(said)


def test_the_checker_sees_a_circle_and_every_kind_of_import() -> None:
    assert components({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert cycles({"a": {"b", "d"}, "b": {"c"}, "c": {"a"}, "d": {"b"}}) == ["a → b → c → a"]
    assert cycles({"a": {"b"}, "b": set()}) == []
    source = ("from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from cobi_companion.device.core.app import App\n"
              "def f():\n    from cobi_companion.device.games import home\n"
              "    from ..boot import title_view\n"
              "import cobi_companion.rules.dice\n")
    assert imports_of("cards.book", source) >= {"device.core.app", "rules.dice"}
    assert imports_of("device.core.views", source) >= {"device.core.app", "device.boot"}
    assert layer("cards.book") > layer("rules.cobra.turns")
    assert layer("device.ports.store") > layer("cards.book")
    assert layer("device.cli.cards") > layer("device.games.roster") > layer("device.ui.text")


def test_every_package_folder_is_installed() -> None:
    """A folder with an __init__.py that pyproject.toml does not list would be missing from a
    non-editable install (the Pi's), while every test here passes from the checkout."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setup = project["tool"]["setuptools"]
    listed = set(setup["packages"])
    folders = {"cobi_companion." + ".".join(p.parent.relative_to(ROOT).parts)
               for top in PARTS for p in (ROOT / top).rglob("__init__.py")}
    assert folders == listed
    for package in listed:
        assert setup["package-dir"][package] == package.removeprefix(
            "cobi_companion.").replace(".", "/")
