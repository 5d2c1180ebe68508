"""Polars (eager and lazy), pyarrow and dataframe-interchange input: the same rules and answers as pandas.

Each foreign frame is made from a pandas frame; fitting on it must learn the
rule the pandas frame learns, with the real column names, and ``predict``,
``predict_proba`` and ``explain`` on it must give pandas' answers. The
conversion is :func:`rulemodels.utils.as_pandas` ("Any DataFrame").
"""

from __future__ import annotations

import sqlite3
import sys
import warnings
from contextlib import closing

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, Rule
from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import make_rule_data
from rulemodels.report import report_data
from rulemodels.rules import load_model, save_model, to_query, to_sql
from rulemodels.utils import as_pandas, is_foreign_frame

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

KINDS = ("polars", "polars_lazy", "pyarrow", "interchange")


class InterchangeOnly:
    """A table that exposes only the dataframe interchange protocol (no Arrow stream, no ``to_pandas``)."""

    def __init__(self, table):
        self._table = table

    def __dataframe__(self, nan_as_null: bool = False, allow_copy: bool = True):
        return self._table.__dataframe__(nan_as_null=nan_as_null, allow_copy=allow_copy)


def foreign(frame: pd.DataFrame, kind: str):
    """``frame`` as a DataFrame of another library (pyarrow without pandas' metadata: our own dtype mapping)."""
    if kind == "polars":
        return pl.from_pandas(frame)
    if kind == "polars_lazy":
        return pl.from_pandas(frame).lazy()
    table = pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata()
    return table if kind == "pyarrow" else InterchangeOnly(table)


@pytest.fixture(scope="module")
def credit_with_nullables():
    """``(X, y)``: 300 rows of the credit-like synthetic data (numbers, text and categories with missing values),
    with ``n_late_payments`` as a nullable Int64, a nullable boolean ``late`` and an ``age_band`` category, each
    with missing values."""
    X, y = make_rule_data(300, kind="mixed", random_state=3)
    rng = np.random.default_rng(3)
    gaps = rng.random(len(X)) < 0.05
    X["n_late_payments"] = X["n_late_payments"].astype("Int64").mask(gaps)
    X["late"] = (X["n_late_payments"] >= 1).astype("boolean").mask(rng.random(len(X)) < 0.05)
    X["age_band"] = pd.cut(X["age"], [0, 30, 45, 200], labels=["young", "middle", "older"]).mask(rng.random(len(X)) < 0.05)
    return X, y


def fit(X, y, **params) -> BooleanRuleClassifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ID-like columns, trivial rules: the same for every input
        return BooleanRuleClassifier(**params).fit(X, y)


@pytest.fixture(scope="module")
def pandas_fit(credit_with_nullables):
    X, y = credit_with_nullables
    return fit(X, y)


@pytest.mark.parametrize("kind", KINDS)
def test_foreign_frame_becomes_the_pandas_frame(credit_with_nullables, kind):
    X, _ = credit_with_nullables
    converted = as_pandas(foreign(X, kind))
    assert list(converted.columns) == list(X.columns)
    assert converted["n_late_payments"].dtype == "Int64" and converted["late"].dtype == "boolean"
    assert isinstance(converted["age_band"].dtype, pd.CategoricalDtype)
    assert isinstance(converted["region"].dtype, pd.CategoricalDtype)
    assert pd.api.types.is_string_dtype(converted["employment"].dtype)
    assert converted["age"].dtype == np.int64 and converted["income"].dtype == np.float64
    for name in X.columns:
        left, right = converted[name], X[name]
        if isinstance(right.dtype, pd.CategoricalDtype):
            left, right = left.astype(object), right.astype(object)
        pd.testing.assert_series_equal(left, right, check_dtype=False, check_categorical=False)


@pytest.mark.parametrize("kind", KINDS)
def test_fit_learns_the_pandas_rule_with_the_real_names(credit_with_nullables, pandas_fit, kind):
    X, y = credit_with_nullables
    fitted = fit(foreign(X, kind), y)
    assert str(fitted.rule_) == str(pandas_fit.rule_)
    assert set(fitted.rule_.features) <= set(X.columns)
    assert list(fitted.feature_names_in_) == list(X.columns)
    assert fitted.n_features_in_ == X.shape[1]
    assert fitted.binarizer_.column_kinds_ == pandas_fit.binarizer_.column_kinds_


def test_polars_labels_name_the_target(credit_with_nullables, pandas_fit):
    X, y = credit_with_nullables
    fitted = fit(pl.from_pandas(X), pl.from_pandas(y))
    assert pandas_fit.target_name_ == "default" and fitted.target_name_ == "default"
    assert str(fitted.rule_) == str(pandas_fit.rule_)


