"""Per-row reasons for a rule's decision: which clauses decided a row, and by which literals.

A two-level rule decides a row through a few of its literals, and those are the
row's reasons:

- the clauses that *decided* the row are those whose value equals the rule's
  value. A DNF ``OR_r AND_{j in C_r} a_j`` that is true is decided by the terms
  that fired; one that is false, by every term (all of them failed). A CNF
  ``AND_r OR_{j in C_r} a_j`` that is true is decided by every clause; one
  that is false, by the clauses that failed.
- within a deciding clause, the literals that *made* its value are those whose
  value equals the clause's value: all literals of a fired AND-term, the false
  literals of a failed one; the true literals of a satisfied OR-clause, all
  literals of a failed one.

So a flagged patient under a DNF is explained by the literals of the terms that
fired, and a patient who is not flagged by, for each term, the literal(s) that
failed. Flipping every literal of a row's reasons is the only way to change
that clause's contribution, which is what makes them reasons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from rulemodels.rules._rule import Literal, Rule
from rulemodels.rules._rule_list import RuleList
from rulemodels.utils import as_pandas

__all__ = ["explain_rule", "explain_rule_list"]


def explain_rule(rule: Rule, X: pd.DataFrame, classes: Sequence[Any] = (0, 1)) -> pd.DataFrame:
    """The decision of ``rule`` on every row of ``X``, with the clauses and literals that made it.

    Parameters
    ----------
    rule : Rule
        A CNF or DNF rule; true means ``classes[1]``.
    X : DataFrame
        Raw data (pandas, polars, pyarrow, ...) with every feature the rule uses.
    classes : pair of labels, default=(0, 1)
        The labels of a false and a true rule.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``X``, one row per input row, with columns

        - ``prediction``: ``classes[1]`` where the rule is true, ``classes[0]`` elsewhere;
        - ``rule_value``: the rule's Boolean value;
        - ``clauses``: a list with one dict per deciding clause,
          ``{"clause": r (1-based), "holds": bool, "literals": [str, ...]}``,
          where ``literals`` are the literals whose value equals the clause's;
        - ``reason``: the same as readable text, with the row's feature values,
          e.g. ``term 1 holds: glucose > 142.0 (glucose = 155) AND bmi > 29.9 (bmi = 33.6)``.

    Examples
    --------
    >>> import pandas as pd
    >>> from rulemodels.rules import Literal, Rule, explain_rule
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("bmi", "<=", 30.0)]])
    >>> X = pd.DataFrame({"age": [60, 40], "bmi": [25.0, 25.0]})
    >>> explained = explain_rule(rule, X, classes=("no", "yes"))
    >>> explained["prediction"].tolist()
    ['yes', 'no']
    >>> for reason in explained["reason"]:
    ...     print(reason)
    term 1 holds: age > 50.0 (age = 60) AND bmi <= 30.0 (bmi = 25)
    no term holds: term 1 fails on age > 50.0 (age = 40)
    """
    X = as_pandas(X)  # a polars or pyarrow DataFrame, converted once
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(X)
    literals = list(rule.literals)
    truth = np.column_stack([lit.evaluate(frame) for lit in literals]) if literals else np.zeros((len(frame), 0), bool)
    column = {lit: k for k, lit in enumerate(literals)}
    members = [[column[lit] for lit in clause.literals] for clause in rule.clauses]
    combine = np.all if rule.form == "dnf" else np.any
    clause_values = (
        np.column_stack([combine(truth[:, positions], axis=1) for positions in members])
        if members else np.zeros((len(frame), 0), bool)
    )
    rule_values = rule.reduce(clause_values)
    shown = {feature: frame[feature].to_numpy() for feature in rule.features}

    records = []
    for i in range(len(frame)):
        deciding = []
        for r, positions in enumerate(members):
            holds = bool(clause_values[i, r])
            if holds != bool(rule_values[i]):
                continue
            made_by = [literals[k] for k in positions if bool(truth[i, k]) == holds]
            deciding.append((r, holds, made_by))
        records.append({
            "prediction": classes[int(rule_values[i])],
            "rule_value": bool(rule_values[i]),
            "clauses": [{"clause": r + 1, "holds": holds, "literals": [str(lit) for lit in made_by]}
                        for r, holds, made_by in deciding],
            "reason": _reason_text(rule, bool(rule_values[i]), deciding, {f: v[i] for f, v in shown.items()}),
        })
    return pd.DataFrame.from_records(records, index=frame.index, columns=["prediction", "rule_value", "clauses", "reason"])


def _reason_text(rule: Rule, value: bool, deciding: list[tuple[int, bool, list[Literal]]], row: dict[str, Any]) -> str:
    """One sentence per row: the deciding clauses with their literals and the row's values."""
    if not rule.clauses:
        return "the rule has no clauses: it is always " + ("true" if rule.form == "cnf" else "false")
    noun = "term" if rule.form == "dnf" else "clause"
    parts = [_clause_text(noun, r, holds, made_by, rule.form, row) for r, holds, made_by in deciding]
    if rule.form == "dnf" and not value:
        return "no term holds: " + "; ".join(parts)
    if rule.form == "cnf" and value:
        return "every clause holds: " + "; ".join(parts)
    return "; ".join(parts)


