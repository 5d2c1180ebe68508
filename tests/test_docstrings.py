"""Every public object of the package faces documents exactly the parameters of its signature.

For each name in ``__all__`` of ``rulemodels``, ``rulemodels.rules``,
``rulemodels.data``, ``rulemodels.models``, ``rulemodels.algorithms``,
``rulemodels.experiments`` and ``solvers`` that is a class or a function (and,
for a class, the public methods and properties defined in the class itself),
numpydoc's validation reports none of PR01 (a parameter of the signature not
documented), PR02 (a documented parameter not in the signature) and RT01 (no
``Returns`` section in a function that returns a value). A dataclass
documents its fields in a ``Parameters`` section of its docstring.
The main entry points (``WITH_EXAMPLES``) also have an ``Examples`` section
(no EX01). numpydoc comes with the ``dev`` extra.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import pkgutil
import textwrap
from typing import Any

from numpydoc.docscrape import NumpyDocString
from numpydoc.validate import validate

from tests.helpers import public_object, public_objects

CHECKS = ("PR01", "PR02", "RT01")
#: The main entry points, each with an ``Examples`` section (numpydoc EX01); the examples run as doctests.
WITH_EXAMPLES = (
    "rulemodels.BooleanRuleClassifier", "rulemodels.BooleanRuleCV", "rulemodels.FeatureBinarizer",
    "rulemodels.load_dataset", "rulemodels.save_model", "rulemodels.load_model", "rulemodels.rules.to_sql",
    "rulemodels.rules.to_query", "rulemodels.rules.to_python", "rulemodels.report_html", "rulemodels.solve_exact",
    "rulemodels.TrainingWorkspace", "rulemodels.rules.explain_rule", "rulemodels.rules.simplify_rule",
    "solvers.get_backend",
)


def parameter_errors(qualified: str) -> list[str]:
    """numpydoc's PR01, PR02 and RT01 messages for one object."""
    return [message for code, message in validate(qualified)["errors"] if code in CHECKS]


def _example_with_undocumented_parameter(documented: int, undocumented: int) -> int:
    """Add two numbers (the check's own example: ``undocumented`` is left out on purpose).

    Parameters
    ----------
    documented : int
        A number.
    missing : int
        A parameter the signature does not have.

    Returns
    -------
    int
        The sum.
    """
    return documented + undocumented


def test_the_check_finds_missing_and_extra_parameters() -> None:
    errors = dict(validate(f"{__name__}._example_with_undocumented_parameter")["errors"])
    assert "undocumented" in errors.get("PR01", ""), errors
    assert "missing" in errors.get("PR02", ""), errors


def test_public_docstrings_document_every_parameter() -> None:
    names = list(public_objects())
    assert len(names) > 300, f"found only {len(names)} public objects: the collection is broken"
    failures = {name: errors for name in names if (errors := parameter_errors(name))}
    report = "\n".join(f"  {name}: {'; '.join(errors)}" for name, errors in failures.items())
    assert not failures, (
        f"{len(failures)} public docstrings do not match their signatures (numpydoc PR01/PR02/RT01); document "
        f"each missing parameter in the docstring's Parameters section (a dataclass's fields in its class "
        f"docstring), remove the ones the signature lacks, and describe a returned value in a Returns "
        f"section:\n{report}"
    )


def test_main_entry_points_have_examples() -> None:
    missing = [name for name in WITH_EXAMPLES if any(code == "EX01" for code, _ in validate(name)["errors"])]
    assert not missing, f"these main entry points have no Examples section (numpydoc EX01): {', '.join(missing)}"


