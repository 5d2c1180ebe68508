"""CG: column generation (Dash, Günlük & Wei 2018, *Boolean Decision Rules via Column Generation*).

The models are in :mod:`rulemodels.models.column_generation` (read its
docstring for the master, the pricing problem and how the method's DNF
terms are this project's CNF clauses). Above ``group_rows`` rows to cover,
the master's rows are groups of the rows that the same clauses fail on
(``build_cg_master(..., group_rows=True)``: the same LP optimum with a few
hundred rows where a million rows have half a million; a new clause splits
the groups it fails on in part). One fit:

1. **Start** the restricted master with the empty clause (it fails on every
   row: the constant rule) and the clauses the beam search finds at the duals
   of a master with no clause (``μ_i = ω_i``: every row still to cover).
2. **Rounds** (at most ``max_iter``): solve the master LP in place, read its
   duals, price. The beam search (:func:`beam_search`) is tried first, then,
   when it finds nothing (at most ``fallback_searches`` times per θ), once
   more with every feature on its first level
   (``fallback_width``: the best clause of at most two features is then
   found exactly, where a narrow first level drops a feature whose own
   reduced cost is poor but which makes a good clause with a second); the
   pricing MIP (at most ``pricing_mip_solves`` per fit) only when the beam finds
   no clause with a negative reduced cost, and only on data small enough
   (``pricing_mip_max_nonzeros``; otherwise the fit stops there with
   ``termination="no_improvement"``). Up to ``columns_per_round``
   clauses with negative reduced cost join the master as new columns
   (:meth:`~rulemodels.models.column_generation.CGMaster.add_clauses`: the
   master is never rebuilt). Stop when the MIP proves that none is left
   (the LP is then optimal over *all* clauses of at most ``max_length``
   features: ``termination="converged"``), when the pricing MIPs allowed
   are spent without one or ``stall_rounds`` LPs in a row have not lowered
   the objective (``"no_improvement"``), at ``max_iter`` or at the fit's
   time limit.
3. **Select** at most ``n_clauses`` of the generated clauses
   (:func:`greedy_selection`): the master's integer objective minimised by a
   local search (greedy additions, then drop/add/swap moves, from
   ``selection_starts`` starts) over the clauses that pay for themselves
   alone (the others never help: an exact reduction). Deterministic and a
   few milliseconds. With ``selection="mip"`` the same master with binary
   ``w_k`` is then solved as an integer program (``selection_time_limit``,
   ``selection_gap``) and kept where it is better.

A θ path (:func:`run_column_generation_path`) keeps the master from one θ to
the next: only the Param θ changes, the rounds go on from every clause
generated so far, and the selection is made once per R.

The beam search, the master and the local search are deterministic; the
pricing MIP runs only on small data (``pricing_mip_max_nonzeros``, 2,000
nonzeros: a few dozen rows), at most ``pricing_mip_solves`` times per fit,
each solved to optimality: a fit without a time limit gives the same rule on
a busy and an idle machine.

θ means what it means for the other algorithms: the cost of one literal, in
misclassified (weighted) samples; a clause also costs ``θ·clause_cost``
(the method's complexity ``1 + |k|`` for ``clause_cost = 1``). The
objective reported is the master's integer objective at the returned rule
(:meth:`~rulemodels.models.column_generation.ClauseColumns.objective`): the
weight of every row the CNF should make 0 on which no clause fails (an
error), plus for every row it should make 1 its weight times the number of
clauses that fail on it, plus θ times the literals and ``clause_cost`` per
clause. On the rows that should be 1 this is the Hamming cost (eq. (3.10)
HammingFormulation); on those that should be 0 it is the 0-1 error (the
Hamming objective charges the distance to the nearest failing clause).
"""

from __future__ import annotations

import logging
import math
import time
import warnings
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from rulemodels import defaults
from rulemodels.algorithms.data import WorkingData
from rulemodels.algorithms.engine import as_model_changes
from rulemodels.algorithms.iteration_log import IterationLog
from rulemodels.algorithms.mip_progress import MipReporter
from rulemodels.algorithms.result import FitResult, Termination, TimeLimitWarning
from rulemodels.models import unique_rows
from rulemodels.models.column_generation import (
    TOLERANCE,
    CGMaster,
    CGPricing,
    ClauseColumns,
    build_cg_master,
    build_cg_pricing,
    prepare_cg_data,
)
from solvers import Backend, SolveConfig, SolveError

logger = logging.getLogger(__name__)

STALL_TOLERANCE = 1e-9
"""An LP objective lower by at most this (relative to it) has not improved (``CGSettings.stall_rounds``)."""

__all__ = [
    "BitRowSums", "CGRun", "CGSettings", "FloatRowSums", "PairSums", "RowSums", "as_model_changes", "beam_search", "column_generation",
    "greedy_selection", "pair_sums", "row_sums", "run_column_generation", "run_column_generation_path",
]


