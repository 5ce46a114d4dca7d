"""``./run.sh`` on a fresh machine sets up what PDF reports need, or says the
one command that adds it (issue 26): ``tools/setup-pdf.sh``, which run.sh
calls, run for real with a stand-in ``apt-get`` first on PATH (one that
installs a chromium at ``$RUMMY_LEDGER_CHROMIUM``, one that fails)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "setup-pdf.sh"
COMMAND = "    sudo apt-get install --no-install-recommends chromium\n"


def setup_pdf(tmp_path: Path, apt_get: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "apt-get"
    fake.write_text("#!/bin/sh\n" + apt_get)
    fake.chmod(0o755)
    chromium = tmp_path / "chromium"
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "RUMMY_LEDGER_CHROMIUM": str(chromium)}
    done = subprocess.run([str(SCRIPT), "run.sh"], env=env, capture_output=True, text=True, timeout=60)
    return done, chromium


@pytest.mark.skipif(os.geteuid() != 0, reason="installs as root (sudo -n otherwise)")
def test_a_missing_chromium_is_installed(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    installs = f'[ "$1" = install ] && printf "#!/bin/sh\\n" > {chromium} && chmod +x {chromium}\nexit 0\n'
    done, chromium = setup_pdf(tmp_path, installs)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == (
        "run.sh: installing Debian's chromium for PDF reports (apt-get install chromium)\n"
        "run.sh: chromium installed: PDF reports work\n"
    )
    assert os.access(chromium, os.X_OK)


def test_when_it_cannot_be_installed_the_one_command_is_named(tmp_path: Path) -> None:
    done, chromium = setup_pdf(tmp_path, "exit 100\n")
    assert done.returncode == 0 and not chromium.exists()
    assert done.stderr.endswith(
        "run.sh: PDF reports need Debian's chromium, which is not installed; add it with this one command:\n"
        + COMMAND
        + "run.sh: (HTML reports, the viewer and every other command work without it)\n"
    )


def test_nothing_is_done_when_chromium_is_there(tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    done, _ = setup_pdf(tmp_path, "echo called >&2; exit 1\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_run_sh_sets_it_up() -> None:
    assert "\ntools/setup-pdf.sh run.sh || true\n" in (REPO / "run.sh").read_text()
