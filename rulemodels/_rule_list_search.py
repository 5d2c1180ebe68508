"""The multiclass fit of :class:`~rulemodels.BooleanRuleClassifier`: an ordered rule list, one binary fit per try.

With more than two classes the estimator learns a
:class:`~rulemodels.rules.RuleList`, one step per class and a default class
(see the estimator's docstring). :class:`_RuleListSearch` orders the steps
(``class_order``): each try fits a clone of the estimator, its class against
the rest, on the rows no earlier step claimed, on a
:class:`~rulemodels.TrainingWorkspace` that reuses the binarizer fitted on all
the rows. :func:`fit_rule_list` and :func:`fit_rule_list_path` are the
estimator's multiclass fits (one θ, or the lists of several θ grown together);
they set the fitted attributes of the list on the estimator. The estimator
runs them inside its logging level; this module imports nothing of it.
"""

from __future__ import annotations

import logging
import re
import time
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils.validation import validate_data

from rulemodels.algorithms import TrainingWorkspace
from rulemodels.algorithms.baseline import TrivialRuleWarning
from rulemodels.algorithms.result import Termination, worst_termination
from rulemodels.data import ParsedLabels, check_sample_weight, class_weighted
from rulemodels.rules import ClassRates, RuleList, SimplifyReport
from rulemodels.utils import no_progress, progress_bar

if TYPE_CHECKING:
    from rulemodels.estimator import BooleanRuleClassifier

logger = logging.getLogger(__name__)

__all__ = ["fit_rule_list", "fit_rule_list_path"]

#: The classes of a step's labels "is this class" (0/1, int8), as parsing them would find.
_BINARY_CLASSES = np.array([0, 1], dtype=np.int8)

#: What a rule list fit sets from its inputs, the same for every θ of a path.
_RULE_LIST_INPUTS: tuple[str, ...] = ("n_features_in_", "feature_names_in_", "classes_", "target_name_", "binarizer_")


def fit_rule_list(
    estimator: BooleanRuleClassifier, X: Any, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: Any,
    target_name: str | None,
) -> BooleanRuleClassifier:
    """More than two classes: learn the ordered rule list (see the estimator's docstring) and set its attributes.

    Parameters
    ----------
    estimator : BooleanRuleClassifier
        The estimator to fit (its parameters are the steps' settings).
    X : DataFrame or array-like of shape (n_samples, n_features)
        The training features (pandas), as the estimator received them (their names).
    frame : pandas.DataFrame
        ``X`` checked by :func:`rulemodels.utils.to_frame` (``ensure_nonempty=True``), taken as it is.
    labels : ParsedLabels
        The labels, of more than two classes, parsed once by the estimator's fit.
    sample_weight : array-like of shape (n_samples,) or None
        The row weights (``class_weight`` not yet applied).
    target_name : str or None
        The name of ``y`` (``target_name_``).

    Returns
    -------
    BooleanRuleClassifier
        ``estimator``, fitted.
    """
    data = _prepare(estimator, X, frame, labels, sample_weight, target_name)
    search = _RuleListSearch(estimator, data)
    (found,) = search.run(len(estimator.classes_), (estimator.theta,)).values()
    search.warn_once(stacklevel=4)  # the caller of fit (through this function)
    return _finish(estimator, data, found, stacklevel=4)


