"""Pima accuracy check: the paper's protocol at R = 2.

Stratified 10-fold CV (shuffle, random_state 0), 9 quantile thresholds fitted
on each training fold, DNF, R = 2, the paper's 18 θ = A·10^B; prints the mean
test error per θ and the minimum over θ for each algorithm, and writes
benchmarks/studies/results/pima_accuracy.json.

    .venv/bin/python benchmarks/studies/pima_accuracy.py [--algorithms am bcd] [--solver highs] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from sklearn.model_selection import StratifiedKFold

PAPER_THETAS = [a * 10.0**b for b in range(-4, 2) for a in (1, 2, 5)]


def run_fold(args: tuple) -> dict:
    algorithm, theta, fold, train, test, solver, n_clauses, n_thresholds = args
    from rulemodels.algorithms import LPSolutionCache, WorkingData, learn, prepare_problem
    from rulemodels.datasets import load_dataset
    from solvers import get_backend

    X, y = load_dataset("pima")
    start = time.perf_counter()
    problem, binarizer = prepare_problem(X.iloc[train], y.iloc[train], form="dnf", n_thresholds=n_thresholds)
    data = WorkingData.from_problem(problem)
    with LPSolutionCache(data, get_backend(solver)) as cache:
        result = learn(cache, algorithm=algorithm, n_clauses=n_clauses, theta=theta, max_iter=100)
    W, w0 = data.split(result.W)
    rule = problem.rule_from_weights(W, w0)
    test_error = float(np.mean(rule.evaluate(X.iloc[test]) != (y.iloc[test].to_numpy() == 1)))
    train_error = float(np.mean(rule.evaluate(X.iloc[train]) != (y.iloc[train].to_numpy() == 1)))
    return {
        "algorithm": algorithm, "theta": theta, "fold": fold, "test_error": test_error, "train_error": train_error,
        "n_literals": rule.n_literals, "seconds": time.perf_counter() - start, "n_solves": result.n_solves,
        "n_iter": result.n_iter, "stop": result.termination,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algorithms", nargs="+", default=["am", "bcd"])
    parser.add_argument("--solver", default="highs")
    parser.add_argument("--clauses", type=int, default=2)
    parser.add_argument("--thresholds", type=int, default=9)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    from rulemodels.datasets import load_dataset

    X, y = load_dataset("pima")
    folds = list(StratifiedKFold(n_splits=10, shuffle=True, random_state=0).split(X, y))
    tasks = [
        (algorithm, theta, k, train, test, args.solver, args.clauses, args.thresholds)
        for algorithm in args.algorithms for theta in PAPER_THETAS for k, (train, test) in enumerate(folds)
    ]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        records = list(pool.map(run_fold, tasks, chunksize=4))
    wall = time.perf_counter() - start
    summary = {}
    print("| algorithm | min mean test error | at theta | mean literals | mean train error |")
    print("|---|---|---|---|---|")
    for algorithm in args.algorithms:
        rows = [r for r in records if r["algorithm"] == algorithm]
        by_theta = {t: [r for r in rows if r["theta"] == t] for t in PAPER_THETAS}
        means = {t: float(np.mean([r["test_error"] for r in rs])) for t, rs in by_theta.items()}
        best = min(means, key=means.get)
        literals = float(np.mean([r["n_literals"] for r in by_theta[best]]))
        train = float(np.mean([r["train_error"] for r in by_theta[best]]))
        summary[algorithm] = {"min_mean_test_error": means[best], "theta": best, "mean_literals": literals,
                              "mean_train_error": train, "per_theta": means}
        print(f"| {algorithm} | {100 * means[best]:.1f} % | {best:g} | {literals:.1f} | {100 * train:.1f} % |")
    print(f"\n{len(records)} fits in {wall:.0f} s with {args.jobs} workers ({args.solver}, R={args.clauses}, {args.thresholds} thresholds)")
    out = Path(__file__).parent / "results" / "pima_accuracy.json"
    out.write_text(json.dumps({"summary": summary, "wall_seconds": wall, "solver": args.solver,
                               "n_clauses": args.clauses, "n_thresholds": args.thresholds, "records": records}, indent=1))


if __name__ == "__main__":
    main()
