"""Per-row reasons, probabilities from clause patterns, form='auto', complexity and the printed rule."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.calibration import CalibratedClassifierCV
from sklearn.metrics import roc_auc_score

from rulemodels import BooleanRuleClassifier
from rulemodels.cli import main
from rulemodels.rules import Literal, PatternRates, Rule, explain_rule
from tests.helpers import any_rule, raw_frame, raw_literal

# ---------------------------------------------------------------------------
# Reasons
# ---------------------------------------------------------------------------


def literal_value(literal: Literal, X: pd.DataFrame, i: int) -> bool:
    return bool(literal.evaluate(X.iloc[[i]])[0])


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rule=any_rule(raw_literal()), X=raw_frame())
def test_reasons_are_consistent_with_the_prediction_on_every_row(rule: Rule, X: pd.DataFrame) -> None:
    """The deciding clauses are exactly those whose value equals the rule's, and their
    listed literals are exactly those whose value equals the clause's (checked row by row)."""
    explained = explain_rule(rule, X, classes=("no", "yes"))
    assert explained.index.equals(X.index)
    value = rule.evaluate(X)
    assert explained["rule_value"].tolist() == value.tolist()
    assert explained["prediction"].tolist() == np.where(value, "yes", "no").tolist()
    conjunctive_clauses = rule.form == "dnf"  # a DNF's clauses are AND-terms
    for i in range(len(X)):
        expected = []
        for r, clause in enumerate(rule.clauses):
            values = [literal_value(lit, X, i) for lit in clause.literals]
            holds = all(values) if conjunctive_clauses else any(values)
            if holds == value[i]:
                made_by = list(dict.fromkeys(str(lit) for lit, v in zip(clause.literals, values) if v == holds))
                expected.append({"clause": r + 1, "holds": holds, "literals": made_by})
        got = [{**c, "literals": list(dict.fromkeys(c["literals"]))} for c in explained["clauses"].iloc[i]]
        assert got == expected
        # A row is never left without a reason unless the rule has no clause to give one.
        assert bool(expected) == bool(rule.clauses)
        reason = explained["reason"].iloc[i]
        for clause in expected:
            assert f"{'term' if conjunctive_clauses else 'clause'} {clause['clause']}" in reason
            for text in clause["literals"]:
                assert text in reason


def test_reasons_text_on_a_dnf_and_its_cnf_negation() -> None:
    rule = Rule.dnf([[Literal("glucose", ">", 142.0), Literal("bmi", ">", 29.5)], [Literal("age", ">", 54.0)]])
    X = pd.DataFrame({"glucose": [150, 100, 150], "bmi": [30.0, 20.0, 25.0], "age": [30, 60, 40]}, index=[7, 8, 9])
    explained = explain_rule(rule, X)
    assert explained.loc[7, "reason"] == "term 1 holds: glucose > 142.0 (glucose = 150) AND bmi > 29.5 (bmi = 30)"
    assert explained.loc[8, "reason"] == "term 2 holds: age > 54.0 (age = 60)"
    assert explained.loc[9, "reason"] == (
        "no term holds: term 1 fails on bmi > 29.5 (bmi = 25); term 2 fails on age > 54.0 (age = 40)"
    )
    negated = explain_rule(rule.negate(), X, classes=(1, 0))
    assert negated["prediction"].tolist() == explained["prediction"].tolist()
    assert negated.loc[9, "reason"] == (
        "every clause holds: clause 1 by bmi <= 29.5 (bmi = 25); clause 2 by age <= 54.0 (age = 40)"
    )
    assert negated.loc[8, "reason"] == "clause 2 fails: none of age <= 54.0 (age = 60) holds"


def test_empty_rules_and_clauses_say_so() -> None:
    X = pd.DataFrame({"a": [1, 0]})
    assert explain_rule(Rule("dnf", ()), X)["reason"].tolist() == ["the rule has no clauses: it is always false"] * 2
    assert explain_rule(Rule("dnf", [[]]), X)["reason"].tolist() == ["term 1 is empty (always true)"] * 2


def test_estimator_explain_matches_predict_and_keeps_the_index(pima_200) -> None:
    X, y = pima_200
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=2, n_thresholds=5, theta=0.01).fit(X, y)
    rows = X.iloc[10:60].set_index(pd.Index(range(1000, 1050)))
    explained = clf.explain(rows)
    assert explained.index.equals(rows.index)
    assert explained["prediction"].tolist() == clf.predict(rows).tolist()
    assert all(explained["reason"].str.len() > 0)


# ---------------------------------------------------------------------------
# Probabilities
# ---------------------------------------------------------------------------


