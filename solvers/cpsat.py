"""OR-Tools CP-SAT for linear models whose variables are all integer, compiled by Pyomo's standard-form compiler.

Each ``solve`` compiles the model with Pyomo's public
``LinearStandardFormCompiler`` (``pyomo.repn.plugins.standard_form``, mixed
form: rows keep their ``<=``, ``>=`` or ``==``), the route of
:mod:`solvers.highs`, and hands the matrices to a new
``ortools.sat.python.cp_model.CpModel``: one integer variable per column, one
linear constraint per row. It is the same model the other backends solve, not a
second encoding.

CP-SAT solves integer programs only. A model with a continuous variable is
refused before anything is solved (a ``ValueError`` naming the variables):
declare them integer where integer values are optimal, or solve the model
with HiGHS, CBC or GLPK.

**Integer coefficients.** CP-SAT needs integer coefficients; the compiled
model has floats (θ, sample weights). Each float is read as the fraction with
the smallest denominator (at most :data:`MAX_DENOMINATOR`) that rounds to the
same float (``0.1`` is ``1/10``, ``0.05 * 3`` is ``3/20``), and:

* a constraint row is multiplied by the least common denominator of its
  coefficients and right-hand side: an exact, equivalent row (a right-hand
  side of a ``<=`` row is then rounded down, of a ``>=`` row up, which is
  exact for integer variables); a row with a coefficient that is no such
  fraction is refused (``ValueError``);
* the objective is multiplied by the least common denominator ``L`` of its
  coefficients: CP-SAT minimises ``L × objective`` exactly, and the objective
  and the bound are mapped back by dividing by ``L`` (the bound is rounded up
  to an integer first: the scaled objective is an integer). When ``L`` would
  be too large (the scaled objective could reach 2**53, past exact floats),
  the objective is instead multiplied by a power of two ``S`` and rounded;
  the error this makes on any solution is at most
  ``E = Σ_k |c_k − round(c_k S) / S| × max(|l_k|, |u_k|)``, computed from the
  model, and the bound reported is lowered by ``E``, so it stays a bound;
  a solve CP-SAT proves optimal is reported ``optimal`` only when the objective
  is within 1e-9 (relative) of that bound, else ``feasible``.

The objective reported is the model's own (the float coefficients times the
solution, plus the constant), which equals the Pyomo objective of the
solution loaded.

**Reproducible.** A solve uses :data:`DEFAULT_WORKERS` workers with
``interleave_search`` (CP-SAT then runs its search strategies in batches and
synchronises them deterministically, whatever the number of threads) and
``random_seed`` :data:`DEFAULT_SEED`: the same model gives the same solution
every time, when the solve ends by itself (optimal, infeasible). A
wall-clock time limit stops the search where the machine got to; for a
reproducible stop, pass CP-SAT's deterministic limit (``options=
{"max_deterministic_time": 10}``). ``options`` are CP-SAT's own parameters
(``SatParameters``), set over these defaults (``{"interleave_search":
False}`` gives CP-SAT's free-running parallel portfolio, faster on many
models but not reproducible).

**Starts.** With ``mip_start=True`` the values the variables hold are added
as CP-SAT solution hints (``AddHint``), values outside a variable's bounds or
not integer skipped. A hint is only a hint: CP-SAT tries it first, repairs
it or drops it, and an infeasible one changes no result.

**Progress.** The search runs in a thread; a solution callback and CP-SAT's
bound callback store the incumbent and the bound, and the calling thread
reports them to ``progress`` (:class:`~solvers.base.MipProgress`) on each new
solution and every :data:`PROGRESS_INTERVAL` seconds; Ctrl-C stops the search
(``stop_search``) and raises ``KeyboardInterrupt``.

**Variables without bounds** get ±:data:`INFINITE_BOUND` (CP-SAT needs finite
domains); a value returned on that bound is logged as a warning.
"""

from __future__ import annotations

import functools
import importlib
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from pyomo.common.dependencies import attempt_import

from solvers._common import active_objective, zero_within_bounds
from solvers.base import (
    Availability,
    BackendBase,
    Capabilities,
    MipProgress,
    ModelChanges,
    SolveConfig,
    SolveResult,
    TerminationCondition,
)
from solvers.signals import deferred_signals

logger = logging.getLogger(__name__)

__all__ = ["CpSatBackend"]


