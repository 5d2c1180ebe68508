"""What the learners return: a driver's clause matrix (:class:`FitResult`) and the learned rule (:class:`LearnedRule`).

One vocabulary for both: ``termination`` (why it stopped, a :class:`Termination`), ``n_iter``,
``n_solves``, ``n_builds``, ``n_reused``. The estimator exposes them as
``termination_``, ``n_iter_``, ``n_solves_``, ``n_builds_``, ``n_reused_``.
"""

from __future__ import annotations

import enum
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from rulemodels.rules import Rule
from solvers import TerminationCondition

if TYPE_CHECKING:
    from rulemodels.algorithms.polish import PolishReport
    from rulemodels.algorithms.prune import PruneReport

__all__ = ["ExactInfo", "FitResult", "LearnedRule", "Termination", "TimeLimitWarning", "worst_termination"]


class Termination(str, enum.Enum):  # its signature is Enum's lookup and functional API; numpydoc ignore=PR01
    """Why a fit stopped: the one vocabulary of every ``termination`` (and of the estimator's ``termination_``).

    A ``str`` whose value is the word itself, so ``termination == "converged"``,
    ``print``, f-strings and JSON records read as plain strings. The heuristic
    drivers stop for one of their six reasons; the exact MIP (and MIP
    polishing) stops for its solver's reason, the member of the same value as
    the backend's :class:`~solvers.TerminationCondition` (:meth:`from_solver`);
    ``time_limit`` is shared by both.

    Attributes
    ----------
    converged : Termination
        No clause changed (AM/BCD), or column generation proved no improving clause exists.
    no_improvement : Termination
        An iteration or round did not lower the objective.
    cycle : Termination
        AM came back to a clause matrix it had visited.
    max_iter : Termination
        The iteration cap (``max_iter``) was reached.
    time_limit : Termination
        The fit's (or the MIP's) time limit was reached.
    single_pass : Termination
        A one-pass algorithm (TLP, set covering) finished.
    unverified : Termination
        The exact MIP's (or polishing's) solver claimed an optimum that the
        rule it returned does not bear out: the rule's objective, recomputed
        from the data, is not the solver's, or the solver's bound is above it
        (``docs/polishing.md``). The rule is feasible, not proven optimal.
    optimal, feasible, iteration_limit, infeasible, unbounded, infeasible_or_unbounded, interrupted, error, unknown : Termination
        The exact MIP's (or polishing's) solver stopped for that reason: the
        :class:`~solvers.TerminationCondition` member of the same name says what each means.

    See Also
    --------
    solvers.TerminationCondition : Why a solve stopped, in the solver layer.

    Examples
    --------
    >>> from rulemodels.algorithms import Termination
    >>> Termination.converged == "converged", f"{Termination.time_limit}"
    (True, 'time_limit')
    """

    # the drivers' reasons
    converged = "converged"
    """No clause changed (AM/BCD), or column generation proved no improving clause exists."""
    no_improvement = "no_improvement"
    """An iteration or round did not lower the objective."""
    cycle = "cycle"
    """AM came back to a clause matrix it had visited."""
    max_iter = "max_iter"
    """The iteration cap (``max_iter``) was reached."""
    time_limit = "time_limit"
    """The fit's (or the MIP's) time limit was reached."""
    single_pass = "single_pass"
    """A one-pass algorithm (TLP, set covering) finished."""
    unverified = "unverified"
    """The MIP's solver claimed an optimum that the rule it returned does not bear out (its objective, recomputed
    from the data, is not the solver's, or the solver's bound is above it): the rule is feasible, not proven optimal."""
    # a MIP's reasons: one member per solvers.TerminationCondition, of the same value and name (optimal,
    # feasible, iteration_limit, infeasible, ..., unknown; their docstrings say what each means), added from
    # that enum so that the solver's vocabulary is declared once (the Enum HOWTO's ``_ignore_`` and ``vars()``)
    _ignore_ = ["_members", "_condition"]
    _members = vars()
    for _condition in TerminationCondition:
        if _condition.name not in _members:
            _members[_condition.name] = _condition.value

    def __str__(self) -> str:
        return self.value

    def __format__(self, format_spec: str) -> str:
        return format(self.value, format_spec)

    @classmethod
    def from_solver(cls, condition: TerminationCondition) -> Termination:
        """The member for a backend's termination condition (the one of the same value).

        Parameters
        ----------
        condition : solvers.TerminationCondition
            Why the solver stopped.

        Returns
        -------
        Termination
            The member whose value is ``condition.value``.
        """
        return cls(condition.value)


#: How far short of finishing each termination is, for :func:`worst_termination` (higher: worse): finished;
#: stopped by the search's own rule; stopped by an iteration cap or a MIP without proof; the time limit;
#: interrupted; no rule from the solver at all.
_SEVERITY: dict[str, int] = {
    "converged": 0, "optimal": 0, "single_pass": 0,
    "no_improvement": 1, "cycle": 1,
    "max_iter": 2, "iteration_limit": 2, "feasible": 2,
    "time_limit": 3,
    "interrupted": 4,
}
_UNFINISHED = 5  # infeasible, unbounded, infeasible_or_unbounded, error, unknown


