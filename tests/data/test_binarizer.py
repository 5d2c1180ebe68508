"""Tests for rulemodels.data.binarizer.FeatureBinarizer."""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulemodels.data import FeatureBinarizer
from rulemodels.data.binarizer import FeatureBinarizer as FeatureBinarizerFromModule
from rulemodels.datasets import DATASET_INFO, list_datasets, load_dataset
from rulemodels.rules import Literal, Rule
from rulemodels.rules._kinds import all_text

HYPOTHESIS = settings(max_examples=60, deadline=None)


def significant_digits(value: float) -> int:
    """Significant digits of the shortest decimal that reads back as ``value`` (0 has one)."""
    digits = repr(abs(float(value))).lower().split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return max(1, len(digits))


def fewest_digits_between(a: float, b: float) -> int:
    """The fewest significant digits of a decimal ``m * 10**e`` whose float lies in ``[a, b)`` (exact
    fractions; the decimal nearest zero in the interval has the fewest, and it is at one of its ends)."""
    if a <= 0 < b:
        return 1

    def as_float(value: Fraction) -> float:  # beyond the largest float: infinite
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf

    top = math.floor(math.log10(max(abs(a), abs(b))))
    for d in range(1, 18):
        for e in range(top - d - 2, top - d + 3):
            scale = Fraction(10) ** e
            m_low = math.ceil(Fraction(a) / scale) - 1  # the smallest m whose float is >= a
            while as_float(m_low * scale) < a:
                m_low += 1
            m_high = math.floor(Fraction(b) / scale) + 1  # the largest m whose float is < b
            while as_float(m_high * scale) >= b:
                m_high -= 1
            if m_low <= m_high and min(abs(m_low), abs(m_high)) < 10 ** d:
                return d
    return 17


def check_shortest_in_gaps(thresholds: np.ndarray, values: np.ndarray, expected: np.ndarray) -> None:
    """Each threshold lies between the same two training values as ``expected`` (so every training row is
    split alike) and is written with the fewest significant digits any number there has."""
    distinct = np.unique(values[np.isfinite(values)])
    gaps = np.searchsorted(distinct, expected, side="right")
    assert np.array_equal(np.searchsorted(distinct, thresholds, side="right"), np.unique(gaps))
    for t, gap in zip(thresholds, np.unique(gaps)):
        a, b = distinct[gap - 1], distinct[gap] if gap < distinct.size else np.inf
        assert a <= t < b
        if np.isfinite(b):
            assert significant_digits(t) == fewest_digits_between(a, b), (t, a, b)

# ---------------------------------------------------------------------------
# Strategies and helpers
# ---------------------------------------------------------------------------

_column_values = {
    "continuous": st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
    "few": st.integers(0, 3).map(float),
    "binary": st.sampled_from((0.0, 1.0)),
    "constant": st.just(5.0),
    "wide": st.floats(allow_nan=False, allow_infinity=True, width=64),
}


@st.composite
def numeric_frames(draw: st.DrawFn, with_nan: bool = False, kinds: tuple = ()) -> pd.DataFrame:
    """Numeric DataFrames whose columns are continuous, few-valued, 0/1 or constant."""
    n = draw(st.integers(1, 40))
    n_cols = draw(st.integers(1, 4))
    columns = {}
    for j in range(n_cols):
        kind = draw(st.sampled_from(kinds or tuple(_column_values)))
        values = np.array(draw(st.lists(_column_values[kind], min_size=n, max_size=n)))
        if with_nan:
            mask = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
            values[mask] = np.nan
        columns[f"{kind}_{j}"] = values
    return pd.DataFrame(columns)


def fresh_like(X: pd.DataFrame, seed: int, nan: bool = False, n: int = 40) -> pd.DataFrame:
    """New random data over the same columns: training values, their floating-point
    neighbours (to probe thresholds), values out of range, and +-inf."""
    rng = np.random.default_rng(seed)
    out = {}
    for name in X.columns:
        present = X[name].dropna().to_numpy(dtype=float)
        with np.errstate(over="ignore"):
            neighbours = [np.nextafter(present, np.inf), np.nextafter(present, -np.inf)]
        pool = np.concatenate(
            [present, *neighbours, rng.uniform(-2e6, 2e6, 10), [np.inf, -np.inf, 0.0, 0.5, 1.0]]
        )
        values = rng.choice(pool, size=n)
        if nan:
            values[rng.random(n) < 0.2] = np.nan
        out[name] = values
    return pd.DataFrame(out)


def expected_width(X: pd.DataFrame, binarizer: FeatureBinarizer) -> int:
    """Output column count predicted from the data and the fitted thresholds."""
    per_value = 2 if binarizer.negations else 1
    total = 0
    for name in X.columns:
        present = X[name].dropna()
        distinct = np.unique(present)
        if len(distinct) > 1 and set(distinct) <= {0.0, 1.0}:
            total += per_value
        else:
            total += per_value * len(binarizer.thresholds_[name])
        if 0 < len(present) < len(X):
            total += per_value
    return total


def check_output_equals_literals(binarizer: FeatureBinarizer, X: pd.DataFrame) -> np.ndarray:
    A = binarizer.transform(X)
    assert A.dtype == np.uint8
    assert A.shape == (len(X), len(binarizer.literals_))
    assert set(np.unique(A)) <= {0, 1}
    for k, lit in enumerate(binarizer.literals_):
        assert np.array_equal(A[:, k].astype(bool), lit.evaluate(X)), str(lit)
    return A


def present_rows(X: pd.DataFrame, binarizer: FeatureBinarizer, column: int) -> np.ndarray:
    source = binarizer.literals_[column].feature
    return X[source].notna().to_numpy()


# ---------------------------------------------------------------------------
# Properties on generated numeric data
# ---------------------------------------------------------------------------


@HYPOTHESIS
@given(X=numeric_frames(), n_thresholds=st.integers(1, 12))
def test_output_width_and_literals_match_raw_evaluation(X: pd.DataFrame, n_thresholds: int) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    assert len(binarizer.literals_) == expected_width(X, binarizer)
    check_output_equals_literals(binarizer, X)
    check_output_equals_literals(binarizer, fresh_like(X, seed=0))


@HYPOTHESIS
@given(X=numeric_frames(with_nan=True), n_thresholds=st.integers(1, 12),
       negations=st.booleans())
