"""The floor in rows at every size: the same rule (½ ln n rows a literal) from 200 to 200,000 rows.

``BooleanRuleClassifier()`` (its defaults: θ = 0.002 of the rows with a floor of
``min_literal_rows="auto"`` = ½ ln n rows, label-aware cut points whose leaves
hold at least as many rows) fitted at n = 200, 2,000, 20,000 and 200,000 rows of

- **pure noise**: 5 standard normal columns and labels drawn at random with 6 %
  positives, independent of them (``numpy.random.default_rng(seed)``, seeds 0-2);
  the right answer is the constant rule;
- **a planted rule**: ``make_rule_data(n, kind="numeric")``, the 3-clause DNF
  ``(x0 > 0.3 and x1 <= 0.5) or (x2 > 0.8 and x3 > -0.2) or (x4 <= -0.6 and
  x7 > 0)`` with 5 % of the labels flipped; the right answer is that rule, and
  the Bayes error is 5 %.

Each fit is scored on 20,000 fresh rows of the same distribution. Beside it, the
same fit with ``min_literal_rows=0`` (no floor: θ = 0.002 alone, as before).
Written to ``results/floor_sizes.json`` and ``results/floor_sizes.md``::

    .venv/bin/python benchmarks/studies/floor_sizes.py
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import markdown_table  # noqa: E402

RESULTS = Path(__file__).parent / "results"
SIZES = (200, 2_000, 20_000, 200_000)
TEST_ROWS = 20_000


def noise(n: int, seed: int):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 5)), columns=list("abcde"))
    return X, pd.Series((rng.random(n) < 0.06).astype(int), name="y")


def planted(n: int, seed: int):
    from rulemodels import make_rule_data

    return make_rule_data(n, kind="numeric", random_state=seed)


def fit_one(kind: str, n: int, seed: int, floor: str | float) -> dict:
    import numpy as np

    from rulemodels import BooleanRuleClassifier, TrivialRuleWarning

    make = noise if kind == "noise" else planted
    X, y = make(n, seed)
    X_test, y_test = make(TEST_ROWS, 1_000 + seed)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = BooleanRuleClassifier(min_literal_rows=floor).fit(X, y)
    seconds = time.perf_counter() - start
    majority = float(np.mean(np.asarray(y_test) != int(np.mean(y) > 0.5)))
    return {
        "kind": kind, "n": n, "seed": seed, "min_literal_rows": floor, "rule": str(model.rule_),
        "literals": int(model.rule_.n_literals), "floor_rows": 0.5 * math.log(n) if floor == "auto" else float(floor),
        "paper_theta": float(model.paper_theta_), "test_error": float(model.score(X_test, y_test) * -1 + 1),
        "majority_error": majority, "training_error": float(model.training_error_),
        "trivial_warning": any(issubclass(w.category, TrivialRuleWarning) for w in caught), "seconds": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0]).parse_args(argv)
    records = []
    for kind, seeds in (("noise", (0, 1, 2)), ("planted", (0,))):
        for n in SIZES:
            for seed in seeds:
                for floor in ("auto", 0):
                    record = fit_one(kind, n, seed, floor)
                    records.append(record)
                    print(f"{kind} n={n} seed={seed} floor={floor}: {record['literals']} literal(s), test error "
                          f"{100 * record['test_error']:.2f} % (majority {100 * record['majority_error']:.2f} %), "
                          f"{record['seconds']:.1f} s", flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "floor_sizes.json").write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    rows = [{
        "data": r["kind"], "rows": f"{r['n']:,}", "seed": r["seed"],
        "min_literal_rows": r["min_literal_rows"], "literal costs (rows)": f"{r['paper_theta']:.2f}",
        "literals": r["literals"], "test error %": f"{100 * r['test_error']:.2f}",
        "majority %": f"{100 * r['majority_error']:.2f}", "TrivialRuleWarning": "yes" if r["trivial_warning"] else "",
        "rule": r["rule"].replace("|", "/")[:90],
    } for r in records]
    (RESULTS / "floor_sizes.md").write_text(
        "# The floor in rows at every size\n\nWritten by `benchmarks/studies/floor_sizes.py` (its docstring says how). "
        "Test error on 20,000 fresh rows.\n\n" + markdown_table(rows) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS / 'floor_sizes.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
