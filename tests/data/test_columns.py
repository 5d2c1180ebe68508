"""Columns that should not be in a rule: row numbers are warned about and left out like text
IDs, a column missing in every row is warned about, constant columns are listed; the CLI's ``--drop``
and ``--id``."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from rulemodels import AllMissingColumnWarning, BooleanRuleClassifier, FeatureBinarizer, IDLikeColumnWarning
from rulemodels.cli import main
from tests.helpers import mixed_frame, write_parquet_parts


def with_row_numbers(n: int = 600, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Features with a ``rownames`` column 1..n that predicts the labels perfectly (the rows are sorted by label)."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"rownames": np.arange(1, n + 1), "a": rng.normal(size=n)})
    y = (np.arange(n) >= 0.7 * n).astype(int)
    return frame, y


def fit_recording(X, y, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = BooleanRuleClassifier(**params).fit(X, y)
    return clf, caught


def test_row_numbers_are_left_out_with_a_warning() -> None:
    X, y = with_row_numbers()
    clf, caught = fit_recording(X, y)
    assert "rownames" not in clf.rule_.features and clf.binarizer_.dropped_columns_ == ["rownames"]
    messages = [str(w.message) for w in caught if w.category is IDLikeColumnWarning]
    assert len(messages) == 1 and "column 'rownames' holds 600 distinct integers, one per row" in messages[0]
    assert clf.binarizer_.column_kinds_["rownames"].kind == "numeric"
    kept, _ = fit_recording(X, y, high_cardinality="keep")
    assert kept.rule_.features == ("rownames",)  # kept on request: and then it is the whole rule


@pytest.mark.parametrize("rows", ["shuffled sample", "training fold"])
def test_row_numbers_are_found_in_a_sample_or_a_fold(rows) -> None:
    X, _ = with_row_numbers(n=1000)
    rng = np.random.default_rng(1)
    keep = rng.permutation(1000)[:600] if rows == "shuffled sample" else np.flatnonzero(np.arange(1000) % 5 != 0)
    with pytest.warns(IDLikeColumnWarning, match="rownames"):
        binarizer = FeatureBinarizer().fit(X.iloc[keep])
    assert binarizer.dropped_columns_ == ["rownames"]


@pytest.mark.parametrize(
    "values",
    [
        np.arange(19),  # too few to tell
        np.arange(0, 300, 3),  # spread over three times their count: not row numbers
        np.arange(100) + 0.5,  # not integers
        np.repeat(np.arange(50), 2),  # not one per row
    ],
    ids=["19 values", "sparse", "fractions", "repeated"],
)
def test_numbers_that_are_not_row_numbers_stay_features(values) -> None:
    X = pd.DataFrame({"v": values})
    with warnings.catch_warnings():
        warnings.simplefilter("error", IDLikeColumnWarning)
        binarizer = FeatureBinarizer().fit(X)
    assert binarizer.dropped_columns_ == [] and len(binarizer.literals_) > 0


def test_a_parquet_fit_leaves_row_numbers_out_as_the_in_memory_fit_does(tmp_path) -> None:
    frame, y = mixed_frame(n=1200, seed=3)
    frame.insert(0, "rownames", np.arange(1, len(frame) + 1))
    path = write_parquet_parts(frame.assign(label=y), tmp_path / "parts")
    settings = dict(algorithm="am", n_clauses=2, theta=0.01, thresholds="quantile")
    in_memory, _ = fit_recording(frame, y, **settings)
    streamed, caught = fit_recording(path, "label", **settings)
    assert in_memory.binarizer_.dropped_columns_ == streamed.binarizer_.dropped_columns_ == ["rownames"]
    assert str(streamed.rule_) == str(in_memory.rule_)
    assert any(w.category is IDLikeColumnWarning for w in caught)


def test_a_column_missing_in_every_row_is_warned_about_and_constants_are_listed() -> None:
    X, y = with_row_numbers()
    X = X.drop(columns="rownames").assign(z=np.nan, k=3.0, t="same")
    clf, caught = fit_recording(X, y)
    messages = [str(w.message) for w in caught if w.category is AllMissingColumnWarning]
    assert messages == [
        "column 'z' is missing in all 600 training rows: it yields no literals; check how it was read (a missing-value "
        "marker, a join), or drop it: X.drop(columns=['z']) (CLI: --drop z)"
    ]
    assert clf.binarizer_.constant_columns_ == ["z", "k", "t"]


@pytest.fixture
def id_csv(tmp_path):
    X, y = with_row_numbers(n=300)
    frame = X.assign(customer=[f"C{i:04d}" for i in np.random.default_rng(2).permutation(300)], b=0.0,
                     label=np.where(y == 1, "yes", "no"))
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_cli_drop_and_id_leave_columns_out_and_predict_copies_the_id(id_csv, tmp_path, capsys) -> None:
    path, frame = id_csv
    rule = tmp_path / "rule.json"
    assert main(["fit", str(path), "--target", "label", "--drop", "rownames", "--id", "customer", "--out", str(rule)]) == 0
    out, err = capsys.readouterr()
    assert "data: " in out and "2 features (constant column 'b' gives no literals)" in out
    assert "IDLikeColumnWarning" not in err and "rownames" not in err  # dropped on purpose: no warning
    predictions = tmp_path / "predictions.csv"
    assert main(["predict", str(rule), str(path), "--out", str(predictions)]) == 0
    table = pd.read_csv(predictions)
    assert list(table.columns) == ["customer", "prediction"] and list(table["customer"]) == list(frame["customer"])
    assert main(["predict", str(rule), str(path), "--id", "rownames", "--proba", "--out", str(tmp_path / "p2.csv")]) == 0
    assert list(pd.read_csv(tmp_path / "p2.csv").columns) == ["rownames", "prediction", "probability"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--drop", "rownmes"], "--drop/--id: the column 'rownmes' is not a column of the data (did you mean 'rownames'?)"),
        (["--id", "label"], "--drop/--id name the target column 'label'"),
        (["--drop", "rownames,a,customer,b"], "--drop/--id leave no feature column"),
    ],
)
def test_cli_drop_and_id_are_checked(id_csv, args, message, capsys) -> None:
    path, _ = id_csv
    assert main(["fit", str(path), "--target", "label", *args]) == 1
    assert message in capsys.readouterr().err


def test_cli_predict_id_must_be_a_column(id_csv, tmp_path, capsys) -> None:
    path, _ = id_csv
    rule = tmp_path / "rule.json"
    assert main(["fit", str(path), "--target", "label", "--out", str(rule)]) == 0
    capsys.readouterr()
    assert main(["predict", str(rule), str(path), "--id", "custmer"]) == 1
    assert "--id 'custmer' is not a column of the data (did you mean 'customer'?)" in capsys.readouterr().err


def test_cli_drop_is_refused_on_parquet_with_what_to_do(tmp_path, capsys) -> None:
    frame, y = mixed_frame(n=200, seed=0)
    path = tmp_path / "d.parquet"
    frame.assign(label=y).to_parquet(path)
    assert main(["fit", str(path), "--target", "label", "--drop", "a"]) == 2
    assert "--drop and --id are for CSV files" in capsys.readouterr().err


def test_only_row_numbers_says_they_were_left_out_and_how_to_keep_them() -> None:
    X, y = with_row_numbers(n=100)
    with pytest.warns(IDLikeColumnWarning), pytest.raises(ValueError, match=r"ID-like column\(s\) \['rownames'\] were left "
                                                                           r"out .* high_cardinality='keep'"):
        BooleanRuleClassifier().fit(X[["rownames"]], y)
