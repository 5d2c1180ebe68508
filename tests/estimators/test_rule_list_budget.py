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
