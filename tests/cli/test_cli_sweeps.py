"""`cv` and `reproduce` that can be trusted: failed tasks retried and reported, Ctrl-C never stored,
environment faults refused before the sweep, grids validated, foreign results files left alone,
honest (nested) selection labelled as such, and progress bars only on a terminal."""

from __future__ import annotations

import fcntl
import io
import json
import logging
import os
import pty
import select
import struct
import sys
import termios

import pytest

import solvers.registry
from rulemodels.cli import main
from rulemodels.experiments import cells, make_grid, read_results, run_experiments
from rulemodels.utils import progress_bar, track
from solvers import Availability, get_backend
from tests.helpers import DelegatingBackend

pytestmark = pytest.mark.slow  # sweeps, cross-validation and reproduce runs through the CLI

SMALL = ["--algorithms", "scs", "--clauses", "1", "--thetas", "0.01,0.1", "--folds", "2", "--thresholds", "3",
         "--backend", "sequential", "--no-progress"]


def cv(results, *extra):
    return ["cv", "liver", *SMALL, "--results", str(results), *extra]


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def failing_cells(monkeypatch):
    """Make the fits of θ=0.1 fail, for ``budget`` calls; returns the list of keys that ran."""
    original = cells._run_cell
    state = {"budget": 0, "ran": []}

    def run_cell(task, *args):
        state["ran"].append(task.key)
        if task.theta == 0.1 and state["budget"] > 0:
            state["budget"] -= 1
            return cells.error_record(task, RuntimeError("injected failure"))
        return original(task, *args)

    monkeypatch.setattr(cells, "_run_cell", run_cell)
    return state


def test_a_task_failing_twice_exits_nonzero_is_listed_and_is_retried_on_the_next_run(tmp_path, capsys, failing_cells):
    results = tmp_path / "cv.jsonl"
    failing_cells["budget"] = 4  # both folds of θ=0.1, in the run and in its one retry
    assert main(cv(results)) == 1
    err = capsys.readouterr().err
    assert "2 of 4 tasks have no result" in err and "RuntimeError: injected failure" in err
    assert "rerun the same command to retry them" in err
    records = lines(results)
    assert sum(r["error"] is not None for r in records) == 4 and len(records) == 6

    before = results.read_bytes()
    failing_cells["ran"].clear()  # fixed: the rerun runs only the failed tasks, and succeeds
    assert main(cv(results)) == 0
    assert sorted(set(failing_cells["ran"])) == sorted({r["key"] for r in records if r["error"]})
    frame = read_results(results)
    assert len(frame) == 4 and frame["error"].isna().all()  # the success supersedes the failures
    assert results.read_bytes().startswith(before)  # appended to, never rewritten


def test_a_task_failing_once_is_retried_within_the_run(tmp_path, caplog, failing_cells):
    results = tmp_path / "cv.jsonl"
    failing_cells["budget"] = 1
    assert main(cv(results)) == 0
    assert "1 tasks failed; running them once more" in caplog.text
    assert read_results(results)["error"].isna().all()
    assert len(lines(results)) == 5  # the failure and its retry's success


def test_keep_going_accepts_partial_results(tmp_path, capsys, failing_cells):
    failing_cells["budget"] = 4
    assert main(cv(tmp_path / "cv.jsonl", "--keep-going")) == 0
    err = capsys.readouterr().err
    assert "2 of 4 tasks have no result" in err and "--keep-going" in err


class InterruptingBackend(DelegatingBackend):
    """Raises Ctrl-C inside its first solve, bare or wrapped like Pyomo's tee does."""

    wrapped = False

    def solve(self, model, **kwargs):
        # what Pyomo logs when a Ctrl-C hits while it builds a model: not worth a line, the interrupt is said
        logging.getLogger("pyomo.core").error("Rule failed for Param 'neg_cost' with index 882:")
        if self.wrapped:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as exc:
                raise RuntimeError("output capture failed") from exc
        raise KeyboardInterrupt


@pytest.fixture
def interrupting(monkeypatch):
    def register(wrapped: bool) -> str:
        def factory(**options):
            backend = InterruptingBackend(get_backend("highs", **options))
            backend.wrapped = wrapped
            return backend

        monkeypatch.setitem(solvers.registry._REGISTRY, "interrupting", factory)
        return "interrupting"

    return register


