"""Every command stopped by Ctrl-C (SIGINT) or SIGTERM at random moments stops cleanly.

Each command runs in a session of its own with a private temporary directory
(TMPDIR), once without interruption (the reference), then once per signal at
a moment drawn uniformly from the reference run's duration (seeded: set
RULEMODELS_SIGNAL_SEED to draw other moments). After each stop the test
checks:

- the exit status: 130 for SIGINT, 143 for SIGTERM (0 when the command
  finished before the signal; 128 + N also when the signal arrived before
  Python had started the command, -N for the same in Popen's terms);
- no process of the command's session is left (solver children, sweep
  workers), after at most a short grace for the ones already exiting;
- no temporary file is left (the private TMPDIR empty, no /dev/shm entry of the command;
  no hidden ``.*.tmp`` beside the outputs);
- every input is byte-identical;
- every output is complete (equal to the reference run's) or absent; a
  sweep's results file holds only complete records.

SIGINT goes to the whole process group (what a terminal's Ctrl-C does);
SIGTERM to the command's process only (``kill PID``, ``timeout``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulemodels import load_dataset

pytestmark = pytest.mark.slow  # real processes stopped by real signals, each command run once for reference first

SEED = int(os.environ.get("RULEMODELS_SIGNAL_SEED", "25"))
GRACE = 5.0  # seconds the processes of a stopped command may take to disappear


@dataclasses.dataclass(frozen=True)
class Command:
    name: str
    argv: tuple[str, ...]
    outputs: tuple[str, ...] = ()  # files (or directories) the command writes, relative to the work dir
    ends_with_records: bool = False  # a results file of JSON lines: complete records only
    volatile: bytes | None = None  # a regex of output bytes that differ from run to run (a date), left out of the digests


COMMANDS = [
    Command("fit-highs", ("fit", "data.csv", "--target", "label", "--clauses", "3", "--out", "out/r.json"), ("out/r.json",)),
    Command("fit-glpk", ("fit", "data.csv", "--target", "label", "--clauses", "2", "--solver", "glpk", "--out", "out/r.json"),
            ("out/r.json",)),
    Command("fit-cbc", ("fit", "data.csv", "--target", "label", "--clauses", "2", "--solver", "cbc", "--algorithm", "bcd",
                        "--out", "out/r.json"), ("out/r.json",)),
    Command("exact-cbc", ("exact", "data.csv", "--target", "label", "--clauses", "2", "--sample", "40", "--time-limit", "4")),
    Command("predict", ("predict", "rule.json", "big.csv", "--proba", "--explain", "--out", "out/p.csv"), ("out/p.csv",)),
    Command("export", ("export", "rule.json", "--format", "python", "--out", "out/rule.py"), ("out/rule.py",)),
    Command("report", ("report", "rule.json", "big.csv", "--target", "label", "--by", "age", "--out", "out/report.html"),
            ("out/report.html",), volatile=rb"date \(UTC\)</td><td>[^<]*"),
    Command("cv-jobs-2", ("cv", "data.csv", "--target", "label", "--algorithms", "am", "bcd", "--clauses", "1-2",
                          "--thetas", "0.002", "0.01", "--folds", "4", "--jobs", "2", "--results", "out/cv.jsonl"),
            ("out/cv.jsonl",), ends_with_records=True),
    Command("reproduce", ("reproduce", "--datasets", "liver", "--algorithms", "scs", "am", "--clauses", "1", "--thetas",
                          "0.002", "0.01", "--folds", "3", "--inner-folds", "0", "--jobs", "1", "--out", "out/rep"),
            ("out/rep",)),
]

INPUTS = ("data.csv", "big.csv", "rule.json")


def session_processes(session: int) -> list[str]:
    """The live processes of ``session`` (zombies excluded), as 'pid command' strings."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, sid = fields[0], int(fields[3])
        if sid == session and state != "Z":
            found.append(f"{entry} {command[:120]}")
    return found



