"""``rulemodels solvers``: lists every backend with availability, version, persistence."""

from __future__ import annotations

import subprocess
import sys

from rulemodels.cli import main
from solvers import available_backends, registered_backends
from tests.conftest import IN_CI


def test_solvers_command_lists_every_backend(capsys):
    assert main(["solvers"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["solver", "available", "version", "persistent"]
    rows = {line.split()[0]: line.split() for line in out[1:]}
    assert set(rows) == set(registered_backends())
    assert rows["highs"][3] == "yes"
    for name in available_backends():
        assert rows[name][1] == "yes"
    if IN_CI:
        assert all(rows[name][1] == "yes" for name in ("highs", "glpk", "cbc"))


def test_solvers_command_explains_missing_extra_solver(capsys):
    assert main(["solvers", "no_such_solver_xyz"]) == 0
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("no_such_solver_xyz")]
    assert len(row) == 1
    assert row[0].split()[1] == "no"
    assert "Pyomo has no solver by this name" in row[0]


def test_console_script_runs_as_a_module():
    completed = subprocess.run([sys.executable, "-m", "rulemodels.cli", "solvers"], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    assert "highs" in completed.stdout
