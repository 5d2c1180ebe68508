"""Solver faults, made real where possible (issue "Robustness", item 2).

* a solver binary that is not installed (PATH without it);
* a solver process that dies mid-solve, exits without a solution, or writes
  garbage (a fake ``cbc``/``glpsol`` first on PATH);
* the fit's time limit reached inside BCD and AM;
* a solver that answers infeasible or error in the middle of a driver;
* a sweep interrupted by a real SIGINT, sent to the whole process group as a
  terminal's Ctrl-C is (the SIGKILL case is tests/experiments/test_experiments.py).

Every fault must end in a typed error or status with a message, never in a
traceback from inside Pyomo.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import types
import warnings
from pathlib import Path

import numpy as np
import pyomo.environ as pyo
import pytest
from pyomo.common import Executable
from sklearn.exceptions import ConvergenceWarning

import rulemodels.algorithms.engine as engine_module
from rulemodels import BooleanRuleClassifier
from rulemodels.cli import main
from rulemodels.data import FeatureBinarizer
from rulemodels.datasets import load_dataset
from rulemodels.experiments import cells, make_grid, run_experiments
from rulemodels.models import CNFProblem, hamming_objective
from solvers import (
    SolveConfig,
    SolveError,
    SolverError,
    SolveResult,
    SolverFallbackWarning,
    SolverNotFoundError,
    TerminationCondition,
    get_backend,
)
from tests.helpers import DelegatingBackend, learn_once

REPO = Path(__file__).resolve().parents[2]
CHILD_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}

# -- helpers -------------------------------------------------------------------


def toy_lp() -> pyo.ConcreteModel:
    """min x + 2y  s.t. x + y >= 1, 0 <= x, y <= 1 (optimum 1 at x = 1)."""
    model = pyo.ConcreteModel()
    model.x = pyo.Var(bounds=(0, 1))
    model.y = pyo.Var(bounds=(0, 1))
    model.c = pyo.Constraint(expr=model.x + model.y >= 1)
    model.o = pyo.Objective(expr=model.x + 2 * model.y)
    return model


def liver() -> tuple:
    X, y = load_dataset("liver")
    return X, (y == y.max()).to_numpy().astype(int)


def liver_problem() -> CNFProblem:
    X, y = liver()
    binarizer = FeatureBinarizer(n_thresholds=5).fit(X)
    return CNFProblem.from_binary(binarizer.transform(X), y, literals=binarizer.literals_, form="dnf")


def rehash_solvers() -> None:
    """Forget where Pyomo found solver binaries (PATH changed); the backends look them up at each solve."""
    Executable.rehash()


def cli(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str]:
    """Run the CLI in this process; (exit status, stderr)."""
    status = main(argv)
    return status, capsys.readouterr().err


def assert_clean_error(stderr: str, *parts: str) -> None:
    """One ``rulemodels: error:`` line naming ``parts``, and no traceback."""
    assert "Traceback" not in stderr
    errors = [line for line in stderr.splitlines() if line.startswith("rulemodels: error: ")]
    assert len(errors) == 1, stderr
    for part in parts:
        assert part in errors[0], errors[0]


# -- 1. the solver binary is not installed -------------------------------------


@pytest.fixture
def no_solver_binaries(tmp_path: Path):
    """PATH is an empty directory: neither glpsol nor cbc can be found (HiGHS is in process)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(empty))
        rehash_solvers()
        yield empty
    rehash_solvers()


MISSING = [
    ("cbc", "cbc", "coinor-cbc (apt)", "coincbc (conda-forge)"),
    ("glpk", "glpsol", "glpk-utils (apt)", "glpk (conda-forge)"),
]


@pytest.mark.parametrize(("name", "executable", "apt", "conda"), MISSING)
def test_missing_binary_names_the_package_and_the_alternatives(no_solver_binaries, name, executable, apt, conda):
    with pytest.raises(SolverNotFoundError) as info:
        get_backend(name)
    message = str(info.value)
    assert f"solver '{name}' not available (executable '{executable}' not found on PATH)" in message
    assert apt in message and conda in message
    in_process = tuple(
        other for other in ("highs", "cpsat", "scip") if get_backend(other, check_available=False).available()
    )
    assert message.endswith(f"available instead: {', '.join(in_process)}")  # cpsat, scip: where their extras are installed
    assert info.value.alternatives == in_process and in_process[0] == "highs" and info.value.name == name

    # The estimator fails the same way, before any work.
    X, y = liver()
    with pytest.raises(SolverNotFoundError, match=re.escape(apt)):
        BooleanRuleClassifier(solver=name, n_thresholds=3).fit(X, y)

    # A backend made before the binary went away: a typed error result, not
    # Pyomo's "No executable found" exception or a logged warning.
    result = get_backend(name, check_available=False).solve(toy_lp())
    assert result.termination is TerminationCondition.error and not result.has_solution
    assert result.message == f"executable '{executable}' not found on PATH; install {apt} or {conda}"
    with pytest.raises(SolveError, match=f"solving the toy LP with {name} failed: the solver stopped with an error"):
        result.raise_for_status("the toy LP")


# -- 2. the solver process dies, or exits without a usable solution --------------

#: executable -> (its version-probe arguments, its version banner, the option naming its solution file)
FAKES = {
    "cbc": ("-stop", "Welcome to the CBC MILP Solver\nVersion: 2.10.8\n", "-solu"),
    "glpsol": ("--version", "GLPSOL--GLPK LP/MIP Solver 5.0\n", "--write"),
}

