#!/usr/bin/env bash
# Set up everything rulemodels needs, then run a task.
#
#   bash dev.sh demo    set up, then learn a rule on a bundled dataset and print it
#                       (bash dev.sh demo sonar: another bundled dataset)
#   bash dev.sh test    set up, then the static checks (as in `check`), then the whole
#                       test suite with the module doctests, then the solver and model
#                       tests with the oldest supported versions (.venv-oldest);
#                       with arguments only pytest with those arguments in .venv:
#                         bash dev.sh test tests/cli/test_cli.py -x   one file
#                         bash dev.sh test -m "not slow"          the fast subset while editing
#                                                                 (no notebooks, sweeps, PostgreSQL, ...)
#   bash dev.sh check   set up, then only the static checks: ruff (lint and import
#                       order), lint-imports (the layers of docs/architecture.md) and
#                       mypy (rulemodels/ and solvers/); configured in pyproject.toml;
#                       then prints the count of Any in public signatures
#   bash dev.sh test-oldest [ARGS]
#                       the oldest-versions lane alone (ARGS: other pytest arguments)
#   bash dev.sh docs [ARGS]      (tests/test_docs_site.py builds it the same way in the test suite)
#                       set up (the solvers and .venv), then build the documentation site (docs/) into
#                       docs/_build/html with warnings as errors and no network access;
#                       the notebooks of notebooks/ are executed (cached in docs/_build:
#                       the first build takes minutes, later ones only re-run the changed
#                       ones); ARGS: other sphinx-build arguments (-E: read everything again)
#   bash dev.sh setup   set up only
#
# Setup = the GLPK and CBC solver binaries (Debian packages glpk-utils and
# coinor-cbc, installed with apt-get when glpsol/cbc are not on PATH), PostgreSQL's
# server binaries for the SQL export tests (Debian package postgresql, installed
# when initdb is found neither on PATH nor in /usr/lib/postgresql/*/bin), headless
# Chromium for the HTML report's browser tests (Debian package chromium, installed
# when neither chromium nor chromium-browser is on PATH) and a
# virtual environment (.venv, or $VENV) with rulemodels installed editable
# with its dev and docs extras. The oldest-versions lane has its own environment
# (.venv-oldest, or $VENV_OLDEST) installed with constraints/oldest.txt.
# Re-running is cheap: each step is skipped when done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}
VENV_OLDEST=${VENV_OLDEST:-.venv-oldest}

# The oldest-versions lane: the solver layer and the Pyomo models.
OLDEST_TESTS=(tests/solvers/test_versions.py tests/solvers/test_solvers.py tests/models/test_models.py tests/solvers/test_solver_faults.py
              tests/cli/test_cli_solvers.py tests/solvers/test_highs.py tests/models/test_clause_dual.py)

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
    else return 1
    fi
}

apt_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    log "installing $* with apt-get"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || return 1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null || return 1
}

ensure_solver_binaries() {
    local missing=()
    command -v glpsol >/dev/null 2>&1 || missing+=(glpk-utils)
    command -v cbc >/dev/null 2>&1 || missing+=(coinor-cbc)
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_install "${missing[@]}" || die "the solver binaries (${missing[*]}) are missing and could not be installed with apt-get (needs root or passwordless sudo on Debian/Ubuntu).
Use the conda route instead:  conda env create -f environment.yml && conda activate rulemodels && pip install -e '.[dev]'
or install GLPK (glpsol) and CBC (cbc) yourself and re-run."
}

postgres_initdb() {  # initdb on PATH or in the Debian package's directory
    command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | tail -n 1
}

ensure_postgres() {  # the SQL export tests run on a throwaway PostgreSQL server (tests/postgres_server.py)
    [ -n "$(postgres_initdb)" ] && return 0
    apt_install postgresql || die "PostgreSQL (initdb, pg_ctl) is missing and could not be installed with apt-get (needs root or passwordless sudo on Debian/Ubuntu).
Install PostgreSQL's server binaries yourself (package postgresql) and re-run; without them the PostgreSQL export tests skip (and fail under CI=true)."
}

