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

# The public names, each from the module that defines it (`NAME as NAME`: an explicit re-export): imports
# for type checkers and IDEs, and the table of what __getattr__ imports on first use (lazy_exports reads it).
if TYPE_CHECKING:  # pragma: no cover - never runs
    from solvers.base import Availability as Availability
    from solvers.base import Backend as Backend
    from solvers.base import Capabilities as Capabilities
    from solvers.base import MipProgress as MipProgress
    from solvers.base import ModelChanges as ModelChanges
    from solvers.base import NewColumns as NewColumns
    from solvers.base import NewRows as NewRows
    from solvers.base import SolveConfig as SolveConfig
    from solvers.base import SolveError as SolveError
    from solvers.base import SolverError as SolverError
    from solvers.base import SolveResult as SolveResult
    from solvers.base import SolverFallbackWarning as SolverFallbackWarning
    from solvers.base import SolverNotFoundError as SolverNotFoundError
    from solvers.base import TerminationCondition as TerminationCondition
    from solvers.defaults import BUILTIN_SOLVERS as BUILTIN_SOLVERS
    from solvers.defaults import DEFAULT_SOLVER as DEFAULT_SOLVER
    from solvers.generic import GenericBackend as GenericBackend
    from solvers.highs import HighsBackend as HighsBackend
    from solvers.options import COMMON_OPTION_NAMES as COMMON_OPTION_NAMES
    from solvers.options import translate_options as translate_options
    from solvers.registry import INSTALL_HINTS as INSTALL_HINTS
    from solvers.registry import BackendInfo as BackendInfo
    from solvers.registry import available_backends as available_backends
    from solvers.registry import describe_backends as describe_backends
    from solvers.registry import get_backend as get_backend
    from solvers.registry import register_backend as register_backend
    from solvers.registry import registered_backends as registered_backends
    from solvers.scip import ScipBackend as ScipBackend
    from solvers.shell import ShellBackend as ShellBackend

__getattr__, __dir__ = lazy_exports(__name__)
__all__ = __dir__()  # the names above, sorted
