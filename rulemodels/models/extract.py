"""Reading solved models: weights, rules, objective breakdown."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models.problem import CNFProblem
from rulemodels.rules import Rule

__all__ = ["clause_weights", "is_integral", "objective_breakdown", "rule_from_model", "two_level_weights"]


def _solved_value(var: Any) -> float:
    value = var.value
    if value is None:
        raise ValueError(f"variable {var.name} has no value: solve the model first")
    return float(value)


def clause_weights(model: pyo.ConcreteModel) -> np.ndarray:
    """``w_j`` of a solved clause LP, shape (d,) (fractional for the LP).

    For the dual model (:func:`~rulemodels.models.build_clause_dual_lp`)
    ``w_j = |dual(price[j])|``, clipped to [0, 1]: ``w_j >= 0``, and solvers
    differ in the sign they give the duals of a maximisation.
    """
    constraints = getattr(model, "_w_constraints", None)
    if constraints is not None:
        return _weights_from_duals(model, constraints)
    variables = getattr(model, "_w_vars", None) or list(model.w.values())  # in the order of J
    values = [var.value for var in variables]
    if None in values:
        _solved_value(variables[values.index(None)])  # raises, naming the variable
    return np.array(values, dtype=float)


def _weights_from_duals(model: pyo.ConcreteModel, constraints: list[Any]) -> np.ndarray:
    duals = model.dual
    missing = next((con for con in constraints if con not in duals), None)
    if missing is not None:
        raise ValueError(
            f"constraint {missing.name} has no dual value: solve the model with a backend that reports duals"
        )
    return np.clip(np.abs(np.array([duals[con] for con in constraints], dtype=float)), 0.0, 1.0)


def two_level_weights(model: pyo.ConcreteModel) -> tuple[np.ndarray, np.ndarray | None]:
    """``(W, w0)`` of a solved two-level model: W is (d, R); w0 is (R,) or None."""
    W = np.array([[_solved_value(model.w[j, r]) for r in model.K] for j in model.J])
    w0 = None
    if model.find_component("w0") is not None:
        w0 = np.array([_solved_value(model.w0[r]) for r in model.K])
    return W, w0


def is_integral(values: np.ndarray, tol: float = 1e-6) -> bool:
    """Whether every value is within ``tol`` of 0 or 1."""
    values = np.asarray(values, dtype=float)
    return bool(np.all(np.minimum(np.abs(values), np.abs(values - 1)) <= tol))


def rule_from_model(model: pyo.ConcreteModel, problem: CNFProblem) -> Rule:
    """The learned rule of a solved model with integral ``w`` (raise if fractional).

    Fractional solutions (LP relaxations) must be binarized first; see
    :mod:`rulemodels.algorithms.rounding`.
    """
    if model.find_component("K") is None:
        W = clause_weights(model)[:, None]
        w0 = None
        if model.find_component("w0") is not None:
            w0 = np.array([_solved_value(model.w0)])
        elif model.find_component("price0") is not None:
            w0 = _weights_from_duals(model, [model.price0])
    else:
        W, w0 = two_level_weights(model)
    values = W if w0 is None else np.concatenate([W.ravel(), w0])
    if not is_integral(values):
        raise ValueError("the solution is fractional: binarize it (simple threshold or redundancy-aware) before reading a rule")
    return problem.rule_from_weights(W, w0)


def objective_breakdown(model: pyo.ConcreteModel) -> dict[str, float]:
    """``{"accuracy": ..., "sparsity": ..., "total": ...}`` of a solved model."""
    accuracy = float(pyo.value(model.accuracy_cost))
    sparsity = float(pyo.value(model.sparsity_cost))
    return {"accuracy": accuracy, "sparsity": sparsity, "total": accuracy + sparsity}
