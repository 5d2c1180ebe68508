"""Never lose a user's work: outputs checked before any work, written atomically; a closed or
broken stdout never turns a failure into exit 0 nor skips a file; the smaller CLI defects of that issue."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rulemodels.cli import main
from rulemodels.outputs import OutputError, atomic_write, check_output

RULEMODELS = [sys.executable, "-m", "rulemodels"]


def run(*argv: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    """The CLI in a subprocess (text output, a time cap); kwargs go to subprocess.run."""
    kwargs.setdefault("capture_output", True)
    return subprocess.run([*RULEMODELS, *argv], cwd=cwd, text=True, timeout=300, **kwargs)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A small CSV (with an ID column) and a rule file fitted on it."""
    from rulemodels import load_dataset

    folder = tmp_path_factory.mktemp("outputs")
    X, y = load_dataset("liver")
    frame = X.copy()
    frame.insert(0, "patient", [f"p{k:04d}" for k in range(len(frame))])
    frame["selector"] = y.to_numpy()
    frame.to_csv(folder / "data.csv", index=False)
    # more predictions than a pipe holds (64 KiB): a reader that goes away makes the writer fail
    pd.concat([frame] * 200, ignore_index=True).to_csv(folder / "big.csv", index=False)
    done = run("fit", "data.csv", "--target", "selector", "--clauses", "1", "--out", "rule.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_check_output_refuses_what_cannot_be_written_safely(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("a\n1\n")
    with pytest.raises(OutputError, match="is empty"):
        check_output("")
    with pytest.raises(OutputError, match="does not exist; create it first"):
        check_output(tmp_path / "missing" / "r.json")
    with pytest.raises(OutputError, match="is a directory"):
        check_output(tmp_path)
    with pytest.raises(OutputError, match="not a regular file"):
        check_output("/dev/null")
    with pytest.raises(OutputError, match="is the DATA this command reads"):
        check_output(tmp_path / "." / "d.csv", inputs=[("DATA", data)])
    link = tmp_path / "link.csv"
    link.symlink_to(data)
    with pytest.raises(OutputError, match="is the DATA"):
        check_output(link, inputs=[("DATA", data)])
    assert check_output(tmp_path / "new.json", inputs=[("DATA", data)]) == tmp_path / "new.json"


def test_atomic_write_leaves_the_old_file_and_no_temporary_file_when_the_writing_fails(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old content\n")
    os.chmod(target, 0o640)
    with pytest.raises(RuntimeError):
        with atomic_write(target) as handle:
            handle.write("half of the new")
            raise RuntimeError("stopped half-way")
    assert target.read_text() == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(target) as handle:
            handle.write("half")
            raise KeyboardInterrupt
    assert target.read_text() == "old content\n"
    with atomic_write(target) as handle:
        handle.write("new\n")
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640  # the file keeps its permissions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_atomic_write_through_a_symbolic_link_replaces_the_file_it_points_to_and_keeps_the_link(tmp_path):
    """``--out latest.json`` where latest.json links to a dated file: the link stays a link (it was replaced by a
    regular file before, so the dated file silently kept the old rule)."""
    (tmp_path / "runs").mkdir()
    real = tmp_path / "runs" / "2026-11-24.json"
    real.write_text("old\n")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    with atomic_write(link) as handle:
        handle.write("new\n")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new\n"
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["2026-11-24.json"]  # no temporary file left


@pytest.mark.parametrize(
    "argv, message",
    [
        (["fit", "data.csv", "--target", "selector", "--out", "data.csv"], "is the DATA this command reads"),
        (["predict", "rule.json", "data.csv", "--out", "data.csv"], "is the DATA.csv this command reads"),
        (["predict", "rule.json", "data.csv", "--out", "rule.json"], "is the RULE.json this command reads"),
        (["export", "rule.json", "--out", "rule.json"], "is the RULE.json this command reads"),
        (["report", "rule.json", "data.csv", "--out", "data.csv"], "is the DATA.csv this command reads"),
        (["report", "rule.json", "data.csv", "--out", "rule.json"], "is the RULE.json this command reads"),
        (["cv", "data.csv", "--target", "selector", "--results", "data.csv"], "is the DATA this command reads"),
        (["fit", "data.csv", "--target", "selector", "--out", "no/such/dir/r.json"], "does not exist"),
        (["fit", "data.csv", "--target", "selector", "--out", ""], "--out is empty"),
        (["predict", "rule.json", "data.csv", "--out", ""], "--out is empty"),
        (["export", "rule.json", "--out", "."], "is a directory"),
        (["cv", "data.csv", "--target", "selector", "--results", "/dev/null"], "not a regular file"),
        (["reproduce", "--datasets", "liver", "--out", "data.csv"], "is not a directory"),
    ],
)
def test_an_output_that_would_destroy_an_input_or_cannot_be_written_exits_2_before_any_work(workdir, argv, message):
    before = {name: digest(workdir / name) for name in ("data.csv", "rule.json")}
    done = run(*argv, cwd=workdir)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "data:" not in done.stdout  # refused before the data was read or a rule learned
    assert {name: digest(workdir / name) for name in before} == before


@pytest.mark.slow
def test_fit_writes_its_rule_even_when_stdout_is_a_pipe_closed_after_one_line(workdir, tmp_path):
    """``fit --out r.json | head -1``: the rule is saved before anything is printed."""
    out = tmp_path / "r.json"
    command = [*RULEMODELS, "fit", str(workdir / "data.csv"), "--target", "selector", "--clauses", "2", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()  # the reader goes away, like head -1
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=300) == 0, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert json.loads(out.read_text())["format"] == "rulemodels.model"


@pytest.mark.slow
def test_predictions_to_a_closed_or_broken_stdout_exit_1(workdir):
    """``predict R D >&-`` and ``predict R D | head -1``: the predictions are lost, so the command fails."""
    closed = run("predict", "rule.json", "data.csv", cwd=workdir, stdout=None, capture_output=False,
                 stderr=subprocess.PIPE, pass_fds=(), preexec_fn=lambda: os.close(1))
    assert closed.returncode == 1
    assert "could not be written to stdout (it is closed)" in closed.stderr
    process = subprocess.Popen([*RULEMODELS, "predict", "rule.json", "big.csv"], cwd=workdir,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=300) == 1
    assert "its reader closed the pipe" in stderr and "Traceback" not in stderr
    exported = run("export", "rule.json", cwd=workdir, stdout=None, capture_output=False, stderr=subprocess.PIPE,
                   preexec_fn=lambda: os.close(1))
    assert exported.returncode == 1


@pytest.mark.slow
def test_a_failure_is_not_turned_into_success_by_a_broken_stdout(workdir, tmp_path):
    """A command that fails still exits 1 and says why when its stdout reader went away."""
    command = [*RULEMODELS, "fit", str(workdir / "data.csv"), "--target", "selector", "--solver", "nosuchsolver"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=300) == 1
    assert "unknown solver 'nosuchsolver'" in stderr


def test_the_cv_failure_list_survives_a_broken_stdout(tmp_path, monkeypatch):
    """``cv ... | head``: the failed tasks are still listed on stderr and the exit status is 1."""
    from rulemodels.experiments import cells

    def failing(unit):
        return [cells.error_record(task, RuntimeError("boom"), None) for task in unit.tasks]

    monkeypatch.setattr(cells, "run_unit", failing)

    class Broken:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    stderr = []

    class Err:
        def write(self, text):
            stderr.append(text)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Broken())
    monkeypatch.setattr(sys, "stderr", Err())
    status = main(["cv", "liver", "--algorithms", "scs", "--clauses", "1", "--thetas", "0.01", "--folds", "2",
                   "--backend", "sequential", "--results", str(tmp_path / "cv.jsonl")])
    assert status == 1
    assert "tasks have no result" in "".join(stderr)


def test_predict_out_is_complete_or_absent_and_equals_stdout(workdir, tmp_path):
    to_stdout = run("predict", "rule.json", "data.csv", cwd=workdir)
    out = tmp_path / "p.csv"
    to_file = run("predict", "rule.json", "data.csv", "--out", str(out), cwd=workdir)
    assert to_file.returncode == 0 and to_stdout.returncode == 0
    assert out.read_text() == to_stdout.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["p.csv"]


# -- the smaller items ------------------------------------------------------------


def test_positive_label_with_surrounding_spaces_is_the_positive_class(tmp_path, capsys):
    frame = pd.DataFrame({"x": np.arange(40) % 7, "label": ["yes ", "no"] * 10 + ["yes", " no"] * 10})
    frame.to_csv(tmp_path / "d.csv", index=False)
    from rulemodels.data import load_data

    data = load_data(str(tmp_path / "d.csv"), "label", "yes")
    assert data.y.tolist() == [1, 0] * 20
    assert data.classes == ("no", "yes")
    assert main(["fit", str(tmp_path / "d.csv"), "--target", "label", "--positive", "yes", "--clauses", "1"]) == 0
    assert "20 positive" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["nan", "-1", "inf"])
