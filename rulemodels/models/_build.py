"""Helpers every builder shares: flat sums, Param reads and writes, the two-level model's common part.

Equation numbers are those a PDF reader sees in the paper (the SIAM style
numbers equations ``section.n`` with one running counter), followed by the
LaTeX label: (2.1) OneLevelFormulation ... (2.4) OneLevelFormulationWj,
(3.7) StdFormulation, (3.9) def-r0, (3.10) HammingFormulation,
(3.11) HammingFormulationCostNegative, (3.12) HammingFormulationBothVW,
(4.14) GeneralLPFormulation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr.numeric_expr import MonomialTermExpression, SumExpression

from rulemodels.models._data import SampleGroups, check_nonnegative, prepare_data

__all__ = [
    "TwoLevelModel",
    "build_two_level",
    "check_n_clauses",
    "clause_sum_rule",
    "declare_two_level",
    "linear_sum",
    "ParamArray",
    "param_values",
    "two_level_sparsity",
    "declare_literal_limits",
    "declare_clause_cuts",
    "SYMMETRY_ORDERS",
]

#: The orders :func:`declare_clause_cuts` can put the clauses in (``symmetry=``): by the number of their literals
#: (``"count"``, ``Σ_j w_jr ≥ Σ_j w_j,r+1``) or by the sum of their literals' indices plus one (``"index"``,
#: ``Σ_j (j + 1) w_jr ≥ Σ_j (j + 1) w_j,r+1``, fewer ties between different clauses).
SYMMETRY_ORDERS: tuple[str, ...] = ("count", "index")


def linear_sum(variables: Sequence[Any]) -> Any:
    """``Σ_k x_k`` as one flat sum of variables.

    A plain ``SumExpression`` of variables is linear for every Pyomo writer and
    is about 10x faster to build than ``LinearExpression`` (measured: 0.25 s vs
    2.4 s for 20,000 rows of 75 terms).
    """
    if not variables:
        return 0
    return SumExpression(list(variables))


def weighted_sum(coefficients: np.ndarray, variables: Sequence[Any]) -> Any:
    """``Σ_k c_k x_k`` as one flat sum of monomials (built without Pyomo's operator overloading, like :func:`linear_sum`)."""
    return SumExpression([MonomialTermExpression((c, var)) for c, var in zip(np.asarray(coefficients, dtype=float).tolist(), variables)])


def param_values(param: Any) -> np.ndarray:
    """The current values of an indexed mutable Param, in the order of its index set, as floats.

    This is how a handle reads what the model holds: the Params are the one
    source of truth, whether ``set_*`` or a user (``m.weight[p] = 2.0``)
    changed them.
    """
    return np.fromiter((data.value for data in param.values()), dtype=float, count=len(param))


class ParamArray:
    """An indexed mutable Param read and written as a numpy array, in the order of ``indices``.

    It holds the Param's data objects, never their values: the Param stays
    the one source of truth (a user's ``m.weight[p] = 2.0`` is what
    :meth:`values` reads next). Holding the data objects skips the Param's
    index-set iteration on every read, which halves the cost of reading a few
    hundred values; a BCD/AM fit reads them before every re-solve.
    """

    def __init__(self, param: Any, indices: Sequence[Any]):
        self.param = param
        self.indices = list(indices)
        self.items = [param[index] for index in self.indices]

    def extend(self, indices: Sequence[Any]) -> None:
        """Append ``indices`` (new members of the Param's index set) to the ones read and written."""
        self.indices.extend(indices)
        self.items.extend(self.param[index] for index in indices)

    def values(self) -> np.ndarray:
        """The current values, as floats."""
        return np.array([item() for item in self.items], dtype=float)  # a ParamData called is its value

    def store(self, values: np.ndarray) -> None:
        """Set every value to ``values`` (finite floats checked by the caller).

        Pyomo's per-item validation is skipped (``store_values(..., check=False)``):
        a BCD/AM re-solve changes about a thousand costs on Sonar, and validating
        each one (``set_value``) cost about as much as the LP. Writing them all is
        cheaper than reading them first to find the ones that change.
        """
        self.param.store_values(dict(zip(self.indices, values.tolist())), check=False)


def check_n_clauses(n_clauses: int) -> int:
    """``n_clauses`` as an int >= 1 (R, the number of clauses), or a ValueError saying what was given."""
    if isinstance(n_clauses, bool) or not isinstance(n_clauses, (int, np.integer)) or n_clauses < 1:
        raise ValueError(f"n_clauses must be an integer >= 1, got {n_clauses!r}")
    return int(n_clauses)


def declare_two_level(
    m: pyo.ConcreteModel,
    *,
    n_features: int,
    n_clauses: int,
    groups: SampleGroups,
    group_weight: np.ndarray,
    costs: np.ndarray,
    theta: float,
    relax: bool,
    disable_cost: float | None,
) -> None:
    """Sets ``J``, ``R``, ``P``, ``N``, Params ``theta``, ``c``, ``weight`` (``c0``) and Vars ``w`` (``w0``) of a two-level model."""
    m.J = pyo.RangeSet(0, n_features - 1, doc="binary features j = 0..d-1")
    m.R = pyo.RangeSet(0, n_clauses - 1, doc="clauses r = 0..R-1")
    m.P = pyo.Set(initialize=groups.positives.tolist(), doc="samples with y_i = 1 (groups of identical rows)")
    m.N = pyo.Set(initialize=groups.negatives.tolist(), doc="samples with y_i = 0 (groups of identical rows)")
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="sparsity weight θ")
    m.c = pyo.Param(m.J, initialize=dict(enumerate(costs.tolist())), mutable=True, doc="cost c_j of using feature j")
    m.weight = pyo.Param(
        m.P | m.N, initialize={int(i): float(group_weight[i]) for i in (*groups.positives, *groups.negatives)},
        mutable=True, doc="sample weight ω_i",
    )
    domain = pyo.UnitInterval if relax else pyo.Binary
    m.w = pyo.Var(m.J, m.R, domain=domain, doc="w_jr = 1 if feature j is in clause r")
    if disable_cost is not None:
        m.c0 = pyo.Param(initialize=float(disable_cost), mutable=True, doc="cost c_0 of the always-true feature")
        m.w0 = pyo.Var(m.R, domain=domain, doc="w_0r = 1 selects the always-true feature a_i0 = 1: clause r is disabled (section 3)")


