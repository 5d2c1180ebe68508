"""solvers: the solver-backend layer of rulemodels.

One narrow protocol (:class:`Backend`) for solving any Pyomo model, typed
results (:class:`SolveResult`, :class:`TerminationCondition`), and a registry
mapping names to adapters (:func:`get_backend`). This package knows nothing
of rules; ``rulemodels`` builds models and hands them to a backend.
"""

from solvers.base import (
    Availability,
    Backend,
    Capabilities,
    ModelChanges,
    SolverFallbackWarning,
    SolveError,
    SolveResult,
    SolverError,
    SolverNotFoundError,
    TerminationCondition,
)
from solvers.generic import GenericBackend
from solvers.highs import HighsBackend
from solvers.options import COMMON_OPTION_NAMES, translate_options
from solvers.registry import (
    DEFAULT_SOLVER,
    INSTALL_HINTS,
    BackendInfo,
    available_backends,
    describe_backends,
    get_backend,
    register_backend,
    registered_backends,
)
from solvers.shell import ShellBackend

__all__ = [
    "Availability",
    "Backend",
    "BackendInfo",
    "Capabilities",
    "ModelChanges",
    "SolverFallbackWarning",
    "COMMON_OPTION_NAMES",
    "DEFAULT_SOLVER",
    "GenericBackend",
    "HighsBackend",
    "INSTALL_HINTS",
    "ShellBackend",
    "SolveError",
    "SolveResult",
    "SolverError",
    "SolverNotFoundError",
    "TerminationCondition",
    "available_backends",
    "describe_backends",
    "get_backend",
    "register_backend",
    "registered_backends",
    "translate_options",
]
