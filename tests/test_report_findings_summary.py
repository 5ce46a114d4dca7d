"""The dispute report shows the first findings of each rule in full and counts the rest (issue 27, defect 4).

A 120k-event game's HTML report was 13 MB with about 49k finding rows. The
record here is simulated with injected violations (seed 5: 68 ALL-TURN-1,
13 BUR-PILE-1, 8 ALL-MELD-1, 2 BUR-CLOSE-2 findings).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from ledger.cli import cli
from ledger.record_files import read_record
from replay_web import report_data
from replay_web.report import render_html
from replay_web.report_data import build_report


def _record(tmp_path: Path) -> Path:
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "--variant",
            "burraco",
            "--games",
            "1",
            "--seed",
            "5",
            "--out",
            str(tmp_path),
            "--violations",
            "0.5",
        ],
    )
    assert result.exit_code == 0, result.output
    (path,) = tmp_path.glob("*.jsonl")
    return path


def test_the_report_counts_the_findings_past_the_first_of_each_rule(tmp_path: Path) -> None:
    events = list(read_record(_record(tmp_path)).events)
    whole = build_report(events)
    assert Counter(f["rule"] for f in whole["findings"]) == {
        "ALL-TURN-1": 68,
        "BUR-PILE-1": 13,
        "ALL-MELD-1": 8,
        "BUR-CLOSE-2": 2,
    }
    assert report_data.FINDINGS_PER_RULE == 20
    shown = Counter(f["rule"] for f in whole["findings_shown"])
    assert shown == {"ALL-TURN-1": 20, "BUR-PILE-1": 13, "ALL-MELD-1": 8, "BUR-CLOSE-2": 2}
    assert whole["findings_more"] == [{"rule": "ALL-TURN-1", "count": 68, "shown": 20}]
    positions = [f["position"] for f in whole["findings_shown"]]
    assert positions == sorted(positions)
    page = render_html(whole)
    section = page[
        page.index('<section class="findings">') : page.index("</section>", page.index('<section class="findings">'))
    ]
    assert len(re.findall(r"<tr class=", section)) == 43
    assert "ALL-TURN-1</span>: 68 findings, the first 20 shown" in page
    # the one in dispute is shown whatever its rank
    late = [f["position"] for f in whole["findings"] if f["rule"] == "ALL-TURN-1"][-1]
    disputed = build_report(events, finding=late)
    assert late in [f["position"] for f in disputed["findings_shown"]]
    assert disputed["findings_more"] == [{"rule": "ALL-TURN-1", "count": 68, "shown": 21}]
    italian = render_html(build_report(events, lang="it"))
    assert "ALL-TURN-1</span>: 68 irregolarità, mostrate le prime 20" in italian


def test_the_audit_api_pages_its_findings(tmp_path: Path) -> None:
    from ledger.store.application import open_app
    from replay_web import api, create_app

    record = _record(tmp_path / "sim")
    ledger = open_app(str(tmp_path / "s.db"))
    game_id = ledger.import_record(read_record(record)).game_id
    ledger.close()
    client = create_app({"LEDGER_DB": str(tmp_path / "s.db")}).test_client()
    whole = client.get(f"/api/games/{game_id}/audit")
    assert whole.status_code == 200 and "Link" not in whole.headers
    body = whole.get_json()
    assert len(body["findings"]) == 91 and "total" not in body  # one page: the audit --json object as it was
    first = client.get(f"/api/games/{game_id}/audit?limit=40")
    page = first.get_json()
    assert (len(page["findings"]), page["total"], page["offset"], page["limit"]) == (40, 91, 0, 40)
    assert page["findings"] == body["findings"][:40]
    assert first.headers["Link"] == f'</api/games/{game_id}/audit?limit=40&offset=40>; rel="next"'
    last = client.get(f"/api/games/{game_id}/audit?limit=40&offset=80")
    assert last.get_json()["findings"] == body["findings"][80:] and "Link" not in last.headers
    assert client.get(f"/api/games/{game_id}/audit?limit=0").status_code == 400
    assert client.get(f"/api/games/{game_id}/audit?limit=x").status_code == 400
    assert api.FINDINGS_PAGE == 1000