def clause_sum_rule(groups: SampleGroups, has_w0: bool) -> Any:
    """``(model, i, r) -> Σ_j a_ij w_jr (+ w_0r)`` over the nonzero ``a_ij`` of sample group i."""
    indptr, indices = groups.patterns.indptr, groups.patterns.indices

    def clause_sum(model: pyo.ConcreteModel, i: int, r: int) -> Any:
        terms = [model.w[j, r] for j in indices[indptr[i]:indptr[i + 1]]]
        if has_w0:
            terms.append(model.w0[r])
        return linear_sum(terms)

    return clause_sum


def check_literal_limits(
    n_features: int, forbidden: Any, max_literals: int | None, counted: int | None = None,
) -> tuple[list[int], int | None]:
    """``forbidden`` as a sorted list of feature indices and ``max_literals`` as an int >= 1 or None, else a ValueError."""
    indices = sorted({int(j) for j in np.asarray([] if forbidden is None else forbidden, dtype=np.int64).ravel()})
    if indices and (indices[0] < 0 or indices[-1] >= n_features):
        raise ValueError(f"forbidden feature indices must be in 0..{n_features - 1}, got {indices}")
    if max_literals is not None and (
        isinstance(max_literals, bool) or not isinstance(max_literals, (int, np.integer)) or max_literals < 1
    ):
        raise ValueError(f"max_literals must be an integer >= 1 or None, got {max_literals!r}")
    if counted is not None and not 0 <= counted <= n_features:
        raise ValueError(f"counted must be in 0..{n_features}, got {counted}")
    return indices, None if max_literals is None else int(max_literals)


