"""One entry point that runs any algorithm on a CNF problem's LP-solution cache."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulemodels import defaults
from rulemodels.algorithms.alternating import alternating_minimization
from rulemodels.algorithms.bcd import block_coordinate_descent
from rulemodels.algorithms.column_generation import CGSettings, column_generation
from rulemodels.algorithms.engine import ClauseEngine
from rulemodels.algorithms.lp_cache import LPSolutionCache
from rulemodels.algorithms.result import FitResult
from rulemodels.algorithms.set_cover import set_cover
from rulemodels.algorithms.tlp import two_level_lp

logger = logging.getLogger(__name__)

__all__ = ["ALGORITHMS", "learn"]

#: The algorithms :func:`learn` runs: alternating minimization, block coordinate descent, the two-level LP,
#: set covering with simple or redundancy-aware binarization, column generation (the exact MIP is :func:`solve_exact`).
ALGORITHMS = ("am", "bcd", "tlp", "scs", "scn", "cg")

CG_SETTINGS = CGSettings(
    clause_cost=defaults.CG_CLAUSE_COST, max_length=defaults.CG_MAX_CLAUSE_LENGTH, beam_width=defaults.CG_BEAM_WIDTH,
    columns_per_round=defaults.CG_COLUMNS_PER_ROUND, pricing_mip_solves=defaults.CG_PRICING_MIP_SOLVES,
    pricing_mip_max_nonzeros=defaults.CG_PRICING_MIP_MAX_NONZEROS,
    selection_time_limit=defaults.CG_SELECTION_TIME_LIMIT, selection_gap=defaults.CG_SELECTION_GAP,
    group_rows=defaults.CG_GROUP_ROWS, selection=defaults.CG_SELECTION,
)
"""Column generation's settings (``rulemodels.defaults.CG_*``)."""


def learn(
    cache: LPSolutionCache,
    *,
    algorithm: str,
    n_clauses: int,
    theta: float,
    max_iter: int,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    formulation: str = "auto",
    cg_settings: CGSettings | None = None,
) -> FitResult:
    """Run ``algorithm`` on the problem of ``cache``, sharing its models and solutions.

    SCS, SCN, BCD and AM start from set covering on one clause engine; CG
    (column generation) builds its own master LP and pricing MIP for the fit;
    ``formulation`` chooses the primal or dual clause LP
    (:func:`~rulemodels.algorithms.lp_cache.choose_formulation`; TLP
    ignores it). The result (with this fit's build/solve counters) is what
    a fit on a fresh cache would give. For a single fit build the cache
    for it: ``with LPSolutionCache(WorkingData.from_problem(problem), backend) as cache:``.

    Parameters
    ----------
    cache : LPSolutionCache
        The problem and the shared LP work.
    algorithm : {"cg", "am", "bcd", "tlp", "scs", "scn"}
        The algorithm.
    n_clauses : int
        R, the number of clauses.
    theta : float
        Sparsity weight θ.
    max_iter : int
        Iteration cap of BCD and AM, and the most rounds of CG.
    time_limit : float or None, default=None
        Seconds for the fit; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    formulation : {"auto", "primal", "dual", "cuts"}, default="auto"
        The form of the clause LP.
    cg_settings : CGSettings or None, default=None
        The knobs of column generation; None: the defaults.

    Returns
    -------
    FitResult
        The learned W with its objective and the fit's statistics.

    Raises
    ------
    ValueError
        If ``algorithm`` is not one of ``ALGORITHMS``.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    if algorithm == "cg":
        return column_generation(
            cache.data, cache.backend, theta=theta, n_clauses=n_clauses, max_iter=max_iter,
            settings=CG_SETTINGS if cg_settings is None else cg_settings,
            time_limit=time_limit, solver_options=solver_options, model_hook=cache.model_hook,
        )
    if algorithm == "tlp":
        return two_level_lp(
            cache, theta=theta, n_clauses=n_clauses, time_limit=time_limit, solver_options=solver_options,
        )
    started = time.perf_counter()  # the iteration log's seconds include set covering
    engine = ClauseEngine(
        cache, theta=theta, binarization="simple" if algorithm == "scs" else "redundancy_aware",
        time_limit=time_limit, solver_options=solver_options, formulation=formulation,
    )
    result = set_cover(engine, n_clauses, started=started)
    if algorithm == "bcd" and result.termination != "time_limit":
        result = block_coordinate_descent(engine, result.W, max_iter=max_iter, started=started)
    elif algorithm == "am" and result.termination != "time_limit":
        result = alternating_minimization(engine, result.W, max_iter=max_iter, started=started)
    if result.termination == "time_limit":
        limit = "the time limit" if time_limit is None else f"the time limit of {time_limit:g} s"
        logger.info(
            "%s: %s was reached after %d solves; keeping the best rule found (objective %.6g)",
            algorithm.upper(), limit, engine.stats.n_solves, result.objective,
        )
    return replace(
        result, n_builds=engine.stats.n_builds, n_solves=engine.stats.n_solves,
        n_reused=engine.stats.n_repeats + engine.stats.n_shared, solver_seconds=engine.stats.solver_seconds,
    )