def worst_termination(terminations: Any) -> Termination | None:
    """The termination furthest from finishing among ``terminations`` (a rule list's: the worst of its fits').

    The order, from best to worst: ``converged``, ``optimal``, ``single_pass``
    (finished); ``no_improvement``, ``cycle`` (stopped by the search's own
    rule); ``max_iter``, ``iteration_limit``, ``feasible`` (stopped by a cap,
    or a MIP solution without proof); ``time_limit``; ``interrupted``; then
    every reason without a solution (``infeasible``, ``unbounded``,
    ``infeasible_or_unbounded``, ``error``, ``unknown``). Ties keep the first.

    Parameters
    ----------
    terminations : iterable of Termination or str
        The terminations (their values).

    Returns
    -------
    Termination or None
        The worst, or None when there is none.
    """
    worst: Termination | None = None
    for termination in terminations:
        member = Termination(termination)
        if worst is None or _SEVERITY.get(member.value, _UNFINISHED) > _SEVERITY.get(worst.value, _UNFINISHED):
            worst = member
    return worst


class TimeLimitWarning(UserWarning):
    """A solve stopped at a wall-clock time limit, so the learned rule may depend on the machine's speed.

    Default fits set no wall-clock limit (the same data give the same rule on
    a busy and an idle machine); this warning is issued only where a time limit
    was asked for (``time_limit``) or set on a solver. Catch it with
    :func:`warnings.catch_warnings` or turn it into an error with
    ``warnings.simplefilter("error", TimeLimitWarning)``.
    """


@dataclass(frozen=True, kw_only=True)
class _RunRecord:
    """How a learner ran, in the one vocabulary of :class:`FitResult` and :class:`LearnedRule` (their shared fields).

    ``termination`` is kept as the :class:`Termination` of its value; the
    fields are keyword-only in both classes.
    """

    history: list[float] = field(default_factory=list)
    n_iter: int = 0
    termination: Termination = Termination.single_pass
    n_solves: int = 0
    n_builds: int = 0
    n_reused: int = 0
    solver_seconds: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "termination", Termination(self.termination))


@dataclass(frozen=True)
class FitResult(_RunRecord):
    """What a driver returns on a CNF problem: its clause matrix over the working features.

    This is the drivers' internal result; :class:`LearnedRule` is the learned
    rule a fit returns.

    Parameters
    ----------
    W : ndarray (d', R)
        Binary clause matrix over the working features (with the always-true
        feature as the last row when clauses may be disabled).
    objective : float
        The driver's objective at W (Hamming objective for SC/BCD/AM, 0-1
        objective for TLP).
    history : list of float
        Objective after each accepted iteration (index 0 = initialisation).
    n_iter : int
        Iterations executed, including the last one that found no
        improvement (so ``n_iter >= len(history) - 1``).
    termination : Termination or str
        ``"converged"``, ``"no_improvement"``, ``"cycle"``, ``"max_iter"``, ``"time_limit"``, ``"single_pass"``
        (a string is taken as the :class:`Termination` of its value).
    n_solves, n_builds, n_reused : int
        LP solves and model builds of this fit, and LP solutions (or clauses)
        it took from this fit or from earlier fits on the cache instead of solving.
    solver_seconds : float
        Wall time of this fit's LP solves (the backend's ``solve`` calls).
    """

    W: np.ndarray
    objective: float


@dataclass(frozen=True)
class ExactInfo:
    """What only the exact MIP knows of its rule: the bound, the gap and the solve (``LearnedRule.exact``).

    Parameters
    ----------
    bound : float or None
        The MIP's best bound on the objective (None when none holds for the returned rule).
    gap : float or None
        The relative gap between the rule's objective and ``bound`` (0 when proved optimal).
    breakdown : dict
        The accuracy and sparsity parts of the solver's objective (empty when not known).
    solve : SolveResult or None
        The backend's full result of the MIP (solver name, version, wall time).
    model : ConcreteModel or None
        The solved MIP.
    """

    bound: float | None = None
    gap: float | None = None
    breakdown: dict[str, float] = field(default_factory=dict)
    solve: Any = field(default=None, repr=False)
    model: Any = field(default=None, repr=False)


