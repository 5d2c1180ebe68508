"""SC, TLP, BCD and AM on persistent models: correctness against the exact MIP, monotonicity, builds."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulemodels.algorithms import (
    ALGORITHMS,
    ClauseEngine,
    LPSolutionCache,
    RedundancyAwareBinarizer,
    WorkingData,
    assign_negatives,
    non_redundant_combinations,
    simple_binarize,
    solve_exact_problem,
)
from rulemodels.models import CNFProblem, hamming_objective, zero_one_objective
from rulemodels.rules import Literal
from solvers import get_backend
from tests.helpers import DelegatingBackend, learn_once, require_backend


def planted_data(n: int = 240, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """Six binary features; y = (x0 AND x1) OR (x2 AND x3)."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.integers(0, 2, size=(n, 6)), columns=[f"f{j}" for j in range(6)])
    y = ((X.f0 & X.f1) | (X.f2 & X.f3)).to_numpy()
    return X, y


def random_problem(seed: int, n: int = 12, d: int = 4, form: str = "cnf") -> CNFProblem:
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, size=(n, d))
    y = rng.integers(0, 2, size=n)
    return CNFProblem.from_binary(A, y, form=form)


class CountingBackend(DelegatingBackend):
    """Wraps a backend and records every model it is asked to solve."""

    def __init__(self, inner):
        super().__init__(inner)
        self.models: dict[int, object] = {}
        self.n_solves = 0

    def solve(self, model, **kwargs):
        self.models[id(model)] = model
        self.n_solves += 1
        return self.inner.solve(model, **kwargs)


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_planted_two_term_dnf_is_recovered(algorithm):
    X, y = planted_data()
    A = X.to_numpy()
    literals = [Literal(c, "is_true") for c in X.columns]
    problem = CNFProblem.from_binary(A, y, literals=literals, form="dnf")
    result, data = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=2, theta=0.01)
    rule = problem.rule_from_weights(*data.split(result.W))
    assert np.array_equal(rule.evaluate(X), y == 1)
    assert {frozenset(map(str, clause.literals)) for clause in rule.clauses} == {frozenset({"f0", "f1"}), frozenset({"f2", "f3"})}


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_objective_trace_never_increases(algorithm, seed):
    problem = random_problem(seed, n=40, d=6)
    result, data = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=3, theta=0.2)
    history = np.asarray(result.history)
    assert np.all(np.diff(history) <= 1e-9), history
    assert result.objective == pytest.approx(history[-1])
    assert result.objective == pytest.approx(hamming_objective(data.A, data.y, result.W, 0.2))


@pytest.mark.parametrize("seed", range(6))
def test_no_heuristic_beats_the_exact_mip(seed, record_property):
    problem = random_problem(seed, n=12, d=4)
    theta = 0.3
    # at most 2 clauses: TLP and AM drop clauses that change no prediction (since 2026-11-24)
    hamming_opt = min(solve_exact_problem(problem, r, theta, formulation="hamming", solver="highs").objective for r in (1, 2))
    zero_one_opt = min(solve_exact_problem(problem, r, theta, formulation="zero_one", solver="highs").objective for r in (1, 2))
    for algorithm in ALGORITHMS:
        result, data = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=2, theta=theta)
        if algorithm == "tlp":
            value = zero_one_objective(data.A, data.y, result.W, theta)
            optimum = zero_one_opt
        elif algorithm == "cg":  # at most R clauses, none included (the CNF True); its 0-1 objective
            value = zero_one_objective(data.A, data.y, result.W, theta)
            optimum = min(zero_one_opt, float(np.sum(data.y == 0)))
        else:
            value = hamming_objective(data.A, data.y, result.W, theta)
            optimum = hamming_opt
        assert value >= optimum - 1e-6, (algorithm, value, optimum)
        record_property(f"gap_{algorithm}", (value - optimum) / max(optimum, 1e-9))


