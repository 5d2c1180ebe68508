"""The numbers of a report (:func:`report_data`): what the page shows, computed from a rule and labelled data.

The rule comes from a rule file, a :class:`SavedModel`, a fitted estimator,
a :class:`Rule` or a :class:`RuleList`; its predictions from the library's own
evaluation on the data read as the rule's columns were in training. The
result is one frozen :class:`ReportData`, which :mod:`rulemodels.report._html`
renders and nothing here knows how.
"""

from __future__ import annotations

import datetime
import hashlib
import importlib.metadata
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.rules import Rule, RuleList, SavedModel, conform, explain_rule, explain_rule_list, load_model
from rulemodels.utils import as_pandas
from rulemodels.utils._version import __version__

__all__ = [
    "DEFAULT_N_EXAMPLES", "MAX_GROUPS", "MAX_GROUP_VALUES", "MISSING_GROUP", "N_QUANTILE_BINS", "OTHER_GROUP",
    "UNEQUAL_CLASSES", "PartStats", "ReportData", "report_data",
]

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

    Parameters
    ----------
    name : str
        The part's name: ``"clause r"`` (``"term r"`` of a DNF), ``"step k"`` or ``"default"``.
    text : str
        The clause (step's rule) as text; ``"no step holds"`` for the default.
    fires : int
        Rows where the clause is true (a step: rows it claims).
    precision : float
        Among the labelled rows it fires on, the share of its class; NaN when it fires on none.
    decides : int or None
        Rows whose prediction changes when the part is removed; None for the default.
    decides_right : int or None
        Of those, the labelled rows predicted right; None for the default.
    decides_wrong : int or None
        Of those, the labelled rows predicted wrong; None for the default.
    fails : int or None, default=None
        Rows where the clause is false (CNF only; None otherwise).
    fail_precision : float or None, default=None
        Among the labelled rows it is false on, the share of the negative class (CNF only; None otherwise).
    label : object, default=None
        The class a step (or the default) predicts; None for a clause of a rule.
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

    Parameters
    ----------
    rule : Rule or RuleList
        The rule reported on.
    classes : tuple
        The rule's classes (a two-class rule: its negative, then its positive class).
    target : str
        The name of the label the rule predicts (``"class"`` for a bare rule).
    data_name : str
        How the page names the data (``"the data"`` when not given).
    n_rows : int
        The number of rows of the data.
    predicted : numpy.ndarray of object, shape (n_rows,)
        Each row's predicted class.
    predicted_index : numpy.ndarray of int, shape (n_rows,)
        Each row's predicted class index in ``classes``.
    truth : numpy.ndarray of int, shape (n_rows,)
        Each row's class index in ``classes``; -1 for a missing label or one that is not a class.
    parts : list of PartStats
        Each clause's (step's, then the default's) statistics.
    confusion : numpy.ndarray of int, shape (n_classes, n_classes)
        Counts of the labelled rows, actual class by row, predicted class by column.
    accuracy : float
        The share of the labelled rows predicted right.
    balanced_accuracy : float
        The mean recall over the classes present.
    class_scores : pandas.DataFrame
        One row per class: ``class``, ``rows``, ``share``, ``predicted``, ``right``, ``recall``, ``precision``.
    baseline_error : float
        The error of always predicting the most frequent class of the labelled rows.
    baseline_class : object
        That class.
    errors : pandas.DataFrame
        The first rows of each kind of error: ``kind``, ``row`` (1-based), ``actual``, ``predicted`` and the
        ``reason`` (``predict --explain``'s).
    n_errors_by_kind : dict of str to int
        The number of errors of each kind (``"false positive"``, ``"false negative"``; a rule list:
        ``"misclassified"``).
    subgroups : pandas.DataFrame or None
        The error per group of the column ``by`` (columns above); None without ``by``.
    subgroup_note : str
        How the groups were formed (values, quantile bins, pooled values); empty without ``by``.
    pareto : dict or None
        The points of a ``rulemodels cv`` results file and their fronts; None without ``results``.
    facts : list of (str, str), default=[]
        The metadata a reviewer asks for, as ``(label, text)`` rows.
    path : pandas.DataFrame or None, default=None
        A fitted ``BooleanRuleCV``'s ``rule_path_`` (CV score and literals against θ); None otherwise.
    path_scoring : str, default="accuracy"
        The name of the scorer of ``path``'s scores.
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
        """The (weighted) error rate on the report's rows: ``1 - accuracy``."""
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

    Parameters
    ----------
    model : BooleanRuleClassifier, BooleanRuleCV, str or path, SavedModel, Rule or RuleList
        A fitted estimator, the path of a rule file, a loaded rule file, or a bare rule (classes 0 and 1)
        or rule list.
    X : DataFrame
        The rows to score the rule on, with every column it uses (pandas, polars or pyarrow).
    y : array-like
        Each row's label (rows whose label is missing or not a class of the rule are left out of the scores).
    by : str or None, default=None
        A column of ``X`` to show the error per value (or quantile bin) of; None: no subgroups.
    results : str, path, DataFrame or None, default=None
        A ``rulemodels cv`` results file (or its frame): the Pareto front of mean test error against
        literals; None: none.
    data_name : str or None, default=None
        How the page names the data; None: ``"the data"``.
    n_examples : int, default=DEFAULT_N_EXAMPLES
        Rows kept per kind of error.

    Returns
    -------
    ReportData
        The predictions, the clauses' (steps') statistics, the scores
        (``accuracy``, ``balanced_accuracy``, ``class_scores``), the errors,
        the subgroups of ``by`` and the metadata.

    Raises
    ------
    ValueError
        If the model is an unfitted estimator, ``X`` lacks a column the rule uses or ``by``, ``y`` has not
        one label per row, ``X`` has no rows, or no label is a class of the rule.
    TypeError
        If ``model`` is none of the kinds above, or ``X`` is not a DataFrame.
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
