"""Exact MIP mode: optimal rules equal brute force on tiny data, on every backend."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pandas as pd
import pytest

from rulemodels.algorithms.exact import (
    ExactResult,
    ExactSolveError,
    heuristic_start,
    prepare_problem,
    solve_exact,
    solve_exact_problem,
)
from rulemodels.algorithms.polish import rule_weights
from rulemodels.models import hamming_objective, two_level_weights, zero_one_objective
from rulemodels.rules import Literal, Rule
from solvers import (
    HighsBackend,
    SolveConfig,
    SolveError,
    SolveResult,
    SolverNotFoundError,
    TerminationCondition,
)
from tests.helpers import DelegatingBackend, require_backend, sample_weights, tiny_data
from tests.helpers import exact_brute_force as brute_force

TOL = 1e-6
OBJECTIVES = {"zero_one": zero_one_objective, "hamming": hamming_objective}
EVERY_BACKEND = True  # the exact MIP needs no LP duals: scip runs here too (its start comes from column generation with HiGHS)


def check_result(result: ExactResult, A, y, *, form, formulation, R, theta, weights=None, disable_cost=None):
    """Everything an optimal ExactResult must satisfy, given the data it was learned on."""
    assert isinstance(result, ExactResult)
    assert isinstance(result.rule, Rule)
    assert result.rule.form == form
    assert result.termination == "optimal"
    assert result.solve.termination is TerminationCondition.optimal
    # "optimal" means optimal within the solver's default relative MIP gap (1e-4 in HiGHS)
    assert 0.0 <= result.gap <= 1e-4
    assert result.exact_bound == pytest.approx(result.objective, rel=1e-4)
    assert result.breakdown["total"] == pytest.approx(result.objective, abs=TOL)
    problem, _ = prepare_problem(A, y, form=form, sample_weight=weights)
    W, w0 = two_level_weights(result.model)
    assert set(np.unique(W)) <= {0.0, 1.0}  # snapped to exact 0/1
    # the returned rule is the model's CNF read in the requested form
    predicted = result.rule.evaluate_binary(A, problem.literals)
    work = problem.predict_work(W, w0)
    np.testing.assert_array_equal(predicted, ~work if form == "dnf" else work)
    omega = np.ones(len(y)) if weights is None else weights
    extra = {} if w0 is None else {"w0": w0, "disable_cost": disable_cost}
    accuracy = OBJECTIVES[formulation](problem.A, problem.y, W, 0.0, sample_weight=omega, **extra)
    assert result.breakdown["accuracy"] == pytest.approx(accuracy, abs=TOL)
    if formulation == "zero_one":
        # the accuracy part is the rule's weighted training error on the original data
        assert result.breakdown["accuracy"] == pytest.approx(float(omega @ (predicted != (y == 1))), abs=TOL)
    if disable_cost is None and theta > 0:
        assert result.breakdown["sparsity"] == pytest.approx(theta * result.rule.n_literals, abs=TOL)
        assert result.rule.n_clauses == R


@pytest.mark.parametrize("form", ["cnf", "dnf"])
@pytest.mark.parametrize("formulation", ["zero_one", "hamming"])
@pytest.mark.integer_models
def test_solve_exact_matches_brute_force(backend, formulation, form):
    A, y = tiny_data(0)
    result = solve_exact(A, y, n_clauses=2, theta=0.3, formulation=formulation, form=form, solver=backend)
    assert result.solve.solver_name == backend.name
    assert result.objective == pytest.approx(brute_force(0, form, formulation, 2, 0.3, False, None), abs=TOL)
    check_result(result, A, y, form=form, formulation=formulation, R=2, theta=0.3)


@pytest.mark.parametrize("form", ["cnf", "dnf"])
@pytest.mark.parametrize("formulation", ["zero_one", "hamming"])
@pytest.mark.integer_models
def test_solve_exact_with_weights_and_disabled_clauses(backend, formulation, form):
    A, y = tiny_data(1)
    weights = sample_weights(1)
    result = solve_exact(
        A, y, n_clauses=2, theta=0.2, formulation=formulation, form=form, solver=backend,
        disable_cost=0.5, sample_weight=weights,
    )
    assert result.objective == pytest.approx(brute_force(1, form, formulation, 2, 0.2, True, 0.5), abs=TOL)
    check_result(result, A, y, form=form, formulation=formulation, R=2, theta=0.2, weights=weights, disable_cost=0.5)


def test_dnf_and_cnf_objectives_differ_and_dnf_is_the_negated_problem():
    """The DNF optimum is the CNF optimum of the negated data (and generally not the CNF optimum of the data)."""
    backend = require_backend("highs")
    A, y = tiny_data(2)
    dnf = solve_exact(A, y, n_clauses=1, theta=0.3, form="dnf", solver=backend)
    negated_cnf = solve_exact(1 - A, 1 - y, n_clauses=1, theta=0.3, form="cnf", solver=backend)
    assert dnf.objective == pytest.approx(negated_cnf.objective, abs=TOL)
    assert dnf.objective == pytest.approx(brute_force(2, "dnf", "zero_one", 1, 0.3, False, None), abs=TOL)


def test_boolean_labels_and_binary_dataframe():
    backend = require_backend("highs")
    A, y = tiny_data(3)
    frame = pd.DataFrame(A, columns=["smoker", "old", "male", "obese"])
    problem, binarizer = prepare_problem(frame, y.astype(bool), form="cnf")
    assert binarizer is None
    assert problem.literals == tuple(Literal(name, "is_true") for name in frame.columns)
    np.testing.assert_array_equal(problem.y, y)
    result = solve_exact(frame, y.astype(bool), n_clauses=1, theta=0.3, form="cnf", solver=backend)
    assert result.objective == pytest.approx(brute_force(3, "cnf", "zero_one", 1, 0.3, False, None), abs=TOL)
    assert set(result.rule.features) <= set(frame.columns)
    # the rule evaluates on the raw DataFrame like on the binary matrix
    np.testing.assert_array_equal(result.rule.evaluate(frame), result.rule.evaluate_binary(A, problem.literals))


@pytest.mark.parametrize("form", ["cnf", "dnf"])
def test_dataframe_with_continuous_columns_is_binarized(form):
    backend = require_backend("highs")
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"glucose": rng.normal(120, 25, 14).round(1), "bmi": rng.normal(30, 5, 14).round(1)})
    y = ((X.glucose > 125) | (X.bmi > 36)).astype(int).to_numpy()
    problem, binarizer = prepare_problem(X, y, form=form, n_thresholds=3)
    assert binarizer is not None
    assert problem.n_features == len(binarizer.literals_) > 2
    assert {literal.feature for literal in problem.literals} == {"glucose", "bmi"}

    result = solve_exact(X, y, n_clauses=2, theta=0.05, form=form, solver=backend, n_thresholds=3)
    assert result.termination == "optimal"
    assert result.rule.n_literals >= 1
    text = str(result.rule)
    assert any(name in text for name in ("glucose", "bmi")), text
    assert set(result.rule.features) <= {"glucose", "bmi"}
    # the rule, evaluated on the raw data, has the training error the MIP reports
    errors = int((result.rule.evaluate(X) != (y == 1)).sum())
    assert result.breakdown["accuracy"] == pytest.approx(errors, abs=TOL)
    # and the optimum is the brute-force optimum on the binarized working data
    A_work, y_work = problem.A.toarray(), problem.y
    best = min(
        zero_one_objective(A_work, y_work, np.array(bits, float).reshape(-1, 2), 0.05)
        for bits in _sparse_patterns(problem.n_features, 2, max_literals=3)
    )
    assert result.objective <= best + TOL


def _sparse_patterns(d: int, R: int, max_literals: int):
    """Every W with at most ``max_literals`` ones (an upper bound on the optimum)."""
    cells = d * R
    for k in range(max_literals + 1):
        for chosen in itertools.combinations(range(cells), k):
            bits = np.zeros(cells)
            bits[list(chosen)] = 1
            yield bits


# ---------------------------------------------------------------------------
# Errors, time limits, infeasible models
# ---------------------------------------------------------------------------


def test_argument_errors():
    A, y = tiny_data(0)
    with pytest.raises(ValueError, match=r"formulation must be one of \['hamming', 'zero_one'\], got 'tlp'"):
        solve_exact(A, y, n_clauses=2, theta=0.01, formulation="tlp", solver="highs")
    with pytest.raises(ValueError, match="theta must be a finite number >= 0, got -0.1"):
        solve_exact(A, y, n_clauses=2, theta=-0.1, solver="highs")
    with pytest.raises(ValueError, match="theta must be a finite number >= 0"):
        solve_exact(A, y, n_clauses=2, theta=float("nan"), solver="highs")
    with pytest.raises(ValueError, match="form must be 'cnf' or 'dnf'"):
        solve_exact(A, y, n_clauses=2, theta=0.01, form="both", solver="highs")
    with pytest.raises(ValueError, match="n_clauses must be an integer >= 1"):
        solve_exact(A, y, n_clauses=0, theta=0.01, solver="highs")
    with pytest.raises(ValueError, match="y has 3 labels but A has 10 samples"):
        solve_exact(A, y[:3], n_clauses=2, theta=0.01, solver="highs")
    with pytest.raises(SolverNotFoundError, match="unknown solver 'no_such_solver_xyz'") as info:
        solve_exact(A, y, n_clauses=2, theta=0.01, solver="no_such_solver_xyz")
    assert "highs" in info.value.alternatives


class FakeBackend(DelegatingBackend):
    """A backend that solves with HiGHS, then reports what ``rewrite`` makes of the result."""

    def __init__(self, rewrite):
        super().__init__(HighsBackend())
        self.name = "fake"
        self.rewrite = rewrite
        self.highs = self.inner
        self.calls = []

    def version(self) -> str:
        return "0"

    def solve(self, model, config=None, **kwargs) -> SolveResult:
        config = SolveConfig.of(config)
        self.calls.append({"time_limit": config.time_limit, "mip_gap": config.mip_gap})
        return self.rewrite(model, self.highs)


def no_solution(termination: TerminationCondition):
    def rewrite(model, highs):
        return SolveResult(
            termination=termination, objective=None, bound=None, wall_time=0.0, solver_name="fake",
            solver_version="0", has_solution=False, message="fake status",
        )

    return rewrite


def test_infeasible_model_raises_exact_solve_error():
    require_backend("highs")
    A, y = tiny_data(0)
    backend = FakeBackend(no_solution(TerminationCondition.infeasible))
    with pytest.raises(ExactSolveError, match=r"the exact zero_one MIP with fake failed: the model is infeasible \(fake status\)") as info:
        solve_exact(A, y, n_clauses=2, theta=0.01, solver=backend, time_limit=5.0, mip_gap=0.01, warm_start=False)
    assert isinstance(info.value, SolveError)
    assert info.value.result.termination is TerminationCondition.infeasible
    assert backend.calls == [{"time_limit": 5.0, "mip_gap": 0.01}]


def test_time_limit_without_incumbent_returns_the_better_constant():
    """It raised "no feasible solution"; a MIP stopped at its limit with nothing now returns the better constant rule."""
    require_backend("highs")
    A, y = tiny_data(0)
    backend = FakeBackend(no_solution(TerminationCondition.time_limit))
    result = solve_exact(A, y, n_clauses=2, theta=0.01, formulation="hamming", solver=backend, time_limit=0.01, warm_start=False)
    assert result.termination == "time_limit" and not result.rule.literals
    # the Hamming MIP's constant: one empty clause (all false in CNF, all true in the DNF learned): cost = the negatives
    assert result.objective == pytest.approx(float(np.sum(y == 0)), abs=TOL)


def test_a_mip_stopped_by_its_limit_without_a_solution_returns_its_start_and_an_error_still_raises(caplog):
    """A time-limited exact MIP returned a rule worse than the majority class although a heuristic's rule
    was at hand; the MIP now starts from it, and returns it when the solver found nothing better."""
    require_backend("highs")
    A, y = tiny_data(0)
    problem, _ = prepare_problem(A, y, form="dnf")
    start = heuristic_start(problem, 2, 0.3)
    with pytest.raises(ExactSolveError, match="the solver stopped with an error"):  # a crash is no time limit
        solve_exact_problem(problem, 2, 0.3, solver=FakeBackend(no_solution(TerminationCondition.error)), start=start)
    backend = FakeBackend(no_solution(TerminationCondition.time_limit))
    with caplog.at_level("WARNING", logger="rulemodels.algorithms.exact"):
        result = solve_exact_problem(problem, 2, 0.3, solver=backend, time_limit=0.01, start=start)
    assert result.rule == start and "without a solution of its own: returning its start rule" in caplog.text
    W = rule_weights(problem, start)
    assert result.objective == pytest.approx(zero_one_objective(problem.A, problem.y, W, 0.3), abs=TOL)
    assert result.breakdown["total"] == pytest.approx(result.objective, abs=TOL)


def test_a_worse_incumbent_than_the_start_returns_the_start():
    """A solver stopped with a poor incumbent (here: every clause empty, the constant False) keeps the start."""
    require_backend("highs")
    A, y = tiny_data(3)
    problem, _ = prepare_problem(A, y, form="cnf")
    start = heuristic_start(problem, 2, 0.3)

    def poor_incumbent(model, highs):
        result = highs.solve(model)
        for var in model.w.values():
            var.set_value(0.0)
        return dataclasses.replace(result, termination=TerminationCondition.time_limit)

    result = solve_exact_problem(problem, 2, 0.3, solver=FakeBackend(poor_incumbent), time_limit=1.0, start=start)
    start_objective = zero_one_objective(problem.A, problem.y, rule_weights(problem, start), 0.3)
    assert start.n_literals > 0 and result.rule == start and result.objective == pytest.approx(start_objective, abs=TOL)


@pytest.mark.slow
@pytest.mark.parametrize("dataset", ["liver", "parkinsons", "pima", "sonar"])
def test_the_exact_incumbent_is_never_worse_than_the_heuristic_on_the_bundled_datasets(dataset):
    """On each bundled dataset, a MIP given 2 seconds returns a rule at least as good as
    column generation's (the same problem and θ), whatever the solver found by then."""
    require_backend("highs")
    from rulemodels import load_dataset

    X, y = load_dataset(dataset)
    problem, _ = prepare_problem(X, y, form="dnf")
    theta = 0.01 * len(y)
    start = heuristic_start(problem, 2, theta)
    result = solve_exact_problem(problem, 2, theta, solver="highs", time_limit=2.0, start=start)
    W = rule_weights(problem, start)
    padded = np.hstack([W] + [W[:, -1:]] * (2 - W.shape[1]))  # the start as the MIP holds it: exactly 2 clauses
    assert result.objective <= zero_one_objective(problem.A, problem.y, padded, theta) + TOL
    if not result.solve.is_optimal:  # stopped at its time limit: never worse than the start itself
        assert result.objective <= zero_one_objective(problem.A, problem.y, W, theta) + TOL
    errors = float((result.rule.evaluate(X) != (np.asarray(y) == 1)).sum())
    assert result.breakdown["accuracy"] == pytest.approx(errors, abs=1e-5)


