"""Any other solver Pyomo's ``SolverFactory`` knows (gurobi, cplex, scip, xpress, ...).

The generic adapter drives the solver through Pyomo's legacy interface. For
Pyomo's ``*_persistent`` solvers it calls ``set_instance`` before every solve:
correct whatever the driver changed, but not incremental, so it reports
``is_persistent = False``. Write a dedicated adapter (see
:mod:`solvers.highs`) to get incremental re-solves from another solver.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import Any, Iterator, Mapping

from solvers.base import Availability
from solvers.shell import ShellBackend

logger = logging.getLogger(__name__)

__all__ = ["GenericBackend", "pyomo_knows"]


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
    """Whether ``name`` is registered in Pyomo's legacy ``SolverFactory``."""
    import pyomo.environ  # noqa: F401  (registers the solver plugins)
    from pyomo.opt import SolverFactory

    try:
        return SolverFactory.get_class(name) is not None
    except KeyError:
        return False


@functools.lru_cache(maxsize=None)
def _probe(name: str) -> tuple[bool, str]:
    from pyomo.opt import SolverFactory

    with _quiet_pyomo():
        try:
            solver = SolverFactory(name)
            ok = bool(solver.available(exception_flag=False))
        except Exception as exc:  # any failure to start means "not available here"
            return False, f"Pyomo could not start '{name}': {exc}"
    return ok, "" if ok else f"Pyomo reports solver '{name}' is not available (not installed or not licensed)"


class GenericBackend(ShellBackend):
    """Adapter for any solver name registered with Pyomo's ``SolverFactory``."""

    def __repr__(self) -> str:
        return f"GenericBackend({self.name!r}, options={self.options!r})"

    def available(self) -> Availability:
        if not pyomo_knows(self.name):
            return Availability(False, f"Pyomo has no solver named '{self.name}'")
        ok, reason = _probe(self.name)
        return Availability(ok, reason)

    def version(self) -> str | None:
        if not self.available():
            return None
        from solvers.shell import _legacy_version

        return _legacy_version(self.name)

    def route(self) -> str:
        return f"Pyomo SolverFactory('{self.name}')" + (", set_instance before every solve" if self.name.endswith("_persistent") else "")

    def _make_solver(self) -> Any:
        from pyomo.opt import SolverFactory

        with _quiet_pyomo():
            return SolverFactory(self.name)

    def _run(self, solver: Any, model: Any, native: Mapping[str, Any]) -> Any:
        if hasattr(solver, "set_instance"):
            solver.set_instance(model)
            return solver.solve(load_solutions=False, options=dict(native))
        return solver.solve(model, load_solutions=False, options=dict(native))
