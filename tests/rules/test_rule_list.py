"""RuleList: the ordered rule list of more than two classes as a value."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rulemodels.rules import (
    ClassRates,
    Literal,
    Rule,
    RuleFormatError,
    RuleList,
    explain_rule_list,
    load_model,
    save_model,
)

HIGH = Rule.dnf([[Literal("glucose", ">", 142.0)]])
LOW = Rule.cnf([[Literal("glucose", ">", 99.0), Literal("bmi", "is_nan")], [Literal("job", "in", ["a", "b"])]])
FRAME = pd.DataFrame({
    "glucose": [150.0, 120.0, 80.0, np.nan, 100.0],
    "bmi": [30.0, np.nan, 25.0, np.nan, 31.0],
    "job": ["a", "b", None, "a", "z"],
})


def test_first_step_that_holds_gives_the_class_else_the_default():
    rules = RuleList([("high", HIGH), ("low", LOW)], default="healthy")
    assert rules.predict(FRAME).tolist() == ["high", "low", "healthy", "low", "healthy"]
    assert rules.claims(FRAME).tolist() == [0, 1, 2, 1, 2]
    # the second step holds on row 0 too, but the first claims it
    assert rules.step_values(FRAME)[0].tolist() == [True, True]
    assert rules.classes == ("high", "low", "healthy")


def test_text_reads_as_an_if_else_chain():
    rules = RuleList([("high", HIGH), ("low", LOW)], default="healthy")
    assert str(rules) == (
        "IF (glucose > 142.0) THEN class = high\n"
        "ELSE IF (glucose > 99.0 OR bmi is missing) AND (job in {a, b}) THEN class = low\n"
        "ELSE class = healthy"
    )
    assert rules.to_text("diabetes").splitlines()[-1] == "ELSE diabetes = healthy"


@pytest.mark.parametrize("labels", [("high", "low", "healthy"), (np.int64(2), np.int64(1), np.int64(0)), (5, -1, 0)])
def test_json_round_trip_keeps_the_labels_and_their_type(labels):
    rules = RuleList([(labels[0], HIGH), (labels[1], LOW)], default=labels[2])
    back = RuleList.from_json(rules.to_json())
    assert back == rules
    plain = [label.item() if hasattr(label, "item") else label for label in labels]
    assert list(back.classes) == plain and all(type(a) is type(b) for a, b in zip(back.classes, plain))
    assert back.predict(FRAME).tolist() == rules.predict(FRAME).tolist()


def test_a_class_given_twice_is_refused():
    with pytest.raises(ValueError, match="class 'a' appears twice"):
        RuleList([("a", HIGH), ("b", LOW)], default="a")
    with pytest.raises(ValueError, match="appears twice"):
        RuleList([(1, HIGH)], default="1")  # 1 and "1" read alike in a CSV


@pytest.mark.parametrize("document, message", [
    ({"format": "rulemodels.rule_list", "version": 9, "steps": [], "default": 0}, "unsupported rule list version 9"),
    ({"format": "rulemodels.rule_list", "version": 1, "steps": {}, "default": 0}, "steps: expected a list"),
    ({"format": "rulemodels.rule_list", "version": 1, "steps": [{"class": 1}], "default": 0}, r"steps\[0\]"),
    ({"format": "rulemodels.rule_list", "version": 1, "steps": [], "default": [1]}, "default: a class label"),
    ({"format": "rulemodels.rule_list", "version": 1, "steps": [{"class": 1, "rule": HIGH.to_dict()}], "default": 1},
     "appears twice"),
])
def test_malformed_rule_lists_are_refused_with_the_path(document, message):
    with pytest.raises(RuleFormatError, match=message):
        RuleList.from_dict(document)


def test_explanations_name_the_claiming_step_and_why_earlier_steps_did_not_hold():
    rules = RuleList([("high", HIGH), ("low", LOW)], default="healthy")
    table = explain_rule_list(rules, FRAME)
    assert table["prediction"].tolist() == rules.predict(FRAME).tolist()
    assert table["step"].tolist() == [1, 2, 3, 2, 3]
    assert table["reason"].iloc[0] == "step 1 gives class = high: term 1 holds: glucose > 142.0 (glucose = 150)"
    assert table["reason"].iloc[1].startswith("step 2 gives class = low: every clause holds")
    assert "step 1 does not hold: no term holds: term 1 fails on glucose > 142.0 (glucose = 120)" in table["reason"].iloc[1]
    assert table["reason"].iloc[2].startswith("no step holds, so the default class = healthy; step 1 does not hold")
    assert table["clauses"].iloc[2] == []


def test_html_escapes_labels_and_conditions():
    rules = RuleList([("<b>", Rule.dnf([[Literal("x<y", ">", 1.0)]]))], default="&")
    page = rules._repr_html_()
    assert "&lt;b&gt;" in page and "x&lt;y" in page and "<b>" not in page and "&amp;" in page


def test_class_rates_are_laplace_smoothed_per_bucket_and_sum_to_one():
    rates = ClassRates.fit(np.array([0, 0, 0, 1, 2, 2]), np.array([0, 0, 1, 1, 2, 0]), n_buckets=3, n_classes=3)
    assert rates.proba[0].tolist() == pytest.approx([3 / 6, 2 / 6, 1 / 6])  # (count + 1) / (rows + K)
    assert np.allclose(rates.proba.sum(axis=1), 1.0)
    assert rates.predict(np.array([2, 0])).tolist() == [rates.proba[2].tolist(), rates.proba[0].tolist()]


def test_model_file_version_2_round_trips_and_version_1_still_loads(tmp_path):
    rules = RuleList([(2, HIGH), (1, LOW)], default=0)
    rates = ClassRates.fit(rules.claims(FRAME), np.array([2, 1, 0, 1, 0]), 3, 3)
    path = tmp_path / "list.json"
    save_model(path, rules, (0, 1, 2), "y", list(FRAME.columns), class_rates=rates)
    document = json.loads(path.read_text())
    assert document["version"] == 2 and document["classes"] == [0, 1, 2]
    model = load_model(path)
    assert model.multiclass and model.rule == rules and model.classes == (0, 1, 2)
    assert model.predict(FRAME).tolist() == [2, 1, 0, 1, 0]
    assert model.predict_proba(FRAME).shape == (5, 3)
    assert model.explain(FRAME)["step"].tolist() == [1, 2, 3, 2, 3]
    binary = tmp_path / "binary.json"
    save_model(binary, HIGH, (0, 1), "y", list(FRAME.columns))
    assert json.loads(binary.read_text())["version"] == 1
    assert not load_model(binary).multiclass and load_model(binary).predict(FRAME).tolist() == [1, 0, 0, 0, 0]


def test_a_version_2_file_whose_classes_miss_a_step_class_is_refused(tmp_path):
    path = tmp_path / "list.json"
    save_model(path, RuleList([("a", HIGH)], default="b"), ("a", "b", "c"), "y", list(FRAME.columns))
    document = json.loads(path.read_text())
    document["classes"] = ["a", "c"]
    path.write_text(json.dumps(document))
    with pytest.raises(RuleFormatError, match=r"gives the class\(es\) \['b'\], which 'classes' does not list"):
        load_model(path)
    document["classes"] = ["a", "b", "c"]
    document["pattern_rates"] = {}
    path.write_text(json.dumps(document))
    with pytest.raises(RuleFormatError, match="'pattern_rates' belong to a two-class rule"):
        load_model(path)
