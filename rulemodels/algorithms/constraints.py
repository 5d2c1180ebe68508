"""Domain constraints on the learned rule (``docs/constraints.md``).

What regulators and clinicians ask of a rule, as constraints and costs on the
clause weights ``w``:

- **monotone** ``{column: +1 | -1}``: +1 lets the rule use the column only
  through literals that make it true for *more* rows as the value grows
  (``x > t``, and ``x is true`` for a 0/1 flag); -1 the reverse (``x <= t``,
  ``x is false``). Both in a DNF and in a CNF: a DNF is learned as the CNF of
  the negated features (paper section 3), but the columns of that CNF are
  still the literals of the DNF that comes out (:class:`CNFProblem`'s
  ``literals``), so the mask is one and the same on both forms. A literal
  that rises with the value keeps the rule monotone whichever way the literals
  are combined (AND and OR are both monotone). The missing-value indicators
  (``x is missing``, ``x is not missing``) are allowed: a missing value is not
  a point of the column's order (it makes every threshold literal false), so
  a monotone constraint speaks of the present values only; forbid the column
  to keep missingness out too. A monotone constraint on a categorical column
  is refused (categories have no order).
- **forbidden** columns: no literal on them at all (missing indicators included).
- **costs** ``{column: c >= 0}``: every literal of the column costs ``c θ``
  instead of ``θ`` (``c_j`` of the paper's objective); 0 makes it free.
- **max_literals** ``k``: at most k literals in every clause (``Σ_j w_jr ≤ k``).
- **model_hook** ``callable(handle, info)``: called once on every Pyomo model
  a fit builds, before its first solve (:class:`HookInfo` says which model
  and which literal each feature index is); it may add constraints on ``w``.

:class:`RuleConstraints` holds them per column and turns them into a mask and
costs over the binary literals; :meth:`RuleConstraints.violations` checks a
rule against them (the estimator checks every rule it returns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulemodels.rules import Literal, Rule
from rulemodels.utils import check_constraint_values, unknown_name

__all__ = ["HookInfo", "RuleConstraints", "literal_direction"]

#: Operators true for more rows as the column's value grows / as it falls; the missing indicators are neither.
_RISING = (">", "is_true")
_FALLING = ("<=", "is_false")
_NEUTRAL = ("is_nan", "not_nan")


def literal_direction(literal: Literal) -> int | None:
    """+1: ``literal`` is true for more rows as its column grows; -1: for fewer; 0: a missing indicator; None: a category.

    Parameters
    ----------
    literal : Literal
        A literal of the binarizer.

    Returns
    -------
    int or None
        Its direction, as above (what a ``monotone`` constraint compares).
    """
    if literal.op in _RISING:
        return 1
    if literal.op in _FALLING:
        return -1
    if literal.op in _NEUTRAL:
        return 0
    return None


@dataclass(frozen=True)
class HookInfo:
    """What a ``model_hook`` is told with each model handle.

    Parameters
    ----------
    kind : str
        Which model: ``"clause_lp"`` (the primal one-level clause LP of SCS,
        SCN, BCD and AM, ``w[j]``), ``"tlp"`` (the two-level LP relaxation,
        ``w[j, r]``), ``"exact"`` and ``"polish"`` (the exact MIP,
        ``w[j, r]``), ``"cg_master"`` and ``"cg_pricing"`` (column
        generation's master LP over whole clauses, and its pricing MIP over
        ``z[j]``, a feature of the priced clause).
    literals : tuple of Literal
        ``literals[j]`` is the literal of feature index j of the model. In a
        DNF fit it is the literal of the *DNF* that comes out (the model
        learns the CNF of the negated features: ``w[j, r] = 1`` puts
        ``literals[j]`` in term r). Indices from ``len(literals)`` on (the
        always-true feature of ``allow_disable``) are no literal.
    form : {"dnf", "cnf"}
        The form of the rule being learned.
    """

    kind: str
    literals: tuple[Literal, ...]
    form: str

    def index(self, literal: Literal) -> int:
        """The feature index j of ``literal`` in this model (a KeyError when the model has no such feature).

        Parameters
        ----------
        literal : Literal
            The literal to look up.

        Returns
        -------
        int
            The feature index j.

        Raises
        ------
        KeyError
            If ``literal`` is not a feature of the model.
        """
        for j, candidate in enumerate(self.literals):
            if candidate == literal:
                return j
        raise KeyError(f"literal '{literal}' is not a feature of this {self.kind} model (it may be forbidden, or not a binarized literal)")


@dataclass(frozen=True)
class RuleConstraints:
    """The domain constraints of one fit, per column (see the module docstring).

    Build it with :meth:`from_params` from the estimator's parameters; an
    instance with nothing set (:attr:`active` False) changes nothing in any fit.

    Parameters
    ----------
    monotone : tuple of (str, int), default=()
        ``(column, +1 or -1)`` pairs: the direction each monotone column may be used in.
    forbidden : frozenset of str, default=frozenset()
        Columns the rule must not use.
    costs : tuple of (str, float), default=()
        ``(column, cost)`` pairs: the cost multiplier of each literal of the column.
    max_literals : int or None, default=None
        At most this many literals in every clause.
    model_hook : callable or None, default=None
        Called on every Pyomo model of the fit, with a :class:`HookInfo`.
    """

    monotone: tuple[tuple[str, int], ...] = ()
    forbidden: frozenset[str] = frozenset()
    costs: tuple[tuple[str, float], ...] = ()
    max_literals: int | None = None
    model_hook: Callable[[Any, HookInfo], Any] | None = None

    @classmethod
    def from_params(
        cls,
        monotone: Mapping[str, int] | None = None,
        forbidden_features: Iterable[str] | None = None,
        feature_costs: Mapping[str, float] | None = None,
        max_literals_per_clause: int | None = None,
        model_hook: Callable[[Any, HookInfo], Any] | None = None,
    ) -> RuleConstraints:
        """The constraints of the estimator parameters of these names (checked: a ValueError says what is wrong).

        Parameters
        ----------
        monotone : mapping of str to int or None, default=None
            ``{column: +1 | -1}``: the direction each monotone column may be used in; None: no monotone column.
        forbidden_features : iterable of str or None, default=None
            Columns the rule must not use; None: none.
        feature_costs : mapping of str to float or None, default=None
            ``{column: c >= 0}``: the cost multiplier ``c_j`` of every literal of the column; None: 1 for each.
        max_literals_per_clause : int or None, default=None
            At most this many literals in every clause; None: no limit.
        model_hook : callable or None, default=None
            ``callable(handle, info)``, called on every Pyomo model of the fit with a :class:`HookInfo`.

        Returns
        -------
        RuleConstraints
            The constraints, ``monotone`` and ``costs`` as sorted ``(column, value)`` pairs.

        Raises
        ------
        ValueError
            If a value has the wrong type or range (a direction other than +1 or -1, a negative or infinite
            cost, ``max_literals_per_clause`` below 1), or a column is both monotone and forbidden.
        """
        monotone, forbidden, costs = check_constraint_values(monotone, forbidden_features, feature_costs, max_literals_per_clause)
        return cls(
            monotone=tuple(sorted(monotone.items())), forbidden=frozenset(forbidden), costs=tuple(sorted(costs.items())),
            max_literals=None if max_literals_per_clause is None else int(max_literals_per_clause), model_hook=model_hook,
        )

    @property
    def active(self) -> bool:
        """Whether any constraint is set (without one, every fit is exactly the unconstrained one)."""
        return bool(self.monotone or self.forbidden or self.costs or self.max_literals is not None or self.model_hook is not None)

    @property
    def key(self) -> tuple[Any, ...]:
        """A hashable identity of the constraints (the hook by object identity), for the workspace's caches."""
        return (self.monotone, tuple(sorted(self.forbidden)), self.costs, self.max_literals, id(self.model_hook))

    def columns(self) -> set[str]:
        """Every column the constraints name.

        Returns
        -------
        set of str
            The column names.
        """
        return {name for name, _ in self.monotone} | set(self.forbidden) | {name for name, _ in self.costs}

    def check_columns(self, columns: Sequence[str], literals: Sequence[Literal]) -> None:
        """A ValueError unless every named column is one of ``columns`` and no monotone column is categorical.

        ``columns`` are the raw training columns; ``literals`` the binarized
        ones (a column is categorical when the binarizer made category
        literals of it).

        Parameters
        ----------
        columns : sequence of str
            The raw training columns.
        literals : sequence of Literal
            The binarized literals.

        Raises
        ------
        ValueError
            If the constraints name a column not in ``valid``, or ``monotone`` names a categorical column.
        """
        valid = [str(name) for name in columns]
        known = set(valid)
        for name in sorted(self.columns()):
            if name not in known:
                raise ValueError(unknown_name("the constraints' column", name, valid, "X"))
        directions: dict[str, set[int | None]] = {}
        for literal in literals:
            directions.setdefault(literal.feature, set()).add(literal_direction(literal))
        for name, _ in self.monotone:
            if None in directions.get(name, set()):
                raise ValueError(
                    f"monotone={{{name!r}: ...}}: column {name!r} is categorical (its literals test categories, which have no "
                    "order); drop it from monotone, or encode an ordered column as numbers"
                )

    def allowed(self, literals: Sequence[Literal]) -> np.ndarray:
        """Boolean mask over ``literals``: False for a literal on a forbidden column or against its column's monotone direction.

        Parameters
        ----------
        literals : sequence of Literal
            The literals to check.

        Returns
        -------
        ndarray of bool
            One value per literal: whether it is allowed.
        """
        monotone = dict(self.monotone)
        mask = np.ones(len(literals), dtype=bool)
        for j, literal in enumerate(literals):
            if literal.feature in self.forbidden:
                mask[j] = False
                continue
            sign = monotone.get(literal.feature)
            if sign is not None and literal_direction(literal) == -sign:
                mask[j] = False
        return mask

    def literal_costs(self, literals: Sequence[Literal]) -> np.ndarray:
        """The cost multiplier ``c_j`` of each literal (its column's cost; 1 when none is given).

        Parameters
        ----------
        literals : sequence of Literal
            The literals whose costs to return.

        Returns
        -------
        ndarray of float
            The cost of each literal.
        """
        costs = dict(self.costs)
        return np.array([float(costs.get(literal.feature, 1.0)) for literal in literals], dtype=float)

    def violations(self, rule: Rule) -> list[str]:
        """What in ``rule`` breaks the constraints, one message per offending literal or clause (empty: none).

        Parameters
        ----------
        rule : Rule
            The rule to check.

        Returns
        -------
        list of str
            The messages (empty: none).
        """
        found = []
        allowed_of = {}
        for r, clause in enumerate(rule.clauses):
            for literal in clause.literals:
                if literal not in allowed_of:
                    allowed_of[literal] = bool(self.allowed([literal])[0])
                if not allowed_of[literal]:
                    found.append(f"clause {r + 1} uses '{literal}', which the constraints forbid")
            if self.max_literals is not None and len(clause.literals) > self.max_literals:
                found.append(f"clause {r + 1} has {len(clause.literals)} literals, more than max_literals_per_clause={self.max_literals}")
        return found
