"""The two-level 0-1 error model (paper eq. GeneralLPFormulation) and its LP relaxation TLP.

For a CNF with R clauses, ``v_ir = OR_j a_ij w_jr`` and ``ŷ_i = AND_r v_ir``:

.. math::

    \\min\\ \\sum_i \\omega_i \\psi_i + \\theta \\sum_r \\sum_j c_j w_{jr}

    \\psi_i \\ge 1 - \\sum_j a_{ij} w_{jr} \\quad (y_i = 1,\\ \\forall r)

    \\psi_i \\ge \\sum_r \\beta_{ir} - (R - 1) \\quad (y_i = 0)

    \\beta_{ir} \\ge a_{ij} w_{jr} \\quad (y_i = 0,\\ a_{ij} = 1,\\ \\forall r)

    \\psi_i \\ge 0, \\quad w_{jr} \\in \\{0, 1\\}

With binary ``w`` the optimum has ``ψ_i = |ŷ_i − y_i|`` (eq. StdFormulation):
a positive costs 1 when any clause is 0 (concave interpolation of AND-of-OR),
a negative costs 1 when every clause is 1 (convex interpolation, with
``β_ir`` = the clause output). ``relax=True`` gives TLP, ``0 <= w <= 1``.
Rows ``beta_def`` exist only for the nonzero ``a_ij`` of negative samples.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._data import prepare_data
from rulemodels.models._pyomo import linear_sum

__all__ = ["build_zero_one", "sparsity_changes"]


def build_zero_one(
    A: Any,
    y: Any,
    n_clauses: int,
    *,
    theta: float = 0.01,
    relax: bool = False,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    merge_identical: bool = True,
) -> pyo.ConcreteModel:
    """Build (not solve) the two-level 0-1 error MIP, or TLP with ``relax=True``.

    Parameters
    ----------
    A, y : binary features (n, d) and 0/1 labels (CNF: 1 = all clauses true).
    n_clauses : int
        R, the number of clauses (>= 1).
    theta : float
        Sparsity weight θ (mutable Param).
    relax : bool, default=False
        ``0 <= w <= 1`` (TLP) instead of binary ``w`` (the exact MIP).
    sample_weight, feature_cost : optional
        ω_i (summed over identical rows) and c_j, as in the clause LP.
    disable_cost : float, optional
        Add the always-true feature (variables ``w0[r]``, cost ``c0``): ``w0[r] = 1``
        disables clause r (paper section 3).

    Returns
    -------
    ConcreteModel with ``J``, ``K`` (clauses r), ``P``/``N`` (positive/negative
    sample groups), ``w``, ``psi``, ``beta``, ``pos_error``, ``neg_error``,
    ``beta_def``, ``accuracy_cost``, ``sparsity_cost``, ``objective``.
    """
    n_clauses = _check_clauses(n_clauses)
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    groups, group_weight = data.groups, data.group_weight
    indptr, indices = groups.patterns.indptr, groups.patterns.indices

    m = pyo.ConcreteModel(name="tlp" if relax else "zero_one_mip")
    _declare_common(m, data.n_features, n_clauses, groups, data.costs, theta, relax, disable_cost)
    m.N = pyo.Set(initialize=groups.negatives.tolist(), doc="samples with y_i = 0 (groups of identical rows)")
    m.weight = pyo.Param(
        m.P | m.N, initialize={int(i): float(group_weight[i]) for i in (*groups.positives, *groups.negatives)},
        mutable=True, doc="sample weight ω_i",
    )
    m.psi = pyo.Var(m.P | m.N, domain=pyo.NonNegativeReals, doc="ψ_i: 0-1 error cost of sample i (eq. GeneralLPFormulation)")
    m.beta = pyo.Var(m.N, m.K, bounds=(0, 1), doc="β_ir ≥ output of clause r on negative sample i")

    def clause_sum(model: pyo.ConcreteModel, i: int, r: int) -> Any:
        terms = [model.w[j, r] for j in indices[indptr[i]:indptr[i + 1]]]
        if model.find_component("w0") is not None:
            terms.append(model.w0[r])
        return linear_sum(terms)

    m.pos_error = pyo.Constraint(
        m.P, m.K, rule=lambda model, i, r: model.psi[i] + clause_sum(model, i, r) >= 1,
        doc="ψ_i ≥ 1 − Σ_j a_ij w_jr for y_i = 1, all r",
    )
    m.neg_error = pyo.Constraint(
        m.N, rule=lambda model, i: model.psi[i] >= sum(model.beta[i, r] for r in model.K) - (len(model.K) - 1),
        doc="ψ_i ≥ Σ_r β_ir − (R − 1) for y_i = 0",
    )
    beta_index = [(int(i), int(j), r) for i in groups.negatives for j in indices[indptr[i]:indptr[i + 1]] for r in range(n_clauses)]
    m.beta_def = pyo.Constraint(
        beta_index, rule=lambda model, i, j, r: model.beta[i, r] >= model.w[j, r],
        doc="β_ir ≥ a_ij w_jr for y_i = 0 (rows only where a_ij = 1)",
    )
    if disable_cost is not None:
        m.beta_def0 = pyo.Constraint(m.N, m.K, rule=lambda model, i, r: model.beta[i, r] >= model.w0[r], doc="β_ir ≥ a_i0 w_0r")
    m.accuracy_cost = pyo.Expression(expr=sum(m.weight[i] * m.psi[i] for i in m.P | m.N), doc="Σ_i ω_i ψ_i")
    m.sparsity_cost = pyo.Expression(expr=_sparsity(m), doc="θ Σ_r Σ_j c_j w_jr")
    m.objective = pyo.Objective(expr=m.accuracy_cost + m.sparsity_cost, doc="eq. GeneralLPFormulation")
    m._groups = groups
    m._theta_value = float(theta)
    return m


def _check_clauses(n_clauses: int) -> int:
    if isinstance(n_clauses, bool) or not isinstance(n_clauses, (int, np.integer)) or n_clauses < 1:
        raise ValueError(f"n_clauses must be an integer >= 1, got {n_clauses!r}")
    return int(n_clauses)


def _declare_common(
    m: pyo.ConcreteModel,
    n_features: int,
    n_clauses: int,
    groups: Any,
    costs: np.ndarray,
    theta: float,
    relax: bool,
    disable_cost: float | None,
) -> None:
    """Sets, θ, c and w shared by the two-level models."""
    m.J = pyo.RangeSet(0, n_features - 1, doc="binary features j = 0..d-1")
    m.K = pyo.RangeSet(0, n_clauses - 1, doc="clauses r = 0..R-1")
    m.P = pyo.Set(initialize=groups.positives.tolist(), doc="samples with y_i = 1 (groups of identical rows)")
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="sparsity weight θ")
    m.c = pyo.Param(m.J, initialize=dict(enumerate(costs.tolist())), mutable=True, doc="cost c_j of using feature j")
    domain = pyo.UnitInterval if relax else pyo.Binary
    m.w = pyo.Var(m.J, m.K, domain=domain, doc="w_jr = 1 if feature j is in clause r")
    if disable_cost is not None:
        m.c0 = pyo.Param(initialize=float(disable_cost), mutable=True, doc="cost c_0 of the always-true feature")
        m.w0 = pyo.Var(m.K, domain=domain, doc="w_0r = 1 selects the always-true feature a_i0 = 1: clause r is disabled (section 3)")


def _sparsity(m: pyo.ConcreteModel) -> Any:
    total = m.theta * sum(m.c[j] * m.w[j, r] for j in m.J for r in m.K)
    if m.find_component("w0") is not None:
        total = total + m.theta * m.c0 * sum(m.w0[r] for r in m.K)
    return total


def sparsity_changes(model: pyo.ConcreteModel) -> dict[str, Any]:
    """The objective coefficients ``θ c_j`` of every ``w_jr`` (and ``θ c_0`` of ``w0[r]``), for an in-place re-solve.

    A dict for :class:`solvers.ModelChanges` after :func:`~rulemodels.models.set_theta`
    on a two-level model (θ is the only Param the drivers change there).
    """
    theta = model._theta_value
    variables = [model.w[j, r] for j in model.J for r in model.K]
    costs = np.array([pyo.value(model.c[j]) for j in model.J], dtype=float)
    values = np.repeat(theta * costs, len(model.K))
    if model.find_component("w0") is not None:
        variables += [model.w0[r] for r in model.K]
        values = np.concatenate([values, np.full(len(model.K), theta * float(pyo.value(model.c0)))])
    return {"objective": (variables, values)}
