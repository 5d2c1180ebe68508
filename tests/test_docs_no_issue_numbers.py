"""The documentation names changes, not the project's issue numbers.

A reader of the docs site, the README or the changelog cannot open the project's issue tracker, so "issue 27" or
"#41" tells them nothing: a page says what changed, and when (a date, a release or a commit). Checked: every
Markdown and reStructuredText page under docs/ (the changelog page includes CHANGELOG.md), README.md and
CHANGELOG.md.

What counts as an issue number: "issue", "issues", "pull request" or "PR", then an optional "#" and a number
("issue 27", "Issue #38", "PR 12"); and a bare "#41" (a "#" and digits, not inside a word, not a hex colour such as
"#1f77b4" and not a URL's fragment). Links to other projects' bug trackers are allowed: a URL is removed before the
check, so ".../pyomo/issues/3124" does not count, and neither does its link text unless it says "issue 3124" (say
"Pyomo's bug report" instead).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
URL = re.compile(r"https?://\S+")
ISSUE_NUMBER = re.compile(r"\b(?:issues?|pull\s+requests?|PRs?)\s*(?:no\.?\s*)?#?\d+\b|(?<![\w&/#])#\d+\b",
                          re.IGNORECASE)


def pages() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    for pattern in ("*.md", "*.rst"):
        found += [path for path in (ROOT / "docs").rglob(pattern) if "_build" not in path.parts]
    return sorted(found)


def issue_numbers(text: str) -> list[str]:
    """The issue numbers in ``text`` (URLs left out), as the lines that hold them."""
    return [f"{number}: {line.strip()[:160]}" for number, line in enumerate(text.splitlines(), 1)
            if ISSUE_NUMBER.search(URL.sub("", line))]


@pytest.mark.parametrize("text, found", [
    ("Issue 27: choosing the selection rule", True),
    ("the default until issue 27's last change", True),
    ("see issues #38 and #41", True),
    ("fixed in PR 12", True),
    ("as #41 asked", True),
    ("measured on 2026-11-25 (commit aeebee4)", False),
    ("a Pyomo bug: https://github.com/Pyomo/pyomo/issues/3124", False),
    ("a colour #1f77b4 and an anchor (theta.md#a-floor-in-rows)", False),
    ("10 issues left out of 200 rows", False),
])
def test_the_pattern_finds_issue_numbers_and_nothing_else(text, found):
    assert bool(issue_numbers(text)) is found


def test_the_pages_checked_include_the_research_pages_and_the_changelog():
    names = {path.relative_to(ROOT).as_posix() for path in pages()}
    assert {"README.md", "CHANGELOG.md", "docs/theta.md", "docs/benchmarks.md", "docs/changelog.md"} <= names
    assert "../CHANGELOG.md" in (ROOT / "docs" / "changelog.md").read_text()  # the page shows CHANGELOG.md


def test_no_page_of_the_docs_names_an_issue_number():
    found = {path.relative_to(ROOT).as_posix(): lines for path in pages()
             if (lines := issue_numbers(path.read_text(encoding="utf-8")))}
    assert not found, "say what changed and when, not the issue number:\n" + "\n".join(
        f"{name}:{line}" for name, lines in found.items() for line in lines)
