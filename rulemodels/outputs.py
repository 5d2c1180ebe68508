"""Output files that never lose a user's work: checked before the work starts, written atomically.

:func:`check_output` refuses, before anything runs, an output path that could
not be written or whose writing would destroy something: an empty name, a
directory, a missing or read-only directory, a device or pipe (``/dev/null``:
the file is replaced by a rename, which must never happen to a device), or
the same file as one of the command's inputs (``fit D.csv --out D.csv``).

:func:`atomic_write` writes into a temporary file beside the target and
renames it over the target only when the writing finished: an interrupted or
failing write leaves the old file (or no file), never a truncated one, and
never the temporary file. Standard library only.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from solvers.signals import deferred_signals

__all__ = [
    "OutputError", "atomic_write", "check_output", "check_output_directory", "same_file", "write_bytes_atomically",
    "write_text_atomically",
]


class OutputError(ValueError):
    """An output path that cannot be written safely (the command line exits 2 before any work)."""


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether the two paths name one existing file (links and ``..`` resolved).

    Parameters
    ----------
    a, b : str or os.PathLike
        The two paths.

    Returns
    -------
    bool
        True when both exist and are the same file; False when they differ or one does not exist.
    """
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (or cannot be looked at): not the same existing file
        return False


def check_output(
    path: str | os.PathLike[str], *, inputs: Iterable[tuple[str, str | os.PathLike[str]]] = (), what: str = "--out",
) -> Path:
    """``path`` as a :class:`~pathlib.Path` when a file can be written there; :class:`OutputError` otherwise.

    ``inputs`` are ``(role, path)`` pairs of the command's inputs (a role
    such as ``"DATA"``): the output may not be any of them. ``what`` names the
    option in messages.

    Parameters
    ----------
    path : str or os.PathLike
        The output file.
    inputs : iterable of (str, str or os.PathLike), default=()
        The command's inputs as ``(role, path)`` pairs.
    what : str, default="--out"
        The option that gave ``path``, named in messages.

    Returns
    -------
    Path
        ``path``, when a regular file can be written there.

    Raises
    ------
    OutputError
        If ``path`` is empty, one of the inputs, a directory or another non-regular file, not writable, or in a
        directory that does not exist or is not writable.
    """
    text = os.fspath(path)
    if text.strip() == "":
        raise OutputError(f"{what} is empty: give the name of the file to write")
    target = Path(text)
    for role, source in inputs:
        if same_file(target, source):
            raise OutputError(
                f"{what} '{text}' is the {role} this command reads: writing it would destroy the input; "
                "choose another file name"
            )
    if target.is_dir():
        raise OutputError(f"{what} '{text}' is a directory: give a file name inside it")
    if target.exists() and not target.is_file():
        raise OutputError(
            f"{what} '{text}' exists and is not a regular file (a device, pipe or socket); give the name of a "
            "regular file (to write to stdout, leave out the option where the command allows it)"
        )
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputError(f"{what} '{text}' is not writable (permission denied): choose another file name")
    parent = target.parent
    if not parent.exists():
        raise OutputError(f"{what} '{text}': the directory '{parent}' does not exist; create it first (mkdir -p '{parent}')")
    if not parent.is_dir():
        raise OutputError(f"{what} '{text}': '{parent}' is not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"{what} '{text}': the directory '{parent}' is not writable (permission denied)")
    return target


def check_output_directory(path: str | os.PathLike[str], *, what: str = "--out") -> Path:
    """A directory to write several outputs into: it exists or can be created (its parent exists and is writable).

    Parameters
    ----------
    path : str or os.PathLike
        The output directory.
    what : str, default="--out"
        The option that gave ``path``, named in messages.

    Returns
    -------
    Path
        ``path`` (not created here).

    Raises
    ------
    OutputError
        If ``path`` is empty, exists and is no writable directory, or cannot be created.
    """
    text = os.fspath(path)
    if text.strip() == "":
        raise OutputError(f"{what} is empty: give the name of a directory")
    target = Path(text)
    if target.exists():
        if not target.is_dir():
            raise OutputError(f"{what} '{text}' exists and is not a directory")
        if not os.access(target, os.W_OK | os.X_OK):
            raise OutputError(f"{what} '{text}' is not writable (permission denied)")
        return target
    existing = next((p for p in target.absolute().parents if p.exists()), None)
    if existing is None or not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise OutputError(f"{what} '{text}' cannot be created: '{existing}' is not a writable directory")
    return target


def _new_file_mode() -> int:
    """The permission bits a newly created file gets here (0o666 less the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w", **open_args: Any) -> Iterator[IO[Any]]:
    """A file object whose content replaces ``path`` only when the block ends without an exception.

    The data goes to a hidden temporary file in the same directory (so the
    final rename is atomic: readers see the old file or the complete new one),
    is flushed to disk, given the permissions the target had (or a new
    file's), and renamed over ``path``. On an exception (a Ctrl-C or SIGTERM
    too) the temporary file is removed and ``path`` is left as it was.
    ``mode`` is ``"w"`` or ``"wb"``; ``open_args`` go to :func:`open`
    (``encoding``, ``newline``). A ``path`` that is a symbolic link keeps
    being one: the file it points to is replaced (as a shell's ``>`` would
    write through it), not the link.

    Parameters
    ----------
    path : str or os.PathLike
        The file to replace.
    mode : {"w", "wb"}, default="w"
        Text (UTF-8 unless ``encoding`` is given) or binary.
    **open_args
        More arguments of :func:`open` (``encoding``, ``newline``).

    Yields
    ------
    file object
        The temporary file to write to.

    Raises
    ------
    ValueError
        If ``mode`` is not ``"w"`` or ``"wb"``.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write writes a whole file: mode must be 'w' or 'wb', got {mode!r}")
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    if "b" not in mode:
        open_args.setdefault("encoding", "utf-8")
    handle = tempfile.NamedTemporaryFile(
        mode=mode, dir=target.parent, prefix=f".{target.name}.", suffix=".tmp", delete=False, **open_args,
    )
    try:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())
        handle.close()
        permissions = target.stat().st_mode & 0o7777 if target.is_file() else _new_file_mode()
        with deferred_signals():
            os.chmod(handle.name, permissions)
            os.replace(handle.name, target)
    except BaseException:
        with deferred_signals():
            handle.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(handle.name)
        raise


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` with :func:`atomic_write`.

    Parameters
    ----------
    path : str or os.PathLike
        The file to replace.
    text : str
        Its new content.
    """
    with atomic_write(path) as handle:
        handle.write(text)


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` with :func:`atomic_write`.

    Parameters
    ----------
    path : str or os.PathLike
        The file to replace.
    data : bytes
        Its new content.
    """
    with atomic_write(path, "wb") as handle:
        handle.write(data)
