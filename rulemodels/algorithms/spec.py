"""The recipe of one fit, :class:`FitSpec`: what a :class:`~rulemodels.TrainingWorkspace` learns a rule with.

A fit's recipe (form, algorithm, R, θ, clause disabling, iteration and time
limits, solver options, polishing, domain constraints, pruning) is one frozen
object, built once per fit from the estimator's parameters
(:meth:`FitSpec.from_params`, which :class:`~rulemodels.BooleanRuleClassifier`
and a sweep's :class:`~rulemodels.experiments.Task` both call) and handed to
:meth:`TrainingWorkspace.learn <rulemodels.TrainingWorkspace.learn>` and
:meth:`~rulemodels.TrainingWorkspace.learn_path`. A new fit option is a field
here and its use in :mod:`rulemodels.algorithms.training`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from rulemodels import defaults
from rulemodels.algorithms.constraints import RuleConstraints

__all__ = ["FitSpec", "check_solver_solves", "polish_seconds"]


def check_solver_solves(algorithm: str, backend: Any) -> None:
    """Refuse, before any work, a solver that cannot solve what ``algorithm`` solves (CP-SAT and the LPs).

    Every algorithm but ``"exact"`` solves LPs (clause LPs, TLP, the column
    generation master); a backend whose ``capabilities.continuous`` is False
    (``cpsat``, integer programs only) cannot. ``"exact"`` solves a MIP, which
    it can (its start rule's LPs are solved with the default solver).

    Parameters
    ----------
    algorithm : str
        The fit's algorithm.
    backend : Backend
        The fit's solver backend.

    Raises
    ------
    ValueError
        If ``algorithm`` solves LPs and the backend takes integer models only; the message says what to use.
    """
    if algorithm == "exact" or getattr(backend.capabilities, "continuous", True):
        return
    raise ValueError(
        f"solver {backend.name!r} solves integer programs only, and algorithm {algorithm!r} solves LPs (clause LPs, "
        f"TLP, column generation's master): solve it with {defaults.DEFAULT_SOLVER!r} (or cbc, glpk; CLI: --solver "
        f"{defaults.DEFAULT_SOLVER}), or use algorithm 'exact' (CLI: --algorithm exact, or the exact command), whose MIP "
        f"{backend.name!r} solves"
    )


def polish_seconds(polish: bool | float | None, algorithm: str) -> float | None:
    """The polishing MIP's time limit in seconds for the parameter ``polish``, or None without polishing.

    Parameters
    ----------
    polish : bool, float or None
        The estimator's ``polish`` (True: ``defaults.DEFAULT_POLISH_TIME_LIMIT``
        seconds; False or None: none), or seconds.
    algorithm : str
        The fit's algorithm: the exact MIP is never polished.

    Returns
    -------
    float or None
        The seconds, or None.
    """
    if algorithm == "exact" or polish is None:
        return None
    if isinstance(polish, (bool, np.bool_)):
        return float(defaults.DEFAULT_POLISH_TIME_LIMIT) if polish else None
    return float(polish)


@dataclass(frozen=True)
class FitSpec:
    """How to learn one rule on a :class:`~rulemodels.TrainingWorkspace` (the parameters of ``BooleanRuleClassifier``).

    Build it with :meth:`from_params` from the estimator's parameters, or
    directly. Two normalisations make equal recipes equal objects: without
    ``allow_disable``, ``disable_cost`` is None (it is then unused), and
    constraints that set nothing are None.

    Parameters
    ----------
    form : {"dnf", "cnf", "auto"}
        The rule's form (``"auto"`` is the estimator's: it chooses the form
        before learning; a workspace learns a DNF or a CNF).
    algorithm : {"cg", "am", "bcd", "tlp", "scs", "scn", "exact"}
        The algorithm.
    n_clauses : int
        R, the number of clauses.
    theta : float
        Sparsity weight θ, in ``theta_unit``.
    theta_unit : {"sample", "fraction"}, default="sample"
        ``"sample"``: ``theta`` is the learner's (paper's) θ, the cost of one
        literal in weighted training errors; ``"fraction"``: a share of the
        training weight (:func:`~rulemodels.algorithms.theta.paper_theta`).
    allow_disable : bool, default=False
        Let the learner disable clauses.
    disable_cost : float or None, default=None
        Cost of the always-true feature, in literals (needed with ``allow_disable``).
    max_iter : int, default=defaults.DEFAULT_MAX_ITER
        Iteration cap of BCD and AM (rounds of column generation on a θ path).
    time_limit : float or None, default=None
        Seconds for the fit; None for no limit.
    solver_options : mapping or None, default=None
        Native solver options passed to every solve.
    polish : float or None, default=None
        Seconds of MIP polishing after the heuristic (None: none).
    polish_formulation : {"zero_one", "hamming"}, default=defaults.POLISH_FORMULATION
        The exact MIP polishing solves.
    constraints : RuleConstraints or None, default=None
        The domain constraints (``docs/constraints.md``).
    prune : bool, default=False
        Prune the learned rule (:meth:`TrainingWorkspace.learn <rulemodels.TrainingWorkspace.learn>`).
    min_literal_rows : float or "auto", default=0.0
        The least cost of a literal, in training rows of mean weight: the
        learner's θ is at least this many rows' weight (``"auto"``: ½ ln n,
        :func:`~rulemodels.utils.literal_floor`; 0: no floor, the
        paper's objective).

    Examples
    --------
    >>> from rulemodels.algorithms import FitSpec
    >>> spec = FitSpec.from_params({"form": "dnf", "algorithm": "cg", "n_clauses": 2, "theta": 0.01, "polish": True})
    >>> spec.polish, spec.theta_unit, spec.constraints
    (10.0, 'sample', None)
    """

    form: str
    algorithm: str
    n_clauses: int
    theta: float
    theta_unit: str = "sample"
    allow_disable: bool = False
    disable_cost: float | None = None
    max_iter: int = defaults.DEFAULT_MAX_ITER
    time_limit: float | None = None
    solver_options: Mapping[str, Any] | None = None
    polish: float | None = None
    polish_formulation: str = defaults.POLISH_FORMULATION
    constraints: RuleConstraints | None = None
    prune: bool = False
    min_literal_rows: float | str = 0.0

    def __post_init__(self) -> None:
        if not self.allow_disable and self.disable_cost is not None:
            object.__setattr__(self, "disable_cost", None)
        if self.constraints is not None and not self.constraints.active:
            object.__setattr__(self, "constraints", None)

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> FitSpec:
        """The recipe of the estimator parameters ``params`` (``BooleanRuleClassifier.get_params()``, or a task's).

        Every field is read from the parameter of its name, when ``params``
        has it; ``polish`` may be a bool (:func:`polish_seconds`), and the
        constraints are built from ``monotone``, ``forbidden_features``,
        ``feature_costs``, ``max_literals_per_clause`` and ``model_hook``
        (:meth:`RuleConstraints.from_params`, which checks them). Other
        parameters (binarization, solver, ...) are not part of the recipe.

        Parameters
        ----------
        params : mapping
            Parameters by name; ``form``, ``algorithm``, ``n_clauses`` and ``theta`` are required.

        Returns
        -------
        FitSpec
            The recipe.

        Raises
        ------
        ValueError
            If the constraint parameters are malformed.
        """
        settings = {field.name: params[field.name] for field in fields(cls) if field.name in params}
        settings["polish"] = polish_seconds(params.get("polish"), params["algorithm"])
        settings["constraints"] = RuleConstraints.from_params(**{name: params.get(name) for name in defaults.CONSTRAINT_PARAMS})
        return cls(**settings)
