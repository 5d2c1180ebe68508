"""The progress a verbose fit logs: the binarization line and one line per AM/BCD/CG iteration."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from rulemodels import BooleanRuleClassifier
from rulemodels.algorithms import iteration_log
from rulemodels.algorithms.training import TrainingWorkspace


def _messages(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name.startswith("rulemodels")]


def _rows(messages: list[str], name: str) -> list[list[str]]:
    """The iteration lines of driver ``name``, split into fields (no header, no "stopped" line)."""
    lines = [m for m in messages if m.split()[:1] == [name] and m.split()[1:2] != ["iter"] and "stopped" not in m]
    return [line.split() for line in lines]


@pytest.mark.parametrize("algorithm", ["am", "bcd"])
def test_verbose_fit_logs_binarization_and_each_iteration_with_solves_and_seconds(pima_200, caplog, algorithm) -> None:
    X, y = pima_200
    caplog.handler.setLevel(logging.DEBUG)
    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, n_thresholds=3, verbose=True).fit(X, y)
    messages = _messages(caplog)
    binarized = [m for m in messages if m.startswith("binarized")]
    with TrainingWorkspace(X, y, binarizer=clf._make_binarizer()) as workspace:
        expected_patterns = workspace.n_patterns
    assert binarized == [
        f"binarized 200 rows x 8 columns into {len(clf.binarizer_.literals_)} binary features, "
        f"{expected_patterns} distinct (pattern, label) rows, in {binarized[0].rsplit(' in ', 1)[1]}"
    ]
    assert 1 < expected_patterns <= 200
    set_cover = [m for m in messages if m.startswith("set cover: clause")]
    assert [m.split()[3] for m in set_cover] == ["1", "2"] and all(" of 2 uses " in m and "LP solves, " in m for m in set_cover)
    name = algorithm.upper()
    header = next(m for m in messages if m.split()[:2] == [name, "iter"])
    assert header.split()[-3:] == ["LP", "solves", "seconds"]
    rows = _rows(messages, name)
    assert [int(row[1]) for row in rows] == list(range(len(rows)))
    solves = [int(row[5]) for row in rows]
    seconds = [float(row[6]) for row in rows]
    assert solves[0] >= 1  # set covering solved before iteration 0
    assert solves == sorted(solves) and solves[-1] <= clf.n_solves_
    assert seconds == sorted(seconds) and seconds[0] >= 0
    assert float(rows[-1][2]) == pytest.approx(clf.history_[len(rows) - 1], rel=1e-5)


def test_verbose_column_generation_logs_each_round(pima_200, caplog) -> None:
    X, y = pima_200
    caplog.handler.setLevel(logging.DEBUG)
    clf = BooleanRuleClassifier(algorithm="cg", n_clauses=2, n_thresholds=3, verbose=True).fit(X, y)
    rows = _rows(_messages(caplog), "CG")
    assert len(rows) == clf.n_iter_  # one line per round
    assert [int(row[1]) for row in rows] == list(range(1, len(rows) + 1))
    assert all(row[3] == "-" and row[4] == "-" for row in rows)  # the master LP's solution is not a rule yet
    assert [int(row[5]) for row in rows] == list(range(1, len(rows) + 1))  # one master LP solve per round


@pytest.mark.parametrize("algorithm", ["am", "bcd", "cg"])
def test_progress_costs_nothing_when_not_verbose(pima_200, monkeypatch, caplog, algorithm) -> None:
    def forbidden(*args):
        raise AssertionError("computed although the log is off")

    monkeypatch.setattr(iteration_log, "training_error", forbidden)
    monkeypatch.setattr(TrainingWorkspace, "n_patterns", property(forbidden))
    X, y = pima_200
    clf = BooleanRuleClassifier(algorithm=algorithm, n_clauses=2, n_thresholds=3).fit(X, y)
    assert clf.n_solves_ >= 1
    assert not [r for r in caplog.records if r.name.startswith("rulemodels") and r.levelno == logging.INFO]


def test_n_patterns_counts_distinct_binary_rows_per_label() -> None:
    X = np.array([[0.0], [0.0], [1.0], [1.0], [2.0]])
    y = np.array([0, 1, 1, 1, 0])
    with TrainingWorkspace(X, y) as workspace:
        # rows (pattern, label): (a, 0), (a, 1), (b, 1), (b, 1), (c, 0) -> 4 distinct
        assert len({(tuple(row), label) for row, label in zip(workspace.A.tolist(), y)}) == 4
        assert workspace.n_patterns == 4
        assert workspace.binarize_seconds >= 0