def test_the_nullable_columns_are_in_the_rule(credit_with_nullables, pandas_fit):
    """The nullable Int64 column is used by the rule, so the Int64 mapping is exercised by the fits above."""
    assert "n_late_payments" in pandas_fit.rule_.features


#: pandas frames whose columns pandas itself backs with pyarrow (``pandas.ArrowDtype``)
ARROW_BACKED = ("convert_dtypes", "read_parquet")


def arrow_backed(frame: pd.DataFrame, how: str, tmp_path) -> pd.DataFrame:
    """``frame`` with pyarrow-backed columns: ``bool[pyarrow]`` (with and without nulls), ``int64[pyarrow]`` with
    nulls, ``double[pyarrow]``, ``string``/``large_string[pyarrow]``, and from Parquet ``dictionary<...>[pyarrow]``."""
    if how == "convert_dtypes":
        return frame.convert_dtypes(dtype_backend="pyarrow")
    path = tmp_path / "frame.parquet"
    frame.to_parquet(path)
    return pd.read_parquet(path, dtype_backend="pyarrow")


@pytest.fixture(scope="module")
def with_flag(credit_with_nullables):
    """The credit frame with a plain bool column ``paid`` too, and the model pandas fits on it."""
    X, y = credit_with_nullables
    X = X.assign(paid=X["n_late_payments"].fillna(0).eq(0).to_numpy(dtype=bool))
    return X, y, fit(X, y)


@pytest.mark.parametrize("how", ARROW_BACKED)
def test_a_pyarrow_backed_pandas_frame_is_read_as_the_same_data(with_flag, how, tmp_path):
    X, y, pandas_model = with_flag
    data = arrow_backed(X, how, tmp_path)
    dtypes = {name: str(dtype) for name, dtype in data.dtypes.items()}
    assert dtypes["paid"] == dtypes["late"] == "bool[pyarrow]" and dtypes["n_late_payments"] == "int64[pyarrow]"
    assert data["late"].isna().any() and data["n_late_payments"].isna().any()
    if how == "read_parquet":
        assert dtypes["region"].startswith("dictionary<") and dtypes["employment"] == "large_string[pyarrow]"
    fitted = fit(data, y)
    assert str(fitted.rule_) == str(pandas_model.rule_)
    assert fitted.binarizer_.column_kinds_ == pandas_model.binarizer_.column_kinds_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = FeatureBinarizer(nan="indicator").fit(data, y), FeatureBinarizer(nan="indicator").fit(X, y)
    assert list(ours.get_feature_names_out()) == list(theirs.get_feature_names_out())  # the flags and categories too
    np.testing.assert_array_equal(ours.transform(data), theirs.transform(X))
    for model in (fitted, pandas_model):  # fitted on the pyarrow-backed frame or on pandas, asked on the former
        np.testing.assert_array_equal(model.predict(data), pandas_model.predict(X))
        np.testing.assert_array_equal(model.predict_proba(data), pandas_model.predict_proba(X))
        pd.testing.assert_frame_equal(model.explain(data), pandas_model.explain(X))

    # the exported rule on the same rows: Python on each row's values, SQL on the frame written to SQLite
    rule = fitted.rule_
    truth = rule.evaluate(X)
    np.testing.assert_array_equal(rule.evaluate(data), truth)
    namespace: dict = {}
    exec(rule.to_python(), namespace)
    np.testing.assert_array_equal([namespace["predict_row"](row) for row in data.to_dict("records")], truth)
    with closing(sqlite3.connect(":memory:")) as connection:
        data.to_sql("data", connection, index=False)
        selected = [bool(value) for (value,) in connection.execute(f"SELECT {rule.to_sql()} FROM data")]
    np.testing.assert_array_equal(selected, truth)


@pytest.mark.parametrize("kind", KINDS)
def test_predict_proba_and_explain_on_the_frame_equal_pandas(credit_with_nullables, pandas_fit, kind):
    X, y = credit_with_nullables
    data = foreign(X, kind)
    fitted = fit(data, y)
    for model in (fitted, pandas_fit):  # fitted on the foreign frame or on pandas, asked on the foreign frame
        np.testing.assert_array_equal(model.predict(data), pandas_fit.predict(X))
        np.testing.assert_array_equal(model.predict_proba(data), pandas_fit.predict_proba(X))
        pd.testing.assert_frame_equal(model.explain(data), pandas_fit.explain(X))
    assert fitted.score(data, y) == pandas_fit.score(X, y)


