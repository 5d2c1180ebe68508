"""The CNF problem as the drivers see it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from rulemodels.defaults import DEFAULT_TIE_BREAK
from rulemodels.models.clause_lp import tie_break_costs
from rulemodels.models.problem import CNFProblem

__all__ = ["ALWAYS_TRUE", "DENSE_FLOAT_CELLS", "WorkingData"]

ALWAYS_TRUE = "__always_true__"
"""Source-column label of the always-true feature ``a_i0 = 1`` (paper section 3)."""


#: Up to this many cells (rows x features) ``WorkingData.A`` is float64; above, uint8 (200,000 rows x 540 literals:
#: 108 MB instead of 864 MB). Every bundled dataset and every test below it computes with float64 as before.
DENSE_FLOAT_CELLS = 1 << 25


@dataclass(frozen=True)
class WorkingData:
    """The CNF problem as the drivers see it: dense 0/1 matrix, labels, weights, costs.

    With ``allow_disable`` the always-true feature ``a_i0 = 1`` is the last
    column (paper section 3), with cost ``disable_cost``. ``A`` is the dense
    0/1 matrix the numpy scoring uses (float64, or uint8 above
    ``DENSE_FLOAT_CELLS``: products go through :func:`~rulemodels.models.row_products`,
    sums through :func:`~rulemodels.models.clause_sums`); ``A_binary`` the same 0/1 matrix as
    the int8 CSR the model builders take, made once here so that building a
    clause LP or a relaxation converts nothing. ``tie_break`` holds the clause
    LPs' tie-break costs ε_j (:func:`~rulemodels.models.tie_break_costs`).

    Parameters
    ----------
    A : numpy.ndarray of shape (n, d')
        The dense 0/1 matrix.
    A_binary : scipy.sparse.csr_matrix of shape (n, d')
        The same matrix as int8 CSR.
    y : numpy.ndarray of shape (n,)
        The CNF labels.
    weight : numpy.ndarray of shape (n,)
        The sample weights.
    cost : numpy.ndarray of shape (d',)
        The feature costs ``c_j`` (``disable_cost`` for the always-true feature).
    groups : tuple of str
        The source column of each feature (what the redundancy-aware binarization groups by).
    allow_disable : bool
        Whether the last column is the always-true feature.
    tie_break : numpy.ndarray of shape (d',)
        The clause LPs' tie-break costs ``ε_j``.
    max_literals : int or None, default=None
        At most this many literals per clause; None: no limit.
    """

    A: np.ndarray
    A_binary: sp.csr_matrix
    y: np.ndarray
    weight: np.ndarray
    cost: np.ndarray
    groups: tuple[str, ...]
    allow_disable: bool
    tie_break: np.ndarray
    max_literals: int | None = None

    @classmethod
    def from_problem(
        cls, problem: CNFProblem, *, allow_disable: bool = False, disable_cost: float | None = None,
        tie_break: float = DEFAULT_TIE_BREAK, feature_cost: np.ndarray | None = None, max_literals: int | None = None,
    ) -> WorkingData:
        """The drivers' view of ``problem``; with ``allow_disable``, ``disable_cost`` (c_0) is required.

        Parameters
        ----------
        problem : CNFProblem
            The CNF problem (its 0/1 matrix, labels, weights and literals).
        allow_disable : bool, default=False
            Append the always-true feature ``a_i0 = 1`` as the last column (paper section 3).
        disable_cost : float or None, default=None
            The cost ``c_0`` of the always-true feature; required with ``allow_disable``.
        tie_break : float, default=DEFAULT_TIE_BREAK
            The scale of the clause LPs' tie-break in units of the mean positive sample weight (so that it
            means the same with any weights); 0 switches it off.
        feature_cost : numpy.ndarray of shape (d,) or None, default=None
            The cost multipliers ``c_j`` of the problem's d features (the domain constraints'
            ``feature_costs``); None: 1 each. ``disable_cost`` is appended for the always-true feature.
        max_literals : int or None, default=None
            At most this many literals per clause, which every driver honours (``docs/constraints.md``);
            None: no limit.

        Returns
        -------
        WorkingData
            The dense and CSR 0/1 matrices, labels, weights, costs, source columns and tie-break costs.

        Raises
        ------
        ValueError
            If ``feature_cost`` does not have one entry per feature, or ``allow_disable`` is set without
            ``disable_cost``.
        """
        A_binary = problem.A
        cost = np.ones(A_binary.shape[1]) if feature_cost is None else np.asarray(feature_cost, dtype=float).copy()
        if cost.shape != (A_binary.shape[1],):
            raise ValueError(f"feature_cost has shape {cost.shape}, expected ({A_binary.shape[1]},)")
        groups = [literal.feature for literal in problem.literals]
        if allow_disable:
            if disable_cost is None:
                raise ValueError("allow_disable=True needs disable_cost, the cost c_0 of the always-true feature")
            A_binary = sp.hstack([A_binary, np.ones((A_binary.shape[0], 1), dtype=A_binary.dtype)], format="csr")
            cost = np.append(cost, disable_cost)
            groups.append(ALWAYS_TRUE)
        # the same 0/1 values, dense: float64 as always up to DENSE_FLOAT_CELLS, uint8 above (1 byte a cell, not 8;
        # multiplied a block of rows at a time by models.row_products); no float copy of the sparse matrix first
        dense_type = np.float64 if A_binary.shape[0] * A_binary.shape[1] <= DENSE_FLOAT_CELLS else np.uint8
        A = A_binary.toarray().astype(dense_type, copy=False)
        weight = problem.sample_weight.astype(float)
        positive = weight[weight > 0]
        mean_weight = float(positive.mean()) if positive.size else 1.0
        epsilon = tie_break_costs(A.shape[1], float(tie_break) * mean_weight)
        return cls(A, A_binary, problem.y.astype(int), weight, cost, tuple(groups), allow_disable, epsilon, max_literals)

    @property
    def n_literals(self) -> int:
        """The number of real features (literals): all but the always-true one."""
        return self.n_features - 1 if self.allow_disable else self.n_features

    @property
    def n_features(self) -> int:
        """Number of columns of ``A``: the features of the clause LPs (the always-true one included when clauses can be disabled)."""
        return int(self.A.shape[1])

    def split(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """``(W over the real features, w0 or None)`` from a (d [+1], R) matrix.

        Parameters
        ----------
        W : numpy.ndarray of shape (d', R)
            A clause matrix over the working features.

        Returns
        -------
        tuple
            ``(W, w0)``: W over the real features, and the last row or None.
        """
        if self.allow_disable:
            return W[:-1], W[-1]
        return W, None
