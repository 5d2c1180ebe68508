"""The minimal-Hamming-distance model (paper eqs. HammingFormulation / HammingFormulationBothVW).

The accuracy cost of a sample is the smallest number of ``w_jr`` flips that
would make the CNF classify it correctly:

.. math::

    \\min\\ \\sum_i \\omega_i \\eta_i + \\theta \\sum_r \\sum_j c_j w_{jr}

    \\eta_i = \\sum_r \\max\\{0, 1 - \\sum_j a_{ij} w_{jr}\\} \\quad (y_i = 1)

    \\eta_i = \\min_r \\sum_j a_{ij} w_{jr} \\quad (y_i = 0,\\ \\text{eq. HammingFormulationCostNegative})

The exact MIP linearises both: ``xi[i,r] >= 1 - Σ_j a_ij w_jr`` for positives,
and for negatives a binary assignment ``z[i,r]`` (``Σ_r z_ir = 1``) choosing the
clause r_0 that must reject sample i (``v_{i,r_0} = 0`` in eq.
HammingFormulationBothVW, eq. def-r0), with
``eta_i >= Σ_j a_ij w_jr − M_i (1 − z_ir)`` and ``M_i = Σ_j a_ij`` (+1 with the
always-true feature), the largest value the clause sum can take.
This is the objective BCD and AM decrease; the exact MIP is for small data.
"""

from __future__ import annotations

from typing import Any

import pyomo.environ as pyo

from rulemodels.models._data import prepare_data
from rulemodels.models._pyomo import linear_sum
from rulemodels.models.zero_one import _check_clauses, _declare_common, _sparsity

__all__ = ["build_hamming"]


def build_hamming(
    A: Any,
    y: Any,
    n_clauses: int,
    *,
    theta: float = 0.01,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    relax: bool = False,
    merge_identical: bool = True,
) -> pyo.ConcreteModel:
    """Build (not solve) the exact Hamming-distance MIP for a CNF with ``n_clauses`` clauses.

    Parameters are those of :func:`~rulemodels.models.zero_one.build_zero_one`.
    ``relax=True`` relaxes ``w`` and ``z`` to [0, 1] (a weak bound, for study only:
    the paper notes the continuous problem is non-convex, so the big-M LP is loose).

    Returns
    -------
    ConcreteModel with ``J``, ``K``, ``P``, ``N``, ``w``, ``xi`` (positives × clauses),
    ``eta`` (negatives), ``z`` (assignment), ``bigM``, ``pos_cost``, ``assign_one``,
    ``neg_cost``, ``accuracy_cost``, ``sparsity_cost``, ``objective``.
    """
    n_clauses = _check_clauses(n_clauses)
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    groups, group_weight = data.groups, data.group_weight
    indptr, indices = groups.patterns.indptr, groups.patterns.indices
    has_w0 = disable_cost is not None

    m = pyo.ConcreteModel(name="hamming_mip")
    _declare_common(m, data.n_features, n_clauses, groups, data.costs, theta, relax, disable_cost)
    m.N = pyo.Set(initialize=groups.negatives.tolist(), doc="samples with y_i = 0 (groups of identical rows)")
    m.weight = pyo.Param(
        m.P | m.N, initialize={int(i): float(group_weight[i]) for i in (*groups.positives, *groups.negatives)},
        mutable=True, doc="sample weight ω_i",
    )
    m.bigM = pyo.Param(
        m.N, initialize={int(i): float(indptr[i + 1] - indptr[i] + has_w0) for i in groups.negatives},
        doc="M_i = Σ_j a_ij, the largest clause sum of negative sample i",
    )
    m.xi = pyo.Var(m.P, m.K, domain=pyo.NonNegativeReals, doc="ξ_ir = max{0, 1 − Σ_j a_ij w_jr}: clause r fails positive i")
    m.eta = pyo.Var(m.N, domain=pyo.NonNegativeReals, doc="η_i = min_r Σ_j a_ij w_jr: Hamming cost of negative i (eq. HammingFormulationCostNegative)")
    m.z = pyo.Var(m.N, m.K, domain=pyo.UnitInterval if relax else pyo.Binary, doc="z_ir = 1 if clause r must reject negative i (v_ir = 0, eq. def-r0)")

    def clause_sum(model: pyo.ConcreteModel, i: int, r: int) -> Any:
        terms = [model.w[j, r] for j in indices[indptr[i]:indptr[i + 1]]]
        if has_w0:
            terms.append(model.w0[r])
        return linear_sum(terms)

    m.pos_cost = pyo.Constraint(m.P, m.K, rule=lambda model, i, r: model.xi[i, r] + clause_sum(model, i, r) >= 1, doc="ξ_ir ≥ 1 − Σ_j a_ij w_jr for y_i = 1")
    m.assign_one = pyo.Constraint(m.N, rule=lambda model, i: sum(model.z[i, r] for r in model.K) == 1, doc="Σ_r z_ir = 1: one clause rejects each negative")
    m.neg_cost = pyo.Constraint(
        m.N, m.K, rule=lambda model, i, r: model.eta[i] >= clause_sum(model, i, r) - model.bigM[i] * (1 - model.z[i, r]),
        doc="η_i ≥ Σ_j a_ij w_jr − M_i (1 − z_ir) for y_i = 0",
    )
    m.accuracy_cost = pyo.Expression(
        expr=sum(m.weight[i] * m.xi[i, r] for i in m.P for r in m.K) + sum(m.weight[i] * m.eta[i] for i in m.N),
        doc="Σ_i ω_i η_i (minimal Hamming distance to a correct rule)",
    )
    m.sparsity_cost = pyo.Expression(expr=_sparsity(m), doc="θ Σ_r Σ_j c_j w_jr")
    m.objective = pyo.Objective(expr=m.accuracy_cost + m.sparsity_cost, doc="eq. HammingFormulation")
    m._groups = groups
    return m