@pytest.mark.parametrize("wrapped", [False, True], ids=["bare", "wrapped"])
def test_ctrl_c_inside_a_solve_ends_the_sweep_with_130_and_no_record(tmp_path, capsys, interrupting, wrapped):
    results = tmp_path / "cv.jsonl"
    assert main(cv(results, "--solver", interrupting(wrapped))) == 130
    assert "rulemodels: interrupted" in capsys.readouterr().err
    assert not results.exists() or results.read_text() == ""


@pytest.mark.parametrize("wrapped", [False, True], ids=["bare", "wrapped"])
def test_ctrl_c_inside_a_fit_exits_130(capsys, interrupting, wrapped):
    assert main(["fit", "liver", "--thresholds", "3", "--solver", interrupting(wrapped)]) == 130
    err = capsys.readouterr().err
    assert err.strip() == "rulemodels: interrupted"


def test_run_unit_never_records_a_wrapped_interrupt(interrupting):
    (task,) = make_grid(["liver"], ["scs"], [1], [0.1], n_folds=2, solver=interrupting(True))[:1]
    with pytest.raises(KeyboardInterrupt):
        cells.run_unit([task])


class UnavailableBackend(DelegatingBackend):
    def available(self):
        return Availability(False, "its binary answers nothing (test)")


def test_a_missing_or_broken_solver_stops_the_sweep_before_it_starts(tmp_path, capsys, monkeypatch):
    results = tmp_path / "cv.jsonl"
    assert main(cv(results, "--solver", "nosuchsolver")) == 1
    assert "unknown solver 'nosuchsolver'" in capsys.readouterr().err
    monkeypatch.setitem(solvers.registry._REGISTRY, "broken", lambda **o: UnavailableBackend(get_backend("highs")))
    assert main(cv(results, "--solver", "broken")) == 1
    assert "solver 'broken' not available (its binary answers nothing (test))" in capsys.readouterr().err
    assert not results.exists() or results.read_text() == ""  # nothing stored


