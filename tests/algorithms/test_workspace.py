"""Explicit workspaces: shared work across fits, results that depend only on a fit's inputs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier, TrainingWorkspace
from rulemodels.algorithms import LPSolutionCache, WorkingData, default_binarizer, learn
from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import load_dataset
from rulemodels.models.problem import CNFProblem
from solvers import HighsBackend

REPO = Path(__file__).resolve().parents[2]

# Sonar's clause LPs are the most degenerate of the four datasets: many optimal
# vertices, so any warm start or stored solution that leaked from another fit
# would change a rule.
FIT_A = [
    {"algorithm": "am", "n_clauses": 3, "theta": 0.01, "form": "dnf"},
    {"algorithm": "bcd", "n_clauses": 2, "theta": 0.05, "form": "cnf"},
    {"algorithm": "scn", "n_clauses": 3, "theta": 0.002, "form": "dnf"},
    {"algorithm": "tlp", "n_clauses": 2, "theta": 0.1, "form": "dnf"},
]
FIT_B = {"algorithm": "am", "n_clauses": 4, "theta": 0.002, "form": "dnf"}

_FRESH_PROCESS = """
import json, sys
from rulemodels import BooleanRuleClassifier, load_dataset
X, y = load_dataset("sonar")
fits = []
for params in json.loads(sys.argv[1]):
    clf = BooleanRuleClassifier(n_thresholds=4, **params).fit(X, y)
    fits.append({"rule": clf.rule_.to_json(), "objective": clf.objective_, "history": clf.history_})
