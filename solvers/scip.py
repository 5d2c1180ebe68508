"""SCIP in process: each model compiled to matrices by Pyomo's public compiler, then solved through pyscipopt.

Each ``solve`` compiles the model with Pyomo's public
``LinearStandardFormCompiler`` (``pyomo.repn.plugins.standard_form``, in its
mixed form, as :mod:`solvers.highs` does) and loads it into a new
``pyscipopt.Model``: a re-solve reads the model again, so it is never stale.
Pyomo 6.10 also ships ``scip_persistent`` (``pyomo.contrib.solver``); it is
not used because the SCIP model it builds, which the progress reports and
SCIP's own status need, has no public name, and because it makes each mutable
Param a fixed SCIP variable and the objective a variable bounded by it
(a product of a Param and a variable becomes a bilinear term for SCIP).

Settings of every solve, over SCIP's defaults (:data:`DETERMINISTIC_OPTIONS`):

* one thread (``parallel/maxnthreads`` and ``lp/threads`` 1) and fixed random
  seeds (``randomization/randomseedshift``, ``permutationseed`` and ``lpseed``
  0). SCIP's sequential branch and bound is deterministic: the same model gives
  the same solution, unless a time limit stops it at a different point.
* no log (``display/verblevel`` 0); ``options={"display/verblevel": 4}`` shows it.
* the time limit (``limits/time``) and the MIP gap (``limits/gap``; SCIP's
  default 0 when none is given: a solve stops on a proof).

``mip_start=True`` offers the variables' current values as a full solution.
It is checked twice: first in the model's own terms (:func:`start_violation`:
a value missing, out of its bounds, not integral, or a constraint broken), then
by SCIP (``checkSol`` on the original problem) before ``addSol``. A start that
fails either check is not offered, with a warning saying why, so a wrong start
cannot corrupt the solve; a start SCIP kept but whose objective is better than
SCIP's final incumbent is logged. ``SolveResult.extra["start"]`` says which
happened.

``progress`` follows the search through a pyscipopt event handler: each better
solution (``BESTSOLFOUND``) and, at most every
:data:`~solvers.highs.PROGRESS_INTERVAL` seconds, the state after a node. It
runs in SCIP's thread, which is the caller's. SCIP's own status is mapped
member by member (:data:`SCIP_STATUS`).

Not supported: LP duals (``capabilities.duals`` is False and the ``dual``
Suffix is left alone; column generation and the dual clause LP refuse this
backend) and in-place updates.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
from solvers.highs import PROGRESS_INTERVAL, _column_order

logger = logging.getLogger(__name__)

pyscipopt, pyscipopt_available = attempt_import("pyscipopt")

__all__ = ["DETERMINISTIC_OPTIONS", "SCIP_STATUS", "ScipBackend", "start_violation"]

DETERMINISTIC_OPTIONS: dict[str, Any] = {
    "parallel/maxnthreads": 1,
    "lp/threads": 1,
    "randomization/randomseedshift": 0,
    "randomization/permutationseed": 0,
    "randomization/lpseed": 0,
    "display/verblevel": 0,
}
"""SCIP parameters set on every solve (before the backend's and the call's ``options``): one thread, fixed seeds, no log."""

SCIP_STATUS: dict[str, TerminationCondition] = {
    "optimal": TerminationCondition.optimal,
    "gaplimit": TerminationCondition.optimal,  # optimal within the requested limits/gap
    "timelimit": TerminationCondition.time_limit,
    "nodelimit": TerminationCondition.iteration_limit,
    "totalnodelimit": TerminationCondition.iteration_limit,
    "stallnodelimit": TerminationCondition.iteration_limit,
    "restartlimit": TerminationCondition.iteration_limit,
    "sollimit": TerminationCondition.feasible,
    "bestsollimit": TerminationCondition.feasible,
    "primallimit": TerminationCondition.feasible,
    "duallimit": TerminationCondition.feasible,
    "memlimit": TerminationCondition.error,
    "userinterrupt": TerminationCondition.interrupted,
    "terminate": TerminationCondition.interrupted,
    "infeasible": TerminationCondition.infeasible,
    "unbounded": TerminationCondition.unbounded,
    "inforunbd": TerminationCondition.infeasible_or_unbounded,
    "unknown": TerminationCondition.unknown,
}
"""Each status SCIP reports (``Model.getStatus()``) and the termination it means."""

_MINIMUM_PYSCIPOPT = (5, 5, 0)


def map_status(status: str) -> TerminationCondition:
    """The termination of a SCIP status; an unknown one (or ``"unknown"``) is logged as a warning."""
    mapped = SCIP_STATUS.get(status)
    if mapped is None or mapped is TerminationCondition.unknown:
        logger.warning("scip returned status %r; treating it as 'unknown'", status)
        return TerminationCondition.unknown
    return mapped


@functools.cache
def _availability() -> tuple[bool, str]:
    if not pyscipopt_available:
        return False, "the Python package 'pyscipopt' is not installed (pip install 'rulemodels[scip]', or pip install pyscipopt)"
    version = _version_tuple(pyscipopt.__version__)
    if version < _MINIMUM_PYSCIPOPT:
        return False, f"pyscipopt {pyscipopt.__version__} is older than 5.5 (pip install -U pyscipopt)"
    return True, ""


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for part in text.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def start_violation(model: Any, tolerance: float = 1e-6) -> str | None:
    """What makes the model's current variable values no feasible solution, or None when they are one.

    Checks every unfixed variable of an active constraint or of the
    objective: it has a value, within its bounds, integral when the variable
    is integer; then every active constraint's body at those values, within
    its bounds. ``tolerance`` is absolute.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        The model whose current values are checked.
    tolerance : float, default=1e-6
        The largest violation of a bound, of integrality or of a constraint accepted.

    Returns
    -------
    str or None
        The first violation found, in words; None when the values are feasible.
    """
    import pyomo.environ as pyo
    from pyomo.core.expr.visitor import identify_variables

    constraints = list(model.component_data_objects(pyo.Constraint, active=True, descend_into=True))
    seen: dict[int, Any] = {}
    for expr in [con.body for con in constraints] + [active_objective(model).expr]:
        for var in identify_variables(expr, include_fixed=False):
            seen.setdefault(id(var), var)
    for var in seen.values():
        value = var.value
        if value is None:
            return f"{var.name} has no value"
        if var.lb is not None and value < var.lb - tolerance or var.ub is not None and value > var.ub + tolerance:
            return f"{var.name} = {value:g} is outside its bounds [{var.lb}, {var.ub}]"
        if var.is_integer() and abs(value - round(value)) > tolerance:
            return f"{var.name} = {value:g} is not integer"
    for con in constraints:
        body = pyo.value(con.body)
        lower, upper = pyo.value(con.lower), pyo.value(con.upper)
        if lower is not None and body < lower - tolerance or upper is not None and body > upper + tolerance:
            return f"constraint {con.name} is violated ({body:g} not within [{lower}, {upper}])"
    return None


def _finite(scip: Any, value: float) -> float | None:  # SCIP's infinity (1e20) either way: None
    return None if not math.isfinite(value) or abs(value) >= scip.infinity() else float(value)


class _Watch:
    """Reports a SCIP solve to ``progress``: each better solution, and the state after a node every PROGRESS_INTERVAL s.

    Built on pyscipopt's ``Eventhdlr`` when included (:meth:`attach`). An
    exception raised by ``progress`` is kept, SCIP is interrupted, and the
    exception is raised once SCIP has stopped (:attr:`failure`).
    """

    def __init__(self, progress: Callable[[MipProgress], None], sense: float):
        self.progress, self.sense = progress, sense
        self.started = time.perf_counter()
        self.last_report = self.started
        self.failure: BaseException | None = None
        self.scip: Any = None

    def report(self, event: str, incumbent: float | None = None, bound: float | None = None, nodes: int | None = None) -> None:
        now = time.perf_counter()
        self.last_report = now
        self.progress(MipProgress(event, now - self.started, incumbent, bound, nodes))

    def attach(self, scip: Any) -> None:
        """Include an event handler in the pyscipopt ``scip`` model that calls :meth:`on_event`."""
        watch = self
        self.scip = scip

        class _Handler(pyscipopt.Eventhdlr):  # type: ignore[name-defined]
            def eventinit(self) -> None:
                self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)
                self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.NODESOLVED, self)

            def eventexit(self) -> None:
                self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND, self)
                self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.NODESOLVED, self)

            def eventexec(self, event: Any) -> None:
                watch.on_event(event.getType() == pyscipopt.SCIP_EVENTTYPE.BESTSOLFOUND)

        scip.includeEventhdlr(_Handler(), "rulemodels_progress", "reports incumbent, bound and gap to rulemodels")

    def on_event(self, improved: bool) -> None:
        if self.failure is not None:
            return
        try:
            if improved or time.perf_counter() - self.last_report >= PROGRESS_INTERVAL:
                scip = self.scip
                best = scip.getBestSol() if scip.getNSols() > 0 else None
                incumbent = _finite(scip, self.sense * scip.getSolObjVal(best)) if best is not None else None
                bound = _finite(scip, self.sense * scip.getDualbound())
                self.report("incumbent" if improved else "running", incumbent, bound, int(scip.getNTotalNodes()))
        except BaseException as exc:  # an exception must not cross SCIP's C code: keep it, stop SCIP, raise it later
            self.failure = exc
            self.scip.interruptSolve()


@functools.cache
def _scip_version() -> str:
    scip = pyscipopt.Model()
    return f"{scip.getMajorVersion()}.{scip.getMinorVersion()}.{scip.getTechVersion()}"


class ScipBackend(BackendBase):
    """SCIP through pyscipopt, each model compiled by Pyomo's public standard-form compiler at each solve.

    Parameters
    ----------
    options : mapping, optional
        SCIP parameters applied to every solve (SCIP's own names, for example
        ``{"limits/nodes": 1000}``), over :data:`DETERMINISTIC_OPTIONS`;
        per-call ``options`` of :meth:`solve` override them.
    threads : int, optional
        SCIP's LP threads (``lp/threads``); SCIP's branch and bound itself is sequential.

    Notes
    -----
    :meth:`solve` reads the whole model each time (``changes`` is not used)
    and loads the variables of ``load`` (None: every one). ``config.time_limit``
    and ``config.mip_gap`` become ``limits/time`` and ``limits/gap``;
    ``config.warm_start`` changes nothing (each solve starts from a new
    model); ``config.mip_start`` offers the current values, checked (see
    the module docstring). ``progress`` (a MIP only) is called at the start,
    on each better solution, about every ``PROGRESS_INTERVAL`` seconds and at
    the end. Ctrl-C stops SCIP (its status ``userinterrupt``) and is raised
    as ``KeyboardInterrupt``.
    """

    name = "scip"
    capabilities = Capabilities(
        persistent=False, warm_start=False, mip=True, time_limit=True, in_place_updates=False, duals=False, mip_start=True,
    )

    def __init__(self, options: Mapping[str, object] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads

    def __repr__(self) -> str:
        return f"ScipBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        """Whether SCIP can be used, with the reason when it cannot.

        Returns
        -------
        Availability
            Available when the Python package ``pyscipopt`` imports; else the reason (how to install it).
        """
        ok, reason = _availability()
        return Availability(ok, reason)

    def version(self) -> str | None:
        """The version of SCIP, or None when unavailable.

        Returns
        -------
        str or None
            The version of the SCIP library pyscipopt runs, e.g. ``'10.0.2'``.
        """
        if not self.available():
            return None
        return _scip_version()

    def route(self) -> str:
        """How models reach SCIP, in words (``rulemodels solvers`` prints it).

        Returns
        -------
        str
            The route: the model compiled into a new pyscipopt model at each solve.
        """
        return "compiled with Pyomo's LinearStandardFormCompiler into a new pyscipopt Model at each solve"

    def release(self, model: object) -> None:
        """Nothing to free: no instance is kept between solves.

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model (unused).
        """

    def _native_options(self, config: SolveConfig) -> dict[str, Any]:
        native = dict(DETERMINISTIC_OPTIONS)
        if self.threads is not None:
            native["lp/threads"] = int(self.threads)
        if config.time_limit is not None:
            native["limits/time"] = float(config.time_limit)
        if config.mip_gap is not None:
            native["limits/gap"] = float(config.mip_gap)
        native.update(self.options)
        native.update(config.options)
        return native

    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """Solve ``model`` compiled anew (``changes`` is not used: see the Notes)."""
        start = time.perf_counter()
        import pyomo.environ as pyo

        status = self.available()
        if not status:
            from solvers._common import error_result

            return error_result(self.name, None, start, status.reason)
        objective = active_objective(model)
        sense = 1.0 if objective.is_minimizing() else -1.0  # for the start's check
        is_mip = any(var.is_integer() for var in model.component_data_objects(pyo.Var, descend_into=True) if not var.fixed)
        start_note, start_objective = "", None
        if config.mip_start and is_mip:
            violation = start_violation(model)
            if violation is None:
                start_note, start_objective = "offered", float(pyo.value(objective.expr))
            else:
                start_note = f"not offered: {violation}"
                logger.warning("scip: the MIP start is no feasible solution (%s); solving without it", violation)

        compiled = _compile(model)
        scip = compiled.scip
        for name, value in self._native_options(config).items():
            scip.setParam(name, value)
        if start_note == "offered":
            start_note = _offer_start(compiled)
        watch = _Watch(progress, compiled.sense) if progress is not None and is_mip else None
        if watch is not None:
            watch.attach(scip)
            watch.report("start")
        scip.optimize()
        if watch is not None and watch.failure is not None:
            raise watch.failure
        scip_status = str(scip.getStatus())
        if scip_status == "userinterrupt":
            raise KeyboardInterrupt("SCIP was interrupted (Ctrl-C)")
        termination = map_status(scip_status)
        has_solution = scip.getNSols() > 0 and termination not in (
            TerminationCondition.infeasible, TerminationCondition.unbounded, TerminationCondition.infeasible_or_unbounded,
        )
        value = None
        reader = None
        if has_solution:
            best = scip.getBestSol()
            column_values = np.array([scip.getSolVal(best, var) for var in compiled.scip_vars], dtype=float)
            reader = _load(model, compiled, column_values, load)
            value = compiled.sense * float(scip.getSolObjVal(best))
        try:
            bound = _finite(scip, compiled.sense * float(scip.getDualbound()))
        except Exception:  # SCIP stopped before it had a bound (an infeasibility found in presolve)
            bound = None
        if termination is TerminationCondition.optimal and bound is None:
            bound = value
        if start_note == "offered, refused by scip":
            logger.warning("scip refused the MIP start (objective %g): solving without it", start_objective)
        elif start_note == "offered" and start_objective is not None:
            if value is None or sense * (value - start_objective) > 1e-6 * max(1.0, abs(start_objective)):
                start_note = "offered, not kept by scip"
                logger.warning(
                    "scip did not keep the MIP start (objective %g; scip's incumbent: %s)", start_objective,
                    "none" if value is None else f"{value:g}",
                )
            else:
                start_note = "offered, kept"
        if watch is not None:
            watch.report("end", value, bound, int(scip.getNTotalNodes()))
        extra: dict[str, Any] = {"status": scip_status, "nodes": int(scip.getNTotalNodes())}
        if start_note:
            extra["start"] = start_note
        return SolveResult(
            termination=termination,
            objective=value,
            bound=bound,
            wall_time=time.perf_counter() - start,
            solver_name=self.name,
            solver_version=self.version() or "",
            has_solution=has_solution,
            message=scip_status,
            extra=extra,
            value_reader=reader,
        )


@dataclass
class _Compiled:
    """One model compiled to standard form and loaded into a new pyscipopt ``Model``.

    Attributes
    ----------
    scip : pyscipopt.Model
    columns : list of VarData
        The model variable of each SCIP variable (the compiler's ``columns``).
    scip_vars : list of pyscipopt.Variable
        The SCIP variable of each column.
    column_of : dict
        ``id(var) -> column``.
    """

    scip: Any
    columns: list[Any]
    scip_vars: list[Any]
    column_of: dict[int, int]
    sense: float


def _compile(model: Any) -> _Compiled:
    """Compile ``model`` with Pyomo's public ``LinearStandardFormCompiler`` and load it into a new silent pyscipopt Model."""
    from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler

    objective = active_objective(model)
    info = LinearStandardFormCompiler().write(model, mixed_form=True, column_order=_column_order(model, objective))
    scip = pyscipopt.Model()
    scip.hideOutput()
    infinity = scip.infinity()
    n_cols = len(info.columns)
    cost = np.asarray(info.c.toarray()).ravel() if info.c.shape[0] else np.zeros(n_cols)
    if cost.shape[0] != n_cols:
        cost = np.zeros(n_cols)
    scip_vars = []
    for k, var in enumerate(info.columns):
        lower, upper = var.bounds
        vtype = "B" if var.is_binary() else "I" if var.is_integer() else "C"
        scip_vars.append(scip.addVar(
            name=f"x{k}", vtype=vtype, lb=-infinity if lower is None else float(lower),
            ub=infinity if upper is None else float(upper), obj=float(cost[k]),
        ))
    offset = float(np.asarray(info.c_offset).ravel()[0]) if np.asarray(info.c_offset).size else 0.0
    if offset:
        scip.addObjoffset(offset)
    scip.setMinimize()  # the compiler negates a maximisation's costs: SCIP minimises, values are read back times sense
    A = info.A.tocsr()
    rhs = np.asarray(info.rhs, dtype=float).reshape(-1)
    for i, (_constraint, bound_type) in enumerate(info.rows):
        start, end = A.indptr[i], A.indptr[i + 1]
        expr = pyscipopt.quicksum(float(a) * scip_vars[j] for j, a in zip(A.indices[start:end].tolist(), A.data[start:end].tolist()))
        lower = rhs[i] if bound_type <= 0 else None
        upper = rhs[i] if bound_type >= 0 else None
        scip.addCons(_bounded(expr, lower, upper), name=f"r{i}")
    sense = 1.0 if objective.is_minimizing() else -1.0
    return _Compiled(scip, list(info.columns), scip_vars, {id(var): k for k, var in enumerate(info.columns)}, sense)


def _bounded(expr: Any, lower: float | None, upper: float | None) -> Any:
    """``lower <= expr <= upper`` as a pyscipopt constraint expression (either side may be None)."""
    if lower is not None and upper is not None:
        return expr == upper
    if lower is not None:
        return expr >= lower
    return expr <= upper


def _offer_start(compiled: _Compiled) -> str:
    """Offer the columns' current values to SCIP as a full solution, checked by SCIP (``checkSol``) before ``addSol``.

    Returns ``"offered"`` when SCIP stored it, ``"offered, refused by scip"`` when its check failed.
    """
    scip = compiled.scip
    solution = scip.createSol()
    for var, scip_var in zip(compiled.columns, compiled.scip_vars):
        scip.setSolVal(solution, scip_var, float(var.value))
    if not scip.checkSol(solution, printreason=False, completely=True, original=True):
        scip.freeSol(solution)
        return "offered, refused by scip"
    scip.addSol(solution, free=True)
    return "offered"


def _load(model: Any, compiled: _Compiled, column_values: np.ndarray, load: Sequence[Any] | None) -> Callable[[Sequence[Any]], np.ndarray]:
    """Load SCIP's column values into the model; return a reader of them.

    Variables SCIP did not see (in no active constraint nor the objective)
    get 0 clipped to their bounds, as with every backend.
    """
    import pyomo.environ as pyo
    from pyomo.core.staleflag import StaleFlagManager

    StaleFlagManager.mark_all_as_stale(delayed=True)
    column_of = compiled.column_of
    chosen = load if load is not None else list(model.component_data_objects(pyo.Var, descend_into=True))
    for var in chosen:
        if var.fixed:
            continue
        column = column_of.get(id(var))
        var.set_value(float(column_values[column]) if column is not None else zero_within_bounds(var), skip_validation=True)

    def read(variables: Sequence[Any]) -> np.ndarray:
        values = []
        for var in variables:
            column = column_of.get(id(var))
            values.append(column_values[column] if column is not None else var.value if var.fixed else zero_within_bounds(var))
        return np.array(values, dtype=float)

    return read
