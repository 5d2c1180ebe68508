"""Docstring text written once and filled into every docstring that shares it (:func:`fill_doc`)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["fill_doc"]

_Documented = TypeVar("_Documented", bound=Callable[..., Any])
_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)


def fill_doc(**fragments: str) -> Callable[[_Documented], _Documented]:
    """Replace each line ``{name}`` of the decorated object's docstring by ``fragments[name]``, indented as that line.

    The one way the project writes a docstring section once for several
    functions, methods or classes that share it (as pandas' ``@doc`` does):
    the shared text is a module constant, and each docstring holds a line
    ``{name}`` where it goes. Only whole placeholder lines are replaced
    (braces elsewhere, as in LaTeX, stay as they are), so numpydoc, ``help()``
    and Sphinx read the full docstring.

    Parameters
    ----------
    **fragments : str
        Placeholder name -> the text that replaces its line (dedented, then
        indented as the placeholder).

    Returns
    -------
    callable
        The decorator: it fills the docstring in place and returns the object
        itself.

    Examples
    --------
    >>> @fill_doc(x="x : int\\n    A number.")
    ... def double(x):
    ...     \"\"\"Twice ``x``.
    ...
    ...     Parameters
    ...     ----------
    ...     {x}
    ...     \"\"\"
    >>> print(double.__doc__.splitlines()[-3])
        x : int
    """

    def fill(match: re.Match[str]) -> str:
        return textwrap.indent(textwrap.dedent(fragments[match["name"]]).strip("\n"), match["indent"])

    def decorate(function: _Documented) -> _Documented:
        function.__doc__ = _PLACEHOLDER.sub(fill, function.__doc__ or "")
        return function

    return decorate
