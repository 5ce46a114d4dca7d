"""The gettext catalogs, read with Babel: one loader for the command line's
(``ledger/translations``, domain ``ledger``) and the viewer's
(``replay_web/translations``, domain ``messages``), and the language names
both understand (:func:`choose_lang`).

The ``.po`` file kept in git is compiled in memory on first use
(:func:`babel.messages.mofile.write_mo`): no build step, no stale ``.mo``.
English is the source language (its msgids are the English text), so ``en``
needs no catalog. :mod:`ledger.i18n` (the CLI) and :mod:`replay_web.i18n`
(the viewer and the report) cache :func:`compiled` per language.

>>> choose_lang("it_IT.UTF-8"), choose_lang("en-GB"), choose_lang("fr"), choose_lang("C"), choose_lang(None)
('it', 'en', None, None, None)
>>> compiled("it", "ledger").gettext("hand over")
'smazzata finita'
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.support import Translations

#: languages of the human output: English (the source) and Italian
LANGUAGES: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"
#: where each gettext domain's catalogs live: the CLI's and the viewer's
ROOTS: dict[str, Path] = {
    "ledger": Path(__file__).resolve().parent.parent / "translations",
    "messages": Path(__file__).resolve().parent.parent.parent / "replay_web" / "translations",
}

_lock = threading.Lock()


def choose_lang(value: str | None) -> str | None:
    """The language named by ``value`` (``it``, ``it_IT.UTF-8``, ``en-GB``,
    ``it@euro``…), or None when it names none of :data:`LANGUAGES` (``C``, ``POSIX``, ``fr``)."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def po_path(lang: str, domain: str) -> Path:
    """Where the catalog of ``lang`` in ``domain`` (``ledger`` or ``messages``) lives."""
    return ROOTS[domain] / lang / "LC_MESSAGES" / f"{domain}.po"


def compiled(lang: str, domain: str) -> Translations:
    """The catalog of ``lang`` in ``domain`` compiled in memory: a new object on each call.
    Raises ``FileNotFoundError`` when it is missing."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with _lock, po_path(lang, domain).open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=domain)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=domain)


__all__ = ["DEFAULT_LANG", "LANGUAGES", "ROOTS", "choose_lang", "compiled", "po_path"]
