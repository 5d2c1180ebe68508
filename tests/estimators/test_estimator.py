"""BooleanRuleClassifier: the scikit-learn contract and the user-facing behaviour."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulemodels import BooleanRuleClassifier
from tests.helpers import EXPECTED_FAILED_CHECKS, require_backend


@parametrize_with_checks(
    [BooleanRuleClassifier(max_iter=3, n_thresholds=3), BooleanRuleClassifier(algorithm="cg", max_iter=3, n_thresholds=3)],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_fit_returns_self_and_rule_uses_column_names(pima_200):
    X, y = pima_200
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.02)
    assert clf.fit(X, y) is clf
    assert clf.rule_.form == "dnf"
    assert set(clf.rule_.features) <= set(X.columns)
    assert list(clf.feature_names_in_) == list(X.columns)
    assert clf.n_features_in_ == 8
    assert np.array_equal(clf.predict(X) == 1, clf.rule_.evaluate(X))
    assert clf.n_builds_ <= 2 < clf.n_solves_ + 2


def test_any_two_labels_are_mapped_with_classes(pima_200):
    X, y = pima_200
    labels = np.where(y == 1, "diabetic", "healthy")
    clf = BooleanRuleClassifier(theta=0.02).fit(X, labels)
    assert list(clf.classes_) == ["diabetic", "healthy"]
    # the rule is true for classes_[1] ("healthy")
    assert np.array_equal(clf.predict(X) == "healthy", clf.rule_.evaluate(X))


def test_more_than_two_classes_on_a_workspace_is_a_clear_error(pima_200):
    # since 2026-11-25 fit learns a rule list for more than two classes (tests/estimators/test_multiclass.py); a
    # TrainingWorkspace still holds two classes and says how to get a rule list
    from rulemodels.algorithms import TrainingWorkspace

    X, _ = pima_200
    with pytest.raises(ValueError, match="Only binary classification is supported by a two-class learner.*got 3 classes"
                                         ".*learns an ordered rule list for more classes"):
        TrainingWorkspace(X, np.arange(len(X)) % 3)


def test_one_class_is_a_clear_error(pima_200):
    X, _ = pima_200
    with pytest.raises(ValueError, match=r"y has only 1 class \(0.0\): .* samples of both classes"):
        BooleanRuleClassifier().fit(X, np.zeros(len(X)))


@pytest.mark.parametrize("bad, message", [
    ({"n_clauses": 0}, "n_clauses"), ({"theta": -1.0}, "theta"), ({"algorithm": "magic"}, "algorithm"), ({"form": "xnf"}, "form"),
    # θ must be finite: an infinite θ used to pass the estimator's check and fail deep in the model builder
    ({"theta": float("inf")}, r"The 'theta' parameter of BooleanRuleClassifier must be a float in the range \[0, inf\)\. Got inf"),
    ({"disable_cost": float("inf")}, "The 'disable_cost' parameter of BooleanRuleClassifier"),
    ({"time_limit": float("inf")}, "The 'time_limit' parameter of BooleanRuleClassifier"),
])
def test_invalid_parameters_are_rejected_in_fit(pima_200, bad, message):
    X, y = pima_200
    clf = BooleanRuleClassifier(**bad)  # no validation in __init__
    with pytest.raises(ValueError, match=message):
        clf.fit(X, y)


def test_unknown_solver_is_a_clear_error(pima_200):
    X, y = pima_200
    with pytest.raises(ValueError, match="unknown solver 'nosuch'"):
        BooleanRuleClassifier(solver="nosuch").fit(X, y)


@pytest.mark.parametrize("algorithm", ["am", "bcd", "tlp", "scs", "scn"])
def test_every_algorithm_through_the_estimator(pima_200, algorithm):
    X, y = pima_200
    # unpruned: history_ is the algorithm's own objective, which pruning's 0-1 objective would replace
    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, theta=0.05, n_thresholds=4, prune=False).fit(X, y)
    assert clf.score(X, y) >= max(y.mean(), 1 - y.mean()) - 1e-9
    # history_: the objective after the initialisation and after each accepted iteration, ending at objective_
    assert 1 <= len(clf.history_) <= clf.n_iter_ + 1
    assert clf.history_[-1] == pytest.approx(clf.objective_)
    if algorithm in ("tlp", "scs", "scn"):  # one pass: one iteration, one objective
        assert (clf.n_iter_, len(clf.history_), clf.termination_) == (1, 1, "single_pass")
    else:  # BCD and AM accept only iterations that lower the objective
        assert all(later < earlier for earlier, later in zip(clf.history_, clf.history_[1:]))
        assert clf.termination_ != "single_pass"


@pytest.mark.integer_models
def test_exact_algorithm_through_the_estimator(solver_name):
    require_backend(solver_name)
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(14, 3)), columns=["a", "b", "c"])
    y = (X.a & X.b).to_numpy()
    clf = BooleanRuleClassifier(algorithm="exact", n_clauses=1, theta=0.1, solver=solver_name).fit(X, y)
    assert clf.termination_ == "optimal"
    assert clf.score(X, y) == 1.0


def test_works_with_clone_grid_search_and_pipelines(pima_200):
    X, y = pima_200
    clf = BooleanRuleClassifier(n_thresholds=4, max_iter=5)
    assert clone(clf).get_params() == clf.get_params()
    scores = cross_val_score(clf, X, y, cv=3)
    assert scores.shape == (3,) and np.all((scores >= 0) & (scores <= 1))
    grid = GridSearchCV(clf, {"theta": [0.01, 0.1], "n_clauses": [1, 2]}, cv=3).fit(X, y)
    assert grid.best_params_["theta"] in (0.01, 0.1)
    pipe = make_pipeline(FunctionTransformer(lambda frame: frame), clone(clf)).fit(X, y)
    assert pipe.score(X, y) > 0.5


def test_fit_is_deterministic(pima_200):
    X, y = pima_200
    first = BooleanRuleClassifier(theta=0.02, random_state=0).fit(X, y)
    second = BooleanRuleClassifier(theta=0.02, random_state=0).fit(X, y)
    assert first.rule_ == second.rule_
    assert first.history_ == second.history_


def test_time_limit_reports_status(pima_200):
    X, y = pima_200
    with pytest.warns(ConvergenceWarning, match=r"the time limit was reached.*termination_='time_limit'"):
        clf = BooleanRuleClassifier(time_limit=1e-6).fit(X, y)
    assert clf.termination_ == "time_limit"
    assert clf.predict(X).shape == (len(X),)


@pytest.mark.parametrize("algorithm", ["am", "cg", "tlp"])
def test_solver_seconds_is_the_fits_solve_time(pima_200, algorithm) -> None:
    """The summed LP solve time surfaces on the estimator (the scaling benchmark's "solve s")."""
    import time

    X, y = pima_200
    start = time.perf_counter()
    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, n_thresholds=3).fit(X, y)
    elapsed = time.perf_counter() - start
    assert clf.n_solves_ >= 1
    assert 0 < clf.solver_seconds_ < elapsed


def test_whether_an_id_like_column_is_present_stays_a_feature():
    """A coupon code, present for some rows, one per row: its values memorise rows, whether there is one does
    not. Before, the column went out whole (training accuracy 0.60 here); its ``is missing`` literal now stays."""
    from rulemodels import IDLikeColumnWarning

    rng = np.random.default_rng(1)
    n = 400
    has = rng.random(n) < 0.4
    X = pd.DataFrame({
        "coupon": pd.Series([f"C{rng.integers(10**8):08d}" if h else None for h in has], dtype=object),
        "age": rng.integers(18, 80, n),
    })
    y = np.where(rng.random(n) < 0.93, has, ~has).astype(int)
    with pytest.warns(IDLikeColumnWarning, match="missing values are kept as a feature"):
        clf = BooleanRuleClassifier().fit(X, y)
    assert clf.binarizer_.dropped_columns_ == ["coupon"]
    assert str(clf.rule_) == "(coupon is not missing)"
    assert np.mean(clf.predict(X) == y) > 0.9
    assert clf.to_sql() == '("coupon" IS NOT NULL)'
    assert np.array_equal(clf.predict(X) == 1, X.eval(clf.to_query()).to_numpy(dtype=bool))
