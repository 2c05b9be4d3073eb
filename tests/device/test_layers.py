"""The box's imports run one way: ports ← core ← ui ← games ← cli/box/sim, with no circle.

Every import counts, at the top of a module, inside a function or under TYPE_CHECKING: a
function-level import that runs against the order is still a circle, only a later one."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

DEVICE = Path(__file__).resolve().parents[2] / "device"
PACKAGE = "cobi_companion.device"
# Lower numbers are imported by higher ones, never the other way round.
LAYERS = {"ports": 0, "core": 1, "ui": 2, "games": 3}
TOP = 4          # cli, box, sim, hardware, boot, config: what a user or systemd starts


def module_name(path: Path) -> str:
    parts = path.relative_to(DEVICE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in DEVICE.rglob("*.py")}


def layer(module: str) -> int:
    return LAYERS.get(module.split(".")[0], TOP)


def resolve(current: str, node: ast.ImportFrom) -> Iterator[str]:
    """The box's modules a `from … import …` names (a package's submodule or the package)."""
    if node.level:
        base = current.split(".")
        is_package = MODULES[current].name == "__init__.py"
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        target = ".".join([*base, *([node.module] if node.module else [])])
    elif node.module and (node.module == PACKAGE or node.module.startswith(PACKAGE + ".")):
        target = node.module.removeprefix(PACKAGE).lstrip(".")
    else:
        return
    for alias in node.names:
        sub = f"{target}.{alias.name}" if target else alias.name
        yield sub if sub in MODULES else target


def imports(module: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            found.update(resolve(module, node))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + "."))
    return {m for m in found if m != module and m in MODULES and m != ""}


GRAPH = {m: imports(m) for m in MODULES}


def test_the_layers_are_the_ones_the_readme_names() -> None:
    packages = {p.name for p in DEVICE.iterdir() if (p / "__init__.py").exists()}
    assert set(LAYERS) <= packages


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m))
def test_imports_run_down_the_layers(module: str) -> None:
    upward = sorted(m for m in GRAPH[module] if layer(m) > layer(module))
    assert not upward, f"{module} (layer {layer(module)}) imports {upward} from above"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    assert cycles(GRAPH) == []


def test_the_checker_sees_a_circle_and_a_function_level_import() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    source = "def f():\n    from cobi_companion.device.games import home\n"
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            found.update(resolve("core.app", node))
    assert found == {"games.home"} or "games.home" not in MODULES


def test_every_package_folder_is_installed() -> None:
    """A folder with an __init__.py that pyproject.toml does not list would be missing from a
    non-editable install (the Pi's), while every test here passes from the checkout."""
    import tomllib

    root = DEVICE.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    setup = project["tool"]["setuptools"]
    listed = set(setup["packages"])
    folders = {"cobi_companion." + ".".join(p.parent.relative_to(root).parts)
               for top in ("rules", "cards", "device") for p in (root / top).rglob("__init__.py")}
    assert folders == listed
    for package in listed:
        assert setup["package-dir"][package] == package.removeprefix(
            "cobi_companion.").replace(".", "/")