def declare_literal_limits(
    m: pyo.ConcreteModel, forbidden: Sequence[int], max_literals: int | None, *, counted: int | None = None,
) -> None:
    """The domain constraints on ``w`` (``docs/constraints.md``), with the names ``pprint()`` shows.

    ``forbidden_literal[j, r]``: ``w_jr = 0`` for every forbidden feature j
    (a forbidden column, or a literal against a monotone direction) and
    clause r; ``max_literals[r]``: ``Σ_j w_jr ≤ k`` over the first
    ``counted`` features (default all: the always-true feature of a clause
    LP's working data is no literal). A one-level model (``w`` indexed by J
    alone) gets ``forbidden_literal[j]`` and the single ``max_literals``.
    Nothing is added when there is nothing to constrain, so an
    unconstrained model is the paper's.
    """
    two_level = m.find_component("R") is not None
    n_counted = len(m.J) if counted is None else counted
    if forbidden:
        if two_level:
            m.forbidden_literal = pyo.Constraint(
                [(int(j), r) for j in forbidden for r in m.R], rule=lambda model, j, r: model.w[j, r] == 0,
                doc="w_jr = 0: feature j is forbidden (forbidden column, or against a monotone direction)",
            )
        else:
            m.forbidden_literal = pyo.Constraint(
                [int(j) for j in forbidden], rule=lambda model, j: model.w[j] == 0,
                doc="w_j = 0: feature j is forbidden (forbidden column, or against a monotone direction)",
            )
    if max_literals is not None:
        m.k_max = pyo.Param(initialize=int(max_literals), mutable=True, doc="k: at most this many literals per clause")
        if two_level:
            m.max_literals = pyo.Constraint(
                m.R, rule=lambda model, r: linear_sum([model.w[j, r] for j in range(n_counted)]) <= model.k_max,
                doc="Σ_j w_jr ≤ k: at most k literals in clause r",
            )
        else:
            m.max_literals = pyo.Constraint(
                expr=linear_sum([m.w[j] for j in range(n_counted)]) <= m.k_max, doc="Σ_j w_j ≤ k: at most k literals in the clause",
            )


def check_chains(chains: Any, patterns: Any) -> list[list[int]]:
    """``chains`` as lists of feature indices, each ordered so that every column contains the one before it.

    A chain is a set of features whose columns are nested on every row of the model
    (``patterns``, the distinct rows): for ``x <= t1``, ``x <= t2`` with ``t1 < t2``
    the rows of the first are among those of the second. Members are sorted by
    the number of rows they hold; chains of fewer than two members are dropped.

    Raises
    ------
    ValueError
        If a chain names a feature out of range, names one twice, or is not nested on the rows.
    """
    if chains is None:
        return []
    matrix = patterns.tocsc()
    n_features = matrix.shape[1]
    checked: list[list[int]] = []
    for chain in chains:
        members = [int(j) for j in chain]
        if len(set(members)) != len(members) or any(j < 0 or j >= n_features for j in members):
            raise ValueError(f"a chain must name distinct features in 0..{n_features - 1}, got {members}")
        if len(members) < 2:
            continue
        sizes = np.diff(matrix.indptr)[members]
        members = [members[k] for k in np.argsort(sizes, kind="stable")]
        for small, large in zip(members, members[1:]):
            rows_small = matrix.indices[matrix.indptr[small]:matrix.indptr[small + 1]]
            rows_large = matrix.indices[matrix.indptr[large]:matrix.indptr[large + 1]]
            if not np.isin(rows_small, rows_large).all():
                raise ValueError(
                    f"features {small} and {large} of the chain {sorted(members)} are not nested on the rows (the rows "
                    "of one must be among those of the other): pass only chains of one column's thresholds in one direction"
                )
        checked.append(members)
    return checked


