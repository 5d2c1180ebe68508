"""Ordered rule lists on 3-class tasks vs one-vs-rest depth-4 trees, in 10-fold CV error (rule lists since 2026-11-25).

Each bundled dataset becomes a 3-class task: the positive class split in two by
a feature's median among the positives (pima: glucose; the other datasets: the
column most correlated with the label), so the classes are 0 (negative), 1
(positive, at or below the median) and 2 (positive, above it). Each model is
scored by ``StratifiedKFold(10, shuffle=True, random_state=0)``: the mean test
error % and the mean number of conditions (a rule list: conditions as printed,
summed over its steps; ``OneVsRestClassifier(DecisionTreeClassifier(max_depth=4,
random_state=0))``: internal nodes summed over its three trees). The rule lists
are ``BooleanRuleClassifier()`` with its defaults and the variants in
``VARIANTS``. Writes ``benchmarks/studies/results/multiclass.md`` and ``.json``.

    .venv/bin/python benchmarks/studies/multiclass.py [--datasets pima liver] [--jobs 2]
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.model_selection import StratifiedKFold

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import error_percent, machine, markdown_table, study_parser, write_json  # noqa: E402

DATASETS = ("liver", "parkinsons", "pima", "sonar")
RESULTS = Path(__file__).parent / "results"
#: The rule-list settings measured: the estimator's defaults first, then variants (name -> parameters).
VARIANTS: dict[str, dict[str, Any]] = {
    "rule list (defaults)": {},
    "rule list, class_order=rarest": {"class_order": "rarest"},
    "rule list, R=3, θ=0.002": {"n_clauses": 3, "theta": 0.002},
    "rule list, form=cnf": {"form": "cnf"},
}
TREES = "OvR tree depth 4"


def three_class_task(name: str) -> tuple[pd.DataFrame, np.ndarray, str]:
    """``(X, y3, feature)``: the dataset with its positive class split by ``feature``'s median among the positives."""
    from rulemodels import load_dataset

    X, y = load_dataset(name)
    y = np.asarray(y)
    if name == "pima":
        feature = "glucose"
    else:
        correlation = X.apply(lambda column: abs(np.corrcoef(column.to_numpy(dtype=float), y)[0, 1]))
        feature = str(correlation.idxmax())
    median = X[feature][y == 1].median()
    return X, np.where(y == 0, 0, np.where(X[feature] > median, 2, 1)), feature


def tree_conditions(model: Any) -> int:
    """Internal nodes (one condition each) summed over the trees of a one-vs-rest ensemble."""
    return int(sum(tree.tree_.node_count - tree.tree_.n_leaves for tree in model.estimators_))


def run_fold(name: str, fold: int, train: np.ndarray, test: np.ndarray) -> list[dict[str, Any]]:
    """Every model fitted on one training fold and scored on its test fold."""
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.tree import DecisionTreeClassifier

    from rulemodels import BooleanRuleClassifier
    from rulemodels.algorithms.baseline import TrivialRuleWarning

    warnings.simplefilter("ignore", TrivialRuleWarning)
    X, y, _ = three_class_task(name)
    records = []
    for model, params in VARIANTS.items():
        start = time.perf_counter()
        fitted = BooleanRuleClassifier(**params).fit(X.iloc[train], y[train])
        records.append({
            "dataset": name, "fold": fold, "model": model, "seconds": time.perf_counter() - start,
            "error": error_percent(fitted, X.iloc[test], y[test]),
            "conditions": fitted.rule_.n_conditions,
        })
    trees = OneVsRestClassifier(DecisionTreeClassifier(max_depth=4, random_state=0)).fit(X.iloc[train], y[train])
    records.append({
        "dataset": name, "fold": fold, "model": TREES, "seconds": 0.0,
        "error": error_percent(trees, X.iloc[test], y[test]), "conditions": tree_conditions(trees),
    })
    return records


def main() -> None:
    args = study_parser(__doc__, DATASETS, RESULTS / "multiclass").parse_args()
    splitter = StratifiedKFold(10, shuffle=True, random_state=0)
    jobs = []
    features = {}
    for name in args.datasets:
        X, y, features[name] = three_class_task(name)
        jobs += [delayed(run_fold)(name, k, train, test) for k, (train, test) in enumerate(splitter.split(X, y))]
    started = time.perf_counter()
    records = [record for fold in Parallel(n_jobs=args.jobs)(jobs) for record in fold]
    frame = pd.DataFrame(records)
    summary = frame.groupby(["dataset", "model"], sort=False).agg(
        error=("error", "mean"), error_sd=("error", "std"), conditions=("conditions", "mean"), seconds=("seconds", "mean"),
    ).reset_index()
    rows = []
    for name in args.datasets:
        part = summary[summary["dataset"] == name]
        tree = part[part["model"] == TREES].iloc[0]
        for _, row in part.iterrows():
            rows.append({
                "dataset": f"{name} (split by {features[name]})", "model": row["model"],
                "CV error %": float(row["error"]), "± sd": float(row["error_sd"]),
                "vs trees (points)": float(row["error"] - tree["error"]),
                "conditions": float(row["conditions"]), "fit s": float(row["seconds"]),
            })
    table = markdown_table(rows, {"CV error %": 2, "± sd": 2, "vs trees (points)": 2, "conditions": 1, "fit s": 2})
    print(table)
    text = "\n".join([
        "# Ordered rule lists vs one-vs-rest trees on 3-class tasks",
        "",
        (__doc__ or "").split("\n\n")[0].replace("\n", " "),
        "",
        "10-fold CV (`StratifiedKFold(10, shuffle=True, random_state=0)`): mean test error %, its standard deviation "
        "over folds, the difference to the trees in points (negative: the rule list is better), mean conditions of "
        "the fitted model and mean fit seconds of a rule list.",
        "",
        table,
        "",
        f"{len(jobs)} folds in {time.perf_counter() - started:.0f} s; written by `benchmarks/studies/multiclass.py`.",
        "",
    ])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(text)
    write_json(args.out.with_suffix(".json"), {"machine": machine(), "features": features, "rows": rows, "folds": records})


if __name__ == "__main__":
    main()
