"""Italian and English for every human text (the command line, the viewer,
the dispute report): one gettext catalog read with Babel.

The catalog is ``ledger/translations/<lang>/LC_MESSAGES/ledger.po`` (domain
``ledger``). English is the source language (its msgids are the English
text: ``en`` needs no catalog). The ``.po`` file kept in git is compiled in
memory on first use (:func:`babel.messages.mofile.write_mo`), so there is
no build step and no stale ``.mo``. One ``babel.cfg`` at the root of the
checkout reads every module of ``ledger/`` and ``replay_web/`` and the
viewer's templates; its first lines are the two commands that keep the
catalog in step with the sources::

    pybabel extract -F babel.cfg -k N_ -k C_:1c,2 --no-location --sort-output --no-wrap -o /tmp/ledger.pot .
    pybabel update -D ledger -i /tmp/ledger.pot -d ledger/translations --no-fuzzy-matching --ignore-obsolete --no-wrap

A msgid is in the catalog once, with one wording that the command line,
the viewer and the report share. Where one English word has two meanings
(``hand``: the cards held, or one deal of the game, a smazzata), the second
meaning has a msgctxt named for it (:data:`DEAL`), marked with :func:`C_`
and read with ``pgettext``.

Only human output is translated: never ``--json``, rule ids, event types or
the record format. Messages are data (:mod:`ledger.texts`: a msgid and its
params, English ``msgid % params``) rendered where they are shown with the
translations object of this module; the rendering functions stay pure
(English by default). The language is ``--lang``, else the locale variables
(:func:`env_lang`); the viewer's is the page's (:mod:`replay_web.lang`).

>>> choose_lang("it_IT.UTF-8"), choose_lang("en-GB"), choose_lang("fr"), choose_lang("C"), choose_lang(None)
('it', 'en', None, None, None)
>>> env_lang({"LANG": "it_IT.UTF-8"}), env_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}), env_lang({})
('it', 'en', 'en')
>>> translations("it").gettext("hand over"), translations("it").gettext("stalled")
('smazzata finita', 'bloccata')
>>> translations("it").gettext("hand"), translations("it").pgettext(DEAL, "hand")
('carte in mano', 'smazzata')
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Mapping
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.support import Translations

#: languages of the human output: English (the source) and Italian
LANGUAGES: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"
#: the gettext domain of the one catalog
DOMAIN = "ledger"
#: where the catalog of each language lives (``<lang>/LC_MESSAGES/ledger.po``)
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: the locale variables, in the order POSIX gives them precedence for messages
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: the msgctxt of "hand" (and its kin) meaning one deal of the game, a smazzata
DEAL = "a deal of the game"
#: the msgctxt of a short column heading (capitalized where the sentence word is not)
HEADING = "column heading"

_lock = threading.Lock()


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalog (``pybabel extract -k N_``); the text
    itself, translated where it is shown."""
    return msgid


def C_(context: str, msgid: str) -> str:
    """Marks ``msgid`` in the msgctxt ``context`` for the catalog (``pybabel
    extract -k C_:1c,2``), read with ``pgettext(context, msgid)`` where it
    is shown (:data:`DEAL`, :data:`HEADING`). The msgid itself.

    >>> C_(DEAL, "hand")
    'hand'
    """
    return msgid


def choose_lang(value: str | None) -> str | None:
    """The language named by ``value`` (``it``, ``it_IT.UTF-8``, ``en-GB``,
    ``it@euro``…), or None when it names none of :data:`LANGUAGES` (``C``, ``POSIX``, ``fr``)."""
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
    """Where the catalog of ``lang`` lives (``ledger/translations/<lang>/LC_MESSAGES/ledger.po``)."""
    return TRANSLATIONS_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(lang: str) -> Translations:
    """The catalog of ``lang`` compiled in memory: a new object on each call
    (:func:`translations` caches one). Raises ``FileNotFoundError`` when the
    catalog is missing."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with _lock, po_path(lang).open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@cache
def translations(lang: str) -> NullTranslations:
    """The gettext translations of ``lang`` (English: the msgids themselves).

    Raises ``ValueError`` for a language not in :data:`LANGUAGES`,
    ``FileNotFoundError`` when the catalog is missing.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the command line speaks {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANG:
        return NullTranslations()
    return compiled(lang)


__all__ = [
    "DEAL",
    "DEFAULT_LANG",
    "DOMAIN",
    "HEADING",
    "LANGUAGES",
    "LOCALE_VARS",
    "TRANSLATIONS_DIR",
    "C_",
    "N_",
    "choose_lang",
    "compiled",
    "env_lang",
    "po_path",
    "translations",
]
