"""Column generation's final selection: at most R of the generated clauses (:func:`greedy_selection`, :func:`select_clauses`)."""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rulemodels.algorithms.cg_settings import CGSettings
from rulemodels.algorithms.mip_progress import MipReporter
from rulemodels.algorithms.result import TimeLimitWarning
from rulemodels.models import unique_rows
from rulemodels.models.cg_columns import TOLERANCE, ClauseColumns
from rulemodels.models.cg_master import CGMaster
from solvers import SolveError

logger = logging.getLogger(__name__)

__all__ = ["greedy_selection", "remaining_seconds", "select_clauses"]


def greedy_selection(
    covers: np.ndarray, weight: np.ndarray, cost: np.ndarray, max_clauses: int, starts: int = 1,
) -> list[int]:
    """A selection of at most ``max_clauses`` clauses by local search from greedy starts.

    Minimises ``Σ_g weight[g] [no selected clause covers g] + Σ_{k∈S} cost[k]``
    (the master's integer objective, :meth:`CGMaster.coverage`). From each
    start (the empty selection, then the ``starts - 1`` best single clauses),
    while one of them lowers the objective, the best move among adding a clause
    (below the cap), dropping one and swapping one for another is made; the
    best selection found is returned. From the empty start the first moves
    are greedy additions. Deterministic (ties go to the lowest index), a few
    vector operations per move; never worse than the best single clause.

    Parameters
    ----------
    covers : numpy.ndarray of bool, shape (n_groups, n_clauses)
        ``covers[g, k]``: clause k covers row group g.
    weight : numpy.ndarray of shape (n_groups,)
        The weight of each row group, paid when no selected clause covers it.
    cost : numpy.ndarray of shape (n_clauses,)
        The cost of each clause.
    max_clauses : int
        At most this many clauses are selected (the cap ``R``).
    starts : int, default=1
        The number of starts: the empty selection, then the ``starts - 1`` best single clauses.

    Returns
    -------
    list of int
        The selected clause indices (columns of ``covers``), ascending; empty when no clause pays for itself
        or ``max_clauses < 1``.
    """
    n_groups, n_clauses = covers.shape
    if n_clauses == 0 or max_clauses < 1:
        return []
    # A clause that does not pay for itself alone never does beside others (what it newly covers only shrinks):
    # the search runs over the clauses that do, and rows covered by the same of them count as one.
    candidates = np.flatnonzero(cost - weight @ covers.astype(float) < -TOLERANCE * max(1.0, float(weight.sum())))
    if candidates.size == 0:
        return []
    covers = covers[:, candidates]
    first, inverse = unique_rows(covers)
    patterns = covers[first]
    weight = np.bincount(inverse, weights=weight, minlength=patterns.shape[0])
    covers, cost, n_groups = patterns, cost[candidates], patterns.shape[0]
    cover_f = covers.astype(float)
    total = float(weight.sum())
    tolerance = TOLERANCE * max(1.0, total)

    def add_changes(counts: np.ndarray) -> np.ndarray:
        # objective change of adding each clause: its cost, less the weight it newly covers
        return cost - (weight * (counts == 0)) @ cover_f

    def descend(selected: list[int]) -> tuple[float, list[int]]:
        counts = cover_f[:, selected].sum(axis=1) if selected else np.zeros(n_groups)
        for _ in range(10 * max_clauses + 100):
            moves: list[tuple[float, int, int]] = []  # (change, drop, add); -1: none
            if len(selected) < max_clauses:
                changes = add_changes(counts)
                changes[selected] = np.inf
                k = int(np.argmin(changes))
                moves.append((float(changes[k]), -1, k))
            for k in selected:
                without = counts - cover_f[:, k]
                drop = float(weight[(without == 0) & (counts > 0)].sum()) - float(cost[k])
                moves.append((drop, k, -1))
                changes = add_changes(without)
                changes[selected] = np.inf
                j = int(np.argmin(changes))
                moves.append((drop + float(changes[j]), k, j))
            change, drop_k, add_k = min(moves)
            if change >= -tolerance:
                break
            if drop_k >= 0:
                selected.remove(drop_k)
                counts -= cover_f[:, drop_k]
            if add_k >= 0:
                selected.append(add_k)
                counts += cover_f[:, add_k]
        value = float(weight[counts == 0].sum() + cost[selected].sum())
        return value, sorted(selected)

    singles = add_changes(np.zeros(n_groups))
    firsts = np.argsort(singles, kind="stable")[: max(0, starts - 1)]
    best_value, best = descend([])
    for k in firsts.tolist():
        value, selected = descend([int(k)])
        if value < best_value - tolerance:
            best_value, best = value, selected
    return sorted(int(candidates[k]) for k in best)


