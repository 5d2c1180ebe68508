"""Cost of one clause-LP re-solve through the modeling layer, versus highspy directly.

The LP sequence is recorded from real fits: BCD and AM (R=3, θ = 0.001,
0.01, 0.1) on the
first training fold of Pima and of Sonar (10-fold stratified split,
``random_state=0``, the default quantile binarization). Every LP the
clause engine solved is recorded as (fit, sample weights, θ). The same
sequence is then replayed, in one run:

* through our persistent model, one per fit (``lp.set_sample_weight`` +
  ``backend.solve(lp.model, changes=ModelChanges(**lp.parameter_changes()))``,
  the variable values loaded into the Pyomo model), with every backend
  available here; for HiGHS both *warm* (the basis of the previous solve is
  kept) and *cold* (``warm_start=False``, what the clause engine does);
* directly with ``highspy`` on numpy arrays (one ``Highs`` object per fit,
  objective costs changed with ``changeColsCost``, the column values read
  back with ``getSolution``), warm and cold (``clearSolver``), with the same
  HiGHS options as our small-LP defaults (presolve off).

It reports per-solve medians and means, the ratio to the direct warm
re-solve, and checks that every route reaches the same LP optima. Results
are printed as a Markdown table and written to
``benchmarks/results/resolve.json``.

Run from the repository root::

    python benchmarks/bench_resolve.py
    python benchmarks/bench_resolve.py --datasets pima --solvers highs
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402
from rulemodels.algorithms import ClauseEngine, LPSolutionCache, WorkingData, learn  # noqa: E402
from rulemodels.data import FeatureBinarizer  # noqa: E402
from rulemodels.datasets import load_dataset  # noqa: E402
from rulemodels.models import build_clause_lp  # noqa: E402
from rulemodels.models.problem import CNFProblem  # noqa: E402
from solvers import ModelChanges, available_backends, get_backend  # noqa: E402

THETAS = (0.001, 0.01, 0.1)
N_CLAUSES = 3


@contextlib.contextmanager
def recording(sequence: list[tuple[np.ndarray, float]]):
    """Record the sample weights and θ of every clause-LP solve of the fits run inside the block."""
    solve = ClauseEngine._solve

    def recorded(engine: ClauseEngine, slot: int, weight: np.ndarray) -> np.ndarray:
        sequence.append((weight.copy(), engine.theta))
        return solve(engine, slot, weight)

    ClauseEngine._solve = recorded  # type: ignore[method-assign]
    try:
        yield sequence
    finally:
        ClauseEngine._solve = solve  # type: ignore[method-assign]


def fold_problem(dataset: str) -> CNFProblem:
    """The DNF problem (as a CNF of the negated class) of the first training fold."""
    from sklearn.model_selection import StratifiedKFold

    X, y = load_dataset(dataset)
    train, _ = next(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))
    binarizer = FeatureBinarizer().fit(X.iloc[train])
    A = binarizer.transform(X.iloc[train])
    return CNFProblem.from_binary(A, y[train], literals=binarizer.literals_, form="dnf")


def record_sequence(problem: CNFProblem) -> list[tuple[int, np.ndarray, float]]:
    """Every (fit, weights, θ) the BCD and AM fits solve at three θ, in order (each fit on its own workspace)."""
    sequence: list[tuple[int, np.ndarray, float]] = []
    fit = 0
    for theta in THETAS:
        for algorithm in ("bcd", "am"):
            with recording([]) as recorded, LPSolutionCache(WorkingData.from_problem(problem), get_backend("highs")) as cache:
                learn(cache, algorithm=algorithm, n_clauses=N_CLAUSES, theta=theta, max_iter=100)
            sequence += [(fit, weight, solved_theta) for weight, solved_theta in recorded]
            fit += 1
    return sequence


def replay_pyomo(problem: CNFProblem, sequence: list, solver: str, cold: bool) -> tuple[list[float], list[float]]:
    """Seconds and objective of each solve through our persistent model (one per fit)."""
    backend = get_backend(solver)
    models: dict[int, Any] = {}
    times, objectives = [], []
    for fit, weight, theta in sequence:
        if fit not in models:
            models[fit] = build_clause_lp(problem.A, problem.y, theta=theta, sample_weight=weight)
            backend.solve(models[fit].model)  # the first solve builds the solver instance: not a re-solve
        start = time.perf_counter()
        models[fit].set_sample_weight(weight)
        changes = ModelChanges(**models[fit].parameter_changes())
        result = backend.solve(models[fit].model, changes=changes, warm_start=not cold)
        times.append(time.perf_counter() - start)
        objectives.append(result.objective)
    return times, objectives


class DirectClauseLP:
    """The clause LP in highspy from numpy arrays: columns w (d) then ξ (one per positive group)."""

    def __init__(self, model: Any, theta: float):
        import highspy
        import scipy.sparse as sp

        groups = model.groups
        self.groups = groups
        self.positives = groups.positives
        self.negatives = groups.negatives
        self.theta = theta
        d = len(model.model.J)
        p = self.positives.shape[0]
        self.d = d
        rows = sp.hstack([groups.patterns[self.positives].astype(float), sp.identity(p, format="csr")], format="csc")
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
        highs.setOptionValue("presolve", "off")
        lp = highspy.HighsLp()
        lp.num_col_ = d + p
        lp.num_row_ = p
        lp.col_cost_ = np.zeros(d + p)
        lp.col_lower_ = np.zeros(d + p)
        lp.col_upper_ = np.concatenate([np.ones(d), np.full(p, highspy.kHighsInf)])
        lp.row_lower_ = np.ones(p)
        lp.row_upper_ = np.full(p, highspy.kHighsInf)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_ = rows.indptr
        lp.a_matrix_.index_ = rows.indices
        lp.a_matrix_.value_ = rows.data
        highs.passModel(lp)
        self.highs = highs
        self.indices = np.arange(d + p, dtype=np.int32)

    def solve(self, weight: np.ndarray, cold: bool) -> float:
        group_weight = self.groups.group_weights(weight)
        neg_cost = np.asarray(self.groups.patterns[self.negatives].T @ group_weight[self.negatives]).ravel()
        cost = np.concatenate([neg_cost + self.theta, group_weight[self.positives]])
        if cold:
            self.highs.clearSolver()
        self.highs.changeColsCost(cost.shape[0], self.indices, cost)
        self.highs.run()
        self.w = np.asarray(self.highs.getSolution().col_value)[: self.d]
        return float(self.highs.getInfo().objective_function_value)


def replay_direct(problem: CNFProblem, sequence: list, cold: bool) -> tuple[list[float], list[float]]:
    lps: dict[int, DirectClauseLP] = {}
    times, objectives = [], []
    for fit, weight, theta in sequence:
        if fit not in lps:
            lps[fit] = DirectClauseLP(build_clause_lp(problem.A, problem.y, theta=theta, sample_weight=weight), theta)
            lps[fit].solve(weight, cold=True)
        start = time.perf_counter()
        objective = lps[fit].solve(weight, cold)
        times.append(time.perf_counter() - start)
        objectives.append(objective)
    return times, objectives


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["pima", "sonar"])
    parser.add_argument("--solvers", nargs="+", default=None, help="backends to replay through (default: all available)")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "resolve.json")
    args = parser.parse_args(argv)
    solvers = args.solvers or available_backends()
    rows = []
    for dataset in args.datasets:
        problem = fold_problem(dataset)
        sequence = record_sequence(problem)
        routes: dict[str, tuple[list[float], list[float]]] = {
            "highspy direct, warm": replay_direct(problem, sequence, cold=False),
            "highspy direct, cold": replay_direct(problem, sequence, cold=True),
        }
        for solver in solvers:
            if get_backend(solver).capabilities.warm_start:
                routes[f"rulemodels + {solver}, warm"] = replay_pyomo(problem, sequence, solver, cold=False)
                routes[f"rulemodels + {solver}, cold"] = replay_pyomo(problem, sequence, solver, cold=True)
            else:
                routes[f"rulemodels + {solver}"] = replay_pyomo(problem, sequence, solver, cold=False)
        reference = np.array(routes["highspy direct, warm"][1])
        base = statistics.median(routes["highspy direct, warm"][0])
        for route, (times, objectives) in routes.items():
            mismatch = float(np.max(np.abs(np.array(objectives, dtype=float) - reference)))
            rows.append({
                "dataset": dataset,
                "binary features": problem.A.shape[1],
                "LPs": len(sequence),
                "route": route,
                "median ms": 1000 * statistics.median(times),
                "mean ms": 1000 * statistics.fmean(times),
                "x direct warm": statistics.median(times) / base,
                "max |Δ objective|": mismatch,
            })
            print(f"{dataset}: {route}: median {1000 * statistics.median(times):.2f} ms", file=sys.stderr, flush=True)
    print(markdown_table(rows, {"median ms": 2, "mean ms": 2, "x direct warm": 1}))
    write_json(args.out, {"machine": machine(), "thetas": THETAS, "n_clauses": N_CLAUSES, "rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
