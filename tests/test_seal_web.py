"""The seal in the viewer: the board shows the seal at its position (stored
seals for the store, computed for record files), the referee's page the
record's seal under the scores; a seat's view shows no seal (a seal hashes
the hidden cards too)."""

from __future__ import annotations

import re
from pathlib import Path

from ledger.record_files import read_record
from ledger.sealing import chain as _seal
from ledger.store.application import LedgerApp
from replay_web import create_app
from replay_web.store import LedgerStore

REPO = Path(__file__).resolve().parent.parent
DISPUTE = REPO / "fixtures" / "burraco" / "dispute.jsonl"


def _seal_at(html: str) -> str:
    m = re.search(
        r'<span class="seal" title="seal after position (\d+): ([0-9a-f]{64})">seal '
        r"<code>([0-9a-f-]{19})</code></span>",
        html,
    )
    assert m, "no seal on the board"
    return m.group(2)


def test_store_pages_show_the_stored_seal(store_env) -> None:  # noqa: ANN001
    ledger = LedgerApp(env=store_env)
    try:
        ledger.import_record(read_record(DISPUTE))
        seals = [h.hex() for h in _seal.seals(ledger.export_record("bur-dispute").splitlines())]
        client = create_app(
            {"TESTING": True, "LEDGER_STORE": LedgerStore(app=ledger), "SPECTATOR_DELAY": 0}
        ).test_client()
        page = client.get("/games/bur-dispute?at=7").get_data(as_text=True)
        assert _seal_at(page) == seals[7]
        assert f'record seal (19 events): <code title="{seals[-1]}">{_seal.short_form(seals[-1])}</code>' in page
        board = client.get("/games/bur-dispute/board?at=12").get_data(as_text=True)
        assert _seal_at(board) == seals[12]
        # a seal hashes hidden cards too: a seat's view shows none
        seat = client.get("/games/bur-dispute?at=7&pov=0").get_data(as_text=True)
        assert (
            'class="seal"' not in seat and "record seal" not in seat and seals[7] not in seat and seals[-1] not in seat
        )
        assert 'class="seal"' not in client.get("/games/bur-dispute/board?at=7&pov=1").get_data(as_text=True)
    finally:
        ledger.close()


def test_record_files_get_the_computed_seal() -> None:
    from ledger.events import encode_event

    lines = [encode_event(e) for e in read_record(DISPUTE).events]
    client = create_app({"TESTING": True, "LEDGER_RECORDS": str(DISPUTE), "SPECTATOR_DELAY": 0}).test_client()
    page = client.get("/games/bur-dispute?at=3").get_data(as_text=True)
    assert _seal_at(page) == _seal.seal_hex(lines, at=3)
