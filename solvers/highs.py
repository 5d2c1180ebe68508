"""HiGHS through Pyomo's persistent APPSI interface (in process, via ``highspy``).

This is the default backend. The first ``solve`` of a model builds the HiGHS
instance; later solves of the *same* model push only what changed (mutable
Params, bounds, fixed variables, (de)activated constraints) and warm-start
from the previous basis. Variables are never treated as Params when fixed
(``treat_fixed_vars_as_params=False``): fixing a variable then only changes
its bounds instead of rebuilding every constraint that contains it.

Small LPs (no integer variable, at most ``SMALL_LP`` rows + columns), such
as the clause LPs BCD and AM re-solve thousands of times, get two defaults
(measured in ``benchmarks/bench_resolve.py``): HiGHS presolve off (a cold
solve of the Pima clause LP takes 4.9 ms instead of 17 ms), and no
Python-level interrupt callback (highspy otherwise calls back into Python at
every simplex iteration). User options override the first; the second means
Ctrl-C waits for the current small LP to finish. Larger LPs (the TLP
relaxation) default to interior point with crossover (``LARGE_LP_OPTIONS``),
except "short" ones (few rows, many columns, ``SHORT_LP_ROWS``), which keep
HiGHS' own defaults.

Objective coefficients and variable bounds that depend on mutable Params are
re-computed together with numpy and sent in one call
(:mod:`solvers._param_update`) instead of APPSI's one expression evaluation
and one HiGHS call each. A model with an import Suffix named ``dual`` gets
the constraint duals, as with Pyomo's other solver interfaces.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
import itertools
import weakref
from typing import Any, Iterator, Mapping

import numpy as np
from pyomo.common.dependencies import attempt_import
from pyomo.core.base.suffix import Suffix
from pyomo.core.staleflag import StaleFlagManager

from solvers._param_update import install as install_param_update
from solvers.base import Availability, SolveResult, TerminationCondition
from solvers.options import translate_options

logger = logging.getLogger(__name__)

highspy, highspy_available = attempt_import("highspy")

__all__ = ["HighsBackend", "SMALL_LP"]

SMALL_LP = 50_000
"""Rows + columns up to which an LP gets the small-LP defaults."""

SHORT_LP_ROWS = 2_000
"""Larger LPs with at most this many rows are "short" (the dual clause LP: 144
rows, 65,000 columns at 100,000 samples) and keep HiGHS' defaults: simplex
with presolve. On six such LPs from an AM fit, presolve cut the total from
100 s to 69 s; interior point took 15 s on one the simplex solved in 3 s."""

SMALL_LP_OPTIONS = {"presolve": "off"}

LARGE_LP_OPTIONS = {"solver": "ipm"}
"""Defaults for larger LPs: dual simplex stalled for minutes on TLP relaxations
(270,000 rows for Sonar at R=5) that interior point with crossover solves in seconds."""


def _map_appsi_termination(condition: Any) -> TerminationCondition:
    name = getattr(condition, "name", str(condition))
    mapping = {
        "optimal": TerminationCondition.optimal,
        "maxTimeLimit": TerminationCondition.time_limit,
        "maxIterations": TerminationCondition.iteration_limit,
        "objectiveLimit": TerminationCondition.feasible,
        "minStepLength": TerminationCondition.error,
        "unbounded": TerminationCondition.unbounded,
        "infeasible": TerminationCondition.infeasible,
        "infeasibleOrUnbounded": TerminationCondition.infeasible_or_unbounded,
        "error": TerminationCondition.error,
        "interrupted": TerminationCondition.interrupted,
        "licensingProblems": TerminationCondition.error,
    }
    mapped = mapping.get(name)
    if mapped is None:
        logger.warning("highs returned termination condition %r; treating it as 'unknown'", name)
        return TerminationCondition.unknown
    return mapped


_UPDATE_CHECKS = (
    "check_for_new_or_removed_constraints",
    "check_for_new_or_removed_vars",
    "check_for_new_or_removed_params",
    "check_for_new_objective",
    "update_constraints",
    "update_vars",
    "update_named_expressions",
    "update_objective",
)


@contextlib.contextmanager
def _updates(solver: Any, params_only: bool) -> Iterator[None]:
    """Switch off every APPSI change check except Param values for one solve (when ``params_only``)."""
    if not params_only:
        yield
        return
    config = solver.update_config
    saved = {name: getattr(config, name) for name in _UPDATE_CHECKS}
    for name in _UPDATE_CHECKS:
        setattr(config, name, False)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(config, name, value)


def _lp_kind(solver: Any) -> str | None:
    """"small", "short" or "large" for an LP (see ``SMALL_LP`` and ``SHORT_LP_ROWS``), None for a MIP."""
    highs = getattr(solver, "_solver_model", None)
    if highs is None:
        return None
    lp = highs.getLp()
    if any(kind != highspy.HighsVarType.kContinuous for kind in lp.integrality_):
        return None
    if lp.num_col_ + lp.num_row_ <= SMALL_LP:
        return "small"
    return "short" if lp.num_row_ <= SHORT_LP_ROWS else "large"


@contextlib.contextmanager
def _interrupt_callback(solver: Any, enabled: bool) -> Iterator[None]:
    """Keep highspy's per-iteration Python interrupt callback off for this solve unless ``enabled``.

    APPSI switches it on before every run (``HandleKeyboardInterrupt``); for a
    small LP the callback costs more than the simplex iterations it watches.
    """
    highs = getattr(solver, "_solver_model", None)
    if enabled or highs is None or not isinstance(highs, highspy.Highs):
        yield
        return
    original = type(highs)
    highs.__class__ = _uninterruptible_class(original)
    try:
        yield
    finally:
        highs.__class__ = original


@functools.lru_cache(maxsize=None)
def _uninterruptible_class(base: type) -> type:
    """``base`` with a ``HandleKeyboardInterrupt`` property that ignores being switched on."""
    return type(
        f"Uninterruptible{base.__name__}", (base,),
        {"HandleKeyboardInterrupt": property(lambda self: False, lambda self, value: None)},
    )


class _ModelSlots:
    """Values a backend keeps per model, stored on the model itself.

    A ``WeakKeyDictionary`` keyed by the model cannot hold them: the APPSI
    solver refers to its model, so the value kept its key alive and every
    model a backend ever solved stayed in memory. Stored on the model, model
    -> value -> solver -> model is a cycle that is freed with the model.
    """

    _numbers = itertools.count()

    def __init__(self, what: str):
        self._attribute = f"_highs_backend_{what}_{next(self._numbers)}"

    def get(self, model: Any, default: Any = None) -> Any:
        slot = model.__dict__.get(self._attribute)
        return slot.value if isinstance(slot, _Slot) and slot.owner() is model else default

    def __getitem__(self, model: Any) -> Any:
        if model not in self:
            raise KeyError(model)
        return self.get(model)

    def __setitem__(self, model: Any, value: Any) -> None:
        model.__dict__[self._attribute] = _Slot(model, value)

    def __contains__(self, model: Any) -> bool:
        slot = model.__dict__.get(self._attribute)
        return isinstance(slot, _Slot) and slot.owner() is model


def _nothing() -> None:
    return None


class _Slot:
    """One model's value; copies and pickles of the model get None (they need their own)."""

    __slots__ = ("owner", "value")

    def __init__(self, model: Any, value: Any):
        self.owner = weakref.ref(model)
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        return None

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _nothing, ()