def test_nan_indicator_width_and_literals(X: pd.DataFrame, n_thresholds: int,
                                         negations: bool) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds, nan="indicator",
                                 negations=negations).fit(X)
    assert len(binarizer.literals_) == expected_width(X, binarizer)
    A = check_output_equals_literals(binarizer, X)
    check_output_equals_literals(binarizer, fresh_like(X, seed=1, nan=True))
    for k, lit in enumerate(binarizer.literals_):
        if lit.op not in ("is_nan", "not_nan"):
            missing = X[lit.feature].isna().to_numpy()
            assert not A[missing, k].any(), f"{lit} is 1 on a missing row"


@HYPOTHESIS
@given(X=numeric_frames(with_nan=True), n_thresholds=st.integers(1, 12))
def test_complementary_pairs_sum_to_one_where_present(X: pd.DataFrame, n_thresholds: int) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds, nan="indicator").fit(X)
    A = binarizer.transform(X).astype(int)
    for j1, j2 in binarizer.complements_:
        assert binarizer.groups_[j1] == binarizer.groups_[j2]
        assert binarizer.literals_[j1].negate() == binarizer.literals_[j2]
        if binarizer.literals_[j1].op in ("is_nan", "not_nan"):
            rows = np.ones(len(X), dtype=bool)
        else:
            rows = present_rows(X, binarizer, j1)
        assert np.all(A[rows, j1] + A[rows, j2] == 1)
    # Every literal with a negation in the output is in exactly one pair.
    paired = [j for pair in binarizer.complements_ for j in pair]
    assert len(paired) == len(set(paired)) == len(binarizer.literals_)


@HYPOTHESIS
@given(X=numeric_frames(with_nan=True), n_thresholds=st.integers(1, 12), seed=st.integers(0, 99))
def test_chains_are_nested_on_training_and_fresh_data(X: pd.DataFrame, n_thresholds: int,
                                                      seed: int) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds, nan="indicator").fit(X)
    for data in (X, fresh_like(X, seed=seed, nan=True)):
        A = binarizer.transform(data)
        for chain in binarizer.chains_:
            for lower, upper in itertools.pairwise(chain):
                assert np.all(A[:, lower] <= A[:, upper])
    chained = sorted(j for chain in binarizer.chains_ for j in chain)
    thresholded = [k for k, lit in enumerate(binarizer.literals_) if lit.op in ("<=", ">")]
    assert chained == thresholded


@HYPOTHESIS
@given(X=numeric_frames(), n_thresholds=st.integers(1, 12))
def test_thresholds_lie_in_column_range_and_transform_is_monotone(X: pd.DataFrame,
                                                                  n_thresholds: int) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    A = binarizer.transform(X)
    for name, thresholds in binarizer.thresholds_.items():
        values = X[name].to_numpy()
        assert thresholds.dtype == float
        assert len(thresholds) <= n_thresholds
        assert np.all(np.diff(thresholds) > 0)
        assert np.all(np.isfinite(thresholds))
        assert np.all((thresholds >= values.min()) & (thresholds < values.max()))
        distinct = np.unique(values)
        if len(distinct) <= n_thresholds + 1:  # one threshold between each two consecutive values
            finite = distinct[np.isfinite(distinct)]
            check_shortest_in_gaps(thresholds, values, finite[finite < distinct[-1]])
        # x <= t: a larger t selects a superset of rows (checked without chains_).
        by_value = sorted(
            (lit.value, k) for k, lit in enumerate(binarizer.literals_)
            if lit.feature == name and lit.op == "<="
        )
        for (_, small), (_, large) in itertools.pairwise(by_value):
            assert np.all(A[:, small] <= A[:, large])


@HYPOTHESIS
@given(X=numeric_frames(kinds=("continuous", "few")), n_thresholds=st.integers(1, 6))
def test_zigzag_paths_are_redundancy_sets(X: pd.DataFrame, n_thresholds: int) -> None:
    """Members of each documented zigzag path are pairwise nested or covering."""
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    A = binarizer.transform(fresh_like(X, seed=3)).astype(bool)
    meta = binarizer.feature_metadata_
    for le_chain in binarizer.chains_[0::2]:
        le = list(le_chain)
        gt = [int(meta.loc[j, "complement"]) for j in le]
        for k in range(len(le)):
            path = gt[: k + 1] + le[k:]
            for a, b in itertools.combinations(path, 2):
                nested = np.all(A[:, a] <= A[:, b]) or np.all(A[:, b] <= A[:, a])
                covering = np.all(A[:, a] | A[:, b])
                assert nested or covering


@HYPOTHESIS
@given(X=numeric_frames(), n_thresholds=st.integers(1, 12))
def test_without_negations(X: pd.DataFrame, n_thresholds: int) -> None:
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds, negations=False).fit(X)
    assert binarizer.complements_ == []
    assert {lit.op for lit in binarizer.literals_} <= {"<=", "is_true"}
    assert len(binarizer.literals_) == expected_width(X, binarizer)
    assert all(binarizer.literals_[c[0]].op == "<=" for c in binarizer.chains_)


@settings(max_examples=40, deadline=None)
@given(X=numeric_frames(with_nan=True), data=st.data())
def test_rules_over_literals_agree_on_raw_and_binary_data(X: pd.DataFrame,
                                                         data: st.DataObject) -> None:
    binarizer = FeatureBinarizer(n_thresholds=4, nan="indicator").fit(X)
    if not binarizer.literals_:
        return
    literal = st.sampled_from(binarizer.literals_)
    rule = Rule(data.draw(st.sampled_from(("cnf", "dnf"))),
                data.draw(st.lists(st.lists(literal, max_size=3), max_size=3)))
    fresh = fresh_like(X, seed=5, nan=True)
    for frame in (X, fresh):
        A = binarizer.transform(frame)
        assert np.array_equal(rule.evaluate_binary(A, binarizer.literals_), rule.evaluate(frame))


# ---------------------------------------------------------------------------
# Column kinds
# ---------------------------------------------------------------------------


def test_threshold_literals_order_and_structure() -> None:
    X = pd.DataFrame({"age": np.arange(100.0)})
    binarizer = FeatureBinarizer(n_thresholds=3, high_cardinality="keep").fit(X)  # 0..99 would be row numbers
    t = np.array([24.0, 49.0, 74.0])  # the quartiles 24.75, 49.5, 74.25 written shortest between the same values
    assert np.array_equal(binarizer.thresholds_["age"], t)
    assert binarizer.literals_ == [Literal("age", "<=", v) for v in t] + [
        Literal("age", ">", v) for v in t
    ]
    assert binarizer.chains_ == [(0, 1, 2), (5, 4, 3)]
    assert binarizer.complements_ == [(0, 3), (1, 4), (2, 5)]
    assert binarizer.groups_.tolist() == [0] * 6


