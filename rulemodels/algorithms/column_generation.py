"""CG: column generation (Dash, Günlük & Wei 2018, *Boolean Decision Rules via Column Generation*).

The models are in :mod:`rulemodels.models.column_generation` (read its
docstring for the master, the pricing problem and how the method's DNF
terms are this project's CNF clauses). Above ``group_rows`` rows to cover,
the master's rows are groups of the rows that the same clauses fail on
(``build_cg_master(..., group_rows=True)``: the same LP optimum with a few
hundred rows where a million rows have half a million; a new clause splits
the groups it fails on in part). One fit:

1. **Start** the restricted master with the empty clause (it fails on every
   row: the constant rule) and the clauses the beam search finds at the duals
   of a master with no clause (``μ_i = ω_i``: every row still to cover).
2. **Rounds** (at most ``max_iter``): solve the master LP in place, read its
   duals, price. The beam search (:func:`beam_search`) is tried first, then,
   when it finds nothing (at most ``fallback_searches`` times per θ), once
   more with every feature on its first level
   (``fallback_width``: the best clause of at most two features is then
   found exactly, where a narrow first level drops a feature whose own
   reduced cost is poor but which makes a good clause with a second); the
   pricing MIP (at most ``pricing_mip_solves`` per fit) only when the beam finds
   no clause with a negative reduced cost, and only on data small enough
   (``pricing_mip_max_nonzeros``; otherwise the fit stops there with
   ``termination="no_improvement"``). Up to ``columns_per_round``
   clauses with negative reduced cost join the master as new columns
   (:meth:`~rulemodels.models.column_generation.CGMaster.add_clauses`: the
   master is never rebuilt). Stop when the MIP proves that none is left
   (the LP is then optimal over *all* clauses of at most ``max_length``
   features: ``termination="converged"``), when the pricing MIPs allowed
   are spent without one or ``stall_rounds`` LPs in a row have not lowered
   the objective (``"no_improvement"``), at ``max_iter`` or at the fit's
   time limit.
3. **Select** at most ``n_clauses`` of the generated clauses
   (:func:`greedy_selection`): the master's integer objective minimised by a
   local search (greedy additions, then drop/add/swap moves, from
   ``selection_starts`` starts) over the clauses that pay for themselves
   alone (the others never help: an exact reduction). Deterministic and a
   few milliseconds. With ``selection="mip"`` the same master with binary
   ``w_k`` is then solved as an integer program (``selection_time_limit``,
   ``selection_gap``) and kept where it is better.

A θ path (:func:`run_column_generation_path`) keeps the master from one θ to
the next: only the Param θ changes, the rounds go on from every clause
generated so far, and the selection is made once per R.

The beam search, the master and the local search are deterministic; the
pricing MIP runs only on small data (``pricing_mip_max_nonzeros``, 2,000
nonzeros: a few dozen rows), at most ``pricing_mip_solves`` times per fit,
each solved to optimality: a fit without a time limit gives the same rule on
a busy and an idle machine.

θ means what it means for the other algorithms: the cost of one literal, in
misclassified (weighted) samples; a clause also costs ``θ·clause_cost``
(the method's complexity ``1 + |k|`` for ``clause_cost = 1``). The
objective reported is the master's integer objective at the returned rule
(:meth:`~rulemodels.models.column_generation.ClauseColumns.objective`): the
weight of every row the CNF should make 0 on which no clause fails (an
error), plus for every row it should make 1 its weight times the number of
clauses that fail on it, plus θ times the literals and ``clause_cost`` per
clause. On the rows that should be 1 this is the Hamming cost (eq. (3.10)
HammingFormulation); on those that should be 0 it is the 0-1 error (the
Hamming objective charges the distance to the nearest failing clause).

The parts: the knobs in :mod:`rulemodels.algorithms.cg_settings`, the beam
search in :mod:`rulemodels.algorithms.cg_beam` (its weighted column sums in
:mod:`rulemodels.algorithms.cg_sums`), the final selection in
:mod:`rulemodels.algorithms.cg_selection`. This module runs the rounds over
one master along a θ path and re-exports the public names of those parts.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rulemodels.algorithms.cg_beam import ClauseSet, beam_search
from rulemodels.algorithms.cg_selection import greedy_selection, remaining_seconds, select_clauses
from rulemodels.algorithms.cg_settings import CGSettings
from rulemodels.algorithms.cg_sums import AbsentCopies, BitRowSums, FloatRowSums, PairSums, RowSums, pair_sums, row_sums
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.engine import as_model_changes
from rulemodels.algorithms.iteration_log import IterationLog
from rulemodels.algorithms.result import FitResult, Termination
from rulemodels.models.cg_columns import TOLERANCE, ClauseColumns, prepare_cg_data
from rulemodels.models.cg_master import build_cg_master
from rulemodels.models.cg_pricing import CGPricing, build_cg_pricing
from solvers import Backend, SolveConfig

logger = logging.getLogger(__name__)

STALL_TOLERANCE = 1e-9
"""An LP objective lower by at most this (relative to it) has not improved (``CGSettings.stall_rounds``)."""

__all__ = [
    "AbsentCopies", "BitRowSums", "CGRun", "CGSettings", "FloatRowSums", "PairSums", "RowSums", "as_model_changes", "beam_search",
    "column_generation", "greedy_selection", "pair_sums", "row_sums", "run_column_generation", "run_column_generation_path",
]


@dataclass
class CGRun:
    """What one column generation run found (the numbers :func:`column_generation` turns into a rule).

    The counts and seconds are those of this run (on a θ path: since the previous θ's run).

    Parameters
    ----------
    clauses : list of tuple of int
        Every clause the master held (feature indices, CNF view), in the order of ``K``.
    selection : list of int
        The selected clauses (indices into ``clauses``).
    objective : float
        The master's integer objective at the selection (numpy).
    lp_objective : float or None
        The last master LP's optimum (a lower bound of the integer master over all
        clauses when ``termination == "converged"``); None when no master LP was solved.
    termination : Termination
        Why the run stopped.
    n_rounds : int
        Master LP rounds.
    n_builds : int
        Pyomo models built (the master, and the pricing MIP when it was needed: at most 2).
    n_solves : int
        Solves of either model.
    solver_seconds : float
        Wall-clock seconds of those solves.
    """

    clauses: list[tuple[int, ...]]
    selection: list[int]
    objective: float
    lp_objective: float | None
    termination: Termination
    n_rounds: int
    n_builds: int
    n_solves: int
    solver_seconds: float


def column_generation(
    data: WorkingData,
    backend: Backend,
    *,
    theta: float,
    n_clauses: int,
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> FitResult:
    """Learn at most ``n_clauses`` CNF clauses on ``data`` by column generation (see the module docstring).

    ``data.max_literals`` lowers the clause length D of the beam search and
    the pricing MIP (its constraint ``length``, ``Σ_j z_j ≤ D``), so that no
    generated clause exceeds it. A path of one θ and one R
    (:func:`column_generation_path`).

    Parameters
    ----------
    data : WorkingData
        The CNF problem.
    backend : Backend
        Solves the master LP, the pricing MIPs and the selection.
    theta : float
        The sparsity weight θ (the cost of one literal, in misclassified weighted samples).
    n_clauses : int
        The most clauses R of the rule.
    max_iter : int
        The most master LP rounds at each θ.
    settings : CGSettings
        The knobs of column generation (beam, pricing MIP, selection).
    time_limit : float or None, default=None
        Seconds for the whole fit; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    model_hook : callable or None, default=None
        ``model_hook(handle, kind)``, called on the master (``"cg_master"``) and the pricing MIP
        (``"cg_pricing"``) when each is built, before its first solve.

    Returns
    -------
    FitResult
        The clause matrix ``W`` over the working features (with a zero row for the always-true feature
        when ``data.allow_disable``: column generation leaves a clause out instead of disabling it), the
        master's integer objective, the rounds, termination and solver counts.
    """
    path = column_generation_path(
        data, backend, thetas=[theta], n_clauses=[n_clauses], max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return path[(float(theta), int(n_clauses))]


def column_generation_path(
    data: WorkingData,
    backend: Backend,
    *,
    thetas: Sequence[float],
    n_clauses: Sequence[int],
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> dict[tuple[float, int], FitResult]:
    """:func:`column_generation` along a θ path (see :func:`run_column_generation_path`): ``(θ, R) -> FitResult``.

    Parameters
    ----------
    data : WorkingData
        The CNF problem.
    backend : Backend
        Solves the master LP, the pricing MIPs and the selection.
    thetas : sequence of float
        The sparsity weights θ of the path.
    n_clauses : sequence of int
        The numbers of clauses R.
    max_iter : int
        The most rounds at each θ.
    settings : CGSettings
        The knobs of column generation.
    time_limit : float or None, default=None
        Seconds for the whole path; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    model_hook : callable or None, default=None
        Called with each model handle and its kind, once, before its first solve.

    Returns
    -------
    dict
        ``(θ, R) -> FitResult`` for every θ and R.
    """
    if data.max_literals is not None and data.max_literals < settings.max_length:
        settings = replace(settings, max_length=int(data.max_literals))
    columns = _prepare(data)
    runs = run_column_generation_path(
        columns, backend, thetas=thetas, n_clauses=n_clauses, max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return {key: _fit_result(data, run) for key, run in runs.items()}


def _prepare(data: WorkingData) -> ClauseColumns:
    """The clause columns of ``data``'s real features (without the always-true one)."""
    n_real = data.n_features - 1 if data.allow_disable else data.n_features
    A = data.A_binary[:, :n_real] if data.allow_disable else data.A_binary
    return prepare_cg_data(A, data.y, sample_weight=data.weight, feature_cost=data.cost[:n_real])