@pytest.mark.parametrize("kind", ("polars", "pyarrow"))
def test_rule_binarizer_and_report_read_the_frame(credit_with_nullables, pandas_fit, kind):
    X, y = credit_with_nullables
    data = foreign(X, kind)
    rule = pandas_fit.rule_
    np.testing.assert_array_equal(rule.evaluate(data), rule.evaluate(X))
    np.testing.assert_array_equal(rule.clause_outputs(data), rule.clause_outputs(X))
    binarizer = FeatureBinarizer(nan="indicator").fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_array_equal(binarizer.transform(data), binarizer.transform(X))
        np.testing.assert_array_equal(
            FeatureBinarizer(nan="indicator").fit_transform(data, y), FeatureBinarizer(nan="indicator").fit_transform(X, y),
        )
        assert list(FeatureBinarizer(nan="indicator").fit(data).feature_names_in_) == list(X.columns)
    ours, theirs = report_data(pandas_fit, data, y, by="region"), report_data(pandas_fit, X, y, by="region")
    np.testing.assert_array_equal(ours.predicted, theirs.predicted)
    np.testing.assert_array_equal(ours.confusion, theirs.confusion)
    pd.testing.assert_frame_equal(ours.subgroups, theirs.subgroups)


#: A small, fast search: column generation on a θ path (its refit walks the path on a workspace of all rows)
CV_PARAMS = dict(algorithms="cg", forms="dnf", thetas=(0.005, 0.05), n_clauses=(2,), cv=3, n_thresholds=5)


def search(X, y) -> BooleanRuleCV:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BooleanRuleCV(**CV_PARAMS).fit(X, y)


@pytest.fixture(scope="module")
def pandas_search(credit_with_nullables):
    X, y = credit_with_nullables
    return search(X, y)


@pytest.mark.parametrize("kind", ("polars", "pyarrow"))
def test_a_saved_rule_file_reads_the_frame(credit_with_nullables, pandas_fit, kind, tmp_path):
    X, _ = credit_with_nullables
    path = tmp_path / "rule.json"
    save_model(path, pandas_fit.rule_, tuple(pandas_fit.classes_), "default", list(X.columns),
               pattern_rates=pandas_fit.pattern_rates_, column_kinds=pandas_fit.binarizer_.column_kinds_)
    model = load_model(path)
    data = foreign(X, kind)
    np.testing.assert_array_equal(model.predict(data), model.predict(X))
    np.testing.assert_array_equal(model.predict_proba(data), model.predict_proba(X))
    pd.testing.assert_frame_equal(model.explain(data), model.explain(X))


@pytest.mark.parametrize("kind", ("polars", "pyarrow"))
def test_cv_chooses_and_refits_the_pandas_rule(credit_with_nullables, pandas_search, kind):
    X, y = credit_with_nullables
    expected = pandas_search
    searched = search(foreign(X, kind), y)
    assert str(searched.rule_) == str(expected.rule_)
    assert searched.best_params_ == expected.best_params_
    np.testing.assert_array_equal(searched.cv_results_["mean_test_score"], expected.cv_results_["mean_test_score"])
    assert list(searched.feature_names_in_) == list(X.columns)
    np.testing.assert_array_equal(searched.predict_proba(foreign(X, kind)), expected.predict_proba(X))


def three_classes(X: pd.DataFrame, y) -> np.ndarray:
    return np.where(y == 1, "default", np.where(X["age"] < 35, "young", "other"))


@pytest.fixture(scope="module")
def pandas_rule_list(credit_with_nullables):
    X, y = credit_with_nullables
    return fit(X, three_classes(X, y), n_clauses=2, n_thresholds=5)


@pytest.mark.parametrize("kind", ("polars_lazy", "pyarrow"))
def test_multiclass_rule_list_equals_pandas(credit_with_nullables, pandas_rule_list, kind):
    X, y = credit_with_nullables
    expected = pandas_rule_list
    fitted = fit(foreign(X, kind), three_classes(X, y), n_clauses=2, n_thresholds=5)
    assert len(expected.classes_) == 3 and len(expected.rule_.steps) >= 1
    assert str(fitted.rule_) == str(expected.rule_)
    assert list(fitted.feature_names_in_) == list(X.columns)
    np.testing.assert_array_equal(fitted.predict(foreign(X, kind)), expected.predict(X))
    np.testing.assert_array_equal(fitted.predict_proba(foreign(X, kind)), expected.predict_proba(X))
    pd.testing.assert_frame_equal(fitted.explain(foreign(X, kind)), expected.explain(X))