FAKE_SCRIPT = """#!/bin/sh
# A fake {executable}: answers the version probe as FAKE_PROBE_MODE says, then each solve as FAKE_SOLVER_MODE says.
if [ "$*" = "{probe}" ]; then
    case "$FAKE_PROBE_MODE" in
        fail) echo "cannot start: libfoo.so missing"; exit 1 ;;
        garbage) echo "garbage, not a version"; exit 0 ;;
    esac
    printf '{banner}'; exit 0
fi
solution=""
previous=""
for argument in "$@"; do
    if [ "$previous" = "{solution_flag}" ]; then solution="$argument"; fi
    previous="$argument"
done
case "$FAKE_SOLVER_MODE" in
    kill) kill -9 $$ ;;
    fail) echo "something went wrong"; exit 3 ;;
    exit0) exit 0 ;;
    garbage) echo "garbage, not a solution" > "$solution"; exit 0 ;;
    infeasible) echo "Infeasible - objective value 0.00000000" > "$solution"; echo "Problem is infeasible"; exit 0 ;;
    sleep) echo "solving slowly"; echo $$ > "$FAKE_SOLVER_PIDFILE"; exec sleep 600 ;;
esac
echo "unknown FAKE_SOLVER_MODE" >&2
exit 2
"""


@pytest.fixture
def fake_solvers(tmp_path: Path):
    """Fake ``cbc`` and ``glpsol`` first on PATH; yields a function that sets the fault modes.

    ``set_modes(solve_mode, probe="ok")``; the probe mode must be set before the
    first use of a backend (a binary's version probe is cached per file).
    """
    directory = tmp_path / "fake-bin"
    directory.mkdir()
    for executable, (probe, banner, solution_flag) in FAKES.items():
        script = directory / executable
        script.write_text(FAKE_SCRIPT.format(
            executable=executable, probe=probe, banner=banner.replace("\n", "\\n"), solution_flag=solution_flag,
        ))
        script.chmod(0o755)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{directory}{os.pathsep}{os.environ['PATH']}")
        patch.setenv("FAKE_SOLVER_PIDFILE", str(tmp_path / "solver.pid"))
        rehash_solvers()

        def set_modes(mode: str, probe: str = "ok") -> None:
            patch.setenv("FAKE_SOLVER_MODE", mode)
            patch.setenv("FAKE_PROBE_MODE", probe)

        yield set_modes
    rehash_solvers()


def fake_path(name: str) -> str:
    """Where the fake executable of solver ``name`` is (first on PATH)."""
    return shutil.which({"glpk": "glpsol", "cbc": "cbc"}[name])


KILLED = {"cbc": "the cbc process was killed by SIGKILL (signal 9) before it finished",
          "glpk": "the glpsol process was killed by SIGKILL (signal 9) before it finished"}


@pytest.mark.parametrize("name", ["cbc", "glpk"])
def test_solver_killed_mid_solve_is_a_typed_error_naming_the_solve(fake_solvers, name):
    fake_solvers("kill")
    backend = get_backend(name)
    assert backend.version() is not None  # the fake answers the version probe
    result = backend.solve(toy_lp())
    assert result.termination is TerminationCondition.error and not result.has_solution
    assert result.message.startswith(KILLED[name]) and "run it again, or choose another solver" in result.message

    with pytest.raises(SolveError, match=r"solving the clause LP \(clause 1\) with " + name + " failed") as info:
        learn_once(liver_problem(), backend, algorithm="bcd", n_clauses=2)
    assert isinstance(info.value, SolverError) and KILLED[name] in str(info.value)
    assert info.value.result.termination is TerminationCondition.error

    X, y = liver()
    with pytest.raises(SolveError, match=re.escape(KILLED[name])):
        BooleanRuleClassifier(algorithm="am", solver=name, n_thresholds=3).fit(X, y)


@pytest.mark.parametrize(("name", "executable"), [("cbc", "cbc"), ("glpk", "glpsol")])
def test_solver_failing_with_an_exit_code_says_so_with_its_last_output(fake_solvers, name, executable):
    fake_solvers("fail")
    result = get_backend(name).solve(toy_lp())
    assert result.termination is TerminationCondition.error and not result.has_solution
    assert result.message == f"{executable} exited with return code 3; its last output line: 'something went wrong'"


@pytest.mark.parametrize(("name", "mode", "says"), [
    ("cbc", "exit0", "cbc finished (status 'unknown') without reporting a solution"),
    ("cbc", "garbage", "cbc exited with return code 0 but its solution could not be read (RuntimeError"),
    ("glpk", "exit0", "glpsol exited with return code 0 but its solution could not be read (ValueError"),
    ("glpk", "garbage", "glpsol exited with return code 0 but its solution could not be read (ValueError"),
])
def test_solver_without_a_readable_solution_is_an_error_not_a_zero_solution(fake_solvers, name, mode, says):
    fake_solvers(mode)
    model = toy_lp()
    result = get_backend(name).solve(model)
    assert result.termination is TerminationCondition.error
    assert not result.has_solution and result.objective is None
    assert result.message.startswith(says)
    assert "is a working " + name in result.message
    assert model.x.value is None and model.y.value is None  # nothing was loaded (cbc used to load zeros)
    X, y = liver()
    with pytest.raises(SolveError, match=r"solving the clause LP \(clause 1\) with " + name):
        BooleanRuleClassifier(algorithm="scn", solver=name, n_thresholds=3).fit(X, y)


def test_solver_faults_through_the_cli(fake_solvers, capsys):
    fake_solvers("kill")
    status, stderr = cli(["fit", "liver", "--solver", "cbc", "--algorithm", "bcd", "--thresholds", "3"], capsys)
    assert status == 1
    assert_clean_error(stderr, "solving the clause LP (clause 1) with cbc failed", KILLED["cbc"])

    status, stderr = cli(["exact", "liver", "--sample", "30", "--thresholds", "3"], capsys)  # cbc by default
    assert status == 1
    assert_clean_error(stderr, "solving the exact zero_one MIP with cbc failed", KILLED["cbc"])

    fake_solvers("infeasible")
    status, stderr = cli(["fit", "liver", "--solver", "cbc", "--algorithm", "am", "--thresholds", "3"], capsys)
    assert status == 1
    assert_clean_error(stderr, "solving the clause LP (clause 1) with cbc failed: the model is infeasible")

    fake_solvers("garbage")
    status, stderr = cli(["fit", "liver", "--solver", "glpk", "--algorithm", "scs", "--thresholds", "3"], capsys)
    assert status == 1
    assert_clean_error(stderr, "with glpk failed", "its solution could not be read")


