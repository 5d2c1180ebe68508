"""Exact pruning: remove the literals and clauses that do not pay for themselves.

The heuristics stop at a local optimum of their own surrogate (the Hamming
objective of SCS/SCN/BCD/AM, a rounded LP for TLP and column generation), and
such a rule can keep literals that change the prediction of one or two
training rows while θ asks every literal to fix far more. Pruning measures the
rule by the 0-1 training objective of the paper (eq. (3.7) StdFormulation),

    F(rule) = Σ_i ω_i [ŷ_i ≠ y_i] + θ Σ_r Σ_{j ∈ C_r} c_j   (weighted errors + θ × literal costs),

and, greedily, removes the single literal or whole clause whose removal gives
the lowest F, as long as that F is no higher than the current one. Every
objective is computed exactly on the training rows (no relaxation, no
sampling), so pruning never raises F; it stops at a rule whose every single
removal would raise F strictly.

The forms mirror each other. In a DNF (OR of AND-terms) removing a literal
from a term makes the term true on more rows (the rule widens) and removing
a term makes the rule true on fewer rows. In a CNF (AND of OR-clauses)
removing a literal from a clause makes the clause true on fewer rows (the rule
narrows) and removing a clause makes the rule true on more rows. Removing a
clause's last literal is removing the clause (an empty DNF term would be the
constant True, an empty CNF clause the constant False).

Removal only ever drops literals, so a rule that met forbidden features,
monotone directions, a literal budget per clause and literal costs still
meets them; constraints added by a ``model_hook`` are unknown here, and
:meth:`~rulemodels.TrainingWorkspace.learn` does not prune under a hook.

Cost: the training rows are first collapsed to their distinct patterns over
the rule's columns and the label (summed weights), and the truth vector of
every clause and the number of true (DNF) or false (CNF) clauses per pattern
are kept; a candidate removal then costs one pass over the patterns of the one
clause it changes, and accepting it updates only that clause and the counts.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from rulemodels.rules import Clause, Literal, Rule

logger = logging.getLogger(__name__)

__all__ = ["PruneReport", "prune_rule", "rule_objective"]


@dataclass(frozen=True)
class PruneReport:
    """What pruning did.

    Parameters
    ----------
    n_literals : int
        Literals removed (those of removed clauses included).
    n_clauses : int
        Clauses removed (a clause whose last literal went counts here).
    objective_before : float
        The 0-1 objective (weighted training errors + θ × literal costs) of the rule before pruning.
    objective : float
        The same objective of the pruned rule (``<= objective_before``).
    """

    n_literals: int
    n_clauses: int
    objective_before: float
    objective: float

    @property
    def pruned(self) -> bool:
        """Whether anything was removed."""
        return self.n_literals > 0 or self.n_clauses > 0


def rule_objective(
    rule: Rule, A: np.ndarray, literals: tuple[Literal, ...] | list[Literal], labels: np.ndarray, sample_weight: np.ndarray,
    theta: float, literal_cost: Mapping[Literal, float] | None = None,
) -> float:
    """``Σ_i ω_i [rule(x_i) ≠ y_i] + θ Σ_r Σ_{j ∈ C_r} c_j`` on binary rows (the objective pruning minimises).

    Parameters
    ----------
    rule : Rule
        A DNF or CNF over literals of ``literals``.
    A : array-like of 0/1, shape (n_samples, n_literals)
        The training rows' binary matrix, one column per literal.
    literals : sequence of Literal
        The literal of each column of ``A``.
    labels : numpy.ndarray of shape (n_samples,)
        1 for the positive class (the rule's True).
    sample_weight : numpy.ndarray of shape (n_samples,)
        ``ω_i``, the weight of a training error.
    theta : float
        The cost θ of one literal (times its ``literal_cost``), in the unit of ``sample_weight``.
    literal_cost : mapping of Literal to float or None, default=None
        The cost ``c_j`` of a literal (1 for a literal it does not name); None: 1 for each.

    Returns
    -------
    float
        The weighted training errors plus θ times the rule's literal costs.
    """
    values = rule.evaluate_binary(A, literals)
    errors = float(np.asarray(sample_weight, dtype=float)[values != (np.asarray(labels) == 1)].sum())
    costs = literal_cost or {}
    return errors + float(theta) * sum(float(costs.get(literal, 1.0)) for clause in rule.clauses for literal in clause.literals)


class _Patterns:
    """The training rows collapsed to distinct (values of the rule's columns, label) patterns with summed weights."""

    def __init__(self, A: np.ndarray, columns: np.ndarray, labels: np.ndarray, sample_weight: np.ndarray):
        block = np.asarray(A[:, columns]) != 0
        keys = np.concatenate([np.packbits(block, axis=1), (np.asarray(labels) == 1).astype(np.uint8)[:, None]], axis=1)
        rows = np.ascontiguousarray(keys).view(np.dtype((np.void, keys.shape[1]))).ravel()
        _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
        self.values = block[first]  # (P, k): the pattern's value of each of the rule's columns
        self.positive = (np.asarray(labels) == 1)[first]
        self.weight = np.bincount(inverse.ravel(), weights=np.asarray(sample_weight, dtype=float), minlength=first.size)
        # signed weight: what a pattern adds to the errors when the rule turns from False to True on it
        self.gain_if_true = np.where(self.positive, -self.weight, self.weight)


def prune_rule(
    rule: Rule,
    A: np.ndarray,
    column_of: Mapping[Literal, int],
    labels: np.ndarray,
    sample_weight: np.ndarray,
    theta: float,
    *,
    literal_cost: Mapping[Literal, float] | None = None,
) -> tuple[Rule, PruneReport]:
    """Greedily remove the literal or clause whose removal lowers the 0-1 training objective most (see the module docstring).

    Parameters
    ----------
    rule : Rule
        A DNF or CNF over literals that are columns of ``A``.
    A : ndarray of shape (n_samples, d)
        The training rows' binary matrix.
    column_of : mapping
        The column of ``A`` of each literal of ``rule``.
    labels : ndarray of shape (n_samples,)
        1 for the positive class (the rule's True).
    sample_weight : ndarray of shape (n_samples,)
        ``ω_i``, the weight of a training error.
    theta : float
        The cost of one literal (times its ``literal_cost``), in the unit of ``sample_weight``.
    literal_cost : mapping, optional
        ``c_j`` per literal (1 for a literal it does not name).

    Returns
    -------
    rule : Rule
        The pruned rule (``rule`` itself when nothing was removed). It may have
        no clause left: a constant (a DNF without terms is False, a CNF without
        clauses True).
    report : PruneReport
        The objective and the sizes before and after pruning.
    """
    costs = literal_cost or {}
    if rule.n_literals == 0:  # a constant: nothing to remove
        value = bool(rule.reduce(np.full((1, len(rule.clauses)), rule.form == "dnf"))[0])  # an empty DNF term is True
        positive = np.asarray(labels) == 1
        objective = float(np.asarray(sample_weight, dtype=float)[positive != value].sum())
        return rule, PruneReport(0, 0, objective, objective)
    dnf = rule.form == "dnf"
    clauses = [list(clause.literals) for clause in rule.clauses]
    used = sorted({column_of[literal] for clause in clauses for literal in clause})
    position = {column: k for k, column in enumerate(used)}
    patterns = _Patterns(A, np.asarray(used, dtype=np.intp), labels, sample_weight)
    values, gain, weight = patterns.values, patterns.gain_if_true, patterns.weight
    n_patterns = weight.size

    def clause_truth(members: list[Literal]) -> np.ndarray:
        block = values[:, [position[column_of[literal]] for literal in members]]
        return block.all(axis=1) if dnf else block.any(axis=1)

    truth = [clause_truth(clause) for clause in clauses]
    # DNF: the number of true terms per pattern (the rule is true where it is > 0);
    # CNF: the number of false clauses (the rule is true where it is 0).
    count = np.zeros(n_patterns, dtype=np.int64)
    for t in truth:
        count += t if dnf else ~t
    predicted = count > 0 if dnf else count == 0
    errors = float(weight[predicted != patterns.positive].sum())
    literal_costs = float(theta) * sum(float(costs.get(literal, 1.0)) for clause in clauses for literal in clause)
    objective_before = errors + literal_costs
    tolerance = 1e-12 * max(1.0, float(weight.sum()))
    removed_literals = removed_clauses = 0

    def change(r: int, new_truth: np.ndarray | None) -> float:
        """The change of the weighted errors when clause r's truth becomes ``new_truth`` (None: the clause is removed)."""
        old = truth[r]
        if dnf:  # the rule is true where another term is, or this one
            others = count - old
            before = others + old > 0
            after = others > 0 if new_truth is None else (others + new_truth) > 0
        else:  # the rule is true where no other clause is false and this one is true
            others = count - ~old
            before = (others == 0) & old
            after = others == 0 if new_truth is None else (others == 0) & new_truth
        flipped = before != after
        if not flipped.any():
            return 0.0
        # a pattern that turns True gains gain_if_true, one that turns False loses it
        return float(np.where(after[flipped], gain[flipped], -gain[flipped]).sum())

    while any(clauses):
        best: tuple[float, int, int | None, np.ndarray | None] | None = None  # (change, clause, literal index or None, new truth)
        for r, clause in enumerate(clauses):
            if not clause:
                continue
            saved = float(theta) * sum(float(costs.get(literal, 1.0)) for literal in clause)
            delta = change(r, None) - saved
            if best is None or delta < best[0]:
                best = (delta, r, None, None)
            if len(clause) == 1:  # removing the last literal is removing the clause
                continue
            for k, literal in enumerate(clause):
                new_truth = clause_truth(clause[:k] + clause[k + 1:])
                delta = change(r, new_truth) - float(theta) * float(costs.get(literal, 1.0))
                if delta < best[0]:
                    best = (delta, r, k, new_truth)
        if best is None or best[0] > tolerance:
            break
        _, r, dropped, dropped_truth = best  # dropped: the literal's index, None for the whole clause
        old = truth[r]
        count -= old if dnf else ~old
        if dropped is None:
            removed_literals += len(clauses[r])
            removed_clauses += 1
            clauses[r] = []
            truth[r] = np.zeros(n_patterns, dtype=bool) if dnf else np.ones(n_patterns, dtype=bool)  # neutral: counts nothing
        else:
            assert dropped_truth is not None
            del clauses[r][dropped]
            removed_literals += 1
            truth[r] = dropped_truth
            count += dropped_truth if dnf else ~dropped_truth
    if removed_literals == 0:
        return rule, PruneReport(0, 0, objective_before, objective_before)
    # the final objective from the counts, not the sum of the steps' changes (no rounding drift)
    predicted = count > 0 if dnf else count == 0
    objective = float(weight[predicted != patterns.positive].sum()) + float(theta) * sum(
        float(costs.get(literal, 1.0)) for clause in clauses for literal in clause
    )
    pruned = Rule(rule.form, tuple(Clause(tuple(clause)) for clause in clauses if clause))
    return pruned, PruneReport(removed_literals, removed_clauses, objective_before, objective)
