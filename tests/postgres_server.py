"""A throwaway PostgreSQL server for the tests: its own cluster in a temporary directory, a Unix socket, no network.

The Debian package ``postgresql`` provides ``initdb``, ``pg_ctl`` and ``postgres``
(in ``/usr/lib/postgresql/<version>/bin``); ``bash dev.sh`` installs it. PostgreSQL
refuses to run as root, so as root the cluster directory is given to the
``postgres`` system user (created by that package) and the server runs as that
user. The server listens on a socket in the temporary directory only
(``listen_addresses=''``) and trusts local connections: it is reachable from this
machine's processes only, and only for the length of the test session.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, pg_ctl) were not found: install them with "
    "'bash dev.sh setup' (Debian package postgresql: apt-get install postgresql), "
    "or put their directory on PATH"
)


def find_binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``: on PATH, else the newest /usr/lib/postgresql/*/bin."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl", path=str(Path(initdb).resolve().parent)):
        return Path(initdb).resolve().parent
    candidates = sorted(
        (Path(d) for d in glob.glob("/usr/lib/postgresql/*/bin") if (Path(d) / "initdb").exists()),
        key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0,
    )
    return candidates[-1] if candidates else None


@dataclass
class PostgresServer:
    """A running server: connect with ``psycopg.connect(**server.connect_args)``."""

    directory: Path
    binaries: Path
    run_as: list[str]

    @property
    def connect_args(self) -> dict[str, str]:
        return {"host": str(self.directory), "user": "postgres", "dbname": "postgres"}

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its directory; safe to call twice."""
        if (self.directory / "data" / "postmaster.pid").exists():
            subprocess.run(
                [*self.run_as, str(self.binaries / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop"],
                capture_output=True, timeout=60, check=False,
            )
        shutil.rmtree(self.directory, ignore_errors=True)


def _run_as_postgres_user(directory: Path) -> list[str]:
    """The command prefix that runs the server as a non-root user, giving it ``directory``."""
    if os.geteuid() != 0:
        return []
    import pwd

    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError(
            "running as root, and there is no 'postgres' system user to run PostgreSQL as "
            "(the Debian package postgresql creates it)"
        ) from None
    os.chown(directory, user.pw_uid, user.pw_gid)
    runuser = shutil.which("runuser")
    if runuser is None:
        raise RuntimeError("running as root and 'runuser' (util-linux) is missing: cannot start PostgreSQL as user postgres")
    return [runuser, "-u", "postgres", "--"]


def start_server(binaries: Path) -> PostgresServer:
    """Create a cluster in a new temporary directory and start it; on failure remove everything and raise."""
    directory = Path(tempfile.mkdtemp(prefix="rulemodels-pg-"))
    server = PostgresServer(directory, binaries, [])
    try:
        server.run_as = _run_as_postgres_user(directory)
        data = directory / "data"
        steps = [
            [str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--locale=C", "--no-sync"],
            [str(binaries / "pg_ctl"), "-D", str(data), "-l", str(directory / "server.log"), "-w", "-t", "60",
             "-o", f"-c listen_addresses='' -c unix_socket_directories='{directory}' -c fsync=off", "start"],
        ]
        for command in steps:
            done = subprocess.run([*server.run_as, *command], capture_output=True, text=True, timeout=120, check=False)
            if done.returncode != 0:
                log = directory / "server.log"
                detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(
                    f"{Path(command[0]).name} failed (exit {done.returncode}): {done.stderr.strip()[-2000:]} {detail}"
                )
    except BaseException:
        server.stop()
        raise
    return server
