"""Where a numeric column's thresholds go: quantiles, and the cut points of a one-column classification tree.

The threshold placement of :class:`~rulemodels.data.FeatureBinarizer` (its
``thresholds`` and ``round_thresholds`` parameters), on sorted values or on
value counts (:class:`_RepeatedValues`, a fit from per-column summaries). Pure
numpy: no pandas, no knowledge of columns or literals.

A column of narrower floats (``float32``, ``float16``: the ``precision`` arguments) gets thresholds in
its own precision: a decimal ``t`` in the lower half of the gap after one of its values ``c``
(:func:`_splits_alike`), so ``x <= t`` is ``x <= c`` for every value ``x`` of that dtype whether an
engine compares in the column's precision (pandas on a ``float32`` column, DuckDB ``FLOAT``), in
float64 (``predict``, SQLite) or exactly, and whichever of them parses the printed ``t``.
"""

from __future__ import annotations

import decimal
import heapq
import math
from fractions import Fraction
from typing import Any

import numpy as np

from rulemodels import defaults

__all__: list[str] = []


def _linear_quantiles(values: np.ndarray, n_thresholds: int) -> np.ndarray:
    """Quantiles of sorted ``values`` at levels ``k / (K + 1)``, ``k = 1..K``, by linear interpolation.

    The definition of ``numpy.quantile(values, levels)`` (method 'linear':
    position ``h = (n - 1) q`` between the sorted values), with two guarantees
    that plain floating point and plain rounding lack:

    - the position is computed exactly (fractions), so a level that falls on a
      data value gives exactly that value;
    - a threshold between consecutive values ``a < b`` stays in ``[a, b)``: it
      is the quantile rounded to 12 significant digits when that rounding stays
      in ``[a, b)`` (``20.2``, not ``20.200000000000003``; the thresholds of
      earlier releases), and the exact quantile otherwise (close values such as
      timestamps ``123456789012.249`` / ``.250`` are never merged).
    """
    n = len(values)
    out = np.empty(n_thresholds)
    for k in range(1, n_thresholds + 1):
        position = Fraction((n - 1) * k, n_thresholds + 1)
        low = math.floor(position)
        share = position - low
        a = float(values[low])
        if share == 0 or a == float(values[low + 1]):
            out[k - 1] = a
            continue
        b = float(values[low + 1])
        # numpy's lerp: interpolate from the nearer end
        t = a + (b - a) * float(share) if share < Fraction(1, 2) else b - (b - a) * float(1 - share)
        t = min(max(t, a), float(np.nextafter(b, -np.inf)))
        short = float(f"{t:.12g}")
        out[k - 1] = short if a <= short < b else t
    return out


def _floor_in(value: decimal.Decimal, precision: np.dtype) -> np.floating:
    """The largest number of float dtype ``precision`` at or below the exact decimal ``value``."""
    up, down = precision.type(np.inf), precision.type(-np.inf)
    found = precision.type(float(value))  # float64 first: at most one step off
    while math.isfinite(found) and decimal.Decimal(float(found)) > value:
        found = np.nextafter(found, down)
    while math.isfinite(following := np.nextafter(found, up)) and decimal.Decimal(float(following)) <= value:
        found = following
    return found


def _nearest_in(value: decimal.Decimal, precision: np.dtype) -> decimal.Decimal:
    """The exact decimal ``value`` rounded to float dtype ``precision`` (to nearest, ties to even), exactly."""
    below = _floor_in(value, precision)
    above = np.nextafter(below, precision.type(np.inf))
    low, high = decimal.Decimal(float(below)), decimal.Decimal(float(above))
    if value - low != high - value:
        return low if value - low < high - value else high
    return low if int(below.view(f"u{precision.itemsize}")) % 2 == 0 else high


#: The float dtypes a threshold is parsed into, narrowest first: any of them may read a printed threshold.
_PARSED_AS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _splits_alike(value: float, precision: np.dtype) -> bool:
    """Whether threshold ``value`` splits every number of float dtype ``precision`` alike however it is read.

    It does when its printed text ``repr(value)`` (and ``value`` itself) lies in the lower half of the gap
    after a number ``c`` of that dtype, ``c <= t < (c + next(c)) / 2``, and so does the text rounded to
    any wider float: then ``x <= t`` is ``x <= c`` for every ``x`` of the dtype, compared exactly, in
    float64 after widening ``x``, or in the dtype itself after rounding ``t`` to it (which gives ``c``).
    A decimal in the upper half rounds up to ``next(c)``: ``0.4`` on a ``float32`` column is read as
    ``0.4000000059604645`` by an engine that compares in float32, and as ``0.4`` by one that widens the
    column, so the two disagree on the rows that show ``0.4``.
    """
    with decimal.localcontext() as context:
        context.prec = 1200
        text = decimal.Decimal(repr(value))
        floor = _floor_in(text, precision)
        following = np.nextafter(floor, precision.type(np.inf))
        if not math.isfinite(following):
            return False
        middle = (decimal.Decimal(float(floor)) + decimal.Decimal(float(following))) / 2
        if not (decimal.Decimal(value) < middle and text < middle):
            return False
        wider = [dtype for dtype in _PARSED_AS if dtype.itemsize > precision.itemsize and dtype.itemsize < 8]
        return all(_nearest_in(text, dtype) < middle for dtype in wider)


