"""Column generation's pricing heuristic: the beam search for clauses of negative reduced cost (:func:`beam_search`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from rulemodels.algorithms.cg_sums import AbsentCopies, PairSums, RowSums, pair_sums, row_sums
from rulemodels.models.cg_columns import TOLERANCE, ClauseColumns

__all__ = ["ClauseSet", "beam_search"]


class ClauseSet(Protocol):
    """Clauses a search leaves out: whatever answers ``clause in it`` for a sorted feature tuple (a set, a master)."""

    def __contains__(self, clause: tuple[int, ...], /) -> bool: ...


_BeamEntry = tuple[tuple[int, ...], Any, Any, float, float]
"""A clause of the beam, the rows of P and of Z it still fails on, its literal cost, and Σ μ over those rows of P."""


def beam_search(
    columns: ClauseColumns,
    mu: np.ndarray,
    nu: float,
    *,
    theta: float,
    clause_cost: float,
    width: int,
    max_length: int,
    exclude: ClauseSet = (),
    n_best: int = 1,
    pay_sums: RowSums | None = None,
    first_width: int = 0,
    pay_pairs: PairSums | None = None,
    cover_copies: AbsentCopies | None = None,
) -> list[tuple[float, tuple[int, ...]]]:
    """Find clauses with negative reduced cost at duals ``(μ, ν)`` by a beam search over features.

    The reduced cost of clause k is
    ``θ (c_0 + Σ_{j∈k} c_j) − Σ_{i ∈ P ∩ F_k} μ_i + Σ_{i ∈ Z ∩ F_k} ω_i − ν``
    (``F_k``: the rows it fails on). Starting from the empty clause (which
    fails on every row), each level adds one feature to each clause of the
    beam: the reduced costs of all ``d`` extensions of all ``width`` clauses
    are two weighted column sums over the rows each clause still fails on
    (their duals and weights, over their absent features; :func:`row_sums`);
    a clause whose descendants cannot reach a negative reduced cost (a bound:
    all of its duals gained, nothing paid, one more literal) is not extended.
    The ``width`` extensions with the lowest reduced cost (ties: the smaller
    feature tuple) form the next beam, up to ``max_length`` features. With
    ``first_width > width`` the first beam holds the ``first_width`` best
    single features, so that a feature whose own reduced cost is poor but
    which makes a good clause with a second one (a rare category and a
    threshold that together single out a pure group) is extended: their
    two-feature extensions are priced all at once (:func:`pair_sums`), every
    pair with a negative reduced cost is a candidate and the ``width`` best
    pairs form the next beam; with ``first_width >= d`` the best clause of at
    most two features is found exactly. A heuristic: an empty answer does
    not prove that no such clause exists (the pricing MIP does).

    Parameters
    ----------
    columns : ClauseColumns
        The grouped rows of ``P`` and ``Z``, their weights ``ω_i`` and the feature costs ``c_j``.
    mu : numpy.ndarray of shape (|P|,)
        The master LP's duals ``μ_i`` of the rows of ``P`` (in ``columns.cover_rows`` order).
    nu : float
        The master LP's dual ``ν ≤ 0`` of its cap ``Σ_k w_k ≤ R`` on the number of clauses.
    theta : float
        The complexity weight ``θ``.
    clause_cost : float
        The cost ``c_0`` of a clause itself (every clause costs ``θ (c_0 + Σ_{j∈k} c_j)``).
    width : int
        The beam's width: this many clauses are extended at each level.
    max_length : int
        At most this many features per clause (the number of levels).
    exclude : ClauseSet, default=()
        Clauses not to return (those the master already has).
    n_best : int, default=1
        Return up to this many clauses.
    pay_sums : RowSums or None, default=None
        ``row_sums(columns.pay_absent, columns.pay_weight)``, which a fit prepares once for all its searches;
        None: made here.
    first_width : int, default=0
        The width of the first beam when above ``width`` (a wide first level, its pairs priced all at once);
        otherwise the first beam is ``width`` wide too.
    pay_pairs : PairSums or None, default=None
        The :class:`PairSums` of ``(columns.pay_absent, columns.pay_weight)``, likewise prepared once;
        None: made here when a wide first level needs it.
    cover_copies : AbsentCopies or None, default=None
        ``AbsentCopies.of(columns.cover_absent)``, likewise (the float sums of every search of a fit use it);
        None: the sums convert ``cover_absent`` themselves.

    Returns
    -------
    list of (float, tuple of int)
        Up to ``n_best`` distinct clauses not in ``exclude`` with reduced cost below ``-TOLERANCE``, as
        ``(reduced cost, sorted feature tuple)``, lowest reduced cost first.
    """
    cost = columns.feature_cost
    found: dict[tuple[int, ...], float] = {}

    def consider(clause: tuple[int, ...], rc: float) -> None:
        if rc < -TOLERANCE and clause not in exclude:
            found[clause] = rc

    base = theta * clause_cost - nu
    cheapest = float(cost.min()) if cost.shape[0] else 0.0
    gains = row_sums(columns.cover_absent, mu, copies=cover_copies)
    pays = pay_sums if pay_sums is not None else row_sums(columns.pay_absent, columns.pay_weight)
    total_gain = float(mu.sum())
    consider((), base - total_gain + float(columns.pay_weight.sum()))
    beam: list[_BeamEntry] = [((), gains.every_row(), pays.every_row(), 0.0, total_gain)]
    wide = first_width > width  # a wide first level: its entries' rows are narrowed only when they are extended
    first_gained = np.zeros(0)
    for level in range(max_length):
        keep = width if level else max(width, first_width)  # the first level: the best first_width features
        candidates: dict[tuple[int, ...], tuple[float, int, int]] = {}
        # Extending a clause only removes rows it fails on, so no descendant's reduced cost is below
        # this bound (it pays nothing on Z and gains all of this clause's μ with one more literal).
        live = [b for b, (_, _, _, literal_cost, gain) in enumerate(beam)
                if base + theta * (literal_cost + cheapest) - gain < -TOLERANCE]
        if level == 1 and wide:
            candidates = _pair_candidates(
                columns, beam, live, mu, base, theta, keep,
                pay_pairs if pay_pairs is not None else PairSums(columns.pay_absent, columns.pay_weight),
            )
        else:
            for b in live:
                clause, cover_rows, pay_rows, literal_cost, _ = beam[b]
                # (d,): Σ μ_i over the rows the extension fails on, and Σ ω_i over those of Z
                gained = gains.sums(cover_rows)
                paid = pays.sums(pay_rows)
                rc = base + theta * (literal_cost + cost) - gained + paid
                if clause:
                    rc[list(clause)] = np.inf  # a feature already in the clause
                if level == 0:
                    first_gained = gained
                order = _smallest(rc, keep)
                for j, value in zip(order.tolist(), rc[order].tolist()):
                    if not math.isfinite(value):
                        break
                    child = tuple(sorted((*clause, j)))
                    if child not in candidates or value < candidates[child][0]:
                        candidates[child] = (value, b, j)
        if not candidates:
            break
        ranked = sorted(candidates.items(), key=lambda item: (item[1][0], item[0]))
        next_beam: list[_BeamEntry] = []
        for child, (value, b, j) in ranked:
            consider(child, value)
            if len(next_beam) < keep:
                clause, cover_rows, pay_rows, literal_cost, _ = beam[b]
                if wide and level == 0:  # rows and gain of a one-feature clause: narrowed when it is extended
                    next_beam.append((child, None, None, literal_cost + float(cost[j]), float(first_gained[j])))
                    continue
                if cover_rows is None:  # an entry of a wide first level, being extended
                    cover_rows = gains.narrow(gains.every_row(), clause[0])
                    pay_rows = pays.narrow(pays.every_row(), clause[0])
                cover_rows = gains.narrow(cover_rows, j)
                pay_rows = pays.narrow(pay_rows, j)
                next_beam.append((child, cover_rows, pay_rows, literal_cost + float(cost[j]), gains.total(cover_rows)))
        beam = next_beam
    best = sorted(found.items(), key=lambda item: (item[1], item[0]))[:n_best]
    return [(rc, clause) for clause, rc in best]


def _smallest(values: np.ndarray, k: int) -> np.ndarray:
    """``np.argsort(values, kind="stable")[:k]`` (no NaN in ``values``), sorting only the values up to the k-th smallest.

    Below about 300 values one sort is faster than the partition (measured).
    """
    if k >= values.shape[0] or values.shape[0] <= 300:
        return np.argsort(values, kind="stable")[:k]
    kth = np.partition(values, k - 1)[k - 1]
    picked = np.flatnonzero(values <= kth)  # ascending indices: the stable sort keeps ties in index order
    return picked[np.argsort(values[picked], kind="stable")][:k]


def _pair_candidates(
    columns: ClauseColumns, beam: Sequence[_BeamEntry], live: Sequence[int],
    mu: np.ndarray, base: float, theta: float, keep: int, pay_pairs: PairSums,
) -> dict[tuple[int, ...], tuple[float, int, int]]:
    """The two-feature extensions of a wide first level (one-feature clauses ``beam[b]``, ``b`` in ``live``).

    Every pair's reduced cost comes from two matrix products (:func:`pair_sums`);
    the candidates are every pair with a negative reduced cost and the ``keep``
    best pairs (the next beam), each as ``child -> (reduced cost, b, added feature)``.
    """
    if not live:
        return {}
    firsts = np.array([beam[b][0][0] for b in live], dtype=np.intp)
    literal_costs = np.array([beam[b][3] for b in live])
    rcs = (base + theta * (literal_costs[:, None] + columns.feature_cost[None, :])
           - pair_sums(columns.cover_absent, mu, firsts) + pay_pairs.rows(firsts))
    rcs[np.arange(firsts.shape[0]), firsts] = np.inf  # a feature already in the clause
    flat = rcs.ravel()
    best = min(2 * keep, flat.shape[0])  # a pair appears in the rows of both its features
    chosen = np.union1d(np.argpartition(flat, best - 1)[:best], np.flatnonzero(flat < -TOLERANCE))
    chosen = chosen[np.isfinite(flat[chosen])]
    candidates: dict[tuple[int, ...], tuple[float, int, int]] = {}
    for index, value in zip(chosen.tolist(), flat[chosen].tolist()):
        position, j = divmod(index, rcs.shape[1])
        first = int(firsts[position])
        child = (first, j) if first < j else (j, first)
        if child not in candidates or value < candidates[child][0]:
            candidates[child] = (value, live[position], j)
    return candidates

