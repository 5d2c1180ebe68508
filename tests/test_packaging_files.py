"""The files a user or a citing author reads beside the code: the licence, the changelog and the citation
file agree with the package metadata (``pyproject.toml``, as installed), so a release cannot ship one without
the other; and the wheel holds every file of the packages, the data files they read included."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import metadata
from pathlib import Path

import pytest
import yaml

import rulemodels

ROOT = Path(__file__).resolve().parents[1]
METADATA = metadata("rulemodels")
URLS = dict(entry.split(", ", 1) for entry in METADATA.get_all("Project-URL") or [])


def test_the_licence_file_is_the_licence_the_metadata_declares() -> None:
    assert METADATA["License-Expression"] == "BSD-3-Clause" and METADATA.get_all("License-File") == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "Neither the name of the copyright holder nor the names of its" in text  # the third clause
    assert "CC BY 4.0" in text  # the bundled datasets keep their own licence


def test_the_citation_file_cites_this_version_and_the_paper() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    assert str(citation["version"]) == METADATA["Version"]
    assert citation["license"] == METADATA["License-Expression"]
    (paper,) = citation["references"]
    assert paper["title"] == "Interpretable Two-level Boolean Rule Learning for Classification"
    assert [a["family-names"] for a in paper["authors"]] == ["Su", "Wei", "Varshney", "Malioutov"]
    assert paper["url"] == URLS["Paper"]


def test_the_changelog_keeps_an_unreleased_section_above_this_version() -> None:
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(), flags=re.MULTILINE)
    assert headings[0] == "Unreleased"
    assert headings[1].split()[0] == METADATA["Version"]


def test_the_package_version_is_the_metadata_version() -> None:
    assert rulemodels.__version__ == METADATA["Version"] and "__version__" in rulemodels.__all__


@pytest.mark.slow
def test_the_wheel_holds_every_file_of_the_packages(tmp_path: Path) -> None:
    """Every file under rulemodels/ and solvers/ (the report's style sheet, the bundled datasets and their card,
    the py.typed markers: pyproject's package-data) is in the wheel built from the sources."""
    source = tmp_path / "source"  # the build runs on a copy: it writes nothing into the checkout
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("rulemodels", "solvers"):
        shutil.copytree(ROOT / package, source / package, ignore=skip)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    files = sorted(str(path.relative_to(source)) for package in ("rulemodels", "solvers")
                   for path in (source / package).rglob("*") if path.is_file())
    assert "rulemodels/report/report.css" in files and "rulemodels/datasets/data/pima.csv" in files
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet", "-w",
                            str(tmp_path / "dist")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("rulemodels-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    assert [name for name in files if name not in shipped] == []
