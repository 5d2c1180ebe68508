"""The beam search's weighted column sums over sets of rows (numpy only).

:func:`row_sums` gives, for row sets that shrink one feature at a time, the
sums ``Σ_{i ∈ S} weight_i · absent[i, :]`` (:class:`BitRowSums` counts bits
where the weights take few values, :class:`FloatRowSums` multiplies floats);
:func:`pair_sums` and :class:`PairSums` give those of every two-feature
clause at once. :mod:`rulemodels.algorithms.cg_beam` prices clauses with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "AbsentCopies", "BitRowSums", "FloatRowSums", "PairSums", "RowSums", "pair_sums", "row_sums",
]


PAIR_BLOCK_VALUES = 1 << 22
""":func:`pair_sums` converts at most this many 0/1 values to float at a time (32 MB)."""


def pair_sums(absent: np.ndarray, weight: np.ndarray, features: Sequence[int] | np.ndarray) -> np.ndarray:
    """``S[f, k] = Σ_i weight_i · absent[i, features[f]] · absent[i, k]``: the beam search's sums of every two-feature clause.

    Row ``f`` is what :meth:`RowSums.sums` gives for the rows where
    ``features[f]`` is absent (the clause of that one feature fails there),
    for all of them at once as matrix products over blocks of rows of
    positive weight (the same sums, added in another order).

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        ``absent[i, k]``: feature ``k`` is absent in row ``i`` (a clause with it fails there).
    weight : ndarray of shape (n,)
        The rows' weights (the pricing's duals or counts of identical samples); rows of weight 0 add nothing.
    features : sequence of int or ndarray of int
        The features ``f`` whose rows of sums to compute.

    Returns
    -------
    ndarray of shape (len(features), d)
        ``S[f, k]``, the weighted count of the rows where both ``features[f]`` and ``k`` are absent.
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

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        ``absent[i, k]``: feature ``k`` is absent in row ``i``.
    weight : ndarray of shape (n,)
        The rows' weights, the same in every call.
    """

    def __init__(self, absent: np.ndarray, weight: np.ndarray):
        self.absent = absent
        self.weight = weight
        d = absent.shape[1]
        integral = bool(np.all(weight == np.round(weight))) and float(np.abs(weight).sum()) < 2.0 ** 52
        self._keep = integral and d * d <= PAIR_CACHE_VALUES
        self._all: np.ndarray | None = None

    def rows(self, features: Sequence[int] | np.ndarray) -> np.ndarray:
        """Compute ``pair_sums(absent, weight, features)`` (from the kept sums of every feature when exact).

        Parameters
        ----------
        features : sequence of int or ndarray of int
            The features whose rows of pair sums to return.

        Returns
        -------
        ndarray of shape (len(features), d)
            The same numbers as :func:`pair_sums` of ``features``.
        """
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
        """Return the row set of every row (of positive weight).

        Returns
        -------
        object
            The state of the full row set.
        """
        raise NotImplementedError

    def narrow(self, rows: Any, j: int) -> Any:
        """Return the rows of ``rows`` where feature ``j`` is absent too (the clause with ``j`` added fails there).

        Parameters
        ----------
        rows : object
            A row set of this object (from :meth:`every_row` or :meth:`narrow`); it is not changed.
        j : int
            The feature added to the clause.

        Returns
        -------
        object
            The narrowed row set.
        """
        raise NotImplementedError

    def sums(self, rows: Any) -> np.ndarray:
        """Return ``Σ_{i ∈ rows} weight_i · absent[i, :]``, the weighted sums of the set's absent features.

        Parameters
        ----------
        rows : object
            A row set of this object.

        Returns
        -------
        ndarray of shape (d,)
            One weighted sum per feature.
        """
        raise NotImplementedError

    def total(self, rows: Any) -> float:
        """Return ``Σ_{i ∈ rows} weight_i``, the weight of a row set.

        Parameters
        ----------
        rows : object
            A row set of this object.

        Returns
        -------
        float
            The set's total weight.
        """
        raise NotImplementedError


def row_sums(absent: np.ndarray, weight: np.ndarray, route: str | None = None, copies: AbsentCopies | None = None) -> RowSums:
    """The sums of ``absent`` (bool, (n, d)) weighted by ``weight`` (n,): :class:`BitRowSums` when the weights take few values.

    Few (``route=None``): at least ``BIT_ROWS_PER_VALUE`` rows of positive
    weight per distinct positive weight (the master's duals take a handful
    of values on large data, shared by the rows of a group, and the weights of
    ``Z`` are counts of identical samples); else :class:`FloatRowSums`, the
    product of each set's rows made float (from ``copies`` of ``absent``
    when given). ``route="bits"`` or ``"float"`` chooses.

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        ``absent[i, k]``: feature ``k`` is absent in row ``i``.
    weight : ndarray of shape (n,)
        The rows' weights; rows of weight 0 are left out of every set.
    route : {None, "bits", "float"}, default=None
        Which implementation to use; None chooses by the number of distinct weights, as above.
    copies : AbsentCopies or None, default=None
        Float copies of ``absent`` for :class:`FloatRowSums` (:meth:`AbsentCopies.of`); None converts the rows
        of each set when it is summed.

    Returns
    -------
    RowSums
        A :class:`BitRowSums` or a :class:`FloatRowSums` of ``absent`` and ``weight``.

    Raises
    ------
    ValueError
        If ``route`` is not None, ``"bits"`` or ``"float"``.
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

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        The matrix to copy.
    """

    def __init__(self, absent: np.ndarray):
        self.floats = absent.astype(float)
        self.by_feature = np.ascontiguousarray(absent.T)

    @classmethod
    def of(cls, absent: np.ndarray) -> AbsentCopies | None:
        """Make the copies of ``absent``, or none above ``FLOAT_COPY_VALUES`` values.

        Parameters
        ----------
        absent : ndarray of bool, shape (n, d)
            The matrix to copy.

        Returns
        -------
        AbsentCopies or None
            The copies, or None when ``absent`` has more than ``FLOAT_COPY_VALUES`` values.
        """
        return cls(absent) if absent.size <= FLOAT_COPY_VALUES else None


class FloatRowSums(RowSums):
    """A row set is the indices of its rows; its sums are ``weight[rows] @ absent[rows]`` made float (one set at a time).

    Rows of weight 0 add nothing and are left out of every set (about two
    thirds of the rows to cover have a zero dual in a master LP). With
    ``copies`` (:class:`AbsentCopies` of ``absent``) the float rows and the
    narrowing columns are read from them: the same numbers.

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        ``absent[i, k]``: feature ``k`` is absent in row ``i``.
    weight : ndarray of shape (n,)
        The rows' weights.
    copies : AbsentCopies or None, default=None
        Float copies of ``absent`` to read the rows from; None converts each set's rows when it is summed.
    """

    def __init__(self, absent: np.ndarray, weight: np.ndarray, copies: AbsentCopies | None = None):
        self.absent = absent
        self.weight = weight
        self.copies = copies
        self._rows = np.flatnonzero(weight > 0)

    def every_row(self) -> np.ndarray:
        """Return the row set of every row of positive weight.

        Returns
        -------
        numpy.ndarray
            The indices of the rows of positive weight (a copy).
        """
        return self._rows.copy()

    def narrow(self, rows: np.ndarray, j: int) -> np.ndarray:
        """Return the rows of ``rows`` where feature ``j`` is absent too (the clause with ``j`` added fails there).

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: the indices of its rows; it is not changed.
        j : int
            The feature added to the clause.

        Returns
        -------
        numpy.ndarray
            The narrowed row set, the indices of those rows.
        """
        if self.copies is not None:
            return rows[self.copies.by_feature[j][rows]]
        return rows[self.absent[rows, j]]

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """Return ``Σ_{i ∈ rows} weight_i · absent[i, :]``, the weighted sums of the set's absent features.

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: the indices of its rows.

        Returns
        -------
        numpy.ndarray of shape (d,)
            One weighted sum per feature: ``weight[rows] @ absent[rows]`` made float.
        """
        if self.copies is not None:
            return self.weight[rows] @ self.copies.floats[rows]
        return self.weight[rows] @ _as_float(self.absent, rows)

    def total(self, rows: np.ndarray) -> float:
        """Return ``Σ_{i ∈ rows} weight_i``, the weight of a row set.

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: the indices of its rows.

        Returns
        -------
        float
            The set's total weight.
        """
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

    Parameters
    ----------
    absent : ndarray of bool, shape (n, d)
        ``absent[i, k]``: feature ``k`` is absent in row ``i``.
    sorted_rows : ndarray of int
        The rows of positive weight, ordered by weight.
    values : ndarray of float
        The distinct positive weights, increasing.
    sizes : ndarray of int
        How many of ``sorted_rows`` have each of ``values``.
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
        self._count: np.ndarray = np.empty(self.words.shape if _bitwise_count is not None else (d, 8 * self.words.shape[1]), np.uint8)

    def every_row(self) -> np.ndarray:
        """Return the row set of every row of positive weight.

        Returns
        -------
        numpy.ndarray
            The ``(W,)`` uint64 words with a bit set for every row of positive weight (a copy).
        """
        return self._rows.copy()

    def narrow(self, rows: np.ndarray, j: int) -> np.ndarray:
        """Return the rows of ``rows`` where feature ``j`` is absent too (the clause with ``j`` added fails there).

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: its ``(W,)`` uint64 words, a bit per row; it is not changed.
        j : int
            The feature added to the clause.

        Returns
        -------
        numpy.ndarray
            The narrowed row set, its words AND feature ``j``'s column.
        """
        return rows & self.words[j]

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """Return ``Σ_{i ∈ rows} weight_i · absent[i, :]``, the weighted sums of the set's absent features.

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: its ``(W,)`` uint64 words, a bit per row.

        Returns
        -------
        numpy.ndarray of shape (d,)
            One weighted sum per feature: the popcounts of the set's words AND each column, summed per weight, times the weights.
        """
        if self.values.shape[0] == 0:
            return np.zeros(self.words.shape[0])
        np.bitwise_and(self.words, rows, out=self._and)
        return self._weigh(self._counts(self._and, self._count))

    def total(self, rows: np.ndarray) -> float:
        """Return ``Σ_{i ∈ rows} weight_i``, the weight of a row set.

        Parameters
        ----------
        rows : numpy.ndarray
            A row set of this object: its ``(W,)`` uint64 words, a bit per row.

        Returns
        -------
        float
            The set's total weight.
        """
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

