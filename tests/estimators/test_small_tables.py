"""Defaults that hold on small tables: the floor in rows, the rule of the smaller class, saying when a rule explains nothing."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, FeatureBinarizer, TrivialRuleWarning, WeakLiteralWarning
from rulemodels.algorithms.baseline import thin_literals
from rulemodels.cli import main
from rulemodels.model_selection import minority_form
from rulemodels.rules import Rule
from rulemodels.utils import literal_floor, resolve_min_rows


def noise(n: int, seed: int) -> tuple[pd.DataFrame, np.ndarray]:
    """5 normal columns and labels drawn at random (6 % positive), independent of them."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 5)), columns=list("abcde"))
    return X, (rng.random(n) < 0.06).astype(int)


def test_the_floor_is_half_log_n_rows_at_every_size() -> None:
    for n in (2, 200, 1_000, 200_000):
        assert literal_floor(n) == pytest.approx(0.5 * math.log(n))
    assert literal_floor(1) == 0.0
    assert resolve_min_rows("auto", 300) == pytest.approx(0.5 * math.log(300)) and resolve_min_rows(2.5, 300) == 2.5
    # it binds below about 1,900 rows at the default θ and θ·n above: the same rule at every size
    assert 0.002 * 1_800 < literal_floor(1_800) and 0.002 * 2_000 > literal_floor(2_000)


@pytest.mark.parametrize("n, seed", [(300, 0), (200, 1), (500, 3)])
def test_on_pure_noise_the_default_classifier_learns_the_constant_and_says_so(n, seed) -> None:
    X, y = noise(n, seed)
    with pytest.warns(TrivialRuleWarning):
        model = BooleanRuleClassifier().fit(X, y)
    assert model.rule_.n_literals == 0
    assert model.paper_theta_ == pytest.approx(literal_floor(n))  # the floor, not θ·n = 0.002 n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        unfloored = BooleanRuleClassifier(min_literal_rows=0).fit(X, y)
    assert unfloored.paper_theta_ == pytest.approx(0.002 * n)
    if seed == 0:  # the issue's example: without the floor, intervals that hold a few training positives
        assert unfloored.rule_.n_literals > 0


def test_on_pure_noise_the_search_warns_that_its_rule_explains_nothing() -> None:
    X, y = noise(300, 0)
    with pytest.warns(TrivialRuleWarning, match="cross-validated score"):
        search = BooleanRuleCV().fit(X, y)
    assert search.best_score_ <= search.baseline_score_ + 1e-12
    # the majority class's score on the same folds, computed by hand
    scores = []
    for train, test in search._splitter().split(X, y):
        majority = np.bincount(y[train]).argmax()
        scores.append(np.mean(y[test] == majority))
    assert search.baseline_score_ == pytest.approx(np.mean(scores))
    with warnings.catch_warnings(record=True) as caught:  # said once, by the search, not again by its refit
        warnings.simplefilter("always")
        BooleanRuleCV().fit(X, y)
    assert sum(issubclass(w.category, TrivialRuleWarning) for w in caught) == 1


def test_a_search_with_signal_does_not_warn() -> None:
    from rulemodels import load_dataset

    X, y = load_dataset("pima")
    with warnings.catch_warnings():
        warnings.simplefilter("error", TrivialRuleWarning)
        search = BooleanRuleCV().fit(X, y)
    assert search.best_score_ > search.baseline_score_


def test_the_tree_cut_points_leave_at_least_the_floor_on_each_side() -> None:
    rng = np.random.default_rng(0)
    n = 150
    X = pd.DataFrame({"x": rng.normal(size=n)})
    y = (rng.random(n) < 0.1).astype(int)
    y[np.argsort(X["x"].to_numpy())[:2]] = 1  # two positives at the bottom: a cut between them is what a share allows
    floor = literal_floor(n)
    for min_leaf_rows, least in (("auto", floor), (0, 0.005 * n), (10, 10)):
        binarizer = FeatureBinarizer(thresholds="tree", min_leaf_rows=min_leaf_rows).fit(X, y)
        cuts = [literal.value for literal in binarizer.literals_ if literal.op == "<="]
        assert cuts
        for cut in cuts:
            below = int((X["x"] <= cut).sum())
            assert min(below, n - below) >= least - 1e-9, (min_leaf_rows, cut, below)
    assert min(min((X["x"] <= c).sum(), n - (X["x"] <= c).sum())
               for c in [lit.value for lit in FeatureBinarizer(thresholds="tree", min_leaf_rows=0).fit(X, y).literals_
                         if lit.op == "<="]) < floor  # without the floor a cut isolates fewer rows