def _import_ortools() -> Any:
    """Import ``ortools.sat.python.cp_model`` with Ctrl-C held until it is done (a half-initialised module cannot be retried)."""
    with deferred_signals():
        return importlib.import_module("ortools.sat.python.cp_model")


cp_model, cp_model_available = attempt_import("ortools.sat.python.cp_model", importer=_import_ortools)

DEFAULT_WORKERS = 2
"""CP-SAT workers of a solve (its ``num_workers``): two, the cores of a small machine."""

DEFAULT_SEED = 0
"""CP-SAT's ``random_seed`` of every solve."""

MAX_DENOMINATOR = 10**6
"""The largest denominator a coefficient is read with (``0.1`` is ``1/10``); see the module docstring."""

INFINITE_BOUND = 2**31
"""The bound given to a variable without one (CP-SAT needs finite domains)."""

EXACT_LIMIT = 2**53
"""The scaled objective must stay below this in absolute value (floats are exact integers up to it)."""

PROGRESS_INTERVAL = 1.0
"""Seconds between the ``"running"`` reports of a solve's ``progress`` callback."""

_INTEGRAL_TOLERANCE = 1e-9
"""A right-hand side or bound within this of an integer is that integer (the compiler's float arithmetic)."""


def _fraction(value: float) -> Fraction | None:
    """The fraction of smallest denominator (at most MAX_DENOMINATOR) that is ``value`` to float precision, or None."""
    exact = Fraction(value)
    if exact.denominator == 1:
        return exact
    near = exact.limit_denominator(MAX_DENOMINATOR)
    if abs(near - exact) <= abs(exact) * Fraction(1, 2**50):
        return near
    return None


def _lcm(denominators: Any) -> int:
    result = 1
    for denominator in denominators:
        result = result * denominator // math.gcd(result, denominator)
    return result


@dataclass(frozen=True)
class _Scaling:
    """The integer objective ``Σ_k coefficients[k] x_k`` CP-SAT minimises, ``≈ scale × (c·x)`` (``c`` minimised).

    ``error`` bounds ``|c·x − integer objective / scale|`` over the variables' domains (0 when exact).
    """

    coefficients: list[int]
    scale: int
    error: float

    @property
    def exact(self) -> bool:
        return self.error == 0.0


def _scale_objective(cost: np.ndarray, magnitude: np.ndarray) -> _Scaling:
    """Integer objective coefficients for ``cost`` (see the module docstring); ``magnitude[k] = max(|l_k|, |u_k|)``."""
    nonzero = np.flatnonzero(cost)
    fractions = [_fraction(float(cost[k])) for k in nonzero.tolist()]
    reach = float(np.abs(cost) @ magnitude) if cost.size else 0.0
    if all(f is not None for f in fractions):
        scale = _lcm(f.denominator for f in fractions if f is not None)
        if reach * scale < EXACT_LIMIT:
            coefficients = [0] * cost.shape[0]
            for k, f in zip(nonzero.tolist(), fractions):
                assert f is not None
                coefficients[k] = int(f * scale)
            return _Scaling(coefficients, scale, 0.0)
    # no exact scale within the float range: a power of two, rounded, with its error bound
    scale = 2 ** max(0, min(60, math.floor(math.log2(EXACT_LIMIT / 4 / max(reach, 1e-300)))))
    coefficients = [int(round(float(c) * scale)) for c in cost.tolist()]
    error = float(sum(abs(Fraction(float(c)) - Fraction(q, scale)) * Fraction(float(m))
                      for c, q, m in zip(cost.tolist(), coefficients, magnitude.tolist())))
    return _Scaling(coefficients, scale, error)


def _integer_row(coefficients: np.ndarray, lower: float, upper: float) -> tuple[list[int], int | None, int | None] | None:
    """The row ``lower <= coefficients·x <= upper`` with integer coefficients, multiplied by its common denominator.

    Returns None when a coefficient is no fraction of denominator at most :data:`MAX_DENOMINATOR`. Bounds: the
    scaled lower rounded up, the upper rounded down (exact for integer variables); None for an infinite one.
    """
    if np.all(coefficients == np.round(coefficients)):
        scale = 1
        integers = [int(c) for c in coefficients.tolist()]
    else:
        fractions = [_fraction(float(c)) for c in coefficients.tolist()]
        if any(f is None for f in fractions):
            return None
        scale = _lcm(f.denominator for f in fractions if f is not None)
        integers = [int(f * scale) for f in fractions if f is not None]

    def bound(value: float, up: bool) -> int | None:
        if not math.isfinite(value):
            return None
        scaled = value * scale
        nearest = round(scaled)
        if abs(scaled - nearest) <= _INTEGRAL_TOLERANCE * max(1.0, abs(scaled)):
            return int(nearest)
        return int(math.ceil(scaled) if up else math.floor(scaled))

    return integers, bound(lower, True), bound(upper, False)