@pytest.mark.slow
def test_missing_and_killed_solvers_through_the_cli_in_a_subprocess(fake_solvers, tmp_path: Path):
    """``python -m rulemodels``: exit 1, one message, no traceback (both run side by side)."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    fit = [sys.executable, "-m", "rulemodels", "fit", "liver", "--thresholds", "3"]
    missing = subprocess.Popen(
        [*fit, "--solver", "glpk"], env={**CHILD_ENV, "PATH": str(empty)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    killed = subprocess.Popen(
        [*fit, "--solver", "cbc"], env={**CHILD_ENV, "PATH": os.environ["PATH"], "FAKE_SOLVER_MODE": "kill"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    missing_out, missing_err = missing.communicate(timeout=120)
    _, killed_err = killed.communicate(timeout=120)
    assert missing.returncode == 1 and missing_out == ""
    assert_clean_error(
        missing_err,
        "solver 'glpk' not available (executable 'glpsol' not found on PATH)",
        "install glpk-utils (apt) or glpk (conda-forge)",
        "available instead: highs",
    )
    assert killed.returncode == 1
    assert_clean_error(killed_err, "solving the column generation master LP with cbc failed", KILLED["cbc"])


# -- 2b. a hung solver, a broken binary, bad options, output, Ctrl-C -----------------

EXECUTABLE = {"glpk": "glpsol", "cbc": "cbc"}


def process_gone(pid_file: Path) -> bool:
    """Whether the fake solver whose pid is in ``pid_file`` stops running (gone, or a zombie) within 30 s.

    A SIGKILL takes effect asynchronously, hence the wait.
    """
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 30
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


def hung_message(name: str, why: str) -> str:
    return (
        f"{EXECUTABLE[name]} was still running 2 s after it started ({why}) and was killed; "
        f"it may be hung: check that '{fake_path(name)}' is a working {name}, or "
    )


@pytest.mark.parametrize("name", ["glpk", "cbc"])
@pytest.mark.slow
def test_hung_solver_is_killed_by_the_watchdog_and_is_a_typed_error(fake_solvers, tmp_path, name):
    fake_solvers("sleep")
    result = get_backend(name, grace=1).solve(toy_lp(), time_limit=1)
    assert result.termination is TerminationCondition.error and not result.has_solution
    assert result.message.startswith(hung_message(name, "its time limit was 1 s"))
    assert result.message.endswith("or raise the time limit, or choose another solver")
    assert process_gone(tmp_path / "solver.pid")

    # Without a time limit the backend's default applies (3600 s unless set).
    (tmp_path / "solver.pid").unlink()
    result = get_backend(name, default_time_limit=1, grace=1).solve(toy_lp())
    assert result.termination is TerminationCondition.error
    why = "no time limit was given, so the default of 1 s applied (the backend's default_time_limit)"
    assert result.message.startswith(hung_message(name, why)) and "or give a time limit" in result.message
    assert process_gone(tmp_path / "solver.pid")


@pytest.mark.parametrize("name", ["glpk", "cbc"])
@pytest.mark.slow
def test_hung_solver_outside_the_main_thread_is_killed_by_pyomos_timeout(fake_solvers, tmp_path, monkeypatch, name):
    """No SIGALRM timer off the main thread: Pyomo's timelimit (its grace: max(1 s, 1 %)) watches instead, loudly."""
    import solvers._classic

    fake_solvers("sleep")
    monkeypatch.setattr(solvers._classic, "_warned", set())  # as in a fresh process
    results = []

    def solve_twice() -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results.append(get_backend(name).solve(toy_lp(), time_limit=1))
            fake_solvers("fail")
            results.append(get_backend(name).solve(toy_lp(), time_limit=1))
        results.append([w for w in caught if issubclass(w.category, SolverFallbackWarning)])

    worker = threading.Thread(target=solve_twice)
    worker.start()
    worker.join()
    hung, failed, fallbacks = results
    assert hung.termination is TerminationCondition.error
    assert hung.message.startswith(hung_message(name, "its time limit was 1 s"))
    assert process_gone(tmp_path / "solver.pid")
    assert failed.message.endswith("its last output line: 'something went wrong'")
    assert len(fallbacks) == 1  # once per process
    assert str(fallbacks[0].message).startswith(
        f"{name}: the watchdog cannot use its SIGALRM timer because the solve does not run in the main thread; "
        "Pyomo's timelimit watches the solver process instead (route: Pyomo SolverFactory shell with timelimit)"
    )


@pytest.mark.slow
def test_fit_with_a_hung_glpsol_ends_with_a_clean_error(fake_solvers, capsys):
    """``fit --solver glpk --time-limit 1`` with a glpsol that sleeps used to run forever."""
    fake_solvers("sleep")
    status, stderr = cli(["fit", "liver", "--solver", "glpk", "--algorithm", "am", "--thresholds", "3", "--time-limit", "1"],
                         capsys)
    assert status == 1
    assert_clean_error(stderr, "solving the clause LP (clause 1) with glpk failed: the solver stopped with an error",
                       "glpsol was still running", "and was killed")
    # column generation (the default algorithm) gives every master LP what is left of the fit's time limit
    status, stderr = cli(["fit", "liver", "--solver", "glpk", "--thresholds", "3", "--time-limit", "1"], capsys)
    assert status == 1
    assert_clean_error(stderr, "the column generation master LP", "glpsol was still running", "and was killed")


