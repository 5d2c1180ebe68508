"""rulemodels: interpretable two-level Boolean rules (CNF/DNF) learned with Pyomo.

Public names: :class:`BooleanRuleClassifier` (the estimator),
:class:`BooleanRuleCV` (θ, R and form chosen by cross-validation),
:class:`TrainingWorkspace` (the work several fits on one training set share), the rule values
:class:`Literal`, :class:`Clause`, :class:`Rule`, :class:`FeatureBinarizer`,
:class:`RuleList`, and the warnings a fit or a prediction may give:
:class:`TrivialRuleWarning` (the rule is no better than the majority class),
:class:`TimeLimitWarning` (a solve stopped at its time limit),
:class:`IDLikeColumnWarning` (a column looks like a row identifier),
:class:`AllMissingColumnWarning` (a column is missing in every training row),
:class:`HeaderLooksLikeDataWarning` (a CSV header looks like a data row),
:class:`ColumnKindDriftWarning` (a column's values drifted from the kind learned),
:class:`RuleFormatError`, :func:`load_model` / :func:`save_model` (model files),
:func:`load_dataset` / :func:`list_datasets`, :func:`make_rule_data` (synthetic data of any size), :func:`solve_exact`,
and :func:`report_html` (a self-contained HTML report of a rule for a reviewer). The rule's
exports and tools (``to_sql(rule)``, ``explain_rule``, ...) are in :mod:`rulemodels.rules`.

The names are imported on first use (PEP 562), so ``import rulemodels`` and
the command line's ``--help`` and ``predict`` load neither Pyomo nor
scikit-learn.
"""

from __future__ import annotations

from solvers.lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (milliseconds of `import rulemodels`)

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "AllMissingColumnWarning": "rulemodels.data",
    "BooleanRuleCV": "rulemodels.model_selection",
    "BooleanRuleClassifier": "rulemodels.estimator",
    "Clause": "rulemodels.rules",
    "ColumnKindDriftWarning": "rulemodels.rules",
    "FeatureBinarizer": "rulemodels.data",
    "HeaderLooksLikeDataWarning": "rulemodels.data",
    "IDLikeColumnWarning": "rulemodels.data",
    "Literal": "rulemodels.rules",
    "Rule": "rulemodels.rules",
    "RuleList": "rulemodels.rules",
    "RuleFormatError": "rulemodels.rules",
    "TimeLimitWarning": "rulemodels.algorithms.result",
    "TrainingWorkspace": "rulemodels.algorithms.training",
    "TrivialRuleWarning": "rulemodels.algorithms.baseline",
    "__version__": "rulemodels.utils._version",  # the installed version, from the package metadata
    "list_datasets": "rulemodels.datasets",
    "load_dataset": "rulemodels.datasets",
    "load_model": "rulemodels.rules",
    "make_rule_data": "rulemodels.datasets",
    "report_html": "rulemodels.report",
    "save_model": "rulemodels.rules",
    "solve_exact": "rulemodels.algorithms.exact",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from rulemodels.algorithms.baseline import TrivialRuleWarning
    from rulemodels.algorithms.exact import solve_exact
    from rulemodels.algorithms.result import TimeLimitWarning
    from rulemodels.algorithms.training import TrainingWorkspace
    from rulemodels.data import (
        AllMissingColumnWarning,
        FeatureBinarizer,
        HeaderLooksLikeDataWarning,
        IDLikeColumnWarning,
    )
    from rulemodels.datasets import list_datasets, load_dataset, make_rule_data
    from rulemodels.estimator import BooleanRuleClassifier
    from rulemodels.model_selection import BooleanRuleCV
    from rulemodels.report import report_html
    from rulemodels.rules import (
        Clause,
        ColumnKindDriftWarning,
        Literal,
        Rule,
        RuleFormatError,
        RuleList,
        load_model,
        save_model,
    )
    from rulemodels.utils._version import __version__

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