def test_exact_mip_gap_must_be_a_finite_number_at_least_0(value, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["exact", "liver", "--mip-gap", value])
    assert stop.value.code == 2
    assert "--mip-gap: must be a number >= 0" in capsys.readouterr().err


def test_exact_sample_must_be_at_least_1(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["exact", "liver", "--sample", "0"])
    assert stop.value.code == 2
    assert "--sample: must be an integer >= 1" in capsys.readouterr().err


def test_an_empty_separator_is_a_usage_error_that_says_so(workdir, capsys):
    assert main(["fit", str(workdir / "data.csv"), "--target", "selector", "--sep", ""]) == 2
    assert "the CSV separator is empty" in capsys.readouterr().err


def test_missing_value_texts_can_be_turned_off(tmp_path, capsys):
    """``None``, ``NA`` and ``null`` are missing by default; with --no-default-na they are categories."""
    frame = pd.DataFrame({"code": ["None", "NA", "A", "B"] * 10, "label": [1, 1, 0, 0] * 10})
    frame.to_csv(tmp_path / "d.csv", index=False)
    from rulemodels.data import CSVOptions, read_features

    default = read_features(tmp_path / "d.csv")
    assert default["code"].isna().sum() == 20
    kept = read_features(tmp_path / "d.csv", CSVOptions(default_na=False))
    assert kept["code"].isna().sum() == 0
    assert main(["fit", str(tmp_path / "d.csv"), "--target", "label", "--no-default-na", "--clauses", "1"]) == 0
    out = capsys.readouterr().out
    assert "training error: 0.0000" in out and "code" in out


