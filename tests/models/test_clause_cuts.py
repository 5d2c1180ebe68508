"""The clause LP by cutting planes (``rulemodels.models.clause_cuts``) reaches the clause LP's optimum."""

from __future__ import annotations

import numpy as np
import pytest

from rulemodels.algorithms import ClauseEngine, LPSolutionCache, WorkingData
from rulemodels.algorithms.lp_cache import choose_formulation
from rulemodels.models import build_clause_lp
from rulemodels.models.clause_cuts import build_clause_cut_lp
from rulemodels.models.problem import CNFProblem
from solvers import get_backend


def lp_objective(A, y, weight, cost, theta, w) -> float:
    """The clause LP objective at ``w``, with numpy (eq. (2.1) OneLevelFormulation)."""
    sums = A @ w
    return float(weight[y == 1] @ np.maximum(0.0, 1.0 - sums[y == 1]) + (weight[y == 0] @ A[y == 0] + theta * cost) @ w)


@pytest.mark.parametrize("seed", range(6))
def test_cutting_planes_reach_the_optimum_of_the_full_lp(seed):
    rng = np.random.default_rng(seed)
    n, d = 300, 12
    A = (rng.random((n, d)) < 0.35).astype(int)
    y = (rng.random(n) < 0.6).astype(int)
    problem = CNFProblem.from_binary(A, y, form="cnf")
    data = WorkingData.from_problem(problem)
    backend = get_backend("highs")
    with LPSolutionCache(data, backend) as cache:
        engine = ClauseEngine(cache, theta=2.0, formulation="cuts")
        for _ in range(4):  # re-weightings on the same master, as BCD/AM do
            weight = rng.random(n) * (rng.random(n) < 0.8)
            w_cuts = engine.lp_solution(weight)
            full = build_clause_lp(data.A_binary, data.y, theta=2.0, sample_weight=weight, feature_cost=data.cost)
            backend.solve(full.model)
            w_full = full.weights()
            A_, y_ = data.A, data.y
            expected = lp_objective(A_, y_, weight, data.cost, 2.0, w_full)
            assert lp_objective(A_, y_, weight, data.cost, 2.0, w_cuts) == pytest.approx(expected, rel=1e-7, abs=1e-7)
            assert np.all((w_cuts >= 0) & (w_cuts <= 1))
        assert engine.stats.n_builds == 1  # one master for the fit, re-weighted and cut in place
        lp, built = cache.cut_model(engine, 2.0)
        assert not built and lp.n_cuts >= 4
        # only the last LP's cuts are in the model: each re-weighting deleted the cuts of the one before
        assert 0 < len(lp.model.cut) < lp.n_cuts


def test_each_fit_gets_its_own_master():
    rng = np.random.default_rng(0)
    A = (rng.random((80, 6)) < 0.4).astype(int)
    y = (rng.random(80) < 0.5).astype(int)
    data = WorkingData.from_problem(CNFProblem.from_binary(A, y, form="cnf"))
    with LPSolutionCache(data, get_backend("highs")) as cache:
        first = ClauseEngine(cache, theta=1.0, formulation="cuts")
        first.lp_solution(np.ones(80))
        second = ClauseEngine(cache, theta=1.0, formulation="cuts")
        second.lp_solution(np.ones(80))
        assert first.stats.n_builds == 1 and second.stats.n_builds == 1


def test_the_master_reads_like_the_method():
    A = np.array([[1, 0], [0, 1], [1, 1]])
    lp = build_clause_cut_lp(A, np.array([1, 1, 0]), theta=0.5)
    names = {component.local_name for component in lp.model.component_objects()}
    assert {"w", "tau", "G", "cut", "objective", "weight", "neg_cost", "theta"} <= names
    assert "hinge" in lp.model.tau.doc and "aggregated" in lp.model.cut.doc


def test_auto_picks_the_cutting_planes_for_very_tall_data():
    from rulemodels.algorithms.lp_cache import CUTS_MIN_POSITIVES, DUAL_MIN_POSITIVES

    assert choose_formulation("auto", CUTS_MIN_POSITIVES, 144) == "cuts"
    assert choose_formulation("auto", CUTS_MIN_POSITIVES - 1, 144) == "dual"
    assert choose_formulation("auto", DUAL_MIN_POSITIVES - 1, 144) == "primal"
    assert choose_formulation("auto", CUTS_MIN_POSITIVES, 10 * CUTS_MIN_POSITIVES) == "primal"  # wide, not tall
    assert choose_formulation("cuts", 10, 5) == "cuts"
    with pytest.raises(ValueError, match="'cuts'"):
        choose_formulation("kelley", 10, 5)


def test_the_number_of_hinge_groups_grows_with_the_positives():
    rng = np.random.default_rng(1)
    for n, expected in ((200, 16), (40_000, 40)):
        A = (rng.random((n, 4)) < 0.5).astype(int)
        A[:, 0] = np.arange(n) % 2  # keep the rows apart enough
        lp = build_clause_cut_lp(np.column_stack([A, (np.arange(n)[:, None] >> np.arange(16)) & 1]), np.ones(n, dtype=int),
                                 theta=0.1)
        assert len(lp.model.G) == expected
    distinct = len(np.unique(A[:5], axis=0))  # identical rows are one sample of the LP
    assert len(build_clause_cut_lp(A[:5], np.ones(5, dtype=int), theta=0.1, n_groups=64).model.G) == distinct


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_fits_by_cutting_planes_recover_the_planted_rule_like_the_simplex(algorithm):
    """Where the clause LPs' optima are unique (a planted rule), the cutting planes learn the same rule."""
    from rulemodels.rules import Literal
    from tests.helpers import learn_once

    rng = np.random.default_rng(0)
    A = rng.integers(0, 2, size=(160, 6))
    y = ((A[:, 0] & A[:, 1]) | (A[:, 2] & A[:, 3])).astype(int)
    literals = [Literal(f"f{j}", "is_true") for j in range(6)]
    problem = CNFProblem.from_binary(A, y, literals=literals, form="dnf")
    rules = {}
    for formulation in ("primal", "dual", "cuts"):
        result, data = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=2, theta=0.01,
                                  formulation=formulation, max_iter=10)
        W, w0 = data.split(result.W)
        rule = problem.rule_from_weights(W, w0)
        rules[formulation] = {frozenset(map(str, clause.literals)) for clause in rule.clauses}
    assert rules["cuts"] == rules["primal"] == rules["dual"] == {frozenset({"f0", "f1"}), frozenset({"f2", "f3"})}
