"""Probing solver binaries and their options, before any solve.

Probing a binary runs it ourselves (``glpsol --version``, ``cbc -stop``, and
one short run per solver option, with no model) and reads what it prints, so
a broken executable or a misspelt option is reported with the binary's own
words before any solve. Standard library only.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solvers._failure import last_line

PROBE_TIMEOUT = 10.0
"""Seconds a version or option probe of a solver binary may take."""

_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)*")


def _run(command: list[str]) -> tuple[int | None, str]:
    """Run ``command`` briefly in a scratch directory; (return code or None on timeout, output)."""
    with tempfile.TemporaryDirectory(prefix="rulemodels-probe-") as scratch:
        try:
            completed = subprocess.run(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                timeout=PROBE_TIMEOUT, cwd=scratch, text=True, errors="replace",
            )
        except subprocess.TimeoutExpired as exc:
            output = exc.output if isinstance(exc.output, str) else (exc.output or b"").decode(errors="replace")
            return None, output
    return completed.returncode, completed.stdout




def _file_key(path: str) -> tuple[str, int, int]:
    """``path`` with its modification time and size, so that a replaced binary is probed again."""
    try:
        status = os.stat(path)
    except OSError:
        return path, 0, 0
    return path, status.st_mtime_ns, status.st_size


@dataclass(frozen=True)
class BinaryCheck:
    """Whether a solver binary answers its version probe as that solver."""

    ok: bool
    version: str | None
    reason: str = ""


def check_binary(path: str, solver: str, version_args: tuple[str, ...], marker: str) -> BinaryCheck:
    """Run ``path *version_args`` and check it prints ``marker`` and a version number.

    Cached per binary (path, modification time, size).
    """
    return _check_binary(_file_key(path), solver, version_args, marker)


@functools.cache
def _check_binary(key: tuple[str, int, int], solver: str, version_args: tuple[str, ...], marker: str) -> BinaryCheck:
    path = key[0]
    command = " ".join([os.path.basename(path), *version_args])
    try:
        rc, output = _run([path, *version_args])
    except OSError as exc:
        return BinaryCheck(False, None, f"'{path}' could not be run ({exc}); reinstall {solver}")
    said = f" (its last output line: {last_line(output)!r})" if last_line(output) else " (it printed nothing)"
    if rc is None:
        problem = f"'{command}' did not answer within {PROBE_TIMEOUT:g} s"
    elif rc != 0:
        problem = f"'{command}' exited with return code {rc}{said}"
    else:
        version = _VERSION.search(output)
        if marker in output and version is not None:
            return BinaryCheck(True, version.group(0))
        problem = f"'{command}' did not print a {marker} version{said}"
    return BinaryCheck(False, None, f"'{path}' is not a working {solver}: {problem}")


# -- solver options, checked by the binary itself ------------------------------


@dataclass(frozen=True)
class OptionSyntax:
    """How a solver binary takes options on its command line, and how to ask it about them."""

    prefix: str
    """``--`` (glpsol) or ``-`` (cbc)."""
    flag_values: tuple[Any, ...]
    """Values that make an option a bare flag, as Pyomo writes the command line."""
    trailer: tuple[str, ...]
    """Arguments after the option that end the probe without solving anything."""
    accepted: re.Pattern[str] | None
    """Output that means the options were accepted (None: no output matching ``rejected``)."""
    rejected: re.Pattern[str] | None
    """Output lines that mean an option was rejected."""
    reserved: tuple[str, ...]
    """Option name prefixes the backend sets itself (from ``time_limit``)."""
    help: str
    """Where to find the valid options."""


GLPSOL_OPTIONS = OptionSyntax(
    prefix="--", flag_values=(None, ""), trailer=(),
    accepted=re.compile(r"^No input problem file specified", re.MULTILINE), rejected=None,
    reserved=("tmlim",), help="'glpsol --help' lists the options (a flag takes the value None or '')",
)
CBC_OPTIONS = OptionSyntax(
    prefix="-", flag_values=("",), trailer=("-stop",), accepted=None,
    rejected=re.compile(r"^.*(?:No match for|is illegal|Possible options for).*$", re.MULTILINE),
    reserved=("sec", "timem"), help="'cbc -?' lists the options, 'cbc -NAME?' explains one (an action takes the value '')",
)


def check_options(solver: str, path: str, syntax: OptionSyntax, options: Mapping[str, Any]) -> None:
    """Raise ValueError naming the first option the binary at ``path`` does not accept.

    Each option is tried alone on the binary's command line with no model
    (cached per binary, name and value).
    """
    for name, value in options.items():
        if any(str(name).lower().startswith(reserved) for reserved in syntax.reserved):
            raise ValueError(
                f"{solver} option {name!r} is set by rulemodels from the time limit: "
                "pass time_limit (the estimator's or the CLI's --time-limit) instead"
            )
        problem = _option_problem(_file_key(path), syntax, str(name), _option_value(syntax, value))
        if problem:
            raise ValueError(f"{solver} option {name!r}={value!r} is not accepted by {path}: {problem}; {syntax.help}")


def _option_value(syntax: OptionSyntax, value: Any) -> str | None:
    """The command-line text of an option value (None for a bare flag), as Pyomo writes it."""
    if value is None and None in syntax.flag_values:
        return None
    if isinstance(value, str) and value.strip() == "" and "" in syntax.flag_values:
        return None
    return str(value)


@functools.cache
def _option_problem(key: tuple[str, int, int], syntax: OptionSyntax, name: str, value: str | None) -> str:
    """What the binary said against ``name value`` ('' when it accepted it)."""
    command = [key[0], syntax.prefix + name, *([] if value is None else [value]), *syntax.trailer]
    try:
        rc, output = _run(command)
    except OSError as exc:
        return f"it could not be run ({exc})"
    if rc is None:
        return f"it did not answer within {PROBE_TIMEOUT:g} s"
    if syntax.accepted is not None:
        if syntax.accepted.search(output):
            return ""
        lines = [line.strip() for line in output.splitlines() if line.strip()]
        said = [line for line in lines if not line.startswith(("GLPSOL", "Parameter(s) specified", "-"))]
        return "; ".join(said) or f"it exited with return code {rc}"
    rejected = syntax.rejected.findall(output) if syntax.rejected is not None else []
    return "; ".join(line.strip().lstrip("<").rstrip(";") for line in rejected)
