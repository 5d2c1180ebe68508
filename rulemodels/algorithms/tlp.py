"""TLP: the two-level LP relaxation (paper section 4.1, eq. (4.14) GeneralLPFormulation with 0 <= w <= 1).

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

import logging
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.lp_cache import LPSolutionCache
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, limit_literals, redundant_clauses, simple_binarize
from rulemodels.models import two_level_weights
from rulemodels.models.objectives import zero_one_objective
from solvers import ModelChanges, SolveConfig

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
    cache: LPSolutionCache,
    *,
    theta: float,
    n_clauses: int,
    binarization: str = "redundancy_aware",
    threshold: float = 0.2,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
) -> FitResult:
    """Solve TLP and binarize its solution clause by clause.

    The relaxation for R clauses is built once per cache and re-solved
    for each θ (only θ changes), from scratch (``warm_start=False``), so the
    result is what a freshly built model gives.

    Parameters
    ----------
    cache : LPSolutionCache
        The problem and the shared LP work.
    theta : float
        Sparsity weight θ.
    n_clauses : int
        R, the number of clauses.
    binarization : {"redundancy_aware", "simple"}, default="redundancy_aware"
        How each clause of the relaxation is binarized.
    threshold : float, default=0.2
        The threshold of the simple binarization.
    time_limit : float or None, default=None
        Seconds for the solve; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options.

    Returns
    -------
    FitResult
        The binarized W with its objective and the solve's statistics.
    """
    data = cache.data
    relaxation, built = cache.relaxation(n_clauses, theta)
    if not built:
        relaxation.set_theta(theta)
    start = time.perf_counter()
    result = cache.backend.solve(
        relaxation.model, config=SolveConfig(time_limit=time_limit, options=solver_options or {}, warm_start=False),
        changes=ModelChanges(**relaxation.sparsity_changes()),
    )
    seconds = time.perf_counter() - start
    result.raise_for_status(f"the two-level LP relaxation (TLP, R={n_clauses})")
    W_lp, _ = two_level_weights(relaxation.model)
    W_lp = np.clip(W_lp, 0.0, 1.0)
    if binarization == "simple":
        W = simple_binarize(W_lp, threshold)
    else:
        W = _redundancy_aware(data, cache.rounder(), W_lp, theta)
    if data.max_literals is not None:  # the budget again at rounding (docs/constraints.md)
        W = np.column_stack([limit_literals(W[:, r], W_lp[:, r], data.max_literals, data.n_literals) for r in range(W.shape[1])])
    # The relaxation has no cheaper way to switch an unneeded clause off than a duplicate or a
    # one-column tautology; drop those (same training predictions, fewer literals).
    W = np.delete(W, redundant_clauses(data.A, W, data.groups, allow_disable=data.allow_disable), axis=1)
    objective = zero_one_objective(data.A, data.y, W, theta, sample_weight=data.weight, feature_cost=data.cost)
    stop = Termination.time_limit if result.termination.value == "time_limit" else Termination.single_pass
    return FitResult(
        W=W, objective=objective, history=[objective], n_iter=1, termination=stop, n_builds=int(built), n_solves=1,
        solver_seconds=seconds,
    )


def _redundancy_aware(data: WorkingData, rounder: RedundancyAwareBinarizer, W_lp: np.ndarray, theta: float) -> np.ndarray:
    active = data.weight > 0
    A, y, omega = np.asarray(data.A[active], dtype=float), data.y[active], data.weight[active]
    W = W_lp.copy()
    for r in range(W.shape[1]):
        # The other clauses' S and B do not change while clause r is binarized.
        S_fixed = A @ W  # (n, R)
        B_fixed = np.max(A[:, :, None] * W[None, :, :], axis=1)  # (n, R)
        W_rest = np.delete(W, r, axis=1)

        def cost(current: np.ndarray, columns: np.ndarray, options: np.ndarray, r: int = r,
                 S_fixed: np.ndarray = S_fixed, B_fixed: np.ndarray = B_fixed, W_rest: np.ndarray = W_rest) -> np.ndarray:
            K = options.shape[1]
            candidates = np.repeat(current[:, None], K, axis=1)
            candidates[columns, :] = options
            others = np.ones(W.shape[0], dtype=bool)
            others[columns] = False
            S = np.repeat(S_fixed[:, :, None], K, axis=2)
            S[:, r, :] = (A[:, others] @ current[others])[:, None] + A[:, columns] @ options
            B = np.repeat(B_fixed[:, :, None], K, axis=2)
            other_max = np.max(A[:, others] * current[others][None, :], axis=1) if others.any() else np.zeros(A.shape[0])
            B[:, r, :] = np.maximum(other_max[:, None], (A[:, columns] @ options > 0.5).astype(float))
            sparsity = theta * (data.cost @ W_rest.sum(axis=1) + data.cost @ candidates)
            return _tlp_values(A, y, omega, S, B) + sparsity

        W[:, r] = rounder.binarize(W[:, r], cost)
    return W
