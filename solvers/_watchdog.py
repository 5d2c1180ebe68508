"""The wall-clock watchdog of a classic solve: a one-shot ``SIGALRM`` timer that stops a hung solver process.

When Pyomo starts the solver process, the timer is set for the deadline (the
time limit plus a grace period, :func:`watchdog_deadline`); if it fires,
:class:`WatchdogExpired` is raised in the main thread, where
``subprocess.run`` is waiting for the process, and ``subprocess.run`` kills
the process and re-raises it. Waiting stays a blocking wait, so the watchdog
costs nothing per solve. Where no timer can be used (not the main thread, no
``SIGALRM`` on this platform, or a timer already set by someone else,
:meth:`Watchdog.unusable_reason`) the caller falls back to Pyomo's
``timelimit`` keyword: Pyomo then kills the process max(1 s, 1 %) after that
limit and raises :class:`subprocess.TimeoutExpired` (its wait polls, which
costs some milliseconds per solve). Standard library only.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

DEFAULT_TIME_LIMIT = 3600.0
"""Seconds a shell solve may take when no time limit is given (the watchdog needs one)."""

WATCHDOG_GRACE = 5.0
"""Seconds a solver may run past its time limit before the watchdog kills it (at least;
10 % of the limit when that is more): time to stop, write its solution, or read a
large model file, which solvers do not count in their time limit."""


class WatchdogExpired(BaseException):
    """Raised in the main thread when a solver process overran its deadline (a BaseException,
    so that no ``except Exception`` on the way swallows it)."""


class Watchdog:
    """A one-shot ``SIGALRM`` timer that raises :class:`WatchdogExpired` after ``seconds``.

    :meth:`claim` installs it when it can be used here; :meth:`arm` starts the
    clock (when the solver process starts); :meth:`release` stops it and puts
    back the previous handler.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._previous: Any = None

    @staticmethod
    def unusable_reason() -> str:
        """Why no timer can be used here ('' when one can): it needs the main thread, a platform
        with ``setitimer``, and no ``SIGALRM`` handler or timer of someone else."""
        if not hasattr(signal, "setitimer"):
            return "this platform has no SIGALRM timer"
        if threading.current_thread() is not threading.main_thread():
            return "the solve does not run in the main thread"
        if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None) or signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0):
            return "SIGALRM is already used by other code"
        return ""

    def claim(self) -> None:
        self._previous = signal.signal(signal.SIGALRM, self._expire)

    def arm(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, self.seconds)

    def disarm(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0.0)

    def release(self) -> None:
        self.disarm()
        signal.signal(signal.SIGALRM, self._previous if self._previous is not None else signal.SIG_DFL)

    def _expire(self, signum: int, frame: Any) -> None:
        raise WatchdogExpired(f"no answer within {self.seconds:g} s")


def watchdog_deadline(limit: float, grace: float | None = None) -> float:
    """Seconds from the start of a solver process to the watchdog's kill: the limit plus the grace."""
    return limit + (max(WATCHDOG_GRACE, 0.1 * limit) if grace is None else grace)
