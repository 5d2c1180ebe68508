"""The tutorial notebooks run top to bottom and are stored without outputs.

Each ``notebooks/*.ipynb`` is executed with nbclient in a ``python3`` kernel
whose working directory is ``notebooks/``; a cell that raises fails the test
(nbclient's ``CellExecutionError`` carries the cell and its traceback).

Each notebook's source is the jupytext percent-format ``.py`` beside it
(``notebooks/01_quickstart.py`` ...); ``jupytext --sync notebooks/0*.py``
writes the ``.ipynb`` from it, and a test checks that the two hold the same
cells.

``04_reproduce_paper.ipynb`` reads the results of ``rulemodels reproduce``:
from ``$RULEMODELS_RESULTS`` when it is set, else from the committed
``docs/results``. Without a ``table1.csv`` there the test fails and says so.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = (
    "01_quickstart.ipynb", "02_inspect_models.ipynb", "03_algorithms.ipynb", "04_reproduce_paper.ipynb",
    "05_constraints.ipynb",
)
RESULTS_NOTEBOOK = "04_reproduce_paper.ipynb"
CELL_TIMEOUT = 300  # seconds per cell

#: A reference to the paper: a numbered equation, a section, Table 1, a
#: figure, or an equation's LaTeX label.
PAPER_REFERENCE = re.compile(
    r"\beqs?\.\s*\(\d+\)|\bSection\s+\d|\bTable\s+1\b|\bFigures?\s+\d"
    r"|OneLevelFormulation|StdFormulation|HammingFormulation|GeneralLPFormulation"
)


def _results_dir() -> Path:
    """The directory notebook 04 reads: $RULEMODELS_RESULTS, else docs/results."""
    chosen = os.environ.get("RULEMODELS_RESULTS")
    directory = Path(chosen) if chosen else ROOT / "docs" / "results"
    if not (directory / "table1.csv").is_file():
        pytest.fail(
            f"{RESULTS_NOTEBOOK} reads the output of `rulemodels reproduce`, but {directory / 'table1.csv'} "
            "does not exist: run `rulemodels reproduce --out docs/results` (the committed results), or set "
            "RULEMODELS_RESULTS to a directory written by `rulemodels reproduce --out DIR`"
        )
    return directory


def test_the_tutorials_are_there() -> None:
    assert [path.name for path in NOTEBOOKS] == list(EXPECTED)


def cells(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(cell type, source) of every cell, the part of a notebook its .py source determines."""
    return [(cell.cell_type, cell.source) for cell in notebook.cells]


def test_every_notebook_has_its_source() -> None:
    sources = sorted(path.with_suffix(".ipynb").name for path in NOTEBOOK_DIR.glob("[0-9]*.py"))
    assert sources == list(EXPECTED), "each notebooks/NN_name.ipynb is generated from notebooks/NN_name.py"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_agrees_with_its_source(path: Path) -> None:
    source = path.with_suffix(".py")
    from_source = cells(jupytext.read(source))
    stored = cells(nbformat.read(path, as_version=4))
    assert from_source == stored, (
        f"{path.name} differs from {source.name}: edit {source.name}, then run "
        "`jupytext --sync notebooks/0*.py` to regenerate the .ipynb"
    )


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel inherits this environment: make the package importable from
    # the checkout even where it is not installed.
    pythonpath = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(pythonpath))
    if path.name == RESULTS_NOTEBOOK:
        monkeypatch.setenv("RULEMODELS_RESULTS", str(_results_dir()))
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK_DIR)}}
    )
    client.execute()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_stored_clean(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name} cell {index} is stored with outputs: clear them"
            assert cell.execution_count is None, f"{path.name} cell {index} is stored with an execution count"
    markdown = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    assert any(PAPER_REFERENCE.search(text) for text in markdown), (
        f"{path.name} has no markdown cell citing an equation, section, table or figure of the paper"
    )
