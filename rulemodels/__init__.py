"""rulemodels: interpretable two-level Boolean rules (CNF/DNF) learned with Pyomo.

Public names: :class:`BooleanRuleClassifier` (the estimator),
:class:`BooleanRuleCV` (θ, R and form chosen by cross-validation),
:class:`TrainingWorkspace` (the work several fits on one training set share), the rule values
:class:`Literal`, :class:`Clause`, :class:`Rule`, :class:`FeatureBinarizer`,
:class:`RuleList`, and the warnings a fit or a prediction may give:
:class:`TrivialRuleWarning` (the rule is no better than the majority class),
:class:`WeakLiteralWarning` (a literal rests on fewer training rows than a literal costs),
:class:`TimeLimitWarning` (a solve stopped at its time limit),
:class:`IDLikeColumnWarning` (a column looks like a row identifier),
:class:`AllMissingColumnWarning` (a column is missing in every training row),
:class:`HeaderLooksLikeDataWarning` (a CSV header looks like a data row),
:class:`ColumnKindDriftWarning` (a column's values drifted from the kind learned),
:class:`UnseenCategoryWarning` (a new category in a two-valued column the rule reads as an equality),
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

# The public names, each from the module that defines it (`NAME as NAME`: an explicit re-export): imports
# for type checkers and IDEs, and the table of what __getattr__ imports on first use (lazy_exports reads it).
if TYPE_CHECKING:  # pragma: no cover - never runs
    from rulemodels.algorithms.baseline import TrivialRuleWarning as TrivialRuleWarning
    from rulemodels.algorithms.baseline import WeakLiteralWarning as WeakLiteralWarning
    from rulemodels.algorithms.exact import solve_exact as solve_exact
    from rulemodels.algorithms.result import TimeLimitWarning as TimeLimitWarning
    from rulemodels.algorithms.training import TrainingWorkspace as TrainingWorkspace
    from rulemodels.data import AllMissingColumnWarning as AllMissingColumnWarning
    from rulemodels.data import FeatureBinarizer as FeatureBinarizer
    from rulemodels.data import HeaderLooksLikeDataWarning as HeaderLooksLikeDataWarning
    from rulemodels.data import IDLikeColumnWarning as IDLikeColumnWarning
    from rulemodels.datasets import list_datasets as list_datasets
    from rulemodels.datasets import load_dataset as load_dataset
    from rulemodels.datasets import make_rule_data as make_rule_data
    from rulemodels.estimator import BooleanRuleClassifier as BooleanRuleClassifier
    from rulemodels.model_selection import BooleanRuleCV as BooleanRuleCV
    from rulemodels.report import report_html as report_html
    from rulemodels.rules import Clause as Clause
    from rulemodels.rules import ColumnKindDriftWarning as ColumnKindDriftWarning
    from rulemodels.rules import Literal as Literal
    from rulemodels.rules import Rule as Rule
    from rulemodels.rules import RuleFormatError as RuleFormatError
    from rulemodels.rules import RuleList as RuleList
    from rulemodels.rules import UnseenCategoryWarning as UnseenCategoryWarning
    from rulemodels.rules import load_model as load_model
    from rulemodels.rules import save_model as save_model
    from rulemodels.utils._version import __version__ as __version__

__getattr__, __dir__ = lazy_exports(__name__)
__all__ = __dir__()  # the names above, sorted
