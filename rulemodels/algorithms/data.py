"""The CNF problem as the drivers see it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rulemodels.models.problem import CNFProblem

__all__ = ["ALWAYS_TRUE", "WorkingData"]

ALWAYS_TRUE = "__always_true__"
"""Source-column label of the always-true feature ``a_i0 = 1`` (paper section 3)."""


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
