#!/usr/bin/env bash
# Set up and run the main job on the embedded store:   ./run.sh [serve options]
#
# Creates .venv (when missing), installs rummy-ledger (with the pdf extra) and Debian's chromium for
# PDF reports (tools/setup-pdf.sh; without root it prints the one command that adds it), imports fixtures/ into
# ./ledger.db (or $RUMMY_LEDGER_DB), lists the games, audits them, and serves
# the replay viewer on http://127.0.0.1:5000 (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "$0")"

VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "run.sh: creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi
# the pdf extra (Playwright) prints the dispute report as PDF through Debian's chromium; installed
# again only when pyproject.toml changed since the last install, or the checkout moved (a copied or
# moved venv's launchers name the old path): its hash and this folder in a stamp file of the venv
STAMP="$VENV/.rummy-ledger-installed"
WANT="$(sha256sum pyproject.toml | cut -d' ' -f1) pdf $PWD"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ] || [ ! -x "$VENV/bin/rummy-ledger" ]; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e '.[pdf]'
    echo "$WANT" > "$STAMP"
fi
# PDF reports need Debian's chromium: installed when missing, else the one command that adds it is printed
tools/setup-pdf.sh run.sh || true

export RUMMY_LEDGER_DB="${RUMMY_LEDGER_DB:-$PWD/ledger.db}"
ledger() { "$VENV/bin/rummy-ledger" "$@"; }
has() { "$VENV/bin/python" -c "$1" >/dev/null 2>&1; }

# 1: some files were rejected (each printed as file:line: field: RULE: message)
if [ -d fixtures ]; then ledger import fixtures/ || [ $? -eq 1 ]; fi
ledger list

if has "import ledger.audit"; then
    # 1: findings were listed; 2: a stored game no longer replays
    ledger audit || [ $? -le 2 ]
fi

if has "from replay_web import create_app"; then
    exec "$VENV/bin/rummy-ledger" serve "$@"
else
    echo "run.sh: the replay viewer is not available yet" >&2
fi
