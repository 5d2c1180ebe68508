"""The generators behind :func:`rulemodels.datasets.make_rule_data`: synthetic rule-learning data of any size.

Each draws a table and a 0/1 label from a known noisy rule,
vectorised with numpy (no Python loop over rows), so that 1,000,000 rows take
a few seconds and a few hundred MiB. The bundled UCI datasets have at most
768 rows; these generators are what the scaling benchmark
(``benchmarks/bench_scaling.py``) and the large-data tests fit on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["mixed_rule_data", "numeric_rule_data", "resampled_rows"]

#: Share of labels flipped after the rule in the ``numeric`` and ``mixed`` kinds.
_LABEL_NOISE = 0.05

_EMPLOYMENT = np.array(["employed", "self-employed", "unemployed", "retired", "student"], dtype=object)
_PRODUCTS = ["card", "personal", "auto", "mortgage"]
_CHANNELS = ["branch", "online", "phone"]
_N_REGIONS = 30


def _flip(rule: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The 0/1 labels of ``rule`` with :data:`_LABEL_NOISE` of them flipped at random."""
    return (rule ^ (rng.random(rule.shape[0]) < _LABEL_NOISE)).astype(np.int64)


def numeric_rule_data(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.Series]:
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


def mixed_rule_data(n: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.Series]:
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


def resampled_rows(X: pd.DataFrame, y: pd.Series, n: int, seed: int) -> tuple[pd.DataFrame, pd.Series]:
    """``n`` rows resampled per class and column from ``(X, y)``, with ±1 % jitter (the earlier scaling benchmark's draws)."""
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
