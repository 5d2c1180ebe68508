"""How far the ``fit`` default θ is from the best θ of a fine grid, in 10-fold CV error (the default θ = 0.005 of 2026-11-24).

``BooleanRuleClassifier()`` defaults (AM, R = 2, 9 thresholds) except θ and the
form, on the four bundled datasets, 10 folds ``StratifiedKFold(10,
shuffle=True, random_state=0)``, both forms; each training fold has one
:class:`~rulemodels.TrainingWorkspace` shared by every θ. Prints, per dataset
and form, the mean test error % at each θ, at the default θ and at the best θ
of the grid, and writes ``benchmarks/studies/results/default_theta.md`` and ``.json``.

    .venv/bin/python benchmarks/studies/default_theta.py [--datasets liver sonar] [--jobs 2]
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import StratifiedKFold

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import error_percent, machine, markdown_table, study_parser, write_json  # noqa: E402

DATASETS = ("liver", "parkinsons", "pima", "sonar")
#: θ as a share of the training rows, about four steps per factor of ten.
THETAS = (0.0005, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.007, 0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1)
RESULTS = Path(__file__).parent / "results"


def run_fold(dataset: str, fold: int, train: np.ndarray, test: np.ndarray) -> list[dict[str, Any]]:
    """Every (form, θ) of the grid fitted on one training fold and scored on its test fold."""
    from rulemodels import BooleanRuleClassifier, TrainingWorkspace, load_dataset
    from rulemodels.algorithms.baseline import TrivialRuleWarning

    warnings.simplefilter("ignore", TrivialRuleWarning)
    X, y = load_dataset(dataset)
    y = np.asarray(y)
    base = BooleanRuleClassifier()
    records = []
    with TrainingWorkspace(X.iloc[train], y[train], binarizer=base._make_binarizer(), solver=base.solver) as workspace:
        for form in ("dnf", "cnf"):
            for theta in THETAS:
                fitted = BooleanRuleClassifier(form=form, theta=theta).fit(X.iloc[train], y[train], workspace=workspace)
                records.append({
                    "dataset": dataset, "fold": fold, "form": form, "theta": theta,
                    "error": error_percent(fitted, X.iloc[test], y[test]),
                    "n_literals": fitted.rule_.n_literals,
                })
    return records


def main() -> None:
    args = study_parser(__doc__, DATASETS, RESULTS / "default_theta").parse_args()
    from rulemodels import defaults, load_dataset

    tasks = []
    for dataset in args.datasets:
        X, y = load_dataset(dataset)
        for k, (train, test) in enumerate(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y)):
            tasks.append(delayed(run_fold)(dataset, k, train, test))
    start = time.perf_counter()
    records = [r for fold in Parallel(n_jobs=args.jobs)(tasks) for r in fold]
    rows = []
    for dataset in args.datasets:
        for form in ("dnf", "cnf"):
            mine = [r for r in records if r["dataset"] == dataset and r["form"] == form]
            errors = {t: float(np.mean([r["error"] for r in mine if r["theta"] == t])) for t in THETAS}
            literals = {t: float(np.mean([r["n_literals"] for r in mine if r["theta"] == t])) for t in THETAS}
            best = min(THETAS, key=lambda t: (errors[t], -t))
            default = defaults.DEFAULT_THETA
            row = {"dataset": dataset, "form": form}
            row.update({f"{t:g}": errors[t] for t in THETAS})
            row.update({
                "best θ": f"{best:g}", "best %": errors[best], "default %": errors[default],
                "default − best": errors[default] - errors[best],
                "literals at default": literals[default], "literals at best": literals[best],
            })
            rows.append(row)
    digits = {key: 1 for key in rows[0] if key not in ("dataset", "form", "best θ")}
    table = markdown_table(rows, digits=digits)
    print(table)
    header = (
        "# The fit default θ against the best θ of a fine grid\n\n"
        f"`benchmarks/studies/default_theta.py`: AM, R = 2, 9 thresholds, 10 folds `StratifiedKFold(10, shuffle=True, "
        f"random_state=0)`, mean test error % per θ (share of the training rows); default θ = "
        f"{defaults.DEFAULT_THETA:g}; {time.perf_counter() - start:.0f} s wall with {args.jobs} job(s).\n\n"
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(header + table + "\n")
    write_json(args.out.with_suffix(".json"), {"machine": machine(), "summary": rows, "records": records})


if __name__ == "__main__":
    main()