def _in_precision(value: float, precision: np.dtype | None) -> float:
    """A threshold ``value`` written in the column's own ``precision``: the decimal of fewest significant
    digits that :func:`_splits_alike` in the gap of the largest number of that dtype at or below ``value``
    (``value`` itself for float64, ``precision`` None)."""
    if precision is None:
        return value
    floor = _floor_in(decimal.Decimal(value), precision)
    return _shortest_between(float(floor), float(np.nextafter(floor, precision.type(np.inf))), float(floor), precision)


def _shortest_between(a: float, b: float, near: float, precision: np.dtype | None = None) -> float:
    """The number of fewest significant digits in ``[a, b)`` (``a < b``: consecutive training values), the
    nearest to ``near`` among those (the lower on a tie).

    A threshold anywhere in ``[a, b)`` splits the training values alike (``x <= t`` holds for ``a`` and not
    for ``b``), so the shortest one reads best and predicts every training row as any other would: between
    1249.78773752 and 1251.3 it is 1250, between 1799.3 and 1801.7 it is 1800, between 21 and 22 it is 21.
    The decimal is the shortest whose float lies in ``[a, b)``; when ``b`` is the float right after ``a``
    that is ``a`` itself (two distinct training values are never merged).

    ``precision`` (``float32``, ``float16``: the column's dtype; ``a`` and ``b`` are numbers of it) keeps
    only decimals that :func:`_splits_alike` in it, so the printed threshold splits the column's numbers
    alike in every engine: between 0.3 and 0.4 in float32 it is 0.35, not 0.4 (which float32 reads as
    its 0.4, the upper training value).
    """
    if a <= 0.0 < b:
        return 0.0
    with decimal.localcontext() as context:
        context.prec = 1200  # exact: a double has at most 767 significant decimal digits
        if precision is None:  # decimals above the midpoint of a and the float below it round to a or above
            below = math.nextafter(a, -math.inf)  # -inf below the most negative float
            low = (decimal.Decimal(a) + decimal.Decimal(below)) / 2 if math.isfinite(below) else decimal.Decimal(a)
        else:
            low = decimal.Decimal(a)
        high = decimal.Decimal(b)
        exponent = math.floor(math.log10(max(abs(a), abs(b)))) + 1
        while True:
            quantum = decimal.Decimal(1).scaleb(exponent)
            candidate = low.quantize(quantum, rounding=decimal.ROUND_CEILING)
            found = []
            while candidate < high:
                value = float(candidate)
                if a <= value < b and (precision is None or _splits_alike(value, precision)):
                    found.append(value)
                candidate += quantum
            if found:
                return min(found, key=lambda value: (abs(value - near), value))
            if precision is not None and (high - low) / quantum > 1000:
                # none of many decimals splits alike (each in the upper half of its gap): look in a's gap
                # only, whose lower half holds one at a finer quantum, rather than at ever more decimals
                high = min(high, decimal.Decimal(float(np.nextafter(precision.type(a), precision.type(np.inf)))))
            exponent -= 1


def _shorten(
    thresholds: np.ndarray, distinct: np.ndarray, maximum: float, precision: np.dtype | None = None,
) -> np.ndarray:
    """Each threshold replaced by :func:`_shortest_between` the training values around it.

    ``distinct`` are the sorted distinct values the thresholds were placed among and ``maximum`` the
    column's largest value (every threshold is below it); ``precision``: the column's float dtype when
    narrower than float64 (:func:`_splits_alike`)."""
    upper = np.searchsorted(distinct, thresholds, side="right")
    out = np.empty(thresholds.size)
    for k, (t, i) in enumerate(zip(thresholds.tolist(), upper.tolist())):
        a = float(distinct[i - 1]) if i > 0 else t
        b = float(distinct[i]) if i < distinct.size else maximum
        if a < b and math.isfinite(b):
            out[k] = _shortest_between(a, b, t, precision)
        else:  # b infinite: no neighbour
            out[k] = _in_precision(t, precision)
    return out


