"""The clause engine: one fit's access to the persistent one-level clause LPs of an LP-solution cache.

Every driver (set covering, BCD, AM) learns clauses by re-solving the same
one-level clause LP (eqs. (2.1) OneLevelFormulation - (2.4) OneLevelFormulationWj)
with different sample weights: weight 0 removes a sample (``v_ir = DC`` in eq.
(3.12) HammingFormulationBothVW). :class:`ClauseEngine` is one fit's view of a
:class:`~rulemodels.algorithms.lp_cache.LPSolutionCache`: it looks an LP
up by its content (θ, feature costs, sample weights, formulation, solver
options) among the solutions the cache holds, and otherwise changes the
cache's persistent model in place (:meth:`~rulemodels.models.ClauseLP.set_sample_weight`,
:meth:`~rulemodels.models.ClauseLP.set_theta`) and re-solves it, declaring the new
numbers to the backend (:meth:`~rulemodels.models.ClauseLP.parameter_changes`) so that
a backend with in-place updates pushes just those.

Every solve starts cold (``warm_start=False``): the LP solution is then a
function of the LP alone, never of the solves before it, in this fit or in
any other fit on the cache. Degenerate clause LPs have many optimal
vertices, and which one the solver returns changes the learned rule, so this
is what makes a stored solution exactly what a fresh solve would return. It
costs little: on the BCD and AM re-solve sequences of Pima, cold HiGHS solves
(presolve off) take about as long on average as warm ones
(``benchmarks/bench_resolve.py``), because successive LPs differ a lot.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulemodels.algorithms.data import ALWAYS_TRUE, WorkingData
from rulemodels.algorithms.lp_cache import LPSolutionCache, lp_digest
from rulemodels.algorithms.rounding import limit_literals, simple_binarize
from solvers import ModelChanges, NewColumns, NewRows, SolveConfig, TerminationCondition

logger = logging.getLogger(__name__)

__all__ = ["ALWAYS_TRUE", "ClauseEngine", "EngineStats", "SolveBudgetExceeded", "WorkingData", "as_model_changes"]


class SolveBudgetExceeded(Exception):
    """The fit's time limit was reached; drivers stop and keep their best rule."""


@dataclass
class EngineStats:
    """Counters of one fit.

    ``n_repeats`` counts LPs this fit met again; ``n_shared`` the LPs
    (or set-covering clauses) that earlier fits on the same cache had
    already solved. Their sum is a fit's ``n_reused``.

    Parameters
    ----------
    n_builds : int, default=0
        Models built.
    n_solves : int, default=0
        LPs solved.
    n_repeats : int, default=0
        LPs this fit met again.
    n_shared : int, default=0
        LPs (or set-covering clauses) earlier fits on the same cache had already solved.
    solver_seconds : float, default=0.0
        Wall time of the solves.
    statuses : dict of str to int, default={}
        How many solves ended with each termination condition.
    """

    n_builds: int = 0
    n_solves: int = 0
    n_repeats: int = 0
    n_shared: int = 0
    solver_seconds: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)


