"""Tests for rulemodels.datasets.make_rule_data: the synthetic tables of the scaling benchmark."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import rulemodels
from rulemodels import BooleanRuleClassifier
from rulemodels.datasets import load_dataset, make_rule_data
from rulemodels.utils import InvalidParameterError

NUMERIC_COLUMNS = ["age", "income", "loan_amount", "n_accounts", "n_late_payments", "utilization", "tenure_months",
                   "debt_to_income"]


def test_exported_from_the_package() -> None:
    assert rulemodels.make_rule_data is make_rule_data


@pytest.mark.parametrize("kind", ["numeric", "mixed", "pima"])
def test_shape_labels_and_determinism(kind: str) -> None:
    X, y = make_rule_data(2000, kind=kind, random_state=3)
    assert len(X) == len(y) == 2000
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert set(np.unique(y)) == {0, 1}
    again_X, again_y = make_rule_data(2000, kind=kind, random_state=3)
    pd.testing.assert_frame_equal(X, again_X)
    pd.testing.assert_series_equal(y, again_y)
    other_X, _ = make_rule_data(2000, kind=kind, random_state=4)
    assert not X.equals(other_X)


def test_numeric_columns_are_correlated_and_rows_distinct() -> None:
    X, y = make_rule_data(5000)
    assert list(X.columns) == [f"x{j}" for j in range(8)]
    assert all(dtype == np.float64 for dtype in X.dtypes)
    assert X.drop_duplicates().shape[0] == 5000
    assert np.corrcoef(X["x0"], X["x1"])[0, 1] > 0.4  # neighbours: correlation 0.5
    assert 0.35 < y.mean() < 0.55
    assert y.name == "label"


def test_mixed_has_integer_skewed_categorical_and_missing_columns() -> None:
    X, y = make_rule_data(20_000, kind="mixed")
    assert list(X.columns) == [*NUMERIC_COLUMNS, "region", "employment", "product", "channel"]
    for name in ("age", "n_accounts", "n_late_payments", "tenure_months"):
        assert pd.api.types.is_integer_dtype(X[name]), name
    assert X["income"].skew() > 1  # log-normal
    assert isinstance(X["region"].dtype, pd.CategoricalDtype) and X["region"].nunique() == 30
    assert isinstance(X["product"].dtype, pd.CategoricalDtype) and isinstance(X["channel"].dtype, pd.CategoricalDtype)
    assert pd.api.types.is_string_dtype(X["employment"]) or X["employment"].dtype == object
    missing = X.isna().mean()
    for name, share in {"income": 0.04, "debt_to_income": 0.04, "utilization": 0.02, "employment": 0.01}.items():
        assert 0.5 * share < missing[name] < 1.5 * share, name
    assert missing.drop(["income", "debt_to_income", "utilization", "employment"]).eq(0).all()
    assert X["income"].isna().equals(X["debt_to_income"].isna())
    assert y.name == "default" and 0.15 < y.mean() < 0.4


def test_pima_kind_is_the_earlier_benchmark_data() -> None:
    """``kind="pima"`` keeps the draws of the old bench_scaling generator: class share and Pima's value ranges."""
    X, y = make_rule_data(5000, kind="pima")
    pima, labels = load_dataset("pima")
    assert list(X.columns) == list(pima.columns)
    assert abs(y.mean() - labels.mean()) < 0.03
    spread = 0.01 * (pima.max() - pima.min())
    assert (X.min() >= pima.min() - spread - 1e-9).all() and (X.max() <= pima.max() + spread + 1e-9).all()
    # what the old generator (benchmarks/bench_scaling.py::pima_like before make_rule_data, 2026-11-25) drew for 1,000 rows, seed 0
    X, y = make_rule_data(1000, kind="pima")
    assert int(y.sum()) == 313
    assert float(X.to_numpy().sum()) == pytest.approx(355688.060596626, rel=1e-12)
    assert (float(X.iloc[0, 0]), float(X.iloc[999, 7])) == pytest.approx((3.835021801672613, 46.27356359568895), rel=1e-12)


@pytest.mark.parametrize("kind", ["numeric", "mixed"])
def test_a_learned_rule_beats_the_majority_baseline(kind: str) -> None:
    X, y = make_rule_data(5000, kind=kind)
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3).fit(X, y)
    baseline = min(y.mean(), 1 - y.mean())
    assert clf.training_error_ < baseline - 0.03, (clf.rule_, clf.training_error_, baseline)
    assert clf.training_error_ == pytest.approx(float(np.mean(clf.predict(X) != y)))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"n_samples": 0}, "'n_samples' parameter of make_rule_data must be an int in the range [1, inf)"),
        ({"n_samples": 10, "kind": "text"}, "'kind' parameter of make_rule_data must be a str among"),
        ({"n_samples": 10, "random_state": -1}, "'random_state' parameter of make_rule_data"),
    ],
)
def test_bad_arguments_say_what_is_accepted(arguments: dict, message: str) -> None:
    n_samples = arguments.pop("n_samples")
    with pytest.raises(InvalidParameterError) as excinfo:
        make_rule_data(n_samples, **arguments)
    assert message in str(excinfo.value)
