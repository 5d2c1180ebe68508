#!/usr/bin/env bash
# Set up everything rulemodels needs, then run a task.
#
#   bash dev.sh demo    set up, then learn a rule on a bundled dataset and print it
#                       (bash dev.sh demo sonar: another bundled dataset)
#   bash dev.sh test    set up, then run the whole test suite
#   bash dev.sh setup   set up only
#
# Setup = the GLPK and CBC solver binaries (Debian packages glpk-utils and
# coinor-cbc, installed with apt-get when glpsol/cbc are not on PATH) and a
# virtual environment (.venv, or $VENV) with rulemodels installed editable
# with its dev extras. Re-running is cheap: each step is skipped when done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

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

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        log "creating virtual environment $VENV"
        if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
            rm -rf "$VENV"
            local version
            version=$("$PYTHON" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
            apt_install "python${version}-venv" || apt_install python3-venv || die "'$PYTHON -m venv' failed; install the venv module (apt-get install python3-venv)"
            "$PYTHON" -m venv "$VENV"
        fi
    fi
    local stamp="$VENV/.rulemodels-installed" want
    want=$(cat pyproject.toml | cksum)
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        log "installing rulemodels (editable, with dev extras) into $VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        "$VENV/bin/python" -m pip install --quiet -e '.[dev]'
        echo "$want" > "$stamp"
    fi
}

setup() {
    ensure_solver_binaries
    ensure_venv
}

task=${1:-demo}
shift || true
case "$task" in
    setup) setup ;;
    demo)
        setup
        "$VENV/bin/rulemodels" solvers
        echo
        "$VENV/bin/rulemodels" fit "${@:-pima}" --algorithm am --clauses 2
        ;;
    test)
        setup
        "$VENV/bin/python" -m pytest "$@"
        ;;
    *) die "unknown task '$task': use demo, test or setup" ;;
esac
