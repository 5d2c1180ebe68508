"""Shared fixtures: the solver test matrix.

Tests that need a solver are parametrized over the registered backends. Under
``CI=true`` a registered backend that is not available is a failure, not a
skip: CI installs every solver. ``pytest --solver glpk`` runs one backend.
"""

from __future__ import annotations

import os
import signal

import pytest

from solvers import get_backend, registered_backends

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(autouse=True, scope="session")
def python_default_ctrl_c():
    """Python's default Ctrl-C handler for the session, even when pytest started with SIGINT ignored.

    A shell without job control starts background commands (``cmd &``,
    ``nohup``) with SIGINT ignored, and Python then installs no
    ``KeyboardInterrupt`` handler: every test that sends SIGINT would then
    test the shell, not rulemodels. The processes these tests start inherit
    the default too.
    """
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if ignored:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--solver", action="append", default=None, help="run solver tests with this backend only")


def solver_names(config: pytest.Config) -> list[str]:
    chosen = config.getoption("--solver")
    return list(chosen) if chosen else registered_backends()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "solver_name" in metafunc.fixturenames:
        metafunc.parametrize("solver_name", solver_names(metafunc.config))


def require_backend(name: str):
    """The backend for ``name``; skip when absent locally, fail when absent in CI."""
    backend = get_backend(name, check_available=False)
    status = backend.available()
    if not status:
        message = f"solver {name} not available: {status.reason}"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return backend


@pytest.fixture
def backend(solver_name: str):
    return require_backend(solver_name)


# ---------------------------------------------------------------------------
# A real PostgreSQL server for the SQL export tests (tests/postgres_server.py)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres():
    """A psycopg connection (autocommit) to a throwaway PostgreSQL server, started once per session.

    Skips with an install hint when PostgreSQL or psycopg is missing, except
    under ``CI=true``, where that is a failure. The server is stopped and its
    directory removed at the end of the session, also when tests fail.
    """
    from tests.postgres_server import INSTALL_HINT, find_binaries, start_server

    try:
        import psycopg
    except ImportError:
        message = "psycopg is not installed: pip install -e '.[dev]' (psycopg[binary])"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    binaries = find_binaries()
    if binaries is None:
        if IN_CI:
            pytest.fail(INSTALL_HINT)
        pytest.skip(INSTALL_HINT)
    server = start_server(binaries)
    try:
        with psycopg.connect(**server.connect_args, autocommit=True) as connection:
            yield connection
    finally:
        server.stop()


def learn_once(problem, backend, *, algorithm="am", n_clauses=2, theta=0.01, max_iter=100, allow_disable=False,
               disable_cost=None, **options):
    """One driver run on an LP-solution cache of its own: ``(FitResult, WorkingData)``.

    The tests' stand-in for the removed ``learn_cnf``: the library's
    :func:`~rulemodels.algorithms.learn` takes every setting explicitly, the
    values here are the estimator's defaults.
    """
    from rulemodels.algorithms import LPSolutionCache, WorkingData, learn

    data = WorkingData.from_problem(problem, allow_disable=allow_disable, disable_cost=disable_cost)
    with LPSolutionCache(data, backend) as cache:
        result = learn(cache, algorithm=algorithm, n_clauses=n_clauses, theta=theta, max_iter=max_iter, **options)
    return result, data
