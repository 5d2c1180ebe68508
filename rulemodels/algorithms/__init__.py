"""Learning algorithms (paper section 4, and column generation) on persistent Pyomo models.

Drivers are handed a :class:`ClauseEngine` (one fit's view of an
:class:`LPSolutionCache`); they never import a solver and never rebuild a
model inside their loops. :func:`learn` runs any driver on a cache;
:class:`TrainingWorkspace` (a raw training set: binarization, one cache per
form) and :func:`solve_exact` (the exact MIPs) return the one learned-rule
type, :class:`LearnedRule`. :class:`FitSpec` is the recipe of one fit (every
setting but the data); :class:`RuleConstraints` holds its domain constraints
(``docs/constraints.md``).
"""

from rulemodels.algorithms.alternating import alternating_minimization, assign_negatives
from rulemodels.algorithms.bcd import bcd_weights, block_coordinate_descent
from rulemodels.algorithms.column_generation import CGSettings, column_generation, column_generation_path
from rulemodels.algorithms.constraints import HookInfo, RuleConstraints
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.engine import ClauseEngine, EngineStats, SolveBudgetExceeded
from rulemodels.algorithms.exact import ExactSolveError, prepare_problem, solve_exact, solve_exact_problem
from rulemodels.algorithms.lp_cache import LPSolutionCache, choose_formulation
from rulemodels.algorithms.result import ExactInfo, FitResult, LearnedRule, Termination, TimeLimitWarning
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, non_redundant_combinations, simple_binarize
from rulemodels.algorithms.run import ALGORITHMS, learn
from rulemodels.algorithms.set_cover import set_cover
from rulemodels.algorithms.spec import FitSpec
from rulemodels.algorithms.tlp import two_level_lp
from rulemodels.algorithms.training import TrainingWorkspace, default_binarizer

__all__ = [
    "ALGORITHMS",
    "CGSettings",
    "ClauseEngine",
    "EngineStats",
    "ExactInfo",
    "ExactSolveError",
    "FitResult",
    "FitSpec",
    "HookInfo",
    "LPSolutionCache",
    "LearnedRule",
    "RedundancyAwareBinarizer",
    "RuleConstraints",
    "SolveBudgetExceeded",
    "Termination",
    "TimeLimitWarning",
    "TrainingWorkspace",
    "WorkingData",
    "alternating_minimization",
    "assign_negatives",
    "bcd_weights",
    "block_coordinate_descent",
    "choose_formulation",
    "column_generation",
    "column_generation_path",
    "default_binarizer",
    "learn",
    "non_redundant_combinations",
    "prepare_problem",
    "set_cover",
    "simple_binarize",
    "solve_exact",
    "solve_exact_problem",
    "two_level_lp",
]
