"""The count of ``Any`` in the public API's signatures: reported, and only falling.

mypy checks every module of ``rulemodels`` and ``solvers`` (pyproject.toml),
but an argument or a result annotated ``Any`` is one it cannot check, for us
and for the users of the API. This test counts them and fails when the count
differs from :data:`CEILING`: above it, a change added ``Any`` to a public
signature; below it, a change removed some, and the ceiling is lowered to the
new count in the same commit, so it can only fall.

What counts: each annotation of a parameter (``*args`` and ``**kwargs``
included) or of a return value of a public function, ``__init__``, method or
property (``tests.helpers.public_objects``: the faces' ``__all__``; a
function exported by several faces counts once) that holds ``Any`` anywhere:
``Any``, ``dict[str, Any]`` and ``Callable[..., Any] | None`` count one each
(the stricter rule: a nested ``Any`` checks nothing either). A name is looked
up where the function is defined, so an alias of ``Any`` counts as ``Any``;
the shape parameter inside numpy's own aliases (``NDArray[np.float64]`` is
``ndarray[tuple[Any, ...], ...]``) is numpy's and does not count.

``python -m tests.test_typing`` (run by ``bash dev.sh check``) prints the
count, how many are a bare ``Any``, and the modules with the most.
"""

from __future__ import annotations

import ast
import inspect
import typing
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from tests.helpers import public_object, public_objects

#: The number of public annotations holding ``Any`` today. Lower it when you remove some; never raise it.
CEILING = 188


def public_functions() -> Iterator[Callable[..., Any]]:
    """Each function of the public API once: functions, ``__init__`` and methods, and properties' getters."""
    seen: set[int] = set()
    for qualified in public_objects():
        _, obj = public_object(qualified)
        function = obj.fget if isinstance(obj, property) else obj
        if inspect.isfunction(function) and id(function) not in seen:
            seen.add(id(function))
            yield function


def _holds_any(value: object) -> bool:
    """Whether an evaluated annotation is, or holds, ``Any`` (numpy's aliases are not entered)."""
    if value is Any:
        return True
    origin = typing.get_origin(value)
    if origin is not None and getattr(origin, "__module__", "").split(".")[0] == "numpy":
        return False
    return any(_holds_any(arg) for arg in typing.get_args(value))


def _names(node: ast.expr) -> Iterator[ast.expr]:
    """The outermost names and dotted names (``Any``, ``np.ndarray``) of an annotation's expression."""
    if isinstance(node, ast.Name | ast.Attribute):
        yield node
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            yield from _names(child)


def annotation_has_any(annotation: object, namespace: Mapping[str, Any]) -> bool:
    """Whether one annotation holds ``Any``: a string (``from __future__ import annotations``) is read name by
    name in ``namespace``; a name only imported for type checkers counts when it is spelled ``Any``."""
    if not isinstance(annotation, str):
        return _holds_any(annotation)
    for node in _names(ast.parse(annotation, mode="eval").body):
        try:
            value = eval(compile(ast.Expression(node), "<annotation>", "eval"), dict(namespace))
        except Exception:  # a name imported under TYPE_CHECKING only
            value = Any if (node.id if isinstance(node, ast.Name) else node.attr) == "Any" else None
        if _holds_any(value):
            return True
    return False


def any_annotations(function: Callable[..., Any]) -> tuple[list[str], int]:
    """The annotated names of ``function`` (parameters, ``"return"``) that hold ``Any``, and how many are ``Any``."""
    namespace = getattr(function, "__globals__", {})
    found, bare = [], 0
    for name, annotation in function.__annotations__.items():
        if annotation_has_any(annotation, namespace):
            found.append(name)
            bare += annotation is Any or (isinstance(annotation, str) and annotation.strip() in ("Any", "typing.Any"))
    return found, bare


def count() -> tuple[int, int, Counter[str]]:
    """The public annotations holding ``Any``, those that are ``Any`` itself, and the count per module."""
    total, bare, per_module = 0, 0, Counter[str]()
    for function in public_functions():
        found, bare_here = any_annotations(function)
        total += len(found)
        bare += bare_here
        if found:
            per_module[function.__module__] += len(found)
    return total, bare, per_module


def report() -> str:
    """The count as ``python -m tests.test_typing`` prints it: the total, then the ten modules with the most."""
    total, bare, per_module = count()
    lines = [f"Any in public signatures: {total} annotations (ceiling {CEILING}), {bare} of them Any itself"]
    lines += [f"  {n:4d}  {module}" for module, n in per_module.most_common(10)]
    return "\n".join(lines)


# -- the check's own examples -------------------------------------------------

_Alias = Any


def _example(a: int, b: dict[str, Any], c: _Alias, d: npt.NDArray[np.float64], *rest: Any) -> Callable[..., Any] | None:
    """The check's own example: ``b``, ``c``, ``rest`` and the return hold ``Any``; ``a`` and ``d`` do not."""
    return None


def test_the_count_finds_nested_and_aliased_any() -> None:
    assert any_annotations(_example) == (["b", "c", "rest", "return"], 1)
    assert annotation_has_any("Sequence[NotImportedHere] | None", {}) is False
    assert annotation_has_any("dict[str, Any]", {}) is True  # a name not found is read by its spelling


def test_the_walk_reaches_the_public_api() -> None:
    functions = list(public_functions())
    assert len(functions) > 300, f"found only {len(functions)} public functions: the walk is broken"


def test_any_in_public_signatures_only_falls() -> None:
    total, _, per_module = count()
    listing = ", ".join(f"{module} {n}" for module, n in per_module.most_common(5))
    assert total <= CEILING, (
        f"the public signatures hold Any in {total} annotations, more than the ceiling of {CEILING} (most in: "
        f"{listing}); give the new parameters and results their types (python -m tests.test_typing lists the count)"
    )
    assert total == CEILING, (
        f"the public signatures hold Any in {total} annotations, fewer than the ceiling of {CEILING}: well done; "
        f"lower CEILING in tests/test_typing.py to {total} in the same commit, so the count can only fall"
    )


if __name__ == "__main__":
    print(report())
