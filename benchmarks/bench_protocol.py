"""Wall time of the paper's protocol with each solver.

The protocol: SCS, SCN, BCD and AM; R = 1..5; the paper's 18 θ; stratified
10-fold CV; 9 quantile thresholds (decile boundaries) per column; DNF. It is
run with :func:`rulemodels.experiments.run_experiments` (joblib, ``--jobs``
worker processes) into a temporary results file, once per solver:
HiGHS on all four datasets, GLPK and CBC on Pima and Liver (their shell
interfaces write an LP file and start a process per solve).

Reported per (solver, dataset): fits, wall time of that dataset's sweep,
LP solves and models built (summed over fits), summed fit seconds, and the
mean test error of AM at R=3 and its best θ (a sanity check that solvers
agree). Memory of one process is measured by bench_fit.py and
bench_scaling.py.

Run from the repository root (this takes minutes)::

    python benchmarks/bench_protocol.py
    python benchmarks/bench_protocol.py --solvers highs --datasets liver --folds 3
    python benchmarks/bench_protocol.py --solvers glpk cbc --only-folds 1   # 1 of 10 folds, scaled ×10
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402
from rulemodels.experiments import PAPER_THETAS, make_grid, run_experiments, summarize  # noqa: E402

ALGORITHMS = ["scs", "scn", "bcd", "am"]
PLAN = {"highs": ["liver", "parkinsons", "pima", "sonar"], "glpk": ["liver", "pima"], "cbc": ["liver", "pima"]}


def run_protocol(solver: str, dataset: str, folds: int, jobs: int, thetas: list[float], only_folds: int | None = None) -> dict:
    tasks = make_grid([dataset], ALGORITHMS, range(1, 6), thetas, n_folds=folds, solver=solver, n_thresholds=9)
    scale = 1.0
    if only_folds is not None:
        tasks = [task for task in tasks if task.fold < only_folds]
        scale = folds / only_folds
    with tempfile.TemporaryDirectory() as scratch:
        start = time.perf_counter()
        results = run_experiments(tasks, Path(scratch) / "results.jsonl", backend="joblib", n_jobs=jobs)
        wall = time.perf_counter() - start
    failed = int(results["error"].notna().sum())
    ok = results[results["error"].isna()]
    summary = summarize(ok)
    am3 = summary[(summary["algorithm"] == "am") & (summary["n_clauses"] == 3)]
    return {
        "solver": solver,
        "dataset": dataset,
        "folds run": only_folds or folds,
        "fits": len(results),
        "failed": failed,
        "wall s": wall,
        "wall s (all folds, est.)": wall * scale,
        "fit s (sum)": float(ok["wall_time"].sum()),
        "LP solves": int(ok["n_solves"].sum()),
        "models built": int(ok["n_builds"].sum()),
        "AM R=3 best test error": float(am3["test_error_mean"].min()) if len(am3) else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solvers", nargs="+", default=list(PLAN))
    parser.add_argument("--datasets", nargs="+", default=None, help="override the per-solver dataset plan")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--thetas", type=int, default=len(PAPER_THETAS), help="use the first N of the paper's θ")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only-folds", type=int, default=None,
                        help="run only the first K test folds of the --folds protocol and scale the wall time by folds/K")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "protocol.json")
    args = parser.parse_args(argv)
    rows = []
    for solver in args.solvers:
        for dataset in args.datasets or PLAN.get(solver, PLAN["glpk"]):
            row = run_protocol(solver, dataset, args.folds, args.jobs, list(PAPER_THETAS[: args.thetas]), args.only_folds)
            rows.append(row)
            print(f"{solver} {dataset}: {row['wall s']:.0f} s", file=sys.stderr, flush=True)
    totals = {}
    for row in rows:
        totals[row["solver"]] = totals.get(row["solver"], 0.0) + row["wall s (all folds, est.)"]
    print(markdown_table(rows, {"wall s": 1, "wall s (all folds, est.)": 1, "fit s (sum)": 1, "AM R=3 best test error": 3}))
    print()
    for solver, seconds in totals.items():
        estimated = " (estimated from the folds run)" if args.only_folds else ""
        print(f"{solver}: {seconds:.0f} s wall in total ({seconds / 60:.1f} min) on {args.jobs} workers{estimated}")
    write_json(args.out, {"machine": machine(), "folds": args.folds, "only_folds": args.only_folds,
                          "thetas": args.thetas, "jobs": args.jobs,
                          "rows": rows, "total_wall_s": totals})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
