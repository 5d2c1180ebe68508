"""Small Pyomo expression helpers shared by the builders."""

from __future__ import annotations

from typing import Any, Sequence

from pyomo.core.expr.numeric_expr import SumExpression

__all__ = ["linear_sum"]


def linear_sum(variables: Sequence[Any]) -> Any:
    """``Σ_k x_k`` as one flat sum of variables.

    A plain ``SumExpression`` of variables is linear for every Pyomo writer and
    is about 10x faster to build than ``LinearExpression`` (measured: 0.25 s vs
    2.4 s for 20,000 rows of 75 terms).
    """
    if not variables:
        return 0
    return SumExpression(list(variables))