def fit_rule_list_path(
    estimator: BooleanRuleClassifier, X: Any, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: Any, thetas: Any,
    target_name: str | None,
) -> dict[float, BooleanRuleClassifier]:
    """Rule lists for every θ of ``thetas`` at once, each step's tries shared along a θ path: ``{θ: fitted}``.

    Every θ starts from the same rows, so each class of the first step is
    tried once for all of them, with one column generation path
    (:meth:`~rulemodels.TrainingWorkspace.learn_path`: one master LP
    re-solved from the largest θ to the smallest); at each later step, the
    θ values whose lists left the same rows and classes share the tries
    again. A θ's list depends only on the θ values above it, so the path
    over the θ values down to one gives that one's list
    (``BooleanRuleCV`` refits so). Each fitted estimator is ``estimator``'s
    clone with its θ. For column generation without time limit, polishing
    or domain constraints in a DNF or CNF (see
    :func:`rulemodels.model_selection._path_ready`). Only the smallest θ's
    list warns when it is trivial (the path's largest θ are expected to be).

    Parameters
    ----------
    estimator : BooleanRuleClassifier
        The settings of every list; its attributes of the inputs are set.
    X, frame, labels, sample_weight, target_name
        As for :func:`fit_rule_list`.
    thetas : sequence of float
        The θ values (the estimator's ``theta_unit``).

    Returns
    -------
    dict
        ``{θ: fitted clone}``.
    """
    data = _prepare(estimator, X, frame, labels, sample_weight, target_name)
    search = _RuleListSearch(estimator, data, path=True)
    found = search.run(len(estimator.classes_), tuple(thetas))
    search.warn_once(stacklevel=5)  # as the trivial-list warning below
    fitted = {}
    for theta, result in found.items():
        clone_of_theta = clone(estimator).set_params(theta=theta)
        clone_of_theta.__dict__.update({name: getattr(estimator, name) for name in _RULE_LIST_INPUTS if hasattr(estimator, name)})
        with warnings.catch_warnings():
            if theta != min(found):
                warnings.simplefilter("ignore", TrivialRuleWarning)
            fitted[theta] = _finish(clone_of_theta, data, result, stacklevel=5)
    return fitted

def _prepare(
    estimator: BooleanRuleClassifier, X: Any, frame: pd.DataFrame, labels: ParsedLabels, sample_weight: Any,
    target_name: str | None,
) -> _RuleListData:
    """Refuse the exact MIP, set the attributes of the inputs (``_RULE_LIST_INPUTS``), and binarize the rows with
    all classes (``frame`` and ``labels``: the estimator's fit checked ``X`` and parsed ``y``, once)."""
    classes = labels.classes
    if estimator.algorithm == "exact":
        raise ValueError(
            f"algorithm='exact' learns one two-class rule (the exact 0-1 MIP), but y has {len(classes)} classes "
            f"({classes[:10].tolist()}): use a heuristic (algorithm='am', 'bcd', 'tlp', 'scs', 'scn' or 'cg', "
            "with polish=True for MIP polishing of each step) for an ordered rule list, or reduce y to two classes"
        )
    # the class weights are those of the K classes, applied once here; each step's binary fit gets them as weights
    weights = check_sample_weight(class_weighted(labels, sample_weight, estimator.class_weight), frame.shape[0])
    validate_data(estimator, X, skip_check_array=True)
    estimator.classes_ = classes
    estimator.target_name_ = target_name
    # all classes: label-aware thresholds, from the parsed labels (coded as a binarizer given the raw labels codes them)
    estimator.binarizer_ = estimator._make_binarizer()._fit(
        frame, labels.codes_by_appearance, weights, check_input=False, n_classes=labels.n_classes,
    )
    A = estimator.binarizer_._transform(frame, check_input=False)
    return _RuleListData(frame, A, labels.codes, weights)


