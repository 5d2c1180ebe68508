"""Models pooled across fits give exactly the results of fresh builds, in any order."""

from __future__ import annotations

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier
from rulemodels.algorithms import learn_cnf
from rulemodels.algorithms.pool import ModelPool, clear_model_pool, default_pool
from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import load_dataset
from rulemodels.models import build_clause_lp, set_sample_weight, set_theta
from rulemodels.models.problem import CNFProblem
from solvers import HighsBackend, get_backend

THETAS = [0.001, 0.05, 0.5, 2.0]


@pytest.fixture(scope="module")
def problem() -> CNFProblem:
    X, y = load_dataset("liver")
    binarizer = FeatureBinarizer(n_thresholds=5).fit(X)
    return CNFProblem.from_binary(binarizer.transform(X), y, literals=binarizer.literals_, form="dnf")


def fit_all(problem: CNFProblem, algorithm: str, thetas: list[float], pool: ModelPool | None, solver: str = "highs") -> dict:
    backend = pool.backend(solver) if pool is not None else get_backend(solver)
    results = {}
    for theta in thetas:
        result, _ = learn_cnf(problem, backend, algorithm=algorithm, n_clauses=2, theta=theta, pool=pool, max_iter=20)
        results[theta] = result
    return results


@pytest.fixture(scope="module")
def sonar_problem() -> CNFProblem:
    X, y = load_dataset("sonar")
    binarizer = FeatureBinarizer(n_thresholds=4).fit(X)
    return CNFProblem.from_binary(binarizer.transform(X), y, literals=binarizer.literals_, form="dnf")


@pytest.mark.parametrize("algorithm", ["scs", "scn", "bcd", "am", "tlp"])
def test_pooled_fits_equal_fresh_fits_in_any_order(problem, algorithm):
    check_pooled_equals_fresh(problem, algorithm, THETAS)


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_pooled_fits_equal_fresh_fits_on_degenerate_sonar_lps(sonar_problem, algorithm):
    # Sonar's clause LPs have many optimal vertices: a warm start would pick
    # another one, so this fails if any solve depends on the solves before it.
    pool = ModelPool()
    fit_all(sonar_problem, "scn" if algorithm == "am" else "am", [0.01, 0.1], pool)
    check_pooled_equals_fresh(sonar_problem, algorithm, [0.01, 0.1], pool)


def check_pooled_equals_fresh(problem: CNFProblem, algorithm: str, thetas: list[float], pool: ModelPool | None = None) -> None:
    fresh = {theta: fit_all(problem, algorithm, [theta], pool=None)[theta] for theta in thetas}
    pool = pool or ModelPool()
    forward = fit_all(problem, algorithm, thetas, pool)
    backward = fit_all(problem, algorithm, thetas[::-1], pool)
    for theta in thetas:
        for pooled in (forward[theta], backward[theta]):
            assert np.array_equal(pooled.W, fresh[theta].W), (algorithm, theta)
            assert pooled.objective == pytest.approx(fresh[theta].objective)


def test_second_fit_builds_nothing_and_shares_cold_solves(problem):
    pool = ModelPool()
    first = fit_all(problem, "am", [0.01], pool)[0.01]
    again = fit_all(problem, "scn", [0.01], pool)[0.01]
    assert first.n_builds == 1  # both clause slots share one model: every solve starts cold
    assert again.n_builds == 0
    # SCN's set-covering LPs are the cold first solves AM already made.
    assert again.n_solves == 0 and again.n_cache_hits == 2


def test_pool_evicts_least_recently_used_data(problem):
    pool = ModelPool(max_datasets=1)
    backend = pool.backend("highs")
    learn_cnf(problem, backend, algorithm="scs", n_clauses=1, theta=0.1, pool=pool)
    other = CNFProblem.from_binary(problem.A[:200], problem.y[:200], literals=problem.literals)
    learn_cnf(other, backend, algorithm="scs", n_clauses=1, theta=0.1, pool=pool)
    assert len(pool) == 1
    result, _ = learn_cnf(problem, backend, algorithm="scs", n_clauses=1, theta=0.1, pool=pool)
    assert result.n_builds == 1


