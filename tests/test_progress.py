"""Long work speaks: delayed progress bars on a terminal and in a notebook, nothing in a pipe; the exact MIP's
incumbent, bound and gap as it goes; and how to bound an exact MIP run without time limit.

The terminal is a pseudo-terminal (``pty.openpty``) given to a real subprocess as its stderr. The solves
last as long as their time limit (liver's exact MIP is far from proved optimal in a few seconds), so a bar
drawn after the two-second delay is certain; nothing asserts how many lines or how many seconds.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import textwrap
import threading
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

import solvers.registry
from rulemodels.cli import main
from solvers import get_backend
from tests.helpers import DelegatingBackend, require_backend

ROOT = Path(__file__).resolve().parents[1]
#: the same interpreter and this checkout's code, whatever the current directory; no TQDM_* setting inherited
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith("TQDM_")},
    "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    "TERM": "xterm", "COLUMNS": "120", "LINES": "40",
}
#: the tqdm text bar of the exact MIP with a time limit: "exact MIP:  40%|####      | 2/5 [...]"
MIP_BAR = "exact MIP: "


def _run(args: list[str], *, terminal: bool, timeout: float = 600) -> tuple[int, str, str]:
    """Run ``args`` with stderr on a pseudo-terminal (``terminal``) or a pipe; (status, stdout, stderr)."""
    if not terminal:
        done = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=timeout, cwd=ROOT)
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    chunks: list[bytes] = []

    def drain() -> None:  # read while the child runs, so that it never blocks on a full terminal
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed its end
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        child = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=ENV, cwd=ROOT)
        os.close(slave)
        stdout, _ = child.communicate(timeout=timeout)
        reader.join(timeout=30)
    finally:
        os.close(master)
    return child.returncode, stdout.decode(), b"".join(chunks).decode(errors="replace")


def _screen(stderr: str) -> list[str]:
    """The lines a terminal shows after ``stderr``: a carriage return goes back to the start of the line, the
    text after it overwrites what was there (cursor movements, which tqdm uses only for nested bars, dropped)."""
    lines: list[list[str]] = [[]]
    column = 0
    for char in re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", stderr.replace("\r\n", "\n")):
        if char == "\r":
            column = 0
        elif char == "\n":
            lines.append([])
            column = 0
        else:
            line = lines[-1]
            line[column:column + 1] = [char]
            column += 1
    return ["".join(line).rstrip() for line in lines]


#: a bar alone on its line: "BCD:  2%|#5      | 2/100 [00:00<00:01, 76.46iter/s]" (nothing written after it)
BAR_LINE = re.compile(r"^\S.*: +\d+%\|.*\]$")


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


CLI = [sys.executable, "-m", "rulemodels"]
EXACT = ["exact", "liver", "--solver", "highs", "--time-limit", "5"]


@pytest.fixture(autouse=True)
def _highs():
    require_backend("highs")


# --------------------------------------------------------------------------- the command line


def test_cli_exact_on_a_terminal_draws_a_bar_with_incumbent_bound_and_gap():
    status, stdout, stderr = _run([*CLI, *EXACT], terminal=True)
    assert status == 0, stderr
    assert MIP_BAR in stderr and "%|" in stderr  # the tqdm bar, drawn after its delay
    assert "incumbent" in stderr and "gap" in stderr
    assert "status: stopped at time limit" in stdout


def test_cli_exact_in_a_pipe_logs_incumbent_bound_and_gap_lines_and_draws_no_bar():
    status, stdout, stderr = _run([*CLI, *EXACT], terminal=False)
    assert status == 0, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("rulemodels: exact MIP")]
    assert lines, stderr
    assert any("incumbent" in line and "bound" in line and "gap" in line and " s:" in line for line in lines)
    assert "%|" not in stderr and "\r" not in stderr  # no bar in a pipe
    assert "Traceback" not in stderr


def test_cli_fit_exact_speaks_at_the_default_verbosity():
    status, stdout, stderr = _run([*CLI, "fit", "liver", "--algorithm", "exact", "--solver", "highs", "--time-limit", "4"],
                                  terminal=False)
    assert status == 0, stderr
    assert any(line.startswith("rulemodels: exact MIP") and "incumbent" in line and "gap" in line for line in stderr.splitlines())


class _ShortenedBackend(DelegatingBackend):
    """Solves with a one-second time limit whatever the caller asked: a run "without time limit" that ends."""

    def solve(self, model, **kwargs):
        return self.inner.solve(model, **{**kwargs, "time_limit": 1.0})


@pytest.fixture
def shortened(monkeypatch):
    monkeypatch.setitem(solvers.registry._REGISTRY, "shortened", lambda **o: _ShortenedBackend(get_backend("highs", **o)))
    return "shortened"


def test_exact_without_time_limit_says_how_to_bound_it(shortened, capsys):
    assert main(["exact", "liver", "--solver", shortened]) in (0, 1)  # 1: no incumbent in one second
    err = capsys.readouterr().err
    advice = [line for line in err.splitlines() if "no time limit" in line]
    assert len(advice) == 1, err
    assert "--time-limit 60" in advice[0] and "time_limit=60" in advice[0]


def test_a_tiny_exact_mip_without_time_limit_says_nothing(capsys):
    from rulemodels.algorithms.mip_progress import NO_LIMIT_ADVICE_SIZE

    assert main(["exact", "liver", "--sample", "20", "--clauses", "1", "--thresholds", "2", "--solver", "highs"]) == 0
    err = capsys.readouterr().err
    assert "no time limit" not in err and "exact MIP" not in err
    assert 20 * 8 < NO_LIMIT_ADVICE_SIZE  # 20 rows x a few literals is well below the threshold


# --------------------------------------------------------------------------- Python


FIT = """
    from rulemodels import BooleanRuleClassifier
    from rulemodels.datasets import load_dataset
    X, y = load_dataset("liver")
    BooleanRuleClassifier(algorithm="exact", solver="highs", time_limit=4, verbose={verbose}).fit(X, y)
    print("fitted")
