"""The ``rulemodels`` command line.

Results go to stdout; errors go to stderr with a non-zero exit status and no
traceback unless ``--debug`` is given. Only this package configures logging
and prints. One module per job:

- ``_args``: the arguments of every command (names, defaults, value checks)
  and the exit statuses;
- ``_fit``: the single-fit commands ``solvers``, ``fit``, ``predict``,
  ``export`` and ``exact``;
- ``_sweeps``: the sweep commands ``cv`` and ``reproduce`` (their report
  files are written by :mod:`rulemodels.experiments.reports`);
- ``_main``: :func:`main`, which runs a command and turns its errors,
  interrupts and lost output into messages and exit statuses.

Heavy modules (Pyomo, scikit-learn, pandas, numpy) are imported inside the
commands that need them, so ``--help`` and ``predict`` start fast.
"""

from rulemodels.cli._main import build_parser, main

__all__ = ["build_parser", "main"]
