"""Set covering (Malioutov & Varshney 2013; paper section 2.2): SCS and SCN.

For a CNF: learn clause 1 on every sample; the samples it outputs 0 on are
decided (``ŷ = 0`` whatever the other clauses say), so they are removed
(weight 0) before learning clause 2, and so on for R clauses. (For the DNF
the user asked for, this is the paper's "remove the samples with output 1".)
SCS binarizes each clause LP by the 0.2 threshold, SCN by the
redundancy-aware method.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from rulemodels.algorithms.engine import ClauseEngine, SolveBudgetExceeded
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.models.objectives import hamming_objective, row_products

logger = logging.getLogger(__name__)

__all__ = ["set_cover"]


def set_cover(engine: ClauseEngine, n_clauses: int, *, started: float | None = None) -> FitResult:
    """Learn ``n_clauses`` clauses greedily, removing decided samples after each.

    Clauses the cache already holds for this θ and binarization (learned
    by a fit with the same or a larger R) are read instead of learned again.
    At verbose (INFO) each clause logs one line with the LP solves and the
    seconds since ``started`` (a ``time.perf_counter()``; default: now), so
    that a long first clause LP on large data shows progress before AM or
    BCD log their first iteration.

    Parameters
    ----------
    engine : ClauseEngine
        Learns one clause LP at a time on the working data at one θ (and holds the cache of set-covering
        chains).
    n_clauses : int
        The number of clauses R to learn.
    started : float or None, default=None
        The ``time.perf_counter()`` the logged seconds count from; None: now.

    Returns
    -------
    FitResult
        The clause matrix ``W`` (d', R), its Hamming objective (eq. (3.10) HammingFormulation), one
        iteration, and ``termination`` ``"single_pass"`` (``"time_limit"`` when the solve budget ran out:
        the unlearned clauses repeat the last learned one).
    """
    started = time.perf_counter() if started is None else started
    data = engine.data
    W = np.zeros((data.n_features, n_clauses))
    weight = data.weight.copy()
    chain = engine.cache.set_cover_chain(engine.chain_key)
    stop = Termination.single_pass
    for r in range(n_clauses):
        if r < len(chain.clauses):
            W[:, r] = chain.clauses[r]
            engine.stats.n_shared += 1
        else:
            try:
                W[:, r] = engine.learn(r, weight)
            except SolveBudgetExceeded:
                stop = Termination.time_limit
                # Unlearned clauses stay empty; a CNF clause with no feature would
                # reject everything, so repeat the last learned clause instead.
                for later in range(r, n_clauses):
                    W[:, later] = W[:, r - 1] if r > 0 else 0.0
                break
            chain.clauses.append(W[:, r].copy())
        covered = row_products(data.A, W[:, r]) > 0.5
        weight = np.where(covered, weight, 0.0)
        if logger.isEnabledFor(logging.INFO):
            logger.info(
                "set cover: clause %d of %d uses %d features; %d samples remain (%d LP solves, %.2f s)", r + 1, n_clauses,
                int(W[:, r].sum()), int((weight > 0).sum()), engine.stats.n_solves, time.perf_counter() - started,
            )
    objective = hamming_objective(data.A, data.y, W, engine.theta, sample_weight=data.weight, feature_cost=data.cost)
    return FitResult(W=W, objective=objective, history=[objective], n_iter=1, termination=stop)
