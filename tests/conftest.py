"""The fixtures of the whole test suite, and its hypothesis profiles.

Every fixture shared by test modules is defined here, once, under a name that
says what it holds. Helpers that tests import live in ``tests/helpers.py``
(test modules import nothing from here or from each other).

The solver test matrix: tests that need a solver are parametrized over the
registered backends. Under ``CI=true`` a registered backend that is not
available is a failure, not a skip: CI installs every solver. ``pytest
--solver glpk`` runs one backend.

Hypothesis: the ``ci`` profile (the default) is derandomized, so a run is
reproducible and CI cannot fail on an example that a rerun would not draw;
``HYPOTHESIS_PROFILE=dev`` draws new random examples on each run and keeps
failing ones in ``.hypothesis/``, for looking for bugs while editing.
"""

from __future__ import annotations

import os
import signal
import threading

import numpy as np
import pytest

from rulemodels.datasets import load_dataset
from solvers import get_backend, registered_backends
from tests.helpers import IN_CI, require_backend

try:
    from hypothesis import settings
except ImportError:  # the oldest-versions lane (bash dev.sh test-oldest) installs pytest only
    pass
else:
    settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
    settings.register_profile("dev", deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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


def solver_names(config: pytest.Config, every: bool = False) -> list[str]:
    """The backends of the matrix: ``--solver`` names, else the registered ones that give LP duals (``every``: all).

    Most matrix tests run column generation or the dual clause LP, which need
    LP duals; a backend without them (scip) runs the backend contract of a
    module that sets ``EVERY_BACKEND = True`` (tests/solvers/test_solvers.py)
    and its own tests.
    """
    chosen = config.getoption("--solver")
    if chosen:
        return list(chosen)
    # the oldest-versions lane (dev.sh test-oldest) installs the package without its extras: no optional backend there
    optional = OPTIONAL_BACKENDS if os.environ.get("RULEMODELS_OLDEST_LANE") == "1" else set()
    return [
        name for name in registered_backends()
        if name not in optional and (every or get_backend(name, check_available=False).capabilities.duals)
    ]


#: backends of an optional extra (pyproject.toml), installed by the `dev` extra but not in the oldest-versions lane
OPTIONAL_BACKENDS = {"scip"}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "solver_name" in metafunc.fixturenames:
        metafunc.parametrize("solver_name", solver_names(metafunc.config, getattr(metafunc.module, "EVERY_BACKEND", False)))


@pytest.fixture
def backend(solver_name: str):
    return require_backend(solver_name)


# ---------------------------------------------------------------------------
# Slices of the bundled Pima data (768 rows, 8 numeric columns, label "diabetes")
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pima_200():
    """``(X, y)``: the first 200 rows of Pima, all 8 columns, y a Series (index 0-199)."""
    X, y = load_dataset("pima")
    return X.iloc[:200].reset_index(drop=True), y.iloc[:200].reset_index(drop=True)


@pytest.fixture(scope="module")
def pima_120_array_labels():
    """``(X, y)``: the first 120 rows of Pima, all 8 columns, y a numpy array."""
    X, y = load_dataset("pima")
    return X.iloc[:120].reset_index(drop=True), np.asarray(y)[:120]


@pytest.fixture(scope="module")
def pima_4_columns_180():
    """``(X, y)``: the first 180 rows of Pima's glucose, bmi, age and pregnancies columns."""
    X, y = load_dataset("pima")
    return X[["glucose", "bmi", "age", "pregnancies"]].iloc[:180], y.iloc[:180]


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


@pytest.fixture(scope="module")
def dask_client():
    """A local ``distributed`` cluster of two single-threaded workers (in this process: quick to start and
    stop), closed with its client when the module's tests are done (the Dask tests of tests/data and
    tests/estimators)."""
    distributed = pytest.importorskip("distributed")
    pytest.importorskip("dask.dataframe")
    threads_before = threading.active_count()
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()
    assert threading.active_count() <= threads_before + 2  # the cluster's worker threads are gone (allow a lingering pool)
