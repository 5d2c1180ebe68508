"""The paper's Pareto-front figures as PNG files (needs matplotlib: ``pip install 'rulemodels[plot]'``)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from rulemodels.experiments.analysis import _algorithm_order, _only_value, pareto_front
from rulemodels.outputs import atomic_write

__all__ = ["plot_pareto"]


def plot_pareto(
    summary: pd.DataFrame,
    dataset: str,
    by: str,
    path: str | os.PathLike[str],
    *,
    algorithm: str | None = None,
    n_clauses: int | None = None,
    x: str = "n_literals",
) -> Path:
    """Write the paper's Pareto-front figure for one dataset as a PNG.

    Two panels: mean test error and mean training error (%) against mean
    complexity, all θ as points, and a line through each series' Pareto
    front. ``by="n_clauses"`` draws one line per R for one algorithm (the
    paper's Figure 1); ``by="algorithm"`` one line per algorithm for one R
    (Figure 2).

    Parameters
    ----------
    summary : pandas.DataFrame
        The output of :func:`summarize`.
    dataset : str
        The dataset whose fronts to draw.
    by : {"n_clauses", "algorithm"}
    path : str or path-like
        The PNG file to write (its directory must exist).
    algorithm : str, optional
        The algorithm of a ``by="n_clauses"`` figure; needed when the
        summary has several.
    n_clauses : int, optional
        The R of a ``by="algorithm"`` figure; needed when the summary has
        several.
    x : {"n_literals", "n_features"}, default="n_literals"

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    ValueError
        If the summary has no results for ``dataset`` (and ``fixed``).
    ImportError
        If matplotlib is not installed.
    """
    # The object-oriented Figure API renders with Agg and touches no pyplot
    # global state, so it is safe in servers, workers and tests.
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plot_pareto needs matplotlib: pip install 'rulemodels[plot]'") from None

    points = pareto_front(summary, by, x=x)
    points = points[points["dataset"] == dataset]
    if points.empty:
        raise ValueError(f"the summary has no results for dataset {dataset!r}; it has {sorted(summary['dataset'].unique())}")
    if by == "n_clauses":
        fixed = algorithm if algorithm is not None else _only_value(points["algorithm"], "algorithm", dataset, "algorithm")
        points = points[points["algorithm"] == fixed]
        title = f"{dataset}, {str(fixed).upper()}: Pareto fronts by R"
    else:
        fixed = n_clauses if n_clauses is not None else _only_value(points["n_clauses"], "n_clauses", dataset, "n_clauses")
        points = points[points["n_clauses"] == int(fixed)]
        title = f"{dataset}, R = {fixed}: Pareto fronts by algorithm"
    if points.empty:
        raise ValueError(f"no results for dataset {dataset!r} with {'algorithm' if by == 'n_clauses' else 'n_clauses'}={fixed!r}")
    series_values = sorted(points["series"].unique().tolist(), key=lambda v: (str(type(v)), v))
    if by == "algorithm":
        series_values = _algorithm_order(series_values)

    figure = Figure(figsize=(10, 4.2), layout="constrained")
    axes = figure.subplots(1, 2, sharex=True)
    label_x = "mean number of literals" if x == "n_literals" else "mean number of features"
    for ax, error, front, name in (
        (axes[0], "test_error", "on_test_front", "test"),
        (axes[1], "train_error", "on_train_front", "training"),
    ):
        for index, value in enumerate(series_values):
            series = points[points["series"] == value]
            color = f"C{index % 10}"
            label = f"R = {value}" if by == "n_clauses" else str(value).upper()
            ax.scatter(series["complexity"], 100 * series[error], color=color, alpha=0.3, s=18)
            line = series[series[front]].sort_values("complexity")
            ax.plot(line["complexity"], 100 * line[error], marker="o", color=color, label=label)
        ax.set_xlabel(label_x)
        ax.set_ylabel(f"mean {name} error (%)")
        ax.set_title(f"{name} error")
        ax.grid(alpha=0.3)
    axes[0].legend()
    figure.suptitle(title)
    target = Path(path)
    with atomic_write(target, "wb") as handle:  # complete or absent, also when interrupted
        figure.savefig(handle, format="png", dpi=120)
    return target