def _domain(var: Any) -> tuple[int, int]:
    lower, upper = var.bounds
    lo = -INFINITE_BOUND if lower is None else max(-INFINITE_BOUND, math.ceil(float(lower) - _INTEGRAL_TOLERANCE))
    up = INFINITE_BOUND if upper is None else min(INFINITE_BOUND, math.floor(float(upper) + _INTEGRAL_TOLERANCE))
    return int(lo), int(up)


def _describe(variables: Sequence[Any], limit: int = 5) -> str:
    names = ", ".join(var.name for var in variables[:limit])
    more = f" and {len(variables) - limit} more" if len(variables) > limit else ""
    return f"{names}{more}"


@dataclass
class _Compiled:
    """A model compiled to a CP-SAT model: its variables, the objective's scaling and the float objective.

    ``cost`` and ``offset`` are the compiler's objective, minimised (negated for a maximisation, ``sense`` -1):
    the model's objective is ``sense × (cost · x + offset)``.
    """

    model: Any
    variables: list[Any]
    columns: list[Any]
    column_of: dict[int, int]
    cost: np.ndarray
    offset: float
    sense: float
    scaling: _Scaling
    infeasible: str = ""


def _compile(model: Any) -> _Compiled:
    """Compile ``model`` (standard form) into a new ``CpModel``; ValueError for what CP-SAT cannot take."""
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    objective = active_objective(model)
    info = LinearStandardFormCompiler().write(model, mixed_form=True)
    columns = list(info.columns)
    continuous = [var for var in columns if not var.is_integer()]
    if continuous:
        raise ValueError(
            f"cpsat solves models whose variables are all integer, but {len(continuous)} variable(s) of "
            f"{model.name!r} are continuous: {_describe(continuous)}. Declare them integer (pyo.Binary, "
            "pyo.Integers, pyo.NonNegativeIntegers) where integer values are optimal, or solve this model with "
            "highs, cbc or glpk, which take continuous variables"
        )
    sense = -1.0 if objective.is_minimizing() is False else 1.0
    n_cols = len(columns)
    cost = np.asarray(info.c.toarray()).ravel() if info.c.shape[0] else np.zeros(n_cols)
    if cost.shape[0] != n_cols:
        cost = np.zeros(n_cols)
    offset = float(np.asarray(info.c_offset).ravel()[0]) if np.asarray(info.c_offset).size else 0.0
    domains = [_domain(var) for var in columns]
    magnitude = np.array([max(abs(lo), abs(up)) for lo, up in domains], dtype=float)
    scaling = _scale_objective(cost, magnitude)  # the compiler's c is minimised (negated for a maximisation)

    cp = cp_model.CpModel()
    variables = [cp.new_int_var(lo, up, "") for lo, up in domains]
    infeasible = ""
    for k, (lo, up) in enumerate(domains):
        if lo > up:
            infeasible = f"variable {columns[k].name} has no integer value within its bounds {columns[k].bounds}"
    rhs = np.asarray(info.rhs, dtype=float).reshape(-1)
    A = info.A.tocsr()
    for i, (constraint, bound_type) in enumerate(info.rows):
        start, end = A.indptr[i], A.indptr[i + 1]
        lower = rhs[i] if bound_type <= 0 else -math.inf
        upper = rhs[i] if bound_type >= 0 else math.inf
        row = _integer_row(A.data[start:end], lower, upper)
        if row is None:
            raise ValueError(
                f"cpsat needs integer constraint coefficients: constraint {constraint.name} has coefficients "
                f"{A.data[start:end].tolist()[:5]} that are no fractions of denominator at most {MAX_DENOMINATOR} "
                "(its row cannot be scaled to integers exactly); solve this model with highs or cbc"
            )
        coefficients, row_lower, row_upper = row
        if row_lower is not None and row_upper is not None and row_lower > row_upper:
            infeasible = f"constraint {constraint.name} has no integer solution ({lower} <= ... <= {upper})"
            continue
        expression = cp_model.LinearExpr.weighted_sum([variables[j] for j in A.indices[start:end].tolist()], coefficients)
        cp.add_linear_constraint(
            expression, -(2**62) if row_lower is None else row_lower, 2**62 if row_upper is None else row_upper,
        )
    if any(scaling.coefficients):
        cp.minimize(cp_model.LinearExpr.weighted_sum(variables, scaling.coefficients))
    return _Compiled(
        model=cp, variables=variables, columns=columns, column_of={id(var): k for k, var in enumerate(columns)},
        cost=cost, offset=offset, sense=sense, scaling=scaling, infeasible=infeasible,
    )