def test_cnf_dnf_duality():
    X, y = planted_data(n=120, seed=3)
    A = X.to_numpy()
    literals = [Literal(c, "is_true") for c in X.columns]
    dnf_problem = CNFProblem.from_binary(A, y, literals=literals, form="dnf")
    cnf_problem = CNFProblem.from_binary(1 - A, 1 - y, literals=[lit.negate() for lit in literals], form="cnf")
    backend = get_backend("highs")
    dnf_result, dnf_data = learn_once(dnf_problem, backend, algorithm="am", n_clauses=2, theta=0.05)
    cnf_result, cnf_data = learn_once(cnf_problem, backend, algorithm="am", n_clauses=2, theta=0.05)
    assert np.array_equal(dnf_result.W, cnf_result.W)
    dnf_rule = dnf_problem.rule_from_weights(*dnf_data.split(dnf_result.W))
    cnf_rule = cnf_problem.rule_from_weights(*cnf_data.split(cnf_result.W))
    assert np.array_equal(dnf_rule.negate().evaluate(X), cnf_rule.evaluate(X))
    assert np.array_equal(cnf_rule.evaluate(X), ~dnf_rule.evaluate(X))


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_each_algorithm_runs_with_each_backend(algorithm, solver_name):
    backend = require_backend(solver_name)
    X, y = planted_data(n=60, seed=1)
    problem = CNFProblem.from_binary(X.to_numpy(), y, literals=[Literal(c, "is_true") for c in X.columns], form="dnf")
    result, data = learn_once(problem, backend, algorithm=algorithm, n_clauses=2, theta=0.05, max_iter=5)
    rule = problem.rule_from_weights(*data.split(result.W))
    error = np.mean(rule.evaluate(X) != (y == 1))
    assert error <= min(np.mean(y), 1 - np.mean(y)) + 1e-9  # never worse than the constant rule
    assert result.n_builds <= (2 if algorithm == "cg" else 1)  # CG: its master LP and, on small data, its pricing MIP


@pytest.mark.parametrize("algorithm", ["bcd", "am", "scn"])
def test_model_builds_are_constant_in_iterations(algorithm):
    """One clause LP is built per fit, however many iterations and clauses there are.

    Every solve starts cold, so all clause slots share the workspace's one
    model (when every LP was answered from the cache, none is built).
    """
    problem = random_problem(5, n=80, d=8)
    n_clauses = 3
    for max_iter in (1, 30):
        backend = CountingBackend(get_backend("highs"))
        result, _ = learn_once(problem, backend, algorithm=algorithm, n_clauses=n_clauses, theta=0.1, max_iter=max_iter)
        assert len(backend.models) == result.n_builds <= 1
        assert backend.n_solves == result.n_solves
        if algorithm != "scn" and max_iter == 30:
            assert result.n_iter >= 1 and backend.n_solves > n_clauses  # iterations re-solved the same models


def test_disable_option_can_drop_clauses():
    X, y = planted_data(n=120, seed=2)
    problem = CNFProblem.from_binary(X.to_numpy(), y, literals=[Literal(c, "is_true") for c in X.columns], form="dnf")
    result, data = learn_once(problem, get_backend("highs"), algorithm="am", n_clauses=4, theta=0.05, allow_disable=True, disable_cost=0.0)
    W, w0 = data.split(result.W)
    assert w0 is not None and w0.shape == (4,)
    rule = problem.rule_from_weights(W, w0)
    assert rule.n_clauses == 4 - int(w0.sum())
    assert np.mean(rule.evaluate(X) != (y == 1)) <= 0.05


def test_time_limit_stops_with_a_rule():
    problem = random_problem(0, n=200, d=10)
    result, data = learn_once(problem, get_backend("highs"), algorithm="am", n_clauses=3, theta=0.01, time_limit=1e-6)
    assert result.termination == "time_limit"
    assert result.W.shape == (10, 3)


