"""The iteration log of BCD and AM: one fixed-width line per iteration, and a progress bar on a terminal.

With the ``rulemodels`` loggers at INFO (``verbose=True``, CLI ``-v``) each
iteration logs ``iteration, objective, training error, literals`` as one
fixed-width line under a header, as Pyomo's GDPopt does::

        AM  iter      objective  train error  literals
        AM     0        193.360       0.2227         4

The training error and literal count are computed only when the line is
logged: with the logger off, an iteration costs one ``isEnabledFor`` check.
When the log is on and stderr is a terminal, a tqdm bar counts the
iterations (up to ``max_iter``) with an ETA; it is never shown in a pipe.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import numpy as np

from rulemodels.utils import progress_bar, stderr_is_terminal

__all__ = ["IterationLog"]

_HEADER = "{name:>6}  {iter:>4}  {objective:>13}  {error:>11}  {literals:>8}"
_LINE = "{name:>6}  {iter:>4d}  {objective:>13.6g}  {error:>11.4f}  {literals:>8d}"


def training_error(data: Any, W: np.ndarray) -> float:
    """Weighted training error of the CNF of ``W`` on the working data (the learned form's error)."""
    if W.shape[1] == 0:
        predicted = np.ones(data.A.shape[0], dtype=bool)
    else:
        predicted = (data.A @ W > 0.5).all(axis=1)
    wrong = predicted != (data.y > 0.5)
    total = float(data.weight.sum())
    return float(data.weight[wrong].sum() / total) if total > 0 else 0.0


class IterationLog:
    """Logs BCD/AM iterations through ``logger`` (and a tqdm bar on a terminal), at no cost when off."""

    def __init__(self, logger: logging.Logger, name: str, data: Any, max_iter: int):
        self.logger = logger
        self.name = name
        self.data = data
        self.enabled = logger.isEnabledFor(logging.INFO)
        self.bar = None
        if self.enabled:
            logger.info(_HEADER.format(name=name, iter="iter", objective="objective", error="train error", literals="literals"))
            if stderr_is_terminal():
                self.bar = progress_bar(max_iter, name, "iter")

    def iteration(self, iteration: int, W: np.ndarray, objective: float) -> None:
        """Log one iteration's state (nothing is computed when the log is off)."""
        if not self.enabled:
            return
        line = _LINE.format(
            name=self.name, iter=iteration, objective=objective,
            error=training_error(self.data, W), literals=int(np.rint(W.sum())),
        )
        if self.bar is not None:
            self.bar.update(1)
            self.bar.write(line, file=sys.stderr)
        else:
            self.logger.info(line)

    def close(self, stop: str) -> None:
        """End the bar, and log why the iterations stopped."""
        if self.bar is not None:
            self.bar.close()
        if self.enabled:
            self.logger.info("%6s  stopped: %s", self.name, stop)