BROKEN = {  # probe mode -> what the message says about the fake's version probe
    "fail": "exited with return code 1 (its last output line: 'cannot start: libfoo.so missing')",
    "garbage": "did not print a {marker} version (its last output line: 'garbage, not a version')",
}


@pytest.mark.parametrize("name", ["glpk", "cbc"])
@pytest.mark.parametrize("probe", sorted(BROKEN))
def test_broken_binary_is_unavailable_and_says_what_is_wrong_with_which_executable(fake_solvers, capsys, name, probe):
    fake_solvers("fail", probe=probe)
    command = {"glpk": "glpsol --version", "cbc": "cbc -stop"}[name]
    said = BROKEN[probe].format(marker=name.upper())
    reason = f"'{fake_path(name)}' is not a working {name}: '{command}' {said}"
    backend = get_backend(name, check_available=False)
    assert backend.available().reason == reason and backend.version() is None
    with pytest.raises(SolverNotFoundError) as info:
        get_backend(name)
    assert str(info.value).startswith(f"solver '{name}' not available ({reason}): install ")
    result = backend.solve(toy_lp())  # a backend made before: an error result, not 'NoneType' is not iterable
    assert result.termination is TerminationCondition.error and result.message.startswith(reason)

    assert main(["solvers"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(name + " "))
    assert row.split()[1] == "no" and reason in row


@pytest.mark.parametrize(("name", "options", "says"), [
    ("glpk", {"foo": 1}, "glpk option 'foo'=1 is not accepted by {path}: Invalid option '--foo'; try {path} --help; "
                         "'glpsol --help' lists the options (a flag takes the value None or '')"),
    ("glpk", {"mipgap": "abc"}, "glpk option 'mipgap'='abc' is not accepted by {path}: "
                                "Invalid relative mip gap tolerance 'abc'"),
    ("glpk", {"presol": True}, "glpk option 'presol'=True is not accepted by {path}: Reading problem data from 'True'"),
    ("glpk", {"tmlim": 5}, "glpk option 'tmlim' is set by rulemodels from the time limit: pass time_limit"),
    ("cbc", {"foo": 1}, "cbc option 'foo'=1 is not accepted by {path}: No match for foo - ? for list of commands; "
                        "No match for 1 - ? for list of commands; 'cbc -?' lists the options"),
    ("cbc", {"ratioGap": "abc"}, "cbc option 'ratioGap'='abc' is not accepted by {path}: "
                                 "String of abc is illegal for double parameter ratioGap"),
    ("cbc", {"presolve": "maybe"}, "cbc option 'presolve'='maybe' is not accepted by {path}: "
                                   "Possible options for presolve are: on off more file;"),
    ("cbc", {"seconds": 5}, "cbc option 'seconds' is set by rulemodels from the time limit: pass time_limit"),
])
def test_unknown_or_ill_typed_solver_options_are_a_value_error(name, options, says):
    from tests.helpers import require_backend

    backend = require_backend(name)
    with pytest.raises(ValueError) as info:
        backend.solve(toy_lp(), options=options)
    assert str(info.value).startswith(says.format(path=shutil.which(EXECUTABLE[name])))
    X, y = liver()
    with pytest.raises(ValueError, match=re.escape(f"{name} option '{next(iter(options))}'")):
        BooleanRuleClassifier(solver=name, solver_options=options, n_thresholds=3).fit(X, y)


@pytest.mark.parametrize(("name", "options"), [("glpk", {"nopresol": "", "dual": None}), ("cbc", {"presolve": "off", "primalS": ""})])
def test_valid_solver_options_are_used(name, options):
    from tests.helpers import require_backend

    result = require_backend(name).solve(toy_lp(), options=options)
    assert result.is_optimal and result.objective == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_no_solver_output_reaches_stdout_unless_asked(name, capfd):
    from tests.helpers import require_backend

    require_backend(name)
    banner = {"glpk": "GLPSOL", "cbc": "Welcome to the CBC"}[name]
    assert get_backend(name).solve(toy_lp()).is_optimal
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert get_backend(name, tee=True).solve(toy_lp()).is_optimal
    assert banner in capfd.readouterr().out


@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_failing_solver_output_is_in_the_message_not_on_the_terminal(fake_solvers, capfd, name):
    fake_solvers("fail")
    result = get_backend(name).solve(toy_lp())
    assert result.message.endswith("its last output line: 'something went wrong'")
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # Pyomo's own "returned non-zero return code" lines are not repeated


def send_sigint_when_started(pid_file: Path) -> threading.Thread:
    """A thread that sends this process SIGINT (a Ctrl-C) once the fake solver has started."""
    def interrupt() -> None:
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=interrupt, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_ctrl_c_during_a_shell_solve_reaches_the_caller_as_keyboard_interrupt(fake_solvers, tmp_path, name):
    fake_solvers("sleep")
    thread = send_sigint_when_started(tmp_path / "solver.pid")
    with pytest.raises(KeyboardInterrupt):
        get_backend(name).solve(toy_lp())
    thread.join()
    assert process_gone(tmp_path / "solver.pid")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")  # Pyomo's tee thread: EBADF
@pytest.mark.parametrize("name", ["glpk", "cbc"])
def test_a_ctrl_c_while_popen_returns_leaves_no_solver_process(fake_solvers, tmp_path, name, monkeypatch):
    """The race a loaded machine showed: the Ctrl-C arrives after the solver process started but before
    ``subprocess.Popen`` handed it to ``subprocess.run``, which then never kills it. Made certain here by a
    ``Popen.__enter__`` that waits for the process and raises the interrupt (``run`` never enters its ``with``)."""
    import subprocess

    fake_solvers("sleep")
    pid_file = tmp_path / "solver.pid"

    original_enter = subprocess.Popen.__enter__

    def interrupted_enter(self):
        if not any(str(arg).endswith((".lp", ".mps", ".glp", ".nl")) for arg in self.args):  # not the solve
            return original_enter(self)
        deadline = time.monotonic() + 60
        while not pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise KeyboardInterrupt

    backend = get_backend(name)
    backend.version()  # the version probe runs its own process first: not the one interrupted here
    monkeypatch.setattr(subprocess.Popen, "__enter__", interrupted_enter)
    with pytest.raises(KeyboardInterrupt):
        backend.solve(toy_lp())
    monkeypatch.undo()
    pid = int(pid_file.read_text())
    assert process_gone(pid_file)
    assert not Path(f"/proc/{pid}").exists()  # killed and reaped: not even a zombie


def signal_turned_into(signum: int, error: Exception) -> None:
    """Send this process ``signum`` and raise ``error`` from the KeyboardInterrupt it brings, as code inside a watch may."""
    try:
        os.kill(os.getpid(), signum)
        time.sleep(5)  # the signal arrives here
    except KeyboardInterrupt as exc:
        raise error from exc


def test_the_interrupt_watch_keeps_a_ctrl_c_that_the_code_inside_turned_into_another_error():
    """Pyomo's output capture has been seen turning KeyboardInterrupt into RuntimeError."""
    from solvers.signals import watching_interrupts

    with pytest.raises(KeyboardInterrupt) as info:
        with watching_interrupts(reraise=True):
            signal_turned_into(signal.SIGINT, RuntimeError("TeeStream: deadlock observed joining reader threads"))
    assert isinstance(info.value.__cause__, RuntimeError)
    with pytest.raises(KeyboardInterrupt):
        with watching_interrupts(reraise=True):
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)
            except KeyboardInterrupt:
                pass  # swallowed inside: still reaches the caller
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_sigterm_inside_a_nested_terminating_block_is_seen_by_the_enclosing_watch():
    """CI, stop 47: ``reproduce --jobs 1`` runs its tasks under the CLI's watch, each inside its own
    ``terminating_on_sigterm``; a SIGTERM that interrupted ``import highspy`` there came back as an ImportError
    ("type 'ObjSense' is already registered"), and the command exited 1. The inner block must keep the watch's
    handler, so the watch sees the signal and the error becomes the SIGTERM."""
    from solvers.signals import Terminated, terminating_on_sigterm, watching_interrupts

    with terminating_on_sigterm():
        with pytest.raises(Terminated) as info:
            with watching_interrupts(reraise=True) as watch:
                watch_handler = signal.getsignal(signal.SIGTERM)
                with terminating_on_sigterm():
                    assert signal.getsignal(signal.SIGTERM) is watch_handler
                    signal_turned_into(signal.SIGTERM, ImportError('generic_type: type "ObjSense" is already registered!'))
        assert isinstance(info.value.__cause__, ImportError)
        assert watch.seen
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


