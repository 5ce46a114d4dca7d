"""The words digest (tools/texts_digest.py, issue 23): what every fixture shows hashes to the
recorded EXPECTED, and the digest does not depend on where the checkout is."""

from __future__ import annotations

import pytest

from tools import texts_digest


def test_checkout_url_is_written_checkout() -> None:
    """The report's rule links carry the checkout's file:// URL; the hashed text does not."""
    line = f'<a href="{texts_digest.ROOT.as_uri()}/docs/rules.md#ALL-MELD-1">'
    assert texts_digest.normalised(line) == '<a href="file://CHECKOUT/docs/rules.md#ALL-MELD-1">'


@pytest.mark.slow
def test_every_fixture_text_hashes_to_expected() -> None:
    """A change of the message machinery keeps every byte; a change that means to change words
    records the new digest in EXPECTED and says why in its commit."""
    records, out = texts_digest.texts()
    assert (records, len(out)) == (20, 10794)
    assert not any(texts_digest.ROOT.as_uri() in t for t in out)
    assert texts_digest.digest_of("\n".join(out)) == texts_digest.EXPECTED
