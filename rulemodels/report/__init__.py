"""A learned rule on one page a reviewer can open anywhere: a self-contained HTML report.

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

The package keeps the numbers apart from the page: ``_data`` computes the
frozen :class:`ReportData` from the rule and the rows, ``_html`` renders that
object alone (its figures drawn by ``_figures``, its style sheet the package
file ``report.css``).
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from rulemodels.report._data import (
    DEFAULT_N_EXAMPLES,
    MAX_GROUP_VALUES,
    MAX_GROUPS,
    MISSING_GROUP,
    N_QUANTILE_BINS,
    OTHER_GROUP,
    UNEQUAL_CLASSES,
    PartStats,
    ReportData,
    report_data,
)
from rulemodels.report._html import render_html

__all__ = [
    "DEFAULT_N_EXAMPLES", "MAX_GROUPS", "MAX_GROUP_VALUES", "MISSING_GROUP", "N_QUANTILE_BINS", "OTHER_GROUP",
    "UNEQUAL_CLASSES", "PartStats", "ReportData", "render_html", "report_data", "report_html",
]


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
