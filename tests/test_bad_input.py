"""Bad input gives a specific error (issue 9): columns mixing numbers and text, duplicate column names."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, load_dataset
from rulemodels.cli import main
from rulemodels.data import FeatureBinarizer


@pytest.fixture(scope="module")
def pima_small():
    X, y = load_dataset("pima")
    return X.iloc[:120].reset_index(drop=True), np.asarray(y)[:120]


def with_text(X: pd.DataFrame, column: str, every: int = 6) -> pd.DataFrame:
    out = X.copy()
    out[column] = out[column].astype(object)
    out.loc[::every, column] = "high"
    return out


def test_numbers_mixed_with_text_are_rejected_by_the_classifier(pima_small):
    X, y = pima_small
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


def test_cli_reports_a_mixed_csv_column_and_exits_1(pima_small, tmp_path, capsys):
    X, y = pima_small
    path = tmp_path / "mixed.csv"
    with_text(X, "glucose").assign(outcome=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rulemodels: error: column 'glucose' mixes numbers") and "Traceback" not in err


def test_duplicate_column_names_are_a_value_error_naming_them(pima_small):
    X, y = pima_small
    doubled = pd.concat([X, X[["glucose"]]], axis=1)
    with pytest.raises(ValueError, match=r"column names \['glucose'\] appear more than once"):
        BooleanRuleClassifier(algorithm="scs", n_clauses=1).fit(doubled, y)
    renamed = X.set_axis([*X.columns[:-1], 1], axis=1)  # 1 and "1" collide after str()
    renamed.insert(0, "1", 0.0)
    with pytest.raises(ValueError, match=r"column names \['1'\] appear more than once"):
        FeatureBinarizer().fit(renamed)


def test_cli_rejects_duplicate_csv_header_names_that_pandas_would_rename(pima_small, tmp_path, capsys):
    X, y = pima_small
    path = tmp_path / "doubled.csv"
    text = X.assign(outcome=y).to_csv(index=False)
    header, body = text.split("\n", 1)
    path.write_text(header.replace("insulin", "glucose") + "\n" + body)
    assert main(["fit", str(path), "--target", "outcome", "--algorithm", "scs", "--clauses", "1"]) == 1
    err = capsys.readouterr().err
    assert "has duplicate column names ['glucose']: rename them" in err and "glucose.1" not in err


def test_cli_predict_refuses_missing_values_in_columns_the_rule_uses(pima_small, tmp_path, capsys):
    X, y = pima_small
    train = tmp_path / "train.csv"
    X.assign(outcome=y).to_csv(train, index=False)
    rule_path = tmp_path / "rule.json"
    assert main(["fit", str(train), "--target", "outcome", "--algorithm", "scs", "--clauses", "1",
                 "--theta", "0.001", "--out", str(rule_path)]) == 0
    capsys.readouterr()
    from rulemodels.io import load_model

    used = sorted(load_model(rule_path).rule.features)
    unused = next(column for column in X.columns if column not in used)
    holes = X.copy()
    holes.loc[[3, 7], used[0]] = np.nan
    holes.loc[[1], unused] = np.nan  # a column the rule does not read may have holes
    data = tmp_path / "holes.csv"
    holes.to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 1
    err = capsys.readouterr().err
    assert f"column {used[0]!r} has 2 missing value(s) (rows 3, 7), which the rule uses" in err
    holes.loc[[3, 7], used[0]] = X.loc[[3, 7], used[0]]
    holes.to_csv(data, index=False)
    assert main(["predict", str(rule_path), str(data)]) == 0
    assert capsys.readouterr().out.count("\n") == len(X) + 1  # header + one prediction per row


@pytest.mark.parametrize("flag, value, message", [
    ("--clauses", "0", "argument --clauses: must be an integer >= 1, got '0'"),
    ("--clauses", "two", "argument --clauses: must be an integer >= 1, got 'two'"),
    ("--theta", "-0.1", "argument --theta: must be a number >= 0, got '-0.1'"),
    ("--theta", "nan", "argument --theta: must be a number >= 0, got 'nan'"),
    ("--thresholds", "0", "argument --thresholds: must be an integer >= 1, got '0'"),
    ("--time-limit", "0", "argument --time-limit: must be a number > 0, got '0'"),
    ("--max-iter", "-3", "argument --max-iter: must be an integer >= 1, got '-3'"),
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
