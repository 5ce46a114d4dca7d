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
The rendering functions (:mod:`ledger.render`, :func:`ledger.notation.notation`)
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

import os
from collections.abc import Mapping
from functools import cache
from gettext import NullTranslations
from pathlib import Path

from ledger.texts import N_
from ledger.texts.catalogs import DEFAULT_LANG, LANGUAGES, ROOTS, choose_lang, compiled
from ledger.texts.catalogs import po_path as _po_path

DOMAIN = "ledger"
TRANSLATIONS_DIR = ROOTS[DOMAIN]
#: the locale variables, in the order POSIX gives them precedence for messages
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


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
    return _po_path(lang, DOMAIN)


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
    return compiled(lang, DOMAIN)


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
