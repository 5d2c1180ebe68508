"""Any other solver Pyomo's classic ``SolverFactory`` knows (gurobi, cplex, scip, xpress, ``*_persistent`` ...).

The generic adapter solves every model through ``SolverFactory(name)``, the
one stable route Pyomo keeps for all its solvers. Shell solvers among them
run under the same supervision as :mod:`solvers.shell` (the wall-clock
watchdog, process failures as ``error`` results, Ctrl-C as
``KeyboardInterrupt``, no output on stdout unless ``tee=True``); native
options of any solver are passed as they are (only the glpk and cbc backends
check theirs).

Pyomo's persistent interfaces (``gurobi_persistent``, ``cplex_persistent``
...) are used through ``set_instance`` before every solve: the whole model
is sent again, so the result is always right but a re-solve is not
incremental. No in-place route is offered for them because none can be
tested here (they need licensed solvers); the first such solve in a process
says so with a :class:`~solvers.base.SolverFallbackWarning`. HiGHS
(:mod:`solvers.highs`) is the backend for fast re-solves.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from solvers._classic import ClassicBackend
from solvers._common import clear_unfixed_values, error_result, map_legacy_termination
from solvers._watchdog import DEFAULT_TIME_LIMIT
from solvers.base import Availability, MipProgress, ModelChanges, SolveConfig, SolveResult, SolverFallbackWarning
from solvers.options import translate_options

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_TIME_LIMIT", "GenericBackend", "pyomo_knows"]

_warned_persistent: set[str] = set()


@contextlib.contextmanager
def _quiet_pyomo() -> Iterator[None]:
    """Silence Pyomo's own warning and traceback when probing an absent solver."""
    pyomo_logger = logging.getLogger("pyomo")
    previous = pyomo_logger.level
    pyomo_logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        pyomo_logger.setLevel(previous)


def pyomo_knows(name: str) -> bool:
    """Whether ``name`` is registered in Pyomo's classic ``SolverFactory``.

    Parameters
    ----------
    name : str
        A Pyomo solver name.

    Returns
    -------
    bool
        True when ``SolverFactory`` knows ``name`` (the solver may still be missing).
    """
    import pyomo.environ  # noqa: F401  (registers the solver plugins)
    from pyomo.opt import SolverFactory

    try:
        return SolverFactory.get_class(name) is not None
    except KeyError:
        return False


def _make_solver(name: str) -> Any:
    from pyomo.opt import SolverFactory

    with _quiet_pyomo():
        return SolverFactory(name)


@functools.cache
def _probe(name: str) -> tuple[bool, str]:
    try:
        with _quiet_pyomo():
            ok = bool(_make_solver(name).available(exception_flag=False))
    except Exception as exc:  # any failure to start means "not available here"
        return False, f"Pyomo could not start '{name}': {exc}"
    return ok, "" if ok else f"Pyomo reports solver '{name}' is not available (not installed or not licensed)"


@functools.cache
def _version(name: str) -> str | None:
    try:
        version = _make_solver(name).version()
    except Exception:  # a broken solver must not break listing the solvers
        logger.debug("could not read the version of %s", name, exc_info=True)
        return None
    if version is None:
        return None
    return ".".join(str(part) for part in version)


def _is_shell(solver: Any) -> bool:
    from pyomo.opt.solver.shellcmd import SystemCallSolver

    return isinstance(solver, SystemCallSolver)


class GenericBackend(ClassicBackend):
    """Adapter for any solver name registered with Pyomo's classic ``SolverFactory``.

    Parameters
    ----------
    name : str
        The Pyomo solver name (``gurobi``, ``gurobi_persistent``, ``scip`` ...).
    options : mapping, optional
        Native options applied to every solve.
    threads : int, optional
        Threads, translated to the solver's option where known.
    default_time_limit : float, default=DEFAULT_TIME_LIMIT
        The watchdog's limit for shell solvers when ``solve`` gets no time limit.
    grace : float, optional
        Seconds a shell solver may run past its limit before the watchdog kills it.
    tee : bool, default=False
        Show the solver's output on stdout.

    Notes
    -----
    :meth:`solve` reads the whole model and loads every variable at every
    solve, so ``changes``, ``load`` and ``config.warm_start`` change nothing
    here; nor does ``config.mip_start`` (no MIP start through this adapter).
    ``config.time_limit`` None gives the solver no limit (a solver process is
    still stopped by the watchdog after ``default_time_limit``);
    ``config.options`` are applied over the backend's own. ``progress`` is
    called at the start and the end of a MIP solve.
    """

    def available(self) -> Availability:
        """Whether Pyomo's solver of this name can be used, with the reason when it cannot.

        Returns
        -------
        Availability
            Available when Pyomo knows the solver name and a probe of it succeeds; else the reason.
        """
        if not pyomo_knows(self.name):
            return Availability(False, f"Pyomo has no solver named '{self.name}'")
        ok, reason = _probe(self.name)
        return Availability(ok, reason)

    def version(self) -> str | None:
        """The solver's version string, or None when unavailable.

        Returns
        -------
        str or None
            The version Pyomo's solver reports (``major.minor.patch``); None when it is unavailable or its version
            cannot be read.
        """
        if not self.available():
            return None
        return _version(self.name)

    def route(self) -> str:
        """How models reach the solver, in words.

        Returns
        -------
        str
            ``Pyomo SolverFactory('name')``; a persistent solver also says that it sets the whole model before
            every solve.
        """
        if self.name.endswith("_persistent"):
            return f"Pyomo persistent SolverFactory('{self.name}'): set_instance (the whole model) before every solve"
        return f"Pyomo SolverFactory('{self.name}')"

    def _warn_persistent(self) -> None:
        if self.name in _warned_persistent:
            return
        _warned_persistent.add(self.name)
        warnings.warn(
            f"{self.name}: Pyomo's persistent interface is used through set_instance before every solve "
            "(route: Pyomo persistent, whole model re-sent), because rulemodels has no tested in-place update "
            "route for it; results are the same, re-solves are slower. Use solver='highs' for fast re-solves.",
            SolverFallbackWarning, stacklevel=3,
        )

    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """Solve ``model`` through ``SolverFactory(name)`` (``changes`` and ``load`` are not used: see the Notes)."""
        start = time.perf_counter()
        status = self.available()
        if not status:
            return error_result(self.name, None, start, status.reason)
        version = self.version()
        native = translate_options(self.name, time_limit=config.time_limit, mip_gap=config.mip_gap, threads=self.threads)
        native.update(self.options)
        native.update(config.options)
        solver = _make_solver(self.name)
        shell = _is_shell(solver)
        path = str(solver.executable()) if shell else self.name
        persistent = hasattr(solver, "set_instance")
        if persistent:
            self._warn_persistent()

        def call(**keywords: Any) -> Any:
            if not shell:  # in process: no solver process to watch
                keywords.pop("timelimit", None)
            if persistent:
                solver.set_instance(model)
                return solver.solve(load_solutions=False, options=native, tee=self.tee, **keywords)
            return solver.solve(model, load_solutions=False, options=native, tee=self.tee, **keywords)

        cleared = clear_unfixed_values(model)
        results, failed = self._run(
            call, executable=self.name, path=path, version=version, start=start, time_limit=config.time_limit, shell=shell,
            progress=progress,
        )
        if failed is not None:
            return failed
        termination = map_legacy_termination(results.solver.termination_condition, self.name)
        return self._result(
            results, model, termination, cleared=cleared, executable=self.name, path=path, version=version, start=start,
            progress=progress,
        )
