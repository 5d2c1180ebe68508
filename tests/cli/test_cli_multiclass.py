"""The command line on a target with more than two values: an ordered rule list."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, load_dataset
from rulemodels.cli import main


@pytest.fixture
def three_csv(tmp_path):
    """Pima with a text label of three values (diabetics split by their median glucose) and a missing bmi."""
    X, y = load_dataset("pima")
    X = X.iloc[:300].copy()
    y = y.iloc[:300]
    median = X["glucose"][y == 1].median()
    X.loc[X.index[:5], "bmi"] = np.nan
    labels = np.where(y == 0, "healthy", np.where(X["glucose"] > median, "high", "low"))
    path = tmp_path / "three.csv"
    X.assign(status=labels).to_csv(path, index=False)
    return path, X, labels


def read_table(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text))


def test_fit_saves_a_rule_list_and_predict_explain_and_proba_follow_it(three_csv, tmp_path, capsys):
    path, X, labels = three_csv
    rule_path = tmp_path / "list.json"
    assert main(["fit", str(path), "--target", "status", "--theta", "0.01", "--out", str(rule_path)]) == 0
    out = capsys.readouterr().out
    assert "3 classes:" in out and "rule list (status;" in out and "  ELSE status = " in out
    document = json.loads(rule_path.read_text())
    assert document["version"] == 2 and document["classes"] == ["healthy", "high", "low"]
    assert document["rule"]["format"] == "rulemodels.rule_list" and "class_rates" in document
    estimator = BooleanRuleClassifier(theta=0.01).fit(X, labels)
    assert document["rule"] == estimator.rule_.to_dict()

    assert main(["predict", str(rule_path), str(path), "--explain", "--proba"]) == 0
    captured = capsys.readouterr()
    table = read_table(captured.out)
    assert list(table.columns) == ["prediction", "probability_healthy", "probability_high", "probability_low", "reason"]
    assert table["prediction"].tolist() == estimator.predict(X).tolist()
    assert np.allclose(table.filter(like="probability_").to_numpy(), estimator.predict_proba(X))
    assert table["reason"].str.match(r"step \d gives class = |no step holds, so the default class = ").all()
    accuracy = float(np.mean(estimator.predict(X) == labels))
    assert f"accuracy: {accuracy:.4f}" in captured.err and "predicted low" in captured.err


def test_integer_labels_stay_integers_in_the_file_and_the_predictions(three_csv, tmp_path, capsys):
    path, X, labels = three_csv
    frame = pd.read_csv(path)
    frame["status"] = frame["status"].map({"healthy": 0, "low": 1, "high": 2})
    numbers = tmp_path / "numbers.csv"
    frame.to_csv(numbers, index=False)
    rule_path = tmp_path / "list.json"
    assert main(["fit", str(numbers), "--target", "status", "--theta", "0.01", "--class-order", "rarest", "--out", str(rule_path)]) == 0
    capsys.readouterr()
    document = json.loads(rule_path.read_text())
    assert document["classes"] == [0, 1, 2] and all(type(step["class"]) is int for step in document["rule"]["steps"])
    assert document["rule"]["default"] == 0  # the most frequent class is the default with --class-order rarest
    assert main(["predict", str(rule_path), str(numbers)]) == 0
    predicted = read_table(capsys.readouterr().out)["prediction"]
    estimator = BooleanRuleClassifier(theta=0.01, class_order="rarest").fit(frame.drop(columns="status"), frame["status"])
    assert predicted.tolist() == estimator.predict(frame.drop(columns="status")).tolist()


def test_every_export_of_a_rule_list_predicts_what_predict_does(three_csv, tmp_path, capsys):
    import sqlite3

    path, X, labels = three_csv
    rule_path = tmp_path / "list.json"
    assert main(["fit", str(path), "--target", "status", "--theta", "0.01", "--out", str(rule_path)]) == 0
    assert main(["predict", str(rule_path), str(path)]) == 0
    predicted = read_table(capsys.readouterr().out.split("saved to")[-1].split("\n", 1)[1])["prediction"].tolist()
    frame = pd.read_csv(path)
    for fmt in ("sql", "query", "python"):
        out = tmp_path / f"export.{fmt}"
        assert main(["export", str(rule_path), "--format", fmt, "--out", str(out)]) == 0
        assert "the value is the class of status" in capsys.readouterr().err
        text = out.read_text()
        if fmt == "sql":
            connection = sqlite3.connect(":memory:")
            frame.to_sql("data", connection, index=False)
            got = [row[0] for row in connection.execute(f"SELECT {text} FROM data")]
        elif fmt == "query":
            queries = json.loads(text)
            masks = np.array([frame.eval(q).to_numpy(dtype=bool) for q in queries.values()])
            assert (masks.sum(axis=0) == 1).all()
            got = [list(queries)[k] for k in masks.argmax(axis=0)]
        else:
            namespace: dict = {}
            exec(text, namespace)
            got = [namespace["predict_row"](row) for row in frame.astype(object).where(frame.notna(), None).to_dict("records")]
        assert got == predicted, fmt


def test_exact_refuses_a_target_of_three_values_and_says_what_to_do(three_csv, capsys):
    path, _, _ = three_csv
    assert main(["exact", str(path), "--target", "status"]) == 1
    err = capsys.readouterr().err
    assert "has 3 distinct values (healthy, high, low); pass --positive VALUE" in err
    assert "'rulemodels fit' learns an ordered rule list" in err


def test_fit_algorithm_exact_refuses_three_classes(three_csv, capsys):
    path, _, _ = three_csv
    assert main(["fit", str(path), "--target", "status", "--algorithm", "exact"]) == 1
    assert "algorithm='exact' learns one two-class rule" in capsys.readouterr().err
