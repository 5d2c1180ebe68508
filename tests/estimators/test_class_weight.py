"""class_weight on BooleanRuleClassifier and BooleanRuleCV: scikit-learn's weights, multiplied into sample_weight."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import balanced_accuracy_score, recall_score
from sklearn.model_selection import StratifiedKFold
from sklearn.utils.class_weight import compute_sample_weight

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, load_dataset
from rulemodels.cli import main
from rulemodels.utils import InvalidParameterError

SETTINGS = dict(algorithm="am", n_clauses=2, theta=0.005, thresholds="quantile")  # the settings these tests were written for


@pytest.fixture(scope="module")
def imbalanced():
    """Pima with a third of its positives: a rare positive class (15 % of the rows)."""
    X, y = load_dataset("pima")
    keep = (y == 0) | (np.arange(len(y)) % 3 == 0)
    return X[keep].reset_index(drop=True), y[keep].reset_index(drop=True)


def same_fit(a: BooleanRuleClassifier, b: BooleanRuleClassifier) -> None:
    assert a.raw_rule_ == b.raw_rule_
    assert a.training_error_ == pytest.approx(b.training_error_, abs=1e-12)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-9)


def test_balanced_is_scikit_learns_balanced_sample_weight(imbalanced):
    X, y = imbalanced
    balanced = BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(X, y)
    same_fit(balanced, BooleanRuleClassifier(**SETTINGS).fit(X, y, sample_weight=compute_sample_weight("balanced", y)))
    plain = BooleanRuleClassifier(**SETTINGS).fit(X, y)
    assert balanced.raw_rule_ != plain.raw_rule_  # the weights change what is learned ...
    # ... towards the rare class: more of it found, a better balanced accuracy on the training rows
    assert recall_score(y, balanced.predict(X)) > recall_score(y, plain.predict(X))
    assert balanced_accuracy_score(y, balanced.predict(X)) > balanced_accuracy_score(y, plain.predict(X))
    assert balanced.baseline_error_ == pytest.approx(0.5)  # the classes weigh the same


def test_a_dict_multiplies_sample_weight_and_string_labels_work(imbalanced):
    X, y = imbalanced
    labels = pd.Series(np.where(y == 1, "diabetic", "healthy"))
    weights = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    by_dict = BooleanRuleClassifier(class_weight={"diabetic": 4.0}, **SETTINGS).fit(X, labels, sample_weight=weights)
    by_hand = BooleanRuleClassifier(**SETTINGS).fit(X, labels, sample_weight=weights * np.where(y == 1, 4.0, 1.0))
    same_fit(by_dict, by_hand)
    numpy_keys = BooleanRuleClassifier(class_weight={np.int64(1): 4.0, 0: 1.0}, **SETTINGS).fit(X, y, sample_weight=weights)
    by_hand = BooleanRuleClassifier(**SETTINGS).fit(X, y, sample_weight=weights * np.where(y == 1, 4.0, 1.0))
    same_fit(numpy_keys, by_hand)  # numpy and Python labels name the same class


@pytest.mark.parametrize(("class_weight", "message"), [
    ({"diabetic": 2.0}, r"class_weight names \['diabetic'\] that are not classes of y; the classes are \[0, 1\]"),
    ({1: -1.0}, "class_weight values must be finite numbers >= 0"),
    ({1: float("nan")}, "class_weight values must be finite numbers >= 0"),
])
def test_bad_class_weights_are_refused_with_what_to_fix(imbalanced, class_weight, message):
    X, y = imbalanced
    with pytest.raises(ValueError, match=message):
        BooleanRuleClassifier(class_weight=class_weight).fit(X, y)


def test_an_unknown_mode_is_a_parameter_error(imbalanced):
    X, y = imbalanced
    with pytest.raises(InvalidParameterError, match="'class_weight' parameter of BooleanRuleClassifier must be"):
        BooleanRuleClassifier(class_weight="balance").fit(X, y)


def test_cv_weighs_each_training_fold_and_scores_balanced_accuracy(imbalanced):
    X, y = imbalanced
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    search = BooleanRuleCV(
        algorithms=("am",), thetas=(0.01,), n_clauses=(1, 2), forms=("dnf",), cv=folds,
        class_weight="balanced", scoring="balanced_accuracy",
    ).fit(X, y)
    assert search.best_estimator_.class_weight == "balanced"
    for index, params in enumerate(search.cv_results_["params"]):
        scores = []
        for train, test in folds.split(X, y):
            fold = BooleanRuleClassifier(class_weight="balanced", min_literal_rows=search.min_literal_rows,
                                         **params).fit(X.iloc[train], y.iloc[train])
            scores.append(balanced_accuracy_score(y.iloc[test], fold.predict(X.iloc[test])))
        assert search.cv_results_["mean_test_score"][index] == pytest.approx(np.mean(scores), abs=1e-12)
    refit = BooleanRuleClassifier(class_weight="balanced", min_literal_rows=search.min_literal_rows,
                                  **search.best_params_).fit(X, y)
    assert search.best_estimator_.raw_rule_ == refit.raw_rule_


def test_a_parquet_fit_with_balanced_weights_is_the_in_memory_one(imbalanced, tmp_path):
    pytest.importorskip("pyarrow")
    X, y = imbalanced
    path = tmp_path / "rare.parquet"
    X.assign(label=y).to_parquet(path, row_group_size=100)
    streamed = BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(path, "label")
    same_fit(streamed, BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(X, y))
    # with a weight column, "balanced" still counts rows, as scikit-learn does
    weights = np.random.default_rng(1).integers(1, 4, len(y)).astype(float)
    X.assign(label=y, w=weights).to_parquet(path, row_group_size=100)
    streamed = BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(path, "label", sample_weight="w")
    same_fit(streamed, BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(X, y, sample_weight=weights))


def test_the_command_line_fits_balanced_and_says_which_error_is_which(imbalanced, tmp_path, capsys):
    X, y = imbalanced
    X.assign(diabetes=y).to_csv(tmp_path / "rare.csv", index=False)
    out = tmp_path / "rule.json"
    assert main(["fit", str(tmp_path / "rare.csv"), "--target", "diabetes", "--algorithm", "am", "--n-clauses", "2",
                 "--theta", "0.005", "--thresholds", "quantile", "--class-weight", "balanced", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    clf = BooleanRuleClassifier(class_weight="balanced", **SETTINGS).fit(X, y)
    assert f"  {clf.rule_}" in printed.splitlines()
    plain_error = np.mean(clf.predict(X) != y)
    assert f"training error: {plain_error:.4f}" in printed
    assert f"class weight: balanced; the error the learner minimised (class-weighted): {clf.training_error_:.4f}" in printed
    import json

    assert json.loads(out.read_text())["metadata"]["class_weight"] == "balanced"


def test_a_rule_list_weighs_the_k_classes_once_not_each_step():
    """Three classes: the classes' weights are those of the K labels (each step's binary fit gets them as weights)."""
    X, y = load_dataset("pima")
    labels = np.where(y == 0, "healthy", np.where(X["glucose"] > X["glucose"].median(), "high", "low"))
    settings = dict(SETTINGS, class_order="rarest")
    balanced = BooleanRuleClassifier(class_weight="balanced", **settings).fit(X, labels)
    by_hand = BooleanRuleClassifier(**settings).fit(X, labels, sample_weight=compute_sample_weight("balanced", labels))
    assert balanced.rule_ == by_hand.rule_ and balanced.training_error_ == pytest.approx(by_hand.training_error_)
    assert all(step.class_weight is None for step in balanced.steps_)
    plain = BooleanRuleClassifier(**settings).fit(X, labels)
    assert balanced_accuracy_score(labels, balanced.predict(X)) > balanced_accuracy_score(labels, plain.predict(X))
    by_dict = BooleanRuleClassifier(class_weight={"low": 3.0}, **settings).fit(X, labels)
    assert by_dict.rule_ == BooleanRuleClassifier(**settings).fit(X, labels, sample_weight=np.where(labels == "low", 3.0, 1.0)).rule_