def _finish(estimator: BooleanRuleClassifier, data: _RuleListData, found: _ListState, stacklevel: int) -> BooleanRuleClassifier:
    """The attributes of a fitted rule list from its search's result (``stacklevel``: that of the trivial-list warning)."""
    classes, A, class_index, weights = estimator.classes_, data.A, data.class_index, data.weights
    steps = [(classes[k], fitted) for k, fitted in found.steps]
    estimator.steps_ = [fitted for _, fitted in steps]
    estimator.order_search_ = found.search
    default = found.default
    rules = RuleList(tuple((label, fitted.rule_) for label, fitted in steps), classes[default])
    raw = RuleList(tuple((label, fitted.raw_rule_) for label, fitted in steps), classes[default])
    # rule_ is a Rule for two classes (the type the two-class code reads) and a RuleList here
    estimator.rule_, estimator.raw_rule_ = rules, raw  # type: ignore[assignment]
    estimator.class_order_ = list(rules.classes)
    estimator._bucket_classes = np.array([k for k, _ in found.steps] + [default], dtype=int)
    estimator._equality_columns = {name: pair for fitted in estimator.steps_
                                   for name, pair in getattr(fitted, "_equality_columns", {}).items()}
    estimator.simplification_ = SimplifyReport(
        raw.n_literals, rules.n_literals,
        tuple(f"step {k + 1}: {line}" for k, fitted in enumerate(estimator.steps_) for line in fitted.simplification_.removed_clauses),
        tuple(f"step {k + 1}: {line}" for k, fitted in enumerate(estimator.steps_) for line in fitted.simplification_.rewritten_clauses),
    )
    forms = {fitted.form_ for fitted in estimator.steps_}
    estimator.form_ = forms.pop() if len(forms) == 1 else ("mixed" if forms else estimator.form)
    fits = found.fits
    estimator.n_iter_ = sum(fit.n_iter_ for fit in fits)
    estimator.n_solves_ = sum(fit.n_solves_ for fit in fits)
    estimator.n_builds_ = sum(fit.n_builds_ for fit in fits)
    estimator.n_reused_ = sum(fit.n_reused_ for fit in fits)
    estimator.solver_seconds_ = float(sum(fit.solver_seconds_ for fit in fits))
    estimator.objective_ = float(sum(fitted.objective_ for fitted in estimator.steps_))
    estimator.paper_theta_ = float(estimator.steps_[0].paper_theta_) if estimator.steps_ else float("nan")
    # the worst of every binary fit tried (kept or not), and time_limit when the time limit cut the search short
    terminations = [fit.termination_ for fit in fits] + ([Termination.time_limit] if found.cut_short else [])
    estimator.termination_ = worst_termination(terminations) or Termination.converged
    buckets = RuleList.first_true(_step_values(rules, A, estimator.binarizer_.literals_))
    estimator.class_rates_ = ClassRates.fit(buckets, class_index, len(rules.steps) + 1, len(classes), weights)
    totals = np.bincount(class_index, weights=weights, minlength=len(classes))
    estimator.baseline_class_ = int(np.argmax(totals))
    estimator.baseline_error_ = float(1.0 - totals.max() / totals.sum())
    wrong = estimator._bucket_classes[buckets] != class_index
    estimator.training_error_ = float(np.average(wrong, weights=weights))
    if estimator.training_error_ >= estimator.baseline_error_ - 1e-12 or len(np.unique(estimator._bucket_classes[buckets])) == 1:
        warnings.warn(
            f"the rule list's training error {estimator.training_error_:.4f} is no lower than always predicting the "
            f"majority class {_plain_label(classes[estimator.baseline_class_])!r} ({estimator.baseline_error_:.4f}), or it predicts one "
            "class for every training row: lower theta or raise n_clauses",
            TrivialRuleWarning, stacklevel=stacklevel,
        )
    estimator.complexity_ = rules.complexity()
    logger.info("learned a rule list of %d steps:\n%s", len(rules.steps), rules)
    return estimator


def _step_values(rules: RuleList, A: Any, literals: Any) -> np.ndarray:
    """Each step rule's value (n, n_steps) on the binarized rows ``A`` (as the two-class ``predict`` reads rows)."""
    if not rules.steps:
        return np.zeros((A.shape[0], 0), dtype=bool)
    return np.column_stack([rule.evaluate_binary(A, literals) for rule in rules.rules])


@dataclass(frozen=True)
class _RuleListData:
    """The rows of a rule list fit: the frame, its binary matrix (the estimator's ``binarizer_``), class indices and weights."""

    frame: pd.DataFrame
    A: Any
    class_index: np.ndarray
    weights: np.ndarray


