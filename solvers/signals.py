"""Ctrl-C and SIGTERM as exceptions: the one place both layers handle interrupts (standard library only).

A program stopped by Ctrl-C (SIGINT) or by SIGTERM (what ``kill``,
``timeout``, systemd and batch schedulers send) must stop cleanly: solver
processes terminated, temporary files removed, outputs complete or absent.
Python raises ``KeyboardInterrupt`` for SIGINT; :func:`terminating_on_sigterm`
makes SIGTERM raise :class:`Terminated`, a ``KeyboardInterrupt`` subclass, so
every ``except KeyboardInterrupt`` and every ``finally`` that cleans up after
a Ctrl-C (``subprocess.run`` killing its child, a temporary directory being
removed) does the same for SIGTERM. :func:`exit_status` gives the shell's
status for either (130, 143).

An interrupt can reach us wrapped in another exception (Pyomo's output tee
re-raises it as a ``RuntimeError``, a worker pool as its own error) or lost
entirely (pandas' C CSV parser, on older pandas, raises a ``ParserError``
that does not chain it). :func:`find_interrupt` and :func:`reraise_interrupt`
unwrap it; :func:`watching_interrupts` remembers that a signal arrived, so
whatever exception it became is still an interrupt, never a failed solve or a
task's record.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

__all__ = [
    "InterruptWatch",
    "deferred_signals",
    "Terminated",
    "exit_status",
    "find_interrupt",
    "keeping_lost_interrupts",
    "reraise_interrupt",
    "terminating_on_sigterm",
    "watching_interrupts",
]

#: How many links of a ``__cause__``/``__context__`` chain are followed (chains can be cyclic).
MAX_CHAIN = 64


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (while :func:`terminating_on_sigterm` was active).

    A ``KeyboardInterrupt``, so that code which cleans up after a Ctrl-C cleans
    up after a SIGTERM too; :func:`exit_status` tells them apart.

    Parameters
    ----------
    signum : int, default=signal.SIGTERM
        The signal that arrived.
    """

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = int(signum)

    def __reduce__(self) -> tuple[type, tuple[int]]:  # survives pickling across worker processes
        return (type(self), (self.signum,))


def exit_status(interrupt: BaseException) -> int:
    """The shell's exit status for an interrupt: 128 + the signal number (130 for Ctrl-C, 143 for SIGTERM).

    Parameters
    ----------
    interrupt : BaseException
        The interrupt: a :class:`Terminated` (its signal) or any other exception (counted as a Ctrl-C).

    Returns
    -------
    int
        The exit status.
    """
    if isinstance(interrupt, Terminated):
        return 128 + interrupt.signum
    return 128 + signal.SIGINT


