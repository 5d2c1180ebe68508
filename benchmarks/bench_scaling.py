"""Growth with the number of samples: binarization, clause-LP build, AM fit.

Synthetic Pima-like data: for n = 1,000 / 10,000 / 100,000 samples, each
class keeps Pima's share, and each column of a sample is drawn from that
column's values in Pima's rows of the same class, plus a little uniform
jitter, so nearly every row is distinct (identical rows would be merged and
hide the growth). 9 quantile thresholds per column give 144 binary
features. Each size runs in a fresh subprocess, which reports:

* binarize s: ``FeatureBinarizer`` fit + transform;
* build s: the clause LP the engine builds for the DNF fit (positives = the
  negative class), :func:`~rulemodels.models.build_clause_lp` or, for tall
  data, :func:`~rulemodels.models.build_clause_dual_lp` (column "LP");
* AM fit s: ``BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.01)``
  for the default DNF and for a CNF (fresh process, so every model is
  built), with their LP solves;
* peak RSS MiB of the subprocess.

``--replicated`` adds the 100,000-row case built by repeating Pima's rows
(130 copies): identical rows are merged into one weighted row, so the LP
stays Pima-sized.

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


def pima_like(n: int, seed: int = 0):
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


def replicated_pima(n: int):
    """Pima's rows repeated (and cut) to ``n`` rows."""
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("pima")
    copies = -(-n // len(y))
    rows = np.tile(np.arange(len(y)), copies)[:n]
    return X.iloc[rows].reset_index(drop=True), np.asarray(y)[rows]


def measure_one(n: int, data: str = "synthetic") -> dict:
    from rulemodels import BooleanRuleClassifier
    from rulemodels.algorithms import choose_formulation
    from rulemodels.data import FeatureBinarizer
    from rulemodels.models import build_clause_dual_lp, build_clause_lp

    X, y = pima_like(n) if data == "synthetic" else replicated_pima(n)
    start = time.perf_counter()
    binarizer = FeatureBinarizer(n_thresholds=9).fit(X)
    A = binarizer.transform(X)
    binarize = time.perf_counter() - start
    negatives = np.asarray(A)[y == 0]  # the DNF's clause LPs cover the negative class
    formulation = choose_formulation("auto", len(np.unique(negatives, axis=0)), A.shape[1])
    build_model = build_clause_dual_lp if formulation == "dual" else build_clause_lp
    start = time.perf_counter()
    lp = build_model(A, 1 - y, theta=0.01)
    model = lp.model
    build = time.perf_counter() - start
    distinct = len(model.P) + len(lp.groups.negatives)
    del model, lp
    row = {
        "data": data,
        "n": n,
        "binary features": int(A.shape[1]),
        "distinct rows": int(distinct),
        "binarize s": binarize,
        "LP": formulation,
        "build s": build,
    }
    for form in ("dnf", "cnf"):
        start = time.perf_counter()
        clf = BooleanRuleClassifier(algorithm="am", n_clauses=3, theta=0.01, form=form).fit(X, y)
        row[f"AM {form.upper()} fit s"] = time.perf_counter() - start
        row[f"AM {form.upper()} LP solves"] = int(clf.n_solves_)
        row[f"AM {form.upper()} train error"] = float(np.mean(clf.predict(X) != y))
    row["peak RSS MiB"] = peak_rss_mib()
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[1_000, 10_000, 100_000])
    parser.add_argument("--replicated", action="store_true", help="add 100,000 rows of repeated Pima")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--data", default="synthetic", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "scaling.json")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(args.one, args.data)))
        return 0
    cases = [(n, "synthetic") for n in args.sizes] + ([(100_000, "replicated")] if args.replicated else [])
    rows = []
    for n, data in cases:
        completed = subprocess.run(
            [sys.executable, __file__, "--one", str(n), "--data", data], check=True, capture_output=True, text=True
        )
        rows.append(json.loads(completed.stdout.strip().splitlines()[-1]))
        print(f"n={n} ({data}): AM DNF fit {rows[-1]['AM DNF fit s']:.1f} s, CNF {rows[-1]['AM CNF fit s']:.1f} s",
              file=sys.stderr, flush=True)
    for row in rows:
        row["build µs/row"] = 1e6 * row["build s"] / row["n"]
    print(markdown_table(rows, {"binarize s": 2, "build s": 2, "AM DNF fit s": 1, "AM CNF fit s": 1,
                                "AM DNF train error": 3, "AM CNF train error": 3, "peak RSS MiB": 0,
                                "build µs/row": 1}))
    write_json(args.out, {"machine": machine(), "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