def _raised_names(function: Any) -> set[str]:
    """The class-like names a function raises in its own body (``raise Name``, ``raise module.Name(...)``)."""
    try:
        source = inspect.getsource(function)
    except OSError:  # generated code (a dataclass's __init__) has no source to read
        return set()
    tree = ast.parse(textwrap.dedent(source)).body[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                continue  # a nested function's raises are its own
            if isinstance(child, ast.Raise) and child.exc is not None:  # a bare ``raise`` re-raises
                exc = child.exc.func if isinstance(child.exc, ast.Call) else child.exc
                name = exc.id if isinstance(exc, ast.Name) else exc.attr if isinstance(exc, ast.Attribute) else ""
                if name[:1].isupper():
                    found.add(name)
            visit(child)

    visit(tree)
    return found


def undocumented_raises(qualified: str) -> list[str]:
    """The exceptions ``qualified`` raises directly that its docstring's Raises section does not name.

    A method's docstring is its own; an ``__init__`` without one is documented in its class's docstring
    (numpydoc's convention). Properties and objects defined outside the package are not checked.
    """
    owner, obj = public_object(qualified)
    if not inspect.isfunction(obj) or not obj.__module__.startswith(("rulemodels", "solvers", __name__)):
        return []
    raised = _raised_names(obj)
    doc = obj.__doc__
    if doc is None and obj.__name__ == "__init__" and inspect.isclass(owner):
        doc = owner.__doc__
    documented = {item.type.strip() for item in NumpyDocString(inspect.cleandoc(doc or ""))["Raises"]}
    return sorted(raised - documented)


def _example_with_undocumented_raise(value: int) -> int:
    """Check a number (the check's own example: it raises without a Raises section).

    Parameters
    ----------
    value : int
        A number.

    Returns
    -------
    int
        ``value``.
    """
    if value < 0:
        raise ValueError("negative")
    return value


def test_the_check_finds_undocumented_raises() -> None:
    assert undocumented_raises(f"{__name__}._example_with_undocumented_raise") == ["ValueError"]


def test_public_functions_document_what_they_raise() -> None:
    names = list(public_objects())
    failures = {name: missing for name in names if (missing := undocumented_raises(name))}
    report = "\n".join(f"  {name}: {', '.join(missing)}" for name, missing in failures.items())
    assert not failures, (
        f"{len(failures)} public functions raise an exception their docstring does not name; add a numpydoc "
        f"Raises section (after Returns) naming each, with when it is raised:\n{report}"
    )


def public_modules() -> list[str]:
    """Every module of ``rulemodels`` and ``solvers`` with no private part in its dotted name (the packages too)."""
    import rulemodels
    import solvers

    names = []
    for package in (rulemodels, solvers):
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
                  if not any(part.startswith("_") for part in info.name.split("."))]
    return names


def public_enums() -> dict[str, type[enum.Enum]]:
    """Each enum class in the ``__all__`` of a public module, under the first name that exports it."""
    found: dict[str, type[enum.Enum]] = {}
    for name in public_modules():
        module = importlib.import_module(name)
        for attribute in getattr(module, "__all__", ()):
            value = getattr(module, attribute)
            if isinstance(value, enum.EnumMeta) and value not in found.values():
                found[f"{name}.{attribute}"] = value
    return found


def test_public_enums_have_numpydoc_sections_naming_every_member() -> None:
    """An enum's members are its API: its docstring lists each in an Attributes section, with the summary,
    extended summary, See Also and Examples sections numpydoc asks for."""
    enums = public_enums()
    assert {"solvers.TerminationCondition", "rulemodels.algorithms.Termination"} <= set(enums), enums
    failures = {}
    for qualified, cls in enums.items():
        documented = {name.strip() for item in NumpyDocString(inspect.cleandoc(cls.__doc__ or ""))["Attributes"]
                      for name in item.name.split(",")}
        missing = sorted(set(cls.__members__) - documented)
        errors = [code for code, _ in validate(qualified)["errors"] if code in (*CHECKS, "GL08", "ES01", "SA01", "EX01")]
        if missing or errors:
            failures[qualified] = (missing, errors)
    assert not failures, f"document each member in an Attributes section, with the numpydoc sections: {failures}"