@dataclass(frozen=True)
class CGSettings:
    """The knobs of column generation (defaults in :mod:`rulemodels.defaults`, ``CG_*``).

    Parameters
    ----------
    clause_cost : float
        ``c_0``: the complexity of a clause itself, in literals.
    max_length : int
        ``D``: at most this many features in a clause.
    beam_width : int
        Clauses kept per level of the beam search.
    fallback_width : int or None
        When the beam search finds no clause of negative reduced cost, it runs
        once more with this many single features on its first level (None:
        every feature, and the best clause of at most two features is then
        found exactly; 0: no second search) before the rounds give up.
    fallback_searches : int
        At most this many such wide searches at each θ.
    columns_per_round : int
        At most this many new clauses join the master per round.
    pricing_mip_solves : int
        Pricing MIPs per fit, at most (each solved to optimality: a count, not a
        time budget, so that the rule does not depend on the machine's speed;
        none left: the fit stops pricing with ``termination="no_improvement"``).
    pricing_mip_max_nonzeros : int
        The pricing MIP is used only when its matrix has at most this many
        nonzeros (the present features of all rows); above it the beam search
        alone prices (HiGHS needed 2-10 s per pricing MIP on the bundled
        datasets, and did not always prove a result).
    selection_time_limit : float or None
        Seconds for the final integer selection; None (the default) solves it to
        ``selection_gap`` with no wall-clock limit, so that the rule does not
        depend on the machine's speed (a fit's ``time_limit`` still bounds it).
    selection_gap : float
        Relative gap at which the final integer selection stops.
    selection : {"local_search", "mip"}
        How the final clauses are chosen among the generated ones:
        :func:`greedy_selection` alone (deterministic, milliseconds), or also the
        integer program, kept where it is better.
    selection_starts : int
        Starts of the local search (:func:`greedy_selection`'s ``starts``).
    group_rows : int
        Above this many rows to cover, the master's rows are groups of rows that
        the same clauses fail on (``build_cg_master(..., group_rows=True)``).
    stall_rounds : int
        The rounds at one θ end when this many master LPs in a row have not
        lowered its objective (``termination="no_improvement"``): the LP is
        degenerate there, and its duals keep pricing clauses that do not improve it.
    """

    clause_cost: float
    max_length: int
    beam_width: int
    columns_per_round: int
    pricing_mip_solves: int
    pricing_mip_max_nonzeros: int
    selection_time_limit: float | None
    selection_gap: float
    group_rows: int = defaults.CG_GROUP_ROWS
    selection: str = defaults.CG_SELECTION
    selection_starts: int = defaults.CG_SELECTION_STARTS
    stall_rounds: int = defaults.CG_STALL_ROUNDS
    fallback_width: int | None = defaults.CG_FALLBACK_WIDTH
    fallback_searches: int = defaults.CG_FALLBACK_SEARCHES


def beam_search(
    columns: ClauseColumns,
    mu: np.ndarray,
    nu: float,
    *,
    theta: float,
    clause_cost: float,
    width: int,
    max_length: int,
    exclude: Container[tuple[int, ...]] = (),
    n_best: int = 1,
    pay_sums: RowSums | None = None,
    first_width: int = 0,
    pay_pairs: PairSums | None = None,
    cover_copies: AbsentCopies | None = None,
) -> list[tuple[float, tuple[int, ...]]]:
    """Clauses with negative reduced cost at duals ``(μ, ν)``, found by a beam search over features.

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
    most two features is found exactly. Returns
    up to ``n_best`` distinct clauses not in ``exclude`` with reduced cost
    below ``-TOLERANCE``, as ``(reduced cost, sorted feature tuple)``, lowest
    first. A heuristic: an empty answer does not prove that no such clause
    exists (the pricing MIP does). ``pay_sums``: ``row_sums(columns.pay_absent,
    columns.pay_weight)``, which a fit prepares once for all its searches
    (made here when not given); ``pay_pairs``: likewise the
    :class:`PairSums` of ``(columns.pay_absent, columns.pay_weight)``;
    ``cover_copies``: ``AbsentCopies.of(columns.cover_absent)``, likewise
    (the float sums of every search of a fit use it).
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
    # a beam entry: (clause, the rows of P and of Z it still fails on, its literal cost, Σ μ over those rows of P)
    beam: list[tuple[tuple[int, ...], Any, Any, float, float]] = [((), gains.every_row(), pays.every_row(), 0.0, total_gain)]
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
        next_beam = []
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
    columns: ClauseColumns, beam: Sequence[tuple[tuple[int, ...], Any, Any, float, float]], live: Sequence[int],
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


PAIR_BLOCK_VALUES = 1 << 22
""":func:`pair_sums` converts at most this many 0/1 values to float at a time (32 MB)."""


def pair_sums(absent: np.ndarray, weight: np.ndarray, features: Sequence[int]) -> np.ndarray:
    """``S[f, k] = Σ_i weight_i · absent[i, features[f]] · absent[i, k]``: the beam search's sums of every two-feature clause.

    Row ``f`` is what :meth:`RowSums.sums` gives for the rows where
    ``features[f]`` is absent (the clause of that one feature fails there),
    for all of them at once as matrix products over blocks of rows of
    positive weight (the same sums, added in another order).
    """
    n, d = absent.shape
    columns = np.asarray(features, dtype=np.intp)
    out = np.zeros((columns.shape[0], d))
    step = max(1, PAIR_BLOCK_VALUES // max(d, 1))
    for start in range(0, n, step):
        w = weight[start:start + step]
        rows = np.flatnonzero(w > 0)
        if rows.shape[0] == 0:
            continue
        block = absent[start + rows].astype(float)
        out += (block[:, columns] * w[rows, None]).T @ block
    return out


PAIR_CACHE_VALUES = 1 << 22
""":class:`PairSums` keeps every feature's pair sums (a ``d × d`` float matrix) when it has at most this many values (32 MB)."""


