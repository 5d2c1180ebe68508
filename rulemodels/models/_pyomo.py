"""Small Pyomo expression helpers shared by the builders."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from pyomo.core.base.param import ParamData
from pyomo.core.expr.numeric_expr import SumExpression

__all__ = ["assign_changed", "linear_sum"]

# Pyomo stores a mutable Param's value in ParamData._value; set_value adds
# unit and domain validation around that assignment (about 5 µs per Param).
_DIRECT_PARAM_STORE = "_value" in getattr(ParamData, "__slots__", ())


def linear_sum(variables: Sequence[Any]) -> Any:
    """``Σ_k x_k`` as one flat sum of variables.

    A plain ``SumExpression`` of variables is linear for every Pyomo writer and
    is about 10x faster to build than ``LinearExpression`` (measured: 0.25 s vs
    2.4 s for 20,000 rows of 75 terms).
    """
    if not variables:
        return 0
    return SumExpression(list(variables))


def assign_changed(params: Sequence[Any], old: np.ndarray, new: np.ndarray) -> None:
    """Set ``params[k]`` to ``new[k]`` wherever ``new`` differs from ``old`` (numpy finds them).

    ``params`` are the ``ParamData`` of unitless mutable Params with the
    default domain, and ``new`` holds finite floats computed by the caller,
    so Pyomo's per-item validation is skipped: a BCD/AM re-solve changes
    about a thousand costs on Sonar, and ``set_value`` made pushing them cost
    more than the LP. Falls back to ``set_value`` if Pyomo's storage changes.
    """
    changed = np.flatnonzero(old != new)
    values = new[changed].tolist()
    if _DIRECT_PARAM_STORE:
        for k, value in zip(changed.tolist(), values):
            params[k]._value = value
    else:
        for k, value in zip(changed.tolist(), values):
            params[k].set_value(value)