def _load_plan(solver: Any) -> tuple[list[Any], np.ndarray] | None:
    """The variables APPSI's ``load_vars`` would load, and their HiGHS columns (None if unknown)."""
    try:
        referenced = solver._referenced_variables
        variables = solver._vars
        column_of = solver._pyomo_var_to_solver_var_map
    except AttributeError:
        return None
    ids = [v_id for v_id, (cons, sos, obj) in referenced.items() if cons or sos or obj is not None]
    return [variables[v_id][0] for v_id in ids], np.array([column_of[v_id] for v_id in ids], dtype=np.intp)


def _import_suffix(model: Any, name: str) -> Any:
    """The model's active import Suffix called ``name``, or None."""
    suffix = model.component(name)
    if isinstance(suffix, Suffix) and suffix.active and suffix.import_enabled():
        return suffix
    return None


def _load_duals(model: Any, results: Any) -> None:
    """Fill the model's ``dual`` import Suffix of a solved LP, as Pyomo's other solver interfaces do (HiGHS' signs)."""
    suffix = _import_suffix(model, "dual")
    if suffix is None:
        return
    suffix.clear()
    for constraint, value in results.solution_loader.get_duals().items():
        suffix[constraint] = value


@functools.lru_cache(maxsize=1)
def _highs_version() -> str | None:
    if not highspy_available:
        return None
    from pyomo.contrib.appsi.solvers import Highs

    return ".".join(str(part) for part in Highs().version())


