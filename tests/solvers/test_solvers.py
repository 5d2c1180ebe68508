"""The solver layer: known optima on every backend, persistent re-solves, errors."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pyomo.environ as pyo
import pytest

from solvers import (
    Availability,
    Backend,
    Capabilities,
    GenericBackend,
    HighsBackend,
    ShellBackend,
    SolveError,
    SolverNotFoundError,
    TerminationCondition,
    available_backends,
    get_backend,
    register_backend,
    registered_backends,
    registry,
    translate_options,
)

EXPECTED_BACKENDS = {"highs", "glpk", "cbc", "scip"}
EVERY_BACKEND = True  # the backend contract below runs on every registered backend, scip (no LP duals) included


def small_lp() -> pyo.ConcreteModel:
    """min 2x + 3y  s.t. x + y >= 4, x + 3y >= 6, x, y >= 0 (vertices (0,4), (3,1), (6,0))."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.NonNegativeReals)
    m.y = pyo.Var(domain=pyo.NonNegativeReals)
    m.c1 = pyo.Constraint(expr=m.x + m.y >= 4)
    m.c2 = pyo.Constraint(expr=m.x + 3 * m.y >= 6)
    m.cost_x = pyo.Param(initialize=2.0, mutable=True)
    m.obj = pyo.Objective(expr=m.cost_x * m.x + 3 * m.y)
    return m


def lp_optimum(cost_x: float) -> float:
    return min(cost_x * x + 3 * y for x, y in [(0, 4), (3, 1), (6, 0)])


VALUES = [5, 4, 3, 6]
WEIGHTS = [2, 3, 1, 4]


def knapsack(capacity: float = 5) -> pyo.ConcreteModel:
    """A 0-1 knapsack written as a minimisation, with a mutable capacity."""
    m = pyo.ConcreteModel()
    m.item_set = pyo.RangeSet(0, len(VALUES) - 1)
    m.capacity = pyo.Param(initialize=capacity, mutable=True)
    m.pick = pyo.Var(m.item_set, domain=pyo.Binary)
    m.weight = pyo.Constraint(expr=sum(WEIGHTS[i] * m.pick[i] for i in m.item_set) <= m.capacity)
    m.obj = pyo.Objective(expr=-sum(VALUES[i] * m.pick[i] for i in m.item_set))
    return m


def knapsack_brute_force(capacity: float) -> float:
    best = 0
    for choice in itertools.product([0, 1], repeat=len(VALUES)):
        if sum(w * c for w, c in zip(WEIGHTS, choice)) <= capacity:
            best = max(best, sum(v * c for v, c in zip(VALUES, choice)))
    return -best


def test_registry_matches_the_test_matrix():
    # A newly registered backend must be added here (and so to the CI matrix).
    assert set(registered_backends()) == EXPECTED_BACKENDS
    assert registered_backends()[0] == "highs"


def test_every_registered_backend_satisfies_the_protocol():
    for name in registered_backends():
        backend = get_backend(name, check_available=False)
        assert isinstance(backend, Backend)
        assert backend.name == name
        assert isinstance(backend.available(), Availability)
        assert isinstance(backend.capabilities, Capabilities) and backend.route()
    generic = GenericBackend("gurobi_persistent")
    assert isinstance(generic, Backend) and generic.capabilities == ShellBackend.capabilities
    assert not generic.capabilities.persistent and not generic.capabilities.in_place_updates


def test_lp_optimum_on_each_backend(backend):
    model = small_lp()
    result = backend.solve(model)
    assert result.termination is TerminationCondition.optimal
    assert result.has_solution
    assert result.objective == pytest.approx(lp_optimum(2.0), abs=1e-6)
    assert pyo.value(model.x) == pytest.approx(3.0, abs=1e-6)
    assert pyo.value(model.y) == pytest.approx(1.0, abs=1e-6)
    assert result.bound == pytest.approx(result.objective, abs=1e-6)
    assert result.solver_name == backend.name
    assert result.solver_version == backend.version()
    assert result.wall_time > 0


@pytest.mark.parametrize("capacity", [3, 5, 7, 10])
def test_mip_optimum_equals_brute_force(backend, capacity):
    model = knapsack(capacity)
    result = backend.solve(model)
    assert result.termination is TerminationCondition.optimal
    assert result.objective == pytest.approx(knapsack_brute_force(capacity), abs=1e-6)
    picked = [i for i in model.item_set if pyo.value(model.pick[i]) > 0.5]
    assert sum(WEIGHTS[i] for i in picked) <= capacity
    assert -sum(VALUES[i] for i in picked) == pytest.approx(result.objective)


