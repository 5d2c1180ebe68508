"""The backend protocol: availability, typed results, and the errors of the solver layer.

This module knows nothing of rules or of any particular solver. A backend is
any object that implements :class:`Backend`; adapters for concrete solvers
live in sibling modules and are registered in :mod:`solvers.registry`.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "Availability",
    "Backend",
    "BackendBase",
    "Capabilities",
    "MipProgress",
    "ModelChanges",
    "NewColumns",
    "NewRows",
    "SolveConfig",
    "SolverFallbackWarning",
    "SolveError",
    "SolveResult",
    "SolverError",
    "SolverNotFoundError",
    "TerminationCondition",
]


@dataclass(frozen=True)
class Availability:
    """Whether a backend can be used here; truthy only when it can.

    Falsy instances carry the reason (``Availability(False, "executable
    'glpsol' not on PATH")``), so ``if not backend.available(): print(...)``
    can tell the user why.

    Parameters
    ----------
    ok : bool
        Whether the backend can be used; the instance is truthy exactly when it is.
    reason : str, default=""
        Why it cannot be used ('' when it can).
    """

    ok: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return "available" if self.ok else f"not available: {self.reason}"


class TerminationCondition(enum.Enum):  # its signature is Enum's lookup and functional API; numpydoc ignore=PR01
    """Why a solve stopped. Every native status of every adapter maps to one member.

    The ``termination`` of a :class:`SolveResult`: each adapter translates its
    solver's own status (HiGHS' model status, Pyomo's termination condition of
    CBC and GLPK) into one of these members, so the code above the solver
    layer reads one vocabulary. A member's value is its name.

    Attributes
    ----------
    optimal : TerminationCondition
        Proved optimal (LP) or optimal within the requested MIP gap.
    feasible : TerminationCondition
        A feasible solution was found but the solver stopped for another reason.
    time_limit : TerminationCondition
        The time limit was reached; a solution may or may not be loaded.
    iteration_limit : TerminationCondition
        An iteration or node limit was reached.
    infeasible : TerminationCondition
        The model has no feasible point.
    unbounded : TerminationCondition
        The objective is unbounded below (minimisation).
    infeasible_or_unbounded : TerminationCondition
        The solver proved one of the two without telling which.
    interrupted : TerminationCondition
        Interrupted by the user or by a signal.
    error : TerminationCondition
        The solver failed (crash, bad input, licensing).
    unknown : TerminationCondition
        Any status the adapter could not classify (logged as a warning).

    See Also
    --------
    SolveResult : What a solve returns, with its termination.
    rulemodels.algorithms.Termination : Why a fit stopped; a MIP's member has the same name and value.

    Examples
    --------
    >>> from solvers import TerminationCondition
    >>> TerminationCondition("time_limit") is TerminationCondition.time_limit
    True
    >>> TerminationCondition.optimal.value
    'optimal'
    """

    optimal = "optimal"
    """Proved optimal (LP) or optimal within the requested MIP gap."""
    feasible = "feasible"
    """A feasible solution was found but the solver stopped for another reason."""
    time_limit = "time_limit"
    """The time limit was reached; a solution may or may not be loaded."""
    iteration_limit = "iteration_limit"
    """An iteration or node limit was reached."""
    infeasible = "infeasible"
    """The model has no feasible point."""
    unbounded = "unbounded"
    """The objective is unbounded below (minimisation)."""
    infeasible_or_unbounded = "infeasible_or_unbounded"
    """The solver proved one of the two without telling which."""
    interrupted = "interrupted"
    """Interrupted by the user or by a signal."""
    error = "error"
    """The solver failed (crash, bad input, licensing)."""
    unknown = "unknown"
    """Any status the adapter could not classify (logged as a warning)."""


_NO_SOLUTION_CONDITIONS = {
    TerminationCondition.infeasible,
    TerminationCondition.unbounded,
    TerminationCondition.infeasible_or_unbounded,
    TerminationCondition.error,
}


@dataclass(frozen=True)
class MipProgress:
    """Where a running MIP solve stands: what ``Backend.solve(progress=...)`` passes to its callback.

    Parameters
    ----------
    event : {"start", "incumbent", "running", "end"}
        Why the callback is called: the solve starts; a better solution was
        found; the periodic report while it runs; the solve ended.
    elapsed : float
        Seconds since the solve started.
    incumbent : float or None
        Objective of the best solution found so far (None: none yet).
    bound : float or None
        Best proven bound on the optimum (a lower bound for minimisation; None: unknown).
    nodes : int or None
        Branch-and-bound nodes explored so far (None when the solver does not say).
    follows : bool
        Whether the backend follows the search (``"incumbent"`` and
        ``"running"`` events come before ``"end"``); False for a solver run as a
        process whose log is read only at the end (CBC, GLPK).
    """

    event: str
    elapsed: float
    incumbent: float | None = None
    bound: float | None = None
    nodes: int | None = None
    follows: bool = True

    @property
    def gap(self) -> float | None:
        """Relative gap ``|incumbent - bound| / max(1e-10, |incumbent|)``, as :attr:`SolveResult.gap`; None when unknown."""
        return relative_gap(self.incumbent, self.bound)


def relative_gap(objective: float | None, bound: float | None) -> float | None:
    """``|objective - bound| / max(1e-10, |objective|)``, or None when either is missing or infinite."""
    if objective is None or bound is None or not (math.isfinite(objective) and math.isfinite(bound)):
        return None
    return abs(objective - bound) / max(1e-10, abs(objective))


@dataclass(frozen=True)
class SolveResult:
    """The typed outcome of one ``Backend.solve`` call.

    Parameters
    ----------
    termination : TerminationCondition
        Why the solver stopped.
    objective : float or None
        Objective value of the loaded solution (None when no solution was loaded).
    bound : float or None
        Best proven bound on the optimum (a lower bound for minimisation).
        For LPs solved to optimality it equals ``objective``.
    wall_time : float
        Seconds spent in ``solve`` (model update + solver + loading).
    solver_name, solver_version : str
        Which backend produced the result.
    has_solution : bool
        Whether the solve found a solution (loaded into the model for the
        variables the caller asked for, see ``Backend.solve(load=...)``).
    message : str
        The solver's own status text, for diagnostics.
    value_reader : callable, optional
        Reads solution values straight from the solver's result (set by
        backends that can); :meth:`values` uses it.
    extra : mapping, default={}
        Backend-specific details of the solve.
    """

    termination: TerminationCondition
    objective: float | None
    bound: float | None
    wall_time: float
    solver_name: str
    solver_version: str
    has_solution: bool
    message: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    value_reader: Callable[[Sequence[Any]], np.ndarray] | None = field(default=None, repr=False, compare=False)

    def values(self, variables: Sequence[Any]) -> np.ndarray:
        """The solution values of ``variables``, as floats.

        Read from the solver's result when the backend kept it (so the
        variables need not have been loaded), else from the model.

        Parameters
        ----------
        variables : sequence of VarData
            The variables whose values to return.

        Returns
        -------
        ndarray of float
            The value of each variable.
        """
        if self.value_reader is not None:
            return self.value_reader(variables)
        return np.array([var.value for var in variables], dtype=float)

    @property
    def gap(self) -> float | None:
        """Relative gap ``|objective - bound| / max(1e-10, |objective|)``, or None."""
        if self.objective is None or self.bound is None:
            return None
        if not (math.isfinite(self.objective) and math.isfinite(self.bound)):
            return None
        return abs(self.objective - self.bound) / max(1e-10, abs(self.objective))

    @property
    def is_optimal(self) -> bool:
        """Whether the solver proved the solution optimal (``termination`` is ``TerminationCondition.optimal``)."""
        return self.termination is TerminationCondition.optimal

    def raise_for_status(self, what: str = "the model") -> SolveResult:
        """Raise :class:`SolveError` unless a solution was loaded; return self otherwise.

        ``what`` names the solve in the message (for example ``"clause LP for clause 2"``).

        Parameters
        ----------
        what : str, default="the model"
            Names the solve in the error message (for example ``"clause LP for clause 2"``).

        Returns
        -------
        SolveResult
            ``self``.

        Raises
        ------
        SolveError
            If no solution was loaded, or the solve ended in a condition without one.
        """
        if self.has_solution and self.termination not in _NO_SOLUTION_CONDITIONS:
            return self
        hint = {
            TerminationCondition.infeasible: "the model is infeasible",
            TerminationCondition.unbounded: "the model is unbounded",
            TerminationCondition.infeasible_or_unbounded: "the model is infeasible or unbounded",
            TerminationCondition.time_limit: "the time limit was reached before any feasible solution was found; raise time_limit",
            TerminationCondition.iteration_limit: "the iteration limit was reached before any feasible solution was found",
            TerminationCondition.interrupted: "the solve was interrupted",
            TerminationCondition.error: "the solver stopped with an error",
        }.get(self.termination, "the solver returned no solution")
        detail = f" ({self.message})" if self.message else ""
        raise SolveError(
            f"solving {what} with {self.solver_name} failed: {hint}{detail}",
            result=self,
        )


class SolverError(RuntimeError):
    """Base class of the errors raised by the solver layer."""


class SolverNotFoundError(SolverError, ValueError):
    """A solver name is unknown, or the solver is not installed here.

    The message says how to install it and which solvers are available instead.

    Parameters
    ----------
    message : str
        The error message.
    name : str
        The solver name that was asked for.
    alternatives : tuple of str, default=()
        The solvers available instead.
    """

    def __init__(self, message: str, *, name: str, alternatives: tuple[str, ...] = ()):
        super().__init__(message)
        self.name = name
        self.alternatives = alternatives


class SolveError(SolverError):
    """A solve ended without a usable solution (infeasible, unbounded, error...).

    Parameters
    ----------
    message : str
        The error message.
    result : SolveResult or None, default=None
        The result of the failed solve, when there is one.
    """

    def __init__(self, message: str, *, result: SolveResult | None = None):
        super().__init__(message)
        self.result = result


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, as data (drivers read these instead of probing for methods).

    Parameters
    ----------
    persistent : bool
        Keeps a solver instance per model between solves; :meth:`Backend.release`
        frees it.
    warm_start : bool
        A re-solve of the same model starts from the previous solution or basis,
        unless ``solve(..., warm_start=False)``, which every backend honours.
    mip : bool
        Solves models with integer or binary variables.
    time_limit : bool
        Honours ``solve(..., time_limit=...)``.
    in_place_updates : bool
        ``solve(..., changes=ModelChanges(...))`` pushes only the declared numbers
        to the solver instance instead of reading the whole model again.
    duals : bool
        Fills an active import :class:`~pyomo.environ.Suffix` named ``dual`` with
        the constraint duals of a solved LP.
    mip_start : bool
        ``solve(..., mip_start=True)`` hands the values the model's integer
        variables hold to the solver as a starting incumbent of a MIP (HiGHS,
        CBC); a backend without it solves from nothing.
    """

    persistent: bool
    warm_start: bool
    mip: bool
    time_limit: bool
    in_place_updates: bool
    duals: bool
    mip_start: bool = False


