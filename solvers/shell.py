"""GLPK and CBC through Pyomo's classic ``SolverFactory`` (the ``glpsol`` and ``cbc`` binaries).

These backends are not persistent: every solve writes an LP file, starts the
solver process and reads its solution back. They are the reference route for
exact MIPs (``rulemodels exact --solver cbc``) and for checking HiGHS.

A broken or hung solver cannot break or hang a fit:

* the binary is checked before it is used: ``glpsol --version`` /
  ``cbc -stop`` must answer with a GLPK / CBC version, else the backend is
  not available and says what is wrong with which executable;
* every solve runs under a wall-clock watchdog (:mod:`solvers._watchdog`): the
  solver process is killed when it is still running a grace period
  (max(``WATCHDOG_GRACE``, 10 %)) after its time limit, or after
  ``default_time_limit`` (:data:`DEFAULT_TIME_LIMIT` seconds) when none is
  given; the result is then an ``error`` saying so;
* a process that fails (killed by a signal, non-zero exit, unreadable or
  missing solution) gives a ``SolveResult`` with ``TerminationCondition.error``
  and a message saying what happened; Pyomo's exceptions never leave
  :meth:`ShellBackend.solve`, and a Ctrl-C reaches the caller as
  ``KeyboardInterrupt``;
* every native option is tried on the binary first (cached): one it rejects
  is a ``ValueError`` naming it;
* nothing reaches stdout unless ``tee=True``.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solvers._classic import ClassicBackend
from solvers._common import clear_unfixed_values, error_result, install_hint, map_legacy_termination
from solvers._probe import CBC_OPTIONS, GLPSOL_OPTIONS, OptionSyntax, check_binary, check_options
from solvers._watchdog import DEFAULT_TIME_LIMIT
from solvers.base import Availability, MipProgress, ModelChanges, SolveConfig, SolveResult, TerminationCondition
from solvers.options import translate_options

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_TIME_LIMIT", "EXECUTABLES", "ShellBackend"]

#: solver name -> executable it needs on PATH
EXECUTABLES = {"glpk": "glpsol", "cbc": "cbc"}

#: solver name -> (arguments of its version probe, what the answer must contain)
_VERSION_PROBES = {"glpk": (("--version",), "GLPK"), "cbc": (("-stop",), "CBC")}

_OPTION_SYNTAX: dict[str, OptionSyntax] = {"glpk": GLPSOL_OPTIONS, "cbc": CBC_OPTIONS}


class ShellBackend(ClassicBackend):
    """A solver binary (glpsol or cbc) driven through Pyomo's classic ``SolverFactory``.

    Parameters
    ----------
    name : {"glpk", "cbc"}
        The Pyomo solver name.
    options : mapping, optional
        Native options applied to every solve (``{"nopresol": ""}`` ...),
        checked on the binary at the first solve.
    threads : int, optional
        Threads, for solvers that support them (CBC).
    **settings : object
        Keyword settings of :class:`~solvers._classic.ClassicBackend`: ``default_time_limit``
        (float, default=DEFAULT_TIME_LIMIT), the watchdog's limit when ``solve`` gets no time limit;
        ``grace`` (float, optional), seconds the process may run past its limit before the watchdog
        kills it; ``tee`` (bool, default=False), show the solver's output on stdout.

    Raises
    ------
    ValueError
        If ``name`` is not a supported executable.

    Notes
    -----
    Every :meth:`solve` reads the whole model, starts from nothing and loads
    every variable, so ``changes``, ``load`` and ``config.warm_start`` change
    nothing here. ``config.mip_start`` with CBC: the nonzero integer values
    the model holds are written as CBC's MIP start (Pyomo's
    ``warmstart=True``; CBC fixes them and solves the LP of the other
    variables to complete the start); GLPK has no MIP start and ignores it.
    ``config.time_limit`` None means the backend's ``default_time_limit``;
    ``config.options`` are applied over the backend's own, and one the binary
    rejects is a ``ValueError`` naming it. ``progress`` is called at the start
    and the end of a MIP solve.
    """

    def __init__(self, name: str, options: Mapping[str, Any] | None = None, threads: int | None = None, **settings: Any):
        if name not in EXECUTABLES:
            raise ValueError(f"ShellBackend drives {', '.join(EXECUTABLES)}, not '{name}' (use GenericBackend)")
        super().__init__(name, options, threads, **settings)
        # CBC reads a MIP start (Pyomo's warmstart=True writes it as a .soln file); glpsol has none
        self.capabilities = dataclasses.replace(ClassicBackend.capabilities, mip_start=name == "cbc")

    @property
    def executable(self) -> str:
        """The binary this backend runs (``glpsol`` for glpk)."""
        return EXECUTABLES[self.name]

    def _path(self) -> tuple[str | None, str]:
        """The binary's path if it is a working solver here, else (None, why not)."""
        path = shutil.which(self.executable)
        if path is None:
            return None, f"executable '{self.executable}' not found on PATH"
        args, marker = _VERSION_PROBES[self.name]
        check = check_binary(path, self.name, args, marker)
        return (path, "") if check.ok else (None, check.reason)

    def available(self) -> Availability:
        """Whether the solver's executable can be used, with the reason when it cannot.

        Returns
        -------
        Availability
            Available when the executable is found and its version probe answers; else the reason.
        """
        path, reason = self._path()
        return Availability(path is not None, reason)

    def version(self) -> str | None:
        """The solver's version string, or None when unavailable.

        Returns
        -------
        str or None
            The version the executable reports; None when it is not found.
        """
        path, _ = self._path()
        if path is None:
            return None
        args, marker = _VERSION_PROBES[self.name]
        return check_binary(path, self.name, args, marker).version

    def route(self) -> str:
        """How models reach the solver, in words.

        Returns
        -------
        str
            Pyomo's shell ``SolverFactory``: an LP file written and the executable run for every solve.
        """
        return f"Pyomo SolverFactory('{self.name}') shell: writes an LP file and runs {self.executable} for every solve"

    def _termination(self, results: Any) -> TerminationCondition:
        raw = results.solver.termination_condition
        if self.name == "glpk" and getattr(raw, "name", "") == "other" and len(results.solution) == 0:
            # glpsol's LP presolver stops with an undefined status (written as
            # 'other' by Pyomo) when it detects primal or dual infeasibility.
            return TerminationCondition.infeasible_or_unbounded
        return map_legacy_termination(raw, self.name)

    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """Write ``model``, run the binary, load the solution (``changes`` and ``load`` are not used: see the Notes)."""
        from pyomo.opt import SolverFactory

        start = time.perf_counter()
        path, reason = self._path()
        if path is None:  # e.g. uninstalled since the backend was made: Pyomo would only log a warning
            return error_result(self.name, None, start, f"{reason}; {install_hint(self.name)}")
        chosen = {**self.options, **config.options}
        check_options(self.name, path, _OPTION_SYNTAX[self.name], chosen)
        native = translate_options(self.name, time_limit=config.time_limit, mip_gap=config.mip_gap, threads=self.threads)
        native.update(chosen)
        version = self.version()
        solver = SolverFactory(self.name, executable=path)
        start_values = _integer_values(model) if config.mip_start and self.capabilities.mip_start else None
        cleared = clear_unfixed_values(model)
        if start_values is not None:
            for var, value in start_values:  # the start is read from the model while Pyomo writes the problem
                var.set_value(value, skip_validation=True)
            keywords_start: dict[str, Any] = {"warmstart": True}
        else:
            keywords_start = {}
        results, failed = self._run(
            lambda **keywords: solver.solve(
                model, load_solutions=False, options=native, tee=self.tee, **keywords_start, **keywords,
            ),
            executable=self.executable, path=path, version=version, start=start, time_limit=config.time_limit,
            progress=progress,
        )
        if failed is not None:
            return failed
        return self._result(
            results, model, self._termination(results), cleared=cleared, executable=self.executable, path=path,
            version=version, start=start, progress=progress,
        )


def _integer_values(model: Any) -> list[tuple[Any, float]]:
    """The unfixed integer and binary variables of ``model`` that hold a value, with it (a MIP start)."""
    import pyomo.environ as pyo

    return [
        (var, var.value) for var in model.component_data_objects(pyo.Var, descend_into=True)
        if not var.fixed and var.value is not None and var.is_integer()
    ]
