"""An unknown solver name fails before any pass over the data: in ``fit`` on a frame, on Parquet data,
with more than two classes, and in ``BooleanRuleCV.fit``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rulemodels import BooleanRuleClassifier, BooleanRuleCV, FeatureBinarizer
from solvers import SolverNotFoundError

N_ROWS = 1_000_000


def _forbid_passes_over_the_data(monkeypatch) -> list[str]:
    """Make every pass over the data a test failure; the list records any that was attempted."""
    from rulemodels import estimator, model_selection

    attempted: list[str] = []

    def refuse(name: str):
        def spy(*args, **kwargs):
            attempted.append(name)
            raise AssertionError(f"{name} ran before the solver was resolved")

        return spy

    monkeypatch.setattr(FeatureBinarizer, "fit", refuse("FeatureBinarizer.fit"))
    monkeypatch.setattr(FeatureBinarizer, "transform", refuse("FeatureBinarizer.transform"))
    for module in (estimator, model_selection):
        monkeypatch.setattr(module, "as_pandas", refuse(f"{module.__name__}.as_pandas"))
        monkeypatch.setattr(module, "columns_as_labels", refuse(f"{module.__name__}.columns_as_labels"))
    monkeypatch.setattr(estimator, "read_stream", refuse("read_stream"))
    return attempted


def _large_frame() -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=N_ROWS), "b": rng.integers(0, 50, size=N_ROWS)})
    return X, (X["a"].to_numpy() > 0).astype(int)


@pytest.mark.parametrize("classes", [2, 3])
def test_an_unknown_solver_fails_before_the_binarizer_runs(monkeypatch, classes) -> None:
    X, y = _large_frame()
    y = y + (X["b"].to_numpy() == 0) if classes == 3 else y
    attempted = _forbid_passes_over_the_data(monkeypatch)
    with pytest.raises(SolverNotFoundError, match="unknown solver 'hihgs'"):
        BooleanRuleClassifier(solver="hihgs").fit(X, y)
    assert attempted == []


def test_an_unknown_solver_fails_before_a_parquet_file_is_read(monkeypatch, tmp_path) -> None:
    pytest.importorskip("pyarrow")
    X, y = _large_frame()
    path = tmp_path / "large.parquet"
    X.assign(label=y).to_parquet(path)
    attempted = _forbid_passes_over_the_data(monkeypatch)
    with pytest.raises(SolverNotFoundError, match="unknown solver 'hihgs'"):
        BooleanRuleClassifier(solver="hihgs").fit(str(path), "label")
    assert attempted == []


def test_an_unknown_solver_fails_before_the_cross_validation_reads_the_data(monkeypatch) -> None:
    X, y = _large_frame()
    attempted = _forbid_passes_over_the_data(monkeypatch)
    with pytest.raises(SolverNotFoundError, match="unknown solver 'hihgs'"):
        BooleanRuleCV(solver="hihgs").fit(X, y)
    assert attempted == []


def test_a_known_solver_still_fits(monkeypatch) -> None:
    """The check is the only new step: with a usable solver the fit runs on (and the spies would see it)."""
    X, y = _large_frame()
    attempted = _forbid_passes_over_the_data(monkeypatch)
    with pytest.raises(AssertionError, match="before the solver was resolved"):
        BooleanRuleClassifier(solver="highs").fit(X.iloc[:100], y[:100])
    assert attempted
