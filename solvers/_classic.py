"""What the backends on Pyomo's classic ``SolverFactory`` share (:mod:`solvers.shell`, :mod:`solvers.generic`).

:class:`ClassicBackend` holds their settings and runs one ``solve`` call
under supervision (:func:`solvers._supervise.supervised`), turning every
failure of the solver process into an ``error`` result that says what
happened. It is a base class of both adapters; neither derives from the other.
"""

from __future__ import annotations

import logging
import math
import subprocess
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from solvers._common import classic_result, error_result
from solvers._failure import process_failure, watchdog_message
from solvers._supervise import supervised
from solvers._watchdog import DEFAULT_TIME_LIMIT, WatchdogExpired, watchdog_deadline
from solvers.base import (
    BackendBase,
    Capabilities,
    MipProgress,
    SolveResult,
    SolverFallbackWarning,
    TerminationCondition,
)
from solvers.signals import reraise_interrupt

logger = logging.getLogger(__name__)

__all__ = ["ClassicBackend"]

_warned: set[tuple[str, str]] = set()


def _warn_no_timer(name: str, reason: str) -> None:
    """Say once per process and reason that Pyomo's timeout watches the solver process instead of the timer."""
    if (name, reason) in _warned:
        return
    _warned.add((name, reason))
    warnings.warn(
        f"{name}: the watchdog cannot use its SIGALRM timer because {reason}; Pyomo's timelimit watches the "
        "solver process instead (route: Pyomo SolverFactory shell with timelimit): the solver gets the time "
        "limit (or default_time_limit) as its own, is killed max(1 s, 1 %) after it, and each solve waits "
        "by polling, a few milliseconds slower",
        SolverFallbackWarning, stacklevel=4,
    )


class ClassicBackend(BackendBase):
    """Settings and supervised solves of an adapter on Pyomo's classic ``SolverFactory``.

    Parameters
    ----------
    name : str
        The Pyomo solver name.
    options : mapping, optional
        Native options applied to every solve.
    threads : int, optional
        Threads, translated to the solver's option where known.
    default_time_limit : float, default=DEFAULT_TIME_LIMIT
        The watchdog's limit when ``solve`` gets no time limit.
    grace : float, optional
        Seconds a solver process may run past its limit before the watchdog
        kills it; default max(``WATCHDOG_GRACE``, 10 % of the limit).
    tee : bool, default=False
        Show the solver's output on stdout.
    """

    capabilities = Capabilities(
        persistent=False, warm_start=False, mip=True, time_limit=True, in_place_updates=False, duals=True,
    )

    def __init__(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        threads: int | None = None,
        *,
        default_time_limit: float = DEFAULT_TIME_LIMIT,
        grace: float | None = None,
        tee: bool = False,
    ):
        for setting, value in (("default_time_limit", default_time_limit), ("grace", grace)):
            if value is not None and not value > 0:
                raise ValueError(f"{setting} must be a positive number of seconds, got {value!r}")
        self.name = name
        self.options = dict(options or {})
        self.threads = threads
        self.default_time_limit = float(default_time_limit)
        self.grace = grace
        self.tee = tee
        self.n_solves = 0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, options={self.options!r})"

    def release(self, model: Any) -> None:
        """Do nothing: nothing is kept between solves.

        Parameters
        ----------
        model : object
            The model whose solver state to release.
        """

    def _limit(self, time_limit: float | None) -> float:
        """The watchdog's limit: the time limit, or ``default_time_limit`` without one."""
        return self.default_time_limit if time_limit is None else float(time_limit)

    def _run(
        self, call: Callable[..., Any], *, executable: str, path: str, version: str | None, start: float,
        time_limit: float | None, shell: bool = True, progress: Callable[[MipProgress], None] | None = None,
    ) -> tuple[Any, SolveResult | None]:
        """``(results, None)`` from Pyomo's solve, or ``(None, error result)`` when its process failed.

        ``call(**keywords)`` runs Pyomo's solve with the extra keywords given:
        ``timelimit`` (whole seconds) when the watchdog cannot use a timer here,
        so that Pyomo's own subprocess timeout watches the process instead.
        Without the timer (``shell``: a solver process is run) that fallback is
        said once per process with a :class:`SolverFallbackWarning`. An
        exception raised before the solver process was started (writing the
        model) is not a solver fault and propagates. ``progress`` hears of the
        start only: the solver's own log is not followed while it runs.
        """
        from pyomo.common.errors import ApplicationError

        self.n_solves += 1
        if progress is not None:
            progress(MipProgress("start", time.perf_counter() - start, follows=False))
        limit = self._limit(time_limit)
        deadline = watchdog_deadline(limit, self.grace)
        with supervised(tee=self.tee, deadline=deadline) as observed:
            keywords = {}
            if observed.watchdog is None:
                keywords["timelimit"] = max(1, math.ceil(limit))
                if observed.no_timer and shell:
                    _warn_no_timer(self.name, observed.no_timer)
            try:
                results = call(**keywords)
                if observed.watchdog is not None:
                    observed.watchdog.disarm()
                return results, None
            except WatchdogExpired:
                message = watchdog_message(executable, path, self.name, deadline, time_limit, limit)
                logger.warning("%s", message)
            except subprocess.TimeoutExpired as exc:
                message = watchdog_message(executable, path, self.name, exc.timeout, time_limit, limit)
                logger.warning("%s", message)
            except ApplicationError as exc:
                reraise_interrupt(exc)
                message = process_failure(executable, observed, exc)
            except Exception as exc:
                reraise_interrupt(exc)  # e.g. Pyomo's output tee re-raises a Ctrl-C as a RuntimeError
                if not observed.started:
                    raise
                message = (
                    f"{executable} exited with return code 0 but its solution could not be read "
                    f"({type(exc).__name__}: {exc}); check that '{path}' is a working {self.name}"
                )
        return None, error_result(self.name, version, start, message)

    def _result(
        self, results: Any, model: Any, termination: TerminationCondition, *, cleared: list[Any], executable: str,
        path: str, version: str | None, start: float, progress: Callable[[MipProgress], None] | None = None,
    ) -> SolveResult:
        """The typed result of Pyomo's ``results``, loaded into ``model`` (an error when no values came back);
        ``progress`` hears of the end, with the final incumbent and bound."""
        result = classic_result(results, model, termination, cleared=cleared, name=self.name, version=version, start=start)
        if result is not None:
            if progress is not None:
                progress(MipProgress("end", result.wall_time, result.objective, result.bound))
            return result
        # e.g. the process exited 0 without writing its solution file: Pyomo then
        # reports an empty solution, which must not be loaded as all zeros.
        return error_result(self.name, version, start, (
            f"{executable} finished (status '{termination.value}') without reporting a solution; "
            f"check that '{path}' is a working {self.name}"
        ))

