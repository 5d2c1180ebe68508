"""BooleanRuleClassifier and BooleanRuleCV on more than two classes: ordered rule lists."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.model_selection import cross_val_score
from sklearn.utils.estimator_checks import check_classifiers_classes, check_classifiers_train

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, RuleList
from rulemodels.algorithms import TrainingWorkspace
from rulemodels.algorithms.baseline import TrivialRuleWarning


@pytest.fixture(scope="module")
def pima_three(pima_200):
    """Pima's 200 rows, the diabetics split by their median glucose: 'healthy', 'low', 'high'."""
    X, y = pima_200
    median = X["glucose"][y == 1].median()
    labels = np.where(y == 0, "healthy", np.where(X["glucose"] > median, "high", "low"))
    return X, pd.Series(labels, name="status", index=X.index)


def test_three_classes_learn_an_ordered_list_that_predict_follows(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01).fit(X, y)
    assert isinstance(clf.rule_, RuleList) and isinstance(clf.raw_rule_, RuleList)
    assert list(clf.classes_) == ["healthy", "high", "low"]
    assert clf.rule_.steps, "the list decides something"
    assert np.array_equal(clf.predict(X), clf.rule_.predict(X))
    assert clf.class_order_ == list(clf.rule_.classes)
    assert len(clf.steps_) == len(clf.rule_.steps)
    for (_label, rule), step in zip(clf.rule_.steps, clf.steps_):
        assert isinstance(step, BooleanRuleClassifier) and step.rule_ == rule
    wrong = clf.predict(X) != y.to_numpy()
    assert clf.training_error_ == pytest.approx(wrong.mean())
    assert clf.training_error_ < clf.baseline_error_
    assert clf.complexity_ == clf.rule_.complexity()
    assert str(clf).splitlines()[-1].startswith("ELSE status = ")


def test_each_step_is_the_binary_fit_of_the_same_settings_on_the_rows_left(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.01, form="cnf", algorithm="bcd", class_order="rarest").fit(X, y)
    rows = np.ones(len(X), dtype=bool)
    for (label, rule), step in zip(clf.rule_.steps, clf.steps_):
        assert step.get_params() == clf.get_params()  # every parameter passed through unchanged
        # the step's binary fit, again: the same settings on the rows left, with the binarizer of all the rows
        with TrainingWorkspace(X[rows], (y[rows] == label).astype(int), binarizer=clf.binarizer_, fit_binarizer=False) as ws:
            again = clone(clf).fit(X[rows], (y[rows] == label).astype(int), workspace=ws)
        assert again.rule_ == rule and again.form_ == "cnf" and again.algorithm == "bcd"
        rows &= ~rule.evaluate(X)