def _add_hints(compiled: _Compiled) -> int:
    """Hint CP-SAT with the columns' current values (those integer and within bounds); the number of hints."""
    hinted = 0
    skipped = 0
    for var, cp_var in zip(compiled.columns, compiled.variables):
        value = var.value
        if value is None:
            continue
        nearest = round(float(value))
        lo, up = _domain(var)
        if abs(float(value) - nearest) > 1e-6 or not lo <= nearest <= up:
            skipped += 1
            continue
        compiled.model.add_hint(cp_var, int(nearest))
        hinted += 1
    if skipped:
        logger.info("cpsat: %d start value(s) not integer or outside their bounds were not hinted", skipped)
    return hinted


class _Watch:
    """Follows a CP-SAT search through its callbacks (solver thread) and reports it to ``progress`` from the caller.

    The callbacks only store the incumbent and the bound (in the model's units and sense); :meth:`tick`, called
    by the waiting thread, reports a new incumbent at once and the state every :data:`PROGRESS_INTERVAL` seconds.
    """

    def __init__(self, compiled: _Compiled, progress: Callable[[MipProgress], None] | None):
        self.compiled, self.progress = compiled, progress
        self.started = time.perf_counter()
        self.incumbent: float | None = None
        self.bound: float | None = None
        self.improved = self.reported = 0
        self.last_report = self.started

    def to_model(self, scaled: float, *, is_bound: bool = False) -> float | None:
        if not math.isfinite(scaled):
            return None
        scaling = self.compiled.scaling
        if is_bound:
            scaled = math.ceil(scaled - 1e-9)  # the scaled objective is an integer
        value = scaled / scaling.scale - (scaling.error if is_bound else 0.0)
        return self.compiled.sense * (value + self.compiled.offset)

    def callback(self) -> Any:
        watch = self

        class Callback(cp_model.CpSolverSolutionCallback):  # type: ignore[name-defined]
            def on_solution_callback(self) -> None:
                watch.incumbent = watch.to_model(self.objective_value)
                watch.bound = watch.to_model(self.best_objective_bound, is_bound=True)
                watch.improved += 1

        return Callback()

    def on_bound(self, bound: float) -> None:
        self.bound = self.to_model(bound, is_bound=True)

    def report(self, event: str, incumbent: float | None = None, bound: float | None = None) -> None:
        now = time.perf_counter()
        self.last_report = now
        if self.progress is not None:
            self.progress(MipProgress(event, now - self.started, incumbent, bound, None))

    def tick(self) -> None:
        if self.improved != self.reported:
            self.reported = self.improved
            self.report("incumbent", self.incumbent, self.bound)
        elif time.perf_counter() - self.last_report >= PROGRESS_INTERVAL:
            self.report("running", self.incumbent, self.bound)


def _run(solver: Any, compiled: _Compiled, watch: _Watch) -> Any:
    """Solve in a thread while this one reports progress; Ctrl-C (or a failing callback) stops the search and is raised.

    Returns CP-SAT's status.
    """
    outcome: list[Any] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(solver.solve(compiled.model, watch.callback()))
        except BaseException as exc:  # re-raised in the calling thread
            failure.append(exc)

    thread = threading.Thread(target=target, name="cpsat-solve", daemon=True)
    thread.start()
    stopped: BaseException | None = None
    while thread.is_alive():
        try:
            thread.join(0.1)
            if thread.is_alive() and stopped is None:
                watch.tick()
        except BaseException as exc:  # Ctrl-C, or the progress callback failed: stop the search, then raise
            if stopped is None:
                stopped = exc
            solver.stop_search()
    if stopped is not None:
        raise stopped
    if failure:
        raise failure[0]
    return outcome[0]


_STATUS = {
    "OPTIMAL": TerminationCondition.optimal,
    "INFEASIBLE": TerminationCondition.infeasible,
    "MODEL_INVALID": TerminationCondition.error,
}


