"""Column kinds survive the trip from fit to predict.

Text categories that look like numbers (ICD or ZIP codes) still match when a
new batch is parsed as int64 or float64; the rule file records each used
column's kind; a column whose kind drifted gets one warning; object columns of
numbers and Decimal columns are numeric.
"""

from __future__ import annotations

import json
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, ColumnKindDriftWarning, FeatureBinarizer, Literal, Rule
from rulemodels.cli import main
from rulemodels.rules import ColumnKind, conform, load_model, save_model

#: Training codes: some look like numbers, most do not, so pandas keeps the column as text.
TRAIN_CODES = ["250", "428", "401", "E11", "V58", "E78", "Z79", "I10"]
#: A later batch holds only the numeric-looking codes, so pandas reads the column as int64.
BATCH_CODES = ["250", "428", "401"]
POSITIVE_CODES = ["250", "428"]


def icd_frames(seed: int = 0, n: int = 300) -> tuple[pd.DataFrame, np.ndarray, pd.DataFrame, np.ndarray]:
    """A training frame of text codes and a batch of the same codes as int64; the label is the code's group."""
    rng = np.random.default_rng(seed)
    codes = rng.choice(TRAIN_CODES, n)
    X = pd.DataFrame({"icd": codes, "age": rng.integers(20, 90, n)})
    y = np.isin(codes, POSITIVE_CODES).astype(int)
    batch_codes = rng.choice(BATCH_CODES, n)
    batch = pd.DataFrame({"icd": batch_codes.astype(np.int64), "age": rng.integers(20, 90, n)})
    return X, y, batch, np.isin(batch_codes, POSITIVE_CODES).astype(int)


def drift_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, ColumnKindDriftWarning)]


@pytest.fixture(scope="module")
def icd_clf():
    X, y, _, _ = icd_frames()
    return BooleanRuleClassifier(n_clauses=2, theta=0.01).fit(X, y)


