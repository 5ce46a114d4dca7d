"""Italian and English for the dispute report: gettext catalogs read with Babel.

The catalog is ``replay_web/translations/<lang>/LC_MESSAGES/messages.po``
(English is the source language: its msgids are the English text, so ``en``
needs no catalog). The ``.po`` file is the one kept in git; it is compiled to
the gettext binary form in memory the first time a language is used
(:func:`babel.messages.mofile.write_mo`), so a clean checkout needs no build
step and no compiled ``.mo`` file can go stale. ``pybabel extract -F
babel.cfg`` / ``pybabel update`` keep the catalog in step with the sources
(README, "Dispute report").

>>> choose_lang("it_IT.UTF-8"), choose_lang("en-GB"), choose_lang("fr"), choose_lang(None)
('it', 'en', None, None)
>>> translations("it").gettext("stock")
'tallone'
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

#: languages of the report: English (the source) and Italian
LANGUAGES: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"
DOMAIN = "messages"
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"

_lock = threading.Lock()


def choose_lang(value: str | None) -> str | None:
    """The report language named by ``value`` (``it``, ``it_IT.UTF-8``,
    ``en-GB``…), or None when it names none of :data:`LANGUAGES`."""
    if not value:
        return None
    code = value.strip().split(".")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def po_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives."""
    return TRANSLATIONS_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (English: the msgids themselves).

    Raises ``ValueError`` for a language not in :data:`LANGUAGES`,
    ``FileNotFoundError`` when its catalog is missing.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the report is in {', '.join(LANGUAGES)}")
    if lang == "en":
        return NullTranslations()
    with _lock, po_path(lang).open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)