def assert_stopped_cleanly(process, sig, stderr: str, tmpdir, before_shm, where: str) -> None:
    """A command stopped by ``sig``: exit 0 or the signal's status with its message, no process of its session
    left after GRACE seconds, no temporary file, and no shared-memory entry of its own."""
    status = process.returncode
    assert status in (0, 128 + sig, -sig), where
    if status == 128 + sig:
        assert ("interrupted" if sig == signal.SIGINT else "terminated") in stderr, where
    deadline = time.monotonic() + GRACE
    while session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert session_processes(process.pid) == [], where
    assert list(tmpdir.iterdir()) == [], where
    # joblib's and loky's names carry the creating process's id: only the command's own count (other runs may share the machine)
    assert {e for e in shm_entries() - before_shm if str(process.pid) in e} == set(), where

def shm_entries() -> set[str]:
    """What joblib and multiprocessing keep in /dev/shm (memory-mapped arrays, semaphores)."""
    shm = Path("/dev/shm")
    if not shm.is_dir():
        return set()
    return {p.name for p in shm.iterdir() if p.name.startswith(("joblib", "loky", "sem.", "mp-", "psm_"))}


def tree_digest(path: Path, volatile: bytes | None = None) -> dict[str, str]:
    """File -> sha256 of every file under ``path`` (or of ``path`` itself); a file's ``volatile`` bytes left out."""
    if path.is_file():
        content = path.read_bytes()
        return {path.name: hashlib.sha256(re.sub(volatile, b"", content) if volatile else content).hexdigest()}
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("signal-inputs")
    X, y = load_dataset("pima")
    frame = X.copy()
    frame["label"] = y.to_numpy()
    frame.to_csv(folder / "data.csv", index=False)
    pd_big = frame.sample(n=40 * len(frame), replace=True, random_state=0)
    pd_big.to_csv(folder / "big.csv", index=False)
    done = subprocess.run(
        [sys.executable, "-m", "rulemodels", "fit", "data.csv", "--target", "label", "--clauses", "3", "--out", "rule.json"],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return folder


def start(command: Command, workdir: Path, tmpdir: Path) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(tmpdir), PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "rulemodels", *command.argv], cwd=workdir, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        # the signal dispositions a terminal gives: Ctrl-C not ignored, whatever the test runner's were
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def prepare(inputs: Path, root: Path, label: str) -> tuple[Path, Path]:
    workdir, tmpdir = root / label, root / f"{label}-tmp"
    workdir.mkdir()
    tmpdir.mkdir()
    for name in INPUTS:
        shutil.copy(inputs / name, workdir / name)
    (workdir / "out").mkdir()
    return workdir, tmpdir


class References(dict):
    """Each command run once to the end, when a test first needs it: its duration and its outputs' digests."""

    def __init__(self, inputs: Path, root: Path) -> None:
        super().__init__()
        self.inputs, self.root = inputs, root

    def __missing__(self, name: str) -> tuple[float, dict[str, dict[str, str]]]:
        command = next(c for c in COMMANDS if c.name == name)
        workdir, tmpdir = prepare(self.inputs, self.root, command.name)
        began = time.perf_counter()
        process = start(command, workdir, tmpdir)
        _, stderr = process.communicate(timeout=600)
        seconds = time.perf_counter() - began
        assert process.returncode == 0, f"{command.name}: {stderr.decode()}"
        assert list(tmpdir.iterdir()) == [], f"{command.name} left temporary files after a normal run"
        self[name] = found = (seconds, {n: tree_digest(workdir / n, command.volatile) for n in command.outputs})
        return found


@pytest.fixture(scope="module")
def references(inputs, tmp_path_factory) -> References:
    """Each command's uninterrupted run (only the commands of the selected tests are run)."""
    return References(inputs, tmp_path_factory.mktemp("signal-references"))


