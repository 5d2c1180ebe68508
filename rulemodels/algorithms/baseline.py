"""Honest outputs: the majority-class baseline and the warning for trivial rules.

A rule is only worth reading when it beats the rule-free classifier that
predicts the majority class for every row. Its error on the training data,

.. math::

    e_0 = \\frac{\\min(\\sum_{y_i = 0} \\omega_i, \\sum_{y_i = 1} \\omega_i)}{\\sum_i \\omega_i},

is the *baseline* printed beside every learned rule (:class:`TrivialRuleWarning`
when the rule does no better).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

__all__ = ["Baseline", "TrivialRuleWarning", "majority_baseline", "warn_if_trivial"]


class TrivialRuleWarning(UserWarning):
    """The learned rule predicts one class for every training row, or its
    training error is no lower than the majority-class baseline's.

    Such a rule explains nothing: lower ``theta`` (each literal then needs to
    fix fewer rows), raise ``n_clauses``, or try another ``algorithm``.
    ``BooleanRuleClassifier.baseline_error_`` is the baseline.
    """


@dataclass(frozen=True)
class Baseline:
    """The majority-class baseline on training data: its class label (0/1) and weighted error."""

    label: int
    error: float


def majority_baseline(labels: np.ndarray, weights: np.ndarray) -> Baseline:
    """The 0/1 label with the larger total weight (ties: 0) and the weighted error of always predicting it."""
    labels = np.asarray(labels).astype(bool)
    weights = np.asarray(weights, dtype=float)
    total = float(weights.sum())
    positive = float(weights[labels].sum())
    label = int(positive > total - positive)
    wrong = total - positive if label else positive
    return Baseline(label, wrong / total if total > 0 else 0.0)


def _plain(value: object) -> object:
    return value.item() if isinstance(value, np.generic) else value


def warn_if_trivial(
    predicted: np.ndarray, labels: np.ndarray, weights: np.ndarray, baseline: Baseline, classes: np.ndarray,
    *, stacklevel: int = 2,
) -> float:
    """Warn (:class:`TrivialRuleWarning`) when ``predicted`` is constant or no better than ``baseline``.

    Returns the weighted training error of ``predicted``. ``classes`` names the
    0/1 labels in the message.
    """
    predicted = np.asarray(predicted).astype(bool)
    labels = np.asarray(labels).astype(bool)
    weights = np.asarray(weights, dtype=float)
    error = float(weights[predicted != labels].sum() / weights.sum()) if weights.sum() > 0 else 0.0
    majority = _plain(classes[baseline.label])
    advice = "lower theta, raise n_clauses or try another algorithm"
    if predicted.all() or not predicted.any():
        constant = _plain(classes[int(predicted[0])]) if predicted.size else majority
        message = (
            f"the learned rule predicts class {constant!r} for every training row (training error "
            f"{error:.4f}; always predicting the majority class {majority!r} gives {baseline.error:.4f}): "
            f"it explains nothing; {advice}"
        )
    elif error >= baseline.error - 1e-12:
        message = (
            f"the learned rule's training error {error:.4f} is no better than the baseline {baseline.error:.4f} "
            f"of always predicting the majority class {majority!r}; {advice}"
        )
    else:
        return error
    warnings.warn(message, TrivialRuleWarning, stacklevel=stacklevel + 1)
    return error
