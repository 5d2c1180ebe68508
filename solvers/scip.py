"""SCIP in process through Pyomo's ``scip_persistent`` interface (pyscipopt).

Pyomo (from 6.10) ships a direct and a persistent interface to SCIP in
``pyomo.contrib.solver``; this backend takes ``scip_persistent`` from that
package's ``SolverFactory``, its public route, builds a new instance of it
for each solve (``set_instance``: the whole model is read again, so a
re-solve is never stale) and hands the model to pyscipopt's ``Model``.

Settings of every solve, over SCIP's defaults (:data:`DETERMINISTIC_OPTIONS`):

* one thread (``parallel/maxnthreads`` and ``lp/threads`` 1) and fixed random
  seeds (``randomization/randomseedshift``, ``permutationseed`` and ``lpseed``
  0). SCIP's sequential branch and bound is deterministic: the same model gives
  the same solution, unless a time limit stops it at a different point.
* no log (``display/verblevel`` 0); ``options={"display/verblevel": 4}`` shows it.
* the time limit (``limits/time``) and the MIP gap (``limits/gap``; SCIP's
  default 0 when none is given: a solve stops on a proof).

``mip_start=True`` offers the integer variables' current values to SCIP
through Pyomo's ``warmstart_discrete_vars`` (pyscipopt's ``addSol`` of a
partial solution). SCIP completes and checks a partial solution itself
before presolving and drops it when it is infeasible, so a wrong start cannot
corrupt the solve. The backend checks it too (:func:`start_violation`): a
start that breaks a bound, integrality or a constraint of the model is not
offered, with a warning that names what it breaks; a start SCIP did not keep
(its incumbent is worse than the start's objective) is logged as well.
``SolveResult.extra["start"]`` says which happened.

``progress`` follows the search through a pyscipopt event handler included in
the SCIP model that Pyomo built (Pyomo's interface keeps it as
``_solver_model``: the one name outside Pyomo's public interface this backend
reads; it also gives SCIP's own status, mapped member by member in
:data:`SCIP_STATUS`): each better solution (``BESTSOLFOUND``) and, at most every
:data:`~solvers.highs.PROGRESS_INTERVAL` seconds, the state after a node.
The handler runs in SCIP's thread, the caller's.

Not supported: LP duals (Pyomo's SCIP interface reads none, so
``capabilities.duals`` is False and the ``dual`` Suffix is left alone; the
column generation and dual clause LP drivers refuse this backend) and in-place
updates. Pyomo's persistent interface turns mutable Params into fixed SCIP
variables and the objective into a variable bounded by it; SCIP's presolve
removes both.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from solvers.highs import PROGRESS_INTERVAL

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

_MINIMUM_PYSCIPOPT = (5, 5, 0)  # Pyomo's own minimum for its SCIP interface


def map_status(status: str) -> TerminationCondition:
    """The termination of a SCIP status; an unknown one (or ``"unknown"``) is logged as a warning."""
    mapped = SCIP_STATUS.get(status)
    if mapped is None or mapped is TerminationCondition.unknown:
        logger.warning("scip returned status %r; treating it as 'unknown'", status)
        return TerminationCondition.unknown
    return mapped


def _pyomo_scip_factory() -> Any:
    """Pyomo's ``pyomo.contrib.solver`` SolverFactory when it has ``scip_persistent``, else None."""
    import pyomo.environ  # noqa: F401  (registers the solver plugins)

    try:
        from pyomo.contrib.solver.common.factory import SolverFactory
    except ImportError:
        return None
    return SolverFactory if "scip_persistent" in SolverFactory else None


@functools.cache
def _availability() -> tuple[bool, str]:
    if _pyomo_scip_factory() is None:
        import pyomo

        return False, f"Pyomo {pyomo.version.version} has no scip_persistent interface (it came with Pyomo 6.10; pip install -U pyomo)"
    if not pyscipopt_available:
        return False, "the Python package 'pyscipopt' is not installed (pip install 'rulemodels[scip]', or pip install pyscipopt)"
    version = _version_tuple(pyscipopt.__version__)
    if version < _MINIMUM_PYSCIPOPT:
        return False, f"pyscipopt {pyscipopt.__version__} is older than Pyomo's SCIP interface needs (pip install -U pyscipopt)"
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


@contextlib.contextmanager
def _stderr_copy() -> Iterator[Any]:
    """A text stream on a copy of file descriptor 2, for the block.

    Pyomo's interface captures stdout and stderr while SCIP runs; handed to it
    as ``tee``, this stream lets what the ``progress`` callback writes (a
    progress bar, log lines) reach the terminal during the solve.
    """
    stream = os.fdopen(os.dup(2), "w", buffering=1)
    try:
        yield stream
    finally:
        stream.close()


def _finite(scip: Any, value: float) -> float | None:
    return None if not math.isfinite(value) or abs(value) >= scip.infinity() else float(value)


