"""Each module of the library over 700 lines is named, with its one concern, in docs/architecture.md."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 700


def test_every_module_over_the_limit_is_named_in_the_architecture_notes():
    notes = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = notes.split("## Module sizes", 1)[1].split("\n## ", 1)[0]
    large = sorted(
        str(path.relative_to(ROOT)) for package in ("rulemodels", "solvers") for path in (ROOT / package).rglob("*.py")
        if len(path.read_text(encoding="utf-8").splitlines()) > LIMIT
    )
    unnamed = [path for path in large if f"`{path}`" not in section]
    assert unnamed == [], f"modules over {LIMIT} lines not named (with their one concern) under 'Module sizes': {unnamed}"