@dataclass(frozen=True)
class NewColumns:
    """Variables (columns) a caller added to a model since a backend last solved it.

    The caller has already put them into the model: each variable exists (a
    new index of an indexed Var, or a new component), its objective term is in
    the active objective and its coefficients are in the constraint bodies
    named here. Declaring them lets a persistent backend append them to its
    solver instance instead of reading the whole model again (column
    generation adds a few columns per round to a master LP that is otherwise
    unchanged).

    Parameters
    ----------
    variables : sequence of VarData
        The new variables, none of which appeared in the model at the last solve.
    objective : ndarray (k,)
        Their linear objective coefficients, in the model's own sense.
    lower, upper : ndarray (k,)
        Their bounds (``-inf``/``inf`` for none).
    entries : sequence of (constraints, coefficients), one per variable
        The linear constraints (already solved before, so the backend knows
        them) in which the variable has a nonzero coefficient, and those
        coefficients. A constraint that is new itself cannot be declared this way.
    integer : ndarray of bool (k,), optional
        Which of them are integer (binary with bounds 0 and 1); default none.
    """

    variables: Sequence[Any]
    objective: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    entries: Sequence[tuple[Sequence[Any], np.ndarray]]
    integer: np.ndarray | None = None

    def __post_init__(self) -> None:
        k = len(self.variables)
        sizes = {"objective": len(self.objective), "lower": len(self.lower), "upper": len(self.upper),
                 "entries": len(self.entries)}
        if self.integer is not None:
            sizes["integer"] = len(self.integer)
        wrong = {name: size for name, size in sizes.items() if size != k}
        if wrong:
            raise ValueError(f"NewColumns: {k} variables but {wrong} entries; give one of each per variable")


