"""Persistent clause LPs kept between fits of the same process.

A cross-validation sweep fits the same training fold dozens of times (every
θ, every R, every algorithm). Each fit needs the same one-level clause LP
(eqs. OneLevelFormulation-Wj) on the same binary data; only θ, the feature
costs and the sample weights differ, and those are mutable Params. The pool
keeps, per binary data set, one built model per clause slot (and, through a
shared backend object, its persistent solver instance). A new fit takes the
models over and pushes its own θ, costs and weights instead of rebuilding.

Results do not depend on what the pool held before: the clause engine
drops the solver's warm start before every solve (``discard_warm_start``),
so each solve returns what a freshly built model would. Cold solves are
deterministic functions of the LP, so their solutions are also shared
between fits (set covering starts SCS, SCN, BCD and AM alike, and its first
r clauses are the same for every R >= r). A backend that keeps warm starts
it cannot drop gets no pool entry.

The pool is per thread (threads never share a model) and bounded: it keeps
the ``max_datasets`` most recently used data sets.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from solvers import Backend, get_backend

__all__ = ["ModelPool", "PoolEntry", "can_start_cold", "clear_model_pool", "data_fingerprint", "default_pool", "start_cold"]


@dataclass
class PoolEntry:
    """The models built for one binary data set and one backend.

    Attributes
    ----------
    models : dict
        (formulation, clause slot) -> built clause LP ("primal" or "dual").
    relaxations : OrderedDict
        (R, weights and costs digest) -> built TLP model; only the most
        recent one is kept (they are large: 270,000 rows for Sonar at R=5).
    cold_solutions : OrderedDict
        LP key (θ, costs, weights) -> LP solution ``w`` of a cold solve.
    rounders : dict
        (feature groups, allow_disable) -> the redundancy-aware binarizer of
        this data (read-only once built; building it costs 0.13 s on Sonar).
    """

    models: dict[tuple[str, int], Any] = field(default_factory=dict)
    relaxations: "OrderedDict[tuple[Any, ...], Any]" = field(default_factory=OrderedDict)
    cold_solutions: "OrderedDict[bytes, np.ndarray]" = field(default_factory=OrderedDict)
    rounders: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    max_solutions: int = 20_000

    def remember(self, key: bytes, w_lp: np.ndarray) -> None:
        self.cold_solutions[key] = w_lp
        if len(self.cold_solutions) > self.max_solutions:
            self.cold_solutions.popitem(last=False)

    def recall(self, key: bytes) -> np.ndarray | None:
        return self.cold_solutions.get(key)

    def relaxation(self, key: tuple[Any, ...]) -> Any:
        return self.relaxations.get(key)

    def keep_relaxation(self, key: tuple[Any, ...], model: Any) -> None:
        self.relaxations.clear()
        self.relaxations[key] = model


def can_start_cold(backend: Backend) -> bool:
    """Whether every fit can start from scratch on ``backend`` (so pooled models give fresh-build results)."""
    return not backend.is_persistent or callable(getattr(backend, "discard_warm_start", None))


def start_cold(backend: Backend, model: Any) -> None:
    """Drop the warm start ``backend`` keeps for ``model`` (no-op for non-persistent backends)."""
    discard = getattr(backend, "discard_warm_start", None)
    if discard is not None:
        discard(model)


def data_fingerprint(A: np.ndarray, y: np.ndarray) -> bytes:
    """A digest of the binary matrix and labels (what a clause LP's structure depends on)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(np.asarray(A.shape, dtype=np.int64).tobytes())
    digest.update(np.ascontiguousarray(A, dtype=np.float64).tobytes())
    digest.update(np.ascontiguousarray(y, dtype=np.int64).tobytes())
    return digest.digest()


class ModelPool:
    """Clause LPs and backends re-used across fits (see the module docstring).

    Parameters
    ----------
    max_datasets : int, default=4
        Number of (data set, backend) entries kept; the least recently used
        is dropped first, with its models and solver instances.
    max_solutions : int, default=20000
        Cold-solve solutions kept per entry.
    """

    def __init__(self, max_datasets: int = 4, max_solutions: int = 20_000):
        self.max_datasets = max_datasets
        self.max_solutions = max_solutions
        # Keyed by the backend object itself (identity), which the key keeps alive.
        self._entries: "OrderedDict[tuple[bytes, Backend], PoolEntry]" = OrderedDict()
        self._backends: dict[str, Backend] = {}

    def backend(self, solver: str | Backend) -> Backend:
        """The pool's backend object for a solver name (created once), or ``solver`` itself."""
        if not isinstance(solver, str):
            return get_backend(solver)
        name = solver.strip().lower()
        backend = self._backends.get(name)
        if backend is None:
            backend = get_backend(name)
            self._backends[name] = backend
        return backend

    def entry(self, fingerprint: bytes, backend: Backend) -> PoolEntry | None:
        """The entry for this data and backend (created empty when new).

        None when the backend keeps warm starts it cannot drop: re-using its
        models would make a fit depend on the fits before it.
        """
        if not can_start_cold(backend):
            return None
        key = (fingerprint, backend)
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
            return entry
        entry = PoolEntry(max_solutions=self.max_solutions)
        self._entries[key] = entry
        while len(self._entries) > self.max_datasets:
            self._entries.popitem(last=False)
        return entry

    def clear(self) -> None:
        """Drop every model, solver instance and stored solution."""
        self._entries.clear()
        self._backends.clear()

    def __len__(self) -> int:
        return len(self._entries)


_local = threading.local()


def default_pool() -> ModelPool:
    """This thread's pool (created on first use)."""
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = ModelPool()
        _local.pool = pool
    return pool


def clear_model_pool() -> None:
    """Free this thread's pooled models (for long-lived processes that switch data sets)."""
    default_pool().clear()
