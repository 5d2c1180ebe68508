"""Honest (nested) and optimistic (test-fold-selected) errors of BooleanRuleCV's default grid (its defaults of 2026-11-24 and 2026-11-25).

The four bundled datasets, 10 outer folds ``StratifiedKFold(10, shuffle=True,
random_state=0)``, 9 quantile thresholds (the default). On each outer training
fold:

- **honest**: ``BooleanRuleCV()`` with its default grid (``random_state=0`` for
  its inner 10-fold split, so the run repeats) chooses algorithm, θ, R and form
  on the training fold only; the chosen rule, refitted on the training fold, is
  scored on the test fold. Both selection rules (``"best"``, the default, and
  ``"1se"``), and each form alone (the same search restricted to that form's
  candidates, which is what ``BooleanRuleCV(forms=(form,))`` chooses: the same
  inner splits give the same fold rules). The JSON keeps each fold's inner CV
  table (``inner``), so other selection rules can be scored offline.
- **optimistic**: every candidate of the grid is fitted on the training fold
  and scored on the test fold; the candidate with the lowest mean test error
  over the 10 folds is reported (as the paper's Table 1 picks θ), overall and
  per form. This is not an estimate of the error on new data.

Errors in %, literals of the simplified rule (mean over the folds). Writes
``benchmarks/studies/results/nested_cv.md`` and ``.json``.

    .venv/bin/python benchmarks/studies/nested_cv.py [--datasets liver sonar] [--jobs 2] [--folds K]
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import error_percent, machine, markdown_table, study_parser  # noqa: E402
from rulemodels import defaults  # noqa: E402

DATASETS = ("liver", "parkinsons", "pima", "sonar")
#: BRCG's best over its sweep, test-fold selected (the product owner's table of 2026-11-24): error %, form, literals.
BRCG_BEST = {"sonar": (22.1, "CNF", 10.4), "liver": (31.6, "CNF", 3.7), "pima": (23.4, "DNF", 20.9),
             "parkinsons": (8.7, "CNF", 10.8)}
RESULTS = Path(__file__).parent / "results"


def _subset(results: dict[str, Any], rows: list[int]) -> dict[str, Any]:
    """The columns :func:`choose_candidate` reads, for the candidates ``rows`` only."""
    keys = [k for k in results if k.startswith("split") and k.endswith("_test_score")] + ["mean_test_score", "mean_n_literals"]
    return {k: np.asarray(results[k])[rows] for k in keys}


def run_fold(dataset: str, fold: int, train: np.ndarray, test: np.ndarray, algorithms: list[str] | None = None,
             cv_repeats: int = 1, search_params: dict[str, Any] | None = None,
             inner_folds: int = defaults.DEFAULT_SEARCH_CV) -> dict[str, Any]:
    """One outer fold: the default search on the training rows, and every candidate scored on the test rows."""
    from rulemodels import BooleanRuleClassifier, BooleanRuleCV, TrainingWorkspace, load_dataset
    from rulemodels.algorithms.baseline import TrivialRuleWarning
    from rulemodels.model_selection import choose_candidate

    warnings.simplefilter("ignore", TrivialRuleWarning)
    X, y = load_dataset(dataset)
    y = np.asarray(y)
    X_train, y_train, X_test, y_test = X.iloc[train], y[train], X.iloc[test], y[test]
    start = time.perf_counter()
    search_grid: dict[str, Any] = {} if algorithms is None else {"algorithms": tuple(algorithms)}
    search_grid.update(search_params or {})
    if cv_repeats > 1:
        search_grid["cv"] = RepeatedStratifiedKFold(n_splits=inner_folds, n_repeats=cv_repeats, random_state=0)
    elif inner_folds != defaults.DEFAULT_SEARCH_CV:
        search_grid["cv"] = inner_folds
    search = BooleanRuleCV(random_state=0, refit=False, **search_grid).fit(X_train, y_train)
    search_seconds = time.perf_counter() - start
    results = search.cv_results_
    candidates = results["params"]
    # Every candidate on the training fold (one shared workspace), scored on the test fold.
    grid = []
    base = BooleanRuleClassifier(random_state=0)
    start = time.perf_counter()
    with TrainingWorkspace(X_train, y_train, binarizer=base._make_binarizer(), solver=base.solver) as workspace:
        for params in candidates:
            fitted = BooleanRuleClassifier(random_state=0, **params).fit(X_train, y_train, workspace=workspace)
            grid.append({
                "error": error_percent(fitted, X_test, y_test), "n_literals": fitted.rule_.n_literals,
            })
    grid_seconds = time.perf_counter() - start
    chosen = {}
    variants = [(f"honest {selection}" + (f" {form}" if form else ""), form, selection)
                for selection in ("best", "1se") for form in (None, "dnf", "cnf")]
    for label, form, selection in variants:
        rows = [i for i, p in enumerate(candidates) if form is None or p["form"] == form]
        index = rows[choose_candidate(_subset(results, rows), selection)[0]]
        chosen[label] = {"params": candidates[index], **grid[index]}
    return {
        "dataset": dataset, "fold": fold, "candidates": candidates, "grid": grid, "chosen": chosen,
        "inner": {key: np.asarray(values).tolist() for key, values in _subset(results, list(range(len(candidates)))).items()},
        "search_seconds": search_seconds, "refit_seconds_all_candidates": grid_seconds,
    }


def summarise(folds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per dataset and variant: mean error % and literals over the folds."""
    rows = []
    for dataset in dict.fromkeys(f["dataset"] for f in folds):
        mine = [f for f in folds if f["dataset"] == dataset]
        brcg = BRCG_BEST.get(dataset)
        for label in mine[0]["chosen"]:
            picks = [f["chosen"][label] for f in mine]
            algorithms = sorted({p["params"]["algorithm"] for p in picks})
            forms = sorted({p["params"]["form"] for p in picks})
            rows.append({
                "dataset": dataset, "selection": label,
                "error %": float(np.mean([p["error"] for p in picks])),
                "literals": float(np.mean([p["n_literals"] for p in picks])),
                "chosen": f"{'/'.join(algorithms)}, {'/'.join(forms)}, R {sorted({p['params']['n_clauses'] for p in picks})}",
                "BRCG best %": brcg[0] if brcg else "",
                "search s (median)": float(np.median([f["search_seconds"] for f in mine])),
            })
        candidates = mine[0]["candidates"]
        errors = np.array([[g["error"] for g in f["grid"]] for f in mine])  # folds × candidates
        literals = np.array([[g["n_literals"] for g in f["grid"]] for f in mine])
        for form in (None, "dnf", "cnf"):
            columns = [i for i, p in enumerate(candidates) if form is None or p["form"] == form]
            best = columns[int(np.argmin(errors[:, columns].mean(axis=0)))]
            p = candidates[best]
            rows.append({
                "dataset": dataset, "selection": "optimistic" + (f" {form}" if form else ""),
                "error %": float(errors[:, best].mean()), "literals": float(literals[:, best].mean()),
                "chosen": f"{p['algorithm']}, {p['form']}, R {p['n_clauses']}, θ {p['theta']:g}",
                "BRCG best %": brcg[0] if brcg else "", "search s (median)": "",
            })
    return rows


