"""Thresholds on float32 and float16 columns split the column's numbers alike in every precision.

A threshold printed as ``0.4`` on a float32 column meant ``x > 0.4`` to ``predict`` (which widens the
column to float64: float32(0.4) = 0.4000000059604645 > 0.4) and ``x > float32(0.4)`` to an engine that
compares in float32 (pandas on a float32 column, DuckDB ``FLOAT``): the rows showing 0.4 fell on opposite
sides. A threshold on such a column is now a decimal in the lower half of a gap between two numbers of the
column's dtype: compared in that dtype, in float64, or exactly, it splits every number of the dtype alike.
"""

from __future__ import annotations

import decimal
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulemodels import BooleanRuleClassifier, Literal
from rulemodels.data import FeatureBinarizer, read_stream
from rulemodels.rules import to_query

pa = pytest.importorskip("pyarrow")

#: The narrow float column types: (dtype of the numbers, a pandas dtype holding them).
COLUMN_TYPES = {
    "float32": (np.float32, "float32"),
    "float16": (np.float16, "float16"),
    "Float32": (np.float32, "Float32"),
    "arrow float": (np.float32, pd.ArrowDtype(pa.float32())),
    "arrow halffloat": (np.float16, pd.ArrowDtype(pa.float16())),
}


def neighbours(value: float, dtype: type) -> list:
    """The numbers of ``dtype`` around ``value``: the largest at or below it, the three after and the three before."""
    base = dtype(value)
    if float(base) > value:
        base = np.nextafter(base, dtype(-np.inf))
    found = [base]
    for direction in (np.inf, -np.inf):
        step = base
        for _ in range(3):
            step = np.nextafter(step, dtype(direction))
            found.append(step)
    return [v for v in found if np.isfinite(v)]


def assert_splits_alike(threshold: float, numbers: list, dtype: type) -> None:
    """``x <= t`` has one truth for every number ``x`` of ``dtype`` given, whether ``x`` and the printed ``t``
    are compared in ``dtype`` (the text parsed straight to it, or through float32/float64), in float64 after
    widening ``x`` (``predict``), or exactly; and the rule's text (``str``) and the exports' (``repr``) agree."""
    texts = {repr(threshold), str(Literal("x", "<=", threshold)).split(" <= ")[1]}
    for text in texts:
        exact = decimal.Decimal(text)
        for x in numbers:
            widened = float(x) <= threshold
            readings = {
                "exact": decimal.Decimal(float(x)) <= exact,
                "float64": float(x) <= float(text),
                "dtype": bool(x <= dtype(text)),
                "dtype via float32": bool(x <= dtype(np.float32(text))),
                "numpy, a Python float": bool(np.asarray([x], dtype=dtype) <= float(text)),
            }
            wrong = {name: value for name, value in readings.items() if value != widened}
            assert not wrong, f"threshold {text} on {np.dtype(dtype).name} x = {x!r}: predict says {widened}, {wrong}"


def tenths_frame(n: int = 400, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """A float32 column of tenths 0.1 .. 0.7 (the label: above 0.35, 10% flipped) and a float32 noise column."""
    rng = np.random.default_rng(seed)
    x = rng.choice(np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7], dtype=np.float32), n)
    y = ((x > 0.35) ^ (rng.random(n) < 0.1)).astype(int)
    return pd.DataFrame({"x": x, "z": rng.normal(size=n).astype(np.float32)}), y