def test_time_limit_with_incumbent_returns_it():
    """A solve stopped by the time limit with an incumbent returns it, with its bound and gap."""
    require_backend("highs")
    A, y = tiny_data(0)

    def stopped_early(model, highs):
        result = highs.solve(model)
        return dataclasses.replace(result, termination=TerminationCondition.time_limit, bound=result.objective / 4)

    # without the heuristic's start: its one clause (4.3) beats every rule of exactly two clauses (4.6)
    result = solve_exact(A, y, n_clauses=2, theta=0.3, solver=FakeBackend(stopped_early), time_limit=1.0, warm_start=False)
    assert result.termination == "time_limit"
    assert result.objective == pytest.approx(brute_force(0, "dnf", "zero_one", 2, 0.3, False, None), abs=TOL)
    assert result.exact_bound == pytest.approx(result.objective / 4)
    assert result.gap == pytest.approx(0.75)
    assert result.breakdown["total"] == pytest.approx(result.objective, abs=TOL)
    assert isinstance(result.rule, Rule)


@pytest.mark.parametrize("formulation", ["zero_one", "hamming"])
def test_a_bound_rounded_above_the_optimum_is_the_optimum(formulation):
    """HiGHS reports the bound 0.30000000000000004 for this optimum of 0.3: the bound returned is the optimum."""
    require_backend("highs")
    A = np.array([[1, 0]] + [[0, 0]] * 5, dtype=np.int8)
    y = np.array([1, 0, 0, 0, 0, 0], dtype=np.int8)
    result = solve_exact(A, y, n_clauses=1, theta=0.3, formulation=formulation, form="cnf", solver=HighsBackend())
    assert result.termination == "optimal"
    assert result.objective == pytest.approx(0.3)
    assert result.exact_bound == result.objective

    def rounded_up(model, highs):  # the same on every solver: an optimum whose bound is a rounding above it
        solved = highs.solve(model)
        return dataclasses.replace(solved, bound=solved.objective * (1 + 1e-12))

    faked = solve_exact(A, y, n_clauses=1, theta=0.3, formulation=formulation, form="cnf", solver=FakeBackend(rounded_up))
    assert faked.exact_bound == faked.objective


