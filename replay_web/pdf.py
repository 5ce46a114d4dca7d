"""HTML to PDF through headless Chromium's print-to-PDF, driven by Playwright.

The dispute report is the same page the viewer shows and the browser prints
(``report.css`` has the A4 ``@page`` and the print rules), so the PDF is made
by the same engine: Chromium's ``Page.printToPDF`` via Playwright's
:meth:`~playwright.sync_api.Page.pdf`. Playwright is an optional dependency
(``pip install 'rummy-ledger[pdf]'``); the browser is Debian's chromium
(``/usr/bin/chromium``, or the path in ``RUMMY_LEDGER_CHROMIUM``), else the
one Playwright installed itself.

The page is loaded with JavaScript off, offline, and every request aborted:
the report is one self-contained HTML string and fetches nothing.

One Chromium at a time per process (:data:`SLOTS`): the viewer's
``/games/<id>/report.pdf`` runs in a request thread, and a burst of
downloads waits its turn instead of starting a browser each; one that
waits longer than ``wait`` seconds is refused (:class:`PdfUnavailableError`,
the viewer's 503) rather than piling up.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ledger.errors import LedgerError
from ledger.texts import Message
from ledger.texts.refusals import CHROMIUM_FAILED, PDF_NEEDS_PLAYWRIGHT

__all__ = ["PdfUnavailableError", "html_to_pdf", "chromium_path", "CHROMIUM_ENV", "CHROMIUM_ARGS"]

#: environment variable naming the Chromium binary
CHROMIUM_ENV = "RUMMY_LEDGER_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
#: switches for a headless Chromium that may run as root in a container
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--no-first-run",
    "--mute-audio",
]
#: how long one PDF may take (milliseconds)
TIMEOUT_MS = 60_000
#: Chromiums this process runs at once for PDFs
SLOTS = threading.BoundedSemaphore(1)


class PdfUnavailableError(LedgerError):
    """PDF output cannot be made here (no Playwright, no Chromium); the
    message says what to install, and that ``-o FILE.html`` works without."""


def chromium_path() -> str | None:
    """The Chromium binary to launch: ``$RUMMY_LEDGER_CHROMIUM``, else
    Debian's ``/usr/bin/chromium`` when present, else None (Playwright's own)."""
    named = os.environ.get(CHROMIUM_ENV)
    if named:
        return named
    return DEFAULT_CHROMIUM if Path(DEFAULT_CHROMIUM).exists() else None


def html_to_pdf(html: str, wait: float = TIMEOUT_MS / 1000) -> bytes:
    """The PDF (A4, backgrounds printed, the page's own ``@page`` size and
    margins) of a self-contained HTML document. Raises
    :class:`PdfUnavailableError` when Playwright or Chromium is missing,
    Chromium fails to start, or no slot (:data:`SLOTS`) frees within
    ``wait`` seconds."""
    if not SLOTS.acquire(timeout=wait):
        raise PdfUnavailableError(f"every PDF slot of this server is busy (waited {wait:g} s); try again in a moment")
    try:
        return _print(html)
    finally:
        SLOTS.release()


def _print(html: str) -> bytes:
    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise PdfUnavailableError(
            Message(
                PDF_NEEDS_PLAYWRIGHT,
                pip="'rummy-ledger[pdf]'",
                apt="apt-get install --no-install-recommends chromium",
            )
        ) from None
    exe = chromium_path()
    with sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, timeout=TIMEOUT_MS)
        except PlaywrightError as exc:
            first = (str(exc).strip().splitlines() or ["no message"])[0]
            raise PdfUnavailableError(
                Message(
                    CHROMIUM_FAILED,
                    exe=exe or "the browser Playwright installed",
                    why=first,
                    env=CHROMIUM_ENV,
                )
            ) from None
        try:
            context = browser.new_context(java_script_enabled=False, offline=True)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.route("**/*", lambda route: route.abort())
            page.set_content(html, wait_until="load")
            page.emulate_media(media="print")
            return page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        finally:
            browser.close()