def declare_clause_cuts(m: pyo.ConcreteModel, *, symmetry: str | None, chains: Sequence[Sequence[int]]) -> None:
    """The clause symmetry order and the chain cuts on ``w``, with the names ``pprint()`` shows.

    ``clause_order[r]`` (``symmetry``, R ≥ 2): ``Σ_j o_j w_jr ≥ Σ_j o_j w_j,r+1``
    with the Param ``o`` (1 for ``"count"``, j + 1 for ``"index"``). Clauses
    are interchangeable (permuting them, with their ``w0``, changes neither the
    rule nor its objective), so sorting any solution's clauses by
    ``Σ_j o_j w_jr`` gives one that meets the order with the same objective:
    no objective value is lost, only copies of the same rule. The coefficients
    are small integers (at most d), so the order holds exactly in floating point.

    ``chain_literal[h, r]`` (``chains``, each checked nested by
    :func:`check_chains`): ``Σ_{j ∈ H_h} w_jr ≤ 1``. The clause is an OR of
    its columns, and a column contained in another adds nothing to it, so
    dropping every member but the largest chosen one keeps every clause's
    output and lowers the cost by θ c_j ≥ 0: some optimum meets every chain
    cut (every optimum when θ c_j > 0), also under ``forbidden`` and
    ``max_literals``, which dropping a literal cannot break. In the user's
    rule this is, for a CNF clause (OR), ``x <= t1 OR x <= t2 = x <= t2``, and
    for a DNF term (AND, learned on the negated columns), ``x <= t1 AND x <= t2
    = x <= t1``. Categorical ``==``/``!=`` literals of one column are no chain:
    their columns are disjoint, not nested, and an OR of two of them (or an
    AND) is a rule no single one gives.
    """
    if symmetry is not None and symmetry not in SYMMETRY_ORDERS:
        raise ValueError(f"symmetry must be one of {SYMMETRY_ORDERS} or None, got {symmetry!r}")
    if symmetry is not None and len(m.R) > 1:
        order = dict.fromkeys(m.J, 1.0) if symmetry == "count" else {j: float(j + 1) for j in m.J}
        m.o = pyo.Param(m.J, initialize=order, doc=f"o_j: weight of feature j in the clause order ({symmetry!r})")
        coefficients = np.array(list(order.values()))
        m.clause_order = pyo.Constraint(
            pyo.RangeSet(0, len(m.R) - 2),
            rule=lambda model, r: weighted_sum(
                np.concatenate([coefficients, -coefficients]), [*(model.w[j, r] for j in model.J), *(model.w[j, r + 1] for j in model.J)],
            ) >= 0,
            doc="Σ_j o_j w_jr ≥ Σ_j o_j w_j,r+1: clauses in order (symmetry breaking; clauses are interchangeable)",
        )
    if chains:
        m.H = pyo.RangeSet(0, len(chains) - 1, doc="threshold chains h: features of one column, nested (x <= t1 ⊂ x <= t2)")
        m.chain = pyo.Set(m.H, initialize={h: list(members) for h, members in enumerate(chains)}, ordered=True,
                          doc="H_h: the features of chain h, each column within the next")
        m.chain_literal = pyo.Constraint(
            m.H, m.R, rule=lambda model, h, r: linear_sum([model.w[j, r] for j in model.chain[h]]) <= 1,
            doc="Σ_{j ∈ H_h} w_jr ≤ 1: at most one literal of chain h in clause r (a nested one adds nothing)",
        )


def two_level_sparsity(m: pyo.ConcreteModel) -> Any:
    """``θ (Σ_r Σ_j c_j w_jr + c_0 Σ_r w_0r)``."""
    total = m.theta * sum(m.c[j] * m.w[j, r] for j in m.J for r in m.R)
    if m.find_component("w0") is not None:
        total = total + m.theta * m.c0 * sum(m.w0[r] for r in m.R)
    return total


def build_two_level(
    name: str,
    A: Any,
    y: Any,
    n_clauses: int,
    *,
    declare_errors: Callable[[pyo.ConcreteModel, SampleGroups, bool], Any],
    accuracy_doc: str,
    objective_doc: str,
    theta: float,
    relax: bool,
    sample_weight: Any,
    feature_cost: Any,
    disable_cost: float | None,
    merge_identical: bool,
    forbidden: Any,
    max_literals: int | None,
    counted: int | None,
    symmetry: str | None = None,
    chains: Any = None,
) -> TwoLevelModel:
    """A two-level model named ``name``: what :func:`~rulemodels.models.build_zero_one` and :func:`~rulemodels.models.build_hamming` share.

    Checks the inputs, groups the samples and declares, in this order, the
    common part (:func:`declare_two_level`), the model's own error variables
    and constraints (``declare_errors(m, groups, has_w0)``, which returns the
    accuracy term ``Σ_i ω_i (error of sample i)``), the literal limits
    (:func:`declare_literal_limits`), the clause order and chain cuts
    (:func:`declare_clause_cuts`), ``accuracy_cost`` (with ``accuracy_doc``),
    ``sparsity_cost`` and the ``objective`` (with ``objective_doc``).
    """
    n_clauses = check_n_clauses(n_clauses)
    data = prepare_data(
        A, y, theta=theta, sample_weight=sample_weight, feature_cost=feature_cost,
        disable_cost=disable_cost, merge_identical=merge_identical,
    )
    forbidden, max_literals = check_literal_limits(data.n_features, forbidden, max_literals, counted)
    m = pyo.ConcreteModel(name=name)
    declare_two_level(
        m, n_features=data.n_features, n_clauses=n_clauses, groups=data.groups, group_weight=data.group_weight,
        costs=data.costs, theta=theta, relax=relax, disable_cost=disable_cost,
    )
    accuracy = declare_errors(m, data.groups, disable_cost is not None)
    declare_literal_limits(m, forbidden, max_literals, counted=counted)
    declare_clause_cuts(m, symmetry=symmetry, chains=check_chains(chains, data.groups.patterns))
    m.accuracy_cost = pyo.Expression(expr=accuracy, doc=accuracy_doc)
    m.sparsity_cost = pyo.Expression(expr=two_level_sparsity(m), doc="θ Σ_r Σ_j c_j w_jr")
    m.objective = pyo.Objective(expr=m.accuracy_cost + m.sparsity_cost, doc=objective_doc)
    return TwoLevelModel(m, data.groups)


