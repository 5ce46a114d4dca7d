"""Take docs/img/viewer.png, the README's picture: the replay viewer in headless Chromium.

Usage: ``python tools/make_screenshot.py [GAME_PATH] [AT]`` (default: the Burraco dispute fixture at
position 7). The viewer serves the record file (``LEDGER_RECORDS``, no store) on a free local port;
Debian's ``/usr/bin/chromium`` (or ``$RUMMY_LEDGER_CHROMIUM``) takes the page at 1366×900, the width
of a referee's laptop, through Playwright.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from ledger.record_files import read_record
from ledger.testing.live import serve
from replay_web import create_app

REPO = Path(__file__).resolve().parents[1]
TARGET = REPO / "docs" / "img" / "viewer.png"


def main(argv: list[str]) -> int:
    record = Path(argv[0]) if argv else REPO / "fixtures" / "burraco" / "dispute.jsonl"
    at = int(argv[1]) if len(argv) > 1 else 7
    game_id = read_record(record).events[0].game_id
    app = create_app({"LEDGER_RECORDS": [str(record)]})
    chromium = os.environ.get("RUMMY_LEDGER_CHROMIUM", "/usr/bin/chromium")
    with serve(app) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium)
        page = browser.new_page(viewport={"width": 1366, "height": 900}, locale="en-GB")
        page.goto(f"{url}/games/{game_id}?at={at}&lang=en")
        page.wait_for_selector(f'#board[data-position="{at}"]')
        page.screenshot(path=str(TARGET))
        browser.close()
    print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
