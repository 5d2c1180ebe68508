"""The files a user or a citing author reads beside the code: the licence, the changelog and the citation
file agree with the package metadata (``pyproject.toml``, as installed), so a release cannot ship one without
the other."""

from __future__ import annotations

import re
from importlib.metadata import metadata
from pathlib import Path

import yaml

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
