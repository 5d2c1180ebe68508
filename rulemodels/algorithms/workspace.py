"""The work every fit on one binary training problem shares, held by one explicit object.

A cross-validation sweep, :class:`~rulemodels.BooleanRuleCV` and
``form="auto"`` fit the same training data dozens of times (every θ, R and
algorithm). Those fits solve the same one-level clause LPs (eqs.
OneLevelFormulation-Wj) on the same binary data, with only θ and the sample
weights changing, and they all start from the same set-covering clauses.
:class:`ProblemWorkspace` is built once per (binary data, form) and handed
to every driver run on it; it holds

- the working data (dense matrix, labels, weights, costs) and the
  redundancy-aware binarizer of that data (paper section "Redundancy Aware
  Binarization"; 0.13 s to build on Sonar);
- one persistent clause LP per formulation (primal or dual) and the TLP
  relaxation of the most recent R, each built once and re-solved in place
  on the workspace's backend (mutable Params changed, the new numbers pushed
  as :class:`~solvers.ModelChanges`);
- the solution of every clause LP solved so far, keyed by the LP's content
  (formulation, solver options, θ, feature costs, sample weights), and the
  binary clause each binarization method made of it;
- the set-covering clauses learned so far per θ and binarization (the first
  r clauses are the same for every R >= r).

**Results depend only on a fit's inputs.** Every clause-LP solve starts cold
(``warm_start=False``): its solution is a function of the LP alone, which is
what makes a stored solution exactly what a fresh solve would return, in any
order of fits. A workspace never changes what a fit learns, only how much
work it repeats; ``tests/test_workspace.py`` checks this.

Its lifetime is explicit: use it as a context manager (or call
:meth:`ProblemWorkspace.close`), which releases the solver instances its
models hold on the backend.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.rounding import RedundancyAwareBinarizer
from rulemodels.models import build_clause_dual_lp, build_clause_lp, build_zero_one
from solvers import Backend

logger = logging.getLogger(__name__)

__all__ = ["ProblemWorkspace", "SetCoverChain", "choose_formulation", "lp_digest"]

DUAL_MIN_POSITIVES = 5_000
"""``formulation="auto"`` solves the dual clause LP from this many positive samples ..."""
DUAL_POSITIVES_PER_FEATURE = 10
"""... when they are also at least this many times the number of features."""


def choose_formulation(formulation: str, n_positives: int, n_features: int) -> str:
    """``"primal"`` or ``"dual"``: which side of the clause LP to build.

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


def lp_digest(*parts: bytes) -> bytes:
    """A 16-byte digest of an LP's content (the parts are the bytes that define it)."""
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part)
    return digest.digest()


@dataclass
class SetCoverChain:
    """The set-covering clauses learned so far for one (θ, binarization, solver options).

    ``clauses[r]`` is clause r (d',); set covering for R clauses uses the
    first R, so a fit with a larger R extends the chain and a smaller R
    only reads it.
    """

    clauses: list[np.ndarray] = field(default_factory=list)


