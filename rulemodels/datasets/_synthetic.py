"""Synthetic rule-learning data of any size, for benchmarks and tests at scale.

:func:`make_rule_data` draws a table and a 0/1 label from a known noisy rule,
vectorised with numpy (no Python loop over rows), so that 1,000,000 rows take
a few seconds and a few hundred MiB. The bundled UCI datasets have at most
768 rows; these generators are what the scaling benchmark
(``benchmarks/bench_scaling.py``) and the large-data tests fit on.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd

from rulemodels import defaults
from rulemodels.utils import Interval, Options, check_parameter

__all__ = ["make_rule_data"]

#: Share of labels flipped after the rule in the ``numeric`` and ``mixed`` kinds.
_LABEL_NOISE = 0.05

_EMPLOYMENT = np.array(["employed", "self-employed", "unemployed", "retired", "student"], dtype=object)
_PRODUCTS = ["card", "personal", "auto", "mortgage"]
_CHANNELS = ["branch", "online", "phone"]
_N_REGIONS = 30


def make_rule_data(
    n_samples: int, *, kind: str = "numeric", random_state: int = 0
) -> tuple[pd.DataFrame, pd.Series]:
    """Draw ``n_samples`` rows and a 0/1 label that follows a known noisy rule.

    Parameters
    ----------
    n_samples : int
        Number of rows (at least 1).
    kind : {"numeric", "mixed", "pima"}, default="numeric"
        - ``"numeric"``: 8 correlated Gaussian columns ``x0`` ... ``x7``
          (correlation 0.5 between neighbours, decaying with distance;
          ``x5`` is log-normal, ``x6`` a percentage in [0, 100]), and the
          label of the 3-clause DNF ``(x0 > 0.3 and x1 <= 0.5) or (x2 > 0.8
          and x3 > -0.2) or (x4 <= -0.6 and x7 > 0)`` with 5 % of the labels
          flipped. About 44 % of the labels are 1. Every value is
          continuous, so nearly every row is distinct even after
          binarization (9 thresholds give 144 binary features, about 10^8
          possible patterns).
        - ``"mixed"``: a credit-application-like table: 8 numeric columns,
          several of them integer-valued or skewed (``age``, ``income``,
          ``loan_amount``, ``n_accounts``, ``n_late_payments``,
          ``utilization``, ``tenure_months``, ``debt_to_income``), 4
          categorical ones (``region`` with 30 levels and ``product``,
          ``channel`` as pandas ``category``; ``employment`` as text), and a
          few % of missing values in ``income`` (and hence
          ``debt_to_income``), ``utilization`` and ``employment``. The label
          (``default``, about 26 % ones) is ``(n_late_payments >= 1 and
          utilization > 0.5) or (debt_to_income > 0.4 and employment in
          {unemployed, student}) or (age < 30 and region in R01-R05) or
          (income is missing and n_late_payments >= 1)``, with 5 % flipped.
        - ``"pima"``: the resampled Pima rows the earlier
          ``benchmarks/bench_scaling.py`` measured on (each class keeps
          Pima's share; each column of a row is drawn from that column's
          values in Pima's rows of the same class, plus ±1 % uniform
          jitter). With ``random_state=0`` it gives exactly the numbers of
          that script (``docs/benchmarks.md``, "Scaling with n"), so earlier
          measurements stay comparable. The label does not follow a rule.
    random_state : int, default=0
        Seed of :func:`numpy.random.default_rng`: the same seed and
        arguments give the same data.

    Returns
    -------
    X : pandas.DataFrame of shape (n_samples, n_columns)
    y : pandas.Series of int (0/1), named ``"label"`` (``"default"`` for ``mixed``)

    Raises
    ------
    rulemodels.utils.InvalidParameterError
        If ``n_samples`` is not a positive integer, ``kind`` is not one of
        the kinds above or ``random_state`` is not a non-negative integer.

    Examples
    --------
    >>> X, y = make_rule_data(1000)
    >>> X.shape, sorted(set(y))
    ((1000, 8), [0, 1])
    >>> X, y = make_rule_data(1000, kind="mixed")
    >>> int(X.isna().any(axis=0).sum()) > 0
    True
    """
    check_parameter("n_samples", n_samples, owner="make_rule_data", constraints=[Interval(Integral, 1, None, closed="left")])
    check_parameter("kind", kind, owner="make_rule_data", constraints=[Options(defaults.SYNTHETIC_KINDS)])
    check_parameter(
        "random_state", random_state, owner="make_rule_data", constraints=[Interval(Integral, 0, None, closed="left")],
    )
    n = int(n_samples)
    if kind == "pima":
        return _pima(n, int(random_state))
    rng = np.random.default_rng(int(random_state))
    if kind == "numeric":
        return _numeric(n, rng)
    return _mixed(n, rng)


def _flip(rule: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The 0/1 labels of ``rule`` with :data:`_LABEL_NOISE` of them flipped at random."""
    return (rule ^ (rng.random(rule.shape[0]) < _LABEL_NOISE)).astype(np.int64)


