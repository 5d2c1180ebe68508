"""The minimal-Hamming-distance model (paper eqs. (3.10) HammingFormulation / (3.12) HammingFormulationBothVW).

The accuracy cost of a sample is the smallest number of ``w_jr`` flips that
would make the CNF classify it correctly:

.. math::

    \\min\\ \\sum_i \\omega_i \\eta_i + \\theta \\sum_r \\sum_j c_j w_{jr}

    \\eta_i = \\sum_r \\max\\{0, 1 - \\sum_j a_{ij} w_{jr}\\} \\quad (y_i = 1)

    \\eta_i = \\min_r \\sum_j a_{ij} w_{jr} \\quad (y_i = 0,\\ \\text{eq. (3.11) HammingFormulationCostNegative})

The exact MIP linearises both: ``xi_def``: ``xi[i,r] >= 1 - Σ_j a_ij w_jr`` for positives,
and for negatives a binary assignment ``z[i,r]`` (``Σ_r z_ir = 1``) choosing the
clause r_0 that must reject sample i (``v_{i,r_0} = 0`` in eq.
(3.12) HammingFormulationBothVW, eq. (3.9) def-r0), with
``eta_def``: ``eta_i >= Σ_j a_ij w_jr − M_i (1 − z_ir)`` and ``M_i = Σ_j a_ij`` (+1 with the
always-true feature), the largest value the clause sum can take.
This is the objective BCD and AM decrease; the exact MIP is for small data.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pyomo.environ as pyo

from rulemodels.models._build import TwoLevelModel, build_two_level, clause_sum_rule
from rulemodels.models._data import SampleGroups

__all__ = ["build_hamming"]


def build_hamming(
    A: Any,
    y: Any,
    n_clauses: int,
    *,
    theta: float,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    relax: bool = False,
    merge_identical: bool = True,
    forbidden: Any = None,
    max_literals: int | None = None,
    counted: int | None = None,
) -> TwoLevelModel:
    """Build (not solve) the exact Hamming-distance MIP for a CNF with ``n_clauses`` clauses.

    Parameters are those of :func:`~rulemodels.models.zero_one.build_zero_one`
    (``forbidden`` and ``max_literals`` included).
    ``relax=True`` relaxes ``w`` and ``z`` to [0, 1] (a weak bound, for study only:
    the paper notes the continuous problem is non-convex, so the big-M LP is loose).

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features.
    y : array-like of shape (n,), 0/1
        Labels (CNF: 1 = all clauses true).
    n_clauses : int
        R, the number of clauses (>= 1).
    theta : float
        Sparsity weight θ (mutable Param).
    sample_weight : array-like of shape (n,), optional
        ω_i (summed over identical rows; default 1).
    feature_cost : array-like of shape (d,), optional
        c_j (default 1).
    disable_cost : float, optional
        Add the always-true feature (variables ``w0[r]``, cost ``c0``): ``w0[r] = 1`` disables clause r.
    relax : bool, default=False
        Relax ``w`` and ``z`` to [0, 1] (see above).
    merge_identical : bool, default=True
        One row per group of identical samples (weights summed); False: one row per sample.
    forbidden : sequence of int, optional
        Features j with ``w_jr = 0`` in every clause.
    max_literals : int, optional
        At most this many features per clause.
    counted : int, optional
        How many leading features ``max_literals`` counts (default all).

    Returns
    -------
    TwoLevelModel
        Its ``model`` has ``J``, ``R``, ``P``, ``N``, ``w``, ``xi`` (positives × clauses),
        ``eta`` (negatives), ``z`` (assignment), ``bigM``, ``xi_def``, ``assign_one``,
        ``eta_def``, ``accuracy_cost``, ``sparsity_cost``, ``objective``.
    """
    return build_two_level(
        "hamming_mip", A, y, n_clauses, declare_errors=partial(_declare_errors, relax=relax),
        accuracy_doc="Σ_i ω_i η_i (minimal Hamming distance to a correct rule)", objective_doc="eq. (3.10) HammingFormulation",
        theta=theta, relax=relax, sample_weight=sample_weight, feature_cost=feature_cost, disable_cost=disable_cost,
        merge_identical=merge_identical, forbidden=forbidden, max_literals=max_literals, counted=counted,
    )


def _declare_errors(m: pyo.ConcreteModel, groups: SampleGroups, has_w0: bool, *, relax: bool) -> Any:
    """``bigM``, ``xi``, ``eta``, ``z`` and the constraints defining them; the accuracy term ``Σ_i ω_i η_i``."""
    indptr = groups.patterns.indptr
    m.bigM = pyo.Param(
        m.N, initialize={int(i): float(indptr[i + 1] - indptr[i] + has_w0) for i in groups.negatives},
        doc="M_i = Σ_j a_ij, the largest clause sum of negative sample i",
    )
    m.xi = pyo.Var(m.P, m.R, domain=pyo.NonNegativeReals, doc="ξ_ir = max{0, 1 − Σ_j a_ij w_jr}: clause r fails positive i (eq. (3.10))")
    m.eta = pyo.Var(
        m.N, domain=pyo.NonNegativeReals,
        doc="η_i = min_r Σ_j a_ij w_jr: Hamming cost of negative i (eq. (3.11) HammingFormulationCostNegative)",
    )
    m.z = pyo.Var(
        m.N, m.R, domain=pyo.UnitInterval if relax else pyo.Binary,
        doc="z_ir = 1 if clause r must reject negative i (v_ir = 0, eq. (3.9) def-r0)",
    )
    clause_sum = clause_sum_rule(groups, has_w0)

    m.xi_def = pyo.Constraint(
        m.P, m.R, rule=lambda model, i, r: model.xi[i, r] + clause_sum(model, i, r) >= 1,
        doc="ξ_ir ≥ 1 − Σ_j a_ij w_jr for y_i = 1",
    )
    m.assign_one = pyo.Constraint(
        m.N, rule=lambda model, i: sum(model.z[i, r] for r in model.R) == 1,
        doc="Σ_r z_ir = 1: one clause rejects each negative",
    )
    m.eta_def = pyo.Constraint(
        m.N, m.R, rule=lambda model, i, r: model.eta[i] >= clause_sum(model, i, r) - model.bigM[i] * (1 - model.z[i, r]),
        doc="η_i ≥ Σ_j a_ij w_jr − M_i (1 − z_ir) for y_i = 0",
    )
    return sum(m.weight[i] * m.xi[i, r] for i in m.P for r in m.R) + sum(m.weight[i] * m.eta[i] for i in m.N)
