"""Where the time of one fit goes: AM and BCD (R=3, θ=0.01) on Pima and Sonar.

For each dataset (first training fold of a 10-fold stratified split,
``random_state=0``, default quantile binarization) and algorithm, one fit on
a workspace of its own ("fresh": models are built), and the same fit on a
workspace that a fit with θ=0.02 has just used ("in a sweep": as in a
cross-validation sweep, the model is taken over; the LPs differ in θ, so no
solution is shared). Reported per fit: wall time, LP solves, solutions
re-used (within the fit or from the workspace), models built, seconds
inside ``backend.solve`` (HiGHS plus pushing the changes and loading the
solution), and the rest (Pyomo building, numpy, binarization: "Python"),
plus the process's peak memory.

Run from the repository root::

    python benchmarks/bench_fit.py
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, peak_rss_mib, write_json  # noqa: E402
from benchmarks.bench_resolve import fold_problem  # noqa: E402
from rulemodels.algorithms import LPSolutionCache, WorkingData, learn  # noqa: E402
from solvers import get_backend  # noqa: E402

THETA = 0.01
N_CLAUSES = 3


def timed_fit(cache: LPSolutionCache, algorithm: str) -> dict:
    start = time.perf_counter()
    result = learn(cache, algorithm=algorithm, n_clauses=N_CLAUSES, theta=THETA, max_iter=100)
    wall = time.perf_counter() - start
    return {
        "wall s": wall,
        "LP solves": result.n_solves,
        "re-used": result.n_reused,
        "built": result.n_builds,
        "in solver s": result.solver_seconds,
        "Python s": wall - result.solver_seconds,
        "objective": result.objective,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["pima", "sonar"])
    parser.add_argument("--solver", default="highs")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "fit.json")
    args = parser.parse_args(argv)
    rows = []
    for dataset in args.datasets:
        problem = fold_problem(dataset)
        for algorithm in ("am", "bcd"):
            for kind in ("fresh", "in a sweep"):
                with LPSolutionCache(WorkingData.from_problem(problem), get_backend(args.solver)) as workspace:
                    if kind == "in a sweep":
                        learn(workspace, algorithm=algorithm, n_clauses=N_CLAUSES, theta=2 * THETA, max_iter=100)
                    row = {"dataset": dataset, "binary features": problem.A.shape[1], "algorithm": algorithm, "fit": kind}
                    row.update(timed_fit(workspace, algorithm))
                rows.append(row)
                print(f"{dataset} {algorithm} {kind}: {row['wall s']:.2f} s", file=sys.stderr, flush=True)
    print(markdown_table(rows, {"wall s": 3, "in solver s": 3, "Python s": 3, "objective": 3}))
    print(f"\npeak memory of this process: {peak_rss_mib():.0f} MiB")
    write_json(args.out, {"machine": machine(), "theta": THETA, "n_clauses": N_CLAUSES, "solver": args.solver,
                          "peak_rss_mib": peak_rss_mib(), "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