"""


def test_python_fit_on_a_terminal_draws_a_bar_by_default():
    status, stdout, stderr = _run(_python(FIT.format(verbose=0)), terminal=True)
    assert status == 0, stderr
    assert "fitted" in stdout
    assert MIP_BAR in stderr and "%|" in stderr and "incumbent" in stderr


#: run in a child whose stderr is a terminal, with the bars drawn at once (no two-second delay)
NO_DELAY = "import rulemodels.utils._progress as progress; progress.DELAY = 0.0\n"


def test_cli_log_lines_on_a_terminal_go_above_the_bar_not_onto_its_line():
    code = NO_DELAY + "import sys; from rulemodels.cli import main; sys.exit(main(sys.argv[1:]))"
    status, _, stderr = _run([sys.executable, "-c", code, "-v", "fit", "liver", "--algorithm", "bcd"], terminal=True)
    assert status == 0, stderr
    screen = _screen(stderr)
    bars = [line for line in screen if "%|" in line]
    assert bars and all(BAR_LINE.match(line) for line in bars), screen
    assert any(line.split() == ["BCD", "iter", "objective", "train", "error", "literals", "LP", "solves", "seconds"]
               for line in screen), screen  # -v's header line, logged once the bar is drawn, on its own line
    assert any(line.startswith("binarized 345 rows") for line in screen), screen


def test_python_warnings_and_log_records_during_a_fit_go_above_the_bar():
    code = """
        import logging, warnings
        from rulemodels import BooleanRuleCV
        from rulemodels.datasets import load_dataset

        logging.basicConfig(format="%(name)s: %(message)s")  # the user's logging, on stderr
        warnings.simplefilter("always")

        def scoring(estimator, X, y):  # user code that warns, run inside the search's bar
            warnings.warn("scored a fold")
            return float((estimator.predict(X) == y).mean())

        X, y = load_dataset("liver")
        BooleanRuleCV(algorithms=["bcd"], thetas=[0.05], n_clauses=[1], forms=["cnf"], cv=3, scoring=scoring,
                      verbose=1).fit(X, y)
    """
    status, _, stderr = _run([sys.executable, "-c", NO_DELAY + textwrap.dedent(code)], terminal=True)
    assert status == 0, stderr
    screen = _screen(stderr)
    bars = [line for line in screen if "%|" in line]
    assert any(line.startswith("BooleanRuleCV:") for line in bars), screen
    assert all(BAR_LINE.match(line) for line in bars), screen
    warned = [line for line in screen if "UserWarning: scored a fold" in line]
    assert warned and all(line.startswith("<string>:") for line in warned), screen  # each on its own line
    assert any(line.startswith("rulemodels.estimator: binarized") for line in screen), screen


def test_python_fit_in_a_pipe_or_with_verbose_minus_one_draws_nothing():
    status, stdout, stderr = _run(_python(FIT.format(verbose=0)), terminal=False)
    assert status == 0, stderr
    assert "fitted" in stdout and MIP_BAR not in stderr and "%|" not in stderr
    status, stdout, stderr = _run(_python(FIT.format(verbose=-1)), terminal=True)
    assert status == 0, stderr
    assert "fitted" in stdout and MIP_BAR not in stderr and "%|" not in stderr


def test_a_long_loop_draws_its_bar_on_a_terminal_after_the_delay_and_a_short_one_nothing():
    code = """
        import time
        from rulemodels.utils import track
        for _ in track(range(2), 2, "quick", "step"):
            pass
        for _ in track(range(6), 6, "slow work", "step"):
            time.sleep(0.7)
    """
    status, _, stderr = _run(_python(code), terminal=True)
    assert status == 0, stderr
    assert "slow work" in stderr and "quick" not in stderr


@pytest.mark.parametrize("widgets", [True, False], ids=["ipywidgets", "without-ipywidgets"])
def test_the_notebook_shows_progress_without_a_tqdm_warning(tmp_path, widgets):
    """In a Jupyter kernel stderr is no terminal, but someone watches: the bar is drawn, as tqdm's widget
    when ipywidgets imports (a dev dependency) and as text when it does not (hidden from the kernel here),
    without tqdm's "IProgress not found" warning."""
    hide = "" if widgets else "import sys; sys.modules['ipywidgets'] = None  # as if not installed"
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(hide + textwrap.dedent("""
            import warnings
            warnings.simplefilter("always")
            from rulemodels import BooleanRuleClassifier
            from rulemodels.datasets import load_dataset
            X, y = load_dataset("liver")
            model = BooleanRuleClassifier(algorithm="exact", solver="highs", time_limit=4).fit(X, y)
        """)),
    ])
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = notebook.cells[0].outputs
    text = "".join(output.get("text", "") for output in outputs if output.output_type == "stream")
    shown = [output for output in outputs if "application/vnd.jupyter.widget-view+json" in output.get("data", {})]
    if widgets:
        assert shown, outputs  # the widget (its text repr is the bar too)
    else:
        assert MIP_BAR in text and not shown, outputs
    assert not any(output.output_type == "error" for output in outputs)
    assert "TqdmWarning" not in text and "IProgress not found" not in text and "Traceback" not in text


