"""HiGHS in process: each model compiled once to matrices, then driven through highspy.

The first ``solve`` of a model compiles it with Pyomo's public
``LinearStandardFormCompiler`` (``pyomo.repn.plugins.standard_form``), in
its mixed form (rows keep their ``<=``, ``>=`` or ``==``), and loads the
matrices into a ``highspy.Highs`` instance kept for that model. Compiling
evaluates every mutable Param, so a model solved again *without* declared
changes is compiled again: always correct, never stale.

A caller that knows what changed declares it (:class:`~solvers.base.ModelChanges`:
objective coefficients, variable bounds, constraint bounds as numpy
arrays, after writing the same values into the model's Params); the backend
then pushes them with highspy's ``changeColsCost``, ``changeColsBounds`` and
``changeRowsBounds`` and re-solves the instance it kept. That is the fast
path the clause engine uses for its thousands of re-solves. Variables added
to the model (column generation's new clauses, declared as
:class:`~solvers.base.NewColumns`) are appended with ``addCols``, and a
change of integrality (an LP's variables made binary for the final integer
program) is pushed with ``changeColsIntegrality``. A declared
change it cannot apply in place (a variable that had no coefficient when the
model was compiled, a bound a row does not have) makes it compile the model
again, with a :class:`~solvers.base.SolverFallbackWarning`.

Only public names of Pyomo and highspy are used.

Small LPs (no integer variable, at most ``SMALL_LP`` rows + columns), such as
the clause LPs, default to presolve off (``benchmarks/bench_resolve.py``:
a cold Pima clause LP takes about 5 ms instead of 17 ms) and are run
directly, so Ctrl-C waits for them (milliseconds). Larger LPs default to
interior point with crossover (``LARGE_LP_OPTIONS``), except "short" ones
(few rows, many columns), which keep HiGHS' defaults. Larger LPs and MIPs
run in highspy's solver thread so that Ctrl-C stops them: the solve is
cancelled and ``KeyboardInterrupt`` is raised to the caller.

HiGHS writes nothing to stdout: its log is off unless the ``output_flag``
option is set, and its banner, which highspy prints when an instance is
created, is sent to the null device.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
import math
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pyomo.common.dependencies import attempt_import

from solvers._common import zero_within_bounds
from solvers.base import (
    Availability,
    BackendBase,
    Capabilities,
    MipProgress,
    ModelChanges,
    NewColumns,
    NewRows,
    SolveConfig,
    SolveResult,
    SolverFallbackWarning,
    TerminationCondition,
)
from solvers.options import translate_options
from solvers.signals import deferred_signals

logger = logging.getLogger(__name__)


def _import_highspy() -> Any:
    """Import highspy with Ctrl-C and SIGTERM held until the import is done (it takes about 50 ms).

    An interrupt that lands inside the initialisation of highspy's compiled
    module cannot be undone: pybind11 reports it as an ImportError
    ("initialization failed"), so Pyomo's ``attempt_import`` would take
    highspy for missing for the rest of the process (and the interrupt would
    be lost in a "not installed" error), and importing it again fails
    ("type ... is already registered"). Held, the interrupt is raised as soon
    as the import is done.
    """
    with deferred_signals():
        return importlib.import_module("highspy")


highspy, highspy_available = attempt_import("highspy", importer=_import_highspy)

__all__ = ["HighsBackend", "SMALL_LP"]

SMALL_LP = 50_000
"""Rows + columns up to which an LP gets the small-LP defaults."""

SHORT_LP_ROWS = 2_000
"""Larger LPs with at most this many rows are "short" (the dual clause LP: 144
rows, 65,000 columns at 100,000 samples) and keep HiGHS' defaults: simplex
with presolve. On six such LPs from an AM fit, presolve cut the total from
100 s to 69 s; interior point took 15 s on one the simplex solved in 3 s."""

SMALL_LP_OPTIONS = {"presolve": "off"}

LARGE_LP_OPTIONS = {"solver": "ipm"}
"""Defaults for larger LPs: dual simplex stalled for minutes on TLP relaxations
(270,000 rows for Sonar at R=5) that interior point with crossover solves in seconds."""

_TERMINATION = {
    "kOptimal": TerminationCondition.optimal,
    "kModelEmpty": TerminationCondition.optimal,
    "kInfeasible": TerminationCondition.infeasible,
    "kUnbounded": TerminationCondition.unbounded,
    "kUnboundedOrInfeasible": TerminationCondition.infeasible_or_unbounded,
    "kTimeLimit": TerminationCondition.time_limit,
    "kIterationLimit": TerminationCondition.iteration_limit,
    "kSolutionLimit": TerminationCondition.feasible,
    "kObjectiveBound": TerminationCondition.feasible,
    "kObjectiveTarget": TerminationCondition.feasible,
    "kInterrupt": TerminationCondition.interrupted,
    "kHighsInterrupt": TerminationCondition.interrupted,
    "kMemoryLimit": TerminationCondition.error,
    "kLoadError": TerminationCondition.error,
    "kModelError": TerminationCondition.error,
    "kPresolveError": TerminationCondition.error,
    "kSolveError": TerminationCondition.error,
    "kPostsolveError": TerminationCondition.error,
    "kNotset": TerminationCondition.error,
    "kUnknown": TerminationCondition.unknown,
}


def _map_status(status: Any) -> TerminationCondition:
    name = getattr(status, "name", str(status))
    mapped = _TERMINATION.get(name)
    if mapped is None:
        logger.warning("highs returned model status %r; treating it as 'unknown'", name)
        return TerminationCondition.unknown
    return mapped


@contextlib.contextmanager
def _stdout_to_null() -> Iterator[None]:
    """Send file descriptor 1 to the null device for the block (highspy prints its banner there)."""
    try:
        sys.stdout.flush()
    except (AttributeError, ValueError):  # a closed or replaced sys.stdout
        pass
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def _new_highs() -> Any:
    """A silent ``highspy.Highs`` (no banner, no log)."""
    with _stdout_to_null():
        highs = highspy.Highs()
    _set_option(highs, "output_flag", False)
    return highs


def _set_option(highs: Any, name: str, value: Any) -> None:
    """Set one HiGHS option; an unknown name or a value of the wrong type is a ValueError naming it."""
    try:
        status = highs.setOptionValue(name, value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"HiGHS option {name!r} cannot be set to {value!r}: {exc}") from None
    if status == highspy.HighsStatus.kError:
        if not _option_exists(highs, name):
            raise ValueError(
                f"HiGHS has no option {name!r}: see https://ergo-code.github.io/HiGHS/dev/options/definitions/ "
                "for the option names (solver_options are passed to HiGHS as they are)"
            )
        raise ValueError(f"HiGHS option {name!r} does not accept the value {value!r} (type {type(value).__name__})")


def _option_exists(highs: Any, name: str) -> bool:
    """Whether HiGHS knows the option ``name`` (highspy returns (status, type) or raises, by version)."""
    try:
        answer = highs.getOptionType(name)
    except Exception:  # older highspy raises for an unknown name
        return False
    status = answer[0] if isinstance(answer, tuple) else highspy.HighsStatus.kOk
    return status != highspy.HighsStatus.kError


def _bounds(lower: Any, upper: Any) -> tuple[float, float]:
    return (-math.inf if lower is None else float(lower), math.inf if upper is None else float(upper))


@dataclass
class _Compiled:
    """One model compiled to standard form and loaded into its own ``highspy.Highs``.

    Attributes
    ----------
    highs : highspy.Highs
    columns : list of VarData
        The model variable of each HiGHS column (the compiler's ``columns``).
    column_of : dict
        ``id(var) -> column``.
    row_of : dict
        ``id(constraint) -> [(row, bound_type, offset)]``; ``bound_type`` is
        1 (``<=``), -1 (``>=``) or 0 (``==``); the row bound is the
        constraint bound minus ``offset`` (the constant of its body).
    row_constraints : list
        The constraint of each row.
    sense : float
        1 for a minimisation, -1 for a maximisation (HiGHS always minimises).
    unreported : list of VarData
        Unfixed model variables that are not columns (no coefficient
        anywhere): they get 0 clipped to their bounds, as for shell solvers.
    kind : {"small", "short", "large"} or None
        The size class of an LP (None for a MIP).
    integer_columns : set of int
        The integer columns (the instance is a MIP when there is any).
    options : dict
        Option values currently set on ``highs`` (set again only when they change).
    """

    highs: Any
    columns: list[Any]
    column_of: dict[int, int]
    row_of: dict[int, list[tuple[int, int, float]]]
    row_constraints: list[Any]
    sense: float
    unreported: list[Any]
    kind: str | None
    integer_columns: set[int] = field(default_factory=set)
    options: dict[str, Any] = field(default_factory=dict)
    index_cache: dict[int, tuple[Sequence[Any], np.ndarray]] = field(default_factory=dict)

    def columns_of(self, variables: Sequence[Any]) -> np.ndarray:
        """Column of each variable (-1 when it is not a column), cached per list object."""
        cached = self.index_cache.get(id(variables))
        if cached is not None and cached[0] is variables:
            return cached[1]
        column_of = self.column_of
        indices = np.fromiter((column_of.get(id(v), -1) for v in variables), dtype=np.int64, count=len(variables))
        self.index_cache[id(variables)] = (variables, indices)
        return indices


class _CannotApply(Exception):
    """A declared change does not fit the compiled instance (the model must be compiled again)."""


def _column_order(model: Any, objective: Any) -> list[Any]:
    """Variables in order of first appearance: constraint bodies in model order, then the objective.

    The compiler would order columns by their appearance in the objective
    first. Degenerate LPs (the clause LPs are) have many optimal vertices and
    the one HiGHS returns depends on the column order, so this fixes one
    order that follows the constraints, as Pyomo's persistent interfaces do.
    """
    import pyomo.environ as pyo
    from pyomo.core.expr.visitor import identify_variables

    ordered: dict[int, Any] = {}
    for constraint in model.component_data_objects(pyo.Constraint, active=True, descend_into=True):
        for var in identify_variables(constraint.body, include_fixed=False):
            ordered.setdefault(id(var), var)
    for var in identify_variables(objective.expr, include_fixed=False):
        ordered.setdefault(id(var), var)
    return list(ordered.values())


def _compile(model: Any) -> _Compiled:
    """Compile ``model`` and load it into a new silent ``highspy.Highs``."""
    import pyomo.environ as pyo
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    objectives = list(model.component_data_objects(pyo.Objective, active=True, descend_into=True))
    if len(objectives) != 1:
        raise ValueError(f"the model must have exactly one active objective, found {len(objectives)}")
    info = LinearStandardFormCompiler().write(model, mixed_form=True, column_order=_column_order(model, objectives[0]))
    sense = -1.0 if objectives[0].is_minimizing() is False else 1.0
    n_cols = len(info.columns)
    cost = np.asarray(info.c.toarray()).ravel() if info.c.shape[0] else np.zeros(n_cols)
    if cost.shape[0] != n_cols:
        cost = np.zeros(n_cols)
    A = info.A.tocsc()
    lower = np.empty(n_cols)
    upper = np.empty(n_cols)
    integer = np.zeros(n_cols, dtype=bool)
    for k, var in enumerate(info.columns):
        lower[k], upper[k] = _bounds(*var.bounds)
        integer[k] = var.is_integer()
    rhs = np.asarray(info.rhs, dtype=float).reshape(-1)
    n_rows = rhs.shape[0]
    row_lower = np.full(n_rows, -math.inf)
    row_upper = np.full(n_rows, math.inf)
    row_of: dict[int, list[tuple[int, int, float]]] = {}
    row_constraints = []
    for i, (constraint, bound_type) in enumerate(info.rows):
        if bound_type >= 0:
            row_upper[i] = rhs[i]
        if bound_type <= 0:
            row_lower[i] = rhs[i]
        bound = constraint.upper if bound_type >= 0 else constraint.lower
        offset = float(pyo.value(bound)) - rhs[i]
        row_of.setdefault(id(constraint), []).append((i, int(bound_type), offset))
        row_constraints.append(constraint)

    highs = _new_highs()
    inf = highspy.kHighsInf
    if n_rows:
        empty = np.zeros(0, dtype=np.int32)
        highs.addRows(n_rows, np.clip(row_lower, -inf, inf), np.clip(row_upper, -inf, inf), 0, empty, empty, np.zeros(0))
    if n_cols:
        highs.addCols(
            n_cols, cost, np.clip(lower, -inf, inf), np.clip(upper, -inf, inf), A.nnz,
            A.indptr[:-1].astype(np.int32), A.indices.astype(np.int32), A.data.astype(float),
        )
        if integer.any():
            columns = np.flatnonzero(integer).astype(np.int32)
            kinds = np.array([highspy.HighsVarType.kInteger] * columns.shape[0])
            highs.changeColsIntegrality(columns.shape[0], columns, kinds)
    offset = float(np.asarray(info.c_offset).ravel()[0]) if np.asarray(info.c_offset).size else 0.0
    if offset:
        highs.changeObjectiveOffset(offset)

    column_of = {id(var): k for k, var in enumerate(info.columns)}
    unreported = [
        var for var in model.component_data_objects(pyo.Var, descend_into=True)
        if not var.fixed and id(var) not in column_of
    ]
    integer_columns = set(np.flatnonzero(integer).tolist())
    kind = _size_class(n_rows, n_cols, bool(integer_columns))
    return _Compiled(highs, list(info.columns), column_of, row_of, row_constraints, sense, unreported, kind, integer_columns)


def _size_class(n_rows: int, n_cols: int, has_integer: bool) -> str | None:
    """The LP size class that chooses the default options (None for a MIP)."""
    if has_integer:
        return None
    if n_cols + n_rows <= SMALL_LP:
        return "small"
    return "short" if n_rows <= SHORT_LP_ROWS else "large"


def _add_columns(compiled: _Compiled, new: NewColumns) -> None:
    """Append declared new variables as columns of the instance (with their coefficients in the rows they name).

    A variable that already is a column, or a constraint without a row,
    does not fit: _CannotApply (the caller compiles the model again).
    """
    k = len(new.variables)
    if k == 0:
        return
    if any(id(var) in compiled.column_of for var in new.variables):
        raise _CannotApply("a variable declared new is already a column")
    starts = np.zeros(k, dtype=np.int32)
    indices: list[int] = []
    values: list[float] = []
    for position, (constraints, coefficients) in enumerate(new.entries):
        starts[position] = len(indices)
        for constraint, coefficient in zip(constraints, np.asarray(coefficients, dtype=float).tolist()):
            entries = compiled.row_of.get(id(constraint))
            if entries is None:
                raise _CannotApply(f"constraint {constraint.name} has no row")
            for row, _, _ in entries:
                indices.append(row)
                values.append(coefficient)
    inf = highspy.kHighsInf
    first = len(compiled.columns)
    compiled.highs.addCols(
        k, compiled.sense * np.asarray(new.objective, dtype=float),
        np.clip(np.asarray(new.lower, dtype=float), -inf, inf), np.clip(np.asarray(new.upper, dtype=float), -inf, inf),
        len(indices), starts, np.array(indices, dtype=np.int32), np.array(values, dtype=float),
    )
    for offset, var in enumerate(new.variables):
        compiled.column_of[id(var)] = first + offset
        compiled.columns.append(var)
    unreported = {id(var) for var in new.variables}
    compiled.unreported = [var for var in compiled.unreported if id(var) not in unreported]
    compiled.index_cache.clear()  # a cached list may name the new variables
    if new.integer is not None and np.any(new.integer):
        integer_vars = [var for var, flag in zip(new.variables, new.integer) if flag]
        _set_integrality(compiled, integer_vars, np.ones(len(integer_vars), dtype=bool))
    else:
        _refresh_kind(compiled)


def _add_rows(compiled: _Compiled, new: NewRows) -> None:
    """Append declared new linear constraints as rows of the instance (a range becomes two rows, as compiled).

    A constraint that already has a row, or a variable that is not a
    column, does not fit: _CannotApply (the caller compiles the model again).
    """
    if not new.constraints:
        return
    lowers: list[float] = []
    uppers: list[float] = []
    starts: list[int] = []
    indices: list[int] = []
    values: list[float] = []
    added: list[tuple[Any, int]] = []
    for constraint, lo, up, (variables, coefficients) in zip(
        new.constraints, np.asarray(new.lower, dtype=float).tolist(), np.asarray(new.upper, dtype=float).tolist(), new.entries,
    ):
        if id(constraint) in compiled.row_of:
            raise _CannotApply(f"constraint {constraint.name} declared new already has a row")
        columns = compiled.columns_of(variables)
        if np.any(columns < 0):
            raise _CannotApply(f"constraint {constraint.name} names a variable that is not a column")
        coefficients = np.asarray(coefficients, dtype=float)
        kinds = [0] if lo == up else [t for t, bound in ((1, up), (-1, lo)) if math.isfinite(bound)]
        for bound_type in kinds:
            starts.append(len(indices))
            indices.extend(columns.tolist())
            values.extend(coefficients.tolist())
            lowers.append(lo if bound_type <= 0 else -math.inf)
            uppers.append(up if bound_type >= 0 else math.inf)
            added.append((constraint, bound_type))
    inf = highspy.kHighsInf
    first = len(compiled.row_constraints)
    compiled.highs.addRows(
        len(added), np.clip(np.array(lowers), -inf, inf), np.clip(np.array(uppers), -inf, inf), len(indices),
        np.array(starts, dtype=np.int32), np.array(indices, dtype=np.int32), np.array(values, dtype=float),
    )
    for offset, (constraint, bound_type) in enumerate(added):
        compiled.row_of.setdefault(id(constraint), []).append((first + offset, bound_type, 0.0))
        compiled.row_constraints.append(constraint)
    _refresh_kind(compiled)


def _set_integrality(compiled: _Compiled, variables: Sequence[Any], integer: np.ndarray) -> None:
    """Make columns integer or continuous (the instance becomes a MIP, or an LP again)."""
    columns = compiled.columns_of(variables)
    if np.any(columns < 0):
        raise _CannotApply("a variable whose integrality changes is not a column")
    flags = np.asarray(integer, dtype=bool)
    if columns.shape[0]:
        kinds = np.array([highspy.HighsVarType.kInteger if flag else highspy.HighsVarType.kContinuous for flag in flags.tolist()])
        compiled.highs.changeColsIntegrality(columns.shape[0], columns.astype(np.int32), kinds)
    for column, flag in zip(columns.tolist(), flags.tolist()):
        if flag:
            compiled.integer_columns.add(column)
        else:
            compiled.integer_columns.discard(column)
    _refresh_kind(compiled)


def _refresh_kind(compiled: _Compiled) -> None:
    compiled.kind = _size_class(len(compiled.row_constraints), len(compiled.columns), bool(compiled.integer_columns))


def _apply(compiled: _Compiled, changes: ModelChanges) -> None:
    """Push declared changes to the compiled instance; raise _CannotApply when they do not fit it."""
    highs = compiled.highs
    inf = highspy.kHighsInf
    if changes.new_columns is not None:
        _add_columns(compiled, changes.new_columns)
    if changes.new_rows is not None:
        _add_rows(compiled, changes.new_rows)
    if changes.integrality is not None:
        _set_integrality(compiled, *changes.integrality)
    if changes.objective is not None:
        variables, values = changes.objective
        columns = compiled.columns_of(variables)
        values = np.asarray(values, dtype=float)
        present = columns >= 0
        if not present.all():
            if np.any(values[~present] != 0.0):
                raise _CannotApply("an objective coefficient of a variable that had none when the model was compiled")
            columns, values = columns[present], values[present]
        if columns.shape[0]:
            highs.changeColsCost(columns.shape[0], columns.astype(np.int32), compiled.sense * values)
    if changes.variable_bounds is not None:
        variables, lower, upper = changes.variable_bounds
        columns = compiled.columns_of(variables)
        present = columns >= 0
        lower = np.asarray(lower, dtype=float)[present]
        upper = np.asarray(upper, dtype=float)[present]
        columns = columns[present]
        if columns.shape[0]:
            highs.changeColsBounds(
                columns.shape[0], columns.astype(np.int32), np.clip(lower, -inf, inf), np.clip(upper, -inf, inf)
            )
    if changes.constraint_bounds is not None:
        constraints, lower, upper = changes.constraint_bounds
        rows, row_lower, row_upper = _row_bounds(compiled, constraints, np.asarray(lower, dtype=float), np.asarray(upper, dtype=float))
        if rows.shape[0]:
            highs.changeRowsBounds(rows.shape[0], rows, np.clip(row_lower, -inf, inf), np.clip(row_upper, -inf, inf))


def _row_bounds(
    compiled: _Compiled, constraints: Sequence[Any], lower: np.ndarray, upper: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows, row_lower, row_upper = [], [], []
    for constraint, lo, up in zip(constraints, lower.tolist(), upper.tolist()):
        entries = compiled.row_of.get(id(constraint))
        if entries is None:
            raise _CannotApply(f"constraint {constraint.name} has no row")
        types = {bound_type for _, bound_type, _ in entries}
        wanted = {0} if lo == up else {t for t, bound in ((1, up), (-1, lo)) if math.isfinite(bound)}
        if types != wanted:
            raise _CannotApply(f"constraint {constraint.name} changes which bounds it has")
        for row, bound_type, offset in entries:
            rows.append(row)
            row_lower.append(lo - offset if bound_type <= 0 else -math.inf)
            row_upper.append(up - offset if bound_type >= 0 else math.inf)
    return np.array(rows, dtype=np.int32), np.array(row_lower), np.array(row_upper)


def _load_solution(model: Any, compiled: _Compiled, solution: Any, load_duals: bool, load: Sequence[Any] | None) -> None:
    """Primal values into the model's variables (only ``load`` when given); row duals into its ``dual`` import Suffix."""
    from pyomo.core.staleflag import StaleFlagManager

    StaleFlagManager.mark_all_as_stale(delayed=True)
    values = np.asarray(solution.col_value, dtype=float)
    if load is not None:
        columns = compiled.columns_of(load)
        present = columns >= 0
        for var, value in zip((v for v, keep in zip(load, present.tolist()) if keep), values[columns[present]].tolist()):
            var.set_value(value, skip_validation=True)
        unreported = [var for var, keep in zip(load, present.tolist()) if not keep and not var.fixed]
    else:
        for var, value in zip(compiled.columns, values.tolist()):
            var.set_value(value, skip_validation=True)
        unreported = compiled.unreported
    for var in unreported:
        var.set_value(zero_within_bounds(var), skip_validation=True)
    if load_duals:
        suffix = _dual_suffix(model)
        if suffix is not None:
            suffix.clear()
            duals = np.asarray(solution.row_dual, dtype=float) * compiled.sense
            for constraint, value in zip(compiled.row_constraints, duals.tolist()):
                suffix[constraint] = suffix.get(constraint, 0.0) + value


def _set_start(compiled: _Compiled) -> None:
    """Offer the columns' current values (those that have one) to HiGHS as a MIP start, through ``setSolution``.

    HiGHS checks the start at the beginning of the MIP solve and keeps it as
    its incumbent when it is feasible; a partial start (variables without a
    value) is completed by HiGHS. A start HiGHS refuses is logged, and the
    solve goes on from nothing.
    """
    indices = [k for k, var in enumerate(compiled.columns) if var.value is not None]
    if not indices:
        return
    values = np.array([float(compiled.columns[k].value) for k in indices])
    status = compiled.highs.setSolution(len(indices), np.array(indices, dtype=np.int32), values)
    if status == highspy.HighsStatus.kError:
        logger.warning("highs refused the MIP start (%d values); solving without it", len(indices))


#: The least seconds the solve again (presolve off) gets when a corrupted warm-started solve used up the time limit.
RETRY_MIN_SECONDS = 0.05

#: Relative tolerance between the objective HiGHS reports and the objective of the values it returns.
INCUMBENT_TOLERANCE = 1e-6


def _incumbent_disagrees(highs: Any) -> bool:
    """Whether HiGHS reports another objective than the one of the solution it returns (c·x + offset, its own sense)."""
    info = highs.getInfo()
    if info.primal_solution_status != 2:  # no feasible solution to compare
        return False
    values = np.asarray(highs.getSolution().col_value, dtype=float)
    lp = highs.getLp()
    computed = float(np.dot(np.asarray(lp.col_cost_, dtype=float), values)) + float(lp.offset_)
    reported = float(info.objective_function_value)
    return abs(computed - reported) > INCUMBENT_TOLERANCE * max(1.0, abs(computed), abs(reported))


class _StartGuard:
    """Watches the improving solutions of a warm-started HiGHS MIP and stops the solve at the first inconsistent one.

    An improving solution whose reported objective is not the objective of
    its own values (``c·x + offset``) means HiGHS took a corrupted image of
    the start for its incumbent (see ``HighsBackend._solve_again_without_presolve``);
    ``corrupted`` is set and the solve is cancelled (highspy's ``cancelSolve``,
    honoured at its next interrupt callback). The callback runs in the solver
    thread; it only compares and sets flags.
    """

    def __init__(self, highs: Any):
        self.highs = highs
        self.corrupted = False
        lp = highs.getLp()
        self.cost, self.offset = np.asarray(lp.col_cost_, dtype=float), float(lp.offset_)

    def _check(self, event: Any) -> None:
        out = event.data_out
        values = np.asarray(out.mip_solution, dtype=float)
        if values.shape != self.cost.shape:
            return
        computed, reported = float(self.cost @ values) + self.offset, float(out.objective_function_value)
        if abs(computed - reported) > INCUMBENT_TOLERANCE * max(1.0, abs(computed), abs(reported)):
            self.corrupted = True
            self.highs.cancelSolve()  # highspy's stop request, cleared by its next startSolve

    def __enter__(self) -> _StartGuard:
        self.highs.cbMipImprovingSolution += self._check
        return self

    def __exit__(self, *exc: object) -> None:
        self.highs.cbMipImprovingSolution -= self._check


def _value_reader(compiled: _Compiled, col_value: np.ndarray) -> Any:
    """Values of given variables from this solve's column values (a variable that is not a column: 0 within its bounds)."""

    def read(variables: Sequence[Any]) -> np.ndarray:
        columns = compiled.columns_of(variables)
        values = col_value[np.maximum(columns, 0)] if col_value.shape[0] else np.zeros(len(variables))
        for k in np.flatnonzero(columns < 0).tolist():
            var = variables[k]
            values[k] = var.value if var.fixed else zero_within_bounds(var)
        return values

    return read


def _dual_suffix(model: Any) -> Any:
    """The model's active import Suffix called ``dual``, or None."""
    import pyomo.environ as pyo

    suffix = model.component("dual")
    if isinstance(suffix, pyo.Suffix) and suffix.active and suffix.import_enabled():
        return suffix
    return None


def _run_interruptible(highs: Any, tick: Callable[[], None] | None = None) -> None:
    """Run HiGHS in highspy's solver thread; on Ctrl-C cancel the solve and raise KeyboardInterrupt.

    ``tick()`` is called in this thread about every 0.1 s while the solver
    runs; an exception it raises cancels the solve and is raised once the
    solver thread has stopped.
    """
    highs.HandleUserInterrupt = True
    thread = highs.startSolve()
    failure: BaseException | None = None
    while True:
        try:
            done, _ = highs.wait(0.1)
            if not done and tick is not None and failure is None:
                tick()
        except BaseException as exc:  # Ctrl-C, or the progress callback failed: stop the solver, then raise
            if failure is None:
                failure = exc
            highs.cancelSolve()
            continue
        if done:
            break
    thread.join()
    if failure is not None:
        raise failure


PROGRESS_INTERVAL = 1.0
"""Seconds between the ``"running"`` reports of a MIP solve's ``progress`` callback."""


class _MipWatch:
    """Follows a HiGHS MIP solve through its callbacks and reports it to ``progress`` from the calling thread.

    highspy's MIP callbacks run in the solver thread: they only store the
    latest incumbent, bound and node count (in the model's sense). :meth:`tick`,
    called by the waiting thread, reports a new incumbent at once and the
    state every :data:`PROGRESS_INTERVAL` seconds; so the callback (which may
    log or draw a bar) never runs in the solver's thread.
    """

    def __init__(self, highs: Any, sense: float, progress: Callable[[MipProgress], None]):
        self.highs, self.sense, self.progress = highs, sense, progress
        self.started = time.perf_counter()
        self.state: tuple[float | None, float | None, int | None] = (None, None, None)
        self.improved = self.reported_improvement = 0
        self.last_report = self.started

    def _in_model_sense(self, raw: float) -> float | None:
        return self.sense * float(raw) if math.isfinite(raw) else None

    def _store(self, event: Any) -> None:
        out = event.data_out
        self.state = (self._in_model_sense(out.mip_primal_bound), self._in_model_sense(out.mip_dual_bound), int(out.mip_node_count))

    def _store_improvement(self, event: Any) -> None:
        self._store(event)
        self.improved += 1

    def __enter__(self) -> _MipWatch:
        self.highs.cbMipInterrupt += self._store
        self.highs.cbMipImprovingSolution += self._store_improvement
        self.report("start")
        return self

    def __exit__(self, *exc: object) -> None:
        self.highs.cbMipInterrupt -= self._store
        self.highs.cbMipImprovingSolution -= self._store_improvement

    def report(self, event: str, incumbent: float | None = None, bound: float | None = None, nodes: int | None = None) -> None:
        now = time.perf_counter()
        self.last_report = now
        self.progress(MipProgress(event, now - self.started, incumbent, bound, nodes))

    def tick(self) -> None:
        incumbent, bound, nodes = self.state
        if self.improved != self.reported_improvement:
            self.reported_improvement = self.improved
            self.report("incumbent", incumbent, bound, nodes)
        elif time.perf_counter() - self.last_report >= PROGRESS_INTERVAL:
            self.report("running", incumbent, bound, nodes)


@functools.lru_cache(maxsize=1)
def _highs_version() -> str | None:
    if not highspy_available:
        return None
    highs = _new_highs()
    return f"{highs.versionMajor()}.{highs.versionMinor()}.{highs.versionPatch()}"


class HighsBackend(BackendBase):
    """HiGHS through highspy, one compiled instance per model.

    Parameters
    ----------
    options : mapping, optional
        HiGHS options applied to every solve (HiGHS' own names, for example
        ``{"solver": "ipm", "presolve": "off"}``); per-call ``options`` of
        :meth:`solve` override them. An unknown name or a value of the wrong
        type is a ``ValueError`` at the first solve.
    threads : int, optional
        Number of HiGHS threads.

    Notes
    -----
    The instance of a model is kept until :meth:`release` (or until the
    backend is dropped); pickling the backend (for parallel workers) drops
    its instances. :meth:`solve` re-uses it when ``changes`` says what changed
    since the last solve of the model (None compiles the model again; see the
    module docstring) and loads the variables of ``load`` (None: every one).

    ``config.options`` of :meth:`solve` are native HiGHS options, applied over
    the backend's own; ``warm_start=False`` clears the solver's previous
    solution and basis first; ``mip_start=True`` passes the variables' current
    values to highspy's ``setSolution`` (:func:`_set_start`). ``progress`` (a
    MIP only) follows the search through highspy's MIP callbacks
    (:class:`_MipWatch`): the start, each better solution, the state every
    :data:`PROGRESS_INTERVAL` seconds, and the end.
    """

    name = "highs"
    capabilities = Capabilities(
        persistent=True, warm_start=True, mip=True, time_limit=True, in_place_updates=True, duals=True, mip_start=True,
    )

    def __init__(self, options: Mapping[str, Any] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads
        self.n_builds = 0
        self.n_solves = 0
        self._instances: dict[int, tuple[Any, _Compiled]] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_instances"] = {}
        return state

    def __repr__(self) -> str:
        return f"HighsBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        """Whether HiGHS can be used, with the reason when it cannot.

        Returns
        -------
        Availability
            Available when the Python package ``highspy`` is installed; else the reason (how to install it).
        """
        if not highspy_available:
            return Availability(False, "the Python package 'highspy' is not installed (pip install highspy)")
        return Availability(True)

    def version(self) -> str | None:
        """The solver's version string, or None when unavailable.

        Returns
        -------
        str or None
            The version of ``highspy``'s HiGHS; None when it is not installed.
        """
        return _highs_version()

    def route(self) -> str:
        """How models reach the solver, in words.

        Returns
        -------
        str
            Compiled once with Pyomo's LinearStandardFormCompiler, re-solved in place with ``highspy``.
        """
        return "compiled once with Pyomo's LinearStandardFormCompiler, re-solved in place with highspy"

    def release(self, model: Any) -> None:
        """Drop the HiGHS instance kept for ``model``.

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model whose HiGHS instance to drop.
        """
        self._instances.pop(id(model), None)

    def release_all(self) -> None:
        """Drop every HiGHS instance this backend keeps."""
        self._instances.clear()

    def __len__(self) -> int:
        """Number of models with a kept instance."""
        return len(self._instances)

    def _instance(self, model: Any, changes: ModelChanges | None) -> _Compiled:
        kept = self._instances.get(id(model))
        compiled = kept[1] if kept is not None and kept[0] is model else None
        if compiled is not None and changes is not None:
            try:
                _apply(compiled, changes)
                return compiled
            except _CannotApply as reason:
                warnings.warn(
                    f"highs: a declared change cannot be applied to the compiled model ({reason}); "
                    "compiling the whole model again, which is slower",
                    SolverFallbackWarning, stacklevel=4,
                )
        compiled = _compile(model)
        self._instances[id(model)] = (model, compiled)
        self.n_builds += 1
        return compiled

    def _native_options(self, compiled: _Compiled, config: SolveConfig) -> dict[str, Any]:
        native: dict[str, Any] = {"time_limit": math.inf if config.time_limit is None else float(config.time_limit)}
        native["mip_rel_gap"] = 1e-4 if config.mip_gap is None else float(config.mip_gap)
        size_defaults = SMALL_LP_OPTIONS if compiled.kind == "small" else LARGE_LP_OPTIONS if compiled.kind == "large" else {}
        for name in (*SMALL_LP_OPTIONS, *LARGE_LP_OPTIONS):
            if name in compiled.options and name not in size_defaults:
                native[name] = "choose"  # the instance changed size class (new columns, integrality): HiGHS' default again
        native.update(size_defaults)
        native.update(translate_options("highs", threads=self.threads))
        native.update(self.options)
        native.update(config.options)
        return native

    def _set_options(self, compiled: _Compiled, native: Mapping[str, Any]) -> None:
        current = compiled.options
        for name, value in native.items():
            if current.get(name, _UNSET) != value:
                _set_option(compiled.highs, name, value)
                current[name] = value

    @staticmethod
    def _run(compiled: _Compiled, watch: _MipWatch | None) -> None:
        """Run HiGHS once on ``compiled`` (interruptibly, with the progress watch, unless it is a small LP)."""
        if compiled.kind == "small" or not hasattr(compiled.highs, "startSolve"):
            compiled.highs.run()
        else:
            _run_interruptible(compiled.highs, None if watch is None else watch.tick)

    def _solve_again_without_presolve(self, compiled: _Compiled, config: SolveConfig, started: float, watch: _MipWatch | None) -> None:
        """Solve the MIP again from its start with presolve off, in the time left: the start corrupted the first solve.

        HiGHS maps a MIP start through its presolve. On the two-level rule
        MIPs the start's image in the reduced space can have another (lower)
        objective than the start itself (HiGHS logs "MIP start solution is
        feasible in the reduced space: objective value is ..." with another
        value than the start's). HiGHS then prunes with that objective as its
        incumbent's, reports it, and returns the start's values: an objective
        no returned solution has, and an "optimal" that can be false. The
        first improving solution shows it (:class:`_StartGuard`), so the
        solve is stopped there and run again, with the start as it is: with
        presolve off, HiGHS takes it unmapped.
        """
        highs = compiled.highs
        logger.warning(
            "highs: the MIP start's image after presolve has another objective than the start (HiGHS reported "
            "an incumbent objective no returned solution has); solving again from the start with presolve off",
        )
        highs.clearSolver()
        _set_option(highs, "presolve", "off")
        compiled.options["presolve"] = "off"
        if config.time_limit is not None:
            left = max(float(config.time_limit) - (time.perf_counter() - started), RETRY_MIN_SECONDS)
            _set_option(highs, "time_limit", left)
            compiled.options["time_limit"] = left
        _set_start(compiled)
        cleared = [False]

        def clear_stale_interrupt(event: Any) -> None:  # HiGHS keeps the first solve's stop request in its callback input
            if not cleared[0]:
                cleared[0] = True
                event.data_in.user_interrupt = False

        highs.cbMipInterrupt += clear_stale_interrupt
        try:
            self._run(compiled, watch)
        finally:
            highs.cbMipInterrupt -= clear_stale_interrupt
            _set_option(highs, "presolve", "choose")  # a later solve of this instance presolves again
            compiled.options["presolve"] = "choose"

    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """Solve ``model``, re-using its instance when ``changes`` says what changed (see the Notes)."""
        start = time.perf_counter()
        compiled = self._instance(model, changes)
        highs = compiled.highs
        self._set_options(compiled, self._native_options(compiled, config))
        if not config.warm_start:
            highs.clearSolver()
        self.n_solves += 1
        watch = _MipWatch(highs, compiled.sense, progress) if progress is not None and compiled.kind is None else None
        try:
            with watch if watch is not None else contextlib.nullcontext():
                guard = _StartGuard(highs) if config.mip_start and compiled.kind is None else None
                with guard if guard is not None else contextlib.nullcontext():
                    if config.mip_start:
                        _set_start(compiled)
                    self._run(compiled, watch)
                if guard is not None and (guard.corrupted or _incumbent_disagrees(highs)):
                    self._solve_again_without_presolve(compiled, config, start, watch)
        except BaseException:
            self.release(model)  # its state after a cancelled solve is not worth keeping
            raise
        status = highs.getModelStatus()
        termination = _map_status(status)
        info = highs.getInfo()
        has_solution = info.primal_solution_status == 2  # kSolutionStatusFeasible
        objective = None
        reader = None
        if has_solution:
            solution = highs.getSolution()
            _load_solution(model, compiled, solution, load_duals=compiled.kind is not None, load=load)
            objective = compiled.sense * float(info.objective_function_value)
            reader = _value_reader(compiled, np.array(solution.col_value, dtype=float))
        bound = None
        if compiled.kind is None:  # a MIP
            dual_bound = float(info.mip_dual_bound)
            if math.isfinite(dual_bound):
                bound = compiled.sense * dual_bound
        elif termination is TerminationCondition.optimal:
            bound = objective
        if termination is TerminationCondition.optimal and bound is None:
            bound = objective
        if watch is not None:
            nodes = getattr(info, "mip_node_count", None)
            watch.report("end", objective, bound, None if nodes is None else int(nodes))
        return SolveResult(
            termination=termination,
            objective=objective,
            bound=bound,
            wall_time=time.perf_counter() - start,
            solver_name=self.name,
            solver_version=self.version() or "",
            has_solution=has_solution,
            message=highs.modelStatusToString(status),
            value_reader=reader,
        )


_UNSET = object()