_CTRL_C_DURING_THE_HIGHSPY_IMPORT = """
import json, os, signal, sys
import solvers.highs
from solvers import get_backend
kicks = 0

def kick(frame, event, arg):  # a Ctrl-C at each Python call of highspy's import from its compiled module on:
    # what the module's initialisation calls (multi-phase in exec_dynamic, single-phase in create_dynamic; highspy
    # 1.13's calls nothing), then highspy's own Python code
    global kicks
    caller = frame.f_back
    in_init = caller is not None and caller.f_code.co_name == "_call_with_frames_removed" \\
        and getattr(caller.f_locals.get("f"), "__name__", "") in ("create_dynamic", "exec_dynamic")
    after_init = "highspy._core" in sys.modules and "/highspy/" in frame.f_code.co_filename
    if event == "call" and (in_init or after_init):
        kicks += 1
        os.kill(os.getpid(), signal.SIGINT)

assert "highspy" not in sys.modules
sys.settrace(kick)
try:
    get_backend("highs")
    first = "no interrupt"
except KeyboardInterrupt:
    first = "interrupted"
sys.settrace(None)
print(json.dumps([kicks, first, get_backend("highs").version()]))
"""


def test_a_ctrl_c_during_the_highspy_import_is_raised_after_it_and_highs_stays_available():
    """CI, stop 47: a SIGTERM inside the initialisation of highspy's compiled module came out of ``reproduce`` as
    'type "ObjSense" is already registered'. Interrupted there, pybind11 reports an ImportError, Pyomo then takes
    highspy for missing for the rest of the process, and the interrupt itself is lost. The import holds the
    signals: the interrupt comes after it, and HiGHS is there for the next fit. (The initialisation of highspy 1.13,
    the oldest lane's, runs no Python code, so there the signals arrive in highspy's Python code after it.)"""
    done = subprocess.run([sys.executable, "-c", _CTRL_C_DURING_THE_HIGHSPY_IMPORT], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr[-2000:]
    kicks, first, version = json.loads(done.stdout.splitlines()[-1])
    assert int(kicks) > 0  # the signals were sent while the module initialised
    assert first == "interrupted"
    assert version.count(".") == 2


def test_interrupt_watches_nest_and_each_sees_the_ctrl_c():
    """A watch inside another (a sweep inside the CLI's) is active: both remember the signal, and each exit restores."""
    from solvers.signals import watching_interrupts

    with pytest.raises(KeyboardInterrupt):
        with watching_interrupts() as outer:
            outer_handler = signal.getsignal(signal.SIGINT)
            with watching_interrupts() as inner:
                assert signal.getsignal(signal.SIGINT) is not outer_handler
                try:
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(5)
                except KeyboardInterrupt:
                    pass  # swallowed inside, as a worker pool may do
                assert inner.seen and outer.seen
                with pytest.raises(KeyboardInterrupt):
                    inner.raise_if_seen()
            assert signal.getsignal(signal.SIGINT) is outer_handler
            outer.raise_if_seen()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with watching_interrupts() as quiet:
        quiet.raise_if_seen()  # nothing arrived: returns
    assert not quiet.seen


def test_deferred_signals_hold_a_signal_delivered_to_another_thread():
    """A worker pool's threads are alive while it shuts down, and the kernel may hand a Ctrl-C to any of
    them; Python still runs the handler in the main thread. The block finishes first, then the interrupt is raised
    (a signal mask in the main thread held nothing then); nested blocks and SIGTERM too, and the handlers come back."""
    from solvers.signals import Terminated, deferred_signals, terminating_on_sigterm

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, name="pool-helper", daemon=True)
    helper.start()
    steps = []
    try:
        assert helper.ident is not None
        with pytest.raises(KeyboardInterrupt):
            with deferred_signals():
                with deferred_signals():
                    signal.pthread_kill(helper.ident, signal.SIGINT)
                    time.sleep(0.2)  # the handler runs in this thread meanwhile
                    steps.append("inner block finished")
                steps.append("outer block finished")
        with terminating_on_sigterm(), pytest.raises(Terminated):
            with deferred_signals():
                signal.pthread_kill(helper.ident, signal.SIGTERM)
                time.sleep(0.2)
                steps.append("SIGTERM block finished")
    finally:
        stop.set()
        helper.join()
    assert steps == ["inner block finished", "outer block finished", "SIGTERM block finished"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with deferred_signals():
        pass  # nothing arrived: nothing raised


# -- wrappers that fail on purpose -------------------------------------------------


class FaultAfter(DelegatingBackend):
    """Delegates to HiGHS for the first ``k`` solves, then answers every solve with ``fault``.

    It passes the driver's declared changes and cold starts on, so up to the
    fault a fit takes the same path as with plain HiGHS.
    """

    def __init__(self, k: int, fault: TerminationCondition, on_solve=None):
        super().__init__(get_backend("highs"))
        self.k = k
        self.fault = fault
        self.on_solve = on_solve
        self.n_solves = 0
        self.time_limits: list[float | None] = []

    def route(self):
        return "HiGHS, then a fault"

    def solve(self, model, config=None, **kwargs):
        self.n_solves += 1
        self.time_limits.append(SolveConfig.of(config).time_limit)
        if self.n_solves > self.k:
            self.inner.release(model)  # the declared changes were not pushed: the next solve must read the model
            return SolveResult(self.fault, None, None, 0.0, self.name, "fake", False, f"fake {self.fault.value}")
        result = self.inner.solve(model, config, **kwargs)
        if self.on_solve is not None:
            self.on_solve(self.n_solves)
        return result


# -- 3. the time limit is reached inside BCD / AM -----------------------------------


def _check_best_so_far(result, data, theta, full) -> None:
    """The returned rule is the best one of the trace, which follows the unlimited run's."""
    assert result.termination == "time_limit"
    objective = hamming_objective(data.A, data.y, result.W, theta, sample_weight=data.weight, feature_cost=data.cost)
    assert result.objective == pytest.approx(objective)
    assert result.objective == min(result.history)
    assert all(later <= earlier + 1e-9 for earlier, later in zip(result.history, result.history[1:]))
    n = len(result.history)
    assert result.history[: n - 1] == full.history[: n - 1]  # the same path until the limit
    assert n <= len(full.history) and result.history[-1] >= full.history[n - 1] - 1e-9


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_time_limit_inside_the_driver_keeps_the_best_rule(algorithm):
    problem, theta = liver_problem(), 0.001
    counter = FaultAfter(10**9, TerminationCondition.time_limit)
    full, data = learn_once(problem, counter, algorithm=algorithm, n_clauses=3, theta=theta)
    assert full.termination != "time_limit" and len(full.history) >= 3  # a few iterations to cut into
    partial_improvement = False
    # The limit at every solve after the set-cover initialisation (3 clauses = 3 solves).
    for k in range(3, counter.n_solves):
        limited, data = learn_once(
            problem, FaultAfter(k, TerminationCondition.time_limit), algorithm=algorithm, n_clauses=3, theta=theta
        )
        _check_best_so_far(limited, data, theta, full)
        assert limited.objective <= full.history[0]  # never worse than the set-cover start
        partial_improvement |= limited.objective not in full.history
    # BCD keeps the best clause update found before the limit cut its iteration short.
    assert partial_improvement == (algorithm == "bcd")


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_deadline_passing_between_solves_stops_with_the_best_rule(algorithm, monkeypatch):
    """The engine's own clock runs out (no solver reports a limit): same outcome."""
    offset = [0.0]
    clock = types.SimpleNamespace(perf_counter=lambda: time.perf_counter() + offset[0])
    monkeypatch.setattr(engine_module, "time", clock)
    problem, theta = liver_problem(), 0.001
    full, _ = learn_once(problem, get_backend("highs"), algorithm=algorithm, n_clauses=3, theta=theta)

    def an_hour_passes(n_solves: int) -> None:
        if n_solves == 5:  # during the second iteration's solves
            offset[0] += 3600.0

    backend = FaultAfter(10**9, TerminationCondition.time_limit, on_solve=an_hour_passes)
    limited, data = learn_once(problem, backend, algorithm=algorithm, n_clauses=3, theta=theta, time_limit=600.0)
    assert backend.n_solves == 5  # no solve was started after the deadline
    assert all(limit is not None and 0 < limit <= 600.0 for limit in backend.time_limits)  # the rest is passed on
    _check_best_so_far(limited, data, theta, full)


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
def test_time_limit_through_the_estimator(algorithm, caplog):
    X, y = liver()
    for k, clauses_learned in [(5, 3), (1, 1), (0, 0)]:  # in the driver; in set cover; before any clause
        caplog.clear()
        warning = "the time limit was reached" + (" before any clause was learned" if clauses_learned == 0 else "; rule_ is the best")
        with caplog.at_level(logging.INFO, logger="rulemodels.algorithms.run"), pytest.warns(ConvergenceWarning, match=warning):
            clf = BooleanRuleClassifier(
                algorithm=algorithm, n_clauses=3, theta=0.001, n_thresholds=5,
                solver=FaultAfter(k, TerminationCondition.time_limit),
                prune=False,  # objective_ stays the algorithm's own, the best of history_
            ).fit(X, y)
        assert clf.termination_ == "time_limit"
        assert f"{algorithm.upper()}: the time limit was reached after {k + 1} solves" in caplog.text  # for -v
        assert clf.objective_ == min(clf.history_)
        predictions = clf.predict(X)
        assert predictions.shape == (len(y),) and set(np.unique(predictions)) <= {0, 1}
        if clauses_learned == 0:
            # Nothing learned: the trivial rule (every clause empty) is returned, usable as is.
            assert str(clf.rule_).startswith("(True)") and predictions.all()
        else:
            assert clf.rule_.n_literals > 0


# -- 4. a solver answering infeasible / error inside a driver ---------------------


@pytest.mark.parametrize("algorithm", ["bcd", "am"])
@pytest.mark.parametrize(("fault", "says"), [
    (TerminationCondition.error, "the solver stopped with an error (fake error)"),
    (TerminationCondition.infeasible, "the model is infeasible (fake infeasible)"),
])
def test_error_status_inside_a_driver_is_a_typed_error_naming_the_solve(algorithm, fault, says):
    problem = liver_problem()
    with pytest.raises(SolveError) as info:  # the 2nd set-cover solve learns clause 2
        learn_once(problem, FaultAfter(1, fault), algorithm=algorithm, n_clauses=3)
    assert str(info.value) == f"solving the clause LP (clause 2) with highs failed: {says}"
    assert isinstance(info.value, SolverError) and info.value.result.termination is fault

    with pytest.raises(SolveError, match=r"solving the clause LP \(clause [123]\) with highs failed: ") as info:
        learn_once(problem, FaultAfter(4, fault), algorithm=algorithm, n_clauses=3)  # inside the driver
    assert info.value.result.termination is fault

    X, y = liver()
    with pytest.raises(SolveError, match=r"solving the clause LP \(clause 2\) with highs failed"):
        BooleanRuleClassifier(algorithm=algorithm, n_clauses=3, n_thresholds=5, solver=FaultAfter(1, fault)).fit(X, y)


@pytest.mark.parametrize(("fault", "says"), [
    (TerminationCondition.error, "the solver stopped with an error"),
    (TerminationCondition.infeasible, "the model is infeasible"),
    (TerminationCondition.time_limit, "the time limit was reached before any feasible solution was found"),
])
def test_tlp_relaxation_failure_is_a_typed_error(fault, says):
    X, y = liver()
    with pytest.raises(SolveError) as info:
        BooleanRuleClassifier(algorithm="tlp", n_clauses=2, n_thresholds=5, solver=FaultAfter(0, fault)).fit(X, y)
    assert str(info.value).startswith(f"solving the two-level LP relaxation (TLP, R=2) with highs failed: {says}")


# -- 5. a sweep interrupted by a real SIGINT -----------------------------------------

# Six folds, six training sets: with two workers, work is still queued when the first record is written, so the
# Ctrl-C lands mid-sweep (with two folds the second unit could finish before the signal arrived).
SWEEP = dict(algorithms=["am", "scs"], clauses=[1, 2], thetas=[0.001, 0.01, 1.0], n_folds=6, n_thresholds=3, max_iter=3)


def sweep_grid():
    return make_grid(
        ["liver"], SWEEP["algorithms"], SWEEP["clauses"], SWEEP["thetas"],
        n_folds=SWEEP["n_folds"], n_thresholds=SWEEP["n_thresholds"], max_iter=SWEEP["max_iter"],
    )


def sweep_command(results: Path, backend: str) -> list[str]:
    return [
        sys.executable, "-m", "rulemodels", "cv", "liver", "--algorithms", *SWEEP["algorithms"],
        "--clauses", ",".join(map(str, SWEEP["clauses"])), "--thetas", *map(str, SWEEP["thetas"]),
        "--folds", str(SWEEP["n_folds"]), "--thresholds", str(SWEEP["n_thresholds"]),
        "--max-iter", str(SWEEP["max_iter"]), "--results", str(results),
        "--backend", backend, "--jobs", "2", "--no-progress",
    ]


def session_processes(session: int) -> dict[int, str]:
    """pid -> state of every process left in ``session`` (Linux /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        if int(fields[3]) == session:  # fields after "(comm)": state ppid pgrp session ...
            found[int(entry.name)] = fields[0]
    return found


def start_sweep(results: Path, backend: str) -> subprocess.Popen:
    """The CLI sweep in its own session (so that it can be Ctrl-C'ed as a process group)."""
    return subprocess.Popen(
        sweep_command(results, backend), env=CHILD_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )


def sigint_ignored(pids: list[int]) -> dict[int, bool]:
    """pid -> whether the process ignores SIGINT, for those of ``pids`` still there (Linux /proc)."""
    ignored = {}
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:  # it exited meanwhile
            continue
        mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
        ignored[pid] = bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))
    return ignored


