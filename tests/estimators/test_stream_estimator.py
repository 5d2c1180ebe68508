"""BooleanRuleClassifier on a Parquet path or a Dask DataFrame: the same rule as the in-memory fit."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from rulemodels import BooleanRuleClassifier, defaults
from rulemodels.data import parquet_batches
from tests.helpers import mixed_frame, write_parquet_parts

pytest.importorskip("pyarrow")

# quantile thresholds (the default label-aware ones: tests/data/test_stream_label_thresholds.py)
SETTINGS = dict(algorithm="am", n_clauses=3, theta=0.01, thresholds="quantile")


@pytest.fixture(scope="module")
def mixed_data(tmp_path_factory):
    frame, y = mixed_frame(n=2000, seed=1)
    path = write_parquet_parts(frame.assign(label=y), tmp_path_factory.mktemp("parquet") / "mixed", row_group_size=150)
    return frame, y, path


def assert_same_fit(streamed: BooleanRuleClassifier, in_memory: BooleanRuleClassifier) -> None:
    assert str(streamed.rule_) == str(in_memory.rule_)
    assert streamed.raw_rule_ == in_memory.raw_rule_
    assert streamed.training_error_ == pytest.approx(in_memory.training_error_, abs=1e-12)
    assert streamed.objective_ == pytest.approx(in_memory.objective_, rel=1e-9)
    assert streamed.paper_theta_ == pytest.approx(in_memory.paper_theta_, rel=1e-12)
    assert streamed.baseline_error_ == pytest.approx(in_memory.baseline_error_, abs=1e-12)
    assert list(streamed.classes_) == list(in_memory.classes_)
    assert list(streamed.feature_names_in_) == list(in_memory.feature_names_in_)


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_parquet_fit_learns_the_rule_of_the_in_memory_fit(mixed_data, form):
    frame, y, path = mixed_data
    assert len(list(parquet_batches(path))) >= 6  # several files and row groups: read in batches
    in_memory = BooleanRuleClassifier(form=form, **SETTINGS).fit(frame, y)
    streamed = BooleanRuleClassifier(form=form, **SETTINGS).fit(path, "label")
    assert_same_fit(streamed, in_memory)
    assert streamed.n_samples_seen_ == len(frame)
    assert 0 < streamed.n_patterns_ < len(frame)
    assert streamed.sampled_thresholds_ == []
    assert streamed.rule_.n_literals > 1  # a real rule, not a constant
    assert np.array_equal(streamed.predict(path), in_memory.predict(frame))
    assert np.allclose(streamed.predict_proba(path), in_memory.predict_proba(frame))
    # the training error is that of all rows
    assert streamed.training_error_ == pytest.approx(np.mean(streamed.predict(frame) != y))


def test_the_passes_of_a_parquet_fit_and_predict_show_their_bars(mixed_data, monkeypatch):
    """Each pass over the batches (fit's and predict's) draws its bar (a StringIO taken for a terminal, no delay)."""
    import io

    frame, y, path = mixed_data
    stream = io.StringIO()
    monkeypatch.setattr("rulemodels.utils._progress.DELAY", 0.0)
    monkeypatch.setattr("rulemodels.utils._progress.stderr_is_terminal", lambda: True)
    monkeypatch.setattr(sys, "stderr", stream)  # here, not in a fixture: pytest's capture sets it after the fixtures
    streamed = BooleanRuleClassifier(**SETTINGS).fit(path, "label")
    after_fit = stream.getvalue().count("Parquet pass")
    assert after_fit >= 2  # the counting pass and the pattern pass
    predicted = streamed.predict(path)
    assert stream.getvalue().count("Parquet pass") > after_fit
    assert np.array_equal(predicted, BooleanRuleClassifier(**SETTINGS).fit(frame, y).predict(frame))


def test_a_weight_column_and_theta_in_samples_mean_what_they_mean_in_memory(mixed_data, tmp_path):
    frame, y, _ = mixed_data
    weights = np.random.default_rng(2).integers(1, 4, len(frame)).astype(float)
    path = tmp_path / "weighted.parquet"
    frame.assign(label=y, w=weights).to_parquet(path, row_group_size=300)
    settings = dict(SETTINGS, form="cnf", theta=20.0, theta_unit="sample")
    in_memory = BooleanRuleClassifier(**settings).fit(frame, y, sample_weight=weights)
    streamed = BooleanRuleClassifier(**settings).fit(path, "label", sample_weight="w")
    assert_same_fit(streamed, in_memory)


def test_verbose_logs_each_pass(mixed_data, caplog):
    _, _, path = mixed_data
    BooleanRuleClassifier(verbose=1, **SETTINGS).fit(path, "label")  # verbose lowers the package logger to INFO
    messages = [record.getMessage() for record in caplog.records]
    assert any(m.startswith("pass 1 of 2: 2000 rows, 6 columns") for m in messages)
    assert any(m.startswith("pass 2 of 2: 2000 rows ->") for m in messages)


def test_a_parquet_fit_refuses_what_needs_the_rows(mixed_data):
    _, _, path = mixed_data
    with pytest.raises(ValueError, match="form='auto' needs the rows"):
        BooleanRuleClassifier(form="auto").fit(path, "label")
    with pytest.raises(ValueError, match="workspace= is for in-memory data"):
        BooleanRuleClassifier().fit(path, "label", workspace=object())
    with pytest.raises(ValueError, match="y 'nope' is not a column"):
        BooleanRuleClassifier().fit(path, "nope")


def test_predict_on_parquet_needs_a_fit_and_the_fitted_columns(mixed_data, tmp_path):
    frame, y, path = mixed_data
    with pytest.raises(NotFittedError):
        BooleanRuleClassifier().predict(path)
    clf = BooleanRuleClassifier(**SETTINGS).fit(path, "label")
    frame.drop(columns=["a"]).to_parquet(tmp_path / "fewer.parquet")
    with pytest.raises(ValueError, match=r"lacks column\(s\) \['a'\] seen in fit"):
        clf.predict(tmp_path / "fewer.parquet")


# -- Dask ------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_a_dask_fit_on_a_local_cluster_learns_the_rule_of_the_in_memory_fit(mixed_data, dask_client, form):
    import dask.dataframe as dd

    frame, y, _ = mixed_data
    data = dd.from_pandas(frame.assign(label=y), npartitions=4)
    in_memory = BooleanRuleClassifier(form=form, **SETTINGS).fit(frame, y)
    streamed = BooleanRuleClassifier(form=form, **SETTINGS).fit(data.drop(columns="label"), data["label"])
    assert_same_fit(streamed, in_memory)
    assert streamed.n_samples_seen_ == len(frame)
    assert streamed.target_name_ == "label"
    by_name = BooleanRuleClassifier(form=form, **SETTINGS).fit(data, "label")
    assert str(by_name.rule_) == str(in_memory.rule_)
    predicted = streamed.predict(data)
    assert isinstance(predicted, dd.Series)  # lazy
    assert np.array_equal(predicted.compute().to_numpy(), in_memory.predict(frame))
    proba = streamed.predict_proba(data.drop(columns="label"))
    assert isinstance(proba, dd.DataFrame)
    assert np.allclose(proba.compute().to_numpy(), in_memory.predict_proba(frame))
    assert dask_client.status == "running"


def test_a_dask_fit_refuses_labels_it_cannot_align(mixed_data, dask_client):
    import dask.dataframe as dd

    frame, y, _ = mixed_data
    data = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(TypeError, match="a column name or a Dask Series aligned with X, got ndarray"):
        BooleanRuleClassifier().fit(data, y)
    with pytest.raises(ValueError, match="y is required"):
        BooleanRuleClassifier().fit(data, None)


def test_a_parquet_fit_with_the_default_tree_thresholds_places_them_as_in_memory(mixed_data, caplog):
    frame, y, path = mixed_data
    settings = {**SETTINGS, "thresholds": defaults.DEFAULT_THRESHOLDS}
    assert settings["thresholds"] == "tree"
    with caplog.at_level("INFO", logger="rulemodels"):
        streamed = BooleanRuleClassifier(**settings).fit(path, "label")
    assert "quantile" not in caplog.text  # the per-class counts of pass 1 place the label-aware cuts
    in_memory = BooleanRuleClassifier(**settings).fit(frame, y)
    assert_same_fit(streamed, in_memory)
    assert streamed.binarizer_.literals_ == in_memory.binarizer_.literals_


# -- directories whose files differ, Dask partitions without rows ----------------------


@pytest.fixture(scope="module")
def split_columns(mixed_data, tmp_path_factory):
    """The mixed table in two files, column 'a' absent from the second half's, written in both orders of the
    file names; and the in-memory table that means ('a' missing in those rows)."""
    frame, y, _ = mixed_data
    table = frame.assign(label=y)
    half = len(table) // 2
    with_a, without_a = table.iloc[:half], table.iloc[half:].drop(columns="a")
    root = tmp_path_factory.mktemp("split")
    for name, first, second in (("with_first", with_a, without_a), ("without_first", without_a, with_a)):
        (root / name).mkdir()
        first.to_parquet(root / name / "part-0.parquet", index=False)
        second.to_parquet(root / name / "part-1.parquet", index=False)
    in_memory = frame.assign(a=frame["a"].where(np.arange(len(frame)) < half))
    return root, in_memory, y


def test_a_directory_whose_files_differ_in_columns_gives_one_rule_in_either_file_order(split_columns):
    from rulemodels.data import ParquetSchemaWarning

    root, in_memory, y = split_columns
    settings = dict(SETTINGS, nan="indicator")
    expected = BooleanRuleClassifier(**settings).fit(in_memory, y)
    assert "a" in {literal.feature for clause in expected.rule_.clauses for literal in clause.literals}
    fits = {}
    for name in ("with_first", "without_first"):
        with pytest.warns(ParquetSchemaWarning, match=r"column 'a' .* absent from 1 of its 2 files"):
            fits[name] = BooleanRuleClassifier(**settings).fit(root / name, "label")
        assert str(fits[name].rule_) == str(expected.rule_)
        assert list(fits[name].feature_names_in_) == list(in_memory.columns)
        assert fits[name].n_samples_seen_ == len(in_memory)
    # predict reads each file under the unified schema: the rows without 'a' are predicted with 'a' missing
    half = len(in_memory) // 2
    for name, order in (("with_first", np.arange(len(in_memory))), ("without_first", np.r_[half:len(in_memory), 0:half])):
        with pytest.warns(ParquetSchemaWarning):
            predicted = fits[name].predict(root / name)
        assert np.array_equal(predicted, expected.predict(in_memory.iloc[order]))


def test_a_dask_frame_with_an_empty_partition_gives_the_rule_without_it(mixed_data, dask_client):
    import dask.dataframe as dd

    frame, y, _ = mixed_data
    table = frame.assign(label=y, keep=np.arange(len(frame)) >= len(frame) // 4)
    data = dd.from_pandas(table, npartitions=4)
    filtered = data[data["keep"]].drop(columns="keep")  # the first partition is left without rows
    assert filtered.map_partitions(len).compute().tolist()[0] == 0
    kept = table[table["keep"]].drop(columns="keep")
    in_memory = BooleanRuleClassifier(**SETTINGS).fit(kept.drop(columns="label"), kept["label"])
    streamed = BooleanRuleClassifier(**SETTINGS).fit(filtered, "label")
    assert_same_fit(streamed, in_memory)
    without_empty = BooleanRuleClassifier(**SETTINGS).fit(dd.from_pandas(kept, npartitions=3), "label")
    assert str(without_empty.rule_) == str(streamed.rule_)
    assert streamed.n_samples_seen_ == len(kept)
    assert np.array_equal(streamed.predict(filtered).compute().to_numpy(), in_memory.predict(kept.drop(columns="label")))
    assert np.allclose(streamed.predict_proba(filtered).compute().to_numpy(), in_memory.predict_proba(kept.drop(columns="label")))


def test_a_dask_pass_on_a_cluster_shows_its_seconds_and_learns_the_same_rule(mixed_data, dask_client, monkeypatch):
    """The bar of a pass on a ``distributed`` cluster (a StringIO taken for a terminal, no delay)."""
    import io

    import dask.dataframe as dd

    frame, y, _ = mixed_data
    data = dd.from_pandas(frame.assign(label=y), npartitions=4)
    stream = io.StringIO()
    monkeypatch.setattr("rulemodels.utils._progress.DELAY", 0.0)
    monkeypatch.setattr("rulemodels.utils._progress.stderr_is_terminal", lambda: True)
    monkeypatch.setattr(sys, "stderr", stream)  # here, not in a fixture: pytest's capture sets it after the fixtures
    streamed = BooleanRuleClassifier(**SETTINGS).fit(data, "label")
    assert "Dask pass" in stream.getvalue()
    assert str(streamed.rule_) == str(BooleanRuleClassifier(**SETTINGS).fit(frame, y).rule_)


# -- ID-like columns ----------------------------------------------------------------


@pytest.fixture(scope="module")
def record_numbers(tmp_path_factory):
    """120,000 rows with a shuffled record number (more distinct values than a Parquet or Dask fit counts, so
    its summary is a sample) whose first 12,000 records are all positive, a leak a rule would take."""
    import pandas as pd

    rng = np.random.default_rng(5)
    n = 120_000
    x = rng.integers(0, 10, n)
    rid = rng.permutation(n) + 1
    y = np.where(rng.random(n) < 0.8, x >= 5, x < 5).astype(int)
    y[rid <= 12_000] = 1
    frame = pd.DataFrame({"rid": rid, "x": x})
    path = tmp_path_factory.mktemp("parquet") / "records.parquet"
    frame.assign(label=y).to_parquet(path, row_group_size=20_000)
    assert n > defaults.STREAM_EXACT_DISTINCT
    return frame, y, path


def streamed_id_fit(data, *args):
    from rulemodels import IDLikeColumnWarning

    with pytest.warns(IDLikeColumnWarning, match=r"column 'rid' holds 120000 distinct integers, one per row"):
        return BooleanRuleClassifier(**SETTINGS).fit(data, *args)


def test_a_parquet_fit_drops_a_shuffled_record_number_as_the_in_memory_fit_does(record_numbers):
    """Before, the summary's ID check was skipped for a sampled column, and the rule read ``rid <= 11991``."""
    from rulemodels import IDLikeColumnWarning
    from rulemodels.data import FeatureBinarizer

    frame, _, path = record_numbers
    streamed = streamed_id_fit(path, "label")
    with pytest.warns(IDLikeColumnWarning):
        in_memory = FeatureBinarizer(thresholds="quantile").fit(frame)
    assert streamed.binarizer_.dropped_columns_ == ["rid"] == in_memory.dropped_columns_
    assert streamed.rule_.features == ("x",) and streamed.sampled_thresholds_ == []


def test_a_dask_fit_drops_a_shuffled_record_number_too(record_numbers, dask_client):
    import dask.dataframe as dd

    frame, y, _ = record_numbers
    streamed = streamed_id_fit(dd.from_pandas(frame.assign(label=y), npartitions=4), "label")
    assert streamed.binarizer_.dropped_columns_ == ["rid"] and streamed.rule_.features == ("x",)
