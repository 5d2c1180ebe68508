"""What a failed solver process becomes: one sentence that says what happened and what to do."""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from solvers._supervise import Observation


def last_line(text: str) -> str:
    """The last non-blank line of ``text``, stripped ('' if none)."""
    return next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")


def process_failure(executable: str, observation: Observation, exc: Exception) -> str:
    """Why the solver process failed, in words (Pyomo raised ``ApplicationError``)."""
    rc = observation.return_code
    if rc is None:
        return f"could not run {executable}: {exc}"
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "a signal"
        return (
            f"the {executable} process was killed by {name} (signal {-rc}) before it finished "
            "(out of memory, or stopped by another program); run it again, or choose another solver"
        )
    said = last_line(observation.log)
    output = f"; its last output line: {said!r}" if said else ""
    return f"{executable} exited with return code {rc}{output}"


def watchdog_message(executable: str, path: str, solver: str, seconds: float,
                     time_limit: float | None, limit: float) -> str:
    """The message of a solve whose process the watchdog killed."""
    if time_limit is None:
        why = (f"no time limit was given, so the default of {limit:g} s applied "
               "(the backend's default_time_limit)")
        advice = "or give a time limit"
    else:
        why = f"its time limit was {limit:g} s"
        advice = "or raise the time limit"
    return (
        f"{executable} was still running {round(seconds, 1):g} s after it started ({why}) and was killed; "
        f"it may be hung: check that '{path}' is a working {solver}, {advice}, or choose another solver"
    )
