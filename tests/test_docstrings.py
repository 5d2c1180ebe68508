"""Every public name of ``rulemodels`` and ``solvers`` has a numpydoc docstring that documents exactly its signature.

The public names (:func:`public_names`) are:

- every module of ``rulemodels`` and ``solvers`` (the packages included) with no part of its dotted name
  starting with ``_`` (a private module's names are covered where a public module re-exports them);
- every class and function in such a module's ``__all__`` (or, for a module without ``__all__``, the public
  classes and functions it defines itself); data (constants, type aliases) has no docstring of its own to check;
- every public method, property, classmethod and staticmethod of those classes, ``__call__`` included, defined
  in the class or in a base class of the project (members inherited from scikit-learn, ``enum``, ``typing``,
  ``object``, ... are theirs, not ours).

Each object is checked once, under the first name that reaches it. numpydoc's validation reports none of
:data:`CHECKS` for any of them: GL08 (no docstring), PR01 (a parameter of the signature not documented),
PR02 (a documented parameter not in the signature), PR07 (a parameter without a description), RT01 (no
``Returns`` section in a function that returns a value), RT03 (a returned value without a description),
SS05 (a summary starting with a third-person verb, "Returns" for "Return") and YD01 (no ``Yields`` section
in a generator). The conventions:

- ``__init__`` follows numpydoc's convention: the class docstring documents the constructor's parameters in
  its ``Parameters`` section (the class's own PR01/PR02 compare it with the constructor's signature), so an
  ``__init__`` without a docstring of its own is not checked (one with a docstring is);
- a dataclass or a NamedTuple documents its fields in the ``Parameters`` section of its class docstring (they
  are its constructor's parameters); the fields themselves are not callables and are not checked one by one;
- an enum's members are listed in its ``Attributes`` section
  (:func:`test_public_enums_have_numpydoc_sections_naming_every_member`);
- a ``typing.Protocol`` (or a class deriving from one without an ``__init__`` of its own) is never
  constructed: it has no constructor parameters to document, so its class docstring is checked without
  PR01/PR02; its methods are the protocol's specification and are checked like any other;
- a method that overrides a method of a project base class (or protocol) is checked too, with its own
  docstring: autodoc would show the base's, but numpydoc's validation in the docs build reads the object's own
  ``__doc__`` (GL08 without one);
- a member made conditional by scikit-learn's ``available_if`` (``BooleanRuleCV.predict_proba``) is checked
  as the method it wraps;
- a function named like its module (``rulemodels.algorithms.column_generation``) is checked as the function
  (numpydoc would resolve the dotted name to the module).

The main entry points (``WITH_EXAMPLES``) also have an ``Examples`` section (no EX01). The docs build applies
the same checks to the API reference (``numpydoc_validation_checks`` in docs/conf.py). numpydoc comes with the
``dev`` extra.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import pkgutil
import textwrap
import typing
from collections.abc import Iterator, Sequence
from typing import Any

from numpydoc.docscrape import NumpyDocString, get_doc_object
from numpydoc.validate import Validator, validate

from tests.helpers import public_object, public_objects

#: The numpydoc checks every public name passes (docs/conf.py's ``numpydoc_validation_checks`` has the same).
CHECKS = ("GL08", "PR01", "PR02", "PR07", "RT01", "RT03", "SS05", "YD01")
#: The main entry points, each with an ``Examples`` section (numpydoc EX01); the examples run as doctests.
WITH_EXAMPLES = (
    "rulemodels.BooleanRuleClassifier", "rulemodels.BooleanRuleCV", "rulemodels.FeatureBinarizer",
    "rulemodels.load_dataset", "rulemodels.save_model", "rulemodels.load_model", "rulemodels.rules.to_sql",
    "rulemodels.rules.to_query", "rulemodels.rules.to_python", "rulemodels.report_html", "rulemodels.solve_exact",
    "rulemodels.TrainingWorkspace", "rulemodels.rules.explain_rule", "rulemodels.rules.simplify_rule",
    "solvers.get_backend",
)


#: The packages whose objects are the project's own (a member inherited from anywhere else is not checked).
PROJECT = ("rulemodels", "solvers")


def _is_ours(obj: Any) -> bool:
    return (getattr(obj, "__module__", None) or "").split(".")[0] in PROJECT


def _constructed_by_protocol(cls: type) -> bool:
    """Whether ``cls`` is a protocol, or derives from one without a constructor of its own: never constructed."""
    if typing.Protocol not in cls.__mro__:
        return False
    init = next((vars(klass)["__init__"] for klass in cls.__mro__ if "__init__" in vars(klass)), None)
    return not (inspect.isfunction(init) and _is_ours(init))


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods, properties, classmethods and staticmethods of ``cls`` (and ``__init__``,
    ``__call__``), each with the object numpydoc reads, defined in ``cls`` or a project base class."""
    seen: set[str] = set()
    for klass in cls.__mro__:
        if not _is_ours(klass):
            continue
        for member, value in vars(klass).items():
            if member in seen or (member.startswith("_") and member not in ("__init__", "__call__")):
                continue
            seen.add(member)
            function = value.__func__ if isinstance(value, classmethod | staticmethod) else value
            if type(value).__name__ == "_AvailableIfDescriptor":  # scikit-learn's available_if: the method it wraps
                function = value.fn
            if not (inspect.isfunction(function) or isinstance(function, property)):
                continue
            if member == "__init__" and not function.__doc__:
                continue  # the class docstring documents the constructor (numpydoc's convention)
            yield member, function