def find_interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The ``KeyboardInterrupt`` (or :class:`Terminated`) that ``exc`` is, or that its cause/context chain holds.

    Parameters
    ----------
    exc : BaseException
        The exception to look into (at most ``MAX_CHAIN`` links are followed; cycles are safe).

    Returns
    -------
    KeyboardInterrupt or None
        The first interrupt found, or None.
    """
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending and len(seen) < MAX_CHAIN:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, KeyboardInterrupt):
            return current
        pending.extend(link for link in (current.__cause__, current.__context__) if link is not None)
    return None


def _same_kind(interrupt: KeyboardInterrupt) -> KeyboardInterrupt:
    """A fresh interrupt of the same kind (a :class:`Terminated` keeps its signal number)."""
    if isinstance(interrupt, Terminated):
        return Terminated(interrupt.signum)
    return KeyboardInterrupt(*interrupt.args)


def reraise_interrupt(exc: BaseException) -> None:
    """Raise the interrupt ``exc`` is or wraps (the wrapper as its cause); return when there is none.

    Parameters
    ----------
    exc : BaseException
        The exception that ended some work.

    Raises
    ------
    KeyboardInterrupt
        ``exc`` itself when it is an interrupt, else a fresh one of the kind ``exc`` wraps (a :class:`Terminated`
        keeps its signal).
    """
    interrupt = find_interrupt(exc)
    if interrupt is None:
        return
    if interrupt is exc:
        raise interrupt
    raise _same_kind(interrupt) from exc


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


def _raises_interrupt(handler: Any, raising: Any) -> bool:
    """Whether the signal ``handler`` raises an interrupt: ``raising`` (Python's SIGINT handler or our SIGTERM
    one) or the handler of a :func:`watching_interrupts` block, which chains to such a handler."""
    return handler is raising or bool(getattr(handler, "raises_interrupt", False))


@contextlib.contextmanager
def terminating_on_sigterm() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` during the block (in the main thread); the previous handler is restored.

    A no-op outside the main thread, and when SIGTERM is ignored (a process
    started with it ignored, e.g. under ``nohup``-like wrappers, keeps
    ignoring it), and when SIGTERM already raises an interrupt: inside an
    enclosing block, or inside :func:`watching_interrupts`, whose handler
    must stay in place so that the watch sees the signal (a task run in the
    command's own process, under the command's watch).

    Yields
    ------
    None
        Nothing: the handler is in place until the block ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGTERM)
    if previous is signal.SIG_IGN or _raises_interrupt(previous, _raise_terminated):
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


class InterruptWatch:
    """Which interrupt arrived while :func:`watching_interrupts` was active (``interrupt``; None if none)."""

    def __init__(self) -> None:
        self.interrupt: KeyboardInterrupt | None = None

    @property
    def seen(self) -> bool:
        """Whether an interrupt arrived (``interrupt`` is not None)."""
        return self.interrupt is not None

    def raise_if_seen(self) -> None:
        """Raise an interrupt of the kind that arrived (a fresh one) if one did; else return.

        For a loop that goes on after code inside it caught and swallowed the
        interrupt (a worker pool that keeps delivering results): checked after
        each step, it stops the loop at the next one.
        """
        if self.interrupt is not None:
            raise _same_kind(self.interrupt)

    def reraise(self, exc: BaseException) -> None:
        """Raise an interrupt when ``exc`` wraps one or a signal was seen (``exc`` as its cause); else return.

        Parameters
        ----------
        exc : BaseException
            The exception that ended the watched work.

        Raises
        ------
        KeyboardInterrupt
            The interrupt ``exc`` is or wraps, or a fresh one of the kind seen.
        """
        reraise_interrupt(exc)
        if self.interrupt is not None:
            raise _same_kind(self.interrupt) from exc


def _watched_signals() -> dict[int, Callable[[int, FrameType | None], Any]]:
    """The signals whose handler raises an interrupt here, with that handler.

    SIGINT with Python's default handler, SIGTERM with ours, and either with
    the handler of an enclosing :func:`watching_interrupts` (so watches nest).
    """
    handlers: dict[int, Callable[[int, FrameType | None], Any]] = {}
    for signum, raising in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, _raise_terminated)):
        current = signal.getsignal(signum)
        if _raises_interrupt(current, raising):
            handlers[signum] = current  # type: ignore[assignment]  # one of the two raising handlers
    return handlers


@contextlib.contextmanager
def watching_interrupts(*, reraise: bool = False) -> Iterator[InterruptWatch]:
    """Remember a Ctrl-C or SIGTERM that arrives during the block; the interrupt is raised as usual.

    Only in the main thread and only for the signals that raise an interrupt
    there (SIGINT under Python's default handler, SIGTERM under
    :func:`terminating_on_sigterm`, either under an enclosing watch: watches
    nest, and every enclosing one sees the signal too); elsewhere (a worker
    process that ignores SIGINT, another thread) the watch is inert. The
    previous handlers are restored on exit.

    With ``reraise=True`` the block itself cannot lose the interrupt: an
    exception that leaves it after a signal arrived becomes that interrupt
    (with the exception as its cause), and so does a normal exit after an
    interrupt was caught and swallowed inside.

    Parameters
    ----------
    reraise : bool, default=False
        Make the block raise the interrupt that arrived, whatever else ends it.

    Yields
    ------
    InterruptWatch
        The watch: its ``interrupt`` is the one that arrived, or None.
    """
    watch = InterruptWatch()
    handlers = _watched_signals() if threading.current_thread() is threading.main_thread() else {}
    if not handlers:
        yield watch
        return

    def on_signal(signum: int, frame: FrameType | None) -> None:
        interrupt = Terminated(signum) if signum != signal.SIGINT else KeyboardInterrupt()
        if watch.interrupt is None:
            watch.interrupt = interrupt
        outer = handlers[signum]
        if getattr(outer, "raises_interrupt", False):
            outer(signum, frame)  # an enclosing watch remembers it too (and raises)
        raise interrupt

    on_signal.raises_interrupt = True  # type: ignore[attr-defined]  # an inner watch chains to this one
    for signum in handlers:
        signal.signal(signum, on_signal)
    try:
        yield watch
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        if reraise:
            watch.reraise(exc)
        raise
    else:
        if reraise and watch.interrupt is not None:
            raise _same_kind(watch.interrupt)
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM during the block (clean-up that must finish: removing a temporary file,
    renaming a finished output, shutting a worker pool down); a signal that arrived meanwhile is delivered
    when the block ends, to the handler that was in place before it.

    The signals are held by a handler that only remembers them, not by the
    thread's signal mask: a signal sent to the process goes to any thread that
    does not block it (a worker pool's or a solver's helper thread), and Python
    would still run its handler in the main thread, in the middle of the block.
    An ignored signal stays ignored; blocks nest. In the main thread only
    (signals are handled there); elsewhere a no-op.

    Yields
    ------
    None
        Nothing: the signals are held until the block ends.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        if signum not in arrived:
            arrived.append(signum)

    previous: dict[signal.Signals, Any] = {}
    for held in (signal.SIGINT, signal.SIGTERM):
        current = signal.getsignal(held)
        if current is signal.SIG_IGN or current is None:  # ignored, or set outside Python: left as it is
            continue
        previous[held] = signal.signal(held, hold)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for first in arrived[:1]:  # its handler raises (or ends the process under SIG_DFL)
            signal.raise_signal(first)


@contextlib.contextmanager
def keeping_lost_interrupts() -> Iterator[InterruptWatch]:
    """Remember an interrupt that Python could not raise: the watch's ``interrupt``.

    A signal handler runs between any two bytecodes of the main thread, also
    inside a ``__del__`` method or a weakref or garbage-collector callback.
    An exception raised there cannot propagate: Python prints "Exception
    ignored in ..." with a traceback and goes on, so the Ctrl-C or SIGTERM is
    lost and the program runs to its end. During the block such an interrupt
    is not printed but kept, so that the caller can still stop with the
    interrupt's status; other unraisable exceptions are reported as before.

    Yields
    ------
    InterruptWatch
        The watch: its ``interrupt`` is the interrupt kept, or None.
    """
    watch = InterruptWatch()
    previous = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            if watch.interrupt is None:
                watch.interrupt = unraisable.exc_value
            return
        previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield watch
    finally:
        sys.unraisablehook = previous
