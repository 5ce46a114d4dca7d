#!/usr/bin/env bash
# Set up and run the whole test suite:   ./test.sh [extra pytest arguments]
#
# Creates .venv (when missing), installs the project with its test extras,
# installs Debian's chromium for the browser tests when /usr/bin/chromium is
# missing, checks lint, format and types (ruff, and mypy, strict as
# pyproject.toml sets it), then runs pytest on two workers.
#
# PostgreSQL: when any POSTGRES_* variable is set (POSTGRES_HOST, POSTGRES_PORT,
# POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DBNAME; .ci/run sets them for the
# machine's server), the tests use that server. When none is set, this script
# starts a throwaway PostgreSQL of its own: Debian's package binaries
# (/usr/lib/postgresql/*/bin; the package is installed when missing), a cluster
# in a temporary folder, on a free port of 127.0.0.1, trust authentication, run
# as the unprivileged `postgres` user when this script runs as root. It exports
# the POSTGRES_* variables, runs every test against it, and stops and removes it
# on exit. So a fresh machine runs the suite CI runs, with no PostgreSQL test
# skipped for want of a server. Set RUMMY_LEDGER_NO_PG=1 to skip them instead.
#
# Sizes (tests/attacks.py): by default the attack classes of issue 27 (hostile
# fuzz, seat-view twins, racing writers, kill -9 runs, concurrent importers) run
# a fast sample. RUMMY_LEDGER_ATTACKS=1, CI's slow set (.ci/run sets it), scales
# them up: 20,000 mutated records, 4x the twin positions, 40 racing writers,
# 60 kill -9 runs, 24 importers; at most about 3 minutes more (measured on one
# worker at load 9-14: 142 s to 343 s).
# RUMMY_LEDGER_SLOW=1 runs everything long (10,000-game analytics, the 200-game
# partial oracle, 50,000 mutated records, every twin position: 20+ minutes).
set -euo pipefail
cd "$(dirname "$0")"

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "test.sh: creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e '.[test]'

if [ ! -x /usr/bin/chromium ]; then
    echo "test.sh: installing Debian's chromium for the browser tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; }; then
        echo "test.sh: warning: could not install chromium; browser tests will fail" >&2
    fi
fi

# Debian's poppler-utils: pdftotext/pdfinfo read back the dispute report's PDF
if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then
    echo "test.sh: installing Debian's poppler-utils (pdftotext) for the dispute report's PDF tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null; }; then
        echo "test.sh: warning: could not install poppler-utils; the PDF report tests will fail" >&2
    fi
fi

# Debian's sqlite3: the seals walkthrough (docs/seals.md, run by tests/test_docs.py) edits a store with it
if ! command -v sqlite3 >/dev/null; then
    echo "test.sh: installing Debian's sqlite3 for the seals walkthrough's test" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends sqlite3 >/dev/null; }; then
        echo "test.sh: warning: could not install sqlite3; the seals walkthrough's test will skip" >&2
    fi
fi

# The lint and type gate (configured in pyproject.toml, where mypy is strict; ruff, mypy and the
# stubs it reads come with the test extra)
GATE_PATHS=(ledger replay_web tests bench tools)
if ! "$VENV/bin/ruff" check "${GATE_PATHS[@]}"; then
    echo "test.sh: ruff check found lint errors (see above; 'ruff check --fix' repairs the safe ones)" >&2
    exit 1
fi
if ! "$VENV/bin/ruff" format --check "${GATE_PATHS[@]}"; then
    echo "test.sh: files not formatted (see above): run '$VENV/bin/ruff format ${GATE_PATHS[*]}'" >&2
    exit 1
fi
if ! "$VENV/bin/mypy" ledger replay_web; then
    echo "test.sh: mypy found type errors (see above)" >&2
    exit 1
fi

# A throwaway PostgreSQL when no POSTGRES_* variable is set (see the header)
PG_TMP=""
stop_pg() {
    if [ -n "$PG_TMP" ] && [ -d "$PG_TMP" ]; then
        as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$PG_TMP"
    fi
}
as_pg() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u "$PG_OS_USER" -- "$@"; else "$@"; fi
}
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
start_pg() {
    PG_BIN="$(pg_bin)"
    if [ -z "$PG_BIN" ]; then
        echo "test.sh: installing Debian's postgresql for the PostgreSQL tests" >&2
        SUDO=""
        if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
        $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null || true
        PG_BIN="$(pg_bin)"
    fi
    if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
        echo "test.sh: no PostgreSQL binaries under /usr/lib/postgresql and none installed; the PostgreSQL tests will skip" >&2
        return 0
    fi
    PG_OS_USER="$(id -un)"
    if [ "$(id -u)" -eq 0 ]; then
        PG_OS_USER=postgres  # postgres refuses to run as root
        if ! id -u "$PG_OS_USER" >/dev/null 2>&1; then PG_OS_USER=nobody; fi
    fi
    PG_TMP="$(mktemp -d "${TMPDIR:-/tmp}/rummy-ledger-pg.XXXXXX")"
    trap stop_pg EXIT
    trap 'exit 130' INT TERM
    if [ "$(id -u)" -eq 0 ]; then chown "$PG_OS_USER" "$PG_TMP"; fi
    local port
    port="$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    if ! as_pg "$PG_BIN/initdb" -D "$PG_TMP/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >"$PG_TMP/initdb.log" 2>&1; then
        cat "$PG_TMP/initdb.log" >&2
        echo "test.sh: initdb failed (above)" >&2
        exit 1
    fi
    if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
            start >/dev/null; then
        cat "$PG_TMP/server.log" >&2
        echo "test.sh: the throwaway PostgreSQL did not start (log above)" >&2
        exit 1
    fi
    "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres test
    export POSTGRES_HOST=127.0.0.1 POSTGRES_PORT="$port" POSTGRES_USER=postgres POSTGRES_PASSWORD= POSTGRES_DBNAME=test
    echo "test.sh: no POSTGRES_* set: started a throwaway PostgreSQL ($("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //')) on 127.0.0.1:$port, removed on exit" >&2
}
if [ -z "$(compgen -v POSTGRES_ || true)" ] && [ -z "${RUMMY_LEDGER_NO_PG:-}" ]; then
    start_pg
elif [ -n "${POSTGRES_HOST:-}" ]; then
    echo "test.sh: PostgreSQL tests use ${POSTGRES_HOST}:${POSTGRES_PORT:-5432} (from POSTGRES_*)" >&2
fi

"$VENV/bin/python" -m pytest -n 2 "$@"
