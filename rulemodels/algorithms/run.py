"""One entry point that runs any algorithm on a CNF problem."""

from __future__ import annotations

import logging
from typing import Any, Mapping

from rulemodels.algorithms.alternating import alternating_minimization
from rulemodels.algorithms.bcd import block_coordinate_descent
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.engine import ClauseEngine
from rulemodels.algorithms.result import FitResult
from rulemodels.algorithms.set_cover import set_cover
from rulemodels.algorithms.tlp import two_level_lp
from rulemodels.algorithms.workspace import ProblemWorkspace
from rulemodels.models.problem import CNFProblem
from solvers import Backend

logger = logging.getLogger(__name__)

__all__ = ["ALGORITHMS", "learn", "learn_cnf"]

ALGORITHMS = ("am", "bcd", "tlp", "scs", "scn")


def learn(
    workspace: ProblemWorkspace,
    *,
    algorithm: str = "am",
    n_clauses: int = 2,
    theta: float = 0.01,
    max_iter: int = 100,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    formulation: str = "auto",
) -> FitResult:
    """Run ``algorithm`` on the problem of ``workspace``, sharing its models and solutions.

    SCS, SCN, BCD and AM start from set covering on one clause engine;
    ``formulation`` chooses the primal or dual clause LP
    (:func:`~rulemodels.algorithms.workspace.choose_formulation`; TLP
    ignores it). The result (with this fit's build/solve counters) is what
    a fit on a fresh workspace would give.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    if algorithm == "tlp":
        return two_level_lp(
            workspace, theta=theta, n_clauses=n_clauses, time_limit=time_limit, solver_options=solver_options,
        )
    engine = ClauseEngine(
        workspace, theta=theta, binarization="simple" if algorithm == "scs" else "redundancy_aware",
        time_limit=time_limit, solver_options=solver_options, formulation=formulation,
    )
    result = set_cover(engine, n_clauses)
    if algorithm == "bcd" and result.stop_reason != "time_limit":
        result = block_coordinate_descent(engine, result.W, max_iter=max_iter)
    elif algorithm == "am" and result.stop_reason != "time_limit":
        result = alternating_minimization(engine, result.W, max_iter=max_iter)
    if result.stop_reason == "time_limit":
        limit = "the time limit" if time_limit is None else f"the time limit of {time_limit:g} s"
        logger.info(
            "%s: %s was reached after %d solves; keeping the best rule found (objective %.6g)",
            algorithm.upper(), limit, engine.stats.n_solves, result.objective,
        )
    result.n_builds = engine.stats.n_builds
    result.n_solves = engine.stats.n_solves
    result.n_cache_hits = engine.stats.n_cache_hits + engine.stats.n_shared
    result.solver_seconds = engine.stats.solver_seconds
    return result


def learn_cnf(
    problem: CNFProblem,
    backend: Backend,
    *,
    algorithm: str = "am",
    n_clauses: int = 2,
    theta: float = 0.01,
    allow_disable: bool = False,
    disable_cost: float = 0.5,
    max_iter: int = 100,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    formulation: str = "auto",
) -> tuple[FitResult, WorkingData]:
    """Run ``algorithm`` on ``problem`` with a workspace of its own (built and released here).

    For several fits on the same problem, build one
    :class:`~rulemodels.algorithms.workspace.ProblemWorkspace` and call
    :func:`learn` on it instead. Returns the driver's result and the working
    data (to read W back with ``data.split``).
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    data = WorkingData.from_problem(problem, allow_disable=allow_disable, disable_cost=disable_cost)
    with ProblemWorkspace(data, backend) as workspace:
        result = learn(
            workspace, algorithm=algorithm, n_clauses=n_clauses, theta=theta, max_iter=max_iter,
            time_limit=time_limit, solver_options=solver_options, formulation=formulation,
        )
    return result, data
