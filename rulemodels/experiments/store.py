"""The JSON Lines results file: one record per task, appended as tasks finish, read back as a DataFrame."""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from rulemodels.experiments.tasks import RECORD_FIELDS

logger = logging.getLogger("rulemodels.experiments")

__all__ = ["is_failure", "read_results"]


def _parse_results(data: bytes, path: Path) -> tuple[list[dict[str, Any]], int, bool]:
    """Records of a JSONL file's bytes.

    Returns the records (first occurrence of each key), the byte length of
    the valid prefix (everything after it is an incomplete last line), and
    whether the valid prefix lacks a final newline.
    """
    records: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    lines = data.split(b"\n")
    # After the final "\n" comes b"" (complete file) or an unterminated line.
    offset = 0
    for number, line in enumerate(lines, start=1):
        is_last = number == len(lines)
        end = offset + len(line) + (0 if is_last else 1)
        if not line.strip():
            offset = end
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or not isinstance(record.get("key"), str):
                raise ValueError("not a record with a string 'key'")
        except ValueError as exc:
            rest_is_blank = not b"".join(lines[number:]).strip()
            if rest_is_blank:
                # The last line was cut by a kill mid-write: ignore it.
                logger.warning("%s: ignoring an incomplete last line (%d bytes), left by an interrupted run", path, len(line))
                return records, offset, False
            raise ValueError(
                f"{path}, line {number}: not a JSON result record ({exc}); only the last line of a results "
                "file may be incomplete: delete or repair that line, then resume"
            ) from None
        _keep(records, seen, record, path, number)
        offset = end
    return records, offset, bool(data[:offset]) and not data[:offset].endswith(b"\n")


def is_failure(record: Mapping[str, Any]) -> bool:
    """Whether a record is a failed task's (its ``error`` is set): such a task is run again on resume.

    Parameters
    ----------
    record : mapping
        A task's record.

    Returns
    -------
    bool
        True when the record's ``error`` is set.
    """
    return record.get("error") is not None


def _keep(records: list[dict[str, Any]], seen: dict[str, int], record: dict[str, Any], path: Path, number: int) -> None:
    """Add ``record``, or let it replace an earlier failure of its task (a retry); a second success is ignored."""
    key = record["key"]
    if key not in seen:
        seen[key] = len(records)
        records.append(record)
    elif is_failure(records[seen[key]]):
        records[seen[key]] = record  # the retry's record (a success, or the latest failure)
    else:
        logger.warning("%s, line %d: duplicate key %s ignored (the first record is kept)", path, number, key)


def read_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a results file written by :func:`run_experiments`, without changing it.

    An incomplete last line (from a killed run) is ignored; any other line
    that is not a JSON record raises ``ValueError`` naming the line. A task
    has one row: its first successful record, or, when every record of it
    is a failure, the latest one (failed tasks are retried on resume and the
    retry's record is appended).

    Parameters
    ----------
    path : str or path-like
        A JSONL file, or a gzip-compressed one (``.gz``). When ``path`` does
        not exist but ``path + ".gz"`` does, that is read (the committed
        ``docs/results/results.jsonl.gz``).

    Returns
    -------
    pandas.DataFrame
        One row per key, in file order, with at least the columns
        :data:`RECORD_FIELDS`.

    Raises
    ------
    FileNotFoundError
        If the results file does not exist.
    """
    file = Path(path)
    packed = file.with_name(file.name + ".gz")
    if not file.exists() and packed.is_file():
        file = packed
    if not file.exists():
        raise FileNotFoundError(f"results file '{file}' not found")
    data = file.read_bytes()
    if file.suffix == ".gz":
        import gzip

        data = gzip.decompress(data)
    records, _, _ = _parse_results(data, file)
    return _records_frame(records)


def _records_frame(records: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(list(records))
    for column in RECORD_FIELDS:
        if column not in frame.columns:
            frame[column] = None
    extra = [c for c in frame.columns if c not in RECORD_FIELDS]
    return frame[[*RECORD_FIELDS, *extra]]


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class _ResultsFile:
    """The JSONL results file, held open and locked by one writer (the parent process)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # "a+b": reads anywhere, every write appends, truncate() is allowed.
        self._handle: BinaryIO = open(path, "a+b")
        try:
            self._lock()
            self._handle.seek(0)
            data = self._handle.read()
            records, valid, needs_newline = _parse_results(data, path)
            if valid < len(data) and not records:
                raise ValueError(
                    f"'{path}' exists and holds no result record (it is not a results file written by "
                    "run_experiments): it was left untouched; choose another results file, or move this one away"
                )
            if valid < len(data):
                self._handle.truncate(valid)
            if needs_newline:
                self._write(b"\n")
        except BaseException:
            self._handle.close()
            raise
        self.records: list[dict[str, Any]] = records
        self._position: dict[str, int] = {r["key"]: k for k, r in enumerate(records)}

    @property
    def keys(self) -> set[str]:
        """Keys of the tasks with a successful record (failed tasks are run again)."""
        return {key for key, k in self._position.items() if not is_failure(self.records[k])}

    def failed_keys(self) -> set[str]:
        """Keys of the tasks whose every record is a failure."""
        return {key for key, k in self._position.items() if is_failure(self.records[k])}

    def _lock(self) -> None:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on Unix: no protection against a second writer
            return
        try:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(
                f"results file '{self.path}' is being written by another run_experiments: wait for it to finish, "
                "or use another results file"
            ) from None

    def _write(self, data: bytes) -> None:
        self._handle.write(data)
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def append(self, record: dict[str, Any]) -> bool:
        """Write one record as one line; False (and nothing written) if its task already has a success.

        A record for a task that only failed so far is appended, and replaces
        the failure in :attr:`records` (as :func:`read_results` will).
        """
        key = record["key"]
        position = self._position.get(key)
        if position is not None and not is_failure(self.records[position]):
            logger.warning("result for %s is already in %s; the new one is dropped", key, self.path)
            return False
        plain = {k: _plain(v) for k, v in record.items()}
        self._write((json.dumps(plain, allow_nan=False) + "\n").encode("utf-8"))
        if position is None:
            self._position[key] = len(self.records)
            self.records.append(plain)
        else:
            self.records[position] = plain
        return True

    def close(self) -> None:
        self._handle.close()  # also releases the lock

    def __enter__(self) -> _ResultsFile:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

