"""The README stays true: the examples of its "Deploy a rule", "Multiclass" and "Class weights" sections run as
doctests, and its command reference is the ``--help`` of every command (at 100 columns).

After changing the CLI, refresh the reference with
``RULEMODELS_UPDATE_README=1 python -m pytest tests/test_readme.py``.
"""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

import pytest

from rulemodels.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"
COMMANDS = ["", "fit", "predict", "export", "report", "exact", "cv", "reproduce", "solvers"]
BLOCK = re.compile(r"```text\n\$ rulemodels (?:(\w+) )?--help\n(.*?)```", re.DOTALL)


def help_text(command: str, capsys, monkeypatch) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as info:
        main([command, "--help"] if command else ["--help"])
    assert info.value.code == 0
    return capsys.readouterr().out


def section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_command_reference_is_the_help_of_every_command(capsys, monkeypatch):
    text = README.read_text()
    expected = {command: help_text(command, capsys, monkeypatch) for command in COMMANDS}
    if os.environ.get("RULEMODELS_UPDATE_README") == "1":
        text = BLOCK.sub(lambda m: f"```text\n$ rulemodels {m.group(1) + ' ' if m.group(1) else ''}--help\n"
                                   f"{expected[m.group(1) or '']}```", text)
        README.write_text(text)
    found = {match.group(1) or "": match.group(2) for match in BLOCK.finditer(text)}
    assert sorted(found) == sorted(COMMANDS), "the README needs one '$ rulemodels COMMAND --help' block per command"
    for command in COMMANDS:
        assert found[command] == expected[command], (
            f"the README's 'rulemodels {command} --help' differs from the CLI: run "
            "RULEMODELS_UPDATE_README=1 python -m pytest tests/test_readme.py"
        )


@pytest.mark.parametrize(("title", "at_least"), [
    ("Deploy a rule", 10),
    ("Multiclass: ordered rule lists", 8),
    ("Class weights and domain constraints", 8),
])
def test_the_sections_with_examples_run_as_doctests(title, at_least):
    text = section(README.read_text(), title)
    examples = "\n".join(block for block in re.findall(r"```python\n(.*?)```", text, re.DOTALL))
    test = doctest.DocTestParser().get_doctest(examples, {}, f"README: {title}", str(README), 0)
    assert len(test.examples) >= at_least
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
