"""The one-level clause LP (Malioutov & Varshney 2013; paper eqs. OneLevelFormulation-Wj).

One disjunctive clause ``v_i = OR_j a_ij w_j`` is learned by

.. math::

    \\min_{w,\\xi}\\ \\sum_{i: y_i=1} \\omega_i \\xi_i
        + \\sum_{i: y_i=0} \\omega_i \\sum_j a_{ij} w_j
        + \\theta \\sum_j c_j w_j

    \\text{s.t. } \\xi_i \\ge 1 - \\sum_j a_{ij} w_j,\\ \\xi_i \\ge 0 \\quad (y_i = 1),
    \\qquad 0 \\le w_j \\le 1

(hinge cost on the samples the clause must cover, eq. OneLevelFormulationPositiveSamples;
linear cost on the samples it must not cover, eq. OneLevelFormulationNegativeSamples;
``w_j`` binary with ``integer=True``, eq. OneLevelFormulationWj). ``omega_i`` are
sample weights; weight 0 removes a sample. The linear cost of the negatives is
aggregated into one mutable coefficient per feature,
``neg_cost[j] = sum_{i: y_i=0} omega_i a_ij``, computed with numpy, so the
objective has d Param terms instead of one per (sample, feature).

It is the building block of set covering, BCD and AM: their drivers build it
once per clause and re-solve it after :func:`set_sample_weight`,
:func:`set_theta` or :func:`set_feature_cost`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._data import as_feature_costs, as_weights, check_nonnegative, prepare_data
from rulemodels.models._pyomo import assign_changed, linear_sum

__all__ = ["build_clause_dual_lp", "build_clause_lp", "parameter_changes", "set_feature_cost", "set_sample_weight", "set_theta"]


def build_clause_lp(
    A: Any,
    y: Any,
    *,
    theta: float = 0.01,
    sample_weight: Any = None,
    feature_cost: Any = None,
    integer: bool = False,
    disable_cost: float | None = None,
    merge_identical: bool = True,
) -> pyo.ConcreteModel:
    """Build (not solve) the one-level clause LP for binary ``A`` and labels ``y``.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features ``a_ij``.
    y : array-like of shape (n,), 0/1
        1 for samples the clause must cover (output 1), 0 for samples it must reject.
    theta : float, default=0.01
        Sparsity weight θ (mutable Param ``theta``).
    sample_weight : array-like of shape (n,), optional
        Weights ``ω_i >= 0`` (default 1); mutable through :func:`set_sample_weight`.
    feature_cost : array-like of shape (d,), optional
        Per-feature costs ``c_j`` (default 1); mutable Param ``c``.
    integer : bool, default=False
        Binary ``w`` (the MIP) instead of ``0 <= w <= 1`` (the LP).
    disable_cost : float, optional
        Add the always-true feature ``a_i0 = 1`` (paper section 3) as variable
        ``w0`` with cost ``c_0 = disable_cost``; ``w0 = 1`` makes the clause
        constant 1 (disabled in a CNF).
    merge_identical : bool, default=True
        Build one hinge row per group of identical positive samples (weights summed).

    Returns
    -------
    pyomo.environ.ConcreteModel
        Components: ``J`` (features), ``P`` (positive sample groups), ``w``,
        ``xi``, ``theta``, ``c``, ``weight`` (summed ω of each positive group),
        ``neg_cost``, ``cover``, ``accuracy_cost``, ``sparsity_cost``, ``objective``;
        with ``disable_cost``: ``w0``, ``c0``, ``neg_weight_total``.
    """
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    m = pyo.ConcreteModel(name="clause_lp")
    _add_data(m, data, theta, disable_cost)
    domain = pyo.Binary if integer else pyo.UnitInterval
    m.w = pyo.Var(m.J, domain=domain, doc="w_j = 1 if feature j is in the clause (eq. OneLevelFormulationWj)")
    m.xi = pyo.Var(m.P, domain=pyo.NonNegativeReals, doc="ξ_i: hinge cost of positive sample i (eq. OneLevelFormulationPositiveSamples)")
    if disable_cost is not None:
        m.w0 = pyo.Var(domain=domain, doc="w_0 = 1 selects the always-true feature a_i0 = 1: the clause is disabled (section 3)")

    groups = data.groups
    indptr, indices = groups.patterns.indptr, groups.patterns.indices
    always_true = [m.w0] if disable_cost is not None else []

    def cover_rule(model: pyo.ConcreteModel, p: int) -> Any:
        covered = linear_sum([model.w[j] for j in indices[indptr[p]:indptr[p + 1]]] + always_true)
        return model.xi[p] + covered >= 1

    m.cover = pyo.Constraint(m.P, rule=cover_rule, doc="ξ_i ≥ 1 − Σ_j a_ij w_j for y_i = 1 (eq. OneLevelFormulationPositiveSamples)")
    accuracy = sum(m.weight[p] * m.xi[p] for p in m.P) + sum(m.neg_cost[j] * m.w[j] for j in m.J)
    sparsity = m.theta * sum(m.c[j] * m.w[j] for j in m.J)
    if disable_cost is not None:
        accuracy = accuracy + m.neg_weight_total * m.w0
        sparsity = sparsity + m.theta * m.c0 * m.w0
    m.accuracy_cost = pyo.Expression(expr=accuracy, doc="Σ_{y_i=1} ω_i ξ_i + Σ_{y_i=0} ω_i Σ_j a_ij w_j")
    m.sparsity_cost = pyo.Expression(expr=sparsity, doc="θ Σ_j c_j w_j")
    m.objective = pyo.Objective(
        expr=m.accuracy_cost + m.sparsity_cost, sense=pyo.minimize, doc="eq. OneLevelFormulation"
    )
    m._w_vars = list(m.w.values())  # in the order of J, for clause_weights
    # One list object for the objective's variables, so a backend can keep its column indices.
    m._objective_vars = [m.xi[int(p)] for p in data.groups.positives] + m._w_vars + ([m.w0] if disable_cost is not None else [])
    return m


def build_clause_dual_lp(
    A: Any,
    y: Any,
    *,
    theta: float = 0.01,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    merge_identical: bool = True,
) -> pyo.ConcreteModel:
    """Build the LP dual of the one-level clause LP; its constraint duals are the clause ``w``.

    Same data, Params and ``set_*`` functions as :func:`build_clause_lp`
    (without ``integer``), for the other side of the same LP:

    .. math::

        \\max_{u, v}\\ \\sum_{i: y_i=1} u_i - \\sum_j v_j
        \\quad\\text{s.t. } \\sum_{i: y_i=1} a_{ij} u_i - v_j
            \\le \\sum_{i: y_i=0} \\omega_i a_{ij} + \\theta c_j \\ (\\forall j),
        \\qquad 0 \\le u_i \\le \\omega_i,\\ v_j \\ge 0

    ``u_i`` is the dual of sample i's cover constraint (ξ_i ≥ 1 − Σ_j a_ij w_j),
    ``v_j`` the dual of ``w_j ≤ 1``, and the dual of constraint ``price[j]``
    is ``w_j``: :func:`~rulemodels.models.clause_weights` reads it from the
    model's ``dual`` Suffix. By LP duality both optima are equal.

    The primal has one row per positive sample and d + #positives columns;
    the dual has d rows. When positives far outnumber features HiGHS solves
    the dual much faster: on 100,000 samples × 144 features, 3.1 s instead
    of 40 s (the first clause LP of a DNF fit), and a whole AM fit took 140 s
    instead of 500 s (``benchmarks/bench_scaling.py``). The clause engine
    therefore uses it for tall problems.
    """
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    m = pyo.ConcreteModel(name="clause_dual_lp")
    _add_data(m, data, theta, disable_cost)
    m.u = pyo.Var(
        m.P, domain=pyo.NonNegativeReals, bounds=lambda model, p: (0, model.weight[p]),
        doc="u_i ∈ [0, ω_i]: dual of the cover constraint of positive sample i",
    )
    m.v = pyo.Var(m.J, domain=pyo.NonNegativeReals, doc="v_j ≥ 0: dual of w_j ≤ 1")
    if disable_cost is not None:
        m.v0 = pyo.Var(domain=pyo.NonNegativeReals, doc="v_0 ≥ 0: dual of w_0 ≤ 1")

    patterns = data.groups.patterns[data.groups.positives].tocsc()
    indptr, indices = patterns.indptr, patterns.indices
    positives = data.groups.positives

    def price_rule(model: pyo.ConcreteModel, j: int) -> Any:
        covering = linear_sum([model.u[int(p)] for p in positives[indices[indptr[j]:indptr[j + 1]]]])
        return covering - model.v[j] <= model.neg_cost[j] + model.theta * model.c[j]

    m.price = pyo.Constraint(
        m.J, rule=price_rule,
        doc="Σ_{y_i=1} a_ij u_i − v_j ≤ Σ_{y_i=0} ω_i a_ij + θ c_j: dual of w_j, whose dual value is w_j",
    )
    gain = sum(m.u[p] for p in m.P) - sum(m.v[j] for j in m.J)
    if disable_cost is not None:
        m.price0 = pyo.Constraint(
            expr=linear_sum(list(m.u.values())) - m.v0 <= m.neg_weight_total + m.theta * m.c0,
            doc="Σ_{y_i=1} u_i − v_0 ≤ Σ_{y_i=0} ω_i + θ c_0: dual of w_0",
        )
        gain = gain - m.v0
    m.objective = pyo.Objective(expr=gain, sense=pyo.maximize, doc="dual of eq. OneLevelFormulation (same optimum)")
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT, doc="constraint duals; dual(price[j]) = w_j")
    m._w_constraints = list(m.price.values())  # in the order of J, for clause_weights
    m._price_constraints = m._w_constraints + ([m.price0] if disable_cost is not None else [])
    m._u_vars = [m.u[int(p)] for p in positives]
    return m


def _add_data(m: pyo.ConcreteModel, data: Any, theta: float, disable_cost: float | None) -> None:
    """The sets and mutable Params both clause LPs share, and the numpy shadows ``set_*`` update."""
    groups, costs, group_weight, n_features = data.groups, data.costs, data.group_weight, data.n_features
    positives = groups.positives
    negatives = groups.negatives
    neg_patterns = groups.patterns[negatives]
    m.J = pyo.RangeSet(0, n_features - 1, doc="binary features j = 0..d-1")
    m.P = pyo.Set(initialize=positives.tolist(), doc="samples with y_i = 1 (groups of identical rows)")
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="sparsity weight θ (eq. OneLevelFormulation)")
    m.c = pyo.Param(m.J, initialize=dict(enumerate(costs.tolist())), mutable=True, doc="cost c_j of using feature j")
    m.weight = pyo.Param(
        m.P, initialize={int(p): float(group_weight[p]) for p in positives}, mutable=True,
        doc="sample weight ω_i of each positive sample (0 removes it)",
    )
    neg_cost = np.asarray(neg_patterns.T @ group_weight[negatives]).ravel()
    m.neg_cost = pyo.Param(
        m.J, initialize=dict(enumerate(neg_cost.tolist())), mutable=True,
        doc="Σ_{i: y_i=0} ω_i a_ij: linear cost of feature j on the negatives (eq. OneLevelFormulationNegativeSamples)",
    )
    if disable_cost is not None:
        m.c0 = pyo.Param(initialize=float(disable_cost), mutable=True, doc="cost c_0 of the always-true feature")
        m.neg_weight_total = pyo.Param(
            initialize=float(group_weight[negatives].sum()), mutable=True, doc="Σ_{i: y_i=0} ω_i (a_i0 = 1 for all i)"
        )
    m._groups = groups
    m._pos_groups = positives
    # Numpy shadows of the Params, in the order of these indices (for assign_changed and parameter_changes).
    m._weight_index = [int(p) for p in positives]
    m._feature_index = list(range(n_features))
    m._weight_values = group_weight[positives].astype(float)
    m._neg_cost_values = neg_cost
    m._feature_cost = costs.astype(float)
    m._theta_value = float(theta)
    m._neg_groups = negatives
    m._neg_patterns_t = neg_patterns.T.tocsr()  # d x negatives: neg_cost = this @ the negatives' weights
    m._sample_weight = data.sample_weight


def set_sample_weight(model: pyo.ConcreteModel, sample_weight: Any) -> None:
    """Change the sample weights ω of a built clause LP in place (0 removes a sample).

    Updates the positive groups' ``weight`` and the aggregated ``neg_cost``
    (and ``neg_weight_total``); only Params whose value changes are touched.
    """
    groups = model._groups
    weights = as_weights(sample_weight, groups.group_of_sample.shape[0])
    group_weight = groups.group_weights(weights)
    positive_weight = group_weight[model._pos_groups]
    assign_changed(model.weight, model._weight_index, model._weight_values, positive_weight)
    model._weight_values = positive_weight
    neg_weight = group_weight[model._neg_groups]
    neg_cost = np.asarray(model._neg_patterns_t @ neg_weight).ravel()
    assign_changed(model.neg_cost, model._feature_index, model._neg_cost_values, neg_cost)
    model._neg_cost_values = neg_cost
    if hasattr(model, "neg_weight_total"):
        model.neg_weight_total = float(neg_weight.sum())
    model._sample_weight = weights


def set_theta(model: pyo.ConcreteModel, theta: float) -> None:
    """Change the sparsity weight θ of a built model in place."""
    check_nonnegative("theta", theta)
    model.theta = float(theta)
    model._theta_value = float(theta)


def set_feature_cost(model: pyo.ConcreteModel, feature_cost: Any) -> None:
    """Change the per-feature costs c_j of a built model in place."""
    costs = as_feature_costs(feature_cost, len(model.J))
    assign_changed(model.c, model._feature_index, model._feature_cost, costs)
    model._feature_cost = costs


def parameter_changes(model: pyo.ConcreteModel) -> dict[str, Any]:
    """The numbers the clause LP's mutable Params currently make, for an in-place re-solve.

    A dict for :class:`solvers.ModelChanges` (the algorithms layer passes it
    on): for :func:`build_clause_lp`, the objective coefficients
    ``ω_i`` of ``ξ_i`` and ``neg_cost_j + θ c_j`` of ``w_j`` (and
    ``Σ_{y=0} ω_i + θ c_0`` of ``w0``); for :func:`build_clause_dual_lp`,
    the bounds ``0 <= u_i <= ω_i`` and the right-hand sides
    ``neg_cost_j + θ c_j`` of ``price[j]`` (and of ``price0``). Computed
    from the numpy copies the ``set_*`` functions keep, with the same float
    operations as evaluating the model's expressions.
    """
    theta = model._theta_value
    feature_cost = model._neg_cost_values + theta * model._feature_cost
    extra = []
    if hasattr(model, "neg_weight_total"):
        extra = [float(pyo.value(model.neg_weight_total)) + theta * float(pyo.value(model.c0))]
    if hasattr(model, "price"):
        constraints = model._price_constraints
        upper = np.concatenate([feature_cost, extra])
        weights = model._weight_values
        return {
            "variable_bounds": (model._u_vars, np.zeros(weights.shape[0]), weights),
            "constraint_bounds": (constraints, np.full(upper.shape[0], -np.inf), upper),
        }
    return {"objective": (model._objective_vars, np.concatenate([model._weight_values, feature_cost, extra]))}
