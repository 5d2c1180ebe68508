"""The HiGHS backend's fast paths give exactly what APPSI's own routines give.

Objective coefficients compiled to numpy (solvers._param_update), the
solution loaded through a cached (variable, column) plan, and Params set by
``assign_changed`` without Pyomo's per-item validation.
"""

from __future__ import annotations

import numpy as np
import pyomo.environ as pyo
import pytest
from pyomo.contrib.appsi.solvers import Highs

from rulemodels.models import build_clause_lp, set_feature_cost, set_sample_weight, set_theta
from solvers import get_backend
from solvers._param_update import ObjectiveProgram, _monomials, _NotPolynomial


def column_costs(solver: Highs, model: pyo.ConcreteModel) -> np.ndarray:
    """The HiGHS cost of every variable of ``model``, in component order."""
    costs = solver._solver_model.getLp().col_cost_
    index = solver._pyomo_var_to_solver_var_map
    return np.array([costs[index[id(v)]] for v in model.component_data_objects(pyo.Var)])


def fresh_costs(model: pyo.ConcreteModel) -> np.ndarray:
    solver = Highs()
    solver.set_instance(model)
    return column_costs(solver, model)


def test_monomials_of_param_expressions() -> None:
    m = pyo.ConcreteModel()
    m.p = pyo.Param(initialize=2.0, mutable=True)
    m.q = pyo.Param(initialize=3.0, mutable=True)
    terms = _monomials(-(2 * m.p * m.q) + 3 + m.p)
    assert sorted((c, tuple(x.name for x in f)) for c, f in terms) == [(-2.0, ("p", "q")), (1.0, ("p",)), (3.0, ())]
    assert sum(c * np.prod([x.value for x in f]) for c, f in terms) == pyo.value(-(2 * m.p * m.q) + 3 + m.p)
    with pytest.raises(_NotPolynomial):
        _monomials(m.p / m.q)


@pytest.mark.parametrize("disable_cost", [None, 0.5])
def test_clause_lp_costs_equal_a_fresh_instance_after_every_change(disable_cost: float | None) -> None:
    rng = np.random.default_rng(1)
    A = rng.integers(0, 2, size=(60, 25))
    y = rng.integers(0, 2, size=60)
    model = build_clause_lp(A, y, theta=0.01, disable_cost=disable_cost)
    backend = get_backend("highs")
    backend.solve(model, params_only=True)
    solver = backend._instances[model]
    assert "update_params" in vars(solver)  # the numpy update is installed on the instance
    for step in range(12):
        set_sample_weight(model, rng.integers(0, 3, size=60))
        if step % 3 == 0:
            set_theta(model, float(rng.choice([0.001, 0.05, 2.0])))
        if step % 4 == 0:
            set_feature_cost(model, rng.uniform(0.5, 2.0, size=25))
        result = backend.solve(model, params_only=True)
        assert np.array_equal(column_costs(solver, model), fresh_costs(model))  # bit for bit
        assert result.objective == pytest.approx(pyo.value(model.objective), abs=1e-9)


def test_non_polynomial_coefficients_keep_appsi_update_and_new_objectives_recompile() -> None:
    m = pyo.ConcreteModel()
    m.a = pyo.Param(initialize=2.0, mutable=True)
    m.b = pyo.Param(initialize=4.0, mutable=True)
    m.x = pyo.Var(bounds=(0, 1))
    m.z = pyo.Var(bounds=(0, 1))
    m.u = pyo.Var(bounds=(0, 1))
    m.c = pyo.Constraint(expr=m.x + m.z + m.u >= 1)
    m.objective = pyo.Objective(expr=(m.a * m.b - 1) * m.x + (m.b / m.a) * m.z - (-m.a) * m.u + m.a)
    backend = get_backend("highs")
    backend.solve(m)
    solver = backend._instances[m]
    program = ObjectiveProgram(solver._objective_helpers, solver._solver_model)
    # x and u are compiled; z's coefficient (a division) and the offset stay with APPSI
    assert program.n_coefficients == 2 and len(program.other_helpers) == 2
    for a, b in [(0.5, 3.0), (3.0, 0.25), (1.5, 1.0)]:
        m.a, m.b = a, b
        result = backend.solve(m, params_only=True)
        assert np.array_equal(column_costs(solver, m), fresh_costs(m))
        assert result.objective == pytest.approx(min(a * b - 1, b / a, a) + a)
    # a new objective (a full update, not params only) is compiled again
    m.objective.deactivate()
    m.other = pyo.Objective(expr=m.a * m.x + m.b * m.z + 3 * m.u)
    m.a = 5.0
    backend.solve(m)
    m.b = 0.5
    result = backend.solve(m, params_only=True)
    assert np.array_equal(column_costs(solver, m), fresh_costs(m))
    assert result.objective == pytest.approx(0.5)