@st.composite
def pattern_data(draw):
    n = draw(st.integers(1, 60))
    R = draw(st.integers(1, 3))
    clause_values = draw(arrays(bool, (n, R)))
    form = draw(st.sampled_from(("cnf", "dnf")))
    positive = draw(arrays(np.int8, n, elements=st.integers(0, 1)))
    weights = draw(st.one_of(st.none(), arrays(float, n, elements=st.floats(0.1, 5.0))))
    return clause_values, form, positive, weights


def reduce(clause_values: np.ndarray, form: str) -> np.ndarray:
    return clause_values.all(axis=1) if form == "cnf" else clause_values.any(axis=1)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(data=pattern_data(), new=arrays(bool, (40, 3)))
def test_pattern_rates_are_probabilities_monotone_in_the_rule(data, new) -> None:
    clause_values, form, positive, weights = data
    rule_values = reduce(clause_values, form)
    rates = PatternRates.fit(clause_values, rule_values, positive, weights)
    new = new[:, : clause_values.shape[1]]
    rows = np.vstack([clause_values, new])  # seen and (maybe) unseen patterns
    rule_rows = reduce(rows, form)
    proba = rates.predict(rows, rule_rows)
    assert np.all((proba > 0) & (proba < 1))
    if rule_rows.any() and (~rule_rows).any():
        assert proba[rule_rows].min() >= proba[~rule_rows].max() - 1e-12
    # Where no pattern contradicts the rule, the value is the Laplace rate of the pattern's rows.
    w = np.ones(len(positive)) if weights is None else weights
    laplace = {}
    for pattern in np.unique(clause_values, axis=0):
        mask = (clause_values == pattern).all(axis=1)
        laplace[pattern.tobytes()] = (w[mask] @ positive[mask] + 1) / (w[mask].sum() + 2)
    seen = np.array([laplace[row.tobytes()] for row in clause_values])
    if not (rule_values.any() and (~rule_values).any()) or seen[rule_values].min() >= seen[~rule_values].max():
        np.testing.assert_allclose(proba[: len(clause_values)], seen)


def test_a_contradicting_pattern_is_pooled() -> None:
    # DNF with 2 terms: term 2 fires on 10 rows, all negative; the rule-false rows are half positive.
    clause_values = np.array([[True, False]] * 20 + [[False, True]] * 10 + [[False, False]] * 20)
    positive = np.array([1] * 18 + [0] * 2 + [0] * 10 + [1, 0] * 10)
    rule_values = clause_values.any(axis=1)
    rates = PatternRates.fit(clause_values, rule_values, positive)
    table = rates.to_frame(["t1", "t2"]).set_index(["t1", "t2"])["proba"]
    assert table[(True, False)] == pytest.approx(19 / 22)
    pooled = (10 + 1) / (30 + 2)  # the two violators share the rate of their pooled counts
    assert table[(False, True)] == pytest.approx(pooled) and table[(False, False)] == pytest.approx(pooled)


def test_predict_proba_equals_the_pattern_counts_and_works_with_sklearn(pima_200) -> None:
    X, y = pima_200
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=2, n_thresholds=5, theta=0.01).fit(X, y)
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    outputs = pd.DataFrame(clf.rule_.clause_outputs(X)).astype(int).astype(str).agg("".join, axis=1)
    table = clf.pattern_rates_.to_frame()
    if table["proba"].groupby(table["rule"]).agg(["min", "max"]).pipe(lambda t: t.loc[True, "min"] >= t.loc[False, "max"]):
        counts = y.groupby(outputs).agg(["sum", "size"])
        expected = ((counts["sum"] + 1) / (counts["size"] + 2)).loc[outputs].to_numpy()
        np.testing.assert_allclose(proba[:, 1], expected)
    fired = clf.predict(X) == clf.classes_[1]
    assert proba[fired, 1].min() >= proba[~fired, 1].max()
    assert 0.5 < roc_auc_score(y, proba[:, 1]) <= 1.0
    calibrated = CalibratedClassifierCV(
        BooleanRuleClassifier(algorithm="scs", n_clauses=2, n_thresholds=5), cv=3, method="isotonic"
    ).fit(X, y)
    calibrated_proba = calibrated.predict_proba(X)
    assert calibrated_proba.shape == (len(X), 2) and np.all((calibrated_proba >= 0) & (calibrated_proba <= 1))


def test_string_labels_order_the_proba_columns_like_classes(pima_200) -> None:
    X, y = pima_200
    labels = np.where(y == 1, "sick", "healthy")
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=1, n_thresholds=5).fit(X, labels)
    assert clf.classes_.tolist() == ["healthy", "sick"]
    proba = clf.predict_proba(X)
    fired = clf.predict(X) == "sick"
    assert proba[fired, 1].min() >= proba[~fired, 1].max()


