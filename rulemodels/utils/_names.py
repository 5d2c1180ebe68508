"""Messages for a name that is not among the known ones: the known names, and the closest as a suggestion.

One wording for every "no such column" error (a CSV's target, a Parquet or
Dask label or weight column, the report's ``--by``, the constraints'
columns), so a typo gets the same "did you mean" everywhere.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

__all__ = ["did_you_mean", "unknown_name"]

#: at most this many known names are listed in a message
SHOWN_NAMES = 20


def did_you_mean(name: str, choices: Sequence[str]) -> str:
    """``" (did you mean 'x'?)"`` for the known name closest to ``name``, or ``""`` when none is close.

    Close means :func:`difflib.get_close_matches`'s similarity ratio of at
    least 0.6, on the names as given and, failing that, compared without case
    (``Label`` for ``label``).

    Parameters
    ----------
    name : str
        The unknown name.
    choices : sequence of str
        The known names.

    Returns
    -------
    str
        The hint, to append to a message, or ``""``.

    Examples
    --------
    >>> did_you_mean("lable", ["age", "label"])
    " (did you mean 'label'?)"
    >>> did_you_mean("zzz", ["age", "label"])
    ''
    """
    choices = [str(choice) for choice in choices]
    match = difflib.get_close_matches(str(name), choices, n=1)
    if not match:
        by_lower = {choice.lower(): choice for choice in choices}
        lowered = difflib.get_close_matches(str(name).lower(), list(by_lower), n=1)
        match = [by_lower[lowered[0]]] if lowered else []
    return f" (did you mean {match[0]!r}?)" if match else ""


def unknown_name(what: str, name: str, choices: Sequence[str], where: str) -> str:
    """The message for ``what`` ``name`` that is not among ``choices`` (the names of ``where``).

    Parameters
    ----------
    what : str
        What the name names (``"the target column"``).
    name : str
        The unknown name.
    choices : sequence of str
        The known names, listed in the message.
    where : str
        Where the known names are from (``"'data.csv'"``).

    Returns
    -------
    str
        The message, with :func:`did_you_mean`'s hint.

    Examples
    --------
    >>> unknown_name("the target column", "lable", ["age", "label"], "'data.csv'")
    "the target column 'lable' is not a column of 'data.csv' (did you mean 'label'?); its columns are: 'age', 'label'"
    """
    shown = ", ".join(repr(str(choice)) for choice in list(choices)[:SHOWN_NAMES])
    more = ", ..." if len(choices) > SHOWN_NAMES else ""
    return f"{what} {str(name)!r} is not a column of {where}{did_you_mean(name, choices)}; its columns are: {shown}{more}"