ensure_chromium() {  # the report's browser tests open it headless (tests/chromium.py, tests/report/)
    command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 && return 0
    apt_install chromium || die "Chromium (chromium or chromium-browser) is missing and could not be installed with apt-get (needs root or passwordless sudo on Debian/Ubuntu).
Install it yourself (Debian package chromium) and re-run; without it the browser tests of the HTML report skip (and fail under CI=true)."
}

ensure_venv() {  # ensure_venv DIR STAMP_INPUT PIP_INSTALL_ARGS...
    local venv=$1 want=$2
    shift 2
    if [ ! -x "$venv/bin/python" ]; then
        log "creating virtual environment $venv"
        if ! "$PYTHON" -m venv "$venv" 2>/dev/null; then
            rm -rf "$venv"
            local version
            version=$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
            apt_install "python${version}-venv" || apt_install python3-venv || die "'$PYTHON -m venv' failed; install the venv module (apt-get install python3-venv)"
            "$PYTHON" -m venv "$venv"
        fi
    fi
    local stamp="$venv/.rulemodels-installed"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        log "installing rulemodels ($*) into $venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        "$venv/bin/python" -m pip install --quiet "$@"
        echo "$want" > "$stamp"
    fi
}

ensure_dev_venv() {
    ensure_venv "$VENV" "$(cksum < pyproject.toml)" -e '.[dev,docs]'
}

setup() {
    ensure_solver_binaries
    ensure_postgres
    ensure_chromium
    ensure_dev_venv
}

docs() {  # the notebooks solve with CBC and GLPK too where they are installed, as in a developer's setup;
    ensure_solver_binaries  # the report example takes its screenshot with headless Chromium
    ensure_chromium
    ensure_dev_venv
    log "sphinx-build: docs/ into docs/_build/html (warnings are errors)"
    "$VENV/bin/sphinx-build" -W --keep-going -b html docs docs/_build/html "$@"
    log "built: docs/_build/html/index.html"
}

setup_oldest() {
    ensure_solver_binaries
    ensure_venv "$VENV_OLDEST" "$(cat pyproject.toml constraints/oldest.txt | cksum)" \
        -c constraints/oldest.txt -e . 'pytest>=7'
}

check() {  # the static checks; any failure stops here, before the minutes of pytest
    log "ruff: lint and import order"
    "$VENV/bin/ruff" check .
    log "lint-imports: the layers of docs/architecture.md"
    "$VENV/bin/lint-imports" --no-logo
    log "mypy: rulemodels/ and solvers/"
    "$VENV/bin/mypy"
    "$VENV/bin/python" -m tests.test_typing  # the count of Any in public signatures (tests/test_typing.py)
}

test_oldest() {
    setup_oldest
    log "solver and model tests with the oldest supported versions ($VENV_OLDEST)"
    RULEMODELS_OLDEST_LANE=1 "$VENV_OLDEST/bin/python" -m pytest "${OLDEST_TESTS[@]}" "$@"
}

task=${1:-demo}
shift || true
case "$task" in
    setup) setup ;;
    check)
        setup
        check
        ;;
    demo)
        setup
        "$VENV/bin/rulemodels" solvers
        echo
        "$VENV/bin/rulemodels" fit "${@:-pima}"
        ;;
    test)
        setup
        if [ $# -gt 0 ]; then
            "$VENV/bin/python" -m pytest "$@"
        else
            check
            status=0
            "$VENV/bin/python" -m pytest || status=$?
            test_oldest || status=$?
            exit "$status"
        fi
        ;;
    test-oldest)
        test_oldest "$@"
        ;;
    docs)
        docs "$@"
        ;;
    *) die "unknown task '$task': use demo, test, test-oldest, check, docs or setup" ;;
esac
