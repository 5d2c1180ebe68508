"""The paper's objectives evaluated with numpy for a given binary rule (no solver).

Used to score candidate binarizations, to pick BCD's greedy update and to
check the MIPs against brute force. ``W`` is a (d, R) 0/1 matrix of selected
features; ``w0`` (R,) marks disabled clauses (the always-true feature).
All functions are for the CNF the models learn: ``v_ir = OR_j a_ij w_jr``,
``ŷ_i = AND_r v_ir``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from rulemodels.utils import fill_doc

__all__ = ["ROW_BLOCK_CELLS", "clause_sums", "hamming_objective", "row_products", "sparsity_cost", "zero_one_objective"]

#: A 0/1 matrix held as integers (``WorkingData`` keeps large ones as uint8, 1 byte a cell instead of 8) is made
#: float this many cells at a time when it is multiplied, never all at once.
ROW_BLOCK_CELLS = 1 << 22


def row_products(A: Any, W: np.ndarray) -> np.ndarray:
    """``A @ W`` as floats, for a float, integer (0/1 uint8) or sparse ``A`` and a float ``W``.

    A float or sparse ``A`` is multiplied as it is (one product, as always).
    A larger integer ``A`` than ``ROW_BLOCK_CELLS`` cells is made float a block
    of rows at a time.
    For a 0/1 ``W`` (every product the drivers take) the sums are counts and
    equal the one product's exactly; for a fractional ``W`` BLAS may add a
    block's terms in another order (the last bit).

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d)
        The features (float, 0/1 integers or sparse).
    W : numpy.ndarray of shape (d, R)
        The weights.

    Returns
    -------
    ndarray of float
        ``A @ W``.
    """
    if sp.issparse(A):
        return A @ W
    A = np.asarray(A)
    if np.issubdtype(A.dtype, np.floating):
        return A @ W
    W = np.asarray(W, dtype=float)
    if A.shape[0] * A.shape[1] <= ROW_BLOCK_CELLS:  # small: one float copy, one product
        return A.astype(np.float64) @ W
    out = np.empty((A.shape[0],) + W.shape[1:])
    block = max(1, ROW_BLOCK_CELLS // max(1, A.shape[1]))
    for start in range(0, A.shape[0], block):
        out[start:start + block] = A[start:start + block].astype(np.float64) @ W
    return out


def clause_sums(A: Any, W: np.ndarray, w0: np.ndarray | None = None) -> np.ndarray:
    """``S_ir = Σ_j a_ij w_jr (+ w_0r)``, shape (n, R).

    For a binary W each sum is a count, added up over the selected columns
    only (exact, and several times faster than the dense product when
    clauses are short).

    Parameters
    ----------
    A : array-like or sparse matrix of shape (n, d)
        Binary features ``a_ij``.
    W : numpy.ndarray of shape (d, R) or (d,)
        The clause weights ``w_jr``.
    w0 : numpy.ndarray of shape (R,) or None, default=None
        The clause-disabling feature's weights ``w_0r``; None adds nothing.

    Returns
    -------
    ndarray of shape (n, R)
        The sums ``S_ir``.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim == 1:
        W = W[:, None]
    if sp.issparse(A):
        sums = A @ W
    elif np.all((W == 0.0) | (W == 1.0)):
        dense = np.asarray(A)  # float, or 0/1 integers (summed as integers: the same counts, no float copy)
        sums = np.empty((dense.shape[0], W.shape[1]))
        for r in range(W.shape[1]):
            sums[:, r] = dense[:, np.flatnonzero(W[:, r])].sum(axis=1)
    else:
        sums = row_products(np.asarray(A), W)
    sums = np.asarray(sums, dtype=float)
    if w0 is not None:
        sums = sums + np.asarray(w0, dtype=float)[None, :]
    return sums


