"""The lazy exports of a package face (PEP 562), written once for every package of the project.

A face imports its public names under ``if TYPE_CHECKING:``, for type checkers
and IDEs; that block is also the table of the lazy exports (:func:`exported_names`
reads it), so each name is written once, in one place. A name's module is imported on first
access, so importing the face loads nothing heavy (``import rulemodels`` loads
neither Pyomo nor scikit-learn). Standard library only, so that every layer of
``rulemodels`` may use it (``rulemodels``, ``rulemodels.data`` and ``solvers`` do).

>>> __getattr__, __dir__ = lazy_exports("solvers", {"DEFAULT_SOLVER": "solvers.defaults"})
>>> __getattr__("DEFAULT_SOLVER")
'highs'
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the faces load nothing but this module
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["exported_names", "lazy_exports"]


def exported_names(source: str) -> dict[str, str]:
    """The public names of a face and their modules, read from the face's ``if TYPE_CHECKING:`` block.

    The block is the face's one list of its exports: type checkers and IDEs
    read it as imports, :func:`lazy_exports` as the table of what to import on
    first use. Each line of it is ``from MODULE import NAME as NAME``: the
    redundant alias marks an explicit re-export (PEP 484), which strict type
    checkers (``mypy --no-implicit-reexport``, pyright on a ``py.typed``
    package) ask of a name imported from a package face. It is read as text,
    line by line (no :mod:`ast`, which would cost ``import rulemodels``
    milliseconds): the block is the top-level ``if TYPE_CHECKING:`` and the
    indented or blank lines after it.

    Parameters
    ----------
    source : str
        The face's source code.

    Returns
    -------
    dict of str to str
        Public name -> the (absolute) module that defines it, in the order of the block.

    Raises
    ------
    ValueError
        When the source has no such block, or a line of it is not such an import.

    Examples
    --------
    >>> exported_names('''
    ... if TYPE_CHECKING:  # for type checkers
    ...     from solvers.defaults import DEFAULT_SOLVER as DEFAULT_SOLVER
    ...
    ...     from solvers.options import translate_options as translate_options  # a comment
    ... x = 1
    ... ''')
    {'DEFAULT_SOLVER': 'solvers.defaults', 'translate_options': 'solvers.options'}
    """
    _, found, block = ("\n" + source).partition("\nif TYPE_CHECKING:")
    if not found:
        raise ValueError("the face has no top-level `if TYPE_CHECKING:` block to read its exports from")
    exports: dict[str, str] = {}
    for line in block.splitlines()[1:]:  # the lines after the `if` line (and its comment)
        if line.strip() and not line[0].isspace():
            break  # back at the top level: the block has ended
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 6 or words[0::2] != ["from", "import", "as"] or words[3] != words[5] or words[1][0] == ".":
            raise ValueError(f"`if TYPE_CHECKING:` of a face: {line.strip()!r} is not `from MODULE import NAME as NAME`")
        exports[words[3]] = words[1]
    return exports


def _source(package: str) -> str:
    """The source code of the module ``package``, which is being imported."""
    with open(sys.modules[package].__file__ or package, encoding="utf-8") as face:
        return face.read()


def lazy_exports(
    package: str, exports: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of a package face that imports its names on first use.

    Use it as ``__getattr__, __dir__ = lazy_exports(__name__)`` in the face's
    ``__init__.py``, below the ``if TYPE_CHECKING:`` block that imports the
    public names for type checkers (:func:`exported_names`), and
    ``__all__ = __dir__()`` for the names, sorted.

    Parameters
    ----------
    package : str
        The face's module name (its ``__name__``); a name once imported is
        cached in that module, so the next access costs nothing.
    exports : mapping of str to str or None, default=None
        Public name -> the module that defines it under the same name; None
        reads them from the face's source (:func:`exported_names`).

    Returns
    -------
    __getattr__ : callable
        Imports a public name's module and returns the name; raises
        AttributeError for any other name, worded as Python words it.
    __dir__ : callable
        The face's public names: its ``__all__`` when it has one, else the exported names, sorted.

    Examples
    --------
    >>> import solvers
    >>> solvers.no_such_name
    Traceback (most recent call last):
    ...
    AttributeError: module 'solvers' has no attribute 'no_such_name'
    """
    table = exported_names(_source(package)) if exports is None else exports

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(getattr(sys.modules[package], "__all__", table))

    __getattr__.__doc__ = f"Import a public name of {package} from its module on first access, and cache it there."
    __dir__.__doc__ = f"The public names of {package}."
    return __getattr__, __dir__
