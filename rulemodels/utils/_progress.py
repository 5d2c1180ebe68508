"""Progress bars for long work: delayed tqdm bars on a terminal or in a Jupyter notebook, nothing in a pipe.

The rule, the same for the command line and for Python:

* a bar is drawn only where someone watches: stderr is a terminal, or the
  code runs in a Jupyter kernel (the notebook widget when ``ipywidgets``
  imports, else the plain text bar in the cell's output);
* it appears only after :data:`DELAY` seconds, so short work prints nothing;
* it is on by default: ``verbose`` (estimators) turns on the *log*; only
  ``verbose=-1`` (or :func:`no_progress`) turns the bars off;
* only the outermost bar is drawn: the work inside a bar (a fold fit of
  ``BooleanRuleCV``, a step of a rule list, a task of a sweep, also in a
  worker process) runs under :func:`no_progress`.

Everything else in the library reports through :mod:`logging`. With stderr a
file or a pipe (CI, tests, ``2>log``) nothing is drawn whatever the settings.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

__all__ = [
    "DELAY",
    "in_notebook",
    "no_progress",
    "progress_bar",
    "progress_enabled",
    "showing_progress",
    "stderr_is_terminal",
    "track",
]

T = TypeVar("T")

DELAY = 2.0
"""Seconds before a bar is drawn: work that ends sooner prints nothing."""

_ENABLED: contextvars.ContextVar[bool] = contextvars.ContextVar("rulemodels_progress_enabled", default=True)


def stderr_is_terminal() -> bool:
    """Whether stderr is an interactive terminal (False when it is a file, a pipe, or closed)."""
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):
        return False


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (a notebook, JupyterLab, VS Code's notebooks).

    Checked without importing IPython: only when ``ipykernel`` is already
    loaded is the running shell asked whether it is the kernel's.
    """
    if "ipykernel" not in sys.modules or "IPython" not in sys.modules:
        return False
    try:
        shell = sys.modules["IPython"].get_ipython()
    except Exception:  # an IPython without get_ipython, or a broken one
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress_enabled() -> bool:
    """Whether a bar opened now would be drawn: bars are on here and someone watches (terminal or notebook)."""
    return _ENABLED.get() and (stderr_is_terminal() or in_notebook())


@contextlib.contextmanager
def showing_progress(enabled: bool) -> Iterator[None]:
    """Turn the bars on or off for the block (``enabled=False``: as :func:`no_progress`)."""
    token = _ENABLED.set(bool(enabled) and _ENABLED.get())
    try:
        yield
    finally:
        _ENABLED.reset(token)


def no_progress() -> contextlib.AbstractContextManager[None]:
    """No bars in the block (e.g. the work of a worker process, whose stderr is its parent's terminal)."""
    return showing_progress(False)


def _bar_class() -> Any:
    """tqdm's notebook widget in a Jupyter kernel with ipywidgets, else its plain text bar.

    ``tqdm.auto`` would pick the widget in a kernel without ipywidgets too, and
    fall back with a ``TqdmWarning``; the text bar is chosen here instead, silently.
    """
    if in_notebook():
        try:
            import ipywidgets  # noqa: F401
        except ImportError:
            pass
        else:
            from tqdm.notebook import tqdm as notebook_tqdm

            return notebook_tqdm
    from tqdm import tqdm

    return tqdm


def progress_bar(total: int | None, desc: str, unit: str, *, enabled: bool = True, delay: float | None = None) -> Any:
    """A tqdm bar on stderr, drawn after ``delay`` seconds (default :data:`DELAY`) when :func:`progress_enabled`
    and ``enabled``.

    Otherwise a disabled bar, which prints nothing and costs nothing. The bar
    is a context manager; ``total=None`` counts without a total.
    """
    if not (enabled and progress_enabled()):
        from tqdm import tqdm

        return tqdm(total=total, disable=True)
    cls = _bar_class()
    keywords: dict[str, Any] = {
        "total": total, "desc": desc, "unit": unit, "delay": DELAY if delay is None else delay, "dynamic_ncols": True,
    }
    if cls.__module__ != "tqdm.notebook":
        keywords["file"] = sys.stderr
    return cls(**keywords)


def track(items: Iterable[T], total: int, desc: str, unit: str, *, step: int = 1, enabled: bool = True) -> Iterator[T]:
    """Yield ``items``, advancing a :func:`progress_bar` by ``step`` per item."""
    with progress_bar(total, desc, unit, enabled=enabled) as bar:
        for item in items:
            bar.update(step)
            yield item
