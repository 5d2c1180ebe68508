"""A German-credit-like table generated with numpy (no download): coded categories, '?' for missing.

The columns imitate the public German credit data's coding (``checking`` A11-A14,
``history`` A30-A34, ``purpose`` A40-A49, ``savings`` A61-A65), with numeric
``duration`` (months), ``amount`` and ``age``, and about 30 % bad credit. The
label depends on checking status, duration, history and purpose, plus noise.
``python docs/examples/credit_table.py credit.csv`` writes it as CSV (missing
values as ``?``); the README's categorical example is a fit on that file.
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd


def credit_table(n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """The table: 7 features and ``risk`` ('good'/'bad'); a few cells are missing (None/NaN)."""
    rng = np.random.default_rng(seed)
    checking = rng.choice(["A11", "A12", "A13", "A14"], n, p=[0.27, 0.27, 0.06, 0.40])
    history = rng.choice(["A30", "A31", "A32", "A33", "A34"], n, p=[0.04, 0.05, 0.53, 0.09, 0.29])
    purpose = rng.choice(["A40", "A41", "A42", "A43", "A44", "A45", "A46", "A48", "A49"], n,
                         p=[0.23, 0.10, 0.18, 0.28, 0.02, 0.02, 0.05, 0.02, 0.10])
    savings = rng.choice(["A61", "A62", "A63", "A64", "A65"], n, p=[0.60, 0.10, 0.06, 0.05, 0.19])
    duration = rng.choice([6, 12, 18, 24, 36, 48, 60], n, p=[0.12, 0.30, 0.16, 0.22, 0.12, 0.06, 0.02])
    amount = np.round(rng.lognormal(7.8, 0.7, n))
    age = rng.integers(19, 75, n)
    score = (
        1.4 * np.isin(checking, ["A11", "A12"]) + 0.04 * (duration - 20) + 0.9 * np.isin(history, ["A30", "A31"])
        + 0.6 * np.isin(purpose, ["A40", "A46"]) - 0.5 * np.isin(savings, ["A64", "A65"]) - 0.01 * (age - 35)
    )
    bad = score + rng.logistic(0, 0.6, n) > np.quantile(score, 0.70) + 0.3
    frame = pd.DataFrame({
        "checking": checking, "duration": duration, "history": history, "purpose": purpose,
        "amount": amount, "savings": savings, "age": age.astype(float), "risk": np.where(bad, "bad", "good"),
    })
    frame.loc[rng.random(n) < 0.05, "savings"] = None
    frame.loc[rng.random(n) < 0.03, "age"] = np.nan
    return frame


if __name__ == "__main__":
    credit_table().to_csv(sys.argv[1] if len(sys.argv) > 1 else "credit.csv", index=False, na_rep="?")
