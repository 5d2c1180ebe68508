"""Vectorised updates of mutable objective coefficients and variable bounds in APPSI's HiGHS interface.

After any Param change APPSI re-evaluates, one by one, every objective
coefficient that depends on mutable Params (Pyomo's expression walker, then
one ``changeColCost`` call each): about 25 µs per coefficient, 28 ms per
solve for a clause LP with Sonar's 1,080 features, several times the
simplex time of a warm re-solve.

Here each coefficient expression is compiled once into a polynomial in the
Param values,

.. math::

    c_k = \\sum_t \\kappa_t \\prod_{p \\in t} p,

stored as numpy arrays (term -> coefficient, constant κ_t, Param indices).
An update reads every Param value once, evaluates all coefficients with
numpy and pushes them with one ``changeColsCost``. Coefficients that are
not such polynomials (a division by a Param, a function call) and the
objective offset keep APPSI's own update. The costs are identical to APPSI's
(the same float operations, summed in the same order).

Variable bounds that depend on mutable Params (the ``0 <= u_i <= ω_i`` of
the dual clause LP: one per positive sample, 35,000 at 100,000 samples) get
the same treatment: APPSI evaluates each as ``max(bound, domain bound)`` /
``min(...)`` and calls ``changeColBounds`` once per variable; here the
bounds whose operands are numbers or single Params are computed with numpy
and sent in one ``changeColsBounds``.

This module depends on private attributes of APPSI's ``Highs``
(``_objective_helpers``, ``_mutable_bounds`` and their helper classes);
:func:`install` leaves what it cannot recognise to APPSI.
"""

from __future__ import annotations

import logging
import operator
from typing import Any, Callable

import numpy as np
from pyomo.common.numeric_types import native_numeric_types
from pyomo.core.base.param import ParamData
from pyomo.core.expr.numeric_expr import (
    NegationExpression,
    NPV_MaxExpression,
    NPV_MinExpression,
    ProductExpression,
    SumExpression,
)

logger = logging.getLogger(__name__)

__all__ = ["BoundsProgram", "ObjectiveProgram", "install"]

Monomial = tuple[float, tuple[Any, ...]]


# Pyomo keeps a mutable Param's value in ParamData._value; the ``value``
# property adds a call and checks around it (1.7 µs instead of 0.1 µs a Param:
# 3 ms per Sonar re-solve, which reads 2,200 of them).
_read_value = operator.attrgetter("_value") if "_value" in getattr(ParamData, "__slots__", ()) else operator.attrgetter("value")


def param_values(params: list[Any]) -> np.ndarray:
    """The current values of ``params`` (``ParamData`` of mutable Params) as floats."""
    try:
        return np.fromiter(map(_read_value, params), dtype=float, count=len(params))
    except (TypeError, ValueError):  # a Param without a value (or not a number): Pyomo's own error
        return np.fromiter((p.value for p in params), dtype=float, count=len(params))


class _NotPolynomial(Exception):
    """The expression is not a polynomial in mutable Params."""


def _monomials(expr: Any) -> list[Monomial]:
    """``expr`` as a list of (constant, Params multiplied) terms; raises _NotPolynomial otherwise."""
    if type(expr) in native_numeric_types:
        return [(float(expr), ())]
    if not expr.is_expression_type():
        if expr.is_parameter_type():
            return [(1.0, (expr,))]
        raise _NotPolynomial(type(expr).__name__)
    if isinstance(expr, SumExpression):
        return [term for arg in expr.args for term in _monomials(arg)]
    if isinstance(expr, ProductExpression):
        left, right = (_monomials(arg) for arg in expr.args)
        return [(a * b, p + q) for a, p in left for b, q in right]
    if isinstance(expr, NegationExpression):
        return [(-a, p) for a, p in _monomials(expr.args[0])]
    raise _NotPolynomial(type(expr).__name__)