class WarmOnlyBackend:
    """A persistent backend that cannot drop its warm start."""

    name = "warm-only"
    is_persistent = True

    def __init__(self):
        self.inner = HighsBackend()

    def available(self):
        return self.inner.available()

    def version(self):
        return self.inner.version()

    def solve(self, model, time_limit=None, mip_gap=None, options=None, params_only=False):
        return self.inner.solve(model, time_limit=time_limit, mip_gap=mip_gap, options=options)


def test_pool_is_not_used_with_a_backend_that_keeps_warm_starts(problem):
    pool = ModelPool()
    backend = WarmOnlyBackend()
    assert pool.entry(b"x", backend) is None
    for _ in range(2):
        result, _ = learn_cnf(problem, backend, algorithm="scs", n_clauses=1, theta=0.1, pool=pool)
        assert result.n_builds == 1


def test_estimator_uses_a_per_thread_pool_and_clear_frees_it(problem):
    clear_model_pool()
    X, y = load_dataset("parkinsons")
    first = BooleanRuleClassifier(algorithm="bcd", n_clauses=2, theta=0.1, n_thresholds=4).fit(X, y)
    second = BooleanRuleClassifier(algorithm="bcd", n_clauses=2, theta=0.1, n_thresholds=4).fit(X, y)
    assert len(default_pool()) == 1
    assert first.n_builds_ >= 1 and second.n_builds_ == 0
    assert second.rule_ == first.rule_
    clear_model_pool()
    assert len(default_pool()) == 0


def test_discard_warm_start_and_params_only_solves_match_fresh_solves(problem):
    rng = np.random.default_rng(0)
    backend = HighsBackend()
    model = build_clause_lp(problem.A, problem.y, theta=0.01)
    backend.solve(model)
    for step in range(5):
        weight = (rng.random(problem.A.shape[0]) < 0.7).astype(float)
        theta = [0.01, 0.3][step % 2]
        set_sample_weight(model, weight)
        set_theta(model, theta)
        if step % 2:
            backend.discard_warm_start(model)
        pushed = backend.solve(model, params_only=True)
        fresh = HighsBackend().solve(build_clause_lp(problem.A, problem.y, theta=theta, sample_weight=weight))
        assert pushed.objective == pytest.approx(fresh.objective, abs=1e-7)
    assert backend.n_builds == 1


def test_small_and_large_lps_get_their_defaults(problem):
    backend = HighsBackend()
    clause = build_clause_lp(problem.A, problem.y)
    mip = build_clause_lp(problem.A, problem.y, integer=True)
    backend.solve(clause)
    backend.solve(mip)
    assert backend._kinds[clause] == "small"
    assert backend._kinds[mip] is None
    highs = backend._instances[clause]._solver_model
    assert highs.getOptionValue("presolve")[1] == "off"


def test_redundancy_aware_binarizer_is_built_once_per_data_and_gives_fresh_results(problem, monkeypatch):
    import rulemodels.algorithms.engine as engine_module

    built = []

    class Counting(engine_module.RedundancyAwareBinarizer):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(engine_module, "RedundancyAwareBinarizer", Counting)
    pool = ModelPool()
    backend = pool.backend("highs")
    pooled = [learn_cnf(problem, backend, algorithm=a, n_clauses=2, theta=0.01, pool=pool)[0] for a in ("scn", "bcd", "am")]
    assert len(built) == 1
    fresh = [learn_cnf(problem, backend, algorithm=a, n_clauses=2, theta=0.01)[0] for a in ("scn", "bcd", "am")]
    assert len(built) == 4  # without a pool every fit builds its own
    for left, right in zip(pooled, fresh):
        assert np.array_equal(left.W, right.W)
