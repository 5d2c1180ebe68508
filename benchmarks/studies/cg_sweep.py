"""``algorithm="cg"`` over a grid, the input of ``peer_table.py``.

R ∈ {3, 5} (R is the most clauses CG may select), the paper's 18 θ, stratified
10-fold CV (``random_state=0``), 9 thresholds, HiGHS, DNF and CNF, the four
bundled datasets, into a results file of
:func:`rulemodels.experiments.run_experiments` (resumable: run it again to go
on). Slow at small θ on Pima and Sonar, where CG's final integer selection
runs to its time limit (``CG_SELECTION_TIME_LIMIT``)::

    python benchmarks/studies/cg_sweep.py /tmp/cg.jsonl --jobs 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rulemodels.experiments import PAPER_THETAS, make_grid, run_experiments  # noqa: E402

DATASETS = ["liver", "parkinsons", "pima", "sonar"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="results file (JSON lines; appended to)")
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    tasks = [task for form in ("dnf", "cnf") for task in make_grid(
        args.datasets, ["cg"], [3, 5], list(PAPER_THETAS), n_folds=10, form=form, solver="highs", n_thresholds=9,
    )]
    print(f"{len(tasks)} fits", flush=True)
    run_experiments(tasks, args.results, backend="joblib", n_jobs=args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