def test_non_utf8_and_ragged_csvs_name_the_file_and_what_to_do(tmp_path, capsys):
    latin = tmp_path / "latin.csv"
    latin.write_bytes("name,label\ncaf\xe9,1\nthé,0\n".encode("latin-1"))
    assert main(["fit", str(latin), "--target", "label"]) == 1
    err = capsys.readouterr().err
    assert f"data file '{latin}' is not utf-8 text" in err and "--encoding latin-1" in err
    from rulemodels.data import CSVOptions, read_features

    assert read_features(latin, CSVOptions(encoding="latin-1"))["name"].tolist() == ["café", "thé"]
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("a,b,label\n1,2,0\n3,4,1,5\n")
    assert main(["fit", str(ragged), "--target", "label"]) == 1
    err = capsys.readouterr().err
    assert f"data file '{ragged}' is not a well-formed CSV table" in err
    assert "Expected 3 fields in line 3, saw 4" in err and "--sep" in err
    assert main(["fit", str(ragged), "--target", "label", "--encoding", "klingon"]) == 2
    assert "unknown text encoding 'klingon'" in capsys.readouterr().err


def test_fit_does_not_count_a_dropped_id_column_among_the_features(workdir, capsys):
    assert main(["fit", str(workdir / "data.csv"), "--target", "selector", "--clauses", "1"]) == 0
    captured = capsys.readouterr()
    assert "6 features (ID-like column 'patient' left out)" in captured.out  # liver: 6 features and the ID
    assert "'patient'" in captured.err  # the ID-like warning


def test_sigterm_is_an_interrupt_with_exit_143_in_process():
    """The CLI's SIGTERM handler raises Terminated (a KeyboardInterrupt) and main returns 143."""
    from solvers.signals import Terminated, exit_status, find_interrupt, terminating_on_sigterm

    with pytest.raises(Terminated) as info:
        with terminating_on_sigterm():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the signal is handled here
    assert exit_status(info.value) == 143
    assert exit_status(KeyboardInterrupt()) == 130
    wrapped = RuntimeError("wrapped")
    wrapped.__cause__ = info.value
    assert find_interrupt(wrapped) is info.value
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored


