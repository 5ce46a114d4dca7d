"""The words digest (tools/texts_digest.py, issue 23): what every fixture shows hashes to the
recorded EXPECTED, and the digest does not depend on where the checkout is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tools import texts_digest


def test_checkout_url_is_written_checkout() -> None:
    """The report's rule links carry the checkout's file:// URL; the hashed text does not."""
    line = f'<a href="{texts_digest.ROOT.as_uri()}/docs/rules.md#ALL-MELD-1">'
    assert texts_digest.normalised(line) == '<a href="file://CHECKOUT/docs/rules.md#ALL-MELD-1">'


@pytest.mark.slow
def test_every_fixture_text_hashes_to_expected(tmp_path: Path) -> None:
    """A change of the message machinery keeps every byte; a change that means to change words
    records the new digest in EXPECTED and says why in its commit. Run as the tool is run, in a
    process of its own: in a test worker, state left by earlier tests changed the digest once."""
    dump = tmp_path / "hashed.txt"
    run = subprocess.run(
        [sys.executable, str(texts_digest.ROOT / "tools" / "texts_digest.py"), "-o", str(dump)],
        capture_output=True,
        text=True,
        cwd=texts_digest.ROOT,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    digest, counts = run.stdout.split("  ", 1)
    assert counts.startswith("(20 records, 10794 outputs, ")
    assert texts_digest.ROOT.as_uri() not in dump.read_text(encoding="utf-8")
    assert digest == texts_digest.EXPECTED
