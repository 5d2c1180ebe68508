"""Progress bars for long work (sweeps, BooleanRuleCV, BCD/AM iterations): tqdm on a terminal, nothing elsewhere.

A bar shows the count done, the total, the rate and an ETA. It is drawn on
stderr only when stderr is a terminal, so logs, pipes and CI output stay
clean; everything else in the library reports through :mod:`logging`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

__all__ = ["progress_bar", "stderr_is_terminal", "track"]

T = TypeVar("T")


def stderr_is_terminal() -> bool:
    """Whether stderr is an interactive terminal (False when it is a file, a pipe, or closed)."""
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):
        return False


def progress_bar(total: int, desc: str, unit: str, *, enabled: bool = True) -> Any:
    """A tqdm bar on stderr when ``enabled`` and stderr is a terminal; otherwise a disabled one (no output)."""
    from tqdm import tqdm

    show = enabled and stderr_is_terminal()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=not show)


def track(items: Iterable[T], total: int, desc: str, unit: str, *, step: int = 1, enabled: bool = True) -> Iterator[T]:
    """Yield ``items``, advancing a :func:`progress_bar` by ``step`` per item."""
    with progress_bar(total, desc, unit, enabled=enabled) as bar:
        for item in items:
            bar.update(step)
            yield item
