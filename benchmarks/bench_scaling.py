"""Growth with the number of samples: binarization, clause-LP build, AM fit.

Synthetic Pima-like data: for n = 1,000 / 10,000 / 100,000 samples, each
class keeps Pima's share, and each column of a sample is drawn from that
column's values in Pima's rows of the same class, plus a little uniform
jitter, so nearly every row is distinct (identical rows would be merged and
hide the growth). 9 quantile thresholds per column give 144 binary
features. Each size runs in a fresh subprocess, which reports:

* binarize s: ``FeatureBinarizer`` fit + transform;
* build s: :func:`~rulemodels.models.build_clause_lp` on all rows;
* AM fit s: ``BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.01)``
  (fresh process, so every model is built), with its LP solves;
* peak RSS MiB of the subprocess.

Run from the repository root::

    python benchmarks/bench_scaling.py
    python benchmarks/bench_scaling.py --sizes 1000 10000
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, peak_rss_mib, write_json  # noqa: E402


def pima_like(n: int, seed: int = 0):  # noqa: ANN201
    """``n`` synthetic rows resampled per class and column from Pima, with jitter."""
    import pandas as pd

    from rulemodels.datasets import load_dataset

    X, y = load_dataset("pima")
    rng = np.random.default_rng(seed)
    labels = (rng.random(n) < y.mean()).astype(int)
    columns = {}
    for name in X.columns:
        values = X[name].to_numpy(dtype=float)
        spread = 0.01 * (values.max() - values.min())
        column = np.empty(n)
        for label in (0, 1):
            pool = values[y == label]
            rows = labels == label
            column[rows] = rng.choice(pool, size=rows.sum()) + rng.uniform(-spread, spread, size=rows.sum())
        columns[name] = column
    return pd.DataFrame(columns), labels


def measure_one(n: int) -> dict:
    from rulemodels import BooleanRuleClassifier
    from rulemodels.data import FeatureBinarizer
    from rulemodels.models import build_clause_lp

    X, y = pima_like(n)
    start = time.perf_counter()
    binarizer = FeatureBinarizer(n_thresholds=9).fit(X)
    A = binarizer.transform(X)
    binarize = time.perf_counter() - start
    start = time.perf_counter()
    model = build_clause_lp(A, 1 - y, theta=0.01)
    build = time.perf_counter() - start
    distinct = len(model.P) + len(model._neg_groups)
    del model
    start = time.perf_counter()
    clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.01).fit(X, y)
    fit = time.perf_counter() - start
    return {
        "n": n,
        "binary features": int(A.shape[1]),
        "distinct rows": int(distinct),
        "binarize s": binarize,
        "build s": build,
        "AM fit s": fit,
        "AM LP solves": int(clf.n_solves_),
        "train error": float(np.mean(clf.predict(X) != y)),
        "peak RSS MiB": peak_rss_mib(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1_000, 10_000, 100_000])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "scaling.json")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one)))
        return 0
    rows = []
    for n in args.sizes:
        completed = subprocess.run(
            [sys.executable, __file__, "--one", str(n)], check=True, capture_output=True, text=True
        )
        rows.append(json.loads(completed.stdout.strip().splitlines()[-1]))
        print(f"n={n}: AM fit {rows[-1]['AM fit s']:.1f} s", file=sys.stderr, flush=True)
    for row in rows:
        row["AM fit µs/row"] = 1e6 * row["AM fit s"] / row["n"]
        row["build µs/row"] = 1e6 * row["build s"] / row["n"]
    print(markdown_table(rows, {"binarize s": 2, "build s": 2, "AM fit s": 2, "train error": 3, "peak RSS MiB": 0,
                                "AM fit µs/row": 1, "build µs/row": 1}))
    write_json(args.out, {"machine": machine(), "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
