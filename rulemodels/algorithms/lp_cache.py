"""The LP-solution cache: the work every fit on one binary training problem shares, held by one explicit object.

A cross-validation sweep, :class:`~rulemodels.BooleanRuleCV` and
``form="auto"`` fit the same training data dozens of times (every θ, R and
algorithm). Those fits solve the same one-level clause LPs (eqs. (2.1)
OneLevelFormulation - (2.4) OneLevelFormulationWj) on the same binary data, with only θ and the sample
weights changing, and they all start from the same set-covering clauses.
:class:`LPSolutionCache` is built once per (binary data, form) and handed
to every driver run on it; it holds

- the working data (dense matrix, labels, weights, costs) and the
  redundancy-aware binarizer of that data (paper section "Redundancy Aware
  Binarization"; 0.13 s to build on Sonar);
- one persistent clause LP per formulation (primal or dual) and the TLP
  relaxation of the most recent R, each built once and re-solved in place
  on the cache's backend (mutable Params changed, the new numbers pushed
  as :class:`~solvers.ModelChanges`);
- the solution of every clause LP solved so far, keyed by the LP's content
  (formulation, solver options, θ, feature costs, sample weights), and the
  binary clause each binarization method made of it;
- the set-covering clauses learned so far per θ and binarization (the first
  r clauses are the same for every R >= r).

**Results depend only on a fit's inputs.** Every clause-LP solve starts cold
(``warm_start=False``): its solution is a function of the LP alone, which is
what makes a stored solution exactly what a fresh solve would return, in any
order of fits. A cache never changes what a fit learns, only how much
work it repeats; ``tests/algorithms/test_workspace.py`` checks this.

Its lifetime is explicit: use it as a context manager (or call
:meth:`LPSolutionCache.close`), which releases the solver instances its
models hold on the backend. Only its methods read or write what it stores.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr import identify_variables

from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer
from rulemodels.models import (
    ClauseLP,
    TwoLevelModel,
    build_clause_dual_lp,
    build_clause_lp,
    build_zero_one,
    unique_rows,
)
from rulemodels.models.clause_cuts import ClauseCutLP, build_clause_cut_lp
from solvers import Backend

logger = logging.getLogger(__name__)

K = TypeVar("K")
H = TypeVar("H", ClauseCutLP, TwoLevelModel)  # a model the cache keeps one of at a time

__all__ = ["CUTS_MIN_POSITIVES", "LPSolutionCache", "SetCoverChain", "choose_formulation", "lp_digest"]

DUAL_MIN_POSITIVES = 5_000
"""``formulation="auto"`` solves the dual clause LP from this many positive samples ..."""
DUAL_POSITIVES_PER_FEATURE = 10
"""... when they are also at least this many times the number of features."""
CUTS_MIN_POSITIVES = 20_000
"""``formulation="auto"`` solves tall clause LPs by cutting planes (:mod:`rulemodels.models.clause_cuts`) from this
many distinct positive samples. An AM fit (R=3) on 100,000 rows took 4.6 s (DNF) and 9.5 s (CNF) instead of the
dual's 51 s and 29 s on ``make_rule_data(kind="numeric")`` (44,000 and 56,000 positive rows), and 26 s instead of
102 s (DNF) on resampled Pima rows; on 20,000 resampled Pima rows (13,000 positive rows) the two were level
(dual 4.3 s, cuts 4.7 s with 16 groups)."""


def choose_formulation(formulation: str, n_positives: int, n_features: int) -> str:
    """``"primal"``, ``"dual"`` or ``"cuts"``: which form of the clause LP to build.

    ``"auto"`` picks the dual (:func:`~rulemodels.models.build_clause_dual_lp`,
    d rows) for tall data, where the primal's one row per positive sample
    makes every solve slow: at 100,000 samples × 144 features an AM fit took
    140 s instead of 500 s (``benchmarks/bench_scaling.py``). Both have the
    same optimum; degenerate LPs may return a different optimal vertex. From
    :data:`CUTS_MIN_POSITIVES` distinct positive samples it picks ``"cuts"``,
    the clause LP by cutting planes
    (:func:`~rulemodels.models.clause_cuts.build_clause_cut_lp`): a master of
    d + K columns and a few rows per round whatever n is (``docs/benchmarks.md``).

    Parameters
    ----------
    formulation : {"auto", "primal", "dual", "cuts"}
        The requested formulation; any but ``"auto"`` is returned as it is.
    n_positives : int
        The number of distinct positive samples.
    n_features : int
        The number of features d.

    Returns
    -------
    str
        ``"primal"``, ``"dual"`` or ``"cuts"``.

    Raises
    ------
    ValueError
        If ``formulation`` is not one of ``'auto'``, ``'primal'``, ``'dual'``, ``'cuts'``.
    """
    if formulation not in ("auto", "primal", "dual", "cuts"):
        raise ValueError(f"formulation must be 'auto', 'primal', 'dual' or 'cuts', got {formulation!r}")
    if formulation != "auto":
        return formulation
    tall = n_positives >= DUAL_MIN_POSITIVES and n_positives >= DUAL_POSITIVES_PER_FEATURE * n_features
    if tall and n_positives >= CUTS_MIN_POSITIVES:
        return "cuts"
    return "dual" if tall else "primal"


def lp_digest(*parts: bytes) -> bytes:
    """A 16-byte digest of an LP's content (the parts are the bytes that define it).

    Parameters
    ----------
    *parts : bytes
        The bytes that define the LP, in a fixed order.

    Returns
    -------
    bytes
        The 16-byte digest.
    """
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part)
    return digest.digest()


@dataclass
class SetCoverChain:
    """The set-covering clauses learned so far for one (θ, binarization, solver options).

    Set covering for R clauses uses the first R, so a fit with a larger R
    extends the chain and a smaller R only reads it.

    Parameters
    ----------
    clauses : list of numpy.ndarray of shape (d',), default=[]
        ``clauses[r]`` is clause r's 0/1 weights over the working features, in the order learned.
    """

    clauses: list[np.ndarray] = field(default_factory=list)


class _ClosedOnExit:
    """A holder of solver instances that ``close()`` releases, and a context manager that closes it on exit
    (:class:`LPSolutionCache`, :class:`~rulemodels.TrainingWorkspace`)."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Holder) -> _Holder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_Holder = TypeVar("_Holder", bound=_ClosedOnExit)


class LPSolutionCache(_ClosedOnExit):
    """Shared work of every fit on one binary training problem (see the module docstring).

    Parameters
    ----------
    data : WorkingData
        The CNF problem as the drivers see it.
    backend : Backend
        Solves every LP of the cache; its persistent instances are
        released by :meth:`close`.
    model_hook : callable, optional
        Called as ``model_hook(handle, kind)`` on every model the cache builds, before its first solve.

    Examples
    --------
    >>> from rulemodels.algorithms import LPSolutionCache, WorkingData, learn     # doctest: +SKIP
    >>> with LPSolutionCache(WorkingData.from_problem(problem), backend) as cache:  # doctest: +SKIP
    ...     results = [learn(cache, algorithm="am", n_clauses=2, theta=theta, max_iter=100)
    ...                for theta in (0.01, 0.1)]
    """

    def __init__(self, data: WorkingData, backend: Backend, *, model_hook: Callable[[Any, str], Any] | None = None):
        self.data = data
        self.backend = backend
        self.model_hook = model_hook
        self._hook_constraints: list[tuple[Any, list[Any]]] = []
        self.closed = False
        self._solutions: dict[bytes, np.ndarray] = {}
        self._clauses: dict[tuple[bytes, str], np.ndarray] = {}
        self._set_covers: dict[bytes, SetCoverChain] = {}
        self._models: dict[str, ClauseLP] = {}
        self._relaxation: tuple[int, TwoLevelModel] | None = None
        self._cut_master: tuple[object, ClauseCutLP] | None = None
        self._rounder: RedundancyAwareBinarizer | None = None
        self._formulations: dict[str, str] = {}
        self._cost_bytes = (
            np.ascontiguousarray(data.cost, dtype=np.float64).tobytes()
            + np.ascontiguousarray(data.tie_break, dtype=np.float64).tobytes()
        )

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{len(self._solutions)} LP solution(s), {len(self._clauses)} clause(s)"
        return f"LPSolutionCache({self.data.A.shape[0]} samples x {self.data.n_features} features, {self.backend.name!r}, {state})"

    # -- lifetime -------------------------------------------------------
    def close(self) -> None:
        """Release every solver instance the cache's models hold, and drop what it stored."""
        for handle in self._all_models():
            self.backend.release(handle.model)
        self._models.clear()
        self._relaxation = None
        self._cut_master = None
        self._solutions.clear()
        self._clauses.clear()
        self._set_covers.clear()
        self.closed = True

    def _all_models(self) -> list[Any]:
        models: list[Any] = list(self._models.values())
        if self._relaxation is not None:
            models.append(self._relaxation[1])
        if self._cut_master is not None:
            models.append(self._cut_master[1])
        return models

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this LP-solution cache was closed: build a new one for further fits")

    # -- stored solutions ----------------------------------------------------
    def solution(self, lp_key: bytes) -> np.ndarray | None:
        """The stored LP solution ``w`` of the clause LP with key ``lp_key`` (see :func:`lp_digest`), or None.

        Parameters
        ----------
        lp_key : bytes
            The clause LP's key.

        Returns
        -------
        ndarray or None
            The stored solution, or None when there is none.
        """
        return self._solutions.get(lp_key)

    def store_solution(self, lp_key: bytes, w: np.ndarray) -> None:
        """Keep the solution ``w`` of the clause LP with key ``lp_key``.

        Parameters
        ----------
        lp_key : bytes
            The clause LP's key.
        w : numpy.ndarray of shape (d',)
            Its solution.
        """
        self._check_open()
        self._solutions[lp_key] = w

    def clause(self, lp_key: bytes, method: str) -> np.ndarray | None:
        """The binary clause ``method`` made of the solution of LP ``lp_key``, or None.

        Parameters
        ----------
        lp_key : bytes
            The clause LP's key.
        method : str
            The binarization method.

        Returns
        -------
        ndarray or None
            The stored clause, or None when there is none.
        """
        return self._clauses.get((lp_key, method))

    def store_clause(self, lp_key: bytes, method: str, clause: np.ndarray) -> None:
        """Keep the binary clause ``method`` made of the solution of LP ``lp_key``.

        Parameters
        ----------
        lp_key : bytes
            The clause LP's key.
        method : str
            The binarization method.
        clause : numpy.ndarray of shape (d',)
            The binary clause.
        """
        self._check_open()
        self._clauses[(lp_key, method)] = clause

    def set_cover_chain(self, key: bytes) -> SetCoverChain:
        """The set-covering clauses learned so far under ``key`` (created empty).

        Parameters
        ----------
        key : bytes
            The key of the chain.

        Returns
        -------
        SetCoverChain
            The chain stored under ``key``.
        """
        chain = self._set_covers.get(key)
        if chain is None:
            chain = SetCoverChain()
            self._set_covers[key] = chain
        return chain

    @property
    def n_solutions(self) -> int:
        """How many clause-LP solutions the cache holds."""
        return len(self._solutions)

    # -- shared pieces -----------------------------------------------------
    @property
    def cost_bytes(self) -> bytes:
        """The feature costs and tie-break costs as bytes (part of every LP key)."""
        return self._cost_bytes

    def formulation(self, requested: str) -> str:
        """``choose_formulation`` for this data (the distinct positive rows are counted once).

        Parameters
        ----------
        requested : {"auto", "primal", "dual", "cuts"}
            The formulation asked for.

        Returns
        -------
        str
            The chosen formulation.

        Raises
        ------
        ValueError
            If a literal budget or a model hook asks for a formulation other than ``'auto'`` or ``'primal'``.
        """
        chosen = self._formulations.get(requested)
        if chosen is None and (self.data.max_literals is not None or self.model_hook is not None):
            # a literal budget and a hook's constraints are constraints on w: only the primal has w (docs/constraints.md)
            if requested not in ("auto", "primal"):
                raise ValueError(
                    f"formulation={requested!r} cannot hold max_literals_per_clause or a model_hook's constraints on w: "
                    "use formulation='primal' or 'auto' (which picks the primal for constrained fits)"
                )
            chosen = "primal"
            self._formulations[requested] = chosen
        if chosen is None:
            chosen = choose_formulation(requested, _distinct_positives(self.data), self.data.n_features)
            self._formulations[requested] = chosen
        return chosen

    def rounder(self) -> RedundancyAwareBinarizer:
        """The redundancy-aware binarizer of this data (built on first use).

        Returns
        -------
        RedundancyAwareBinarizer
            The binarizer, shared by later calls.
        """
        if self._rounder is None:
            self._rounder = RedundancyAwareBinarizer(self.data.A, self.data.groups, allow_disable=self.data.allow_disable)
        return self._rounder

    def clause_model(self, formulation: str, theta: float, weight: np.ndarray) -> tuple[ClauseLP, bool]:
        """The persistent clause LP of ``formulation`` and whether it was built by this call.

        A new model is built with ``theta`` and ``weight``; an existing one
        still holds the values of its last solve (the caller pushes its own).

        Parameters
        ----------
        formulation : {"primal", "dual"}
            Which clause LP.
        theta : float
            The sparsity weight θ of a new model.
        weight : numpy.ndarray of shape (n,)
            The sample weights of a new model.

        Returns
        -------
        tuple
            ``(model, built)``: the ClauseLP and whether this call built it.

        Raises
        ------
        ValueError
            If ``formulation`` is not ``'primal'`` or ``'dual'``.
        """
        self._check_open()
        if formulation not in ("primal", "dual"):
            raise ValueError(f"clause_model builds the 'primal' or the 'dual' clause LP, not {formulation!r} (see cut_model)")
        model = self._models.get(formulation)
        if model is not None:
            return model, False
        build = build_clause_dual_lp if formulation == "dual" else build_clause_lp
        data = self.data
        if formulation == "primal":
            model = build_clause_lp(
                data.A_binary, data.y, theta=theta, sample_weight=weight, feature_cost=data.cost, tie_break=data.tie_break,
                max_literals=data.max_literals, counted=data.n_literals,
            )
            self._call_hook(model, "clause_lp")
        else:
            model = build(
                data.A_binary, data.y, theta=theta, sample_weight=weight, feature_cost=data.cost, tie_break=data.tie_break,
            )
        self._models[formulation] = model
        return model, True

    def cut_model(self, owner: object, theta: float) -> tuple[ClauseCutLP, bool]:
        """The cutting-plane master of fit ``owner`` and whether it was built by this call.

        One master per fit, never shared: its cuts and the vertex its solves
        reach depend on the LPs solved on it before, so a fit gets its own,
        built at its first clause LP (the previous fit's is released), and a
        fit's result depends only on its inputs.

        Parameters
        ----------
        owner : object
            The fit the master belongs to.
        theta : float
            The sparsity weight θ of a new master.

        Returns
        -------
        tuple
            ``(model, built)``: the ClauseCutLP and whether this call built it.
        """
        self._check_open()
        data = self.data
        self._cut_master, built = self._latest(
            self._cut_master, owner,
            lambda: build_clause_cut_lp(data.A_binary, data.y, theta=theta, feature_cost=data.cost, tie_break=data.tie_break),
        )
        return self._cut_master[1], built

    def relaxation(self, n_clauses: int, theta: float) -> tuple[TwoLevelModel, bool]:
        """The TLP model for R = ``n_clauses`` and whether it was built by this call.

        Only the most recent R is kept (Sonar's relaxation at R=5 has 270,000
        rows); a new one is built with ``theta``.

        Parameters
        ----------
        n_clauses : int
            R, the number of clauses.
        theta : float
            The sparsity weight θ of a new model.

        Returns
        -------
        tuple
            ``(model, built)``: the TwoLevelModel and whether this call built it.
        """
        self._check_open()
        data = self.data

        def build() -> TwoLevelModel:
            model = build_zero_one(
                data.A_binary, data.y, n_clauses, theta=theta, relax=True, sample_weight=data.weight,
                feature_cost=data.cost, max_literals=data.max_literals, counted=data.n_literals,
            )
            self._call_hook(model, "tlp")
            return model

        self._relaxation, built = self._latest(self._relaxation, n_clauses, build)
        return self._relaxation[1], built

    def _latest(self, held: tuple[K, H] | None, key: K, build: Callable[[], H]) -> tuple[tuple[K, H], bool]:
        """The one model kept in a slot: ``held`` when it is ``key``'s, else ``build()``'s (``held`` released first).

        Returns the slot's new ``(key, model)`` and whether the model was built by this call.
        """
        if held is not None and held[0] == key:
            return held, False
        if held is not None:
            self.backend.release(held[1].model)
        return (key, build()), True

    def _call_hook(self, handle: Any, kind: str) -> None:
        """Hand a model just built to the fit's ``model_hook`` (once per model, before its first solve).

        The constraints the hook added on ``w`` alone are kept, so that
        :meth:`hook_violations` can check a rounded rule against them.
        """
        if self.model_hook is None:
            return
        model = handle.model
        before = {id(c) for c in model.component_objects(pyo.Constraint)}
        self.model_hook(handle, kind)
        added = [c for c in model.component_objects(pyo.Constraint) if id(c) not in before]
        w = model.find_component("w")
        only_w = [
            data for c in added for data in c.values()
            if all(var.parent_component() is w for var in identify_variables(data.body))
        ]
        self._hook_constraints.append((model, only_w))

    def hook_violations(self, W: np.ndarray) -> list[str]:
        """The names of the hook's constraints on ``w`` that the binary clauses ``W`` (d [+1], R) break.

        The LP heuristics hold a hook's constraints in their LPs, but their
        rounding and search know only the built-in constraints; this says
        when a rounded rule departed from the hook's (the training workspace
        logs a warning). A clause-LP constraint (``w[j]``) is checked on every
        clause; a two-level one (``w[j, r]``) on the whole matrix.

        Parameters
        ----------
        W : numpy.ndarray of shape (d', R)
            The binary clause matrix.

        Returns
        -------
        list of str
            The sorted names of the broken constraints (empty: none).
        """
        broken = []
        for model, constraints in self._hook_constraints:
            w = model.w
            two_level = model.find_component("R") is not None
            if W.shape[0] != len(model.J) or (two_level and W.shape[1] != len(model.R)):
                continue  # a relaxation of another R (TLP drops redundant clauses): nothing to compare with
            saved = {index: var.value for index, var in w.items()}
            columns = [slice(None)] if two_level else range(W.shape[1])
            try:
                for r in columns:
                    for index, var in w.items():
                        value = W[index] if two_level else W[index, r]
                        var.set_value(float(value), skip_validation=True)
                    for data in constraints:
                        body = pyo.value(data.body)
                        if (data.lower is not None and body < pyo.value(data.lower) - 1e-6) or (
                            data.upper is not None and body > pyo.value(data.upper) + 1e-6
                        ):
                            broken.append(data.name)
            finally:
                for index, var in w.items():
                    var.set_value(saved[index], skip_validation=True)
        return sorted(set(broken))


def _distinct_positives(data: WorkingData) -> int:
    """Number of distinct positive rows: the clause LP merges identical ones into one row."""
    rows = np.flatnonzero(data.y == 1)
    if rows.shape[0] < DUAL_MIN_POSITIVES:  # too few for the dual anyway: skip the count
        return int(rows.shape[0])
    # from the sparse 0/1 matrix: no copy of the dense float rows (1.7 GB at 1,000,000 x 214)
    first, _ = unique_rows(data.A_binary[rows].toarray() != 0)
    return int(first.shape[0])
