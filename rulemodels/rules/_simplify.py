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
  equivalent clauses the first is kept.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from rulemodels.rules._rule import (
    CATEGORY_OPS,
    FLAG_OPS,
    SET_OPS,
    THRESHOLD_OPS,
    Clause,
    Literal,
    Rule,
    _category_sort_key,
)

__all__ = ["SimplifyReport", "simplify_rule"]

logger = logging.getLogger(__name__)

_KINDS = {**dict.fromkeys(THRESHOLD_OPS, "threshold"), **dict.fromkeys(CATEGORY_OPS + SET_OPS, "category"),
          **dict.fromkeys(FLAG_OPS, "flag")}
_MISSING = 1  # bit 0 of every cell mask is the "missing" cell
_MAX_PASSES = 10  # each pass that changes something drops a clause or rewrites to the canonical form


@dataclass(frozen=True)
class SimplifyReport:
    """What :func:`simplify_rule` changed.

    Attributes
    ----------
    n_literals_before, n_literals_after : int
        The paper's literal counts of the raw and simplified rule.
    removed_clauses : tuple of str
        One line per dropped clause, saying why.
    rewritten_clauses : tuple of str
        One line per clause whose literals were merged or dropped.
    """

    n_literals_before: int
    n_literals_after: int
    removed_clauses: tuple[str, ...] = ()
    rewritten_clauses: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
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
            members = lit.value if lit.op in SET_OPS else (lit.value,)
            inside = 0
            for v in members:  # type: ignore[union-attr]
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
    """A clause as per-column cell masks (``None`` for a mixed column, kept as literals)."""

    index: int
    masks: dict[str, int]
    opaque: dict[str, frozenset[Literal]]
    literals: tuple[Literal, ...]


def _view(index: int, clause: Clause, columns: dict[str, _Column], conjunction: bool) -> tuple[_ClauseView, bool]:
    """The clause rewritten column by column; the flag says whether it is constant (dead or always true)."""
    by_column: dict[str, list[Literal]] = {}
    for lit in clause.literals:
        by_column.setdefault(lit.feature, []).append(lit)
    masks: dict[str, int] = {}
    opaque: dict[str, frozenset[Literal]] = {}
    literals: list[Literal] = []
    constant = False
    for feature, lits in by_column.items():
        column = columns[feature]
        if column.kind == "mixed":
            opaque[feature] = frozenset(lits)
            literals += lits
            continue
        mask = column.combine(lits, conjunction)
        if (mask == 0) if conjunction else (mask == column.full):
            constant = True
        masks[feature] = mask
        rewritten = column.literals(feature, mask, conjunction)
        if rewritten is None or column.combine(rewritten, conjunction) != mask or len(rewritten) > len(lits):
            rewritten = lits
        literals += rewritten
    return _ClauseView(index, masks, opaque, tuple(literals)), constant


def _implies(a: _ClauseView, b: _ClauseView, conjunction: bool) -> bool:
    """DNF (``conjunction``): term ``a`` implies term ``b``. CNF: clause ``b`` implies clause ``a``.

    For a DNF, ``a => b`` iff every column ``b`` constrains is constrained at
    least as much in ``a``; for OR-clauses, ``b => a`` iff every column of ``b``
    allows no more than in ``a``. Both are exact for clauses that are not
    constant (those are dropped before) and use no column that mixes kinds
    (such a column only counts as implied when its literals are a subset).
    """
    for feature, literals in b.opaque.items():
        if not literals <= a.opaque.get(feature, frozenset()):
            return False
    for feature, mask_b in b.masks.items():
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
    """
    current, report = _simplify_once(rule)
    removed, rewritten = list(report.removed_clauses), list(report.rewritten_clauses)
    for _ in range(_MAX_PASSES):
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
    simplified = Rule(rule.form, tuple(Clause(view.literals) for view in kept))
    return simplified, SimplifyReport(rule.n_literals, simplified.n_literals, tuple(removed), tuple(rewritten))


def _redundant_next_to(weaker: _ClauseView, stronger: _ClauseView, conjunction: bool) -> bool:
    """``weaker`` adds nothing next to ``stronger``: in a DNF the term ``weaker`` implies
    ``stronger``; in a CNF the clause ``stronger`` implies ``weaker``."""
    return _implies(weaker, stronger, conjunction)
