"""Columns added to a solved model (``ModelChanges(new_columns=...)``) and integrality changes, on a toy covering LP."""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest

from solvers import HighsBackend, ModelChanges, NewColumns
from tests.helpers import require_backend

# rows to cover (4) x candidate columns (6): the first two are in the model from the start
COVER = np.array([
    [1, 0, 1, 0, 0, 1],
    [0, 1, 1, 0, 1, 0],
    [1, 1, 0, 1, 0, 0],
    [0, 0, 0, 1, 1, 1],
])
COST = np.array([3.0, 3.0, 1.5, 1.2, 1.4, 1.1])
PENALTY = 4.0  # per uncovered row


def build(columns: list[int], *, binary: bool = False) -> pyo.ConcreteModel:
    """min Σ_k cost_k x_k + PENALTY Σ_i s_i  s.t.  s_i + Σ_k a_ik x_k ≥ 1, over a growing Set of columns."""
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, COVER.shape[0] - 1)
    m.K = pyo.Set(initialize=columns, ordered=True)
    m.x = pyo.Var(m.K, domain=pyo.Binary if binary else pyo.UnitInterval)
    m.s = pyo.Var(m.I, domain=pyo.NonNegativeReals)
    m.cover = pyo.Constraint(m.I, rule=lambda m, i: m.s[i] + sum(m.x[k] for k in m.K if COVER[i, k]) >= 1)
    m.objective = pyo.Objective(expr=objective_expr(m))
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    return m


def objective_expr(m: pyo.ConcreteModel):
    return sum(COST[k] * m.x[k] for k in m.K) + PENALTY * sum(m.s[i] for i in m.I)


def add_columns(m: pyo.ConcreteModel, new: list[int]) -> ModelChanges:
    """Add columns to ``m`` the Pyomo way (Set, bodies, objective) and declare them."""
    for k in new:
        m.K.add(k)
    for i in m.I:
        m.cover[i].set_value(m.s[i] + sum(m.x[k] for k in m.K if COVER[i, k]) >= 1)
    m.objective.set_value(objective_expr(m))
    variables = [m.x[k] for k in new]
    entries = [([m.cover[i] for i in np.flatnonzero(COVER[:, k])], np.ones(int(COVER[:, k].sum()))) for k in new]
    return ModelChanges(new_columns=NewColumns(variables, COST[new], np.zeros(len(new)), np.ones(len(new)), entries))


def test_highs_appends_columns_without_compiling_again() -> None:
    backend = HighsBackend()
    m = build([0, 1])
    first = backend.solve(m)
    assert first.objective == pytest.approx(10.0)  # x0 = x1 = 1 (cost 6) covers rows 0-2; row 3 pays 4
    for new in ([2, 3], [4, 5]):
        result = backend.solve(m, changes=add_columns(m, new))
        fresh = HighsBackend().solve(build(list(m.K)))
        assert result.objective == pytest.approx(fresh.objective, abs=1e-9)
        assert pyo.value(m.objective) == pytest.approx(result.objective)  # values loaded into the new variables
    assert backend.n_builds == 1
    assert backend.n_solves == 3
    # the duals read after the in-place solves are optimal for the grown LP: with x ≤ 1 its dual is
    # max Σ_i μ_i − Σ_k max(0, Σ_i a_ik μ_i − cost_k) over 0 ≤ μ_i ≤ PENALTY, equal to the primal optimum
    mu = np.array([m.dual[m.cover[i]] for i in m.I])
    assert np.all(mu >= -1e-9) and np.all(mu <= PENALTY + 1e-9)
    dual_objective = mu.sum() - np.maximum(0.0, COVER.T @ mu - COST).sum()
    assert dual_objective == pytest.approx(result.objective, abs=1e-9)


def test_highs_integrality_change_solves_the_integer_program_in_place() -> None:
    backend = HighsBackend()
    m = build([0, 1, 2, 3, 4, 5])
    lp = backend.solve(m)
    for k in m.K:
        m.x[k].domain = pyo.Binary
    variables = [m.x[k] for k in m.K]
    mip = backend.solve(m, changes=ModelChanges(integrality=(variables, np.ones(len(variables), dtype=bool))))
    fresh = HighsBackend().solve(build(list(m.K), binary=True))
    assert backend.n_builds == 1
    assert mip.objective == pytest.approx(fresh.objective)
    assert mip.objective >= lp.objective - 1e-9
    assert all(abs(var.value - round(var.value)) < 1e-6 for var in variables)
    assert mip.bound is not None  # a MIP result reports its bound


def test_highs_new_columns_that_are_already_columns_fall_back_to_a_compile() -> None:
    backend = HighsBackend()
    m = build([0, 1])
    backend.solve(m)
    declared = ModelChanges(new_columns=NewColumns([m.x[0]], np.array([3.0]), np.zeros(1), np.ones(1), [([m.cover[0]], np.ones(1))]))
    with pytest.warns(Warning, match="already a column"):
        result = backend.solve(m, changes=declared)
    assert backend.n_builds == 2
    assert result.objective == pytest.approx(HighsBackend().solve(build([0, 1])).objective)


def test_new_columns_checks_its_lengths() -> None:
    with pytest.raises(ValueError, match="one of each per variable"):
        NewColumns([object(), object()], np.zeros(2), np.zeros(1), np.ones(2), [((), np.zeros(0))] * 2)


@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_shell_backends_solve_the_grown_model_as_they_read_it(name: str) -> None:
    backend = require_backend(name)
    m = build([0, 1])
    backend.solve(m)
    for new in ([2, 3], [4, 5]):
        result = backend.solve(m, changes=add_columns(m, new))
        expected = HighsBackend().solve(build(list(m.K)))
        assert result.objective == pytest.approx(expected.objective, abs=1e-6)
