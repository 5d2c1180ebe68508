"""What a driver returns."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["FitResult"]


@dataclass
class FitResult:
    """The outcome of one driver run on a CNF problem.

    Attributes
    ----------
    W : ndarray (d', R)
        Binary clause matrix over the working features (with the always-true
        feature as the last row when clauses may be disabled).
    objective : float
        The driver's objective at W (Hamming objective for SC/BCD/AM, 0-1
        objective for TLP).
    history : list of float
        Objective after each accepted iteration (index 0 = initialisation).
    n_iter : int
        Iterations executed, including the last one that found no
        improvement (so ``n_iter >= len(history) - 1``).
    stop_reason : str
        ``"converged"``, ``"no_improvement"``, ``"cycle"``, ``"max_iter"``, ``"time_limit"``, ``"single_pass"``.
    n_builds, n_solves, n_cache_hits : int
    solver_seconds : float
    """

    W: np.ndarray
    objective: float
    history: list[float] = field(default_factory=list)
    n_iter: int = 0
    stop_reason: str = "single_pass"
    n_builds: int = 0
    n_solves: int = 0
    n_cache_hits: int = 0
    solver_seconds: float = 0.0
