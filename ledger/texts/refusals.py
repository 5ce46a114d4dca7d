"""Refusals worded outside ``ledger/``, rendered with the catalog's command-line layer:
the dispute report's (:class:`replay_web.report_data.ReportError`), the PDF
printer's (:class:`replay_web.pdf.PdfUnavailableError`) and the write API's
UTF-8 refusal. Their msgids live here, in ``ledger/``, beside every other
refusal (``tests/test_rule_table.py`` walks them there); the raisers build
``Message(msgid, **params)`` from them.
"""

from __future__ import annotations

from ledger.texts import N_

NOT_UTF8 = N_("not UTF-8 text (%(reason)s)")
NO_FINDING_AT = N_("no finding at position %(pos)s (findings are at: %(where)s)")
NO_FINDING_AT_NONE = N_("no finding at position %(pos)s (findings are at: none)")
PDF_NEEDS_PLAYWRIGHT = N_(
    "PDF output needs Playwright: pip install %(pip)s and Debian's chromium (%(apt)s); -o FILE.html "
    "writes the printable page without them"
)
CHROMIUM_FAILED = N_(
    "cannot start Chromium (%(exe)s): %(why)s; install Debian's chromium or set %(env)s to a "
    "Chromium binary; -o FILE.html writes the printable page without it"
)

__all__ = ["CHROMIUM_FAILED", "NOT_UTF8", "NO_FINDING_AT", "NO_FINDING_AT_NONE", "PDF_NEEDS_PLAYWRIGHT"]
