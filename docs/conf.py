"""Sphinx configuration of the rulemodels documentation (``bash dev.sh docs`` builds it).

Why these tools:

- Sphinx with autodoc/autosummary: the API reference comes from the docstrings
  the code already has (one page per public name), so it cannot drift from the code.
- numpydoc: the docstrings are written in the numpydoc format (Parameters,
  Returns, ...), as in scikit-learn, whose estimator API the package follows.
- myst-parser: the topic pages are Markdown that reads well on a code host too;
  MyST renders them unchanged, links between them included.
- myst-nb: the tutorials of notebooks/ are executed at build time (cached), so
  the examples show real, current output, and a notebook that breaks breaks the build.
- pydata-sphinx-theme: the theme of the scientific Python projects (NumPy,
  pandas, scikit-learn) the users know; it ships its fonts and icons.

The build is offline: no intersphinx inventories, MathJax served from the
build's own ``_static`` (the ``django-static-mathjax`` package ships it), and
``_ext/offline.py`` fails the build when a page would load anything from the web.
"""

from __future__ import annotations

import filecmp
import importlib
import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import rulemodels  # noqa: E402

project = "rulemodels"
author = "rulemodels developers"
copyright = "rulemodels developers"
release = version = rulemodels.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "myst_nb",  # brings myst-parser for the .md pages and executes the notebooks
    "cli_reference",
    "api_pages",
    "offline",
]

exclude_patterns = ["_build", "README.md", "**/.ipynb_checkpoints", "examples/*.py", "examples/*.json"]
templates_path = ["_templates"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# -- the existing Markdown pages (MyST) ------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 4  # "page.md#a-heading" links resolve, as on a code host

# -- the notebooks (myst-nb): executed once, re-executed only when their code changes
nb_execution_mode = "cache"
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# No widget manager scripts from a CDN: a progress bar (a tqdm widget) shows as its last text instead.
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]

# -- API reference ---------------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc sections carry the types; signatures stay short
numpydoc_show_class_members = False  # the class template lists members itself
numpydoc_class_members_toctree = False
# The docstring checks of tests/test_docstrings.py (its CHECKS), applied to every object the API reference documents:
# a missing docstring, an undocumented or unknown parameter, a parameter or returned value without a description,
# no Returns (Yields) section, a summary in the third person. A failure is a warning, so an error under -W.
numpydoc_validation_checks = {"GL08", "PR01", "PR02", "PR07", "RT01", "RT03", "SS05", "YD01"}
# Constants (UPPER_CASE names) are not validated: numpydoc validates an object's own ``__doc__``, which for a
# constant is its type's docstring (tuple's, or none at all for a MappingProxyType: GL08), never the ``#:`` comment
# that documents it (autodoc shows the comment; tests/test_docstrings.py leaves data out for the same reason).
numpydoc_validation_exclude = {r"\.[A-Z][A-Z0-9_]*$"}

# -- HTML ------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"rulemodels {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "header_links_before_dropdown": 4,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# A first visit (no stored choice of light or dark) follows the system, without a console error.
html_context = {"default_mode": "auto"}
html_sidebars = {"getting_started": [], "index": []}
mathjax_path = "mathjax/tex-mml-chtml.js"  # copied into _static by _ext/offline.py

# The notebooks run in this Python's kernel, whatever other "python3" kernel the user has installed.
os.environ["JUPYTER_PATH"] = os.pathsep.join(
    filter(None, [str(Path(sys.prefix) / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")])
)

# -- the notebooks are sources beside the package: copy them in (only when changed, so the cache holds)
NOTEBOOKS = DOCS / "notebooks"
NOTEBOOKS.mkdir(exist_ok=True)
for source in sorted((ROOT / "notebooks").glob("*.ipynb")):
    target = NOTEBOOKS / source.name
    if not target.exists() or not filecmp.cmp(source, target, shallow=False):
        shutil.copyfile(source, target)
for stale in NOTEBOOKS.glob("*.ipynb"):
    if not (ROOT / "notebooks" / stale.name).exists():
        stale.unlink()

# -- the public faces whose __all__ the API reference documents (see _ext/api_pages.py)
api_faces = [
    "rulemodels",
    "rulemodels.rules",
    "rulemodels.data",
    "rulemodels.models",
    "rulemodels.algorithms",
    "rulemodels.experiments",
    "solvers",
]
for face in api_faces:
    importlib.import_module(face)


def skip_foreign_members(app, what, name, obj, skip, options):
    """Leave out the members a class inherits from scikit-learn (``set_fit_request``, ...): their docstrings are
    scikit-learn's, with references into scikit-learn's own documentation."""
    module = getattr(obj, "__module__", None) or ""
    if callable(obj) and module.split(".")[0] == "sklearn":
        return True
    return None


#: titles of the result tables that ``rulemodels reproduce`` writes without one (docs/results/README.md says what they are)
RESULT_TITLES = {
    "results/table1": "Table 1: minimal mean test error over θ (%), the paper's number in brackets",
    "results/nested_selection": "Test error (%) with θ chosen by nested cross-validation, the paper's number in brackets",
}


def title_result_tables(app, docname, source):
    """Give the generated result tables a title on their page (the files stay as ``reproduce`` writes them)."""
    title = RESULT_TITLES.get(docname)
    if title and not source[0].lstrip().startswith("#"):
        source[0] = f"# {title}\n\n{source[0]}"


def setup(app):
    app.connect("autodoc-skip-member", skip_foreign_members)
    app.connect("source-read", title_result_tables)