class ObjectiveProgram:
    """The compiled mutable objective coefficients of one APPSI ``Highs`` instance.

    Parameters
    ----------
    helpers : list
        The instance's ``_objective_helpers`` (kept to detect a new objective).
    highs : highspy.Highs
        The HiGHS model the costs go to.
    """

    def __init__(self, helpers: list[Any], highs: Any):
        from pyomo.contrib.appsi.solvers.highs import _MutableObjectiveCoefficient

        self.helpers = helpers
        self.highs = highs
        self.other_helpers: list[Any] = []
        self.var_ids: list[int] = []
        self.var_map: dict[int, int] | None = None
        params: dict[int, int] = {}
        self.params: list[Any] = []
        rows: list[tuple[int, float, list[int]]] = []
        for helper in helpers:
            if not isinstance(helper, _MutableObjectiveCoefficient):
                self.other_helpers.append(helper)
                continue
            try:
                terms = _monomials(helper.expr)
            except _NotPolynomial:
                self.other_helpers.append(helper)
                continue
            k = len(self.var_ids)
            self.var_ids.append(helper.pyomo_var_id)
            self.var_map = helper.var_map
            for constant, factors in terms:
                for p in factors:
                    if id(p) not in params:
                        params[id(p)] = len(self.params)
                        self.params.append(p)
                rows.append((k, constant, [params[id(p)] for p in factors]))
        self._compile(rows)

    def _compile(self, rows: list[tuple[int, float, list[int]]]) -> None:
        degree = max((len(indices) for _, _, indices in rows), default=0)
        one = len(self.params)  # index of the constant 1.0 appended to the values
        self.term_coefficient = np.array([k for k, _, _ in rows], dtype=np.intp)
        self.term_constant = np.array([c for _, c, _ in rows], dtype=float)
        self.term_params = np.full((len(rows), degree), one, dtype=np.intp)
        for t, (_, _, indices) in enumerate(rows):
            self.term_params[t, :len(indices)] = indices

    @property
    def n_coefficients(self) -> int:
        return len(self.var_ids)

    def costs(self) -> np.ndarray:
        """The current value of every compiled coefficient (in ``var_ids`` order)."""
        values = np.append(param_values(self.params), 1.0)
        terms = self.term_constant.copy()
        for column in self.term_params.T:
            terms *= values[column]
        return np.bincount(self.term_coefficient, weights=terms, minlength=self.n_coefficients)

    def push(self) -> None:
        """Send the current coefficients to HiGHS in one call."""
        if not self.var_ids:
            return
        var_map = self.var_map
        columns = np.fromiter((var_map[v] for v in self.var_ids), dtype=np.int32, count=len(self.var_ids))
        self.highs.changeColsCost(len(columns), columns, self.costs())


class _NotSimple(Exception):
    """A bound operand is neither a number nor a single mutable Param."""


