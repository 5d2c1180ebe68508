"""``python -m rulemodels.demo``: learn a DNF on the bundled Pima data and print it.

The main job of ``bash dev.sh demo`` (the full CLI, ``rulemodels fit``, comes later).
"""

from __future__ import annotations

import sys
import time

from rulemodels import BooleanRuleClassifier, load_dataset


def main(argv: list[str] | None = None) -> int:
    dataset = (argv or sys.argv[1:] or ["pima"])[0]
    X, y = load_dataset(dataset)
    start = time.perf_counter()
    clf = BooleanRuleClassifier(form="dnf", n_clauses=2, theta=0.01, algorithm="am", solver="highs").fit(X, y)
    seconds = time.perf_counter() - start
    complexity = clf.rule_.complexity()
    print(f"dataset: {dataset} ({X.shape[0]} samples, {X.shape[1]} features, {int(y.sum())} positives)")
    print(f"rule (predicts {y.name} = 1): {clf.rule_}")
    print(f"training accuracy: {clf.score(X, y):.3f}")
    print(
        f"complexity: {complexity['n_clauses']} clauses, {complexity['n_literals']} literals, "
        f"{complexity['n_features']} features"
    )
    print(
        f"AM: {clf.n_iter_} iterations ({clf.termination_}), {clf.n_solves_} LP solves, "
        f"{clf.n_builds_} model builds, {seconds:.1f} s with highs"
    )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
