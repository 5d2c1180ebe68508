"""The installed version of rulemodels, read from the package metadata (``pyproject.toml``'s ``version``).

A low module, so that whatever shows the version (the report's metadata, the
command line's ``--version``, the package's ``__version__``) reads it from
here and no module imports the package root for it. It is not exported by
:mod:`rulemodels.utils`: the lookup loads :mod:`importlib.metadata` (tens of
milliseconds), paid only by those who ask for the version.
"""

from __future__ import annotations

import importlib.metadata

__all__ = ["__version__"]

try:
    __version__ = importlib.metadata.version("rulemodels")
except importlib.metadata.PackageNotFoundError:  # a source tree on sys.path that was never installed: no metadata
    __version__ = "0+unknown"