# --------------------------------------------------------------------------- the solver layer


def test_highs_reports_a_mip_as_it_goes_in_the_calling_thread():
    from rulemodels.algorithms.exact import prepare_problem
    from rulemodels.datasets import load_dataset
    from rulemodels.models import build_zero_one
    from solvers import MipProgress

    X, y = load_dataset("liver")
    problem, _ = prepare_problem(X, y, form="dnf")
    handle = build_zero_one(problem.A, problem.y, 2, theta=0.5, sample_weight=problem.sample_weight)
    events: list[MipProgress] = []
    threads = set()

    def progress(event: MipProgress) -> None:
        events.append(event)
        threads.add(threading.get_ident())

    result = get_backend("highs").solve(handle.model, time_limit=3, progress=progress)
    kinds = [event.event for event in events]
    assert kinds[0] == "start" and kinds[-1] == "end" and {"running", "incumbent"} & set(kinds[1:-1])
    assert threads == {threading.get_ident()}
    assert events[-1].incumbent == pytest.approx(result.objective) and events[-1].bound == pytest.approx(result.bound)
    assert events[-1].gap == pytest.approx(result.gap)
    elapsed = [event.elapsed for event in events]
    assert elapsed == sorted(elapsed)


def test_the_reporter_of_a_short_solve_says_nothing(caplog):
    from rulemodels.algorithms.mip_progress import MipReporter
    from solvers import MipProgress

    caplog.set_level("INFO", logger="rulemodels.progress")
    reporter = MipReporter("exact MIP", None)
    for event in (MipProgress("start", 0.0), MipProgress("incumbent", 0.2, 3.0, 1.0), MipProgress("end", 0.3, 3.0, 3.0)):
        reporter(event)
    assert caplog.records == []
    reporter = MipReporter("exact MIP", None)
    for event in (MipProgress("start", 0.0), MipProgress("running", 2.5, 3.0, 1.0), MipProgress("end", 3.0, 3.0, 3.0)):
        reporter(event)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "gap 66.7%" in lines[0] and "done" in lines[1] and "gap 0.0%" in lines[1]
    assert np.isfinite(float(lines[0].split("incumbent ")[1].split(",")[0]))


