"""The rows of a CNF problem as column generation sees them, and each clause's rows and costs (numpy only).

Column generation's master (:mod:`rulemodels.models.cg_master`), pricing MIP
(:mod:`rulemodels.models.cg_pricing`) and beam search all read their numbers
from :class:`ClauseColumns`; :mod:`rulemodels.models.column_generation` states
the models and how the method's DNF terms are this project's CNF clauses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rulemodels.models._data import PreparedData, prepare_data
from rulemodels.utils import fill_doc

__all__ = ["TOLERANCE", "ClauseColumns", "prepare_cg_data"]

TOLERANCE = 1e-9
"""Reduced costs above ``-TOLERANCE`` are not negative (a clause must improve the LP by more)."""

#: The cost parameters of a clause's reduced cost and of the master's objective, filled into their docstrings.
_CLAUSE_COSTS = """
theta : float
    The sparsity weight θ.
clause_cost : float
    ``c_0``, the cost of a clause in literals.
"""


class ClauseColumns:
    """The rows of a CNF problem as column generation sees them, and each clause's rows and costs (numpy only).

    Shared by the master, the pricing MIP and the beam search, so all three
    compute the same numbers. Rows are groups of identical samples with
    summed weights.

    Parameters
    ----------
    data : PreparedData
        The grouped rows, their weights and the feature costs ``c_j``.

    Attributes
    ----------
    data : PreparedData
        The grouped rows, their weights and the feature costs ``c_j``.
    cover_rows, pay_rows : ndarray of int
        The groups of ``P`` (CNF ``y = 0``: to be covered) and ``Z`` (CNF ``y = 1``: pay per covering clause).
    cover_absent, pay_absent : ndarray of bool, shape ``(|P|, d)`` and ``(|Z|, d)``
        ``a_ij = 0``: a clause fails on row i iff every feature of it is absent there.
    cover_weight, pay_weight : ndarray
        ``ω_i`` of each row of ``P`` and of ``Z``.
    """

    def __init__(self, data: PreparedData):
        self.data = data
        groups = data.groups
        present = groups.patterns.toarray().astype(bool)
        self.cover_rows = groups.negatives
        self.pay_rows = groups.positives
        self.cover_absent = ~present[self.cover_rows]
        self.pay_absent = ~present[self.pay_rows]
        self.cover_weight = data.group_weight[self.cover_rows]
        self.pay_weight = data.group_weight[self.pay_rows]
        self.feature_cost = data.costs

    @property
    def n_features(self) -> int:
        """Number of features d the clauses are made of."""
        return int(self.data.n_features)

    @property
    def n_nonzeros(self) -> int:
        """Present features over all rows: the size of the pricing MIP's matrix."""
        return int((~self.cover_absent).sum() + (~self.pay_absent).sum())

    def fails(self, clause: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Where ``clause`` (feature indices) fails: boolean masks over ``P`` and over ``Z``.

        Parameters
        ----------
        clause : sequence of int
            The feature indices of the clause.

        Returns
        -------
        tuple of ndarray
            ``(fails over P, fails over Z)``: two boolean masks.
        """
        columns = np.asarray(clause, dtype=np.intp)
        return self.cover_absent[:, columns].all(axis=1), self.pay_absent[:, columns].all(axis=1)

    def complexity(self, clause: Sequence[int], clause_cost: float) -> float:
        """``c_0 + Σ_{j ∈ k} c_j``: the clause's complexity in literals (θ times this is its sparsity cost).

        Parameters
        ----------
        clause : sequence of int
            The feature indices of the clause.
        clause_cost : float
            ``c_0``, the cost of a clause in literals.

        Returns
        -------
        float
            The clause's complexity.
        """
        return float(clause_cost + self.feature_cost[np.asarray(clause, dtype=np.intp)].sum())

    @fill_doc(costs=_CLAUSE_COSTS)
    def reduced_cost(self, clause: Sequence[int], mu: np.ndarray, nu: float, theta: float, clause_cost: float) -> float:
        """``θ (c_0 + Σ_{j∈k} c_j) − Σ_{i ∈ P ∩ F_k} μ_i + Σ_{i ∈ Z ∩ F_k} ω_i − ν`` of one clause.

        Parameters
        ----------
        clause : sequence of int
            The feature indices of the clause.
        mu : numpy.ndarray, one value per row of ``P``
            The master's duals ``μ_i`` of the rows to cover.
        nu : float
            The master's dual ``ν`` of the cap on the number of clauses.
        {costs}

        Returns
        -------
        float
            The clause's reduced cost.
        """
        cover, pay = self.fails(clause)
        return float(theta * self.complexity(clause, clause_cost) - mu[cover].sum() + self.pay_weight[pay].sum() - nu)

    @fill_doc(costs=_CLAUSE_COSTS)
    def objective(self, clauses: Sequence[Sequence[int]], theta: float, clause_cost: float) -> float:
        """The master's integer objective of selecting exactly ``clauses``: uncovered ``P`` + paying ``Z`` + θ·complexity.

        Parameters
        ----------
        clauses : sequence of sequence of int
            The selected clauses, each as feature indices.
        {costs}

        Returns
        -------
        float
            The master's integer objective.
        """
        covered = np.zeros(self.cover_rows.shape[0], dtype=bool)
        total = 0.0
        for clause in clauses:
            cover, pay = self.fails(clause)
            covered |= cover
            total += float(self.pay_weight[pay].sum()) + theta * self.complexity(clause, clause_cost)
        return total + float(self.cover_weight[~covered].sum())


def prepare_cg_data(A: Any, y: Any, *, sample_weight: Any = None, feature_cost: Any = None) -> ClauseColumns:
    """Check ``A`` (n, d, 0/1) and the CNF labels ``y``, group identical rows: the data both models share.

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d), 0/1
        Binary features ``a_ij``.
    y : array-like of shape (n,), 0/1
        The CNF labels.
    sample_weight : array-like of shape (n,), optional
        Weights ``ω_i >= 0`` (default 1).
    feature_cost : array-like of shape (d,), optional
        Per-feature costs ``c_j`` (default 1).

    Returns
    -------
    ClauseColumns
        The checked, grouped data.
    """
    data = prepare_data(
        A, y, theta=0.0, sample_weight=sample_weight, feature_cost=feature_cost, disable_cost=None, merge_identical=True,
    )
    return ClauseColumns(data)