def test_few_distinct_values_use_all_but_the_maximum() -> None:
    X = pd.DataFrame({"x": [3, 1, 2, 3, 1]})
    binarizer = FeatureBinarizer(n_thresholds=2).fit(X)
    assert binarizer.thresholds_["x"].tolist() == [1.0, 2.0]


def test_binary_and_bool_columns_become_flags() -> None:
    X = pd.DataFrame({"smoker": [0, 1, 1], "member": [True, False, True]})
    binarizer = FeatureBinarizer().fit(X)
    assert [str(lit) for lit in binarizer.literals_] == ["smoker", "not smoker", "member",
                                                          "not member"]
    assert binarizer.transform(X).tolist() == [[0, 1, 1, 0], [1, 0, 0, 1], [1, 0, 1, 0]]
    assert "smoker" not in binarizer.thresholds_


def test_constant_columns_yield_no_literals(caplog: pytest.LogCaptureFixture) -> None:
    X = pd.DataFrame({"k": [2.0, 2.0, 2.0], "c": ["a", "a", "a"], "x": [1.0, 2.0, 3.0]})
    with caplog.at_level("DEBUG", logger="rulemodels.data.binarizer"):
        binarizer = FeatureBinarizer().fit(X)
    assert {lit.feature for lit in binarizer.literals_} == {"x"}
    assert binarizer.thresholds_["k"].size == 0
    assert binarizer.categories_["c"] == []
    assert "column 'k' is constant" in caplog.text
    assert binarizer.transform(X).shape == (3, 4)


def test_categorical_columns_and_unseen_categories() -> None:
    X = pd.DataFrame({"color": ["red", "blue", "green", "blue"], "size": [1, 2, 3, 4]})
    binarizer = FeatureBinarizer(n_thresholds=1).fit(X)
    names = binarizer.get_feature_names_out().tolist()
    assert names[:6] == ["color == blue", "color == green", "color == red",
                         "color != blue", "color != green", "color != red"]
    new = pd.DataFrame({"color": ["purple", "red"], "size": [100, -100]})
    A = binarizer.transform(new)
    assert not np.isnan(A.astype(float)).any()
    assert A[0, :3].tolist() == [0, 0, 0] and A[0, 3:6].tolist() == [1, 1, 1]
    assert A[1, :6].tolist() == [0, 0, 1, 1, 1, 0]
    # Out of range numbers: x <= t false above the range, true below it.
    size = [k for k, lit in enumerate(binarizer.literals_) if lit.feature == "size"]
    assert A[:, size].tolist() == [[0, 1], [1, 0]]
    check_output_equals_literals(binarizer, new)


def test_category_dtype_and_explicit_categorical_list() -> None:
    X = pd.DataFrame({
        "grade": pd.Categorical(["b", "a", "b"], categories=["a", "b", "zzz"]),
        "code": [10, 20, 30],
    })
    binarizer = FeatureBinarizer(categorical=["grade", "code"]).fit(X)
    assert binarizer.categories_ == {"grade": ["a", "b"], "code": [10, 20, 30]}
    assert "code == 10" in binarizer.get_feature_names_out()
    check_output_equals_literals(binarizer, X)
    with pytest.raises(ValueError, match=r"categorical names column\(s\) \['nope'\] that are not"):
        FeatureBinarizer(categorical=["nope"]).fit(X)


def test_non_numeric_column_not_listed_as_categorical_raises() -> None:
    X = pd.DataFrame({"c": ["a", "b"], "x": [1.0, 2.0]})
    # pandas 3 stores text as dtype 'str'; pandas 2 as object.
    with pytest.raises(ValueError, match=r"column 'c' has (dtype str, which is neither numeric "
                                         r"nor bool|non-numeric values).*categorical="):
        FeatureBinarizer(categorical=[]).fit(X)
    objects = X.astype({"c": object})
    with pytest.raises(ValueError, match=r"column 'c' has non-numeric values.*categorical="):
        FeatureBinarizer(categorical=["x"]).fit(objects)
    dates = pd.DataFrame({"d": pd.to_datetime(["2020-01-01", "2021-01-01"])})
    with pytest.raises(ValueError, match=r"column 'd' holds dates or durations \(datetime64"
                       r".*convert it to numbers first, e.g. X\['d'\].dt.year"):
        FeatureBinarizer().fit(dates)


def test_nullable_dtypes_and_infinite_values() -> None:
    X = pd.DataFrame({
        "n": pd.array([1, None, 3, 4, 5], dtype="Int64"),
        "b": pd.array([True, None, False, True, False], dtype="boolean"),
        "c": pd.array(["x", "y", None, "x", "y"], dtype="string"),
        "f": [np.inf, -np.inf, 0.5, 1.5, 2.5],
    })
    binarizer = FeatureBinarizer(n_thresholds=3, nan="indicator").fit(X)
    assert np.all(np.isfinite(binarizer.thresholds_["f"]))
    assert [lit.op for lit in binarizer.literals_ if lit.feature == "b"] == [
        "is_true", "is_false", "is_nan", "not_nan"]
    check_output_equals_literals(binarizer, X)


# ---------------------------------------------------------------------------
# Missing values
# ---------------------------------------------------------------------------


def test_nan_error_at_fit_and_transform() -> None:
    X = pd.DataFrame({"bmi": [1.0, np.nan, np.nan, np.nan, 2.0], "age": [1, 2, 3, 4, 5]})
    message = (r"column 'bmi' has 3 missing values and nan='error' was asked for; use nan='indicator' "
               r".* or impute them")
    with pytest.raises(ValueError, match=message):
        FeatureBinarizer().fit(X)
    binarizer = FeatureBinarizer().fit(X.fillna(0.0))
    with pytest.raises(ValueError, match=message):
        binarizer.transform(X)


def test_nan_at_transform_without_indicator_gives_zero_literals() -> None:
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "c": ["a", "b", "a", "b"]})
    binarizer = FeatureBinarizer(nan="indicator").fit(X)
    assert not any(lit.op in ("is_nan", "not_nan") for lit in binarizer.literals_)
    A = binarizer.transform(pd.DataFrame({"x": [np.nan], "c": [None]}))
    assert A.sum() == 0


# ---------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------


def test_array_input_names_and_feature_names_in() -> None:
    X = np.arange(20.0).reshape(10, 2)
    binarizer = FeatureBinarizer(n_thresholds=2).fit(X)
    assert binarizer.n_features_in_ == 2
    assert not hasattr(binarizer, "feature_names_in_")
    assert {lit.feature for lit in binarizer.literals_} == {"x0", "x1"}
    with pytest.raises(ValueError, match="X has 3 features, but FeatureBinarizer is expecting 2"):
        binarizer.transform(np.zeros((2, 3)))
    # Refitting on a DataFrame records names; refitting on an array forgets them.
    binarizer.fit(pd.DataFrame(X, columns=["a", "b"]))
    assert binarizer.feature_names_in_.tolist() == ["a", "b"]
    binarizer.fit(X)
    assert not hasattr(binarizer, "feature_names_in_")


