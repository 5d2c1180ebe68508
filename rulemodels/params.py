"""Checking estimator parameters in ``fit``, as scikit-learn's estimators do, with public names only.

scikit-learn validates its own estimators' parameters with a private module
(``sklearn.utils._param_validation``) that third-party estimators should not
import. This module does the same job for ours: each estimator class lists
its parameters' constraints in ``_parameter_constraints`` and calls
:func:`validate_params` at the start of ``fit`` (never in ``__init__``, which
only stores its arguments). The message names the parameter, what it must be
and what it got, in scikit-learn's words:

``The 'theta' parameter of BooleanRuleClassifier must be a float in the range [0, inf). Got -1 instead.``

A constraint is an :class:`Interval`, an :class:`Options`, a type (``dict``,
``str``, ``numbers.Integral``, ...), ``None``, ``callable``, or one of the
names ``"boolean"``, ``"random_state"``, ``"verbose"``, ``"cv_object"`` and
``"array-like"``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

__all__ = ["Interval", "InvalidParameterError", "Options", "validate_params"]


class InvalidParameterError(ValueError, TypeError):
    """A parameter of an estimator has a value it does not accept (raised by ``fit``)."""


@dataclass(frozen=True)
class Interval:
    """Numbers of ``kind`` (``Integral`` or ``Real``) between ``low`` and ``high`` (None: unbounded)."""

    kind: type
    low: float | None
    high: float | None
    closed: str = "both"  # "left", "right", "both" or "neither"

    def accepts(self, value: Any) -> bool:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, self.kind):
            return False
        if isinstance(value, Real) and math.isnan(value):
            return False
        if self.low is not None and (value < self.low or (value == self.low and self.closed in ("right", "neither"))):
            return False
        if self.high is not None and (value > self.high or (value == self.high and self.closed in ("left", "neither"))):
            return False
        return True

    def __str__(self) -> str:
        name = "an int" if self.kind is Integral else "a float"
        left = "[" if self.closed in ("left", "both") and self.low is not None else "("
        right = "]" if self.closed in ("right", "both") and self.high is not None else ")"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"{name} in the range {left}{low}, {high}{right}"


@dataclass(frozen=True)
class Options:
    """Strings among ``values``."""

    values: frozenset[str]

    def __init__(self, values: Any):
        object.__setattr__(self, "values", frozenset(values))

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.values

    def __str__(self) -> str:
        return "a str among {" + ", ".join(repr(v) for v in sorted(self.values)) + "}"


def _is_cv_object(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, Integral) and not isinstance(value, bool):
        return value >= 2
    if hasattr(value, "split") and hasattr(value, "get_n_splits"):
        return True
    return hasattr(value, "__iter__") and not isinstance(value, str)


_NAMED = {
    "boolean": (lambda v: isinstance(v, (bool, np.bool_)), "an instance of 'bool'"),
    "random_state": (
        lambda v: v is None or isinstance(v, np.random.RandomState)
        or (isinstance(v, Integral) and not isinstance(v, bool) and 0 <= v <= 2**32 - 1),
        "an int in the range [0, 4294967295], an instance of 'numpy.random.mtrand.RandomState' or None",
    ),
    "verbose": (
        lambda v: isinstance(v, (bool, np.bool_)) or (isinstance(v, Integral) and v >= 0),
        "an int in the range [0, inf) or an instance of 'bool'",
    ),
    "cv_object": (_is_cv_object, "an int in the range [2, inf), an object with split and get_n_splits, an iterable or None"),
    "array-like": (
        lambda v: isinstance(v, (list, tuple, np.ndarray)) or (hasattr(v, "__array__") and not isinstance(v, str)),
        "an array-like",
    ),
}


def _accepts(constraint: Any, value: Any) -> bool:
    if constraint is None:
        return value is None
    if constraint is callable:
        return callable(value)
    if isinstance(constraint, str):
        return _NAMED[constraint][0](value)
    if isinstance(constraint, (Interval, Options)):
        return constraint.accepts(value)
    if isinstance(constraint, type):
        if constraint in (Integral, Real) and isinstance(value, (bool, np.bool_)):
            return False
        return isinstance(value, constraint)
    raise TypeError(f"unknown parameter constraint {constraint!r}")


def _describe(constraint: Any) -> str:
    if constraint is None:
        return "None"
    if constraint is callable:
        return "a callable"
    if isinstance(constraint, str):
        return _NAMED[constraint][1]
    if isinstance(constraint, type):
        return f"an instance of '{constraint.__name__}'"
    return str(constraint)


def validate_params(estimator: Any) -> None:
    """Raise :class:`InvalidParameterError` for the first parameter that meets none of its constraints."""
    name_of_class = type(estimator).__name__
    for name, constraints in type(estimator)._parameter_constraints.items():
        value = getattr(estimator, name)
        if any(_accepts(constraint, value) for constraint in constraints):
            continue
        described = [_describe(c) for c in constraints]
        wanted = described[0] if len(described) == 1 else ", ".join(described[:-1]) + " or " + described[-1]
        raise InvalidParameterError(f"The {name!r} parameter of {name_of_class} must be {wanted}. Got {value!r} instead.")