def test_rarest_order_puts_the_most_frequent_class_last(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(theta=0.01, class_order="rarest").fit(X, y)
    counts = y.value_counts()
    assert clf.rule_.default == counts.idxmax()
    assert clf.order_search_ == []
    placed = [label for label, _ in clf.rule_.steps]
    assert placed == sorted(placed, key=lambda label: counts[label])


def test_error_order_keeps_the_class_with_the_lowest_training_error_at_each_step(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(theta=0.01).fit(X, y)
    first = clf.order_search_[0]
    assert set(first) == {"healthy", "high", "low"}
    assert clf.rule_.steps[0][0] == min(first, key=first.get)
    # the error of a kept last step is the list's training error
    assert min(clf.order_search_[-1].values()) == pytest.approx(clf.training_error_)


@pytest.mark.parametrize("labels", [np.array([3, 10, 20]), np.array(["a", "b", "c"], dtype=object)])
def test_integer_and_string_labels_keep_their_type_everywhere(pima_three, labels):
    X, y = pima_three
    codes = pd.Categorical(y, categories=["healthy", "high", "low"]).codes
    target = labels[codes]
    clf = BooleanRuleClassifier(theta=0.01).fit(X, target)
    assert list(clf.classes_) == list(labels)
    predicted = clf.predict(X)
    assert predicted.dtype == np.asarray(labels).dtype and set(predicted) <= set(labels)
    explained = clf.explain(X)
    assert explained["prediction"].tolist() == predicted.tolist()
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 3) and np.allclose(proba.sum(axis=1), 1.0)


def test_predict_proba_is_the_smoothed_class_frequency_of_each_step_bucket(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(theta=0.01).fit(X, y)
    proba = clf.predict_proba(X)
    buckets = clf.rule_.claims(X)
    for bucket in np.unique(buckets):
        rows = buckets == bucket
        counts = np.array([(y[rows] == label).sum() for label in clf.classes_])
        expected = (counts + 1) / (rows.sum() + 3)
        assert np.allclose(proba[rows], expected)


def test_sample_weight_is_passed_to_every_step(pima_three):
    X, y = pima_three
    weights = np.where(y == "low", 20.0, 1.0)
    plain = BooleanRuleClassifier(theta=0.01).fit(X, y)
    weighted = BooleanRuleClassifier(theta=0.01).fit(X, y, sample_weight=weights)
    assert "low" in [label for label, _ in weighted.rule_.steps]
    assert (weighted.predict(X) == "low").sum() > (plain.predict(X) == "low").sum()


def test_exact_stays_binary_and_says_what_to_do(pima_three):
    X, y = pima_three
    with pytest.raises(ValueError, match=r"algorithm='exact' learns one two-class rule .* y has 3 classes .* use a heuristic"):
        BooleanRuleClassifier(algorithm="exact").fit(X, y)


def test_a_two_class_fit_after_a_rule_list_drops_the_list_attributes(pima_three, pima_200):
    X, y = pima_three
    clf = BooleanRuleClassifier(theta=0.01).fit(X, y)
    assert hasattr(clf, "class_rates_") and not hasattr(clf, "pattern_rates_")
    clf.fit(*pima_200)
    assert not hasattr(clf, "steps_") and not hasattr(clf, "class_rates_") and hasattr(clf, "pattern_rates_")
    assert not isinstance(clf.rule_, RuleList)


def test_exports_html_and_repr_of_a_fitted_list(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(theta=0.01).fit(X, y)
    assert clf.to_sql().startswith("CASE WHEN ")
    assert list(clf.to_query()) == list(clf.rule_.classes)
    namespace: dict = {}
    exec(clf.to_python(), namespace)
    rows = X.astype(object).to_dict("records")
    assert [namespace["predict_row"](row) for row in rows] == clf.predict(X).tolist()
    assert "ordered rule list" in clf._repr_html_() and "\n" not in repr(clf)


def test_estimator_tags_say_multiclass_and_sklearn_checks_pass_on_three_classes():
    clf = BooleanRuleClassifier(max_iter=3, n_thresholds=3)
    assert clf.__sklearn_tags__().classifier_tags.multi_class
    assert BooleanRuleCV().__sklearn_tags__().classifier_tags.multi_class
    # the scikit-learn checks of multiclass targets, run directly (parametrize_with_checks runs them too)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrivialRuleWarning)
        check_classifiers_train("BooleanRuleClassifier", clf)
        check_classifiers_classes("BooleanRuleClassifier", clf)


def test_cross_validation_scores_a_rule_list(pima_three):
    X, y = pima_three
    scores = cross_val_score(BooleanRuleClassifier(theta=0.01, algorithm="scs"), X, y, cv=3)
    assert scores.shape == (3,) and scores.mean() > 0.6


def test_boolean_rule_cv_searches_rule_lists(pima_three):
    X, y = pima_three
    search = BooleanRuleCV(algorithms=("scs",), thetas=(0.01, 0.05), n_clauses=(1, 2), forms=("dnf",), cv=3,
                           class_order="rarest").fit(X, y)
    assert isinstance(search.rule_, RuleList) and search.best_estimator_.class_order == "rarest"
    assert np.array_equal(search.predict(X), search.best_estimator_.predict(X))
    assert search.predict_proba(X).shape == (len(X), 3)
    assert hasattr(search, "steps_")


def test_a_rule_list_path_of_one_theta_is_the_plain_fit(pima_three):
    X, y = pima_three
    base = BooleanRuleClassifier(n_clauses=2)
    for theta in (0.02, 0.005):
        plain = clone(base).set_params(theta=theta).fit(X, y)
        (path,) = base._fit_rule_list_path(X, y, None, [theta]).values()
        assert path.rule_ == plain.rule_ and path.theta == theta
        assert path.training_error_ == pytest.approx(plain.training_error_)
        assert path.class_order_ == plain.class_order_ and path.order_search_ == plain.order_search_


def test_a_lists_rule_on_the_path_depends_only_on_the_thetas_above_it(pima_three):
    X, y = pima_three
    thetas = [0.05, 0.02, 0.01, 0.005, 0.002]
    base = BooleanRuleClassifier(n_clauses=2)
    full = base._fit_rule_list_path(X, y, None, thetas)
    assert sorted(full) == sorted(thetas)
    for k in (1, 3):  # the path cut below θ_k gives the same lists down to it (how BooleanRuleCV refits)
        cut = base._fit_rule_list_path(X, y, None, thetas[:k + 1])
        assert all(cut[t].rule_ == full[t].rule_ for t in thetas[:k + 1])
    sizes = [full[t].rule_.n_literals for t in thetas]
    assert sizes[0] < sizes[-1], "smaller θ, longer lists"
    for theta, fitted in full.items():
        assert fitted.get_params() == clone(base).set_params(theta=theta).get_params()
        assert np.array_equal(fitted.predict(X), fitted.rule_.predict(X))


def test_boolean_rule_cv_grows_rule_lists_along_its_theta_path(pima_three):
    X, y = pima_three
    thetas = (0.5, 0.02, 0.01, 0.005)  # at θ = 0.5 no literal pays for itself: a trivial list, which must not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error", TrivialRuleWarning)
        search = BooleanRuleCV(thetas=thetas, n_clauses=(2,), cv=3).fit(X, y)
    assert search.cv_results_["mean_n_literals"][0] == 0 and search.theta_ < 0.5
    assert isinstance(search.rule_, RuleList)
    # the refit is the chosen θ's list on the path over all rows, as each fold scored its own path's lists
    walked = [t for t in thetas if t >= search.theta_]
    chain = BooleanRuleClassifier(n_clauses=2, min_literal_rows=0)._fit_rule_list_path(X, y, None, walked)
    assert search.rule_ == chain[search.theta_].rule_
    # rule_path_: every θ's CV scores, and the refit's lists down to the chosen θ
    path = search.rule_path_
    assert list(path["theta"]) == list(thetas) and path["chosen"].sum() == 1
    assert path.loc[path["chosen"], "theta"].item() == search.theta_
    for row in path.itertuples():
        if row.theta in chain:
            learned = chain[row.theta].raw_rule_  # the rule as learned, as for two classes
            assert row.rule == str(learned) and row.n_literals == learned.n_literals
            assert row.training_error == pytest.approx(chain[row.theta].training_error_)
        else:
            assert pd.isna(row.rule) and np.isnan(row.training_error) and row.theta < search.theta_
    assert np.allclose(path["mean_test_score"], search.cv_results_["mean_test_score"])
    # each fold's score is its path list's accuracy on the test fold
    splits = list(search._splitter().split(X, y))
    train, test = splits[0]
    lists = BooleanRuleClassifier(n_clauses=2, min_literal_rows=0)._fit_rule_list_path(X.iloc[train], y.iloc[train], None, list(thetas))
    for i, params in enumerate(search.cv_results_["params"]):
        fitted = lists[params["theta"]]
        assert search.cv_results_["split0_test_score"][i] == pytest.approx(fitted.score(X.iloc[test], y.iloc[test]))


def test_streams_and_workspaces_refuse_more_than_two_classes_clearly(pima_three, tmp_path):
    X, y = pima_three
    with TrainingWorkspace(X, (y == "high").astype(int)) as workspace:
        with pytest.raises(ValueError, match="workspace= holds a two-class problem.*fit without workspace="):
            BooleanRuleClassifier().fit(X, y, workspace=workspace)
    pytest.importorskip("pyarrow")
    path = tmp_path / "three.parquet"
    X.assign(status=y.to_numpy()).to_parquet(path)
    with pytest.raises(ValueError, match="a Parquet or Dask fit learns a two-class rule.*fit in-memory data"):
        BooleanRuleClassifier().fit(str(path), "status")


def test_form_auto_chooses_the_form_of_each_step(pima_three):
    X, y = pima_three
    clf = BooleanRuleClassifier(form="auto", cv=2, algorithm="scs", theta=0.01, random_state=0).fit(X, y)
    for step in clf.steps_:
        assert step.form_ in ("dnf", "cnf") and set(step.form_cv_errors_) == {"dnf", "cnf"}
        assert step.rule_.form == step.form_
    forms = {step.form_ for step in clf.steps_}
    assert clf.form_ == (forms.pop() if len(forms) == 1 else "mixed")
