"""The default (label-aware) thresholds of a Parquet or Dask fit: placed from per-class counts, as in memory.

A fit on a Parquet path or a Dask DataFrame builds its binarizer from per-column summaries. With the
estimators' default ``thresholds="tree"`` those summaries keep each value's weight per class, and the cuts
are placed by the same one-column trees as on the rows, with the same floor in rows (½ ln n rows of the
column's mean weight): the same rows give the same rule, Parquet, Dask or in memory.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import rulemodels
from rulemodels import BooleanRuleClassifier
from rulemodels.data import FeatureBinarizer, check_sample_weight, class_weighted, parquet_batches, read_stream
from tests.helpers import mixed_frame, write_parquet_parts

pytest.importorskip("pyarrow")


def assert_same_rule(streamed: BooleanRuleClassifier, in_memory: BooleanRuleClassifier) -> None:
    """The same rule, thresholds and literals, and the same fit on them."""
    assert str(streamed.rule_) == str(in_memory.rule_)
    assert streamed.raw_rule_ == in_memory.raw_rule_
    assert streamed.binarizer_.literals_ == in_memory.binarizer_.literals_
    assert streamed.binarizer_.thresholds_.keys() == in_memory.binarizer_.thresholds_.keys()
    for name, thresholds in in_memory.binarizer_.thresholds_.items():
        assert np.array_equal(streamed.binarizer_.thresholds_[name], thresholds), name
    assert streamed.objective_ == pytest.approx(in_memory.objective_, rel=1e-9)
    assert streamed.training_error_ == pytest.approx(in_memory.training_error_, abs=1e-12)
    assert streamed.sampled_thresholds_ == []


@pytest.fixture(scope="module")
def pima_parquet(tmp_path_factory):
    X, y = rulemodels.load_dataset("pima")
    path = write_parquet_parts(X.assign(label=y), tmp_path_factory.mktemp("pima") / "pima", row_group_size=100)
    assert len(list(parquet_batches(path))) >= 6  # several files and row groups: summaries merged across batches
    return X, y, path


@pytest.fixture(scope="module")
def weighted_mixed(tmp_path_factory):
    """The mixed table (missing values, text and category columns) with a weight column, some weights 0."""
    frame, y = mixed_frame(n=1200, seed=4)
    rng = np.random.default_rng(4)
    weights = rng.choice([0.5, 1.0, 2.0, 3.0], len(frame))
    weights[rng.random(len(frame)) < 0.05] = 0.0
    path = write_parquet_parts(frame.assign(label=y, w=weights), tmp_path_factory.mktemp("mixed") / "mixed", row_group_size=100)
    return frame, y, weights, path


# -- the estimator with its defaults ------------------------------------------------------


def test_the_default_parquet_fit_learns_the_in_memory_rule_on_pima(pima_parquet, caplog):
    X, y, path = pima_parquet
    assert BooleanRuleClassifier().thresholds == "tree"
    in_memory = BooleanRuleClassifier().fit(X, y)
    with caplog.at_level("INFO", logger="rulemodels"):
        streamed = BooleanRuleClassifier().fit(path, "label")
    assert_same_rule(streamed, in_memory)
    assert streamed.rule_.n_literals > 1
    assert "quantile" not in caplog.text  # no column falls back to quantiles
    quantiles = BooleanRuleClassifier(thresholds="quantile").fit(X, y).binarizer_.thresholds_
    assert any(not np.array_equal(quantiles[name], cuts) for name, cuts in streamed.binarizer_.thresholds_.items())
    assert np.array_equal(streamed.predict(path), in_memory.predict(X))


def test_the_default_dask_fit_learns_the_in_memory_rule_on_pima(pima_parquet, dask_client):
    import dask.dataframe as dd

    X, y, _ = pima_parquet
    data = dd.from_pandas(X.assign(label=y), npartitions=5)
    in_memory = BooleanRuleClassifier().fit(X, y)
    assert_same_rule(BooleanRuleClassifier().fit(data, "label"), in_memory)
    assert_same_rule(BooleanRuleClassifier().fit(data.drop(columns="label"), data["label"]), in_memory)
    assert dask_client.status == "running"


@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_a_weighted_parquet_fit_with_missing_values_and_text_learns_the_in_memory_rule(weighted_mixed, class_weight):
    frame, y, weights, path = weighted_mixed
    in_memory = BooleanRuleClassifier(class_weight=class_weight).fit(frame, y, sample_weight=weights)
    streamed = BooleanRuleClassifier(class_weight=class_weight).fit(path, "label", sample_weight="w")
    assert_same_rule(streamed, in_memory)
    assert streamed.rule_.n_literals > 1


@pytest.mark.parametrize("class_weight", [None, "balanced"])
def test_a_weighted_dask_fit_with_missing_values_and_text_learns_the_in_memory_rule(weighted_mixed, dask_client, class_weight):
    import dask.dataframe as dd

    frame, y, weights, _ = weighted_mixed
    data = dd.from_pandas(frame.assign(label=y, w=weights), npartitions=4)
    in_memory = BooleanRuleClassifier(class_weight=class_weight).fit(frame, y, sample_weight=weights)
    assert_same_rule(BooleanRuleClassifier(class_weight=class_weight).fit(data, "label", sample_weight="w"), in_memory)


# -- the binarizer of pass 1 -------------------------------------------------------------


def in_memory_binarizer(settings: dict, frame: pd.DataFrame, y: np.ndarray, weights: np.ndarray | None, class_weight=None):
    """The binarizer the in-memory fit builds: the labels and the checked class-weighted weights of its rows."""
    checked = check_sample_weight(class_weighted(y, weights, class_weight), len(y))
    return FeatureBinarizer(**settings)._fit(frame, y, checked)


@pytest.mark.parametrize("thresholds", ["tree", "quantile+tree"])
@pytest.mark.parametrize("class_weight", [None, "balanced", {0: 1.0, 1: 2.5}, {0: 0.0, 1: 1.0}])
def test_the_streamed_label_aware_thresholds_are_those_of_the_rows(weighted_mixed, thresholds, class_weight):
    frame, y, weights, path = weighted_mixed
    settings = dict(thresholds=thresholds, nan="indicator")
    data = read_stream(path, "label", "w", binarizer=FeatureBinarizer(**settings), class_weight=class_weight, batch_rows=100)
    fitted = in_memory_binarizer(settings, frame, y, weights, class_weight)
    assert data.binarizer.literals_ == fitted.literals_
    assert data.binarizer.column_kinds_ == fitted.column_kinds_
    assert data.approximate == []
    assert data.sample_weight.sum() == pytest.approx(weights.sum())  # the patterns' weights stay without class weights


def floor_table() -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """292 rows, 30 distinct values: class 1 above 14, but the top value is a pure tail of two class-0 rows
    (weighing 2.5 each, the others 3). The floor of ½ ln 292 = 2.84 rows (of the mean weight) keeps the tail
    in a leaf with x = 28; a floor from the 30 distinct values (1.70 rows), or in units of weight 1, would
    cut it off."""
    x = np.repeat(np.arange(30.0), 10)
    y = (x >= 15).astype(int)
    y[x == 29] = 0
    keep = ~((x == 29) & (np.arange(300) % 10 >= 2))
    x, y = x[keep], y[keep]
    return pd.DataFrame({"x": x}), y, np.where(x == 29, 2.5, 3.0)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_floor_in_rows_counts_the_rows_and_their_mean_weight_not_the_distinct_values(tmp_path, weighted):
    frame, y, weights = floor_table()
    n = len(frame)
    path = tmp_path / "floor.parquet"
    frame.assign(label=y, w=weights).to_parquet(path, row_group_size=50, index=False)
    settings = dict(thresholds="tree", high_cardinality="keep")
    fitted = in_memory_binarizer(settings, frame, y, weights if weighted else None)
    assert fitted.thresholds_["x"].tolist() == [14.0, 27.0]  # the floor keeps the two-row tail with x = 28
    wrong_floor = 0.5 * math.log(30) if not weighted else 0.5 * math.log(n) / float(np.mean(weights))
    assert in_memory_binarizer(dict(settings, min_leaf_rows=wrong_floor), frame, y, weights if weighted else None
                               ).thresholds_["x"].tolist() == [14.0, 28.0]  # the floor decides the cut
    data = read_stream(path, "label", "w" if weighted else None, binarizer=FeatureBinarizer(**settings), batch_rows=50)
    assert data.binarizer.thresholds_["x"].tolist() == [14.0, 27.0]


def test_above_the_cap_the_cuts_are_placed_from_the_per_class_weights_of_the_sample(tmp_path, caplog):
    rng = np.random.default_rng(5)
    n = 20_000
    x = rng.lognormal(size=n)
    y = np.where(rng.random(n) < 0.05, x <= 2.0, x > 2.0).astype(int)  # the classes change at 2
    frame = pd.DataFrame({"x": x})
    path = tmp_path / "many.parquet"
    frame.assign(label=y).to_parquet(path, row_group_size=3_000)
    settings = dict(thresholds="tree", high_cardinality="keep")
    with caplog.at_level("INFO", logger="rulemodels"):
        data = read_stream(path, "label", binarizer=FeatureBinarizer(**settings), batch_rows=3_000,
                           exact_distinct=1_000, sample_size=4_000)
    assert data.approximate == ["x"]
    assert "placed from the per-class weights of a uniform sample" in caplog.text
    exact = FeatureBinarizer(**settings).fit(frame, y).thresholds_["x"]
    sampled = data.binarizer.thresholds_["x"]
    assert not np.array_equal(sampled, exact)  # really a sample
    # the cut where the classes change is found from the sample too, within the rank tolerance of a sample
    values = np.sort(x)
    main_exact = exact[np.argmin(np.abs(exact - 2.0))]
    main_sampled = sampled[np.argmin(np.abs(sampled - 2.0))]
    ranks = np.searchsorted(values, [main_sampled, main_exact], side="right") / n
    assert abs(ranks[0] - ranks[1]) <= 3.0 / np.sqrt(4_000)
    again = read_stream(path, "label", binarizer=FeatureBinarizer(**settings), batch_rows=3_000,
                        exact_distinct=1_000, sample_size=4_000)
    assert np.array_equal(again.binarizer.thresholds_["x"], sampled)  # deterministic for the seed


def test_more_than_two_classes_through_parquet_are_still_refused_with_the_way_out(tmp_path):
    frame, _ = mixed_frame(n=300, seed=2)
    labels = np.arange(300) % 3
    path = write_parquet_parts(frame.assign(label=labels), tmp_path / "three", row_group_size=50)
    with pytest.raises(ValueError, match="3 distinct value.*ordered rule list"):
        BooleanRuleClassifier().fit(path, "label")
