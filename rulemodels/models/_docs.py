"""Parameter descriptions written once and filled into every docstring that shares them."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["SET_THETA_SECTIONS", "fill_doc"]

_Documented = TypeVar("_Documented", bound=Callable[..., Any])
_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)\{(?P<name>\w+)\}[ \t]*$", re.MULTILINE)


def fill_doc(**fragments: str) -> Callable[[_Documented], _Documented]:
    """Replace each line ``{name}`` of the decorated function's docstring by ``fragments[name]``, indented as that line.

    Only whole placeholder lines are replaced (braces elsewhere, as in LaTeX, stay
    as they are), so numpydoc, ``help()`` and Sphinx read the full docstring.
    """

    def fill(match: re.Match[str]) -> str:
        return textwrap.indent(textwrap.dedent(fragments[match["name"]]).strip("\n"), match["indent"])

    def decorate(function: _Documented) -> _Documented:
        function.__doc__ = _PLACEHOLDER.sub(fill, function.__doc__ or "")
        return function

    return decorate


#: The sections of the ``set_theta`` of a handle that returns the new objective coefficients (column generation's).
SET_THETA_SECTIONS = """
Parameters
----------
theta : float
    The new sparsity weight θ >= 0.

Returns
-------
dict
    The changes for the backend: the new objective coefficients.
"""
