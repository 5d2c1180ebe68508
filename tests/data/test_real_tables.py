"""Real-world tables in, a rule a person can act on out: missing values,
categoricals, baselines, CSV reading, the θ scale."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from rulemodels.algorithms.baseline import TrivialRuleWarning, majority_baseline
from rulemodels.algorithms.theta import paper_theta
from rulemodels.cli import build_parser, main
from rulemodels.data import HeaderLooksLikeDataWarning
from rulemodels.estimator import DEFAULT_THETA, PAPER_SETTINGS
from rulemodels.rules import load_model


def credit_like(n: int = 300, seed: int = 0) -> pd.DataFrame:
    """A small German-credit-like table: coded categories with missing values, and a numeric column with holes."""
    rng = np.random.default_rng(seed)
    checking = rng.choice(["A11", "A12", "A13", "A14"], n)
    purpose = rng.choice(["A40", "A41", "A43", "A49"], n)
    duration = rng.choice([6.0, 12.0, 24.0, 36.0, 48.0], n)
    bad = (np.isin(checking, ["A11", "A12"]) & (duration >= 24)) | ((purpose == "A40") & (rng.random(n) < 0.5))
    frame = pd.DataFrame({"checking": checking, "purpose": purpose, "duration": duration,
                          "risk": np.where(bad, "bad", "good")})
    frame.loc[rng.random(n) < 0.1, "purpose"] = None
    frame.loc[rng.random(n) < 0.1, "duration"] = np.nan
    return frame


# -- missing values and unseen categories -------------------------------------------


def test_estimator_fits_and_predicts_with_missing_values_and_unseen_categories() -> None:
    frame = credit_like()
    X, y = frame.drop(columns="risk"), frame["risk"]
    clf = BooleanRuleClassifier(n_clauses=2).fit(X, y)
    assert clf.training_error_ < clf.baseline_error_
    new = pd.DataFrame({"checking": ["A11", "A99", None, "A14"], "purpose": ["A40", "A48", "A41", None],
                        "duration": [48.0, np.nan, 12.0, np.inf]})
    predicted = clf.predict(new)
    # the fitted predict, the rule on raw data and the saved JSON rule agree, missing and unseen values included
    from rulemodels.rules import Rule

    restored = Rule.from_json(clf.rule_.to_json())
    assert predicted.tolist() == clf.classes_[restored.evaluate(new).astype(int)].tolist()
    assert predicted.tolist() == clf.classes_[clf.raw_rule_.evaluate(new).astype(int)].tolist()
    assert clf.predict_proba(new).shape == (4, 2)
    assert len(clf.explain(new)) == 4


def test_missing_values_get_their_own_literals() -> None:
    X = pd.DataFrame({"x": [np.nan] * 30 + list(np.linspace(0, 1, 30))})
    y = np.array([1] * 30 + [0] * 30)
    clf = BooleanRuleClassifier(n_clauses=1, theta=0.01).fit(X, y)
    assert str(clf.rule_) == "(x is missing)"
    assert clf.training_error_ == 0.0


def test_booleanrulecv_accepts_missing_values() -> None:
    frame = credit_like(200)
    cv = BooleanRuleCV(thetas=(0.01, 0.05), n_clauses=(1,), cv=3, random_state=0, max_iter=5).fit(
        frame.drop(columns="risk"), frame["risk"])
    assert cv.predict(frame.drop(columns="risk")).shape == (200,)
    assert cv.baseline_error_ == pytest.approx(majority_baseline(frame["risk"] == "good", np.ones(200)).error)


# -- honest outputs ---------------------------------------------------------------


def test_a_constant_rule_warns_and_the_baseline_is_exposed() -> None:
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"noise": rng.random(100)})
    y = (rng.random(100) < 0.3).astype(int)
    with pytest.warns(TrivialRuleWarning, match="for every training row"):
        clf = BooleanRuleClassifier(theta=1.0, algorithm="am", thresholds="quantile").fit(X, y)
    assert clf.baseline_error_ == pytest.approx(y.mean())
    assert clf.classes_[clf.baseline_class_] == 0
    assert len(set(clf.predict(X))) == 1
    with pytest.warns(TrivialRuleWarning, match=r"is no better than the baseline 0\.2700"):
        worse = BooleanRuleClassifier(theta=0.2, prune=False, algorithm="am", thresholds="quantile").fit(X, y)
    assert worse.training_error_ >= worse.baseline_error_
    # pruning removes the literals of a rule no better than the baseline: the better constant is left
    with pytest.warns(TrivialRuleWarning, match="for every training row"):
        pruned = BooleanRuleClassifier(theta=0.2, algorithm="am", thresholds="quantile").fit(X, y)
    assert pruned.raw_rule_.n_literals == 0 and pruned.training_error_ == pytest.approx(pruned.baseline_error_)


def test_a_useful_rule_does_not_warn() -> None:
    X, y = load_dataset("pima")
    with warnings.catch_warnings():
        warnings.simplefilter("error", TrivialRuleWarning)
        clf = BooleanRuleClassifier().fit(X, y)
    assert clf.training_error_ < clf.baseline_error_ == pytest.approx(y.mean())  # 0 is the majority


def test_majority_baseline_is_weighted() -> None:
    labels = np.array([1, 1, 0, 0, 0])
    assert majority_baseline(labels, np.ones(5)).label == 0
    heavy = majority_baseline(labels, np.array([5.0, 5.0, 1.0, 1.0, 1.0]))
    assert heavy.label == 1 and heavy.error == pytest.approx(3 / 13)


# -- the θ scale --------------------------------------------------------------------


def test_fraction_theta_is_the_paper_theta_times_the_total_weight() -> None:
    X, y = load_dataset("liver")
    fraction = BooleanRuleClassifier(theta=0.01, algorithm="scn").fit(X, y)
    paper = BooleanRuleClassifier(theta=0.01 * len(X), algorithm="scn", **PAPER_SETTINGS).fit(X, y)
    assert fraction.paper_theta_ == pytest.approx(0.01 * len(X)) == paper.paper_theta_
    assert fraction.raw_rule_ == paper.rule_ and paper.rule_ == paper.raw_rule_
    weights = np.full(len(X), 3.0)  # scaling every weight leaves the fraction-θ rule unchanged
    scaled = BooleanRuleClassifier(theta=0.01, algorithm="scn").fit(X, y, sample_weight=weights)
    # the weights are normalised to mean 1 (since 2026-11-24), so paper_theta_ is in units of an average-weight row
    assert scaled.paper_theta_ == pytest.approx(fraction.paper_theta_) and scaled.rule_ == fraction.rule_
    assert paper_theta(0.5, np.ones(4), "sample") == 0.5
    with pytest.raises(ValueError, match="theta_unit must be one of"):
        paper_theta(0.5, np.ones(4), "percent")


def test_the_cli_default_theta_is_the_estimators() -> None:
    assert build_parser().parse_args(["fit", "pima"]).theta == DEFAULT_THETA == BooleanRuleClassifier().theta


# -- CSV input ----------------------------------------------------------------------


def test_cli_fits_a_headerless_csv_with_the_last_column_as_target(tmp_path, capsys) -> None:
    X, y = load_dataset("liver")
    path = tmp_path / "data.csv"
    X.assign(label=y).to_csv(path, index=False, header=False)
    assert main(["fit", str(path), "--no-header", "--target", "-1"]) == 0
    out = capsys.readouterr().out
    assert f"({len(X)} samples, {X.shape[1]} features" in out
    assert "rule (x6 = 1 when true)" in out and "baseline: " in out
    assert main(["fit", str(path), "--no-header", "--target", "9"]) == 1
    assert "--target 9 is out of range: the file has 7 columns" in capsys.readouterr().err


def test_cli_warns_when_the_header_looks_like_data(tmp_path, capsys) -> None:
    path = tmp_path / "data.csv"
    pd.DataFrame([[1.0, 2.0, 0], [3.0, 1.0, 1], [2.0, 2.5, 0], [4.0, 0.5, 1]] * 5).to_csv(path, index=False, header=False)
    main(["fit", str(path), "--target", "-1"])
    err = capsys.readouterr().err
    assert "rulemodels: warning: every column name in the first row" in err and "pass --no-header" in err
    with pytest.warns(HeaderLooksLikeDataWarning):
        from rulemodels.data import read_features

        read_features(path)


def test_cli_reads_question_marks_as_missing_and_string_categories(tmp_path, capsys) -> None:
    frame = credit_like()
    path = tmp_path / "credit.csv"
    frame.to_csv(path, index=False, na_rep="?")
    assert "?" in path.read_text()
    rule_path = tmp_path / "rule.json"
    assert main(["fit", str(path), "--target", "risk", "--positive", "bad", "--out", str(rule_path)]) == 0
    out = capsys.readouterr().out
    assert "training error: " in out and "baseline: " in out and "(always good)" in out
    new = tmp_path / "new.csv"
    pd.DataFrame({"checking": ["A11", "A77", "?"], "purpose": ["?", "A40", "A43"], "duration": ["48", "?", "6"]}).to_csv(
        new, index=False)
    assert main(["predict", str(rule_path), str(new)]) == 0
    predictions = pd.read_csv(io.StringIO(capsys.readouterr().out))["prediction"].tolist()
    model = load_model(rule_path)
    raw = pd.read_csv(new, na_values=["?"])
    assert predictions == model.predict(raw).tolist()


def test_cli_sep_and_na_values(tmp_path, capsys) -> None:
    path = tmp_path / "data.csv"
    frame = credit_like(120)
    frame.to_csv(path, index=False, sep=";", na_rep="missing")
    assert main(["fit", str(path), "--sep", ";", "--na-values", "missing", "--target", "risk"]) == 0
    assert "(120 samples, 3 features" in capsys.readouterr().out
    # without --na-values the text 'missing' is a category of purpose and duration is not numeric
    assert main(["fit", str(path), "--sep", ";", "--na-values", "", "--target", "risk"]) == 1
    assert "column 'duration' mixes numbers" in capsys.readouterr().err


def test_cli_cv_prints_the_baseline(tmp_path, capsys) -> None:
    path = tmp_path / "data.csv"
    frame = credit_like(120)
    frame.to_csv(path, index=False, header=False, na_rep="?")
    results = tmp_path / "cv.jsonl"
    assert main(["cv", str(path), "--no-header", "--target", "-1", "--algorithms", "scs", "--clauses", "1",
                 "--thetas", "0.01", "--folds", "3", "--results", str(results), "--backend", "sequential",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "| scs | 1 |" in out
    baseline = [line for line in out.splitlines() if line.startswith("baseline: ")]
    assert len(baseline) == 1 and "majority class" in baseline[0]
    assert path.read_text().startswith("A")  # the user's file is untouched (still headerless)
