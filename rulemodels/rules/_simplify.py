"""Semantics-preserving simplification of learned rules.

A learned rule can carry literals and clauses that change nothing: ``x > 5 AND
x > 3`` (the second is implied), ``purpose != A40 AND purpose != A41`` (one set
literal), a DNF term ``bmi <= 23.6 AND bmi > 41.5`` that no row satisfies, or
two identical terms. :func:`simplify_rule` removes them without changing the
rule's value on *any* input, missing values and categories unseen in training
included (the semantics of :meth:`rulemodels.rules.Literal.evaluate`).

How it works. For each column the rule uses, the literals on that column split
the column's possible values into finitely many *cells*, and every literal is
a union of cells:

- numeric thresholds ``t_1 < ... < t_k``: missing, ``(-inf, t_1]``,
  ``(t_1, t_2]``, ..., ``(t_k, +inf]``;
- categories ``v_1, ..., v_k`` (of ``==``, ``!=``, ``in``, ``not in``):
  missing, each ``v_i``, and "any other present value";
- 0/1 flags: missing, 1, 0, any other present value.

``is_nan`` is the "missing" cell and ``not_nan`` all others. Within a clause,
the literals on one column combine into one set of cells (their intersection in
an AND-term of a DNF, their union in an OR-clause of a CNF), which is written
back with the fewest literals: an interval ``3 < x <= 7``, one ``x == v``, a set
literal ``x in {a, b}`` / ``x not in {a, b, c}``, ... Each rewrite is checked
by recomputing its cells; a column whose literals mix kinds (a threshold and a
flag on one column) is left as it is.

Then, with each clause a product (DNF) or union (CNF) of per-column cell sets:

- a DNF term with an empty cell set on some column is never true: dropped;
- a CNF clause with a full cell set on some column is always true: dropped;
- a clause implied by another (DNF: a term that implies another term; CNF: a
  clause implied by another clause) adds nothing: dropped, and of two
  equivalent clauses the first is kept;
- a clause is rewritten next to another on one column (:func:`_merge`): in a
  DNF a term takes the union of its cells with those of a term whose other
  columns its own imply (adjacent or overlapping intervals merge,
  ``(0.526 < a <= 1.32) OR (a > 1.32)`` is ``a > 0.526``); in a CNF a clause
  keeps the intersection of its cells with those of a clause whose other
  columns imply its own (``(u <= .295 OR u > .48) AND (u > .295)`` is
  ``u > .48``: a literal that the single-column clauses rule out is dropped,
  and clauses that no row meets together leave the empty clause, False).
  Taken only when it saves literals, so the passes end.

Because the "missing" cell is a cell like any other, a union or intersection
keeps the rows with missing values where they were: ``(x <= 1 AND b) OR
(x > 1 AND b)`` is ``x is not missing AND b``, never ``b``; a cell set that no
literals express exactly (``x is missing`` joined to an interval in an
AND-term) is not rewritten.

:func:`prefer_equality` is not a simplification: it writes ``x != a`` as
``x == b`` on a column known to take two categories, which is the same only
on those categories and on missing values; the estimator applies it to the
learned rule, where the two literals were the same column of its data.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from rulemodels.rules._ops import CATEGORY_OPS, FLAG_OPS, SET_OPS, THRESHOLD_OPS
from rulemodels.rules._rule import Clause, Literal, Rule, _category_sort_key

__all__ = ["SimplifyReport", "prefer_equality", "simplify_rule"]

logger = logging.getLogger(__name__)

_KINDS = {**dict.fromkeys(THRESHOLD_OPS, "threshold"), **dict.fromkeys(CATEGORY_OPS + SET_OPS, "category"),
          **dict.fromkeys(FLAG_OPS, "flag")}
_MISSING = 1  # bit 0 of every cell mask is the "missing" cell
_MAX_PASSES = 10  # each pass that changes something drops a clause or rewrites to the canonical form


@dataclass(frozen=True)
class SimplifyReport:
    """What :func:`simplify_rule` changed.

    Parameters
    ----------
    n_literals_before, n_literals_after : int
        The paper's literal counts of the raw and simplified rule.
    removed_clauses : tuple of str
        One line per dropped clause, saying why.
    rewritten_clauses : tuple of str
        One line per clause whose literals were merged or dropped (also next
        to another clause); a fitted estimator's report starts with the
        literals :func:`prefer_equality` wrote as equalities.
    """

    n_literals_before: int
    n_literals_after: int
    removed_clauses: tuple[str, ...] = ()
    rewritten_clauses: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether the simplification removed or rewrote any clause."""
        return bool(self.removed_clauses or self.rewritten_clauses)

    def __str__(self) -> str:
        if not self.changed:
            return "nothing to simplify"
        lines = [f"simplified from {self.n_literals_before} to {self.n_literals_after} literals"]
        return "; ".join(lines + list(self.rewritten_clauses) + list(self.removed_clauses))


