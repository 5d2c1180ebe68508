"""The estimators' domain-constraint parameters: checks, pass-through, and what they do to the rule."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from tests.helpers import broken_constraints, require_backend


@pytest.fixture(scope="module")
def pima_frame():
    return load_dataset("pima")


def features(rule) -> set[str]:
    return {literal.feature for clause in rule.clauses for literal in clause.literals}


def test_the_parameters_are_estimator_parameters() -> None:
    clf = BooleanRuleClassifier(monotone={"a": 1}, forbidden_features=["b"], feature_costs={"c": 2.0}, max_literals_per_clause=2)
    params = clone(clf).get_params()
    assert params["monotone"] == {"a": 1} and params["forbidden_features"] == ["b"]
    assert params["feature_costs"] == {"c": 2.0} and params["max_literals_per_clause"] == 2 and params["model_hook"] is None
    defaults = BooleanRuleClassifier().get_params()
    names = ("monotone", "forbidden_features", "feature_costs", "max_literals_per_clause", "model_hook")
    assert [defaults[name] for name in names] == [None] * 5


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"monotone": {"glucos": 1}},
         r"column 'glucos' is not a column of X \(did you mean 'glucose'\?\); its columns are: 'pregnancies', 'glucose'"),
        ({"forbidden_features": ["BMI"]}, r"column 'BMI' is not a column of X \(did you mean 'bmi'\?\)"),
        ({"feature_costs": {"agee": 2.0}}, r"column 'agee'"),
        ({"monotone": {"glucose": 2}}, r"monotone\['glucose'\] must be \+1 .* or -1 .*, got 2"),
        ({"monotone": {"glucose": "up"}}, r"monotone\['glucose'\] must be \+1"),
        ({"feature_costs": {"age": -1.0}}, r"feature_costs\['age'\] must be a finite number >= 0"),
        ({"feature_costs": {"age": float("nan")}}, r"feature_costs\['age'\] must be a finite number >= 0"),
        ({"monotone": {"age": 1}, "forbidden_features": ["age"]}, r"both monotone and forbidden"),
        ({"max_literals_per_clause": 0}, r"max_literals_per_clause"),
        ({"forbidden_features": "age"}, r"forbidden_features"),
        ({"model_hook": 3}, r"model_hook"),
    ],
)
def test_bad_constraints_say_what_is_wrong(pima_frame, params: dict, message: str) -> None:
    X, y = pima_frame
    with pytest.raises(ValueError, match=message):
        BooleanRuleClassifier(**params).fit(X, y)


def test_every_column_forbidden_is_refused(pima_frame) -> None:
    X, y = pima_frame
    with pytest.raises(ValueError, match="forbid every literal"):
        BooleanRuleClassifier(forbidden_features=list(X.columns)).fit(X, y)


def test_monotone_on_a_categorical_column_is_refused() -> None:
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"colour": rng.choice(["red", "green", "blue"], size=60), "x": rng.normal(size=60)})
    y = (X["colour"] == "red").astype(int)
    with pytest.raises(ValueError, match="column 'colour' is categorical"):
        BooleanRuleClassifier(monotone={"colour": 1}).fit(X, y)
    forbidden = BooleanRuleClassifier(forbidden_features=["colour"]).fit(X, y)  # forbidding one is fine
    assert "colour" not in features(forbidden.rule_)


def test_missing_indicators_stay_allowed_under_monotone() -> None:
    """A missing value is no point of the column's order: ``x is missing`` may be used by a monotone rule."""
    require_backend("highs")
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    missing = rng.random(200) < 0.3
    y = (missing | (x > 1.0)).astype(int)
    X = pd.DataFrame({"x": np.where(missing, np.nan, x), "z": rng.normal(size=200)})
    clf = BooleanRuleClassifier(monotone={"x": 1}, n_clauses=2, theta=0.01).fit(X, y)
    ops = {literal.op for clause in clf.rule_.clauses for literal in clause.literals if literal.feature == "x"}
    assert "is_nan" in ops and "<=" not in ops
    assert clf.training_error_ < 0.05


def test_forbidden_and_monotone_shape_the_rule(pima_frame) -> None:
    require_backend("highs")
    X, y = pima_frame
    free = BooleanRuleClassifier(n_clauses=2, theta=0.01).fit(X, y)
    assert "glucose" in features(free.rule_)
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01, forbidden_features=["glucose"], monotone={"bmi": -1}).fit(X, y)
    assert "glucose" not in features(clf.rule_)
    assert all(lit.op != ">" for clause in clf.rule_.clauses for lit in clause.literals if lit.feature == "bmi")
    assert clf.training_error_ > free.training_error_  # the constraints cost accuracy here


def test_boolean_rule_cv_passes_the_constraints_to_every_fit(pima_frame) -> None:
    require_backend("highs")
    X, y = pima_frame
    search = BooleanRuleCV(
        algorithms=("am",), n_clauses=(1, 2), forms=("dnf",), cv=3, forbidden_features=["glucose"], max_literals_per_clause=1,
    ).fit(X, y)
    assert "glucose" not in features(search.rule_)
    assert max(len(clause.literals) for clause in search.best_estimator_.raw_rule_.clauses) <= 1
    assert search.best_estimator_.forbidden_features == ["glucose"]
    assert search.get_params()["max_literals_per_clause"] == 1


def test_every_step_of_a_rule_list_holds_the_constraints() -> None:
    """Three classes: each step is a fit with the estimator's constraints, so the whole list holds them."""
    X, y = load_dataset("pima")
    labels = np.where(y == 0, "healthy", np.where(X["glucose"] > X["glucose"].median(), "high", "low"))
    settings = dict(monotone={"bmi": 1, "age": -1}, forbidden_features=["glucose"], max_literals_per_clause=2)
    clf = BooleanRuleClassifier(theta=0.005, **settings).fit(X, labels)
    assert len(clf.steps_) >= 1
    for _, rule in clf.rule_.steps:
        assert "glucose" not in features(rule)
        assert broken_constraints(rule, monotone={"bmi": 1, "age": -1}, forbidden=["glucose"], max_literals=2) == []
    free = BooleanRuleClassifier(theta=0.005).fit(X, labels)
    assert any("glucose" in features(rule) for _, rule in free.rule_.steps)  # the constraint binds