@dataclass(frozen=True)
class NewRows:
    """Linear constraints (rows) a caller added to a model since a backend last solved it.

    The caller has already put them into the model (new indices of an
    indexed Constraint, e.g. a cutting-plane method's cuts), each a linear
    body **without a constant term** between ``lower`` and ``upper``, over
    variables the backend already knows as columns (declare new variables in
    the same :class:`ModelChanges` as :class:`NewColumns`: they are added
    first). Declaring them lets a persistent backend append them to its
    solver instance instead of reading the whole model again.

    Parameters
    ----------
    constraints : sequence of ConstraintData
        The new constraints, none of which was in the model at the last solve.
    lower, upper : ndarray (k,)
        Their bounds (``-inf``/``inf`` for none).
    entries : sequence of (variables, coefficients), one per constraint
        The variables with a nonzero coefficient in its body, and those coefficients.
    """

    constraints: Sequence[Any]
    lower: np.ndarray
    upper: np.ndarray
    entries: Sequence[tuple[Sequence[Any], np.ndarray]]

    def __post_init__(self) -> None:
        k = len(self.constraints)
        sizes = {"lower": len(self.lower), "upper": len(self.upper), "entries": len(self.entries)}
        wrong = {name: size for name, size in sizes.items() if size != k}
        if wrong:
            raise ValueError(f"NewRows: {k} constraints but {wrong} entries; give one of each per constraint")


