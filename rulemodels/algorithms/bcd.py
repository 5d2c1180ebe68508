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

from rulemodels.algorithms.descent import LOCAL_SEARCH_SECTIONS, hamming_of, local_search
from rulemodels.algorithms.engine import ClauseEngine, SolveBudgetExceeded
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.models.objectives import row_products
from rulemodels.utils import fill_doc

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


@fill_doc(sections=LOCAL_SEARCH_SECTIONS)
def block_coordinate_descent(
    engine: ClauseEngine, W_init: np.ndarray, *, max_iter: int, tol: float = 1e-9, started: float | None = None
) -> FitResult:
    """Greedy BCD from ``W_init`` (d', R); returns the best W and the objective trace.

    {sections}
    """
    data = engine.data
    objective = hamming_of(engine)

    def step(W: np.ndarray, current: float) -> tuple[np.ndarray | None, float, Termination | None]:
        """Try every clause; the single update with the lowest objective, or the stop."""
        best_value, best_W = current, None
        outputs = row_products(data.A, W) > 0.5
        try:
            for r in range(W.shape[1]):
                candidate = W.copy()
                candidate[:, r] = engine.learn(r, bcd_weights(data.A, data.y, data.weight, W, r, outputs))
                value = objective(candidate)
                if value < best_value - tol:
                    best_value, best_W = value, candidate
        except SolveBudgetExceeded:  # a better rule found before the limit in this iteration is kept
            return best_W, best_value, Termination.time_limit
        if best_W is None:
            return None, current, Termination.no_improvement
        return best_W, best_value, None

    return local_search(engine, W_init, step, name="BCD", logger=logger, max_iter=max_iter, started=started)
