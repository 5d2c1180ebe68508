"""The one place where solver names are mapped to backend adapters.

>>> from solvers import get_backend
>>> backend = get_backend("highs")          # doctest: +SKIP
>>> result = backend.solve(model)           # doctest: +SKIP

Registered names: ``highs`` (default, persistent), ``glpk``, ``cbc``, ``scip``
(pyscipopt, the optional extra ``rulemodels[scip]``). Any
other name Pyomo's ``SolverFactory`` knows (``gurobi``, ``cplex``,
``gurobi_persistent`` ...) gets a :class:`~solvers.generic.GenericBackend`.
Add an adapter with :func:`register_backend`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from solvers._common import INSTALL_HINTS, install_hint
from solvers.base import Backend, SolverNotFoundError
from solvers.defaults import BUILTIN_SOLVERS, DEFAULT_SOLVER
from solvers.generic import GenericBackend, pyomo_knows
from solvers.highs import HighsBackend
from solvers.scip import ScipBackend
from solvers.shell import ShellBackend

logger = logging.getLogger(__name__)

__all__ = [
    "DEFAULT_SOLVER",
    "INSTALL_HINTS",
    "available_backends",
    "describe_backends",
    "get_backend",
    "register_backend",
    "registered_backends",
]

BackendFactory = Callable[..., Backend]


def _shell_factory(name: str) -> BackendFactory:
    return lambda **kwargs: ShellBackend(name, **kwargs)


#: The adapter of each built-in solver (:data:`~solvers.defaults.BUILTIN_SOLVERS`): HiGHS through highspy,
#: SCIP through pyscipopt, the others as a process
_IN_PROCESS: dict[str, BackendFactory] = {HighsBackend.name: HighsBackend, ScipBackend.name: ScipBackend}
_REGISTRY: dict[str, BackendFactory] = {name: _IN_PROCESS.get(name) or _shell_factory(name) for name in BUILTIN_SOLVERS}


def register_backend(name: str, factory: BackendFactory, *, replace: bool = False) -> None:
    """Register ``factory`` (called with keyword options) under ``name``.

    Parameters
    ----------
    name : str
        The backend's name (case-insensitive).
    factory : callable
        Makes the backend; called with keyword options.
    replace : bool, default=False
        Replace a backend already registered under ``name``; False raises ValueError.

    Raises
    ------
    ValueError
        If a backend ``name`` is already registered and ``replace`` is False.
    """
    key = name.lower()
    if key in _REGISTRY and not replace:
        raise ValueError(f"a backend named '{key}' is already registered; pass replace=True to override it")
    _REGISTRY[key] = factory


def registered_backends() -> list[str]:
    """List the names with a dedicated adapter, the default first.

    Returns
    -------
    list of str
        The names, the default first.
    """
    return sorted(_REGISTRY, key=lambda name: (name != DEFAULT_SOLVER, name))


def available_backends() -> list[str]:
    """Registered names whose backend is usable on this machine.

    Returns
    -------
    list of str
        The usable names.
    """
    return [name for name in registered_backends() if _REGISTRY[name]().available()]


def get_backend(solver: str | Backend = DEFAULT_SOLVER, *, check_available: bool = True, **options: Any) -> Backend:
    """Return a backend for ``solver`` (a name, or a backend object returned as is).

    Parameters
    ----------
    solver : str or Backend
        ``"highs"``, ``"glpk"``, ``"cbc"``, or any name Pyomo's SolverFactory knows.
    check_available : bool, default=True
        Raise :class:`SolverNotFoundError` if the solver is not usable here.
    **options
        Passed to the adapter (``options={...}``, ``threads=...``).

    Returns
    -------
    Backend
        ``solver`` itself if it is a backend, else a new adapter for the named solver.

    Raises
    ------
    SolverNotFoundError
        Unknown name, or solver not installed; the message says how to
        install it and lists the solvers that are available instead.
    TypeError
        If ``solver`` is neither a string nor a :class:`Backend`.

    Examples
    --------
    >>> from solvers import get_backend
    >>> backend = get_backend("highs")
    >>> type(backend).__name__, backend.name
    ('HighsBackend', 'highs')
    >>> get_backend(backend) is backend
    True
    """
    if not isinstance(solver, str):
        if isinstance(solver, Backend):
            return solver
        raise TypeError(f"solver must be a solver name or a Backend, got {type(solver).__name__}")
    name = solver.strip().lower()
    if name in _REGISTRY:
        backend = _REGISTRY[name](**options)
    elif name and pyomo_knows(name):
        backend = GenericBackend(name, **options)
    else:
        alternatives = tuple(available_backends())
        raise SolverNotFoundError(
            f"unknown solver '{solver}': choose one of {', '.join(registered_backends())} "
            f"(available here: {', '.join(alternatives) or 'none'}) or any solver name Pyomo's SolverFactory knows",
            name=name,
            alternatives=alternatives,
        )
    if check_available:
        status = backend.available()
        if not status:
            alternatives = tuple(other for other in available_backends() if other != name)
            raise SolverNotFoundError(
                f"solver '{name}' not available ({status.reason}): {install_hint(name)}; "
                f"available instead: {', '.join(alternatives) or 'none'}",
                name=name,
                alternatives=alternatives,
            )
    return backend


#: backend name -> the Python packages its route runs on (others: Pyomo only)
_PACKAGES: dict[str, tuple[str, ...]] = {"highs": ("highspy", "pyomo"), "scip": ("pyscipopt", "pyomo")}


def _package_version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


@dataclass(frozen=True)
class BackendInfo:
    """One row of ``rulemodels solvers``.

    Parameters
    ----------
    name : str
        The backend's name (:func:`get_backend`).
    available : bool
        Whether it can be used here.
    reason : str
        Why it is not available ('' when it is).
    version : str or None
        The solver's own version.
    persistent : bool
        Whether it keeps a model between solves and updates it in place (``capabilities.persistent``).
    install_hint : str
        How to install the solver.
    route : str
        How models reach the solver (the backend's ``route()``).
    packages : dict
        Version of each Python package the route runs on (``{"pyomo": "6.9.2"}``).
    """

    name: str
    available: bool
    reason: str
    version: str | None
    persistent: bool
    install_hint: str
    route: str = ""
    packages: dict[str, str] = field(default_factory=dict)


def describe_backends(extra: tuple[str, ...] = ()) -> list[BackendInfo]:
    """Availability, version, route and persistence of every registered backend (and ``extra`` names).

    Parameters
    ----------
    extra : tuple of str, default=()
        Solver names to describe besides the registered backends.

    Returns
    -------
    list of BackendInfo
        One row per backend.
    """
    rows = []
    for name in [*registered_backends(), *extra]:
        try:
            backend = get_backend(name, check_available=False)
        except SolverNotFoundError:
            rows.append(BackendInfo(name, False, "Pyomo has no solver by this name", None, False, install_hint(name)))
            continue
        status = backend.available()
        rows.append(
            BackendInfo(
                name=name,
                available=bool(status),
                reason=status.reason,
                version=backend.version() if status else None,
                persistent=backend.capabilities.persistent,
                install_hint=install_hint(name),
                route=backend.route(),
                packages={package: _package_version(package) for package in _PACKAGES.get(name, ("pyomo",))},
            )
        )
    return rows
