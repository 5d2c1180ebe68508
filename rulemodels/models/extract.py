"""Reading solved models: weights, rules, objective breakdown."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._build import TwoLevelModel
from rulemodels.models.clause_lp import ClauseLP, duals_as_weights
from rulemodels.models.problem import CNFProblem
from rulemodels.rules import Rule

__all__ = ["clause_weights", "is_integral", "objective_breakdown", "rule_from_model", "two_level_weights"]


def _solved_value(var: Any) -> float:
    value = var.value
    if value is None:
        raise ValueError(f"variable {var.name} has no value: solve the model first")
    return float(value)


def clause_weights(lp: ClauseLP) -> np.ndarray:
    """``w_j`` of a solved clause LP, shape (d,) (fractional for the LP); see :meth:`ClauseLP.weights`.

    Parameters
    ----------
    lp : ClauseLP
        A solved clause LP.

    Returns
    -------
    ndarray of float of shape (d,)
        The values of ``w_j``.
    """
    return lp.weights()


def two_level_weights(model: pyo.ConcreteModel) -> tuple[np.ndarray, np.ndarray | None]:
    """``(W, w0)`` of a solved two-level Pyomo model (``handle.model``): W is (d, R); w0 is (R,) or None.

    Parameters
    ----------
    model : pyomo.environ.ConcreteModel
        A solved two-level model (``handle.model``).

    Returns
    -------
    tuple
        ``(W, w0)``: an ndarray (d, R), and an ndarray (R,) or None.
    """
    W = np.array([[_solved_value(model.w[j, r]) for r in model.R] for j in model.J])
    w0 = None
    if model.find_component("w0") is not None:
        w0 = np.array([_solved_value(model.w0[r]) for r in model.R])
    return W, w0


def is_integral(values: np.ndarray, tol: float = 1e-6) -> bool:
    """Whether every value is within ``tol`` of 0 or 1.

    Parameters
    ----------
    values : numpy.ndarray
        The values to check.
    tol : float, default=1e-6
        The largest distance from 0 or 1 allowed.

    Returns
    -------
    bool
        True when every value is within ``tol`` of 0 or 1.
    """
    values = np.asarray(values, dtype=float)
    return bool(np.all(np.minimum(np.abs(values), np.abs(values - 1)) <= tol))


def rule_from_model(handle: ClauseLP | TwoLevelModel, problem: CNFProblem) -> Rule:
    """The learned rule of a solved model with integral ``w`` (raise if fractional).

    Fractional solutions (LP relaxations) must be binarized first; see
    :mod:`rulemodels.algorithms.rounding`.

    Parameters
    ----------
    handle : ClauseLP or TwoLevelModel
        The solved model.
    problem : CNFProblem
        The problem it was built from, which reads the rule.

    Returns
    -------
    Rule
        The learned rule.

    Raises
    ------
    ValueError
        If the model's solution is fractional.
    """
    if isinstance(handle, ClauseLP):
        model = handle.model
        W = handle.weights()[:, None]
        w0 = None
        if model.find_component("w0") is not None:
            w0 = np.array([_solved_value(model.w0)])
        elif model.find_component("price0") is not None:
            w0 = duals_as_weights(model, [model.price0])
    else:
        W, w0 = two_level_weights(handle.model)
    values = W if w0 is None else np.concatenate([W.ravel(), w0])
    if not is_integral(values):
        raise ValueError("the solution is fractional: binarize it (simple threshold or redundancy-aware) before reading a rule")
    return problem.rule_from_weights(W, w0)


def objective_breakdown(handle: ClauseLP | TwoLevelModel) -> dict[str, float]:
    """``{"accuracy": ..., "sparsity": ..., "total": ...}`` of a solved primal model.

    Parameters
    ----------
    handle : ClauseLP or TwoLevelModel
        The solved primal model.

    Returns
    -------
    dict of str to float
        The accuracy and sparsity terms and their total.
    """
    model = handle.model
    accuracy = float(pyo.value(model.accuracy_cost))
    sparsity = float(pyo.value(model.sparsity_cost))
    return {"accuracy": accuracy, "sparsity": sparsity, "total": accuracy + sparsity}
