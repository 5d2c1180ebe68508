"""Ctrl-C that arrives wrapped in another exception.

A ``KeyboardInterrupt`` raised inside a solve can reach us as the cause or
context of another exception (Pyomo's output tee re-raises it as a
``RuntimeError``, a worker pool as its own error). Such an exception is an
interrupt, never a failed task: :func:`reraise_interrupt` turns it back into a
``KeyboardInterrupt`` at the boundaries that catch ``Exception`` (the sweep's
task runner, the command line). Some code loses the ``KeyboardInterrupt``
entirely (pandas' C CSV parser, on older pandas, replaces it with a
``ParserError`` that does not chain it); :func:`watching_interrupts`
remembers that a Ctrl-C arrived, so that whatever exception it became is
still treated as an interrupt. Standard library only.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["InterruptWatch", "find_interrupt", "reraise_interrupt", "watching_interrupts"]

#: How many links of a ``__cause__``/``__context__`` chain are followed (chains can be cyclic).
_MAX_CHAIN = 64


def find_interrupt(exc: BaseException) -> KeyboardInterrupt | None:
    """The ``KeyboardInterrupt`` that ``exc`` is, or that is in its cause/context chain; None if none."""
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending and len(seen) < _MAX_CHAIN:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, KeyboardInterrupt):
            return current
        pending.extend(link for link in (current.__cause__, current.__context__) if link is not None)
    return None


def reraise_interrupt(exc: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` (from ``exc``) when ``exc`` wraps one; otherwise return."""
    interrupt = find_interrupt(exc)
    if interrupt is not None and interrupt is not exc:
        raise KeyboardInterrupt(*interrupt.args) from exc
    if interrupt is not None:
        raise interrupt


class InterruptWatch:
    """Whether a Ctrl-C arrived while :func:`watching_interrupts` was active (``seen``)."""

    def __init__(self) -> None:
        self.seen = False

    def reraise(self, exc: BaseException) -> None:
        """Raise ``KeyboardInterrupt`` when ``exc`` wraps one or a Ctrl-C was seen; otherwise return."""
        reraise_interrupt(exc)
        if self.seen:
            raise KeyboardInterrupt from exc


@contextlib.contextmanager
def watching_interrupts() -> Iterator[InterruptWatch]:
    """Remember a Ctrl-C (SIGINT) that arrives during the block, then raise ``KeyboardInterrupt`` as usual.

    Only in the main thread and only when SIGINT raises ``KeyboardInterrupt``
    there (Python's default handler); elsewhere (a worker process that ignores
    SIGINT, another thread) the watch is inert and ``seen`` stays False. The
    previous handler is restored on exit.
    """
    watch = InterruptWatch()
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield watch
        return

    def on_sigint(signum: int, frame: Any) -> None:
        watch.seen = True
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield watch
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
