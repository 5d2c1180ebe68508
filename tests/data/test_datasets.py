"""Tests for rulemodels.datasets: the bundled UCI benchmark datasets."""

from __future__ import annotations

import hashlib
import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pytest

from rulemodels.datasets import DATASET_INFO, list_datasets, load_dataset

if TYPE_CHECKING:
    from importlib.abc import Traversable

# Shapes and class counts from the dataset table (shared datasets README, and
# rulemodels/datasets/data/README.md): rows, features, positives, negatives.
EXPECTED = {
    "sonar": (208, 60, 111, 97),  # label: 111 M (positive) / 97 R
    "liver": (345, 6, 200, 145),  # selector: 200 of class 2 (positive) / 145 of class 1
    "pima": (768, 8, 268, 500),
    "parkinsons": (195, 22, 147, 48),
}


def _packaged(name: str) -> Traversable:
    return resources.files("rulemodels.datasets").joinpath("data").joinpath(name)


def test_list_datasets() -> None:
    assert list_datasets() == ["liver", "parkinsons", "pima", "sonar"]
    assert set(DATASET_INFO) == set(list_datasets())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shapes_and_class_counts(name: str) -> None:
    rows, features, positives, negatives = EXPECTED[name]
    X, y = load_dataset(name)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series)
    assert X.shape == (rows, features)
    assert len(y) == rows
    assert int(y.sum()) == positives
    assert int((y == 0).sum()) == negatives
    assert y.name == DATASET_INFO[name]["target"]
    assert y.name not in X.columns
    assert y.dtype.kind == "i"
    assert set(y.unique()) == {0, 1}
    assert X.index.equals(y.index)
    assert all(pd.api.types.is_numeric_dtype(dtype) for dtype in X.dtypes)
    assert not X.isna().any().any()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_target_is_the_positive_class_of_the_raw_file(name: str) -> None:
    info = DATASET_INFO[name]
    with _packaged(str(info["file"])).open("rb") as handle:
        raw = pd.read_csv(handle)
    _, y = load_dataset(name)
    assert np.array_equal(y.to_numpy(), (raw[info["target"]] == info["positive"]).to_numpy())
    assert raw[info["target"]].nunique() == 2


def test_parkinsons_drops_the_recording_name() -> None:
    X, _ = load_dataset("parkinsons")
    assert "name" not in X.columns
    assert "status" not in X.columns


def test_sonar_and_liver_positive_classes() -> None:
    assert DATASET_INFO["sonar"]["positive"] == "M"
    assert DATASET_INFO["liver"]["positive"] == 2
    X, y = load_dataset("sonar")
    assert list(X.columns) == [f"band_{k:02d}" for k in range(1, 61)]


def test_dataset_info_fields() -> None:
    for name, info in DATASET_INFO.items():
        assert {"target", "positive", "description", "citation"} <= set(info), name
        assert "UCI Machine Learning Repository" in str(info["citation"]), name


def test_unknown_name_lists_available_datasets() -> None:
    with pytest.raises(ValueError, match=r"unknown dataset 'iris'; available datasets are "
                                         r"\['liver', 'parkinsons', 'pima', 'sonar'\]"):
        load_dataset("iris")


def test_loading_goes_through_importlib_resources(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    # Point the package's resources at a fake tree: load_dataset must read it,
    # which shows it does not open a fixed path such as the shared folder.
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "pima.csv").write_text("glucose,diabetes\n100,1\n90,0\n80,0\n")
    calls = []

    def fake_files(package: str) -> Path:
        calls.append(package)
        return tmp_path

    monkeypatch.setattr(resources, "files", fake_files)
    X, y = load_dataset("pima")
    assert calls == ["rulemodels.datasets"]
    assert X.columns.tolist() == ["glucose"]
    assert y.tolist() == [1, 0, 0]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_packaged_files_match_published_checksums(name: str) -> None:
    readme = _packaged("README.md").read_text(encoding="utf-8")
    checksums = {file: digest for digest, file in re.findall(r"^([0-9a-f]{64})  (\S+)$", readme, re.M)}
    data = _packaged(f"{name}.csv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == checksums[f"{name}.csv"]


def test_readme_attribution() -> None:
    readme = _packaged("README.md").read_text(encoding="utf-8")
    for text in ("CC BY 4.0", "Dua, D. and Graff, C.", "Gorman", "Forsyth", "Sigillito",
                 "Little"):
        assert text in readme
