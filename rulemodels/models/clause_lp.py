"""The one-level clause LP (Malioutov & Varshney 2013; paper eqs. (2.1) OneLevelFormulation - (2.4) OneLevelFormulationWj).

One disjunctive clause ``v_i = OR_j a_ij w_j`` is learned by

.. math::

    \\min_{w,\\xi}\\ \\sum_{i: y_i=1} \\omega_i \\xi_i
        + \\sum_{i: y_i=0} \\omega_i \\sum_j a_{ij} w_j
        + \\theta \\sum_j c_j w_j

    \\text{s.t. } \\xi_i \\ge 1 - \\sum_j a_{ij} w_j,\\ \\xi_i \\ge 0 \\quad (y_i = 1),
    \\qquad 0 \\le w_j \\le 1

(hinge cost on the samples the clause must cover, eq. (2.2) OneLevelFormulationPositiveSamples;
linear cost on the samples it must not cover, eq. (2.3) OneLevelFormulationNegativeSamples;
``w_j`` binary with ``integer=True``, eq. (2.4) OneLevelFormulationWj). ``omega_i`` are
sample weights; weight 0 removes a sample. The linear cost of the negatives is
aggregated into one mutable coefficient per feature,
``neg_cost[j] = sum_{i: y_i=0} omega_i a_ij``, computed with numpy, so the
objective has d Param terms instead of one per (sample, feature).

A mutable Param ``epsilon`` adds a tiny tie-break cost ``ε_j`` to each
``w_j`` (:func:`tie_break_costs`; 0 unless given), so that HiGHS, GLPK and
CBC return the same vertex where the LP has several optima
(``docs/solvers.md``).

It is the building block of set covering, BCD and AM: their drivers build it
once and re-solve it after :meth:`ClauseLP.set_sample_weight`,
:meth:`ClauseLP.set_theta` or :meth:`ClauseLP.set_feature_cost` (or after
any change of its mutable Params made the Pyomo way), declaring the new
numbers with :meth:`ClauseLP.parameter_changes`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._build import ParamArray, check_literal_limits, declare_literal_limits, linear_sum
from rulemodels.models._data import (
    PreparedData,
    SampleGroups,
    as_feature_costs,
    as_tie_break,
    as_weights,
    check_nonnegative,
    prepare_data,
)

__all__ = ["ClauseLP", "build_clause_dual_lp", "build_clause_lp", "tie_break_costs"]


def build_clause_lp(
    A: Any,
    y: Any,
    *,
    theta: float,
    sample_weight: Any = None,
    feature_cost: Any = None,
    integer: bool = False,
    disable_cost: float | None = None,
    merge_identical: bool = True,
    tie_break: Any = None,
    forbidden: Any = None,
    max_literals: int | None = None,
    counted: int | None = None,
) -> ClauseLP:
    """Build (not solve) the one-level clause LP for binary ``A`` and labels ``y``.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features ``a_ij``.
    y : array-like of shape (n,), 0/1
        1 for samples the clause must cover (output 1), 0 for samples it must reject.
    theta : float
        Sparsity weight θ (mutable Param ``theta``).
    sample_weight : array-like of shape (n,), optional
        Weights ``ω_i >= 0`` (default 1); mutable through :meth:`ClauseLP.set_sample_weight`.
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
    tie_break : array-like of shape (d,), optional
        Tie-break costs ``ε_j >= 0`` added to the cost of ``w_j`` (mutable
        Param ``epsilon``, default 0; see :func:`tie_break_costs`).
    forbidden : sequence of int, optional
        Features with ``w_j = 0`` (constraint ``forbidden_literal[j]``, ``docs/constraints.md``).
    max_literals : int, optional
        At most this many literals in the clause (constraint ``max_literals``:
        ``Σ_j w_j ≤ k`` over the first ``counted`` features, default all; Param ``k_max``).
    counted : int, optional
        How many leading features are literals (the working data's
        always-true column, appended last, is none).

    Returns
    -------
    ClauseLP
        The handle; its ``model`` has the components ``J`` (features), ``P`` (positive sample groups), ``w``,
        ``xi``, ``theta``, ``c``, ``weight`` (summed ω of each positive group),
        ``neg_cost``, ``epsilon``, ``cover``, ``accuracy_cost``, ``sparsity_cost``, ``tie_break_cost``, ``objective``;
        with ``disable_cost``: ``w0``, ``c0``, ``neg_weight_total``.
    """
    m, data = _clause_model(
        "clause_lp", A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical, tie_break=tie_break,
    )
    domain = pyo.Binary if integer else pyo.UnitInterval
    m.w = pyo.Var(m.J, domain=domain, doc="w_j = 1 if feature j is in the clause (eq. (2.4) OneLevelFormulationWj)")
    m.xi = pyo.Var(
        m.P, domain=pyo.NonNegativeReals,
        doc="ξ_i: hinge cost of positive sample i (eq. (2.2) OneLevelFormulationPositiveSamples)",
    )
    if disable_cost is not None:
        m.w0 = pyo.Var(domain=domain, doc="w_0 = 1 selects the always-true feature a_i0 = 1: the clause is disabled (section 3)")

    groups = data.groups
    indptr, indices = groups.patterns.indptr, groups.patterns.indices
    always_true = [m.w0] if disable_cost is not None else []

    def cover_rule(model: pyo.ConcreteModel, p: int) -> Any:
        covered = linear_sum([model.w[j] for j in indices[indptr[p]:indptr[p + 1]]] + always_true)
        return model.xi[p] + covered >= 1

    m.cover = pyo.Constraint(m.P, rule=cover_rule, doc="ξ_i ≥ 1 − Σ_j a_ij w_j for y_i = 1 (eq. (2.2) OneLevelFormulationPositiveSamples)")
    forbidden, max_literals = check_literal_limits(data.n_features, forbidden, max_literals, counted)
    declare_literal_limits(m, forbidden, max_literals, counted=counted)
    accuracy = sum(m.weight[p] * m.xi[p] for p in m.P) + sum(m.neg_cost[j] * m.w[j] for j in m.J)
    sparsity = m.theta * sum(m.c[j] * m.w[j] for j in m.J)
    if disable_cost is not None:
        accuracy = accuracy + m.neg_weight_total * m.w0
        sparsity = sparsity + m.theta * m.c0 * m.w0
    m.accuracy_cost = pyo.Expression(expr=accuracy, doc="Σ_{y_i=1} ω_i ξ_i + Σ_{y_i=0} ω_i Σ_j a_ij w_j")
    m.sparsity_cost = pyo.Expression(expr=sparsity, doc="θ Σ_j c_j w_j")
    m.tie_break_cost = pyo.Expression(
        expr=sum(m.epsilon[j] * m.w[j] for j in m.J), doc="Σ_j ε_j w_j: the deterministic tie-break between optimal vertices",
    )
    m.objective = pyo.Objective(
        expr=m.accuracy_cost + m.sparsity_cost + m.tie_break_cost, sense=pyo.minimize,
        doc="eq. (2.1) OneLevelFormulation, plus the tie-break Σ_j ε_j w_j",
    )
    return ClauseLP(m, data, dual=False)


def build_clause_dual_lp(
    A: Any,
    y: Any,
    *,
    theta: float,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    merge_identical: bool = True,
    tie_break: Any = None,
) -> ClauseLP:
    """Build the LP dual of the one-level clause LP; its constraint duals are the clause ``w``.

    Same data, Params and ``set_*`` functions as :func:`build_clause_lp`
    (without ``integer``), for the other side of the same LP:

    .. math::

        \\max_{u, v}\\ \\sum_{i: y_i=1} u_i - \\sum_j v_j
        \\quad\\text{s.t. } \\sum_{i: y_i=1} a_{ij} u_i - v_j
            \\le \\sum_{i: y_i=0} \\omega_i a_{ij} + \\theta c_j + \\varepsilon_j \\ (\\forall j),
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

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features ``a_ij``.
    y : array-like of shape (n,), 0/1
        1 for samples the clause must cover (output 1), 0 for samples it must reject.
    theta : float
        Sparsity weight θ (mutable Param ``theta``).
    sample_weight : array-like of shape (n,), optional
        Weights ``ω_i >= 0`` (default 1); mutable through :meth:`ClauseLP.set_sample_weight`.
    feature_cost : array-like of shape (d,), optional
        Per-feature costs ``c_j`` (default 1); mutable Param ``c``.
    disable_cost : float, optional
        Add the always-true feature (paper section 3) with cost ``c_0 = disable_cost``, as in
        :func:`build_clause_lp`.
    merge_identical : bool, default=True
        One row per group of identical positive samples (weights summed).
    tie_break : array-like of shape (d,), optional
        Tie-break costs ``ε_j >= 0`` (mutable Param ``epsilon``, default 0; see :func:`tie_break_costs`).

    Returns
    -------
    ClauseLP
        The dual LP, not solved.
    """
    m, data = _clause_model(
        "clause_dual_lp", A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical, tie_break=tie_break,
    )
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
        return covering - model.v[j] <= model.neg_cost[j] + model.theta * model.c[j] + model.epsilon[j]

    m.price = pyo.Constraint(
        m.J, rule=price_rule,
        doc="Σ_{y_i=1} a_ij u_i − v_j ≤ Σ_{y_i=0} ω_i a_ij + θ c_j + ε_j: dual of w_j, whose dual value is w_j",
    )
    gain = sum(m.u[p] for p in m.P) - sum(m.v[j] for j in m.J)
    if disable_cost is not None:
        m.price0 = pyo.Constraint(
            expr=linear_sum(list(m.u.values())) - m.v0 <= m.neg_weight_total + m.theta * m.c0,
            doc="Σ_{y_i=1} u_i − v_0 ≤ Σ_{y_i=0} ω_i + θ c_0: dual of w_0",
        )
        gain = gain - m.v0
    m.objective = pyo.Objective(expr=gain, sense=pyo.maximize, doc="dual of eq. (2.1) OneLevelFormulation (same optimum)")
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT, doc="constraint duals; dual(price[j]) = w_j")
    return ClauseLP(m, data, dual=True)


def tie_break_costs(n_features: int, scale: float) -> np.ndarray:
    """The tie-break costs ``ε_j = scale · (j + 1) / d`` of features j = 0..d-1 (all 0 when ``scale`` is 0).

    Degenerate clause LPs have several optimal vertices (two literals that
    cover the same weighted rows, a literal whose gain equals its cost), and
    HiGHS, GLPK and CBC return different ones, so the same fit learned
    different rules with different solvers. Adding ``ε_j`` to the cost of
    ``w_j`` makes the optimum unique among such ties: the solution with the
    lower ``Σ_j ε_j w_j`` wins, i.e. fewer literals, then literals earlier in
    the binary matrix (a lexicographic preference for low ``j``). ``scale``
    is chosen far below any cost difference that matters (a fraction of one
    sample's weight per literal) but with gaps ``scale / d`` between
    features above the solvers' optimality tolerances (about 1e-7), so every
    solver sees it (``docs/solvers.md``).

    Parameters
    ----------
    n_features : int
        The number of features d.
    scale : float
        The cost ``ε`` of the last feature, >= 0.

    Returns
    -------
    ndarray of float of shape (n_features,)
        The costs ``ε_j``.
    """
    check_nonnegative("tie_break", scale)
    if n_features == 0:
        return np.zeros(0)
    return scale * np.arange(1, n_features + 1, dtype=float) / n_features


def _clause_model(
    name: str, A: Any, y: Any, *, theta: float, sample_weight: Any, feature_cost: Any, disable_cost: float | None,
    merge_identical: bool, tie_break: Any,
) -> tuple[pyo.ConcreteModel, PreparedData]:
    """The checked data and a new model named ``name`` with the sets and mutable Params every clause LP shares."""
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    m = pyo.ConcreteModel(name=name)
    groups, costs, group_weight, n_features = data.groups, data.costs, data.group_weight, data.n_features
    positives = groups.positives
    negatives = groups.negatives
    m.J = pyo.RangeSet(0, n_features - 1, doc="binary features j = 0..d-1")
    m.P = pyo.Set(initialize=positives.tolist(), doc="samples with y_i = 1 (groups of identical rows)")
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="sparsity weight θ (eq. (2.1) OneLevelFormulation)")
    m.c = pyo.Param(m.J, initialize=dict(enumerate(costs.tolist())), mutable=True, doc="cost c_j of using feature j")
    epsilon = as_tie_break(tie_break, n_features)
    m.epsilon = pyo.Param(
        m.J, initialize=dict(enumerate(epsilon.tolist())), mutable=True,
        doc="tie-break cost ε_j of feature j (tiny, increasing in j; tie_break_costs): one optimum among equal ones",
    )
    m.weight = pyo.Param(
        m.P, initialize={int(p): float(group_weight[p]) for p in positives}, mutable=True,
        doc="sample weight ω_i of each positive sample (0 removes it)",
    )
    neg_cost = np.asarray(groups.patterns[negatives].T @ group_weight[negatives]).ravel()
    m.neg_cost = pyo.Param(
        m.J, initialize=dict(enumerate(neg_cost.tolist())), mutable=True,
        doc="Σ_{i: y_i=0} ω_i a_ij: linear cost of feature j on the negatives (eq. (2.3) OneLevelFormulationNegativeSamples)",
    )
    if disable_cost is not None:
        m.c0 = pyo.Param(initialize=float(disable_cost), mutable=True, doc="cost c_0 of the always-true feature")
        m.neg_weight_total = pyo.Param(
            initialize=float(group_weight[negatives].sum()), mutable=True, doc="Σ_{i: y_i=0} ω_i (a_i0 = 1 for all i)"
        )
    return m, data


class _ClauseParams:
    """What the clause LP's handles share: its mutable Params θ, ``c``, ``ε``, ``weight`` and ``neg_cost``, set in place.

    A handle sets ``model``, ``groups``, ``_n_samples``, ``_positives``,
    ``_negatives``, ``_neg_patterns_t`` and the :class:`ParamArray` views
    ``_weight``, ``_neg_cost``, ``_cost``, ``_epsilon``, ``_feature_index``.
    """

    model: pyo.ConcreteModel
    groups: SampleGroups
    _n_samples: int
    _positives: np.ndarray
    _negatives: np.ndarray
    _neg_patterns_t: Any
    _weight: ParamArray
    _neg_cost: ParamArray
    _cost: ParamArray
    _epsilon: ParamArray
    _feature_index: list[int]

    def _store_sample_weight(self, sample_weight: Any) -> tuple[np.ndarray, np.ndarray]:
        """Store ω in the Params; the positive groups' weights and ``neg_cost`` stored, as arrays."""
        m = self.model
        weights = as_weights(sample_weight, self._n_samples)
        group_weight = self.groups.group_weights(weights)
        positive_weight = group_weight[self._positives]
        self._weight.store(positive_weight)
        neg_weight = group_weight[self._negatives]
        neg_cost = np.asarray(self._neg_patterns_t @ neg_weight).ravel()
        self._neg_cost.store(neg_cost)
        if m.find_component("neg_weight_total") is not None:
            m.neg_weight_total = float(neg_weight.sum())
        return positive_weight, neg_cost

    @property
    def theta(self) -> float:
        """The sparsity weight θ the model holds now (read from its Param)."""
        return float(pyo.value(self.model.theta))

    def set_theta(self, theta: float) -> None:
        """Change the sparsity weight θ in place (the Param ``theta`` of eq. (2.1) OneLevelFormulation).

        Parameters
        ----------
        theta : float
            The new θ, at least 0.

        Raises
        ------
        ValueError
            If ``theta`` is negative.
        """
        check_nonnegative("theta", theta)
        self.model.theta = float(theta)

    def set_feature_cost(self, feature_cost: Any) -> None:
        """Change the per-feature costs c_j in place (the Param ``c``; the sparsity cost is ``θ Σ_j c_j w_j``).

        Parameters
        ----------
        feature_cost : array-like of shape (d,) or None
            The costs ``c_j >= 0``, one per feature of the model; None: 1 each.

        Raises
        ------
        ValueError
            If a cost is negative or there is not one per feature.
        """
        self._cost.store(as_feature_costs(feature_cost, len(self._feature_index)))

    def set_tie_break(self, tie_break: Any) -> None:
        """Change the tie-break costs ε_j in place (zeros switch the tie-break off; see :func:`tie_break_costs`).

        Parameters
        ----------
        tie_break : array-like of shape (d,) or None
            The costs ``ε_j >= 0`` added to the cost of ``w_j``, one per feature of the model (the Param
            ``epsilon``); None: all zeros.

        Raises
        ------
        ValueError
            If a cost is negative or there is not one per feature.
        """
        self._epsilon.store(as_tie_break(tie_break, len(self._feature_index)))


class ClauseLP(_ClauseParams):
    """A built one-level clause LP (primal or dual) and how to change it in place.

    Owns the Pyomo ``model``, the sample ``groups`` its rows stand for, and
    the index lists in the order the ``set_*`` and :meth:`parameter_changes`
    methods use. The numbers live only in the model's mutable Params
    (``theta``, ``c``, ``weight``, ``neg_cost``, ``c0``, ``neg_weight_total``):
    :meth:`parameter_changes` reads them there, so a change made the Pyomo
    way (``lp.model.theta = 3.0``) is re-solved exactly like one made with
    :meth:`set_theta`.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The built LP.
    data : PreparedData
        The checked inputs it was built from (its sample groups and weights).
    dual : bool
        Whether ``model`` is the dual (:func:`build_clause_dual_lp`).

    Attributes
    ----------
    model : pyomo.environ.ConcreteModel
    groups : SampleGroups
        The groups of identical samples behind ``P`` and the negatives.
    dual : bool
        Whether ``model`` is the dual (:func:`build_clause_dual_lp`).
    w_vars : list
        Primal: the variables ``w_j`` in the order of ``J`` (empty for the dual).
    """

    def __init__(self, model: pyo.ConcreteModel, data: PreparedData, *, dual: bool):
        self.model = model
        self.groups: SampleGroups = data.groups
        self.dual = dual
        positives, negatives = self.groups.positives, self.groups.negatives
        self._n_samples = int(data.sample_weight.shape[0])
        self._positives = positives
        self._negatives = negatives
        self._weight_index = [int(p) for p in positives]
        self._feature_index = list(range(data.n_features))
        self._neg_patterns_t = self.groups.patterns[negatives].T.tocsr()  # d x negatives: neg_cost = this @ their weights
        # the Params BCD/AM change before every re-solve, read and written as arrays (the Params stay the truth)
        self._weight = ParamArray(model.weight, self._weight_index)
        self._neg_cost = ParamArray(model.neg_cost, self._feature_index)
        self._cost = ParamArray(model.c, self._feature_index)
        self._epsilon = ParamArray(model.epsilon, self._feature_index)
        has_w0 = model.find_component("c0") is not None
        if dual:
            self.w_vars: list[Any] = []
            self._w_constraints = list(model.price.values())  # in the order of J: their duals are w
            self._price_constraints = self._w_constraints + ([model.price0] if has_w0 else [])
            self._u_vars = [model.u[p] for p in self._weight_index]
        else:
            self.w_vars = list(model.w.values())  # in the order of J
            # One list object for the objective's variables, so a backend can keep its column indices.
            self._objective_vars = [model.xi[p] for p in self._weight_index] + self.w_vars + ([model.w0] if has_w0 else [])

    def __repr__(self) -> str:
        side = "dual" if self.dual else "primal"
        return f"ClauseLP({side}, {len(self.model.J)} features, {len(self.model.P)} positive groups)"

    def set_sample_weight(self, sample_weight: Any) -> None:
        """Change the sample weights ω in place (0 removes a sample).

        Sets the positive groups' ``weight``, the aggregated ``neg_cost``
        and ``neg_weight_total``.

        Parameters
        ----------
        sample_weight : array-like of shape (n,)
            The new weights ``ω_i >= 0``, one per sample.
        """
        self._store_sample_weight(sample_weight)

    def reweight(
        self, sample_weight: Any, *, feature_cost: np.ndarray | None = None, tie_break: np.ndarray | None = None,
    ) -> dict[str, Any]:
        """:meth:`set_sample_weight`, then :meth:`parameter_changes`, in one pass (what BCD/AM do before each re-solve).

        The ``weight`` and ``neg_cost`` values just stored are used as stored
        (they are the Params' values: nothing runs in between) instead of being
        read back; θ and ``c0`` are read from their Params. ``feature_cost``
        is for a caller that owns the model for a while (one BCD/AM fit): the
        ``c`` it stored with :meth:`set_feature_cost` and has not changed
        since, used as stored; without it ``c`` is read from its Params, as
        :meth:`parameter_changes` does; ``tie_break`` likewise for the ``ε``
        it stored with :meth:`set_tie_break`. Same result as the two calls; on
        small data the Param reads cost as much as the LP solve.

        Parameters
        ----------
        sample_weight : array-like of shape (n,)
            The new weights ``ω_i >= 0``, one per sample.
        feature_cost : numpy.ndarray of shape (d,) or None, default=None
            The ``c`` the caller stored with :meth:`set_feature_cost`, used as stored; None reads it from its Params.
        tie_break : numpy.ndarray of shape (d,) or None, default=None
            The ``ε`` the caller stored with :meth:`set_tie_break`, used as stored; None reads it from its Params.

        Returns
        -------
        dict
            The changes for the backend.
        """
        positive_weight, neg_cost = self._store_sample_weight(sample_weight)
        return self._changes(positive_weight, neg_cost, feature_cost, tie_break)

    def parameter_changes(self) -> dict[str, Any]:
        """The numbers the mutable Params currently make, for an in-place re-solve.

        A dict for :class:`solvers.ModelChanges` (the algorithms layer passes
        it on): for the primal, the objective coefficients ``ω_i`` of ``ξ_i``
        and ``neg_cost_j + θ c_j + ε_j`` of ``w_j`` (and ``Σ_{y=0} ω_i + θ c_0`` of
        ``w0``); for the dual, the bounds ``0 <= u_i <= ω_i`` and the
        right-hand sides ``neg_cost_j + θ c_j + ε_j`` of ``price[j]`` (and of
        ``price0``). Read from the Params themselves, with the same float
        operations as evaluating the model's expressions.

        Returns
        -------
        dict
            The changes for the backend.
        """
        return self._changes(self._weight.values(), self._neg_cost.values())

    def _changes(
        self, weights: np.ndarray, neg_cost: np.ndarray, cost: np.ndarray | None = None, tie_break: np.ndarray | None = None,
    ) -> dict[str, Any]:
        """:meth:`parameter_changes` given the values of the ``weight`` and ``neg_cost`` (and ``c``, ``epsilon``) Params."""
        m = self.model
        theta = float(pyo.value(m.theta))
        feature_cost = neg_cost + theta * (self._cost.values() if cost is None else cost)
        feature_cost = feature_cost + (self._epsilon.values() if tie_break is None else tie_break)
        extra = []
        if m.find_component("neg_weight_total") is not None:
            extra = [float(pyo.value(m.neg_weight_total)) + theta * float(pyo.value(m.c0))]
        if self.dual:
            upper = np.concatenate([feature_cost, extra])
            return {
                "variable_bounds": (self._u_vars, np.zeros(weights.shape[0]), weights),
                "constraint_bounds": (self._price_constraints, np.full(upper.shape[0], -np.inf), upper),
            }
        return {"objective": (self._objective_vars, np.concatenate([weights, feature_cost, extra]))}

    def weights(self) -> np.ndarray:
        """``w_j`` of the solved LP, shape (d,) (fractional for the LP).

        For the dual ``w_j = |dual(price[j])|``, clipped to [0, 1]: ``w_j >= 0``,
        and solvers differ in the sign they give the duals of a maximisation.

        Returns
        -------
        ndarray of float of shape (d,)
            The values of ``w_j``.

        Raises
        ------
        ValueError
            If a weight variable has no value (the model was not solved).
        """
        if self.dual:
            return duals_as_weights(self.model, self._w_constraints)
        values = [var.value for var in self.w_vars]
        if None in values:
            missing = self.w_vars[values.index(None)]
            raise ValueError(f"variable {missing.name} has no value: solve the model first")
        return np.array(values, dtype=float)


def duals_as_weights(model: pyo.ConcreteModel, constraints: list[Any]) -> np.ndarray:
    """``|dual|`` of each constraint clipped to [0, 1] (the dual clause LP's ``w``), from the model's ``dual`` Suffix."""
    duals = model.dual
    missing = next((con for con in constraints if con not in duals), None)
    if missing is not None:
        raise ValueError(
            f"constraint {missing.name} has no dual value: solve the model with a backend that reports duals"
        )
    return np.clip(np.abs(np.array([duals[con] for con in constraints], dtype=float)), 0.0, 1.0)