class ProblemWorkspace:
    """Shared work of every fit on one binary training problem (see the module docstring).

    Parameters
    ----------
    data : WorkingData
        The CNF problem as the drivers see it.
    backend : Backend
        Solves every LP of the workspace; its persistent instances are
        released by :meth:`close`.

    Examples
    --------
    >>> with ProblemWorkspace(data, backend) as workspace:               # doctest: +SKIP
    ...     for theta in (0.01, 0.1):
    ...         result = learn_cnf_on(workspace, algorithm="am", n_clauses=2, theta=theta)
    """

    def __init__(self, data: WorkingData, backend: Backend):
        self.data = data
        self.backend = backend
        self.closed = False
        self.solutions: dict[bytes, np.ndarray] = {}
        self.clauses: dict[tuple[bytes, str], np.ndarray] = {}
        self.set_covers: dict[bytes, SetCoverChain] = {}
        self._models: dict[str, Any] = {}
        self._relaxation: tuple[int, Any] | None = None
        self._rounder: RedundancyAwareBinarizer | None = None
        self._formulations: dict[str, str] = {}
        self._cost_bytes = np.ascontiguousarray(data.cost, dtype=np.float64).tobytes()

    # -- lifetime -------------------------------------------------------
    def close(self) -> None:
        """Release every solver instance the workspace's models hold, and drop what it stored."""
        for model in self._all_models():
            self.backend.release(model)
        self._models.clear()
        self._relaxation = None
        self.solutions.clear()
        self.clauses.clear()
        self.set_covers.clear()
        self.closed = True

    def __enter__(self) -> "ProblemWorkspace":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _all_models(self) -> list[Any]:
        models = list(self._models.values())
        if self._relaxation is not None:
            models.append(self._relaxation[1])
        return models

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this workspace was closed: build a new one for further fits")

    # -- shared pieces -----------------------------------------------------
    @property
    def cost_bytes(self) -> bytes:
        """The feature costs as bytes (part of every LP key)."""
        return self._cost_bytes

    def formulation(self, requested: str) -> str:
        """``choose_formulation`` for this data (the distinct positive rows are counted once)."""
        chosen = self._formulations.get(requested)
        if chosen is None:
            chosen = choose_formulation(requested, _distinct_positives(self.data), self.data.n_features)
            self._formulations[requested] = chosen
        return chosen

    def rounder(self) -> RedundancyAwareBinarizer:
        """The redundancy-aware binarizer of this data (built on first use)."""
        if self._rounder is None:
            self._rounder = RedundancyAwareBinarizer(self.data.A, self.data.groups, allow_disable=self.data.allow_disable)
        return self._rounder

    def clause_model(self, formulation: str, theta: float, weight: np.ndarray) -> tuple[Any, bool]:
        """The persistent clause LP of ``formulation`` and whether it was built by this call.

        A new model is built with ``theta`` and ``weight``; an existing one
        still holds the values of its last solve (the caller pushes its own).
        """
        self._check_open()
        model = self._models.get(formulation)
        if model is not None:
            return model, False
        build = build_clause_dual_lp if formulation == "dual" else build_clause_lp
        data = self.data
        model = build(sp.csr_matrix(data.A), data.y, theta=theta, sample_weight=weight, feature_cost=data.cost)
        self._models[formulation] = model
        return model, True

    def relaxation(self, n_clauses: int, theta: float) -> tuple[Any, bool]:
        """The TLP model for R = ``n_clauses`` and whether it was built by this call.

        Only the most recent R is kept (Sonar's relaxation at R=5 has 270,000
        rows); a new one is built with ``theta``.
        """
        self._check_open()
        if self._relaxation is not None and self._relaxation[0] == n_clauses:
            return self._relaxation[1], False
        if self._relaxation is not None:
            self.backend.release(self._relaxation[1])
        data = self.data
        model = build_zero_one(
            sp.csr_matrix(data.A), data.y, n_clauses, theta=theta, relax=True, sample_weight=data.weight,
            feature_cost=data.cost,
        )
        self._relaxation = (n_clauses, model)
        return model, True

    def set_cover_chain(self, key: bytes) -> SetCoverChain:
        """The set-covering clauses learned so far under ``key`` (created empty)."""
        chain = self.set_covers.get(key)
        if chain is None:
            chain = SetCoverChain()
            self.set_covers[key] = chain
        return chain


def _distinct_positives(data: WorkingData) -> int:
    """Number of distinct positive rows: the clause LP merges identical ones into one row."""
    positives = data.A[data.y == 1]
    if positives.shape[0] < DUAL_MIN_POSITIVES:  # too few for the dual anyway: skip the count
        return positives.shape[0]
    packed = np.packbits(positives != 0, axis=1)
    return int(np.unique(packed, axis=0).shape[0])