def _fit_result(data: WorkingData, run: CGRun) -> FitResult:
    """A run's selection as the clause matrix over the working features (a zero row for the always-true one)."""
    W = np.zeros((data.n_features, len(run.selection)))
    for r, k in enumerate(run.selection):
        W[list(run.clauses[k]), r] = 1.0
    return FitResult(
        W=W, objective=run.objective, history=[run.objective], n_iter=run.n_rounds, termination=run.termination,
        n_builds=run.n_builds, n_solves=run.n_solves, solver_seconds=run.solver_seconds,
    )


def run_column_generation(
    columns: ClauseColumns,
    backend: Backend,
    *,
    theta: float,
    n_clauses: int,
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> CGRun:
    """The rounds and the final selection of column generation on prepared ``columns`` (see the module docstring).

    A path of one θ and one R (:func:`run_column_generation_path`).

    Parameters
    ----------
    columns : ClauseColumns
        The grouped rows of the CNF problem (:func:`~rulemodels.models.prepare_cg_data`).
    backend : Backend
        Solves the master LP, the pricing MIPs and the selection.
    theta : float
        The sparsity weight θ (the cost of one literal, in misclassified weighted samples).
    n_clauses : int
        The most clauses R of the rule.
    max_iter : int
        The most master LP rounds at each θ.
    settings : CGSettings
        The knobs of column generation (beam, pricing MIP, selection).
    time_limit : float or None, default=None
        Seconds for the whole run; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    model_hook : callable or None, default=None
        ``model_hook(handle, kind)``, called on the master (``"cg_master"``) and the pricing MIP
        (``"cg_pricing"``) when each is built, before its first solve.

    Returns
    -------
    CGRun
        The clauses generated, the selection among them and the run's counts.
    """
    path = run_column_generation_path(
        columns, backend, thetas=[theta], n_clauses=[n_clauses], max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return path[(float(theta), int(n_clauses))]


def run_column_generation_path(
    columns: ClauseColumns,
    backend: Backend,
    *,
    thetas: Sequence[float],
    n_clauses: Sequence[int],
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> dict[tuple[float, int], CGRun]:
    """Column generation along a θ path: one master, grown from one θ to the next, and a selection per R.

    As a lasso path re-uses its active set, the master built at the first
    (largest) θ is kept for every later one: at each θ only the Param ``θ``
    changes (:meth:`~rulemodels.models.column_generation.CGMaster.set_theta`,
    declared to the backend as new objective coefficients, so a persistent
    backend re-solves in place), the rounds go on from every clause generated
    so far, and then the integer selection is solved once per R of
    ``n_clauses`` (the cap ``R`` changed in place,
    :meth:`~rulemodels.models.column_generation.CGMaster.set_max_clauses`).
    The rounds run with the cap at ``max(n_clauses)``. ``thetas`` are used
    from the largest to the smallest (the sparsest rule first). The master
    is built once for the whole path (``n_builds`` is 1 on the first run of
    the path, 0 after). The result depends only on the arguments: the same
    path gives the same rules, but the rule at one θ of a path may differ
    from a fit at that θ alone, which starts from no clause.

    Parameters
    ----------
    columns : ClauseColumns
        The grouped rows of the CNF problem (:func:`~rulemodels.models.prepare_cg_data`).
    backend : Backend
        Solves the master LP, the pricing MIPs and the selection.
    thetas : sequence of float
        The sparsity weights θ of the path (used from the largest to the smallest).
    n_clauses : sequence of int
        The numbers of clauses R; the rounds run with the cap at the largest.
    max_iter : int
        The most master LP rounds at each θ.
    settings : CGSettings
        The knobs of column generation (beam, pricing MIP, selection).
    time_limit : float or None, default=None
        Seconds for the whole path; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    model_hook : callable or None, default=None
        ``model_hook(handle, kind)``, called on the master (``"cg_master"``) and the pricing MIP
        (``"cg_pricing"``) when each is built, before its first solve.

    Returns
    -------
    dict
        ``(theta, R) -> CGRun`` for every θ and R; each run's counters are those
        of its own rounds and selection.

    Raises
    ------
    ValueError
        If ``thetas`` or ``n_clauses`` is empty.
    """
    values = sorted({float(t) for t in thetas}, reverse=True)
    sizes = sorted({int(r) for r in n_clauses})
    if not values or not sizes:
        raise ValueError("a path needs at least one theta and one n_clauses")
    pool = _ClausePool(
        columns, backend, theta=values[0], n_clauses=sizes[-1], settings=settings, time_limit=time_limit,
        solver_options=solver_options, model_hook=model_hook,
    )
    runs: dict[tuple[float, int], CGRun] = {}
    try:
        for position, theta in enumerate(values):
            if position:
                pool.set_theta(theta)
            pool.grow(max_iter)
            for size in sizes:
                runs[(theta, size)] = pool.select(size)
    finally:
        pool.release()
    return runs


@dataclass
class _Counts:
    """What a pool has done: Pyomo models built, solves and their seconds, master LP rounds."""

    builds: int = 0
    solves: int = 0
    seconds: float = 0.0
    rounds: int = 0

    def since(self, earlier: _Counts) -> _Counts:
        """What was done after ``earlier`` (the counts at that time)."""
        return _Counts(
            builds=self.builds - earlier.builds, solves=self.solves - earlier.solves,
            seconds=self.seconds - earlier.seconds, rounds=self.rounds - earlier.rounds,
        )


class _ClausePool:
    """One restricted master (and, when needed, one pricing MIP) over prepared columns, re-solved in place.

    :meth:`grow` runs the rounds at the current θ, :meth:`select` chooses at
    most R of the generated clauses (with ``selection="mip"`` the master stays
    an integer program until :meth:`grow` makes it the LP again),
    :meth:`set_theta` moves to another θ keeping every clause. A single fit is
    ``grow`` then ``select``; a path repeats them.
    """

    def __init__(
        self, columns: ClauseColumns, backend: Backend, *, theta: float, n_clauses: int, settings: CGSettings,
        time_limit: float | None, solver_options: Mapping[str, Any] | None, model_hook: Callable[[Any, str], Any] | None,
    ) -> None:
        if not backend.capabilities.duals:
            raise ValueError(
                f"column generation prices new clauses with the master LP's duals, which solver '{backend.name}' does not "
                "give (its capabilities.duals is False): use solver='highs', 'cbc' or 'glpk' for this algorithm"
            )
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + float(time_limit)
        self.columns, self.backend, self.settings, self.model_hook = columns, backend, settings, model_hook
        self.theta = float(theta)
        self.max_clauses = int(n_clauses)
        self.options = dict(solver_options or {})
        self.stats = _Counts()
        # the same for every search of the fit
        self.pay_sums = row_sums(columns.pay_absent, columns.pay_weight, copies=AbsentCopies.of(columns.pay_absent))
        self.cover_copies = AbsentCopies.of(columns.cover_absent)
        self.pay_pairs = PairSums(columns.pay_absent, columns.pay_weight)  # likewise
        first = self._search(columns.cover_weight, 0.0, (), settings.columns_per_round)
        self.master = build_cg_master(
            columns, [(), *(clause for _, clause in first)], theta=theta, clause_cost=settings.clause_cost,
            max_clauses=n_clauses, group_rows=columns.cover_rows.shape[0] > settings.group_rows,
        )
        self.stats.builds += 1
        if model_hook is not None:
            model_hook(self.master, "cg_master")
        self.use_mip = columns.n_nonzeros <= settings.pricing_mip_max_nonzeros
        self.pricing_left = int(settings.pricing_mip_solves)
        self.pricing: CGPricing | None = None
        self.pricing_theta: tuple[list[Any], np.ndarray] | None = None  # the z costs of a θ set since the last pricing solve
        self.changes: dict[str, Any] = {}  # what changed in the master since its last solve
        self.integer, self.cap = False, int(n_clauses)  # the master's shape: an LP with the cap of the rounds
        self.termination = Termination.max_iter
        self.lp_objective: float | None = None
        self._reported = _Counts()  # the counts when the last run was returned

    def _solve(self, model: Any, changes: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        if self.deadline is not None and kwargs.get("time_limit") is None:  # every solve within the fit's time limit
            kwargs["time_limit"] = remaining_seconds(self.deadline, None)
        progress = kwargs.pop("progress", None)  # the rest are settings: time_limit, mip_gap
        result = self.backend.solve(
            model, config=SolveConfig(options=self.options, **kwargs), changes=as_model_changes(changes) if changes else None,
            progress=progress,
        )
        self.stats.solves += 1
        self.stats.seconds += result.wall_time
        return result

    def _search(self, mu: np.ndarray, nu: float, exclude: ClauseSet, n_best: int,
                first_width: int = 0) -> list[tuple[float, tuple[int, ...]]]:
        return beam_search(
            self.columns, mu, nu, theta=self.theta, clause_cost=self.settings.clause_cost, width=self.settings.beam_width,
            max_length=self.settings.max_length, exclude=exclude, n_best=n_best, pay_sums=self.pay_sums,
            first_width=first_width, pay_pairs=self.pay_pairs, cover_copies=self.cover_copies,
        )

    def _pending(self, more: Mapping[str, Any]) -> None:
        """Add ``more`` to the master's changes since its last solve (each kind of change at most once)."""
        clash = set(self.changes) & set(more)
        if clash:
            raise RuntimeError(f"two pending changes of the same kind {sorted(clash)}: please report this bug")
        self.changes.update(more)

    def set_theta(self, theta: float) -> None:
        """Move to another θ: the master's and the pricing MIP's objective coefficients change, every clause stays."""
        self.theta = float(theta)
        self._pending(self.master.set_theta(theta))
        if self.pricing is not None:
            self.pricing_theta = self.pricing.set_theta(theta)["objective"]

    def grow(self, max_iter: int) -> str:
        """The rounds at the current θ (at most ``max_iter``): solve the master LP, price, add clauses; the termination."""
        master, columns, settings, deadline = self.master, self.columns, self.settings, self.deadline
        self._shape(integer=False, cap=self.max_clauses)
        termination = Termination.max_iter
        log = IterationLog(logger, "CG", None, max_iter, n_solves=lambda: self.stats.solves, started=self.started)
        best, stalled = math.inf, 0  # the lowest LP objective at this θ, and the LPs since it was last lowered
        wide = columns.n_features if settings.fallback_width is None else settings.fallback_width
        wide_left = settings.fallback_searches if wide > settings.beam_width else 0  # wide searches left at this θ
        for _ in range(max_iter):
            self.stats.rounds += 1
            result = self._solve(master.model, self.changes)
            self.changes = {}
            if deadline is not None and not result.has_solution and result.termination.value == "time_limit":
                termination = Termination.time_limit  # the fit's time limit stopped the LP: select from the clauses so far
                break
            result.raise_for_status("the column generation master LP")
            self.lp_objective = result.objective
            log.iteration(self.stats.rounds, None, self.lp_objective)
            lp = float(result.objective)
            if lp < best - STALL_TOLERANCE * max(1.0, abs(best) if math.isfinite(best) else 0.0):
                best, stalled = lp, 0
            else:
                stalled += 1
                if stalled >= settings.stall_rounds:
                    termination = Termination.no_improvement  # degenerate: the last clauses did not lower the LP
                    break
            mu, nu = master.duals()
            new = self._search(mu, nu, master, settings.columns_per_round)
            if not new and wide_left > 0:  # the narrow beam found none: once more with a wide first level
                wide_left -= 1
                new = self._search(mu, nu, master, settings.columns_per_round, first_width=wide)
            if not new:
                if deadline is not None and time.perf_counter() >= deadline:
                    termination = Termination.time_limit
                    break
                if not self.use_mip or self.pricing_left <= 0:
                    termination = Termination.no_improvement  # the beam found none; optimality over all clauses not proved
                    break
                if self.pricing is None:
                    self.pricing = build_cg_pricing(
                        columns, theta=self.theta, clause_cost=settings.clause_cost, max_length=settings.max_length,
                        aggregate=True,
                    )
                    self.stats.builds += 1
                    if self.model_hook is not None:
                        self.model_hook(self.pricing, "cg_pricing")
                pricing_changes = self.pricing.set_duals(mu, nu)
                if self.pricing_theta is not None:  # θ's new z costs and the duals' new δ costs in one declaration
                    z_vars, z_costs = self.pricing_theta
                    delta, delta_costs = pricing_changes["objective"]
                    pricing_changes = {"objective": ([*z_vars, *delta], np.concatenate([z_costs, delta_costs]))}
                    self.pricing_theta = None
                priced = self._solve(self.pricing.model, pricing_changes)  # to optimality (only a fit's time limit stops it)
                self.pricing_left -= 1
                if priced.has_solution:
                    clause = self.pricing.clause()
                    rc = columns.reduced_cost(clause, mu, nu, self.theta, settings.clause_cost)
                    if rc < -TOLERANCE and clause not in master:
                        new = [(rc, clause)]
                if not new:
                    # proved: no clause improves the LP; else the fit's time limit stopped the search
                    termination = Termination.converged if priced.is_optimal else Termination.no_improvement
                    break
            self._pending(master.add_clauses([clause for _, clause in new]))
            if deadline is not None and time.perf_counter() >= deadline:
                termination = Termination.time_limit
                break
        log.close(termination)
        self.termination = termination
        return termination

    def _shape(self, *, integer: bool, cap: int) -> None:
        """Make the master an integer program or an LP, with the cap ``R``; pending changes only for what differs."""
        if integer != self.integer:
            self._pending(self.master.set_integer(integer))
            self.integer = integer
        if cap != self.cap:
            self._pending(self.master.set_max_clauses(cap))
            self.cap = cap

    def select(self, n_clauses: int) -> CGRun:
        """The integer selection of at most ``n_clauses`` clauses at the current θ, as a :class:`CGRun`.

        The master stays an integer program with that cap until :meth:`grow`
        makes it the LP again (with the changes declared for its next solve).
        """
        master, columns, settings = self.master, self.columns, self.settings

        def integer_program() -> dict[str, Any]:
            self._shape(integer=True, cap=n_clauses)
            changes, self.changes = self.changes, {}
            return changes

        selection = select_clauses(
            master, columns, self._solve, self.theta, settings, self.deadline, n_clauses, integer_program,
        )[:n_clauses]
        objective = columns.objective([master.clauses[k] for k in selection], self.theta, settings.clause_cost)
        logger.info(
            "CG: %d rounds (%s), %d clauses generated, LP %.6g, selected %d clause(s), objective %.6g",
            self.stats.rounds - self._reported.rounds, self.termination, len(master.clauses),
            self.lp_objective if self.lp_objective is not None else float("nan"), len(selection), objective,
        )
        counts = self.stats.since(self._reported)
        self._reported = replace(self.stats)
        return CGRun(
            clauses=list(master.clauses), selection=selection, objective=objective, lp_objective=self.lp_objective,
            termination=self.termination, n_rounds=counts.rounds, n_builds=counts.builds,
            n_solves=counts.solves, solver_seconds=counts.seconds,
        )

    def release(self) -> None:
        self.backend.release(self.master.model)
        if self.pricing is not None:
            self.backend.release(self.pricing.model)


