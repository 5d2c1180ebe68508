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

import importlib
import inspect
from collections.abc import Iterator

from numpydoc.validate import validate

FACES = (
    "rulemodels", "rulemodels.rules", "rulemodels.data", "rulemodels.models", "rulemodels.algorithms",
    "rulemodels.experiments", "solvers",
)
CHECKS = ("PR01", "PR02", "RT01")
#: The main entry points, each with an ``Examples`` section (numpydoc EX01); the examples run as doctests.
WITH_EXAMPLES = (
    "rulemodels.BooleanRuleClassifier", "rulemodels.BooleanRuleCV", "rulemodels.FeatureBinarizer",
    "rulemodels.load_dataset", "rulemodels.save_model", "rulemodels.load_model", "rulemodels.rules.to_sql",
    "rulemodels.rules.to_query", "rulemodels.rules.to_python", "rulemodels.report_html", "rulemodels.solve_exact",
    "rulemodels.TrainingWorkspace", "rulemodels.rules.explain_rule", "rulemodels.rules.simplify_rule",
    "solvers.get_backend",
)


def public_objects() -> Iterator[str]:
    """The qualified names to check, each once, in the order of the faces' ``__all__``."""
    seen: set[str] = set()
    for face in FACES:
        module = importlib.import_module(face)
        for name in module.__all__:
            obj = getattr(module, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            names = [f"{face}.{name}"]
            if inspect.isclass(obj):
                names += [
                    f"{face}.{name}.{member}" for member, value in vars(obj).items()
                    if (not member.startswith("_") or member == "__init__")
                    and (inspect.isfunction(value) or isinstance(value, property))
                ]
            for qualified in names:
                if qualified not in seen:
                    seen.add(qualified)
                    yield qualified


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