def test_dataframe_columns_are_selected_by_name() -> None:
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [0, 1, 0], 7: [5.0, 6.0, 7.0]})
    binarizer = FeatureBinarizer().fit(X)
    assert binarizer.feature_names_in_.tolist() == ["a", "b", "7"]
    A = binarizer.transform(X)
    shuffled = X[[7, "b", "a"]].assign(extra=["x", "y", "z"])
    assert np.array_equal(binarizer.transform(shuffled), A)
    assert np.array_equal(binarizer.transform(X.to_numpy()), A)
    with pytest.raises(ValueError, match=r"X is missing column\(s\) \['b'\] seen in fit"):
        binarizer.transform(X.drop(columns="b"))


@pytest.mark.parametrize(
    ("X", "match"),
    [
        (np.zeros(3), "Expected 2D array, got 1D array instead"),
        (np.zeros((0, 2)), r"Found array with 0 sample\(s\)"),
        (pd.DataFrame([[1, 2]], columns=["a", "a"]), r"column names \['a'\] appear more than once"),
    ],
)
def test_invalid_input(X: object, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        FeatureBinarizer().fit(X)


def test_sparse_input_rejected() -> None:
    sparse = pytest.importorskip("scipy.sparse")
    with pytest.raises(TypeError, match="X is a sparse matrix, which is not supported"):
        FeatureBinarizer().fit(sparse.csr_matrix(np.eye(3)))


def test_large_input_transform() -> None:
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(100_000, 10)), columns=[f"f{j}" for j in range(10)])
    X["cat"] = rng.choice(["a", "b", "c"], size=len(X))
    binarizer = FeatureBinarizer(nan="indicator").fit(X)
    A = binarizer.transform(X)
    assert A.shape == (100_000, 10 * 18 + 6)
    assert np.array_equal(A[:, 0].astype(bool), binarizer.literals_[0].evaluate(X))


# ---------------------------------------------------------------------------
# Names, metadata, sklearn contract
# ---------------------------------------------------------------------------


def test_get_feature_names_out() -> None:
    X = pd.DataFrame({"glucose": [100.0, 150.0, 200.0], "smoker": [0, 1, 0]})
    binarizer = FeatureBinarizer(n_thresholds=1).fit(X)
    names = binarizer.get_feature_names_out()
    assert names.dtype == object
    assert names.tolist() == [str(lit) for lit in binarizer.literals_]
    assert names.tolist() == ["glucose <= 150.0", "glucose > 150.0", "smoker", "not smoker"]
    assert binarizer.get_feature_names_out(["glucose", "smoker"]).tolist() == names.tolist()
    with pytest.raises(ValueError, match="input_features is not equal to feature_names_in_"):
        binarizer.get_feature_names_out(["g", "s"])
    on_array = FeatureBinarizer(n_thresholds=1).fit(X.to_numpy())
    assert on_array.get_feature_names_out(["g", "s"])[0] == "g <= 150.0"


def test_set_output_pandas_uses_literal_names() -> None:
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0]})
    out = FeatureBinarizer().set_output(transform="pandas").fit_transform(X)
    assert list(out.columns) == ["x <= 1.0", "x <= 2.0", "x > 1.0", "x > 2.0"]


def test_feature_metadata() -> None:
    X = pd.DataFrame({"x": np.arange(10.0), "c": list("ababababab"), "f": [0, 1] * 5})
    X.loc[0, "x"] = np.nan
    binarizer = FeatureBinarizer(n_thresholds=3, nan="indicator").fit(X)
    meta = binarizer.feature_metadata_
    assert list(meta.columns) == ["name", "source", "op", "value", "group", "chain",
                                  "chain_position", "complement"]
    assert len(meta) == len(binarizer.literals_)
    assert meta["name"].tolist() == binarizer.get_feature_names_out().tolist()
    assert meta["group"].tolist() == binarizer.groups_.tolist()
    for k, row in meta.iterrows():
        lit = binarizer.literals_[k]
        assert (row["source"], row["op"], row["value"]) == (lit.feature, lit.op, lit.value)
        if row["chain"] >= 0:
            assert binarizer.chains_[row["chain"]][row["chain_position"]] == k
        else:
            assert row["chain_position"] == -1
        if row["complement"] >= 0:
            assert meta.loc[row["complement"], "complement"] == k
            assert binarizer.literals_[row["complement"]] == lit.negate()
    assert (meta["complement"] >= 0).all()


def test_clone_and_params() -> None:
    binarizer = FeatureBinarizer(n_thresholds=4, negations=False, nan="indicator",
                                 categorical=["a"])
    assert binarizer.get_params() == {"n_thresholds": 4, "thresholds": "quantile", "negations": False, "nan": "indicator",
                                      "high_cardinality": "drop", "categorical": ["a"], "round_thresholds": True,
                                      "min_leaf_rows": "auto", "column_kinds": None}
    copy = clone(binarizer)
    assert copy is not binarizer and copy.get_params() == binarizer.get_params()
    assert copy.set_params(n_thresholds=2).n_thresholds == 2
    assert FeatureBinarizerFromModule is FeatureBinarizer
    fitted = FeatureBinarizer().fit(pd.DataFrame({"x": [1.0, 2.0]}))
    assert not hasattr(clone(fitted), "literals_")


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"n_thresholds": 0}, r"'n_thresholds' parameter of FeatureBinarizer must be an int in the "
                              r"range \[1, inf\)\. Got 0 instead"),
        ({"nan": "drop"}, r"'nan' parameter of FeatureBinarizer must be a str among"),
        ({"categorical": "all"}, r"'categorical' parameter of FeatureBinarizer must be"),
        ({"negations": "yes"}, r"'negations' parameter of FeatureBinarizer must be"),
        ({"thresholds": "gini"}, r"'thresholds' parameter of FeatureBinarizer must be a str among"),
    ],
)
def test_invalid_parameters(params: dict, match: str) -> None:
    binarizer = FeatureBinarizer(**params)  # __init__ never validates
    assert binarizer.get_params()[next(iter(params))] == next(iter(params.values()))
    with pytest.raises(ValueError, match=match):
        binarizer.fit(pd.DataFrame({"x": [1.0, 2.0]}))