def public_names() -> dict[str, list[str]]:
    """Every public name (see the module's docstring), each object once, with the checks it is exempt from."""
    found: dict[str, list[str]] = {}
    seen: set[int] = set()

    def add(qualified: str, obj: Any, exempt: list[str]) -> None:
        if id(obj) not in seen:
            seen.add(id(obj))
            found[qualified] = exempt

    for module_name in public_modules():
        module = importlib.import_module(module_name)
        exported = getattr(module, "__all__", None)
        if exported is None:
            exported = [name for name, value in vars(module).items() if not name.startswith("_")
                        and (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__ == module_name]
        for name in exported:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not _is_ours(obj):
                continue
            if inspect.isfunction(obj):
                add(f"{module_name}.{name}", obj, [])
                continue
            add(f"{module_name}.{name}", obj, ["PR01", "PR02"] if _constructed_by_protocol(obj) else [])
            for member, function in _members(obj):
                add(f"{module_name}.{name}.{member}", function, [])
    return found


def docstring_errors(qualified: str, exempt: Sequence[str] = ()) -> list[str]:
    """numpydoc's messages of :data:`CHECKS` for one object, but those it is ``exempt`` from."""
    target: Any = qualified
    if inspect.ismodule(Validator._load_obj(qualified)) and "." in qualified:
        parent, _, name = qualified.rpartition(".")
        function = getattr(importlib.import_module(parent), name, None)
        if inspect.isfunction(function):  # a function named like its module: the function, as the build does
            target = get_doc_object(function)
    return [f"{code} {message}" for code, message in validate(target)["errors"]
            if code in CHECKS and code not in exempt]


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
    assert docstring_errors(f"{__name__}._example_with_undocumented_parameter"), "the checks see the errors"
    assert "undocumented" in errors.get("PR01", ""), errors
    assert "missing" in errors.get("PR02", ""), errors


def test_the_collection_reaches_every_public_name() -> None:
    names = public_names()
    assert len(names) > 480, f"found only {len(names)} public names: the collection is broken"
    expected = {
        "rulemodels.BooleanRuleClassifier.fit",  # a face's class and its methods
        "rulemodels.algorithms.cg_sums.row_sums",  # a public module's function
        "rulemodels.Rule.from_dict",  # a classmethod
        "solvers.Backend.solve",  # a protocol's method
        "rulemodels.algorithms.mip_progress.MipReporter.__call__",
    }
    assert expected <= set(names), sorted(expected - set(names))
    assert not any(name.endswith(".set_fit_request") for name in names), "scikit-learn's members are not ours"
    assert not any("._" in name.replace("__init__", "").replace("__call__", "") for name in names)
    overrides = [name for name in names if name.endswith("Backend.solve") and name != "solvers.Backend.solve"]
    assert overrides, "an override (BackendBase.solve) is checked with its own docstring"
    assert "rulemodels.BooleanRuleCV.predict_proba" in names, "an available_if member is checked"


def test_a_function_named_like_its_module_is_checked_as_the_function() -> None:
    import rulemodels.algorithms as algorithms

    assert inspect.isfunction(algorithms.column_generation)
    assert "rulemodels.algorithms.column_generation" in public_names()
    assert not docstring_errors("rulemodels.algorithms.column_generation")
    assert validate("rulemodels.algorithms.column_generation")["type"] == "module", "numpydoc itself sees the module"


def test_public_docstrings_pass_numpydoc_validation() -> None:
    failures = {name: errors for name, exempt in public_names().items() if (errors := docstring_errors(name, exempt))}
    report = "\n".join(f"  {name}: {'; '.join(errors)}" for name, errors in failures.items())
    assert not failures, (
        f"{len(failures)} public docstrings fail numpydoc's validation ({', '.join(CHECKS)}); document each "
        f"parameter in the docstring's Parameters section with its type and a description (a class's "
        f"constructor and a dataclass's fields in the class docstring), remove the ones the signature lacks, "
        f"describe a returned value in a Returns section (a generator's in Yields), and start the summary with "
        f"an infinitive verb (\"Return\", not \"Returns\"):\n{report}"
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

