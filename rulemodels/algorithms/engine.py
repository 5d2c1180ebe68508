"""The clause engine: persistent one-level clause LPs re-solved by the drivers.

Every driver (set covering, BCD, AM) learns clauses by re-solving the same
one-level clause LP (eqs. OneLevelFormulation-Wj) with different sample
weights: weight 0 removes a sample (``v_ir = DC`` in eq.
HammingFormulationBothVW). :class:`ClauseEngine` builds the model once per fit
(one per clause slot when solves keep their warm start), and afterwards only
changes its mutable Params (:func:`~rulemodels.models.set_sample_weight`)
and re-solves it with the backend it was handed; a persistent backend pushes
just those changes. Identical LPs (same θ, same weights) recur often in BCD
and AM, so solutions are cached.

Every solve starts cold when the backend allows it (``discard_warm_start``):
the LP solution is then a function of the LP alone, never of the solves
before it. Degenerate clause LPs have many optimal vertices, and which one
the solver returns changes the learned rule, so this is what makes a fit's
result independent of what was solved before, and what lets fits share
solutions (:mod:`rulemodels.algorithms.pool`). It costs little: on the BCD
and AM re-solve sequences of Pima, cold HiGHS solves (presolve off) take
about as long on average as warm ones (``benchmarks/bench_resolve.py``).

For tall data (many more positive samples than features) the engine builds
the LP dual of the clause LP instead (:func:`choose_formulation`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import scipy.sparse as sp

from rulemodels.algorithms.pool import PoolEntry, can_start_cold, start_cold
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer, simple_binarize
from rulemodels.models import (
    build_clause_dual_lp,
    build_clause_lp,
    clause_weights,
    set_feature_cost,
    set_sample_weight,
    set_theta,
)
from rulemodels.models.problem import CNFProblem
from solvers import Backend, TerminationCondition

logger = logging.getLogger(__name__)

__all__ = ["ClauseEngine", "EngineStats", "SolveBudgetExceeded", "WorkingData"]

ALWAYS_TRUE = "__always_true__"

DUAL_MIN_POSITIVES = 5_000
"""``formulation="auto"`` solves the dual clause LP from this many positive samples ..."""
DUAL_POSITIVES_PER_FEATURE = 10
"""... when they are also at least this many times the number of features."""


def choose_formulation(formulation: str, n_positives: int, n_features: int) -> str:
    """``"primal"`` or ``"dual"``: which side of the clause LP the engine builds.

    ``"auto"`` picks the dual (:func:`~rulemodels.models.build_clause_dual_lp`,
    d rows) for tall data, where the primal's one row per positive sample
    makes every solve slow: at 100,000 samples × 144 features an AM fit took
    140 s instead of 500 s (``benchmarks/bench_scaling.py``). Both have the
    same optimum; degenerate LPs may return a different optimal vertex.
    """
    if formulation not in ("auto", "primal", "dual"):
        raise ValueError(f"formulation must be 'auto', 'primal' or 'dual', got {formulation!r}")
    if formulation != "auto":
        return formulation
    tall = n_positives >= DUAL_MIN_POSITIVES and n_positives >= DUAL_POSITIVES_PER_FEATURE * n_features
    return "dual" if tall else "primal"


class SolveBudgetExceeded(Exception):
    """The fit's time limit was reached; drivers stop and keep their best rule."""