class ClauseEngine:
    """Learn one clause at a time from the cache's clause LPs.

    Parameters
    ----------
    cache : LPSolutionCache
        The data, persistent models and stored solutions shared with other fits.
    theta : float
        Sparsity weight θ of the fit's clause LPs.
    binarization : {"redundancy_aware", "simple"}
    threshold : float
        Threshold of the simple binarization.
    time_limit : float, optional
        Seconds for the whole fit; past it :class:`SolveBudgetExceeded` is raised.
    solver_options : mapping, optional
        Passed to every ``backend.solve`` (and part of every LP's key).
    formulation : {"auto", "primal", "dual"}
        Which side of the clause LP to solve
        (:func:`~rulemodels.algorithms.lp_cache.choose_formulation`).

    Raises
    ------
    ValueError
        If ``binarization`` is not ``'redundancy_aware'`` or ``'simple'``.
    """

    def __init__(
        self,
        cache: LPSolutionCache,
        *,
        theta: float,
        binarization: str = "redundancy_aware",
        threshold: float = 0.2,
        time_limit: float | None = None,
        solver_options: Mapping[str, Any] | None = None,
        formulation: str = "auto",
    ):
        if binarization not in ("redundancy_aware", "simple"):
            raise ValueError(f"binarization must be 'redundancy_aware' or 'simple', got {binarization!r}")
        self.cache = cache
        self.data: WorkingData = cache.data
        self.backend = cache.backend
        self.theta = float(theta)
        self.binarization = binarization
        self.threshold = threshold
        self.solver_options = dict(solver_options or {})
        self.formulation = cache.formulation(formulation)
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.stats = EngineStats()
        self._seen: dict[bytes, np.ndarray] = {}
        self._prepared: set[int] = set()  # the clause LPs this fit has set θ and the feature costs on
        self._lp_prefix = (
            self.formulation.encode()
            + repr(sorted(self.solver_options.items())).encode()
            + np.float64(self.theta).tobytes()
            + cache.cost_bytes
        )
        self._method = "redundancy_aware" if binarization == "redundancy_aware" else f"simple:{threshold!r}"
        self._rounder = cache.rounder() if binarization == "redundancy_aware" else None
        self._solver_independent = bool(self.data.tie_break.any())

    @property
    def chain_key(self) -> bytes:
        """The key of this fit's set-covering chain in the cache (LP identity + binarization)."""
        return lp_digest(self._lp_prefix, self._method.encode())

    def remaining_time(self) -> float | None:
        """Return the seconds left of the fit's time limit (None without a limit).

        Returns
        -------
        float or None
            The seconds left, or None when the fit has no time limit.

        Raises
        ------
        SolveBudgetExceeded
            If the time limit has been reached.
        """
        if self.deadline is None:
            return None
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise SolveBudgetExceeded("time limit reached")
        return remaining

    def learn(self, slot: int, weight: np.ndarray) -> np.ndarray:
        """The binary clause (d,) learned with sample weights ``weight`` (for clause ``slot``).

        Parameters
        ----------
        slot : int
            The index of the clause being learned.
        weight : numpy.ndarray of shape (n,)
            The sample weights of the clause LP.

        Returns
        -------
        ndarray of shape (d,)
            The binary clause.
        """
        weight_key = np.round(weight, 12).tobytes()
        seen = self._seen.get(weight_key)
        if seen is not None:
            self.stats.n_repeats += 1
            return seen.copy()
        if self.formulation == "cuts":  # this fit's own master: nothing shared with other fits (ClauseCutLP)
            own = self.binarize(self._solve_by_cuts(weight), weight)
            self._seen[weight_key] = own
            return own.copy()
        lp_key = lp_digest(self._lp_prefix, weight_key)
        cache = self.cache
        clause = cache.clause(lp_key, self._method)
        if clause is None:
            w_lp = cache.solution(lp_key)
            if w_lp is None:
                w_lp = self._solve(slot, weight)
                cache.store_solution(lp_key, w_lp)
            else:
                self.stats.n_shared += 1
            clause = self.binarize(w_lp, weight)
            cache.store_clause(lp_key, self._method, clause)
        else:
            self.stats.n_shared += 1
        self._seen[weight_key] = clause
        return clause.copy()

    def _solve(self, slot: int, weight: np.ndarray) -> np.ndarray:
        """Solve the clause LP with sample weights ``weight`` from scratch; its solution w."""
        lp, built = self.cache.clause_model(self.formulation, self.theta, weight)
        if built:
            self.stats.n_builds += 1
            changes = lp.parameter_changes()
            self._prepared.add(id(lp))
        else:
            self._own(lp)
            # c and ε as set by _own: this fit owns the model
            changes = lp.reweight(weight, feature_cost=self.data.cost, tie_break=self.data.tie_break)
        if lp.dual and not self.backend.capabilities.duals:
            raise ValueError(
                f"the dual clause LP reads its w from LP duals, which solver '{self.backend.name}' does not give "
                "(its capabilities.duals is False): use solver='highs', 'cbc' or 'glpk'"
            )
        # w is read from the result (primal) or the dual Suffix (dual), not from loaded variables
        result = self._run(lp.model, ModelChanges(**changes), warm_start=False, what=f"the clause LP (clause {slot + 1})")
        if lp.dual:
            return lp.weights()
        return result.values(lp.w_vars)

    def _own(self, lp: Any) -> None:
        """Set this fit's θ on a cached clause-LP handle, and once per fit its costs ``c`` and ``ε``.

        Another fit on the cache may have solved it with its own θ; the costs
        are the cache's data's, set once per fit (a user may change them).
        """
        if lp.theta != self.theta:
            lp.set_theta(self.theta)
        if id(lp) not in self._prepared:
            lp.set_feature_cost(self.data.cost)
            lp.set_tie_break(self.data.tie_break)
            self._prepared.add(id(lp))

    def _run(self, model: Any, changes: ModelChanges | None, *, warm_start: bool, what: str) -> Any:
        """One backend solve of ``model`` within the fit's time, counted in :attr:`stats`; its result (or an error)."""
        config = SolveConfig(time_limit=self.remaining_time(), options=self.solver_options, warm_start=warm_start)
        start = time.perf_counter()
        result = self.backend.solve(model, config=config, changes=changes, load=())
        self.stats.solver_seconds += time.perf_counter() - start
        self.stats.n_solves += 1
        self.stats.statuses[result.termination.value] = self.stats.statuses.get(result.termination.value, 0) + 1
        if result.termination is TerminationCondition.time_limit:
            raise SolveBudgetExceeded("time limit reached inside a clause LP")
        result.raise_for_status(what)
        return result

    def lp_solution(self, weight: np.ndarray) -> np.ndarray:
        """The clause LP's solution ``w`` (d,) with sample weights ``weight``, before binarization (nothing stored).

        Parameters
        ----------
        weight : numpy.ndarray of shape (n,)
            The sample weights of the clause LP.

        Returns
        -------
        ndarray of shape (d,)
            The LP solution ``w``.
        """
        if self.formulation == "cuts":
            return self._solve_by_cuts(weight)
        return self._solve(0, weight)

    def _solve_by_cuts(self, weight: np.ndarray) -> np.ndarray:
        """Solve the clause LP with sample weights ``weight`` by cutting planes on this fit's master (its w).

        Each master solve after the first of a re-weighting is warm (it differs
        by one cut); the loop ends when the master's hinge equals the true
        hinge sums (:meth:`~rulemodels.models.clause_cuts.ClauseCutLP.add_cuts`).
        """
        lp, built = self.cache.cut_model(self, self.theta)
        if built:
            self.stats.n_builds += 1
        self._own(lp)
        lp.reweight(weight)
        fields: dict[str, Any] | None = None  # the first round reads the master afresh (its old cuts were deleted)
        while True:
            result = self._run(
                lp.model, None if fields is None else as_model_changes(fields), warm_start=fields is not None,
                what="the clause LP's cutting-plane master",
            )
            w = np.clip(result.values(lp.w_vars), 0.0, 1.0)
            cut = lp.add_cuts(w, result.values(lp.taus))
            if cut is None:
                return w
            fields = cut

    def binarize(self, w_lp: np.ndarray, weight: np.ndarray) -> np.ndarray:
        """Binarize an LP clause with the chosen method (scored by the one-level objective).

        Parameters
        ----------
        w_lp : numpy.ndarray of shape (d',)
            The clause LP's fractional solution.
        weight : numpy.ndarray of shape (n,)
            The sample weights that score the candidates.

        Returns
        -------
        ndarray of shape (d,)
            The binary clause.
        """
        snap_noise = self._solver_independent  # with the tie-break: snap solver noise away too (docs/solvers.md)
        if self._rounder is None:
            clause = simple_binarize(w_lp, self.threshold, snap_noise=snap_noise)
        else:
            clause = self._rounder.binarize(w_lp, self._one_level_cost(weight), snap_noise=snap_noise)
        # max_literals_per_clause again at rounding: the LP's Σ_j w_j ≤ k does not bound a rounded clause
        return limit_literals(clause, w_lp, self.data.max_literals, self.data.n_literals)

    def _one_level_cost(self, weight: np.ndarray):
        """``cost(current, cols, options)``: Σ_{y=1} ω max(0, 1 − S) + Σ_{y=0} ω S + θ c·w per candidate.

        ``S_i = Σ_j a_ij w_j`` is split into the part of the columns that
        stay (computed once per call, from the nonzero entries only) and the
        part of the candidate columns.
        """
        active = weight > 0
        positive = self.data.y == 1
        A = self.data.A
        # the rows by index: each call gathers only the columns it needs (the same numbers as slicing a copy of the
        # active rows, which at 1,000,000 rows cost a second dense matrix)
        rows_pos, rows_neg = np.flatnonzero(active & positive), np.flatnonzero(active & ~positive)
        omega_pos, omega_neg = weight[rows_pos], weight[rows_neg]
        cost_vector = self.data.cost
        theta = self.theta

        def cost(current: np.ndarray, columns: np.ndarray, options: np.ndarray) -> np.ndarray:
            support = current != 0
            support[columns] = False
            kept = current[support]
            kept_columns = np.flatnonzero(support)
            sparsity = theta * (cost_vector[support] @ kept + cost_vector[columns] @ options)
            if (rows_pos.shape[0] + rows_neg.shape[0]) * options.shape[1] > COST_BLOCK_CELLS:
                return _blocked_cost(A, rows_pos, rows_neg, omega_pos, omega_neg, kept_columns, kept, columns, options) + sparsity
            positive_sums = (A[np.ix_(rows_pos, kept_columns)] @ kept)[:, None] + A[np.ix_(rows_pos, columns)] @ options
            negative_sums = (A[np.ix_(rows_neg, kept_columns)] @ kept)[:, None] + A[np.ix_(rows_neg, columns)] @ options
            hinge = omega_pos @ np.maximum(0.0, 1.0 - positive_sums)
            linear = omega_neg @ negative_sums
            return hinge + linear + sparsity

        return cost


