"""Binarization of fractional LP solutions (paper section "Redundancy Aware Binarization").

Two methods turn a fractional clause ``w`` (from an LP relaxation) into a
binary one:

- :func:`simple_binarize`: ``w_j > threshold`` (0.2 by default, the paper's SCS).
- :class:`RedundancyAwareBinarizer`: the paper's method (SCN; also used by TLP,
  BCD and AM). Within one clause, features of the same source column form
  *redundancy sets*: nested features (``a_j1 <= a_j2`` on every sample, e.g.
  ``x <= 3`` and ``x <= 5``) and, when clauses may be disabled, features whose
  OR is always true (complementary pairs like ``x <= 5``/``x > 5``, and the
  "zigzag" paths ``x > 1, x <= 5`` ...). An optimal clause holds at most one
  feature of a redundancy set. Source columns are taken in decreasing order of
  their LP mass ``Σ_j w_j``; for each, every non-redundant combination of its
  features is tried (the others keep their current values: binary for columns
  already done, fractional for the rest) and the one with the lowest objective
  is kept.

Choices where the paper is silent (documented in the user guide too, "The algorithms"):

- *Which objective* scores a combination: the objective of the LP that produced
  ``w`` (the one-level clause objective for SC/BCD/AM, the two-level TLP
  objective for TLP), evaluated with numpy, fractional entries included.
- *Redundancy is read off the training data* (the working matrix A): two
  columns of the same source are nested if one's ones are a subset of the
  other's, and "covering" if their OR is 1 on every sample. This also covers
  categorical and binary columns without special cases.
- *Ties* go to the combination closest (l1) to the LP values, then to fewer
  features, so an LP solution that is already binary and non-redundant is
  kept unchanged, as the paper requires.
- *Many combinations*: a source column whose non-redundant combinations
  exceed ``max_combinations`` (many categories) is binarized by the simple
  threshold instead (logged at DEBUG).
- *Solver noise*: with ``snap_noise=True`` (the solver-independent mode,
  on when the clause LPs have a tie-break) both methods first snap ``w``
  to multiples of ``10**-SNAP_DECIMALS`` (:func:`snap`). Solvers return the same LP vertex
  with different last digits (HiGHS ``1.0``, GLPK ``0.999999999999``), and
  without the snap that noise reordered source columns of equal LP mass
  and split score ties, so HiGHS, GLPK and CBC rounded one LP solution to
  different clauses (``docs/solvers.md``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import scipy.sparse as sp

logger = logging.getLogger(__name__)

__all__ = [
    "SNAP_DECIMALS", "RedundancyAwareBinarizer", "limit_literals", "non_redundant_combinations", "redundant_clauses",
    "simple_binarize", "snap",
    "tautological_clauses",
]

#: LP values are compared at this many decimals: far coarser than solver noise (about 1e-12 on the bundled data),
#: far finer than the differences between LP vertices (fractions with small denominators such as 1/2, 1/3).
SNAP_DECIMALS = 7

#: cost(current (d,), columns (g,), options (g, K)) -> costs (K,): the objective of ``current``
#: with its entries ``columns`` replaced by each column of ``options``
CandidateCost = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def snap(w: np.ndarray) -> np.ndarray:
    """``w`` clipped to [0, 1] and rounded to ``SNAP_DECIMALS`` decimals, so that solver noise in the last digits is gone.

    Parameters
    ----------
    w : array-like of float
        LP values (a fractional clause, or several).

    Returns
    -------
    ndarray of float
        The snapped values, of the shape of ``w`` (no ``-0.0``).
    """
    return np.round(np.clip(np.asarray(w, dtype=float), 0.0, 1.0), SNAP_DECIMALS) + 0.0  # + 0.0: no -0.0


def simple_binarize(w: np.ndarray, threshold: float = 0.2, *, snap_noise: bool = False) -> np.ndarray:
    """``1[w_j > threshold]`` (the paper's simple binarization, threshold 0.2 in SCS).

    With ``snap_noise`` the threshold is applied to the snapped ``w`` (:func:`snap`).

    Parameters
    ----------
    w : numpy.ndarray of shape (d,)
        The fractional clause.
    threshold : float, default=0.2
        A value above it selects its feature.
    snap_noise : bool, default=False
        Snap solver noise away first (:func:`snap`).

    Returns
    -------
    ndarray of float
        ``1[w_j > threshold]`` per feature.
    """
    return ((snap(w) if snap_noise else np.asarray(w, dtype=float)) > threshold).astype(float)


def limit_literals(clause: np.ndarray, w_lp: np.ndarray, max_literals: int | None, n_literals: int) -> np.ndarray:
    """The binary ``clause`` (d,) with at most ``max_literals`` of its first ``n_literals`` features (``max_literals_per_clause``).

    The clause LP holds ``Σ_j w_j ≤ k``, but rounding a fractional solution
    may select more than k features; the k kept are those with the largest LP
    values ``w_lp`` (ties: the lower index, the tie-break's preference). A
    clause within the budget (and every clause when ``max_literals`` is None)
    is returned unchanged. Features from ``n_literals`` on (the always-true
    feature) are no literal and are kept as they are.

    Parameters
    ----------
    clause : ndarray of shape (d,)
        The rounded binary clause.
    w_lp : ndarray of shape (d,)
        The clause's fractional LP values, which rank its features.
    max_literals : int or None
        The most literals a clause may have (``max_literals_per_clause``); None for no limit.
    n_literals : int
        The number of features that are literals (those after them are kept as they are).

    Returns
    -------
    ndarray of shape (d,)
        ``clause`` itself when within the budget, else a copy with the features of lowest ``w_lp`` dropped.
    """
    if max_literals is None:
        return clause
    selected = np.flatnonzero(clause[:n_literals] > 0.5)
    if selected.shape[0] <= max_literals:
        return clause
    order = np.lexsort((selected, -np.asarray(w_lp, dtype=float)[selected]))
    limited = clause.copy()
    limited[selected[order[max_literals:]]] = 0.0
    return limited


def redundant_clauses(A: np.ndarray, W: np.ndarray, groups: Sequence[object], *, allow_disable: bool = False) -> list[int]:
    """Find the CNF clauses of binary ``W`` (d, R) that change no prediction on the rows of ``A``.

    Clause r is redundant when it equals an earlier clause that is not
    redundant itself, or when the literals of one source column (``groups``)
    in it are true together on every row of ``A`` (``x > 3 OR x <= 5``,
    ``f OR not f``, ``x == a OR x != a``: in a DNF, a term such as
    ``x <= 3 AND x > 5`` that no row satisfies). Dropping such a clause keeps
    every training prediction and lowers the sparsity cost. When every clause
    is redundant the first one is not reported, so at least one clause remains.
    With ``allow_disable`` the last row of ``W`` is the always-true feature:
    clauses that select it are disabled already and are left alone.

    Parameters
    ----------
    A : ndarray of shape (n_samples, d)
        The binarized training rows (0/1), a column per row of ``W`` (the working data's ``A``: with
        ``allow_disable`` its last column is the always-true feature).
    W : ndarray of shape (d, R)
        The binary clauses, a column each.
    groups : sequence
        The source column of each row of ``W`` (the binarizer's groups; the working data's ``groups``).
    allow_disable : bool, default=False
        Whether the last row of ``W`` is the always-true feature.

    Returns
    -------
    list of int
        The indices of the redundant clauses, increasing.
    """
    selected = np.asarray(W) > 0.5
    disabled = selected[-1] if allow_disable else np.zeros(selected.shape[1], dtype=bool)
    covering = set(tautological_clauses(A, W, groups, allow_disable=allow_disable))
    kept: list[int] = []
    for r in range(selected.shape[1]):
        column = selected[:, r]
        duplicate = any(np.array_equal(column, selected[:, k]) for k in kept)
        if disabled[r] or not (duplicate or r in covering):
            kept.append(r)
    kept = kept or [0]
    return [r for r in range(selected.shape[1]) if r not in kept]


def tautological_clauses(A: np.ndarray, W: np.ndarray, groups: Sequence[object], *, allow_disable: bool = False) -> list[int]:
    """Find the CNF clauses of binary ``W`` (d, R) that one source column makes true on every row of ``A``.

    Clause r is such a *one-column tautology* when the literals of one source
    column (``groups``) in it are true together on every row: ``x <= 5 OR
    x > 5``, ``x > 3 OR x <= 5``, ``f OR not f``, ``x == a OR x != a``. On
    rows where that column is present it is always true, so it changes no
    training prediction; read as a rule it says ``x is not missing`` (its
    literals are all false where ``x`` is missing), a condition nothing in the
    training data supports. Every clause may be reported. With
    ``allow_disable`` the last row of ``W`` is the always-true feature:
    clauses that select it are disabled already and are not reported.

    Parameters
    ----------
    A : ndarray of shape (n_samples, d)
        The binarized training rows (0/1), a column per literal.
    W : ndarray of shape (d, R) or (d,)
        The binary clauses, a column each (a single clause as a vector).
    groups : sequence
        The source column of each literal (the binarizer's groups).
    allow_disable : bool, default=False
        Whether the last row of ``W`` is the always-true feature.

    Returns
    -------
    list of int
        The indices of the one-column tautologies, increasing.
    """
    selected = np.asarray(W) > 0.5
    if selected.ndim == 1:
        selected = selected[:, None]
    disabled = selected[-1] if allow_disable else np.zeros(selected.shape[1], dtype=bool)
    labels = np.asarray([str(g) for g in groups], dtype=object)
    dense = np.asarray(A) > 0.5
    found: list[int] = []
    for r in range(selected.shape[1]):
        column = selected[:, r]
        if disabled[r]:
            continue
        if any(dense[:, column & (labels == label)].any(axis=1).all() for label in set(labels[column])):
            found.append(r)
    return found


def non_redundant_combinations(
    columns: np.ndarray, compatible: np.ndarray, max_combinations: int
) -> np.ndarray | None:
    """All subsets of ``columns`` whose members are pairwise compatible, as a 0/1 matrix.

    Returns an array of shape (len(columns), K) (the empty set included), or
    None if there are more than ``max_combinations``.

    Parameters
    ----------
    columns : numpy.ndarray
        The feature indices of one source column.
    compatible : numpy.ndarray of bool, shape (len(columns), len(columns))
        Whether two of them may be in a clause together.
    max_combinations : int
        The most subsets to enumerate.

    Returns
    -------
    ndarray or None
        The 0/1 matrix of the subsets, or None when there are more than ``max_combinations``.
    """
    size = len(columns)
    subsets: list[list[int]] = []

    def extend(current: list[int], start: int) -> bool:
        subsets.append(current)
        if len(subsets) > max_combinations:
            return False
        for k in range(start, size):
            if all(compatible[k, m] for m in current):
                if not extend(current + [k], k + 1):
                    return False
        return True

    if not extend([], 0):
        return None
    matrix = np.zeros((size, len(subsets)))
    for index, subset in enumerate(subsets):
        matrix[subset, index] = 1.0
    return matrix


@dataclass
class _Group:
    columns: np.ndarray
    candidates: np.ndarray | None  # (len(columns), K) or None: fall back to the threshold


class RedundancyAwareBinarizer:
    """The paper's redundancy-aware binarization, prepared once per training matrix.

    Parameters
    ----------
    A : (n, d) 0/1 matrix
        The working (CNF) training features.
    groups : sequence of hashable, length d
        Source column of each feature (``Literal.feature``); features of one
        source form the candidate redundancy sets.
    allow_disable : bool
        Also treat pairs whose OR is always 1 as redundant (complementary pairs
        and zigzag paths; only valid when a clause can be disabled).
    max_combinations : int
        Above this many non-redundant combinations a source column falls back
        to the simple threshold.
    fallback_threshold : float
        Threshold of that fallback.

    Raises
    ------
    ValueError
        If ``groups`` does not have one label per feature.
    """

    def __init__(
        self,
        A: sp.spmatrix | np.ndarray,
        groups: Sequence[object],
        *,
        allow_disable: bool = False,
        max_combinations: int = 4096,
        fallback_threshold: float = 0.2,
    ):
        dense = cast("sp.spmatrix", A).toarray() if sp.issparse(A) else np.asarray(A)  # issparse is no type guard
        dense = dense.astype(bool)
        self.fallback_threshold = fallback_threshold
        self.groups: list[_Group] = []
        labels = np.asarray([str(g) for g in groups], dtype=object)
        if labels.shape[0] != dense.shape[1]:
            raise ValueError(f"{labels.shape[0]} group labels for {dense.shape[1]} features")
        for label in dict.fromkeys(labels.tolist()):
            columns = np.flatnonzero(labels == label)
            compatible = _compatibility(dense[:, columns], allow_disable)
            candidates = non_redundant_combinations(columns, compatible, max_combinations)
            if candidates is None:
                logger.debug("source %s has more than %d non-redundant combinations; using the threshold", label, max_combinations)
            self.groups.append(_Group(columns, candidates))

    def binarize(self, w: np.ndarray, cost: CandidateCost, *, snap_noise: bool = False) -> np.ndarray:
        """Binarize the fractional clause ``w`` (d,) using ``cost`` to score candidates.

        ``cost(current, columns, options)`` receives the clause as it stands
        (d,), one source column's feature indices and its K candidate
        combinations (len(columns), K), and returns the objective of
        ``current`` with those entries replaced by each candidate.

        Parameters
        ----------
        w : numpy.ndarray of shape (d,)
            The fractional clause.
        cost : callable
            Scores the candidates, as ``cost(current, columns, options)`` (see above).
        snap_noise : bool, default=False
            Snap solver noise away first (:func:`snap`); otherwise ``w`` is clipped to [0, 1].

        Returns
        -------
        ndarray of float of shape (d,)
            The binary clause (0.0 or 1.0 per feature).
        """
        w_lp = snap(w) if snap_noise else np.clip(np.asarray(w, dtype=float), 0.0, 1.0)  # noise must not reorder columns
        current = w_lp.copy()
        mass = [float(w_lp[group.columns].sum()) for group in self.groups]
        for index in np.argsort(-np.asarray(mass), kind="stable"):
            group = self.groups[index]
            cols = group.columns
            if np.all(w_lp[cols] == 0.0):
                continue
            if group.candidates is None:
                current[cols] = simple_binarize(w_lp[cols], self.fallback_threshold)
                continue
            values = cost(current, cols, group.candidates)
            distance = np.abs(group.candidates - w_lp[cols][:, None]).sum(axis=0)
            size = group.candidates.sum(axis=0)
            best = np.lexsort((size, distance, np.round(values, 9)))[0]
            current[cols] = group.candidates[:, best]
        return (current > 0.5).astype(float)


def _compatibility(columns: np.ndarray, allow_disable: bool) -> np.ndarray:
    """``compatible[k, m]``: features k and m may share a clause (not nested, not covering when disabling)."""
    as_int = columns.astype(np.int32)
    overlap = as_int.T @ as_int  # |k AND m|
    counts = as_int.sum(axis=0)
    nested = (overlap == counts[:, None]) | (overlap == counts[None, :])
    compatible = ~nested
    if allow_disable:
        n = columns.shape[0]
        union = counts[:, None] + counts[None, :] - overlap
        compatible &= union < n
    np.fill_diagonal(compatible, False)
    return compatible
