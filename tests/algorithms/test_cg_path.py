"""Column generation along a θ path, and its deterministic selection: against brute force and single fits."""

from __future__ import annotations

import itertools
import warnings
from dataclasses import replace

import numpy as np
import pytest

from rulemodels import FeatureBinarizer, TimeLimitWarning, TrainingWorkspace, load_dataset
from rulemodels.algorithms.column_generation import greedy_selection, run_column_generation, run_column_generation_path
from rulemodels.algorithms.run import CG_SETTINGS
from rulemodels.models.column_generation import prepare_cg_data
from solvers import HighsBackend


def objective(covers: np.ndarray, weight: np.ndarray, cost: np.ndarray, selection: list[int]) -> float:
    covered = covers[:, selection].any(axis=1) if selection else np.zeros(covers.shape[0], dtype=bool)
    return float(weight[~covered].sum() + cost[selection].sum())


def coverage_instance(seed: int, n: int = 12, k: int = 7) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    covers = rng.random((n, k)) < 0.35
    weight = rng.integers(1, 4, n).astype(float)
    cost = rng.uniform(0.5, 4.0, k)
    return covers, weight, cost


@pytest.mark.parametrize("seed", range(40))
def test_greedy_selection_is_a_local_optimum_never_worse_than_a_single_clause(seed: int) -> None:
    covers, weight, cost = coverage_instance(seed)
    R = 1 + seed % 3
    chosen = greedy_selection(covers, weight, cost, R, starts=3)
    value = objective(covers, weight, cost, chosen)
    assert len(chosen) <= R and chosen == sorted(set(chosen))
    singles = min(objective(covers, weight, cost, [k]) for k in range(covers.shape[1]))
    assert value <= min(singles, objective(covers, weight, cost, [])) + 1e-9
    # no add, drop or swap lowers the objective
    others = [k for k in range(covers.shape[1]) if k not in chosen]
    moves = [[*chosen, j] for j in others if len(chosen) < R] + [[c for c in chosen if c != k] for k in chosen]
    moves += [[*(c for c in chosen if c != k), j] for k in chosen for j in others]
    assert all(objective(covers, weight, cost, move) >= value - 1e-9 for move in moves)


@pytest.mark.parametrize("seed", range(40))
def test_clauses_that_do_not_pay_alone_never_help_the_optimum(seed: int) -> None:
    """The search's exact reduction: the best selection over every clause uses only clauses that pay alone."""
    covers, weight, cost = coverage_instance(seed, n=10, k=6)
    R = 1 + seed % 3
    paying = [k for k in range(covers.shape[1]) if cost[k] - weight[covers[:, k]].sum() < 0]
    every = [list(s) for size in range(R + 1) for s in itertools.combinations(range(covers.shape[1]), size)]
    best = min(objective(covers, weight, cost, s) for s in every)
    best_paying = min(objective(covers, weight, cost, s) for s in every if set(s) <= set(paying))
    assert best_paying == pytest.approx(best)
    assert objective(covers, weight, cost, greedy_selection(covers, weight, cost, R, starts=6)) >= best - 1e-9


def columns_of(name: str, n: int = 200):
    X, y = load_dataset(name)
    workspace = TrainingWorkspace(X.iloc[:n], y.iloc[:n] if hasattr(y, "iloc") else y[:n])
    data = workspace.lp_cache("dnf", allow_disable=False, disable_cost=None).data
    columns = prepare_cg_data(data.A_binary, data.y, sample_weight=data.weight)
    return workspace, columns


def test_a_path_builds_one_master_and_each_theta_depends_only_on_the_thetas_before_it() -> None:
    workspace, columns = columns_of("pima")
    thetas = [20.0, 8.0, 3.0, 1.0]
    with workspace:
        backend = workspace.backend
        runs = run_column_generation_path(columns, backend, thetas=thetas, n_clauses=[1, 3], max_iter=100, settings=CG_SETTINGS)
        assert sum(run.n_builds for run in runs.values()) == 1  # one master for the whole path
        assert set(runs) == {(t, r) for t in thetas for r in (1, 3)}
        for (theta, R), run in runs.items():
            assert len(run.selection) <= R
            clauses = [run.clauses[k] for k in run.selection]
            assert run.objective == pytest.approx(columns.objective(clauses, theta, CG_SETTINGS.clause_cost))
        prefix = run_column_generation_path(columns, backend, thetas=thetas[:2], n_clauses=[1, 3], max_iter=100, settings=CG_SETTINGS)
        for key, run in prefix.items():
            assert [run.clauses[k] for k in run.selection] == [runs[key].clauses[k] for k in runs[key].selection]
        # its first θ is a fit at that θ alone (with the rounds' cap at the largest R)
        single = run_column_generation(columns, backend, theta=thetas[0], n_clauses=3, max_iter=100, settings=CG_SETTINGS)
        assert single.objective == pytest.approx(runs[(thetas[0], 3)].objective)


def test_learn_path_returns_learned_rules_with_the_objective_of_their_clauses() -> None:
    X, y = load_dataset("liver")
    with TrainingWorkspace(X, y) as workspace:
        path = workspace.learn_path(
            form="cnf", thetas=[10.0, 2.0], n_clauses=[2], allow_disable=False, disable_cost=None, max_iter=100,
        )
        again = workspace.learn_path(
            form="cnf", thetas=[10.0, 2.0], n_clauses=[2], allow_disable=False, disable_cost=None, max_iter=100,
        )
    assert set(path) == {(10.0, 2), (2.0, 2)}
    assert {key: str(learned.rule) for key, learned in path.items()} == {key: str(learned.rule) for key, learned in again.items()}
    assert path[(2.0, 2)].rule.n_literals >= path[(10.0, 2)].rule.n_literals


def test_the_integer_selection_warns_when_its_time_limit_stops_it() -> None:
    X, y = load_dataset("sonar")
    # the tree cut points without a floor in rows: 1,080 literals whose selection MIP is not solved in 0.01 s
    with TrainingWorkspace(X, y, binarizer=FeatureBinarizer(thresholds="tree", nan="indicator", min_leaf_rows=0)) as workspace:
        data = workspace.lp_cache("cnf", allow_disable=False, disable_cost=None).data
        columns = prepare_cg_data(data.A_binary, data.y, sample_weight=data.weight)
        settings = replace(CG_SETTINGS, selection="mip", selection_time_limit=0.01)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run = run_column_generation(columns, HighsBackend(), theta=0.4, n_clauses=5, max_iter=100, settings=settings)
    assert any(issubclass(w.category, TimeLimitWarning) and "time limit" in str(w.message) for w in caught)
    # never worse than the local search's selection
    local = run_column_generation(columns, HighsBackend(), theta=0.4, n_clauses=5, max_iter=100, settings=CG_SETTINGS)
    assert run.objective <= local.objective + 1e-9