#: Above this many (row, option) cells the rounding scores its options a block of rows at a time, so that it never
#: holds a rows x options matrix (at 1,000,000 rows and 1,024 options: 8 GB). Below it (every bundled dataset) the
#: one-matrix form is kept, whose sums are the ones every earlier result was computed with.
COST_BLOCK_CELLS = 1 << 24


def _blocked_cost(
    A: np.ndarray, rows_pos: np.ndarray, rows_neg: np.ndarray, omega_pos: np.ndarray, omega_neg: np.ndarray,
    kept_columns: np.ndarray, kept: np.ndarray, columns: np.ndarray, options: np.ndarray,
) -> np.ndarray:
    """Σ_{y=1} ω max(0, 1 − S) + Σ_{y=0} ω S per option, summed over blocks of rows (the same costs up to rounding)."""
    block = max(1, COST_BLOCK_CELLS // (4 * max(1, options.shape[1])))
    total = np.zeros(options.shape[1])
    for start in range(0, rows_pos.shape[0], block):
        rows = rows_pos[start:start + block]
        sums = (A[np.ix_(rows, kept_columns)] @ kept)[:, None] + A[np.ix_(rows, columns)] @ options
        total += omega_pos[start:start + block] @ np.maximum(0.0, 1.0 - sums)
    for start in range(0, rows_neg.shape[0], block):
        rows = rows_neg[start:start + block]
        weights = omega_neg[start:start + block]
        total += weights @ (A[np.ix_(rows, kept_columns)] @ kept) + (weights @ A[np.ix_(rows, columns)]) @ options
    return total


def as_model_changes(changes: Mapping[str, Any]) -> ModelChanges:
    """The :class:`solvers.ModelChanges` of a model handle's dict (its new columns and rows as the backend's types).

    The model handles (``models``) return plain dicts, so that they need not import the solvers layer; the
    engine and column generation turn them into the backend's types here.

    Parameters
    ----------
    changes : mapping of str to object
        The keyword arguments of :class:`solvers.ModelChanges`, ``new_columns`` and ``new_rows`` (when present)
        as dicts of the keyword arguments of :class:`solvers.NewColumns` and :class:`solvers.NewRows`.

    Returns
    -------
    solvers.ModelChanges
        The same changes, the new columns and rows as :class:`solvers.NewColumns` and :class:`solvers.NewRows`.
    """
    fields = dict(changes)
    if "new_columns" in fields:
        fields["new_columns"] = NewColumns(**fields["new_columns"])
    if "new_rows" in fields:
        fields["new_rows"] = NewRows(**fields["new_rows"])
    return ModelChanges(**fields)
