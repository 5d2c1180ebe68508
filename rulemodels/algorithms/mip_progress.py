"""What a long MIP says while it runs: incumbent, bound, gap and elapsed seconds, and how to bound it.

The exact MIP (``algorithm="exact"``, ``rulemodels exact``) passes a
:class:`MipReporter` as the ``progress`` callback of the backend's ``solve``
(:class:`solvers.base.MipProgress`; HiGHS reports each better solution and
the state every second, CBC and GLPK the start and the end). The reporter

* logs a line through the ``rulemodels.progress`` logger at INFO once the
  solve has run two seconds (:data:`rulemodels.utils.PROGRESS_DELAY`; a
  shorter solve says nothing), then every :data:`LOG_INTERVAL` seconds and at
  each better solution (at most one a second), and at the end (the command
  line shows this logger by default)::

      exact MIP   12.0 s: incumbent 193.36, bound 150.21, gap 22.3%, 1234 nodes

* draws a delayed bar with the same figures on a terminal or in a notebook
  (:func:`rulemodels.utils.progress_bar`; the seconds out of the time limit),
  with the lines written above it when the logger is on.

:func:`advise_time_limit` says, once at the start, how to bound a MIP run
without a time limit on more than a small problem.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from rulemodels.utils import PROGRESS_DELAY, progress_bar, progress_enabled
from solvers.base import MipProgress

__all__ = ["LOG_INTERVAL", "NO_LIMIT_ADVICE_SIZE", "MipReporter", "advise_time_limit"]

logger = logging.getLogger("rulemodels.progress")

LOG_INTERVAL = 5.0
"""Seconds between two progress lines of a running MIP (the first solution and the end are always logged)."""

NO_LIMIT_ADVICE_SIZE = 5_000
"""Distinct rows x literals from which a MIP without time limit says how to bound it: about 100 rows x 50
literals, which HiGHS may not prove optimal in minutes (Pima, 768 rows, ran 9.5 minutes); tiny problems say nothing."""


def _say(line: str, bar: Any = None) -> None:
    """``line`` above the bar when one is drawn (or could be: a terminal or a notebook), else to the logger."""
    if bar is not None and not bar.disable:
        bar.write(line, file=sys.stderr)
    elif bar is None and progress_enabled():
        from tqdm import tqdm

        tqdm.write(line, file=sys.stderr)
    elif logger.isEnabledFor(logging.INFO):
        logger.info("%s", line)


def advise_time_limit(n_rows: int, n_features: int, time_limit: float | None, *, what: str = "exact MIP") -> bool:
    """Say once how to bound a MIP without time limit on ``n_rows`` distinct rows x ``n_features`` literals.

    Nothing when there is a time limit or the problem is smaller than
    :data:`NO_LIMIT_ADVICE_SIZE`; the advice goes to the terminal or
    notebook, else to the ``rulemodels.progress`` logger.

    Parameters
    ----------
    n_rows : int
        The number of distinct rows of the MIP.
    n_features : int
        The number of literals (features) of the MIP.
    time_limit : float or None
        The solve's time limit in seconds; None: none (then a large problem gets the advice).
    what : str, default="exact MIP"
        What is solved, at the start of the advice.

    Returns
    -------
    bool
        Whether the problem is that large (``n_rows * n_features >= NO_LIMIT_ADVICE_SIZE``), with or
        without time limit.
    """
    large = n_rows * n_features >= NO_LIMIT_ADVICE_SIZE
    if time_limit is not None or not large:
        return large
    _say(
        f"{what}: no time limit: the MIP on {n_rows} distinct rows x {n_features} literals may run for minutes "
        "or hours; pass time_limit=60 (CLI: --time-limit 60) to stop with the best rule found by then"
    )
    return True


def _figures(progress: MipProgress) -> str:
    """``incumbent ..., bound ..., gap ..., N nodes`` (``-`` for what is not known yet)."""
    gap = progress.gap
    parts = [
        f"incumbent {'-' if progress.incumbent is None else f'{progress.incumbent:.6g}'}",
        f"bound {'-' if progress.bound is None else f'{progress.bound:.6g}'}",
        f"gap {'-' if gap is None else f'{100 * gap:.1f}%'}",
    ]
    if progress.nodes is not None:
        parts.append(f"{progress.nodes} nodes")
    return ", ".join(parts)


class MipReporter:
    """The ``progress`` callback of a MIP solve: log lines and a delayed bar (see the module docstring).

    Used as a context manager around the solve (``with MipReporter(...) as
    progress: backend.solve(..., progress=progress)``), so that the bar is
    closed however the solve ends.

    Parameters
    ----------
    what : str
        Names the MIP in the lines (``"exact MIP"``).
    time_limit : float or None
        The solve's time limit: the bar's total, in seconds (None: a bar without total).
    large : bool, default=False
        The problem is not small (:data:`NO_LIMIT_ADVICE_SIZE`): a backend that
        reports only the start and the end (CBC, GLPK) says so at the start.
    """

    def __init__(self, what: str, time_limit: float | None, *, large: bool = False):
        self.what = what
        self.time_limit = time_limit
        self.large = large
        self.bar: Any = None
        self.last_line = 0.0
        self.logged = False

    def __call__(self, progress: MipProgress) -> None:
        """Report one :class:`~solvers.base.MipProgress` event.

        Parameters
        ----------
        progress : MipProgress
            The event (``"start"``, ``"incumbent"``, ..., ``"end"``) with the solve's elapsed seconds,
            incumbent, bound, gap and nodes so far.
        """
        if progress.event == "start":
            self.bar = progress_bar(None if self.time_limit is None else max(1, round(self.time_limit)), self.what, "s")
            if not progress.follows and self.large:
                _say(f"{self.what}: this solver reports the incumbent, bound and gap only at the end "
                     "(HiGHS reports them as it goes: solver='highs', CLI: --solver highs)")
            return
        if self.bar is not None and not self.bar.disable:
            seconds = round(progress.elapsed) if self.bar.total is None else min(self.bar.total, round(progress.elapsed))
            self.bar.set_postfix_str(_figures(progress), refresh=False)
            self.bar.update(seconds - self.bar.n)  # update, not refresh: nothing is drawn before the bar's delay
        elapsed = progress.elapsed
        if elapsed < PROGRESS_DELAY and not self.logged:  # short work says nothing
            if progress.event == "end":
                self.close()
            return
        if progress.event == "end":
            line = f"{self.what} {elapsed:7.1f} s: done: {_figures(progress)}"
        elif (elapsed - self.last_line >= LOG_INTERVAL or not self.logged
              or (progress.event == "incumbent" and elapsed - self.last_line >= 1.0)):
            line = f"{self.what} {elapsed:7.1f} s: {_figures(progress)}"
        else:
            return
        self.last_line, self.logged = elapsed, True
        if self.bar is not None and not self.bar.disable:
            if logger.isEnabledFor(logging.INFO):
                self.bar.write(line, file=sys.stderr)
        elif logger.isEnabledFor(logging.INFO):
            logger.info("%s", line)
        if progress.event == "end":
            self.close()

    def __enter__(self) -> MipReporter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the bar (also when the solve failed before its end was reported); leaving a ``with`` block does."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