def _tree_cuts(
    values: np.ndarray, codes: np.ndarray, weights: np.ndarray, n_classes: int, max_leaves: int,
    min_leaf_share: float = defaults.TREE_MIN_LEAF_SHARE, shortest: bool = True, min_leaf_weight: float = 0.0,
    precision: np.dtype | None = None,
) -> np.ndarray:
    """Cut points of a one-column classification tree (CART, Gini impurity) with at most ``max_leaves`` leaves.

    ``values`` are one column's finite present values (of rows with positive weight), ``codes`` their class indices (``0 .. n_classes - 1``)
    and ``weights`` their sample weights. The tree grows best first (the leaf whose best split lowers the
    weighted Gini impurity most is split next, as a tree with ``max_leaf_nodes`` does) over the distinct
    values, so tied values stay together; a split must lower the impurity and leave each side at least
    ``min_leaf_share`` of the column's weight and at least ``min_leaf_weight`` (no cut that isolates a few
    rows: a literal must fix a share of the training weight, and at least a floor of rows, to pay its cost θ
    anyway; ``docs/theta.md``, "A floor in rows"). Each cut lies between two
    consecutive distinct values ``a < b``: the number of fewest significant digits in ``[a, b)`` nearest
    their midpoint (:func:`_shortest_between`), or with ``shortest=False`` the midpoint itself; on a
    column of narrower floats (``precision``) both in its own precision (:func:`_in_precision`).
    Deterministic: ties between splits go to the lower value. Returns the cuts ascending.
    """
    distinct, inverse = np.unique(values, return_inverse=True)
    m = distinct.size
    if m <= 1 or max_leaves <= 1:
        return np.empty(0)
    counts = np.zeros((m, n_classes))
    np.add.at(counts, (inverse, codes), weights)
    cumulative = np.vstack([np.zeros((1, n_classes)), np.cumsum(counts, axis=0)])
    min_leaf = max(min_leaf_share * float(cumulative[-1].sum()), float(min_leaf_weight), 0.0)

    def best_split(lo: int, hi: int) -> tuple[float, int] | None:
        """(gain, s) of the best split of the node of distinct values ``lo .. hi - 1`` into ``lo .. s - 1`` and ``s .. hi - 1``."""
        if hi - lo < 2:
            return None
        total = cumulative[hi] - cumulative[lo]
        weight = total.sum()
        if weight <= 0:
            return None
        left = cumulative[lo + 1 : hi] - cumulative[lo]
        right = total - left
        left_weight, right_weight = left.sum(axis=1), right.sum(axis=1)
        valid = (left_weight > 0) & (right_weight > 0) & (left_weight >= min_leaf) & (right_weight >= min_leaf)
        with np.errstate(divide="ignore", invalid="ignore"):  # weight x (1 - Gini) of the two children
            purity = np.where(valid, (left**2).sum(axis=1) / left_weight + (right**2).sum(axis=1) / right_weight, -np.inf)
        k = int(np.argmax(purity))
        gain = float(purity[k] - (total**2).sum() / weight)
        if not valid[k] or gain <= 1e-12 * weight:
            return None
        return gain, lo + k + 1

    heap: list[tuple[float, int, int, int]] = []

    def push(lo: int, hi: int) -> None:
        found = best_split(lo, hi)
        if found is not None:
            heapq.heappush(heap, (-found[0], lo, hi, found[1]))

    push(0, m)
    splits: list[int] = []
    while heap and len(splits) < max_leaves - 1:
        _, lo, hi, s = heapq.heappop(heap)
        splits.append(s)
        push(lo, s)
        push(s, hi)
    cuts = []
    for s in sorted(splits):
        a, b = float(distinct[s - 1]), float(distinct[s])
        middle = min(max(a / 2 + b / 2, a), float(np.nextafter(b, -np.inf)))  # in [a, b) also when b follows a
        cuts.append(_shortest_between(a, b, middle, precision) if shortest else _in_precision(middle, precision))
    return np.asarray(cuts, dtype=float)


class _RepeatedValues:
    """Sorted distinct values with counts, read as the sorted array ``np.repeat(values, counts)`` without
    building it (``len`` and integer indexing: what :func:`_linear_quantiles` reads)."""

    def __init__(self, values: np.ndarray, counts: np.ndarray) -> None:
        self._values = values
        self._ends = np.cumsum(counts)

    def __len__(self) -> int:
        return int(self._ends[-1]) if self._ends.size else 0

    def __getitem__(self, position: int) -> Any:
        return self._values[int(np.searchsorted(self._ends, position, side="right"))]