def test_simple_binarize_threshold():
    assert simple_binarize(np.array([0.0, 0.19, 0.21, 1.0])).tolist() == [0, 0, 1, 1]
    assert simple_binarize(np.array([0.3, 0.6]), threshold=0.5).tolist() == [0, 1]


def test_non_redundant_combinations_respect_compatibility():
    compatible = np.array([[False, False, True], [False, False, True], [True, True, False]])
    combos = non_redundant_combinations(np.arange(3), compatible, 100)
    subsets = {tuple(np.flatnonzero(combos[:, k])) for k in range(combos.shape[1])}
    assert subsets == {(), (0,), (1,), (2,), (0, 2), (1, 2)}
    assert non_redundant_combinations(np.arange(3), compatible, 3) is None


def test_redundancy_aware_binarization_avoids_nested_features():
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    A = np.column_stack([x <= t for t in (-1, 0, 1)] + [x > t for t in (-1, 0, 1)]).astype(float)
    groups = ["x"] * 6
    rounder = RedundancyAwareBinarizer(A, groups)
    w = np.array([0.6, 0.7, 0.4, 0.0, 0.5, 0.3])

    def cost(current, columns, options):  # prefer covering more samples, penalise size
        candidates = np.repeat(current[:, None], options.shape[1], axis=1)
        candidates[columns, :] = options
        return -(A @ candidates > 0).sum(axis=0) + 50 * candidates.sum(axis=0)

    chosen = rounder.binarize(w, cost)
    selected = np.flatnonzero(chosen)
    for j1, j2 in itertools.combinations(selected, 2):
        a, b = A[:, j1].astype(bool), A[:, j2].astype(bool)
        assert not (np.all(a <= b) or np.all(b <= a)), (j1, j2)
    binary = np.array([0, 1, 0, 0, 0, 1.0])
    assert np.array_equal(rounder.binarize(binary, lambda c, cols, options: np.zeros(options.shape[1])), binary)


def test_assign_negatives_breaks_ties_by_nearest_cluster_centre():
    A = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 0], [1, 1, 0, 1]], dtype=float)
    W = np.array([[0, 0], [0, 0], [1, 0], [0, 1]], dtype=float)
    negatives = np.arange(5)
    assignment = assign_negatives(A, W, negatives)
    sums = A @ W
    for i, r in enumerate(assignment):
        assert sums[i, r] == sums[i].min()
    # rows 0, 1, 3 are tied (sums 0, 0); row 4 is assigned to clause 0 (sum 0 < 1)
    assert assignment[4] == 0
    members = np.isclose(sums, sums.min(axis=1, keepdims=True))
    centres = (members.T @ A) / members.sum(axis=0)[:, None]
    for i in (0, 1, 3):
        distances = np.abs(A[i] - centres).sum(axis=1)
        assert distances[assignment[i]] == distances.min()


def test_redundant_clauses_are_duplicates_and_one_column_tautologies():
    from rulemodels.algorithms.rounding import redundant_clauses

    A = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1]])  # columns: f, not f, g, not g
    groups = ["f", "f", "g", "g"]
    W = np.array([[1, 1, 1, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0]], dtype=float)  # (f OR not g) twice, (f OR not f), (g)
    assert redundant_clauses(A, W, groups) == [1, 2]
    assert redundant_clauses(A, W[:, [2]], groups) == []  # the only clause stays