def test_transform_before_fit_raises() -> None:
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError, match="not fitted yet"):
        FeatureBinarizer().transform(np.zeros((1, 1)))


_EXPECTED_FAILED = {
    "check_estimators_nan_inf": (
        "infinite values are valid numbers for thresholds by design; NaN raises unless "
        "nan='indicator'"
    ),
}


_QUANTILES_IGNORE_WEIGHTS = {
    "check_sample_weight_equivalence_on_dense_data": (
        "quantile thresholds are quantiles of the rows, whatever their weights (only label-aware thresholds read them)"
    ),
}


def _expected_failed(estimator: FeatureBinarizer) -> dict[str, str]:
    expected = dict(_EXPECTED_FAILED) if estimator.nan == "error" else {}
    if estimator.thresholds != "tree":
        expected.update(_QUANTILES_IGNORE_WEIGHTS)
    elif estimator.min_leaf_rows != 0:
        expected["check_sample_weight_equivalence_on_dense_data"] = (
            "the floor in rows under the tree's leaves (min_leaf_rows) counts rows: a row of weight 2 is not two rows"
        )
    return expected


@parametrize_with_checks(
    [FeatureBinarizer(), FeatureBinarizer(n_thresholds=2, nan="indicator"),
     FeatureBinarizer(thresholds="tree", nan="indicator"),
     FeatureBinarizer(thresholds="tree", nan="indicator", min_leaf_rows=0)],
    expected_failed_checks=_expected_failed,
)
def test_sklearn_compatible(estimator: FeatureBinarizer,
                            check: Callable[[FeatureBinarizer], None]) -> None:
    check(estimator)


# ---------------------------------------------------------------------------
# Bundled datasets
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", list_datasets())
@pytest.mark.parametrize("n_thresholds", [1, 9])
def test_bundled_datasets(name: str, n_thresholds: int) -> None:
    X, _ = load_dataset(name)
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds).fit(X)
    levels = np.arange(1, n_thresholds + 1) / (n_thresholds + 1)
    expected_total = 0
    for column in X.columns:
        values = X[column].to_numpy(dtype=float)
        distinct = np.unique(values)
        if len(distinct) <= n_thresholds + 1:
            expected = distinct[:-1]
        else:
            expected = np.unique(np.quantile(values, levels))
            expected = expected[expected < values.max()]
        # numpy's quantiles, each written shortest between the same two training values
        check_shortest_in_gaps(binarizer.thresholds_[column], values, expected)
        expected = np.unique(np.searchsorted(np.unique(values), expected, side="right"))
        expected_total += 2 * len(expected)
    assert len(binarizer.literals_) == expected_total
    assert binarizer.n_features_in_ == X.shape[1]
    assert binarizer.feature_names_in_.tolist() == list(X.columns)
    assert len(binarizer.chains_) == 2 * X.shape[1] - sum(
        len(t) == 0 for t in binarizer.thresholds_.values()) * 2
    meta = binarizer.feature_metadata_
    assert list(meta.columns) == ["name", "source", "op", "value", "group", "chain",
                                  "chain_position", "complement"]
    assert len(meta) == expected_total
    assert set(meta["op"]) == {"<=", ">"}
    assert DATASET_INFO[name]["target"] not in set(meta["source"])
    A = binarizer.transform(X)
    for chain in binarizer.chains_:
        assert np.all(np.diff(A[:, list(chain)].astype(int), axis=1) >= 0)


def test_id_like_text_columns_are_dropped_with_a_warning_unless_kept() -> None:
    from rulemodels.data.binarizer import IDLikeColumnWarning

    days = pd.date_range("2020-01-01", periods=60).strftime("%Y-%m-%d")
    X = pd.DataFrame({"when": days, "group": ["a", "b", "c"] * 20, "x": np.arange(60.0) / 2})  # not row numbers
    with pytest.warns(IDLikeColumnWarning, match=r"column 'when' has 60 distinct values in 60 rows.*pd.to_datetime"):
        binarizer = FeatureBinarizer().fit(X)
    assert binarizer.dropped_columns_ == ["when"]
    assert {lit.feature for lit in binarizer.literals_} == {"group", "x"}
    assert binarizer.transform(X).shape == (60, len(binarizer.literals_))
    kept = FeatureBinarizer(high_cardinality="keep").fit(X)
    assert kept.dropped_columns_ == [] and len(kept.categories_["when"]) == 60
    # a categorical column with few values per row is not ID-like
    with warnings.catch_warnings():
        warnings.simplefilter("error", IDLikeColumnWarning)
        FeatureBinarizer().fit(X[["group", "x"]])


def coupon_frame(n: int = 200, seed: int = 0) -> pd.DataFrame:
    """A coupon code (text, one per row where present) and a refund number (row numbers where present), each
    missing on some rows, beside an ordinary column."""
    rng = np.random.default_rng(seed)
    has_coupon, has_refund = rng.random(n) < 0.4, rng.random(n) < 0.5
    refund = np.full(n, np.nan)
    refund[has_refund] = rng.permutation(int(has_refund.sum())) + 1000  # record numbers, shuffled
    return pd.DataFrame({
        "coupon": pd.Series([f"C{k:06d}" if h else None for k, h in enumerate(has_coupon)], dtype=object),
        "refund": refund,
        "age": rng.integers(18, 80, n),
    })


@pytest.mark.parametrize("fit", ["rows", "summaries"])
def test_an_id_like_column_with_missing_values_keeps_its_missing_indicator_and_the_warning_says_so(fit: str, tmp_path) -> None:
    from rulemodels.data import read_stream
    from rulemodels.data.binarizer import IDLikeColumnWarning

    X = coupon_frame()
    with pytest.warns(IDLikeColumnWarning, match=r"column 'coupon' .* values are left out.*missing values are kept "
                                                 r"as a feature: the literal 'coupon is missing'") as caught:
        if fit == "rows":
            binarizer = FeatureBinarizer(nan="indicator").fit(X)
        else:
            pytest.importorskip("pyarrow")
            X.assign(label=np.arange(len(X)) % 2).to_parquet(tmp_path / "coupons.parquet", row_group_size=50)
            binarizer = read_stream(tmp_path / "coupons.parquet", "label", binarizer=FeatureBinarizer(nan="indicator"),
                                    batch_rows=50).binarizer
    messages = [str(w.message) for w in caught if issubclass(w.category, IDLikeColumnWarning)]
    assert any("column 'refund'" in m and "the literal 'refund is missing'" in m for m in messages)
    assert binarizer.dropped_columns_ == ["coupon", "refund"]
    assert [str(lit) for lit in binarizer.literals_ if lit.feature != "age"] == [
        "coupon is missing", "coupon is not missing", "refund is missing", "refund is not missing"]
    A = binarizer.transform(X)
    for k, lit in enumerate(binarizer.literals_):
        assert np.array_equal(A[:, k].astype(bool), lit.evaluate(X)), str(lit)
    assert (0, 1) in binarizer.complements_ and (2, 3) in binarizer.complements_  # each indicator and its negation
    # without missing values (or without indicators) the column still yields nothing
    full = X.assign(coupon=[f"C{k:06d}" for k in range(len(X))])
    with pytest.warns(IDLikeColumnWarning) as caught:
        assert "coupon" not in {lit.feature for lit in FeatureBinarizer(nan="indicator").fit(full).literals_}
    assert not any("kept as a feature" in str(w.message) for w in caught if "'coupon'" in str(w.message))