def test_real_time_limit_with_highs():
    """A MIP HiGHS cannot close in 1 s (its start heuristic's time included): the incumbent comes back typed,
    with a consistent gap."""
    backend = require_backend("highs")
    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, (60, 24))
    y = rng.integers(0, 2, 60)
    result = solve_exact(A, y, n_clauses=3, theta=0.01, solver=backend, time_limit=1.0, form="cnf")
    assert isinstance(result, ExactResult)
    assert result.termination in ("time_limit", "optimal")
    assert result.solve.wall_time < 5.0
    assert result.objective is not None and result.exact_bound is not None
    assert result.exact_bound <= result.objective + TOL
    if result.termination == "time_limit":
        assert result.gap > 0
        assert result.gap == pytest.approx(abs(result.objective - result.exact_bound) / abs(result.objective))
    # the incumbent is a real rule whose training error is the reported accuracy
    problem, _ = prepare_problem(A, y, form="cnf")
    errors = int((result.rule.evaluate_binary(A, problem.literals) != (y == 1)).sum())
    assert result.breakdown["accuracy"] == pytest.approx(errors, abs=1e-5)
    assert result.breakdown["total"] == pytest.approx(result.objective, abs=1e-5)


@pytest.mark.integer_models
def test_generous_time_limit_is_optimal(backend):
    A, y = tiny_data(4)
    result = solve_exact(A, y, n_clauses=1, theta=0.3, solver=backend, time_limit=60)
    assert result.termination == "optimal"
    assert result.objective == pytest.approx(brute_force(4, "dnf", "zero_one", 1, 0.3, False, None), abs=TOL)


