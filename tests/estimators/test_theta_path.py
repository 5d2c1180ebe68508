"""BooleanRuleCV's default search: a data-scaled θ path shared by the folds, the same rule on every run, rule_path_."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, TrainingWorkspace, defaults, load_dataset
from rulemodels.model_selection import minority_form, theta_path


def test_theta_path_runs_from_where_no_clause_pays_down_to_a_floor() -> None:
    y = np.array([0] * 90 + [1] * 10)
    path = theta_path(y, n_thetas=5, ratio=0.01, clause_cost=1.0, min_rows=1)
    assert path[0] == pytest.approx(0.10 / 2)  # minority share / (1 + c0)
    assert list(path) == sorted(path, reverse=True) and len(path) == 5
    assert path[-1] == pytest.approx(max(0.01 * path[0], 1 / 100))
    # never below one row (BooleanRuleCV's min_literal_rows is 0); "auto" is ½ ln n rows
    assert theta_path(y, n_thetas=5)[-1] == pytest.approx(1 / 100)
    assert theta_path(y, n_thetas=5, min_rows="auto")[-1] == pytest.approx(0.5 * np.log(100) / 100)
    assert theta_path(y, n_thetas=5, min_rows=0)[-1] == pytest.approx(1 / 100)
    ratios = np.array(path[:-1]) / np.array(path[1:])
    assert np.allclose(ratios, ratios[0])  # equally spaced on a log scale
    # weights count, and the floor is one row's share of the rows
    weighted = theta_path(y, np.where(y == 1, 9.0, 1.0), n_thetas=3)
    assert weighted[0] == pytest.approx(0.5 / 2)
    assert theta_path(np.array([0, 1] * 5), n_thetas=8, ratio=0.5, min_rows=1)[-1] == pytest.approx(0.125)
    assert theta_path(y, n_thetas=1) == (path[0],)


def test_at_the_top_of_the_path_the_rule_is_constant() -> None:
    """θ_max is where no clause pays for itself: the learned rule has no literal there, and has some below it."""
    X, y = load_dataset("pima")
    top = theta_path(y)[0]
    assert BooleanRuleClassifier(algorithm="cg", theta=top, prune=False).fit(X, y).rule_.n_literals == 0
    assert BooleanRuleClassifier(algorithm="cg", theta=top / 4).fit(X, y).rule_.n_literals > 0


@pytest.fixture(scope="module")
def liver_search():
    X, y = load_dataset("liver")
    return X, y, BooleanRuleCV().fit(X, y)


def test_default_search_is_a_path_and_gives_the_same_rule_on_every_run(liver_search) -> None:
    X, y, search = liver_search
    again = BooleanRuleCV().fit(X, y)
    assert str(again.rule_) == str(search.rule_) and again.best_params_ == search.best_params_
    thetas = sorted({p["theta"] for p in search.cv_results_["params"]}, reverse=True)
    assert tuple(thetas) == theta_path(y)
    assert {p["n_clauses"] for p in search.cv_results_["params"]} == set(defaults.DEFAULT_SEARCH_N_CLAUSES)


def test_rule_path_holds_the_chosen_rule_and_the_cv_scores(liver_search) -> None:
    X, y, search = liver_search
    path = search.rule_path_
    assert list(path.columns[:6]) == ["theta", "n_clauses", "form", "mean_test_score", "std_test_score", "mean_n_literals"]
    chosen = path[path["chosen"]]
    assert len(chosen) == 1
    row = chosen.iloc[0]
    assert row["theta"] == search.theta_ and row["n_clauses"] == search.n_clauses_
    assert row["mean_test_score"] == pytest.approx(search.best_score_)
    assert row["rule"] == str(search.best_estimator_.raw_rule_)
    assert row["training_error"] == pytest.approx(search.training_error_)
    # the refit walks the path down to the chosen θ; along it (one R) the training error does not rise as θ falls
    for _, rows in path.groupby("n_clauses"):
        errors = rows.dropna(subset=["rule"]).sort_values("theta", ascending=False)["training_error"].to_numpy()
        assert rows.dropna(subset=["rule"])["theta"].min() >= search.theta_
        assert errors[-1] <= errors[0] + 1e-12


def test_the_fold_rules_are_the_path_rules(liver_search) -> None:
    """A candidate's fold rule is the path's rule at its θ and R on that training fold (what the refit repeats)."""
    X, y, search = liver_search
    train, _ = next(iter(search._splitter().split(X, y)))
    base = search._base_estimator()
    assert search.form_ == minority_form(y) == "cnf"  # liver: 58 % positive, so the rule describes the other class
    with TrainingWorkspace(X.iloc[train], y[train], binarizer=base._make_binarizer()) as workspace:
        spec = replace(base._fit_spec(), form=search.form_)  # θ as a share, with the search's floor (none)
        path = workspace.learn_path(spec, thetas=list(theta_path(y)), n_clauses=list(defaults.DEFAULT_SEARCH_N_CLAUSES))
    literals = search.cv_results_["split0_n_literals"]
    for i, params in enumerate(search.cv_results_["params"]):
        match = (params["theta"], params["n_clauses"])
        assert literals[i] == path[match].rule.n_literals
