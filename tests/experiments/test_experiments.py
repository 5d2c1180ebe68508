"""Tests for rulemodels.experiments: the resumable sweep runner and its tables.

Every run uses a tiny grid (liver, 2 folds, 3 thresholds, a few θ, R in
{1, 2}, SCS and AM with max_iter 3), so fits take about 0.1 s each.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from rulemodels import BooleanRuleClassifier
from rulemodels.datasets import load_dataset
from rulemodels.experiments import (
    PAPER_ALGORITHMS,
    PAPER_DATASETS,
    PAPER_TABLE1,
    PAPER_THETAS,
    RECORD_FIELDS,
    CSVData,
    Task,
    cells,
    make_grid,
    nested_cv_selection,
    pareto_front,
    plot_pareto,
    read_results,
    run_experiments,
    run_task,
    summarize,
    table1,
    table1_markdown,
)
from rulemodels.experiments.cells import make_units
from rulemodels.rules import Rule

REPO = Path(__file__).resolve().parents[2]
PAPER_TEX = Path("/work/shared/paper.tex")
TINY = {"n_folds": 2, "n_thresholds": 3, "max_iter": 3}
TINY_THETAS = (0.001, 5.0)


def tiny_grid() -> list[Task]:
    return make_grid(["liver"], ["scs", "am"], [1, 2], TINY_THETAS, **TINY)


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def keys_in(path: Path) -> list[str]:
    return [json.loads(line)["key"] for line in lines_of(path)]


def errors_by_key(frame: pd.DataFrame) -> dict[str, float]:
    return dict(zip(frame["key"], frame["test_error"], strict=True))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """The tiny grid run sequentially once: (results file, returned records)."""
    path = tmp_path_factory.mktemp("tiny") / "results.jsonl"
    frame = run_experiments(tiny_grid(), path, backend="sequential")
    return path, frame


# -- the paper's constants ---------------------------------------------------


def test_paper_thetas_are_the_18_values_ascending() -> None:
    assert len(PAPER_THETAS) == 18
    assert list(PAPER_THETAS) == sorted(PAPER_THETAS)
    assert len(set(PAPER_THETAS)) == 18
    assert PAPER_THETAS[0] == 1e-4 and PAPER_THETAS[-1] == 50.0
    assert set(PAPER_THETAS) == {float(f"{a}e{b}") for a in (1, 2, 5) for b in range(-4, 2)}
    assert 0.0005 in PAPER_THETAS and 0.02 in PAPER_THETAS and 1.0 in PAPER_THETAS


def test_paper_table1_spot_checks() -> None:
    assert len(PAPER_TABLE1) == 4 * 5 * 5
    assert {d for d, _, _ in PAPER_TABLE1} == set(PAPER_DATASETS)
    assert PAPER_TABLE1[("pima", 2, "am")] == 22.7
    assert PAPER_TABLE1[("sonar", 5, "am")] == 18.3
    assert PAPER_TABLE1[("liver", 1, "tlp")] == 39.7
    assert PAPER_TABLE1[("parkinsons", 3, "bcd")] == 12.3
    assert PAPER_TABLE1[("sonar", 1, "scs")] == 30.3
    assert PAPER_TABLE1[("pima", 5, "tlp")] == 25.1
    with pytest.raises(TypeError):
        PAPER_TABLE1[("pima", 2, "am")] = 0.0  # type: ignore[index]


@pytest.mark.skipif(not PAPER_TEX.exists(), reason="the paper's LaTeX source is not on this machine")
def test_paper_table1_matches_every_cell_of_the_latex_table() -> None:
    text = PAPER_TEX.read_text()
    tabular = text[text.index(r"\label{table:testrate}"): text.index(r"\end{tabular}")]
    rows = [line for line in tabular.splitlines() if re.search(r"&\s*\$[1-5]\$\s*&", line)]
    assert len(rows) == 20
    for index, line in enumerate(rows):
        dataset, n_clauses = PAPER_DATASETS[index // 5], index % 5 + 1
        assert re.search(rf"&\s*\${n_clauses}\$\s*&", line)
        numbers = [float(v) for v in re.findall(r"\$(?:\\mathbf\{)?(\d+\.\d)\}?\$", line)][:5]
        expected = [PAPER_TABLE1[(dataset, n_clauses, a)] for a in PAPER_ALGORITHMS]
        assert numbers == expected, (dataset, n_clauses)


# -- tasks and the grid --------------------------------------------------------


def test_make_grid_size_unique_stable_keys() -> None:
    grid = make_grid(["liver", "pima"], ["scs", "am", "bcd"], [1, 2], PAPER_THETAS, n_folds=10)
    assert len(grid) == 2 * 3 * 2 * 18 * 10
    keys = [t.key for t in grid]
    assert len(set(keys)) == len(keys)
    assert keys == [t.key for t in make_grid(["liver", "pima"], ["scs", "am", "bcd"], [1, 2], PAPER_THETAS, n_folds=10)]
    assert len(set(grid)) == len(grid)  # frozen, hashable
    task = grid[0]
    assert (task.dataset, task.algorithm, task.n_clauses, task.theta, task.fold) == ("liver", "scs", 1, 1e-4, 0)
    assert "theta=0.0001" in task.key and "fold=0/10" in task.key
    # Equal settings given as numpy scalars give the same key.
    assert Task("liver", "scs", np.int64(1), np.float64(1e-4), np.int64(0), 10).key == task.key
    # A setting changes the key.
    assert make_grid(["liver"], ["scs"], [1], [1e-4], n_folds=10, n_thresholds=5)[0].key != task.key
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.theta = 1.0  # type: ignore[misc]


def test_make_grid_and_task_reject_bad_input() -> None:
    with pytest.raises(TypeError, match="unknown settings"):
        make_grid(["liver"], ["am"], [1], [0.1], n_folds=2, thresholds=3)
    with pytest.raises(ValueError, match="unknown dataset 'nope'"):
        make_grid(["nope"], ["am"], [1], [0.1])
    with pytest.raises(ValueError, match="fold must be in"):
        Task("liver", "am", 1, 0.1, fold=2, n_folds=2)
    with pytest.raises(ValueError, match="at least 2"):
        Task("liver", "am", 1, 0.1, fold=0, n_folds=1)
    task = Task("liver", "am", 2, 0.5, 1, 2, n_thresholds=3)
    assert Task.from_record({**task.to_dict(), "key": task.key, "test_error": 0.3}) == task


@pytest.mark.parametrize("call, says", [
    # the grid checks θ and R by their parameters' one rule (rulemodels.utils.PARAMETERS); before, a negative
    # or infinite θ and R = 0 made a grid whose every task failed in the workers
    (lambda: make_grid(["liver"], ["am"], [1], [0.1, -1.0], n_folds=2),
     "Each value of the 'thetas' parameter of make_grid must be a float in the range [0, inf)"),
    (lambda: make_grid(["liver"], ["am"], [1], [float("inf")], n_folds=2), "Got inf"),
    (lambda: make_grid(["liver"], ["am"], [0, 1], [0.1], n_folds=2),
     "Each value of the 'clauses' parameter of make_grid must be an int in the range [1, inf)"),
    (lambda: make_grid(["liver"], ["am"], [1], [], n_folds=2), "The 'thetas' parameter of make_grid is empty"),
    (lambda: Task("liver", "am", 1, -0.5, fold=0, n_folds=2),
     "The 'theta' parameter of Task must be a float in the range [0, inf). Got -0.5 instead."),
    (lambda: Task("liver", "am", 0, 0.1, fold=0, n_folds=2), "The 'n_clauses' parameter of Task must be an int"),
    (lambda: make_grid(["liver"], ["am"], [1], [0.1], n_folds=2, n_thresholds=0), "The 'n_thresholds' parameter of Task"),
    (lambda: make_grid(["liver"], ["am"], [1], [0.1], n_folds=2, time_limit=0.0), "The 'time_limit' parameter of Task"),
])
def test_make_grid_and_task_check_parameters_by_their_one_rule(call, says) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        call()


# -- running -------------------------------------------------------------------


def test_sequential_run_writes_one_documented_line_per_task(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    path, frame = tiny_run
    grid = tiny_grid()
    lines = lines_of(path)
    assert len(lines) == len(grid)
    assert all(line.endswith(b"\n") for line in lines)
    assert sorted(keys_in(path)) == sorted(t.key for t in grid)
    for line in lines:
        record = json.loads(line)
        assert set(record) == set(RECORD_FIELDS)
        assert record["error"] is None
        assert 0.0 <= record["test_error"] <= 1.0 and 0.0 <= record["train_error"] <= 1.0
        assert record["n_train"] + record["n_test"] == 345
        rule = Rule.from_json(record["rule"])
        assert rule.n_literals == record["n_literals"] and rule.n_clauses == record["n_clauses_used"]
        assert record["n_clauses_used"] <= record["n_clauses"]
        # n_solves may be 0: a fit can take every LP solution from its fold's workspace.
        assert record["wall_time"] > 0 and record["n_solves"] >= 0 and record["n_builds"] <= 1
    assert len(frame) == len(grid) and list(frame.columns[: len(RECORD_FIELDS)]) == list(RECORD_FIELDS)
    assert read_results(path)["key"].tolist() == frame["key"].tolist()
    # Better than predicting the majority class (58 % of liver's samples).
    assert frame["train_error"].mean() < 0.42


def test_resume_skips_finished_tasks_and_keeps_their_lines(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    grid = tiny_grid()
    path = tmp_path / "results.jsonl"
    first = run_experiments([*grid[::2], grid[0]], path, backend="sequential")  # a repeated task runs once
    before = path.read_bytes()
    assert len(lines_of(path)) == len(grid[::2])

    full = run_experiments(grid, path, backend="sequential")
    after = path.read_bytes()
    assert after.startswith(before)  # the first run's lines are byte-identical
    keys = keys_in(path)
    assert len(keys) == len(set(keys)) == len(grid)
    assert len(full) == len(grid)
    # The finished tasks were not recomputed: their records (wall times included) are the old ones.
    old = first.set_index("key")["wall_time"]
    assert full.set_index("key").loc[old.index, "wall_time"].tolist() == old.tolist()
    assert errors_by_key(full) == errors_by_key(tiny_run[1])

    # Nothing left to do: the file does not change.
    again = run_experiments(grid, path, backend="sequential")
    assert path.read_bytes() == after and len(again) == len(grid)


def test_truncated_last_line_is_ignored_and_recomputed(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    grid = tiny_grid()
    path = tmp_path / "results.jsonl"
    lines = lines_of(tiny_run[0])
    lost = json.loads(lines[-1])["key"]
    kept = b"".join(lines[:-1])
    path.write_bytes(kept + lines[-1][: len(lines[-1]) // 2])  # a kill in the middle of a write
    assert read_results(path)["key"].tolist() == keys_in(tiny_run[0])[:-1]

    frame = run_experiments(grid, path, backend="sequential")
    assert path.read_bytes().startswith(kept)
    keys = keys_in(path)  # every line parses
    assert len(keys) == len(set(keys)) == len(grid)
    assert keys[-1] == lost
    assert errors_by_key(frame) == errors_by_key(tiny_run[1])


def test_read_results_reads_gzip_and_falls_back_to_it(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    import gzip

    packed = tmp_path / "results.jsonl.gz"
    packed.write_bytes(gzip.compress(tiny_run[0].read_bytes()))
    expected = read_results(tiny_run[0])
    pd.testing.assert_frame_equal(read_results(packed), expected)
    pd.testing.assert_frame_equal(read_results(tmp_path / "results.jsonl"), expected)  # missing: the .gz is read


def test_reports_write_the_tables_and_unpack_the_committed_results(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    import gzip

    from rulemodels.experiments.reports import cv_table_markdown, packed_results, unpack_results, write_report

    frame = read_results(tiny_run[0])
    report = write_report(frame, tmp_path)
    pd.testing.assert_frame_equal(report.table, table1(frame, require_complete=True))
    for name in ("table1.csv", "table1.md", "nested_selection.csv", "nested_selection.md", "summary.csv"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "table1.md").read_text() == table1_markdown(report.table) + "\n"
    assert cv_table_markdown(frame, "dnf", nested=False).startswith("DNF: mean test error over the outer folds\n| algorithm |")
    out = tmp_path / "packed"
    out.mkdir()
    assert packed_results(out) is None
    (out / "results.jsonl.gz").write_bytes(gzip.compress(tiny_run[0].read_bytes()))
    assert packed_results(out) == out / "results.jsonl.gz"
    assert unpack_results(out / "results.jsonl.gz") == out / "results.jsonl"
    assert (out / "results.jsonl").read_bytes() == tiny_run[0].read_bytes() and packed_results(out) is None


def test_a_corrupt_line_inside_the_file_is_a_clear_error(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    lines = lines_of(tiny_run[0])
    path = tmp_path / "results.jsonl"
    path.write_bytes(lines[0] + b"{not json\n" + lines[1])
    with pytest.raises(ValueError, match="line 2: not a JSON result record"):
        run_experiments(tiny_grid(), path, backend="sequential")
    with pytest.raises(ValueError, match="line 2"):
        read_results(path)


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    path = tmp_path / "results.jsonl"
    with open(path, "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RuntimeError, match="being written by another run_experiments"):
            run_experiments(tiny_grid()[:1], path, backend="sequential")
    assert path.read_bytes() == b""


_CHILD = """
import sys
from rulemodels.experiments import make_grid, run_experiments
tasks = make_grid(["liver"], ["am", "scs"], [1, 2], [0.001, 0.01, 0.1, 1.0, 5.0], n_folds=2, n_thresholds=5, max_iter=5)
run_experiments(tasks, sys.argv[1], backend="sequential")
"""


def kill_grid() -> list[Task]:
    return make_grid(["liver"], ["am", "scs"], [1, 2], [0.001, 0.01, 0.1, 1.0, 5.0], n_folds=2, n_thresholds=5, max_iter=5)


@pytest.mark.slow
def test_sigkill_mid_sweep_then_resume(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and child.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= 1:
                break
            time.sleep(0.01)
        assert child.poll() is None, "the child finished (or failed) before it could be killed"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]  # whatever follows is a cut line
    n_before = complete.count(b"\n")
    grid = kill_grid()
    assert 1 <= n_before < len(grid)

    frame = run_experiments(grid, path, backend="sequential")
    assert path.read_bytes().startswith(complete)
    keys = keys_in(path)
    assert len(keys) == len(set(keys)) == len(grid) == len(frame)
    assert frame["error"].isna().all()


def test_keyboard_interrupt_keeps_written_records_and_resumes(
    tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "results.jsonl"
    grid = tiny_grid()
    units = make_units(grid)
    assert len(units) == 2  # one per fold
    calls = []
    original = cells._run_cell

    def interrupted_run_cell(task: Task, *args) -> dict:
        calls.append(task.key)
        if len(calls) == len(units[0]) + 2:  # Ctrl-C arrives during the second fit of the second fold
            raise KeyboardInterrupt
        return original(task, *args)

    monkeypatch.setattr(cells, "_run_cell", interrupted_run_cell)
    with pytest.raises(KeyboardInterrupt):
        run_experiments(grid, path, backend="sequential")
    monkeypatch.undo()
    written = path.read_bytes()
    assert written.endswith(b"\n")
    # The first fold's records were appended when it finished; the fold in flight is lost.
    assert sorted(keys_in(path)) == sorted(task.key for task in units[0].tasks)
    frame = run_experiments(grid, path, backend="sequential")
    assert path.read_bytes().startswith(written)
    assert len(keys_in(path)) == len(set(keys_in(path))) == len(grid)
    assert errors_by_key(frame) == errors_by_key(tiny_run[1])


def outcomes(frame: pd.DataFrame) -> pd.DataFrame:
    """The records without the fields that say when, where and how fast they were computed."""
    return frame.drop(columns=["wall_time", "finished_at", "host"]).set_index("key").sort_index()


@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.slow
def test_joblib_gives_the_sequential_records(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame], n_jobs: int) -> None:
    path = tmp_path / "results.jsonl"
    frame = run_experiments(tiny_grid(), path, backend="joblib", n_jobs=n_jobs)
    assert len(lines_of(path)) == len(tiny_grid())
    pd.testing.assert_frame_equal(outcomes(frame), outcomes(tiny_run[1]))


@pytest.mark.slow
def test_dask_gives_the_sequential_records(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "results.jsonl"
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    try:
        frame = run_experiments(tiny_grid(), path, backend="dask", scheduler=cluster.scheduler_address)
    finally:
        cluster.close()
    keys = keys_in(path)
    assert len(keys) == len(set(keys)) == len(tiny_grid())
    pd.testing.assert_frame_equal(outcomes(frame), outcomes(tiny_run[1]))


def test_a_task_alone_gives_the_record_it_has_among_its_fold(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    """``run_task`` (a unit of one task, its own workspace) equals the record computed on the fold's shared workspace."""
    together = outcomes(tiny_run[1])
    for task in tiny_grid()[::3]:
        alone = outcomes(pd.DataFrame([run_task(task)]))
        shared = together.loc[[task.key]]
        columns = [c for c in together.columns if c not in ("n_solves", "n_builds")]  # what sharing saves differs
        pd.testing.assert_frame_equal(alone[columns], shared[columns], check_dtype=False)


