"""Block coordinate descent (paper section 4.2) on the Hamming objective (eq. (3.12) HammingFormulationBothVW).

One block is one clause. To update clause r_0 with the others fixed, every
negative sample already rejected by another clause (``v̂_ir = 0`` for some
``r != r_0``) is removed (weight 0, ``v_{i r_0} = DC``); the rest keep their
weight and the clause LP is re-solved. Each iteration tries every clause and
keeps the single update with the lowest Hamming objective (the paper's greedy
choice); it stops when no update lowers the objective by more than ``tol``, or
after ``max_iter`` iterations. Initialisation: set covering. When the fit's
time limit stops an iteration part-way, the best update among the clauses
already tried is still taken (stop reason ``"time_limit"``).
"""

from __future__ import annotations

import logging

import numpy as np

from rulemodels.algorithms.engine import ClauseEngine, SolveBudgetExceeded
from rulemodels.algorithms.iteration_log import IterationLog
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.models.objectives import hamming_objective, row_products

logger = logging.getLogger(__name__)

__all__ = ["block_coordinate_descent", "bcd_weights"]


def bcd_weights(A: np.ndarray, y: np.ndarray, weight: np.ndarray, W: np.ndarray, r0: int, outputs: np.ndarray | None = None) -> np.ndarray:
    """Sample weights for updating clause ``r0``: negatives rejected by another clause get 0.

    ``outputs`` (the n x R clause outputs of W) may be passed to avoid recomputing them.

    Parameters
    ----------
    A : numpy.ndarray of shape (n, d')
        The working 0/1 matrix.
    y : numpy.ndarray of shape (n,)
        The CNF labels.
    weight : numpy.ndarray of shape (n,)
        The sample weights.
    W : numpy.ndarray of shape (d', R)
        The binary clause matrix.
    r0 : int
        The clause to update.
    outputs : numpy.ndarray of bool, shape (n, R), or None, default=None
        The clause outputs of ``W``; None computes them.

    Returns
    -------
    ndarray of float
        The sample weights.
    """
    if outputs is None:
        outputs = row_products(A, W) > 0.5
    others = np.delete(outputs, r0, axis=1)
    rejected_elsewhere = (~others).any(axis=1) if others.shape[1] else np.zeros(A.shape[0], dtype=bool)
    return np.where((y == 0) & rejected_elsewhere, 0.0, weight)


def block_coordinate_descent(
    engine: ClauseEngine, W_init: np.ndarray, *, max_iter: int, tol: float = 1e-9, started: float | None = None
) -> FitResult:
    """Greedy BCD from ``W_init`` (d', R); returns the best W and the objective trace.

    ``started`` (a ``time.perf_counter()``) is when the fit began, for the
    seconds of the verbose iteration log (default: when BCD starts).

    Parameters
    ----------
    engine : ClauseEngine
        Learns each clause (its data, θ and LP work).
    W_init : numpy.ndarray of shape (d', R)
        The starting clause matrix.
    max_iter : int
        The most iterations.
    tol : float, default=1e-9
        The least decrease of the objective that counts as an improvement.
    started : float or None, default=None
        When the fit began (``time.perf_counter()``); None: when BCD starts.

    Returns
    -------
    FitResult
        The best W, its objective and the objective trace.
    """
    data = engine.data

    def objective(W: np.ndarray) -> float:
        return hamming_objective(data.A, data.y, W, engine.theta, sample_weight=data.weight, feature_cost=data.cost)

    W = W_init.copy()
    current = objective(W)
    history = [current]
    stop = Termination.max_iter
    iteration = 0
    log = IterationLog(logger, "BCD", data, max_iter, n_solves=lambda: engine.stats.n_solves, started=started)
    log.iteration(0, W, current)
    for iteration in range(1, max_iter + 1):
        best_value, best_W = current, None
        outputs = row_products(data.A, W) > 0.5
        try:
            for r in range(W.shape[1]):
                candidate = W.copy()
                candidate[:, r] = engine.learn(r, bcd_weights(data.A, data.y, data.weight, W, r, outputs))
                value = objective(candidate)
                if value < best_value - tol:
                    best_value, best_W = value, candidate
        except SolveBudgetExceeded:
            stop = Termination.time_limit
            if best_W is not None:  # a better rule found before the limit in this iteration: keep it
                W, current = best_W, best_value
                history.append(current)
            break
        if best_W is None:
            stop = Termination.no_improvement
            break
        W, current = best_W, best_value
        history.append(current)
        log.iteration(iteration, W, current)
    log.close(stop)
    return FitResult(W=W, objective=current, history=history, n_iter=iteration, termination=stop)