def _clause_text(noun: str, r: int, holds: bool, made_by: list[Literal], form: str, row: dict[str, Any]) -> str:
    if not made_by:  # an empty clause: an always-true AND-term or an always-false OR-clause
        return f"{noun} {r + 1} is empty (always {'true' if holds else 'false'})"
    shown = [f"{lit} ({_value_text(lit, row[lit.feature])})" for lit in made_by]
    if form == "dnf" and holds:
        return f"term {r + 1} holds: " + " AND ".join(shown)
    if form == "dnf":
        return f"term {r + 1} fails on " + ", ".join(shown)
    if holds:
        return f"clause {r + 1} by " + " OR ".join(shown)
    return f"clause {r + 1} fails: none of " + ", ".join(shown) + " holds"


def _value_text(literal: Literal, value: Any) -> str:
    """``glucose = 155``, ``glucose is missing``."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA or value is pd.NaT:
        return f"{literal.feature} is missing"
    if isinstance(value, (float, np.floating)):
        return f"{literal.feature} = {float(value):.6g}"
    if isinstance(value, (np.integer, np.bool_)):
        value = value.item()
    return f"{literal.feature} = {value}"


def explain_rule_list(rules: RuleList, X: pd.DataFrame) -> pd.DataFrame:
    """The decision of a rule list on every row of ``X``: the step that claimed it and that step's reasons.

    A row claimed by step k is explained by step k's rule being true (its
    reasons as in :func:`explain_rule`) and by every earlier step's rule being
    false (theirs); a row left to the default by every step's rule being false.

    Parameters
    ----------
    rules : RuleList
        The rule list to explain.
    X : DataFrame of shape (n_samples, n_features)
        The rows (pandas, polars or pyarrow; an array is read as a DataFrame), with the columns the rules use.

    Returns
    -------
    pandas.DataFrame
        Indexed like ``X``, with columns ``prediction`` (the class), ``step``
        (1-based index of the claiming step; ``len(rules.steps) + 1`` for the
        default), ``clauses`` (the claiming step's deciding clauses as in
        :func:`explain_rule`; empty for the default) and ``reason``, e.g.
        ``step 2 gives class = low: term 1 holds: glucose > 99.0 (glucose = 120);
        step 1 does not hold: term 1 fails on glucose > 142.0 (glucose = 120)``.
    """
    X = as_pandas(X)  # a polars or pyarrow DataFrame, converted once
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(X)
    explained = [explain_rule(rule, frame) for rule in rules.rules]
    n_steps = len(rules.steps)
    step_values = (
        np.column_stack([table["rule_value"].to_numpy(dtype=bool) for table in explained])
        if explained else np.zeros((len(frame), 0), dtype=bool)
    )
    claims = rules.first_true(step_values)
    records = []
    for i in range(len(frame)):
        k = int(claims[i])
        failed = [f"step {j + 1} does not hold: {explained[j]['reason'].iloc[i]}" for j in range(k)]
        if k < n_steps:
            label = rules.steps[k][0]
            text = f"step {k + 1} gives class = {label}: {explained[k]['reason'].iloc[i]}"
            clauses = explained[k]["clauses"].iloc[i]
        else:
            label = rules.default
            text = f"no step holds, so the default class = {label}" if n_steps else f"the rule list always gives class = {label}"
            clauses = []
        records.append({"prediction": label, "step": k + 1, "clauses": clauses, "reason": "; ".join([text, *failed])})
    return pd.DataFrame.from_records(records, index=frame.index, columns=["prediction", "step", "clauses", "reason"])
