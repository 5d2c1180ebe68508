"""The dual clause LP: same optimum as the primal, ``w`` read from its duals, declared bound updates.

The engine solves the dual for tall data (``choose_formulation``), so these
tests compare it with the primal on random instances, with every backend,
after Param changes, and through whole fits.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest

import solvers.highs as highs_module
from rulemodels.algorithms import ClauseEngine, LPSolutionCache, WorkingData
from rulemodels.algorithms.lp_cache import DUAL_MIN_POSITIVES, DUAL_POSITIVES_PER_FEATURE, choose_formulation
from rulemodels.models import (
    CNFProblem,
    build_clause_dual_lp,
    build_clause_lp,
    clause_weights,
)
from rulemodels.rules import Literal
from solvers import ModelChanges, get_backend
from tests.helpers import learn_once, require_backend


def random_instance(seed: int, n: int = 40, d: int = 7):
    rng = np.random.default_rng(seed)
    A = (rng.random((n, d)) < 0.4).astype(int)
    y = (rng.random(n) < 0.5).astype(int)
    weight = rng.random(n) * (rng.random(n) < 0.8)  # some samples removed (weight 0)
    cost = rng.uniform(0.5, 2.0, d)
    return A, y, weight, cost


def primal_cost(A, y, weight, cost, theta, w) -> float:
    """The clause LP objective of ``w``, evaluated with numpy (eq. OneLevelFormulation)."""
    sums = A @ w
    positive = y == 1
    hinge = np.maximum(0.0, 1.0 - sums[positive]) @ weight[positive]
    return float(hinge + sums[~positive] @ weight[~positive] + theta * cost @ w)


@pytest.mark.parametrize("seed", range(6))
def test_dual_optimum_equals_primal_and_its_duals_are_an_optimal_w(seed, solver_name):
    backend = require_backend(solver_name)
    A, y, weight, cost = random_instance(seed)
    theta = [0.0, 0.05, 0.4][seed % 3]
    primal = build_clause_lp(A, y, theta=theta, sample_weight=weight, feature_cost=cost)
    dual = build_clause_dual_lp(A, y, theta=theta, sample_weight=weight, feature_cost=cost)
    primal_result = backend.solve(primal.model)
    dual_result = backend.solve(dual.model)
    assert dual_result.objective == pytest.approx(primal_result.objective, abs=1e-6)
    w = clause_weights(dual)
    assert np.all((w >= 0) & (w <= 1))
    assert primal_cost(A, y, weight, cost, theta, w) == pytest.approx(primal_result.objective, abs=1e-6)


def test_dual_with_the_disable_feature_matches_the_primal():
    backend = get_backend("highs")
    for seed in range(4):
        A, y, weight, cost = random_instance(seed)
        kwargs = dict(theta=0.1, sample_weight=weight, feature_cost=cost, disable_cost=0.3)
        primal_result = backend.solve(build_clause_lp(A, y, **kwargs).model)
        dual = build_clause_dual_lp(A, y, **kwargs)
        assert backend.solve(dual.model).objective == pytest.approx(primal_result.objective, abs=1e-7)
        # (w, w0) read from the duals is optimal for the primal, with a_i0 = 1 as an extra column of cost c_0.
        w = np.append(clause_weights(dual), min(1.0, abs(dual.model.dual[dual.model.price0])))
        extended = np.hstack([A, np.ones((A.shape[0], 1))])
        value = primal_cost(extended, y, weight, np.append(cost, 0.3), 0.1, w)
        assert value == pytest.approx(primal_result.objective, abs=1e-7)


def test_declared_changes_of_the_dual_match_fresh_primals():
    """Weights (the u bounds), θ and costs (the price right-hand sides) all reach HiGHS as declared changes."""
    rng = np.random.default_rng(3)
    A, y, weight, cost = random_instance(3, n=60, d=8)
    backend = get_backend("highs")
    dual = build_clause_dual_lp(A, y, theta=0.05, sample_weight=weight, feature_cost=cost)
    backend.solve(dual.model)
    for step in range(6):
        weight = rng.random(60) * (rng.random(60) < 0.7)
        theta = [0.01, 0.3, 0.0][step % 3]
        cost = rng.uniform(0.5, 2.0, 8)
        dual.set_sample_weight(weight)
        dual.set_theta(theta)
        dual.set_feature_cost(cost)
        pushed = backend.solve(dual.model, changes=ModelChanges(**dual.parameter_changes()), warm_start=False)
        fresh = get_backend("highs").solve(build_clause_lp(A, y, theta=theta, sample_weight=weight, feature_cost=cost).model)
        assert pushed.objective == pytest.approx(fresh.objective, abs=1e-7)
        assert primal_cost(A, y, weight, cost, theta, clause_weights(dual)) == pytest.approx(fresh.objective, abs=1e-7)
    assert backend.n_builds == 1


def test_backend_bound_updates_reach_highs_also_for_non_simple_bounds():
    m = pyo.ConcreteModel()
    m.p = pyo.Param(initialize=1.0, mutable=True)
    m.x = pyo.Var(bounds=(0, m.p))
    m.q = pyo.Var(bounds=(0, 2 * m.p))
    m.obj = pyo.Objective(expr=m.x + m.q, sense=pyo.maximize)
    backend = get_backend("highs")
    assert backend.solve(m).objective == pytest.approx(3.0)
    m.p = 2.5  # not declared: the backend compiles the model again and sees it
    assert backend.solve(m).objective == pytest.approx(7.5)
    m.p = 1.5  # declared: the new bounds are pushed to the kept instance
    changes = ModelChanges(variable_bounds=([m.x, m.q], np.array([0.0, 0.0]), np.array([1.5, 3.0])))
    assert backend.solve(m, changes=changes).objective == pytest.approx(4.5)
    assert backend.n_builds == 2


def test_choose_formulation_picks_the_dual_only_for_tall_data():
    assert choose_formulation("auto", 100, 10) == "primal"
    assert choose_formulation("auto", DUAL_MIN_POSITIVES, 10) == "dual"
    wide = DUAL_MIN_POSITIVES // DUAL_POSITIVES_PER_FEATURE + 1
    assert choose_formulation("auto", DUAL_MIN_POSITIVES, wide) == "primal"
    assert choose_formulation("dual", 10, 10) == "dual"
    with pytest.raises(ValueError, match="formulation must be 'auto', 'primal', 'dual' or 'cuts'"):
        choose_formulation("both", 10, 10)


def planted_problem(n: int = 120, seed: int = 0) -> tuple[CNFProblem, pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, size=(n, 6))
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & A[:, 3])).astype(int)
    literals = [Literal(f"f{j}", "is_true") for j in range(6)]
    frame = pd.DataFrame(A.astype(bool), columns=[f"f{j}" for j in range(6)])
    return CNFProblem.from_binary(A, y, literals=literals, form="dnf"), frame, y


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_fits_on_the_dual_recover_the_planted_rule_like_the_primal(algorithm, solver_name):
    backend = require_backend(solver_name)
    problem, X, y = planted_problem()
    for formulation in ("primal", "dual"):
        result, data = learn_once(
            problem, backend, algorithm=algorithm, n_clauses=2, theta=0.01, formulation=formulation, max_iter=10
        )
        W, w0 = data.split(result.W)
        rule = problem.rule_from_weights(W, w0)
        assert np.array_equal(rule.evaluate(X), y == 1), (formulation, str(rule))
        assert {frozenset(map(str, clause.literals)) for clause in rule.clauses} == {
            frozenset({"f0", "f1"}), frozenset({"f2", "f3"})
        }
        assert result.n_builds == 1  # one model shared by both clause slots (cold solves)


def test_engine_builds_one_dual_model_for_all_slots():
    problem, _, _ = planted_problem(n=60)
    data = WorkingData.from_problem(problem)
    with LPSolutionCache(data, get_backend("highs")) as cache:
        engine = ClauseEngine(cache, theta=0.01, formulation="dual")
        weight = np.ones(data.A.shape[0])
        first = engine.learn(0, weight)
        second = engine.learn(1, weight * np.r_[np.zeros(30), np.ones(30)])
        lp, built = cache.clause_model("dual", 0.01, weight)
        assert lp.dual and lp.model.name == "clause_dual_lp" and not built
        assert engine.stats.n_builds == 1 and engine.stats.n_solves == 2
    assert first.shape == second.shape == (data.n_features,)
    assert np.isin(first, (0.0, 1.0)).all() and np.isin(second, (0.0, 1.0)).all()


def kept_instance(backend, model):
    """The backend's compiled instance of ``model`` (the test reads the backend's own bookkeeping)."""
    return backend._instances[id(model)][1]


def test_short_wide_lps_keep_highs_defaults(monkeypatch):
    A, y, weight, cost = random_instance(0, n=80, d=5)
    monkeypatch.setattr(highs_module, "SMALL_LP", 20)
    backend = get_backend("highs")
    dual = build_clause_dual_lp(A, y, theta=0.01, sample_weight=weight).model  # 5 rows, ~45 columns
    primal = build_clause_lp(A, y, theta=0.01, sample_weight=weight).model  # ~35 rows
    backend.solve(dual)
    backend.solve(primal)
    assert kept_instance(backend, dual).kind == "short" and kept_instance(backend, primal).kind == "short"
    monkeypatch.setattr(highs_module, "SHORT_LP_ROWS", 10)
    other = get_backend("highs")
    primal_again = build_clause_lp(A, y, theta=0.01, sample_weight=weight).model
    other.solve(primal_again)
    assert kept_instance(other, primal_again).kind == "large"
    assert kept_instance(other, primal_again).highs.getOptionValue("solver")[1] == "ipm"
    assert kept_instance(backend, dual).highs.getOptionValue("presolve")[1] == "choose"


def test_auto_counts_distinct_positive_rows_not_samples():
    """Repeated rows are merged into one weighted LP row, so they do not make the data tall."""
    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, size=(50, 4))
    y = rng.integers(0, 2, size=50)
    copies = DUAL_MIN_POSITIVES // int(y.sum()) + 1
    repeated = CNFProblem.from_binary(np.tile(A, (copies, 1)), np.tile(y, copies), form="cnf")
    with LPSolutionCache(WorkingData.from_problem(repeated), get_backend("highs")) as workspace:
        assert int(repeated.y.sum()) >= DUAL_MIN_POSITIVES and workspace.formulation("auto") == "primal"
    A_tall = rng.integers(0, 2, size=(2 * DUAL_MIN_POSITIVES, 40))
    tall = CNFProblem.from_binary(A_tall, np.ones(2 * DUAL_MIN_POSITIVES, dtype=int), form="cnf")
    with LPSolutionCache(WorkingData.from_problem(tall), get_backend("highs")) as workspace:
        assert ClauseEngine(workspace, theta=0.01).formulation == "dual"


def test_a_dual_suffix_on_a_mip_is_left_empty_instead_of_failing():
    A, y, weight, cost = random_instance(1)
    mip = build_clause_lp(A, y, theta=0.01, sample_weight=weight, integer=True).model
    mip.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    result = get_backend("highs").solve(mip)
    assert result.has_solution and len(mip.dual) == 0
    lp = build_clause_lp(A, y, theta=0.01, sample_weight=weight).model
    lp.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    get_backend("highs").solve(lp)
    assert len(lp.dual) == len(lp.cover)