class _SlowReportingBackend(DelegatingBackend):
    """HiGHS, with each MIP's ``progress`` callback first told of a solve that ran 3.5 s (every solver's
    reporter is the same object; only how long a real solve runs differs)."""

    def solve(self, model, **kwargs):
        progress = kwargs.get("progress")
        if progress is not None:
            from solvers import MipProgress

            for event in (MipProgress("start", 0.0, follows=True), MipProgress("running", 2.5, 3.0, 1.0),
                          MipProgress("end", 3.5, 2.0, 2.0)):
                progress(event)
        return self.inner.solve(model, **{**kwargs, "progress": None})


def test_polishing_and_the_cg_selection_mip_report_incumbent_bound_and_gap(monkeypatch, caplog):
    from dataclasses import replace

    from rulemodels import BooleanRuleClassifier
    from rulemodels.algorithms.column_generation import run_column_generation
    from rulemodels.algorithms.run import CG_SETTINGS
    from rulemodels.datasets import load_dataset
    from rulemodels.models.column_generation import prepare_cg_data

    monkeypatch.setitem(solvers.registry._REGISTRY, "slow", lambda **o: _SlowReportingBackend(get_backend("highs", **o)))
    caplog.set_level("INFO", logger="rulemodels.progress")
    X, y = load_dataset("liver")
    BooleanRuleClassifier(polish=5, solver="slow").fit(X, y)
    polishing = [record.getMessage() for record in caplog.records if record.getMessage().startswith("polishing MIP")]
    assert polishing and "gap 66.7%" in polishing[0] and "done" in polishing[-1]

    caplog.clear()
    A = (np.random.default_rng(0).random((40, 8)) < 0.5).astype(np.int8)
    labels = (A[:, 0] & A[:, 1] | A[:, 2]).astype(np.int8)
    columns = prepare_cg_data(A, labels, sample_weight=np.ones(40))
    run_column_generation(columns, get_backend("slow"), theta=0.02, n_clauses=2, max_iter=50,
                          settings=replace(CG_SETTINGS, selection="mip"))
    selection = [record.getMessage() for record in caplog.records if record.getMessage().startswith("CG selection MIP")]
    assert selection and "incumbent 3" in selection[0] and "done" in selection[-1]


def watched_stderr(monkeypatch):
    """stderr as a terminal would be seen (a StringIO that the bars take for one), bars without their delay.
    Called in the test body: pytest's capture sets sys.stderr again after the fixtures."""
    import io

    stream = io.StringIO()
    monkeypatch.setattr("rulemodels.utils._progress.DELAY", 0.0)
    monkeypatch.setattr("rulemodels.utils._progress.stderr_is_terminal", lambda: True)
    monkeypatch.setattr(sys, "stderr", stream)
    return stream


def test_a_dask_pass_on_the_local_scheduler_counts_its_tasks(monkeypatch):
    import dask
    import dask.dataframe as dd

    from rulemodels import BooleanRuleClassifier
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("liver")
    data = dd.from_pandas(X.assign(label=y), npartitions=3)
    stream = watched_stderr(monkeypatch)
    with dask.config.set(scheduler="synchronous"):
        fitted = BooleanRuleClassifier(n_thresholds=3, thresholds="quantile").fit(data, "label")
    shown = stream.getvalue()
    assert "Dask pass" in shown and "task" in shown
    assert str(fitted.rule_) == str(BooleanRuleClassifier(n_thresholds=3, thresholds="quantile").fit(X, y).rule_)