def check_complete_records(path: Path) -> None:
    text = path.read_text()
    assert text == "" or text.endswith("\n"), "the results file ends in the middle of a record"
    for line in text.splitlines():
        record = json.loads(line)
        assert "key" in record


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("command", COMMANDS, ids=[c.name for c in COMMANDS])
def test_a_command_stopped_at_a_random_moment_stops_cleanly(command, sig, inputs, references, tmp_path):
    duration, reference = references[command.name]
    rng = random.Random(f"{SEED}-{command.name}-{int(sig)}")
    delay = rng.uniform(0.05, max(0.1, 0.9 * duration))
    workdir, tmpdir = prepare(inputs, tmp_path, "run")
    before_inputs = {name: tree_digest(workdir / name) for name in INPUTS}
    before_shm = shm_entries()
    process = start(command, workdir, tmpdir)
    time.sleep(delay)
    if process.poll() is None:
        if sig == signal.SIGINT:
            os.killpg(process.pid, sig)  # a terminal's Ctrl-C reaches the whole foreground group
        else:
            process.send_signal(sig)  # kill PID / timeout
    _, stderr = process.communicate(timeout=120)
    stderr = stderr.decode(errors="replace")
    status = process.returncode
    where = f"{command.name} stopped by {sig.name} after {delay:.2f} s (reference run {duration:.2f} s): {stderr[-800:]}"
    assert "Traceback" not in stderr, where
    assert_stopped_cleanly(process, sig, stderr, tmpdir, before_shm, where)
    assert {name: tree_digest(workdir / name) for name in INPUTS} == before_inputs, where
    leftovers = [p.name for p in (workdir / "out").rglob(".*.tmp")]
    assert leftovers == [], where
    for name in command.outputs:
        target = workdir / name
        if command.ends_with_records:
            if target.exists():
                check_complete_records(target)
            continue
        if target.is_dir():  # reproduce: every file written is the reference's file
            written = tree_digest(target)
            expected = reference[name]
            partial = {k: v for k, v in written.items() if k != "results.jsonl"}
            assert all(expected.get(k) == v for k, v in partial.items()), where
            if (target / "results.jsonl").exists():
                check_complete_records(target / "results.jsonl")
        elif target.exists():
            assert tree_digest(target, command.volatile) == reference[name], where
    if status == 0:
        for name in command.outputs:
            if not command.ends_with_records and not (workdir / name).is_dir():
                assert tree_digest(workdir / name, command.volatile) == reference[name], where


CV = next(c for c in COMMANDS if c.name == "cv-jobs-2")
CV_TASKS = 32  # 2 algorithms x 2 clause counts x 2 thetas x 4 folds


def wait_for(condition, process: subprocess.Popen, what: str, timeout: float = 600.0) -> None:
    """Poll until ``condition()`` holds or the process has ended (a deadline only against a hang, never an assert on time)."""
    deadline = time.monotonic() + timeout
    while not condition() and process.poll() is None:
        assert time.monotonic() < deadline, f"cv --jobs 2 never reached {what}"
        time.sleep(0.01)


def records_written(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("stage", ["workers-starting", "working", "shutting-down", "working-twice"])
def test_cv_with_two_workers_stops_cleanly_at_each_stage(stage, sig, inputs, tmp_path):
    """A Ctrl-C or SIGTERM while joblib's workers start, while they work, while the pool shuts down
    at the sweep's end (and twice in a row during the work): exit 130/143 (0 if it had finished), no traceback
    from the command, its pool or its workers, nothing left behind.

    The moments are events of the run, not times: the command's first line (the workers start right after),
    the first record in the results file, every record in it (the pool's shutdown and the exit follow).
    """
    workdir, tmpdir = prepare(inputs, tmp_path, "run")
    results = workdir / "out" / "cv.jsonl"
    before_shm = shm_entries()
    process = start(CV, workdir, tmpdir)
    assert process.stderr is not None
    first_line = process.stderr.readline()  # "32 tasks; results in ...": run_experiments starts the pool next
    if stage == "working" or stage == "working-twice":
        wait_for(lambda: records_written(results) >= 1, process, "its first record")
    elif stage == "shutting-down":
        wait_for(lambda: records_written(results) >= CV_TASKS, process, "its last record")
    for _ in range(2 if stage == "working-twice" else 1):
        if process.poll() is None:
            if sig == signal.SIGINT:
                os.killpg(process.pid, sig)  # a terminal's Ctrl-C reaches the whole foreground group
            else:
                process.send_signal(sig)
    _, rest = process.communicate(timeout=600)
    stderr = (first_line + rest).decode(errors="replace")
    status = process.returncode
    where = f"cv --jobs 2 stopped by {sig.name} ({stage}): status {status}: {stderr[-2000:]}"
    assert "Traceback" not in stderr and "Exception ignored" not in stderr, where
    assert_stopped_cleanly(process, sig, stderr, tmpdir, before_shm, where)
    assert [p.name for p in (workdir / "out").rglob(".*.tmp")] == [], where
    if results.exists():
        check_complete_records(results)