def remaining_seconds(deadline: float | None, limit: float | None) -> float | None:
    """Return the seconds for the next solve: ``limit`` (None: none), cut to what the fit's deadline leaves.

    Parameters
    ----------
    deadline : float or None
        The fit's deadline on the ``time.perf_counter`` clock; None for none.
    limit : float or None
        The solve's own limit in seconds; None for none.

    Returns
    -------
    float or None
        The seconds the solve may take (at least 0.01 under a deadline); None for no limit.
    """
    if deadline is None:
        return limit
    left = max(0.01, deadline - time.perf_counter())
    return left if limit is None else min(limit, left)


def select_clauses(
    master: CGMaster, columns: ClauseColumns, solve: Callable[..., Any], theta: float, settings: CGSettings,
    deadline: float | None, max_clauses: int, integer_program: Callable[[], Mapping[str, Any]] | None = None,
) -> list[int]:
    """The final selection of at most ``max_clauses`` generated clauses (indices into ``master.clauses``).

    First :func:`greedy_selection` on the master's integer program (greedy,
    then local search; deterministic). With ``settings.selection == "mip"``
    the integer program is then solved (``selection_time_limit``,
    ``selection_gap``) and its selection kept unless the local search's is
    better (a MIP stopped at its time limit, or without a solution); when
    the fit's ``deadline`` has passed, the integer program is not tried.
    Clauses that fail on no row to cover are dropped (they only cost).

    Parameters
    ----------
    master : CGMaster
        The master holding the generated clauses.
    columns : ClauseColumns
        The rows and costs the master was built from.
    solve : callable
        ``solve(model, changes, **options)``: solves a model, returns the backend's result.
    theta : float
        The sparsity weight θ.
    settings : CGSettings
        The knobs of column generation (``selection``, ``selection_starts``, ``selection_time_limit``,
        ``selection_gap``, ``clause_cost``).
    deadline : float or None
        The fit's deadline on the ``time.perf_counter`` clock; None for none.
    max_clauses : int
        At most this many clauses are selected.
    integer_program : callable or None, default=None
        Makes the master the integer program and returns its changes for the solve; None:
        ``master.set_integer(True)``.

    Returns
    -------
    list of int
        The selected clauses, as indices into ``master.clauses``.
    """
    def useful(selection: list[int]) -> list[int]:
        return [k for k in selection if columns.fails(master.clauses[k])[0].any()]

    def score(selection: list[int]) -> float:
        return columns.objective([master.clauses[k] for k in selection], theta, settings.clause_cost)

    local = useful(greedy_selection(*master.coverage(), max_clauses, starts=settings.selection_starts))
    if settings.selection != "mip" or (deadline is not None and time.perf_counter() >= deadline):
        return local  # the local search's, also when the fit's time limit leaves no time for the integer program
    time_limit = remaining_seconds(deadline, settings.selection_time_limit)
    try:
        # incumbent, bound and gap when it runs for seconds
        with MipReporter("CG selection MIP", time_limit) as progress:
            result = solve(
                master.model, master.set_integer(True) if integer_program is None else integer_program(),
                time_limit=time_limit, mip_gap=settings.selection_gap, progress=progress,
            )
        result.raise_for_status("the column generation integer selection")
        if result.termination.value == "time_limit":
            gap = ("unknown" if result.bound is None or result.objective is None
                   else f"{abs(result.objective - result.bound) / max(1e-10, abs(result.objective)):.2%}")
            warnings.warn(
                f"column generation: the integer selection over {len(master.clauses)} clauses stopped at its time limit "
                f"(gap {gap}): the rule may depend on the machine's speed; the default selection (local search) does "
                "not, and a larger theta gives fewer candidate clauses", TimeLimitWarning, stacklevel=2,
            )
    except SolveError as exc:
        logger.warning("CG: %s; keeping the local search's selection", exc)
        return local
    selection = useful(master.selection())
    if score(selection) > score(local) + TOLERANCE:
        logger.info("CG: the integer selection stopped at a worse rule than the local search's; keeping that one")
        return local
    return selection
