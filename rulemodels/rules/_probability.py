"""Probabilities from a rule: Laplace-smoothed positive rates per pattern of clause outputs.

A rule with R clauses sorts every row into one of at most 2^R *patterns*, the
vector of its clause values ``(v_1, ..., v_R)``. The probability of the
positive class for a row is the positive rate, on the training data, of the
rows with the same pattern, with Laplace's rule of succession:

    p(pattern) = (positives + 1) / (rows + 2)       (weighted counts with sample_weight)

Two adjustments keep the probability consistent with the rule itself:

- *monotone in the rule's output*: no row the rule calls positive gets a lower
  probability than a row it calls negative. Patterns that would break this
  (a rarely-firing term that is mostly wrong, say) are pooled with the
  patterns they contradict, and the pool gets the smoothed rate of its pooled
  counts (the pool-adjacent-violators idea of isotonic regression, applied to
  the order "rule false <= rule true");
- *patterns not seen in training* get the smoothed rate of all training rows
  with the same rule output, clipped to the monotone range.

This is an empirical, in-sample estimate: with few rows per pattern it is
coarse (it can take at most 2^R values), and on the training data it is
optimistic. Wrap the estimator in ``sklearn.calibration.CalibratedClassifierCV``
for probabilities calibrated out of sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["PatternRates"]


@dataclass(frozen=True)
class PatternRates:
    """The learned table: one row per training pattern of clause outputs.

    Parameters
    ----------
    patterns : ndarray of bool, shape (n_patterns, R)
        The distinct patterns of clause outputs seen in training.
    rule_values : ndarray of bool, shape (n_patterns,)
        The rule's output on each pattern.
    n_samples, n_positive : ndarray of float, shape (n_patterns,)
        Training rows (sum of weights) with the pattern, and those positive.
    proba : ndarray of float, shape (n_patterns,)
        Positive-class probability after smoothing and pooling.
    unseen : tuple of float
        Probability of a pattern not seen in training, for a false and a true rule.
    """

    patterns: np.ndarray
    rule_values: np.ndarray
    n_samples: np.ndarray
    n_positive: np.ndarray
    proba: np.ndarray
    unseen: tuple[float, float]

    @classmethod
    def fit(cls, clause_values: np.ndarray, rule_values: np.ndarray, positive: np.ndarray,
            sample_weight: np.ndarray | None = None) -> PatternRates:
        """Count positives per pattern of ``clause_values`` (n, R) and smooth, pool and store the rates.

        Parameters
        ----------
        clause_values : array-like of bool, shape (n_samples, n_clauses)
            The clause outputs of each training row; a distinct row is a pattern.
        rule_values : array-like of bool, shape (n_samples,)
            The rule output of each row (the same for every row of a pattern).
        positive : array-like of bool, shape (n_samples,)
            Whether each row is of the positive class.
        sample_weight : array-like of shape (n_samples,) or None, default=None
            The weight each row counts with; None: 1 each.

        Returns
        -------
        PatternRates
            The patterns, their rule values, weighted row and positive counts, their pooled rates and the
            rates of an unseen pattern.
        """
        clause_values = np.asarray(clause_values, dtype=bool)
        weight = np.ones(len(clause_values)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        patterns, inverse = np.unique(clause_values, axis=0, return_inverse=True)
        inverse = np.asarray(inverse).reshape(-1)
        n_samples = np.bincount(inverse, weights=weight, minlength=len(patterns))
        n_positive = np.bincount(inverse, weights=weight * np.asarray(positive, dtype=float), minlength=len(patterns))
        pattern_rule = np.zeros(len(patterns), dtype=bool)
        pattern_rule[inverse] = np.asarray(rule_values, dtype=bool)
        proba = _pool_violators(n_positive, n_samples, pattern_rule)
        unseen = _unseen_rates(n_positive, n_samples, pattern_rule, proba)
        return cls(patterns, pattern_rule, n_samples, n_positive, proba, unseen)

    def predict(self, clause_values: np.ndarray, rule_values: np.ndarray) -> np.ndarray:
        """Positive-class probability of each row from its clause outputs (n, R) and rule output (n,).

        Parameters
        ----------
        clause_values : array-like of bool, shape (n_samples, n_clauses)
            The clause outputs of each row.
        rule_values : array-like of bool, shape (n_samples,)
            The rule output of each row; it picks the rate of an unseen pattern.

        Returns
        -------
        ndarray of shape (n,)
            The positive-class probability of each row.
        """
        clause_values = np.asarray(clause_values, dtype=bool)
        rule_values = np.asarray(rule_values, dtype=bool)
        result = np.where(rule_values, self.unseen[1], self.unseen[0]).astype(float)
        if len(self.patterns) and clause_values.shape[0]:
            lookup = {row.tobytes(): k for k, row in enumerate(self.patterns)}
            for i, row in enumerate(clause_values):
                k = lookup.get(row.tobytes())
                if k is not None:
                    result[i] = self.proba[k]
        return result

    def to_frame(self, clause_names: list[str] | None = None) -> pd.DataFrame:
        """The table as a DataFrame: one column per clause, then rule, n_samples, n_positive, proba.

        Parameters
        ----------
        clause_names : list of str or None, default=None
            The names of the clause columns; None names them ``clause_1``, ``clause_2``, ...

        Returns
        -------
        DataFrame
            The table, sorted by rule value, then probability.
        """
        names = clause_names or [f"clause_{r + 1}" for r in range(self.patterns.shape[1])]
        frame = pd.DataFrame(self.patterns, columns=names)
        frame["rule"] = self.rule_values
        frame["n_samples"] = self.n_samples
        frame["n_positive"] = self.n_positive
        frame["proba"] = self.proba
        return frame.sort_values(["rule", "proba"], ignore_index=True)


def _laplace(positives: float, total: float) -> float:
    return (positives + 1.0) / (total + 2.0)


def _pool_violators(n_positive: np.ndarray, n_samples: np.ndarray, rule_values: np.ndarray) -> np.ndarray:
    """Smoothed rates, with the patterns that contradict the rule's order pooled into one level.

    The constraint is ``p(true pattern) >= p(false pattern)`` for every pair. Starting from
    the worst pair (lowest true, highest false), violators join a pool until every true
    pattern outside it is >= the pool's rate and every false one is <= it.
    """
    rates = np.array([_laplace(p, n) for p, n in zip(n_positive, n_samples)])
    true_side, false_side = np.flatnonzero(rule_values), np.flatnonzero(~rule_values)
    if not len(true_side) or not len(false_side) or rates[true_side].min() >= rates[false_side].max():
        return rates
    pool = {int(true_side[np.argmin(rates[true_side])]), int(false_side[np.argmax(rates[false_side])])}
    while True:
        members = np.fromiter(pool, dtype=int)
        level = _laplace(n_positive[members].sum(), n_samples[members].sum())
        joining = {int(k) for k in true_side if k not in pool and rates[k] < level}
        joining |= {int(k) for k in false_side if k not in pool and rates[k] > level}
        if not joining:
            break
        pool |= joining
    pooled = rates.copy()
    pooled[members] = level
    return pooled


def _unseen_rates(n_positive: np.ndarray, n_samples: np.ndarray, rule_values: np.ndarray,
                  proba: np.ndarray) -> tuple[float, float]:
    """For a false and a true rule: the smoothed rate of all rows with that output, kept in the monotone range."""
    lowest_true = proba[rule_values].min() if rule_values.any() else 1.0
    highest_false = proba[~rule_values].max() if (~rule_values).any() else 0.0
    when_false = min(_laplace(n_positive[~rule_values].sum(), n_samples[~rule_values].sum()), lowest_true)
    when_true = max(_laplace(n_positive[rule_values].sum(), n_samples[rule_values].sum()), highest_false, when_false)
    return float(when_false), float(when_true)
