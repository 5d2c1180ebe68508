"""Reports of a sweep: the tables as CSV and Markdown, the Pareto figures, and the files a run starts from.

The command line's ``reproduce`` and ``cv`` call these functions and print
what they return; nothing here prints (the command line does, the library
logs).
"""

from __future__ import annotations

import gzip
import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from rulemodels import defaults
from rulemodels.experiments.analysis import (
    nested_cv_selection,
    nested_model_selection,
    summarize,
    table1,
    table1_markdown,
)
from rulemodels.outputs import atomic_write, write_text_atomically

__all__ = ["Report", "cv_table_markdown", "packed_results", "selection_markdown", "unpack_results", "write_csv", "write_report"]


@dataclass(frozen=True)
class Report:
    """What :func:`write_report` wrote: the optimistic and the honest table, and whether the figures were drawn.

    Parameters
    ----------
    table : pandas.DataFrame
        The optimistic table (the minimum over θ, as the paper's Table 1).
    nested : pandas.DataFrame
        The honest table (θ chosen by nested cross-validation).
    figures : bool
        Whether the figures were drawn (False when matplotlib is missing).
    """

    table: pd.DataFrame
    nested: pd.DataFrame
    figures: bool


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """Write ``frame`` as CSV (no index) to ``path``, atomically: complete or absent.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table to write.
    path : Path
        The file to write (replaced if it exists).
    """
    with atomic_write(path, newline="") as handle:
        frame.to_csv(handle, index=False)


def write_report(results: pd.DataFrame, out: Path) -> Report:
    """Write the paper's tables and figures of the successful ``results`` to the directory ``out``.

    ``table1.csv``/``.md`` (optimistic: the minimum over θ, as the paper's
    Table 1), ``nested_selection.csv``/``.md`` (honest: θ chosen by nested
    CV), ``summary.csv``, and, when matplotlib is installed, the Pareto
    fronts ``pareto_<dataset>_<algorithm>_by_R.png`` (AM and BCD) and
    ``pareto_<dataset>_by_algorithm.png`` (at the largest R). Only cells with
    every fold count, so an unfinished run shows no half-averaged numbers.
    ``Report.figures`` is False when matplotlib is missing (no figure written).

    Parameters
    ----------
    results : pandas.DataFrame
        The records of a run.
    out : Path
        The directory to write to.

    Returns
    -------
    Report
        The optimistic and the honest table, and whether the figures were drawn.
    """
    from rulemodels.experiments.plotting import plot_pareto

    table = table1(results, require_complete=True)
    nested = nested_cv_selection(results)
    summary = summarize(results)
    for name, frame in (("table1.csv", table), ("nested_selection.csv", nested), ("summary.csv", summary)):
        write_csv(frame, out / name)
    write_text_atomically(out / "table1.md", table1_markdown(table) + "\n")
    write_text_atomically(out / "nested_selection.md", table1_markdown(nested, value="nested_test_error") + "\n")
    summary = summary[summary["complete"]]
    if importlib.util.find_spec("matplotlib") is None:
        return Report(table, nested, figures=False)
    for dataset in sorted(set(summary["dataset"])):
        for algorithm in defaults.ITERATIVE_ALGORITHMS:  # the by-R fronts of the paper's Figures 1-2
            if algorithm in set(summary[summary["dataset"] == dataset]["algorithm"]):
                plot_pareto(summary, dataset, "n_clauses", out / f"pareto_{dataset}_{algorithm}_by_R.png", algorithm=algorithm)
        largest_r = int(summary[summary["dataset"] == dataset]["n_clauses"].max())
        plot_pareto(summary, dataset, "algorithm", out / f"pareto_{dataset}_by_algorithm.png", n_clauses=largest_r)
    return Report(table, nested, figures=True)


def packed_results(out: Path) -> Path | None:
    """``OUT/results.jsonl.gz`` (how docs/results is committed) when ``OUT/results.jsonl`` is missing, else None.

    Parameters
    ----------
    out : Path
        The output directory of a run (``OUT``).

    Returns
    -------
    Path or None
        The packed results to unpack (:func:`unpack_results`), or None when there are plain results or no packed ones.
    """
    plain, packed = out / "results.jsonl", out / "results.jsonl.gz"
    if plain.exists() or not packed.is_file():
        return None
    return packed


def unpack_results(packed: Path) -> Path:
    """Decompress ``packed`` (``results.jsonl.gz``) beside itself, atomically; return the unpacked path.

    Parameters
    ----------
    packed : Path
        The gzipped results file.

    Returns
    -------
    Path
        The unpacked file: ``packed`` without its ``.gz`` suffix.
    """
    plain = packed.with_suffix("")
    with gzip.open(packed, "rb") as source, atomic_write(plain, "wb") as target:
        shutil.copyfileobj(source, target)
    return plain


def cv_table_markdown(results: pd.DataFrame, form: str, nested: bool) -> str:
    """Per algorithm and R: the optimistic minimum over θ and, with nested CV, the honest error (Markdown).

    Parameters
    ----------
    results : pandas.DataFrame
        The records of a run (of one form).
    form : str
        The rule form of the records, ``"cnf"`` or ``"dnf"``, named in the table's title.
    nested : bool
        Whether the run had inner folds; without them a note says how to get the honest number.

    Returns
    -------
    str
        The Markdown table (its title line first).
    """
    table = table1(results, require_complete=False)
    honest = nested_cv_selection(results)
    merged = table.merge(honest[["dataset", "algorithm", "n_clauses", "nested_test_error"]],
                         on=["dataset", "algorithm", "n_clauses"], how="left")
    lines = [
        f"{form.upper()}: mean test error over the outer folds",
        "| algorithm | R | optimistic: min over θ (θ chosen on the test folds) | at θ | mean literals "
        "| honest: θ chosen by nested CV |",
        "|---|---|---|---|---|---|",
    ]
    for row in merged.itertuples():
        value = "–" if pd.isna(row.nested_test_error) else f"{100 * row.nested_test_error:.1f} %"
        lines.append(f"| {row.algorithm} | {row.n_clauses} | {100 * row.test_error:.1f} % | {row.theta:g} | "
                     f"{row.n_literals:.1f} | {value} |")
    if not nested:
        lines.append("(optimistic: the minimum over θ picks θ on the test folds, as the paper's Table 1; add --inner-folds 3 "
                     "for the honest number, θ chosen by nested CV on each training fold)")
    return "\n".join(lines)


def selection_markdown(results: pd.DataFrame, forms: list[str]) -> str:
    """The honest error of choosing θ, R (and the form) by nested CV, per algorithm (Markdown; "" without inner fits).

    Parameters
    ----------
    results : pandas.DataFrame
        The records of a run.
    forms : list of str
        The rule forms the run fit; with more than one, the form is chosen too.

    Returns
    -------
    str
        The Markdown table, or "" when the records have no inner fits.
    """
    selection = nested_model_selection(results)
    if selection.empty:
        return ""
    what = "θ, R and form" if len(forms) > 1 else "θ and R"
    lines = [
        f"\nhonest: {what} chosen together by nested CV on each training fold (the test folds are never seen)",
        f"| algorithm | test error | inner-CV error | {what} chosen per fold |",
        "|---|---|---|---|",
    ]
    for row in selection.itertuples():
        chosen = ", ".join(f"{form} R={r} θ={theta:g}" if len(forms) > 1 else f"R={r} θ={theta:g}"
                           for form, r, theta in row.selected)
        lines.append(f"| {row.algorithm} | {100 * row.nested_test_error:.1f} % | {100 * row.inner_cv_error:.1f} % | {chosen} |")
    return "\n".join(lines)