@dataclass
class _Column:
    """The cells of one column: ``kind`` and the sorted thresholds or categories that delimit them."""

    kind: str  # "threshold", "category", "flag", "nan" (only is_nan/not_nan) or "mixed"
    values: list = field(default_factory=list)

    @property
    def n_cells(self) -> int:
        if self.kind == "threshold":
            return len(self.values) + 2  # missing + k + 1 intervals
        if self.kind == "category":
            return len(self.values) + 2  # missing + k values + other
        if self.kind == "flag":
            return 4  # missing, 1, 0, other
        return 2  # missing, present

    @property
    def full(self) -> int:
        return (1 << self.n_cells) - 1

    @property
    def present(self) -> int:
        return self.full & ~_MISSING

    def mask(self, lit: Literal) -> int:
        """The cells where ``lit`` is true."""
        if lit.op == "is_nan":
            return _MISSING
        if lit.op == "not_nan":
            return self.present
        if self.kind == "threshold":
            j = self.values.index(lit.value) + 1  # cell j is (t_{j-1}, t_j]
            below = ((1 << (j + 1)) - 1) & ~_MISSING  # cells 1..j
            return below if lit.op == "<=" else self.present & ~below
        if self.kind == "category":
            members = cast("tuple[object, ...]", lit.value) if lit.op in SET_OPS else (lit.value,)  # a set's value is a tuple
            inside = 0
            for v in members:
                inside |= 1 << (self.values.index(v) + 1)
            return inside if lit.op in ("==", "in") else self.present & ~inside
        return 0b0010 if lit.op == "is_true" else 0b0100  # flag: cell 1 is x == 1, cell 2 is x == 0

    def combine(self, literals: Sequence[Literal], conjunction: bool) -> int:
        result = self.full if conjunction else 0
        for lit in literals:
            result = result & self.mask(lit) if conjunction else result | self.mask(lit)
        return result

    def literals(self, feature: str, mask: int, conjunction: bool) -> list[Literal] | None:
        """The fewest literals whose AND (``conjunction``) or OR has exactly the cells ``mask``.

        None when the kind has no such rewrite (the caller keeps the original literals).
        An empty list means "no condition" (a full AND) or "never" (an empty OR).
        """
        if conjunction and mask == self.full or not conjunction and mask == 0:
            return []
        out: list[Literal] = []
        if mask & _MISSING:
            if conjunction:  # an AND holding missing rows holds nothing else
                return [Literal(feature, "is_nan")] if mask == _MISSING else None
            out_nan = [Literal(feature, "is_nan")]
        else:
            out_nan = []
        present = mask & ~_MISSING
        if present == self.present:
            out = [Literal(feature, "not_nan")]
        elif present:
            body = self._present_literals(feature, present, conjunction)
            if body is None:
                return None
            out = body
        return out + out_nan

    def _present_literals(self, feature: str, present: int, conjunction: bool) -> list[Literal] | None:
        cells = [c for c in range(1, self.n_cells) if present >> c & 1]
        if self.kind == "threshold":
            return _threshold_literals(feature, self.values, cells, conjunction)
        if self.kind == "category":
            return _category_literals(feature, self.values, cells, self.n_cells - 1)
        if self.kind == "flag":
            flags = {1: Literal(feature, "is_true"), 2: Literal(feature, "is_false")}
            if 3 in cells or (conjunction and len(cells) > 1):
                return None
            return [flags[c] for c in cells]
        return None


