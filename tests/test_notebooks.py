"""The tutorial notebooks run top to bottom and are stored without outputs.

Every ``notebooks/*.ipynb`` runs the way a user who installed the package runs
it (``test_notebook_runs_from_wheel``): a wheel of the project is built and
installed with its ``notebooks`` extra alone into a fresh virtual environment
(once per session), and each notebook runs with nbclient in that environment's
kernel, from a temporary working directory outside the repository (no source
tree, no ``docs/results``) and with PATH holding only the environment's own
programs (no ``cbc``, no ``glpsol``: HiGHS, which comes with the package, is the
only solver). A cell that raises fails the test (nbclient's
``CellExecutionError`` carries the cell and its traceback).

Two notebooks take another path where the repository's development setup has
more, so they also run in this environment's ``python3`` kernel with the
working directory ``notebooks/`` (``test_notebook_runs``):
``02_inspect_models`` solves with CBC and GLPK where they are installed, and
``04_reproduce_paper`` reads the results of ``rulemodels reproduce`` from
``$RULEMODELS_RESULTS`` when it is set, else from the committed
``docs/results`` (without a ``table1.csv`` there the test fails and says so;
from the wheel it runs a small protocol itself).

Each notebook's source is the jupytext percent-format ``.py`` beside it
(``notebooks/01_quickstart.py`` ...); ``jupytext --sync notebooks/0*.py``
writes the ``.ipynb`` from it, and a test checks that the two hold the same
cells.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
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
#: The notebooks whose path depends on what the development setup has beyond a
#: wheel install: CBC and GLPK (02), the committed docs/results (04).
DEV_SETUP_NOTEBOOKS = ("02_inspect_models.ipynb", RESULTS_NOTEBOOK)
CELL_TIMEOUT = 300  # seconds per cell
#: What a wheel build needs of the repository (pyproject.toml: readme, packages rulemodels*, solvers*).
WHEEL_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "rulemodels", "solvers")
WHEEL_KERNEL = "rulemodels-wheel"

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
@pytest.mark.parametrize("path", [NOTEBOOK_DIR / name for name in DEV_SETUP_NOTEBOOKS], ids=lambda path: path.name)
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


@dataclass(frozen=True)
class WheelEnvironment:
    """A fresh virtual environment with the project's wheel and its ``notebooks`` extra."""

    venv: Path
    jupyter_path: Path  # holds the kernel spec WHEEL_KERNEL, which starts the environment's python

    @property
    def bin(self) -> Path:
        return self.venv / "bin"


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _stripped_environment(bin_dir: Path) -> dict[str, str]:
    """os.environ with PATH = the environment's own programs only, and nothing pointing at the checkout."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "RULEMODELS_RESULTS")}
    env["PATH"] = str(bin_dir)
    return env


@pytest.fixture(scope="session")
def wheel_environment(tmp_path_factory: pytest.TempPathFactory) -> WheelEnvironment:
    """Build the wheel from a copy of the sources, install it with `[notebooks]` into a new venv."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"  # a copy, so the build writes nothing into the checkout
    for name in WHEEL_SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    _run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet", "-w", str(root / "dist")])
    (wheel,) = (root / "dist").glob("rulemodels-*.whl")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", "--no-compile", f"{wheel}[notebooks]"])
    environment = WheelEnvironment(venv=venv, jupyter_path=root / "jupyter")
    spec_dir = environment.jupyter_path / "kernels" / WHEEL_KERNEL
    spec_dir.mkdir(parents=True)
    spec = {"argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "rulemodels (wheel)", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    # What the notebooks will see: the installed package, and HiGHS as the only solver.
    probe = _run([str(python), "-c", "import rulemodels, solvers; print(rulemodels.__file__); print(solvers.available_backends())"],
                 cwd=root, env=_stripped_environment(environment.bin))
    package_file, backends = probe.stdout.splitlines()
    assert Path(package_file).is_relative_to(venv), package_file
    assert backends == "['highs']", f"only HiGHS should be usable from the wheel environment, not {backends}"
    return environment


def test_the_wheel_ships_its_licence_and_fits_away_from_the_checkout(wheel_environment: WheelEnvironment, tmp_path: Path) -> None:
    """The installed wheel carries the BSD-3-Clause text its metadata declares, and `python -m rulemodels fit pima`
    runs from it in a directory far from the checkout (HiGHS from pip, no solver binary on PATH)."""
    python = str(wheel_environment.bin / "python")
    env = _stripped_environment(wheel_environment.bin)
    probe = _run([python, "-c", (
        "from importlib.metadata import distribution; d = distribution('rulemodels'); m = d.metadata; "
        "print(m['License-Expression']); print(m.get_all('License-File')); print(m.get_all('Project-URL')); "
        "print(next(f for f in d.files if f.name == 'LICENSE').read_text().splitlines()[0])"
    )], cwd=tmp_path, env=env)
    expression, files, urls, first_line = probe.stdout.splitlines()
    assert expression == "BSD-3-Clause" and "LICENSE" in files and "arxiv.org/abs/1511.07361" in urls
    assert first_line == "BSD 3-Clause License"
    assert (ROOT / "LICENSE").read_text().startswith(first_line)
    fitted = _run([python, "-m", "rulemodels", "fit", "pima"], cwd=tmp_path, env=env)
    assert "rule (diabetes = 1 when true):" in fitted.stdout and "training error" in fitted.stdout, fitted.stdout


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs_from_wheel(
    path: Path, wheel_environment: WheelEnvironment, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The kernel starts with this process's environment: strip it as for a user who ran `pip install`.
    for key, value in _stripped_environment(wheel_environment.bin).items():
        monkeypatch.setenv(key, value)
    for key in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "RULEMODELS_RESULTS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("JUPYTER_PATH", str(wheel_environment.jupyter_path))
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=CELL_TIMEOUT, kernel_name=WHEEL_KERNEL, resources={"metadata": {"path": str(tmp_path)}}
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
