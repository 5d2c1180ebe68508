"""Do `--time-limit T --polish P` hold for a rule list? The whole command's wall clock against 1.5 (T + P) + 5 s.

``rulemodels fit data.csv --target y --time-limit T --polish P --out rule.json``
on 5 classes (``sklearn.datasets.make_classification``: 12 columns, 6
informative, ``random_state=0``) at 2,000 and 3,000 rows, with (T, P) = (2, 2)
and (4, 3), each run ``--repeats`` times. The clock is taken from outside, around
the whole process: Python's start, the imports, reading and binarizing the CSV,
the 14-ish binary fits of the rule list, polishing and writing the rule file.

``--repo DIR`` runs another checkout's code (its ``rulemodels`` first on the
import path) with the same interpreter, so two commits are timed side by side
in one run::

    git worktree add /tmp/old <commit>
    .venv/bin/python benchmarks/studies/budget_wall_clock.py --repo /tmp/old --label old
    .venv/bin/python benchmarks/studies/budget_wall_clock.py --label new

Each run appends to ``results/budget_wall_clock.jsonl`` (one record per command:
label, commit, rows, T, P, seconds, bound, the exit status and the machine's
load average when it started).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RESULTS = Path(__file__).parent / "results"
CASES = ((2_000, 2.0, 2.0), (3_000, 4.0, 3.0))


def write_data(rows: int, path: Path) -> None:
    """5 classes, 12 columns (6 informative) and ``rows`` rows, as a CSV file with the label ``y``."""
    import pandas as pd
    from sklearn.datasets import make_classification

    X, y = make_classification(
        n_samples=rows, n_features=12, n_informative=6, n_redundant=2, n_classes=5, random_state=0,
    )
    frame = pd.DataFrame(X, columns=[f"x{k}" for k in range(X.shape[1])]).round(3)
    frame["y"] = [f"c{label}" for label in y]
    frame.to_csv(path, index=False)


def commit_of(repo: Path) -> str:
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def run_once(repo: Path, data: Path, out: Path, limit: float, polish: float) -> tuple[float, int]:
    """The wall clock of one ``rulemodels fit`` process, and its exit status."""
    env = dict(os.environ, PYTHONPATH=str(repo))
    command = [sys.executable, "-m", "rulemodels", "fit", str(data), "--target", "y",
               "--time-limit", str(limit), "--polish", str(polish), "--out", str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=repo)
    seconds = time.perf_counter() - start
    if out.exists():
        out.unlink()
    return seconds, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose code runs (default: this one)")
    parser.add_argument("--label", default="new", help="the records' label (default: new)")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each case (default: 3)")
    parser.add_argument("--out", type=Path, default=RESULTS / "budget_wall_clock.jsonl")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    commit = commit_of(repo)
    with tempfile.TemporaryDirectory() as tmp:
        for rows, limit, polish in CASES:
            data = Path(tmp) / f"five_classes_{rows}.csv"
            write_data(rows, data)
            bound = 1.5 * (limit + polish) + 5.0
            for repeat in range(args.repeats):
                load = os.getloadavg()[0]
                seconds, status = run_once(repo, data, Path(tmp) / "rule.json", limit, polish)
                record = {"label": args.label, "commit": commit, "rows": rows, "time_limit": limit,
                          "polish": polish, "repeat": repeat, "seconds": round(seconds, 2), "bound": bound,
                          "within": seconds <= bound, "status": status, "load": round(load, 2)}
                print(json.dumps(record), flush=True)
                with args.out.open("a") as handle:
                    handle.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
