"""Column generation (``algorithm="cg"``): fit time per fold, test error and literals on the bundled datasets.

For each bundled dataset and form (DNF, CNF), 10 stratified folds
(``StratifiedKFold(10, shuffle=True, random_state=0)``), 9 quantile
thresholds, the estimator's defaults otherwise (θ, R): one
``BooleanRuleClassifier(algorithm="cg")`` fit per training fold, timed
(binarization included), scored on the test fold. AM with the same settings
is the reference. The target set when ``cg`` was added (2026-11-24): at most 1 s median per fold.

Run from the repository root::

    python benchmarks/bench_cg.py [--datasets pima sonar] [--out benchmarks/results/cg.json]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

from benchmarks._common import machine, markdown_table, write_json  # noqa: E402
from rulemodels import BooleanRuleClassifier, load_dataset  # noqa: E402

DATASETS = ("sonar", "liver", "pima", "parkinsons")
FORMS = ("dnf", "cnf")
ALGORITHMS = ("cg", "am")


def fold_rows(name: str, form: str, algorithm: str) -> dict:
    X, y = load_dataset(name)
    labels = np.asarray(y)
    times, errors, literals, terminations = [], [], [], []
    for train, test in StratifiedKFold(10, shuffle=True, random_state=0).split(X, labels):
        clf = BooleanRuleClassifier(algorithm=algorithm, form=form, n_thresholds=9)
        start = time.perf_counter()
        clf.fit(X.iloc[train], labels[train])
        times.append(time.perf_counter() - start)
        errors.append(1.0 - clf.score(X.iloc[test], labels[test]))
        literals.append(clf.rule_.n_literals)
        terminations.append(clf.termination_)
    return {
        "dataset": name, "form": form, "algorithm": algorithm,
        "median s": statistics.median(times), "max s": max(times),
        "test error %": 100 * float(np.mean(errors)), "literals": float(np.mean(literals)),
        "terminations": ", ".join(sorted(set(terminations))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results" / "cg.json")
    args = parser.parse_args()
    rows = [fold_rows(name, form, algorithm) for name in args.datasets for form in FORMS for algorithm in ALGORITHMS]
    print(markdown_table(rows, {"median s": 2, "max s": 2, "test error %": 1, "literals": 1}))
    write_json(args.out, {"machine": machine(), "rows": rows})


if __name__ == "__main__":
    main()
