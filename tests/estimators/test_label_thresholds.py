"""Label-aware thresholds (``thresholds='tree'``) through the estimators, the workspace and the command line."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, TrainingWorkspace, defaults
from rulemodels.algorithms.baseline import TrivialRuleWarning
from rulemodels.data import FeatureBinarizer


def rare_tail(n: int = 3000, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Positives only in the top 3 % of x: deciles put no threshold there."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1000, n)
    y = (x > np.quantile(x, 0.97)) & (rng.random(n) < 0.9)
    return pd.DataFrame({"x": x, "noise": rng.normal(size=n)}), y


@pytest.mark.parametrize("algorithm", ["am", "cg"])
def test_tree_thresholds_beat_the_majority_class_where_quantiles_cannot(algorithm):
    X, y = rare_tail()
    majority = float(np.mean(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrivialRuleWarning)
        quantile = BooleanRuleClassifier(algorithm=algorithm, thresholds="quantile").fit(X, y)
    tree = BooleanRuleClassifier(algorithm=algorithm, thresholds="tree").fit(X, y)
    assert quantile.training_error_ >= majority
    assert tree.training_error_ < majority - 0.01
    assert tree.binarizer_.thresholds == "tree"
    X_test, y_test = rare_tail(seed=1)
    assert np.mean(tree.predict(X_test) != y_test) < np.mean(y_test)


def test_the_workspace_fits_the_binarizer_with_its_labels_and_weights():
    X, y = rare_tail(600)
    weights = np.where(y, 3.0, 1.0)
    binarizer = FeatureBinarizer(thresholds="tree", nan="indicator")
    with TrainingWorkspace(X, y, weights, binarizer=binarizer) as workspace:
        fitted = workspace.binarizer.thresholds_
    expected = FeatureBinarizer(thresholds="tree", nan="indicator").fit(X, y, weights).thresholds_
    assert all(np.array_equal(fitted[name], expected[name]) for name in expected)
    with TrainingWorkspace(X, y, weights, binarizer=FeatureBinarizer(nan="indicator")) as workspace, pytest.raises(
        ValueError, match="'thresholds': 'quantile'.*'thresholds': 'tree'"
    ):
        BooleanRuleClassifier(thresholds="tree", high_cardinality="drop").fit(X, y, sample_weight=weights, workspace=workspace)


def test_cv_passes_thresholds_on_and_fits_each_fold_with_its_labels():
    X, y = rare_tail(1200)
    search = BooleanRuleCV(algorithms="cg", thetas=[0.005], n_clauses=[1], forms=["dnf"], cv=2, thresholds="tree")
    search.fit(X, y)
    assert search.best_estimator_.thresholds == "tree"
    assert search.binarizer_.thresholds == "tree"
    assert search.best_estimator_.predict(X).any()


def test_a_rule_list_fits_its_binarizer_on_all_classes():
    x = np.arange(300.0)  # 0..299 would be left out as row numbers: kept
    X = pd.DataFrame({"x": x, "z": np.random.default_rng(0).normal(size=300)})
    y = np.array(["low"] * 100 + ["mid"] * 100 + ["high"] * 100)
    clf = BooleanRuleClassifier(algorithm="cg", thresholds="tree", class_order="rarest", high_cardinality="keep").fit(X, y)
    assert clf.binarizer_.thresholds_["x"].tolist() == [99.0, 199.0]  # between 99 and 100, 199 and 200, written shortest
    assert np.mean(clf.predict(X) == y) == 1.0


def test_cli_thresholds_takes_a_method_or_the_old_number():
    from rulemodels.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["fit", "pima", "--thresholds", "tree"]).thresholds == "tree"
    old = parser.parse_args(["fit", "pima", "--thresholds", "4"])
    assert (old.thresholds, old.n_thresholds) == (defaults.DEFAULT_THRESHOLDS, 4)  # the number sets n_thresholds only
    with pytest.raises(SystemExit):
        parser.parse_args(["fit", "pima", "--thresholds", "gini"])


def test_the_trivial_rule_warning_gives_advice_that_works_on_the_data():
    X, y = rare_tail()
    with pytest.warns(TrivialRuleWarning, match=r"try theta <= .*BooleanRuleCV\(\).*class_weight='balanced'") as record:
        BooleanRuleClassifier(thresholds="quantile", theta=0.02).fit(X, y)
    message = str(next(w.message for w in record if issubclass(w.category, TrivialRuleWarning)))
    theta = float(re.search(r"theta <= ([0-9.e-]+)", message).group(1))
    assert theta == pytest.approx(np.mean(y) / 10, rel=0.05)
    majority = float(np.mean(y))
    assert BooleanRuleClassifier(theta=theta).fit(X, y).training_error_ < majority - 0.01  # the advised θ
    assert BooleanRuleCV().fit(X, y).training_error_ < majority - 0.01  # the advised search
