"""How BooleanRuleCV chooses among its candidates, measured on the real-table suite: every candidate's test error.

For each table and outer fold (the folds of ``real_tables.py``), ``BooleanRuleCV``
(its defaults, ``--params`` JSON for others; ``refit=False``) gives every
candidate's inner-fold scores, and the candidates' rules refitted on the whole
outer training fold (one θ path per form on one
:class:`~rulemodels.TrainingWorkspace`, as the refit walks it) give each one's
test error. A selection rule is then a function of the inner scores alone, so
any rule can be scored afterwards without fitting again (``--report``):

- ``best``: the best mean inner score (the default);
- ``1se``: the fewest mean literals within one standard error of the best;
- ``minority``: the best among the candidates of the form that describes the
  smaller class (``forms="minority"``, the default);
- ``minority-unless``: ``minority``, unless the other form's best beats it by
  more than one standard error of the paired fold differences;
- ``oracle``: the lowest test error (not a rule: what the candidates allow).

Records: one JSON line per (table, label, fold) in ``results/selection_rules.jsonl``
(resumable). ``results/selection_design.jsonl.gz`` holds the records of the runs that chose
this issue's defaults (made by an earlier draft of this script, each with its commit and what it
changed; ``positive_share`` there is the whole table's)::

    .venv/bin/python benchmarks/studies/selection_rules.py --tables rulemodels/sonar --label both \\
        --params '{"forms": ["dnf", "cnf"]}'
    .venv/bin/python benchmarks/studies/selection_rules.py --report    # writes results/selection_rules.md
    .venv/bin/python benchmarks/studies/selection_rules.py --report --results \
        benchmarks/studies/results/selection_design.jsonl.gz          # writes results/selection_design.md
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
import warnings
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks._common import markdown_table  # noqa: E402
from benchmarks.studies.real_tables import TABLES, load_table  # noqa: E402

RESULTS = Path(__file__).parent / "results" / "selection_rules.jsonl"
RULES = ("best", "1se", "minority", "minority-unless", "oracle")


def run(tables: list[str], label: str, params: dict[str, Any], out: Path) -> None:
    import numpy as np
    from sklearn.model_selection import StratifiedKFold

    from rulemodels import BooleanRuleClassifier, BooleanRuleCV, FeatureBinarizer, TrainingWorkspace
    from rulemodels.algorithms import FitSpec

    done = {(r["table"], r["label"], r["fold"]) for r in _read(out)}
    for name in tables:
        X, y = load_table(name)
        splits = StratifiedKFold(TABLES[name].folds, shuffle=True, random_state=0).split(X, y)
        for fold, (train, test) in enumerate(splits):
            if (name, label, fold) in done:
                continue
            start = time.perf_counter()
            X_train, y_train, X_test, y_test = X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                search = BooleanRuleCV(refit=False, **params).fit(X_train, y_train)
                results = search.cv_results_
                candidates = [dict(p) for p in results["params"]]
                base = BooleanRuleClassifier(min_literal_rows=search.min_literal_rows, thresholds=search.thresholds)
                binarizer = FeatureBinarizer(n_thresholds=base.n_thresholds, thresholds=base.thresholds, nan=base.nan,
                                             high_cardinality=base.high_cardinality, min_leaf_rows=base.min_literal_rows)
                rules = {}
                with TrainingWorkspace(X_train, y_train, binarizer=binarizer) as workspace:
                    spec = FitSpec.from_params(base.get_params())  # the recipe of the refit
                    for form in dict.fromkeys(c["form"] for c in candidates):
                        path = workspace.learn_path(
                            replace(spec, form=form), thetas=sorted({c["theta"] for c in candidates}, reverse=True),
                            n_clauses=sorted({c["n_clauses"] for c in candidates}))
                        rules.update({(form, *key): learned.rule for key, learned in path.items()})
            positive = np.asarray(y_test) == 1
            rows = []
            for i, c in enumerate(candidates):
                rule = rules[(c["form"], c["theta"], c["n_clauses"])]
                rows.append({**c, "split": [float(results[f"split{k}_test_score"][i]) for k in range(search.n_splits_)],
                             "split_literals": [float(results[f"split{k}_n_literals"][i]) for k in range(search.n_splits_)],
                             "test_error": float(np.mean(rule.evaluate(X_test) != positive)),
                             "literals": int(rule.n_literals)})
            record = {"table": name, "label": label, "fold": fold, "params": params, "candidates": rows,
                      "positive_share": float(np.mean(np.asarray(y_train) == 1)), "seconds": time.perf_counter() - start}
            with open(out, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")
            print(f"{name} {label} fold {fold}: {len(rows)} candidates, {record['seconds']:.1f} s", flush=True)


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return [json.loads(line) for line in handle if line.strip()]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def choose(record: dict[str, Any], rule: str) -> dict[str, Any] | None:
    """The candidate ``rule`` picks from one record (None when the record lacks the forms the rule needs)."""
    import numpy as np

    candidates = record["candidates"]
    minority = "cnf" if record["positive_share"] > 0.5 else "dnf"
    forms = {c["form"] for c in candidates}

    def best(among: list[dict[str, Any]]) -> dict[str, Any]:
        means = [round(float(np.mean(c["split"])), 10) for c in among]
        return among[int(np.argmax(means))]  # the first of the best: the simplest

    if rule == "oracle":
        return min(candidates, key=lambda c: c["test_error"])
    if rule == "best":
        return best(candidates)
    if rule == "1se":
        top = best(candidates)
        k = len(top["split"])
        bar = round(float(np.mean(top["split"]) - np.std(top["split"], ddof=1) / np.sqrt(k)), 10)
        within = [c for c in candidates if round(float(np.mean(c["split"])), 10) >= bar]
        return min(within, key=lambda c: (round(float(np.mean(c["split_literals"])), 10), -float(np.mean(c["split"]))))
    if minority not in forms:
        return None
    own = best([c for c in candidates if c["form"] == minority])
    if rule == "minority":
        return own
    others = [c for c in candidates if c["form"] != minority]
    if not others:
        return None
    other = best(others)
    difference = np.asarray(other["split"]) - np.asarray(own["split"])
    margin = float(np.std(difference, ddof=1) / np.sqrt(difference.size))
    return other if float(difference.mean()) > margin + 1e-12 else own


def report(records: list[dict[str, Any]]) -> str:
    import numpy as np

    cells: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for record in records:
        for rule in RULES:
            chosen = choose(record, rule)
            if chosen is not None:
                cells[(record["label"], record["table"], rule)].append(chosen["test_error"])
    lines = ["# Selection rules on the real tables", "",
             "Written by `benchmarks/studies/selection_rules.py --report` (its docstring says what each rule is). "
             "Mean test error % over the outer folds; a cell appears when the label's records hold every fold "
             "and the forms the rule needs.", ""]
    for label in dict.fromkeys(r["label"] for r in records):
        tables = [t for t in TABLES if any(r["table"] == t and r["label"] == label for r in records)]
        body = []
        for table in tables:
            row: dict[str, Any] = {"table": table}
            for rule in RULES:
                values = cells.get((label, table, rule), [])
                row[rule] = f"{100 * np.mean(values):.1f}" if len(values) == TABLES[table].folds else ""
            body.append(row)
        first = next(r for r in records if r["label"] == label)
        made = f" At commit {first['commit']}: {first['note']}." if "commit" in first else ""
        lines += [f"## `{label}`: `BooleanRuleCV(**{json.dumps(first['params'])})`", "", made.strip(), "",
                  markdown_table(body), ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", nargs="+", default=[], choices=list(TABLES), metavar="TABLE")
    parser.add_argument("--label", default="both")
    parser.add_argument("--params", type=json.loads, default={"forms": ["dnf", "cnf"]})
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args(argv)
    if args.report:
        out = args.results.with_name(args.results.name.split(".")[0] + ".md")
        out.write_text(report(_read(args.results)), encoding="utf-8")
        print(f"wrote {out}")
        return 0
    run(args.tables, args.label, args.params, args.results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