def test_units_group_the_tasks_of_one_training_set() -> None:
    grid = make_grid(["liver", "pima"], ["scs", "am"], [1, 2], [0.1, 1.0], n_folds=3, inner_folds=2)
    units = make_units(grid)
    assert sum(len(unit) for unit in units) == len(grid)
    assert len(units) == 2 * 3 * (1 + 2)  # datasets x folds x (outer + inner folds)
    for unit in units:
        sets = {(t.dataset, t.fold, t.inner_fold, t.n_thresholds, t.solver) for t in unit.tasks}
        assert len(sets) == 1
        order = [(PAPER_ALGORITHMS.index(t.algorithm), t.n_clauses, t.theta) for t in unit.tasks]
        assert order == sorted(order)  # by algorithm, R, θ: a TLP relaxation is re-used across θ
    assert make_units(grid[::-1]) == units  # the grouping does not depend on the input order


def test_failing_tasks_are_recorded_and_do_not_stop_the_sweep(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    good = tiny_grid()[0]
    bad_algorithm = Task("liver", "bogus", 1, 0.001, 1, 2, n_thresholds=3, max_iter=3)
    path = tmp_path / "results.jsonl"
    frame = run_experiments([good, bad_algorithm], path, backend="sequential").set_index("key")
    assert len(frame) == 2
    assert "algorithm" in frame.loc[bad_algorithm.key, "error"] and "bogus" in frame.loc[bad_algorithm.key, "error"]
    assert pd.isna(frame.loc[bad_algorithm.key, "test_error"])
    assert frame.loc[good.key, "error"] is None or pd.isna(frame.loc[good.key, "error"])
    assert frame.loc[good.key, "test_error"] == errors_by_key(tiny_run[1])[good.key]
    assert len(path.read_text().splitlines()) == 3  # the failing task was tried once more in the run
    summary = summarize(frame.reset_index())
    failed = summary[summary["algorithm"] == "bogus"].iloc[0]
    assert failed["n_errors"] == 1 and failed["n_folds_done"] == 0 and not failed["complete"]
    # run_task itself never raises for a failing fit.
    assert run_task(bad_algorithm)["error"] is not None


@pytest.mark.parametrize("where", ["data", "fit"])
def test_a_ctrl_c_that_an_exception_lost_still_stops_the_sweep(tmp_path: Path, monkeypatch, where: str) -> None:
    """Old pandas' C CSV parser turns a Ctrl-C into a ParserError that does not chain it: still an interrupt."""
    import rulemodels.algorithms.training as workspace_module

    def lose_the_interrupt(*args, **kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler raises KeyboardInterrupt here
        except KeyboardInterrupt:
            pass
        raise ValueError("Error tokenizing data. C error: Calling read(nbytes) on source failed.")

    if where == "data":
        monkeypatch.setattr(cells, "_load_task_data", lose_the_interrupt)
    else:
        monkeypatch.setattr(workspace_module.TrainingWorkspace, "learn", lose_the_interrupt)
    path = tmp_path / "results.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_experiments(tiny_grid()[:2], path, backend="sequential")
    assert path.read_text() == ""  # no failed-task record: an interrupt is never a result
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_wrapped_ctrl_c_from_the_executor_is_reported_as_an_interrupt(tmp_path: Path, monkeypatch, caplog) -> None:
    """joblib or dask can hand the sweep a Ctrl-C wrapped in their own error: the run still says how to resume."""
    def executor_error(unit):
        raise RuntimeError("the pool stopped") from KeyboardInterrupt()

    monkeypatch.setattr(cells, "run_unit", executor_error)
    with caplog.at_level("WARNING", logger="rulemodels.experiments"), pytest.raises(KeyboardInterrupt):
        run_experiments(tiny_grid()[:2], tmp_path / "results.jsonl", backend="sequential")
    assert "run again to resume" in caplog.text


def test_a_ctrl_c_that_the_pool_swallows_still_stops_the_sweep(tmp_path: Path, monkeypatch, caplog) -> None:
    """A pool that catches a Ctrl-C in its own code and goes on delivering results.

    The sweep stops at the next result, says how to resume, and keeps the records written so far.
    """
    from rulemodels.experiments import execute

    def swallowing(units):
        for index, unit in enumerate(units):
            if index == 1:
                try:  # the pool's own code gets the Ctrl-C and catches it
                    os.kill(os.getpid(), signal.SIGINT)
                    time.sleep(5)
                except KeyboardInterrupt:
                    pass
            yield cells.run_unit(unit)

    monkeypatch.setattr(execute, "_run_sequential", swallowing)
    grid = make_grid(["liver"], ["scs"], [1], TINY_THETAS, **{**TINY, "n_folds": 4})
    assert len(make_units(grid)) == 4
    path = tmp_path / "results.jsonl"
    with caplog.at_level("WARNING", logger="rulemodels.experiments"), pytest.raises(KeyboardInterrupt):
        run_experiments(grid, path, backend="sequential")
    assert "run again to resume" in caplog.text
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert 1 <= len(written) < len(grid)  # the records before the Ctrl-C and the one delivered with it, no more
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_error_without_a_ctrl_c_is_still_a_failed_task(tmp_path: Path, monkeypatch) -> None:
    def fail(*args, **kwargs):
        raise ValueError("a broken file")

    monkeypatch.setattr(cells, "_load_task_data", fail)
    frame = run_experiments(tiny_grid()[:2], tmp_path / "results.jsonl", backend="sequential", retry=False)
    assert frame["error"].str.contains("a broken file").all()


def test_a_missing_solver_is_refused_before_the_sweep_and_never_recorded(tmp_path: Path) -> None:
    from solvers import SolverNotFoundError

    good = tiny_grid()[0]
    bad_solver = Task("liver", "scs", 1, 0.001, 0, 2, n_thresholds=3, max_iter=3, solver="no_such_solver")
    path = tmp_path / "results.jsonl"
    with pytest.raises(SolverNotFoundError, match="no_such_solver"):
        run_experiments([good, bad_solver], path, backend="sequential")
    assert path.read_text() == ""
    with pytest.raises(SolverNotFoundError):  # run_unit: an environment fault, not a task's result
        run_task(bad_solver)


def test_csv_dataset_gives_the_bundled_results(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("liver")
    csv = tmp_path / "liver_copy.csv"
    X.assign(outcome=np.where(y == 1, "sick", "healthy")).to_csv(csv, index=False)
    spec = CSVData(csv, target="outcome", positive="sick")
    grid = make_grid([spec], ["am"], [2], [5.0], **TINY)
    assert grid[0].dataset == "liver_copy" and grid[0].data_sha256 and "@" in grid[0].key
    frame = run_experiments(grid, tmp_path / "results.jsonl", backend="sequential")
    reference = tiny_run[1].set_index("key")
    for record in frame.itertuples():
        twin = Task("liver", "am", 2, 5.0, record.fold, 2, n_thresholds=3, max_iter=3)
        assert record.error is None or pd.isna(record.error)
        assert record.test_error == reference.loc[twin.key, "test_error"]
    # A file changed after the grid was made is detected by the worker.
    csv.write_text(csv.read_text().replace("sick", "ill"))
    assert "changed since the grid was made" in run_task(grid[0])["error"]
    with pytest.raises(ValueError, match="not a value of 'outcome'"):
        make_grid([spec], ["am"], [2], [5.0], **TINY)


# -- analysis --------------------------------------------------------------------


def test_summary_table1_nested_and_markdown(tiny_run: tuple[Path, pd.DataFrame]) -> None:
    results = tiny_run[1]
    summary = summarize(results)
    assert len(summary) == 2 * 2 * len(TINY_THETAS)
    assert (summary["n_folds_done"] == 2).all() and summary["complete"].all() and (summary["n_errors"] == 0).all()
    check = results.groupby(["algorithm", "n_clauses", "theta"])["test_error"].mean()
    for row in summary.itertuples():
        assert row.test_error_mean == pytest.approx(check[(row.algorithm, row.n_clauses, row.theta)])

    table = table1(results)
    assert len(table) == 4
    assert list(table["algorithm"]) == ["scs", "am", "scs", "am"]  # the paper's column order within each R
    for row in table.itertuples():
        cells = summary[(summary["algorithm"] == row.algorithm) & (summary["n_clauses"] == row.n_clauses)]
        assert row.test_error == cells["test_error_mean"].min()
        assert row.theta in set(cells.loc[cells["test_error_mean"] == row.test_error, "theta"])
        assert row.paper == pytest.approx(PAPER_TABLE1[("liver", row.n_clauses, row.algorithm)] / 100)

    nested = nested_cv_selection(results)
    assert list(nested.columns[:5]) == ["dataset", "algorithm", "n_clauses", "nested_test_error", "paper_style_min_error"]
    assert nested.empty  # no inner fits in this grid: nested CV has nothing to choose from

    markdown = table1_markdown(table)
    lines = markdown.strip().splitlines()
    assert lines[0] == "| dataset | R | SCS | AM |"
    assert len(lines) == 2 + 2
    first = table[(table["n_clauses"] == 1) & (table["algorithm"] == "scs")].iloc[0]
    assert f"| liver | 1 | {100 * first.test_error:.1f} (42.0) |" in markdown
    assert "(34.2)" in lines[3]  # liver R=2 AM in the paper


def _record(task: Task, test_error: float) -> dict:
    return {**task.to_dict(), "key": task.key, "test_error": test_error, "train_error": 0.2,
            "n_literals": 2, "n_features": 2, "error": None}


def test_nested_selection_on_a_known_grid() -> None:
    # Two θ, three outer folds, two inner folds each. On the test folds θ=1 is best
    # (the paper's statistic picks it), but the inner CV of folds 1 and 2 prefers θ=0.1.
    outer = {0.1: [0.0, 0.5, 0.5], 1.0: [0.3, 0.3, 0.3]}
    inner = {0.1: [(0.4, 0.4), (0.1, 0.2), (0.2, 0.2)], 1.0: [(0.3, 0.2), (0.3, 0.3), (0.2, 0.2)]}
    rows = []
    for theta in outer:
        for fold in range(3):
            rows.append(_record(Task("liver", "am", 1, theta, fold, 3), outer[theta][fold]))
            for j in range(2):
                task = Task("liver", "am", 1, theta, fold, 3, inner_fold=j, n_inner_folds=2)
                rows.append(_record(task, inner[theta][fold][j]))
    results = pd.DataFrame(rows)
    nested = nested_cv_selection(results).iloc[0]
    # fold 0: 0.4 vs 0.25 -> θ=1; fold 1: 0.15 vs 0.3 -> θ=0.1; fold 2: a tie -> the larger θ, 1.
    assert nested["selected_thetas"] == (1.0, 0.1, 1.0)
    assert nested["nested_test_error"] == pytest.approx((0.3 + 0.5 + 0.3) / 3)
    assert nested["inner_cv_error"] == pytest.approx((0.25 + 0.15 + 0.2) / 3)
    assert nested["paper_style_min_error"] == pytest.approx(0.3)
    assert nested["optimism"] == pytest.approx(nested["nested_test_error"] - 0.3)
    assert (nested["n_folds"], nested["n_inner_folds"]) == (3, 2)
    # The inner fits are not folds of the protocol: the summary and Table 1 ignore them.
    outer_only = results[results["inner_fold"].isna()]
    pd.testing.assert_frame_equal(summarize(results), summarize(outer_only))
    assert table1(results).iloc[0]["theta"] == 1.0
    # A missing inner fit leaves the cell out rather than choosing from fewer folds.
    missing = results.drop(index=results.index[(results["inner_fold"] == 1) & (results["fold"] == 2)])
    assert nested_cv_selection(missing).empty
    # Results written before nested CV existed (no inner columns) still summarize.
    legacy = outer_only.drop(columns=["inner_fold", "n_inner_folds"])
    pd.testing.assert_frame_equal(summarize(legacy), summarize(outer_only))


@pytest.fixture(scope="module")
def nested_run(tmp_path_factory: pytest.TempPathFactory) -> pd.DataFrame:
    """SCS on liver: 2 outer folds x 2 inner folds x 2 θ x R in {1, 2}, run sequentially."""
    grid = make_grid(["liver"], ["scs"], [1, 2], TINY_THETAS, inner_folds=2, **TINY)
    return run_experiments(grid, tmp_path_factory.mktemp("nested") / "results.jsonl", backend="sequential")


def test_inner_fits_split_the_training_fold_only(nested_run: pd.DataFrame) -> None:
    assert nested_run["error"].isna().all()
    inner = nested_run[nested_run["inner_fold"].notna()]
    outer = nested_run[nested_run["inner_fold"].isna()]
    assert len(outer) == 2 * 2 * 2 and len(inner) == 2 * len(outer)
    assert all(key.endswith(("|inner=0/2", "|inner=1/2")) for key in inner["key"])
    n_samples = len(load_dataset("liver")[1])
    outer_train = dict(zip(outer["fold"], outer["n_train"], strict=False))
    for row in inner.itertuples():
        # the inner fit and its validation fold partition the outer training fold
        assert row.n_train + row.n_test == outer_train[row.fold] < n_samples
        assert abs(row.n_test - outer_train[row.fold] / 2) <= 1
    # an inner fit equals an outer fit of a 2-fold CV of the outer training data: check one by hand
    X, y = load_dataset("liver")
    y = y.to_numpy().astype(int)
    train, _ = next(StratifiedKFold(2, shuffle=True, random_state=0).split(X, y))
    fit_idx, val_idx = list(StratifiedKFold(2, shuffle=True, random_state=0).split(train, y[train]))[1]
    row = inner[(inner["n_clauses"] == 2) & (inner["theta"] == TINY_THETAS[0]) & (inner["fold"] == 0) & (inner["inner_fold"] == 1)].iloc[0]
    model = BooleanRuleClassifier(algorithm="scs", n_clauses=2, theta=TINY_THETAS[0], n_thresholds=3, max_iter=3,
                                  thresholds="quantile", prune=False, min_literal_rows=0)  # the protocol's binarization, unpruned, no floor
    model.fit(X.iloc[train[fit_idx]], y[train[fit_idx]])
    assert row["test_error"] == pytest.approx(np.mean(model.predict(X.iloc[train[val_idx]]) != y[train[val_idx]]))


def test_nested_selection_of_a_run_matches_a_direct_computation(nested_run: pd.DataFrame) -> None:
    nested = nested_cv_selection(nested_run)
    assert sorted(nested["n_clauses"]) == [1, 2]
    for cell in nested.itertuples():
        records = nested_run[nested_run["n_clauses"] == cell.n_clauses]
        expected_thetas, expected_errors = [], []
        for fold in range(2):
            inner = records[(records["fold"] == fold) & records["inner_fold"].notna()]
            means = inner.groupby("theta")["test_error"].mean()
            theta = max(t for t, m in means.items() if m == means.min())
            expected_thetas.append(theta)
            outer = records[(records["fold"] == fold) & records["inner_fold"].isna() & (records["theta"] == theta)]
            expected_errors.append(float(outer["test_error"].iloc[0]))
        assert cell.selected_thetas == tuple(expected_thetas)
        assert cell.nested_test_error == pytest.approx(np.mean(expected_errors))


def test_inner_fold_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="set together"):
        Task("liver", "am", 1, 0.1, 0, 3, inner_fold=0)
    with pytest.raises(ValueError, match="n_inner_folds must be at least 2"):
        Task("liver", "am", 1, 0.1, 0, 3, inner_fold=0, n_inner_folds=1)
    with pytest.raises(ValueError, match=r"inner_fold must be in \[0, 2\]"):
        Task("liver", "am", 1, 0.1, 0, 3, inner_fold=3, n_inner_folds=3)
    with pytest.raises(TypeError, match="inner_fold must be an integer or None"):
        Task("liver", "am", 1, 0.1, 0, 3, inner_fold=0.5, n_inner_folds=3)
    with pytest.raises(ValueError, match="inner_folds must be 0"):
        make_grid(["liver"], ["am"], [1], [0.1], inner_folds=1)
    task = Task("liver", "am", 1, 0.1, 0, 3, inner_fold=np.int64(2), n_inner_folds=3)
    assert task.is_inner and Task.from_record({**task.to_dict(), "inner_fold": 2.0, "n_inner_folds": 3.0}) == task
    assert not Task.from_record({k: v for k, v in task.to_dict().items() if "inner" not in k}).is_inner


@pytest.mark.slow
def test_pareto_front_and_plot(tmp_path: Path, tiny_run: tuple[Path, pd.DataFrame]) -> None:
    summary = summarize(tiny_run[1])
    for by in ("n_clauses", "algorithm"):
        points = pareto_front(summary, by=by)
        assert len(points) == len(summary)
        for _, group in points.groupby(["algorithm", "n_clauses"]):
            assert group["on_test_front"].any() and group["on_train_front"].any()
            front = group[group["on_test_front"]]
            for p in front.itertuples():
                dominated = (group["complexity"] <= p.complexity) & (group["test_error"] <= p.test_error) & (
                    (group["complexity"] < p.complexity) | (group["test_error"] < p.test_error))
                assert not dominated.any()
            for p in group[~group["on_test_front"]].itertuples():
                assert ((group["complexity"] <= p.complexity) & (group["test_error"] <= p.test_error)).sum() >= 2
    with pytest.raises(ValueError, match="by must be one of"):
        pareto_front(summary, by="theta")

    by_r = plot_pareto(summary, "liver", "n_clauses", tmp_path / "am.png", algorithm="am")
    by_algorithm = plot_pareto(summary, "liver", "algorithm", tmp_path / "r2.png", n_clauses=2)
    for png in (by_r, by_algorithm):
        assert png.stat().st_size > 1000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="choose one with algorithm="):
        plot_pareto(summary, "liver", "n_clauses", tmp_path / "x.png")


def test_a_polished_task_has_its_own_key_and_fits_as_the_polished_estimator():
    plain = Task("liver", "am", 1, 0.02, fold=0, n_folds=10, n_thresholds=2)
    polished = dataclasses.replace(plain, polish=5)
    assert plain.key.endswith("time_limit=none")  # the keys of unpolished fits are unchanged
    assert polished.key == plain.key + "|polish=5.0"
    assert polished.polish == 5.0 and isinstance(polished.polish, float)
    with pytest.raises(ValueError, match="'polish' parameter of Task must be a float in the range"):
        dataclasses.replace(plain, polish=0)
    record = run_task(polished)
    assert record["error"] is None and record["polish"] == 5.0
    X, y = load_dataset("liver")
    train, _ = next(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))
    clf = BooleanRuleClassifier(
        algorithm="am", n_clauses=1, theta=0.02, theta_unit="sample", n_thresholds=2, simplify=False, polish=5,
        thresholds="quantile", prune=False, min_literal_rows=0,  # the protocol's binarization, unpruned, no floor
    ).fit(X.iloc[train], y.iloc[train])
    assert record["objective"] == pytest.approx(clf.objective_)
    assert Rule.from_json(record["rule"]) == clf.raw_rule_
    assert make_grid(["liver"], ["am"], [1], [0.02], polish=5)[0].polish == 5.0