# ---------------------------------------------------------------------------
# form='auto', complexity_, printing
# ---------------------------------------------------------------------------


def planted(kind: str, n: int = 240, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Binary features; y is (x0 AND x1) OR (x2 AND x3) ('dnf') or (x0 OR x1) AND (x2 OR x3) ('cnf')."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 6)), columns=[f"x{j}" for j in range(6)])
    if kind == "dnf":
        y = (X.x0 & X.x1) | (X.x2 & X.x3)
    else:
        y = (X.x0 | X.x1) & (X.x2 | X.x3)
    return X, y.to_numpy().astype(int)


@pytest.mark.parametrize("kind", ["dnf", "cnf"])
def test_form_auto_picks_the_form_with_the_lower_inner_cv_error(kind: str) -> None:
    """With R=2 the planted rule is exact in its own form; the other form needs 4 clauses."""
    X, y = planted(kind)
    clf = BooleanRuleClassifier(form="auto", n_clauses=2, theta=0.01, cv=3).fit(X, y)
    errors = {form: np.mean(values) for form, values in clf.form_cv_errors_.items()}
    other = "cnf" if kind == "dnf" else "dnf"
    assert len(clf.form_cv_errors_[kind]) == 3
    assert errors[kind] < errors[other]
    assert clf.form_ == kind and clf.rule_.form == kind
    assert np.mean(clf.predict(X) == y) == 1.0
    clf.set_params(form=other).fit(X, y)
    assert clf.form_ == other and not hasattr(clf, "form_cv_errors_")


def test_form_auto_is_deterministic_for_a_fixed_random_state() -> None:
    X, y = planted("dnf", n=120, seed=3)
    first, second = (BooleanRuleClassifier(form="auto", n_clauses=2, cv=3, random_state=7).fit(X, y) for _ in range(2))
    assert first.form_cv_errors_ == second.form_cv_errors_
    assert first.form_ == second.form_ and str(first.rule_) == str(second.rule_)


def test_complexity_and_printing(pima_200) -> None:
    X, y = pima_200
    clf = BooleanRuleClassifier(algorithm="scs", n_clauses=2, n_thresholds=5)
    assert str(clf) == repr(clf) == "BooleanRuleClassifier(algorithm='scs', n_thresholds=5)"
    clf.fit(X, y)
    rule = clf.rule_
    assert clf.complexity_ == {"n_clauses": rule.n_clauses, "n_literals": rule.n_literals, "n_conditions": rule.n_conditions,
                               "n_features": len(rule.features)}
    assert str(clf) == f"diabetes = 1 when {rule}"
    assert repr(clf) == f"BooleanRuleClassifier(algorithm='scs', n_thresholds=5)  # diabetes = 1 when {rule}"
    unnamed = BooleanRuleClassifier(algorithm="scs", n_clauses=2, n_thresholds=5).fit(X.to_numpy(), y.to_numpy())
    assert str(unnamed).startswith("class 1 when (")


# ---------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------


def test_cli_predict_explain_adds_a_reason_per_row(pima_200, tmp_path, capsys) -> None:
    X, y = pima_200
    train = tmp_path / "train.csv"
    X.assign(diabetes=y).to_csv(train, index=False)
    rule_path = tmp_path / "rule.json"
    assert main(["fit", str(train), "--target", "diabetes", "--clauses", "2", "--thresholds", "5", "--out", str(rule_path)]) == 0
    capsys.readouterr()
    data = tmp_path / "data.csv"
    X.to_csv(data, index=False)
    out = tmp_path / "explained.csv"
    assert main(["predict", str(rule_path), str(data), "--explain", "--out", str(out)]) == 0
    explained = pd.read_csv(out)
    assert explained.columns.tolist() == ["prediction", "reason"]
    assert main(["predict", str(rule_path), str(data)]) == 0
    plain = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert explained["prediction"].tolist() == plain["prediction"].tolist()
    assert explained["reason"].str.startswith(("term ", "no term holds: ")).all()
    assert (explained["reason"].str.startswith("no term") == (explained["prediction"] == 0)).all()


def test_cli_fit_form_auto_reports_the_choice(tmp_path, capsys) -> None:
    X, y = planted("cnf", n=120)
    path = tmp_path / "planted.csv"
    X.assign(label=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "label", "--form", "auto", "--clauses", "2"]) == 0
    out = capsys.readouterr().out
    assert "form: cnf (--form auto; mean inner-CV error dnf " in out
