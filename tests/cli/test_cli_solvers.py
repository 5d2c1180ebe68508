"""``rulemodels solvers``: lists every backend with availability, versions, persistence and route."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

from rulemodels.cli import main
from solvers import available_backends, get_backend, registered_backends
from tests.helpers import IN_CI


def test_solvers_command_lists_every_backend(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["solver", "available", "version", "persistent", "packages", "route", "note"]
    rows = {line.split()[0]: line for line in out[1:]}
    assert set(rows) == set(registered_backends())
    assert rows["highs"].split()[3] == "yes"
    pyomo = f"pyomo {metadata.version('pyomo')}"
    assert f"highspy {metadata.version('highspy')}, {pyomo}" in rows["highs"]
    assert "compiled once with Pyomo's LinearStandardFormCompiler" in rows["highs"]
    for name in ("glpk", "cbc"):
        assert pyomo in rows[name] and f"Pyomo SolverFactory('{name}') shell" in rows[name]
    for name in available_backends():
        assert rows[name].split()[1:3] == ["yes", get_backend(name).version()]
    if IN_CI:
        assert all(rows[name].split()[1] == "yes" for name in ("highs", "glpk", "cbc"))


def test_solvers_command_explains_missing_extra_solver(capsys):
    assert main(["solvers", "no_such_solver_xyz"]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("no_such_solver_xyz")]
    assert len(row) == 1
    assert row[0].split()[1] == "no"
    assert "Pyomo has no solver by this name" in row[0]


def test_solvers_command_names_the_route_of_a_persistent_interface(capsys):
    assert main(["solvers", "gurobi_persistent"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("gurobi_persistent"))
    assert "Pyomo persistent SolverFactory('gurobi_persistent'): set_instance (the whole model) before every solve" in row


def test_console_script_runs_as_a_module():
    completed = subprocess.run([sys.executable, "-m", "rulemodels.cli", "solvers"], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    assert "highs" in completed.stdout