def interrupt_after_first_record(children: dict[str, tuple[subprocess.Popen, Path]]) -> dict[str, dict[int, bool]]:
    """Send SIGINT to each sweep's process group (a terminal's Ctrl-C) as soon as it wrote a record.

    Returns, per sweep, whether each of its other processes ignored SIGINT then.
    """
    waiting = dict(children)
    ignoring: dict[str, dict[int, bool]] = {}
    deadline = time.monotonic() + 120
    while waiting and time.monotonic() < deadline:
        for backend, (child, results) in list(waiting.items()):
            assert child.poll() is None, f"the {backend} sweep finished (or failed) before it could be interrupted"
            if results.exists() and results.read_bytes().count(b"\n") >= 1:
                ignoring[backend] = sigint_ignored([pid for pid in session_processes(child.pid) if pid != child.pid])
                os.killpg(child.pid, signal.SIGINT)
                del waiting[backend]
        time.sleep(0.01)
    assert not waiting, f"no record written in time by {sorted(waiting)}"
    return ignoring


def assert_nothing_left_running(session: int) -> None:
    """No process of the sweep keeps running (its workers are gone, or zombies waiting to be reaped)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(state != "Z" for state in session_processes(session).values()):
        time.sleep(0.1)
    left = {pid: state for pid, state in session_processes(session).items() if state != "Z"}
    for pid in left:  # clean up before failing
        os.kill(pid, signal.SIGKILL)
    assert not left, f"processes of the interrupted sweep still running: {left}"


@pytest.mark.slow
def test_sigint_mid_sweep_stops_cleanly_and_resumes_exactly_once(tmp_path, monkeypatch):
    """Sequential and joblib (2 workers) sweeps, Ctrl-C'ed side by side, then resumed."""
    children = {backend: (start_sweep(tmp_path / f"{backend}.jsonl", backend), tmp_path / f"{backend}.jsonl")
                for backend in ("sequential", "joblib")}
    try:
        ignoring = interrupt_after_first_record(children)
        outcomes = {backend: child.communicate(timeout=60) for backend, (child, _) in children.items()}
    finally:
        for child, _ in children.values():
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
    assert ignoring["sequential"] == {}
    # joblib's workers (and its resource trackers) leave Ctrl-C to the sweep, which ends them.
    assert len(ignoring["joblib"]) >= 2 and all(ignoring["joblib"].values()), ignoring
    grid = {task.key: task for task in sweep_grid()}
    original = cells._run_cell
    for backend, (child, results) in children.items():
        assert_nothing_left_running(child.pid)
        stderr = outcomes[backend][1].decode()
        assert child.returncode == 130, (backend, stderr)
        assert "rulemodels: interrupted" in stderr and "run again to resume" in stderr
        assert "Traceback" not in stderr, (backend, stderr)
        assert "still being processed" not in stderr  # joblib's advice is not for our users
        written = results.read_bytes()
        assert written.endswith(b"\n")  # no cut line
        records = [json.loads(line) for line in written.splitlines()]
        keys = [record["key"] for record in records]
        assert 1 <= len(keys) < len(grid) and len(set(keys)) == len(keys) and set(keys) <= set(grid)
        assert all(record["error"] is None for record in records)  # the interrupted fit is not a failed task

        ran: list[str] = []
        monkeypatch.setattr(cells, "_run_cell", lambda task, *args: ran.append(task.key) or original(task, *args))  # noqa: B023
        frame = run_experiments(list(grid.values()), results, backend="sequential")
        assert sorted(ran) == sorted(set(grid) - set(keys))  # only the unfinished tasks run again
        final = results.read_bytes()
        assert final.startswith(written)  # finished records kept byte for byte
        final_keys = [json.loads(line)["key"] for line in final.splitlines()]
        assert len(final_keys) == len(set(final_keys)) == len(grid) == len(frame)
        assert frame["error"].isna().all()


