"""Learning algorithms (paper section 4) on persistent Pyomo models.

Drivers are handed a :class:`ClauseEngine` (one fit's view of a
:class:`ProblemWorkspace`); they never import a solver and never rebuild a
model inside their loops.
"""

from rulemodels.algorithms.alternating import alternating_minimization, assign_negatives
from rulemodels.algorithms.bcd import bcd_weights, block_coordinate_descent
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.engine import ClauseEngine, EngineStats, SolveBudgetExceeded
from rulemodels.algorithms.result import FitResult
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, non_redundant_combinations, simple_binarize
from rulemodels.algorithms.run import ALGORITHMS, learn, learn_cnf
from rulemodels.algorithms.set_cover import set_cover
from rulemodels.algorithms.tlp import two_level_lp
from rulemodels.algorithms.workspace import ProblemWorkspace, choose_formulation

__all__ = [
    "ALGORITHMS",
    "ClauseEngine",
    "EngineStats",
    "FitResult",
    "ProblemWorkspace",
    "RedundancyAwareBinarizer",
    "SolveBudgetExceeded",
    "WorkingData",
    "alternating_minimization",
    "assign_negatives",
    "bcd_weights",
    "block_coordinate_descent",
    "choose_formulation",
    "learn",
    "learn_cnf",
    "non_redundant_combinations",
    "set_cover",
    "simple_binarize",
    "two_level_lp",
]
