"""Reading Parquet data in batches: pass 1 (the binarizer from summaries) and pass 2 (weighted distinct patterns)."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from rulemodels.data import FeatureBinarizer, ParquetSchemaWarning, parquet_batches, parquet_columns, read_stream
from rulemodels.data.binarizer import IDLikeColumnWarning
from tests.helpers import mixed_frame, write_parquet_parts

pytest.importorskip("pyarrow")


def binarizer() -> FeatureBinarizer:
    return FeatureBinarizer(nan="indicator")


@pytest.fixture
def mixed_parquet(tmp_path):
    frame, y = mixed_frame()
    path = write_parquet_parts(frame.assign(label=y), tmp_path / "mixed")
    return frame, y, path


def test_streamed_binarizer_equals_the_in_memory_one(mixed_parquet):
    frame, y, path = mixed_parquet
    assert len(list(parquet_batches(path, batch_rows=128))) > 3  # batching is exercised
    data = read_stream(path, "label", binarizer=binarizer(), batch_rows=128)
    fitted = binarizer().fit(frame)
    assert data.binarizer.literals_ == fitted.literals_
    assert data.binarizer.column_kinds_ == fitted.column_kinds_
    assert data.binarizer.chains_ == fitted.chains_ and data.binarizer.complements_ == fitted.complements_
    for name, thresholds in fitted.thresholds_.items():
        assert np.array_equal(data.binarizer.thresholds_[name], thresholds)
    assert data.approximate == []


def test_patterns_are_the_distinct_binary_rows_with_summed_weights_in_order_of_first_row(mixed_parquet):
    frame, y, path = mixed_parquet
    data = read_stream(path, "label", binarizer=binarizer(), batch_rows=100)
    A = data.binarizer.transform(frame)
    keys = [A[i].tobytes() + bytes([y[i]]) for i in range(len(frame))]
    first = list(dict.fromkeys(keys))
    assert data.n_samples == len(frame)
    assert data.n_patterns == len(first) < len(frame)
    counts = Counter(keys)
    A_rep = data.binarizer.transform(data.X)
    rep_keys = [A_rep[i].tobytes() + bytes([int(data.y.iloc[i])]) for i in range(data.n_patterns)]
    assert rep_keys == first
    assert data.sample_weight.tolist() == [float(counts[key]) for key in first]


def test_a_weight_column_is_summed_per_pattern(tmp_path):
    frame = pd.DataFrame({"x": [1.0, 1.0, 2.0, 3.0, 3.0, 3.0], "label": [0, 0, 1, 1, 1, 0], "w": [0.5, 1.5, 2.0, 1.0, 1.0, 4.0]})
    frame.to_parquet(tmp_path / "w.parquet", row_group_size=2)
    data = read_stream(tmp_path / "w.parquet", "label", "w", binarizer=binarizer(), batch_rows=2)
    assert list(data.X.columns) == ["x"]
    assert data.X["x"].tolist() == [1.0, 2.0, 3.0, 3.0] and data.y.tolist() == [0, 1, 1, 0]
    assert data.sample_weight.tolist() == [2.0, 2.0, 2.0, 4.0]


def test_an_id_like_text_column_is_dropped_as_in_memory(tmp_path):
    n = 400
    frame = pd.DataFrame({"id": [f"row{i}" for i in range(n)], "x": np.arange(n) % 7, "label": np.arange(n) % 2})
    frame.to_parquet(tmp_path / "ids.parquet", row_group_size=50)
    with pytest.warns(IDLikeColumnWarning):
        data = read_stream(tmp_path / "ids.parquet", "label", binarizer=binarizer(), batch_rows=50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeColumnWarning)
        fitted = binarizer().fit(frame.drop(columns="label"))
    assert data.binarizer.dropped_columns_ == ["id"] == fitted.dropped_columns_
    assert data.binarizer.literals_ == fitted.literals_


# -- approximate quantiles ------------------------------------------------------------


#: The documented tolerance (docs/large_data.md): a threshold from a uniform sample of s values lies
#: within 3 / sqrt(s) of its level in the rank (empirical CDF) of all the values.
def rank_tolerance(sample_size: int) -> float:
    return 3.0 / np.sqrt(sample_size)


@pytest.fixture
def many_values_parquet(tmp_path):
    rng = np.random.default_rng(3)
    n = 20_000
    frame = pd.DataFrame({"x": rng.lognormal(size=n), "label": rng.integers(0, 2, n)})
    frame.to_parquet(tmp_path / "many.parquet", row_group_size=3_000)
    return frame, tmp_path / "many.parquet"


def test_above_the_cap_thresholds_are_sample_quantiles_within_the_rank_tolerance(many_values_parquet):
    frame, path = many_values_parquet
    size = 4_000
    data = read_stream(path, "label", binarizer=binarizer(), batch_rows=3_000, exact_distinct=1_000, sample_size=size)
    assert data.approximate == ["x"]
    exact = binarizer().fit(frame[["x"]]).thresholds_["x"]
    approximate = data.binarizer.thresholds_["x"]
    assert len(approximate) == len(exact) == 9
    assert not np.array_equal(approximate, exact)  # really a sample
    values = np.sort(frame["x"].to_numpy())
    ranks = np.searchsorted(values, approximate, side="right") / len(values)
    levels = np.arange(1, 10) / 10
    assert np.max(np.abs(ranks - levels)) <= rank_tolerance(size)
    assert np.all(approximate < values[-1])


def test_the_sample_is_deterministic_for_a_seed(many_values_parquet):
    _, path = many_values_parquet
    settings = dict(binarizer=binarizer(), batch_rows=3_000, exact_distinct=1_000, sample_size=2_000)
    first = read_stream(path, "label", seed=7, **settings).binarizer.thresholds_["x"]
    again = read_stream(path, "label", seed=7, **settings).binarizer.thresholds_["x"]
    other = read_stream(path, "label", seed=8, **settings).binarizer.thresholds_["x"]
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_below_the_cap_thresholds_are_exact(many_values_parquet):
    frame, path = many_values_parquet
    data = read_stream(path, "label", binarizer=binarizer(), batch_rows=3_000, exact_distinct=50_000, sample_size=100)
    assert data.approximate == []
    assert np.array_equal(data.binarizer.thresholds_["x"], binarizer().fit(frame[["x"]]).thresholds_["x"])


# -- errors -----------------------------------------------------------------------------


def test_errors_say_what_is_wrong(tmp_path):
    frame = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "label": [0, 1, 2, 1], "w": [1.0, -1.0, 1.0, 1.0]})
    frame.to_parquet(tmp_path / "d.parquet")
    with pytest.raises(FileNotFoundError, match="not found: give a Parquet file"):
        read_stream(tmp_path / "none.parquet", "label", binarizer=binarizer())
    (tmp_path / "d.csv").write_text("x,label\n1,0\n")
    with pytest.raises(ValueError, match="is not a Parquet file"):
        read_stream(tmp_path / "d.csv", "label", binarizer=binarizer())
    (tmp_path / "broken.parquet").write_text("x,label\n1,0\n")
    with pytest.raises(ValueError, match="could not be read as Parquet"):
        read_stream(tmp_path / "broken.parquet", "label", binarizer=binarizer())
    with pytest.raises(ValueError, match="y 'target' is not a column of .*; its columns are: 'x', 'label', 'w'"):
        read_stream(tmp_path / "d.parquet", "target", binarizer=binarizer())
    with pytest.raises(ValueError, match="has 3 distinct value"):
        read_stream(tmp_path / "d.parquet", "label", binarizer=binarizer())
    frame.assign(label=[0, 1, 0, 1]).to_parquet(tmp_path / "w.parquet")
    with pytest.raises(ValueError, match="Negative values"):
        read_stream(tmp_path / "w.parquet", "label", "w", binarizer=binarizer())
    frame.assign(label=[0, None, 0, 1]).to_parquet(tmp_path / "m.parquet")
    with pytest.raises(ValueError, match="1 missing value"):
        read_stream(tmp_path / "m.parquet", "label", binarizer=binarizer())
    frame.iloc[:0].to_parquet(tmp_path / "empty.parquet")
    with pytest.raises(ValueError, match="has no rows"):
        read_stream(tmp_path / "empty.parquet", "label", binarizer=binarizer())


def test_without_pyarrow_the_error_says_what_to_install(tmp_path):
    pd.DataFrame({"x": [1.0, 2.0], "label": [0, 1]}).to_parquet(tmp_path / "d.parquet")
    code = (
        "import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.dataset'] = None\n"
        "from rulemodels import BooleanRuleClassifier\n"
        f"BooleanRuleClassifier().fit({str(tmp_path / 'd.parquet')!r}, 'label')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "ImportError: reading Parquet needs pyarrow" in result.stderr
    assert "pip install 'rulemodels[large]'" in result.stderr


def test_a_bool_column_with_nulls_in_one_batch_is_read_as_the_whole_column_would_be(tmp_path):
    # Parquet bools read as bool dtype in batches without nulls and as objects (True/False/None) in the others;
    # the whole column is an object column of categories, a column without nulls a flag
    rng = np.random.default_rng(0)
    n = 600
    frame = pd.DataFrame({
        "with_nulls": pd.array(rng.integers(0, 2, n).astype(bool), dtype=object),
        "flag": rng.integers(0, 2, n).astype(bool),
        "label": rng.integers(0, 2, n),
    })
    frame.loc[500:520, "with_nulls"] = None
    frame.to_parquet(tmp_path / "bools.parquet", row_group_size=200)
    whole = pd.read_parquet(tmp_path / "bools.parquet").drop(columns="label")
    data = read_stream(tmp_path / "bools.parquet", "label", binarizer=binarizer(), batch_rows=200)
    fitted = binarizer().fit(whole)
    assert [str(literal) for literal in data.binarizer.literals_] == [str(literal) for literal in fitted.literals_]
    assert "with_nulls == True" in [str(literal) for literal in fitted.literals_]
    assert data.binarizer.column_kinds_ == fitted.column_kinds_


# -- directories whose files differ in columns or types ---------------------------------


def two_files(directory, first: pd.DataFrame, second: pd.DataFrame, *, swap: bool = False):
    """``first`` and ``second`` written as the two files of ``directory``; ``swap``: the second read first."""
    directory.mkdir()
    names = ["part-1.parquet", "part-0.parquet"] if swap else ["part-0.parquet", "part-1.parquet"]
    first.to_parquet(directory / names[0], index=False)
    second.to_parquet(directory / names[1], index=False)
    return directory


def small_frame(n: int = 300, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"a": rng.normal(size=n), "z": rng.normal(size=n).round(1)})
    return frame.assign(label=((frame["a"] > 0) & (frame["z"] > 0)).astype(int))


@pytest.mark.parametrize("swap", [False, True])
def test_a_column_absent_from_one_file_is_missing_there_and_the_warning_names_file_and_column(tmp_path, swap):
    frame = small_frame()
    path = two_files(tmp_path / "d", frame.iloc[:150], frame.iloc[150:].drop(columns="z"), swap=swap)
    lacking = path / ("part-0.parquet" if swap else "part-1.parquet")
    with pytest.warns(ParquetSchemaWarning, match=rf"column 'z' .* absent from 1 of its 2 files \('{lacking}'\).* 150 rows"):
        data = read_stream(path, "label", binarizer=binarizer())
    whole = frame.assign(z=frame["z"].where(frame.index < 150))  # z missing in the rows of the file without it
    fitted = binarizer().fit(whole.drop(columns="label"))
    assert [str(literal) for literal in data.binarizer.literals_] == [str(literal) for literal in fitted.literals_]
    assert parquet_columns(path) == ["a", "z", "label"]  # in either order of the files
    with pytest.warns(ParquetSchemaWarning):
        batches = pd.concat(list(parquet_batches(path)), ignore_index=True)
    assert int(batches["z"].isna().sum()) == 150 and batches["z"].dtype == float


@pytest.mark.parametrize("swap", [False, True])
def test_a_null_typed_column_takes_the_type_of_the_other_files(tmp_path, swap, caplog):
    frame = small_frame()
    nulls = frame.iloc[:150].assign(z=None)  # all None: Parquet type null
    path = two_files(tmp_path / "d", nulls, frame.iloc[150:], swap=swap)
    with warnings.catch_warnings(), caplog.at_level("INFO", logger="rulemodels"):
        warnings.simplefilter("error", ParquetSchemaWarning)  # present in every file: no warning
        data = read_stream(path, "label", binarizer=binarizer())
    assert re.search(r"column 'z' has types double in '[^']+', null in '[^']+'; read as double", caplog.text)
    fitted = binarizer().fit(pd.concat([nulls, frame.iloc[150:]]).astype({"z": float}).drop(columns="label"))
    assert [str(literal) for literal in data.binarizer.literals_] == [str(literal) for literal in fitted.literals_]
    assert data.n_samples == 300


def test_int32_and_int64_columns_are_read_as_int64(tmp_path, caplog):
    frame = small_frame()
    small = frame.iloc[:150].assign(k=np.arange(150, dtype=np.int32))
    large = frame.iloc[150:].assign(k=np.arange(150, dtype=np.int64) + 3_000_000_000)  # beyond int32
    for swap in (False, True):
        path = two_files(tmp_path / f"d{swap}", small, large, swap=swap)
        with caplog.at_level("INFO", logger="rulemodels"):
            batches = pd.concat(list(parquet_batches(path)), ignore_index=True)
        assert batches["k"].dtype == np.int64
        assert sorted(batches["k"]) == sorted([*range(150), *range(3_000_000_000, 3_000_000_150)])
        data = read_stream(path, "label", binarizer=binarizer())
        assert data.n_samples == 300
    assert re.search(r"column 'k' has types int32 in '[^']+', int64 in '[^']+'; read as int64", caplog.text)


@pytest.mark.parametrize("swap", [False, True])
def test_numbers_in_one_file_and_text_in_another_are_refused_naming_file_and_column(tmp_path, swap):
    frame = small_frame()
    numbers = frame.iloc[:150].assign(k=np.arange(150))
    text = frame.iloc[150:].assign(k=[f"code{i % 3}" for i in range(150)])
    path = two_files(tmp_path / "d", numbers, text, swap=swap)
    text_file = path / ("part-0.parquet" if swap else "part-1.parquet")
    for read in (lambda: read_stream(path, "label", binarizer=binarizer()), lambda: list(parquet_batches(path))):
        with pytest.raises(ValueError, match=rf"column 'k' .* no one type holds without loss: .*string in '{text_file}'") as error:
            read()
        assert "with one type in every file" in str(error.value)


def test_an_empty_file_is_skipped(tmp_path):
    frame = small_frame().assign(s=lambda f: np.where(f["a"] > 1, "x", "y").astype(object))
    path = tmp_path / "d"
    write_parquet_parts(frame, path, n_files=2)
    # read first; its text column has no values (Parquet type null) and it lacks 'z': neither matters
    frame.iloc[:0].drop(columns="z").assign(s=pd.Series([], dtype=object)).to_parquet(path / "empty.parquet")
    assert pa_type(path / "empty.parquet", "s") == "null"
    with warnings.catch_warnings():
        warnings.simplefilter("error", ParquetSchemaWarning)
        data = read_stream(path, "label", binarizer=binarizer())
    fitted = binarizer().fit(frame.drop(columns="label"))
    assert [str(literal) for literal in data.binarizer.literals_] == [str(literal) for literal in fitted.literals_]
    assert data.n_samples == len(frame)
    assert parquet_columns(path) == ["a", "z", "label", "s"]


def pa_type(path, column: str) -> str:
    import pyarrow.parquet as pq

    return str(pq.read_schema(path).field(column).type)


@pytest.mark.parametrize("same_columns", [True, False])
def test_a_stored_pandas_index_is_not_a_column(tmp_path, same_columns):
    # DataFrame.to_parquet stores an index that is not a range as a column '__index_level_0__'
    frame = small_frame()
    order = np.random.default_rng(1).permutation(len(frame))
    second = frame.iloc[order[150:]] if same_columns else frame.iloc[order[150:]].drop(columns="z")
    path = tmp_path / "d"
    path.mkdir()
    frame.iloc[order[:150]].to_parquet(path / "part-0.parquet")
    second.to_parquet(path / "part-1.parquet")
    assert "__index_level_0__" in pa_schema_names(path / "part-0.parquet")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ParquetSchemaWarning)
        data = read_stream(path, "label", binarizer=binarizer())
    assert parquet_columns(path) == ["a", "z", "label"]
    assert list(data.X.columns) == ["a", "z"] and data.n_samples == 300


def pa_schema_names(path) -> list[str]:
    import pyarrow.parquet as pq

    return list(pq.read_schema(path).names)


def test_integers_beside_floats_are_read_as_float64_and_a_value_float64_cannot_hold_is_named(tmp_path):
    frame = small_frame()
    ints, floats = frame.iloc[:150].assign(k=np.arange(150)), frame.iloc[150:].assign(k=np.linspace(0, 1, 150))
    path = two_files(tmp_path / "d", ints, floats)
    batches = pd.concat(list(parquet_batches(path)), ignore_index=True)
    assert batches["k"].dtype == np.float64 and batches["k"].iloc[:150].tolist() == list(range(150))
    huge = two_files(tmp_path / "huge", ints.assign(k=np.arange(150) + 2**60), floats)
    with pytest.raises(ValueError, match=rf"data file '{huge / 'part-0.parquet'}' could not be read with the types unified"):
        list(parquet_batches(huge))


def test_a_sampled_numeric_column_is_checked_for_row_numbers_with_what_is_known_exactly(tmp_path):
    """More distinct values than the pass counts: the ID check reads the exact rows, minimum, maximum and
    integers, and the sample for repeats; record numbers are dropped (their missing indicator kept), and
    repeated, fractional or sparse values are not."""
    rng = np.random.default_rng(11)
    n = 6_000
    record = (rng.permutation(n) + 50_000).astype(float)
    record[rng.random(n) < 0.1] = np.nan  # records without a number: their indicator stays
    frame = pd.DataFrame({
        "record": record,
        "repeated": rng.permutation(np.repeat(np.arange(n // 2), 2)),  # each value twice: not one per row
        "fraction": rng.permutation(n) + 0.5,  # unique but not integers
        "sparse": rng.choice(10 * n, size=n, replace=False),  # unique integers filling a tenth of their range
        "label": rng.integers(0, 2, n),
    })
    frame.to_parquet(tmp_path / "records.parquet", row_group_size=1_000)
    with pytest.warns(IDLikeColumnWarning, match=r"column 'record' holds \d+ distinct integers.*'record is missing'"):
        data = read_stream(tmp_path / "records.parquet", "label", binarizer=binarizer(), batch_rows=1_000,
                           exact_distinct=500, sample_size=2_000)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IDLikeColumnWarning)
        fitted = binarizer().fit(frame.drop(columns="label"))
    assert data.binarizer.dropped_columns_ == ["record"] == fitted.dropped_columns_
    assert [str(lit) for lit in data.binarizer.literals_ if lit.feature == "record"] == [
        "record is missing", "record is not missing"]
    assert set(data.approximate) == {"repeated", "fraction", "sparse"}
