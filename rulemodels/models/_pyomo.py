"""Small Pyomo expression helpers shared by the builders."""

from __future__ import annotations

from typing import Any, Sequence

from pyomo.core.expr.numeric_expr import LinearExpression

__all__ = ["linear_sum"]


def linear_sum(variables: Sequence[Any]) -> Any:
    """``Σ_k x_k`` as one flat linear expression (fast to build, no nested sums)."""
    if not variables:
        return 0
    return LinearExpression(
        constant=0, linear_coefs=[1] * len(variables), linear_vars=list(variables)
    )