@pytest.mark.slow
def test_a_time_limited_exact_fit_is_no_worse_than_the_majority_class_or_the_heuristic():
    """``fit --algorithm exact`` with a time limit returned a rule worse than the majority class
    (0.497 against 0.349) on pima; it now starts from column generation's rule and keeps the better one. The
    start's time counts against the time limit: 5 s leave column generation (well under a second on pima) its
    whole run, and the MIP the rest."""
    require_backend("highs")
    import warnings

    from rulemodels import BooleanRuleClassifier, load_dataset

    X, y = load_dataset("pima")
    settings = dict(n_clauses=2, theta=0.005, solver="highs", prune=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the time limit's ConvergenceWarning
        exact = BooleanRuleClassifier(algorithm="exact", time_limit=5.0, **settings).fit(X, y)
        heuristic = BooleanRuleClassifier(algorithm="cg", **settings).fit(X, y)
    assert exact.training_error_ <= exact.baseline_error_
    assert exact.objective_ <= heuristic.objective_ + 1e-6


def test_what_only_the_exact_mip_knows_is_grouped_in_one_field():
    backend = require_backend("highs")
    A, y = tiny_data(3)
    frame = pd.DataFrame(A, columns=["smoker", "old", "male", "obese"])
    result = solve_exact(frame, y, n_clauses=1, theta=0.3, form="cnf", solver=backend)
    exact = result.exact
    assert exact is not None and exact.solve is not None and exact.model is not None
    assert (result.exact_bound, result.gap, result.breakdown) == (exact.bound, exact.gap, exact.breakdown)
    assert result.solve is exact.solve and result.model is exact.model
    assert result.gap == pytest.approx(0.0, abs=TOL) and {"accuracy", "sparsity"} <= set(exact.breakdown)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.exact = None  # type: ignore[misc]
    # a heuristic's result has none of it
    heuristic = dataclasses.replace(result, exact=None)
    assert (heuristic.exact_bound, heuristic.gap, heuristic.breakdown, heuristic.solve, heuristic.model) == (None, None, {}, None, None)


def test_the_exact_start_counts_against_the_time_limit(monkeypatch):
    """``algorithm="exact"`` with a time limit: its start heuristic's time counts against it, and what the
    start left (here nothing) cannot build the MIP, so none is built: the start comes back, with termination
    ``"time_limit"``."""
    require_backend("highs")
    import warnings

    from rulemodels import BooleanRuleClassifier
    from rulemodels.algorithms import training

    calls = []
    monkeypatch.setattr(training, "solve_exact_problem", lambda *args, **kwargs: calls.append(1))
    A, y = tiny_data(5)
    X = pd.DataFrame(A, columns=[f"x{j}" for j in range(A.shape[1])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the time limit's ConvergenceWarning
        clf = BooleanRuleClassifier(algorithm="exact", n_clauses=1, theta=0.3, time_limit=1e-9).fit(X, y)
    assert calls == []
    assert clf.termination_ == "time_limit" and clf.n_builds_ == 0 and clf.exact_bound_ is None
