"""Do HiGHS, GLPK and CBC learn the same rule?

For each bundled dataset, algorithm, R and θ (the paper's units), one fit
on the whole dataset (9 quantile thresholds, DNF) with each solver; the
rules (``str(rule_)``) and the objectives are compared with the first
solver's. Prints the disagreements and a count per (dataset, algorithm) and
writes them to ``--out`` (JSON). GLPK and CBC start a process per LP solve,
so keep the grid small (``--datasets``, ``--algorithms``, ``--R``,
``--thetas``)::

    python benchmarks/studies/solver_agreement.py
    python benchmarks/studies/solver_agreement.py --datasets liver --algorithms am --R 2 --thetas 0.2
    python benchmarks/studies/solver_agreement.py --no-tie-break     # the LPs as posed before the tie-break
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402

DATASETS = ["liver", "parkinsons", "pima", "sonar"]
#: Three of the paper's θ (PAPER_THETAS), spread over its range: long rules, medium, short.
THETAS = [0.01, 0.5, 5.0]


def fit_all(dataset: str, algorithm: str, R: int, theta: float, solvers: list[str], tie_break: bool) -> dict:
    """One fit per solver; the rule, objective and seconds of each."""
    from rulemodels import BooleanRuleClassifier, load_dataset
    from rulemodels.algorithms.training import TrainingWorkspace
    from rulemodels.defaults import SOLVER_INDEPENDENT_TIE_BREAK

    X, y = load_dataset(dataset)
    found = {}
    for solver in solvers:
        estimator = BooleanRuleClassifier(algorithm=algorithm, n_clauses=R, theta=theta, theta_unit="sample", solver=solver)
        start = time.perf_counter()
        with TrainingWorkspace(X, y, solver=solver, tie_break=SOLVER_INDEPENDENT_TIE_BREAK if tie_break else 0.0) as workspace:
            model = estimator.fit(X, y, workspace=workspace)
        found[solver] = {"rule": str(model.rule_), "objective": model.objective_, "seconds": time.perf_counter() - start}
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--algorithms", nargs="+", default=["am", "bcd"])
    parser.add_argument("--R", nargs="+", type=int, default=[1, 2, 3])
    parser.add_argument("--thetas", nargs="+", type=float, default=THETAS)
    parser.add_argument("--solvers", nargs="+", default=["highs", "glpk", "cbc"])
    parser.add_argument("--no-tie-break", action="store_true", help="pose the clause LPs without the tie-break (tie_break=0)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "studies" / "results" / "solver_agreement.json")
    args = parser.parse_args()
    tie_break = not args.no_tie_break

    rows, differ, counts = [], [], {}
    for dataset in args.datasets:
        for algorithm in args.algorithms:
            for R in args.R:
                for theta in args.thetas:
                    found = fit_all(dataset, algorithm, R, theta, args.solvers, tie_break)
                    reference = found[args.solvers[0]]
                    others = [s for s in args.solvers[1:] if found[s]["rule"] != reference["rule"]]
                    row = {
                        "dataset": dataset, "algorithm": algorithm, "R": R, "theta": theta,
                        "agree": not others, "differ": " ".join(others) or "-",
                        **{f"obj_{s}": found[s]["objective"] for s in args.solvers},
                        **{f"s_{s}": found[s]["seconds"] for s in args.solvers},
                    }
                    rows.append(row)
                    key = (dataset, algorithm)
                    counts[key] = counts.get(key, 0) + (1 if others else 0)
                    print(f"{dataset} {algorithm} R={R} θ={theta}: {'agree' if not others else 'DIFFER ' + row['differ']}", flush=True)
                    if others:
                        differ.append({**row, "rules": {s: found[s]["rule"] for s in args.solvers}})
    print()
    print(markdown_table(rows, digits={f"obj_{s}": 4 for s in args.solvers} | {f"s_{s}": 2 for s in args.solvers}))
    print()
    for item in differ:
        print(f"{item['dataset']} {item['algorithm']} R={item['R']} θ={item['theta']}:")
        for solver, rule in item["rules"].items():
            print(f"  {solver:6s} obj={item['obj_' + solver]:.6f}  {rule}")
    print(f"\n{len(differ)} of {len(rows)} settings differ (tie_break={tie_break})")
    write_json(args.out, {
        "machine": machine(), "tie_break": tie_break, "rows": rows, "differ": differ,
        "counts": {f"{d} {a}": n for (d, a), n in counts.items()},
    })
    return 0


if __name__ == "__main__":
    sys.exit(main())
