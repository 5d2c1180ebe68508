"""HiGHS through Pyomo's persistent APPSI interface (in process, via ``highspy``).

This is the default backend. The first ``solve`` of a model builds the HiGHS
instance; later solves of the *same* model push only what changed (mutable
Params, bounds, fixed variables, (de)activated constraints) and warm-start
from the previous basis. Variables are never treated as Params when fixed
(``treat_fixed_vars_as_params=False``): fixing a variable then only changes
its bounds instead of rebuilding every constraint that contains it.
"""

from __future__ import annotations

import functools
import logging
import time
import weakref
from typing import Any, Mapping

from pyomo.common.dependencies import attempt_import

from solvers.base import Availability, SolveResult, TerminationCondition
from solvers.options import translate_options

logger = logging.getLogger(__name__)

highspy, highspy_available = attempt_import("highspy")

__all__ = ["HighsBackend"]


def _map_appsi_termination(condition: Any) -> TerminationCondition:
    name = getattr(condition, "name", str(condition))
    mapping = {
        "optimal": TerminationCondition.optimal,
        "maxTimeLimit": TerminationCondition.time_limit,
        "maxIterations": TerminationCondition.iteration_limit,
        "objectiveLimit": TerminationCondition.feasible,
        "minStepLength": TerminationCondition.error,
        "unbounded": TerminationCondition.unbounded,
        "infeasible": TerminationCondition.infeasible,
        "infeasibleOrUnbounded": TerminationCondition.infeasible_or_unbounded,
        "error": TerminationCondition.error,
        "interrupted": TerminationCondition.interrupted,
        "licensingProblems": TerminationCondition.error,
    }
    mapped = mapping.get(name)
    if mapped is None:
        logger.warning("highs returned termination condition %r; treating it as 'unknown'", name)
        return TerminationCondition.unknown
    return mapped


@functools.lru_cache(maxsize=1)
def _highs_version() -> str | None:
    if not highspy_available:
        return None
    from pyomo.contrib.appsi.solvers import Highs

    return ".".join(str(part) for part in Highs().version())


class HighsBackend:
    """Persistent HiGHS backend.

    Parameters
    ----------
    options : mapping, optional
        HiGHS options applied to every solve (HiGHS' own names, for example
        ``{"solver": "ipm", "presolve": "off"}``); per-call ``options`` of
        :meth:`solve` override them.
    threads : int, optional
        Number of HiGHS threads.

    Notes
    -----
    One HiGHS instance is kept per model (weakly referenced: it is dropped
    with the model). A backend object is therefore cheap to share between
    drivers, and pickling it (for parallel workers) drops the instances.
    """

    name = "highs"
    is_persistent = True

    def __init__(self, options: Mapping[str, Any] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads
        self._instances: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
        self.n_builds = 0
        self.n_solves = 0

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_instances"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._instances = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"HighsBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        if not highspy_available:
            return Availability(False, "the Python package 'highspy' is not installed (pip install highspy)")
        return Availability(True)

    def version(self) -> str | None:
        return _highs_version()

    def _instance_for(self, model: Any) -> Any:
        solver = self._instances.get(model)
        if solver is None:
            from pyomo.contrib.appsi.solvers import Highs

            solver = Highs()
            solver.config.load_solution = False
            solver.config.stream_solver = False
            solver.update_config.treat_fixed_vars_as_params = False
            self._instances[model] = solver
            self.n_builds += 1
        return solver

    def solve(
        self,
        model: Any,
        time_limit: float | None = None,
        mip_gap: float | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> SolveResult:
        """Solve ``model`` (re-using its HiGHS instance if it was solved before)."""
        start = time.perf_counter()
        solver = self._instance_for(model)
        solver.config.time_limit = time_limit
        solver.config.mip_gap = mip_gap
        native = translate_options("highs", threads=self.threads)
        native.update(self.options)
        native.update(options or {})
        solver.highs_options = native
        self.n_solves += 1
        results = solver.solve(model)
        termination = _map_appsi_termination(results.termination_condition)
        objective = results.best_feasible_objective
        has_solution = objective is not None
        if has_solution:
            results.solution_loader.load_vars()
        bound = results.best_objective_bound
        if termination is TerminationCondition.optimal and bound is None:
            bound = objective
        return SolveResult(
            termination=termination,
            objective=None if objective is None else float(objective),
            bound=None if bound is None or abs(bound) == float("inf") else float(bound),
            wall_time=time.perf_counter() - start,
            solver_name=self.name,
            solver_version=self.version() or "",
            has_solution=has_solution,
            message=str(getattr(results.termination_condition, "name", "")),
        )
