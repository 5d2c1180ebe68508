"""What each strengthening of the exact 0-1 MIP does to the time to proof.

Random subsamples of the bundled datasets (the CLI's ``rulemodels exact
--sample N``: R = 2, DNF, the default θ = 0.002 × n in the paper's units, 9
quantile thresholds), each solved cold (no start: the model alone) by each
solver with each setting of :func:`rulemodels.models.build_zero_one`'s options:
``plain`` (none), ``count`` / ``index`` (the clause order alone), ``chains``
(the threshold chain cuts alone), ``conflicts`` (the conflict cuts alone),
``all`` (count order, chains and conflicts), ``default`` (chains and
conflicts: the candidate default measured last; the builder's default, chosen
from these records, is ``conflicts`` alone, ``docs/guide/models.md``). Each
record holds the termination, seconds, objective, bound and gap at the time
limit; every proven optimum of a sample must agree across settings and
solvers (the script says so when one does not). Run niced on a shared
machine::

    nice python benchmarks/studies/exact_strength.py
    nice python benchmarks/studies/exact_strength.py --datasets liver --sizes 40 --solvers highs --settings plain all
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402

SETTINGS = {
    "plain": {"symmetry": None, "conflicts": False, "chains": False},
    "count": {"symmetry": "count", "conflicts": False, "chains": False},
    "index": {"symmetry": "index", "conflicts": False, "chains": False},
    "chains": {"symmetry": None, "conflicts": False, "chains": True},
    "conflicts": {"symmetry": None, "conflicts": True, "chains": False},
    "all": {"symmetry": "count", "conflicts": True, "chains": True},
    "default": {"symmetry": None, "conflicts": True, "chains": True},
}


def sample_problem(dataset: str, size: int, seed: int):
    """The CNF problem of ``rulemodels exact --sample size --seed seed`` (DNF, 9 thresholds) and its θ."""
    from rulemodels import load_dataset
    from rulemodels.algorithms.exact import prepare_problem
    from rulemodels.defaults import DEFAULT_THETA

    X, y = load_dataset(dataset)
    rows = np.sort(np.random.default_rng(seed).choice(len(X), size=size, replace=False))
    problem, _ = prepare_problem(X.iloc[rows], np.asarray(y)[rows], form="dnf", n_thresholds=9)
    return problem, DEFAULT_THETA * size


def solve_one(problem, theta: float, n_clauses: int, setting: str, solver: str, time_limit: float) -> dict:
    """Build the MIP with ``setting`` and solve it cold; what came back."""
    from rulemodels.models import build_zero_one
    from solvers import SolveConfig, get_backend

    flags = SETTINGS[setting]
    started = time.perf_counter()
    handle = build_zero_one(
        problem.A, problem.y, n_clauses, theta=theta, sample_weight=problem.sample_weight, symmetry=flags["symmetry"],
        conflicts=flags["conflicts"], chains=problem.threshold_chains() if flags["chains"] else None,
    )
    built = time.perf_counter() - started
    backend = get_backend(solver)
    result = backend.solve(handle.model, config=SolveConfig(time_limit=time_limit))
    backend.release(handle.model)
    model = handle.model
    return {
        "termination": result.termination.value, "seconds": round(float(result.wall_time), 3), "build_seconds": round(built, 3),
        "objective": result.objective, "bound": result.bound, "gap": result.gap,
        "rows": int(model.nconstraints()), "conflict_cuts": len(model.conflict) if model.find_component("conflict") else 0,
        "chains": len(model.H) if model.find_component("H") else 0,
    }


def check_agreement(records: list[dict]) -> list[str]:
    """The samples whose proven optima differ between settings or solvers."""
    optima: dict[tuple, list[tuple[str, str, float]]] = {}
    for record in records:
        if record["termination"] == "optimal":
            key = (record["dataset"], record["size"], record["seed"])
            optima.setdefault(key, []).append((record["setting"], record["solver"], record["objective"]))
    return [
        f"{key}: {found}" for key, found in optima.items()
        if max(value for *_, value in found) - min(value for *_, value in found) > 1e-6 * max(1.0, abs(found[0][2]))
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=["liver", "pima"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[30, 40])
    parser.add_argument("--seeds", nargs="+", type=int, default=[0])
    parser.add_argument("--R", type=int, default=2)
    parser.add_argument("--solvers", nargs="+", default=["highs", "cbc"])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "studies" / "results" / "exact_strength.json")
    args = parser.parse_args()

    records = []
    for dataset in args.datasets:
        for size in args.sizes:
            for seed in args.seeds:
                problem, theta = sample_problem(dataset, size, seed)
                for solver in args.solvers:
                    for setting in args.settings:
                        record = {"dataset": dataset, "size": size, "seed": seed, "R": args.R, "theta": theta,
                                  "features": problem.n_features, "solver": solver, "setting": setting}
                        record.update(solve_one(problem, theta, args.R, setting, solver, args.time_limit))
                        records.append(record)
                        print(
                            f"{dataset:6} n={size:3} seed={seed} {solver:5} {setting:9} {record['termination']:10} "
                            f"{record['seconds']:7.2f} s  objective {record['objective']}  bound {record['bound']}  gap {record['gap']}",
                            flush=True,
                        )
    disagreements = check_agreement(records)
    for line in disagreements:
        print("proven optima differ:", line)
    columns = ("dataset", "size", "seed", "solver", "setting", "termination", "seconds", "objective", "bound", "gap")
    table = markdown_table(
        [{key: record[key] for key in columns} for record in records],
        digits={"seconds": 2, "objective": 4, "bound": 4, "gap": 3},
    )
    write_json(args.out, {
        "machine": machine(), "time_limit": args.time_limit, "settings": SETTINGS, "records": records,
        "disagreements": disagreements,
    })
    args.out.with_suffix(".md").write_text(
        f"# Exact 0-1 MIP: time to proof per strengthening\n\nTime limit {args.time_limit:g} s per solve, cold start, "
        f"R = {args.R}, DNF, θ = 0.002 n, 9 quantile thresholds (`benchmarks/studies/exact_strength.py`).\n\n{table}\n"
    )
    print(table)
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