def _threshold_literals(feature: str, t: list, cells: list[int], conjunction: bool) -> list[Literal] | None:
    """Cells ``1..k+1`` of thresholds ``t`` as an interval (AND) or a prefix-and-suffix (OR)."""
    last = len(t) + 1
    if conjunction:
        low, high = cells[0], cells[-1]
        if cells != list(range(low, high + 1)):
            return None
        out = [Literal(feature, ">", t[low - 2])] if low > 1 else []
        return out + ([Literal(feature, "<=", t[high - 1])] if high < last else [])
    prefix = 0
    while prefix < len(cells) and cells[prefix] == prefix + 1:
        prefix += 1
    suffix = cells[prefix:]
    if suffix and suffix != list(range(suffix[0], last + 1)):
        return None
    out = [Literal(feature, "<=", t[prefix - 1])] if prefix else []
    return out + ([Literal(feature, ">", t[suffix[0] - 2])] if suffix else [])


def _category_literals(feature: str, values: list, cells: list[int], other: int) -> list[Literal]:
    """Present cells of a category column as ``==``/``in`` or, when "other" is included, ``!=``/``not in``."""
    if other in cells:
        excluded = [values[c - 1] for c in range(1, other) if c not in cells]
        op_one, op_set = "!=", "not_in"
    else:
        excluded = [values[c - 1] for c in cells]
        op_one, op_set = "==", "in"
    if len(excluded) == 1:
        return [Literal(feature, op_one, excluded[0])]
    return [Literal(feature, op_set, excluded)]


def _columns(rule: Rule) -> dict[str, _Column]:
    """The cell structure of every column of ``rule``, from all its literals on that column."""
    columns: dict[str, _Column] = {}
    for lit in rule.literals:
        kind = _KINDS.get(lit.op, "nan")
        column = columns.setdefault(lit.feature, _Column("nan"))
        if kind == "nan":
            continue
        if column.kind == "nan":
            column.kind = kind
        elif column.kind != kind:
            column.kind = "mixed"
        if kind == "threshold":
            column.values.append(lit.value)
        elif kind == "category":
            column.values.extend(lit.value if lit.op in SET_OPS else [lit.value])  # type: ignore[arg-type]
    for column in columns.values():
        if column.kind == "threshold":
            column.values = sorted(set(column.values))
        elif column.kind == "category":
            column.values = sorted(dict.fromkeys(column.values), key=_category_sort_key)
    return columns


@dataclass
class _ClauseView:
    """A clause as per-column cell masks; a column that mixes kinds is ``opaque`` (kept as its literals).

    ``parts`` holds each column's literals as written back, in the order the
    columns first appear in the clause.
    """

    index: int
    masks: dict[str, int]
    opaque: dict[str, frozenset[Literal]]
    parts: dict[str, list[Literal]]

    @property
    def literals(self) -> tuple[Literal, ...]:
        return tuple(lit for lits in self.parts.values() for lit in lits)


def _view(index: int, clause: Clause, columns: dict[str, _Column], conjunction: bool) -> tuple[_ClauseView, bool]:
    """The clause rewritten column by column; the flag says whether it is constant (dead or always true)."""
    by_column: dict[str, list[Literal]] = {}
    for lit in clause.literals:
        by_column.setdefault(lit.feature, []).append(lit)
    masks: dict[str, int] = {}
    opaque: dict[str, frozenset[Literal]] = {}
    parts: dict[str, list[Literal]] = {}
    constant = False
    for feature, lits in by_column.items():
        column = columns[feature]
        if column.kind == "mixed":
            opaque[feature] = frozenset(lits)
            parts[feature] = lits
            continue
        mask = column.combine(lits, conjunction)
        if (mask == 0) if conjunction else (mask == column.full):
            constant = True
        masks[feature] = mask
        rewritten = column.literals(feature, mask, conjunction)
        if rewritten is None or column.combine(rewritten, conjunction) != mask or len(rewritten) > len(lits):
            rewritten = lits
        parts[feature] = rewritten
    return _ClauseView(index, masks, opaque, parts), constant