class PairSums:
    """:func:`pair_sums` of a fixed ``(absent, weight)``, for the features a search asks for (the wide searches' ``Z`` sums).

    The weights of ``Z`` are the same in every search of a fit. When they are
    integers (counts of identical samples, without class weights) every pair
    sum is an exact integer, whatever order it is added in, so the sums of
    all ``d`` features are computed once, at the first call, and each later
    call takes its rows: the same numbers as :func:`pair_sums` of those
    features. Otherwise (or above ``PAIR_CACHE_VALUES``) each call computes
    its own.
    """

    def __init__(self, absent: np.ndarray, weight: np.ndarray):
        self.absent = absent
        self.weight = weight
        d = absent.shape[1]
        integral = bool(np.all(weight == np.round(weight))) and float(np.abs(weight).sum()) < 2.0 ** 52
        self._keep = integral and d * d <= PAIR_CACHE_VALUES
        self._all: np.ndarray | None = None

    def rows(self, features: Sequence[int]) -> np.ndarray:
        """``pair_sums(absent, weight, features)``."""
        if not self._keep:
            return pair_sums(self.absent, self.weight, features)
        if self._all is None:
            self._all = pair_sums(self.absent, self.weight, range(self.absent.shape[1]))
        return self._all[np.asarray(features, dtype=np.intp)]


BIT_ROWS_PER_VALUE = 64
""":func:`row_sums` counts bits when the rows with a positive weight hold at least this many per distinct weight."""


class RowSums:
    """``Σ_{i ∈ S} weight_i · absent[i, :]`` over row sets ``S`` that shrink one feature at a time (the beam search's sums).

    A row set is an opaque state: :meth:`every_row` (all rows), :meth:`narrow`
    (the rows of a set where feature ``j`` is absent too: the clause with
    ``j`` added fails there), :meth:`sums` (the ``(d,)`` weighted sums of the
    set's absent features) and :meth:`total` (the set's weight).
    """

    def every_row(self) -> Any:
        raise NotImplementedError

    def narrow(self, rows: Any, j: int) -> Any:
        raise NotImplementedError

    def sums(self, rows: Any) -> np.ndarray:
        raise NotImplementedError

    def total(self, rows: Any) -> float:
        raise NotImplementedError


def row_sums(absent: np.ndarray, weight: np.ndarray, route: str | None = None, copies: AbsentCopies | None = None) -> RowSums:
    """The sums of ``absent`` (bool, (n, d)) weighted by ``weight`` (n,): :class:`BitRowSums` when the weights take few values.

    Few (``route=None``): at least ``BIT_ROWS_PER_VALUE`` rows of positive
    weight per distinct positive weight (the master's duals take a handful
    of values on large data, shared by the rows of a group, and the weights of
    ``Z`` are counts of identical samples); else :class:`FloatRowSums`, the
    product of each set's rows made float (from ``copies`` of ``absent``
    when given). ``route="bits"`` or ``"float"`` chooses.
    """
    if route not in (None, "bits", "float"):
        raise ValueError(f"route must be None, 'bits' or 'float', got {route!r}")
    if route == "float":
        return FloatRowSums(absent, weight, copies)
    rows = np.flatnonzero(weight > 0)
    values, sizes = np.unique(weight[rows], return_counts=True)  # the distinct weights, increasing, and their rows
    if route == "bits" or values.shape[0] * BIT_ROWS_PER_VALUE <= rows.shape[0]:
        order = np.argsort(weight[rows])  # by weight, as values; any order within a weight: the counts do not depend on it
        return BitRowSums(absent, rows[order], values, sizes)
    return FloatRowSums(absent, weight, copies)


FLOAT_COPY_VALUES = 1 << 22
""":class:`AbsentCopies` are made of 0/1 matrices of at most this many values (a 32 MB float copy)."""


class AbsentCopies:
    """A 0/1 matrix ``absent`` (n, d) made float once, and laid out by feature, for the float sums of every search of a fit.

    ``floats[rows]`` is ``absent[rows].astype(float)`` (the same numbers,
    without converting them again in each sum), and ``by_feature[j]`` the
    contiguous column ``absent[:, j]`` (a set narrowed by feature ``j`` reads
    one array). :meth:`of` makes none of a larger matrix: the float rows of a
    set are then made one set at a time (a float copy of all rows was 1.2 GB at
    1,000,000 x 144).
    """

    def __init__(self, absent: np.ndarray):
        self.floats = absent.astype(float)
        self.by_feature = np.ascontiguousarray(absent.T)

    @classmethod
    def of(cls, absent: np.ndarray) -> AbsentCopies | None:
        """The copies of ``absent``, or None above ``FLOAT_COPY_VALUES`` values."""
        return cls(absent) if absent.size <= FLOAT_COPY_VALUES else None


class FloatRowSums(RowSums):
    """A row set is the indices of its rows; its sums are ``weight[rows] @ absent[rows]`` made float (one set at a time).

    Rows of weight 0 add nothing and are left out of every set (about two
    thirds of the rows to cover have a zero dual in a master LP). With
    ``copies`` (:class:`AbsentCopies` of ``absent``) the float rows and the
    narrowing columns are read from them: the same numbers.
    """

    def __init__(self, absent: np.ndarray, weight: np.ndarray, copies: AbsentCopies | None = None):
        self.absent = absent
        self.weight = weight
        self.copies = copies
        self._rows = np.flatnonzero(weight > 0)

    def every_row(self) -> np.ndarray:
        return self._rows.copy()

    def narrow(self, rows: np.ndarray, j: int) -> np.ndarray:
        if self.copies is not None:
            return rows[self.copies.by_feature[j][rows]]
        return rows[self.absent[rows, j]]

    def sums(self, rows: np.ndarray) -> np.ndarray:
        if self.copies is not None:
            return self.weight[rows] @ self.copies.floats[rows]
        return self.weight[rows] @ _as_float(self.absent, rows)

    def total(self, rows: np.ndarray) -> float:
        return float(self.weight[rows].sum())


