"""Keep the built site offline: MathJax from the site itself, and no page that loads from the web.

- MathJax 3 (the formulas of the notebooks and docstrings) is copied from the
  ``django-static-mathjax`` package (the ``mathjax`` module: MathJax's own
  release files, no Django needed) into ``_static/mathjax/``; ``conf.py`` points
  ``mathjax_path`` there. Only what ``tex-mml-chtml.js`` loads is copied: the
  CHTML output with its fonts and the components it loads on demand.
- Every HTML and CSS file of the build is then searched for a resource loaded
  from another host (``<script src>``, ``<link href>``, ``<img src>``,
  ``<iframe>``, CSS ``url()`` and ``@import``): each is a warning, so
  ``sphinx-build -W`` fails. Links a reader may follow (``<a href>``) are fine.
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: what of MathJax's es5/ directory the combined tex-mml-chtml.js component may load
MATHJAX_FILES = ("tex-mml-chtml.js",)
MATHJAX_DIRS = ("a11y", "adaptors", "input", "output/chtml", "sre", "ui")

REMOTE = r"""(?:https?:)?//[^"'\s)>]+"""
PATTERNS = (
    re.compile(r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*?\bsrc\s*=\s*["']?(""" + REMOTE + ")", re.I),
    re.compile(r"""<link\b[^>]*?\bhref\s*=\s*["']?(""" + REMOTE + ")", re.I),
    re.compile(r"""url\(\s*["']?(""" + REMOTE + ")", re.I),
    re.compile(r"""@import\s+["'](""" + REMOTE + ")", re.I),
)


def mathjax_source() -> Path | None:
    try:
        es5 = resources.files("mathjax") / "static" / "mathjax" / "es5"
    except ModuleNotFoundError:
        return None
    path = Path(str(es5))
    return path if (path / MATHJAX_FILES[0]).is_file() else None


def copy_mathjax(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = mathjax_source()
    if source is None:
        logger.warning("offline: MathJax is not installed (the docs extra's django-static-mathjax): "
                       "formulas will not render; pip install -e '.[docs]'")
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    if (target / ".source").is_file() and (target / ".source").read_text() == str(source):
        return  # copied by an earlier build
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in MATHJAX_FILES:
        shutil.copy2(source / name, target / name)
    for name in MATHJAX_DIRS:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name)
    (target / ".source").write_text(str(source))


def check_offline(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    skip = outdir / "_static" / "mathjax"
    for path in sorted([*outdir.rglob("*.html"), *outdir.rglob("*.css")]):
        if skip in path.parents:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in PATTERNS:
            for match in pattern.finditer(text):
                logger.warning("offline: %s loads %s from the web", path.relative_to(outdir), match.group(1))


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", copy_mathjax)
    app.connect("build-finished", check_offline)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