def _numeric(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.Series]:
    """8 correlated columns (AR(1) correlation 0.5, two of them transformed) and a noisy 3-clause DNF label."""
    d = 8
    lags = np.abs(np.subtract.outer(np.arange(d), np.arange(d)))
    factor = np.linalg.cholesky(0.5 ** lags)
    Z = rng.standard_normal((n, d)) @ factor.T
    rule = ((Z[:, 0] > 0.3) & (Z[:, 1] <= 0.5)) | ((Z[:, 2] > 0.8) & (Z[:, 3] > -0.2)) | ((Z[:, 4] <= -0.6) & (Z[:, 7] > 0))
    y = _flip(rule, rng)
    columns = {f"x{j}": Z[:, j] for j in range(d)}
    columns["x5"] = np.exp(Z[:, 5])  # skewed; the rule does not use x5 or x6
    columns["x6"] = 100.0 / (1.0 + np.exp(-Z[:, 6]))
    return pd.DataFrame(columns), pd.Series(y, name="label")


def _mixed(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.Series]:
    """A credit-application-like table: skewed and integer columns, categories, missing values, a noisy rule."""
    age = np.clip(18 + rng.gamma(4.0, 6.0, n), 18, 95).astype(np.int64)
    log_income = 10.3 + 0.012 * (np.minimum(age, 60) - 18) + 0.5 * rng.standard_normal(n)
    income = np.round(np.exp(log_income), -2)
    loan_amount = np.round(np.exp(0.8 * log_income + 1.2 + 0.6 * rng.standard_normal(n)), -1)
    n_accounts = rng.poisson(3.0, n)
    n_late_payments = rng.negative_binomial(1, 0.7, n)
    utilization = rng.beta(2.0, 3.0 - np.minimum(n_late_payments, 2) * 0.8, n)
    tenure_months = rng.geometric(1 / 40.0, n)
    debt_to_income = np.round(loan_amount / income / 2.5 + 0.1 * rng.random(n), 4)

    region_weights = 1.0 / np.arange(1, _N_REGIONS + 1)  # Zipf-like: a few large regions, many small ones
    region_codes = rng.choice(_N_REGIONS, size=n, p=region_weights / region_weights.sum())
    employment_codes = rng.choice(len(_EMPLOYMENT), size=n, p=[0.62, 0.14, 0.08, 0.1, 0.06])
    product_codes = rng.choice(len(_PRODUCTS), size=n, p=[0.4, 0.3, 0.2, 0.1])
    channel_codes = rng.choice(len(_CHANNELS), size=n, p=[0.3, 0.55, 0.15])

    income_missing = rng.random(n) < 0.04
    utilization_missing = rng.random(n) < 0.02
    employment_missing = rng.random(n) < 0.01

    rule = (
        ((n_late_payments >= 1) & (utilization > 0.5))
        | ((debt_to_income > 0.4) & np.isin(employment_codes, [2, 4]))
        | ((age < 30) & (region_codes < 5))
        | (income_missing & (n_late_payments >= 1))
    )
    y = _flip(rule, rng)

    income = np.where(income_missing, np.nan, income)
    debt_to_income = np.where(income_missing, np.nan, debt_to_income)
    utilization = np.where(utilization_missing, np.nan, np.round(utilization, 3))
    employment = _EMPLOYMENT[employment_codes]
    employment[employment_missing] = None
    regions = [f"R{k:02d}" for k in range(1, _N_REGIONS + 1)]
    X = pd.DataFrame({
        "age": age,
        "income": income,
        "loan_amount": loan_amount,
        "n_accounts": n_accounts,
        "n_late_payments": n_late_payments,
        "utilization": utilization,
        "tenure_months": tenure_months,
        "debt_to_income": debt_to_income,
        "region": pd.Categorical.from_codes(region_codes, categories=regions),
        "employment": employment,
        "product": pd.Categorical.from_codes(product_codes, categories=_PRODUCTS),
        "channel": pd.Categorical.from_codes(channel_codes, categories=_CHANNELS),
    })
    return X, pd.Series(y, name="default")


def _pima(n: int, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    """Pima's rows resampled per class and column, with jitter (the earlier scaling benchmark's data, same draws)."""
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("pima")
    rng = np.random.default_rng(seed)
    labels = (rng.random(n) < y.mean()).astype(np.int64)
    columns = {}
    for name in X.columns:
        values = X[name].to_numpy(dtype=float)
        spread = 0.01 * (values.max() - values.min())
        column = np.empty(n)
        for label in (0, 1):
            pool = values[y == label]
            rows = labels == label
            column[rows] = rng.choice(pool, size=rows.sum()) + rng.uniform(-spread, spread, size=rows.sum())
        columns[name] = column
    return pd.DataFrame(columns), pd.Series(labels, name=y.name)
