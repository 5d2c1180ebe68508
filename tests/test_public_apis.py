"""The packages use only public names of other projects (and no APPSI at all).

A name with a leading underscore in another project is that project's to
change in any release. This test reads the source of ``rulemodels/`` and
``solvers/`` and fails on
- an import of a private module or name from another project (pyomo,
  highspy, scikit-learn, pandas, numpy, ...);
- an attribute access ``x._name`` (or ``getattr(x, "_name")``) whose name
  this project does not define itself (as a function, class, attribute or
  field of its own);
- any mention of APPSI (``pyomo.contrib.appsi``), the interface being replaced.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("rulemodels", "solvers")


def sources() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))]


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(trees: dict[Path, ast.AST]) -> set[str]:
    """The private attribute names the project defines: attributes it assigns, and names defined in its classes.

    Module-level functions do not count: a module's ``_helper`` says
    nothing about an attribute ``x._helper`` of another project's object.
    """
    names: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names.add(node.name)
                for statement in node.body:
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        names.add(statement.name)
                    elif isinstance(statement, ast.Assign):
                        names.update(t.id for t in statement.targets if isinstance(t, ast.Name))
                    elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                        names.add(statement.target.id)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for element in ast.walk(target):
                        if isinstance(element, ast.Attribute):
                            names.add(element.attr)
    return {name for name in names if is_private(name)}


def is_foreign(module: str) -> bool:
    return module.split(".")[0] not in (*PACKAGES, "__future__")


def test_no_private_names_of_other_projects_are_used() -> None:
    trees = {path: ast.parse(path.read_text(), filename=str(path)) for path in sources()}
    owned = own_names(trees)
    problems = []
    for path, tree in trees.items():
        where = path.relative_to(REPO)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and is_foreign(node.module):
                parts = node.module.split(".")
                if any(is_private(part) for part in parts) or any(is_private(alias.name) for alias in node.names):
                    problems.append(f"{where}:{node.lineno}: from {node.module} import {', '.join(a.name for a in node.names)}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if is_foreign(alias.name) and any(is_private(part) for part in parts):
                        problems.append(f"{where}:{node.lineno}: import {alias.name}")
            elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in owned:
                problems.append(f"{where}:{node.lineno}: .{node.attr} is not a name this project defines")
            elif (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr", "setattr", "delattr") and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                and is_private(node.args[1].value) and node.args[1].value not in owned
            ):
                problems.append(f"{where}:{node.lineno}: {node.func.id}(..., {node.args[1].value!r}) is not a name this project defines")
    assert problems == []


def test_appsi_is_not_used_or_mentioned() -> None:
    mentions = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sources()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "appsi" in line.lower()
    ]
    assert mentions == []


def test_the_check_finds_a_private_access() -> None:
    """The attribute rule is not vacuous: a Pyomo-internal name is not among the project's own names."""
    trees = {path: ast.parse(path.read_text()) for path in sources()}
    owned = own_names(trees)
    for name in ("_value", "_objective_helpers", "_mutable_bounds", "_solver_model", "_rc", "_log"):
        assert name not in owned, name
    assert "_instances" in owned  # the project's own private attribute of HighsBackend