def test_resolve_after_param_change_equals_fresh_build(backend):
    model = knapsack(3)
    backend.solve(model)
    for capacity in [5, 9, 2, 6]:
        model.capacity = capacity
        resolved = backend.solve(model)
        fresh = backend.solve(knapsack(capacity))
        assert resolved.objective == pytest.approx(fresh.objective, abs=1e-6)
        assert resolved.objective == pytest.approx(knapsack_brute_force(capacity), abs=1e-6)


def test_lp_resolve_after_objective_param_change(backend):
    model = small_lp()
    backend.solve(model)
    for cost in [0.5, 2.0, 4.0, 1.0]:
        model.cost_x = cost
        assert backend.solve(model).objective == pytest.approx(lp_optimum(cost), abs=1e-6)


def test_resolve_after_fixing_and_deactivating(backend):
    model = knapsack(5)
    backend.solve(model)
    model.pick[0].fix(0)
    capacity_without_0 = knapsack(5)
    capacity_without_0.pick[0].fix(0)
    assert backend.solve(model).objective == pytest.approx(backend.solve(capacity_without_0).objective)
    model.pick[0].unfix()
    model.weight.deactivate()
    assert backend.solve(model).objective == pytest.approx(-sum(VALUES))


def test_all_backends_agree_on_objectives():
    objectives = {}
    for name in available_backends():
        objectives[name] = (get_backend(name).solve(small_lp()).objective, get_backend(name).solve(knapsack(6)).objective)
    assert len(objectives) >= 1
    first = next(iter(objectives.values()))
    for value in objectives.values():
        assert value == pytest.approx(first, abs=1e-6)


def test_infeasible_model_is_reported_and_raises(backend):
    model = small_lp()
    model.cap = pyo.Constraint(expr=model.x + model.y <= 1)
    result = backend.solve(model)
    assert result.termination in (TerminationCondition.infeasible, TerminationCondition.infeasible_or_unbounded)
    assert not result.has_solution
    with pytest.raises(SolveError, match=f"solving the toy LP with {backend.name} failed: the model is infeasible"):
        result.raise_for_status("the toy LP")


def test_unreferenced_variable_gets_a_value_in_bounds(backend):
    model = small_lp()
    model.unused = pyo.Var(bounds=(1, 5))
    model.unused.value = 4.0  # a stale value a shell solver would leave behind
    backend.solve(model)
    # every backend, persistent or not, gives it the point of its bounds nearest 0 (not the stale 4.0)
    assert model.unused.value == pytest.approx(1.0)


def test_highs_is_persistent_and_builds_once_with_declared_changes():
    from solvers import ModelChanges

    backend = require_highs()
    assert backend.capabilities.persistent and backend.capabilities.in_place_updates
    model = small_lp()
    for cost in [1.0, 2.0, 3.0]:
        model.cost_x = cost
        changes = ModelChanges(objective=([model.x, model.y], np.array([cost, 3.0])))
        assert backend.solve(model, changes=changes).objective == pytest.approx(lp_optimum(cost))
    assert backend.n_builds == 1 and backend.n_solves == 3
    model.cost_x = 0.5
    assert backend.solve(model).objective == pytest.approx(lp_optimum(0.5))  # undeclared: compiled again
    backend.solve(small_lp())
    assert backend.n_builds == 3 and len(backend) == 2


def require_highs() -> HighsBackend:
    from tests.helpers import require_backend

    backend = require_backend("highs")
    assert isinstance(backend, HighsBackend)
    return backend


def test_highs_backend_pickles_without_its_instances():
    backend = require_highs()
    backend.solve(small_lp())
    clone = pickle.loads(pickle.dumps(backend))
    assert clone.options == backend.options
    assert clone.solve(small_lp()).objective == pytest.approx(lp_optimum(2.0))


def test_highs_options_are_passed_through():
    backend = HighsBackend(options={"solver": "ipm", "presolve": "off"})
    assert backend.solve(small_lp()).objective == pytest.approx(lp_optimum(2.0), abs=1e-6)


def test_unknown_solver_name_lists_choices():
    with pytest.raises(SolverNotFoundError, match=r"unknown solver 'no-such-solver': choose one of highs, cbc, glpk"):
        get_backend("no-such-solver")


def test_missing_solver_names_install_route_and_alternatives(monkeypatch):
    class Missing:
        name = "cbc"
        capabilities = ShellBackend.capabilities

        def available(self):
            return Availability(False, "executable 'cbc' not found on PATH")

        def version(self):
            return None

        def route(self):
            return "nowhere"

        def release(self, model):
            pass

        def solve(self, model, *, time_limit=None, mip_gap=None, options=None, changes=None, warm_start=True):
            raise AssertionError("never called")

    monkeypatch.setitem(registry._REGISTRY, "cbc", lambda **kwargs: Missing())
    with pytest.raises(SolverNotFoundError, match=r"solver 'cbc' not available .*coinor-cbc \(apt\) or coincbc \(conda-forge\); "
                                                 r"available instead: .*highs") as info:
        get_backend("cbc")
    assert "cbc" not in info.value.alternatives


