"""Rules and fitted estimators as HTML, for notebooks (``_repr_html_``).

A rule shows as a small table with one row per clause (its conditions as
printed), the connective between clauses, and a line with its complexity; a
fitted estimator adds its training error and the majority-class baseline.
Standard library only (the rule values are imported for annotations only:
:mod:`rulemodels.rules._rule` imports this module for :meth:`Rule._repr_html_`).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: rulemodels.rules._rule imports this module for Rule._repr_html_
    from rulemodels.rules._rule import Rule
    from rulemodels.rules._rule_list import RuleList

__all__ = ["rule_html", "rule_list_html"]


def _complexity_text(rule: Rule) -> str:
    counts = rule.complexity()
    return (
        f"{counts['n_clauses']} clauses, {counts['n_conditions']} conditions, "
        f"{counts['n_literals']} literals, {counts['n_features']} features"
    )


def rule_html(rule: Rule, *, title: str | None = None, facts: Mapping[str, str] | None = None) -> str:
    """An HTML table of the rule's clauses, its complexity, and optional ``facts`` (label -> text).

    Every text is escaped, so column names and categories cannot inject markup.

    Parameters
    ----------
    rule : Rule
        The rule to show.
    title : str or None, default=None
        The table's caption; None writes ``"DNF rule"`` or ``"CNF rule"``.
    facts : mapping of str to str or None, default=None
        Extra rows, label -> text, shown under the rule.

    Returns
    -------
    str
        The HTML table.
    """
    noun = "term" if rule.form == "dnf" else "clause"
    inner = " AND " if rule.form == "dnf" else " OR "
    outer = "OR" if rule.form == "dnf" else "AND"
    rows = []
    for r, clause in enumerate(rule.clauses, start=1):
        items = clause.display_items(rule.form) or ["True" if rule.form == "dnf" else "False"]
        joiner = "" if r == 1 else outer
        rows.append(
            f"<tr><td>{joiner}</td><td>{noun} {r}</td><td>{html.escape(inner.join(items))}</td></tr>"
        )
    if not rows:
        rows.append(f"<tr><td></td><td colspan=\"2\">no {noun}s: always {'true' if rule.form == 'cnf' else 'false'}</td></tr>")
    return _rule_box(title or f"{rule.form.upper()} rule", (noun, "conditions"), rows, _complexity_text(rule), facts)


def rule_list_html(rules: RuleList, *, title: str | None = None, facts: Mapping[str, str] | None = None) -> str:
    """An HTML table of a rule list: one row per step (its class and its rule as printed), then the default.

    Every text is escaped, so column names, categories and class labels cannot inject markup.

    Parameters
    ----------
    rules : RuleList
        The rule list to show.
    title : str or None, default=None
        The table's caption; None writes ``"rule list"``.
    facts : mapping of str to str or None, default=None
        Extra rows, label -> text, shown under the list.

    Returns
    -------
    str
        The HTML table.
    """
    rows = []
    for k, (label, rule) in enumerate(rules.steps, start=1):
        rows.append(
            f"<tr><td>{'IF' if k == 1 else 'ELSE IF'}</td><td>{html.escape(str(rule))}</td>"
            f"<td>{html.escape(str(label))}</td></tr>"
        )
    rows.append(f"<tr><td>{'ELSE' if rules.steps else ''}</td><td></td><td>{html.escape(str(rules.default))}</td></tr>")
    counts = rules.complexity()
    summary = (
        f"{counts['n_steps']} steps, {counts['n_clauses']} clauses, {counts['n_conditions']} conditions, "
        f"{counts['n_literals']} literals, {counts['n_features']} features"
    )
    return _rule_box(title or "rule list", ("rule", "class"), rows, summary, facts)


def _rule_box(title: str, columns: tuple[str, str], rows: list[str], complexity: str,
              facts: Mapping[str, str] | None) -> str:
    """The box both displays share: a heading, a table of ``rows`` (markup already escaped) and a list of facts."""
    lines = [f"<li>complexity: {html.escape(complexity)}</li>"]
    lines += [f"<li>{html.escape(label)}: {html.escape(text)}</li>" for label, text in (facts or {}).items()]
    return (
        f"<div class=\"rulemodels-rule\"><strong>{html.escape(title)}</strong>"
        f"<table><thead><tr><th></th><th>{columns[0]}</th><th>{columns[1]}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
        f"<ul>{''.join(lines)}</ul></div>"
    )
