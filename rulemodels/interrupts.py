"""Ctrl-C that arrives wrapped in another exception.

A ``KeyboardInterrupt`` raised inside a solve can reach us as the cause or
context of another exception (Pyomo's output tee re-raises it as a
``RuntimeError``, a worker pool as its own error). Such an exception is an
interrupt, never a failed task: :func:`reraise_interrupt` turns it back into a
``KeyboardInterrupt`` at the boundaries that catch ``Exception`` (the sweep's
task runner, the command line). Standard library only.
"""

from __future__ import annotations

__all__ = ["find_interrupt", "reraise_interrupt"]

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
