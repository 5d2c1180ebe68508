"""Declarative Pyomo models of the paper (builders never solve).

- :func:`build_clause_lp`: one-level clause LP (eqs. OneLevelFormulation-Wj)
- :func:`build_clause_dual_lp`: its LP dual (the engine solves it for tall data)
- :func:`build_zero_one`: two-level 0-1 error MIP / TLP (eq. GeneralLPFormulation)
- :func:`build_hamming`: exact Hamming-distance MIP (eq. HammingFormulation)
"""

from rulemodels.models.clause_lp import (
    build_clause_dual_lp,
    build_clause_lp,
    parameter_changes,
    set_feature_cost,
    set_sample_weight,
    set_theta,
)
from rulemodels.models.extract import (
    clause_weights,
    is_integral,
    objective_breakdown,
    rule_from_model,
    two_level_weights,
)
from rulemodels.models.hamming import build_hamming
from rulemodels.models.objectives import clause_sums, hamming_objective, sparsity_cost, zero_one_objective
from rulemodels.models.problem import CNFProblem
from rulemodels.models.zero_one import build_zero_one, sparsity_changes

__all__ = [
    "CNFProblem",
    "build_clause_dual_lp",
    "build_clause_lp",
    "build_hamming",
    "build_zero_one",
    "clause_sums",
    "clause_weights",
    "hamming_objective",
    "is_integral",
    "objective_breakdown",
    "parameter_changes",
    "rule_from_model",
    "set_feature_cost",
    "set_sample_weight",
    "set_theta",
    "sparsity_changes",
    "sparsity_cost",
    "two_level_weights",
    "zero_one_objective",
]