@dataclass(frozen=True)
class ModelChanges:
    """Numbers that changed in a model since a backend last solved it, declared by the caller.

    The caller has already written the same values into the model itself (its
    mutable Params, so the model always shows what was solved); the
    declaration lets a backend with ``capabilities.in_place_updates`` push
    them to its solver instance as arrays instead of reading the model again.
    Other backends ignore it and read the model. Anything not declared is
    promised unchanged (no new, removed, fixed or (de)activated components).

    Parameters
    ----------
    objective : (variables, coefficients), optional
        New linear objective coefficients of these variables, in the model's
        own sense (not negated for a maximisation).
    variable_bounds : (variables, lower, upper), optional
        New bounds; ``-inf``/``inf`` for none.
    constraint_bounds : (constraints, lower, upper), optional
        New lower/upper bounds of linear constraints whose constant terms are
        unchanged; ``-inf``/``inf`` for none.
    new_columns : NewColumns, optional
        Variables added to the model, with their objective coefficients,
        bounds and constraint coefficients (:class:`NewColumns`); applied
        before the other changes, which may name them.
    new_rows : NewRows, optional
        Linear constraints added to the model (:class:`NewRows`); applied
        after ``new_columns`` and before the other changes, which may name them.
    integrality : (variables, integer), optional
        Variables whose domain changed between continuous and integer
        (``integer[k]`` True: now integer, e.g. an LP's ``[0, 1]`` variables
        made ``Binary`` to solve the integer program over the same model).
    """

    objective: tuple[Sequence[Any], np.ndarray] | None = None
    variable_bounds: tuple[Sequence[Any], np.ndarray, np.ndarray] | None = None
    constraint_bounds: tuple[Sequence[Any], np.ndarray, np.ndarray] | None = None
    new_columns: NewColumns | None = None
    new_rows: NewRows | None = None
    integrality: tuple[Sequence[Any], np.ndarray] | None = None


def _seconds_or_fraction(name: str, value: Any, meaning: str) -> float | None:
    """``value`` itself when it is None or a number >= 0 (its type kept); else the error that says what to pass."""
    if value is None:
        return None
    number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not number:
        raise TypeError(f"SolveConfig: {name} must be {meaning} or None, got {type(value).__name__} {value!r}")
    if not float(value) >= 0:  # NaN too
        raise ValueError(f"SolveConfig: {name} must be {meaning} >= 0 or None, got {value!r}")
    return value