def sparsity_cost(W: np.ndarray, theta: float, feature_cost: Any = None, w0: Any = None, disable_cost: float = 0.0) -> float:
    """``θ (Σ_r Σ_j c_j w_jr + c_0 Σ_r w_0r)``.

    Parameters
    ----------
    W : numpy.ndarray of shape (d, R) or (d,)
        The clause weights ``w_jr``.
    theta : float
        The sparsity weight θ.
    feature_cost : array-like of shape (d,), optional
        The feature costs ``c_j`` (default 1).
    w0 : array-like of shape (R,), optional
        The clause-disabling feature's weights ``w_0r``; None adds nothing.
    disable_cost : float, default=0.0
        ``c_0``, the cost of the clause-disabling feature.

    Returns
    -------
    float
        The sparsity cost.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim == 1:
        W = W[:, None]
    costs = np.ones(W.shape[0]) if feature_cost is None else np.asarray(feature_cost, dtype=float)
    total = float(costs @ W.sum(axis=1))
    if w0 is not None:
        total += disable_cost * float(np.sum(w0))
    return theta * total


#: The parameters the two objectives share, filled into their docstrings.
_OBJECTIVE_DATA = """
A : array-like or sparse matrix of shape (n, d)
    Binary features ``a_ij``.
y : array-like of shape (n,), 0/1
    The CNF labels.
"""
_OBJECTIVE_COSTS = """
theta : float
    The sparsity weight θ.
sample_weight : array-like of shape (n,), optional
    The weights ``ω_i`` (default 1).
feature_cost : array-like of shape (d,), optional
    The feature costs ``c_j`` (default 1).
w0 : array-like of shape (R,), optional
    The clause-disabling feature's weights ``w_0r``.
disable_cost : float, default=0.0
    ``c_0``, the cost of the clause-disabling feature.
"""


def _weights(sample_weight: Any, n: int) -> np.ndarray:
    return np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)


@fill_doc(data=_OBJECTIVE_DATA, costs=_OBJECTIVE_COSTS)
def zero_one_objective(
    A: Any, y: Any, W: np.ndarray, theta: float, *, sample_weight: Any = None, feature_cost: Any = None,
    w0: Any = None, disable_cost: float = 0.0,
) -> float:
    """``Σ_i ω_i |ŷ_i − y_i| + θ Σ c_j w_jr`` (eq. (3.7) StdFormulation) for binary W.

    Parameters
    ----------
    {data}
    W : numpy.ndarray of shape (d, R)
        The binary clause weights ``w_jr``.
    {costs}

    Returns
    -------
    float
        The 0-1 objective.
    """
    y = np.asarray(y).ravel()
    predicted = np.all(clause_sums(A, W, w0) > 0.5, axis=1)
    errors = predicted != (y == 1)
    return float(_weights(sample_weight, y.size) @ errors) + sparsity_cost(W, theta, feature_cost, w0, disable_cost)


def hamming_costs(A: Any, y: Any, W: np.ndarray, w0: Any = None) -> np.ndarray:
    """Per-sample minimal Hamming distance η_i (eq. (3.10) HammingFormulation), for any W in [0, 1]."""
    y = np.asarray(y).ravel()
    sums = clause_sums(A, W, w0)
    positive_cost = np.maximum(0.0, 1.0 - sums).sum(axis=1)
    negative_cost = sums.min(axis=1)
    return np.where(y == 1, positive_cost, negative_cost)


@fill_doc(data=_OBJECTIVE_DATA, costs=_OBJECTIVE_COSTS)
def hamming_objective(
    A: Any, y: Any, W: np.ndarray, theta: float, *, sample_weight: Any = None, feature_cost: Any = None,
    w0: Any = None, disable_cost: float = 0.0,
) -> float:
    """``Σ_i ω_i η_i + θ Σ c_j w_jr`` (eq. (3.10) HammingFormulation).

    Parameters
    ----------
    {data}
    W : numpy.ndarray of shape (d, R)
        The clause weights ``w_jr``.
    {costs}

    Returns
    -------
    float
        The Hamming objective.
    """
    y = np.asarray(y).ravel()
    accuracy = float(_weights(sample_weight, y.size) @ hamming_costs(A, y, W, w0))
    return accuracy + sparsity_cost(W, theta, feature_cost, w0, disable_cost)
