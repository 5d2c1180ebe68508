"""Checking parameters, one rule and one message per parameter, as scikit-learn's estimators do, with public names only.

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

The parameters that several layers take (``theta``, ``n_clauses``,
``n_thresholds``, ``max_iter``, ...) have their constraints declared once, in
:data:`PARAMETERS`: the estimators' ``_parameter_constraints`` take them from
there, and the experiment grid and the command line check values with
:func:`check_parameter` and :func:`check_values`, so a rule such as
"θ is a finite number >= 0" is written, and worded, in one place.

Nothing here imports numpy at import time (the command line checks its
arguments with it before any heavy module is loaded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, cast

from rulemodels import defaults

__all__ = [
    "PARAMETERS",
    "Interval",
    "InvalidParameterError",
    "Options",
    "check_constraint_values",
    "check_parameter",
    "check_values",
    "describe_constraints",
    "validate_params",
]


class InvalidParameterError(ValueError, TypeError):
    """A parameter of an estimator has a value it does not accept (raised by ``fit``)."""


@dataclass(frozen=True)
class Interval:
    """Numbers of ``kind`` (``Integral`` or ``Real``) between ``low`` and ``high`` (None: unbounded).

    Infinities are outside every interval (an unbounded end is open, as in
    scikit-learn), and so is NaN: ``Interval(Real, 0, None, closed="left")``
    is "a finite number >= 0".

    Parameters
    ----------
    kind : type
        ``numbers.Integral`` (integers, not bools) or ``numbers.Real`` (any real number).
    low : float or None
        The lower end; None for no lower bound.
    high : float or None
        The upper end; None for no upper bound.
    closed : {"both", "left", "right", "neither"}, default="both"
        Which finite ends belong to the interval.
    """

    kind: type
    low: float | None
    high: float | None
    closed: str = "both"  # "left", "right", "both" or "neither"

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is a finite number of ``kind`` in the interval.

        Parameters
        ----------
        value : object
            The value to test (a bool is no number here).

        Returns
        -------
        bool
            True when the interval accepts ``value``.
        """
        if isinstance(value, bool) or not isinstance(value, self.kind):  # numpy's bool_ is no number either
            return False
        if isinstance(value, Real) and not math.isfinite(value):
            return False
        value = cast(float, value)  # for the comparisons below: the stubs of numbers.Real declare no > or >=
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
    """Strings among ``values``.

    Parameters
    ----------
    values : iterable of str
        The accepted strings (kept as a frozenset).
    """

    values: frozenset[str]

    def __init__(self, values: Any):
        object.__setattr__(self, "values", frozenset(values))

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is one of the strings.

        Parameters
        ----------
        value : object
            The value to test.

        Returns
        -------
        bool
            True when ``value`` is a str among ``values``.
        """
        return isinstance(value, str) and value in self.values

    def __str__(self) -> str:
        return "a str among {" + ", ".join(repr(v) for v in sorted(self.values)) + "}"


def _is_cv_object(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, Integral) and not isinstance(value, bool):
        return int(value) >= 2
    if hasattr(value, "split") and hasattr(value, "get_n_splits"):
        return True
    return hasattr(value, "__iter__") and not isinstance(value, str)


def _is_boolean(value: Any) -> bool:
    import numpy as np

    return isinstance(value, (bool, np.bool_))


def _is_random_state(value: Any) -> bool:
    import numpy as np

    return value is None or isinstance(value, np.random.RandomState) or (
        isinstance(value, Integral) and not isinstance(value, bool) and 0 <= int(value) <= 2**32 - 1
    )


def _is_array_like(value: Any) -> bool:
    import numpy as np

    return isinstance(value, (list, tuple, np.ndarray)) or (hasattr(value, "__array__") and not isinstance(value, str))


_NAMED = {
    "boolean": (_is_boolean, "an instance of 'bool'"),
    "random_state": (
        _is_random_state,
        "an int in the range [0, 4294967295], an instance of 'numpy.random.mtrand.RandomState' or None",
    ),
    "verbose": (
        lambda v: _is_boolean(v) or (isinstance(v, Integral) and int(v) >= -1),
        "an int in the range [-1, inf) or an instance of 'bool'",
    ),
    "cv_object": (_is_cv_object, "an int in the range [2, inf), an object with split and get_n_splits, an iterable or None"),
    "array-like": (_is_array_like, "an array-like"),
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
        if constraint in (Integral, Real) and _is_boolean(value):
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


#: The constraints of the parameters that several layers take (the estimators, the experiment
#: grid, the command line), declared once: each layer checks these values with these rules and
#: says so with the same words (:func:`describe_constraints`).
PARAMETERS: dict[str, list[Any]] = {
    "form": [Options(defaults.FORMS_AND_AUTO)],
    "n_clauses": [Interval(Integral, 1, None, closed="left")],
    "theta": [Interval(Real, 0, None, closed="left")],
    "theta_unit": [Options(defaults.THETA_UNITS)],
    "min_literal_rows": [Options({"auto"}), Interval(Real, 0, None, closed="left")],
    "algorithm": [Options(defaults.ALGORITHMS)],
    "n_thresholds": [Interval(Integral, 1, None, closed="left")],
    "thresholds": [Options(defaults.THRESHOLD_METHODS)],
    "nan": [Options(defaults.NAN_POLICIES)],
    "high_cardinality": [Options(defaults.HIGH_CARDINALITY_POLICIES), list, tuple],
    "column_kinds": [dict, None],
    "simplify": ["boolean"],
    "allow_disable": ["boolean"],
    "disable_cost": [Interval(Real, 0, None, closed="left")],
    "max_iter": [Interval(Integral, 0, None, closed="left")],
    "solver": [str, object],
    "solver_options": [dict, None],
    "time_limit": [Interval(Real, 0, None, closed="neither"), None],
    "polish": ["boolean", Interval(Real, 0, None, closed="neither")],
    "prune": ["boolean"],
    "class_weight": [Options(defaults.CLASS_WEIGHT_MODES), dict, None],
    "class_order": [Options(defaults.CLASS_ORDERS)],
    "monotone": [dict, None],
    "forbidden_features": [list, tuple, set, frozenset, None],
    "feature_costs": [dict, None],
    "max_literals_per_clause": [Interval(Integral, 1, None, closed="left"), None],
    "model_hook": [callable, None],
}


def check_constraint_values(
    monotone: Any, forbidden_features: Any, feature_costs: Any, max_literals_per_clause: Any = None,
) -> tuple[dict[str, int], list[str], dict[str, float]]:
    """The domain constraints as plain values, or a ValueError naming what is wrong and how to fix it.

    ``monotone`` maps column names to +1 or -1, ``forbidden_features`` lists
    column names, ``feature_costs`` maps column names to finite numbers >= 0.
    Whether the names are columns of X is checked at fit time, against the
    raw columns (:meth:`rulemodels.algorithms.constraints.RuleConstraints.check_columns`).

    Parameters
    ----------
    monotone : dict or None
        ``{column: +1 or -1}``: the rule may only rise (+1) or only fall (-1) with the column's value.
    forbidden_features : iterable of str or None
        Columns the rule may not use.
    feature_costs : dict or None
        ``{column: cost}``, finite numbers >= 0 multiplying θ for that column's literals.
    max_literals_per_clause : int or None, default=None
        The most literals a clause may have (an int >= 1), or None for no limit.

    Returns
    -------
    directions : dict of str to int
        ``monotone`` with str keys and int values.
    forbidden : list of str
        ``forbidden_features`` as a list of str.
    costs : dict of str to float
        ``feature_costs`` with str keys and float values.

    Raises
    ------
    ValueError
        If a value has the wrong type or range, or a column is both monotone and forbidden.
    """
    for name, value in (("monotone", monotone), ("feature_costs", feature_costs)):
        if value is not None and not isinstance(value, dict):
            raise ValueError(f"{name} must be a dict {{column: value}} or None, got {type(value).__name__}")
    directions: dict[str, int] = {}
    for column, sign in (monotone or {}).items():
        if isinstance(sign, bool) or not isinstance(sign, Integral) or int(sign) not in (1, -1):
            raise ValueError(
                f"monotone[{column!r}] must be +1 (the rule may only rise with the value) or -1 (only fall), got {sign!r}"
            )
        directions[str(column)] = int(sign)
    if forbidden_features is not None and (isinstance(forbidden_features, (str, bytes)) or not hasattr(forbidden_features, "__iter__")):
        raise ValueError(f"forbidden_features must be a list of column names or None, got {forbidden_features!r}")
    forbidden = [str(column) for column in (forbidden_features or ())]
    costs: dict[str, float] = {}
    for column, cost in (feature_costs or {}).items():
        if isinstance(cost, bool) or not isinstance(cost, Real) or not math.isfinite(cost) or cost < 0:
            raise ValueError(
                f"feature_costs[{column!r}] must be a finite number >= 0 (a multiplier of θ for that column's literals; "
                f"0 makes them free), got {cost!r}"
            )
        costs[str(column)] = float(cost)
    both = sorted(set(directions) & set(forbidden))
    if both:
        raise ValueError(f"column(s) {both} are both monotone and forbidden: a forbidden column has no literal to constrain; keep one")
    if max_literals_per_clause is not None and not PARAMETERS["max_literals_per_clause"][0].accepts(max_literals_per_clause):
        raise ValueError(f"max_literals_per_clause must be an int >= 1 or None, got {max_literals_per_clause!r}")
    return directions, forbidden, costs


def describe_constraints(constraints: list[Any]) -> str:
    """What a value meeting one of ``constraints`` is, in words: ``"a float in the range [0, inf)"``.

    Parameters
    ----------
    constraints : list
        Constraints as in :data:`PARAMETERS` (an :class:`Interval`, :class:`Options`, a type, ``"boolean"``,
        ``callable``, None, ...).

    Returns
    -------
    str
        The description, the alternatives joined with "or".
    """
    described = [_describe(c) for c in constraints]
    return described[0] if len(described) == 1 else ", ".join(described[:-1]) + " or " + described[-1]


def _invalid(name: str, owner: str | None, constraints: list[Any], value: Any) -> InvalidParameterError:
    """The one message of a parameter that has a value it does not accept."""
    of = f" of {owner}" if owner else ""
    return InvalidParameterError(
        f"The {name!r} parameter{of} must be {describe_constraints(constraints)}. Got {value!r} instead."
    )


def check_parameter(name: str, value: Any, *, owner: str | None = None, constraints: list[Any] | None = None) -> Any:
    """``value`` if it meets a constraint of parameter ``name`` (:data:`PARAMETERS`), else :class:`InvalidParameterError`.

    ``owner`` (the class or function that takes the parameter) is named in the message:
    ``The 'theta' parameter of Task must be a float in the range [0, inf). Got -1 instead.``

    Parameters
    ----------
    name : str
        The parameter's name (a key of :data:`PARAMETERS` unless ``constraints`` is given).
    value : object
        Its value.
    owner : str or None, default=None
        The class or function that takes the parameter, named in the message.
    constraints : list or None, default=None
        The constraints to meet (one suffices); None for ``PARAMETERS[name]``.

    Returns
    -------
    object
        ``value``, unchanged.

    Raises
    ------
    InvalidParameterError
        If ``value`` meets none of the constraints.
    """
    constraints = PARAMETERS[name] if constraints is None else constraints
    if not any(_accepts(constraint, value) for constraint in constraints):
        raise _invalid(name, owner, constraints, value)
    return value


def check_values(
    name: str, values: list[Any], parameter: str, *, owner: str | None = None, example: str = "",
    constraints: list[Any] | None = None,
) -> list[Any]:
    """``values`` (the grid parameter ``name``: several values of ``parameter``) if each meets its constraints.

    An empty list, or a value that meets none of :data:`PARAMETERS` ``[parameter]``, raises
    :class:`InvalidParameterError` naming the value and saying what each must be
    (``example`` adds "; pass e.g. ..."); ``constraints`` replaces those of ``parameter``.

    Parameters
    ----------
    name : str
        The grid parameter's name (``thetas``, ``n_clauses``, ...), named in the message.
    values : list
        Its values.
    parameter : str
        The parameter each value is a value of (a key of :data:`PARAMETERS`).
    owner : str or None, default=None
        The class or function that takes ``name``, named in the message.
    example : str, default=""
        An example of valid values, added to the message when not empty.
    constraints : list or None, default=None
        The constraints each value meets; None for ``PARAMETERS[parameter]``.

    Returns
    -------
    list
        ``values``, unchanged.

    Raises
    ------
    InvalidParameterError
        If ``values`` is empty or a value meets none of the constraints.
    """
    of = f" of {owner}" if owner else ""
    hint = f"; pass e.g. {example}" if example else ""
    if not values:
        raise InvalidParameterError(f"The {name!r} parameter{of} is empty: pass at least one value to search{hint}")
    constraints = PARAMETERS[parameter] if constraints is None else constraints
    for value in values:
        if not any(_accepts(constraint, value) for constraint in constraints):
            raise InvalidParameterError(
                f"Each value of the {name!r} parameter{of} must be {describe_constraints(constraints)} "
                f"(a value of {parameter!r}). Got {value!r}{hint}."
            )
    return values


def validate_params(estimator: Any) -> None:
    """Raise :class:`InvalidParameterError` for the first parameter that meets none of its constraints.

    Parameters
    ----------
    estimator : object
        An estimator whose class has ``_parameter_constraints`` (``{name: constraints}``); each parameter is
        read as its attribute and checked with :func:`check_parameter`.

    Raises
    ------
    InvalidParameterError
        If a parameter meets none of its constraints.
    """
    name_of_class = type(estimator).__name__
    for name, constraints in type(estimator)._parameter_constraints.items():
        check_parameter(name, getattr(estimator, name), owner=name_of_class, constraints=constraints)
