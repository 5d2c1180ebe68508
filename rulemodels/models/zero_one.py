"""The two-level 0-1 error model (paper eq. (4.14) GeneralLPFormulation) and its LP relaxation TLP.

For a CNF with R clauses, ``v_ir = OR_j a_ij w_jr`` and ``ŷ_i = AND_r v_ir``:

.. math::

    \\min\\ \\sum_i \\omega_i \\psi_i + \\theta \\sum_r \\sum_j c_j w_{jr}

    \\psi_i \\ge 1 - \\sum_j a_{ij} w_{jr} \\quad (y_i = 1,\\ \\forall r)

    \\psi_i \\ge \\sum_r \\beta_{ir} - (R - 1) \\quad (y_i = 0)

    \\beta_{ir} \\ge a_{ij} w_{jr} \\quad (y_i = 0,\\ a_{ij} = 1,\\ \\forall r)

    \\psi_i \\ge 0, \\quad w_{jr} \\in \\{0, 1\\}

With binary ``w`` the optimum has ``ψ_i = |ŷ_i − y_i|`` (eq. (3.7) StdFormulation):
a positive costs 1 when any clause is 0 (concave interpolation of AND-of-OR),
a negative costs 1 when every clause is 1 (convex interpolation, with
``β_ir`` = the clause output). ``relax=True`` gives TLP, ``0 <= w <= 1``.
Rows ``beta_def`` exist only for the nonzero ``a_ij`` of negative samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyomo.environ as pyo

from rulemodels.models._build import TwoLevelModel, build_two_level, clause_sum_rule
from rulemodels.models._data import SampleGroups

__all__ = ["DEFAULT_SYMMETRY", "build_zero_one", "conflict_pairs"]


def build_zero_one(
    A: Any,
    y: Any,
    n_clauses: int,
    *,
    theta: float,
    relax: bool = False,
    sample_weight: Any = None,
    feature_cost: Any = None,
    disable_cost: float | None = None,
    merge_identical: bool = True,
    forbidden: Any = None,
    max_literals: int | None = None,
    counted: int | None = None,
    symmetry: str | None = "auto",
    chains: Sequence[Sequence[int]] | None = None,
    conflicts: bool | None = None,
) -> TwoLevelModel:
    """Build (not solve) the two-level 0-1 error MIP, or TLP with ``relax=True``.

    Parameters
    ----------
    A, y : array-like
        The binary features (n, d) and the 0/1 labels (n,) (CNF: 1 = all clauses true).
    n_clauses : int
        R, the number of clauses (>= 1).
    theta : float
        Sparsity weight θ (mutable Param).
    relax : bool, default=False
        ``0 <= w <= 1`` (TLP) instead of binary ``w`` (the exact MIP).
    sample_weight, feature_cost : optional
        ω_i (summed over identical rows; default 1) and c_j (default 1), as in the clause LP.
    disable_cost : float, optional
        Add the always-true feature (variables ``w0[r]``, cost ``c0``): ``w0[r] = 1``
        disables clause r (paper section 3).
    forbidden : sequence of int, optional
        Features j with ``w_jr = 0`` in every clause (constraint
        ``forbidden_literal[j, r]``; the domain constraints' forbidden columns and monotone
        directions, ``docs/constraints.md``).
    max_literals : int, optional
        At most this many features per clause (constraint ``max_literals[r]``,
        ``Σ_j w_jr ≤ k``, with the mutable Param ``k_max``).
    counted : int, optional
        How many leading features ``max_literals`` counts (default all; the
        drivers' always-true feature, appended last, is no literal).
    merge_identical : bool, default=True
        One row per group of identical samples (weights summed); False: one row per sample.
    symmetry : {"auto", "count", "index"} or None, default="auto"
        Put the clauses in an order (constraint ``clause_order[r]``, Param
        ``o``; :func:`~rulemodels.models._build.declare_clause_cuts`): by their
        number of literals (``"count"``) or by the sum of their feature indices
        plus one (``"index"``). ``"auto"``: :data:`DEFAULT_SYMMETRY` (none, by measurement).
        Clauses are interchangeable, so it removes copies of a rule, never an objective value.
    chains : sequence of sequences of int, optional
        Threshold chains: features whose columns are nested on the rows
        (:meth:`CNFProblem.threshold_chains`), checked; at most one of each
        chain per clause (constraint ``chain_literal[h, r]``, Set ``chain``):
        a nested literal adds nothing to a clause and costs θ c_j.
    conflicts : bool or None, default=None
        Add ``conflict[i, k]``: ``ψ_i + ψ_k ≥ 1`` for every positive group i
        and negative group k (both of positive weight) whose allowed features
        (not ``forbidden``) are among k's: the CNF is monotone in the features,
        so it is true on k when it is true on i, and errs on one of them
        (identical rows of both labels are the commonest case). It holds at
        every binary ``w``, whatever else constrains it. None: on for the MIP,
        off for TLP (the paper's relaxation stays the paper's).

    Returns
    -------
    TwoLevelModel
        Its ``model`` has ``J``, ``R`` (clauses r), ``P``/``N`` (positive/negative
        sample groups), ``w``, ``psi``, ``beta``, ``pos_error``, ``neg_error``,
        ``beta_def``, ``accuracy_cost``, ``sparsity_cost``, ``objective``; with
        ``forbidden`` / ``max_literals`` also ``forbidden_literal`` / ``k_max`` and ``max_literals``.
    """
    if symmetry == "auto":
        symmetry = None if relax else DEFAULT_SYMMETRY
    if conflicts is None:
        conflicts = not relax
    handle = build_two_level(
        "tlp" if relax else "zero_one_mip", A, y, n_clauses, declare_errors=_declare_errors,
        accuracy_doc="Σ_i ω_i ψ_i", objective_doc="eq. (4.14) GeneralLPFormulation",
        theta=theta, relax=relax, sample_weight=sample_weight, feature_cost=feature_cost, disable_cost=disable_cost,
        merge_identical=merge_identical, forbidden=forbidden, max_literals=max_literals, counted=counted,
        symmetry=symmetry, chains=chains,
    )
    if conflicts:
        _declare_conflicts(handle.model, handle.groups, forbidden)
    return handle


#: The clause order of the 0-1 MIP by default (``symmetry="auto"``): none. Measured
#: (``benchmarks/studies/exact_strength.py``, ``docs/guide/models.md``), the order slowed HiGHS's proofs
#: (5.4 s to over 12 s on a 20-row liver sample) and changed little for CBC.
DEFAULT_SYMMETRY: str | None = None


def conflict_pairs(groups: SampleGroups, weight: np.ndarray, forbidden: Any = None) -> list[tuple[int, int]]:
    """The pairs (positive group i, negative group k), both of positive weight, where every allowed feature of i is one of k's.

    ``forbidden`` features are left out of both rows (no clause can use them).
    The CNF's output is monotone in the row's features, so it is true on k
    whenever it is true on i: one of the two is misclassified.

    Parameters
    ----------
    groups : SampleGroups
        The model's groups of identical samples.
    weight : numpy.ndarray of shape (n_groups,)
        The weight of each group; groups of weight 0 are in no pair.
    forbidden : sequence of int, optional
        Features no clause may use.

    Returns
    -------
    list of tuple of int
        The pairs ``(i, k)``, by positive group, then negative group.
    """
    patterns = groups.patterns.tocsc()
    allowed = np.ones(patterns.shape[1], dtype=bool)
    if forbidden is not None and len(forbidden):
        allowed[np.asarray(forbidden, dtype=int)] = False
    patterns = patterns[:, np.flatnonzero(allowed)].tocsr().astype(np.int32)
    positives = groups.positives[weight[groups.positives] > 0]
    negatives = groups.negatives[weight[groups.negatives] > 0]
    if not len(positives) or not len(negatives):
        return []
    sizes = np.diff(patterns.indptr)
    negative_rows = patterns[negatives].T.tocsc()
    pairs: list[tuple[int, int]] = []
    for start in range(0, len(positives), _CONFLICT_BLOCK):
        block = positives[start:start + _CONFLICT_BLOCK]
        shared = (patterns[block] @ negative_rows).toarray()  # features each positive shares with each negative
        rows, columns = np.nonzero(shared == sizes[block][:, None])  # an empty positive row is within every negative
        pairs.extend((int(block[a]), int(negatives[b])) for a, b in zip(rows.tolist(), columns.tolist()))
    return pairs


#: Positive groups compared with every negative group at once when looking for conflicts.
_CONFLICT_BLOCK = 512


def _declare_conflicts(m: pyo.ConcreteModel, groups: SampleGroups, forbidden: Any) -> None:
    """Set ``conflict_pairs`` and ``conflict[i, k]``: ``ψ_i + ψ_k ≥ 1`` (see :func:`conflict_pairs`)."""
    weight = np.zeros(groups.n_groups)
    for i, value in m.weight.items():
        weight[i] = pyo.value(value)
    pairs = conflict_pairs(groups, weight, forbidden)
    if not pairs:
        return
    m.conflict_pairs = pyo.Set(
        initialize=pairs, dimen=2, doc="(i, k): positive i, negative k, i's allowed features among k's (a rule errs on one)",
    )
    m.conflict = pyo.Constraint(
        m.conflict_pairs, rule=lambda model, i, k: model.psi[i] + model.psi[k] >= 1,
        doc="ψ_i + ψ_k ≥ 1: the rule is monotone in the features, so it errs on i or on k (valid inequality)",
    )


def _declare_errors(m: pyo.ConcreteModel, groups: SampleGroups, has_w0: bool) -> Any:
    """``psi``, ``beta`` and the constraints bounding them; the accuracy term ``Σ_i ω_i ψ_i``."""
    indptr, indices = groups.patterns.indptr, groups.patterns.indices
    m.psi = pyo.Var(m.P | m.N, domain=pyo.NonNegativeReals, doc="ψ_i: 0-1 error cost of sample i (eq. (4.14) GeneralLPFormulation)")
    m.beta = pyo.Var(m.N, m.R, bounds=(0, 1), doc="β_ir ≥ output of clause r on negative sample i")
    clause_sum = clause_sum_rule(groups, has_w0)

    m.pos_error = pyo.Constraint(
        m.P, m.R, rule=lambda model, i, r: model.psi[i] + clause_sum(model, i, r) >= 1,
        doc="ψ_i ≥ 1 − Σ_j a_ij w_jr for y_i = 1, all r (eq. (4.14))",
    )
    m.neg_error = pyo.Constraint(
        m.N, rule=lambda model, i: model.psi[i] >= sum(model.beta[i, r] for r in model.R) - (len(model.R) - 1),
        doc="ψ_i ≥ Σ_r β_ir − (R − 1) for y_i = 0 (eq. (4.14))",
    )
    beta_index = [(int(i), int(j), r) for i in groups.negatives for j in indices[indptr[i]:indptr[i + 1]] for r in range(len(m.R))]
    m.beta_def = pyo.Constraint(
        beta_index, rule=lambda model, i, j, r: model.beta[i, r] >= model.w[j, r],
        doc="β_ir ≥ a_ij w_jr for y_i = 0 (rows only where a_ij = 1; eq. (4.14))",
    )
    if has_w0:
        m.beta_def0 = pyo.Constraint(m.N, m.R, rule=lambda model, i, r: model.beta[i, r] >= model.w0[r], doc="β_ir ≥ a_i0 w_0r")
    return sum(m.weight[i] * m.psi[i] for i in m.P | m.N)
