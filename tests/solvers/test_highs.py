"""The HiGHS backend: compiled once, re-solved in place from declared changes, silent, interruptible."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pyomo.environ as pyo
import pytest

from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import load_dataset
from rulemodels.models import build_clause_lp, build_zero_one, clause_weights
from rulemodels.models.problem import CNFProblem
from solvers import HighsBackend, ModelChanges, SolverFallbackWarning, TerminationCondition

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pima_problem() -> CNFProblem:
    X, y = load_dataset("pima")
    binarizer = FeatureBinarizer(n_thresholds=9).fit(X)
    return CNFProblem.from_binary(binarizer.transform(X), y, literals=binarizer.literals_, form="dnf")


def weight_sequence(n: int, seed: int, steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [np.where(rng.random(n) < 0.3, 0.0, 1.0) for _ in range(steps)]


def test_declared_changes_give_bit_identical_solutions_to_fresh_compiles(pima_problem) -> None:
    """Cold re-solves of one kept instance equal solves of freshly built models, to the last bit.

    This is what lets a workspace store LP solutions: a stored solution is
    exactly what a fresh solve of the same LP returns.
    """
    A, y = pima_problem.A, pima_problem.y
    kept_backend = HighsBackend()
    kept = build_clause_lp(A, y, theta=0.01)
    kept_backend.solve(kept.model, warm_start=False)
    for step, weight in enumerate(weight_sequence(A.shape[0], 0, 8)):
        theta = [0.001, 0.05, 0.5, 2.0][step % 4]
        kept.set_sample_weight(weight)
        kept.set_theta(theta)
        kept.set_feature_cost(np.ones(A.shape[1]))
        pushed = kept_backend.solve(kept.model, changes=ModelChanges(**kept.parameter_changes()), warm_start=False)
        fresh_model = build_clause_lp(A, y, theta=theta, sample_weight=weight)
        fresh = HighsBackend().solve(fresh_model.model, warm_start=False)
        assert pushed.objective == fresh.objective, step
        np.testing.assert_array_equal(clause_weights(kept), clause_weights(fresh_model), err_msg=str(step))
        assert pyo.value(kept.model.objective) == pytest.approx(pushed.objective)  # the model holds what was solved
    assert kept_backend.n_builds == 1


def test_warm_and_cold_re_solves_reach_the_same_optimum(pima_problem) -> None:
    A, y = pima_problem.A, pima_problem.y
    backend = HighsBackend()
    lp = build_clause_lp(A, y, theta=0.01)
    for weight in weight_sequence(A.shape[0], 1, 4):
        lp.set_sample_weight(weight)
        warm = backend.solve(lp.model, changes=ModelChanges(**lp.parameter_changes()))
        cold = backend.solve(lp.model, changes=ModelChanges(**lp.parameter_changes()), warm_start=False)
        assert warm.objective == pytest.approx(cold.objective, abs=1e-9)


def test_tlp_theta_changes_are_pushed(pima_problem) -> None:
    A, y = pima_problem.A[:150], pima_problem.y[:150]
    backend = HighsBackend()
    tlp = build_zero_one(A, y, 2, theta=0.01, relax=True)
    backend.solve(tlp.model)
    for theta in (0.2, 3.0):
        tlp.set_theta(theta)
        pushed = backend.solve(tlp.model, changes=ModelChanges(**tlp.sparsity_changes()), warm_start=False)
        fresh = HighsBackend().solve(build_zero_one(A, y, 2, theta=theta, relax=True).model)
        assert pushed.objective == pytest.approx(fresh.objective, rel=1e-9)
    assert backend.n_builds == 1


def small_model() -> pyo.ConcreteModel:
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeReals)
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.idle = pyo.Var(bounds=(2, 5))  # in no constraint and not in the objective
    m.c1 = pyo.Constraint(expr=m.x + m.y >= 4)
    m.c2 = pyo.Constraint(expr=m.x + 3 * m.y >= 6)
    m.cx = pyo.Param(initialize=2.0, mutable=True)
    m.obj = pyo.Objective(expr=m.cx * m.x + 3 * m.y)
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    return m


def test_a_change_the_instance_cannot_take_recompiles_with_a_warning() -> None:
    m = small_model()
    m.z = pyo.Var(bounds=(0, 1))
    m.cz = pyo.Param(initialize=0.0, mutable=True)
    m.obj.deactivate()
    m.obj2 = pyo.Objective(expr=m.cx * m.x + 3 * m.y + m.cz * m.z)
    backend = HighsBackend()
    assert backend.solve(m).objective == pytest.approx(9.0)  # z had cost 0 and no row: not a column
    m.cz = -1.0
    with pytest.warns(SolverFallbackWarning, match="compiling the whole model again"):
        result = backend.solve(m, changes=ModelChanges(objective=([m.z], np.array([-1.0]))))
    assert result.objective == pytest.approx(8.0) and m.z.value == pytest.approx(1.0)
    assert backend.n_builds == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a change that fits: no warning
        backend.solve(m, changes=ModelChanges(objective=([m.x], np.array([2.0]))))


def test_a_constraint_that_changes_its_kind_of_bound_recompiles_with_a_warning() -> None:
    m = small_model()
    backend = HighsBackend()
    backend.solve(m)
    m.c1.set_value((4, m.x + m.y, 10))
    with pytest.warns(SolverFallbackWarning, match="changes which bounds it has"):
        backend.solve(m, changes=ModelChanges(constraint_bounds=([m.c1], np.array([4.0]), np.array([10.0]))))


def test_solution_loading_unreported_variables_duals_and_maximisation() -> None:
    m = small_model()
    result = HighsBackend().solve(m)
    assert result.termination is TerminationCondition.optimal and result.objective == pytest.approx(9.0)
    assert (m.x.value, m.y.value) == (pytest.approx(3.0), pytest.approx(1.0))
    assert m.idle.value == 2.0  # 0 clipped to its bounds, as for the shell solvers
    assert m.dual[m.c1] == pytest.approx(1.5) and m.dual[m.c2] == pytest.approx(0.5)
    m.obj.sense = pyo.maximize
    m.bound = pyo.Constraint(expr=m.x + m.y <= 10)
    result = HighsBackend().solve(m)
    assert result.objective == pytest.approx(30.0) and m.y.value == pytest.approx(10.0)


def test_mip_bound_and_time_limit_results() -> None:
    m = pyo.ConcreteModel()
    values, weights = [5, 4, 3, 6], [2, 3, 1, 4]
    m.pick = pyo.Var(range(4), domain=pyo.Binary)
    m.cap = pyo.Constraint(expr=sum(weights[i] * m.pick[i] for i in range(4)) <= 5)
    m.obj = pyo.Objective(expr=sum(values[i] * m.pick[i] for i in range(4)), sense=pyo.maximize)
    result = HighsBackend().solve(m, time_limit=30)
    assert result.objective == pytest.approx(9.0) and result.bound == pytest.approx(9.0)
    assert sorted(round(m.pick[i].value) for i in range(4)) == [0, 0, 1, 1]


def test_unknown_and_ill_typed_options_are_errors_naming_the_option() -> None:
    with pytest.raises(ValueError, match="HiGHS has no option 'no_such_option'"):
        HighsBackend().solve(small_model(), options={"no_such_option": 1})
    with pytest.raises(ValueError, match="HiGHS option 'presolve' does not accept the value 'maybe'"):
        HighsBackend(options={"presolve": "maybe"}).solve(small_model())
    assert HighsBackend(options={"presolve": "on"}).solve(small_model()).objective == pytest.approx(9.0)


def test_release_and_pickling_drop_the_instances() -> None:
    backend = HighsBackend()
    first, second = small_model(), small_model()
    backend.solve(first)
    backend.solve(second)
    assert len(backend) == 2
    assert len(pickle.loads(pickle.dumps(backend))) == 0
    backend.release(first)
    assert len(backend) == 1
    backend.solve(second, changes=ModelChanges())  # still kept: no new build
    assert backend.n_builds == 2


_SILENT = """
import numpy as np
from rulemodels.models import build_clause_lp
from solvers import HighsBackend
A = np.array([[1, 0], [0, 1], [1, 1], [0, 0]])
y = np.array([1, 1, 0, 0])
HighsBackend().solve(build_clause_lp(A, y, theta=1e300).model)
HighsBackend(options={"presolve": "on"}).solve(build_clause_lp(A, y, theta=0.01, integer=True).model)
"""


def test_nothing_reaches_stdout() -> None:
    """Neither highspy's banner nor HiGHS' log or warnings (a huge θ makes HiGHS warn) reach stdout."""
    completed = subprocess.run([sys.executable, "-c", _SILENT], capture_output=True, text=True, cwd=REPO, check=False)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == ""


def market_split(seed: int = 0, rows: int = 4, columns: int = 40) -> pyo.ConcreteModel:
    """A market-split feasibility MIP: tiny, and very slow for branch and bound."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 100, size=(rows, columns))
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(columns), domain=pyo.Binary)
    m.slack = pyo.Var(range(rows), range(2), domain=pyo.NonNegativeReals)
    m.split = pyo.Constraint(
        range(rows),
        rule=lambda m, i: sum(int(a[i, j]) * m.x[j] for j in range(columns)) + m.slack[i, 0] - m.slack[i, 1]
        == int(a[i].sum() // 2),
    )
    m.obj = pyo.Objective(expr=sum(m.slack[i, k] for i in range(rows) for k in range(2)))
    return m


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to the own process is POSIX")
def test_ctrl_c_stops_a_long_solve_and_propagates() -> None:
    backend = HighsBackend()
    model = market_split()
    timer = threading.Timer(1.0, os.kill, args=(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            backend.solve(model, time_limit=60)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 30
    assert len(backend) == 0  # an interrupted instance is not kept
