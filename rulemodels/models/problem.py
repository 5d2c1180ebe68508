"""The CNF learning problem behind every learner, and the map from solutions to rules.

All models learn a CNF (paper sections 3-4). A DNF is learned through De Morgan
(paper section 3): negate every feature and every label, learn a CNF on the
negated data, then read the selected ``w_jr`` as the terms of a DNF over the
*original* features:

.. math::

    \\bar y = \\bigwedge_r \\bigvee_{j \\in C_r} \\bar a_j
    \\iff y = \\bigvee_r \\bigwedge_{j \\in C_r} a_j .
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp

from rulemodels.models._data import as_binary_csr, as_labels, as_weights
from rulemodels.rules import Clause, Literal, Rule

__all__ = ["CNFProblem"]

FORMS = ("cnf", "dnf")


@dataclass(frozen=True, eq=False)
class CNFProblem:
    """Binary data prepared for CNF learning, and how to read the result back.

    Parameters
    ----------
    A : csr_matrix (n, d)
        The features the CNF is learned on (the negated features for a DNF).
    y : ndarray (n,)
        The labels the CNF predicts (the negated labels for a DNF).
    literals : tuple of Literal
        The original literal of each column.
    form : {"cnf", "dnf"}
        The form of the rule the user asked for.
    sample_weight : ndarray (n,)
        The weight of each row (ω).
    """

    A: sp.csr_matrix
    y: np.ndarray
    literals: tuple[Literal, ...]
    form: str
    sample_weight: np.ndarray

    @classmethod
    def from_binary(
        cls, A: Any, y: Any, *, literals: Sequence[Literal] | None = None, form: str = "dnf", sample_weight: Any = None
    ) -> CNFProblem:
        """Prepare binary ``A`` (n, d) and 0/1 ``y`` for learning a rule of ``form``.

        A DNF is learned as the CNF of the negated features with the labels
        flipped (paper section 3): the problem's ``A`` and ``y`` are then those.

        Parameters
        ----------
        A : array-like or scipy.sparse matrix of 0/1, shape (n, d)
            The binary features ``a_ij``.
        y : array-like of 0/1, shape (n,)
            The labels; ``y = 1`` is the class the rule predicts as true.
        literals : sequence of Literal or None, default=None
            The literal of each column of ``A``; None: ``x0``, ``x1``, ... as ``is_true`` literals.
        form : {"dnf", "cnf"}, default="dnf"
            The form of the rule to learn.
        sample_weight : array-like of shape (n,) or None, default=None
            The weights ``ω_i`` of the rows; None: 1 each.

        Returns
        -------
        CNFProblem
            The problem in CNF terms: the (negated, for a DNF) binary CSR matrix, the (flipped) labels, the
            literals, the form and the weights.

        Raises
        ------
        ValueError
            If ``form`` is not ``"cnf"`` or ``"dnf"``, ``literals`` does not name every column of ``A``, or
            ``A``, ``y`` or ``sample_weight`` is not 0/1, labels or non-negative weights of the right length.
        """
        if form not in FORMS:
            raise ValueError(f"form must be 'cnf' or 'dnf', got {form!r}")
        matrix = as_binary_csr(A, negate=form == "dnf")  # DNF: De Morgan on the literals, labels flipped below
        labels = as_labels(y, matrix.shape[0])
        weights = as_weights(sample_weight, matrix.shape[0])
        if literals is None:
            literals = [Literal(f"x{j}", "is_true") for j in range(matrix.shape[1])]
        literals = tuple(literals)
        if len(literals) != matrix.shape[1]:
            raise ValueError(f"{len(literals)} literals given for {matrix.shape[1]} columns of A")
        if form == "dnf":
            labels = (1 - labels).astype(np.int8)
        return cls(matrix, labels, literals, form, weights)

    @property
    def n_samples(self) -> int:
        """Number of rows n of ``A``."""
        return int(self.A.shape[0])

    @property
    def n_features(self) -> int:
        """Number of features d of ``A``."""
        return int(self.A.shape[1])

    def rule_from_weights(self, W: np.ndarray, w0: np.ndarray | None = None, *, threshold: float = 0.5) -> Rule:
        """The rule of the requested form for the CNF weights ``W`` (d, R).

        ``w_jr > threshold`` selects feature j in clause r; ``w0[r] > threshold``
        disables clause r (it is dropped: a constant-1 clause of the CNF, a
        constant-0 term of the DNF). A clause with no feature is kept: it is
        constant 0 in a CNF (``(False)``) and constant 1 in a DNF (``(True)``).

        Parameters
        ----------
        W : numpy.ndarray of shape (d, R) or (d,)
            The CNF weights.
        w0 : numpy.ndarray of shape (R,) or None, default=None
            The clause-disabling feature's weights; None disables no clause.
        threshold : float, default=0.5
            A weight above it selects its feature (or disables its clause).

        Returns
        -------
        Rule
            The rule, in the problem's form.

        Raises
        ------
        ValueError
            If ``W`` does not have one row per feature.
        """
        W = np.asarray(W, dtype=float)
        if W.ndim == 1:
            W = W[:, None]
        if W.shape[0] != self.n_features:
            raise ValueError(f"W has {W.shape[0]} rows but the problem has {self.n_features} features")
        clauses = []
        for r in range(W.shape[1]):
            if w0 is not None and w0[r] > threshold:
                continue
            selected = np.flatnonzero(W[:, r] > threshold)
            clauses.append(Clause(tuple(self.literals[j] for j in selected)))
        return Rule(self.form, tuple(clauses))

    def restrict(self, keep: np.ndarray) -> CNFProblem:
        """The same problem over the features where ``keep`` (bool, (d,)) is True: the others are no column of it.

        How the heuristics honour forbidden literals
        (``docs/constraints.md``): a literal that is no column cannot be
        learned, by any LP, rounding or search. The literals, the labels and
        the form are unchanged, so :meth:`rule_from_weights` on the restricted
        problem names the same literals.

        Parameters
        ----------
        keep : numpy.ndarray of bool, shape (d,)
            The features to keep.

        Returns
        -------
        CNFProblem
            The restricted problem.

        Raises
        ------
        ValueError
            If ``keep`` does not have shape ``(n_features,)``.
        """
        keep = np.asarray(keep, dtype=bool)
        if keep.shape != (self.n_features,):
            raise ValueError(f"keep has shape {keep.shape}, expected ({self.n_features},)")
        columns = np.flatnonzero(keep)
        return CNFProblem(
            self.A[:, columns], self.y, tuple(self.literals[j] for j in columns), self.form, self.sample_weight,
        )

    def predict_work(self, W: np.ndarray, w0: np.ndarray | None = None) -> np.ndarray:
        """The CNF's prediction of the working labels ``self.y`` for binary W.

        Parameters
        ----------
        W : numpy.ndarray of shape (d, R)
            The binary CNF weights.
        w0 : numpy.ndarray of shape (R,) or None, default=None
            The clause-disabling feature's weights; None adds nothing.

        Returns
        -------
        ndarray of bool of shape (n,)
            The CNF's value on each row.
        """
        from rulemodels.models.objectives import clause_sums

        return np.all(clause_sums(self.A, W, w0) > 0.5, axis=1)
