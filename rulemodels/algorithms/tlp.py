"""TLP: the two-level LP relaxation (paper section 4.1, eq. GeneralLPFormulation with 0 <= w <= 1).

The relaxation is solved once, then each clause is binarized in turn with the
redundancy-aware method (or the simple threshold), scoring candidates by the
TLP objective itself at the candidate point: with ``S_ir = Σ_j a_ij w_jr``,
``ψ_i = max(0, max_r (1 − S_ir))`` for positives and
``ψ_i = max(0, Σ_r min(1, max_j a_ij w_jr) − (R − 1))`` for negatives, the
values the LP's ``ψ`` and ``β`` take at that ``w``.
The relaxation is loose: its optimum tends to spread weight over many
columns with near-zero error, so the binarization decides the rule.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any, Mapping

import numpy as np
import scipy.sparse as sp

from rulemodels.algorithms.engine import WorkingData
from rulemodels.algorithms.pool import PoolEntry, start_cold
from rulemodels.algorithms.result import FitResult
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, redundant_clauses, simple_binarize
from rulemodels.models import build_zero_one, set_theta, two_level_weights
from rulemodels.models.objectives import zero_one_objective
from solvers import Backend

logger = logging.getLogger(__name__)

__all__ = ["two_level_lp"]


def _tlp_values(A: np.ndarray, y: np.ndarray, omega: np.ndarray, S: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Σ_i ω_i ψ_i for stacked candidates: S, B have shape (n, R, K)."""
    R = S.shape[1]
    positive = y == 1
    psi_pos = np.maximum(0.0, (1.0 - S[positive]).max(axis=1))
    psi_neg = np.maximum(0.0, np.minimum(1.0, B[~positive]).sum(axis=1) - (R - 1))
    return omega[positive] @ psi_pos + omega[~positive] @ psi_neg


def two_level_lp(
    data: WorkingData,
    backend: Backend,
    *,
    theta: float,
    n_clauses: int,
    binarization: str = "redundancy_aware",
    threshold: float = 0.2,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    pool: PoolEntry | None = None,
) -> FitResult:
    """Solve TLP and binarize its solution clause by clause.

    With a ``pool`` entry, the relaxation built by an earlier fit with the
    same data, R, weights and costs is re-used: only θ changes, and the solve
    starts cold (the result is the same as with a fresh build).
    """
    model, n_builds = _relaxation(data, theta, n_clauses, backend, pool)
    start = time.perf_counter()
    result = backend.solve(model, time_limit=time_limit, options=dict(solver_options or {}), params_only=True)
    seconds = time.perf_counter() - start
    result.raise_for_status(f"the two-level LP relaxation (TLP, R={n_clauses})")
    W_lp, _ = two_level_weights(model)
    W_lp = np.clip(W_lp, 0.0, 1.0)
    if binarization == "simple":
        W = simple_binarize(W_lp, threshold)
    else:
        W = _redundancy_aware(data, W_lp, theta)
    # Issue 20: the relaxation has no cheaper way to switch an unneeded clause off than a
    # duplicate or a one-column tautology; drop those (same predictions, fewer literals).
    W = np.delete(W, redundant_clauses(data.A, W, data.groups, allow_disable=data.allow_disable), axis=1)
    objective = zero_one_objective(data.A, data.y, W, theta, sample_weight=data.weight, feature_cost=data.cost)
    stop = "time_limit" if result.termination.value == "time_limit" else "single_pass"
    return FitResult(
        W=W, objective=objective, history=[objective], n_iter=1, stop_reason=stop, n_builds=n_builds, n_solves=1,
        solver_seconds=seconds,
    )


def _relaxation(data: WorkingData, theta: float, n_clauses: int, backend: Backend, pool: PoolEntry | None) -> tuple[Any, int]:
    """The TLP model for this fit (from ``pool`` when it has one) and the number of models built (0 or 1)."""
    digest = hashlib.blake2b(data.weight.tobytes() + data.cost.tobytes(), digest_size=16).digest()
    key = (n_clauses, digest)
    model = pool.relaxation(key) if pool is not None else None
    if model is not None:
        set_theta(model, theta)
        start_cold(backend, model)
        return model, 0
    model = build_zero_one(
        sp.csr_matrix(data.A), data.y, n_clauses, theta=theta, relax=True, sample_weight=data.weight, feature_cost=data.cost
    )
    if pool is not None:
        pool.keep_relaxation(key, model)
    return model, 1


def _redundancy_aware(data: WorkingData, W_lp: np.ndarray, theta: float) -> np.ndarray:
    rounder = RedundancyAwareBinarizer(data.A, data.groups, allow_disable=data.allow_disable)
    active = data.weight > 0
    A, y, omega = data.A[active], data.y[active], data.weight[active]
    W = W_lp.copy()
    for r in range(W.shape[1]):

        def cost(candidates: np.ndarray, columns: np.ndarray, r: int = r) -> np.ndarray:
            others = np.ones(W.shape[0], dtype=bool)
            others[columns] = False
            S_fixed = A @ W  # (n, R)
            K = candidates.shape[1]
            S = np.repeat(S_fixed[:, :, None], K, axis=2)
            S[:, r, :] = (A[:, others] @ candidates[others, 0])[:, None] + A[:, columns] @ candidates[columns, :]
            B_fixed = np.max(A[:, :, None] * W[None, :, :], axis=1)  # (n, R)
            B = np.repeat(B_fixed[:, :, None], K, axis=2)
            other_max = np.max(A[:, others] * candidates[others, 0][None, :], axis=1) if others.any() else np.zeros(A.shape[0])
            B[:, r, :] = np.maximum(other_max[:, None], (A[:, columns] @ candidates[columns, :] > 0.5).astype(float))
            W_rest = np.delete(W, r, axis=1)
            sparsity = theta * (data.cost @ W_rest.sum(axis=1) + data.cost @ candidates)
            return _tlp_values(A, y, omega, S, B) + sparsity

        W[:, r] = rounder.binarize(W[:, r], cost)
    return W