def _flag(name: str, value: Any) -> bool:
    """``value`` as a bool when it is one (numpy's included); else the error that says what to pass."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"SolveConfig: {name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


@dataclass(frozen=True)
class SolveConfig:
    """How a backend solves a model: the settings of :meth:`Backend.solve`, checked once when built.

    One object holds what every backend's ``solve`` takes besides the model
    and the per-call data (``changes``, ``load``, ``progress``); a driver builds
    it and hands it on. Keywords of ``solve`` with the same names
    (``backend.solve(model, time_limit=60)``) build the same object
    (:meth:`of`).

    Parameters
    ----------
    time_limit : float or None, default=None
        Seconds the solver may run; None for no limit (a solver process is
        still stopped by its backend's watchdog, see :mod:`solvers.shell`).
    mip_gap : float or None, default=None
        Relative MIP gap at which the solver stops; None for the solver's default.
    options : mapping of str, default={}
        Native solver options for this solve, applied over the backend's own
        (None is taken as none); copied, so a later change to the mapping
        passed changes nothing.
    warm_start : bool, default=True
        Whether the solve may start from an earlier solve of the same model;
        False makes the result what a freshly built solver instance would return.
    mip_start : bool, default=False
        Offer the values the model's variables hold as a feasible starting
        solution of a MIP (when the backend's ``capabilities.mip_start``;
        ignored otherwise): the solver keeps it as its first incumbent, so a
        time limit reached early still returns it.

    Raises
    ------
    TypeError
        If a setting has the wrong type (a string for a number, a number for a flag).
    ValueError
        If ``time_limit`` or ``mip_gap`` is negative or NaN.

    Examples
    --------
    >>> SolveConfig(time_limit=60, mip_gap=1e-4).time_limit
    60
    >>> SolveConfig.of(SolveConfig(time_limit=60), mip_gap=0.0)
    SolveConfig(time_limit=60, mip_gap=0.0, options={}, warm_start=True, mip_start=False)
    """

    time_limit: float | None = None
    mip_gap: float | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    warm_start: bool = True
    mip_start: bool = False

    def __post_init__(self) -> None:
        options = {} if self.options is None else self.options
        if not isinstance(options, Mapping) or not all(isinstance(name, str) for name in options):
            raise TypeError(f"SolveConfig: options must map native option names (str) to values, got {options!r}")
        checked = {
            "time_limit": _seconds_or_fraction("time_limit", self.time_limit, "a number of seconds"),
            "mip_gap": _seconds_or_fraction("mip_gap", self.mip_gap, "a relative gap"),
            "options": dict(options),
            "warm_start": _flag("warm_start", self.warm_start),
            "mip_start": _flag("mip_start", self.mip_start),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, config: SolveConfig | None = None, /, **settings: Any) -> SolveConfig:
        """The settings of one ``solve`` call: ``config`` (None: the defaults) with ``settings`` in place of its fields.

        Every backend's ``solve`` starts with it, so that ``solve(model,
        config)``, ``solve(model, time_limit=60)`` and a wrapper that adds a
        keyword to a call made with ``config`` all mean one thing.

        Parameters
        ----------
        config : SolveConfig or None, default=None
            The settings to start from.
        **settings
            Fields of :class:`SolveConfig` to set (``time_limit=60``).

        Returns
        -------
        SolveConfig
            ``config`` itself when no settings are given, else a new, checked object.

        Raises
        ------
        TypeError
            If ``config`` is not a SolveConfig, or a keyword is no setting of one.
        """
        if config is None:
            config = _DEFAULT_CONFIG
        elif not isinstance(config, SolveConfig):
            raise TypeError(
                f"solve: config must be a SolveConfig, got {type(config).__name__}; "
                "build one with SolveConfig(time_limit=..., mip_gap=..., options=...)"
            )
        if not settings:
            return config
        unknown = sorted(set(settings) - _CONFIG_FIELDS)
        if unknown:
            raise TypeError(
                f"solve() got unexpected keyword argument(s) {', '.join(map(repr, unknown))}: its settings are "
                f"{', '.join(sorted(_CONFIG_FIELDS))} (or config=SolveConfig(...)), and changes, load, progress"
            )
        return dataclasses.replace(config, **settings)


_CONFIG_FIELDS = frozenset(item.name for item in dataclasses.fields(SolveConfig))
_DEFAULT_CONFIG = SolveConfig()


class SolverFallbackWarning(UserWarning):
    """A backend could not use its fast route for a model and uses a slower one (the message says which and why)."""


@runtime_checkable
class Backend(Protocol):  # a protocol, never instantiated: no parameters; numpydoc ignore=PR01
    """The narrow protocol every solver adapter implements.

    A backend solves any Pyomo model; it never looks at what the model means.
    ``capabilities`` says what else it can do (:class:`Capabilities`).
    """

    name: str
    capabilities: Capabilities

    def available(self) -> Availability:
        """Whether the backend can be used, with the reason when it cannot."""
        ...

    def version(self) -> str | None:
        """The solver's version string, or None when unavailable."""
        ...

    def route(self) -> str:
        """How models reach the solver, in words (e.g. ``"compiled to highspy"``)."""
        ...

    def solve(
        self,
        model: Any,
        config: SolveConfig | None = None,
        *,
        changes: ModelChanges | None = None,
        load: Sequence[Any] | None = None,
        progress: Callable[[MipProgress], None] | None = None,
        **settings: Any,
    ) -> SolveResult:
        """Solve ``model`` in place (variable values are loaded) and return the result.

        ``config`` says how (time limit, MIP gap, native options, warm and
        MIP starts: :class:`SolveConfig`); keywords with its field names
        build or amend it (``solve(model, time_limit=60)``), through
        :meth:`SolveConfig.of`. The other arguments are this call's data.
        ``changes`` declares what changed since this backend last solved
        ``model`` (see :class:`ModelChanges`); None means "read the whole
        model", which is always correct. ``load`` names the variables whose
        values the caller needs (a backend may load more; the others keep
        their old values); None loads every variable. A ``dual`` import
        Suffix is filled either way.

        ``progress``, for a MIP, is called in the calling thread with a
        :class:`MipProgress`: at the start, at the end (with the final
        incumbent and bound), and, by backends that can follow the search
        (HiGHS), on each better solution and about every
        ``PROGRESS_INTERVAL`` seconds (:mod:`solvers.highs`) while it runs.
        It is not called for an LP. An exception it raises propagates after
        the solver was stopped.

        The built-in adapters derive this method from :class:`BackendBase`;
        what each does with ``changes``, ``load`` and the starts is in the
        Notes of its class.

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model to solve; its variable values are loaded in place.
        config : SolveConfig or None, default=None
            How to solve; None for the defaults.
        changes : ModelChanges or None, default=None
            What changed since this backend last solved ``model``; None reads the whole model.
        load : sequence of VarData or None, default=None
            The variables whose values to load; None loads every variable.
        progress : callable or None, default=None
            Called with a :class:`MipProgress` while a MIP is solved.
        **settings
            Fields of :class:`SolveConfig` (``time_limit``, ``mip_gap``,
            ``options``, ``warm_start``, ``mip_start``), set over ``config``.
        """
        ...

    def release(self, model: Any) -> None:
        """Free whatever the backend keeps for ``model`` (a no-op for non-persistent backends).

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model whose solver state to free.
        """
        ...