@functools.lru_cache(maxsize=1)
def _ortools_version() -> str | None:
    if not cp_model_available:
        return None
    from importlib import metadata

    try:
        return metadata.version("ortools")
    except metadata.PackageNotFoundError:
        return str(getattr(importlib.import_module("ortools"), "__version__", "")) or None


class CpSatBackend(BackendBase):
    """OR-Tools CP-SAT for linear models with integer variables only, compiled by Pyomo's standard-form compiler.

    Parameters
    ----------
    options : mapping, optional
        CP-SAT parameters (``SatParameters`` field names, e.g.
        ``{"num_workers": 8, "interleave_search": False}``) applied to every
        solve over the defaults; per-call ``options`` of :meth:`solve`
        override them. An unknown name is a ``ValueError``.
    threads : int, optional
        CP-SAT's ``num_workers`` (default :data:`DEFAULT_WORKERS`).

    Notes
    -----
    Not persistent: every :meth:`solve` compiles the model again (``changes``
    is ignored). ``config.time_limit`` is CP-SAT's ``max_time_in_seconds``;
    ``config.mip_gap`` its ``relative_gap_limit`` (None: 0, the optimum
    proved); ``mip_start=True`` adds the variables' values as solution hints;
    ``warm_start`` changes nothing (each solve starts afresh). A model with a
    continuous variable, or a constraint whose coefficients cannot be scaled
    to integers exactly, is a ``ValueError``. The defaults make a solve
    reproducible (module docstring: ``interleave_search``, a fixed seed and
    number of workers).
    """

    name = "cpsat"
    capabilities = Capabilities(
        persistent=False, warm_start=False, mip=True, time_limit=True, in_place_updates=False, duals=False,
        mip_start=True, continuous=False,
    )

    def __init__(self, options: Mapping[str, object] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads
        self.n_builds = 0
        self.n_solves = 0

    def __repr__(self) -> str:
        return f"CpSatBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        """Whether CP-SAT can be used, with the reason when it cannot.

        Returns
        -------
        Availability
            Available when the Python package ``ortools`` imports; else the reason (how to install it).
        """
        if not cp_model_available:
            return Availability(
                False, "the Python package 'ortools' is not installed (pip install ortools, or pip install 'rulemodels[cpsat]')"
            )
        return Availability(True)

    def version(self) -> str | None:
        """The version of OR-Tools, or None when unavailable.

        Returns
        -------
        str or None
            The version of the ``ortools`` package whose CP-SAT solves, e.g. ``'9.15.6755'``.
        """
        return _ortools_version()

    def route(self) -> str:
        """How models reach CP-SAT, in words (``rulemodels solvers`` prints it).

        Returns
        -------
        str
            The route: the model compiled into a CP-SAT model, its objective scaled to integers.
        """
        return "compiled with Pyomo's LinearStandardFormCompiler to an OR-Tools CP-SAT model (objective scaled to integers)"

    def release(self, model: object) -> None:
        """Nothing to free: no instance is kept between solves.

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model (ignored).
        """

    def _parameters(self, solver: Any, config: SolveConfig) -> None:
        native: dict[str, Any] = {
            "num_workers": DEFAULT_WORKERS if self.threads is None else int(self.threads),
            "interleave_search": True,
            "random_seed": DEFAULT_SEED,
            "relative_gap_limit": 0.0 if config.mip_gap is None else float(config.mip_gap),
        }
        if config.time_limit is not None:
            native["max_time_in_seconds"] = float(config.time_limit)
        native.update(self.options)
        native.update(config.options)
        for name, value in native.items():
            try:
                setattr(solver.parameters, name, value)
            except AttributeError:
                raise ValueError(
                    f"CP-SAT has no parameter {name!r}: see the SatParameters of OR-Tools "
                    "(ortools/sat/sat_parameters.proto) for the names (solver_options are passed to CP-SAT as they are)"
                ) from None
            except (TypeError, ValueError) as exc:
                raise ValueError(f"CP-SAT parameter {name!r} cannot be set to {value!r}: {exc}") from None

    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """Compile ``model``, solve it with CP-SAT and load the solution (see the Notes)."""
        start = time.perf_counter()
        compiled = _compile(model)
        self.n_builds += 1
        self.n_solves += 1
        if compiled.infeasible:
            return self._result(start, TerminationCondition.infeasible, None, None, f"infeasible: {compiled.infeasible}")
        if config.mip_start:
            _add_hints(compiled)
        solver = cp_model.CpSolver()
        self._parameters(solver, config)
        watch = _Watch(compiled, progress)
        if hasattr(solver, "best_bound_callback"):
            solver.best_bound_callback = watch.on_bound
        watch.report("start")
        status = _run(solver, compiled, watch)
        name = getattr(status, "name", None) or solver.status_name(status)
        has_solution = name in ("OPTIMAL", "FEASIBLE")
        termination = _STATUS.get(name, TerminationCondition.time_limit)  # FEASIBLE, UNKNOWN: a limit stopped it
        message = name
        if name == "MODEL_INVALID":
            message = f"MODEL_INVALID: {compiled.model.validate() or 'CP-SAT found the model invalid'}"
        objective = bound = None
        reader = None
        if has_solution:
            solution = np.asarray(solver.response_proto.solution, dtype=float)  # by CP-SAT variable index
            values = solution[[var.index for var in compiled.variables]] if compiled.variables else np.zeros(0)
            _load(model, compiled, values, load)
            reader = _reader(compiled, values)
            objective = compiled.sense * (float(compiled.cost @ values) + compiled.offset)
            at_cap = np.flatnonzero(np.abs(values) >= INFINITE_BOUND).tolist()
            if at_cap:
                logger.warning(
                    "cpsat: %s sit(s) on the bound %d given to variables without bounds: the optimum may lie beyond it",
                    _describe([compiled.columns[k] for k in at_cap]), INFINITE_BOUND,
                )
        if compiled.variables and any(compiled.scaling.coefficients):
            bound = watch.to_model(float(solver.best_objective_bound), is_bound=True)
        elif termination is TerminationCondition.optimal:
            bound = objective
        if bound is not None and objective is not None and compiled.sense * (bound - objective) > 0:
            bound = objective  # rounding of the float sums: a bound never passes the solution's objective
        if termination is TerminationCondition.optimal and not compiled.scaling.exact and objective is not None:
            assert bound is not None
            if abs(objective - bound) > 1e-9 * max(1.0, abs(objective)) + (config.mip_gap or 0.0) * abs(objective):
                termination = TerminationCondition.feasible
                message = (f"OPTIMAL for the objective rounded to integers (×{compiled.scaling.scale}); the "
                           f"rounding leaves a gap of at most {compiled.scaling.error:.3g}")
        watch.report("end", objective, bound)
        return self._result(start, termination, objective, bound, message, reader, has_solution)

    def _result(
        self, start: float, termination: TerminationCondition, objective: float | None, bound: float | None,
        message: str, reader: Any = None, has_solution: bool = False,
    ) -> SolveResult:
        return SolveResult(
            termination=termination, objective=objective, bound=bound, wall_time=time.perf_counter() - start,
            solver_name=self.name, solver_version=self.version() or "", has_solution=has_solution, message=message,
            value_reader=reader,
        )


def _load(model: Any, compiled: _Compiled, values: np.ndarray, load: Sequence[Any] | None) -> None:
    """The solution into the model's variables (only those of ``load`` when given)."""
    from pyomo.core.staleflag import StaleFlagManager

    StaleFlagManager.mark_all_as_stale(delayed=True)
    if load is None:
        for var, value in zip(compiled.columns, values.tolist()):
            var.set_value(value, skip_validation=True)
        from pyomo.environ import Var

        for var in model.component_data_objects(Var, descend_into=True):
            if not var.fixed and id(var) not in compiled.column_of:
                var.set_value(zero_within_bounds(var), skip_validation=True)
        return
    for var in load:
        column = compiled.column_of.get(id(var))
        if column is not None:
            var.set_value(float(values[column]), skip_validation=True)
        elif not var.fixed:
            var.set_value(zero_within_bounds(var), skip_validation=True)


def _reader(compiled: _Compiled, values: np.ndarray) -> Callable[[Sequence[Any]], np.ndarray]:
    """Values of given variables from this solve (a variable that is not a column: 0 within its bounds)."""

    def read(variables: Sequence[Any]) -> np.ndarray:
        out = np.empty(len(variables))
        for k, var in enumerate(variables):
            column = compiled.column_of.get(id(var))
            if column is not None:
                out[k] = values[column]
            else:
                out[k] = var.value if var.fixed else zero_within_bounds(var)
        return out

    return read