@pytest.mark.parametrize("algorithm", ["am", "tlp"])
def test_am_and_tlp_emit_no_duplicate_or_dead_clauses(algorithm):
    """A one-term DNF learned with R = 3: the extra terms used to come out as copies or as f AND not f."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(80, 4)), columns=[f"f{j}" for j in range(4)])
    y = (X.f0 | (rng.random(80) < 0.1)).astype(int).to_numpy()
    A = np.hstack([X.to_numpy(), 1 - X.to_numpy()])
    literals = [Literal(c, "is_true") for c in X.columns] + [Literal(c, "is_false") for c in X.columns]
    problem = CNFProblem.from_binary(A, y, literals=literals, form="dnf")
    result, data = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=3, theta=0.5)
    rule = problem.rule_from_weights(*data.split(result.W))
    from rulemodels.rules import simplify_rule

    assert not simplify_rule(rule)[1].removed_clauses, str(rule)
    assert len(set(rule.clauses)) == rule.n_clauses
    assert result.objective == pytest.approx(
        zero_one_objective(data.A, data.y, result.W, 0.5) if algorithm == "tlp" else hamming_objective(data.A, data.y, result.W, 0.5))


# ---------------------------------------------------------------------------
# The fit machinery: one name per concept
# ---------------------------------------------------------------------------


def test_the_lp_solution_cache_is_written_only_through_its_methods():
    """A second fit on the same cache re-uses every LP solution; a closed cache refuses to store more."""
    from rulemodels.algorithms import LPSolutionCache, WorkingData, learn

    problem = random_problem(3, n=40, d=6)
    with LPSolutionCache(WorkingData.from_problem(problem), get_backend("highs")) as cache:
        first = learn(cache, algorithm="am", n_clauses=2, theta=0.05, max_iter=100)
        stored = cache.n_solutions
        assert stored == first.n_solves > 0
        again = learn(cache, algorithm="am", n_clauses=2, theta=0.05, max_iter=100)
        assert again.n_solves == 0 and again.n_reused > 0 and cache.n_solutions == stored
        np.testing.assert_array_equal(again.W, first.W)
        # what it stores is private: engine and drivers go through solution()/store_solution()/clause()/...
        assert all(name.startswith("_") for name, value in vars(cache).items() if isinstance(value, dict))
    assert cache.n_solutions == 0
    with pytest.raises(RuntimeError, match="LP-solution cache was closed"):
        cache.store_solution(b"key", np.zeros(3))


def test_lower_layers_declare_no_defaults_for_the_estimator_settings():
    """``learn`` and the builders take θ, R, the algorithm and max_iter from their caller (the estimator's defaults live above)."""
    import inspect

    from rulemodels import defaults
    from rulemodels.algorithms import FitSpec, learn
    from rulemodels.models import build_clause_dual_lp, build_clause_lp, build_hamming, build_zero_one

    required = {
        learn: {"algorithm", "n_clauses", "theta", "max_iter"},
        FitSpec: {"form", "algorithm", "n_clauses", "theta"},  # the recipe a workspace learns with
        build_clause_lp: {"theta"}, build_clause_dual_lp: {"theta"}, build_zero_one: {"theta"}, build_hamming: {"theta"},
    }
    for function, names in required.items():
        parameters = inspect.signature(function).parameters
        assert {name for name in names if parameters[name].default is inspect.Parameter.empty} == names, function
    # the recipe's other defaults are "off" or read from rulemodels.defaults, not numbers of its own
    spec = inspect.signature(FitSpec).parameters
    assert spec["max_iter"].default == defaults.DEFAULT_MAX_ITER and spec["polish_formulation"].default == defaults.POLISH_FORMULATION
    assert (spec["allow_disable"].default, spec["disable_cost"].default, spec["time_limit"].default) == (False, None, None)
    with pytest.raises(TypeError, match="max_iter"):
        learn(None, algorithm="am", n_clauses=2, theta=0.01)


def test_one_learned_rule_type_and_the_old_names_are_gone():
    import importlib

    import rulemodels
    import rulemodels.algorithms as algorithms
    from rulemodels.algorithms import LearnedRule, TrainingWorkspace, WorkingData, solve_exact

    assert rulemodels.TrainingWorkspace is TrainingWorkspace
    assert not hasattr(algorithms, "learn_cnf") and not hasattr(algorithms, "ProblemWorkspace")
    package = Path(rulemodels.__file__).parent  # (an editable install elsewhere may still map the old names)
    for old in ("exact.py", "workspace.py", "algorithms/workspace.py"):
        assert not (package / old).exists(), old
    assert importlib.import_module("rulemodels.algorithms.exact").solve_exact is rulemodels.solve_exact
    X, y = planted_data(n=40)
    exact = solve_exact(X, y, n_clauses=1, theta=0.5, solver="highs")
    with TrainingWorkspace(X, y) as workspace:
        learned = workspace.learn(form="dnf", algorithm="scn", n_clauses=1, theta=0.5, allow_disable=False,
                                  disable_cost=None, max_iter=100)
    assert type(exact) is LearnedRule and type(learned) is LearnedRule
    assert exact.termination == "optimal" and exact.exact_bound is not None
    with pytest.warns(DeprecationWarning, match="use .termination"):
        assert exact.status == "optimal"
    with pytest.raises(ValueError, match="allow_disable=True needs disable_cost"):
        WorkingData.from_problem(random_problem(0), allow_disable=True)


def test_the_binary_matrix_is_converted_once_for_the_builders():
    """WorkingData keeps the int8 CSR the builders take; the builders use it as is."""
    from rulemodels.algorithms import WorkingData
    from rulemodels.models._data import as_binary_csr

    problem = random_problem(1, n=30, d=5)
    for allow_disable in (False, True):
        data = WorkingData.from_problem(problem, allow_disable=allow_disable, disable_cost=0.5)
        assert as_binary_csr(data.A_binary) is data.A_binary
        np.testing.assert_array_equal(data.A_binary.toarray(), data.A)


@pytest.mark.parametrize("seed", [4, 11, 19])
def test_assign_negatives_weights_the_cluster_centres_so_a_row_of_weight_k_counts_as_k_rows(seed):
    # a fit on distinct rows with their counts as weights (Parquet/Dask input) must equal the fit on
    # all rows; the unweighted centres broke ties differently (these seeds: the unweighted assignment differs)
    rng = np.random.default_rng(seed)
    A = rng.integers(0, 2, (8, 5)).astype(float)
    W = rng.integers(0, 2, (5, 3)).astype(float)
    counts = rng.integers(1, 6, 8)
    repeated = np.repeat(A, counts, axis=0)
    row_of = np.repeat(np.arange(8), counts)
    on_rows = assign_negatives(repeated, W, np.arange(repeated.shape[0]))
    weighted = assign_negatives(A, W, np.arange(8), counts.astype(float))
    assert np.array_equal(weighted[row_of], on_rows)
    assert not np.array_equal(assign_negatives(A, W, np.arange(8))[row_of], on_rows)


def test_the_rounding_scores_large_data_by_blocks_of_rows_with_the_same_costs(monkeypatch):
    """Above COST_BLOCK_CELLS the one-level costs are summed a block of rows at a time: the same numbers, less memory."""
    from rulemodels.algorithms import engine as engine_module

    rng = np.random.default_rng(3)
    A = (rng.random((500, 9)) < 0.4).astype(int)
    y = (rng.random(500) < 0.5).astype(int)
    data = WorkingData.from_problem(CNFProblem.from_binary(A, y, form="cnf"))
    with LPSolutionCache(data, get_backend("highs")) as cache:
        engine = ClauseEngine(cache, theta=1.5)
        weight = rng.random(500) * (rng.random(500) < 0.9)
        cost = engine._one_level_cost(weight)
        current = rng.random(9).round(1)
        columns = np.array([1, 4, 6])
        options = rng.integers(0, 2, size=(3, 8)).astype(float)
        whole = cost(current, columns, options)
        monkeypatch.setattr(engine_module, "COST_BLOCK_CELLS", 64)  # blocks of 2 rows
        blocked = cost(current, columns, options)
    assert np.allclose(blocked, whole, rtol=1e-12, atol=1e-9) and not np.array_equal(whole, np.zeros(8))


def test_assign_negatives_gives_the_same_assignment_by_blocks(monkeypatch):
    """AM's l1 tie-break is computed a block of rows at a time (memory at 1,000,000 rows): the same assignment."""
    from rulemodels.algorithms import alternating

    rng = np.random.default_rng(5)
    A = (rng.random((400, 12)) < 0.5).astype(float)
    W = (rng.random((12, 3)) < 0.3).astype(float)
    negatives = np.flatnonzero(rng.random(400) < 0.6)
    weight = rng.random(400)
    whole = assign_negatives(A, W, negatives, weight)
    monkeypatch.setattr(alternating, "ASSIGN_BLOCK_CELLS", 36)  # one row per block
    assert np.array_equal(assign_negatives(A, W, negatives, weight), whole)
    sums = A[negatives] @ W
    assert np.all(sums[np.arange(len(negatives)), whole] == sums.min(axis=1))  # always a cheapest clause


def test_row_products_of_a_byte_matrix_equal_the_float_products(monkeypatch):
    """A uint8 0/1 matrix is multiplied a block of rows at a time: the same numbers as the float matrix's product."""
    from rulemodels.models import objectives

    rng = np.random.default_rng(8)
    A = (rng.random((301, 7)) < 0.5).astype(np.uint8)
    W = rng.random((7, 3))
    monkeypatch.setattr(objectives, "ROW_BLOCK_CELLS", 20)  # blocks of 2 rows (the last one a single row)
    # fractional W: the same sums up to BLAS's order of addition in a block (a last bit)
    np.testing.assert_allclose(objectives.row_products(A, W), A.astype(float) @ W, rtol=1e-15, atol=0)
    np.testing.assert_allclose(objectives.row_products(A, W[:, 0]), A.astype(float) @ W[:, 0], rtol=1e-15, atol=0)
    np.testing.assert_allclose(objectives.clause_sums(A, W), A.astype(float) @ W, rtol=1e-15, atol=0)
    # 0/1 W (every product the drivers take): counts, exactly equal
    binary = (W > 0.5).astype(float)
    np.testing.assert_array_equal(objectives.row_products(A, binary), A.astype(float) @ binary)
    np.testing.assert_array_equal(objectives.clause_sums(A, binary), A.astype(float) @ binary)


@pytest.mark.parametrize("algorithm", ["am", "bcd", "scn", "tlp", "cg"])
@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_large_matrices_held_as_bytes_learn_the_same_rules(monkeypatch, algorithm, form):
    """Above DENSE_FLOAT_CELLS the drivers' dense matrix is uint8, multiplied by blocks: the same fits."""
    from rulemodels import BooleanRuleClassifier
    from rulemodels.algorithms import data as data_module
    from rulemodels.models import objectives

    X, y = planted_data(n=240, seed=3)
    weight = np.random.default_rng(3).integers(1, 4, y.shape[0]).astype(float)

    def fit(allow_disable):
        clf = BooleanRuleClassifier(algorithm=algorithm, form=form, n_clauses=3, allow_disable=allow_disable)
        return clf.fit(X, y, sample_weight=weight)

    seen = []
    original = data_module.WorkingData.from_problem.__func__

    def recording(cls, *args, **kwargs):
        made = original(cls, *args, **kwargs)
        seen.append(made.A.dtype)
        return made

    monkeypatch.setattr(data_module.WorkingData, "from_problem", classmethod(recording))
    for allow_disable in (False, True):
        as_float = fit(allow_disable)
        assert seen and all(dtype == np.float64 for dtype in seen)
        with monkeypatch.context() as patch:
            patch.setattr(data_module, "DENSE_FLOAT_CELLS", 0)
            patch.setattr(objectives, "ROW_BLOCK_CELLS", 64)  # blocks of a few rows
            seen.clear()
            as_bytes = fit(allow_disable)
            assert seen and all(dtype == np.uint8 for dtype in seen)
        seen.clear()
        assert str(as_bytes.rule_) == str(as_float.rule_)
        assert as_bytes.objective_ == as_float.objective_ and as_bytes.training_error_ == as_float.training_error_
        assert as_bytes.n_solves_ == as_float.n_solves_