class BoundsProgram:
    """The compiled Param-dependent variable bounds of one APPSI ``Highs`` instance.

    Each APPSI bound helper holds ``lower = max(a, b)`` and ``upper = min(c,
    d)`` (the user's bound and the domain's); the operands are stored as
    indices into ``[Param values..., constants...]``.

    Parameters
    ----------
    mutable_bounds : dict
        The instance's ``_mutable_bounds`` (var id -> (var, helper)).
    highs : highspy.Highs
    """

    def __init__(self, mutable_bounds: dict[int, Any], highs: Any):
        from pyomo.contrib.appsi.solvers.highs import _MutableVarBounds

        self.mutable_bounds = mutable_bounds
        self.helpers = [helper for _, helper in mutable_bounds.values()]
        self.highs = highs
        self.other: dict[int, Any] = {}
        self.var_ids: list[int] = []
        self.var_map: dict[int, int] | None = None
        self.params: list[Any] = []
        self.constants: list[float] = []
        operands: list[tuple[int, int, int, int]] = []
        param_index: dict[int, int] = {}
        for var_id, (var, helper) in mutable_bounds.items():
            try:
                if not isinstance(helper, _MutableVarBounds):
                    raise _NotSimple(type(helper).__name__)
                lower = self._pair(helper.lower_expr, NPV_MaxExpression, param_index)
                upper = self._pair(helper.upper_expr, NPV_MinExpression, param_index)
            except _NotSimple:
                self.other[var_id] = (var, helper)
                continue
            self.var_ids.append(var_id)
            self.var_map = helper.var_map
            operands.append(lower + upper)
        self.operands = np.array(operands, dtype=np.intp).reshape(-1, 4)

    def _pair(self, expr: Any, kind: type, param_index: dict[int, int]) -> tuple[int, int]:
        if type(expr) is not kind or len(expr.args) != 2:
            raise _NotSimple(type(expr).__name__)
        return tuple(self._operand(arg, param_index) for arg in expr.args)  # type: ignore[return-value]

    def _operand(self, arg: Any, param_index: dict[int, int]) -> int:
        """Code of one operand: k >= 0 is Param k, k < 0 is constant -k-1."""
        if type(arg) in native_numeric_types:
            self.constants.append(float(arg))
            return -len(self.constants)
        if not arg.is_expression_type() and arg.is_parameter_type():
            if id(arg) not in param_index:
                param_index[id(arg)] = len(self.params)
                self.params.append(arg)
            return param_index[id(arg)]
        raise _NotSimple(type(arg).__name__)

    def compiled_from(self, mutable_bounds: dict[int, Any]) -> bool:
        """Whether ``mutable_bounds`` still holds exactly the helpers this program was compiled from.

        APPSI edits the dict in place (and replaces a variable's helper when
        its bounds are re-processed), so identity of the dict is not enough.
        """
        return (
            mutable_bounds is self.mutable_bounds
            and len(mutable_bounds) == len(self.helpers)
            and all(map(operator.is_, (helper for _, helper in mutable_bounds.values()), self.helpers))
        )

    @property
    def n_bounds(self) -> int:
        return len(self.var_ids)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """``(lower, upper)`` of every compiled variable (in ``var_ids`` order)."""
        values = param_values(self.params)
        table = np.concatenate([values, np.array(self.constants[::-1], dtype=float)])
        codes = np.where(self.operands < 0, len(table) + self.operands, self.operands)
        picked = table[codes]
        return np.maximum(picked[:, 0], picked[:, 1]), np.minimum(picked[:, 2], picked[:, 3])

    def push(self) -> None:
        """Send the current bounds to HiGHS in one call."""
        if not self.var_ids:
            return
        var_map = self.var_map
        columns = np.fromiter((var_map[v] for v in self.var_ids), dtype=np.int32, count=len(self.var_ids))
        lower, upper = self.bounds()
        self.highs.changeColsBounds(len(columns), columns, lower, upper)


def install(solver: Any) -> bool:
    """Make ``solver.update_params`` push objective coefficients and bounds with numpy; False if not possible.

    ``solver`` is a ``pyomo.contrib.appsi.solvers.Highs`` after
    ``set_instance``. The programs are compiled at the first update and again
    whenever APPSI builds a new objective or changes its bound helpers.
    """
    if not all(hasattr(solver, name) for name in ("_objective_helpers", "_mutable_bounds", "update_params")):
        logger.debug("APPSI Highs lacks the expected helpers: Param updates stay per item")
        return False
    original: Callable[[], None] = solver.update_params
    objective: ObjectiveProgram | None = None
    bounds: BoundsProgram | None = None

    def update_params() -> None:
        nonlocal objective, bounds
        helpers, mutable_bounds = solver._objective_helpers, solver._mutable_bounds
        if objective is None or objective.helpers is not helpers:
            objective = ObjectiveProgram(helpers, solver._solver_model)
        if bounds is None or not bounds.compiled_from(mutable_bounds):
            bounds = BoundsProgram(mutable_bounds, solver._solver_model)
        solver._objective_helpers = objective.other_helpers
        solver._mutable_bounds = bounds.other
        try:
            original()
        finally:
            solver._objective_helpers = helpers
            solver._mutable_bounds = mutable_bounds
        objective.push()
        bounds.push()

    solver.update_params = update_params
    return True
