"""Helpers shared by the adapters: install hints, status mapping and solution hygiene."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from typing import Any

import pyomo.environ as pyo

from solvers.base import SolveResult, TerminationCondition
from solvers.options import solver_family

logger = logging.getLogger(__name__)

#: how to install each solver we can name (apt, conda, pip)
INSTALL_HINTS: dict[str, str] = {
    "highs": "pip install highspy (or conda install -c conda-forge highspy)",
    "glpk": "install glpk-utils (apt) or glpk (conda-forge)",
    "cbc": "install coinor-cbc (apt) or coincbc (conda-forge)",
    "gurobi": "pip install gurobipy, and a Gurobi license",
    "cplex": "pip install cplex, and a CPLEX license for large models",
    "scip": "pip install 'rulemodels[scip]' (pyscipopt)",
    "xpress": "pip install xpress, and a FICO license for large models",
}


def install_hint(name: str) -> str:
    """How to install the solver behind the Pyomo name ``name``."""
    return INSTALL_HINTS.get(solver_family(name), f"install a solver Pyomo knows as '{name}'")

_LEGACY_STATUS = {
    "optimal": TerminationCondition.optimal,
    "globallyOptimal": TerminationCondition.optimal,
    "locallyOptimal": TerminationCondition.optimal,
    "feasible": TerminationCondition.feasible,
    "intermediateNonInteger": TerminationCondition.feasible,
    "maxTimeLimit": TerminationCondition.time_limit,
    "maxIterations": TerminationCondition.iteration_limit,
    "maxEvaluations": TerminationCondition.iteration_limit,
    "infeasible": TerminationCondition.infeasible,
    "unbounded": TerminationCondition.unbounded,
    "infeasibleOrUnbounded": TerminationCondition.infeasible_or_unbounded,
    "userInterrupt": TerminationCondition.interrupted,
    "resourceInterrupt": TerminationCondition.interrupted,
    "error": TerminationCondition.error,
    "solverFailure": TerminationCondition.error,
    "internalSolverError": TerminationCondition.error,
    "invalidProblem": TerminationCondition.error,
    "licensingProblems": TerminationCondition.error,
    "noSolution": TerminationCondition.error,
}


def map_legacy_termination(condition: Any, solver_name: str) -> TerminationCondition:
    """Map a ``pyomo.opt.TerminationCondition`` to ours; unknown ones are logged."""
    name = getattr(condition, "name", str(condition))
    mapped = _LEGACY_STATUS.get(name)
    if mapped is None:
        logger.warning("%s returned termination condition %r; treating it as 'unknown'", solver_name, name)
        return TerminationCondition.unknown
    return mapped


def active_objective(model: pyo.Block) -> Any:
    """The single active objective of ``model`` (ValueError if there is not exactly one)."""
    objectives = list(model.component_data_objects(pyo.Objective, active=True, descend_into=True))
    if len(objectives) != 1:
        raise ValueError(f"the model must have exactly one active objective, found {len(objectives)}")
    return objectives[0]


def finite_or_none(value: Any) -> float | None:
    """``float(value)`` when it is a finite number, else None."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if number != number or number in (float("inf"), float("-inf")):
        return None
    return number


def clear_unfixed_values(model: pyo.Block) -> list[Any]:
    """Set every unfixed variable's value to None and return those variables.

    Shell solvers only report variables that appear in the LP file they
    write; others would keep a stale value from an earlier solve.
    """
    cleared = []
    for var in model.component_data_objects(pyo.Var, descend_into=True):
        if not var.fixed:
            var.set_value(None, skip_validation=True)
            cleared.append(var)
    return cleared


def fill_unreported_values(variables: list[Any]) -> None:
    """Give variables the solver did not report (absent from the LP) a value.

    Such a variable appears in no active constraint and not in the objective,
    so any value within its bounds is optimal; we take 0 clipped to the bounds.
    """
    for var in variables:
        if var.value is None:
            var.set_value(zero_within_bounds(var), skip_validation=True)


