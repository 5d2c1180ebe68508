"""The loop that block coordinate descent and alternating minimization share.

Both local searches (:mod:`rulemodels.algorithms.bcd`,
:mod:`rulemodels.algorithms.alternating`) start from a clause matrix and, at
each iteration, propose a new matrix or stop. :func:`local_search` keeps what
they keep alike: the Hamming objective (eq. (3.12) HammingFormulationBothVW),
its trace, the iteration log and the :class:`FitResult`; a driver gives only
its ``step`` (and, for AM, a last ``finish``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from rulemodels.algorithms.engine import ClauseEngine
from rulemodels.algorithms.iteration_log import IterationLog
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.models.objectives import hamming_objective

__all__ = ["LOCAL_SEARCH_SECTIONS", "hamming_of", "local_search"]

Step = Callable[[np.ndarray, float], tuple[np.ndarray | None, float, Termination | None]]
"""One iteration: ``step(W, current) -> (candidate, value, stop)``.

``candidate`` (with its objective ``value``) replaces ``W`` when it is not
None; ``stop`` (a :class:`Termination`) ends the search after that, None goes
on to the next iteration."""

Finish = Callable[[np.ndarray, float], tuple[np.ndarray, float]]
"""After the last iteration: ``finish(W, current) -> (W, current)``."""

#: The Parameters and Returns sections of every local search (filled in by :func:`rulemodels.utils.fill_doc`).
LOCAL_SEARCH_SECTIONS = """
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
    When the fit began (``time.perf_counter()``), for the seconds of the
    verbose iteration log; None: when the search starts.

Returns
-------
FitResult
    The best W, its objective and the objective trace.
"""


def hamming_of(engine: ClauseEngine) -> Callable[[np.ndarray], float]:
    """The Hamming objective of a clause matrix on ``engine``'s data at its θ.

    Parameters
    ----------
    engine : ClauseEngine
        The fit's clause engine.

    Returns
    -------
    callable
        ``objective(W) -> float``.
    """
    data = engine.data

    def objective(W: np.ndarray) -> float:
        return hamming_objective(data.A, data.y, W, engine.theta, sample_weight=data.weight, feature_cost=data.cost)

    return objective


def local_search(
    engine: ClauseEngine, W_init: np.ndarray, step: Step, *, name: str, logger: logging.Logger, max_iter: int,
    started: float | None = None, finish: Finish | None = None,
) -> FitResult:
    """Run ``step`` from ``W_init`` until it stops or ``max_iter`` iterations; the last W and the objective trace.

    Every accepted W is logged as one line of the iteration log (``name``
    heads its lines), but for the one of the stopping step; ``finish`` then
    rewrites the last W (its objective joins the trace when it is lower).

    Parameters
    ----------
    engine, W_init, max_iter, started
        As for the drivers (:func:`~rulemodels.algorithms.bcd.block_coordinate_descent`).
    step : callable
        One iteration (see :data:`Step`).
    name : str
        The search's name in the iteration log (``"BCD"``, ``"AM"``).
    logger : logging.Logger
        The driver's logger, which writes the iteration log.
    finish : callable or None, default=None
        ``finish(W, current) -> (W, current)`` after the last iteration; None keeps W.

    Returns
    -------
    FitResult
        The last W, its objective and the objective trace.
    """
    objective = hamming_of(engine)
    W = W_init.copy()
    current = objective(W)
    history = [current]
    termination = Termination.max_iter
    iteration = 0
    log = IterationLog(logger, name, engine.data, max_iter, n_solves=lambda: engine.stats.n_solves, started=started)
    log.iteration(0, W, current)
    for iteration in range(1, max_iter + 1):
        candidate, value, stop = step(W, current)
        if candidate is not None:
            W, current = candidate, value
            history.append(current)
        if stop is not None:
            termination = stop
            break
        log.iteration(iteration, W, current)
    log.close(termination)
    if finish is not None:
        W, current = finish(W, current)
        if current < history[-1]:
            history.append(current)
    return FitResult(W=W, objective=current, history=history, n_iter=iteration, termination=termination)