class BackendBase(Backend):
    """The public ``solve`` of the built-in adapters, written once: the settings are read, then :meth:`_solve` runs.

    :meth:`solve` has the signature and the documentation of :meth:`Backend.solve`; it builds the
    :class:`SolveConfig` of the call (:meth:`SolveConfig.of`: a wrong ``config`` or an unknown keyword is
    a ``TypeError`` before anything else) and hands it to the adapter's ``_solve``. A backend of one's own
    may derive from this class or implement the :class:`Backend` protocol directly.
    """

    def solve(
        self,
        model: Any,
        config: SolveConfig | None = None,
        *,
        changes: ModelChanges | None = None,
        load: Sequence[Any] | None = None,
        progress: Callable[[MipProgress], None] | None = None,
        **settings: Any,
    ) -> SolveResult:
        """Solve ``model`` with ``config`` (and ``settings`` on top of it): :meth:`Backend.solve` says what each does.

        Parameters
        ----------
        model : pyomo.environ.ConcreteModel
            The model to solve.
        config : SolveConfig or None, default=None
            The solve's settings; None: the defaults.
        changes : ModelChanges or None, default=None
            What changed in ``model`` since this backend last solved it (a persistent backend re-solves in place).
        load : sequence or None, default=None
            The variables whose values are loaded back into the model; None: every variable.
        progress : callable or None, default=None
            Called with :class:`MipProgress` events during a MIP solve.
        **settings
            Settings of :class:`SolveConfig` (``time_limit``, ``mip_gap``, ...) that override ``config``'s.

        Returns
        -------
        SolveResult
            The termination, objective, bound and timings of the solve.
        """
        return self._solve(model, SolveConfig.of(config, **settings), changes, load, progress)

    @abc.abstractmethod
    def _solve(
        self, model: Any, config: SolveConfig, changes: ModelChanges | None, load: Sequence[Any] | None,
        progress: Callable[[MipProgress], None] | None,
    ) -> SolveResult:
        """The adapter's solve, with the call's settings already checked (the arguments of :meth:`solve`)."""