@dataclass(frozen=True)
class _Try:
    """One class tried at a step of one θ's list: the list's training error with it, the fitted step, the rows
    it claims (a mask over the rows left) and the weight of those it claims wrongly."""

    error: float
    fitted: BooleanRuleClassifier
    claimed: np.ndarray
    wrong: float


class _ListBudget:
    """``time_limit`` and ``polish`` as budgets for a whole rule-list fit, shared out among its binary tries.

    A rule list fits one binary rule per try (per step, per class tried), at
    most ``n_tries`` of them. Each try gets an equal share of what is left:
    ``left / tries_left`` seconds of the time limit (wall clock since the
    search began, less the polishing seconds) and of the polishing budget
    (less the polishing seconds already spent: building and solving the
    MIPs), so the whole fit keeps to both, as a two-class fit does. A try's
    polishing share below the estimated cost of building its MIP skips it
    (:func:`~rulemodels.algorithms.polish.polish_build_seconds`), and once
    the time limit is spent the search tries one class per step
    (:meth:`out_of_time`). Without either budget nothing here reads a clock.
    """

    def __init__(self, time_limit: float | None, polish: float | None, n_tries: int) -> None:
        self.time_limit, self.polish, self.tries_left = time_limit, polish, max(1, n_tries)
        self.start = time.perf_counter()
        self.polish_spent = 0.0

    def next_try(self) -> dict[str, float]:
        """The ``time_limit`` / ``polish`` parameters of the next try (empty without either)."""
        params = {}
        if self.time_limit is not None:
            left = self.time_limit - (time.perf_counter() - self.start - self.polish_spent)
            params["time_limit"] = max(left / self.tries_left, MIN_TRY_SECONDS)
        if self.polish is not None:
            params["polish"] = max((self.polish - self.polish_spent) / self.tries_left, MIN_TRY_SECONDS)
        return params

    def spent(self, fitted: BooleanRuleClassifier) -> None:
        """Count one try done, and the polishing seconds it used."""
        self.tries_left = max(1, self.tries_left - 1)
        report = getattr(fitted, "polish_report_", None)
        if report is not None:
            self.polish_spent += float(report.seconds) + float(getattr(report, "build_seconds", 0.0))

    def out_of_time(self) -> bool:
        """Whether the time limit is spent (False without one: a default fit reads no clock)."""
        if self.time_limit is None:
            return False
        return time.perf_counter() - self.start - self.polish_spent >= self.time_limit


#: the least time a rule-list try is given once its budget is spent (it stops at once with its best rule so far)
MIN_TRY_SECONDS = 0.01

#: the numbers of a warning's message, which do not make it another kind of warning (``warn_once``)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


@dataclass
class _ListState:
    """One θ's rule list as its search grows it: the rows and classes left, the steps kept, and what was tried."""

    rows: np.ndarray
    left: list[int]
    steps: list[tuple[int, BooleanRuleClassifier]] = field(default_factory=list)
    committed: float = 0.0  # the weight of the rows the kept steps claimed wrongly
    search: list[dict[Any, float]] = field(default_factory=list)  # class_order="error": each step's {class: error}
    fits: list[BooleanRuleClassifier] = field(default_factory=list)  # every binary fit tried, kept or not
    default: int = -1
    done: bool = False
    cut_short: bool = False  # the time limit stopped a step's search before every class was tried


