"""The lazy exports of a package face (PEP 562), written once for every package of the project.

A face lists its public names and the module that defines each; a name's
module is imported on first access, so importing the face loads nothing
heavy (``import rulemodels`` loads neither Pyomo nor scikit-learn).
Standard library only, so that every layer of ``rulemodels`` may use it
(``rulemodels``, ``rulemodels.data`` and ``solvers`` do).

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

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of a package face that imports its names on first use.

    Use it as ``__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)`` in
    the face's ``__init__.py``, and import the same names under ``if
    TYPE_CHECKING:`` for type checkers.

    Parameters
    ----------
    package : str
        The face's module name (its ``__name__``); a name once imported is
        cached in that module, so the next access costs nothing.
    exports : mapping of str to str
        Public name -> the module that defines it under the same name.

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

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(getattr(sys.modules[package], "__all__", exports))

    __getattr__.__doc__ = f"Import a public name of {package} from its module on first access, and cache it there."
    __dir__.__doc__ = f"The public names of {package}."
    return __getattr__, __dir__
