"""Bad input gives a specific error through the estimator and the CLI (the table is docs/robustness.md)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import DataConversionWarning

from rulemodels import BooleanRuleClassifier
from rulemodels.cli import main
from rulemodels.data import FeatureBinarizer
from rulemodels.rules import load_model


def with_text(X: pd.DataFrame, column: str, every: int = 6) -> pd.DataFrame:
    out = X.copy()
    out[column] = out[column].astype(object)
    out.loc[::every, column] = "high"
    return out


def fit_rule_file(X: pd.DataFrame, y: np.ndarray, tmp_path, capsys) -> Path:
    """Fit a one-clause SCS rule on (X, y) through the CLI; the saved rule file."""
    train = tmp_path / "train.csv"
    X.assign(outcome=y).to_csv(train, index=False)
    rule_path = tmp_path / "rule.json"
    assert main(["fit", str(train), "--target", "outcome", "--algorithm", "scs", "--clauses", "1",
                 "--theta", "0.001", "--out", str(rule_path)]) == 0
    capsys.readouterr()
    return rule_path


def test_numbers_mixed_with_text_are_rejected_by_the_classifier(pima_120_array_labels):
    X, y = pima_120_array_labels
    with pytest.raises(ValueError, match=r"column 'glucose' mixes numbers \(100 values\) and text \(20 values, e.g. 'high'\)"):
        BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(with_text(X, "glucose"), y)


@pytest.mark.parametrize("values", [
    ["1.5", "3", "high", "7"],  # a CSV column read as text
    [1.5, 3, "high", 7],  # Python numbers and strings in an object column
])
def test_numbers_mixed_with_text_are_rejected_by_the_binarizer(values):
    frame = pd.DataFrame({"c": pd.Series(values * 5, dtype=object)})
    with pytest.raises(ValueError, match=r"column 'c' mixes numbers \(15 values\) and text \(5 values, e.g. 'high'\)"):
        FeatureBinarizer().fit(frame)
    # Asked for explicitly, every value is a category.
    literals = FeatureBinarizer(categorical=["c"]).fit(frame).literals_
    assert {str(lit.value) for lit in literals if lit.op == "=="} == {"1.5", "3", "7", "high"}


def test_text_categories_with_a_few_numeric_codes_stay_categorical():
    frame = pd.DataFrame({"c": ["A1", "3", "B", "C"] * 5, "d": [True, False, "x", "y"] * 5})
    literals = FeatureBinarizer().fit(frame).literals_
    assert {lit.value for lit in literals if lit.feature == "c" and lit.op == "=="} == {"A1", "3", "B", "C"}


def test_cli_reports_a_mixed_csv_column_and_exits_1(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    path = tmp_path / "mixed.csv"
    with_text(X, "glucose").assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulemodels: error: column 'glucose' mixes numbers") and "Traceback" not in err


def test_duplicate_column_names_are_a_value_error_naming_them(pima_120_array_labels):
    X, y = pima_120_array_labels
    doubled = pd.concat([X, X[["glucose"]]], axis=1)
    with pytest.raises(ValueError, match=r"column names \['glucose'\] appear more than once"):
        BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(doubled, y)
    renamed = X.set_axis([*X.columns[:-1], 1], axis=1)  # 1 and "1" collide after str()
    renamed.insert(0, "1", 0.0)
    with pytest.raises(ValueError, match=r"column names \['1'\] appear more than once"):
        FeatureBinarizer().fit(renamed)


def test_cli_rejects_duplicate_csv_header_names_that_pandas_would_rename(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    path = tmp_path / "doubled.csv"
    text = X.assign(outcome=y).to_csv(index=False)
    header, body = text.split("\n", 1)
    path.write_text(header.replace("insulin", "glucose") + "\n" + body)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1"]) == 1
    err = capsys.readouterr().err
    assert "has duplicate column names ['glucose']: rename them" in err and "glucose.1" not in err


def test_cli_predict_decides_rows_with_missing_values_as_the_estimator_does(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    rule_path = fit_rule_file(X, y, tmp_path, capsys)
    rule = load_model(rule_path).rule
    used = sorted(rule.features)
    holes = X.copy()
    holes.loc[[3, 7], used[0]] = np.nan
    data = tmp_path / "holes.csv"
    holes.to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 0
    predictions = pd.read_csv(io.StringIO(capsys.readouterr().out))["prediction"].to_numpy()
    assert predictions.tolist() == rule.evaluate(holes).astype(int).tolist()
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1, theta=0.001).fit(X, y)
    assert clf.rule_ == rule
    assert clf.predict(holes).tolist() == predictions.tolist()


@pytest.mark.parametrize("flag, value, message", [
    # each number is checked by its parameter's one rule (rulemodels.utils.PARAMETERS), in the estimator's words
    ("--n-clauses", "0", "argument --n-clauses: must be an int in the range [1, inf), got '0'"),
    ("--clauses", "0", "argument --clauses: must be an int in the range [1, inf), got '0'"),
    ("--clauses", "two", "argument --clauses: must be an int in the range [1, inf), got 'two'"),
    ("--theta", "-0.1", "argument --theta: must be a float in the range [0, inf), got '-0.1'"),
    ("--theta", "nan", "argument --theta: must be a float in the range [0, inf), got 'nan'"),
    ("--theta", "inf", "argument --theta: must be a float in the range [0, inf), got 'inf'"),
    ("--n-thresholds", "0", "argument --n-thresholds: must be an int in the range [1, inf), got '0'"),
    ("--thresholds", "0", "argument --thresholds: must be an int in the range [1, inf), got '0'"),
    ("--time-limit", "0", "argument --time-limit: must be a float in the range (0, inf), got '0'"),
    ("--max-iter", "-3", "argument --max-iter: must be an int in the range [0, inf), got '-3'"),
])
def test_cli_names_the_flag_of_a_bad_number(flag, value, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(["fit", "pima", flag, value])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    ('{"format": "rulemodels.model", "version": 1, "classes": [0, 1', "is not valid JSON"),
    ('[1, 2]', "must hold a JSON object"),
    ('{"clauses": []}', "is not a rulemodels model file"),
    ('{"format": "rulemodels.model", "version": 1, "classes": [0, 1, 2], "rule": {}}', "'classes' must be a list of two JSON scalars"),
    ('{"format": "rulemodels.model", "version": 1, "classes": [0, 1], "rule": {"form": "dnf"}}', "rule.json': "),
    ('{"format": "rulemodels.rule", "version": 1, "form": "dnf", "clauses": [[{"feature": "a", "op": ">", "threshold": 1}]]}',
     "rule.json': clauses[0][0]"),
])
def test_cli_predict_rejects_malformed_rule_files_naming_the_file(content, message, tmp_path, capsys):
    rule_path = tmp_path / "rule.json"
    rule_path.write_text(content)
    data = tmp_path / "data.csv"
    pd.DataFrame({"a": [1.0, 2.0]}).to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulemodels: error: ") and message in err and "Traceback" not in err
    assert str(rule_path) in err


@pytest.mark.parametrize("extra", [[], ["--positive", "1"]])
def test_cli_single_class_target_says_both_classes_are_needed(extra, tmp_path, capsys):
    path = tmp_path / "one.csv"
    pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "outcome": [1, 1, 1, 1]}).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", *extra]) == 1
    err = capsys.readouterr().err
    assert "target column 'outcome' has a single value (1)" in err and "rows of both classes" in err
    assert "--positive VALUE" not in err and "OneVsRest" not in err


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_nan_and_inf_in_features_are_accepted_by_the_estimator_and_the_cli(value, pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    spoiled = X.copy()
    spoiled.loc[5, "bmi"] = value
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(spoiled, y)
    assert clf.predict(spoiled).shape == (len(X),)
    path = tmp_path / "spoiled.csv"
    spoiled.assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1"]) == 0
    assert "baseline: " in capsys.readouterr().out


def test_nan_error_is_still_available_in_the_estimator_and_the_cli(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    spoiled = X.copy()
    spoiled.loc[[5, 9], "bmi"] = np.nan
    message = "column 'bmi' has 2 missing values and nan='error' was asked for"
    with pytest.raises(ValueError, match=re.escape(message)):
        BooleanRuleClassifier(algorithm="scs", n_clauses=1, nan="error").fit(spoiled, y)
    path = tmp_path / "spoiled.csv"
    spoiled.assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--nan", "error"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulemodels: error: ") and message in err and "Traceback" not in err


def test_missing_labels_are_named_in_the_users_terms(pima_120_array_labels):
    X, y = pima_120_array_labels
    labels = pd.Series(y, dtype=object)
    labels[[2, 4]] = None
    with pytest.raises(ValueError, match=r"y has 2 missing label\(s\) \(None or NaN\) at row\(s\) 2, 4: drop those rows"):
        BooleanRuleClassifier(algorithm="scs").fit(X, labels)


def test_a_constant_column_gets_no_literals_and_the_fit_goes_on(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    padded = X.assign(constant=7.0)
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1, theta=0.001).fit(padded, y)
    assert all(literal.feature != "constant" for literal in clf.binarizer_.literals_)
    assert str(clf.rule_) == str(BooleanRuleClassifier(algorithm="scs", n_clauses=1, theta=0.001).fit(X, y).rule_)
    path = tmp_path / "constant.csv"
    padded.assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1", "--theta", "0.001"]) == 0
    assert str(clf.rule_) in capsys.readouterr().out


def test_only_constant_columns_is_a_clear_error(tmp_path, capsys):
    X = pd.DataFrame({"a": [1.0] * 6, "b": ["x"] * 6})
    y = np.array([0, 1] * 3)
    message = "every feature is constant: there is nothing to learn a rule from"
    with pytest.raises(ValueError, match=message):
        BooleanRuleClassifier(algorithm="scs").fit(X, y)
    path = tmp_path / "flat.csv"
    X.assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome"]) == 1
    assert capsys.readouterr().err == f"rulemodels: error: {message}\n"


def test_an_empty_file_and_a_header_only_file_are_named(tmp_path, capsys):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"")
    assert main(["fit", str(empty), "--target", "outcome"]) == 1
    assert capsys.readouterr().err == f"rulemodels: error: data file '{empty}' is empty\n"
    header = tmp_path / "header.csv"
    header.write_text("a,b,outcome\n")
    assert main(["fit", str(header), "--target", "outcome"]) == 1
    assert capsys.readouterr().err == f"rulemodels: error: data file '{header}' has a header but no rows\n"


def test_cli_unknown_algorithm_exits_2_and_lists_the_choices(capsys):
    with pytest.raises(SystemExit) as info:
        main(["fit", "pima", "--algorithm", "foo"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --algorithm: invalid choice: 'foo'" in err
    assert all(name in err for name in ("am", "bcd", "tlp", "scs", "scn", "exact"))


@pytest.mark.parametrize("change, message", [
    (lambda X: X.drop(columns="age"), "X lacks column(s) ['age'] seen in fit"),
    (lambda X: X[X.columns[::-1]], "X has the fitted columns in a different order; reorder them with X[clf.feature_names_in_]"),
    (lambda X: X.assign(extra=1.0), "X has column(s) ['extra'] not seen in fit"),
])
def test_estimator_names_missing_unexpected_and_reordered_columns(change, message, pima_120_array_labels):
    X, y = pima_120_array_labels
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, y)
    with pytest.raises(ValueError, match="^The feature names should match those that were passed during fit: " + re.escape(message)):
        clf.predict(change(X))
    if "lacks" not in message:  # the fix the message suggests works
        np.testing.assert_array_equal(clf.predict(change(X)[clf.feature_names_in_]), clf.predict(X))


def test_cli_predict_matches_columns_by_name_and_names_a_missing_one(pima_120_array_labels, tmp_path, capsys):
    X, y = pima_120_array_labels
    rule_path = fit_rule_file(X, y, tmp_path, capsys)
    data = tmp_path / "data.csv"
    X.to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 0
    in_order = capsys.readouterr().out
    X[X.columns[::-1]].to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 0
    assert capsys.readouterr().out == in_order

    used = sorted(load_model(rule_path).rule.features)
    X.drop(columns=used[0]).to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 1
    assert capsys.readouterr().err == f"rulemodels: error: the data has no column {used[0]!r}, which the rule uses\n"
    unused = [column for column in X.columns if column not in used]
    X.drop(columns=unused).to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 0
    assert capsys.readouterr().out == in_order


def test_rule_files_are_data_never_code(tmp_path, capsys):
    """A feature name or operator that looks like Python is matched as text, never run."""
    marker = tmp_path / "pwned"
    payload = f"__import__('os').system('touch {marker}')"
    data = tmp_path / "data.csv"
    pd.DataFrame({"a": [1.0, 2.0]}).to_csv(data, index=False)
    rule_path = tmp_path / "rule.json"
    errors = []
    for literal in ({"feature": payload, "op": ">", "value": 1}, {"feature": "a", "op": payload, "value": 1},
                    {"feature": "a", "op": ">", "value": payload}):
        rule_path.write_text(json.dumps({"format": "rulemodels.rule", "version": 1, "form": "dnf", "clauses": [[literal]]}))
        assert main(["predict", str(rule_path), str(data)]) == 1
        errors.append(capsys.readouterr().err)
    assert not marker.exists()
    assert f"the data has no column {payload!r}" in errors[0]
    assert all(err.startswith(f"rulemodels: error: '{rule_path}': clauses[0][0]") for err in errors[1:]), errors


def test_a_one_column_dataframe_y_is_raveled_with_a_warning_and_two_columns_are_refused(pima_120_array_labels):
    X, y = pima_120_array_labels
    expected = BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, y)
    with pytest.warns(DataConversionWarning, match="A column-vector y was passed when a 1d array was expected"):
        clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, pd.DataFrame({"outcome": y}))
    assert str(clf.rule_) == str(expected.rule_)
    with pytest.raises(ValueError, match=r"y must be 1-dimensional \(one label per sample\), got shape \(120, 2\)"):
        BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(X, pd.DataFrame({"a": y, "b": y}))