def _implies(a: _ClauseView, b: _ClauseView, conjunction: bool, skip: str | None = None) -> bool:
    """DNF (``conjunction``): term ``a`` implies term ``b``. CNF: clause ``b`` implies clause ``a``.

    For a DNF, ``a => b`` iff every column ``b`` constrains is constrained at
    least as much in ``a``; for OR-clauses, ``b => a`` iff every column of ``b``
    allows no more than in ``a``. Both are exact for clauses that are not
    constant (those are dropped before) and use no column that mixes kinds
    (such a column only counts as implied when its literals are a subset).
    With ``skip``, that column is left out of both clauses (what the other
    columns imply, for :func:`_merge`).
    """
    for feature, literals in b.opaque.items():
        if not literals <= a.opaque.get(feature, frozenset()):
            return False
    for feature, mask_b in b.masks.items():
        if feature == skip:
            continue
        if feature not in a.masks:
            return False
        mask_a = a.masks[feature]
        if conjunction and mask_a & ~mask_b or not conjunction and mask_b & ~mask_a:
            return False
    return True


def simplify_rule(rule: Rule) -> tuple[Rule, SimplifyReport]:
    """Return an equivalent rule without implied literals, constant or implied clauses, and the report.

    The result has the same value as ``rule`` on every possible row (see the
    module docstring). Clauses keep their order; per column, literals are
    rewritten in canonical order (an interval as ``x > a``, ``x <= b``;
    ``is_nan`` last). Passes repeat until nothing changes (dropping a clause
    can leave a column with one kind of literal, which the next pass merges).

    Parameters
    ----------
    rule : Rule
        The rule to simplify.

    Returns
    -------
    rule : Rule
        The simplified rule, equivalent to ``rule``.
    report : SimplifyReport
        The literal counts before and after, and the clauses removed or rewritten.

    Examples
    --------
    >>> from rulemodels.rules import Literal, Rule, simplify_rule
    >>> rule = Rule.dnf([[Literal("age", ">", 50), Literal("age", ">", 40)]])
    >>> simpler, report = simplify_rule(rule)
    >>> print(simpler)
    (age > 50.0)
    >>> print(report)
    simplified from 2 to 1 literals; term 1 (age > 50.0 AND age > 40.0) became (age > 50.0)
    """
    current, report = _simplify_once(rule)
    removed, rewritten = list(report.removed_clauses), list(report.rewritten_clauses)
    for _ in range(_MAX_PASSES + rule.n_literals):  # each merge of clauses lowers the literal count
        if not report.changed:
            break
        current, report = _simplify_once(current)
        removed += report.removed_clauses
        rewritten += report.rewritten_clauses
    total = SimplifyReport(rule.n_literals, current.n_literals, tuple(removed), tuple(rewritten))
    if total.changed:
        logger.info("simplified the rule: %s", total)
    return current, total


