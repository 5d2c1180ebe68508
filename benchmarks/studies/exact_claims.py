"""Does the exact mode (or polishing) ever claim an optimum, or an objective, that is not one?

Random small problems: ``--problems`` subsamples of 40-80 rows of a bundled
dataset (the dataset, the rows, R in {2, 3} and the form drawn from the
problem's seed), 9 quantile thresholds, the default θ (0.002 × rows in the
paper's units). Each is solved

- ``highs_warm``: :func:`solve_exact_problem` with HiGHS, started from the
  column-generation rule (:func:`heuristic_start`), as ``rulemodels exact --solver highs``;
- ``highs_cold``, ``cbc_cold`` (and ``glpk_cold`` with ``--glpk``): the same MIP without a start;
- ``polish_highs``: :func:`polish_rule` with HiGHS from the same start rule;

each with ``--time-limit`` seconds. A record holds, per run, the termination,
the reported objective, the solver's own objective, the bound and the
objective of the returned rule recomputed from the data. Counted:

- *wrong optimum*: a run reports ``optimal`` (or a gap of 0) at an objective
  above another run's proven optimum (or, with none proven, above the start's
  or another run's rule), or reports a bound above a proven optimum;
- *mismatch*: the reported objective differs from the returned rule's
  recomputed objective, or the solver's own objective is below it (a solver
  whose incumbent is not the solution it returned).

Run from the repository root (it appends to ``--out`` and skips the problems
already there)::

    python benchmarks/studies/exact_claims.py --problems 60 --time-limit 20 --out benchmarks/studies/results/exact_claims_after.jsonl
    python benchmarks/studies/exact_claims.py --report benchmarks/studies/results/exact_claims_before.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

DATASETS = ["liver", "parkinsons", "pima", "sonar"]
#: relative tolerance of "the same objective" (the objectives are sums of weights and multiples of θ)
TOLERANCE = 1e-6


def draw(seed: int) -> dict[str, Any]:
    """The problem of ``seed``: dataset, rows, R and form."""
    rng = np.random.default_rng(seed)
    dataset = DATASETS[int(rng.integers(len(DATASETS)))]
    n_rows = int(rng.integers(40, 81))
    R = int(rng.integers(2, 4))
    form = "dnf" if rng.random() < 0.5 else "cnf"
    return {"seed": seed, "dataset": dataset, "n_rows": n_rows, "R": R, "form": form, "rows_seed": int(rng.integers(2**31))}


def build_problem(spec: dict[str, Any]) -> Any:
    from rulemodels import load_dataset
    from rulemodels.algorithms.exact import prepare_problem

    X, y = load_dataset(spec["dataset"])
    rng = np.random.default_rng(spec["rows_seed"])
    rows = np.sort(rng.choice(len(X), size=spec["n_rows"], replace=False))
    # with "weighted": integer row weights 1-3 drawn after the rows (the unweighted problems' rows are unchanged)
    weights = rng.integers(1, 4, size=spec["n_rows"]).astype(float) if spec.get("weighted") else None
    problem, _ = prepare_problem(X.iloc[rows], np.asarray(y)[rows], form=spec["form"], n_thresholds=9, sample_weight=weights)
    return problem


def rule_objective(problem: Any, rule: Any, theta: float) -> float:
    from rulemodels.algorithms.polish import rule_weights
    from rulemodels.models import zero_one_objective

    return zero_one_objective(problem.A, problem.y, rule_weights(problem, rule), theta, sample_weight=problem.sample_weight)


def run_exact(problem: Any, spec: dict[str, Any], solver: str, start: Any, theta: float, time_limit: float) -> dict[str, Any]:
    from rulemodels.algorithms.exact import solve_exact_problem

    began = time.perf_counter()
    try:
        result = solve_exact_problem(problem, spec["R"], theta, solver=solver, time_limit=time_limit, start=start)
    except Exception as exc:  # recorded, the study goes on
        return {"error": f"{type(exc).__name__}: {exc}", "seconds": time.perf_counter() - began}
    return {
        "termination": str(result.termination),
        "objective": result.objective,
        "solver_objective": None if result.solve is None else result.solve.objective,
        "bound": result.exact_bound,
        "gap": result.gap,
        "recomputed": rule_objective(problem, result.rule, theta),
        "rule": str(result.rule),
        "seconds": time.perf_counter() - began,
    }


def run_polish(problem: Any, spec: dict[str, Any], start: Any, theta: float, time_limit: float, solver: str = "highs") -> dict[str, Any]:
    from rulemodels.algorithms.polish import polish_rule
    from solvers import get_backend

    began = time.perf_counter()
    try:
        rule, report = polish_rule(problem, start, theta, backend=get_backend(solver), time_limit=time_limit)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}", "seconds": time.perf_counter() - began}
    return {
        "termination": str(report.termination),
        "objective": report.objective,
        "bound": report.bound,
        "gap": report.gap,
        "recomputed": rule_objective(problem, rule, theta),
        "rule": str(rule),
        "seconds": time.perf_counter() - began,
    }


def solve_one(spec: dict[str, Any], time_limit: float, glpk: bool) -> dict[str, Any]:
    from rulemodels import defaults
    from rulemodels.algorithms.exact import heuristic_start

    problem = build_problem(spec)
    theta = defaults.DEFAULT_THETA * spec["n_rows"]
    start = heuristic_start(problem, spec["R"], theta)
    runs = {
        "highs_warm": run_exact(problem, spec, "highs", start, theta, time_limit),
        "highs_cold": run_exact(problem, spec, "highs", None, theta, time_limit),
        "cbc_cold": run_exact(problem, spec, "cbc", None, theta, time_limit),
        "polish_highs": run_polish(problem, spec, start, theta, time_limit),
    }
    if glpk:
        runs["glpk_cold"] = run_exact(problem, spec, "glpk", None, theta, time_limit)
    return {**spec, "theta": theta, "start_objective": rule_objective(problem, start, theta), "runs": runs}


def claims_optimal(run: dict[str, Any]) -> bool:
    return "error" not in run and (run["termination"] == "optimal" or (run.get("gap") is not None and run["gap"] <= 1e-9))


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b))


def audit(record: dict[str, Any]) -> dict[str, list[str]]:
    """The wrong optima and the mismatches of one record, each named by its run."""
    runs = record["runs"]
    proven = {name: run["recomputed"] for name, run in runs.items() if claims_optimal(run) and run["termination"] == "optimal"}
    wrong, mismatch = [], []
    for name, run in runs.items():
        if "error" in run:
            continue
        others = [value for other, value in proven.items() if other != name]
        truth = min(others) if others else None
        if truth is not None and claims_optimal(run) and run["recomputed"] > truth + TOLERANCE * max(1.0, truth):
            wrong.append(f"{name}: claims {run['recomputed']:.6g} optimal, another proves {truth:.6g}")
        found = [record["start_objective"]] + [other["recomputed"] for key, other in runs.items() if key != name and "error" not in other]
        if truth is None and claims_optimal(run) and run["recomputed"] > min(found) + TOLERANCE * max(1.0, min(found)):
            wrong.append(f"{name}: claims {run['recomputed']:.6g} optimal, the start or another run has a rule of {min(found):.6g}")
        if truth is not None and run["bound"] is not None and run["bound"] > truth + TOLERANCE * max(1.0, truth):
            wrong.append(f"{name}: bound {run['bound']:.6g} above another's proven optimum {truth:.6g}")
        solver_objective = run.get("solver_objective")
        if not close(run["objective"], run["recomputed"]):
            mismatch.append(f"{name}: reports {run['objective']:.6g}, its rule has {run['recomputed']:.6g}")
        elif solver_objective is not None and solver_objective < run["recomputed"] - TOLERANCE * max(1.0, abs(solver_objective)):
            mismatch.append(f"{name}: the solver's objective {solver_objective:.6g} is below its rule's {run['recomputed']:.6g}")
    return {"wrong": wrong, "mismatch": mismatch}


def report(path: Path) -> int:
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    n_wrong = n_mismatch = 0
    per_run: dict[str, dict[str, int]] = {}
    for record in records:
        found = audit(record)
        for kind in ("wrong", "mismatch"):
            for line in found[kind]:
                name = line.split(":")[0]
                per_run.setdefault(name, {"wrong": 0, "mismatch": 0})[kind] += 1
                where = f"{record['dataset']}, {record['n_rows']} rows, R={record['R']}, {record['form']}"
                print(f"seed {record['seed']} ({where}): {kind}: {line}")
        n_wrong += bool(found["wrong"])
        n_mismatch += bool(found["mismatch"])
    proven = sum(any(run.get("termination") == "optimal" for run in record["runs"].values()) for record in records)
    print(f"{len(records)} problems ({proven} with an optimum proven by some run): "
          f"{n_wrong} with a wrong optimum, {n_mismatch} with a mismatch; per run: {per_run}")
    return 1 if n_wrong or n_mismatch else 0


def main() -> int:
    """Run the study (or only ``--report``); the logging it quiets while it solves is restored after."""
    import logging

    try:
        return _main()
    finally:
        logging.disable(logging.NOTSET)  # a caller (a test) keeps its warnings


def _main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--glpk", action="store_true", help="also solve with GLPK, cold")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "studies" / "results" / "exact_claims.jsonl")
    parser.add_argument("--report", type=Path, default=None, help="only count the wrong optima and mismatches of this file")
    args = parser.parse_args()
    if args.report is not None:
        return report(args.report)
    import logging

    logging.disable(logging.WARNING)  # the MIPs' progress and the start's notices
    done = set()
    if args.out.exists():
        done = {json.loads(line)["seed"] for line in args.out.read_text().splitlines() if line.strip()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for seed in range(args.first_seed, args.first_seed + args.problems):
        if seed in done:
            continue
        record = solve_one(draw(seed), args.time_limit, args.glpk)
        found = audit(record)
        print(f"seed {seed}: {record['dataset']} {record['n_rows']} rows R={record['R']} {record['form']}: "
              + ("; ".join(found["wrong"] + found["mismatch"]) or "ok"), flush=True)
        with args.out.open("a") as stream:
            stream.write(json.dumps(record) + "\n")
    return report(args.out)


if __name__ == "__main__":
    sys.exit(main())
