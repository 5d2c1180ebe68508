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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from rulemodels.rules import Literal, Rule
from rulemodels.utils import fill_doc

__all__ = [
    "Baseline", "TrivialRuleWarning", "WeakLiteralWarning", "majority_baseline", "thin_literals", "trivial_rule_advice",
    "warn_if_trivial", "warn_thin_literals",
]


class TrivialRuleWarning(UserWarning):
    """The learned rule predicts one class for every training row, or its
    training error is no lower than the majority-class baseline's.

    Such a rule explains nothing: lower ``theta`` (each literal then needs to
    fix fewer rows), raise ``n_clauses``, or try another ``algorithm``.
    ``BooleanRuleClassifier.baseline_error_`` is the baseline.
    """


class WeakLiteralWarning(UserWarning):
    """A literal of the learned rule changes the prediction of fewer training rows than a literal costs.

    The floor is the estimator's ``min_literal_rows`` (``"auto"``: ½ ln n
    rows, ``docs/theta.md``, "A floor in rows"): a literal that changes fewer
    rows fits a handful of rows and may not hold on new data. Exact pruning
    (``prune=True``, the default) removes such literals when they do not pay
    for themselves, so the warning mostly comes with ``prune=False``, heavy
    row weights or domain constraints.
    """


@dataclass(frozen=True)
class Baseline:
    """The majority-class baseline on training data: its class label (0/1) and weighted error.

    Parameters
    ----------
    label : int
        The majority class, 0 or 1 (the one with the larger total weight; ties: 0).
    error : float
        The weighted training error of always predicting ``label``: the minority's share of the weight.
    """

    label: int
    error: float


def majority_baseline(labels: np.ndarray, weights: np.ndarray) -> Baseline:
    """The 0/1 label with the larger total weight (ties: 0) and the weighted error of always predicting it.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        The training labels, 0/1 (or bool).
    weights : array-like of shape (n_samples,)
        The rows' weights.

    Returns
    -------
    Baseline
        The majority label and its weighted error (0 when the weights sum to 0).
    """
    labels = np.asarray(labels).astype(bool)
    weights = np.asarray(weights, dtype=float)
    total = float(weights.sum())
    positive = float(weights[labels].sum())
    label = int(positive > total - positive)
    wrong = total - positive if label else positive
    return Baseline(label, wrong / total if total > 0 else 0.0)


def _plain(value: object) -> object:
    return value.item() if isinstance(value, np.generic) else value


def trivial_rule_advice(labels: np.ndarray, weights: np.ndarray) -> str:
    """What to try when a rule explains nothing, from the data in hand: θ below the minority's share, the path, weights.

    θ (``theta_unit="fraction"``) is the share of the rows a literal must fix; a rule can fix at most
    the minority class's share ``m``, so θ must be well below ``m`` (a clause of one literal costs 2θ
    with column generation). ``BooleanRuleCV()`` searches θ along a path scaled to ``m``
    (:func:`rulemodels.model_selection.theta_path`); with a rare class, balanced class weights make
    every class count alike.

    Parameters
    ----------
    labels : array-like of shape (n_samples,)
        The training labels, 0/1 (or bool).
    weights : array-like of shape (n_samples,)
        The rows' weights.

    Returns
    -------
    str
        The advice, in words, for a warning's message.
    """
    labels = np.asarray(labels).astype(bool)
    weights = np.asarray(weights, dtype=float)
    total = float(weights.sum())
    minority = min(float(weights[labels].sum()), float(weights[~labels].sum())) / total if total > 0 else 0.5
    advice = (
        f"the smaller class holds {minority:.1%} of the weight, so try theta <= {minority / 10:.2g} (a literal must fix "
        "theta of the rows), or BooleanRuleCV(), which searches theta along a path scaled to these data"
    )
    if minority < 0.15:
        advice += ", or class_weight='balanced' (with scoring='balanced_accuracy' in BooleanRuleCV)"
    return advice + "; thresholds='tree' places cut points where the classes change"


