"""Helpers shared by the adapters: status mapping and solution hygiene."""

from __future__ import annotations

import logging
from typing import Any

import pyomo.environ as pyo

from solvers.base import TerminationCondition

logger = logging.getLogger(__name__)

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
            value = 0.0
            if var.lb is not None:
                value = max(value, var.lb)
            if var.ub is not None:
                value = min(value, var.ub)
            var.set_value(value, skip_validation=True)
