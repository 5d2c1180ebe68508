"""rulemodels: interpretable two-level Boolean rules (CNF/DNF) learned with Pyomo.

Public names: :class:`BooleanRuleClassifier` (the estimator),
:class:`BooleanRuleCV` (θ, R and form chosen by cross-validation),
:class:`TrainingWorkspace` (the work several fits on one training set share), the rule values
:class:`Literal`, :class:`Clause`, :class:`Rule`, :class:`FeatureBinarizer`,
:func:`load_dataset` / :func:`list_datasets`, and :func:`solve_exact`.
"""

__version__ = "0.1.0"

from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import list_datasets, load_dataset
from rulemodels.estimator import BooleanRuleClassifier
from rulemodels.exact import solve_exact
from rulemodels.model_selection import BooleanRuleCV
from rulemodels.rules import Clause, Literal, Rule
from rulemodels.workspace import TrainingWorkspace

__all__ = [
    "BooleanRuleCV",
    "BooleanRuleClassifier",
    "Clause",
    "FeatureBinarizer",
    "Literal",
    "Rule",
    "TrainingWorkspace",
    "__version__",
    "list_datasets",
    "load_dataset",
    "solve_exact",
]