def zero_within_bounds(var: Any) -> float:
    """0 clipped to the bounds of ``var``: the value of a variable that no constraint or objective term uses."""
    value = 0.0
    if var.lb is not None:
        value = max(value, var.lb)
    if var.ub is not None:
        value = min(value, var.ub)
    return value


def error_result(name: str, version: str | None, start: float, message: str) -> SolveResult:
    """A ``SolveResult`` for a solve that failed before a solution could be read."""
    return SolveResult(
        termination=TerminationCondition.error, objective=None, bound=None,
        wall_time=time.perf_counter() - start, solver_name=name, solver_version=version or "",
        has_solution=False, message=message,
    )


def status_text(results: Any) -> str:
    """The solver's status message of Pyomo results, or the termination condition's name."""
    message = results.solver.message
    if message is None or str(message) in ("", "<undefined>"):
        return str(getattr(results.solver.termination_condition, "name", ""))
    return str(message)


def reports_values(results: Any) -> bool:
    """Whether Pyomo results carry variable values."""
    return len(results.solution) > 0 and len(results.solution(0).variable) > 0


_NO_LOAD = (TerminationCondition.infeasible, TerminationCondition.unbounded, TerminationCondition.infeasible_or_unbounded)
_NEEDS_VALUES = (TerminationCondition.optimal, TerminationCondition.feasible, TerminationCondition.unknown)


class _StatusWarningFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Loading a SolverResults object with")


@contextlib.contextmanager
def _without_status_warning() -> Iterator[None]:
    """Drop Pyomo's warning about loading a solution of a stopped solve: the result's termination says it."""
    core = logging.getLogger("pyomo.core")
    quiet = _StatusWarningFilter()
    core.addFilter(quiet)
    try:
        yield
    finally:
        core.removeFilter(quiet)


def classic_result(
    results: Any,
    model: pyo.Block,
    termination: TerminationCondition,
    *,
    cleared: list[Any],
    name: str,
    version: str | None,
    start: float,
) -> SolveResult | None:
    """Load Pyomo's classic ``results`` into ``model`` and type them.

    Returns None when the status promises a solution but no variable values
    were reported (the caller says why, in an error result): such an empty
    solution must not be loaded as all zeros.
    """
    reported = reports_values(results)
    if not reported and termination in _NEEDS_VALUES:
        return None
    objective_component = active_objective(model)
    has_solution = reported and termination not in _NO_LOAD
    objective = None
    message = status_text(results)
    if has_solution:
        with _without_status_warning():
            model.solutions.load_from(results)
        fill_unreported_values(cleared)
        fractional = None if termination is TerminationCondition.optimal else first_fractional_integer(cleared)
        if fractional is not None:
            # CBC stopped by a limit before any integer solution reports its LP relaxation as "feasible"
            where = f"{fractional.name} = {fractional.value:g}"
            for var in cleared:
                var.set_value(None, skip_validation=True)
            has_solution = False
            why = (f"no integer solution: the values reported at the stop are fractional "
                   f"({where}), so none was loaded")
            message = f"{message}; {why}" if message else why
        else:
            objective = float(objective_component())
    problem = results.problem
    bound = finite_or_none(problem.lower_bound if objective_component.is_minimizing() else problem.upper_bound)
    if termination is TerminationCondition.optimal and bound is None:
        bound = objective
    return SolveResult(
        termination=termination, objective=objective, bound=bound, wall_time=time.perf_counter() - start,
        solver_name=name, solver_version=version or "", has_solution=has_solution, message=message,
    )


def first_fractional_integer(variables: list[Any], tolerance: float = 1e-6) -> Any:
    """The first integer or binary variable whose value is further than ``tolerance`` from an integer, or None."""
    for var in variables:
        value = var.value
        if value is not None and var.is_integer() and abs(value - round(value)) > tolerance:
            return var
    return None