class _Watch:
    """Reports a SCIP solve to ``progress``: each better solution, and the state after a node every PROGRESS_INTERVAL s.

    Built on pyscipopt's ``Eventhdlr`` when included (:meth:`attach`). An
    exception raised by ``progress`` is kept, SCIP is interrupted, and the
    exception is raised once SCIP has stopped (:attr:`failure`).
    """

    def __init__(self, progress: Callable[[MipProgress], None]):
        self.progress = progress
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
                incumbent = _finite(scip, scip.getSolObjVal(best)) if best is not None else None
                self.report("incumbent" if improved else "running", incumbent, _finite(scip, scip.getDualbound()), int(scip.getNNodes()))
        except BaseException as exc:  # an exception must not cross SCIP's C code: keep it, stop SCIP, raise it later
            self.failure = exc
            self.scip.interruptSolve()


@functools.cache
def _scip_version() -> str:
    scip = pyscipopt.Model()
    return f"{scip.getMajorVersion()}.{scip.getMinorVersion()}.{scip.getTechVersion()}"


class ScipBackend(BackendBase):
    """SCIP through Pyomo's ``scip_persistent`` interface, a new instance per solve.

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
    instance); ``config.mip_start`` offers the current values, checked (see
    the module docstring). ``progress`` (a MIP only) is called at the start,
    on each better solution, about every ``PROGRESS_INTERVAL`` seconds and at
    the end. Ctrl-C stops SCIP (its status ``userinterrupt``) and is raised
    as ``KeyboardInterrupt``.
    """

    name = "scip"
    capabilities = Capabilities(
        persistent=False, warm_start=False, mip=True, time_limit=True, in_place_updates=False, duals=False, mip_start=True,
    )

    def __init__(self, options: Mapping[str, Any] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads

    def __repr__(self) -> str:
        return f"ScipBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        ok, reason = _availability()
        return Availability(ok, reason)

    def version(self) -> str | None:
        if not self.available():
            return None
        return _scip_version()

    def route(self) -> str:
        return "Pyomo's scip_persistent (pyomo.contrib.solver) to pyscipopt, a new instance per solve"

    def release(self, model: Any) -> None:
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
        """Solve ``model`` with a new ``scip_persistent`` instance (``changes`` is not used: see the Notes)."""
        start = time.perf_counter()
        import pyomo.environ as pyo

        status = self.available()
        if not status:
            from solvers._common import error_result

            return error_result(self.name, None, start, status.reason)
        objective = active_objective(model)
        sense = 1.0 if objective.is_minimizing() else -1.0
        is_mip = any(var.is_integer() for var in model.component_data_objects(pyo.Var, descend_into=True) if not var.fixed)
        start_note, start_objective = "", None
        if config.mip_start and is_mip:
            violation = start_violation(model)
            if violation is None:
                start_note, start_objective = "offered", float(pyo.value(objective.expr))
            else:
                start_note = f"not offered: {violation}"
                logger.warning("scip: the MIP start is no feasible solution (%s); solving without it", violation)

        opt = _pyomo_scip_factory()("scip_persistent")
        opt.set_instance(model)
        scip = opt._solver_model  # the pyscipopt Model Pyomo built (no public name): status and progress
        watch = _Watch(progress) if progress is not None and is_mip else None
        if watch is not None:
            watch.attach(scip)
            watch.report("start")
        native = self._native_options(config)
        with _stderr_copy() if watch is not None else contextlib.nullcontext() as tee:
            results = opt.solve(
                model, load_solutions=False, raise_exception_on_nonoptimal_result=False, solver_options=native,
                warmstart_discrete_vars=start_note == "offered", tee=[] if tee is None else [tee],
            )
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
            values = results.solution_loader.get_vars()
            reader = _load(model, values, load)
            value = float(results.incumbent_objective)
        bound = None if results.objective_bound is None else _finite(scip, float(results.objective_bound))
        if termination is TerminationCondition.optimal and bound is None:
            bound = value
        if start_note == "offered" and start_objective is not None:
            if value is None or sense * (value - start_objective) > 1e-6 * max(1.0, abs(start_objective)):
                start_note = "offered, not kept by scip"
                logger.warning(
                    "scip did not keep the MIP start (objective %g; scip's incumbent: %s)", start_objective,
                    "none" if value is None else f"{value:g}",
                )
            else:
                start_note = "offered, kept"
        if watch is not None:
            watch.report("end", value, bound, int(scip.getNNodes()))
        extra: dict[str, Any] = {"status": scip_status, "nodes": int(scip.getNNodes())}
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


def _load(model: Any, values: Any, load: Sequence[Any] | None) -> Callable[[Sequence[Any]], np.ndarray]:
    """Load SCIP's values (a ComponentMap of the model's variables) into the model; return a reader of them.

    Variables SCIP did not see (in no active constraint nor the objective)
    get 0 clipped to their bounds, as with every backend.
    """
    import pyomo.environ as pyo
    from pyomo.core.staleflag import StaleFlagManager

    StaleFlagManager.mark_all_as_stale(delayed=True)
    chosen = load if load is not None else list(model.component_data_objects(pyo.Var, descend_into=True))
    for var in chosen:
        if var.fixed:
            continue
        value = values[var] if var in values else zero_within_bounds(var)
        var.set_value(float(value), skip_validation=True)

    def read(variables: Sequence[Any]) -> np.ndarray:
        return np.array(
            [float(values[var]) if var in values else (var.value if var.fixed else zero_within_bounds(var)) for var in variables],
            dtype=float,
        )

    return read
