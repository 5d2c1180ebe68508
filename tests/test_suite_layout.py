"""The test suite's own rules: one definition per fixture name, and no test module importing another.

A fixture name defined in two modules means two different things under one
name (on 2026-11-24 ``pima_small`` was defined four times with four contents);
a test module that imports another test module runs, or breaks, with it.
Shared fixtures live in ``tests/conftest.py``, shared helpers in
``tests/helpers.py``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MODULES = sorted(TESTS.rglob("*.py"))


def is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "fixture" or (
        isinstance(target, ast.Name) and target.id == "fixture"
    )


def test_every_fixture_name_is_defined_once() -> None:
    defined: dict[str, list[str]] = defaultdict(list)
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(is_fixture(d) for d in node.decorator_list):
                defined[node.name].append(str(path.relative_to(TESTS)))
    assert defined, "found no fixtures: the search is broken"
    duplicates = {name: where for name, where in defined.items() if len(where) > 1}
    assert duplicates == {}, "give each fixture one definition (shared ones in tests/conftest.py) and its own name"


def imported_modules(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_test_module_imports_another_or_conftest() -> None:
    offending = {}
    for path in MODULES:
        bad = sorted(
            name for name in imported_modules(ast.parse(path.read_text(encoding="utf-8")))
            if name.startswith("tests.") and any(part.startswith(("test_", "conftest")) for part in name.split(".")[1:])
            or name in ("conftest",)
            or (name.startswith("test_") and any(TESTS.rglob(f"{name}.py")))
        )
        if bad:
            offending[str(path.relative_to(TESTS))] = bad
    assert offending == {}, "import shared code from tests/helpers.py, not from test modules or conftest"
