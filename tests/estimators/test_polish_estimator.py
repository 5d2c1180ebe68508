"""BooleanRuleClassifier(polish=...): the better rule by the 0-1 objective, its bound and gap; off changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier
from rulemodels.utils import InvalidParameterError
from tests.helpers import require_backend


@pytest.fixture(scope="module")
def pima_40(pima_4_columns_180):
    """``(X, y)``: 40 rows of Pima's glucose, bmi, age and pregnancies, small enough for the MIP to be proved in a second."""
    X, y = pima_4_columns_180
    return X.iloc[:40], y.iloc[:40]


def zero_one_objective_of(clf, X, y) -> float:
    """Weighted training errors + paper θ × learned literals of a fitted estimator's rule (unit weights)."""
    errors = float(np.sum(clf.predict(X) != np.asarray(y)))
    return errors + clf.paper_theta_ * clf.raw_rule_.n_literals


@pytest.mark.parametrize("form", ["dnf", "cnf"])
@pytest.mark.parametrize("algorithm", ["am", "scs", "tlp"])
def test_polish_never_worsens_the_zero_one_objective_and_reports_bound_and_gap(pima_40, algorithm, form):
    X, y = pima_40
    settings = dict(algorithm=algorithm, form=form, n_clauses=2, theta=0.02, n_thresholds=2, simplify=False, prune=False)
    plain = BooleanRuleClassifier(**settings).fit(X, y)
    polished = BooleanRuleClassifier(**settings, polish=20).fit(X, y)
    start = zero_one_objective_of(plain, X, y)
    assert polished.polish_report_.start_objective == pytest.approx(start)
    assert polished.objective_ == pytest.approx(zero_one_objective_of(polished, X, y))
    assert polished.objective_ <= start + 1e-6
    assert polished.polished_ == (polished.raw_rule_ != plain.raw_rule_)
    if polished.polish_bound_ is not None:
        assert polished.polish_bound_ <= polished.objective_ + 1e-9
        assert polished.polish_gap_ >= 0


def test_polish_true_uses_the_default_budget_and_finds_the_optimum_on_small_data(pima_40):
    X, y = pima_40
    clf = BooleanRuleClassifier(n_clauses=1, theta=0.02, n_thresholds=2, polish=True).fit(X, y)
    assert clf.polish_report_.termination == "optimal"
    assert clf.polish_gap_ == pytest.approx(0.0, abs=1e-3)
    exact = BooleanRuleClassifier(algorithm="exact", n_clauses=1, theta=0.02, n_thresholds=2).fit(X, y)
    assert clf.objective_ == pytest.approx(exact.objective_, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["cbc", "glpk"])
def test_polish_works_with_the_shell_solvers(pima_40, solver):
    require_backend(solver)
    X, y = pima_40
    clf = BooleanRuleClassifier(n_clauses=2, theta=0.02, n_thresholds=2, solver=solver, polish=30).fit(X, y)
    assert clf.polish_report_.solver == solver
    assert clf.polish_report_.mip_start == (solver == "cbc")
    assert clf.objective_ <= clf.polish_report_.start_objective + 1e-6


def test_polish_with_clause_disabling_and_a_cnf(pima_40):
    X, y = pima_40
    settings = dict(form="cnf", n_clauses=3, theta=0.02, n_thresholds=2, allow_disable=True, simplify=False)
    plain = BooleanRuleClassifier(**settings).fit(X, y)
    clf = BooleanRuleClassifier(**settings, polish=20).fit(X, y)
    assert clf.polish_report_.n_clauses == len(plain.raw_rule_.clauses)  # R of the MIP: the heuristic rule's clauses
    assert clf.objective_ <= zero_one_objective_of(plain, X, y) + 1e-6


def test_polish_off_is_the_unpolished_fit(pima_40):
    X, y = pima_40
    default = BooleanRuleClassifier(n_clauses=2, theta=0.01, n_thresholds=2, prune=False).fit(X, y)
    off = BooleanRuleClassifier(n_clauses=2, theta=0.01, n_thresholds=2, polish=False, prune=False).fit(X, y)
    assert off.rule_ == default.rule_ and off.objective_ == default.objective_ and off.history_ == default.history_
    assert off.objective_ == off.history_[-1]  # the algorithm's own (Hamming) objective, as before
    for name in ("polished_", "polish_bound_", "polish_gap_", "polish_report_"):
        assert not hasattr(off, name)
    refit = BooleanRuleClassifier(n_clauses=2, theta=0.01, n_thresholds=2, polish=5).fit(X, y)
    assert hasattr(refit, "polished_")
    refit.set_params(polish=False).fit(X, y)
    assert not hasattr(refit, "polished_")


def test_polish_is_ignored_by_the_exact_algorithm(pima_40):
    X, y = pima_40
    clf = BooleanRuleClassifier(algorithm="exact", n_clauses=1, theta=0.05, n_thresholds=2, polish=True).fit(X, y)
    assert not hasattr(clf, "polished_")


@pytest.mark.parametrize("value", [-1, 0, "yes", float("inf"), None])
def test_polish_must_be_a_bool_or_positive_seconds(pima_40, value):
    X, y = pima_40
    with pytest.raises(InvalidParameterError, match="'polish' parameter of BooleanRuleClassifier must be"):
        BooleanRuleClassifier(polish=value).fit(X, y)


def test_a_polish_budget_below_the_cost_of_building_the_mip_skips_polishing(pima_40, monkeypatch):
    """``polish`` covers building the MIP: a budget below its estimated building (from its size, counted, not
    timed) builds nothing and keeps the heuristic's rule, with a report that says so."""
    from rulemodels.algorithms import polish

    X, y = pima_40
    built = []
    build = polish._BUILDERS["zero_one"]
    monkeypatch.setitem(polish._BUILDERS, "zero_one", lambda *args, **kwargs: built.append(1) or build(*args, **kwargs))
    settings = dict(algorithm="bcd", n_clauses=2, theta=0.02, n_thresholds=2, prune=False)
    plain = BooleanRuleClassifier(**settings).fit(X, y)
    polished = BooleanRuleClassifier(**settings, polish=20).fit(X, y)  # builds (and so counts) once
    assert built == [1] and polished.polish_report_.built
    estimate = polish.polish_build_seconds(plain.binarizer_.transform(X), 2)
    skipped = BooleanRuleClassifier(**settings, polish=estimate / 2).fit(X, y)
    assert built == [1]
    report = skipped.polish_report_
    assert not report.built and not skipped.polished_ and report.termination == "time_limit"
    assert report.build_seconds == 0.0 and report.seconds == 0.0
    assert skipped.rule_ == plain.rule_
