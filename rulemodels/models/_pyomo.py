"""Small Pyomo expression helpers shared by the builders."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from pyomo.core.expr.numeric_expr import SumExpression

__all__ = ["assign_changed", "linear_sum"]


def linear_sum(variables: Sequence[Any]) -> Any:
    """``Σ_k x_k`` as one flat sum of variables.

    A plain ``SumExpression`` of variables is linear for every Pyomo writer and
    is about 10x faster to build than ``LinearExpression`` (measured: 0.25 s vs
    2.4 s for 20,000 rows of 75 terms).
    """
    if not variables:
        return 0
    return SumExpression(list(variables))


def assign_changed(param: Any, indices: Sequence[Any], old: np.ndarray, new: np.ndarray) -> None:
    """Set ``param[indices[k]]`` to ``new[k]`` wherever ``new`` differs from ``old`` (numpy finds them).

    ``param`` is an indexed mutable Param with the default domain and ``new``
    holds finite floats computed by the caller, so Pyomo's per-item
    validation is skipped (``store_values(..., check=False)``, 0.2 ms for
    1,200 values): a BCD/AM re-solve changes about a thousand costs on
    Sonar, and validating each one (``set_value``, 1.4 ms) cost about as much
    as the LP.
    """
    changed = np.flatnonzero(old != new).tolist()
    if changed:
        values = new.tolist()
        param.store_values({indices[k]: values[k] for k in changed}, check=False)
