"""Column generation's pricing MIP: the clause of least reduced cost at the master's duals (:func:`build_cg_pricing`).

The model is stated in :mod:`rulemodels.models.column_generation`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._build import ParamArray, linear_sum
from rulemodels.models._data import check_nonnegative
from rulemodels.models._docs import SET_THETA_SECTIONS
from rulemodels.models.cg_columns import ClauseColumns
from rulemodels.utils import fill_doc

__all__ = ["CGPricing", "build_cg_pricing"]


def build_cg_pricing(
    columns: ClauseColumns, *, theta: float, clause_cost: float, max_length: int, aggregate: bool = False
) -> CGPricing:
    """Build (not solve) the pricing MIP; the duals start at ``μ_i = ω_i`` (nothing covered yet) and ``ν = 0``.

    Components: ``J`` (features), ``P``, ``Z``, Params ``theta``, ``c``,
    ``c0``, ``D``, ``mu``, ``nu``, ``weight``, variables ``z`` and
    ``delta``, constraints ``fails`` and ``length``, the ``objective``, and
    the rows that keep a clause from covering a row of P: the method's
    ``no_literal[i, j]``: ``δ_i ≤ 1 − z_j`` over the pairs ``S`` (i ∈ P,
    j ∈ S_i), or with ``aggregate=True`` one row per i,
    ``no_literals[i]``: ``Σ_{j∈S_i} z_j ≤ M_i (1 − δ_i)`` with
    ``M_i = min(|S_i|, D)`` and ``δ_i`` binary for i ∈ P (a fractional
    ``δ_i`` would fit under the sum): the same integer points with ``|P|`` rows instead
    of ``Σ_i |S_i|`` (a weaker relaxation, but a model HiGHS reads and
    presolves much faster on the bundled datasets).

    Parameters
    ----------
    columns : ClauseColumns
        The rows and costs (:func:`prepare_cg_data`).
    theta : float
        The sparsity weight θ (Param ``theta``).
    clause_cost : float
        ``c_0``, the cost of a clause in literals (Param ``c0``).
    max_length : int
        The most literals a clause may have (Param ``D``).
    aggregate : bool, default=False
        One ``no_literals`` row per row of ``P`` instead of one ``no_literal`` row per pair (see above).

    Returns
    -------
    CGPricing
        The pricing MIP, not solved.

    Raises
    ------
    ValueError
        If ``max_length`` is not an integer >= 0.
    """
    check_nonnegative("theta", theta)
    check_nonnegative("clause_cost", clause_cost)
    if isinstance(max_length, bool) or not isinstance(max_length, (int, np.integer)) or max_length < 0:
        raise ValueError(f"max_length must be an integer >= 0, got {max_length!r}")
    cover_rows, pay_rows = columns.cover_rows.tolist(), columns.pay_rows.tolist()
    m = pyo.ConcreteModel(name="cg_pricing")
    m.J = pyo.RangeSet(0, columns.n_features - 1, doc="binary features j = 0..d-1")
    m.P = pyo.Set(initialize=cover_rows, ordered=True, doc="rows to cover (CNF y_i = 0)")
    m.Z = pyo.Set(initialize=pay_rows, ordered=True, doc="rows that pay per covering clause (CNF y_i = 1)")
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="θ: cost of one literal")
    m.c = pyo.Param(m.J, initialize=dict(enumerate(columns.feature_cost.tolist())), mutable=True, doc="c_j: cost of feature j")
    m.c0 = pyo.Param(initialize=float(clause_cost), mutable=True, doc="c_0: complexity of a clause itself (constant of the reduced cost)")
    m.D = pyo.Param(initialize=int(max_length), mutable=True, doc="D: at most this many features in a clause")
    m.mu = pyo.Param(
        m.P, initialize=dict(zip(cover_rows, columns.cover_weight.tolist())), mutable=True,
        doc="μ_i: the master's dual of cover[i] (re-set every round)",
    )
    m.nu = pyo.Param(initialize=0.0, mutable=True, doc="ν ≤ 0: the master's dual of size (constant of the reduced cost)")
    m.weight = pyo.Param(m.Z, initialize=dict(zip(pay_rows, columns.pay_weight.tolist())), mutable=True, doc="ω_i, i ∈ Z")
    m.z = pyo.Var(m.J, domain=pyo.Binary, doc="z_j = 1: feature j is in the new clause")
    cover_set = set(cover_rows)
    m.delta = pyo.Var(
        m.P | m.Z, domain=lambda model, i: pyo.Binary if aggregate and i in cover_set else pyo.UnitInterval,
        doc="δ_i = 1: the new clause fails on row i (covers it); binary for i ∈ P in the aggregated form",
    )
    cover_features = {i: [int(j) for j in np.flatnonzero(~absent)] for i, absent in zip(cover_rows, columns.cover_absent)}
    if aggregate:
        def no_literals_rule(model: pyo.ConcreteModel, i: int) -> Any:
            features = cover_features[i]
            if not features:
                return pyo.Constraint.Skip
            bound = min(len(features), int(max_length))
            return linear_sum([model.z[j] for j in features]) + bound * model.delta[i] <= bound

        m.no_literals = pyo.Constraint(
            m.P, rule=no_literals_rule,
            doc="Σ_{j∈S_i} z_j ≤ min(|S_i|, D) (1 − δ_i) for i ∈ P: the rows δ_i ≤ 1 − z_j (DGW pricing) aggregated",
        )
    else:
        pairs = [(i, j) for i in cover_rows for j in cover_features[i]]
        m.S = pyo.Set(initialize=pairs, dimen=2, ordered=True, doc="(i, j): i ∈ P, j ∈ S_i = {j : a_ij = 1}")
        m.no_literal = pyo.Constraint(
            m.S, rule=lambda model, i, j: model.delta[i] <= 1 - model.z[j],
            doc="δ_i ≤ 1 − z_j for i ∈ P, j ∈ S_i: a clause with a feature of row i holds there (DGW pricing)",
        )
    pay_features = {i: [int(j) for j in np.flatnonzero(~absent)] for i, absent in zip(pay_rows, columns.pay_absent)}

    def fails_rule(model: pyo.ConcreteModel, i: int) -> Any:
        return model.delta[i] + linear_sum([model.z[j] for j in pay_features[i]]) >= 1

    m.fails = pyo.Constraint(
        m.Z, rule=fails_rule,
        doc="δ_i ≥ 1 − Σ_{j ∈ S_i} z_j for i ∈ Z: a clause with no feature of row i fails there (DGW pricing)",
    )
    m.length = pyo.Constraint(expr=linear_sum(list(m.z.values())) <= m.D, doc="Σ_j z_j ≤ D")
    m.objective = pyo.Objective(
        expr=m.theta * linear_sum([m.c[j] * m.z[j] for j in m.J])
        - linear_sum([m.mu[i] * m.delta[i] for i in m.P]) + linear_sum([m.weight[i] * m.delta[i] for i in m.Z]),
        sense=pyo.minimize,
        doc="θ Σ_j c_j z_j − Σ_{i∈P} μ_i δ_i + Σ_{i∈Z} ω_i δ_i; reduced cost = this + θ c_0 − ν (DGW pricing)",
    )
    return CGPricing(m, columns)


class CGPricing:
    """The pricing MIP of column generation; the duals are mutable Params set each round.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The pricing MIP, its duals ``mu`` and ``nu`` mutable Params.
    columns : ClauseColumns
        The data of the clauses being priced (the rows to cover and those a clause must not fire on).
    """

    def __init__(self, model: pyo.ConcreteModel, columns: ClauseColumns):
        self.model = model
        self.columns = columns
        self._mu = ParamArray(model.mu, columns.cover_rows.tolist())
        self._delta_cover = [model.delta[i] for i in columns.cover_rows.tolist()]
        self.z_vars = list(model.z.values())

    def __repr__(self) -> str:
        m = self.model
        return f"CGPricing({len(m.J)} features, {len(m.P)} rows to cover, {len(m.Z)} rows that pay)"

    def set_duals(self, mu: np.ndarray, nu: float) -> dict[str, Any]:
        """Store the master's duals in ``mu`` and ``nu``; the new objective coefficients ``−μ_i`` of ``δ_i``.

        Returns the dict for :class:`solvers.ModelChanges` (``objective``).

        Parameters
        ----------
        mu : numpy.ndarray, one value per row of ``P``
            The master's duals ``μ_i`` of the rows to cover.
        nu : float
            The master's dual ``ν`` of the cap on the number of clauses.

        Returns
        -------
        dict
            The changes for the backend: the new objective coefficients of ``δ_i``.

        Raises
        ------
        ValueError
            If ``mu`` does not have one value per row to cover.
        """
        mu = np.asarray(mu, dtype=float)
        if mu.shape != (len(self._delta_cover),):
            raise ValueError(f"mu has shape {mu.shape}, expected ({len(self._delta_cover)},): one dual per row to cover")
        self._mu.store(mu)
        self.model.nu = float(nu)
        return {"objective": (self._delta_cover, -mu)}

    @fill_doc(sections=SET_THETA_SECTIONS)
    def set_theta(self, theta: float) -> dict[str, Any]:
        """Set θ (the Param ``theta``); return the new objective coefficients ``θ c_j`` of every ``z_j``.

        Returns a dict for :class:`solvers.ModelChanges` (``objective``).

        {sections}
        """
        check_nonnegative("theta", theta)
        m = self.model
        m.theta = float(theta)
        return {"objective": (self.z_vars, float(theta) * np.array([pyo.value(m.c[j]) for j in m.J], dtype=float))}

    def constant(self) -> float:
        """``θ c_0 − ν``: what the reduced cost adds to the objective.

        Returns
        -------
        float
            ``θ c_0 − ν``.
        """
        m = self.model
        return float(pyo.value(m.theta * m.c0 - m.nu))

    def clause(self) -> tuple[int, ...]:
        """The features with ``z_j > 0.5`` in the loaded solution.

        Returns
        -------
        tuple of int
            The selected feature indices.
        """
        return tuple(j for j, var in enumerate(self.z_vars) if (var.value or 0.0) > 0.5)