def main() -> None:
    parser = study_parser(__doc__, DATASETS, RESULTS / "nested_cv")
    parser.add_argument("--folds", type=int, default=10, help="run only the first K of the 10 outer folds")
    parser.add_argument("--algorithms", nargs="+", default=None, help="BooleanRuleCV(algorithms=...) (default: its default)")
    parser.add_argument("--thetas", nargs="+", type=float, default=None, help="BooleanRuleCV(thetas=...)")
    parser.add_argument("--n-clauses", nargs="+", type=int, default=None, help="BooleanRuleCV(n_clauses=...)")
    parser.add_argument("--cv-repeats", type=int, default=1,
                        help="inner CV = RepeatedStratifiedKFold(K, N, random_state=0) instead of K folds")
    parser.add_argument("--outer-seed", type=int, default=0, help="random_state of the outer 10-fold split (default 0: BRCG's folds)")
    parser.add_argument("--inner-folds", type=int, default=defaults.DEFAULT_SEARCH_CV,
                        help=f"K, the inner CV's folds (default {defaults.DEFAULT_SEARCH_CV}, BooleanRuleCV's)")
    args = parser.parse_args()
    from rulemodels import load_dataset

    grid = {key: tuple(value) for key, value in (("thetas", args.thetas), ("n_clauses", args.n_clauses)) if value}
    tasks = []
    for dataset in args.datasets:
        X, y = load_dataset(dataset)
        splits = list(StratifiedKFold(10, shuffle=True, random_state=args.outer_seed).split(X, y))[: args.folds]
        tasks += [delayed(run_fold)(dataset, k, train, test, args.algorithms, args.cv_repeats, grid, args.inner_folds)
                  for k, (train, test) in enumerate(splits)]
    start = time.perf_counter()
    folds = Parallel(n_jobs=args.jobs, verbose=5)(tasks)
    rows = summarise(folds)
    table = markdown_table(rows, digits={"error %": 1, "literals": 1, "search s (median)": 1})
    print(table)
    repeats = f" × {args.cv_repeats} repeats" if args.cv_repeats > 1 else ""
    header = (
        "# BooleanRuleCV defaults: honest nested CV vs test-fold selection\n\n"
        f"`{' '.join(['python benchmarks/studies/nested_cv.py', *sys.argv[1:]])}`: {args.folds} of 10 outer folds "
        f"`StratifiedKFold(10, shuffle=True, random_state={args.outer_seed})`, "
        f"9 thresholds, {args.jobs} job(s), {time.perf_counter() - start:.0f} s wall. 'honest' rows choose on the "
        f"training fold only (BooleanRuleCV, inner {args.inner_folds} folds{repeats}, random_state=0); 'optimistic' rows pick the "
        "grid candidate with the best mean test-fold error (not an estimate of the error on new data). "
        "'search s' is the BooleanRuleCV search on one outer training fold (no refit; jobs running side by side share the CPU).\n\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(header + table + "\n")
    # The grid is the same on every fold: stored once; compact, since each fold keeps its inner CV table.
    compact = [{key: value for key, value in fold.items() if key != "candidates"} for fold in folds]
    report = {"machine": machine(), "summary": rows, "candidates": folds[0]["candidates"], "folds": compact}
    args.out.with_suffix(".json").write_text(json.dumps(report, separators=(",", ":"), default=str) + "\n")


if __name__ == "__main__":
    main()