@dataclass
class EngineStats:
    """Counters of one fit."""

    n_builds: int = 0
    n_solves: int = 0
    n_cache_hits: int = 0
    n_pool_hits: int = 0
    solver_seconds: float = 0.0
    statuses: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class WorkingData:
    """The CNF problem as the drivers see it: dense float matrix, labels, weights, costs.

    With ``allow_disable`` the always-true feature ``a_i0 = 1`` is the last
    column (paper section 3), with cost ``disable_cost``.
    """

    A: np.ndarray
    y: np.ndarray
    weight: np.ndarray
    cost: np.ndarray
    groups: tuple[str, ...]
    allow_disable: bool

    @classmethod
    def from_problem(cls, problem: CNFProblem, *, allow_disable: bool = False, disable_cost: float = 0.5) -> "WorkingData":
        A = problem.A.toarray().astype(float)
        cost = np.ones(A.shape[1])
        groups = [literal.feature for literal in problem.literals]
        if allow_disable:
            A = np.hstack([A, np.ones((A.shape[0], 1))])
            cost = np.append(cost, disable_cost)
            groups.append(ALWAYS_TRUE)
        return cls(A, problem.y.astype(int), problem.sample_weight.astype(float), cost, tuple(groups), allow_disable)

    @property
    def n_features(self) -> int:
        return int(self.A.shape[1])

    def split(self, W: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """``(W over the real features, w0 or None)`` from a (d [+1], R) matrix."""
        if self.allow_disable:
            return W[:-1], W[-1]
        return W, None


def _distinct_positives(data: WorkingData) -> int:
    """Number of distinct positive rows: the clause LP merges identical ones into one row."""
    positives = data.A[data.y == 1]
    if positives.shape[0] < DUAL_MIN_POSITIVES:  # too few for the dual anyway: skip the count
        return positives.shape[0]
    packed = np.packbits(positives != 0, axis=1)
    return int(np.unique(packed, axis=0).shape[0])


class ClauseEngine:
    """Learn one clause at a time from re-solved persistent clause LPs.

    Parameters
    ----------
    data : WorkingData
    backend : Backend
        Solves every LP; persistent backends re-use each slot's solver instance.
    theta : float
    n_slots : int
        Number of clauses; one persistent model each, or one shared by all
        when solves start cold (see :meth:`_model`).
    binarization : {"redundancy_aware", "simple"}
    threshold : float
        Threshold of the simple binarization.
    time_limit : float, optional
        Seconds for the whole fit; past it :class:`SolveBudgetExceeded` is raised.
    solver_options : mapping, optional
        Passed to every ``backend.solve``.
    formulation : {"auto", "primal", "dual"}
        Which side of the clause LP to build (:func:`choose_formulation`).
    pool : PoolEntry, optional
        Models and cold-solve solutions shared with earlier fits on the same
        data (:mod:`rulemodels.algorithms.pool`); ``ModelPool.entry`` gives
        None for a backend whose warm starts cannot be dropped, so that a
        fit's result never depends on earlier fits.
    """

    def __init__(
        self,
        data: WorkingData,
        backend: Backend,
        *,
        theta: float,
        n_slots: int,
        binarization: str = "redundancy_aware",
        threshold: float = 0.2,
        time_limit: float | None = None,
        solver_options: Mapping[str, Any] | None = None,
        formulation: str = "auto",
        pool: PoolEntry | None = None,
    ):
        if binarization not in ("redundancy_aware", "simple"):
            raise ValueError(f"binarization must be 'redundancy_aware' or 'simple', got {binarization!r}")
        self.data = data
        self.backend = backend
        self.theta = float(theta)
        self.binarization = binarization
        self.threshold = threshold
        self.solver_options = dict(solver_options or {})
        self.formulation = choose_formulation(formulation, _distinct_positives(data), data.n_features)
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.stats = EngineStats()
        self._models: list[Any] = [None] * n_slots
        self._cold = can_start_cold(backend)
        self._cache: dict[bytes, np.ndarray] = {}
        self._pool = pool
        self._lp_prefix = (
            self.formulation.encode()
            + repr(sorted(self.solver_options.items())).encode()
            + np.float64(self.theta).tobytes()
            + np.ascontiguousarray(data.cost, dtype=np.float64).tobytes()
        )
        self._rounder = self._redundancy_aware_binarizer() if binarization == "redundancy_aware" else None

    def _redundancy_aware_binarizer(self) -> RedundancyAwareBinarizer:
        """The data's binarizer, shared through the pool with earlier fits on the same data."""
        key = (self.data.groups, self.data.allow_disable)
        rounder = self._pool.rounders.get(key) if self._pool is not None else None
        if rounder is None:
            rounder = RedundancyAwareBinarizer(self.data.A, self.data.groups, allow_disable=self.data.allow_disable)
            if self._pool is not None:
                self._pool.rounders[key] = rounder
        return rounder

    def _model(self, slot: int, weight: np.ndarray) -> Any:
        """The persistent clause LP that learns clause ``slot``, with weights ``weight`` pushed.

        When every solve starts cold, a model keeps nothing from one solve to
        the next, so all clause slots share one model: one build (and one
        solver instance) per fit instead of R. Otherwise each slot keeps its
        own model, and so its own warm start.
        """
        slot = 0 if self._cold else slot
        model = self._models[slot]
        if model is not None:
            set_sample_weight(model, weight)
            return model
        pool_key = (self.formulation, slot)
        model = self._pool.models.get(pool_key) if self._pool is not None else None
        if model is None:
            build = build_clause_dual_lp if self.formulation == "dual" else build_clause_lp
            model = build(
                sp.csr_matrix(self.data.A), self.data.y, theta=self.theta, sample_weight=weight, feature_cost=self.data.cost
            )
            self.stats.n_builds += 1
            if self._pool is not None:
                self._pool.models[pool_key] = model
        else:
            set_theta(model, self.theta)
            set_feature_cost(model, self.data.cost)
            set_sample_weight(model, weight)
        self._models[slot] = model
        return model

    def remaining_time(self) -> float | None:
        if self.deadline is None:
            return None
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise SolveBudgetExceeded("time limit reached")
        return remaining

    def learn(self, slot: int, weight: np.ndarray) -> np.ndarray:
        """The binary clause (d,) learned with sample weights ``weight`` in model ``slot``."""
        key = np.round(weight, 12).tobytes()
        cached = self._cache.get(key)
        if cached is not None:
            self.stats.n_cache_hits += 1
            return cached.copy()
        shared_key = self._lp_prefix + key if self._pool is not None else None
        w_lp = self._pool.recall(shared_key) if shared_key is not None else None
        if w_lp is not None:
            self.stats.n_pool_hits += 1
        else:
            w_lp = self._solve(slot, weight)
            if shared_key is not None:
                self._pool.remember(shared_key, w_lp)
        clause = self.binarize(w_lp, weight)
        self._cache[key] = clause
        return clause.copy()

    def _solve(self, slot: int, weight: np.ndarray) -> np.ndarray:
        """Re-solve slot ``slot`` with sample weights ``weight``; the LP solution w."""
        model = self._model(slot, weight)
        if self._cold:
            start_cold(self.backend, model)
        start = time.perf_counter()
        # The drivers change nothing but Params (weights, θ, costs) between solves.
        result = self.backend.solve(model, time_limit=self.remaining_time(), options=self.solver_options, params_only=True)
        self.stats.solver_seconds += time.perf_counter() - start
        self.stats.n_solves += 1
        self.stats.statuses[result.termination.value] = self.stats.statuses.get(result.termination.value, 0) + 1
        if result.termination is TerminationCondition.time_limit:
            raise SolveBudgetExceeded("time limit reached inside a clause LP")
        result.raise_for_status(f"the clause LP (clause {slot + 1})")
        return clause_weights(model)

    def binarize(self, w_lp: np.ndarray, weight: np.ndarray) -> np.ndarray:
        """Binarize an LP clause with the chosen method (scored by the one-level objective)."""
        if self._rounder is None:
            return simple_binarize(w_lp, self.threshold)
        return self._rounder.binarize(w_lp, self._one_level_cost(weight))

    def _one_level_cost(self, weight: np.ndarray):
        """``cost(W, cols)`` = Σ_{y=1} ω max(0, 1 − S) + Σ_{y=0} ω S + θ c·w for candidate clauses."""
        active = weight > 0
        A = self.data.A[active]
        omega = weight[active]
        positive = self.data.y[active] == 1
        cost_vector = self.data.cost
        theta = self.theta

        def cost(candidates: np.ndarray, columns: np.ndarray) -> np.ndarray:
            others = np.ones(candidates.shape[0], dtype=bool)
            others[columns] = False
            fixed = A[:, others] @ candidates[others, 0]
            sums = fixed[:, None] + A[:, columns] @ candidates[columns, :]
            hinge = np.maximum(0.0, 1.0 - sums[positive]).T @ omega[positive]
            linear = sums[~positive].T @ omega[~positive]
            return hinge + linear + theta * (cost_vector @ candidates)

        return cost
