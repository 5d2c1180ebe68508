"""The supported version ranges: declared alike everywhere, and the running versions inside them.

``bash dev.sh test`` runs this file in .venv (the newest versions pip picks
within the ranges) and in .venv-oldest (constraints/oldest.txt), where
``RULEMODELS_OLDEST_LANE=1`` makes it check that the oldest versions are the
ones installed.
"""

from __future__ import annotations

import os
import re
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

REPO = Path(__file__).resolve().parents[2]

#: the packages whose ranges are pinned and tested
PINNED = ("pyomo", "highspy", "numpy", "pandas", "scipy", "scikit-learn", "joblib", "tqdm")


def pyproject_requirements() -> dict[str, Requirement]:
    text = (REPO / "pyproject.toml").read_text()
    block = text[text.index("dependencies = [") : text.index("]", text.index("dependencies = ["))]
    return {req.name: req for req in (Requirement(spec) for spec in re.findall(r'^\s*"([^"]+)"', block, re.MULTILINE))}


def conda_requirements() -> dict[str, str]:
    found = {}
    for line in (REPO / "environment.yml").read_text().splitlines():
        match = re.match(r"\s*-\s*([A-Za-z][\w-]*)([<>=!].*)$", line)
        if match:
            found[match.group(1)] = match.group(2).strip()
    return found


def oldest_pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "constraints" / "oldest.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip()] = version.strip()
    return pins


def lower_bound(requirement: Requirement) -> str:
    (bound,) = [spec.version for spec in requirement.specifier if spec.operator == ">="]
    return bound


def test_ranges_are_declared_alike_in_pyproject_environment_and_constraints():
    requirements, conda, pins = pyproject_requirements(), conda_requirements(), oldest_pins()
    assert set(pins) == set(PINNED)
    for name in PINNED:
        requirement = requirements[name]
        operators = sorted(spec.operator for spec in requirement.specifier)
        assert operators == ["<", ">="], f"{name} needs a lower and an upper bound: {requirement}"
        assert lower_bound(requirement) == pins[name], name
        assert Requirement(f"{name}{conda[name]}").specifier == requirement.specifier, name


def test_installed_versions_are_inside_the_supported_ranges():
    requirements, pins = pyproject_requirements(), oldest_pins()
    oldest_lane = os.environ.get("RULEMODELS_OLDEST_LANE") == "1"
    for name in PINNED:
        installed = Version(metadata.version(name))
        assert requirements[name].specifier.contains(installed, prereleases=True), (name, str(installed))
        if oldest_lane:
            assert installed == Version(pins[name]), (name, str(installed))
