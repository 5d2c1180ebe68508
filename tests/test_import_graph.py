"""The ``rulemodels`` package imports in one direction: its static import graph has no cycle.

The graph is read from the source with :mod:`ast`: every ``import`` and
``from ... import`` of every module, those inside functions included (an
import deferred into a function still closes a cycle, it only hides it until
the call), and those under ``if TYPE_CHECKING:`` left out (they never run).
``from package import name`` is an edge to the submodule ``package.name``
when there is one, else to the package. A package's ``__init__`` counts as the
package's module; the implicit import of a parent package is not an edge (as
in import-linter).

The failure names each cycle (its modules and one closed path through them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "rulemodels"


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by its dotted name (``pkg/__init__.py`` is ``pkg``)."""
    names = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree``, at any depth, except those under ``if TYPE_CHECKING:``."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """``name`` or its nearest enclosing module that is in ``modules`` (``a.b.attr`` -> ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (statically, see the module docstring)."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.append(submodule if submodule in modules else base)
            for target in targets:
                known = _known(target, modules)
                if known is not None and known != name:
                    graph[name].add(known)
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def one_cycle(graph: Mapping[str, set[str]], component: frozenset[str]) -> list[str]:
    """One closed path through ``component`` (``a -> b -> a``), for the failure message."""
    start = min(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        node = frontier.pop(0)
        for child in sorted(graph[node] & component):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                frontier.append(child)
    raise AssertionError(f"{sorted(component)} is not a cycle")  # pragma: no cover


def describe(graph: Mapping[str, set[str]], component: frozenset[str]) -> str:
    return f"{sorted(component)}, e.g. {' -> '.join(one_cycle(graph, component))}"


def test_the_package_import_graph_has_no_cycle():
    graph = import_graph(REPO, PACKAGE)
    assert len(graph) > 50 and "rulemodels.rules._rule" in graph  # the walk found the package
    found = cycles(graph)
    assert not found, "import cycles in rulemodels:\n" + "\n".join(describe(graph, c) for c in found)


def test_no_module_imports_the_package_root():
    """The root (``rulemodels/__init__.py``) is above every layer: it names the public API and imports each name
    from its module on first use, so a module importing it (``from rulemodels import X``, X not a submodule) runs
    back up the layering (import-linter's contract ``root-on-top`` says the same)."""
    graph = import_graph(REPO, PACKAGE)
    assert "rulemodels.defaults" in graph["rulemodels.cli._args"]  # `from rulemodels import defaults`: a submodule
    assert sorted(module for module, targets in graph.items() if PACKAGE in targets) == []


def test_the_rule_layer_imports_nothing_above_it():
    """``rulemodels.rules`` is the lowest layer: it imports only itself and the import-cheap ``outputs`` and
    ``utils`` (whose :func:`~rulemodels.utils.as_pandas` reads a polars or pyarrow DataFrame in ``Rule.evaluate``)."""
    graph = import_graph(REPO, PACKAGE)
    allowed = ("rulemodels.rules", "rulemodels.outputs", "rulemodels.utils")
    wrong = {
        (module, target)
        for module, targets in graph.items() if module.startswith("rulemodels.rules")
        for target in targets if not target.startswith(allowed)
    }
    assert not wrong


def test_the_data_layer_imports_no_layer_above_it():
    graph = import_graph(REPO, PACKAGE)
    above = ("rulemodels.models", "rulemodels.algorithms", "rulemodels.estimator", "rulemodels.model_selection",
             "rulemodels.experiments", "rulemodels.cli")
    wrong = {
        (module, target)
        for module, targets in graph.items() if module.startswith("rulemodels.data")
        for target in targets if target.startswith(above)
    }
    assert not wrong


def test_the_graph_sees_function_level_imports_and_skips_type_checking(tmp_path):
    """The reader itself: a cycle closed inside a function is found; one closed under TYPE_CHECKING is not."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from pkg.sub import low\n")
    (package / "sub" / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import typed_only\n"
        "def f():\n    from pkg import high\n    return high\n"
    )
    (package / "high.py").write_text("from .sub.low import f\n")
    (package / "typed_only.py").write_text("from pkg.sub import low\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.sub.low"] == {"pkg.high"}
    assert graph["pkg.high"] == {"pkg.sub.low"}  # relative import resolved
    assert graph["pkg.sub"] == {"pkg.sub.low"}  # "from pkg.sub import low" is the submodule
    assert cycles(graph) == [frozenset({"pkg.sub.low", "pkg.high"})]
    assert one_cycle(graph, cycles(graph)[0]) == ["pkg.high", "pkg.sub.low", "pkg.high"]
