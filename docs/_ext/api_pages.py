"""The API reference's pages, written from the public names (``__all__``) of the package faces.

The configuration value ``api_faces`` lists the modules whose ``__all__`` is the
public API. Before autosummary runs, this writes ``api/<face>.rst`` for each:
the module's docstring, then its names grouped by kind in autosummary tables.
autosummary then writes one page per name under ``api/generated/``. A name is
given its page once, on the face nearest to where it is defined
(``rulemodels.Rule`` is documented as ``rulemodels.rules.Rule``); the other faces
that export it link to that page. The names are read with ``getattr``, so the
faces that import their names lazily (a module ``__getattr__``) are documented
like the others.

A constant is documented by the ``#:`` comment or the string after its
assignment in the module that defines it (autodoc alone looks in the face,
and would show the docstring of the value's type, ``tuple`` or ``str``).

A cross-reference to a re-exported name (``:class:`rulemodels.Rule```,
``:meth:`rulemodels.Rule.to_json```, or ``:class:`Rule``` in the docstring of
``rulemodels``) resolves to that page.

When the build ends, every public name must have its page: a missing one is a
warning (an error under ``-W``).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

logger = logging.getLogger(__name__)

GENERATED = "generated"
KINDS = ("Classes", "Functions", "Exceptions and warnings", "Constants")


def kind_of(value: Any) -> str:
    if inspect.isclass(value):
        return "Exceptions and warnings" if issubclass(value, BaseException) else "Classes"
    if callable(value):
        return "Functions"
    return "Constants"


def public_names(face: str) -> list[tuple[str, Any]]:
    module = importlib.import_module(face)
    return [(name, getattr(module, name)) for name in module.__all__]


def home_faces(faces: list[str]) -> dict[tuple[str, str], str]:
    """(face, name) -> the face whose page documents that name.

    The same object exported by several faces is documented on the one whose
    name is the longest prefix of the module that defines it (the first face listed otherwise).
    """
    exported: dict[tuple[str, int], list[str]] = {}
    values: dict[tuple[str, int], Any] = {}
    for face in faces:
        for name, value in public_names(face):
            key = (name, id(value))
            exported.setdefault(key, []).append(face)
            values[key] = value
    homes = {}
    for key, where in exported.items():
        defined_in = getattr(values[key], "__module__", None) or ""
        matching = [face for face in where if defined_in == face or defined_in.startswith(face + ".")]
        home = max(matching, key=len) if matching else where[0]
        for face in where:
            homes[(face, key[0])] = home
    return homes


@functools.lru_cache(maxsize=4)
def cached_homes(faces: tuple[str, ...]) -> dict[tuple[str, str], str]:
    return home_faces(list(faces))


def face_page(face: str, homes: dict[tuple[str, str], str]) -> str:
    title = f"``{face}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {face}", "", f".. currentmodule:: {face}", ""]
    groups: dict[str, tuple[list[str], list[str]]] = {kind: ([], []) for kind in KINDS}
    for name, value in public_names(face):
        home = homes[(face, name)]
        own, elsewhere = groups[kind_of(value)]
        if home == face:
            own.append(name)
        else:
            # relative to the face (autosummary refuses the current module's own name in an entry)
            relative = home[len(face) + 1:] if home.startswith(face + ".") else home
            elsewhere.append(f"~{relative}.{name}")
    for kind in KINDS:
        own, elsewhere = groups[kind]
        if not own and not elsewhere:
            continue
        lines += [kind, "-" * len(kind), ""]
        if own:
            lines += [".. autosummary::", f"   :toctree: {GENERATED}", "   :nosignatures:", ""]
            lines += [f"   {name}" for name in own] + [""]
        if elsewhere:
            lines += ["Also exported here, documented where they are defined:", "",
                      ".. autosummary::", "   :nosignatures:", ""]
            lines += [f"   {name}" for name in elsewhere] + [""]
    return "\n".join(lines)


def write_pages(app: Sphinx, config: Config) -> None:
    folder = Path(app.srcdir) / "api"
    folder.mkdir(exist_ok=True)
    homes = home_faces(config.api_faces)
    for face in config.api_faces:
        page = folder / f"{face}.rst"
        text = face_page(face, homes)
        if not page.exists() or page.read_text(encoding="utf-8") != text:  # unchanged pages stay unread
            page.write_text(text, encoding="utf-8")


def resolve_reexport(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a Python cross-reference to a name a face re-exports to the page where it is documented."""
    if node.get("refdomain") != "py":
        return None
    homes = cached_homes(tuple(app.config.api_faces))
    target = node["reftarget"]
    candidates = [target]
    if node.get("py:module"):
        candidates.append(f"{node['py:module']}.{target}")
    for candidate in candidates:
        parts = candidate.split(".")
        for cut in range(len(parts), 1, -1):  # rulemodels.Rule, also rulemodels.Rule.to_json
            face, name, rest = ".".join(parts[:cut - 1]), parts[cut - 1], parts[cut:]
            home = homes.get((face, name))
            if home is not None and home != face:
                target = ".".join([home, name, *rest])
                return env.domains["py"].resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                                      target, node, contnode)
    return None


def constant_doc(face: str, name: str) -> list[str]:
    """The documentation of the constant ``face.name`` in the module of ``face``'s package that assigns it."""
    value = getattr(importlib.import_module(face), name)
    package = face.split(".")[0]
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not (module_name == package or module_name.startswith(package + ".")):
            continue
        if module.__dict__.get(name, None) is not value:
            continue
        try:
            docs = ModuleAnalyzer.for_module(module_name).find_attr_docs()
        except Exception:  # no source (a compiled module): look further
            continue
        if ("", name) in docs:
            return list(docs[("", name)])
    return []


def document_constant(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A public constant's own documentation instead of its type's docstring."""
    if what != "data":
        return
    face, _, short = name.rpartition(".")
    if face in app.config.api_faces:
        lines[:] = constant_doc(face, short)


def check_pages(app: Sphinx, exception: Exception | None) -> None:
    """Warn for each public name whose page was not written."""
    if exception is not None:
        return
    homes = home_faces(app.config.api_faces)
    missing = sorted({f"{home}.{name}" for (_, name), home in homes.items()
                      if f"api/{GENERATED}/{home}.{name}" not in app.env.found_docs})
    for name in missing:
        logger.warning("api_pages: the public name %s has no API page", name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("api_faces", [], "env", list)
    app.connect("config-inited", write_pages)
    app.connect("missing-reference", resolve_reexport)
    app.connect("autodoc-process-docstring", document_constant)
    app.connect("build-finished", check_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