def test_text_codes_read_as_int64_still_match_in_the_estimator(icd_clf):
    X, y, batch, batch_y = icd_frames()
    assert batch["icd"].dtype == np.int64
    text_accuracy = np.mean(icd_clf.predict(batch.astype({"icd": str})) == batch_y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        int_accuracy = np.mean(icd_clf.predict(batch) == batch_y)
    assert text_accuracy == 1.0 and int_accuracy == text_accuracy  # it was 0.33 before: no code matched
    messages = drift_warnings(caught)
    assert len(messages) == 1  # one per column, not one per row
    assert "column 'icd' was learned as text categories" in messages[0]
    assert "int64" in messages[0] and "matched as text" in messages[0] and "dtype={'icd': str}" in messages[0]


def test_float_codes_with_missing_values_match_as_text_and_stay_missing(icd_clf):
    _, _, batch, _ = icd_frames()
    with_text = batch.astype({"icd": str}).astype({"icd": object})
    with_text.loc[:9, "icd"] = np.nan
    as_float = batch.astype({"icd": float})
    as_float.loc[:9, "icd"] = np.nan
    assert str(as_float["icd"].iloc[20]).endswith(".0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ColumnKindDriftWarning)
        assert np.array_equal(icd_clf.predict(as_float), icd_clf.predict(with_text))
        explained = icd_clf.explain(as_float)
    assert np.array_equal(explained["prediction"].to_numpy(), icd_clf.predict(with_text))
    with pytest.warns(ColumnKindDriftWarning, match="float64, e.g. 250.0"):
        converted = conform(as_float, {"icd": ColumnKind("categorical", "text")})
    assert converted["icd"].iloc[:10].isna().all() and converted["icd"].iloc[20] in BATCH_CODES


def test_numbers_as_text_keep_their_shortest_form():
    frame = pd.DataFrame({"code": pd.Series([250, 250.5, Decimal("7"), Decimal("7.25"), None], dtype=object)})
    with pytest.warns(ColumnKindDriftWarning):
        out = conform(frame, {"code": ColumnKind("categorical", "text")})
    assert out["code"].iloc[:4].tolist() == ["250", "250.5", "7", "7.25"] and pd.isna(out["code"].iloc[4])
    assert frame["code"].iloc[0] == 250  # the caller's frame is not changed


def test_a_saved_model_predicts_int64_codes_like_text_codes(icd_clf, tmp_path):
    X, y, batch, batch_y = icd_frames()
    path = tmp_path / "rule.json"
    save_model(path, icd_clf.rule_, (0, 1), "y", list(X.columns), pattern_rates=icd_clf.pattern_rates_,
               column_kinds=icd_clf.binarizer_.column_kinds_)
    document = json.loads(path.read_text())
    assert document["column_kinds"]["icd"] == {"kind": "categorical", "values": "text"}
    assert set(document["column_kinds"]) == set(icd_clf.rule_.features)  # only the columns the rule uses
    model = load_model(path)
    assert model.column_kinds["icd"] == ColumnKind("categorical", "text")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        accuracy = np.mean(model.predict(batch) == batch_y)
        proba = model.predict_proba(batch)
        reasons = model.explain(batch)
    assert accuracy == np.mean(model.predict(X) == y) == 1.0
    assert np.array_equal(proba, model.predict_proba(batch.astype({"icd": str})))
    assert np.array_equal(reasons["prediction"].to_numpy(), model.predict(batch.astype({"icd": str})))
    assert len(drift_warnings(caught)) == 3  # once per call, for the one drifted column


def write_icd_csvs(folder, n: int = 300):
    """training.csv (text codes with a leading-zero ZIP-like code) and batch.csv (only numeric-looking codes)."""
    rng = np.random.default_rng(3)
    codes = rng.choice([*TRAIN_CODES, "02110"], n)
    train = pd.DataFrame({"icd": codes, "age": rng.integers(20, 90, n),
                          "y": np.isin(codes, [*POSITIVE_CODES, "02110"]).astype(int)})
    batch_codes = rng.choice([*BATCH_CODES, "02110"], n)
    batch = pd.DataFrame({"icd": batch_codes, "age": rng.integers(20, 90, n),
                          "y": np.isin(batch_codes, [*POSITIVE_CODES, "02110"]).astype(int)})
    train.to_csv(folder / "training.csv", index=False)
    batch.to_csv(folder / "batch.csv", index=False)
    assert pd.read_csv(folder / "batch.csv")["icd"].dtype == np.int64  # what pandas guesses for the batch
    return folder / "training.csv", folder / "batch.csv", batch


def test_cli_predict_reads_text_codes_as_text_so_accuracy_and_leading_zeros_survive(tmp_path, capsys):
    training, batch_csv, batch = write_icd_csvs(tmp_path)
    rule = tmp_path / "rule.json"
    assert main(["fit", str(training), "--target", "y", "--clauses", "3", "--theta", "0.01", "--out", str(rule)]) == 0
    fit_output = capsys.readouterr().out
    assert "accuracy 1.0000" in fit_output
    assert json.loads(rule.read_text())["column_kinds"]["icd"] == {"kind": "categorical", "values": "text"}
    out = tmp_path / "predictions.csv"
    assert main(["predict", str(rule), str(batch_csv), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "accuracy: 1.0000" in err  # lower before: int64 codes matched no text category
    assert "warning" not in err  # read as text: nothing drifted
    predictions = pd.read_csv(out)["prediction"].to_numpy()
    assert np.array_equal(predictions, batch["y"].to_numpy())
    zeros = batch["icd"] == "02110"
    assert zeros.any() and (predictions[zeros.to_numpy()] == 1).all()  # '02110' was read as 2110 before


def test_cli_warns_once_per_drifted_column_and_predicts(tmp_path, capsys):
    training, batch_csv, batch = write_icd_csvs(tmp_path)
    rule = tmp_path / "rule.json"
    assert main(["fit", str(training), "--target", "y", "--clauses", "3", "--theta", "0.01", "--out", str(rule)]) == 0
    document = json.loads(rule.read_text())
    document["rule"]["clauses"][0].append({"feature": "age", "op": ">", "value": -1.0})  # a rule on age too
    document["column_kinds"]["age"] = {"kind": "numeric"}
    rule.write_text(json.dumps(document))
    drifted = batch.astype({"age": object})
    drifted.loc[:4, "age"] = "unknown"
    drifted.to_csv(batch_csv, index=False)
    assert main(["predict", str(rule), str(batch_csv), "--proba", "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "warning" in line]
    assert len(lines) == 1, err
    assert "column 'age' was learned as numbers" in lines[0] and "'unknown'" in lines[0]
    assert "treated as missing" in lines[0]


def test_old_rule_files_without_kinds_still_load_and_predict(tmp_path):
    """A file as written before column kinds were saved (2026-11-24; no column_kinds) loads and predicts as before."""
    rule = Rule.dnf([[Literal("icd", "==", "250"), Literal("age", ">", 40.0)], [Literal("icd", "==", "E11")]])
    old = {"format": "rulemodels.model", "version": 1, "target": "y", "classes": ["no", "yes"],
           "features": ["icd", "age"], "rule": rule.to_dict(), "metadata": {"algorithm": "scs"}}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old, indent=2))
    model = load_model(path)
    assert model.column_kinds == {}
    X = pd.DataFrame({"icd": ["250", "E11", "401", "250"], "age": [50, 30, 60, 30]})
    assert model.predict(X).tolist() == ["yes", "yes", "no", "no"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no kinds: no coercion, no warning (today's behaviour)
        assert model.predict(X.assign(icd=[250, 1, 2, 3])).tolist() == ["no", "no", "no", "no"]


# The column_kinds field is checked with every other field of a model file (tests/cli/test_cli_deploy.py).


def test_save_model_refuses_kinds_that_miss_a_used_column(tmp_path):
    rule = Rule.dnf([[Literal("icd", "==", "250"), Literal("age", ">", 3.0)]])
    with pytest.raises(ValueError, match=r"'column_kinds' has no entry for \['age'\], which the rule uses"):
        save_model(tmp_path / "r.json", rule, (0, 1), "y", ["icd", "age"],
                   column_kinds={"icd": ColumnKind("categorical", "text")})
    assert not (tmp_path / "r.json").exists()


def test_drift_of_flags_numbers_and_number_categories_warns_once_per_column():
    kinds = {"smoker": ColumnKind("flag"), "age": ColumnKind("numeric"), "grade": ColumnKind("categorical", "numbers")}
    frame = pd.DataFrame({
        "smoker": pd.Series([True, "no", 2, "FALSE", None, "no"], dtype=object),
        "age": pd.Series([30, "old", 50.5, "old", None, Decimal("7")], dtype=object),
        "grade": pd.Series(["1", "x", 2, 3, None, "2.5"], dtype=object),
    })
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = conform(frame, kinds)
    messages = drift_warnings(caught)
    assert len(messages) == 3
    flag, numeric, categories = sorted(messages, key=lambda m: ["smoker", "age", "grade"].index(m.split("'")[1]))
    assert "column 'smoker' was learned as a 0/1 flag" in flag and "text other than true/false counts as missing" in flag
    assert "numbers other than 0 and 1 make both 'smoker' and 'not smoker' false" in flag
    assert "column 'age' was learned as numbers" in numeric and "2 values" in numeric and "treated as missing" in numeric
    assert "column 'grade' was learned as number categories" in categories and "matches none" in categories
    assert out["smoker"].iloc[0] == 1.0 and np.isnan(out["smoker"].iloc[1]) and out["smoker"].iloc[2] == 2.0
    assert out["smoker"].iloc[3] == 0.0 and np.isnan(out["smoker"].iloc[4])
    assert out["age"].iloc[0] == 30 and np.isnan(out["age"].iloc[1]) and out["age"].iloc[5] == 7
    assert out["grade"].tolist()[:4] == [1, "x", 2, 3] and out["grade"].iloc[5] == 2.5
    # the literals then read them as documented
    assert Literal("smoker", "is_false").evaluate(out).tolist() == [False, False, False, True, False, False]
    assert Literal("grade", "==", 1).evaluate(out).tolist() == [True, False, False, False, False, False]


def test_columns_of_the_learned_kind_give_no_warning():
    kinds = {"smoker": ColumnKind("flag"), "age": ColumnKind("numeric"), "icd": ColumnKind("categorical", "text")}
    frame = pd.DataFrame({"smoker": [True, False, True], "age": [1.5, np.nan, 3.0], "icd": ["250", None, "E11"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = conform(frame, kinds)
        assert out is frame  # nothing to change: the frame as given
        conform(pd.DataFrame({"smoker": [0, 1, np.nan], "age": pd.Series([1, 2, None], dtype=object)}), kinds)


def test_object_columns_of_numbers_get_thresholds_not_one_category_per_value():
    rng = np.random.default_rng(0)
    values = rng.integers(0, 100, 200)
    X = pd.DataFrame({"v": pd.Series([int(v) for v in values], dtype=object)})
    binarizer = FeatureBinarizer().fit(X)
    assert "v" in binarizer.thresholds_ and "v" not in binarizer.categories_  # was: 'v == 0', 'v == 1', ...
    assert binarizer.column_kinds_["v"] == ColumnKind("numeric")
    y = (values > 50).astype(int)
    clf = BooleanRuleClassifier(n_clauses=1, theta=0.01).fit(X, y)
    unseen = pd.DataFrame({"v": pd.Series([1000, -5, 90.5], dtype=object)})  # values never seen in training
    assert clf.predict(unseen).tolist() == [1, 0, 1]
    # text that looks like a number stays text
    text = FeatureBinarizer().fit(pd.DataFrame({"v": ["250", "E11", "V58"] * 3}))
    assert text.categories_["v"] == ["250", "E11", "V58"]
    assert text.column_kinds_["v"] == ColumnKind("categorical", "text")


def test_decimal_columns_are_numeric():
    rng = np.random.default_rng(1)
    amounts = np.round(rng.uniform(0, 1000, 200), 2)
    X = pd.DataFrame({"amount": pd.Series([Decimal(f"{a:.2f}") for a in amounts], dtype=object)})
    X.loc[3, "amount"] = None
    y = (amounts > 500).astype(int)
    clf = BooleanRuleClassifier(n_clauses=1, theta=0.01).fit(X, y)  # refused before: Decimal is no category
    assert clf.binarizer_.column_kinds_["amount"] == ColumnKind("numeric")
    assert clf.rule_.literals[0].op in (">", "<=")
    batch = pd.DataFrame({"amount": pd.Series([Decimal("999.99"), Decimal("0.01"), None], dtype=object)})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ColumnKindDriftWarning)
        assert clf.predict(batch)[:2].tolist() == [1, 0]


def test_drift_in_the_estimator_warns_once_per_column(icd_clf):
    _, _, batch, _ = icd_frames()
    drifted = batch.astype({"age": object})
    drifted.loc[:50, "age"] = "n/a"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        icd_clf.predict(drifted)  # before: ValueError "column 'age' has non-numeric values"
    messages = drift_warnings(caught)
    assert len(messages) == 2 and any("column 'age' was learned as numbers" in m for m in messages)


def test_mostly_numeric_codes_fit_as_categories_with_categorical(tmp_path, capsys):
    """ICD-9 codes are mostly digits ("250", "401.9") with a few letters ("V45"): the binarizer's guard against a
    number column with stray text refuses them, and says how to declare them; --categorical (or the category
    dtype) makes every value a category, and predict on a batch of digit-only codes matches them as text."""
    rng = np.random.default_rng(3)
    codes = np.array(["250", "250.01", "401.9", "414", "V45", "02110"])
    icd = rng.choice(codes, size=240, p=[0.25, 0.1, 0.2, 0.2, 0.1, 0.15])
    age = rng.integers(20, 90, size=240)
    y = np.isin(icd, ["250", "250.01", "02110"]).astype(int)
    pd.DataFrame({"icd": icd, "age": age, "y": y}).to_csv(tmp_path / "train.csv", index=False)
    assert main(["fit", str(tmp_path / "train.csv"), "--target", "y"]) == 1
    assert "--categorical icd" in capsys.readouterr().err
    rule = tmp_path / "rule.json"
    assert main(["fit", str(tmp_path / "train.csv"), "--target", "y", "--categorical", "icd", "--clauses", "1",
                 "--out", str(rule)]) == 0
    assert "training error: 0.0000" in capsys.readouterr().out
    assert json.loads(rule.read_text())["column_kinds"]["icd"] == {"kind": "categorical", "values": "text"}
    batch = pd.DataFrame({"icd": ["250", "414", "02110", "401.9"], "age": [50, 60, 70, 80], "y": [1, 0, 1, 0]})
    batch.to_csv(tmp_path / "batch.csv", index=False)  # digits only: pandas would read int64 and float
    out = tmp_path / "p.csv"
    assert main(["predict", str(rule), str(tmp_path / "batch.csv"), "--out", str(out)]) == 0
    assert pd.read_csv(out)["prediction"].tolist() == [1, 0, 1, 0]
    assert main(["fit", str(tmp_path / "train.csv"), "--target", "y", "--categorical", "nope"]) == 1
    assert "--categorical names column(s) 'nope'" in capsys.readouterr().err
    frame = pd.read_csv(tmp_path / "train.csv", dtype={"icd": str})
    frame["icd"] = frame["icd"].astype("category")  # the same through the API
    clf = BooleanRuleClassifier(n_clauses=1).fit(frame[["icd", "age"]], frame["y"])
    assert clf.score(frame[["icd", "age"]], frame["y"]) == 1.0
