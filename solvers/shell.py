"""GLPK and CBC through Pyomo's shell interfaces (the ``glpsol`` and ``cbc`` binaries).

These backends are not persistent: every solve writes an LP file, starts the
solver process and reads its solution back. They are the reference route for
exact MIPs (``rulemodels exact --solver cbc``) and for checking HiGHS.

A solver process that fails (executable gone, killed by a signal, non-zero
exit, unreadable or missing solution file) gives a ``SolveResult`` with
``TerminationCondition.error`` and a message saying what happened; Pyomo's
own exceptions never leave :meth:`ShellBackend.solve`.
"""

from __future__ import annotations

import functools
import logging
import shutil
import signal
import time
from typing import Any, Mapping

from solvers._common import (
    active_objective,
    clear_unfixed_values,
    fill_unreported_values,
    finite_or_none,
    map_legacy_termination,
)
from solvers.base import Availability, Capabilities, ModelChanges, SolveResult, TerminationCondition
from solvers.options import translate_options

logger = logging.getLogger(__name__)

__all__ = ["ShellBackend", "EXECUTABLES"]

#: solver name -> executable it needs on PATH
EXECUTABLES = {"glpk": "glpsol", "cbc": "cbc"}


@functools.lru_cache(maxsize=None)
def _legacy_version(name: str) -> str | None:
    from pyomo.opt import SolverFactory

    solver = SolverFactory(name)
    try:
        version = solver.version()
    except Exception:  # a broken binary must not break listing the solvers
        logger.debug("could not read the version of %s", name, exc_info=True)
        return None
    if version is None:
        return None
    return ".".join(str(part) for part in version)


def _process_failure(executable: str, solver: Any, exc: Exception) -> str:
    """Why the solver process failed, in words, from Pyomo's ``ApplicationError``.

    Pyomo keeps the return code of the process it ran in ``solver._rc``
    (negative: killed by that signal) and its output in ``solver._log``.
    """
    rc = getattr(solver, "_rc", None)
    if not isinstance(rc, int):
        return f"could not run {executable}: {exc}"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "a signal"
        return (
            f"the {executable} process was killed by {name} (signal {-rc}) before it finished "
            "(out of memory, or stopped by another program); run it again, or choose another solver"
        )
    log = str(getattr(solver, "_log", "") or "")
    last = next((line.strip() for line in reversed(log.splitlines()) if line.strip()), "")
    output = f"; its last output line: {last!r}" if last else ""
    return f"{executable} exited with return code {rc}{output}"


def _status_text(results: Any) -> str:
    message = results.solver.message
    if message is None or str(message) in ("", "<undefined>"):
        return str(getattr(results.solver.termination_condition, "name", ""))
    return str(message)


