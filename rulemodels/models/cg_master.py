"""Column generation's restricted master LP, grown in place (:func:`build_cg_master`, :class:`CGMaster`).

The model, its grouped rows and the changes each new clause declares to a
persistent backend are stated in :mod:`rulemodels.models.column_generation`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr.numeric_expr import SumExpression
from pyomo.core.expr.relational_expr import InequalityExpression

from rulemodels.models._build import ParamArray, linear_sum
from rulemodels.models._data import check_nonnegative, unique_rows
from rulemodels.models._docs import SET_THETA_SECTIONS
from rulemodels.models.cg_columns import ClauseColumns
from rulemodels.utils import fill_doc

__all__ = ["CGMaster", "build_cg_master"]


def build_cg_master(
    columns: ClauseColumns,
    clauses: Iterable[Sequence[int]],
    *,
    theta: float,
    clause_cost: float,
    max_clauses: int,
    group_rows: bool = False,
) -> CGMaster:
    """Build (not solve) the restricted master LP over the initial ``clauses`` (feature indices, CNF view).

    ``clauses`` must hold at least one clause. The model's components:
    ``P`` (rows to cover), ``K`` (the clauses, a Set that grows), ``theta``,
    ``c0`` (cost of a clause, in literals), ``R`` (cap on the number of
    clauses), ``weight[i]`` (ω of a row of P), ``pay[k]`` (Σ ω_i over the
    rows of Z clause k fails on), ``literals[k]`` (Σ_{j∈k} c_j), the
    variables ``xi`` and ``w``, the constraints ``cover`` and ``size``, the
    ``objective`` (the named expressions ``uncovered`` + ``clause_costs``)
    and a ``dual`` import Suffix.

    ``group_rows=True``: each element of ``P`` is a group of the rows to cover
    that the same clauses fail on (its ``weight`` their summed ω), not one row.
    Such rows have the same ``cover`` row but for their ``ξ_i``, and all of them
    have ``ξ_i = max(0, 1 − Σ_k w_k)`` at an optimum, so the LP and the integer
    program keep their optimum with one row per group (a few hundred where
    a million rows have half a million to cover). A clause that fails on part
    of a group splits it (:meth:`CGMaster.add_clauses`), and the duals are
    shared among a group's rows in proportion to their weights
    (:meth:`CGMaster.duals`: a dual solution of the row-by-row LP).

    Parameters
    ----------
    columns : ClauseColumns
        The rows and costs (:func:`prepare_cg_data`).
    clauses : iterable of sequence of int
        The initial clauses, each as feature indices; at least one.
    theta : float
        The sparsity weight θ (Param ``theta``).
    clause_cost : float
        ``c_0``, the cost of a clause in literals (Param ``c0``).
    max_clauses : int
        The cap ``R`` on the number of selected clauses (Param ``R``).
    group_rows : bool, default=False
        One element of ``P`` per group of rows the same clauses fail on (see above).

    Returns
    -------
    CGMaster
        The master LP, not solved.

    Raises
    ------
    ValueError
        If ``clauses`` holds no clause.
    """
    check_nonnegative("theta", theta)
    check_nonnegative("clause_cost", clause_cost)
    _check_max_clauses(max_clauses)
    keys = _distinct(clauses)
    if not keys:
        raise ValueError("the restricted master needs at least one clause to start from")
    fails = [columns.fails(key) for key in keys]
    groups = _RowGroups.of(np.column_stack([cover for cover, _ in fails]), columns) if group_rows else _RowGroups.rows(columns)
    ids = groups.ids
    m = pyo.ConcreteModel(name="cg_master")
    m.P = pyo.Set(
        initialize=ids, ordered=True,
        doc="groups of rows to cover that the same clauses fail on (grows as clauses split them), DGW's positives: "
            "y_i = 0 in the CNF problem" if group_rows else
            "rows to cover, DGW's positives: y_i = 0 in the CNF problem (groups of identical rows)",
    )
    m.K = pyo.Set(
        initialize=range(len(keys)), ordered=True,
        doc="clauses generated so far (grows; clause k's features are CGMaster.clauses[k])",
    )
    m.theta = pyo.Param(initialize=float(theta), mutable=True, doc="θ: cost of one literal, in misclassified weight")
    m.c0 = pyo.Param(initialize=float(clause_cost), mutable=True, doc="c_0: complexity of a clause itself, in literals")
    m.R = pyo.Param(initialize=int(max_clauses), mutable=True, doc="R: at most this many clauses")
    m.weight = pyo.Param(
        m.P, initialize=dict(zip(ids, groups.weights(columns).tolist())), mutable=True,
        doc="Σ_{i ∈ g} ω_i: weight of the rows of group g ∈ P" if group_rows else "ω_i: weight of row i ∈ P",
    )
    m.pay = pyo.Param(
        m.K, mutable=True, initialize={k: float(columns.pay_weight[pay].sum()) for k, (_, pay) in enumerate(fails)},
        doc="Σ_{i ∈ Z ∩ F_k} ω_i: what the rows of Z clause k fails on pay (DGW's negatives covered by term k)",
    )
    m.literals = pyo.Param(
        m.K, mutable=True, initialize={k: columns.complexity(key, 0.0) for k, key in enumerate(keys)},
        doc="Σ_{j ∈ k} c_j: the literals of clause k",
    )
    m.xi = pyo.Var(m.P, domain=pyo.NonNegativeReals, doc="ξ_i: row i ∈ P is covered by no selected clause (an error)")
    m.w = pyo.Var(m.K, domain=pyo.UnitInterval, doc="w_k: clause k is selected (binary in the final selection)")
    terms: dict[int, list[Any]] = {i: [] for i in ids}
    first_rows = groups.first_rows()
    for k, (cover, _) in enumerate(fails):
        for g in np.flatnonzero(cover[first_rows]).tolist():
            terms[ids[g]].append(m.w[k])
    m.cover = pyo.Constraint(
        m.P, rule=lambda model, i: _cover(model.xi[i], terms[i]),
        doc="ξ_i + Σ_{k: i ∈ F_k} w_k ≥ 1 for i ∈ P (DGW master: cover every positive or pay its error); dual μ_i ≥ 0",
    )
    m.size = pyo.Constraint(expr=linear_sum(list(m.w.values())) <= m.R, doc="Σ_k w_k ≤ R (at most R clauses); dual ν ≤ 0")
    uncovered = [_uncovered_term(m, i) for i in m.P]
    clause_costs = [_clause_cost_term(m, k) for k in m.K]
    m.uncovered = pyo.Expression(
        expr=linear_sum(uncovered), doc="Σ_{i∈P} ω_i ξ_i: the weight of the rows left uncovered",
    )
    m.clause_costs = pyo.Expression(
        expr=linear_sum(clause_costs), doc="Σ_k (pay_k + θ (c_0 + literals_k)) w_k: what the selected clauses cost (grows with K)",
    )
    m.objective = pyo.Objective(
        expr=m.uncovered + m.clause_costs, sense=pyo.minimize,
        doc="Σ_{i∈P} ω_i ξ_i + Σ_k (pay_k + θ (c_0 + literals_k)) w_k (DGW master, penalised form)",
    )
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT, doc="μ_i = dual(cover[i]), ν = dual(size)")
    return CGMaster(m, columns, keys, terms, groups, (uncovered, clause_costs))


class _RowGroups:
    """Which rows to cover each element of the master's ``P`` stands for (positions in ``ClauseColumns.cover_rows``).

    Without grouping each row is its own element, named by its row (the
    master of earlier versions, row for row); with it, an element is a group of
    rows that the same clauses fail on, named 0, 1, ... in the order the
    groups appear, and split when a new clause fails on part of one.
    """

    def __init__(self, group_of_row: np.ndarray, ids: list[int], members: list[np.ndarray] | None):
        self.group_of_row = group_of_row  # position of each row's element in ``ids``
        self.ids = ids  # the index in P of each element
        self.members = members  # the rows of each element (None: each element is one row)
        self._first: np.ndarray | None = None  # first_rows(), kept up to date by split()

    @classmethod
    def rows(cls, columns: ClauseColumns) -> _RowGroups:
        return cls(np.arange(columns.cover_rows.shape[0]), [int(i) for i in columns.cover_rows], None)

    @classmethod
    def of(cls, covers: np.ndarray, columns: ClauseColumns) -> _RowGroups:
        """Rows with the same row of ``covers`` (rows to cover x clauses: the clause fails there) in one group."""
        if covers.shape[0] == 0:
            return cls(np.zeros(0, dtype=np.intp), [], [])
        first, inverse = unique_rows(covers)
        order = np.argsort(first, kind="stable")  # groups in the order of their first row
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        group_of_row = rank[inverse.ravel()]
        by_group = np.argsort(group_of_row, kind="stable")
        members = np.split(by_group, np.cumsum(np.bincount(group_of_row, minlength=order.size))[:-1])
        return cls(group_of_row, list(range(order.size)), members)

    @property
    def grouped(self) -> bool:
        return self.members is not None

    def first_rows(self) -> np.ndarray:
        """One row of each element (all rows of an element fail on the same clauses)."""
        if self.members is None:
            return np.arange(len(self.ids))
        if self._first is None:
            self._first = np.array([rows[0] for rows in self.members], dtype=np.intp)
        return self._first

    def split(self, g: int, inside: np.ndarray) -> np.ndarray:
        """Move the rows of element ``g`` where ``inside`` (a mask over its rows) to a new element, appended; return them."""
        assert self.members is not None
        rows = self.members[g]
        moved, kept = rows[inside], rows[~inside]
        self.members[g] = kept
        self.members.append(moved)
        self.group_of_row[moved] = len(self.ids)
        self.ids.append(len(self.ids))
        if self._first is not None:
            self._first[g] = kept[0]
            self._first = np.append(self._first, moved[0])
        return moved

    def weights(self, columns: ClauseColumns) -> np.ndarray:
        """Σ ω_i over each element's rows (a row's own ω without grouping)."""
        if self.members is None:
            return columns.cover_weight.copy()
        return np.array([columns.cover_weight[rows].sum() for rows in self.members], dtype=float)


def _check_max_clauses(max_clauses: Any) -> None:
    """The cap R is an integer >= 1 (a ValueError otherwise)."""
    if isinstance(max_clauses, bool) or not isinstance(max_clauses, (int, np.integer)) or max_clauses < 1:
        raise ValueError(f"max_clauses must be an integer >= 1, got {max_clauses!r}")


def _distinct(clauses: Iterable[Sequence[int]]) -> list[tuple[int, ...]]:
    """Each clause as its sorted feature indices, duplicates dropped (first kept)."""
    seen: dict[tuple[int, ...], None] = {}
    for clause in clauses:
        seen.setdefault(tuple(sorted({int(j) for j in clause})), None)
    return list(seen)


def _cover(xi: Any, terms: list[Any]) -> Any:
    """``ξ_i + Σ_{k: i ∈ F_k} w_k ≥ 1``, the ``cover`` row of element i of P (built without Pyomo's operator dispatch)."""
    return InequalityExpression((1, SumExpression([*terms, xi]) if terms else xi), False)


def _uncovered_term(m: pyo.ConcreteModel, i: int) -> Any:
    """``ω_i ξ_i``: the term of element i of P in the master objective's part over the rows to cover."""
    return m.weight[i] * m.xi[i]


def _clause_cost_term(m: pyo.ConcreteModel, k: int) -> Any:
    """``(pay_k + θ (c_0 + literals_k)) w_k``: the term of clause k in the master objective's part over the clauses."""
    return (m.pay[k] + m.theta * (m.c0 + m.literals[k])) * m.w[k]


class CGMaster:
    """The restricted master LP of column generation, grown in place (see the module docstring).

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The built master LP.
    columns : ClauseColumns
        The rows and costs it was built from.
    clauses : list of tuple of int
        The features of each clause of ``K``, in order.
    terms : dict of int to list
        For each element of ``P``, the ``w_k`` of the clauses that fail on its rows (cover them).
    groups : _RowGroups
        The elements of ``P``: the groups of rows to cover.
    objective_terms : tuple of two lists
        The terms of the named expressions ``uncovered`` and ``clause_costs``, in the order of ``P`` and ``K``.

    Attributes
    ----------
    model : pyomo.environ.ConcreteModel
    columns : ClauseColumns
    clauses : list of tuple of int
        The features of clause k (CNF view), for k in the order of ``K``.
    """

    def __init__(self, model: pyo.ConcreteModel, columns: ClauseColumns, clauses: list[tuple[int, ...]],
                 terms: dict[int, list[Any]], groups: _RowGroups, objective_terms: tuple[list[Any], list[Any]]):
        self.model = model
        self.columns = columns
        self.clauses: list[tuple[int, ...]] = list(clauses)
        self._index = {key: k for k, key in enumerate(self.clauses)}
        self._terms = terms  # element of P -> the w_k of the clauses that fail on its rows (cover them)
        self._covers: list[np.ndarray] = []  # the rows each clause covers, in the order of K (ungrouped rows only)
        self._groups = groups
        self._cover_rows = [model.cover[i] for i in groups.ids]  # the cover rows of P, in order (grows with P)
        self._xi = [model.xi[i] for i in groups.ids]  # ξ of P, in order (grows with P)
        self._w = [model.w[k] for k in model.K]  # w of K, in order (grows with K)
        self._weight = ParamArray(model.weight, groups.ids)  # ω of P, in order (grows with P)
        # the terms of ``uncovered`` and ``clause_costs``, in the order of P and K: a new element or clause appends its
        # term and the named expression is set to the longer sum, so the terms already there are never built again
        self._uncovered_terms, self._cost_terms = objective_terms

    def __repr__(self) -> str:
        kind = "groups of rows" if self._groups.grouped else "rows"
        return f"CGMaster({len(self.model.P)} {kind} to cover, {len(self.clauses)} clauses)"

    def __contains__(self, clause: Sequence[int]) -> bool:
        return tuple(sorted(int(j) for j in clause)) in self._index

    @property
    def w_vars(self) -> list[Any]:
        """The variables ``w_k`` in the order of ``K`` (a new list each call)."""
        return list(self._w)

    def clause_cost(self, k: int) -> float:
        """The objective coefficient of ``w_k``: ``pay_k + θ (c_0 + literals_k)``, read from the Params.

        Parameters
        ----------
        k : int
            The clause's index in ``K``.

        Returns
        -------
        float
            The objective coefficient of ``w_k``.
        """
        m = self.model
        return float(pyo.value(m.pay[k] + m.theta * (m.c0 + m.literals[k])))

    @fill_doc(sections=SET_THETA_SECTIONS)
    def set_theta(self, theta: float) -> dict[str, Any]:
        """Set θ (the Param ``theta``); return the new objective coefficients of every ``w_k`` for an in-place re-solve.

        The master's clauses, rows and constraints stay as they are: only the
        costs ``pay_k + θ (c_0 + literals_k)`` change. Along a θ path
        (:func:`rulemodels.algorithms.column_generation.run_column_generation_path`)
        this is how the same master, with every clause generated so far, is
        re-solved at the next θ. Returns a dict for :class:`solvers.ModelChanges`
        (``objective``).

        {sections}
        """
        check_nonnegative("theta", theta)
        self.model.theta = float(theta)
        return {"objective": (self.w_vars, self._costs())}

    def _costs(self) -> np.ndarray:
        """``pay_k + θ (c_0 + literals_k)`` of every clause in the order of ``K``, read from the Params."""
        m = self.model
        theta, c0 = float(m.theta.value), float(m.c0.value)
        return np.array([m.pay[k].value + theta * (c0 + m.literals[k].value) for k in m.K], dtype=float)

    def set_max_clauses(self, max_clauses: int) -> dict[str, Any]:
        """Set the cap ``R`` of ``size`` (``Σ_k w_k ≤ R``); return its new bounds for an in-place re-solve.

        Returns a dict for :class:`solvers.ModelChanges` (``constraint_bounds``).

        Parameters
        ----------
        max_clauses : int
            The new cap ``R`` on the number of selected clauses.

        Returns
        -------
        dict
            The changes for the backend: the new bounds of ``size``.
        """
        _check_max_clauses(max_clauses)
        self.model.R = int(max_clauses)
        return {"constraint_bounds": ([self.model.size], np.array([-np.inf]), np.array([float(max_clauses)]))}

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> dict[str, Any]:
        """Add the clauses not in ``K`` yet as columns; return the changes for an in-place re-solve.

        Each new clause k gets ``pay[k]``, ``literals[k]`` and a variable
        ``w[k]``; the ``cover`` rows of the rows it fails on and ``size``
        are rewritten with it (``set_value``), and the objective's
        ``clause_costs`` gains its term (its rows' part, ``uncovered``, gains
        the terms of the groups a split adds; the terms already there are
        kept, never built again). With grouped rows, a clause that
        fails on part of a group splits it: those rows become a new element
        of ``P`` (its ``weight``, a new ``xi`` and a new ``cover`` row, which
        has ``w_k``), and the group keeps the others with their weight.
        Nothing else of the model is rebuilt. Returns a dict for
        :class:`solvers.ModelChanges` (empty when every clause was there):
        ``new_columns`` holds the fields of :class:`solvers.NewColumns`
        (the variables, their costs, bounds, their rows, integrality) and,
        after a split, ``new_rows`` those of :class:`solvers.NewRows` (the new
        groups' ``cover`` rows) and ``objective`` the new costs of the split
        groups' ``xi``.

        Parameters
        ----------
        clauses : iterable of sequence of int
            The clauses to add, each as feature indices.

        Returns
        -------
        dict
            The changes for the backend: the new columns (empty when every clause is in ``K``).
        """
        m, groups, columns = self.model, self._groups, self.columns
        known = len(groups.ids)  # elements of P the solver has (new ones are appended after them)
        new: list[int] = []
        entries: list[tuple[list[Any], np.ndarray]] = []
        touched: set[int] = set()
        reweighted: set[int] = set()
        for key in _distinct(clauses):
            if key in self._index:
                continue
            k = len(self.clauses)
            self._index[key] = k
            self.clauses.append(key)
            cover, pay = columns.fails(key)
            m.K.add(k)
            m.pay[k] = float(columns.pay_weight[pay].sum())
            m.literals[k] = columns.complexity(key, 0.0)
            var = m.w[k]
            if groups.members is not None:
                self._split(cover, reweighted)
            inside = np.flatnonzero(cover[groups.first_rows()]).tolist()  # elements whose rows all fail on k
            for g in inside:
                self._terms[groups.ids[g]].append(var)
            touched.update(inside)
            constraints = [self._cover_rows[g] for g in inside if g < known] + [m.size]
            entries.append((constraints, np.ones(len(constraints))))
            new.append(k)
        if not new:
            return {}
        ids = groups.ids
        for g in sorted(g for g in touched if g < known):
            self._cover_rows[g].set_value(_cover(self._xi[g], self._terms[ids[g]]))
        split = ids[known:]
        for i in split:
            m.cover[i] = _cover(m.xi[i], self._terms[i])
        self._w.extend(m.w[k] for k in new)
        m.size.set_value(linear_sum(self._w) <= m.R)
        self._cost_terms.extend(_clause_cost_term(m, k) for k in new)
        m.clause_costs.set_value(linear_sum(self._cost_terms))
        variables = [m.w[k] for k in new]
        costs = [self.clause_cost(k) for k in new]
        integer = [var.is_binary() for var in variables]
        if not split:
            return {"new_columns": {
                "variables": variables, "objective": np.array(costs), "lower": np.zeros(len(new)),
                "upper": np.ones(len(new)), "entries": entries, "integer": np.array(integer),
            }}
        self._uncovered_terms.extend(_uncovered_term(m, i) for i in split)
        m.uncovered.set_value(linear_sum(self._uncovered_terms))
        self._cover_rows.extend(m.cover[i] for i in split)
        self._xi.extend(m.xi[i] for i in split)
        self._weight.extend(split)
        xis = [m.xi[i] for i in split]
        changed = sorted(g for g in reweighted if g < known)
        return {
            "new_columns": {
                "variables": variables + xis,
                "objective": np.array(costs + [float(pyo.value(m.weight[i])) for i in split]),
                "lower": np.zeros(len(new) + len(split)),
                "upper": np.concatenate([np.ones(len(new)), np.full(len(split), np.inf)]),
                "entries": entries + [([], np.zeros(0)) for _ in split],
                "integer": np.array(integer + [False] * len(split)),
            },
            "new_rows": {
                "constraints": [m.cover[i] for i in split], "lower": np.ones(len(split)), "upper": np.full(len(split), np.inf),
                "entries": [([m.xi[i], *self._terms[i]], np.ones(1 + len(self._terms[i]))) for i in split],
            },
            "objective": ([m.xi[ids[g]] for g in changed], np.array([float(pyo.value(m.weight[ids[g]])) for g in changed])),
        }

    def _split(self, cover: np.ndarray, reweighted: set[int]) -> None:
        """Split every group that the clause with rows ``cover`` fails on in part: its failing rows become a new element."""
        groups, m, weight = self._groups, self.model, self.columns.cover_weight
        assert groups.members is not None
        count = len(groups.ids)
        failing = np.bincount(groups.group_of_row, weights=cover, minlength=count)
        sizes = np.bincount(groups.group_of_row, minlength=count)
        for g in np.flatnonzero((failing > 0) & (failing < sizes)).tolist():
            old = groups.ids[g]
            moved = groups.split(g, cover[groups.members[g]])
            name = groups.ids[-1]
            m.P.add(name)
            m.weight[name] = float(weight[moved].sum())
            m.weight[old] = float(weight[groups.members[g]].sum())
            self._terms[name] = list(self._terms[old])  # every clause that failed on the group fails on these rows
            reweighted.add(g)

    def duals(self) -> tuple[np.ndarray, float]:
        """``(μ over the rows of P in their order, ν)`` of the solved LP, from the ``dual`` Suffix.

        Their signs are known (``μ_i ≥ 0`` for a ``≥`` row, ``ν ≤ 0`` for the
        ``≤`` cap of a minimisation) and solvers differ in the sign they
        report, so the magnitudes are read; ``μ_i`` is clipped to ``[0, ω_i]``
        (the range the dual constraint of ``ξ_i`` allows). A group's dual
        ``μ_g`` (in ``[0, Σ_{i∈g} ω_i]``) is shared by its rows as
        ``μ_g ω_i / Σ_{i∈g} ω_i``: with the same ``ν`` a dual solution of the LP
        written row by row, with the same objective (every clause's reduced
        cost over rows is its reduced cost over groups).

        Returns
        -------
        tuple
            ``(mu, nu)``: an ndarray over the rows of P and a float.

        Raises
        ------
        ValueError
            If a covering constraint has no dual value (the LP was not solved with duals).
        """
        suffix = self.model.dual
        missing = next((con for con in self._cover_rows if con not in suffix), None)
        if missing is not None:
            raise ValueError(f"constraint {missing.name} has no dual value: solve the master LP with a backend that reports duals")
        mu = np.abs(np.array([suffix[con] for con in self._cover_rows], dtype=float))
        group_weight = self._weight.values()
        mu = np.minimum(mu, group_weight)
        nu = -abs(float(suffix.get(self.model.size, 0.0)))
        groups = self._groups
        if groups.members is None:
            return mu, nu
        row_weight = self.columns.cover_weight
        total = group_weight[groups.group_of_row]
        share = np.divide(row_weight, total, out=np.zeros_like(row_weight), where=total > 0)
        return mu[groups.group_of_row] * share, nu

    def coverage(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The master's integer program as arrays: which clauses cover each element of ``P``, the weights, the costs.

        Returns ``(covers, weight, cost)``: ``covers[g, k]`` is True when clause
        k fails on the rows of element g (covers it), ``weight[g]`` is the
        element's ``ω``, and ``cost[k]`` the objective coefficient of ``w_k``
        (:meth:`clause_cost`). The integer objective of a selection S is
        ``Σ_g weight[g] [no k ∈ S covers g] + Σ_{k∈S} cost[k]``.

        Returns
        -------
        tuple of ndarray
            ``(covers, weights, costs)``.
        """
        first = self._groups.first_rows()
        if self._groups.grouped:  # groups split as clauses come: their first rows change
            covers = np.column_stack([self.columns.fails(key)[0][first] for key in self.clauses])
        else:  # one element per row: each clause's column is computed once
            self._covers.extend(self.columns.fails(key)[0] for key in self.clauses[len(self._covers):])
            covers = np.column_stack(self._covers)
        return covers, self._weight.values(), self._costs()

    def set_integer(self, integer: bool) -> dict[str, Any]:
        """Make every ``w_k`` binary (the final selection, an integer program) or ``[0, 1]`` again.

        Returns the dict for :class:`solvers.ModelChanges` (``integrality``).

        Parameters
        ----------
        integer : bool
            True makes every ``w_k`` binary, False continuous in ``[0, 1]``.

        Returns
        -------
        dict
            The changes for the backend: the integrality of every ``w_k``.
        """
        variables = self.w_vars
        for var in variables:
            var.domain = pyo.Binary if integer else pyo.UnitInterval
        return {"integrality": (variables, np.full(len(variables), bool(integer)))}

    def selection(self) -> list[int]:
        """The clauses with ``w_k > 0.5`` in the loaded solution.

        Returns
        -------
        list of int
            The selected clause indices.
        """
        return [k for k in self.model.K if (self.model.w[k].value or 0.0) > 0.5]

    def values(self) -> np.ndarray:
        """``w_k`` of the loaded solution, in the order of ``K``.

        Returns
        -------
        ndarray of float
            The values of ``w_k``.
        """
        return np.array([self.model.w[k].value or 0.0 for k in self.model.K], dtype=float)
