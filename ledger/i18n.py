"""Italian and English for the command line's human output: a gettext catalog read with Babel.

The CLI's catalog is ``ledger/translations/<lang>/LC_MESSAGES/ledger.po``
(domain ``ledger``), a catalog of its own beside the viewer's
(``replay_web/translations``, domain ``messages``), so the two never touch.
English is the source language (its msgids are the English text: ``en``
needs no catalog). As for the viewer, the ``.po`` file kept in git is
compiled in memory on first use (:func:`babel.messages.mofile.write_mo`), so
there is no build step and no stale ``.mo``. Keep it in step with the
sources with::

    pybabel extract -F ledger/babel.cfg -k N_ -o /tmp/ledger.pot .
    pybabel update -D ledger -i /tmp/ledger.pot -d ledger/translations

Only human output is translated: never ``--json``, rule ids, event types or
the record format. Finding messages are data (:mod:`ledger.texts`: a msgid
and its params, English ``msgid % params``) rendered where they are shown,
``finding.text(tr)``; the rules' msgids are in this catalog, used by the
viewer and the report too.
The rendering functions (:mod:`ledger.render`, :func:`ledger.views.describe`)
stay pure: they take a translations object
(``gettext``/``ngettext``), English by default, and the CLI passes
:func:`translations` of the language chosen by ``--lang`` or the
environment (:func:`env_lang`).

>>> choose_lang("it_IT.UTF-8"), choose_lang("en-GB"), choose_lang("fr"), choose_lang("C")
('it', 'en', None, None)
>>> env_lang({"LANG": "it_IT.UTF-8"}), env_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}), env_lang({})
('it', 'en', 'en')
>>> translations("it").gettext("hand over")
'smazzata finita'
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Mapping
from functools import cache
from gettext import NullTranslations
from pathlib import Path

#: languages of the CLI's human output: English (the source) and Italian
LANGUAGES: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"
DOMAIN = "ledger"
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: the locale variables, in the order POSIX gives them precedence for messages
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_lock = threading.Lock()


def N_(message: str) -> str:
    """Marks ``message`` for the CLI's catalog (``ledger/translations``); translated where it is shown."""
    return message


def choose_lang(value: str | None) -> str | None:
    """The language named by ``value`` (``it``, ``it_IT.UTF-8``, ``en-GB``…),
    or None when it names none of :data:`LANGUAGES` (``C``, ``POSIX``, ``fr``)."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for: the first set one of
    :data:`LOCALE_VARS` decides (``LANGUAGE`` may list several, ``it:en``);
    Italian for ``it_IT.*``, else English (``C``, another language, none)."""
    env = os.environ if environ is None else environ
    for var in LOCALE_VARS:
        value = env.get(var) or ""
        if not value:
            continue
        parts = value.split(":") if var == "LANGUAGE" else [value]
        for part in parts:
            lang = choose_lang(part)
            if lang:
                return lang
        if var != "LANGUAGE":  # LC_ALL=C (or fr_FR) overrides LANG, as gettext does
            return DEFAULT_LANG
    return DEFAULT_LANG


def po_path(lang: str) -> Path:
    """Where the CLI's catalog of ``lang`` lives."""
    return TRANSLATIONS_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (English: the msgids themselves).

    Raises ``ValueError`` for a language not in :data:`LANGUAGES`,
    ``FileNotFoundError`` when its catalog is missing.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the command line speaks {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANG:
        return NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with _lock, po_path(lang).open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


__all__ = [
    "DEFAULT_LANG",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_VARS",
    "N_",
    "choose_lang",
    "env_lang",
    "po_path",
    "translations",
]