class HighsBackend:
    """Persistent HiGHS backend.

    Parameters
    ----------
    options : mapping, optional
        HiGHS options applied to every solve (HiGHS' own names, for example
        ``{"solver": "ipm", "presolve": "off"}``); per-call ``options`` of
        :meth:`solve` override them.
    threads : int, optional
        Number of HiGHS threads.

    Notes
    -----
    One HiGHS instance is kept per model, on the model (it is freed with the
    model). A backend object is therefore cheap to share between
    drivers, and pickling it (for parallel workers) drops the instances.
    """

    name = "highs"
    is_persistent = True

    def __init__(self, options: Mapping[str, Any] | None = None, threads: int | None = None):
        self.options = dict(options or {})
        self.threads = threads
        self._new_slots()
        self.n_builds = 0
        self.n_solves = 0

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_instances"] = None
        state["_kinds"] = None
        state["_load_plans"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._new_slots()

    def _new_slots(self) -> None:
        self._instances = _ModelSlots("instance")
        self._kinds = _ModelSlots("kind")
        self._load_plans = _ModelSlots("load_plan")

    def __repr__(self) -> str:
        return f"HighsBackend(options={self.options!r}, threads={self.threads!r})"

    def available(self) -> Availability:
        if not highspy_available:
            return Availability(False, "the Python package 'highspy' is not installed (pip install highspy)")
        return Availability(True)

    def version(self) -> str | None:
        return _highs_version()

    def _instance_for(self, model: Any) -> Any:
        solver = self._instances.get(model)
        if solver is None:
            from pyomo.contrib.appsi.solvers import Highs

            solver = Highs()
            solver.config.load_solution = False
            solver.config.stream_solver = False
            solver.update_config.treat_fixed_vars_as_params = False
            solver.set_instance(model)
            install_param_update(solver)
            self._instances[model] = solver
            self._kinds[model] = _lp_kind(solver)
            self.n_builds += 1
        return solver

    def _load_primals(self, model: Any, solver: Any, results: Any, params_only: bool) -> None:
        """Load the solution into the model's variables: APPSI's ``load_vars``, vectorised.

        The same variables (those used by a constraint or the objective), the
        same values and stale flags, but the (variable, column) lists are kept
        between params-only solves instead of building a ComponentMap each
        time (2 ms instead of 11 ms for Sonar's 1,100 variables).
        """
        plan = self._load_plans.get(model) if params_only else None
        if plan is None:
            plan = _load_plan(solver)
            if plan is None:  # APPSI internals changed: use its own loader
                results.solution_loader.load_vars()
                return
            self._load_plans[model] = plan
        variables, columns = plan
        values = np.asarray(solver._solver_model.getSolution().col_value)[columns].tolist()
        for var, value in zip(variables, values):
            var.set_value(value, skip_validation=True)
        StaleFlagManager.mark_all_as_stale(delayed=True)

    def discard_warm_start(self, model: Any) -> None:
        """Forget the basis and solution kept for ``model``: its next solve starts cold.

        A cold solve of the same LP returns the same solution as a freshly
        built instance would, whatever was solved before.
        """
        solver = self._instances.get(model)
        highs = getattr(solver, "_solver_model", None) if solver is not None else None
        if highs is not None:
            highs.clearSolver()

    def solve(
        self,
        model: Any,
        time_limit: float | None = None,
        mip_gap: float | None = None,
        options: Mapping[str, Any] | None = None,
        params_only: bool = False,
    ) -> SolveResult:
        """Solve ``model`` (re-using its HiGHS instance if it was solved before).

        With ``params_only=True`` only mutable Params are re-read (see
        :meth:`solvers.base.Backend.solve`); the search for new, removed or
        changed components is skipped.
        """
        start = time.perf_counter()
        solver = self._instance_for(model)
        solver.config.time_limit = time_limit
        solver.config.mip_gap = mip_gap
        kind = self._kinds.get(model)
        small_lp = kind == "small"
        native = dict(SMALL_LP_OPTIONS if small_lp else LARGE_LP_OPTIONS if kind == "large" else {})
        native.update(translate_options("highs", threads=self.threads))
        native.update(self.options)
        native.update(options or {})
        solver.highs_options = native
        self.n_solves += 1
        with _updates(solver, params_only), _interrupt_callback(solver, enabled=not small_lp):
            results = solver.solve(model)
        termination = _map_appsi_termination(results.termination_condition)
        objective = results.best_feasible_objective
        has_solution = objective is not None
        if has_solution:
            self._load_primals(model, solver, results, params_only)
            if kind is not None:  # an LP: MIPs have no duals
                _load_duals(model, results)
        bound = results.best_objective_bound
        if termination is TerminationCondition.optimal and bound is None:
            bound = objective
        return SolveResult(
            termination=termination,
            objective=None if objective is None else float(objective),
            bound=None if bound is None or abs(bound) == float("inf") else float(bound),
            wall_time=time.perf_counter() - start,
            solver_name=self.name,
            solver_version=self.version() or "",
            has_solution=has_solution,
            message=str(getattr(results.termination_condition, "name", "")),
        )