def warn_if_trivial(
    predicted: np.ndarray, labels: np.ndarray, weights: np.ndarray, baseline: Baseline, classes: np.ndarray,
    *, stacklevel: int = 2,
) -> float:
    """Warn (:class:`TrivialRuleWarning`) when ``predicted`` is constant or no better than ``baseline``.

    Parameters
    ----------
    predicted : array-like of shape (n_samples,)
        The rule's 0/1 predictions on the training rows.
    labels : array-like of shape (n_samples,)
        The training labels, 0/1.
    weights : array-like of shape (n_samples,)
        The rows' weights.
    baseline : Baseline
        The majority baseline of ``labels`` (:func:`majority_baseline`).
    classes : ndarray of shape (2,)
        The class labels of 0 and 1, named in the message.
    stacklevel : int, default=2
        The ``stacklevel`` of the warning, counted from the caller of this function.

    Returns
    -------
    float
        The weighted training error of ``predicted``.
    """
    predicted = np.asarray(predicted).astype(bool)
    labels = np.asarray(labels).astype(bool)
    weights = np.asarray(weights, dtype=float)
    error = float(weights[predicted != labels].sum() / weights.sum()) if weights.sum() > 0 else 0.0
    majority = _plain(classes[baseline.label])
    advice = trivial_rule_advice(labels, weights)
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


#: The parameters :func:`thin_literals` and :func:`warn_thin_literals` share (``fill_doc``).
_THIN_PARAMETERS = """
rule : Rule
    The learned rule.
A : array-like of shape (n_samples, n_literals)
    The binarized training rows (0/1), a column per literal.
literals : sequence of Literal
    The literal of each column of ``A``.
weights : ndarray of shape (n_samples,)
    The rows' weights (sample and class weights).
n_rows : float
    The number of training rows (the weights' sum divided by it is the mean weight).
min_rows : float
    The floor: a literal changing fewer rows than this is thin (``min_literal_rows``, ``docs/theta.md``).
"""


@fill_doc(thin_parameters=_THIN_PARAMETERS)
def thin_literals(
    rule: Rule, A: ArrayLike, literals: Sequence[Literal], weights: np.ndarray, n_rows: float, min_rows: float,
) -> list[tuple[Literal, float]]:
    """The literals of ``rule`` whose removal changes the prediction of fewer than ``min_rows`` training rows.

    A literal's rows are the rows whose prediction changes when it is
    removed from its clause (a clause of one literal: the clause removed),
    counted in rows of mean weight (``weights`` summed over them, divided
    by ``weights.sum() / n_rows``). ``A`` and ``literals`` are the binarized
    training rows and their columns' literals.

    Parameters
    ----------
    {thin_parameters}

    Returns
    -------
    list of (Literal, float)
        ``(literal, rows)`` pairs, in the rule's order, of the literals changing fewer than ``min_rows`` rows.
    """
    if min_rows <= 0 or rule.n_literals == 0:
        return []
    weights = np.asarray(weights, dtype=float)
    mean_weight = float(weights.sum()) / float(n_rows) if n_rows > 0 else 0.0
    if mean_weight <= 0:
        return []
    before = rule.evaluate_binary(A, literals)
    clauses = [list(clause.literals) for clause in rule.clauses]
    make = Rule.dnf if rule.form == "dnf" else Rule.cnf
    found = []
    for r, clause in enumerate(clauses):
        for literal in clause:
            rest = [other for other in clause if other != literal]
            variant = make([c for c in (rest if k == r else c for k, c in enumerate(clauses)) if c])
            changed = variant.evaluate_binary(A, literals) != before
            rows = float(weights[changed].sum()) / mean_weight
            if rows < min_rows - 1e-9:
                found.append((literal, rows))
    return found


@fill_doc(thin_parameters=_THIN_PARAMETERS)
def warn_thin_literals(
    rule: Rule, A: ArrayLike, literals: Sequence[Literal], weights: np.ndarray, n_rows: float, min_rows: float,
    *, stacklevel: int = 2,
) -> list[tuple[Literal, float]]:
    """Warn (:class:`WeakLiteralWarning`, once) when :func:`thin_literals` finds literals; return them.

    Parameters
    ----------
    {thin_parameters}
    stacklevel : int, default=2
        The ``stacklevel`` of the warning, counted from the caller of this function.

    Returns
    -------
    list of (Literal, float)
        What :func:`thin_literals` returns.
    """
    found = thin_literals(rule, A, literals, weights, n_rows, min_rows)
    if found:
        listed = "; ".join(f"{literal} ({rows:.3g} row(s))" for literal, rows in found)
        warnings.warn(
            f"{len(found)} literal(s) of the rule change the prediction of fewer training rows than a literal costs "
            f"(min_literal_rows: {min_rows:.3g} rows): {listed}; they fit a handful of rows and may not hold on new "
            "data: keep prune=True (the default), raise theta, or use BooleanRuleCV()",
            WeakLiteralWarning, stacklevel=stacklevel + 1,
        )
    return found
