"""A learned rule on one page a reviewer can open anywhere: a self-contained HTML report (issue 30).

The people this library serves must *show* a rule to someone who does not run
Python (a clinician, a credit committee, a regulator). :func:`report_html`
writes one HTML file with everything inline (CSS, SVG figures; no script, no
font, no URL), readable when printed to PDF:

- the rule as a table of clauses (CNF or DNF) or, for more than two classes,
  of the ordered rule list's steps, each with the rows it fires on (a step:
  the rows it claims), its precision on them, and the rows it *alone
  decides*: those whose prediction changes when the rule is evaluated with
  that clause (step) removed;
- accuracy, balanced accuracy (the mean of the classes' recalls), each
  class's recall and precision, error, the majority baseline and the
  confusion matrix on the given data, beside the training error and
  complexity stored in the rule file; every report shows them all, two
  classes or more, and says so when the classes are unequal (the smallest
  under half of an equal share, :data:`UNEQUAL_CLASSES`: accuracy alone then
  flatters a rule that favours the larger class);
- the errors: a few false positives and false negatives with their reasons
  (:func:`rulemodels.rules.explain_rule`, the reasons of ``predict
  --explain``), and the error by subgroup of a column (``by``): groups are
  keyed by value, text values shown quoted, so a real value ``missing`` or
  ``other values`` never merges with the rows that have no value
  (:data:`MISSING_GROUP`) or with the pooled rest of rare values
  (:data:`OTHER_GROUP`).

No text is cut: long class labels wrap in the figures (their whole text in
a tooltip), long values wrap in the tables, and figures scale to the page.
- for a fitted :class:`~rulemodels.BooleanRuleCV`, its θ path
  (``rule_path_``): the CV error (or score) and the folds' literals against
  θ, one line per R, the chosen candidate marked, and the refit's rule at
  each θ it passed;
- with a ``rulemodels cv`` results file, the Pareto front of mean test error
  against literals (test-fold selection, optimistic; and the honest nested
  numbers when the file has inner folds), with this rule marked;
- the metadata a reviewer asks for: data, row count, date, versions,
  algorithm, θ, R, form and the rule file's SHA-256.

Every prediction comes from the library's own evaluation
(:meth:`Rule.clause_outputs` and :meth:`Rule.reduce`, :meth:`RuleList.claims`)
on the data read as the rule's columns were in training
(:meth:`SavedModel.conform`), so the report agrees with ``predict`` row for
row. :func:`report_data` returns the numbers the page shows.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import importlib.metadata
import math
import os
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.rules import Rule, RuleList, SavedModel, conform, explain_rule, explain_rule_list, load_model
from rulemodels.utils import as_pandas
from rulemodels.utils._version import __version__

__all__ = ["PartStats", "ReportData", "report_data", "report_html"]

#: Examples of each kind of error shown with their reasons.
DEFAULT_N_EXAMPLES = 5
#: A numeric ``by`` column with more distinct values than this is cut into quantile bins.
MAX_GROUP_VALUES = 12
#: The number of quantile bins of a numeric ``by`` column with many values.
N_QUANTILE_BINS = 5
#: At most this many groups of a categorical ``by`` column are shown (the most frequent; the rest pooled).
MAX_GROUPS = 20
#: How the report shows the subgroup of rows with no value in the ``by`` column (values are shown quoted, so a
#: real value 'missing' stays apart: groups are keyed by value, never by this text).
MISSING_GROUP = "missing (no value)"
#: How the report shows the pooled rest of a ``by`` column with more than :data:`MAX_GROUPS` values.
OTHER_GROUP = "other values"
#: The classes are *unequal* when the smallest class has less than this share of an equal split of the labelled
#: rows (with two classes: under 25 % of them); the page then warns that accuracy alone flatters the majority.
UNEQUAL_CLASSES = 0.5


# ---------------------------------------------------------------------------
# What the page shows, as numbers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PartStats:
    """One clause of a rule (or one step of a rule list, or its default) and what it does on the data.

    ``fires``: rows where the clause is true (a step: rows it claims, the
    first step whose rule holds); ``precision``: among the labelled ones, the
    share of the rule's class (DNF, CNF: the positive class; a step: its
    class), NaN when it fires on none. ``fails`` and ``fail_precision`` (CNF
    only): rows where the clause is false, and the share of the negative class
    among them, the precision of the clause's way of deciding. ``decides``:
    rows whose prediction changes when the clause (step) is removed, of which
    ``decides_right`` are labelled and predicted right (removing the clause
    would make them wrong) and ``decides_wrong`` labelled and predicted wrong.
    """

    name: str
    text: str
    fires: int
    precision: float
    decides: int | None
    decides_right: int | None
    decides_wrong: int | None
    fails: int | None = None
    fail_precision: float | None = None
    label: Any = None


@dataclass(frozen=True)
class ReportData:
    """The numbers of a report (:func:`report_data`); :func:`report_html` renders them.

    ``predicted`` holds each row's predicted class (the rule file's labels),
    ``truth`` each row's class index in ``classes`` (-1: a missing label or one
    that is not a class of the rule, left out of every score).

    Scores, on the labelled rows, for two-class rules and rule lists alike:
    ``accuracy``; ``balanced_accuracy``, the mean over the classes present of
    each class's recall (as :func:`sklearn.metrics.balanced_accuracy_score`);
    and ``class_scores``, one row per class of ``classes`` with its labelled
    ``rows``, their ``share``, the rows ``predicted`` as it, the ``right`` ones,
    ``recall`` (right / rows) and ``precision`` (right / predicted), NaN where
    the denominator is 0. The page always shows them; when the classes are
    unequal (:attr:`unequal_classes`) it also says that accuracy alone flatters
    a rule that favours the larger class.

    ``subgroups`` (with ``by``): one row per group of the column, with
    ``group`` (as shown: text values quoted, ``'missing'``), ``kind``
    (``"value"``, ``"bin"`` of a numeric column, ``"other"``: the pooled rest of
    rare values, ``"missing"``: the rows with no value), ``value`` (the
    column's value for kind ``"value"``), ``rows``, ``labelled``, ``errors`` and
    ``error``. Groups are keyed by value, so a real value named like the
    missing or pooled group is a group of its own.
    """

    rule: Rule | RuleList
    classes: tuple[Any, ...]
    target: str
    data_name: str
    n_rows: int
    predicted: np.ndarray
    predicted_index: np.ndarray
    truth: np.ndarray
    parts: list[PartStats]
    confusion: np.ndarray
    accuracy: float
    balanced_accuracy: float
    class_scores: pd.DataFrame
    baseline_error: float
    baseline_class: Any
    errors: pd.DataFrame
    n_errors_by_kind: dict[str, int]
    subgroups: pd.DataFrame | None
    subgroup_note: str
    pareto: dict[str, Any] | None
    facts: list[tuple[str, str]] = field(default_factory=list)
    path: pd.DataFrame | None = None
    path_scoring: str = "accuracy"

    @property
    def n_labelled(self) -> int:
        """Rows whose label is one of the classes (the rows every score counts)."""
        return int(np.sum(self.truth >= 0))

    @property
    def error(self) -> float:
        return 1.0 - self.accuracy

    @property
    def unequal_classes(self) -> bool:
        """True when the smallest class has under :data:`UNEQUAL_CLASSES` of an equal share of the labelled rows."""
        shares = self.class_scores["share"].to_numpy(dtype=float)
        return bool(len(shares)) and float(shares.min()) < UNEQUAL_CLASSES / len(shares)


@dataclass(frozen=True)
class _Source:
    """A rule from any of the inputs :func:`report_html` takes, with what the report needs of it."""

    rule: Rule | RuleList
    classes: tuple[Any, ...]
    target: str
    metadata: dict[str, Any]
    read: Callable[[pd.DataFrame], pd.DataFrame]
    rule_file: str | None = None
    sha256: str | None = None


def _source(model: Any) -> _Source:
    """A rule file path, a :class:`SavedModel`, a fitted estimator, a :class:`Rule` or a :class:`RuleList`."""
    if isinstance(model, str | os.PathLike):
        saved = load_model(os.fspath(model))
        digest = hashlib.sha256(Path(model).read_bytes()).hexdigest()
        return _Source(saved.rule, saved.classes, saved.target, dict(saved.metadata), saved.conform,
                       os.fspath(model), digest)
    if isinstance(model, SavedModel):
        return _Source(model.rule, model.classes, model.target, dict(model.metadata), model.conform)
    if isinstance(model, Rule):
        return _Source(model, (0, 1), "class", {}, lambda frame: frame)
    if isinstance(model, RuleList):
        return _Source(model, model.classes, "class", {}, lambda frame: frame)
    if hasattr(model, "rule_") and hasattr(model, "classes_"):
        return _estimator_source(model)
    if hasattr(model, "get_params") and hasattr(model, "fit"):
        raise ValueError("the estimator is not fitted: call fit(X, y) first, then make its report")
    raise TypeError(
        "report_html takes a fitted BooleanRuleClassifier, a rule file's path, a SavedModel (load_model), a Rule or "
        f"a RuleList; got {type(model).__name__}"
    )


def _estimator_source(clf: Any) -> _Source:
    """A fitted estimator: its rule, classes and settings, and its columns read by their fitted kinds."""
    rule = clf.rule_
    kinds = getattr(getattr(clf, "binarizer_", None), "column_kinds_", {})
    used = {name: kinds[name] for name in rule.features if name in kinds}
    params = clf.get_params()
    complexity = rule.complexity()
    weighted = params.get("class_weight") is not None
    metadata: dict[str, Any] = {
        "algorithm": params.get("algorithm"), "theta": params.get("theta"), "n_clauses": params.get("n_clauses"),
        "form": getattr(clf, "form_", params.get("form")), "solver": params.get("solver"),
        "training_error": float(clf.training_error_), "complexity": complexity,
    }
    if weighted:
        metadata["class_weight"] = params.get("class_weight")
        metadata["training_error_note"] = "class-weighted"
    classes = tuple(_plain(c) for c in clf.classes_)
    return _Source(rule, classes, clf.target_name_ or "class", metadata, lambda frame: conform(frame, used))


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _class_index(labels: Sequence[Any] | pd.Series | np.ndarray, classes: tuple[Any, ...]) -> np.ndarray:
    """Each label's position in ``classes`` (equal, or equal as trimmed text), -1 for missing and other labels."""
    series = pd.Series(np.asarray(labels, dtype=object))
    truth = np.full(len(series), -1)
    texts = series.astype(str).str.strip()
    missing = series.isna().to_numpy()
    for k, label in enumerate(classes):
        match = np.asarray((series == label) | (texts == str(label)), dtype=bool) & ~missing
        truth[match & (truth < 0)] = k
    return truth


def _precision(hits: np.ndarray, truth: np.ndarray, k: int) -> float:
    """The share of class ``k`` among the labelled rows of ``hits`` (NaN when there are none)."""
    labelled = hits & (truth >= 0)
    n = int(labelled.sum())
    return float(np.sum(labelled & (truth == k)) / n) if n else float("nan")


def _decided(changed: np.ndarray, right: np.ndarray, truth: np.ndarray) -> tuple[int, int, int]:
    labelled = truth >= 0
    return int(changed.sum()), int(np.sum(changed & labelled & right)), int(np.sum(changed & labelled & ~right))


def _rule_parts(rule: Rule, frame: pd.DataFrame, truth: np.ndarray) -> tuple[np.ndarray, list[PartStats]]:
    """The rule's value per row and the statistics of each clause.

    A clause *alone decides* a row when the rule evaluated without it
    (:meth:`Rule.evaluate` of the other clauses) gives another value there.
    """
    clause_values = rule.clause_outputs(frame)
    fired = rule.reduce(clause_values)
    right = fired.astype(int) == truth
    noun = "term" if rule.form == "dnf" else "clause"
    parts = []
    for r, clause in enumerate(rule.clauses):
        without = Rule(rule.form, rule.clauses[:r] + rule.clauses[r + 1:]).evaluate(frame)
        decides, decides_right, decides_wrong = _decided(without != fired, right, truth)
        items = clause.display_items(rule.form) or ["True" if rule.form == "dnf" else "False"]
        text = (" AND " if rule.form == "dnf" else " OR ").join(items)
        holds = clause_values[:, r]
        cnf = rule.form == "cnf"
        parts.append(PartStats(
            name=f"{noun} {r + 1}", text=text, fires=int(holds.sum()), precision=_precision(holds, truth, 1),
            decides=decides, decides_right=decides_right, decides_wrong=decides_wrong,
            fails=int((~holds).sum()) if cnf else None, fail_precision=_precision(~holds, truth, 0) if cnf else None,
        ))
    return fired, parts


def _list_parts(rules: RuleList, frame: pd.DataFrame, truth: np.ndarray,
                classes: tuple[Any, ...]) -> tuple[np.ndarray, list[PartStats]]:
    """The class index per row and the statistics of each step and of the default.

    A step *alone decides* a row when the list without that step
    (:meth:`RuleList.predict`) gives the row another class.
    """
    position = {str(label): k for k, label in enumerate(classes)}
    claims = rules.claims(frame)
    predicted = np.asarray([position[str(label)] for label in rules.classes])[claims]
    right = predicted == truth
    parts = []
    for k, (label, rule) in enumerate(rules.steps):
        rest = RuleList(rules.steps[:k] + rules.steps[k + 1:], rules.default)
        changed = np.asarray([str(v) for v in rest.predict(frame)], dtype=object) != np.asarray(
            [str(classes[p]) for p in predicted], dtype=object)
        decides, decides_right, decides_wrong = _decided(changed, right, truth)
        claimed = claims == k
        parts.append(PartStats(
            name=f"step {k + 1}", text=str(rule), fires=int(claimed.sum()),
            precision=_precision(claimed, truth, position[str(label)]),
            decides=decides, decides_right=decides_right, decides_wrong=decides_wrong, label=label,
        ))
    default = claims == len(rules.steps)
    parts.append(PartStats(
        name="default", text="no step holds", fires=int(default.sum()),
        precision=_precision(default, truth, position[str(rules.default)]),
        decides=None, decides_right=None, decides_wrong=None, label=rules.default,
    ))
    return predicted, parts


def _error_examples(source: _Source, frame: pd.DataFrame, predicted: np.ndarray, truth: np.ndarray,
                    n_examples: int) -> tuple[pd.DataFrame, dict[str, int]]:
    """The first ``n_examples`` rows of each kind of error, with their reasons (``predict --explain``)."""
    wrong = (truth >= 0) & (predicted != truth)
    if isinstance(source.rule, RuleList):
        kinds = {"misclassified": wrong}
    else:
        kinds = {"false positive": wrong & (predicted == 1), "false negative": wrong & (predicted == 0)}
    counts = {kind: int(mask.sum()) for kind, mask in kinds.items()}
    chosen = [(kind, np.flatnonzero(mask)[:n_examples]) for kind, mask in kinds.items()]
    positions = np.concatenate([rows for _, rows in chosen]) if chosen else np.zeros(0, dtype=int)
    columns = ["kind", "row", "actual", "predicted", "reason"]
    if not len(positions):
        return pd.DataFrame(columns=columns), counts
    rows = frame.iloc[positions]
    if isinstance(source.rule, RuleList):
        explained = explain_rule_list(source.rule, rows)
    else:
        explained = explain_rule(source.rule, rows, source.classes)
    records = []
    k = 0
    for kind, picked in chosen:
        for position in picked:
            records.append({
                "kind": kind, "row": int(position) + 1, "actual": source.classes[truth[position]],
                "predicted": source.classes[predicted[position]], "reason": explained["reason"].iloc[k],
            })
            k += 1
    return pd.DataFrame.from_records(records, columns=columns), counts


def _subgroups(column: pd.Series, name: str, wrong: np.ndarray, labelled: np.ndarray) -> tuple[pd.DataFrame, str]:
    """Rows, errors and error rate per value of ``column`` (numeric columns with many values: per quantile bin).

    Groups are keyed by the values themselves, never by their text: a real
    value named ``missing`` or ``other values`` is a group of its own, apart
    from the rows with no value (kind ``"missing"``, shown as
    :data:`MISSING_GROUP`, always last and never pooled) and from the pooled
    rest of a column with more than :data:`MAX_GROUPS` values (kind
    ``"other"``). Text values are shown quoted (``'missing'``), so no value
    reads as one of those two groups.
    """
    values = column.reset_index(drop=True)
    missing = values.isna().to_numpy()
    numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
    groups: list[tuple[str, str, Any]] = []  # (shown as, kind, value) per group, in the order shown
    if numeric and values.nunique(dropna=True) > MAX_GROUP_VALUES:
        edges = np.unique(np.nanquantile(values.to_numpy(dtype=float), np.linspace(0, 1, N_QUANTILE_BINS + 1)))
        inner = edges[1:-1]
        labels = [f"{name} <= {inner[0]:g}" if len(inner) else f"any {name}"]
        labels += [f"{low:g} < {name} <= {high:g}" for low, high in zip(inner[:-1], inner[1:])]
        labels += [f"{name} > {inner[-1]:g}"] if len(inner) else []
        codes = np.minimum(np.searchsorted(inner, values.to_numpy(dtype=float), side="left"), len(labels) - 1)
        groups = [(label, "bin", None) for label in labels]
        note = (f"'{name}' is numeric with {values.nunique()} distinct values: rows are grouped into "
                f"{len(labels)} quantile bins of about equal size")
    else:
        codes, uniques = pd.factorize(values.astype(object), use_na_sentinel=True)
        counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
        plain = [_plain(value) for value in uniques]
        frequent = sorted(range(len(plain)), key=lambda k: (-counts[k], _natural(plain[k])))[:MAX_GROUPS]
        kept = sorted(frequent, key=lambda k: _natural(plain[k]))
        position = np.full(len(plain) + 1, len(kept))  # codes not kept: the pooled rest, after the kept values
        position[kept] = np.arange(len(kept))
        codes = position[np.where(codes >= 0, codes, len(plain))]
        groups = [(_value_text(plain[k]), "value", plain[k]) for k in kept]
        note = f"one group per value of '{name}' (text values in quotes)"
        if len(plain) > len(kept):
            rest = len(plain) - len(kept)
            groups.append((f"{OTHER_GROUP} ({rest} rarer value{'s' if rest != 1 else ''})", "other", None))
            note += (f"; the {len(kept)} most frequent of its {len(plain)} values, the rest pooled as "
                     f"'{OTHER_GROUP}'")
    codes = np.where(missing, len(groups), codes)
    if missing.any():
        groups.append((MISSING_GROUP, "missing", None))
        note += f"; '{MISSING_GROUP}': the rows with no value in '{name}'"
    size = len(groups)
    rows = np.bincount(codes, minlength=size)
    n_labelled = np.bincount(codes, weights=labelled, minlength=size).astype(int)
    errors = np.bincount(codes, weights=wrong & labelled, minlength=size).astype(int)
    summary = pd.DataFrame({
        "group": [g[0] for g in groups], "kind": [g[1] for g in groups],
        "value": pd.Series([g[2] for g in groups], dtype=object),
        "rows": rows, "labelled": n_labelled, "errors": errors,
    })
    summary = summary[summary["rows"] > 0].reset_index(drop=True)
    summary["error"] = np.where(summary["labelled"] > 0, summary["errors"] / summary["labelled"].clip(lower=1), np.nan)
    return summary, note


def _value_text(value: Any) -> str:
    """A value of a ``by`` column as the report shows it: numbers and booleans as written, any other value quoted.

    Quoted text (``'missing'``) never reads as :data:`MISSING_GROUP` or the
    pooled :data:`OTHER_GROUP`, which are shown unquoted.
    """
    if isinstance(value, bool | int | float):
        return str(value)
    return repr(str(value)) if isinstance(value, str) else repr(value)


def _natural(value: Any) -> tuple[int, float, str]:
    """Sort values as numbers when they are numbers (or text that reads as a finite number), then as text."""
    if isinstance(value, bool | int | float):
        return (0, float(value), str(value))
    text = str(value)
    try:
        number = float(text)
    except ValueError:
        return (1, 0.0, text)
    return (0, number, text) if math.isfinite(number) else (1, 0.0, text)


def _solver_versions(solver: str | None) -> str:
    """The rule file's solver with its version here, and the versions of the packages every fit uses."""
    parts = []
    if solver:
        version = None
        try:
            from solvers import get_backend

            version = get_backend(str(solver), check_available=False).version()
        except Exception:  # a solver that is not installed here has no version to show: say so below
            version = None
        parts.append(f"{solver} {version}" if version else f"{solver} (not available here: version unknown)")
    for package in ("highspy", "pyomo", "pandas", "numpy"):
        try:
            parts.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(parts)


def _complexity_text(counts: dict[str, Any]) -> str:
    order = ("n_steps", "n_clauses", "n_conditions", "n_literals", "n_features")
    return ", ".join(f"{counts[key]} {key[2:]}" for key in order if key in counts)


def _facts(source: _Source, data: ReportDataInput) -> list[tuple[str, str]]:
    """The metadata a reviewer asks for, as (label, text) rows."""
    meta = source.metadata
    rule = source.rule
    if isinstance(rule, RuleList):
        form = ", ".join(f"step {k + 1}: {r.form.upper()}" for k, r in enumerate(rule.rules)) or "no steps"
        form = f"ordered rule list ({form})"
    else:
        form = rule.form.upper()
    training = meta.get("training_error")
    training_text = "not recorded in the rule file" if training is None else f"{float(training):.4f}"
    if training is not None and meta.get("training_error_note"):
        training_text += f" ({meta['training_error_note']})"
    stored = meta.get("complexity")
    stored_text = _complexity_text(stored) if isinstance(stored, dict) else "not recorded in the rule file"
    theta = meta.get("theta")
    facts = [
        ("data", f"{data.name} ({data.n_rows} rows)"),
        ("date (UTC)", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")),
        ("rulemodels", __version__),
        ("solver", _solver_versions(meta.get("solver"))),
        ("algorithm", str(meta.get("algorithm", "not recorded"))),
        ("θ (share of training rows a literal must fix)", "not recorded" if theta is None else f"{float(theta):g}"),
        ("R (clauses)", str(meta.get("n_clauses", "not recorded"))),
        ("form", form),
        ("target", f"{source.target} (classes: {', '.join(map(str, source.classes))})"),
        ("training error (stored)", training_text),
        ("complexity (stored)", stored_text),
        ("complexity of the rule shown", _complexity_text(rule.complexity())),
    ]
    for key in ("class_weight", "class_order"):
        if key in meta:
            facts.append((key.replace("_", " "), str(meta[key])))
    if isinstance(meta.get("constraints"), dict):  # the domain constraints fit --out recorded
        facts.append(("domain constraints", "; ".join(f"{name}: {value}" for name, value in meta["constraints"].items())))
    if isinstance(meta.get("polish"), dict):
        polish = meta["polish"]
        facts.append(("polish", "skipped" if not polish.get("formulation") else
                      f"{polish.get('formulation')} MIP, {polish.get('termination')}, "
                      f"{'improved the rule' if polish.get('polished') else 'kept the heuristic rule'}"))
    if source.rule_file is not None:
        facts.append(("rule file", source.rule_file))
        facts.append(("rule file SHA-256", source.sha256 or ""))
    return facts


@dataclass(frozen=True)
class ReportDataInput:
    """The data's name and row count, for the metadata."""

    name: str
    n_rows: int


# ---------------------------------------------------------------------------
# cv results: the Pareto front
# ---------------------------------------------------------------------------


def _front(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """True for the points no other point beats (at most its literals and its error, one of them smaller)."""
    le = (x[None, :] <= x[:, None]) & (y[None, :] <= y[:, None])
    lt = (x[None, :] < x[:, None]) | (y[None, :] < y[:, None])
    return ~np.any(le & lt, axis=1)


def _pareto(results: Any, source: _Source) -> dict[str, Any]:
    """The points of a ``rulemodels cv`` results file: mean test error and literals per (form, algorithm, R, θ),
    the optimistic front over them, and the honest nested points (θ chosen by inner CV per outer fold)."""
    from rulemodels.experiments.analysis import nested_cv_selection, summarize
    from rulemodels.experiments.store import read_results

    frame = results if isinstance(results, pd.DataFrame) else read_results(results)
    if frame.empty or "test_error" not in frame.columns:
        raise ValueError("the results file holds no result record: give the file 'rulemodels cv --results' wrote")
    inner = frame["inner_fold"].notna() if "inner_fold" in frame.columns else pd.Series(False, index=frame.index)
    outer_ok = frame[~inner & frame["error"].isna()]
    if outer_ok.empty:
        raise ValueError("the results file has no finished fit of an outer fold: run 'rulemodels cv' until some finish")
    datasets = sorted(map(str, outer_ok["dataset"].unique()))
    if len(datasets) > 1:
        raise ValueError(f"the results file holds several datasets ({', '.join(datasets)}): a report is about one; "
                         "give the results of 'rulemodels cv' on this rule's data")
    forms = sorted(map(str, frame["form"].dropna().unique()))
    points, honest = [], []
    for form in forms:
        subset = frame[frame["form"] == form]
        summary = summarize(subset)
        complete = summary[summary["complete"]]
        summary = complete if len(complete) else summary[summary["n_folds_done"] > 0]
        for row in summary.itertuples(index=False):
            points.append({"form": form, "algorithm": row.algorithm, "n_clauses": int(row.n_clauses),
                           "theta": float(row.theta), "literals": float(row.n_literals_mean),
                           "error": float(row.test_error_mean), "folds": int(row.n_folds_done)})
        outer = subset[~inner[subset.index] & subset["error"].isna()]
        for row in nested_cv_selection(subset).itertuples(index=False):
            literals = []
            for k, theta in enumerate(row.selected_thetas):
                fit = outer[(outer["algorithm"] == row.algorithm) & (outer["n_clauses"] == row.n_clauses)
                            & (outer["fold"] == k) & np.isclose(outer["theta"].astype(float), theta)]
                if len(fit):
                    literals.append(float(fit["n_literals"].iloc[0]))
            honest.append({"form": form, "algorithm": row.algorithm, "n_clauses": int(row.n_clauses),
                           "literals": float(np.mean(literals)) if literals else float("nan"),
                           "error": float(row.nested_test_error), "folds": int(row.n_folds),
                           "inner_folds": int(row.n_inner_folds)})
    table = pd.DataFrame(points, columns=["form", "algorithm", "n_clauses", "theta", "literals", "error", "folds"])
    table["on_front"] = _front(table["literals"].to_numpy(), table["error"].to_numpy()) if len(table) else []
    meta = source.metadata
    same = (table["algorithm"] == meta.get("algorithm")) & (table["n_clauses"] == meta.get("n_clauses")) & (
        np.isclose(table["theta"], float(meta["theta"])) if meta.get("theta") is not None else False)
    if isinstance(source.rule, Rule):
        same &= table["form"] == source.rule.form
    else:
        same &= False
    table["this_setting"] = same
    return {"points": table, "honest": pd.DataFrame(honest, columns=[
        "form", "algorithm", "n_clauses", "literals", "error", "folds", "inner_folds"]), "dataset": datasets[0]}


# ---------------------------------------------------------------------------
# The numbers
# ---------------------------------------------------------------------------


def report_data(
    model: Any, X: pd.DataFrame, y: Any, *, by: str | None = None, results: Any = None,
    data_name: str | None = None, n_examples: int = DEFAULT_N_EXAMPLES,
) -> ReportData:
    """Everything :func:`report_html` shows, as values (its arguments are :func:`report_html`'s).

    Returns
    -------
    ReportData
        The predictions, the clauses' (steps') statistics, the scores
        (``accuracy``, ``balanced_accuracy``, ``class_scores``), the errors,
        the subgroups of ``by`` and the metadata.
    """
    source = _source(model)
    X = as_pandas(X)  # a polars or pyarrow DataFrame: converted here, once, with its names and dtypes
    if not isinstance(X, pd.DataFrame):
        raise TypeError(
            f"X must be a DataFrame (pandas, polars, pyarrow) with the rule's columns, got {type(X).__name__}: "
            "pass the data as a DataFrame with named columns"
        )
    missing = [name for name in source.rule.features if name not in X.columns]
    if missing:
        shown = ", ".join(repr(name) for name in missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        raise ValueError(f"the data has no column {shown}, which the rule uses")
    labels = np.asarray(y, dtype=object) if not isinstance(y, pd.Series) else y.to_numpy(dtype=object)
    if len(labels) != len(X):
        raise ValueError(f"y has {len(labels)} labels but X has {len(X)} rows: give one label per row")
    if len(X) == 0:
        raise ValueError("the data has no rows: a report needs rows to score the rule on")
    truth = _class_index(labels, source.classes)
    if not np.any(truth >= 0):
        seen = ", ".join(map(str, pd.unique(pd.Series(labels).dropna())[:5]))
        raise ValueError(
            f"no label of the data is one of the rule's classes ({', '.join(map(str, source.classes))}; the data's "
            f"labels are {seen or 'all missing'}): the rule file was learned for another target; give the label "
            "column of this rule's target"
        )
    frame = source.read(X.reset_index(drop=True))
    if isinstance(source.rule, RuleList):
        predicted_index, parts = _list_parts(source.rule, frame, truth, source.classes)
    else:
        fired, parts = _rule_parts(source.rule, frame, truth)
        predicted_index = fired.astype(int)
    predicted = np.asarray(list(source.classes), dtype=object)[predicted_index]
    labelled = truth >= 0
    k = len(source.classes)
    confusion = np.zeros((k, k), dtype=int)
    np.add.at(confusion, (truth[labelled], predicted_index[labelled]), 1)
    accuracy = float(np.trace(confusion) / labelled.sum())
    class_scores = _class_scores(confusion, source.classes)
    recalls = class_scores["recall"].to_numpy(dtype=float)
    balanced_accuracy = float(np.mean(recalls[class_scores["rows"].to_numpy() > 0]))
    counts = confusion.sum(axis=1)
    majority = int(np.argmax(counts))
    errors, n_by_kind = _error_examples(source, frame, predicted_index, truth, n_examples)
    subgroups, note = None, ""
    if by is not None:
        if by not in X.columns:
            raise ValueError(f"the data has no column '{by}' to group the errors by (--by); columns are "
                             f"{', '.join(map(str, list(X.columns)[:20]))}{' ...' if X.shape[1] > 20 else ''}")
        subgroups, note = _subgroups(X[by], by, predicted_index != truth, labelled)
    name = data_name or "the data"
    pareto = _pareto(results, source) if results is not None else None
    return ReportData(
        rule=source.rule, classes=source.classes, target=source.target, data_name=name, n_rows=len(X),
        predicted=predicted, predicted_index=predicted_index, truth=truth, parts=parts, confusion=confusion,
        accuracy=accuracy, balanced_accuracy=balanced_accuracy, class_scores=class_scores,
        baseline_error=float(1 - counts[majority] / labelled.sum()),
        baseline_class=source.classes[majority], errors=errors, n_errors_by_kind=n_by_kind, subgroups=subgroups,
        subgroup_note=note, pareto=pareto, facts=_facts(source, ReportDataInput(name, len(X))),
        **_path_of(model),
    )


def _class_scores(confusion: np.ndarray, classes: tuple[Any, ...]) -> pd.DataFrame:
    """Per class (rows of ``confusion``: actual, columns: predicted): rows, share, predicted, right, recall, precision."""
    actual, predicted, right = confusion.sum(axis=1), confusion.sum(axis=0), np.diag(confusion)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(actual > 0, right / actual, np.nan)
        precision = np.where(predicted > 0, right / predicted, np.nan)
    return pd.DataFrame({
        "class": pd.Series(list(classes), dtype=object), "rows": actual, "share": actual / max(int(actual.sum()), 1),
        "predicted": predicted, "right": right, "recall": recall, "precision": precision,
    })


def _path_of(model: Any) -> dict[str, Any]:
    """A fitted ``BooleanRuleCV``'s ``rule_path_`` and the name of its scorer (nothing for any other model)."""
    path = getattr(model, "rule_path_", None)
    if not isinstance(path, pd.DataFrame) or path.empty or not path["mean_test_score"].notna().any():
        return {}
    scoring = getattr(model, "scoring", None)
    return {"path": path, "path_scoring": scoring if isinstance(scoring, str) else
            "accuracy" if scoring is None else getattr(scoring, "__name__", "score")}


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1b1b1b;
       background: #ffffff; margin: 2em auto; max-width: 62em; padding: 0 1.5em; line-height: 1.45;
       overflow-wrap: break-word; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
.subtitle { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #c8c8c8; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
td.num { white-space: nowrap; } em.group { color: #444; }
.warning { border-left: 4px solid #e08a1e; background: #fdf4e7; padding: 0.4em 0.8em; }
th { background: #f0f2f5; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.rule { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.95em;
        background: #f6f8fa; border: 1px solid #d8dee4; padding: 0.8em 1em; white-space: pre-wrap; }
.note { color: #444; font-size: 0.9em; } .figure { margin: 0.8em 0 1.2em; }
.figure svg { max-width: 100%; height: auto; }
.metrics td:first-child { font-weight: 600; }
@media print {
  body { margin: 0; max-width: none; font-size: 10.5pt; } h2 { break-after: avoid; }
  table, .figure, .rule { break-inside: avoid; } th { background: #eee !important; }
}
"""

_ESC = html.escape


def _pct(value: float | None) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.1f} %"


class _Markup(str):
    """HTML the page wrote itself (from escaped text): :func:`_table` puts it in a cell as it is."""


#: A run of this many characters without a space may break (``<wbr>``) every :data:`_BREAK_EVERY` characters.
_LONG_WORD, _BREAK_EVERY = 32, 20


def _breakable(text: str) -> str:
    """``text`` escaped, with a line break allowed inside long words: a table cell wraps them whole, never clips."""
    pieces = re.split(rf"(\S{{{_LONG_WORD},}})", text)
    return "".join(
        "<wbr>".join(_ESC(piece[k:k + _BREAK_EVERY]) for k in range(0, len(piece), _BREAK_EVERY)) if odd % 2
        else _ESC(piece)
        for odd, piece in enumerate(pieces)
    )


def _cell(cell: Any) -> str:
    return cell if isinstance(cell, _Markup) else _breakable(str(cell))


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]], numeric: Sequence[int] = (), css: str = "") -> str:
    number = ' class="num"'
    head = "".join(f"<th>{_breakable(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td{number if k in numeric else ''}>{_cell(cell)}</td>" for k, cell in enumerate(row))
        + "</tr>"
        for row in rows
    )
    attribute = f' class="{css}"' if css else ""
    return f"<table{attribute}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _svg(width: int, height: int, body: str, label: str) -> str:
    return (f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{_ESC(label)}"><rect width="{width}" height="{height}" fill="#ffffff"/>{body}</svg>')


def _text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "start", fill: str = "#1b1b1b",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif">{_ESC(text)}</text>')


def _char_width(char: str) -> float:
    """An upper bound of a character's width in common sans-serif fonts, in em (to size figures, never to cut)."""
    if char in "mwMW@%\u2014":
        return 1.0
    if char in " .,:;'|!`iIjlft()[]-":
        return 0.42
    if char.isascii():
        return 0.8 if char.isupper() else 0.66
    return 1.05 if unicodedata.east_asian_width(char) in ("W", "F") else 0.8


def _text_width(text: str, size: int) -> float:
    """A generous estimate of the width of ``text`` in a sans-serif font of ``size`` pixels."""
    return size * sum(_char_width(char) for char in text)


def _wrap(text: str, width: float, size: int) -> list[str]:
    """``text`` in lines no wider than ``width`` pixels (:func:`_text_width`), broken at spaces where it can, else
    inside a word: every character is kept."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        while _text_width(word, size) > width and len(word) > 1:
            if current:
                lines.append(current)
                current = ""
            cut = 1
            while cut < len(word) and _text_width(word[:cut + 1], size) <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        joined = f"{current} {word}" if current else word
        if current and _text_width(joined, size) > width:
            lines.append(current)
            current = word
        else:
            current = joined
    lines.append(current)
    return lines


def _lines(x: float, y: float, lines: Sequence[str], whole: str, *, size: int, step: int, anchor: str) -> str:
    """A text of several lines (the first at ``y``), with ``whole`` as its tooltip."""
    spans = "".join(f'<tspan x="{x:.1f}" dy="{0 if k == 0 else step}">{_ESC(text)}</tspan>' for k, text in enumerate(lines))
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="#1b1b1b" '
            f'font-family="sans-serif"><title>{_ESC(whole)}</title>{spans}</text>')


def _parts_chart(data: ReportData) -> str:
    """Horizontal bars per clause (step): the rows it fires on (claims), the labelled ones of its class darker;
    below, the rows it alone decides, right (green) and wrong (red)."""
    parts = data.parts
    largest = max([p.fires for p in parts] + [p.decides or 0 for p in parts] + [1])
    left, width, row_height = 110, 430, 46
    height = 40 + row_height * len(parts)
    body = [_text(left, 16, "rows it fires on (of its class: dark)", size=11, fill="#333"),
            _text(left + 250, 16, "rows it alone decides: right / wrong", size=11, fill="#333")]
    for k, part in enumerate(parts):
        y = 28 + k * row_height
        body.append(_text(left - 8, y + 14, part.name, anchor="end", size=12, weight="bold"))
        bar = width * part.fires / largest
        share = 0.0 if math.isnan(part.precision) else part.precision
        body.append(f'<rect x="{left}" y="{y}" width="{bar:.1f}" height="16" fill="#a9c4e8"/>')
        body.append(f'<rect x="{left}" y="{y}" width="{bar * share:.1f}" height="16" fill="#2f6db5"/>')
        body.append(_text(left + bar + 6, y + 13, f"{part.fires} ({_pct(part.precision)})", size=11))
        if part.decides is not None:
            right = width * (part.decides_right or 0) / largest
            wrong = width * (part.decides_wrong or 0) / largest
            body.append(f'<rect x="{left}" y="{y + 19}" width="{right:.1f}" height="10" fill="#3c9a4b"/>')
            body.append(f'<rect x="{left + right:.1f}" y="{y + 19}" width="{wrong:.1f}" height="10" fill="#c8453a"/>')
            body.append(_text(left + right + wrong + 6, y + 28,
                              f"alone decides {part.decides}: {part.decides_right} right, {part.decides_wrong} wrong", size=10))
    texts = [f"{p.fires} ({_pct(p.precision)})" for p in parts] + [
        f"alone decides {p.decides}: {p.decides_right} right, {p.decides_wrong} wrong" for p in parts]
    margin = max([200.0] + [_text_width(text, 11) + 16 for text in texts])
    return _svg(int(left + width + margin), height, "".join(body), "rows each clause fires on and alone decides")


def _confusion_chart(data: ReportData) -> str:
    """The confusion matrix as shaded cells (share of each actual class's rows), counts written in.

    Class labels are never cut: a long one is wrapped over several lines (the
    margins and cells grow to hold them), with the whole label as its tooltip.
    """
    names = [str(c) for c in data.classes]
    k = len(names)
    cell = 70 if k <= 4 else 48
    size, line = 11, 13
    longest_word = max(_text_width(word, size) for name in names for word in name.split(" "))
    cell = int(max(cell, min(160.0, longest_word + 10)))
    columns = [_wrap(name, cell - 6, size) for name in names]
    rows = [_wrap(name, 220, size) for name in names]
    widest = max(_text_width(text, size) for lines in rows for text in lines)
    left = int(max(130.0, widest + 24))
    top = 40 + line * max(len(lines) for lines in columns)
    cell_height = max(cell, line * max(len(lines) for lines in rows) + 10)
    body = [_text(left + cell * k / 2, 16, "predicted", anchor="middle", size=12, weight="bold"),
            _text(14, top - 8, "actual", size=12, weight="bold")]
    totals = data.confusion.sum(axis=1)
    for j, lines in enumerate(columns):
        head = top - 8 - line * (len(lines) - 1)
        body.append(_lines(left + cell * j + cell / 2, head, lines, names[j], size=size, step=line, anchor="middle"))
    for i, lines in enumerate(rows):
        first = top + cell_height * i + cell_height / 2 + 4 - line * (len(lines) - 1) / 2
        body.append(_lines(left - 8, first, lines, names[i], size=size, step=line, anchor="end"))
        for j in range(k):
            count = int(data.confusion[i, j])
            share = count / totals[i] if totals[i] else 0.0
            base = (47, 109, 181) if i == j else (200, 69, 58)
            colour = tuple(int(255 - (255 - c) * share) for c in base)
            body.append(f'<rect x="{left + cell * j}" y="{top + cell_height * i}" width="{cell}" '
                        f'height="{cell_height}" fill="rgb{colour}" stroke="#888"/>')
            body.append(_text(left + cell * j + cell / 2, top + cell_height * i + cell_height / 2 + 5, str(count),
                              anchor="middle", size=13, fill="#ffffff" if share > 0.55 else "#1b1b1b", weight="bold"))
    width = int(max(left + cell * k + 20, left + cell * k / 2 + _text_width("predicted", 12) / 2 + 20))
    return _svg(width, top + cell_height * k + 12, "".join(body), "confusion matrix")


def _pareto_chart(data: ReportData) -> str:
    """Mean test error against mean literals: every cv cell (grey), the optimistic front (blue line), the honest
    nested points (orange diamonds), and this rule (red star: its literals, its error on the report's data)."""
    pareto = data.pareto
    assert pareto is not None
    points, honest = pareto["points"], pareto["honest"]
    mine = (float(data.rule.n_literals), data.error)
    xs = [*points["literals"], *honest["literals"].dropna(), mine[0]]
    ys = [*points["error"], *honest["error"], mine[1]]
    x_step = max(1, math.ceil(max(xs) * 1.08 / 8))
    x_high = float(x_step * max(1, math.ceil(max(xs) * 1.08 / x_step)))
    y_low, y_high = max(0.0, min(ys) - 0.03), max(ys) + 0.03
    left, top, width, height = 60, 20, 520, 300

    def sx(x: float) -> float:
        return left + width * x / x_high

    def sy(y: float) -> float:
        return top + height * (1 - (y - y_low) / (y_high - y_low))

    body = [f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" stroke="#333"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#333"/>']
    for k in range(6):
        value = y_low + (y_high - y_low) * k / 5
        body.append(_text(left - 6, sy(value) + 4, f"{100 * value:.1f}%", anchor="end", size=10))
        body.append(f'<line x1="{left}" y1="{sy(value):.1f}" x2="{left + width}" y2="{sy(value):.1f}" stroke="#eee"/>')
    for tick in range(0, int(x_high) + 1, x_step):
        body.append(_text(sx(tick), top + height + 16, str(tick), anchor="middle", size=10))
    body.append(_text(left + width / 2, top + height + 34, "literals (mean over folds)", anchor="middle", size=12))
    body.append(_text(14, top - 6, "test error", size=12))
    for row in points.itertuples(index=False):
        body.append(f'<circle cx="{sx(row.literals):.1f}" cy="{sy(row.error):.1f}" r="3" fill="#b5b5b5"/>')
    front = points[points["on_front"]].sort_values("literals")
    if len(front):
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(front["literals"], front["error"]))
        body.append(f'<polyline points="{path}" fill="none" stroke="#2f6db5" stroke-width="2"/>')
        for x, y in zip(front["literals"], front["error"]):
            body.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4.5" fill="#2f6db5"/>')
    for row in points[points["this_setting"]].itertuples(index=False):
        body.append(f'<circle cx="{sx(row.literals):.1f}" cy="{sy(row.error):.1f}" r="8" fill="none" '
                    'stroke="#c8453a" stroke-width="2"/>')
    for row in honest.dropna(subset=["literals"]).itertuples(index=False):
        x, y = sx(row.literals), sy(row.error)
        body.append(f'<polygon points="{x:.1f},{y - 6:.1f} {x + 6:.1f},{y:.1f} {x:.1f},{y + 6:.1f} {x - 6:.1f},{y:.1f}" '
                    'fill="#e08a1e"/>')
    x, y = sx(mine[0]), sy(mine[1])
    star = " ".join(
        f"{x + (9 if k % 2 == 0 else 4) * math.sin(math.pi * k / 5):.1f},{y - (9 if k % 2 == 0 else 4) * math.cos(math.pi * k / 5):.1f}"
        for k in range(10))
    body.append(f'<polygon points="{star}" fill="#c8453a" stroke="#7a1f18"/>')
    legend = [("#b5b5b5", "every cv cell (form, algorithm, R, θ)"), ("#2f6db5", "front: test-fold selection (optimistic)"),
              ("#e08a1e", "honest (nested): θ chosen by inner CV"), ("#c8453a", f"this rule: error on {data.data_name}")]
    for k, (colour, label) in enumerate(legend):
        ly = top + 8 + 18 * k
        body.append(f'<rect x="{left + width + 14}" y="{ly}" width="12" height="12" fill="{colour}"/>')
        body.append(_text(left + width + 32, ly + 10, label, size=11))
    margin = max([300.0] + [_text_width(label, 11) + 50 for _, label in legend])
    return _svg(int(left + width + margin), top + height + 44, "".join(body), "Pareto front of test error against literals")


_PATH_COLOURS = ("#2f6db5", "#e08a1e", "#3c9a4b", "#8e44ad", "#17a2b8", "#5d6d7e")  # no red: the ring is red


def _path_values(data: ReportData) -> tuple[pd.DataFrame, str]:
    """The path's rows by R and θ with ``y``: the CV error (accuracy) or the CV score (another scorer), and its name."""
    assert data.path is not None
    path = data.path.sort_values(["n_clauses", "theta"], ascending=[True, False]).reset_index(drop=True)
    error = data.path_scoring == "accuracy"
    path = path.assign(y=1.0 - path["mean_test_score"] if error else path["mean_test_score"])
    return path, "CV error" if error else f"CV {data.path_scoring}"


def _path_chart(data: ReportData) -> str:
    """Two panels against θ (log scale, largest θ on the left): the CV error (or score) and the mean literals of
    the folds' rules, one line per R; a red ring marks the chosen candidate."""
    path, label = _path_values(data)
    thetas = np.log10(path["theta"].to_numpy(dtype=float))
    x_high, x_low = float(thetas.max()), float(thetas.min())
    span = max(x_high - x_low, 1e-9)
    left, width, height, gap, top = 60, 460, 150, 46, 20

    def sx(value: float) -> float:
        return left + width * (x_high - value) / span

    body: list[str] = []

    def panel(column: str, y_top: float, title: str, percent: bool) -> None:
        values = path[column].to_numpy(dtype=float)
        low, high = float(np.nanmin(values)), float(np.nanmax(values))
        pad = max((high - low) * 0.1, 0.01 if percent else 0.5)
        low, high = (max(0.0, low - pad), high + pad)

        def sy(value: float) -> float:
            return y_top + height * (1 - (value - low) / (high - low))

        body.append(f'<line x1="{left}" y1="{y_top + height}" x2="{left + width}" y2="{y_top + height}" stroke="#333"/>')
        body.append(f'<line x1="{left}" y1="{y_top}" x2="{left}" y2="{y_top + height}" stroke="#333"/>')
        for k in range(5):
            value = low + (high - low) * k / 4
            body.append(f'<line x1="{left}" y1="{sy(value):.1f}" x2="{left + width}" y2="{sy(value):.1f}" stroke="#eee"/>')
            body.append(_text(left - 6, sy(value) + 4, f"{100 * value:.1f}%" if percent else f"{value:.1f}",
                              anchor="end", size=10))
        body.append(_text(left, y_top - 6, title, size=12))
        for k, (_, rows) in enumerate(path.groupby("n_clauses", sort=True)):
            colour = _PATH_COLOURS[k % len(_PATH_COLOURS)]
            rows = rows[np.isfinite(rows[column].to_numpy(dtype=float))]  # a candidate every fold failed: no point
            xs, ys = np.log10(rows["theta"].to_numpy(dtype=float)), rows[column].to_numpy(dtype=float)
            points = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in zip(xs, ys))
            body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
            body.extend(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>' for x, y in zip(xs, ys))
        for row in path[path["chosen"]].itertuples(index=False):
            value = float(getattr(row, column))
            if not math.isfinite(value):
                continue
            body.append(f'<circle cx="{sx(math.log10(row.theta)):.1f}" cy="{sy(value):.1f}" r="8" fill="none" '
                        'stroke="#c8453a" stroke-width="2"/>')

    panel("y", top, f"{label} (mean over folds)", True)
    panel("mean_n_literals", top + height + gap, "literals (mean over folds)", False)
    bottom = top + 2 * height + gap
    ticks = sorted({float(t) for t in path["theta"]}, reverse=True)
    for theta in ticks[:: max(1, math.ceil(len(ticks) / 6))]:
        body.append(_text(sx(math.log10(theta)), bottom + 16, f"{theta:.2g}", anchor="middle", size=10))
    body.append(_text(left + width / 2, bottom + 34, "θ (log scale; larger θ, simpler rules, on the left)",
                      anchor="middle", size=12))
    legend = [(_PATH_COLOURS[k % len(_PATH_COLOURS)], f"R = {n}") for k, n in enumerate(sorted(path["n_clauses"].unique()))]
    legend.append(("#c8453a", "chosen (best mean CV score)"))
    for k, (colour, text) in enumerate(legend):
        ly = top + 8 + 18 * k
        body.append(f'<rect x="{left + width + 14}" y="{ly}" width="12" height="12" fill="{colour}"/>')
        body.append(_text(left + width + 32, ly + 10, text, size=11))
    return _svg(left + width + 230, bottom + 44, "".join(body), f"{label} and literals against θ")


def _path_section(data: ReportData) -> str:
    if data.path is None:
        return ""
    path, label = _path_values(data)
    form = str(path["form"].iloc[0])
    error = label == "CV error"
    chosen_r = path.loc[path["chosen"], "n_clauses"]
    shown = path[path["n_clauses"] == chosen_r.iloc[0]] if len(chosen_r) else path
    rows = [[f"{r.theta:.3g}", r.n_clauses, _pct(r.y) if error else f"{r.y:.4f}",
             _pct(r.std_test_score) if error else f"{r.std_test_score:.4f}", f"{r.mean_n_literals:.1f}",
             *(["–"] * 3 if pd.isna(r.n_literals) else [int(r.n_literals), _pct(r.training_error), str(r.rule)]),
             "chosen" if r.chosen else ""]
            for r in shown.itertuples(index=False)]
    return "".join([
        "<h2 id=\"path\">Along the θ path: error and size against θ</h2>",
        f"<p class=\"note\">The search (<code>BooleanRuleCV</code>) fitted the {form.upper()} rules of every θ of a "
        "path scaled to the data on each cross-validation fold, one line per R (the number of clauses; with more than "
        "two classes, the chosen R of the rule lists). Larger θ asks more of each literal: simpler rules on the left. "
        f"Top: the {_ESC(label)} over the folds; bottom: the literals of the folds' rules. The red ring is the "
        "candidate chosen (the best mean score), refitted on all rows by walking the same path down to its θ: the "
        "table gives, for the chosen R, the refit's rule at each θ it passed (below the chosen θ it did not fit, "
        "–).</p>",
        f'<div class="figure">{_path_chart(data)}</div>',
        _table(["θ", "R", label, "std", "literals (CV)", "literals (refit)", "training error (refit)", "rule (refit)",
                "chosen"], rows, numeric=(0, 1, 2, 3, 4, 5, 6)),
    ])


def _rule_section(data: ReportData) -> str:
    rule = data.rule
    parts = data.parts
    if isinstance(rule, RuleList):
        text = rule.to_text(data.target)
        intro = ("An ordered rule list: a row gets the class of the first step whose rule holds, else the default "
                 "class. A step <em>claims</em> the rows it decides (its rule holds and no earlier step's does); "
                 "its precision is the share of its class among them. A step <em>alone decides</em> a row when "
                 "the list without that step gives the row another class.")
        header = ["step", "rule", "class", "claims (rows)", "precision", "alone decides", "of them right / wrong"]
        rows = [[p.name, p.text, p.label, p.fires, _pct(p.precision), "–" if p.decides is None else p.decides,
                 "–" if p.decides is None else f"{p.decides_right} / {p.decides_wrong}"] for p in parts]
        numeric: tuple[int, ...] = (3, 4, 5)
    elif rule.form == "dnf":
        terms = [f"({p.text})" if " AND " in p.text else p.text for p in parts]
        text = f"{data.target} = {data.classes[1]} when\n  " + "\n  OR ".join(terms) if parts else str(rule)
        intro = (f"A DNF rule: {_ESC(data.target)} = {_ESC(str(data.classes[1]))} when at least one term holds. A term "
                 f"<em>fires</em> on the rows where all its conditions hold; its precision is the share of "
                 f"{_ESC(str(data.classes[1]))} among them. A term <em>alone decides</em> a row when the rule without "
                 "that term predicts the row otherwise (it is the only term that fires there).")
        header = ["term", "conditions (all hold)", "fires on (rows)", f"precision ({data.classes[1]})",
                  "alone decides", "of them right / wrong"]
        rows = [[p.name, p.text, p.fires, _pct(p.precision), p.decides, f"{p.decides_right} / {p.decides_wrong}"]
                for p in parts]
        numeric = (2, 3, 4)
    else:
        text = f"{data.target} = {data.classes[1]} when\n  " + "\n  AND ".join(f"({p.text})" for p in parts) if parts \
            else str(rule)
        intro = (f"A CNF rule: {_ESC(data.target)} = {_ESC(str(data.classes[1]))} when every clause holds. A clause "
                 "<em>fires</em> on the rows where it is true (at least one of its conditions holds); the rows it "
                 f"fails on are predicted {_ESC(str(data.classes[0]))}: a CNF clause decides rows by being false. Its "
                 f"precision there is the share of {_ESC(str(data.classes[0]))} among the rows it fails on. A clause "
                 "<em>alone decides</em> a row when the rule without that clause predicts the row otherwise (it is "
                 "the only clause that fails there).")
        header = ["clause", "conditions (one holds)", "fires on (rows)", f"share of {data.classes[1]} there",
                  "fails on (rows)", f"precision when failing ({data.classes[0]})", "alone decides",
                  "of them right / wrong"]
        rows = [[p.name, p.text, p.fires, _pct(p.precision), p.fails, _pct(p.fail_precision), p.decides,
                 f"{p.decides_right} / {p.decides_wrong}"] for p in parts]
        numeric = (2, 3, 4, 5, 6)
    chart = f'<div class="figure">{_parts_chart(data)}</div>' if parts else ""
    if not parts and isinstance(rule, Rule):  # a constant rule: the learner found no clause better than the baseline
        constant = data.classes[1] if rule.form == "cnf" else data.classes[0]
        intro += f" <strong>This rule has no clauses: it predicts {_ESC(str(constant))} on every row.</strong>"
    return (f'<h2 id="rule">The rule</h2><div class="rule">{_ESC(text)}</div><p class="note">{intro}</p>'
            f"{_table(header, rows, numeric)}{chart}")


def _scores_section(data: ReportData) -> str:
    facts = dict(data.facts)
    left_out = data.n_rows - data.n_labelled
    note = f" ({left_out} rows with a missing label or another value left out)" if left_out else ""
    rows = [
        ["accuracy", f"{data.accuracy:.4f}"],
        ["balanced accuracy (the mean of the classes' recalls)", f"{data.balanced_accuracy:.4f}"],
        ["error", f"{data.error:.4f}"],
        ["majority baseline (error)", f"{data.baseline_error:.4f}: always {data.baseline_class}"],
        ["training error (stored in the rule file)", facts.get("training error (stored)", "not recorded")],
        ["complexity (stored in the rule file)", facts.get("complexity (stored)", "not recorded")],
    ]
    names = [str(c) for c in data.classes]
    matrix = [[f"actual {name}", *map(int, data.confusion[i]), int(data.confusion[i].sum())] for i, name in enumerate(names)]
    scores = data.class_scores
    per_class = [[str(r["class"]), f"{int(r['rows'])} ({_pct(float(r['share']))})", int(r["predicted"]),
                  _pct(float(r["recall"])), _pct(float(r["precision"]))] for _, r in scores.iterrows()]
    warning = ""
    if data.unequal_classes:
        small = scores.iloc[int(np.argmin(scores["share"].to_numpy(dtype=float)))]
        warning = (
            f"<p class=\"note warning\"><strong>The classes are unequal</strong>: {_ESC(str(small['class']))} is "
            f"{_pct(float(small['share']))} of the labelled rows. Always answering {_ESC(str(data.baseline_class))} "
            f"would already be right on {_pct(1 - data.baseline_error)} of them, so read the balanced accuracy and "
            f"the recall and precision of {_ESC(str(small['class']))} rather than the accuracy.</p>"
        )
    return (
        f"<h2 id=\"scores\">How good it is on {_ESC(data.data_name)}</h2>"
        f"<p class=\"note\">Scores on the {data.n_labelled} labelled rows of {_ESC(data.data_name)}{_ESC(note)}. "
        "If these are the rows the rule was learned on, the error is a training error, not an estimate for new rows "
        "(see the cross-validation section for that). The balanced accuracy weighs every class alike: it is the "
        "mean of the classes' recalls. Per class, the recall is the share of its rows the rule predicts as it, the "
        "precision the share of the rows predicted as it that are of it (–: no such rows).</p>"
        f"{warning}{_table(['measure', 'value'], rows, css='metrics')}"
        f"{_table(['class', 'rows (share)', 'predicted as it', 'recall', 'precision'], per_class, numeric=(1, 2, 3, 4))}"
        f"{_table(['', *[f'predicted {n}' for n in names], 'rows'], matrix, numeric=tuple(range(1, len(names) + 2)))}"
        f'<div class="figure">{_confusion_chart(data)}</div>'
    )


def _errors_section(data: ReportData) -> str:
    counts = ", ".join(f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in data.n_errors_by_kind.items())
    parts = [f"<h2 id=\"errors\">Where it errs</h2><p>{_ESC(counts)} among {data.n_labelled} labelled rows. "
             "The first of each kind, with the clauses that decided it (the reasons of "
             "<code>rulemodels predict --explain</code>); row 1 is the first data row.</p>"]
    if len(data.errors):
        rows = [[r.kind, r.row, r.actual, r.predicted, r.reason] for r in data.errors.itertuples(index=False)]
        parts.append(_table(["error", "row", "actual", "predicted", "reason"], rows, numeric=(1,)))
    else:
        parts.append("<p>No errors on these rows.</p>")
    if data.subgroups is not None:
        rows = [[g.group if g.kind in ("value", "bin") else _Markup(f'<em class="group">{_ESC(g.group)}</em>'),
                 int(g.rows), int(g.labelled), int(g.errors), _pct(g.error)]
                for g in data.subgroups.itertuples(index=False)]
        parts.append(f"<h3>Error by subgroup</h3><p class=\"note\">{_ESC(data.subgroup_note)}.</p>")
        parts.append(_table(["group", "rows", "labelled", "errors", "error"], rows, numeric=(1, 2, 3, 4)))
    return "".join(parts)


def _pareto_section(data: ReportData) -> str:
    if data.pareto is None:
        return ""
    points, honest = data.pareto["points"], data.pareto["honest"]
    front = points[points["on_front"]].sort_values(["literals", "error", "form", "algorithm", "n_clauses", "theta"])
    same = ["form", "algorithm", "n_clauses", "literals", "error"]  # θ values that gave the same rules: one row
    rows = [[form, algorithm, n_clauses, ", ".join(f"{t:g}" for t in cells["theta"]), f"{literals:.1f}", _pct(error),
             "this rule's setting" if cells["this_setting"].any() else ""]
            for (form, algorithm, n_clauses, literals, error), cells in front.groupby(same, sort=False)]
    text = [
        f"<h2 id=\"pareto\">Simpler or more accurate rules: cross-validation on {_ESC(str(data.pareto['dataset']))}</h2>",
        "<p class=\"note\">Each grey point is one cell of the <code>rulemodels cv</code> results: the mean test error "
        "over the outer folds against the mean literals. <strong>Test-fold selection (optimistic)</strong>: the blue "
        "front picks the cells by their test error, as the paper's Table 1 picks θ, so its errors are optimistic. "
        "<strong>Honest (nested)</strong>: the orange points choose θ by inner cross-validation on each training fold "
        "(the test fold is never seen)" + ("" if len(honest) else " — this results file has no inner folds (run "
                                             "<code>rulemodels cv --inner-folds 3</code> for them)") +
        f". The red star is this rule: its literals and its error on {_ESC(data.data_name)}, which is a training "
        "error if these are the rows it was learned on; a red ring marks the cell with this rule's settings.</p>",
        f'<div class="figure">{_pareto_chart(data)}</div>',
        "<h3>The optimistic front (test-fold selection)</h3>",
        _table(["form", "algorithm", "R", "θ", "literals", "mean test error", "note"], rows, numeric=(2, 4, 5)),
    ]
    if len(honest):
        rows = [[r.form, r.algorithm, r.n_clauses, "–" if math.isnan(r.literals) else f"{r.literals:.1f}",
                 _pct(r.error), f"{r.folds} outer x {r.inner_folds} inner"] for r in honest.itertuples(index=False)]
        text += ["<h3>Honest (nested) errors: θ chosen by inner cross-validation</h3>",
                 _table(["form", "algorithm", "R", "literals", "nested test error", "folds"], rows, numeric=(2, 3, 4))]
    return "".join(text)


def render_html(data: ReportData) -> str:
    """The page of :func:`report_data`'s numbers: inline CSS and SVG, no script, no URL."""
    title = f"Rule report: {data.target} on {data.data_name}"
    facts = _table(["item", "value"], data.facts, css="metrics")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{_ESC(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_ESC(title)}</h1><p class=\"subtitle\">A learned rule, how good it is, where it errs, and what else "
        "was on the table; written by rulemodels as one self-contained file.</p>"
        f"{_rule_section(data)}{_scores_section(data)}{_errors_section(data)}{_path_section(data)}{_pareto_section(data)}"
        f"<h2 id=\"metadata\">Metadata</h2>{facts}</body></html>\n"
    )


def report_html(
    model: Any, X: pd.DataFrame, y: Any, *, by: str | None = None, results: Any = None,
    data_name: str | None = None, n_examples: int = DEFAULT_N_EXAMPLES, out: str | os.PathLike[str] | None = None,
) -> str:
    """A self-contained HTML report of a learned rule on labelled data, for a reviewer who does not run Python.

    Parameters
    ----------
    model : BooleanRuleClassifier, BooleanRuleCV, str or path, SavedModel, Rule or RuleList
        A fitted estimator, the path of a rule file (``rulemodels fit --out``;
        its SHA-256 goes in the metadata), a loaded rule file, or a bare rule
        (classes 0 and 1) or rule list. A fitted ``BooleanRuleCV`` with a θ
        path adds the path's section (its ``rule_path_``: CV error and
        literals against θ).
    X : DataFrame
        The rows to score the rule on, with every column it uses: a pandas,
        polars (eager or lazy) or pyarrow DataFrame, or any object with
        ``__arrow_c_stream__`` or ``__dataframe__``.
    y : array-like
        Each row's label (rows whose label is missing or not a class of the
        rule are left out of the scores and said so).
    by : str, optional
        A column of ``X``: the error per value (per quantile bin for a numeric
        column with many values; the :data:`MAX_GROUPS` most frequent values
        of a column with more, the rest pooled). Groups are keyed by value:
        text values are shown quoted (``'missing'``), the rows with no value
        form their own group, shown as :data:`MISSING_GROUP` in italics, and
        the pooled rest is shown as :data:`OTHER_GROUP` with the number of
        values pooled, so no real value merges with either.
    results : str, path or DataFrame, optional
        A ``rulemodels cv`` results file (or :func:`rulemodels.experiments.read_results`'s
        frame): the Pareto front of mean test error against literals.
    data_name : str, optional
        How the page names the data (the CLI passes the file name).
    n_examples : int, default=5
        Rows shown per kind of error.
    out : str or path, optional
        Also write the page there (atomically: complete or absent).

    Returns
    -------
    str
        The HTML page: inline CSS and SVG, no script and no URL. Its scores
        are those of :class:`ReportData`: accuracy, balanced accuracy, and
        recall and precision per class, for every rule (two classes or a
        rule list), with a warning when the classes are unequal.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> from rulemodels import report_html
    >>> from rulemodels.rules import Literal, Rule
    >>> rule = Rule.dnf([[Literal("age", ">", 50)]])
    >>> X = pd.DataFrame({"age": [60, 40, 55, 30]})
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     page = report_html(rule, X, [1, 0, 0, 0], out=os.path.join(directory, "report.html"))
    ...     written = open(os.path.join(directory, "report.html"), encoding="utf-8").read()
    >>> page.startswith("<!DOCTYPE html>"), written == page
    (True, True)
    """
    page = render_html(report_data(model, X, y, by=by, results=results, data_name=data_name, n_examples=n_examples))
    if out is not None:
        from rulemodels.outputs import write_text_atomically

        write_text_atomically(out, page)
    return page
