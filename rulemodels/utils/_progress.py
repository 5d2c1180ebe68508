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

While a text bar is open, what else is written to its stream goes *above*
it, never onto its line: ``sys.stderr`` (so :mod:`warnings`, ``print(...,
file=sys.stderr)`` and logging's last-resort handler) and every logging
``StreamHandler`` that writes to the bar's stream (the command line's, a
``logging.basicConfig()``) write through :class:`_AboveBars`, which writes
whole lines with the drawn bars cleared and redraws them after, as
:meth:`tqdm.tqdm.write` does (and ``tqdm.contrib.logging.logging_redirect_tqdm``
for the root logger's handlers). Everything is put back when the last bar
closes.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
import threading
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
    """Whether stderr is an interactive terminal (False when it is a file, a pipe, or closed).

    Returns
    -------
    bool
        True when ``sys.stderr`` is a terminal.
    """
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):
        return False


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (a notebook, JupyterLab, VS Code's notebooks).

    Checked without importing IPython: only when ``ipykernel`` is already
    loaded is the running shell asked whether it is the kernel's.

    Returns
    -------
    bool
        True inside a Jupyter kernel.
    """
    if "ipykernel" not in sys.modules or "IPython" not in sys.modules:
        return False
    try:
        shell = sys.modules["IPython"].get_ipython()
    except Exception:  # an IPython without get_ipython, or a broken one
        return False
    return shell is not None and getattr(shell, "kernel", None) is not None


def progress_enabled() -> bool:
    """Whether a bar opened now would be drawn: bars are on here and someone watches (terminal or notebook).

    Returns
    -------
    bool
        True when bars are enabled (not inside :func:`no_progress`) and stderr is a terminal or a notebook runs.
    """
    return _ENABLED.get() and (stderr_is_terminal() or in_notebook())


@contextlib.contextmanager
def showing_progress(enabled: bool) -> Iterator[None]:
    """Turn the bars on or off for the block (``enabled=False``: as :func:`no_progress`).

    Parameters
    ----------
    enabled : bool
        Whether bars may be drawn in the block (never where an enclosing block turned them off).

    Yields
    ------
    None
        Nothing: the setting holds until the block ends.
    """
    token = _ENABLED.set(bool(enabled) and _ENABLED.get())
    try:
        yield
    finally:
        _ENABLED.reset(token)


def no_progress() -> contextlib.AbstractContextManager[None]:
    """No bars in the block (e.g. the work of a worker process, whose stderr is its parent's terminal).

    Returns
    -------
    contextlib.AbstractContextManager
        ``showing_progress(False)``.
    """
    return showing_progress(False)


class _AboveBars:
    """A text stream that writes whole lines to ``stream`` above the drawn bars on it (cleared, then redrawn).

    A line is written when its newline arrives (``print`` writes the text and
    the newline in two calls); a partial last line waits for its newline or
    for the last bar to close (:meth:`release`). Anything else (``isatty``,
    ``encoding``, ``fileno``) is the wrapped stream's.
    """

    def __init__(self, stream: Any, bar_class: Any) -> None:
        self.stream = stream
        self.bar_class = bar_class
        self.pending = ""

    def write(self, text: str) -> int:
        """Write the complete lines of ``text`` above the bars; keep a partial last line for later."""
        with self.bar_class.get_lock():
            self.pending += text
            lines, newline, self.pending = self.pending.rpartition("\n")
            if newline:
                shown = [bar for bar in _OPEN_BARS if _drawn(bar)]
                for bar in shown:
                    bar.clear(nolock=True)
                self.stream.write(lines + newline)
                for bar in shown:
                    bar.refresh(nolock=True)
        return len(text)

    def flush(self) -> None:
        """Flush the wrapped stream (a partial line still waits for its newline)."""
        self.stream.flush()

    def release(self) -> None:
        """Write the partial line left, if any: no bar is open any more."""
        with self.bar_class.get_lock():
            pending, self.pending = self.pending, ""
        if pending:
            self.stream.write(pending)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _drawn(bar: Any) -> bool:
    """Whether ``bar`` is on the screen: open, and drawn once its delay passed (as ``tqdm.close`` decides)."""
    return not bar.disable and hasattr(bar, "start_t") and bar.last_print_t >= bar.start_t + bar.delay


#: the open text bars, and while there is one, the redirection of the other writes to their stream
_OPEN_BARS: list[Any] = []
_REDIRECT: dict[str, Any] = {}
_REDIRECT_LOCK = threading.Lock()


def _stream_handlers() -> Iterator[logging.StreamHandler[Any]]:
    """Every logging ``StreamHandler`` attached to a logger (the root and the named ones)."""
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    for log in loggers:
        for handler in getattr(log, "handlers", ()):
            if isinstance(handler, logging.StreamHandler):
                yield handler


def _opened(bar: Any, stream: Any) -> None:
    """Register a text bar open on ``stream``; the first one sends ``sys.stderr`` and the stream handlers of
    ``stream`` above it."""
    with _REDIRECT_LOCK:
        _OPEN_BARS.append(bar)
        if len(_OPEN_BARS) > 1:
            return
        above = _AboveBars(stream, type(bar))
        handlers = [(handler, handler.setStream(above)) for handler in _stream_handlers() if handler.stream is stream]
        _REDIRECT.update(above=above, handlers=handlers, stderr=sys.stderr is stream)
        if sys.stderr is stream:
            sys.stderr = above


def _closed(bar: Any) -> None:
    """Unregister a closed text bar; the last one puts ``sys.stderr`` and the stream handlers back."""
    with _REDIRECT_LOCK:
        if bar not in _OPEN_BARS:
            return
        _OPEN_BARS.remove(bar)
        if _OPEN_BARS or not _REDIRECT:
            return
        above: _AboveBars = _REDIRECT["above"]
        for handler, stream in _REDIRECT["handlers"]:
            if handler.stream is above:  # not changed meanwhile by someone else
                handler.setStream(stream)
        if _REDIRECT["stderr"] and sys.stderr is above:
            sys.stderr = above.stream
        _REDIRECT.clear()
        above.release()


_TEXT_BAR: Any = None


def _text_bar_class() -> Any:
    """tqdm's text bar, registered while open so that other writes to its stream go above it (:class:`_AboveBars`)."""
    global _TEXT_BAR
    if _TEXT_BAR is None:
        from tqdm import tqdm

        class TextBar(tqdm):
            """A tqdm text bar with the writes of logging and warnings kept above it while it is open."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **kwargs)
                if not self.disable:
                    _opened(self, kwargs.get("file") or sys.stderr)  # tqdm's default file

            def close(self) -> None:
                """Close the bar (tqdm) and, if it was the last one open, stop the redirection."""
                try:
                    super().close()
                finally:
                    _closed(self)

        _TEXT_BAR = TextBar
    return _TEXT_BAR


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
    return _text_bar_class()


def progress_bar(total: int | None, desc: str, unit: str, *, enabled: bool = True, delay: float | None = None) -> Any:
    """A tqdm bar on stderr, drawn after ``delay`` seconds (default :data:`DELAY`) when :func:`progress_enabled`
    and ``enabled``.

    Otherwise a disabled bar, which prints nothing and costs nothing. The bar
    is a context manager; ``total=None`` counts without a total.

    Parameters
    ----------
    total : int or None
        The number of steps, or None to count without a total.
    desc : str
        The bar's label.
    unit : str
        What a step is (``"fold"``, ``"fit"``), shown with the rate.
    enabled : bool, default=True
        False for a disabled bar whatever :func:`progress_enabled` says.
    delay : float or None, default=None
        Seconds before the bar is drawn (a short task draws none); None for :data:`DELAY`.

    Returns
    -------
    tqdm.tqdm
        The bar (a notebook widget bar in a notebook, a disabled bar when nothing is to be drawn).
    """
    if not (enabled and progress_enabled()):
        from tqdm import tqdm

        return tqdm(total=total, disable=True)
    cls = _bar_class()
    keywords: dict[str, Any] = {
        "total": total, "desc": desc, "unit": unit, "delay": DELAY if delay is None else delay, "dynamic_ncols": True,
    }
    if cls.__module__ != "tqdm.notebook":  # a bar opened while another is: on the stream itself, not on its redirection
        stderr: Any = sys.stderr
        keywords["file"] = stderr.stream if isinstance(stderr, _AboveBars) else stderr
    return cls(**keywords)


def track(items: Iterable[T], total: int, desc: str, unit: str, *, step: int = 1, enabled: bool = True) -> Iterator[T]:
    """Yield ``items``, advancing a :func:`progress_bar` by ``step`` per item.

    Parameters
    ----------
    items : iterable
        The items to pass on.
    total : int
        The bar's total (in steps).
    desc : str
        The bar's label.
    unit : str
        What a step is.
    step : int, default=1
        How far each item advances the bar.
    enabled : bool, default=True
        False for no bar.

    Yields
    ------
    object
        Each of ``items``, in order.
    """
    with progress_bar(total, desc, unit, enabled=enabled) as bar:
        for item in items:
            bar.update(step)
            yield item