_POPCOUNT = np.array([bin(byte).count("1") for byte in range(256)], dtype=np.uint8)


class BitRowSums(RowSums):
    """Rows of equal weight counted as bits: a row set is a bit set, its sums ``Σ_v v · |{i ∈ S, weight_i = v, absent_ij}|``.

    The rows of positive weight are ordered by their weight (rows of weight
    0 add nothing and are left out), each weight's rows padded to a multiple
    of 64, and each feature's ``absent`` column packed into 64-bit words
    (``d × W`` words, a bit per row: 18 MB at 1,000,000 rows × 144 features
    where the float rows are 1.2 GB). A row set is a ``(W,)`` word array
    (the rows of a clause: the AND of its features' columns), and a set's
    sums are the popcounts of its words AND each column, summed per weight
    (exact integers), times the weights: ``(... (0 + v_1 c_1) + v_2 c_2) + ...``
    in increasing ``v``. Where the weights are integers (the first pricing's
    duals ``μ = ω``, the weights of ``Z``) every sum is an exact integer, as
    the float product's is: the same numbers. Otherwise they are the same
    sums rounded in another order (they can differ in the last bits).

    Built by :func:`row_sums` from ``sorted_rows`` (the rows of positive
    weight, by weight), ``values`` (their distinct weights, increasing) and
    ``sizes`` (how many of the rows have each).
    """

    def __init__(self, absent: np.ndarray, sorted_rows: np.ndarray, values: np.ndarray, sizes: np.ndarray):
        d = absent.shape[1]
        padded = -(-sizes // 64) * 64
        offsets = np.concatenate([[0], np.cumsum(padded)]).astype(np.intp)
        ordered = np.zeros((int(offsets[-1]), d + 1), dtype=bool)  # the rows by weight, zero rows as padding
        start = 0
        for k, size in enumerate(sizes.tolist()):
            np.take(absent, sorted_rows[start:start + size], axis=0, out=ordered[offsets[k]:offsets[k] + size, :d], mode="clip")
            ordered[offsets[k]:offsets[k] + size, d] = True  # a row, not padding
            start += size
        self.values = values
        words = _pack_columns(ordered)
        self.words = words[:d]  # (d, W) uint64
        self._rows = words[d]  # every row (its padding bits are 0)
        self.starts = offsets[:-1] // 64  # the first word of each weight's rows
        self._and = np.empty_like(self.words)
        self._count = np.empty(self.words.shape if _bitwise_count is not None else (d, 8 * self.words.shape[1]), np.uint8)

    def every_row(self) -> np.ndarray:
        return self._rows.copy()

    def narrow(self, rows: np.ndarray, j: int) -> np.ndarray:
        return rows & self.words[j]

    def sums(self, rows: np.ndarray) -> np.ndarray:
        if self.values.shape[0] == 0:
            return np.zeros(self.words.shape[0])
        np.bitwise_and(self.words, rows, out=self._and)
        return self._weigh(self._counts(self._and, self._count))

    def total(self, rows: np.ndarray) -> float:
        if self.values.shape[0] == 0:
            return 0.0
        counts = self._counts(rows[None, :], np.empty((1, self._count.shape[1]), np.uint8))
        return float(self._weigh(counts)[0])

    def _counts(self, words: np.ndarray, out: np.ndarray) -> np.ndarray:
        """Set bits per row of ``words`` and per weight: ``(rows, n_values)`` int64."""
        if _bitwise_count is not None:
            _bitwise_count(words, out=out)
            starts = self.starts
        else:  # numpy < 2: a byte table
            np.take(_POPCOUNT, words.view(np.uint8), out=out)
            starts = 8 * self.starts
        return np.add.reduceat(out, starts, axis=1, dtype=np.int64)

    def _weigh(self, counts: np.ndarray) -> np.ndarray:
        total = np.zeros(counts.shape[0])
        for k, value in enumerate(self.values.tolist()):
            total += value * counts[:, k]
        return total


_bitwise_count = getattr(np, "bitwise_count", None)


def _pack_columns(rows: np.ndarray) -> np.ndarray:
    """A ``(n, d)`` bool matrix, ``n`` a multiple of 64, as ``(d, n / 64)`` uint64 words: 64 rows of a column a word."""
    return np.ascontiguousarray(np.packbits(rows, axis=0).T).view(np.uint64)  # (n / 8, d) bytes, a column's words


def _as_float(absent: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``absent[rows]`` as a float matrix (the same numbers the matrix products always used)."""
    picked = absent if rows.shape[0] == absent.shape[0] else absent[rows]  # every row: no copy of the 0/1 matrix
    return picked.astype(float)


@dataclass
class CGRun:
    """What one column generation run found (the numbers :func:`column_generation` turns into a rule).

    Attributes
    ----------
    clauses : list of tuple of int
        Every clause the master held (feature indices, CNF view), in the order of ``K``.
    selection : list of int
        The selected clauses (indices into ``clauses``).
    objective : float
        The master's integer objective at the selection (numpy).
    lp_objective : float or None
        The last master LP's optimum (a lower bound of the integer master over all
        clauses when ``termination == "converged"``).
    termination : Termination
    n_rounds, n_builds, n_solves : int
        Master LP rounds; Pyomo models built (the master, and the pricing MIP when it was needed: at most 2);
        solves of either.
    solver_seconds : float
    """

    clauses: list[tuple[int, ...]]
    selection: list[int]
    objective: float
    lp_objective: float | None
    termination: Termination
    n_rounds: int
    n_builds: int
    n_solves: int
    solver_seconds: float


def column_generation(
    data: WorkingData,
    backend: Backend,
    *,
    theta: float,
    n_clauses: int,
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> FitResult:
    """Learn at most ``n_clauses`` CNF clauses on ``data`` by column generation (see the module docstring).

    Returns the clause matrix over the working features (with a zero row for
    the always-true feature when ``data.allow_disable``: column generation
    leaves a clause out instead of disabling it). ``data.max_literals``
    lowers the clause length D of the beam search and the pricing MIP (its
    constraint ``length``, ``Σ_j z_j ≤ D``), so that no generated clause
    exceeds it; ``model_hook(handle, kind)`` is called on the master
    (``"cg_master"``) and the pricing MIP (``"cg_pricing"``) when each is built.
    """
    path = column_generation_path(
        data, backend, thetas=[theta], n_clauses=[n_clauses], max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return path[(float(theta), int(n_clauses))]


def column_generation_path(
    data: WorkingData,
    backend: Backend,
    *,
    thetas: Sequence[float],
    n_clauses: Sequence[int],
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> dict[tuple[float, int], FitResult]:
    """:func:`column_generation` along a θ path (see :func:`run_column_generation_path`): ``(θ, R) -> FitResult``.

    Parameters
    ----------
    data : WorkingData
        The CNF problem.
    backend : Backend
        Solves the master LP, the pricing MIPs and the selection.
    thetas : sequence of float
        The sparsity weights θ of the path.
    n_clauses : sequence of int
        The numbers of clauses R.
    max_iter : int
        The most rounds at each θ.
    settings : CGSettings
        The knobs of column generation.
    time_limit : float or None, default=None
        Seconds for the whole path; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    model_hook : callable or None, default=None
        Called with each model handle and its kind, once, before its first solve.

    Returns
    -------
    dict
        ``(θ, R) -> FitResult`` for every θ and R.
    """
    if data.max_literals is not None and data.max_literals < settings.max_length:
        settings = replace(settings, max_length=int(data.max_literals))
    columns = _prepare(data)
    runs = run_column_generation_path(
        columns, backend, thetas=thetas, n_clauses=n_clauses, max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return {key: _fit_result(data, run) for key, run in runs.items()}


def _prepare(data: WorkingData) -> ClauseColumns:
    """The clause columns of ``data``'s real features (without the always-true one)."""
    n_real = data.n_features - 1 if data.allow_disable else data.n_features
    A = data.A_binary[:, :n_real] if data.allow_disable else data.A_binary
    return prepare_cg_data(A, data.y, sample_weight=data.weight, feature_cost=data.cost[:n_real])


def _fit_result(data: WorkingData, run: CGRun) -> FitResult:
    """A run's selection as the clause matrix over the working features (a zero row for the always-true one)."""
    W = np.zeros((data.n_features, len(run.selection)))
    for r, k in enumerate(run.selection):
        W[list(run.clauses[k]), r] = 1.0
    return FitResult(
        W=W, objective=run.objective, history=[run.objective], n_iter=run.n_rounds, termination=run.termination,
        n_builds=run.n_builds, n_solves=run.n_solves, solver_seconds=run.solver_seconds,
    )


def run_column_generation(
    columns: ClauseColumns,
    backend: Backend,
    *,
    theta: float,
    n_clauses: int,
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> CGRun:
    """The rounds and the final selection of column generation on prepared ``columns`` (see the module docstring).

    A path of one θ and one R (:func:`run_column_generation_path`).
    """
    path = run_column_generation_path(
        columns, backend, thetas=[theta], n_clauses=[n_clauses], max_iter=max_iter, settings=settings,
        time_limit=time_limit, solver_options=solver_options, model_hook=model_hook,
    )
    return path[(float(theta), int(n_clauses))]


def run_column_generation_path(
    columns: ClauseColumns,
    backend: Backend,
    *,
    thetas: Sequence[float],
    n_clauses: Sequence[int],
    max_iter: int,
    settings: CGSettings,
    time_limit: float | None = None,
    solver_options: Mapping[str, Any] | None = None,
    model_hook: Callable[[Any, str], Any] | None = None,
) -> dict[tuple[float, int], CGRun]:
    """Column generation along a θ path: one master, grown from one θ to the next, and a selection per R.

    As a lasso path re-uses its active set, the master built at the first
    (largest) θ is kept for every later one: at each θ only the Param ``θ``
    changes (:meth:`~rulemodels.models.column_generation.CGMaster.set_theta`,
    declared to the backend as new objective coefficients, so a persistent
    backend re-solves in place), the rounds go on from every clause generated
    so far, and then the integer selection is solved once per R of
    ``n_clauses`` (the cap ``R`` changed in place,
    :meth:`~rulemodels.models.column_generation.CGMaster.set_max_clauses`).
    The rounds run with the cap at ``max(n_clauses)``. ``thetas`` are used
    from the largest to the smallest (the sparsest rule first). The master
    is built once for the whole path (``n_builds`` is 1 on the first run of
    the path, 0 after). The result depends only on the arguments: the same
    path gives the same rules, but the rule at one θ of a path may differ
    from a fit at that θ alone, which starts from no clause.

    Returns
    -------
    dict
        ``(theta, R) -> CGRun`` for every θ and R; each run's counters are those
        of its own rounds and selection.
    """
    values = sorted({float(t) for t in thetas}, reverse=True)
    sizes = sorted({int(r) for r in n_clauses})
    if not values or not sizes:
        raise ValueError("a path needs at least one theta and one n_clauses")
    pool = _ClausePool(
        columns, backend, theta=values[0], n_clauses=sizes[-1], settings=settings, time_limit=time_limit,
        solver_options=solver_options, model_hook=model_hook,
    )
    runs: dict[tuple[float, int], CGRun] = {}
    try:
        for position, theta in enumerate(values):
            if position:
                pool.set_theta(theta)
            pool.grow(max_iter)
            for size in sizes:
                runs[(theta, size)] = pool.select(size)
    finally:
        pool.release()
    return runs


class _ClausePool:
    """One restricted master (and, when needed, one pricing MIP) over prepared columns, re-solved in place.

    :meth:`grow` runs the rounds at the current θ, :meth:`select` chooses at
    most R of the generated clauses (with ``selection="mip"`` the master stays
    an integer program until :meth:`grow` makes it the LP again),
    :meth:`set_theta` moves to another θ keeping every clause. A single fit is
    ``grow`` then ``select``; a path repeats them.
    """

    def __init__(
        self, columns: ClauseColumns, backend: Backend, *, theta: float, n_clauses: int, settings: CGSettings,
        time_limit: float | None, solver_options: Mapping[str, Any] | None, model_hook: Callable[[Any, str], Any] | None,
    ) -> None:
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + float(time_limit)
        self.columns, self.backend, self.settings, self.model_hook = columns, backend, settings, model_hook
        self.theta = float(theta)
        self.max_clauses = int(n_clauses)
        self.options = dict(solver_options or {})
        self.stats = {"builds": 0, "solves": 0, "seconds": 0.0, "rounds": 0}
        # the same for every search of the fit
        self.pay_sums = row_sums(columns.pay_absent, columns.pay_weight, copies=AbsentCopies.of(columns.pay_absent))
        self.cover_copies = AbsentCopies.of(columns.cover_absent)
        self.pay_pairs = PairSums(columns.pay_absent, columns.pay_weight)  # likewise
        first = self._search(columns.cover_weight, 0.0, (), settings.columns_per_round)
        self.master = build_cg_master(
            columns, [(), *(clause for _, clause in first)], theta=theta, clause_cost=settings.clause_cost,
            max_clauses=n_clauses, group_rows=columns.cover_rows.shape[0] > settings.group_rows,
        )
        self.stats["builds"] += 1
        if model_hook is not None:
            model_hook(self.master, "cg_master")
        self.use_mip = columns.n_nonzeros <= settings.pricing_mip_max_nonzeros
        self.pricing_left = int(settings.pricing_mip_solves)
        self.pricing: CGPricing | None = None
        self.pricing_theta: tuple[list[Any], np.ndarray] | None = None  # the z costs of a θ set since the last pricing solve
        self.changes: dict[str, Any] = {}  # what changed in the master since its last solve
        self.integer, self.cap = False, int(n_clauses)  # the master's shape: an LP with the cap of the rounds
        self.termination = Termination.max_iter
        self.lp_objective: float | None = None
        self._reported = {"builds": 0, "solves": 0, "seconds": 0.0, "rounds": 0}

    def _solve(self, model: Any, changes: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        if self.deadline is not None and kwargs.get("time_limit") is None:  # every solve within the fit's time limit
            kwargs["time_limit"] = _remaining(self.deadline, None)
        progress = kwargs.pop("progress", None)  # the rest are settings: time_limit, mip_gap
        result = self.backend.solve(
            model, config=SolveConfig(options=self.options, **kwargs), changes=as_model_changes(changes) if changes else None,
            progress=progress,
        )
        self.stats["solves"] += 1
        self.stats["seconds"] += result.wall_time
        return result

    def _search(self, mu: np.ndarray, nu: float, exclude: Container[tuple[int, ...]], n_best: int,
                first_width: int = 0) -> list[tuple[float, tuple[int, ...]]]:
        return beam_search(
            self.columns, mu, nu, theta=self.theta, clause_cost=self.settings.clause_cost, width=self.settings.beam_width,
            max_length=self.settings.max_length, exclude=exclude, n_best=n_best, pay_sums=self.pay_sums,
            first_width=first_width, pay_pairs=self.pay_pairs, cover_copies=self.cover_copies,
        )

    def _pending(self, more: Mapping[str, Any]) -> None:
        """Add ``more`` to the master's changes since its last solve (each kind of change at most once)."""
        clash = set(self.changes) & set(more)
        if clash:
            raise RuntimeError(f"two pending changes of the same kind {sorted(clash)}: please report this bug")
        self.changes.update(more)

    def set_theta(self, theta: float) -> None:
        """Move to another θ: the master's and the pricing MIP's objective coefficients change, every clause stays."""
        self.theta = float(theta)
        self._pending(self.master.set_theta(theta))
        if self.pricing is not None:
            self.pricing_theta = self.pricing.set_theta(theta)["objective"]

    def grow(self, max_iter: int) -> str:
        """The rounds at the current θ (at most ``max_iter``): solve the master LP, price, add clauses; the termination."""
        master, columns, settings, deadline = self.master, self.columns, self.settings, self.deadline
        self._shape(integer=False, cap=self.max_clauses)
        termination = Termination.max_iter
        log = IterationLog(logger, "CG", None, max_iter, n_solves=lambda: self.stats["solves"], started=self.started)
        best, stalled = math.inf, 0  # the lowest LP objective at this θ, and the LPs since it was last lowered
        wide = columns.n_features if settings.fallback_width is None else settings.fallback_width
        wide_left = settings.fallback_searches if wide > settings.beam_width else 0  # wide searches left at this θ
        for _ in range(max_iter):
            self.stats["rounds"] += 1
            result = self._solve(master.model, self.changes)
            self.changes = {}
            result.raise_for_status("the column generation master LP")
            self.lp_objective = result.objective
            log.iteration(self.stats["rounds"], None, self.lp_objective)
            lp = float(result.objective)
            if lp < best - STALL_TOLERANCE * max(1.0, abs(best) if math.isfinite(best) else 0.0):
                best, stalled = lp, 0
            else:
                stalled += 1
                if stalled >= settings.stall_rounds:
                    termination = Termination.no_improvement  # degenerate: the last clauses did not lower the LP
                    break
            mu, nu = master.duals()
            new = self._search(mu, nu, master, settings.columns_per_round)
            if not new and wide_left > 0:  # the narrow beam found none: once more with a wide first level
                wide_left -= 1
                new = self._search(mu, nu, master, settings.columns_per_round, first_width=wide)
            if not new:
                if deadline is not None and time.perf_counter() >= deadline:
                    termination = Termination.time_limit
                    break
                if not self.use_mip or self.pricing_left <= 0:
                    termination = Termination.no_improvement  # the beam found none; optimality over all clauses not proved
                    break
                if self.pricing is None:
                    self.pricing = build_cg_pricing(
                        columns, theta=self.theta, clause_cost=settings.clause_cost, max_length=settings.max_length,
                        aggregate=True,
                    )
                    self.stats["builds"] += 1
                    if self.model_hook is not None:
                        self.model_hook(self.pricing, "cg_pricing")
                pricing_changes = self.pricing.set_duals(mu, nu)
                if self.pricing_theta is not None:  # θ's new z costs and the duals' new δ costs in one declaration
                    z_vars, z_costs = self.pricing_theta
                    delta, delta_costs = pricing_changes["objective"]
                    pricing_changes = {"objective": ([*z_vars, *delta], np.concatenate([z_costs, delta_costs]))}
                    self.pricing_theta = None
                priced = self._solve(self.pricing.model, pricing_changes)  # to optimality (only a fit's time limit stops it)
                self.pricing_left -= 1
                if priced.has_solution:
                    clause = self.pricing.clause()
                    rc = columns.reduced_cost(clause, mu, nu, self.theta, settings.clause_cost)
                    if rc < -TOLERANCE and clause not in master:
                        new = [(rc, clause)]
                if not new:
                    # proved: no clause improves the LP; else the fit's time limit stopped the search
                    termination = Termination.converged if priced.is_optimal else Termination.no_improvement
                    break
            self._pending(master.add_clauses([clause for _, clause in new]))
            if deadline is not None and time.perf_counter() >= deadline:
                termination = Termination.time_limit
                break
        log.close(termination)
        self.termination = termination
        return termination

    def _shape(self, *, integer: bool, cap: int) -> None:
        """Make the master an integer program or an LP, with the cap ``R``; pending changes only for what differs."""
        if integer != self.integer:
            self._pending(self.master.set_integer(integer))
            self.integer = integer
        if cap != self.cap:
            self._pending(self.master.set_max_clauses(cap))
            self.cap = cap

    def select(self, n_clauses: int) -> CGRun:
        """The integer selection of at most ``n_clauses`` clauses at the current θ, as a :class:`CGRun`.

        The master stays an integer program with that cap until :meth:`grow`
        makes it the LP again (with the changes declared for its next solve).
        """
        master, columns, settings = self.master, self.columns, self.settings

        def integer_program() -> dict[str, Any]:
            self._shape(integer=True, cap=n_clauses)
            changes, self.changes = self.changes, {}
            return changes

        selection = _select(master, columns, self._solve, self.theta, settings, self.deadline, n_clauses, integer_program)[:n_clauses]
        objective = columns.objective([master.clauses[k] for k in selection], self.theta, settings.clause_cost)
        logger.info(
            "CG: %d rounds (%s), %d clauses generated, LP %.6g, selected %d clause(s), objective %.6g",
            self.stats["rounds"] - self._reported["rounds"], self.termination, len(master.clauses),
            self.lp_objective if self.lp_objective is not None else float("nan"), len(selection), objective,
        )
        counters = {key: self.stats[key] - self._reported[key] for key in self.stats}
        self._reported = dict(self.stats)
        return CGRun(
            clauses=list(master.clauses), selection=selection, objective=objective, lp_objective=self.lp_objective,
            termination=self.termination, n_rounds=int(counters["rounds"]), n_builds=int(counters["builds"]),
            n_solves=int(counters["solves"]), solver_seconds=float(counters["seconds"]),
        )

    def release(self) -> None:
        self.backend.release(self.master.model)
        if self.pricing is not None:
            self.backend.release(self.pricing.model)


def greedy_selection(
    covers: np.ndarray, weight: np.ndarray, cost: np.ndarray, max_clauses: int, starts: int = 1,
) -> list[int]:
    """A selection of at most ``max_clauses`` clauses by local search from greedy starts.

    Minimises ``Σ_g weight[g] [no selected clause covers g] + Σ_{k∈S} cost[k]``
    (the master's integer objective, :meth:`CGMaster.coverage`). From each
    start (the empty selection, then the ``starts - 1`` best single clauses),
    while one of them lowers the objective, the best move among adding a clause
    (below the cap), dropping one and swapping one for another is made; the
    best selection found is returned. From the empty start the first moves
    are greedy additions. Deterministic (ties go to the lowest index), a few
    vector operations per move; never worse than the best single clause.
    Returns the selected clause indices, ascending.
    """
    n_groups, n_clauses = covers.shape
    if n_clauses == 0 or max_clauses < 1:
        return []
    # A clause that does not pay for itself alone never does beside others (what it newly covers only shrinks):
    # the search runs over the clauses that do, and rows covered by the same of them count as one.
    candidates = np.flatnonzero(cost - weight @ covers.astype(float) < -TOLERANCE * max(1.0, float(weight.sum())))
    if candidates.size == 0:
        return []
    covers = covers[:, candidates]
    first, inverse = unique_rows(covers)
    patterns = covers[first]
    weight = np.bincount(inverse, weights=weight, minlength=patterns.shape[0])
    covers, cost, n_groups = patterns, cost[candidates], patterns.shape[0]
    cover_f = covers.astype(float)
    total = float(weight.sum())
    tolerance = TOLERANCE * max(1.0, total)

    def add_changes(counts: np.ndarray) -> np.ndarray:
        # objective change of adding each clause: its cost, less the weight it newly covers
        return cost - (weight * (counts == 0)) @ cover_f

    def descend(selected: list[int]) -> tuple[float, list[int]]:
        counts = cover_f[:, selected].sum(axis=1) if selected else np.zeros(n_groups)
        for _ in range(10 * max_clauses + 100):
            moves: list[tuple[float, int, int]] = []  # (change, drop, add); -1: none
            if len(selected) < max_clauses:
                changes = add_changes(counts)
                changes[selected] = np.inf
                k = int(np.argmin(changes))
                moves.append((float(changes[k]), -1, k))
            for k in selected:
                without = counts - cover_f[:, k]
                drop = float(weight[(without == 0) & (counts > 0)].sum()) - float(cost[k])
                moves.append((drop, k, -1))
                changes = add_changes(without)
                changes[selected] = np.inf
                j = int(np.argmin(changes))
                moves.append((drop + float(changes[j]), k, j))
            change, drop_k, add_k = min(moves)
            if change >= -tolerance:
                break
            if drop_k >= 0:
                selected.remove(drop_k)
                counts -= cover_f[:, drop_k]
            if add_k >= 0:
                selected.append(add_k)
                counts += cover_f[:, add_k]
        value = float(weight[counts == 0].sum() + cost[selected].sum())
        return value, sorted(selected)

    singles = add_changes(np.zeros(n_groups))
    firsts = np.argsort(singles, kind="stable")[: max(0, starts - 1)]
    best_value, best = descend([])
    for k in firsts.tolist():
        value, selected = descend([int(k)])
        if value < best_value - tolerance:
            best_value, best = value, selected
    return sorted(int(candidates[k]) for k in best)


def _remaining(deadline: float | None, limit: float | None) -> float | None:
    """Seconds for the next solve: ``limit`` (None: none), cut to what the fit's deadline leaves."""
    if deadline is None:
        return limit
    left = max(0.01, deadline - time.perf_counter())
    return left if limit is None else min(limit, left)


def _select(master: CGMaster, columns: ClauseColumns, solve: Any, theta: float, settings: CGSettings,
            deadline: float | None, max_clauses: int, integer_program: Callable[[], Mapping[str, Any]] | None = None,
            ) -> list[int]:
    """The final selection of at most ``max_clauses`` generated clauses (indices into ``master.clauses``).

    First :func:`greedy_selection` on the master's integer program (greedy,
    then local search; deterministic). With ``settings.selection == "mip"``
    the integer program is then solved (``selection_time_limit``,
    ``selection_gap``) and its selection kept unless the local search's is
    better (a MIP stopped at its time limit, or without a solution). Clauses
    that fail on no row to cover are dropped (they only cost).
    """
    def useful(selection: list[int]) -> list[int]:
        return [k for k in selection if columns.fails(master.clauses[k])[0].any()]

    def score(selection: list[int]) -> float:
        return columns.objective([master.clauses[k] for k in selection], theta, settings.clause_cost)

    local = useful(greedy_selection(*master.coverage(), max_clauses, starts=settings.selection_starts))
    if settings.selection != "mip":
        return local
    time_limit = _remaining(deadline, settings.selection_time_limit)
    try:
        # incumbent, bound and gap when it runs for seconds
        with MipReporter("CG selection MIP", time_limit) as progress:
            result = solve(
                master.model, master.set_integer(True) if integer_program is None else integer_program(),
                time_limit=time_limit, mip_gap=settings.selection_gap, progress=progress,
            )
        result.raise_for_status("the column generation integer selection")
        if result.termination.value == "time_limit":
            gap = ("unknown" if result.bound is None or result.objective is None
                   else f"{abs(result.objective - result.bound) / max(1e-10, abs(result.objective)):.2%}")
            warnings.warn(
                f"column generation: the integer selection over {len(master.clauses)} clauses stopped at its time limit "
                f"(gap {gap}): the rule may depend on the machine's speed; the default selection (local search) does "
                "not, and a larger theta gives fewer candidate clauses", TimeLimitWarning, stacklevel=2,
            )
    except SolveError as exc:
        logger.warning("CG: %s; keeping the local search's selection", exc)
        return local
    selection = useful(master.selection())
    if score(selection) > score(local) + TOLERANCE:
        logger.info("CG: the integer selection stopped at a worse rule than the local search's; keeping that one")
        return local
    return selection
