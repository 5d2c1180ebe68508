"""One settings object for every backend's ``solve``: checked once when built, taken by every backend alike."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pyomo.environ as pyo
import pytest

from solvers import (
    Backend,
    CpSatBackend,
    GenericBackend,
    HighsBackend,
    ShellBackend,
    SolveConfig,
    get_backend,
    registered_backends,
)
from tests.helpers import require_backend


def small_lp() -> pyo.ConcreteModel:
    """min x + 2y  s.t. x + y >= 3, 0 <= x <= 2, y >= 0: optimum 4 at (2, 1)."""
    m = pyo.ConcreteModel()
    m.x, m.y = pyo.Var(bounds=(0, 2)), pyo.Var(bounds=(0, None))
    m.row = pyo.Constraint(expr=m.x + m.y >= 3)
    m.obj = pyo.Objective(expr=m.x + 2 * m.y)
    return m


@pytest.mark.parametrize(
    ("settings", "error", "message"),
    [
        ({"time_limit": -1.0}, ValueError, r"time_limit must be a number of seconds >= 0 or None, got -1.0"),
        ({"time_limit": math.nan}, ValueError, r"time_limit must be a number of seconds >= 0"),
        ({"time_limit": "60"}, TypeError, r"time_limit must be a number of seconds or None, got str '60'"),
        ({"time_limit": True}, TypeError, r"time_limit must be a number of seconds or None, got bool"),
        ({"mip_gap": -0.1}, ValueError, r"mip_gap must be a relative gap >= 0 or None, got -0.1"),
        ({"warm_start": "no"}, TypeError, r"warm_start must be True or False, got str 'no'"),
        ({"mip_start": 1}, TypeError, r"mip_start must be True or False, got int 1"),
        ({"options": ["presolve"]}, TypeError, r"options must map native option names \(str\) to values"),
        ({"options": {1: "on"}}, TypeError, r"options must map native option names"),
    ],
)
def test_a_bad_setting_fails_when_the_config_is_built(settings, error, message):
    with pytest.raises(error, match=message):
        SolveConfig(**settings)
    with pytest.raises(error, match=message):  # the keyword form is checked by the same code
        SolveConfig.of(None, **settings)


def test_the_config_is_frozen_and_holds_its_own_copy_of_the_options():
    options = {"presolve": "on"}
    config = SolveConfig(time_limit=np.float64(2.5), mip_gap=0, options=options, mip_start=np.bool_(True))
    options["presolve"] = "off"
    assert config.options == {"presolve": "on"}
    assert config.mip_start is True and config.time_limit == 2.5 and config.mip_gap == 0
    assert SolveConfig(options=None).options == {}
    with pytest.raises(AttributeError):
        config.time_limit = 1.0  # type: ignore[misc]


def test_keywords_amend_a_config_and_unknown_ones_are_named():
    base = SolveConfig(time_limit=60)
    assert SolveConfig.of(base) is base and SolveConfig.of(None) == SolveConfig()
    assert SolveConfig.of(base, mip_gap=0.0, time_limit=1) == SolveConfig(time_limit=1, mip_gap=0.0)
    with pytest.raises(TypeError, match=r"unexpected keyword argument\(s\) 'timelimit': its settings are mip_gap, "
                                        r"mip_start, options, time_limit, warm_start"):
        SolveConfig.of(base, timelimit=5)
    with pytest.raises(TypeError, match=r"config must be a SolveConfig, got dict; build one with SolveConfig"):
        SolveConfig.of({"time_limit": 5})  # type: ignore[arg-type]


def test_every_backend_has_the_protocols_solve_signature():
    expected = inspect.signature(Backend.solve)
    for backend in (HighsBackend, CpSatBackend, ShellBackend, GenericBackend):
        assert inspect.signature(backend.solve) == expected, backend.__name__


@pytest.mark.parametrize("name", [*(name for name in registered_backends() if name != "cpsat"), "generic:glpk"])
def test_every_backend_takes_the_config_and_the_same_keywords(name):
    backend = GenericBackend("glpk") if name == "generic:glpk" else get_backend(name, check_available=False)
    if not backend.available():
        require_backend(name.removeprefix("generic:"))  # skips (or fails in CI) with the reason
    config = SolveConfig(time_limit=30, mip_gap=0.0, warm_start=False)
    by_config = backend.solve(small_lp(), config)
    by_keywords = backend.solve(small_lp(), time_limit=30, mip_gap=0.0, warm_start=False)
    amended = backend.solve(small_lp(), config=SolveConfig(time_limit=5), time_limit=30)
    assert by_config.is_optimal and by_config.objective == pytest.approx(4.0)
    assert by_keywords.objective == pytest.approx(by_config.objective)
    assert amended.objective == pytest.approx(by_config.objective)
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        backend.solve(small_lp(), timelimit=30)
