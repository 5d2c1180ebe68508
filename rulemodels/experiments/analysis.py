"""The paper's tables from result records: summaries, Table 1, nested-CV selection, Pareto fronts.

All error rates in the returned DataFrames are fractions in [0, 1];
:data:`~rulemodels.experiments.PAPER_TABLE1` keeps the paper's percentages as
printed, and :func:`table1_markdown` prints percentages.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.experiments.paper import PAPER_ALGORITHMS, PAPER_DATASETS, PAPER_TABLE1

logger = logging.getLogger("rulemodels.experiments")

__all__ = ["nested_cv_selection", "nested_model_selection", "pareto_front", "summarize", "table1", "table1_markdown"]

_CELL = ["dataset", "algorithm", "n_clauses", "theta"]
# Fields that must not vary within one dataset's results for a summary to be
# meaningful (a sweep compares algorithms, R and θ; nothing else).
_SETTING_COLUMNS = [
    "form", "n_folds", "n_thresholds", "solver", "max_iter", "random_state", "time_limit", "polish", "constraints", "data_sha256",
]


def _as_results(results: pd.DataFrame) -> pd.DataFrame:
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results must be a DataFrame (from run_experiments or read_results), got {type(results).__name__}")
    missing = [c for c in (*_CELL, "fold", "n_folds", "test_error", "train_error", "n_literals", "error") if c not in results.columns]
    if missing:
        raise ValueError(f"results lack the columns {missing}: pass the DataFrame of run_experiments or read_results")
    return results


def _check_settings(results: pd.DataFrame) -> None:
    for dataset, rows in results.groupby("dataset", sort=True):
        for column in _SETTING_COLUMNS:
            if column in rows.columns and rows[column].nunique(dropna=False) > 1:
                values = sorted(map(str, rows[column].unique()))
                raise ValueError(
                    f"results for dataset {dataset!r} mix {column} values {values}: summarize one setting at a "
                    f"time, e.g. results[results[{column!r}] == ...]"
                )


def _dataset_order(names: Iterable[str]) -> list[str]:
    names = set(names)
    return [d for d in PAPER_DATASETS if d in names] + sorted(names - set(PAPER_DATASETS))


def _algorithm_order(names: Iterable[str]) -> list[str]:
    names = set(names)
    return [a for a in PAPER_ALGORITHMS if a in names] + sorted(names - set(PAPER_ALGORITHMS))


def _sort_cells(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    rank = {
        "dataset": {d: i for i, d in enumerate(_dataset_order(frame["dataset"]))},
        "algorithm": {a: i for i, a in enumerate(_algorithm_order(frame["algorithm"]))},
    }

    def key(column: pd.Series) -> pd.Series:
        return column.map(rank[column.name]) if column.name in rank else column

    return frame.sort_values(list(columns), key=key, kind="stable").reset_index(drop=True)


def summarize(results: pd.DataFrame) -> pd.DataFrame:
    """Mean errors and complexity over folds, per (dataset, algorithm, R, θ).

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`. Within
        a dataset, the settings (form, folds, thresholds, solver, max_iter,
        seed, time limit, data) must not vary.

    Returns
    -------
    pandas.DataFrame
        One row per cell with ``dataset, algorithm, n_clauses, theta``,
        ``test_error_mean``, ``test_error_std`` (sample std over folds),
        ``train_error_mean``, ``n_literals_mean``, ``n_features_mean``,
        ``n_folds_done`` (folds fitted without error), ``n_errors`` (failed
        folds), ``n_folds`` (folds of the protocol) and ``complete``
        (``n_folds_done == n_folds``). Errors are fractions. Failed folds
        are left out of the means.

    Raises
    ------
    ValueError
        If the settings vary within a dataset, or columns are missing.
    """
    results = _as_results(results)
    results = results[~_inner_mask(results)]  # inner (nested-CV) fits are not the protocol's folds
    columns = [*_CELL, "test_error_mean", "test_error_std", "train_error_mean", "n_literals_mean",
               "n_features_mean", "n_folds_done", "n_errors", "n_folds", "complete"]
    if results.empty:
        return pd.DataFrame(columns=columns)
    _check_settings(results)
    failed = results["error"].notna()
    ok = results[~failed].copy()
    for column in ("test_error", "train_error", "n_literals", "n_features"):
        ok[column] = pd.to_numeric(ok[column])
    summary = ok.groupby(_CELL, sort=False).agg(
        test_error_mean=("test_error", "mean"),
        test_error_std=("test_error", "std"),
        train_error_mean=("train_error", "mean"),
        n_literals_mean=("n_literals", "mean"),
        n_features_mean=("n_features", "mean"),
        n_folds_done=("fold", "nunique"),
    )
    errors = results[failed].groupby(_CELL, sort=False).size().rename("n_errors")
    folds = results.groupby(_CELL, sort=False)["n_folds"].first()
    summary = summary.join(errors, how="outer").join(folds, how="outer").reset_index()
    summary["n_folds_done"] = summary["n_folds_done"].fillna(0).astype(int)
    summary["n_errors"] = summary["n_errors"].fillna(0).astype(int)
    summary["n_folds"] = summary["n_folds"].astype(int)
    summary["n_clauses"] = summary["n_clauses"].astype(int)
    summary["theta"] = summary["theta"].astype(float)
    summary["complete"] = summary["n_folds_done"] == summary["n_folds"]
    return _sort_cells(summary[columns], ["dataset", "algorithm", "n_clauses", "theta"])


def _complete_cells(summary: pd.DataFrame, require_complete: bool) -> pd.DataFrame:
    usable = summary[summary["n_folds_done"] > 0]
    if require_complete:
        incomplete = int((~usable["complete"]).sum())
        if incomplete:
            logger.warning("%d (dataset, algorithm, R, θ) cells lack folds and are left out", incomplete)
        usable = usable[usable["complete"]]
    return usable


def _paper_fraction(dataset: str, n_clauses: int, algorithm: str) -> float:
    value = PAPER_TABLE1.get((dataset, int(n_clauses), algorithm))
    return float("nan") if value is None else value / 100.0


def table1(results: pd.DataFrame, *, require_complete: bool = True) -> pd.DataFrame:
    """The paper's Table 1 from our records: minimal mean test error over θ.

    For each (dataset, R, algorithm) the θ whose mean test error over the
    folds is smallest (ties: fewer mean literals, then the larger θ). Like
    the paper, this selects θ on the test folds, so it is optimistic; see
    :func:`nested_cv_selection` for an honest counterpart.

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`.
    require_complete : bool, default=True
        Consider only θ with every fold fitted without error.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, n_clauses, algorithm, test_error`` (the minimal
        mean test error), ``theta`` (where it is reached), ``n_literals`` and
        ``train_error`` (means at that θ), ``n_thetas`` (θ values compared)
        and ``paper`` (the paper's number as a fraction, NaN where the paper
        has none). Rows in the paper's order.
    """
    columns = ["dataset", "n_clauses", "algorithm", "test_error", "theta", "n_literals", "train_error", "n_thetas", "paper"]
    summary = summarize(results)
    if summary.empty:
        return pd.DataFrame(columns=columns)
    summary = _complete_cells(summary, require_complete)
    rows = []
    for (dataset, n_clauses, algorithm), cells in summary.groupby(["dataset", "n_clauses", "algorithm"], sort=False):
        ranked = cells.assign(_neg_theta=-cells["theta"]).sort_values(
            ["test_error_mean", "n_literals_mean", "_neg_theta"], kind="stable",
        )
        best = ranked.iloc[0]
        rows.append({
            "dataset": dataset, "n_clauses": int(n_clauses), "algorithm": algorithm,
            "test_error": float(best["test_error_mean"]), "theta": float(best["theta"]),
            "n_literals": float(best["n_literals_mean"]), "train_error": float(best["train_error_mean"]),
            "n_thetas": len(cells), "paper": _paper_fraction(dataset, n_clauses, algorithm),
        })
    if not rows:
        return pd.DataFrame(columns=columns)
    return _sort_cells(pd.DataFrame(rows, columns=columns), ["dataset", "n_clauses", "algorithm"])


def table1_markdown(table: pd.DataFrame, *, value: str = "test_error") -> str:
    """Table 1 in the paper's layout, as a Markdown table.

    Rows are dataset × R, columns the algorithms (the paper's order first);
    each cell reads ``ours (paper)`` in percent with one decimal, ``ours``
    alone where the paper has no number, and ``–`` where we have none.

    Parameters
    ----------
    table : pandas.DataFrame
        The output of :func:`table1` (or of :func:`nested_cv_selection`).
    value : str, default="test_error"
        The column printed as "ours" (``"nested_test_error"`` for the
        nested selection).

    Returns
    -------
    str
        The Markdown table.

    Raises
    ------
    ValueError
        If ``table`` has no column ``value``.
    """
    if value not in table.columns:
        raise ValueError(f"table has no column {value!r}; its columns are {list(table.columns)}")
    algorithms = _algorithm_order(table["algorithm"]) if len(table) else list(PAPER_ALGORITHMS)
    lines = [
        "| dataset | R | " + " | ".join(a.upper() for a in algorithms) + " |",
        "|---|---|" + "---|" * len(algorithms),
    ]
    cells = {(r.dataset, int(r.n_clauses), r.algorithm): r for r in table.itertuples(index=False)}
    datasets = _dataset_order(table["dataset"]) if len(table) else []
    for dataset in datasets:
        for n_clauses in sorted({int(r) for r in table.loc[table["dataset"] == dataset, "n_clauses"]}):
            entries = []
            for algorithm in algorithms:
                row = cells.get((dataset, n_clauses, algorithm))
                paper = PAPER_TABLE1.get((dataset, n_clauses, algorithm))
                ours = None if row is None else getattr(row, value)
                text = "–" if ours is None or pd.isna(ours) else f"{100 * float(ours):.1f}"
                if paper is not None:
                    text += f" ({paper:.1f})"
                entries.append(text)
            lines.append(f"| {dataset} | {n_clauses} | " + " | ".join(entries) + " |")
    return "\n".join(lines) + "\n"


def nested_cv_selection(results: pd.DataFrame) -> pd.DataFrame:
    """θ chosen by an inner cross-validation on each training fold, and its outer test error.

    The honest counterpart of :func:`table1` (which, like the paper, picks θ
    on the test folds). For each (dataset, algorithm, R) and each outer fold
    k, the inner fits of a grid made with ``make_grid(..., inner_folds=J)``
    give, for every θ, J validation errors measured on inner folds of fold
    k's *training* data; θ*_k is the θ with the smallest mean validation
    error (ties: the larger θ, i.e. the sparser rule), and fold k
    contributes the test error of the outer fit at θ*_k. The nested error is
    the mean over the K outer folds. Fold k's test samples never influence
    θ*_k, neither through training nor through evaluation.

    Parameters
    ----------
    results : pandas.DataFrame
        Records from :func:`run_experiments` or :func:`read_results`, outer
        and inner fits together.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, algorithm, R) whose K outer folds all have a
        θ with J finished inner fits and the outer fit at that θ. Columns
        ``dataset, algorithm, n_clauses, nested_test_error,
        paper_style_min_error`` (:func:`table1`'s statistic on the same
        outer fits), ``optimism`` (their difference), ``inner_cv_error``
        (mean over k of the smallest mean validation error: the inner CV's
        own estimate), ``n_folds``, ``n_inner_folds``, ``selected_thetas``
        (θ*_k for k = 0..K-1, a tuple) and ``paper`` (the paper's Table 1
        number as a fraction). Errors are fractions. Cells without inner
        fits are left out (logged).
    """
    results = _as_results(results)
    columns = ["dataset", "algorithm", "n_clauses", "nested_test_error", "paper_style_min_error", "optimism",
               "inner_cv_error", "n_folds", "n_inner_folds", "selected_thetas", "paper"]
    empty = pd.DataFrame(columns=columns)
    if results.empty:
        return empty
    inner_mask = _inner_mask(results)
    _check_settings(results[~inner_mask])
    ok = results[results["error"].isna()].copy()
    ok["test_error"] = pd.to_numeric(ok["test_error"])
    inner_ok, outer_ok = ok[inner_mask[ok.index]], ok[~inner_mask[ok.index]]
    cell = ["dataset", "algorithm", "n_clauses"]
    inner_cells = dict(list(inner_ok.groupby(cell, sort=False)))
    rows = []
    for (dataset, algorithm, n_clauses), outer in outer_ok.groupby(cell, sort=False):
        inner = inner_cells.get((dataset, algorithm, n_clauses), inner_ok.iloc[:0])
        row = _nested_cell(outer, inner)
        if row is None:
            if len(inner):
                logger.warning("nested CV of %s/%s/R=%s lacks fits: left out", dataset, algorithm, n_clauses)
            continue
        rows.append({"dataset": dataset, "algorithm": algorithm, "n_clauses": int(n_clauses), **row,
                     "paper": _paper_fraction(dataset, n_clauses, algorithm)})
    if not rows:
        return empty
    return _sort_cells(pd.DataFrame(rows, columns=columns), ["dataset", "n_clauses", "algorithm"])


def _inner_mask(results: pd.DataFrame) -> pd.Series:
    """True for the records of inner (nested-CV) fits; files written before nested CV have none."""
    if "inner_fold" not in results.columns:
        return pd.Series(False, index=results.index)
    return results["inner_fold"].notna()


def _largest_argmin(values: np.ndarray) -> int:
    """Index of the last minimum (θ ascending: ties go to the larger θ)."""
    return len(values) - 1 - int(np.argmin(values[::-1]))


def _nested_cell(outer: pd.DataFrame, inner: pd.DataFrame) -> dict[str, Any] | None:
    """The nested-CV numbers of one (dataset, algorithm, R), or None if a fold lacks fits."""
    if inner.empty:
        return None
    n_folds = int(outer["n_folds"].iloc[0])
    n_inner = int(inner["n_inner_folds"].iloc[0])
    test = outer.pivot_table(index="theta", columns="fold", values="test_error", aggfunc="first")
    test = test.reindex(columns=range(n_folds))
    chosen, nested, inner_best = [], [], []
    for k in range(n_folds):
        validation = inner[inner["fold"] == k].pivot_table(
            index="theta", columns="inner_fold", values="test_error", aggfunc="first",
        ).reindex(columns=range(n_inner)).dropna(axis=0, how="any").sort_index()
        if validation.empty:
            return None
        means = validation.to_numpy().mean(axis=1)
        best = _largest_argmin(means)
        theta = float(validation.index[best])
        if theta not in test.index or pd.isna(test.at[theta, k]):
            return None
        chosen.append(theta)
        nested.append(float(test.at[theta, k]))
        inner_best.append(float(means[best]))
    complete = test.dropna(axis=0, how="any")
    paper_style = float(complete.to_numpy().mean(axis=1).min()) if len(complete) else float("nan")
    nested_error = float(np.mean(nested))
    return {
        "nested_test_error": nested_error, "paper_style_min_error": paper_style,
        "optimism": nested_error - paper_style, "inner_cv_error": float(np.mean(inner_best)),
        "n_folds": n_folds, "n_inner_folds": n_inner, "selected_thetas": tuple(chosen),
    }


def nested_model_selection(results: pd.DataFrame) -> pd.DataFrame:
    """θ, R and form chosen together by the inner cross-validation of each training fold; the honest error.

    For each (dataset, algorithm) and outer fold k, every candidate (form,
    R, θ) with all J inner fits finished on fold k's training data gets its
    mean validation error; the smallest wins (ties: fewer clauses, then the
    larger θ, then DNF), and fold k contributes the test error of the outer
    fit of that candidate. The mean over the K folds is an honest estimate
    of the whole procedure "choose θ, R and form by J-fold CV, then fit":
    fold k's test rows never influence the choice. Results of several forms
    (``make_grid(..., form="dnf")`` and ``form="cnf"``) may be mixed here.

    Parameters
    ----------
    results : pandas.DataFrame
        The records of a run, with the inner fits of a nested cross-validation.

    Returns
    -------
    pandas.DataFrame
        One row per (dataset, algorithm) whose K folds all have a candidate:
        ``dataset, algorithm, nested_test_error, inner_cv_error, n_folds,
        n_inner_folds, selected`` (per fold, a tuple of ``(form, R, θ)``).
    """
    results = _as_results(results)
    columns = ["dataset", "algorithm", "nested_test_error", "inner_cv_error", "n_folds", "n_inner_folds", "selected"]
    if results.empty:
        return pd.DataFrame(columns=columns)
    ok = results[results["error"].isna()].copy()
    ok["test_error"] = pd.to_numeric(ok["test_error"])
    inner_mask = _inner_mask(ok)
    inner_ok, outer_ok = ok[inner_mask], ok[~inner_mask]
    rows = []
    for (dataset, algorithm), outer in outer_ok.groupby(["dataset", "algorithm"], sort=False):
        inner = inner_ok[(inner_ok["dataset"] == dataset) & (inner_ok["algorithm"] == algorithm)]
        row = _selection_cell(outer, inner)
        if row is not None:
            rows.append({"dataset": dataset, "algorithm": algorithm, **row})
    if not rows:
        return pd.DataFrame(columns=columns)
    return _sort_cells(pd.DataFrame(rows, columns=columns), ["dataset", "algorithm"])


def _candidate_order(candidate: tuple[str, int, float]) -> tuple[int, float, int]:
    form, n_clauses, theta = candidate
    return (int(n_clauses), -float(theta), 0 if form == "dnf" else 1)


def _selection_cell(outer: pd.DataFrame, inner: pd.DataFrame) -> dict[str, Any] | None:
    """The honest (form, R, θ) selection of one (dataset, algorithm), or None if a fold lacks fits."""
    if inner.empty:
        return None
    n_folds = int(outer["n_folds"].iloc[0])
    n_inner = int(inner["n_inner_folds"].iloc[0])
    candidate = ["form", "n_clauses", "theta"]
    tests = {(str(f), int(r), float(t), int(k)): float(e)
             for f, r, t, k, e in outer[[*candidate, "fold", "test_error"]].itertuples(index=False)}
    chosen, errors, inner_best = [], [], []
    for k in range(n_folds):
        fold = inner[inner["fold"] == k]
        means = {}
        for key, rows in fold.groupby(candidate, sort=False):
            if rows["inner_fold"].nunique() == n_inner:
                means[(str(key[0]), int(key[1]), float(key[2]))] = float(rows["test_error"].mean())
        if not means:
            return None
        best = min(means, key=lambda c: (means[c], _candidate_order(c)))
        cell = (*best, k)  # named: mypy (target 3.10) misreads tests[(*best, k)] as 3.11 syntax, tests[*best, k]
        if cell not in tests:
            return None
        chosen.append(best)
        errors.append(tests[cell])
        inner_best.append(means[best])
    return {
        "nested_test_error": float(np.mean(errors)), "inner_cv_error": float(np.mean(inner_best)),
        "n_folds": n_folds, "n_inner_folds": n_inner, "selected": tuple(chosen),
    }


# --------------------------------------------------------------------------
# Pareto fronts (the paper's Figures 1-3)
# --------------------------------------------------------------------------

_BY = ("n_clauses", "algorithm")
_X = ("n_literals", "n_features")


def _non_dominated(x: np.ndarray, error: np.ndarray) -> np.ndarray:
    """True for points no other point beats: no one is <= in both and < in one."""
    le = (x[None, :] <= x[:, None]) & (error[None, :] <= error[:, None])
    lt = (x[None, :] < x[:, None]) | (error[None, :] < error[:, None])
    return ~np.any(le & lt, axis=1)


def pareto_front(summary: pd.DataFrame, by: str = "n_clauses", *, x: str = "n_literals") -> pd.DataFrame:
    """Accuracy/sparsity points and their Pareto fronts, one series per R or per algorithm.

    Each point is one θ of one (dataset, algorithm, R): mean complexity
    (``x``) against mean test and training error. A point is on the test
    (training) front when no other θ of the same series has at most its
    complexity and at most its test (training) error, with one of them
    strictly smaller.

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    by : {"n_clauses", "algorithm"}, default="n_clauses"
        What distinguishes the lines of a figure: R (the paper's Figure 1,
        one algorithm) or the algorithm (Figure 2, one R). The other one
        becomes ``panel``.
    x : {"n_literals", "n_features"}, default="n_literals"
        The complexity measure: mean literals, or mean distinct raw features.

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, series, panel, algorithm, n_clauses, theta,
        complexity, test_error, train_error, on_test_front,
        on_train_front``, sorted by dataset, panel, series, complexity.

    Raises
    ------
    ValueError
        If ``by`` or ``x`` is not one of the allowed values.
    """
    if by not in _BY:
        raise ValueError(f"by must be one of {_BY}, got {by!r}")
    if x not in _X:
        raise ValueError(f"x must be one of {_X}, got {x!r}")
    other = "algorithm" if by == "n_clauses" else "n_clauses"
    points = summary[summary["n_folds_done"] > 0]
    frame = pd.DataFrame({
        "dataset": points["dataset"],
        "series": points[by],
        "panel": points[other],
        "algorithm": points["algorithm"],
        "n_clauses": points["n_clauses"].astype(int),
        "theta": points["theta"].astype(float),
        "complexity": points[f"{x}_mean"].astype(float),
        "test_error": points["test_error_mean"].astype(float),
        "train_error": points["train_error_mean"].astype(float),
    })
    frame["on_test_front"] = False
    frame["on_train_front"] = False
    for _, group in frame.groupby(["dataset", "algorithm", "n_clauses"], sort=False):
        complexity = group["complexity"].to_numpy()
        frame.loc[group.index, "on_test_front"] = _non_dominated(complexity, group["test_error"].to_numpy())
        frame.loc[group.index, "on_train_front"] = _non_dominated(complexity, group["train_error"].to_numpy())
    return frame.sort_values(["dataset", "panel", "series", "complexity", "theta"], kind="stable").reset_index(drop=True)


def _only_value(values: pd.Series, name: str, dataset: str, hint: str) -> Any:
    choices = sorted(values.unique().tolist(), key=str)
    if len(choices) != 1:
        raise ValueError(f"the summary of {dataset!r} has {name} values {choices}: choose one with {hint}=...")
    return choices[0]