def test_minority_form_describes_the_smaller_class() -> None:
    assert minority_form([0, 0, 0, 1]) == "dnf" and minority_form([0, 1, 1, 1]) == "cnf"
    assert minority_form([0, 1]) == "dnf"  # a tie: DNF
    assert minority_form([0, 0, 1], sample_weight=[1.0, 1.0, 5.0]) == "cnf"  # weights count
    assert minority_form(np.array(["no", "yes", "yes"])) == "cnf"  # the positive class is the larger label


def test_the_search_learns_the_rule_of_the_smaller_class_by_default() -> None:
    from rulemodels import load_dataset

    X, y = load_dataset("parkinsons")  # 75 % positive
    search = BooleanRuleCV(n_thetas=3, n_clauses=(1, 2)).fit(X, y)
    assert search.form_ == "cnf" and {p["form"] for p in search.cv_results_["params"]} == {"cnf"}
    flipped = BooleanRuleCV(n_thetas=3, n_clauses=(1, 2)).fit(X, 1 - y)
    assert flipped.form_ == "dnf"
    both = BooleanRuleCV(n_thetas=3, n_clauses=(1, 2), forms=("dnf", "cnf")).fit(X, y)
    assert {p["form"] for p in both.cv_results_["params"]} == {"dnf", "cnf"}
    with pytest.raises(ValueError, match="forms"):
        BooleanRuleCV(forms="smaller").fit(X, y)


def test_the_search_has_no_floor_and_the_classifier_half_log_n() -> None:
    assert BooleanRuleCV().min_literal_rows == 0 and BooleanRuleClassifier().min_literal_rows == "auto"
    with pytest.raises(ValueError, match="min_literal_rows"):
        BooleanRuleClassifier(min_literal_rows=-1).fit(*noise(50, 0))
    with pytest.raises(ValueError, match="min_literal_rows"):
        BooleanRuleClassifier(min_literal_rows="half").fit(*noise(50, 0))


def _changed_rows_by_hand(rule: Rule, X: pd.DataFrame) -> dict[str, int]:
    before = rule.evaluate(X)
    out = {}
    clauses = [list(c.literals) for c in rule.clauses]
    make = Rule.dnf if rule.form == "dnf" else Rule.cnf
    for r, clause in enumerate(clauses):
        for literal in clause:
            kept = [[m for m in c if not (k == r and m == literal)] for k, c in enumerate(clauses)]
            out[str(literal)] = int((make([c for c in kept if c]).evaluate(X) != before).sum())
    return out


@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_thin_literals_are_those_whose_removal_changes_fewer_rows_than_the_floor(form) -> None:
    from rulemodels import TrainingWorkspace, load_dataset

    X, y = load_dataset("pima")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = BooleanRuleClassifier(algorithm="am", n_clauses=3, form=form, theta=0.0005, min_literal_rows=0,
                                      prune=False).fit(X, y)
    rule = model.raw_rule_
    assert rule.n_literals >= 3
    counts = _changed_rows_by_hand(rule, X)
    with TrainingWorkspace(X, y, binarizer=model.binarizer_, fit_binarizer=False) as workspace:
        for floor in (1, 5, 30):
            found = thin_literals(rule, workspace.A, workspace.literals, workspace.sample_weight, workspace.n_rows, floor)
            assert {str(literal): rows for literal, rows in found} == {k: v for k, v in counts.items() if v < floor}


def test_the_classifier_warns_about_a_literal_below_the_floor() -> None:
    from rulemodels import load_dataset

    X, y = load_dataset("pima")
    # unpruned, BCD's surrogate keeps literals that change fewer rows than the floor of 3 rows
    with pytest.warns(WeakLiteralWarning, match="fewer training rows than a literal costs"):
        BooleanRuleClassifier(algorithm="bcd", n_clauses=3, theta=0.0005, min_literal_rows=3, prune=False).fit(X, y)
    with warnings.catch_warnings():  # pruned (the default), no literal is left that does not pay for itself
        warnings.simplefilter("error", WeakLiteralWarning)
        BooleanRuleClassifier(algorithm="bcd", n_clauses=3, theta=0.0005, min_literal_rows=3).fit(X, y)


def test_cli_min_literal_rows(tmp_path, capsys) -> None:
    X, y = noise(300, 0)
    path = tmp_path / "noise.csv"
    X.assign(label=y).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "label", "--out", str(tmp_path / "a.json")]) == 0
    from rulemodels.rules import load_model

    assert load_model(tmp_path / "a.json").rule.n_literals == 0
    assert main(["fit", str(path), "--target", "label", "--min-literal-rows", "0", "--out", str(tmp_path / "b.json")]) == 0
    assert load_model(tmp_path / "b.json").rule.n_literals > 0
    with pytest.raises(SystemExit):
        main(["fit", str(path), "--target", "label", "--min-literal-rows", "-2"])