def _simplify_once(rule: Rule) -> tuple[Rule, SimplifyReport]:
    """One pass of :func:`simplify_rule`."""
    conjunction = rule.form == "dnf"
    noun = "term" if conjunction else "clause"
    columns = _columns(rule)
    views: list[_ClauseView] = []
    removed: list[str] = []
    rewritten: list[str] = []
    for r, clause in enumerate(rule.clauses):
        view, constant = _view(r, clause, columns, conjunction)
        shown = clause.to_str(rule.form)
        if constant:
            removed.append(f"dropped {noun} {r + 1} {shown}: it is {'never' if conjunction else 'always'} true")
            continue
        if view.literals != clause.literals:
            rewritten.append(f"{noun} {r + 1} {shown} became {Clause(view.literals).to_str(rule.form)}")
        views.append(view)
    kept: list[_ClauseView] = []
    for view in views:
        # implied by a kept clause, or by a later one that it does not imply back
        stronger = [other for other in views if other is not view and _redundant_next_to(view, other, conjunction)
                    and (other in kept or other.index > view.index and not _redundant_next_to(other, view, conjunction))]
        if stronger:
            other = stronger[0]
            if _redundant_next_to(other, view, conjunction):
                how = "the same as"
            else:
                how = "covered by" if conjunction else "implied by"
            removed.append(f"dropped {noun} {view.index + 1}: {how} {noun} {other.index + 1}")
            continue
        kept.append(view)
    if not removed and not rewritten:
        merge = _merge(kept, columns, conjunction)
        if merge is not None:
            position, merged, helper = merge
            how = "merged with" if conjunction else "intersected with"
            rewritten.append(
                f"{noun} {merged.index + 1} {Clause(kept[position].literals).to_str(rule.form)} became "
                f"{Clause(merged.literals).to_str(rule.form)}: {how} {noun} {helper.index + 1}"
            )
            kept[position] = merged
    simplified = Rule(rule.form, tuple(Clause(view.literals) for view in kept))
    return simplified, SimplifyReport(rule.n_literals, simplified.n_literals, tuple(removed), tuple(rewritten))


def _merge(views: list[_ClauseView], columns: dict[str, _Column],
           conjunction: bool) -> tuple[int, _ClauseView, _ClauseView] | None:
    """The first clause that another clause lets read more simply, rewritten on one column; None if none.

    Returns ``(position of the clause in views, the rewritten clause, the other clause)``.

    DNF: write terms ``t = R_t AND T_x`` and ``s = R_s AND S_x``, where ``T_x``
    and ``S_x`` are the cells of one column ``x`` (all cells where a term does
    not constrain ``x``) and ``R`` the rest of each term. If ``R_t`` implies
    ``R_s`` (column by column, as in :func:`_implies`), then
    ``t OR s == t' OR s`` for ``t' = R_t AND (T_x | S_x)``: the rows ``t'``
    adds, ``R_t AND S_x`` outside ``T_x``, all satisfy ``s``. With ``R_t`` and ``R_s``
    both empty this merges adjacent or overlapping intervals,
    ``(0.526 < a <= 1.32) OR (a > 1.32)`` into ``a > 0.526``.

    CNF, dually: for OR-clauses ``t = R_t OR T_x`` and ``s = R_s OR S_x`` with
    ``R_s`` implying ``R_t``, ``t AND s == t' AND s`` for
    ``t' = R_t OR (T_x & S_x)``: a row in ``t AND s`` but not in ``t'`` would
    satisfy ``T_x``, not ``R_t`` and hence not ``R_s``, and not ``S_x``, so
    not ``s``. This drops the literals that the single-column clauses rule
    out, ``(u <= .295 OR u > .48) AND (u > .295)`` becoming
    ``(u > .48) AND (u > .295)`` (and then ``(u > .48)``).

    Cells include the "missing" one, so both are exact on missing values. The
    rewrite is taken when the new cell set is written with fewer literals, or
    with no more literals and makes ``s`` redundant (dropped by the next pass),
    so every merge lowers the rule's literal count and the passes end.
    """
    for position, t in enumerate(views):
        for s in views:
            if s is t:
                continue
            for feature, mask_t in t.masks.items():
                if not _implies(t, s, conjunction, skip=feature):
                    continue
                column = columns[feature]
                mask_s = s.masks.get(feature, column.full if conjunction else 0)
                mask = mask_t | mask_s if conjunction else mask_t & mask_s
                if mask == mask_t:
                    continue
                rewritten = column.literals(feature, mask, conjunction)
                old = t.parts[feature]
                if rewritten is None or column.combine(rewritten, conjunction) != mask or len(rewritten) > len(old):
                    continue
                masks, parts = dict(t.masks), dict(t.parts)
                if rewritten:
                    masks[feature], parts[feature] = mask, rewritten
                else:  # the column no longer matters (DNF: all its cells) or no cell is left (CNF)
                    del masks[feature], parts[feature]
                merged = _ClauseView(t.index, masks, t.opaque, parts)
                if len(rewritten) < len(old) or _redundant_next_to(s, merged, conjunction):
                    return position, merged, s
    return None