def test_cli_time_limit_is_one_warning_line_and_the_summary_says_so(capsys):
    assert main(["fit", "liver", "--clauses", "2", "--thresholds", "3", "--time-limit", "0.000001"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    # one line says the limit was reached; how far the fit got before it (a trivial rule, with its own one-line
    # warning, when not even the first LP finished on a loaded machine) depends on the machine, not the format
    said = [line for line in lines if "time limit" in line]
    assert len(said) == 1 and said[0].startswith("rulemodels: warning: the time limit was reached"), captured
    assert all(line.startswith("rulemodels: ") for line in lines), captured  # every warning as one CLI line
    assert "ConvergenceWarning" not in captured.err and "Traceback" not in captured.err, captured
    assert "(time_limit)" in captured.out, captured


@pytest.mark.slow
def test_a_time_limited_cbc_solve_logs_no_pyomo_status_warning(caplog):
    """Pyomo's 'Loading a SolverResults object with an aborted status' warning is not repeated (the result says it)."""
    from rulemodels.models import build_zero_one
    from tests.helpers import require_backend

    X, y = liver()
    binarizer = FeatureBinarizer(n_thresholds=5).fit(X.iloc[:60])
    model = build_zero_one(binarizer.transform(X.iloc[:60]), y[:60], n_clauses=2, theta=0.01).model
    with caplog.at_level(logging.WARNING):
        result = require_backend("cbc").solve(model, time_limit=1)
    assert result.termination is TerminationCondition.time_limit and result.has_solution  # gap far from closed in 1 s
    assert [record.getMessage() for record in caplog.records if record.name.startswith("pyomo")] == []


def test_cbc_stopped_before_any_integer_solution_loads_no_fractional_values():
    """CBC at a time limit with no integer solution reports its LP relaxation's values as "feasible"
    (status intermediateNonInteger); loading them handed callers binaries like 0.7. Now: no solution, no values."""
    rng = np.random.default_rng(0)
    n, d = 60, 40
    A = rng.random((n, d)) < 0.15
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(d), domain=pyo.Binary)
    m.cover = pyo.Constraint(
        [i for i in range(n) if A[i].any()], rule=lambda m, i: sum(m.x[j] for j in range(d) if A[i, j]) >= 1,
    )
    m.obj = pyo.Objective(expr=sum((1 + (j % 7) / 10) * m.x[j] for j in range(d)))
    from tests.helpers import require_backend

    backend = require_backend("cbc")
    stopped = backend.solve(m, time_limit=1e-9)
    assert stopped.termination.value == "feasible"
    assert not stopped.has_solution and stopped.objective is None
    assert "fractional" in stopped.message
    assert all(m.x[j].value is None for j in range(d))
    solved = backend.solve(m)  # the same model, given time: an integer optimum is loaded as before
    assert solved.has_solution and all(m.x[j].value in (0, 1) for j in range(d))