def test_a_float32_rule_predicts_what_it_prints_and_explain_shows():
    X, y = tenths_frame()
    clf = BooleanRuleClassifier(random_state=0).fit(X, y)
    thresholds = [lit for lit in clf.rule_.literals if lit.op in ("<=", ">")]
    assert any(lit.feature == "x" for lit in thresholds), str(clf.rule_)
    for lit in thresholds:
        printed = str(lit).rsplit(" ", 1)[1]
        column = X[lit.feature].to_numpy()
        in_float32 = column <= np.float32(printed) if lit.op == "<=" else column > np.float32(printed)
        assert np.array_equal(lit.evaluate(X), in_float32), f"{lit} on the rows showing its threshold"
        assert_splits_alike(lit.value, neighbours(lit.value, np.float32), np.float32)
    predicted = clf.predict(X).astype(bool)
    assert np.array_equal(np.asarray(X.eval(to_query(clf.rule_)), dtype=bool), predicted)  # pandas compares in float32
    # explain's reasons: a value it shows is on the side of the printed threshold that predict puts the row
    reasons = clf.explain(X)["reason"].tolist()
    shown = 0
    for i, reason in enumerate(reasons):
        for feature, op, printed, value in re.findall(r"(\w+) (<=|>) (\S+) \(\w+ = ([^)]+)\)", reason):
            holds = Literal(feature, op, float(printed)).evaluate(X.iloc[[i]])[0]
            as_shown = decimal.Decimal(value) <= decimal.Decimal(printed)
            assert holds == (as_shown if op == "<=" else not as_shown), f"row {i}: {reason}"
            shown += 1
    assert shown >= len(X)

def test_float32_thresholds_are_written_in_float32_and_float64_ones_are_unchanged():
    """Between float32's tenths the thresholds are decimals that float32 reads below the upper tenth (0.4 is
    not: it reads as float32's 0.4, so it was 0.4 and 0.41 side by side); the float64 tenths keep theirs."""
    X, _ = tenths_frame()
    narrow = FeatureBinarizer().fit(X[["x"]]).thresholds_["x"].tolist()
    wide = FeatureBinarizer().fit(pd.DataFrame({"x": np.round(X["x"].astype(float), 1)})).thresholds_["x"].tolist()
    assert narrow == [0.11, 0.21, 0.32, 0.41, 0.5, 0.63]  # each just above a tenth, as float32 reads it
    assert wide == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]

@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(sorted(COLUMN_TYPES)),
    raw=st.lists(st.floats(-1e4, 1e4, allow_nan=False, width=16), min_size=2, max_size=60),
    scale=st.sampled_from([1.0, 1e-3, 0.1, 3.0, 100.0]),
    labels=st.lists(st.booleans(), min_size=60, max_size=60),
    placement=st.sampled_from(["quantile", "tree", "quantile+tree"]),
    round_thresholds=st.booleans(),
)
def test_every_threshold_splits_the_columns_numbers_alike_in_every_precision(
    kind, raw, scale, labels, placement, round_thresholds,
):
    dtype, pandas_dtype = COLUMN_TYPES[kind]
    with np.errstate(over="ignore"):  # float16 holds up to 65504: the larger ones become infinite and are left out
        values = (np.asarray(raw, dtype=float) * scale).astype(dtype)
    values = values[np.isfinite(values)]
    if values.size < 2:
        return
    X = pd.DataFrame({"x": pd.Series(values, dtype=pandas_dtype)})
    y = np.asarray(labels[: values.size], dtype=int)
    y[:2] = [0, 1]
    binarizer = FeatureBinarizer(n_thresholds=4, thresholds=placement, round_thresholds=round_thresholds).fit(X, y)
    A = binarizer.transform(X)
    for k, lit in enumerate(binarizer.literals_):
        if lit.op != "<=":
            continue
        assert_splits_alike(lit.value, [*neighbours(lit.value, dtype), *np.unique(values)], dtype)
        assert np.array_equal(A[:, k].astype(bool), values <= dtype(repr(lit.value)))  # the binarizer reads as printed


def test_a_parquet_float32_column_gets_the_thresholds_of_the_in_memory_fit(tmp_path):
    X, y = tenths_frame(600, seed=1)
    X["h"] = X["z"].astype(np.float16)
    path = tmp_path / "narrow.parquet"
    X.assign(label=y).to_parquet(path)
    for placement in ("quantile", "tree"):
        streamed = read_stream(path, "label", binarizer=FeatureBinarizer(thresholds=placement), batch_rows=128).binarizer
        fitted = FeatureBinarizer(thresholds=placement).fit(X, y)
        assert streamed.literals_ == fitted.literals_
        for name, dtype in (("x", np.float32), ("z", np.float32), ("h", np.float16)):
            for t in streamed.thresholds_[name].tolist():
                assert_splits_alike(t, [*neighbours(t, dtype), *np.unique(X[name].to_numpy())], dtype)