def test_loaded_solution_equals_appsi_get_primals_also_after_structural_changes() -> None:
    rng = np.random.default_rng(3)
    A = rng.integers(0, 2, size=(50, 20))
    y = rng.integers(0, 2, size=50)
    model = build_clause_lp(A, y, theta=0.02)
    backend = get_backend("highs")
    for step in range(4):
        set_sample_weight(model, rng.integers(0, 3, size=50))
        backend.solve(model, params_only=True)
        solver = backend._instances[model]
        expected = solver.get_primals()
        assert len(expected) == len(list(model.component_data_objects(pyo.Var)))
        assert all(var.value == value for var, value in expected.items())
    # a new variable and constraint (a full update): the plan is made again and covers it
    model.extra = pyo.Var(bounds=(0, 1))
    model.force = pyo.Constraint(expr=model.extra + model.w[0] >= 1.5)
    backend.solve(model)
    assert model.extra.value == solver.get_primals()[model.extra] and model.w[0].value >= 0.5 - 1e-9
    # a variable in no constraint and not in the objective is not loaded, as with APPSI
    model.unused = pyo.Var(bounds=(0, 1))
    model.unused.set_value(None)
    backend.solve(model)
    assert model.unused.value is None


def test_assign_changed_sets_only_changed_params_and_values_read_back() -> None:
    from rulemodels.models._pyomo import assign_changed

    m = pyo.ConcreteModel()
    m.J = pyo.RangeSet(0, 4)
    m.p = pyo.Param(m.J, initialize=1.0, mutable=True)
    params = list(m.p.values())
    old = np.ones(5)
    new = np.array([1.0, 2.5, 1.0, -3.0, 1.0])
    params[0]._value = 7.0  # unchanged entries are not touched
    assign_changed(params, old, new)
    assert [pyo.value(m.p[j]) for j in m.J] == [7.0, 2.5, 1.0, -3.0, 1.0]


def test_solved_models_are_freed_and_a_clone_gets_its_own_instance() -> None:
    import gc
    import weakref

    backend = get_backend("highs")
    rng = np.random.default_rng(5)
    model = build_clause_lp(rng.integers(0, 2, size=(30, 6)), rng.integers(0, 2, size=30), theta=0.1)
    backend.solve(model)
    copy = model.clone()
    copy.theta = 50.0  # every feature costs more than it saves: the clone's optimum is w = 0
    backend.solve(copy)
    assert backend._instances[copy] is not backend._instances[model]
    assert all(copy.w[j].value == pytest.approx(0.0) for j in copy.J)
    alive = weakref.ref(model)
    del model, copy
    gc.collect()
    assert alive() is None  # the backend does not keep solved models in memory


def test_param_values_read_the_stored_values_and_fall_back_to_pyomo_errors() -> None:
    from solvers._param_update import param_values

    m = pyo.ConcreteModel()
    m.p = pyo.Param([0, 1, 2], initialize={0: 1.5, 1: -2.0, 2: 0.0}, mutable=True)
    m.q = pyo.Param(mutable=True)  # no value
    m.p[1] = 7.25
    assert param_values(list(m.p.values())).tolist() == [1.5, 7.25, 0.0]
    with pytest.raises(ValueError, match=r"Error evaluating Param value \(q\)"):
        param_values([m.q])