def test_pyomo_solver_without_installation_is_a_clear_error():
    if GenericBackend("gurobi").available():
        pytest.skip("gurobi is installed here")
    with pytest.raises(SolverNotFoundError, match=r"solver 'gurobi' not available .*gurobipy"):
        get_backend("gurobi")


@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_generic_backend_solves_through_pyomo(name):
    from tests.helpers import require_backend

    require_backend(name)
    generic = get_backend(name, check_available=False).__class__  # the dedicated adapter exists...
    assert generic is not GenericBackend
    fallback = GenericBackend(name)  # ...but the generic one must work for any Pyomo name
    assert fallback.available()
    assert fallback.solve(knapsack(5)).objective == pytest.approx(knapsack_brute_force(5))


def test_backend_objects_pass_through_get_backend():
    backend = HighsBackend()
    assert get_backend(backend) is backend
    with pytest.raises(TypeError, match="solver must be a solver name or a Backend"):
        get_backend(3.5)


def test_register_backend_refuses_silent_override():
    with pytest.raises(ValueError, match="already registered"):
        register_backend("highs", HighsBackend)


def test_translate_options_table():
    assert translate_options("glpk", time_limit=2.2, mip_gap=0.05, threads=2) == {"tmlim": 3, "mipgap": 0.05}
    assert translate_options("cbc", time_limit=10, mip_gap=0.01, threads=2) == {
        "sec": 10, "timeMode": "elapsed", "ratioGap": 0.01, "threads": 2,
    }
    assert translate_options("highs", time_limit=1.5, mip_gap=0.0) == {"time_limit": 1.5, "mip_rel_gap": 0.0}
    assert translate_options("gurobi_persistent", time_limit=5) == {"TimeLimit": 5}
    assert translate_options("unknown-solver", time_limit=5) == {}


def test_time_limit_returns_a_typed_result(backend):
    result = backend.solve(knapsack(5), time_limit=30, mip_gap=0.0)
    assert result.termination is TerminationCondition.optimal
    assert result.gap == pytest.approx(0.0, abs=1e-6)


#: the import order of the solver layer: a module imports only from modules of lower layers
SOLVER_LAYERS = [
    {"signals", "defaults", "lazy"},  # standard library only: the CLI and every layer of rulemodels import them
    {"base"},
    {"options"},
    {"_common"},
    {"_watchdog"},  # the SIGALRM watchdog (standard library only)
    {"_supervise"},  # one classic solve under supervision: Pyomo's log, the private temp dir, stdout
    {"_failure"},  # what a failed solver process becomes, in words
    {"_probe"},  # solver binaries and their options, probed before any solve
    {"_classic"},
    {"shell", "generic", "highs"},
    {"scip"},  # reads highs.PROGRESS_INTERVAL
    {"registry"},
    {"__init__"},
]


def solver_module_imports() -> dict[str, set[str]]:
    """Module of ``solvers/`` -> the ``solvers`` modules it imports (anywhere in it, functions too)."""
    import ast
    from pathlib import Path

    found = {}
    for path in sorted((Path(__file__).resolve().parents[2] / "solvers").glob("*.py")):
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "solvers":
                imported.add(node.module.split(".")[1] if "." in node.module else "__init__")
            elif isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[1] for alias in node.names if alias.name.startswith("solvers.")}
        found[path.stem] = imported
    return found


def test_imports_in_the_solver_layer_flow_one_way():
    layer_of = {module: rank for rank, modules in enumerate(SOLVER_LAYERS) for module in modules}
    imports = solver_module_imports()
    assert set(imports) == set(layer_of), "place every module of solvers/ in SOLVER_LAYERS"
    upward = [(module, target) for module, targets in imports.items() for target in targets
              if layer_of[target] >= layer_of[module]]
    assert upward == []
    assert "shell" not in imports["generic"] and "registry" not in imports["shell"]  # the old cycle
    assert not issubclass(GenericBackend, ShellBackend)


class FakePersistent:
    """Stands in for a Pyomo persistent interface (``gurobi_persistent`` needs a license): GLPK on the instance set."""

    instances_set = 0

    def __init__(self, **kwds):
        self.model = None

    def available(self, exception_flag=True):
        return True

    def version(self):
        return (0, 1)

    def set_instance(self, model):
        FakePersistent.instances_set += 1
        self.model = model

    def solve(self, **kwds):
        from pyomo.opt import SolverFactory

        return SolverFactory("glpk").solve(self.model, **kwds)


