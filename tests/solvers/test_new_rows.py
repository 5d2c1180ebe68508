"""Rows added to a solved model (``ModelChanges(new_rows=...)``): a cutting-plane loop on a toy LP."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest

from solvers import HighsBackend, ModelChanges, NewRows

# min -x - y over the unit box cut by rows a·(x, y) <= b, added one by one
CUTS = [(np.array([1.0, 1.0]), 1.5), (np.array([2.0, 1.0]), 2.0), (np.array([1.0, 3.0]), 2.5)]


def build(n_cuts: int) -> pyo.ConcreteModel:
    m = pyo.ConcreteModel()
    m.x = pyo.Var([0, 1], bounds=(0, 1))
    m.cut = pyo.ConstraintList()
    for a, b in CUTS[:n_cuts]:
        m.cut.add(a[0] * m.x[0] + a[1] * m.x[1] <= b)
    m.objective = pyo.Objective(expr=-m.x[0] - m.x[1])
    return m


def test_highs_appends_rows_without_compiling_again() -> None:
    backend = HighsBackend()
    m = build(0)
    assert backend.solve(m).objective == pytest.approx(-2.0)
    for k, (a, b) in enumerate(CUTS, start=1):
        constraint = m.cut.add(a[0] * m.x[0] + a[1] * m.x[1] <= b)
        declared = ModelChanges(new_rows=NewRows([constraint], np.array([-np.inf]), np.array([b]), [([m.x[0], m.x[1]], a)]))
        result = backend.solve(m, changes=declared)
        fresh = HighsBackend().solve(build(k))
        assert result.objective == pytest.approx(fresh.objective, abs=1e-9)
        x = result.values([m.x[0], m.x[1]])
        assert all(a @ x <= b + 1e-9 for a, b in CUTS[:k])  # the appended rows hold at the solution
    assert backend.n_builds == 1  # every row appended in place


def test_a_row_declared_twice_makes_highs_compile_again_with_a_warning() -> None:
    backend = HighsBackend()
    m = build(1)
    backend.solve(m)
    old = m.cut[1]
    with pytest.warns(UserWarning, match="already has a row"):
        result = backend.solve(m, changes=ModelChanges(new_rows=NewRows([old], np.array([-np.inf]), np.array([1.5]),
                                                                         [([m.x[0], m.x[1]], CUTS[0][0])])))
    assert result.objective == pytest.approx(-1.5)
    assert backend.n_builds == 2


def test_new_rows_checks_its_sizes() -> None:
    m = build(1)
    with pytest.raises(ValueError, match="1 constraints but"):
        NewRows([m.cut[1]], np.array([0.0, 1.0]), np.array([1.0]), [([m.x[0]], np.ones(1))])
