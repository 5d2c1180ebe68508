"""Alternating minimization (paper section 4.3) of eq. (3.12) HammingFormulationBothVW.

Each iteration
1. updates the ideal clause outputs v: positives keep ``v_ir = 1``; each
   negative is assigned to the clause r_0 with the smallest
   ``Σ_j a_ij w_jr`` (eq. (3.9) def-r0), the only clause that must reject it; ties
   go to the clause whose cluster centre (mean feature vector of the
   negatives for which that clause is among the minimisers, ties included)
   is nearest in l1 distance, then to the lowest index (the centre weights
   each negative by its sample weight, so a row of weight k counts as k
   identical rows: a fit on distinct rows with their counts as weights is the
   fit on all the rows, which Parquet and Dask fits rely on);
2. re-solves the R clause LPs independently, each with the negatives
   assigned to another clause removed.

It stops at a fixed point (the clauses do not change), when an update would
raise the objective (the update is rejected, so the trace never increases),
when a state repeats (AM can cycle between a few states), or after
``max_iter`` iterations, and returns the best rule seen.
"""

from __future__ import annotations

import logging

import numpy as np

from rulemodels.algorithms.descent import LOCAL_SEARCH_SECTIONS, hamming_of, local_search
from rulemodels.algorithms.engine import ClauseEngine, SolveBudgetExceeded
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.algorithms.rounding import redundant_clauses
from rulemodels.models.objectives import ROW_BLOCK_CELLS, row_products
from rulemodels.utils import fill_doc

logger = logging.getLogger(__name__)

__all__ = ["alternating_minimization", "assign_negatives"]


def assign_negatives(A: np.ndarray, W: np.ndarray, negatives: np.ndarray, weight: np.ndarray | None = None) -> np.ndarray:
    """Clause index r_0 assigned to each negative sample (eq. (3.9) def-r0 with l1 cluster tie-breaking).

    ``weight`` (one per sample of ``A``; default ones) weights the negatives in the cluster centres.

    Parameters
    ----------
    A : numpy.ndarray of shape (n, d')
        The working 0/1 matrix.
    W : numpy.ndarray of shape (d', R)
        The binary clause matrix.
    negatives : numpy.ndarray of int
        The rows of the negative samples.
    weight : numpy.ndarray of shape (n,) or None, default=None
        The sample weights; None weighs every sample 1.

    Returns
    -------
    ndarray of int
        The clause index assigned to each negative sample.
    """
    rows = A[negatives]  # one copy of the negatives' rows
    sums = row_products(rows, W)
    minimal = np.isclose(sums, sums.min(axis=1, keepdims=True))
    assignment = np.argmax(minimal, axis=1)
    tied = minimal.sum(axis=1) > 1
    if np.any(tied):
        members = minimal.astype(float)
        if weight is not None:
            members = members * np.asarray(weight, dtype=float)[negatives][:, None]
        counts = members.sum(axis=0)
        centres = _member_sums(members, rows) / np.where(counts > 0, counts, 1.0)[:, None]
        tied_rows = np.flatnonzero(tied)
        # l1 distance to each centre, a block of rows at a time: never a (rows x R x d) array (3.6 GB at 1,000,000
        # rows x 214 features); each row's sum over its d terms is the same reduction as in one array
        distance = np.empty((tied_rows.shape[0], centres.shape[0]))
        block = max(1, ASSIGN_BLOCK_CELLS // max(1, centres.shape[0] * rows.shape[1]))
        for start in range(0, tied_rows.shape[0], block):
            features = rows[tied_rows[start:start + block]]
            difference = features[:, None, :] - centres[None, :, :]
            distance[start:start + block] = np.abs(difference, out=difference).sum(axis=2)
        distance = np.where(minimal[tied], distance, np.inf)
        assignment[tied] = np.argmin(distance, axis=1)
    return assignment


#: Cells (rows x clauses x features) of one block of AM's l1 distances to the cluster centres.
ASSIGN_BLOCK_CELLS = 1 << 24


def _member_sums(members: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``members.T @ rows`` (R x d); 0/1 integer ``rows`` (``WorkingData`` above its float size) a block at a time."""
    if np.issubdtype(rows.dtype, np.floating):
        return members.T @ rows
    total = np.zeros((members.shape[1], rows.shape[1]))
    block = max(1, ROW_BLOCK_CELLS // max(1, rows.shape[1]))
    for start in range(0, rows.shape[0], block):
        total += members[start:start + block].T @ rows[start:start + block].astype(np.float64)
    return total


@fill_doc(sections=LOCAL_SEARCH_SECTIONS)
def alternating_minimization(
    engine: ClauseEngine, W_init: np.ndarray, *, max_iter: int, tol: float = 1e-9, started: float | None = None
) -> FitResult:
    """AM from ``W_init`` (d', R); returns the best W and the objective trace.

    {sections}
    """
    data = engine.data
    negatives = np.flatnonzero(data.y == 0)
    objective = hamming_of(engine)
    seen = {W_init.tobytes()}

    def step(W: np.ndarray, current: float) -> tuple[np.ndarray | None, float, Termination | None]:
        """Assign the negatives, re-solve every clause; the new W, or the stop."""
        assignment = assign_negatives(data.A, W, negatives, data.weight)
        candidate = np.empty_like(W)
        try:
            for r in range(W.shape[1]):
                weight = data.weight.copy()
                weight[negatives[assignment != r]] = 0.0
                candidate[:, r] = engine.learn(r, weight)
        except SolveBudgetExceeded:
            return None, current, Termination.time_limit
        value = objective(candidate)
        if np.array_equal(candidate, W):
            return None, current, Termination.converged
        if value > current + tol:
            return None, current, Termination.no_improvement
        key = candidate.tobytes()
        if key in seen:
            return candidate, value, Termination.cycle
        seen.add(key)
        return candidate, value, None

    def finish(W: np.ndarray, current: float) -> tuple[np.ndarray, float]:
        return _drop_redundant(data, W, current, objective, tol)

    return local_search(
        engine, W_init, step, name="AM", logger=logger, max_iter=max_iter, started=started, finish=finish,
    )


def _drop_redundant(data, W: np.ndarray, current: float, objective, tol: float) -> tuple[np.ndarray, float]:
    """Drop clauses that duplicate another or are true on every row through one column.

    A clause slot that no negative is assigned to learns such a clause (it
    only has to accept the positives), and AM's fixed point keeps it. Each is
    dropped when that does not raise the Hamming objective (dropping a
    duplicate never does; a tautology can be the minimum of a negative's
    clause sums).
    """
    for r in reversed(redundant_clauses(data.A, W, data.groups, allow_disable=data.allow_disable)):
        candidate = np.delete(W, r, axis=1)
        value = objective(candidate)
        if value <= current + tol:
            W, current = candidate, value
    return W, current
