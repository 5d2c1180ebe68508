"""BooleanRuleCV: algorithm, θ, R and form chosen by inner cross-validation."""

from __future__ import annotations

import logging
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import StratifiedKFold, cross_val_score, cross_validate
from sklearn.utils.estimator_checks import parametrize_with_checks

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, FeatureBinarizer, defaults, load_dataset
from rulemodels.model_selection import choose_candidate
from tests.helpers import EXPECTED_FAILED_CHECKS

# θ in the paper's units (misclassified samples): these tests were written on that scale
FAST = {"max_iter": 5, "n_thresholds": 3, "theta_unit": "sample", "min_literal_rows": 0}  # BooleanRuleCV's: no floor
# The search these tests were written for (before 2026-11-24): AM only, DNF unless a test names the forms, best mean
ONE = {"algorithms": "am", "forms": "dnf", "selection": "best"}


def _cv(**params) -> BooleanRuleCV:
    """A fast BooleanRuleCV of the old search (``ONE``) with ``params`` on top."""
    return BooleanRuleCV(**{**ONE, **FAST, **params})


@parametrize_with_checks(
    [BooleanRuleCV(thetas=1.0, n_clauses=1, cv=2, algorithms="scs", n_thresholds=3, theta_unit="sample")],
    # the same reason as BooleanRuleClassifier's (tests/estimators/test_estimator.py); on this check's data it
    # passed by chance before 2026-11-24 (missing-value and threshold handling changed the fits)
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.fixture(scope="module")
def planted():
    """Binary features with y = (f0 AND f1) OR (f2 AND f3): a 2-term DNF (a CNF needs 4 clauses)."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(120, 6)), columns=[f"f{j}" for j in range(6)])
    y = ((X.f0 & X.f1) | (X.f2 & X.f3)).astype(int)
    return X, y


@pytest.fixture(scope="module")
def planted_cv(planted):
    X, y = planted
    grid = {"thetas": (0.1, 1.0), "n_clauses": (1, 2), "forms": ("cnf", "dnf")}
    return _cv(**grid, cv=3, random_state=0).fit(X, y)


def _first_best(means: np.ndarray) -> int:
    rounded = np.round(means, 10)
    return int(np.flatnonzero(rounded == rounded.max())[0])


def test_choice_is_first_argmax_of_scores_recomputed_with_cross_validate(pima_4_columns_180):
    X, y = pima_4_columns_180
    cv = _cv(thetas=(0.5, 5.0), n_clauses=(1, 2), cv=3, random_state=0).fit(X, y)
    # Simplest first: fewest clauses, then largest θ.
    order = [(p["n_clauses"], p["theta"]) for p in cv.cv_results_["params"]]
    assert order == [(1, 5.0), (1, 0.5), (2, 5.0), (2, 0.5)]
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    means, literals = [], []
    for params in cv.cv_results_["params"]:
        est = clone(BooleanRuleClassifier(**FAST)).set_params(**params)
        out = cross_validate(est, X, y, cv=folds, scoring="accuracy", return_estimator=True)
        assert np.allclose(
            out["test_score"], [cv.cv_results_[f"split{k}_test_score"][len(means)] for k in range(3)]
        )
        assert np.allclose(cross_val_score(est, X, y, cv=folds), out["test_score"])
        means.append(out["test_score"].mean())
        literals.append(np.mean([e.rule_.n_literals for e in out["estimator"]]))
    np.testing.assert_allclose(cv.cv_results_["mean_test_score"], means)
    np.testing.assert_allclose(cv.cv_results_["mean_n_literals"], literals)
    assert cv.best_index_ == _first_best(np.array(means))
    assert cv.best_score_ == pytest.approx(max(means))
    assert cv.cv_results_["rank_test_score"][cv.best_index_] == 1
    assert cv.best_params_ == cv.cv_results_["params"][cv.best_index_]
    assert (cv.theta_, cv.n_clauses_, cv.form_) == (cv.best_params_["theta"], cv.best_params_["n_clauses"], "dnf")


def test_ties_go_to_fewest_clauses_then_largest_theta(planted):
    X, y = planted
    # At R = 2 and 3 every small θ recovers the planted rule on every fold: all four tie at 1.0.
    cv = _cv(thetas=(0.01, 0.1), n_clauses=(3, 2), cv=3, random_state=0).fit(X, y)
    assert np.all(cv.cv_results_["mean_test_score"] == 1.0)
    assert np.all(cv.cv_results_["rank_test_score"] == 1)
    assert cv.best_params_ == {"algorithm": "am", "form": "dnf", "n_clauses": 2, "theta": 0.1}
    assert cv.best_index_ == 0


def test_refit_equals_plain_estimator_with_best_params(planted_cv, planted):
    X, y = planted
    plain = BooleanRuleClassifier(**planted_cv.best_params_, **FAST).fit(X, y)
    assert str(planted_cv.rule_) == str(plain.rule_)
    assert str(planted_cv.best_estimator_.rule_) == str(plain.rule_)
    np.testing.assert_array_equal(planted_cv.predict(X), plain.predict(X))
    assert planted_cv.score(X, y) == plain.score(X, y)
    np.testing.assert_array_equal(planted_cv.classes_, [0, 1])
    assert planted_cv.n_features_in_ == 6
    assert list(planted_cv.feature_names_in_) == list(X.columns)
    assert planted_cv.binarizer_ is planted_cv.best_estimator_.binarizer_


def test_planted_two_term_rule_picks_two_clauses_and_dnf(planted_cv):
    results = planted_cv.cv_results_
    assert planted_cv.n_clauses_ >= 2
    assert planted_cv.form_ == "dnf"  # although "cnf" is listed first, i.e. wins ties
    one_clause = [i for i, p in enumerate(results["params"]) if p["n_clauses"] == 1]
    assert planted_cv.best_score_ > max(results["mean_test_score"][i] for i in one_clause)
    assert planted_cv.best_score_ == 1.0
    assert set(planted_cv.rule_.features) == {"f0", "f1", "f2", "f3"}
    assert set(results["param_form"]) == {"cnf", "dnf"}
    assert {f"split{k}_test_score" for k in range(3)} <= set(results)


def test_get_params_clone_round_trip():
    cv = BooleanRuleCV(thetas=(0.1, 1.0), n_clauses=(2,), forms=("cnf", "dnf"), cv=4, scoring="f1",
                       random_state=3, algorithms="scs", n_thresholds=4, solver_options={"threads": 1})
    params = cv.get_params()
    assert params["thetas"] == (0.1, 1.0) and params["algorithms"] == "scs" and params["n_thresholds"] == 4
    base_params = set(BooleanRuleClassifier().get_params()) - {"algorithm", "form", "n_clauses", "theta", "verbose", "random_state"}
    assert base_params <= set(params)
    copy = clone(cv)
    assert copy is not cv and copy.get_params() == params
    assert copy.set_params(thetas=(5.0,), n_clauses=1).get_params()["thetas"] == (5.0,)
    assert not hasattr(copy, "best_estimator_")
    assert "BooleanRuleCV" in repr(cv)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"thetas": ()}, "thetas"),
        ({"thetas": (0.1, -1.0)}, "thetas"),
        ({"thetas": -1.0}, "thetas"),
        ({"thetas": (float("nan"),)}, "thetas"),
        ({"n_clauses": ()}, "n_clauses"),
        ({"n_clauses": (0, 1)}, "n_clauses"),
        ({"n_clauses": (1.5,)}, "n_clauses"),
        ({"n_clauses": 0}, "n_clauses"),
        ({"forms": ()}, "forms"),
        ({"forms": ("dnf", "xnf")}, "forms"),
        ({"forms": "xnf"}, "forms"),
        ({"algorithms": "nope"}, "algorithms"),
        ({"algorithms": ()}, "algorithms"),
        ({"selection": "min"}, "selection"),
    ],
)
def test_bad_grid_raises_naming_the_parameter(params, name, planted):
    X, y = planted
    with pytest.raises(ValueError, match=name):
        BooleanRuleCV(**params).fit(X, y)


def test_scalar_grid_values_and_duplicates_are_accepted(planted):
    X, y = planted
    cv = _cv(thetas=1.0, n_clauses=(2, 2), forms="dnf", cv=3, random_state=0).fit(X, y)
    assert cv.cv_results_["params"] == [{"algorithm": "am", "form": "dnf", "n_clauses": 2, "theta": 1.0}]
    assert cv.best_index_ == 0


def test_bad_labels_are_reported_by_the_base_estimator(planted):
    # three classes used to be refused here; since 2026-11-25 they are searched as rule lists
    # (tests/estimators/test_multiclass.py), so the bad labels are now labels of a regression
    X, _ = planted
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        _cv(thetas=1.0, n_clauses=1, cv=2).fit(X, np.linspace(0.0, 1.0, len(X)))


def test_nested_cross_validation_on_pima(pima_4_columns_180):
    X, y = pima_4_columns_180
    # unpruned: with pruning (the default) the mean on this split was 0.617, below the majority's 0.644
    # (one 60-row test fold lost 7 rows; the two other splits tried gave the same score pruned or not)
    inner = _cv(thetas=(1.0, 10.0), n_clauses=(1, 2), cv=3, random_state=0, prune=False)
    scores = cross_val_score(inner, X, y, cv=StratifiedKFold(3, shuffle=True, random_state=1))
    assert scores.shape == (3,)
    majority = max(y.mean(), 1 - y.mean())
    assert scores.mean() > majority


def test_refit_false_keeps_the_search_only(planted, planted_cv):
    X, y = planted
    cv = pickle.loads(pickle.dumps(planted_cv))  # fitted with refit=True: a refit=False fit must drop that state
    assert cv.set_params(refit=False).fit(X, y) is cv
    assert cv.best_params_ == planted_cv.best_params_
    np.testing.assert_array_equal(cv.cv_results_["mean_test_score"], planted_cv.cv_results_["mean_test_score"])
    assert not hasattr(cv, "best_estimator_") and not hasattr(cv, "rule_")
    assert cv.n_features_in_ == 6
    assert "refit=False" in str(cv)
    with pytest.raises(NotFittedError):
        cv.predict(X)


def test_unfitted_predict_raises(planted):
    X, _ = planted
    with pytest.raises(NotFittedError):
        BooleanRuleCV().predict(X)


@pytest.mark.skipif(not hasattr(BooleanRuleClassifier, "predict_proba"), reason="predict_proba not in estimator yet")
def test_predict_proba_delegates(planted_cv, planted):
    X, _ = planted
    proba = planted_cv.predict_proba(X)
    np.testing.assert_array_equal(proba, planted_cv.best_estimator_.predict_proba(X))
    assert proba.shape == (len(X), 2)


@pytest.mark.skipif(not hasattr(BooleanRuleClassifier, "explain"), reason="explain not in estimator yet")
def test_explain_delegates(planted_cv, planted):
    X, _ = planted
    pd.testing.assert_frame_equal(planted_cv.explain(X.iloc[:5]), planted_cv.best_estimator_.explain(X.iloc[:5]))


def test_complexity_and_str_mirror_best_estimator(planted_cv):
    if hasattr(planted_cv.best_estimator_, "complexity_"):
        assert planted_cv.complexity_ == planted_cv.best_estimator_.complexity_
    assert str(planted_cv) == str(planted_cv.best_estimator_)
    assert "f0" in str(planted_cv)


def test_verbose_logs_the_search_and_prints_nothing(planted, caplog, capsys):
    X, y = planted
    assert logging.getLogger().getEffectiveLevel() > logging.INFO  # INFO appears only if verbose lowers it
    _cv(thetas=(0.1, 1.0), n_clauses=(1, 2), cv=3, random_state=0, verbose=True).fit(X, y)
    messages = [r.getMessage() for r in caplog.records if r.name == "rulemodels.model_selection"]
    assert any("searching 4 candidate(s)" in m for m in messages)
    assert any(m.startswith("chose am θ=1 R=2 form=dnf") for m in messages)
    assert sum("mean score over 3 folds" in m for m in messages) == 4
    assert logging.getLogger("rulemodels").level == logging.NOTSET  # restored after fit
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    caplog.clear()
    _cv(thetas=1.0, n_clauses=2, cv=3, random_state=0).fit(X, y)
    assert not [r for r in caplog.records if r.name.startswith("rulemodels")]


def test_sample_weight_reaches_fits_and_scores(planted):
    X, y = planted
    noisy = y.copy()
    flipped = np.arange(len(y)) % 10 == 0
    noisy[flipped] = 1 - noisy[flipped]
    weight = np.where(flipped, 0.0, 1.0)  # the flipped labels count for nothing
    grid = {"thetas": 1.0, "n_clauses": 2, "cv": 3, "random_state": 0}
    unweighted = _cv(**grid).fit(X, noisy)
    weighted = _cv(**grid).fit(X, noisy, sample_weight=weight)
    assert unweighted.best_score_ < 1.0
    assert weighted.best_score_ == 1.0  # weighted test-fold scores of the planted rule
    plain = BooleanRuleClassifier(theta=1.0, n_clauses=2, **FAST).fit(X, noisy, sample_weight=weight)
    assert str(weighted.rule_) == str(plain.rule_) == "(f0 AND f1) OR (f2 AND f3)"


def test_pickle_round_trip_predicts_the_same(planted_cv, planted):
    X, _ = planted
    copy = pickle.loads(pickle.dumps(planted_cv))
    np.testing.assert_array_equal(copy.predict(X), planted_cv.predict(X))
    assert copy.best_params_ == planted_cv.best_params_


# ---------------------------------------------------------------------------
# the one-standard-error rule, the algorithm grid, the default grid (2026-11-24 and 2026-11-25)
# ---------------------------------------------------------------------------


def _table(folds: list[list[float]], literals: list[float]) -> dict:
    """A constructed ``cv_results_`` (the columns choose_candidate reads): one row of fold scores per candidate."""
    scores = np.array(folds, dtype=float)
    table = {f"split{k}_test_score": scores[:, k] for k in range(scores.shape[1])}
    table.update({"mean_test_score": scores.mean(axis=1), "mean_n_literals": np.array(literals, dtype=float)})
    return table


def test_one_standard_error_rule_picks_the_fewest_literals_within_one_standard_error():
    table = _table(
        [[0.70, 0.90, 0.80, 0.80],   # best mean 0.80; std (ddof 1) 0.0816, standard error 0.0408: bar 0.7592
         [0.78, 0.78, 0.78, 0.78],   # 0.78, 3 literals: within the bar
         [0.76, 0.76, 0.76, 0.76],   # 0.76, 3 literals: within, but a lower mean than the one above
         [0.75, 0.75, 0.75, 0.75]],  # 0.75, 1 literal: below the bar
        literals=[10, 3, 3, 1],
    )
    index, bar = choose_candidate(table, "1se")
    assert bar == pytest.approx(0.80 - np.std([0.70, 0.90, 0.80, 0.80], ddof=1) / 2)
    assert index == 1
    assert choose_candidate(table, "best") == (0, pytest.approx(0.80))
    # Without the spread there is no margin: the best mean is the only candidate within its bar.
    flat = _table([[0.8] * 4, [0.78] * 4], literals=[10, 3])
    assert choose_candidate(flat, "1se")[0] == 0


def test_one_standard_error_rule_ties_go_to_the_candidate_listed_first():
    table = _table([[0.9, 0.7], [0.8, 0.8], [0.8, 0.8]], literals=[6, 2, 2])  # equal means and literals
    assert choose_candidate(table, "1se")[0] == 1


def test_fit_applies_the_selection_rule(pima_4_columns_180):
    X, y = pima_4_columns_180
    grid = {"thetas": (0.5, 2.0, 5.0), "n_clauses": (1, 2), "cv": 3, "random_state": 0, "algorithms": "am", **FAST}
    one_se = BooleanRuleCV(**grid, selection="1se").fit(X, y)
    best = BooleanRuleCV(**grid, selection="best").fit(X, y)
    results = one_se.cv_results_
    np.testing.assert_array_equal(results["mean_test_score"], best.cv_results_["mean_test_score"])
    assert one_se.best_index_ == choose_candidate(results, "1se")[0]
    assert best.best_index_ == int(np.argmin(results["rank_test_score"]))
    assert one_se.best_score_ >= one_se.selection_bar_ and best.selection_bar_ == best.best_score_
    assert results["mean_n_literals"][one_se.best_index_] <= results["mean_n_literals"][best.best_index_]
    plain = BooleanRuleClassifier(**one_se.best_params_, **FAST).fit(X, y)
    assert str(one_se.rule_) == str(plain.rule_)


def test_algorithms_are_searched_and_the_choice_is_refitted(planted):
    X, y = planted
    cv = _cv(algorithms=("bcd", "scs"), thetas=1.0, n_clauses=(1, 2), cv=3, random_state=0).fit(X, y)
    results = cv.cv_results_
    assert [(p["n_clauses"], p["algorithm"]) for p in results["params"]] == [(1, "bcd"), (1, "scs"), (2, "bcd"), (2, "scs")]
    assert list(results["param_algorithm"]) == ["bcd", "scs", "bcd", "scs"]
    assert cv.algorithm_ == cv.best_params_["algorithm"] == cv.best_estimator_.algorithm
    assert cv.best_estimator_.get_params()["algorithm"] == cv.algorithm_


def test_default_grid():
    cv = BooleanRuleCV()
    assert cv.algorithms == defaults.DEFAULT_SEARCH_ALGORITHMS == ("cg",)
    assert cv.forms == defaults.DEFAULT_FORMS == "minority"  # the form of the smaller class
    assert cv.min_literal_rows == defaults.DEFAULT_SEARCH_MIN_LITERAL_ROWS == 0
    assert cv.selection == defaults.DEFAULT_CV_SELECTION == "best"
    assert cv.cv == defaults.DEFAULT_SEARCH_CV == 5 and cv._splitter().get_n_splits() == 5
    assert BooleanRuleCV(cv=None)._splitter().get_n_splits() == 5
    # a θ path scaled to the data, and R = 1, 2, 3, 5 with two classes (R = 2 with more: rule lists)
    assert cv.thetas == "auto" and cv.n_thetas == defaults.DEFAULT_N_THETAS == 8
    assert cv.n_clauses == "auto"
    y = np.array([0, 1] * 50)  # a tie: DNF
    candidates = cv._candidates(cv._thetas(y, None), y)
    assert len(candidates) == 8 * len(defaults.DEFAULT_SEARCH_N_CLAUSES) and {c["form"] for c in candidates} == {"dnf"}
    more = np.array([0, 1, 1] * 30)  # the positive class is the larger: its rule is the CNF (the other class's DNF)
    assert {c["form"] for c in cv._candidates(cv._thetas(more, None), more)} == {"cnf"}
    assert {c["n_clauses"] for c in candidates} == {1, 2, 3, 5}
    three = np.array([0, 1, 2] * 30)
    assert {c["n_clauses"] for c in cv._candidates(cv._thetas(three, None), three)} == {BooleanRuleClassifier().n_clauses}
    # the same folds on every run without random_state
    X = np.zeros((100, 1))
    assert [list(t) for t, _ in cv._splitter().split(X, y)] == [list(t) for t, _ in BooleanRuleCV()._splitter().split(X, y)]
    # The fine grid for users who want one: fine below 1 %.
    thetas = sorted(defaults.FINE_THETAS)
    assert thetas[0] == 0.001 and thetas[-1] == 0.05
    fine = [t for t in thetas if t <= 0.01]
    assert max(b / a for a, b in zip(fine, fine[1:])) <= 2.0 and len(fine) >= 6


def test_default_search_fits_and_chooses_a_form():
    X, y = load_dataset("liver")
    cv = BooleanRuleCV(forms=("dnf", "cnf")).fit(X, y)
    assert cv.algorithm_ == "cg" and cv.form_ in ("dnf", "cnf")
    assert len(cv.cv_results_["params"]) == 2 * 8 * 4
    best = np.max(cv.cv_results_["mean_test_score"])
    assert cv.cv_results_["mean_test_score"][cv.best_index_] == best
    chosen = cv.cv_results_["params"][cv.best_index_]
    assert chosen["form"] == cv.form_ == cv.best_estimator_.form
    assert cv.score(X, y) == pytest.approx(1 - cv.training_error_)


def test_both_forms_on_a_liver_fold_without_missing_values_do_not_stop():
    """``forms=('dnf', 'cnf')`` stopped with ``literal '… is not missing' is not a column of the binary matrix``.

    The fit that stopped: liver outer fold 0, BCD, R = 3, θ = 0.002, CNF (its third clause was
    ``alkaline_phosphotase <= 63.0 OR alkaline_phosphotase > 63.0``, simplified to ``… is not missing``
    and then evaluated on the binary matrix). One inner "split" trains on exactly those rows.
    """
    X, y = load_dataset("liver")
    train, _ = next(iter(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)))
    X, y = X.iloc[train], y.iloc[train]
    assert not X.isna().any().any()
    every_row = np.arange(len(y))
    cv = BooleanRuleCV(algorithms="bcd", thetas=0.002, n_clauses=3, forms=("dnf", "cnf"), cv=[(every_row, every_row)])
    cv.fit(X, y)
    assert len(cv.cv_results_["params"]) == 2 and not np.isnan(cv.cv_results_["mean_test_score"]).any()
    for form in ("dnf", "cnf"):
        rule = BooleanRuleClassifier(algorithm="bcd", theta=0.002, n_clauses=3, form=form).fit(X, y).rule_
        assert all(lit.op not in ("is_nan", "not_nan") for lit in rule.literals)


def amounts_in_cents(n: int = 600, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """A unique integer column that carries the signal (amounts in cents): it fills 55 % of its range in all the
    rows, 44 % in a training fold of five, so it looks like record numbers in the rows but not in a fold."""
    rng = np.random.default_rng(seed)
    cents = rng.choice(int(n / 0.55), size=n, replace=False) + 1000
    y = (cents > np.quantile(cents, 0.63)).astype(int)
    y = np.where(rng.random(n) < 0.03, 1 - y, y)
    return pd.DataFrame({"amount": cents, "other": rng.normal(size=n)}), y


def test_the_id_like_decision_is_made_once_for_the_folds_and_the_refit():
    """The folds score the model that is returned: a column left out of the refit is left out of every fold."""
    from rulemodels import IDLikeColumnWarning

    X, y = amounts_in_cents()
    folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    density = [len(train) / (np.ptp(X["amount"].iloc[train]) + 1) for train, _ in folds]
    assert max(density) < 0.5 < len(X) / (np.ptp(X["amount"]) + 1)  # kept in each fold alone, dropped in all the rows
    with pytest.warns(IDLikeColumnWarning) as caught:
        cv = BooleanRuleCV(cv=folds, thetas=(0.01, 0.05), n_clauses=(1,), **ONE, **FAST).fit(X, y)
    assert [str(w.message).split(" holds")[0] for w in caught if w.category is IDLikeColumnWarning] == ["column 'amount'"]
    refit_accuracy = float(np.mean(cv.predict(X) == y))
    # before, the folds kept the column (best_score_ 0.95) and the refit returned a constant (accuracy 0.62)
    assert cv.best_score_ < 0.7 and refit_accuracy < 0.7
    assert cv.best_estimator_.binarizer_.dropped_columns_ == ["amount"]
    assert cv.best_estimator_.high_cardinality == ["amount"]  # the decision, as every fold's fit read it
    # the returned configuration's own cross-validated score is best_score_
    again = cross_val_score(clone(cv.best_estimator_), X, y, cv=folds)
    assert np.mean(again) == pytest.approx(cv.best_score_, abs=1e-12)


def visits_and_codes(n: int = 300, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray, list]:
    """``visits`` is 0 or 1, and 2 in eight rows; ``code`` is text, and the number 7 in eight rows. Every 2 and
    every 7 is in the test part of the first of five folds, so that fold's training rows see a 0/1 flag and text
    categories, while the other folds and all the rows see a numeric column and mixed categories. The label is
    ``visits >= 1``."""
    rng = np.random.default_rng(seed)
    visits = rng.integers(0, 2, n)
    code = pd.Series(rng.choice(["a", "b", "c"], n), dtype=object)
    odd = np.arange(0, 40, 5)  # eight rows, all in the first test fold
    visits[odd] = 2
    code[odd] = 7
    X = pd.DataFrame({"visits": visits, "code": code, "noise": rng.normal(size=n)})
    y = (visits >= 1).astype(int)
    test_parts = [np.arange(0, 60)] + [np.arange(60 + 60 * k, 120 + 60 * k) for k in range(4)]
    folds = [(np.setdiff1d(np.arange(n), test), test) for test in test_parts]
    return X, y, folds


def test_every_column_kind_is_decided_once_for_the_folds_and_the_refit():
    """A column of 0, 1 and a few 2s is a flag in a fold without a 2 and numeric in all the rows; a text column with
    a few numbers has text categories in a fold without them. Decided per fit, the first fold learned the flag
    ``visits`` (false on a 2) and scored a model the refit does not return; decided once, every fold reads each
    column as the refit does, and best_score_ is the returned configuration's cross-validated score."""
    from rulemodels.rules import ColumnKind, ColumnKindDriftWarning

    X, y, folds = visits_and_codes()
    train = folds[0][0]
    alone = FeatureBinarizer().fit(X.iloc[train]).column_kinds_
    assert alone["visits"] == ColumnKind("flag") and alone["code"] == ColumnKind("categorical", "text")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ColumnKindDriftWarning)  # before, the first fold read its test rows' 2s as drift
        cv = BooleanRuleCV(cv=folds, thetas=(0.01, 0.05), n_clauses=(1,), **ONE, **FAST).fit(X, y)
    kinds = cv.best_estimator_.binarizer_.column_kinds_
    assert kinds == {"visits": ColumnKind("numeric"), "code": ColumnKind("categorical", "mixed"),
                     "noise": ColumnKind("numeric")}
    assert cv.best_estimator_.column_kinds == kinds  # the decision, as every fold's fit read it
    for fold_train, _ in folds:
        fitted = clone(cv.best_estimator_).fit(X.iloc[fold_train], y[fold_train])
        assert fitted.binarizer_.column_kinds_ == kinds
    assert np.all(cv.predict(X) == y)  # the returned rule is right on every row ...
    assert cv.best_score_ == 1.0  # ... and the folds say so (before: 0.973, the first fold's 2s predicted 0)
    again = cross_val_score(clone(cv.best_estimator_), X, y, cv=folds)
    assert np.mean(again) == pytest.approx(cv.best_score_, abs=1e-12)


def test_column_kinds_given_to_the_search_are_kept():
    from rulemodels.rules import ColumnKind

    X, y, folds = visits_and_codes()
    X = X.assign(visits=np.minimum(X["visits"], 1))  # a 0/1 column, decided numeric by the caller
    cv = BooleanRuleCV(cv=folds, thetas=(0.01,), n_clauses=(1,), column_kinds={"visits": "numeric"}, **ONE, **FAST)
    cv.fit(X, y)
    assert cv.column_kinds == {"visits": "numeric"}  # the parameter is not changed by fit
    assert cv.best_estimator_.column_kinds["visits"] == ColumnKind("numeric")
    assert "visits" in cv.best_estimator_.binarizer_.thresholds_