@pytest.mark.parametrize("extra, says", [
    (["--folds", "0"], "argument --folds: must be an integer >= 2"),
    (["--folds", "1000"], "--folds 1000 is more than the 145 rows of the smaller class"),
    (["--thetas", "nan"], "each of --thetas must be a float in the range [0, inf), got nan"),
    (["--thetas", "inf"], "each of --thetas must be a float in the range [0, inf), got inf"),
    (["--thetas", "-1"], "each of --thetas must be a float in the range [0, inf), got -1.0"),
    (["--jobs", "0"], "argument --jobs: must be an integer from 1 to 256, got '0'"),
    (["--jobs", "100000"], "argument --jobs: must be an integer from 1 to 256"),
    (["--clauses", "1-100000"], "argument --clauses: must be numbers of clauses from 1 to 50"),
    (["--clauses", "x"], "argument --clauses: must be numbers of clauses"),
    (["--n-clauses", "0"], "argument --n-clauses: must be numbers of clauses from 1 to 50"),
    (["--n-thresholds", "0"], "argument --n-thresholds: must be an int in the range [1, inf), got '0'"),
    (["--inner-folds", "1"], "argument --inner-folds: must be 0 (no nested CV) or at least 2, got '1'"),
    (["--inner-folds", "200"], "argument --inner-folds: must be 0 (no nested CV) or at least 2"),
    (["--form", "auto"], "--form auto chooses the form by nested CV: add --inner-folds"),
])
def test_bad_grids_exit_2_before_running_anything(extra, says, tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    args = ["cv", "liver", "--results", str(results), "--backend", "sequential", "--no-progress", "--algorithms", "scs",
            "--clauses", "1", *extra]
    try:
        status = main(args)
    except SystemExit as exit_:
        status = exit_.code
    assert status == 2
    assert says in capsys.readouterr().err
    assert not results.exists()


def test_reproduce_validates_its_grid_too(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["reproduce", "--out", str(tmp_path), "--jobs", "0"])
    assert info.value.code == 2
    assert main(["reproduce", "--out", str(tmp_path), "--datasets", "liver", "--folds", "500"]) == 2
    assert "--folds 500 is more than" in capsys.readouterr().err


@pytest.mark.parametrize("content", [b'{"title": "my notes", "n": 3}', b"remember to buy milk\n", b"#!/bin/sh"])
def test_a_foreign_one_line_file_as_results_is_left_byte_identical(content, tmp_path, capsys):
    results = tmp_path / "notes.jsonl"
    results.write_bytes(content)
    assert main(cv(results)) == 1
    assert "holds no result record" in capsys.readouterr().err
    assert results.read_bytes() == content


def test_an_interrupted_results_file_is_still_repaired(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    assert main(cv(results)) == 0
    complete = results.read_bytes()
    results.write_bytes(complete + b'{"key": "cut')  # a line cut by a kill
    assert main(cv(results)) == 0
    assert results.read_bytes() == complete


def test_cv_labels_optimistic_and_honest_numbers_and_selects_r_honestly(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    args = ["cv", "liver", "--algorithms", "scs", "--clauses", "1-2", "--thetas", "0.01,0.1", "--folds", "2",
            "--thresholds", "3", "--backend", "sequential", "--no-progress", "--inner-folds", "2",
            "--results", str(results)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "optimistic: min over θ (θ chosen on the test folds)" in out
    assert "honest: θ chosen by nested CV" in out
    assert "honest: θ and R chosen together by nested CV" in out
    selection = [line for line in out.splitlines() if line.startswith("| scs") and "R=" in line]
    assert len(selection) == 1 and selection[0].count("R=") == 2  # one (R, θ) per outer fold


def test_cv_form_auto_chooses_the_form_by_nested_cv(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    args = ["cv", "liver", "--algorithms", "scs", "--clauses", "1", "--thetas", "0.05", "--folds", "2",
            "--thresholds", "3", "--backend", "sequential", "--no-progress", "--inner-folds", "2", "--form", "auto",
            "--results", str(results)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "DNF: mean test error" in out and "CNF: mean test error" in out
    assert "θ, R and form chosen together" in out
    assert {r["form"] for r in lines(results)} == {"dnf", "cnf"}


# -- progress bars: on a terminal only ---------------------------------------------------


def read_available(fd: int) -> bytes:
    chunks = []
    while select.select([fd], [], [], 0.2)[0]:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture
def terminal_stderr(monkeypatch):
    """A pseudo-terminal; yields ``attach``, which makes it sys.stderr (call it in the test body: pytest's
    capture sets sys.stderr again after the fixtures) and returns a function reading what was written to it.
    The bars' two-second delay is off, so that these short fits draw theirs (tests/test_progress.py checks the delay)."""
    monkeypatch.setattr("rulemodels.utils._progress.DELAY", 0.0)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
    stream = os.fdopen(slave, "w", buffering=1)

    def written() -> str:
        stream.flush()
        return read_available(master).decode(errors="replace")

    def attach():
        monkeypatch.setattr(sys, "stderr", stream)
        return written

    yield attach
    stream.close()
    os.close(master)


def test_progress_bar_is_drawn_on_a_terminal_and_not_in_a_pipe(terminal_stderr, monkeypatch):
    written = terminal_stderr()
    assert list(track(range(4), 4, "cells", "fit")) == [0, 1, 2, 3]
    shown = written()
    assert "cells" in shown and "4/4" in shown
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert list(track(range(4), 4, "cells", "fit")) == [0, 1, 2, 3]
    with progress_bar(3, "x", "fit") as bar:
        bar.update(3)
    assert pipe.getvalue() == ""


def test_a_sweep_shows_its_progress_on_a_terminal(tmp_path, terminal_stderr):
    written = terminal_stderr()
    tasks = make_grid(["liver"], ["scs"], [1], [0.1], n_folds=2, n_thresholds=3)
    run_experiments(tasks, tmp_path / "r.jsonl", backend="sequential", progress=True)
    shown = written()
    assert "experiments" in shown and "2/2" in shown


def test_boolean_rule_cv_shows_its_progress_on_a_terminal(terminal_stderr):
    from rulemodels import BooleanRuleCV, load_dataset

    X, y = load_dataset("liver")
    written = terminal_stderr()
    BooleanRuleCV(algorithms="scs", thetas=[0.002, 0.005], n_clauses=[1], forms="dnf", cv=2, n_thresholds=3).fit(X, y)
    shown = written()
    assert "BooleanRuleCV" in shown and "4/4" in shown


def test_am_with_verbose_shows_its_iterations_on_a_terminal(terminal_stderr):
    from rulemodels import BooleanRuleClassifier, load_dataset

    X, y = load_dataset("liver")
    written = terminal_stderr()
    # θ and thresholds of the fit these lines were written for (at the defaults AM stops after its first iteration)
    BooleanRuleClassifier(algorithm="am", n_clauses=2, n_thresholds=3, theta=0.005, thresholds="quantile", verbose=True).fit(X, y)
    shown = written()
    assert "AM:" in shown and "iter/s" in shown  # the bar (iterations, rate, ETA)
    assert "  AM     1" in shown  # the iteration lines, written above the bar


def test_verbose_logs_one_fixed_width_line_per_iteration_and_no_solver_log(caplog):
    caplog.handler.setLevel(logging.DEBUG)  # the root logger stays at WARNING, as in a shell
    assert main(["-v", "fit", "liver", "--algorithm", "am", "--clauses", "2", "--thresholds", "3"]) == 0
    names = {record.name.split(".")[0] for record in caplog.records}
    assert names == {"rulemodels"}  # neither the solver layer nor Pyomo: only with --solver-log
    log = [r.getMessage() for r in caplog.records if r.getMessage().lstrip().startswith("AM")]
    assert log[0].split() == ["AM", "iter", "objective", "train", "error", "literals", "LP", "solves", "seconds"]
    rows = [line for line in log[1:] if "stopped" not in line]
    assert rows and len({len(line) for line in rows}) == 1  # fixed width
    assert [int(line.split()[1]) for line in rows] == list(range(len(rows)))
    assert all(0 <= float(line.split()[3]) <= 1 for line in rows)
    assert logging.getLogger("rulemodels").level == logging.NOTSET  # main() leaves the levels as it found them


def test_iteration_log_costs_nothing_when_off(monkeypatch):
    from rulemodels.algorithms import iteration_log

    def forbidden(*args):
        raise AssertionError("computed although the log is off")

    monkeypatch.setattr(iteration_log, "training_error", forbidden)
    assert main(["fit", "liver", "--algorithm", "bcd", "--clauses", "2", "--thresholds", "3"]) == 0


def test_cv_polish_runs_polished_fits_under_their_own_keys(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    assert main(cv(results, "--polish", "2")) == 0
    records = lines(results)
    assert len(records) == 4 and all(record["polish"] == 2.0 and record["error"] is None for record in records)
    assert all(record["key"].endswith("|polish=2.0") for record in records)
    plain = tmp_path / "plain.jsonl"
    assert main(cv(plain)) == 0
    assert all(record["polish"] is None and "polish" not in record["key"] for record in lines(plain))


def test_cv_and_reproduce_offer_column_generation(tmp_path, capsys):
    results = tmp_path / "cv.jsonl"
    assert main(cv(results, "--algorithms", "cg", "am")) == 0
    records = lines(results)
    assert {record["algorithm"] for record in records} == {"cg", "am"}
    assert all(record["error"] is None and record["test_error"] is not None for record in records)
    assert "cg" in capsys.readouterr().out


def test_reproduce_polish_runs_polished_am_in_its_own_directory(tmp_path, capsys):
    out = tmp_path / "polished"
    args = ["reproduce", "--datasets", "liver", "--algorithms", "am", "--clauses", "1", "--thetas", "0.05",
            "--folds", "2", "--thresholds", "3", "--inner-folds", "0", "--out", str(out), "--backend", "sequential",
            "--no-progress"]
    assert main([*args, "--polish", "2"]) == 0
    records = lines(out / "results.jsonl")
    assert len(records) == 2 and all(r["polish"] == 2.0 and r["error"] is None for r in records)
    assert all(r["key"].endswith("|polish=2.0") for r in records)
    assert "| liver | 1 |" in (out / "table1.md").read_text()
    # the unpolished protocol in the same directory would mix two settings: refused with what to do
    assert main(args) == 1
    assert "mix polish values" in capsys.readouterr().err
