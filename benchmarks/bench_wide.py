"""A wide table, as a new user tries it: 200,000 rows x 30 numeric columns, AM R=3, both forms (targets: 60 s, 3 GiB).

The data: 30 correlated Gaussian columns ``x0`` ... ``x29`` (correlation 0.5
between neighbours, decaying with distance) and the noisy 3-clause label of
:func:`rulemodels.make_rule_data`'s ``numeric`` kind on ``x0`` ... ``x7``
(5 % of the labels flipped); 9 thresholds give 270 binary features and nearly
every row is distinct. Each cell is one ``BooleanRuleClassifier(algorithm="am",
n_clauses=3)`` fit with the estimator's defaults otherwise (θ = 0.005 of the
rows), in a fresh subprocess, so that its peak RSS is that fit's. The issue's
target: under 60 s and under 3 GiB.

Run from the repository root::

    python benchmarks/bench_wide.py                 # 200,000 rows, DNF and CNF
    python benchmarks/bench_wide.py --rows 20000    # a quick look
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, peak_rss_mib, write_json  # noqa: E402

ROWS = 200_000
COLUMNS = 30
OUT = REPO / "benchmarks" / "results" / "wide_200k.json"
_MARK = "WIDE-CELL "


def wide_data(n: int, d: int = COLUMNS, seed: int = 0) -> tuple[Any, Any]:
    """``n`` rows of ``d`` AR(1)-correlated Gaussian columns and the noisy 3-clause label on the first 8."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    columns = np.empty((n, d))
    columns[:, 0] = rng.standard_normal(n)
    for j in range(1, d):  # each column 0.5 of its left neighbour plus fresh noise: unit variance
        columns[:, j] = 0.5 * columns[:, j - 1] + np.sqrt(0.75) * rng.standard_normal(n)
    x = columns
    rule = ((x[:, 0] > 0.3) & (x[:, 1] <= 0.5)) | ((x[:, 2] > 0.8) & (x[:, 3] > -0.2)) | ((x[:, 4] <= -0.6) & (x[:, 7] > 0))
    flip = rng.random(n) < 0.05
    y = np.where(flip, ~rule, rule).astype(int)
    return pd.DataFrame(columns, columns=[f"x{j}" for j in range(d)]), pd.Series(y, name="label")


def measure(n: int, form: str) -> dict[str, Any]:
    """One AM fit in ``form`` on :func:`wide_data` (in this process)."""
    from rulemodels import BooleanRuleClassifier

    X, y = wide_data(n)
    start = time.perf_counter()
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, form=form).fit(X, y)
    seconds = time.perf_counter() - start
    return {
        "rows": n, "columns": X.shape[1], "form": form.upper(), "binary features": len(clf.binarizer_.literals_),
        "fit s": seconds, "solve s": clf.solver_seconds_, "LP solves": clf.n_solves_, "iterations": clf.n_iter_,
        "train error": clf.training_error_, "literals": clf.rule_.n_literals, "peak RSS MiB": peak_rss_mib(),
        "rule": str(clf.rule_),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--out", type=Path, default=None, help=f"default {OUT.name} (for the default rows)")
    parser.add_argument("--cell", nargs=2, metavar=("N", "FORM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cell:
        print(_MARK + json.dumps(measure(int(args.cell[0]), args.cell[1]), default=float), flush=True)
        return 0
    rows = []
    for form in ("dnf", "cnf"):  # each in a fresh process: its own peak memory
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--cell", str(args.rows), form],
            capture_output=True, text=True, check=True,
        )
        rows.append(json.loads([line for line in done.stdout.splitlines() if line.startswith(_MARK)][-1][len(_MARK):]))
        print(f"{form.upper()}: fit {rows[-1]['fit s']:.1f} s, peak {rows[-1]['peak RSS MiB']:.0f} MiB", file=sys.stderr)
    print(markdown_table([{k: v for k, v in row.items() if k != "rule"} for row in rows],
                         {"fit s": 1, "solve s": 1, "train error": 4, "peak RSS MiB": 0}))
    out = args.out or (OUT if args.rows == ROWS else None)
    if out is not None:
        write_json(out, {"machine": machine(), "settings": {"algorithm": "am", "n_clauses": 3, "theta": 0.005}, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