def test_an_interrupt_raised_inside_a_destructor_is_not_lost(capsys, monkeypatch):
    """A signal handler can run inside ``__del__``, where Python only prints "Exception ignored": the interrupt is
    kept and the command still stops with the interrupt's status, with no traceback."""
    import rulemodels.cli._main as cli_main
    from solvers.signals import Terminated, keeping_lost_interrupts

    class Finalized:
        def __del__(self):
            raise Terminated()

    with keeping_lost_interrupts() as lost:
        Finalized()  # collected at once: its __del__ raises where nothing can catch it
    assert isinstance(lost.interrupt, Terminated)
    assert "Exception ignored" not in capsys.readouterr().err

    def command(args):
        Finalized()
        return 0

    monkeypatch.setattr(cli_main, "_cmd_solvers", command)  # build_parser binds the handler at call time
    assert cli_main.main(["solvers"]) == 143
    err = capsys.readouterr().err
    assert "terminated (SIGTERM)" in err and "Traceback" not in err and "Exception ignored" not in err


def test_a_background_thread_failing_during_an_interrupt_prints_no_traceback(capsys, monkeypatch):
    """Pyomo's tee reader thread can fail when SIGTERM closes its pipe: no traceback in the middle of the
    command's message; a thread failing in a command that was not interrupted is one warning line."""
    import threading

    import rulemodels.cli._main as cli_main
    from solvers.signals import Terminated

    def failing_thread():
        worker = threading.Thread(target=lambda: (_ for _ in ()).throw(ValueError("I/O operation on closed file")),
                                  name="_mergedReader")
        worker.start()
        worker.join()

    def interrupted(args):
        failing_thread()
        raise Terminated()

    monkeypatch.setattr(cli_main, "_cmd_solvers", interrupted)
    assert cli_main.main(["solvers"]) == 143
    err = capsys.readouterr().err
    assert "Traceback" not in err and "_mergedReader" not in err and "terminated (SIGTERM)" in err

    def finished(args):
        failing_thread()
        return 0

    monkeypatch.setattr(cli_main, "_cmd_solvers", finished)
    assert cli_main.main(["solvers"]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "warning: a background thread (_mergedReader) failed: ValueError: I/O operation on closed file" in err


def test_an_error_after_a_signal_is_the_interrupt(capsys, monkeypatch):
    """Found by the random-moment test: a Ctrl-C during the import of highspy came back as "highspy is not
    installed" (exit 1). Any error raised after a signal arrived is that interrupt (exit 130/143)."""
    import rulemodels.cli._main as cli_main

    def command(args):
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except KeyboardInterrupt:
            pass  # a library swallows it ...
        raise RuntimeError("the Python package 'highspy' is not installed")  # ... and fails for another reason

    monkeypatch.setattr(cli_main, "_cmd_solvers", command)
    assert cli_main.main(["solvers"]) == 143
    err = capsys.readouterr().err
    assert "terminated (SIGTERM)" in err and "not installed" not in err


def test_fit_says_an_id_like_column_keeps_its_missing_indicator(tmp_path, capsys):
    """An ID-like column with missing values (a refund number) has its values left out and keeps its ``is missing``
    literal: the summary says so and counts it among the features; one without missing values is left out."""
    rng = np.random.default_rng(2)
    n = 200
    has_refund = rng.random(n) < 0.5
    frame = pd.DataFrame({
        "order": np.arange(n) + 5000,  # record numbers, never missing: left out entirely
        "refund": np.where(has_refund, np.cumsum(has_refund) + 90_000, np.nan),  # refund numbers, in order
        "age": rng.integers(18, 80, n),
        "label": np.where(rng.random(n) < 0.9, has_refund, ~has_refund).astype(int),
    })
    frame.to_csv(tmp_path / "orders.csv", index=False)
    assert main(["fit", str(tmp_path / "orders.csv"), "--target", "label", "--clauses", "1"]) == 0
    out = capsys.readouterr().out
    assert ("2 features (ID-like column 'order' left out; ID-like column 'refund': values left out, "
            "missing indicator 'refund is missing' kept)") in out
    assert "refund is missing" in out or "refund is not missing" in out  # the kept literal is the rule's
