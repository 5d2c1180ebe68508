"""The one-level clause LP solved by cutting planes on its hinge sum: the route for data with many rows.

The clause LP (paper eqs. (2.1) OneLevelFormulation - (2.4) OneLevelFormulationWj,
:func:`~rulemodels.models.build_clause_lp`) is, after eliminating ξ,

.. math::

    \\min_{0 \\le w \\le 1}\\ h(w) + \\sum_j (\\mathrm{neg\\_cost}_j + \\theta c_j + \\varepsilon_j) w_j,
    \\qquad h(w) = \\sum_{i: y_i=1} \\omega_i \\max(0,\\ 1 - \\sum_j a_{ij} w_j),

a convex piecewise-linear function of the d clause weights. For any set V of
positive samples, ``h(w) >= Σ_{i∈V} ω_i (1 − Σ_j a_ij w_j)`` (each term
is at least its second argument, and the dropped ones are >= 0), so the
**master LP**

.. math::

    \\min_{w, \\tau}\\ \\tau + \\sum_j \\mathrm{cost}_j w_j
    \\quad\\text{s.t. } \\tau + \\sum_j g_{kj} w_j \\ge b_k \\ (\\text{cut } k),
    \\qquad g_{kj} = \\sum_{i \\in V_k} \\omega_i a_{ij},\\ b_k = \\sum_{i \\in V_k} \\omega_i,
    \\qquad \\tau \\ge 0,\\ 0 \\le w \\le 1

is a relaxation of the clause LP. At its optimum ``w*`` the samples
``V = {i : Σ_j a_ij w*_j < 1}`` give the cut that ``w*`` violates most; when
``h(w*)`` equals ``τ*`` (within a tolerance), ``w*`` is optimal for the
clause LP itself, with the same objective. This is Kelley's cutting-plane
method with the aggregated ("one-slack") cut of Joachims' SVM-perf, in its
**multi-cut** form: the positive samples are dealt into K fixed groups
(sample p of the positives in group p mod K), the hinge sum of each group
has its own ``τ_g`` and gets its own cut, and the master minimises
``Σ_g τ_g``. Each cut has at most d + 1 coefficients however many rows the
data has. Measured on the 11 clause LPs of an AM fit on 100,000 rows: one
aggregated cut took 19-3,125 rounds (80 s in all, one LP alone 69 s),
K = 16 groups 17-263 rounds (22 s), K = 128 9-44 rounds (11 s), K = 512
6-22 rounds but larger masters (25 s); the dual simplex on the full LP took
60 s (``docs/benchmarks.md``).

The master is one persistent model per fit. The cuts are valid for one ω
only, so when BCD/AM re-weight the LP, its cuts are deleted from the model
(the master is then w and τ again, a few hundred columns and no row) and the
new LP's cuts are added. The backend reads that empty master afresh for the
first round of each LP, then appends each round's cuts to its instance in
place (:class:`solvers.NewRows`), so an LP's solution does not depend on the
LPs solved before. (Keeping the old cuts inactive instead made the master
grow to 17,000 rows in one fit on 20,000 rows and each master solve 150 ms;
deleting the rows from the HiGHS instance in place made HiGHS hang in the
third LP of a fit on 100,000 rows.)

Where the clause LP has several optimal solutions, the cutting planes may
return another one than the simplex method on the full LP (as the primal and
the dual may), so the rounded clause can differ there; where the optimum is
unique it is the same (tested against :func:`build_clause_lp`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo
import scipy.sparse as sp

from rulemodels.models._build import ParamArray, weighted_sum
from rulemodels.models.clause_lp import _clause_model, _ClauseParams

__all__ = [
    "CUT_GROUPS", "CUT_GROUPS_PER_SAMPLES", "CUT_GROUPS_RANGE", "CUT_STALL", "CUT_STALL_ROUNDS", "CUT_TOLERANCE",
    "ClauseCutLP", "build_clause_cut_lp",
]

#: Stop when the master's hinge variables are within this relative gap of the true hinge sum h(w).
CUT_TOLERANCE = 1e-9
#: ... or when the master's bound has not risen by more than this (relative) in :data:`CUT_STALL_ROUNDS` rounds:
#: the LP solver meets each cut only within its feasibility tolerance (about 1e-7 of the row's scale, and a cut's
#: coefficients are sums of thousands of weights), so past that point a cut no longer moves the master.
CUT_STALL = 1e-9
CUT_STALL_ROUNDS = 3
#: K, the number of groups of positive samples (each with its own hinge variable and cuts), when not given:
#: one per 1,000 positive samples, from 16 to 256. Measured in AM fits: on 20,000 rows K = 16 was fastest
#: (4.7 s; K = 64: 9.8 s), on 100,000 rows K = 64 (26 s; K = 16: 42 s).
CUT_GROUPS_PER_SAMPLES = 1_000
CUT_GROUPS_RANGE = (16, 256)
CUT_GROUPS: int | None = None


def build_clause_cut_lp(
    A: Any,
    y: Any,
    *,
    theta: float,
    sample_weight: Any = None,
    feature_cost: Any = None,
    tie_break: Any = None,
    n_groups: int | None = None,
) -> ClauseCutLP:
    """Build the cutting-plane master of the one-level clause LP (no cut yet; see the module docstring).

    Same data and Params as :func:`build_clause_lp` (``J``, ``P``, ``theta``,
    ``c``, ``epsilon``, ``weight``, ``neg_cost``), plus ``w``, the groups
    ``G`` of positive samples, their hinge variables ``tau[g]``, the cuts
    ``cut`` (of the current ω) and the ``objective`` (eq. (2.1)
    OneLevelFormulation with the hinge sums as ``τ_g``). Without clause
    disabling (``disable_cost``).

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features ``a_ij``.
    y : array-like of shape (n,), 0/1
        1 for samples the clause must cover (output 1), 0 for samples it must reject.
    theta : float
        Sparsity weight θ (mutable Param ``theta``).
    sample_weight : array-like of shape (n,) or None, default=None
        Weights ``ω_i >= 0`` (None: 1 each); changed with :meth:`ClauseCutLP.reweight`.
    feature_cost : array-like of shape (d,) or None, default=None
        Per-feature costs ``c_j`` (None: 1 each); mutable Param ``c``.
    tie_break : array-like of shape (d,) or None, default=None
        Tie-break costs ``ε_j >= 0`` added to the cost of ``w_j`` (mutable Param ``epsilon``; None: 0;
        see :func:`~rulemodels.models.tie_break_costs`).
    n_groups : int or None, default=None
        K, the number of groups of positive samples, each with its own hinge variable ``τ_g`` (at most the
        number of positive sample groups); None: :data:`CUT_GROUPS` when set, else one per
        :data:`CUT_GROUPS_PER_SAMPLES` positive samples within :data:`CUT_GROUPS_RANGE`.

    Returns
    -------
    ClauseCutLP
        The handle of the master, with no cut yet.
    """
    m, data = _clause_model(
        "clause_cut_lp", A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=None, merge_identical=True, tie_break=tie_break,
    )
    n_positive = int(data.groups.positives.shape[0])
    m.w = pyo.Var(m.J, domain=pyo.UnitInterval, doc="w_j = 1 if feature j is in the clause (eq. (2.4) OneLevelFormulationWj)")
    if n_groups is None:
        n_groups = CUT_GROUPS if CUT_GROUPS is not None else int(
            np.clip(n_positive // CUT_GROUPS_PER_SAMPLES, *CUT_GROUPS_RANGE))
    m.G = pyo.RangeSet(0, max(1, min(n_groups, n_positive)) - 1, doc="groups g of the positive samples (sample p in group p mod K)")
    m.tau = pyo.Var(
        m.G, domain=pyo.NonNegativeReals,
        doc="τ_g ≥ Σ_{i in group g, y_i=1} ω_i max(0, 1 − Σ_j a_ij w_j): the hinge sum of group g",
    )
    m.cut = pyo.ConstraintList(
        doc="τ_g + Σ_j (Σ_{i∈V} ω_i a_ij) w_j ≥ Σ_{i∈V} ω_i: the hinge terms of the samples V of group g, aggregated",
    )
    m.objective = pyo.Objective(
        expr=sum(m.tau[g] for g in m.G) + sum((m.neg_cost[j] + m.theta * m.c[j] + m.epsilon[j]) * m.w[j] for j in m.J),
        sense=pyo.minimize, doc="eq. (2.1) OneLevelFormulation with the hinge sums as τ",
    )
    return ClauseCutLP(m, data)


class ClauseCutLP(_ClauseParams):
    """The cutting-plane master of a clause LP, and how to re-weight it and add cuts in place.

    Made by :func:`build_clause_cut_lp`.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The built master (its ``w``, ``tau``, ``cut`` and the clause LP's Params).
    data : PreparedData
        The checked inputs it was built from (its sample groups and weights).

    Attributes
    ----------
    model : pyomo.environ.ConcreteModel
        The master.
    groups : SampleGroups
        The groups of identical samples its rows stand for.
    w_vars : list
        The variables ``w_j`` in the order of ``J``.
    n_cuts : int
        Cuts added so far.
    """

    def __init__(self, model: pyo.ConcreteModel, data: Any):
        self.model = model
        self.groups = data.groups
        positives, negatives = self.groups.positives, self.groups.negatives
        self._n_samples = int(data.sample_weight.shape[0])
        self._positives = positives
        self._negatives = negatives
        self._feature_index = list(range(data.n_features))
        self._n_groups = len(model.G)
        self._group_of = np.arange(positives.shape[0]) % self._n_groups  # positive sample p -> its group
        self._pos_patterns = sp.csr_matrix(self.groups.patterns[positives], dtype=np.float64)
        self._neg_patterns_t = self.groups.patterns[negatives].T.tocsr()
        self._weight = ParamArray(model.weight, [int(p) for p in positives])
        self._neg_cost = ParamArray(model.neg_cost, self._feature_index)
        self._cost = ParamArray(model.c, self._feature_index)
        self._epsilon = ParamArray(model.epsilon, self._feature_index)
        self.w_vars = list(model.w.values())
        self._round_weight = self._weight.values()  # ω of the positives for the re-weighting being solved
        self._round_cost: np.ndarray = self._neg_cost.values() + self.theta * self._cost.values() + self._epsilon.values()
        self.n_cuts = 0
        self._bounds: list[float] = []  # the master's objective after each round of the current ω

    def __repr__(self) -> str:
        return (f"ClauseCutLP({len(self.model.J)} features, {len(self.model.P)} positive groups in {self._n_groups} "
                f"hinge groups, {len(self.model.cut)} cuts)")

    @property
    def taus(self) -> list[Any]:
        """The hinge variables, in the order of ``G``."""
        return list(self.model.tau.values())

    def reweight(self, sample_weight: Any) -> None:
        """Store ω and delete the cuts of the previous ω from the model.

        The positives' ``weight`` and the aggregated ``neg_cost`` are stored in
        their Params; θ, ``c`` and ``ε`` are read from theirs. The master has
        lost rows, which :class:`solvers.ModelChanges` cannot declare: the
        next solve must read the whole (small) model, ``changes=None``.

        Parameters
        ----------
        sample_weight : array-like of shape (n,) or None
            The new weights ``ω_i >= 0`` of the samples; None: 1 each.
        """
        m = self.model
        positive_weight, neg_cost = self._store_sample_weight(sample_weight)
        cost = neg_cost + self.theta * self._cost.values() + self._epsilon.values()
        # the numbers just stored in (or read from) the Params, kept for this LP's rounds as ClauseLP.reweight does:
        # nothing changes the Params between the rounds of one LP
        self._round_weight, self._round_cost = positive_weight, cost
        self._bounds = []
        for key in list(m.cut.keys()):
            del m.cut[key]

    def add_cuts(self, w: np.ndarray, taus: np.ndarray) -> dict[str, Any] | None:
        """The cuts ``(w, τ)`` violates, added to the model, or None when ``w`` is optimal.

        The changes are the fields of :class:`solvers.NewRows`.

        ``w`` is optimal when the hinge variables sum to the hinge sum ``h(w)``
        within :data:`CUT_TOLERANCE` (relative to the objective): the master's
        objective, a lower bound of the clause LP's, then equals the clause
        LP's objective at ``w``. Otherwise every group whose hinge sum exceeds
        its ``τ_g`` gets the cut of its samples with ``Σ_j a_ij w_j < 1``.

        Parameters
        ----------
        w : numpy.ndarray of shape (d,)
            The master's solution ``w`` (:meth:`weights`).
        taus : numpy.ndarray of shape (K,)
            The master's hinge variables ``τ_g`` at that solution, in the order of ``G``.

        Returns
        -------
        dict or None
            ``{"new_rows": fields}``, the fields of :class:`solvers.NewRows` of the cuts added (for
            :func:`~rulemodels.algorithms.engine.as_model_changes`); None when ``w`` is optimal.
        """
        weight = self._round_weight
        sums = self._pos_patterns @ w
        inside = (sums < 1.0) & (weight > 0)
        terms = np.where(inside, weight * (1.0 - sums), 0.0)
        hinge = np.bincount(self._group_of, weights=terms, minlength=self._n_groups)
        total = float(hinge.sum() + self._round_cost @ w)
        tolerance = CUT_TOLERANCE * max(1.0, abs(total))
        gaps = hinge - taus
        if gaps.sum() <= tolerance:
            return None
        self._bounds.append(float(taus.sum() + self._round_cost @ w))  # the master's objective: a lower bound
        if len(self._bounds) > CUT_STALL_ROUNDS:
            rise = self._bounds[-1] - self._bounds[-1 - CUT_STALL_ROUNDS]
            if rise <= CUT_STALL * max(1.0, abs(total)) and gaps.sum() <= 1e-6 * max(1.0, abs(total)):
                return None  # optimal within the LP solver's tolerance (see CUT_STALL)
        groups = np.flatnonzero(gaps > tolerance / self._n_groups)
        aggregated = np.where(inside, weight, 0.0)
        members = sp.csr_matrix(
            (aggregated, (self._group_of, np.arange(weight.shape[0]))), shape=(self._n_groups, weight.shape[0]),
        )[groups]
        coefficients = np.asarray((members @ self._pos_patterns).todense())
        rhs = np.asarray(members.sum(axis=1)).ravel()
        m = self.model
        taus_vars = self.taus
        constraints, entries = [], []
        for row, g in enumerate(groups.tolist()):
            support = np.flatnonzero(coefficients[row])
            variables = [taus_vars[g]] + [self.w_vars[j] for j in support.tolist()]
            values = np.concatenate([[1.0], coefficients[row, support]])
            constraints.append(m.cut.add(weighted_sum(values, variables) >= float(rhs[row])))
            entries.append((variables, values))
        self.n_cuts += len(constraints)
        return {"new_rows": {  # the fields of solvers.NewRows
            "constraints": constraints, "lower": rhs, "upper": np.full(rhs.shape[0], np.inf), "entries": entries,
        }}

    def weights(self) -> np.ndarray:
        """Read the master's solution ``w`` (after a solve).

        Returns
        -------
        ndarray of float, shape (d,)
            The values of the variables ``w_j``, in the order of ``J``.

        Raises
        ------
        ValueError
            If the master has no solution yet.
        """
        values = [var.value for var in self.w_vars]
        if None in values:
            raise ValueError("the master has no solution: solve it first")
        return np.array(values, dtype=float)
