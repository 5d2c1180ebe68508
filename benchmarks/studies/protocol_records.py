"""Refactors keep results: the paper protocol's records of one checkout, and the comparison of two runs.

Runs the grid of ``bench_protocol.py`` (SCS, SCN, BCD and AM; R = 1..5; the
paper's 18 θ; stratified 10-fold CV; 9 thresholds; HiGHS) on the four bundled
datasets, in DNF and (with ``--forms dnf cnf``) CNF, into a JSON-lines results
file; ``--compare A B`` then lists every record whose rule, training error or
test error differs between two such files (the exit status is 1 when any
does). Run it from the checkout whose code it should use; for an older commit
use a worktree and its own path::

    git worktree add ../before HEAD~3
    (cd ../before && PYTHONPATH=$PWD python benchmarks/studies/protocol_records.py --out /tmp/before.jsonl)
    python benchmarks/studies/protocol_records.py --out /tmp/after.jsonl
    python benchmarks/studies/protocol_records.py --compare /tmp/before.jsonl /tmp/after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

ALGORITHMS = ["scs", "scn", "bcd", "am"]
DATASETS = ["liver", "parkinsons", "pima", "sonar"]
COMPARED = ("rule", "train_error", "test_error")


def run(out: Path, datasets: list[str], forms: list[str], jobs: int) -> None:
    from rulemodels.experiments import PAPER_THETAS, make_grid, run_experiments

    tasks = [
        task for form in forms for task in make_grid(
            datasets, ALGORITHMS, range(1, 6), list(PAPER_THETAS), n_folds=10, form=form, solver="highs", n_thresholds=9,
        )
    ]
    results = run_experiments(tasks, out, backend="joblib", n_jobs=jobs)
    failed = int(results["error"].notna().sum())
    print(f"{len(results)} records in {out} ({failed} failed)")


def _records(path: Path) -> dict[str, dict]:
    found = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if record.get("error") is None:
            found[record["key"]] = record
    return found


def compare(before: Path, after: Path) -> int:
    old, new = _records(before), _records(after)
    missing = sorted(set(old) ^ set(new))
    differ = [key for key in sorted(set(old) & set(new)) if any(old[key].get(f) != new[key].get(f) for f in COMPARED)]
    print(f"{len(set(old) & set(new))} records in both; {len(missing)} in only one; {len(differ)} differ in {', '.join(COMPARED)}")
    for key in differ[:50]:
        changes = {f: (old[key].get(f), new[key].get(f)) for f in COMPARED if old[key].get(f) != new[key].get(f)}
        print(f"  {key}: {changes}")
    return 1 if differ or missing else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the records of this checkout here")
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--forms", nargs="+", default=["dnf"], choices=("dnf", "cnf"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give --out FILE (to run) or --compare BEFORE AFTER")
    run(args.out, args.datasets, args.forms, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