@dataclass(frozen=True)
class LearnedRule(_RunRecord):
    """What one fit learned: the rule, its objective and how the learner got there.

    Returned by :meth:`~rulemodels.TrainingWorkspace.learn` (every algorithm)
    and by :func:`~rulemodels.solve_exact` (the exact MIP, which also fills
    ``exact_bound``, ``gap``, ``breakdown``, ``solve`` and ``model``).

    Parameters
    ----------
    rule : Rule
        Over the original literals, true for the positive class.
    objective : float or None
        The algorithm's objective at the rule (Hamming objective for
        SCS/SCN/BCD/AM, 0-1 objective for TLP and the exact MIP; the exact
        Hamming MIP's own objective for ``formulation="hamming"``).
    history : list of float
        Objective after the initialisation and after each accepted iteration.
    n_iter : int
        Iterations executed (see :attr:`FitResult.n_iter`).
    termination : Termination or str
        Why the algorithm stopped (``"time_limit"`` when the fit's time limit
        cut it; for the exact MIP its solver's reason such as ``"optimal"``,
        :meth:`Termination.from_solver`); a string is taken as the member of its value.
    n_solves, n_builds, n_reused : int
        LP/MIP solves and model builds of this fit, and LP solutions it took
        from this fit or from earlier fits on the workspace instead of solving.
    solver_seconds : float
        Wall time of this fit's LP/MIP solves (the backend's ``solve`` calls,
        their in-place updates included; polishing not included).
    exact : ExactInfo or None
        What only the exact MIP knows (``algorithm="exact"`` and :func:`~rulemodels.solve_exact`; None for
        the heuristics): its bound, gap, objective breakdown, solve result and model. ``exact_bound``,
        ``gap``, ``breakdown``, ``solve`` and ``model`` read them (None, or an empty dict, without it).
    clause_columns : tuple of ndarray
        For each clause of ``rule``, the columns of the workspace's binary
        matrix that are its literals.
    polish : PolishReport or None
        What MIP polishing did (:mod:`rulemodels.algorithms.polish`), when the fit
        polished; ``objective`` is then the 0-1 objective of ``rule``.
    prune : PruneReport or None
        What pruning did (:mod:`rulemodels.algorithms.prune`: literals and
        clauses removed, the 0-1 objective before and after), when the fit
        pruned (``learn(..., prune=True)``); when it removed something,
        ``objective`` is the 0-1 objective of the pruned ``rule``.
    theta : float or None
        The learner's (paper's) θ the rule was learned with, the fit's θ
        converted by its ``theta_unit`` (:mod:`rulemodels.algorithms.theta`)
        once, by :meth:`~rulemodels.TrainingWorkspace.learn`; the
        estimator's ``paper_theta_``. None where no workspace learned it
        (:func:`~rulemodels.solve_exact`).
    """

    rule: Rule
    objective: float | None
    _: KW_ONLY
    n_iter: int = 1
    exact: ExactInfo | None = None
    clause_columns: tuple[np.ndarray, ...] = ()
    polish: PolishReport | None = None
    prune: PruneReport | None = None
    theta: float | None = None

    @property
    def exact_bound(self) -> float | None:
        """The exact MIP's best bound (:attr:`ExactInfo.bound`); None for the heuristics."""
        return None if self.exact is None else self.exact.bound

    @property
    def gap(self) -> float | None:
        """The exact MIP's relative gap (:attr:`ExactInfo.gap`); None for the heuristics."""
        return None if self.exact is None else self.exact.gap

    @property
    def breakdown(self) -> dict[str, float]:
        """The exact MIP's accuracy and sparsity parts of its objective (:attr:`ExactInfo.breakdown`); empty otherwise."""
        return {} if self.exact is None else self.exact.breakdown

    @property
    def solve(self) -> Any:
        """The backend's result of the exact MIP (:attr:`ExactInfo.solve`); None for the heuristics."""
        return None if self.exact is None else self.exact.solve

    @property
    def model(self) -> Any:
        """The solved exact MIP (:attr:`ExactInfo.model`); None for the heuristics."""
        return None if self.exact is None else self.exact.model

    @property
    def status(self) -> str:
        """Deprecated name of :attr:`termination` (the exact MIP's result called it ``status``)."""
        import warnings

        warnings.warn("LearnedRule.status is deprecated: use .termination", DeprecationWarning, stacklevel=2)
        return self.termination

    @property
    def bound(self) -> float | None:
        """Deprecated name of :attr:`exact_bound` (the exact MIP's result called it ``bound``)."""
        import warnings

        warnings.warn("LearnedRule.bound is deprecated: use .exact_bound", DeprecationWarning, stacklevel=2)
        return self.exact_bound

    def evaluate_binary(self, A: np.ndarray) -> np.ndarray:
        """The rule's value on rows binarized by the workspace's binarizer (``rule.evaluate_binary``, by column).

        A clause is the AND (DNF) or OR (CNF) of its columns, the rule the OR
        (DNF) or AND (CNF) of its clauses (:meth:`~rulemodels.Rule.reduce`).

        Parameters
        ----------
        A : numpy.ndarray of shape (n_samples, n_literals)
            Rows binarized by the workspace's binarizer.

        Returns
        -------
        ndarray of bool
            The rule's value on each row.
        """
        matrix = np.asarray(A) != 0
        outputs = np.empty((matrix.shape[0], len(self.clause_columns)), dtype=bool)
        for r, columns in enumerate(self.clause_columns):
            block = matrix[:, columns]
            outputs[:, r] = block.all(axis=1) if self.rule.form == "dnf" else block.any(axis=1)
        return self.rule.reduce(outputs)