def _redundant_next_to(weaker: _ClauseView, stronger: _ClauseView, conjunction: bool) -> bool:
    """``weaker`` adds nothing next to ``stronger``: in a DNF the term ``weaker`` implies
    ``stronger``; in a CNF the clause ``stronger`` implies ``weaker``."""
    return _implies(weaker, stronger, conjunction)


def _two_valued_columns(literals: Iterable[Literal]) -> dict[str, tuple[object, object]]:
    """``{column: (a, b)}`` for the columns whose literals are category literals naming exactly two categories."""
    categories: dict[str, dict[object, None]] = {}
    other: set[str] = set()
    for lit in literals:
        if lit.op in CATEGORY_OPS or lit.op in SET_OPS:
            members = cast("tuple[object, ...]", lit.value) if lit.op in SET_OPS else (lit.value,)  # a set's value is a tuple
            categories.setdefault(lit.feature, {}).update(dict.fromkeys(members))
        elif lit.op not in ("is_nan", "not_nan"):
            other.add(lit.feature)
    out: dict[str, tuple[object, object]] = {}
    for feature, values in categories.items():
        if len(values) == 2 and feature not in other:
            a, b = sorted(values, key=_category_sort_key)
            out[feature] = (a, b)
    return out


def _excluded_category(lit: Literal) -> object | None:
    """``a`` for ``x != a`` and ``x not in {a}``; None for any other literal."""
    if lit.op == "!=":
        return lit.value
    if lit.op == "not_in" and len(lit.value) == 1:  # type: ignore[arg-type]
        return lit.value[0]  # type: ignore[index]
    return None


def prefer_equality(rule: Rule, literals: Iterable[Literal]) -> tuple[Rule, tuple[str, ...]]:
    """``rule`` with ``x != a`` written ``x == b`` on each column that ``literals`` know two categories of.

    A learner given the binarizer's literals of a column with the two
    categories ``a`` and ``b`` in training (``x == a``, ``x == b``,
    ``x != a``, ``x != b``) sees ``x != a`` and ``x == b`` as the same
    column, false on missing values in both; which one a fit picks is a tie,
    so one fit printed ``x == yes`` and another ``x != no``. This writes every
    ``x != a`` (and ``x not in {a}``) as ``x == b``, so such a column always
    reads as an equality.

    Exact on every row whose ``x`` is missing, ``a`` or ``b``: the rule's
    value on the training rows, and on the binarizer's matrix, does not
    change. It does change on a category unseen in training, which makes
    ``x != a`` true and ``x == b`` false; so this is a choice made once,
    when the rule is learned, and not a step of :func:`simplify_rule`
    (which keeps the value on every row).

    Parameters
    ----------
    rule : Rule
        The learned rule.
    literals : iterable of Literal
        The literals the rule was learned from (``FeatureBinarizer.literals_``):
        a column is two-valued when its category literals name exactly two
        categories and it has no threshold or flag literal.

    Returns
    -------
    rule : Rule
        The rule, unchanged when no literal is rewritten.
    changes : tuple of str
        One line per rewritten literal.
    """
    two_valued = _two_valued_columns(literals)
    changes: dict[str, None] = {}
    clauses = []
    for clause in rule.clauses:
        rewritten = []
        for lit in clause.literals:
            pair = two_valued.get(lit.feature)
            excluded = _excluded_category(lit)
            if pair is not None and excluded is not None and excluded in pair:
                new = Literal(lit.feature, "==", pair[1] if excluded == pair[0] else pair[0])
                changes[f"{lit} became {new} ({lit.feature} took the values {pair[0]} and {pair[1]} in training)"] = None
                lit = new
            rewritten.append(lit)
        clauses.append(Clause(tuple(rewritten)))
    if not changes:
        return rule, ()
    return Rule(rule.form, tuple(clauses)), tuple(changes)