class ShellBackend:
    """A solver binary driven through Pyomo's legacy ``SolverFactory``.

    Parameters
    ----------
    name : {"glpk", "cbc"} or another shell solver Pyomo knows
        The Pyomo solver name.
    options : mapping, optional
        Native options applied to every solve (``{"presol": ""}`` ...).
    threads : int, optional
        Threads, for solvers that support them (CBC).
    """

    capabilities = Capabilities(
        persistent=False, warm_start=False, mip=True, time_limit=True, in_place_updates=False, duals=True,
    )

    def __init__(self, name: str, options: Mapping[str, Any] | None = None, threads: int | None = None):
        self.name = name
        self.options = dict(options or {})
        self.threads = threads
        self.n_solves = 0

    def __repr__(self) -> str:
        return f"ShellBackend({self.name!r}, options={self.options!r})"

    @property
    def executable(self) -> str:
        """The binary this backend runs (``glpsol`` for glpk)."""
        return EXECUTABLES.get(self.name, self.name)

    def available(self) -> Availability:
        executable = self.executable
        if shutil.which(executable) is None:
            return Availability(False, f"executable '{executable}' not found on PATH")
        return Availability(True)

    def version(self) -> str | None:
        if not self.available():
            return None
        return _legacy_version(self.name)

    def route(self) -> str:
        return f"Pyomo SolverFactory('{self.name}'): writes an LP file and runs {self.executable} for every solve"

    def release(self, model: Any) -> None:
        """Nothing is kept between solves."""

    def _make_solver(self) -> Any:
        from pyomo.opt import SolverFactory

        return SolverFactory(self.name)

    def _run(self, solver: Any, model: Any, native: Mapping[str, Any]) -> Any:
        return solver.solve(model, load_solutions=False, options=dict(native))

    def _termination(self, results: Any) -> TerminationCondition:
        raw = results.solver.termination_condition
        if self.name == "glpk" and getattr(raw, "name", "") == "other" and len(results.solution) == 0:
            # glpsol's LP presolver stops with an undefined status (written as
            # 'other' by Pyomo) when it detects primal or dual infeasibility.
            return TerminationCondition.infeasible_or_unbounded
        return map_legacy_termination(raw, self.name)

    def solve(
        self,
        model: Any,
        *,
        time_limit: float | None = None,
        mip_gap: float | None = None,
        options: Mapping[str, Any] | None = None,
        changes: ModelChanges | None = None,
        warm_start: bool = True,
        load: Any = None,
    ) -> SolveResult:
        """Write ``model``, run the binary, load the solution; see :class:`solvers.base.Backend`.

        Every solve reads the whole model, starts from nothing and loads
        every variable, so ``changes``, ``warm_start`` and ``load`` change
        nothing here.
        """
        from pyomo.common.errors import ApplicationError

        start = time.perf_counter()
        native = translate_options(self.name, time_limit=time_limit, mip_gap=mip_gap, threads=self.threads)
        native.update(self.options)
        native.update(options or {})
        objective_component = active_objective(model)

        def failed(message: str) -> SolveResult:
            return SolveResult(
                termination=TerminationCondition.error,
                objective=None,
                bound=None,
                wall_time=time.perf_counter() - start,
                solver_name=self.name,
                solver_version=self.version() or "",
                has_solution=False,
                message=message,
            )

        status = self.available()
        if not status:  # e.g. uninstalled since the backend was made: Pyomo would only log a warning
            from solvers.registry import _hint

            return failed(f"{status.reason}; {_hint(self.name)}")
        solver = self._make_solver()
        cleared = clear_unfixed_values(model)
        self.n_solves += 1
        try:
            results = self._run(solver, model, native)
        except ApplicationError as exc:
            return failed(_process_failure(self.executable, solver, exc))
        except Exception as exc:
            if not isinstance(getattr(solver, "_rc", None), int):
                raise  # raised before the process ran (writing the model): not a solver fault
            # The process ran but Pyomo could not parse what it wrote.
            return failed(
                f"{self.executable} exited with return code {solver._rc} but its solution could not be read "
                f"({type(exc).__name__}: {exc}); check that '{shutil.which(self.executable)}' is a working {self.name}"
            )
        termination = self._termination(results)
        reported = len(results.solution) > 0 and len(results.solution(0).variable) > 0
        if not reported and termination in (
            TerminationCondition.optimal, TerminationCondition.feasible, TerminationCondition.unknown
        ):
            # e.g. the process exited 0 without writing its solution file: Pyomo then
            # reports an empty solution, which must not be loaded as all zeros.
            rc = getattr(solver, "_rc", None)
            if not isinstance(rc, int):
                return failed(f"{self.name} reported status '{termination.value}' but no variable values")
            return failed(
                f"{self.executable} exited with return code {rc} without reporting a solution; "
                f"check that '{shutil.which(self.executable)}' is a working {self.name}"
            )
        has_solution = reported and termination not in (
            TerminationCondition.infeasible,
            TerminationCondition.unbounded,
            TerminationCondition.infeasible_or_unbounded,
        )
        objective = None
        if has_solution:
            model.solutions.load_from(results)
            fill_unreported_values(cleared)
            objective = float(objective_component())
        minimize = objective_component.is_minimizing()
        bound = finite_or_none(results.problem.lower_bound if minimize else results.problem.upper_bound)
        if termination is TerminationCondition.optimal and bound is None:
            bound = objective
        return SolveResult(
            termination=termination,
            objective=objective,
            bound=bound,
            wall_time=time.perf_counter() - start,
            solver_name=self.name,
            solver_version=self.version() or "",
            has_solution=has_solution,
            message=_status_text(results),
        )
