"""Learning never crashes on ordinary data and never returns a worse constant.

* A CNF clause that one column makes true on every training row
  (``x <= 63 OR x > 63``) is dropped by every algorithm: kept, it simplified to
  ``x is not missing``, which is no column of the binary matrix when ``x``
  had no missing values, and the fit crashed.
* Fits of every algorithm in both forms on small random tables, with and
  without missing values, give rules (raw and simplified) that evaluate alike
  on the binary matrix they were learned from and on the raw rows.
* A rule that is constant on the training rows is the constant with the lower
  weighted training error.
* The rule does not depend on the scale of the sample weights.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import StratifiedKFold

from rulemodels import BooleanRuleClassifier, FeatureBinarizer, TrainingWorkspace, load_dataset
from rulemodels.algorithms import ALGORITHMS
from rulemodels.algorithms.baseline import TrivialRuleWarning
from rulemodels.rules import Clause, Literal, Rule

FORMS = ("dnf", "cnf")
PROPERTY = settings(deadline=None, derandomize=True, database=None, max_examples=12,
                    suppress_health_check=[HealthCheck.too_slow])


def _liver_fold0() -> tuple[pd.DataFrame, pd.Series]:
    X, y = load_dataset("liver")
    train, _ = next(iter(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)))
    return X.iloc[train], y.iloc[train]


# ---------------------------------------------------------------------------
# (a) the crash: 'x is not missing' is not a column of the binary matrix
# ---------------------------------------------------------------------------


def test_cnf_bcd_on_liver_fold_without_missing_values_does_not_crash():
    """BCD filled the third CNF clause with ``alkaline_phosphotase <= 63.0 OR alkaline_phosphotase > 63.0``.

    The clause LPs are posed without the tie-break (``tie_break=0``), as when
    this was found: with it, HiGHS reaches a different optimum on this fold
    and the tautology does not come up.
    """
    X, y = _liver_fold0()
    assert not X.isna().any().any()
    quantiles = FeatureBinarizer(nan="indicator", thresholds="quantile")  # the binarization it was found with
    with TrainingWorkspace(X, y, tie_break=0.0, binarizer=quantiles) as workspace:
        clf = BooleanRuleClassifier(algorithm="bcd", n_clauses=3, theta=0.002, form="cnf", thresholds="quantile").fit(
            X, y, workspace=workspace,
        )
    for rule in (clf.raw_rule_, clf.rule_):
        assert all(lit.op not in ("is_nan", "not_nan") for lit in rule.literals)
        assert not any({lit.feature for lit in clause} == {"alkaline_phosphotase"} for clause in rule.clauses)
    assert clf.raw_rule_.n_clauses == 2
    np.testing.assert_array_equal(clf.predict(X), clf.raw_rule_.evaluate(X).astype(int))


# ---------------------------------------------------------------------------
# (b) property: every algorithm, both forms, random mixed tables with and without NaN
# ---------------------------------------------------------------------------


@st.composite
def mixed_tables(draw: st.DrawFn) -> tuple[pd.DataFrame, np.ndarray, bool]:
    """8-24 rows: two numeric columns, a text category, a 0/1 flag; NaN/None in some cells when ``with_nan``."""
    n = draw(st.integers(8, 24), label="n")
    with_nan = draw(st.booleans(), label="with_nan")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({
        "num": rng.integers(0, 6, n).astype(float),
        "real": np.round(rng.normal(size=n), 2),
        "cat": rng.choice(["a", "b", "c"], n).astype(object),
        "flag": rng.integers(0, 2, n).astype(float),
    })
    if with_nan:
        for column in frame.columns:
            missing = rng.random(n) < 0.2
            frame.loc[missing, column] = None if column == "cat" else np.nan
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]  # both classes
    return frame, y, with_nan


@PROPERTY
@given(table=mixed_tables(), n_clauses=st.integers(1, 3), theta=st.sampled_from([0.0, 0.001, 0.02, 0.1]))
def test_every_algorithm_and_form_fits_and_evaluates_alike(table, n_clauses: int, theta: float):
    X, y, _ = table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrivialRuleWarning)
        with TrainingWorkspace(X, y) as ws:
            for algorithm in ALGORITHMS:
                for form in FORMS:
                    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=n_clauses, theta=theta, form=form)
                    clf.fit(X, y, workspace=ws)
                    raw = clf.raw_rule_.evaluate(X)
                    assert clf.raw_rule_.form == clf.rule_.form == form
                    for rule in (clf.raw_rule_, clf.rule_):
                        np.testing.assert_array_equal(rule.evaluate_binary(ws.A, ws.literals), raw, err_msg=f"{algorithm} {form} {rule}")
                        np.testing.assert_array_equal(rule.evaluate(X), raw, err_msg=f"{algorithm} {form} {rule}")
                    np.testing.assert_array_equal(clf.predict(X), clf.classes_[raw.astype(int)])


# ---------------------------------------------------------------------------
# (c) a rule with no literals is the better constant
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_large_theta_gives_the_better_constant(algorithm: str, form: str):
    """An empty DNF term is True and an empty CNF clause False: the labels are drawn so that is the worse constant."""
    rng = np.random.default_rng(0)
    n = 50
    X = pd.DataFrame({"x": rng.normal(size=n), "z": rng.integers(0, 4, n).astype(float)})
    y = np.zeros(n, dtype=int)
    y[: 15 if form == "dnf" else 35] = 1  # DNF: 30 % positives (True errs on 70 %); CNF: 70 % (False errs on 70 %)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrivialRuleWarning)
        clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, theta=5.0, form=form).fit(X, y)
    assert clf.raw_rule_.n_literals == 0
    assert clf.training_error_ == pytest.approx(0.3)
    assert clf.training_error_ == pytest.approx(clf.baseline_error_)
    majority = int(form == "cnf")
    assert set(clf.predict(X)) == {majority}
    assert clf.objective_ == pytest.approx(15.0)  # weighted error of the better constant, no literal cost


@pytest.mark.parametrize("form", FORMS)
def test_better_constant_uses_the_sample_weights(form: str):
    """With 30 % positives by count but 70 % of the weight, the better constant is True."""
    rng = np.random.default_rng(1)
    n = 40
    X = pd.DataFrame({"x": rng.normal(size=n)})
    y = np.zeros(n, dtype=int)
    y[:12] = 1
    weight = np.where(y == 1, 28 / 12, 12 / 28)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TrivialRuleWarning)
        clf = BooleanRuleClassifier(algorithm="am", n_clauses=1, theta=5.0, form=form).fit(X, y, sample_weight=weight)
    assert clf.rule_.n_literals == 0
    assert clf.predict(X).tolist() == [1] * n


def test_constant_rules_of_both_forms():
    from rulemodels.algorithms.training import _constant_rule

    X = pd.DataFrame({"x": [1.0, np.nan]})
    assert _constant_rule("dnf", True) == Rule("dnf", (Clause(()),))
    assert _constant_rule("cnf", False) == Rule("cnf", (Clause(()),))
    for form in FORMS:
        for value in (True, False):
            assert _constant_rule(form, value).evaluate(X).tolist() == [value, value]
    assert Rule.cnf([[Literal("x", "<=", 0.0)]]).n_literals == 1  # a rule with literals is not a constant rule


# ---------------------------------------------------------------------------
# (d) invariance to the scale of the sample weights
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("algorithm", ["bcd", "am", "tlp"])
def test_rule_does_not_depend_on_the_scale_of_the_weights(algorithm: str, form: str):
    X, y = load_dataset("liver")
    X, y = X.iloc[:120], y.iloc[:120]
    weight = np.random.default_rng(0).integers(1, 4, size=len(y)).astype(float)
    rules, objectives = {}, {}
    for scale in (1e-12, 1e-8, 1.0, 1e8, 1e300):
        clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, theta=0.01, form=form).fit(X, y, sample_weight=weight * scale)
        rules[scale], objectives[scale] = str(clf.raw_rule_), clf.objective_
    assert len(set(rules.values())) == 1, rules
    assert max(objectives.values()) == pytest.approx(min(objectives.values()), rel=1e-9)


def test_weights_are_normalised_to_mean_one_without_overflow():
    from rulemodels.data import check_sample_weight

    weights = check_sample_weight(np.array([1e308, 1e308, 0.0, 5e307]), 4)
    assert np.all(np.isfinite(weights))
    assert weights.mean() == pytest.approx(1.0)
    np.testing.assert_allclose(weights, [1.6, 1.6, 0.0, 0.8])
    np.testing.assert_array_equal(check_sample_weight(None, 3), np.ones(3))
    np.testing.assert_array_equal(check_sample_weight(7.0, 3), np.ones(3))
    with pytest.raises(ValueError, match="non-zero"):
        check_sample_weight(np.zeros(3), 3)
    with pytest.raises(ValueError, match="Negative"):
        check_sample_weight(np.array([1.0, -1.0, 1.0]), 3)
