"""The README and the user guide stay true: their Python examples run as doctests, and the README is a front
door (short, its links resolve).

The command-line reference is not pasted anywhere: the documentation site generates it from the parser
(``docs/_ext/cli_reference.py``).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def run_examples(path: Path, at_least: int) -> None:
    """Run the ``>>>`` examples of the file's ```python blocks; at least ``at_least`` of them, none failing."""
    text = path.read_text(encoding="utf-8")
    examples = "\n".join(re.findall(r"```python\n(.*?)```", text, re.DOTALL))
    test = doctest.DocTestParser().get_doctest(examples, {}, path.name, str(path), 0)
    assert len(test.examples) >= at_least, f"{path.name}: {len(test.examples)} examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_readme_example_runs_and_prints_what_it_shows():
    run_examples(README, 8)


def test_the_readme_is_a_front_door():
    """At most 150 lines; pip install before the developer route; links into the documentation."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert text.index("pip install rulemodels") < text.index("bash dev.sh demo") < text.index("bash dev.sh test")
    assert "--help" not in text  # no pasted help: the site's command-line reference is generated
    assert sum(1 for target in LINK.findall(text) if target.startswith("docs/")) >= 15


def test_every_relative_link_of_the_readme_and_the_guide_names_a_file_that_exists():
    pages = [README, *sorted(GUIDE.glob("*.md")), *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if not (page.parent / target.split("#")[0]).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken


@pytest.mark.parametrize(("page", "at_least"), [("deploy", 10), ("multiclass", 8), ("weights", 8)])
def test_the_guide_pages_with_examples_run_as_doctests(page, at_least):
    run_examples(GUIDE / f"{page}.md", at_least)


def test_the_user_guide_speaks_to_users():
    """No issue numbers in the user guide's pages (the lab notes live in the research pages)."""
    found = [f"{page.name}: {line.strip()[:80]}" for page in sorted(GUIDE.glob("*.md"))
             for line in page.read_text(encoding="utf-8").splitlines() if re.search(r"\bissue \d+", line, re.I)]
    assert not found


#: a threshold method called the default: `"tree"` (the default), `"tree"`, the default, the default `"tree"`
_METHOD = r'`"(quantile|tree|quantile\+tree)"`'
DEFAULT_CLAIM = re.compile(rf"{_METHOD},? \(?the default|the default {_METHOD}")


def test_where_the_readme_or_the_guide_names_the_default_thresholds_it_is_the_codes():
    """The estimators' default (and ``rulemodels fit``'s), or ``FeatureBinarizer``'s in a sentence about it."""
    from rulemodels import BooleanRuleClassifier
    from rulemodels.data import FeatureBinarizer

    claims = 0
    for path in [README, *sorted(GUIDE.glob("*.md"))]:
        text = " ".join(path.read_text(encoding="utf-8").split())
        for match in DEFAULT_CLAIM.finditer(text):
            sentence = text[text.rfind(". ", 0, match.start()) + 1:match.end()]
            owner = FeatureBinarizer() if "FeatureBinarizer" in sentence else BooleanRuleClassifier()
            assert (match.group(1) or match.group(2)) == owner.thresholds, f"{path.name}: {sentence!r}"
            claims += 1
    assert claims >= 1  # python.md lists the estimator's parameters with their defaults

