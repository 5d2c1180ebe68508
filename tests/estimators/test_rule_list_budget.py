"""``time_limit`` and ``polish`` are budgets for the whole fit of a rule list too: its binary
tries share them out, instead of each getting the whole budget (5 classes, ``--time-limit 2 --polish 2``
ran 24.9 s)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier


@pytest.fixture(scope="module")
def five_classes() -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(0)
    n = 150
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "c": rng.integers(0, 5, n)})
    y = np.select([X.a > 1, X.b > 1, X.a < -1, X.c == 0], ["v", "w", "x", "y"], "z")
    return X, y


def fit(X, y, **params) -> BooleanRuleClassifier:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # steps stopped at their share of the time limit say so
        return BooleanRuleClassifier(algorithm="bcd", n_clauses=1, **params).fit(X, y)


@pytest.mark.parametrize("class_order", ["error", "rarest"])
def test_no_step_gets_the_whole_budget(five_classes, class_order) -> None:
    X, y = five_classes
    # budgets the small tries keep well within (so the rules do not depend on the machine's speed)
    clf = fit(X, y, time_limit=300.0, polish=30.0, class_order=class_order)
    n_tries = 14 if class_order == "error" else 4  # 5 + 4 + 3 + 2 tries ordered by error; 4 rarest first
    first_round = 5 if class_order == "error" else 1  # the first step is one of these tries
    limits = [step.get_params()["time_limit"] for step in clf.steps_]
    polish = [step.get_params()["polish"] for step in clf.steps_]
    assert len(clf.steps_) >= 3 and all(step.polish_report_ is not None for step in clf.steps_)
    assert limits[0] <= 300.0 / (n_tries - first_round + 1) + 1e-9
    assert polish[0] <= 30.0 / (n_tries - first_round + 1) + 1e-9
    assert max(limits) < 300.0 and max(polish) < 30.0


@pytest.mark.parametrize("n_tries", [1, 4, 14])
def test_tries_that_use_their_whole_share_keep_to_the_budget(monkeypatch, n_tries) -> None:
    """Each try gets what is left over the tries left: even if every try runs to its limit, the list does not
    run over (a clock that advances by each try's whole time limit and polishing budget)."""
    from rulemodels import _rule_list_search as search

    clock = [0.0]
    monkeypatch.setattr(search.time, "perf_counter", lambda: clock[0])
    budget = search._ListBudget(10.0, 4.0, n_tries)

    class Spent:  # a try that used its whole polishing share
        def __init__(self, seconds: float) -> None:
            self.polish_report_ = type("Report", (), {"seconds": seconds})()

    given = []
    for _ in range(n_tries):
        params = budget.next_try()
        given.append(params)
        clock[0] += params["time_limit"] + params["polish"]  # the algorithm, then polishing, each to its limit
        budget.spent(Spent(params["polish"]))
    assert sum(p["polish"] for p in given) == pytest.approx(4.0)
    assert sum(p["time_limit"] for p in given) <= 10.0 + 1e-9
    assert given[0]["time_limit"] == pytest.approx(10.0 / n_tries)


def test_without_limits_the_steps_get_none(five_classes) -> None:
    X, y = five_classes
    clf = fit(X, y)
    assert all(step.get_params()["time_limit"] is None and step.get_params()["polish"] is False for step in clf.steps_)


def count_polish_builds(monkeypatch) -> list[str]:
    """The polishing MIPs built from now on (their formulations), counted where polishing builds them."""
    from rulemodels.algorithms import polish

    built: list[str] = []
    for name, build in list(polish._BUILDERS.items()):
        def counted(*args, _name=name, _build=build, **kwargs):
            built.append(_name)
            return _build(*args, **kwargs)
        monkeypatch.setitem(polish._BUILDERS, name, counted)
    return built


def test_a_polishing_share_below_the_cost_of_building_the_mip_builds_none(five_classes, monkeypatch) -> None:
    """Each try's share of ``polish`` (1e-4 s over 14 tries) is below the estimated cost of building its MIP
    (from the MIP's size, not timed): no MIP is built, and each step's report says polishing was skipped."""
    X, y = five_classes
    built = count_polish_builds(monkeypatch)
    clf = fit(X, y, polish=1e-4)
    assert built == []
    reports = [step.polish_report_ for step in clf.steps_]
    assert len(reports) >= 3
    assert all(not report.built and not report.polished and report.termination == "time_limit" for report in reports)
    assert all(report.objective == report.start_objective for report in reports)
    # the same fit with a budget that can build them polishes every step
    clf = fit(X, y, polish=30.0)
    assert len(built) == 14 and all(step.polish_report_.built for step in clf.steps_)


@pytest.fixture
def fits_stop_at_the_time_limit(monkeypatch) -> None:
    """Every binary fit reports that it stopped at its time limit (as a fit whose share ran out does)."""
    import dataclasses

    from rulemodels.algorithms import Termination, training

    learn = training.TrainingWorkspace.learn

    def learn_then_stop(self, *args, **kwargs):
        return dataclasses.replace(learn(self, *args, **kwargs), termination=Termination.time_limit)

    monkeypatch.setattr(training.TrainingWorkspace, "learn", learn_then_stop)


def test_a_list_whose_fits_stopped_at_the_time_limit_does_not_report_converged(five_classes, fits_stop_at_the_time_limit):
    X, y = five_classes
    clf = fit(X, y, theta=1e6)  # no step claims a row: the list is its default class alone
    assert clf.steps_ == []
    assert clf.termination_ == "time_limit"


def test_the_termination_of_a_list_is_the_worst_of_its_fits() -> None:
    from rulemodels.algorithms.result import worst_termination

    assert worst_termination([]) is None
    assert worst_termination(["converged", "single_pass"]) == "converged"
    assert worst_termination(["converged", "no_improvement", "converged"]) == "no_improvement"
    assert worst_termination(["cycle", "max_iter", "no_improvement"]) == "max_iter"
    assert worst_termination(["optimal", "time_limit", "max_iter", "feasible"]) == "time_limit"
    assert worst_termination(["time_limit", "error", "converged"]) == "error"


def test_the_warnings_of_the_binary_fits_are_issued_once_at_the_caller(five_classes, fits_stop_at_the_time_limit) -> None:
    """Each of the 14 fits warns that it stopped at its time limit: the caller of fit gets that warning once,
    with the count, pointing at its own line (not at the rule list's module)."""
    from sklearn.exceptions import ConvergenceWarning

    X, y = five_classes
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BooleanRuleClassifier(algorithm="bcd", n_clauses=1).fit(X, y)
    stopped = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert len(stopped) == 1
    assert stopped[0].filename == __file__
    assert "(in 14 of the rule list's 14 binary fits)" in str(stopped[0].message)


def test_once_the_time_limit_is_spent_each_step_tries_one_class(five_classes, monkeypatch) -> None:
    """Out of time (the budget says so, no clock read here), class_order="error" keeps the best of the classes
    tried so far: one try per step, and the list says the time limit cut it short."""
    from rulemodels import _rule_list_search as search

    monkeypatch.setattr(search._ListBudget, "out_of_time", lambda self: True)
    X, y = five_classes
    clf = fit(X, y, time_limit=300.0)
    assert len(clf.order_search_) >= 3 and all(len(tried) == 1 for tried in clf.order_search_)
    assert clf.termination_ == "time_limit"
