"""solvers: the solver-backend layer of rulemodels.

One narrow protocol (:class:`Backend`) for solving any Pyomo model, typed
results (:class:`SolveResult`, :class:`TerminationCondition`), and a registry
mapping names to adapters (:func:`get_backend`). This package knows nothing
of rules; ``rulemodels`` builds models and hands them to a backend.

The names are imported on first use (PEP 562): :mod:`solvers.signals`
(Ctrl-C and SIGTERM handling, standard library only), which the command line
imports at start-up, loads neither Pyomo nor numpy.
"""

from __future__ import annotations

from solvers.lazy import lazy_exports

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (milliseconds of `import rulemodels`)

#: public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        ("Availability", "Backend", "Capabilities", "MipProgress", "ModelChanges", "NewColumns", "NewRows",
         "SolveConfig", "SolverFallbackWarning", "SolveError", "SolveResult", "SolverError", "SolverNotFoundError",
         "TerminationCondition"),
        "solvers.base",
    ),
    "GenericBackend": "solvers.generic",
    "HighsBackend": "solvers.highs",
    "ShellBackend": "solvers.shell",
    "COMMON_OPTION_NAMES": "solvers.options",
    "translate_options": "solvers.options",
    **dict.fromkeys(("BUILTIN_SOLVERS", "DEFAULT_SOLVER"), "solvers.defaults"),
    **dict.fromkeys(
        ("INSTALL_HINTS", "BackendInfo", "available_backends", "describe_backends", "get_backend",
         "register_backend", "registered_backends"),
        "solvers.registry",
    ),
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from solvers.base import (
        Availability,
        Backend,
        Capabilities,
        MipProgress,
        ModelChanges,
        NewColumns,
        NewRows,
        SolveConfig,
        SolveError,
        SolverError,
        SolveResult,
        SolverFallbackWarning,
        SolverNotFoundError,
        TerminationCondition,
    )
    from solvers.defaults import BUILTIN_SOLVERS, DEFAULT_SOLVER
    from solvers.generic import GenericBackend
    from solvers.highs import HighsBackend
    from solvers.options import COMMON_OPTION_NAMES, translate_options
    from solvers.registry import (
        INSTALL_HINTS,
        BackendInfo,
        available_backends,
        describe_backends,
        get_backend,
        register_backend,
        registered_backends,
    )
    from solvers.shell import ShellBackend

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