def test_a_list_of_id_like_columns_is_a_decision_made_already() -> None:
    from rulemodels.data.binarizer import IDLikeColumnWarning

    X = coupon_frame().assign(rownumber=np.arange(200))
    with pytest.warns(IDLikeColumnWarning) as caught:
        decided = FeatureBinarizer(nan="indicator").id_like_columns(X)
    assert decided == ["coupon", "refund", "rownumber"] and len(caught) == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error", IDLikeColumnWarning)  # the list is the decision: no warning
        listed = FeatureBinarizer(nan="indicator", high_cardinality=["refund", "age"]).fit(X)
        assert FeatureBinarizer(high_cardinality=["age"]).id_like_columns(X) == ["age"]
    assert listed.dropped_columns_ == ["refund", "age"]
    assert "coupon" in listed.categories_ and "rownumber" in listed.thresholds_  # not listed: kept, as with 'keep'
    assert {str(lit) for lit in listed.literals_ if lit.feature in ("refund", "age")} == {
        "refund is missing", "refund is not missing"}
    with pytest.warns(IDLikeColumnWarning):
        assert FeatureBinarizer(nan="indicator").fit(X).dropped_columns_ == decided


def test_list_valued_cells_are_refused_with_a_clear_message() -> None:
    X = pd.DataFrame({"tags": [[1, 2], [3], [4]], "x": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match=r"column 'tags' holds lists \(e.g. \[1, 2\]\).*expand them into separate columns"):
        FeatureBinarizer().fit(X)


@pytest.mark.parametrize("values", [
    ["a", "b", ("c", "d")],  # text with one tuple: pandas infers "mixed", each cell is tested
    [1, 2, {"c": 3}],
    [1.5, np.nan, np.array([1.0])],
    ["a", None, {"b"}],
])
def test_a_container_among_scalars_is_refused_too(values: list) -> None:
    """The scalar columns skip the cell-by-cell test (pandas' type inference); one container among scalars does not."""
    X = pd.DataFrame({"c": pd.Series(values * 4, dtype=object)})
    with pytest.raises(ValueError, match=r"column 'c' holds (tuple|dict|ndarray|set)s"):
        FeatureBinarizer(nan="indicator").fit(X)
    fitted = FeatureBinarizer(nan="indicator").fit(pd.DataFrame({"c": pd.Series(["a", "b", None, "c"] * 3, dtype=object)}))
    with pytest.raises(ValueError, match=r"column 'c' holds (tuple|dict|ndarray|set)s"):
        fitted.transform(X)


def test_all_text_means_every_present_value_is_a_string() -> None:
    assert all_text(np.array(["a", None, np.nan, "b"], dtype=object))
    assert not all_text(np.array(["a", 1], dtype=object))
    assert not all_text(np.array(["a", ("b",)], dtype=object))
    assert not all_text(np.array([None, np.nan], dtype=object))  # no present value
    assert not all_text(np.array([], dtype=object))


@pytest.mark.parametrize("step", [0.001, 1e-13])
def test_thresholds_never_merge_distinct_values(step: float) -> None:
    base = 123456789012.0 if step == 0.001 else 1.0
    a = base + np.arange(200) * step
    X = pd.DataFrame({"a": a})
    binarizer = FeatureBinarizer().fit(X)
    A = binarizer.transform(X)
    for k, t in enumerate(binarizer.thresholds_["a"]):
        assert a.min() <= t < a.max()
        # each threshold splits the sorted values in two, as the exact quantile does
        np.testing.assert_array_equal(A[:, k], a <= t)
        assert 0 < A[:, k].sum() < len(a)
    # the nine thresholds split the data into ten distinct blocks
    assert len(np.unique(A[:, :9], axis=0)) == 10


# ---------------------------------------------------------------------------
# Label-aware thresholds (thresholds='tree', 'quantile+tree')
# ---------------------------------------------------------------------------


def check_cuts_separate_distinct_values(X: pd.DataFrame, binarizer: FeatureBinarizer) -> None:
    """Every threshold lies in [a, b) for consecutive distinct finite training values a < b, one per gap."""
    for name, cuts in binarizer.thresholds_.items():
        present = X[name].dropna().to_numpy(dtype=float)
        distinct = np.unique(present[np.isfinite(present)])
        assert np.all(np.diff(cuts) > 0), (name, cuts)
        below = np.searchsorted(distinct, cuts, side="right")  # distinct values <= each cut
        assert np.all((below >= 1) & (below < len(distinct))), (name, cuts, distinct)
        assert len(np.unique(below)) == len(cuts), f"two cuts of {name!r} separate the same values"


@HYPOTHESIS
@given(X=numeric_frames(with_nan=True), n_thresholds=st.integers(1, 12),
       method=st.sampled_from(("tree", "quantile+tree")), data=st.data())
def test_label_aware_thresholds_keep_the_binarizer_invariants(X: pd.DataFrame, n_thresholds: int, method: str,
                                                               data: st.DataObject) -> None:
    y = np.array(data.draw(st.lists(st.sampled_from("abc"), min_size=len(X), max_size=len(X))))
    weights = np.array(data.draw(st.lists(st.floats(0.0, 5.0), min_size=len(X), max_size=len(X))))
    if not weights.any():
        weights[0] = 1.0
    binarizer = FeatureBinarizer(n_thresholds=n_thresholds, thresholds=method, nan="indicator").fit(X, y, weights)
    assert len(binarizer.literals_) == expected_width(X, binarizer)
    check_output_equals_literals(binarizer, X)
    check_output_equals_literals(binarizer, fresh_like(X, seed=2, nan=True))
    check_cuts_separate_distinct_values(X, binarizer)
    for name, cuts in binarizer.thresholds_.items():
        if method == "tree":
            assert len(cuts) <= n_thresholds
        else:
            quantiles = FeatureBinarizer(n_thresholds=n_thresholds, nan="indicator").fit(X).thresholds_[name]
            assert set(quantiles) <= set(cuts)
    A = binarizer.transform(X)
    for members in binarizer.chains_:
        assert np.all(np.diff(A[:, list(members)].astype(int), axis=1) >= 0)


def close_values_frame() -> tuple[pd.DataFrame, np.ndarray]:
    """Close distinct values (timestamps a thousandth apart) with the class changing between two of them."""
    x = 123456789012.0 + np.arange(40) / 1000
    return pd.DataFrame({"t": x}), (np.arange(40) >= 17).astype(int)


def test_tree_cut_between_close_values_never_merges_them() -> None:
    X, y = close_values_frame()
    cuts = FeatureBinarizer(thresholds="tree").fit(X, y).thresholds_["t"]
    assert len(cuts) == 1 and X["t"][16] <= cuts[0] < X["t"][17]
    check_cuts_separate_distinct_values(X, FeatureBinarizer(thresholds="tree").fit(X, y))


def test_a_quantile_threshold_is_the_shortest_number_between_its_neighbours() -> None:
    """The median 1249.78773752 is written 1250 (the next value is 1251.3): every training row is split as
    by the exact quantile, and the rule reads the threshold it compares."""
    x = np.array([1100.5, 1200.1, 1249.78773752, 1251.3, 1400.25])
    X = pd.DataFrame({"balance": x})
    binarizer = FeatureBinarizer(n_thresholds=1).fit(X)
    assert binarizer.thresholds_["balance"].tolist() == [1250.0]
    assert str(binarizer.literals_[0]) == "balance <= 1250.0"
    assert np.array_equal(binarizer.transform(X)[:, 0], (x <= np.quantile(x, 0.5)).astype(np.uint8))
    # the ends of the floats: no decimal below the most negative one
    extreme = pd.DataFrame({"x": [0.0, -np.finfo(float).max, np.finfo(float).max]})
    assert FeatureBinarizer(n_thresholds=2).fit(extreme).thresholds_["x"].tolist() == [-1e308, 0.0]
    # an integer column gets integer thresholds (21 between 21 and 22, never 21.5)
    ages = pd.DataFrame({"age": [18.0, 21, 21, 22, 40, 41, 60, 18, 33, 35, 36]})
    thresholds = FeatureBinarizer(n_thresholds=3).fit(ages).thresholds_["age"]
    assert len(thresholds) == 3 and np.array_equal(thresholds, np.round(thresholds))


@pytest.mark.parametrize("name", list_datasets())
def test_unrounded_thresholds_are_the_quantiles_and_the_midpoints(name: str) -> None:
    """round_thresholds=False: numpy's deciles (the paper's binarization, up to float noise) and the
    trees' midpoints; the training rows are binarized as with the rounded thresholds."""
    X, y = load_dataset(name)
    exact = FeatureBinarizer(round_thresholds=False).fit(X)
    levels = np.arange(1, 10) / 10
    for column in X.columns:
        values = X[column].to_numpy(dtype=float)
        distinct = np.unique(values)
        expected = distinct[:-1] if len(distinct) <= 10 else np.unique(np.quantile(values, levels))
        expected = expected[expected < values.max()]
        np.testing.assert_allclose(exact.thresholds_[column], expected, rtol=1e-11, err_msg=column)
    rounded = FeatureBinarizer().fit(X)
    assert np.array_equal(np.unique(exact.transform(X), axis=1), np.unique(rounded.transform(X), axis=1))
    ages = pd.DataFrame({"x": np.arange(300.0)})
    labels = np.array(["low"] * 100 + ["mid"] * 100 + ["high"] * 100)
    tree = FeatureBinarizer(thresholds="tree", high_cardinality="keep", round_thresholds=False).fit(ages, labels)
    assert tree.thresholds_["x"].tolist() == [99.5, 199.5]


def test_tree_cuts_are_the_midpoint_written_short() -> None:
    x = np.r_[np.linspace(0, 1799.3, 300), np.linspace(1801.7, 2500, 30)]
    X, y = pd.DataFrame({"balance": x}), (x > 1800).astype(int)
    assert FeatureBinarizer(thresholds="tree").fit(X, y).thresholds_["balance"].tolist() == [1800.0]


def rare_tail_frame(n: int = 3000, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray, float, float]:
    """Positives only in the top 3 % of x (and a noise column); the gap (last negative, first positive)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1000, n)
    tail = x > np.quantile(x, 0.97)
    y = tail & (rng.random(n) < 0.9)
    X = pd.DataFrame({"x": x, "noise": rng.normal(size=n)})
    return X, y.astype(int), float(x[~tail].max()), float(x[tail].min())


def test_tree_thresholds_find_a_rare_tail_that_quantiles_miss() -> None:
    X, y, last_negative, first_positive = rare_tail_frame()
    cuts = FeatureBinarizer(thresholds="tree").fit(X, y).thresholds_["x"]
    assert any(last_negative <= t < first_positive for t in cuts)
    quantiles = FeatureBinarizer().fit(X).thresholds_["x"]
    assert not any(t >= last_negative for t in quantiles)


def test_tree_thresholds_need_y() -> None:
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0]})
    for method in ("tree", "quantile+tree"):
        with pytest.raises(ValueError, match=r"needs the labels: call fit\(X, y\).*thresholds='quantile'"):
            FeatureBinarizer(thresholds=method).fit(X)
    with pytest.raises(ValueError, match="X has 3 samples but y has 2 labels"):
        FeatureBinarizer(thresholds="tree").fit(X, [0, 1])
    with pytest.raises(ValueError, match="y has missing labels"):
        FeatureBinarizer(thresholds="tree").fit(X, [0, None, 1])


def test_quantile_thresholds_ignore_y_and_weights() -> None:
    X, y, _, _ = rare_tail_frame(300)
    plain = FeatureBinarizer().fit(X)
    with_labels = FeatureBinarizer(thresholds="quantile").fit(X, y, np.arange(300.0) + 1)
    assert with_labels.literals_ == plain.literals_


def test_tree_thresholds_separate_multiclass_labels() -> None:
    x = np.arange(300.0)  # 0..299 would be left out as row numbers: kept
    y = np.array(["low"] * 100 + ["mid"] * 100 + ["high"] * 100)
    cuts = FeatureBinarizer(thresholds="tree", high_cardinality="keep").fit(pd.DataFrame({"x": x}), y).thresholds_["x"]
    assert cuts.tolist() == [99.0, 199.0]  # the two class changes, nothing else: a split must lower the impurity


def test_tree_thresholds_are_deterministic_and_read_weights_as_row_counts() -> None:
    X, y, _, _ = rare_tail_frame(600, seed=3)
    first = FeatureBinarizer(thresholds="tree").fit(X, y).thresholds_
    order = np.random.default_rng(0).permutation(len(X))
    shuffled = FeatureBinarizer(thresholds="tree").fit(X.iloc[order], y[order]).thresholds_
    assert all(np.array_equal(first[name], shuffled[name]) for name in first)
    counts = np.random.default_rng(1).integers(1, 4, len(X))
    weighted = FeatureBinarizer(thresholds="tree").fit(X, y, counts).thresholds_
    repeated = FeatureBinarizer(thresholds="tree").fit(X.loc[X.index.repeat(counts)], np.repeat(y, counts)).thresholds_
    assert all(np.array_equal(weighted[name], repeated[name]) for name in weighted)


def test_a_column_the_labels_ignore_gets_no_tree_cut_and_no_isolated_rows() -> None:
    x = np.arange(1000.0)
    y = np.tile([0, 1], 500)  # the same class mix on both sides of every even cut
    X = pd.DataFrame({"x": x})
    cuts = FeatureBinarizer(thresholds="tree", high_cardinality="keep").fit(X, y).thresholds_["x"]  # not row numbers here
    share = [np.mean(x <= t) for t in cuts]
    assert all(0.005 <= s <= 0.995 for s in share)


def test_summaries_without_class_weights_fall_back_to_quantiles_and_say_so(caplog: pytest.LogCaptureFixture) -> None:
    from rulemodels.data.binarizer import ColumnSummary

    values = np.arange(100.0)
    summary = ColumnSummary("x", False, 100, 0, values, np.ones(100, dtype=int), float(values[-1]))
    with caplog.at_level("INFO", logger="rulemodels.data.binarizer"):
        tree = FeatureBinarizer(thresholds="tree", high_cardinality="keep").fit_summary([summary])  # 0..99: kept
    assert "summaries of columns ['x'] do not keep: their thresholds are quantiles" in caplog.text
    quantiles = FeatureBinarizer(high_cardinality="keep").fit_summary([summary]).thresholds_["x"]
    assert quantiles.size and np.array_equal(tree.thresholds_["x"], quantiles)


def test_a_summary_with_per_class_weights_gets_the_cuts_of_the_rows() -> None:
    """(value, class, summed weight) with the true row count and mean weight: the tree of the rows, floor included."""
    from rulemodels.data.binarizer import ColumnSummary

    rng = np.random.default_rng(0)
    x = rng.integers(0, 40, 250).astype(float)
    y = (x + rng.normal(scale=6, size=250) > 25).astype(int)
    weights = rng.choice([0.0, 0.5, 1.0, 2.0], 250)
    values, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    table = np.zeros((values.size, 2))
    np.add.at(table, (inverse, y), weights)
    summary = ColumnSummary("x", False, 250, 0, values, counts, float(values[-1]),
                            class_weights=table, n_weighted_rows=int(np.sum(weights > 0)))
    for options in ({}, {"min_leaf_rows": 0}, {"thresholds": "quantile+tree", "round_thresholds": False}):
        binarizer = FeatureBinarizer(**{"thresholds": "tree", **options})
        expected = binarizer.fit(pd.DataFrame({"x": x}), y, weights).thresholds_["x"]
        assert np.array_equal(binarizer.fit_summary([summary]).thresholds_["x"], expected), options


def test_column_kinds_are_a_decision_made_already() -> None:
    """decide_column_kinds gives what fit records on the same rows; given as column_kinds, a fit on part of the rows
    reads each column as that kind (a 0/1 part of a numeric column gets thresholds, a flag holding one value gets no
    literals, text categories of a mixed column stay mixed), and a decision the rows contradict is refused."""
    from rulemodels.rules import ColumnKind

    rng = np.random.default_rng(0)
    code = pd.Series(rng.choice(["a", "b"], 100), dtype=object)
    code[:5] = 7
    X = pd.DataFrame({"visits": np.r_[2, rng.integers(0, 2, 99)], "code": code, "paid": np.r_[np.ones(50), rng.integers(0, 2, 50)],
                      "x": rng.normal(size=100)})
    decided = FeatureBinarizer().decide_column_kinds(X)
    assert decided == FeatureBinarizer().fit(X).column_kinds_ == {
        "visits": ColumnKind("numeric"), "code": ColumnKind("categorical", "mixed"), "paid": ColumnKind("flag"),
        "x": ColumnKind("numeric")}
    part = X.iloc[5:50]  # visits 0/1, code text only, paid 1 only
    assert FeatureBinarizer().fit(part).column_kinds_["visits"] == ColumnKind("flag")  # judged from the part alone
    fitted = FeatureBinarizer(column_kinds=decided).fit(part)
    assert fitted.column_kinds_ == decided
    assert [str(lit) for lit in fitted.literals_ if lit.feature == "visits"] == ["visits <= 0.0", "visits > 0.0"]
    assert not [lit for lit in fitted.literals_ if lit.feature == "paid"]  # a flag holding one value: constant
    A = fitted.transform(X)
    for k, lit in enumerate(fitted.literals_):
        assert np.array_equal(A[:, k].astype(bool), lit.evaluate(X)), str(lit)
    # a kind name alone; a categorical one reads its values from the rows
    named = FeatureBinarizer(column_kinds={"code": "categorical", "paid": "flag"}).fit(part)
    assert named.column_kinds_["code"] == ColumnKind("categorical", "text")
    assert named.column_kinds_["paid"] == ColumnKind("flag")
    assert FeatureBinarizer(column_kinds={"paid": {"kind": "numeric"}}).decide_column_kinds(X)["paid"] == ColumnKind("numeric")
    with pytest.raises(ValueError, match="column_kinds says column 'visits' is a flag, but it holds other values than 0 and 1 "
                                         r"\(e.g. 2\)"):
        FeatureBinarizer(column_kinds={"visits": "flag"}).fit(X)
    with pytest.raises(ValueError, match=r"column_kinds names column\(s\) \['age'\] that are not in X"):
        FeatureBinarizer(column_kinds={"age": "numeric"}).fit(X)
    with pytest.raises(ValueError, match=r"column_kinds\['x'\] must be one of numeric, categorical, flag"):
        FeatureBinarizer(column_kinds={"x": "number"}).fit(X)
    with pytest.raises(ValueError, match=r"column_kinds and categorical disagree on column\(s\) \['x'\]"):
        FeatureBinarizer(categorical=["code"], column_kinds={"x": "categorical"}).fit(X)