print(json.dumps(fits))
"""


def summary(clf: BooleanRuleClassifier) -> dict:
    return {"rule": clf.rule_.to_json(), "objective": clf.objective_, "history": clf.history_}


@pytest.mark.slow
def test_fit_a_then_b_then_a_equals_a_alone_in_a_fresh_process() -> None:
    """Each fit A, run after A and B on one workspace (and after fits on other data), equals A in a new process."""
    completed = subprocess.run(
        [sys.executable, "-c", _FRESH_PROCESS, json.dumps(FIT_A)], capture_output=True, text=True, check=False, cwd=REPO,
    )
    assert completed.returncode == 0, completed.stderr
    alone = json.loads(completed.stdout)

    X, y = load_dataset("sonar")
    backend = HighsBackend()
    other_X, other_y = load_dataset("liver")
    binarizer = default_binarizer(4)
    with TrainingWorkspace(X, y, binarizer=binarizer, solver=backend) as shared, \
            TrainingWorkspace(other_X, other_y, binarizer=binarizer, solver=backend) as other:
        for params, expected in zip(FIT_A, alone):
            first = BooleanRuleClassifier(n_thresholds=4, **params).fit(X, y, workspace=shared)
            BooleanRuleClassifier(n_thresholds=4, **FIT_B).fit(X, y, workspace=shared)
            BooleanRuleClassifier(n_thresholds=4, **params).fit(other_X, other_y, workspace=other)
            again = BooleanRuleClassifier(n_thresholds=4, **params).fit(X, y, workspace=shared)
            assert summary(first) == expected, params
            assert summary(again) == expected, params
            if params["algorithm"] != "tlp":
                assert again.n_solves_ == 0 and again.n_reused_ > 0  # everything came from the workspace
    assert len(backend) == 0  # closing both workspaces released every HiGHS instance


def test_workspace_fits_equal_private_fits_and_share_work() -> None:
    X, y = load_dataset("liver")
    private = {theta: BooleanRuleClassifier(algorithm="am", n_clauses=2, theta=theta).fit(X, y) for theta in (0.01, 0.1)}
    with TrainingWorkspace(X, y) as workspace:
        shared = {theta: BooleanRuleClassifier(algorithm="am", n_clauses=2, theta=theta).fit(X, y, workspace=workspace)
                  for theta in (0.01, 0.1)}
        scn = BooleanRuleClassifier(algorithm="scn", n_clauses=2, theta=0.1).fit(X, y, workspace=workspace)
    for theta in private:
        assert summary(shared[theta]) == summary(private[theta])
        np.testing.assert_array_equal(shared[theta].predict(X), private[theta].predict(X))
    assert shared[0.01].n_builds_ == 1 and shared[0.1].n_builds_ == 0  # one clause LP for the workspace
    assert scn.n_solves_ == 0  # AM at the same θ already learned SCN's set-covering clauses


@pytest.mark.slow
def test_closing_releases_solver_instances_and_refuses_further_fits() -> None:
    X, y = load_dataset("parkinsons")
    backend = HighsBackend()
    workspace = TrainingWorkspace(X, y, solver=backend)
    settings = {"form": "dnf", "allow_disable": False, "disable_cost": None, "max_iter": 100}
    workspace.learn(algorithm="bcd", n_clauses=2, theta=0.01, **settings)
    workspace.learn(algorithm="tlp", n_clauses=2, theta=0.01, **settings)
    assert len(backend) == 2  # the clause LP and the TLP relaxation
    workspace.close()
    assert len(backend) == 0
    with pytest.raises(RuntimeError, match="closed"):
        workspace.learn(algorithm="am", n_clauses=2, theta=0.01, **settings)
    with pytest.raises(RuntimeError, match="closed"):
        BooleanRuleClassifier().fit(X, y, workspace=workspace)


def test_a_workspace_serves_only_its_own_data_and_settings() -> None:
    X, y = load_dataset("liver")
    with TrainingWorkspace(X, y) as workspace:
        with pytest.raises(ValueError, match="other training data"):
            BooleanRuleClassifier().fit(X.iloc[:-1], y.iloc[:-1], workspace=workspace)
        with pytest.raises(ValueError, match="other training data"):
            BooleanRuleClassifier().fit(X, 1 - y, workspace=workspace)
        with pytest.raises(ValueError, match="other training data"):
            BooleanRuleClassifier().fit(X, y, sample_weight=np.r_[2.0, np.ones(len(y) - 1)], workspace=workspace)
        # weights are normalised to mean 1: proportional weights are the same training data
        BooleanRuleClassifier().fit(X, y, sample_weight=np.full(len(y), 2.0), workspace=workspace)
        with pytest.raises(ValueError, match="binarizer settings"):
            BooleanRuleClassifier(n_thresholds=4).fit(X, y, workspace=workspace)
        with pytest.raises(ValueError, match="solves with 'highs'"):
            BooleanRuleClassifier(solver="glpk").fit(X, y, workspace=workspace)
        # An equal copy of the data is the same data.
        BooleanRuleClassifier(theta=1.0).fit(X.copy(), y.copy(), workspace=workspace)


def test_problem_workspace_results_do_not_depend_on_the_order_of_fits() -> None:
    X, y = load_dataset("sonar")
    binarizer = FeatureBinarizer(n_thresholds=4).fit(X)
    problem = CNFProblem.from_binary(binarizer.transform(X), y, literals=binarizer.literals_, form="dnf")
    cells = [("am", 2, 0.01), ("bcd", 3, 0.01), ("scn", 3, 0.002), ("am", 3, 0.002), ("scs", 2, 0.01)]

    def run(order: list[int]) -> dict:
        with LPSolutionCache(WorkingData.from_problem(problem), HighsBackend()) as cache:
            return {cells[i]: learn(cache, algorithm=cells[i][0], n_clauses=cells[i][1], theta=cells[i][2], max_iter=100).W
                    for i in order}

    forward, backward = run(list(range(len(cells)))), run(list(range(len(cells)))[::-1])
    for cell in cells:
        np.testing.assert_array_equal(forward[cell], backward[cell], err_msg=str(cell))


def test_no_hidden_pools_or_thread_local_state_in_the_packages() -> None:
    pattern = re.compile(r"threading\.local|default_pool|clear_model_pool")
    offenders = [
        f"{path.relative_to(REPO)}:{number}"
        for package in ("rulemodels", "solvers")
        for path in sorted((REPO / package).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line)
    ]
    assert offenders == []


def test_importing_rulemodels_imports_neither_matplotlib_nor_dask() -> None:
    code = (
        "import sys, rulemodels, rulemodels.experiments, rulemodels.cli; "
        "print(sorted(m for m in ('matplotlib', 'dask', 'distributed') if m in sys.modules))"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert completed.stdout.strip() == "[]"


@pytest.mark.parametrize("algorithm", ["scs", "am", "tlp", "exact"])
@pytest.mark.parametrize("form", ["dnf", "cnf"])
def test_learned_rule_evaluates_like_the_rule(algorithm, form) -> None:
    """``LearnedRule.evaluate_binary`` (by column, used by the sweep) equals ``Rule.evaluate_binary`` (by literal)."""
    X, y = load_dataset("parkinsons")
    X = X.iloc[:, :2] if algorithm == "exact" else X.iloc[:, :4]  # the exact MIP is for small problems
    train, test = np.arange(0, 195, 2), np.arange(1, 195, 2)
    with TrainingWorkspace(X.iloc[train], y.iloc[train], binarizer=default_binarizer(3)) as workspace:
        test_matrix = workspace.transform(X.iloc[test])
        for theta, n_clauses, allow_disable in [(0.0, 2, False), (0.05, 3, True), (50.0, 2, False)]:
            learned = workspace.learn(
                form=form, algorithm=algorithm, n_clauses=n_clauses, theta=theta, allow_disable=allow_disable,
                disable_cost=0.5, max_iter=100, time_limit=30 if algorithm == "exact" else None,
            )
            for matrix in (workspace.A, test_matrix):
                np.testing.assert_array_equal(
                    learned.evaluate_binary(matrix), learned.rule.evaluate_binary(matrix, workspace.literals),
                    err_msg=f"{algorithm} {form} θ={theta}: {learned.rule}",
                )


def test_a_workspace_of_distinct_rows_with_counts_learns_what_the_rows_learn():
    # the rows behind Parquet/Dask fits; the fitted binarizer is kept and the weights are over the rows
    X, y = load_dataset("pima")
    X, y = X.iloc[:200, :4].round(-1), y.to_numpy()[:200]  # coarse values: many repeated rows
    binarizer = FeatureBinarizer(nan="indicator").fit(X)
    frame = X.assign(label=y)
    groups = frame.groupby(list(frame.columns), sort=False, dropna=False).size()
    distinct = groups.index.to_frame(index=False)
    counts = groups.to_numpy().astype(float)
    assert len(distinct) < len(X)
    settings = dict(form="cnf", algorithm="am", n_clauses=2, theta=2.0, allow_disable=False, disable_cost=None, max_iter=50)
    with TrainingWorkspace(X, y, binarizer=binarizer, fit_binarizer=False) as rows:
        on_rows = rows.learn(**settings)
        assert rows.binarizer is binarizer
    with TrainingWorkspace(
        distinct[list(X.columns)], distinct["label"].to_numpy(), counts, binarizer=binarizer, fit_binarizer=False,
        n_rows=len(X),
    ) as grouped:
        assert np.array_equal(grouped.sample_weight, counts)  # the group sizes exactly: mean 1 over the rows
        on_groups = grouped.learn(**settings)
    assert on_groups.rule == on_rows.rule and on_rows.rule.n_literals > 1
    assert on_groups.objective == pytest.approx(on_rows.objective)
    with pytest.raises(ValueError, match="fit_binarizer=False needs the fitted binarizer"):
        TrainingWorkspace(X, y, fit_binarizer=False)


def test_a_workspace_takes_rows_already_binarized_by_its_fitted_binarizer():
    X, y = load_dataset("pima")
    X, y = X.iloc[:150, :4], y.to_numpy()[:150]
    binarizer = FeatureBinarizer().fit(X)
    settings = dict(form="dnf", algorithm="cg", n_clauses=2, theta=2.0, allow_disable=False, disable_cost=None, max_iter=50)
    A = binarizer.transform(X)
    with TrainingWorkspace(X, y, binarizer=binarizer, fit_binarizer=False) as plain, TrainingWorkspace(
        X, y, binarizer=binarizer, fit_binarizer=False, binary=A,
    ) as given:
        assert given.A is A and np.array_equal(plain.A, given.A)
        assert given.learn(**settings).rule == plain.learn(**settings).rule
    with pytest.raises(ValueError, match=r"binary= must be X transformed by the fitted binarizer.*shape \(150, "):
        TrainingWorkspace(X, y, binarizer=binarizer, fit_binarizer=False, binary=A[:, :-1])
    with pytest.raises(ValueError, match="fit_binarizer=True"):
        TrainingWorkspace(X, y, binarizer=FeatureBinarizer(), binary=A)