class _RuleListSearch:
    """The order of a rule list's steps (``class_order``), one binary fit of the estimator's settings per try.

    Each try fits ``clone(estimator)`` on the rows no earlier step claimed, with
    labels "is this class", on a :class:`TrainingWorkspace` that reuses the
    binarizer fitted on all the rows (so the steps' literals are those of one
    binarization, and every column keeps its kind). ``path=True`` grows the
    lists of several θ values at once: the θ values whose lists left the same
    rows and classes share each try, learned along one θ path.
    """

    def __init__(self, estimator: BooleanRuleClassifier, data: _RuleListData, path: bool = False) -> None:
        self.estimator, self.data, self.path = estimator, data, path
        n_classes = len(estimator.classes_)
        n_tries = n_classes * (n_classes + 1) // 2 - 1 if estimator.class_order == "error" else n_classes - 1
        self.spec = estimator._fit_spec()  # the list's budgets; a θ path's tries learn by it (one-θ tries fit clones)
        self.budget = _ListBudget(self.spec.time_limit, self.spec.polish, n_tries)
        self.n_tries = n_tries
        self.bar: Any = None  # the progress bar of the binary fits, while run() runs
        self.caught: list[tuple[int, warnings.WarningMessage]] = []  # (try, warning) of the binary fits, for warn_once
        self.n_fitted = 0  # the tries that fitted (both classes among their rows)

    def _try(self, rows: np.ndarray, k: int, thetas: list[float]) -> dict[float, tuple[BooleanRuleClassifier, np.ndarray]] | None:
        """Class ``k`` against the rest on ``rows``, for each θ: the fitted step and the rows its rule claims; None if one class."""
        class_index, weights = self.data.class_index, self.data.weights
        positive = (class_index[rows] == k).astype(np.int8)
        weighted = positive[weights[rows] > 0]
        if weighted.size == 0 or weighted.min() == weighted.max():  # one class among the rows that weigh anything
            return None
        base = self.estimator
        X_rows, w_rows = self.data.frame.iloc[rows], weights[rows]
        tried = {}
        # the rows of the checked frame, and labels of both classes (checked above): nothing to check or parse again
        with warnings.catch_warnings(), TrainingWorkspace.from_checked(
            X_rows, ParsedLabels(_BINARY_CLASSES, positive), w_rows, binarizer=base.binarizer_, solver=base.solver,
            fit_binarizer=False, binary=self.data.A[rows],
        ) as workspace:
            warnings.simplefilter("ignore", TrivialRuleWarning)  # a step may be trivial; the list's error is checked
            if self.path:
                learned = workspace.learn_path(self.spec, thetas=sorted(thetas, reverse=True), n_clauses=[base.n_clauses])
            for theta in thetas:
                # every other parameter as given, present and future; time_limit and polish: this try's share
                fitted = clone(base).set_params(class_weight=None, theta=theta, **self.budget.next_try())
                if self.path:
                    fitted._fit_learned(X_rows, positive, w_rows, workspace, learned[(theta, base.n_clauses)])
                else:
                    fitted.fit(X_rows, positive, sample_weight=w_rows, workspace=workspace)
                self.budget.spent(fitted)
                tried[theta] = (fitted, fitted.rule_.evaluate_binary(workspace.A, workspace.literals))
        return tried

    def warn_once(self, stacklevel: int) -> None:
        """Issue each kind of warning the binary fits raised once, with the number of fits that raised it.

        A kind is a category and a message up to its numbers; the first
        message of each kind is issued, followed by "(in 12 of the rule list's
        14 binary fits)", at ``stacklevel`` (the caller of the estimator's fit).
        """
        kinds: dict[tuple[type[Warning], str], tuple[warnings.WarningMessage, set[int]]] = {}
        for index, caught in self.caught:
            key = (caught.category, _NUMBER.sub("#", str(caught.message)))
            kinds.setdefault(key, (caught, set()))[1].add(index)
        self.caught = []
        for (category, _), (first, fits) in kinds.items():
            where = f"in {len(fits)} of the rule list's {self.n_fitted} binary fits"
            warnings.warn(f"{first.message} ({where})", category, stacklevel=stacklevel)

    def _default_error(self, rows: np.ndarray, left: list[int]) -> tuple[float, int]:
        """The weighted error on ``rows`` of the best default among the classes ``left``, and that class."""
        class_index, weights = self.data.class_index, self.data.weights
        totals = np.bincount(class_index[rows], weights=weights[rows], minlength=int(class_index.max()) + 1)
        best = max(left, key=lambda k: (totals[k], -k))
        return float(totals.sum() - totals[best]), best

    def run(self, n_classes: int, thetas: tuple[float, ...]) -> dict[float, _ListState]:
        """:meth:`_run` with a progress bar of the binary fits (drawn after two seconds; the fits draw none)."""
        with progress_bar(self.n_tries, "rule list", "fit") as self.bar:
            return self._run(n_classes, thetas)

    def _run(self, n_classes: int, thetas: tuple[float, ...]) -> dict[float, _ListState]:
        """Each θ's grown list: its (class index, fitted step) pairs in order, default class index, and
        each step's ``{class: total weighted training error}`` of the classes tried (``class_order="error"``)."""
        class_index, weights = self.data.class_index, self.data.weights
        classes = self.estimator.classes_
        totals = np.bincount(class_index, weights=weights, minlength=n_classes)
        rarest_first = sorted(range(n_classes), key=lambda k: (totals[k], k))
        greedy = self.estimator.class_order == "error"
        total = float(weights.sum())
        states = {theta: _ListState(np.arange(len(class_index)), list(rarest_first)) for theta in thetas}
        while True:
            groups: dict[tuple[bytes, tuple[int, ...]], list[float]] = {}
            for theta, state in states.items():
                if not state.done and len(state.left) >= 2 and state.rows.size:
                    groups.setdefault((state.rows.tobytes(), tuple(state.left)), []).append(theta)
            if not groups:
                break
            for members in groups.values():
                rows, left = states[members[0]].rows, states[members[0]].left
                tried: dict[float, dict[int, _Try]] = {t: {} for t in members}
                for k in left:  # "rarest": the first class (rarest first) that both classes of the rows let fit
                    if tried[members[0]] and self.budget.out_of_time():  # greedy, out of time: keep what was tried
                        logger.info("rule list: the time limit is spent; step %d keeps the best of the %d classes tried",
                                    len(states[members[0]].steps) + 1, len(tried[members[0]]))
                        for theta in members:
                            states[theta].cut_short = True
                        break
                    with no_progress(), warnings.catch_warnings(record=True) as caught:  # summarised by warn_once
                        result = self._try(rows, k, members)
                    self.bar.update(1)
                    if result is None:
                        continue
                    self.caught.extend((self.n_fitted, warning) for warning in caught)
                    self.n_fitted += 1
                    rest = [c for c in left if c != k]
                    for theta, (fitted, claimed) in result.items():
                        state = states[theta]
                        state.fits.append(fitted)
                        wrong = float(weights[rows][claimed & (class_index[rows] != k)].sum())
                        rest_error, _ = self._default_error(rows[~claimed], rest) if (~claimed).any() else (0.0, k)
                        tried[theta][k] = _Try((state.committed + wrong + rest_error) / total, fitted, claimed, wrong)
                    if not greedy:
                        break
                for theta in members:
                    self._step(states[theta], tried[theta], greedy, classes)
        for state in states.values():
            _, state.default = self._default_error(state.rows, state.left) if state.rows.size else (0.0, state.left[-1])
        return states

    def _step(self, state: _ListState, tried: dict[int, _Try], greedy: bool, classes: np.ndarray) -> None:
        """Keep the best try of one step in ``state`` (the class with the lowest list error; ties: rarest first)."""
        if not tried:
            state.done = True
            return
        k = min(tried, key=lambda c: (tried[c].error, state.left.index(c)))
        best = tried[k]
        if greedy:
            state.search.append({_plain_label(classes[c]): t.error for c, t in tried.items()})
        state.left = [c for c in state.left if c != k]
        if best.claimed.any():  # a step that claims no training row would only lengthen the list
            state.steps.append((k, best.fitted))
            state.committed += best.wrong
            state.rows = state.rows[~best.claimed]
        logger.info("rule list: step %d is class %r, %d rows left", len(state.steps), _plain_label(classes[k]), state.rows.size)


def _plain_label(value: Any) -> Any:
    """A numpy scalar label as the Python value (keys of ``order_search_``)."""
    return value.item() if isinstance(value, np.generic) else value
