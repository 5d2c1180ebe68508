"""Declarative Pyomo models of the paper (builders never solve).

- :func:`build_clause_lp`: one-level clause LP (eqs. (2.1) OneLevelFormulation - (2.4) OneLevelFormulationWj)
- :func:`build_clause_dual_lp`: its LP dual (the engine solves it for tall data)
- :func:`build_zero_one`: two-level 0-1 error MIP / TLP (eq. (4.14) GeneralLPFormulation)
- :func:`build_hamming`: exact Hamming-distance MIP (eq. (3.10) HammingFormulation)
- :func:`build_cg_master`, :func:`build_cg_pricing`: column generation's restricted
  master LP and pricing MIP (Dash, Günlük & Wei 2018; :mod:`rulemodels.models.column_generation`)

Builders return a typed handle (:class:`ClauseLP`, :class:`TwoLevelModel`):
its ``model`` is the Pyomo model (``handle.model.pprint()`` reads like the
paper), and its methods change the mutable Params in place and report the
new numbers for an in-place re-solve, read from the Params themselves.
Equation numbers are those printed in the paper's PDF, followed by the
LaTeX label.
"""

from rulemodels.models._build import TwoLevelModel
from rulemodels.models._data import unique_rows
from rulemodels.models.clause_lp import ClauseLP, build_clause_dual_lp, build_clause_lp, tie_break_costs
from rulemodels.models.column_generation import (
    CGMaster,
    CGPricing,
    ClauseColumns,
    build_cg_master,
    build_cg_pricing,
    prepare_cg_data,
)
from rulemodels.models.extract import (
    clause_weights,
    is_integral,
    objective_breakdown,
    rule_from_model,
    two_level_weights,
)
from rulemodels.models.hamming import build_hamming
from rulemodels.models.objectives import clause_sums, hamming_objective, row_products, sparsity_cost, zero_one_objective
from rulemodels.models.problem import CNFProblem
from rulemodels.models.zero_one import build_zero_one

__all__ = [
    "CGMaster",
    "CGPricing",
    "CNFProblem",
    "ClauseColumns",
    "ClauseLP",
    "TwoLevelModel",
    "build_clause_dual_lp",
    "build_cg_master",
    "build_cg_pricing",
    "build_clause_lp",
    "build_hamming",
    "build_zero_one",
    "clause_sums",
    "clause_weights",
    "hamming_objective",
    "is_integral",
    "objective_breakdown",
    "prepare_cg_data",
    "row_products",
    "rule_from_model",
    "sparsity_cost",
    "tie_break_costs",
    "two_level_weights",
    "unique_rows",
    "zero_one_objective",
]
