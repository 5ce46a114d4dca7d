#!/usr/bin/env bash
# Set up what the dispute report's PDF needs, or say the one command that adds it:
#   tools/setup-pdf.sh [WHO]      (WHO names the caller in its messages; run.sh calls it)
#
# The PDF is the report page printed by headless Chromium (replay_web/pdf.py, the pdf extra's
# Playwright): Debian's chromium at /usr/bin/chromium, or the binary $RUMMY_LEDGER_CHROMIUM names.
# When it is missing this installs it with apt-get (through sudo when not root and sudo exists);
# when that is not possible it prints the exact command to run and exits 0: HTML reports and
# everything else work without chromium.
set -uo pipefail
WHO="${1:-setup-pdf}"
CHROMIUM="${RUMMY_LEDGER_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo -n"; fi
if [ "$(id -u)" -eq 0 ] || [ -n "$SUDO" ]; then
    echo "$WHO: installing Debian's chromium for PDF reports (apt-get install chromium)" >&2
    if $SUDO apt-get update -qq >/dev/null 2>&1 \
        && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 \
        && [ -x "$CHROMIUM" ]; then
        echo "$WHO: chromium installed: PDF reports work" >&2
        exit 0
    fi
fi
echo "$WHO: PDF reports need Debian's chromium, which is not installed; add it with this one command:" >&2
echo "    sudo apt-get install --no-install-recommends chromium" >&2
echo "$WHO: (HTML reports, the viewer and every other command work without it)" >&2
exit 0
