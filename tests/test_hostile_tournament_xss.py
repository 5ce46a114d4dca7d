"""Issue 27's XSS class on the tournament pages: a simulated cup whose
tournament name, entrants' players (the pairs' names) and a game's players
carry markup payloads, imported into a SQLite store and read from the real
server (:func:`ledger.testing.live.serve`): every tournament page (the list,
the standings after each round, the big screen, the printable sheet, the
standings chart's SVG) holds no payload as written and no tag of its own."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from ledger.testing.live import serve
from replay_web import create_app
from tests.test_hostile_readers import raw_get

PAYLOADS = {
    "tournament": "<img src=x onerror=alert(2)>",
    "player 1": "<script>alert(1)</script>",
    "player 2": "\"'><svg onload=alert(3)>",
    "player 3": "</title><script>alert(4)</script>",
}
#: the names of the simulated cup the payloads replace (in the tournament record and the games)
REPLACED = {
    "Simulated danese_modificato cup": PAYLOADS["tournament"],
    "Anna 1": PAYLOADS["player 1"],
    "Carla 2": PAYLOADS["player 2"],
    "Franco 3": PAYLOADS["player 3"],
}
#: the tags the pages write themselves: their scripts, the standings chart (an SVG as a data URL)
_OWN_TAG = re.compile(
    r'<script src="/static/[a-z_]+\.js"[^<>]*>|<img src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"[^<>]*>'
)


def _evil_cup(tmp_path: Path, run: Callable[..., Result]) -> None:
    out = tmp_path / "sim"
    assert run("simulate", "--tournament", "cup", "--entrants", "4", "--rounds", "2", "--hands", "1", "--seed", "3",
               "--out", str(out)).exit_code == 0  # fmt: skip
    for path in out.glob("*.jsonl"):
        text = path.read_text()
        for old, new in REPLACED.items():
            text = text.replace(json.dumps(old), json.dumps(new))
        path.write_text(text)
    assert PAYLOADS["player 1"] in (out / "cup.jsonl").read_text()
    result = run("import", "--no-analytics", str(out))
    assert result.exit_code == 0, result.output


def test_payloads_in_tournament_and_entrant_names_are_escaped_on_every_tournament_page(
    tmp_path: Path, cli_invoker: Callable[..., Callable[..., Result]]
) -> None:
    db = tmp_path / "t.db"
    _evil_cup(tmp_path, cli_invoker(db))
    pages = ["/tournaments", "/tournaments?lang=it", "/tournaments/cup", "/tournaments/cup?lang=it"]
    pages += ["/tournaments/cup?after_round=1", "/tournaments/cup?after_round=2"]
    pages += ["/tournaments/cup/screen", "/tournaments/cup/screen?after_round=1", "/tournaments/cup/sheet"]
    pages += ["/tournaments/cup/sheet?after_round=1&lang=it"]
    app = create_app({"LEDGER_DB": str(db), "SPECTATOR_DELAY": 0})
    with serve(app) as url:
        seen = []
        for path in pages:
            status, headers, page = raw_get(url, path)
            seen.append((path, status, headers["content-type"].split(";")[0]))
            for where, payload in PAYLOADS.items():
                assert payload not in page, (path, where)
            tags = re.findall(r"<(?:script|svg|img|iframe|object|embed)\b[^>]*>", page)
            assert [t for t in tags if not _OWN_TAG.fullmatch(t)] == [], path
        assert seen == [(p, 200, "text/html") for p in pages]
        # each page names the payloads escaped (so the test reads pages that show them)
        page = raw_get(url, "/tournaments/cup")[2]
        for escaped in (
            "&lt;img src=x onerror=alert(2)&gt;",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            "&#34;&#39;&gt;&lt;svg onload=alert(3)&gt;",
        ):
            assert escaped in page, escaped
        # the standings chart: an SVG document whose text is the escaped names
        status, headers, svg = raw_get(url, "/tournaments/cup/standings.svg")
        assert (status, headers["content-type"].split(";")[0]) == (200, "image/svg+xml")
        for where, payload in PAYLOADS.items():
            assert payload not in svg, ("standings.svg", where)
        assert re.findall(r"<(script|img|iframe|object|embed|foreignObject)\b", svg) == []
        assert [a for tag in re.findall(r"<[^<>]*>", svg) for a in re.findall(r"\son[a-z]+=", tag)] == []
