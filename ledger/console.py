"""The ``rummy-ledger`` console script: the CLI (:mod:`ledger.cli`) imported and run under a Ctrl-C guard.

Importing the CLI (eventsourcing, msgspec, rich, click, the variants) takes
about a second; a Ctrl-C then came as a ``KeyboardInterrupt`` traceback of
the import machinery (issue 27, defect 7). This module imports nothing
heavy itself: the import happens inside :func:`main`, and an interrupt at
any time before the command's own guard (:class:`ledger.cli._Guarded`) is
one line, ``rummy-ledger: error: interrupted``, and exit status 130 (128 +
SIGINT), as an interrupt of a running command is.
"""

from __future__ import annotations

import signal
import sys

from ledger.sigint import interrupted, remember

#: the exit status of an interrupted command (128 + SIGINT)
INTERRUPTED = 130


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point ``rummy-ledger``: :func:`ledger.cli.main`."""
    try:
        signal.signal(signal.SIGINT, remember)
    except ValueError:  # not the main thread: Python's handler stays
        pass
    try:
        import ledger.cli

        ledger.cli.HARD_EXIT = True  # this process is the command's own: query --timeout may end it
        ledger.cli.main(argv)
    except KeyboardInterrupt:
        _interrupted(sys.argv[1:] if argv is None else argv)
    finally:
        # the command is done (its status on the way out): a Ctrl-C now changes nothing
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:
            pass


def _interrupted(argv: list[str]) -> None:
    """Say ``interrupted`` on one line (in Italian for ``--lang it`` or an
    Italian locale) and exit 130; a second Ctrl-C meanwhile changes nothing."""
    try:
        lang = None
        for i, arg in enumerate(argv):
            if arg.startswith("--lang="):
                lang = arg.split("=", 1)[1]
            elif arg == "--lang" and i + 1 < len(argv):
                lang = argv[i + 1]
        from ledger.i18n import LANGUAGES, env_lang, translations

        tr = translations(lang if lang in LANGUAGES else env_lang())
        line = tr.gettext("rummy-ledger: error: %(message)s") % {"message": tr.gettext("interrupted")}
    except BaseException:  # noqa: BLE001 - a second interrupt, or no catalog: English
        line = "rummy-ledger: error: interrupted"
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001,S110 - stderr closed: the status says it
        pass
    raise SystemExit(INTERRUPTED)


__all__ = ["INTERRUPTED", "interrupted", "main"]