@pytest.fixture
def fake_persistent(monkeypatch):
    """A persistent solver registered in Pyomo's SolverFactory, and a process that has not warned yet."""
    from pyomo.opt import SolverFactory

    import solvers.generic
    from tests.helpers import require_backend

    require_backend("glpk")
    name = "rulemodels_fake_persistent"
    SolverFactory.register(name, doc="test double")(FakePersistent)
    monkeypatch.setattr(solvers.generic, "_warned_persistent", set())
    FakePersistent.instances_set = 0
    yield name
    SolverFactory.unregister(name)


def test_persistent_interface_falls_back_to_set_instance_loudly_once_per_process(fake_persistent):
    import warnings

    from solvers import SolverFallbackWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        backend = get_backend(fake_persistent)
        assert isinstance(backend, GenericBackend) and backend.route().startswith("Pyomo persistent")
        model = knapsack(3)
        for capacity in [3, 5, 9]:
            model.capacity = capacity  # re-sent whole by set_instance: no stale capacity
            assert backend.solve(model).objective == pytest.approx(knapsack_brute_force(capacity))
        assert get_backend(fake_persistent).solve(knapsack(6)).objective == pytest.approx(knapsack_brute_force(6))
    fallbacks = [w for w in caught if issubclass(w.category, SolverFallbackWarning)]
    assert len(fallbacks) == 1 and FakePersistent.instances_set == 4
    message = str(fallbacks[0].message)
    assert message.startswith(f"{fake_persistent}: Pyomo's persistent interface is used through set_instance before every solve")
    assert "(route: Pyomo persistent, whole model re-sent)" in message and "no tested in-place update route" in message


def lp_with_bounds() -> pyo.ConcreteModel:
    """min c·x  s.t.  x0 + x1 <= b0,  x1 + x2 >= b1,  lo <= x <= hi (mutable Params everywhere)."""
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, 2)
    m.c = pyo.Param(m.I, initialize={0: -1.0, 1: -2.0, 2: 1.0}, mutable=True)
    m.hi = pyo.Param(m.I, initialize=3.0, mutable=True)
    m.b0 = pyo.Param(initialize=4.0, mutable=True)
    m.b1 = pyo.Param(initialize=1.0, mutable=True)
    m.x = pyo.Var(m.I, bounds=lambda m, i: (0, m.hi[i]))
    m.cap = pyo.Constraint(expr=m.x[0] + m.x[1] <= m.b0)
    m.need = pyo.Constraint(expr=m.x[1] + m.x[2] >= m.b1)
    m.obj = pyo.Objective(expr=sum(m.c[i] * m.x[i] for i in m.I))
    return m


def test_declared_changes_on_highs_match_fresh_solves():
    """Objective, variable-bound and constraint-bound changes pushed in place (every highspy call of the fast path)."""
    from solvers import ModelChanges

    backend = require_highs()
    model = lp_with_bounds()
    backend.solve(model)
    steps = [({0: -3.0, 1: -1.0, 2: 2.0}, {0: 2.0, 1: 1.0, 2: 5.0}, 2.5, 3.0),
             ({0: 1.0, 1: -1.0, 2: -1.0}, {0: 1.0, 1: 4.0, 2: 0.5}, 6.0, 0.5)]
    for costs, upper, b0, b1 in steps:
        for i in model.I:
            model.c[i], model.hi[i] = costs[i], upper[i]
        model.b0, model.b1 = b0, b1
        variables = [model.x[i] for i in model.I]
        changes = ModelChanges(
            objective=(variables, np.array([costs[i] for i in model.I])),
            variable_bounds=(variables, np.zeros(3), np.array([upper[i] for i in model.I])),
            constraint_bounds=([model.cap, model.need], np.array([-np.inf, b1]), np.array([b0, np.inf])),
        )
        pushed = backend.solve(model, changes=changes, warm_start=False)
        fresh = HighsBackend().solve(lp_with_bounds_like(model))
        assert pushed.is_optimal and pushed.objective == pytest.approx(fresh.objective, abs=1e-9)
        assert pushed.objective == pytest.approx(pyo.value(model.obj), abs=1e-9)  # the loaded values
    assert backend.n_builds == 1


def lp_with_bounds_like(model: pyo.ConcreteModel) -> pyo.ConcreteModel:
    """A fresh :func:`lp_with_bounds` with the Param values of ``model``."""
    fresh = lp_with_bounds()
    for i in fresh.I:
        fresh.c[i], fresh.hi[i] = pyo.value(model.c[i]), pyo.value(model.hi[i])
    fresh.b0, fresh.b1 = pyo.value(model.b0), pyo.value(model.b1)
    return fresh
