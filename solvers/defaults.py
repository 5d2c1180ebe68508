"""The solver names every layer shares, declared once: the default solver and the built-in ones.

Standard library only (no Pyomo, no numpy): :mod:`rulemodels.defaults`, the
lowest layer of ``rulemodels``, re-exports these constants so that the
command line reads them without loading a solver, and
:mod:`solvers.registry` builds its table from them.
"""

from __future__ import annotations

__all__ = ["BUILTIN_SOLVERS", "DEFAULT_SOLVER"]

#: The backend used when none is named: HiGHS, which comes with the package (highspy).
DEFAULT_SOLVER = "highs"

#: The solvers with a dedicated adapter (:func:`solvers.registered_backends` lists them in this order, the
#: default first); any other Pyomo solver name works through the generic adapter.
BUILTIN_SOLVERS: tuple[str, ...] = (DEFAULT_SOLVER, "cbc", "glpk", "scip")