class TwoLevelModel:
    """A built two-level model (:func:`~rulemodels.models.build_zero_one`, :func:`~rulemodels.models.build_hamming`).

    Owns the Pyomo ``model`` and the sample ``groups`` its rows stand for, and
    changes θ in place. Every number is read from the model's Params, so a
    change made the Pyomo way (``handle.model.theta = 0.5``) is what
    :meth:`sparsity_changes` reports.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The Pyomo model, its θ a mutable Param.
    groups : SampleGroups
        The groups of identical samples behind the sets ``P`` and ``N``.
    """

    def __init__(self, model: pyo.ConcreteModel, groups: SampleGroups):
        self.model = model
        self.groups = groups

    def __repr__(self) -> str:
        m = self.model
        return f"TwoLevelModel({m.name!r}, {len(m.J)} features, R={len(m.R)}, {self.groups.n_groups} sample groups)"

    def set_theta(self, theta: float) -> None:
        """Change the sparsity weight θ in place.

        Parameters
        ----------
        theta : float
            The new sparsity weight θ >= 0.
        """
        check_nonnegative("theta", theta)
        self.model.theta = float(theta)

    def sparsity_changes(self) -> dict[str, Any]:
        """The objective coefficients ``θ c_j`` of every ``w_jr`` (and ``θ c_0`` of ``w0[r]``), for an in-place re-solve.

        A dict for :class:`solvers.ModelChanges` after θ or ``c`` changed
        (θ is the only Param the drivers change in a two-level model), read
        from the Params.

        Returns
        -------
        dict
            The changes for the backend: the new objective coefficients.
        """
        m = self.model
        theta = float(pyo.value(m.theta))
        n_clauses = len(m.R)
        variables = [m.w[j, r] for j in m.J for r in m.R]
        values = np.repeat(theta * param_values(m.c), n_clauses)
        if m.find_component("w0") is not None:
            variables += [m.w0[r] for r in m.R]
            values = np.concatenate([values, np.full(n_clauses, theta * float(pyo.value(m.c0)))])
        return {"objective": (variables, values)}

    def conform(self, W: np.ndarray, w0: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The binary rule ``W`` (and ``w0``) made to meet the model's clause cuts, with the same predictions.

        In each clause, of the chosen members of a chain (``chain_literal``)
        only the last one (its column contains the others') is kept: the
        clause's output on every row is unchanged and its cost drops by
        ``θ c_j`` per member dropped. Then the clauses (with their ``w0``) are
        sorted, stably, into the model's clause order (``clause_order``,
        non-increasing ``Σ_j o_j w_jr``), which permutes the clauses of the
        rule and changes nothing else. A model without those cuts returns
        ``W`` as given.

        Parameters
        ----------
        W : numpy.ndarray of shape (d, R)
            The binary rule.
        w0 : numpy.ndarray of shape (R,) or None, default=None
            The clause-disabling feature's values (None: 0).

        Returns
        -------
        tuple of numpy.ndarray
            ``(W, w0)``: copies, the rule meeting the cuts.
        """
        m = self.model
        W = np.array(W, dtype=float)
        w0 = np.zeros(W.shape[1]) if w0 is None else np.array(w0, dtype=float)
        if m.find_component("chain") is not None:
            for h in m.H:
                members = list(m.chain[h])  # each column within the next
                for r in range(W.shape[1]):
                    chosen = [j for j in members if W[j, r] > 0.5]
                    W[chosen[:-1], r] = 0.0
        if m.find_component("clause_order") is not None:
            keys = np.array([pyo.value(m.o[j]) for j in m.J]) @ W
            order = np.argsort(-keys, kind="stable")
            W, w0 = W[:, order], w0[order]
        return W, w0

    def set_start(self, W: np.ndarray, w0: np.ndarray | None = None) -> None:
        """Give every variable the value it has at the binary rule ``W`` (d, R), a feasible MIP start.

        ``w`` (and ``w0``, the clause-disabling feature, 0 when not given) take
        the rule's values, and the error variables the smallest values their
        constraints allow at it, so the start is feasible and its objective is
        the rule's: in the 0-1 MIP (eq. (4.14)) ``β_ir`` is the output of
        clause r on negative i and ``ψ_i = |ŷ_i − y_i|``; in the Hamming MIP
        (eq. (3.10)) ``ξ_ir = max{0, 1 − Σ_j a_ij w_jr}``, ``η_i = min_r Σ_j a_ij w_jr``
        and ``z`` assigns each negative to the first clause reaching that minimum.
        A backend started with ``solve(..., mip_start=True)`` offers these
        values to the solver as its first incumbent. ``W`` is first made to
        meet the model's clause cuts (:meth:`conform`): the same predictions,
        at a cost no higher, so the start stays feasible.

        Parameters
        ----------
        W : numpy.ndarray of shape (d, R)
            The binary rule: ``W[j, r] = 1`` selects feature j in clause r.
        w0 : numpy.ndarray of shape (R,) or None, default=None
            The value of the clause-disabling feature of each clause; None: 0.

        Raises
        ------
        ValueError
            If ``W`` is not binary of shape ``(n_features, n_clauses)``, or ``w0`` disables a clause the model cannot.
        """
        m = self.model
        W = np.asarray(W, dtype=float)
        n_features, n_clauses = len(m.J), len(m.R)
        if W.shape != (n_features, n_clauses) or not np.all((W == 0) | (W == 1)):
            raise ValueError(f"the start must be a binary W of shape ({n_features}, {n_clauses}), got shape {W.shape}")
        has_w0 = m.find_component("w0") is not None
        disabled = np.zeros(n_clauses) if w0 is None or not has_w0 else np.asarray(w0, dtype=float)
        if w0 is not None and not has_w0 and np.any(np.asarray(w0) != 0):
            raise ValueError("the start disables a clause (w0 = 1) but the model has no always-true feature")
        W, disabled = self.conform(W, disabled)
        for (j, r), var in m.w.items():
            var.set_value(float(W[j, r]))
        if has_w0:
            for r, var in m.w0.items():
                var.set_value(float(disabled[r]))
        sums = np.asarray(self.groups.patterns @ W) + disabled  # Σ_j a_ij w_jr (+ w_0r), one row per group
        if m.find_component("psi") is not None:  # the 0-1 error MIP
            for i in m.P:
                m.psi[i].set_value(float(np.any(sums[i] < 0.5)))
            for i in m.N:
                outputs = np.minimum(sums[i], 1.0)
                for r in m.R:
                    m.beta[i, r].set_value(float(outputs[r]))
                m.psi[i].set_value(float(max(0.0, outputs.sum() - (n_clauses - 1))))
        else:  # the Hamming MIP
            for i in m.P:
                for r in m.R:
                    m.xi[i, r].set_value(float(max(0.0, 1.0 - sums[i, r])))
            for i in m.N:
                first = int(np.argmin(sums[i]))
                m.eta[i].set_value(float(sums[i, first]))
                for r in m.R:
                    m.z[i, r].set_value(float(r == first))

    def make_errors_integer(self) -> None:
        """Declare the error variables integer, for solvers of integer programs only (CP-SAT): the optimum is unchanged.

        With binary ``w`` (and ``z``) every error variable is integer at an
        optimum, because each is bounded below only by integer expressions
        of binary variables and costs nothing or a positive weight: in the
        0-1 MIP (eq. (4.14)) ``β_ir`` becomes binary (``β_ir ≥ a_ij w_jr``) and
        so does ``ψ_i`` (``ψ_i = |ŷ_i − y_i|``; its lower bounds are at most 1);
        in the Hamming MIP (eq. (3.10)) ``ξ_ir`` becomes binary
        (``ξ_ir ≥ 1 − Σ_j a_ij w_jr``) and ``η_i`` an integer in ``[0, M_i]``
        (``η_i ≥ Σ_j a_ij w_jr − M_i (1 − z_ir)``). A model without binary ``w``
        (TLP, ``relax=True``) is left as it is.
        """
        m = self.model
        if not all(var.is_binary() for var in m.w.values()):
            return
        for name in ("psi", "beta", "xi"):
            component = m.find_component(name)
            if component is not None:
                component.domain = pyo.Binary
        if m.find_component("eta") is not None:
            for i, var in m.eta.items():
                var.domain = pyo.NonNegativeIntegers
                var.setub(float(pyo.value(m.bigM[i])))
