#!/usr/bin/env bash
# Set up and run the whole test suite:   ./test.sh [extra pytest arguments]
#
# Creates .venv (when missing), installs the project with its test extras,
# installs Debian's chromium for the browser tests when /usr/bin/chromium is
# missing, checks lint, format and types (ruff, mypy), then runs pytest on two
# workers. PostgreSQL tests use POSTGRES_HOST,
# POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DBNAME when set
# (.ci/run sets them), and skip otherwise (fail under CI=true).
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

# The lint and type gate (configured in pyproject.toml; ruff and mypy come with the test extra)
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

exec "$VENV/bin/python" -m pytest -n 2 "$@"
