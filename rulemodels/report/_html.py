"""The report's page: one self-contained HTML file (inline CSS and SVG, no script, no URL) from a :class:`ReportData`.

The CSS is package data (``report.css`` beside this module), written into
the page's ``<style>``; the figures come from :mod:`rulemodels.report._figures`.
"""

from __future__ import annotations

import functools
import importlib.resources
import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.report._data import ReportData
from rulemodels.report._figures import (
    _ESC,
    _confusion_chart,
    _pareto_chart,
    _parts_chart,
    _path_chart,
    _path_values,
    _pct,
)
from rulemodels.rules import Rule, RuleList

__all__ = ["render_html"]


@functools.cache
def _css() -> str:
    """The page's style sheet (``report.css``, shipped with the package)."""
    return importlib.resources.files("rulemodels.report").joinpath("report.css").read_text(encoding="utf-8")


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
    """The page of :func:`report_data`'s numbers: inline CSS and SVG, no script, no URL.

    Parameters
    ----------
    data : ReportData
        The numbers of the report (:func:`report_data`).

    Returns
    -------
    str
        The HTML page.
    """
    title = f"Rule report: {data.target} on {data.data_name}"
    facts = _table(["item", "value"], data.facts, css="metrics")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{_ESC(title)}</title><style>\n{_css()}</style></head><body>"
        f"<h1>{_ESC(title)}</h1><p class=\"subtitle\">A learned rule, how good it is, where it errs, and what else "
        "was on the table; written by rulemodels as one self-contained file.</p>"
        f"{_rule_section(data)}{_scores_section(data)}{_errors_section(data)}{_path_section(data)}{_pareto_section(data)}"
        f"<h2 id=\"metadata\">Metadata</h2>{facts}</body></html>\n"
    )