@pytest.mark.parametrize("kind", ("polars", "pyarrow"))
@pytest.mark.parametrize("column", ("timestamp", "date", "duration"))
def test_dates_and_durations_are_refused_as_pandas_refuses_them(credit_with_nullables, kind, column):
    X, y = credit_with_nullables
    days = pd.to_timedelta(np.arange(len(X)) % 700, unit="D")
    values = {
        "timestamp": pd.Timestamp("2020-01-01") + days,
        "date": (pd.Timestamp("2020-01-01") + days).date,  # polars Date / Arrow date32 from python dates
        "duration": days,
    }[column]
    X = X.assign(opened=values)
    with pytest.raises(ValueError, match="column 'opened' holds dates or durations .*convert it to numbers"):
        fit(foreign(X, kind), y)
    if column != "date":  # pandas keeps python dates as objects; Arrow's date32 becomes datetime64 on purpose
        with pytest.raises(ValueError, match="column 'opened' holds dates or durations"):
            fit(X, y)


def test_arrays_series_and_pandas_pass_through_unchanged():
    frame = pd.DataFrame({"a": [1, 2]})
    array = np.zeros((2, 2))
    column = pl.Series("a", [1, 2])
    for value in (frame, array, [[1, 2]], column, pa.chunked_array([[1, 2]])):
        assert as_pandas(value) is value
    assert not is_foreign_frame(frame) and not is_foreign_frame(column)
    assert is_foreign_frame(pl.DataFrame({"a": [1]})) and is_foreign_frame(pa.table({"a": [1]}))


def test_record_batch_and_index_of_a_pandas_table():
    batch = pa.record_batch({"a": [1, None], "b": [True, None]})
    converted = as_pandas(batch)
    assert list(converted.dtypes.astype(str)) == ["Int64", "boolean"]
    original = pd.DataFrame({"a": [1.5, 2.5]}, index=[10, 20])
    pd.testing.assert_frame_equal(as_pandas(pa.Table.from_pandas(original)), original)


def test_without_pyarrow_the_error_says_what_to_install(monkeypatch):
    data = pl.DataFrame({"a": [1, 2]})
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"polars\.DataFrame to pandas needs pyarrow.*pip install pyarrow"):
        as_pandas(data)


def test_a_frame_that_cannot_be_read_says_so():
    class Broken:
        def __dataframe__(self, nan_as_null=False, allow_copy=True):
            raise NotImplementedError("no columns today")

    with pytest.raises(TypeError, match="could not read the .*Broken as a table.*pass a pandas DataFrame"):
        as_pandas(Broken())


@pytest.mark.parametrize("kind", ("polars", "pyarrow"))
def test_float32_and_float16_columns_split_as_their_rule_prints_in_every_engine(kind):
    """polars' Float32 and Arrow's float/halffloat: the thresholds are in the column's own precision, so the
    frame's library (polars), DuckDB reading the frame (FLOAT) and the pandas query split the rows as predict."""
    duckdb = pytest.importorskip("duckdb")
    rng = np.random.default_rng(8)
    tenths = rng.integers(0, 30, 400) / 10
    y = ((tenths > 1.45) ^ (rng.random(400) < 0.1)).astype(int)
    X = pd.DataFrame({"tenths": tenths.astype(np.float32), "half": (tenths + rng.normal(0, 0.2, 400)).astype(np.float16)})
    frame = foreign(X, kind)
    fitted = BooleanRuleClassifier(n_thresholds=20, theta=0.005, random_state=0).fit(frame, y)
    assert any(lit.op in ("<=", ">") for lit in fitted.rule_.literals), str(fitted.rule_)
    predicted = fitted.predict(frame).astype(bool)
    as_frame = as_pandas(frame)
    assert as_frame["tenths"].dtype == np.float32 and as_frame["half"].dtype.itemsize < 8  # narrow floats reach the fit
    assert np.array_equal(np.asarray(as_frame.eval(to_query(fitted.rule_)), dtype=bool), predicted)
    literals = [lit for lit in fitted.binarizer_.literals_ if lit.op in ("<=", ">")]
    assert {lit.feature for lit in literals} == {"tenths", "half"}
    connection = duckdb.connect()
    connection.register("data", pl.from_pandas(X[["tenths"]]).to_arrow() if kind == "pyarrow" else frame.select("tenths"))
    for lit in literals:
        truth = lit.evaluate(as_frame)
        if kind == "polars":  # polars compares the column with the printed number
            number = float(str(lit).rsplit(" ", 1)[1])
            column = pl.col(lit.feature)
            mine = frame.select((column <= number) if lit.op == "<=" else (column > number)).to_series().to_numpy()
            assert np.array_equal(mine, truth), f"polars: {lit}"
        if lit.feature == "tenths":  # DuckDB reads Arrow's float as FLOAT (it has no halffloat)
            got = connection.execute(f"SELECT CASE WHEN {to_sql(Rule.dnf([[lit]]))} THEN 1 ELSE 0 END FROM data").fetchall()
            assert np.array_equal(np.array([row[0] for row in got], dtype=bool), truth), f"DuckDB: {lit}"
