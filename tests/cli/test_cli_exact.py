"""`rulemodels exact` stopped by its time limit explains itself: the incumbent, its training error,
the bound and the gap, exit 0, and no raw Pyomo warning text."""

from __future__ import annotations

import dataclasses
import logging

import pytest

import solvers.registry
from rulemodels.cli import main
from solvers import TerminationCondition, get_backend
from tests.helpers import DelegatingBackend

PYOMO_WARNING = ("Loading a SolverResults object with an 'aborted' status, but containing a solution\n"
                 "    Solver: cbc  Termination condition: maxTimeLimit")


class TimeLimitedBackend(DelegatingBackend):
    """Solves, then reports the solve as stopped by the time limit with its incumbent, as Pyomo warns."""

    def solve(self, model, **kwargs):
        result = self.inner.solve(model, **kwargs)
        logging.getLogger("pyomo.core").warning(PYOMO_WARNING)
        return dataclasses.replace(result, termination=TerminationCondition.time_limit, bound=0.5 * result.objective)


@pytest.fixture
def time_limited(monkeypatch):
    monkeypatch.setitem(solvers.registry._REGISTRY, "timelimited", lambda **o: TimeLimitedBackend(get_backend("highs", **o)))
    return "timelimited"


def test_exact_at_its_time_limit_prints_the_incumbent_its_error_bound_and_gap(time_limited, capfd):
    args = ["exact", "liver", "--sample", "30", "--clauses", "1", "--theta", "0.05", "--thresholds", "3",
            "--solver", time_limited, "--time-limit", "5"]
    assert main(args) == 0
    out, err = capfd.readouterr()
    assert "status: stopped at time limit (5 s) with an incumbent" in out
    rule_line = out.splitlines()[out.splitlines().index(next(line for line in out.splitlines() if line.startswith("rule ("))) + 1]
    assert rule_line.strip() not in ("", "True", "False")
    error_line = next(line for line in out.splitlines() if line.startswith("training error:"))
    error = float(error_line.split()[2])
    assert 0 < error < 0.5 and "accuracy 0 " not in out and "(accuracy 0)" not in out
    gap_line = next(line for line in out.splitlines() if line.startswith("bound:"))
    assert gap_line.endswith("gap: 50.000 %")  # the wrapper's bound is half the objective
    assert "Loading a SolverResults" not in out + err and "maxTimeLimit" not in out + err
    assert err.count("rulemodels: warning: the solver stopped at its time limit") == 1


def test_solver_log_leaves_pyomos_log_alone(time_limited, capsys, caplog):
    args = ["--solver-log", "exact", "liver", "--sample", "30", "--clauses", "1", "--thresholds", "3",
            "--solver", time_limited]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "Loading a SolverResults" in caplog.text  # asked for: Pyomo's log as it is, through logging
    assert "rulemodels: warning: the solver stopped" not in captured.err
    assert "status: stopped at time limit with an incumbent" in captured.out
    assert logging.getLogger("pyomo").propagate  # and main() put Pyomo's logger back as it was


def test_exact_prints_the_simplified_rule_without_a_never_true_term(monkeypatch, capsys):
    """A learned term that no row satisfies (``age <= 21.9 AND age > 52.2``) is not printed."""
    import rulemodels.algorithms.exact as exact
    from rulemodels.rules import Literal, Rule

    solve = exact.solve_exact
    dead = (Literal("age", "<=", 21.9), Literal("age", ">", 52.2))

    def with_a_dead_term(*args, **kwargs):
        result = solve(*args, **kwargs)
        return dataclasses.replace(result, rule=Rule("dnf", (*result.rule.clauses, dead)))

    monkeypatch.setattr(exact, "solve_exact", with_a_dead_term)
    assert main(["exact", "pima", "--sample", "25", "--clauses", "1", "--theta", "0.2", "--thresholds", "3",
                 "--form", "dnf"]) == 0
    out = capsys.readouterr().out
    assert "age <= 21.9 AND age > 52.2" not in out and "52.2" not in out
    assert "as learned, before simplification" in out
